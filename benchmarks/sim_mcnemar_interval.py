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

Held-back settings (``--held-back``, seed 20261209). The documented range
(Agresti-Min 92.9-97.8% at 95%) covers the grid above only: n in {50, 200,
1000}, q in {0.1, 0.3}, pi in {0.5, 0.7, 0.9, 1.0}, level 0.95. These cells
were fixed before any of them was run and played no part in it:

- other sizes, discordant shares and B's shares at level 0.95: n in {30,
  100, 500, 5000} x q in {0.02, 0.05, 0.5} x pi in {0.6, 0.8, 0.95} (36
  cells; q = 0.02 at n = 30 and 100 leaves 0-2 discordant items, the
  interval's hardest case);
- other levels: 0.90 and 0.99 at n = 100 and 1000, q = 0.1, pi = 0.5 and
  0.9 (8 cells).

The count model (binomial n_d, then binomial b) is exact for items drawn
independently, whatever the learners, so n, q, pi and the level are the
only settings. 2,000 data sets a cell (s.e. about 0.5 points at 95%), the
Agresti-Min interval only, written to
``benchmarks/results/sim_mcnemar_interval_held_back.txt``::

    python benchmarks/sim_mcnemar_interval.py --held-back   (about a minute)
"""

import argparse
import itertools
import os

import numpy as np

from sklearn_faithful.holdout._mcnemar import McNemarTestResult
from sklearn_faithful.holdout._resampling import _share_interval

N_REPS = 2000
LEVEL = 0.95
HELD_BACK_SEED = 20261209
HELD_BACK_TEXT = os.path.join(
    os.path.dirname(__file__), "results", "sim_mcnemar_interval_held_back.txt"
)
# (n, q, pi, level), fixed before the run (see the docstring)
HELD_BACK_CELLS = [
    *[
        (n, q, pi, 0.95)
        for n, q, pi in itertools.product(
            (30, 100, 500, 5000), (0.02, 0.05, 0.5), (0.6, 0.8, 0.95)
        )
    ],
    *[
        (n, 0.1, pi, level)
        for level, n, pi in itertools.product((0.90, 0.99), (100, 1000), (0.5, 0.9))
    ],
]


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


def agresti_min_coverage(n, q, pi, level, rng):
    n_d = rng.binomial(n, q, N_REPS)
    n_b = rng.binomial(n_d, pi)
    delta = (2 * pi - 1) * q
    hits = 0
    for d, b in zip(n_d, n_b, strict=True):
        res = McNemarTestResult(0.0, 1.0, "exact", 0.0, int(d - b), int(b), n)
        low, high = res.confidence_interval(level)
        hits += low <= delta <= high
    return hits / N_REPS


def held_back():
    rng = np.random.default_rng(HELD_BACK_SEED)
    lines = [
        f"held-back cells (seed {HELD_BACK_SEED}), {N_REPS} data sets a cell: "
        "coverage of the Agresti-Min interval",
        f"{'n':>6} {'q':>5} {'pi':>5} {'level':>6}   coverage (s.e.)",
    ]
    print("\n".join(lines), flush=True)
    for n, q, pi, level in HELD_BACK_CELLS:
        cov = agresti_min_coverage(n, q, pi, level, rng)
        se = (cov * (1 - cov) / N_REPS) ** 0.5
        lines.append(f"{n:>6} {q:>5} {pi:>5} {level:>6}   {cov:8.3f} ({se:.3f})")
        print(lines[-1], flush=True)
    with open(HELD_BACK_TEXT, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--held-back",
        action="store_true",
        help="run the held-back cells (see the docstring) instead",
    )
    if parser.parse_args().held_back:
        held_back()
        return
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
