# SPDX-License-Identifier: GPL-3.0-or-later
"""The slope fit on synthetic points with known slope and intercept."""
import pytest

from cipherbench.analysis import fit


def test_exact_line():
    pts = {s: 80.0 + 0.25 * s for s in (16, 64, 1024, 8192, 16384, 65536)}
    f = fit.fit_sizes(pts)
    assert f.slope == pytest.approx(0.25)
    assert f.intercept == pytest.approx(80.0)
    assert f.r2 == pytest.approx(1.0)
    assert f.sizes == (1024, 8192, 16384, 65536)   # small sizes left out
    assert f.cycles_per_byte(3e9) == pytest.approx(0.75)
    assert f.cycles_per_byte(None) is None


def test_noisy_line_r2_below_one():
    slope, intercept, r2 = fit.least_squares([1, 2, 3, 4], [1.0, 2.2, 2.8, 4.1])
    assert slope == pytest.approx(1.0, abs=0.1)
    assert 0.9 < r2 < 1.0


def test_too_few_sizes():
    assert fit.fit_sizes({16: 1.0, 1024: 2.0}) is None
    with pytest.raises(ValueError):
        fit.least_squares([1, 1], [2, 3])
