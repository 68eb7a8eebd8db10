"""Time paired_bootstrap_test at n_jobs=1 and n_jobs=2, and check the results agree.

Binary F1, n = 100,000 items. The fast path (10,000 resamples of summed
counts) is quick at one job already; a metric without a fast path (here
scikit-learn's ``f1_score`` called on every resample, ``fast=False``, on
``--generic-resamples`` resamples, 2 blocks of 256 by default) is where jobs
matter. joblib's worker processes are started once before the timings, and
that start-up is printed apart. The anchor is what the machine offers at the
moment: the same calls of ``f1_score`` split by plain joblib among the jobs,
no resampling code involved. Goal: the generic metric's speedup close to the
anchor's (near the number of free cores), with results identical to
n_jobs=1.

Run: python benchmarks/bench_parallel.py
"""

import argparse
import os
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.metrics import f1_score

from sklearn_faithful.holdout import paired_bootstrap_test
from sklearn_faithful.holdout._fast_metrics import RESAMPLE_BLOCK


def _f1_calls(y, pred, count):
    for _ in range(count):
        f1_score(y, pred)


def anchor(y, pred, n_jobs, count=40):
    """Speedup of plain joblib on ``n_jobs`` tasks of ``count`` f1_score calls."""
    start = time.perf_counter()
    for _ in range(n_jobs):
        _f1_calls(y, pred, count)
    serial = time.perf_counter() - start
    start = time.perf_counter()
    Parallel(n_jobs=n_jobs)(delayed(_f1_calls)(y, pred, count) for _ in range(n_jobs))
    return serial / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=100_000)
    parser.add_argument("--n-resamples", type=int, default=10_000)
    parser.add_argument("--generic-resamples", type=int, default=2 * RESAMPLE_BLOCK)
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = args.n_samples
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.85, y, 1 - y)
    b = np.where(rng.random(n) < 0.86, y, 1 - y)

    def run(n_jobs, fast, n_resamples):
        return paired_bootstrap_test(
            y,
            a,
            b,
            metric="f1",
            n_resamples=n_resamples,
            fast=fast,
            random_state=0,
            n_jobs=n_jobs,
        )

    start = time.perf_counter()
    run(args.n_jobs, True, RESAMPLE_BLOCK * args.n_jobs)  # starts joblib's workers
    startup = time.perf_counter() - start

    print(
        f"binary F1, n_samples={n}; {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'worker start-up (once per session)':<38} {startup:8.2f} s")
    print(
        f"{f'anchor: plain joblib, {args.n_jobs} jobs of f1_score':<38} "
        f"{anchor(y, a, args.n_jobs):8.2f}x  (what the machine offers now)"
    )
    for label, fast, b_count, repeat in (
        ("fast path", True, args.n_resamples, 3),
        ("f1_score on every resample", False, args.generic_resamples, 1),
    ):
        times, results = {}, {}
        for n_jobs in (1, args.n_jobs):
            seconds = []
            for _ in range(repeat):
                start = time.perf_counter()
                results[n_jobs] = run(n_jobs, fast, b_count)
                seconds.append(time.perf_counter() - start)
            times[n_jobs] = float(np.median(seconds))
        same = np.array_equal(
            results[1].null_distribution, results[args.n_jobs].null_distribution
        ) and (results[1].pvalue == results[args.n_jobs].pvalue)
        print(f"{label}, n_resamples={b_count} (median of {repeat})")
        many = times[args.n_jobs]
        print(f"  {'n_jobs=1':<36} {times[1]:8.2f} s")
        print(f"  {f'n_jobs={args.n_jobs}':<36} {many:8.2f} s")
        print(
            f"  {'speedup':<36} {times[1] / many:8.2f}x"
            f"   identical results: {'yes' if same else 'NO'}"
        )


if __name__ == "__main__":
    main()
