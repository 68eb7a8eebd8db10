"""Confidence precision, recall and F-score (Yacouby & Axman, 2020).

The confidence metrics replace the 0/1 "was class k the argmax" indicator of the
ordinary confusion matrix by the probability the model gave class k. Everything
is computed from the probabilistic confusion matrix (eq. 3 of the paper), whose
row ``r`` is the summed ``y_proba`` of the samples of true class ``r``.

Equation numbers refer to Yacouby & Axman (2020); the formulas page of the
documentation (``doc/formulas.rst``, "Confidence precision, recall and
F-score") restates them.
"""

import warnings
from numbers import Real

import numpy as np
from scipy import sparse

from ..utils._param_validation import Interval, Options, StrOptions, validate_params
from ..utils._validation import (
    POS_LABEL,
    _as_float_array,
    _check_sample_weight,
    _check_y_true,
    _encode,
    _raise_for_bad_probabilities,
    _resolve_classes,
    _resolve_pos_label,
    _row_sum_tolerance,
    _warn_rows_not_normalized,
)
from ._options import AVERAGE_OPTIONS
from ._prf import _precision_recall_fscore

_PRF_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_proba": ["array-like"],
    "labels": ["array-like", None],
    "pos_label": POS_LABEL,
    "average": [StrOptions(set(AVERAGE_OPTIONS)), None],
    "sample_weight": ["array-like", None],
    "zero_division": [
        Options(Real, {0.0, 1.0}),
        "nan",
        StrOptions({"warn"}),
    ],
}


# --------------------------------------------------------------------------
# The probabilistic confusion matrix
# --------------------------------------------------------------------------


def _check_probability_rows(proba):
    """Check 2-D ``proba`` in two passes: its minimum, then its row sums.

    NaN fails every comparison, so ``not min >= 0`` catches NaN and negative
    values; infinity makes a row sum non-finite. Values above 1 are only possible
    in rows that do not sum to 1, so the maximum is taken only then.
    """
    if not proba.min() >= 0:
        _raise_for_bad_probabilities(proba)
    deviation = np.abs(proba @ np.ones(proba.shape[1], dtype=proba.dtype) - 1.0)
    worst = deviation.max()
    if not np.isfinite(worst):
        _raise_for_bad_probabilities(proba)
    tol = _row_sum_tolerance(proba.dtype)
    if worst > tol:
        if not proba.max() <= 1:
            _raise_for_bad_probabilities(proba)
        _warn_rows_not_normalized(int(np.count_nonzero(deviation > tol)), worst)


# Rows of float32 y_proba converted to float64 at a time: 1 MiB of float64.
_BLOCK_ELEMENTS = 2**17


def _pcm_from_columns(idx, proba, weight, n_classes):
    """Probabilistic confusion matrix of 2-D ``proba`` (eq. 3).

    ``pcm = E.T @ proba`` with ``E`` the (weighted) one-hot matrix of the true
    classes, stored as a sparse matrix with one entry per sample: one streaming
    pass over ``proba``, O(n_samples * n_classes).
    """
    n = proba.shape[0]
    data = np.ones(n) if weight is None else weight
    indicator = sparse.csc_matrix((data, idx, np.arange(n + 1)), shape=(n_classes, n))
    if proba.dtype == np.float64:
        return np.asarray(indicator @ proba)
    # float32 input: sum in float64, a block of rows at a time, rather than
    # copying all of y_proba to float64 (about 2.4x its memory)
    rows = max(1, _BLOCK_ELEMENTS // proba.shape[1])
    pcm = np.zeros((n_classes, proba.shape[1]))
    for start in range(0, n, rows):
        block = proba[start : start + rows].astype(np.float64)
        pcm += indicator[:, start : start + rows] @ block
    return pcm


def _pcm_from_positive(idx, p, weight, pos_index, n_classes):
    """Probabilistic confusion matrix of 1-D ``p``, the positive-class probability."""
    if not (p.min() >= 0 and p.max() <= 1):
        _raise_for_bad_probabilities(p)
    mass = np.bincount(
        idx, weights=p if weight is None else p * weight, minlength=n_classes
    )
    total = np.bincount(idx, weights=weight, minlength=n_classes).astype(np.float64)
    pcm = np.empty((n_classes, n_classes))
    pcm[:, pos_index] = mass
    if n_classes == 2:
        pcm[:, 1 - pos_index] = total - mass
    return pcm


NORMALIZE = [StrOptions({"true", "pred", "all"}), None]


def _probabilistic_counts(y_true, y_proba, *, labels, pos_label, sample_weight):
    """Validate the inputs and return what every confidence metric needs.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
        The class of each row and column of ``pcm``.
    pcm : ndarray of shape (n_classes, n_classes)
        The probabilistic confusion matrix (eq. 3).
    true_sum : ndarray of shape (n_classes,)
        Number (or weight) of samples of each true class: TP + FN (eq. 8).
    pos_label : object
        The positive class of 1-D ``y_proba``, else ``pos_label`` unchanged.
    """
    y = _check_y_true(y_true)
    proba = _as_float_array(y_proba)
    if proba.ndim not in (1, 2) or (proba.ndim == 2 and proba.shape[1] < 2):
        raise ValueError(
            "y_proba must have shape (n_samples, n_classes) with n_classes >= 2, "
            f"or (n_samples,) for the positive class of a binary problem; got "
            f"shape {proba.shape}."
        )
    if proba.shape[0] != y.shape[0]:
        raise ValueError(
            f"y_true and y_proba have different numbers of samples: {y.shape[0]} "
            f"and {proba.shape[0]}."
        )
    weight = _check_sample_weight(sample_weight, y.shape[0])
    n_columns = proba.shape[1] if proba.ndim == 2 else None
    classes, one_d_pos = _resolve_classes(y, labels, n_columns, pos_label)
    idx = _encode(y, classes)
    k = classes.shape[0]
    if proba.ndim == 2:
        _check_probability_rows(proba)
        pcm = _pcm_from_columns(idx, proba, weight, k)
    else:
        pos_index = classes.tolist().index(one_d_pos)
        pcm = _pcm_from_positive(idx, proba, weight, pos_index, k)
        pos_label = one_d_pos
    true_sum = np.bincount(idx, weights=weight, minlength=k)
    return classes, pcm, true_sum, pos_label


PCM_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_proba": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
    "pos_label": POS_LABEL,
    "normalize": NORMALIZE,
}


@validate_params(PCM_CONSTRAINTS, prefer_skip_nested_validation=True)
def probabilistic_confusion_matrix(
    y_true,
    y_proba,
    *,
    labels=None,
    sample_weight=None,
    pos_label=None,
    normalize=None,
):
    """Compute the probabilistic confusion matrix of Yacouby & Axman (2020).

    Entry ``(r, h)`` is the total probability the model gave class ``h`` over
    the samples whose true class is ``r``. With one-hot probabilities it equals
    :func:`sklearn.metrics.confusion_matrix` of the argmax predictions.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    pos_label : int, float, bool or str, default=None
        Only used for 1-D ``y_proba``: the class it is the probability of. If
        None, the last of ``labels`` (the greater of the two classes).

    normalize : {'true', 'pred', 'all'}, default=None
        Normalize the matrix over the true classes (rows), the hypothesised
        classes (columns) or all entries. If None, no normalization.

    Returns
    -------
    pcm : ndarray of shape (n_classes, n_classes)
        Rows are true classes and columns hypothesised classes, both in the
        order of ``labels``.

    See Also
    --------
    sklearn.metrics.confusion_matrix : The matrix of the argmax predictions.
    cprecision_recall_fscore_support : The metrics computed from this matrix.

    Notes
    -----
    Eq. (3) of Yacouby & Axman (2020)::

        pcm[r, h] = sum_{i : y_i = C_r} w_i * y_proba[i, h]

    Rows of ``y_proba`` that do not sum to 1 raise a ``UserWarning``: the paper
    assumes each row is a distribution over the classes (its eq. 1).

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import probabilistic_confusion_matrix
    >>> y_true = [0, 0, 1]
    >>> y_proba = [[0.9, 0.1], [0.6, 0.4], [0.3, 0.7]]
    >>> probabilistic_confusion_matrix(y_true, y_proba)
    array([[1.5, 0.5],
           [0.3, 0.7]])
    """
    _, pcm, _, _ = _probabilistic_counts(
        y_true,
        y_proba,
        labels=labels,
        pos_label=pos_label,
        sample_weight=sample_weight,
    )
    return _normalize(pcm, normalize)


def _normalize(matrix, normalize):
    """Normalize a confusion matrix as :func:`sklearn.metrics.confusion_matrix`."""
    if normalize is None:
        return matrix
    with np.errstate(invalid="ignore", divide="ignore"):
        if normalize == "true":
            matrix = matrix / matrix.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            matrix = matrix / matrix.sum(axis=0, keepdims=True)
        else:
            matrix = matrix / matrix.sum()
    return np.nan_to_num(matrix)


# --------------------------------------------------------------------------
# Precision, recall and F-score from the probabilistic counts
# --------------------------------------------------------------------------


def _select_binary(classes, pos_label):
    """Index of ``pos_label`` for ``average='binary'``, with scikit-learn's errors."""
    if classes.shape[0] > 2:
        raise ValueError(
            f"y_proba has {classes.shape[0]} classes (multiclass) but "
            "average='binary'. Please choose another average setting, one of "
            f"{[a for a in AVERAGE_OPTIONS if a != 'binary'] + [None]!r}."
        )
    return _resolve_pos_label(classes, pos_label, of="the classes")[1]


@validate_params(
    {
        **_PRF_CONSTRAINTS,
        "beta": [Interval(Real, 0.0, None, closed="both")],
        "warn_for": [list, tuple, set],
    },
    prefer_skip_nested_validation=True,
)
def cprecision_recall_fscore_support(
    y_true,
    y_proba,
    *,
    beta=1.0,
    labels=None,
    pos_label=1,
    average=None,
    warn_for=("precision", "recall", "f-score"),
    sample_weight=None,
    zero_division="warn",
):
    """Compute confidence precision, recall, F-measure and support for each class.

    The confidence metrics of Yacouby & Axman (2020) weigh each prediction by
    the probability the model gave it, instead of counting only the argmax.
    cPrecision is ``cTP / (cTP + cFP)`` and cRecall is ``cTP / (TP + FN)``,
    where ``cTP`` and ``cFP`` sum predicted probabilities and ``TP + FN`` is the
    plain number of samples of the class. With one-hot ``y_proba`` they equal
    :func:`sklearn.metrics.precision_recall_fscore_support` exactly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    beta : float, default=1.0
        The strength of recall versus precision in the F-score.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    pos_label : int, float, bool or str, default=1
        The class to report if ``average='binary'``, and the class whose
        probability a 1-D ``y_proba`` holds. For 1-D ``y_proba`` with another
        ``average``, None means the greater of the two classes.

    average : {'binary', 'micro', 'macro', 'weighted'} or None, default=None
        If None, the metrics for each class are returned. Otherwise, this
        determines the type of averaging performed on the data:

        ``'binary'``:
            Only report results for the class specified by ``pos_label``.
            This is applicable only if ``y_proba`` has two classes.
        ``'micro'``:
            Calculate metrics globally by summing the confidence true positives,
            the column masses and the class counts over classes.
        ``'macro'``:
            Calculate metrics for each class, and find their unweighted mean.
            This does not take label imbalance into account.
        ``'weighted'``:
            Calculate metrics for each class, and find their average weighted by
            support (the number of true instances for each class).

    warn_for : list, tuple or set, default=("precision", "recall", "f-score")
        The metrics for which a warning is raised if they are ill-defined.

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Sets the value to return when there is a zero division, i.e. when a
        class receives no probability mass (cPrecision) or has no true samples
        (cRecall). If set to "warn", this acts as 0, but a warning is also
        raised.

    Returns
    -------
    precision : float (if average is not None) or ndarray of shape (n_classes,)
        Confidence precision score.

    recall : float (if average is not None) or ndarray of shape (n_classes,)
        Confidence recall score.

    fbeta_score : float (if average is not None) or ndarray of shape (n_classes,)
        Confidence F-beta score.

    support : None (if average is not None) or ndarray of shape (n_classes,)
        The number (or total weight) of occurrences of each class in ``y_true``.

    See Also
    --------
    probabilistic_confusion_matrix : The matrix these metrics are computed from.
    sklearn.metrics.precision_recall_fscore_support : The argmax counterparts.

    Notes
    -----
    For class ``k``, with ``pcm`` the probabilistic confusion matrix (eq. 3)::

        cTP_k        = pcm[k, k]                          (eq. 5)
        cFP_k        = sum_{r != k} pcm[r, k]             (eq. 6)
        cPrecision_k = cTP_k / (cTP_k + cFP_k)            (eq. 7)
        cRecall_k    = cTP_k / n_k                        (eq. 8)
        cF_beta,k    = (1 + beta^2) cTP_k / (beta^2 n_k + cTP_k + cFP_k)

    where ``n_k`` is the number of samples of true class ``k``. The last line is
    the weighted harmonic mean of cPrecision and cRecall, written so that it is
    defined whenever either is. cPrecision is undefined only when no sample
    gives class ``k`` any probability, cRecall when class ``k`` is absent from
    ``y_true``, and the F-score when both happen; ``zero_division`` sets the
    value used then. Micro-averaged cPrecision and cRecall are equal when every
    row of ``y_proba`` sums to 1.

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import cprecision_recall_fscore_support
    >>> y_true = ["cat", "dog", "dog"]
    >>> y_proba = [[0.8, 0.2], [0.4, 0.6], [0.1, 0.9]]
    >>> p, r, f, s = cprecision_recall_fscore_support(y_true, y_proba)
    >>> p.round(3), r.round(3), s
    (array([0.615, 0.882]), array([0.8 , 0.75]), array([1, 2]))
    """
    if average is not None and average != "binary" and pos_label not in (None, 1):
        if np.ndim(y_proba) == 2:
            warnings.warn(
                f"Note that pos_label (set to {pos_label!r}) is ignored when "
                f"average != 'binary' (got {average!r}).",
                UserWarning,
                stacklevel=3,
            )
    classes, pcm, true_sum, pos_label = _probabilistic_counts(
        y_true,
        y_proba,
        labels=labels,
        pos_label=pos_label,
        sample_weight=sample_weight,
    )
    pos_index = _select_binary(classes, pos_label) if average == "binary" else None
    precision, recall, f_score = _precision_recall_fscore(
        np.diagonal(pcm),  # eq. 5: cTP_k
        pcm.sum(axis=0),  # eq. 7 denominator: cTP_k + cFP_k
        true_sum,  # eq. 8 denominator: TP_k + FN_k
        beta=beta,
        average=average,
        pos_index=pos_index,
        zero_division=zero_division,
        warn_for=warn_for,
    )
    if average is None:
        return precision, recall, f_score, true_sum
    return float(precision), float(recall), float(f_score), None


@validate_params(_PRF_CONSTRAINTS, prefer_skip_nested_validation=True)
def cprecision_score(
    y_true,
    y_proba,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Compute the confidence precision (cPrecision).

    cPrecision is ``cTP / (cTP + cFP)``: the probability the model gave the
    positive class on positive samples, over the probability it gave the
    positive class on all samples (Yacouby & Axman 2020, eq. 7). The best value
    is 1 and the worst value is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    pos_label : int, float, bool or str, default=1
        The class to report if ``average='binary'``, and the class whose
        probability a 1-D ``y_proba`` holds. For 1-D ``y_proba`` with another
        ``average``, None means the greater of the two classes.

    average : {'binary', 'micro', 'macro', 'weighted'} or None, default='binary'
        If None, the metric for each class is returned. Otherwise, this
        determines the type of averaging performed on the data:

        ``'binary'``:
            Only report results for the class specified by ``pos_label``.
            This is applicable only if ``y_proba`` has two classes.
        ``'micro'``:
            Calculate metrics globally by summing the confidence true positives,
            the column masses and the class counts over classes.
        ``'macro'``:
            Calculate metrics for each class, and find their unweighted mean.
            This does not take label imbalance into account.
        ``'weighted'``:
            Calculate metrics for each class, and find their average weighted by
            support (the number of true instances for each class).

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Sets the value to return when there is a zero division, i.e. when a
        class receives no probability mass (cPrecision) or has no true samples
        (cRecall). If set to "warn", this acts as 0, but a warning is also
        raised.

    Returns
    -------
    precision : float or ndarray of shape (n_classes,)
        Confidence precision of the positive class in binary classification or
        the average over classes for multiclass, as a Python float; an array
        for ``average=None``.

    See Also
    --------
    cprecision_recall_fscore_support : All confidence metrics in one pass.
    sklearn.metrics.precision_score : The argmax counterpart.

    Notes
    -----
    ``cPrecision_k = pcm[k, k] / sum_r pcm[r, k]`` (eq. 7), with ``pcm`` the
    probabilistic confusion matrix (eq. 3). It is undefined only when no sample
    gives class ``k`` any probability, which is far rarer than the argmax
    precision's undefined case (class ``k`` never the argmax).

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import cprecision_score
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.4]  # probability of class 1
    >>> cprecision_score(y_true, y_proba)
    0.7142857142857143
    """
    p, _, _, _ = cprecision_recall_fscore_support(
        y_true,
        y_proba,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return p


@validate_params(_PRF_CONSTRAINTS, prefer_skip_nested_validation=True)
def crecall_score(
    y_true,
    y_proba,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Compute the confidence recall (cRecall).

    cRecall is ``cTP / (TP + FN)``: the average probability the model gave the
    true class over the samples of that class (Yacouby & Axman 2020, eq. 8).
    The denominator is the plain number of samples of the class, not a sum of
    probabilities. The best value is 1 and the worst value is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    pos_label : int, float, bool or str, default=1
        The class to report if ``average='binary'``, and the class whose
        probability a 1-D ``y_proba`` holds. For 1-D ``y_proba`` with another
        ``average``, None means the greater of the two classes.

    average : {'binary', 'micro', 'macro', 'weighted'} or None, default='binary'
        If None, the metric for each class is returned. Otherwise, this
        determines the type of averaging performed on the data:

        ``'binary'``:
            Only report results for the class specified by ``pos_label``.
            This is applicable only if ``y_proba`` has two classes.
        ``'micro'``:
            Calculate metrics globally by summing the confidence true positives,
            the column masses and the class counts over classes.
        ``'macro'``:
            Calculate metrics for each class, and find their unweighted mean.
            This does not take label imbalance into account.
        ``'weighted'``:
            Calculate metrics for each class, and find their average weighted by
            support (the number of true instances for each class).

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Sets the value to return when there is a zero division, i.e. when a
        class receives no probability mass (cPrecision) or has no true samples
        (cRecall). If set to "warn", this acts as 0, but a warning is also
        raised.

    Returns
    -------
    recall : float or ndarray of shape (n_classes,)
        Confidence recall of the positive class in binary classification or the
        average over classes for multiclass, as a Python float; an array for
        ``average=None``.

    See Also
    --------
    cprecision_recall_fscore_support : All confidence metrics in one pass.
    sklearn.metrics.recall_score : The argmax counterpart.

    Notes
    -----
    ``cRecall_k = pcm[k, k] / n_k`` (eq. 8), with ``pcm`` the probabilistic
    confusion matrix (eq. 3) and ``n_k`` the number (or weight) of samples of
    true class ``k``. It is undefined when class ``k`` is absent from
    ``y_true``, exactly when the argmax recall is.

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import crecall_score
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.4]  # probability of class 1
    >>> crecall_score(y_true, y_proba)
    0.75
    """
    _, r, _, _ = cprecision_recall_fscore_support(
        y_true,
        y_proba,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return r


@validate_params(
    {**_PRF_CONSTRAINTS, "beta": [Interval(Real, 0.0, None, closed="both")]},
    prefer_skip_nested_validation=True,
)
def cfbeta_score(
    y_true,
    y_proba,
    *,
    beta,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Compute the confidence F-beta score (cF-beta).

    The weighted harmonic mean of cPrecision and cRecall; ``beta > 1`` favours
    recall. The best value is 1 and the worst value is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    beta : float
        The strength of recall versus precision in the F-score.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    pos_label : int, float, bool or str, default=1
        The class to report if ``average='binary'``, and the class whose
        probability a 1-D ``y_proba`` holds. For 1-D ``y_proba`` with another
        ``average``, None means the greater of the two classes.

    average : {'binary', 'micro', 'macro', 'weighted'} or None, default='binary'
        If None, the metric for each class is returned. Otherwise, this
        determines the type of averaging performed on the data:

        ``'binary'``:
            Only report results for the class specified by ``pos_label``.
            This is applicable only if ``y_proba`` has two classes.
        ``'micro'``:
            Calculate metrics globally by summing the confidence true positives,
            the column masses and the class counts over classes.
        ``'macro'``:
            Calculate metrics for each class, and find their unweighted mean.
            This does not take label imbalance into account.
        ``'weighted'``:
            Calculate metrics for each class, and find their average weighted by
            support (the number of true instances for each class).

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Sets the value to return when there is a zero division, i.e. when a
        class receives no probability mass (cPrecision) or has no true samples
        (cRecall). If set to "warn", this acts as 0, but a warning is also
        raised.

    Returns
    -------
    fbeta_score : float or ndarray of shape (n_classes,)
        Confidence F-beta score of the positive class in binary classification
        or the average over classes for multiclass, as a Python float; an array
        for ``average=None``.

    See Also
    --------
    cf1_score : The case ``beta=1``.
    sklearn.metrics.fbeta_score : The argmax counterpart.

    Notes
    -----
    ``cF_beta,k = (1 + beta^2) cTP_k / (beta^2 n_k + cTP_k + cFP_k)``, the
    weighted harmonic mean of eqs. (7) and (8). It is undefined only when class
    ``k`` is absent from ``y_true`` and receives no probability mass.

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import cfbeta_score
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.4]  # probability of class 1
    >>> round(cfbeta_score(y_true, y_proba, beta=2), 4)
    0.7426
    """
    _, _, f, _ = cprecision_recall_fscore_support(
        y_true,
        y_proba,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return f


@validate_params(_PRF_CONSTRAINTS, prefer_skip_nested_validation=True)
def cf1_score(
    y_true,
    y_proba,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    """Compute the confidence F1 score (cF1).

    The harmonic mean of cPrecision and cRecall (Yacouby & Axman 2020). The
    best value is 1 and the worst value is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Ground truth (correct) target values.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, as returned by a classifier's
        :term:`predict_proba` method. For a binary problem a 1-D array is read as
        the probability of ``pos_label``.

    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_proba``, in column order; for a fitted
        classifier, ``estimator.classes_``. If None, the sorted distinct labels
        of ``y_true``, which must then number exactly ``n_classes``. Pass it
        whenever a class may be absent from ``y_true`` (a small test fold).
        Unlike the ``labels`` of :func:`~sklearn.metrics.precision_score`, it
        cannot select a subset of the classes.

    pos_label : int, float, bool or str, default=1
        The class to report if ``average='binary'``, and the class whose
        probability a 1-D ``y_proba`` holds. For 1-D ``y_proba`` with another
        ``average``, None means the greater of the two classes.

    average : {'binary', 'micro', 'macro', 'weighted'} or None, default='binary'
        If None, the metric for each class is returned. Otherwise, this
        determines the type of averaging performed on the data:

        ``'binary'``:
            Only report results for the class specified by ``pos_label``.
            This is applicable only if ``y_proba`` has two classes.
        ``'micro'``:
            Calculate metrics globally by summing the confidence true positives,
            the column masses and the class counts over classes.
        ``'macro'``:
            Calculate metrics for each class, and find their unweighted mean.
            This does not take label imbalance into account.
        ``'weighted'``:
            Calculate metrics for each class, and find their average weighted by
            support (the number of true instances for each class).

    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.

    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Sets the value to return when there is a zero division, i.e. when a
        class receives no probability mass (cPrecision) or has no true samples
        (cRecall). If set to "warn", this acts as 0, but a warning is also
        raised.

    Returns
    -------
    f1_score : float or ndarray of shape (n_classes,)
        Confidence F1 score of the positive class in binary classification or
        the average over classes for multiclass, as a Python float; an array
        for ``average=None``.

    See Also
    --------
    cfbeta_score : The general weighted harmonic mean.
    sklearn.metrics.f1_score : The argmax counterpart.

    Notes
    -----
    ``cF1_k = 2 cPrecision_k cRecall_k / (cPrecision_k + cRecall_k)
    = 2 cTP_k / (n_k + cTP_k + cFP_k)`` (:ref:`formulas-cmetrics`). It is
    undefined only when class ``k`` is absent from ``y_true`` and receives no
    probability mass.

    References
    ----------
    .. [1] R. Yacouby and D. Axman, "Probabilistic Extension of Precision,
       Recall, and F1 Score for More Thorough Evaluation of Classification
       Models", Eval4NLP 2020.

    Examples
    --------
    >>> from sklearn_faithful.metrics import cf1_score
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.4]  # probability of class 1
    >>> round(cf1_score(y_true, y_proba), 4)
    0.7317
    >>> y_proba = [[0.8, 0.2], [0.1, 0.9], [0.4, 0.6], [0.6, 0.4]]
    >>> round(cf1_score(y_true, y_proba, average="macro"), 4)
    0.7248
    """
    _, _, f, _ = cprecision_recall_fscore_support(
        y_true,
        y_proba,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return f
