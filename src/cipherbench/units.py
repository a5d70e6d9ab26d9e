# SPDX-License-Identifier: GPL-3.0-or-later
"""Sizes, rates and durations as people write them: parsing ``256M`` / ``50G``, printing sizes,
throughputs and times. Every command parses and prints them here."""
from __future__ import annotations

import re
from decimal import Decimal

_SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from ``"4096"``, ``"256M"``, ``"256MiB"``, ``"50G"``, ``"1.5GiB"`` (binary units,
    case-insensitive). Raises ``ValueError`` with a one-line message on anything else, and on a
    fraction of a byte (``1.5``). The
    range (at least 1 byte, at most ...) is the caller's: each option has its own."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text or "")
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 65536, 256M, 50G)")
    n = Decimal(m.group(1)) * _SUFFIX[m.group(2).lower()]
    if n != n.to_integral_value():
        raise ValueError(f"not a whole number of bytes: {text!r} (examples: 65536, 1.5M)")
    return int(n)


_UNITS_DOWN = (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def format_bytes(n: int) -> str:
    """Bytes for people, in the largest binary unit that fits: ``16 KiB``, ``256 MiB``,
    ``1.5 GiB``; whole multiples are exact, MiB and up get one decimal otherwise, and a size
    under 1 MiB that is no whole number of KiB stays in bytes (``1400 B``)."""
    for unit, scale in _UNITS_DOWN:
        if n >= scale:
            if n % scale == 0:
                return f"{n // scale} {unit}"
            if scale >= 1 << 20:
                return f"{n / scale:.1f} {unit}"
            break
    return f"{n} B"


def rate(amount: float, duration: float | None, per: float = 1e9) -> float | None:
    """``amount`` (bytes, handshakes) per second when it takes ``duration`` nanoseconds (``per``
    = 1 for seconds); None when the duration is not positive. The one place a time becomes a
    rate."""
    if duration is None or duration <= 0:
        return None
    return amount * per / duration


def rate_interval(amount: float, median: float, ci_low: float | None, ci_high: float | None,
                  per: float = 1e9) -> tuple[float | None, float | None, float | None]:
    """(rate, low, high) from a median time and its interval: the slow end of the time gives
    the low end of the rate."""
    return rate(amount, median, per), rate(amount, ci_high, per), rate(amount, ci_low, per)


def format_rate(bytes_per_s: float | None) -> str:
    """Throughput in decimal units, three significant digits: ``3.41 GB/s``, ``545 MB/s``."""
    if bytes_per_s is None:
        return ""
    for unit, scale in (("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)):
        if bytes_per_s >= scale:
            v = bytes_per_s / scale
            digits = 2 if v < 10 else 1 if v < 100 else 0   # three significant digits
            return f"{v:.{digits}f} {unit}"
    return f"{bytes_per_s:.0f} B/s"


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
