# SPDX-License-Identifier: GPL-3.0-or-later
"""``run --rounds N`` against the fake core: every point once per round, a new random order
each round (reproducible from --seed), every round's median and the paired ratios stored."""
from __future__ import annotations

import statistics

from cipherbench.store import Store

ARGS = ["--lib", "openssl,libgcrypt,nettle", "--algo", "aes-128-gcm,chacha20-poly1305",
        "--op", "encrypt", "--sizes", "1024,16384", "--no-ref", "--samples", "3"]


def _asked(log) -> list[tuple[str, str, str]]:
    """(lib, algos, sizes) of every batch the core was asked for: a bench process's command
    line, or a served request (logged as the bench it stands for, after "request: ")."""
    out = []
    for line in log.read_text().splitlines():
        a = line.removeprefix("request: ").split()
        if a and a[0] == "bench":
            out.append((a[a.index("--lib") + 1], a[a.index("--algo") + 1],
                        a[a.index("--sizes") + 1]))
    return out


def test_rounds_interleave_every_point(cli, env, tmp_path):
    log = tmp_path / "core.log"
    # a core without serve: a process per batch, each its command line in the log
    e = dict(env, FAKE_CORE_LOG=str(log), FAKE_CORE_SERVE="")
    r = cli("run", *ARGS, "--rounds", "3", "--seed", "7", env_override=e)
    assert r.rc == 0, r.err
    asked = _asked(log)
    assert len(asked) == 2 * 6 * 3                      # sizes x points x rounds
    for size, chunk in (("1024", asked[:18]), ("16384", asked[18:])):
        assert {s for _, _, s in chunk} == {size}     # size by size
        rounds = [chunk[i:i + 6] for i in range(0, 18, 6)]
        for rnd in rounds:                            # each point once per round
            assert len(set(rnd)) == 6
        assert len({tuple(rnd) for rnd in rounds}) > 1   # the order changes between rounds
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        pts = [x for x in s.results(run.id) if x.metric == "ns_per_op"]
    assert run.args["rounds"] == 3 and run.args["rounds_seed"] == 7
    assert len(pts) == 12
    for p in pts:
        assert p.extra["rounds"] == 3 and len(p.extra["round_best_ns"]) == 3
        assert len(p.extra["paired_ratios"]) == 3 and p.extra["stopped_by"] == "rounds"
        if p.extra["paired_to"] == f"{p.lib}/{p.algo}/{p.op}":
            assert p.extra["paired_ratios"] == [1.0, 1.0, 1.0]
        else:
            assert statistics.median(p.extra["paired_ratios"]) >= 1.0


def test_the_seed_repeats_the_order(cli, env, tmp_path):
    orders = []
    for i in range(2):
        log = tmp_path / f"core{i}.log"
        e = dict(env, FAKE_CORE_LOG=str(log), CIPHERBENCH_DB=str(tmp_path / f"r{i}.sqlite"))
        assert cli("run", *ARGS, "--rounds", "2", "--seed", "11", env_override=e).rc == 0
        orders.append(_asked(log))
    assert orders[0] and orders[0] == orders[1]


def test_seed_needs_rounds(cli):
    r = cli("run", "--seed", "3", "--rounds", "off")
    assert r.rc == 2 and "--seed orders the rounds: leave out --rounds off" in r.err


def test_the_default_run_is_adaptive_rounds(cli, env):
    """Without --rounds, `run` measures in adaptive interleaved rounds: the fake core's
    figures repeat exactly, so every cell is answered at the first planned look."""
    e = dict(env, FAKE_CORE_SERVE="1")
    # a generous --budget: on a busy machine the preset's run budget could end the rounds first
    r = cli("run", *ARGS, "--budget", "30", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        pts = [x for x in s.results(run.id) if x.metric == "ns_per_op"]
    assert run.args["rounds"] == "adaptive"
    assert {p.extra["rounds"] for p in pts} == {8}
    assert {p.extra["stopped_by"] for p in pts} == {"decided"}


def test_rounds_off_measures_one_library_after_the_other(cli, env, tmp_path):
    log = tmp_path / "core.log"
    r = cli("run", *ARGS, "--rounds", "off", env_override=dict(env, FAKE_CORE_LOG=str(log)))
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        assert "rounds" not in s.get_run("last").args
    # one batch of every algorithm and size per library, as rounds never ask (a busy machine
    # may add a point's extra samples, so the count of requests proves nothing)
    assert any("," in algos and "," in sizes for _, algos, sizes in _asked(log))


def test_full_and_threads_keep_one_library_after_the_other_unless_asked():
    from cipherbench.presets import DEFAULT, FULL, QUICK
    from cipherbench.scenarios.primitive.command import parse_rounds
    assert parse_rounds(None, DEFAULT) == (0, True)
    assert parse_rounds(None, QUICK) == (0, True)
    assert parse_rounds(None, FULL) == (0, False)
    assert parse_rounds(None, DEFAULT, n_threads=2) == (0, False)
    assert parse_rounds("auto", FULL) == (0, True)
    assert parse_rounds("off", DEFAULT) == (0, False)
    assert parse_rounds("5", DEFAULT) == (5, False)


def test_adaptive_rounds_stop_at_the_first_look_when_every_cell_is_answered(cli, env):
    """`--rounds auto`: the fake core's figures repeat exactly, so every cell is precise at
    the first planned look (8 rounds) and the rounds stop there, not later and not at 6."""
    e = dict(env, FAKE_CORE_SERVE="1")
    r = cli("run", *ARGS, "--rounds", "auto", "--seed", "3", "--budget", "30", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        pts = [x for x in s.results(run.id) if x.metric == "ns_per_op"]
    assert run.args["rounds"] == "adaptive"
    assert len(pts) == 12
    assert {p.extra["rounds"] for p in pts} == {8}
    assert {p.extra["stopped_by"] for p in pts} == {"decided"}


def test_adaptive_rounds_stop_on_the_budget_but_not_before_a_verdicts_rounds(cli, env):
    """--budget 0: no time for more than the fewest rounds a verdict needs (6), and the cells
    not answered by then carry a warning."""
    e = dict(env, FAKE_CORE_SERVE="1")
    r = cli("run", *ARGS, "--rounds", "auto", "--budget", "0", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        pts = [x for x in s.results(s.get_run("last").id) if x.metric == "ns_per_op"]
    assert {p.extra["rounds"] for p in pts} == {6}
    assert {p.extra["stopped_by"] for p in pts} == {"budget"}


def test_rounds_takes_a_count_or_auto(cli):
    for bad in ("1", "101", "many"):
        r = cli("run", "--rounds", bad)
        assert r.rc == 2 and "valid: a whole number from 2 to 100, auto or off" in r.err
    r = cli("run", "--rounds", "auto", "--threads", "2")
    assert r.rc == 2 and "choose one" in r.err
