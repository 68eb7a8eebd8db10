"""Adjustment of a family of p-values, shared by the CLI and the comparisons."""

import numpy as np


def holm(pvalues):
    """Holm's step-down adjustment of a family of p-values.

    ``p_(i) -> max_{j <= i} min(1, (m - j + 1) p_(j))`` over the p-values
    sorted increasingly; returned in the input order (Holm 1979).
    """
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    return adjusted


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg's step-up adjustment (false discovery rate).

    ``p_(i) -> min_{j >= i} min(1, m p_(j) / j)`` over the p-values sorted
    increasingly; returned in the input order (Benjamini & Hochberg 1995),
    as :func:`scipy.stats.false_discovery_control` with ``method="bh"``.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return adjusted
