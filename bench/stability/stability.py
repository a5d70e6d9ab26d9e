#!/usr/bin/env python3
"""Stability of cipherbench's numbers and verdicts, quiet and under a competing load.

The seeds' comparison: per library, AES-128-GCM against ChaCha20-Poly1305 (encrypt, 16 KiB),
through cipherbench-core directly. One *run* is ROUNDS rounds; each round starts one core
process per library, the libraries in a random order, and each process measures, in a random
order, aes-128-gcm, chacha20-poly1305 and aes-128-gcm again (the A/A pair: the same cipher
entered twice). Every point's figure is its fastest sample among those that kept the CPU
(``stats.best_point``). A run's figure for a cell is the median of its rounds' figures
(``stats.robust(..., best_of=1)``); its verdicts are paired (``verdict.verdict`` on the per-round
figures): ChaCha20-Poly1305 against AES-128-GCM, and the second AES-128-GCM against the first.

The whole is repeated RUNS times in each condition:

- ``quiet``: nothing started by this script (whatever else the machine runs is reported);
- ``loaded``: a busy loop this script starts in its own session (``setsid``, so that the
  scheduler's autogroups treat it as another user's work, and ``nice`` would not help) and
  stops at the end.

Reported per condition: run-to-run CV of each cell; per library the share of runs that gave
the most common verdict, and the A/A false verdicts; the load seen (``cipherbench.load``) and
the share of a CPU the core processes got. The targets (docs/performance.md): CV <= 1% quiet
and <= 3% loaded; the same verdict in >= 19 of 20 runs for pairs >= 10% apart; A/A false
"faster" in <= 1 of 20.

Usage: stability.py --core BUILD/core/cipherbench-core [--runs 20] [--rounds 8]
       [--libs openssl,libgcrypt,nettle,gnutls] [--conditions quiet,loaded] [--size 16384]
       [--cpu K] [--json FILE] [--seed N]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

try:
    import cipherbench  # noqa: F401
except ImportError:     # run from the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from cipherbench import load, stats  # noqa: E402
from cipherbench import verdict as V  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from busy import start_busy, stop_busy  # noqa: E402

A, B = "aes-128-gcm", "chacha20-poly1305"
CELLS = ("A", "B", "A2")        # A2: the A/A twin


class RunError(Exception):
    """The core failed or printed something unusable."""


def core_round(core: str, lib: str, order: list[str], size: int, cpu: int | None
               ) -> tuple[dict[str, float], float, float]:
    """One core process measuring the cells in ``order``; returns ({cell: ns per op}, CPU
    seconds of the process, wall seconds)."""
    algos = [A if c in ("A", "A2") else B for c in order]
    cmd = [core, "bench", "--lib", lib, "--algo", ",".join(algos), "--op", "encrypt",
           "--sizes", str(size)]
    if cpu is not None:
        cmd += ["--cpu", str(cpu)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise RunError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-200:]}")
    points = [json.loads(line) for line in p.stdout.splitlines()
              if line.startswith("{") and '"type":"point"' in line]
    if len(points) != len(order):
        raise RunError(f"{lib}: {len(points)} points for {len(order)} cells")
    out = {}
    for cell, rec in zip(order, points):
        out[cell] = stats.best_point(rec["wall_ns"], rec["cpu_ns"], rec["iters"]).figure
    return out, cpu_s, wall


def one_run(args, rng: random.Random, cpu_log: list[tuple[float, float]]
            ) -> dict[str, dict[str, list[float]]]:
    """ROUNDS rounds: {lib: {cell: [ns per op per round]}}."""
    res = {lib: {c: [] for c in CELLS} for lib in args.libs}
    for _ in range(args.rounds):
        libs = list(args.libs)
        rng.shuffle(libs)
        for lib in libs:
            order = list(CELLS)
            rng.shuffle(order)
            figs, cpu_s, wall = core_round(args.core, lib, order, args.size, args.cpu)
            cpu_log.append((cpu_s, wall))
            for c in CELLS:
                res[lib][c].append(figs[c])
    return res


def condition(args, name: str, rng: random.Random) -> dict:
    """K runs under one condition; the raw figures, verdicts and load seen."""
    busy = start_busy() if name == "loaded" else None
    try:
        time.sleep(0.5 if busy else 0)
        snaps = [load.snapshot()]
        runs, cpu_log = [], []
        t0 = time.monotonic()
        for k in range(args.runs):
            r = one_run(args, rng, cpu_log)
            runs.append(r)
            snaps.append(load.snapshot())
            line = "; ".join(f"{lib} B/A {V.paired_ratio(r[lib]['A'], r[lib]['B']).ratio:.3f}"
                             for lib in args.libs)
            print(f"[{name}] run {k + 1}/{args.runs} ({time.monotonic() - t0:.0f} s): {line}; "
                  f"{snaps[-1].others} other runnable", file=sys.stderr, flush=True)
    finally:
        stop_busy(busy)
    return {"runs": runs, "snaps": snaps, "cpu_log": cpu_log,
            "busy_pid": busy.pid if busy else None}


def mode(xs: list[str]) -> tuple[str, int]:
    best = max(set(xs), key=xs.count)
    return best, xs.count(best)


def report(args, name: str, data: dict) -> tuple[list[str], dict]:
    """Markdown lines for one condition, and the figures kept for the JSON document."""
    runs, snaps = data["runs"], data["snaps"]
    others = [s.others for s in snaps]
    la = [s.loadavg[0] for s in snaps if s.loadavg]
    cpu_s = sum(c for c, _ in data["cpu_log"])
    wall_s = sum(w for _, w in data["cpu_log"])
    share = load.cpu_share(cpu_s, wall_s)
    lines = [f"### {name}", "",
             f"{len(runs)} runs x {args.rounds} rounds; other runnable tasks seen "
             f"{min(others)}-{max(others)} (median {stats.median(others):g}), 1-minute load "
             f"average {min(la):.2f}-{max(la):.2f}; the core processes got {share:.0%} of a CPU "
             f"(CPU time / wall time). {load.summary_line(snaps[0])}.", "",
             "| library | cell | median MB/s | run-to-run CV | verdict B vs A (share of runs) "
             "| A/A verdicts |",
             "| --- | --- | ---: | ---: | --- | --- |"]
    doc = {}
    for lib in args.libs:
        per_cell = {}
        for c in CELLS:
            figs = [stats.median(r[lib][c]) for r in runs]
            per_cell[c] = figs
        verdicts = [V.verdict(r[lib]["A"], r[lib]["B"]) for r in runs]
        aa = [V.verdict(r[lib]["A"], r[lib]["A2"]) for r in runs]
        states = [v.state for v in verdicts]
        top, count = mode(states)
        ratio = stats.median([V.paired_ratio(r[lib]["A"], r[lib]["B"]).ratio for r in runs])
        aa_states = [v.state for v in aa]
        aa_text = ", ".join(f"{aa_states.count(s)} {s}" for s in (V.CANNOT_TELL, V.FASTER,
                                                                   V.SLOWER)
                            if aa_states.count(s))
        for c in ("A", "B"):
            mbps = args.size / stats.median(per_cell[c]) * 1e9 / 1e6
            algo = A if c == "A" else B
            v_cell = (f"{top} in {count}/{len(runs)} (ratio {ratio:.3f})" if c == "B" else "")
            aa_cell = aa_text if c == "A" else ""
            lines.append(f"| {lib} | {algo} | {mbps:.0f} | {stats.cv(per_cell[c]):.2%} | "
                         f"{v_cell} | {aa_cell} |")
        doc[lib] = {"cv": {c: stats.cv(per_cell[c]) for c in CELLS},
                    "figures_ns": per_cell, "verdicts": states, "ratio": ratio,
                    "same_verdict": count / len(runs), "aa": aa_states}
    return lines, {"cells": doc, "others": others, "loadavg": la, "cpu_share": share}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--core", default=os.environ.get("CIPHERBENCH_CORE", "cipherbench-core"))
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--libs", default="openssl,libgcrypt,nettle,gnutls")
    p.add_argument("--conditions", default="quiet,loaded")
    p.add_argument("--size", type=int, default=16384)
    p.add_argument("--cpu", type=int, default=None, help="pin the core to this CPU")
    p.add_argument("--json", default=None, help="also write every figure to this file")
    p.add_argument("--seed", type=int, default=None, help="seed of the random orders")
    a = p.parse_args()
    a.libs = [x for x in a.libs.split(",") if x]
    conds = [x for x in a.conditions.split(",") if x]
    if any(c not in ("quiet", "loaded") for c in conds):
        p.error("--conditions: valid: quiet, loaded")
    if a.runs < 2 or a.rounds < V.MIN_ROUNDS:
        p.error(f"--runs must be at least 2 and --rounds at least {V.MIN_ROUNDS}")
    rng = random.Random(a.seed)
    out = ["## Stability", "",
           f"`{' '.join(['bench/stability/stability.py'] + sys.argv[1:])}`", "",
           f"{len(a.libs)} libraries; AES-128-GCM (A) vs ChaCha20-Poly1305 (B), encrypt, "
           f"{a.size} B; the core's defaults (many short samples); per point the fastest sample "
           f"that kept the CPU, per run the median over its rounds; verdicts paired per round (margin "
           f"{V.DEFAULT_MARGIN:.0%}, 95% CI).", ""]
    doc = {}
    for c in conds:
        try:
            data = condition(a, c, rng)
        except RunError as e:
            print(f"stability.py: {e}", file=sys.stderr)
            return 1
        lines, doc[c] = report(a, c, data)
        out += lines + [""]
    print("\n".join(out))
    if a.json:
        Path(a.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
