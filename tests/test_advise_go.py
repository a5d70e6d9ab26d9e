# SPDX-License-Identifier: GPL-3.0-or-later
"""advise --for caddy / traefik: Go's crypto/tls rated by the stored ``go`` results, config
lines in Go's suite names, checked with caddy where it is installed (else "not checked")."""
from __future__ import annotations

import shutil

import pytest

from advise_fixtures import NO_AES_CPU, add_primitive
from cipherbench.advise import candidates as C
from cipherbench.advise.validate import Validator
from cipherbench.store import Store

# Go without AES instructions: ChaCha20-Poly1305 well ahead of AES-GCM
GO_NO_AES = {"aes-128-gcm": 180, "aes-256-gcm": 150, "chacha20-poly1305": 900,
             "aes-128-cbc": 120, "aes-256-cbc": 100, "hmac-sha1": 700, "hmac-sha256": 400,
             "rc4": 600, "3des-cbc": 30}


def advise(cli, env, *args):
    out = cli("advise", "--no-measure", "--json", *args)
    assert out.rc in (0, 3), out.err      # 3: a target (gpg here) was not measured
    return out.json()


def target(doc, name):
    return next(t for t in doc["targets"] if t["target"] == name)


def config_text(t) -> list[str]:
    return [c["text"] for c in t["config"]]


@pytest.fixture
def go_stored(env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, GO_NO_AES, ["ssse3"], lib="go")
        add_primitive(s, NO_AES_CPU, ["ssse3"])          # openssl: not what caddy uses


@pytest.mark.real
def test_caddy_and_traefik_are_rated_by_go(cli, env, go_stored):
    doc = advise(cli, env, "--for", "all")
    for name in ("caddy", "traefik"):
        t = target(doc, name)
        # Go sets TLS 1.2 suites only: the answer names the TLS 1.2 suite its line selects
        # (the one for an RSA certificate, of two that cannot be told apart) and says that
        # TLS 1.3 is Go's own choice
        assert t["recommendation"]["choice"] == \
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", name
        assert "picks its suite itself" in t["answer"], name
        rated = [c["rate"] for c in t["candidates"] if c["rate"] and c["available"]]
        assert rated and all(r["detail"].startswith("go ") for r in rated), name
        # suites Go does not implement are shown, never allowed
        ccm = next(c for c in t["candidates"] if c["choice"] == "TLS_AES_128_CCM_SHA256")
        assert not ccm["allowed"] and not ccm["available"] and "Go" in ccm["note"]
    lines = "\n".join(config_text(target(doc, "caddy")))
    cipher_line = next(l for l in config_text(target(doc, "caddy")) if "ciphers " in l)
    names = cipher_line.split()[1:]
    assert set(names[:2]) == {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
                              "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"}   # rank order
    assert all(n.startswith("TLS_ECDHE_") and ("GCM" in n or "CHACHA20" in n) for n in names)
    assert "protocols tls1.2 tls1.3" in lines and "no suite setting" in lines
    traefik = "\n".join(config_text(target(doc, "traefik")))
    assert "[tls.options.default]" in traefik and 'minVersion = "VersionTLS12"' in traefik
    assert 'cipherSuites = ["TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"' in traefik or \
        'cipherSuites = ["TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"' in traefik
    assert all(c["status"] in ("not checked", "comment") for c in target(doc, "traefik")["config"])
    # the openssl targets keep their own evidence
    assert not any(c["rate"]["detail"].startswith("go ")
                   for c in target(doc, "nginx")["candidates"] if c["rate"])


def test_caddy_lines_not_checked_without_caddy(cli, env, go_stored, tmp_path):
    e = dict(env, PATH=str(tmp_path))     # no caddy (nor anything else) on PATH
    out = cli("advise", "--no-measure", "--json", "--for", "caddy", env_override=e)
    assert out.rc == 0, out.err
    t = target(out.json(), "caddy")
    checked = [c for c in t["config"] if c["status"] != "comment"]
    assert checked and all(c["status"] == "not checked" for c in checked)


def test_no_go_results_says_how_to_get_them(cli, env):
    t = target(advise(cli, env, "--for", "caddy"), "caddy")
    assert all(c["rate"] is None for c in t["candidates"])
    assert any("build the Go core" in n for n in t["notes"])


def test_go_candidates_leave_out_what_crypto_tls_lacks():
    cands = {c.key: c for c in C.tls_candidates("go")}
    assert {k for k, c in cands.items() if not c.available} == C.NOT_IN_GO
    assert cands["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"].label == \
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"   # Go's names, not OpenSSL's
    assert all(c.available for c in C.tls_candidates())


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_installed_caddy_checks_the_block_and_refuses_what_it_lacks(tmp_path):
    import os
    v = Validator(dict(os.environ, TMPDIR=str(tmp_path)))
    ok, missing = v.caddy_filter(["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                                  "TLS_RSA_WITH_RC4_128_SHA"])
    assert ok == ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]
    assert missing == ["TLS_RSA_WITH_RC4_128_SHA"]
    assert v._caddy(("tls1.2 tls1.3", " ".join(ok)))[0] == "ok"
    status, detail = v._caddy(("tls1.2 tls1.3", "TLS_NO_SUCH_SUITE"))
    assert status == "rejected" and "TLS_NO_SUCH_SUITE" in detail
