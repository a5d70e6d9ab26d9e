#!/usr/bin/env python3
"""Stability of ``cipherbench ssh``'s verdicts: each ssh cipher against the client's default,
quiet and under a competing load, through the scenario's own parts (the private sshd, the
pipe transfer, ``scenarios.rounds`` and ``verdict``).

One *run* is ROUNDS interleaved rounds against one private sshd; each round sends one sample
(``--size`` bytes through ``ssh -c CIPHER``, the pipe) through every cipher and through the
default cipher a second time (the A/A twin), in a new random order. A run's figure of a cell
is the median of its rounds (as ``cipherbench ssh`` shows it; the CV of the best round is
given beside it); its verdicts are paired per round (``verdict.verdict`` on the
rates): each cipher against the default, and the twin against the default (which must be
"cannot tell").

The whole is repeated RUNS times in each condition: ``quiet`` (nothing started here; whatever
else runs is reported) and ``loaded`` (a busy loop this script starts in its own session,
``busy.py``, and stops at the end).

Reported per condition: run-to-run CV of each cell; per cipher the share of runs that gave
the most common verdict; the A/A verdicts; the load seen.

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

from cipherbench import load, stats, units  # noqa: E402
from cipherbench import verdict as V  # noqa: E402
from cipherbench.scenarios.rounds import rounds  # noqa: E402
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
            rng: random.Random) -> dict[str, list[float]]:
    """``n_rounds`` rounds: {cell: [bytes/s per round, None where it was not measured]}."""
    def measure(cell: str, _i: int) -> float | None:
        cipher = default if cell == TWIN else cell
        try:
            s = transfer(target, cipher, None if is_aead(cipher) else MAC, data)
        except SshError as err:      # the cell leaves the later rounds; the run goes on
            print(f"ssh_part.py: {cell}: {err}", file=sys.stderr)
            return None
        return s.throughput

    done = rounds(cells, measure, n_rounds, rng)
    return {c: [r.samples.get(c) for r in done] for c in cells}


def paired(r: dict[str, list], a: str, b: str) -> V.Verdict | None:
    """B against A over the rounds that measured both (None when none did)."""
    both = [(x, y) for x, y in zip(r[a], r[b]) if x is not None and y is not None]
    if not both:
        return None
    return V.verdict([x for x, _ in both], [y for _, y in both], higher_is_better=True)


def _got(xs: list) -> list[float]:
    return [x for x in xs if x is not None]


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
                v = paired(r, default, TWIN)
                aa = v.text() if v else "not measured"
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


def report(meta: dict, name: str, data: dict) -> list[str]:
    """Markdown lines for one condition."""
    runs, others, la = data["runs"], data["others"], data["loadavg"]
    default = data["default"]
    lines = [f"### ssh, {name}", "",
             f"{len(runs)} runs x {meta['rounds']} rounds of {units.format_bytes(meta['size'])} "
             f"through the pipe ({data['wall_s'] / 60:.1f} min); other runnable tasks seen "
             f"{min(others)}-{max(others)} (median {stats.median(others):g}), 1-minute load "
             f"average {min(la):.2f}-{max(la):.2f}. At the start: {data['load_line']}.", "",
             f"| cipher | median MB/s | run-to-run CV | CV, best round | verdict against "
             f"{default} (share of runs) | median ratio |",
             "| --- | ---: | ---: | ---: | --- | ---: |"]
    for cell in data["cells"]:
        figs = [stats.median(_got(r[cell])) for r in runs if _got(r.get(cell, []))]
        best = [max(_got(r[cell])) for r in runs if _got(r.get(cell, []))]
        if not figs:
            lines.append(f"| {cell} | failed | | | | |")
            continue
        label = f"{default} (A/A twin)" if cell == TWIN else cell
        cvs = f"{stats.cv(figs):.1%} | {stats.cv(best):.1%}"
        if cell == default:
            lines.append(f"| {label} (default) | {stats.median(figs) / 1e6:.0f} | {cvs} | | |")
            continue
        vs = [v for v in (paired(r, default, cell) for r in runs) if v is not None]
        top, count = _mode([v.state for v in vs])
        ratio = stats.median([v.ratio for v in vs if v.ratio is not None])
        counts = ", ".join(f"{sum(v.state == s for v in vs)} {s}"
                           for s in (V.CANNOT_TELL, V.FASTER, V.SLOWER)
                           if any(v.state == s for v in vs))
        verdicts = counts if cell == TWIN else f"{top} in {count}/{len(runs)}"
        lines.append(f"| {label} | {stats.median(figs) / 1e6:.0f} | {cvs} | {verdicts} | "
                     f"{ratio:.3f} |")
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
    p.add_argument("--json", default=None, help="also write every round's rates to this file")
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
           f"{V.DEFAULT_MARGIN:.0%}, 95% CI); the A/A twin is the default entered twice.", ""]
    for c, data in doc["conditions"].items():
        out += report(meta, c, data) + [""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
