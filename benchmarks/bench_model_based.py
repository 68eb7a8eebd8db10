"""Time ModelBasedMetricTest on 10^6 precomputed labels per system, paired.

Anchor: a plain numpy mean and variance of the same two label arrays (and of
their difference), the least any test of two rates must do. Goal: within 3x.

Run: python benchmarks/bench_model_based.py [--n-samples N]
"""

import argparse

import numpy as np
from _timing import median_time

from sklearn_faithful.model_based import ModelBasedMetricTest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = args.n_samples
    labels_c = (rng.random(n) < 0.05).astype(np.int64)
    labels_t = np.where(rng.random(n) < 0.8, labels_c, rng.random(n) < 0.06)
    labels_t = labels_t.astype(np.int64)
    test = ModelBasedMetricTest.from_rates(0.8897, 0.22769, paired=True)

    def ours():
        test.test_labels(labels_c, labels_t)

    def floor():
        for arr in (labels_c, labels_t, labels_t - labels_c):
            arr.mean()
            arr.var(ddof=1)

    t_ours = median_time(ours, args.repeat)
    t_floor = median_time(floor, args.repeat)
    print(f"n_samples={n} per system, paired, median of {args.repeat} runs")
    print(f"ModelBasedMetricTest.test_labels      {1e3 * t_ours:7.2f} ms")
    print(f"numpy mean + var (C, T, T - C)        {1e3 * t_floor:7.2f} ms")
    print(f"ratio ours / numpy                    {t_ours / t_floor:7.2f}  (goal <= 3)")


if __name__ == "__main__":
    main()
