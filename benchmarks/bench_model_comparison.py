"""Time ModelComparison.fit against bare fits, and from_cv_results on a search.

a. ``ModelComparison(...).fit`` of 5 classifiers (logistic regression, a
   50-tree random forest, 50-stage gradient boosting, 15-NN, an RBF SVC) on ROC AUC
   over the 10 splits of its default ``BlockRegularizedMx2CV(5)``, on
   ``make_classification`` with ``--n-samples`` rows (2,000). Anchor: the same 50
   fits and scorings done by hand in a plain loop on the same splits
   (``clone``, ``fit`` on the training half, ``scorer(est, X_test,
   y_test)``), with no checks and no test. Both run with ``n_jobs=1``; the
   two are timed alternately (ABBA...), ``--repeat`` times each, so that a
   drift in the machine's load hits both. Printed: the median wall-clock and CPU
   time of each, the median of the per-round ratios fit / anchor and the
   overhead in percent (goal: at most 5%). The CPU-time ratio is the one to
   read on a busy machine. Last, the overhead alone: the same comparison of
   five ``DummyClassifier`` (whose fits cost nothing), in ms a fit and as a
   share of the anchor.

b. ``ModelComparison.from_cv_results`` on the ``cv_results_`` of a
   ``GridSearchCV`` over a 10 x 10 grid of a decision tree (100 candidates,
   10 splits), with the default ``reference="best"`` (99 tests) and with
   ``reference=None`` (all 4,950 pairs, Holm-adjusted). Printed: the median
   time of each (goal: under 50 ms for the default) and the time per test.

``--profile`` also prints cProfile's top functions of one
``ModelComparison.fit`` and of one ``from_cv_results(reference=None)``.

Run: python benchmarks/bench_model_comparison.py
"""

import argparse
import cProfile
import pstats
import time
import warnings

import numpy as np
from _timing import median_time
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison import ModelComparison
from sklearn_faithful.model_selection import BlockRegularizedMx2CV

SCORING = "roc_auc"


def models():
    return {
        "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        "forest": RandomForestClassifier(n_estimators=50, random_state=0),
        "boosting": GradientBoostingClassifier(n_estimators=50, random_state=0),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(15)),
        "svc": make_pipeline(StandardScaler(), SVC(random_state=0)),
    }


def timed(func):
    """Wall-clock and CPU seconds of one call of ``func``.

    Everything runs in this process (``n_jobs=1``), so its CPU time is the
    work done, less disturbed than the wall clock by other processes.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_fit(args):
    X, y = make_classification(
        n_samples=args.n_samples, n_features=20, n_informative=8, random_state=0
    )
    estimators = models()
    cv = BlockRegularizedMx2CV(n_repetitions=5, random_state=0)
    scorer = get_scorer(SCORING)

    def anchor():
        scores = {}
        for name, estimator in estimators.items():
            scores[name] = [
                scorer(clone(estimator).fit(X[train], y[train]), X[test], y[test])
                for train, test in cv.split(X, y)
            ]
        return scores

    def comparison():
        return ModelComparison(
            estimators, scoring=SCORING, cv=cv, n_jobs=1, random_state=0
        ).fit(X, y)

    # the same splits, fits and scorer give the same scores
    by_hand, comp = anchor(), comparison()
    gap = max(np.max(np.abs(comp.scores_[n] - by_hand[n])) for n in estimators)

    wall_anchor, wall_comp, cpu_anchor, cpu_comp = [], [], [], []
    runs = [(anchor, wall_anchor, cpu_anchor), (comparison, wall_comp, cpu_comp)]
    for _ in range(args.repeat):  # alternate, so that load drift hits both
        runs.reverse()  # and each goes first every other round
        for func, wall, cpu in runs:
            w, c = timed(func)
            wall.append(w)
            cpu.append(c)
    wall_ratios = np.array(wall_comp) / np.array(wall_anchor)
    cpu_ratios = np.array(cpu_comp) / np.array(cpu_anchor)

    # the overhead alone: the same with models that cost nothing to fit
    dummies = {f"dummy{k}": DummyClassifier() for k in range(5)}

    def dummy_anchor():
        for estimator in dummies.values():
            for train, test in cv.split(X, y):
                scorer(clone(estimator).fit(X[train], y[train]), X[test], y[test])

    def dummy_comparison():
        with warnings.catch_warnings():  # equal models: every difference is 0
            warnings.simplefilter("ignore", RuntimeWarning)
            ModelComparison(dummies, scoring=SCORING, cv=cv, n_jobs=1).fit(X, y)

    t_dummy_anchor = median_time(dummy_anchor, 3 * args.repeat)
    t_dummy_comp = median_time(dummy_comparison, 3 * args.repeat)
    per_fit = (t_dummy_comp - t_dummy_anchor) / 50

    print(
        f"a. n_samples={args.n_samples}, 5 models x 10 splits (BlockRegularizedMx2CV"
        f"(5)), scoring={SCORING!r}, n_jobs=1, {args.repeat} alternating rounds"
    )
    print(f"largest score difference, fit vs anchor   {gap:8.1e}")
    print("                                           wall (s)   CPU (s)")
    print(
        f"anchor: clone + fit + scorer, plain loop  {np.median(wall_anchor):8.3f}"
        f"  {np.median(cpu_anchor):8.3f}"
    )
    print(
        f"ModelComparison.fit                       {np.median(wall_comp):8.3f}"
        f"  {np.median(cpu_comp):8.3f}"
    )
    for what, ratios in (("wall", wall_ratios), ("CPU", cpu_ratios)):
        ratio = float(np.median(ratios))
        print(
            f"ratio fit / anchor, {what:<4} (median of rounds) {ratio:6.3f} = "
            f"{100 * (ratio - 1):+5.1f} % overhead   "
            f"(rounds: {', '.join(f'{r:.3f}' for r in ratios)})"
        )
    print(
        f"same with 5 DummyClassifiers: anchor {t_dummy_anchor * 1e3:6.1f} ms, "
        f"fit {t_dummy_comp * 1e3:6.1f} ms, {per_fit * 1e3:+.2f} ms a fit = "
        f"{100 * 50 * per_fit / np.median(wall_anchor):+.2f} % of the anchor above"
    )
    if args.profile:
        profile(comparison, "ModelComparison.fit")


def bench_from_cv_results(args):
    X, y = make_classification(n_samples=400, n_features=10, random_state=0)
    grid = {
        "max_depth": list(range(1, 11)),
        "min_samples_leaf": [1, 2, 3, 5, 8, 12, 17, 25, 35, 50],
    }
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    start = time.perf_counter()
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0), grid, cv=cv, scoring=SCORING
    ).fit(X, y)
    t_search = time.perf_counter() - start
    results = search.cv_results_
    n_train, n_test = len(y) - len(y) // 5, len(y) // 5

    # deep trees with a large min_samples_leaf stop growing before max_depth,
    # so some candidates are the same tree: the test warns of their pairs
    def best():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return ModelComparison.from_cv_results(
                results, n_train=n_train, n_test=n_test
            )

    def all_pairs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return ModelComparison.from_cv_results(
                results, n_train=n_train, n_test=n_test, reference=None
            )

    n_best, n_all = len(best().pairs_), len(all_pairs().pairs_)
    t_best = median_time(best, args.repeat_search)
    t_all = median_time(all_pairs, max(3, args.repeat_search // 4))
    print()
    print(
        f"b. GridSearchCV of a decision tree, {len(results['params'])} candidates "
        f"x 10 splits (search: {t_search:.1f} s)"
    )
    print(
        f"from_cv_results, reference='best' ({n_best:>4} tests) {t_best * 1e3:8.1f} ms"
        f"   ({t_best / n_best * 1e6:.0f} us a test)"
    )
    print(
        f"from_cv_results, reference=None   ({n_all:>4} tests) {t_all * 1e3:8.1f} ms"
        f"   ({t_all / n_all * 1e6:.0f} us a test)"
    )
    print(f"ratio None / 'best'                            {t_all / t_best:8.1f}")
    if args.profile:
        profile(all_pairs, "from_cv_results(reference=None)")


def profile(func, what, top=25):
    prof = cProfile.Profile()
    prof.enable()
    func()
    prof.disable()
    print(f"\n--- cProfile of one {what}, by total time")
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--repeat-search", type=int, default=21)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--only", choices=["fit", "search"], default=None)
    args = parser.parse_args()
    if args.only != "search":
        bench_fit(args)
    if args.only != "fit":
        bench_from_cv_results(args)


if __name__ == "__main__":
    main()
