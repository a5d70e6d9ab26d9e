#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's Nettle backend against Nettle's own `nettle-benchmark`.

nettle-benchmark is not installed by Debian's packages: build it from the Nettle source of the
installed version (`apt-get source nettle`, `./configure --enable-fat && make && make -C
examples nettle-benchmark`) and pass the binary with --nettle-benchmark. It links the shared
libnettle, so it measures the library the loader finds, the same one as the core; the script
prints `ldd`'s line for libnettle beside the table to show which.

nettle-benchmark takes no sizes or durations, only name filters: every call handles one
10240-byte block (BENCH_BLOCK), repeated until 0.1 s of the process's CPU time has passed. So
the core runs at 10240 bytes, and one job is one nettle-benchmark run for one filter against
the core's runs of the same points, the order flipping every repetition. Prints Markdown
tables of throughput ratios (ours / nettle-benchmark) by the core's wall clock and by its CPU
time (the clock nettle-benchmark uses), with each tool's run-to-run variation.

What nettle-benchmark times per 10240-byte call (examples/nettle-benchmark.c, Nettle 3.8):
- Hashes ("update"): hash->update only, on a context initialised once: one endless message,
  never finalised. The core's hash message is init + update + digest.
- ECB, CBC decrypt, CTR: the cipher's function / cbc_decrypt / ctr_crypt continuing the
  chain, as the core does; CBC encryption of AES is the "cbc_aes128 encrypt" row
  (cbc_aes128_encrypt), which the core also calls (the generic "aes128 CBC encrypt" row is
  the slow path the core no longer takes).
- AEADs ("gcm_aes128 encrypt", "chacha_poly1305 encrypt"): encrypt only, the nonce set once
  before the timing: one endless message with no associated data and no tag. The core's AEAD
  message sets a nonce, authenticates 13 bytes of AAD, encrypts and writes the tag.
- HMAC ("single msg"): update + digest of one 10240-byte message on a keyed context, as the
  core does.
- Mbyte/s is 2^20 bytes per second; the tables print decimal MB/s for both.

Usage: nettle_benchmark.py --core BUILD/core/cipherbench-core
       --nettle-benchmark PATH/examples/nettle-benchmark [--reps 5] [--cpu K] [--vectors DIR]
"""
import re
import shutil
import sys

import common
from common import RunError

SIZE = 10240  # nettle-benchmark's BENCH_BLOCK
MIB = 1048576.0  # its Mbyte/s
# filter -> {(nettle-benchmark name, mode): (canonical algorithm, op)}
JOBS = {
    "aes128": {("aes128", "ECB encrypt"): ("aes-128-ecb", "encrypt"),
               ("aes128", "ECB decrypt"): ("aes-128-ecb", "decrypt"),
               ("cbc_aes128", "encrypt"): ("aes-128-cbc", "encrypt"),
               ("aes128", "CBC decrypt"): ("aes-128-cbc", "decrypt"),
               ("aes128", "CTR"): ("aes-128-ctr", "encrypt"),
               ("gcm_aes128", "encrypt"): ("aes-128-gcm", "encrypt")},
    "cbc_aes256": {("cbc_aes256", "encrypt"): ("aes-256-cbc", "encrypt")},
    "chacha": {("chacha", "encrypt"): ("chacha20", "encrypt"),
               ("chacha_poly1305", "encrypt"): ("chacha20-poly1305", "encrypt")},
    "sha256": {("sha256", "update"): ("sha256", "hash"),
               ("hmac-sha256", "single msg"): ("hmac-sha256", "mac")},
    "sha3_256": {("sha3_256", "update"): ("sha3-256", "hash")},
}
# A result line: right-aligned name, mode (which may hold spaces), Mbyte/s.
VERSION_SCRIPT = ("import json, subprocess, sys\n"
                  "for line in subprocess.run(sys.argv[1:], capture_output=True, text=True).stdout.splitlines():\n"
                  "    r = json.loads(line)\n"
                  "    if r.get('type') == 'library': print('Nettle', r['version'])\n")
LINE = re.compile(r"^\s*(\S+)\s+(\S.*?)\s+([0-9]+\.[0-9]+)\s*$")


def benchmark_throughputs(stdout, points):
    """{(algo, op, SIZE): bytes/s} for the (name, mode) pairs of points found in
    nettle-benchmark output; other lines (the "(in-place)" rows, cycle counts) are ignored."""
    out = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m and (m.group(1), m.group(2)) in points:
            algo, op = points[(m.group(1), m.group(2))]
            out[(algo, op, SIZE)] = float(m.group(3)) * MIB
    return out


def run_benchmark(binary, filt, points, cpu):
    """Runs nettle-benchmark for one filter; raises RunError when a point is missing."""
    got = benchmark_throughputs(common.run(common.pin_prefix(cpu) + [binary, filt]), points)
    missing = [f"{n} {m}" for (n, m) in points if (*points[(n, m)], SIZE) not in got]
    if missing:
        raise RunError(f"nettle-benchmark {filt} printed no line for {', '.join(missing)}")
    return got


def run_ours(args, points):
    """The core's runs for the points of one job: one per op."""
    return common.run_core_points(args, "nettle", points.values(), [SIZE])


def jobs(args):
    """One job per nettle-benchmark filter."""
    return [common.Job(f"nettle-benchmark {filt}",
                       [(a, o, SIZE) for a, o in points.values()],
                       lambda p=points: run_ours(args, p),
                       lambda f=filt, p=points: run_benchmark(args.nettle_benchmark, f, p, args.cpu))
            for filt, points in JOBS.items()]


def linked_nettle(binary):
    """ldd's line for libnettle in the binary, or a note that ldd could not say."""
    if shutil.which("ldd") is None:
        return "libnettle: ldd not found"
    try:
        text = common.run(["ldd", binary])
    except RunError as e:
        return f"libnettle: {e}"
    lines = [l.strip() for l in text.splitlines() if "libnettle" in l]
    return lines[0] if lines else "libnettle: linked statically"


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--nettle-benchmark", required=True,
                   help="the nettle-benchmark binary built from the installed Nettle's source")
    a = p.parse_args(argv)
    common.check_core_args(p, a, [a.nettle_benchmark])
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown tables; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # nettle-benchmark has no --version: the version is the one the library gives the core.
    version = [sys.executable, "-c", VERSION_SCRIPT, args.core, "list", "--lib", "nettle"]
    status = common.run_report("nettle_benchmark", args, jobs(args), "nettle-benchmark", version,
                               "nettle-benchmark (10240-byte calls, 0.1 s of process CPU time "
                               f"per line; {linked_nettle(args.nettle_benchmark)})",
                               show_op=True, clocks=("wall", "cpu"))
    return status


if __name__ == "__main__":
    sys.exit(main())
