#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's libgcrypt backend against libgcrypt's own bench-slope.

bench-slope (tests/bench-slope.c in libgcrypt's source) times each operation on buffers of
64 to 4096 bytes in steps of 64, 64 repetitions each (the median of them per size), and
reports the least-squares slope in ns per byte. This script compares that slope with
cipherbench's slope (`cipherbench.analysis.fit`, the one fit) over sizes of the same range, each
point's figure taken as `cipherbench run --rounds N` takes it: the fastest sample that kept the CPU
in each of N core runs (`--rounds`, default 5), and the best of those rounds. Interleaved: per
repetition the core's rounds for every operation and one bench-slope run, the order flipping
every repetition.
Optionally (`--busy`) a competing busy loop runs in its own session throughout.

bench-slope is not part of cipherbench: build it from the source of the libgcrypt installed,
against the installed library, and give its path. On Debian, for example (outside the
source tree): `apt-get source libgcrypt20`, `./configure` in the unpacked directory, then
`gcc -O2 -DHAVE_CONFIG_H -I. -Isrc -o bench-slope tests/bench-slope.c -lgcrypt -lgpg-error`.

Usage: libgcrypt_bench_slope.py --core BUILD/core/cipherbench-core --bench-slope PATH
       [--reps 5] [--rounds 5] [--sizes 1024,2048,3072,4096] [--fit-from 1024] [--cpu K]
       [--busy]
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import common
from common import RunError

try:
    import cipherbench  # noqa: F401
except ImportError:     # run from the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from cipherbench.analysis import fit, stats  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "stability"))
from busy import start_busy, stop_busy  # noqa: E402

ROWS = [  # (algo, op, bench-slope arguments, its algorithm column, its mode column)
    ("aes-128-gcm", "encrypt", ["cipher", "aes"], "AES", "GCM enc"),
    ("aes-128-gcm", "decrypt", ["cipher", "aes"], "AES", "GCM dec"),
    ("chacha20-poly1305", "encrypt", ["cipher", "chacha20"], "CHACHA20", "POLY1305 enc"),
    ("sha256", "hash", ["hash", "sha256"], "SHA256", ""),
]


def ours(args):
    """{(algo, op): slope ns/B} fitted to the core's points: per point the best of
    ``args.rounds`` core runs (one core run per op and round)."""
    out = {}
    rounds = {}   # (algo, op) -> size -> [ns per operation, one per round]
    by_op = {}
    for algo, op, *_ in ROWS:
        by_op.setdefault(op, []).append(algo)
    for _ in range(args.rounds):
        for op, algos in by_op.items():
            cmd = [args.core, "bench", "--lib", "libgcrypt", "--algo", ",".join(algos),
                   "--op", op, "--sizes", args.sizes]
            if args.cpu is not None:
                cmd += ["--cpu", str(args.cpu)]
            for line in common.run(cmd).splitlines():
                rec = json.loads(line)
                if rec["type"] == "error":
                    raise RunError(f"cipherbench-core: {rec['algo']}: {rec['message']}")
                if rec["type"] == "point":
                    best = stats.best_point(rec["wall_ns"], rec.get("cpu_ns"), rec["iters"])
                    rounds.setdefault((rec["algo"], rec["op"]), {}) \
                        .setdefault(rec["size"], []).append(best.figure)
    for key, by_size in rounds.items():
        line = fit.fit_sizes({size: stats.best_of_rounds(xs).figure
                              for size, xs in by_size.items()}, min_size=args.fit_from)
        if line is not None:
            out[key] = line.slope
    return out


def peer(args):
    """{(algo, op): slope ns/B} from bench-slope --csv, one run per argument list."""
    out = {}
    runs = {}
    for algo, op, argv, name, mode in ROWS:
        runs.setdefault(tuple(argv), []).append((algo, op, name, mode))
    for argv, rows in runs.items():
        text = common.run(common.pin_prefix(args.cpu) + [args.bench_slope, "--csv", *argv])
        for line in text.splitlines():
            f = line.split(",")
            if len(f) < 7 or f[6] != "ns/B":
                continue
            for algo, op, name, mode in rows:
                if f[1] == name and f[2] == mode:
                    out[(algo, op)] = float(f[5])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--core", default=os.environ.get("CIPHERBENCH_CORE", "cipherbench-core"))
    p.add_argument("--bench-slope", required=True, help="libgcrypt's tests/bench-slope, built")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--rounds", type=int, default=5,
                   help="core runs per repetition; a point's figure is the best of them")
    p.add_argument("--sizes", default="1024,2048,3072,4096",
                   help="the core's sizes for its fit (bench-slope fits 64-4096 bytes)")
    p.add_argument("--fit-from", type=int, default=fit.FIT_MIN_SIZE, metavar="BYTES",
                   help="fit the core's sizes from this one on (default: the product's, "
                        f"{fit.FIT_MIN_SIZE}; bench-slope's range starts at 64)")
    p.add_argument("--cpu", type=int, default=None, help="pin both tools to this CPU")
    p.add_argument("--busy", action="store_true",
                   help="run a competing busy loop in its own session throughout")
    a = p.parse_args()
    if a.reps < 2:
        p.error("--reps must be at least 2")
    if a.rounds < 1:
        p.error("--rounds must be at least 1")
    if not os.access(a.bench_slope, os.X_OK):
        p.error(f"--bench-slope: {a.bench_slope} is not an executable file")
    res = {(algo, op): ([], []) for algo, op, *_ in ROWS}
    before = os.getloadavg()[0]
    loads = []
    busy = start_busy() if a.busy else None
    try:
        for rep in range(a.reps):
            got = [None, None]
            for which in ((0, 1) if rep % 2 == 0 else (1, 0)):
                got[which] = ours(a) if which == 0 else peer(a)
            loads.append(os.getloadavg()[0])
            for key in res:
                for which in (0, 1):
                    if key not in got[which]:
                        who = "cipherbench-core" if which == 0 else "bench-slope"
                        raise RunError(f"{who} gave no slope for {' '.join(key)}")
                    res[key][which].append(got[which][key])
                o, b = res[key]
                print(f"rep {rep + 1}/{a.reps} {key[0]:18} {key[1]:8} ours {o[-1]:.4f} ns/B, "
                      f"bench-slope {b[-1]:.4f} ns/B", file=sys.stderr, flush=True)
    except RunError as e:
        print(f"libgcrypt_bench_slope.py: {e}", file=sys.stderr)
        return 1
    finally:
        stop_busy(busy)
    after = os.getloadavg()[0]
    print(f"`{' '.join(['bench/fidelity/libgcrypt_bench_slope.py'] + sys.argv[1:])}`\n")
    print(f"CPU: {common.cpu_model()}; {a.reps} repetitions, interleaved; core sizes {a.sizes} (fitted from {a.fit_from}), "
          f"best of {a.rounds} rounds per point; "
          f"{'a competing busy loop in its own session; ' if a.busy else ''}"
          f"{common.load_summary(before, loads, after)}\n")
    print("| algorithm | op | ours ns/B | bench-slope ns/B | slope ratio | paired ratio "
          "| CV ours | CV bench-slope |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (algo, op), (o, b) in res.items():
        mo, mb = statistics.median(o), statistics.median(b)
        paired = statistics.median(x / y for x, y in zip(o, b))
        print(f"| {algo} | {op} | {mo:.4f} | {mb:.4f} | {mo / mb:.3f} | {paired:.3f} "
              f"| {100 * common.cv(o):.2f}% | {100 * common.cv(b):.2f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
