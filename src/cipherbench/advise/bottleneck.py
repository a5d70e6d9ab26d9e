# SPDX-License-Identifier: GPL-3.0-or-later
"""Is crypto the bottleneck? Compare the allowed rates with the path, in one sentence.

The path is the measured cleartext baseline of the same ssh run (the same bytes over plain
TCP on the same path, measured beside the ciphers), capped by the nominal ``--link`` when the
link is the narrower of the two; with only ``--link`` the link is the path. ``decide`` is the
verdict, pure over typed inputs, in three states: crypto-bound (even the top of the cipher's
interval stays below ``PATH_SHARE`` of the path), path-bound (even the bottom of it reaches
``PATH_SHARE``), or cannot tell (the interval straddles that line). ``sentence`` words it.

This interval rule serves evidence without paired rounds (ssh runs stored before the rounds,
primitive stand-ins, ``--host`` primitives) and the case of a ``--link`` narrower than the
measured baseline. When the recommendation was measured in an ssh run's paired rounds beside
its baseline, ``advise/paired.py`` takes the ssh scenario's own verdict instead.

``--link`` units (decimal, as links are sold): a number with ``bit``, ``b``, ``bps`` or
``bit/s`` after an optional k/M/G/T prefix is bits per second (``1Gbit``, ``100Mbps``,
``100Mb``); with ``B``, ``B/s`` or ``Bps`` it is bytes per second (``125MB/s``; ``MiB/s`` and
``GiB/s`` are binary). A bare number with a prefix (``100M``, ``10G``) is bits per second, as
link speeds are quoted; a bare number without a prefix is bytes per second.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from cipherbench.advise.evidence import Rate
from cipherbench.advise.rank import Ranked, allowed, best
from cipherbench.errors import UsageError
from cipherbench.units import format_rate

_PREFIX = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_BIN = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
#: A cipher reaching this share of what the path carries does not limit the transfer (the
#: line the ssh scenario's own table draws, ``scenarios.ssh.tables.PATH_BOUND``).
PATH_SHARE = 0.90
#: Relative half-width given to a figure stored without an interval (the tie rule of
#: ``Rate.overlaps``).
NO_CI = 0.03

CRYPTO_BOUND, PATH_BOUND, CANNOT_TELL = "crypto-bound", "path-bound", "cannot tell"
#: The ssh program's own work (not the cipher) limits the transfer (``SPLIT_RULE`` only).
PROGRAM_BOUND = "program-bound"
BASELINE, LINK = "baseline", "link"
#: Which rule decided (``PathVerdict.rule``): the cipher's interval against the measured
#: baseline, against the nominal link, the ssh run's paired verdict against its baseline
#: (stored advice before the split), or the ssh run's time split into the cipher's own work,
#: ssh's and the waiting (``scenarios.ssh.bottleneck``).
INTERVAL_RULE, LINK_RULE, PAIRED_RULE, SPLIT_RULE = "interval", "link", "paired", "split"

def parse_link(text: str) -> tuple[float, str]:
    """``--link`` text -> (bytes per second, how to say it). Raises ``UsageError``."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?)\s*(bits?(?:/s)?|bps|b(?:/s)?|"
                     r"B(?:/s)?|Bps)?\s*", text or "")
    if not m or float(m.group(1)) <= 0:
        raise UsageError(f"--link {text!r} is not a speed: use e.g. 1Gbit, 100Mbit, 100M "
                         "(bits/s) or 125MB/s (bytes/s)")
    value, prefix, binary, unit = float(m.group(1)), m.group(2).lower(), m.group(3), m.group(4)
    bits = unit in (None, "") and prefix != "" or (unit or "").lower().startswith("bit") or \
        unit in ("b", "b/s", "bps")
    if binary and bits:
        raise UsageError(f"--link {text!r}: binary prefixes (Mi, Gi) are for bytes: "
                         "use MiB/s, or Mbit for bits")
    scale = _BIN[prefix] if binary else _PREFIX[prefix]
    if bits:
        bps = value * scale / 8
        return bps, f"{format_bits(bps)} link"
    return value * scale, f"{format_rate(value * scale)} link or disk"


def format_bits(bps: float) -> str:
    """Bytes per second as Gbit/s or Mbit/s."""
    bits = bps * 8
    return f"{bits / 1e9:g} Gbit/s" if bits >= 1e9 else f"{bits / 1e6:g} Mbit/s"


def _times(x: float) -> str:
    return f"{x:.0f}x" if x >= 10 else f"{x:.1f}x"


@dataclass(frozen=True)
class Interval:
    """A rate in bytes per second with its 95% interval (None bounds: not known)."""

    value: float
    low: float | None = None
    high: float | None = None

    @classmethod
    def of(cls, rate: Rate) -> "Interval":
        """From a ``Rate`` and its relative half-width."""
        if rate.rel_ci is None:
            return cls(rate.bps)
        return cls(rate.bps, rate.bps * (1 - rate.rel_ci), rate.bps * (1 + rate.rel_ci))

    def bounds(self) -> tuple[float, float]:
        """(low, high), a figure without an interval given ``NO_CI`` either side."""
        if self.low is None or self.high is None:
            return self.value * (1 - NO_CI), self.value * (1 + NO_CI)
        return self.low, self.high


@dataclass(frozen=True)
class PathVerdict:
    """``decide``'s answer: the state, the cipher's share of the path with its interval, and
    which path it was (``baseline`` or ``link``) at what rate, and which rule decided. Under
    ``SPLIT_RULE`` the share is the paired verdict against the baseline (None without one),
    beside what decided: ``parts``, the shares of the transfer's time
    (``scenarios.ssh.bottleneck.Split.to_dict``)."""

    state: str
    share: float | None
    low: float | None
    high: float | None
    path: str
    path_bps: float | None
    rule: str = INTERVAL_RULE
    parts: dict | None = None


def decide(cipher: Interval, baseline: Interval | None, link_bps: float | None
           ) -> PathVerdict | None:
    """Crypto-bound, path-bound or cannot tell, for one cipher's rate against the path: the
    measured baseline, the nominal link only as a cap. None without either."""
    if baseline is not None and baseline.value > 0 and (link_bps is None
                                                          or baseline.value <= link_bps):
        path, kind = baseline, BASELINE
    elif link_bps:
        path, kind = Interval(link_bps, link_bps, link_bps), LINK
    else:
        return None
    c_lo, c_hi = cipher.bounds()
    p_lo, p_hi = path.bounds()
    share, low, high = cipher.value / path.value, c_lo / p_hi, c_hi / p_lo
    if low >= PATH_SHARE:
        state = PATH_BOUND
    elif high < PATH_SHARE:
        state = CRYPTO_BOUND
    else:
        state = CANNOT_TELL
    return PathVerdict(state, share, low, high, kind, path.value,
                       LINK_RULE if kind == LINK else INTERVAL_RULE)


#: The command whose ``--budget`` narrows a figure of each source.
_REMEDY = {"ssh": "cipherbench ssh --budget", "tls": "cipherbench tls --budget",
           "gpg": "cipherbench gpg --budget", "primitive": "cipherbench run --budget"}


def verdict(rows: list[Ranked], link: tuple[float, str] | None = None,
            baseline: Rate | None = None, top: Ranked | None = None) -> PathVerdict | None:
    """``decide`` for ``top``, by default the recommendation (the fastest allowed measured
    choice); None without one, or without a path."""
    top = top or best(rows)
    if top is None or top.rate is None:
        return None
    return decide(Interval.of(top.rate), Interval.of(baseline) if baseline else None,
                  link[0] if link else None)


def sentence(rows: list[Ranked], link: tuple[float, str] | None = None,
             baseline: Rate | None = None, top: Ranked | None = None) -> str:
    """One sentence: the fastest allowed choice against the path (the measured baseline,
    capped by the link). The caller has a path: ``verdict`` is not None."""
    ok = [(r, r.rate) for r in allowed(rows) if r.rate is not None]   # each with its rate
    top = top or best(rows)
    if not ok or top is None or top.rate is None:
        return "No allowed choice was measured, so the bottleneck cannot be told."
    base = Interval.of(baseline) if baseline is not None else None
    v = verdict(rows, link, baseline, top)
    assert v is not None, "no path: the caller words that (wording.no_path)"
    assert v.share is not None   # decide() always gives it (only the split rule has none)
    name = f"{top.cand.label} ({format_rate(top.rate.bps)})"
    if v.path == BASELINE:
        where = f"the cleartext baseline of the same run ({format_rate(v.path_bps)})"
        if link is not None:
            where += f", below your {link[1]}"
    else:
        where = f"your {link[1]}" if link else "the link"
        if baseline is not None:
            where += f" (the measured cleartext path, {format_rate(baseline.bps)}, is faster)"
    if v.state == PATH_BOUND:
        others = [r for r, rate in ok if r is not top and
                  (d := decide(Interval.of(rate), base, link[0] if link else None)) is not None
                  and d.state != PATH_BOUND]
        what = "link" if v.path == LINK else "path"
        tail = "; choose by security." if not others else (
            f"; {', '.join(r.cand.label for r in others[:3])} would not keep up, so choose "
            "among the faster ones.")
        reach = (f"is {_times(v.share)} faster than {where}" if v.share >= 2 else
                 f"reaches {v.share:.0%} of {where}")
        return f"The {what} is the bottleneck, not the cipher: {name} {reach}{tail}"
    if v.state == CRYPTO_BOUND:
        return (f"Crypto is the bottleneck: even the fastest allowed choice, {name}, reaches "
                f"only {v.share:.0%} of {where}.")
    remedy = _REMEDY.get(top.rate.source, "cipherbench run --budget")
    return (f"Cannot tell whether crypto or the path is the bottleneck: {name} reaches "
            f"{v.low:.0%}-{v.high:.0%} of {where}, across the {PATH_SHARE:.0%} line; more "
            f"samples (`{remedy} SECONDS`) narrow it.")
