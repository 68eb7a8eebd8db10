"""The calibration error and the CORP decomposition of a proper score.

The formulas live in ``utils/_calibration.py`` (which the scorers share);
this module gives them their public signatures, checks and results.
"""

from dataclasses import dataclass
from numbers import Integral

from ..utils._calibration import calibration_error as _calibration_error
from ..utils._calibration import corp
from ..utils._calibration_options import (
    DEFAULT_METHOD,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    METHODS,
    MULTI_CLASS,
    NORMS,
    SCORINGS,
    STRATEGIES,
    resolve_norm,
)
from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._results import _ResultMixin, _text_table
from ..utils._validation import POS_LABEL

# The calibration error's own parameters, shared word for word by every
# function that computes it (the interval, the tests, the display).
ESTIMATOR_CONSTRAINTS = {
    "method": [StrOptions(set(METHODS))],
    "norm": [StrOptions(set(NORMS)), None],
    "n_bins": [Interval(Integral, 1, None, closed="left")],
    "strategy": [StrOptions(set(STRATEGIES))],
    "multi_class": [StrOptions(set(MULTI_CLASS))],
    "labels": ["array-like", None],
    "pos_label": POS_LABEL,
}
DATA_CONSTRAINTS = {"y_true": ["array-like"], "y_proba": ["array-like"]}


def estimator_name(method, norm, n_bins, strategy, multi_class):
    """How a number was computed, in words: what every summary prints."""
    if method == "smooth":
        what = "smooth ECE"
    else:
        what = f"{method} {norm.upper()} calibration error"
        what += f", {n_bins} {strategy} bins"
    return f"{what} ({multi_class})"


@validate_params(
    {**DATA_CONSTRAINTS, **ESTIMATOR_CONSTRAINTS}, prefer_skip_nested_validation=True
)
def calibration_error(
    y_true,
    y_proba,
    *,
    method=DEFAULT_METHOD,
    norm=None,
    n_bins=DEFAULT_N_BINS,
    strategy=DEFAULT_STRATEGY,
    multi_class="auto",
    labels=None,
    pos_label=None,
):
    """Estimate the calibration error of predicted probabilities.

    The calibration error measures how far the probabilities are from the
    frequencies they claim: among the items given probability 0.8, about 80%
    should be positive. It is 0 for a perfectly calibrated model; every
    estimator of it from a finite test set is noisy, and the binned ones are
    biased upward (use :func:`calibration_error_interval` for an interval,
    and :func:`calibration_test` to test calibration).

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        ``predict_proba``; 1-D for the probability of ``pos_label`` in a
        binary problem. Each row must sum to 1.

    method : {"debiased", "binned", "smooth"}, default="debiased"
        The estimator. ``"debiased"``: the binned squared error less its
        sampling variance (Kumar, Liang & Ma 2019), L2 only: the least biased
        in simulation, and the only one whose interval held (user guide,
        "Which estimator and which interval"). ``"binned"``: the binned
        calibration error of Naeini et al. (2015) and Guo et al. (2017), the
        usual ECE (L1, as printed) or its L2 version; it is biased upward,
        most near 0. ``"smooth"``: the smooth ECE of Błasiok & Nakkiran
        (2023), kernel smoothing with no bins, L1 only.

    norm : {"l1", "l2"}, default=None
        The norm of the error: mean absolute gap (L1) or root mean squared
        gap (L2). None takes the method's own (L1 for ``"binned"`` and
        ``"smooth"``, L2 for ``"debiased"``).

    n_bins : int, default=15
        Number of bins of the binned estimators (15, as Guo et al. 2017).

    strategy : {"uniform", "quantile"}, default="uniform"
        The bins, as scikit-learn's :func:`~sklearn.calibration.calibration_curve`:
        equal widths on [0, 1], or equal numbers of items (quantiles of the
        confidences). Bin ``j`` holds ``(e_j, e_{j+1}]``.

    multi_class : {"auto", "top-label", "classwise"}, default="auto"
        Which probabilities are judged. ``"top-label"``: the probability of
        the predicted (most probable) class, against whether that class is
        right (Guo et al. 2017). ``"classwise"``: every class's probability
        against whether the item is of that class, the errors averaged over
        classes as ``(mean_k CE_k^p)^(1/p)`` (Kumar et al.'s marginal
        error). ``"auto"``: the positive class's probability for two
        classes, top-label for more.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``; by default the sorted
        classes of ``y_true`` (pass ``estimator.classes_`` when a class may
        be absent from ``y_true``).

    pos_label : int, float, bool or str, default=None
        The positive class of a binary problem: the class whose
        probability is judged (``multi_class="auto"``) and the class of 1-D
        ``y_proba``. None: the greater class.

    Returns
    -------
    error : float
        The estimated calibration error, in [0, 1]. A debiased estimate
        whose square is negative is reported as 0.

    See Also
    --------
    calibration_error_interval : Its confidence interval.
    calibration_test : The test of calibration.
    corp_decomposition : The Brier score or log loss split into
        miscalibration, discrimination and uncertainty.

    Notes
    -----
    With confidences ``c_i``, outcomes ``o_i`` and bins of ``n_j`` items of
    mean confidence ``cbar_j`` and mean outcome ``obar_j`` (formulas page,
    "Calibration error"): ``ECE = sum_j n_j / n |obar_j - cbar_j|``; the L2
    error is ``sqrt(sum_j n_j / n (obar_j - cbar_j)^2)``; the debiased
    squared error subtracts ``obar_j (1 - obar_j) / (n_j - 1)`` in each bin
    of at least 2 items.

    References
    ----------
    .. [1] M. P. Naeini, G. Cooper and M. Hauskrecht, "Obtaining well
       calibrated probabilities using Bayesian binning", AAAI, 2015.
    .. [2] C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration of
       modern neural networks", ICML, 2017.
    .. [3] A. Kumar, P. Liang and T. Ma, "Verified uncertainty calibration",
       NeurIPS, 2019.
    .. [4] J. Błasiok and P. Nakkiran, "Smooth ECE: principled reliability
       diagrams via kernel smoothing", ICLR, 2024.

    Examples
    --------
    >>> from sklearn_faithful.calibration import calibration_error
    >>> y = [0, 0, 1, 1, 1]
    >>> p = [0.1, 0.3, 0.6, 0.8, 0.9]
    >>> round(calibration_error(y, p, method="binned", n_bins=5), 4)  # ECE
    0.22

    A calibrated model still gets an ECE from noise; the debiased error
    removes it:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=5000)
    >>> y = (rng.uniform(size=5000) < p).astype(int)  # calibrated
    >>> round(calibration_error(y, p, method="binned"), 4), calibration_error(y, p)
    (0.0133, 0.0)
    """
    return _calibration_error(
        y_true,
        y_proba,
        method=method,
        norm=resolve_norm(method, norm),
        n_bins=n_bins,
        strategy=strategy,
        multi_class=multi_class,
        labels=labels,
        pos_label=pos_label,
    )


@dataclass(frozen=True)
class CorpDecompositionResult(_ResultMixin):
    """Result of :func:`corp_decomposition`: a score split in three.

    ``score = miscalibration - discrimination + uncertainty``, exactly.

    Attributes
    ----------
    score : float
        The mean score of the probabilities (Brier score or log loss; lower
        is better).
    miscalibration : float
        MCB: how much the score would improve if the probabilities were
        recalibrated (isotonic regression); 0 for calibrated ones.
    discrimination : float
        DSC: how much the recalibrated probabilities beat the base rate.
    uncertainty : float
        UNC: the score of the base rate itself.
    scoring : str
        ``"brier"`` or ``"log_loss"``.
    multi_class : str
        The binary problems scored (``"auto"``, ``"top-label"`` or
        ``"classwise"``, whose terms are summed over the classes).
    n_samples : int
        Items scored.
    """

    score: float
    miscalibration: float
    discrimination: float
    uncertainty: float
    scoring: str
    multi_class: str
    n_samples: int

    def summary(self):
        """The decomposition as a small table.

        Returns
        -------
        text : str
            The score and its three terms.
        """
        cols = {
            "term": ["score", "MCB", "DSC", "UNC"],
            "value": [
                self.score,
                self.miscalibration,
                self.discrimination,
                self.uncertainty,
            ],
        }
        return "\n".join(
            [
                f"CORP decomposition of the {self.scoring} ({self.multi_class}) "
                f"on {self.n_samples} items: score = MCB - DSC + UNC",
                *_text_table(cols),
            ]
        )


@validate_params(
    {
        **DATA_CONSTRAINTS,
        "scoring": [StrOptions(set(SCORINGS))],
        "multi_class": ESTIMATOR_CONSTRAINTS["multi_class"],
        "labels": ["array-like", None],
        "pos_label": POS_LABEL,
    },
    prefer_skip_nested_validation=True,
)
def corp_decomposition(
    y_true, y_proba, *, scoring="brier", multi_class="auto", labels=None, pos_label=None
):
    """Split the Brier score or the log loss into calibration and discrimination.

    The CORP approach of Dimitriadis, Gneiting & Jordan (2021): the
    probabilities are recalibrated by isotonic regression (the pool-adjacent-
    violators algorithm, PAV), and the mean score splits exactly into
    miscalibration (MCB, what recalibration would gain), discrimination (DSC,
    what the recalibrated probabilities gain over the base rate) and
    uncertainty (UNC, the base rate's score): ``score = MCB - DSC + UNC``.
    No bins, no tuning.

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities (see :func:`calibration_error`).

    scoring : {"brier", "log_loss"}, default="brier"
        The proper score: ``(p - o)^2`` or ``-(o log p + (1 - o) log(1 - p))``.

    multi_class : {"auto", "top-label", "classwise"}, default="auto"
        The binary problems (see :func:`calibration_error`); ``"classwise"``
        sums the terms over the classes, so its Brier score is the
        multiclass Brier score ``sum_k (p_k - [y = k])^2``.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba`` (see :func:`calibration_error`).

    pos_label : int, float, bool or str, default=None
        The positive class of a binary problem (see :func:`calibration_error`).

    Returns
    -------
    result : CorpDecompositionResult
        ``score``, ``miscalibration``, ``discrimination``, ``uncertainty``.

    See Also
    --------
    calibration_error : One number for the miscalibration alone.
    ReliabilityDisplay : The isotonic (CORP) reliability curve.

    Notes
    -----
    Items with equal probabilities get one recalibrated value (the CORP
    convention for ties). With the log loss, a probability of 0 or 1 on an
    item whose outcome says otherwise makes the score infinite.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021.

    Examples
    --------
    >>> from sklearn_faithful.calibration import corp_decomposition
    >>> y = [0, 0, 1, 1, 1, 0]
    >>> p = [0.1, 0.4, 0.6, 0.8, 0.9, 0.7]
    >>> res = corp_decomposition(y, p)
    >>> round(res.score, 4), round(res.miscalibration, 4)
    (0.145, 0.0617)
    >>> bool(abs(res.miscalibration - res.discrimination + res.uncertainty
    ...          - res.score) < 1e-12)
    True
    """
    terms, n = corp(
        y_true,
        y_proba,
        scoring=scoring,
        multi_class=multi_class,
        labels=labels,
        pos_label=pos_label,
    )
    return CorpDecompositionResult(
        score=float(terms[0]),
        miscalibration=float(terms[1]),
        discrimination=float(terms[2]),
        uncertainty=float(terms[3]),
        scoring=scoring,
        multi_class=multi_class,
        n_samples=int(n),
    )
