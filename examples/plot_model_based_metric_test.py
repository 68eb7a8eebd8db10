"""
=======================================================
When a classifier is the metric: Goyal et al.'s story
=======================================================

Two text generators, a control C and a treatment T, are compared by the share
of their outputs that a toxicity classifier flags. The classifier is trained
here, on a corpus this script generates (no download), and makes mistakes:
some toxic texts use words it never saw, and some harmless texts quote a rude
word. Its precision and false omission rate (FOR) are measured on a separate
human-annotated sample of the generators' own outputs, as in Goyal, Hu &
Gupta (2023). (Precision and FOR depend on how common toxic texts are, so an
annotated set with another share of them would not transfer.)

The script then scores 3,000 outputs of each generator and prints three 95%
intervals of T - C: the naive one (the classifier taken as ground truth), the
paper's (eq. 14) and the delta-method interval of the corrected effect. The
figure draws them side by side, with the true difference of toxic rates,
which the simulation knows.

This is the paper's method, ``method="goyal2023"``, which pools the two
annotated samples to measure precision and FOR once. The package's default,
``method="ppi"``, would use each generator's annotated sample to correct that
generator's own rate, and assumes nothing about the classifier's errors (see
the user guide, "My metric is itself a classifier").

What it shows (seed 0): the classifier misses most toxic texts (they use
words it never saw), so its FOR (0.073) is far from 0 and the paper's
interval is wider than the naive one. But none of the three intervals is
centred near the true difference (0.020): the paper's model takes
``P(real | observed)`` as fixed, while here the classifier's errors depend on
the real label, so precision and FOR shift with each system's share of toxic
texts and the corrected effect ``(precision - FOR) d`` (0.006) underestimates
the truth. The coverage example, which simulates the paper's own model, is
where the correction works.

Run: python examples/plot_model_based_metric_test.py [figure.png] (with a path,
the figure is written there; without one, it is shown).
"""

import sys

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_faithful.model_based import ModelBasedMetricTest

RANDOM_STATE = 0
NEUTRAL = "weather book friend music garden river coffee train city film".split()
RUDE_SEEN = "awful hate stupid idiot trash".split()  # in the training data
RUDE_UNSEEN = "moron vile scum".split()  # toxic, but the classifier never saw them


def generate(rng, n, toxic_rate):
    """n texts and their real labels; toxic texts carry one rude word."""
    y = (rng.random(n) < toxic_rate).astype(int)
    docs = []
    for label in y:
        words = list(rng.choice(NEUTRAL, 5))
        if label:
            pool = RUDE_UNSEEN if rng.random() < 0.6 else RUDE_SEEN
            words.append(rng.choice(pool))
        elif rng.random() < 0.01:  # harmless text quoting a rude word
            words.append(rng.choice(RUDE_SEEN))
        docs.append(" ".join(rng.permutation(words)))
    return docs, y


def main(argv):
    rng = np.random.default_rng(RANDOM_STATE)
    train_x, train_y = generate(rng, 2000, 0.3)
    # the classifier sees only the known rude words as toxic
    seen = np.array([any(w in RUDE_SEEN for w in d.split()) for d in train_x])
    keep = ~(train_y.astype(bool) & ~seen)
    metric_model = make_pipeline(CountVectorizer(), LogisticRegression())
    metric_model.fit(np.array(train_x)[keep], train_y[keep])

    rates = {"C": 0.10, "T": 0.12}
    # annotate a sample of the systems' own outputs: precision and FOR depend
    # on the share of toxic texts, so they must be measured where they are used
    ann_c, y_c = generate(rng, 300, rates["C"])
    ann_t, y_t = generate(rng, 300, rates["T"])
    test = ModelBasedMetricTest(metric_model, method="goyal2023")
    test = test.fit(ann_c + ann_t, np.r_[y_c, y_t])
    print(
        f"metric model on {test.n_annotated_} annotated texts: precision "
        f"{test.precision_:.3f}, FOR {test.false_omission_rate_:.3f}"
    )

    out_c, real_c = generate(rng, 3000, rates["C"])
    out_t, real_t = generate(rng, 3000, rates["T"])
    paper = test.test(out_c, out_t)
    delta = test.set_params(method="delta").test(out_c, out_t)
    truth = rates["T"] - rates["C"]
    print(paper.summary())
    low, high = delta.confidence_interval()
    print(
        f"delta method: corrected effect {delta.corrected_effect:.4f}, 95% CI "
        f"[{low:.4f}, {high:.4f}]"
    )
    print(
        f"true difference of toxic rates {truth:.4f} (in these samples: "
        f"{real_t.mean() - real_c.mean():.4f})"
    )

    import matplotlib.pyplot as plt

    rows = [
        (
            "naive:\nmetric = ground truth",
            paper.effect,
            paper.confidence_interval(deterministic=True),
        ),
        ("Goyal et al.\n(eq. 14)", paper.effect, paper.confidence_interval()),
        (
            "delta method,\ncorrected effect",
            delta.corrected_effect,
            delta.confidence_interval(),
        ),
    ]
    fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
    for i, (_, centre, ci) in enumerate(rows):
        ax.errorbar(
            centre,
            i,
            xerr=[[centre - ci.low], [ci.high - centre]],
            fmt="o",
            capsize=4,
            color=f"C{i}",
        )
    ax.axvline(0, color="gray", linestyle=":", label="no difference")
    ax.axvline(truth, color="C3", linestyle="--", label="true difference")
    # the methods name the rows on the y-axis, so no label sits on the data
    ax.set_yticks(range(len(rows)), [label for label, _, _ in rows], fontsize=8)
    ax.set_ylim(len(rows) - 0.4, -0.6)
    ax.set_xlabel("toxic rate, T - C (95% intervals)")
    fig.legend(loc="outside lower center", ncols=2, fontsize=8)
    if argv:
        fig.savefig(argv[0], dpi=120)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()
    return paper, delta


if __name__ == "__main__":
    main(sys.argv[1:])
