"""The ssh sweep: every cipher (and MAC for non-AEAD ciphers) plus the cleartext baseline,
each repeated until its median throughput is stable (``cipherbench.stats.until_stable``).

**Check.** Before anything is timed, one short transfer (``VERIFY_BYTES``) of the cipher is
hashed on the far side and compared with what was sent: it proves the cipher works and the
data arrives intact. One check covers every MAC of the same cipher: a MAC never changes the
data (it adds a tag that the receiver checks, and a wrong tag ends the connection, which
fails the transfer), and every timed transfer also has the far side count what it received,
which must equal what was sent. The baseline has its own check.

**Time bound.** A timed sample sends ``--size`` bytes, or stops sending after
``SAMPLE_MAX_S`` seconds if that comes first and less than three quarters are sent (a slow
cipher, a slow link): one sample then lasts at most about 2 s instead of minutes. Throughput is bytes received over
the time until the far side has read them all, so the rows still compare; the bytes actually
sent are stored as the row's size and the table marks such rows.

A refused cipher becomes a ``refused`` outcome and the sweep goes on; a host-level failure
(``HostError``) ends it.
"""
from __future__ import annotations

import difflib
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from cipherbench import catalog, stats
from cipherbench.errors import UsageError
from cipherbench.scenarios.ssh import baseline as baseline_mod
from cipherbench.scenarios.ssh.errors import CipherRefused, SshError
from cipherbench.scenarios.ssh.transfer import Target, TransferSample, is_aead, transfer

#: MACs tried with each non-AEAD cipher unless ``--macs`` says otherwise: encrypt-then-MAC
#: with SHA-2, and UMAC (OpenSSH's own first choices).
DEFAULT_MACS = ("umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
                "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com")
#: Bytes of the integrity-checked transfer that precedes the timed ones.
VERIFY_BYTES = 4 << 20
#: Per-combination time budget for repetitions (seconds), and the samples taken while it
#: lasts before precision is judged (two are always taken).
DEFAULT_BUDGET_S = 2.0
MIN_SAMPLES = 3
#: Target half-width of the median's 95% confidence interval, relative to the median.
DEFAULT_PRECISION = 0.02
#: Seconds after which a timed sample stops sending (at the next 1 MiB boundary).
SAMPLE_MAX_S = 1.5

BASELINE = "cleartext-tcp"


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


@dataclass
class Outcome:
    """What came of one combination."""

    combo: Combo
    status: str                       # ok, refused, failed, unavailable
    message: str = ""
    stability: stats.Stability | None = None
    samples: list[TransferSample] = field(default_factory=list)
    verified: bool = False
    check: "Check | None" = None      # the integrity check that covers this combination
    requested_bytes: int = 0          # --size

    @property
    def sample_bytes(self) -> int:
        """Bytes per timed sample (the median when the time bound cut some short)."""
        return int(stats.median([s.nbytes for s in self.samples])) if self.samples else 0

    @property
    def cut(self) -> bool:
        """True if the time bound stopped any timed sample before ``--size``."""
        return any(s.nbytes < self.requested_bytes for s in self.samples)


@dataclass(frozen=True)
class Check:
    """A passed integrity check: which combination was hashed, and how fast it went."""

    combo: Combo
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
           offered_ciphers: list[str], offered_macs: list[str]) -> list[Combo]:
    """The combinations to run from ``--ciphers``/``--macs`` (``all`` = every MAC offered)."""
    ciphers = _pick(asked_ciphers, offered_ciphers, "cipher")
    if asked_macs and list(asked_macs) == ["all"]:
        macs = list(offered_macs)
    elif asked_macs:
        macs = _pick(asked_macs, offered_macs, "MAC")
    else:
        macs = [m for m in DEFAULT_MACS if m in offered_macs]
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


def measure(combo: Combo, sampler: Sampler, data: memoryview, *, precision: float,
            budget_s: float, min_samples: int = MIN_SAMPLES,
            verify_bytes: int = VERIFY_BYTES, checked: Check | None = None,
            max_sample_s: float | None = SAMPLE_MAX_S) -> Outcome:
    """Check once on a short prefix (unless ``checked`` already covers the cipher), then
    repeat timed transfers, each bounded by ``max_sample_s`` (None: always all of ``data``),
    until stable.

    Raises ``SshError`` subclasses marked ``fatal`` (the host is unusable); other failures
    become the outcome's status."""
    taken: list[TransferSample] = []
    size = len(data)

    def failed(err: Exception, **kw) -> Outcome:
        status = ("refused" if isinstance(err, CipherRefused) else
                  "unavailable" if isinstance(err, baseline_mod.BaselineUnavailable) else
                  "failed")
        return Outcome(combo, status, str(err), requested_bytes=size, **kw)

    if checked is None:
        try:
            probe = data[:min(verify_bytes, size)]
            s = sampler(probe, True, None)
            checked = Check(combo, len(probe), s.throughput)
        except SshError as err:
            if err.fatal:
                raise
            return failed(err)
        except baseline_mod.BaselineUnavailable as err:
            return failed(err)
    def one(_n: int) -> list[float]:
        s = sampler(data, False, max_sample_s or None)
        taken.append(s)
        return [s.throughput]

    try:
        # At least two samples whatever the budget (a spread needs two), ``min_samples`` while
        # the budget lasts; then ``until_stable`` adds more until the median is precise.
        t0 = time.monotonic()
        first: list[float] = []
        while len(first) < 2 or (len(first) < min_samples
                                 and time.monotonic() - t0 < budget_s):
            first += one(1)
        st = stats.until_stable(one, precision=precision, budget_s=budget_s, initial=first,
                                min_samples=min_samples, elapsed_s=time.monotonic() - t0)
    except SshError as err:
        if err.fatal:
            raise
        return failed(err, samples=taken, verified=True, check=checked)
    except baseline_mod.BaselineUnavailable as err:
        return failed(err, samples=taken, verified=True, check=checked)
    return Outcome(combo, "ok", "", st, taken, verified=True, check=checked,
                   requested_bytes=size)


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


def sweep(target: Target, combos: list[Combo], data: bytes | memoryview, *,
          precision: float = DEFAULT_PRECISION, budget_s: float = DEFAULT_BUDGET_S,
          min_samples: int = MIN_SAMPLES, with_baseline: bool = True,
          max_sample_s: float | None = SAMPLE_MAX_S,
          on_start: Callable[[Combo, int, int], None] | None = None,
          on_done: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Measure the baseline then every combination; ``on_done`` gets each outcome as soon as
    it is known (the CLI stores it at once). A fatal ``SshError`` propagates.

    A cipher's passed check is reused for its other MACs (see the module docstring)."""
    view = memoryview(data).cast("B")
    todo = ([Combo(BASELINE)] if with_baseline else []) + list(combos)
    outcomes: list[Outcome] = []
    checks: dict[str, Check] = {}
    for i, combo in enumerate(todo):
        if on_start:
            on_start(combo, i, len(todo))
        sampler = baseline_sampler(target) if combo.is_baseline else ssh_sampler(target, combo)
        t0 = time.monotonic()
        out = measure(combo, sampler, view, precision=precision, budget_s=budget_s,
                      min_samples=min_samples, checked=checks.get(combo.cipher),
                      max_sample_s=max_sample_s)
        out_elapsed = time.monotonic() - t0
        if out.stability is not None:
            out.stability.elapsed_s = out_elapsed
        if out.status == "ok" and out.check is not None and not combo.is_baseline:
            checks.setdefault(combo.cipher, out.check)
        outcomes.append(out)
        if on_done:
            on_done(out)
    return outcomes
