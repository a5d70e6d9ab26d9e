# SPDX-License-Identifier: GPL-3.0-or-later
"""The SQLite store: round trip, run references, migrations, unusable paths."""
import sqlite3

import pytest

from cipherbench.store import NoSuchRun, Result, SCHEMA_VERSION, Store, StoreError
from cipherbench.store.paths import default_db_path


def sample_result(**kw):
    base = dict(scenario="primitive", lib="openssl", algo="aes-128-gcm", op="encrypt",
                size=16384, metric="ns_per_op", unit="ns", median=9000.0, ci_low=8990.0,
                ci_high=9010.0, n_samples=12, cv=0.004, extra={"samples": [1.5, 2.5]})
    base.update(kw)
    return Result(**base)


def test_round_trip(tmp_path):
    path = tmp_path / "sub" / "r.sqlite"
    with Store.open(path) as s:
        rid = s.begin_run("run", {"sizes": [16]}, {"cpu_model": "X"})
        s.add_result(rid, sample_result())
        s.add_result(rid, sample_result(scenario="ssh", lib="openssh", size=None,
                                        metric="bytes_per_s", unit="B/s", median=1e8,
                                        ci_low=None, ci_high=None, cv=None, extra={}))
        s.add_warning(rid, "noisy", "openssl", "close other programs")
        s.finish_run(rid, "complete")
    with Store.open(path, create=False) as s:
        run = s.get_run(rid)
        assert run.status == "complete" and run.finished_at
        assert run.args == {"sizes": [16]} and run.metadata == {"cpu_model": "X"}
        assert run.n_results == 2
        rs = s.results(rid)
        assert [r.scenario for r in rs] == ["primitive", "ssh"]
        assert rs[0].median == 9000.0 and rs[0].extra == {"samples": [1.5, 2.5]}
        assert rs[1].size is None and rs[1].ci_low is None
        assert [r.lib for r in s.results(rid, scenario="ssh")] == ["openssh"]
        assert s.warnings(rid)[0].kind == "noisy"
        assert s.schema_version() == SCHEMA_VERSION


def test_results_are_committed_as_they_arrive(tmp_path):
    path = tmp_path / "r.sqlite"
    s = Store.open(path)
    rid = s.begin_run("run")
    s.add_result(rid, sample_result())
    # another connection sees it before the run is finished
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 1
    assert other.execute("SELECT status FROM runs").fetchone()[0] == "running"


def test_run_references(tmp_path):
    s = Store.open(tmp_path / "r.sqlite")
    with pytest.raises(NoSuchRun, match="no runs yet"):
        s.get_run("last")
    a, b = s.begin_run("run"), s.begin_run("ssh")
    assert s.get_run("last").id == b
    assert s.get_run("-2").id == a
    assert s.get_run(str(a)).id == a
    assert [r.command for r in s.runs(command="ssh")] == ["ssh"]
    with pytest.raises(NoSuchRun, match="runs are 1..2"):
        s.get_run("7")
    with pytest.raises(NoSuchRun, match="not a run number"):
        s.get_run("abc")
    with pytest.raises(ValueError):
        s.finish_run(a, "done")


def test_migrates_an_empty_file_and_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "r.sqlite"
    sqlite3.connect(path).close()       # an empty database: version 0
    assert Store.open(path).schema_version() == SCHEMA_VERSION
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer than this cipherbench"):
        Store.open(path)


def test_unusable_paths(tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(StoreError, match="--db"):
        Store.open(afile / "r.sqlite")          # parent is a file: fails even for root
    with pytest.raises(StoreError, match="directory"):
        Store.open(tmp_path)
    notdb = tmp_path / "notdb"
    notdb.write_text("this is not a database " * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store.open(notdb)
    with pytest.raises(StoreError, match="run `cipherbench run` first"):
        Store.open(tmp_path / "missing.sqlite", create=False)


def test_default_location():
    assert str(default_db_path({"CIPHERBENCH_DB": "/x/y.db"})) == "/x/y.db"
    assert str(default_db_path({"XDG_DATA_HOME": "/d"})) == "/d/cipherbench/results.sqlite"
    assert default_db_path({}).name == "results.sqlite"
