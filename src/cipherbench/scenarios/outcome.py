# SPDX-License-Identifier: GPL-3.0-or-later
"""What every scenario's ``measure`` returns: one typed record, read the same way by each
command (its last error line and its exit status) and by ``advise`` (a measurement that did
not give what was asked). The stored run's status is the ``Recording``'s, which the scenario
sets; this record says why the run falls short, when it does."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cipherbench.clikit.context import AppContext
    from cipherbench.scenarios.recording import Recording


@dataclass(frozen=True)
class MeasureOutcome:
    """How a scenario's measuring ended (the figures themselves are in the store)."""

    #: Figures that failed with an error, a refusal aside (each said as it happened, and
    #: stored as an ``error`` row or a warning); the exit status is 1.
    failed: int = 0
    #: A core process died: the run is marked interrupted and keeps what finished.
    crashed: bool = False
    #: Why nothing was measured, when that is so (the run is marked failed).
    nothing_measured: str | None = None

    def problem(self, run_id: int) -> str | None:
        """The error line a command ends with, None when there is none to add (failed
        figures were said as they happened)."""
        if self.crashed:
            return (f"a library's core process crashed: run {run_id} is marked interrupted "
                    "and keeps what finished")
        if self.nothing_measured:
            return f"nothing was measured: run {run_id} is marked failed: {self.nothing_measured}"
        return None

    def exit_status(self, status: str) -> int:
        """0 for a ``complete`` run in which nothing failed, else 1."""
        ok = status == "complete" and not (self.failed or self.crashed or self.nothing_measured)
        return 0 if ok else 1


def finish(app: "AppContext", rec: "Recording", outcome: MeasureOutcome) -> int:
    """A measuring command's end, the same for every scenario: the outcome's error line, if
    any, and the exit status."""
    line = outcome.problem(rec.run_id)
    if line:
        app.error(line)
    return outcome.exit_status(rec.status)
