"""What the results of every test share: intervals, decisions, the z quantile.

The rooms do not import each other sideways; what their results have in
common lives here.
"""

from numbers import Real
from typing import NamedTuple

from scipy import special

from ._compat import Interval, validate_params


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


def _interval_text(interval):
    return f"[{interval.low:.4f}, {interval.high:.4f}]"


class _DecidesMixin:
    """``decide(threshold)`` for results with ``p_h0``, ``p_h1`` and a rope."""

    @validate_params(
        {"threshold": [Interval(Real, 0.5, 1, closed="neither")]},
        prefer_skip_nested_validation=True,
    )
    def decide(self, threshold=0.95):
        """Decide only where the posterior warrants a claim.

        Without a rope: ``"B better"`` when ``P(H1) >= threshold``, ``"B not
        better"`` when ``P(H0) >= threshold``, otherwise ``"undecided"``. With
        a rope, as baycomp's users expect: ``"B better"``, ``"equivalent"`` or
        ``"B worse"`` when that posterior probability reaches ``threshold``,
        otherwise ``"undecided"``.

        Parameters
        ----------
        threshold : float, default=0.95
            Posterior probability a claim needs, in (0.5, 1).

        Returns
        -------
        decision : str

        Notes
        -----
        The paper's rule (``decision`` of
        :class:`~sklearn_faithful.comparison.BayesTestResult`) picks the
        larger of ``P(H0)`` and ``P(H1)``. Two equal models then give "accept
        H1" about half of the time, so that rule is a coin flip at the null;
        this one says "undecided" there.
        """
        if self.rope > 0:
            for claim, p in (
                ("B better", self.p_better),
                ("equivalent", self.p_equivalent),
                ("B worse", self.p_worse),
            ):
                if p >= threshold:
                    return claim
            return "undecided"
        if self.p_h1 >= threshold:
            return "B better"
        if self.p_h0 >= threshold:
            return "B not better"
        return "undecided"

    def _rope_text(self):
        return (
            f"P(B worse) = {self.p_worse:.4f}, P(equivalent) = "
            f"{self.p_equivalent:.4f}, P(B better) = {self.p_better:.4f}"
        )
