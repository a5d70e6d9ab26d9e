# SPDX-License-Identifier: GPL-3.0-or-later
"""The one interface every exporter implements, and what it is given."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from cipherbench.store import Result, Run, Store, StoredWarning


@dataclass
class RunBundle:
    """A run with everything stored about it: what exporters render."""

    run: Run
    results: list[Result]
    warnings: list[StoredWarning] = field(default_factory=list)

    @classmethod
    def load(cls, store: Store, ref: int | str) -> "RunBundle":
        """Read run ``ref`` (an id or ``last``) from the store."""
        run = store.get_run(ref)
        return cls(run, store.results(run.id), store.warnings(run.id))


class Exporter(Protocol):
    """Turns a run into text of one format."""

    name: str          # the --format value
    extension: str     # file name extension, without the dot

    def render(self, bundle: RunBundle, headline: int = 16384) -> str:
        """The whole document, ending in a newline."""
        ...


def result_grade(r: Result) -> str:
    """The security grade of one result: the grade a scenario stored with it (an SSH
    cipher+MAC pair or a TLS suite is graded as a whole), else the catalog's for its algo."""
    from cipherbench import catalog
    return r.extra.get("grade") or catalog.grade_of(r.algo)
