# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench history --json``: the stored runs as a versioned document.
Schema: history.schema.json.

Schema versions (``schema_version``):
- 1: first version: ``runs`` (each: ``run`` id, ``command``, ``status``, ``started_at``,
  ``finished_at``, ``results``, ``cpu_model``, ``libraries``) and ``not_listed`` (the advise
  runs left out without ``--all``). Before it, ``history --json`` printed a bare list of the
  table's rows, every value a string.
"""
from __future__ import annotations

from typing import Sequence

from cipherbench.store import Run

SCHEMA_NAME = "cipherbench-history"
SCHEMA_VERSION = 1
#: The library of the reference rows, not a crypto library: not listed.
REF_LIB = "ref"


def to_document(runs: Sequence[Run], not_listed: int = 0) -> dict:
    """The listed runs, oldest first, as a JSON-ready dict."""
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "runs": [{
            "run": r.id, "command": r.command, "status": r.status,
            "started_at": r.started_at, "finished_at": r.finished_at,
            "results": r.n_results, "cpu_model": r.metadata.get("cpu_model"),
            "libraries": sorted(l for l in (r.metadata.get("libraries") or {}) if l != REF_LIB),
        } for r in runs],
        "not_listed": not_listed,
    }
