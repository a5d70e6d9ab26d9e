# SPDX-License-Identifier: GPL-3.0-or-later
"""Every config line the advisor prints is accepted by the real tool (checked here
independently of the advisor's own validator), for every target and policy."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

import pytest

from advise_fixtures import fill

RUN = dict(capture_output=True, text=True, timeout=30)


def _config(cli, env, policy, lib=None):
    fill(env["CIPHERBENCH_DB"], "aes")
    args = ["advise", "--no-measure", "--json", "--for", "all", "--policy", policy]
    out = cli(*args, *(["--lib", lib] if lib else []))
    assert out.rc == 0, out.err
    return [(t["target"], c["text"], c["status"]) for t in out.json()["targets"]
            for c in t["config"]]


def _openssl_ok(string: str, tls13: bool) -> bool:
    argv = (["openssl", "ciphers", "-s", "-tls1_3", "-ciphersuites", string] if tls13
            else ["openssl", "ciphers", "-s", "-tls1_2", string])
    p = subprocess.run(argv, **RUN)
    listed = set(p.stdout.strip().split(":"))
    return p.returncode == 0 and all(n in listed for n in string.split(":"))


def _check(line: str) -> str | None:
    """Run the real tool on one line; returns what failed, or None. Lines of tools that are
    not installed are skipped (returns None)."""
    s = line.strip()
    m = re.fullmatch(r"(?:ssl_ciphers |ciphers = |Server1\.Cipher=)?([A-Z0-9-]+(?::[A-Z0-9-]+)*);?",
                     s)
    if m and not s.startswith(("NORMAL", "Server1.Cipher=NORMAL")) and "-" in m.group(1) \
            and shutil.which("openssl"):
        return None if _openssl_ok(m.group(1), False) else f"openssl ciphers: {s}"
    m = re.fullmatch(r"(?:ssl_conf_command Ciphersuites |ciphersuites = )?(TLS_[A-Z0-9_:]+);?", s)
    if m and shutil.which("openssl"):
        return None if _openssl_ok(m.group(1), True) else f"openssl -ciphersuites: {s}"
    m = re.fullmatch(r"(?:Server1\.Cipher=)?(NORMAL:\S+)", s)
    if m and shutil.which("gnutls-cli"):
        p = subprocess.run(["gnutls-cli", "--priority", m.group(1), "-l"], **RUN)
        return None if p.returncode == 0 else f"gnutls-cli: {s}"
    m = re.fullmatch(r"(Ciphers|MACs) (\S+)", s)
    if m and shutil.which("ssh"):
        p = subprocess.run(["ssh", "-G", "-F", "/dev/null", "-o", f"{m.group(1)}={m.group(2)}",
                            "localhost"], **RUN)
        return None if p.returncode == 0 else f"ssh -G: {s}"
    m = re.search(r"ssh -c (\S+?)(?: -m (\S+?))?'?( |$)", s) or \
        re.match(r"(?:scp|sftp) -c (\S+)(?: -m (\S+))?", s)
    if m and shutil.which("ssh"):
        argv = ["ssh", "-G", "-F", "/dev/null", "-c", m.group(1)]
        argv += ["-m", m.group(2)] if m.group(2) else []
        p = subprocess.run(argv + ["localhost"], **RUN)
        return None if p.returncode == 0 else f"ssh -G -c: {s}"
    if s.startswith(("personal-cipher-preferences", "gpg --symmetric")) and shutil.which("gpg"):
        with tempfile.TemporaryDirectory() as home:
            os.chmod(home, 0o700)
            if s.startswith("personal"):
                open(os.path.join(home, "gpg.conf"), "w").write(s + "\n")
                extra = []
            else:
                extra = ["--cipher-algo", re.search(r"--cipher-algo (\S+)", s).group(1)]
            p = subprocess.run(["gpg", "--homedir", home, "--batch", *extra, "--gpgconf-test"],
                               **RUN)
        return None if p.returncode == 0 else f"gpg: {s}"
    return None


@pytest.mark.parametrize("policy", ["modern", "compat", "legacy"])
def test_every_printed_line_is_accepted(cli, env, policy):
    lines = _config(cli, env, policy)
    assert lines
    checked = 0
    for tgt, text, status in lines:
        if status == "rejected":  # never printed as a line (shown as a comment instead)
            continue
        if text.startswith("#"):
            continue
        problem = _check(text)
        assert problem is None, (tgt, problem)
        checked += 1
    assert checked >= 10


def test_gnutls_lines_for_a_gnutls_nzbget(cli, env):
    lines = _config(cli, env, "compat", lib="gnutls")
    nzb = [t for tgt, t, _s in lines if tgt == "nzbget" and not t.startswith("#")]
    assert nzb and nzb[0].startswith("Server1.Cipher=NORMAL:")
    assert _check(nzb[0]) is None


def test_the_advisor_marks_what_it_checked(cli, env):
    lines = _config(cli, env, "modern")
    statuses = {(tgt, s) for tgt, t, s in lines if not t.startswith("#")}
    if shutil.which("openssl"):
        assert ("nginx", "ok") in statuses
    if shutil.which("ssh"):
        assert ("ssh", "ok") in statuses
    # cryptsetup is often absent: the line is then "not checked", never "ok"
    luks = [s for tgt, t, s in lines if tgt == "luks" and t.startswith("cryptsetup")]
    assert luks == (["ok"] if shutil.which("cryptsetup") else ["not checked"])
