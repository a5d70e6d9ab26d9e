# SPDX-License-Identifier: GPL-3.0-or-later
"""gpg in randomized interleaved rounds: the order of the calls, the paired verdicts against the
default cipher (test doubles for the programs' timing), what is stored and redrawn, and a short
run of the real gpg."""
from __future__ import annotations

import io
import json
import random
import shutil
import tempfile
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import cipherbench
from cipherbench.analysis import verdict as V
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.scenarios.gpg import interleaved, candidates, scenario, tables
from cipherbench.scenarios.gpg.process import Timed
from cipherbench.scenarios.gpg.candidates import Candidate
from cipherbench.store import Result, Run, Store

needs_gpg = pytest.mark.skipif(shutil.which("gpg") is None, reason="gpg is not installed")
SCHEMA = json.loads((Path(cipherbench.__file__).parent / "export" / "schema.json").read_text())

AES, AES256, TWOFISH = (Candidate("gpg", a) for a in ("AES", "AES256", "TWOFISH"))


class FakeTool:
    """Argument vectors naming the cipher, so the fake program knows whom it times."""

    def encrypt(self, algo):
        return ["enc", algo]

    def decrypt(self, algo):
        return ["dec", algo]


class FakePrograms:
    """Stands in for ``run_timed``: a call of cipher X takes ``cost[X]`` seconds times the
    load of the moment (one factor per round, drawn at random: a busy minute slows every call
    of that round alike), and echoes its input (so the round-trip check passes)."""

    def __init__(self, cost: dict[str, float], slots_per_round: int, seed: int = 1,
                 fail: tuple[str, int] | None = None,
                 loads: tuple[float, ...] = (1.0, 1.0, 1.6, 2.5, 4.0)):
        self.cost = cost
        self.per_round = slots_per_round
        self.rng = random.Random(seed)
        self.loads = loads
        self.calls: list[tuple[str, str]] = []
        self.timed = 0
        self.fail = fail
        self.load = 1.0

    def __call__(self, argv, data, env, capture=False, timeout=3600.0, cpu=None):
        if capture:   # the round-trip check, not timed
            return Timed(0.0, 0.0, 0.0, 0, "", bytes(data))
        if self.timed % self.per_round == 0:
            self.load = self.rng.choice(self.loads)
        rnd = self.timed // self.per_round
        self.timed += 1
        op, algo = argv
        self.calls.append((op, algo))
        if self.fail and self.fail == (algo, rnd):
            return Timed(0.01, 0.01, 0.0, 2, "gpg: fake failure\n")
        wall = self.cost[algo] * self.load
        return Timed(wall, wall * 0.9, 0.0, 0, "")


def _run(monkeypatch, cands, cost, *, ops=("encrypt",), n_rounds=12, seed=7, fail=None,
         budget_s=1e9, precision=0.0, fixed=False, twins=(), loads=None):
    slots = interleaved.slots_for(cands, ops, 1000, fixed_cost=fixed)
    slots += [interleaved.Slot(c, "encrypt", 1000, twin=1) for c in twins]
    fake = FakePrograms(cost, len(slots), fail=fail, **({"loads": loads} if loads else {}))
    monkeypatch.setattr(interleaved, "run_timed", fake)
    monkeypatch.setattr(candidates, "run_timed", fake)
    base = {op: interleaved.Slot(AES256, op, 1000) for op in ops}
    out = interleaved.measure_in_rounds({"gpg": FakeTool()}, slots, b"x" * 1000, {},
                                        n_rounds=n_rounds, rng=random.Random(seed),
                                        budget_s=budget_s, precision=precision, base=base)
    return out, slots, fake


def test_every_round_runs_every_call_once_in_a_new_random_order(monkeypatch):
    out, slots, fake = _run(monkeypatch, [AES, AES256, TWOFISH], {"AES": 1, "AES256": 1.2,
                                                                  "TWOFISH": 2},
                            ops=("encrypt", "decrypt"), fixed=True)
    assert len(out.done) == 12 and len(slots) == 3 * 2 + 3
    orders = [tuple(r.order) for r in out.done]
    for order in orders:
        assert sorted(order, key=str) == sorted(slots, key=str)
    assert len(set(orders)) > 6                  # a fresh order nearly every round
    # the calls the programs saw are the rounds' orders, one round after the other
    assert fake.calls == [(s.op[:3], s.cand.algo) for o in orders for s in o]
    again, _, _ = _run(monkeypatch, [AES, AES256, TWOFISH], {"AES": 1, "AES256": 1.2,
                                                             "TWOFISH": 2},
                       ops=("encrypt", "decrypt"), fixed=True)
    assert [tuple(r.order) for r in again.done] == orders   # the seed fixes the plan


def test_paired_ratios_see_through_load_that_hides_the_difference(monkeypatch):
    # AES 10% faster than AES256, TWOFISH the same as AES256; the load moves every call by
    # up to 4x, so the plain per-cipher intervals overlap
    out, _, _ = _run(monkeypatch, [AES, AES256, TWOFISH],
                     {"AES": 0.9, "AES256": 1.0, "TWOFISH": 1.0}, n_rounds=12)
    base = interleaved.Slot(AES256, "encrypt", 1000)
    aes = interleaved.paired(out, base, interleaved.Slot(AES, "encrypt", 1000))
    assert aes.ratio == pytest.approx(1 / 0.9) and aes.n_rounds == 12
    assert V.judge(aes).state == V.FASTER
    tw = V.judge(interleaved.paired(out, base, interleaved.Slot(TWOFISH, "encrypt", 1000)))
    assert tw.state == V.CANNOT_TELL and "within 1%" in tw.text()
    _, walls = out.walls(interleaved.Slot(AES, "encrypt", 1000))
    assert max(walls) / min(walls) > 2        # unpaired, the load would swamp 10%


def test_a_cipher_entered_twice_cannot_be_told_apart(monkeypatch):
    out, _, _ = _run(monkeypatch, [AES256, TWOFISH], {"AES256": 1.0, "TWOFISH": 1.5},
                     twins=[AES256])
    p = interleaved.paired(out, interleaved.Slot(AES256, "encrypt", 1000),
                           interleaved.Slot(AES256, "encrypt", 1000, twin=1))
    assert V.judge(p).state == V.CANNOT_TELL
    slower = interleaved.paired(out, interleaved.Slot(AES256, "encrypt", 1000),
                                interleaved.Slot(TWOFISH, "encrypt", 1000))
    assert V.judge(slower).state == V.SLOWER


def test_no_verdict_from_fewer_rounds_than_it_needs(monkeypatch):
    out, _, _ = _run(monkeypatch, [AES, AES256], {"AES": 0.5, "AES256": 1.0}, n_rounds=4)
    p = interleaved.paired(out, interleaved.Slot(AES256, "encrypt", 1000),
                           interleaved.Slot(AES, "encrypt", 1000))
    v = V.judge(p)
    assert len(out.done) == 4 and not v.decided and "a verdict needs 6" in v.text()


def test_a_failing_cipher_leaves_the_later_rounds_with_its_reason(monkeypatch):
    out, _, fake = _run(monkeypatch, [AES, AES256, TWOFISH], {"AES": 1, "AES256": 1,
                                                              "TWOFISH": 1},
                        fail=("TWOFISH", 2))
    assert "fake failure" in out.failed[TWOFISH]
    _, walls = out.walls(interleaved.Slot(TWOFISH, "encrypt", 1000))
    assert len(walls) == 2 and len(out.done) == 12
    assert sum(1 for _, a in fake.calls if a == "TWOFISH") == 3   # never called again


def test_rounds_stop_at_the_budget_but_not_before_a_verdict_has_its_rounds(monkeypatch):
    out, _, _ = _run(monkeypatch, [AES, AES256], {"AES": 1, "AES256": 1}, budget_s=0.0)
    assert len(out.done) == V.MIN_ROUNDS


def test_rounds_stop_once_every_figure_is_precise(monkeypatch):
    out, _, _ = _run(monkeypatch, [AES, AES256], {"AES": 1, "AES256": 1.1}, precision=0.01,
                     loads=(1.0,))
    assert len(out.done) == 8   # the first planned look (``rounds.Sequential.within(12)``)
    # the figure is the fastest call, its interval up to the next fastest: noisy means no two
    # rounds run at the same speed (5% apart at least)
    noisy, _, _ = _run(monkeypatch, [AES, AES256], {"AES": 1, "AES256": 1.1}, precision=0.01,
                       loads=tuple(1 + 0.05 * k for k in range(40)))
    assert len(noisy.done) == 12


# -- stored rows, tables and the export ---------------------------------------------------------

def _rows(default="AES256", rounds=12, ratio=0.8, with_rounds=True):
    """Stored rows of a run measured in rounds: AES256 (the default) and TWOFISH ``ratio``
    times its speed, CAST5 the same speed, each op's per-round walls with a round load."""
    mib = 1 << 20
    load = [1.0, 1.7, 1.0, 2.4, 1.1, 1.0, 3.0, 1.2, 1.0, 1.5, 1.0, 2.0][:rounds]
    out = []
    for algo, factor in (("AES256", 1.0), ("TWOFISH", 1 / ratio), ("CAST5", 1.0)):
        walls = [0.2 * factor * x for x in load]
        med = sorted(walls)[len(walls) // 2]
        extra = {"wall_s": med, "default_cipher": default}
        if with_rounds:
            extra.update({"samples_s": walls, "rounds_at": list(range(rounds)),
                          "rounds": rounds})
        out.append(Result("gpg", "gnupg", algo, "encrypt", 32 * mib, "bytes_per_s", "B/s",
                          32 * mib / med, extra=extra))
        out.append(Result("gpg", "gnupg", algo, "encrypt", 0, "seconds", "s", 0.05,
                          extra={"default_cipher": default}))
    return out


def test_verdicts_are_paired_again_from_the_stored_rounds():
    v = tables.versus_default(_rows())
    assert set(v) == {("gnupg", "TWOFISH", "encrypt"), ("gnupg", "CAST5", "encrypt")}
    assert v[("gnupg", "TWOFISH", "encrypt")].state == V.SLOWER
    assert v[("gnupg", "TWOFISH", "encrypt")].ratio == pytest.approx(0.8)
    assert v[("gnupg", "CAST5", "encrypt")].state == V.CANNOT_TELL
    few = tables.versus_default(_rows(rounds=5))
    assert "a verdict needs 6" in few[("gnupg", "TWOFISH", "encrypt")].text()
    assert tables.versus_default(_rows(with_rounds=False)) == {}   # runs before the rounds


def _view(results, width):
    out = io.StringIO()

    class _Screen:
        console = Console(file=out, width=width, force_terminal=False)
        err_console = console

    run = Run(3, "gpg", "2026-01-01T00:00:00", None, "complete",
              {"size": 32 << 20, "backup_size": 50 << 30}, {}, "0")
    scenario.view(_Screen(), run, results, [])
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 100])
def test_the_verdict_table_fits_narrow_terminals(width):
    text = _view(_rows(), width)
    assert all(len(line) <= width and "…" not in line for line in text.splitlines())
    words = " ".join(text.split())
    assert "gpg's default cipher (AES256)" in words and "12 rounds" in words
    assert "slower" in words and "cannot tell here (within" in words
    assert "0.80x" in words and "gpg's default: the reference" in words


def test_the_answer_does_not_rank_inside_the_noise():
    rows = tables.rows_from_results(_rows())
    text = tables.answer(rows, 50 << 30, "50 GiB")
    # AES256 and CAST5 (legacy) tie; the fastest sound one is the default itself here
    assert "gpg --cipher-algo AES256" in text


def test_export_carries_the_verdicts_and_follows_the_schema(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(str(db)) as store:
        run_id = store.begin_run("gpg", {"size": 32 << 20, "backup_size": 1 << 30,
                                         "rounds": 12, "seed": 5}, {})
        for r in _rows():
            store.add_result(run_id, r)
        store.finish_run(run_id, "complete")
        doc = json.loads(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
    jsonschema.validate(doc, SCHEMA)
    rows = {r["algo"]: r for r in doc["rows"]}
    assert rows["AES256"]["is_default"] and rows["AES256"]["vs_default"] == {}
    tw = rows["TWOFISH"]["vs_default"]["encrypt"]
    assert tw["verdict"] == "slower" and tw["rounds"] == 12
    assert tw["ci_low"] <= tw["ratio"] <= tw["ci_high"] < 1


# -- the real gpg -------------------------------------------------------------------------------

@needs_gpg
def test_gpg_names_its_own_default_cipher():
    from cipherbench.scenarios.gpg.home import private_gnupg_home
    with private_gnupg_home() as home:
        name = interleaved.default_cipher(shutil.which("gpg"), home.gpg_args(), home.env)
    assert name in interleaved.OPENPGP_CIPHERS.values()


@needs_gpg
def test_cli_measures_in_rounds_and_show_redraws_the_verdicts(cli, env):
    env = dict(env)
    env.pop("CIPHERBENCH_CORE")
    tmp = Path(tempfile.mkdtemp(prefix="cbr-", dir="/tmp"))   # short: gpg-agent's socket
    env["TMPDIR"] = str(tmp)
    try:
        out = cli("gpg", "--algo", "TWOFISH", "--size", "64K", "--ops", "encrypt",
                  "--rounds", "6", "--seed", "3", "--no-core", env_override=env)
        assert out.rc == 0, out.err
        assert "measured too" in out.err                     # gpg's default joins the rounds
        assert "paired per round (6 rounds" in " ".join(out.out.split())
        with Store.open(env["CIPHERBENCH_DB"]) as store:
            run = store.runs()[0]
            assert run.args["rounds"] == 6 and run.args["seed"] == 3
            bulk = [r for r in store.results(run.id) if r.metric == "bytes_per_s"]
            assert {len(r.extra["rounds_at"]) for r in bulk} == {6}
        shown = cli("show", str(run.id), env_override=env)
        assert shown.rc == 0 and "TWOFISH" in shown.out and "vs " in shown.out
        doc = cli("export", str(run.id), "--format", "json", env_override=env).json()
        jsonschema.validate(doc, SCHEMA)
        tw = next(r for r in doc["rows"] if r["algo"] == "TWOFISH")
        assert tw["vs_default"]["encrypt"]["rounds"] == 6
        assert list(tmp.iterdir()) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
