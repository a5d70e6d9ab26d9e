# SPDX-License-Identifier: GPL-3.0-or-later
"""Typed warnings about the quality of a measurement; each text says how to fix the cause.

Checks are pure functions over numbers (``check_*``) returning a list of ``BenchWarning``;
the CLI shows them and the store keeps them with the run. Scenarios reuse them.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(str, Enum):
    """Every kind of warning, with what it means, which commands raise it, and its remedy.

    The remedy names only options the commands that raise the kind have (a test checks it);
    the warning's text is the finding followed by its remedy."""

    NOISY = "noisy"
    NOT_STABLE = "not_stable"
    STEAL = "steal"
    FREQUENCY = "frequency"
    CLOCK = "clock"
    COHERENCE = "coherence"
    LOAD = "load"
    KAT_FAILED = "kat_failed"
    CORE_CRASHED = "core_crashed"
    UNSUPPORTED = "unsupported"
    THREADS = "threads"
    TLS_FAILED = "tls_failed"
    TRANSFER_FAILED = "transfer_failed"
    STORE_FAILED = "store_failed"
    HOST_FAILED = "host_failed"
    LIBRARY_MISSING = "library_missing"
    UNLIKE_BEFORE = "unlike_before"

    @property
    def description(self) -> str:
        return _ABOUT[self][0]

    @property
    def commands(self) -> tuple[str, ...]:
        return _ABOUT[self][1]

    @property
    def remedy(self) -> str:
        return _ABOUT[self][2]


_MEASURING = ("run", "tls", "ssh", "gpg")
#: kind -> (description, commands that raise it, remedy).
_ABOUT: dict[Kind, tuple[str, tuple[str, ...], str]] = {
    Kind.NOISY: ("the samples of a point vary a lot", ("run", "tls"),
                 "close other programs, or raise --budget"),
    Kind.NOT_STABLE: ("the precision target was not met within the time budget",
                      ("run", "tls"), "raise --budget, or accept a looser --precision"),
    Kind.STEAL: ("the process got much less CPU than wall-clock time (VM steal or other load)",
                 ("run", "tls"), "measure on an idle machine or bare metal"),
    Kind.FREQUENCY: ("the frequency governor lowers the clock when the CPU is idle",
                     ("run",), "use `cpupower frequency-set -g performance` while "
                               "benchmarking, and disable turbo for stable cycles/byte"),
    Kind.CLOCK: ("the core's clock could not be measured reliably: cycles per byte withheld",
                 ("run",), "run again on a quieter machine (--wait-quiet waits for one), "
                           "or on one CPU with --cpu"),
    Kind.COHERENCE: ("a headline figure and the slope fitted through the sizes disagree "
                     "(marked ? in the table)", ("run",),
                     "measure again with --rounds, or wait for a quiet machine with "
                     "--wait-quiet"),
    Kind.LOAD: ("other processes were busy when the run started", ("run", "ssh"),
                "close them, or let --wait-quiet wait for a quiet machine"),
    Kind.KAT_FAILED: ("an algorithm failed its known-answer vectors and was not timed",
                      ("run",), "not timed (a wrong answer is never measured); run "
                                "`cipherbench-core kat --lib LIBRARY` for details"),
    Kind.CORE_CRASHED: ("a library's core process died; its remaining points are missing",
                        ("run", "tls"), "leave the library out with --lib and report the bug"),
    Kind.UNSUPPORTED: ("an asked-for algorithm is not available in a library",
                       ("run", "ssh"), "see `cipherbench list` for what each library has"),
    Kind.THREADS: ("a point could not be measured with several processes at once", ("run",),
                   "measure it alone, without --threads"),
    Kind.TLS_FAILED: ("a TLS transfer or handshake failed without a refusal", ("tls",),
                      "leave the suite out with --suites and report the bug"),
    Kind.TRANSFER_FAILED: ("an ssh transfer failed", ("ssh",),
                           "leave the cipher out with --ciphers, or check the server's log"),
    Kind.STORE_FAILED: ("the results database could not be written (a full disk)", _MEASURING,
                        "free space, or choose another database with --db"),
    Kind.HOST_FAILED: ("the host of `run --host` could not be used, or was lost during the run",
                       ("run",), "check that plain ssh reaches the host without a prompt "
                                 "(a key or agent; --ssh-config FILE for its options)"),
    Kind.LIBRARY_MISSING: ("a library's module did not load (its library is missing or broken "
                           "on the machine measured): that library is not measured", ("run",),
                           "install the library the loader names, or choose the libraries "
                           "with --lib"),
    Kind.UNLIKE_BEFORE: ("a figure is more than 5% off the median of this machine's earlier runs "
                         "of the same library version, measured the same way", ("run",),
                         "measure again on a quiet machine (--wait-quiet waits for one), or "
                         "compare cycles per byte across runs: a slower clock leaves them "
                         "alone"),
}

#: kind -> one-line description (for docs and the JSON export).
KINDS = {k.value: k.description for k in Kind}


@dataclass(frozen=True)
class BenchWarning:
    """A warning: ``kind`` (a ``Kind``; its value is what the store keeps), ``subject`` (what
    it is about), ``text`` (the finding and its remedy)."""

    kind: Kind
    subject: str
    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))  # unknown kinds fail here

    def __str__(self) -> str:
        return f"{self.subject}: {self.text}" if self.subject else self.text


def noisy(subject: str, cv: float, limit: float = 0.05) -> list[BenchWarning]:
    """CV above ``limit``."""
    if cv <= limit:
        return []
    return [BenchWarning(Kind.NOISY, subject,
                         f"samples vary by {cv:.0%} (CV): {Kind.NOISY.remedy}")]


def not_stable(subject: str, rel_half_width: float, precision: float,
               budget_s: float, what: str = "median") -> list[BenchWarning]:
    """The CI of the figure (``what``: the median, or the robust figure of ``run``) is wider
    than asked, or there were too few samples for a 95% interval at all (fewer than 6: then
    the width itself may be below the target)."""
    if rel_half_width <= precision:
        why = f"too few samples kept for a 95% interval of the {what} (6 are needed)"
    else:   # as many digits as it takes for the two figures to differ on the screen
        digits = next((d for d in (1, 2, 3) if f"{rel_half_width:.{d}%}" != f"{precision:.{d}%}"),
                      3)
        why = (f"{what} known to +-{rel_half_width:.{digits}%}, not the asked "
               f"+-{precision:.{digits}%}")
    return [BenchWarning(Kind.NOT_STABLE, subject,
                         f"{why}, after the {budget_s:g} s budget: "
                         f"{Kind.NOT_STABLE.remedy}")]


def steal(subject: str, cpu_ratio: float | None, limit: float = 0.9) -> list[BenchWarning]:
    """CPU time well below wall time for a single-threaded loop: steal or contention."""
    if cpu_ratio is None or cpu_ratio >= limit:
        return []
    return [BenchWarning(Kind.STEAL, subject,
                         f"got only {cpu_ratio:.0%} of the CPU while timed: inside a VM this is "
                         f"steal time from other guests, otherwise other processes; "
                         f"{Kind.STEAL.remedy}")]


#: Governors that lower the clock while the CPU idles (a benchmark then starts slow).
SCALING_GOVERNORS = ("powersave", "ondemand", "conservative")


def frequency(governor: str | None) -> list[BenchWarning]:
    """The governor scales the clock down at idle. A clock that moved during the run is the
    clock's trust (``clock_withheld``), not the governor's: under load the measured clock
    falls whatever the governor is."""
    if governor not in SCALING_GOVERNORS:
        return []
    return [BenchWarning(
        Kind.FREQUENCY, "cpu",
        f"frequency governor is {governor!r}: numbers may drift; {Kind.FREQUENCY.remedy}")]


def clock_withheld(reason: str, cells: int) -> list[BenchWarning]:
    """Cycles per byte left out of ``cells`` cells because the clock is not trusted."""
    return [BenchWarning(Kind.CLOCK, "cpu",
                         f"cycles per byte withheld ({cells} cell{'s' if cells != 1 else ''}): "
                         f"{reason}; {Kind.CLOCK.remedy}")]


def coherence(subject: str, finding: str) -> list[BenchWarning]:
    """A headline figure that disagrees with the fitted slope (``fit.check_headline``)."""
    return [BenchWarning(Kind.COHERENCE, subject, f"{finding}; {Kind.COHERENCE.remedy}")]


def libraries_missing(unavailable: dict[str, str]) -> list[BenchWarning]:
    """One warning per library whose module did not load (library -> the loader's reason)."""
    return [BenchWarning(Kind.LIBRARY_MISSING, lib,
                         f"not measured: its module did not load: {why}; "
                         f"{Kind.LIBRARY_MISSING.remedy}")
            for lib, why in unavailable.items()]


def load(loadavg: float | None, cores: int | None, limit: float = 0.5,
         others: int | None = None) -> list[BenchWarning]:
    """The 1-minute load average at start exceeds ``limit`` x cores, and, when ``others`` (the
    other runnable tasks seen at the start, ``load.snapshot``) is known, something else was
    runnable then: the average lags a minute behind a machine that has just become quiet."""
    if loadavg is None or not cores or loadavg <= limit * cores or others == 0:
        return []
    return [BenchWarning(Kind.LOAD, "machine",
                         f"load average was {loadavg:.2f} on {cores} cores at start: other "
                         f"processes compete for the CPU; {Kind.LOAD.remedy}")]
