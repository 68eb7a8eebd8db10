"""The table engine: one-pass encoding, the jackknife over cells, the table entry."""

import functools
import types

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
    sign_test,
    sign_test_from_table,
)
from sklearn_faithful.holdout._fast_metrics import (
    encode_labels,
    label_cells,
    label_table,
    resolve_metric,
)


def _labels(n, k, seed, n_systems=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    preds = [
        np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
        for _ in range(n_systems)
    ]
    return y, preds


# --- encoding ----------------------------------------------------------------


ARRAYS = [
    [np.array([3, 1, 3, 7]), np.array([1, 1, 9, 3])],  # gaps: a lookup table
    [np.array([0, 1, 2, 1]), np.array([2, 2, 0, 1])],  # 0..k-1: the offsets
    [np.array([-5, 2], dtype=np.int8), np.array([127, -128], dtype=np.int8)],
    [np.array([True, False, True]), np.array([True, True, True])],
    [np.array([0, 10**12]), np.array([10**12, 0])],  # too spread: np.unique
    [np.array(["b", "a", "c"]), np.array(["c", "c", "a"])],
    [np.array([0.5, 1.5]), np.array([1.5, 2.5])],
    [np.array([2, 3], dtype=np.uint8), np.array([300, 2], dtype=np.int64)],
]


@pytest.mark.parametrize("arrays", ARRAYS)
def test_encode_labels_equals_unique(arrays):
    classes, codes = encode_labels(*arrays)
    expected = np.unique(np.concatenate(arrays))
    np.testing.assert_array_equal(classes, expected)
    assert classes.dtype == expected.dtype
    for array, code in zip(arrays, codes, strict=True):
        np.testing.assert_array_equal(classes[code], array)


@pytest.mark.parametrize("arrays", ARRAYS)
def test_label_table_is_the_distinct_cells_of_the_labels(arrays):
    classes, cells, counts = label_table(*arrays)
    np.testing.assert_array_equal(classes, np.unique(np.concatenate(arrays)))
    rows, expected = np.unique(
        np.column_stack([np.searchsorted(classes, a) for a in arrays]),
        axis=0,
        return_counts=True,
    )
    np.testing.assert_array_equal(np.column_stack(cells), rows)
    np.testing.assert_array_equal(counts, expected)


def test_encode_labels_does_not_modify_its_inputs():
    y = np.array([5, 3, 5, 4])
    copy = y.copy()
    _, (codes,) = encode_labels(y)
    codes_copy = codes.copy()
    label_cells([codes, codes], 3)
    label_table(y, y)
    np.testing.assert_array_equal(y, copy)
    np.testing.assert_array_equal(codes, codes_copy)


@pytest.mark.parametrize("k", [3, 200])  # a counted table, and sorted cells
def test_label_cells_are_the_distinct_cells_in_order(k):
    y, (a, b) = _labels(500, k, 0, n_systems=2)
    classes, codes = encode_labels(y, a, b)
    cells, counts = label_cells(codes, classes.size)
    rows, expected = np.unique(np.column_stack(codes), axis=0, return_counts=True)
    np.testing.assert_array_equal(np.column_stack(cells), rows)
    np.testing.assert_array_equal(counts, expected)


# --- BCa: the jackknife over cells --------------------------------------------


BCA_CASES = [
    (2, "accuracy", None),
    (2, "f1", None),
    (2, "precision", {"pos_label": 0}),
    (3, "f1_macro", None),
    (3, "recall_micro", None),
    (4, "precision_weighted", {"zero_division": 0}),
    (3, functools.partial(skm.fbeta_score, beta=2), {"average": "macro"}),
]


def _scipy_bca(y, pred, func, kwargs, weight, dist, alternative):
    """scipy's BCa from our resamples, with its jackknife over the items."""

    def statistic(idx):
        extra = {} if weight is None else {"sample_weight": weight[idx]}
        return func(y[idx], pred[idx], **kwargs, **extra)

    return stats.bootstrap(
        (np.arange(y.shape[0]),),
        statistic,
        vectorized=False,
        n_resamples=0,
        bootstrap_result=types.SimpleNamespace(bootstrap_distribution=dist),
        method="BCa",
        alternative=alternative,
    ).confidence_interval


@pytest.mark.parametrize("k, metric, kwargs", BCA_CASES)
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_bca_over_cells_equals_the_item_jackknife(k, metric, kwargs, alternative):
    y, (pred,) = _labels(80, k, 1)
    res = bootstrap_confidence_interval(
        y,
        pred,
        metric=metric,
        metric_kwargs=kwargs,
        method="bca",
        alternative=alternative,
        n_resamples=999,
        random_state=0,
    )
    assert res.fast_path
    func, kw, _, _ = resolve_metric(metric, kwargs)
    low, high = _scipy_bca(
        y, pred, func, kw, None, res.bootstrap_distribution, alternative
    )
    assert res.confidence_interval.low == pytest.approx(low, abs=1e-12)
    assert res.confidence_interval.high == pytest.approx(high, abs=1e-12)
    # the same resamples as the percentile interval
    pct = bootstrap_confidence_interval(
        y, pred, metric=metric, metric_kwargs=kwargs, n_resamples=999, random_state=0
    )
    np.testing.assert_array_equal(
        pct.bootstrap_distribution, res.bootstrap_distribution
    )


@pytest.mark.parametrize(
    "metric, kwargs, y_pred",
    [
        ("f1_macro", {"sample_weight": np.linspace(0.5, 2, 60)}, "labels"),  # items
        (lambda y, p: skm.matthews_corrcoef(y, p), None, "labels"),  # a callable
        ("cf1_macro", None, "proba"),  # per-item sums
    ],
)
def test_bca_on_items_equals_scipy(metric, kwargs, y_pred):
    y, (pred,) = _labels(60, 3, 2)
    if y_pred == "proba":
        rng = np.random.default_rng(3)
        pred = rng.dirichlet(np.ones(3), 60)
    res = bootstrap_confidence_interval(
        y,
        pred,
        metric=metric,
        metric_kwargs=kwargs,
        method="bca",
        n_resamples=499,
        random_state=0,
    )
    func, kw, _, weight = resolve_metric(metric, kwargs)
    low, high = _scipy_bca(
        y, pred, func, kw, weight, res.bootstrap_distribution, "two-sided"
    )
    assert res.confidence_interval.low == pytest.approx(low, abs=1e-12)
    assert res.confidence_interval.high == pytest.approx(high, abs=1e-12)


# --- the table entry ------------------------------------------------------------


def _table(codes, k):
    table = np.zeros((k,) * len(codes), dtype=np.int64)
    np.add.at(table, tuple(codes), 1)
    return table


def _same(a, b):
    """Every field of two results equal, the arrays element for element."""
    for name, value in vars(a).items():
        other = getattr(b, name)
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(value, other, err_msg=name)
        else:
            assert value == other or (value != value and other != other), name


TABLE_METRICS = [
    ("accuracy", None),
    ("f1", {"pos_label": "b"}),
    ("f1_macro", None),
    ("precision_weighted", {"zero_division": 0}),
    ("recall_micro", None),
    (functools.partial(skm.fbeta_score, beta=0.5, average="macro"), None),
]


@pytest.mark.parametrize("metric, kwargs", TABLE_METRICS)
@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_table_gives_the_numbers_of_the_labels(metric, kwargs, method):
    k = 2 if kwargs and "pos_label" in kwargs else 4
    names = np.array(["a", "b", "c", "d"])[:k]
    y, (pred,) = _labels(300, k, 5)
    from_labels = bootstrap_confidence_interval(
        names[y],
        names[pred],
        metric=metric,
        metric_kwargs=kwargs,
        method=method,
        n_resamples=999,
        random_state=7,
    )
    from_table = bootstrap_confidence_interval_from_table(
        _table([y, pred], k),
        labels=names,
        metric=metric,
        metric_kwargs=kwargs,
        method=method,
        n_resamples=999,
        random_state=7,
    )
    _same(from_labels, from_table)


@pytest.mark.parametrize("metric, kwargs", TABLE_METRICS)
@pytest.mark.parametrize(
    "from_labels, from_table",
    [
        (paired_bootstrap_test, paired_bootstrap_test_from_table),
        (paired_permutation_test, paired_permutation_test_from_table),
    ],
)
def test_joint_table_gives_the_numbers_of_the_labels(
    metric, kwargs, from_labels, from_table
):
    k = 2 if kwargs and "pos_label" in kwargs else 4
    names = np.array(["a", "b", "c", "d"])[:k]
    y, (a, b) = _labels(300, k, 6, n_systems=2)
    options = dict(metric=metric, metric_kwargs=kwargs, n_resamples=999, random_state=3)
    _same(
        from_labels(names[y], names[a], names[b], **options),
        from_table(_table([y, a, b], k), labels=names, **options),
    )


def test_table_with_unsorted_labels_and_an_empty_class():
    """Rows in any label order, and a class of no item, change nothing."""
    y, (pred,) = _labels(200, 3, 8)
    expected = bootstrap_confidence_interval(
        y, pred, metric="f1_macro", n_resamples=199, random_state=0
    )
    table = _table([y, pred], 3)
    order = [2, 0, 1]
    shuffled = np.zeros((4, 4), dtype=int)  # class 9: no item
    shuffled[:3, :3] = table[np.ix_(order, order)]
    result = bootstrap_confidence_interval_from_table(
        shuffled,
        labels=[2, 0, 1, 9],
        metric="f1_macro",
        n_resamples=199,
        random_state=0,
    )
    _same(expected, result)


def test_sign_test_from_table_equals_sign_test():
    y, (a, b) = _labels(150, 3, 9, n_systems=2)
    for alternative in ("two-sided", "greater"):
        _same(
            sign_test(y, a, b, alternative=alternative),
            sign_test_from_table(_table([y, a, b], 3), alternative=alternative),
        )


def test_whole_float_counts_are_counts():
    y, (pred,) = _labels(100, 2, 10)
    table = _table([y, pred], 2)
    _same(
        bootstrap_confidence_interval_from_table(table, n_resamples=99, random_state=0),
        bootstrap_confidence_interval_from_table(
            table.astype(float), n_resamples=99, random_state=0
        ),
    )


GOOD = np.array([[5, 2], [1, 7]])


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD > 2),
            "table must hold counts",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table([["a", "b"], ["c", "d"]]),
            "table must hold counts",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD[0]),
            r"table must have shape \(k, k\)",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(np.ones((2, 3))),
            "table must have shape",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(np.ones((2, 2, 2))),
            "table must have shape",
        ),
        (
            lambda: paired_bootstrap_test_from_table(GOOD),
            r"table must have shape \(k, k, k\)",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD - 3),
            r"table\[0, 1\] is -1",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD + 0.5),
            r"table\[0, 0\] is 5.5",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(
                np.where(GOOD > 6, np.nan, GOOD)
            ),
            r"table\[1, 1\] is nan",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table([[1, 0], [0, 0]]),
            "table holds 1 items",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD, labels=[0, 1, 2]),
            "labels has 3 entries",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD, labels=[1, 1]),
            "labels contains duplicates",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(GOOD, metric="cf1"),
            "metric='cf1' cannot be computed from a table",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(
                GOOD, metric=skm.hamming_loss
            ),
            "cannot be computed from a table",
        ),
        (
            lambda: bootstrap_confidence_interval_from_table(
                GOOD, metric_kwargs={"sample_weight": [1, 2]}
            ),
            r"metric_kwargs\['sample_weight'\] cannot go with a table",
        ),
        (lambda: sign_test_from_table(GOOD > 0), "table must hold counts"),
    ],
)
def test_bad_tables(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_tables_not_modified():
    table = np.array([[5, 2], [1, 7]])
    table.setflags(write=False)
    bootstrap_confidence_interval_from_table(table, n_resamples=99, random_state=0)
    np.testing.assert_array_equal(table, [[5, 2], [1, 7]])


# --- the table path and the item path: equal in distribution ------------------


@pytest.mark.parametrize(
    "test",
    [
        "bootstrap",
        pytest.param("paired_bootstrap", marks=pytest.mark.slow),
        pytest.param("paired_permutation", marks=pytest.mark.slow),
    ],
)
def test_table_path_equals_item_path_in_distribution(test):
    """Multinomial tables (binomial swaps) against item indices (item swaps):
    a Kolmogorov-Smirnov test on 2,000 resamples of each, fixed seeds."""
    y, (a, b) = _labels(150, 3, 11, n_systems=2)
    options = dict(metric="f1_macro", n_resamples=2000)
    if test == "bootstrap":
        call = functools.partial(bootstrap_confidence_interval, y, a, **options)
        what = "bootstrap_distribution"
    else:
        func = (
            paired_bootstrap_test
            if test == "paired_bootstrap"
            else paired_permutation_test
        )
        call = functools.partial(func, y, a, b, **options)
        what = (
            "bootstrap_distribution"
            if test == "paired_bootstrap"
            else "null_distribution"
        )
    table = call(fast=True, random_state=0)
    items = call(fast=False, random_state=1)
    assert table.fast_path and not items.fast_path
    assert table.statistic == items.statistic
    result = stats.ks_2samp(getattr(table, what), getattr(items, what))
    assert result.pvalue > 0.01, result


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_statistic_from_the_cells_is_sklearns(weights):
    rng = np.random.default_rng(12)
    for _ in range(10):
        n = int(rng.integers(5, 300))
        y1 = rng.integers(0, 5, n)
        y2 = np.where(rng.random(n) < 0.6, y1, rng.integers(0, 5, n))
        res = kappa_confidence_interval(
            y1, y2, weights=weights, n_resamples=99, random_state=0
        )
        assert res.statistic == float(skm.cohen_kappa_score(y1, y2, weights=weights))


# --- frequency weights ---------------------------------------------------------


@pytest.mark.parametrize("metric", ["accuracy", "f1_macro", "cf1_macro", "mcc"])
@pytest.mark.parametrize("clustered", [False, True])
def test_integer_weights_are_repeated_rows(metric, clustered):
    # the same numbers as the rows repeated, for the same seed, on every path
    rng = np.random.default_rng(0)
    y, (a, b) = _labels(200, 3, seed=4, n_systems=2)
    weights = rng.integers(0, 4, y.size)
    rows = np.repeat(np.arange(y.size), weights)
    groups = rng.integers(0, 30, y.size) if clustered else None
    if metric == "cf1_macro":
        a = rng.dirichlet(np.ones(3), y.size)
        b = rng.dirichlet(np.ones(3), y.size)
    func = skm.matthews_corrcoef if metric == "mcc" else metric
    options = dict(metric=func, n_resamples=99, random_state=0)
    weighted = dict(groups=groups, metric_kwargs={"sample_weight": weights})
    repeated = dict(groups=None if groups is None else groups[rows])
    r1 = bootstrap_confidence_interval(y, a, **weighted, **options)
    r2 = bootstrap_confidence_interval(y[rows], a[rows], **repeated, **options)
    assert r1.statistic == pytest.approx(r2.statistic, abs=1e-12)
    np.testing.assert_allclose(
        r1.bootstrap_distribution, r2.bootstrap_distribution, atol=1e-12
    )
    assert r1.n_samples == r2.n_samples == weights.sum()
    if metric != "cf1_macro":
        p1 = paired_permutation_test(y, a, b, **weighted, **options)
        p2 = paired_permutation_test(y[rows], a[rows], b[rows], **repeated, **options)
        np.testing.assert_allclose(
            p1.null_distribution, p2.null_distribution, atol=1e-12
        )


def test_integer_weights_counting_fewer_than_two_items():
    with pytest.raises(ValueError, match=r"frequency\) weights that count 1 items"):
        bootstrap_confidence_interval(
            [0, 1, 1], [0, 1, 0], metric_kwargs={"sample_weight": [0, 1, 0]}
        )


# --- exact moments -------------------------------------------------------------


def _within(sample, mean, var):
    # the sample mean within 4 standard errors, the variance within 4 of its
    # own (for a near-normal sample, sd(s^2) = var sqrt(2 / (R - 1)))
    r = sample.size
    assert abs(sample.mean() - mean) < 4 * np.sqrt(var / r)
    assert abs(sample.var(ddof=1) - var) < 4 * var * np.sqrt(2 / (r - 1))


@pytest.mark.parametrize("clustered", [False, True])
def test_resamples_of_accuracy_have_the_exact_moments(clustered):
    y, (a, b) = _labels(500, 3, seed=7, n_systems=2)
    groups = np.random.default_rng(1).integers(0, 50, y.size) if clustered else None
    n, options = y.size, dict(n_resamples=20000, random_state=0)
    # permutation: each item (cluster) adds +-D/n with probability 1/2, D its
    # items only B has right minus those only A has: mean 0, variance
    # sum(D^2) / n^2
    d = (b == y).astype(int) - (a == y)
    if clustered:
        d = np.bincount(groups, weights=d)
    null = paired_permutation_test(y, a, b, groups=groups, **options)
    _within(null.null_distribution, 0.0, np.sum(d**2) / n**2)
    if not clustered:
        # bootstrap of accuracy: a binomial share, variance p (1 - p) / n
        p = np.mean(a == y)
        boot = bootstrap_confidence_interval(y, a, **options)
        _within(boot.bootstrap_distribution, p, p * (1 - p) / n)


# --- every confusion-matrix metric on the table ----------------------------------

TABLE_METRICS = [
    ("balanced_accuracy", {}, skm.balanced_accuracy_score),
    (
        "balanced_accuracy",
        {"adjusted": True},
        functools.partial(skm.balanced_accuracy_score, adjusted=True),
    ),
    ("matthews_corrcoef", {}, skm.matthews_corrcoef),
    ("cohen_kappa", {}, skm.cohen_kappa_score),
    *[
        (f"jaccard_{average}", {"zero_division": zero}, functools.partial(
            skm.jaccard_score, average=average, zero_division=zero))
        for average in ("micro", "macro", "weighted")
        for zero in (0.0, 1.0)
    ],
    ("jaccard", {}, functools.partial(skm.jaccard_score, zero_division=0.0)),
]  # fmt: skip


@pytest.mark.parametrize("name, kwargs, func", TABLE_METRICS)
@pytest.mark.filterwarnings("ignore")  # sklearn's, on degenerate resamples
def test_every_resample_of_a_table_metric_is_sklearns(name, kwargs, func):
    # singleton clusters draw the same items on the table path and on the
    # item path, which calls scikit-learn's metric on each resample: the
    # values must agree resample by resample, NaN included
    rng = np.random.default_rng(0)
    for trial in range(15):
        k = 2 if name == "jaccard" else int(rng.integers(2, 5))
        n = int(rng.integers(4, 25))
        y = rng.integers(0, k, n)
        pred = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n))
        options = dict(groups=np.arange(n), n_resamples=40, random_state=trial)
        fast = bootstrap_confidence_interval(
            y, pred, metric=name, metric_kwargs=kwargs, **options
        )
        slow = bootstrap_confidence_interval(
            y, pred, metric=func, fast=False, **options
        )
        assert fast.fast_path and not slow.fast_path
        assert fast.statistic == pytest.approx(slow.statistic, abs=1e-12, nan_ok=True)
        np.testing.assert_allclose(
            fast.bootstrap_distribution, slow.bootstrap_distribution, atol=1e-12
        )


@pytest.mark.parametrize("name, kwargs, func", TABLE_METRICS[:4])
def test_table_metrics_from_a_table(name, kwargs, func):
    y, (a, b) = _labels(300, 3, seed=5, n_systems=2)
    table = np.zeros((3, 3, 3), dtype=int)
    np.add.at(table, (y, a, b), 1)
    options = dict(metric=name, metric_kwargs=kwargs, n_resamples=99, random_state=0)
    r1 = paired_permutation_test(y, a, b, **options)
    r2 = paired_permutation_test_from_table(table, **options)
    assert r1.statistic == pytest.approx(func(y, b) - func(y, a), abs=1e-12)
    np.testing.assert_array_equal(r1.null_distribution, r2.null_distribution)


def test_weighted_kappa_stays_on_the_item_path():
    y, (a,) = _labels(60, 3, seed=6)
    res = bootstrap_confidence_interval(
        y, a, metric="cohen_kappa", metric_kwargs={"weights": "linear"},
        n_resamples=19, random_state=0,
    )  # fmt: skip
    assert not res.fast_path
    with pytest.raises(ValueError, match="weighted kappa: kappa_confidence_interval"):
        bootstrap_confidence_interval_from_table(
            np.ones((2, 2)), metric="cohen_kappa", metric_kwargs={"weights": "linear"}
        )


@pytest.mark.parametrize("name", ["accuracy_macro", "matthews_corrcoef_micro", "f1_"])
def test_unknown_metric_names(name):
    with pytest.raises(ValueError, match="is not a known name"):
        bootstrap_confidence_interval([0, 1, 1], [0, 1, 0], metric=name)
