"""Time BayesModelComparison.from_cross_validate against fit and its anchor.

``from_cross_validate`` reuses the models that two ``cross_validate(...,
return_indices=True, return_estimator=True)`` runs kept: it only predicts
their test sets and counts. Anchor: the same predictions made directly
(``estimator.predict`` on each test set and scikit-learn's
``confusion_matrix``), with no checks and no test. Printed: the median time
of each, the ratio from_cross_validate / anchor (goal: close to 1, the test
itself is cheap) and fit / from_cross_validate (what the reuse saves), on a
data set of ``--n-samples`` rows with a random forest, whose fits dominate.

Run: python benchmarks/bench_cv_results.py
"""

import argparse

from _timing import median_time
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import cross_validate

from sklearn_faithful.comparison import BayesModelComparison
from sklearn_faithful.model_selection import BlockRegularized3x2CV


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    X, y = make_classification(n_samples=args.n_samples, random_state=0)
    a = LogisticRegression(max_iter=1000)
    b = RandomForestClassifier(n_estimators=50, random_state=0)
    cv = BlockRegularized3x2CV(random_state=0)
    kw = dict(cv=cv, return_indices=True, return_estimator=True)
    results = {"lr": cross_validate(a, X, y, **kw), "rf": cross_validate(b, X, y, **kw)}

    def anchor():
        for res in results.values():
            for est, test in zip(res["estimator"], res["indices"]["test"], strict=True):
                confusion_matrix(y[test], est.predict(X[test]))

    def reuse():
        BayesModelComparison.from_cross_validate(results, X, y)

    def refit():
        BayesModelComparison(a, b, cv=cv).fit(X, y)

    t_anchor = median_time(anchor, args.repeat)
    t_reuse = median_time(reuse, args.repeat)
    t_fit = median_time(refit, 1)
    print(
        f"n_samples={args.n_samples}, 6 splits, LogisticRegression vs a 50-tree forest"
    )
    print(f"anchor: predict + confusion_matrix      {t_anchor * 1e3:8.1f} ms")
    print(f"from_cross_validate (paired test)       {t_reuse * 1e3:8.1f} ms")
    print(f"fit (refits all 12 models)              {t_fit * 1e3:8.1f} ms")
    print(f"ratio from_cross_validate / anchor      {t_reuse / t_anchor:8.2f}")
    print(f"ratio fit / from_cross_validate         {t_fit / t_reuse:8.1f}")


if __name__ == "__main__":
    main()
