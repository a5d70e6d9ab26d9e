# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench luks`` as a scenario: the kernel's own dm-crypt, measured through a real crypt
mapping per cryptsetup spec over a RAM-backed loop device (``dmcrypt``), in randomized
interleaved rounds; each pass writes the whole mapping (encryption) and reads it back
(decryption) with ``O_DIRECT``. ``advise --for luks --kernel`` runs it and rates the LUKS
candidates by it.

Stored (scenario ``luks``, lib ``dm-crypt``, algo ``SPEC:BITS``, op ``encrypt`` or
``decrypt``): each pass as it finishes (metric ``round_s``: seconds, size the bytes, ``extra``
its round), then per spec and op the rate over the rounds (metric ``bytes_per_s``, median and
its interval, ``extra``: the rounds, the spec, key bits, sector size and the kernel's driver).
"""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

from cipherbench.analysis import stats
from cipherbench.display.console import display_rows
from cipherbench.machine import kernel_crypto as K
from cipherbench.machine import metadata
from cipherbench.scenarios import Screen
from cipherbench.scenarios.luks import dmcrypt
from cipherbench.scenarios.luks.specs import DEFAULT_SPECS, SECTOR_SIZE
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.rounds import rounds
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.units import format_bytes, format_rate

NAME = "luks"
UNIT = "passes"
LIB = "dm-crypt"
ROUND_METRIC = "round_s"
DEFAULT_SIZE = 64 << 20
DEFAULT_ROUNDS = 6
#: Setting up a mapping, and a pessimistic 200 MB/s through the kernel's generic code.
_SETUP_S = 0.1
_RATE_BPS = 200e6


def _new_seed() -> int:
    return random.SystemRandom().randrange(1 << 31)


@dataclass
class LuksPlan:
    """One stored run: the specs (cryptsetup ``--cipher`` and key bits), bytes per pass."""

    specs: list[tuple[str, int]] = field(default_factory=lambda: list(DEFAULT_SPECS))
    size: int = DEFAULT_SIZE
    rounds: int = DEFAULT_ROUNDS
    sector_size: int = SECTOR_SIZE
    seed: int = field(default_factory=_new_seed)

    def args(self) -> dict:
        return {"specs": [f"{s}:{b}" for s, b in self.specs], "size": self.size,
                "rounds": self.rounds, "sector_size": self.sector_size, "seed": self.seed,
                "device": f"loop device over {dmcrypt.RAM_DIR} (RAM)"}

    def metadata(self) -> dict:
        return metadata.collect()

    def steps(self) -> int:
        return self.rounds * len(self.specs)


def key(spec: str, bits: int) -> str:
    """The stored ``algo`` of a spec: ``SPEC:BITS`` (advise's LUKS candidate key)."""
    return f"{spec}:{bits}"


def estimate_s(p: LuksPlan) -> float:
    return p.steps() * (_SETUP_S + 2 * p.size / _RATE_BPS)


def measure(p: LuksPlan, rec: Recording) -> MeasureOutcome:
    """Every spec once per round in a new random order: a mapping made, written, read,
    removed; each pass stored as it finishes, the per-spec rows at the end."""
    drivers = K.read() or []
    rec.progress.set_total(p.steps())
    with dmcrypt.backing(p.size) as device:
        def one(spec_bits: tuple[str, int], i: int) -> dmcrypt.Pass | None:
            spec, bits = spec_bits
            rec.progress.working(f"round {i + 1}: {spec} {bits}")
            with dmcrypt.mapping(spec, bits, device, p.size, p.sector_size) as path:
                got = dmcrypt.through(path, p.size)
            for op, secs in (("encrypt", got.write_s), ("decrypt", got.read_s)):
                rec.add(Result(NAME, LIB, key(spec, bits), op, p.size, ROUND_METRIC, "s",
                               median=secs, n_samples=1, extra={"round": i}))
            rec.progress.done(f"round {i + 1}: {spec} {bits}")
            return got

        try:
            rounds(list(p.specs), one, p.rounds, random.Random(p.seed))
        finally:
            for r in summary_results(rec.store.results(rec.run_id, NAME), p, drivers):
                rec.add(r)
    rec.status = "complete"
    return MeasureOutcome()


def summary_results(results: list[Result], p: LuksPlan, drivers: list[K.Driver]
                    ) -> list[Result]:
    """Per spec and op, the rate over the rounds (see the module)."""
    by: dict[tuple[str, str], list[tuple[Result, float]]] = defaultdict(list)  # with its rate
    for r in results:
        if (r.scenario == NAME and r.metric == ROUND_METRIC and r.median > 0
                and r.size is not None):
            by[(r.algo, r.op)].append((r, r.size / r.median))
    out = []
    for (algo, op), pairs in sorted(by.items()):
        rs = [r for r, _ in pairs]
        rates = [rate for _, rate in pairs]
        s = stats.summarize(rates)
        spec, _, bits = algo.rpartition(":")
        impl = K.resolve(drivers, K.kernel_name(spec)) if drivers else None
        out.append(Result(NAME, LIB, algo, op, rs[0].size, "bytes_per_s", "B/s",
                          median=s.median, ci_low=s.ci_low, ci_high=s.ci_high, n_samples=s.n,
                          cv=s.cv, extra={"spec": spec, "key_bits": int(bits),
                                          "sector_size": p.sector_size,
                                          "rounds": [r.extra.get("round") for r in rs],
                                          "driver": impl.text() if impl else None}))
    return out


def _encrypt_rate(ops: dict[str, Result]) -> float:
    enc = ops.get("encrypt")
    return enc.median if enc is not None else 0


def rows(results: list[Result]) -> list[list[str]]:
    """The table: spec, key bits, encryption and decryption rates, the kernel's driver."""
    heads = [r for r in results if r.scenario == NAME and r.metric == "bytes_per_s"]
    got: dict[str, dict[str, Result]] = defaultdict(dict)
    for r in heads:
        got[r.algo][r.op] = r
    out = []
    for algo, ops in sorted(got.items(), key=lambda kv: -_encrypt_rate(kv[1])):
        first = next(iter(ops.values()))
        out.append([first.extra.get("spec", algo), str(first.extra.get("key_bits", "")),
                    format_rate(ops["encrypt"].median) if "encrypt" in ops else "",
                    format_rate(ops["decrypt"].median) if "decrypt" in ops else "",
                    first.extra.get("driver") or ""])
    return out


def view(screen: Screen, run: Run, results: list[Result],
         warnings: list[StoredWarning]) -> None:  # noqa: ARG001
    """The dm-crypt table of a stored run."""
    size = run.args.get("size")
    display_rows(screen.console, ["cipher", "bits", "write", "read", "kernel driver"],
                 rows(results),
                 title=f"dm-crypt over a RAM-backed loop device, {format_bytes(size or 0)} per "
                       f"pass, {run.args.get('sector_size')}-byte sectors (run {run.id})")


def answer_lines(run: Run, results: list[Result]) -> list[str]:  # noqa: ARG001
    """The verdict of a stored luks run: the cipher whose slower direction is fastest here,
    with both rates and the kernel's driver, and where its config line comes from."""
    rates: dict[str, dict[str, Result]] = defaultdict(dict)
    for r in results:
        if r.scenario == NAME and r.metric == "bytes_per_s":
            rates[r.algo][r.op] = r
    both = {algo: ops for algo, ops in rates.items() if {"encrypt", "decrypt"} <= set(ops)}
    if not both:
        return ["no cipher was measured both ways: no verdict"]
    algo, ops = max(both.items(), key=lambda kv: min(r.median for r in kv[1].values()))
    first = ops["encrypt"]
    driver = first.extra.get("driver")
    return [f"fastest here through dm-crypt: {first.extra.get('spec', algo)} with a "
            f"{first.extra.get('key_bits', '?')}-bit key, writing at "
            f"{format_rate(ops['encrypt'].median)} and reading at "
            f"{format_rate(ops['decrypt'].median)}"
            + (f" ({driver})" if driver else "")
            + "; `cipherbench advise --for luks --kernel` gives its luksFormat line"]


def answer(screen: Screen, run: Run, results: list[Result]) -> None:
    """The verdict, the command's last line."""
    for line in answer_lines(run, results):
        screen.console.print(line, markup=False, highlight=False)
