"""pyarrow's JSON reader for the command line's logs, when it is installed.

:func:`jsonl_columns` reads the fields of a JSON Lines log with
``pyarrow.json.read_json``, only those fields, and hands over the values
``json.loads`` would give, or nothing: whatever pyarrow might read otherwise
than the standard library (a blank line, two objects on a line, a number
that is an integer in one record and a float in another, a byte-order mark)
leaves the file to the standard library's reader (``_io``), which gives the
same values and the errors naming the line. pyarrow is the ``logs`` extra:
``pip install sklearn-faithful[logs]``.

The environment variable ``SKLEARN_FAITHFUL_LOG_READER`` chooses the reader:
``python`` (the standard library's), ``pyarrow`` (an error when it is not
installed), or unset (pyarrow when it is installed).
"""

import codecs
import json
import os

READER_VARIABLE = "SKLEARN_FAITHFUL_LOG_READER"
READERS = ("pyarrow", "python")

# Bytes read at a time by the checks of the whole file
_BLOCK = 2**22
# The first bytes of a log, whose records show the types of its fields
_SAMPLE = 2**20
# pyarrow's blocks, read one at a time (with threads pyarrow reads ahead
# and holds several hundred MiB of a large log); a longer line is left to
# the standard library
_ARROW_BLOCK = 2**22

# The first bytes of a line that pyarrow would read otherwise than
# json.loads: a blank line, or one that starts with white space (pyarrow
# skips a blank line; the standard library refuses it); the first line's
# byte-order mark
_BLANK_STARTS = (b" ", b"\t", b"\r", b"\n", b"\xef")
_BLANK_CODES = (ord(" "), ord("\t"), ord("\r"), ord("\n"))
_NEWLINE, _RETURN = ord("\n"), ord("\r")


def _pyarrow():
    """``(pyarrow, pyarrow.json, pyarrow.compute)``, or None for the standard
    library's reader."""
    choice = os.environ.get(READER_VARIABLE, "").strip().lower()
    if choice and choice not in READERS:
        raise ValueError(
            f"{READER_VARIABLE}={choice!r}: the log reader is "
            f"{' or '.join(READERS)} (unset: pyarrow when it is installed)."
        )
    if choice == "python":
        return None
    try:
        import pyarrow
        import pyarrow.compute
        import pyarrow.json
    except ImportError:
        if choice == "pyarrow":
            raise ValueError(
                f"{READER_VARIABLE}=pyarrow, but pyarrow is not installed: "
                "pip install sklearn-faithful[logs]."
            ) from None
        return None
    return pyarrow, pyarrow.json, pyarrow.compute


def _plain_lines(path, dotted):
    """The number of lines of ``path``, or None where pyarrow would read it
    otherwise than the standard library: a byte-order mark, a NUL byte, text
    that is not UTF-8, a carriage return that ends no line, a blank line or
    one that starts with white space, a key written with a dot in it.

    One pass over the file's blocks, the bytes after each line's end found
    with numpy."""
    import numpy as np

    keys = [b'"' + field.encode("utf-8") + b'"' for field in dotted]
    overlap = max((len(k) for k in keys), default=0)
    decoder = codecs.getincrementaldecoder("utf-8")()
    n_lines, tail, last = 0, b"", b""
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            # a blank first line, a byte-order mark, or a line after the
            # previous block's last that is blank or starts with white space
            if last in (b"", b"\n") and block[:1] in _BLANK_STARTS:
                return None
            if last == b"\r" and block[:1] != b"\n":
                return None  # a carriage return that ends no line
            if b"\0" in block:
                return None
            # a key with a dot in it could not be told from a dotted path
            seam = tail + block if keys else block
            if any(key in seam for key in keys):
                return None  # pragma: no cover - rare
            if not block.isascii() or decoder.getstate()[0]:
                try:
                    decoder.decode(block)
                except UnicodeDecodeError:
                    return None
            data = np.frombuffer(block, dtype=np.uint8)
            ends = np.flatnonzero(data == _NEWLINE)
            after = data[ends[ends + 1 < data.size] + 1]
            if np.isin(after, _BLANK_CODES).any():
                return None
            returns = np.flatnonzero(data == _RETURN)
            returns = data[returns[returns + 1 < data.size] + 1]
            if (returns != _NEWLINE).any():
                return None
            n_lines += ends.size
            tail, last = block[len(block) - overlap :], block[-1:]
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    if last == b"\r":
        return None
    return n_lines + (last != b"\n")


def _sample_kinds(path, names, lookup):
    """The kinds of value (``type``) of each field in the first records of
    ``path`` (a dotted field's at the end of its path), as ``json.loads``
    reads them, found by ``lookup`` (the reader's rule of dotted paths);
    None when they show no plain log."""
    with open(path, "rb") as f:
        head = f.read(_SAMPLE)
    lines = head[: head.rfind(b"\n") + 1].splitlines() or [head]
    kinds = {field: set() for field in names}
    try:
        for text in lines:
            record = json.loads(text)
            for field in names:
                found, value = lookup(record, field)
                kinds[field].add(type(value) if found else None)
    except (ValueError, TypeError):
        return None
    return kinds


def _leaf(pa, kinds, number):
    """The type read for a field whose first records hold values of
    ``kinds``: text, integers, booleans, and a number read as one
    (``number``) as float64; None (the standard library reads the file)
    for floats read as text (1.0 would lose the difference from 1), lists,
    objects and mixed kinds."""
    kinds = kinds - {None, type(None)}
    if number and kinds <= {int, float}:
        return pa.float64()
    if len(kinds) > 1:
        return None
    kind = next(iter(kinds), str)
    return {str: pa.string(), bool: pa.bool_(), int: pa.int64()}.get(kind)


def _schema(pa, kinds, names, numbers):
    """The explicit schema of the fields read: each field, a top-level key
    or a dotted path into nested objects, with the type its first records
    show; None when one cannot be read as the standard library reads it."""
    tree = {}
    for field in names:
        leaf = _leaf(pa, kinds[field], field in numbers)
        if leaf is None:
            return None
        keys, node = field.split("."), tree
        if len(keys) > 1:
            tree.setdefault(field, pa.null())  # a key with a dot in it
        for key in keys[:-1]:
            node = node.setdefault(key, {})
            if not isinstance(node, dict):
                return None
        if keys[-1] in node:
            return None
        node[keys[-1]] = leaf

    def build(node):
        return [
            pa.field(k, pa.struct(build(v)) if isinstance(v, dict) else v)
            for k, v in node.items()
        ]

    return pa.schema(build(tree))


def jsonl_columns(path, names, optional, raw, numbers, lookup):
    """The values of the fields ``names`` of each record of a JSON Lines
    log, as ``json.loads`` gives them (numpy arrays where :func:`_values`
    can), and the records' lines (a range); None when the standard library
    must read the file.

    A field of ``optional`` or ``raw`` may be null or absent (None);
    another field that a record lacks leaves the file to the standard
    library, whose message names the line. A field of ``numbers`` is read
    as a float (its text then shows 1 as ``1.0``). ``lookup(record,
    field)`` is the standard library reader's ``(found, value)``. A value of
    ``SKLEARN_FAITHFUL_LOG_READER`` that names no reader is a ValueError.
    """
    modules = _pyarrow()
    if modules is None:
        return None
    pa, pj, pc = modules
    n_lines = _plain_lines(path, [f for f in names if "." in f])
    if n_lines is None:
        return None
    try:
        kinds = _sample_kinds(path, names, lookup)
        schema = None if kinds is None else _schema(pa, kinds, names, numbers)
        if schema is None:
            return None
        table = pj.read_json(
            path,
            read_options=pj.ReadOptions(block_size=_ARROW_BLOCK, use_threads=False),
            parse_options=pj.ParseOptions(
                explicit_schema=schema, unexpected_field_behavior="ignore"
            ),
        )
    except (pa.ArrowException, ValueError, TypeError, OSError):
        return None
    if table.num_rows != n_lines:
        return None
    columns = {}
    for field in names:
        if field in table.column_names and "." in field:
            if table.column(field).null_count != table.num_rows:
                return None  # pragma: no cover - a key with a dot in it
        column = table.column(field if "." not in field else field.split(".")[0])
        if "." in field:
            for key in field.split(".")[1:]:
                column = pc.struct_field(column, key)
        if column.null_count and field not in optional and field not in raw:
            return None  # the standard library names the line
        if pa.types.is_floating(column.type) and field not in numbers:
            return None  # pragma: no cover - _leaf reads no such field
        columns[field] = _values(pa, column)
    del table, column
    pa.default_memory_pool().release_unused()  # the blocks read: to the system
    return columns, range(1, n_lines + 1)


def _values(pa, column):
    """A column's values: ASCII text without nulls as a numpy str array,
    floats without nulls as a float64 array, any other as a list of Python
    values (as ``json.loads`` gives them)."""
    if column.null_count == 0 and pa.types.is_float64(column.type):
        import numpy as np

        # from the buffer: pyarrow's to_numpy imports pandas
        array = column.combine_chunks()
        values = np.frombuffer(array.buffers()[1], dtype=np.float64)
        return values[array.offset : array.offset + len(array)].copy()
    if column.null_count == 0 and pa.types.is_string(column.type):
        text = _text_array(column.combine_chunks())
        if text is not None:
            return text
    return column.to_pylist()


def _text_array(array):
    """An Arrow string array without nulls as a numpy str array, its width
    the longest value's, without a Python string per value; None when the
    text is not ASCII (numpy decodes no UTF-8) or holds a NUL character
    (numpy drops those that end a value)."""
    import numpy as np

    _, offsets, data = array.buffers()
    n = len(array)
    offsets = np.frombuffer(offsets, dtype=np.int32)[
        array.offset : array.offset + n + 1
    ]
    data = (
        np.frombuffer(data, dtype=np.uint8)
        if data is not None
        else np.empty(0, np.uint8)
    )
    text = data[offsets[0] : offsets[-1]]
    if ((text >= 128) | (text == 0)).any():
        return None
    lengths = np.diff(offsets)
    width = max(int(lengths.max(initial=0)), 1)
    if text.size == 0:
        return np.zeros(n, dtype="U1")
    if (lengths == width).all():  # ids of one length: the bytes themselves
        out = text.reshape(n, width)
    else:
        out = np.zeros((n, width), dtype=np.uint8)
        ends = offsets[1:] - 1
        for j in range(width):  # one column of characters at a time
            has = lengths > j
            out[:, j] = np.where(has, data[np.minimum(offsets[:-1] + j, ends)], 0)
    return np.ascontiguousarray(out).view(f"S{width}").ravel().astype(f"U{width}")
