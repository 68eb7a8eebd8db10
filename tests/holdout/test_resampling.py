"""Tests of the statistics toolbox: gates, bootstrap, paired tests, agreement."""

import functools

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

from sklearn_faithful.gate import (
    AccuracyRegressionTest,
)
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.holdout._fast_metrics import resolve_metric
from sklearn_faithful.holdout._resampling import _fast_resampler
from sklearn_faithful.metrics import cf1_score, cprecision_score, crecall_score

# --- the fast metrics are the metrics ----------------------------------------

AVERAGES = ["binary", "micro", "macro", "weighted"]


def _fast_value(y, pred, spec, kwargs):
    """The fast path's metric on the data itself (every unit drawn once)."""
    resampler, metric_of = _fast_resampler(y, [pred], spec, kwargs, None)
    return metric_of(resampler.totals()[0])[0]


@pytest.mark.parametrize("func", [skm.precision_score, skm.recall_score, skm.f1_score])
@pytest.mark.parametrize("average", AVERAGES)
def test_fast_metric_equals_sklearn(func, average):
    rng = np.random.default_rng(2)
    for trial in range(30):
        k = 2 if average == "binary" else int(rng.integers(2, 6))
        n = int(rng.integers(3, 40))
        y = rng.integers(0, k, n)
        p = rng.integers(0, k, n)
        kwargs = dict(average=average, zero_division=0)
        _, _, spec, _ = resolve_metric(func, kwargs)
        ours = _fast_value(y, p, spec, kwargs)
        assert ours == pytest.approx(func(y, p, **kwargs), abs=1e-12), trial


def test_accuracy_and_fbeta_from_tables():
    rng = np.random.default_rng(3)
    y, p = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    _, _, spec, _ = resolve_metric("accuracy")
    assert _fast_value(y, p, spec, {}) == skm.accuracy_score(y, p)
    _, kw, spec, _ = resolve_metric(
        functools.partial(skm.fbeta_score, beta=2), {"average": "macro"}
    )
    assert _fast_value(y, p, spec, kw) == pytest.approx(
        skm.fbeta_score(y, p, beta=2, average="macro")
    )


# --- bootstrap ---------------------------------------------------------------


def _data(n=300, seed=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.85, y, 1 - y)
    return y, a, b


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["accuracy", "f1", "precision", "recall_macro"])
def test_fast_bootstrap_equals_generic_in_distribution(metric):
    y, a, _ = _data()
    fast = bootstrap_confidence_interval(
        y, a, metric=metric, n_resamples=3000, random_state=0
    )
    slow = bootstrap_confidence_interval(
        y, a, metric=metric, n_resamples=3000, random_state=1, fast=False
    )
    assert fast.fast_path and not slow.fast_path
    assert fast.statistic == slow.statistic
    ks = stats.ks_2samp(fast.bootstrap_distribution, slow.bootstrap_distribution)
    assert ks.pvalue > 1e-3
    assert fast.standard_error == pytest.approx(slow.standard_error, rel=0.1)


def test_fast_cmetric_bootstrap_is_identical_to_generic():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 120)
    proba = rng.dirichlet(np.ones(3), 120)
    for metric in (
        cf1_score,
        functools.partial(cprecision_score, average="micro"),
        functools.partial(crecall_score, average="weighted"),
    ):
        kw = {} if isinstance(metric, functools.partial) else {"average": "macro"}
        fast = bootstrap_confidence_interval(
            y,
            proba,
            metric=metric,
            metric_kwargs=kw,
            n_resamples=300,
            random_state=7,
        )
        slow = bootstrap_confidence_interval(
            y,
            proba,
            metric=metric,
            metric_kwargs=kw,
            n_resamples=300,
            random_state=7,
            fast=False,
        )
        assert fast.fast_path and not slow.fast_path
        np.testing.assert_allclose(
            fast.bootstrap_distribution, slow.bootstrap_distribution, rtol=1e-10
        )


def test_bootstrap_interval_methods_and_alternative():
    y, a, _ = _data()
    kw = dict(metric="accuracy", n_resamples=2000, random_state=0)
    pct = bootstrap_confidence_interval(y, a, **kw)
    basic = bootstrap_confidence_interval(y, a, method="basic", **kw)
    dist = pct.bootstrap_distribution
    lo, hi = np.quantile(dist, [0.025, 0.975])
    assert pct.confidence_interval == pytest.approx((lo, hi))
    assert basic.confidence_interval == pytest.approx(
        (2 * pct.statistic - hi, 2 * pct.statistic - lo)
    )
    upper = bootstrap_confidence_interval(y, a, alternative="less", **kw)
    assert upper.confidence_interval.low == -np.inf
    assert upper.confidence_interval.high == pytest.approx(np.quantile(dist, 0.95))
    lower = bootstrap_confidence_interval(y, a, alternative="greater", **kw)
    assert lower.confidence_interval.high == np.inf
    bca = bootstrap_confidence_interval(
        y, a, method="bca", metric="accuracy", n_resamples=500, random_state=0
    )
    assert bca.confidence_interval.low < bca.statistic < bca.confidence_interval.high
    again = bootstrap_confidence_interval(y, a, **kw)
    np.testing.assert_array_equal(again.bootstrap_distribution, dist)


def test_bootstrap_warns_on_nan():
    y = np.array([0, 0, 0, 1, 0, 0, 0, 0])
    p = np.array([0, 0, 0, 1, 0, 0, 0, 0])
    with pytest.warns(RuntimeWarning, match=r"NaN on \d+ of 2000 resamples"):
        res = bootstrap_confidence_interval(
            y,
            p,
            metric="precision",
            metric_kwargs={"zero_division": np.nan},
            n_resamples=2000,
            random_state=0,
        )
    assert res.n_nan > 0 and np.isfinite(res.confidence_interval).all()


# --- paired tests -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("test", [paired_bootstrap_test, paired_permutation_test])
def test_paired_fast_equals_generic_in_distribution(test):
    y, a, b = _data()
    fast = test(y, a, b, metric="f1", n_resamples=2000, random_state=0)
    slow = test(y, a, b, metric="f1", n_resamples=2000, random_state=1, fast=False)
    assert fast.fast_path and not slow.fast_path
    assert (
        fast.statistic
        == slow.statistic
        == pytest.approx(skm.f1_score(y, b) - skm.f1_score(y, a))
    )
    ks = stats.ks_2samp(fast.null_distribution, slow.null_distribution)
    assert ks.pvalue > 1e-3
    assert fast.pvalue == pytest.approx(slow.pvalue, abs=0.03)


def test_permutation_cmetric_identical_to_generic():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 80)
    pa, pb = rng.dirichlet([1, 1], 80), rng.dirichlet([2, 1], 80)
    kw = dict(metric="cf1", n_resamples=200, random_state=3)
    fast = paired_permutation_test(y, pa, pb, **kw)
    slow = paired_permutation_test(y, pa, pb, fast=False, **kw)
    assert fast.fast_path
    np.testing.assert_allclose(
        fast.null_distribution, slow.null_distribution, rtol=1e-9, atol=1e-12
    )
    assert fast.pvalue == slow.pvalue


@pytest.mark.parametrize("test", [paired_bootstrap_test, paired_permutation_test])
def test_alternative_reaches_paired_tests(test):
    y, a, b = _data(seed=8)
    kw = dict(n_resamples=2000, random_state=0)
    two = test(y, a, b, **kw)
    greater = test(y, a, b, alternative="greater", **kw)
    less = test(y, a, b, alternative="less", **kw)
    assert two.statistic > 0
    assert greater.pvalue < two.pvalue < less.pvalue
    assert greater.confidence_interval().high == np.inf
    assert less.confidence_interval(0.9).low == -np.inf
    # the interval is the percentile one of the kept bootstrap distribution
    lo, hi = np.quantile(two.bootstrap_distribution, [0.05, 0.95])
    assert two.confidence_interval(0.9) == pytest.approx((lo, hi))
    assert two.confidence_interval() == two.confidence_interval(0.95)
    for slow_kw in (dict(fast=False), dict(metric=skm.hamming_loss)):
        res = test(
            y, a, b, alternative="greater", n_resamples=300, random_state=0, **slow_kw
        )
        assert not res.fast_path and res.alternative == "greater"


def test_pvalue_formula():
    y, a, b = _data()
    res = paired_permutation_test(y, a, b, n_resamples=999, random_state=0)
    c = np.sum(np.abs(res.null_distribution) >= abs(res.statistic) - 1e-12)
    assert res.pvalue == (c + 1) / 1000


def test_sign_test_matches_binomtest():
    y, a, b = _data(n=500, seed=9)
    for alternative in ("two-sided", "greater", "less"):
        res = sign_test(y, a, b, alternative=alternative)
        n_b = int(np.sum((b == y) & (a != y)))
        n_a = int(np.sum((a == y) & (b != y)))
        ref = stats.binomtest(n_b, n_a + n_b, 0.5, alternative=alternative)
        assert (res.n_b_better, res.n_a_better) == (n_b, n_a)
        assert res.pvalue == ref.pvalue
        ci = ref.proportion_ci(0.95)
        assert res.confidence_interval() == (ci.low, ci.high)
        ci = ref.proportion_ci(0.8)
        assert res.confidence_interval(0.8) == (ci.low, ci.high)
        assert res.n_samples == 500 and res.statistic == n_b / (n_a + n_b)


def test_sign_test_without_discordant_items():
    # one tie behaviour with mcnemar_test: p = 1, a warning, no side
    y, a, _ = _data(n=50, seed=9)
    with pytest.warns(RuntimeWarning, match="no item is discordant"):
        res = sign_test(y, a, a)
    assert (res.pvalue, res.statistic, res.n_discordant) == (1.0, 0.5, 0)
    assert res.confidence_interval() == (0.0, 1.0)


def test_kappa_interval():
    rng = np.random.default_rng(10)
    y1 = rng.integers(0, 3, 200)
    y2 = np.where(rng.random(200) < 0.7, y1, rng.integers(0, 3, 200))
    for weights in (None, "linear", "quadratic"):
        res = kappa_confidence_interval(
            y1, y2, weights=weights, n_resamples=2000, random_state=0
        )
        assert res.statistic == skm.cohen_kappa_score(y1, y2, weights=weights)
        generic = []
        loop_rng = np.random.default_rng(1)
        for _ in range(1000):
            idx = loop_rng.integers(0, 200, 200)
            generic.append(skm.cohen_kappa_score(y1[idx], y2[idx], weights=weights))
        ks = stats.ks_2samp(res.bootstrap_distribution, generic)
        assert ks.pvalue > 1e-3


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda y, a, b: bootstrap_confidence_interval(y, a[:-1]), "samples"),
        (lambda y, a, b: bootstrap_confidence_interval(y[:1], a[:1]), "at least 2"),
        (
            lambda y, a, b: bootstrap_confidence_interval(y, a, n_resamples=0),
            "n_resamples",
        ),
        (
            lambda y, a, b: bootstrap_confidence_interval(y, a, confidence_level=95),
            "confidence_level",
        ),
        (
            lambda y, a, b: bootstrap_confidence_interval(y, a, method="normal"),
            "method",
        ),
        (
            lambda y, a, b: bootstrap_confidence_interval(y, a, metric="auc"),
            "not a known name",
        ),
        (
            lambda y, a, b: paired_bootstrap_test(y, a, b, alternative="bigger"),
            "alternative",
        ),
        (lambda y, a, b: paired_permutation_test(y, a, b[:10]), "same items"),
        (lambda y, a, b: sign_test(y, a, b[:3]), "samples"),
        (lambda y, a, b: kappa_confidence_interval(y, a, weights="cubic"), "weights"),
        (
            lambda y, a, b: bootstrap_confidence_interval(y.astype(float) * np.nan, a),
            "NaN",
        ),
    ],
)
def test_bad_input(call, match):
    y, a, b = _data(n=50)
    with pytest.raises(ValueError, match=match):
        call(y, a, b)


def test_inputs_not_modified():
    y, a, b = _data(n=60)
    copies = [x.copy() for x in (y, a, b)]
    paired_permutation_test(y, a, b, n_resamples=50, random_state=0)
    paired_bootstrap_test(y, a, b, n_resamples=50, random_state=0)
    for x, c in zip((y, a, b), copies, strict=True):
        np.testing.assert_array_equal(x, c)


def test_zero_effect_closed_form_check():
    # bootstrap standard error of accuracy ~ sqrt(p (1 - p) / n)
    y, a, _ = _data(n=2000)
    res = bootstrap_confidence_interval(y, a, n_resamples=4000, random_state=0)
    p = res.statistic
    assert res.standard_error == pytest.approx(np.sqrt(p * (1 - p) / 2000), rel=0.05)


# --- type-I error, simulated (slow) -------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("paired", [False, True])
# small runs on purpose: the warning about the normal approximation is expected
@pytest.mark.filterwarnings("ignore:the reference's accuracy:UserWarning")
def test_gate_type_one_error_near_alpha(paired):
    rng = np.random.default_rng(11)
    n, sims = 600, 3000
    gate = AccuracyRegressionTest(sigma=None if paired else 0.3, paired=paired)
    difficulty = rng.beta(9, 1, n)  # per-item chance of being right
    fails = 0
    for _ in range(sims):
        ref = (rng.random(n) < difficulty).astype(float)
        new = (rng.random(n) < difficulty).astype(float)  # same model, rerun
        fails += not gate.set_reference(ref).check(new).passed
    se = np.sqrt(0.05 * 0.95 / sims)
    # unpaired with sigma = 0.3 = sqrt(0.9 * 0.1) is near alpha; the item
    # difficulties make the reruns correlated, so it can only be lower
    assert fails / sims < 0.05 + 4 * se
    if paired:
        assert abs(fails / sims - 0.05) < 4 * se


@pytest.mark.slow
@pytest.mark.parametrize("test", [paired_bootstrap_test, paired_permutation_test])
def test_paired_tests_type_one_error_near_alpha(test):
    rng = np.random.default_rng(12)
    sims, n = 600, 300
    rejections = 0
    for s in range(sims):
        y = rng.integers(0, 2, n)
        a = np.where(rng.random(n) < 0.8, y, 1 - y)
        b = np.where(rng.random(n) < 0.8, y, 1 - y)  # exchangeable with a
        res = test(y, a, b, metric="f1", n_resamples=499, random_state=s)
        rejections += res.pvalue <= 0.05
    se = np.sqrt(0.05 * 0.95 / sims)
    assert abs(rejections / sims - 0.05) < 4 * se


def test_zero_width_interval_warns_whatever_its_value():
    # 29 of 30 right: most resamples of F1 (of class 0, the rare one) are 1,
    # so the percentile interval collapses without every resample being 1
    y = np.r_[np.zeros(3, int), np.ones(27, int)]
    pred = y.copy()
    pred[0] = 1
    with pytest.warns(RuntimeWarning, match=r"has zero width") as record:
        res = bootstrap_confidence_interval(
            y, pred, metric="recall", n_resamples=999, random_state=0
        )
    assert res.confidence_interval.low == res.confidence_interval.high == 1.0
    assert all(w.filename == __file__ for w in record)


def _accuracy_given_a_positive(y_true, y_pred):
    """Accuracy, undefined (NaN) on data without a positive item."""
    return np.mean(y_true == y_pred) if (y_true == 1).any() else np.nan


def test_bca_leaves_out_nan_jackknife_values_as_percentile_does():
    # without the only positive item the metric is NaN: BCa's acceleration
    # uses the other items, as the interval uses the other resamples
    rng = np.random.default_rng(0)
    y = np.r_[1, np.zeros(39, int)]
    pred = np.where(rng.random(40) < 0.8, y, 1 - y)
    with pytest.warns(RuntimeWarning, match=r"NaN without 1 of the 40 items"):
        res = bootstrap_confidence_interval(
            y, pred, metric=_accuracy_given_a_positive, method="bca",
            n_resamples=999, random_state=0,
        )  # fmt: skip
    assert np.isfinite(res.confidence_interval).all()


@pytest.mark.parametrize("key", ["zero_division", "beta"])
def test_metric_kwargs_refuse_booleans(key):
    # scikit-learn would take zero_division=True as 1.0
    with pytest.raises(ValueError, match=rf"metric_kwargs\['{key}'\] is True"):
        bootstrap_confidence_interval(
            [0, 1, 1, 0], [0, 1, 0, 0], metric=skm.fbeta_score,
            metric_kwargs={"beta": 1.0, key: True},
        )  # fmt: skip
