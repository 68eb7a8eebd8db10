"""The precision/recall/F rule exists once: the metrics path and the fast
bootstrap path give identical values for every ``average`` and
``zero_division`` (doc/formulas.rst, "Precision, recall, F-beta and accuracy")"""

import functools
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_faithful.holdout._fast_metrics import resolve_metric
from sklearn_faithful.holdout._resampling import _fast_resampler
from sklearn_faithful.metrics import (
    cf1_score,
    cfbeta_score,
    cprecision_score,
    crecall_score,
)

AVERAGES = ["binary", "micro", "macro", "weighted"]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]


def _fast_value(y, pred, spec, kwargs, weight=None):
    """The fast path's metric on the data itself (every unit drawn once)."""
    resampler, metric_of = _fast_resampler(y, [pred], spec, kwargs, weight)
    return metric_of(resampler.totals()[0])[0]


def _same(ours, theirs):
    """Equal up to the order of a floating-point sum; NaN equals NaN."""
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0, equal_nan=True)


def _confidence_data(binary):
    """Probabilities with undefined ratios: classes absent from y_true, one of
    them also without any probability mass (cPrecision 0/0)."""
    rng = np.random.default_rng(0)
    if binary:
        y = np.zeros(12, dtype=int)  # class 1 absent: cRecall of 1 is 0/0
        proba = rng.dirichlet([1, 1], size=12)
        return y, proba, [0, 1]
    y = rng.integers(0, 2, 30)  # classes 2 and 3 absent from y_true
    proba = rng.dirichlet([1, 1, 1], size=30)
    proba = np.column_stack([proba, np.zeros(30)])  # class 3 has no mass
    return y, proba, [0, 1, 2, 3]


@pytest.mark.parametrize(
    "func",
    [
        cprecision_score,
        crecall_score,
        cf1_score,
        functools.partial(cfbeta_score, beta=2),
    ],
)
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_confidence_metrics_equal_fast_path(func, average, zero_division):
    y, proba, labels = _confidence_data(average == "binary")
    kwargs = dict(average=average, zero_division=zero_division, labels=labels)
    _, kw, spec, _ = resolve_metric(func, kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = func(y, proba, **kw)
    _same(_fast_value(y, proba, spec, kw), expected)


@pytest.mark.parametrize(
    "func",
    [
        skm.precision_score,
        skm.recall_score,
        skm.f1_score,
        functools.partial(skm.fbeta_score, beta=0.5),
    ],
)
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_label_metrics_equal_fast_path(func, average, zero_division):
    k = 2 if average == "binary" else 4
    rng = np.random.default_rng(1)
    for trial in range(20):
        y = rng.integers(0, k, 15)
        p = rng.integers(0, k, 15)
        if trial % 3 == 0:
            p[:] = 0  # classes never predicted: precision 0/0
        if trial % 3 == 1:
            y[:] = 0  # classes never true: recall 0/0
        kwargs = dict(average=average, zero_division=zero_division)
        _, kw, spec, _ = resolve_metric(func, kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = func(y, p, **kw)
        _same(_fast_value(y, p, spec, kw), expected)


def test_weighted_average_with_all_weights_undefined():
    """Every class with true samples has an undefined precision: scikit-learn
    falls back to the plain mean of the defined values (0.0 here). The fast
    path's own copy of the rule used to return NaN."""
    y, p = np.zeros(10, dtype=int), np.ones(10, dtype=int)
    kwargs = dict(average="weighted", zero_division=np.nan)
    _, kw, spec, _ = resolve_metric(skm.precision_score, kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = skm.precision_score(y, p, **kw)
    assert expected == 0.0
    assert _fast_value(y, p, spec, kw) == 0.0
