# SPDX-License-Identifier: GPL-3.0-or-later
"""What every command gets: the environment, the output streams and shared option helpers."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, TextIO

import click
from rich.console import Console

from cipherbench.store import Store, db_location


@dataclass
class AppContext:
    """Per-invocation state; commands reach it with ``click.pass_obj``."""

    env: Mapping[str, str]
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    _console: Console | None = None
    _err_console: Console | None = None

    def _make_console(self, stream: TextIO) -> Console:
        width = int(self.env["COLUMNS"]) if self.env.get("COLUMNS", "").isdigit() else None
        tty = hasattr(stream, "isatty") and stream.isatty()
        return Console(file=stream, width=width or (None if tty else 200),
                       no_color=bool(self.env.get("NO_COLOR")) or None,
                       force_terminal=None if tty else False, highlight=False)

    @property
    def console(self) -> Console:
        """Rich console on stdout (width from $COLUMNS; 200 when not a terminal)."""
        if self._console is None:
            self._console = self._make_console(self.stdout)
        return self._console

    @property
    def err_console(self) -> Console:
        """Rich console on stderr (progress bars, warnings)."""
        if self._err_console is None:
            self._err_console = self._make_console(self.stderr)
        return self._err_console

    def error(self, message: str) -> None:
        """One line on stderr: ``cipherbench: error: ...``."""
        self.stderr.write(f"cipherbench: error: {message}\n")
        self.stderr.flush()

    def warn(self, message: str) -> None:
        """One line on stderr: ``cipherbench: warning: ...`` (the command goes on, and can
        still succeed)."""
        self.stderr.write(f"cipherbench: warning: {message}\n")
        self.stderr.flush()

    def db_location(self, db: str | None) -> Path | str:
        """``--db`` if given (a file or a ``postgresql://`` URL), else ``$CIPHERBENCH_DB``,
        else the default file."""
        return db_location(db, self.env)

    def open_store(self, db: str | None, create: bool = True) -> Store:
        """Open the results store (``StoreError`` on problems); ``create=False``: an existing
        one, read-only (the commands that only show what is stored)."""
        store = Store.open(self.db_location(db), create=create, readonly=not create)
        for note in store.notes:
            self.warn(note)
        return store


def db_option(f: Any) -> Any:
    """The ``--db PATH|URL`` option shared by the commands that use the store."""
    return click.option("--db", metavar="PATH|URL", default=None,
                        help="results database: a SQLite file, or a shared PostgreSQL "
                             "database as postgresql://USER@HOST/DB (default: "
                             "$CIPHERBENCH_DB, else the user data directory)")(f)


def json_option(f: Any) -> Any:
    """The ``--json`` option of commands that show results."""
    return click.option("--json", "as_json", is_flag=True,
                        help="print JSON (the export schema) instead of a table")(f)
