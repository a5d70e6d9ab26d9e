"""The steady rate of a transfer: the middle half of the stream over the time it took.

A connection does not carry its first megabytes at the rate it carries the rest: channel
and TCP windows grow, the far side's session settles. Measured on a 2-vCPU VM over loopback
(docs/performance.md, "Stability of ssh"): the first 8 MiB took 90-140 ms with ChaCha20-
Poly1305, each later 8 MiB 20-40 ms; a 16 MiB transfer ran at about 90 MB/s and a 256 MiB one
at 270 MB/s. Timed whole, a sample of a few tens of MiB measures mostly that start, which is
the same for every cipher and varies from one connection to the next: it hides the
differences the benchmark is for.

So the far side reads a sample in three parts: a warm-up quarter (``warm_bytes(n)``), after
which it says ``CB-WARM``; the middle half (``mid_bytes(n)``), counted, after which it says
``CB-MID``; and the rest, counted, after which it says ``CB-COUNT``. The figure is the middle
half's bytes over the time between the two marks, as the far side's own clock gives it
(``date +%s%N`` after each part: ``CB-T0``, ``CB-T1``), so a mark that waits behind the stream
on its way back does not shorten it; a far side whose ``date`` has no nanoseconds is timed
by the marks' arrival here instead.

Why the middle and not everything after the warm-up: data that crossed the link before a
mark may still wait in the far side's buffers (when its decryption is the narrow part), and
it is read after the mark. Timed to the end, that backlog is counted without its time: over
a shaped 100 Mbit/s link a slow cipher's rate came out above the link's (3des-cbc 13.7 MB/s
against 12.0 for the cleartext path). Both marks of the middle half find the pipeline in the
same steady state, so the backlog behind one is matched by the backlog behind the other;
the drain at the end is outside the figure. A sample whose data ended before the middle
half was read whole (a time bound cut it) is timed whole.

``head -c`` of some systems (busybox, BSD) reads ahead of what it passes on through stdio's
buffer; those bytes are in no count. The count check therefore accepts up to ``READAHEAD``
missing bytes per ``head`` when its part was read whole; the middle half's count is still
exact: it is what ``head`` passed on.

Pure: no process, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Below this many bytes a sample is timed whole (too short for a part to be steady).
MIN_BYTES = 4 << 20
#: Bytes ``head -c`` may read ahead of what it passes on (stdio buffers are 4-64 KiB).
READAHEAD = 1 << 20
#: Whether timed samples are split (tests set it either way).
ON = True
#: What a stored sample's figure is (``extra["figure"]``).
STEADY, WHOLE = "steady", "whole"

_ALIGN = (64 << 10) - 1


@dataclass(frozen=True)
class Parts:
    """Where the far side marks a sample: after ``warm`` bytes, then after ``mid`` more (both
    0: the sample is timed whole)."""

    warm: int = 0
    mid: int = 0

    @property
    def split(self) -> bool:
        return self.warm > 0 and self.mid > 0


WHOLE_SAMPLE = Parts()


def parts(n: int, on: bool | None = None) -> Parts:
    """The parts of an ``n``-byte sample: a quarter, then a half, in whole 64 KiB; timed
    whole below ``MIN_BYTES`` and while ``ON`` (or ``on`` when given) is false."""
    if n < MIN_BYTES or not (ON if on is None else on):
        return WHOLE_SAMPLE
    return Parts(warm=(n // 4) & ~_ALIGN, mid=(n // 2) & ~_ALIGN)


def sink_script(p: Parts, mark: str = "") -> str:
    """POSIX sh that reads stdin to its end: ``p.warm`` bytes, then ``CB-WARM <n> <mark>`` and
    ``CB-T0 <ns>``; ``p.mid`` bytes, then ``CB-MID <n> <mark>`` and ``CB-T1 <ns>``; the rest,
    then ``CB-COUNT <n>`` (timed whole: just ``CB-COUNT``). ``mark`` is more sh words for the
    mark lines (e.g. a CPU reading). Counts unquoted: some ``wc`` pad them."""
    if not p.split:
        return "n=$(wc -c); echo CB-COUNT $n"
    return "\n".join([
        f"w=$(head -c {p.warm} | wc -c); t0=$(date +%s%N); echo CB-WARM $w {mark}".rstrip(),
        "echo CB-T0 $t0",
        f"m=$(head -c {p.mid} | wc -c); t1=$(date +%s%N); echo CB-MID $m {mark}".rstrip(),
        "echo CB-T1 $t1",
        "n=$(wc -c); echo CB-COUNT $n",
    ])


def far_ns(word: str | None) -> int | None:
    """A ``CB-T0``/``CB-T1`` value: nanoseconds, or None where ``date`` has no ``%N``."""
    return int(word) if word and word.isdigit() and len(word) >= 16 else None


@dataclass(frozen=True)
class Counts:
    """What the far side counted in each part (None: it did not say)."""

    warm: int | None = None
    mid: int | None = None
    rest: int | None = None

    @property
    def total(self) -> int | None:
        if self.rest is None:
            return None
        return (self.warm or 0) + (self.mid or 0) + self.rest


def arrived(sent: int, p: Parts, got: Counts) -> bool:
    """Did everything sent arrive? Exactly, or short by what each ``head`` that read its
    part whole may have read ahead."""
    total = got.total
    if total is None:
        return False
    if total == sent:
        return True
    if not p.split:
        return False
    heads = (got.warm == p.warm) + (got.mid == p.mid)
    return sent - heads * READAHEAD <= total < sent


@dataclass(frozen=True)
class Steady:
    """The middle part of a sample: bytes and seconds."""

    nbytes: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.nbytes / self.seconds if self.seconds > 0 else 0.0


def steady(p: Parts, got: Counts, here: tuple[float | None, float | None],
           far: tuple[int | None, int | None] = (None, None)) -> Steady | None:
    """The middle part, or None when the sample must be taken whole: no parts asked, a mark
    missing, or the data ended before the middle part was read whole (a time bound). Its
    time is the far side's (``far``: nanoseconds at each mark) when it gave both, else the
    marks' arrival here (``here``, seconds)."""
    if not p.split or got.warm is None or got.mid is None:
        return None
    if got.warm < p.warm or got.warm + got.mid < p.warm + p.mid or got.mid <= 0:
        return None
    t0, t1 = far
    if t0 is not None and t1 is not None and t1 > t0:
        return Steady(got.mid, (t1 - t0) / 1e9)
    h0, h1 = here
    if h0 is not None and h1 is not None and h1 > h0:
        return Steady(got.mid, h1 - h0)
    return None
