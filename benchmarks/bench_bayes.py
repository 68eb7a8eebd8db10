"""Time the Bayes test and BayesModelComparison against their anchors.

Three ratios from one run:

1. exact ``bayes_test`` (quadrature) against the paper's Monte Carlo with 10^6
   draws per posterior, on the paper's own ORG counts (Table 5), per metric.
   Goal: exact under 20 ms per metric.
2. ``BayesModelComparison`` (3x2 BCV: 12 fits, then the test of P, R and F1)
   against mlxtend's ``paired_ttest_5x2cv`` (5x2 CV: 20 fits), same estimators
   and data, ``n_jobs=1``. Goal: at most 0.65x mlxtend's wall time.
3. ``BayesModelComparison`` at ``n_jobs=2`` against ``n_jobs=1``, with
   estimators slow enough for parallelism to matter. Goal: speedup >= 1.6x.

Run: python benchmarks/bench_bayes.py   (needs: pip install 'sklearn-faithful[bench]')
"""

import argparse
import sys
from pathlib import Path

from _timing import median_time
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.comparison import (
    BayesModelComparison,
    bayes_test,
    counts_from_triples,
)

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from _wang2019_data import CWS, ORG  # noqa: E402


def bench_test(repeat):
    for task, triples in (("ORG", ORG), ("CWS", CWS)):
        _bench_task(task, triples, repeat)


def _bench_task(task, triples, repeat):
    a, b = (counts_from_triples(t) for t in triples)
    n_chunks = int(a[:, 0].sum())
    print(
        f"1. bayes_test on the paper's {task} counts ({n_chunks} true positives "
        f"over 6 splits), median of {repeat}"
    )
    for metric in ("precision", "recall", "f1"):
        exact = median_time(lambda m=metric: bayes_test(a, b, metric=m), repeat)
        mc = median_time(
            lambda m=metric: bayes_test(
                a, b, metric=m, method="monte-carlo", random_state=0
            ),
            repeat,
        )
        print(
            f"   {metric:<10} exact {1e3 * exact:7.1f} ms   monte-carlo 1e6 "
            f"{1e3 * mc:7.1f} ms   ratio {exact / mc:.3f}  (goal: exact < 20 ms)"
        )


def bench_mlxtend(repeat):
    try:
        from mlxtend.evaluate import paired_ttest_5x2cv
    except ImportError:
        print("2. skipped: mlxtend is not installed (pip install mlxtend)")
        return
    X, y = make_classification(
        n_samples=4000, n_features=30, n_informative=10, random_state=0
    )
    est_a = make_pipeline(StandardScaler(), LogisticRegression())
    est_b = RandomForestClassifier(n_estimators=60, random_state=0, n_jobs=1)

    def ours():
        BayesModelComparison(est_a, est_b, random_state=0, n_jobs=1).fit(X, y)

    def theirs():
        paired_ttest_5x2cv(est_a, est_b, X, y, random_seed=0)

    t_ours = median_time(ours, repeat)
    t_theirs = median_time(theirs, repeat)
    print(f"2. n_samples=4000, LR pipeline vs random forest, median of {repeat}")
    print(f"   BayesModelComparison (12 fits)     {t_ours:7.2f} s")
    print(f"   mlxtend paired_ttest_5x2cv (20)    {t_theirs:7.2f} s")
    print(
        f"   ratio ours / mlxtend            {t_ours / t_theirs:7.2f}  (goal <= 0.65)"
    )


def bench_parallel(repeat):
    X, y = make_classification(
        n_samples=4000, n_features=40, n_informative=15, random_state=1
    )
    est_a = RandomForestClassifier(n_estimators=50, random_state=0, n_jobs=1)
    est_b = RandomForestClassifier(
        n_estimators=50, max_features=0.5, random_state=0, n_jobs=1
    )

    def run(n_jobs):
        BayesModelComparison(est_a, est_b, random_state=0, n_jobs=n_jobs).fit(X, y)

    run(2)  # start the worker processes once
    t1 = median_time(lambda: run(1), repeat)
    t2 = median_time(lambda: run(2), repeat)
    print(f"3. two random forests, n_samples=4000, median of {repeat}")
    print(
        f"   n_jobs=1 {t1:7.2f} s   n_jobs=2 {t2:7.2f} s   speedup {t1 / t2:.2f}"
        "  (goal >= 1.6)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bench_test(max(args.repeat, 5))
    bench_mlxtend(args.repeat)
    bench_parallel(args.repeat)


if __name__ == "__main__":
    main()
