# SPDX-License-Identifier: GPL-3.0-or-later
"""Which library settings a chart draws (report/evidence.py): the hardware states it shows,
each library's newest setting, and for the aes-hw pair only libraries measured both ways."""
from __future__ import annotations

from cipherbench.report import evidence as E

ON = E.Setting("openssl", "OpenSSL 3.0.19", (), "core 1", 1)
OFF = E.Setting("openssl", "OpenSSL 3.0.19", ("aes", "pclmul"), "core 1", 1)
OFF_OTHER = E.Setting("openssl", "OpenSSL 3.0.19", ("avx2",), "core 1", 1)
GCRYPT_ON = E.Setting("libgcrypt", "1.10.1", (), "core 1", 1)


def test_the_features_on_chart_leaves_out_switched_off_runs_and_names_the_chart_that_draws_them():
    left: list[str] = []
    kept = E._hw_states({ON: [], OFF: []}, named=False, hw="on", newest={ON: 2, OFF: 3},
                        left=left)
    assert list(kept) == [ON]
    assert len(left) == 1 and "--chart aes-hw" in left[0]


def test_the_pair_chart_keeps_the_newest_set_of_features_off_and_says_which_it_left():
    left: list[str] = []
    kept = E._hw_states({ON: [], OFF: [], OFF_OTHER: []}, named=True, hw="pair",
                        newest={ON: 1, OFF: 5, OFF_OTHER: 2}, left=left)
    assert set(kept) == {ON, OFF}
    assert "avx2" in left[0] and "this chart shows aes, pclmul off" in left[0]


def test_the_pair_chart_is_empty_without_a_run_with_features_off():
    assert E._hw_states({ON: []}, named=True, hw="pair", newest={ON: 1}, left=[]) == {}


def test_a_library_measured_in_one_state_only_is_left_out_of_the_pair_and_said():
    left: list[str] = []
    kept = E._in_both_states([ON, OFF, GCRYPT_ON], left)
    assert kept == [ON, OFF]
    assert left == ["libgcrypt 1.10.1: not measured with the features off (a library without "
                    "a switch of its own is not measured by --no-hw)"]


def test_an_older_setting_of_a_library_is_named_not_drawn():
    older = E.Setting("openssl", "OpenSSL 3.0.11", (), "core 1", 1)
    left: list[str] = []
    assert E._newest_per_library({ON: [], older: []}, {ON: 9, older: 4}, left) == [ON]
    assert "openssl 3.0.11" in left[0] and "older setting" in left[0]
