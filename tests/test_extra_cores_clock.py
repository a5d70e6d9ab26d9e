# SPDX-License-Identifier: GPL-3.0-or-later
"""The Go and Rust cores write the clock's raw probes as the C core does (docs/protocol.md:
``freq_cycles``, ``freq_wall_ns``, ``freq_cpu_ns`` in ``preamble``, ``point`` and ``end``), so
the front end pools them over the run (``analysis.clock``) instead of comparing bare
per-record clocks, which a busy machine moves apart. Skipped for a core not built."""
from __future__ import annotations

import pytest

from cipherbench.analysis import clock
from test_extra_cores import CORES, FAST, built, run

pytestmark = pytest.mark.real

#: The C core's rule: a probe whose CPU time is under this share of its wall time lost the CPU.
MIN_CPU_SHARE = 0.95


def _expected_hz(rec: dict) -> float:
    """freq_cycles over the fastest probe that kept the CPU (all of them when none did)."""
    pairs = [(w, c) for w, c in zip(rec["freq_wall_ns"], rec["freq_cpu_ns"]) if w > 0]
    kept = [w for w, c in pairs if c >= MIN_CPU_SHARE * w] or [w for w, _ in pairs]
    return rec["freq_cycles"] * 1e9 / min(kept)


@pytest.mark.parametrize("spec", CORES, ids=[c.name for c in CORES])
def test_records_carry_the_clocks_probes(spec):
    core = built(spec)
    ran = run(core, "bench", "--lib", core.libs[0], "--algo", "sha256", "--op", "hash", *FAST)
    assert ran.rc == 0, ran.stderr
    timed = [r for r in ran.records if r["type"] in ("preamble", "point", "end")]
    assert [r["type"] for r in timed] == ["preamble", "point", "point", "point", "end"]
    for rec in timed:
        probes = clock.ClockProbes.from_record(rec)
        assert probes is not None, rec
        assert probes.cycles > 0 and len(probes.wall_ns) == len(probes.cpu_ns) > 0, rec
        if rec["type"] != "point":
            assert len(probes.wall_ns) == 64, rec      # the full measure: 64 probes
            assert rec["freq_hz"] == pytest.approx(_expected_hz(rec), rel=1e-12)
        else:
            assert len(probes.wall_ns) == 2, rec       # 2 samples: one probe before each
    estimates = [clock.record_estimate(r) for r in timed]
    assert all(e.has_probes for e in estimates)
    assert sum(e.n for e in estimates) == 64 + 3 * 2 + 64
