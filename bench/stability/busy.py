# SPDX-License-Identifier: GPL-3.0-or-later
"""A competing busy process for the benchmarks: a Python busy loop started in its own session
(setsid), so that with autogroup scheduling it counts as another user's work (nice would not
shield a measurement from it), and stopped by its process group id."""
import os
import signal
import subprocess
import sys

BUSY = "while True:\n    pass\n"


def start_busy() -> subprocess.Popen:
    """Starts the busy loop in a new session; returns its process."""
    return subprocess.Popen([sys.executable, "-c", BUSY], start_new_session=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def stop_busy(p) -> None:
    """Stops the busy loop started by start_busy (None: nothing to stop)."""
    if p is None or p.poll() is not None:
        return
    os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
