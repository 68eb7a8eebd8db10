"""Confusion-matrix metrics computed for many resamples at once.

A bootstrap resample of (y_true, y_pred) changes the metric only through its
confusion matrix, and that matrix is multinomial over the observed cells. So
accuracy, precision, recall and F-beta, in every averaging, can be computed
from a batch of resampled count matrices without calling the metric once per
resample. The confidence metrics work the same way from per-sample
contributions (the diagonal mass, the predicted mass and the true count of each
class). Each function here returns exactly what scikit-learn's (or our) metric
returns on the same data; the tests check that identity.
"""

import functools

import numpy as np
from sklearn import metrics as skm

from ..metrics import _confidence as conf
from ..metrics._prf import _precision_recall_fscore, _zero_division_value
from ..utils._validation import _pos_label_index

# metric function -> (kind, which, default beta)
_KNOWN = {
    skm.accuracy_score: ("accuracy", None, None),
    skm.precision_score: ("prf", "precision", None),
    skm.recall_score: ("prf", "recall", None),
    skm.f1_score: ("prf", "f", 1.0),
    skm.fbeta_score: ("prf", "f", None),
    conf.cprecision_score: ("cprf", "precision", None),
    conf.crecall_score: ("cprf", "recall", None),
    conf.cf1_score: ("cprf", "f", 1.0),
    conf.cfbeta_score: ("cprf", "f", None),
}
_NAMES = {
    "accuracy": skm.accuracy_score,
    "precision": skm.precision_score,
    "recall": skm.recall_score,
    "f1": skm.f1_score,
    "cprecision": conf.cprecision_score,
    "crecall": conf.crecall_score,
    "cf1": conf.cf1_score,
}
_FAST_KWARGS = {"average", "pos_label", "beta", "zero_division", "labels"}


def resolve_metric(metric, metric_kwargs=None):
    """Return ``(callable, kwargs, spec)``; ``spec`` is None without a fast path.

    ``metric`` is a callable ``metric(y_true, y_pred, **kwargs)``, a
    ``functools.partial`` of one, or a name such as ``"f1_macro"`` or
    ``"cf1"``.
    """
    kwargs = dict(metric_kwargs or {})
    if isinstance(metric, str):
        base, _, average = metric.partition("_")
        if base not in _NAMES or (
            average and average not in ("micro", "macro", "weighted")
        ):
            raise ValueError(
                f"metric={metric!r} is not a known name; use a callable, or one of "
                f"{sorted(_NAMES)} optionally with _micro, _macro or _weighted."
            )
        func = _NAMES[base]
        if average:
            kwargs.setdefault("average", average)
    elif callable(metric):
        func = metric
    else:
        raise ValueError(f"metric must be a callable or a name; got {metric!r}.")
    while isinstance(func, functools.partial) and not func.args:
        kwargs = {**func.keywords, **kwargs}
        func = func.func
    known = _KNOWN.get(func)
    if known is None or not set(kwargs) <= _FAST_KWARGS:
        return func, kwargs, None
    kind, which, beta = known
    if kind == "accuracy" and kwargs:
        return func, kwargs, None  # normalize=False and the like: generic path
    if kind == "prf" and kwargs.get("labels") is not None:
        return func, kwargs, None  # sklearn's label subset: generic path
    spec = dict(
        kind=kind,
        which=which,
        beta=kwargs.get("beta", beta),
        average=kwargs.get("average", "binary"),
        pos_label=kwargs.get("pos_label", 1),
        zero_division=kwargs.get("zero_division", "warn"),
    )
    if spec["average"] not in ("binary", "micro", "macro", "weighted"):
        return func, kwargs, None
    return func, kwargs, spec


_WHICH = {"precision": 0, "recall": 1, "f": 2}


def prf_batch(tp, pred, true, spec, pos_index, present=None):
    """The metric of ``spec`` for a batch: ``tp``, ``pred``, ``true`` of shape (B, K).

    ``present`` marks, per resample, the labels scikit-learn would consider
    (those in y_true or y_pred); None means all (the confidence metrics).
    """
    values = _precision_recall_fscore(
        tp,
        pred,
        true,
        beta=1.0 if spec["beta"] is None else spec["beta"],
        average=spec["average"],
        pos_index=pos_index,
        present=present,
        zero_division=spec["zero_division"],
    )
    return values[_WHICH[spec["which"]]]


class HardLabelStats:
    """Cells of (y_true, y_pred[, y_pred_b]) for multinomial resampling."""

    def __init__(self, y_true, *y_preds):
        arrays = [np.asarray(y) for y in (y_true, *y_preds)]
        self.classes = np.unique(np.concatenate(arrays))
        k = self.classes.size
        codes = [np.searchsorted(self.classes, a) for a in arrays]
        cell = codes[0]
        for c in codes[1:]:
            cell = cell * k + c
        self.n = arrays[0].shape[0]
        self.k = k
        self.n_preds = len(y_preds)
        counts = np.bincount(cell, minlength=k ** (1 + len(y_preds)))
        self.cells = np.flatnonzero(counts)
        self.cell_counts = counts[self.cells]

    def tables(self, cell_counts):
        """(B, K, K) confusion tables of each prediction from (B, n_cells) counts."""
        full = np.zeros((cell_counts.shape[0], self.k ** (1 + self.n_preds)))
        full[:, self.cells] = cell_counts
        return self.tables_from_full(full)

    def tables_from_full(self, full):
        """The same from counts over all K^(1 + n_preds) cells."""
        k = self.k
        full = full.reshape((full.shape[0],) + (k,) * (1 + self.n_preds))
        if self.n_preds == 1:
            return [full]
        return [full.sum(axis=3), full.sum(axis=2)]  # axes: (b, true, a, b)

    def pos_index(self, pos_label):
        return _pos_label_index(self.classes, pos_label)


def metric_from_tables(tables, spec, pos_index, n):
    """The metric of each (B, K, K) table (rows true, columns predicted)."""
    tp = np.diagonal(tables, axis1=1, axis2=2)
    if spec["kind"] == "accuracy":
        # formulas page, "Precision, recall, F-beta and accuracy": trace / N
        return tp.sum(axis=1) / n
    pred = tables.sum(axis=1)
    true = tables.sum(axis=2)
    if spec["average"] == "binary" and pos_index < 0:
        zero = _zero_division_value(spec["zero_division"])
        return np.full(tables.shape[0], zero)
    return prf_batch(tp, pred, true, spec, pos_index, present=(pred + true) > 0)
