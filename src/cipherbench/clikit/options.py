# SPDX-License-Identifier: GPL-3.0-or-later
"""Parsing helpers shared by commands: comma lists, sizes, precision, and the
click types that check every numeric option alike (finite, in range, whole where a count or
a size)."""
from __future__ import annotations

import math
from typing import Iterable

import click

from cipherbench.errors import UsageError
from cipherbench.machine.cpus import allowed_cpus
from cipherbench.suggest import did_you_mean  # noqa: F401 - where the commands find it
from cipherbench.units import format_bytes, parse_size


def split_list(values: Iterable[str] | str | None) -> list[str]:
    """``("a,b", "c")`` -> ``["a", "b", "c"]`` (options may repeat and hold commas)."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    return [p.strip() for v in values for p in v.split(",") if p.strip()]


def parse_sizes(values: Iterable[str] | str | None, option: str = "--sizes") -> list[int]:
    """Positive byte counts, ``16,1k,16K,1M`` accepted."""
    out = []
    for text in split_list(values):
        try:
            n = parse_size(text)
        except ValueError as e:
            raise UsageError(f"{option}: {e}")
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


# -- click types and callbacks: every numeric option is checked the same way at its declaration

class Seconds(click.ParamType):
    """A finite number of seconds, 0 or more (``positive``: more than 0), at most a week."""

    name = "seconds"

    def __init__(self, positive: bool = False, maximum: float = 7 * 86400):
        self.positive = positive
        self.maximum = maximum

    def convert(self, value, param, ctx) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            v = float(value)
        else:
            try:
                v = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds (e.g. 2.5)", param, ctx)
        if not math.isfinite(v):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        if v < 0 or (self.positive and v == 0) or v > self.maximum:
            low = "more than 0" if self.positive else "0 or more"
            self.fail(f"{value!r} is out of range ({low} seconds, at most "
                      f"{self.maximum:g})", param, ctx)
        return v


#: ``--budget`` of the commands whose budget may be 0 (one batch of samples, no extra ones).
SECONDS = Seconds()
#: ``--budget`` of the commands that need some time to measure at all.
POSITIVE_SECONDS = Seconds(positive=True)


class Size(click.ParamType):
    """A whole number of bytes (``65536``, ``16k``, ``1.5G``) in ``[low, high]``; -> int."""

    name = "size"

    def __init__(self, low: int = 1, high: int = 1 << 40):
        self.low, self.high = low, high

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        else:
            try:
                n = parse_size(str(value))
            except ValueError as e:
                self.fail(str(e), param, ctx)
        if not self.low <= n <= self.high:
            self.fail(f"{value!r} is out of range ({format_bytes(self.low)} to "
                      f"{format_bytes(self.high)})", param, ctx)
        return n


class Cpu(click.ParamType):
    """The number of a CPU this process may run on (its affinity mask)."""

    name = "cpu"

    def convert(self, value, param, ctx) -> int:
        try:
            k = int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a CPU number", param, ctx)
        allowed = allowed_cpus()
        if k not in allowed:
            self.fail(f"CPU {value} is not one this process may run on (allowed: "
                      f"{_ranges(allowed)})", param, ctx)
        return k


CPU = Cpu()


def nonempty_list(ctx, param, value):  # noqa: ARG001 - click callback signature
    """Callback of a comma-list option: given but empty (``--algo ""``, ``--sizes ,``) is an
    error, not "everything"."""
    if value is None or value == ():
        return value
    if not split_list(value):
        raise click.BadParameter("empty list: name at least one, or leave the option out for "
                                 "the default", ctx=ctx, param=param)
    return value


def _ranges(cpus: list[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``0-2,5``."""
    out: list[str] = []
    start = None
    for i, k in enumerate(cpus):
        start = k if start is None else start
        if i + 1 == len(cpus) or cpus[i + 1] != k + 1:
            out.append(str(k) if start == k else f"{start}-{k}")
            start = None
    return ",".join(out)


#: ``context_settings`` of the commands that take run numbers, so that ``-1`` (the newest
#: run), ``-2`` (the one before), ... reach the RUN arguments instead of the option parser.
RUN_REF_CONTEXT = {"ignore_unknown_options": True}


def run_refs(ctx, param, value):  # noqa: ARG001 - click callback signature
    """Callback of RUN arguments under :data:`RUN_REF_CONTEXT`: ``-N`` is a run number;
    anything else starting with ``-`` is still an unknown option."""
    for v in value if isinstance(value, tuple) else (value,):
        if isinstance(v, str) and v.startswith("-") and not v[1:].isdigit():
            raise click.NoSuchOption(v, ctx=ctx)
    return value


def cpu_profile_option(f):
    """``--cpu-profile NAME``: stand in for a weaker CPU by turning the profile's features off
    in every library through its own switch (``cores.cpu_profiles``)."""
    from cipherbench.cores.cpu_profiles import PROFILES
    return click.option(
        "--cpu-profile", "cpu_profile", type=click.Choice(list(PROFILES)), default=None,
        help="measure as on a weaker CPU, through each library's own switch: "
             + "; ".join(f"{p.name}: {p.stands_for}" for p in PROFILES.values())
             + ". A library that cannot follow is reported, not measured")(f)
