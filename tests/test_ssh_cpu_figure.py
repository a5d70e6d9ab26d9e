# SPDX-License-Identifier: GPL-3.0-or-later
"""ssh's verdicts between ciphers judged on the CPU time both ends spend per byte
(scenarios/ssh/figure.py), on synthetic stored rows: the figure chosen when CPU times are
present, absent or only in clock ticks; a stalled round that wrecks the wall rates and not
the CPU verdict; the baseline and the bottleneck still on wall time; what is exported and
shown; and the generic parts shared with gpg (cipherbench.analysis.cpu_figure)."""
from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from cipherbench.analysis import cpu_figure, stats
from cipherbench.analysis import verdict as V
from cipherbench.scenarios.gpg import figure as gpg_figure
from cipherbench.scenarios.ssh import figure as F
from cipherbench.scenarios.ssh import sweep, scenario, tables
from cipherbench.store import Result, Run

MIB = 1 << 20
DEFAULT = "chacha20-poly1305@openssh.com"
GCM = "aes128-gcm@openssh.com"
SCHEMA = json.loads((Path(scenario.__file__).resolve().parents[2] / "export" /
                     "schema.json").read_text())


def _row(cipher: str, i: int, wall: float, cpu: tuple[float | None, float | None], *,
         via: str = "pipe", method: str = "schedstat", client_method: str | None = "schedstat",
         nbytes: int = 16 * MIB) -> Result:
    """A stored ``round_s`` row as ``tables.round_result`` writes it."""
    base = cipher == sweep.BASELINE
    extra = {"round": i, "position": 1, "via": via, "cipher": None if base else cipher,
             "mac": None, "client_default": cipher == DEFAULT, "target": "t",
             "client_cpu_s": cpu[0], "server_cpu_s": cpu[1], "server_cpu_method": method,
             "verified": True, "cut": False, "tool": "socat" if base else None}
    if client_method is not None:
        extra["client_cpu_method"] = client_method
    return Result(scenario="ssh", lib="tcp" if base else "openssh", algo=cipher,
                  op=sweep.BASELINE_OP if base else via, size=nbytes, metric="round_s",
                  unit="s", median=wall, ci_low=None, ci_high=None, n_samples=1, cv=None,
                  extra=extra)


#: CPU seconds per MiB of each end (client, server): AES-GCM costs 0.9x ChaCha20-Poly1305
COST = {DEFAULT: (0.004, 0.0045), GCM: (0.0036, 0.00405), "aes128-ctr": (0.004, 0.0045)}


def _rounds(n: int = 12, seed: int = 5, stalls: dict[tuple[str, int], float] | None = None,
            via: str = "pipe", **kw) -> list[Result]:
    """``n`` rounds of the default, AES-GCM, a twin-like cipher of the default's cost and the
    baseline. Wall time: the slower end's CPU plus a wait of 0-25% that falls on each sample
    apart (the pipe's hiccups), and a stall of ``stalls[(cipher, round)]`` seconds;
    CPU times: the cost with 0.5% jitter (a stall adds no CPU)."""
    rng = random.Random(seed)
    stalls = stalls or {}
    out = []
    for i in range(n):
        for c in (DEFAULT, GCM, "aes128-ctr"):
            cc, cs = (16 * x * (1 + rng.uniform(0, 0.005)) for x in COST[c])
            wall = max(cc, cs) * (1 + rng.uniform(0, 0.25)) + stalls.get((c, i), 0.0)
            out.append(_row(c, i, wall, (cc, cs), via=via, **kw))
        out.append(_row(sweep.BASELINE, i, 0.02 * (1 + rng.uniform(0, 0.1)), (0.01, 0.01),
                        method="process"))
    return out


def _by(rows: list[tables.Row], cipher: str) -> tables.Row:
    return next(r for r in rows if r.cipher == cipher)


def test_both_ends_cpu_of_a_sample_only_to_the_nanosecond():
    ok = {"client_cpu_s": 0.25, "server_cpu_s": 0.5, "server_cpu_method": "schedstat",
          "client_cpu_method": "schedstat"}
    assert F.round_cpu_s(ok) == pytest.approx(0.75)
    old = {k: v for k, v in ok.items() if k != "client_cpu_method"}   # stored before
    assert F.round_cpu_s(old) == pytest.approx(0.75)
    assert F.round_cpu_s({**ok, "server_cpu_method": "stat-ticks"}) is None
    assert F.round_cpu_s({**ok, "client_cpu_method": "stat-ticks"}) is None
    assert F.round_cpu_s({**ok, "server_cpu_s": None}) is None      # sftp, scp, rsync
    assert F.round_cpu_s({**ok, "server_cpu_method": "process"}) is None   # the baseline
    # a cell never mixes figures: one round without CPU and the cell has none
    assert F.cpu_rates([0, 1], [100, 100], [0.5, 0.25]) == {0: 200.0, 1: 400.0}
    assert F.cpu_rates([0, 1], [100, 100], [0.5, None]) == {}


def test_cpu_present_the_verdict_is_cpu_per_byte_and_the_stalled_rounds_do_not_matter():
    """Stalls of 60-150 ms (a 16 MiB sample takes ~75 ms) in a third of AES-GCM's rounds wreck
    its wall rates; the CPU figure still calls the 10% difference, and the A/A-like pair (same
    cost) still comes out "cannot tell"."""
    stalls = {(GCM, i): 0.06 + 0.03 * (i % 4) for i in range(0, 12, 3)}
    stalls.update({(DEFAULT, i): 0.1 for i in (1, 7)})
    rows = tables.rows(_rounds(stalls=stalls))
    gcm, same = _by(rows, GCM), _by(rows, "aes128-ctr")
    assert gcm.vs_default_figure == cpu_figure.CPU
    assert gcm.vs_default.state == V.FASTER
    assert gcm.vs_default.ratio == pytest.approx(1 / 0.9, rel=0.01)
    assert same.vs_default_figure == cpu_figure.CPU
    assert same.vs_default.state == V.CANNOT_TELL and not same.vs_default.reason
    # the same rounds judged on their wall rates cannot tell: the stalls are too wide
    wall = F.paired(_by(rows, DEFAULT).rates, gcm.rates)
    assert wall.state == V.CANNOT_TELL
    # the throughput users read stays the wall rate; the CPU figure is beside it
    assert gcm.throughput == pytest.approx(stats.median(list(gcm.rates.values())))
    assert gcm.cpu_rate == pytest.approx(16 * MIB / (16 * sum(COST[GCM])), rel=0.01)
    assert _by(rows, DEFAULT).vs_default is None and _by(rows, DEFAULT).is_default


def test_tick_only_or_absent_cpu_falls_back_on_the_wall_rates():
    for kw in ({"method": "stat-ticks"}, {"client_method": "stat-ticks"}):
        rows = tables.rows(_rounds(**kw))
        gcm = _by(rows, GCM)
        assert gcm.cpu_rates == {} and gcm.cpu_rate is None
        assert gcm.vs_default_figure == cpu_figure.WALL
        assert gcm.vs_default == F.paired(_by(rows, DEFAULT).rates, gcm.rates)
    # a file tool: no CPU time of the far end
    stored = [r for r in _rounds(via="scp") if r.algo != sweep.BASELINE]
    for r in stored:
        r.extra.update(server_cpu_s=None, server_cpu_method="none", client_cpu_method="rusage")
    gcm = _by(tables.rows(stored), GCM)
    assert gcm.vs_default_figure == cpu_figure.WALL and gcm.vs_default is not None


def test_one_round_without_cpu_times_puts_the_pair_on_wall_rates():
    stored = _rounds()
    hole = next(r for r in stored if r.algo == GCM and r.extra["round"] == 4)
    hole.extra["server_cpu_s"] = None
    rows = tables.rows(stored)
    assert _by(rows, GCM).vs_default_figure == cpu_figure.WALL
    assert _by(rows, "aes128-ctr").vs_default_figure == cpu_figure.CPU


def test_baseline_and_bottleneck_stay_on_time():
    rows = tables.rows(_rounds())
    gcm, base = _by(rows, GCM), next(r for r in rows if r.is_baseline)
    assert gcm.vs_baseline == F.paired(base.rates, gcm.rates)
    assert base.cpu_rates == {} and base.vs_default is None
    neck = tables.bottleneck(rows)
    assert neck.verdict is not None and neck.verdict.n_rounds == 12
    assert tables.verdict_dict(neck.verdict)["figure"] == cpu_figure.WALL


@dataclass
class _Screen:
    console: Console
    err_console: Console


def _run() -> Run:
    return Run(1, "ssh", "2026-01-01T00:00:00", None, "complete",
               {"size": 16 * MIB, "host": "127.0.0.1 (private sshd)"}, {}, "0")


def test_each_verdict_names_its_figure_in_the_export_the_store_and_the_legend():
    stored = _rounds() + [r for r in _rounds(via="scp") if r.algo != sweep.BASELINE]
    for r in stored:
        if r.op == "scp":
            r.extra.update(server_cpu_s=None, server_cpu_method="none")
    results = stored + tables.summary_results(stored)
    doc = scenario.summary(_run(), results)
    pipe = next(r for r in doc["ssh_rows"] if r["via"] == "pipe" and r["cipher"] == GCM)
    scp = next(r for r in doc["ssh_rows"] if r["via"] == "scp" and r["cipher"] == GCM)
    assert pipe["vs_default"]["figure"] == cpu_figure.CPU and pipe["cpu_bytes_per_s"] > 0
    assert pipe["vs_baseline"]["figure"] == cpu_figure.WALL
    assert scp["vs_default"]["figure"] == cpu_figure.WALL and scp["cpu_bytes_per_s"] is None
    assert doc["bottleneck"]["verdict"]["figure"] == cpu_figure.WALL
    head = next(r for r in results if r.metric == "bytes_per_s" and r.op == "pipe"
                and r.algo == GCM)
    assert head.extra["vs_default"]["figure"] == cpu_figure.CPU
    assert head.extra["vs_default"]["state"] == V.FASTER
    assert head.extra["cpu_bytes_per_s"] == pytest.approx(pipe["cpu_bytes_per_s"])
    jsonschema.validate({"schema": "cipherbench-export", "schema_version":
                         SCHEMA["properties"]["schema_version"]["const"], "run": {
                             "id": 1, "uid": "0123456789abcdef", "command": "ssh", "status": "complete",
                             "started_at": "x", "finished_at": None,
                             "cipherbench_version": "0", "args": {}, "metadata": {}},
                         "results": [], "warnings": [], **doc}, SCHEMA)
    text = tables.legend(tables.rows(results))
    assert "CPU time ssh and sshd spent per byte" in text and "(pipe;" in text
    assert "by transfer speed (scp" in text
    # show of the stored run: the same table from the rounds alone, legend included
    out = [io.StringIO(), io.StringIO()]
    for buf, rs in zip(out, (results, stored)):
        scenario.view(_Screen(Console(file=buf, width=100, no_color=True),
                              Console(file=io.StringIO(), width=100)), _run(), rs, [])
    assert out[0].getvalue() == out[1].getvalue()
    flat = " ".join(out[0].getvalue().split())
    assert "CPU time ssh and sshd spent per byte" in flat


def test_runs_stored_before_judge_on_speed():
    heads = [Result("ssh", "openssh", a, "transfer", MIB, "bytes_per_s", "B/s", bps, None,
                    None, 3, 0.01, extra={"client_default": a == DEFAULT, "cipher": a})
             for a, bps in ((DEFAULT, 2e8), (GCM, 2.2e8))]
    rows = tables.rows(heads)
    gcm = _by(rows, GCM)
    assert gcm.vs_default_figure == cpu_figure.WALL and gcm.cpu_rate is None
    assert tables.verdict_dict(gcm.vs_default, gcm.vs_default_figure)["figure"] == "wall_s"
    assert "by transfer speed" in tables.legend(rows)


def test_generic_parts_are_shared_with_gpg():
    assert gpg_figure.lost_cpu is cpu_figure.lost_cpu
    assert gpg_figure.per_round is cpu_figure.per_round
    assert (gpg_figure.CPU, gpg_figure.WALL) == (cpu_figure.CPU, cpu_figure.WALL)
    assert cpu_figure.has_cpu([1.0, 1.0], [0.5, 0.4])
    assert not cpu_figure.has_cpu([1.0, 1.0], [0.5, None])
    assert not cpu_figure.has_cpu([1.0, 1.0], [0.5])
    assert cpu_figure.kind([1.0], [0.0]) == cpu_figure.WALL
    assert cpu_figure.per_round([3, 4], [1.0, 2.0], [0.5, None]) == {3: 1.0, 4: 2.0}
    assert cpu_figure.common_rounds({1: 1.0, 2: 2.0, 5: 5.0}, {2: 20.0, 5: 50.0, 9: 9.0}) == (
        [2.0, 5.0], [20.0, 50.0])
