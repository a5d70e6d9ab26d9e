# SPDX-License-Identifier: GPL-3.0-or-later
"""What limits an ssh transfer? The transfer's time split in three parts, from the rounds:

- **the cipher**: its own work per byte, measured alone (the same cipher and MAC as primitives,
  in the library OpenSSH uses, ``cipher_cost.py``), as a share of the transfer's time:
  ``throughput / cipher rate``;
- **the program**: what ssh and sshd (or scp, sftp, rsync) spend per byte besides the cipher:
  the busier end's CPU share (its CPU time over the wall time, both ends read in every round)
  less the cipher's share;
- **the path**: the rest of the wall time, when even the busier end was not running: the link,
  flow-control windows, a CPU the run did not get (other processes took it).

"Crypto is the bottleneck" only when the busier end was CPU-bound (``CPU_BOUND`` of the wall
time) and the cipher's own share is the largest of the three; CPU-bound with the program's
own work larger: the program is the bottleneck (a faster cipher saves at most the cipher's
share); not CPU-bound: the path is. The cleartext baseline (a plain socket, without ssh's own
work) is no part of the decision: a cipher slower than it may be limited by ssh itself.

Pure: ``split(...)`` for the shares, ``decide_split(...)`` for the outcome, ``Bottleneck.text()``
the one sentence ``ssh`` prints; ``advise`` uses the same outcome.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench.analysis import verdict as V

CRYPTO, PROGRAM, PATH, UNKNOWN = "crypto", "program", "path", "unknown"
#: An end is CPU-bound when its CPU time is at least this share of the wall time.
CPU_BOUND = 0.85
#: The cipher's and the program's shares within this relative distance of each other: a tie,
#: neither is named the bottleneck.
TIE = 0.10
#: Who does the program's own work, by the tool that moved the bytes.
PROGRAM_NAME = {"pipe": "ssh and sshd", "": "ssh and sshd", "sftp": "sftp and ssh",
                "scp": "scp and ssh", "rsync": "rsync and ssh"}


@dataclass(frozen=True)
class Split:
    """Shares of a transfer's wall time (medians over its rounds): ``busy`` of the busier end
    (``end``: "client" or "server"; None when no end's CPU time was read), ``cipher`` the
    cipher's own work (None: not measured alone), ``ends`` how many ends' CPU time was read."""

    busy: float | None
    end: str
    cipher: float | None
    ends: int

    @property
    def program(self) -> float | None:
        """The program's own share: the busier end's CPU less the cipher's work."""
        if self.busy is None or self.cipher is None:
            return None
        return max(self.busy - self.cipher, 0.0)

    @property
    def path(self) -> float | None:
        """The share of the time even the busier end was not running."""
        return None if self.busy is None else max(1.0 - self.busy, 0.0)

    @property
    def cpu_bound(self) -> bool:
        return self.busy is not None and self.busy >= CPU_BOUND

    def to_dict(self) -> dict:
        """As exported (``bottleneck.parts``)."""
        return {"busy_share": self.busy, "busier_end": self.end or None,
                "cipher_share": self.cipher, "program_share": self.program,
                "path_share": self.path, "ends_measured": self.ends,
                "cpu_bound": self.cpu_bound}


def split(throughput: float, client_share: float | None, server_share: float | None,
          cipher_bps: float | None) -> Split:
    """The shares of one candidate's transfers: ``throughput`` (bytes/s, its median over the
    rounds), each end's CPU share of the wall time (None: not read), the cipher's own rate
    alone (bytes/s, None: not measured). A share above 1 (CPU time read a little long) counts
    as 1."""
    ends = {k: v for k, v in (("client", client_share), ("server", server_share))
            if v is not None}
    end = max(ends, key=lambda k: ends[k]) if ends else ""
    busy = min(ends[end], 1.0) if ends else None
    cipher = None
    if cipher_bps and throughput > 0:
        cipher = throughput / cipher_bps
        if busy is not None:
            cipher = min(cipher, busy)
    return Split(busy, end, cipher, len(ends))


@dataclass(frozen=True)
class Bottleneck:
    """The outcome: ``kind`` (crypto, program, path, unknown) for ``cipher`` (through ``via``),
    the ``split`` it came from and the paired verdict of the cipher against the cleartext
    baseline (for the export; not what decides)."""

    kind: str
    cipher: str
    via: str
    verdict: V.Verdict | None
    reason: str = ""
    split: Split | None = None

    def text(self) -> str:
        """One sentence, whatever the outcome."""
        how = "" if self.via in ("", "pipe") else f" through {self.via}"
        s = self.split
        prog = PROGRAM_NAME.get(self.via, f"{self.via} and ssh")
        if self.kind == UNKNOWN or s is None or s.busy is None:
            return f"Cannot tell what limits the transfer: {self.reason}."
        parts = _parts(s, prog)
        if self.kind == CRYPTO:
            return (f"Crypto is the bottleneck: {self.cipher}{how} keeps the {s.end} CPU-bound "
                    f"({_pct(s.busy)} of the time), and the cipher's own work is the largest "
                    f"part ({parts}); only a cheaper cipher would move more.")
        if self.kind == PROGRAM:
            return (f"{prog[0].upper()}{prog[1:]}'s own work is the bottleneck, not the "
                    f"cipher: {self.cipher}{how} keeps the {s.end} CPU-bound "
                    f"({_pct(s.busy)} of the time), mostly outside the cipher ({parts}); a "
                    f"faster cipher saves at most {_pct(s.cipher or 0)}.")
        return (f"The path is the bottleneck, not the cipher: with {self.cipher}{how} the busier "
                f"end ({s.end}) runs only {_pct(s.busy)} of the time ({parts}); the rest is "
                "waiting on the link, flow-control windows or CPU time other processes took; "
                "choose by security.")


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _parts(s: Split, prog: str) -> str:
    cipher = "not measured alone" if s.cipher is None else _pct(s.cipher)
    own = "" if s.program is None else f", {prog} {_pct(s.program)}"
    return f"cipher {cipher}{own}, waiting {_pct(s.path or 0)}"


def decide_split(s: Split, cipher: str, via: str = "pipe", n_rounds: int | None = None,
                 versus_baseline: V.Verdict | None = None,
                 min_rounds: int = V.MIN_ROUNDS) -> Bottleneck:
    """The outcome from the shares of the fastest cipher's transfers (see the module)."""
    def out(kind: str, reason: str = "") -> Bottleneck:
        return Bottleneck(kind, cipher, via, versus_baseline, reason, s)

    if n_rounds is not None and n_rounds < min_rounds:
        return out(UNKNOWN, f"{n_rounds} rounds of {cipher}; a verdict needs {min_rounds}")
    if s.busy is None:
        return out(UNKNOWN, "no CPU time of either end was read for "
                            f"{cipher} (measure again: cipherbench ssh --via pipe)")
    if not s.cpu_bound:
        if s.ends < 2:
            return out(UNKNOWN, f"{via} reads the CPU time of this end only ({_pct(s.busy)} "
                                "busy), not the far end's (cipherbench ssh --via pipe "
                                "reads both)")
        return out(PATH)
    if s.cipher is None:
        return out(UNKNOWN, f"the {s.end} was CPU-bound ({_pct(s.busy)}), but the cipher's "
                            "own cost was not measured alone to split it from the "
                            "program's (cipherbench ssh measures it with cipherbench-core)")
    program = s.program or 0.0
    if abs(s.cipher - program) <= TIE * max(s.cipher, program):
        return out(UNKNOWN, f"the {s.end} was CPU-bound ({_pct(s.busy)}), the cipher's own "
                            f"work ({_pct(s.cipher)}) and the program's ({_pct(program)}) "
                            "about equal")
    return out(CRYPTO if s.cipher > program else PROGRAM)
