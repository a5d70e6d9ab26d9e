# SPDX-License-Identifier: GPL-3.0-or-later
"""The disk a backup goes to: ``--disk RATE`` (bytes per second) or ``--disk DIR``, measured by
writing incompressible bytes into that directory and waiting for them to reach the disk
(``fsync``); the file is removed on every way out."""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.scenarios.gpg.backup import Disk

#: Bytes written to measure a directory: past most write caches' first burst, a few seconds
#: on a slow disk.
PROBE_BYTES = 256 << 20
_CHUNK = 1 << 20
_DEC = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_BIN = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_rate(text: str) -> float | None:
    """``200MB/s``, ``1.5G``, ``800M``, ``100MiB/s`` -> bytes per second (k/M/G/T decimal,
    Ki/Mi/Gi binary; a bare number is bytes per second); None when it is not a rate."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?)\s*(B(?:/s)?|Bps|/s)?\s*", text)
    if not m or float(m.group(1)) <= 0 or (m.group(3) and not m.group(2)):
        return None
    scale = _BIN[m.group(2).lower()] if m.group(3) else _DEC[m.group(2).lower()]
    return float(m.group(1)) * scale


def check(text: str) -> None:
    """``--disk``'s value must name a directory or a rate: ``UsageError`` otherwise."""
    if not os.path.isdir(text) and parse_rate(text) is None:
        raise UsageError(f"--disk {text!r} is neither a directory nor a rate: use e.g. "
                         "200MB/s, 1.5GB/s, 100MiB/s, or the directory the backup goes to")


def measure(directory: Path, nbytes: int = PROBE_BYTES) -> Disk:
    """Write ``nbytes`` of random bytes into ``directory`` and ``fsync`` them: the rate the
    disk took them at. ``EnvironmentProblem`` when it cannot be written or lacks the space."""
    try:
        free = shutil.disk_usage(directory).free
    except OSError as e:
        raise EnvironmentProblem(f"--disk {directory}: {e.strerror or e}") from None
    if free < 2 * nbytes:
        raise EnvironmentProblem(f"--disk {directory}: {free >> 20} MiB free, the measurement "
                                 f"writes {nbytes >> 20} MiB: give a rate instead (--disk "
                                 "200MB/s)")
    chunk = os.urandom(_CHUNK)
    path = directory / f".cipherbench-disk-{os.getpid()}"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        raise EnvironmentProblem(f"--disk {directory}: cannot write there: "
                                 f"{e.strerror or e}") from None
    try:
        t0 = time.monotonic()
        left = nbytes
        while left > 0:
            left -= os.write(fd, chunk[:min(left, _CHUNK)])
        os.fsync(fd)
        seconds = time.monotonic() - t0
    except OSError as e:
        raise EnvironmentProblem(f"--disk {directory}: cannot write there: "
                                 f"{e.strerror or e}") from None
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    return Disk(nbytes / max(seconds, 1e-9),
                f"measured writing {nbytes >> 20} MiB into {directory}")
