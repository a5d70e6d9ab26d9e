# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs brought from elsewhere (``cipherbench import FILE...``): the export documents of
``export --format json`` and ``run --json`` (one run each) and the fleet documents of
``run --host h1,h2 --json`` (a run per host), read, checked and stored as they were.

A run is recognised by its unique id (``uid``, export schema 7), so importing the same file
twice, or a run that came from this store, stores nothing new. A document from before schema
6 has no uid: its id is derived from its content (the same document gives the same id). Each
run keeps its machine: its metadata is stored unchanged, with ``imported_from`` added.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from cipherbench.errors import UsageError
from cipherbench.export.json_export import SCHEMA_NAME, SCHEMA_VERSION
from cipherbench.store import Result, Run, Store
from cipherbench.store.models import RUN_STATUSES, StoredWarning

FLEET_SCHEMA = "cipherbench-fleet"


@dataclass
class ImportedRun:
    """One run read from a file, ready to store."""

    source: str            # the file, and the run's id there
    run: Run
    results: list[Result]
    warnings: list[StoredWarning]


@dataclass
class ImportOutcome:
    item: ImportedRun
    run_id: int            # its id in this store
    new: bool              # False: it was stored already


def _bad(path: str, why: str) -> UsageError:
    return UsageError(f"{path}: {why}")


def _documents(path: str, doc: object) -> list[dict]:
    if not isinstance(doc, dict):
        raise _bad(path, "not a cipherbench export (a JSON object was expected)")
    schema = doc.get("schema")
    if schema == FLEET_SCHEMA:
        return [run for h in doc.get("hosts") or [] for run in h.get("runs") or []]
    if schema != SCHEMA_NAME:
        raise _bad(path, f"not a cipherbench run export (schema {schema!r}): export one with "
                         "`cipherbench export RUN --format json`")
    version = doc.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise _bad(path, f"export schema version {version!r} is newer than this cipherbench "
                         f"reads ({SCHEMA_VERSION}): upgrade cipherbench")
    return [doc]


def derived_uid(doc: dict) -> str:
    """A stable id for a run exported before runs had one: a digest of what it is."""
    run = doc["run"]
    key = {k: run.get(k) for k in ("command", "started_at", "finished_at", "args", "metadata")}
    key["results"] = [(r.get("lib"), r.get("algo"), r.get("op"), r.get("size"),
                       r.get("metric"), r.get("median")) for r in doc.get("results", [])]
    text = json.dumps(key, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def _run(path: str, doc: dict) -> ImportedRun:
    try:
        r = doc["run"]
        status = r["status"]
        if status not in RUN_STATUSES:
            raise _bad(path, f"run {r.get('id')}: unknown status {status!r}")
        meta = dict(r.get("metadata") or {})
        meta["imported_from"] = Path(path).name
        run = Run(id=0, command=str(r["command"]), started_at=str(r["started_at"]),
                  # a run still going where it was exported is stored as stopped there
                  finished_at=r.get("finished_at") or (None if status != "running"
                                                        else r["started_at"]),
                  status="interrupted" if status == "running" else status,
                  args=dict(r.get("args") or {}), metadata=meta,
                  cipherbench_version=str(r.get("cipherbench_version") or "?"),
                  uid=str(r.get("uid") or derived_uid(doc)))
        results = [Result(scenario=x["scenario"], lib=x["lib"], algo=x["algo"], op=x["op"],
                          size=x.get("size"), metric=x["metric"], unit=x["unit"],
                          median=float(x["median"]), ci_low=x.get("ci_low"),
                          ci_high=x.get("ci_high"), n_samples=int(x.get("n_samples") or 0),
                          cv=x.get("cv"), extra=dict(x.get("extra") or {}))
                   for x in doc.get("results", [])]
        warnings = [StoredWarning(w["kind"], w.get("subject", ""), w["text"])
                    for w in doc.get("warnings", [])]
    except (KeyError, TypeError, ValueError) as e:
        raise _bad(path, f"a run in it lacks a field or has a wrong one ({e!s}): it is not an "
                         "export of cipherbench") from None
    return ImportedRun(f"{path} (run {r.get('id')})", run, results, warnings)


def _json_documents(path: str, text: str) -> list[object]:
    """The JSON values of a file, one after another (``run --hw-both --json`` prints two)."""
    decoder, i = json.JSONDecoder(), 0
    out: list[object] = []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        try:
            doc, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise _bad(path, f"not JSON ({e.msg} at line {e.lineno}): give the file of "
                             "`cipherbench export RUN --format json`") from None
        out.append(doc)


def read(path: str) -> list[ImportedRun]:
    """The runs of one file; UsageError (one line) for a file that is not an export."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise _bad(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise _bad(path, f"cannot read it: {e}") from None
    runs = [_run(path, d) for doc in _json_documents(path, text)
            for d in _documents(path, doc)]
    if not runs:
        raise _bad(path, "holds no run")
    return runs


def store_runs(store: Store, items: list[ImportedRun]) -> list[ImportOutcome]:
    """Store the runs not stored yet (by uid); each run all or nothing."""
    out = []
    for item in items:
        have = store.run_with_uid(item.run.uid)
        if have is not None:
            out.append(ImportOutcome(item, have, False))
            continue
        out.append(ImportOutcome(item, store.import_run(item.run, item.results, item.warnings),
                                 True))
    return out
