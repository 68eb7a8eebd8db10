"""``groups=``: whole clusters resampled and swapped, on every path."""

import functools
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_bootstrap_test_from_table,
    paired_permutation_test,
    paired_permutation_test_from_table,
)
from sklearn_faithful.holdout._resampling import MIN_CLUSTERS

LABELS = np.array(["x", "y", "z"])


def _clustered(n=400, n_clusters=40, seed=0):
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_clusters, n)
    y = rng.choice(LABELS, n)
    a = np.where(rng.random(n) < 0.7, y, rng.choice(LABELS, n))
    b = np.where(rng.random(n) < 0.75, y, rng.choice(LABELS, n))
    return groups, y, a, b


def _codes(labels):
    return np.searchsorted(LABELS, labels)


@pytest.mark.parametrize("metric", ["accuracy", "f1_macro"])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_cluster_cells_give_the_numbers_of_the_item_path(metric, method):
    # the same clusters drawn from the same stream: identical, not only equal
    # in distribution
    groups, y, a, _ = _clustered()
    runs = [
        bootstrap_confidence_interval(
            y, a, groups=groups, metric=metric, method=method, fast=fast,
            n_resamples=299, random_state=0,
        )
        for fast in (True, False)
    ]  # fmt: skip
    assert runs[0].fast_path and not runs[1].fast_path
    np.testing.assert_allclose(
        runs[0].bootstrap_distribution, runs[1].bootstrap_distribution, atol=1e-12
    )
    np.testing.assert_allclose(
        runs[0].confidence_interval, runs[1].confidence_interval, atol=1e-12
    )
    assert runs[0].n_clusters == runs[1].n_clusters == 40


@pytest.mark.parametrize("test", [paired_bootstrap_test, paired_permutation_test])
def test_paired_tests_with_groups_identical_on_both_paths(test):
    groups, y, a, b = _clustered()
    fast, generic = (
        test(y, a, b, groups=groups, metric="f1_macro", fast=f, n_resamples=299,
             random_state=0)
        for f in (True, False)
    )  # fmt: skip
    np.testing.assert_allclose(fast.null_distribution, generic.null_distribution)
    assert fast.pvalue == generic.pvalue
    assert fast.n_clusters == 40


@pytest.mark.parametrize(
    "metric, kwargs, proba",
    [
        ("f1_macro", {"sample_weight": "random"}, False),
        ("cf1_macro", {}, True),
    ],
)
def test_item_features_summed_per_cluster_equal_the_item_path(metric, kwargs, proba):
    groups, y, a, _ = _clustered(seed=3)
    rng = np.random.default_rng(0)
    if kwargs.get("sample_weight") == "random":
        kwargs = {"sample_weight": rng.random(y.size)}
    pred = rng.dirichlet(np.ones(3), y.size) if proba else a
    fast, generic = (
        bootstrap_confidence_interval(
            y, pred, groups=groups, metric=metric, metric_kwargs=kwargs, fast=f,
            n_resamples=199, random_state=0,
        )
        for f in (True, False)
    )  # fmt: skip
    np.testing.assert_allclose(
        fast.bootstrap_distribution, generic.bootstrap_distribution, atol=1e-12
    )


def test_any_metric_resamples_whole_clusters():
    groups, y, a, _ = _clustered()
    res = bootstrap_confidence_interval(
        y, a, groups=groups, metric=skm.hamming_loss, n_resamples=99,
        random_state=0,
    )  # fmt: skip
    assert not res.fast_path and res.n_clusters == 40
    assert res.statistic == pytest.approx(skm.hamming_loss(y, a))


def test_cluster_permutation_swaps_whole_clusters():
    # two clusters: B gains 3 items in the first and 1 in the second; swapping
    # whole clusters can only give +-3 +-1 (of 8 items), never what swapping
    # single items gives
    y = np.ones(8, dtype=int)
    a = np.array([0, 0, 0, 1, 1, 1, 1, 0])
    b = np.array([1, 1, 1, 1, 1, 1, 1, 1])
    groups = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.warns(RuntimeWarning, match="only 2 clusters"):
        res = paired_permutation_test(
            y, a, b, groups=groups, n_resamples=999, random_state=0
        )
    assert set(np.round(res.null_distribution * 8).astype(int)) == {-4, -2, 2, 4}
    naive = paired_permutation_test(y, a, b, n_resamples=999, random_state=0)
    assert len(set(np.round(naive.null_distribution * 8).astype(int))) > 4


@pytest.mark.parametrize("method", ["bootstrap", "permutation"])
def test_clustered_table_gives_the_numbers_of_the_labels(method):
    groups, y, a, b = _clustered(seed=1)
    joint = np.zeros((40, 3, 3, 3), dtype=int)
    np.add.at(joint, (groups, _codes(y), _codes(a), _codes(b)), 1)
    single = joint.sum(axis=3)
    labels_test, table_test = {
        "bootstrap": (paired_bootstrap_test, paired_bootstrap_test_from_table),
        "permutation": (paired_permutation_test, paired_permutation_test_from_table),
    }[method]
    options = dict(metric="f1_macro", n_resamples=299, random_state=0)
    r1 = labels_test(y, a, b, groups=groups, **options)
    r2 = table_test(joint, labels=LABELS, clustered=True, **options)
    np.testing.assert_array_equal(r1.null_distribution, r2.null_distribution)
    assert (r1.statistic, r1.pvalue) == (r2.statistic, r2.pvalue)
    r1 = bootstrap_confidence_interval(y, a, groups=groups, method="bca", **options)
    r2 = bootstrap_confidence_interval_from_table(
        single, labels=LABELS, clustered=True, method="bca", **options
    )
    np.testing.assert_array_equal(r1.bootstrap_distribution, r2.bootstrap_distribution)
    assert r1.confidence_interval == r2.confidence_interval
    assert r2.n_clusters == 40 and r2.n_samples == y.size


def test_empty_clusters_of_a_table_are_left_out():
    groups, y, a, _ = _clustered(seed=2)
    table = np.zeros((41, 3, 3), dtype=int)
    np.add.at(table, (groups + (groups >= 20), _codes(y), _codes(a)), 1)
    res = bootstrap_confidence_interval_from_table(
        table, labels=LABELS, clustered=True, n_resamples=99, random_state=0
    )
    same = bootstrap_confidence_interval(
        y, a, groups=groups, n_resamples=99, random_state=0
    )
    assert res.n_clusters == 40
    np.testing.assert_array_equal(
        res.bootstrap_distribution, same.bootstrap_distribution
    )


def test_kappa_interval_with_groups():
    groups, y, a, _ = _clustered()
    res = kappa_confidence_interval(
        y, a, groups=groups, n_resamples=299, random_state=0
    )
    naive = kappa_confidence_interval(y, a, n_resamples=299, random_state=0)
    assert res.statistic == naive.statistic == skm.cohen_kappa_score(y, a)
    assert res.n_clusters == 40 and naive.n_clusters is None
    assert "in 40 clusters" in res.summary()


def test_clusters_of_identical_items_widen_the_interval():
    # each cluster holds 10 copies of one item: the cluster bootstrap sees 40
    # items, the naive one 400
    rng = np.random.default_rng(0)
    right = rng.random(40) < 0.7
    y = np.ones(400, dtype=int)
    pred = np.repeat(right.astype(int), 10)
    groups = np.repeat(np.arange(40), 10)
    width = [
        np.diff(
            bootstrap_confidence_interval(
                y, pred, groups=g, n_resamples=999, random_state=0
            ).confidence_interval
        )[0]
        for g in (groups, None)
    ]
    assert width[0] > 2.5 * width[1]


def test_results_report_the_clusters():
    groups, y, a, b = _clustered()
    res = paired_bootstrap_test(y, a, b, groups=groups, n_resamples=99, random_state=0)
    assert res.to_dict()["n_clusters"] == 40
    assert "400 items in 40 clusters" in res.summary()
    naive = paired_bootstrap_test(y, a, b, n_resamples=99, random_state=0)
    assert naive.n_clusters is None and "clusters" not in naive.summary()


@pytest.mark.parametrize(
    "groups, match",
    [
        (np.zeros(399), r"shape \(400,\); got shape \(399,\)"),
        (np.zeros((400, 1)), r"got shape \(400, 1\)"),
        (np.r_[np.nan, np.arange(399.0)], "NaN"),
        (np.zeros(400), "1 cluster; resampling whole clusters needs at least 2"),
        (np.array([1, "a"] * 200, dtype=object), "cannot be compared"),
    ],
)
def test_bad_groups(groups, match):
    _, y, a, b = _clustered()
    with pytest.raises(ValueError, match=match):
        bootstrap_confidence_interval(y, a, groups=groups)
    with pytest.raises(ValueError, match=match):
        paired_permutation_test(y, a, b, groups=groups)


def test_bad_clustered_tables():
    with pytest.raises(ValueError, match=r"shape \(n_clusters, k, k\)"):
        bootstrap_confidence_interval_from_table(np.ones((3, 3)), clustered=True)
    with pytest.raises(ValueError, match="1 cluster"):
        bootstrap_confidence_interval_from_table(np.ones((1, 2, 2)), clustered=True)


def test_too_few_clusters_warns_at_the_users_call():
    _, y, a, b = _clustered()
    few = np.arange(y.size) % (MIN_CLUSTERS - 1)
    table = np.ones((MIN_CLUSTERS - 1, 2, 2, 2), dtype=int)
    calls = [
        functools.partial(bootstrap_confidence_interval, y, a, groups=few),
        functools.partial(paired_bootstrap_test, y, a, b, groups=few),
        functools.partial(paired_permutation_test, y, a, b, groups=few),
        functools.partial(kappa_confidence_interval, y, a, groups=few),
        functools.partial(
            bootstrap_confidence_interval_from_table, table[..., 0], clustered=True
        ),
        functools.partial(paired_bootstrap_test_from_table, table, clustered=True),
    ]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(n_resamples=19, random_state=0)
        (warning,) = [w for w in caught if "clusters" in str(w.message)]
        assert f"only {MIN_CLUSTERS - 1} clusters" in str(warning.message)
        assert warning.filename == __file__


def test_groups_not_modified():
    groups, y, a, b = _clustered()
    groups = groups.astype(float)
    before = groups.copy()
    paired_permutation_test(y, a, b, groups=groups, n_resamples=99, random_state=0)
    np.testing.assert_array_equal(groups, before)


# --- method="jackknife-bm": the delete-one-cluster jackknife of accuracy -----


def _jackknife_by_hand(scores, groups, level=0.95):
    """The delete-one-cluster jackknife interval with Bell-McCaffrey degrees
    of freedom, from the definitions, with dense matrices and loops."""
    labels = np.unique(groups)
    G, N = labels.size, scores.size
    n = np.array([np.sum(groups == g) for g in labels], float)
    loo = np.array([scores[groups != g].mean() for g in labels])
    se = np.sqrt((G - 1) / G * np.sum((loo - loo.mean()) ** 2))
    # one-way ANOVA estimate of the intra-cluster correlation
    means = np.array([scores[groups == g].mean() for g in labels])
    msb = np.sum(n * (means - scores.mean()) ** 2) / (G - 1)
    msw = sum(
        np.sum((scores[groups == g] - m) ** 2)
        for g, m in zip(labels, means, strict=True)
    )
    msw /= N - G
    n0 = (N - np.sum(n**2) / N) / (G - 1)
    rho = np.clip((msb - msw) / (msb + (n0 - 1) * msw), 0, 1)
    # Bell & McCaffrey (2002), eq. 11, for the mean: Q = L'WL, D = diag(tau)
    h = n / N
    L = np.eye(G) - np.outer(h, np.ones(G))
    QD = L.T @ np.diag(1 / (1 - h)) @ L @ np.diag((1 - rho) * n + rho * n**2)
    df = np.trace(QD) ** 2 / np.trace(QD @ QD)
    half = stats.t.ppf(0.5 + level / 2, df) * se
    return scores.mean(), se, df, (scores.mean() - half, scores.mean() + half)


def _unequal_clusters(n_clusters=12, seed=3):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 40, n_clusters)
    groups = np.repeat(np.arange(n_clusters), sizes)
    p = rng.beta(4, 1.5, n_clusters)[groups]
    y = rng.integers(0, 3, groups.size)
    pred = np.where(rng.random(groups.size) < p, y, (y + 1) % 3)
    return groups, y, pred


def test_jackknife_bm_equals_the_hand_computation_and_compare_runs():
    from sklearn_faithful.eval_logs import compare_runs

    groups, y, pred = _unequal_clusters()
    scores = (y == pred).astype(float)
    mean, se, df, (low, high) = _jackknife_by_hand(scores, groups)
    assert 2 < df < 11  # unequal sizes: below G - 1
    with pytest.warns(RuntimeWarning, match="jackknife-bm interval of accuracy"):
        res = bootstrap_confidence_interval(
            y, pred, groups=groups, method="jackknife-bm"
        )
    np.testing.assert_allclose(res.statistic, mean, rtol=1e-12)
    np.testing.assert_allclose(res.statistic, skm.accuracy_score(y, pred))
    np.testing.assert_allclose(res.standard_error, se, rtol=1e-10)
    np.testing.assert_allclose(res.confidence_interval, (low, high), rtol=1e-10)
    assert res.bootstrap_distribution.shape == (0,) and res.n_resamples == 0
    assert (res.method, res.n_clusters, res.n_samples) == ("jackknife-bm", 12, y.size)
    assert "jackknife-bm interval" in res.summary() and "12 clusters" in res.summary()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        runs = compare_runs({"a": scores}, groups=groups, interval="jackknife-bm")
    (row,) = runs.runs
    np.testing.assert_allclose(
        (row["low"], row["high"]), res.confidence_interval, rtol=1e-12
    )


def test_jackknife_bm_one_sided_bounds_and_weights():
    groups, y, pred = _unequal_clusters(n_clusters=40)
    two = bootstrap_confidence_interval(
        y, pred, groups=groups, method="jackknife-bm", confidence_level=0.9
    )
    less = bootstrap_confidence_interval(
        y, pred, groups=groups, method="jackknife-bm", alternative="less"
    )
    greater = bootstrap_confidence_interval(
        y, pred, groups=groups, method="jackknife-bm", alternative="greater"
    )
    assert less.confidence_interval == (-np.inf, two.confidence_interval.high)
    assert greater.confidence_interval == (two.confidence_interval.low, np.inf)
    # integer weights count an item that many times, as repeated rows do
    w = np.arange(y.size) % 3
    weighted = bootstrap_confidence_interval(
        y,
        pred,
        groups=groups,
        method="jackknife-bm",
        metric=functools.partial(skm.accuracy_score, sample_weight=w),
    )
    rows = np.repeat(np.arange(y.size), w)
    repeated = bootstrap_confidence_interval(
        y[rows], pred[rows], groups=groups[rows], method="jackknife-bm"
    )
    np.testing.assert_allclose(
        weighted.confidence_interval, repeated.confidence_interval, rtol=1e-12
    )


@pytest.mark.parametrize(
    "kwargs, got",
    [
        ({"metric": "f1_macro"}, "metric='f1_macro'"),
        ({"metric": "balanced_accuracy"}, "metric='balanced_accuracy'"),
        ({"metric_kwargs": {"normalize": False}}, "metric='accuracy'"),
        ({"groups": None}, "groups=None"),
    ],
)
def test_jackknife_bm_needs_groups_and_a_mean(kwargs, got):
    groups, y, pred = _unequal_clusters(n_clusters=40)
    kwargs = {"groups": groups, **kwargs}
    with pytest.raises(
        ValueError, match=f"method='jackknife-bm'.*needs groups=.*{got}"
    ):
        bootstrap_confidence_interval(y, pred, method="jackknife-bm", **kwargs)


def test_jackknife_bm_warns_below_its_threshold_and_with_rare_events():
    from sklearn_faithful.holdout._resampling import JACKKNIFE_MIN_CLUSTERS

    groups, y, pred = _unequal_clusters(n_clusters=JACKKNIFE_MIN_CLUSTERS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no bootstrap warning below 40 either
        bootstrap_confidence_interval(y, pred, groups=groups, method="jackknife-bm")
    few = groups % (JACKKNIFE_MIN_CLUSTERS - 1)
    with pytest.warns(RuntimeWarning, match=r"covered 86\.6% with 5") as caught:
        bootstrap_confidence_interval(y, pred, groups=few, method="jackknife-bm")
    assert caught[0].filename == __file__
    # one wrong item in 30 clusters: the rarer outcome weighs under 1 cluster
    with pytest.warns(RuntimeWarning, match=r"R = 0\.\d\d clusters.*84\.4%"):
        bootstrap_confidence_interval(
            y,
            np.where(np.arange(y.size) == 0, (y + 1) % 3, y),
            groups=groups,
            method="jackknife-bm",
        )


def test_the_bootstrap_warning_recommends_jackknife_bm_with_its_coverage():
    _, y, a, _ = _clustered()
    few = np.arange(y.size) % 10
    with pytest.warns(RuntimeWarning) as caught:
        bootstrap_confidence_interval(y, a, groups=few, n_resamples=19)
    (message,) = [str(w.message) for w in caught if "clusters" in str(w.message)]
    assert "75.8% with 5 clusters, 87.7% with 10 and 91.9% with 30" in message
    assert "method='jackknife-bm') covered 86.6% with 5 clusters" in message
