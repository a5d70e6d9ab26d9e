# SPDX-License-Identifier: GPL-3.0-or-later
"""The tables of ``tls``, ``ssh`` and ``advise`` at 80 and 100 columns: no line wider than the
terminal and no rate cut to an ellipsis (a narrow table wraps or splits, never cuts)."""
from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest
from rich.console import Console

from advise_fixtures import fill
from cipherbench.scenarios.ssh import sweep as ssh_runner
from cipherbench.scenarios.ssh import scenario as ssh_view
from cipherbench.scenarios.tls import scenario as tls_view
from cipherbench.scenarios.tls import tables as tls_tables
from cipherbench.store import Result, Run

WIDTHS = (80, 100)
#: A rate as a table shows it (``3.41 GB/s``, ``950 MB/s``) or ssh's bare MB/s figure.
RATE = re.compile(r"\d[\d,.]* [kMGT]?B/s")


@dataclass
class _Screen:
    console: Console
    err_console: Console


def _screen(width: int) -> tuple[_Screen, io.StringIO]:
    out = io.StringIO()
    con = Console(file=out, width=width, no_color=True, highlight=False)
    return _Screen(con, Console(file=io.StringIO(), width=width)), out


def _fits(text: str, width: int) -> None:
    lines = text.splitlines()
    assert lines
    for line in lines:
        assert len(line) <= width, f"{len(line)} > {width}: {line!r}"
        assert "…" not in line, line      # rich's mark of a cut cell


def _run(command: str, args: dict) -> Run:
    return Run(1, command, "2026-01-01T00:00:00", None, "complete", args, {}, "0")


def _ssh_head(algo, bps, *, cipher, mac=None, default=False):
    return Result(scenario="ssh", lib="openssh", algo=algo, op="transfer", size=1 << 30,
                  metric="bytes_per_s", unit="B/s", median=bps, ci_low=bps * 0.99,
                  ci_high=bps * 1.01, n_samples=12, cv=0.0123,
                  extra={"client_default": default, "cipher": cipher, "mac": mac,
                         "client_cpu_share": 0.99, "server_cpu_share": 1.0,
                         "grade": "recommended", "sample_cut": True, "tool": "cat"})


@pytest.mark.parametrize("width", WIDTHS)
def test_ssh_table_fits(width):
    results = [
        _ssh_head(ssh_runner.BASELINE, 3456.7e6, cipher="", mac=None),
        _ssh_head("chacha20-poly1305@openssh.com", 345.6e6, cipher="chacha20-poly1305@openssh.com",
                  default=True),
        _ssh_head("aes256-ctr+hmac-sha2-512-etm@openssh.com", 312.3e6, cipher="aes256-ctr",
                  mac="hmac-sha2-512-etm@openssh.com"),
        _ssh_head("aes128-cbc+umac-128-etm@openssh.com", 1234.5e6, cipher="aes128-cbc",
                  mac="umac-128-etm@openssh.com"),
    ]
    screen, out = _screen(width)
    ssh_view.view(screen, _run("ssh", {"size": 1 << 30, "host": "localhost"}), results, [])
    text = out.getvalue()
    _fits(text, width)
    # every MB/s figure is there whole, beside its cipher
    for figure in ("3,457", "346", "312", "1,234"):
        assert re.search(rf"(^|\s){figure}( †)?(\s|$)", text, re.M), figure
    assert "hmac-sha2-512-etm" in text.replace("\n", "")


def _tls(lib, algo, size, bps, **extra):
    return Result("tls", lib, algo, "transfer", size, "bytes_per_s", "B/s", bps, bps * 0.98,
                  bps * 1.02, extra=dict({"grade": "recommended", "proto": "TLSv1.2"}, **extra))


@pytest.mark.parametrize("width", WIDTHS)
def test_tls_tables_fit(width):
    suites = [("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305",
               "+ECDHE-RSA:+CHACHA20-POLY1305:+AEAD", 1.2345e9),
              ("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384",
               "+ECDHE-ECDSA:+AES-256-GCM:+AEAD", 2.3456e9)]
    results = []
    for iana, ossl, gnutls, bps in suites:
        for size in (1400, 16384, 65536):
            results.append(_tls("openssl", iana, size, bps * size / 65536, openssl=ossl,
                                gnutls=gnutls))
        results.append(Result("tls", tls_tables.LOOPBACK_LIB, iana, "loopback", 1 << 25,
                              "bytes_per_s", "B/s", bps / 3))
    results.append(Result("tls", "openssl", "TLS_RSA_WITH_RC4_128_MD5", "transfer", None,
                          "refused", "", 0.0,
                          extra={"message": "no cipher match: this build has no RC4 at all"}))
    results.append(Result("tls", "openssl", "x25519+ecdsa-p256", "handshake", None, "per_s",
                          "1/s", 1234.0))
    results.append(Result("tls", "openssl", "x25519+ecdsa-p256", "resume", None, "per_s",
                          "1/s", 5678.0))
    screen, out = _screen(width)
    tls_view.view(screen, _run("tls", {}), results, [],
                  libraries={"openssl": {"version": "OpenSSL 3.0.15 3 Sep 2024"}})
    tls_view.answer(screen, _run("tls", {}), results)
    text = out.getvalue()
    _fits(text, width)
    rates = RATE.findall(text)
    # 3 sizes + loopback for each suite, and the answer line's two figures
    assert len(rates) >= 2 * 4, rates
    words = " ".join(text.split())
    assert "refused: no cipher match: this build has no RC4 at all" in words
    assert "5,678" in text
    # names wrap at their separators only, never inside a word
    from test_widths import broken_names
    assert not broken_names(text, [s[0] for s in suites] + [s[1] for s in suites]
                            + ["TLS_RSA_WITH_RC4_128_MD5"])
    assert "[1] refused: no cipher match" in text       # the long reason is a footnote


@pytest.mark.real
@pytest.mark.parametrize("width", WIDTHS)
def test_advise_tables_fit(cli, env, width):
    fill(env["CIPHERBENCH_DB"], "aes")
    narrow = dict(env, COLUMNS=str(width))
    out = cli("advise", "--no-measure", "--for", "all", "--details", "--link", "1Gbit", env_override=narrow)
    assert out.rc == 0, out.err
    # the config lines are printed whole (to be copied), the rest fits
    config = {ln for ln in out.out.splitlines() if ln.startswith("    ")}
    _fits("\n".join(ln for ln in out.out.splitlines() if ln not in config), width)
    assert RATE.search(out.out)
    run_id = out.out.rsplit("stored as run ", 1)[1].split()[0]
    shown = cli("show", run_id, env_override=narrow)
    assert shown.rc == 0, shown.err
    _fits("\n".join(ln for ln in shown.out.splitlines() if not ln.startswith("    ")), width)
