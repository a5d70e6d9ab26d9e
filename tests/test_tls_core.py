# SPDX-License-Identifier: GPL-3.0-or-later
"""cipherbench-core tls against the real OpenSSL and GnuTLS (skipped, with the reason, when the
core is not built or has no TLS library): every TLS 1.3 suite negotiates and its data arrives
intact, a corrupted byte is caught, a refused legacy suite is reported, handshakes are counted
for every group and certificate type, and every line matches the protocol schema."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import real_core

SCHEMA = Path(__file__).resolve().parents[1] / "core" / "protocol" / "schema.json"
FAST = ["--samples", "2", "--min-sample-ms", "0.2"]
GROUPS = ["x25519", "p256", "p384", "x448", "ffdhe2048"]
CERTS = ["rsa2048", "rsa3072", "ecdsa-p256", "ed25519"]


def _core() -> Path:
    return real_core()


def run(*args, env=None):
    """(exit status, records, stderr) of ``cipherbench-core tls ARGS``."""
    p = subprocess.run([str(CORE), "tls", *args], capture_output=True, text=True, timeout=300,
                       env=env)
    recs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return p.returncode, recs, p.stderr


@pytest.fixture(scope="module")
def listing():
    global CORE
    CORE = _core()
    rc, recs, err = run("--list")
    if rc == 2 and "unknown command" in err:
        pytest.skip("this core has no tls command")
    assert rc == 0, err
    return recs


def libs_of(listing):
    libs = [r["lib"] for r in listing if r["type"] == "library"]
    if not libs:
        pytest.skip("the core was built without a TLS library")
    return libs


def validator():
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))


def test_list_names_every_suite_in_three_forms(listing):
    suites = [r for r in listing if r["type"] == "suite"]
    assert {s["algo"] for s in suites if s["proto"] == "TLS1.3"} == {
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_8_SHA256"}
    assert all(s["openssl"] and s["gnutls"] for s in suites)
    v = validator()
    for r in listing:
        v.validate(r)


def refused_at_security_level(lib: str, version: str, suites: list[str]) -> set[str]:
    """The TLS 1.3 suites the library's own tool says it does not offer at its default
    security level (OpenSSL 3.5 and later: TLS_AES_128_CCM_8_SHA256, whose tag has 64 bits);
    empty when there is no such tool of the very version the core uses."""
    if lib != "openssl" or shutil.which("openssl") is None:
        return set()
    tool = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout
    if tool.split()[:2] != version.split()[:2]:   # "OpenSSL 3.5.7"
        return set()
    out = subprocess.run(["openssl", "ciphers", "-s", "-tls1_3", "-ciphersuites",
                          ":".join(suites)], capture_output=True, text=True)
    offered = set(out.stdout.strip().split(":"))   # one line, names joined by ':'
    return set(suites) - offered


@pytest.mark.parametrize("lib", ["openssl", "gnutls"])
def test_every_tls13_suite_negotiates_and_moves_intact_data(listing, lib):
    if lib not in libs_of(listing):
        pytest.skip(f"the core was built without {lib}")
    tls13 = [r["algo"] for r in listing if r["type"] == "suite" and r["proto"] == "TLS1.3"]
    rc, recs, err = run("--lib", lib, "--suites", ",".join(tls13), "--sizes", "1400,16384",
                        *FAST)
    assert rc == 0, err
    (version,) = [r["version"] for r in recs if r["type"] == "library"]
    # What the library will not offer at its security level is reported as refused, with
    # the library's reason, and never timed; everything else moves data.
    refused = refused_at_security_level(lib, version, tls13)
    assert len(refused) < len(tls13)
    errors = {r["algo"]: r for r in recs if r["type"] == "error"}
    assert set(errors) == refused, list(errors.values())
    for e in errors.values():
        assert e["reason"] == "refused" and e["message"], e
    points = {(r["algo"], r["size"]): r for r in recs if r["type"] == "point"}
    assert not [k for k in points if k[0] in refused]
    for suite in (s for s in tls13 if s not in refused):
        for size in (1400, 16384):
            p = points[(suite, size)]
            assert p["op"] == "transfer" and p["proto"] == "TLS1.3"
            assert p["iters"] >= 1 and all(w > 0 for w in p["wall_ns"])
    v = validator()
    for r in recs:
        v.validate(r)


@pytest.mark.parametrize("lib", ["openssl", "gnutls"])
def test_changed_data_is_caught_not_timed(listing, lib):
    if lib not in libs_of(listing):
        pytest.skip(f"the core was built without {lib}")
    env = dict(os.environ, CIPHERBENCH_TLS_FAULT="corrupt")
    rc, recs, err = run("--lib", lib, "--suites", "TLS_AES_128_GCM_SHA256", *FAST, env=env)
    assert rc == 1, err
    assert not [r for r in recs if r["type"] == "point"]
    (e,) = [r for r in recs if r["type"] == "error"]
    assert e["reason"] == "run_failed" and "changed" in e["message"]


def test_refused_legacy_suite_is_reported_with_the_reason(listing):
    if "openssl" not in libs_of(listing):
        pytest.skip("the core was built without openssl")
    # Debian's OpenSSL 3 is built without RC4 suites; a library that still has them measures
    # them instead: either way a record, never a crash.
    rc, recs, err = run("--lib", "openssl", "--suites", "RC4-SHA,TLS_AES_128_GCM_SHA256",
                        "--sizes", "1400", *FAST)
    assert rc == 0, err
    assert recs[-1]["type"] == "end"
    rc4 = [r for r in recs if r.get("algo") == "TLS_RSA_WITH_RC4_128_SHA"]
    assert rc4 and rc4[0]["type"] in ("error", "point")
    if rc4[0]["type"] == "error":
        assert rc4[0]["reason"] == "refused" and rc4[0]["message"]
    assert any(r["type"] == "point" and r["algo"] == "TLS_AES_128_GCM_SHA256" for r in recs)


def test_legacy_suites_of_gnutls_are_measured_or_refused(listing):
    if "gnutls" not in libs_of(listing):
        pytest.skip("the core was built without gnutls")
    names = [r["algo"] for r in listing if r["type"] == "suite" and r["legacy"]]
    rc, recs, err = run("--lib", "gnutls", "--suites", ",".join(names), "--sizes", "1400", *FAST)
    assert rc == 0, err
    for n in names:
        got = [r for r in recs if r.get("algo") == n]
        assert got and (got[0]["type"] == "point" and got[0]["proto"] == "TLS1.2"
                        or got[0]["reason"] == "refused"), got


@pytest.mark.parametrize("lib", ["openssl", "gnutls"])
def test_handshakes_are_counted_for_every_group_and_certificate(listing, lib):
    if lib not in libs_of(listing):
        pytest.skip(f"the core was built without {lib}")
    rc, recs, err = run("--lib", lib, "--handshakes", "--no-transfer", *FAST)
    assert rc == 0, err
    assert not [r for r in recs if r["type"] == "error"]
    hs = {(r["op"], r["group"], r["cert"]): r for r in recs if r["type"] == "handshake"}
    want = [(g, "ecdsa-p256") for g in GROUPS] + [("x25519", c) for c in CERTS]
    for op in ("handshake", "resume"):
        for g, c in want:
            r = hs[(op, g, c)]
            assert r["iters"] >= 1 and all(w > 0 for w in r["wall_ns"])
            per_s = r["iters"] * 1e9 / min(r["wall_ns"])
            assert per_s > 0
    v = validator()
    for r in recs:
        v.validate(r)


@pytest.mark.parametrize("args", [
    [], ["--lib", "nosuch"], ["--lib", "openssl", "--suites", "NOPE"],
    ["--lib", "openssl", "--sizes", "8"], ["--lib", "openssl", "--groups", "p521"],
    ["--lib", "openssl", "--certs", "dsa"], ["--lib", "openssl", "--no-transfer"],
    ["--lib", "openssl", "--bogus"],
])
def test_bad_arguments_exit_2_with_one_line(listing, args):
    rc, recs, err = run(*args)
    assert rc == 2 and not recs
    assert len(err.strip().splitlines()) == 1, err
