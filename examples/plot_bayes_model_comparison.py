"""
==========================================================
Is model B really better? BayesModelComparison, end to end
==========================================================

:class:`~sklearn_faithful.comparison.BayesModelComparison` fits two
classifiers on the same splits of a block-regularized m x 2
cross-validation and runs the Bayes test of Wang & Li (2019) on precision,
recall and F1: the paper's test on its 3 x 2, the paired test on a 10 x 2.
Here model A is a Gaussian naive Bayes and model B a scaled logistic
regression, on the breast-cancer data that ships with scikit-learn.

The unpaired test (the paper's, ``paired=False, correlation="wang2019"``)
gives each model its own posterior; the paired test (``paired=True``, the
default) has one posterior, of the difference B - A, computed from the
per-split differences, which uses that both models are scored on the same
items; its scale comes from the items' influences crossed between the
partitions. Read the claim from ``decide(0.95)``: "B better",
"B not better", "undecided", and with a rope also "equivalent" and "B worse".
Every number here is about the models trained on half the data.

What it shows (random_state=0): the paper's rule, which always picks a side,
accepts H1 for all three metrics. With a rope of one F1 point, the unpaired
test puts 0.946 on "B better" and 0.054 on "equivalent", so at 0.95 it says
"undecided". The paired test, whose ten partitions measure the variance of
the difference rather than of each model, puts 0.9999 on "B better": B is
better by more than a point (+0.029 in F1, 95% interval +0.024 to +0.035).

Run: python examples/plot_bayes_model_comparison.py [figure.png] (with a
path, the figure is written there; without one, it is shown).
"""

import sys

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.comparison import BayesModelComparison

RANDOM_STATE = 0
ROPE = 0.01  # differences of F1 below one point count as equivalent


def main(argv):
    import matplotlib.pyplot as plt

    X, y = load_breast_cancer(return_X_y=True)
    model_a = GaussianNB()
    model_b = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    unpaired = BayesModelComparison(
        model_a,
        model_b,
        paired=False,
        correlation="wang2019",
        rope=ROPE,
        random_state=RANDOM_STATE,
    ).fit(X, y)
    paired = BayesModelComparison(
        model_a, model_b, paired=True, rope=ROPE, random_state=RANDOM_STATE
    ).fit(X, y)
    for name, comp in (("unpaired (the paper's)", unpaired), ("paired", paired)):
        print(f"--- {name} test")
        print(comp)  # the table of summary(), one row per metric
        print("F1 claim at 0.95:", comp.results_["f1"].decide(0.95))

    # The unpaired test: one posterior per model, and the rope around A's mean.
    labels = ("naive Bayes", "logistic regression")
    fig, axes = plt.subplots(2, 3, figsize=(12, 7), layout="constrained")
    unpaired.plot(kind="posteriors", axes=axes[0], labels=labels)
    # The paired test: the posterior of B - A, split at -rope and +rope into
    # P(B worse), P(equivalent) and P(B better).
    paired.plot(kind="difference", axes=axes[1], labels=labels)
    if argv:
        fig.savefig(argv[0], dpi=110)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()
    return unpaired, paired


if __name__ == "__main__":
    main(sys.argv[1:])
