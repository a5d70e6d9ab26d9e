# SPDX-License-Identifier: GPL-3.0-or-later
"""What the config modules share: the line record and their input."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cipherbench.advise.rank import Ranked


@dataclass
class ConfigLine:
    """One printed line. ``check`` is (kind, payload) for ``validate``; comments have none.
    After validation ``status`` is ``ok``, ``rejected``, ``not checked`` or ``comment`` and
    ``detail`` says which tool said so."""

    text: str
    check: tuple[str, Any] | None = None
    status: str = "unchecked"
    detail: str = ""

    @property
    def is_comment(self) -> bool:
        """A ``#`` line (explanations; never checked)."""
        return self.check is None


def comment(text: str) -> ConfigLine:
    """A ``# ...`` line."""
    return ConfigLine("# " + text, None, "comment")


@dataclass
class Context:
    """Input of every config module: the allowed rows in rank order, the policy, the TLS
    library (``--lib``), the remote host (``--host``), and the validator (for which names the
    installed tools accept)."""

    rows: list[Ranked]
    policy: str
    lib: str | None
    host: str | None
    validator: Any
    target: str = ""
    extra: dict = field(default_factory=dict)

    def pick(self, limit: int | None = None) -> list[Ranked]:
        """The allowed, available rows in rank order."""
        out = [r for r in self.rows if r.allowed and r.cand.available]
        return out[:limit] if limit else out
