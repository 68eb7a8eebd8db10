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
