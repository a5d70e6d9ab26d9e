# SPDX-License-Identifier: GPL-3.0-or-later
"""What cipherbench measures: one registry of scenarios, each with the same small interface.

A scenario is a module (``SCENARIOS`` names them, by the command that stores their runs) with:

- ``NAME``: the command recorded on its runs (``run``, ``tls``, ``ssh``, ``gpg``);
- ``UNIT``: what its progress counts (``points``, ``transfers``, ...);
- ``estimate_s(plan) -> float | Estimate``: the expected duration (an ``analysis.estimate``
  when a budget of wall time makes it other than the quiet one over the CPU share), printed
  before it starts;
- ``measure(plan, rec)``: measures into a ``recording.Recording``, which opens and closes the
  stored run, keeps results and warnings as they arrive, shows progress and handles signals;
- ``estimate_s(plan) -> float``: the expected duration, printed before it starts;
- ``measure(plan, rec) -> MeasureOutcome``: measures into a ``recording.Recording``, which
  opens and closes the stored run, keeps results and warnings as they arrive, shows progress
  and handles signals; the ``outcome.MeasureOutcome`` it returns (failed figures, a crashed
  core, nothing measured) is read the same way by its command (``outcome.finish``) and by
  ``advise``;
- ``view(screen, run, results, warnings)``: draws a stored run (``show`` and the command);
- ``answer_lines(run, results)`` and ``answer(screen, run, results)``: its verdict, computed
  from the stored results, which the command and ``show`` print last (after the warnings) and
  the HTML report opens with.

Each scenario builds its plan from its options in its own ``make_plan``/``plan``, and its
package holds its command beside it: ``command.py`` exposing ``command`` (a ``click.Command``:
option parsing, then ``plan``, ``Recording`` and ``measure``), which the command line finds
through ``SCENARIOS``. The shared parts: ``recording`` (the stored run while it is measured),
``progress`` (bar or lines), ``rounds`` (randomized interleaved rounds for comparisons), and
``cipherbench.analysis.stats``, ``cipherbench.store``, ``cipherbench.run_warnings``. A new
scenario is its package here (scenario and command modules), its tests and one line in
``SCENARIOS``.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable, Protocol

from rich.console import Console

from cipherbench.analysis.estimate import Estimate
from cipherbench.scenarios.outcome import MeasureOutcome

#: Command of a stored run -> the module of its scenario.
SCENARIOS = {
    "run": "cipherbench.scenarios.primitive.scenario",
    "tls": "cipherbench.scenarios.tls.scenario",
    "ssh": "cipherbench.scenarios.ssh.scenario",
    "gpg": "cipherbench.scenarios.gpg.scenario",
    "luks": "cipherbench.scenarios.luks.scenario",
}



class Screen(Protocol):
    """Where a view draws: the console on stdout and the one on stderr."""

    @property
    def console(self) -> Console: ...

    @property
    def err_console(self) -> Console: ...


class ScenarioModule(Protocol):
    """What every module named in ``SCENARIOS`` provides (``tests/test_scenario_registry.py``
    checks each one against it, names and parameters)."""

    NAME: str
    UNIT: str

    def estimate_s(self, plan, /) -> "float | Estimate": ...

    def measure(self, plan, rec, /) -> MeasureOutcome: ...

    def view(self, screen: Screen, run, results, warnings, /) -> None: ...

    def answer_lines(self, run, results, /) -> list[str]: ...

    def answer(self, screen: Screen, run, results, /) -> None: ...


#: The arguments each function of a scenario module is called with, in order (positionally).
INTERFACE = {
    "estimate_s": ("p",),
    "measure": ("p", "rec"),
    "view": ("screen", "run", "results", "warnings"),
    # the verdict a command ends with (and ``show``, and the report's first section)
    "answer_lines": ("run", "results"),
    "answer": ("screen", "run", "results"),
}


def scenario(command: str) -> ModuleType | None:
    """The scenario module that makes runs of ``command`` (None if it has none)."""
    name = SCENARIOS.get(command)
    return importlib.import_module(name) if name else None


def command_of(command: str):
    """The ``click.Command`` of a scenario: ``command`` of the ``command`` module beside its
    scenario module."""
    package = SCENARIOS[command].rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.command").command


def view_of(command: str) -> Callable | None:
    """``view(screen, run, results, warnings)`` of the runs of ``command``, or None."""
    mod = scenario(command)
    return mod.view if mod is not None else None
