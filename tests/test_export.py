# SPDX-License-Identifier: GPL-3.0-or-later
"""Exporters: one interface, golden files, and the JSON schema.

A golden file changes only on purpose: regenerate with CIPHERBENCH_UPDATE_GOLDEN=1 and review
the diff."""
import json
import os
from pathlib import Path

import jsonschema
import pytest

from cipherbench.export import EXPORTERS, SCHEMA_VERSION, RunBundle
from cipherbench.store import Result, Run, StoredWarning

GOLDEN = Path(__file__).resolve().parent / "golden"
SCHEMA = json.loads((Path(__import__("cipherbench").__file__).parent / "export" /
                     "schema.json").read_text())


def bundle() -> RunBundle:
    """A fixed run: two libraries, the reference rows, a fit, a warning."""
    run = Run(id=3, command="run", started_at="2026-01-02T03:04:05+00:00",
              finished_at="2026-01-02T03:04:35+00:00", status="complete",
              args={"preset": "quick", "sizes": [1024, 16384]},
              metadata={"hostname": "bench1", "cpu_model": "Test CPU", "cpu_flags": ["aes", "pclmulqdq"], "cores": 2,
                        "hypervisor": "none", "kernel": "6.1.0", "freq_hz": 3.0e9,
                        "core_version": "0.1.0", "core_compiler": "gcc 12.2.0",
                        "core_cflags": "-O3",
                        "libraries": {"openssl": {"version": "3.0.0", "caps": ["aes_hw"]},
                                      "nettle": {"version": "3.8", "caps": []},
                                      "ref": {"version": "cipherbench-core 0.1.0"}}},
              cipherbench_version="0.1.0", n_results=9, uid="5f0c2a9d7e1b4c3a8d6e0f1a2b3c4d5e")

    def pt(lib, algo, op, size, median, n=10):
        return Result("primitive", lib, algo, op, size, "ns_per_op", "ns", median,
                      median * 0.99, median * 1.01, n, 0.02,
                      {"bytes_per_s": size / median * 1e9, "stable": True})

    def slope(lib, algo, op, s):
        return Result("primitive", lib, algo, op, None, "slope_ns_per_byte", "ns/B", s, None,
                      None, 2, None, {"cycles_per_byte": s * 3.0, "intercept_ns": 50.0,
                                      "r2": 0.999})

    results = [
        pt("ref", "memcpy", "ref", 16384, 400.0), pt("ref", "null", "ref", 16384, 2.5),
        pt("openssl", "aes-128-gcm", "encrypt", 16384, 4096.0),
        slope("openssl", "aes-128-gcm", "encrypt", 0.25),
        pt("nettle", "aes-128-gcm", "encrypt", 16384, 16384.0),
        slope("nettle", "aes-128-gcm", "encrypt", 1.0),
        pt("openssl", "rc4", "encrypt", 16384, 8192.0),
        pt("nettle", "rc4", "encrypt", 16384, 9000.0),
        pt("openssl", "sha256", "hash", 16384, 20000.0),
    ]
    warns = [StoredWarning("noisy", "nettle rc4 encrypt 16384 B",
                           "samples vary by 12% (CV): close other programs")]
    return RunBundle(run, results, warns)


@pytest.mark.parametrize("fmt", sorted(EXPORTERS))
def test_golden(fmt):
    exp = EXPORTERS[fmt]
    text = exp.render(bundle(), 16384)
    path = GOLDEN / f"run.{exp.extension}"
    if os.environ.get("CIPHERBENCH_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_every_exporter_has_the_interface():
    for name, exp in EXPORTERS.items():
        assert exp.name == name and exp.extension
        assert exp.render(bundle()).endswith("\n")


def test_json_export_validates_and_carries_the_version():
    doc = json.loads(EXPORTERS["json"].render(bundle()))
    jsonschema.validate(doc, SCHEMA)
    assert doc["schema_version"] == SCHEMA_VERSION == SCHEMA["properties"]["schema_version"][
        "const"]
    grades = {r["algo"]: r["grade"] for r in doc["results"]}
    assert grades["rc4"] == "broken" and grades["memcpy"] == "reference"


def test_markdown_marks_the_fastest_and_keeps_reference_rows_on_top():
    md = EXPORTERS["markdown"].render(bundle())
    rows = [l for l in md.splitlines() if l.startswith("| ") and "---" not in l][1:]
    assert rows[0].startswith("| memcpy") and rows[1].startswith("| null")
    gcm = next(r for r in rows if r.startswith("| aes-128-gcm"))
    openssl_cell, nettle_cell = gcm.split("|")[4:6]
    assert "GB/s *" in openssl_cell and "*" not in nettle_cell
    assert "0.75 c/B" in openssl_cell and "4.00 GB/s" in openssl_cell


@pytest.mark.parametrize("command,keys", [("tls", {"suites", "handshakes"}),
                                          ("gpg", {"rows", "backup_size"}),
                                          ("ssh", set()), ("run", set())])
def test_every_command_json_is_the_export_document(tmp_path, command, keys):
    """``--json`` of run, tls, ssh and gpg prints this document: the stored run, plus the
    scenario's own summary where it has one; it validates against the one schema."""
    from cipherbench.store import Result, Store
    with Store.open(tmp_path / "r.sqlite") as store:
        rid = store.begin_run(command, {"backup_size": 1 << 30, "size": 1 << 20}, {})
        if command == "tls":
            store.add_result(rid, Result("tls", "openssl", "TLS_AES_128_GCM_SHA256", "transfer",
                                         16384, "bytes_per_s", "B/s", 1e9, 9e8, 1.1e9, 10,
                                         0.01, extra={"proto": "TLS1.3",
                                                      "grade": "recommended"}))
        if command == "gpg":
            store.add_result(rid, Result("gpg", "gnupg", "AES", "encrypt", 1 << 20,
                                         "bytes_per_s", "B/s", 3e8, 2.9e8, 3.1e8, 5, 0.01))
        store.finish_run(rid, "complete")
        doc = json.loads(EXPORTERS["json"].render(RunBundle.load(store, rid)))
    jsonschema.validate(doc, SCHEMA)
    assert doc["schema"] == "cipherbench-export" and doc["schema_version"] == SCHEMA_VERSION
    assert keys <= set(doc) and not ({"suites", "handshakes", "rows", "backup_size"} - keys) \
        & set(doc)
