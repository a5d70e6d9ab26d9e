#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The gpg part of the stability benchmark: ``gpg --symmetric`` with AES (A) against TWOFISH
(B), quiet and under a competing load, through the code ``cipherbench gpg`` measures with.

One *run* is ROUNDS interleaved rounds (``scenarios.gpg.interleaved.measure_in_rounds``, no
budget or precision stop: every run has all its rounds); each round encrypts the same
SIZE bytes held in memory once with A, once with B and once more with A (the A/A twin: the
same cipher entered twice), in a new random order, each a whole gpg process in a private
GnuPG home. A cell's figure in a run is what ``cipherbench gpg`` shows: the CPU time of the
fastest call that kept the CPU (``scenarios.gpg.figure``), as bytes per second; beside it,
from the same calls, the figure shown before (the median call's wall time). The verdicts are
the command's too: B against A and the twin against A, paired per round on the same
per-call figure (``verdict.judge``), and before on wall times.

The whole is repeated RUNS times in each condition: ``quiet`` (nothing started here) and
``loaded`` (a busy loop started in its own session, as for the core part). Reported per
condition: run-to-run CV of each cell, the share of runs with the most common verdict, the
A/A verdicts, the load seen and the share of a CPU the gpg processes got.

Usage: stability.py gpg [--runs 20] [--rounds 12] [--size 32M] [--conditions quiet,loaded]
       [--cpu K] [--json FILE] [--from-json FILE] [--seed N]
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
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
from cipherbench.scenarios.gpg import figure as F  # noqa: E402
from cipherbench.scenarios.gpg import interleaved  # noqa: E402
from cipherbench.scenarios.gpg.home import private_gnupg_home  # noqa: E402
from cipherbench.scenarios.gpg.candidates import Candidate, GpgTool, random_data  # noqa: E402
from cipherbench.units import parse_size  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from busy import start_busy, stop_busy  # noqa: E402

A, B = Candidate("gpg", "AES"), Candidate("gpg", "TWOFISH")
CELLS = {"A": (A, 0), "B": (B, 0), "A2": (A, 1)}     # cell -> (candidate, twin)


class RunError(Exception):
    """gpg failed; the message says how."""


def one_run(gpg: str, data: bytes, rounds: int, rng: random.Random, cpu: int | None,
            cpu_log: list[tuple[float, float]]) -> dict[str, dict[str, list[float]]]:
    """ROUNDS rounds in a fresh private home: {cell: {"wall": seconds per round, "cpu": CPU
    seconds per round}}."""
    slots = {c: interleaved.Slot(cand, "encrypt", len(data), twin)
             for c, (cand, twin) in CELLS.items()}
    with private_gnupg_home() as home:
        out = interleaved.measure_in_rounds({"gpg": GpgTool(gpg, home)}, list(slots.values()),
                                            data, home.env, n_rounds=rounds, rng=rng,
                                            budget_s=float("inf"), precision=0.0,
                                            min_rounds=rounds, cpu=cpu)
    if out.failed:
        raise RunError("; ".join(f"{c.algo}: {why}" for c, why in out.failed.items()))
    for r in out.done:
        cpu_log.extend((call.cpu_s, call.wall_s) for call in r.samples.values())
    return {c: {"wall": [r.samples[s].wall_s for r in out.done],
                "cpu": [r.samples[s].cpu_s for r in out.done]} for c, s in slots.items()}


def _calls(cell) -> tuple[list[float], list[float] | None]:
    """(walls, CPU times) of a cell of one run; files saved before CPU times: walls only."""
    return (cell["wall"], cell["cpu"]) if isinstance(cell, dict) else (list(cell), None)


def figure_s(cell) -> float:
    """The cell's figure in one run as ``cipherbench gpg`` computes it (seconds per call)."""
    walls, cpus = _calls(cell)
    return F.call_figure(walls, cpus).robust.figure


def verdict_new(a, b) -> V.Verdict:
    """B against A paired per round on the per-call figure (CPU time)."""
    (wa, ca), (wb, cb) = _calls(a), _calls(b)
    ra = F.per_round(list(range(len(wa))), wa, ca)
    rb = F.per_round(list(range(len(wb))), wb, cb)
    both = sorted(set(ra) & set(rb))
    return V.verdict([ra[i] for i in both], [rb[i] for i in both])


def verdict_old(a, b) -> V.Verdict:
    """B against A paired per round on wall times, every round (the figure before)."""
    return V.verdict(_calls(a)[0], _calls(b)[0])


def condition(a, name: str, rng: random.Random) -> dict:
    """RUNS runs under one condition: every round's walls and the load seen."""
    data = random_data(a.size)
    busy = start_busy() if name == "loaded" else None
    try:
        time.sleep(0.5 if busy else 0)
        snaps = [load.snapshot()]
        runs, cpu_log = [], []
        t0 = time.monotonic()
        for k in range(a.runs):
            r = one_run(a.gpg, data, a.rounds, rng, a.cpu, cpu_log)
            runs.append(r)
            snaps.append(load.snapshot())
            ratio = verdict_new(r["A"], r["B"]).ratio
            print(f"[gpg {name}] run {k + 1}/{a.runs} ({time.monotonic() - t0:.0f} s): "
                  f"TWOFISH/AES {ratio:.3f}; {snaps[-1].others} other runnable",
                  file=sys.stderr, flush=True)
    finally:
        stop_busy(busy)
    return {"runs": runs, "others": [s.others for s in snaps],
            "loadavg": [s.loadavg[0] for s in snaps if s.loadavg],
            "cpu_s": sum(c for c, _ in cpu_log), "wall_s": sum(w for _, w in cpu_log),
            "load_line": load.summary_line(snaps[0]), "seconds": time.monotonic() - t0}


def _counts(states: list[str]) -> str:
    return ", ".join(f"{states.count(s)} {s}" for s in (V.CANNOT_TELL, V.FASTER, V.SLOWER)
                     if states.count(s))


def _cells(meta: dict, runs: list, fig, verdict) -> list[str]:
    """Table lines of one estimator: per cell the median figure over the runs, its run-to-run
    CV, the verdict TWOFISH vs AES and the A/A verdicts."""
    size = meta["size"]
    per_cell = {c: [size / fig(r[c]) for r in runs] for c in CELLS}
    verdicts = [verdict(r["A"], r["B"]) for r in runs]
    states = [v.state for v in verdicts]
    top = max(set(states), key=states.count)
    ratio = stats.median([v.ratio for v in verdicts])
    aa = [verdict(r["A"], r["A2"]) for r in runs]
    within = stats.median([v.within for v in aa if v.within is not None] or [0.0])
    names = {"A": "AES", "B": "TWOFISH", "A2": "AES (twin)"}
    out = []
    for c in CELLS:
        v_cell = (f"{top} in {states.count(top)}/{len(runs)} (ratio {ratio:.3f})"
                  if c == "B" else "")
        aa_cell = (f"{_counts([v.state for v in aa])} (median: within {within:.0%})"
                   if c == "A2" else "")
        out.append(f"| {names[c]} | {stats.median(per_cell[c]) / 1e6:.0f} | "
                   f"{stats.cv(per_cell[c]):.2%} | {v_cell} | {aa_cell} |")
    return out


def report(meta: dict, name: str, data: dict) -> list[str]:
    """Markdown lines for one condition: the figure ``cipherbench gpg`` shows, then the
    median call's wall time of the same calls (the figure before)."""
    runs, others, la = data["runs"], data["others"], data["loadavg"]
    share = load.cpu_share(data["cpu_s"], data["wall_s"])
    head = ["| cell | MB/s (median of runs) | run-to-run CV | verdict TWOFISH vs AES "
            "(share of runs) | A/A verdicts (AES twice) |",
            "| --- | ---: | ---: | --- | --- |"]
    has_cpu = all(isinstance(c, dict) for r in runs for c in r.values())
    calls = [_calls(r[c]) for r in runs for c in CELLS]
    gone = sum(len(F.lost_cpu(w, cpu).dropped) for w, cpu in calls)
    lines = [f"### gpg, {name}", "",
             f"{len(runs)} runs x {meta['rounds']} rounds in {data['seconds'] / 60:.0f} min; "
             f"other runnable tasks seen {min(others)}-{max(others)} (median "
             f"{stats.median(others):g}), 1-minute load average {min(la):.2f}-{max(la):.2f}; "
             f"the gpg processes got {share:.0%} of a CPU (CPU time / wall time). At the "
             f"start: {data['load_line']}.", ""]
    if has_cpu:
        lines += [f"CPU time of the fastest call that kept the CPU (as `cipherbench "
                  f"gpg` shows it; {gone} of {sum(len(w) for w, _ in calls)} calls left out, "
                  "lost the CPU):", ""] + head + _cells(meta, runs, figure_s, verdict_new)
        lines += ["", "The same calls, median call's wall time (the figure before):", ""]
    return lines + head + _cells(meta, runs, lambda c: stats.median(_calls(c)[0]), verdict_old)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="stability.py gpg", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--rounds", type=int, default=V.RECOMMENDED_ROUNDS)
    p.add_argument("--size", default="32M", help="bytes per gpg call (the command's default)")
    p.add_argument("--conditions", default="quiet,loaded")
    p.add_argument("--cpu", type=int, default=None, help="keep gpg on this CPU")
    p.add_argument("--json", default=None, help="also write every round's walls to this file")
    p.add_argument("--from-json", default=None,
                   help="report again the figures a run saved with --json (measures nothing)")
    p.add_argument("--seed", type=int, default=None, help="seed of the random orders")
    a = p.parse_args(argv)
    conds = [x for x in a.conditions.split(",") if x]
    if any(c not in ("quiet", "loaded") for c in conds):
        p.error("--conditions: valid: quiet, loaded")
    if a.runs < 2 or a.rounds < V.MIN_ROUNDS:
        p.error(f"--runs must be at least 2 and --rounds at least {V.MIN_ROUNDS}")
    if a.from_json:
        doc = json.loads(Path(a.from_json).read_text())
    else:
        a.gpg = shutil.which("gpg")
        if a.gpg is None:
            p.error("gpg is not installed (Debian: apt-get install gnupg)")
        a.size = parse_size(a.size)
        rng = random.Random(a.seed)
        doc = {"meta": {"rounds": a.rounds, "size": a.size,
                        "command": " ".join(["bench/stability/stability.py gpg"]
                                            + (argv if argv is not None else sys.argv[1:]))},
               "conditions": {}}
        for c in conds:
            try:
                doc["conditions"][c] = condition(a, c, rng)
            except RunError as e:
                print(f"stability.py gpg: {e}", file=sys.stderr)
                return 1
        if a.json:
            Path(a.json).write_text(json.dumps(doc))
    meta = doc["meta"]
    out = ["## Stability of gpg", "", f"`{meta['command']}`", "",
           f"`gpg --symmetric` with AES against TWOFISH, {meta['size'] >> 20} MiB per call, "
           f"{meta['rounds']} interleaved rounds per run; verdicts paired per round (margin "
           f"{V.DEFAULT_MARGIN:.0%}, 95% CI) on the same per-call figure as the cells.", ""]
    for c, data in doc["conditions"].items():
        out += report(meta, c, data) + [""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
