"""Time the confidence metrics' resampling at scale against its floor.

Macro cF1 of n = 1e6 items, 10 classes, 999 resamples, from float32
probabilities:

- ``time``: the package, end to end (validation, the statistic, the
  resamples by class, the result), one job;
- ``floor``: the simplest exact numpy: the per-item features
  ``[onehot * p, p, onehot]`` (float64), then for each resample
  ``np.bincount(rng.integers(0, n, n))`` and one product with them;
- ``ratio``: time / floor;
- ``peak MiB``: the package's peak extra memory (tracemalloc), beyond the
  inputs (target for the bootstrap: <= 512 MiB);
- ``prev``: the per-item features engine this replaced (``Resampler`` on
  the (n, 3k) features, as before), for the bootstrap: time and peak.

Time and peak come from one call each, under tracemalloc.

Then, with ``--cli DIR``, the command line on two probability files of
5e6 rows (written to DIR if missing) with the default 9,999 resamples:
``python -m sklearn_faithful compare gold.txt a.proba b.proba --metric cf1``
(the two bootstrap intervals and the paired bootstrap test), its time and
peak RSS, beside the time of reading the three files alone.

Run: python benchmarks/bench_cf1.py [--cli DIR] [--cli-rows 5e6] [--no-previous]
"""

import argparse
import functools
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np
from _timing import median_time

from sklearn_faithful.holdout import (
    _proba_resampler,
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)

N, K, R = 10**6, 10, 999


def _cf1_macro(sums, k):
    """Macro cF1 of each row of (R, 3k) sums [cTP, cTP + cFP, TP + FN]."""
    tp, pred, true = sums[:, :k], sums[:, k : 2 * k], sums[:, 2 * k :]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(pred + true > 0, 2 * tp / (pred + true), 0.0)
    return f1.mean(axis=1)


def floor_bootstrap(y, p, k, rng):
    n = y.shape[0]
    onehot = np.zeros((n, k))
    onehot[np.arange(n), y] = 1
    features = np.hstack([onehot * p, p, onehot])
    sums = np.empty((R, 3 * k))
    for r in range(R):
        sums[r] = np.bincount(rng.integers(0, n, n), minlength=n) @ features
    return _cf1_macro(sums, k)


def _measure(func):
    """Seconds and peak extra MiB (tracemalloc) of one call of ``func``."""
    tracemalloc.start()
    start = time.perf_counter()
    func()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak / 2**20


def _data(n, k, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    a = rng.dirichlet(np.ones(k), n)
    a[np.arange(n), y] += 2 * rng.random(n)
    a /= a.sum(axis=1, keepdims=True)
    b = rng.dirichlet(np.ones(k), n)
    b[np.arange(n), y] += 2.2 * rng.random(n)
    b /= b.sum(axis=1, keepdims=True)
    return y, a.astype(np.float32), b.astype(np.float32)


def _library(y, a, b):
    """The package's calls: the bootstrap interval, the paired tests."""
    options = dict(metric="cf1_macro", n_resamples=R, random_state=0)
    return [
        (
            "bootstrap cF1 macro",
            functools.partial(bootstrap_confidence_interval, y, a, **options),
        ),
        (
            "paired bootstrap cF1 macro",
            functools.partial(paired_bootstrap_test, y, a, b, **options),
        ),
        (
            "permutation cF1 macro",
            functools.partial(paired_permutation_test, y, a, b, **options),
        ),
    ]


def _previous(func):
    """``func`` on the per-item features engine (the path before this one)."""
    saved = _proba_resampler._ITEM_FEATURE_BYTES
    _proba_resampler._ITEM_FEATURE_BYTES = np.inf
    try:
        return func()
    finally:
        _proba_resampler._ITEM_FEATURE_BYTES = saved


def library_table(previous):
    y, a, b = _data(N, K)
    print(
        f"n = {N:.0e} items, k = {K} classes, {R} resamples, float32 "
        "probabilities, one job\n"
    )
    header = f"{'case':<28}{'time s':>9}{'floor s':>9}{'ratio':>7}{'peak MiB':>10}" + (
        f"{'prev s':>9}{'prev MiB':>10}" if previous else ""
    )
    print(header)
    print("-" * len(header))
    bootstrap_confidence_interval(
        y[:100], a[:100], metric="cf1_macro", n_resamples=99
    )  # warm up imports
    t_floor = median_time(
        functools.partial(floor_bootstrap, y, a, K, np.random.default_rng(0)), 1
    )
    for i, (label, call) in enumerate(_library(y, a, b)):
        t_ours, peak = _measure(call)
        line = (
            f"{label:<28}{t_ours:>9.2f}{t_floor:>9.2f}{t_ours / t_floor:>7.2f}"
            f"{peak:>10.1f}"
        )
        if previous and i == 0:
            t_prev, p_prev = _measure(functools.partial(_previous, call))
            line += f"{t_prev:>9.2f}{p_prev:>10.1f}"
        print(line, flush=True)
    print("(floor: the bootstrap's; the paired calls resample two systems)\n")


def _write_files(folder, n, k=K):
    """Gold labels and two CSV probability files of ``n`` rows, if missing."""
    paths = [os.path.join(folder, name) for name in ("gold.txt", "a.proba", "b.proba")]
    if all(os.path.exists(p) for p in paths):
        return paths
    os.makedirs(folder, exist_ok=True)
    y, a, b = _data(n, k)
    names = np.array([f"c{j}" for j in range(k)])
    with open(paths[0], "w") as f:
        f.write("\n".join(names[y]) + "\n")
    for path, p in zip(paths[1:], (a, b), strict=True):
        with open(path, "w") as f:
            f.write(",".join(names) + "\n")
            for start in range(0, n, 2**16):
                np.savetxt(f, p[start : start + 2**16], fmt="%.7f", delimiter=",")
    return paths


def _run(args):
    """Wall time, peak RSS (MiB) and output of a fresh Python process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)  # the child's own peak RSS
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        if child.returncode:
            raise RuntimeError(err.read().decode())
        return seconds, usage.ru_maxrss / 1024, out.read().decode()


def cli_table(folder, n):
    gold, a, b = _write_files(folder, n)
    read = (
        "from sklearn_faithful.cli._io import read_labels, read_probabilities;"
        f"read_labels({gold!r}); read_probabilities({a!r}); read_probabilities({b!r})"
    )
    t_read, rss_read, _ = _run(["-c", read])
    t_cli, rss_cli, out = _run(
        ["-m", "sklearn_faithful", "compare", gold, a, b, "--metric", "cf1"]
    )
    print(f"compare --metric cf1, {n:.0e} rows, {K} classes, CSV, default resamples")
    print(f"{'what':<34}{'time s':>9}{'peak RSS MiB':>14}")
    print(f"{'reading the three files alone':<34}{t_read:>9.1f}{rss_read:>14.0f}")
    print(f"{'compare, end to end':<34}{t_cli:>9.1f}{rss_cli:>14.0f}")
    print(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cli", metavar="DIR", help="also time the CLI on files in DIR"
    )
    parser.add_argument("--cli-rows", type=float, default=5e6)
    parser.add_argument(
        "--no-previous", action="store_true", help="skip the per-item features engine"
    )
    parser.add_argument("--no-library", action="store_true", help="only the CLI")
    args = parser.parse_args()
    if not args.no_library:
        library_table(not args.no_previous)
    if args.cli:
        cli_table(args.cli, int(args.cli_rows))


if __name__ == "__main__":
    main()
