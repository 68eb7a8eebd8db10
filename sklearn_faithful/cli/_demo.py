"""``sklearn-faithful demo``: the package at work on data bundled with scikit-learn."""

import sys
import textwrap

from ._arguments import add_random_state

NAME = "demo"


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME, help="show the package at work on data bundled with scikit-learn"
    )
    add_random_state(p, "seed of the cross-validation splits and the data drawn")
    return p


def _demo_confidence_metrics(out, random_state):
    """Compare F1 and cF1 across cross-validation folds on the wine data."""
    import numpy as np
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    from ..metrics import get_scorer, probabilistic_confusion_matrix

    X, y = load_wine(return_X_y=True)
    models = {
        "logistic regression": make_pipeline(
            StandardScaler(), LogisticRegression(max_iter=1000)
        ),
        "gaussian naive Bayes": GaussianNB(),
        "depth-2 decision tree": DecisionTreeClassifier(
            max_depth=2, random_state=random_state
        ),
    }
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=random_state)
    scoring = {name: get_scorer(name) for name in ("f1_macro", "cf1_macro")}
    print("Confidence metrics (Yacouby & Axman 2020) on the wine data", file=out)
    print(
        f"  {X.shape[0]} samples, 3 classes, 5-fold stratified CV, "
        f"random_state={random_state}",
        file=out,
    )
    print("", file=out)
    print(f"  {'model':<24}{'F1 (macro)':>18}{'cF1 (macro)':>18}", file=out)
    for name, model in models.items():
        res = cross_validate(model, X, y, cv=cv, scoring=scoring)
        f1, cf1 = res["test_f1_macro"], res["test_cf1_macro"]
        print(
            f"  {name:<24}{f1.mean():>10.3f} ± {f1.std():.3f}"
            f"{cf1.mean():>10.3f} ± {cf1.std():.3f}",
            file=out,
        )
    print("", file=out)
    print(
        "  F1 counts only the argmax; cF1 also asks how much probability the", file=out
    )
    print("  model put on the right class. A model that hedges on its right", file=out)
    print(
        "  answers, or spreads mass over wrong classes, scores lower on cF1", file=out
    )
    print("  than on F1. Values are mean ± std over the 5 folds.", file=out)

    train, test = next(iter(cv.split(X, y)))
    model = models["gaussian naive Bayes"].fit(X[train], y[train])
    pcm = probabilistic_confusion_matrix(
        y[test], model.predict_proba(X[test]), labels=model.classes_
    )
    print("", file=out)
    print("  Probabilistic confusion matrix of naive Bayes on the first fold", file=out)
    print("  (rows: true class, columns: summed predicted probability):", file=out)
    for row in np.round(pcm, 2):
        print("   " + "".join(f"{v:>8.2f}" for v in row), file=out)


def _demo_bayes_comparison(out, random_state):
    """Compare two pipelines with the 3x2 BCV Bayes test on the cancer data."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ..comparison import BayesModelComparison

    X, y = load_breast_cancer(return_X_y=True)
    model_a = make_pipeline(StandardScaler(), GaussianNB())
    model_b = make_pipeline(StandardScaler(), LogisticRegression())
    print(
        "Bayes test of P, R and F1 (Wang & Li 2019) on the breast cancer data", file=out
    )
    print(
        f"  {X.shape[0]} samples; is B (logistic regression) better than A "
        "(naive Bayes)?",
        file=out,
    )
    for paired in (False, True):
        comp = BayesModelComparison(
            model_a,
            model_b,
            paired=paired,
            correlation="wang2015",
            rope=0.01,
            random_state=random_state,
        ).fit(X, y)
        print("", file=out)
        for line in str(comp).splitlines():
            print("  " + line, file=out)
    print("", file=out)
    from ..utils._measured import CROSSED_FALSE_CLAIMS, PAPER_FALSE_CLAIMS

    note = (
        "'at 0.95' claims only what the posterior warrants (decide(0.95)); the "
        "paper's rule picks the larger of P(H0) and P(H1), and so says 'accept "
        "H1' for about half of all pairs of equal models. The first table is "
        "the paper's test with correlation='wang2015', whose 95% F1 intervals "
        "covered 95-100% in our coverage study (the paper's default 'wang2019' "
        "covered 80-95%). The second is the paired test (paired=True), which "
        "uses that both models are scored on the same items, with its scale "
        "crossed between the partitions of a 10 x 2 BCV; its false claims of "
        f"'B better' stayed at or below {CROSSED_FALSE_CLAIMS.value} in 27 "
        f"null settings of {CROSSED_FALSE_CLAIMS.script}, against up to "
        f"{PAPER_FALSE_CLAIMS.value} for the paper's default "
        f"({PAPER_FALSE_CLAIMS.script}). Both are about models trained on half "
        "of the data. See doc/choosing.rst."
    )
    for line in textwrap.wrap(note, 70):
        print("  " + line, file=out)


def _demo_model_based(out, random_state):
    """A metric model's own errors, counted (Goyal, Hu & Gupta 2023)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from ..model_based import ModelBasedMetricTest, model_based_test_from_summary

    rng = np.random.default_rng(random_state)

    def outputs(n, rate):
        # a system's outputs as 2 features; the real label shifts the first
        y = (rng.random(n) < rate).astype(int)
        return rng.standard_normal((n, 2)) + np.c_[3.0 * y, 0 * y], y

    metric_model = LogisticRegression().fit(*outputs(1000, 0.5))
    annotated_x, annotated_y = outputs(400, 0.1)
    test = ModelBasedMetricTest(metric_model, method="goyal2023").fit(
        annotated_x, annotated_y
    )
    (x_c, y_c), (x_t, y_t) = outputs(5000, 0.10), outputs(5000, 0.12)
    res = test.test(x_c, x_t)
    print("Model-based metric test (Goyal, Hu & Gupta 2023)", file=out)
    print(
        f"  a classifier as the metric: precision {test.precision_:.3f}, FOR "
        f"{test.false_omission_rate_:.3f} on {test.n_annotated_} annotated "
        "items; real rates 0.10 and 0.12",
        file=out,
    )
    for line in res.summary().splitlines():
        print("  " + line, file=out)
    # prediction-powered inference: 300 of each system's own outputs annotated
    sample_c, sample_t = (rng.choice(5000, 300, replace=False) for _ in range(2))
    ppi = ModelBasedMetricTest(metric_model, method="ppi").test(
        x_c,
        x_t,
        annotated_c=(x_c[sample_c], y_c[sample_c]),
        annotated_t=(x_t[sample_t], y_t[sample_t]),
    )
    print("", file=out)
    print(
        "  method='ppi', with 300 of each system's own outputs annotated (the",
        file=out,
    )
    print("  method that held 93% coverage in every setting we simulated):", file=out)
    for line in ppi.summary().splitlines():
        print("  " + line, file=out)
    bold = model_based_test_from_summary(
        0.00456,
        23679,
        0.00236,
        23679,
        precision=0.8897,
        false_omission_rate=0.22769,
    )
    print("", file=out)
    print("  The paper's Table 1, BOLD row, from its summary statistics:", file=out)
    for line in bold.summary().splitlines():
        print("  " + line, file=out)


def run(args):
    """Print the three demonstrations as they run; return no payload."""
    out = sys.stdout
    _demo_confidence_metrics(out, args.random_state)
    print("", file=out)
    _demo_bayes_comparison(out, args.random_state)
    print("", file=out)
    _demo_model_based(out, args.random_state)
