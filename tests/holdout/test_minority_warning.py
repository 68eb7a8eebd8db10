"""The warning of bootstrap intervals on few items of a class (user guide,
"Few items of a class"; threshold from benchmarks/sim_minority_coverage.py)."""

import warnings

import numpy as np
import pytest
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    mean_absolute_error,
    roc_auc_score,
)

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
)
from sklearn_faithful.holdout._resampling import FEW_ITEMS

FEW = "rarest class"


def _data(n_pos, n_neg=60):
    y_true = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    y_pred = y_true.copy()
    y_pred[:1] = 0
    y_pred[-2:] = 1
    score = y_true + np.linspace(-0.8, 0.8, y_true.size)
    return y_true, y_pred, score


def _few_warnings(func, *args, **kwargs):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        func(*args, n_resamples=99, random_state=0, **kwargs)
    return [w for w in record if FEW in str(w.message)]


@pytest.mark.parametrize(
    "metric, kwargs",
    [
        ("f1", {}),
        ("recall", {}),
        ("precision_macro", {}),
        (f1_score, {"pos_label": 1}),
        ("f1", {"sample_weight": np.linspace(0.5, 1.5, 65)}),
    ],
)
def test_label_metric_warns_at_the_users_call(metric, kwargs):
    y_true, y_pred, _ = _data(5)
    found = _few_warnings(
        bootstrap_confidence_interval,
        y_true,
        y_pred,
        metric=metric,
        metric_kwargs=kwargs,
    )
    assert len(found) == 1
    assert found[0].category is RuntimeWarning
    assert found[0].filename == __file__
    message = str(found[0].message)
    assert "with 5 items of the rarest class" in message
    assert "'Few items of a class'" in message
    assert "covered as little as" in message


def test_item_path_warns_as_the_table():
    y_true, y_pred, _ = _data(5)
    found = _few_warnings(
        bootstrap_confidence_interval, y_true, y_pred, metric="f1", fast=False
    )
    assert len(found) == 1 and found[0].filename == __file__


@pytest.mark.parametrize("metric", [roc_auc_score, average_precision_score])
def test_ranking_metric_warns(metric):
    y_true, _, score = _data(4)
    found = _few_warnings(bootstrap_confidence_interval, y_true, score, metric=metric)
    assert len(found) == 1 and found[0].filename == __file__
    assert "with 4 items" in str(found[0].message)


def test_table_entry_warns():
    table = [[60, 2], [1, 4]]
    found = _few_warnings(
        bootstrap_confidence_interval_from_table, table, metric="f1_macro"
    )
    assert len(found) == 1 and found[0].filename == __file__
    assert "with 5 items" in str(found[0].message)


def test_enough_items_do_not_warn():
    y_true, y_pred, _ = _data(FEW_ITEMS["label"])
    assert not _few_warnings(bootstrap_confidence_interval, y_true, y_pred, metric="f1")
    y_true, _, score = _data(FEW_ITEMS["ranking"])
    assert not _few_warnings(
        bootstrap_confidence_interval, y_true, score, metric=roc_auc_score
    )


def test_ranking_metrics_need_more_items_than_label_metrics():
    y_true, y_pred, score = _data(FEW_ITEMS["label"])
    assert not _few_warnings(bootstrap_confidence_interval, y_true, y_pred, metric="f1")
    (found,) = _few_warnings(
        bootstrap_confidence_interval, y_true, score, metric=roc_auc_score
    )
    assert f"with {FEW_ITEMS['label']} items" in str(found.message)


def test_clusters_count_the_clusters_holding_a_class():
    y_true, y_pred, _ = _data(6)
    groups = np.arange(y_true.size) // 2
    (found,) = _few_warnings(
        bootstrap_confidence_interval, y_true, y_pred, metric="f1", groups=groups
    )
    assert "with 3 clusters with items of the rarest class" in str(found.message)


@pytest.mark.parametrize("metric", ["accuracy", "f1_micro", "matthews_corrcoef"])
def test_metrics_of_all_items_do_not_warn(metric):
    y_true, y_pred, _ = _data(5)
    assert not _few_warnings(
        bootstrap_confidence_interval, y_true, y_pred, metric=metric
    )


def test_unknown_callable_does_not_warn():
    # a regression metric: its y_true are numbers, not classes
    y_true = np.r_[np.ones(3), np.zeros(40)]
    y_pred = np.linspace(0, 1, 43)
    assert not _few_warnings(
        bootstrap_confidence_interval, y_true, y_pred, metric=mean_absolute_error
    )
