# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the results database lives by default."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import platformdirs

DB_FILENAME = "results.sqlite"


def default_db_path(env: Mapping[str, str]) -> Path:
    """``$CIPHERBENCH_DB``, else ``$XDG_DATA_HOME/cipherbench/results.sqlite``, else the
    platform's user data directory (``~/.local/share/cipherbench`` on Linux)."""
    if env.get("CIPHERBENCH_DB"):
        return Path(env["CIPHERBENCH_DB"])
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]) / "cipherbench" / DB_FILENAME
    return platformdirs.user_data_path("cipherbench") / DB_FILENAME
