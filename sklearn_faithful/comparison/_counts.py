"""Per-split confusion counts and the effective counts of Wang & Li (2019).

The ``2m`` confusion matrices of an ``m x 2`` cross-validation are correlated,
because the training sets overlap. Wang & Li replace their sum by an *effective*
confusion matrix, the sum times a correlation factor ``c`` (eqs. 16-24 of the
paper; formulas page, "Effective counts, posteriors and the Bayes test")::

    TP_e = c * sum TP,   FP_e = c * sum FP,   FN_e = c * sum FN
    c(rho1, rho2) = 1 / (1 + rho1 + 2 (m - 1) rho2)   (eq. 16; m = 3: 1 + rho1 + 4 rho2)
"""

import math
from numbers import Integral, Real

import numpy as np
from sklearn.utils import indexable

from ..model_selection._design import _cv_result_splits
from ..utils._compat import _safe_split
from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._validation import (
    _check_classes,
    _check_sample_weight,
    _check_y_true,
    _encode,
    _refuse_booleans,
)
from ._options import CORRELATIONS

# The ranges of the two correlations that Wang & Li (2019, section 2.3) average
# the factor over, after Wang et al. (2014, 2017): rho1 in [0, 1/2] is the
# correlation of the two hold-out estimates of one two-fold CV, rho2 in
# [1/4, 1/2] that of two hold-out estimates of different repetitions.
RHO1_RANGE = (0.0, 0.5)
RHO2_RANGE = (0.25, 0.5)

COUNT_COLUMNS = ("TP", "FP", "FN", "TN")


def _integral_log_linear(c, k, lo, hi):
    """Integral of ``log(c + k x)`` for x from ``lo`` to ``hi`` (k > 0)."""

    def antiderivative(x):
        u = c + k * x
        return (u * math.log(u) - u) / k

    return antiderivative(hi) - antiderivative(lo)


def _average_factor(n_repetitions, rho1_range=RHO1_RANGE, rho2_range=RHO2_RANGE):
    """Mean of ``1 / (1 + rho1 + k rho2)`` over a rectangle, in closed form.

    The inner integral over rho1 is ``log(1 + rho1_hi + k rho2) - log(1 +
    rho1_lo + k rho2)``; the outer integral of each logarithm is elementary
    (eq. 22, with ``k = 2 (m - 1)``).
    """
    (r1_lo, r1_hi), (r2_lo, r2_hi) = rho1_range, rho2_range
    k = 2.0 * (n_repetitions - 1)
    area = (r1_hi - r1_lo) * (r2_hi - r2_lo)
    if k == 0:  # one repetition: the factor does not depend on rho2
        return math.log((1 + r1_hi) / (1 + r1_lo)) / (r1_hi - r1_lo)
    integral = _integral_log_linear(1 + r1_hi, k, r2_lo, r2_hi) - _integral_log_linear(
        1 + r1_lo, k, r2_lo, r2_hi
    )
    return integral / area


_CORRELATION = [
    StrOptions(set(CORRELATIONS)),
    tuple,
    list,
    Interval(Real, 0, 1, closed="right"),
]


@validate_params(
    {
        "correlation": _CORRELATION,
        "n_repetitions": [Interval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def correlation_factor(correlation="wang2019", n_repetitions=3):
    """Return the factor ``c`` that turns summed counts into effective counts.

    Parameters
    ----------
    correlation : {"wang2019", "wang2015", "independent"}, tuple of two floats \
            or float, default="wang2019"
        How the correlation between the ``2 * n_repetitions`` hold-out
        estimates is accounted for:

        - ``"wang2019"``: the paper's factor, the average of
          ``1 / (1 + rho1 + 2 (m - 1) rho2)`` over ``rho1`` in [0, 1/2] and
          ``rho2`` in [1/4, 1/2] (eq. 22). For ``m = 3`` this is 0.368802.
          Its 95% F1 interval covered 80-95% (median 91%) in our 19-cell
          coverage study (``benchmarks/coverage_study.py``, seed 20250611;
          simulated data, m = 3) and 83-100% in its 4 held-back cells (two
          scikit-learn data sets, m = 5; seed 20261211); see the user guide.
        - ``"wang2015"``: ``rho1 = rho2 = 1``, so ``c = 1 / (2 m)`` and the
          effective counts are the per-split averages (Wang et al. 2015). The
          conservative choice, and the recommended one: its 95% F1 interval
          covered 95-100% (median 98%) in the same study, 97-100% held back.
        - ``"independent"``: ``rho1 = rho2 = 0``, ``c = 1``; treats the
          splits as independent corpora. Intervals far too narrow; for
          comparison only.
        - ``(rho1, rho2)``: the general m-repetition form
          ``1 / (1 + rho1 + 2 (m - 1) rho2)`` with your correlations.
        - a float in (0, 1]: the factor itself.

    n_repetitions : int, default=3
        Number ``m`` of two-fold repetitions (half the number of splits).

    Returns
    -------
    factor : float
        The correlation factor ``c``. Intervals from the effective counts are
        about models trained on half the data (the m x 2 CV's training
        halves), not about a model refitted on all of it.

    See Also
    --------
    effective_counts : Apply the factor to per-split counts.

    Notes
    -----
    The factor for ``"wang2019"`` is computed from its definition, the double
    integral of eq. 22 divided by the area of the rectangle, which has a
    closed form. The paper rounds it to 0.3688.

    References
    ----------
    .. [1] R. Wang and J. Li, "Bayes Test of Precision, Recall, and F1 Measure
       for Comparison of Two Natural Language Processing Models", ACL 2019,
       eqs. 14-24.

    Examples
    --------
    >>> from sklearn_faithful.comparison import correlation_factor
    >>> round(correlation_factor("wang2019"), 6)
    0.368802
    >>> correlation_factor("wang2015")
    0.16666666666666666
    >>> correlation_factor((0.5, 0.5))
    0.2857142857142857
    """
    if isinstance(correlation, bool):
        # bool is a Real to Python; a factor of True would silently mean 1.0
        raise ValueError(
            f"correlation must be one of {CORRELATIONS}, a (rho1, rho2) pair or a "
            f"factor in (0, 1]; got {correlation!r}."
        )
    m = int(n_repetitions)
    if isinstance(correlation, str):
        return {
            "wang2019": _average_factor,
            "wang2015": lambda m: 1.0 / (2 * m),
            "independent": lambda m: 1.0,
        }[correlation](m)
    if isinstance(correlation, tuple | list):
        if len(correlation) != 2 or not all(
            isinstance(r, Real) and not isinstance(r, bool) for r in correlation
        ):
            raise ValueError(
                "correlation given as a sequence must be a pair (rho1, rho2) of "
                f"numbers; got {correlation!r}."
            )
        rho1, rho2 = (float(r) for r in correlation)
        if not (0.0 <= rho1 <= 1.0 and 0.0 <= rho2 <= 1.0):
            raise ValueError(
                f"correlations rho1 and rho2 must lie in [0, 1]; got {correlation!r}."
            )
        return 1.0 / (1.0 + rho1 + 2.0 * (m - 1) * rho2)  # eq. 16, m repetitions
    return float(correlation)


# Every integer up to 2**53 is exact as a double; above it counts would be
# rounded, and sums of them could overflow nothing but lose units.
_MAX_COUNT = 2**53


def _raise_too_large(name, arr):
    where = tuple(int(i) for i in np.argwhere(arr > _MAX_COUNT)[0])
    raise ValueError(
        f"{name} holds {arr[where]!r} at index {where}; counts above 2**53 = "
        f"{_MAX_COUNT} cannot be represented exactly in double precision. Divide "
        "all counts of both models by a common factor (the test depends on "
        "them through ratios and their total size)."
    )


def _check_counts(counts, name="counts", *, allow_per_class=True, whole=True):
    """Validate per-split counts and return them as a float array.

    Accepts shape (n_splits, 3 or 4), columns TP, FP, FN[, TN], or with
    ``allow_per_class`` shape (n_splits, n_classes, 3 or 4). ``whole=False``
    accepts weighted counts (sums of sample weights), which need not be whole.
    """
    try:
        arr = np.asarray(counts)
    except Exception as exc:  # ragged lists
        raise ValueError(
            f"{name} must be an array of shape (n_splits, 3) or (n_splits, 4) with "
            "columns TP, FP, FN[, TN]."
        ) from exc
    _refuse_booleans(arr, name, "counts")
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise ValueError(
            f"{name} must hold numbers; got dtype {arr.dtype!s}. Rows are "
            "(TP, FP, FN[, TN]) per split."
        )
    ndims = (2, 3) if allow_per_class else (2,)
    if arr.ndim not in ndims or arr.shape[-1] not in (3, 4) or arr.shape[0] == 0:
        shapes = "(n_splits, 3) or (n_splits, 4)"
        if allow_per_class:
            shapes += ", or (n_splits, n_classes, 3 or 4) per class"
        raise ValueError(
            f"{name} must have shape {shapes}, with columns TP, FP, FN[, TN]; got "
            f"shape {arr.shape}. Convert (n_gold, n_pred, n_correct) triples with "
            "counts_from_triples."
        )
    if arr.dtype.kind in "iu" and arr.size and int(arr.max()) > _MAX_COUNT:
        _raise_too_large(name, arr)
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; counts must be finite.")
    if (arr > _MAX_COUNT).any():
        _raise_too_large(name, arr)
    if (arr < 0).any():
        where = tuple(int(i) for i in np.argwhere(arr < 0)[0])
        raise ValueError(
            f"{name} must be non-negative; got {arr[where]!r} at index {where}."
        )
    if whole and (arr != np.round(arr)).any():
        where = tuple(int(i) for i in np.argwhere(arr != np.round(arr))[0])
        raise ValueError(
            f"{name} must be whole numbers (per-split confusion counts); got "
            f"{arr[where]!r} at index {where}. If you already have effective "
            "counts, build the posterior directly with metric_posterior."
        )
    return arr


@validate_params({"triples": ["array-like"]}, prefer_skip_nested_validation=True)
def counts_from_triples(triples):
    """Convert (n_gold, n_pred, n_correct) triples to (TP, FP, FN) counts.

    Chunking and tagging tools (CoNLL's ``conlleval``, the paper's own scripts)
    report, for each split, the number of gold chunks, of predicted chunks and
    of correctly predicted chunks.

    Parameters
    ----------
    triples : array-like of shape (n_splits, 3)
        Rows ``(n_gold, n_pred, n_correct)``.

    Returns
    -------
    counts : ndarray of shape (n_splits, 3)
        Rows ``(TP, FP, FN) = (n_correct, n_pred - n_correct, n_gold -
        n_correct)``, as integers.

    Examples
    --------
    >>> from sklearn_faithful.comparison import counts_from_triples
    >>> counts_from_triples([[11629, 11322, 10297]])
    array([[10297,  1025,  1332]])
    """
    arr = np.asarray(triples)
    if arr.ndim != 2 or arr.shape[1] != 3 or arr.shape[0] == 0:
        raise ValueError(
            "triples must have shape (n_splits, 3), rows (n_gold, n_pred, "
            f"n_correct); got shape {arr.shape}."
        )
    arr = _check_counts(arr, "triples", allow_per_class=False).astype(np.int64)
    gold, pred, correct = arr.T
    bad = (correct > gold) | (correct > pred)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"triples row {i} has n_correct={correct[i]} larger than n_gold="
            f"{gold[i]} or n_pred={pred[i]}; rows must be (n_gold, n_pred, "
            "n_correct)."
        )
    return np.column_stack([correct, pred - correct, gold - correct])


def _n_repetitions(n_splits, correlation, name="counts"):
    """Number of two-fold repetitions; the named factors need an even count."""
    if n_splits % 2 == 0:
        return n_splits // 2
    if isinstance(correlation, Real) and not isinstance(correlation, bool):
        return None  # a raw factor does not assume the m x 2 structure
    raise ValueError(
        f"{name} has {n_splits} splits, but correlation={correlation!r} assumes "
        "m two-fold repetitions, that is an even number 2m of splits (6 for "
        "3x2 CV). Pass every split of the m x 2 CV, or give the factor itself "
        "as a float."
    )


@validate_params(
    {"counts": ["array-like"], "correlation": _CORRELATION},
    prefer_skip_nested_validation=True,
)
def effective_counts(counts, *, correlation="wang2019"):
    """Return the effective confusion counts of an m x 2 cross-validation.

    Parameters
    ----------
    counts : array-like of shape (n_splits, 3) or (n_splits, 4)
        Per-split confusion counts, rows ``(TP, FP, FN)`` or ``(TP, FP, FN,
        TN)``, one row per split of the m x 2 CV (``n_splits = 2 m``). A 3-D
        array of shape (n_splits, n_classes, 3 or 4) gives one-vs-rest counts
        per class.

    correlation : {"wang2019", "wang2015", "independent"}, tuple of two floats \
            or float, default="wang2019"
        The correlation correction; see :func:`correlation_factor`.

    Returns
    -------
    counts_e : ndarray of shape (3,) or (4,), or (n_classes, 3 or 4)
        ``c`` times the column sums over splits (eqs. 18, 19 and 21). Not
        integers in general. Posteriors from them are about models trained on
        half the data (the m x 2 CV's training halves).

    See Also
    --------
    correlation_factor : The factor ``c``.
    counts_from_triples : Build ``counts`` from (gold, predicted, correct).

    Examples
    --------
    >>> from sklearn_faithful.comparison import effective_counts
    >>> counts = [[50, 5, 10]] * 6
    >>> effective_counts(counts, correlation="wang2015")
    array([50.,  5., 10.])
    """
    arr = _check_counts(counts)
    return _effective_counts(arr, _factor_for_splits(arr.shape[0], correlation))


def _factor_for_splits(n_splits, correlation, name="counts"):
    """The correlation factor for ``n_splits`` splits of an m x 2 CV."""
    m = _n_repetitions(n_splits, correlation, name)
    return correlation_factor(correlation, m if m is not None else 1)


def _effective_counts(counts, factor):
    """``factor`` times the per-split counts summed over splits (axis 0)."""
    return factor * counts.sum(axis=0)  # eqs. 18, 19, 21: TP_e = c sum TP, ...


def _predict_split(estimator, X, y, train, test, *, classes):
    """A fitted estimator's predictions on ``test``, as indices into ``classes``."""
    X_test, _ = _safe_split(estimator, X, y, test, train)
    y_pred = np.asarray(estimator.predict(X_test))
    unknown = ~np.isin(y_pred, classes)
    if unknown.any():
        raise ValueError(
            f"{type(estimator).__name__} predicted the label "
            f"{y_pred[unknown][0]!r}, which is not among the classes of y "
            f"{classes.tolist()}."
        )
    return _encode(y_pred, classes)


def _one_vs_rest_counts(y_index, pred_index, n_classes, weight=None):
    """(TP, FP, FN, TN) per class, shape (n_classes, 4), from class indices.

    With ``weight`` each count is the sum of its items' weights.
    """
    cm = np.bincount(
        y_index * n_classes + pred_index, weights=weight, minlength=n_classes**2
    ).reshape(n_classes, n_classes)  # rows: truth, columns: prediction
    if weight is None:
        cm = cm.astype(np.int64)
    tp = np.diag(cm)
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    return np.column_stack([tp, fp, fn, cm.sum() - tp - fp - fn])


def _count_split(estimator, X, y, train, test, *, classes, sample_weight=None):
    """One-vs-rest (TP, FP, FN, TN) per class of a fitted estimator on ``test``.

    With ``sample_weight`` each count is the sum of its test items' weights.
    """
    pred = _predict_split(estimator, X, y, train, test, classes=classes)
    truth = _encode(np.asarray(y)[test], classes, name="y", hint="")
    weight = None if sample_weight is None else sample_weight[test]
    return _one_vs_rest_counts(truth, pred, classes.size, weight)


def _as_counts_array(per_split, shape, weighted):
    """Stack per-split counts: integers, or floats when they are weighted."""
    return np.asarray(per_split, dtype=np.float64 if weighted else np.int64).reshape(
        shape
    )


@validate_params(
    {
        "result": [dict],
        "X": ["array-like"],
        "y": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def counts_from_cross_validate(result, X, y, *, labels=None, sample_weight=None):
    """Per-split confusion counts of a ``cross_validate`` result, with no refit.

    Each fitted model that :func:`~sklearn.model_selection.cross_validate`
    kept predicts its own test set, and the one-vs-rest confusion counts of
    every class are recorded: the counts :func:`bayes_test` and
    :func:`paired_bayes_test` take, from models you have already trained.

    Parameters
    ----------
    result : dict
        The result of ``cross_validate(estimator, X, y, cv=...,
        return_indices=True, return_estimator=True)``.

    X : array-like of shape (n_samples, n_features)
        The data given to ``cross_validate``, or anything the estimators
        accept.

    y : array-like of shape (n_samples,)
        The labels given to ``cross_validate``.

    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the second axis of the result; None
        means the sorted unique values of ``y``.

    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the test items: each count is then the sum of the weights
        of its items.

    Returns
    -------
    counts : ndarray of shape (n_splits, n_classes, 4)
        One-vs-rest ``(TP, FP, FN, TN)`` of each class on each split, in the
        order of the splits; integers, or floats with ``sample_weight``.
        ``counts[:, k]`` are the counts of class ``labels[k]`` as the positive
        class.

    See Also
    --------
    BayesModelComparison.from_cross_validate : The Bayes test from two
        ``cross_validate`` results.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_faithful.comparison import counts_from_cross_validate
    >>> from sklearn_faithful.model_selection import BlockRegularized3x2CV
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> res = cross_validate(GaussianNB(), X, y,
    ...                      cv=BlockRegularized3x2CV(random_state=0),
    ...                      return_indices=True, return_estimator=True)
    >>> counts = counts_from_cross_validate(res, X, y)
    >>> counts.shape
    (6, 2, 4)
    >>> counts[0, 1].tolist()  # TP, FP, FN, TN of class 1 on the first split
    [170, 10, 9, 96]
    """
    splits = _cv_result_splits(result, "result", estimators=True)
    X, y = indexable(X, y)
    y = _check_y_true(y, "y")
    classes = np.unique(y) if labels is None else _check_classes(labels)
    sample_weight = _check_sample_weight(sample_weight, y.shape[0], of="y")
    per_split = [
        _count_split(
            estimator, X, y, train, test, classes=classes, sample_weight=sample_weight
        )
        for estimator, (train, test) in zip(result["estimator"], splits, strict=True)
    ]
    shape = (len(splits), classes.size, 4)
    return _as_counts_array(per_split, shape, sample_weight is not None)
