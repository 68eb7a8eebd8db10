"""Significance tests when a classifier is the metric (Goyal, Hu & Gupta 2023).

A metric model labels the outputs of a control system C and a treatment T
(toxic or not, say). Its errors, measured on an annotated set as
``precision = P(R=1 | O=1)`` and ``FOR = P(R=1 | O=0)`` (real label R,
observed label O), inflate the variance of the rates it reports. Section C of
The formulas page of the documentation ("Model-based metrics") has every
formula; equation numbers are the paper's.

Everything below works with the metric model's row ``q[o] = P(R = positive |
O = o)`` over its classes, so the binary (``q = [FOR, precision]``) and the
multi-class case (appendix A.2) share one code path.
"""

import math
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy import special
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from ..utils._compat import (
    Interval,
    StrOptions,
    validate_params,
)
from ..utils._results import ConfidenceInterval, _two_sided_z
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    POS_LABEL,
    _encode,
    _resolve_pos_label,
    _validate_init_params,
    _validate_method,
)

METHODS = ("goyal2023", "delta")


@dataclass(frozen=True)
class ModelBasedTestResult:
    """Result of a model-based metric test (Goyal, Hu & Gupta 2023).

    System C is the control (baseline), T the treatment; rates are those of
    the positive class.

    Attributes
    ----------
    method : str
        ``"goyal2023"`` (the paper's interval) or ``"delta"``.
    paired : bool
        Whether C and T answered the same inputs (appendix A.3).
    n_c, n_t : int
        Number of outputs of each system.
    mean_c, mean_t : float
        Observed rates ``p_O``, the share of outputs the metric model labels
        positive.
    effect : float
        Observed difference ``d = mean_t - mean_c``; the paper centres both
        intervals on it.
    rate_c, rate_t : float
        Corrected rates ``p_R = precision p_O + FOR (1 - p_O)`` (eq. 10).
    corrected_effect : float
        ``rate_t - rate_c``, the bias-corrected effect (``(precision - FOR)
        d`` for a binary metric model).
    var_deterministic_c, var_deterministic_t : float
        ``p_O (1 - p_O) / (N - 1)`` (eq. 5), as if the metric model were
        ground truth.
    var_model_c, var_model_t : float
        The method's variance of each system: ``p_R (1 - p_R) / (N - 1)``
        (eq. 13) for ``"goyal2023"``; the delta-method variance of the
        corrected rate for ``"delta"``.
    covariance_deterministic, covariance_model : float
        Covariances of the two systems for paired outputs (0.0 unpaired).
    var_effect_deterministic, var_effect_model : float
        Variances of the effect that the two intervals use.
    confidence_level : float
        Level of both intervals.
    ci_deterministic, ci_model : ConfidenceInterval
        The deterministic interval (eq. 8) and the method's interval: eq. 14
        around ``effect`` for ``"goyal2023"``, the delta-method interval
        around ``corrected_effect`` for ``"delta"``.
    significant_deterministic, significant_model : bool
        Whether each interval excludes 0.
    conclusion_changed : bool
        True when the two disagree.
    pvalue_deterministic, pvalue : float
        Two-sided normal p-values of the deterministic and of the method's
        test.
    """

    method: str
    paired: bool
    n_c: int
    n_t: int
    mean_c: float
    mean_t: float
    effect: float
    rate_c: float
    rate_t: float
    corrected_effect: float
    var_deterministic_c: float
    var_deterministic_t: float
    var_model_c: float
    var_model_t: float
    covariance_deterministic: float
    covariance_model: float
    var_effect_deterministic: float
    var_effect_model: float
    confidence_level: float
    ci_deterministic: ConfidenceInterval
    ci_model: ConfidenceInterval
    significant_deterministic: bool
    significant_model: bool
    conclusion_changed: bool
    pvalue_deterministic: float
    pvalue: float

    @property
    def statistic(self):
        """The effect the method's interval is centred on."""
        return self.corrected_effect if self.method == "delta" else self.effect

    @validate_params(
        {"confidence_level": CONFIDENCE_LEVEL}, prefer_skip_nested_validation=True
    )
    def confidence_interval(self, confidence_level=0.95):
        """The method's confidence interval of the effect at another level.

        Parameters
        ----------
        confidence_level : float, default=0.95
            In (0, 1).

        Returns
        -------
        ci : ConfidenceInterval
        """
        half = _two_sided_z(confidence_level) * math.sqrt(self.var_effect_model)
        return ConfidenceInterval(self.statistic - half, self.statistic + half)

    def summary(self):
        """A plain-text account of the test."""
        level = f"{100 * self.confidence_level:g}%"
        d, m = self.ci_deterministic, self.ci_model
        name = "paper (eq. 14)" if self.method == "goyal2023" else "delta method"
        lines = [
            f"observed rate: C {self.mean_c:.5f} (N={self.n_c}), T {self.mean_t:.5f} "
            f"(N={self.n_t}); effect T - C = {self.effect:.5f}"
            + (" (paired)" if self.paired else ""),
            f"corrected rate: C {self.rate_c:.5f}, T {self.rate_t:.5f}; corrected "
            f"effect {self.corrected_effect:.5f}",
            f"{level} CI as if the metric were ground truth: ({d.low:.5f}, "
            f"{d.high:.5f}) -> "
            + ("significant" if self.significant_deterministic else "not significant"),
            f"{level} CI, {name}: ({m.low:.5f}, {m.high:.5f}) -> "
            + ("significant" if self.significant_model else "not significant")
            + f", p = {self.pvalue:.3g}",
        ]
        if self.conclusion_changed:
            lines.append("counting the metric model's errors changes the conclusion")
        if self.method == "goyal2023" and (
            self.var_effect_model < self.var_effect_deterministic
        ):
            lines += [
                "warning: the paper's interval is narrower than the naive one.",
                "  Its variance p_R (1 - p_R) / (N - 1) (eq. 13) is below the "
                "observed rate's when",
                "  p_R < p_O <= 1/2; it then flags differences that do not exist "
                "more often than",
                "  its level says. Do not read it as more certain.",
            ]
        return "\n".join(lines)


def _encode_labels(labels, classes, name):
    """Codes 0..K-1 of ``labels`` among the metric model's ``classes``."""
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}.")
    if arr.shape[0] < 2:
        raise ValueError(
            f"{name} has {arr.shape[0]} label(s); the variance needs N >= 2."
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        row = int(np.flatnonzero(np.isnan(arr))[0])
        raise ValueError(
            f"{name} contains NaN at row {row}; labels must be classes of the "
            f"metric model {classes.tolist()}."
        )
    return _encode(arr, classes, name, "the metric model's classes", hint="")


def _core(freq_c, freq_t, joint, n_c, n_t, pos, q, q_var, method, level):
    """The test from observed class frequencies (one vector per system)."""
    p_c, p_t = freq_c[pos], freq_t[pos]
    d = p_t - p_c
    var_d_c = p_c * (1 - p_c) / (n_c - 1)  # eq. 5
    var_d_t = p_t * (1 - p_t) / (n_t - 1)
    rate_c, rate_t = q @ freq_c, q @ freq_t  # eq. 10 (A.2 for K classes)
    if joint is not None:
        cov_d = (joint[pos, pos] - p_c * p_t) / (n_c - 1)
        # appendix A.3: sum_xy q(x) q(y) P(O_C = x, O_T = y) - p_R,C p_R,T
        cov_m = (q @ joint @ q - rate_c * rate_t) / (n_c - 1)
    else:
        cov_d = cov_m = 0.0
    var_eff_d = max(var_d_c + var_d_t - 2 * cov_d, 0.0)  # erratum: minus
    if method == "goyal2023":
        var_m_c = rate_c * (1 - rate_c) / (n_c - 1)  # eq. 13
        var_m_t = rate_t * (1 - rate_t) / (n_t - 1)
        var_eff_m = max(var_m_c + var_m_t - 2 * cov_m, 0.0)  # erratum: minus
        centre = d
    else:
        # delta method for q @ freq_T - q @ freq_C: the outputs' sampling,
        # Var(q[O]) / (N - 1) per system and the covariance of A.3 when paired,
        # plus the annotated-set error of q, shared by both systems
        sampling_c = (q * q @ freq_c - rate_c**2) / (n_c - 1)
        sampling_t = (q * q @ freq_t - rate_t**2) / (n_t - 1)
        var_m_c = sampling_c + float(freq_c**2 @ q_var)
        var_m_t = sampling_t + float(freq_t**2 @ q_var)
        annotated = float(((freq_t - freq_c) ** 2) @ q_var)
        var_eff_m = max(sampling_c + sampling_t - 2 * cov_m + annotated, 0.0)
        centre = rate_t - rate_c
    z = _two_sided_z(level)
    half_d, half_m = z * math.sqrt(var_eff_d), z * math.sqrt(var_eff_m)
    ci_d = ConfidenceInterval(float(d - half_d), float(d + half_d))  # eq. 8
    ci_m = ConfidenceInterval(float(centre - half_m), float(centre + half_m))
    sig_d = not (ci_d.low <= 0 <= ci_d.high)
    sig_m = not (ci_m.low <= 0 <= ci_m.high)
    return ModelBasedTestResult(
        method=method,
        paired=joint is not None,
        n_c=int(n_c),
        n_t=int(n_t),
        mean_c=float(p_c),
        mean_t=float(p_t),
        effect=float(d),
        rate_c=float(rate_c),
        rate_t=float(rate_t),
        corrected_effect=float(rate_t - rate_c),
        var_deterministic_c=float(var_d_c),
        var_deterministic_t=float(var_d_t),
        var_model_c=float(var_m_c),
        var_model_t=float(var_m_t),
        covariance_deterministic=float(cov_d),
        covariance_model=float(cov_m),
        var_effect_deterministic=float(var_eff_d),
        var_effect_model=float(var_eff_m),
        confidence_level=float(level),
        ci_deterministic=ci_d,
        ci_model=ci_m,
        significant_deterministic=sig_d,
        significant_model=sig_m,
        conclusion_changed=sig_d != sig_m,
        pvalue_deterministic=_two_sided(d, var_eff_d),
        pvalue=_two_sided(centre, var_eff_m),
    )


def _two_sided(statistic, variance):
    if variance == 0:
        return 1.0 if statistic == 0 else 0.0
    return float(2 * special.ndtr(-abs(statistic) / math.sqrt(variance)))


_RATE = [Interval(Real, 0, 1, closed="both")]
_N_PREDICTED = [Interval(Integral, 1, None, closed="left"), None]
# a rate needs a positive class: None is not allowed
_POS_LABEL = [c for c in POS_LABEL if c is not None]
# positive_label: the name before scikit-learn's pos_label, deprecated in 0.1
_DEPRECATED_POS_LABEL = _POS_LABEL


def _deprecated_pos_label(pos_label, positive_label):
    """Return ``(pos_label, name)``, taking the deprecated alias if it was given."""
    if isinstance(positive_label, str) and positive_label == "deprecated":
        return pos_label, "pos_label"
    warnings.warn(
        "positive_label was renamed pos_label, as in scikit-learn, in 0.1 and "
        "will be removed in 0.2; pass pos_label instead.",
        FutureWarning,
        stacklevel=3,
    )
    return positive_label, "positive_label (deprecated alias of pos_label)"


@validate_params(
    {
        "mean_c": _RATE,
        "n_c": [Interval(Integral, 2, None, closed="left")],
        "mean_t": _RATE,
        "n_t": [Interval(Integral, 2, None, closed="left")],
        "precision": _RATE,
        "false_omission_rate": _RATE,
        "confidence_level": CONFIDENCE_LEVEL,
        "method": [StrOptions(set(METHODS))],
        "n_predicted_positive": _N_PREDICTED,
        "n_predicted_negative": _N_PREDICTED,
    },
    prefer_skip_nested_validation=True,
)
def model_based_test_from_summary(
    mean_c,
    n_c,
    mean_t,
    n_t,
    *,
    precision,
    false_omission_rate,
    confidence_level=0.95,
    method="goyal2023",
    n_predicted_positive=None,
    n_predicted_negative=None,
):
    """Model-based test of two independent systems from summary statistics.

    Reproduces a row of Goyal et al.'s Table 1 from each system's observed
    positive rate and size, and the metric model's precision and false
    omission rate (unpaired, the paper's method).

    Parameters
    ----------
    mean_c, mean_t : float
        Observed positive rates ``p_O`` of the control C and the treatment T.
    n_c, n_t : int
        Number of outputs of each system, at least 2.
    precision : float
        ``P(R=1 | O=1)`` of the metric model.
    false_omission_rate : float
        ``P(R=1 | O=0)`` of the metric model.
    confidence_level : float, default=0.95
        Level of the intervals.
    method : {"goyal2023", "delta"}, default="goyal2023"
        The paper's interval, or the delta-method interval of the corrected
        effect; see :class:`ModelBasedMetricTest`.
    n_predicted_positive, n_predicted_negative : int, default=None
        Annotated items the metric model labelled positive and negative, from
        which precision and FOR were estimated; required by ``"delta"``.

    Returns
    -------
    result : ModelBasedTestResult

    See Also
    --------
    ModelBasedMetricTest : The test from outputs or labels.

    Examples
    --------
    >>> from sklearn_faithful.comparison import model_based_test_from_summary
    >>> res = model_based_test_from_summary(  # Table 1, BOLD
    ...     0.00456, 23679, 0.00236, 23679,
    ...     precision=0.8897, false_omission_rate=0.22769)
    >>> f"{res.var_model_c:.2e}", res.significant_deterministic, res.significant_model
    ('7.50e-06', True, False)
    """
    test = ModelBasedMetricTest.from_rates(
        precision,
        false_omission_rate,
        n_predicted_positive=n_predicted_positive,
        n_predicted_negative=n_predicted_negative,
        confidence_level=confidence_level,
        method=method,
    )
    q, q_var = test._q_and_variance()
    freq_c = np.array([1 - mean_c, mean_c], dtype=float)
    freq_t = np.array([1 - mean_t, mean_t], dtype=float)
    return _core(freq_c, freq_t, None, n_c, n_t, 1, q, q_var, method, confidence_level)


class ModelBasedMetricTest(BaseEstimator):
    """Test two systems scored by a classifier, counting the classifier's errors.

    Goyal, Hu & Gupta (2023): when a metric model (a toxicity classifier, say)
    labels the outputs of a control C and a treatment T, its errors inflate
    the variance of the rates it reports. ``fit`` measures those errors on
    human-annotated data; ``test`` (outputs) or ``test_labels`` (the metric
    model's labels) compares the systems.

    Parameters
    ----------
    metric_model : estimator object
        An already fitted classifier or pipeline with ``predict`` and
        ``classes_``. It is wrapped, never refitted. None only through
        :meth:`from_rates`.

    pos_label : int, float, bool or str, default=1
        The class whose rate is compared (toxic, defective, ...).

    confidence_level : float, default=0.95
        Level of the confidence intervals.

    paired : bool, default=False
        Whether C and T answered the same inputs, in the same order; uses the
        covariance of appendix A.3 (with the erratum fixed: the variance of a
        difference subtracts it).

    method : {"goyal2023", "delta"}, default="goyal2023"
        ``"goyal2023"``: the paper's interval, ``d +/- z sqrt(Var_M)`` with
        ``Var_M = p_R (1 - p_R) / (N - 1)`` (eq. 14), centred on the observed
        difference. ``"delta"``: this package's extension, centred on the
        bias-corrected effect ``p_R,T - p_R,C``, whose variance adds the
        uncertainty of precision and FOR from the finite annotated set
        (delta method). See the user guide for their coverage.

    positive_label : int, float, bool or str, default="deprecated"
        Deprecated alias of ``pos_label`` (its name before 0.1); it will be
        removed in 0.2.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Classes of the metric model.
    annotated_counts_ : ndarray of shape (n_classes, n_classes)
        Annotated items by real class (rows) and metric-model class
        (columns).
    real_given_observed_ : ndarray of shape (n_classes, n_classes)
        ``P(R = k | O = o)``, the column-normalised counts (appendix A.2).
    precision_ : float
        ``P(R = positive | O = positive)``.
    false_omission_rate_ : float
        ``P(R = positive | O != positive)``.
    n_annotated_ : int
        Size of the annotated set (0 from :meth:`from_rates` without sizes).
    n_observed_ : ndarray of shape (n_classes,)
        Annotated items the metric model put in each class, the sample sizes
        behind ``real_given_observed_`` (NaN from :meth:`from_rates` without
        sizes).

    See Also
    --------
    model_based_test_from_summary : The test from rates and sizes alone.

    References
    ----------
    .. [1] N. Goyal, X. Hu and R. Gupta, "Faithful Model Evaluation for Model-Based
       Metrics" (2023), eqs. 5-15 and appendix A.

    Examples
    --------
    >>> from sklearn_faithful.comparison import ModelBasedMetricTest
    >>> test = ModelBasedMetricTest.from_rates(0.8897, 0.22769)
    >>> res = test.test_labels([0, 1, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0])
    >>> round(res.effect, 3), round(res.rate_c, 3)
    (-0.125, 0.393)
    """

    _parameter_constraints = {
        "metric_model": "no_validation",
        "pos_label": _POS_LABEL,
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "paired": ["boolean"],
        "method": [StrOptions(set(METHODS))],
        "positive_label": _DEPRECATED_POS_LABEL,
    }

    def __init__(
        self,
        metric_model,
        *,
        pos_label=1,
        confidence_level=0.95,
        paired=False,
        method="goyal2023",
        positive_label="deprecated",
    ):
        self.metric_model = metric_model
        self.pos_label = pos_label
        self.confidence_level = confidence_level
        self.paired = paired
        self.method = method
        self.positive_label = positive_label

    def _validate_params(self):
        _validate_init_params(self)

    def _check_metric_model(self):
        model = self.metric_model
        if model is None or not hasattr(model, "predict"):
            raise ValueError(
                f"metric_model must be a fitted classifier with predict; got {model!r}."
            )
        check_is_fitted(model)
        if not hasattr(model, "classes_"):
            raise ValueError(
                f"metric_model must be a classifier, whose labels are classes "
                f"(classes_); {type(model).__name__} has no classes_. A regressor "
                "cannot be a model-based metric here."
            )
        return model

    def _set_rates(self, classes, counts):
        classes = np.asarray(classes)
        pos_label, name = _deprecated_pos_label(self.pos_label, self.positive_label)
        pos_label, pos = _resolve_pos_label(
            classes, pos_label, name=name, of="the metric model's classes"
        )
        column = counts.sum(axis=0)
        if column[pos] == 0:
            raise ValueError(
                "the metric model never predicts positive class pos_label="
                f"{pos_label!r} on the annotated set, so its precision "
                "is undefined; annotate items it flags as positive."
            )
        unused = np.flatnonzero(column == 0)
        if classes.size > 2 and unused.size:
            raise ValueError(
                f"the metric model never predicts class {classes[unused[0]]!r} on "
                "the annotated set, so P(real | observed) is undefined for it; "
                "annotate items it assigns to every class."
            )
        if column.sum() == column[pos]:
            raise ValueError(
                "the metric model never predicts a class other than "
                f"pos_label={pos_label!r} on the annotated set, so "
                "its false omission rate is undefined; annotate items it flags as "
                "negative."
            )
        self.classes_ = classes
        self.annotated_counts_ = counts
        with np.errstate(invalid="ignore", divide="ignore"):
            self.real_given_observed_ = counts / column
        rest = np.arange(classes.size) != pos
        self.precision_ = float(counts[pos, pos] / column[pos])
        self.false_omission_rate_ = float(counts[pos, rest].sum() / column[rest].sum())
        self.n_annotated_ = int(counts.sum())
        self.n_observed_ = column.astype(np.float64)
        self._pos = pos
        return self

    @_validate_method({"X_annotated": ["array-like"], "y_annotated": ["array-like"]})
    def fit(self, X_annotated, y_annotated):
        """Measure the metric model's errors on human-annotated data.

        Parameters
        ----------
        X_annotated : array-like or list of str
            Inputs the metric model accepts (texts, for a text pipeline).
        y_annotated : array-like of shape (n_samples,)
            Real labels given by annotators, classes of the metric model.

        Returns
        -------
        self : object
        """
        model = self._check_metric_model()
        classes = np.asarray(model.classes_)
        observed = _encode_labels(
            model.predict(X_annotated), classes, "metric_model.predict"
        )
        real = _encode_labels(y_annotated, classes, "y_annotated")
        if real.shape[0] != observed.shape[0]:
            raise ValueError(
                f"y_annotated has {real.shape[0]} labels for "
                f"{observed.shape[0]} annotated inputs."
            )
        k = classes.size
        counts = np.bincount(real * k + observed, minlength=k * k).reshape(k, k)
        return self._set_rates(classes, counts)

    @classmethod
    @validate_params(
        {
            "precision": _RATE,
            "false_omission_rate": _RATE,
            "n_predicted_positive": _N_PREDICTED,
            "n_predicted_negative": _N_PREDICTED,
            "classes": ["array-like"],
            "pos_label": _POS_LABEL,
            "positive_label": _DEPRECATED_POS_LABEL,
        },
        prefer_skip_nested_validation=True,
    )
    def from_rates(
        cls,
        precision,
        false_omission_rate,
        *,
        n_predicted_positive=None,
        n_predicted_negative=None,
        classes=(0, 1),
        pos_label=1,
        positive_label="deprecated",
        **kwargs,
    ):
        """A fitted test from published precision and FOR, without annotated data.

        Parameters
        ----------
        precision : float
            ``P(R = positive | O = positive)``.
        false_omission_rate : float
            ``P(R = positive | O = negative)``.
        n_predicted_positive, n_predicted_negative : int, default=None
            Annotated items the metric model labelled positive and negative,
            from which the rates were estimated. Needed by
            ``method="delta"``.
        classes : tuple of two labels, default=(0, 1)
            Labels of the metric model, negative class first or not.
        pos_label : label, default=1
            One of ``classes``.
        positive_label : label
            Deprecated alias of ``pos_label``.
        **kwargs
            ``confidence_level``, ``paired`` and ``method``.

        Returns
        -------
        test : ModelBasedMetricTest
            Ready for :meth:`test_labels` (``metric_model`` is None).
        """
        pos_label, name = _deprecated_pos_label(pos_label, positive_label)
        test = cls(None, pos_label=pos_label, **kwargs)
        test._validate_params()
        classes = np.asarray(classes)
        if classes.shape != (2,):
            raise ValueError(f"classes must hold two labels; got {classes.tolist()}.")
        classes = np.sort(classes)
        _, pos = _resolve_pos_label(classes, pos_label, name=name, of="classes")
        sizes = (n_predicted_positive, n_predicted_negative)
        known = all(n is not None for n in sizes)
        q = np.empty(2)
        q[pos], q[1 - pos] = precision, false_omission_rate
        n_observed = np.empty(2)
        n_observed[pos], n_observed[1 - pos] = sizes if known else (np.nan, np.nan)
        test.classes_ = classes
        test.annotated_counts_ = None
        test.real_given_observed_ = (
            np.vstack([1 - q, q]) if pos == 1 else np.vstack([q, 1 - q])
        )
        test.precision_ = float(precision)
        test.false_omission_rate_ = float(false_omission_rate)
        test.n_annotated_ = int(sum(sizes)) if known else 0
        test.n_observed_ = n_observed
        test._pos = pos
        return test

    def _q_and_variance(self):
        q = self.real_given_observed_[self._pos]
        if self.method != "delta":
            return q, None
        if self.precision_ <= self.false_omission_rate_:
            raise ValueError(
                f"the metric model's precision ({self.precision_:.4g}) is not above "
                f"its false omission rate ({self.false_omission_rate_:.4g}): it is no "
                "better than chance at finding positives, and the delta method's "
                "corrected effect would be meaningless."
            )
        if np.isnan(self.n_observed_).any():
            raise ValueError(
                "method='delta' needs the size of the annotated set; pass "
                "n_predicted_positive and n_predicted_negative to from_rates."
            )
        return q, q * (1 - q) / self.n_observed_

    @_validate_method({"labels_c": ["array-like"], "labels_t": ["array-like"]})
    def test_labels(self, labels_c, labels_t):
        """Compare the systems from the metric model's labels of their outputs.

        Parameters
        ----------
        labels_c : array-like of shape (n_c,)
            Metric-model labels of the control system's outputs.
        labels_t : array-like of shape (n_t,)
            Metric-model labels of the treatment system's outputs; with
            ``paired=True``, of the same inputs in the same order.

        Returns
        -------
        result : ModelBasedTestResult
        """
        check_is_fitted(self, "real_given_observed_")
        codes_c = _encode_labels(labels_c, self.classes_, "labels_c")
        codes_t = _encode_labels(labels_t, self.classes_, "labels_t")
        n_c, n_t = codes_c.shape[0], codes_t.shape[0]
        k = self.classes_.size
        joint = None
        if self.paired:
            if n_c != n_t:
                raise ValueError(
                    f"paired=True needs one output of each system per input; got "
                    f"{n_c} labels for C and {n_t} for T."
                )
            joint = np.bincount(codes_c * k + codes_t, minlength=k * k)
            joint = joint.reshape(k, k) / n_c
            freq_c, freq_t = joint.sum(axis=1), joint.sum(axis=0)
        else:
            freq_c = np.bincount(codes_c, minlength=k) / n_c
            freq_t = np.bincount(codes_t, minlength=k) / n_t
        q, q_var = self._q_and_variance()
        return _core(
            freq_c,
            freq_t,
            joint,
            n_c,
            n_t,
            self._pos,
            q,
            q_var,
            self.method,
            self.confidence_level,
        )

    @_validate_method({"outputs_c": ["array-like"], "outputs_t": ["array-like"]})
    def test(self, outputs_c, outputs_t):
        """Compare the systems from their outputs, labelled by the metric model.

        Parameters
        ----------
        outputs_c, outputs_t : array-like or list of str
            Outputs of the control and treatment systems, inputs the metric
            model accepts.

        Returns
        -------
        result : ModelBasedTestResult
        """
        model = self._check_metric_model()
        return self.test_labels(model.predict(outputs_c), model.predict(outputs_t))
