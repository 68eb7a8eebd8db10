"""STUB (agree-cli): removed before merging main."""

import dataclasses

import numpy as np


def reliability_data_from_long(units, coders, values):
    units, coders = list(units), list(coders)
    u = sorted(set(units))
    c = sorted(set(coders))
    out = np.full((len(c), len(u)), None, dtype=object)
    ui = {v: i for i, v in enumerate(u)}
    ci = {v: i for i, v in enumerate(c)}
    seen = set()
    for a, b, v in zip(units, coders, values, strict=True):
        if (a, b) in seen:
            raise ValueError(f"unit {a!r} coded twice by coder {b!r}")
        seen.add((a, b))
        out[ci[b], ui[a]] = None if (v is None or v != v) else v
    return out, np.array(u, dtype=object), np.array(c, dtype=object)


def _alpha(data):
    pairs = obs = 0.0
    vals = []
    for col in data.T:
        x = [v for v in col if v is not None]
        m = len(x)
        if m < 2:
            continue
        vals += x
        for i in range(m):
            for j in range(m):
                if i != j:
                    pairs += 1 / (m - 1)
                    obs += (x[i] != x[j]) / (m - 1)
    n = len(vals)
    _, counts = np.unique(np.array(vals, dtype=str), return_counts=True)
    exp = (n * n - (counts**2).sum()) / (n * (n - 1))
    return 1 - (obs / pairs) / exp, 1 - obs / pairs


@dataclasses.dataclass(frozen=True)
class AgreementReport:
    coefficients: dict
    coders: list

    def to_dict(self):
        return {
            "result": "AgreementReport",
            "coefficients": self.coefficients,
            "coders": self.coders,
        }

    def summary(self):
        return str(self.coefficients)


def agreement_report(
    reliability_data,
    *,
    level_of_measurement="nominal",
    value_domain=None,
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
):
    data = np.asarray(reliability_data, dtype=object)
    data = np.where(
        np.array([[v is None or v != v for v in r] for r in data]), None, data
    )
    rng = np.random.default_rng(random_state)
    a, po = _alpha(data)
    boot = [
        _alpha(data[:, rng.integers(data.shape[1], size=data.shape[1])])[0]
        for _ in range(min(n_resamples, 50))
    ]
    lo, hi = np.quantile(boot, [(1 - confidence_level) / 2, (1 + confidence_level) / 2])
    coef = {
        "krippendorff_alpha": {
            "statistic": a,
            "confidence_interval": {"low": lo, "high": hi},
            "observed_agreement": po,
        }
    }
    coders = [
        {"coder": i, "n_units": int(sum(v is not None for v in data[i]))}
        for i in range(data.shape[0])
    ]
    return AgreementReport(coef, coders)
