# SPDX-License-Identifier: GPL-3.0-or-later
"""The results store: every query once, over either backend (a SQLite file or a PostgreSQL
server, ``backend.Backend``). Every write is committed at once, so a crash loses nothing
finished."""
from __future__ import annotations

import datetime as _dt
import json
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from cipherbench import __version__
from cipherbench.store.backend import Backend, Cursor, one_line, statements
from cipherbench.store.models import RUN_STATUSES, CellFigure, Result, Run, StoredWarning
from cipherbench.store.postgres import is_postgres_url, open_postgres
from cipherbench.store.schema import MIGRATIONS, SCHEMA_VERSION
from cipherbench.store.sqlite import open_sqlite
from cipherbench.store.store_errors import NoSuchRun, StoreError

_RESULT_COLUMNS = ("scenario", "lib", "algo", "op", "size", "metric", "unit", "median",
                   "ci_low", "ci_high", "n_samples", "cv", "extra", "recorded_at")
_INSERT_RESULT = (f"INSERT INTO results (run_id, {', '.join(_RESULT_COLUMNS)}) VALUES "
                  f"(?, {', '.join('?' for _ in _RESULT_COLUMNS)})")


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def _result_row(run_id: int, r: Result, recorded_at: str) -> tuple:
    return (run_id, r.scenario, r.lib, r.algo, r.op, r.size, r.metric, r.unit, r.median,
            r.ci_low, r.ci_high, r.n_samples, r.cv, _json(r.extra), recorded_at)


class Store:
    """A results database. Open with ``Store.open(path or URL)``; usable as a context
    manager."""

    def __init__(self, db: Backend):
        self.db = db
        #: the driver's connection (sqlite3 or psycopg)
        self.conn = db.conn
        #: the local file, None for a database server
        self.path = db.path
        #: what it is called in messages (a URL without its password)
        self.name = db.name
        #: what another cipherbench process opens (``--db``)
        self.location = db.location
        #: one-line warnings about the database found on opening (the caller shows them)
        self.notes: list[str] = []

    @classmethod
    def open(cls, where: Path | str, *, create: bool = True, readonly: bool = False) -> "Store":
        """Open (and with ``create``, create) the database at ``where`` (a file, or a
        ``postgresql://`` URL) and migrate it to ``SCHEMA_VERSION``; with ``readonly``, open
        an existing one for reading only and change nothing. A database that is not
        cipherbench's is refused before anything is written to it. Raises ``StoreError``
        with the reason and the remedy."""
        notes: list[str] = []
        db: Backend
        if isinstance(where, str) and is_postgres_url(where):
            db = open_postgres(where)
        else:
            db, notes = open_sqlite(Path(where), create=create, readonly=readonly)
        store = cls(db)
        store.notes = notes
        try:
            db.prepare(create=create, readonly=readonly)
            if readonly:
                store._check_version()
            else:
                store._migrate()
        except db.errors as e:
            store.close()
            raise StoreError(f"cannot use the results database {store.name}: "
                             f"{one_line(e)}; {store._hint}") from None
        except BaseException:
            store.close()
            raise
        return store

    @property
    def _hint(self) -> str:
        return ("choose another file with --db PATH" if self.path is not None else
                "check the server, or choose another database with --db")

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    # -- schema ---------------------------------------------------------------------------
    def schema_version(self) -> int:
        """The schema version stored in the database."""
        return self.db.schema_version()

    def _newer(self, have: int) -> StoreError:
        return StoreError(f"the results database {self.name} has schema version {have}, "
                          f"newer than this cipherbench reads ({SCHEMA_VERSION}): upgrade "
                          "cipherbench or use another --db")

    def _check_version(self) -> None:
        have = self.schema_version()
        if have > SCHEMA_VERSION:
            raise self._newer(have)
        if have < SCHEMA_VERSION:
            raise StoreError(f"the results database {self.name} has schema version {have}, "
                             "older than this cipherbench reads: any measuring command "
                             "upgrades it")

    def _migrate(self) -> None:
        if self.schema_version() != SCHEMA_VERSION:
            with self._transaction():
                self.db.lock_schema()
                have = self.schema_version()    # another process may have just done it
                if have > SCHEMA_VERSION:
                    raise self._newer(have)
                for version in range(have + 1, SCHEMA_VERSION + 1):
                    for stmt in statements(MIGRATIONS[version], self.db.tokens):
                        self.db.execute(stmt)
                    self.db.set_schema_version(version)
        self.db.after_migrate()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """All or nothing: a write transaction, committed at the end, rolled back on any
        exception (an interruption too)."""
        self.db.begin()
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- writing --------------------------------------------------------------------------
    def _write_failed(self, e: Exception) -> StoreError:
        return StoreError(f"cannot write to the results database {self.name}: "
                          f"{one_line(e)}; {self._hint}")

    def _insert(self, sql: str, params: Sequence[Any]) -> int:
        try:
            return self.db.insert(sql, params)
        except self.db.errors as e:
            raise self._write_failed(e) from None

    def _write(self, sql: str, params: Sequence[Any]) -> None:
        try:
            self.db.execute(sql, params)
        except self.db.errors as e:
            raise self._write_failed(e) from None

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            cur: Cursor = self.db.execute(sql, params)
            return cur.fetchall()
        except self.db.errors as e:
            raise StoreError(f"cannot read the results database {self.name}: "
                             f"{one_line(e)}; {self._hint}") from None

    def begin_run(self, command: str, args: dict | None = None,
                  metadata: dict | None = None) -> int:
        """Record a new run with status ``running``; returns its id."""
        return self._insert(
            "INSERT INTO runs (command, started_at, status, args, metadata, cipherbench_version,"
            " uid) VALUES (?, ?, 'running', ?, ?, ?, ?)",
            (command, _now(), _json(args or {}), _json(metadata or {}), __version__,
             uuid.uuid4().hex))

    def run_with_uid(self, uid: str) -> int | None:
        """The id of the stored run with this unique id, if there is one."""
        rows = self._read("SELECT id FROM runs WHERE uid = ?", (uid,))
        return int(rows[0][0]) if rows else None

    def import_run(self, run: Run, results: Iterable[Result],
                   warnings: Iterable[StoredWarning]) -> int:
        """Store a run from elsewhere as it was (its uid, times, status, machine), all or
        nothing; returns its id here."""
        if run.status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {run.status!r}")
        try:
            with self._transaction():
                run_id = self.db.insert(
                    "INSERT INTO runs (command, started_at, finished_at, status, args, metadata,"
                    " cipherbench_version, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (run.command, run.started_at, run.finished_at, run.status, _json(run.args),
                     _json(run.metadata), run.cipherbench_version, run.uid))
                for r in results:
                    self.db.execute(_INSERT_RESULT, _result_row(
                        run_id, r, r.recorded_at or run.finished_at or run.started_at))
                for w in warnings:
                    self.db.execute("INSERT INTO warnings (run_id, kind, subject, text)"
                                    " VALUES (?, ?, ?, ?)", (run_id, w.kind, w.subject, w.text))
        except self.db.errors as e:
            raise self._write_failed(e) from None
        return run_id

    def update_metadata(self, run_id: int, updates: dict) -> None:
        """Merge ``updates`` into a run's metadata (e.g. library versions learnt later)."""
        meta = self.get_run(run_id).metadata
        meta.update(updates)
        self._write("UPDATE runs SET metadata = ? WHERE id = ?", (_json(meta), run_id))

    def add_result(self, run_id: int, r: Result) -> int:
        """Store one result and commit; returns its id."""
        return self._insert(_INSERT_RESULT, _result_row(run_id, r, _now()))

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

    # -- reading --------------------------------------------------------------------------
    _RUN_SELECT = ("SELECT r.id, r.command, r.started_at, r.finished_at, r.status, r.args,"
                   " r.metadata, r.cipherbench_version,"
                   " (SELECT COUNT(*) FROM results x WHERE x.run_id = r.id), r.uid FROM runs r")

    def runs(self, command: str | None = None) -> list[Run]:
        """Every run, oldest first (optionally of one command)."""
        sql, params = self._RUN_SELECT, ()  # type: tuple[str, tuple[Any, ...]]
        if command:
            sql, params = sql + " WHERE r.command = ?", (command,)
        return [_run(row) for row in self._read(sql + " ORDER BY r.id", params)]

    def get_run(self, ref: int | str) -> Run:
        """A run by id, or ``last`` / ``-1`` for the newest, ``-2`` the one before, ...
        Raises ``NoSuchRun``. Reads that one run (a shared database holds many)."""
        text = str(ref).strip()
        if text in ("last", "latest"):
            text = "-1"
        try:
            n = int(text)
        except ValueError:
            raise NoSuchRun(f"run {text!r} is not a run number: use a number from "
                            "`cipherbench history`, or `last`")
        if abs(n) > 2**62:                 # beyond any id (and any driver's integers)
            rows = []
        elif n < 0:
            rows = self._read(self._RUN_SELECT + " ORDER BY r.id DESC LIMIT 1 OFFSET ?",
                              (-n - 1,))
        else:
            rows = self._read(self._RUN_SELECT + " WHERE r.id = ?", (n,))
        if rows:
            return _run(rows[0])
        (first, last), = self._read("SELECT MIN(id), MAX(id) FROM runs")
        if first is None:
            raise NoSuchRun(f"no run {text} in {self.name}: there are no runs yet")
        raise NoSuchRun(f"no run {text} in {self.name}: runs are {first}..{last} "
                        "(see `cipherbench history`)")

    def results(self, run_id: int, scenario: str | None = None) -> list[Result]:
        """The results of a run, in the order they were stored."""
        sql = f"SELECT id, run_id, {', '.join(_RESULT_COLUMNS)} FROM results WHERE run_id = ?"
        params: tuple = (run_id,)
        if scenario:
            sql += " AND scenario = ?"
            params += (scenario,)
        out = []
        for row in self._read(sql + " ORDER BY id", params):
            d = dict(zip(("id", "run_id", *_RESULT_COLUMNS), row))
            d["extra"] = json.loads(d["extra"])
            out.append(Result(**d))
        return out

    def figures(self, run_ids: Sequence[int], metric: str) -> list[CellFigure]:
        """The cell and median of every result of ``metric`` in the runs ``run_ids``: what a
        look across many runs needs, without reading each result's samples."""
        out: list[CellFigure] = []
        ids = list(run_ids)
        for i in range(0, len(ids), 500):      # a bounded number of placeholders a query
            part = ids[i:i + 500]
            rows = self._read("SELECT run_id, lib, algo, op, size, median FROM results WHERE "
                              f"metric = ? AND run_id IN ({', '.join('?' for _ in part)})"
                              " ORDER BY id", (metric, *part))
            out += [CellFigure(*row) for row in rows]
        return out

    def warnings(self, run_id: int) -> list[StoredWarning]:
        """The warnings kept with a run."""
        rows = self._read("SELECT kind, subject, text, run_id FROM warnings"
                          " WHERE run_id = ? ORDER BY id", (run_id,))
        return [StoredWarning(*row) for row in rows]


def _run(row: tuple) -> Run:
    cols = ("id", "command", "started_at", "finished_at", "status", "args", "metadata",
            "cipherbench_version", "n", "uid")
    d = dict(zip(cols, row))
    return Run(id=d["id"], command=d["command"], started_at=d["started_at"],
               finished_at=d["finished_at"], status=d["status"], args=json.loads(d["args"]),
               metadata=json.loads(d["metadata"]),
               cipherbench_version=d["cipherbench_version"], n_results=int(d["n"]),
               uid=d["uid"] or "")

