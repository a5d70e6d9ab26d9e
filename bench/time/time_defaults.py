#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How long each default command takes against the estimate it prints, and how often `run`
prints cycles per byte, quiet and under a competing load (docs/performance.md).

For each command (default: ``run --quick``, ``run``, ``tls``, ``ssh``, ``gpg``) and each
condition:

- ``quiet``: nothing started by this script (whatever else the machine runs is reported);
- ``loadN``: N busy loops this script starts, each in its own session (``setsid``: with
  autogroup scheduling each counts as another user's work), stopped when the command ends.

it runs ``cipherbench COMMAND --json`` into a private database, and reports the real time, the
estimate the command printed first (``about X ... (estimate``), their ratio, the expected time
``run`` had after its first round (stored with the run; printed, ``the first round got ...:
about X in all``, when it moved by more than a third), the load seen at the start (``cipherbench.load``), and for ``run``
the share of fitted cells with c/B printed. Each busy loop is bounded (``timeout``) besides.
Not a test: the figures depend on the machine.

Usage: time_defaults.py [--commands "run --quick;run;tls;ssh;gpg"] [--conditions quiet,load4]
       [--repeat 1] [--settle S] [--json FILE]
       (the cipherbench of this checkout: PYTHONPATH=src, CIPHERBENCH_CORE as usual)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "stability"))
from busy import BUSY, stop_busy

from cipherbench.machine import load

DEFAULT_COMMANDS = "run --quick;run;tls;ssh;gpg"
#: "about 2 min 05 s", "12.3 s", "850 ms", "1 h 03 min" (units.format_duration)
_DURATION = re.compile(r"about ((?:\d+ h )?(?:\d+ min )?(?:[\d.]+ (?:s|ms|min))?)")


def parse_duration(text: str) -> float | None:
    """Seconds of a ``format_duration`` text, None when it is not one."""
    total, found = 0.0, False
    for value, unit in re.findall(r"([\d.]+) (h|min|s|ms)\b", text):
        total += float(value) * {"h": 3600, "min": 60, "s": 1, "ms": 0.001}[unit]
        found = True
    return total if found else None


#: No busy loop outlives this, whatever becomes of this script.
BUSY_LIMIT_S = 1800


def start_busy() -> subprocess.Popen:
    """A busy loop in its own session (``busy.BUSY``), ended by ``timeout`` at the latest."""
    return subprocess.Popen(["timeout", str(BUSY_LIMIT_S), sys.executable, "-c", BUSY],
                            start_new_session=True, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def first_round_estimate(stderr: str) -> float | None:
    """``run``'s ``the first round got N% of a CPU: about X in all``: X in seconds."""
    for line in stderr.splitlines():
        if "the first round got" in line:
            m = re.search(r"about (.*) in all", line)
            return parse_duration(m.group(1)) if m else None
    return None


def printed_estimate(stderr: str) -> float | None:
    """The first ``cipherbench: CMD: about X ... (estimate`` line's X, in seconds (for
    ``advise``, its ``N measurements to make, about X in all`` line)."""
    for line in stderr.splitlines():
        if "(estimate" in line or " to make, about " in line:
            m = _DURATION.search(line)
            return parse_duration(m.group(1)) if m else None
    return None


def cpb_share(doc: dict) -> tuple[int, int]:
    """(fits with c/B printed, fits) of a ``run --json`` document."""
    fits = [r for r in doc.get("results", []) if r.get("metric") == "slope_ns_per_byte"]
    shown = [r for r in fits if (r.get("extra") or {}).get("cycles_per_byte") is not None]
    return len(shown), len(fits)


@dataclass
class Timing:
    command: str
    condition: str
    rc: int
    real_s: float
    estimate_s: float | None
    load_others: int
    loadavg: float | None
    after_first_s: float | None = None
    cpb_shown: int | None = None
    cpb_cells: int | None = None

    @property
    def ratio(self) -> float | None:
        return self.real_s / self.estimate_s if self.estimate_s else None


def time_one(command: str, condition: str, env: dict, settle_s: float = 1.0) -> Timing:
    busy = []
    n_busy = int(condition[4:]) if condition.startswith("load") else 0
    try:
        busy = [start_busy() for _ in range(n_busy)]
        # the scheduler sees them at once; the load average only after a minute or more
        time.sleep(settle_s if busy else 0)
        snap = load.snapshot()
        with tempfile.TemporaryDirectory(prefix="cb-time-") as d:
            e = dict(env, CIPHERBENCH_DB=str(Path(d) / "r.sqlite"), XDG_DATA_HOME=d)
            argv = [sys.executable, "-m", "cipherbench", *shlex.split(command), "--json"]
            t0 = time.monotonic()
            p = subprocess.run(argv, env=e, capture_output=True, text=True, check=False)
            real = time.monotonic() - t0
    finally:
        for b in busy:
            stop_busy(b)
    t = Timing(command, condition, p.returncode, real, printed_estimate(p.stderr), snap.others,
               snap.loadavg[0] if snap.loadavg else None, first_round_estimate(p.stderr))
    if command.split()[0] == "run" and p.returncode == 0:
        try:
            doc = json.loads(p.stdout)
            t.cpb_shown, t.cpb_cells = cpb_share(doc)
            t.after_first_s = (doc.get("run", {}).get("metadata", {})
                               .get("estimate_after_first_round_s", t.after_first_s))
        except (json.JSONDecodeError, AttributeError):
            pass
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", default=DEFAULT_COMMANDS,
                    help="commands separated by ';' (default: %(default)s)")
    ap.add_argument("--conditions", default="quiet,load4")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--settle", type=float, default=1.0, metavar="S",
                    help="seconds the busy loops run before each command starts, so that it "
                         "meets a machine already at that load (default: %(default)s)")
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    out: list[Timing] = []
    print("| command | condition | others runnable | load avg | real | estimate | real/est | "
          "after 1st round | c/B shown |")
    print("|---|---|---|---|---|---|---|---|---|")
    for _ in range(a.repeat):
        for command in [c.strip() for c in a.commands.split(";") if c.strip()]:
            for cond in a.conditions.split(","):
                t = time_one(command, cond, dict(os.environ), a.settle)
                out.append(t)
                cpb = f"{t.cpb_shown}/{t.cpb_cells}" if t.cpb_cells else "-"
                est = f"{t.estimate_s:.0f} s" if t.estimate_s else "-"
                ratio = f"{t.ratio:.2f}" if t.ratio else "-"
                again = f"{t.after_first_s:.0f} s" if t.after_first_s else "-"
                print(f"| `{command}` | {cond} | {t.load_others} | {t.loadavg} | "
                      f"{t.real_s:.0f} s{'' if t.rc == 0 else f' (exit {t.rc})'} | {est} | "
                      f"{ratio} | {again} | {cpb} |", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps([dict(asdict(t), ratio=t.ratio) for t in out],
                                           indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
