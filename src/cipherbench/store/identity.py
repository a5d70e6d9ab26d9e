# SPDX-License-Identifier: GPL-3.0-or-later
"""Is this SQLite file a cipherbench results database? Asked before anything is written to
it, so ``--db`` pointed at another program's database never gets our tables or pragmas."""
from __future__ import annotations

import sqlite3
from enum import Enum

#: ``PRAGMA application_id`` of every database cipherbench creates ("CBrs").
APPLICATION_ID = 0x43427273
#: The tables of schema 1; databases made before the application id was set are known by them.
TABLES = frozenset({"runs", "results", "warnings"})


class Kind(Enum):
    EMPTY = "empty"        # no tables yet: may become a results database
    OURS = "ours"
    FOREIGN = "foreign"    # another program's database


def classify(conn: sqlite3.Connection) -> tuple[Kind, str]:
    """The kind of database behind ``conn`` and, for a foreign one, why (one phrase). Raises
    ``sqlite3.DatabaseError`` when the file is not SQLite at all. Reads only."""
    app_id, version, tables = _read_identity(conn)
    if app_id == APPLICATION_ID:
        return Kind.OURS, ""
    if app_id != 0:
        return Kind.FOREIGN, f"its application id is {app_id:#010x}"
    if not tables and version == 0:
        return Kind.EMPTY, ""
    if version >= 1 and tables == TABLES:
        return Kind.OURS, ""
    shown = ", ".join(sorted(tables)[:5]) or "none"
    return Kind.FOREIGN, f"its tables are {shown}" + (f" (user_version {version})"
                                                       if version else "")


def _read_identity(conn: sqlite3.Connection) -> tuple[int, int, set[str]]:
    """The application id, user version and table names, read in one snapshot: another
    process creating the schema may commit between two of the reads, and tables seen
    without their version would look like another program's."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
            " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
    finally:
        if own and conn.in_transaction:
            conn.execute("ROLLBACK")
    return app_id, version, tables
