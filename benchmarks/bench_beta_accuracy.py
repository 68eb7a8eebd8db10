"""Accuracy of the Beta cdf at huge parameters: Boost against the expansions.

The Bayes test's posteriors are Beta(a, b) with a + b up to the size of the
counts. Above a + b = 1e10 the package switches from Boost's incomplete Beta
function (scipy.special.betainc) to an Edgeworth expansion. This script
measures both against a 40-digit reference (mpmath quadrature of the density)
at points -6 to 4 standard deviations from the mean, and prints the largest
relative error of the smaller tail, min(F, 1 - F).

Double precision itself limits what is possible: the mean a / (a + b) is
rounded to 1.1e-16 relative, which moves z by about 1e-16 / sd, so the
attainable error grows like sqrt(a + b).

Run: python benchmarks/bench_beta_accuracy.py   (needs: pip install mpmath)
"""

import mpmath as mp
import numpy as np
from scipy import special

from sklearn_faithful.comparison import _posterior

mp.mp.dps = 40


def reference_cdf(a, b, x):
    a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
    n = a + b
    p = a / n
    sd = mp.sqrt(p * (1 - p) / (n + 1))
    log_beta = mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(n)

    def density(t):
        return mp.exp((a - 1) * mp.log(t) + (b - 1) * mp.log(1 - t) - log_beta)

    knots = [p + k * sd for k in range(-50, 51, 5) if p + k * sd < x]
    return float(mp.quad(density, [p - 60 * sd, *knots, x]))


def main():
    print(f"package switches to the expansions above a + b = {_posterior._LARGE:.0e}")
    print(
        f"{'a + b':>8}  {'boost':>9}  {'edgeworth':>9}  {'package':>9}  (max rel. err)"
    )
    for scale in [1e3, 1e6, 1e9, 1e10, 1e11, 1e13, 1e15, 1e17]:
        a, b = 7 * scale, 2 * scale
        mean, sd = a / (a + b), np.sqrt(a * b / (a + b) ** 3)
        errors = {"boost": [], "edgeworth": [], "package": []}
        for z in [-6, -3, -0.5, 1.3, 4]:
            x = mean + z * sd
            ref = reference_cdf(a, b, x)
            tail = min(ref, 1 - ref)
            saved = _posterior._LARGE
            _posterior._LARGE = 0.0
            edgeworth = float(_posterior._betainc(a, b, x))
            _posterior._LARGE = saved
            values = {
                "boost": special.betainc(a, b, x),
                "edgeworth": edgeworth,
                "package": float(_posterior._betainc(a, b, x)),
            }
            for name, value in values.items():
                errors[name].append(abs(value - ref) / tail)
        row = "  ".join(f"{max(errors[k]):9.1e}" for k in errors)
        print(f"{a + b:8.0e}  {row}", flush=True)


if __name__ == "__main__":
    main()
