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
# pyarrow's blocks: a longer line is left to the standard library
_ARROW_BLOCK = 2**24

# Bytes after which pyarrow would read a line otherwise than json.loads: a
# blank line, or one that starts with white space (pyarrow skips a blank
# line; the standard library refuses it)
_BLANK_STARTS = (b"\n\n", b"\n ", b"\n\t", b"\n\r")


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
    one that starts with white space, a key written with a dot in it."""
    keys = [b'"' + field.encode("utf-8") + b'"' for field in dotted]
    decoder = codecs.getincrementaldecoder("utf-8")()
    n_lines, n_cr, n_crlf, tail, last = 0, 0, 0, b"\n", b""
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            if not last and block[:1] in (b" ", b"\t", b"\r", b"\n", b"\xef"):
                return None  # a blank first line, a byte-order mark
            seam = tail + block
            if b"\0" in block or any(s in seam for s in _BLANK_STARTS):
                return None
            # a key with a dot in it could not be told from a dotted path
            if any(key in seam for key in keys):  # pragma: no cover - rare
                return None
            try:
                decoder.decode(block)
            except UnicodeDecodeError:
                return None
            n_lines += block.count(b"\n")
            n_cr += block.count(b"\r")
            n_crlf += (tail[-1:] + block).count(b"\r\n")
            tail = seam[-max(len(k) for k in keys or [b"\n"]) :]
            last = block[-1:]
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    if n_cr != n_crlf:
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
    log, as ``json.loads`` gives them, and the records' lines; None when
    the standard library must read the file.

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
            read_options=pj.ReadOptions(block_size=_ARROW_BLOCK),
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
        columns[field] = column.to_pylist()
    return columns, list(range(1, n_lines + 1))
