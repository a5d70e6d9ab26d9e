# SPDX-License-Identifier: GPL-3.0-or-later
"""Competing work on the machine: what else wants a CPU, whether ``nice`` can shield a run from
it, and how much of the CPU a run got. Reads ``/proc`` (Linux); computes nothing else.

With autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled`` = 1, Debian's
default) the CPU is first shared equally between session groups, so a ``nice -n 19`` job
started in another terminal still takes its group's share: niceness only orders tasks inside
one group. What counts is the number of *other* runnable tasks, wherever they come from.

Sources, each read when present: ``/proc/loadavg`` (load averages and the kernel's count of
runnable tasks), ``/proc/stat`` (``procs_running``), and a scan of ``/proc/<pid>/task/<tid>/stat``
for tasks in state R that are not this process or its children.

Public API:

- ``snapshot(root="/proc", own=None) -> LoadSnapshot``
- ``cpu_share(cpu_s, wall_s, cores=1) -> float``: the share of the CPUs a run used.
- ``probe_share(seconds=0.2) -> float``: the share of a CPU one busy thread gets now.
- ``start_share(seconds=0.2) -> float``: the share a run starting now should expect (the probe
  and the load average, ``analysis.estimate.expected_share``).
- ``summary_line(snap, share=None) -> str``: one line for the user.
- ``wait_quiet(seconds, ...) -> WaitResult``: waits (bounded) until nothing else is runnable.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from cipherbench.analysis.estimate import expected_share

#: Other runnable tasks, on average over the polls, at or below which the machine is quiet.
QUIET_RUNNABLE = 0.5
#: Seconds between two looks at /proc while waiting.
POLL_S = 0.5
#: Looks averaged to call the machine quiet (a task that runs now and then is not load).
QUIET_POLLS = 4


@dataclass(frozen=True)
class Competitor:
    """One runnable task that is not ours."""

    pid: int
    tid: int
    comm: str
    other_group: bool | None   # in another autogroup than ours (None: unknown)


@dataclass(frozen=True)
class LoadSnapshot:
    """What /proc said at one moment."""

    cpus: int                        # CPUs this process may run on
    loadavg: tuple[float, float, float] | None
    running: int | None              # /proc/loadavg's runnable count (includes the reader)
    procs_running: int | None        # /proc/stat (includes the reader)
    competitors: tuple[Competitor, ...] = ()
    autogroup: bool | None = None    # sched_autogroup_enabled
    own_running: int = 1             # our runnable tasks seen (the reader at least)

    @property
    def others(self) -> int:
        """Other runnable tasks: the larger of the scan and the kernel's count less our own
        (the scan can miss short-lived tasks, the count cannot tell whose they are)."""
        counts = [len(self.competitors)]
        for c in (self.running, self.procs_running):
            if c is not None:
                counts.append(max(0, c - max(1, self.own_running)))
        return max(counts)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _stat_fields(text: str) -> tuple[str, list[str]] | None:
    """(comm, fields after comm) of a /proc stat line; comm may hold spaces and parentheses."""
    lp, rp = text.find("("), text.rfind(")")
    if lp < 0 or rp < lp:
        return None
    return text[lp + 1:rp], text[rp + 2:].split()


def _autogroup(root: Path, pid: int | str) -> str | None:
    t = _read(root / str(pid) / "autogroup")
    return t.split()[0] if t else None


def _own_pids(root: Path, me: int) -> set[int]:
    """This process and its descendants (the core and the programs it measures)."""
    children: dict[int, list[int]] = {}
    for d in root.iterdir():
        if not d.name.isdigit():
            continue
        t = _read(d / "stat")
        f = _stat_fields(t) if t else None
        if f and len(f[1]) > 1 and f[1][1].isdigit():
            children.setdefault(int(f[1][1]), []).append(int(d.name))
    own, todo = {me}, [me]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in own:
                own.add(c)
                todo.append(c)
    return own


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _loadavg(root: Path) -> tuple[tuple[float, float, float] | None, int | None]:
    """``/proc/loadavg``: the three load averages and the runnable count (None if unread)."""
    parts = (_read(root / "loadavg") or "").split()
    loadavg, running = None, None
    try:
        loadavg = (float(parts[0]), float(parts[1]), float(parts[2]))
        running = int(parts[3].split("/")[0])
    except (IndexError, ValueError):
        pass
    return loadavg, running


def snapshot(root: str | Path = "/proc", own: Iterable[int] | None = None,
             me: int | None = None) -> LoadSnapshot:
    """Load now. ``own`` are pids not counted as competitors (default: this process and its
    descendants); ``root`` is injectable for tests."""
    root = Path(root)
    me = os.getpid() if me is None else me
    own_set = set(own) if own is not None else _own_pids(root, me)
    cpus = _cpus()
    loadavg, running = _loadavg(root)
    procs_running = None
    for line in (_read(root / "stat") or "").splitlines():
        if line.startswith("procs_running "):
            procs_running = int(line.split()[1])
    ag = _read(root / "sys" / "kernel" / "sched_autogroup_enabled")
    autogroup = None if ag is None else ag.strip() == "1"
    my_group = _autogroup(root, me) if autogroup else None
    comps = []
    own_running = 0
    for d in root.iterdir():
        if not d.name.isdigit():
            continue
        mine = int(d.name) in own_set
        tasks = d / "task"
        try:
            tids = [t.name for t in tasks.iterdir()] if tasks.is_dir() else [d.name]
        except OSError:
            continue
        for tid in tids:
            t = _read(tasks / tid / "stat") if tasks.is_dir() else _read(d / "stat")
            f = _stat_fields(t) if t else None
            if f and f[1] and f[1][0] == "R" and mine:
                own_running += 1
            elif f and f[1] and f[1][0] == "R":
                g = _autogroup(root, d.name) if autogroup else None
                other = None if (g is None or my_group is None) else g != my_group
                comps.append(Competitor(int(d.name), int(tid), f[0], other))
    return LoadSnapshot(cpus, loadavg, running, procs_running, tuple(comps), autogroup,
                        max(1, own_running))


def cpu_share(cpu_s: float, wall_s: float, cores: int = 1) -> float:
    """The share of the CPUs it ran on that a run got: its CPU time over wall time x cores
    (1.0: it never waited for a CPU)."""
    if wall_s <= 0 or cores < 1:
        return 0.0
    return cpu_s / (wall_s * cores)


def probe_share(seconds: float = 0.2) -> float:
    """The share of one CPU a busy thread of this process gets now: it spins for ``seconds``
    and compares its CPU time with the wall time (what a run's measuring process will get,
    for its estimate)."""
    w0, c0 = time.monotonic(), time.thread_time()
    while time.monotonic() - w0 < seconds:
        pass
    wall, cpu = time.monotonic() - w0, time.thread_time() - c0
    return min(1.0, max(0.01, cpu / wall)) if wall > 0 else 1.0


def start_share(seconds: float = 0.2, root: str | Path = "/proc") -> float:
    """The share of a CPU a run starting now should expect (``estimate.expected_share``): a
    probe of ``seconds`` and the 1-minute load average over this process's CPUs."""
    probe = probe_share(seconds)
    loadavg, _ = _loadavg(Path(root))
    return expected_share(probe, loadavg[0] if loadavg else None, _cpus())


def summary_line(snap: LoadSnapshot, share: float | None = None) -> str:
    """``load: 2 other runnable tasks on 2 CPUs (cc1, python3); autogroups on: nice does not
    shield this run; the run got 71% of its CPU``."""
    n = snap.others
    if n == 0:
        text = f"load: nothing else runnable on {snap.cpus} CPU{'s' if snap.cpus != 1 else ''}"
    else:
        names = sorted({c.comm for c in snap.competitors})
        shown = f" ({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})" if names else ""
        text = (f"load: {n} other runnable task{'s' if n != 1 else ''} on {snap.cpus} "
                f"CPU{'s' if snap.cpus != 1 else ''}{shown}")
        if snap.autogroup and any(c.other_group for c in snap.competitors):
            text += "; autogroups on: nice does not shield this run"
    if snap.loadavg:
        text += f"; load average {snap.loadavg[0]:.2f}"
    if share is not None:
        text += f"; the run got {min(share, 1.0):.0%} of its CPU"
    return text


@dataclass
class WaitResult:
    """The outcome of ``wait_quiet``: ``quiet`` when the machine was quiet before the bound."""

    quiet: bool
    waited_s: float
    last: LoadSnapshot | None
    polls: list[int] = field(default_factory=list)   # others seen at each look


def wait_quiet(seconds: float, *, threshold: float = QUIET_RUNNABLE, polls: int = QUIET_POLLS,
               poll_s: float = POLL_S, look: Callable[[], LoadSnapshot] = snapshot,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> WaitResult:
    """Wait until the mean number of other runnable tasks over the last ``polls`` looks is at
    most ``threshold``, or ``seconds`` have passed (then ``quiet`` is False). Never waits
    longer than ``seconds`` plus one look."""
    start = clock()
    seen: list[int] = []
    last = None
    while True:
        last = look()
        seen.append(last.others)
        recent = seen[-polls:]
        if len(recent) == polls and sum(recent) / polls <= threshold:
            return WaitResult(True, clock() - start, last, seen)
        left = seconds - (clock() - start)
        if left <= 0:
            return WaitResult(False, clock() - start, last, seen)
        sleep(min(poll_s, left))
