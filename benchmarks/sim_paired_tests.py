"""Type-I error and power of the one-test-set paired tests, by simulation.

What it measures. Two systems A and B label the same n test items. Each item
draws (y, A correct, B correct) from a joint law: prevalence 0.5 or 0.1, A
right with probability ``acc``, and the two systems' correctness correlated
(they err on many of the same items). Under the null, A and B are
exchangeable, so their expected F1 and accuracy are equal exactly; under the
alternative, B fixes a share of A's errors. Printed: the rate of p <= 0.05
(two-sided) for ``paired_bootstrap_test``, ``paired_permutation_test`` (F1
and accuracy) and ``sign_test`` (accuracy), with Monte-Carlo standard errors
``sqrt(p (1 - p) / reps)``.

Run::

    python benchmarks/sim_paired_tests.py            # 600 data sets a cell (docs)
    python benchmarks/sim_paired_tests.py --reps 200 # quicker
    python benchmarks/sim_paired_tests.py --no-run   # print the cached cells

Seeded (``SeedSequence([20261122, cell, rep])``) and resumable: finished cells
are cached in ``benchmarks/results/sim_paired_tests.json``.
"""

import argparse
import json
import os
import time
import zlib

import numpy as np

from sklearn_faithful.holdout import (
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)

CACHE = os.path.join(os.path.dirname(__file__), "results", "sim_paired_tests.json")
BASE_SEED = 20261122
N_RESAMPLES = 999
ALPHA = 0.05
CELLS = [  # (n, prevalence, fixed share of A's errors that B fixes)
    (n, prev, fix)
    for n in (100, 500, 2000)
    for prev in (0.5, 0.1)
    for fix in (0.0, 0.15)
]


def make_data(rng, n, prevalence, fix, acc=0.85, shared=0.6):
    """Gold labels and two systems' predictions on n items."""
    y = (rng.random(n) < prevalence).astype(int)
    wrong_a = rng.random(n) > acc
    # B errs where A errs with probability `shared`, elsewhere at the rate that
    # keeps B's accuracy equal to A's: exchangeable under the null
    p_other = (1 - acc) * (1 - shared) / acc
    wrong_b = np.where(wrong_a, rng.random(n) < shared, rng.random(n) < p_other)
    if rng.random() < 0.5:  # symmetrise the roles exactly
        wrong_a, wrong_b = wrong_b, wrong_a
    if fix > 0:  # B fixes a share of A's errors that it shares
        wrong_b = wrong_b & ~(wrong_a & (rng.random(n) < fix / shared))
    pred_a = np.where(wrong_a, 1 - y, y)
    pred_b = np.where(wrong_b, 1 - y, y)
    return y, pred_a, pred_b


def run_cell(cell, reps):
    n, prev, fix = cell
    key = zlib.crc32(repr(cell).encode())
    hits = {name: 0 for name in ("boot f1", "perm f1", "boot acc", "perm acc", "sign")}
    for rep in range(reps):
        rng = np.random.default_rng(np.random.SeedSequence([BASE_SEED, key, rep]))
        y, a, b = make_data(rng, n, prev, fix)
        seed = int(rng.integers(2**31))
        kw = dict(n_resamples=N_RESAMPLES, random_state=seed)
        pvalues = {
            "boot f1": paired_bootstrap_test(y, a, b, metric="f1", **kw).pvalue,
            "perm f1": paired_permutation_test(y, a, b, metric="f1", **kw).pvalue,
            "boot acc": paired_bootstrap_test(y, a, b, **kw).pvalue,
            "perm acc": paired_permutation_test(y, a, b, **kw).pvalue,
            "sign": sign_test(y, a, b).pvalue,
        }
        for name, p in pvalues.items():
            hits[name] += p <= ALPHA
    return {name: h / reps for name, h in hits.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=600)
    parser.add_argument(
        "--no-run", action="store_true", help="print the cached cells only"
    )
    args = parser.parse_args()
    cache = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            cache = json.load(f)
    start = time.process_time()
    for cell in CELLS:
        key = f"{cell}|{args.reps}"
        if key not in cache and args.no_run:
            raise SystemExit(f"cell {cell} with --reps {args.reps} is not cached")
        if key not in cache:
            cache[key] = run_cell(cell, args.reps)
            os.makedirs(os.path.dirname(CACHE), exist_ok=True)
            with open(CACHE, "w") as f:
                json.dump(cache, f, indent=1)
    names = list(next(iter(cache.values())))
    print(
        f"rate of p <= {ALPHA} (s.e.), {args.reps} data sets a cell, "
        f"{N_RESAMPLES} resamples; CPU {time.process_time() - start:.0f} s this run"
    )
    print(f"{'n':>5} {'prev':>5} {'B fixes':>8}  " + "".join(f"{m:>16}" for m in names))
    for cell in CELLS:
        rates = cache[f"{cell}|{args.reps}"]
        n, prev, fix = cell
        cols = "".join(
            f"{rates[m]:>8.3f} ({np.sqrt(rates[m] * (1 - rates[m]) / args.reps):.3f})"
            for m in names
        )
        print(f"{n:>5} {prev:>5} {fix:>8}  {cols}")


if __name__ == "__main__":
    main()
