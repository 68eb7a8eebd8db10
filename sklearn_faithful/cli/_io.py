"""Readers of the command line's input files.

Every reader returns plain numpy arrays and raises :class:`InputError`, whose
message names the file and the line and says the fix, for anything it cannot
read. The statistics are not computed here: the commands pass the arrays to
the package's Python functions.
"""

import csv
import json
import os

import numpy as np

# Probabilities printed to text lose digits, so a row of a probability file
# may sum to 1 only up to its rounding: 1e-3 passes any row printed with four
# or more decimals (the package's functions warn from sqrt(eps) on).
ROW_SUM_TOLERANCE = 1e-3


class InputError(Exception):
    """Bad input; the message names the file and line and says the fix."""


def _read_text(path):
    """The lines of a text file, without their line ends; errors for none."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory; pass a file.") from None
    except UnicodeDecodeError as exc:
        line = text_line_of_byte(path, exc.start)
        raise InputError(
            f"{path}, line {line}: not UTF-8 text; save the file as UTF-8."
        ) from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}).") from None
    if not text.strip():
        raise InputError(
            f"{path} is empty; it needs one line per item (one label, one row "
            "of probabilities or one token per line)."
        )
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line.rstrip("\r") for line in lines]
    return lines


def text_line_of_byte(path, offset):
    """The 1-based line number of byte ``offset`` of ``path``."""
    with open(path, "rb") as f:
        return f.read(offset).count(b"\n") + 1


def _kind(path, column, field):
    """'text', 'csv', 'tsv' or 'jsonl', from the options and the extension."""
    ext = os.path.splitext(str(path))[1].lower()
    if field is not None:
        return "jsonl"
    if column is not None:
        return "csv" if ext == ".csv" else "tsv"
    if ext in (".jsonl", ".ndjson"):
        raise InputError(
            f"{path} looks like JSON Lines; pass --field NAME to say which field "
            "holds the label."
        )
    if ext in (".csv", ".tsv"):
        raise InputError(
            f"{path} looks like a table; pass --column NAME to say which column "
            "holds the label."
        )
    return "text"


def _table_columns(path, lines, columns, delimiter, fix):
    """The cells of ``columns`` (header names) of a CSV/TSV, one list per column.

    ``fix`` ends the message when the header lacks a column.
    """
    rows = csv.reader(lines, delimiter=delimiter)
    header = next(rows)
    for column in columns:
        if column not in header:
            raise InputError(
                f"{path}, line 1: no column {column!r} in the header {header!r}; {fix}"
            )
    where = [header.index(column) for column in columns]
    out = [[] for _ in columns]
    for i, row in enumerate(rows, start=2):
        for column, j, cells in zip(columns, where, out, strict=True):
            if len(row) <= j:
                raise InputError(
                    f"{path}, line {i}: {len(row)} field(s), but column {column!r} "
                    f"is field {j + 1}; every row needs {len(header)} fields."
                )
            cells.append(row[j])
    return out


def _jsonl_fields(path, lines, fields, fix):
    """The values of ``fields`` of each JSON Lines object, one list per field."""
    out = [[] for _ in fields]
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError(
                f"{path}, line {i} is blank; JSON Lines hold one object a line."
            )
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}, line {i}: not JSON ({exc.msg}).") from None
        for field, values in zip(fields, out, strict=True):
            if not isinstance(record, dict) or field not in record:
                raise InputError(f"{path}, line {i}: no field {field!r}; {fix}")
            values.append(str(record[field]))
    return out


def read_labels(path, *, column=None, field=None):
    """Read one label per item: a text file, a CSV/TSV column or a JSON Lines field.

    Returns a list of str, in file order.
    """
    lines = _read_text(path)
    kind = _kind(path, column, field)
    if kind == "text":
        labels = lines
    elif kind == "jsonl":
        fix = "pass --field with the name of the field that holds the label."
        (labels,) = _jsonl_fields(path, lines, [field], fix)
    else:
        delimiter = "," if kind == "csv" else "\t"
        fix = "pass --column with one of these names."
        (labels,) = _table_columns(path, lines, [column], delimiter, fix)
    if not labels:
        raise InputError(f"{path} has a header but no rows; it needs one row per item.")
    if "" in labels:
        first = labels.index("") + 1 + (kind in ("csv", "tsv"))
        raise InputError(
            f"{path}, line {first}: the label is empty; every item needs a label "
            "(write the outside class, such as O, rather than nothing)."
        )
    return labels


# the columns (CSV/TSV) or fields (JSON Lines) of an annotated sample
ANNOTATED_COLUMNS = ("prediction", "label")


def read_annotated(path):
    """Read an annotated sample: each item's metric-model label and real label.

    CSV/TSV with a header that names the columns ``prediction`` (the metric
    model's label) and ``label`` (the annotator's), in any order among other
    columns; JSON Lines whose objects hold these two fields; any other file:
    two labels a line, the metric model's first, separated by a tab or by
    spaces. Returns ``(predictions, labels, first_line)``: two lists of str in
    file order and the line of the first item.
    """
    lines = _read_text(path)
    ext = os.path.splitext(str(path))[1].lower()
    fix = (
        "an annotated file holds the metric model's label of each item under "
        "'prediction' and the annotator's under 'label'."
    )
    if ext in (".csv", ".tsv"):
        delimiter = "," if ext == ".csv" else "\t"
        predictions, labels = _table_columns(
            path, lines, ANNOTATED_COLUMNS, delimiter, fix
        )
        first = 2
    elif ext in (".jsonl", ".ndjson"):
        predictions, labels = _jsonl_fields(path, lines, ANNOTATED_COLUMNS, fix)
        first = 1
    else:
        predictions, labels = [], []
        for i, line in enumerate(lines, start=1):
            cells = line.split("\t") if "\t" in line else line.split()
            if len(cells) != 2:
                raise InputError(
                    f"{path}, line {i}: {len(cells)} field(s); each line holds two "
                    "labels, the metric model's and the annotator's, separated by "
                    "a tab or spaces."
                )
            predictions.append(cells[0].strip())
            labels.append(cells[1].strip())
        first = 1
    if len(predictions) < 2:
        raise InputError(
            f"{path} holds {len(predictions)} annotated item(s); the interval "
            "needs at least 2 (one a line)."
        )
    for values, what in ((predictions, "metric model's"), (labels, "annotator's")):
        if "" in values:
            raise InputError(
                f"{path}, line {first + values.index('')}: the {what} label is "
                "empty; every annotated item needs both labels."
            )
    return predictions, labels, first


def first_label_line(path, *, column=None, field=None):
    """The line of a label file's first label: 2 below a table's header, else 1."""
    return 2 if _kind(path, column, field) in ("csv", "tsv") else 1


def check_same_length(items, names, gold_name, unit="lines"):
    """Every file must describe the same items, matched by position."""
    n = len(items[0])
    for arr, name in zip(items[1:], names[1:], strict=True):
        if len(arr) != n:
            raise InputError(
                f"{name} has {len(arr)} {unit} but {gold_name} has {n}; {unit} are "
                f"matched by position, so every file needs one per item."
            )


def label_codes(labels, classes, name, source, first_line=1):
    """Each label's position in ``classes`` (a list of str), as an int array.

    A label outside ``classes`` (those of the gold file) is a typo or another
    label set: an error naming its line, ``first_line`` being the line of the
    first label (2 below a table's header). The codes keep the order of
    ``classes``, so the package's functions see the same classes in the same
    order as they would for the labels themselves.
    """
    index = {label: i for i, label in enumerate(classes)}
    try:
        return np.fromiter(map(index.__getitem__, labels), np.intp, len(labels))
    except KeyError:
        pass
    i = next(i for i, v in enumerate(labels) if v not in index)
    shown = classes[:10]
    raise InputError(
        f"{name}, line {first_line + i}: the label {labels[i]!r} does not occur in "
        f"{source} (which uses {shown}{' ...' if len(classes) > 10 else ''}); "
        "fix the label, or map both files to the same label names."
    )


def _parse_floats(path, rows, first_line, header):
    """(n, k) float array of text cells; the first bad cell is an error."""
    try:
        return np.array(rows, dtype=np.float64)
    except ValueError:
        pass
    for i, row in enumerate(rows):
        if len(row) != len(header):
            raise InputError(
                f"{path}, line {first_line + i}: {len(row)} field(s) but the header "
                f"has {len(header)}; every row needs one probability per class."
            )
        for name, cell in zip(header, row, strict=True):
            try:
                float(cell)
            except ValueError:
                raise InputError(
                    f"{path}, line {first_line + i}, column {name!r}: {cell!r} is "
                    "not a number; a probability file holds numbers in [0, 1] "
                    "under a header of class names."
                ) from None
    raise InputError(f"{path}: the rows could not be read as numbers.")  # unreachable


def read_probabilities(path, *, classes=None):
    """Read an (n_items, n_classes) probability file and its class names.

    CSV or TSV with a header of class names, or ``.npy``: a structured array
    whose field names are the classes, or a plain 2-D array with ``classes``.
    Returns ``(proba, classes)``; ``classes`` is a list of str. Line numbers
    in messages are those of the file (the header is line 1); for ``.npy``
    they are row numbers from 1.
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext == ".npy":
        proba, classes, first_line, where = _read_npy(path, classes)
    else:
        lines = _read_text(path)
        delimiter = "\t" if ext == ".tsv" else ","
        rows = list(csv.reader(lines, delimiter=delimiter))
        header = [name.strip() for name in rows[0]]
        if not rows[1:]:
            raise InputError(
                f"{path} has a header but no rows; it needs one row per item."
            )
        if classes is not None:
            raise InputError(
                f"{path}: --classes is for .npy files; a CSV names its classes in "
                "its header."
            )
        proba = _parse_floats(path, rows[1:], 2, header)
        classes, first_line, where = header, 2, "line"
    bad = ~np.isfinite(proba) | (proba < 0) | (proba > 1)
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raise InputError(
            f"{path}, {where} {first_line + i}, column {classes[j]!r}: "
            f"{proba[i, j]!r} is not a probability; each value must be a number "
            "in [0, 1] (pass predict_proba output, or a softmax of scores)."
        )
    dev = np.abs(proba.sum(axis=1) - 1.0)
    off = np.flatnonzero(dev > ROW_SUM_TOLERANCE)
    if off.size:
        i = int(off[0])
        raise InputError(
            f"{path}, {where} {first_line + i}: the probabilities sum to "
            f"{proba[i].sum():.6g}, not 1 ({off.size} row(s) in all); each row "
            "must be a distribution over the classes: normalise the rows, or add "
            "the missing class columns."
        )
    return proba, [str(c) for c in classes]


def _read_npy(path, classes):
    try:
        arr = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path.") from None
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: not a readable .npy file ({exc}).") from None
    if arr.dtype.names:
        names = list(arr.dtype.names)
        if classes is not None:
            raise InputError(
                f"{path} names its classes in its fields {names}; drop --classes."
            )
        try:
            arr = np.column_stack([arr[name].astype(np.float64) for name in names])
        except (TypeError, ValueError):
            raise InputError(
                f"{path}: every field must hold numbers (probabilities)."
            ) from None
        classes = names
    else:
        if classes is None:
            raise InputError(
                f"{path} is a plain array without class names; save it as a "
                "structured array whose field names are the classes, or pass "
                "--classes A,B,C in the order of its columns."
            )
        if arr.dtype.kind not in "biuf":
            raise InputError(f"{path}: holds {arr.dtype}, not numbers.")
        arr = arr.astype(np.float64)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise InputError(
            f"{path} has shape {arr.shape}; it needs one row per item and one "
            "column per class."
        )
    if len(classes) != arr.shape[1]:
        raise InputError(
            f"{path} has {arr.shape[1]} columns but {len(classes)} class names "
            f"{classes}; give one name per column."
        )
    return arr, list(classes), 1, "row"


def read_numbers(path, *, width, what):
    """Rows of numbers separated by commas, tabs or spaces; '#' starts a comment.

    A first line without any number is a header and is skipped. Returns
    ``(array of shape (n_rows, width[i]) , line numbers)`` where ``width`` is
    a tuple of allowed row lengths.
    """
    lines = _read_text(path)
    rows, numbers = [], []
    for i, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].replace(",", " ").split()
        if not text:
            continue
        try:
            values = [float(v) for v in text]
        except ValueError:
            if not rows and not any(_is_number(v) for v in text):
                continue  # a header
            bad = next(v for v in text if not _is_number(v))
            raise InputError(
                f"{path}, line {i}: {bad!r} is not a number; each line holds {what}."
            ) from None
        if len(values) not in width:
            raise InputError(
                f"{path}, line {i}: {len(values)} value(s); each line holds {what}."
            )
        if rows and len(values) != len(rows[0]):
            raise InputError(
                f"{path}, line {i}: {len(values)} values, but line {numbers[0]} has "
                f"{len(rows[0])}; every line needs the same number."
            )
        rows.append(values)
        numbers.append(i)
    if not rows:
        raise InputError(f"{path} holds no rows of numbers; each line holds {what}.")
    return np.array(rows), numbers


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_conll(path, *, column=-1):
    """Read the tags of a CoNLL file: one token a line, blank lines between sentences.

    Returns ``(sentences, lines)``: the tags of each sentence, and the line
    number of each tag. ``-DOCSTART-`` lines are skipped.
    """
    sentences, lines, tags, where = [], [], [], []
    for i, line in enumerate(_read_text(path), start=1):
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if tags:
                sentences.append(tags)
                lines.append(where)
                tags, where = [], []
            continue
        try:
            tags.append(fields[column])
        except IndexError:
            raise InputError(
                f"{path}, line {i}: {len(fields)} field(s), no column "
                f"{column + 1 if column >= 0 else column}; pass --tag-column with "
                "the column of the tags (-1, the last, by default)."
            ) from None
        where.append(i)
    if tags:
        sentences.append(tags)
        lines.append(where)
    if not sentences:
        raise InputError(f"{path} holds no tokens; a CoNLL file has one token a line.")
    return sentences, lines


def _seqeval_scheme(scheme):
    try:
        from seqeval import scheme as schemes
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise InputError(
            "--conll needs seqeval for the entity spans: pip install "
            "'sklearn-faithful[nlp]'."
        ) from None
    return getattr(schemes, scheme)


def conll_entities(path, sentences, lines, scheme):
    """The entities of each sentence, as sets of (type, start, end), by seqeval.

    A tag the scheme does not allow, or one that seqeval's strict mode leaves
    outside every entity (an ``I-`` after ``O`` in IOB2), is an error naming
    its line.
    """
    token_class = _seqeval_scheme(scheme)
    from seqeval.scheme import Tokens

    out = []
    for tags, where in zip(sentences, lines, strict=True):
        for tag, line in zip(tags, where, strict=True):
            try:
                token_class(tag).is_valid()
            except (KeyError, ValueError, IndexError):
                raise InputError(
                    f"{path}, line {line}: the tag {tag!r} is not valid in {scheme} "
                    "(tags are O or a prefix, a hyphen and a type, such as B-PER); "
                    "fix the tag or pass the file's --scheme."
                ) from None
        entities = Tokens(tags, scheme=token_class).entities
        covered = np.zeros(len(tags), dtype=bool)
        for entity in entities:
            covered[entity.start : entity.end] = True
        outside = [
            k for k, tag in enumerate(tags) if not covered[k] and tag.upper() != "O"
        ]
        if outside:
            k = outside[0]
            before = tags[k - 1] if k else "the sentence start"
            raise InputError(
                f"{path}, line {where[k]}: the tag {tags[k]!r} after {before!r} "
                f"belongs to no entity under {scheme}; fix the tag sequence, or "
                "pass the --scheme the file was written in."
            )
        out.append({(e.tag, e.start, e.end) for e in entities})
    return out


def check_same_sentences(gold, gold_lines, gold_name, system, name):
    """Gold and system CoNLL files must hold the same sentences, token by token."""
    if len(system) != len(gold):
        raise InputError(
            f"{name} has {len(system)} sentences but {gold_name} has {len(gold)}; "
            "sentences are matched by position, separated by blank lines."
        )
    for s, (g, p) in enumerate(zip(gold, system, strict=True)):
        if len(g) != len(p):
            raise InputError(
                f"{name}: sentence {s + 1} has {len(p)} tokens but it has {len(g)} "
                f"in {gold_name} (from line {gold_lines[s][0]}); the files must "
                "hold the same tokens."
            )
