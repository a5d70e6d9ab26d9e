# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the results database lives: a file (by default) or a PostgreSQL server's URL."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import platformdirs

from cipherbench.errors import UsageError
from cipherbench.store.postgres import is_postgres_url

DB_FILENAME = "results.sqlite"


def default_db_path(env: Mapping[str, str]) -> Path:
    """``$CIPHERBENCH_DB``, else ``$XDG_DATA_HOME/cipherbench/results.sqlite``, else the
    platform's user data directory (``~/.local/share/cipherbench`` on Linux)."""
    if env.get("CIPHERBENCH_DB"):
        return Path(env["CIPHERBENCH_DB"])
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]) / "cipherbench" / DB_FILENAME
    return platformdirs.user_data_path("cipherbench") / DB_FILENAME


def db_location(db: str | None, env: Mapping[str, str]) -> Path | str:
    """The database ``--db`` names, else ``$CIPHERBENCH_DB``, else the default file: a
    ``Path``, or a ``postgresql://`` URL as it was written. Another URL scheme is refused
    (UsageError) rather than taken for a file name."""
    text = db or env.get("CIPHERBENCH_DB") or ""
    if "://" in text:
        if is_postgres_url(text):
            return text
        scheme = text.split("://", 1)[0]
        raise UsageError(f"--db {scheme}://... is not a database cipherbench can use: give a "
                         "file (SQLite) or postgresql://USER@HOST/DATABASE")
    return Path(text) if text else default_db_path(env)
