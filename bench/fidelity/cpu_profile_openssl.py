#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`--cpu-profile` against OpenSSL's own switch by hand: for each profile, the OpenSSL backend
of cipherbench-core under `--cpu-profile P` beside `OPENSSL_ia32cap=MASK openssl speed -evp
ALGO` with the very mask the core reports for that profile (its library record's `hw_env`),
interleaved (the order flips every round) at 16 KiB. Both are read per CPU second: the core's
samples by their CPU time, openssl speed by its default divisor (user CPU time), so load on a
shared machine weighs on neither. Prints the mask, what OpenSSL then reports it uses, the
medians, their ratio and each round's ratio, with the load average before and after.

Usage: cpu_profile_openssl.py --core BUILD/core/cipherbench-core [--rounds 3]
       [--profiles no-aes,baseline] [--algos aes-128-gcm,chacha20-poly1305]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess

SIZE = 16384


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def library(core: str, profile: str) -> dict:
    out = subprocess.run([core, "list", "--lib", "openssl", "--cpu-profile", profile],
                         capture_output=True, text=True, check=True).stdout
    return next(r for r in map(json.loads, out.splitlines()) if r["type"] == "library")


def core_rates(core: str, profile: str, algos: list[str]) -> dict[str, float]:
    out = subprocess.run([core, "bench", "--lib", "openssl", "--algo", ",".join(algos), "--op",
                          "encrypt", "--sizes", str(SIZE), "--samples", "9",
                          "--min-sample-ms", "20", "--cpu-profile", profile],
                         capture_output=True, text=True, check=True).stdout
    return {r["algo"]: statistics.median(SIZE * r["iters"] / c * 1e9 for c in r["cpu_ns"])
            for r in map(json.loads, out.splitlines()) if r["type"] == "point"}


def speed(algo: str, mask: str) -> float:
    out = subprocess.run(["openssl", "speed", "-evp", algo, "-bytes", str(SIZE), "-seconds", "1"],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "OPENSSL_ia32cap": mask}).stdout
    line = [x for x in out.splitlines() if x.lower().startswith(algo)][-1]
    return float(line.split()[-1].rstrip("k")) * 1000     # "...  123456.78k": 1000s of B/s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--core", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profiles", default="no-aes,baseline")
    ap.add_argument("--algos", default="aes-128-gcm,chacha20-poly1305")
    a = ap.parse_args()
    algos = a.algos.split(",")
    masks = {}
    for p in a.profiles.split(","):
        rec = library(a.core, p)
        masks[p] = rec["hw_env"][0].split("=", 1)[1]
        print(f"{p}: OPENSSL_ia32cap={masks[p]}; OpenSSL's switch {rec['hw_switch']}, "
              f"it then reports using: {', '.join(rec['hw_used']) or 'nothing beyond SSE2'}")
    print(f"load average before: {load()}")
    ours: dict[tuple[str, str], list[float]] = {}
    theirs: dict[tuple[str, str], list[float]] = {}
    for rnd in range(a.rounds):
        for p, mask in masks.items():
            first_core = rnd % 2 == 0
            for step in ((0, 1) if first_core else (1, 0)):
                if step == 0:
                    for algo, v in core_rates(a.core, p, algos).items():
                        ours.setdefault((p, algo), []).append(v)
                else:
                    for algo in algos:
                        theirs.setdefault((p, algo), []).append(speed(algo, mask))
        print(f"round {rnd + 1}: load average {load()}")
    print("\n| profile | algorithm | core MB/s | openssl speed MB/s | ratio | per round |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for (p, algo), xs in ours.items():
        ys = theirs[(p, algo)]
        c, s = statistics.median(xs), statistics.median(ys)
        rounds = ", ".join(f"{x / y:.2f}" for x, y in zip(xs, ys))
        print(f"| {p} | {algo} | {c / 1e6:.0f} | {s / 1e6:.0f} | {c / s:.2f} | {rounds} |")


if __name__ == "__main__":
    main()
