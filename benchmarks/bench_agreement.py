"""Time the agreement coefficients against the krippendorff package and numpy.

(a) Krippendorff's alpha of 5 coders x 100,000 units with 10% of the values
missing (values 1-5), nominal, ordinal and interval:

- ``time``: the package, ``krippendorff_alpha`` end to end (validation, the
  value codes, the coincidences);
- ``anchor``: ``krippendorff.alpha`` on the same float matrix (target: the
  package at least as fast, ``/anchor`` <= 1);
- ``floor``: ten lines of numpy: ``np.unique`` for the value codes, one
  ``np.bincount`` of the (unit, value) codes to the units' value counts, the
  coincidence matrix as one product of the counts with the counts scaled by
  1 / (m_u - 1), alpha from it;
- ``MiB``: each call's peak memory beyond its inputs (tracemalloc).

(b) The unit bootstrap, 9,999 resamples, 5 coders x 1,000 units, 10%
missing: ``agreement_confidence_interval`` of alpha (nominal, ordinal), Fleiss'
kappa and Gwet's AC (unweighted, and with Gwet's ordinal weights), percentile
interval, one job (target: under a second). ``floor``: each unit's features
(its coincidences for alpha; its agreement p_a, whether it has one and two
values, its value shares for kappa and AC), multinomial draws of the units in
blocks of 512, each block times the feature matrix, the coefficient from the
sums, and the percentiles; ``ratio`` = time / floor. ``cells``: the same with
the units of equal value counts grouped into cells, the draws multinomial
over the cells (equal in distribution: each coefficient depends on the units'
value counts only; 5 coders and 5 values allow 252 distinct value counts).

Run: python benchmarks/bench_agreement.py [--quick] (--quick: 20,000 units in
(a), 1,999 resamples in (b))
"""

import argparse
import functools
import os

import numpy as np
from _timing import median_time, peak_mib

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    krippendorff_alpha,
)

N_CODERS = 5
N_VALUES = 5
MISSING = 0.1
BLOCK = 512
REPEAT = 5


def _data(n_units, seed=0):
    """Coders x units of values 1-5: each coder gives the unit's value with
    probability 0.6 and a uniform random value otherwise; 10% missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, N_VALUES + 1, n_units)
    noise = rng.integers(1, N_VALUES + 1, (N_CODERS, n_units))
    data = np.where(rng.random((N_CODERS, n_units)) < 0.6, truth, noise)
    data = data.astype(np.float64)
    data[rng.random(data.shape) < MISSING] = np.nan
    return data


# --- the floor ---------------------------------------------------------------


def _value_counts(data):
    """(n_units, q) value counts and the sorted values: one bincount."""
    seen = ~np.isnan(data)
    values, codes = np.unique(data[seen], return_inverse=True)
    units = np.broadcast_to(np.arange(data.shape[1]), data.shape)[seen]
    q = values.size
    counts = np.bincount(units * q + codes, minlength=data.shape[1] * q)
    return counts.reshape(-1, q).astype(np.float64), values


def _distances(level, values, n_c):
    """(..., q, q) distances of Krippendorff's level, n_c of shape (..., q)."""
    if level == "nominal":
        return 1.0 - np.eye(values.size)
    if level == "interval":
        return np.subtract.outer(values, values) ** 2
    # ordinal: (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2
    cum = np.concatenate([np.zeros(n_c.shape[:-1] + (1,)), n_c.cumsum(-1)], -1)
    i = np.arange(values.size)
    lo, hi = np.minimum.outer(i, i), np.maximum.outer(i, i)
    between = cum[..., hi + 1] - cum[..., lo]
    return (between - (n_c[..., :, None] + n_c[..., None, :]) / 2) ** 2


def _alpha_of_coincidences(o, level, values):
    """alpha = 1 - (n - 1) sum o_ck d_ck / sum n_c n_k d_ck, o of shape (..., q, q)."""
    n_c = o.sum(-1)
    n = n_c.sum(-1)
    d = _distances(level, values, n_c)
    observed = (o * d).sum((-2, -1))
    expected = (n_c[..., :, None] * n_c[..., None, :] * d).sum((-2, -1))
    return 1.0 - (n - 1) * observed / expected


def _scaled(counts):
    """The counts over m_u - 1, zero for a unit with fewer than 2 values."""
    m = counts.sum(1)
    return counts * np.where(m >= 2, 1.0 / np.maximum(m - 1, 1), 0.0)[:, None]


def floor_alpha(data, level):
    counts, values = _value_counts(data)
    scaled = _scaled(counts)
    # o = sum_u (c_u c_u' - diag c_u) / (m_u - 1)
    o = counts.T @ scaled - np.diag(scaled.sum(0))
    return _alpha_of_coincidences(o, level, values)


def _gwet_ordinal_weights(q):
    i = np.arange(q)
    gap = np.abs(np.subtract.outer(i, i)) + 1
    w = gap * (gap - 1) / 2
    return 1.0 - w / w.max()


def _features(counts, values, coefficient, level):
    """The per-unit feature matrix and the coefficient of its (R, d) sums."""
    q = values.size
    if coefficient == "krippendorff_alpha":
        scaled = _scaled(counts)
        # o_u flattened: c_u c_u' / (m_u - 1) minus the diagonal c_u / (m_u - 1)
        o_u = counts[:, :, None] * scaled[:, None, :]
        o_u[:, np.arange(q), np.arange(q)] -= scaled
        features = o_u.reshape(-1, q * q)

        def coefficient_of(sums):
            return _alpha_of_coincidences(sums.reshape(-1, q, q), level, values)

        return features, coefficient_of
    w = np.eye(q) if level == "nominal" else _gwet_ordinal_weights(q)
    r, r_i = counts, counts.sum(1)
    two, rated = r_i >= 2, r_i >= 1
    # p_a of a unit: sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)), r* = r w'
    pa_u = np.zeros(r_i.size)
    pa_u[two] = (r[two] * (r[two] @ w.T - 1)).sum(1) / (r_i[two] * (r_i[two] - 1))
    shares = np.zeros_like(r)
    shares[rated] = r[rated] / r_i[rated, None]
    features = np.column_stack([two, pa_u, rated, shares])

    def coefficient_of(sums):
        # p_a over the units with 2 values, pi_k over the units with 1
        pa = sums[:, 1] / sums[:, 0]
        pi = sums[:, 3:] / sums[:, 2:3]
        if coefficient == "fleiss_kappa":
            pe = np.einsum("rk,kl,rl->r", pi, w, pi)
        else:
            pe = w.sum() * (pi * (1 - pi)).sum(1) / (q * (q - 1))
        return (pa - pe) / (1 - pe)

    return features, coefficient_of


def floor_bootstrap(data, coefficient, level, n_resamples, rng, cells=False):
    """Percentile interval of the unit bootstrap; ``cells``: units with the
    same value counts grouped into one cell, multinomial draws of the cells
    (the same distribution: every coefficient depends on the counts only)."""
    counts, values = _value_counts(data)
    n = counts.shape[0]
    shares = np.full(n, 1.0 / n)
    if cells:
        counts, size = np.unique(counts, axis=0, return_counts=True)
        shares = size / n
    features, coefficient_of = _features(counts, values, coefficient, level)
    out = []
    for start in range(0, n_resamples, BLOCK):
        size = min(BLOCK, n_resamples - start)
        draws = rng.multinomial(n, shares, size=size).astype(np.float64)
        out.append(coefficient_of(draws @ features))
    distribution = np.concatenate(out)
    return np.percentile(distribution, [2.5, 97.5])


# --- the runs ----------------------------------------------------------------


def _load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def bench_alpha(n_units):
    import krippendorff

    data = _data(n_units)
    print(
        f"(a) alpha, {N_CODERS} coders x {n_units:,} units, {MISSING:.0%} "
        f"missing; median of {REPEAT} calls"
    )
    header = (
        f"{'level':<10}{'time s':>9}{'anchor s':>10}{'floor s':>9}"
        f"{'/anchor':>9}{'/floor':>8}{'MiB':>8}{'anchor MiB':>12}{'floor MiB':>11}"
    )
    print(header)
    print("-" * len(header))
    for level in ("nominal", "ordinal", "interval"):
        calls = {
            "ours": functools.partial(
                krippendorff_alpha, data, level_of_measurement=level
            ),
            "anchor": functools.partial(
                krippendorff.alpha, data, level_of_measurement=level
            ),
            "floor": functools.partial(floor_alpha, data, level),
        }
        values = {name: float(call()) for name, call in calls.items()}
        spread = max(values.values()) - min(values.values())
        if spread > 1e-10:
            raise AssertionError(f"alpha {level} differs: {values}")
        t = {name: median_time(call, REPEAT) for name, call in calls.items()}
        mib = {name: peak_mib(call) for name, call in calls.items()}
        print(
            f"{level:<10}{t['ours']:>9.3f}{t['anchor']:>10.3f}{t['floor']:>9.3f}"
            f"{t['ours'] / t['anchor']:>9.2f}{t['ours'] / t['floor']:>8.2f}"
            f"{mib['ours']:>8.1f}{mib['anchor']:>12.1f}{mib['floor']:>11.1f}",
            flush=True,
        )


def bench_bootstrap(n_units, n_resamples):
    data = _data(n_units, seed=1)
    print(
        f"\n(b) unit bootstrap, {n_resamples:,} resamples, {N_CODERS} coders x "
        f"{n_units:,} units, {MISSING:.0%} missing, percentile interval, one job"
    )
    header = (
        f"{'coefficient':<20}{'level':<9}{'time s':>8}{'floor s':>9}{'ratio':>7}"
        f"{'cells s':>9}{'MiB':>7}  {'interval':<18}{'floor interval':<18}"
    )
    print(header)
    print("-" * len(header))
    for coefficient in ("krippendorff_alpha", "fleiss_kappa", "gwet_ac"):
        for level in ("nominal", "ordinal"):
            if coefficient == "krippendorff_alpha":
                options = {"level_of_measurement": level}
            else:
                options = {"weights": None if level == "nominal" else "ordinal"}
            ours = functools.partial(
                agreement_confidence_interval,
                data,
                coefficient=coefficient,
                n_resamples=n_resamples,
                random_state=0,
                **options,
            )
            floor = functools.partial(
                floor_bootstrap, data, coefficient, level, n_resamples
            )
            res = ours()
            low, high = floor(np.random.default_rng(0))
            t_ours = median_time(ours, REPEAT)
            t_floor = median_time(lambda f=floor: f(np.random.default_rng(0)), REPEAT)
            t_cells = median_time(
                lambda f=floor: f(np.random.default_rng(0), cells=True), REPEAT
            )
            mib = peak_mib(ours)
            ci = res.confidence_interval
            print(
                f"{coefficient:<20}{level:<9}{t_ours:>8.3f}{t_floor:>9.3f}"
                f"{t_ours / t_floor:>7.2f}{t_cells:>9.3f}{mib:>7.1f}  "
                f"{f'({ci.low:.3f}, {ci.high:.3f})':<18}"
                f"{f'({low:.3f}, {high:.3f})':<18}",
                flush=True,
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    print(f"bench_agreement.py; {_load()}\n")
    krippendorff_alpha(_data(100), level_of_measurement="ordinal")  # warm up
    bench_alpha(20_000 if args.quick else 100_000)
    bench_bootstrap(1_000, 1_999 if args.quick else 9_999)
    print(f"\n{_load()}")


if __name__ == "__main__":
    main()
