"""compare_runs gives, for a seed, the numbers it gave before its fast paths.

The values below were computed with compare_runs as it was before issue 40
(multinomial draws of every cell, binomial swaps), with the data of
``_data`` and ``n_resamples=999, random_state=11``. Only the paired
bootstrap intervals of continuous scores without clusters changed: there
the bootstrap draws the items by index (the cells were as many as the items,
and a multinomial over them cost a binomial per cell).
"""

import warnings

import numpy as np
import pytest

from sklearn_faithful.eval_logs import compare_runs
from sklearn_faithful.eval_logs._compare import _RunsResampler, _units_ones
from sklearn_faithful.holdout._fast_metrics import Resampler, block_seeds


def _data(n=2000):
    rng = np.random.default_rng(7)
    ease = rng.normal(0, 1, n)
    floats = {
        name: ease + rng.normal(shift, 1, n)
        for name, shift in (("A", 0), ("B", 0.1), ("C", 0.15))
    }
    binary = {k: (v > 0.3).astype(int) for k, v in floats.items()}
    ratings = {k: np.clip(np.rint(5 + 2 * v), 1, 10) for k, v in floats.items()}
    return {"floats": floats, "binary": binary, "ratings": ratings}, rng.integers(
        0, 150, n
    )


# (scores, clusters, method) -> per pair (A-B, A-C, B-C): (pvalue, low, high)
_BEFORE = {
    ("binary", False, "permutation"): [
        (0.012, 0.010974999999999967, 0.058499999999999996),
        (0.013, 0.007500000000000007, 0.058499999999999996),
        (1.0, -0.025025000000000013, 0.024024999999999994),
    ],
    ("ratings", False, "permutation"): [
        (0.003, 0.05800000000000001, 0.282025),
        (0.001, 0.09540000000000004, 0.333525),
        (0.506, -0.07404999999999999, 0.149),
    ],
    ("floats", True, "permutation"): [
        (0.004, 0.028459888074726197, 0.1471417824670345),
        (0.001, 0.055382662405030036, 0.16934458610813916),
        (0.38, -0.033630586127127535, 0.08715826920775296),
    ],
    ("ratings", True, "bootstrap"): [
        (0.003, 0.06568166718867155, 0.2768680017226528),
        (0.001, 0.11336120907172685, 0.3144882264200446),
        (0.461, -0.07117874367488927, 0.14392537711585018),
    ],
    # the permutation p-values are those of before; the interval ends new
    ("floats", False, "permutation"): [
        (0.006, 0.023412396940378225, 0.14741786662024062),
        (0.001, 0.053464858381483286, 0.17765699795842768),
        (0.407, -0.0324812800746969, 0.0819062694666343),
    ],
}
# each run's default (jackknife-bm) interval, first run: (low, high)
_RUN_BEFORE = {
    "binary": (0.3785112897205274, 0.42148871027947266),
    "ratings": (4.8568681928145425, 5.081131807185458),
    "floats": (-0.09692127310495502, 0.026516489798875005),
}


@pytest.mark.parametrize("case", sorted(_BEFORE))
def test_seeded_results_are_those_of_before(case):
    kind, clustered, method = case
    data, groups = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few or unequal clusters
        res = compare_runs(
            data[kind],
            groups=groups if clustered else None,
            method=method,
            n_resamples=999,
            random_state=11,
        )
    got = [(p["pvalue"], p["low"], p["high"]) for p in res.pairs]
    # the same resamples; the last bits of a sum depend on numpy's version
    # (its pairwise summation), so the ends are compared to 1e-12
    np.testing.assert_allclose(got, _BEFORE[case], rtol=1e-12, atol=1e-15)
    if not clustered:
        np.testing.assert_allclose(
            (res.runs[0]["low"], res.runs[0]["high"]),
            _RUN_BEFORE[kind],
            rtol=1e-12,
            atol=1e-15,
        )


def _cells_resampler(a, b):
    from sklearn_faithful.eval_logs._compare import _cells

    rows, counts = _cells([a, b])
    return _RunsResampler(_units_ones(rows), counts), Resampler(
        _units_ones(rows), counts
    )


@pytest.mark.parametrize("ties", ["none", "few", "many"])
def test_fast_swaps_are_the_binomial_swaps(ties):
    # cells of one item each: U > 1/2 is numpy's binomial(1, 1/2) of U; a
    # few cells of several items (F1-like scores: many 0s and 1s) take their
    # binomials in between; many such cells, the binomials of every cell
    rng = np.random.default_rng(0)
    a = rng.normal(size=3000)
    b = a + rng.normal(size=3000)
    b[:100] = a[:100]  # cells where the runs agree: never swapped
    if ties == "few":
        a[200:400], b[300:500] = 0.0, 1.0  # (0, 1) and (1, 0) cells and more
        a[600:700], b[650:700] = 1.0, 0.0
    if ties == "many":
        a, b = np.round(a, 1), np.round(b, 1)
    fast, slow = _cells_resampler(a, b)
    several = np.count_nonzero(fast._permutation_parts[3] > 1)
    assert (several == 0) == (ties == "none")
    assert (several * 40 > fast._permutation_parts[3].size) == (ties == "many")
    for size in (1, 7, 256):
        got = list(fast.permute(np.random.default_rng(size), size))
        want = list(slow.permute(np.random.default_rng(size), size))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g[0], w[0])
            np.testing.assert_array_equal(g[1], w[1])


def test_many_cells_draw_the_items_by_index():
    # the bootstrap of as many cells as items: each resample sums the scores
    # of the items drawn by rng.integers(0, n, n), one resample a row
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=300), rng.normal(size=300)
    res = compare_runs({"A": a, "B": b}, n_resamples=300, random_state=5)
    # the pair's stream, then the permutations' block seeds, then the bootstrap's
    from sklearn_faithful.eval_logs._compare import _stream

    root = np.random.default_rng(5).integers(2**63, size=2).tolist()
    stream = _stream(root, "A", "B")
    block_seeds(stream, 300)  # the permutations
    diffs = []
    for seed, size in block_seeds(stream, 300):
        idx = np.random.default_rng(seed).integers(0, 300, size=(size, 300))
        diffs.append(b[idx].sum(axis=1) / 300 - a[idx].sum(axis=1) / 300)
    low, high = np.quantile(np.concatenate(diffs), [0.025, 0.975])
    assert res.pairs[0]["low"] == pytest.approx(low, rel=1e-12)
    assert res.pairs[0]["high"] == pytest.approx(high, rel=1e-12)
