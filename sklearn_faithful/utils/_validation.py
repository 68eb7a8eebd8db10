"""Validation helpers for the data users hand to sklearn-faithful.

Each helper checks one kind of input and raises a ``ValueError`` that names the
parameter, shows the bad value and says what is allowed. None of them modifies
its input in place.
"""

import functools
import warnings
from numbers import Integral, Real

import numpy as np

from ._param_validation import (
    Interval,
    StrOptions,
    validate_parameter_constraints,
    validate_params,
)

# Declarative constraints (scikit-learn's ``_parameter_constraints`` format)
# shared by the public functions and classes, so that one parameter is checked
# one way everywhere.
CONFIDENCE_LEVEL = [Interval(Real, 0, 1, closed="neither")]
# scikit-learn's seeds (None, an int, a RandomState), spelled out so that the
# int refuses booleans (random_state=True would seed with 1), and a Generator
SEEDS = [Interval(Integral, 0, 2**32 - 1, closed="both"), np.random.RandomState, None]
RANDOM_STATE = [*SEEDS, np.random.Generator]
POS_LABEL = [Real, str, "boolean", None]
ALTERNATIVE = [StrOptions({"two-sided", "less", "greater"})]
# Half-width of a region of practical equivalence, on the scale of the score
# compared: any non-negative number (0: no rope). Scores need not lie in
# [0, 1] (log loss, RMSE), and a rope wider than a bounded score's range only
# makes every difference equivalent.
ROPE = [Interval(Real, 0, None, closed="left")]
# joblib's n_jobs: a positive count, -1 for all processors (-2 all but one, ...),
# or None for 1 unless a joblib.parallel_config context says otherwise; 0 is not
# a number of jobs
N_JOBS = [
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, None, closed="left"),
    None,
]

# Integer labels spanning at most this many values (per sample) are encoded with a
# lookup table, an O(n) pass, instead of a sort.
_LUT_SPAN_PER_SAMPLE = 4


def check_matplotlib(caller):
    """Import matplotlib.pyplot, or say how to install it.

    Parameters
    ----------
    caller : str
        Name of the function that needs matplotlib, used in the error message.

    Returns
    -------
    plt : module
        ``matplotlib.pyplot``.

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised by monkeypatching
        raise ImportError(
            f"{caller} requires matplotlib, which is not installed. Install it "
            "with: pip install 'sklearn-faithful[plot]'"
        ) from exc
    return plt


def _validate_init_params(instance, params=None):
    """Check ``params`` against ``type(instance)._parameter_constraints``.

    ``params`` defaults to the instance's attributes of the same names. The
    message names the class. It always validates, also where nested
    validation is skipped: a method must still check its own object.
    """
    constraints = type(instance)._parameter_constraints
    if params is None:
        params = {name: getattr(instance, name) for name in constraints}
    validate_parameter_constraints(
        constraints, params, caller_name=type(instance).__name__
    )


def _validate_method(constraints, *, prefer_skip_nested_validation=True):
    """``validate_params`` for a method of an object that checks its parameters.

    The object's own parameters are checked first (``self._validate_params()``)
    and then the method's. scikit-learn's ``validate_params`` alone would
    report a bad parameter of the object as one of the method, because it
    renames the caller of every ``InvalidParameterError`` raised inside.
    """

    def decorator(method):
        checked = validate_params(
            constraints, prefer_skip_nested_validation=prefer_skip_nested_validation
        )(method)

        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            self._validate_params()
            return checked(self, *args, **kwargs)

        return wrapper

    return decorator


def _pos_label_index(classes, pos_label):
    """Position of ``pos_label`` in the 1-D array ``classes``, or -1."""
    try:
        return classes.tolist().index(pos_label)
    except ValueError:
        return -1


def _resolve_pos_label(
    classes, pos_label, *, strict=False, name="pos_label", of="y_true", hint=""
):
    """Return ``(pos_label, index)``: the positive class and its position.

    The one rule of the package: ``pos_label=None`` means the greater of two
    classes, ``classes[-1]`` (1 for {0, 1} and {-1, 1}, as scikit-learn's
    binary convention). With ``strict``, None is accepted only for labels
    {0, 1}, {-1, 1} or {False, True}, where that choice is unambiguous, as
    scikit-learn's metrics do. A ``pos_label`` that is not among ``classes``
    raises a ``ValueError`` that calls the parameter ``name`` and lists the
    classes (those of ``of``), followed by ``hint``.
    """
    if pos_label is None:
        values = set(classes.tolist())
        if strict and not (values <= {0, 1} or values <= {-1, 1}):
            raise ValueError(
                f"pos_label=None needs labels {{0, 1}} or {{-1, 1}}; the labels of "
                f"{of} are {classes.tolist()}. Pass pos_label= one of them." + hint
            )
        pos_label = classes[-1]
    index = _pos_label_index(classes, pos_label)
    if index < 0:
        raise ValueError(
            f"{name}={pos_label!r} is not a valid label: it is not a label of "
            f"{of}, which are {classes.tolist()!r}." + hint
        )
    return pos_label, index


def _check_same_items(arr, y_true, name, true_name="y_true"):
    """Predictions ``arr`` must be of the items of ``y_true``, in its labels.

    Same length, and labels of the same kind (numbers, or strings), or no
    item could ever be right.
    """
    n = y_true.shape[0]
    if arr.shape[0] != n:
        raise ValueError(
            f"{name} has {arr.shape[0]} samples but {true_name} has {n}; they "
            "must describe the same items."
        )
    if arr.ndim == 1 and _is_text(arr) != _is_text(y_true):
        raise ValueError(
            f"{name} holds labels of dtype {arr.dtype!s} but {true_name} of "
            f"dtype {y_true.dtype!s}; predictions must use the same labels as "
            f"{true_name} (strings and numbers never match)."
        )


def _is_text(labels):
    """Whether 1-D ``labels`` are strings (numpy strings or str objects)."""
    if labels.dtype.kind in "US":
        return True
    return labels.dtype.kind == "O" and labels.size > 0 and isinstance(labels[0], str)


def _numbers_as_numbers(labels):
    """An object array of numbers as a numeric array (scikit-learn's metrics
    call it of 'unknown' type); strings and other arrays unchanged."""
    if labels.dtype == object and labels.ndim == 1 and not _is_text(labels):
        converted = np.array(labels.tolist())
        if converted.dtype.kind in "biuf":
            return converted
    return labels


def _refuse_booleans(values, name, what):
    """A boolean array is not ``what`` (scores, counts): True would be 1.

    ``values`` is anything ``np.asarray`` takes; a DataFrame of booleans
    counts too.
    """
    dtypes = getattr(values, "dtypes", None)
    kinds = (
        {np.dtype(d).kind for d in dtypes}
        if dtypes is not None and not isinstance(dtypes, np.dtype)
        else {np.asarray(values).dtype.kind}
    )
    if "b" in kinds:
        raise ValueError(
            f"{name} holds booleans, not {what}; pass the {what} as numbers (True "
            "would count as 1)."
        )


def _check_label_values(labels, name, hint=""):
    """Refuse what cannot be a class label: non-whole numbers and None.

    Predicted probabilities or scores given where labels are expected would
    make each distinct float a class of its own, every item wrong, and the
    test's p-value tiny; a None label (a missing prediction) would be a
    class too. ``hint`` says where such values belong.
    """
    if labels.dtype.kind == "f":
        whole = np.isfinite(labels) & (labels == np.round(labels))
        if not whole.all():
            i = int(np.flatnonzero(~whole)[0])
            raise ValueError(
                f"{name} holds {labels[i].item()!r} at item {i}, not a class label: "
                "non-whole numbers look like scores or probabilities. Give "
                "labels (threshold the scores first, e.g. proba >= 0.5)"
                + (f"; {hint}" if hint else "")
                + "."
            )
    elif labels.dtype == object:
        missing = np.fromiter((v is None for v in labels), bool, labels.shape[0])
        if missing.any():
            i = int(np.flatnonzero(missing)[0])
            raise ValueError(
                f"{name} holds None at item {i}; every item needs a label (a "
                "missing prediction is not a class)."
            )


def _column_or_1d(y_true, name):
    """scikit-learn's ``column_or_1d`` (pandas, lists, one column), our words."""
    from sklearn.utils import column_or_1d

    try:
        return column_or_1d(y_true, warn=True)
    except ValueError as exc:
        raise ValueError(
            f"{name} must be a 1-D array-like of class labels; got shape "
            f"{np.shape(y_true)}."
        ) from exc


def _check_y_true(y_true, name="y_true"):
    """Return ``y_true`` as a non-empty 1-D array of labels."""
    if isinstance(y_true, np.ndarray) and y_true.ndim == 1:
        y = y_true  # what column_or_1d returns, without importing scikit-learn
    else:
        y = _column_or_1d(y_true, name)
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed.")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError(
            f"{name} contains NaN or infinity; class labels must be finite."
        )
    return y


def _check_sample_weight(sample_weight, n_samples, name="sample_weight", of="y_true"):
    """Return ``sample_weight`` as a float array of length ``n_samples``, or None."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.ndim != 1 or w.shape[0] != n_samples:
        raise ValueError(
            f"{name} must have shape ({n_samples},) to match {of}; got shape {w.shape}."
        )
    if w.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric; got dtype {w.dtype!s}.")
    w = w.astype(np.float64, copy=False)
    if not np.isfinite(w).all():
        bad = int(np.flatnonzero(~np.isfinite(w))[0])
        raise ValueError(
            f"{name} contains {w[bad]!r} at position {bad}; weights must be "
            "finite and non-negative."
        )
    if (w < 0).any():
        bad = int(np.flatnonzero(w < 0)[0])
        raise ValueError(
            f"{name} contains the negative weight {w[bad]!r} at position "
            f"{bad}; weights must be non-negative."
        )
    return w


def _check_classes(labels, name="labels"):
    """Return ``labels`` as a 1-D array of distinct class labels."""
    classes = np.asarray(labels)
    if classes.ndim != 1 or classes.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array-like of class labels; got "
            f"{labels!r}."
        )
    if np.unique(classes).shape[0] != classes.shape[0]:
        raise ValueError(f"{name} contains duplicates: {labels!r}.")
    return classes


def _integer_span(y):
    """``(lo, hi)`` of integer or bool labels when a lookup table can hold them.

    None for other dtypes, for spans too wide for a table of
    ``_LUT_SPAN_PER_SAMPLE`` entries per sample, and for uint64 labels beyond
    the int64 range. Offsets are taken in int64, never in the labels' own
    dtype, where ``y - lo`` would overflow int8 or int16.
    """
    if y.dtype.kind not in "iub" or y.shape[0] == 0:
        return None
    lo, hi = int(y.min()), int(y.max())
    if (
        hi > np.iinfo(np.int64).max
        or hi - lo > _LUT_SPAN_PER_SAMPLE * y.shape[0] + 1024
    ):
        return None
    return lo, hi


def _offsets(y, lo):
    """``y - lo`` as int64 offsets into a lookup table (``y`` itself when it
    already is: callers only read the offsets)."""
    if lo == 0 and y.dtype == np.int64:
        return y
    offsets = y.astype(np.int64)
    offsets -= lo
    return offsets


def _unique_labels(y):
    """Return the sorted distinct labels of a 1-D array ``y``."""
    span = _integer_span(y)
    if span is None:
        return np.unique(y)
    lo, hi = span
    present = np.bincount(_offsets(y, lo), minlength=hi - lo + 1) > 0
    return (np.flatnonzero(present) + lo).astype(y.dtype, copy=False)


_Y_PROBA_HINT = (
    " Every class in {name} needs a column of y_proba; pass "
    "labels=estimator.classes_ to name the column of each class."
)


def _encode(y, classes, name="y_true", classes_name="labels", hint=_Y_PROBA_HINT):
    """Return the position of each label of ``y`` in ``classes``.

    Raises a ``ValueError`` naming the labels of ``y`` that ``classes`` lacks,
    followed by ``hint`` (formatted with ``name``).
    """
    k = classes.shape[0]
    idx = None
    span = _integer_span(y) if classes.dtype.kind in "iub" else None
    if span is not None:
        lo, hi = span
        if lo >= 0 and hi < k and np.array_equal(classes, np.arange(k)):
            return y.astype(np.intp, copy=False)  # labels 0..k-1 are their codes
        lut = np.full(hi - lo + 1, -1, dtype=np.intp)
        inside = (classes >= lo) & (classes <= hi)
        lut[_offsets(classes[inside], lo)] = np.flatnonzero(inside)
        idx = lut[_offsets(y, lo)]
        unknown = idx < 0
    if idx is None:
        sorter = np.argsort(classes, kind="stable")
        pos = np.searchsorted(classes, y, sorter=sorter)
        pos = np.minimum(pos, k - 1)
        idx = sorter[pos]
        unknown = classes[idx] != y
    if unknown.any():
        missing = np.unique(y[unknown])
        shown = ", ".join(repr(v) for v in missing[:5].tolist())
        more = f" and {missing.shape[0] - 5} more" if missing.shape[0] > 5 else ""
        raise ValueError(
            f"{name} contains label(s) {shown}{more} that are not in "
            f"{classes_name}={classes.tolist()!r}." + hint.format(name=name)
        )
    return idx


def _resolve_classes(y, labels, n_columns, pos_label):
    """Return the class of each column of ``y_proba`` and the 1-D positive class.

    ``n_columns`` is None for 1-D ``y_proba``. For 1-D input the second return
    value is the class whose probability the 1-D array holds; otherwise None.
    """
    if labels is not None:
        classes = _check_classes(labels)
    if n_columns is not None:
        if labels is None:
            classes = _unique_labels(y)
            if classes.shape[0] != n_columns:
                raise ValueError(
                    f"y_proba has {n_columns} columns but y_true holds "
                    f"{classes.shape[0]} distinct classes {classes.tolist()!r}, so "
                    "the class of each column cannot be inferred. Pass labels= "
                    "(for a fitted classifier, labels=estimator.classes_)."
                )
        elif classes.shape[0] != n_columns:
            raise ValueError(
                f"labels has {classes.shape[0]} entries but y_proba has "
                f"{n_columns} columns; labels must name the class of every column "
                "of y_proba, in column order."
            )
        return classes, None

    # 1-D y_proba: the probability of one class of a binary problem.
    if labels is None:
        classes = _unique_labels(y)
        if (
            pos_label is not None
            and classes.shape[0] == 1
            and pos_label not in classes.tolist()
        ):
            # Only negatives in y_true: the classes are them and pos_label.
            try:
                classes = np.asarray(sorted([classes[0].item(), pos_label]))
            except TypeError:
                pass  # pos_label of another type than y_true: rejected below.
    elif classes.shape[0] != 2:
        raise ValueError(
            "y_proba is 1-D (the probability of the positive class of a binary "
            f"problem) but labels has {classes.shape[0]} entries; pass the two "
            "classes, or give y_proba one column per class."
        )
    if classes.shape[0] > 2:
        raise ValueError(
            "y_proba is 1-D, which is only meaningful for a binary problem, but "
            f"the classes are {classes.tolist()!r}. Pass y_proba with one column "
            "per class (the output of predict_proba)."
        )
    if pos_label is None and classes.shape[0] < 2:
        raise ValueError(
            "y_proba is 1-D and y_true holds a single class, so it is unknown "
            "which class y_proba is the probability of. Pass pos_label (or "
            "labels with both classes)."
        )
    pos_label, _ = _resolve_pos_label(
        classes,
        pos_label,
        of="the classes",
        hint=" 1-D y_proba is the probability of pos_label.",
    )
    return classes, pos_label


def _as_float_array(y_proba, name="y_proba"):
    """Return ``y_proba`` as a floating-point ndarray, copying only if needed."""
    arr = np.asarray(y_proba)
    if arr.dtype.kind == "f":
        return arr
    try:
        return arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must hold numbers (probabilities in [0, 1]); got dtype "
            f"{arr.dtype!s}."
        ) from exc


def _raise_for_bad_probabilities(y_proba, name="y_proba"):
    """Find the first invalid entry of ``y_proba`` and raise a ``ValueError``.

    Called only once a cheap pass has found that something is wrong, so it may
    take several passes to give a precise message.
    """
    flat = y_proba.reshape(y_proba.shape[0], -1)
    nan_rows = np.flatnonzero(np.isnan(flat).any(axis=1))
    if nan_rows.size:
        raise ValueError(
            f"{name} contains NaN at row {int(nan_rows[0])} ({nan_rows.size} "
            "row(s) in all); probabilities must be finite numbers in [0, 1]."
        )
    inf_rows = np.flatnonzero(np.isinf(flat).any(axis=1))
    if inf_rows.size:
        raise ValueError(
            f"{name} contains infinity at row {int(inf_rows[0])} "
            f"({inf_rows.size} row(s) in all); probabilities must be finite "
            "numbers in [0, 1]."
        )
    out = (flat < 0) | (flat > 1)
    out_rows = np.flatnonzero(out.any(axis=1))
    if out_rows.size:
        r = int(out_rows[0])
        value = flat[r][out[r]][0].item()
        raise ValueError(
            f"{name} contains {value!r} at row {r} ({out_rows.size} row(s) in "
            "all); probabilities must lie in [0, 1]. If these are decision scores "
            "or logits, pass predict_proba output (or a softmax of the scores)."
        )


def _warn_rows_not_normalized(n_bad, max_dev, name="y_proba"):
    warnings.warn(
        f"{n_bad} row(s) of {name} do not sum to 1 (largest deviation "
        f"{max_dev:.3g}). The confidence metrics assume each row is a probability "
        "distribution over the classes (Yacouby & Axman 2020, eq. 1); normalise "
        "the rows or check that every class has a column.",
        UserWarning,
        stacklevel=4,
    )


def _row_sum_tolerance(dtype):
    """Tolerance on ``|row sum - 1|``: the square root of the dtype's epsilon."""
    return float(np.sqrt(np.finfo(dtype).eps))


def _check_cluster_labels(groups, n_items):
    """``groups`` as a 1-D array of one finite cluster label per item.

    The one check of ``groups=`` of every room; each room then codes the
    labels, raising :func:`_mixed_cluster_labels` if they cannot be sorted).
    """
    arr = _numbers_as_numbers(np.asarray(groups))
    if arr.ndim != 1 or arr.shape[0] != n_items:
        raise ValueError(
            f"groups must hold one cluster label per item, shape ({n_items},); "
            f"got shape {arr.shape}."
        )
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError("groups contains NaN or infinity; give every item a cluster.")
    return arr


def _mixed_cluster_labels(exc):
    """The error for cluster labels that cannot be sorted (mixed types)."""
    return ValueError(
        f"groups holds labels that cannot be compared ({exc}); use one type, "
        "such as strings or integers."
    )
