"""The table engine: one-pass encoding, the jackknife over cells, the table entry."""

import functools
import types

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

from sklearn_faithful.holdout import bootstrap_confidence_interval
from sklearn_faithful.holdout._fast_metrics import (
    encode_labels,
    label_cells,
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


@pytest.mark.parametrize(
    "arrays",
    [
        [np.array([3, 1, 3, 7]), np.array([1, 1, 9, 3])],  # gaps: a lookup table
        [np.array([0, 1, 2, 1]), np.array([2, 2, 0, 1])],  # 0..k-1: the offsets
        [np.array([-5, 2], dtype=np.int8), np.array([127, -128], dtype=np.int8)],
        [np.array([True, False, True]), np.array([True, True, True])],
        [np.array([0, 10**12]), np.array([10**12, 0])],  # too spread: np.unique
        [np.array(["b", "a", "c"]), np.array(["c", "c", "a"])],
        [np.array([0.5, 1.5]), np.array([1.5, 2.5])],
        [np.array([2, 3], dtype=np.uint8), np.array([300, 2], dtype=np.int64)],
    ],
)
def test_encode_labels_equals_unique(arrays):
    classes, codes = encode_labels(*arrays)
    expected = np.unique(np.concatenate(arrays))
    np.testing.assert_array_equal(classes, expected)
    assert classes.dtype == expected.dtype
    for array, code in zip(arrays, codes, strict=True):
        np.testing.assert_array_equal(classes[code], array)


def test_encode_labels_does_not_modify_its_inputs():
    y = np.array([5, 3, 5, 4])
    copy = y.copy()
    _, (codes,) = encode_labels(y)
    codes_copy = codes.copy()
    label_cells([codes, codes], 3)
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
