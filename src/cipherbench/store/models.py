# SPDX-License-Identifier: GPL-3.0-or-later
"""Plain records the store reads and writes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: running: being written (or the process died without a word); complete: all planned work
#: done; interrupted: stopped early (Ctrl-C, a crashed core) with what finished kept;
#: failed: nothing usable.
RUN_STATUSES = ("running", "complete", "interrupted", "failed")


@dataclass
class Result:
    """One measured quantity: a median with its 95% confidence interval.

    ``size`` is the message size in bytes (None for a quantity over sizes, like a fit's slope).
    ``extra`` is free JSON: raw samples, fit details, anything a scenario wants to keep."""

    scenario: str
    lib: str
    algo: str
    op: str
    size: int | None
    metric: str
    unit: str
    median: float
    ci_low: float | None = None
    ci_high: float | None = None
    n_samples: int = 0
    cv: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    run_id: int | None = None
    recorded_at: str | None = None


@dataclass(frozen=True)
class CellFigure:
    """One result's cell and median, without the rest (``Store.figures``)."""

    run_id: int
    lib: str
    algo: str
    op: str
    size: int | None
    median: float


@dataclass
class Run:
    """One invocation of a measuring command, with its machine's metadata."""

    id: int
    command: str
    started_at: str
    finished_at: str | None
    status: str
    args: dict[str, Any]
    metadata: dict[str, Any]
    cipherbench_version: str
    n_results: int = 0
    uid: str = ""            # unique across stores: what ``import`` recognises a run by


@dataclass
class StoredWarning:
    """A typed warning kept with a run (see ``cipherbench.run_warnings``)."""

    kind: str
    subject: str
    text: str
    run_id: int | None = None
