# SPDX-License-Identifier: GPL-3.0-or-later
"""What ssh's verdicts between ciphers are made from. Pure: stored figures in, verdicts out.

Every sample through ssh's pipe stores the CPU time both ends used over its data phase: the
ssh client's and the sshd session process's (``transfer.py``), each from
``/proc/PID/schedstat`` in nanoseconds, or in clock ticks where a kernel lacks schedstat.
A transfer stalls now and then (100-340 ms on the shared VM of docs/performance.md, with
nothing else running): the wall time of that sample grows by half or more, and a competing
process stretches it too, while neither end uses CPU while it waits. So one cipher against
another (the "vs dflt" verdict) is judged on what the transfer costs both ends per byte::

    CPU rate = bytes / (client CPU seconds + server CPU seconds)

paired per round like the wall rates, when every round of both cells has both ends' CPU
times to the nanosecond. A figure in clock ticks (10 ms, a tenth of a 16 MiB sample at
100 MB/s) is too coarse, and the file tools (sftp, scp, rsync) measure no CPU time of the far
end: then the wall rates are compared, as before. Which figure a verdict used is kept beside
it (``cpu_figure.CPU`` or ``cpu_figure.WALL``) and named in the table's legend.

No round is left out as having lost the CPU (``cpu_figure.lost_cpu``): that filter recognises
a measurement that waited, and waiting is what the CPU figure does not see; a round that
stalled keeps a good CPU figure. The median of the per-round ratios sets aside the odd round
whose CPU time itself grew.

The throughput column, the verdict against the cleartext baseline and the bottleneck stay on
wall time: how long a transfer takes is a question of time, not of cost.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from cipherbench.analysis import cpu_figure
from cipherbench.analysis import verdict as V

#: The only CPU-time source fine enough for a verdict (nanoseconds).
PRECISE = "schedstat"


def round_cpu_s(extra: Mapping) -> float | None:
    """Both ends' CPU seconds over one stored sample's data phase (its ``round_s`` row's
    ``extra``), or None unless both were read to the nanosecond. Rows stored before the client's
    method was kept read it from schedstat when the kernel had it, as the far end did."""
    client, server = extra.get("client_cpu_s"), extra.get("server_cpu_s")
    if client is None or server is None:
        return None
    if extra.get("server_cpu_method") != PRECISE:
        return None
    if extra.get("client_cpu_method", PRECISE) != PRECISE:
        return None
    return client + server


def cpu_rates(rounds: Sequence[int], nbytes: Sequence[int],
              cpus: Sequence[float | None]) -> dict[int, float]:
    """Round -> bytes per CPU second of both ends, for a cell whose every round has that
    figure (``round_cpu_s``); {} otherwise: a cell never mixes CPU and wall figures."""
    times = cpu_figure.cpu_times(nbytes, cpus)
    if len(rounds) != len(nbytes) or times is None:
        return {}
    return {i: n / c for i, n, c in zip(rounds, nbytes, times)}


def paired(a: Mapping[int, float], b: Mapping[int, float]) -> V.Verdict | None:
    """B against A (rates: above 1, B is faster) over the rounds that measured both; None
    when no round did."""
    xa, xb = cpu_figure.common_rounds(a, b)
    return V.verdict(xa, xb, higher_is_better=True) if xa else None


@dataclass(frozen=True)
class Versus:
    """A verdict between two ciphers and the figure it was made from (``cpu_figure.CPU``:
    CPU per byte of both ends; ``cpu_figure.WALL``: transfer speed)."""

    verdict: V.Verdict | None
    figure: str


def versus(a_wall: Mapping[int, float], b_wall: Mapping[int, float],
           a_cpu: Mapping[int, float], b_cpu: Mapping[int, float]) -> Versus:
    """B against A: by CPU per byte when every round both measured has it in both cells,
    else by the wall rates."""
    both = set(a_wall) & set(b_wall)
    if both and both <= set(a_cpu) & set(b_cpu):
        return Versus(paired(a_cpu, b_cpu), cpu_figure.CPU)
    return Versus(paired(a_wall, b_wall), cpu_figure.WALL)
