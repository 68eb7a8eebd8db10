"""Statistics of data at any magnitude, computed on rescaled values.

Squares of numbers beyond 1e154 overflow and those below 1e-154 underflow, and
a sum of a few numbers near the largest float overflows, although a standard
deviation or a mean of such numbers is a float like any other. These helpers
divide the data by a power of two ``2**e`` near their largest magnitude,
compute there, and multiply back: multiplying by a power of two is exact (away
from subnormal numbers), so at ordinary magnitudes the results are the very
bits of the direct computation.
"""

import math

import numpy as np


def _exponent(*values):
    """The ``e`` with the largest finite magnitude of ``values`` in
    ``[2**(e - 1), 2**e)``; 0 when they are all 0 (or hold none)."""
    top = 0.0
    for value in values:
        arr = np.abs(np.asarray(value, dtype=float))
        arr = arr[np.isfinite(arr)]
        if arr.size:
            top = max(top, float(arr.max()))
    return math.frexp(top)[1] if top > 0 else 0


def rescaled(*values):
    """Return ``(e, values * 2**-e)``: each of ``values`` (numbers or arrays)
    divided by the same power of two, their largest magnitude then in
    ``[0.5, 1)``. Multiply a result in the data's units back with
    ``np.ldexp(result, e)``, one in squared units with ``2 * e``.
    """
    e = _exponent(*values)
    return e, tuple(np.ldexp(np.asarray(v, dtype=float), -e) for v in values)


def scaled_mean(x):
    """``mean(x)`` with no overflow of the sum: ``2**e mean(x / 2**e)``."""
    e, (x,) = rescaled(x)
    return float(np.ldexp(x.mean(), e))


def scaled_std(x, ddof=0):
    """``std(x, ddof)`` with no overflow or underflow of the squares:
    ``2**e std(x / 2**e, ddof)``."""
    e, (x,) = rescaled(x)
    return float(np.ldexp(x.std(ddof=ddof), e))
