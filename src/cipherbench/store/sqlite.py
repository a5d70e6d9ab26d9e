# SPDX-License-Identifier: GPL-3.0-or-later
"""The SQLite store: every write is committed at once, so a crash loses nothing finished."""
from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
import stat
import urllib.parse
import uuid
from pathlib import Path
from typing import Any, Iterable

from cipherbench import __version__
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.store.identity import APPLICATION_ID, Kind, classify
from cipherbench.store.models import RUN_STATUSES, Result, Run, StoredWarning
from cipherbench.store.schema import MIGRATIONS, SCHEMA_VERSION


class StoreError(EnvironmentProblem):
    """The database cannot be created, opened, written or read."""


class NoSuchRun(UsageError):
    """A run reference that matches no stored run."""


def _row_id(cur: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just made (sqlite always gives one)."""
    if cur.lastrowid is None:
        raise StoreError("the results database gave no id to a new row")
    return cur.lastrowid


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (no ';' inside the schema's comments)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def _stat(path: Path, hint: str) -> os.stat_result | None:
    """``path``'s status (following links), None when there is nothing there."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise StoreError(f"cannot use {path} as the results database: {e.strerror}; {hint}")


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


def _create_private(path: Path, hint: str) -> None:
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
        raise StoreError(f"cannot create the results database {path}: {e.strerror}; {hint}")


class Store:
    """A results database. Open with ``Store.open(path)``; usable as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn = conn
        self.path = path
        #: one-line warnings about the file found on opening (the caller shows them)
        self.notes: list[str] = []

    @classmethod
    def open(cls, path: Path | str, *, create: bool = True, readonly: bool = False) -> "Store":
        """Open (and with ``create``, create) the database at ``path`` and migrate it to
        ``SCHEMA_VERSION``; with ``readonly``, open an existing one for reading only (it may
        sit on a read-only file system) and change nothing. A file that is not a cipherbench
        database is refused before anything is written to it. Raises ``StoreError`` with
        the reason and the remedy."""
        path = Path(path)
        hint = "choose another file with --db PATH"
        st = _stat(path, hint)
        if (readonly or not create) and st is None:
            raise StoreError(f"no results database at {path} yet: run `cipherbench run` first, "
                             "or name one with --db PATH")
        if st is not None and not stat.S_ISREG(st.st_mode):
            # a FIFO or a device would block SQLite's open (signals unanswered) or be written
            raise StoreError(f"cannot use {path} as the results database: it is "
                             f"{_file_kind(st.st_mode)}, not a regular file; " + hint)
        notes = [readable_by_others(path, st.st_mode)] if st and st.st_mode & 0o044 else []
        if readonly:
            store = cls._open_readonly(path, hint)
            store.notes = notes
            return store
        if st is None:
            _create_private(path, hint)
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=10)
            cls._check_ours(conn, path, hint)
            conn.execute("PRAGMA foreign_keys = ON")
            # WAL without an fsync per commit: every result survives a crash of the process
            # (not of the machine) at a fraction of the cost of a full sync per point.
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            store = cls(conn, path)
            store._migrate()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot use the results database {path}: {e}; {hint}")
        store.notes = notes
        return store

    @classmethod
    def _open_readonly(cls, path: Path, hint: str) -> "Store":
        uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
            try:
                kind = cls._check_ours(conn, path, hint)
            except sqlite3.OperationalError as e:
                conn.close()
                # A WAL database whose directory cannot be written (a read-only file system)
                # cannot get the shared-memory file a reader needs: read it as immutable.
                if "unable to open" not in str(e) and "read-only" not in str(e):
                    raise
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
                kind = cls._check_ours(conn, path, hint)
            if kind is Kind.EMPTY:
                conn.close()
                raise StoreError(f"no results database at {path} yet (the file is empty): "
                                 "run `cipherbench run` first, or name one with --db PATH")
            store = cls(conn, path)
            have = store.schema_version()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot read the results database {path}: {e}; {hint}")
        if have != SCHEMA_VERSION:
            store.close()
            newer = have > SCHEMA_VERSION
            raise StoreError(f"the results database {path} has schema version {have}, "
                             + (f"newer than this cipherbench reads ({SCHEMA_VERSION}): upgrade "
                                "cipherbench or use another --db" if newer else
                                "older than this cipherbench reads: any measuring command "
                                "upgrades it"))
        return store

    @staticmethod
    def _check_ours(conn: sqlite3.Connection, path: Path, hint: str) -> Kind:
        """Refuse another program's database (and a file that is not SQLite) in one line."""
        try:
            kind, why = classify(conn)
        except sqlite3.DatabaseError as e:
            conn.close()
            if "not a database" in str(e):
                raise StoreError(f"cannot use {path} as the results database: it is not a "
                                 f"SQLite file; {hint}") from None
            raise
        if kind is Kind.FOREIGN:
            conn.close()
            raise StoreError(f"cannot use {path} as the results database: it is another "
                             f"program's SQLite database ({why}), left untouched; {hint}")
        return kind

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    # -- schema ---------------------------------------------------------------------------
    def schema_version(self) -> int:
        """The schema version stored in the file."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        have = self.schema_version()
        if have > SCHEMA_VERSION:
            raise StoreError(f"the results database {self.path} has schema version {have}, "
                             f"newer than this cipherbench reads ({SCHEMA_VERSION}): upgrade "
                             "cipherbench or use another --db")
        for version in range(have + 1, SCHEMA_VERSION + 1):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _statements(MIGRATIONS[version]):
                    self.conn.execute(stmt)
                self.conn.execute(f"PRAGMA user_version = {version}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
        if int(self.conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    # -- writing --------------------------------------------------------------------------
    def begin_run(self, command: str, args: dict | None = None,
                  metadata: dict | None = None) -> int:
        """Record a new run with status ``running``; returns its id."""
        cur = self._write(
            "INSERT INTO runs (command, started_at, status, args, metadata, cipherbench_version,"
            " uid) VALUES (?, ?, 'running', ?, ?, ?, ?)",
            (command, _now(), _json(args or {}), _json(metadata or {}), __version__,
             uuid.uuid4().hex))
        return _row_id(cur)

    def run_with_uid(self, uid: str) -> int | None:
        """The id of the stored run with this unique id, if there is one."""
        row = self.conn.execute("SELECT id FROM runs WHERE uid = ?", (uid,)).fetchone()
        return int(row[0]) if row else None

    def import_run(self, run: Run, results: Iterable[Result],
                   warnings: Iterable[StoredWarning]) -> int:
        """Store a run from elsewhere as it was (its uid, times, status, machine), all or
        nothing; returns its id here."""
        if run.status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {run.status!r}")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                cur = self.conn.execute(
                    "INSERT INTO runs (command, started_at, finished_at, status, args, metadata,"
                    " cipherbench_version, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (run.command, run.started_at, run.finished_at, run.status, _json(run.args),
                     _json(run.metadata), run.cipherbench_version, run.uid))
                run_id = _row_id(cur)
                for r in results:
                    self.conn.execute(
                        "INSERT INTO results (run_id, scenario, lib, algo, op, size, metric,"
                        " unit, median, ci_low, ci_high, n_samples, cv, extra, recorded_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (run_id, r.scenario, r.lib, r.algo, r.op, r.size, r.metric, r.unit,
                         r.median, r.ci_low, r.ci_high, r.n_samples, r.cv, _json(r.extra),
                         r.recorded_at or run.finished_at or run.started_at))
                for w in warnings:
                    self.conn.execute("INSERT INTO warnings (run_id, kind, subject, text)"
                                      " VALUES (?, ?, ?, ?)", (run_id, w.kind, w.subject, w.text))
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot write to the results database {self.path}: {e}; "
                             "choose another file with --db PATH")
        return run_id

    def update_metadata(self, run_id: int, updates: dict) -> None:
        """Merge ``updates`` into a run's metadata (e.g. library versions learnt later)."""
        meta = self.get_run(run_id).metadata
        meta.update(updates)
        self._write("UPDATE runs SET metadata = ? WHERE id = ?", (_json(meta), run_id))

    def add_result(self, run_id: int, r: Result) -> int:
        """Store one result and commit; returns its id."""
        cur = self._write(
            "INSERT INTO results (run_id, scenario, lib, algo, op, size, metric, unit, median,"
            " ci_low, ci_high, n_samples, cv, extra, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, r.scenario, r.lib, r.algo, r.op, r.size, r.metric, r.unit, r.median,
             r.ci_low, r.ci_high, r.n_samples, r.cv, _json(r.extra), _now()))
        return _row_id(cur)

    def add_warning(self, run_id: int, kind: str, subject: str, text: str) -> None:
        """Keep a warning with the run."""
        self._write("INSERT INTO warnings (run_id, kind, subject, text) VALUES (?, ?, ?, ?)",
                    (run_id, kind, subject, text))

    def finish_run(self, run_id: int, status: str) -> None:
        """Close a run: ``complete``, ``interrupted`` or ``failed``."""
        if status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {status!r}")
        self._write("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
                    (status, _now(), run_id))

    def _write(self, sql: str, params: Iterable[Any]) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, tuple(params))
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot write to the results database {self.path}: {e}; "
                             "choose another file with --db PATH")

    # -- reading --------------------------------------------------------------------------
    def runs(self, command: str | None = None) -> list[Run]:
        """Every run, oldest first (optionally of one command)."""
        sql = ("SELECT r.id, r.command, r.started_at, r.finished_at, r.status, r.args,"
               " r.metadata, r.cipherbench_version,"
               " (SELECT COUNT(*) FROM results x WHERE x.run_id = r.id), r.uid FROM runs r")
        params: tuple = ()
        if command:
            sql += " WHERE r.command = ?"
            params = (command,)
        rows = self.conn.execute(sql + " ORDER BY r.id", params).fetchall()
        return [self._run(row) for row in rows]

    def get_run(self, ref: int | str) -> Run:
        """A run by id, or ``last`` / ``-1`` for the newest, ``-2`` the one before, ...
        Raises ``NoSuchRun``."""
        runs = self.runs()
        text = str(ref).strip()
        if text in ("last", "latest"):
            text = "-1"
        try:
            n = int(text)
        except ValueError:
            raise NoSuchRun(f"run {text!r} is not a run number: use a number from "
                            "`cipherbench history`, or `last`")
        if n < 0:
            if -n <= len(runs):
                return runs[n]
        else:
            for r in runs:
                if r.id == n:
                    return r
        if not runs:
            raise NoSuchRun(f"no run {text} in {self.path}: there are no runs yet")
        raise NoSuchRun(f"no run {text} in {self.path}: runs are {runs[0].id}..{runs[-1].id} "
                        "(see `cipherbench history`)")

    def results(self, run_id: int, scenario: str | None = None) -> list[Result]:
        """The results of a run, in the order they were stored."""
        sql = "SELECT * FROM results WHERE run_id = ?"
        params: tuple = (run_id,)
        if scenario:
            sql += " AND scenario = ?"
            params += (scenario,)
        rows = self.conn.execute(sql + " ORDER BY id", params).fetchall()
        cols = [d[0] for d in self.conn.execute(sql + " LIMIT 0", params).description]
        out = []
        for row in rows:
            d = dict(zip(cols, row))
            out.append(Result(
                scenario=d["scenario"], lib=d["lib"], algo=d["algo"], op=d["op"],
                size=d["size"], metric=d["metric"], unit=d["unit"], median=d["median"],
                ci_low=d["ci_low"], ci_high=d["ci_high"], n_samples=d["n_samples"],
                cv=d["cv"], extra=json.loads(d["extra"]), id=d["id"], run_id=d["run_id"],
                recorded_at=d["recorded_at"]))
        return out

    def warnings(self, run_id: int) -> list[StoredWarning]:
        """The warnings kept with a run."""
        rows = self.conn.execute("SELECT kind, subject, text, run_id FROM warnings"
                                 " WHERE run_id = ? ORDER BY id", (run_id,)).fetchall()
        return [StoredWarning(*row) for row in rows]

    def _run(self, row: tuple) -> Run:
        cols = ("id", "command", "started_at", "finished_at", "status", "args", "metadata",
                "cipherbench_version", "n", "uid")
        d = dict(zip(cols, row))
        return Run(id=d["id"], command=d["command"], started_at=d["started_at"],
                   finished_at=d["finished_at"], status=d["status"], args=json.loads(d["args"]),
                   metadata=json.loads(d["metadata"]),
                   cipherbench_version=d["cipherbench_version"], n_results=d["n"],
                   uid=d["uid"] or "")
