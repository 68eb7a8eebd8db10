"""Coverage of McNemarTestResult.confidence_interval, by simulation.

The target is the paired accuracy difference delta = P(only B right) -
P(only A right) = (2 pi - 1) q, with q = P(discordant) and pi B's share of the
discordant items. Two intervals:

- "rescaled": the exact (Clopper-Pearson) interval of pi, rescaled by the
  observed discordant fraction n_d / n; the first version of the method, and
  what a reader of the exact test would build;
- "Agresti-Min": the package's, McNemarTestResult.confidence_interval (Wald
  after adding 1/2 to each cell; Agresti & Min 2005).

Each cell draws the counts of n items (binomial n_d, then binomial b given
n_d), 2,000 data sets a cell, seed 0. Run: python
benchmarks/sim_mcnemar_interval.py (about a minute). The table is in
doc/holdout.rst.
"""

import itertools

import numpy as np

from sklearn_faithful.holdout._mcnemar import McNemarTestResult
from sklearn_faithful.holdout._resampling import _share_interval

N_REPS = 2000
LEVEL = 0.95


def coverage(n, q, pi, rng):
    n_d = rng.binomial(n, q, N_REPS)
    n_b = rng.binomial(n_d, pi)
    delta = (2 * pi - 1) * q
    rescaled = ours = 0
    for d, b in zip(n_d, n_b, strict=True):
        low, high = _share_interval(int(b), int(d), LEVEL, "two-sided")
        scale = d / n
        rescaled += (2 * low - 1) * scale <= delta <= (2 * high - 1) * scale
        res = McNemarTestResult(0.0, 1.0, "exact", 0.0, int(d - b), int(b), n)
        low, high = res.confidence_interval(LEVEL)
        ours += low <= delta <= high
    return rescaled / N_REPS, ours / N_REPS


def main():
    rng = np.random.default_rng(0)
    print(f"coverage of the {LEVEL:.0%} interval, {N_REPS} data sets a cell")
    print(f"{'n':>6} {'q':>5} {'pi':>5}   rescaled (s.e.)   Agresti-Min (s.e.)")
    cells = itertools.product((50, 200, 1000), (0.1, 0.3), (0.5, 0.7, 0.9, 1.0))
    for n, q, pi in cells:
        cov = coverage(n, q, pi, rng)
        se = [(c * (1 - c) / N_REPS) ** 0.5 for c in cov]
        print(
            f"{n:>6} {q:>5} {pi:>5}   {cov[0]:8.3f} ({se[0]:.3f})"
            f"   {cov[1]:11.3f} ({se[1]:.3f})"
        )


if __name__ == "__main__":
    main()
