"""Bradley-Terry ratings against choix and scikit-learn's logistic regression.

The ``[stored]`` variants read choix's values from
tests/reference/battles.test_reference.json (tests/reference/make_reference.py).
"""

import math

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from sklearn_faithful.battles import bradley_terry

from ._battles import arena

A, B, WINNER = arena()
SYSTEMS = sorted(set(A) | set(B))


def _index(names):
    return np.array([SYSTEMS.index(x) for x in names])


def _choix_pairs(ties):
    """choix's (winner, loser) pairs: every win twice and each tie as one win
    each way (``ties="half"``: twice the counts, the same likelihood's
    maximum), or ties dropped."""
    out = []
    for x, y, w in zip(_index(A).tolist(), _index(B).tolist(), WINNER, strict=True):
        if w == "tie":
            if ties == "half":
                out += [(x, y), (y, x)]
        else:
            pair = (x, y) if w == "model_a" else (y, x)
            out += [pair, pair] if ties == "half" else [pair]
    return out


def _choix(ties, alpha):
    choix = pytest.importorskip("choix")

    pairs = _choix_pairs(ties)
    if alpha:  # choix's penalty alpha * sum(theta**2), as ours; doubled
        # counts need a doubled penalty
        alpha = 2 * alpha if ties == "half" else alpha
        theta = choix.opt_pairwise(len(SYSTEMS), pairs, alpha=alpha, tol=1e-12)
    else:
        theta = choix.ilsr_pairwise(len(SYSTEMS), pairs, tol=1e-14, max_iter=10_000)
    return theta - theta.mean()


def _ours(ties, alpha=0.0, **kw):
    battles = {"model_a": A, "model_b": B, "winner": WINNER}
    return bradley_terry(
        battles, ties=ties, alpha=alpha, n_resamples=9, random_state=0, **kw
    )


@pytest.mark.parametrize(
    "ties, alpha", [("half", 0.0), ("drop", 0.0), ("drop", 0.5), ("half", 2.0)]
)
def test_ratings_equal_choix(reference, ties, alpha):
    expected = reference(_choix, ties, alpha)
    np.testing.assert_allclose(_ours(ties, alpha).ratings, expected, atol=1e-6)


@pytest.mark.parametrize("ties", ["half", "drop"])
def test_ratings_equal_an_unpenalised_logistic_regression(ties):
    # the +1/-1 design: a row per battle, +1 at a's column, -1 at b's; y is
    # whether a won; a tie is two rows of weight 1/2, one won by each
    ia, ib = _index(A), _index(B)
    x = np.zeros((len(A), len(SYSTEMS)))
    x[np.arange(len(A)), ia] = 1.0
    x[np.arange(len(A)), ib] = -1.0
    tie = WINNER == "tie"
    y = (WINNER == "model_a").astype(int)
    weight = np.ones(len(A))
    if ties == "half":
        x = np.vstack([x[~tie], x[tie], x[tie]])
        y = np.r_[y[~tie], np.ones(tie.sum(), int), np.zeros(tie.sum(), int)]
        weight = np.r_[weight[~tie], np.full(2 * tie.sum(), 0.5)]
    else:
        x, y, weight = x[~tie], y[~tie], weight[~tie]
    # no penalty: C = 1e12 (penalty=None is deprecated from scikit-learn 1.8)
    model = LogisticRegression(
        C=1e12, fit_intercept=False, tol=1e-12, max_iter=10_000
    ).fit(x, y, sample_weight=weight)
    coef = model.coef_[0] - model.coef_[0].mean()
    np.testing.assert_allclose(_ours(ties).ratings, coef, atol=1e-6)


def test_elo_scale_and_reference():
    log = _ours("half").ratings
    elo = _ours("half", scale="elo", reference="s2").ratings
    expected = 1000 + 400 / math.log(10) * (log - log[2])
    np.testing.assert_allclose(elo, expected, rtol=1e-12)


def test_two_systems_have_closed_forms():
    # Bradley-Terry: theta_x - theta_y = log(wins / losses); Davidson: the
    # fitted probabilities are the observed shares, so nu = t / sqrt(w lost)
    w, lost, t = 30, 10, 12
    battles = [("x", "y", "a")] * w + [("x", "y", "b")] * lost + [("y", "x", "tie")] * t
    half = bradley_terry(battles, n_resamples=9, random_state=0)
    assert half.ratings[0] - half.ratings[1] == pytest.approx(
        math.log((w + t / 2) / (lost + t / 2)), abs=1e-9
    )
    dav = bradley_terry(battles, ties="davidson", n_resamples=9, random_state=0)
    assert dav.ratings[0] - dav.ratings[1] == pytest.approx(
        math.log(w / lost), abs=1e-9
    )
    assert dav.tie_parameter == pytest.approx(t / math.sqrt(w * lost), abs=1e-9)
    assert dav.win_probability[0, 1] == pytest.approx(w / (w + lost), abs=1e-9)


def test_davidson_equals_a_direct_maximisation():
    from scipy.optimize import minimize

    ia, ib = _index(A), _index(B)
    tie = WINNER == "tie"
    a_won = WINNER == "model_a"
    k = len(SYSTEMS)

    def nll(p):  # Davidson (1970), eq. 2.1, in log-strengths
        theta, log_nu = np.r_[p[: k - 1], -p[: k - 1].sum()], p[-1]
        pi_a, pi_b = np.exp(theta[ia]), np.exp(theta[ib])
        root = np.exp(log_nu) * np.sqrt(pi_a * pi_b)
        num = np.where(tie, root, np.where(a_won, pi_a, pi_b))
        return -np.sum(np.log(num / (pi_a + pi_b + root)))

    best = minimize(nll, np.zeros(k), method="BFGS", options={"gtol": 1e-10})
    theta = np.r_[best.x[: k - 1], -best.x[: k - 1].sum()]
    res = _ours("davidson")
    np.testing.assert_allclose(res.ratings, theta, atol=1e-5)
    assert res.tie_parameter == pytest.approx(math.exp(best.x[-1]), abs=1e-5)
