"""Confusion-matrix metrics computed for many resamples at once, in bounded memory.

Accuracy, precision, recall and F-beta, in every averaging, and the confidence
metrics, depend on the data only through per-class sums: the true positives,
the predicted total and the true total of each class (with sample weights, the
weighted sums). Each resampling unit (an item, or a cell of items with the same
labels) contributes a fixed sparse row of those sums, its *features*. A
bootstrap resample is a vector of multiplicities over the units and a
permutation a vector of swaps, so the sums of a batch of resamples are one
matrix product, and the metric follows from them without calling it once per
resample. Resamples are processed in chunks whose size is set by a memory
budget, so extra memory stays bounded whatever the number of classes or
resamples. Each metric here returns exactly what scikit-learn's (or our) metric
returns on the same data; the tests check that identity.

Resamples are drawn in fixed blocks of :data:`RESAMPLE_BLOCK`, each from its
own random stream (a child of one ``SeedSequence`` drawn from
``random_state``), so that jobs can share the blocks out among themselves and
the result is the same whatever ``n_jobs`` (:func:`run_resamples`).
"""

import contextlib
import functools
import sys
import threading
import time
import warnings
from numbers import Real

import numpy as np
from threadpoolctl import ThreadpoolController

from ..metrics._prf import _jaccard, _precision_recall_fscore, _zero_division_value
from ..utils._validation import (
    _LUT_SPAN_PER_SAMPLE,
    _integer_span,
    _offsets,
    _pos_label_index,
)
from ._options import (
    AVERAGED_METRIC_NAMES,
    CONFIDENCE_METRIC_NAMES,
    LABEL_METRIC_NAMES,
)

# Neither scikit-learn nor scipy is imported here: the table path needs
# neither, and a metric passed as scikit-learn's function (or our confidence
# metric) is recognised from the module that must already be loaded for the
# user to hold it (:func:`metric_kind`).

# scikit-learn's metric functions, by name -> (kind, which, default beta)
_SKLEARN_KINDS = {
    "accuracy_score": ("accuracy", None, None),
    "precision_score": ("prf", "precision", None),
    "recall_score": ("prf", "recall", None),
    "f1_score": ("prf", "f", 1.0),
    "fbeta_score": ("prf", "f", None),
    "jaccard_score": ("jaccard", None, None),
    "balanced_accuracy_score": ("balanced_accuracy", None, None),
    "matthews_corrcoef": ("mcc", None, None),
    "cohen_kappa_score": ("kappa", None, None),
}
# ... and our confidence metrics, in metrics/_confidence.py
_CONFIDENCE_MODULE = "sklearn_faithful.metrics._confidence"
_CONFIDENCE_KINDS = {
    "cprecision_score": ("cprf", "precision", None),
    "crecall_score": ("cprf", "recall", None),
    "cf1_score": ("cprf", "f", 1.0),
    "cfbeta_score": ("cprf", "f", None),
}
# metric names -> the function of each
_NAMES = {
    **dict(
        zip(
            LABEL_METRIC_NAMES,
            (
                "accuracy_score",
                "precision_score",
                "recall_score",
                "f1_score",
                "balanced_accuracy_score",
                "jaccard_score",
                "matthews_corrcoef",
                "cohen_kappa_score",
            ),
            strict=True,
        )
    ),
    **dict(
        zip(
            CONFIDENCE_METRIC_NAMES,
            ("cprecision_score", "crecall_score", "cf1_score"),
            strict=True,
        )
    ),
}
# The kinds of metric a (true, predicted) table determines, and the keyword
# arguments each takes on the fast path (others, and ``labels``, go to the
# item path); the confidence metrics ("cprf") need the probabilities.
_AVERAGED = {"average", "pos_label", "zero_division", "labels"}
_FAST_KWARGS = {
    "accuracy": set(),
    "prf": _AVERAGED | {"beta"},
    "jaccard": _AVERAGED,
    "balanced_accuracy": {"adjusted"},
    "mcc": set(),
    "kappa": {"weights"},  # None only: see resolve_metric
    "cprf": _AVERAGED | {"beta"},
}
TABLE_KINDS = frozenset(_FAST_KWARGS) - {"cprf"}


class ScikitLearnMetric:
    """scikit-learn's metric function of a name, imported at its first call.

    What a metric name resolves to: the table path computes the metric from
    the table's sums and never calls it, so naming a metric imports no
    scikit-learn; the item path calls it.
    """

    def __init__(self, name):
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        from sklearn import metrics

        return getattr(metrics, self.__name__)(*args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, ScikitLearnMetric) and other.__name__ == self.__name__

    def __hash__(self):
        return hash(self.__name__)

    def __repr__(self):
        return f"sklearn.metrics.{self.__name__}"


def _function_name(func, module, names):
    """``func``'s name if it is the function of that name in ``module``, else None.

    The module is looked up among those loaded, never imported: if it is not
    loaded, ``func`` cannot come from it.
    """
    name = getattr(func, "__name__", None)
    loaded = sys.modules.get(module)
    if name in names and loaded is not None and getattr(loaded, name, None) is func:
        return name
    return None


def sklearn_metric_name(func):
    """The name of scikit-learn's metric function ``func`` is, or None."""
    if isinstance(func, ScikitLearnMetric):
        return func.__name__
    name = getattr(func, "__name__", None)
    return _function_name(func, "sklearn.metrics", {name} if name else ())


def metric_kind(func):
    """``(kind, which, default beta)`` of a metric with a fast path, or None."""
    name = sklearn_metric_name(func)
    if name is not None:
        return _SKLEARN_KINDS.get(name)
    name = _function_name(func, _CONFIDENCE_MODULE, _CONFIDENCE_KINDS)
    return None if name is None else _CONFIDENCE_KINDS[name]


def is_label_metric(func):
    """Whether ``func`` is one of scikit-learn's metrics of label predictions
    that a table determines (1-D ``y_pred`` only)."""
    kind = metric_kind(func)
    return kind is not None and kind[0] in TABLE_KINDS


def _named_function(name):
    """The function of metric ``name``: scikit-learn's (imported when called),
    or our confidence metric's."""
    function_name = _NAMES[name]
    if name in CONFIDENCE_METRIC_NAMES:
        from ..metrics import _confidence

        return getattr(_confidence, function_name)
    return ScikitLearnMetric(function_name)


def _check_metric_kwargs(kind, kwargs):
    """Refuse the keyword arguments scikit-learn's metric would refuse.

    The table path computes the metric without calling it, so the values it
    would check are checked here: ``zero_division`` (0.0, 1.0, NaN except for
    Jaccard, or "warn"), ``beta`` (a number >= 0), ``pos_label`` (a number,
    a string, a bool or None) and ``adjusted`` (a bool).
    """
    if "zero_division" in kwargs:
        value = kwargs["zero_division"]
        nan_ok = kind != "jaccard"
        number = isinstance(value, Real) and not isinstance(value, (bool, np.bool_))
        if not (
            (isinstance(value, str) and value == "warn")
            or (number and (value in (0, 1) or (nan_ok and np.isnan(value))))
        ):
            allowed = "0.0, 1.0 or np.nan" if nan_ok else "0.0 or 1.0"
            raise ValueError(
                f"metric_kwargs['zero_division'] is {value!r}; give a number "
                f"({allowed}) or 'warn'."
            )
    if "beta" in kwargs:
        value = kwargs["beta"]
        if (
            not isinstance(value, Real)
            or isinstance(value, (bool, np.bool_))
            or not value >= 0
        ):
            raise ValueError(f"metric_kwargs['beta'] is {value!r}; give a number >= 0.")
    value = kwargs.get("pos_label")
    if not isinstance(value, (Real, str, bool, np.bool_)) and value is not None:
        raise ValueError(
            f"metric_kwargs['pos_label'] is {value!r}; give one of the labels "
            "(a number, a string or a bool)."
        )
    value = kwargs.get("adjusted", False)
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"metric_kwargs['adjusted'] is {value!r}; give True or False.")


def resolve_metric(metric, metric_kwargs=None):
    """Return ``(callable, kwargs, spec, sample_weight)``.

    ``metric`` is a callable ``metric(y_true, y_pred, **kwargs)``, a
    ``functools.partial`` of one, or a name such as ``"f1_macro"`` or
    ``"cf1"``. ``spec`` is None without a fast path. ``sample_weight`` is
    taken out of the keyword arguments (those of a partial too): the
    resampling functions resample it with the items and pass it back.
    """
    kwargs = dict(metric_kwargs or {})
    if isinstance(metric, str):
        base, average = metric, ""
        if metric not in _NAMES:  # f1_macro, jaccard_weighted, cf1_micro
            base, _, average = metric.rpartition("_")
        if metric not in _NAMES and (
            base not in AVERAGED_METRIC_NAMES
            or average not in ("micro", "macro", "weighted")
        ):
            raise ValueError(
                f"metric={metric!r} is not a known name; use a callable, or one of "
                f"{sorted(_NAMES)}, those of {sorted(AVERAGED_METRIC_NAMES)} "
                "optionally with _micro, _macro or _weighted."
            )
        func = _named_function(base)
        if average:
            kwargs.setdefault("average", average)
    elif callable(metric):
        func = metric
    else:
        raise ValueError(f"metric must be a callable or a name; got {metric!r}.")
    while isinstance(func, functools.partial) and not func.args:
        kwargs = {**func.keywords, **kwargs}
        func = func.func
    weight = kwargs.pop("sample_weight", None)
    known = metric_kind(func)
    if known is None or not set(kwargs) <= _FAST_KWARGS[known[0]]:
        # normalize=False, replace_undefined_by and the like: the item path
        return func, kwargs, None, weight
    kind, which, beta = known
    # scikit-learn takes True for 1.0 (True in {0.0, 1.0}); we do not
    _check_metric_kwargs(kind, kwargs)
    if kind in TABLE_KINDS and (
        kwargs.get("labels") is not None or kwargs.get("weights") is not None
    ):
        # sklearn's label subset of the label metrics (the confidence metrics
        # take theirs), and weighted kappa, whose weights depend on the
        # classes each resample happens to hold: the item path
        return func, kwargs, None, weight
    spec = dict(
        kind=kind,
        which=which,
        beta=kwargs.get("beta", beta),
        average=kwargs.get("average", "binary"),
        pos_label=kwargs.get("pos_label", 1),
        zero_division=kwargs.get("zero_division", "warn"),
        adjusted=bool(kwargs.get("adjusted", False)),
    )
    if spec["average"] not in ("binary", "micro", "macro", "weighted"):
        return func, kwargs, None, weight
    return func, kwargs, spec, weight


_WHICH = {"precision": 0, "recall": 1, "f": 2}

# Working memory of one chunk: the largest array of a chunk holds about this
# many bytes, and a chunk allocates a few such arrays.
_CHUNK_BYTES = 32 * 2**20


def _rows_per_chunk(width):
    """Resamples per chunk when each resample needs ``width`` float64 entries."""
    return max(1, _CHUNK_BYTES // (8 * max(int(width), 1)))


# Sparse features at most this many bytes dense, and with at most this many
# entries per non-zero, are made dense: the product of a block of draws with a
# small dense matrix costs less than with a sparse one (label cells of a few
# classes, kappa's agreement cells), but not when most entries are zeros (the
# (true, A, B) cells of ten classes: 1,000 cells of 80 columns, 5 non-zeros
# each).
_DENSE_BYTES = 2**20
_DENSE_PER_NONZERO = 8


def _dense_enough(shape, nnz):
    """Whether sparse features of ``shape`` with ``nnz`` stored entries are
    small and full enough to be made dense."""
    size = shape[0] * shape[1]
    return 8 * size <= _DENSE_BYTES and size <= _DENSE_PER_NONZERO * nnz


def issparse(features):
    """Whether ``features`` are a scipy sparse matrix; scipy is not imported
    for it (if scipy.sparse is not loaded, nothing is sparse)."""
    loaded = sys.modules.get("scipy.sparse")
    return loaded is not None and loaded.issparse(features)


@functools.cache
def _blas():
    return ThreadpoolController()


_BLAS_LOCK = threading.Lock()
_BLAS_HOLD = {"users": 0, "limiter": None}


@contextlib.contextmanager
def one_blas_thread():
    """BLAS on one thread while any caller, in any thread, is inside.

    threadpoolctl's limit is process-wide: two resampling threads that each
    set and restored it let one thread's exit restore the BLAS threads while
    the other still multiplied, and a product on several BLAS threads can
    differ in its last bits, so ``n_jobs=2`` did not always give the numbers
    of ``n_jobs=1``. The first caller in sets the limit and the last one out
    restores it.
    """
    with _BLAS_LOCK:
        if _BLAS_HOLD["users"] == 0:
            _BLAS_HOLD["limiter"] = _blas().limit(limits=1, user_api="blas")
        _BLAS_HOLD["users"] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_HOLD["users"] -= 1
            if _BLAS_HOLD["users"] == 0:
                _BLAS_HOLD["limiter"].restore_original_limits()
                _BLAS_HOLD["limiter"] = None


def _product(draws, features):
    """``draws @ features`` on one BLAS thread.

    The products of a chunk are small: BLAS threads cost more than they
    save there (on a busy machine, 100x more), and jobs parallelise anyway.
    """
    with one_blas_thread():
        return np.asarray(draws @ features)


def _chunks(total, rows):
    """Sizes of successive chunks of at most ``rows`` that add up to ``total``."""
    full, rest = divmod(total, rows)
    return [rows] * full + ([rest] if rest else [])


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
        which=spec["which"],
    )
    return values[_WHICH[spec["which"]]]


def encode_labels(*arrays):
    """The sorted classes of all ``arrays`` and the code of each label.

    Integer and bool labels take one O(n) pass: their offsets from the
    smallest label index a table of the labels present (``np.bincount``), no
    sort. Other labels (strings, floats, labels too spread out for a table)
    take one ``np.unique(..., return_inverse=True)`` over all arrays.
    """
    arrays = [np.asarray(a) for a in arrays]
    spans = [_integer_span(a) for a in arrays]
    n = sum(a.shape[0] for a in arrays)
    if all(spans):
        lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
        if hi - lo <= _LUT_SPAN_PER_SAMPLE * n + 1024:
            offsets = [_offsets(a, lo) for a in arrays]
            present = np.zeros(hi - lo + 1, dtype=bool)
            for off in offsets:
                present |= np.bincount(off, minlength=hi - lo + 1) > 0
            dtype = np.result_type(*arrays)
            classes = (np.flatnonzero(present) + lo).astype(dtype, copy=False)
            if classes.size == present.size:  # every value present: codes = offsets
                return classes, offsets
            lut = np.cumsum(present) - 1
            return classes, [lut[off] for off in offsets]
    classes, inverse = np.unique(np.concatenate(arrays), return_inverse=True)
    bounds = np.cumsum([a.shape[0] for a in arrays])[:-1]
    return classes, np.split(inverse.ravel(), bounds)


def label_features(true_codes, pred_codes, k, weight=None, dense_if_small=False):
    """Sparse features of label predictions, one row per unit.

    Columns: the true positives of each class, the predictions of each class,
    the true labels of each class (all weighted), then the unweighted count of
    each class in y_true or y_pred, which tells the labels scikit-learn
    averages over. ``dense_if_small``: an ndarray instead when the
    :class:`Resampler` would make them dense (:func:`_dense_enough`), built
    without scipy.
    """
    n = true_codes.shape[0]
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64)
    rows = np.repeat(np.arange(n), 5)
    cols = np.column_stack(
        [
            true_codes,
            k + pred_codes,
            2 * k + true_codes,
            3 * k + true_codes,
            3 * k + pred_codes,
        ]
    ).ravel()
    right = true_codes == pred_codes
    data = np.column_stack([w * right, w, w, np.ones(n), np.ones(n)]).ravel()
    # the entries of a row are distinct but for the last two of a right one
    nnz = 5 * n - int(np.count_nonzero(right))
    return unit_features(rows, cols, data, (n, 4 * k), nnz, dense_if_small)


def unit_features(rows, cols, data, shape, nnz, dense_if_small=True):
    """The matrix of ``data`` at ``(rows, cols)`` (repeats summed), ``nnz``
    distinct places: a scipy CSR matrix, or with ``dense_if_small`` the
    ndarray the :class:`Resampler` would make of it (:func:`_dense_enough`),
    built without scipy."""
    if dense_if_small and _dense_enough(shape, nnz):
        dense = np.zeros(shape)
        np.add.at(dense, (rows, cols), data)
        return dense
    from scipy import sparse

    return sparse.csr_matrix((data, (rows, cols)), shape=shape)


def _balanced_accuracy(tp, true, adjusted):
    """scikit-learn's balanced accuracy of each row of per-class sums.

    The mean recall ``TP_k / (TP_k + FN_k)`` over the classes with true
    items; adjusted: ``(score - 1/m) / (1 - 1/m)`` over those ``m`` classes.
    """
    has_true = true > 0
    m = has_true.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(has_true, tp / np.where(has_true, true, 1.0), 0.0)
        score = recall.sum(axis=1) / m
        if adjusted:
            score = (score - 1 / m) / (1 - 1 / m)
    return score


def _mcc(tp, pred, true):
    """Matthews' correlation of each row of per-class sums, as scikit-learn's.

    With c the right answers, s the items, p_k and t_k the predicted and true
    totals: ``(c s - p.t) / sqrt((s^2 - p.p)(s^2 - t.t))``, 0 where the
    denominator is 0.
    """
    s, c = true.sum(axis=1), tp.sum(axis=1)
    cov_tp = c * s - np.einsum("ij,ij->i", true, pred)
    cov_pp = s * s - np.einsum("ij,ij->i", pred, pred)
    cov_tt = s * s - np.einsum("ij,ij->i", true, true)
    denominator = cov_pp * cov_tt
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator == 0, 0.0, cov_tp / np.sqrt(denominator))


def _kappa(tp, pred, true):
    """Cohen's (unweighted) kappa of each row of per-class sums, as scikit-learn's.

    ``1 - (s - c) / ((s^2 - p.t) / s)``: observed disagreement over the
    disagreement the margins expect; NaN where the latter is 0.
    """
    s, c = true.sum(axis=1), tp.sum(axis=1)
    expected = (s * s - np.einsum("ij,ij->i", true, pred)) / s
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(expected == 0, np.nan, 1 - (s - c) / expected)


def metric_from_sums(sums, spec, pos_index, k):
    """The metric of each resample from its summed features (B, 3k or 4k)."""
    tp, pred, true = sums[:, :k], sums[:, k : 2 * k], sums[:, 2 * k : 3 * k]
    kind = spec["kind"]
    if kind == "accuracy":
        # formulas page, "Precision, recall, F-beta and accuracy": trace / N
        # (with weights: the weight of the right answers over the total weight)
        with np.errstate(invalid="ignore", divide="ignore"):
            return tp.sum(axis=1) / true.sum(axis=1)
    if kind == "balanced_accuracy":
        return _balanced_accuracy(tp, true, spec["adjusted"])
    if kind == "mcc":
        return _mcc(tp, pred, true)
    if kind == "kappa":
        return _kappa(tp, pred, true)
    if spec["average"] == "binary" and pos_index < 0:
        zero = _zero_division_value(spec["zero_division"])
        return np.full(sums.shape[0], zero)
    # the labels scikit-learn averages over (all, for the confidence metrics)
    averaged = kind != "cprf" and spec["average"] != "binary"
    present = sums[:, 3 * k :] > 0 if averaged else None
    if kind == "jaccard":
        return _jaccard(
            tp,
            pred,
            true,
            average=spec["average"],
            pos_index=pos_index,
            present=present,
            zero_division=spec["zero_division"],
        )
    return prf_batch(tp, pred, true, spec, pos_index, present=present)


def table_statistic(sums, spec, classes):
    """The metric of the data from its (1, 4k) summed features, as scikit-learn's.

    The value, the errors and the warnings of scikit-learn's metric called on
    the labels: classes count only where the system's own labels (true or
    predicted) hold items, as scikit-learn sees only those; ``average="binary"``
    needs at most two of them, ``pos_label`` among them when there are two.
    Precision, recall, F-beta and Jaccard take their rule from
    :mod:`sklearn_faithful.metrics._prf`; the others from
    :func:`metric_from_sums`, whose resamples they then equal exactly.
    """
    k = classes.size
    tp, pred, true = sums[:, :k], sums[:, k : 2 * k], sums[:, 2 * k : 3 * k]
    own = sums[0, 3 * k :] > 0
    kind, average, pos_label = spec["kind"], spec["average"], spec["pos_label"]
    if kind in ("prf", "jaccard"):
        labels = classes[own].tolist()
        pos_index = _pos_label_index(classes, pos_label)
        if average == "binary":
            if len(labels) > 2:
                raise ValueError(
                    f"the labels hold {len(labels)} classes {labels}, but "
                    "average='binary' scores one class of two; give "
                    "metric_kwargs={'average': 'macro'} (or 'micro', 'weighted'), "
                    "or a metric name ending in _macro, _micro or _weighted."
                )
            # with one class, scikit-learn fails on None too (a TypeError)
            if pos_label not in labels and (len(labels) == 2 or pos_label is None):
                raise ValueError(
                    f"pos_label={pos_label!r} is not a valid label. It should be "
                    f"one of {labels}."
                )
            # scikit-learn's labels=[pos_label]: a class of no item counts 0
            cols = [pos_index] if pos_index >= 0 and own[pos_index] else []
        else:
            if pos_label not in (None, 1):
                warnings.warn(
                    f"Note that pos_label (set to {pos_label!r}) is ignored when "
                    f"average != 'binary' (got {average!r}). You may use "
                    "labels=[pos_label] to specify a single positive class.",
                    UserWarning,
                    stacklevel=6,
                )
            cols = np.flatnonzero(own)
        parts = [
            np.zeros((1, 1)) if not len(cols) else a[:, cols] for a in (tp, pred, true)
        ]
        if kind == "jaccard":
            value = _jaccard(
                *parts,
                average=average,
                pos_index=0,
                zero_division=spec["zero_division"],
                warn=True,
            )
        else:
            which = spec["which"]
            value = _precision_recall_fscore(
                *parts,
                beta=1.0 if spec["beta"] is None else spec["beta"],
                average=average,
                pos_index=0,
                zero_division=spec["zero_division"],
                warn_for=("f-score",) if which == "f" else (which,),
                which=which,
            )[_WHICH[which]]
        return float(value[0])
    if kind == "balanced_accuracy":
        if (own & (true[0] == 0)).any():
            warnings.warn(
                "y_pred contains classes not in y_true", UserWarning, stacklevel=6
            )
        # scikit-learn's mean over the classes of y_true, in their order
        has_true = np.flatnonzero(true[0] > 0)
        return float(
            _balanced_accuracy(tp[:, has_true], true[:, has_true], spec["adjusted"])[0]
        )
    if kind == "kappa":
        return _kappa_as_sklearn(tp[0], pred[0], true[0], own)
    return float(metric_from_sums(sums, spec, -1, k)[0])


def _kappa_as_sklearn(tp, pred, true, own):
    """scikit-learn's ``cohen_kappa_score`` from one table's per-class sums,
    by its operations in its order (its value bit for bit on counts).

    ``1 - sum(w C) / sum(w E)`` over the classes of the labels, ``E =
    outer(C.sum(0), C.sum(1)) / N`` and ``w`` 1 off the diagonal: ``sum(w
    C)`` is the items off the diagonal, ``N - trace``, exact for counts, and
    ``sum(w E)`` is summed over the same (k, k) matrix as scikit-learn's.
    Resamples take :func:`_kappa` (the same value up to an ulp); a value one
    ulp apart would move the bias correction of a BCa interval.
    """
    cols = np.flatnonzero(own)
    expected = np.outer(pred[cols], true[cols]) / pred[cols].sum()
    w = np.ones((cols.size, cols.size), dtype=int)
    w.flat[:: cols.size + 1] = 0
    denominator = np.sum(w * expected)
    if denominator == 0:
        warn_kappa_undefined(stacklevel=7)
        return np.nan
    return float(1 - (true[cols].sum() - tp[cols].sum()) / denominator)


def warn_kappa_undefined(stacklevel):
    """Say, as scikit-learn does, that kappa is NaN: no disagreement expected."""
    from sklearn.exceptions import UndefinedMetricWarning

    warnings.warn(
        "Cohen's kappa is undefined: the two labellings have only one label in "
        "common, so no disagreement is expected by chance; it is set to nan, as "
        "scikit-learn's cohen_kappa_score does.",
        UndefinedMetricWarning,
        stacklevel=stacklevel,
    )


class Resampler:
    """Sums of unit features under bootstrap or permutation draws, chunk by chunk.

    Parameters
    ----------
    features : list of (n_units, d) matrices
        One per system, dense or sparse.
    counts : ndarray of shape (n_units,), default=None
        Items in each unit when the units are cells of identical items; then
        bootstrap draws are multinomial over the cells, which is what
        resampling the items gives (equal in distribution). None: every unit
        is one item, drawn by index with the same random stream as a loop over
        ``rng.integers(0, n, n)`` (identical for the same seed).

    ``bootstrap`` and ``permute`` draw the resamples of one block from the
    block's generator; :func:`run_resamples` runs the blocks.
    """

    def __init__(self, features, counts=None):
        self.features = [
            f.toarray() if issparse(f) and _dense_enough(f.shape, f.nnz) else f
            for f in features
        ]
        self.counts = counts
        self.n_units = features[0].shape[0]
        self.n = self.n_units if counts is None else int(counts.sum())
        self.width = max(f.shape[1] for f in features)

    def totals(self):
        """The sums of the data itself, one (1, d) array per system."""
        w = np.ones(self.n_units) if self.counts is None else self.counts
        w = w.astype(np.float64)[None, :]
        return [_product(w, f) for f in self.features]

    @functools.cached_property
    def _shares(self):
        """Each cell's share of the items, the multinomial's probabilities."""
        return self.counts / self.n

    def _rows(self):
        if self.counts is None:
            return _rows_per_chunk(max(self.n_units, self.width))
        # cells: a chunk holds its draws, their float copy and the product's
        # copy (or a table's cell codes), each (rows, n_units); counts are
        # integers, so the sums do not depend on the chunk
        return _rows_per_chunk(3 * max(self.n_units, self.width))

    def _draws(self, rng, c):
        """(c, n_units) bootstrap multiplicities of one chunk."""
        if self.counts is not None:
            return rng.multinomial(self.n, self._shares, size=c)
        idx = rng.integers(0, self.n, size=(c, self.n))
        idx += (np.arange(c) * self.n)[:, None]
        return np.bincount(idx.ravel(), minlength=c * self.n).reshape(c, self.n)

    def bootstrap(self, rng, n_resamples):
        """Yield, chunk by chunk, the list of (c, d) sums of each system."""
        for c in _chunks(n_resamples, self._rows()):
            draws = self._draws(rng, c).astype(np.float64)
            yield [_product(draws, f) for f in self.features]

    def jackknife(self, metric_of):
        """The metric of the first system with one item of each unit left out.

        Returns the value of each unit and its number of items, the weight of
        that value in the jackknife: leaving out any item of a cell gives the
        same table, so a cell needs one evaluation, not one per item. The
        sums without one item are the totals minus the unit's features.
        """
        total = self.totals()[0]
        features = self.features[0]
        values = []
        # the metric makes a few (rows, width) arrays of its own
        rows = _rows_per_chunk(8 * self.width)
        for start in range(0, self.n_units, rows):
            part = features[start : start + rows]
            if not isinstance(part, np.ndarray):
                part = part.toarray()
            values.append(metric_of(total - part))
        counts = np.ones(self.n_units) if self.counts is None else self.counts
        return np.concatenate(values), counts

    @functools.cached_property
    def _permutation_parts(self):
        """The totals, the change of a swap and the cells a swap changes."""
        fa, fb = self.features
        delta = fb - fa  # swapping a unit moves delta from B's sums to A's
        if isinstance(delta, _TableFeatures):
            changes = delta.index != delta.minus
        else:
            changes = np.asarray(abs(delta).sum(axis=1)).ravel() > 0
        movable = np.flatnonzero(changes)
        counts = None if self.counts is None else self.counts[movable]
        return self.totals(), delta, movable, counts

    def permute(self, rng, n_resamples):
        """Yield the sums of two systems whose outputs are swapped unit by unit.

        Each item's two outputs are exchanged with probability 1/2. For cells,
        the number of swapped items of each cell is binomial; cells where the
        two systems agree are left alone, as swapping them changes nothing.
        """
        (base_a, base_b), delta, movable, counts = self._permutation_parts
        for c in _chunks(n_resamples, self._rows()):
            if self.counts is None:
                swaps = (rng.random((c, self.n)) < 0.5).astype(np.float64)
            else:
                swaps = np.zeros((c, self.n_units))
                swaps[:, movable] = rng.binomial(counts, 0.5, size=(c, movable.size))
            moved = _product(swaps, delta)
            yield [base_a + moved, base_b - moved]


class _TableFeatures:
    """The features of :func:`label_features` of cells, from each unit's cell.

    Unit ``u`` is an item of the (true, predicted) cell ``index[u] = true k +
    predicted`` of one system (minus one of the cell ``minus[u]``, for the
    change of a swap). A product ``draws @ features`` sums the draws of each
    cell into the (c, k, k) tables, one ``np.bincount``, and takes their
    margins; what it holds is one code per unit, not a sparse row of five.
    """

    __array_ufunc__ = None  # ndarray @ self calls self.__rmatmul__

    def __init__(self, index, k, minus=None):
        self.index, self.k, self.minus = index, k, minus
        self.shape = (index.shape[0], 4 * k)

    def __sub__(self, other):
        return _TableFeatures(self.index, self.k, minus=other.index)

    def __getitem__(self, key):
        minus = None if self.minus is None else self.minus[key]
        return _TableFeatures(self.index[key], self.k, minus=minus)

    def _tables(self, draws, index):
        c, size = draws.shape[0], self.k * self.k
        cells = index + (np.arange(c) * size)[:, None]
        tables = np.bincount(cells.ravel(), draws.ravel(), minlength=c * size)
        return tables.reshape(c, self.k, self.k)

    def __rmatmul__(self, draws):
        draws = np.asarray(draws)
        tables = self._tables(draws, self.index)
        if self.minus is not None:
            tables -= self._tables(draws, self.minus)
        k = self.k
        # columns of label_features: tp, predicted, true, then true + predicted;
        # in Fortran order, as the product with sparse features gives them
        sums = np.empty((tables.shape[0], 4 * k), order="F")
        sums[:, :k] = np.diagonal(tables, axis1=1, axis2=2)
        tables.sum(axis=1, out=sums[:, k : 2 * k])
        tables.sum(axis=2, out=sums[:, 2 * k : 3 * k])
        np.add(sums[:, k : 2 * k], sums[:, 2 * k : 3 * k], out=sums[:, 3 * k :])
        return sums

    def toarray(self):
        rows = label_features(*np.divmod(self.index, self.k), self.k).toarray()
        if self.minus is not None:
            rows -= label_features(*np.divmod(self.minus, self.k), self.k).toarray()
        return rows


# A table of the cells is counted with np.bincount up to this many cells
# (32 MiB of counts); beyond, the distinct cells are found by sorting.
_DENSE_CELLS = 2**22
# Items combined into cell codes at a time (8 MiB of codes).
_COUNT_CHUNK = 2**20


def _bincount(cell, size, weights):
    """Items (or, with integer ``weights``, their total weight) in each cell."""
    if weights is None:
        return np.bincount(cell, minlength=size)
    # float sums of integers below 2**53 are exact
    return np.bincount(cell, weights=weights, minlength=size).astype(np.int64)


def label_cells(codes, k, weights=None):
    """The distinct cells of label codes (one array per labelling) and their counts.

    Returns the codes of each cell's labels, one array per labelling, and the
    number of items in each cell: the units of multinomial resampling. The
    cells come in the order of the table ``table[c_0, c_1, ...]`` flattened
    (C order), as :func:`table_cells` gives them; the table is counted in one
    pass with ``np.bincount`` over the combined codes
    ``(c_0 k + c_1) k + ...``. Integer ``weights`` count each item as that
    many (frequency weights; none may be 0).
    """
    size = k ** len(codes)
    if size > _DENSE_CELLS:
        cells, inverse = np.unique(np.column_stack(codes), axis=0, return_inverse=True)
        counts = _bincount(inverse.ravel(), cells.shape[0], weights)
        return list(cells.T), counts
    table = np.zeros(size, dtype=np.int64)
    n = codes[0].shape[0]
    for start in range(0, n, _COUNT_CHUNK):  # chunks: memory independent of n
        stop = start + _COUNT_CHUNK
        cell = codes[0][start:stop].astype(np.intp, copy=True)
        for c in codes[1:]:
            cell *= k
            cell += c[start:stop]
        table += _bincount(cell, size, None if weights is None else weights[start:stop])
    return table_cells(table.reshape((k,) * len(codes)))


def label_table(*arrays, weights=None):
    """The sorted classes of label ``arrays``, and the non-empty cells of their table.

    Returns ``(classes, codes, counts)`` as :func:`label_cells` does, the
    codes indexing ``classes``. Integer and bool labels whose values span
    few enough integers are counted in one chunked pass over their offsets
    from the smallest label, with no codes of the items and extra memory
    independent of their number; the classes are the values whose margin
    is not empty. Other labels are encoded first (:func:`encode_labels`).
    Integer ``weights`` (none 0) count each item as that many.
    """
    arrays = [np.asarray(a) for a in arrays]
    spans = [_integer_span(a) for a in arrays]
    if all(spans):
        lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
        width = hi - lo + 1
        if width ** len(arrays) <= _DENSE_CELLS:
            table = np.zeros(width ** len(arrays), dtype=np.int64)
            for start in range(0, arrays[0].shape[0], _COUNT_CHUNK):
                stop = start + _COUNT_CHUNK
                cell = _offsets(arrays[0][start:stop], lo).astype(np.intp)
                for a in arrays[1:]:
                    cell *= width
                    cell += _offsets(a[start:stop], lo)
                part = None if weights is None else weights[start:stop]
                table += _bincount(cell, table.size, part)
            table = table.reshape((width,) * len(arrays))
            present = np.zeros(width, dtype=bool)
            for axis in range(len(arrays)):
                others = tuple(i for i in range(len(arrays)) if i != axis)
                present |= table.sum(axis=others) > 0
            dtype = np.result_type(*arrays)
            classes = (np.flatnonzero(present) + lo).astype(dtype, copy=False)
            return classes, *table_cells(table[np.ix_(*[present] * len(arrays))])
    classes, codes = encode_labels(*arrays)
    return classes, *label_cells(codes, classes.size, weights)


def table_cells(table):
    """The non-empty cells of a count table: their index on each axis, and counts."""
    flat = np.flatnonzero(table)
    return list(np.unravel_index(flat, table.shape)), table.ravel()[flat]


def cell_resampler(codes, counts, k, clusters=None):
    """A :class:`Resampler` of cells: ``codes[0]`` the true labels' codes,
    ``codes[1:]`` those of each system's predictions, ``counts`` the items.

    ``clusters``, a (n_clusters, n_cells) matrix of each cluster's items in
    each cell, makes the clusters the units: a cluster's features are the
    sums of its cells' (``clusters @ features``), and resamples draw whole
    clusters.
    """
    if clusters is None and counts.size > k * k and 32 * k * counts.size > _DENSE_BYTES:
        # more joint cells than (true, predicted) cells, whose sparse features
        # would be large: sum the draws into each system's table first (a
        # joint cell has the features of its system's cell: the same sums)
        dtype = np.int32 if k * k < 2**31 else np.intp
        true = codes[0].astype(dtype) * dtype(k)
        return Resampler([_TableFeatures(true + c, k) for c in codes[1:]], counts)
    if clusters is None:
        features = [
            label_features(codes[0], c, k, dense_if_small=True) for c in codes[1:]
        ]
        return Resampler(features, counts)
    features = [label_features(codes[0], c, k) for c in codes[1:]]
    return Resampler([clusters @ f for f in features])


def cluster_cells(groups, n_groups, codes, k, weights=None):
    """The non-empty cells of label ``codes`` and each cluster's items in them.

    Returns ``(clusters, cell_codes)``: a sparse (n_groups, n_cells) matrix
    whose row ``g`` counts the items of cluster ``groups == g`` in each cell,
    and the codes of each cell's labels, one array per labelling, the cells
    in the order :func:`label_cells` gives them. Integer ``weights`` count
    each item as that many.
    """
    size = k ** len(codes)
    cell = codes[0].astype(np.int64)
    for c in codes[1:]:
        cell = cell * k + c
    counts = np.ones(cell.shape[0]) if weights is None else weights
    from scipy import sparse

    table = sparse.csr_matrix((counts, (groups, cell)), shape=(n_groups, size))
    table.sum_duplicates()
    present = np.unique(table.indices)
    return table[:, present], list(np.unravel_index(present, (k,) * len(codes)))


def cluster_sums(features, groups, n_groups):
    """Each cluster's sums of its items' features, one list entry per system.

    ``indicator @ f`` with the (n_groups, n_items) indicator of the items'
    clusters ``groups``: dense features stay dense, sparse stay sparse.
    """
    from scipy import sparse

    n = groups.shape[0]
    indicator = sparse.csr_matrix(
        (np.ones(n), (groups, np.arange(n))), shape=(n_groups, n)
    )
    return [indicator @ f for f in features]


def label_resampler(y_true, y_preds, weight=None, groups=None):
    """A :class:`Resampler` of label predictions, and the classes.

    Without weights the units are the observed cells of (true, predictions)
    labels; with weights, the items, or with ``groups = (codes, n_groups)``
    the clusters (:func:`cluster_sums`; without weights, the clusters' cells
    are cheaper: :func:`cluster_cells`).
    """
    if weight is None and groups is None:
        classes, codes, counts = label_table(y_true, *y_preds)
        return cell_resampler(codes, counts, classes.size), classes
    classes, codes = encode_labels(y_true, *y_preds)
    k = classes.size
    features = [label_features(codes[0], c, k, weight) for c in codes[1:]]
    if groups is not None:
        features = cluster_sums(features, *groups)
    return Resampler(features), classes


# Resamples per random stream. Fixed, so that the resamples do not depend on
# how the blocks are shared among jobs; changing it changes every result.
RESAMPLE_BLOCK = 256


def block_seeds(rng, n_resamples):
    """``(SeedSequence, size)`` of each block of ``n_resamples``, drawn from ``rng``.

    One root entropy is drawn from ``rng`` (which advances it, so a Generator
    passed twice gives new resamples), and block ``j`` draws from its child
    ``j``, whichever job runs it.
    """
    root = np.random.SeedSequence(rng.integers(2**63, size=2).tolist())
    sizes = _chunks(n_resamples, RESAMPLE_BLOCK)
    return list(zip(root.spawn(len(sizes)), sizes, strict=True))


def _run_blocks(draw, blocks):
    """``draw(rng, size)`` on each block, each with its own generator.

    BLAS is held to one thread for all of them at once: setting the limit
    costs more than a small block's products.
    """
    with one_blas_thread():
        return [draw(np.random.default_rng(seed), size) for seed, size in blocks]


class _Progress:
    """Resamples done out of the total and the time so far, as lines on stderr.

    ``verbose=1`` prints a line at most every second and the last one; 2 or
    more prints one per task (a block when ``n_jobs=1``).
    """

    def __init__(self, name, what, total, verbose):
        self.name, self.what, self.total, self.verbose = name, what, total, verbose
        self.done = 0
        self.start = self.last = time.perf_counter()

    def update(self, count):
        self.done += count
        now = time.perf_counter()
        final = self.done >= self.total
        if self.verbose > 0 and (final or self.verbose > 1 or now - self.last >= 1):
            self.last = now
            print(
                f"[{self.name}] {self.done}/{self.total} {self.what}, "
                f"{now - self.start:.1f} s",
                file=sys.stderr,
                flush=True,
            )


def _effective_n_jobs(n_jobs):
    """joblib's ``effective_n_jobs``, without importing joblib for one job.

    ``n_jobs=None`` means 1 unless in a :func:`joblib.parallel_config`
    context, which needs joblib loaded: if it is not, the answer is 1.
    """
    if n_jobs == 1 or (n_jobs is None and "joblib" not in sys.modules):
        return 1
    from joblib import effective_n_jobs

    return effective_n_jobs(n_jobs)


def run_resamples(
    draw, rng, n_resamples, *, n_jobs=None, verbose=0, name="", what="resamples"
):
    """The values of ``n_resamples`` resamples, in blocks shared among ``n_jobs``.

    ``draw(rng, size)`` returns the values of ``size`` resamples drawn from
    ``rng``; it must be picklable for process-based jobs (a module-level
    function, or a ``functools.partial`` of one). Each block has its own
    generator (:func:`block_seeds`) and the values are put together in block
    order, so the result is identical for every ``n_jobs`` and backend. Each
    job holds the working memory of one chunk (:class:`Resampler`) at a time.
    ``n_jobs=None`` means 1 unless in a :func:`joblib.parallel_config`
    context; ``verbose`` prints progress on stderr (:class:`_Progress`), and
    from 2 joblib's own messages too.
    """
    blocks = block_seeds(rng, n_resamples)
    n_workers = _effective_n_jobs(n_jobs)
    # one task per block in one job; a few tasks per job otherwise, for load
    # balance and the progress display
    n_tasks = len(blocks) if n_workers == 1 else min(len(blocks), 4 * n_workers)
    bounds = np.linspace(0, len(blocks), n_tasks + 1).round().astype(int)
    groups = [blocks[i:j] for i, j in zip(bounds[:-1], bounds[1:], strict=True)]
    if verbose > 0:
        print(
            f"[{name}] {n_resamples} {what} in {len(blocks)} blocks of at most "
            f"{RESAMPLE_BLOCK}, on {n_workers} job{'s' * (n_workers > 1)}",
            file=sys.stderr,
            flush=True,
        )
    progress = _Progress(name, what, n_resamples, verbose)
    if n_workers == 1:
        results = (_run_blocks(draw, group) for group in groups)
    else:
        from sklearn.utils.parallel import delayed

        from ..utils._compat import parallel_as_completed

        results = parallel_as_completed(
            (delayed(_run_blocks)(draw, group) for group in groups),
            n_jobs=n_jobs,
            verbose=max(verbose - 1, 0),
        )
    values = []
    # in one job, BLAS's limit is set once for all of the blocks
    with one_blas_thread() if n_workers == 1 else contextlib.nullcontext():
        for group, result in zip(groups, results, strict=True):
            values.extend(result)
            progress.update(sum(size for _, size in group))
    return np.concatenate(values)
