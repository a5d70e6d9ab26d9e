# SPDX-License-Identifier: GPL-3.0-or-later
"""What the store raises, whichever database is behind it."""
from __future__ import annotations

from cipherbench.errors import EnvironmentProblem, UsageError


class StoreError(EnvironmentProblem):
    """The database cannot be created, opened, written or read."""


class NoSuchRun(UsageError):
    """A run reference that matches no stored run."""
