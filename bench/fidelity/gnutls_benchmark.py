#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's GnuTLS backend against `gnutls-cli --benchmark-ciphers`.

gnutls-cli cannot be told which algorithms, sizes or durations to measure: one
run times each of its fixed list for 5 seconds at a 16384-byte payload (about
100 s in all). So one repetition is one gnutls-cli run and the core's runs of
the same points (AEADs and ciphers, HMACs, and memcpy for its NULL cipher),
one after the other, the order flipping every repetition. Prints a Markdown
table of throughput ratios (ours / gnutls-cli: the ratio of the medians over
repetitions, and the median of each repetition's back-to-back ratio) and each
tool's run-to-run coefficient of variation.

What gnutls-cli times per message (src/benchmark-cipher.c, GnuTLS 3.7):
- AEADs: gnutls_aead_cipher_encrypt on a handle keyed once, the same nonce
  every time, no associated data, ciphertext and tag into one output buffer.
  The core's message also has a new nonce and 13 bytes of AAD, and GCM and
  ChaCha20-Poly1305 run through the streaming gnutls_cipher_* calls (the same
  implementation); its CCM copies the message first (in-place API).
- Ciphers: gnutls_cipher_encrypt2 continuing the chain, as the core does; the
  core sets the XTS tweak per message.
- MACs ("SHA256" etc.): gnutls_hmac_fast, which allocates, keys, hashes and
  frees an HMAC per message; the core keys once and reuses the handle.
- NULL: a memcpy, compared with the core's `ref` memcpy row.
- It times by the process's CPU time (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)
  around a 5 s alarm), not by the wall clock: on a shared CPU its numbers are
  what a whole CPU would do, where the core's (wall-clock) numbers fall with
  the share it gets. The core records CPU time beside wall time, so the table
  is printed twice: ours by wall clock, and ours by CPU time like gnutls-cli.
- Its input walks through a 64 MiB random buffer, 4 KiB further each message;
  the core reuses one aligned buffer. Throughput is printed in decimal units
  with two decimals ("0.80 GB/sec": 1.25% resolution at that value).

Usage: gnutls_benchmark.py --core BUILD/core/cipherbench-core [--reps 5]
       [--cpu K] [--vectors DIR] [--gnutls-cli gnutls-cli]
"""
import re
import subprocess
import sys

import common
from common import RunError

SIZE = 16384  # gnutls-cli's only payload size
# gnutls-cli's name -> (core library, canonical algorithm, op)
POINTS = {
    "AES-128-GCM": ("gnutls", "aes-128-gcm", "encrypt"),
    "AES-128-CCM": ("gnutls", "aes-128-ccm", "encrypt"),
    "CHACHA20-POLY1305": ("gnutls", "chacha20-poly1305", "encrypt"),
    "AES-128-CBC": ("gnutls", "aes-128-cbc", "encrypt"),
    "3DES-CBC": ("gnutls", "3des-cbc", "encrypt"),
    "AES-128-XTS": ("gnutls", "aes-128-xts", "encrypt"),
    "AES-256-XTS": ("gnutls", "aes-256-xts", "encrypt"),
    "SHA1": ("gnutls", "hmac-sha1", "mac"),
    "SHA256": ("gnutls", "hmac-sha256", "mac"),
    "SHA512": ("gnutls", "hmac-sha512", "mac"),
    "NULL": ("ref", "memcpy", "ref"),
}
UNITS = {"bytes": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9}  # benchmark.c: decimal
LINE = re.compile(r"^\s*(\S+) ([0-9]+(?:\.[0-9]+)?) (bytes|KB|MB|GB)/sec\s*$")


def cli_throughputs(stdout):
    """{(algo, op, SIZE): bytes/s} for the points of POINTS found in
    gnutls-cli --benchmark-ciphers output; other lines are ignored."""
    out = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m and m.group(1) in POINTS:
            _, algo, op = POINTS[m.group(1)]
            out[(algo, op, SIZE)] = float(m.group(2)) * UNITS[m.group(3)]
    return out


def run_cli(gnutls_cli, cpu):
    """Runs gnutls-cli --benchmark-ciphers once; returns its throughputs, or
    raises RunError when a point of POINTS is missing (e.g. an assertion)."""
    cmd = common.pin_prefix(cpu) + [gnutls_cli, "--benchmark-ciphers"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        raise RunError(f"cannot run {cmd[0]}: {e.strerror}") from None
    got = cli_throughputs(p.stdout)
    missing = [name for name, (_, a, o) in POINTS.items() if (a, o, SIZE) not in got]
    if p.returncode != 0 or missing:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise RunError(f"{' '.join(cmd)} exited with {p.returncode} without "
                       f"{', '.join(missing) or 'error'}: {last}")
    return got


def run_ours(args):
    """The core's runs for every point of POINTS: one per library and op."""
    groups = {}
    for lib, algo, op in POINTS.values():
        groups.setdefault((lib, op), []).append(algo)
    out = {}
    for (lib, op), algos in groups.items():
        out.update(common.run_core(args, lib, algos, op, [SIZE]))
    return out


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--gnutls-cli", default="gnutls-cli", help="the gnutls-cli command")
    a = p.parse_args(argv)
    common.check_core_args(p, a, [a.gnutls_cli])
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown table; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    keys = [(algo, op, SIZE) for _, algo, op in POINTS.values()]
    job = common.Job("gnutls-cli --benchmark-ciphers", keys,
                     lambda: run_ours(args), lambda: run_cli(args.gnutls_cli, args.cpu))
    return common.run_report("gnutls_benchmark", args, [job], "gnutls-cli",
                             [args.gnutls_cli, "--version"],
                             "gnutls-cli --benchmark-ciphers (5 s per algorithm, 16384 bytes, "
                             "timed by process CPU time)", show_op=True, clocks=("wall", "cpu"))


if __name__ == "__main__":
    sys.exit(main())
