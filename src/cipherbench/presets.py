# SPDX-License-Identifier: GPL-3.0-or-later
"""Presets of ``cipherbench run``: which algorithms, operations and sizes, and how precise.

``quick`` is the essential algorithms on few sizes, meant to finish in about 20 s; the default
covers what people actually choose between on the sizes that decide it, in under 2 minutes on
a quiet 2-core machine (both in adaptive interleaved rounds, ``adaptive``); ``full`` is everything the core can measure on every size (about 3 h
3 min with every library). ``scenarios.primitive.scenario.estimate_s`` prints the expected duration first.
"""
from __future__ import annotations

from dataclasses import dataclass

#: The core's default sizes (bytes): 16 KiB is a TLS record, 32 KiB an SSH packet's range.
DEFAULT_SIZES = (16, 64, 256, 1024, 8192, 16384, 65536)
#: The sizes a choice turns on: a small packet (per-message cost dominates), 1 KiB and the
#: 16 KiB headline (two sizes of the slope fit, which starts at 1 KiB).
DECIDING_SIZES = (64, 1024, 16384)
HEADLINE_SIZE = 16384


@dataclass(frozen=True)
class Preset:
    """A named selection. ``algos`` None = every algorithm; ``ops`` None = every operation of
    each algorithm's kind."""

    name: str
    algos: tuple[str, ...] | None
    ops: tuple[str, ...] | None
    sizes: tuple[int, ...]
    precision: float     # target CI half-width / median
    budget_s: float      # time budget per point for extra samples
    samples: int         # samples of the first batch
    min_sample_ms: float | None  # duration of one sample (None: the core's default)
    #: all extra samples of a run together, shared evenly among the points still to come
    #: (None: no cap; an explicit --budget lifts it); with ``--rounds auto``, the rounds' time
    run_budget_s: float | None = None
    #: measured in adaptive interleaved rounds unless ``--rounds`` says otherwise
    #: (``interleaved.run_in_rounds``); ``full`` has too many points for rounds of them all
    adaptive: bool = True


QUICK = Preset(
    "quick",
    ("memcpy", "null", "aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ctr",
     "aes-128-cbc", "rc4", "sha256", "sha512", "hmac-sha256"),
    ("encrypt", "hash", "mac", "ref"),
    (1024, 16384),
    precision=0.02, budget_s=0.1, samples=6, min_sample_ms=0.5, run_budget_s=8.0)

DEFAULT = Preset(
    "default",
    ("memcpy", "null",
     "aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ocb", "aes-128-ccm",
     "aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-256-ctr", "aes-128-cfb", "aes-128-xts",
     "camellia-128-cbc", "chacha20", "3des-cbc", "blowfish-cbc", "cast5-cbc", "rc4",
     "md5", "sha1", "sha256", "sha512", "sha3-256", "blake2b-512", "blake2s-256",
     "hmac-sha1", "hmac-sha256", "hmac-sha512", "poly1305", "umac-64", "umac-128"),
    None,
    DECIDING_SIZES,
    precision=0.01, budget_s=0.5, samples=10, min_sample_ms=None, run_budget_s=60.0)

FULL = Preset("full", None, None, DEFAULT_SIZES, precision=0.01, budget_s=2.0, samples=15,
              min_sample_ms=None, adaptive=False)

PRESETS = {p.name: p for p in (QUICK, DEFAULT, FULL)}
