#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stability of ``cipherbench ssh``'s verdicts: each ssh cipher against the client's default,
quiet and under a competing load, through the scenario's own parts (the private sshd, the
pipe transfer, ``scenarios.rounds``, ``scenarios.ssh.figure`` and ``verdict``).

One *run* is ROUNDS interleaved rounds against one private sshd; each round sends one sample
(``--size`` bytes through ``ssh -c CIPHER``, the pipe) through every cipher and through the
default cipher a second time (the A/A twin), in a new random order. Each sample keeps its
figure's bytes and time (the steady part, ``scenarios.ssh.steady``), the whole transfer's,
and the CPU time of both ends over the figure's part (ssh and the sshd session process, with
how each was read), as ``cipherbench ssh`` stores them. A run's figures of a cell are medians
over its rounds: the rate (the throughput ``cipherbench ssh`` shows) and the CPU figure, bytes
per CPU second of both ends together. Its verdicts are the command's (``figure.versus``): each
cipher against the default and the twin against the default (which must be "cannot tell"),
paired per round on the CPU figure when every round has it to the nanosecond, else on the
rates; beside them the rates and verdicts of the whole transfers (the figure before).

The whole is repeated RUNS times in each condition: ``quiet`` (nothing started here; whatever
else runs is reported) and ``loaded`` (a busy loop this script starts in its own session,
``busy.py``, and stops at the end).

Reported per condition: run-to-run CV of each cell's wall and CPU figures; per cipher the share
of runs that gave the most common verdict; the A/A verdicts; the load seen; how many samples
waited (``cpu_figure.lost_cpu`` on both ends' CPU over the wall time) and how much more CPU per
byte those used than the other rounds of their cell (why no round is left out).

Usage: stability.py ssh [--runs 20] [--rounds 12] [--size 16M]
       [--ciphers LIST] [--conditions quiet,loaded] [--json FILE] [--seed N]
   or: ssh_part.py ... (the same)
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

try:
    import cipherbench  # noqa: F401
except ImportError:     # run from the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from cipherbench.analysis import cpu_figure, stats  # noqa: E402
from cipherbench import units  # noqa: E402
from cipherbench.machine import load  # noqa: E402
from cipherbench.analysis import verdict as V  # noqa: E402
from cipherbench.scenarios.rounds import rounds  # noqa: E402
from cipherbench.scenarios.ssh import figure as F  # noqa: E402
from cipherbench.scenarios.ssh.errors import SshError  # noqa: E402
from cipherbench.scenarios.ssh.server import PrivateServer, query  # noqa: E402
from cipherbench.scenarios.ssh.transfer import (Target, client_defaults, is_aead,  # noqa: E402
                                                transfer)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from busy import start_busy, stop_busy  # noqa: E402

MAC = "umac-64-etm@openssh.com"
TWIN = "#2"          # the default cipher entered a second time
DEFAULT_CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
                   "chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-cbc")


def one_run(target: Target, cells: list[str], default: str, data: bytes, n_rounds: int,
            rng: random.Random) -> dict[str, list[dict | None]]:
    """``n_rounds`` rounds: {cell: [sample per round, None where it was not measured]}, each
    sample with the keys ``cipherbench ssh`` stores in a ``round_s`` row's extra."""
    def measure(cell: str, _i: int) -> dict | None:
        cipher = default if cell == TWIN else cell
        try:
            s = transfer(target, cipher, None if is_aead(cipher) else MAC, data)
        except SshError as err:      # the cell leaves the later rounds; the run goes on
            print(f"ssh_part.py: {cell}: {err}", file=sys.stderr)
            return None
        nbytes, seconds = s.figure     # the steady part where there is one, as stored
        return {"bytes": nbytes, "wall_s": seconds, "sent": s.nbytes, "whole_s": s.wall_s,
                "client_cpu_s": s.client_cpu_s,
                "client_cpu_method": s.client_cpu_method, "server_cpu_s": s.server_cpu_s,
                "server_cpu_method": s.server_cpu_method}

    done = rounds(cells, measure, n_rounds, rng)
    return {c: [r.samples.get(c) for r in done] for c in cells}


def _sample(x) -> dict | None:
    """A sample as saved; files saved before CPU times kept only the wall rate (bytes/s)."""
    if x is None or isinstance(x, dict):
        return x
    return {"bytes": x, "wall_s": 1.0}


def figures(samples: list) -> tuple[dict[int, float], dict[int, float]]:
    """(round -> wall rate, round -> CPU figure) of one cell in one run, as
    ``scenarios.ssh.tables`` computes them from the stored rows ({} for the CPU figure when
    not every round has it to the nanosecond)."""
    got = [(i, s) for i, s in enumerate(map(_sample, samples)) if s and s["wall_s"] > 0]
    wall = {i: s["bytes"] / s["wall_s"] for i, s in got}
    cpu = F.cpu_rates([i for i, _ in got], [s["bytes"] for _, s in got],
                      [F.round_cpu_s(s) for _, s in got])
    return wall, cpu


def versus(r: dict[str, list], a: str, b: str) -> F.Versus:
    """B against A as ``cipherbench ssh`` judges it (CPU figure where it can, else wall)."""
    (wa, ca), (wb, cb) = figures(r[a]), figures(r[b])
    return F.versus(wa, wb, ca, cb)


def whole_rates(samples: list) -> dict[int, float]:
    """Round -> the whole transfer's rate (sent over the data phase; files saved before the
    steady part kept only that as their figure)."""
    got = [(i, s) for i, s in enumerate(map(_sample, samples)) if s and s["wall_s"] > 0]
    return {i: s.get("sent", s["bytes"]) / s.get("whole_s", s["wall_s"]) for i, s in got}


def versus_whole(r: dict[str, list], a: str, b: str) -> V.Verdict | None:
    """B against A on the whole transfers' rates (the figure before the steady part)."""
    return F.paired(whole_rates(r[a]), whole_rates(r[b]))


def waited(runs: list[dict], cells: list[str]) -> tuple[int, int, float | None]:
    """(samples that waited, samples with both ends' CPU, median excess CPU per byte of those
    over the median of the other rounds of their cell and run): a sample *waited* when both
    ends' CPU over its wall time is below ``cpu_figure.REL_SHARE`` of the cell's upper
    quartile in that run (``cpu_figure.lost_cpu``)."""
    n_waited = n = 0
    excess = []
    for r in runs:
        for c in cells:
            got = [s for s in map(_sample, r.get(c, [])) if s and F.round_cpu_s(s)]
            if not got:
                continue
            walls = [s["wall_s"] for s in got]
            cpus = [F.round_cpu_s(s) for s in got]
            f = cpu_figure.lost_cpu(walls, cpus)
            n += len(got)
            n_waited += len(f.dropped)
            per_byte = [cpu / s["bytes"] for cpu, s in zip(cpus, got)]
            if f.dropped and f.kept:
                kept = stats.median([per_byte[i] for i in f.kept])
                excess += [per_byte[i] / kept - 1 for i in f.dropped]
    return n_waited, n, stats.median(excess) if excess else None


def condition(args, name: str, rng: random.Random) -> dict:
    """RUNS runs under one condition (plain data, so it can be saved and reported again)."""
    busy = start_busy() if name == "loaded" else None
    data = random.Random(1).randbytes(args.size)
    try:
        time.sleep(0.5 if busy else 0)
        snaps = [load.snapshot()]
        runs = []
        t0 = time.monotonic()
        with PrivateServer() as srv:
            target = Target(srv.destination, tuple(srv.ssh_options()), private=True)
            default = client_defaults(target)[0][0]
            cells = list(dict.fromkeys([default, *args.ciphers])) + [TWIN]
            for k in range(args.runs):
                r = one_run(target, cells, default, data, args.rounds, rng)
                runs.append(r)
                snaps.append(load.snapshot())
                v = versus(r, default, TWIN)
                aa = f"{v.verdict.text()} ({v.figure})" if v.verdict else "not measured"
                print(f"[ssh {name}] run {k + 1}/{args.runs} ({time.monotonic() - t0:.0f} s): "
                      f"A/A {aa}; {snaps[-1].others} other runnable",
                      file=sys.stderr, flush=True)
    finally:
        stop_busy(busy)
    return {"runs": runs, "default": default, "cells": cells,
            "others": [s.others for s in snaps],
            "loadavg": [s.loadavg[0] for s in snaps if s.loadavg],
            "load_line": load.summary_line(snaps[0]), "wall_s": time.monotonic() - t0}


def _mode(xs: list[str]) -> tuple[str, int]:
    best = max(set(xs), key=xs.count)
    return best, xs.count(best)


def _shares(vs: list[V.Verdict], twin: bool, runs: int) -> str:
    """``cannot tell in 7/8 (1 faster)`` for a cipher, ``8 cannot tell`` for the twin."""
    states = [v.state for v in vs]
    counts = ", ".join(f"{states.count(s)} {s}" for s in (V.CANNOT_TELL, V.FASTER, V.SLOWER)
                       if s in states)
    if twin:
        return counts
    top, count = _mode(states)
    rest = ", ".join(f"{states.count(s)} {s}" for s in (V.CANNOT_TELL, V.FASTER, V.SLOWER)
                     if s in states and s != top)
    return f"{top} in {count}/{runs}" + (f" ({rest})" if rest else "")


def report(meta: dict, name: str, data: dict) -> list[str]:
    """Markdown lines for one condition."""
    runs, others, la = data["runs"], data["others"], data["loadavg"]
    default = data["default"]
    gone, n, excess = waited(runs, data["cells"])
    lines = [f"### ssh, {name}", "",
             f"{len(runs)} runs x {meta['rounds']} rounds of {units.format_bytes(meta['size'])} "
             f"through the pipe ({data['wall_s'] / 60:.1f} min); other runnable tasks seen "
             f"{min(others)}-{max(others)} (median {stats.median(others):g}), 1-minute load "
             f"average {min(la):.2f}-{max(la):.2f}. At the start: {data['load_line']}.", ""]
    if n:
        lines += [f"{gone} of {n} samples waited (both ends' CPU over the wall time below "
                  f"{cpu_figure.REL_SHARE:g} of their cell's upper quartile in the run)"
                  + (f"; their CPU per byte was a median {excess:+.1%} from the other rounds "
                     "of their cell" if excess is not None else "") + ".", ""]
    lines += [f"| cipher | MB/s | run-to-run CV | CPU figure MB/s | run-to-run CV, "
              f"CPU | verdict against {default}, the command's (share of runs) | median ratio "
              "| whole transfers: MB/s | CV | verdict on their rates | median ratio |",
              "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: |"]
    for cell in data["cells"]:
        per_run = [figures(r.get(cell, [])) for r in runs]
        walls = [stats.median(list(w.values())) for w, _ in per_run if w]
        cpus = [stats.median(list(c.values())) for _, c in per_run if c]
        wholes = [stats.median(list(w.values())) for w in
                  (whole_rates(r.get(cell, [])) for r in runs) if w]
        if not walls:
            lines.append(f"| {cell} | failed | | | | | | | | | |")
            continue
        label = f"{default} (A/A twin)" if cell == TWIN else cell
        cpu_cells = (f"{stats.median(cpus) / 1e6:.0f} | {stats.cv(cpus):.1%}"
                     if len(cpus) == len(walls) else "- | -")
        figs = f"{stats.median(walls) / 1e6:.0f} | {stats.cv(walls):.1%} | {cpu_cells}"
        whole = f"{stats.median(wholes) / 1e6:.0f} | {stats.cv(wholes):.1%}"
        if cell == default:
            lines.append(f"| {label} (default) | {figs} | | | {whole} | | |")
            continue
        vs = [v for v in (versus(r, default, cell) for r in runs) if v.verdict is not None]
        kinds = sorted({v.figure for v in vs})
        product = [v.verdict for v in vs]
        before = [v for v in (versus_whole(r, default, cell) for r in runs) if v is not None]
        ratio = stats.median([v.ratio for v in product if v.ratio is not None])
        ratio_w = stats.median([v.ratio for v in before if v.ratio is not None])
        on = "" if kinds == [cpu_figure.CPU] else f" [{', '.join(kinds)}]"
        lines.append(f"| {label} | {figs} | {_shares(product, cell == TWIN, len(runs))}{on} | "
                     f"{ratio:.3f} | {whole} | {_shares(before, cell == TWIN, len(runs))} | "
                     f"{ratio_w:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="stability.py ssh",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--rounds", type=int, default=V.RECOMMENDED_ROUNDS)
    p.add_argument("--size", default="16M", help="bytes per transfer (K, M, G)")
    p.add_argument("--ciphers", default=",".join(DEFAULT_CIPHERS),
                   help="compared with the client's default cipher")
    p.add_argument("--conditions", default="quiet,loaded")
    p.add_argument("--json", default=None, help="also write every round's samples to this file")
    p.add_argument("--from-json", default=None, help="report a saved --json again")
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args(argv)
    conds = [x for x in a.conditions.split(",") if x]
    if any(c not in ("quiet", "loaded") for c in conds):
        p.error("--conditions: valid: quiet, loaded")
    if a.runs < 2 or a.rounds < V.MIN_ROUNDS:
        p.error(f"--runs must be at least 2 and --rounds at least {V.MIN_ROUNDS}")
    try:
        a.size = units.parse_size(a.size)
    except ValueError:
        p.error(f"--size {a.size!r} is not a size")
    if a.from_json:
        doc = json.loads(Path(a.from_json).read_text())
    else:
        offered = query("cipher")
        a.ciphers = [c for c in a.ciphers.split(",") if c in offered]
        rng = random.Random(a.seed)
        doc = {"meta": {"rounds": a.rounds, "size": a.size,
                        "command": " ".join(["bench/stability/stability.py ssh"]
                                            + (argv if argv is not None else sys.argv[1:]))},
               "conditions": {c: condition(a, c, rng) for c in conds}}
        if a.json:
            Path(a.json).write_text(json.dumps(doc))
    meta = doc["meta"]
    out = ["## Stability of ssh", "", f"`{meta['command']}`", "",
           "Each cipher against the client's default, paired per round (margin "
           f"{V.DEFAULT_MARGIN:.0%}, 95% CI) on the figure `cipherbench ssh` judges by: CPU "
           "per byte of both ends where every round has it to the nanosecond (else the wall "
           "rate: marked [wall_s]); beside it the whole transfers' rates and verdicts. The A/A "
           "twin is the default entered twice. CPU figure: bytes per CPU second of ssh and sshd "
           "together.", ""]
    for c, data in doc["conditions"].items():
        out += report(meta, c, data) + [""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
