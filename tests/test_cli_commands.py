# SPDX-License-Identifier: GPL-3.0-or-later
"""``list``, ``history``, ``show`` and ``export`` in-process, on the fake core and a store."""
import json

import jsonschema
import pytest

from test_export import SCHEMA

RUN = ["run", "--lib", "openssl,nettle", "--algo", "aes-128-gcm,sha256", "--sizes",
       "16,1024,16384", "--budget", "0"]


def test_list_shows_libraries_grades_and_cpu(cli):
    r = cli("list")
    assert r.rc == 0, r.err
    assert "CPU crypto features: aes" in r.out
    assert "openssl" in r.out and "OpenSSL 3" in r.out
    rc4 = next(l for l in r.out.splitlines() if "│ rc4 " in l)
    assert "broken" in rc4 and "RFC 7465" not in rc4   # the table gives the reason
    assert "keystream biases" in rc4


def test_list_filters_and_json(cli):
    r = cli("list", "--lib", "nettle", "--grade", "broken,legacy", "--json")
    assert r.rc == 0, r.err
    doc = r.json()
    assert [l["lib"] for l in doc["libraries"]] == ["nettle"]
    assert doc["algorithms"] and {a["grade"] for a in doc["algorithms"]} <= {"broken", "legacy"}
    assert all("nettle" in a["libs"] for a in doc["algorithms"])


@pytest.mark.parametrize("args,message", [
    (["--lib", "nettel"], "unknown library 'nettel' (did you mean nettle"),
    (["--grade", "brokn"], "unknown grade 'brokn' (did you mean broken"),
])
def test_list_bad_input(cli, args, message):
    r = cli("list", *args)
    assert r.rc == 2 and message in r.err and len(r.err.splitlines()) == 1


def test_history_show_export_round_trip(cli, tmp_path):
    assert cli(*RUN).rc == 0
    assert cli(*RUN, "--headline-size", "1024").rc == 0
    h = cli("history")
    assert h.rc == 0
    rows = [l for l in h.out.splitlines() if l.startswith("│")]
    assert len(rows) == 2 and "complete" in rows[0]
    hj = cli("history", "--json").json()
    assert [x["run"] for x in hj["runs"]] == [1, 2]

    s = cli("show", "1")
    assert s.rc == 0, s.err
    assert "throughput at 16 KiB" in s.out and "aes-128-gcm" in s.out and "cpu:" in s.out
    s2 = cli("show", "last")
    assert "throughput at 1 KiB" in s2.out      # the run's own headline size

    j = cli("show", "1", "--json").json()
    jsonschema.validate(j, SCHEMA)
    e = cli("export", "1", "--format", "json")
    assert e.rc == 0 and json.loads(e.out) == j

    c = cli("export", "1", "--format", "csv")
    lines = c.out.splitlines()
    assert lines[0].startswith("run_id,scenario,lib,algo")
    assert len(lines) - 1 == len(j["results"])

    out = tmp_path / "run.md"
    m = cli("export", "1", "-f", "markdown", "-o", str(out))
    assert m.rc == 0 and m.out == ""
    assert out.read_text().startswith("# cipherbench run 1")


def test_store_commands_bad_input(cli, env, tmp_path):
    r = cli("history")
    assert r.rc == 1 and "no results database" in r.err
    assert cli(*RUN).rc == 0
    r = cli("show", "9")
    assert r.rc == 2 and "no run 9" in r.err
    r = cli("export", "1", "--format", "xml")
    assert r.rc == 2 and "'xml' is not one of" in r.err
    r = cli("export", "1", "-o", str(tmp_path / "no" / "dir" / "x.json"))
    assert r.rc == 1 and "cannot write" in r.err
    for r in (cli("show", "abc"), cli("history", "--db", str(tmp_path / "missing.db"))):
        assert r.rc in (1, 2) and "Traceback" not in r.err and len(r.err.splitlines()) == 1


def test_help_and_version(cli):
    r = cli("--help")
    assert r.rc == 0
    for name in ("run", "list", "history", "show", "export"):
        assert name in r.out
    assert cli("--version").rc == 0
    r = cli("nosuchcommand")
    assert r.rc == 2 and "No such command" in r.err
