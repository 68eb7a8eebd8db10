"""Peak extra memory and time of the resampling functions as classes grow.

n = 5,000 items, the default 9,999 resamples, macro F1 (and cF1 on
probabilities, kappa on two raters) for 2, 10, 100 and 300 classes. Peak extra
memory is what the call allocates on top of its inputs, measured with
tracemalloc (which sees numpy's buffers). Goal: under 256 MiB at 300 classes.
Before the chunked engine, paired_bootstrap_test asked for 74.5 GiB at 100
classes and bootstrap_confidence_interval for 6.7 GiB at 300.

Run: python benchmarks/bench_memory.py
"""

import argparse
import time
import tracemalloc

import numpy as np

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)


def measure(call):
    tracemalloc.start()
    tracemalloc.reset_peak()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20, seconds


def cases(k, n, b):
    """(name, input MiB, call) of each function at ``k`` classes."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    c = np.where(rng.random(n) < 0.75, y, rng.integers(0, k, n))
    proba = rng.dirichlet(np.ones(k), n)
    mib = 2**20
    kw = dict(n_resamples=b, random_state=0)
    return [
        (
            "bootstrap_confidence_interval f1",
            (y.nbytes + a.nbytes) / mib,
            lambda: bootstrap_confidence_interval(y, a, metric="f1_macro", **kw),
        ),
        (
            "bootstrap_confidence_interval cf1",
            (y.nbytes + proba.nbytes) / mib,
            lambda: bootstrap_confidence_interval(
                y,
                proba,
                metric="cf1_macro",
                **kw,
                metric_kwargs={"labels": np.arange(k)},
            ),
        ),
        (
            "paired_bootstrap_test f1",
            (y.nbytes + a.nbytes + c.nbytes) / mib,
            lambda: paired_bootstrap_test(y, a, c, metric="f1_macro", **kw),
        ),
        (
            "paired_permutation_test f1",
            (y.nbytes + a.nbytes + c.nbytes) / mib,
            lambda: paired_permutation_test(y, a, c, metric="f1_macro", **kw),
        ),
        (
            "kappa_confidence_interval",
            (y.nbytes + a.nbytes) / mib,
            lambda: kappa_confidence_interval(y, a, **kw),
        ),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=5000)
    parser.add_argument("--n-resamples", type=int, default=9999)
    parser.add_argument("--classes", type=int, nargs="+", default=[2, 10, 100, 300])
    args = parser.parse_args()
    n, b = args.n_samples, args.n_resamples
    print(f"n_samples={n}, n_resamples={b}; peak extra memory (MiB) and time (s)")
    header = ("classes", "function", "input MiB", "peak MiB", "time s")
    print("{:>7}  {:<34} {:>9} {:>9} {:>7}".format(*header))
    for k in args.classes:
        for name, size, call in cases(k, n, b):
            peak, seconds = measure(call)
            print(
                f"{k:>7}  {name:<34} {size:9.2f} {peak:9.1f} {seconds:7.2f}", flush=True
            )


if __name__ == "__main__":
    main()
