# SPDX-License-Identifier: GPL-3.0-or-later
"""Names in narrow columns: broken only after a separator, never inside a word.

A suite (``TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256``), an algorithm (``chacha20-poly1305``), a
priority string (``+ECDHE-RSA:+AEAD``) or a library (``libtomcrypt``) wraps after ``_``, ``-``,
``@``, ``:``, ``,`` or a space; a part longer than the width stays whole (the column grows to
hold it). Not at ``/`` or ``.``: ``MB/s`` and ``TLSv1.2`` stay whole.
"""
from __future__ import annotations

import re

#: Where a name may be broken: after one of these.
SEPARATORS = "_-@:, "
_PIECES = re.compile(r"[^" + re.escape(SEPARATORS) + r"]*[" + re.escape(SEPARATORS) + r"]*")


def pieces(name: str) -> list[str]:
    """``aes-128-gcm`` -> ``["aes-", "128-", "gcm"]``: the parts a line may end after."""
    return [p for p in _PIECES.findall(name) if p]


def wrap_name(name: str, width: int) -> list[str]:
    """``name`` in lines of at most ``width`` characters, broken only after a separator (a
    trailing space dropped); a part wider than ``width`` is a line of its own, whole."""
    lines: list[str] = []
    line = ""
    for p in pieces(name):
        if line and len((line + p).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += p
    if line or not lines:
        lines.append(line.rstrip())
    return lines


def longest_piece(name: str) -> int:
    """The narrowest width ``name`` wraps into without breaking a word."""
    return max((len(p.rstrip()) for p in pieces(name)), default=0)
