"""Intervals, tests of calibration and the paired comparison."""

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, log_loss

from sklearn_faithful.calibration import (
    calibration_error,
    calibration_error_interval,
    calibration_test,
    paired_calibration_test,
)


def _binary(n=1500, gamma=1.0, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p**gamma).astype(int)
    return y, p


def _multiclass(n=800, k=4, seed=0):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(k, 0.5), size=n)
    y = (proba.cumsum(axis=1) < rng.uniform(size=(n, 1))).sum(axis=1)
    return y, proba


def test_interval_statistic_is_the_error_and_the_distribution_is_its_resamples():
    y, p = _binary(gamma=1.5)
    res = calibration_error_interval(y, p, n_resamples=199, random_state=0)
    assert res.statistic == pytest.approx(calibration_error(y, p), rel=1e-12)
    # the first resample by hand: the same generator stream
    rng = np.random.default_rng(0)
    assert res.bootstrap_distribution.shape == (199,)
    assert res.standard_error == pytest.approx(
        np.std(res.bootstrap_distribution, ddof=1)
    )
    low, high = res.confidence_interval
    assert 0 <= low < res.statistic < high <= 1
    del rng


def test_basic_and_percentile_intervals_reflect_each_other():
    y, p = _binary(gamma=2.0)
    kw = dict(n_resamples=299, random_state=1, method="binned", norm="l2")
    basic = calibration_error_interval(y, p, interval="basic", **kw)
    perc = calibration_error_interval(y, p, interval="percentile", **kw)
    np.testing.assert_array_equal(
        basic.bootstrap_distribution, perc.bootstrap_distribution
    )
    theta = basic.statistic
    # reflected on the squared scale
    assert basic.confidence_interval.low**2 == pytest.approx(
        2 * theta**2 - perc.confidence_interval.high**2
    )


def test_resample_weights_give_the_error_of_the_resampled_items():
    # a resample is a vector of multiplicities: its error equals the error of
    # the items repeated (with the bins of the data)
    from sklearn_faithful.calibration._inference import _Problems
    from sklearn_faithful.utils._calibration import check_calibration_data

    y, proba = _multiclass()
    codes, checked, _, pos = check_calibration_data(y, proba)
    params = dict(
        method="binned",
        norm="l1",
        n_bins=15,
        strategy="uniform",
        multi_class="classwise",
    )
    problems = _Problems(codes, checked, pos, params)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, y.size, y.size)
    weights = np.bincount(idx, minlength=y.size).astype(float)[None, :]
    expected = calibration_error(
        y[idx], proba[idx], method="binned", multi_class="classwise"
    )
    assert problems.error(weights)[0] == pytest.approx(expected, rel=1e-12)


def test_same_seed_same_result_for_any_n_jobs():
    y, proba = _multiclass()
    kw = dict(n_resamples=300, random_state=7, multi_class="classwise")
    one = calibration_error_interval(y, proba, n_jobs=1, **kw)
    two = calibration_error_interval(y, proba, n_jobs=2, **kw)
    np.testing.assert_array_equal(
        one.bootstrap_distribution, two.bootstrap_distribution
    )
    t1 = calibration_test(y, proba, n_jobs=1, **kw)
    t2 = calibration_test(y, proba, n_jobs=2, **kw)
    assert t1.pvalue == t2.pvalue


def test_groups_resample_whole_clusters():
    y, p = _binary(n=600)
    groups = np.arange(600) // 10
    res = calibration_error_interval(
        y, p, groups=groups, n_resamples=99, random_state=0
    )
    assert res.n_clusters == 60
    with pytest.raises(ValueError, match="groups"):
        calibration_error_interval(y, p, groups=groups[:10])


def test_consistency_test_holds_its_level_and_finds_miscalibration():
    pvalues = [
        calibration_test(*_binary(n=400, seed=s), n_resamples=99, random_state=s).pvalue
        for s in range(40)
    ]
    # uniform p-values under H0: at most a few of 40 below 0.05
    assert sum(p <= 0.05 for p in pvalues) <= 6
    y, p = _binary(n=2000, gamma=1.6, seed=1)
    assert calibration_test(y, p, n_resamples=199, random_state=0).pvalue < 0.01


def test_consistency_outcomes_follow_the_probabilities():
    from sklearn_faithful.calibration._inference import _Problems
    from sklearn_faithful.utils._calibration import check_calibration_data

    y, proba = _multiclass(n=400, k=3)
    codes, checked, _, pos = check_calibration_data(y, proba)
    params = dict(
        method="binned",
        norm="l1",
        n_bins=15,
        strategy="uniform",
        multi_class="classwise",
    )
    problems = _Problems(codes, checked, pos, params)
    drawn = problems.draw_outcomes(np.random.default_rng(0), 2000)
    # one class per item and draw, each with its probability
    total = sum(drawn)
    np.testing.assert_array_equal(total, 1.0)
    for k in range(3):
        np.testing.assert_allclose(drawn[k].mean(axis=0), proba[:, k], atol=0.05)


def test_spiegelhalter_z_by_hand():
    y, p = _binary(n=500, gamma=1.2, seed=4)
    res = calibration_test(y, p, test="spiegelhalter")
    num = np.sum((y - p) * (1 - 2 * p))
    den = np.sqrt(np.sum((1 - 2 * p) ** 2 * p * (1 - p)))
    assert res.statistic == pytest.approx(num / den)
    with pytest.raises(ValueError, match="classwise"):
        calibration_test(*_multiclass(), test="spiegelhalter", multi_class="classwise")
    with pytest.raises(ValueError, match="variance under calibration is 0"):
        calibration_test([0, 1, 1], [0.5, 0.5, 1.0], test="spiegelhalter")


@pytest.mark.parametrize("metric", ["brier", "log_loss"])
def test_paired_proper_scores_equal_scikit_learn(metric):
    y, proba = _multiclass(k=3)
    other = 0.7 * proba + 0.3 / 3
    res = paired_calibration_test(
        y, proba, other, metric=metric, n_resamples=99, random_state=0
    )
    func = brier_score_loss if metric == "brier" else log_loss
    try:
        expected = func(y, other) - func(y, proba)
    except ValueError:  # scikit-learn < 1.7: no multiclass Brier score
        pytest.skip("multiclass brier_score_loss needs scikit-learn >= 1.7")
    assert res.statistic == pytest.approx(expected, rel=1e-10)


def test_paired_test_of_one_system_against_itself_is_zero():
    y, p = _binary()
    res = paired_calibration_test(y, p, p, n_resamples=99, random_state=0)
    assert res.statistic == 0
    np.testing.assert_array_equal(res.bootstrap_distribution, 0.0)


def test_paired_test_names_the_system_with_bad_probabilities():
    y, p = _binary(n=50)
    bad = p.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match="y_proba_b contains NaN"):
        paired_calibration_test(y, p, bad)
    with pytest.raises(ValueError, match="y_proba_a"):
        paired_calibration_test(y, p[:10], p)


@pytest.mark.parametrize(
    "call, kwargs, match",
    [
        (calibration_error, {"method": "smooth", "n_bins": 5}, "n_bins=5"),
        (calibration_error, {"method": "smooth", "strategy": "quantile"}, "strategy"),
        (calibration_error_interval, {"method": "smooth", "n_bins": 5}, "no bins"),
        (calibration_test, {"test": "spiegelhalter", "n_resamples": 5}, "n_resamp"),
        (calibration_test, {"test": "spiegelhalter", "method": "smooth"}, "method"),
    ],
)
def test_options_that_would_be_ignored_are_refused(call, kwargs, match):
    y, p = _binary(n=200)
    with pytest.raises(ValueError, match=f"{match}.*would have no effect|no effect"):
        call(y, p, **kwargs)


def test_paired_proper_scores_refuse_the_estimator_options():
    y, p = _binary(n=200)
    for kwargs in ({"method": "binned"}, {"n_bins": 5}, {"multi_class": "top-label"}):
        with pytest.raises(ValueError, match="would have no effect"):
            paired_calibration_test(y, p, p, metric="brier", **kwargs)


def test_pos_label_with_top_label_or_classwise_is_refused():
    y, proba = _multiclass(k=2)
    for multi_class in ("top-label", "classwise"):
        with pytest.raises(ValueError, match="pos_label would have no effect"):
            calibration_error(y, proba, pos_label=1, multi_class=multi_class)


def test_log_loss_of_a_confident_miss_is_clipped_as_scikit_learn():
    from sklearn_faithful.calibration import corp_decomposition

    y = np.array([0, 1, 1, 0])
    p = np.array([0.0, 1.0, 0.0, 0.3], dtype=np.float32)  # item 2: p = 0, y = 1
    res = corp_decomposition(y, p, scoring="log_loss")
    assert res.score == pytest.approx(log_loss(y, p), rel=1e-6)
    assert np.isfinite(res.miscalibration)


def test_interval_warning_points_at_the_callers_line():
    # before: the warning named the validation wrapper's file
    y, p = _binary(gamma=2.0)
    with pytest.warns(UserWarning, match="percentile interval") as record:
        calibration_error_interval(
            y, p, interval="percentile", n_resamples=99, random_state=0
        )
    assert {w.filename for w in record} == {__file__}
