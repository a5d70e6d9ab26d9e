# SPDX-License-Identifier: GPL-3.0-or-later
"""The store on SQLite and on PostgreSQL alike (``--db postgresql://...``): the same schema and
migrations, runs written by two processes at once, an interrupted run's results kept,
``import`` idempotent; a bad URL, an unreachable server or a missing psycopg is one line that
never shows the password. PostgreSQL runs for real: a private cluster (tests/pg_cluster.py),
one for the whole module, a fresh schema for each test."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
import textwrap
import time
import urllib.parse
from pathlib import Path

import pytest

from cipherbench.store import NoSuchRun, Result, Store, StoreError
from cipherbench.store.backend import statements
from cipherbench.store.schema import MIGRATIONS, SCHEMA_VERSION
from pg_cluster import cluster, server_bin

SRC = Path(__file__).resolve().parent.parent / "src"
RUN = ("run", "--lib", "openssl,libgcrypt", "--algo", "aes-128-gcm", "--sizes", "16,1024",
       "--budget", "0")
_schemas = itertools.count(1)
NO_PSYCOPG = ("psycopg is not installed: pip install '.[postgres]' "
              "(scripts/install-deps.sh --test installs it)")


@pytest.fixture(scope="module")
def pg_server():
    """The URL of a private cluster's ``postgres`` database (skipped where PostgreSQL or
    psycopg is not installed)."""
    bindir = server_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (scripts/install-deps.sh --test installs "
                    "Debian's postgresql)")
    pytest.importorskip("psycopg", reason=NO_PSYCOPG)
    with cluster(bindir) as url:
        yield url


def _in_schema(url: str, schema: str) -> str:
    return url + "&options=" + urllib.parse.quote(f"-csearch_path={schema}")


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path) -> str:
    """A fresh, empty database: a file, or a new schema on the private cluster."""
    if request.param == "sqlite":
        return str(tmp_path / "results.sqlite")
    server = request.getfixturevalue("pg_server")     # skips where there is no PostgreSQL
    import psycopg
    schema = f"t{next(_schemas)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return _in_schema(server, schema)


def _result(i: int, **kw) -> Result:
    fields = dict(scenario="primitive", lib="openssl", algo="aes-128-gcm", op="encrypt",
                  size=1024 * i, metric="ns_per_op", unit="ns", median=1234.5678901234567 + i,
                  ci_low=1200.0, ci_high=None, n_samples=6, cv=0.012345678901234,
                  extra={"samples": [1.5, 2.25], "note": "?% and ' quotes"})
    fields.update(kw)
    return Result(**fields)


def test_a_run_is_stored_and_read_back_the_same(where):
    with Store.open(where) as s:
        assert s.schema_version() == SCHEMA_VERSION
        run_id = s.begin_run("run", {"lib": ["openssl"]}, {"hostname": "h1"})
        ids = [s.add_result(run_id, _result(i)) for i in (1, 2)]
        s.add_result(run_id, _result(3, size=None, scenario="other"))
        s.add_warning(run_id, "load", "cpu", "busy: 'x' ?")
        s.update_metadata(run_id, {"cpu_share": 0.5})
        s.finish_run(run_id, "complete")
    assert ids[1] > ids[0]
    with Store.open(where, readonly=True) as s:
        run = s.get_run("last")
        assert (run.id, run.status, run.n_results, len(run.uid)) == (run_id, "complete", 3, 32)
        assert run.metadata == {"hostname": "h1", "cpu_share": 0.5}
        got = s.results(run_id)
        assert [r.size for r in got] == [1024, 2048, None]
        # doubles, not single precision: the figure comes back to the last bit
        assert got[0].median == 1235.5678901234567 and got[0].cv == 0.012345678901234
        assert got[0].extra == {"samples": [1.5, 2.25], "note": "?% and ' quotes"}
        assert [r.scenario for r in s.results(run_id, "other")] == ["other"]
        assert [(w.kind, w.text) for w in s.warnings(run_id)] == [("load", "busy: 'x' ?")]
        assert s.run_with_uid(run.uid) == run_id and s.run_with_uid("nope") is None
        with pytest.raises(StoreError):
            s.begin_run("run")                       # read-only means read-only


def test_a_run_is_found_by_its_number_or_from_the_newest(where):
    with Store.open(where) as s:
        with pytest.raises(NoSuchRun, match="there are no runs yet"):
            s.get_run("last")
        ids = [s.begin_run(command) for command in ("run", "tls", "run")]
        assert [s.get_run(ref).id for ref in ("last", -2, -3, ids[1])] == [ids[2], ids[1],
                                                                         ids[0], ids[1]]
        assert [r.id for r in s.runs("run")] == [ids[0], ids[2]]
        for ref in (-4, 99, -10**30, 10**30):
            with pytest.raises(NoSuchRun, match=f"runs are {ids[0]}..{ids[2]}"):
                s.get_run(ref)


def test_an_old_database_is_migrated_and_a_newer_one_refused(where):
    with Store.open(where) as s:                     # the tables of schema 1, as then
        s.db.execute("DROP TABLE warnings")
        s.db.execute("DROP TABLE results")
        s.db.execute("DROP TABLE runs")
        for stmt in statements(MIGRATIONS[1], s.db.tokens):
            s.db.execute(stmt)
        for _ in range(2):
            s.db.execute("INSERT INTO runs (command, started_at, status, cipherbench_version)"
                         " VALUES ('run', '2026-01-01T00:00:00+00:00', 'complete', '0.1.0')")
        s.db.set_schema_version(1)
    with pytest.raises(StoreError, match="older than this cipherbench reads"):
        Store.open(where, readonly=True)
    with Store.open(where) as s:
        assert s.schema_version() == SCHEMA_VERSION
        uids = {r.uid for r in s.runs()}
        assert len(uids) == 2 and all(len(u) == 32 for u in uids)
        s.db.set_schema_version(SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="newer than this cipherbench reads"):
        Store.open(where)


_WRITER = textwrap.dedent("""
    import os, sys, time
    from cipherbench.store import Result, Store
    where, name, go = sys.argv[1], sys.argv[2], float(sys.argv[3])
    while time.time() < go:
        time.sleep(0.005)
    with Store.open(where) as s:          # both may find the database empty: both migrate
        for i in range(10):
            run = s.begin_run("run", {"writer": name}, {"hostname": name})
            for j in range(4):
                s.add_result(run, Result(scenario="primitive", lib=name, algo="aes-128-gcm",
                                         op="encrypt", size=j, metric="ns_per_op", unit="ns",
                                         median=float(i * 10 + j)))
            s.finish_run(run, "complete")
""")


def test_two_processes_write_runs_at_once(where):
    go = time.time() + 0.8         # both open the database at the same moment
    env = {"PYTHONPATH": ":".join([str(SRC), *sys.path]), "PATH": "/usr/bin:/bin"}
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, where, name, str(go)],
                                env=env, stderr=subprocess.PIPE, text=True)
               for name in ("alpha", "beta")]
    errs = [w.communicate(timeout=120)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errs
    with Store.open(where, readonly=True) as s:
        runs = s.runs()
        assert len(runs) == 20 and len({r.uid for r in runs}) == 20
        for run in runs:
            assert run.status == "complete" and run.n_results == 4
            assert {r.lib for r in s.results(run.id)} == {run.args["writer"]}
        assert sorted(r.args["writer"] for r in runs) == ["alpha"] * 10 + ["beta"] * 10


def test_an_interrupted_run_keeps_its_finished_results(cli, env, where):
    # a served core counts its points over the run's rounds (the knob fires in round 2)
    e = dict(env, FAKE_CORE_SIGINT="libgcrypt:1", FAKE_CORE_SERVE="1")
    r = cli(*RUN, "--db", where, env_override=e, own_signals=True)   # the command's own Ctrl-C
    assert r.rc == 130 and "interrupted: run 1 keeps its" in r.err, r.err
    with Store.open(where, readonly=True) as s:
        run = s.get_run("last")
        results = s.results(run.id)
    assert run.status == "interrupted" and run.finished_at
    # which cells finished first depends on the rounds' shuffled order: some library's did
    libs = {x.lib for x in results}
    assert libs & {"openssl", "libgcrypt"} and libs <= {"openssl", "libgcrypt", "ref"}
    assert run.n_results == len(results)
    shown = cli("show", "last", "--db", where)
    assert shown.rc == 0 and "interrupted" in shown.out + shown.err


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[dict, Path]:
    """A run measured into a file of its own and exported (once for the module)."""
    from conftest import FAKE_CORE, in_process
    d = tmp_path_factory.mktemp("exported")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(d), "CIPHERBENCH_CORE": str(FAKE_CORE),
           "CIPHERBENCH_CORE_GO": "", "CIPHERBENCH_CORE_RUST": "",
           "CIPHERBENCH_DB": str(d / "source.sqlite"), "NO_COLOR": "1"}
    assert in_process(RUN, env).rc == 0
    out = in_process(["export", "last", "--format", "json"], env)
    assert out.rc == 0
    path = d / "run.json"
    path.write_text(out.out)
    return json.loads(out.out), path


def test_import_into_either_store_is_idempotent_and_shown_from_it(cli, env, where, exported):
    doc, path = exported
    first = cli("import", str(path), "--db", where)
    assert first.rc == 0 and "stored as run 1" in first.out, first.err
    with Store.open(where, readonly=True) as s:
        name = s.name                      # a URL without its password: the user's words
    assert f"imported 1 run into {name}" in first.out
    again = cli("import", str(path), "--db", where)
    assert again.rc == 0 and "already stored as run 1" in again.out
    with Store.open(where, readonly=True) as s:
        (run,) = s.runs()
        assert run.uid == doc["run"]["uid"] and run.n_results == len(doc["results"])
        assert run.metadata["hostname"] == doc["run"]["metadata"]["hostname"]
    # the commands that read, with $CIPHERBENCH_DB naming the database as --db does
    for args in (["history"], ["show", "1"], ["export", "last", "--format", "csv"]):
        out = cli(*args, env_override=dict(env, CIPHERBENCH_DB=where))
        assert out.rc == 0 and "Traceback" not in out.err, (args, out.err)
    assert "aes-128-gcm" in out.out


def test_another_programs_tables_are_left_untouched(pg_server, cli):
    import psycopg
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA theirs")
        conn.execute("CREATE TABLE theirs.runs (km integer)")
    out = cli("run", *RUN[1:], "--db", _in_schema(pg_server, "theirs"))
    assert out.rc == 1 and "not cipherbench's, left untouched" in out.err
    with psycopg.connect(pg_server, autocommit=True) as conn:
        tables = conn.execute("SELECT table_name FROM information_schema.tables"
                              " WHERE table_schema = 'theirs'").fetchall()
    assert tables == [("runs",)]


@pytest.mark.parametrize("url,rc,message", [
    ("postgresql://me:s3cr%40t@127.0.0.1:1/results?connect_timeout=5", 1,
     "cannot reach the results database postgresql://me@127.0.0.1:1/results"),
    ("postgresql://me:s3cr%40t@localhost:port/results", 1,
     "results database postgresql://me@localhost:port/results"),
    ("postgresql://me@/results?password=s3cr%40t&nosuch=1", 1, "bad database URL"),
    ("mysql://me:s3cr%40t@localhost/results", 2, "not a database cipherbench can use"),
])
def test_a_bad_url_or_server_is_one_line_without_the_password(cli, url, rc, message):
    pytest.importorskip("psycopg", reason=NO_PSYCOPG)
    for args in (["history"], ["run", *RUN[1:]], ["show", "last"]):
        out = cli(*args, "--db", url)
        assert out.rc == rc, (args, out.err)
        assert message in out.err and len(out.err.strip().splitlines()) == 1, out.err
        assert "s3cr" not in out.err + out.out and "Traceback" not in out.err


def test_without_psycopg_a_url_names_the_install(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)      # as if it were not installed
    out = cli("history", "--db", "postgresql://me@db.example/results")
    assert out.rc == 1 and len(out.err.strip().splitlines()) == 1
    assert "pip install 'cipherbench[postgres]'" in out.err and "libpq5" in out.err


def test_sqlite_never_imports_psycopg(tmp_path):
    code = ("import sys; from cipherbench.store import Store; "
            f"Store.open({str(tmp_path / 'x.sqlite')!r}).close(); "
            "assert 'psycopg' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True,
                   env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})


def test_a_server_that_goes_away_fails_the_run_in_one_line(pg_server):
    import psycopg
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA gone")
    s = Store.open(_in_schema(pg_server, "gone"))
    run = s.begin_run("run")
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE application_name = 'cipherbench'")
    with pytest.raises(StoreError, match="cannot write to the results database") as e:
        s.add_result(run, _result(1))
    assert "\n" not in str(e.value)
    s.close()


#: every command that takes --db, with the arguments that reach its store; None: checked
#: elsewhere (import reads its files first; gpg, luks, ssh and tls look for their programs,
#: the kernel's device-mapper or the core first)
_COMMANDS = {"advise": ["--for", "ssh", "--no-measure"], "compare": ["1", "2"],
             "export": ["last"], "gpg": None, "history": [], "import": None, "luks": None,
             "report": ["1"], "run": [], "show": ["last"], "ssh": None, "tls": None}


def test_every_command_with_a_db_option_takes_a_url(cli):
    from cipherbench.cli import build_cli
    group = build_cli()
    with_db = {name for name, c in group.commands.items()
               if any("--db" in getattr(p, "opts", ()) for p in c.params)}
    assert with_db == set(_COMMANDS)
    pytest.importorskip("psycopg", reason=NO_PSYCOPG)
    for name, args in _COMMANDS.items():
        if args is not None:
            out = cli(name, *args, "--db", "postgresql://me:pw@127.0.0.1:1/results")
            assert out.rc == 1 and "cannot reach the results database postgresql://me@" \
                in out.err and len(out.err.strip().splitlines()) == 1, (name, out.err)
