"""Time the table functions' small calls: the fixed cost of a call, and binary F1.

Two parts, each in one run:

1. ``fixed cost``: the median time of one call of each table function on
   integer labels (binary, 80% and 85% right) of n = 10**2, 10**3 and 10**4
   items, with 99 and with 9,999 resamples. At 99 resamples the call is
   nearly all fixed cost (validation, encoding, the statistic, the result);
   target: under 2 ms at n <= 10**4 with few resamples.
2. ``binary F1``: ``bootstrap_confidence_interval(metric="f1")`` with 9,999
   resamples at n = 10**3, 10**4 and 10**5 against its floor, ten lines of
   numpy (``benchmarks/bench_tables.py``'s ``floor_bootstrap``: bincount of
   the table, multinomial draws of its cells in blocks of 256, F1 of each
   drawn table), alternating the two calls; target: ratio <= 1.5.

Printed: the machine's load before and after, and each median in ms.

Run: python benchmarks/bench_table_calls.py [--calls 30]
"""

import argparse
import functools
import os
import warnings

import numpy as np
from _timing import median_time
from bench_tables import floor_bootstrap

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
    cochrans_q_test,
    kappa_confidence_interval,
    mcnemar_test,
    paired_bootstrap_test,
    paired_bootstrap_test_from_table,
    paired_permutation_test,
    paired_permutation_test_from_table,
    sign_test,
    sign_test_from_table,
)

GOAL_MS = 2.0
GOAL_RATIO = 1.5


def _load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.85, y, 1 - y)
    return y, a, b


def median_ms(func, calls):
    """Median milliseconds of one call of ``func`` over ``calls`` calls."""
    return 1e3 * median_time(func, calls)


def _cases(y, a, b):
    """``(name, call(n_resamples))`` of each table function on these labels."""
    table2 = np.zeros((2, 2), dtype=np.int64)
    np.add.at(table2, (y, a), 1)
    table3 = np.zeros((2, 2, 2), dtype=np.int64)
    np.add.at(table3, (y, a, b), 1)
    seeded = dict(random_state=0)
    return [
        (
            "bootstrap_confidence_interval f1",
            lambda r: bootstrap_confidence_interval(
                y, a, metric="f1", n_resamples=r, **seeded
            ),
        ),
        (
            "bootstrap_confidence_interval accuracy",
            lambda r: bootstrap_confidence_interval(y, a, n_resamples=r, **seeded),
        ),
        (
            "bootstrap_confidence_interval f1 bca",
            lambda r: bootstrap_confidence_interval(
                y, a, metric="f1", method="bca", n_resamples=r, **seeded
            ),
        ),
        (
            "bootstrap_ci_from_table f1",
            lambda r: bootstrap_confidence_interval_from_table(
                table2, metric="f1", n_resamples=r, **seeded
            ),
        ),
        (
            "paired_bootstrap_test f1_macro",
            lambda r: paired_bootstrap_test(
                y, a, b, metric="f1_macro", n_resamples=r, **seeded
            ),
        ),
        (
            "paired_permutation_test accuracy",
            lambda r: paired_permutation_test(y, a, b, n_resamples=r, **seeded),
        ),
        (
            "paired_bootstrap_test_from_table",
            lambda r: paired_bootstrap_test_from_table(
                table3, metric="f1", n_resamples=r, **seeded
            ),
        ),
        (
            "paired_permutation_test_from_table",
            lambda r: paired_permutation_test_from_table(
                table3, metric="f1", n_resamples=r, **seeded
            ),
        ),
        (
            "kappa_confidence_interval",
            lambda r: kappa_confidence_interval(a, b, n_resamples=r, **seeded),
        ),
        ("sign_test", lambda r: sign_test(y, a, b)),
        ("sign_test_from_table", lambda r: sign_test_from_table(table3)),
        ("mcnemar_test", lambda r: mcnemar_test(y, a, b)),
        ("cochrans_q_test", lambda r: cochrans_q_test(y, [a, b])),
    ]


def fixed_costs(calls):
    sizes = (10**2, 10**3, 10**4)
    resamples = (99, 9999)
    header = f"{'call':<40}" + "".join(
        f"{f'n={n:.0e} B={r}':>17}" for n in sizes for r in resamples
    )
    print("1. median ms per call (resampling-free tests: the same call twice)")
    print(header)
    print("-" * len(header))
    rows = {}
    for n in sizes:
        for name, call in _cases(*_data(n)):
            for r in resamples:
                func = functools.partial(call, r)
                func()  # warm up
                few = calls if r < 1000 else max(3, calls // 10)
                rows.setdefault(name, []).append(median_ms(func, few))
    worst = 0.0
    for name, times in rows.items():
        print(f"{name:<40}" + "".join(f"{t:>17.2f}" for t in times))
        worst = max(worst, *times[::2])
    mark = "met" if worst < GOAL_MS else "NOT met"
    print(f"largest at B=99: {worst:.2f} ms (goal < {GOAL_MS} ms: {mark})\n")


def binary_f1(calls):
    print("2. binary F1, bootstrap_confidence_interval, 9999 resamples")
    header = f"{'n':>8}{'ours ms':>10}{'floor ms':>10}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    for n in (10**3, 10**4, 10**5):
        y, a, _ = _data(n)

        def ours(y=y, a=a):
            bootstrap_confidence_interval(y, a, metric="f1", random_state=0)

        def floor(y=y, a=a):
            floor_bootstrap(y, a, 2, True, np.random.default_rng(0))

        ours(), floor()
        t_ours, t_floor = [], []
        for r in range(max(3, calls // 3)):  # alternate, so load hits both
            pair = [(ours, t_ours), (floor, t_floor)]
            for func, times in pair if r % 2 == 0 else pair[::-1]:
                times.append(median_ms(func, 1))
        mo, mf = float(np.median(t_ours)), float(np.median(t_floor))
        mark = "met" if mo / mf <= GOAL_RATIO else "NOT met"
        print(f"{n:>8.0e}{mo:>10.1f}{mf:>10.1f}{mo / mf:>8.2f}  ({mark})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    print(f"{_load()}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few resamples: the tail warning
        fixed_costs(args.calls)
    binary_f1(args.calls)
    print(f"\n{_load()}")


if __name__ == "__main__":
    main()
