# SPDX-License-Identifier: GPL-3.0-or-later
"""Sizes as people write and read them: the one parser and the one formatter."""
import pytest

from cipherbench.units import format_bytes, format_duration, parse_size


@pytest.mark.parametrize("text, n", [("65536", 65536), ("16k", 16384), ("16KiB", 16384),
                                     ("256M", 256 << 20), ("1.5G", 3 << 29), ("0", 0)])
def test_parse_size(text, n):
    assert parse_size(text) == n


@pytest.mark.parametrize("text", ["", "lots", "-1M", "12X", "1.2.3"])
def test_parse_size_rejects_what_is_not_a_size(text):
    with pytest.raises(ValueError, match="not a size"):
        parse_size(text)


@pytest.mark.parametrize("n, text", [(1400, "1400 B"), (16384, "16 KiB"), (1 << 20, "1 MiB"),
                                     (3 << 19, "1.5 MiB"), (50 << 30, "50 GiB")])
def test_format_bytes(n, text):
    assert format_bytes(n) == text


def test_format_duration():
    assert [format_duration(s) for s in (0.85, 12.34, 245, 7380)] == \
        ["850 ms", "12.3 s", "4 min 05 s", "2 h 03 min"]
