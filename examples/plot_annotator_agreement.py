"""
=====================================================
Can the labels be trusted? Annotators, and the model
=====================================================

Four annotators label the handwritten digits that ship with scikit-learn
(1,797 images, ten classes). Three are careful (90-94% right), one is
careless (65% right); each labels about 70% of the images, so values are
missing. The labels are simulated from the true digits with
``numpy.random.default_rng(0)``.

:func:`~sklearn_faithful.agreement.agreement_report` gives every coefficient
with its unit-bootstrap interval; raw agreement stands beside the
chance-corrected ones. :func:`~sklearn_faithful.agreement.coder_diagnostics`
leaves each annotator out in turn: alpha rises most without the careless one.

A logistic regression, fitted out of fold (``cross_val_predict``), then joins
as one more annotator:
:func:`~sklearn_faithful.agreement.compare_to_annotators` sets its Cohen's
kappa with each annotator beside the annotators' kappas with each other, and
says whether the model is below, within or above the human range. The test
accounts for both the units and the annotators' unequal skill, so a model
that is one more annotator is called "below" in at most 5% of data sets
(``benchmarks/sim_model_annotator.py``).

What it shows (random_state=0): alpha is 0.70 with all four annotators and
0.85 without the careless one. The model (92% right) agrees with the careful
annotators (kappa 0.79-0.86) about as they agree with each other (0.82-0.87):
"within the human range", with the careless annotator or without.

The figure shows each pair's alpha (left: the careless annotator's row is
pale) and each pair's kappa with its interval, the model's pairs beside the
annotators' (right).

Run: python examples/plot_annotator_agreement.py [figure.png] (with a path,
the figure is written there; without one, it is shown).
"""

import sys

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.agreement import agreement_report, compare_to_annotators

RANDOM_STATE = 0
ACCURACY = {"ann": 0.94, "bob": 0.92, "cy": 0.90, "dee": 0.65}
CODED = 0.7  # share of the images each annotator labels


def annotate(y, rng):
    """Each annotator's labels: right with its accuracy, else another digit."""
    rows = []
    for accuracy in ACCURACY.values():
        wrong = (y + rng.integers(1, 10, y.size)) % 10
        labels = np.where(rng.random(y.size) < accuracy, y, wrong).astype(float)
        labels[rng.random(y.size) > CODED] = np.nan
        rows.append(labels)
    return np.array(rows)


def main(argv):
    X, y = load_digits(return_X_y=True)
    rng = np.random.default_rng(RANDOM_STATE)
    data = annotate(y, rng)

    report = agreement_report(
        data, coder_names=list(ACCURACY), n_resamples=1999, random_state=0
    )
    print(report.summary())

    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    y_pred = cross_val_predict(model, X, y, cv=5)
    versus = compare_to_annotators(
        data, y_pred, coder_names=list(ACCURACY), n_resamples=1999, random_state=0
    )
    print()
    print(versus.summary())

    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    pairwise = report.coders.pairwise_alpha
    names = report.coders.coders
    image = left.imshow(pairwise, vmin=0, vmax=1, cmap="viridis")
    left.set_xticks(range(len(names)), names)
    left.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j:
                left.text(j, i, f"{pairwise[i, j]:.2f}", ha="center", va="center")
    fig.colorbar(image, ax=left, label="Krippendorff's alpha of the pair")
    left.set_title("Pairwise agreement of four annotators")

    rows = [
        (f"{versus.model_name}-{name}", k, ci, "C1")
        for name, k, ci in zip(
            versus.annotators,
            versus.model_agreement,
            versus.model_confidence_intervals,
            strict=True,
        )
    ] + [
        (f"{a}-{b}", k, ci, "C0")
        for (a, b), k, ci in zip(
            versus.annotator_pairs,
            versus.annotator_agreement,
            versus.annotator_confidence_intervals,
            strict=True,
        )
    ]
    for y_pos, (_, k, (low, high), color) in enumerate(rows):
        right.errorbar(
            k, y_pos, xerr=[[k - low], [high - k]], fmt="o", color=color, capsize=3
        )
    right.axvspan(*versus.human_range, color="C0", alpha=0.15, label="human range")
    right.set_yticks(range(len(rows)), [r[0] for r in rows])
    right.invert_yaxis()
    right.set_xlabel("Cohen's kappa, 95% interval")
    right.set_title(f"The model as one more annotator: {versus.verdict}")
    right.legend(loc="upper left", fontsize=8)
    if argv:
        fig.savefig(argv[0], dpi=120)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()
    return report, versus


if __name__ == "__main__":
    main(sys.argv[1:])
