# SPDX-License-Identifier: GPL-3.0-or-later
"""The steady rate of a transfer: the middle half of the stream, in segments, by the far side.

A connection does not carry its first megabytes at the rate it carries the rest: channel
and TCP windows grow, the far side's session settles. Measured on a 2-vCPU VM over loopback
(docs/performance.md, "Stability of ssh"): the first 8 MiB took 90-140 ms with ChaCha20-
Poly1305, each later 8 MiB 20-40 ms; a 16 MiB transfer ran at about 90 MB/s and a 256 MiB one
at 270 MB/s. Timed whole, a sample of a few tens of MiB measures mostly that start, which is
the same for every cipher and varies from one connection to the next: it hides the
differences the benchmark is for.

So the far side reads a sample in parts: a warm-up quarter (``Parts.warm``), then the middle
half in ``Parts.count`` segments of ``Parts.seg`` bytes, and the rest; after the warm-up and
after each segment it says ``CB-MARK <bytes> <ns> <cpu>``: what that part counted, its own
clock (``date +%s%N``) and the sshd's CPU time. Each segment is thus timed by the far side's
clock (a mark that waits behind the stream on its way back does not shorten it; a far side
whose ``date`` has no nanoseconds is timed by the marks' arrival here) and costed by both ends'
CPU (this side's as the writing passes the same offsets).

Why the middle and not everything after the warm-up: data that crossed the link before a
mark may still wait in the far side's buffers (when its decryption is the narrow part), and
it is read after the mark. Timed to the end, that backlog is counted without its time: over
a shaped 100 Mbit/s link a slow cipher's rate came out above the link's (3des-cbc 13.7 MB/s
against 12.0 for the cleartext path). Marks in the middle all find the pipeline in the same
steady state; the drain at the end is outside the figure.

Why segments, and their median: the sshd's CPU per byte is not steady through a transfer.
Most 2 MiB segments of a ChaCha20-Poly1305 stream cost it 1.6-2.0 ns/B, single ones 3-12
(the far side woken for each small arrival while the sending side waited for a CPU, on a
loaded 2-vCPU VM); summed over the middle half, those few segments moved a sample's cost by
up to 3x and hid a 1.5x difference between ciphers. That noise only ever adds, so a sample's
figure is the median segment: its rate (``Steady.seconds`` is the middle's bytes at that
rate) and each end's CPU per byte. A sample whose data ended before two segments were read
whole (a time bound cut it) is timed whole.

``head -c`` of some systems (busybox, BSD) reads ahead of what it passes on through stdio's
buffer; those bytes are in no count. The count check therefore accepts up to ``READAHEAD``
missing bytes per ``head`` that read its part whole; a segment's count is still exact: it is
what ``head`` passed on.

Pure: no process, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench.analysis import stats

#: Below this many bytes a sample is timed whole (too short for a part to be steady).
MIN_BYTES = 4 << 20
#: Bytes ``head -c`` may read ahead of what it passes on (stdio buffers are 4-64 KiB).
READAHEAD = 1 << 20
#: Segments of the middle half at most, and the fewest bytes one has (at least 2 segments).
SEGMENTS, MIN_SEGMENT = 8, 4 << 20
#: Whether timed samples are split (tests set it either way).
ON = True
#: What a stored sample's figure is (``extra["figure"]``).
STEADY, WHOLE = "steady", "whole"

_ALIGN = (64 << 10) - 1


@dataclass(frozen=True)
class Parts:
    """Where the far side marks a sample: after ``warm`` bytes, then after each of ``count``
    segments of ``seg`` bytes (all 0: the sample is timed whole)."""

    warm: int = 0
    seg: int = 0
    count: int = 0

    @property
    def split(self) -> bool:
        return self.warm > 0 and self.seg > 0 and self.count >= 2

    @property
    def sizes(self) -> tuple[int, ...]:
        """The bytes of each marked part: the warm-up, then the segments."""
        return (self.warm,) + (self.seg,) * self.count if self.split else ()

    @property
    def offsets(self) -> tuple[int, ...]:
        """The stream offsets of the marks."""
        out, at = [], 0
        for n in self.sizes:
            at += n
            out.append(at)
        return tuple(out)


WHOLE_SAMPLE = Parts()


def parts(n: int, on: bool | None = None) -> Parts:
    """The parts of an ``n``-byte sample: a quarter, then the half in segments of at least
    ``MIN_SEGMENT`` (2-``SEGMENTS`` of them), in whole 64 KiB; timed whole below
    ``MIN_BYTES`` and while ``ON`` (or ``on`` when given) is false."""
    if n < MIN_BYTES or not (ON if on is None else on):
        return WHOLE_SAMPLE
    count = max(2, min(SEGMENTS, (n // 2) // MIN_SEGMENT))
    return Parts(warm=(n // 4) & ~_ALIGN, seg=(n // 2 // count) & ~_ALIGN, count=count)


def sink_script(p: Parts, mark: str = "") -> str:
    """POSIX sh that reads stdin to its end: each part of ``p``, then ``CB-MARK <n> <ns>
    <mark>`` after it; then the rest and ``CB-COUNT <n>`` (timed whole: just ``CB-COUNT``).
    ``mark`` is more sh words for the mark lines (e.g. a CPU reading). Counts unquoted: some
    ``wc`` pad them."""
    if not p.split:
        return "n=$(wc -c); echo CB-COUNT $n"
    say = f"echo CB-MARK $m $(date +%s%N) {mark}".rstrip()
    return "\n".join([
        f"m=$(head -c {p.warm} | wc -c); {say}",
        "i=0",
        f"while [ $i -lt {p.count} ]; do",
        f"  m=$(head -c {p.seg} | wc -c); {say}; i=$((i + 1))",
        "done",
        "n=$(wc -c); echo CB-COUNT $n",
    ])


def far_ns(word: str | None) -> int | None:
    """A mark's clock: nanoseconds, or None where ``date`` has no ``%N``."""
    return int(word) if word and word.isdigit() and len(word) >= 16 else None


@dataclass(frozen=True)
class Mark:
    """One ``CB-MARK``: what its part counted, the far side's clock (ns, None without), when
    it arrived here (s), and each end's CPU time then (s; None where not read)."""

    count: int | None
    far_ns: int | None
    here: float
    server_cpu: float | None = None
    client_cpu: float | None = None


def count_of(words: list[str]) -> int | None:
    """The byte count of a ``CB-MARK`` or ``CB-COUNT`` line (its second word)."""
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else None


def mark_of(words: list[str], here: float, server_cpu: float | None = None,
            client_cpu: float | None = None) -> Mark:
    """The ``Mark`` of a ``CB-MARK <bytes> <ns> ...`` line that arrived at ``here``."""
    return Mark(count_of(words), far_ns(words[2] if len(words) > 2 else None), here,
                server_cpu, client_cpu)


def received(counts: list[int | None], rest: int | None) -> int | None:
    """All the far side counted (for the error when not everything arrived)."""
    return None if rest is None else sum(c or 0 for c in counts) + rest


def arrived(sent: int, p: Parts, counts: list[int | None], rest: int | None) -> bool:
    """Did everything sent arrive? Exactly, or short by what each ``head`` that read its
    part whole may have read ahead."""
    known = [c for c in counts if c is not None]
    if rest is None or len(known) != len(counts):
        return False
    total = sum(known) + rest
    if total == sent:
        return True
    whole = sum(1 for c, want in zip(counts, p.sizes) if c == want)
    return whole > 0 and sent - whole * READAHEAD <= total < sent


@dataclass(frozen=True)
class Steady:
    """A sample's figure from its middle half: ``nbytes`` (the whole segments') and
    ``seconds`` (their bytes at the median segment's rate), each end's CPU seconds at its
    median segment's cost per byte (None where a reading is missing), and how many segments."""

    nbytes: int
    seconds: float
    server_cpu_s: float | None = None
    client_cpu_s: float | None = None
    segments: int = 0

    @property
    def rate(self) -> float:
        return self.nbytes / self.seconds if self.seconds > 0 else 0.0


def steady(p: Parts, marks: list[Mark]) -> Steady | None:
    """The figure of the middle half, or None when the sample must be taken whole: no parts
    asked, a mark missing, or fewer than two segments read whole (a time bound cut the data).
    Segments are timed by the far side's clock when every mark has it, else by the marks'
    arrival here."""
    counts = [m.count for m in marks if m.count is not None]
    if not p.split or len(marks) < 3 or len(counts) != len(marks):
        return None
    if counts[0] < p.warm:
        return None
    far_ns = [m.far_ns for m in marks if m.far_ns is not None]
    far = len(far_ns) == len(marks)
    segs: list[tuple[Mark, Mark, int, float]] = []   # its start, its end, bytes, seconds
    for i, want in zip(range(len(marks) - 1), p.sizes[1:]):
        a, b, count = marks[i], marks[i + 1], counts[i + 1]
        if count < want:
            break       # the data ended inside it
        secs = (far_ns[i + 1] - far_ns[i]) / 1e9 if far else b.here - a.here
        if secs <= 0:
            return None
        segs.append((a, b, count, secs))
    if len(segs) < 2:
        return None
    nbytes = sum(count for _, _, count, _ in segs)
    rate = stats.median([count / secs for _, _, count, secs in segs])
    return Steady(nbytes, nbytes / rate, _median_cost(segs, "server_cpu", nbytes),
                  _median_cost(segs, "client_cpu", nbytes), len(segs))


def _median_cost(segs: list[tuple[Mark, Mark, int, float]], end: str, nbytes: int
                 ) -> float | None:
    """One end's CPU seconds for ``nbytes`` at its median segment's cost per byte."""
    per_byte = []
    for a, b, count, _ in segs:
        c0, c1 = getattr(a, end), getattr(b, end)
        if c0 is None or c1 is None:
            return None
        per_byte.append((c1 - c0) / count)
    return stats.median(per_byte) * nbytes
