"""Tests of two models on the same cross-validation splits (comparison/_cv_tests)."""

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison._cv_tests import (
    CorrelatedTTestResult,
    CVFtestResult,
    CVTtestResult,
    bayesian_correlated_ttest,
    blocked_mx2cv_ttest,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    paired_ttest_5x2cv,
)
from sklearn_faithful.utils._param_validation import InvalidParameterError

RNG = np.random.default_rng(0)
# 10 x 10-fold CV on 500 samples: 450 train, 50 test per split
KR_A = 0.80 + 0.03 * RNG.standard_normal(100)
KR_B = KR_A + 0.01 + 0.02 * RNG.standard_normal(100)
# an m x 2 CV, m = 5
MX2_A = np.array([0.80, 0.82, 0.79, 0.81, 0.83, 0.80, 0.78, 0.81, 0.80, 0.82])
MX2_B = np.array([0.84, 0.83, 0.82, 0.85, 0.84, 0.83, 0.82, 0.82, 0.83, 0.86])

T_TESTS = {
    "corrected": lambda a, b, **kw: corrected_resampled_ttest(
        a, b, n_train=90, n_test=10, **kw
    ),
    "uncorrected": lambda a, b, **kw: corrected_resampled_ttest(
        a, b, n_train=None, n_test=None, correction=False, **kw
    ),
    "5x2cv": paired_ttest_5x2cv,
    "blocked": blocked_mx2cv_ttest,
}


# --- corrected resampled t-test -----------------------------------------------


def test_corrected_equals_scikit_learn_gallery():
    """The formula of scikit-learn's gallery example "Statistical comparison of
    models using grid search", written out again here."""
    n_train, n_test = 450, 50
    differences = KR_B - KR_A
    kr = len(differences)
    corrected_std = np.sqrt(np.var(differences, ddof=1) * (1 / kr + n_test / n_train))
    t_stat = np.mean(differences) / corrected_std
    p_two_sided = stats.t.sf(np.abs(t_stat), kr - 1) * 2
    p_right = stats.t.sf(np.abs(t_stat), kr - 1)  # the gallery's right tail

    res = corrected_resampled_ttest(KR_A, KR_B, n_train=n_train, n_test=n_test)
    assert res.statistic > 0
    assert res.statistic == pytest.approx(t_stat, rel=1e-12)
    assert res.pvalue == pytest.approx(p_two_sided, rel=1e-10)
    assert res.df == kr - 1
    assert res.standard_error == pytest.approx(corrected_std, rel=1e-12)
    assert res.estimate == pytest.approx(np.mean(differences), rel=1e-12)
    assert res.method == "corrected resampled t-test"
    greater = corrected_resampled_ttest(
        KR_A, KR_B, n_train=n_train, n_test=n_test, alternative="greater"
    )
    assert greater.pvalue == pytest.approx(p_right, rel=1e-10)


def test_correction_widens_the_interval():
    corrected = corrected_resampled_ttest(KR_A, KR_B, n_train=450, n_test=50)
    plain = corrected_resampled_ttest(
        KR_A, KR_B, n_train=450, n_test=50, correction=False
    )
    # (1/J + n2/n1) / (1/J) = 1 + J n2/n1 = 1 + 100/9
    ratio = (corrected.standard_error / plain.standard_error) ** 2
    assert ratio == pytest.approx(1 + 100 / 9, rel=1e-12)
    assert plain.pvalue < corrected.pvalue


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_uncorrected_equals_scipy_ttest_rel(alternative):
    res = corrected_resampled_ttest(
        KR_A,
        KR_B,
        n_train=None,
        n_test=None,
        correction=False,
        alternative=alternative,
    )
    ref = stats.ttest_rel(KR_B, KR_A, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.df == ref.df
    for level in (0.9, 0.95):
        ci, ref_ci = res.confidence_interval(level), ref.confidence_interval(level)
        np.testing.assert_allclose(tuple(ci), tuple(ref_ci), rtol=1e-12)


def test_correction_needs_the_sizes():
    with pytest.raises(ValueError, match="n_train=None is allowed only with"):
        corrected_resampled_ttest(KR_A, KR_B, n_train=None, n_test=50)
    with pytest.raises(ValueError, match="n_test=None is allowed only with"):
        corrected_resampled_ttest(KR_A, KR_B, n_train=450, n_test=None)


# --- 5x2cv t and F: equal to mlxtend on the same splits --------------------------


def _mlxtend_splits_scores(est_a, est_b, X, y, random_seed):
    """Per-split scores on the 5 x 2 splits that mlxtend draws: a RandomState
    seeded with ``random_seed`` gives each repetition's ``random_state`` for
    ``train_test_split(test_size=0.5)``; fold 1 trains on the first half and
    tests on the second, fold 2 the reverse (mlxtend/evaluate/ttest.py)."""
    rng = np.random.RandomState(random_seed)
    scores = {"a": [], "b": []}
    for _ in range(5):
        seed = rng.randint(low=0, high=32767)
        X_1, X_2, y_1, y_2 = train_test_split(X, y, test_size=0.5, random_state=seed)
        for X_tr, X_te, y_tr, y_te in ((X_1, X_2, y_1, y_2), (X_2, X_1, y_2, y_1)):
            for key, est in (("a", est_a), ("b", est_b)):
                fitted = clone(est).fit(X_tr, y_tr)
                scores[key].append(accuracy_score(y_te, fitted.predict(X_te)))
    return np.array(scores["a"]), np.array(scores["b"])


def _mlxtend_5x2cv(test, est_a, est_b, X, y, random_seed):
    """mlxtend's paired_ttest_5x2cv or combined_ftest_5x2cv: (statistic, pvalue)."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    return getattr(evaluate, test)(
        clone(est_a), clone(est_b), X, y, random_seed=random_seed
    )


def test_5x2cv_t_and_f_equal_mlxtend(reference):
    X, y = load_iris(return_X_y=True)
    est_a = GaussianNB()
    est_b = DecisionTreeClassifier(max_depth=2, random_state=0)
    scores_a, scores_b = _mlxtend_splits_scores(est_a, est_b, X, y, random_seed=1)

    t_ref, p_ref = reference(
        _mlxtend_5x2cv, "paired_ttest_5x2cv", est_a, est_b, X, y, random_seed=1
    )
    res = paired_ttest_5x2cv(scores_a, scores_b)
    # mlxtend's differences are A - B, ours B - A
    assert res.statistic == pytest.approx(-t_ref, rel=1e-10, abs=1e-10)
    assert res.pvalue == pytest.approx(p_ref, rel=1e-10, abs=1e-10)
    assert res.df == 5
    assert res.estimate == pytest.approx(scores_b[0] - scores_a[0], abs=1e-15)

    f_ref, pf_ref = reference(
        _mlxtend_5x2cv, "combined_ftest_5x2cv", est_a, est_b, X, y, random_seed=1
    )
    res_f = combined_ftest_5x2cv(scores_a, scores_b)
    assert res_f.statistic == pytest.approx(f_ref, rel=1e-10, abs=1e-10)
    assert res_f.pvalue == pytest.approx(pf_ref, rel=1e-10, abs=1e-10)
    assert (res_f.df_numerator, res_f.df_denominator) == (10, 5)


def test_5x2cv_by_hand_and_for_other_m():
    d = (MX2_B - MX2_A).reshape(5, 2)
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    res = paired_ttest_5x2cv(MX2_A, MX2_B)
    assert res.statistic == pytest.approx(d[0, 0] / np.sqrt(s2.sum() / 5), rel=1e-12)
    res_f = combined_ftest_5x2cv(MX2_A, MX2_B)
    assert res_f.statistic == pytest.approx((d**2).sum() / (2 * s2.sum()), rel=1e-12)
    # m = 3: df = m for t, (2m, m) for F
    res3 = paired_ttest_5x2cv(MX2_A[:6], MX2_B[:6], alternative="greater")
    assert res3.df == 3
    assert res3.method == "3x2cv paired t-test"
    s3 = s2[:3].sum() / 3
    assert res3.pvalue == pytest.approx(stats.t.sf(d[0, 0] / np.sqrt(s3), 3), rel=1e-12)
    res3_f = combined_ftest_5x2cv(MX2_A[:6], MX2_B[:6])
    assert (res3_f.df_numerator, res3_f.df_denominator) == (6, 3)


def test_ftest_has_no_interval():
    res = combined_ftest_5x2cv(MX2_A, MX2_B)
    assert isinstance(res, CVFtestResult)
    # the statistic squares the differences: no interval of B - A at all
    assert not hasattr(res, "confidence_interval")
    assert "F =" in res.summary() and "(10, 5) df" in res.summary()


# --- the blocked m x 2 BCV t-test ---------------------------------------------


def test_blocked_by_hand():
    a = np.array([0.80, 0.82, 0.79, 0.81, 0.83, 0.80])
    d = np.array([0.02, 0.04, 0.01, 0.03, 0.05, 0.03])
    # dbar = 0.03; squared deviations 1e-4, 1e-4, 4e-4, 0, 4e-4, 0 sum to 1e-3;
    # sigma_hat^2 = 1e-3 / 6, t = 0.03 / sqrt(1e-3 / 6) = sqrt(5.4), df = 5
    res = blocked_mx2cv_ttest(a, a + d)
    assert res.statistic == pytest.approx(math.sqrt(5.4), rel=1e-10)
    assert res.df == 5
    assert res.estimate == pytest.approx(0.03, rel=1e-12)
    assert res.standard_error == pytest.approx(math.sqrt(1e-3 / 6), rel=1e-10)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(math.sqrt(5.4), 5), rel=1e-10)
    assert res.method == "blocked 3x2cv t-test"
    assert blocked_mx2cv_ttest(MX2_A, MX2_B).df == 9  # m = 5: 2m - 1


def _mx2_covariance(m, rho1, rho2):
    """Correlations of the 2m differences: rho1 within a repetition, rho2 across."""
    cov = np.full((2 * m, 2 * m), rho2)
    for i in range(m):
        cov[2 * i, 2 * i + 1] = cov[2 * i + 1, 2 * i] = rho1
    np.fill_diagonal(cov, 1.0)
    return cov


def _null_rejection_rate(m, rho1, rho2, n_sim=3000, seed=0):
    rng = np.random.default_rng(seed)
    d = rng.multivariate_normal(np.zeros(2 * m), _mx2_covariance(m, rho1, rho2), n_sim)
    scores_a = np.full(2 * m, 0.8)
    # the function without its parameter check, which takes 2/3 of a call
    test = blocked_mx2cv_ttest.__wrapped__
    pvalues = np.array([test(scores_a, scores_a + row).pvalue for row in d])
    return float(np.mean(pvalues < 0.05)), pvalues


def test_blocked_null_simulation():
    """Size under normal differences with the m x 2 correlation structure.

    With rho1 = rho2 = (m - 1) / (2m - 1) (0.4 for m = 3) the statistic is
    exactly t with 2m - 1 df: the rate is nominal within Monte-Carlo error
    (s.e. 0.004) and the p-values are uniform. Weaker correlations make the
    test conservative, stronger ones liberal (the docstring's Notes).
    """
    rate, pvalues = _null_rejection_rate(3, 0.4, 0.4)
    assert abs(rate - 0.05) < 4 * math.sqrt(0.05 * 0.95 / 3000)
    assert stats.kstest(pvalues, "uniform").pvalue > 1e-3
    conservative, _ = _null_rejection_rate(3, 0.0, 0.25, n_sim=1000, seed=1)
    assert conservative < 0.035  # 1.6% in a long run
    liberal, _ = _null_rejection_rate(3, 0.0, 0.5, n_sim=1000, seed=2)
    assert liberal > 0.06  # 8.2% in a long run (benchmarks/sim_blocked_t_normal.py)


# --- Bayesian correlated t-test: equal to baycomp -------------------------------


def _baycomp_correlated_ttest(a, b, rope, runs):
    """baycomp's probabilities and its posterior's (mean, var, df)."""
    baycomp = pytest.importorskip("baycomp")
    return (
        baycomp.CorrelatedTTest.probs(a, b, rope=rope, runs=runs),
        baycomp.CorrelatedTTest.compute_statistics(a, b, runs=runs),
    )


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.02])
@pytest.mark.parametrize("k, runs", [(10, 10), (5, 2), (10, 1)])
def test_correlated_ttest_equals_baycomp(rope, k, runs, reference):
    n_test = 30
    n_train = (k - 1) * n_test  # baycomp's rho = 1 / k, so n_test/n_train = 1/(k-1)
    J = k * runs
    a, b = KR_A[:J], KR_B[:J]
    res = bayesian_correlated_ttest(a, b, n_train=n_train, n_test=n_test, rope=rope)
    ref, (mean, var, df) = reference(_baycomp_correlated_ttest, a, b, rope, runs)
    if rope == 0:
        # baycomp's (p_left, p_right) = (P(B - A < 0), P(B - A > 0))
        np.testing.assert_allclose((res.p_h0, res.p_h1), ref, atol=1e-10)
        np.testing.assert_allclose((res.p_worse, res.p_better), ref, atol=1e-10)
    else:
        np.testing.assert_allclose(
            (res.p_worse, res.p_equivalent, res.p_better), ref, atol=1e-10
        )
    assert res.difference == pytest.approx(mean, rel=1e-12)
    assert res.scale == pytest.approx(math.sqrt(var), rel=1e-10)
    assert res.df == df


def test_correlated_ttest_posterior_and_decision():
    res = bayesian_correlated_ttest(
        KR_A, KR_B, n_train=450, n_test=50, confidence_level=0.9
    )
    assert isinstance(res, CorrelatedTTestResult)
    d = KR_B - KR_A
    rho = 50 / 500
    scale = math.sqrt((1 / 100 + rho / (1 - rho)) * d.var(ddof=1))
    post = stats.t(99, loc=d.mean(), scale=scale)
    assert res.scale == pytest.approx(scale, rel=1e-12)
    assert tuple(res.credible_interval()) == pytest.approx(
        post.interval(0.9), rel=1e-12
    )
    assert tuple(res.credible_interval(0.5)) == pytest.approx(
        post.interval(0.5), rel=1e-12
    )
    assert res.p_h0 == pytest.approx(post.cdf(0), rel=1e-12)
    assert res.p_h0 + res.p_h1 == pytest.approx(1.0)
    expected = "B better" if res.p_h1 >= 0.95 else "undecided"
    assert res.decide() == expected
    assert (
        "B better"
        not in bayesian_correlated_ttest(KR_B, KR_B, n_train=450, n_test=50)
        .summary()
        .split("at 0.95:")[1]
    )
    with pytest.raises(InvalidParameterError, match="threshold"):
        res.decide(0.4)


def test_correlated_ttest_rope_decides_equivalence():
    a = np.array([0.80, 0.81, 0.79, 0.80, 0.82, 0.80, 0.81, 0.79, 0.80, 0.81])
    b = a + np.array([1, -1, 2, 0, -2, 1, 0, -1, 1, 0]) * 1e-4
    res = bayesian_correlated_ttest(a, b, n_train=90, n_test=10, rope=0.01)
    assert res.p_equivalent > 0.99
    assert res.decide() == "equivalent"
    assert "rope +/-0.01" in res.summary()


def test_correlated_ttest_point_masses_as_baycomp(reference):
    a = np.linspace(0.7, 0.9, 10)
    same = bayesian_correlated_ttest(a, a, n_train=90, n_test=10)
    assert (same.p_h0, same.p_h1, same.p_worse, same.p_better) == (0.5,) * 4
    assert same.decide() == "undecided"
    same_rope = bayesian_correlated_ttest(a, a, n_train=90, n_test=10, rope=0.01)
    assert (same_rope.p_worse, same_rope.p_equivalent) == (0.0, 1.0)
    with pytest.warns(UserWarning, match="point mass at 0.02"):
        shifted = bayesian_correlated_ttest(a, a + 0.02, n_train=90, n_test=10)
    assert (shifted.p_h1, shifted.p_better, shifted.scale) == (1.0, 1.0, 0.0)
    assert tuple(shifted.credible_interval()) == pytest.approx((0.02, 0.02))
    probs, _ = reference(_baycomp_correlated_ttest, a, a + 0.02, rope=0, runs=1)
    assert probs == [0.0, 1.0]


# --- results shared by the t-tests --------------------------------------------


@pytest.mark.parametrize("name", sorted(T_TESTS))
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_interval_inverts_the_test(name, alternative):
    """At level 1 - p, the interval of the estimate ends at 0."""
    res = T_TESTS[name](MX2_A, MX2_B, alternative=alternative)
    assert isinstance(res, CVTtestResult)
    assert res.statistic == pytest.approx(res.estimate / res.standard_error)
    low, high = res.confidence_interval(1 - res.pvalue)
    # abs=1e-10: scipy 1.12's t quantile inverts its tail to about 1e-11 here
    if alternative == "two-sided":
        assert low == pytest.approx(0.0, abs=1e-10)
        assert high == pytest.approx(2 * res.estimate, abs=1e-10)
    elif alternative == "greater":
        assert high == math.inf
        assert low == pytest.approx(0.0, abs=1e-10)
    else:
        assert low == -math.inf
    assert alternative in res.summary() and res.method in res.summary()


@pytest.mark.parametrize("name", sorted(T_TESTS))
def test_one_sided_pvalues(name):
    test = T_TESTS[name]
    two = test(MX2_A, MX2_B).pvalue
    greater = test(MX2_A, MX2_B, alternative="greater").pvalue
    less = test(MX2_A, MX2_B, alternative="less").pvalue
    assert greater == pytest.approx(two / 2, rel=1e-12)  # B is better here
    assert less == pytest.approx(1 - two / 2, rel=1e-12)


@pytest.mark.parametrize("name", sorted(T_TESTS))
def test_constant_differences_as_scipy(name):
    test = T_TESTS[name]
    with pytest.warns(RuntimeWarning, match="no information on their spread"):
        res = test(MX2_A, MX2_A + 0.01)
    assert res.statistic == math.inf and res.pvalue == 0.0
    assert tuple(res.confidence_interval()) == pytest.approx((0.01, 0.01))
    with pytest.warns(RuntimeWarning):
        less = test(MX2_A, MX2_A - 0.01, alternative="greater")
    assert less.statistic == -math.inf and less.pvalue == 1.0
    with pytest.warns(RuntimeWarning):
        zero = test(MX2_A, MX2_A)
    assert math.isnan(zero.statistic) and math.isnan(zero.pvalue)
    with pytest.warns(RuntimeWarning, match="within-repetition"):
        res_f = combined_ftest_5x2cv(MX2_A, MX2_A + 0.01)
    assert res_f.statistic == math.inf and res_f.pvalue == 0.0


def test_results_are_frozen():
    res = blocked_mx2cv_ttest(MX2_A[:6], MX2_B[:6])
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.pvalue = 0.0
    assert isinstance(res.pvalue, float) and isinstance(res.df, float)


# --- inputs ---------------------------------------------------------------------

ALL = {
    **T_TESTS,
    "ftest": combined_ftest_5x2cv,
    "bayes": lambda a, b: bayesian_correlated_ttest(a, b, n_train=90, n_test=10),
}


def _values(res):
    return [v for v in dataclasses.asdict(res).values() if isinstance(v, float)]


@pytest.mark.parametrize("name", sorted(ALL))
def test_input_kinds_agree_and_are_not_modified(name):
    test = ALL[name]
    a_int = np.array([80, 82, 79, 81, 83, 80, 78, 81, 80, 82])
    b_int = np.array([84, 83, 82, 85, 84, 83, 82, 82, 83, 86])
    a_copy, b_copy = a_int.copy(), b_int.copy()
    expected = _values(test(a_int.astype(float), b_int.astype(float)))
    for a, b in [
        (a_int, b_int),
        (a_int.tolist(), b_int.tolist()),
        (a_int.astype(np.float32), b_int.astype(np.float32)),
    ]:
        np.testing.assert_allclose(_values(test(a, b)), expected, rtol=1e-12)
    np.testing.assert_array_equal(a_int, a_copy)
    np.testing.assert_array_equal(b_int, b_copy)


@pytest.mark.parametrize("name", sorted(ALL))
@pytest.mark.parametrize(
    "a, b, match",
    [
        (MX2_A[:4], MX2_B, "same length; got 4 and 10"),
        (MX2_A.reshape(5, 2), MX2_B.reshape(5, 2), "scores_a must be 1-D"),
        (
            MX2_A,
            np.r_[MX2_B[:3], np.nan, MX2_B[4:]],
            "scores_b contains nan at split 3",
        ),
        (MX2_A, np.r_[MX2_B[:9], np.inf], "scores_b contains inf at split 9"),
        (["a"] * 10, MX2_B, "scores_a must hold one number per split"),
        (MX2_A[:1], MX2_B[:1], "at least 2"),
    ],
)
def test_bad_scores_are_named(name, a, b, match):
    with pytest.raises(ValueError, match=match):
        ALL[name](a, b)


@pytest.mark.parametrize(
    "test", [paired_ttest_5x2cv, combined_ftest_5x2cv, blocked_mx2cv_ttest]
)
def test_mx2_tests_need_pairs_of_halves(test):
    with pytest.raises(ValueError, match="has 9 splits; .* even number of at least"):
        test(MX2_A[:9], MX2_B[:9])
    assert test(MX2_A[:2], MX2_B[:2]) is not None  # m = 1 is an m x 2 CV


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: corrected_resampled_ttest(KR_A, KR_B, n_train=0, n_test=5), "n_train"),
        (
            lambda: corrected_resampled_ttest(KR_A, KR_B, n_train=9, n_test="2"),
            "n_test",
        ),
        (
            lambda: corrected_resampled_ttest(
                KR_A, KR_B, n_train=9, n_test=1, correction="yes"
            ),
            "correction",
        ),
        (lambda: paired_ttest_5x2cv(MX2_A, MX2_B, alternative="bigger"), "alternative"),
        (lambda: blocked_mx2cv_ttest(MX2_A, MX2_B, alternative=None), "alternative"),
        (
            lambda: bayesian_correlated_ttest(
                MX2_A, MX2_B, n_train=9, n_test=1, rope=-1
            ),
            "rope",
        ),
        (
            lambda: bayesian_correlated_ttest(
                MX2_A, MX2_B, n_train=9, n_test=1, confidence_level=1.0
            ),
            "confidence_level",
        ),
        (
            lambda: bayesian_correlated_ttest(MX2_A, MX2_B, n_train=None, n_test=1),
            "n_train",
        ),
        (
            lambda: blocked_mx2cv_ttest(MX2_A, MX2_B).confidence_interval(0),
            "confidence_level",
        ),
    ],
)
def test_bad_parameters_are_named(call, name):
    with pytest.raises(InvalidParameterError, match=rf"The '{name}' parameter"):
        call()


@pytest.mark.parametrize("test", [corrected_resampled_ttest, bayesian_correlated_ttest])
def test_sizes_are_counts_or_mean_counts(test):
    # a mean size is a count; a fraction of the data is refused, with the fix
    assert test(KR_A, KR_B, n_train=90.5, n_test=9.5) is not None
    with pytest.raises(ValueError, match=r"n_train=0.8 is not a number of items"):
        test(KR_A, KR_B, n_train=0.8, n_test=0.2)
    with pytest.raises(ValueError, match=r"n_test=0.2 is not a number of items"):
        test(KR_A, KR_B, n_train=80, n_test=0.2)


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300])
def test_statistics_do_not_depend_on_the_scores_unit(scale):
    # squares of 1e200 overflow and of 1e-200 underflow: the tests scale by a
    # power of two first, so p-values stay those of the unscaled scores
    a, b = np.asarray(MX2_A), np.asarray(MX2_B)
    calls = [
        lambda s: corrected_resampled_ttest(a * s, b * s, n_train=9, n_test=1),
        lambda s: paired_ttest_5x2cv(a * s, b * s),
        lambda s: combined_ftest_5x2cv(a * s, b * s),
        lambda s: blocked_mx2cv_ttest(a * s, b * s),
    ]
    for call in calls:
        base, scaled = call(1.0), call(scale)
        assert scaled.pvalue == pytest.approx(base.pvalue, rel=1e-12)
        assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
        assert scaled.mean_difference == pytest.approx(
            base.mean_difference * scale, rel=1e-12
        )
    base = bayesian_correlated_ttest(a, b, n_train=9, n_test=1, rope=0.01)
    scaled = bayesian_correlated_ttest(
        a * scale, b * scale, n_train=9, n_test=1, rope=0.01 * scale
    )
    assert scaled.p_better == pytest.approx(base.p_better, rel=1e-12)
    assert scaled.difference == pytest.approx(base.difference * scale, rel=1e-12)


# -- scale: the tests do not depend on the unit of the scores -----------------

_MAX = np.finfo(np.float64).max


def _scale_results(a, b, unit):
    """Every continuous-score test of the room on ``a``, ``b``; the intervals,
    the rope and the means in units of ``unit``."""
    import warnings

    from sklearn_faithful.comparison import ModelComparison

    sizes = dict(n_train=90, n_test=10)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no spurious warning
        for name, res in (
            ("corrected-t", corrected_resampled_ttest(a, b, **sizes)),
            ("bcv-t", blocked_mx2cv_ttest(a, b)),
            ("5x2cv-t", paired_ttest_5x2cv(a, b)),
        ):
            out[name] = [res.pvalue, *np.divide(res.confidence_interval(), unit)]
        out["5x2cv-f"] = [combined_ftest_5x2cv(a, b).pvalue]
        res = bayesian_correlated_ttest(a, b, rope=0.005 * unit, **sizes)
        out["bayesian"] = [
            res.p_worse,
            res.p_equivalent,
            res.p_better,
            *np.divide(res.credible_interval(), unit),
            res.mean_a / unit,
        ]
        for test in ("corrected-t", "bayesian"):
            comp = ModelComparison.from_scores(
                {"a": a, "b": b}, test=test, rope=0.005 * unit, **sizes
            )
            table = comp.summary()
            keys = ("mean_a", "mean_b", "difference", "low", "high")
            out[f"from_scores {test}"] = [table[k][0] / unit for k in keys]
            keys = ("pvalue",) if test != "bayesian" else ("p_worse", "p_better")
            out[f"from_scores {test}"] += [table[k][0] for k in keys]
    return out


@pytest.mark.parametrize(
    "where",
    ["1e-300", "1e300", "near the float maximum", "across the float range"],
)
def test_the_tests_are_exact_at_any_scale(where):
    # before: scores near the float maximum raised OverflowError (math range
    # error) and the Bayesian test's means overflowed to inf
    rng = np.random.default_rng(0)
    a = 0.8 + 0.02 * rng.standard_normal(10)
    b = a + 0.01 + 0.01 * rng.standard_normal(10)
    ref = _scale_results(a, b, 1.0)
    if where == "near the float maximum":  # centred at 0.9 of the maximum
        unit = _MAX / 16
        got = _scale_results(
            0.9 * _MAX + (a - 0.8) * unit, 0.9 * _MAX + (b - 0.8) * unit, unit
        )
        # the means are shifted with the scores: compare the rest
        for key in ("bayesian", "from_scores corrected-t", "from_scores bayesian"):
            for k in [-1] if key == "bayesian" else [0, 1]:
                ref[key][k] = got[key][k]
        rtol = 1e-6  # the shift rounds the scores to 2**-52 of 0.9 * max
    elif where == "across the float range":  # from -0.9 max to 0.9 max
        top = max(np.abs(a - 0.8).max(), np.abs(b - 0.8).max())
        x, y = 0.9 * (a - 0.8) / top, 0.9 * (b - 0.8) / top
        ref = _scale_results(x, y, 1.0)
        got = _scale_results(x * _MAX, y * _MAX, _MAX)
        rtol = 1e-12
    else:
        unit = float(where)
        got = _scale_results(a * unit, b * unit, unit)
        rtol = 1e-12
    for key, values in ref.items():
        np.testing.assert_allclose(got[key], values, rtol=rtol, atol=0, err_msg=key)
