"""JSON export: the run, its metadata, every result and warning. Schema: schema.json.

Schema versions (``schema_version``):
- 1: first version: run, results (with ``extra``, and ``grade``: the one a scenario stored, else the catalog's), warnings.
"""
from __future__ import annotations

import json
from dataclasses import asdict


from cipherbench.export.base import RunBundle, result_grade

SCHEMA_NAME = "cipherbench-export"
SCHEMA_VERSION = 1


def to_document(bundle: RunBundle) -> dict:
    """The export as a JSON-ready dict."""
    run = bundle.run
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "run": {
            "id": run.id, "command": run.command, "status": run.status,
            "started_at": run.started_at, "finished_at": run.finished_at,
            "cipherbench_version": run.cipherbench_version, "args": run.args,
            "metadata": run.metadata,
        },
        "results": [
            {"scenario": r.scenario, "lib": r.lib, "algo": r.algo, "op": r.op, "size": r.size,
             "metric": r.metric, "unit": r.unit, "median": r.median, "ci_low": r.ci_low,
             "ci_high": r.ci_high, "n_samples": r.n_samples, "cv": r.cv,
             "grade": result_grade(r), "extra": r.extra}
            for r in bundle.results],
        "warnings": [{k: v for k, v in asdict(w).items() if k != "run_id"}
                     for w in bundle.warnings],
    }


class JsonExporter:
    """``--format json``."""

    name = "json"
    extension = "json"

    def render(self, bundle: RunBundle, headline: int = 16384) -> str:
        """Pretty-printed, keys sorted, so exports diff well."""
        return json.dumps(to_document(bundle), indent=2, sort_keys=True) + "\n"
