# SPDX-License-Identifier: GPL-3.0-or-later
"""Run one program on bytes held in memory and time it: wall clock of the process's whole
life, and its own user and system CPU time from the kernel (wait4), not Python's."""
from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

from cipherbench.processes.children import pin


@dataclass
class Timed:
    """One run of a program: wall seconds, CPU seconds of the child, its exit status, what it
    wrote to stderr, and its stdout when asked for."""

    wall_s: float
    user_s: float
    sys_s: float
    returncode: int
    stderr: str
    stdout: bytes | None = None

    @property
    def cpu_s(self) -> float:
        """User plus system CPU seconds."""
        return self.user_s + self.sys_s


def _feed(pipe, data: memoryview, errors: list[BaseException]) -> None:
    try:
        step = 1 << 20
        for off in range(0, len(data), step):
            pipe.write(data[off:off + step])
    except BrokenPipeError:
        pass  # the program stopped reading; its exit status says why
    except BaseException as e:  # noqa: BLE001 - handed to the caller
        errors.append(e)
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def _drain(pipe, keep: bool, out: list[bytes]) -> None:
    while True:
        chunk = pipe.read(1 << 20)
        if not chunk:
            break
        if keep:
            out.append(chunk)


def run_timed(argv: Sequence[str], data: bytes | bytearray | memoryview, env: Mapping[str, str],
              capture: bool = False, timeout: float = 3600.0, cpu: int | None = None) -> Timed:
    """Run ``argv`` with ``data`` on stdin; stdout is discarded (or returned if ``capture``).

    The wall time runs from just before the process starts to its exit as reaped by wait4,
    which also gives the child's own CPU time."""
    view = memoryview(data)
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=dict(env))
    pin(proc.pid, cpu)
    errors: list[BaseException] = []
    out: list[bytes] = []
    err: list[bytes] = []
    threads = [threading.Thread(target=_feed, args=(proc.stdin, view, errors), daemon=True),
               threading.Thread(target=_drain, args=(proc.stderr, True, err), daemon=True)]
    if capture:
        threads.append(threading.Thread(target=_drain, args=(proc.stdout, True, out),
                                        daemon=True))
    for t in threads:
        t.start()
    try:
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.0005)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return Timed(wall_s=wall, user_s=usage.ru_utime, sys_s=usage.ru_stime,
                 returncode=proc.returncode, stderr=b"".join(err).decode(errors="replace"),
                 stdout=b"".join(out) if capture else None)
