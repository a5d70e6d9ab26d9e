# SPDX-License-Identifier: GPL-3.0-or-later
"""The bottleneck verdict: the measured cleartext baseline of the same ssh run decides, the
nominal --link only caps it; crypto-bound, path-bound or cannot tell, in one sentence."""
from __future__ import annotations

import pytest

from advise_fixtures import AES_CPU, MB, add_primitive, add_ssh, fill
from cipherbench.advise import candidates as C
from cipherbench.advise.bottleneck import (CANNOT_TELL, CRYPTO_BOUND, PATH_BOUND, Interval,
                                           decide, sentence)
from cipherbench.advise.evidence import Rate
from cipherbench.advise.rank import rank
from cipherbench.store import Store

LINK_100M = 12.5e6


def iv(mbs: float, rel: float = 0.02) -> Interval:
    return Interval(mbs * MB, mbs * MB * (1 - rel), mbs * MB * (1 + rel))


def test_at_the_baseline_is_path_bound_even_below_the_nominal_link():
    # the NAS case: 100 Mbit/s link, the cleartext path measured at 11.8 MB/s, the cipher at
    # 11.4 (97% of the baseline, 91% of the nominal link): the path limits, not the cipher
    v = decide(iv(11.4), iv(11.8), LINK_100M)
    assert v.state == PATH_BOUND and v.path == "baseline"
    assert v.share == pytest.approx(11.4 / 11.8)


def test_far_below_the_baseline_is_crypto_bound():
    v = decide(iv(240), iv(900), None)
    assert v.state == CRYPTO_BOUND and v.high < 0.9


def test_an_interval_across_the_line_cannot_tell():
    v = decide(iv(85, 0.06), iv(95, 0.02), None)
    assert v.state == CANNOT_TELL and v.low < 0.9 <= v.high


def test_the_link_caps_a_wider_measured_path():
    v = decide(iv(980), iv(3000), LINK_100M)
    assert v.path == "link" and v.path_bps == LINK_100M and v.state == PATH_BOUND
    # without a baseline the link alone is the path
    v = decide(iv(11.0), None, LINK_100M)
    assert v.path == "link" and v.state == CRYPTO_BOUND


def test_without_path_or_link_there_is_no_verdict():
    assert decide(iv(100), None, None) is None


def test_a_figure_without_interval_gets_the_tie_band():
    # 0.9 exactly with no interval: +-3% straddles the line
    assert decide(Interval(90.0), Interval(100.0), None).state == CANNOT_TELL
    assert decide(Interval(99.0), Interval(100.0), None).state == PATH_BOUND


def _rows(rates: dict[str, tuple[float, float]]):
    cands = [C.ssh_candidate(name, None) for name in rates]
    rs = {c.key: Rate(rates[c.key][0] * MB, "ssh", (1,), "", rel_ci=rates[c.key][1])
          for c in cands}
    return rank(cands, rs, "modern", True)


@pytest.mark.parametrize("cipher,base,start", [
    (11.4, 11.8, "The path is the bottleneck, not the cipher"),
    (240, 900, "Crypto is the bottleneck"),
    (85, 95, "Cannot tell whether crypto or the path is the bottleneck")])
def test_one_sentence_for_each_state(cipher, base, start):
    rows = _rows({"aes128-gcm@openssh.com": (cipher, 0.05)})
    text = sentence(rows, (LINK_100M, "100 Mbit/s link") if base < 12.5 else None,
                    Rate(base * MB, "ssh", (1,), "baseline", rel_ci=0.01))
    assert text.startswith(start), text
    # one sentence, never a second one saying the opposite
    assert text.count(". ") == 0 and text.endswith(".")
    assert not ("Crypto is" in text and "path is the bottleneck" in text)
    if start.startswith("Cannot"):
        assert "cipherbench ssh --budget" in text


def test_a_slow_allowed_choice_is_named_when_the_fastest_keeps_up():
    rows = _rows({"aes128-gcm@openssh.com": (11.6, 0.01),
                  "chacha20-poly1305@openssh.com": (6.0, 0.01)})
    text = sentence(rows, None, Rate(11.8 * MB, "ssh", (1,), "", rel_ci=0.01))
    assert text.startswith("The path is the bottleneck")
    assert "chacha20-poly1305@openssh.com would not keep up" in text


@pytest.mark.real
def test_nas_over_a_100mbit_link_is_path_bound_end_to_end(cli, env):
    # every cipher at 96-101% of the cleartext baseline of the same run, behind a 100 Mbit/s
    # link: the advice must not call crypto the bottleneck
    fill(env["CIPHERBENCH_DB"], "aes")
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = add_ssh(s, {"aes128-gcm@openssh.com": 11.5, "aes256-gcm@openssh.com": 11.4,
                          "chacha20-poly1305@openssh.com": 11.3, "cleartext-tcp": 11.75},
                      ["aes"], host="nas")
    for link in ("100Mbit", "1Gbit", None):
        out = cli("advise", "--no-measure", "--json", "--for", "ssh", "--host", "nas",
                  *(["--link", link] if link else []))
        assert out.rc == 0, out.err
        t = out.json()["targets"][0]
        assert t["bottleneck"].startswith("The path is the bottleneck, not the cipher"), link
        assert "cleartext baseline of the same run" in t["bottleneck"]
        assert "Crypto is" not in t["bottleneck"]
        assert run in t["evidence_runs"]
        v = t["bottleneck_verdict"]
        assert v["state"] == "path-bound" and v["path"] == "baseline"
        assert v["share_low"] >= 0.9 and v["path_bytes_per_s"] == 11.75 * MB


@pytest.mark.real
def test_a_primitive_stand_in_is_not_compared_with_the_baseline(cli, env):
    # the only ssh run measured no allowed cipher: the primitive stand-in never took that path
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, ["aes"])
        add_ssh(s, {"3des-cbc+umac-128-etm@openssh.com": 20, "cleartext-tcp": 900}, ["aes"])
    out = cli("advise", "--no-measure", "--json", "--for", "ssh")
    t = out.json()["targets"][0]
    assert t["recommendation"]["rate"]["source"] == "primitive"
    assert "cleartext baseline" not in t["bottleneck"]


@pytest.mark.real
def test_the_answer_calls_nothing_faster_inside_the_noise(cli, env):
    # arcfour (not offered, broken) measured 1% above the recommendation, within the noise:
    # the answer must not say it "would be faster"
    from advise_fixtures import NO_AES_CPU
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, dict(NO_AES_CPU, rc4=424, **{"hmac-sha256": 1e6}),
                      ["ssse3"])
    out = cli("advise", "--no-measure", "--json", "--for", "ssh")
    t = out.json()["targets"][0]
    assert t["recommendation"]["choice"] == "chacha20-poly1305@openssh.com"
    also = " ".join(t["also"])
    assert "would be faster" not in also and "would be faster" not in t["answer"]
    assert "measurably faster" in also and "within the measurement noise" in also
