# SPDX-License-Identifier: GPL-3.0-or-later
"""What the store needs from a database: the few things SQLite and PostgreSQL do
differently. Every query is written once (in ``store.py``, with ``?`` placeholders); a backend
runs it, gives a new row's id, starts a write transaction, keeps the schema version and fills
the schema's type names."""
from __future__ import annotations

from pathlib import Path
from string import Template
from typing import Any, Mapping, Protocol, Sequence


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Backend(Protocol):
    #: shown to people: the file, or the URL without its password
    name: str
    #: what another cipherbench process opens (``--db`` / ``$CIPHERBENCH_DB``)
    location: str
    #: the local file, None for a database server
    path: Path | None
    #: the driver's connection (sqlite3 or psycopg)
    conn: Any
    #: the driver's error classes: any of them becomes a ``StoreError``
    errors: tuple[type[Exception], ...]
    #: the schema's type names and expressions in this dialect (``schema.MIGRATIONS``)
    tokens: Mapping[str, str]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run one statement (``?`` placeholders); committed at once outside a transaction."""
        ...

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run one INSERT; the new row's id."""
        ...

    def prepare(self, *, create: bool, readonly: bool) -> None:
        """After connecting: refuse what is not (or, without ``create``, not yet) a results
        database; with ``readonly``, make sure nothing is written."""
        ...

    def begin(self) -> None:
        """Start a write transaction (ended by COMMIT or ROLLBACK)."""
        ...

    def lock_schema(self) -> None:
        """Inside a transaction: wait until no other process changes the schema."""
        ...

    def schema_version(self) -> int:
        ...

    def set_schema_version(self, version: int) -> None:
        """Inside the migration's transaction."""
        ...

    def after_migrate(self) -> None:
        """Mark the database as cipherbench's (once it is up to date)."""
        ...

    def close(self) -> None:
        ...


def statements(script: str, tokens: Mapping[str, str]) -> list[str]:
    """A migration script in one dialect, split into statements (no ';' inside the schema's
    comments)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    text = Template("\n".join(lines)).substitute(tokens)
    return [s.strip() for s in text.split(";") if s.strip()]


def one_line(message: object) -> str:
    """A driver's message as one line (libpq's run over several)."""
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())
