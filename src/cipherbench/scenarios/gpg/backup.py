# SPDX-License-Identifier: GPL-3.0-or-later
"""How long a whole backup takes through gpg (or age), from the paired rounds. Pure: stored
per-round figures in, times out.

Every round calls each candidate on the data and on an empty message. The empty message is
the candidate's fixed cost: gpg's start, the packet headers and the passphrase's key
derivation, which does depend on the cipher (a 32-byte AES-256 key takes two S2K hash passes
where SHA-1 gives 20 bytes: twice a 16-byte key's). Per round, the candidate's bulk time per
byte is its call on the data less its own empty call of the same round, over the bytes; the
median over the rounds is its figure (a difference of two calls of one round: the noise of
calls measured far apart does not enter, and an odd round is set aside):

    backup time = fixed cost + backup size x bulk time per byte

for the CPU time (what gpg itself spent, the figure the paired verdicts use) and for the
wall-clock time (what the user waits: the CPU time over the CPU share of the calls that kept
the CPU in this run, so a call another process stopped outright does not count, the run's
steady share of the CPU does).

A backup also reads and writes a disk: with a disk rate (``--disk RATE``, or measured by
writing into the target directory) the wall-clock time is at least the backup size over that
rate, and ``BackupTime.decides`` says which of the two sets it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from cipherbench.analysis import cpu_figure, stats
from cipherbench.units import format_duration, format_rate

GPG, DISK = "gpg", "disk"


@dataclass(frozen=True)
class Call:
    """One round's call: its wall and CPU seconds (CPU None: not read)."""

    wall_s: float
    cpu_s: float | None


def calls(at: Sequence[int] | None, walls: Sequence[float] | None,
          cpus: Sequence[float | None] | None) -> dict[int, Call]:
    """Round index -> the call of a stored row (``rounds_at``, ``samples_s``,
    ``cpu_samples_s``); {} for a row stored before the rounds."""
    if not at or not walls or len(at) != len(walls):
        return {}
    cs = list(cpus) if cpus and len(cpus) == len(walls) else [None] * len(walls)
    return {int(i): Call(float(w), None if c is None else float(c))
            for i, w, c in zip(at, walls, cs)}


@dataclass(frozen=True)
class Bulk:
    """A candidate's figures from the rounds: its fixed cost and the bulk seconds per byte
    (wall-clock and CPU; CPU None when not read), over ``rounds`` rounds."""

    fixed_wall_s: float
    fixed_cpu_s: float | None
    wall_per_byte: float
    cpu_per_byte: float | None
    rounds: int

    def wall_s(self, nbytes: int) -> float:
        return self.fixed_wall_s + nbytes * self.wall_per_byte

    def cpu_s(self, nbytes: int) -> float | None:
        if self.cpu_per_byte is None or self.fixed_cpu_s is None:
            return None
        return self.fixed_cpu_s + nbytes * self.cpu_per_byte


#: A bulk time is never taken below this share of the call (a fixed cost read a little long
#: must not make the bulk free).
_FLOOR = 0.01


def per_round(data: Mapping[int, Call], fixed: Mapping[int, Call], size: int
              ) -> dict[int, float]:
    """Round -> bulk seconds per byte (CPU time; wall time for rows without it): the call on
    the data less the empty call of the same round, over the bytes."""
    both = sorted(set(data) & set(fixed))
    if not both or size <= 0:
        return {}
    cpu = all(data[i].cpu_s is not None and fixed[i].cpu_s is not None for i in both)

    def fig(c: Call) -> float:
        return c.cpu_s if cpu else c.wall_s   # type: ignore[return-value]

    return {i: max(fig(data[i]) - fig(fixed[i]), _FLOOR * fig(data[i])) / size for i in both}


def _share(calls: Sequence[Call]) -> float | None:
    """The CPU share (CPU over wall time) of the calls that kept the CPU
    (``cpu_figure.lost_cpu``), their median, at most 1; None without CPU times."""
    walls = [c.wall_s for c in calls]
    cpus = [c.cpu_s for c in calls]
    if not calls or any(c is None for c in cpus):
        return None
    kept = cpu_figure.lost_cpu(walls, cpus).kept
    shares = [cpus[i] / walls[i] for i in kept if walls[i] > 0]   # type: ignore[operator]
    return min(stats.median(shares), 1.0) if shares else None


def bulk(data: Mapping[int, Call], fixed: Mapping[int, Call], size: int) -> Bulk | None:
    """A candidate's ``Bulk`` from its calls on ``size`` bytes and its empty-message calls
    (``fixed``), over the rounds that have both; None when none has.

    With CPU times, the bulk is paired per round on CPU time (the figure the verdicts use),
    and the wall-clock time is that CPU time over the CPU share of the calls that kept the
    CPU: what a backup takes while gpg has a CPU (its own waits on pipes and files
    included, other processes' turns not). Without them (rows stored before CPU times), on
    the wall times as they were."""
    both = sorted(set(data) & set(fixed))
    if not both or size <= 0:
        return None
    have_cpu = all(data[i].cpu_s is not None and fixed[i].cpu_s is not None for i in both)
    per_byte = stats.median(list(per_round(data, fixed, size).values()))
    if not have_cpu:
        return Bulk(stats.median([fixed[i].wall_s for i in both]), None, per_byte, None,
                    len(both))
    fixed_cpu = stats.median([fixed[i].cpu_s for i in both])  # type: ignore[misc]
    data_share = _share([data[i] for i in both]) or 1.0
    fixed_share = _share([fixed[i] for i in both]) or 1.0
    return Bulk(fixed_cpu / fixed_share, fixed_cpu, per_byte / data_share, per_byte,
                len(both))


@dataclass(frozen=True)
class Disk:
    """The rate a backup's disk takes the bytes at, and where it came from (``--disk 200MB/s``
    or ``measured writing into DIR``)."""

    bps: float
    source: str


@dataclass(frozen=True)
class BackupTime:
    """A whole backup of ``size`` bytes: gpg's wall-clock and CPU time, and the disk's."""

    size: int
    wall_s: float
    cpu_s: float | None
    disk: Disk | None = None

    @property
    def disk_s(self) -> float | None:
        return None if self.disk is None else self.size / self.disk.bps

    @property
    def total_s(self) -> float:
        """The wall-clock time: gpg's, or the disk's when that is longer."""
        return max(self.wall_s, self.disk_s or 0.0)

    @property
    def decides(self) -> str:
        """``DISK`` when the disk takes longer than gpg, else ``GPG``."""
        return DISK if self.disk_s is not None and self.disk_s > self.wall_s else GPG

    def text(self, what: str, size_text: str, hint: str = "--disk RATE or --disk DIR") -> str:
        """``50 GiB through gpg --cipher-algo AES takes 1 min 31 s wall-clock (1 min 20 s of
        CPU time): gpg decides, not the disk (200 MB/s, --disk 200MB/s: 4 min 28 s)``;
        ``hint`` names the option that gives the disk."""
        cpu = f"{format_duration(self.cpu_s)} of CPU time" if self.cpu_s is not None else ""
        head = f"{size_text} through {what} takes {format_duration(self.total_s)} wall-clock"
        disk_s = self.disk_s
        if self.disk is None or disk_s is None:
            return (f"{head}{f' ({cpu})' if cpu else ''}: gpg's own time, from the paired "
                    f"rounds; a disk slower than {format_rate(self.size / self.wall_s)} would "
                    f"decide instead ({hint})")
        if self.decides == DISK:
            return (f"{head}: the disk decides ({format_rate(self.disk.bps)}, "
                    f"{self.disk.source}), not gpg ({format_duration(self.wall_s)}"
                    f"{f'; {cpu}' if cpu else ''})")
        return (f"{head}{f' ({cpu})' if cpu else ''}: gpg decides, not the disk "
                f"({format_rate(self.disk.bps)}, {self.disk.source}: "
                f"{format_duration(disk_s)})")


def backup_time(b: Bulk, size: int, disk: Disk | None = None) -> BackupTime:
    """The whole backup from a candidate's ``Bulk``."""
    return BackupTime(size, b.wall_s(size), b.cpu_s(size), disk)
