"""Holm's adjustment, the one home of it (utils/_multitest.py)."""

import numpy as np
import pytest

from sklearn_faithful.utils._multitest import benjamini_hochberg, holm


def _statsmodels_holm(pvalues):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    return multitest.multipletests(pvalues, method="holm")[1]


def test_holm_against_statsmodels_and_by_hand(reference):
    p = [0.01, 0.04, 0.03, 0.005]
    # by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, then running max
    expected = [0.03, 0.06, 0.06, 0.02]
    assert holm(p) == pytest.approx(expected)
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = rng.random(rng.integers(1, 8)) ** 3
        assert holm(p) == pytest.approx(reference(_statsmodels_holm, p), abs=1e-15)


def _statsmodels_bh(pvalues):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    return multitest.multipletests(pvalues, method="fdr_bh")[1]


def test_benjamini_hochberg_against_statsmodels_and_by_hand(reference):
    p = [0.01, 0.04, 0.03, 0.005]
    # by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4/1, 4/2, 4/3, 4/4, then
    # running min from the largest: 0.02, 0.02, 0.04, 0.04
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    rng = np.random.default_rng(1)
    for _ in range(20):
        p = rng.random(rng.integers(1, 8)) ** 3
        expected = reference(_statsmodels_bh, p)
        assert benjamini_hochberg(p) == pytest.approx(expected, abs=1e-15)
