# SPDX-License-Identifier: GPL-3.0-or-later
"""Every ``--json`` document has its versioned schema in ``export/``: the export document for
the measuring commands (test_export.py), and ``advise``, ``compare``, ``history`` and ``list``
here."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

import cipherbench
from advise_fixtures import fill

EXPORT = Path(cipherbench.__file__).parent / "export"


def _schema(name: str) -> dict:
    return json.loads((EXPORT / name).read_text())


def test_every_schema_file_is_a_valid_schema():
    names = sorted(p.name for p in EXPORT.glob("*.json"))
    assert names == ["advise.schema.json", "compare.schema.json", "fleet.schema.json",
                     "history.schema.json",
                     "list-missing.schema.json", "list.schema.json", "machines.schema.json",
                     "schema.json"]
    for n in names:
        jsonschema.Draft202012Validator.check_schema(_schema(n))


def test_advise_json_follows_its_schema(cli, env):
    from cipherbench.advise.record import SCHEMA
    fill(env["CIPHERBENCH_DB"], "aes")
    out = cli("advise", "--no-measure", "--json", "--for", "all")
    assert out.rc == 0, out.err
    doc = out.json()
    schema = _schema("advise.schema.json")
    jsonschema.validate(doc, schema)
    assert doc["schema"] == SCHEMA == schema["properties"]["schema"]["const"]


def test_compare_json_follows_its_schema(cli):
    args = ["--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384", "--budget",
            "0", "--no-ref"]
    assert cli("run", *args).rc == 0 and cli("run", *args).rc == 0
    out = cli("compare", "1", "2", "--json")
    assert out.rc == 0, out.err
    jsonschema.validate(out.json(), _schema("compare.schema.json"))


def test_history_json_follows_its_schema(cli, env):
    from cipherbench.export import history
    args = ["--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384", "--budget",
            "0"]
    assert cli("run", *args).rc == 0
    fill(env["CIPHERBENCH_DB"], "aes")
    assert cli("advise", "--no-measure", "--json", "--for", "ssh").rc == 0
    for extra in ([], ["--all"]):
        doc = cli("history", "--json", *extra).json()
        jsonschema.validate(doc, _schema("history.schema.json"))
        assert doc["schema"] == history.SCHEMA_NAME
        assert doc["schema_version"] == history.SCHEMA_VERSION
    doc = cli("history", "--json").json()
    first = doc["runs"][0]
    assert first["run"] == 1 and first["command"] == "run" and first["status"] == "complete"
    assert first["libraries"] == ["openssl"] and first["results"] > 0
    assert doc["not_listed"] == 1
    assert "advise" in [r["command"] for r in cli("history", "--json", "--all").json()["runs"]]


def test_list_json_follows_its_schema(cli):
    from cipherbench.export import listing
    doc = cli("list", "--json").json()
    jsonschema.validate(doc, _schema("list.schema.json"))
    assert (doc["schema"], doc["schema_version"]) == (listing.SCHEMA_NAME,
                                                      listing.SCHEMA_VERSION)
    gcm = next(a for a in doc["algorithms"] if a["algo"] == "aes-128-gcm")
    assert "openssl" in gcm["libs"] and isinstance(gcm["libs"], list)
    ossl = next(l for l in doc["libraries"] if l["lib"] == "openssl")
    assert isinstance(ossl["caps"], list)


def test_list_missing_json_follows_its_schema(cli, env):
    from cipherbench.export import listing
    from conftest import real_core   # the fake core replays no `list --offered`
    r = cli("list", "--missing", "--json", env_override=dict(env, CIPHERBENCH_CORE=str(real_core())))
    assert r.rc == 0, r.err
    doc = r.json()
    jsonschema.validate(doc, _schema("list-missing.schema.json"))
    assert doc["schema"] == listing.MISSING_SCHEMA_NAME and doc["libraries"]
