"""Regression tests of the hardening issue: inputs that used to give a silent
wrong number or an unclear error."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn import metrics as skm

from sklearn_faithful.comparison import (
    BetaPosterior,
    MacroPosterior,
    bayes_test,
    counts_from_triples,
)
from sklearn_faithful.gate import (
    AccuracyRegressionTest,
    regression_threshold,
    required_sample_size,
)
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.metrics import (
    ProbabilisticConfusionMatrixDisplay,
    cf1_score,
    probabilistic_confusion_matrix,
)
from sklearn_faithful.model_based import ModelBasedMetricTest

# --- 1. narrow integer, bool and uint64 labels ---------------------------------


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_narrow_integer_labels_are_encoded_right(dtype):
    # y - min(y) overflowed int8: class 100 was filed under 45
    y = np.array([-100, 100, 100, -100], dtype=dtype)
    proba = np.array([[1, 0, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0]], dtype=float)
    pcm = probabilistic_confusion_matrix(y, proba, labels=[-100, 45, 100])
    assert_array_equal(pcm, [[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    assert cf1_score(y, proba, labels=[-100, 45, 100], average="micro") == 1.0


def test_narrow_integer_labels_in_model_based_test():
    test = ModelBasedMetricTest.from_rates(0.9, 0.1, classes=(-100, 100), pos_label=100)
    wide = test.test_labels([-100, 100, 100, -100], [100, 100, 100, -100])
    narrow = test.test_labels(
        np.array([-100, 100, 100, -100], np.int8),
        np.array([100, 100, 100, -100], np.int8),
    )
    assert narrow == wide
    assert narrow.mean_c == 0.5 and narrow.mean_t == 0.75


def test_bool_labels_in_any_order():
    y = np.array([True, False, True])
    proba = np.array([[0.2, 0.8], [0.6, 0.4], [0.1, 0.9]])  # columns True, False
    pcm = probabilistic_confusion_matrix(y, proba, labels=[True, False])
    assert_allclose(pcm, [[0.3, 1.7], [0.6, 0.4]])


def test_uint64_labels_beyond_int64():
    big = np.array([2**63 + 7, 2**63 + 5, 2**63 + 7], dtype=np.uint64)
    proba = np.array([[0.2, 0.8], [0.6, 0.4], [0.1, 0.9]])
    pcm = probabilistic_confusion_matrix(big, proba)  # classes sorted: +5, +7
    assert_allclose(pcm, [[0.6, 0.4], [0.3, 1.7]])


# --- 2. a model compared with itself is not better than itself ----------------


@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_identical_counts_are_a_tie(metric, method, rope):
    counts = [[3146, 2242, 2088], [3175, 2298, 2109], [3142, 2288, 2098]] * 2
    res = bayes_test(
        counts, counts, metric=metric, method=method, rope=rope, random_state=0
    )
    assert res.p_h0 == 0.5 and res.p_h1 == 0.5  # was 0.49999999999999983
    assert res.decision == "accept H0"
    assert res.p_worse == res.p_better


def test_identical_macro_counts_are_a_tie():
    counts = np.tile([[40, 5, 6], [30, 8, 2], [20, 3, 9]], (6, 1, 1))
    res = bayes_test(counts, counts, average="macro", n_draws=10_000, random_state=0)
    assert res.p_h0 == 0.5 and res.decision == "accept H0"


def test_same_f1_posterior_from_different_counts_is_a_tie():
    # F1's posterior depends on FP + FN only: swapping them is the same model
    a = np.array([[500, 50, 60]] * 6)
    b = np.array([[500, 60, 50]] * 6)
    res = bayes_test(a, b, metric="f1")
    assert res.p_h0 == 0.5 and res.decision == "accept H0"
    assert bayes_test(a, b, metric="precision").decision == "accept H0"  # B worse


# --- 5. one-sided basic intervals ----------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "basic"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_intervals_equal_scipy_on_the_same_distribution(method, alternative):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 80)
    p = np.where(rng.random(80) < 0.8, y, 1 - y)
    res = bootstrap_confidence_interval(
        y,
        p,
        metric="f1",
        method=method,
        alternative=alternative,
        n_resamples=999,
        confidence_level=0.9,
        random_state=0,
    )
    # scipy computes its interval from our bootstrap distribution
    ref = stats.bootstrap(
        (y, p),
        lambda a, b: skm.f1_score(a, b),
        paired=True,
        vectorized=False,
        n_resamples=0,
        method=method,
        alternative=alternative,
        confidence_level=0.9,
        bootstrap_result=res,
    )
    assert_allclose(res.confidence_interval, ref.confidence_interval, rtol=1e-12)


# --- 7. shapes and label kinds of the paired tests ------------------------------


def test_sign_test_refuses_column_vectors():
    y = np.arange(200) % 2
    with pytest.raises(ValueError, match=r"y_pred_a must be 1-D labels.*\(200, 1\)"):
        sign_test(y, y[:, None], y)  # used to broadcast to 200 x 200


def test_label_kinds_must_match():
    y = np.array(["a", "b"] * 20)
    with pytest.raises(ValueError, match="y_pred_b holds labels of dtype"):
        sign_test(y, y, np.arange(40) % 2)
    # numbers in an object array are numbers
    obj = np.array([0, 1] * 20, dtype=object)
    assert sign_test(obj, obj, 1 - np.arange(40) % 2).n_a_better == 40


def test_kappa_names_its_own_parameters():
    with pytest.raises(ValueError, match="y1 must be 1-D"):
        kappa_confidence_interval([[0, 1]], [0, 1])
    with pytest.raises(ValueError, match="y2 has 3 samples but y1 has 2"):
        kappa_confidence_interval([0, 1], [0, 1, 1])


def test_scalar_prediction_is_refused():
    with pytest.raises(ValueError, match="'y_pred' parameter .* array-like"):
        bootstrap_confidence_interval([0, 1, 1], 1)


# --- 3. huge counts: accurate as far as double precision allows ---------------


def test_edgeworth_equals_boost_where_both_hold(monkeypatch):
    # at a + b = 9e9 scipy 1.17's Boost is accurate to ~1e-10 (scipy 1.15's to
    # ~3e-7 only); the expansions take over above 1e10
    import scipy

    from sklearn_faithful.comparison import _posterior

    modern = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 17)
    a, b = 7e9, 2e9
    mean, sd = a / (a + b), np.sqrt(a * b / (a + b) ** 3)
    x = mean + sd * np.array([-5.0, -2.0, -0.3, 0.0, 0.7, 3.0])
    q = np.array([1e-12, 1e-3, 0.2, 0.5, 0.9, 1 - 1e-9])
    boost_cdf, boost_ppf = _posterior._betainc(a, b, x), _posterior._betaincinv(a, b, q)
    monkeypatch.setattr(_posterior, "_LARGE", 1e9)
    assert_allclose(
        _posterior._betainc(a, b, x), boost_cdf, rtol=1e-8 if modern else 1e-5
    )
    ppf = _posterior._betaincinv(a, b, q)
    assert_allclose(ppf, boost_ppf, rtol=1e-13 if modern else 1e-11)


@pytest.mark.parametrize("scale", [1e12, 1e14, 7e15])
def test_huge_posteriors_are_finite_and_consistent(scale):
    post = BetaPosterior(7 * scale, 2 * scale)  # used to give NaN from 1e15
    assert abs(post.cdf(7 / 9) - 0.5) < 1e-6
    q = np.array([1e-20, 0.01, 0.5, 0.99])
    assert_allclose(post.cdf(post.ppf(q)), q, rtol=1e-6)
    low, high = post.interval(0.95)
    assert low < 7 / 9 < high and np.isfinite([low, high]).all()


@pytest.mark.parametrize("scale", [1e3, 1e6, 1e9, 1e11, 1e13, 1e14])
@pytest.mark.parametrize("metric", ["recall", "f1"])
def test_exact_test_matches_monte_carlo_at_any_scale(scale, metric):
    # B differs from A by about one posterior standard deviation at every scale
    a = np.array([[70.0, 20.0, 30.0]] * 6) * scale
    b = a + [
        [np.round(0.4 * np.sqrt(scale * 70)), 0, -np.round(0.4 * np.sqrt(scale * 70))]
    ]
    exact = bayes_test(a, b, metric=metric)
    mc = bayes_test(a, b, metric=metric, method="monte-carlo", random_state=0)
    assert 0.05 < exact.p_h1 < 0.999
    assert abs(exact.p_h1 - mc.p_h1) < 4 * mc.standard_error + 1e-9


def test_counts_beyond_double_precision_are_refused():
    with pytest.raises(ValueError, match=r"counts above 2\*\*53"):
        bayes_test([[2**60, 3, 4]] * 6, [[5, 3, 4]] * 6)
    with pytest.raises(ValueError, match=r"counts above 2\*\*53"):
        counts_from_triples(np.array([[2**53 + 2, 2**53 + 2, 2**53 + 1]]))


# --- 4 and 6. weights travel with their items; BCa on probabilities -----------


def _weighted_data(n=120, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    proba = rng.dirichlet(np.ones(3), n)
    w = rng.integers(0, 4, n).astype(float)
    return y, a, b, proba, w


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_weights_are_resampled_with_their_items(fast, method):
    y, a, _, _, _ = _weighted_data()
    w = (a == y).astype(float)  # all weight on the right answers
    res = bootstrap_confidence_interval(
        y,
        a,
        metric="accuracy",
        metric_kwargs={"sample_weight": w},
        n_resamples=200,
        method=method,
        fast=fast,
        random_state=0,
    )
    assert res.statistic == 1.0
    assert tuple(res.confidence_interval) == (1.0, 1.0)  # was (0.405, 0.600)


@pytest.mark.parametrize(
    "metric, kwargs",
    [("accuracy", {}), ("f1", {"average": "macro"}), ("cf1", {"average": "weighted"})],
)
def test_weighted_fast_path_is_identical_to_generic(metric, kwargs):
    y, a, b, proba, w = _weighted_data()
    pred = proba if metric.startswith("c") else a
    kw = dict(
        metric=metric,
        metric_kwargs={**kwargs, "sample_weight": w},
        n_resamples=300,
        random_state=5,
    )
    fast = bootstrap_confidence_interval(y, pred, **kw)
    slow = bootstrap_confidence_interval(y, pred, fast=False, **kw)
    assert fast.fast_path and not slow.fast_path
    assert_allclose(
        fast.bootstrap_distribution, slow.bootstrap_distribution, rtol=1e-10
    )
    if metric.startswith("c"):
        return
    for test in (paired_bootstrap_test, paired_permutation_test):
        fast = test(y, a, b, **kw)
        slow = test(y, a, b, fast=False, **kw)
        assert fast.fast_path and not slow.fast_path
        assert_allclose(fast.null_distribution, slow.null_distribution, atol=1e-12)


def test_integer_weights_equal_repeated_items():
    y, a, b, _, _ = _weighted_data(n=40)
    w = np.arange(40) % 3  # 0, 1 or 2 copies
    kw = dict(metric="f1_macro", n_resamples=50, random_state=0)
    weighted = paired_bootstrap_test(y, a, b, metric_kwargs={"sample_weight": w}, **kw)
    rep = np.repeat(np.arange(40), w)
    repeated = paired_bootstrap_test(y[rep], a[rep], b[rep], **kw)
    assert weighted.statistic == pytest.approx(repeated.statistic)


@pytest.mark.parametrize("metric", ["cf1", "cprecision_macro", "crecall_weighted"])
def test_bca_works_on_probabilities(metric):
    y, _, _, proba, w = _weighted_data(n=60)
    res = bootstrap_confidence_interval(
        y,
        proba,
        metric=metric,
        method="bca",
        n_resamples=300,
        random_state=0,
        metric_kwargs={"labels": [0, 1, 2], "average": "macro"}
        if metric == "cf1"
        else None,
    )
    low, high = res.confidence_interval
    assert low < res.statistic < high


def test_bad_weights_in_metric_kwargs():
    y, a, _, _, _ = _weighted_data()
    with pytest.raises(ValueError, match=r"metric_kwargs\['sample_weight'\]"):
        bootstrap_confidence_interval(y, a, metric_kwargs={"sample_weight": [1.0, 2.0]})
    with pytest.raises(ValueError, match="non-negative"):
        bootstrap_confidence_interval(
            y, a, metric_kwargs={"sample_weight": -np.ones(len(y))}
        )


# --- 8. accepted nonsense and unclear errors ----------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: ProbabilisticConfusionMatrixDisplay.from_predictions(
                [0, 1], [[0.9, 0.1], [0.2, 0.8]], normalize="bogus"
            ),
            "'normalize' parameter",
        ),
        (lambda: regression_threshold(np.nan, 0.3, 10), "'reference_mean' parameter"),
        (lambda: regression_threshold(0.9, np.inf, 10), "'sigma' parameter"),
        (
            lambda: AccuracyRegressionTest(higher_is_better="no").set_reference([0, 1]),
            "'higher_is_better' parameter",
        ),
        (
            lambda: bootstrap_confidence_interval([0, 1, 1], [0, 1, 0], n_resamples=1),
            "'n_resamples' parameter",
        ),
        (lambda: MacroPosterior([BetaPosterior(2, 3)]).interval(1.0), "'confidence'"),
        (lambda: MacroPosterior([BetaPosterior(2, 3)]).interval(0), "'confidence'"),
        (lambda: MacroPosterior([]), "non-empty list of posteriors"),
        (lambda: required_sample_size(0.3, 1e-300), "theta=1e-300 is too small"),
        (lambda: required_sample_size(1e300, 1e-300), "is too small"),
        (
            lambda: bayes_test([[1, 2, 3]] * 6, [[1, 2, 3]] * 6, random_state=-1),
            "'random_state' parameter",
        ),
    ],
)
def test_nonsense_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_regressor_is_not_a_metric_model():
    from sklearn.linear_model import LinearRegression

    X = np.arange(20.0).reshape(10, 2)
    model = LinearRegression().fit(X, np.arange(10.0))
    with pytest.raises(ValueError, match="metric_model must be a classifier"):
        ModelBasedMetricTest(model, method="goyal2023").fit(X, np.arange(10) % 2)


def test_float32_probabilities_are_not_copied_whole():
    import tracemalloc

    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(10), 200_000).astype(np.float32)  # 7.6 MiB
    y = rng.integers(0, 10, 200_000)
    tracemalloc.start()
    cf1_score(y, proba, average="macro")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1.5 * proba.nbytes  # a float64 copy alone would be 2x


def test_too_few_resamples_warn():
    y = np.arange(100) % 2
    with pytest.warns(RuntimeWarning, match="too few for a 0.95 interval"):
        bootstrap_confidence_interval(y, y[::-1], n_resamples=30, random_state=0)
