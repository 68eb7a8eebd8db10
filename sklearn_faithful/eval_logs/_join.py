"""Per-item score logs of several runs, joined by id.

An evaluation harness writes one record per item (or per sample of an item):
an id, a score and perhaps a cluster. :func:`join_runs` matches the runs'
records on the id, never on their order, and averages an item's repeated
samples; :func:`~sklearn_faithful.eval_logs.compare_runs` takes its table.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np

from ..utils._compat import StrOptions, validate_params
from ..utils._results import _ResultMixin
from ..utils._validation import _is_text, _numbers_as_numbers
from ._options import ON_DUPLICATE, ON_MISSING

# Ids shown as examples in the messages about missing or repeated ids.
_N_EXAMPLES = 3


@dataclass(frozen=True)
class RunTable(_ResultMixin):
    """Item scores of several runs, one row per item: what :func:`join_runs` gives.

    Attributes
    ----------
    names : list of str
        The runs, in the order given.
    ids : ndarray of shape (n_items,)
        The items' ids, sorted: the order of the rows whatever the order of
        the records.
    scores : ndarray of shape (n_items, n_runs)
        Each item's score in each run: the mean of its records (its samples
        or epochs) when it has several.
    n_records : ndarray of shape (n_items, n_runs)
        The records averaged into each score.
    groups : ndarray of shape (n_items,) or None
        Each item's cluster (passage, prompt, video), or None without a
        cluster field.
    n_missing : dict of str to int
        Per run, the ids of the other runs that it lacks (before any drop).
    n_dropped : int
        Items left out because some run lacks them (``on_missing="drop"``).
    n_repeated : dict of str to int
        Per run, the ids with more than one record.

    Notes
    -----
    ``to_dict()`` holds the fields but the arrays, and ``n_items``,
    ``n_clusters`` and ``records_per_item`` (per run, the ``min`` and
    ``max`` records of an item).
    """

    names: list
    ids: np.ndarray = field(repr=False)
    scores: np.ndarray = field(repr=False)
    n_records: np.ndarray = field(repr=False)
    groups: np.ndarray | None = field(repr=False)
    n_missing: dict
    n_dropped: int
    n_repeated: dict

    _not_in_dict = ("ids", "scores", "n_records", "groups")

    @property
    def n_items(self):
        """Items in every run: the rows of ``scores``."""
        return int(self.ids.shape[0])

    @property
    def n_clusters(self):
        """Clusters of the items, or None without groups."""
        return None if self.groups is None else int(np.unique(self.groups).size)

    def _dict_extra(self):
        return {
            "n_items": self.n_items,
            "n_clusters": self.n_clusters,
            "records_per_item": {
                name: {"min": int(col.min()), "max": int(col.max())}
                for name, col in zip(self.names, self.n_records.T, strict=True)
            },
        }

    def summary(self):
        """Describe the join in one plain-text paragraph.

        Returns
        -------
        text : str
            The runs, the items and clusters, the records per item, and the
            ids that were missing or dropped.
        """
        lo, hi = int(self.n_records.min()), int(self.n_records.max())
        per = f"{lo}" if lo == hi else f"{lo}-{hi}"
        runs = "run" if len(self.names) == 1 else "runs"
        text = (
            f"{len(self.names)} {runs} ({', '.join(self.names)}) joined by id: "
            f"{self.n_items} items"
            + ("" if self.groups is None else f" in {self.n_clusters} clusters")
            + f", {per} record(s) per item and run"
        )
        if self.n_dropped:
            lacks = ", ".join(
                f"{name} lacked {count}"
                for name, count in self.n_missing.items()
                if count
            )
            text += (
                f"; {self.n_dropped} ids missing from some run were dropped ({lacks})"
            )
        return text + "."


def _fields_of(log):
    """The field names of a log, for messages: columns, keys or nothing."""
    for attr in ("columns", "column_names"):
        names = getattr(log, attr, None)
        if names is not None:
            return [str(n) for n in names]
    keys = getattr(log, "keys", None)
    return [str(k) for k in keys()] if callable(keys) else []


def _column(log, name, field_name, param):
    """The values of ``field_name`` of run ``name``'s log, as a 1-D array."""
    try:
        values = log[field_name]
    except (KeyError, IndexError, TypeError, ValueError):
        raise ValueError(
            f"logs[{name!r}] has no field {field_name!r} ({param}); its fields are "
            f"{_fields_of(log)}."
        ) from None
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(
            f"logs[{name!r}][{field_name!r}] must be 1-D, one value per record; "
            f"got shape {arr.shape}."
        )
    return _numbers_as_numbers(arr)


def _check_labels(arr, name, field_name, what):
    """Ids and clusters: no missing value, strings or numbers.

    Text is returned as a numpy string array (sorted in C, not as Python
    objects), without white space around each value: a log written with
    ``"q1 "`` means the item ``"q1"``, and a warning says so, as the command
    line reads files.
    """
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(
            f"logs[{name!r}][{field_name!r}] holds {arr[i]} at row {i} (counting "
            f"from 0); every record needs {what}."
        )
    if arr.dtype == object:
        kinds = set(map(type, arr))  # one pass over the records
        if type(None) in kinds or float in kinds:
            i = next(i for i, v in enumerate(arr) if v is None or isinstance(v, float))
            raise ValueError(
                f"logs[{name!r}][{field_name!r}] holds {_show(arr[i])} at row "
                f"{i} (counting from 0); every record needs {what} (a string "
                "or an integer)."
            )
        if kinds == {str}:
            arr = arr.astype(str)
    if arr.dtype.kind == "U":
        stripped = np.char.strip(arr)
        changed = np.flatnonzero(stripped != arr)
        if changed.size:
            i = int(changed[0])
            warnings.warn(
                f"logs[{name!r}][{field_name!r}] holds {_show(arr[i])} at row {i} "
                f"(counting from 0), with white space around it; read as "
                f"{_show(stripped[i])} ({changed.size} value(s) changed).",
                UserWarning,
                stacklevel=5,
            )
            arr = stripped
    return arr


def _check_scores(arr, ids, name, field_name):
    """Scores as floats: numbers or booleans (1 for True), all finite."""
    if arr.dtype.kind == "b":
        return arr.astype(np.float64)
    if arr.dtype.kind not in "iuf":
        i = (
            0
            if arr.size == 0
            else next(
                (i for i, v in enumerate(arr) if not isinstance(v, (int, float))), 0
            )
        )
        example = f" ({_show(arr[i])} for id {_show(ids[i])})" if arr.size else ""
        raise ValueError(
            f"logs[{name!r}][{field_name!r}] holds {arr.dtype} values{example}, "
            "not scores; give numbers (0/1 for right/wrong, a rating, a per-item "
            "metric) or booleans."
        )
    scores = arr.astype(np.float64)
    bad = ~np.isfinite(scores)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"logs[{name!r}][{field_name!r}] holds {scores[i]} for id {_show(ids[i])} "
            f"({int(bad.sum())} record(s) not finite); score every record, or "
            "leave the record out."
        )
    return scores


def _show(value):
    """``repr`` of a value as the user wrote it: ``2``, not ``np.int64(2)``."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _examples(values, counts=None):
    shown = [
        _show(v) + ("" if counts is None else f" x{int(c)}")
        for v, c in zip(
            values[:_N_EXAMPLES],
            [None] * _N_EXAMPLES if counts is None else counts[:_N_EXAMPLES],
            strict=False,
        )
    ]
    return ", ".join(shown) + (", ..." if len(values) > _N_EXAMPLES else "")


class _Run:
    """One run's records: its ids, each record's item and the item scores."""

    def __init__(self, name, log, id_field, score_field, groups_field):
        self.name = name
        ids = _check_labels(
            _column(log, name, id_field, "id_field"), name, id_field, "an id"
        )
        if ids.shape[0] == 0:
            raise ValueError(f"logs[{name!r}] holds no record; it needs one per item.")
        scores = _check_scores(
            _column(log, name, score_field, "score_field"), ids, name, score_field
        )
        if scores.shape[0] != ids.shape[0]:
            raise ValueError(
                f"logs[{name!r}] has {ids.shape[0]} ids but {scores.shape[0]} scores."
            )
        self.groups = None
        if groups_field is not None:
            self.groups = _check_labels(
                _column(log, name, groups_field, "groups_field"),
                name,
                groups_field,
                "a cluster",
            )
        try:
            self.ids, self.record_item, self.counts = np.unique(
                ids, return_inverse=True, return_counts=True
            )
        except TypeError as exc:  # mixed types cannot be sorted
            raise ValueError(
                f"logs[{name!r}][{id_field!r}] holds ids that cannot be compared "
                f"({exc}); use one type, strings or integers."
            ) from None
        self.record_item = self.record_item.ravel()
        self.scores = scores

    def repeated(self):
        many = self.counts > 1
        return self.ids[many], self.counts[many]


def _check_id_kinds(runs, id_field):
    kinds = {run.name: _is_text(run.ids) for run in runs}
    if len(set(kinds.values())) > 1:
        text = [n for n, k in kinds.items() if k]
        numbers = [n for n, k in kinds.items() if not k]
        raise ValueError(
            f"the {id_field!r} ids are strings in {text} but numbers in {numbers}; "
            "ids match only when they are of one kind (write them all as strings "
            "or all as integers)."
        )


def _missing_error(runs, union, present, id_field):
    parts = []
    for run, has in zip(runs, present.T, strict=True):
        lacks = union[~has]
        if lacks.size:
            parts.append(f"{run.name!r} lacks {lacks.size} (e.g. {_examples(lacks)})")
    n_common = int(present.all(axis=1).sum())
    return ValueError(
        f"{int((~present.all(axis=1)).sum())} of {union.size} {id_field!r} ids are "
        f"not in every run: " + "; ".join(parts) + f". {n_common} ids are in every "
        f"run. Pass on_missing='drop' to compare those {n_common}, or fix the logs."
    )


def _item_groups(runs, union, keep, groups_field):
    """Each kept item's cluster; an item must have one cluster in every record."""
    labels = np.concatenate([run.groups for run in runs])
    try:
        names, codes = np.unique(labels, return_inverse=True)
    except TypeError as exc:
        raise ValueError(
            f"the {groups_field!r} clusters cannot be compared ({exc}); use one "
            "type, strings or integers."
        ) from None
    codes = codes.ravel()
    item_code = np.full(union.size, -1)
    start = 0
    for run in runs:
        n = run.groups.shape[0]
        part, start = codes[start : start + n], start + n
        items = run.item_of_record
        first = item_code[items] < 0
        item_code[items[first]] = part[first]
        clash = item_code[items] != part
        if clash.any():
            i = int(np.flatnonzero(clash)[0])
            raise ValueError(
                f"id {_show(union[items[i]])} is in the clusters "
                f"{_show(names[item_code[items[i]]])} and {_show(names[part[i]])} "
                f"(groups_field={groups_field!r}, logs[{run.name!r}]); an item "
                "belongs to one cluster in every record and run."
            )
    return names[item_code[keep]]


@validate_params(
    {
        "logs": [dict],
        "id_field": [str],
        "score_field": [str],
        "groups_field": [str, None],
        "on_missing": [StrOptions(set(ON_MISSING))],
        "on_duplicate": [StrOptions(set(ON_DUPLICATE))],
    },
    prefer_skip_nested_validation=True,
)
def join_runs(
    logs,
    *,
    id_field="id",
    score_field="score",
    groups_field=None,
    on_missing="error",
    on_duplicate="error",
):
    """Join per-item score logs of several runs on the items' ids.

    Records are matched by id, never by their order: the same logs in any
    order give the same table. Ids that some run lacks, and ids with
    several records in one run, stop the join with a message that counts
    them and shows examples, unless ``on_missing`` and ``on_duplicate`` say
    how to treat them.

    Parameters
    ----------
    logs : dict of str to table
        Each run's records, by run name: a pandas or polars DataFrame, a
        pyarrow Table or a dict of 1-D arrays, with one row per record (an
        item, or one sample of an item). Read files with, e.g.,
        ``pandas.read_json(path, lines=True)``, ``pandas.read_csv`` or
        ``pandas.read_parquet``; the command line's ``eval-logs`` reads them
        for you.
    id_field : str, default="id"
        The field of the item's id (strings or integers, the same kind in
        every run).
    score_field : str, default="score"
        The field of the score: numbers (0/1 for right or wrong, a judge's
        rating, a per-item metric) or booleans (True is 1).
    groups_field : str, default=None
        The field of the item's cluster (passage, prompt, video): the
        comparisons then resample whole clusters. Every record of an item
        must name the same cluster.
    on_missing : {"error", "drop"}, default="error"
        Ids that some run lacks: ``"error"`` stops with their counts,
        ``"drop"`` compares the ids every run has (and counts the rest in
        ``n_dropped``).
    on_duplicate : {"error", "repeats"}, default="error"
        Several records of one id in one run: ``"error"`` stops with their
        counts; ``"repeats"`` takes them for repeated samples (epochs,
        seeds) of the item and averages them, so the item stays the unit of
        resampling and the samples are nested within it.

    Returns
    -------
    table : RunTable
        The item scores, one row per id (sorted) and one column per run.

    Raises
    ------
    ValueError
        A log lacks a field, holds a missing or non-numeric score, or ids
        are missing or repeated without a policy.

    See Also
    --------
    compare_runs : Compare the runs of the table.

    Examples
    --------
    >>> from sklearn_faithful.eval_logs import join_runs
    >>> a = {"id": ["q1", "q2", "q3"], "score": [1, 0, 1]}
    >>> b = {"id": ["q3", "q1", "q2"], "score": [1, 1, 1]}
    >>> table = join_runs({"A": a, "B": b})
    >>> table.ids.tolist(), table.scores[:, 1].tolist()
    (['q1', 'q2', 'q3'], [1.0, 1.0, 1.0])
    """
    if len(logs) < 1:
        raise ValueError("logs is empty; give at least one run's records.")
    runs = []
    for name, log in logs.items():  # a loop, not a comprehension: stacklevel
        runs.append(_Run(str(name), log, id_field, score_field, groups_field))
    _check_id_kinds(runs, id_field)
    n_repeated = {}
    for run in runs:
        ids, counts = run.repeated()
        n_repeated[run.name] = int(ids.size)
        if ids.size and on_duplicate == "error":
            raise ValueError(
                f"logs[{run.name!r}] has {ids.size} {id_field!r} ids with several "
                f"records (e.g. {_examples(ids, counts)}). Pass "
                "on_duplicate='repeats' if they are repeated samples of the item "
                "(epochs, seeds), averaged within the item, or remove the "
                "duplicates."
            )
    # every id of any run, sorted: each run's ids are sorted and distinct, so
    # one sort of their concatenation and a mask of the first of equal ids
    union = np.sort(np.concatenate([run.ids for run in runs]))
    union = union[np.concatenate([[True], union[1:] != union[:-1]])]
    present = np.zeros((union.size, len(runs)), dtype=bool)
    for j, run in enumerate(runs):
        run.item_index = np.searchsorted(union, run.ids)
        run.item_of_record = run.item_index[run.record_item]
        present[run.item_index, j] = True
    n_missing = {
        run.name: int((~has).sum()) for run, has in zip(runs, present.T, strict=True)
    }
    keep = present.all(axis=1)
    if not keep.all() and on_missing == "error":
        raise _missing_error(runs, union, present, id_field)
    if not keep.any():
        raise ValueError(
            f"no {id_field!r} id is in every run; the runs share no item to compare."
        )
    rows = np.cumsum(keep) - 1  # the row of each kept id
    scores = np.zeros((int(keep.sum()), len(runs)))
    n_records = np.zeros(scores.shape, dtype=np.int64)
    for j, run in enumerate(runs):
        # the records in the order of their scores, so that the sums of an
        # item's samples, and so their mean to the last bit, do not depend on
        # the order of the records
        order = np.argsort(run.scores, kind="stable")
        order = order[keep[run.item_of_record[order]]]
        row = rows[run.item_of_record[order]]
        scores[:, j] = np.bincount(
            row, weights=run.scores[order], minlength=scores.shape[0]
        )
        n_records[:, j] = np.bincount(row, minlength=scores.shape[0])
    scores /= n_records  # an item's score: the mean of its samples
    groups = None
    if groups_field is not None:
        groups = _item_groups(runs, union, keep, groups_field)
    return RunTable(
        names=[run.name for run in runs],
        ids=union[keep],
        scores=scores,
        n_records=n_records,
        groups=groups,
        n_missing=n_missing,
        n_dropped=int((~keep).sum()),
        n_repeated=n_repeated,
    )
