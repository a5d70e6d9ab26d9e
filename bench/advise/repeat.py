#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How often advise's answer stays the same when the measurement is repeated.

Repeats a ``tls``, an ``ssh --via pipe`` and a ``gpg`` run K times each into one fresh store,
and after each run asks ``advise --no-measure --json`` for the target that run answers
(``tls-server``, ``ssh --via pipe``, ``gpg``): within a layer the newest complete run decides,
so each answer is that run's. The commands are the real ones (``python -m cipherbench``, real
openssl, sshd, gpg), one after the other, never in parallel.

Reported per target: the headline (the answer's first sentence) and the conclusion (the
second) of each answer, how often the most common one came back, and, over the answers whose
verdict record agrees with the most common verdict (state, choice, how it stands against the
default), how often their conclusion is the same: the target is 19 of 20 of those.

Usage: repeat.py [--k 3] [--targets tls,ssh,gpg] [--json FILE] [--keep-db PATH]
The load (/proc/loadavg) is read before and after each command and reported.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: Per target: the measuring command (short: the machine may be shared) and the advise call.
PLANS = {
    "tls": (["tls", "--lib", "openssl", "--sizes", "16384", "--no-loopback",
             "--suites", ("TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,"
                          "TLS_CHACHA20_POLY1305_SHA256"), "--budget", "0.3"],
            ["--for", "tls-server"]),
    "ssh": (["ssh", "--via", "pipe", "--size", "16M", "--budget", "1", "--ciphers",
             "aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com"],
            ["--for", "ssh", "--via", "pipe"]),
    "gpg": (["gpg", "--size", "8M", "--ops", "encrypt", "--algo", "AES,AES256,TWOFISH",
             "--budget", "1", "--no-core"],
            ["--for", "gpg"]),
}


def loadavg() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cipherbench(args: list[str], db: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               CIPHERBENCH_DB=db, NO_COLOR="1")
    p = subprocess.Popen([sys.executable, "-m", "cipherbench", *args], env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=1800)
    except BaseException:
        # Ctrl-C or the timeout: the command stops as it does on Ctrl-C (its servers, gpg
        # agents and private directories cleaned up), never killed outright
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=60)
        raise
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def split_answer(answer: str) -> tuple[str, str]:
    """(headline, conclusion): the answer's first sentence and the rest."""
    head, _, rest = answer.partition(". ")
    return head + ".", rest


def one(name: str, db: str) -> dict:
    measure, ask = PLANS[name]
    before = loadavg()
    t0 = time.monotonic()
    m = cipherbench(measure, db)
    took = time.monotonic() - t0
    a = cipherbench(["advise", "--no-measure", "--json", *ask], db)
    out = {"target": name, "measure_exit": m.returncode, "seconds": round(took, 1),
           "load_before": before, "load_after": loadavg(), "advise_exit": a.returncode}
    if m.returncode not in (0,):
        out["error"] = (m.stderr.strip().splitlines() or ["?"])[-1]
    try:
        t = json.loads(a.stdout)["targets"][0]
    except (ValueError, KeyError, IndexError):
        out["error"] = (a.stderr.strip().splitlines() or ["advise printed no JSON"])[-1]
        return out
    v = t["verdict"]
    out.update(answer=t["answer"], headline=split_answer(t["answer"])[0],
               conclusion=split_answer(t["answer"])[1], figures=t["figures"],
               verdict=[v["state"], v["choice"], v["against_default"]], runs=v["runs"])
    return out


def summarize(rows: list[dict]) -> dict:
    by = collections.defaultdict(list)
    for r in rows:
        if "verdict" in r:
            by[r["target"]].append(r)
    out = {}
    for name, rs in by.items():
        heads = collections.Counter(r["headline"] for r in rs)
        concl = collections.Counter(r["conclusion"] for r in rs)
        verdicts = collections.Counter(tuple(r["verdict"]) for r in rs)
        modal = verdicts.most_common(1)[0][0]
        agree = [r for r in rs if tuple(r["verdict"]) == modal]
        same = collections.Counter(r["conclusion"] for r in agree).most_common(1)[0][1]
        out[name] = {"answers": len(rs), "headline_same": heads.most_common(1)[0][1],
                     "conclusion_same": concl.most_common(1)[0][1],
                     "verdicts_agree": len(agree), "conclusion_same_where_agree": same,
                     "headlines": dict(heads), "verdicts": {" | ".join(map(str, k)): n
                                                           for k, n in verdicts.items()}}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=3, help="runs per target")
    ap.add_argument("--targets", default="tls,ssh,gpg")
    ap.add_argument("--json", help="write every answer and the summary here")
    ap.add_argument("--keep-db", help="the store to use (kept); default: a fresh one, removed")
    a = ap.parse_args()
    names = [n for n in a.targets.split(",") if n]
    for n in names:
        if n not in PLANS:
            ap.error(f"--targets: {n}? one of {', '.join(PLANS)}")
    tmp = None if a.keep_db else tempfile.mkdtemp(prefix="cipherbench-advise-bench-")
    db = a.keep_db or os.path.join(tmp, "results.sqlite")
    rows = []
    try:
        for k in range(a.k):
            for name in names:
                r = one(name, db)
                rows.append(r)
                print(f"{k + 1}/{a.k} {name}: {r.get('answer', r.get('error'))} "
                      f"[{r['seconds']} s, load {r['load_before']:.1f}-{r['load_after']:.1f}]",
                      flush=True)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    summary = summarize(rows)
    print()
    print("target  answers  same headline  same conclusion  verdicts agree  same conclusion "
          "where they agree")
    for name, s in summary.items():
        print(f"{name:7} {s['answers']:7}  {s['headline_same']:13}  {s['conclusion_same']:15}  "
              f"{s['verdicts_agree']:14}  {s['conclusion_same_where_agree']}")
    loads = [x for r in rows for x in (r["load_before"], r["load_after"])]
    if loads:
        print(f"load (1-minute average) {min(loads):.1f}-{max(loads):.1f}")
    if a.json:
        Path(a.json).write_text(json.dumps({"rows": rows, "summary": summary}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
