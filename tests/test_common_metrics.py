"""Invariance suite for every confidence metric, in the spirit of scikit-learn's
``metrics/tests/test_common.py``."""

from functools import partial

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_faithful.metrics import (
    cf1_score,
    cfbeta_score,
    cprecision_score,
    crecall_score,
    probabilistic_confusion_matrix,
)

FUNCS = {
    "cprecision": cprecision_score,
    "crecall": crecall_score,
    "cf1": cf1_score,
    "cf2": partial(cfbeta_score, beta=2.0),
}
METRICS = {
    f"{name}_{average}": partial(func, average=average)
    for name, func in FUNCS.items()
    for average in (None, "micro", "macro", "weighted")
}
METRICS.update({f"{name}_binary": func for name, func in FUNCS.items()})
METRICS["pcm"] = probabilistic_confusion_matrix


def _data(name, n=60, seed=0):
    rng = np.random.default_rng(seed)
    k = 2 if name.endswith("binary") else 4
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present
    proba = rng.dirichlet(np.ones(k) * 0.7, size=n)
    return y, proba


def _call(metric, y, proba, **kwargs):
    return np.asarray(metric(y, proba, **kwargs), dtype=float)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_sample_order_invariance(name):
    metric = METRICS[name]
    y, proba = _data(name)
    perm = np.random.default_rng(1).permutation(y.shape[0])
    assert_allclose(
        _call(metric, y[perm], proba[perm]), _call(metric, y, proba), rtol=1e-12
    )


@pytest.mark.parametrize("name", sorted(METRICS))
def test_label_type_invariance(name):
    metric = METRICS[name]
    y, proba = _data(name)
    expected = _call(metric, y, proba)
    names = np.array(["c0", "c1", "c2", "c3"])
    kwargs = {"pos_label": "c1"} if name.endswith("binary") else {}
    for y_other in (names[y], names[y].astype(object)):
        assert_allclose(_call(metric, y_other, proba, **kwargs), expected)
    assert_allclose(_call(metric, y.astype(np.int8), proba), expected)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_list_and_pandas_input(name):
    pd = pytest.importorskip("pandas")
    metric = METRICS[name]
    y, proba = _data(name)
    expected = _call(metric, y, proba)
    assert_allclose(_call(metric, y.tolist(), proba.tolist()), expected)
    assert_allclose(_call(metric, pd.Series(y), pd.DataFrame(proba)), expected)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_sample_weight_identities(name):
    metric = METRICS[name]
    y, proba = _data(name)
    rng = np.random.default_rng(2)
    unweighted = _call(metric, y, proba)
    # None is the same as ones, and scaling all weights changes nothing.
    assert_allclose(
        _call(metric, y, proba, sample_weight=np.ones(y.shape[0])), unweighted
    )
    w = rng.integers(0, 4, y.shape[0])
    w[: y.max() + 1] = 1  # keep every class present
    weighted = _call(metric, y, proba, sample_weight=w)
    if name != "pcm":
        assert_allclose(_call(metric, y, proba, sample_weight=2.5 * w), weighted)
    # Integer weights are repeated rows; zero weight is a removed row.
    repeated = np.repeat(np.arange(y.shape[0]), w)
    assert_allclose(_call(metric, y[repeated], proba[repeated]), weighted, rtol=1e-12)
    assert not np.allclose(weighted, unweighted)
