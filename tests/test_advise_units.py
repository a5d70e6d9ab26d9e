# SPDX-License-Identifier: GPL-3.0-or-later
"""Pure parts of the advisor: link units, policies, the no-AES estimate."""
from __future__ import annotations

import pytest

from cipherbench.advise import candidates as C, policy, rates as R
from cipherbench.advise.bottleneck import parse_link
from cipherbench.advise.evidence import Rate, disables_aes
from cipherbench.errors import UsageError


@pytest.mark.parametrize("text,bps", [("1Gbit", 125e6), ("100Mbit", 12.5e6), ("100M", 12.5e6),
                                      ("10Gbit/s", 1.25e9), ("100Mbps", 12.5e6),
                                      ("125MB/s", 125e6), ("1GiB/s", 1 << 30),
                                      ("1000000", 1e6)])
def test_link_units(text, bps):
    assert parse_link(text)[0] == pytest.approx(bps)


@pytest.mark.parametrize("text", ["", "fast", "-1G", "1Gix", "1Mibit"])
def test_link_bad(text):
    with pytest.raises(UsageError):
        parse_link(text)


def test_policy_grades():
    gcm = C.ssh_candidate("aes128-gcm@openssh.com", None)
    ctr = C.ssh_candidate("aes128-ctr", "hmac-sha2-256-etm@openssh.com")
    tdes = C.ssh_candidate("3des-cbc", "hmac-sha2-256-etm@openssh.com")
    assert policy.judge("modern", gcm, True).allowed
    assert not policy.judge("modern", ctr, True).allowed
    assert policy.judge("compat", ctr, True).allowed
    assert not policy.judge("compat", tdes, True).allowed
    assert policy.judge("legacy", tdes, True).allowed
    # the weaker part decides: a sound cipher with HMAC-MD5 is legacy
    assert C.ssh_candidate("aes128-ctr", "hmac-md5").grade.level == "legacy"


def test_luks_modern_is_xts_only():
    cands = {c.key: c for c in C.luks_candidates()}
    assert policy.judge("modern", cands["aes-xts-plain64:512"], False).allowed
    assert not policy.judge("modern", cands["aes-cbc-essiv:sha256:256"], False).allowed
    assert policy.judge("compat", cands["aes-cbc-essiv:sha256:256"], False).allowed


def test_without_aes_caps_aes_at_a_third_of_chacha():
    cands = [C.ssh_candidate("aes128-gcm@openssh.com", None),
             C.ssh_candidate("chacha20-poly1305@openssh.com", None)]
    rates = {cands[0].key: Rate(900e6, "ssh", (1,), "x"),
             cands[1].key: Rate(600e6, "ssh", (1,), "x")}
    out = R.without_aes(cands, rates)
    assert out[cands[0].key].bps == pytest.approx(200e6) and out[cands[0].key].estimated
    assert out[cands[1].key] is rates[cands[1].key]


@pytest.mark.parametrize("value,off", [(["aes", "pclmul"], True), ("all", True), (True, True),
                                       (["avx2"], False), (None, False),
                                       ({"openssl": ["aes"], "libgcrypt": "all"}, True)])
def test_hw_disabled_values(value, off):
    assert disables_aes(value) is off


def test_rates_whose_intervals_overlap_are_a_tie():
    from cipherbench.advise.evidence import Rate
    a = Rate(460e6, "ssh", (1,), "", rel_ci=0.04)
    b = Rate(415e6, "ssh", (1,), "", rel_ci=0.07)
    c = Rate(300e6, "ssh", (1,), "", rel_ci=0.02)
    assert a.overlaps(b) and b.overlaps(a)
    assert not a.overlaps(c)
    # without intervals only a near-equal pair is a tie
    assert Rate(100.0, "x", (), "").overlaps(Rate(101.0, "x", (), ""))
    assert not Rate(100.0, "x", (), "").overlaps(Rate(110.0, "x", (), ""))


def test_rows_inside_the_noise_share_a_place_and_say_cannot_tell():
    from cipherbench.advise.rank import rank
    cands = [C.ssh_candidate("aes128-gcm@openssh.com", None),
             C.ssh_candidate("chacha20-poly1305@openssh.com", None),
             C.ssh_candidate("aes256-ctr", "hmac-sha2-256-etm@openssh.com")]
    rates = {cands[0].key: Rate(460e6, "ssh", (1,), "", rel_ci=0.04),
             cands[1].key: Rate(440e6, "ssh", (1,), "", rel_ci=0.04),   # overlaps the first
             cands[2].key: Rate(300e6, "ssh", (1,), "", rel_ci=0.02)}
    rows = rank(cands, rates, "modern", True)
    by = {r.cand.key: r for r in rows}
    assert by[cands[0].key].rank == 1 and not by[cands[0].key].tied
    second = by[cands[1].key]
    assert second.rank == 1 and second.tied
    assert second.tie_text() == "cannot tell apart from the row above here (within 14%)"   # 478.4 / 422.4
    assert by[cands[2].key].rank == 2 and not by[cands[2].key].tied
