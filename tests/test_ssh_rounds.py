# SPDX-License-Identifier: GPL-3.0-or-later
"""ssh in interleaved rounds, with test doubles for the transfers: the order of the rounds,
paired verdicts against the default and the baseline, the three-state bottleneck, the budget,
the stored rows redrawn, the --json summary against its schema, and --via's choices."""
from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from cipherbench.analysis import verdict as V
from cipherbench.errors import UsageError
from cipherbench.export.json_export import SCHEMA_VERSION
from cipherbench.scenarios.ssh import bottleneck as bn
from cipherbench.scenarios.ssh import cipher_cost, sweep, scenario, tables, via
from cipherbench.scenarios.ssh.transfer import TransferSample
from cipherbench.store import Result, Run

MAC = "umac-64-etm@openssh.com"
SCHEMA = json.loads((Path(scenario.__file__).resolve().parents[2] / "export" /
                     "schema.json").read_text())


def _sample(nbytes: int, wall: float, busy: float = 0.5) -> TransferSample:
    return TransferSample(nbytes=nbytes, wall_s=wall, setup_s=0.01, client_cpu_s=wall * busy,
                          client_cpu_total_s=wall, server_cpu_s=wall * busy,
                          server_cpu_method="schedstat", sink_cpu_s=None)


def _double(rates: dict[str, float], load: list[float], nbytes: int = 1 << 20,
            busy: float = 0.5):
    """A sampler per candidate: ``rates[cipher]`` bytes/s, divided in round i (counted by the
    baseline's or any candidate's first sample of that round) by ``load[i]``, the machine's
    slowness in that round, which falls on every candidate alike."""
    state = {"round": -1}

    def sampler_for(cand: sweep.Cand):
        def sample(data, verify, max_s):
            if verify:
                return _sample(len(data), 0.01)
            rate = rates[cand.combo.cipher] / load[state["round"]]
            return _sample(nbytes, nbytes / rate, busy)
        return sample

    def on_start(cand, i):
        state["round"] = i

    return sampler_for, on_start


def _measured(rates: dict[str, float], load: list[float], *, default: str, vias=("pipe",),
              seed: int = 7, busy: float = 0.5):
    """Stored round rows of a swept double (as ``scenario._sweep`` stores them)."""
    combos = [sweep.Combo(c) if c.endswith("@openssh.com") else sweep.Combo(c, MAC)
              for c in rates if c != sweep.BASELINE]
    cands = sweep.candidates(combos, list(vias), sweep.BASELINE in rates)
    sampler_for, on_start = _double(rates, load, busy=busy)
    stored, pos = [], {}
    dflt = next(c for c in combos if c.cipher == default)

    def on_sample(c, i, s, chk):
        pos[i] = pos.get(i, 0) + 1
        stored.append(tables.round_result(c, i, pos[i], s, chk, target="t",
                                          client_default=dflt, requested=1 << 20))

    sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=len(load),
                 rng=random.Random(seed), on_start=on_start, on_sample=on_sample)
    return stored


def _loads(n: int, seed: int = 3) -> list[float]:
    rng = random.Random(seed)
    return [1 + rng.random() * 0.8 for _ in range(n)]    # up to 80% slower, round by round


def test_every_round_measures_every_candidate_once_in_a_new_order():
    seen: list[list[sweep.Cand]] = []
    sampler_for, on_start = _double({"a": 1e8, "b": 2e8, "c": 3e8, sweep.BASELINE: 1e9},
                                    [1.0] * 8)

    def start(c, i):
        on_start(c, i)
        if len(seen) <= i:
            seen.append([])
        seen[i].append(c)

    cands = sweep.candidates([sweep.Combo(x, MAC) for x in "abc"], ["pipe"], True)
    out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=8, rng=random.Random(11),
                       on_start=start)
    assert [r.order for r in out.rounds] == seen
    assert all(sorted(map(str, o)) == sorted(map(str, cands)) for o in seen)
    assert len({tuple(o) for o in seen}) > 1          # the order changes between rounds
    again = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=8,
                         rng=random.Random(11))
    assert [r.order for r in again.rounds] == seen    # the seed makes it reproducible


def test_paired_rounds_see_a_difference_that_load_hides_in_the_medians():
    load = _loads(12)
    rows = tables.rows(_measured({"aes128-ctr": 240e6, "chacha": 200e6, "same": 200e6,
                                  sweep.BASELINE: 1000e6}, load, default="chacha"))
    by = {r.cipher: r for r in rows}
    ctr, same = by["aes128-ctr"], by["same"]
    assert ctr.vs_default.state == V.FASTER and ctr.vs_default.ratio == pytest.approx(1.2)
    assert same.vs_default.state == V.CANNOT_TELL and not same.vs_default.reason  # A/A
    assert ctr.vs_baseline.state == V.SLOWER and ctr.vs_baseline.ratio == pytest.approx(0.24)
    assert by["chacha"].vs_default is None and by["chacha"].is_default
    assert ctr.n == 12 and ctr.ci_pct is not None
    # the unpaired spread is wide: the medians alone could not have told
    assert ctr.spread_pct > 10
    header, cells = tables.table_lines(rows)
    line = cells[rows.index(ctr)]
    assert line[header.index("vs dflt")] == "1.20x faster"
    assert line[header.index("vs clear")] == "0.24x slower"
    assert cells[rows.index(same)][header.index("vs dflt")].startswith("within ")
    assert cells[rows.index(by["chacha"])][header.index("vs dflt")] == "1.00x"


def test_no_verdict_from_fewer_rounds_than_a_verdict_needs():
    rows = tables.rows(_measured({"fast": 400e6, "slow": 100e6, sweep.BASELINE: 1e9},
                                 _loads(V.MIN_ROUNDS - 1), default="slow"))
    fast = next(r for r in rows if r.cipher == "fast")
    assert fast.vs_default.reason and not fast.vs_default.decided
    assert fast.ci_pct is None                        # no "95% CI" from a handful of samples
    header, cells = tables.table_lines(rows)
    assert cells[rows.index(fast)][header.index("vs dflt")] == "4.00x ?"
    neck = tables.bottleneck(rows)
    assert neck.kind == bn.UNKNOWN and "a verdict needs 6" in neck.text()


def _alone(algo: str, bps: float) -> Result:
    """The cipher measured alone in the run (``cipher_cost``'s row)."""
    return Result("ssh", "openssl", algo, "encrypt", cipher_cost.SIZE, cipher_cost.METRIC,
                  "B/s", median=bps, ci_low=bps, ci_high=bps, n_samples=9, cv=0.0)


@pytest.mark.parametrize("busy, alone, kind, words", [
    (0.95, 500e6, bn.CRYPTO, "Crypto is the bottleneck"),
    (0.95, 4000e6, bn.PROGRAM, "Ssh and sshd's own work is the bottleneck, not the cipher"),
    (0.40, 500e6, bn.PATH, "The path is the bottleneck"),
    (0.95, None, bn.UNKNOWN, "Cannot tell what limits the transfer"),
])
def test_one_bottleneck_sentence_from_the_split_of_the_time(busy, alone, kind, words):
    # the same transfers, 40% of the cleartext path each time: what decides is where the
    # time went (the cipher alone, ssh's own work, waiting), not the cleartext socket
    stored = _measured({"aes128-gcm@openssh.com": 400e6, sweep.BASELINE: 1000e6}, _loads(9),
                       default="aes128-gcm@openssh.com", busy=busy)
    rows = tables.rows(stored + ([_alone("aes-128-gcm", alone)] if alone else []))
    gcm = next(r for r in rows if not r.is_baseline)
    assert gcm.vs_baseline.state == V.SLOWER                 # the same in every case
    neck = tables.bottleneck(rows)
    assert neck.kind == kind and neck.text().startswith(words), neck.text()
    text = neck.text()
    assert text.count(". ") == 0 and text.endswith(".")         # one sentence
    assert not ("Crypto" in text and "path is" in text)
    assert neck.split is not None and neck.split.busy == pytest.approx(busy)


def test_the_split_is_pure():
    s = bn.split(400e6, 0.95, 0.90, 500e6)
    assert (s.end, s.busy, s.cipher, s.ends) == ("client", 0.95, pytest.approx(0.8), 2)
    assert s.program == pytest.approx(0.15) and s.path == pytest.approx(0.05) and s.cpu_bound
    assert bn.decide_split(s, "c").kind == bn.CRYPTO
    assert bn.decide_split(bn.split(400e6, 0.95, 0.9, 842e6), "c").kind == bn.UNKNOWN  # a tie
    assert bn.decide_split(bn.split(400e6, 0.2, 0.3, 500e6), "c").kind == bn.PATH
    # one end read (a file tool): not CPU-bound there says nothing of the far end
    one = bn.decide_split(bn.split(400e6, 0.3, None, 500e6), "c", "scp")
    assert one.kind == bn.UNKNOWN and "--via pipe" in one.text()
    assert bn.decide_split(bn.split(400e6, None, None, 500e6), "c").kind == bn.UNKNOWN
    assert bn.decide_split(s, "c", n_rounds=3).kind == bn.UNKNOWN


def test_budget_stops_new_rounds_but_not_before_a_verdict_is_possible():
    t = {"now": 0.0}
    sampler_for, on_start = _double({"a": 1e8, sweep.BASELINE: 1e9}, [1.0] * 12)

    def start(c, i):
        on_start(c, i)
        t["now"] += 1.0                              # each transfer costs a second

    cands = sweep.candidates([sweep.Combo("a", MAC)], ["pipe"], True)
    out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=12, rng=random.Random(1),
                       budget_s=0.5, on_start=start, clock=lambda: t["now"])
    assert len(out.rounds) == V.MIN_ROUNDS
    out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=3, rng=random.Random(1),
                       budget_s=0.5, on_start=start, clock=lambda: t["now"])
    assert len(out.rounds) == 3
    # no budget: the rates repeat exactly, so the rounds stop at the first planned look
    out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=12, rng=random.Random(1),
                       budget_s=None, on_start=start, clock=lambda: t["now"])
    assert len(out.rounds) == 8


def test_the_sweep_stops_at_a_planned_look_once_every_candidate_is_answered():
    """Against the client default through the same tool, under a load that moves every round
    by up to 80%: with a 30% precision every figure is answered at the first look (8 of 12
    rounds, not before); at 1% the default's own rate is not, and the rounds run to 12."""
    load = _loads(12)
    sampler_for, on_start = _double({"a": 3e8, "b": 2e8}, load)
    combos = [sweep.Combo("a", MAC), sweep.Combo("b", MAC)]
    cands = sweep.candidates(combos, ["pipe"], False)
    for precision, n in ((0.3, 8), (0.01, 12)):
        out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=12,
                          rng=random.Random(1), on_start=on_start, default=combos[1],
                          precision=precision)
        assert len(out.rounds) == n


@dataclass
class _Screen:
    console: Console
    err_console: Console


def _run(args: dict) -> Run:
    return Run(1, "ssh", "2026-01-01T00:00:00", None, "complete", args, {}, "0",
               uid="0123456789abcdef0123456789abcdef")


@pytest.mark.parametrize("width", (80, 100))
def test_stored_rounds_redraw_one_table_per_tool_that_fits(width):
    stored = _measured({"aes256-ctr": 300e6, "chacha20-poly1305@openssh.com": 250e6,
                        sweep.BASELINE: 1000e6}, _loads(8),
                       default="chacha20-poly1305@openssh.com", vias=("pipe", "rsync"))
    results = stored + tables.summary_results(stored)
    out = io.StringIO()
    screen = _Screen(Console(file=out, width=width, no_color=True, highlight=False),
                     Console(file=io.StringIO(), width=width))
    run = _run({"size": 1 << 20, "host": "127.0.0.1 (private sshd)"})
    scenario.view(screen, run, results, [])
    scenario.answer(screen, run, results)       # the command's last line, after the tables
    text = out.getvalue()
    for line in text.splitlines():
        assert len(line) <= width and "…" not in line, line
    flat = " ".join(text.split())
    assert "ssh via pipe" in flat and "ssh via rsync" in flat   # which tool moved the bytes
    assert "faster" in flat or "slower" in flat or "within" in flat
    assert sum("bottleneck" in ln for ln in text.splitlines()) == 1
    # an interrupted run has only its samples: the same table comes from them
    alone = io.StringIO()
    screen = _Screen(Console(file=alone, width=width, no_color=True, highlight=False),
                     Console(file=io.StringIO(), width=width))
    scenario.view(screen, run, stored, [])
    scenario.answer(screen, run, stored)
    assert alone.getvalue() == text


def test_summary_rows_and_json_document_follow_the_schema():
    stored = _measured({"aes128-ctr": 300e6, "chacha20-poly1305@openssh.com": 250e6,
                        sweep.BASELINE: 1000e6}, _loads(8),
                       default="chacha20-poly1305@openssh.com", vias=("pipe", "scp"))
    heads = [r for r in tables.summary_results(stored) if r.metric == "bytes_per_s"]
    assert {(r.op, r.algo) for r in heads} == {
        ("transfer", sweep.BASELINE), ("pipe", "aes128-ctr+" + MAC), ("scp", "aes128-ctr+" + MAC),
        ("pipe", "chacha20-poly1305@openssh.com"), ("scp", "chacha20-poly1305@openssh.com")}
    ctr = next(r for r in heads if r.op == "scp" and r.algo.startswith("aes128-ctr"))
    assert ctr.extra["via"] == "scp" and ctr.extra["vs_default"]["state"] in (
        V.FASTER, V.SLOWER, V.CANNOT_TELL) and ctr.n_samples == 8
    from cipherbench.export import RunBundle
    from cipherbench.export.json_export import to_document
    doc = to_document(RunBundle(_run({"size": 1 << 20}), stored + tables.summary_results(stored)))
    jsonschema.validate(doc, SCHEMA)
    assert doc["schema_version"] == SCHEMA_VERSION
    assert doc["bottleneck"]["kind"] in (bn.CRYPTO, bn.PATH, bn.UNKNOWN)
    assert {r["via"] for r in doc["ssh_rows"]} == {"tcp", "pipe", "scp"}


def test_via_choices():
    everything = lambda name: f"/usr/bin/{name}"  # noqa: E731
    no_rsync = lambda name: None if name == "rsync" else f"/usr/bin/{name}"  # noqa: E731
    assert via.choose(None, everything) == ["pipe", "sftp", "scp", "rsync"]
    assert via.choose(None, no_rsync) == ["pipe", "sftp", "scp"]
    assert via.choose(["rsync", "pipe", "rsync"], everything) == ["pipe", "rsync"]
    with pytest.raises(UsageError, match="valid: pipe, sftp, scp, rsync"):
        via.choose(["ftp"], everything)
    with pytest.raises(UsageError, match="`rsync` is not installed"):
        via.choose(["rsync"], no_rsync)


def test_a_plan_carries_via_for_the_advisor():
    p = scenario.SshPlan([sweep.Combo("aes128-ctr", MAC)], 1 << 20, via=["pipe", "scp"],
                         rounds=6, seed=5)
    assert p.args()["via"] == ["pipe", "scp"] and p.args()["rounds_seed"] == 5
    assert p.steps() == 6 * 3
    assert scenario.estimate_s(p).quiet_s > 0


def test_the_bottleneck_is_judged_where_both_ends_were_read():
    # scp moved more, but reads this end's CPU only: the pipe's fastest cipher is judged
    stored = _measured({"aes128-gcm@openssh.com": 400e6, sweep.BASELINE: 1000e6}, _loads(8),
                       default="aes128-gcm@openssh.com", vias=("pipe", "scp"), busy=0.3)
    for r in stored:
        if r.op == "scp":
            r.extra["server_cpu_s"] = None
            r.median *= 0.5                       # twice as fast as the pipe
    rows = tables.rows(stored)
    assert max((r for r in rows if not r.is_baseline), key=lambda r: r.throughput).via == "scp"
    neck = tables.bottleneck(rows)
    assert neck.via == "pipe" and neck.kind == bn.PATH, neck.text()
