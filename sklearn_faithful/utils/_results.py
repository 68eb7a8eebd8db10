"""What the results of every test share: intervals, decisions, ``to_dict``.

The rooms do not import each other sideways; what their results have in
common lives here. Every result is a frozen dataclass with ``summary()``
(text) and ``to_dict()`` (plain JSON values, what the command line prints),
from :class:`_ResultMixin`; tests with an effect add
``confidence_interval(confidence_level)`` (:class:`_EffectTestMixin`, as
scipy's ``TtestResult``), Bayes results ``credible_interval(confidence_level)``
and ``decide(threshold)`` (:class:`_BayesResultMixin`).
"""

import dataclasses
import math
from collections.abc import Mapping
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ._param_validation import Interval, validate_params
from ._validation import CONFIDENCE_LEVEL

# The decisions of ``decide(threshold)``, and of every rule that claims a side.
B_BETTER = "B better"
B_NOT_BETTER = "B not better"
B_WORSE = "B worse"
EQUIVALENT = "equivalent"
UNDECIDED = "undecided"
DECISIONS = (B_BETTER, B_NOT_BETTER, B_WORSE, EQUIVALENT, UNDECIDED)

# ``confidence_level`` of a result's interval method: None is the level of the
# call that built the result (0.95 where the call has none).
RESULT_LEVEL = [*CONFIDENCE_LEVEL, None]
_DEFAULT_LEVEL = 0.95


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
    from scipy.special import ndtri

    return float(ndtri(0.5 + confidence_level / 2))


# Headers of the printed table, for the summary() columns that need one.
_HEADERS = {
    "difference": "B - A",
    "p_h0": "P(H0)",
    "p_h1": "P(H1)",
    "p_worse": "P(B worse)",
    "p_equivalent": "P(equiv.)",
    "p_better": "P(B better)",
    "pvalue": "p",
    "pvalue_holm": "p (Holm)",
    "pvalue_adjusted": "p (adj.)",
    "decision": "paper's rule",
}


def _cell(name, value):
    if isinstance(value, str):
        return value
    if value != value:  # NaN
        return "n/a"
    if name.startswith("pvalue") or name == "df":
        return f"{value:.4g}"
    return f"{value:+.4f}" if name in ("difference", "low", "high") else f"{value:.4f}"


def _text_table(cols):
    """Lines of a summary's columns, headed: text left-aligned, numbers right."""
    columns = []
    for name, values in cols.items():
        head = _HEADERS.get(name, name)
        if head.endswith(("_a", "_b")):  # mean_a: "mean A"
            head = f"{head[:-2]} {head[-1].upper()}"
        cells = [head, *(_cell(name, value) for value in values)]
        width = max(map(len, cells))
        pad = str.ljust if isinstance(values[0], str) else str.rjust
        columns.append([pad(cell, width) for cell in cells])
    return ["  ".join(row).rstrip() for row in zip(*columns, strict=True)]


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


def _interval_text(interval, digits=4):
    """How every summary prints an interval: ``[low, high]``, four places."""
    return f"[{interval.low:.{digits}f}, {interval.high:.{digits}f}]"


def _level_text(confidence_level):
    """A level as summaries print it: ``95%``."""
    return f"{100 * confidence_level:g}%"


def _jsonable(value):
    """``value`` as plain JSON: the one conversion behind every ``to_dict``.

    Python ``bool``, ``int``, ``float``, ``str`` and None; a float that is not
    finite (NaN, ``inf``) becomes None, as the command line prints it; an
    interval becomes ``{"low": ..., "high": ...}``; arrays, tuples and lists
    become lists, mappings dicts, and objects with ``to_dict`` their dict.
    """
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, ConfidenceInterval | CredibleInterval):
        return {"low": _jsonable(value.low), "high": _jsonable(value.high)}
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"{type(value).__name__} has no JSON form: {value!r}")


class _ResultMixin:
    """``to_dict()`` and ``__str__`` of a result dataclass with ``summary()``.

    ``to_dict`` holds ``"result"`` (the class name) and every field, less
    those named in ``_not_in_dict`` (draws and distributions, which the
    command line does not print), plus ``_dict_extra()``: the intervals that
    methods give, at the result's level.
    """

    _not_in_dict = ()

    def to_dict(self):
        """The result as plain JSON values: what the command line prints.

        Returns
        -------
        result : dict
            ``"result"`` (the class name) and the result's values: Python
            numbers, strings, booleans and lists; intervals as ``{"low": ...,
            "high": ...}``; None for NaN and infinite values. The draws and
            distributions are left out. ``json.dumps`` takes it as it is.
        """
        out = {"result": type(self).__name__}
        for f in dataclasses.fields(self):
            if f.name not in self._not_in_dict:
                out[f.name] = _jsonable(getattr(self, f.name))
        out.update(_jsonable(self._dict_extra()))
        return out

    def _dict_extra(self):
        return {}

    def _call_level(self, confidence_level=None):
        """``confidence_level``, or the level of the call when None."""
        if confidence_level is not None:
            return confidence_level
        return getattr(self, "confidence_level", _DEFAULT_LEVEL)

    def __str__(self):
        return self.summary()


class _EffectTestMixin(_ResultMixin):
    """``confidence_interval(confidence_level)`` of a test with an effect.

    As scipy's ``TtestResult``: ``statistic``, ``pvalue`` and this method.
    The class computes ``_confidence_interval(level)``.
    """

    @validate_params(
        {"confidence_level": RESULT_LEVEL}, prefer_skip_nested_validation=True
    )
    def confidence_interval(self, confidence_level=None):
        """Confidence interval of the effect, at any level.

        Parameters
        ----------
        confidence_level : float, default=None
            Coverage of the interval, in (0, 1). None takes the level of the
            call that built the result (0.95 where it has none).

        Returns
        -------
        ci : ConfidenceInterval
            The interval ``(low, high)``; one-sided (an infinite bound) when
            the test is, as in scipy.
        """
        return self._confidence_interval(self._call_level(confidence_level))

    def _dict_extra(self):
        level = self._call_level()
        return {
            "confidence_level": level,
            "confidence_interval": self._confidence_interval(level, warn=False),
        }


class _DecidesMixin:
    """``decide(threshold)`` for objects with ``p_h0``, ``p_h1`` and a rope
    (``p_worse``, ``p_equivalent``, ``p_better``)."""

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
                (B_BETTER, self.p_better),
                (EQUIVALENT, self.p_equivalent),
                (B_WORSE, self.p_worse),
            ):
                if p >= threshold:
                    return claim
            return UNDECIDED
        if self.p_h1 >= threshold:
            return B_BETTER
        if self.p_h0 >= threshold:
            return B_NOT_BETTER
        return UNDECIDED

    def _rope_text(self):
        return (
            f"P(B worse) = {self.p_worse:.4f}, P(equivalent) = "
            f"{self.p_equivalent:.4f}, P(B better) = {self.p_better:.4f}"
        )


class _BayesResultMixin(_DecidesMixin, _ResultMixin):
    """``credible_interval`` of a Bayes result with a ``posterior`` of B - A.

    The posterior is one distribution of the difference (a frozen scipy
    distribution or one built like it), as baycomp's ``Posterior``.
    """

    @validate_params(
        {"confidence_level": RESULT_LEVEL}, prefer_skip_nested_validation=True
    )
    def credible_interval(self, confidence_level=None):
        """Credible interval of the difference B - A, at any level.

        Parameters
        ----------
        confidence_level : float, default=None
            Posterior probability inside the interval, in (0, 1). None takes
            the level of the call that built the result (0.95 where it has
            none).

        Returns
        -------
        interval : CredibleInterval
            The equal-tailed interval ``(low, high)`` of the posterior of the
            difference.
        """
        level = self._call_level(confidence_level)
        return CredibleInterval(*map(float, self.posterior.interval(level)))

    def _dict_extra(self):
        level = self._call_level()
        return {
            "confidence_level": level,
            "credible_interval": self.credible_interval(level),
        }


class _SampledPosterior:
    """A posterior known by its draws, with the frozen-distribution methods
    the results use (``mean``, ``cdf``, ``ppf``, ``interval``)."""

    def __init__(self, draws):
        self.draws = np.sort(np.asarray(draws, dtype=np.float64).ravel())

    def mean(self):
        return float(self.draws.mean())

    def cdf(self, x):
        return np.searchsorted(self.draws, x, side="right") / self.draws.size

    def ppf(self, q):
        return np.quantile(self.draws, q)

    def interval(self, confidence):
        tail = (1.0 - confidence) / 2
        low, high = self.ppf([tail, 1.0 - tail])
        return float(low), float(high)
