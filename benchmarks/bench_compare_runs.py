"""Time compare_runs against a numpy floor that does the same resampling work.

:func:`~sklearn_faithful.eval_logs.compare_runs` with its defaults
(``method="permutation"``, ``interval="jackknife-bm"``, Holm's correction)
on ``K`` runs of ``n`` items, without and with clusters (about ten items a
cluster, of unequal sizes), for three kinds of scores:

- ``binary``: 0/1 scores;
- ``ratings``: a judge's integer ratings 1-10;
- ``floats``: continuous scores, every item's pair of scores distinct.

The floor does, in the simplest vectorised numpy, what the defaults compute:
each run's Student's t interval of its mean (with clusters, the
delete-one-cluster jackknife standard error on ``G - 1`` degrees of freedom),
and for each of the ``K (K - 1) / 2`` pairs, on the item (cluster) sums of
the differences ``d = B - A``: ``n_resamples`` sign flips as a ``(B, n)``
matrix of +-1 times ``d`` (chunked), ``n_resamples`` bootstrap resamples by
index draws ``d[idx].mean(axis=1)`` (chunked; with clusters the sums of the
drawn clusters' differences over their items), the two-sided p-value, the
percentile interval, and Holm's adjustment. Chunks hold at most 32 MiB, as
the package's do.

``n_resamples`` is 9,999 (the default) where the floor's work fits, and
fewer for the largest cells (so that ``pairs x n x n_resamples`` stays
near 3 x 10^7; never below 49): both sides draw the same number, and the ratio
is what is measured. Times are one call each (seconds),
the median of 5 calls where one takes under a second; ``peak MiB`` is the
package's tracemalloc peak during a call with 256 resamples (one block: the
peak is set by the chunk, not by the number of resamples).

Run: python benchmarks/bench_compare_runs.py [--quick]
"""

import argparse
import itertools
import os
import warnings

import numpy as np
from _timing import median_time, peak_mib, seconds
from scipy.special import stdtrit

from sklearn_faithful.eval_logs import compare_runs

SEED = 0
BUDGET = 3e7  # pairs x items x resamples of one cell
CHUNK_BYTES = 32 * 2**20


def _scores(kind, k, n, seed=SEED):
    """``(n, k)`` scores of ``k`` runs on ``n`` items of varied difficulty."""
    rng = np.random.default_rng(seed)
    ease = rng.normal(0, 1, n)[:, None]
    shift = np.linspace(0, 0.15, k)[None, :]
    if kind == "binary":
        p = 1 / (1 + np.exp(-(ease + shift + 0.5)))
        return (rng.random((n, k)) < p).astype(np.float64)
    latent = 5.5 + 2 * ease + 4 * shift + rng.normal(0, 1.5, (n, k))
    if kind == "ratings":
        return np.clip(np.rint(latent), 1, 10)
    return latent


def _groups(n, seed=SEED):
    """Clusters of unequal sizes, about ten items each."""
    return np.random.default_rng(seed + 1).integers(0, max(n // 10, 2), n)


def _chunks(total, rows):
    full, rest = divmod(total, rows)
    return [rows] * full + ([rest] if rest else [])


def _holm(p):
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])
    out = np.empty(p.size)
    out[order] = np.maximum.accumulate(stepped)
    return out


def floor(scores, groups, n_resamples, level=0.95, seed=SEED):
    """The same resampling work as compare_runs' defaults, in plain numpy."""
    rng = np.random.default_rng(seed)
    n, k = scores.shape
    if groups is None:
        sizes, sums = np.ones(n), scores
    else:
        codes = np.unique(groups, return_inverse=True)[1]
        sizes = np.bincount(codes).astype(np.float64)
        sums = np.column_stack(
            [np.bincount(codes, weights=scores[:, j]) for j in range(k)]
        )
    m = sizes.size
    # each run's interval: the jackknife (t) interval of its mean
    loo = (sums.sum(axis=0) - sums) / (n - sizes)[:, None]
    se = np.sqrt((m - 1) / m * ((loo - loo.mean(axis=0)) ** 2).sum(axis=0))
    mean = sums.sum(axis=0) / n
    half = stdtrit(m - 1, 0.5 + level / 2) * se
    runs = np.column_stack([mean, mean - half, mean + half])
    rows = max(1, CHUNK_BYTES // (8 * m))
    alpha = (1 - level) / 2
    pairs = []
    for a, b in itertools.combinations(range(k), 2):
        d = sums[:, b] - sums[:, a]
        statistic = d.sum() / n
        null = np.concatenate(
            [
                np.where(rng.random((c, m)) < 0.5, -1.0, 1.0) @ d / n
                for c in _chunks(n_resamples, rows)
            ]
        )
        boot = []
        for c in _chunks(n_resamples, rows):
            idx = rng.integers(0, m, (c, m))
            if groups is None:
                boot.append(d[idx].mean(axis=1))
            else:
                boot.append(d[idx].sum(axis=1) / sizes[idx].sum(axis=1))
        boot = np.concatenate(boot)
        pvalue = (np.sum(np.abs(null) >= abs(statistic)) + 1) / (n_resamples + 1)
        low, high = np.quantile(boot, [alpha, 1 - alpha])
        pairs.append((statistic, low, high, pvalue))
    pairs = np.array(pairs)
    return runs, pairs, _holm(pairs[:, 3])


def _resamples(k, n):
    pairs = k * (k - 1) // 2
    return int(min(9999, max(49, round(BUDGET / (pairs * n)))))


def _timed(func):
    """Seconds of one call; the median of 5 when a call is under a second
    (a single short call on a shared machine is mostly noise)."""
    once = seconds(func)
    return once if once >= 1 else median_time(func, 5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="K = 3, 5 and n = 10^3, 10^4 only"
    )
    args = parser.parse_args()
    ks = (3, 5) if args.quick else (3, 5, 10)
    ns = (10**3, 10**4) if args.quick else (10**3, 10**4, 10**5)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "compare_runs (defaults: permutation test, jackknife-bm intervals, Holm)\n"
        "against the numpy floor (sign flips as a +-1 matrix product, bootstrap\n"
        "by index draws, per pair); B = resamples of each test and interval\n"
        "(9999 unless pairs x n x B would pass 3 x 10^7), one call each\n"
        "(the median of 5 where a call takes under a second)"
    )
    header = (
        f"{'scores':>8} {'clusters':>8} {'K':>3} {'n':>7} {'B':>5} "
        f"{'package s':>9} {'floor s':>8} {'ratio':>6} {'peak MiB':>8}"
    )
    print(header)
    worst = 0.0
    for kind, clustered, k, n in itertools.product(
        ("binary", "ratings", "floats"), (False, True), ks, ns
    ):
        scores = _scores(kind, k, n)
        groups = _groups(n) if clustered else None
        runs = {f"run{j}": scores[:, j] for j in range(k)}
        b = _resamples(k, n)

        def package(n_resamples=b, runs=runs, groups=groups):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # few or unequal clusters
                compare_runs(
                    runs, groups=groups, n_resamples=n_resamples, random_state=SEED
                )

        t_package = _timed(package)
        t_floor = _timed(lambda s=scores, g=groups, b=b: floor(s, g, b))
        peak = peak_mib(lambda: package(n_resamples=256))
        ratio = t_package / t_floor
        worst = max(worst, ratio)
        print(
            f"{kind:>8} {'yes' if clustered else 'no':>8} {k:>3} {n:>7} {b:>5} "
            f"{t_package:>9.2f} {t_floor:>8.2f} {ratio:>6.2f} {peak:>8.1f}",
            flush=True,
        )
    print(f"largest ratio: {worst:.2f}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
