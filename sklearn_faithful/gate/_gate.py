"""Accuracy-regression gates: threshold, minimum detectable effect, sample size.

From the accuracy-regression text (formulas page, "Accuracy regression
gate"): a reference mean from ``n`` items, a one-tailed test of "the new run is
worse", the threshold ``gamma`` it must not cross, the smallest drop ``theta``
it detects with power ``1 - beta``, and the ``n`` that reaches a target
``theta``.
"""

import json
import math
import os
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy import special
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError

from ..utils._files import read_text
from ..utils._measured import (
    UNPAIRED_GATE_FALSE_ALARMS,
    UNPAIRED_GATE_FALSE_ALARMS_AT_01,
    UNPAIRED_GATE_SKEWED_FALSE_ALARMS,
)
from ..utils._param_validation import Interval, validate_params
from ..utils._results import (
    ConfidenceInterval,
    _EffectTestMixin,
    _interval_text,
    _level_text,
)
from ..utils._scaling import rescaled, scaled_mean, scaled_std
from ..utils._validation import _validate_init_params, _validate_method


@dataclass(frozen=True)
class RegressionCheckResult(_EffectTestMixin):
    """Result of :meth:`AccuracyRegressionTest.check`.

    Follows scipy's ``TtestResult``: ``statistic``, ``pvalue`` and a method
    ``confidence_interval(confidence_level)``, of the ``effect``, one-sided
    as the gate's test is.

    Attributes
    ----------
    passed : bool
        True when no regression is detected (the new mean is on the right side
        of the threshold).
    threshold : float
        ``gamma``: the new mean must not fall below it (above it when lower is
        better).
    observed_mean : float
        Mean score of the new run.
    reference_mean : float
        Mean score of the reference.
    effect : float
        ``observed_mean - reference_mean``.
    standard_error : float
        Standard error of ``effect``: ``sqrt(2 sigma^2 / n)`` unpaired, the
        standard deviation of the per-item differences over ``sqrt(n)``
        paired.
    statistic : float
        The z statistic of the one-tailed test, ``effect / standard_error``
        (its sign flipped when lower is better).
    pvalue : float
        One-tailed p-value of "the new run is worse".
    alternative : str
        ``"less"`` (the new run is worse: a lower mean) when higher is
        better, ``"greater"`` otherwise.
    confidence_level : float
        ``1 - alpha``, the level of :meth:`confidence_interval` by default.
        The run passes exactly when that interval reaches 0.
    power_at_theta : float
        Probability of flagging a true regression of size ``theta``; NaN
        without ``theta``.
    n : int
        Items per run.
    paired : bool
        Whether per-item differences were used.
    """

    passed: bool
    threshold: float
    observed_mean: float
    reference_mean: float
    effect: float
    standard_error: float
    statistic: float
    pvalue: float
    alternative: str
    confidence_level: float
    power_at_theta: float
    n: int
    paired: bool

    def _confidence_interval(self, confidence_level, warn=True):
        # effect -+ z_level se on the side the test looks at
        half = float(special.ndtri(confidence_level)) * self.standard_error
        if self.alternative == "less":
            return ConfidenceInterval(-math.inf, self.effect + half)
        return ConfidenceInterval(self.effect - half, math.inf)

    def summary(self):
        """Describe the check in one plain-text paragraph.

        Returns
        -------
        text : str
            Whether the run passed, the means, the effect with its interval,
            the threshold, the z statistic, the p-value and the power.
        """
        level = self.confidence_level
        ci = self._confidence_interval(level)
        text = (
            f"{'passed' if self.passed else 'REGRESSION'}: new mean "
            f"{self.observed_mean:.4f}, reference {self.reference_mean:.4f} "
            f"({self.n} items, {'paired' if self.paired else 'unpaired'}); "
            f"threshold {self.threshold:.4f}\neffect {self.effect:+.4f}, "
            f"{_level_text(level)} one-sided CI {_interval_text(ci)}; z = "
            f"{self.statistic:.3f}, p = {self.pvalue:.4g}"
        )
        if math.isfinite(self.power_at_theta):
            text += f"; power at theta {self.power_at_theta:.3f}"
        return text


# alpha and beta are error rates of a one-tailed test: below one half
_RATE = [Interval(Real, 0, 0.5, closed="neither")]
_POSITIVE = [Interval(Real, 0, None, closed="neither")]
_N_ITEMS = [Interval(Integral, 1, None, closed="left")]


# Below this n min(p, 1 - p), the unpaired gate's false alarms on 0/1 scores
# exceeded 6% at alpha = 0.05 (benchmarks/sim_gate_false_alarms.py, seed 0);
# for other scores, below this many times the squared skewness of the
# reference (the same rule: for 0/1 scores near p = 0 or 1 the squared
# skewness is about 1 / min(p, 1 - p)). Skewed scores ran to 17.9% at 50 and
# 11.7% at 500 items (lognormal latencies, --held-back, seed 20261207).
_MIN_EXPECTED_ERRORS = 100


def _skewness(scores):
    """The sample skewness ``mean(z^3)`` of ``z = (x - mean) / sd`` (ddof 0),
    at any magnitude of the scores; 0 when they are all equal."""
    _, (x,) = rescaled(scores)
    d = x - x.mean()
    sd = np.sqrt(np.mean(d * d))
    return float(np.mean((d / sd) ** 3)) if sd > 0 else 0.0


def _warn_if_normal_approximation_is_poor(scores, alpha):
    """Warn when the unpaired gate's normal approximation is poor: for 0/1
    scores, n min(p, 1 - p) < 100; for others, n < 100 skewness^2."""
    if np.isin(scores, (0.0, 1.0)).all():
        p = float(scores.mean())
        expected = scores.size * min(p, 1 - p)
        if expected >= _MIN_EXPECTED_ERRORS:
            return
        why = (
            f"the reference's accuracy {p:.3g} on {scores.size} items leaves "
            f"n min(p, 1 - p) = {expected:.3g} < {_MIN_EXPECTED_ERRORS}"
        )
        measured = (
            f"its false alarms reached {UNPAIRED_GATE_FALSE_ALARMS.value} at "
            f"alpha=0.05 and {UNPAIRED_GATE_FALSE_ALARMS_AT_01.value} at alpha=0.01 "
            "in simulation"
        )
    else:
        skewness = _skewness(scores)
        if scores.size >= _MIN_EXPECTED_ERRORS * skewness**2:
            return
        why = (
            f"the reference's scores are skewed (sample skewness {skewness:.3g} on "
            f"{scores.size} items, fewer than {_MIN_EXPECTED_ERRORS} skewness^2 = "
            f"{_MIN_EXPECTED_ERRORS * skewness**2:.3g})"
        )
        measured = (
            f"its false alarms reached {UNPAIRED_GATE_SKEWED_FALSE_ALARMS.value} at "
            "alpha=0.05 for lognormal latencies on 50 items in simulation"
        )
    warnings.warn(
        f"{why}: the unpaired gate's normal approximation is poor there, and "
        f"{measured} (user guide; alpha here is {alpha:g}). Use paired=True on "
        "the same items, or more items.",
        UserWarning,
        stacklevel=5,  # set_reference and its two validation wrappers
    )


def _standard_error(sigma, n, z=1.0):
    """``z sqrt(2 sigma^2 / n)``, the standard error of a difference of two
    means of ``n`` scores (times ``z``), at any magnitude of ``sigma``.

    With ``s = sigma / 2**e``, ``2**e z sqrt(2 s^2 / n)``: ``sigma^2`` itself
    overflows beyond 1e154 and underflows below 1e-154.
    """
    e, (s,) = rescaled(sigma)
    return np.ldexp(z * np.sqrt(2 * s**2 / n), e)


def _check_scores(scores):
    """Per-item scores as a 1-D float array of at least 2 finite values."""
    arr = np.asarray(scores, dtype=float)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(
            f"scores must be 1-D with at least 2 items; got shape {arr.shape}."
        )
    if not np.isfinite(arr).all():
        row = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"scores contains NaN or infinity at item {row}.")
    return arr


# What AccuracyRegressionTest.save writes: its settings, its reference, and
# the format's name and version, so that load knows what it reads.
_SAVED_FORMAT = "sklearn-faithful AccuracyRegressionTest"
_SAVED_VERSION = 1
_SAVED_SETTINGS = ("alpha", "beta", "theta", "sigma", "higher_is_better", "paired")
_SAVED_KEYS = {
    "format",
    "version",
    *_SAVED_SETTINGS,
    "reference_mean",
    "n",
    "sigma_",
    "reference_scores",
}
# a reference of 10 million scores is about 200 MB of JSON
_SAVED_MAX_BYTES = 2**30


def _saved_number(data, key, where, *, integer=False, low=None, allow_none=False):
    """``data[key]``, a finite number (not a boolean), or a ValueError."""
    value = data[key]
    if value is None and allow_none:
        return None
    kind = Integral if integer else Real
    ok = isinstance(value, kind) and not isinstance(value, bool)
    if ok and not integer:
        ok = math.isfinite(value)
    if ok and low is not None:
        ok = value >= low
    if not ok:
        allowed = "an integer" if integer else "a finite number"
        if low is not None:
            allowed += f" >= {low}"
        if allow_none:
            allowed += " or null"
        raise ValueError(f"{where}: key {key!r} is {value!r}; it must be {allowed}.")
    return value


def _read_saved_gate(path):
    """The checked content of a file :meth:`AccuracyRegressionTest.save` wrote."""
    where = repr(os.fspath(path))
    text, _ = read_text(path, what="the saved gate", max_bytes=_SAVED_MAX_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{where} is not JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}); load reads the file save writes."
        ) from None
    if not isinstance(data, dict) or data.get("format") != _SAVED_FORMAT:
        raise ValueError(
            f"{where} is not a saved AccuracyRegressionTest (its 'format' key is "
            f"not {_SAVED_FORMAT!r}); load reads the file save writes."
        )
    if data.get("version") != _SAVED_VERSION:
        raise ValueError(
            f"{where}: key 'version' is {data.get('version')!r}; this version of "
            f"sklearn-faithful reads version {_SAVED_VERSION}."
        )
    missing, unknown = _SAVED_KEYS - set(data), set(data) - _SAVED_KEYS
    if missing or unknown:
        raise ValueError(
            f"{where}: keys {sorted(missing)} are missing and {sorted(unknown)} "
            "unknown; load reads the file save writes."
        )
    for key in ("higher_is_better", "paired"):
        if not isinstance(data[key], bool):
            raise ValueError(
                f"{where}: key {key!r} is {data[key]!r}; it must be true or false."
            )
    for key in ("alpha", "beta"):
        _saved_number(data, key, where)
    for key in ("theta", "sigma"):
        _saved_number(data, key, where, allow_none=True)
    n = _saved_number(data, "n", where, integer=True, low=2)
    _saved_number(data, "reference_mean", where)
    sigma = _saved_number(data, "sigma_", where, low=0)
    scores = data["reference_scores"]
    if data["paired"]:
        if not isinstance(scores, list) or len(scores) != n:
            raise ValueError(
                f"{where}: key 'reference_scores' must list the n = {n} paired "
                f"reference scores; got {type(scores).__name__}"
                + (f" of {len(scores)}" if isinstance(scores, list) else "")
                + "."
            )
        for i, score in enumerate(scores):
            _saved_number({"score": score}, "score", f"{where}, reference_scores[{i}]")
        arr = np.asarray(scores, dtype=float)
        # the stored summaries must be those of the stored scores
        expected = {
            "reference_mean": scaled_mean(arr),
            "sigma_": scaled_std(arr, ddof=1)
            if data["sigma"] is None
            else data["sigma"],
        }
        # a tolerance in the scores' units: 1e-12 of their largest magnitude
        tolerance = 1e-12 * float(np.abs(arr).max())
        for key, value in expected.items():
            if not math.isclose(data[key], value, rel_tol=1e-9, abs_tol=tolerance):
                raise ValueError(
                    f"{where}: key {key!r} is {data[key]!r} but the stored "
                    f"reference_scores give {float(value)!r}; the file was changed "
                    "after save wrote it."
                )
    else:
        if scores is not None:
            raise ValueError(
                f"{where}: key 'reference_scores' must be null for an unpaired gate."
            )
        if sigma <= 0:
            raise ValueError(
                f"{where}: key 'sigma_' is {sigma!r}; an unpaired gate needs a "
                "positive standard deviation."
            )
        if data["sigma"] is not None and not math.isclose(sigma, data["sigma"]):
            raise ValueError(
                f"{where}: key 'sigma_' is {sigma!r} but key 'sigma' is "
                f"{data['sigma']!r}; the file was changed after save wrote it."
            )
    return data


@validate_params(
    {
        "scores": ["array-like", None],
        "proportion": [Interval(Real, 0, 1, closed="both"), None],
    },
    prefer_skip_nested_validation=True,
)
def estimate_sigma(scores=None, *, proportion=None):
    """Standard deviation of per-item scores, from the scores or from a rate.

    Parameters
    ----------
    scores : array-like of shape (n_samples,), default=None
        Per-item scores (1/0 correctness, BLEU per sentence, ...); sigma is
        their sample standard deviation.
    proportion : float, default=None
        For 0/1 scores with known accuracy ``p``: ``sqrt(p (1 - p))``.

    Returns
    -------
    sigma : float

    Notes
    -----
    The worst case, ``sigma = 0.5`` for 0/1 scores, holds only at ``p =
    0.5``. At an accuracy of 0.9, ``sigma = 0.3``, and the worst case asks for
    ``(0.5 / 0.3)^2 = 2.8`` times as many items as needed.

    Examples
    --------
    >>> from sklearn_faithful.gate import estimate_sigma
    >>> round(estimate_sigma(proportion=0.9), 12)
    0.3
    """
    if (scores is None) == (proportion is None):
        raise ValueError("pass exactly one of scores and proportion.")
    if proportion is not None:
        return math.sqrt(proportion * (1 - proportion))
    return scaled_std(_check_scores(scores), ddof=1)


@validate_params(
    {
        "reference_mean": [Interval(Real, None, None, closed="neither")],
        "sigma": _POSITIVE,
        "n": _N_ITEMS,
        "alpha": _RATE,
        "higher_is_better": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def regression_threshold(
    reference_mean, sigma, n, *, alpha=0.05, higher_is_better=True
):
    """Threshold ``gamma`` a new run's mean must not cross.

    ``gamma = x_ref + Phi^-1(alpha) sqrt(2 sigma^2 / n)``: below the
    reference when higher is better, mirrored above it otherwise.

    Parameters
    ----------
    reference_mean : float
        Mean score of the reference run.
    sigma : float
        Standard deviation of per-item scores.
    n : int
        Items per run.
    alpha : float, default=0.05
        False-alarm rate, in (0, 0.5).
    higher_is_better : bool, default=True
        Direction of the score.

    Returns
    -------
    gamma : float

    Examples
    --------
    >>> from sklearn_faithful.gate import regression_threshold
    >>> round(regression_threshold(0.9, 0.3, 1000), 4)
    0.8779
    """
    # regression gate: gamma = x_ref + Phi^-1(alpha) sqrt(2 sigma^2 / n), the
    # shift negative for alpha < 0.5
    shift = float(_standard_error(sigma, n, special.ndtri(alpha)))
    return reference_mean + shift if higher_is_better else reference_mean - shift


@validate_params(
    {"sigma": _POSITIVE, "n": _N_ITEMS + ["array-like"], "alpha": _RATE, "beta": _RATE},
    prefer_skip_nested_validation=True,
)
def minimum_detectable_effect(sigma, n, *, alpha=0.05, beta=0.2):
    """Smallest true drop ``theta`` detected with power ``1 - beta``.

    ``theta = -(Phi^-1(alpha) + Phi^-1(beta)) sqrt(2 sigma^2 / n)``.

    Parameters
    ----------
    sigma : float
        Standard deviation of per-item scores.
    n : int or array-like of int
        Items per run.
    alpha : float, default=0.05
        False-alarm rate, in (0, 0.5).
    beta : float, default=0.2
        Miss rate at ``theta``, in (0, 0.5).

    Returns
    -------
    theta : float or ndarray

    Examples
    --------
    >>> from sklearn_faithful.gate import minimum_detectable_effect
    >>> round(minimum_detectable_effect(0.3, 1000), 4)
    0.0334
    """
    n_arr = np.asarray(n)
    if n_arr.dtype.kind not in "iu" or (n_arr < 1).any():
        raise ValueError(f"n must hold integers >= 1; got {n!r}.")
    # regression gate: theta = -(Phi^-1(alpha) + Phi^-1(beta)) sqrt(2 sigma^2 / n)
    z = -(special.ndtri(alpha) + special.ndtri(beta))
    theta = _standard_error(sigma, n_arr, z)
    return float(theta) if theta.ndim == 0 else theta


@validate_params(
    {
        "sigma": _POSITIVE,
        "theta": _POSITIVE,
        "alpha": _RATE,
        "beta": _RATE,
        "return_table": ["boolean"],
        "table_sizes": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def required_sample_size(
    sigma, theta, *, alpha=0.05, beta=0.2, return_table=False, table_sizes=None
):
    """Items per run that detect a drop of ``theta`` with power ``1 - beta``.

    The closed form is ``n = ceil(2 sigma^2 (z_{1-alpha} + z_{1-beta})^2 /
    theta^2)``, the smallest ``n`` with ``theta(n) <= theta``.

    Parameters
    ----------
    sigma : float
        Standard deviation of per-item scores.
    theta : float
        Target minimum detectable effect, > 0.
    alpha, beta : float, default=0.05 and 0.2
        In (0, 0.5).
    return_table : bool, default=False
        Also return the text's table: ``theta(n)`` for increasing ``n``, to
        see the trade-off.
    table_sizes : array-like of int, default=None
        ``n`` values of the table; default: powers of two and the answer.

    Returns
    -------
    n : int
    table : dict with keys "n" and "theta", only with ``return_table=True``

    Examples
    --------
    >>> from sklearn_faithful.gate import required_sample_size
    >>> required_sample_size(0.3, 0.02)
    2783
    """
    # regression gate: n = ceil(2 sigma^2 (z_{1-alpha} + z_{1-beta})^2 / theta^2)
    z = float(special.ndtri(1 - alpha) + special.ndtri(1 - beta))
    with np.errstate(over="ignore"):  # sigma / theta may overflow: this is inf
        ratio = np.float64(sigma) / theta * z
        exact = 2 * ratio * ratio
    if not exact <= 2**53:
        raise ValueError(
            f"theta={theta!r} is too small for sigma={sigma!r}: detecting it would "
            f"need about {exact:.3g} items per run, beyond what can be counted "
            "exactly. Ask for a larger theta."
        )
    n = max(1, math.ceil(exact))
    # guard the ceiling against rounding: the defining inequality decides
    while (
        n > 1
        and minimum_detectable_effect(sigma, n - 1, alpha=alpha, beta=beta) <= theta
    ):
        n -= 1
    while minimum_detectable_effect(sigma, n, alpha=alpha, beta=beta) > theta:
        n += 1
    if not return_table:
        return n
    if table_sizes is None:
        sizes = sorted({2**k for k in range(1, max(2, n.bit_length() + 2))} | {n})
    else:
        sizes = sorted(int(s) for s in table_sizes)
    sizes = np.asarray(sizes, dtype=np.int64)
    return n, {
        "n": sizes,
        "theta": minimum_detectable_effect(sigma, sizes, alpha=alpha, beta=beta),
    }


class AccuracyRegressionTest(BaseEstimator):
    """A regression gate for a model's CI: plan, store a reference, check runs.

    An estimator-like object: ``get_params``, ``set_params``, ``clone`` and
    scikit-learn's repr work, :meth:`set_reference` plays the part of ``fit``
    (its results end in ``_``), and :meth:`check` or :meth:`save` before it
    raise :class:`~sklearn.exceptions.NotFittedError`.

    Parameters
    ----------
    alpha : float, default=0.05
        False-alarm rate of the one-tailed test, in (0, 0.5).
    beta : float, default=0.2
        Miss rate at ``theta``, in (0, 0.5).
    theta : float, default=None
        The drop that must be caught; used by :meth:`plan` and for the power
        reported by :meth:`check`.
    sigma : float, default=None
        Standard deviation of per-item scores; None estimates it from the
        reference scores.
    higher_is_better : bool, default=True
        Direction of the score.
    paired : bool, default=True
        Test per-item differences against the stored reference scores (the
        same items in the same order). Much more powerful when the per-item
        scores of two runs are correlated, as they are for one test set, and
        its false alarms stayed near alpha in simulation (at most 6.3% at
        alpha = 0.05 on 50 to 5,000 items, user guide). False is the
        text's unpaired gate, ``gamma = x_ref + Phi^-1(alpha) sqrt(2 sigma^2
        / n)``, which needs no stored scores. Its normal approximation is
        poor, and :meth:`set_reference` warns, for 0/1 scores with ``n min(p,
        1 - p) < 100`` (false alarms up to 10.1% at alpha = 0.05, 3.4% at
        alpha = 0.01) and for other scores with ``n < 100 skewness^2``
        (17.9% for lognormal latencies on 50 items) in simulation.

    Attributes
    ----------
    reference_mean_, n_, sigma_, threshold_ : float, int, float, float
        Set by :meth:`set_reference`.
    reference_scores_ : ndarray or None
        The reference's per-item scores (kept when ``paired``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.gate import AccuracyRegressionTest
    >>> gate = AccuracyRegressionTest(theta=0.03, sigma=0.3)
    >>> gate.plan()
    1237
    >>> rng = np.random.default_rng(0)
    >>> gate = gate.set_reference((rng.random(1237) < 0.90).astype(float))
    >>> gate.check((rng.random(1237) < 0.85).astype(float)).passed
    False
    """

    def __init__(
        self,
        *,
        alpha=0.05,
        beta=0.2,
        theta=None,
        sigma=None,
        higher_is_better=True,
        paired=True,
    ):
        self.alpha = alpha
        self.beta = beta
        self.theta = theta
        self.sigma = sigma
        self.higher_is_better = higher_is_better
        self.paired = paired

    _parameter_constraints = {
        "alpha": _RATE,
        "beta": _RATE,
        "theta": _POSITIVE + [None],
        "sigma": _POSITIVE + [None],
        "higher_is_better": ["boolean"],
        "paired": ["boolean"],
    }

    def _validate_params(self):
        _validate_init_params(self)

    def _check_reference(self, method):
        # NotFittedError is a ValueError too, as the message was before
        if not hasattr(self, "reference_mean_"):
            raise NotFittedError(
                f"This {type(self).__name__} has no reference yet; call "
                f"set_reference(scores) (or load a saved gate) before {method}."
            )

    @_validate_method({"sigma": _POSITIVE + [None], "theta": _POSITIVE + [None]})
    def plan(self, sigma=None, theta=None):
        """Items per run needed to catch a drop of ``theta`` (closed form).

        Parameters
        ----------
        sigma : float, default=None
            Per-item standard deviation; None uses the gate's ``sigma``.
        theta : float, default=None
            Smallest drop to catch; None uses the gate's ``theta``.

        Returns
        -------
        n : int
            :func:`required_sample_size` at the gate's ``alpha`` and ``beta``.
        """
        sigma = self.sigma if sigma is None else sigma
        theta = self.theta if theta is None else theta
        if sigma is None or theta is None:
            raise ValueError("plan needs sigma and theta (as arguments or set).")
        return required_sample_size(sigma, theta, alpha=self.alpha, beta=self.beta)

    @_validate_method({"scores": ["array-like"]})
    def set_reference(self, scores):
        """Store the reference run's per-item scores.

        Parameters
        ----------
        scores : array-like of shape (n,)
            Per-item scores of the reference run.

        Returns
        -------
        self : object
        """
        arr = _check_scores(scores)
        self.n_ = int(arr.size)
        self.reference_mean_ = scaled_mean(arr)
        self.sigma_ = (
            float(self.sigma) if self.sigma is not None else scaled_std(arr, ddof=1)
        )
        if self.sigma_ <= 0 and not self.paired:
            raise ValueError(
                f"all {self.n_} reference scores equal {float(arr[0])!r}, so their "
                "standard deviation is 0 and the unpaired gate has no threshold. "
                "Use paired=True, which tests the per-item differences of the "
                "same items, or pass sigma=: for 0/1 scores of a perfect run, "
                f"estimate_sigma(proportion=1 - 3 / {self.n_}) uses the rule of "
                "three's 95% bound on the error rate."
            )
        if not self.paired:
            _warn_if_normal_approximation_is_poor(arr, self.alpha)
        # paired: the threshold of each check comes from its differences
        self.threshold_ = regression_threshold(
            self.reference_mean_,
            self.sigma_ if self.sigma_ > 0 else np.finfo(float).tiny,
            self.n_,
            alpha=self.alpha,
            higher_is_better=self.higher_is_better,
        )
        self.reference_scores_ = arr.copy() if self.paired else None
        return self

    @_validate_method({"scores": ["array-like"]})
    def check(self, scores):
        """Test a new run against the reference.

        Parameters
        ----------
        scores : array-like of shape (n,)
            Per-item scores of the new run; for ``paired``, on the reference's
            items in the same order.

        Returns
        -------
        result : RegressionCheckResult
        """
        self._check_reference("check")
        arr = _check_scores(scores)
        if arr.size != self.n_:
            raise ValueError(
                f"scores has {arr.size} items; the reference has {self.n_}. The "
                "gate's threshold is planned for that many."
            )
        sign = 1.0 if self.higher_is_better else -1.0
        z_alpha = float(special.ndtri(self.alpha))
        # Everything in units of 2**e, a power of two near the scores' largest
        # magnitude (exact, so ordinary scores give the same bits): there the
        # sums, differences and squares neither overflow nor underflow.
        if self.paired:
            e, (new, reference) = rescaled(arr, self.reference_scores_)
            mean, reference_mean = new.mean(), reference.mean()
            # effect = mean_i(d_i) and se = sd(d) / sqrt(n) of d_i = new_i -
            # reference_i: the mean of the differences is exact under a shift,
            # where the difference of the means would cancel
            diff = new - reference
            effect = diff.mean()
            se = diff.std(ddof=1) / math.sqrt(self.n_)
            if se == 0:
                se = np.finfo(float).tiny
            threshold = reference_mean + sign * z_alpha * se
        else:
            e, (mean, reference_mean, threshold, sigma) = rescaled(
                scaled_mean(arr), self.reference_mean_, self.threshold_, self.sigma_
            )
            se = _standard_error(sigma, self.n_)  # sqrt(2 sigma^2 / n)
            effect = mean - reference_mean
        statistic = sign * effect / se
        pvalue = float(special.ndtr(statistic))  # P(Z <= z): small = worse
        if self.theta is None:
            power = float("nan")
        else:
            with np.errstate(over="ignore"):  # theta far beyond the scores: 1
                power = float(special.ndtr(np.ldexp(self.theta, -e) / se + z_alpha))
        # passed: the mean is on the right side of the threshold, gamma = x_ref
        # + sign z_alpha se, that is sign * effect >= z_alpha se
        passed = bool(sign * effect >= z_alpha * se)
        return RegressionCheckResult(
            passed=passed,
            threshold=float(np.ldexp(threshold, e)),
            observed_mean=float(np.ldexp(mean, e)),
            reference_mean=self.reference_mean_,
            effect=float(np.ldexp(effect, e)),
            standard_error=float(np.ldexp(se, e)),
            statistic=float(statistic),
            pvalue=pvalue,
            alternative="less" if self.higher_is_better else "greater",
            confidence_level=1.0 - self.alpha,
            power_at_theta=power,
            n=self.n_,
            paired=self.paired,
        )

    @validate_params({"path": [str, os.PathLike]}, prefer_skip_nested_validation=True)
    def save(self, path):
        """Write the settings and the reference to a JSON file.

        Parameters
        ----------
        path : str or path-like
            File to write; :meth:`load` reads it back.
        """
        self._check_reference("save")
        data = dict(
            format=_SAVED_FORMAT,
            version=_SAVED_VERSION,
            alpha=self.alpha,
            beta=self.beta,
            theta=self.theta,
            sigma=self.sigma,
            higher_is_better=self.higher_is_better,
            paired=self.paired,
            reference_mean=self.reference_mean_,
            n=self.n_,
            sigma_=self.sigma_,
            reference_scores=None
            if self.reference_scores_ is None
            else self.reference_scores_.tolist(),
        )
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)

    @classmethod
    @validate_params({"path": [str, os.PathLike]}, prefer_skip_nested_validation=True)
    def load(cls, path):
        """Read a gate written by :meth:`save`.

        Parameters
        ----------
        path : str or path-like
            A file written by :meth:`save`.

        Returns
        -------
        gate : AccuracyRegressionTest
            The gate with its reference set, ready to :meth:`check`.

        Raises
        ------
        ValueError
            If the file is not one :meth:`save` writes: not a regular file,
            not JSON, a key missing or unknown, a value of the wrong type,
            not finite, out of range, or inconsistent with the others (the
            paired scores must give the stored mean, size and standard
            deviation). The message names the file and the key.
        """
        data = _read_saved_gate(path)
        try:
            gate = cls(**{key: data[key] for key in _SAVED_SETTINGS})
            gate._validate_params()
        except ValueError as exc:
            raise ValueError(f"{os.fspath(path)!r}: {exc}") from None
        gate.n_ = data["n"]
        gate.reference_mean_ = float(data["reference_mean"])
        gate.sigma_ = float(data["sigma_"])
        gate.reference_scores_ = (
            None
            if data["reference_scores"] is None
            else np.asarray(data["reference_scores"], dtype=float)
        )
        gate.threshold_ = regression_threshold(
            gate.reference_mean_,
            gate.sigma_,
            gate.n_,
            alpha=gate.alpha,
            higher_is_better=gate.higher_is_better,
        )
        return gate
