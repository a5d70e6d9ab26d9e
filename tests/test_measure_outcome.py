# SPDX-License-Identifier: GPL-3.0-or-later
"""Every scenario's ``measure`` returns one ``MeasureOutcome``, and its command and ``advise``
read it the same way: the line a command ends with, its exit status, advise's verdict on the
measurement. ``run --hw-both`` still ends with its answer."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from cipherbench.advise.measure import Measurer, Planned
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.primitive import scenario as primitive
from test_cli_run import SMALL


@pytest.mark.parametrize("outcome,status,rc,line", [
    (MeasureOutcome(), "complete", 0, None),
    (MeasureOutcome(failed=2), "complete", 1, None),     # each failure said as it happened
    (MeasureOutcome(), "failed", 1, None),
    (MeasureOutcome(crashed=True), "interrupted", 1,
     "a library's core process crashed: run 7 is marked interrupted and keeps what finished"),
    (MeasureOutcome(nothing_measured="x: refused"), "failed", 1,
     "nothing was measured: run 7 is marked failed: x: refused"),
])
def test_one_reading_of_an_outcome(outcome, status, rc, line):
    assert outcome.exit_status(status) == rc
    assert outcome.problem(7) == line


def _capture(monkeypatch, module) -> list:
    got: list = []
    real = module.measure

    def measure(p, rec):
        got.append(real(p, rec))
        return got[-1]

    monkeypatch.setattr(module, "measure", measure)
    return got


def test_a_crashed_core_is_the_outcome_the_command_ends_with(cli, env, monkeypatch):
    got = _capture(monkeypatch, primitive)
    r = cli("run", *SMALL, env_override=dict(env, FAKE_CORE_CRASH="libgcrypt:2", FAKE_CORE_SERVE="1"))
    assert got == [MeasureOutcome(crashed=True)]
    assert r.rc == 1
    assert r.err.splitlines()[-1] == ("cipherbench: error: " + got[0].problem(1))


def test_a_complete_run_is_an_empty_outcome(cli, monkeypatch):
    got = _capture(monkeypatch, primitive)
    assert cli("run", *SMALL).rc == 0
    assert got == [MeasureOutcome()]


def test_hw_both_ends_with_the_answer_of_its_second_run(cli):
    r = cli("run", "--lib", "openssl,libgcrypt", "--algo", "aes-128-gcm,chacha20-poly1305",
            "--sizes", "1024,16384", "--budget", "0", "--hw-both")
    assert r.rc == 0, r.err
    lines = r.out.splitlines()
    pair = next(i for i, l in enumerate(lines) if "are a pair: `cipherbench compare 1 2`" in l)
    assert any("stored as run 2" in l for l in lines[pair:])    # the second run after it
    assert lines[-1].lstrip().startswith("TARGET:")               # the answer's last line


def _fake_scenario(outcome: MeasureOutcome, status: str):
    def measure(p, rec):  # noqa: ARG001 - the interface's signature
        rec.status = status
        return outcome

    plan = SimpleNamespace(args=dict, metadata=dict)
    return SimpleNamespace(NAME="tls", UNIT="points", estimate_s=lambda p: 0.0,
                           measure=measure), (lambda: plan)


@pytest.mark.parametrize("outcome,status,rc,error", [
    (MeasureOutcome(), "complete", 0, ""),
    (MeasureOutcome(failed=3), "complete", 1, "run 1: 3 figures failed"),
    (MeasureOutcome(crashed=True), "interrupted", 1, "run 1 is interrupted"),
])
def test_advise_reads_an_outcome_as_the_command_does(tmp_path, outcome, status, rc, error):
    m = Measurer({}, str(tmp_path / "r.sqlite"), say=lambda line: None)
    scenario, make_plan = _fake_scenario(outcome, status)
    got = m.measure(Planned("something", [], "a moment", scenario, make_plan))
    assert (got.rc, got.error) == (rc, error)
    assert got.rc == outcome.exit_status(status)
