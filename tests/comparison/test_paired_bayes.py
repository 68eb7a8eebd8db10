"""The paired Bayes test and BayesModelComparison(paired=True)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB

from sklearn_faithful.comparison import (
    BayesModelComparison,
    PairedBayesTestResult,
    paired_bayes_test,
)
from sklearn_faithful.comparison._paired import _design_inflation
from sklearn_faithful.model_selection import BlockRegularized3x2CV

A = np.array(
    [[40, 10, 12], [38, 12, 13], [41, 9, 11], [39, 11, 12], [40, 10, 13], [38, 12, 11]]
)
B = np.array([[44, 8, 8], [42, 10, 9], [44, 8, 8], [43, 9, 8], [44, 8, 9], [42, 10, 7]])


def _f1(counts):
    tp, fp, fn = np.asarray(counts, dtype=float)[..., :3].T
    return 2 * tp / (2 * tp + fp + fn)


def test_posterior_by_hand():
    """Location, scale, df and probabilities from the formula, written out."""
    res = paired_bayes_test(A, B, metric="f1", rope=0.01, confidence_level=0.9)
    d = _f1(B) - _f1(A)
    m = 3
    halves = d.reshape(m, 2)
    s2 = np.sum((halves[:, 0] - halves[:, 1]) ** 2) / (2 * m)
    scale = np.sqrt(_design_inflation(m) * s2 / (2 * m))
    post = stats.t(m, loc=d.mean(), scale=scale)
    assert isinstance(res, PairedBayesTestResult)
    assert res.df == m
    np.testing.assert_allclose(res.difference, d.mean(), rtol=1e-14)
    np.testing.assert_allclose(res.scale, scale, rtol=1e-14)
    np.testing.assert_allclose(res.p_h0, post.cdf(0), rtol=1e-12)
    np.testing.assert_allclose(res.p_worse, post.cdf(-0.01), rtol=1e-12)
    np.testing.assert_allclose(res.p_better, post.sf(0.01), rtol=1e-12)
    np.testing.assert_allclose(res.credible_interval(), post.interval(0.9), rtol=1e-12)
    np.testing.assert_allclose(res.credible_interval(0.5), post.interval(0.5))
    np.testing.assert_allclose(res.scores_a, _f1(A))
    assert res.p_h0 + res.p_h1 == pytest.approx(1.0)
    assert res.p_worse + res.p_equivalent + res.p_better == pytest.approx(1.0)


def test_inflation_is_the_mean_over_the_rectangle():
    """The closed form against a 2-D quadrature of its definition."""
    from scipy import integrate

    def ratio(r2, r1, m):
        return (1 + r1 + 2 * (m - 1) * r2) / (1 - r1) / (0.5 * 0.25)

    for m in (2, 3, 5):
        mean, _ = integrate.dblquad(
            ratio,
            0.0,
            0.5,
            0.25,
            0.5,
            args=(m,),
        )
        assert _design_inflation(m) == pytest.approx(mean, rel=1e-10)
    assert _design_inflation(3) == pytest.approx(7 * np.log(2) - 1)
    # a degenerate rectangle at rho1 = rho2 = 0 gives no inflation
    assert _design_inflation(3, (0.0, 1e-6), (0.0, 0.0)) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
def test_equal_models_make_no_claim(metric):
    res = paired_bayes_test(A, A, metric=metric)
    assert res.p_h0 == res.p_h1 == 0.5
    assert res.difference == 0 and res.scale == 0
    assert res.decide() == "undecided"
    assert tuple(res.credible_interval()) == (0.0, 0.0)
    res = paired_bayes_test(A, A, metric=metric, rope=0.01)
    assert res.p_equivalent == 1.0
    assert res.decide() == "equivalent"


def test_constant_differences_warn():
    a = np.array([[40, 10, 5]] * 6)
    b = np.array([[40, 5, 5]] * 6)  # the same difference on every split
    with pytest.warns(UserWarning, match="no information on their spread"):
        res = paired_bayes_test(a, b, metric="precision")
    assert res.p_h1 == 1.0 and res.scale == 0


def test_dominating_model():
    """B fixes some of A's errors on every split and is never worse.

    From counts alone the test cannot see that B is never worse item by item;
    with six splits and a t on 3 df it reaches 0.99 only when the mean
    difference is 4.5 scales from 0 (user guide, "Choosing a test").
    """
    rng = np.random.default_rng(0)
    a = np.column_stack(
        [rng.integers(60, 70, 6), rng.integers(15, 20, 6), rng.integers(15, 20, 6)]
    )
    fixed = rng.integers(3, 6, 6)  # false negatives turned into true positives
    b = a + np.column_stack([fixed, 0 * fixed, -fixed])
    res = paired_bayes_test(a, b)
    assert res.p_h1 > 0.98
    assert res.decide() == "B better"


def test_micro_and_macro():
    rng = np.random.default_rng(1)
    per_class_a = rng.integers(20, 40, size=(6, 3, 4))
    per_class_b = rng.integers(20, 40, size=(6, 3, 4))
    micro = paired_bayes_test(per_class_a, per_class_b, average="micro")
    pooled = paired_bayes_test(per_class_a.sum(1), per_class_b.sum(1))
    assert micro.p_h1 == pytest.approx(pooled.p_h1)
    macro = paired_bayes_test(per_class_a, per_class_b, average="macro")
    expected = np.mean([_f1(per_class_a[:, k]) for k in range(3)], axis=0)
    np.testing.assert_allclose(macro.scores_a, expected, rtol=1e-14)


def test_inputs_not_modified_and_int8():
    a, b = A.astype(np.int8), B.astype(np.int8)
    a0, b0 = a.copy(), b.copy()
    res = paired_bayes_test(a, b)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    assert res.p_h1 == pytest.approx(paired_bayes_test(A, B).p_h1)


@pytest.mark.parametrize(
    "a, b, match",
    [
        (A[:5], B[:5], "even number of at least 4"),
        (A[:2], B[:2], "even number of at least 4"),
        (A, B[:4], "same shape"),
        (
            np.vstack([A[:5], [[0, 0, 0]]]),
            B,
            r"f1 is undefined on 1 of the 6 splits of counts_a: split 5 "
            r"\(partition 3, half 2\)\. A zero denominator there: neither a "
            r"predicted nor a true positive \(TP \+ FP \+ FN = 0\)\. The "
            "paired test needs",
        ),
    ],
)
def test_errors(a, b, match):
    with pytest.raises(ValueError, match=match):
        paired_bayes_test(a, b)


def test_summary_and_str():
    res = paired_bayes_test(A, B, rope=0.02)
    text = res.summary()
    assert "paired" in text and "P(H1: B > A)" in text and "rope +/-0.02" in text
    assert res.decide() in text


def test_comparison_paired():
    X, y = load_breast_cancer(return_X_y=True)
    comp = BayesModelComparison(
        GaussianNB(),
        LogisticRegression(max_iter=5000),
        paired=True,
        variance="splits",
        cv=BlockRegularized3x2CV(random_state=0),
        random_state=0,
    ).fit(X, y)
    for metric, res in comp.results_.items():
        assert isinstance(res, PairedBayesTestResult)
        assert res.variance == "splits"
        direct = paired_bayes_test(comp.counts_a_, comp.counts_b_, metric=metric)
        assert res.p_h1 == direct.p_h1
    table = comp.summary()
    assert list(table) == [
        "metric", "mean_a", "mean_b", "difference", "low", "high", "p_h0", "p_h1",
        "decide",
    ]  # fmt: skip
    assert "Paired Bayes test" in str(comp)
    unpaired = BayesModelComparison(
        GaussianNB(), LogisticRegression(max_iter=5000), paired=False, random_state=0
    ).fit(X, y)
    # the same splits and counts, whichever test runs on them
    np.testing.assert_array_equal(unpaired.counts_a_, comp.counts_a_)


def test_comparison_paired_macro_and_plot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X, y = load_iris(return_X_y=True)
    comp = BayesModelComparison(
        GaussianNB(),
        LogisticRegression(max_iter=500),
        paired=True,
        average="macro",
        rope=0.01,
        random_state=0,
    ).fit(X, y)
    assert len(comp.per_class_results_["f1"]) == 3
    axes = comp.plot(labels=("NB", "LR")).axes_
    assert axes.size == 3
    assert "LR - NB" in axes[0].get_xlabel()


def test_comparison_paired_needs_mx2():
    X, y = load_breast_cancer(return_X_y=True)
    comp = BayesModelComparison(
        GaussianNB(), GaussianNB(), paired=True, cv=5, correlation=0.5
    )
    with pytest.raises(ValueError, match="m x 2|two-fold"):
        comp.fit(X, y)


def test_weighted_counts_accepted_and_scale_free():
    # sums of sample weights need not be whole; only per-split ratios enter
    res = paired_bayes_test(A, B)
    weighted = paired_bayes_test(np.asarray(A) * 0.37, np.asarray(B) * 0.37)
    assert weighted.p_h1 == pytest.approx(res.p_h1)
    assert weighted.difference == pytest.approx(res.difference)


@pytest.mark.parametrize("rope", [1.0, 1, 2.5, np.inf, np.nan, -0.01])
def test_a_rope_that_makes_the_test_vacuous_is_refused(rope):
    # before: rope=1.0 ran, and every difference of proportions (in [-1, 1])
    # was "equivalent"
    from sklearn_faithful.comparison import bayes_test

    match = r"The 'rope' parameter of {} must be .* range \[0.0, 1.0\)\. Got"
    with pytest.raises(ValueError, match=match.format("paired_bayes_test")):
        paired_bayes_test(A, B, rope=rope)
    with pytest.raises(ValueError, match=match.format("bayes_test")):
        bayes_test(A, B, rope=rope)
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match=match.format("BayesModelComparison")):
        BayesModelComparison(GaussianNB(), GaussianNB(), rope=rope).fit(X, y)


def test_a_rope_just_below_one_still_runs():
    res = paired_bayes_test(A, B, rope=0.999)
    assert res.decide() == "equivalent" and res.rope == 0.999
