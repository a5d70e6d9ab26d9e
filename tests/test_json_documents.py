"""Every ``--json`` document has its versioned schema in ``export/``: the export document for
the measuring commands (test_export.py), and ``advise`` and ``compare`` here."""
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
    assert names == ["advise.schema.json", "compare.schema.json", "schema.json"]
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
