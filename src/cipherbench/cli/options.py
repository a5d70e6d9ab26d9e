"""Parsing helpers shared by commands: comma lists, sizes, precision, suggestions."""
from __future__ import annotations

import difflib
from typing import Iterable, Sequence

from cipherbench.errors import UsageError
from cipherbench.units import parse_size


def split_list(values: Iterable[str] | str | None) -> list[str]:
    """``("a,b", "c")`` -> ``["a", "b", "c"]`` (options may repeat and hold commas)."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    return [p.strip() for v in values for p in v.split(",") if p.strip()]


def did_you_mean(name: str, pool: Sequence[str]) -> str:
    """`` (did you mean x?)`` or ``""``."""
    close = difflib.get_close_matches(name, list(pool), n=3, cutoff=0.5)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def parse_sizes(values: Iterable[str] | str | None, option: str = "--sizes") -> list[int]:
    """Positive byte counts, ``16,1k,16K,1M`` accepted."""
    out = []
    for text in split_list(values):
        try:
            n = parse_size(text)
        except ValueError:
            raise UsageError(f"{option}: {text!r} is not a size in bytes (e.g. 16,1024,16k)")
        if n <= 0 or n > 64 * 1024 * 1024:
            raise UsageError(f"{option}: {text!r} is out of range (1 byte to 64 MiB)")
        if n not in out:
            out.append(n)
    return sorted(out)


def parse_precision(text: str | None) -> float | None:
    """``0.01`` or ``1%`` -> 0.01; must be in (0, 0.5]."""
    if text is None:
        return None
    t = text.strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise UsageError(f"--precision: {text!r} is not a number (e.g. 0.01 or 1%)")
    if not 0 < v <= 0.5:
        raise UsageError(f"--precision: {text!r} must be between 0 and 0.5 (50%)")
    return v
