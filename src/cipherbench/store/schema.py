# SPDX-License-Identifier: GPL-3.0-or-later
"""The database schema and its migrations.

The schema version is kept in ``PRAGMA user_version`` (SQLite) or the table
``cipherbench_schema`` (PostgreSQL). A database is brought up to date by applying, in order,
every migration above its version; a database from a newer cipherbench is refused rather than
misread. The migrations are written once for both: ``${name}`` stands for what the two
dialects spell differently (each backend's ``tokens``).

History:
- 1: runs, results (generic over scenarios: primitive, ssh, gpg, tls), warnings.
- 2: ``runs.uid``: a run's unique id, the same in every store it is imported into (``import``
  is idempotent by it); runs stored before get a random one.
"""

SCHEMA_VERSION = 2

MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE runs (
        id ${id},
        command TEXT NOT NULL,                 -- 'run', 'ssh', 'gpg', 'tls', ...
        started_at TEXT NOT NULL,              -- ISO 8601, UTC
        finished_at TEXT,
        status TEXT NOT NULL CHECK (status IN ('running','complete','interrupted','failed')),
        args TEXT NOT NULL DEFAULT '{}',       -- JSON: the selection asked for
        metadata TEXT NOT NULL DEFAULT '{}',   -- JSON: keys of cipherbench.metadata.KEYS
        cipherbench_version TEXT NOT NULL
    );
    CREATE TABLE results (
        id ${id},
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        scenario TEXT NOT NULL,                -- 'primitive', 'ssh', 'gpg', 'tls'
        lib TEXT NOT NULL,                     -- library or program ('openssl', 'openssh')
        algo TEXT NOT NULL,                    -- canonical algorithm (catalog) or suite
        op TEXT NOT NULL,                      -- 'encrypt', 'decrypt', 'hash', 'mac', ...
        size INTEGER,                          -- bytes; NULL for quantities over sizes
        metric TEXT NOT NULL,                  -- 'ns_per_op', 'slope_ns_per_byte', ...
        unit TEXT NOT NULL,
        median ${real} NOT NULL,
        ci_low ${real},
        ci_high ${real},
        n_samples INTEGER NOT NULL DEFAULT 0,
        cv ${real},
        extra TEXT NOT NULL DEFAULT '{}',      -- JSON
        recorded_at TEXT NOT NULL
    );
    CREATE INDEX results_by_run ON results(run_id, scenario, lib, algo, op);
    CREATE TABLE warnings (
        id ${id},
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL
    );
    """,
    2: """
    ALTER TABLE runs ADD COLUMN uid TEXT;
    UPDATE runs SET uid = ${random_hex} WHERE uid IS NULL;
    CREATE UNIQUE INDEX runs_by_uid ON runs(uid);
    """,
}
