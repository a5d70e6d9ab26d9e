# SPDX-License-Identifier: GPL-3.0-or-later
"""Warnings: every kind is in the enum with a description and a remedy, and every option a
remedy names exists on every command that raises that kind."""
from __future__ import annotations

import re

import pytest

from cipherbench import run_warnings as W
from cipherbench.cli import build_cli


def _options(command: str) -> set[str]:
    cmd = build_cli().commands[command]
    return {o for p in cmd.params
            for o in list(getattr(p, "opts", [])) + list(getattr(p, "secondary_opts", []))}


@pytest.mark.parametrize("kind", list(W.Kind), ids=lambda k: k.value)
def test_every_remedy_names_only_real_options(kind):
    assert kind.description and kind.remedy and kind.commands
    # options of cipherbench's commands; the core's own (`cipherbench-core kat --lib`) aside
    remedy = kind.remedy.replace("cipherbench-core kat --lib", "")
    named = re.findall(r"(?<![\w-])--[a-z][a-z-]*", remedy)
    for command in kind.commands:
        missing = [o for o in named if o not in _options(command)]
        assert not missing, f"{kind.value}: {command} has no {missing}"


def test_the_texts_carry_their_remedy():
    for w in (W.noisy("x", 0.5) + W.not_stable("x", 0.05, 0.01, 0.5) + W.steal("x", 0.5)
              + W.frequency("powersave") + W.load(8.0, 2)
              + W.clock_withheld("the clock moved", 3) + W.coherence("x", "off the line")):
        assert w.text.endswith(w.kind.remedy) or w.kind.remedy in w.text, w


def test_unknown_kinds_are_refused_and_kinds_store_as_text():
    with pytest.raises(ValueError):
        W.BenchWarning("made-up", "x", "y")
    w = W.BenchWarning("noisy", "x", "y")
    assert w.kind is W.Kind.NOISY and w.kind == "noisy"
    assert set(W.KINDS) == {k.value for k in W.Kind}


def test_no_warning_names_cpu_on_commands_without_it():
    text = W.noisy("x", 0.5)[0].text
    assert "--cpu" not in text


def test_the_governor_is_blamed_only_when_it_scales_the_clock():
    # a measured clock that fell under load is the clock's trust (Kind.CLOCK), not the governor
    assert W.frequency("performance") == [] and W.frequency(None) == []
    assert W.frequency("schedutil") == [] and W.frequency("userspace") == []
    assert [w.kind for w in W.frequency("powersave")] == [W.Kind.FREQUENCY]
    assert [w.kind for w in W.frequency("ondemand")] == [W.Kind.FREQUENCY]


def test_a_lagging_load_average_is_not_blamed_when_nothing_else_runs():
    # the 1-minute average trails a machine that just became quiet (e.g. after --wait-quiet)
    assert W.load(1.9, 2, others=0) == []
    assert [w.kind for w in W.load(1.9, 2, others=2)] == [W.Kind.LOAD]
    assert [w.kind for w in W.load(1.9, 2)] == [W.Kind.LOAD]


def test_not_stable_never_says_the_same_figure_twice():
    """A width just above the target shows the digits that tell them apart; a width at or
    below it (too few samples for an interval) says so instead of "+-0.0%, not +-1.0%"."""
    from cipherbench import run_warnings as W
    [w] = W.not_stable("p", 0.0204, 0.02, 0.1, what="figure")
    assert "known to +-2.04%, not the asked +-2.00%" in w.text
    [w] = W.not_stable("p", 0.0, 0.01, 0.5, what="figure")
    assert "not the asked" not in w.text and "too few samples" in w.text
    [w] = W.not_stable("p", 0.223, 0.02, 0.1, what="figure")
    assert "known to +-22.3%, not the asked +-2.0%" in w.text
