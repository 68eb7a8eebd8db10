"""Level of the blocked m x 2 BCV t-test under normal, correlated differences.

What it measures. ``blocked_mx2cv_ttest`` on the 2m split differences of a
3 x 2 BCV, drawn as normal vectors with mean 0, variance 1, correlation rho1
between the two halves of a partition and rho2 across partitions. Printed:
the rate of p < 0.05 (two-sided) with its Monte-Carlo standard error
``sqrt(p (1 - p) / reps)``. These are the rates that the Notes of
``blocked_mx2cv_ttest`` quote: the reference t_{2m-1} is exact at rho1 = rho2
= (m - 1) / (2m - 1) (0.4 for m = 3), the test is conservative below the
correlations where its variance estimator is unbiased and liberal where that
estimator has fewer effective degrees of freedom than 2m - 1.

Seeded (``SeedSequence([SEED, cell index])``); 100,000 vectors a cell, about
25 s in all.

Run: python benchmarks/sim_blocked_t_normal.py [--reps 100000]
"""

import argparse

import numpy as np

from sklearn_faithful.comparison import blocked_mx2cv_ttest

SEED = 20261126
M = 3
CELLS = ((0.0, 0.25), (0.2, 0.4), (0.0, 0.5), (0.4, 0.4))  # (rho1, rho2)


def covariance(m, rho1, rho2):
    """Correlations of the 2m differences: rho1 within a partition, rho2 across."""
    cov = np.full((2 * m, 2 * m), rho2)
    for j in range(m):
        cov[2 * j, 2 * j + 1] = cov[2 * j + 1, 2 * j] = rho1
    np.fill_diagonal(cov, 1.0)
    return cov


def rejection_rate(m, rho1, rho2, reps, seed):
    rng = np.random.default_rng(seed)
    d = rng.multivariate_normal(np.zeros(2 * m), covariance(m, rho1, rho2), reps)
    scores_a = np.full(2 * m, 0.8)
    test = blocked_mx2cv_ttest.__wrapped__  # without the parameter check
    return float(np.mean([test(scores_a, scores_a + row).pvalue < 0.05 for row in d]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=100_000)
    args = parser.parse_args()
    print(f"blocked {M} x 2 BCV t-test, rate of p < 0.05 over {args.reps} vectors")
    print(f"{'rho1':>5} {'rho2':>5} {'rate':>7} {'s.e.':>7}")
    for k, (rho1, rho2) in enumerate(CELLS):
        seed = np.random.SeedSequence([SEED, k])
        rate = rejection_rate(M, rho1, rho2, args.reps, seed)
        se = np.sqrt(rate * (1 - rate) / args.reps)
        print(f"{rho1:5.2f} {rho2:5.2f} {rate:7.4f} {se:7.4f}")


if __name__ == "__main__":
    main()
