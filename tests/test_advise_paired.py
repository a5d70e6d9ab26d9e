# SPDX-License-Identifier: GPL-3.0-or-later
"""advise takes an ssh run's own paired verdicts when the run stored its rounds (``round_s``):
a choice is named faster than the default only when its paired verdict says so, with the
paired ratio and its interval; inside the noise it says "cannot tell"; the bottleneck is the
ssh scenario's judgement (the fastest choice's time split into the cipher's own work, ssh's
and the waiting), a narrower --link capping it; runs stored
before the rounds keep the interval rule. The runs are stored through the real store by the
real sweep and the ssh scenario's own row builders (advise_fixtures.add_ssh_rounds)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import cipherbench
from advise_fixtures import LOAD, add_ssh, add_ssh_rounds, steady
from cipherbench.analysis import verdict as V
from cipherbench.advise import engine
from cipherbench.advise.bottleneck import INTERVAL_RULE, LINK_RULE, SPLIT_RULE
from cipherbench.advise.record import SCHEMA
from cipherbench.scenarios.ssh import tables
from cipherbench.store import Store

GCM, CHACHA, BASE = "aes128-gcm@openssh.com", "chacha20-poly1305@openssh.com", "cleartext-tcp"
SCHEMA_DOC = json.loads((Path(cipherbench.__file__).parent / "export" /
                         "advise.schema.json").read_text())
#: one candidate's own wobble, round by round, on top of the machine's load
WOBBLE = [1.06, 0.94] * 6


@pytest.fixture(autouse=True)
def chacha_default(monkeypatch):
    """The client's default as OpenSSH ships it, whatever ssh this machine has."""
    monkeypatch.setattr(engine, "ssh_client_default", lambda *a, **k: CHACHA)


def _advise(cli, env, rounds: dict[str, list[float]], *args: str, **more) -> dict:
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = add_ssh_rounds(s, rounds, ["aes"], **more)
    out = cli("advise", "--no-measure", "--json", "--for", "ssh", *args)
    assert out.rc == 0, out.err
    doc = out.json()
    jsonschema.validate(doc, SCHEMA_DOC)
    assert doc["schema"] == SCHEMA == SCHEMA_DOC["properties"]["schema"]["const"]
    t = doc["targets"][0]
    assert run in t["evidence_runs"]
    return t


def _cand(t: dict, choice: str) -> dict:
    return next(c for c in t["candidates"] if c["choice"] == choice)


def _ssh_table(env) -> dict[str, tables.Row]:
    """What `cipherbench ssh` shows for the stored run: its own rows."""
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.runs()[-2]          # the newest is the advice
        assert run.command == "ssh"
        return {r.algo: r for r in tables.rows(s.results(run.id, "ssh"))}


def test_a_paired_faster_choice_is_named_with_its_paired_factor(cli, env):
    # 7% apart under a load that moves every round by up to 60%: the plain intervals of the
    # two medians overlap, the paired rounds tell them apart (the ssh table says "faster")
    t = _advise(cli, env, {GCM: steady(640, LOAD), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)})
    row = _ssh_table(env)[GCM]
    assert row.vs_default.state == V.FASTER
    gcm = _cand(t, GCM)
    assert gcm["vs_default"]["state"] == "faster" and gcm["rank"] == 1
    assert gcm["vs_default"]["ratio"] == pytest.approx(row.vs_default.ratio)
    assert gcm["cannot_tell_from_above"] is None
    assert _cand(t, CHACHA)["rank"] == 2 and _cand(t, CHACHA)["cannot_tell_from_above"] is None
    assert t["recommendation"]["choice"] == GCM
    assert t["answer"] == ("For ssh, use aes128-gcm@openssh.com. It is measurably faster than "
                           "the default (chacha20-poly1305@openssh.com).")
    assert gcm["vs_default"]["figure"] == "wall_s"      # these rounds' CPU is not to the ns
    # the factor is the paired one, on its own line with its interval and rounds
    assert ("1.07x the default's speed (95% CI 1.07-1.07, 12 rounds; paired rounds of run "
            ) in t["figures"]
    assert t["verdict"]["versus"]["basis"].startswith("paired rounds of run ")


def test_inside_the_noise_advise_cannot_tell_and_claims_no_factor(cli, env):
    # each round 6% either way of the default, the median a little above it: the ssh table
    # says "cannot tell"; so does advise, and it keeps the default
    t = _advise(cli, env, {GCM: steady(615, LOAD, WOBBLE), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)})
    assert _ssh_table(env)[GCM].vs_default.state == V.CANNOT_TELL
    gcm, chacha = _cand(t, GCM), _cand(t, CHACHA)
    assert gcm["rate"]["bytes_per_s"] > chacha["rate"]["bytes_per_s"]   # the medians alone
    assert gcm["vs_default"]["state"] == "cannot tell"
    assert gcm["rank"] == chacha["rank"] == 1
    assert gcm["cannot_tell_from_above"].startswith("cannot tell apart from the row above here")
    assert t["recommendation"]["choice"] == CHACHA
    answer = t["answer"]
    assert answer.startswith("For ssh, keep the default, chacha20-poly1305@openssh.com")
    assert "cannot tell here (within 9%)" in t["figures"]
    assert "x what the default" not in answer and "x faster" not in answer
    assert "x the work per CPU second" not in answer
    assert "fastest choice" not in answer
    # the bottleneck is judged for the fastest allowed choice, as the ssh table judges it
    # (each end busy half the time: the path)
    assert t["bottleneck"].startswith("The path is the bottleneck, not the cipher: with "
                                      "aes128-gcm@openssh.com")
    # the config line puts the default first, the choice the answer names
    ciphers = next(c["text"] for c in t["config"] if c["text"].strip().startswith("Ciphers"))
    assert ciphers.split()[1].startswith(CHACHA)


def test_too_few_rounds_give_no_verdict_and_no_factor(cli, env):
    t = _advise(cli, env, {GCM: steady(900, LOAD[:4]), CHACHA: steady(600, LOAD[:4]),
                           BASE: steady(3000, LOAD[:4])})
    gcm = _cand(t, GCM)
    assert gcm["vs_default"]["reason"] == "4 rounds, a verdict needs 6"
    assert t["recommendation"]["choice"] == CHACHA
    assert "cannot tell: 4 rounds, a verdict needs 6" in t["figures"]
    assert "1.50x" not in t["answer"]
    assert t["bottleneck"].startswith("Cannot tell what limits the transfer: 4 rounds of "
                                      "aes128-gcm@openssh.com; a verdict needs 6")
    assert t["bottleneck_verdict"]["state"] == "cannot tell"


#: the ciphers' own rates alone (MB/s), as the ssh run measures them with the core
ALONE = {"aes-128-gcm": 1200, "chacha20-poly1305": 1000}


@pytest.mark.parametrize("busy, alone, state, start", [
    # both ends CPU-bound, the cipher alone 1200 MB/s against 735 moved (the median over
    # the loaded rounds): 61% of the time
    (0.95, ALONE, "crypto-bound", "Crypto is the bottleneck: aes128-gcm@openssh.com keeps "
                                  "the client CPU-bound (95% of the time), and the cipher's "
                                  "own work is the largest part (cipher 61%, ssh and sshd "
                                  "34%, waiting 5%)"),
    # CPU-bound, the cipher alone 4x what moved: ssh's own work is most of it
    (0.95, {"aes-128-gcm": 4000}, "program-bound",
     "Ssh and sshd's own work is the bottleneck, not the cipher"),
    # the ends mostly wait
    (0.3, ALONE, "path-bound", "The path is the bottleneck, not the cipher"),
    # CPU-bound, but nothing measured the cipher alone: cannot split it
    (0.95, None, "cannot tell", "Cannot tell what limits the transfer: the client was "
                                "CPU-bound (95%), but the cipher's own cost was not measured"),
])
def test_the_bottleneck_splits_the_transfer_time_of_the_fastest_choice(
        cli, env, busy, alone, state, start):
    t = _advise(cli, env, {GCM: steady(900, LOAD), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)}, busy=busy, alone=alone)
    assert t["recommendation"]["choice"] == GCM
    text, v = t["bottleneck"], t["bottleneck_verdict"]
    assert text.startswith(start), text
    assert "Decided by the paired rounds of run" in text
    assert v["rule"] == SPLIT_RULE and v["state"] == state
    assert v["parts"]["busy_share"] == pytest.approx(min(busy, 1.0))
    row = _ssh_table(env)[GCM]
    # the paired verdict against the baseline is kept beside it, never what decides
    assert v["share"] == pytest.approx(row.vs_baseline.ratio, abs=1e-4)
    assert _cand(t, GCM)["vs_baseline"]["state"] == row.vs_baseline.state


def test_slower_than_the_cleartext_socket_is_not_crypto_when_the_ends_wait(cli, env):
    # The seen case: the fastest cipher moves 30% of what a plain socket moves, while ssh
    # and sshd use 14% of a core each, and the cipher alone is 5x faster than what moved:
    # neither the cipher nor ssh limits the transfer; the path (or CPU it did not get) does.
    t = _advise(cli, env, {GCM: steady(900, LOAD), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)}, busy=0.14,
                alone={"aes-128-gcm": 4500, "chacha20-poly1305": 1800})
    assert _cand(t, GCM)["vs_baseline"]["state"] == "slower"
    assert not t["bottleneck"].startswith("Crypto is the bottleneck"), t["bottleneck"]
    assert t["bottleneck_verdict"]["state"] == "path-bound"
    assert "the busier end (client) runs only 14% of the time" in t["bottleneck"]
    assert "waiting 86%" in t["bottleneck"]


def test_a_link_narrower_than_the_baseline_caps_it_with_the_link_rule(cli, env):
    rounds = {GCM: steady(900, LOAD), CHACHA: steady(600, LOAD), BASE: steady(3000, LOAD)}
    t = _advise(cli, env, rounds, "--link", "100Mbit")
    v = t["bottleneck_verdict"]
    assert v["rule"] == LINK_RULE and v["path"] == "link" and v["state"] == "path-bound"
    assert v["path_bytes_per_s"] == 12.5e6
    assert t["bottleneck"].startswith("The link is the bottleneck, not the cipher")
    assert "The nominal link decided" in t["bottleneck"]
    # a link wider than what moved: the paired rounds decide, the link named
    out = cli("advise", "--no-measure", "--json", "--for", "ssh", "--link", "100Gbit")
    t = out.json()["targets"][0]
    assert t["bottleneck_verdict"]["rule"] == SPLIT_RULE
    assert t["bottleneck_verdict"]["state"] == "path-bound"
    assert "Your 100 Gbit/s link is wider than what it moved" in t["bottleneck"]


def test_a_run_stored_before_the_rounds_keeps_the_interval_rule(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_ssh(s, {GCM: 900, CHACHA: 600, BASE: 3000}, ["aes"])
    out = cli("advise", "--no-measure", "--json", "--for", "ssh")
    t = out.json()["targets"][0]
    jsonschema.validate(out.json(), SCHEMA_DOC)
    assert t["bottleneck_verdict"]["rule"] == INTERVAL_RULE
    assert t["bottleneck_verdict"]["state"] == "crypto-bound"
    assert t["bottleneck"].startswith("Crypto is the bottleneck: even the fastest allowed")
    assert all(c["vs_default"] is None and c["vs_baseline"] is None for c in t["candidates"])
    assert t["recommendation"]["choice"] == GCM


def test_primitive_stand_ins_keep_the_interval_rule(cli, env):
    # no ssh run at all: the primitives stand in, nothing is paired
    from advise_fixtures import AES_CPU, add_primitive
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, ["aes"])
    out = cli("advise", "--no-measure", "--json", "--for", "ssh", "--link", "1Gbit")
    t = out.json()["targets"][0]
    assert t["recommendation"]["rate"]["source"] == "primitive"
    assert t["bottleneck_verdict"]["rule"] == LINK_RULE
    assert all(c["vs_default"] is None for c in t["candidates"])


def test_the_text_view_shows_the_paired_verdict(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_ssh_rounds(s, {GCM: steady(615, LOAD, WOBBLE), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)}, ["aes"])
    out = cli("advise", "--no-measure", "--for", "ssh", env_override={**env, "COLUMNS": "400"})
    assert out.rc == 0, out.err
    # the cell of the ssh table's "vs dflt" column, and the answer's "cannot tell"
    assert "allowed; vs default within 9%;" in out.out
    assert "against it: cannot tell here (within 9%)" in out.out
    assert "paired verdict from the same rounds" in out.out


def test_the_paired_rounds_tell_apart_what_the_intervals_cannot(tmp_path):
    # the case where advise and the ssh table disagreed: the two medians' intervals overlap
    # (the interval rule ties them), the paired rounds say "faster" (so does the ssh table)
    from cipherbench.advise import candidates as C
    from cipherbench.advise.families import FAMILIES
    paired_rounds = FAMILIES["ssh"].paired_rounds
    from cipherbench.advise.evidence import Evidence
    from cipherbench.advise.rank import rank
    from cipherbench.advise.rates import rates_for
    with Store.open(tmp_path / "r.sqlite") as s:
        add_ssh_rounds(s, {GCM: steady(640, LOAD), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)}, ["aes"])
        ev = Evidence.load(s)
    assert set(ev.ssh_rounds) == {GCM, CHACHA, BASE}
    cands = [C.ssh_candidate(GCM, None), C.ssh_candidate(CHACHA, None)]
    rates = rates_for("ssh", ev, cands, "openssl")
    assert rates[GCM].overlaps(rates[CHACHA])
    plain = rank(cands, rates, "modern", True, CHACHA)
    assert [r.rank for r in plain] == [1, 1] and plain[1].tied
    paired = rank(cands, rates, "modern", True, CHACHA, rounds=paired_rounds(ev, rates))
    assert [(r.cand.key, r.rank, r.tied) for r in paired] == [(GCM, 1, False),
                                                             (CHACHA, 2, False)]
    assert paired[0].vs_default.state == V.FASTER and paired[1].vs_default is None
    # an estimate made from a measured rate (--assume-no-aes) is not paired
    from cipherbench.advise.rates import without_aes
    est = without_aes(cands, rates)
    assert set(paired_rounds(ev, est)) == {CHACHA}


def test_a_choice_faster_by_cpu_time_goes_ahead_of_the_default_whatever_its_rate(cli, env):
    """The order follows the verdict it shows: aes128-gcm costs both ends 30% less CPU per byte
    than the default in every round (the "vs dflt" verdict, judged on CPU time, says faster),
    while its wall rate came out 3% lower in these rounds (inside their noise). It is the
    recommendation, ranked ahead of the default, not behind it."""
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_ssh_rounds(s, {GCM: steady(582, LOAD, WOBBLE), CHACHA: steady(600, LOAD),
                           BASE: steady(3000, LOAD)}, ["aes"],
                       cpu={GCM: [390.0] * 12, CHACHA: [300.0] * 12, BASE: [2000.0] * 12})
    out = cli("advise", "--no-measure", "--json", "--for", "ssh")
    assert out.rc == 0, out.err
    t = out.json()["targets"][0]
    gcm, chacha = _cand(t, GCM), _cand(t, CHACHA)
    assert gcm["vs_default"]["state"] == "faster" and gcm["vs_default"]["figure"] == "cpu_s"
    assert gcm["rate"]["bytes_per_s"] < chacha["rate"]["bytes_per_s"]
    assert (gcm["rank"], chacha["rank"]) == (1, 2)
    assert t["recommendation"]["choice"] == GCM
    assert "work per CPU second" in t["figures"]
    assert "the fastest choice" not in t["answer"]
