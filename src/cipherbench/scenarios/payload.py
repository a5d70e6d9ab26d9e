# SPDX-License-Identifier: GPL-3.0-or-later
"""The random payload a real-path scenario sends (tls's loopback, ssh, gpg): made in chunks
of a MiB (never one allocation of the whole size, nor a second copy of it), and a size the
machine cannot hold refused before anything starts, in one line naming the option.

The payload is held in memory (the programs are fed from it, so no disk speed is measured):
``copies`` says how many payload-sized buffers a scenario keeps at once (gpg: the message and
each candidate's ciphertext), and half of the memory the kernel says is available is the
most a run may take, so the rest of the machine keeps working.
"""
from __future__ import annotations

import os
from typing import Callable

from cipherbench.errors import EnvironmentProblem
from cipherbench.units import format_bytes

CHUNK = 1 << 20
#: The share of the available memory a run's payloads may take.
SHARE = 0.5


class PayloadTooLarge(EnvironmentProblem):
    """The size asked for does not fit in this machine's memory (exit 1)."""


def available_memory(meminfo: str = "/proc/meminfo") -> int | None:
    """Bytes the kernel says are available for new allocations (MemAvailable), or None."""
    try:
        with open(meminfo) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_fits(option: str, size: int, copies: int = 1,
               available: Callable[[], int | None] = available_memory) -> None:
    """``PayloadTooLarge`` when ``copies`` buffers of ``size`` bytes exceed the share of the
    available memory a run may take (nothing is checked where the kernel does not say)."""
    have = available()
    if have is None:
        return
    limit = int(have * SHARE)
    if size * copies > limit:
        most = limit // copies
        held = f" ({copies} copies of it are held at once)" if copies > 1 else ""
        raise PayloadTooLarge(
            f"{option} {format_bytes(size)} does not fit in this machine's memory{held}: "
            f"{format_bytes(have)} is available, so at most {format_bytes(most)} here; "
            f"lower {option}")


def random_payload(size: int, table: bytes | None = None) -> bytearray:
    """``size`` random bytes (incompressible, so compression could not flatter anyone), made
    a MiB at a time into one buffer; ``table`` (256 bytes) maps every byte, as
    ``bytes.translate`` does."""
    out = bytearray(size)
    view = memoryview(out)
    for off in range(0, size, CHUNK):
        chunk = os.urandom(min(CHUNK, size - off))
        view[off:off + len(chunk)] = chunk.translate(table) if table else chunk
    return out
