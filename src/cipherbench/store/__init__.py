# SPDX-License-Identifier: GPL-3.0-or-later
"""The results store: SQLite, written point by point so an interrupted run keeps what finished.

Public API (used by ``cipherbench run`` and by every scenario: ssh, gpg, tls):

    from cipherbench.store import Store, Result, default_db_path

    store = Store.open(path)                 # creates or migrates; StoreError if unusable
    run_id = store.begin_run("run", args={...}, metadata={...})
    store.add_result(run_id, Result(scenario="primitive", lib="openssl", algo="aes-128-gcm",
                     op="encrypt", size=16384, metric="ns_per_op", unit="ns",
                     median=..., ci_low=..., ci_high=..., n_samples=..., cv=...,
                     extra={...}))           # committed at once
    store.add_warning(run_id, kind, subject, text)
    store.finish_run(run_id, "complete")     # or "interrupted" / "failed"
    store.runs() ; store.get_run(ref) ; store.results(run_id) ; store.warnings(run_id)

A scenario names itself in ``Result.scenario`` ('primitive', 'ssh', 'gpg', 'tls'), puts what it
measured in ``metric``/``unit`` (e.g. 'bytes_per_s' / 'B/s', 'seconds' / 's') and anything
else (raw samples, CPU time of each end, the baseline it compares with) in ``extra``.
"""
from cipherbench.store.models import Result, Run, StoredWarning, RUN_STATUSES
from cipherbench.store.paths import default_db_path
from cipherbench.store.schema import SCHEMA_VERSION
from cipherbench.store.sqlite import Store, StoreError, NoSuchRun

__all__ = ["Store", "StoreError", "NoSuchRun", "Result", "Run", "StoredWarning",
           "RUN_STATUSES", "SCHEMA_VERSION", "default_db_path"]
