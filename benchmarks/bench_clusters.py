"""Time the cluster bootstrap and the cluster permutation against their floor.

Macro F1 of k = 10 classes, n items in G clusters, 9,999 resamples, from
integer label arrays and integer cluster labels:

- ``time``: the package, end to end (``groups=``: validation, encoding, each
  cluster's cells, the resamples, the result);
- ``floor``: the simplest exact numpy: each cluster's (true, predicted) table
  from one ``np.bincount`` of (cluster, cell) codes, the clusters drawn with
  ``rng.integers`` (the permutation: a coin per cluster, then the paired
  cluster bootstrap of its interval), the drawn tables as one product per
  chunk of 256 resamples, and F1 from them;
- ``ratio``: time / floor;
- ``peak MiB``: the package's peak extra memory (tracemalloc), beyond the
  inputs;
- ``items s``: the item path (``fast=False``: the metric called on the items
  of the drawn clusters) at n = 1e4 only, timed on 999 resamples and scaled
  to 9,999.

Run: python benchmarks/bench_clusters.py [--quick]   (--quick: n up to 1e5)
"""

import argparse
import functools

import numpy as np
from _timing import peak_mib, seconds

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_permutation_test,
)

R = 9999
K = 10
CHUNK = 256


def _macro_f1(tables):
    """Macro F1 over present classes of each (r, k, k) table."""
    tp = np.diagonal(tables, axis1=1, axis2=2)
    pred, true = tables.sum(axis=1), tables.sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(pred + true > 0, 2 * tp / (pred + true), 0.0)
    present = (pred + true) > 0
    return (f1 * present).sum(axis=1) / present.sum(axis=1)


def _cluster_tables(y, p, g, n_groups):
    cells = (g * K + y) * K + p
    tables = np.bincount(cells, minlength=n_groups * K * K)
    return tables.reshape(n_groups, K * K).astype(np.float64)


def floor_bootstrap(y, p, g, n_groups, rng, q=None):
    """Macro F1 of p on cluster resamples; with q, F1(q) - F1(p)."""
    tables = [_cluster_tables(y, s, g, n_groups) for s in (p, q) if s is not None]
    out = []
    for start in range(0, R, CHUNK):
        c = min(CHUNK, R - start)
        picks = rng.integers(0, n_groups, size=(c, n_groups))
        picks += (np.arange(c) * n_groups)[:, None]
        draws = np.bincount(picks.ravel(), minlength=c * n_groups)
        draws = draws.reshape(c, n_groups).astype(np.float64)
        f1 = [_macro_f1((draws @ t).reshape(c, K, K)) for t in tables]
        out.append(f1[0] if q is None else f1[1] - f1[0])
    return np.concatenate(out)


def floor_permutation(y, a, b, g, n_groups, rng):
    size = n_groups * K * K
    ta = np.bincount((g * K + y) * K + a, minlength=size).reshape(n_groups, K * K)
    tb = np.bincount((g * K + y) * K + b, minlength=size).reshape(n_groups, K * K)
    base_a, base_b = ta.sum(axis=0), tb.sum(axis=0)
    delta = (tb - ta).astype(np.float64)  # a swapped cluster moves delta from B to A
    out = []
    for start in range(0, R, CHUNK):
        c = min(CHUNK, R - start)
        moved = (rng.random((c, n_groups)) < 0.5) @ delta
        a_r, b_r = (base_a + moved), (base_b - moved)
        out.append(_macro_f1(b_r.reshape(c, K, K)) - _macro_f1(a_r.reshape(c, K, K)))
    # then the cluster bootstrap of the interval, as the package draws it
    return np.concatenate(out), floor_bootstrap(y, a, g, n_groups, rng, q=b)


def _data(n, n_groups, seed=0):
    rng = np.random.default_rng(seed)
    # clusters coded 0, ..., G - 1 (a cluster no item drew is not a cluster)
    g = np.unique(rng.integers(0, n_groups, n), return_inverse=True)[1]
    y = rng.integers(0, K, n)
    a = np.where(rng.random(n) < 0.8, y, rng.integers(0, K, n))
    b = np.where(rng.random(n) < 0.85, y, rng.integers(0, K, n))
    return g, y, a, b


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 1e5 only")
    args = parser.parse_args()
    sizes = [10**4, 10**5] if args.quick else [10**4, 10**5, 10**6]
    print(f"{R} resamples, macro F1, k = {K}, integer labels, one job\n")
    header = (
        f"{'case':<22}{'n':>9}{'G':>8}{'time s':>9}{'floor s':>9}{'ratio':>7}"
        f"{'peak MiB':>10}{'items s':>9}"
    )
    print(header)
    print("-" * len(header))
    options = dict(metric="f1_macro", n_resamples=R, random_state=0)
    g, y, a, _ = _data(1000, 50)  # warm up imports and caches
    bootstrap_confidence_interval(y, a, groups=g, n_resamples=99)
    for n in sizes:
        for n_groups in sorted({100, n // 100, n // 10}):
            g, y, a, b = _data(n, n_groups)
            n_groups = np.unique(g).size
            cases = {
                "cluster bootstrap": (
                    functools.partial(
                        bootstrap_confidence_interval, y, a, groups=g, **options
                    ),
                    functools.partial(
                        floor_bootstrap, y, a, g, n_groups, np.random.default_rng(0)
                    ),
                ),
                "cluster permutation": (
                    functools.partial(
                        paired_permutation_test, y, a, b, groups=g, **options
                    ),
                    functools.partial(
                        floor_permutation, y, a, b, g, n_groups,
                        np.random.default_rng(0),
                    ),
                ),
            }  # fmt: skip
            for label, (ours, floor) in cases.items():
                t_ours, t_floor = seconds(ours), seconds(floor)
                peak = peak_mib(ours)
                items = ""
                if n == 10**4:
                    slow = functools.partial(ours, fast=False, n_resamples=999)
                    items = f"{seconds(slow) * R / 999:.1f}"
                print(
                    f"{label:<22}{n:>9.0e}{n_groups:>8}{t_ours:>9.3f}{t_floor:>9.3f}"
                    f"{t_ours / t_floor:>7.2f}{peak:>10.1f}{items:>9}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
