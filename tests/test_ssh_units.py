# SPDX-License-Identifier: GPL-3.0-or-later
"""Pure parts of the ssh scenario: error classification, planning, grades, table and verdict."""
from __future__ import annotations

import random

import click
import pytest

from cipherbench.clikit.options import Size
from cipherbench.scenarios.ssh.command import MAX_SIZE
from cipherbench.errors import UsageError
from cipherbench.scenarios.ssh import tables, sweep
from cipherbench.scenarios.ssh.errors import CipherRefused, HostError, TransferFailed, classify
from cipherbench.scenarios.ssh.transfer import _children_cpu, _cpu_from_fields, is_aead
from cipherbench.store import Result


@pytest.mark.parametrize("stderr, cls, words", [
    ("Unable to negotiate with 127.0.0.1 port 2222: no matching cipher found. Their offer: "
     "aes128-ctr", CipherRefused, "refuses cipher aes256-cbc"),
    ("Unable to negotiate with 10.0.0.1 port 22: no matching MAC found.", CipherRefused,
     "refuses MAC hmac-md5"),
    ("Unknown cipher type 'foo'", CipherRefused, "does not know cipher"),
    ("ssh: connect to host 127.0.0.1 port 1: Connection refused", HostError,
     "unreachable: connection refused"),
    ("@@@@\n@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @\n...\nHost key verification "
     "failed.", HostError, "does not match"),
    ("Host key verification failed.", HostError, "could not be verified"),
    ("user@h: Permission denied (publickey).", HostError, "refused authentication"),
    ("ssh: Could not resolve hostname nowhere: Name or service not known", HostError,
     "cannot resolve"),
    ("something odd\nbroken pipe", TransferFailed, "broken pipe"),
])
def test_classify_gives_one_typed_line(stderr, cls, words):
    err = classify(stderr, host="h", cipher="aes256-cbc", mac="hmac-md5")
    assert type(err) is cls
    assert words in str(err)
    assert "\n" not in str(err)
    assert err.fatal is (cls is HostError)


def test_plan_runs_aead_once_and_others_per_mac():
    combos = sweep.plan(["chacha20-poly1305@openssh.com", "aes128-ctr"],
                         ["umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"])
    assert combos == [sweep.Combo("chacha20-poly1305@openssh.com"),
                      sweep.Combo("aes128-ctr", "umac-64-etm@openssh.com"),
                      sweep.Combo("aes128-ctr", "hmac-sha2-256-etm@openssh.com")]
    assert is_aead("aes256-gcm@openssh.com") and not is_aead("aes256-ctr")


def test_choose_defaults_all_and_unknown_names():
    offered_c = ["aes128-ctr", "aes128-gcm@openssh.com"]
    offered_m = ["hmac-sha1", "umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"]
    default = sweep.choose(None, None, offered_c, offered_m)
    assert {c.mac for c in default if c.mac} == {"umac-64-etm@openssh.com",
                                                 "hmac-sha2-256-etm@openssh.com"}
    every = sweep.choose(["aes128-ctr"], ["all"], offered_c, offered_m)
    assert [c.mac for c in every] == offered_m
    with pytest.raises(UsageError, match="did you mean aes128-ctr"):
        sweep.choose(["aes128-ctx"], None, offered_c, offered_m)


def test_by_default_the_question_is_the_users_own_ssh():
    """Without --ciphers and --macs: the ciphers the client offers (``ssh -G``), in its order,
    and the MAC it offers first (the one it negotiates); `all` is every one of ``ssh -Q``."""
    offered_c = ["3des-cbc", "aes128-ctr", "aes128-gcm@openssh.com", "chacha20-poly1305@openssh.com"]
    offered_m = ["hmac-sha1", "umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"]
    client_c = ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes128-gcm@openssh.com",
                "not-in-this-ssh"]
    client_m = ["umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"]
    combos = sweep.choose(None, None, offered_c, offered_m, client_c, client_m)
    assert combos == [sweep.Combo("chacha20-poly1305@openssh.com"),
                      sweep.Combo("aes128-ctr", "umac-64-etm@openssh.com"),
                      sweep.Combo("aes128-gcm@openssh.com")]
    every = sweep.choose(["all"], None, offered_c, offered_m, client_c, client_m)
    assert [c.cipher for c in every] == offered_c
    assert {c.mac for c in every if c.mac} == {"umac-64-etm@openssh.com"}


@pytest.mark.real
def test_the_private_servers_client_offers_its_built_in_lists():
    """``ssh -G -F /dev/null``: what the private server's client offers, read from ssh (its
    built-in lists have had no CBC cipher since OpenSSH 7.4)."""
    from cipherbench.scenarios.ssh.server import offered
    ciphers, macs = offered()
    assert ciphers and not [c for c in ciphers if "cbc" in c]
    assert macs and macs[0].endswith("@openssh.com")


def test_grades_come_from_the_catalog_and_take_the_weaker_part():
    assert sweep.describe(sweep.Combo("3des-cbc", "hmac-sha2-256-etm@openssh.com"))["grade"] \
        == "legacy"
    assert sweep.describe(sweep.Combo("aes128-ctr", "hmac-md5"))["grade"] == "legacy"
    assert sweep.describe(sweep.Combo("aes128-ctr", "hmac-sha2-256-etm@openssh.com"))[
        "grade"] == "acceptable"
    aead = sweep.describe(sweep.Combo("chacha20-poly1305@openssh.com"))
    assert aead["grade"] == "recommended" and aead["cipher_algo"] == "chacha20-poly1305"
    assert "note" in sweep.describe(sweep.Combo("aes128-ctr", "hmac-sha2-256"))


@pytest.mark.parametrize("text, n", [("256M", 256 << 20), ("8MiB", 8 << 20), ("1g", 1 << 30),
                                     ("65536", 65536), ("16k", 16384)])
def test_parse_size(text, n):
    assert Size(1, MAX_SIZE).convert(text, None, None) == n


@pytest.mark.parametrize("text", ["0", "abc", "-1M", "17G"])
def test_parse_size_rejects(text):
    with pytest.raises(click.BadParameter):
        Size(1, MAX_SIZE).convert(text, None, None)


def test_remote_cpu_fields():
    assert _cpu_from_fields(["ns", "1500000000"]) == (1.5, "schedstat")
    assert _cpu_from_fields(["ticks", "30", "20", "100"]) == (0.5, "stat-ticks")
    assert _cpu_from_fields(["none"]) == (None, "none")
    assert _children_cpu(["0m0.01s 0m0.02s", "0m1.50s 1m0.25s"]) == pytest.approx(61.75)


def _head(algo, bps, *, default=False, cipher=None, mac=None, cpu=(0.5, 0.5), grade="x"):
    return Result(scenario="ssh", lib="openssh", algo=algo, op="transfer", size=1 << 20,
                  metric="bytes_per_s", unit="B/s", median=bps, ci_low=bps * 0.99,
                  ci_high=bps * 1.01, n_samples=6, cv=0.01,
                  extra={"client_default": default, "cipher": cipher or algo, "mac": mac,
                         "client_cpu_share": cpu[0], "server_cpu_share": cpu[1],
                         "grade": grade})


def test_runs_stored_before_the_rounds_still_draw_with_plain_ratios_and_no_verdict():
    results = [_head(sweep.BASELINE, 1000e6, cpu=(None, None)),
               _head("aes128-ctr+umac-64-etm@openssh.com", 400e6, cipher="aes128-ctr",
                     mac="umac-64-etm@openssh.com"),
               _head("chacha20-poly1305@openssh.com", 200e6, default=True),
               _head("3des-cbc+umac-64-etm@openssh.com", 20e6, cipher="3des-cbc")]
    table = tables.rows(results)
    assert [r.rank for r in table] == [None, 1, 2, 3]
    assert table[1].vs_default.ratio == pytest.approx(2.0)
    assert table[1].vs_baseline.ratio == pytest.approx(0.4)
    assert not table[1].vs_default.decided and table[1].vs_default.reason
    assert table[2].is_default
    header, cells = tables.table_lines(table)
    assert len(header) == len(cells[0])
    assert cells[2][1] == "chacha20-poly1305 *"
    assert cells[1][header.index("vs dflt")] == "2.00x ?"     # a ratio, never a verdict
    neck = tables.bottleneck(table)
    assert neck.kind == "unknown" and neck.text().startswith("Cannot tell")


def _sample(nbytes=1000, wall=0.001):
    from cipherbench.scenarios.ssh.transfer import TransferSample
    return TransferSample(nbytes=nbytes, wall_s=wall, setup_s=0.0, client_cpu_s=0.0005,
                          client_cpu_total_s=0.001, server_cpu_s=0.0005,
                          server_cpu_method="schedstat", sink_cpu_s=None)


MAC_U = "umac-64-etm@openssh.com"


def test_each_cipher_is_checked_once_then_timed_once_per_round():
    calls = []

    def sampler_for(cand):
        def sample(data, verify, max_s):
            calls.append((cand, len(data), verify))
            return _sample(len(data))
        return sample

    cands = sweep.candidates([sweep.Combo("aes128-ctr", MAC_U)], ["pipe"], True)
    out = sweep.sweep(cands, sampler_for, bytes(10 << 20), n_rounds=3,
                       rng=random.Random(1))
    assert len(out.rounds) == 3 and all(len(r.samples) == 2 for r in out.rounds)
    for c in cands:
        mine = [(n, v) for cc, n, v in calls if cc == c]
        assert mine[0] == (sweep.VERIFY_BYTES, True)          # the check comes first
        assert mine[1:] == [(10 << 20, False)] * 3             # then one sample per round


def test_refused_cipher_leaves_the_rounds_and_a_host_error_ends_them():
    def sampler_for(cand):
        def sample(data, verify, max_s):
            if cand.combo.cipher == "x":
                raise CipherRefused("h refuses cipher x")
            return _sample(len(data))
        return sample

    fails = []
    cands = sweep.candidates([sweep.Combo("x", MAC_U), sweep.Combo("y", MAC_U)], ["pipe"],
                              False)
    out = sweep.sweep(cands, sampler_for, b"abc", n_rounds=4, rng=random.Random(2),
                       on_fail=fails.append)
    assert [f.status for f in fails] == ["refused"] and fails[0].message == "h refuses cipher x"
    assert all(cands[0] not in r.samples and cands[1] in r.samples for r in out.rounds)
    assert [r.order for r in out.rounds[1:]] == [[cands[1]]] * 3   # left out of later rounds

    def unreachable(cand):
        def sample(data, verify, max_s):
            raise HostError("h is unreachable: connection refused")
        return sample

    with pytest.raises(HostError):
        sweep.sweep(cands, unreachable, b"abc", n_rounds=2, rng=random.Random(3))


def test_the_time_bound_reaches_the_pipe_and_the_bytes_sent_are_stored():
    seen = []

    def sampler_for(cand):
        def sample(data, verify, max_s):
            seen.append((verify, max_s))
            n = len(data) if verify or max_s is None else len(data) // 8  # "slow": cut short
            return _sample(n, wall=1.0)
        return sample

    stored = []
    cands = sweep.candidates([sweep.Combo("3des-cbc", MAC_U)], ["pipe"], False)
    sweep.sweep(cands, sampler_for, bytes(64 << 20), n_rounds=2, rng=random.Random(4),
                 max_sample_s=1.5, on_sample=lambda c, i, s, chk: stored.append(
                     tables.round_result(c, i, 1, s, chk, target="t", client_default=None,
                                         requested=64 << 20)))
    assert seen[0] == (True, None) and seen[1:] == [(False, 1.5)] * 2
    assert [r.size for r in stored] == [8 << 20] * 2
    assert all(r.metric == "round_s" and r.extra["cut"] and r.op == "pipe" for r in stored)
    assert stored[0].extra["requested_size"] == 64 << 20
    row = tables.rows(stored)[0]
    assert row.cut and row.size == 8 << 20 and row.n == 2
    head = [r for r in tables.summary_results(stored) if r.metric == "bytes_per_s"][0]
    assert head.size == 8 << 20 and head.extra["sample_cut"] is True
    assert head.median == pytest.approx((8 << 20) / 1.0)


def test_one_check_per_cipher_and_tool_covers_its_macs():
    calls = []

    def sampler_for(cand):
        def sample(data, verify, max_s):
            calls.append((cand, verify))
            if cand.combo.mac == "hmac-md5":
                raise CipherRefused(f"h refuses MAC {cand.combo.mac}")
            return _sample(len(data))
        return sample

    combos = sweep.plan(["aes128-ctr", "chacha20-poly1305@openssh.com"],
                         [MAC_U, "hmac-md5", "hmac-sha2-256-etm@openssh.com"])
    cands = sweep.candidates(combos, ["pipe", "scp"], False)
    fails = []
    out = sweep.sweep(cands, sampler_for, bytes(1 << 20), n_rounds=2, rng=random.Random(5),
                       on_fail=fails.append)
    passed = [c for c, verify in calls if verify and c.combo.mac != "hmac-md5"]
    assert len(passed) == 4     # two ciphers x two tools, each checked once
    assert set(out.checks) == {(c.via, c.combo.cipher) for c in passed} == {
        (v, c) for v in ("pipe", "scp") for c in ("aes128-ctr", "chacha20-poly1305@openssh.com")}
    # a MAC refused on its first timed transfer (no check of its own) is still "refused"
    assert sorted((f.cand.via, f.status) for f in fails) == [("pipe", "refused"),
                                                             ("scp", "refused")]


def test_table_shows_bytes_per_sample_only_when_cut():
    full = [_head(sweep.BASELINE, 1000e6, cpu=(None, None)),
            _head("aes128-ctr+" + MAC_U, 400e6, cipher="aes128-ctr", mac=MAC_U)]
    header, _ = tables.table_lines(tables.rows(full))
    assert "MiB" not in header and tables.cut_note(tables.rows(full), 1 << 28, 1.5) is None
    slow = _head("3des-cbc+" + MAC_U, 20e6, cipher="3des-cbc", mac=MAC_U)
    slow.extra["sample_cut"] = True
    table = tables.rows(full + [slow])
    header, cells = tables.table_lines(table)
    row = cells[-1]
    assert row[header.index("MB/s")] == "20.0 †" and row[header.index("MiB")] == "1"
    note = tables.cut_note(table, 256 << 20, 1.5)
    assert note.startswith("†") and "1.5 s" in note and "256 MiB" in note
