"""Time the table engine end to end against its floor, ten lines of numpy.

For bootstrap F1 (binary at k = 2, macro at k = 2 and 10), the paired
bootstrap and the paired permutation test of macro F1, with n items and
9,999 resamples, from integer label arrays:

- ``time``: the package, end to end (validation, encoding, the table, the
  resamples, the result);
- ``floor``: ``np.bincount`` to find the labels present, ``np.bincount`` of
  the combined codes to count the table, multinomial draws of the table
  (binomial swaps of its discordant cells for the permutation test, followed
  by the bootstrap of its interval), and the metric from the drawn tables;
- ``ratio``: time / floor (target: within 2x);
- ``peak MiB``: the package's peak extra memory (tracemalloc), beyond the
  inputs;
- ``bca/pct``: BCa time over percentile time for the bootstrap rows (target:
  within 1.5x).

Run: python benchmarks/bench_tables.py [--quick]   (--quick: n up to 1e6)
"""

import argparse
import functools
import time
import tracemalloc

import numpy as np

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)

R = 9999


def _f1(tables, binary):
    """F1 of each (R, k, k) table: binary (class 1) or macro over present classes."""
    tp = np.diagonal(tables, axis1=1, axis2=2)
    pred, true = tables.sum(axis=1), tables.sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(pred + true > 0, 2 * tp / (pred + true), 0.0)
    if binary:
        return f1[:, 1]
    present = (pred + true) > 0
    return (f1 * present).sum(axis=1) / present.sum(axis=1)


def _table(k, *labels):
    """The floor's encoding and table: one bincount each."""
    present = np.zeros(k, dtype=bool)
    for y in labels:
        present |= np.bincount(y, minlength=k) > 0
    cell = labels[0] * k
    for y in labels[1:]:
        cell = (cell + y) * k if y is not labels[-1] else cell + y
    return np.bincount(cell, minlength=k ** len(labels)).astype(np.float64)


def floor_bootstrap(y, p, k, binary, rng):
    table = _table(k, y, p)
    n = table.sum()
    draws = rng.multinomial(n, table / n, size=R).reshape(R, k, k)
    return _f1(draws, binary)


def floor_paired_bootstrap(y, a, b, k, rng):
    table = _table(k, y, a, b)
    n = table.sum()
    draws = rng.multinomial(n, table / n, size=R).reshape(R, k, k, k)
    return _f1(draws.sum(axis=3), False) - _f1(draws.sum(axis=2), False)


def floor_paired_permutation(y, a, b, k, rng):
    table = _table(k, y, a, b)
    t, ca, cb = np.unravel_index(np.arange(k**3), (k, k, k))
    movable = np.flatnonzero((ca != cb) & (table > 0))
    swaps = rng.binomial(table[movable].astype(np.int64), 0.5, size=(R, movable.size))
    # a swapped item of cell (t, a, b) moves A's count from (t, a) to (t, b)
    delta = np.zeros((movable.size, k * k))
    np.add.at(delta, (np.arange(movable.size), t[movable] * k + cb[movable]), 1)
    np.add.at(delta, (np.arange(movable.size), t[movable] * k + ca[movable]), -1)
    tab = table.reshape(k, k, k)
    moved = (swaps @ delta).reshape(R, k, k)
    null = _f1(tab.sum(axis=1) - moved, False) - _f1(tab.sum(axis=2) + moved, False)
    return null, floor_paired_bootstrap(y, a, b, k, rng)


def _time(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def _peak_mib(func):
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _data(n, k, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.85, y, rng.integers(0, k, n))
    return y, a, b


def _calls(what, k, y, a, b):
    """The package's call and the floor's, for one case."""
    options = dict(n_resamples=R, random_state=0)
    floor_rng = np.random.default_rng(0)
    if what == "paired_bootstrap":
        ours = functools.partial(
            paired_bootstrap_test, y, a, b, metric="f1_macro", **options
        )
        floor = functools.partial(floor_paired_bootstrap, y, a, b, k, floor_rng)
    elif what == "paired_permutation":
        ours = functools.partial(
            paired_permutation_test, y, a, b, metric="f1_macro", **options
        )
        floor = functools.partial(floor_paired_permutation, y, a, b, k, floor_rng)
    else:
        ours = functools.partial(
            bootstrap_confidence_interval, y, a, metric=what, **options
        )
        floor = functools.partial(floor_bootstrap, y, a, k, what == "f1", floor_rng)
    return ours, floor


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 1e6 only")
    args = parser.parse_args()
    sizes = [10**4, 10**6] if args.quick else [10**4, 10**6, 10**7]
    cases = [
        ("bootstrap F1 binary", 2, "f1"),
        ("bootstrap F1 macro", 2, "f1_macro"),
        ("bootstrap F1 macro", 10, "f1_macro"),
        ("paired bootstrap macro F1", 10, "paired_bootstrap"),
        ("paired permutation macro F1", 10, "paired_permutation"),
    ]
    print(f"{R} resamples, integer labels, one job\n")
    header = (
        f"{'case':<30}{'k':>4}{'n':>10}{'time s':>9}{'floor s':>9}{'ratio':>7}"
        f"{'peak MiB':>10}{'bca/pct':>9}"
    )
    print(header)
    print("-" * len(header))
    for call in _calls("f1", 2, *_data(100, 2)):  # warm up imports and caches
        call()
    for n in sizes:
        for label, k, what in cases:
            y, a, b = _data(n, k)
            ours, floor = _calls(what, k, y, a, b)
            t_ours, t_floor = _time(ours), _time(floor)
            peak = _peak_mib(ours)
            bca = ""
            if what.startswith("f1"):
                t_bca = _time(functools.partial(ours, method="bca"))
                bca = f"{t_bca / t_ours:.2f}"
            print(
                f"{label:<30}{k:>4}{n:>10.0e}{t_ours:>9.3f}{t_floor:>9.3f}"
                f"{t_ours / t_floor:>7.2f}{peak:>10.1f}{bca:>9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
