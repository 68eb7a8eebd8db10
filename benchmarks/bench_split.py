"""Time BlockRegularized3x2CV against RepeatedStratifiedKFold(2 x 3).

n = 1,000,000 samples, 20 classes. Prints the median time to materialize all
six (train, test) splits with each splitter, and their ratio. Goal: no slower
than scikit-learn (ratio <= 1).

Run: python benchmarks/bench_split.py [--n-samples N] [--n-classes K]
"""

import argparse

import numpy as np
from _timing import median_time
from sklearn.model_selection import RepeatedStratifiedKFold

from sklearn_faithful.model_selection import BlockRegularized3x2CV


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument("--n-classes", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    X = np.zeros((args.n_samples, 1))
    y = rng.integers(0, args.n_classes, size=args.n_samples)
    ours = BlockRegularized3x2CV(random_state=0)
    theirs = RepeatedStratifiedKFold(n_splits=2, n_repeats=3, random_state=0)

    t_ours = median_time(lambda: list(ours.split(X, y)), args.repeat)
    t_theirs = median_time(lambda: list(theirs.split(X, y)), args.repeat)
    print(
        f"n_samples={args.n_samples}, n_classes={args.n_classes}, "
        f"median of {args.repeat} runs, all 6 splits materialized"
    )
    print(f"BlockRegularized3x2CV                       {t_ours * 1e3:8.1f} ms")
    print(f"RepeatedStratifiedKFold(2, n_repeats=3)     {t_theirs * 1e3:8.1f} ms")
    print(
        f"ratio ours / sklearn                        {t_ours / t_theirs:8.2f}"
        "  (goal <= 1)"
    )


if __name__ == "__main__":
    main()
