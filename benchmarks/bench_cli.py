"""Time ``sklearn-faithful compare`` from files against the Python API in memory.

n = 1,000,000 items, 5 classes, two systems, 10,000 paired-bootstrap
resamples. The command reads three label files (one label a line), scores
each system with a bootstrap interval and runs the paired bootstrap test,
files to result, in this process (``cli.main``; interpreter start-up and
imports are left out). The anchor makes the same three calls
(``bootstrap_confidence_interval`` twice, ``paired_bootstrap_test`` once) on
integer arrays already in memory. Prints the median times and their ratio.
Goal: ratio <= 1.5.

Run: python benchmarks/bench_cli.py [--n-samples N] [--n-resamples B]
"""

import argparse
import contextlib
import io
import os
import tempfile

import numpy as np
from _timing import median_time

from sklearn_faithful.cli import main as cli_main
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument("--n-resamples", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    n = args.n_samples
    y = rng.integers(0, 5, size=n)
    a = np.where(rng.random(n) < 0.80, y, rng.integers(0, 5, size=n))
    b = np.where(rng.random(n) < 0.81, y, rng.integers(0, 5, size=n))
    B = args.n_resamples

    def api():
        bootstrap_confidence_interval(y, a, n_resamples=B, random_state=0)
        bootstrap_confidence_interval(y, b, n_resamples=B, random_state=0)
        return paired_bootstrap_test(y, a, b, n_resamples=B, random_state=0)

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, arr in (("gold", y), ("a", a), ("b", b)):
            path = os.path.join(tmp, f"{name}.txt")
            np.savetxt(path, arr, fmt="%d")
            paths.append(path)
        argv = ["compare", *paths, "--n-resamples", str(B), "--format", "json"]

        def cli():
            with contextlib.redirect_stdout(io.StringIO()):
                assert cli_main(argv) == 0

        t_cli = median_time(cli, args.repeat)
    t_api = median_time(api, args.repeat)
    t_test = median_time(
        lambda: paired_bootstrap_test(y, a, b, n_resamples=B, random_state=0),
        args.repeat,
    )
    print(
        f"n_samples={n}, 2 systems, {B} paired-bootstrap resamples, "
        f"median of {args.repeat} runs"
    )
    print(f"compare, files to result (cli.main)            {t_cli:8.2f} s")
    print(f"same calls on in-memory arrays (Python API)    {t_api:8.2f} s")
    print(f"  of which paired_bootstrap_test alone         {t_test:8.2f} s")
    ratio = t_cli / t_api
    print(f"ratio cli / API                                {ratio:8.2f}  (goal <= 1.5)")


if __name__ == "__main__":
    main()
