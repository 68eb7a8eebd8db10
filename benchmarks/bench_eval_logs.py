"""Time the evaluation-log comparison against its anchors and its floor.

Three parts from one run:

1. ``join_runs`` of three runs of ``n`` items with three samples each (3n
   records per run, shuffled), against the anchor a pandas user writes
   (``groupby("id").mean()`` per run, then ``merge`` on the id) and the floor,
   one ``np.unique`` of the ids and a ``np.bincount`` of the scores per run.
   Peak memory of ``join_runs`` as ``n`` grows.
2. ``compare_runs`` of two runs, 0/1 scores without clusters: two sets of
   9999 resamples (the permutation null, and the paired bootstrap of the
   difference's interval) and each run's jackknife-t interval. The items
   collapse into four cells, so only the one pass that counts them grows
   with ``n``. Anchor and simplest exact computation: a numpy loop that
   draws ``n`` item indices per resample for the paired bootstrap alone
   (one of the two sets), timed up to 10,000 items.
3. The same with ``G`` clusters (the units are the clusters): time and peak
   memory against the numpy loop over cluster draws (again one set of the
   two).

Run: python benchmarks/bench_eval_logs.py [--quick]   (needs pandas)
"""

import argparse
import functools

import numpy as np
import pandas as pd
from _timing import median_time, peak_mib

from sklearn_faithful.eval_logs import compare_runs, join_runs

SEED = 0


def _logs(n, k=3, runs=("A", "B", "C"), rng=None):
    rng = np.random.default_rng(SEED) if rng is None else rng
    ids = np.repeat(np.arange(n), k)
    logs = {}
    for run in runs:
        order = rng.permutation(ids.size)
        logs[run] = {
            "id": ids[order],
            "score": (rng.random(ids.size) < 0.6).astype(np.int8),
        }
    return logs


def _pandas_join(logs):
    frames = [
        pd.DataFrame(log).groupby("id")["score"].mean().rename(run)
        for run, log in logs.items()
    ]
    out = frames[0].to_frame()
    for frame in frames[1:]:
        out = out.merge(frame, left_index=True, right_index=True)
    return out


def _floor_join(logs):
    out = []
    for log in logs.values():
        ids, inverse = np.unique(log["id"], return_inverse=True)
        out.append(np.bincount(inverse, log["score"], ids.size) / np.bincount(inverse))
    return out


def bench_join(sizes, repeat):
    print("1. join_runs, 3 runs x n items x 3 samples (shuffled), median of", repeat)
    print(
        f"{'n items':>10}{'join_runs s':>13}{'pandas s':>10}{'floor s':>9}"
        f"{'/pandas':>9}{'/floor':>8}{'peak MiB':>10}"
    )
    for n in sizes:
        logs = _logs(n)
        ours_call = functools.partial(join_runs, logs, on_duplicate="repeats")
        ours = median_time(ours_call, repeat)
        anchor = median_time(functools.partial(_pandas_join, logs), repeat)
        floor = median_time(functools.partial(_floor_join, logs), repeat)
        peak = peak_mib(ours_call)
        print(
            f"{n:>10}{ours:>13.3f}{anchor:>10.3f}{floor:>9.3f}"
            f"{ours / anchor:>9.2f}{ours / floor:>8.2f}{peak:>10.1f}"
        )


def _numpy_bootstrap(a, b, n_resamples, rng):
    n = a.size
    out = np.empty(n_resamples)
    for r in range(n_resamples):
        idx = rng.integers(0, n, n)
        out[r] = b[idx].mean() - a[idx].mean()
    return out


def _numpy_cluster_bootstrap(sums_a, sums_b, sizes, n_resamples, rng):
    g = sizes.size
    out = np.empty(n_resamples)
    for r in range(n_resamples):
        idx = rng.integers(0, g, g)
        out[r] = (sums_b[idx].sum() - sums_a[idx].sum()) / sizes[idx].sum()
    return out


def bench_compare(sizes, repeat, n_resamples=9999):
    print(
        f"\n2. compare_runs of two 0/1 runs, no clusters, {n_resamples} resamples "
        f"(permutation null + paired bootstrap; jackknife-t intervals), "
        f"median of {repeat}"
    )
    print(
        f"{'n items':>10}{'compare_runs s':>16}{'numpy loop s':>14}"
        f"{'ratio':>8}{'peak MiB':>10}"
    )
    rng = np.random.default_rng(SEED)
    for n in sizes:
        a = (rng.random(n) < 0.6).astype(np.int8)
        b = np.where(rng.random(n) < 0.1, 1 - a, a)
        runs = {"A": a, "B": b}
        call = functools.partial(
            compare_runs, runs, n_resamples=n_resamples, random_state=0
        )
        ours = median_time(call, repeat)
        peak = peak_mib(call)
        if n <= 10_000:
            loop = median_time(
                functools.partial(
                    _numpy_bootstrap, a, b, n_resamples, np.random.default_rng(0)
                ),
                1,
            )
            ratio = f"{ours / loop:>8.3f}"
            loop = f"{loop:>14.3f}"
        else:
            loop, ratio = f"{'(skipped)':>14}", f"{'':>8}"
        print(f"{n:>10}{ours:>16.3f}{loop}{ratio}{peak:>10.1f}")


def bench_clusters(settings, repeat, n_resamples=9999):
    print(
        f"\n3. compare_runs with clusters, {n_resamples} resamples, median of {repeat}"
    )
    print(
        f"{'n items':>10}{'clusters':>10}{'compare_runs s':>16}{'numpy loop s':>14}"
        f"{'ratio':>8}{'peak MiB':>10}"
    )
    rng = np.random.default_rng(SEED)
    for n, g in settings:
        groups = rng.integers(0, g, n)
        a = (rng.random(n) < 0.6).astype(float)
        b = np.where(rng.random(n) < 0.1, 1 - a, a)
        runs = {"A": a, "B": b}

        call = functools.partial(
            compare_runs, runs, groups=groups, n_resamples=n_resamples, random_state=0
        )

        ours = median_time(call, repeat)
        peak = peak_mib(call)
        sizes = np.bincount(groups, minlength=g)
        sa, sb = np.bincount(groups, a, g), np.bincount(groups, b, g)
        loop = median_time(
            functools.partial(
                _numpy_cluster_bootstrap,
                sa,
                sb,
                sizes,
                n_resamples,
                np.random.default_rng(0),
            ),
            1,
        )
        print(
            f"{n:>10}{g:>10}{ours:>16.3f}{loop:>14.3f}{ours / loop:>8.2f}{peak:>10.1f}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    bench_join(
        [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000], repeat
    )
    bench_compare([1_000, 10_000] if args.quick else [1_000, 10_000, 1_000_000], repeat)
    bench_clusters(
        [(10_000, 100)]
        if args.quick
        else [(10_000, 100), (100_000, 1_000), (1_000_000, 10_000)],
        repeat,
    )


if __name__ == "__main__":
    main()
