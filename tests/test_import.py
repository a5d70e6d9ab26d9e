# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench import FILE...``: runs exported from one store brought into another, each with
its machine, idempotent by the run's unique id (schema 2 of the store; export schema 6), older
exports without one by a digest of their content, fleet documents too; bad files refused in one
line before anything is stored. And the CSV export's host column."""
from __future__ import annotations

import json
import sqlite3

import jsonschema

from cipherbench.store import Store
from cipherbench.store.schema import MIGRATIONS
from cipherbench.store.backend import statements
from cipherbench.store.sqlite import TOKENS
from test_export import SCHEMA

RUN = ("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384",
       "--budget", "0")


def _export(cli, db, tmp_path, name="a.json", ref="last"):
    doc = cli("export", ref, "--format", "json", "--db", str(db)).json()
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return doc, path


def test_import_keeps_the_run_and_is_idempotent(cli, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    assert cli(*RUN, "--db", str(a)).rc == 0
    assert cli(*RUN, "--db", str(b)).rc == 0      # b has a run of its own first
    doc, path = _export(cli, a, tmp_path)
    jsonschema.validate(doc, SCHEMA)
    assert doc["run"]["uid"]
    res = cli("import", str(path), "--db", str(b))
    assert res.rc == 0, res.err
    assert "stored as run 2" in res.out and "imported 1 run" in res.out
    again = cli("import", str(path), str(path), "--db", str(b))
    assert again.rc == 0 and "already stored as run 2" in again.out
    assert "imported 0 runs" in again.out
    with Store.open(b) as store:
        assert len(store.runs()) == 2
    mine = cli("export", "2", "--format", "json", "--db", str(b)).json()
    assert mine["run"]["uid"] == doc["run"]["uid"]
    assert mine["run"]["started_at"] == doc["run"]["started_at"]
    assert mine["run"]["status"] == doc["run"]["status"]
    meta = dict(mine["run"]["metadata"])
    assert meta.pop("imported_from") == "a.json"
    assert meta == doc["run"]["metadata"]                  # the machine it was measured on
    strip = [{k: v for k, v in r.items()} for r in doc["results"]]
    assert mine["results"] == strip and mine["warnings"] == doc["warnings"]
    # and back: the store it came from already has it
    back = _export(cli, b, tmp_path, "b.json", "2")[1]
    assert "already stored as run 1" in cli("import", str(back), "--db", str(a)).out


def test_an_export_without_uid_and_a_fleet_document(cli, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    assert cli(*RUN, "--db", str(a)).rc == 0
    doc, _ = _export(cli, a, tmp_path)
    old = json.loads(json.dumps(doc))
    del old["run"]["uid"]
    old["schema_version"] = 5
    p_old = tmp_path / "old.json"
    p_old.write_text(json.dumps(old))
    assert "stored as run 1" in cli("import", str(p_old), "--db", str(b)).out
    assert "already stored as run 1" in cli("import", str(p_old), "--db", str(b)).out
    fleet = {"schema": "cipherbench-fleet", "schema_version": 1, "hosts": [
        {"host": "h1", "status": "complete", "exit_status": 0, "elapsed_s": 1.0,
         "reason": None, "runs": [doc]}]}
    p_fleet = tmp_path / "fleet.json"
    p_fleet.write_text(json.dumps(fleet))
    res = cli("import", str(p_fleet), "--db", str(b))
    assert res.rc == 0 and "stored as run 2" in res.out   # its uid is not the derived one
    with Store.open(b) as store:
        assert [r.uid for r in store.runs()][1] == doc["run"]["uid"]


def test_bad_files_are_refused_before_anything_is_stored(cli, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    assert cli(*RUN, "--db", str(a)).rc == 0
    _, good = _export(cli, a, tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = cli("import", str(good), str(bad), "--db", str(b))
    assert res.rc == 2 and len(res.err.strip().splitlines()) == 1 and "not JSON" in res.err
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema": "cipherbench-history", "runs": []}))
    res = cli("import", str(other), "--db", str(b))
    assert res.rc == 2 and "not a cipherbench run export" in res.err
    newer = json.loads(good.read_text())
    newer["schema_version"] = 99
    other.write_text(json.dumps(newer))
    assert "newer than this cipherbench reads" in cli("import", str(other), "--db",
                                                      str(b)).err
    assert cli("import", str(tmp_path / "none.json"), "--db", str(b)).rc == 2
    assert not b.exists() or Store.open(b).runs() == []


def test_runs_stored_before_get_a_unique_id(tmp_path):
    db = tmp_path / "v1.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    for stmt in statements(MIGRATIONS[1], TOKENS):
        conn.execute(stmt)
    for _ in range(2):
        conn.execute("INSERT INTO runs (command, started_at, status, cipherbench_version) "
                     "VALUES ('run', '2026-01-01T00:00:00+00:00', 'complete', '0.1.0')")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    with Store.open(db) as store:
        uids = [r.uid for r in store.runs()]
        assert len(set(uids)) == 2 and all(len(u) == 32 for u in uids)
        assert store.run_with_uid(uids[1]) == 2


def test_csv_export_names_the_host(cli, tmp_path):
    db = tmp_path / "a.sqlite"
    assert cli(*RUN, "--db", str(db)).rc == 0
    text = cli("export", "last", "--format", "csv", "--db", str(db)).out
    head, first = text.splitlines()[:2]
    assert head.split(",")[-1] == "host"
    host = cli("export", "last", "--format", "json", "--db", str(db)).json()["run"][
        "metadata"]["hostname"]
    assert first.split(",")[-1] == host
