"""Several metrics from one set of a table's resamples (the command line's
``compare --metric accuracy,f1``) give what each metric's own call gives."""

import numpy as np
import pytest

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval_from_table,
    paired_bootstrap_test_from_table,
    paired_permutation_test_from_table,
)
from sklearn_faithful.holdout._tables import _table_results

METRICS = [
    ("accuracy", None),
    ("f1", {"average": "macro"}),
    ("matthews_corrcoef", None),
    ("precision", {"average": "micro"}),
    ("recall", {"average": "binary", "pos_label": 1}),
]


def _table(shape, clustered, seed=0):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 12, size=((6,) if clustered else ()) + shape)
    return table


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_intervals_equal_their_own_calls(method, clustered):
    table = _table((3, 3), clustered)
    metrics = METRICS[:4]  # the binary average needs two classes
    shared = _table_results(
        "interval",
        table,
        metrics,
        clustered=clustered,
        method=method,
        n_resamples=299,
        random_state=7,
    )
    for (metric, kwargs), result in zip(metrics, shared, strict=True):
        alone = bootstrap_confidence_interval_from_table(
            table,
            clustered=clustered,
            metric=metric,
            metric_kwargs=kwargs,
            method=method,
            n_resamples=299,
            random_state=7,
        )
        assert result.to_dict() == alone.to_dict()
        np.testing.assert_array_equal(
            result.bootstrap_distribution, alone.bootstrap_distribution
        )


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize(
    "kind, test",
    [
        ("bootstrap", paired_bootstrap_test_from_table),
        ("permutation", paired_permutation_test_from_table),
    ],
)
def test_paired_tests_equal_their_own_calls(kind, test, clustered):
    table = _table((2, 2, 2), clustered, seed=1)
    shared = _table_results(
        kind, table, METRICS, clustered=clustered, n_resamples=299, random_state=3
    )
    for (metric, kwargs), result in zip(METRICS, shared, strict=True):
        alone = test(
            table,
            clustered=clustered,
            metric=metric,
            metric_kwargs=kwargs,
            n_resamples=299,
            random_state=3,
        )
        assert result.to_dict() == alone.to_dict()
        np.testing.assert_array_equal(result.null_distribution, alone.null_distribution)
