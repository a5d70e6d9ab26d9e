# SPDX-License-Identifier: GPL-3.0-or-later
"""The ssh sweep in randomized interleaved rounds (``scenarios.rounds``): each round sends one
sample through every candidate (a cipher, with its MAC for a non-AEAD cipher, through one tool:
``via.VIAS``) and through the cleartext baseline, in a new random order; rounds repeat
(``--rounds``, within ``--budget``). Whatever else the machine does then falls on every
candidate alike, and each round gives paired ratios (``tables``: against the client's default
cipher of the same tool and against the baseline).

**Check.** Before a cipher is timed through a tool, one short transfer (``VERIFY_BYTES``) is
hashed on the far side and compared with what was sent: it proves the cipher works and the
data arrives intact. One check covers every MAC of the same cipher and tool: a MAC never
changes the data (it adds a tag that the receiver checks, and a wrong tag ends the
connection, which fails the transfer), and every timed transfer also has the far side count
what it received, which must equal what was sent. The baseline has its own check.

**Time bound** (pipe and baseline). A timed sample sends ``--size`` bytes, or stops sending
after ``SAMPLE_MAX_S`` seconds if that comes first and less than three quarters are sent (a
slow cipher, a slow link): one sample then lasts at most about 2 s instead of minutes.
Throughput is bytes received over the time until the far side has read them all, so the rows
still compare; the bytes actually sent are stored with each sample and the table marks such
rows. The file tools always send the whole file.

A refused cipher leaves the later rounds (a ``Failure``) and the sweep goes on; a host-level
failure (``HostError``) ends it.
"""
from __future__ import annotations

import difflib
import random
import time
from dataclasses import dataclass
from typing import Callable, Sequence

from cipherbench import catalog
from cipherbench.analysis import verdict
from cipherbench.errors import UsageError
from cipherbench.scenarios.rounds import (PlannedStop, Round, Sequential, paired_ratios, rounds,
                                          samples_of, settled)
from cipherbench.scenarios.ssh import baseline as baseline_mod
from cipherbench.scenarios.ssh.errors import CipherRefused, SshError
from cipherbench.scenarios.ssh.transfer import Target, TransferSample, is_aead, transfer

#: MACs tried with each non-AEAD cipher unless ``--macs`` says otherwise: encrypt-then-MAC
#: with SHA-2, and UMAC (OpenSSH's own first choices).
DEFAULT_MACS = ("umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
                "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com")
#: Bytes of the integrity-checked transfer that precedes the timed ones.
VERIFY_BYTES = 4 << 20
#: Rounds by default: enough for a verdict that one disturbed round cannot decide.
DEFAULT_ROUNDS = verdict.RECOMMENDED_ROUNDS
#: Seconds after which a timed sample stops sending (at the next 1 MiB boundary).
SAMPLE_MAX_S = 1.5

BASELINE = "cleartext-tcp"
#: The ``op`` of the baseline's rows (the ciphers' ``op`` is their tool: ``via.VIAS``).
BASELINE_OP = "transfer"


@dataclass(frozen=True)
class Combo:
    """One thing to measure: an SSH cipher with its MAC (None for AEAD), or the baseline."""

    cipher: str
    mac: str | None = None

    @property
    def is_baseline(self) -> bool:
        """True for the cleartext TCP row."""
        return self.cipher == BASELINE

    @property
    def label(self) -> str:
        """How the progress bar and messages name it."""
        return self.cipher + (f" + {self.mac}" if self.mac else "")

    @property
    def algo(self) -> str:
        """The ``algo`` key in the store: ``cipher`` or ``cipher+mac``."""
        return self.cipher + (f"+{self.mac}" if self.mac else "")


@dataclass(frozen=True)
class Check:
    """A passed integrity check: which combination was hashed, and how fast it went."""

    cand: "Cand"
    nbytes: int
    throughput: float                 # bytes/s of the checked transfer


def _pick(asked: Sequence[str] | None, offered: list[str], what: str) -> list[str]:
    """Validate names against what ``ssh -Q`` offers; unknown names are a usage error."""
    if not asked:
        return list(offered)
    out: list[str] = []
    for name in asked:
        if name not in offered:
            close = difflib.get_close_matches(name, offered, n=2, cutoff=0.5)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise UsageError(f"unknown {what} {name!r}: this ssh offers "
                             f"{', '.join(offered)}{hint}")
        if name not in out:
            out.append(name)
    return out


def plan(ciphers: list[str], macs: list[str]) -> list[Combo]:
    """Every cipher; non-AEAD ciphers once per MAC, AEAD ciphers once (MAC implicit)."""
    combos: list[Combo] = []
    for c in ciphers:
        if is_aead(c):
            combos.append(Combo(c))
        else:
            combos.extend(Combo(c, m) for m in macs)
    return combos


def choose(asked_ciphers: Sequence[str] | None, asked_macs: Sequence[str] | None,
           offered_ciphers: list[str], offered_macs: list[str],
           client_ciphers: Sequence[str] = (), client_macs: Sequence[str] = ()) -> list[Combo]:
    """The combinations to run from ``--ciphers``/``--macs`` (``all``: every one ``ssh -Q``
    lists). By default the question is the user's own ssh: the ciphers its client offers
    (``client_ciphers``, from ``ssh -G``), and for a cipher without its own MAC the MAC that
    client offers first, the one ssh negotiates. When the client's lists are not known: every
    cipher, and the encrypt-then-MAC SHA-2 and UMAC ones (``DEFAULT_MACS``)."""
    if asked_ciphers and list(asked_ciphers) == ["all"]:
        ciphers = list(offered_ciphers)
    elif asked_ciphers:
        ciphers = _pick(asked_ciphers, offered_ciphers, "cipher")
    else:
        ciphers = [c for c in client_ciphers if c in offered_ciphers] or list(offered_ciphers)
    if asked_macs and list(asked_macs) == ["all"]:
        macs = list(offered_macs)
    elif asked_macs:
        macs = _pick(asked_macs, offered_macs, "MAC")
    else:
        macs = [m for m in client_macs if m in offered_macs][:1] or \
            [m for m in DEFAULT_MACS if m in offered_macs]
    return plan(ciphers, macs)


def _by_openssh_name() -> dict[str, catalog.Algorithm]:
    return {n: a for a in catalog.ALGORITHMS.values() for n in a.openssh}


def describe(combo: Combo) -> dict:
    """Catalog facts of a combination: canonical names and the grade (the weaker of the
    cipher's and the MAC's), with the reasons."""
    if combo.is_baseline:
        return {"grade": "reference", "grade_reason": "no encryption: the wire's ceiling"}
    names = _by_openssh_name()
    parts = [names.get(combo.cipher)] + ([names.get(combo.mac)] if combo.mac else [])
    info: dict = {"cipher": combo.cipher, "mac": combo.mac,
                  "cipher_algo": parts[0].name if parts[0] else None,
                  "mac_algo": (parts[1].name if len(parts) > 1 and parts[1] else None)}
    known = [p for p in parts if p is not None]
    if len(known) != len(parts):
        info.update(grade="unknown", grade_reason="not in the catalog", grade_reference="")
        return info
    worst = max(known, key=lambda a: catalog.GRADES.index(a.grade.level))
    info.update(grade=worst.grade.level, grade_reason=worst.grade.reason,
                grade_reference=worst.grade.reference)
    if combo.mac and not combo.mac.endswith("-etm@openssh.com"):
        info["note"] = "encrypt-and-MAC (the MAC covers the plaintext); prefer an -etm MAC"
    return info


#: ``sampler(data, verify, max_s)``: one transfer of ``data`` (hashed on the far side if
#: ``verify``; sending stops after ``max_s`` seconds unless it is None).
Sampler = Callable[[memoryview, bool, "float | None"], TransferSample]


@dataclass(frozen=True)
class Cand:
    """One candidate of the rounds: a combination through one tool (the baseline: ``tcp``)."""

    via: str
    combo: Combo

    @property
    def is_baseline(self) -> bool:
        return self.combo.is_baseline

    @property
    def op(self) -> str:
        """The ``op`` of its stored rows: the tool, or ``transfer`` for the baseline."""
        return BASELINE_OP if self.is_baseline else self.via

    @property
    def label(self) -> str:
        """How progress and messages name it."""
        if self.is_baseline or self.via == "pipe":
            return self.combo.label
        return f"{self.combo.label} via {self.via}"


def candidates(combos: Sequence[Combo], vias: Sequence[str], with_baseline: bool,
               file_combos: Sequence[Combo] | None = None) -> list[Cand]:
    """The baseline (once, whatever the tools), every combination through the pipe, and
    ``file_combos`` (default: the same) through every other tool."""
    out = [Cand("tcp", Combo(BASELINE))] if with_baseline else []
    return out + [Cand(v, c) for v in vias
                  for c in (combos if v == "pipe" or file_combos is None else file_combos)]


def one_mac_each(combos: Sequence[Combo]) -> list[Combo]:
    """Each cipher once, with the first of its MACs: what the file tools measure unless
    ``--macs`` is given (a MAC costs the same whichever program moves the bytes, and the
    pipe's table compares them)."""
    seen: set[str] = set()
    out = []
    for c in combos:
        if c.cipher not in seen:
            seen.add(c.cipher)
            out.append(c)
    return out


@dataclass(frozen=True)
class Failure:
    """A candidate left out of the later rounds: ``status`` is refused, failed or unavailable."""

    cand: Cand
    status: str
    message: str


@dataclass
class Swept:
    """What the rounds gave: every round (``Round.samples``: candidate -> TransferSample), the
    passed checks and the candidates that failed."""

    rounds: list[Round]
    checks: dict[tuple[str, str], Check]
    failures: list[Failure]


def sweep(cands: Sequence[Cand], sampler_for: Callable[[Cand], Sampler],
          data: bytes | bytearray | memoryview, *, n_rounds: int = DEFAULT_ROUNDS,
          rng: random.Random | None = None, budget_s: float | None = None,
          max_sample_s: float | None = SAMPLE_MAX_S, verify_bytes: int = VERIFY_BYTES,
          on_start: Callable[[Cand, int], None] | None = None,
          on_sample: Callable[[Cand, int, TransferSample, Check], None] | None = None,
          on_fail: Callable[[Failure], None] | None = None,
          default: Combo | None = None, precision: float = 0.02,
          clock: Callable[[], float] = time.monotonic) -> Swept:
    """Every candidate once per round in a new random order, ``n_rounds`` rounds; with
    ``budget_s`` (seconds per candidate) no new round starts once the rounds have spent
    ``budget_s`` x candidates, but not before a verdict's ``MIN_ROUNDS`` (or ``n_rounds`` if
    fewer were asked); at the planned looks of ``Sequential.within(n_rounds)`` they stop once
    every candidate is answered (``answered``: against the ``default`` combination through
    the same tool, or its rate known within ``precision``). ``on_sample`` gets each timed sample as soon as it is known (the
    scenario stores it at once); a candidate that fails is reported to ``on_fail`` and left
    out of the later rounds. A fatal ``SshError`` propagates."""
    view = memoryview(data).cast("B")
    probe = view[:min(verify_bytes, len(view))]
    checks: dict[tuple[str, str], Check] = {}
    failures: list[Failure] = []
    samplers = {c: sampler_for(c) for c in cands}

    def fail(c: Cand, err: Exception) -> None:
        status = ("refused" if isinstance(err, CipherRefused) else
                  "unavailable" if isinstance(err, baseline_mod.BaselineUnavailable) else
                  "failed")
        f = Failure(c, status, str(err))
        failures.append(f)
        if on_fail:
            on_fail(f)

    def one(c: Cand, i: int) -> TransferSample | None:
        if on_start:
            on_start(c, i)
        key = (c.via, c.combo.cipher)
        try:
            if key not in checks:
                s = samplers[c](probe, True, None)
                checks[key] = Check(c, len(probe), s.throughput)
            s = samplers[c](view, False, max_sample_s or None)
        except SshError as err:
            if err.fatal:
                raise
            fail(c, err)
            return None
        except baseline_mod.BaselineUnavailable as err:
            fail(c, err)
            return None
        if on_sample:
            on_sample(c, i, s, checks[key])
        return s

    seq = Sequential.within(n_rounds)
    stop = PlannedStop(seq, lambda done: answered(done, cands, default, seq, precision),
                       budget_s=None if budget_s is None else budget_s * len(cands),
                       min_rounds=min(n_rounds, verdict.MIN_ROUNDS), clock=clock)
    done = rounds(list(cands), one, n_rounds, rng or random.Random(), enough=stop)
    return Swept(done, checks, failures)


def answered(done: Sequence[Round], cands: Sequence[Cand], default: Combo | None,
             seq: Sequential, precision: float) -> bool:
    """At a look: every candidate's speed against the default combination through the same
    tool decided, or its rate known within ``precision`` (``rounds.settled``)."""
    for c in cands:
        rates = [s.throughput for s in samples_of(done, c)]
        if not rates:
            continue
        ref = Cand(c.via, default) if default is not None else None
        ratios = paired_ratios(done, c, ref, value=_rate) if ref in cands and ref != c else []
        if not settled(rates, ratios, seq, precision, is_reference=not ratios):
            return False
    return True


def _rate(s: TransferSample) -> float:
    return s.throughput


def ssh_sampler(target: Target, combo: Combo) -> Sampler:
    """One ssh transfer of the combination per call."""
    return lambda data, verify, max_s: transfer(target, combo.cipher, combo.mac, data,
                                                verify=verify, max_s=max_s)


def baseline_sampler(target: Target) -> Sampler:
    """One cleartext transfer per call: loopback receiver for the private server, socat/nc on
    the remote otherwise."""
    if target.private:
        return lambda data, verify, max_s: baseline_mod.loopback(data, verify=verify,
                                                                 max_s=max_s)
    return lambda data, verify, max_s: baseline_mod.remote(target, data, max_s=max_s)
