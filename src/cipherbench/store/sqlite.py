# SPDX-License-Identifier: GPL-3.0-or-later
"""The SQLite backend: a private file, every write committed at once (WAL), so a crash loses
nothing finished. The file is checked before anything is written to it."""
from __future__ import annotations

import os
import sqlite3
import stat
import time
import urllib.parse
from pathlib import Path
from typing import Any, Mapping, Sequence

from cipherbench.store.identity import APPLICATION_ID, Kind, classify
from cipherbench.store.store_errors import StoreError

HINT = "choose another file with --db PATH"

#: the schema's words in SQLite (``schema.MIGRATIONS``)
TOKENS = {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "real": "REAL",
          "random_hex": "lower(hex(randomblob(16)))"}


class SqliteBackend:
    """A results database in a SQLite file (``backend.Backend``)."""

    errors: tuple[type[Exception], ...] = (sqlite3.DatabaseError,)
    tokens: Mapping[str, str] = TOKENS

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn = conn
        self.path: Path | None = path
        self.name = str(path)
        self.location = str(path)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, tuple(params))

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        cur = self.conn.execute(sql, tuple(params))
        if cur.lastrowid is None:
            raise StoreError("the results database gave no id to a new row")
        return cur.lastrowid

    def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")   # the write lock now, not at the first write

    def prepare(self, *, create: bool, readonly: bool) -> None:
        pass                       # the file was checked before it was opened (open_sqlite)

    def lock_schema(self) -> None:
        pass                                    # BEGIN IMMEDIATE holds the file's write lock

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def set_schema_version(self, version: int) -> None:
        self.conn.execute(f"PRAGMA user_version = {int(version)}")

    def after_migrate(self) -> None:
        if int(self.conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def close(self) -> None:
        self.conn.close()


def _stat(path: Path) -> os.stat_result | None:
    """``path``'s status (following links), None when there is nothing there."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise StoreError(f"cannot use {path} as the results database: {e.strerror}; {HINT}")


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "a special file"


def readable_by_others(path: Path, mode: int) -> str:
    """The warning for a database other users may read (every run, host names included)."""
    return (f"the results database {path} can be read by other users (mode "
            f"{stat.S_IMODE(mode):04o}): `chmod 600 {path}` keeps its runs and host names "
            "private")


def _create_private(path: Path) -> None:
    """A new database file of mode 0600, and any directory made for it 0700 (SQLite's journal
    files take the database's mode). An existing directory is left as it is."""
    try:
        missing = [d for d in [path.parent, *path.parent.parents] if not d.exists()]
        for d in reversed(missing):
            d.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
    except FileExistsError:
        pass   # made meanwhile by another run: opened as found
    except OSError as e:
        raise StoreError(f"cannot create the results database {path}: {e.strerror}; {HINT}")


def open_sqlite(path: Path, *, create: bool, readonly: bool) -> tuple[SqliteBackend, list[str]]:
    """The file at ``path`` (made with ``create``; for reading only with ``readonly``, even on
    a read-only file system) and the warnings about it. Another program's database, or a
    file that is not SQLite, is refused before anything is written to it."""
    st = _stat(path)
    if (readonly or not create) and st is None:
        raise StoreError(f"no results database at {path} yet: run `cipherbench run` first, "
                         "or name one with --db PATH")
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a FIFO or a device would block SQLite's open (signals unanswered) or be written
        raise StoreError(f"cannot use {path} as the results database: it is "
                         f"{_file_kind(st.st_mode)}, not a regular file; " + HINT)
    notes = [readable_by_others(path, st.st_mode)] if st and st.st_mode & 0o044 else []
    if readonly:
        return _open_readonly(path), notes
    if st is None:
        _create_private(path)
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=10)
        _check_ours(conn, path)
        conn.execute("PRAGMA foreign_keys = ON")
        _use_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.DatabaseError as e:
        raise StoreError(f"cannot use the results database {path}: {e}; {HINT}")
    return SqliteBackend(conn, path), notes


def _use_wal(conn: sqlite3.Connection, wait_s: float = 10.0) -> None:
    """WAL, without an fsync per commit (``synchronous = NORMAL``): every result survives a
    crash of the process (not of the machine) at a fraction of the cost of a full sync per
    point. The switch needs the file to itself and SQLite does not wait for that: two
    processes opening a new file at once would see "database is locked", so it is retried."""
    deadline = time.monotonic() + wait_s
    while str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _open_readonly(path: Path) -> SqliteBackend:
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        try:
            kind = _check_ours(conn, path)
        except sqlite3.OperationalError as e:
            conn.close()
            # A WAL database whose directory cannot be written (a read-only file system)
            # cannot get the shared-memory file a reader needs: read it as immutable.
            if "unable to open" not in str(e) and "read-only" not in str(e):
                raise
            conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
            kind = _check_ours(conn, path)
    except sqlite3.DatabaseError as e:
        raise StoreError(f"cannot read the results database {path}: {e}; {HINT}")
    if kind is Kind.EMPTY:
        conn.close()
        raise StoreError(f"no results database at {path} yet (the file is empty): "
                         "run `cipherbench run` first, or name one with --db PATH")
    return SqliteBackend(conn, path)


def _check_ours(conn: sqlite3.Connection, path: Path) -> Kind:
    """Refuse another program's database (and a file that is not SQLite) in one line."""
    try:
        kind, why = classify(conn)
    except sqlite3.DatabaseError as e:
        conn.close()
        if "not a database" in str(e):
            raise StoreError(f"cannot use {path} as the results database: it is not a "
                             f"SQLite file; {HINT}") from None
        raise
    if kind is Kind.FOREIGN:
        conn.close()
        raise StoreError(f"cannot use {path} as the results database: it is another "
                         f"program's SQLite database ({why}), left untouched; {HINT}")
    return kind
