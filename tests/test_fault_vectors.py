"""Vector files: a hex field is hex and nothing else. A NUL (raw, or the JSON escape \\u0000)
used to cut a string short, so a correct digest followed by junk passed."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

CORE = Path(os.environ.get("CIPHERBENCH_CORE")
            or Path(__file__).resolve().parents[1] / "build" / "core" / "cipherbench-core")
pytestmark = pytest.mark.skipif(not CORE.exists() or "fake_core" in str(CORE),
                                reason="the real core is not built")
MD = hashlib.sha256(b"abc").hexdigest()


def kat(tmp_path: Path, text: str | bytes) -> subprocess.CompletedProcess:
    f = tmp_path / "sha256.json"
    f.write_bytes(text.encode() if isinstance(text, str) else text)
    return subprocess.run([str(CORE), "kat", "--vectors", str(f), "--no-differential"],
                          capture_output=True, text=True, timeout=120)


def vector_file(md_json: str, msg_json: str = '"616263"') -> str:
    return ('{"format": "cipherbench-vectors/1", "algo": "sha256", "source": "test", '
            f'"vectors": [{{"name": "abc", "msg": {msg_json}, "md": {md_json}}}]}}')


def test_the_honest_file_passes(tmp_path):
    r = kat(tmp_path, vector_file(json.dumps(MD)))
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert any(x["type"] == "kat" and x["passed"] == 1 for x in recs)


@pytest.mark.parametrize("md", [
    '"' + MD + '\\u0000zz"',          # the correct digest, a NUL escape, junk
    '"' + MD + '\\u0000"',
    '"' + MD[:32] + '\\u0000' + MD[32:] + '"',
])
def test_a_nul_escape_in_a_hex_field_is_refused(tmp_path, md):
    r = kat(tmp_path, vector_file(md))
    assert r.returncode == 2 and "NUL" in r.stderr and r.stdout == ""


def test_a_raw_nul_byte_is_refused(tmp_path):
    text = vector_file(json.dumps(MD)).encode() + b"\0" + b'{"junk": 1}'
    r = kat(tmp_path, text)
    assert r.returncode == 2 and "NUL byte" in r.stderr


@pytest.mark.parametrize("md", [MD + "zz", MD[:-2] + "g0", " " + MD[1:], MD[:-1] + " ",
                                "0x" + MD[2:], MD + "0", MD.replace("a", "\u00e1", 1)])
def test_non_hex_characters_are_refused(tmp_path, md):
    r = kat(tmp_path, vector_file(json.dumps(md)))
    assert r.returncode == 2 and "not a hex string" in r.stderr


def test_an_escaped_backslash_before_u0000_is_not_a_nul(tmp_path):
    # "\\u0000" is a backslash and five characters: not hex, refused as such (not as a NUL).
    r = kat(tmp_path, vector_file('"' + MD + '\\\\u0000"'))
    assert r.returncode == 2 and "not a hex string" in r.stderr and "NUL" not in r.stderr


# -- must-fail vectors ("result": "invalid") ---------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def run_file(tmp_path: Path, doc: dict) -> subprocess.CompletedProcess:
    f = tmp_path / f"{doc['algo']}.json"
    f.write_text(json.dumps(doc))
    return subprocess.run([str(CORE), "kat", "--vectors", str(f), "--no-differential"],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("algo,words", [("aes-128-gcm", "decrypt accepted an invalid vector"),
                                        ("chacha20-poly1305", "decrypt accepted an invalid vector"),
                                        ("hmac-sha256", "gave the mac of an invalid vector"),
                                        ("poly1305", "gave the mac of an invalid vector")])
def test_a_must_fail_vector_that_verifies_fails_kat(tmp_path, algo, words):
    """The standard's own (valid) vector labelled invalid: every library must be caught."""
    doc = json.loads((ROOT / "vectors" / f"{algo}.json").read_text())
    v = dict(doc["vectors"][-1], result="invalid", expect="auth_failure")
    v.pop("pt", None)
    doc["vectors"] = [v]
    r = run_file(tmp_path, doc)
    assert r.returncode == 1, r.stderr
    kats = [x for x in map(json.loads, r.stdout.splitlines()) if x["type"] == "kat"]
    assert kats and all(k["failed"] == 1 and words in k["message"] for k in kats)


@pytest.mark.parametrize("algo", ["aes-128-gcm", "chacha20-poly1305", "hmac-sha1", "umac-64",
                                  "aes-256-ocb", "cmac-aes-128"])
def test_the_bundled_must_fail_vectors_are_refused_by_every_library(algo):
    f = ROOT / "vectors" / "invalid" / f"{algo}.json"
    r = subprocess.run([str(CORE), "kat", "--vectors", str(f), "--no-differential"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(json.loads(f.read_text())["vectors"])
    kats = [x for x in map(json.loads, r.stdout.splitlines()) if x["type"] == "kat"]
    assert kats and all(k["passed"] + k["skipped"] == n and k["failed"] == 0 for k in kats)


@pytest.mark.parametrize("change,words", [
    ({"result": "invalid"}, "expect"),
    ({"result": "bogus", "expect": "auth_failure"}, "\"result\" must be"),
    ({"result": "invalid", "expect": "crash"}, "expect"),
])
def test_malformed_must_fail_vectors_are_refused(tmp_path, change, words):
    doc = json.loads((ROOT / "vectors" / "invalid" / "aes-128-gcm.json").read_text())
    doc["vectors"] = [dict(doc["vectors"][0], **change)]
    if "expect" not in change:
        doc["vectors"][0].pop("expect")
    r = run_file(tmp_path, doc)
    assert r.returncode == 2 and words in r.stderr


def test_only_aeads_macs_and_key_wraps_take_must_fail_vectors(tmp_path):
    doc = {"format": "cipherbench-vectors/1", "algo": "sha256", "source": "test",
           "vectors": [{"name": "x", "msg": "616263", "md": "00" * 32, "result": "invalid",
                        "expect": "auth_failure"}]}
    r = run_file(tmp_path, doc)
    assert r.returncode == 2 and "only AEAD, MAC and key-wrap" in r.stderr


def test_the_vectors_directory_brings_its_must_fail_cases():
    """kat over a directory also reads its invalid/ (as bench does before timing)."""
    r = subprocess.run([str(CORE), "kat", "--lib", "openssl", "--no-differential", "--vectors",
                        str(ROOT / "vectors")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    kats = [x for x in map(json.loads, r.stdout.splitlines()) if x["type"] == "kat"]
    must_fail = {k["algo"] for k in kats if k.get("source", "").startswith("derived from")}
    assert {"aes-128-gcm", "chacha20-poly1305", "hmac-sha256", "poly1305", "aes-128-kw",
            "aes-256-kwp"} <= must_fail
