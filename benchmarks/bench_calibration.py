"""Time the calibration error's bootstrap interval against its floor.

The issue's target: a calibration error with a 9,999-resample interval on
10^6 items and 10 classes within 2x of ten lines of numpy, with peak extra
memory independent of the number of resamples. Per row:

- ``package s``: :func:`~sklearn_faithful.calibration.calibration_error_interval`
  end to end (validation, the bins, the resamples, the result), one job, the
  default estimator (the debiased L2 error, 15 bins, top-label, and its basic
  interval about the plug-in);
- ``floor s``: ten lines of numpy on the same confidences: for each resample,
  ``idx = rng.integers(0, n, n)``, ``np.bincount`` of the bins of ``idx``
  with the confidences and the outcomes as weights, and an error from the
  bin sums (the binned L1 error: the same sums; the confidences, outcomes and
  bins computed once, outside the timing);
- ``ratio``: package / floor;
- ``s / 9999``: the package's time scaled to the default 9,999 resamples;
- ``peak MiB``: the package's peak memory beyond the inputs (tracemalloc),
  at ``B`` and at ``4 B`` resamples (the same: a chunk of resamples at a
  time, whatever their number).

Run: python benchmarks/bench_calibration.py [--quick]
"""

import argparse
import functools

import numpy as np
from _timing import peak_mib, seconds

from sklearn_faithful.calibration import calibration_error_interval


def _data(n, k, seed=0):
    rng = np.random.default_rng(seed)
    logits = 2.0 * rng.normal(size=(n, k))
    proba = np.exp(logits)
    proba /= proba.sum(axis=1, keepdims=True)
    y = (proba.cumsum(axis=1) < rng.uniform(size=(n, 1))).sum(axis=1)
    return y, proba


def _floor(conf, out, bins, n_resamples, seed=0):
    rng = np.random.default_rng(seed)
    n = conf.shape[0]
    values = np.empty(n_resamples)
    for r in range(n_resamples):
        idx = rng.integers(0, n, n)
        b = bins[idx]
        conf_sum = np.bincount(b, weights=conf[idx], minlength=15)
        out_sum = np.bincount(b, weights=out[idx], minlength=15)
        values[r] = np.abs(out_sum - conf_sum).sum() / n
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    args = parser.parse_args()
    k = 10
    sizes = (
        [(10**4, 999), (10**5, 199)]
        if args.quick
        else [
            (10**4, 9999),
            (10**5, 999),
            (10**6, 49),
        ]
    )
    print(
        f"the default calibration error and interval, top-label, {k} classes, one job"
    )
    print(
        f"{'n':>9} {'B':>6} {'package s':>10} {'floor s':>8} {'ratio':>6} "
        f"{'s / 9999':>9} {'peak MiB B':>10} {'peak MiB 4B':>11}"
    )
    for n, n_resamples in sizes:
        y, proba = _data(n, k)
        conf = proba.max(axis=1)
        out = (proba.argmax(axis=1) == y).astype(np.float64)
        bins = np.searchsorted(np.linspace(0, 1, 16)[1:-1], conf)

        def package(b=n_resamples, y=y, proba=proba):
            return calibration_error_interval(y, proba, n_resamples=b, random_state=0)

        t_package = seconds(package)
        t_floor = seconds(functools.partial(_floor, conf, out, bins, n_resamples))
        peak = peak_mib(package)
        peak4 = peak_mib(functools.partial(package, 4 * n_resamples))
        print(
            f"{n:>9} {n_resamples:>6} {t_package:>10.2f} {t_floor:>8.2f} "
            f"{t_package / t_floor:>6.2f} {t_package * 9999 / n_resamples:>9.1f} "
            f"{peak:>10.1f} {peak4:>11.1f}"
        )


if __name__ == "__main__":
    main()
