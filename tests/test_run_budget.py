# SPDX-License-Identifier: GPL-3.0-or-later
"""The default run's extra samples share one run-wide budget, so the whole run stays short; an
explicit --budget (per point) lifts the cap."""
from __future__ import annotations

from types import SimpleNamespace

from cipherbench.presets import DEFAULT, FULL, QUICK
from cipherbench.scenarios.primitive.batches import PrimitiveRunner, Selection
from cipherbench.store import Store


def _runner(cap, total=10, done=0):
    sel = Selection(libs=("x",), algos=("a",), ops=None, sizes=(1024,), budget_s=0.5,
                    run_budget_s=cap)
    rec = SimpleNamespace(progress=SimpleNamespace(total=total, count=done))
    return PrimitiveRunner(core=None, rec=rec, sel=sel)


def test_a_point_gets_an_even_share_of_what_is_left():
    r = _runner(cap=1.0)
    assert r._point_budget() == 0.1                 # 1 s over 10 points to come
    r._extra_s = 0.95
    assert abs(r._point_budget() - 0.005) < 1e-12
    r._extra_s = 2.0
    assert r._point_budget() == 0.0                 # spent: no more extra samples
    assert _runner(cap=100.0)._point_budget() == 0.5   # never above the per-point budget
    assert _runner(cap=None)._point_budget() == 0.5    # no cap


def test_presets_and_explicit_budget(cli, env):
    # a run budget for the adaptive rounds of default and quick; full goes one library after another
    assert DEFAULT.run_budget_s and QUICK.run_budget_s and FULL.run_budget_s is None
    args = ["--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384", "--no-ref"]
    assert cli("run", *args).rc == 0
    assert cli("run", *args, "--budget", "0.2").rc == 0
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        first, second = s.runs()
    assert first.args["run_budget_s"] == DEFAULT.run_budget_s
    # --budget: seconds a point, for all the rounds of the run
    assert second.args["budget_s"] == 0.2 and second.args["run_budget_s"] != DEFAULT.run_budget_s
