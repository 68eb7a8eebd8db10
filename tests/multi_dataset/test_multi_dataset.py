"""Friedman, Nemenyi, the critical-difference diagram and the Bayesian
signed-rank test, checked against scipy, Demsar (2006) and baycomp."""

import sys
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.multi_dataset._multi_dataset import (
    BayesianSignedRankTestResult,
    CriticalDifferenceDisplay,
    FriedmanTestResult,
    _cliques,
    _nemenyi_q,
    bayesian_signed_rank_test,
    friedman_test,
)
from sklearn_faithful.utils._param_validation import InvalidParameterError

# Demsar (2006), Table 6: AUC of C4.5 with and without m-tuning and
# cf-tuning on 14 UCI data sets (rows), as printed (three decimals).
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = np.array(
    [
        [0.763, 0.768, 0.771, 0.798],  # adult (sample)
        [0.599, 0.591, 0.590, 0.569],  # breast cancer
        [0.954, 0.971, 0.968, 0.967],  # breast cancer wisconsin
        [0.628, 0.661, 0.654, 0.657],  # cmc
        [0.882, 0.888, 0.886, 0.898],  # ionosphere
        [0.936, 0.931, 0.916, 0.931],  # iris
        [0.661, 0.668, 0.609, 0.685],  # liver disorders
        [0.583, 0.583, 0.563, 0.625],  # lung cancer
        [0.775, 0.838, 0.866, 0.875],  # lymphography
        [1.000, 1.000, 1.000, 1.000],  # mushroom
        [0.940, 0.962, 0.965, 0.962],  # primary tumor
        [0.619, 0.666, 0.614, 0.669],  # rheum
        [0.972, 0.981, 0.975, 0.975],  # voting
        [0.957, 0.978, 0.946, 0.970],  # wine
    ]
)


# --- Friedman ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_friedman_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(12, 5)) + np.linspace(0, 1, 5)
    if seed % 2:
        scores = np.round(scores, 1)  # ties, which scipy corrects for
    res = friedman_test(scores)
    ref = stats.friedmanchisquare(*scores.T)
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
    assert isinstance(res, FriedmanTestResult)
    assert isinstance(res.statistic, float) and isinstance(res.pvalue, float)


def test_average_ranks_best_first_and_ties_averaged():
    scores = [[0.9, 0.8, 0.8], [0.7, 0.9, 0.6], [0.5, 0.6, 0.7]]
    res = friedman_test(scores, names=["a", "b", "c"])
    # rows: a 1, b 2.5, c 2.5 | a 2, b 1, c 3 | a 3, b 2, c 1
    np.testing.assert_allclose(res.ranks, [[1, 2.5, 2.5], [2, 1, 3], [3, 2, 1]])
    np.testing.assert_allclose(res.average_ranks, [2, 5.5 / 3, 6.5 / 3])
    low = friedman_test(scores, greater_is_better=False)
    np.testing.assert_allclose(low.average_ranks, 4 - res.average_ranks)
    assert low.statistic == pytest.approx(res.statistic)


def test_iman_davenport_by_hand():
    rng = np.random.default_rng(11)
    scores = rng.normal(size=(10, 4)) + np.arange(4) * 0.4
    res = friedman_test(scores)
    n, k, chi2 = 10, 4, res.statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert res.iman_davenport_statistic == pytest.approx(f)
    assert res.iman_davenport_pvalue == pytest.approx(
        stats.f.sf(f, k - 1, (k - 1) * (n - 1))
    )


def test_the_same_ranking_everywhere_and_all_ties():
    same = np.tile([0.9, 0.8, 0.7], (5, 1)) + np.arange(5)[:, None] * 0.01
    res = friedman_test(same)
    assert res.statistic == pytest.approx(5 * 2)  # chi2_F = N (k - 1)
    assert res.iman_davenport_statistic == np.inf
    assert res.iman_davenport_pvalue == 0.0
    tied = friedman_test(np.ones((4, 3)))
    assert (tied.statistic, tied.pvalue) == (0.0, 1.0)
    np.testing.assert_allclose(tied.average_ranks, [2, 2, 2])


@pytest.mark.parametrize(
    "alpha, table",
    [
        # Demsar (2006), Table 5(a): q_0.05 for k = 2..10
        (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
        # Demsar (2006), Table 5(a): q_0.10 for k = 2..10
        (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
    ],
)
def test_nemenyi_q_equals_demsar_table_5(alpha, table):
    # the table's entries come from printed studentized-range tables and are
    # good to about one unit in the third decimal (largest gap 0.0007)
    for k, expected in zip(range(2, 11), table, strict=True):
        assert _nemenyi_q(alpha, k) == pytest.approx(expected, abs=1e-3)


def test_demsar_worked_example():
    """Demsar (2006), section 3.2.2, with the AUCs of Table 6."""
    res = friedman_test(DEMSAR_AUC, names=DEMSAR_NAMES)
    # CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25 at 0.05 and 2.291 * 0.488 =
    # 1.12 at 0.10, as printed
    assert round(res.critical_difference(0.05), 2) == 1.25
    assert round(res.critical_difference(0.10), 2) == 1.12
    # The paper prints the average ranks 3.143, 2.000, 2.893, 1.964; its
    # three-decimal AUCs tie C4.5+cf and C4.5+m+cf on one data set (voting),
    # which moves 1/28 of a rank between the two.
    np.testing.assert_allclose(
        res.average_ranks, [44 / 14, 2.0, 41 / 14, 27 / 14], rtol=1e-12
    )
    pvalues = res.nemenyi()
    # "the difference between the best and the worst ... is smaller than CD":
    # no pair differs at 0.05
    assert (pvalues > 0.05).all()
    # at 0.10, C4.5 is worse than C4.5+m and than C4.5+m+cf, and no other
    # pair differs (the paper's Figure 1)
    significant = {
        (DEMSAR_NAMES[i], DEMSAR_NAMES[j])
        for i, j in zip(*np.nonzero(np.triu(pvalues <= 0.10)), strict=True)
    }
    assert significant == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}


def test_nemenyi_pvalues_agree_with_the_critical_difference():
    rng = np.random.default_rng(2)
    res = friedman_test(rng.normal(size=(25, 6)) + np.arange(6) * 0.3)
    pvalues = res.nemenyi()
    np.testing.assert_array_equal(pvalues, pvalues.T)
    np.testing.assert_array_equal(np.diag(pvalues), 1.0)
    diff = np.abs(res.average_ranks[:, None] - res.average_ranks[None, :])
    for alpha in (0.01, 0.05, 0.1, 0.3):
        cd = res.critical_difference(alpha)
        off = ~np.eye(6, dtype=bool)
        np.testing.assert_array_equal((pvalues <= alpha)[off], (diff >= cd)[off])


def test_dataframe_names_and_summary():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(DEMSAR_AUC, columns=DEMSAR_NAMES)
    res = friedman_test(frame)
    assert res.names == tuple(DEMSAR_NAMES)
    assert friedman_test(frame, names=list("abcd")).names == ("a", "b", "c", "d")
    assert friedman_test(DEMSAR_AUC).names[0] == "method 0"
    text = res.summary()
    assert "C4.5+m+cf 1.929" in text and "critical difference at 0.05: 1.254" in text


def test_friedman_input_errors():
    good = np.arange(12.0).reshape(4, 3)
    bad = good.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"nan at row 2 \(data set\), column 1"):
        friedman_test(bad)
    with pytest.raises(ValueError, match="2 columns.*at least 3"):
        friedman_test(good[:, :2])
    with pytest.raises(ValueError, match=r"1 row\(s\)"):
        friedman_test(good[:1])
    with pytest.raises(ValueError, match="must be 2-D"):
        friedman_test(good.ravel())
    with pytest.raises(ValueError, match="names has 2 entries but scores has 3"):
        friedman_test(good, names=["a", "b"])
    with pytest.raises(ValueError, match="duplicates"):
        friedman_test(good, names=["a", "b", "a"])
    with pytest.raises(ValueError, match="must hold numbers"):
        friedman_test([["x", "y", "z"], ["u", "v", "w"]])
    res = friedman_test(good)
    with pytest.raises(InvalidParameterError, match="'alpha' parameter"):
        res.critical_difference(1.5)
    with pytest.raises(InvalidParameterError, match="'greater_is_better'"):
        friedman_test(good, greater_is_better="yes")


def test_friedman_does_not_modify_its_input():
    scores = np.random.default_rng(0).normal(size=(6, 4))
    copy = scores.copy()
    friedman_test(scores, greater_is_better=False)
    np.testing.assert_array_equal(scores, copy)


# --- cliques and the critical-difference diagram ------------------------------


def test_cliques_by_hand():
    ranks = np.array([3.5, 1.0, 2.2, 1.5, 3.9])
    # sorted: 1.0 (1), 1.5 (3), 2.2 (2), 3.5 (0), 3.9 (4); CD = 1:
    # 1.0-1.5 (2.2 - 1.0 = 1.2 too far), 1.5-2.2, 2.2 alone, 3.5-3.9
    assert _cliques(ranks, 1.0) == [(1, 3), (3, 2), (0, 4)]
    # a difference of exactly the CD is significant: no bar
    assert _cliques(np.array([1.0, 2.0, 3.0]), 1.0) == []
    assert _cliques(np.array([1.0, 2.0, 3.0]), 2.5) == [(0, 1, 2)]
    # a group inside another is not drawn
    assert _cliques(np.array([1.0, 1.2, 1.4, 3.0]), 0.5) == [(0, 1, 2)]


def test_display_draws_demsar_figure_1():
    plt = pytest.importorskip("matplotlib.pyplot")

    disp = CriticalDifferenceDisplay.from_scores(
        DEMSAR_AUC, names=DEMSAR_NAMES, alpha=0.10
    )
    # Demsar (2006), Figure 1(a): C4.5+cf joins both groups
    assert disp.cliques_ == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    assert len(disp.clique_lines_) == 2
    x = disp.clique_lines_[0].get_xdata()
    assert x[0] < 27 / 14 < 41 / 14 < x[1]
    texts = [t.get_text() for t in disp.ax_.texts]
    assert "CD = 1.12" in texts and "C4.5+m+cf (1.93)" in texts
    assert disp.figure_ is disp.ax_.figure
    disp.figure_.canvas.draw()
    at_05 = CriticalDifferenceDisplay.from_result(
        friedman_test(DEMSAR_AUC, names=DEMSAR_NAMES)
    )
    assert at_05.cliques_ == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    plt.close("all")


def test_display_on_given_axes_and_constructor():
    plt = pytest.importorskip("matplotlib.pyplot")

    fig, ax = plt.subplots()
    disp = CriticalDifferenceDisplay([1.0, 2.9, 2.1], 1.0, names=["a", "b", "c"])
    assert disp.plot(ax=ax) is disp
    assert disp.ax_ is ax and disp.figure_ is fig
    assert disp.cliques_ == [("c", "b")]
    fig.canvas.draw()
    with pytest.raises(ValueError, match="names has 2 entries"):
        CriticalDifferenceDisplay([1.0, 2.0, 3.0], 1.0, names=["a", "b"]).plot()
    with pytest.raises(InvalidParameterError, match="critical_difference"):
        CriticalDifferenceDisplay([1.0, 2.0], -1.0)
    with pytest.raises(InvalidParameterError, match="'alpha' parameter"):
        CriticalDifferenceDisplay.from_scores(DEMSAR_AUC, alpha=0)
    with pytest.raises(InvalidParameterError, match="'result' parameter"):
        CriticalDifferenceDisplay.from_result(DEMSAR_AUC)
    plt.close("all")


def test_display_without_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install 'sklearn-faithful\[plot\]'"):
        CriticalDifferenceDisplay.from_scores(DEMSAR_AUC)


# --- the Bayesian signed-rank test -------------------------------------------


def _baycomp_probs(a, b, rope):
    baycomp = pytest.importorskip("baycomp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probs = baycomp.SignedRankTest.probs(a, b, rope=rope, random_state=1)
    return probs if rope > 0 else (probs[0], 0.0, probs[1])


BAYES_CASES = [
    # (seed, n_datasets, mean difference, spread, rope)
    (0, 15, 0.005, 0.01, 0.0),
    (0, 15, 0.005, 0.01, 0.005),
    (1, 10, 0.0, 0.02, 0.01),
    (2, 25, -0.01, 0.03, 0.0),
    (3, 8, 0.02, 0.02, 0.01),
]


@pytest.mark.parametrize("seed, n, shift, spread, rope", BAYES_CASES)
def test_bayesian_signed_rank_equals_baycomp(seed, n, shift, spread, rope, reference):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.05, n)
    b = a + rng.normal(shift, spread, n)
    res = bayesian_signed_rank_test(a, b, rope=rope, random_state=0)
    expected = reference(_baycomp_probs, a, b, rope)
    # both are Monte Carlo with 50,000 draws: standard error <= 0.0023 each,
    # so 0.01 is over three standard errors of the difference
    np.testing.assert_allclose(
        [res.p_worse, res.p_equivalent, res.p_better], expected, atol=0.01
    )
    assert res.p_worse + res.p_equivalent + res.p_better == pytest.approx(1.0)
    assert res.standard_error <= 0.5 / np.sqrt(50_000)


def test_bayesian_signed_rank_is_reproducible():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=12), rng.normal(size=12)
    first = bayesian_signed_rank_test(a, b, rope=0.1, n_samples=2000, random_state=7)
    again = bayesian_signed_rank_test(a, b, rope=0.1, n_samples=2000, random_state=7)
    np.testing.assert_array_equal(first.posterior_samples, again.posterior_samples)
    assert first.p_better == again.p_better
    other = bayesian_signed_rank_test(a, b, rope=0.1, n_samples=2000, random_state=8)
    assert not np.array_equal(first.posterior_samples, other.posterior_samples)
    gen = bayesian_signed_rank_test(
        a, b, rope=0.1, n_samples=2000, random_state=np.random.default_rng(7)
    )
    np.testing.assert_array_equal(first.posterior_samples, gen.posterior_samples)


def test_bayesian_signed_rank_swapping_swaps_worse_and_better():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=9), rng.normal(0.3, 1, size=9)
    ab = bayesian_signed_rank_test(a, b, rope=0.2, n_samples=5000, random_state=3)
    ba = bayesian_signed_rank_test(b, a, rope=0.2, n_samples=5000, random_state=3)
    # the same Dirichlet weights on differences of the opposite sign
    np.testing.assert_allclose(
        ab.posterior_samples[:, ::-1], ba.posterior_samples, atol=1e-12
    )
    assert ab.p_better == pytest.approx(ba.p_worse)
    assert ab.p_equivalent == pytest.approx(ba.p_equivalent)


def test_bayesian_signed_rank_by_hand_on_two_data_sets():
    # z = (0, d_1, d_2); theta_better = w^T H w, H(z_i + z_j) of the Walsh sums
    a, b = np.array([0.5, 0.5]), np.array([0.6, 0.3])  # d = (0.1, -0.2)
    res = bayesian_signed_rank_test(a, b, n_samples=200, random_state=0)
    z = np.array([0.0, 0.1, -0.2])
    sums = z[:, None] + z[None, :]
    h = (sums > 0) + 0.5 * (sums == 0)
    w = np.random.default_rng(0).dirichlet([0.5, 1.0, 1.0], size=200)
    theta_better = np.einsum("si,ij,sj->s", w, h, w)
    np.testing.assert_allclose(res.posterior_samples[:, 2], theta_better)
    np.testing.assert_allclose(res.posterior_samples[:, 0], 1 - theta_better)
    assert res.p_better == pytest.approx(np.mean(theta_better > 0.5))


def test_bayesian_signed_rank_degenerate_cases():
    a = np.array([0.7, 0.8, 0.9])
    equal = bayesian_signed_rank_test(a, a.copy(), n_samples=1000, random_state=0)
    # every Walsh sum is 0: theta_worse = theta_better = 1/2 in every draw
    assert (equal.p_worse, equal.p_better) == (0.5, 0.5)
    assert equal.decide() == "undecided"
    close = bayesian_signed_rank_test(
        a, a + [0.001, -0.002, 0.0], rope=0.01, n_samples=1000, random_state=0
    )
    assert close.p_equivalent == 1.0 and close.decide() == "equivalent"


def test_bayesian_signed_rank_decisions_and_summary():
    a = np.linspace(0.6, 0.9, 20)
    res = bayesian_signed_rank_test(a, a + 0.05, random_state=0)
    assert isinstance(res, BayesianSignedRankTestResult)
    assert res.p_better == 1.0 and res.p_h1 == 1.0 and res.p_equivalent == 0.0
    assert res.decide() == "B better"
    assert res.mean_difference == pytest.approx(0.05)
    assert res.posterior_samples.shape == (50_000, 3)
    np.testing.assert_allclose(res.posterior_samples.sum(axis=1), 1.0)
    worse = bayesian_signed_rank_test(a, a - 0.05, random_state=0)
    assert worse.decide() == "B not better"
    roped = bayesian_signed_rank_test(a, a - 0.05, rope=0.01, random_state=0)
    assert roped.decide() == "B worse"
    assert "P(B worse) = 1.0000" in roped.summary()
    assert "mean B - A = +0.0500" in res.summary()
    with pytest.raises(InvalidParameterError, match="'threshold' parameter"):
        res.decide(0.3)


def test_bayesian_signed_rank_input_errors():
    a = [0.7, 0.8, 0.9]
    with pytest.raises(ValueError, match="scores_a has 3 scores but scores_b has 2"):
        bayesian_signed_rank_test(a, [0.7, 0.8])
    with pytest.raises(ValueError, match=r"scores_b contains nan at position 1"):
        bayesian_signed_rank_test(a, [0.7, np.nan, 0.9])
    with pytest.raises(ValueError, match="scores_a must be a non-empty 1-D"):
        bayesian_signed_rank_test([[0.7, 0.8]], [0.7, 0.8])
    with pytest.raises(InvalidParameterError, match="'rope' parameter"):
        bayesian_signed_rank_test(a, a, rope=-0.1)
    with pytest.raises(InvalidParameterError, match="'prior_strength' parameter"):
        bayesian_signed_rank_test(a, a, prior_strength=0)
    with pytest.raises(InvalidParameterError, match="'n_samples' parameter"):
        bayesian_signed_rank_test(a, a, n_samples=0)
    with pytest.raises(InvalidParameterError, match="'random_state' parameter"):
        bayesian_signed_rank_test(a, a, random_state="seed")


def test_bayesian_signed_rank_does_not_modify_its_inputs():
    a, b = np.array([0.7, 0.8, 0.9]), np.array([0.72, 0.79, 0.93])
    copies = a.copy(), b.copy()
    bayesian_signed_rank_test(a, b, rope=0.01, n_samples=100, random_state=0)
    np.testing.assert_array_equal(a, copies[0])
    np.testing.assert_array_equal(b, copies[1])


def test_signed_rank_credible_interval_of_the_mean_difference():
    a = np.array([0.81, 0.72, 0.90, 0.65, 0.88, 0.77, 0.93, 0.70])
    b = np.array([0.84, 0.77, 0.93, 0.70, 0.89, 0.80, 0.92, 0.75])
    res = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    d = b - a
    # E[sum_i w_i z_i] with w ~ Dirichlet(s, 1, ..., 1), z = (0, d): sum d / (n + s)
    assert res.posterior.mean() == pytest.approx(d.sum() / (d.size + 0.5), rel=2e-3)
    low, high = res.credible_interval()
    assert low < res.posterior.mean() < high
    assert res.credible_interval() == res.credible_interval(0.95)
    wide = res.credible_interval(0.99)
    assert wide.low < low and wide.high > high
    # the mean difference is drawn from the same weights: the probabilities
    # of the three regions are unchanged by it
    assert (round(res.p_better, 3), res.decide()) == (0.998, "B better")


def test_signed_rank_masses_equal_the_walsh_matrices():
    # the sorted-bounds computation against baycomp's (n + 1)^2 matrices,
    # ties on the rope's edge included (differences rounded to 0.01)
    from sklearn_faithful.multi_dataset._multi_dataset import (
        _walsh_bounds,
        _walsh_masses,
    )

    rng = np.random.default_rng(0)
    for trial in range(200):
        n = int(rng.integers(1, 30))
        rope = float(rng.choice([0.0, 0.01, 0.02, 0.05]))
        d = rng.normal(0, 0.03, n)
        d = np.round(d, 2) if trial % 2 else d
        z = np.r_[0.0, 0.0 * d if trial % 7 == 0 else d]
        w = rng.dirichlet(np.ones(n + 1), size=5)
        sums = z[:, None] + z[None, :]
        above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
        below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
        expected = (np.sum((w @ below) * w, axis=1), np.sum((w @ above) * w, axis=1))
        got = _walsh_masses(w, *_walsh_bounds(z, rope))
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14)


def test_signed_rank_memory_does_not_grow_with_the_square_of_the_data_sets():
    import tracemalloc

    rng = np.random.default_rng(0)
    a = rng.random(5000)
    b = a + rng.normal(0.001, 0.01, a.size)
    tracemalloc.start()
    bayesian_signed_rank_test(a, b, rope=0.001, n_samples=200, random_state=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2**20  # the matrices alone would take 2 x 191 MiB
