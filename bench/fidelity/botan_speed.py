#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's Botan backend against `botan speed`.

In one interleaved run, for each algorithm and buffer size, runs
`cipherbench-core bench --lib botan` (once per op) and `botan speed
--msec=M --format=json --buf-size=N ALGO` one after the other (the order
flips every repetition, so a slow drift of the machine hits both alike),
REPS times. Prints a Markdown table of throughput ratios (ours / botan speed:
the ratio of the medians over repetitions, and the median of each
repetition's back-to-back ratio) and each tool's run-to-run coefficient of
variation.

What botan speed times per message (src/cli/speed.cpp, Botan 2.19):
- AEADs: the key is set once; each message is start(nonce) + finish(buffer),
  in place, the nonce's last byte counting up, no associated data. Encrypt
  and decrypt alternate on the same buffer (the decrypt verifies the tag the
  encrypt appended), each timed for --msec. The core's message also has 13
  bytes of AAD, and goes through Botan's C FFI, which copies the message
  through an internal buffer (and the tag apart from the ciphertext).
- CTR-BE(AES-128): encipher(buffer) continuing the keystream, as the core's
  cipher op does, again without the FFI's copies.
- SHA-256: update + final per message, as the core does.
- HMAC(SHA-256): the key is set once and the whole --msec is one endless
  message (update after update, one final at the end). The core makes every
  buffer a whole MAC (inner final, outer hash, re-keying the inner hash): four
  more compression-function calls per message, a quarter more work at 1 KiB.

Usage: botan_speed.py --core BUILD/core/cipherbench-core [--reps 5]
       [--msec 1000] [--cpu K] [--vectors DIR] [--botan botan]
(`scripts/install-deps.sh --bench` installs the botan program.)
"""
import json
import sys

import common
from common import RunError

ALGOS = [  # (canonical name, botan speed name, ops botan speed reports)
    ("aes-128-gcm", "AES-128/GCM", ["encrypt", "decrypt"]),
    ("aes-256-gcm", "AES-256/GCM", ["encrypt", "decrypt"]),
    ("chacha20-poly1305", "ChaCha20Poly1305", ["encrypt", "decrypt"]),
    ("aes-128-ctr", "CTR-BE(AES-128)", ["encrypt"]),
    ("sha256", "SHA-256", ["hash"]),
    ("hmac-sha256", "HMAC(SHA-256)", ["mac"]),
]
SIZES = [1024, 16384]


def speed_command(botan, name, size, msec, cpu):
    """The botan speed command line for one algorithm and size."""
    return common.pin_prefix(cpu) + [botan, "speed", f"--msec={msec}", "--format=json",
                                     f"--buf-size={size}", name]


def speed_throughputs(stdout, algo, ops, size):
    """{(algo, op, size): bytes/s} from botan speed --format=json output:
    events (bytes) / nanos of the records of ops at buf_size; raises RunError
    when one is missing (botan speed exits 0 on an unknown algorithm)."""
    try:
        records = json.loads(stdout)
    except ValueError:
        raise RunError("botan speed printed no JSON list") from None
    out = {}
    for rec in records if isinstance(records, list) else []:
        op, key = rec.get("op"), (algo, rec.get("op"), rec.get("buf_size"))
        # One record per op and size with the default provider; keep the first.
        if op in ops and rec.get("buf_size") == size and rec.get("nanos") and key not in out:
            out[key] = rec["events"] / (rec["nanos"] * 1e-9)
    for op in ops:
        if (algo, op, size) not in out:
            raise RunError(f"botan speed printed no {op} result for {algo} at {size} bytes")
    return out


def run_ours(args, algo, ops, size):
    """The core's runs of one algorithm at one size, one per op."""
    out = {}
    for op in ops:
        out.update(common.run_core(args, "botan", [algo], op, [size]))
    return out


def jobs(args):
    """One job per algorithm and size: the core's runs against one botan speed run."""
    out = []
    for algo, name, ops in ALGOS:
        for size in SIZES:
            cmd = speed_command(args.botan, name, size, args.msec, args.cpu)
            out.append(common.Job(
                f"{algo} {size}", [(algo, op, size) for op in ops],
                lambda a=algo, o=ops, s=size: run_ours(args, a, o, s),
                lambda a=algo, o=ops, s=size, c=cmd: speed_throughputs(common.run(c), a, o, s)))
    return out


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--botan", default="botan", help="the botan command")
    p.add_argument("--msec", type=int, default=1000,
                   help="botan speed --msec, per op and size (default 1000)")
    a = p.parse_args(argv)
    if a.msec < 1:
        p.error("--msec must be at least 1")
    common.check_core_args(p, a, [a.botan])
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown table; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return common.run_report("botan_speed", args, jobs(args), "botan speed",
                             [args.botan, "version", "--full"],
                             f"botan speed --msec={args.msec}", show_op=True)


if __name__ == "__main__":
    sys.exit(main())
