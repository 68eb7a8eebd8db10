"""Per-item score logs of several runs, joined by id.

An evaluation harness writes one record per item (or per sample of an item):
an id, a score and perhaps a cluster. :func:`join_runs` matches the runs'
records on the id, never on their order, and averages an item's repeated
samples; :func:`~sklearn_faithful.eval_logs.compare_runs` takes its table.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np

from ..utils._param_validation import StrOptions, validate_params
from ..utils._results import _ResultMixin
from ..utils._scaling import rescaled
from ..utils._validation import _numbers_as_numbers
from ._options import ON_DUPLICATE, ON_MISSING

# Ids shown as examples in the messages about missing or repeated ids.
_N_EXAMPLES = 3
# Ids compared at a time when the runs' ids are merged
_BLOCK = 2**18
# The bytes of an integer key of text ids (_encoded)
_KEY_BYTES = 8


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
    tasks : ndarray of shape (n_items,) or None
        Each item's task (``task_field`` of :func:`join_runs`), or None
        without a task field. With tasks an item is a (task, id) pair: the
        rows are sorted by task, then id, and one id may be in several tasks.

    Notes
    -----
    ``to_dict()`` holds the fields but the arrays, and ``n_items``,
    ``n_clusters``, ``n_tasks`` (None without tasks) and
    ``records_per_item`` (per run, the ``min`` and ``max`` records of an
    item).
    """

    names: list
    ids: np.ndarray = field(repr=False)
    scores: np.ndarray = field(repr=False)
    n_records: np.ndarray = field(repr=False)
    groups: np.ndarray | None = field(repr=False)
    n_missing: dict
    n_dropped: int
    n_repeated: dict
    tasks: np.ndarray | None = field(default=None, repr=False)

    _not_in_dict = ("ids", "scores", "n_records", "groups", "tasks")

    @property
    def n_items(self):
        """Items in every run: the rows of ``scores``."""
        return int(self.ids.shape[0])

    @property
    def n_clusters(self):
        """Clusters of the items, or None without groups."""
        return None if self.groups is None else int(np.unique(self.groups).size)

    @property
    def n_tasks(self):
        """Tasks of the items, or None without tasks."""
        return None if self.tasks is None else int(np.unique(self.tasks).size)

    def _dict_extra(self):
        return {
            "n_items": self.n_items,
            "n_clusters": self.n_clusters,
            "n_tasks": self.n_tasks,
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
            + ("" if self.tasks is None else f" of {self.n_tasks} tasks")
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
    # an Arrow table's ``columns`` are its arrays, its names ``column_names``
    for attr in ("column_names", "columns"):
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
        stripped, changed = _text_stripped(arr)
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


def _text_stripped(arr):
    """A 1-D numpy str array without white space around each value (as
    ``str.strip``), and the rows that changed; ``arr`` itself when none did.

    Only the values that start or end with white space are stripped: no
    copy of the array is made for a log without any.
    """
    n = arr.shape[0]
    if n == 0 or arr.itemsize == 0:
        return arr, np.empty(0, dtype=np.intp)
    chars = arr.view(np.uint32).reshape(n, -1)
    last = np.maximum(np.char.str_len(arr) - 1, 0)
    edges = np.stack([chars[:, 0], chars[np.arange(n), last]]).view(
        f"{arr.dtype.byteorder}U1"
    )
    changed = np.flatnonzero(np.char.isspace(edges).any(axis=0))
    if changed.size == 0:
        return arr, changed
    out = arr.copy()
    out[changed] = np.char.strip(arr[changed])
    return out, changed


def _ascii_bytes(arr):
    """A numpy str array of ASCII text as bytes (``S``), one per character,
    which sort in the same order a quarter as wide; None for other arrays."""
    if arr.dtype.kind != "U" or arr.itemsize == 0:
        return None
    codes = arr.view(np.uint32)
    if (codes >= 128).any():
        return None
    return codes.astype(np.uint8).view(f"S{arr.itemsize // 4}")


def _ascii_text(arr):
    """The numpy str array of the bytes made by :func:`_ascii_bytes`."""
    arr = np.ascontiguousarray(arr)
    return arr.view(np.uint8).astype(np.uint32).view(f"U{arr.itemsize}")


def _encoded(runs):
    """Every run's ids in a form that sorts and compares as they do, and the
    function that gives such ids back as the join returns them (None: they
    are as they are).

    ASCII text ids are bytes (:func:`_ascii_bytes`), a quarter as wide; when
    what follows the prefix that every id shares fits in 8 bytes
    (``gsm8k-0959233``), they are unsigned integers of the same order (those
    bytes, big-endian, padded with NUL as numpy pads text), which sort
    several times faster.
    """
    narrow = [
        run.ids if run.ids.dtype.kind == "S" else _ascii_bytes(run.ids) for run in runs
    ]
    if any(n is None for n in narrow):
        _widened(runs)
        return None
    width = max(n.itemsize for n in narrow)
    chars = [
        n.astype(f"S{width}", copy=False).view(np.uint8).reshape(-1, width)
        for n in narrow
    ]
    same = np.ones(width, dtype=bool)
    for c in chars:
        same &= (c == chars[0][0]).all(axis=0)
    cut = width if same.all() else int(np.argmin(same))
    if width - cut > _KEY_BYTES:
        for run, ids in zip(runs, narrow, strict=True):
            run.ids = ids
        return _ascii_text
    prefix = chars[0][0, :cut].copy()
    for run, c in zip(runs, chars, strict=True):
        key = np.zeros((c.shape[0], _KEY_BYTES), dtype=np.uint8)
        key[:, : width - cut] = c[:, cut:]
        run.ids = key.view(">u8").ravel().astype(np.uint64)

    def decode(keys):
        keys = np.asarray(keys, dtype=">u8").reshape(-1)
        text = np.empty((keys.shape[0], width), dtype=np.uint8)
        text[:, :cut] = prefix
        text[:, cut:] = keys.view(np.uint8).reshape(-1, _KEY_BYTES)[:, : width - cut]
        return _ascii_text(text.view(f"S{width}").ravel())

    return decode


def _widened(runs):
    """Every run's ids as numpy str where :class:`_Run` made them bytes."""
    for run in runs:
        if run.ids.dtype.kind == "S":
            run.ids = _ascii_text(run.ids)


def _check_scores(arr, ids, name, field_name):
    """Scores as floats under the rule of :func:`_score_values`, all finite."""
    scores, bad = _score_values(arr)
    if bad < 0 and np.isnan(scores).any():
        bad = int(np.flatnonzero(np.isnan(scores))[0])
    if bad >= 0:
        raise ValueError(
            f"logs[{name!r}][{field_name!r}] holds {_show(arr[bad])} for id "
            f"{_show(ids[bad])} (row {bad}, counting from 0), not a score; give "
            "a finite number (0/1 for right/wrong, a rating, a per-item metric), "
            "a boolean, or the text of one, for every record (map text scores "
            "such as 'C' and 'I' to numbers first)."
        )
    return scores


def _show(value):
    """``repr`` of a value as the user wrote it: ``2``, not ``np.int64(2)``."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _as_written(value):
    """A record's value as a JSON file writes it, the text every rule of the
    join compares: a string itself, an integer its digits (``1`` and ``"1"``
    are one value), a float its shortest repr (``1.0``, not ``1``), a
    boolean ``true`` or ``false``; None for a missing value (None, NaN) and
    for a list or an object, which name no item or condition."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return None if value != value else repr(value)
    return None


def _texts(arr):
    """``_as_written`` of each value of a 1-D array, as an object array."""
    if arr.dtype.kind in "iuU":
        return arr.astype(str).astype(object)
    return np.array([_as_written(v) for v in arr.tolist()], dtype=object)


def _labels_as_written(columns):
    """Ids (or clusters) of several runs under one rule: an id is its text as
    written, so the integer 7 and the string ``"7"`` are one item and
    ``"07"`` another.

    Ids come back as integers when every one of every run is an integer or
    the text of one (``"7"``, not ``"07"`` or ``"7.0"``), else as strings;
    the command line reads its files through this rule, so a CSV (whose
    cells have no kind) and a JSON log of one run give one table. Numeric
    arrays (integers, or floats) are kept as they are.
    """
    if all(c.dtype.kind in "iuf" for c in columns):
        return columns
    if any(c.dtype.kind == "U" and not _may_be_integers(c) for c in columns):
        # some text is no integer's: every id is text, without a Python
        # string per value where it is text already
        return [c if c.dtype.kind == "U" else _as_text(_texts(c)) for c in columns]
    texts = [_texts(c) for c in columns]
    joined = np.concatenate(texts) if texts else np.array([], dtype=object)
    if all(t is not None for t in joined):
        try:
            ints = np.array([int(t) for t in joined], dtype=object)
        except ValueError:
            ints = None
        if ints is not None and all(
            str(i) == t for i, t in zip(ints.tolist(), joined, strict=True)
        ):
            try:
                ints = ints.astype(np.int64)
            except OverflowError:
                pass
            out, start = [], 0
            for t in texts:
                out.append(ints[start : start + t.size])
                start += t.size
            return out
    return [_as_text(t) for t in texts]


def _as_text(texts):
    """An object array of ``_as_written`` texts as a numpy str array, or as
    it is when some value is None (no id)."""
    return texts.astype(str) if all(v is not None for v in texts) else texts


def _may_be_integers(arr):
    """Whether every value of a numpy str (or ASCII bytes) array could be an integer's
    digits: each starts with a digit or a minus sign (a cheap look at the
    first characters; ``_labels_as_written`` checks the rest)."""
    if arr.size == 0:
        return True
    width = np.uint8 if arr.dtype.kind == "S" else np.uint32
    first = arr.view(width).reshape(arr.shape[0], -1)[:, 0]
    return bool(
        (((first >= ord("0")) & (first <= ord("9"))) | (first == ord("-"))).all()
    )


_TRUTH = {"true": 1.0, "false": 0.0}


def _score_values(values, score_map=None):
    """Scores as floats under the one rule of the join and the command line,
    and the index of the first value that is none (or -1).

    A score is a number, a boolean (true is 1), or the text of one
    (``"0.5"``, ``"1"``, ``"true"``; a CSV cell has no other form); text of
    ``score_map`` is read as its number first (inspect_ai's ``C``, ``I``).
    None and NaN are NaN (missing); other text, an infinite value, a list
    or an object are not scores.
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "biufU" and not (score_map and arr.dtype.kind == "U"):
        try:
            out = arr.astype(np.float64, copy=False)  # read only: no copy
        except ValueError:  # text that numpy does not parse: one by one
            pass
        else:
            bad = np.isinf(out) | (np.isnan(out) & (arr.dtype.kind == "U"))
            return out, int(np.flatnonzero(bad)[0]) if bad.any() else -1
    out = np.full(arr.shape[0], np.nan)  # NaN from the first value that is none
    for i, v in enumerate(arr.tolist()):
        if v is None or (isinstance(v, float) and v != v):
            out[i] = np.nan
            continue
        if score_map and isinstance(v, str) and v in score_map:
            number = float(score_map[v])
        elif isinstance(v, str):
            number = _TRUTH.get(v.strip().lower())
            if number is None:
                try:
                    number = float(v)
                except ValueError:
                    return out, i
            if np.isnan(number):
                return out, i
        elif isinstance(v, (bool, int, float)):
            number = float(v)
        else:
            return out, i
        if np.isinf(number):
            return out, i
        out[i] = number
    return out, -1


def _where_mask(columns, where, name, place=None):
    """The records that ``where`` keeps: each field's value, as written
    (:func:`_as_written`), equals the one asked for.

    ``columns`` maps each field of ``where`` to its values in the run
    ``name``; a record that lacks a field, or a filter that keeps no record,
    is an error naming the run, the field and the values seen; ``place(i)``
    says where record ``i`` is (by default its row, counting from 0).
    """
    keep = None
    place = place or (lambda i: f"row {i}, counting from 0")
    for field_name, wanted in where.items():
        texts = _texts(np.asarray(columns[field_name], dtype=object))
        absent = np.equal(texts, None)

        if absent.all():
            raise ValueError(
                f"logs[{name!r}]: no record holds {field_name!r}, which "
                f"where={{{field_name!r}: {wanted!r}}} reads; check the field's "
                "name (a key, or a dotted path into nested objects)."
            )
        if absent.any():
            i = int(np.argmax(absent))
            raise ValueError(
                f"logs[{name!r}] has a record without {field_name!r} ({place(i)}) "
                f"for where={{{field_name!r}: {wanted!r}}}; the "
                f"values seen are {_examples(_seen(texts))}. Every record needs the "
                "field a filter reads (a string, a number or a boolean)."
            )
        hit = texts == _as_written(wanted)
        keep = hit if keep is None else keep & hit
        if not keep.any():
            raise ValueError(
                f"logs[{name!r}]: where={{{field_name!r}: {wanted!r}}} keeps no "
                f"record; the values of {field_name!r} are {_examples(_seen(texts))} "
                "(values match as written: 1 matches 1 and '1', not 1.0; true "
                "matches true)."
            )
    return keep


def _seen(texts):
    """The distinct values written in ``texts`` (None absent), for messages."""
    return list(dict.fromkeys(t for t in texts.tolist() if t is not None))


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
    """One run's records: its ids, each record's item and the item scores.

    ``where`` keeps the records it selects before anything else is read, so
    that the records it drops are never checked. :meth:`others` reads, for
    the check of repeated records, the fields that name no id, score, cluster
    or sample.
    """

    def __init__(self, name, log, fields, where):
        self.name = name
        id_field, score_field, groups_field, sample_field, task_field = fields
        keep = None
        if where:
            columns = {f: _column(log, name, f, "where") for f in where}
            keep = _where_mask(columns, where, name)

        def read(field_name, param):
            values = _column(log, name, field_name, param)
            return values if keep is None else values[keep]

        self.ids = _check_labels(read(id_field, "id_field"), name, id_field, "an id")
        if self.ids.shape[0] == 0:
            raise ValueError(f"logs[{name!r}] holds no record; it needs one per item.")
        self.scores = _check_scores(
            read(score_field, "score_field"), self.ids, name, score_field
        )
        if self.scores.shape[0] != self.ids.shape[0]:
            raise ValueError(
                f"logs[{name!r}] has {self.ids.shape[0]} ids but "
                f"{self.scores.shape[0]} scores."
            )
        narrow = _ascii_bytes(self.ids)  # a quarter as wide, see _encoded
        self.ids = self.ids if narrow is None else narrow
        self.groups = None
        if groups_field is not None:
            self.groups = _check_labels(
                read(groups_field, "groups_field"), name, groups_field, "a cluster"
            )
        self.tasks = None
        if task_field is not None:
            self.tasks = _check_labels(
                read(task_field, "task_field"), name, task_field, "a task"
            )
        self.sample = None
        if sample_field is not None:
            self.sample = _texts(read(sample_field, "sample_field"))
            if any(t is None for t in self.sample):
                i = next(i for i, t in enumerate(self.sample) if t is None)
                raise ValueError(
                    f"logs[{name!r}][{sample_field!r}] holds no sample number at "
                    f"row {i} (counting from 0); with sample_field every record "
                    "names its sample (an epoch, a seed)."
                )
        used = {id_field, score_field, groups_field, sample_field, task_field}
        used |= set(where or ())
        # read only when items repeat (condition): no copy grows with the
        # records otherwise
        self._log, self._keep = log, keep
        # the records of the log, before where keeps some
        self._n_written = keep.shape[0] if keep is not None else self.ids.shape[0]
        self._used, self._names = used, None

    def _others(self):
        """The fields that name no id, score, cluster or sample; asked of the
        log only when items repeat (a log may read them only then)."""
        if self._names is None:
            self._names = [f for f in _fields_of(self._log) if f not in self._used]
        return self._names

    def others(self, rows):
        """Yield ``(field, values at rows)`` of the fields that name no id,
        score, cluster or sample, as objects; the records' ``rows`` are
        counted after ``where``."""
        for other in self._others():
            values = np.asarray(self._log[other], dtype=object)
            if values.ndim == 1 and values.shape[0] == self._n_written:
                kept = values if self._keep is None else values[self._keep]
                yield other, kept[rows]

    def index(self, id_field):
        """Each record's item (``record_item``), and the items' ids and counts."""
        try:
            self.ids, self.record_item, self.counts = np.unique(
                self.ids, return_inverse=True, return_counts=True
            )
        except TypeError as exc:  # mixed types cannot be sorted
            raise ValueError(
                f"logs[{self.name!r}][{id_field!r}] holds ids that cannot be "
                f"compared ({exc}); use one type, strings or integers."
            ) from None
        self.record_item = self.record_item.ravel()

    def shown(self, ids):
        """Ids of this run (an array) as the join returns them (see
        :func:`_encoded`)."""
        return ids if self.decode is None else self.decode(ids)

    def repeated(self):
        many = self.counts > 1
        return self.shown(self.ids[many]), self.counts[many]

    def condition(self):
        """The first field in which the records of one item differ as
        conditions (lm-evaluation-harness's filters, models, prompts), not as
        repeated samples: ``(field, values, item)`` or None.

        Without a sample field, a field is a condition when every repeated
        item's records hold all the values the repeated records hold, and
        at least two (``strict-match`` and ``flexible-extract`` under each
        ``doc_id``); outcomes (a response, a time, a uuid) differ from item
        to item and are not. With a sample field, two records of one item
        and one sample are an error: ``(None, (sample, count), item)``.
        """
        if self.sample is None:
            if not self._others():
                return None  # no field in which records could differ
            # the items are the groups: their codes and sizes are the index's
            group, sizes = self.record_item, self.counts
        else:
            codes = np.unique(self.sample.astype(str), return_inverse=True)[1]
            group = self.record_item * (int(codes.max()) + 1) + codes.ravel()
            _, group, sizes = np.unique(group, return_inverse=True, return_counts=True)
            group = group.ravel()
        rows = np.flatnonzero(sizes[group] > 1)
        if rows.size == 0:
            return None
        k = self.record_item[rows[0]]
        item = self.shown(self.ids[k : k + 1])[0]
        if self.sample is not None:
            return None, (self.sample[rows[0]], int(sizes[group[rows[0]]])), item
        group = group[rows]
        n_groups = int(np.count_nonzero(sizes > 1))  # the repeated items
        for other, kept in self.others(rows):
            texts = _texts(kept)
            if any(
                t is None and v is not None for t, v in zip(texts, kept, strict=True)
            ):
                continue  # lists or objects: outputs, not conditions
            texts = np.array(["\0" if t is None else "=" + t for t in texts])
            seen, codes = np.unique(texts, return_inverse=True)
            if seen.size < 2:
                continue
            codes = codes.ravel()
            pairs = np.unique(group * seen.size + codes)
            per_group = np.bincount(pairs // seen.size)
            per_group = per_group[per_group > 0]
            if per_group.size != n_groups or (per_group != seen.size).any():
                continue
            first = sorted(np.unique(codes, return_index=True)[1])
            return other, kept[first].tolist(), item
        return None


def _condition_error(run, found, id_field, sample_field, repeats, counts=None):
    """The message for records of one id that differ as conditions (or, with
    a sample field, that repeat one sample); ``counts`` are the repeated ids
    and their records, for the message of ``on_duplicate="error"``."""
    other, values, item = found
    if other is None:
        sample, count = values
        return ValueError(
            f"logs[{run.name!r}] has {count} records of {id_field!r} "
            f"{_show(item)} with {sample_field!r} = {sample}; with sample_field "
            "each of an item's samples has one record. Name the field that "
            "numbers the samples (an epoch, a seed), or remove the copies."
        )
    shown = ", ".join(_show(v) for v in values[:_N_EXAMPLES])
    shown += ", ..." if len(values) > _N_EXAMPLES else ""
    how = f"Select one with where={{{other!r}: {_show(values[0])}}}"
    if all((_as_written(v) or "").lstrip("-").isdigit() for v in values):
        how += (
            f", or, if {other!r} numbers repeated samples of the item (epochs, "
            "seeds), pass "
            + ("" if repeats else "on_duplicate='repeats' with ")
            + f"sample_field={other!r}"
        )
    if counts is not None:
        ids, n = counts
        return ValueError(
            f"logs[{run.name!r}] has {ids.size} {id_field!r} ids with several "
            f"records (e.g. {_examples(ids, n)}), and the records of each differ "
            f"in {other!r}: {shown} (one record per {other!r}). {how}."
        )
    return ValueError(
        f"logs[{run.name!r}]: on_duplicate='repeats' would average records that "
        f"differ in {other!r}: {shown} (one record per {other!r} under each "
        f"repeated {id_field!r}, e.g. {_show(item)}). {how}."
    )


def _check_id_kinds(runs, id_field, groups_field):
    """Ids (and clusters) of every run under the one rule of
    :func:`_labels_as_written`."""
    if not all(run.ids.dtype.kind == "S" for run in runs) or all(
        _may_be_integers(run.ids) for run in runs
    ):
        # ASCII text, some of which names no integer, is text as it is
        _widened(runs)
        joined = _labels_as_written([r.ids for r in runs])
        for run, ids in zip(runs, joined, strict=True):
            run.ids = ids
    if groups_field is not None:
        joined = _labels_as_written([r.groups for r in runs])
        for run, groups in zip(runs, joined, strict=True):
            run.groups = groups


def _task_keys(runs, task_field):
    """With a task field, an item is the pair (task, id): every run's tasks
    under the rule of :func:`_labels_as_written`, every task in every run,
    and each run's ids made (task, id) records (sorted by task, then id)."""
    _widened(runs)
    joined = _labels_as_written([run.tasks for run in runs])
    seen = [dict.fromkeys(tasks.tolist()) for tasks in joined]
    every = dict.fromkeys(t for tasks in seen for t in tasks)
    for run, has in zip(runs, seen, strict=True):
        lacks = [t for t in every if t not in has]
        if lacks:
            holder = next(
                r.name for r, h in zip(runs, seen, strict=True) if lacks[0] in h
            )
            more = f" (it lacks {len(lacks)} tasks: {_examples(lacks)})" * (
                len(lacks) > 1
            )
            raise ValueError(
                f"logs[{run.name!r}] has no record of the task {_show(lacks[0])} "
                f"(task_field={task_field!r}), which logs[{holder!r}] "
                f"holds{more}. A suite compares runs on the same tasks: give "
                "every run's records of every task, or remove the task from "
                "every log."
            )
    dtype = [
        ("task", np.result_type(*joined)),
        ("id", np.result_type(*[run.ids for run in runs])),
    ]
    for run, tasks in zip(runs, joined, strict=True):
        key = np.empty(run.ids.shape[0], dtype=dtype)
        key["task"], key["id"] = tasks, run.ids
        run.ids = key


def _missing_error(runs, union, present, id_field, decode):
    parts = []
    for run, has in zip(runs, present.T, strict=True):
        lacks = union[~has] if decode is None else decode(union[~has])
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
            item = run.shown(union[items[i] : items[i] + 1])[0]
            raise ValueError(
                f"id {_show(item)} is in the clusters "
                f"{_show(names[item_code[items[i]]])} and {_show(names[part[i]])} "
                f"(groups_field={groups_field!r}, logs[{run.name!r}]); an item "
                "belongs to one cluster in every record and run."
            )
    return names[item_code[keep]]


def _merged(runs):
    """Every id of any run, sorted, and which run holds each; each run's
    ``item_of_record`` (its records' rows in them) replaces its ids.

    Each run's ids are sorted and distinct, so one sort of their
    concatenation (the stable sort merges sorted runs, a third of the time
    of the default) and a mask of the first of equal ids, made a block at a
    time (no sorted copy of every id); the row of each in the union is the
    count of first ids up to it.
    """
    every = np.concatenate([run.ids for run in runs])
    order = np.argsort(every, kind="stable")
    first = np.ones(order.shape[0], dtype=bool)
    for i in range(1, order.shape[0], _BLOCK):
        block = every[order[i - 1 : i + _BLOCK]]
        first[i : i + _BLOCK] = block[1:] != block[:-1]
    union = every[order[first]]  # encoded as the runs' ids are (_encoded)
    del every
    rank = np.cumsum(first)
    rank -= 1
    where = np.empty(order.shape[0], dtype=np.intp)
    where[order] = rank
    del rank, order, first
    present = np.zeros((union.size, len(runs)), dtype=bool)
    start = 0
    for j, run in enumerate(runs):
        item_index = where[start : start + run.ids.shape[0]]
        start += run.ids.shape[0]
        run.item_of_record = item_index[run.record_item]
        present[item_index, j] = True
        # the run's own ids and index: in the union and each record's item now
        run.ids = run.record_item = None
    del where, item_index
    return union, present


@validate_params(
    {
        "logs": [dict],
        "id_field": [str],
        "score_field": [str],
        "groups_field": [str, None],
        "on_missing": [StrOptions(set(ON_MISSING))],
        "on_duplicate": [StrOptions(set(ON_DUPLICATE))],
        "sample_field": [str, None],
        "where": [dict, None],
        "task_field": [str, None],
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
    sample_field=None,
    where=None,
    task_field=None,
):
    """Join per-item score logs of several runs on the items' ids.

    Records are matched by id, never by their order: the same logs in any
    order give the same table. Ids that some run lacks, and ids with
    several records in one run, stop the join with a message that counts
    them and shows examples, unless ``on_missing`` and ``on_duplicate`` say
    how to treat them. An id is its text as written: the integer 7 and the
    string ``"7"`` are one item, ``"07"`` another.

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
        The field of the item's id: strings or integers, matched as written
        (``7`` and ``"7"`` are one id; the ids come back as integers when
        every one is an integer or its text, else as strings).
    score_field : str, default="score"
        The field of the score: numbers (0/1 for right or wrong, a judge's
        rating, a per-item metric), booleans (True is 1), or their text
        (``"0.5"``, ``"true"``), as a CSV holds them.
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
        resampling and the samples are nested within it. Records of one id
        that differ in another field as conditions do (every repeated id
        has one record per value, as lm-evaluation-harness writes one per
        ``filter``) are refused, with the ``where`` that selects one.
    sample_field : str, default=None
        With ``on_duplicate="repeats"``: the field that numbers an item's
        repeated samples (inspect_ai's ``epoch``, a seed). The records of
        one item must then differ in it; the other fields are not checked.
    where : dict of str to str, int, float or bool, default=None
        Keep only the records whose fields hold these values, before
        anything else is read, e.g. ``{"filter": "strict-match"}``. Values
        match as written (:func:`join_runs` compares text): ``1`` matches
        ``1`` and ``"1"``, not ``1.0``; ``True`` matches ``true``. A record
        without the field, or a filter that keeps no record, is an error
        naming the values seen.
    task_field : str, default=None
        The field of the item's task, for a suite of tasks
        (:func:`suite_scores`): an item is then the pair (task, id), so one
        id may be in several tasks (lm-evaluation-harness numbers each
        task's ``doc_id`` from 0), and the table's ``tasks`` holds each
        item's task. A task that one run has and another lacks stops the
        join, whatever ``on_missing``, with the task and the runs named:
        dropping a whole task would change the suite.

    Returns
    -------
    table : RunTable
        The item scores, one row per id (sorted) and one column per run.

    Raises
    ------
    ValueError
        A log lacks a field, holds a missing or non-numeric score, ids are
        missing or repeated without a policy, or repeated records differ as
        conditions.

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

    lm-evaluation-harness writes one record per filter; select one:

    >>> c = {"doc_id": [0, 0, 1, 1], "exact_match": [1, 0, 1, 1],
    ...      "filter": ["strict-match", "flexible-extract"] * 2}
    >>> one = join_runs({"C": c}, id_field="doc_id", score_field="exact_match",
    ...                 where={"filter": "strict-match"})
    >>> one.scores[:, 0].tolist()
    [1.0, 1.0]
    """
    if len(logs) < 1:
        raise ValueError("logs is empty; give at least one run's records.")
    if sample_field is not None and on_duplicate != "repeats":
        raise ValueError(
            f"sample_field={sample_field!r} numbers the repeated samples that "
            f"on_duplicate='repeats' averages; with on_duplicate={on_duplicate!r} "
            "it would do nothing: pass on_duplicate='repeats', or drop "
            "sample_field."
        )
    for key, value in (where or {}).items():
        if not isinstance(key, str) or _as_written(value) is None:
            raise ValueError(
                f"where[{key!r}] is {value!r}; where maps field names to the "
                "value a record must hold: a string, a number or a boolean."
            )
    fields = (id_field, score_field, groups_field, sample_field, task_field)
    runs = []
    for name, log in logs.items():  # a loop, not a comprehension: stacklevel
        runs.append(_Run(str(name), log, fields, where))
    _check_id_kinds(runs, id_field, groups_field)
    if task_field is not None:
        _task_keys(runs, task_field)
    decode = _encoded(runs)
    for run in runs:
        run.decode = decode
    n_repeated = {}
    for run in runs:
        run.index(id_field)
        ids, counts = run.repeated()
        n_repeated[run.name] = int(ids.size)
        if not ids.size:
            continue
        found = run.condition()
        if on_duplicate == "error":
            if found is not None:
                raise _condition_error(run, found, id_field, None, False, (ids, counts))
            raise ValueError(
                f"logs[{run.name!r}] has {ids.size} {id_field!r} ids with several "
                f"records (e.g. {_examples(ids, counts)}). Pass "
                "on_duplicate='repeats' if they are repeated samples of the item "
                "(epochs, seeds), averaged within the item, or remove the "
                "duplicates."
            )
        if found is not None:
            raise _condition_error(run, found, id_field, sample_field, True)
    # every id of any run, sorted, and which run holds each
    if all(np.array_equal(run.ids, runs[0].ids) for run in runs[1:]):
        # the runs hold the same items (the usual case): the union is any
        # run's ids, and each record's item its row in them
        union = runs[0].ids
        present = np.ones((union.shape[0], len(runs)), dtype=bool)
        for run in runs:
            run.item_of_record = run.record_item
            run.ids = run.record_item = None
    else:
        union, present = _merged(runs)
    n_missing = {
        run.name: int((~has).sum()) for run, has in zip(runs, present.T, strict=True)
    }
    keep = present.all(axis=1)
    if not keep.all() and on_missing == "error":
        raise _missing_error(runs, union, present, id_field, decode)
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
        # the order of the records (one record an item: a sum of one)
        if run.counts.max() > 1:
            order = np.argsort(run.scores, kind="stable")
        else:
            order = np.arange(run.scores.shape[0])
        order = order[keep[run.item_of_record[order]]]
        row = rows[run.item_of_record[order]]
        # summed divided by a power of 2 (exact) that keeps the sums of
        # scores near the float maximum finite
        exponent, (weights,) = rescaled(run.scores[order])
        scores[:, j] = np.bincount(row, weights=weights, minlength=scores.shape[0])
        n_records[:, j] = np.bincount(row, minlength=scores.shape[0])
        # an item's score: the mean of its samples
        scores[:, j] = np.ldexp(scores[:, j] / n_records[:, j], exponent)
    groups = None
    if groups_field is not None:
        groups = _item_groups(runs, union, keep, groups_field)
    ids, tasks = union[keep], None
    del union
    if decode is not None:
        ids = decode(ids)
    if task_field is not None:
        ids, tasks = ids["id"], ids["task"]
    return RunTable(
        names=[run.name for run in runs],
        ids=ids,
        scores=scores,
        n_records=n_records,
        groups=groups,
        n_missing=n_missing,
        n_dropped=int((~keep).sum()),
        n_repeated=n_repeated,
        tasks=tasks,
    )
