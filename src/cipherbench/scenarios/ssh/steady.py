"""The steady rate of a transfer: the bytes after a warm-up part over the time they took.

A connection does not carry its first megabytes at the rate it carries the rest: channel
and TCP windows grow, the far side's session settles. Measured on a 2-vCPU VM over loopback
(docs/performance.md, "Stability of ssh"): the first 8 MiB took 90-140 ms with ChaCha20-
Poly1305, each later 8 MiB 20-40 ms; a 16 MiB transfer ran at about 90 MB/s and a 256 MiB one
at 270 MB/s. Timed whole, a sample of a few tens of MiB measures mostly that start, which is
the same for every cipher and varies from one connection to the next: it hides the
differences the benchmark is for. So the far side splits what it reads: a first part of
``warm_bytes(n)`` bytes, after which it says ``CB-WARM``, and the rest, counted, after which
it says ``CB-COUNT``. The figure is the rest's bytes over the time between the two marks, as
the far side's own clock gives it (``date +%s%N`` after each part: ``CB-T0``, ``CB-T1``), so a
mark that waits behind the stream on its way back does not shorten it; a far side whose
``date`` has no nanoseconds is timed by the marks' arrival here instead. A time bound that cut the
sample before enough of the rest was sent leaves it a whole-transfer figure.

``head -c`` of some systems (busybox, BSD) reads ahead of what it passes on through stdio's
buffer; those bytes are not in either count. The count check therefore accepts up to
``READAHEAD`` missing bytes when the first part was read whole, and the rest's count is
still exact: it is what arrived after the mark.

**Off for now** (``ON``): over a shaped 100 Mbit/s link on Debian 13 a slow cipher's steady
rate came out above the link (3des-cbc 13.7 MB/s against 12.0 for the cleartext path): when
the far side's decryption is the narrow part, data that crossed the link before the mark
still waits in its buffers and is counted in the rest. Timing the middle of the stream
between two marks that both find the pipeline full would not count it; until then samples
are timed whole. The parts stay tested with ``ON`` set.

Pure: no process, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Below this many bytes a sample is timed whole (too short for a part to be steady).
MIN_BYTES = 4 << 20
#: Bytes ``head -c`` may read ahead of what it passes on (stdio buffers are 4-64 KiB).
READAHEAD = 1 << 20
#: Whether timed samples are split (see the module's last paragraph).
ON = False
#: What a stored sample's figure is (``extra["figure"]``).
STEADY, WHOLE = "steady", "whole"


def warm_bytes(n: int, on: bool | None = None) -> int:
    """The warm-up part of an ``n``-byte sample: a quarter, in whole 64 KiB (0: timed whole,
    also while ``ON``, or ``on`` when given, is false)."""
    if n < MIN_BYTES or not (ON if on is None else on):
        return 0
    return (n // 4) & ~((64 << 10) - 1)


def sink_script(warm: int, mark: str = "") -> str:
    """POSIX sh that reads stdin to its end: ``warm`` bytes, then ``CB-WARM <n> <mark>`` and
    ``CB-T0 <ns>``, then the rest, then ``CB-T1 <ns>`` and ``CB-COUNT <n>`` (without ``warm``:
    just ``CB-COUNT``). ``mark`` is more sh words for the first line (e.g. a CPU reading).
    Counts unquoted: some ``wc`` pad them."""
    if warm <= 0:
        return "n=$(wc -c); echo CB-COUNT $n"
    return "\n".join([
        f"w=$(head -c {warm} | wc -c); t0=$(date +%s%N); echo CB-WARM $w {mark}".rstrip(),
        "echo CB-T0 $t0",
        "n=$(wc -c); echo CB-T1 $(date +%s%N); echo CB-COUNT $n",
    ])


def far_ns(word: str | None) -> int | None:
    """A ``CB-T0``/``CB-T1`` value: nanoseconds, or None where ``date`` has no ``%N``."""
    return int(word) if word and word.isdigit() and len(word) >= 16 else None


def arrived(sent: int, warm_count: int | None, rest: int | None, warm: int) -> bool:
    """Did everything sent arrive? Exactly, or short by what ``head`` may read ahead."""
    if rest is None:
        return False
    if warm <= 0 or warm_count is None:
        return rest == sent
    got = warm_count + rest
    if got == sent:
        return True
    return warm_count == warm and sent - READAHEAD <= got < sent


@dataclass(frozen=True)
class Steady:
    """The part of a sample after its warm-up: bytes and seconds."""

    nbytes: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.nbytes / self.seconds if self.seconds > 0 else 0.0


def steady(warm: int, warm_count: int | None, rest: int | None,
           t_warm: float | None, t_end: float,
           far: tuple[int | None, int | None] = (None, None)) -> Steady | None:
    """The steady part, or None when the sample must be taken whole: no warm-up asked, the
    first part cut short (the data ended within it), or a rest smaller than half the
    warm-up (a time bound stopped the sending early). Its time is the far side's (``far``:
    nanoseconds after each part) when it gave both, else the marks' arrival here."""
    if warm <= 0 or warm_count is None or rest is None or t_warm is None:
        return None
    if warm_count < warm or rest < warm // 2 or t_end <= t_warm:
        return None
    t0, t1 = far
    if t0 is not None and t1 is not None and t1 > t0:
        return Steady(rest, (t1 - t0) / 1e9)
    return Steady(rest, t_end - t_warm)
