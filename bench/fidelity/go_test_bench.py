#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core-go (library go) against Go's own benchmarks of crypto/cipher.

In one interleaved run, for each AES-GCM key size, operation and message size, runs
`cipherbench-core-go bench --lib go` and Go's `BenchmarkAESGCM` of crypto/cipher (the
standard library's own test, `go test -bench`) one after the other, the order flipping
every repetition, REPS times. Prints a Markdown table of throughput ratios (ours / go
test: the ratio of the medians over repetitions, and the median of each repetition's
back-to-back ratio) and each tool's run-to-run coefficient of variation.

Both time the same calls on a key set once: Go's benchmark Seals (or Opens) one message
with 13 bytes of additional data per iteration into a reused buffer, as the core does.
What differs: the benchmark keeps one nonce, the core writes a fresh one before every
Seal (an 8-byte store); the core copies the 16-byte tag out of Seal's output (and into
Open's input), which the benchmark leaves in place. The sizes are the benchmark's own
(1350 and 8192 bytes); the test binary is compiled once (`go test -c crypto/cipher`)
into a temporary directory that is removed at the end.

Usage: go_test_bench.py --core build-extra/cipherbench-core-go [--reps 5]
       [--benchtime 1s] [--cpu K] [--vectors DIR] [--go go]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import common
from common import RunError

POINTS = [  # (canonical name, op, benchmark name part)
    ("aes-128-gcm", "encrypt", "Seal-128"),
    ("aes-128-gcm", "decrypt", "Open-128"),
    ("aes-256-gcm", "encrypt", "Seal-256"),
    ("aes-256-gcm", "decrypt", "Open-256"),
]
SIZES = [1350, 8192]


def bench_command(test_bin, part, size, benchtime, cpu):
    """The test binary's command line for one benchmark of one size."""
    return common.pin_prefix(cpu) + [test_bin, "-test.run", "^$", "-test.bench",
                                     f"^BenchmarkAESGCM$/^{part}-{size}$",
                                     "-test.benchtime", benchtime]


def bench_throughput(stdout, part, size):
    """Bytes per second of one benchmark line: size / (ns/op). The name carries a
    "-GOMAXPROCS" suffix unless that is 1 (as when pinned to one CPU)."""
    line_re = re.compile(rf"^BenchmarkAESGCM/{part}-{size}(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op")
    for line in stdout.splitlines():
        m = line_re.match(line)
        if m:
            return size / (float(m.group(1)) * 1e-9)
    raise RunError(f"go test printed no BenchmarkAESGCM/{part}-{size} line")


def jobs(args, test_bin):
    """One job per point: one core run against one benchmark run."""
    out = []
    for algo, op, part in POINTS:
        for size in SIZES:
            key = (algo, op, size)
            cmd = bench_command(test_bin, part, size, args.benchtime, args.cpu)
            out.append(common.Job(
                f"{algo} {op} {size}", [key],
                lambda a=algo, o=op, s=size: common.run_core(args, "go", [a], o, [s]),
                lambda k=key, c=cmd, p=part, s=size: {k: bench_throughput(common.run(c), p, s)}))
    return out


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--go", default="go", help="the go command (builds crypto/cipher's test binary)")
    p.add_argument("--benchtime", default="1s", help="go test -benchtime (default 1s)")
    a = p.parse_args(argv)
    if not re.fullmatch(r"\d+(\.\d+)?(s|ms)|\d+x", a.benchtime):
        p.error(f"--benchtime {a.benchtime}: valid: a duration such as 1s or 500ms, or a count such as 1000x")
    common.check_core_args(p, a, [a.go])
    return a


def build_test_binary(go, directory):
    """Compiles crypto/cipher's tests once; returns the binary's path."""
    path = os.path.join(directory, "cipher.test")
    p = subprocess.run([go, "test", "-c", "-o", path, "crypto/cipher"], capture_output=True,
                       text=True, cwd=directory, check=False)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise RunError(f"go test -c crypto/cipher failed: {last}")
    return path


def main(argv=None):
    """Runs the comparison and prints the Markdown table; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    tmp = tempfile.mkdtemp(prefix="cipherbench-go-bench-")
    try:
        try:
            test_bin = build_test_binary(args.go, tmp)
        except RunError as e:
            print(f"go_test_bench: {e}", file=sys.stderr)
            return 1
        return common.run_report("go_test_bench", args, jobs(args, test_bin), "go test",
                                 [args.go, "version"], f"go test -bench -benchtime {args.benchtime}",
                                 show_op=True, clocks=("wall", "cpu"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
