#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A/A comparison: the same `cipherbench run` command K times, every pair of its runs compared.

Two runs of one command on one machine measure the same code: every cell `compare` calls
faster or slower between them is a false call. The target (issue: compare calls noise real) is
at most 1 cell in 20 at the default settings. For each pair this reports the cells called
different by

- ``default``: ``compare_runs`` as `cipherbench compare` runs it (both intervals, the noise
  floor of the reference rows, ``--min-change`` 5%, no cell a run warned about);
- ``intervals``: the bare interval rule with the reference rows' floor (`compare` before the
  minimum change and the warnings were part of the rule), for reference;

and, per run, the load when it started and ended and the share of a CPU it got. The runs go
into a private store in a temporary directory, removed at the end (``--keep DB`` keeps them).

Usage: aa.py [--runs 4] [--json FILE] [--keep DB] [-- RUN OPTIONS...]
       (default run options: --quick; the core from $CIPHERBENCH_CORE as for cipherbench)
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import cipherbench  # noqa: F401
except ImportError:     # run from the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from cipherbench import compare as C  # noqa: E402
from cipherbench.store import Store  # noqa: E402

DEFAULT_RUN = ["--quick"]


def run_once(db: Path, run_args: list[str]) -> None:
    """One `cipherbench run` into ``db``; raises on failure (its stderr's last line)."""
    env = dict(os.environ, CIPHERBENCH_DB=str(db), NO_COLOR="1")
    p = subprocess.run([sys.executable, "-m", "cipherbench", "run", *run_args],
                       capture_output=True, text=True, env=env, check=False)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"aa.py: cipherbench run failed ({p.returncode}): {last}")


def pair_counts(store: Store, a: int, b: int) -> dict:
    """Cells and false calls of one pair, by the default rule and the bare intervals."""
    ra, rb = store.get_run(a), store.get_run(b)
    xa, xb = store.results(a), store.results(b)
    cmp = C.compare_runs(ra, xa, rb, xb, None, store.warnings(a), store.warnings(b))
    bare, _, _ = C.compare_results(xa, xb)
    real = (C.FASTER, C.SLOWER)
    cells = [e for e in cmp.entries if e.lib != C.REFERENCE_LIB]
    bare_cells = [e for e in bare if e.lib != C.REFERENCE_LIB]
    called = [e for e in cells if e.mark in real]
    return {"a": a, "b": b, "cells": len(cells),
            "default": len(called),
            "intervals": sum(1 for e in bare_cells if e.mark in real),
            "held_back_by_warnings": cmp.rule.warned_cells if cmp.rule else 0,
            "called": [f"{e.lib} {e.algo} {e.op} {e.size} B: {e.ratio:.3f}" for e in called]}


def run_facts(store: Store, rid: int) -> dict:
    m = store.get_run(rid).metadata
    others = [((m.get(k) or {}).get("others")) for k in ("load_start", "load_end")]
    return {"run": rid, "loadavg": m.get("loadavg"), "others_start_end": others,
            "cpu_share": m.get("cpu_share")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=4, help="identical runs (every pair compared)")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--keep", metavar="DB", help="keep the runs in this store")
    ap.add_argument("run_args", nargs="*", help="the run command's options (after --)")
    opts = ap.parse_args()
    if opts.runs < 2:
        ap.error("--runs: at least 2")
    run_args = opts.run_args or DEFAULT_RUN
    tmp = Path(tempfile.mkdtemp(prefix="cipherbench-aa-"))
    try:
        db = Path(opts.keep) if opts.keep else tmp / "aa.sqlite"
        t0 = time.monotonic()
        for i in range(opts.runs):
            run_once(db, run_args)
            print(f"run {i + 1}/{opts.runs} done ({time.monotonic() - t0:.0f} s)", flush=True)
        with Store.open(db, readonly=True) as store:
            ids = [r.id for r in store.runs("run")][-opts.runs:]
            pairs = [pair_counts(store, a, b) for a, b in itertools.combinations(ids, 2)]
            facts = [run_facts(store, i) for i in ids]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    cells = sum(p["cells"] for p in pairs)
    doc = {"command": "cipherbench run " + " ".join(run_args), "runs": facts, "pairs": pairs,
           "cells": cells, "default": sum(p["default"] for p in pairs),
           "intervals": sum(p["intervals"] for p in pairs),
           "minutes": round((time.monotonic() - t0) / 60, 1)}
    print(f"A/A: `{doc['command']}` x {opts.runs}, {len(pairs)} pairs, {cells} cells "
          f"({doc['minutes']} min)")
    for f in facts:
        print(f"  run {f['run']}: load average {f['loadavg']}, other runnable tasks at start/end "
              f"{f['others_start_end']}, CPU share {f['cpu_share']}")
    print(f"  called different, default rule: {doc['default']} of {cells} "
          f"({doc['default'] / max(cells, 1):.1%}); bare intervals: {doc['intervals']} "
          f"({doc['intervals'] / max(cells, 1):.1%})")
    for p in pairs:
        print(f"  runs {p['a']}/{p['b']}: {p['default']} of {p['cells']} (intervals "
              f"{p['intervals']}, held back by warnings {p['held_back_by_warnings']})"
              + ("".join(f"\n      {c}" for c in p["called"])))
    if opts.json:
        Path(opts.json).write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
