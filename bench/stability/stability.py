#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stability of cipherbench's numbers and verdicts, quiet and under a competing load.

The seeds' comparison: per library, AES-128-GCM against ChaCha20-Poly1305 (encrypt, 16 KiB),
through cipherbench-core directly. One *run* is ROUNDS rounds; each round starts one core
process per library, the libraries in a random order, and each process measures, in a random
order, aes-128-gcm, chacha20-poly1305 and aes-128-gcm again (the A/A pair: the same cipher
entered twice). Every point's figure is its fastest sample among those that kept the CPU
(``stats.best_point``). A run's figure for a cell is its best round (``stats.best_of_rounds``; the CV of the median
round is shown beside it); its verdicts are paired (``verdict.verdict`` on the per-round
figures): ChaCha20-Poly1305 against AES-128-GCM, and the second AES-128-GCM against the first.

The whole is repeated RUNS times in each condition:

- ``quiet``: nothing started by this script (whatever else the machine runs is reported);
- ``loaded``: a busy loop this script starts in its own session (``setsid``, so that the
  scheduler's autogroups treat it as another user's work, and ``nice`` would not help) and
  stops at the end.

Reported per condition: run-to-run CV of each cell; per library the share of runs that gave
the most common verdict, and the A/A false verdicts; the load seen (``cipherbench.machine.load``) and
the share of a CPU the core processes got. The targets (docs/performance.md): CV <= 1% quiet
and <= 3% loaded; the same verdict in >= 19 of 20 runs for pairs >= 10% apart; A/A false
"faster" in <= 1 of 20.

The ssh part: ``stability.py ssh ...`` (``ssh_part.py``).

Usage: stability.py --core BUILD/core/cipherbench-core [--runs 20] [--rounds 12]
       [--libs openssl,libgcrypt,nettle,gnutls] [--conditions quiet,loaded] [--size 16384]
       [--cpu K] [--json FILE] [--seed N]
       stability.py PART [its options]: another part of the benchmark, in its own module
       (``PARTS``; e.g. ``stability.py gpg --help``)
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

from cipherbench.machine import load  # noqa: E402
from cipherbench.analysis import stats  # noqa: E402
from cipherbench.analysis import verdict as V  # noqa: E402

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
    """K runs under one condition: every round's figures and the load seen (plain data, so
    that it can be saved and reported again with --from-json)."""
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
    return {"runs": runs, "others": [s.others for s in snaps],
            "loadavg": [s.loadavg[0] for s in snaps if s.loadavg],
            "cpu_s": sum(c for c, _ in cpu_log), "wall_s": sum(w for _, w in cpu_log),
            "load_line": load.summary_line(snaps[0])}


def mode(xs: list[str]) -> tuple[str, int]:
    best = max(set(xs), key=xs.count)
    return best, xs.count(best)


def cell_figure(per_round: list[float]) -> float:
    """A run's figure of a cell from its rounds' figures (ns per operation): the best round
    (``stats.best_of_rounds``)."""
    return stats.best_of_rounds(per_round).figure


def report(meta: dict, name: str, data: dict) -> list[str]:
    """Markdown lines for one condition."""
    runs, others, la = data["runs"], data["others"], data["loadavg"]
    share = load.cpu_share(data["cpu_s"], data["wall_s"])
    lines = [f"### {name}", "",
             f"{len(runs)} runs x {meta['rounds']} rounds; other runnable tasks seen "
             f"{min(others)}-{max(others)} (median {stats.median(others):g}), 1-minute load "
             f"average {min(la):.2f}-{max(la):.2f}; the core processes got {share:.0%} of a CPU "
             f"(CPU time / wall time). At the start: {data['load_line']}.", "",
             "| library | cell | median MB/s | run-to-run CV | CV, median round | verdict B vs A "
             "(share of runs) | A/A verdicts |",
             "| --- | --- | ---: | ---: | ---: | --- | --- |"]
    for lib in meta["libs"]:
        per_cell = {c: [cell_figure(r[lib][c]) for r in runs] for c in CELLS}
        median_round = {c: [stats.median(r[lib][c]) for r in runs] for c in CELLS}
        states = [V.verdict(r[lib]["A"], r[lib]["B"]).state for r in runs]
        aa_states = [V.verdict(r[lib]["A"], r[lib]["A2"]).state for r in runs]
        top, count = mode(states)
        ratio = stats.median([V.paired_ratio(r[lib]["A"], r[lib]["B"]).ratio for r in runs])
        aa_text = ", ".join(f"{aa_states.count(s)} {s}" for s in (V.CANNOT_TELL, V.FASTER,
                                                                   V.SLOWER)
                            if aa_states.count(s))
        for c in ("A", "B"):
            mbps = meta["size"] / stats.median(per_cell[c]) * 1e9 / 1e6
            algo = A if c == "A" else B
            v_cell = f"{top} in {count}/{len(runs)} (ratio {ratio:.3f})" if c == "B" else ""
            aa_cell = aa_text if c == "A" else ""
            lines.append(f"| {lib} | {algo} | {mbps:.0f} | {stats.cv(per_cell[c]):.2%} | "
                         f"{stats.cv(median_round[c]):.2%} | {v_cell} | {aa_cell} |")
    return lines


#: Other parts, each its own module beside this one: ``stability.py PART [its options]``.
PARTS = {"gpg": "gpg_part", "ssh": "ssh_part"}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] in PARTS:
        import importlib
        return importlib.import_module(PARTS[sys.argv[1]]).main(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--core", default=os.environ.get("CIPHERBENCH_CORE", "cipherbench-core"))
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--rounds", type=int, default=12)
    p.add_argument("--libs", default="openssl,libgcrypt,nettle,gnutls")
    p.add_argument("--conditions", default="quiet,loaded")
    p.add_argument("--size", type=int, default=16384)
    p.add_argument("--cpu", type=int, default=None, help="pin the core to this CPU")
    p.add_argument("--json", default=None,
                   help="also write every round's figures and the load seen to this file")
    p.add_argument("--seed", type=int, default=None, help="seed of the random orders")
    p.add_argument("--from-json", default=None,
                   help="report again the figures a run saved with --json (measures nothing)")
    a = p.parse_args()
    a.libs = [x for x in a.libs.split(",") if x]
    conds = [x for x in a.conditions.split(",") if x]
    if any(c not in ("quiet", "loaded") for c in conds):
        p.error("--conditions: valid: quiet, loaded")
    if a.runs < 2 or a.rounds < V.MIN_ROUNDS:
        p.error(f"--runs must be at least 2 and --rounds at least {V.MIN_ROUNDS}")
    if a.from_json:
        doc = json.loads(Path(a.from_json).read_text())
    else:
        rng = random.Random(a.seed)
        doc = {"meta": {"libs": a.libs, "rounds": a.rounds, "size": a.size,
                        "command": " ".join(["bench/stability/stability.py"] + sys.argv[1:])},
               "conditions": {}}
        for c in conds:
            try:
                doc["conditions"][c] = condition(a, c, rng)
            except RunError as e:
                print(f"stability.py: {e}", file=sys.stderr)
                return 1
        if a.json:
            Path(a.json).write_text(json.dumps(doc))
    meta = doc["meta"]
    out = ["## Stability", "", f"`{meta['command']}`", "",
           f"{len(meta['libs'])} libraries; AES-128-GCM (A) vs ChaCha20-Poly1305 (B), encrypt, "
           f"{meta['size']} B; the core's defaults (many short samples); per point the fastest "
           "sample that kept the CPU, per run the best round (the median round's CV beside it); verdicts paired per "
           f"round (margin {V.DEFAULT_MARGIN:.0%}, 95% CI).", ""]
    for c, data in doc["conditions"].items():
        out += report(meta, c, data) + [""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
