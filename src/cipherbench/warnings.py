"""Typed warnings about the quality of a measurement; each text says how to fix the cause.

Checks are pure functions over numbers (``check_*``) returning a list of ``BenchWarning``;
the CLI shows them and the store keeps them with the run. Scenarios reuse them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchWarning:
    """A warning: ``kind`` (stable identifier), ``subject`` (what it is about), ``text``."""

    kind: str
    subject: str
    text: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.text}" if self.subject else self.text


#: kind -> one-line description (for docs and the JSON export).
KINDS = {
    "noisy": "the samples of a point vary a lot",
    "not_stable": "the precision target was not met within the time budget",
    "steal": "the process got much less CPU than wall-clock time (VM steal or other load)",
    "frequency": "the core frequency changed during the run, or scaling is enabled",
    "load": "other processes were busy when the run started",
    "kat_failed": "an algorithm failed its known-answer vectors and was not timed",
    "core_crashed": "a library's core process died; its remaining points are missing",
    "unsupported": "an asked-for algorithm is not available in a library",
}


def noisy(subject: str, cv: float, limit: float = 0.05) -> list[BenchWarning]:
    """CV above ``limit``."""
    if cv <= limit:
        return []
    return [BenchWarning("noisy", subject,
                         f"samples vary by {cv:.0%} (CV): close other programs, pin the "
                         "benchmark to a core with `--cpu K`, or raise --budget")]


def not_stable(subject: str, rel_half_width: float, precision: float,
               budget_s: float) -> list[BenchWarning]:
    """The CI of the median is wider than asked."""
    return [BenchWarning("not_stable", subject,
                         f"median known to +-{rel_half_width:.1%}, not the asked "
                         f"+-{precision:.1%}, after the {budget_s:g} s budget: raise --budget, "
                         "or accept a looser --precision")]


def steal(subject: str, cpu_ratio: float | None, limit: float = 0.9) -> list[BenchWarning]:
    """CPU time well below wall time for a single-threaded loop: steal or contention."""
    if cpu_ratio is None or cpu_ratio >= limit:
        return []
    return [BenchWarning("steal", subject,
                         f"got only {cpu_ratio:.0%} of the CPU while timed: inside a VM this is "
                         "steal time from other guests, otherwise other processes; measure on an"
                         " idle machine or bare metal")]


def frequency(freq_before: float | None, freq_after: float | None, governor: str | None,
              limit: float = 0.05) -> list[BenchWarning]:
    """The measured core frequency moved by more than ``limit``, or the governor scales it."""
    out = []
    if freq_before and freq_after:
        change = abs(freq_after - freq_before) / freq_before
        if change > limit:
            out.append(BenchWarning(
                "frequency", "cpu",
                f"core frequency went from {freq_before / 1e9:.2f} to {freq_after / 1e9:.2f} "
                "GHz during the run: set the governor to performance "
                "(`cpupower frequency-set -g performance`) and disable turbo for stable "
                "cycles/byte"))
    if governor and governor not in ("performance", "userspace"):
        out.append(BenchWarning(
            "frequency", "cpu",
            f"frequency governor is {governor!r}: numbers may drift; use "
            "`cpupower frequency-set -g performance` while benchmarking"))
    return out


def load(loadavg: float | None, cores: int | None, limit: float = 0.5) -> list[BenchWarning]:
    """The 1-minute load average at start exceeds ``limit`` x cores."""
    if loadavg is None or not cores or loadavg <= limit * cores:
        return []
    return [BenchWarning("load", "machine",
                         f"load average was {loadavg:.2f} on {cores} cores at start: other "
                         "processes compete for the CPU; close them and run again")]
