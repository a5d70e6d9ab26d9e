#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Single-run outliers: the same cells measured by N separate `cipherbench run`s into one
database (as a user's runs are), each run's figure against the median of its cell over all
runs, and whether a run that is more than 5% off carried a warning for that cell, and which
(docs/performance.md). Target: none off by more than 5%
without a warning. Not a test: the figures depend on the machine.

Usage: outliers.py [--runs 100] [--lib libgcrypt] [--algo aes-128-gcm,chacha20-poly1305]
       [--size 16384] [--extra "--rounds 12"] [--load N] [--json FILE]
       (--load N: N busy loops, each in its own session, for the whole of the runs)
       (the cipherbench of this checkout: PYTHONPATH=src, CIPHERBENCH_CORE as usual)
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "stability"))
from busy import start_busy, stop_busy  # noqa: E402

OFF = 0.05


#: A cell's figure in one run: ns per op, and the kinds of the warnings about the cell.
Figure = tuple[float, tuple[str, ...]]


def one_run(args: argparse.Namespace, db: Path) -> tuple[dict[str, Figure], float | None]:
    """{cell: Figure} of one `run --json`, and the run's clock (Hz; None when
    not trusted). Only a warning about the cell counts: one about the whole run (the load at
    its start) is there in every run under load, and would excuse every figure."""
    argv = [sys.executable, "-m", "cipherbench", "run", "--lib", args.lib, "--algo", args.algo,
            "--op", "encrypt", "--sizes", str(args.size), "--no-ref", *shlex.split(args.extra),
            "--json"]
    p = subprocess.run(argv, capture_output=True, text=True, check=False,
                       env=dict(os.environ, CIPHERBENCH_DB=str(db)))
    if p.returncode != 0:
        raise SystemExit(f"run failed: {p.stderr.strip()}")
    doc = json.loads(p.stdout)
    warnings = doc.get("warnings", [])
    out = {}
    for r in doc["results"]:
        if r["metric"] == "ns_per_op":
            cell = f"{r['lib']} {r['algo']} {r['op']} {r['size']} B"
            out[cell] = (r["median"], tuple(sorted({w["kind"] for w in warnings
                                                    if cell in w.get("subject", "")})))
    trust = doc["run"]["metadata"].get("clock_trust") or {}
    return out, trust.get("freq_hz") if trust.get("trusted") else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--lib", default="libgcrypt")
    ap.add_argument("--algo", default="aes-128-gcm,chacha20-poly1305")
    ap.add_argument("--size", type=int, default=16384)
    ap.add_argument("--extra", default="", help="more options of run, e.g. '--rounds auto'")
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="busy loops, each in its own session, while the runs go on")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    runs: list[dict[str, Figure]] = []
    clocks: list[float | None] = []
    with contextlib.ExitStack() as stack, \
            tempfile.TemporaryDirectory(prefix="cb-outliers-") as d:
        for _ in range(a.load):
            stack.callback(stop_busy, start_busy())
        for i in range(a.runs):
            # one database for every run, as a user's repeated runs share theirs
            cells_of_run, clock = one_run(a, Path(d) / "results.sqlite")
            runs.append(cells_of_run)
            clocks.append(clock)
            print(f"run {i + 1} of {a.runs}", file=sys.stderr, flush=True)
    cells = sorted({c for r in runs for c in r})
    # slow: more time per operation than the median (the figure the user would trust too low)
    print("| cell | runs | median ns/op | > 5% off | without a warning: slow | fast |")
    print("|---|---|---|---|---|---|")
    summary = {}
    for c in cells:
        figs = [(r[c][0], r[c][1]) for r in runs if c in r]
        med = statistics.median(f for f, _ in figs)
        off = [(f, w) for f, w in figs if abs(f / med - 1) > OFF]
        slow = [f for f, w in off if not w and f > med]
        fast = [f for f, w in off if not w and f < med]
        by_kind = collections.Counter(k for _, w in off for k in w)
        summary[c] = {"median": med, "runs": len(figs), "off": len(off), "silent_slow": len(slow),
                      "silent_fast": len(fast), "figures": [f for f, _ in figs],
                      "off_warned_by": dict(by_kind)}
        print(f"| {c} | {len(figs)} | {med:.1f} | {len(off)} | {len(slow)} | {len(fast)} |")
    for c in cells:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(summary[c]["off_warned_by"].items()))
        print(f"\n{c}: the warnings of the runs more than 5% off: {kinds or 'none'}")
    known = [c for c in clocks if c]
    if known:
        med_clock = statistics.median(known)
        print(f"\nthe runs' clocks: {min(known) / 1e9:.2f}-{max(known) / 1e9:.2f} GHz, median "
              f"{med_clock / 1e9:.2f} GHz ({len(known)} of {len(clocks)} runs trusted)")
        for c in cells:
            med = summary[c]["median"]
            for i, (r, clock) in enumerate(zip(runs, clocks), 1):
                if c in r and abs(r[c][0] / med - 1) > OFF and not r[c][1]:
                    at = f"clock {clock / med_clock:.3f} of the median" if clock else "no clock"
                    print(f"  silent: run {i}, {c}: {r[c][0] / med:.3f} of the median, {at}")
    if a.json:
        summary["clocks_hz"] = clocks  # type: ignore[assignment]
        Path(a.json).write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
