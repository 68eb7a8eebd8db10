"""The class-grouped resampler of the confidence metrics (ProbaResampler).

Its draws are not those of the item path, so the checks are the exact sums
(totals, jackknife), the exact first two moments of the resampled sums, and
Kolmogorov-Smirnov tests of the resampled statistics against the per-item
features (whose draws are the item path's, tested in test_resampling.py).
"""

import functools

import numpy as np
import pytest
from joblib import parallel_config
from scipy import stats

from sklearn_faithful.holdout import _proba_resampler as pr
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)
from sklearn_faithful.holdout._fast_metrics import (
    Resampler,
    metric_from_sums,
    resolve_metric,
)
from sklearn_faithful.holdout._proba_resampler import (
    ProbaResampler,
    confidence_features,
)
from sklearn_faithful.holdout._resampling import _bca_interval


def _data(n, k, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    a = rng.dirichlet(np.ones(k), n)
    b = rng.dirichlet(np.ones(k), n)
    b[np.arange(n), codes] += 0.3  # B a little better
    b /= b.sum(axis=1, keepdims=True)
    return codes, a.astype(dtype), b.astype(dtype), rng.random(n) + 0.5


def _both(codes, probas, k, weight):
    """The new resampler and the per-item features of the same data."""
    old = Resampler([confidence_features(codes, p, k, weight) for p in probas])
    return ProbaResampler(codes, probas, k, weight), old


@pytest.mark.parametrize("weighted", [False, True])
def test_totals_and_jackknife_equal_item_features(weighted):
    k = 4
    codes, a, b, w = _data(2000, k)
    weight = w if weighted else None
    new, old = _both(codes, [a, b], k, weight)
    for ours, theirs in zip(new.totals(), old.totals(), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    _, _, spec, _ = resolve_metric("cf1_macro")
    metric_of = functools.partial(metric_from_sums, spec=spec, pos_index=-1, k=k)
    ours, weights = new.jackknife(metric_of)
    theirs, _ = old.jackknife(metric_of)
    # one value per item, in the class order of the items
    np.testing.assert_allclose(ours, theirs[new.order], rtol=1e-12)
    assert np.array_equal(weights, np.ones(2000))


def test_tiles_are_runs_of_one_class_covering_every_item():
    codes = np.array([2, 0, 1, 2, 2, 0, 2, 2])
    order, bounds = pr._class_order(codes, 3)
    np.testing.assert_array_equal(order, [1, 5, 2, 0, 3, 4, 6, 7])  # stable
    tiles = pr._tiles(bounds, 2)
    assert tiles == [(0, 0, 2), (1, 2, 3), (2, 3, 5), (2, 5, 7), (2, 7, 8)]
    for j, start, stop in tiles:
        assert (codes[order[start:stop]] == j).all()


def test_raw_bit_draws_are_uniform():
    rng = np.random.default_rng(0)
    codes = pr._uniform_codes(rng, 100_001, 6)
    assert codes.shape == (100_001,) and codes.max() < 64
    assert stats.chisquare(np.bincount(codes, minlength=64)).pvalue > 1e-3
    bits = pr._fair_bits(rng, 10_001)
    assert bits.shape == (10_001,) and set(np.unique(bits)) <= {0, 1}
    assert stats.binomtest(int(bits.sum()), bits.size).pvalue > 1e-3


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_sums_have_the_exact_moments(weighted):
    # Multinomial(n, 1/n) multiplicities W: E[W f] = sum_i f_i and
    # Cov[W f] = sum_i f_i f_i' - (sum_i f_i)(sum_i f_i)' / n
    k, n, r = 3, 3000, 4000
    codes, a, _, w = _data(n, k, seed=1)
    weight = w if weighted else None
    resampler = ProbaResampler(codes, [a], k, weight)
    sums = np.vstack([s for (s,) in resampler.bootstrap(np.random.default_rng(2), r)])
    features = confidence_features(codes, a, k, weight)
    total = features.sum(axis=0)
    cov = features.T @ features - np.outer(total, total) / n
    var = np.diag(cov)
    # the true counts of unweighted items are exact: their variance too
    z = (sums.mean(axis=0) - total) / np.sqrt(var / r)
    assert np.abs(z).max() < 4.5
    np.testing.assert_allclose(np.var(sums, axis=0, ddof=1), var, rtol=0.12)
    corr = np.corrcoef(sums[:, 0], sums[:, k])[0, 1]  # cTP_0 against pred mass 0
    assert corr == pytest.approx(cov[0, k] / np.sqrt(var[0] * var[k]), abs=0.06)


def test_permutation_sums_have_the_exact_moments():
    # fair swaps S: A's sums move by S d with d = w (p_B - p_A);
    # E = sum_i d_i / 2 and Var = sum_i d_i^2 / 4, per column
    k, n, r = 3, 2000, 4000
    codes, a, b, _ = _data(n, k, seed=3)
    resampler = ProbaResampler(codes, [a, b], k)
    base_a, base_b = resampler.totals()
    moved_a, moved_b = [], []
    for sa, sb in resampler.permute(np.random.default_rng(4), r):
        moved_a.append(sa - base_a)
        moved_b.append(base_b - sb)
    moved_a, moved_b = np.vstack(moved_a), np.vstack(moved_b)
    np.testing.assert_allclose(moved_a, moved_b, atol=1e-9)  # what A gains, B loses
    delta = confidence_features(codes, b, k) - confidence_features(codes, a, k)
    z = (moved_a.mean(axis=0)[: 2 * k] - delta.sum(axis=0)[: 2 * k] / 2) / np.sqrt(
        (delta**2).sum(axis=0)[: 2 * k] / 4 / r
    )
    assert np.abs(z).max() < 4.5
    np.testing.assert_allclose(
        moved_a.var(axis=0, ddof=1)[: 2 * k],
        (delta**2).sum(axis=0)[: 2 * k] / 4,
        rtol=0.12,
    )
    assert np.all(moved_a[:, 2 * k :] == 0)  # the true counts never move


@pytest.fixture
def by_class(monkeypatch):
    """Send every input, however small, to ProbaResampler."""
    monkeypatch.setattr(pr, "_ITEM_FEATURE_BYTES", 0)


@pytest.mark.parametrize(
    "run, field",
    [
        (
            lambda y, a, b, **kw: bootstrap_confidence_interval(y, a, **kw),
            "bootstrap_distribution",
        ),
        (paired_bootstrap_test, "null_distribution"),
        (paired_permutation_test, "null_distribution"),
    ],
    ids=["bootstrap", "paired-bootstrap", "permutation"],
)
def test_equal_in_distribution_to_item_features(monkeypatch, run, field):
    codes, a, b, _ = _data(600, 3, seed=5)
    kw = dict(metric="cf1_macro", n_resamples=3000)
    monkeypatch.setattr(pr, "_ITEM_FEATURE_BYTES", 0)
    new = run(codes, a, b, random_state=0, **kw)
    monkeypatch.setattr(pr, "_ITEM_FEATURE_BYTES", np.inf)  # per-item features
    old = run(codes, a, b, random_state=1, **kw)
    assert new.statistic == old.statistic
    ks = stats.ks_2samp(getattr(new, field), getattr(old, field))
    assert ks.pvalue > 1e-3
    assert np.std(getattr(new, field)) == pytest.approx(
        np.std(getattr(old, field)), rel=0.1
    )


def test_same_result_for_any_n_jobs_and_float32_kept(by_class):
    codes, a, b, w = _data(500, 3, seed=6)
    kw = dict(metric="cf1_macro", n_resamples=700, random_state=0)
    one = paired_bootstrap_test(codes, a, b, **kw)
    with parallel_config(backend="threading"):
        two = paired_bootstrap_test(codes, a, b, n_jobs=2, **kw)
    np.testing.assert_array_equal(one.null_distribution, two.null_distribution)
    # float32 probabilities are read as given, and resampled with the same draws
    single = paired_bootstrap_test(
        codes, a.astype(np.float32), b.astype(np.float32), **kw
    )
    np.testing.assert_allclose(
        single.null_distribution, one.null_distribution, atol=1e-6
    )
    resampler = ProbaResampler(codes, [a.astype(np.float32)], 3)
    assert resampler.probas[0].dtype == np.float32


def test_bca_jackknife_by_class_equals_item_features(monkeypatch):
    codes, a, _, w = _data(400, 3, seed=7)
    kw = dict(
        metric="cf1_macro",
        metric_kwargs={"sample_weight": w},
        method="bca",
        n_resamples=999,
        random_state=0,
    )
    monkeypatch.setattr(pr, "_ITEM_FEATURE_BYTES", 0)
    new = bootstrap_confidence_interval(codes, a, **kw)
    assert new.fast_path
    # the same resamples through the BCa formula with the per-item jackknife
    old = Resampler([confidence_features(codes, a, 3, w)])
    _, _, spec, _ = resolve_metric("cf1_macro")
    metric_of = functools.partial(metric_from_sums, spec=spec, pos_index=-1, k=3)
    interval = _bca_interval(
        new.bootstrap_distribution,
        new.statistic,
        old.jackknife(metric_of),
        0.95,
        "two-sided",
    )
    assert new.confidence_interval == pytest.approx(tuple(interval), rel=1e-12)


def test_small_inputs_keep_the_item_draws():
    codes, a, b, _ = _data(100, 3)
    assert isinstance(pr.proba_resampler(codes, [a, b], 3), Resampler)
    codes, a, b, _ = _data(20_000, 3)
    assert isinstance(pr.proba_resampler(codes, [a, b], 3), ProbaResampler)
