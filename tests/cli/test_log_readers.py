"""pyarrow's JSON reader and the standard library's give the same records.

Each log is read by both (``SKLEARN_FAITHFUL_LOG_READER``): the same values,
lines and errors; pyarrow leaves to the standard library what it would read
otherwise (a blank line, mixed types, NaN, huge integers, a byte-order mark).
"""

import json
import warnings

import pytest

from sklearn_faithful.cli import _arrow
from sklearn_faithful.cli._io import InputError, read_records

pytest.importorskip("pyarrow")

FIELDS = {"id": "--id-field", "score": "--score-field"}


def _read(path, reader, monkeypatch, **kwargs):
    """``(records or error text, warnings, whether pyarrow read it)``."""
    monkeypatch.setenv(_arrow.READER_VARIABLE, reader)
    used = []
    original = _arrow.jsonl_columns

    def spy(*args):
        out = original(*args)
        used.append(out is not None)
        return out

    monkeypatch.setattr(_arrow, "jsonl_columns", spy)
    kwargs.setdefault("numbers", ("score",))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = read_records(path, kwargs.pop("fields", FIELDS), **kwargs)
        except InputError as exc:
            out = str(exc)
    return out, [str(w.message) for w in caught], any(used)


def _both(path, monkeypatch, **kwargs):
    fast = _read(path, "pyarrow", monkeypatch, **dict(kwargs))
    slow = _read(path, "python", monkeypatch, **dict(kwargs))
    assert not slow[2]
    if isinstance(fast[0], str):
        assert fast[:2] == slow[:2]
    else:
        assert fast[0].lines == slow[0].lines
        assert fast[0].raw == slow[0].raw
        assert fast[1] == slow[1]
        for field, values in slow[0].values.items():
            if field == "score":  # a number: 1 may read as 1.0
                from sklearn_faithful.eval_logs._join import _score_values

                a, b = _score_values(values)[0], _score_values(fast[0].values[field])[0]
                assert a.tobytes() == b.tobytes()
            else:
                assert fast[0].values[field] == values
    return fast[0], fast[2]


def _write(tmp_path, text, name="log.jsonl", mode="w"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def _lines(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_plain_log_is_read_by_pyarrow_only_the_fields_asked(tmp_path, monkeypatch):
    path = _write(
        tmp_path,
        _lines(
            *(
                {"id": f"q{i}", "score": i % 2, "doc": {"x": [1, "a"]}, "t": "2020"}
                for i in range(50)
            )
        ),
    )
    rec, fast = _both(path, monkeypatch, raw={"t": "--where"})
    assert fast
    assert rec.values["id"][:2] == ["q0", "q1"]
    assert rec.raw["t"][0] == "2020"  # text, not a timestamp


@pytest.mark.parametrize(
    "text, arrow",
    [
        (b'{"id": "a", "score": 1}\n\n{"id": "b", "score": 0}\n', False),  # blank
        (b'{"id": "a", "score": 1} {"id": "b", "score": 0}\n', False),  # two
        (b'{"id": "a", "score": 1}\n{"id": "b", "score": 0}\r\n', True),  # LF, CRLF
        (b'{"id": "a", "score": 1}\r\n{"id": "b", "score": 0}\r\n', True),  # CRLF
        (b'\xef\xbb\xbf{"id": "a", "score": 1}\n', False),  # BOM
        (b'{"id": "a", "score": 1}   \n{"id": "b", "score": 0}\n', True),  # spaces
        (b'{"id": "a", "score": 1, "id": "b"}\n', False),  # a key read twice
        (b'{"id": "a", "score": 1, "x": 1, "x": 2}\n', True),  # a key not read
        (b'{"id": "a", "score": NaN}\n', True),
        (b'{"id": "a", "score": Infinity}\n', True),
        (b'{"id": 1, "score": 1}\n{"id": "b", "score": 0}\n', False),  # mixed
        (b'{"id": 12345678901234567890123, "score": 1}\n', False),  # huge int
        (b'{"id": 1.5, "score": 1}\n', False),  # a float id: 1.0 is not 1
        (b'{"id": "a", "score": 1}\n{"id": "b", "score": 0.5}\n', True),
        (b'{"id": "a", "score": true}\n', True),
        (b'{"id": "a", "score": "C"}\n', True),
        (b'{"id": "a"}\n', False),  # a missing field names its line
        (b'{"id": null, "score": 1}\n', False),
        (b'{"id": "a", "score": 1}\n{"id": "b", "score": }\n', False),  # no JSON
        (b'{"id": "\xff", "score": 1}\n', False),  # not UTF-8
        (b'{"id": "a", "score": 1, "x": "\xff"}\n', False),
        (b'{"id": " a ", "score": 1}\n', True),  # stripped, with a warning
        (b"[1, 2]\n", False),
        (b'{"id": "a", "score": [1]}\n', False),
    ],
)
def test_both_readers_give_the_same_records(tmp_path, monkeypatch, text, arrow):
    path = _write(tmp_path, text)
    _, fast = _both(path, monkeypatch)
    assert fast == arrow


def test_dotted_paths_and_where_fields(tmp_path, monkeypatch):
    records = [
        {"meta": {"id": f"q{i}", "task": {"name": "t"}}, "score": 1.0, "f": i % 2}
        for i in range(20)
    ]
    path = _write(tmp_path, _lines(*records))
    fields = {"meta.id": "--id-field", "score": "--score-field",
              "meta.task.name": "--task-field"}  # fmt: skip
    rec, fast = _both(path, monkeypatch, fields=fields, raw={"f": "--where"})
    assert fast
    assert rec.values["meta.task.name"] == ["t"] * 20
    assert rec.raw["f"] == [i % 2 for i in range(20)]
    # a record without the path: the standard library names its line
    path = _write(tmp_path, _lines(*records, {"meta": {"x": 1}, "score": 1}))
    rec, fast = _both(path, monkeypatch, fields=fields)
    assert not fast and "line 21: no field 'meta.id'" in rec
    # a key with a dot in it is the field itself, as json.loads reads it
    path = _write(tmp_path, _lines({"meta.id": "k", "meta": {"id": "n"}, "score": 1}))
    rec, fast = _both(path, monkeypatch, fields=fields | {"meta.task.name": "x"})
    assert isinstance(rec, str) or rec.values["meta.id"] == ["k"]


def test_a_key_named_twice_is_an_error_where_it_is_read(tmp_path, monkeypatch):
    path = _write(tmp_path, b'{"id": "a", "meta": {"t": 1, "t": 2}, "score": 1}\n')
    rec, _ = _both(path, monkeypatch, fields=FIELDS | {"meta.t": "--task-field"})
    assert rec == (
        f"{path}, line 1: the object names 't' twice, so one of its two values "
        "would be dropped; give each key once."
    )
    rec, _ = _both(path, monkeypatch)
    assert rec.values["id"] == ["a"]


def test_many_chunks_give_the_lines_of_the_file(tmp_path, monkeypatch):
    from sklearn_faithful.cli import _io

    monkeypatch.setattr(_io, "CHUNK_BYTES", 64)
    lines = [{"id": f"q{i}", "score": i % 3 / 2} for i in range(300)]
    path = _write(tmp_path, _lines(*lines) + '{"id": "z", "score": x}\n')
    rec, fast = _both(path, monkeypatch)
    assert not fast and rec.startswith(f"{path}, line 301: not JSON")


def test_an_unknown_reader_is_refused(tmp_path, monkeypatch):
    path = _write(tmp_path, _lines({"id": "a", "score": 1}))
    rec, _, _ = _read(path, "polars", monkeypatch)
    assert "SKLEARN_FAITHFUL_LOG_READER='polars'" in rec


_FORTY = _lines(*({"id": f"q{i}", "score": 1} for i in range(40)))


@pytest.mark.parametrize(
    "text, error",
    [
        # CRLF line ends across chunks, a bad line in a later chunk
        (
            _FORTY.replace("\n", "\r\n") + '{"id": "z", "score": x}\r\n',
            "line 41: not JSON",
        ),
        # a carriage return inside a line, between two tokens
        (_FORTY + '{"id": "z",\r "score": 0}\n', None),
        # two objects on one line, the second continued on the next
        (
            _FORTY + '{"id": "y", "score": 1}, {"id": "z",\n"score": 0}\n',
            "line 41: not JSON",
        ),
        # a key read written once with an escape, once without
        (
            _FORTY + '{"\\u0069d": "y", "id": "z", "score": 0}\n',
            "line 41: the object names 'id' twice",
        ),
        # escapes in values only
        (_lines(*({"id": f"q{i}\\n", "score": 1} for i in range(40))), None),
        # blank lines ahead of the records, then a blank line among them
        ("\n" * 200 + _lines({"id": "a", "score": 1}), "line 1 is blank"),
        (_FORTY + "  \n" + _lines({"id": "z", "score": 1}), "line 41 is blank"),
    ],
)
def test_chunks_read_whole_give_the_records_and_lines_of_json_loads(
    tmp_path, monkeypatch, text, error
):
    from sklearn_faithful.cli import _io

    monkeypatch.setattr(_io, "CHUNK_BYTES", 256)
    path = _write(tmp_path, text.encode())
    rec, _ = _both(path, monkeypatch)
    if error is not None:
        assert rec.startswith(f"{path}, {error}")
    else:
        expected = [json.loads(line) for line in text.split("\n") if line.strip()]
        assert rec.values["id"] == [r["id"] for r in expected]
        assert rec.lines == list(range(1, len(expected) + 1))
