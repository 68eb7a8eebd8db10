"""The columnar forms of a JSON Lines log give the records of the lists.

``read_records(..., arrays=True)`` (what ``eval-logs`` reads) hands over numpy
arrays where it can: the same values, lines, warnings and errors as the
lists, with both readers; the helpers behind it agree with the rules they
replace (``str.strip``, ``np.array`` of the values, the object path of
``_labels_as_written``).
"""

import gc
import json
import warnings

import numpy as np
import pytest

from sklearn_faithful.cli import _arrow, _io
from sklearn_faithful.cli._io import InputError, read_records
from sklearn_faithful.eval_logs._join import (
    _labels_as_written,
    _score_values,
    _text_stripped,
)

FIELDS = {"id": "--id-field", "score": "--score-field"}


def _read(path, reader, monkeypatch, arrays, **kwargs):
    """``(records or error text, warnings)``, the values as lists."""
    if reader == "pyarrow":
        pytest.importorskip("pyarrow")
    monkeypatch.setenv(_arrow.READER_VARIABLE, reader)
    kwargs.setdefault("numbers", ("score",))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = read_records(path, kwargs.pop("fields", FIELDS), arrays=arrays,
                               **kwargs)  # fmt: skip
        except InputError as exc:
            out = str(exc)
    return out, [str(w.message) for w in caught]


def _same(path, monkeypatch, **kwargs):
    """The arrays read equal the lists read, with both readers."""
    for reader in ("python", "pyarrow"):
        lists, said = _read(path, reader, monkeypatch, False, **dict(kwargs))
        arrays, told = _read(path, reader, monkeypatch, True, **dict(kwargs))
        assert said == told
        if isinstance(lists, str):
            assert arrays == lists
            continue
        assert list(arrays.lines) == lists.lines
        assert arrays.raw == lists.raw
        for field, values in lists.values.items():
            got = arrays.values[field]
            if isinstance(got, np.ndarray):
                assert got.dtype.kind in "Uf"
                if got.dtype.kind == "f":  # a score: the number of its text
                    assert np.array_equal(got, _score_values(values)[0])
                    continue
                got = got.tolist()
            assert got == values
    return arrays


def _write(tmp_path, text):
    path = tmp_path / "log.jsonl"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def _lines(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


@pytest.mark.parametrize(
    "ids",
    [
        [f"gsm8k-{i:07d}" for i in range(40)],  # one length
        [f"q{i}" for i in range(40)],  # lengths that differ
        ["", "a", "bb"] * 3,  # an empty id is an error naming its line
        ["é", "a", "日本"],  # not ASCII
        ["a\0", "\0", "b"],  # NUL characters (numpy drops the last ones)
        [" a", "b ", "c"],  # stripped, with one warning
        ["a\u2003", "b"],  # white space beyond ASCII
        [1, 2, 30],  # integers
        ["1", 2, "x"],  # mixed kinds
    ],
)
def test_arrays_hold_the_values_of_the_lists(tmp_path, monkeypatch, ids):
    records = [{"id": v, "score": k % 3 / 2, "x": "y"} for k, v in enumerate(ids)]
    _same(_write(tmp_path, _lines(*records)), monkeypatch)


@pytest.mark.parametrize(
    "scores",
    [
        [1.0, 0.0, 0.5],
        [1, 0, 1],  # integers: text "1", or 1.0 as pyarrow reads them
        [1.0, float("nan")],  # NaN is an error
        [1.0, float("inf")],
        [True, False],
        ["C", "I"],
        [1.0, None],
    ],
)
def test_scores_as_arrays_are_the_numbers_of_their_text(tmp_path, monkeypatch, scores):
    records = [{"id": f"q{k}", "score": v} for k, v in enumerate(scores)]
    _same(_write(tmp_path, _lines(*records)), monkeypatch)


def test_where_fields_and_subsets_of_arrays(tmp_path, monkeypatch):
    records = [{"id": f"q{k}", "score": 1.0, "f": k % 2} for k in range(30)]
    path = _write(tmp_path, _lines(*records))
    rec = _same(path, monkeypatch, raw={"f": "--where"})
    kept = rec.subset(np.array(rec.raw["f"]) == 1)
    assert kept.values["id"].tolist() == [f"q{k}" for k in range(1, 30, 2)]
    assert list(kept.lines) == list(range(2, 31, 2))
    assert kept.where(0) == "line 2"


def test_a_key_read_and_written_with_an_escape_twice_is_an_error(tmp_path, monkeypatch):
    # json.loads reads "\u0069d" as "id": the text holds '"id"' once a record
    text = b'{"id": "a", "score": 1}\n{"id": "b", "\\u0069d": "c", "score": 1}\n'
    rec = _same(_write(tmp_path, text), monkeypatch)
    assert rec == (
        f"{tmp_path / 'log.jsonl'}, line 2: the object names 'id' twice, so one "
        "of its two values would be dropped; give each key once."
    )
    # an id inside another object, and an id as a value: no repetition
    text = _lines(
        {"id": "a", "m": {"id": 1}, "score": 1, "v": "id"}, {"id": "b", "score": 0}
    )
    assert _same(_write(tmp_path, text), monkeypatch).values["id"].tolist() == [
        "a",
        "b",
    ]


def test_the_collector_is_on_again_after_a_read(tmp_path, monkeypatch):
    path = _write(tmp_path, _lines({"id": "a", "score": 1}) + "{x\n")
    monkeypatch.setenv(_arrow.READER_VARIABLE, "python")
    with pytest.raises(InputError, match="line 2: not JSON"):
        read_records(path, FIELDS, arrays=True)
    assert gc.isenabled()
    gc.disable()
    try:
        read_records(_write(tmp_path, _lines({"id": "a", "score": 1})), FIELDS)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "text, lines",
    [
        (b'{"a": 1}\r\n{"a": 2}\r\n', 2),  # CRLF across the blocks
        (b'{"a": 1}\n{"a": 2}', 2),  # no last end of line
        (b'{"a": "\xc3\xa9\xc3\xa9"}\n{"a": 2}\n', 2),  # a character across blocks
        (b'{"a": 1}\n\n{"a": 2}\n', None),  # blank
        (b'{"a": 1}\n {"a": 2}\n', None),  # starts with a space
        (b'{"a": 1}\r{"a": 2}\n', None),  # a CR that ends no line
        (b'{"a": 1}\n{"a": 2}\r', None),
        (b'{"a": "\xc3"}\n', None),  # not UTF-8
        (b'\xef\xbb\xbf{"a": 1}\n', None),  # BOM
        (b'{"a": 1}\x00\n', None),
    ],
)
def test_plain_lines_across_blocks(tmp_path, monkeypatch, text, lines):
    path = _write(tmp_path, text)
    for block in (3, 4, 5, 7, 9, 2**22):
        monkeypatch.setattr(_arrow, "_BLOCK", block)
        assert _arrow._plain_lines(path, []) == lines


def test_text_array_is_numpy_of_the_values():
    pa = pytest.importorskip("pyarrow")
    for values in (["a", "bb", ""], ["", ""], [], ["ab", "cd"], ["x" * 300, "y"]):
        array = pa.array(values, pa.string())
        got = _arrow._text_array(array)
        assert got.dtype == np.array(values, dtype=str).dtype
        assert got.tolist() == values
        assert _arrow._text_array(array.slice(1)).tolist() == values[1:]
    for values in (["é"], ["a\0"]):  # left to the lists
        assert _arrow._text_array(pa.array(values)) is None
    floats = pa.chunked_array([pa.array([1.0, 2.5, 3.0]).slice(1), [4.0]])
    assert _arrow._values(pa, floats).tolist() == [2.5, 3.0, 4.0]


def test_text_stripped_is_str_strip():
    chars = [chr(i) for i in range(0x3001)]
    values = np.array([f"x{c}" for c in chars] + [f"{c}x" for c in chars] + chars)
    out, changed = _text_stripped(values)
    expected = [v.strip() for v in values.tolist()]
    assert out.tolist() == expected
    assert changed.tolist() == [
        i
        for i, (v, w) in enumerate(zip(values.tolist(), expected, strict=True))
        if v != w
    ]
    plain = np.array(["a", "b c"])
    assert _text_stripped(plain)[0] is plain  # no copy without white space


@pytest.mark.parametrize(
    "columns",
    [
        [["a", "b"], ["b", "a"]],
        [["a", "7"], [7, 8]],
        [["7", "8"], [7, 8]],
        [["07", "8"], [7]],
        [["-1", "2"], ["x"]],
        [["", "1"]],
        [["1"], [2.5]],
    ],
)
def test_labels_as_written_of_str_arrays_is_the_object_rule(columns):
    arrays = [np.array(c) for c in columns]
    objects = [np.array(c, dtype=object) for c in columns]
    got = _labels_as_written(arrays)
    expected = _labels_as_written(objects)
    for g, e in zip(got, expected, strict=True):
        assert g.tolist() == e.tolist() and g.dtype.kind == e.dtype.kind


def test_score_values_fill_the_rest_with_nan():
    out, bad = _score_values(["1", "x", "0"])
    assert bad == 1 and out[0] == 1.0 and np.isnan(out[1:]).all()


def test_io_reads_arrays_without_pyarrow(tmp_path, monkeypatch):
    monkeypatch.setattr(_arrow, "_pyarrow", lambda: None)
    path = _write(
        tmp_path, _lines({"id": "a", "score": 0.5}, {"id": "b", "score": 1.0})
    )
    rec = read_records(path, FIELDS, numbers=("score",), arrays=True)
    assert rec.values["id"].tolist() == ["a", "b"]
    assert rec.values["score"].dtype == np.float64
    assert rec.lines == range(1, 3)
    assert _io.read_records(path, FIELDS).lines == [1, 2]
