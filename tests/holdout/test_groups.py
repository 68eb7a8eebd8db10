"""Properties of the cluster bootstrap and the cluster permutation (``groups``).

The coverage and level are measured by benchmarks/sim_clusters.py; these
tests pin what must hold on any data, beside tests/holdout/test_clusters.py:
singleton clusters are the item bootstrap, the clusters (not the items) are
the units, a cluster-constant design is the bootstrap of G cluster outcomes,
and where the warning starts.
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)
from sklearn_faithful.holdout._resampling import MIN_CLUSTERS

N_RESAMPLES = 2000


def _labels(n, seed=0, k=3, acc=0.75):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    a = np.where(rng.random(n) < acc, y, (y + 1) % k)
    b = np.where(rng.random(n) < acc, y, (y + 2) % k)
    return y, a, b


@pytest.mark.parametrize("metric", ["accuracy", "f1_macro"])
def test_singleton_clusters_are_the_item_bootstrap(metric):
    # one item per cluster: drawing n clusters of n is drawing n items of n,
    # so the two bootstrap distributions are equal (KS, two independent seeds)
    y, a, _ = _labels(150)
    kw = dict(metric=metric, n_resamples=N_RESAMPLES)
    naive = bootstrap_confidence_interval(y, a, random_state=0, **kw)
    single = bootstrap_confidence_interval(
        y, a, groups=np.arange(y.size), random_state=1, **kw
    )
    assert single.n_clusters == y.size and naive.n_clusters is None
    ks = stats.ks_2samp(naive.bootstrap_distribution, single.bootstrap_distribution)
    assert ks.pvalue > 1e-3
    assert single.standard_error == pytest.approx(naive.standard_error, rel=0.1)


@pytest.mark.parametrize("test", [paired_bootstrap_test, paired_permutation_test])
def test_singleton_clusters_are_the_item_paired_test(test):
    y, a, b = _labels(150)
    naive = test(y, a, b, n_resamples=N_RESAMPLES, random_state=0)
    single = test(y, a, b, groups=np.arange(y.size), n_resamples=N_RESAMPLES,
                  random_state=1)  # fmt: skip
    for field in ("null_distribution", "bootstrap_distribution"):
        ks = stats.ks_2samp(getattr(naive, field), getattr(single, field))
        assert ks.pvalue > 1e-3, field


def test_cluster_constant_design_is_a_bootstrap_of_the_clusters():
    # every item of a cluster is right or every item is wrong: the accuracy
    # of a resample is the share of right clusters drawn, Binomial(G, p) / G,
    # whose s.e. sqrt(p (1 - p) / G) is sqrt(m) times the naive one
    n_clusters, m = 40, 10
    right = np.arange(n_clusters) < 30
    groups = np.repeat(np.arange(n_clusters), m)
    y = np.tile([0, 1], n_clusters * m // 2)
    pred = np.where(right[groups], y, 1 - y)
    kw = dict(n_resamples=N_RESAMPLES, random_state=0)
    cluster = bootstrap_confidence_interval(y, pred, groups=groups, **kw)
    naive = bootstrap_confidence_interval(y, pred, **kw)
    p = 0.75
    assert cluster.standard_error == pytest.approx(
        np.sqrt(p * (1 - p) / n_clusters), rel=0.1
    )
    assert naive.standard_error == pytest.approx(
        np.sqrt(p * (1 - p) / (n_clusters * m)), rel=0.1
    )
    # every resample is a whole number of right clusters out of G
    right_drawn = cluster.bootstrap_distribution * n_clusters
    np.testing.assert_allclose(right_drawn, np.round(right_drawn), atol=1e-9)


def test_kappa_cluster_constant_design_widens():
    n_clusters, m = 40, 10
    rng = np.random.default_rng(3)
    groups = np.repeat(np.arange(n_clusters), m)
    y1 = rng.integers(0, 3, n_clusters)[groups]  # one label per cluster
    y2 = np.where(rng.random(n_clusters) < 0.7, y1[::m], (y1[::m] + 1) % 3)[groups]
    kw = dict(n_resamples=N_RESAMPLES, random_state=0)
    cluster = kappa_confidence_interval(y1, y2, groups=groups, **kw)
    naive = kappa_confidence_interval(y1, y2, **kw)
    assert cluster.statistic == naive.statistic
    # all m items of a cluster agree alike: about sqrt(m) = 3.2 times the s.e.
    assert 2.5 < cluster.standard_error / naive.standard_error < 4.5


@pytest.mark.parametrize("metric", ["accuracy", "f1_macro"])
def test_clusters_are_the_units_not_the_items(metric):
    # repeating every item of every cluster twice changes the items, not the
    # clusters: the cluster bootstrap draws the same resamples (same seed)
    y, a, _ = _labels(4 * MIN_CLUSTERS, seed=4)
    groups = np.repeat(np.arange(MIN_CLUSTERS), 4)
    kw = dict(groups=None, metric=metric, n_resamples=500, random_state=0)
    once = bootstrap_confidence_interval(y, a, **{**kw, "groups": groups})
    twice = bootstrap_confidence_interval(
        np.repeat(y, 2), np.repeat(a, 2), **{**kw, "groups": np.repeat(groups, 2)}
    )
    np.testing.assert_allclose(
        twice.bootstrap_distribution, once.bootstrap_distribution, rtol=1e-12
    )
    assert twice.n_samples == 2 * once.n_samples
    assert twice.n_clusters == once.n_clusters == MIN_CLUSTERS


@pytest.mark.parametrize(
    "test",
    [bootstrap_confidence_interval, paired_bootstrap_test, paired_permutation_test],
)
def test_item_order_and_cluster_names_do_not_matter(test):
    y, a, b = _labels(3 * MIN_CLUSTERS, seed=5)
    groups = np.repeat(np.arange(MIN_CLUSTERS), 3)
    args = (y, a) if test is bootstrap_confidence_interval else (y, a, b)
    kw = dict(metric="f1_macro", n_resamples=300, random_state=0)
    ref = test(*args, groups=groups, **kw)
    order = np.random.default_rng(0).permutation(y.size)
    names = np.array([f"c{g:03d}" for g in range(MIN_CLUSTERS)])  # sorted alike
    shuffled = test(*(x[order] for x in args), groups=names[groups][order], **kw)
    for field in ("bootstrap_distribution", "null_distribution"):
        if hasattr(ref, field):
            np.testing.assert_allclose(
                getattr(shuffled, field), getattr(ref, field), atol=1e-12
            )


def test_the_warning_starts_below_min_clusters_and_points_to_the_guide():
    y, a, _ = _labels(4 * MIN_CLUSTERS, seed=7)
    kw = dict(n_resamples=99, random_state=0)
    with pytest.warns(RuntimeWarning, match="'Clustered items' in the user guide"):
        bootstrap_confidence_interval(
            y, a, groups=np.arange(y.size) % (MIN_CLUSTERS - 1), **kw
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bootstrap_confidence_interval(
            y, a, groups=np.arange(y.size) % MIN_CLUSTERS, **kw
        )


def test_unequal_clusters_that_weigh_as_few_warn_on_every_path():
    # 40 clusters, one of them holding half the items: G_eff = (2 n)^2 / (n^2 +
    # 39 (n / 39)^2) = 3.9, below MIN_CLUSTERS though G is not
    y, a, b = _labels(2 * 39 * 4, seed=3)
    groups = np.r_[np.zeros(39 * 4, dtype=int), 1 + np.arange(39 * 4) % 39]
    classes, codes = np.unique(np.r_[y, a], return_inverse=True)
    table = np.zeros((40, classes.size, classes.size), dtype=int)
    np.add.at(table, (groups, codes[: y.size], codes[y.size :]), 1)
    kw = dict(n_resamples=99, random_state=0)
    match = "40 clusters are of unequal sizes and weigh as 4 of equal size"
    with pytest.warns(RuntimeWarning, match=match):
        bootstrap_confidence_interval(y, a, groups=groups, **kw)
    with pytest.warns(RuntimeWarning, match=match):
        paired_permutation_test(y, a, b, groups=groups, **kw)
    with pytest.warns(RuntimeWarning, match=match):
        bootstrap_confidence_interval_from_table(table, clustered=True, **kw)
    # 40 equal clusters weigh as 40: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bootstrap_confidence_interval(
            y[:280], a[:280], groups=np.arange(280) % 40, **kw
        )
