#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fleet in one command, one host at a time against several at once: the same small plan
measured on HOSTS namespace hosts (``hosts.NamespaceFleet``: each its own network namespace,
sshd and host name) by one ``cipherbench run --host fleet-h01,... --parallel N`` per trial,
with ``--parallel A`` and ``--parallel B`` interleaved A B A B ... (``--reps`` of each), so a
change in the machine's load falls on both alike (docs/performance.md).

Reported per trial: the wall time of the command, the sum of the hosts' own times (each
host's start to end as the command reports it: ssh, probe, shipping the core, measuring,
cleaning up), the sum of the time each host's run was measuring (the stored run's start to
end, whole seconds), the 1-minute load average before and after, and whether every host
completed; then the median wall time of each --parallel and their ratio. Not a test: the
figures depend on the machine. Every namespace, sshd, run and temporary directory is removed
on every exit (Ctrl-C included); a run stopped by it is stopped with SIGTERM so it cleans up.

Usage: parallel.py [--hosts 10] [--parallel 1,5] [--reps 2]
       [--plan "--lib openssl --algo sha256 --sizes 1024 --budget 0"] [--json FILE]
       (as root; the cipherbench of this checkout: PYTHONPATH=src, CIPHERBENCH_CORE as usual)
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

try:
    import cipherbench  # noqa: F401
except ImportError:     # run from the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from cipherbench.interrupts import stop_on_signals  # noqa: E402
from hosts import NamespaceFleet, NotPermitted  # noqa: E402

PLAN = "--lib openssl --algo sha256 --sizes 1024 --budget 0"
#: How long a stopped run may take to clean up on its hosts before it is killed.
STOP_GRACE_S = 120


@dataclass
class Trial:
    parallel: int
    rep: int
    wall_s: float
    hosts_s: float          # the sum of each host's own time
    measuring_s: float      # the sum of each host's run, start to end (whole seconds)
    load_before: float
    load_after: float
    complete: int           # hosts that completed
    hosts: int
    problem: str = ""       # the command's last line when it did not end well


def loadavg() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def _seconds(run: dict) -> float:
    start, end = run.get("started_at"), run.get("finished_at")
    if not start or not end:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def run_fleet(fleet: NamespaceFleet, parallel: int, plan: str, db: Path) -> tuple[float, dict,
                                                                                  str]:
    """One `run --host ... --parallel N --json`: (wall seconds, its document, its stderr).
    The command runs in its own session: a stop here reaches it as SIGTERM, once, and it is
    waited for, so it removes what it made on the hosts."""
    argv = [sys.executable, "-m", "cipherbench", "run", "--host", ",".join(fleet.names),
            "--ssh-config", str(fleet.ssh_config), "--parallel", str(parallel),
            *shlex.split(plan), "--no-progress", "--json", "--db", str(db)]
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.communicate(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
    wall = time.monotonic() - t0
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {"hosts": []}
    return wall, doc, err


def trial(fleet: NamespaceFleet, parallel: int, rep: int, plan: str, db: Path) -> Trial:
    before = loadavg()
    wall, doc, err = run_fleet(fleet, parallel, plan, db)
    after = loadavg()
    hosts = doc.get("hosts") or []
    complete = sum(1 for h in hosts if h.get("status") == "complete")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return Trial(parallel=parallel, rep=rep, wall_s=round(wall, 1),
                 hosts_s=round(sum(h.get("elapsed_s") or 0.0 for h in hosts), 1),
                 measuring_s=sum(_seconds(r["run"]) for h in hosts for r in h.get("runs") or []),
                 load_before=before, load_after=after, complete=complete,
                 hosts=len(fleet.names),
                 problem="" if complete == len(fleet.names) else (lines[-1] if lines else
                                                                 "no output"))


def table(trials: list[Trial], modes: list[int]) -> str:
    rows = ["| --parallel | rep | wall s | hosts' own time, sum s | measuring, sum s | "
            "hosts complete | load before → after |", "|---|---|---|---|---|---|---|"]
    for t in trials:
        rows.append(f"| {t.parallel} | {t.rep} | {t.wall_s:.1f} | {t.hosts_s:.1f} | "
                    f"{t.measuring_s:.0f} | {t.complete}/{t.hosts} | "
                    f"{t.load_before:.2f} → {t.load_after:.2f} |")
    med = {m: statistics.median(t.wall_s for t in trials if t.parallel == m) for m in modes
           if any(t.parallel == m for t in trials)}
    rows.append("")
    rows += [f"median wall time with --parallel {m}: {s:.1f} s" for m, s in med.items()]
    if len(med) == 2:
        (a, sa), (b, sb) = med.items()
        rows.append(f"--parallel {a} / --parallel {b}: {sa / sb:.2f}x")
    problems = [f"--parallel {t.parallel} rep {t.rep}: {t.problem}" for t in trials
                if t.problem]
    rows += [f"not every host completed: {p}" for p in problems]
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=10)
    ap.add_argument("--parallel", default="1,5", help="the two --parallel values, A,B")
    ap.add_argument("--reps", type=int, default=2, help="trials of each, interleaved")
    ap.add_argument("--plan", default=PLAN, help="the options of run that choose what to "
                    f"measure (default: {PLAN!r})")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    try:
        modes = [int(x) for x in a.parallel.split(",")]
    except ValueError:
        modes = []
    if len(modes) != 2 or min(modes) < 1:
        ap.error("--parallel takes two numbers, e.g. 1,5")
    if not 1 <= a.hosts <= 64 or a.reps < 1:
        ap.error("--hosts between 1 and 64, --reps at least 1")
    trials: list[Trial] = []
    try:
        with stop_on_signals(), tempfile.TemporaryDirectory(prefix="cb-fleet-bench-") as d:
            with NamespaceFleet(a.hosts, d) as fleet:
                print(f"{a.hosts} hosts up; plan: {a.plan}; {os.cpu_count()} CPUs, load "
                      f"{loadavg():.2f}", file=sys.stderr)
                for rep in range(1, a.reps + 1):
                    for m in modes:
                        t = trial(fleet, m, rep, a.plan, Path(d) / f"p{m}-r{rep}.sqlite")
                        trials.append(t)
                        print(f"--parallel {m} rep {rep}: {t.wall_s:.1f} s, {t.complete}/"
                              f"{t.hosts} complete, load {t.load_before:.2f} → "
                              f"{t.load_after:.2f}", file=sys.stderr)
    except NotPermitted as e:
        print(f"parallel.py: cannot make the fleet here: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("parallel.py: stopped; what was measured follows", file=sys.stderr)
    if trials:
        print(table(trials, modes))
    if a.json:
        Path(a.json).write_text(json.dumps(
            {"hosts": a.hosts, "plan": a.plan, "cpus": os.cpu_count(),
             "trials": [asdict(t) for t in trials]}, indent=2) + "\n")
    return 0 if trials and all(not t.problem for t in trials) else 1


if __name__ == "__main__":
    sys.exit(main())
