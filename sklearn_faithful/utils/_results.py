"""Pieces shared by the results of every test: intervals and the normal quantile.

``stats`` and ``comparison`` are peers that do not import each other; what
their results have in common lives here.
"""

from typing import NamedTuple

from scipy import special


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``.

    Like the ``confidence_interval`` field of scipy's ``BootstrapResult``: a
    named tuple that unpacks as ``low, high = ci``.

    Attributes
    ----------
    low : float
        Lower bound; ``-inf`` for a one-sided ``alternative="less"`` interval.
    high : float
        Upper bound; ``inf`` for a one-sided ``alternative="greater"`` interval.
    """

    low: float
    high: float


class CredibleInterval(NamedTuple):
    """An equal-tailed credible interval ``(low, high)`` of a posterior.

    A named tuple that unpacks as ``low, high = interval``.

    Attributes
    ----------
    low : float
        The ``(1 - level) / 2`` quantile of the posterior.
    high : float
        The ``(1 + level) / 2`` quantile of the posterior.
    """

    low: float
    high: float


def _two_sided_z(confidence_level):
    """Two-sided normal critical value ``Phi^-1(1/2 + level/2)`` (1.96 at 95%).

    ``confidence_level`` is validated by the public caller.
    """
    return float(special.ndtri(0.5 + confidence_level / 2))


def _summary_table(cols, as_frame, index=None):
    """A summary's columns as they are, or as a pandas DataFrame."""
    if not as_frame:
        return cols
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover
        raise ImportError(
            "summary(as_frame=True) requires pandas: pip install pandas"
        ) from exc
    frame = pd.DataFrame(cols)
    return frame if index is None else frame.set_index(index)
