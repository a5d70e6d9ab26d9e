# SPDX-License-Identifier: GPL-3.0-or-later
"""The results store: SQLite by default, or a shared PostgreSQL database
(``--db postgresql://...``), written point by point so an interrupted run keeps what finished.

Public API (used by ``cipherbench run`` and by every scenario: ssh, gpg, tls):

    from cipherbench.store import Store, Result, db_location

    store = Store.open(path_or_url)          # creates or migrates; StoreError if unusable
    run_id = store.begin_run("run", args={...}, metadata={...})
    store.add_result(run_id, Result(scenario="primitive", lib="openssl", algo="aes-128-gcm",
                     op="encrypt", size=16384, metric="ns_per_op", unit="ns",
                     median=..., ci_low=..., ci_high=..., n_samples=..., cv=...,
                     extra={...}))           # committed at once
    store.add_warning(run_id, kind, subject, text)
    store.finish_run(run_id, "complete")     # or "interrupted" / "failed"
    store.runs() ; store.get_run(ref) ; store.results(run_id) ; store.warnings(run_id)
    store.figures(run_ids, metric)          # cells and medians of many runs, nothing else

A scenario names itself in ``Result.scenario`` ('primitive', 'ssh', 'gpg', 'tls'), puts what it
measured in ``metric``/``unit`` (e.g. 'bytes_per_s' / 'B/s', 'seconds' / 's') and anything
else (raw samples, CPU time of each end, the baseline it compares with) in ``extra``.

The queries are written once (``store.py``); ``sqlite.py`` and ``postgres.py`` are the two
backends (``backend.Backend``: placeholders, new rows' ids, transactions, the schema version
and the schema's type names). psycopg is imported only for a ``postgresql://`` URL.
"""
from cipherbench.store.models import CellFigure, Result, Run, StoredWarning, RUN_STATUSES
from cipherbench.store.paths import db_location, default_db_path
from cipherbench.store.schema import SCHEMA_VERSION
from cipherbench.store.store import Store
from cipherbench.store.store_errors import StoreError, NoSuchRun

__all__ = ["Store", "StoreError", "NoSuchRun", "CellFigure", "Result", "Run", "StoredWarning",
           "RUN_STATUSES", "SCHEMA_VERSION", "db_location", "default_db_path"]
