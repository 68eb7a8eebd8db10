"""False-alarm rate of the unpaired accuracy-regression gate for 0/1 scores.

Both runs have the same true accuracy p, so every alarm is false; the nominal
rate is alpha = 0.05. The gate's threshold is a normal approximation,
``x_ref + Phi^-1(alpha) sqrt(2 sigma^2 / n)`` with sigma estimated from the
reference run, which is poor when ``n min(p, 1 - p)`` is small. 200,000 pairs
of runs per cell (Monte-Carlo standard error about 0.0005), seeded. Runs whose
reference has sigma = 0 (a perfect run) are left out and counted.

Run: python benchmarks/sim_gate_false_alarms.py   (about 20 s)
"""

import numpy as np
from scipy import special


def main(n_runs=200_000, alpha=0.05, seed=0):
    rng = np.random.default_rng(seed)
    z = special.ndtri(alpha)
    print(
        f"{'p':>5} {'n':>6} {'n min(p,1-p)':>13} {'false alarms':>13} {'s.e.':>7}"
        f" {'sigma = 0':>10}"
    )
    for p in (0.5, 0.8, 0.9, 0.95, 0.99):
        for n in (50, 100, 200, 500, 1000, 5000):
            ref = rng.binomial(n, p, n_runs) / n
            new = rng.binomial(n, p, n_runs) / n
            sigma = np.sqrt(ref * (1 - ref) * n / (n - 1))
            usable = sigma > 0
            alarm = usable & (new < ref + z * np.sqrt(2 * sigma**2 / n))
            rate = alarm.sum() / usable.sum()
            se = np.sqrt(rate * (1 - rate) / usable.sum())
            print(
                f"{p:5.2f} {n:6d} {n * min(p, 1 - p):13.1f} {rate:13.4f} {se:7.4f}"
                f" {1 - usable.mean():10.3f}"
            )


if __name__ == "__main__":
    main()
