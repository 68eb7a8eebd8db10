"""
==================================================================
How many test items does an accuracy-regression gate need?
==================================================================

The accuracy-regression gate (:ref:`formulas-regression`) flags a new model
whose mean score falls below ``gamma = x_ref + Phi^-1(alpha) sqrt(2 sigma^2 /
n)``. The smallest drop it catches with power ``1 - beta`` is the minimum
detectable effect ``theta(n)``. This example plots ``theta`` against ``n`` for
several per-item standard deviations ``sigma``: 0/1 correctness at 99%, 90%
and 70% accuracy (``sigma = sqrt(p (1 - p))``) and the worst case 0.5. It
prints the items needed for a 1-point drop under each, which shows what
assuming the worst case costs.

Run: python examples/plot_regression_gate.py [figure.png] (with a path, the
figure is written there; without one, it is shown).
"""

import sys

import numpy as np

from sklearn_faithful.gate import (
    estimate_sigma,
    minimum_detectable_effect,
    required_sample_size,
)

ALPHA, BETA = 0.05, 0.2
TARGET = 0.01  # one accuracy point
SIGMAS = {
    "accuracy 99%": estimate_sigma(proportion=0.99),
    "accuracy 90%": estimate_sigma(proportion=0.90),
    "accuracy 70%": estimate_sigma(proportion=0.70),
    "worst case (0.5)": 0.5,
}


def main(argv):
    n = np.unique(np.logspace(1, 5, 200).astype(np.int64))
    print(f"alpha={ALPHA}, beta={BETA}: items per run to catch a drop of {TARGET}")
    needed = {}
    for name, sigma in SIGMAS.items():
        needed[name] = required_sample_size(sigma, TARGET, alpha=ALPHA, beta=BETA)
        print(f"  {name:<18} sigma={sigma:.3f}  n={needed[name]:>7}")
    worst = needed["worst case (0.5)"]
    print(
        f"the worst case asks for {worst / needed['accuracy 90%']:.1f}x the items "
        "needed at 90% accuracy"
    )

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4.2), layout="constrained")
    for name, sigma in SIGMAS.items():
        ax.plot(
            n,
            minimum_detectable_effect(sigma, n, alpha=ALPHA, beta=BETA),
            label=f"{name}, sigma = {sigma:.2f}",
        )
    ax.axhline(TARGET, color="gray", linestyle=":", label="target: 1 point")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("items per run, n")
    ax.set_ylabel("minimum detectable drop, theta")
    ax.set_title(f"alpha = {ALPHA}, power = {1 - BETA:.0%}")
    ax.legend(fontsize=8)
    if argv:
        fig.savefig(argv[0], dpi=120)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()
    return needed


if __name__ == "__main__":
    main(sys.argv[1:])
