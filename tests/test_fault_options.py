# SPDX-License-Identifier: GPL-3.0-or-later
"""Every numeric option is checked alike (finite, in range, whole where a count or a size),
empty lists are refused, negative run numbers work, and what is missing is reported as its
words say (an "error:" fails the command, a "warning:" does not)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cipherbench.machine.cpus import allowed_cpus

SMALL = ["--lib", "openssl,libgcrypt", "--algo", "aes-128-gcm,sha256", "--sizes", "16,1024",
         "--budget", "0"]
NOT_MY_CPU = str(max(allowed_cpus()) + 1)

BAD = [
    # (command and arguments, words the one-line error must hold)
    (["run", "--budget", "nan"], "finite"),
    (["run", "--budget", "inf"], "finite"),
    (["run", "--budget", "-1"], "out of range"),
    (["run", "--budget", "lots"], "not a number"),
    (["run", "--sizes", "1.5"], "not a whole number of bytes"),
    (["run", "--sizes", "0"], "out of range"),
    (["run", "--algo", ""], "empty list"),
    (["run", "--lib", ","], "empty list"),
    (["run", "--op", ""], "empty list"),
    (["run", "--sizes", ""], "empty list"),
    (["run", "--headline-size", "2.5"], "not a whole number of bytes"),
    (["run", "--samples", "1"], "range"),
    (["list", "--lib", ""], "empty list"),
    (["gpg", "--budget", "-1"], "out of range"),
    (["gpg", "--budget", "nan"], "finite"),
    (["gpg", "--size", "1.5"], "not a whole number of bytes"),
    (["gpg", "--size", "0"], "out of range"),
    (["gpg", "--algo", ""], "empty list"),
    (["gpg", "--ops", ","], "empty list"),
    (["ssh", "--budget", "0"], "out of range"),
    (["ssh", "--budget", "nan"], "finite"),
    (["ssh", "--size", "1.5"], "not a whole number of bytes"),
    (["ssh", "--size", "17G"], "out of range"),
    (["ssh", "--ciphers", ""], "empty list"),
    (["tls", "--budget", "nan"], "finite"),
    (["tls", "--budget", "-0.5"], "out of range"),
    (["tls", "--cpu", NOT_MY_CPU], "not one this process may run on"),
    (["tls", "--cpu", "-1"], "not one this process may run on"),
    (["tls", "--loopback-size", "100"], "out of range"),
    (["tls", "--loopback-size", "1.5"], "not a whole number of bytes"),
    (["tls", "--lib", ""], "empty list"),
    (["tls", "--suites", ""], "empty list"),
    (["tls", "--sizes", ","], "empty list"),
    (["run", "--wait-quiet", "nan"], "finite"),
    (["tls", "--wait-quiet", "inf"], "finite"),
    (["ssh", "--wait-quiet", "NaN"], "finite"),
    (["gpg", "--wait-quiet", "Infinity"], "finite"),
    (["advise", "--for", "ssh", "--wait-quiet", "nan"], "finite"),
    (["compare", "1", "2", "--sizes", ""], "empty list"),
    (["compare", "--bogus", "1"], "No such option"),
    (["show", "-x"], "No such option"),
]


@pytest.mark.parametrize("args,words", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_values_are_one_line_and_exit_2(cli, args, words):
    out = cli(*args)
    assert out.rc == 2, out.err
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err
    assert words in out.err


def test_fractions_of_larger_units_stay_valid():
    from cipherbench.units import parse_size
    assert parse_size("1.5k") == 1536 and parse_size("0.5M") == 512 << 10
    with pytest.raises(ValueError):
        parse_size("1.1k")          # 1126.4 bytes


def test_negative_run_numbers_as_the_help_says(cli, tmp_path):
    for _ in range(3):
        assert cli("run", *SMALL).rc == 0
    out = cli("compare", "-2", "-1", "--json")
    assert out.rc == 0, out.err
    data = out.json()
    assert (data["run_a"]["id"], data["run_b"]["id"]) == (2, 3)
    assert cli("show", "-3").rc == 0
    assert cli("export", "-2", "-f", "csv").rc == 0
    assert cli("report", "-3", "-1", "-o", str(tmp_path / "r.html")).rc == 0
    out = cli("compare", "-9", "-1")
    assert out.rc == 2 and "no run -9" in out.err


def test_gpg_age_alone_needs_no_gpg(cli, env, tmp_path):
    if not (shutil.which("age") and shutil.which("age-keygen")):
        pytest.skip("age is not installed")
    bin_dir = tmp_path / "bin"           # age and nothing of GnuPG
    bin_dir.mkdir()
    for prog in ("age", "age-keygen"):
        (bin_dir / prog).symlink_to(shutil.which(prog))
    tmp = Path("/tmp") / f"cbt-age-{os.getpid()}"
    tmp.mkdir()
    try:
        out = cli("gpg", "--algo", "age", "--size", "64K", "--budget", "0.2", "--precision",
                  "0.5", "--no-core", env_override={**env, "PATH": str(bin_dir),
                                                     "TMPDIR": str(tmp)})
        assert list(tmp.iterdir()) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert out.rc == 0, out.err
    assert "age" in out.out and "error:" not in out.err
    # gpg itself still needs gpg
    out = cli("gpg", "--algo", "AES", env_override={**env, "PATH": str(bin_dir)})
    assert out.rc == 1 and "gpg" in out.err


def test_missing_openssl_is_a_warning_and_the_run_succeeds(cli, env, tmp_path):
    from test_tls_cli import real_env
    e, libs = real_env(env)
    if "openssl" not in libs:
        pytest.skip("the core has no OpenSSL TLS")
    empty = tmp_path / "bin"
    empty.mkdir()
    out = cli("tls", "--lib", "openssl", "--suites", "TLS_AES_128_GCM_SHA256", "--sizes",
              "1400", "--budget", "0", "--precision", "0.5", "--loopback", "--json",
              env_override={**e, "PATH": str(empty)})
    assert out.rc == 0, out.err
    assert "warning: openssl program not found" in out.err and "error:" not in out.err
    assert "leave out --loopback" in out.err    # the remedy names a real option
