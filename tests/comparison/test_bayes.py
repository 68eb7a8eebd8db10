"""Tests of the count-level Bayes test: factors, posteriors, bayes_test."""

import numpy as np
import pytest
from scipy import integrate, special, stats

from sklearn_faithful.comparison import (
    BetaPosterior,
    F1Posterior,
    MacroPosterior,
    bayes_test,
    correlation_factor,
    counts_from_triples,
    effective_counts,
    metric_posterior,
)

from ._wang2019_data import TABLE_2, TABLES_3_TO_5, TASKS

# --- the correlation factor ---------------------------------------------------


def test_paper_factor_six_digits():
    # eq. 22: the paper rounds it to 0.3688
    assert round(correlation_factor("wang2019"), 6) == 0.368802


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8])
def test_average_factor_matches_numerical_double_integral(m):
    value, _ = integrate.dblquad(
        lambda r2, r1: 1.0 / (1.0 + r1 + 2 * (m - 1) * r2),
        0.0,
        0.5,
        0.25,
        0.5,
        epsabs=1e-14,
    )
    assert correlation_factor("wang2019", m) == pytest.approx(8 * value, rel=1e-12)


@pytest.mark.parametrize("m", [1, 3, 7])
def test_named_and_explicit_factors(m):
    assert correlation_factor("wang2015", m) == pytest.approx(1 / (2 * m))
    # wang2015 is the general form at rho1 = rho2 = 1
    assert correlation_factor((1.0, 1.0), m) == pytest.approx(1 / (2 * m))
    assert correlation_factor("independent", m) == 1.0
    assert correlation_factor((0.2, 0.3), m) == pytest.approx(
        1 / (1 + 0.2 + 2 * (m - 1) * 0.3)
    )
    assert correlation_factor(0.25, m) == 0.25


@pytest.mark.parametrize(
    "bad", ["paper", (0.5,), (0.5, 2.0), (-0.1, 0.2), 0.0, 1.5, True, None]
)
def test_bad_correlation(bad):
    with pytest.raises(ValueError, match="correlation"):
        correlation_factor(bad)


def test_bad_n_repetitions():
    with pytest.raises(ValueError, match="n_repetitions"):
        correlation_factor("wang2019", 0)


# --- counts -------------------------------------------------------------------


def test_counts_from_triples_by_hand():
    out = counts_from_triples([[10, 8, 6], [5, 7, 5]])
    np.testing.assert_array_equal(out, [[6, 2, 4], [5, 2, 0]])


def test_effective_counts_is_factor_times_sum():
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 100, size=(6, 4))
    c = correlation_factor("wang2019")
    np.testing.assert_allclose(effective_counts(counts), c * counts.sum(axis=0))
    per_class = rng.integers(0, 100, size=(6, 3, 3))
    np.testing.assert_allclose(
        effective_counts(per_class, correlation="wang2015"),
        per_class.mean(axis=0),
    )


@pytest.mark.parametrize(
    "counts, match",
    [
        ([[1, 2, -3]] * 6, "non-negative"),
        ([[1, 2, 3.5]] * 6, "whole numbers"),
        ([[1, 2, np.nan]] * 6, "NaN"),
        ([[1, 2]] * 6, "shape"),
        ([[1, 2, 3]] * 5, "even number"),
        ([["a", "b", "c"]] * 6, "numbers"),
    ],
)
def test_bad_counts(counts, match):
    with pytest.raises(ValueError, match=match):
        effective_counts(counts)


def test_raw_factor_accepts_any_number_of_splits():
    np.testing.assert_allclose(
        effective_counts([[10, 2, 3]] * 5, correlation=0.5), [25, 5, 7.5]
    )


def test_bad_triples():
    with pytest.raises(ValueError, match="n_correct"):
        counts_from_triples([[5, 9, 6]])
    with pytest.raises(ValueError, match="shape"):
        counts_from_triples([[5, 9]])


# --- posteriors ---------------------------------------------------------------


def test_posterior_parameters_by_hand():
    tp, fp, fn, lam = 30.5, 4.25, 7.0, 0.5
    p = metric_posterior([tp, fp, fn], "precision", prior=lam)
    r = metric_posterior([tp, fp, fn, 100.0], "recall", prior=lam)
    f = metric_posterior([tp, fp, fn], "f1", prior=lam)
    assert (p.a, p.b) == (31.0, 4.75)
    assert (r.a, r.b) == (31.0, 7.5)
    assert (f.a, f.b) == (4.25 + 7.0 + 1.0, 31.0)


def test_erratum_printed_density_does_not_integrate_to_one():
    # eq. 25 as printed: t^(TP+l) (1-t)^(FP+l) / B(TP+l, FP+l)
    tp, fp = 12.0, 3.0
    printed, _ = integrate.quad(
        lambda t: t ** (tp + 1) * (1 - t) ** (fp + 1) / special.beta(tp + 1, fp + 1),
        0,
        1,
    )
    post = metric_posterior([tp, fp, 0.0], "precision")
    ours, _ = integrate.quad(post.pdf, 0, 1)
    assert printed == pytest.approx(
        (tp + 1) * (fp + 1) / ((tp + fp + 2) * (tp + fp + 3))
    )
    assert abs(printed - 1) > 0.05
    assert ours == pytest.approx(1.0, abs=1e-10)


@pytest.mark.parametrize("tp, fp, fn", [(12, 3, 5), (0.7, 4.2, 0.0), (5e5, 3e4, 8e4)])
def test_mode_is_point_estimate_at_lambda_one(tp, fp, fn):
    # eqs. 5-6 and 17, 20
    assert metric_posterior([tp, fp, fn], "precision").mode() == pytest.approx(
        tp / (tp + fp)
    )
    assert metric_posterior([tp, fp, fn], "recall").mode() == pytest.approx(
        tp / (tp + fn)
    )


@pytest.mark.parametrize("a, b", [(2.0, 1.0), (0.5, 0.7), (20.0, 81.0), (3e4, 2e5)])
def test_f1_density_matches_eq_27_and_integrates_to_one(a, b):
    post = F1Posterior(a, b)
    t = np.linspace(0.01, 0.99, 50)
    # eq. 27 in log space, written out independently
    log_printed = (
        a * np.log(2)
        + (a - 1) * np.log1p(-t)
        - (a + b) * np.log(2 - t)
        + (b - 1) * np.log(t)
        - special.betaln(a, b)
    )
    finite = log_printed > -600
    np.testing.assert_allclose(post.logpdf(t)[finite], log_printed[finite], rtol=1e-9)
    lo, hi = post.ppf([1e-15, 1 - 1e-15])
    total, _ = integrate.quad(post.pdf, lo, hi, points=[post.median()], limit=200)
    assert total == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("a, b", [(2.0, 1.0), (0.5, 0.7), (20.0, 81.0), (3e4, 2e5)])
def test_f1_cdf_ppf_against_betaprime(a, b):
    post = F1Posterior(a, b)
    q = np.array([1e-9, 0.01, 0.3, 0.5, 0.9, 0.999])
    np.testing.assert_allclose(post.cdf(post.ppf(q)), q, rtol=1e-9)
    # with a < 1 the 1e-9 upper quantile lies within 1e-16 of 1, where doubles
    # cannot tell it from 1; hence the absolute tolerance
    np.testing.assert_allclose(post.sf(post.isf(q)), q, rtol=1e-9, atol=2e-9)
    t = post.ppf([0.1, 0.5, 0.9])
    # F1 <= t  <=>  X >= 2/t - 2, X ~ BetaPrime(a, b)
    np.testing.assert_allclose(post.cdf(t), stats.betaprime(a, b).sf(2 / t - 2))
    low, high = post.interval(0.95)
    x = stats.betaprime(a, b).ppf([0.975, 0.025])
    np.testing.assert_allclose([low, high], 2 / (2 + x), rtol=1e-10)  # eq. 30


def test_f1_cdf_matches_monte_carlo_samples():
    a, b = 14.0, 40.0
    post = F1Posterior(a, b)
    x = stats.betaprime(a, b).rvs(size=20_000, random_state=np.random.default_rng(1))
    ks = stats.kstest(2 / (2 + x), post.cdf)
    assert ks.pvalue > 1e-3
    # and our own sampler against the exact cdf
    ks = stats.kstest(post.rvs(20_000, random_state=2), post.cdf)
    assert ks.pvalue > 1e-3


@pytest.mark.parametrize("a, b", [(3.0, 2.0), (20.0, 81.0), (1.0, 5.0), (300.0, 40.0)])
def test_f1_mode_mean_var(a, b):
    post = F1Posterior(a, b)
    t = np.linspace(1e-6, 1 - 1e-6, 400_001)
    assert post.mode() == pytest.approx(t[np.argmax(post.logpdf(t))], abs=5e-6)
    # E[2W/(1+W)], W ~ Beta(b, a): 2 b/(a+b) 2F1(1, b+1; a+b+1; -1)
    mean = 2 * b / (a + b) * special.hyp2f1(1, b + 1, a + b + 1, -1)
    assert post.mean() == pytest.approx(mean, rel=1e-10)
    second, _ = integrate.quad(lambda s: s * s * post.pdf(s), 0, 1, limit=200)
    assert post.var() == pytest.approx(second - mean**2, rel=1e-7)


def test_beta_posterior_against_scipy():
    post = BetaPosterior(31.0, 4.75)
    ref = stats.beta(31.0, 4.75)
    x = np.linspace(0.5, 0.99, 7)
    np.testing.assert_allclose(post.pdf(x), ref.pdf(x), rtol=1e-12)
    np.testing.assert_allclose(post.cdf(x), ref.cdf(x), rtol=1e-12)
    np.testing.assert_allclose(post.ppf([0.1, 0.7]), ref.ppf([0.1, 0.7]), rtol=1e-12)
    assert post.interval(0.9) == pytest.approx(ref.interval(0.9))
    assert post.var() == pytest.approx(ref.var())
    assert post.std() == pytest.approx(ref.std())
    assert post.expect(np.square) == pytest.approx(ref.moment(2), rel=1e-12)


@pytest.mark.parametrize("tp", [0.0, 1.0, 1e3, 1e6, 1e9])
@pytest.mark.parametrize("fp", [0.0, 7.0, 1e9])
def test_large_counts_stay_finite_and_accurate(tp, fp):
    for post in (
        metric_posterior([tp, fp, fp / 2 + 3], "precision"),
        metric_posterior([tp, fp, fp / 2 + 3], "f1"),
    ):
        low, high = post.interval(0.95)
        mean, mode, sd = post.mean(), post.mode(), post.std()
        flat = isinstance(post, BetaPosterior) and post.a == post.b == 1
        assert np.isnan(mode) if flat else np.isfinite(mode)
        assert np.isfinite([low, high, mean, sd]).all()
        assert 0 <= low < high <= 1
        assert low <= mean <= high
        median = post.median()
        assert np.isfinite(post.logpdf(median))
        assert post.cdf(median) == pytest.approx(0.5, abs=1e-6)
        draws = post.rvs(4000, random_state=0)
        assert abs(draws.mean() - mean) < 6 * sd / np.sqrt(4000) + 1e-12


def test_large_counts_density_integrates_to_one():
    for post in (BetaPosterior(1e9, 2e9), F1Posterior(2e9, 1e9)):
        lo, hi = post.ppf([1e-13, 1 - 1e-13])
        total, _ = integrate.quad(post.pdf, lo, hi, points=[post.median()], limit=500)
        # scipy >= 1.17 gives 1e-12; 1.12-1.16 (Boost's older incomplete Beta)
        # carry errors of a few 1e-8 at counts of 1e9
        assert total == pytest.approx(1.0, abs=1e-7)


def test_posterior_rvs_reproducible():
    post = F1Posterior(10.0, 30.0)
    np.testing.assert_array_equal(
        post.rvs(5, random_state=3), post.rvs(5, random_state=3)
    )
    assert not np.array_equal(post.rvs(5, random_state=3), post.rvs(5, random_state=4))


@pytest.mark.parametrize("bad", [0.0, -1.0, np.nan, np.inf])
def test_bad_shape_parameters(bad):
    # the declarative message names the parameter and the allowed range
    with pytest.raises(
        ValueError, match=r"'a' parameter of F1Posterior must be .* \(0\.0, inf\)"
    ):
        F1Posterior(bad, 1.0)
    with pytest.raises(ValueError, match="prior"):
        metric_posterior([1, 2, 3], prior=bad)


def test_bad_posterior_arguments():
    with pytest.raises(ValueError, match="metric"):
        metric_posterior([1, 2, 3], "accuracy")
    with pytest.raises(ValueError, match="non-negative"):
        metric_posterior([1, -2, 3])
    with pytest.raises(ValueError, match="confidence"):
        F1Posterior(2.0, 3.0).interval(1.5)


# --- the Bayes test -----------------------------------------------------------


def _scipy_p_h0(result):
    """P(nu_B <= nu_A) from scipy's Beta distributions, integrating over B."""

    def beta_of(post):
        if isinstance(post, F1Posterior):
            return stats.beta(post.b, post.a)  # W = F1 / (2 - F1)
        return stats.beta(post.a, post.b)

    wa, wb = beta_of(result.posterior_a), beta_of(result.posterior_b)
    lo, hi = wb.ppf([1e-15, 1 - 1e-15])
    value, _ = integrate.quad(
        lambda w: wb.pdf(w) * wa.sf(w),
        lo,
        hi,
        points=[wb.median()],
        epsabs=1e-14,
        limit=500,
    )
    return value  # P(W_B <= W_A) = E_B[S_A(W_B)]


@pytest.mark.parametrize("task", ["CWS", "NER", "ORG"])
@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
def test_paper_tables_3_to_5(task, metric):
    a, b = (counts_from_triples(t) for t in TASKS[task])
    res = bayes_test(a, b, metric=metric, correlation="wang2019")  # the paper's
    p_h0_table, decision = TABLES_3_TO_5[task][metric]
    if p_h0_table <= 0.001:
        # printed as 0.001 for "approximately 1" (section 4.1)
        assert res.p_h0 < 0.001
    else:
        # three printed decimals plus four Monte-Carlo standard errors
        assert res.p_h0 == pytest.approx(p_h0_table, abs=0.0005 + 4 * 0.0005)
    assert res.decision == decision
    assert res.p_h0 + res.p_h1 == pytest.approx(1.0)


@pytest.mark.parametrize("task", ["CWS", "NER", "ORG"])
@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
def test_paper_table_2_intervals(task, metric):
    a, b = (counts_from_triples(t) for t in TASKS[task])
    res = bayes_test(a, b, metric=metric, correlation="wang2019")  # the paper's
    for interval, printed in zip(
        (res.interval_a, res.interval_b), TABLE_2[task][metric], strict=True
    ):
        # two printed decimals of a percentage; one rounding step of slack
        np.testing.assert_allclose(100 * np.array(interval), printed, atol=0.0101)


def _random_counts(rng, scale):
    counts = rng.integers(0, 60, size=(6, 3)) * scale
    counts[:, 0] += 1
    return counts


def test_exact_matches_scipy_quadrature():
    rng = np.random.default_rng(7)
    for _ in range(40):
        a = _random_counts(rng, rng.choice([1, 10, 1000, 10**6]))
        b = _random_counts(rng, rng.choice([1, 10, 1000, 10**6]))
        metric = rng.choice(["precision", "recall", "f1"])
        res = bayes_test(a, b, metric=metric, prior=float(rng.choice([0.5, 1, 2])))
        # 1e-9 with scipy >= 1.17; older scipy's Beta pdf and cdf err by ~1e-8
        # at counts of 1e6 and more, in the reference as much as in ours
        assert res.p_h0 == pytest.approx(_scipy_p_h0(res), abs=3e-8)


@pytest.mark.parametrize("task", ["NER", "ORG"])
@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
def test_exact_and_monte_carlo_agree(task, metric):
    a, b = (counts_from_triples(t) for t in TASKS[task])
    exact = bayes_test(a, b, metric=metric)
    mc = bayes_test(a, b, metric=metric, method="monte-carlo", random_state=0)
    assert mc.method == "monte-carlo" and mc.n_draws == 1_000_000
    assert abs(exact.p_h0 - mc.p_h0) <= 4 * mc.standard_error
    assert mc.standard_error == pytest.approx(np.sqrt(mc.p_h0 * (1 - mc.p_h0) / 1e6))


def test_monte_carlo_reproducible():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    kw = dict(metric="f1", method="monte-carlo", n_draws=10_000)
    r1 = bayes_test(a, b, random_state=5, **kw)
    r2 = bayes_test(a, b, random_state=5, **kw)
    r3 = bayes_test(a, b, random_state=6, **kw)
    assert r1.p_h0 == r2.p_h0
    assert r1.p_h0 != r3.p_h0


def test_rope_probabilities():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    res = bayes_test(a, b, metric="f1", rope=0.005)
    assert res.p_worse + res.p_equivalent + res.p_better == pytest.approx(1.0)
    assert res.p_worse < res.p_h0 and res.p_better < res.p_h1
    mc = bayes_test(a, b, metric="f1", rope=0.005, method="monte-carlo", random_state=1)
    se = np.sqrt(0.25 / 1e6)
    for name in ("p_worse", "p_equivalent", "p_better"):
        assert abs(getattr(res, name) - getattr(mc, name)) < 4 * se
    no_rope = bayes_test(a, b, metric="f1")
    assert (no_rope.p_worse, no_rope.p_equivalent, no_rope.p_better) == (
        no_rope.p_h0,
        0.0,
        no_rope.p_h1,
    )
    assert "rope" in res.summary()


def test_result_fields_and_intervals():
    a, b = (counts_from_triples(t) for t in TASKS["NER"])
    res = bayes_test(a, b, metric="recall", confidence_level=0.9)
    assert res.interval_a == res.posterior_a.interval(0.9)
    assert res.interval_b == res.posterior_b.interval(0.9)
    # one interval, of the difference B - A, at the call's level by default
    diff = res.credible_interval()
    assert diff == res.credible_interval(0.9)
    wide = res.credible_interval(0.99)
    assert wide.low < diff.low < res.difference < diff.high < wide.high
    assert res.difference == pytest.approx(res.mean_b - res.mean_a)
    # the composed posterior is the one the probabilities come from
    assert res.posterior.cdf(0.0) == res.p_h0
    assert res.posterior.cdf(diff.low) == pytest.approx(0.05, abs=1e-9)
    draws = res.posterior_b.rvs(400_000, random_state=0) - res.posterior_a.rvs(
        400_000, random_state=1
    )
    assert tuple(diff) == pytest.approx(np.quantile(draws, [0.05, 0.95]), abs=2e-4)
    c = correlation_factor("wang2015")  # bayes_test's default
    tp, fp, fn = c * counts_from_triples(TASKS["NER"][0]).sum(axis=0)
    assert res.mode_a == pytest.approx(tp / (tp + fn))
    assert res.mean_a == pytest.approx((tp + 1) / (tp + fn + 2))
    with pytest.raises(AttributeError):
        res.p_h0 = 0.5  # frozen
    assert "P(H0" in res.summary()


def test_symmetry_swapping_models():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    ab = bayes_test(a, b, metric="f1")
    ba = bayes_test(b, a, metric="f1")
    assert ab.p_h0 == pytest.approx(ba.p_h1, abs=1e-12)


def test_correlation_options_change_the_width():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    widths = [
        np.diff(bayes_test(a, b, correlation=c).interval_a)[0]
        for c in ("independent", "wang2019", (0.5, 0.5), "wang2015")
    ]
    assert widths == sorted(widths)


def test_micro_pools_classes():
    rng = np.random.default_rng(3)
    a = rng.integers(5, 80, size=(6, 4, 3))
    b = rng.integers(5, 80, size=(6, 4, 3))
    micro = bayes_test(a, b, average="micro")
    pooled = bayes_test(a.sum(axis=1), b.sum(axis=1))
    assert micro.p_h0 == pooled.p_h0


def test_macro_average_by_monte_carlo():
    rng = np.random.default_rng(3)
    a = rng.integers(5, 80, size=(6, 3, 3))
    b = rng.integers(5, 80, size=(6, 3, 3))
    res = bayes_test(a, b, average="macro", n_draws=200_000, random_state=0)
    assert res.method == "monte-carlo"
    assert isinstance(res.posterior_a, MacroPosterior)
    c = correlation_factor("wang2015")  # bayes_test's default
    means = [metric_posterior(c * a[:, k].sum(axis=0), "f1").mean() for k in range(3)]
    assert res.mean_a == pytest.approx(np.mean(means))
    draws = res.posterior_a.rvs(200_000, random_state=1)
    assert draws.mean() == pytest.approx(res.mean_a, abs=4 * draws.std() / 447)
    assert np.isnan(res.mode_a)
    # one class: the macro average is that class's posterior
    one = bayes_test(a[:, :1], b[:, :1], average="macro", random_state=0)
    exact = bayes_test(a[:, 0], b[:, 0])
    assert abs(one.p_h0 - exact.p_h0) < 4 * one.standard_error + 1e-6
    again = bayes_test(a, b, average="macro", n_draws=200_000, random_state=0)
    assert again.p_h0 == res.p_h0 and again.interval_a == res.interval_a


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(metric="accuracy"), "metric"),
        (dict(method="mcmc"), "method"),
        (dict(average="weighted"), "average"),
        (dict(rope=-0.1), "rope"),
        (dict(n_draws=10), "n_draws"),
        (dict(confidence_level=95), "confidence_level"),
        (dict(prior=0), "prior"),
        (dict(average="macro"), "per-class"),
    ],
)
def test_bad_test_parameters(kwargs, match):
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    with pytest.raises(ValueError, match=match):
        bayes_test(a, b, **kwargs)


def test_bad_test_counts():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    with pytest.raises(ValueError, match="same shape"):
        bayes_test(a, b[:4])
    with pytest.raises(ValueError, match="no positive"):
        bayes_test([[0, 3, 0]] * 6, b)
    with pytest.raises(ValueError, match="average='micro'"):
        bayes_test(np.ones((6, 3, 3)), np.ones((6, 3, 3)))
    with pytest.raises(ValueError, match="even number"):
        bayes_test(a[:5], b[:5])


def test_inputs_not_modified():
    a = np.array(counts_from_triples(TASKS["ORG"][0]))
    b = np.array(counts_from_triples(TASKS["ORG"][1]))
    a0, b0 = a.copy(), b.copy()
    bayes_test(a, b, rope=0.01)
    effective_counts(a)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


# --- decide(): a claim only where the posterior warrants one -----------------


def test_one_default_correlation_for_the_unpaired_test():
    # bayes_test, BayesModelComparison and ``bayes-test --unpaired`` read it
    # from one place: the correction whose intervals held their level
    import inspect

    from sklearn_faithful.cli import _bayes_test
    from sklearn_faithful.comparison import BayesModelComparison
    from sklearn_faithful.comparison._options import DEFAULT_CORRELATION

    assert DEFAULT_CORRELATION == "wang2015"
    for func in (bayes_test, BayesModelComparison):
        default = inspect.signature(func).parameters["correlation"].default
        assert default == DEFAULT_CORRELATION
    assert not hasattr(_bayes_test, "UNPAIRED_CORRELATION")  # no second home


def test_decide_without_rope():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    paper = dict(metric="precision", correlation="wang2019")
    res = bayes_test(a, b, **paper)  # P(H1) = 0.81
    assert res.decision == "accept H1" and res.decide() == "undecided"
    assert res.decide(0.8) == "B better"
    worse = bayes_test(b, a, **paper)
    assert worse.decide(0.8) == "B not better" and worse.decide() == "undecided"
    same = bayes_test(a, a)
    assert same.decide() == "undecided" and same.decision == "accept H0"
    strong = bayes_test(a, np.asarray(a) + [[500, -100, -500]])
    assert strong.p_h1 > 0.999 and strong.decide(0.99) == "B better"


def test_decide_with_rope():
    big = np.array([[5000, 500, 600]] * 6)
    res = bayes_test(big, big + [[1, 0, 0]], rope=0.02)
    assert res.p_equivalent > 0.95 and res.decide() == "equivalent"
    worse = bayes_test(big, big + [[-2000, 2000, 2000]], rope=0.02)
    assert worse.decide() == "B worse"
    better = bayes_test(big, big + [[500, -400, -500]], rope=0.01)
    assert better.decide() == "B better"
    wide = bayes_test([[5, 1, 1]] * 6, [[5, 1, 1]] * 6, rope=0.01)
    assert wide.decide() == "undecided"


@pytest.mark.parametrize("threshold", [0.5, 1.0, 0.3, np.nan])
def test_decide_threshold_is_validated(threshold):
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    with pytest.raises(ValueError, match="'threshold' parameter"):
        bayes_test(a, b).decide(threshold)


def test_summary_reports_the_claim_and_the_papers_rule():
    a, b = (counts_from_triples(t) for t in TASKS["ORG"])
    text = bayes_test(a, b, metric="precision").summary()
    assert "at 0.95: undecided" in text and "the paper's rule: accept H1" in text
