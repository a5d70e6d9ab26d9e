# SPDX-License-Identifier: GPL-3.0-or-later
"""Every entry of the scenario registry keeps the one interface the rest of the program calls:
its name, its progress unit, estimate_s, measure and view with their parameters, and a click
command beside it (so `show`, `export`, `advise` and the command line can take any of them)."""
from __future__ import annotations

import inspect
import typing

import click
import pytest

from cipherbench import scenarios
from cipherbench.scenarios.outcome import MeasureOutcome


@pytest.mark.parametrize("command", sorted(scenarios.SCENARIOS))
def test_each_registered_scenario_has_the_interface(command):
    mod = scenarios.scenario(command)
    assert mod.NAME == command, "a run's stored command must find its own scenario again"
    assert isinstance(mod.UNIT, str) and mod.UNIT
    for name, leading in scenarios.INTERFACE.items():
        fn = getattr(mod, name, None)
        assert callable(fn), f"{mod.__name__} has no {name}"
        params = list(inspect.signature(fn).parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        required = [p for p in params if p.default is inspect.Parameter.empty
                    and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
        # called positionally with the interface's arguments, anything more optional
        assert len(positional) >= len(leading), f"{mod.__name__}.{name} takes too few arguments"
        assert len(required) == len(leading), f"{mod.__name__}.{name} asks for more than the interface"


@pytest.mark.parametrize("command", sorted(scenarios.SCENARIOS))
def test_each_registered_scenario_measures_into_the_one_outcome_type(command):
    mod = scenarios.scenario(command)
    assert typing.get_type_hints(mod.measure)["return"] is MeasureOutcome


@pytest.mark.parametrize("command", sorted(scenarios.SCENARIOS))
def test_each_registered_scenario_has_its_command_beside_it(command):
    cmd = scenarios.command_of(command)
    assert isinstance(cmd, click.Command)
    assert cmd.params, f"{command}'s command takes no options"


def test_a_module_missing_a_function_fails_the_check(monkeypatch):
    """The check above can fail: a scenario without view is caught."""
    mod = scenarios.scenario("gpg")
    monkeypatch.delattr(mod, "view")
    with pytest.raises(AssertionError):
        test_each_registered_scenario_has_the_interface("gpg")
