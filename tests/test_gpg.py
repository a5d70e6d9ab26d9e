# SPDX-License-Identifier: GPL-3.0-or-later
"""The gpg scenario: real gpg and age on a small size, the private home, the report maths."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cipherbench.scenarios.gpg import programs, tables
from cipherbench.scenarios.gpg.home import private_gnupg_home
from cipherbench.scenarios.gpg.candidates import (AgeTool, Candidate, CandidateFailed, GpgTool,
                                                  candidates, measure_candidate, round_trip)
from cipherbench.store import Result, Store

needs_gpg = pytest.mark.skipif(shutil.which("gpg") is None, reason="gpg is not installed")
# The real core: the one the test command built ($CIPHERBENCH_CORE), else the source tree's.
REAL_CORE = Path(os.environ.get("CIPHERBENCH_CORE")
                 or Path(__file__).resolve().parents[1] / "build" / "core" / "cipherbench-core")

VERSION_TEXT = """gpg (GnuPG) 2.2.40
Supported algorithms:
Pubkey: RSA, ELG, DSA, ECDH, ECDSA, EDDSA
Cipher: IDEA, 3DES, CAST5, BLOWFISH, AES, AES192, AES256, TWOFISH,
        CAMELLIA128, CAMELLIA192, CAMELLIA256
Hash: SHA1, RIPEMD160, SHA256, SHA384, SHA512, SHA224
"""


def test_parse_gpg_ciphers_reads_continuation_lines():
    algos = programs.parse_gpg_ciphers(VERSION_TEXT)
    assert algos[0] == "IDEA" and algos[-1] == "CAMELLIA256" and len(algos) == 11


def test_candidates_reports_what_gpg_lacks_and_keeps_the_rest():
    chosen, problems = candidates(["AES", "AES256"], ["aes256", "SERPENT", "age"], with_age=True)
    assert [c.algo for c in chosen] == ["AES256", "chacha20-poly1305"]
    assert len(problems) == 1 and "SERPENT" in problems[0]


def _agents_for(home: Path) -> list[str]:
    out = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines()
            if "gpg-agent" in line and str(home) in line and not line.startswith("Z")]


@needs_gpg
def test_private_home_is_removed_with_its_agent_even_on_error():
    seen = {}
    with pytest.raises(RuntimeError):
        with private_gnupg_home() as home:
            seen["path"] = home.path
            assert oct(home.path.stat().st_mode & 0o777) == "0o700"
            assert oct(home.passphrase_file.stat().st_mode & 0o777) == "0o600"
            tool = GpgTool(shutil.which("gpg"), home)
            round_trip(tool, "AES", b"x" * 1000, home.env)   # starts a gpg-agent
            raise RuntimeError("boom")
    assert not seen["path"].exists()
    assert _agents_for(seen["path"]) == []


@needs_gpg
def test_round_trip_catches_a_wrong_decryption():
    class Liar(GpgTool):
        def decrypt(self, algo):
            return ["cat"]           # "decrypts" to the ciphertext itself
    with private_gnupg_home() as home:
        with pytest.raises(CandidateFailed, match="original bytes"):
            round_trip(Liar(shutil.which("gpg"), home), "AES", b"y" * 4096, home.env)


@needs_gpg
def test_every_supported_algorithm_measures_and_round_trips():
    env = dict(os.environ)
    gpg, _, algos = programs.gpg_info(env)
    assert "AES256" in algos
    data = os.urandom(64 * 1024)
    with private_gnupg_home(env) as home:
        tool = GpgTool(gpg, home)
        for algo in algos:
            ms = measure_candidate(tool, Candidate("gpg", algo), data, home.env,
                                   precision=0.5, budget_s=0.2, min_samples=2,
                                   ops=("encrypt",), fixed_cost=False)
            assert ms[0].error is None, (algo, ms[0].error)
            assert ms[0].throughput and ms[0].throughput > 0


def _fake_gpg(tmp_path: Path, options: str) -> str:
    """A stand-in gpg whose --dump-options lists ``options`` (GnuPG 2.2 or 2.4 style)."""
    exe = tmp_path / "gpg"
    exe.write_text(f"#!/bin/sh\nprintf '%s\\n' {options}\n")
    exe.chmod(0o755)
    return str(exe)


@pytest.mark.parametrize("options, allowed", [
    ("--armor --allow-weak-digest-algos", False),                         # GnuPG 2.2
    ("--armor --allow-old-cipher-algos --allow-weak-digest-algos", True),  # GnuPG 2.4
])
def test_old_ciphers_get_the_option_where_gpg_knows_it(tmp_path, options, allowed):
    with private_gnupg_home() as home:
        tool = GpgTool(_fake_gpg(tmp_path, options), home)
        for algo in ("IDEA", "3DES", "CAST5", "BLOWFISH"):
            assert ("--allow-old-cipher-algos" in tool.encrypt(algo)) == allowed, algo
        for algo in ("AES", "AES256", "TWOFISH", "CAMELLIA128"):
            assert "--allow-old-cipher-algos" not in tool.encrypt(algo)
        assert "--allow-old-cipher-algos" not in tool.decrypt("CAST5")


def test_failure_text_keeps_brackets_in_the_table():
    from io import StringIO

    from rich.console import Console

    from cipherbench.display.console import display_rows
    out = StringIO()
    msg = "failed: encryption failed (exit 2): gpg: [stdin]: encryption failed: Unusable"
    display_rows(Console(file=out, width=200, force_terminal=False), ["tool", "error"],
                 [["gpg", msg]])
    assert msg in out.getvalue()


@pytest.mark.skipif(programs.age_info(dict(os.environ)) is None, reason="age is not installed")
def test_age_round_trips_with_a_generated_identity():
    env = dict(os.environ)
    age, _ = programs.age_info(env)
    with private_gnupg_home(env) as home:
        tool = AgeTool(age, home, home.env)
        ms = measure_candidate(tool, Candidate("age", "chacha20-poly1305"), os.urandom(50000),
                               home.env, precision=0.5, budget_s=0.2, min_samples=2)
        assert all(m.error is None for m in ms)
        assert all(m.throughput > 0 for m in ms if m.size)
        assert {m.size for m in ms} == {50000, 0}   # the fixed cost is measured too


@needs_gpg
def test_cli_measures_stores_and_answers(cli, env, tmp_path):
    env = dict(env)
    if REAL_CORE.exists():
        env["CIPHERBENCH_CORE"] = str(REAL_CORE)
    else:
        env.pop("CIPHERBENCH_CORE")
    tmp = Path(tempfile.mkdtemp(prefix="cbt-", dir="/tmp"))   # short: gpg-agent's socket
    env["TMPDIR"] = str(tmp)
    out = cli("gpg", "--algo", "AES,CAST5,NOSUCH", "--size", "256K", "--budget", "0.3",
              "--precision", "0.5", "--backup-size", "1G", "--disk", "1kB/s",
              env_override=env)
    assert out.rc == 0, out.err
    assert "NOSUCH" in out.err and "AES" in out.out and "CAST5" in out.out
    assert "1 GiB: wall" in out.out and "fastest sound choice here" in out.out
    assert "wall-clock: the disk decides (1.00 kB/s, --disk 1kB/s)" in " ".join(out.out.split())
    assert list(tmp.iterdir()) == []          # the private GNUPGHOME is gone
    tmp.rmdir()
    with Store.open(env["CIPHERBENCH_DB"]) as store:
        run = store.runs()[0]
        assert run.command == "gpg" and run.status == "complete"
        got = {(r.lib, r.algo, r.op, r.size) for r in store.results(run.id)
               if r.metric == "bytes_per_s"}
        for algo in ("AES", "CAST5"):
            for op in ("encrypt", "decrypt"):
                assert ("gnupg", algo, op, 256 * 1024) in got
        if REAL_CORE.exists():
            assert ("libgcrypt", "aes-128-cfb", "encrypt", 65536) in got
            assert ("libgcrypt", "cast5-cfb", "encrypt", 65536) in got


def test_cli_without_gpg_says_so(cli, env, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    out = cli("gpg", env_override={**env, "PATH": str(empty)})
    assert out.rc == 1
    assert out.err.strip().count("\n") == 0 and "gpg is not installed" in out.err


def test_cli_rejects_bad_size(cli):
    out = cli("gpg", "--size", "lots")
    assert out.rc == 2 and "not a size" in out.err


def _r(lib, algo, op, size, median, **extra):
    return Result("gpg", lib, algo, op, size, "bytes_per_s", "B/s", median, extra=extra)


def test_report_separates_fixed_cost_and_gpg_overhead():
    mib = 1 << 20
    results = [
        # 100 MiB in 1.1 s with 0.1 s fixed: 100 MiB/s in bulk
        _r("gnupg", "AES", "encrypt", 100 * mib, 100 * mib / 1.1, wall_s=1.1),
        Result("gpg", "gnupg", "AES", "encrypt", 0, "bytes_per_s", "B/s", 0.0,
               extra={"wall_s": 0.1}),
        _r("gnupg", "CAST5", "encrypt", 100 * mib, 100 * mib / 4.0, wall_s=4.0),
        # cipher alone 400 MiB/s and SHA-1 400 MiB/s: 0.5 s per 100 MiB of 1.0 s bulk
        _r("libgcrypt", "aes-128-cfb", "encrypt", 65536, 400 * mib, role="cipher-alone",
           gpg_algo="AES"),
        _r("libgcrypt", "sha1", "hash", 65536, 400 * mib, role="mdc-hash"),
    ]
    rows = tables.rows_from_results(results)
    assert [r.algo for r in rows] == ["AES", "CAST5"]
    aes = rows[0]
    assert aes.overhead == pytest.approx(0.5)
    assert aes.backup_seconds(1000 * mib) == pytest.approx(0.1 + 10.0)
    assert rows[1].grade.level == "legacy" and aes.grade.level == "acceptable"
    text = tables.answer(rows, 1000 * mib, "1000 MiB")
    assert "gpg --cipher-algo AES" in text and "no legacy cipher is faster" in text


def test_too_deep_temporary_directory_is_a_clear_error(cli, env):
    out = cli("gpg", "--algo", "AES", env_override={**env, "TMPDIR": "/tmp/" + "d" * 80})
    assert out.rc == 1 and "too deep" in out.err


def test_fixed_cost_is_a_duration_and_old_runs_still_read():
    mib = 1 << 20
    bulk = _r("gnupg", "AES", "encrypt", 100 * mib, 100 * mib / 1.1, wall_s=1.1)
    new = Result("gpg", "gnupg", "AES", "encrypt", 0, "seconds", "s", 0.1)
    old = Result("gpg", "gnupg", "AES", "encrypt", 0, "bytes_per_s", "B/s", 0.0,
                 extra={"wall_s": 0.1})
    for fixed in (new, old):
        row, = tables.rows_from_results([bulk, fixed])
        assert row.fixed_s == pytest.approx(0.1)
        assert row.backup_seconds(1000 * mib) == pytest.approx(0.1 + 10.0)


def test_stored_fixed_cost_row_is_seconds():
    from cipherbench.analysis import stats
    from cipherbench.scenarios.gpg.candidates import Measured
    from cipherbench.scenarios.gpg.scenario import result
    m = Measured(Candidate("gpg", "AES"), "encrypt", 0,
                 stability=stats.Stability([0.1, 0.11, 0.12],
                                           stats.summarize([0.1, 0.11, 0.12]), True,
                                           "precision"))
    r = result(m, "2.2.40")
    assert (r.metric, r.unit, r.size) == ("seconds", "s", 0)
    assert r.median == pytest.approx(0.11)


def _overhead_rows(gpg_bulk_s):
    """AES through gpg: 100 MiB in ``gpg_bulk_s`` s of bulk time (plus 0.1 s fixed); alone the
    cipher and SHA-1 each run at 400 MiB/s, so cipher + MDC take 0.5 s per 100 MiB."""
    mib = 1 << 20
    return tables.rows_from_results([
        _r("gnupg", "AES", "encrypt", 100 * mib, 100 * mib / (gpg_bulk_s + 0.1)),
        Result("gpg", "gnupg", "AES", "encrypt", 0, "seconds", "s", 0.1),
        _r("libgcrypt", "aes-128-cfb", "encrypt", 65536, 400 * mib, role="cipher-alone",
           gpg_algo="AES"),
        _r("libgcrypt", "sha1", "hash", 65536, 400 * mib, role="mdc-hash"),
    ])


def test_overhead_counts_cipher_and_mdc_together():
    row, = _overhead_rows(1.0)
    assert row.crypto == pytest.approx(200 * (1 << 20))   # the column shows cipher + MDC
    assert row.overhead == pytest.approx(0.5) and not row.within_noise
    _, cells = tables.format_cost_rows([row])
    assert cells == [["AES", "100 ms", tables.format_rate(row.crypto), "50%"]]


@pytest.mark.parametrize("gpg_bulk_s", [0.5, 0.45, 0.498])
def test_overhead_never_negative_nor_zero_when_gpg_is_as_fast(gpg_bulk_s):
    row, = _overhead_rows(gpg_bulk_s)
    assert row.overhead is None and row.within_noise
    _, cells = tables.format_cost_rows([row])
    assert cells[0][-1] == tables.WITHIN_NOISE and tables.WITHIN_NOISE in tables.LEGEND


@pytest.mark.parametrize("width", [80, 100])
def test_gpg_tables_fit_narrow_terminals(width):
    import io
    from rich.console import Console
    from cipherbench.scenarios.gpg import scenario
    from cipherbench.store import Run
    mib = 1 << 20
    results = []
    for algo, cfb in (("CAMELLIA256", "camellia-256-cfb"), ("AES256", "aes-256-cfb"),
                      ("TWOFISH", "twofish-256-cfb"), ("3DES", "3des-cfb")):
        for op in ("encrypt", "decrypt"):
            results.append(_r("gnupg", algo, op, 32 * mib, 123.45 * mib))
        results.append(Result("gpg", "gnupg", algo, "encrypt", 0, "seconds", "s", 0.123))
        results.append(_r("libgcrypt", cfb, "encrypt", 65536, 999.9 * mib, role="cipher-alone",
                          gpg_algo=algo))
    for op in ("encrypt", "decrypt"):
        results.append(_r("age", "chacha20-poly1305", op, 32 * mib, 456.7 * mib))
    results.append(_r("libgcrypt", "sha1", "hash", 65536, 1234.5 * mib, role="mdc-hash"))
    run = Run(7, "gpg", "2026-01-01T00:00:00", None, "complete",
              {"size": 32 * mib, "backup_size": 50 << 30}, {}, "0")
    out = io.StringIO()

    class _Screen:
        console = Console(file=out, width=width, force_terminal=False)

    scenario.view(_Screen(), run, results, [])
    lines = out.getvalue().splitlines()
    table = [ln for ln in lines if ln[:1] in "┏┃┡│└━┗+|" or "│" in ln]
    assert table and all(len(ln) <= width for ln in lines)
    # nothing is folded: every cell of a row stays on one line
    for name in ("CAMELLIA256", "AES256", "TWOFISH", "3DES", "age", "50 GiB: wall",
                 "CFB+MDC alone", "gpg overhead", "fixed/run"):
        assert any(name in ln for ln in table), name
    assert "acceptable" in out.getvalue() or "recommended" in out.getvalue()
