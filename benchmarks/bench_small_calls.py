"""Time small calls against the outside libraries and plain numpy: the overhead.

Each of our calls is timed beside its anchor, the same computation without
our validation and result objects, in the same run:

a. ``bayesian_correlated_ttest`` on 10 splits (with a rope) against
   baycomp's ``CorrelatedTTest.probs`` on the same scores.
b. ``corrected_resampled_ttest`` on 10 splits against the formula in ten
   lines of numpy and scipy, as scikit-learn's gallery example "Statistical
   comparison of models using grid search" writes it, except that the
   p-value calls ``scipy.stats.t.sf`` directly: the gallery's frozen
   ``stats.t(df=...)`` alone costs more than our whole call.
c. ``ModelBasedMetricTest(method="ppi", lam=1).test_labels`` on 0/1 labels
   (``--n-outputs`` outputs and as many ``--n-annotated`` annotated items
   per system: 1,000 and 100, then 10,000 and 500; two systems, unpaired)
   against two calls of ppi_py's ``ppi_mean_ci`` (``lam=1``), one per system.
d. ``ModelComparison.from_cv_results(..., reference=None)`` on the
   ``cv_results_`` of a search with 100 candidates and 10 splits (as
   bench_model_comparison.py) against a plain loop over the 4,950 pairs that
   computes the corrected t-test of each pair as in b., then Holm's
   adjustment.

Calls are timed in ``--rounds`` alternating rounds (ours first, then the
anchor, then the reverse), each round the median of ``--calls`` calls, so
that a drift in the machine's load hits both. Printed: the median time of a
call of each, and the median over rounds of the per-round ratio ours /
anchor (goal: at most 1.5). An anchor whose library is not installed is
skipped.

Run: python benchmarks/bench_small_calls.py
"""

import argparse
import importlib.util
import time
import warnings

import numpy as np
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison import (
    ModelComparison,
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
)
from sklearn_faithful.model_based import ModelBasedMetricTest

GOAL = 1.5


def per_call(func, calls):
    """Median seconds of one call of ``func`` over ``calls`` calls."""
    times = np.empty(calls)
    for i in range(calls):
        start = time.perf_counter()
        func()
        times[i] = time.perf_counter() - start
    return float(np.median(times))


def compare(ours, anchor, rounds, calls):
    """Median per-call times of both and the median of the per-round ratios."""
    ours(), anchor()  # warm up
    t_ours, t_anchor = [], []
    for r in range(rounds):
        pair = [(ours, t_ours), (anchor, t_anchor)]
        for func, times in pair if r % 2 == 0 else pair[::-1]:
            times.append(per_call(func, calls))
    ratios = np.array(t_ours) / np.array(t_anchor)
    return float(np.median(t_ours)), float(np.median(t_anchor)), ratios


def report(what, anchor_name, times):
    t_ours, t_anchor, ratios = times
    ratio = float(np.median(ratios))
    mark = "ok" if ratio <= GOAL else "ABOVE GOAL"
    print(f"{what}")
    print(f"  ours    {t_ours * 1e6:10.1f} us")
    print(f"  {anchor_name:<7} {t_anchor * 1e6:10.1f} us")
    print(
        f"  ratio   {ratio:10.2f}   ({mark}; rounds "
        f"{min(ratios):.2f}..{max(ratios):.2f})"
    )


def skip(what, library):
    print(f"{what}\n  skipped: {library} is not installed")


def scores(seed=0, n_splits=10):
    rng = np.random.default_rng(seed)
    a = 0.80 + 0.02 * rng.standard_normal(n_splits)
    return a, a + 0.01 + 0.01 * rng.standard_normal(n_splits)


def corrected_t_by_hand(d, n_train, n_test):
    """The gallery's corrected t-test: ten lines of numpy and scipy."""
    n = d.shape[0]
    mean = np.mean(d)
    var = np.var(d, ddof=1)
    corrected_var = var * (1 / n + n_test / n_train)
    t_stat = mean / np.sqrt(corrected_var)
    p_val = 2 * stats.t.sf(np.abs(t_stat), n - 1)
    return t_stat, p_val


def bench_bayesian(args):
    what = "a. bayesian_correlated_ttest, 10 splits, rope=0.01"
    if importlib.util.find_spec("baycomp") is None:
        return skip(what, "baycomp")
    import baycomp

    a, b = scores()

    def ours():
        bayesian_correlated_ttest(a, b, n_train=90, n_test=10, rope=0.01)

    def anchor():
        baycomp.CorrelatedTTest.probs(a, b, rope=0.01, runs=1)

    report(what, "baycomp", compare(ours, anchor, args.rounds, args.calls))


def bench_corrected(args):
    what = "b. corrected_resampled_ttest, 10 splits"
    a, b = scores()

    def ours():
        corrected_resampled_ttest(a, b, n_train=90, n_test=10)

    def anchor():
        corrected_t_by_hand(b - a, 90, 10)

    report(what, "numpy", compare(ours, anchor, args.rounds, args.calls))


def bench_ppi(args):
    for n, m in zip(args.n_outputs, args.n_annotated, strict=True):
        bench_ppi_one(args, n, m)


def bench_ppi_one(args, n, m):
    what = (
        f"c. ModelBasedMetricTest(method='ppi', lam=1).test_labels, "
        f"{n} outputs + {m} annotated per system"
    )
    if importlib.util.find_spec("ppi_py") is None:
        return skip(what, "ppi_py")
    import ppi_py

    rng = np.random.default_rng(0)
    outputs = [(rng.random(n) < p).astype(np.int64) for p in (0.3, 0.35)]
    annotated = []
    for p in (0.3, 0.35):
        pred = (rng.random(m) < p).astype(np.int64)
        real = np.where(rng.random(m) < 0.85, pred, 1 - pred)
        annotated.append((pred, real))
    test = ModelBasedMetricTest(None, method="ppi", lam=1.0)

    def ours():
        test.test_labels(
            outputs[0], outputs[1], annotated_c=annotated[0], annotated_t=annotated[1]
        )

    floats = [
        (real.astype(float), pred.astype(float), out.astype(float))
        for out, (pred, real) in zip(outputs, annotated, strict=True)
    ]

    def anchor():
        for real, pred, out in floats:
            ppi_py.ppi_mean_ci(real, pred, out, alpha=0.05, lam=1.0)

    report(what, "ppi_py", compare(ours, anchor, args.rounds, args.calls))


def bench_all_pairs(args):
    X, y = make_classification(n_samples=400, n_features=10, random_state=0)
    grid = {
        "max_depth": list(range(1, 11)),
        "min_samples_leaf": [1, 2, 3, 5, 8, 12, 17, 25, 35, 50],
    }
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0), grid, cv=cv, scoring="roc_auc"
    ).fit(X, y)
    results = search.cv_results_
    n_train, n_test = len(y) - len(y) // 5, len(y) // 5
    k = len(results["params"])
    what = (
        f"d. from_cv_results(reference=None), {k} candidates, {k * (k - 1) // 2} pairs"
    )
    table = np.column_stack([results[f"split{s}_test_score"] for s in range(10)])

    def ours():
        # deep trees with a large min_samples_leaf are the same tree
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            ModelComparison.from_cv_results(
                results, n_train=n_train, n_test=n_test, reference=None
            )

    def anchor():
        pvalues = []
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(k):
                for j in range(i + 1, k):
                    pvalues.append(
                        corrected_t_by_hand(table[j] - table[i], n_train, n_test)[1]
                    )
        # Holm: p_(i) (m - i + 1), running maximum, capped at 1
        p = np.asarray(pvalues)
        order = np.argsort(p)
        adjusted = np.maximum.accumulate(p[order] * (p.size - np.arange(p.size)))
        out = np.empty_like(adjusted)
        out[order] = np.minimum(adjusted, 1.0)
        return out

    rounds, calls = max(3, args.rounds // 2), max(3, args.calls // 50)
    report(what, "loop", compare(ours, anchor, rounds, calls))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--n-outputs", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--n-annotated", type=int, nargs="+", default=[100, 500])
    parser.add_argument(
        "--only", choices=["bayesian", "corrected", "ppi", "pairs"], default=None
    )
    args = parser.parse_args()
    print(
        f"median per call; {args.rounds} alternating rounds of {args.calls} calls "
        f"(d: fewer); goal ratio <= {GOAL}\n"
    )
    benches = {
        "bayesian": bench_bayesian,
        "corrected": bench_corrected,
        "ppi": bench_ppi,
        "pairs": bench_all_pairs,
    }
    for name, bench in benches.items():
        if args.only in (None, name):
            bench(args)


if __name__ == "__main__":
    main()
