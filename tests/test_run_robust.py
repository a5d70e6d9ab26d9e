# SPDX-License-Identifier: GPL-3.0-or-later
"""`run` lets the core size its samples, and a point's figure is the robust one: samples that
lost the CPU left out (counted and stored), the median of the groups' fastest, its interval
computed on that figure."""
from __future__ import annotations

import json

from conftest import write_recordings

from cipherbench.analysis import stats
from cipherbench.store import Store

ALGOS = {"aes-128-gcm": ("aead", ["encrypt"])}
# one library after another: the core sizes a point's samples (a round's batch takes the
# preset's few, tests/test_run_rounds.py)
ARGS = ("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--op", "encrypt", "--sizes",
        "16384", "--no-ref", "--budget", "0", "--rounds", "off")


def _points(env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.runs()[-1]
        return run, [r for r in s.results(run.id) if r.metric == "ns_per_op"]


def _calls(log):
    return [l.split() for l in log.read_text().splitlines() if l.startswith("bench")]


def test_the_core_sizes_the_samples_unless_samples_is_given(cli, env, tmp_path):
    rec = write_recordings(tmp_path / "rec", "openssl",
                           {("aes-128-gcm", "encrypt", 16384): [4000.0] * 12}, ALGOS)
    log = tmp_path / "core.log"
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec), FAKE_CORE_LOG=str(log), FAKE_CORE_SERVE="")
    assert cli(*ARGS, env_override=e).rc == 0
    assert _calls(log) and all("--samples" not in c for c in _calls(log))
    run, _ = _points(env)
    assert run.args["samples"] is None
    log.unlink()
    assert cli(*ARGS, "--samples", "7", env_override=e).rc == 0
    assert all(c[c.index("--samples") + 1] == "7" for c in _calls(log))


def test_samples_that_lost_the_cpu_are_left_out_and_counted(cli, env, tmp_path):
    walls = [4000.0, 4010.0, 4005.0, 9000.0, 4002.0, 4008.0, 3000.0, 4001.0,
             4003.0, 4006.0, 4004.0, 4007.0]
    cpus = list(walls)
    cpus[6] = 1000.0     # 3000 ns of wall but only 1000 of CPU: lost the CPU (a bad clock read)
    cpus[3] = 4000.0     # 9000 ns of wall, 4000 of CPU: preempted
    rec = write_recordings(tmp_path / "rec", "openssl",
                           {("aes-128-gcm", "encrypt", 16384): walls}, ALGOS)
    path = rec / "bench-openssl.jsonl"
    lines = [json.loads(l) for l in path.read_text().splitlines()]
    for r in lines:
        if r["type"] == "point":
            r["cpu_ns"] = cpus
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec))
    r = cli(*ARGS, "--samples", "12", env_override=e)
    assert r.rc == 0, r.err
    _, (p,) = _points(env)
    assert p.extra["n_lost_cpu"] == 2 and p.extra["estimator"] == "robust"
    kept = [w for i, w in enumerate(walls) if i not in (3, 6)]
    want = stats.robust(kept, stats.default_best_of(len(kept)))
    assert p.median == want.figure and (p.ci_low, p.ci_high) == (want.ci_low, want.ci_high)
    assert p.median >= 4000.0 and 3000.0 not in p.extra["samples"]   # not the bad sample


def test_one_sided_noise_does_not_move_the_figure(cli, env, tmp_path):
    # half the samples slowed by other work: the median moves 50%, the robust figure does not
    walls = [4000.0, 6000.0] * 6
    rec = write_recordings(tmp_path / "rec", "openssl",
                           {("aes-128-gcm", "encrypt", 16384): walls}, ALGOS)
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec))
    assert cli(*ARGS, "--samples", "12", env_override=e).rc == 0
    _, (p,) = _points(env)
    assert p.median == 4000.0 and p.ci_low == p.ci_high == 4000.0
