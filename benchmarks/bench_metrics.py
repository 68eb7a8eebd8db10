"""Time cf1_score against scikit-learn's f1_score and a one-pass floor.

n = 1,000,000 samples, 10 classes. Prints the median of repeated runs of

- ``cf1_score(y, y_proba, average="macro")`` (validation included);
- ``sklearn.metrics.f1_score(y, argmax, average="macro")``, the anchor;
- the floor: one pass over ``y_proba`` (``y_proba.sum(axis=0)``);

and the ratios between them. Goal: cf1 <= 0.5x sklearn, and <= 4x the floor.

Run: python benchmarks/bench_metrics.py [--n-samples N] [--n-classes K]
"""

import argparse

import numpy as np
from _timing import median_time
from sklearn.metrics import f1_score

from sklearn_faithful.metrics import cf1_score


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument("--n-classes", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    n, k = args.n_samples, args.n_classes
    y_proba = rng.dirichlet(np.ones(k), size=n)
    y_true = rng.integers(0, k, size=n)
    y_pred = y_proba.argmax(axis=1)
    labels = np.arange(k)

    ours = median_time(
        lambda: cf1_score(y_true, y_proba, labels=labels, average="macro"),
        args.repeat,
    )
    sklearn = median_time(
        lambda: f1_score(y_true, y_pred, average="macro"), args.repeat
    )
    floor = median_time(lambda: y_proba.sum(axis=0), args.repeat)

    print(f"n_samples={n}, n_classes={k}, median of {args.repeat} runs")
    print(f"cf1_score(average='macro')          {ours * 1e3:8.1f} ms")
    print(f"sklearn f1_score(average='macro')   {sklearn * 1e3:8.1f} ms")
    print(f"floor: y_proba.sum(axis=0)          {floor * 1e3:8.1f} ms")
    print(f"ratio cf1 / sklearn f1              {ours / sklearn:8.2f}  (goal <= 0.5)")
    print(f"ratio cf1 / floor                   {ours / floor:8.2f}  (goal <= 4)")


if __name__ == "__main__":
    main()
