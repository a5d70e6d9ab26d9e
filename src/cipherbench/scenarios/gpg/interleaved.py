# SPDX-License-Identifier: GPL-3.0-or-later
"""gpg and age in randomized interleaved rounds (``scenarios.rounds``): each round runs every
candidate's operations once (one whole program call each, on the same bytes), in a new random
order, so a slow moment of the machine falls on every cipher alike; rounds repeat until a
planned look finds every figure precise or every ratio to the default decided
(``rounds.PlannedStop``, the rule of every comparing command), or the budget is spent.

A *slot* is one call a round makes: a candidate, an operation, and the message (the data, or
the empty message whose encryption is the fixed cost of a run). Every candidate is first
checked end to end (encrypt, decrypt, compare); one that fails is never timed. A call that
fails later takes its candidate out of the later rounds, with the reason.
"""
from __future__ import annotations

import random
import re
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, Sequence

from cipherbench.analysis import verdict as V
from cipherbench.scenarios.gpg import figure as F
from cipherbench.scenarios.gpg.process import Timed, run_timed
from cipherbench.scenarios.gpg.candidates import (AgeTool, Candidate, CandidateFailed, GpgTool,
                                                  _first_line, round_trip)
from cipherbench.scenarios.rounds import PlannedStop, Round, Sequential, rounds, settled

#: The OpenPGP symmetric algorithm numbers (RFC 4880 section 9.2, RFC 5581 for Camellia) as
#: gpg's --cipher-algo names: how the cipher of gpg's own default is read from its output.
OPENPGP_CIPHERS = {1: "IDEA", 2: "3DES", 3: "CAST5", 4: "BLOWFISH", 7: "AES", 8: "AES192",
                   9: "AES256", 10: "TWOFISH", 11: "CAMELLIA128", 12: "CAMELLIA192",
                   13: "CAMELLIA256"}
#: gpg's documented default for --symmetric when it cannot be asked (--s2k-cipher-algo).
FALLBACK_DEFAULT = "AES"


@dataclass(frozen=True)
class Slot:
    """One call of a round: ``size`` is the message's bytes (0: the empty message). ``twin``
    tells apart the same candidate entered twice (the A/A test of bench/stability)."""

    cand: Candidate
    op: str
    size: int
    twin: int = 0

    @property
    def label(self) -> str:
        what = "age" if self.cand.tool == "age" else f"gpg {self.cand.algo}"
        twin = f" #{self.twin + 1}" if self.twin else ""
        return f"{what}{twin} {self.op}" + (" (empty)" if self.size == 0 else "")


@dataclass(frozen=True)
class Call:
    """One timed call: wall and CPU seconds of the program."""

    wall_s: float
    cpu_s: float


@dataclass
class RoundsOutcome:
    """Every round's calls, and the candidates that failed with why."""

    done: list[Round[Slot, Call]] = field(default_factory=list)
    failed: dict[Candidate, str] = field(default_factory=dict)

    def walls(self, slot: Slot) -> tuple[list[int], list[float]]:
        """(round indexes, wall seconds) of one slot, in round order."""
        got = [(r.index, r.samples[slot].wall_s) for r in self.done if slot in r.samples]
        return [i for i, _ in got], [w for _, w in got]

    def cpus(self, slot: Slot) -> list[float]:
        return [r.samples[slot].cpu_s for r in self.done if slot in r.samples]

    def figure(self, slot: Slot) -> F.CallFigure | None:
        """The robust figure of a slot's calls (``figure.call_figure``); None: no call."""
        _, walls = self.walls(slot)
        return F.call_figure(walls, self.cpus(slot)) if walls else None

    def per_round(self, slot: Slot) -> dict[int, float]:
        """Round index -> the per-call figure (CPU time) of every round that measured it."""
        at, walls = self.walls(slot)
        return F.per_round(at, walls, self.cpus(slot))


class Calls(Protocol):
    """Where the calls run: ``check`` a candidate end to end once (``CandidateFailed`` or
    ``OSError`` when it fails), then ``call`` one slot, timed (``OSError`` when the program
    cannot run). This machine's are ``LocalCalls``; a host's, ``on_host.HostGpg``."""

    def check(self, cand: Candidate) -> None: ...

    def call(self, slot: Slot) -> Timed: ...


class LocalCalls:
    """Calls on this machine: the data held in memory and fed through a pipe (``run_timed``:
    the program's own CPU time from wait4), each candidate's ciphertext from its check kept
    for its decryptions."""

    def __init__(self, tools: Mapping[str, GpgTool | AgeTool], data: bytes | bytearray,
                 env: Mapping[str, str], cpu: int | None = None):
        self.tools, self.data, self.env, self.cpu = tools, data, env, cpu
        self.ciphertext: dict[Candidate, bytes] = {}

    def check(self, cand: Candidate) -> None:
        self.ciphertext[cand] = round_trip(self.tools[cand.tool], cand.algo, self.data,
                                           self.env)

    def call(self, slot: Slot) -> Timed:
        tool = self.tools[slot.cand.tool]
        if slot.op == "encrypt":
            argv, payload = tool.encrypt(slot.cand.algo), (self.data if slot.size else b"")
        else:
            argv, payload = tool.decrypt(slot.cand.algo), self.ciphertext[slot.cand]
        return run_timed(argv, payload, self.env, cpu=self.cpu)


def slots_for(cands: Sequence[Candidate], ops: Sequence[str], size: int,
              fixed_cost: bool = True) -> list[Slot]:
    """Each candidate's operations on the data, and (``fixed_cost``, with encryption asked)
    its encryption of the empty message."""
    out = [Slot(c, op, size) for c in cands for op in ops]
    if fixed_cost and "encrypt" in ops:
        out += [Slot(c, "encrypt", 0) for c in cands]
    return out


def paired(outcome: RoundsOutcome, base: Slot, other: Slot) -> V.PairedRatio | None:
    """Speed of ``other`` against ``base`` per round (time of base / time of other, each the
    per-call figure: CPU time), over the rounds that measured both; None when none did."""
    a, b = outcome.per_round(base), outcome.per_round(other)
    both = sorted(set(a) & set(b))
    if not both:
        return None
    return V.paired_ratio([a[i] for i in both], [b[i] for i in both])


def answered(outcome: RoundsOutcome, slots: Sequence[Slot], base: Mapping[str, Slot],
             seq: Sequential, precision: float) -> bool:
    """At a look: every slot's per-round figure precise, or (a data slot beside the default
    of its operation) its paired ratio to the default decided (``rounds.settled``). A
    ``precision`` of 0 is never met: the rounds then run to the last look or the budget."""
    if precision <= 0:
        return False
    for s in slots:
        values = list(outcome.per_round(s).values())
        if not values:
            continue
        b = base.get(s.op)
        pr = paired(outcome, b, s) if s.size and b is not None and b != s else None
        if not settled(values, pr.ratios if pr else (), seq, precision,
                       is_reference=pr is None):
            return False
    return True


def measure_in_rounds(tools: Mapping[str, GpgTool | AgeTool], slots: Sequence[Slot], data: bytes | bytearray,
                      env: Mapping[str, str], *, n_rounds: int, rng: random.Random,
                      budget_s: float, precision: float, base: Mapping[str, Slot] | None = None,
                      min_rounds: int = V.MIN_ROUNDS, cpu: int | None = None,
                      on_call: Callable[[Slot], None] | None = None,
                      clock: Callable[[], float] = time.monotonic,
                      out: RoundsOutcome | None = None,
                      calls: Calls | None = None) -> RoundsOutcome:
    """Check every candidate, then measure ``slots`` in up to ``n_rounds`` rounds: after
    ``min_rounds``, stop once ``budget_s`` is spent, or at a planned look (``Sequential.within``
    ``n_rounds``) once every slot is ``answered``.
    ``tools`` maps a candidate's tool ("gpg", "age") to its argument vectors. ``out`` (made
    here when not given) holds every call as it finishes, so a caller stopped by a signal
    still has the rounds measured so far. ``calls`` runs them (default: ``LocalCalls`` of
    ``tools``, ``data`` and ``env`` on this machine)."""
    out = out if out is not None else RoundsOutcome()
    calls = calls if calls is not None else LocalCalls(tools, data, env, cpu)
    for cand in dict.fromkeys(s.cand for s in slots):
        try:
            calls.check(cand)
        except (CandidateFailed, OSError) as e:
            out.failed[cand] = str(e)
    live = [s for s in slots if s.cand not in out.failed]
    if not live:
        return out

    def one(slot: Slot, index: int) -> Call | None:
        if slot.cand in out.failed:
            return None
        try:
            t = calls.call(slot)
        except OSError as e:
            out.failed[slot.cand] = f"{slot.op} could not run: {e.strerror or e}"
            return None
        if t.returncode != 0:
            out.failed[slot.cand] = (f"{slot.op} failed (exit {t.returncode}): "
                                     + _first_line(t.stderr, "no message"))
            return None
        call = Call(t.wall_s, t.cpu_s)
        if not out.done or out.done[-1].index != index:
            out.done.append(Round(index, []))
        out.done[-1].order.append(slot)
        out.done[-1].samples[slot] = call
        if on_call:
            on_call(slot)
        return call

    seq = Sequential.within(n_rounds)
    stop = PlannedStop(seq, lambda done: answered(out, live, base or {}, seq, precision),
                       budget_s=budget_s, min_rounds=min_rounds, clock=clock)
    out.done = rounds(live, one, n_rounds, rng, enough=stop)
    return out


def default_cipher(gpg: str, gpg_args: Sequence[str], env: Mapping[str, str]) -> str:
    """The cipher gpg itself chooses for ``--symmetric`` without ``--cipher-algo``: a few bytes
    encrypted that way, and the algorithm number of the packet it wrote (``--list-packets``).
    Falls back on gpg's documented default when it cannot be read."""
    try:
        enc = subprocess.run([gpg, *gpg_args, "--symmetric", "--output", "-"], input=b"x",
                             env=dict(env), capture_output=True, timeout=60, check=False)
        listed = subprocess.run([gpg, *gpg_args, "--list-packets"], input=enc.stdout,
                                env=dict(env), capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return FALLBACK_DEFAULT
    return cipher_of_packets(listed.stdout.decode(errors="replace"))


def cipher_of_packets(listed: str) -> str:
    """The cipher of the first symmetric-key packet in ``gpg --list-packets`` output (gpg's
    documented default when there is none)."""
    m = re.search(r"symkey enc packet: version \d+, cipher (\d+)", listed)
    return OPENPGP_CIPHERS.get(int(m.group(1)), FALLBACK_DEFAULT) if m else FALLBACK_DEFAULT
