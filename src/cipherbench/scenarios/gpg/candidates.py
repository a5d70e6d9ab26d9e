# SPDX-License-Identifier: GPL-3.0-or-later
"""Measure real backup encryption: ``gpg --symmetric`` per cipher algorithm and ``age``, each
encrypting and decrypting the same bytes held in memory, repeated until the median is stable.

Every candidate is first checked end to end (encrypt, decrypt, compare with the original);
one that fails is reported and never timed. Results are handed to ``on_result`` as they
arrive so the caller can store them at once.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from cipherbench.analysis import stats
from cipherbench.scenarios.payload import random_payload
from cipherbench.scenarios.gpg.home import GpgHome
from cipherbench.scenarios.gpg.process import Timed, run_timed
from cipherbench.scenarios.gpg.programs import ALLOW_OLD_CIPHERS, OLD_CIPHERS, gpg_knows


#: Seconds at most for the empty-message runs that give a run's fixed cost.
FIXED_COST_BUDGET_S = 1.0


@dataclass(frozen=True)
class Candidate:
    """One thing to measure: ``tool`` is "gpg" or "age"; ``algo`` is gpg's --cipher-algo name
    (or "chacha20-poly1305" for age)."""

    tool: str
    algo: str


@dataclass
class Measured:
    """The outcome of one candidate and operation ("encrypt" or "decrypt")."""

    candidate: Candidate
    op: str
    size: int
    stability: stats.Stability | None = None
    cpu_s: list[float] = field(default_factory=list)
    error: str | None = None

    @property
    def throughput(self) -> float | None:
        """Bytes per second at the median wall time."""
        if self.stability is None:
            return None
        return self.size / self.stability.summary.median


class CandidateFailed(Exception):
    """A candidate could not run or did not round-trip; the message says why, in one line."""


def _first_line(text: str, fallback: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else fallback


class GpgTool:
    """Argument vectors for the installed gpg inside a private home."""

    def __init__(self, gpg: str, home: GpgHome, allow_old: bool | None = None):
        self.gpg = gpg
        self.home = home
        # Asked once (here, unless the caller asked where gpg runs): a gpg that knows the
        # option refuses old ciphers without it.
        self.allow_old = (gpg_knows(gpg, ALLOW_OLD_CIPHERS, home.env) if allow_old is None
                          else allow_old)

    def encrypt(self, algo: str) -> list[str]:
        """Symmetric encryption to stdout, no compression (so the cipher is what is measured);
        a 64-bit-block cipher with the option that lets GnuPG 2.4 use it."""
        old = [ALLOW_OLD_CIPHERS] if self.allow_old and algo.upper() in OLD_CIPHERS else []
        return [self.gpg, *self.home.gpg_args(), *old, "--symmetric", "--compress-algo",
                "none", "--cipher-algo", algo, "--output", "-"]

    def decrypt(self, algo: str) -> list[str]:  # noqa: ARG002 - gpg reads the algo from the data
        """Decryption to stdout."""
        return [self.gpg, *self.home.gpg_args(), "--decrypt", "--output", "-"]


class AgeTool:
    """Argument vectors for age with an X25519 identity generated into the private home (age
    reads a passphrase only from a terminal, so a generated key stands in for it)."""

    def __init__(self, age: str, home: GpgHome, env: Mapping[str, str]):
        self.age = age
        self.identity = home.path / "age-identity.txt"
        keygen = str(Path(age).with_name("age-keygen"))
        out = subprocess.run([keygen, "-o", str(self.identity)], env=dict(env),
                             capture_output=True, text=True, timeout=60, check=False)
        if out.returncode != 0:
            raise CandidateFailed("age-keygen failed: " + _first_line(out.stderr, "no message"))
        self.recipient = next(line.split(":", 1)[1].strip()
                              for line in self.identity.read_text().splitlines()
                              if line.startswith("# public key:"))

    def encrypt(self, algo: str) -> list[str]:  # noqa: ARG002
        """Encryption to the generated recipient, to stdout."""
        return [self.age, "--encrypt", "--recipient", self.recipient]

    def decrypt(self, algo: str) -> list[str]:  # noqa: ARG002
        """Decryption with the generated identity, to stdout."""
        return [self.age, "--decrypt", "--identity", str(self.identity)]


def _checked(t: Timed, what: str) -> Timed:
    if t.returncode != 0:
        raise CandidateFailed(f"{what} failed (exit {t.returncode}): "
                              + _first_line(t.stderr, "no message"))
    return t


def round_trip(tool, algo: str, data: bytes | bytearray, env: Mapping[str, str]) -> bytes:
    """Encrypt ``data`` and decrypt it again; returns the ciphertext if the plaintext came back
    byte for byte, else raises ``CandidateFailed``."""
    enc = _checked(run_timed(tool.encrypt(algo), data, env, capture=True), "encryption")
    if enc.stdout is None or len(enc.stdout) < len(data):
        raise CandidateFailed("encryption wrote less than its input")
    dec = _checked(run_timed(tool.decrypt(algo), enc.stdout, env, capture=True), "decryption")
    if dec.stdout is None or hashlib.sha256(dec.stdout).digest() != hashlib.sha256(data).digest():
        raise CandidateFailed("decryption did not give back the original bytes")
    return enc.stdout


def measure_candidate(tool, cand: Candidate, data: bytes, env: Mapping[str, str], *,
                      precision: float, budget_s: float, min_samples: int = 6,
                      ops: Sequence[str] = ("encrypt", "decrypt"), fixed_cost: bool = True,
                      on_sample: Callable[[], None] | None = None,
                      cpu: int | None = None) -> list[Measured]:
    """Round-trip check, then each op repeated until stable, on ``data`` and (``fixed_cost``)
    on an empty message. Never raises for a candidate's
    own failure: the failure is the ``error`` of the returned ``Measured``."""
    try:
        ciphertext = round_trip(tool, cand.algo, data, env)
        empty_ciphertext = round_trip(tool, cand.algo, b"", env) if fixed_cost else b""
    except (CandidateFailed, OSError) as e:
        return [Measured(cand, op, len(data), error=str(e)) for op in ops]
    out: list[Measured] = []
    # The empty message gives the fixed cost of one run (process start, key derivation from
    # the passphrase, packet headers), so the per-byte rate of a large backup can be told
    # apart from it: time(N) = fixed + N * (time(size) - fixed) / size.
    plan = [(op, len(data), data if op == "encrypt" else ciphertext) for op in ops]
    if fixed_cost:
        plan += [(op, 0, b"" if op == "encrypt" else empty_ciphertext) for op in ops]
    for op, size, payload in plan:
        argv = tool.encrypt(cand.algo) if op == "encrypt" else tool.decrypt(cand.algo)
        m = Measured(cand, op, size)

        def sample(n: int, argv=argv, payload=payload, m=m) -> list[float]:
            walls = []
            for _ in range(n):
                t = _checked(run_timed(argv, payload, env, cpu=cpu), op)
                walls.append(t.wall_s)
                m.cpu_s.append(t.cpu_s)
                if on_sample:
                    on_sample()
            return walls

        try:
            # The fixed cost is a small correction to the bulk rate: a short budget suffices.
            m.stability = stats.until_stable(
                sample, precision=precision,
                budget_s=budget_s if size else min(budget_s, FIXED_COST_BUDGET_S),
                min_samples=min_samples)
        except CandidateFailed as e:
            m.error = str(e)
        out.append(m)
    return out


def random_data(size: int) -> bytearray:
    """``size`` random bytes (incompressible, so compression could not flatter anyone)."""
    return random_payload(size)


def check_space(size: int, directory: str | None = None) -> str | None:
    """A one-line problem if the temporary directory cannot hold the run's small files, else
    None. The data itself stays in memory."""
    d = directory or tempfile.gettempdir()
    try:
        st = os.statvfs(d)
    except OSError as e:
        return f"temporary directory {d} is not usable: {e.strerror}"
    if st.f_bavail * st.f_frsize < 1 << 20:
        return f"no space left in the temporary directory {d}"
    del size
    return None


def candidates(gpg_algos: Iterable[str], want: Sequence[str] | None,
               with_age: bool) -> tuple[list[Candidate], list[str]]:
    """The candidates to measure and the one-line problems of what was asked but cannot be
    (an algorithm this gpg lacks). ``want`` None means every algorithm gpg offers."""
    have = {a.upper(): a for a in gpg_algos}
    problems: list[str] = []
    chosen: list[Candidate] = []
    for name in (want if want is not None else list(have.values())):
        if name.lower() == "age":
            continue
        if name.upper() in have:
            chosen.append(Candidate("gpg", have[name.upper()]))
        else:
            problems.append(f"gpg here has no cipher algorithm {name!r} "
                            f"(it has: {', '.join(have.values())})")
    if with_age and (want is None or any(w.lower() == "age" for w in want)):
        chosen.append(Candidate("age", "chacha20-poly1305"))
    return chosen, problems
