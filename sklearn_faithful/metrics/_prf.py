"""Precision, recall and F-beta from summed counts: the one home of the rule.

Every precision-family metric of this package reduces to three sums per class:
the true positives ``TP_k``, the predicted total ``TP_k + FP_k`` and the true
total ``TP_k + FN_k``. For the confidence metrics the sums are probability
masses read off the probabilistic confusion matrix (Yacouby & Axman 2020,
eqs. 5-8); for the vectorised bootstrap they are resampled confusion-table
counts, one row per resample. Both call :func:`_precision_recall_fscore`, so
the zero-division and averaging rules exist once. See the formulas page,
"Precision, recall, F-beta and accuracy from summed counts".
"""

import warnings

import numpy as np


def _zero_division_value(zero_division):
    """The value of an undefined ratio: 0.0 for ``"warn"``, else the option."""
    if isinstance(zero_division, str):
        return 0.0
    return float(zero_division)


def _divide(numerator, denominator, zero_division, metric, modifier, warn_for):
    """``numerator / denominator`` with 0/0 set to ``zero_division``.

    Warns as scikit-learn does when ``zero_division="warn"`` and ``metric`` is
    in ``warn_for``.
    """
    mask = denominator == 0
    if not mask.any():
        return numerator / denominator
    with np.errstate(invalid="ignore", divide="ignore"):
        result = numerator / np.where(mask, 1.0, denominator)
    result = np.where(mask, _zero_division_value(zero_division), result)
    if isinstance(zero_division, str) and metric in warn_for:
        # scikit-learn's class, imported only when there is something to say
        from sklearn.exceptions import UndefinedMetricWarning

        where = "due to" if result.shape[-1] == 1 else "in labels with"
        warnings.warn(
            f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} "
            f"no {modifier} samples. Use `zero_division` parameter to control "
            "this behavior.",
            UndefinedMetricWarning,
            stacklevel=5,
        )
    return result


def _average(values, weights, keep):
    """Average over the last axis of the entries in ``keep``; NaN if none.

    With ``weights``, the weighted average, or the plain one where the kept
    weights sum to zero (as scikit-learn's ``_nanaverage``).
    """
    keep = keep & ~np.isnan(values)
    filled = np.where(keep, values, 0.0)
    n_kept = keep.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        plain = np.where(n_kept > 0, filled.sum(axis=-1) / n_kept, np.nan)
        if weights is None:
            return plain
        w = np.where(keep, weights, 0.0)
        total = w.sum(axis=-1)
        weighted = (filled * w).sum(axis=-1) / np.where(total > 0, total, 1.0)
    return np.where(total > 0, weighted, plain)


def _precision_recall_fscore(
    tp_sum,
    pred_sum,
    true_sum,
    *,
    beta=1.0,
    average=None,
    pos_index=None,
    present=None,
    zero_division="warn",
    warn_for=(),
    which=None,
):
    """Precision, recall and F-beta from per-class sums, batched.

    Parameters
    ----------
    tp_sum, pred_sum, true_sum : ndarray of shape (..., n_classes)
        ``TP_k``, ``TP_k + FP_k`` and ``TP_k + FN_k`` (counts or probability
        masses), with any leading batch axes (one per resample, say).
    beta : float, default=1.0
        Weight of recall in the F-score; ``inf`` gives recall, 0 precision.
    average : {"binary", "micro", "macro", "weighted"} or None, default=None
        None keeps the class axis. ``"binary"`` reports class ``pos_index``;
        ``"micro"`` sums the counts over classes first; ``"macro"`` and
        ``"weighted"`` average the per-class values, weighted by ``true_sum``
        for ``"weighted"``, leaving out NaN values.
    pos_index : int, default=None
        Column of the positive class, for ``average="binary"``.
    present : ndarray of bool of shape (..., n_classes), default=None
        Classes that take part in a macro or weighted average (scikit-learn
        averages over the labels present in ``y_true`` or ``y_pred``); None
        means all.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a ratio whose denominator is zero.
    warn_for : tuple of str, default=()
        Metrics (``"precision"``, ``"recall"``, ``"f-score"``) that warn when
        ill-defined and ``zero_division="warn"``.
    which : {"precision", "recall", "f"}, default=None
        Compute and return only this one (the others are None): what a
        resampling loop needs, at a third of the cost.

    Returns
    -------
    precision, recall, fscore : ndarray of shape (..., n_classes) or (...,)
        Per class for ``average=None``, else one value per batch entry.
    """
    sums = [np.asarray(a, dtype=np.float64) for a in (tp_sum, pred_sum, true_sum)]
    if average == "binary":
        sums = [a[..., [pos_index]] for a in sums]
    elif average == "micro":
        sums = [a.sum(axis=-1, keepdims=True) for a in sums]
    tp, pred, true = sums
    infinite = beta == np.inf
    need = {
        "precision": which in (None, "precision") or (which == "f" and beta == 0),
        "recall": which in (None, "recall") or (which == "f" and infinite),
    }
    precision = recall = None
    # formulas page, "Precision, recall, F-beta and accuracy":
    # P = TP / (TP + FP), R = TP / (TP + FN)
    if need["precision"]:
        precision = _divide(tp, pred, zero_division, "precision", "predicted", warn_for)
    if need["recall"]:
        recall = _divide(tp, true, zero_division, "recall", "true", warn_for)
    if which not in (None, "f"):
        fscore = None
    elif infinite:
        fscore = recall
    elif beta == 0:
        fscore = precision
    else:
        # F_beta = (1 + beta^2) TP / (beta^2 (TP + FN) + TP + FP)
        beta2 = beta * beta
        fscore = _divide(
            (1 + beta2) * tp,
            beta2 * true + pred,
            zero_division,
            "f-score",
            "true nor predicted",
            warn_for,
        )
    values = (precision, recall, fscore)
    if average is None:
        return values
    if average in ("binary", "micro"):
        return tuple(None if v is None else v[..., 0] for v in values)
    keep = np.ones(tp.shape, dtype=bool) if present is None else present
    weights = true if average == "weighted" else None
    return tuple(None if v is None else _average(v, weights, keep) for v in values)


def _jaccard(
    tp_sum,
    pred_sum,
    true_sum,
    *,
    average,
    pos_index=None,
    present=None,
    zero_division="warn",
    warn=False,
):
    """The Jaccard index from per-class sums, batched, as scikit-learn's.

    ``J_k = TP_k / (TP_k + FP_k + FN_k) = TP_k / (pred_k + true_k - TP_k)``,
    reported and averaged as :func:`_precision_recall_fscore` does (micro:
    the sums first; weighted: by ``true_sum``), 0/0 set to
    ``zero_division`` (and said, as scikit-learn does, with ``warn`` and
    ``zero_division="warn"``).
    """
    sums = [np.asarray(a, dtype=np.float64) for a in (tp_sum, pred_sum, true_sum)]
    if average == "binary":
        sums = [a[..., [pos_index]] for a in sums]
    elif average == "micro":
        sums = [a.sum(axis=-1, keepdims=True) for a in sums]
    tp, pred, true = sums
    jaccard = _divide(
        tp,
        pred + true - tp,
        zero_division,
        "jaccard",
        "true or predicted",
        ("jaccard",) if warn else (),
    )
    if average in ("binary", "micro"):
        return jaccard[..., 0]
    keep = np.ones(tp.shape, dtype=bool) if present is None else present
    return _average(jaccard, true if average == "weighted" else None, keep)
