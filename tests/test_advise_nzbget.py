# SPDX-License-Identifier: GPL-3.0-or-later
"""advise --for nzbget: both TLS builds at once (OpenSSL cipher list and GnuTLS priority string,
each checked by its own tool), a headline naming only what the printed lines select, what
TLS 1.3 does, and one sentence on RC4-MD5."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from advise_fixtures import fill
from cipherbench.advise.candidates import suite_by_name


def nzbget(cli, *args):
    out = cli("advise", "--no-measure", "--json", "--for", "nzbget", *args)
    assert out.rc == 0, out.err
    return out.json()["targets"][0]


def lines(t) -> list[str]:
    return [c["text"] for c in t["config"] if not c["text"].startswith("#")]


@pytest.mark.parametrize("cpu", ["aes", "no-aes"])
def test_both_builds_at_once_and_the_headline_is_tls12(cli, env, cpu):
    fill(env["CIPHERBENCH_DB"], cpu)
    t = nzbget(cli)
    got = lines(t)
    assert len(got) == 2
    assert not got[0].startswith("Server1.Cipher=NORMAL") and \
        got[1].startswith("Server1.Cipher=NORMAL:")
    # the headline names a TLS 1.2 suite the OpenSSL list holds, never a TLS 1.3 suite
    rec = suite_by_name(t["recommendation"]["choice"])
    assert rec is not None and not rec.tls13
    assert rec.openssl in got[0].split("=", 1)[1].split(":")
    assert "TLS_AES_" not in t["answer"] and "TLS_CHACHA20" not in t["answer"]
    assert "TLS 1.3" in t["answer"] and "does not change them" in t["answer"]
    assert ("CHACHA20" in rec.openssl) is (cpu == "no-aes")
    rc4 = [n for n in t["notes"] if n.startswith("RC4-MD5")]
    assert len(rc4) == 1 and "RFC 7465" in rc4[0] and "AES-GCM" in rc4[0] and \
        "ChaCha20-Poly1305" in rc4[0]
    assert ("(this CPU has them)" in rc4[0]) is (cpu == "aes")
    # the bottleneck sentence names the same TLS 1.2 choice, never a TLS 1.3 suite
    assert "TLS_AES_" not in t["bottleneck"] and "TLS_CHACHA20" not in t["bottleneck"]


def test_lib_narrows_to_one_build(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    only_openssl = lines(nzbget(cli, "--lib", "openssl"))
    assert len(only_openssl) == 1 and "NORMAL" not in only_openssl[0]
    t = nzbget(cli, "--lib", "gnutls")
    assert len(lines(t)) == 1 and lines(t)[0].startswith("Server1.Cipher=NORMAL:")
    # GnuTLS's string selects TLS 1.3 suites too (by the same ciphers)
    assert "GnuTLS priority string selects its suites" in t["answer"]


def test_each_line_is_checked_by_its_own_tool(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    t = nzbget(cli)
    checked = {c["text"].split("=", 1)[1][:6]: (c["status"], c["checked_by"])
               for c in t["config"] if not c["text"].startswith("#")}
    ssl = next(v for k, v in checked.items() if k != "NORMAL")
    gnu = checked["NORMAL"]
    if shutil.which("openssl"):
        assert ssl == ("ok", "openssl ciphers -s -tls1_2")
    if shutil.which("gnutls-cli"):
        assert gnu[0] == "ok" and gnu[1].startswith("gnutls-cli --priority")
        prio = lines(t)[1].split("=", 1)[1]
        p = subprocess.run(["gnutls-cli", "--priority", prio, "-l"], capture_output=True,
                           text=True, timeout=30)
        assert p.returncode == 0 and "TLS_AES_128_GCM_SHA256" in p.stdout
    else:
        assert gnu[0] == "not checked"
