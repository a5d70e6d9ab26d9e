"""Pure parts of the ssh scenario: error classification, planning, grades, table and verdict."""
from __future__ import annotations

import click
import pytest

from cipherbench.cli.options import Size
from cipherbench.scenarios.ssh.command import MAX_SIZE
from cipherbench.errors import UsageError
from cipherbench.scenarios.ssh import tables, runner
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
    combos = runner.plan(["chacha20-poly1305@openssh.com", "aes128-ctr"],
                         ["umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"])
    assert combos == [runner.Combo("chacha20-poly1305@openssh.com"),
                      runner.Combo("aes128-ctr", "umac-64-etm@openssh.com"),
                      runner.Combo("aes128-ctr", "hmac-sha2-256-etm@openssh.com")]
    assert is_aead("aes256-gcm@openssh.com") and not is_aead("aes256-ctr")


def test_choose_defaults_all_and_unknown_names():
    offered_c = ["aes128-ctr", "aes128-gcm@openssh.com"]
    offered_m = ["hmac-sha1", "umac-64-etm@openssh.com", "hmac-sha2-256-etm@openssh.com"]
    default = runner.choose(None, None, offered_c, offered_m)
    assert {c.mac for c in default if c.mac} == {"umac-64-etm@openssh.com",
                                                 "hmac-sha2-256-etm@openssh.com"}
    every = runner.choose(["aes128-ctr"], ["all"], offered_c, offered_m)
    assert [c.mac for c in every] == offered_m
    with pytest.raises(UsageError, match="did you mean aes128-ctr"):
        runner.choose(["aes128-ctx"], None, offered_c, offered_m)


def test_grades_come_from_the_catalog_and_take_the_weaker_part():
    assert runner.describe(runner.Combo("3des-cbc", "hmac-sha2-256-etm@openssh.com"))["grade"] \
        == "legacy"
    assert runner.describe(runner.Combo("aes128-ctr", "hmac-md5"))["grade"] == "legacy"
    assert runner.describe(runner.Combo("aes128-ctr", "hmac-sha2-256-etm@openssh.com"))[
        "grade"] == "acceptable"
    aead = runner.describe(runner.Combo("chacha20-poly1305@openssh.com"))
    assert aead["grade"] == "recommended" and aead["cipher_algo"] == "chacha20-poly1305"
    assert "note" in runner.describe(runner.Combo("aes128-ctr", "hmac-sha2-256"))


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


def test_rows_rank_by_throughput_relative_to_default_and_baseline():
    results = [_head(runner.BASELINE, 1000e6, cpu=(None, None)),
               _head("aes128-ctr+umac-64-etm@openssh.com", 400e6, cipher="aes128-ctr",
                     mac="umac-64-etm@openssh.com"),
               _head("chacha20-poly1305@openssh.com", 200e6, default=True),
               _head("3des-cbc+umac-64-etm@openssh.com", 20e6, cipher="3des-cbc")]
    table = tables.rows(results)
    assert [r.rank for r in table] == [None, 1, 2, 3]
    assert table[1].vs_default == pytest.approx(2.0)
    assert table[1].vs_baseline == pytest.approx(0.4)
    assert table[2].is_default and table[2].vs_default == pytest.approx(1.0)
    header, cells = tables.table_lines(table)
    assert len(header) == len(cells[0])
    assert cells[2][1] == "chacha20-poly1305 *"
    verdict = tables.bottleneck(table)
    assert verdict.startswith("Crypto is the bottleneck") and "40%" in verdict


def test_verdict_says_path_when_ciphers_reach_the_baseline():
    results = [_head(runner.BASELINE, 12.0e6, cpu=(None, None)),
               _head("aes128-ctr+umac-64-etm@openssh.com", 11.8e6, cpu=(0.1, 0.1)),
               _head("chacha20-poly1305@openssh.com", 11.6e6, default=True, cpu=(0.1, 0.1))]
    verdict = tables.bottleneck(tables.rows(results))
    assert verdict.startswith("The path is the bottleneck")


def _sample(nbytes=1000, wall=0.001):
    from cipherbench.scenarios.ssh.transfer import TransferSample
    return TransferSample(nbytes=nbytes, wall_s=wall, setup_s=0.0, client_cpu_s=0.0005,
                          client_cpu_total_s=0.001, server_cpu_s=0.0005,
                          server_cpu_method="schedstat", sink_cpu_s=None)


def test_measure_verifies_first_then_takes_at_least_two_samples():
    calls = []

    def sampler(data, verify, max_s):
        calls.append((len(data), verify))
        return _sample(len(data))

    data = memoryview(bytes(10 << 20))
    out = runner.measure(runner.Combo("aes128-ctr", MAC_U), sampler, data, precision=0.01,
                         budget_s=0.0)
    assert out.status == "ok" and out.verified
    assert calls[0] == (runner.VERIFY_BYTES, True)
    assert all(c == (10 << 20, False) for c in calls[1:]) and len(calls[1:]) >= 2
    assert out.stability.summary.n == len(out.samples) == len(calls) - 1


def test_measure_refused_and_fatal():
    def refuse(data, verify, max_s):
        raise CipherRefused("h refuses cipher x")

    out = runner.measure(runner.Combo("x", MAC_U), refuse, memoryview(b"abc"), precision=0.01,
                         budget_s=1)
    assert out.status == "refused" and out.message == "h refuses cipher x" and not out.samples

    def unreachable(data, verify, max_s):
        raise HostError("h is unreachable: connection refused")

    with pytest.raises(HostError):
        runner.measure(runner.Combo("x", MAC_U), unreachable, memoryview(b"abc"),
                       precision=0.01, budget_s=1)


MAC_U = "umac-64-etm@openssh.com"


def test_time_bound_stops_only_late_and_early():
    from cipherbench.scenarios.ssh.transfer import keep_sending
    n = 100
    assert keep_sending(0, n, 0.0)            # the first chunk always goes
    assert not keep_sending(10, n, 0.0)       # past the bound, a tenth sent: stop
    assert keep_sending(75, n, 0.0)           # past the bound, three quarters sent: finish
    assert keep_sending(10, n, None)          # no bound
    assert keep_sending(10, n, float("inf"))  # bound not reached
    assert not keep_sending(n, n, None)       # done


def test_measure_passes_the_time_bound_and_records_the_bytes_sent():
    seen = []

    def sampler(data, verify, max_s):
        seen.append((verify, max_s))
        n = len(data) if verify or max_s is None else len(data) // 8  # "slow": cut short
        return _sample(n, wall=1.0)

    data = memoryview(bytes(64 << 20))
    out = runner.measure(runner.Combo("3des-cbc", MAC_U), sampler, data, precision=0.01,
                         budget_s=0.0, max_sample_s=1.5)
    assert seen[0] == (True, None) and all(s == (False, 1.5) for s in seen[1:])
    assert out.cut and out.sample_bytes == 8 << 20 and out.requested_bytes == 64 << 20
    row = tables.to_results(out, target="t", client_default=None)[0]
    assert row.size == 8 << 20
    assert row.extra["requested_size"] == 64 << 20 and row.extra["sample_cut"] is True
    assert row.extra["sample_bytes"] == [8 << 20] * len(out.samples)
    assert row.cv is not None

    full = runner.measure(runner.Combo("3des-cbc", MAC_U), sampler, data, precision=0.01,
                          budget_s=0.0, max_sample_s=None)
    assert not full.cut and full.sample_bytes == 64 << 20


def test_one_check_per_cipher_covers_its_macs(monkeypatch):
    calls = []

    def fake_sampler(target, combo):
        def sample(data, verify, max_s):
            calls.append((combo, verify))
            if combo.mac == "hmac-md5":
                raise CipherRefused(f"h refuses MAC {combo.mac}")
            return _sample(len(data))
        return sample

    monkeypatch.setattr(runner, "ssh_sampler", fake_sampler)
    combos = runner.plan(["aes128-ctr", "chacha20-poly1305@openssh.com"],
                         [MAC_U, "hmac-md5", "hmac-sha2-256-etm@openssh.com"])
    outs = runner.sweep(None, combos, bytes(1 << 20), budget_s=0.0, with_baseline=False)
    checks = [c for c, verify in calls if verify]
    assert checks == [runner.Combo("aes128-ctr", MAC_U),
                      runner.Combo("chacha20-poly1305@openssh.com")]
    by = {o.combo: o for o in outs}
    shared = by[runner.Combo("aes128-ctr", "hmac-sha2-256-etm@openssh.com")]
    assert shared.status == "ok" and shared.check.combo == runner.Combo("aes128-ctr", MAC_U)
    assert tables.to_results(shared, target="t", client_default=None)[0].extra[
        "checked_with"] == "aes128-ctr+" + MAC_U
    # a MAC refused on its first timed transfer (no check of its own) is still "refused"
    assert by[runner.Combo("aes128-ctr", "hmac-md5")].status == "refused"


def test_table_shows_bytes_per_sample_only_when_cut():
    full = [_head(runner.BASELINE, 1000e6, cpu=(None, None)),
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
