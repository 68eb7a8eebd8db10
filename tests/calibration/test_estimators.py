"""The calibration error and the CORP decomposition against hand computations
and scikit-learn."""

import functools

import numpy as np
import pytest
from scipy.optimize import isotonic_regression
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss

from sklearn_faithful.calibration import calibration_error as _calibration_error
from sklearn_faithful.calibration import corp_decomposition

# the binned estimators unless a test names another (the default is debiased)
calibration_error = functools.partial(_calibration_error, method="binned")


def _binary(n=2000, gamma=1.0, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p**gamma).astype(int)
    return y, p


def _multiclass(n=1500, k=4, seed=0):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(k, 0.5), size=n)
    y = np.array([rng.choice(k, p=row) for row in proba])
    return y, proba


def _hand_binned(conf, out, n_bins, edges=None, norm="l1", debias=False):
    """ECE by a loop over the bins, bin j = (e_j, e_{j+1}] and 0 in bin 0:
    Guo et al. (2017) eq. 3 (L1), its L2 root, and with ``debias`` the bin
    variance term of Kumar et al. (2019), sec. 5 (formulas page, "Calibration
    error")."""
    if edges is None:
        edges = np.linspace(0, 1, n_bins + 1)
    total = 0.0
    for j in range(n_bins):
        lo, hi = edges[j], edges[j + 1]
        inside = (conf > lo) & (conf <= hi)
        if j == 0:
            inside |= conf <= lo
        m = inside.sum()
        if m == 0:
            continue
        gap = out[inside].mean() - conf[inside].mean()
        if norm == "l1":
            total += m / conf.size * abs(gap)
        else:
            term = gap**2
            if debias:
                if m < 2:
                    continue
                obar = out[inside].mean()
                term -= obar * (1 - obar) / (m - 1)
            total += m / conf.size * term
    return total if norm == "l1" else np.sqrt(max(total, 0.0))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_binned_error_is_the_weighted_gap_of_calibration_curve(strategy):
    y, p = _binary(gamma=1.4)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10, strategy=strategy)
    if strategy == "uniform":
        edges = np.linspace(0, 1, 11)
    else:
        edges = np.percentile(p, np.linspace(0, 100, 11))
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=10)
    weights = counts[counts > 0] / p.size
    expected = np.sum(weights * np.abs(prob_true - prob_pred))
    got = calibration_error(y, p, n_bins=10, strategy=strategy)
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "method, norm, debias",
    [("binned", "l1", False), ("binned", "l2", False), ("debiased", "l2", True)],
)
def test_binned_estimators_equal_a_loop_over_the_bins(method, norm, debias):
    y, p = _binary(n=700, gamma=0.7, seed=3)
    expected = _hand_binned(p, y.astype(float), 15, norm=norm, debias=debias)
    got = calibration_error(y, p, method=method, norm=norm)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_edges_are_right_closed_as_calibration_curve():
    # 0.2 is the upper edge of bin 0 with 5 bins: it joins 0.1, not 0.3
    y = [0, 1, 1]
    p = [0.1, 0.2, 0.3]
    assert calibration_error(y, p, n_bins=5) == pytest.approx(
        (2 * abs(0.5 - 0.15) + abs(1 - 0.3)) / 3
    )


def test_top_label_and_classwise_equal_their_definitions():
    y, proba = _multiclass()
    top = proba.argmax(axis=1)
    conf = proba.max(axis=1)
    expected = _hand_binned(conf, (y == top).astype(float), 15)
    assert calibration_error(y, proba) == pytest.approx(expected, rel=1e-12)
    per_class = [
        _hand_binned(proba[:, k], (y == k).astype(float), 15) for k in range(4)
    ]
    got = calibration_error(y, proba, multi_class="classwise")
    assert got == pytest.approx(np.mean(per_class), rel=1e-12)
    per_class_l2 = [
        _hand_binned(proba[:, k], (y == k).astype(float), 15, norm="l2")
        for k in range(4)
    ]
    got = calibration_error(y, proba, multi_class="classwise", norm="l2")
    assert got == pytest.approx(np.sqrt(np.mean(np.square(per_class_l2))))


def test_binary_two_columns_one_column_and_pos_label_agree():
    y, p = _binary(n=300, gamma=1.3)
    two = np.column_stack([1 - p, p])
    value = calibration_error(y, p)
    assert calibration_error(y, two) == pytest.approx(value, rel=1e-12)
    labels = np.where(y == 1, "yes", "no")
    assert calibration_error(labels, p, pos_label="yes") == pytest.approx(value)
    # the other class's probability, judged against the other class
    flipped = calibration_error(y, two, pos_label=0)
    assert flipped == pytest.approx(_hand_binned(1 - p, 1.0 - y, 15), rel=1e-12)
    # top-label on two classes is max(p, 1 - p)
    top = calibration_error(y, p, multi_class="top-label")
    conf = np.maximum(p, 1 - p)
    right = ((p >= 0.5) == (y == 1)).astype(float)
    assert top == pytest.approx(_hand_binned(conf, right, 15), rel=1e-12)


def test_debiased_error_of_calibrated_probabilities_is_near_zero():
    y, p = _binary(n=20000, seed=5)
    binned = calibration_error(y, p, norm="l2")
    debiased = calibration_error(y, p, method="debiased")
    assert debiased < binned
    assert debiased < 0.01


def test_corp_terms_add_up_and_equal_the_scores():
    # Dimitriadis et al. (2021) eq. 5: S = MCB - DSC + UNC, with the PAV fit
    # from scipy and the scores from scikit-learn
    y, p = _binary(gamma=1.5, seed=2)
    res = corp_decomposition(y, p)
    assert res.score == pytest.approx(brier_score_loss(y, p), rel=1e-12)
    assert res.miscalibration - res.discrimination + res.uncertainty == (
        pytest.approx(res.score, abs=1e-14)
    )
    rate = y.mean()
    assert res.uncertainty == pytest.approx(rate * (1 - rate))
    order = np.argsort(p)
    fitted = isotonic_regression(y[order].astype(float)).x
    s_rc = np.mean((fitted - y[order]) ** 2)  # no ties among uniform draws
    assert res.miscalibration == pytest.approx(res.score - s_rc, rel=1e-10)
    log = corp_decomposition(y, p, scoring="log_loss")
    assert log.score == pytest.approx(log_loss(y, p), rel=1e-12)
    assert log.miscalibration - log.discrimination + log.uncertainty == (
        pytest.approx(log.score, abs=1e-13)
    )


def test_corp_pools_tied_probabilities():
    y = np.array([0, 1, 0, 1, 1, 1])
    p = np.array([0.5, 0.5, 0.2, 0.2, 0.9, 0.9])
    res = corp_decomposition(y, p)
    # ties pooled: (0.2: 1/2), (0.5: 1/2), (0.9: 1): already monotone
    recal = np.array([0.5, 0.5, 0.5, 0.5, 1.0, 1.0])
    s_rc = np.mean((recal - y) ** 2)
    assert res.miscalibration == pytest.approx(np.mean((p - y) ** 2) - s_rc)


def test_corp_of_calibrated_recalibrated_probabilities_is_zero():
    y = np.array([0, 0, 1, 0, 1, 1, 1, 1])
    p = np.array([0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0])
    assert corp_decomposition(y, p).miscalibration == pytest.approx(0.0, abs=1e-15)


def test_classwise_brier_is_the_multiclass_brier_score():
    y, proba = _multiclass(k=3)
    res = corp_decomposition(y, proba, multi_class="classwise")
    expected = np.mean(np.sum((proba - np.eye(3)[y]) ** 2, axis=1))
    assert res.score == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "y, proba, kwargs, match",
    [
        ([0, 1, 1], [0.2, np.nan, 0.4], {}, "NaN at row 1"),
        ([0, 1, 1], [0.2, 1.2, 0.4], {}, "1.2 at row 1"),
        ([0, 1, 1], [[0.2, 0.7], [0.5, 0.5], [0.1, 0.9]], {}, "Row 0 of y_proba sums"),
        ([1, 1, 1], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]], {}, "1 distinct classes"),
        ([1, 1, 1], [0.2, 0.5, 0.1], {"labels": [1]}, "labels has 1 entries"),
        ([0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]], {"labels": [0, 1]}, "2"),
        ([0, 1, 1], [0.2, 0.5, 0.4], {"method": "debiased", "norm": "l1"}, "norm"),
        ([0, 1, 2], np.full((3, 3), 1 / 3), {"pos_label": 1}, "pos_label=1"),
        ([0, 1, 1], [0.2, 0.5], {}, "different numbers of samples"),
        ([], [], {}, "empty"),
    ],
)
def test_bad_input_gets_a_clear_error(y, proba, kwargs, match):
    with pytest.raises(ValueError, match=match):
        calibration_error(y, proba, **kwargs)


def test_inputs_are_not_modified_and_float32_is_kept_apart():
    y, proba = _multiclass(n=200)
    proba32 = proba.astype(np.float32)
    proba32 /= proba32.sum(axis=1, keepdims=True)
    before = proba32.copy()
    calibration_error(y, proba32, multi_class="classwise")
    np.testing.assert_array_equal(proba32, before)
