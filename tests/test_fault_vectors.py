# SPDX-License-Identifier: GPL-3.0-or-later
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


# -- the row's own sizes, before any library sees them ----------------------------------------

def kat_records(r: subprocess.CompletedProcess) -> list[dict]:
    return [x for x in map(json.loads, r.stdout.splitlines()) if x["type"] == "kat"]


def libraries_with(algo: str) -> set[str]:
    """The libraries of this core that have a row for algo (its `list`)."""
    r = subprocess.run([str(CORE), "list"], capture_output=True, text=True, timeout=60)
    return {x["lib"] for x in map(json.loads, r.stdout.splitlines())
            if x["type"] == "algorithm" and x["algo"] == algo}


def must_fail(doc: dict, base: dict, name: str, **change) -> dict:
    v = {f: base[f] for f in ("key", "iv", "aad", "ct", "tag")}
    v.update(change, name=name, result="invalid", expect="auth_failure")
    return v


@pytest.mark.parametrize("algo", ["aes-128-gcm", "chacha20-poly1305", "aes-128-ccm",
                                  "aes-128-eax", "aes-128-ocb", "aes-128-ccm-8",
                                  "xchacha20-poly1305"])
def test_a_prefix_of_the_right_tag_is_refused_in_every_library(tmp_path, algo):
    """Given the first 0, 1, 4, 8 or 15 bytes of the right tag, OpenSSL, Crypto++, LibTomCrypt
    and wolfSSL decrypted with one byte, libgcrypt, Nettle and GnuTLS with none, Mbed TLS with
    four and Botan with eight (and Nettle's EAX aborted on an empty tag)."""
    doc = json.loads((ROOT / "vectors" / f"{algo}.json").read_text())
    base = next(v for v in doc["vectors"] if v["pt"])
    n = len(base["tag"]) // 2
    doc["vectors"] = [must_fail(doc, base, f"first {k}", tag=base["tag"][:2 * k])
                      for k in (0, 1, 4, 8, 15) if k < n]
    r = run_file(tmp_path, doc)
    assert r.returncode == 0, r.stdout + r.stderr
    kats = kat_records(r)
    assert kats and {k["lib"] for k in kats} == libraries_with(algo)
    for k in kats:
        assert k["failed"] == 0 and k["must_fail"] == k["refused"] == len(doc["vectors"]), k
        assert "crashed" not in k


@pytest.mark.parametrize("algo,nonces", [("aes-128-ccm", (0, 6, 11, 13, 14, 15, 16)),
                                         ("aes-128-gcm", (0, 8, 11, 13, 16)),
                                         ("chacha20-poly1305", (8, 11, 13, 24)),
                                         ("aes-128-eax", (12, 15, 17))])
def test_a_nonce_of_another_length_is_refused_before_the_library(tmp_path, algo, nonces):
    """GnuTLS's CCM aborted (Nettle's assertion) on nonces outside 7..14 bytes and took 14;
    libgcrypt's ChaCha20-Poly1305 took nonces of any size with a warning on stderr."""
    doc = json.loads((ROOT / "vectors" / f"{algo}.json").read_text())
    base = next(v for v in doc["vectors"] if v["pt"])
    iv = bytes.fromhex(base["iv"]) * 4
    doc["vectors"] = [must_fail(doc, base, f"nonce of {k}", iv=iv[:k].hex()) for k in nonces]
    r = run_file(tmp_path, doc)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "WARNING" not in r.stderr and "Assertion" not in r.stderr
    kats = kat_records(r)
    assert kats
    for k in kats:
        assert k["failed"] == 0 and k["refused"] == len(nonces), k


@pytest.mark.parametrize("tag_len", [2, 4, 6, 8, 10, 12, 14, 3, 5, 15])
def test_a_ccm_tag_of_another_length_than_the_rows_is_refused(tmp_path, tag_len):
    """GnuTLS's CCM took tags of 2-15 bytes, odd lengths included: a row takes its own."""
    doc = json.loads((ROOT / "vectors" / "aes-128-ccm.json").read_text())
    base = next(v for v in doc["vectors"] if v["pt"])
    doc["vectors"] = [must_fail(doc, base, "cut", tag=base["tag"][:2 * tag_len])]
    r = run_file(tmp_path, doc)
    assert r.returncode == 0, r.stdout + r.stderr
    assert all(k["failed"] == 0 and k["refused"] == 1 for k in kat_records(r))


def test_every_bundled_must_fail_case_is_refused_by_every_library_that_has_the_row():
    """vectors/invalid/ alone: each library checks each file of a row it has, refuses every
    case, and crashes on none; the counts the performance notes quote come from here."""
    r = subprocess.run([str(CORE), "kat", "--no-differential", "--vectors",
                        str(ROOT / "vectors" / "invalid")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    kats = [k for k in kat_records(r) if k["passed"] + k["failed"] + k["skipped"]]
    files = {json.loads(f.read_text())["algo"]: len(json.loads(f.read_text())["vectors"])
             for f in (ROOT / "vectors" / "invalid").glob("*.json")}
    assert kats
    for k in kats:
        assert k["failed"] == 0 and "crashed" not in k, k
        assert k["must_fail"] == k["refused"] == files[k["algo"]], k
    for algo in ("aes-128-gcm", "aes-128-ccm", "aes-128-kw", "chacha20-poly1305"):
        assert sum(k["algo"] == algo for k in kats) >= 2, algo


def test_a_one_block_rfc_3394_wrap_is_refused(tmp_path):
    """Botan unwrapped 16 bytes (one block of key data) in every RFC 3394 row."""
    doc = json.loads((ROOT / "vectors" / "invalid" / "aes-128-kw.json").read_text())
    doc["vectors"] = [v for v in doc["vectors"] if "one block of key data" in v["name"]]
    assert len(doc["vectors"]) == 1
    r = run_file(tmp_path, doc)
    assert r.returncode == 0, r.stdout + r.stderr
    kats = kat_records(r)
    assert len(kats) >= 2 and all(k["refused"] == 1 for k in kats)


# -- exit statuses -----------------------------------------------------------------------------

def test_kat_over_an_empty_directory_fails(tmp_path):
    r = subprocess.run([str(CORE), "kat", "--no-differential", "--vectors", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "no vector checked" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_kat_of_a_library_without_the_files_row_fails(tmp_path):
    doc = json.loads((ROOT / "vectors" / "sha256.json").read_text())
    (tmp_path / "sha256.json").write_text(json.dumps(doc))
    r = subprocess.run([str(CORE), "kat", "--lib", "ref", "--vectors", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "no vector checked" in r.stderr


def test_kat_with_a_malformed_file_in_a_directory_fails(tmp_path):
    (tmp_path / "sha256.json").write_text((ROOT / "vectors" / "sha256.json").read_text())
    (tmp_path / "md5.json").write_text('{"format": "cipherbench-vectors/1", "algo": "md5"')
    r = subprocess.run([str(CORE), "kat", "--no-differential", "--vectors", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "md5.json" in r.stderr
