"""Type-I error of the accuracy-regression gate on reruns of the same model.

What it measures. A reference run and a new run of the same model score the
same n = 600 items (0/1 scores; each item has its own chance of being right,
drawn from Beta(9, 1), so the two runs are positively correlated). Every
alarm is false; the nominal rate is alpha = 0.05. Printed for the paired
gate and the unpaired one (``sigma=0.3``, the spread of a 90%-accurate 0/1
score): the rate of failed checks with its Monte-Carlo standard error.
The slow test ``tests/holdout/test_resampling.py::
test_gate_type_one_error_near_alpha`` runs the same simulation.

Seeded (``default_rng(11)``, as the test); 3,000 reruns, about 10 s.

Run: python benchmarks/sim_gate_type_one.py [--reruns 3000]
"""

import argparse
import warnings

import numpy as np

from sklearn_faithful.gate import AccuracyRegressionTest

SEED = 11


def false_alarm_rate(paired, reruns, n=600):
    rng = np.random.default_rng(SEED)
    gate = AccuracyRegressionTest(sigma=None if paired else 0.3, paired=paired)
    difficulty = rng.beta(9, 1, n)  # per-item chance of being right
    fails = 0
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "the reference's accuracy", UserWarning)
        for _ in range(reruns):
            ref = (rng.random(n) < difficulty).astype(float)
            new = (rng.random(n) < difficulty).astype(float)  # same model, rerun
            fails += not gate.set_reference(ref).check(new).passed
    return fails / reruns


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=3000)
    args = parser.parse_args()
    print(f"false alarms of the gate, {args.reruns} reruns of the same model, n = 600")
    for paired in (True, False):
        rate = false_alarm_rate(paired, args.reruns)
        se = np.sqrt(rate * (1 - rate) / args.reruns)
        name = "paired" if paired else "unpaired (sigma=0.3)"
        print(f"  {name:22} {rate:.4f} (s.e. {se:.4f})")


if __name__ == "__main__":
    main()
