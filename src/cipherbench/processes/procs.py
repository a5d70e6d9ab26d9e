# SPDX-License-Identifier: GPL-3.0-or-later
"""Linux process helpers from /proc: CPU time of a process, descendants, stopping them.

Used to read the CPU time of the local ssh client while it runs and to make sure no process
of the private server survives the run.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time


def cpu_time(pid: int) -> tuple[int | None, str]:
    """CPU time (user + system) of ``pid`` so far, in nanoseconds, and how it was read:
    ``schedstat`` (``/proc/PID/schedstat``, nanoseconds), ``stat-ticks`` (``/proc/PID/stat``,
    clock ticks, usually 10 ms: the fallback when the kernel lacks schedstat), or ``none``."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            ns = int(f.read().split()[0])
        if ns > 0:
            return ns, "schedstat"
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
        return ticks * 1_000_000_000 // os.sysconf("SC_CLK_TCK"), "stat-ticks"
    except (OSError, ValueError, IndexError):
        return None, "none"


def cpu_ns(pid: int) -> int | None:
    """CPU time (user + system) of ``pid`` so far, in nanoseconds, or None if unreadable
    (``cpu_time`` without how it was read)."""
    return cpu_time(pid)[0]


def _parent_map() -> dict[int, int]:
    """pid -> parent pid for every process visible in /proc."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents[int(name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return parents


def descendants(pid: int) -> list[int]:
    """All living descendants of ``pid`` (children, grandchildren, ...), parents first."""
    children: dict[int, list[int]] = {}
    for child, parent in _parent_map().items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = list(children.get(pid, []))
    while todo:
        p = todo.pop(0)
        found.append(p)
        todo.extend(children.get(p, []))
    return found


#: Names of OpenSSH server processes: the listener, and from OpenSSH 9.8 on (10 in Debian 13)
#: the per-connection ``sshd-session`` and its pre-authentication ``sshd-auth``.
SSHD_NAMES = frozenset({"sshd", "sshd-session", "sshd-auth"})


def name(pid: int) -> str | None:
    """The process's command name (``/proc/PID/comm``), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def is_sshd(pid: int) -> bool:
    """True if ``pid`` is an OpenSSH server process (listener or connection)."""
    return name(pid) in SSHD_NAMES


def alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except (OSError, IndexError):
        return False


def terminate(pids: list[int], timeout: float = 3.0) -> list[int]:
    """SIGTERM ``pids``, wait up to ``timeout`` s, SIGKILL what is left. Returns the pids still
    alive afterwards (normally none)."""
    for p in pids:
        try:
            os.kill(p, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + timeout
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        left = [p for p in left if alive(p)]
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    time.sleep(0.02 if left else 0)
    return [p for p in left if alive(p)]


def stop_process(proc: subprocess.Popen) -> None:
    """Terminate one process this command started (killed after 5 s), and reap it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
