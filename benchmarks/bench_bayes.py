"""Time the Bayes test and BayesModelComparison against their anchors.

Three ratios from one run:

1. exact ``bayes_test`` (quadrature) against the paper's Monte Carlo with 10^6
   draws per posterior, on the paper's own ORG counts (Table 5), per metric.
   Goal: exact under 20 ms per metric.
2. ``BayesModelComparison`` (its default, the crossed variance on a 10 x 2
   BCV: 40 fits, then the test of P, R and F1; the paper's 3x2 BCV, 12
   fits; a 5 x 2 BCV, 20 fits) against mlxtend's ``paired_ttest_5x2cv`` (5x2
   CV: 20 fits), same estimators and data, ``n_jobs=1``. Goals: the same
   design at most 1.05x mlxtend's wall time, and every design at most 1.05x
   mlxtend's time per fit (the default: 2.1x for twice the fits).
3. ``BayesModelComparison`` at ``n_jobs=2`` against ``n_jobs=1``, with
   estimators slow enough for parallelism to matter. Goal: speedup >= 1.6x.
4. The paired test's step after the fits, at 10^6 items on a 10 x 2 BCV:
   the crossed and the design-based scales (the items' influences) against
   the split-based one (counts only) and against the floor, one bincount of
   the joint (truth, A, B) cells per split. Peak memory of the item steps.

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
    paired_bayes_test,
)
from sklearn_faithful.model_selection import BlockRegularizedMx2CV

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "comparison"))
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

    def ours(**kw):
        BayesModelComparison(est_a, est_b, random_state=0, n_jobs=1, **kw).fit(X, y)

    def theirs():
        paired_ttest_5x2cv(est_a, est_b, X, y, random_seed=0)

    t_ours = median_time(ours, repeat)
    t_three = median_time(lambda: ours(variance="splits"), repeat)
    five = BlockRegularizedMx2CV(5)
    t_five = median_time(lambda: ours(cv=five, variance="splits"), repeat)
    t_theirs = median_time(theirs, repeat)
    print(f"2. n_samples=4000, LR pipeline vs random forest, median of {repeat}")
    print(f"   BayesModelComparison, default 10x2 (40 fits) {t_ours:7.2f} s")
    print(f"   BayesModelComparison, 3x2 (12 fits)          {t_three:7.2f} s")
    print(f"   BayesModelComparison, 5x2 (20 fits)          {t_five:7.2f} s")
    print(f"   mlxtend paired_ttest_5x2cv (20)              {t_theirs:7.2f} s")
    print(f"   ratio default / mlxtend     {t_ours / t_theirs:7.2f}  (goal <= 2.1)")
    print(f"   ratio 3x2 / mlxtend         {t_three / t_theirs:7.2f}  (goal <= 0.63)")
    print(f"   ratio same design / mlxtend {t_five / t_theirs:7.2f}  (goal <= 1.05)")


def bench_design_step(repeat, n=1_000_000):
    import tracemalloc

    import numpy as np

    from sklearn_faithful.comparison._counts import _one_vs_rest_counts
    from sklearn_faithful.comparison._paired import _paired_design_test

    rng = np.random.default_rng(0)
    truth = (rng.random(n) < 0.3).astype(np.intp)
    cv = BlockRegularizedMx2CV(10, random_state=0)
    tests = [test for _, test in cv.split(truth)]
    flip = [(rng.random((2, t.size)) < [[0.2], [0.15]]) for t in tests]
    preds_a = [
        np.where(f[0], 1 - truth[t], truth[t]) for t, f in zip(tests, flip, strict=True)
    ]
    preds_b = [
        np.where(f[1], 1 - truth[t], truth[t]) for t, f in zip(tests, flip, strict=True)
    ]
    counts = [
        np.array(
            [
                _one_vs_rest_counts(truth[t], p, 2)
                for t, p in zip(tests, ps, strict=True)
            ]
        )
        for ps in (preds_a, preds_b)
    ]
    kw = dict(pos=1, metric="f1", average="binary", rope=0.0, confidence_level=0.95)

    def design():
        _paired_design_test(
            truth, preds_a, preds_b, tests, *counts, None, variance="design", **kw
        )

    def crossed():
        _paired_design_test(
            truth, preds_a, preds_b, tests, *counts, None, variance="crossed", **kw
        )

    def splits():
        paired_bayes_test(counts[0][:, 1], counts[1][:, 1], metric="f1")

    def floor():  # the joint cells of every split: what any item-level rule reads
        for t, pa, pb in zip(tests, preds_a, preds_b, strict=True):
            np.bincount(4 * truth[t] + 2 * pa + pb, minlength=8)

    t_splits = median_time(splits, repeat)
    t_floor = median_time(floor, repeat)
    print(
        f"4. the paired test's step at n = {n:,} items, 10 x 2 BCV, median of {repeat}"
    )
    for name, step in (("crossed", crossed), ("design", design)):
        t_step = median_time(step, repeat)
        tracemalloc.start()
        step()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"   variance={name!r:10} {1e3 * t_step:8.1f} ms   peak "
            f"{peak / 2**20:6.1f} MiB   ratio / floor {t_step / t_floor:6.2f}"
        )
    print(f"   variance='splits'    {1e3 * t_splits:8.1f} ms")
    print(f"   floor (20 bincounts of the joint cells) {1e3 * t_floor:8.1f} ms")


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
    bench_design_step(max(args.repeat, 5))


if __name__ == "__main__":
    main()
