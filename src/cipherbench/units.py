"""Sizes and durations as people write them: parsing ``256M`` / ``50G`` and printing times."""
from __future__ import annotations

import re

_SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from ``"4096"``, ``"256M"``, ``"256MiB"``, ``"50G"``, ``"1.5GiB"`` (binary units,
    case-insensitive). Raises ``ValueError`` with a one-line message on anything else."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text or "")
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 65536, 256M, 50G)")
    value = float(m.group(1)) * _SUFFIX[m.group(2).lower()]
    if value < 1:
        raise ValueError(f"size must be at least 1 byte: {text!r}")
    return int(value)


def format_duration(seconds: float) -> str:
    """A duration for people: ``850 ms``, ``12.3 s``, ``4 min 05 s``, ``2 h 03 min``."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        m, s = divmod(int(round(seconds)), 60)
        return f"{m} min {s:02d} s"
    h, rem = divmod(int(round(seconds)), 3600)
    return f"{h} h {rem // 60:02d} min"
