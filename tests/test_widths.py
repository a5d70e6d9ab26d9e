# SPDX-License-Identifier: GPL-3.0-or-later
"""Every table of every command at 80 and 100 columns, from fixtures (the fake core and
recorded runs): no line wider than the terminal, no cell cut to "…", no name broken inside a
word (a name may wrap only after a separator: ``display.names``), and every command's answer
on its last lines."""
from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from advise_fixtures import fill
from cipherbench.display.names import SEPARATORS
from cipherbench.scenarios.primitive import scenario as primitive
from cipherbench.store import Result, Run, Store

WIDTHS = (80, 100)
#: The libraries of a build with every backend and the Go and Rust cores.
LIBS = ("openssl", "libgcrypt", "nettle", "gnutls", "libsodium", "botan", "cryptopp", "wolfssl",
        "mbedtls", "libtomcrypt", "go", "ring", "rustcrypto", "aws-lc")
QUICK = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-cbc", "aes-128-ctr",
         "rc4", "sha256", "sha512", "hmac-sha256")
DEFAULT = QUICK + ("aes-128-ocb", "aes-128-ccm", "aes-256-cbc", "aes-256-ctr", "aes-128-cfb",
                   "aes-128-xts", "camellia-128-cbc", "chacha20", "3des-cbc", "blowfish-cbc",
                   "cast5-cbc", "md5", "sha1", "sha3-256", "blake2b-512", "blake2s-256",
                   "hmac-sha1", "hmac-sha512", "poly1305", "umac-64", "umac-128")
_SPLIT = re.compile(r"[\s│┃┏┓┗┛┡┩└┘├┤┼╇━─┳┻╋┠┨]+")
_TRIM = ",;:.()[]*†'\"`"
#: Words of the text that happen to be a name's start or end.
WORDS = {"crypto", "flags"}


def broken_names(text: str, names) -> list[str]:
    """Pieces of ``names`` that a line ends or starts with inside a word (``libtomcryp`` /
    ``t,``): a name may be split only after one of its separators."""
    names = {n for n in names if len(n) >= 4}
    found = []
    for line in text.splitlines():
        for token in _SPLIT.split(line):
            t = token.strip(_TRIM)
            if len(t) < 3 or t in names or t in WORDS:
                continue
            for n in names:
                if n.startswith(t) and n[len(t)] not in SEPARATORS \
                        and t[-1] not in SEPARATORS:
                    found.append(f"{t!r} of {n!r} in {line!r}")
                elif n.endswith(t) and n[-len(t) - 1] not in SEPARATORS \
                        and t[0] not in SEPARATORS:
                    found.append(f"{t!r} of {n!r} in {line!r}")
    return found


def check(text: str, width: int, names=()) -> None:
    lines = text.splitlines()
    assert lines
    for line in lines:
        assert len(line) <= width, f"{len(line)} > {width}: {line!r}"
        assert "…" not in line, line
    assert not broken_names(text, names), broken_names(text, names)


def test_the_check_catches_a_broken_name():
    assert broken_names("│ libtomcryp │\n│ t,         │", ["libtomcrypt"])
    assert broken_names("...AES_128_GCM\n_SHA256", ["TLS_AES_128_GCM_SHA256"]) == []
    assert broken_names("TLS_AES_128_G\nCM_SHA256", ["TLS_AES_128_GCM_SHA256"])
    assert not broken_names("chacha20-\npoly1305", ["chacha20-poly1305"])


def _point(lib: str, algo: str, op: str, bps: float, rel: float = 0.01,
           size: int = 16384) -> list[Result]:
    ns = size / bps * 1e9
    return [Result("primitive", lib, algo, op, size, "ns_per_op", "ns", ns, ns * (1 - rel),
                   ns * (1 + rel), 10, 0.01),
            Result("primitive", lib, algo, op, None, "slope_ns_per_byte", "ns/B",
                   ns / size, extra={"cycles_per_byte": 3e9 * ns / size / 1e9})]


def many_library_results(algos=QUICK, libs=LIBS) -> list[Result]:
    """Every library on every algorithm, one clearly fastest library per algorithm."""
    out = _point("ref", "memcpy", "ref", 120e9)
    ns = 1.9
    out.append(Result("primitive", "ref", "null", "ref", 16384, "ns_per_op", "ns", ns, ns, ns))
    for a, algo in enumerate(algos):
        op = "hash" if algo.startswith(("sha", "md5", "blake")) else \
            "mac" if algo.startswith(("hmac", "poly", "umac")) else "encrypt"
        for i, lib in enumerate(libs):
            bps = 1e9 * (1 + 0.1 * i) * (3 if (a % len(libs)) == i else 1)
            out += _point(lib, algo, op, bps)
    return out


def _store_run(path, command: str, args: dict, results: list[Result], meta=None) -> int:
    with Store.open(path) as store:
        run = store.begin_run(command, args, meta or {"cpu_model": "Recorded CPU",
                                                      "cpu_flags": ["aes"], "cores": 2})
        for r in results:
            store.add_result(run, r)
        store.finish_run(run, "complete")
    return run


def _narrow(env, width):
    return dict(env, COLUMNS=str(width))


def _screen(width: int):
    out = io.StringIO()

    class Screen:
        console = Console(file=out, width=width, no_color=True, highlight=False)
        err_console = Console(file=io.StringIO(), width=width)

    return Screen(), out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("algos", [QUICK, DEFAULT], ids=["quick", "default"])
def test_a_run_with_every_library_fits_in_two_parts_and_ends_with_its_answer(width, algos):
    results = many_library_results(algos)
    run = Run(7, "run", "2026-01-01T00:00:00", None, "complete", {"headline_size": 16384}, {},
              "0")
    screen, out = _screen(width)
    primitive.view(screen, run, results, [])
    primitive.answer(screen, run, results, advise_targets=("ssh", "tls-server", "gpg"))
    text = out.getvalue()
    check(text, width, LIBS + algos)
    assert text.count("continued (2/2)") <= 1 and "(3/" not in text
    if "not shown" in text:   # the libraries that matter shown, the others named
        note = next(line for line in text.splitlines() if "not shown" in line)
        assert "cipherbench show 7 --lib" in text.replace("\n", " ")
        assert note
    else:
        assert all(lib in text for lib in LIBS)
    # the fastest library of each algorithm is shown: marked, or named in the fastest column
    if any(ln.startswith("library ") for ln in text.splitlines()):   # libraries as rows
        assert text.count(" *") == len(algos)
    else:
        for a, algo in enumerate(algos):
            line = next(ln for ln in text.splitlines() if ln.startswith(algo + " "))
            assert "*" in line or f" {LIBS[a % len(LIBS)]} " in line, line
    lines = text.rstrip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The answer at 16 KiB"))
    assert len(lines) - start <= 20          # the answer fits a 40-row screen with room
    assert "cipherbench advise --for TARGET" in "\n".join(lines[start:])


@pytest.mark.parametrize("width", WIDTHS)
def test_run_and_its_show_at_80_and_100(cli, env, width):
    small = ["--lib", "openssl,libgcrypt,nettle", "--algo",
             "aes-128-gcm,chacha20-poly1305,sha256", "--sizes", "1024,16384", "--budget", "0",
             "--samples", "6", "--no-progress"]
    r = cli("run", *small, env_override=_narrow(env, width))
    assert r.rc == 0, r.err
    names = ("openssl", "libgcrypt", "nettle", "aes-128-gcm", "chacha20-poly1305", "sha256")
    check(r.out, width, names)
    # the warnings fit too (the progress lines and the load line are one-line messages)
    check("\n".join(ln for ln in r.err.splitlines() if not ln.startswith("cipherbench:")),
          width, names)
    assert r.out.rstrip().splitlines()[-1].startswith("  TARGET") or \
        r.out.rstrip().splitlines()[-2].startswith("  TARGET")
    shown = cli("show", "last", env_override=_narrow(env, width))
    assert shown.rc == 0, shown.err
    check(shown.out, width, names)
    assert "The answer at 16 KiB" in shown.out


@pytest.mark.real
@pytest.mark.parametrize("width", WIDTHS)
def test_show_history_and_compare_of_stored_runs(cli, env, width):
    db = env["CIPHERBENCH_DB"]
    ids = fill(db, "aes")
    big = _store_run(db, "run", {"headline_size": 16384}, many_library_results(DEFAULT),
                     meta={"cpu_model": "Recorded CPU", "cpu_flags": ["aes"], "cores": 2,
                           "libraries": {lib: {"version": "1.0"} for lib in LIBS}})
    narrow = _narrow(env, width)
    names = LIBS + DEFAULT
    for run_id in (*ids.values(), big):
        shown = cli("show", str(run_id), env_override=narrow)
        assert shown.rc == 0, shown.err
        check(shown.out, width, names)
        assert "core: ? built by ?" not in shown.out
    only = cli("show", str(big), "--lib", "botan,wolfssl", env_override=narrow)
    assert only.rc == 0 and "botan" in only.out and "openssl" not in only.out.split(
        "The answer")[0].split("throughput")[1]
    bad = cli("show", str(big), "--lib", "botn", env_override=narrow)
    assert bad.rc != 0 and "botan" in bad.err and "Traceback" not in bad.err
    hist = cli("history", env_override=narrow)
    assert hist.rc == 0
    check(hist.out, width, LIBS)
    assert "libtomcrypt" in hist.out
    cmp = cli("compare", str(ids["primitive"]), str(big), env_override=narrow)
    check(cmp.out, width, names)


@pytest.mark.parametrize("width", WIDTHS)
def test_list_fits(cli, env, width):
    r = cli("list", env_override=_narrow(env, width))
    assert r.rc == 0, r.err
    check(r.out, width, ("openssl", "libgcrypt", "nettle", "chacha20-poly1305", "aes-128-gcm"))


@pytest.mark.parametrize("width", WIDTHS)
def test_ssh_and_gpg_end_with_their_verdict(cli, env, width):
    db = env["CIPHERBENCH_DB"]
    ids = fill(db, "aes")
    narrow = _narrow(env, width)
    ssh = cli("show", str(ids["ssh"]), env_override=narrow)
    last = ssh.out.rstrip().splitlines()[-3:]
    assert any(w in " ".join(last).lower() for w in ("bound", "cannot tell")), last
    assert "ssh:" in ssh.out or "core: ? built" not in ssh.out
    gpg = cli("show", str(ids["gpg"]), env_override=narrow)
    assert "fastest sound choice here" in " ".join(gpg.out.rstrip().splitlines()[-4:])


@pytest.mark.parametrize("width", WIDTHS)
def test_a_tls_run_ends_with_its_verdict_and_keeps_suite_names_whole(cli, env, width):
    suites = ("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
              "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384")
    results = []
    for n, iana in enumerate(suites):
        for size in (1400, 16384):
            bps = (1 + n) * 1e8 * size / 1400
            results.append(Result("tls", "openssl", iana, "transfer", size, "bytes_per_s", "B/s",
                                  bps, bps * 0.98, bps * 1.02,
                                  extra={"grade": "recommended", "proto": "TLSv1.2"}))
    results.append(Result("tls", "openssl", "TLS_RSA_WITH_RC4_128_MD5", "transfer", None,
                          "refused", "", 0.0,
                          extra={"message": "no cipher match: this build has no RC4 at all, "
                                            "nor any other stream cipher"}))
    run = _store_run(env["CIPHERBENCH_DB"], "tls", {"sizes": [1400, 16384]}, results)
    shown = cli("show", str(run), env_override=_narrow(env, width))
    assert shown.rc == 0, shown.err
    check(shown.out, width, suites + ("TLS_RSA_WITH_RC4_128_MD5",))
    last = " ".join(shown.out.rstrip().splitlines()[-3:])
    assert "openssl: fastest recommended suite here is" in last
    assert "[1] refused: no cipher match" in shown.out     # the reason once, below the table


@pytest.mark.parametrize("width", WIDTHS)
def test_the_ssh_progress_bar_keeps_its_counts_and_times_whole(width):
    from cipherbench.scenarios.progress import Progress
    out = io.StringIO()
    con = Console(file=out, width=width, force_terminal=False, no_color=True)
    bar = Progress(con, "bar", unit="transfers").start(120)
    try:
        bar.done("ssh round 3: aes256-ctr+hmac-sha2-512-etm@openssh.com via rsync", 17)
        line = Console(file=io.StringIO(), width=width)
        with line.capture() as cap:
            line.print(bar._bar.make_tasks_table(bar._bar.tasks))
    finally:
        bar.stop()
    text = cap.get().rstrip("\n")
    assert len(text.splitlines()) == 1 and len(text) <= width, text
    assert "17/120 transfers" in text and "ETA" in text and "…" not in text
    assert "ssh round 3: aes256-ctr" in text


def test_a_long_fact_of_the_run_header_wraps_under_its_value():
    from cipherbench.display.console import display_pairs
    out = io.StringIO()
    display_pairs(Console(file=out, width=40, no_color=True),
                  [("cpu", "x"), ("crypto flags", "aes pclmulqdq ssse3 avx avx2 avx512f "
                                                  "avx512vl vaes vpclmulqdq sha_ni bmi2 adx")])
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("crypto flags: aes") and len(lines) > 2
    assert all(ln.startswith(" " * 14) and len(ln) <= 40 for ln in lines[2:])


def test_a_luks_run_ends_with_its_verdict():
    from cipherbench.scenarios.luks import scenario as luks
    results = []
    for spec, bits, w, r in (("aes-xts-plain64", 512, 900e6, 1100e6),
                             ("xchacha12,aes-adiantum-plain64", 256, 1200e6, 700e6)):
        for op, bps in (("encrypt", w), ("decrypt", r)):
            results.append(Result("luks", luks.LIB, f"{spec}:{bits}", op, 64 << 20,
                                  "bytes_per_s", "B/s", bps, extra={
                                      "spec": spec, "key_bits": bits,
                                      "driver": "xts(aes-aesni)"}))
    run = Run(5, "luks", "2026-01-01T00:00:00", None, "complete",
              {"size": 64 << 20, "sector_size": 4096}, {}, "0")
    [line] = luks.answer_lines(run, results)
    # the slower direction decides: AES-XTS (900 MB/s) beats Adiantum's 700 MB/s reads
    assert "aes-xts-plain64 with a 512-bit key" in line and "advise --for luks" in line
    screen, out = _screen(80)
    luks.view(screen, run, results, [])
    luks.answer(screen, run, results)
    assert out.getvalue().rstrip().splitlines()[-1].endswith("luksFormat line")
    check(out.getvalue(), 80, ("aes-xts-plain64", "xchacha12,aes-adiantum-plain64"))
