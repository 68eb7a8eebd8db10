"""
====================================================================
Do the 3x2 BCV credible intervals of F1 cover at their stated level?
====================================================================

Repeats the worked example of Wang & Li (2019, section 2.4): two Gaussian
classes, ``P(Y=1) = 1/2``, ``X | Y=0 ~ N((0, 0), I)``, ``X | Y=1 ~
N((0.5, 0.5), I)``, ``n = 600``, logistic regression, a 3x2 BCV. Each of
``N_DATASETS`` simulated data sets gives the six confusion matrices, and the F1
credible interval (eq. 30) is computed under each correlation option of
:func:`~sklearn_faithful.comparison.correlation_factor`.

The quantity the interval is for is the paper's ``f1 = 2 p r / (p + r)`` with
``p = P(Y=1 | predicted 1)`` and ``r = P(predicted 1 | Y=1)`` over a random
training set of ``n / 2`` samples and a new test point. For a linear rule both
rates have a closed form, ``Phi((w . mu + b) / |w|)``, so the truth is the
average of exact rates over ``N_TRUTH`` training sets, not a simulation of
test points.

The paper reports a mean interval length of 0.0854 with 94.5% coverage for
its factor, and 0.117 with 99.6% for Wang et al. (2015). The printout puts our
measured figures next to them, and the figure plots empirical coverage
against the nominal level for each option.

Run: python examples/plot_interval_coverage.py [figure.png] (with a path, the
figure is written there; without one, it is shown). It takes a few minutes, so
the documentation runs it only in a full build.
"""

# docs-gallery: slow

import sys

import numpy as np
from scipy import special
from sklearn.linear_model import LogisticRegression

from sklearn_faithful.comparison import correlation_factor, metric_posterior
from sklearn_faithful.model_selection import BlockRegularized3x2CV

RANDOM_STATE = 0
N_SAMPLES = 600
N_DATASETS = 1000
N_TRUTH = 4000
MU_1 = np.array([0.5, 0.5])
NOMINAL = np.array([0.5, 0.7, 0.8, 0.9, 0.95, 0.99])
OPTIONS = {
    "wang2019 (paper)": "wang2019",
    "rho1 = rho2 = 1/2": (0.5, 0.5),
    "wang2015": "wang2015",
    "independent": "independent",
}
PAPER = {"wang2019 (paper)": (0.0854, 0.945), "wang2015": (0.117, 0.996)}


def draw(n, rng):
    """n samples of the paper's two-Gaussian model."""
    y = rng.integers(0, 2, size=n)
    X = rng.standard_normal((n, 2)) + y[:, None] * MU_1
    return X, y


def true_f1(rng):
    """The f1 of logistic regression trained on n/2 samples, from exact rates."""
    tpr = np.empty(N_TRUTH)
    fpr = np.empty(N_TRUTH)
    for i in range(N_TRUTH):
        model = LogisticRegression().fit(*draw(N_SAMPLES // 2, rng))
        w, b = model.coef_[0], model.intercept_[0]
        norm = np.linalg.norm(w)
        tpr[i] = special.ndtr((w @ MU_1 + b) / norm)  # P(predict 1 | Y = 1)
        fpr[i] = special.ndtr(b / norm)  # P(predict 1 | Y = 0)
    r = tpr.mean()
    p = tpr.mean() / (tpr.mean() + fpr.mean())  # equal class priors
    return 2 * p * r / (p + r)


def summed_counts(rng, seed):
    """(TP, FP, FN) summed over the six splits of one simulated data set."""
    X, y = draw(N_SAMPLES, rng)
    total = np.zeros(3)
    for train, test in BlockRegularized3x2CV(random_state=seed).split(X, y):
        pred = LogisticRegression().fit(X[train], y[train]).predict(X[test])
        truth = y[test] == 1
        total += [
            np.sum(pred[truth] == 1),
            np.sum(pred[~truth] == 1),
            np.sum(pred[truth] == 0),
        ]
    return total


def simulate(rng):
    f1 = true_f1(rng)
    sums = np.array([summed_counts(rng, seed) for seed in range(N_DATASETS)])
    coverage, length = {}, {}
    for name, option in OPTIONS.items():
        c = correlation_factor(option)
        posts = [metric_posterior(c * s, "f1") for s in sums]
        ints = np.array([[p.interval(level) for level in NOMINAL] for p in posts])
        coverage[name] = np.mean((ints[..., 0] <= f1) & (f1 <= ints[..., 1]), axis=0)
        length[name] = np.mean(ints[..., 1] - ints[..., 0], axis=0)
    return f1, coverage, length


def main(argv):
    rng = np.random.default_rng(RANDOM_STATE)
    f1, coverage, length = simulate(rng)
    at95 = int(np.flatnonzero(NOMINAL == 0.95)[0])
    se = np.sqrt(0.95 * 0.05 / N_DATASETS)
    print(f"true f1 = {f1:.4f}; {N_DATASETS} data sets of n = {N_SAMPLES}")
    print(f"95% F1 intervals (coverage s.e. about {se:.3f}):")
    print(f"{'option':<20} {'length':>7} {'coverage':>9}   paper: length, coverage")
    for name in OPTIONS:
        paper = PAPER.get(name)
        note = f"{paper[0]:.4f}, {paper[1]:.1%}" if paper else "-"
        print(
            f"{name:<20} {length[name][at95]:7.4f} {coverage[name][at95]:9.1%}   {note}"
        )

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4.5), layout="constrained")
    ax.plot([0.45, 1], [0.45, 1], color="gray", linestyle=":", label="nominal")
    for name in OPTIONS:
        ax.plot(NOMINAL, coverage[name], marker="o", label=name)
    ax.set_xlabel("nominal level of the F1 credible interval")
    ax.set_ylabel("empirical coverage")
    ax.set_title(f"3x2 BCV, logistic regression, n = {N_SAMPLES}")
    ax.legend(loc="upper left")
    if argv:
        fig.savefig(argv[0], dpi=120)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()
    return coverage, length


if __name__ == "__main__":
    main(sys.argv[1:])
