# SPDX-License-Identifier: GPL-3.0-or-later
"""Suggestions for a mistyped name, for every layer's error messages (the command line, the
scenarios, the advisor): ``did_you_mean("opensll", libs)`` -> `` (did you mean openssl?)``."""
from __future__ import annotations

import difflib
from typing import Sequence


def did_you_mean(name: str, pool: Sequence[str]) -> str:
    """`` (did you mean x?)`` or ``""``: up to three close names from ``pool``."""
    close = difflib.get_close_matches(name, list(pool), n=3, cutoff=0.5)
    return f" (did you mean {' or '.join(close)}?)" if close else ""
