#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's OpenSSL backend against `openssl speed`.

In one interleaved run, for each algorithm and buffer size, runs
`cipherbench-core bench --lib openssl` and `openssl speed -evp ALGO -elapsed
-bytes N -seconds S` one after the other (the order flips every repetition, so
a slow drift of the machine hits both alike), REPS times. Prints a Markdown
table of throughput ratios (ours / openssl speed: the ratio of the medians
over repetitions, and the median of each repetition's back-to-back ratio)
and each tool's run-to-run coefficient of variation.

The two tools do not time quite the same operation, and the table shows it.
The core's AEAD operation is one TLS-like message on a keyed context: new
nonce, 13 bytes of AAD, encrypt, tag. AEADs are given `-aead` (13 bytes of
AAD), but OpenSSL 3.0's speed then re-keys the context for every GCM message
(EVP_CipherInit_ex with key and IV), and for ChaCha20-Poly1305 it streams
EVP_EncryptUpdate over one endless message with no nonce, AAD or tag (counted
with an LD_PRELOAD shim: 1 init per message vs 59 inits in all). So small
GCM messages favour the core and small ChaCha20-Poly1305 messages favour
openssl speed; at 16 KiB the per-message work is a few per cent at most.
For sha256 both do init+update+final (openssl speed through EVP_Digest, which
also allocates and frees a context per message).

Usage: openssl_speed.py --core BUILD/core/cipherbench-core [--reps 5]
       [--seconds 1] [--cpu K] [--vectors DIR] [--openssl openssl]
"""
import re
import sys

import common
from common import RunError

ALGOS = [  # (canonical name, op, openssl speed name, openssl speed extra flags)
    ("aes-128-gcm", "encrypt", "aes-128-gcm", ["-aead"]),
    ("aes-256-gcm", "encrypt", "aes-256-gcm", ["-aead"]),
    ("chacha20-poly1305", "encrypt", "chacha20-poly1305", ["-aead"]),
    ("sha256", "hash", "sha256", []),
]
SIZES = [1024, 16384]


def speed_command(openssl, name, extra, size, seconds, cpu):
    """The openssl speed command line for one point."""
    return common.pin_prefix(cpu) + [openssl, "speed", "-evp", name, *extra, "-elapsed",
                                     "-bytes", str(size), "-seconds", str(seconds), "-mr"]


def speed_throughput(stdout):
    """Bytes per second from openssl speed -mr output (its +F: line)."""
    for line in stdout.splitlines():
        m = re.match(r"\+F:\d+:[^:]+:([0-9.]+)", line)
        if m:
            return float(m.group(1))
    raise RunError("openssl speed printed no +F: result line")


def jobs(args):
    """One job per algorithm and size: one core run against one openssl speed run."""
    out = []
    for algo, op, name, extra in ALGOS:
        for size in SIZES:
            key = (algo, op, size)
            cmd = speed_command(args.openssl, name, extra, size, args.seconds, args.cpu)
            out.append(common.Job(
                f"{algo} {size}", [key],
                lambda a=algo, o=op, s=size: common.run_core(args, "openssl", [a], o, [s]),
                lambda k=key, c=cmd: {k: speed_throughput(common.run(c))}))
    return out


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--openssl", default="openssl", help="the openssl command")
    p.add_argument("--seconds", type=int, default=1, help="openssl speed -seconds (default 1)")
    a = p.parse_args(argv)
    if a.seconds < 1:
        p.error("--seconds must be at least 1")
    common.check_core_args(p, a, [a.openssl])
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown table; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return common.run_report("openssl_speed", args, jobs(args), "openssl speed",
                             [args.openssl, "version"], f"openssl speed -seconds {args.seconds}")


if __name__ == "__main__":
    sys.exit(main())
