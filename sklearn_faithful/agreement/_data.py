"""Reliability data: the coders x units matrix, checked and encoded once.

Krippendorff's orientation: one row per coder (annotator, rater), one column
per unit (item), a missing value where a coder did not code a unit. Every
coefficient of the room works on the value counts ``n[u, c]`` (how many
coders gave unit ``u`` the value ``c``), which this module builds.
"""

import numbers
import warnings

import numpy as np

from ..utils._param_validation import validate_params


def _is_missing(value):
    """None, a float NaN (numpy's too) or pandas' NA: a value not coded."""
    if value is None:
        return True
    if isinstance(value, float | np.floating):
        return bool(np.isnan(value))
    # pandas.NA and pandas.NaT without importing pandas
    return type(value).__name__ in {"NAType", "NaTType"}


def _as_matrix(reliability_data, name):
    data = np.asarray(reliability_data)
    if data.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, one row per coder and one column per unit; got "
            f"an array of shape {data.shape}."
        )
    if data.shape[0] < 2 or data.shape[1] < 1:
        raise ValueError(
            f"{name} has shape {data.shape}: agreement needs at least 2 coders "
            "(rows) and 1 unit (column). Units in rows? Pass the transpose "
            "(reliability_data.T)."
        )
    return data


class LayoutWarning(UserWarning):
    """Reliability data that look like a units x coders matrix (transposed)."""


def _is_frame(data):
    """A pandas DataFrame, without importing pandas."""
    return hasattr(data, "columns") and hasattr(data, "index") and data.ndim == 2


def _integer_labels(labels):
    """Whether every label is an integer (0, 1, ... or '17'), as unit ids are."""
    try:
        return all(float(v) == int(float(v)) for v in labels)
    except (TypeError, ValueError, OverflowError):
        return False


def _warn_if_transposed(reliability_data, data, name, stacklevel):
    """Warn when the rows look like units: more coders than units, or a
    DataFrame whose row labels are integers (unit ids) and whose column
    labels are not (coder names)."""
    n_coders, n_units = data.shape
    why = None
    if n_coders > n_units:
        why = f"more coders ({n_coders} rows) than units ({n_units} columns)"
    elif (
        _is_frame(reliability_data)
        and _integer_labels(reliability_data.index)
        and not _integer_labels(reliability_data.columns)
    ):
        why = (
            f"its rows are labelled {list(reliability_data.index[:3])!r}... as unit "
            f"ids are, its columns {list(reliability_data.columns[:3])!r}... as "
            "coders are"
        )
    if why is not None:
        warnings.warn(
            f"{name} has {why}: it looks like a units x coders matrix, the layout "
            "of statsmodels and irrCAC, where this package takes one row per "
            f"coder. If its rows are units, pass {name}.T; if they are coders, "
            "name them with coder_names (or ignore this warning).",
            LayoutWarning,
            stacklevel=stacklevel + 1,
        )


def check_coder_names(coder_names, reliability_data, n_coders):
    """The coders' names: ``coder_names``, else a DataFrame's row labels,
    else "coder 0", "coder 1", ...; one per row, each once, none missing."""
    if coder_names is None:
        if _is_frame(reliability_data) and not _integer_labels(reliability_data.index):
            coder_names = list(reliability_data.index)
        else:
            return [f"coder {i}" for i in range(n_coders)]
    given = list(coder_names)
    if len(given) != n_coders:
        raise ValueError(
            f"coder_names has {len(given)} names; reliability_data has {n_coders} "
            "coders (rows)."
        )
    missing = [i for i, c in enumerate(given) if _is_missing(c)]
    if missing:
        raise ValueError(
            f"coder_names[{missing[0]}] is {given[missing[0]]!r}, a missing value; "
            "give every coder a name."
        )
    names = [str(c) for c in given]
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice:
        raise ValueError(
            f"coder_names names {twice[0]!r} twice (rows "
            f"{[i for i, c in enumerate(names) if c == twice[0]]}); each coder is one "
            "row: merge their rows, or give each a name of its own."
        )
    return names


def _missing_mask(data):
    kind = data.dtype.kind
    if kind == "f":
        if np.isinf(data).any():
            raise ValueError(
                "reliability_data holds infinity; give finite values, with NaN "
                "where a value is missing."
            )
        return np.isnan(data)
    if kind == "O":
        return np.frompyfunc(_is_missing, 1, 1)(data).astype(bool)
    if kind == "c":
        raise ValueError("reliability_data holds complex numbers; give real values.")
    return np.zeros(data.shape, dtype=bool)


def _numeric_domain(domain):
    return domain.dtype.kind in "iuf"


def _encode(data, missing, value_domain, name):
    """(codes, domain): each value's index in the sorted domain, -1 if missing."""
    present = data[~missing]
    if present.dtype == object:
        kinds = {
            "number"
            if isinstance(v, numbers.Number) and not isinstance(v, bool)
            else type(v).__name__
            for v in present
        }
        if len(kinds) > 1:
            raise ValueError(
                f"{name} mixes values of types {sorted(kinds)}; give one type (all "
                "numbers or all strings), with None or NaN where a value is missing."
            )
        present = np.array(present.tolist())
    if value_domain is None:
        domain, inverse = np.unique(present, return_inverse=True)
    else:
        domain = np.asarray(value_domain)
        if domain.ndim != 1 or domain.size < 2:
            raise ValueError(
                f"value_domain must be a 1-D sequence of at least 2 values; got "
                f"{value_domain!r}."
            )
        order = np.argsort(domain, kind="stable")
        if np.unique(domain).size != domain.size:
            raise ValueError(f"value_domain holds a value twice: {value_domain!r}.")
        try:
            pos = np.searchsorted(domain, present, sorter=order)
        except TypeError as exc:
            raise ValueError(
                f"{name} and value_domain hold values of different types: {exc}."
            ) from None
        pos = np.minimum(pos, domain.size - 1)
        inverse = order[pos]
        outside = domain[inverse] != present
        if np.any(outside):
            raise ValueError(
                f"{name} holds values outside value_domain: "
                f"{np.unique(present[outside])[:5].tolist()!r}; value_domain is "
                f"{domain.tolist()!r}."
            )
    codes = np.full(data.shape, -1, dtype=np.intp)
    codes[~missing] = inverse.reshape(-1)
    return codes, domain


def check_reliability_data(
    reliability_data,
    value_domain=None,
    *,
    level_of_measurement="nominal",
    name="reliability_data",
    coder_names=None,
    stacklevel=1,
):
    """Check and encode reliability data once, for every coefficient.

    Without ``coder_names``, rows that look like units are a
    :class:`LayoutWarning` (``stacklevel`` counts from the caller).

    Returns
    -------
    codes : ndarray of shape (n_coders, n_units)
        The index of each value in ``domain``; -1 where missing.
    domain : ndarray of shape (n_values,)
        The values, in order: ``value_domain`` as given (its order is the
        order of an ordinal scale), or the sorted values seen.
    """
    data = _as_matrix(reliability_data, name)
    if coder_names is None:
        _warn_if_transposed(reliability_data, data, name, stacklevel)
    if data.dtype.kind == "b" and level_of_measurement in ("interval", "ratio"):
        raise ValueError(
            f"{name} holds booleans, which have no {level_of_measurement} scale; "
            "give numbers, or use level_of_measurement='nominal'."
        )
    missing = _missing_mask(data)
    if missing.all():
        raise ValueError(f"{name} holds no value: every entry is missing.")
    codes, domain = _encode(data, missing, value_domain, name)
    if level_of_measurement in ("interval", "ratio") or callable(level_of_measurement):
        if not _numeric_domain(domain) and not callable(level_of_measurement):
            raise ValueError(
                f"level_of_measurement={level_of_measurement!r} needs numbers; "
                f"{name} holds {domain[:5].tolist()!r}. Map the values to numbers "
                "first, or use 'nominal' or 'ordinal' (with value_domain giving the "
                "order)."
            )
    if level_of_measurement == "ratio" and np.any(domain.astype(float) < 0):
        negative = domain[domain.astype(float) < 0][:5].tolist()
        raise ValueError(
            "level_of_measurement='ratio' needs values >= 0 (a ratio scale has a "
            f"true zero); {name} holds {negative!r}."
        )
    if (
        level_of_measurement == "ordinal"
        and value_domain is None
        and not _numeric_domain(domain)
    ):
        raise ValueError(
            f"level_of_measurement='ordinal' with {name} of strings needs "
            "value_domain, the values in their order (e.g. ['low', 'mid', "
            f"'high']); the values seen are {domain[:5].tolist()!r}."
        )
    if not np.any(np.count_nonzero(codes >= 0, axis=0) >= 2):
        raise ValueError(
            f"no unit of {name} has values from 2 coders: agreement is undefined. "
            "Units in rows? Pass the transpose (reliability_data.T)."
        )
    return codes, domain


def value_counts(codes, n_values):
    """``n[u, c]``, how many coders gave unit ``u`` the value ``c``.

    One bincount of the (unit, value) codes; shape (n_units, n_values).
    """
    n_units = codes.shape[1]
    units = np.broadcast_to(np.arange(n_units), codes.shape)
    kept = codes >= 0
    cells = units[kept] * n_values + codes[kept]
    return np.bincount(cells, minlength=n_units * n_values).reshape(n_units, n_values)


@validate_params(
    {"units": ["array-like"], "coders": ["array-like"], "values": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def reliability_data_from_long(units, coders, values):
    """Reliability data from the long format: one row per unit, coder and value.

    Annotation tools export one record per judgement; the coefficients of
    this room take the coders x units matrix. Units and coders may be any
    labels; a coder who did not code a unit leaves a missing value.

    Parameters
    ----------
    units : array-like of shape (n_records,)
        The unit (item) of each record.
    coders : array-like of shape (n_records,)
        The coder (annotator) of each record.
    values : array-like of shape (n_records,)
        The value the coder gave the unit.

    Returns
    -------
    reliability_data : ndarray of shape (n_coders, n_units)
        Floats with NaN where missing when the values are numbers, otherwise
        objects with None where missing. Rows follow ``coder_labels``, columns
        ``unit_labels``.
    unit_labels : ndarray of shape (n_units,)
        The units, sorted.
    coder_labels : ndarray of shape (n_coders,)
        The coders, sorted.

    Examples
    --------
    >>> from sklearn_faithful.agreement import reliability_data_from_long
    >>> data, units, coders = reliability_data_from_long(
    ...     ["u1", "u1", "u2", "u2", "u3"],
    ...     ["ann", "bob", "ann", "bob", "ann"],
    ...     [1, 1, 2, 3, 1],
    ... )
    >>> data
    array([[ 1.,  2.,  1.],
           [ 1.,  3., nan]])
    >>> coders.tolist(), units.tolist()
    (['ann', 'bob'], ['u1', 'u2', 'u3'])
    """
    arrays = [np.asarray(a) for a in (units, coders, values)]
    for name, a in zip(("units", "coders", "values"), arrays, strict=True):
        if a.ndim != 1:
            raise ValueError(f"{name} must be 1-D; got shape {a.shape}.")
    sizes = {a.shape[0] for a in arrays}
    if len(sizes) > 1:
        raise ValueError(
            "units, coders and values must have one entry per record; got lengths "
            f"{[a.shape[0] for a in arrays]}."
        )
    units, coders, values = arrays
    for name, ids in (("units", units), ("coders", coders)):
        if ids.dtype.kind in "fO":
            missing = np.flatnonzero(np.frompyfunc(_is_missing, 1, 1)(ids).astype(bool))
        else:
            missing = np.array([], dtype=int)
        if missing.size:
            raise ValueError(
                f"{name}[{missing[0]}] is {ids.tolist()[missing[0]]!r}, a missing id "
                f"({missing.size} record(s) have one); every record needs its "
                f"{name[:-1]}."
            )
    unit_labels, u = np.unique(units, return_inverse=True)
    coder_labels, c = np.unique(coders, return_inverse=True)
    cell = c.ravel() * unit_labels.size + u.ravel()
    seen = np.bincount(cell, minlength=coder_labels.size * unit_labels.size)
    if np.any(seen > 1):
        first = int(np.flatnonzero(seen > 1)[0])
        where = np.flatnonzero(cell == first)
        coder = coder_labels.tolist()[first // unit_labels.size]
        unit = unit_labels.tolist()[first % unit_labels.size]
        raise ValueError(
            f"coder {coder!r} coded unit {unit!r} {where.size} times (records "
            f"{where[:5].tolist()}); each coder gives a unit one value. "
            f"{int(np.count_nonzero(seen > 1))} (unit, coder) pairs repeat."
        )
    shape = (coder_labels.size, unit_labels.size)
    if values.dtype.kind in "iuf":
        data = np.full(shape, np.nan)
    else:
        data = np.full(shape, None, dtype=object)
    data.reshape(-1)[cell] = values
    return data, unit_labels, coder_labels
