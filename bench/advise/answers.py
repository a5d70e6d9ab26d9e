#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real answers of docs/advise.md: ``cipherbench advise --for all --json`` on a fresh store
(it measures what it needs: the TLS record layers, ssh, gpg, primitives), written as one
section per target between the ``answers`` markers of docs/advise.md, with the command, the
machine and the load before and after.

Usage: answers.py [--doc docs/advise.md] [--json FILE] [--from-json FILE] [--keep-db PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- answers:start -->", "<!-- answers:end -->"
COMMAND = ["advise", "--for", "all", "--json"]


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def measure(keep_db: str | None = None) -> dict:
    tmp = tempfile.mkdtemp(prefix="cipherbench-advise-answers-")
    db = keep_db or os.path.join(tmp, "results.sqlite")
    env = dict(os.environ, CIPHERBENCH_DB=db, NO_COLOR="1",
               PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before, t0 = loadavg(), time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "cipherbench", *COMMAND], env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=3600)
    except BaseException:
        p.send_signal(signal.SIGINT)      # as Ctrl-C: the command cleans up after itself
        p.communicate(timeout=60)
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    doc = json.loads(out)
    doc["bench"] = {"exit": p.returncode, "seconds": round(time.monotonic() - t0),
                    "load_before": before, "load_after": loadavg(),
                    "machine": f"{platform.node()}, {cpu_model()}, {os.cpu_count()} CPUs",
                    "progress": err.strip().splitlines()}
    return doc


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


def markdown(doc: dict) -> str:
    b = doc["bench"]
    intro = (f"`cipherbench {' '.join(COMMAND[:-1])}` on a fresh store, {b['machine']}; it "
             f"measured for {b['seconds']} s (exit {b['exit']}), load average "
             f"{b['load_before']} before and {b['load_after']} after (a shared machine: other "
             "work ran beside it). Produced by `bench/advise/answers.py`.")
    out = [intro, "",
           "| target | use | against the default | bottleneck |", "| --- | --- | --- | --- |"]
    out += [f"| {r['target']} | {r['use']} | {r['against_default']} | {r['bottleneck']} |"
            for r in doc["summary"]]
    for t in doc["targets"]:
        out += ["", f"### {t['target']}", "", "```"]
        out += [x for x in [t["answer"], t["figures"], *t["also"], t["decided_by"],
                            t["bottleneck"]] if x]
        lines = [c["text"] for c in t["config"]]
        if lines:
            out += ["config:"] + [f"    {ln}" for ln in lines]
        out.append("```")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc", default=str(ROOT / "docs" / "advise.md"))
    ap.add_argument("--json", help="keep the advise document and the bench facts here")
    ap.add_argument("--from-json", help="write the section from a kept document")
    ap.add_argument("--keep-db", help="the fresh store to measure into (kept; must not exist)")
    a = ap.parse_args()
    if a.keep_db and Path(a.keep_db).exists():
        ap.error(f"--keep-db {a.keep_db}: exists; the answers come from a fresh store")
    doc = json.loads(Path(a.from_json).read_text()) if a.from_json else measure(a.keep_db)
    if a.json:
        Path(a.json).write_text(json.dumps(doc, indent=2))
    text = Path(a.doc).read_text()
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    Path(a.doc).write_text(f"{head}{START}\n{markdown(doc)}\n{END}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
