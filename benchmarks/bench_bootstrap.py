"""Time the bootstrap fast path against a loop over f1_score and scipy.

Binary F1, n = 100,000 items, 10,000 resamples. The loop and
``scipy.stats.bootstrap`` call ``sklearn.metrics.f1_score`` once per resample;
they are timed on ``--loop-resamples`` resamples and scaled to 10,000 (their
cost is linear in the number of resamples). Goal: the fast path at least 20x
faster than the loop.

Run: python benchmarks/bench_bootstrap.py
"""

import argparse
import time

import numpy as np
from _timing import median_time
from scipy import stats
from sklearn.metrics import f1_score

from sklearn_faithful.holdout import bootstrap_confidence_interval


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=100_000)
    parser.add_argument("--n-resamples", type=int, default=10_000)
    parser.add_argument("--loop-resamples", type=int, default=300)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = args.n_samples
    y = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.85, y, 1 - y)

    fast = median_time(
        lambda: bootstrap_confidence_interval(
            y, pred, metric="f1", n_resamples=args.n_resamples, random_state=0
        ),
        5,
    )

    def loop():
        r = np.random.default_rng(1)
        for _ in range(args.loop_resamples):
            idx = r.integers(0, n, n)
            f1_score(y[idx], pred[idx])

    start = time.perf_counter()
    loop()
    per = (time.perf_counter() - start) / args.loop_resamples
    t_loop = per * args.n_resamples

    start = time.perf_counter()
    stats.bootstrap(
        (y, pred),
        f1_score,
        paired=True,
        vectorized=False,
        n_resamples=args.loop_resamples,
        method="percentile",
    )
    t_scipy = (time.perf_counter() - start) / args.loop_resamples * args.n_resamples

    scale = f"(scaled from {args.loop_resamples})"
    print(f"binary F1, n_samples={n}, n_resamples={args.n_resamples}")
    print(f"bootstrap_confidence_interval (fast)  {fast:8.3f} s   (median of 5)")
    print(f"loop over f1_score                    {t_loop:8.1f} s   {scale}")
    print(f"scipy.stats.bootstrap(f1_score)       {t_scipy:8.1f} s   {scale}")
    print(f"speedup vs loop                       {t_loop / fast:8.0f}x  (goal >= 20x)")
    print(f"speedup vs scipy                      {t_scipy / fast:8.0f}x")


if __name__ == "__main__":
    main()
