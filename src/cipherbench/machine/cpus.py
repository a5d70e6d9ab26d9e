# SPDX-License-Identifier: GPL-3.0-or-later
"""The CPUs this process may use: what ``--cpu K`` and ``run --threads`` are checked against."""
from __future__ import annotations

import os


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on (its affinity mask), in order."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))
