"""The label reader: files read in chunks into integer codes that every file shares."""

import json
import tracemalloc

import numpy as np
import pytest

from sklearn_faithful.cli import _io
from sklearn_faithful.cli._io import InputError, LabelReader, read_probabilities


def _lines_of(data):
    """What the reader must see in a file's bytes: lines split at \\n only,
    the last one dropped when empty, each without a trailing \\r."""
    lines = data.decode("utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    return [v.strip() for v in lines]


LABELS = [
    "neg", "pos", "neu", "O", " pos", "pos ", "a", "é", "日本語", "x" * 7,
    "y" * 8, "z" * 9, "w" * 63, "v" * 64, "u" * 65, "t" * 200, "pos\r",
]  # fmt: skip


@pytest.mark.parametrize("chunk", [1, 7, 64, 2**22])
def test_codes_are_the_labels_of_every_file(tmp_path, monkeypatch, chunk):
    # short, hashed (8 to 64 bytes) and long lines, CRLF, white space around
    # labels (stripped, with a warning), non-ASCII; chunks smaller than a
    # line, and larger than the file
    monkeypatch.setattr(_io, "CHUNK_BYTES", chunk)
    rng = np.random.default_rng(0)
    reader = LabelReader()
    expected, codes = [], []
    for i, (sep, end) in enumerate([("\n", "\n"), ("\r\n", "\r\n"), ("\n", "")]):
        labels = [LABELS[j] for j in rng.integers(0, len(LABELS), 300)]
        data = (sep.join(labels) + end).encode("utf-8")
        (tmp_path / f"{i}.txt").write_bytes(data)
        expected.append(_lines_of(data))
        with pytest.warns(_io.InputWarning, match="has white space around it"):
            codes.append(reader.read(tmp_path / f"{i}.txt"))
    names = reader.names()
    for exp, got in zip(expected, codes, strict=True):
        assert got.dtype == np.uint8
        assert [names[c] for c in got] == exp
    # equal labels, equal codes, in every file (a line's \r aside)
    classes = reader.classes(codes[0])
    for exp, got in zip(expected, codes, strict=True):
        assert np.array_equal(
            np.array(classes)[reader.codes_in(got, classes, "", "")], exp
        )
    # one code per distinct line: those of the CRLF file end in \r
    assert len(names) == len(set(LABELS) | {v + "\r" for v in LABELS})
    assert set(names) == {v.strip() for v in LABELS}


def test_many_distinct_labels_and_the_codes_in_classes(tmp_path, monkeypatch):
    # more labels than a perfect hash takes: the binary search
    monkeypatch.setattr(_io, "CHUNK_BYTES", 4096)
    rng = np.random.default_rng(1)
    values = [f"doc{i}" for i in rng.integers(0, 5000, 20_000)]
    path = tmp_path / "g.txt"
    path.write_text("\n".join(values), encoding="utf-8")
    reader = LabelReader()
    raw = reader.read(path)
    assert raw.dtype == np.uint16
    classes = reader.classes(raw)
    assert classes == sorted(set(values))
    codes = reader.codes_in(raw, classes, path, path)
    assert np.array_equal(np.array(classes)[codes], values)


def test_reading_holds_no_string_per_line(tmp_path, monkeypatch):
    # 200,000 lines as Python strings take over 10 MB; the reader holds one
    # chunk's arrays and one byte of code per line
    monkeypatch.setattr(_io, "CHUNK_BYTES", 2**16)
    n = 200_000
    classes = np.array([f"class_{i}" for i in range(10)])
    labels = classes[np.random.default_rng(2).integers(0, 10, n)]
    path = tmp_path / "g.txt"
    path.write_text("\n".join(labels) + "\n", encoding="utf-8")
    tracemalloc.start()
    try:
        codes = LabelReader().read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert codes.shape == (n,) and codes.dtype == np.uint8
    assert peak < 4 * 2**20, peak


def test_table_and_json_lines_columns(tmp_path, monkeypatch):
    monkeypatch.setattr(_io, "CHUNK_BYTES", 50)
    labels = ["neg", "pos", "neu", 'a "quoted", label'] * 40
    rows = ["id,label,doc"] + [
        f'{i},"{v.replace(chr(34), 2 * chr(34))}",d{i // 3}'
        for i, v in enumerate(labels)
    ]
    (tmp_path / "g.csv").write_text("\r\n".join(rows), encoding="utf-8")
    (tmp_path / "g.jsonl").write_text(
        "\n".join(
            json.dumps({"label": v, "doc": i // 3}) for i, v in enumerate(labels)
        ),
        encoding="utf-8",
    )
    for path, options in ((tmp_path / "g.csv", {"column": "label"}),
                          (tmp_path / "g.jsonl", {"field": "label"})):  # fmt: skip
        reader = LabelReader(**options)
        codes = reader.read(path)
        assert [reader.names()[c] for c in codes] == labels
    reader = LabelReader(column="doc", what="group")
    codes = reader.read(tmp_path / "g.csv")
    assert [reader.names()[c] for c in codes] == [f"d{i // 3}" for i in range(160)]


def _error(path, **options):
    with pytest.raises(InputError) as info:
        LabelReader(**options).read(path)
    return str(info.value)


def test_errors_name_the_line_in_any_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(_io, "CHUNK_BYTES", 16)
    path = tmp_path / "g.txt"
    path.write_bytes(b"neg\npos\n" * 50 + b"ne\xffg\n" + b"pos\n")
    assert _error(path) == f"{path}, line 101: not UTF-8 text; save the file as UTF-8."
    path.write_bytes(b"neg\npos\n" * 50 + b"\npos\n")
    assert f"{path}, line 101: the label is empty" in _error(path)
    path.write_bytes(b" \n\t\r\n\n" * 20)
    assert _error(path).startswith(f"{path} is empty")
    path.write_bytes(b"")
    assert _error(path).startswith(f"{path} is empty")
    table = tmp_path / "g.csv"
    table.write_text("label\n")
    assert "has a header but no rows" in _error(table, column="label")
    table.write_text("label\n" + "neg\n" * 30 + "\n")
    assert f"{table}, line 32: 0 field(s)" in _error(table, column="label")
    groups = tmp_path / "groups.txt"
    groups.write_text("a\nb\n\nc\n")
    message = _error(groups, what="group")
    assert f"{groups}, line 3: the group is empty; every item needs a group." == message


def test_probabilities_parsed_by_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(_io, "CHUNK_BYTES", 64)
    proba = np.random.default_rng(3).dirichlet(np.ones(3), size=100)
    rows = [",".join(repr(float(v)) for v in row) for row in proba]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(["neg,neu,pos", *rows]) + "\n", encoding="utf-8")
    got, classes = read_probabilities(path)
    assert classes == ["neg", "neu", "pos"] and np.array_equal(got, proba)
    rows[70] = rows[70].replace(",", ",x", 1)
    path.write_text("\n".join(["neg,neu,pos", *rows]), encoding="utf-8")
    with pytest.raises(InputError, match=r"line 72, column 'neu': 'x0\.\d+' is not"):
        read_probabilities(path)
    rows[70] = ""
    path.write_text("\n".join(["neg,neu,pos", *rows]), encoding="utf-8")
    with pytest.raises(InputError, match="line 72: 0 field"):
        read_probabilities(path)
