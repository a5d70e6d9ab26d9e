"""Is the cipher or the path the bottleneck? One decision, from the paired rounds of a cipher
and the cleartext baseline (the same path without encryption, measured in the same rounds):

- ``crypto``: the cipher's transfers are slower than the baseline's beyond the noise (the
  paired verdict is "slower");
- ``path``: the cipher is within the noise of the cleartext path, and that noise is small
  (``PATH_NOISE``): encryption costs nothing measurable here, the path limits the transfer;
- ``unknown``: too few rounds for a verdict, no baseline, or a noise too wide to tell.

Pure: ``decide(cipher_rates, baseline_rates, ...)`` for per-round rates, ``judge(verdict,
...)`` for a verdict already made. ``Bottleneck.text()`` is the one sentence ``ssh`` prints;
``advise`` may use the same outcome (its nominal link is a cap, not the baseline).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from cipherbench.analysis import verdict as V

CRYPTO, PATH, UNKNOWN = "crypto", "path", "unknown"
#: "Within the noise" names the path only when the noise is at most this: a cipher within
#: 30% of the baseline could still be what limits the transfer.
PATH_NOISE = 0.10


@dataclass(frozen=True)
class Bottleneck:
    """The outcome: ``kind`` (crypto, path, unknown) for ``cipher`` (through ``via``), with the
    paired verdict it came from (speed of the cipher over the baseline's)."""

    kind: str
    cipher: str
    via: str
    verdict: V.Verdict | None
    reason: str = ""

    def text(self) -> str:
        """One sentence, whatever the outcome."""
        how = "" if self.via in ("", "pipe") else f" through {self.via}"
        v = self.verdict
        if self.kind == CRYPTO:
            assert v is not None and v.ratio is not None
            return (f"Crypto is the bottleneck: the fastest cipher, {self.cipher}{how}, moves "
                    f"{v.ratio:.0%} of what the cleartext path moves (95% CI {v.low:.0%}-"
                    f"{v.high:.0%}, {v.n_rounds} paired rounds).")
        if self.kind == PATH and v is not None and v.state == V.FASTER:
            return (f"The path is the bottleneck, not the cipher: {self.cipher}{how} moves "
                    f"{v.ratio:.0%} of what the cleartext path moves ({v.n_rounds} paired "
                    "rounds); choose by security.")
        if self.kind == PATH:
            assert v is not None and v.within is not None
            return (f"The path is the bottleneck, not the cipher: {self.cipher}{how} moves as "
                    f"much as the cleartext path within {_pct(v.within)} ({v.n_rounds} paired "
                    "rounds); choose by security.")
        return f"Cannot tell whether crypto or the path is the bottleneck: {self.reason}."


def _pct(x: float) -> str:
    return f"{math.ceil(x * 100 - 1e-9):.0f}%"


def judge(v: V.Verdict | None, cipher: str, via: str = "pipe",
          path_noise: float = PATH_NOISE) -> Bottleneck:
    """The outcome from the verdict of the cipher against the baseline (B = the cipher,
    A = the baseline; None when there is no baseline)."""
    if v is None:
        return Bottleneck(UNKNOWN, cipher, via, None, "no cleartext baseline was measured")
    if v.reason:
        return Bottleneck(UNKNOWN, cipher, via, v, v.reason)
    if v.state == V.SLOWER:
        return Bottleneck(CRYPTO, cipher, via, v)
    if v.state == V.FASTER:    # faster than cleartext: the cipher is surely not the limit
        return Bottleneck(PATH, cipher, via, v)
    if v.within is not None and v.within <= path_noise:
        return Bottleneck(PATH, cipher, via, v)
    return Bottleneck(UNKNOWN, cipher, via, v,
                      f"{cipher} is within {_pct(v.within or 0)} of the cleartext path, too "
                      "wide to tell (measure again with more --rounds, or on a quieter "
                      "machine: --wait-quiet)")


def decide(cipher_rates: Sequence[float], baseline_rates: Sequence[float], cipher: str,
           via: str = "pipe", margin: float = V.DEFAULT_MARGIN,
           min_rounds: int = V.MIN_ROUNDS) -> Bottleneck:
    """The outcome from per-round rates (bytes/s; ``cipher_rates[i]`` and
    ``baseline_rates[i]`` measured in round ``i``)."""
    if not baseline_rates:
        return judge(None, cipher, via)
    v = V.verdict(baseline_rates, cipher_rates, higher_is_better=True, margin=margin,
                  min_rounds=min_rounds)
    return judge(v, cipher, via)
