# SPDX-License-Identifier: GPL-3.0-or-later
"""`run` shows cycles per byte only from a clock the statistics trust, and marks a headline
that disagrees with the slope; --cpu reaches every core process; --wait-quiet waits, bounded."""
from __future__ import annotations

import json

from conftest import write_recordings

from cipherbench.analysis import clock
from cipherbench.machine import load
from cipherbench import run_warnings as W
from cipherbench.clikit.quiet import wait_for_quiet
from cipherbench.display.format import format_cell, format_results
from cipherbench.scenarios.primitive.batches import PrimitiveRunner, Selection
from cipherbench.store import Store

ALGOS = {"aes-128-gcm": ("aead", ["encrypt"])}


def _recordings(tmp_path, walls, end_hz=3e9, probes=None):
    rec = write_recordings(tmp_path / "rec", "openssl",
                           {("aes-128-gcm", "encrypt", s): [w] * 12 for s, w in walls.items()},
                           ALGOS)
    if end_hz != 3e9 or probes:
        path = rec / "bench-openssl.jsonl"
        lines = [json.loads(l) for l in path.read_text().splitlines()]
        for r in lines:
            if r["type"] == "end":
                r["freq_hz"] = end_hz
            if probes and r["type"] in ("preamble", "point", "end"):
                r.update(probes)
        path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return rec


def _run(cli, env, rec, *more):
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec))
    return cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--op", "encrypt",
               "--sizes", "1024,16384", "--no-ref", "--samples", "6", *more, env_override=e)


def _run_meta(env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.runs()[-1]
        return run, s.results(run.id), s.warnings(run.id)


LINE = {1024: 1024 * 0.25 + 100, 16384: 16384 * 0.25 + 100}


def test_old_records_trust_the_clock_from_freq_hz(cli, env, tmp_path):
    # records of an older core carry only freq_hz: the clock is trusted when it held still
    r = _run(cli, env, _recordings(tmp_path, LINE))
    assert r.rc == 0, r.err
    assert "0.75 c/B" in r.out          # 0.25 ns/B x 3 GHz
    run, results, warnings = _run_meta(env)
    assert run.metadata["clock_trust"]["trusted"] is True
    assert not [w for w in warnings if w.kind == W.Kind.CLOCK]


def test_a_clock_that_moved_withholds_cycles_per_byte_with_one_warning(cli, env, tmp_path):
    r = _run(cli, env, _recordings(tmp_path, LINE, end_hz=2e9))
    assert r.rc == 0, r.err
    assert "c/B" not in r.out and "GB/s" in r.out      # the throughput stays
    run, results, warnings = _run_meta(env)
    clocks = [w for w in warnings if w.kind == W.Kind.CLOCK]
    assert len(clocks) == 1 and "moved" in clocks[0].text and "--wait-quiet" in clocks[0].text
    fit = next(x for x in results if x.metric == "slope_ns_per_byte")
    assert fit.extra["cycles_per_byte"] is None and "moved" in fit.extra["cycles_per_byte_withheld"]
    assert run.metadata["clock_trust"]["trusted"] is False
    shown = cli("show", "last", env_override=dict(env))
    assert shown.rc == 0 and "not trusted: the clock moved" in shown.out
    assert "GHz measured" not in shown.out      # no clock figure beside "not trusted"
    # the governor is not blamed for it (none is set in these metadata, or it is not scaling)
    assert not [w for w in warnings if w.kind == W.Kind.FREQUENCY
                and run.metadata.get("governor") in (None, "", "performance", "schedutil")]


def test_probes_from_a_busy_machine_withhold_cycles_per_byte(cli, env, tmp_path):
    # even the fastest probes spread far apart: the machine did not let the clock be measured
    walls = [30000, 31500, 33000, 34500, 36000, 45000, 46000, 44000, 47000, 52000, 50000]
    probes = {"freq_cycles": 100000, "freq_wall_ns": walls, "freq_cpu_ns": walls}
    # one batch per library: replayed rounds would repeat the same fastest probe five times
    r = _run(cli, env, _recordings(tmp_path, LINE, probes=probes), "--rounds", "off")
    assert r.rc == 0, r.err
    assert "c/B" not in r.out
    _, _, warnings = _run_meta(env)
    clocks = [w for w in warnings if w.kind == W.Kind.CLOCK]
    assert len(clocks) == 1 and "spread" in clocks[0].text


def test_a_headline_off_the_slope_is_marked_and_warned(cli, env, tmp_path):
    # three sizes in the fit; the headline at 16 KiB sits far above the line of the others
    walls = {1024: 1024 * 0.25 + 100, 8192: 8192 * 0.25 + 100, 16384: 16384 * 0.6 + 100,
             65536: 65536 * 0.25 + 100}
    rec = _recordings(tmp_path, walls)
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec))
    r = cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--op", "encrypt", "--sizes",
            "1024,8192,16384,65536", "--no-ref", "--samples", "6", env_override=e)
    assert r.rc == 0, r.err
    assert " ?" in r.out and "? the headline figure and the slope" in r.out
    _, results, warnings = _run_meta(env)
    coh = [w for w in warnings if w.kind == W.Kind.COHERENCE]
    assert len(coh) == 1 and "16384" in coh[0].subject
    fit = next(x for x in results if x.metric == "slope_ns_per_byte")
    assert fit.extra["headline_check"]["size"] == 16384
    md = cli("export", "--format", "markdown", "last", env_override=e)
    assert md.rc == 0 and "? the headline figure and the slope" in md.out


def test_a_headline_on_the_line_is_not_marked(cli, env, tmp_path):
    r = _run(cli, env, _recordings(tmp_path, LINE))
    assert r.rc == 0 and " ?" not in r.out and "? the headline" not in r.out


class _Rec:
    """The little a runner needs of a Recording."""

    def __init__(self):
        self.results, self.warnings = [], []

    def add(self, r):
        self.results.append(r)

    def warn(self, ws):
        self.warnings.extend(ws)


def test_fits_take_the_clock_of_the_whole_run():
    runner = PrimitiveRunner(None, _Rec(), Selection(("openssl",), ("aes-128-gcm",), None,
                                                      (1024, 16384)))
    runner.out.clocks += [clock.ClockEstimate.bare(3.0e9), clock.ClockEstimate.bare(3.05e9)]
    runner.add_fit("openssl", "aes-128-gcm", "encrypt", {1024: 356.0, 16384: 4196.0})
    # a later record of the same run whose clock moved: the earlier fit loses its c/B too
    runner.out.clocks.append(clock.ClockEstimate.bare(2.0e9))
    runner.store_fits(16384)
    fit = runner.rec.results[0]
    assert fit.extra["cycles_per_byte"] is None
    assert [w.kind for w in runner.rec.warnings] == [W.Kind.CLOCK]


def test_format_shows_no_cycles_per_byte_where_withheld():
    from cipherbench.store import Result
    pt = Result(scenario="primitive", lib="openssl", algo="aes-128-gcm", op="encrypt",
                size=16384, metric="ns_per_op", unit="ns", median=4196.0, ci_low=4190.0,
                ci_high=4200.0, n_samples=6, cv=0.01, extra={})
    fit = Result(scenario="primitive", lib="openssl", algo="aes-128-gcm", op="encrypt",
                 size=None, metric="slope_ns_per_byte", unit="ns/B", median=0.25, n_samples=2,
                 extra={"cycles_per_byte": None, "cycles_per_byte_withheld": "busy"})
    cell = format_results([pt, fit]).rows[0].cells["openssl"]
    assert cell.cycles_per_byte is None and "c/B" not in format_cell(cell)


def test_cpu_reaches_every_core_process(cli, env, tmp_path):
    log = tmp_path / "core.log"
    e = dict(env, FAKE_CORE_RECORDINGS=str(_recordings(tmp_path, LINE)), FAKE_CORE_LOG=str(log),
             FAKE_CORE_SERVE="")   # a process per batch: each names its --cpu
    r = cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--op", "encrypt", "--sizes",
            "1024,16384", "--no-ref", "--cpu", "0", "--rounds", "2", env_override=e)
    assert r.rc == 0, r.err
    benches = [l for l in log.read_text().splitlines() if " bench " in f" {l} "]
    assert benches and all("--cpu 0" in l for l in benches)


def test_cpu_and_threads_exclude_each_other(cli, env):
    r = cli("run", "--cpu", "0", "--threads", "2")
    assert r.rc == 2 and "--cpu" in r.err and "Traceback" not in r.err


def test_run_says_how_much_of_the_cpu_it_got_and_stores_it(cli, env, tmp_path):
    r = _run(cli, env, _recordings(tmp_path, LINE))
    assert r.rc == 0
    assert "cipherbench: load: " in r.err and "of its CPU" in r.err
    run, _, _ = _run_meta(env)
    assert {"load_start", "load_end", "cpu_share"} <= set(run.metadata)
    assert isinstance(run.metadata["load_start"]["others"], int)
    shown = cli("show", "last")
    assert shown.rc == 0 and "of its CPU" in shown.out


def test_wait_for_quiet_is_bounded_and_says_what_it_found():
    said = []
    busy = load.LoadSnapshot(2, (3.0, 3.0, 3.0), 4, 4, ())
    t = [0.0]

    def wait(seconds):
        return load.wait_quiet(seconds, look=lambda: busy, clock=lambda: t[0],
                               sleep=lambda s: t.__setitem__(0, t[0] + s))
    wait_for_quiet(said.append, 2.0, wait)
    assert len(said) == 2 and "up to 2 s" in said[0] and "still busy" in said[1]
    assert t[0] <= 2.0 + 1e-9
    said.clear()
    wait_for_quiet(said.append, None, wait)
    assert said == []


def test_wait_quiet_takes_an_optional_value(cli, env, tmp_path):
    r = _run(cli, env, _recordings(tmp_path, LINE), "--wait-quiet=0")
    assert r.rc == 0, r.err
    assert "waiting up to 0 s for a quiet machine" in r.err
