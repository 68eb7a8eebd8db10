"""Time the table engine end to end against its floor, ten lines of numpy.

For bootstrap F1 (binary at k = 2, macro at k = 2, 10 and 100), the paired
bootstrap and the paired permutation test of macro F1 (k = 10 and 100: the
joint (true, A, B) table has up to 10**6 cells), with n items and 9,999
resamples, from integer label arrays:

- ``time``: the package, end to end (validation, encoding, the table, the
  resamples, the result);
- ``floor``: ``np.bincount`` to find the labels present, ``np.bincount`` of
  the combined codes to count the table, multinomial draws of its non-empty
  cells in blocks of 256 (binomial swaps of its discordant cells for the
  permutation test, followed by the bootstrap of its interval), each draw
  summed into each system's (true, predicted) table, and the metric from
  those tables;
- ``ratio``: time / floor (target: within 2x);
- ``items``: the same call on the item path, where each resample draws n
  item indices (forced by real sample weights of 0.5, which leave the
  metric unchanged); timed up to ``--items-up-to`` items, ``-`` beyond;
- ``peak MiB``: the package's peak extra memory beyond the inputs, measured
  with tracemalloc (which sees numpy's buffers) on the same call with 512
  resamples (the working memory is one chunk of resamples at a time, so
  only the 8 bytes of each resample's value depend on their number);
  target: independent of n, at most 64 MiB at k = 100;
- ``bca/pct``: BCa time over percentile time for the bootstrap rows
  (target: within 1.5x), and ``bca MiB`` the BCa call's peak, as above.

Run: python benchmarks/bench_tables.py [--quick] [--largest]
(--quick: n up to 1e6; --largest: also the paired k = 100 cases at 1e7,
about an hour on one core, most of it numpy's multinomial draws of 274,000
cells, in the package and in the floor alike)
"""

import argparse
import functools
import os

import numpy as np
from _timing import peak_mib, seconds

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)

R = 9999
R_MEMORY = 512
BLOCK = 256


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
    return np.bincount(cell, minlength=k ** len(labels))


def _system_tables(weights, index, k):
    """Sum each row of ``weights`` over the cells into (c, k, k) tables:
    ``index`` gives each cell's (true, predicted) cell of one system."""
    c = weights.shape[0]
    cells = index + (np.arange(c) * k * k)[:, None]
    tables = np.bincount(cells.ravel(), weights.ravel(), minlength=c * k * k)
    return tables.reshape(c, k, k)


def _blocks():
    return [min(BLOCK, R - start) for start in range(0, R, BLOCK)]


def floor_bootstrap(y, p, k, binary, rng):
    table = _table(k, y, p)
    cells, n = np.flatnonzero(table), table.sum()
    out = []
    for c in _blocks():
        draws = rng.multinomial(n, table[cells] / n, size=c).astype(np.float64)
        out.append(_f1(_system_tables(draws, cells, k), binary))
    return np.concatenate(out)


def floor_paired_bootstrap(y, a, b, k, rng):
    table = _table(k, y, a, b)
    cells, n = np.flatnonzero(table), table.sum()
    t, ca, cb = np.unravel_index(cells, (k, k, k))
    out = []
    for c in _blocks():
        draws = rng.multinomial(n, table[cells] / n, size=c).astype(np.float64)
        f1_a = _f1(_system_tables(draws, t * k + ca, k), False)
        out.append(_f1(_system_tables(draws, t * k + cb, k), False) - f1_a)
    return np.concatenate(out)


def floor_paired_permutation(y, a, b, k, rng):
    table = _table(k, y, a, b)
    t, ca, cb = np.unravel_index(np.arange(k**3), (k, k, k))
    movable = np.flatnonzero((ca != cb) & (table > 0))
    tab = table.reshape(k, k, k).astype(np.float64)
    out = []
    for c in _blocks():
        swaps = rng.binomial(table[movable], 0.5, size=(c, movable.size))
        # a swapped item of cell (t, a, b) moves A's count from (t, a) to (t, b)
        moved = _system_tables(swaps, t[movable] * k + cb[movable], k)
        moved -= _system_tables(swaps, t[movable] * k + ca[movable], k)
        out.append(
            _f1(tab.sum(axis=1) - moved, False) - _f1(tab.sum(axis=2) + moved, False)
        )
    return np.concatenate(out), floor_paired_bootstrap(y, a, b, k, rng)


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


def _load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n up to 1e6 only")
    parser.add_argument(
        "--largest",
        action="store_true",
        help="also the paired k = 100 cases at n = 1e7 (about an hour)",
    )
    parser.add_argument(
        "--items-up-to",
        type=float,
        default=1e5,
        help="time the item path up to this many items (default 1e5)",
    )
    args = parser.parse_args()
    sizes = [10**4, 10**5, 10**6] + ([] if args.quick else [10**7])
    cases = [
        ("bootstrap F1 binary", 2, "f1"),
        ("bootstrap F1 macro", 2, "f1_macro"),
        ("bootstrap F1 macro", 10, "f1_macro"),
        ("bootstrap F1 macro", 100, "f1_macro"),
        ("paired bootstrap macro F1", 10, "paired_bootstrap"),
        ("paired bootstrap macro F1", 100, "paired_bootstrap"),
        ("paired permutation macro F1", 10, "paired_permutation"),
        ("paired permutation macro F1", 100, "paired_permutation"),
    ]
    print(f"{R} resamples, integer labels, one job; {_load()}\n")
    header = (
        f"{'case':<30}{'k':>4}{'n':>7}{'time s':>9}{'floor s':>9}{'ratio':>7}"
        f"{'items s':>9}{'peak MiB':>10}{'bca/pct':>9}{'bca MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for call in _calls("f1", 2, *_data(100, 2)):  # warm up imports and caches
        call()
    for n in sizes:
        for label, k, what in cases:
            if n == 10**7 and k == 100 and what.startswith("paired"):
                if not args.largest:
                    continue
            y, a, b = _data(n, k)
            ours, floor = _calls(what, k, y, a, b)
            t_ours, t_floor = seconds(ours), seconds(floor)
            peak = peak_mib(functools.partial(ours, n_resamples=R_MEMORY))
            items = "-"
            if n <= args.items_up_to:
                weight = {"sample_weight": np.full(n, 0.5)}
                items = f"{seconds(functools.partial(ours, metric_kwargs=weight)):.3f}"
            bca = bca_peak = ""
            if what.startswith("f1"):
                t_bca = seconds(functools.partial(ours, method="bca"))
                bca = f"{t_bca / t_ours:.2f}"
                bca_peak = peak_mib(
                    functools.partial(ours, method="bca", n_resamples=R_MEMORY)
                )
                bca_peak = f"{bca_peak:.1f}"
            print(
                f"{label:<30}{k:>4}{n:>7.0e}{t_ours:>9.3f}{t_floor:>9.3f}"
                f"{t_ours / t_floor:>7.2f}{items:>9}{peak:>10.1f}{bca:>9}"
                f"{bca_peak:>9}",
                flush=True,
            )
    print(f"\n{_load()}")


if __name__ == "__main__":
    main()
