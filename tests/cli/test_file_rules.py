"""How files are read: one rule per case (doc/cli.rst, "How files are read")."""

import json
import os

import numpy as np
import pytest

from sklearn_faithful.cli import _io, main
from sklearn_faithful.cli._main import cli_words

from ._bad_inputs import numbers
from ._util import GOLD_CONLL, error, write

COMPARE = ["--metric", "f1", "--n-resamples", "199", "--format", "json"]


def _binary(n=200, seed=0):
    """Gold labels and two systems of a binary task, as str arrays."""
    rng = np.random.default_rng(seed)
    y = rng.choice(np.array(["neg", "pos"]), n)
    flip = np.where(y == "pos", "neg", "pos")
    a = np.where(rng.random(n) < 0.9, y, flip)
    b = np.where(rng.random(n) < 0.8, y, flip)
    return y, a, b


def _compare(capsys, gold, a, b, *extra):
    assert main(["compare", gold, a, b, *COMPARE, *extra]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


@pytest.fixture
def binary(tmp_path):
    y, a, b = _binary()
    gold = write(tmp_path / "gold.txt", y)
    return y, gold, write(tmp_path / "a.txt", a), write(tmp_path / "b.txt", b)


def test_trailing_space_in_gold_is_stripped_with_a_warning(capsys, tmp_path, binary):
    # the case: the gold file defines the classes, so 'pos ' would
    # be a third class with one item and change macro F1 and the test
    y, gold, a, b = binary
    clean, _ = _compare(capsys, gold, a, b)
    spaced = y.astype(object)
    spaced[17] = spaced[17] + " "
    spaced[40] = " " + spaced[40]
    bad = write(tmp_path / "spaced.txt", spaced)
    payload, err = _compare(capsys, bad, a, b)
    assert numbers(json.dumps(payload)) == numbers(json.dumps(clean))
    assert f"sklearn-faithful: warning: {bad}, line 18: the label " in err
    assert "has white space around it" in err
    assert "(2 label(s) of the file changed)" in err
    # the JSON carries the warning, as standard error says it
    assert clean["warnings"] == []
    (warning,) = payload["warnings"]
    assert warning["category"] == "InputWarning"
    assert warning["message"].startswith(f"{bad}, line 18: the label ")
    assert err == f"sklearn-faithful: warning: {warning['message']}\n"


def test_bom_is_stripped_and_noted(capsys, tmp_path, binary):
    y, gold, a, b = binary
    clean, _ = _compare(capsys, gold, a, b)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + open(gold, "rb").read())
    payload, err = _compare(capsys, str(bom), a, b)
    assert numbers(json.dumps(payload)) == numbers(json.dumps(clean))
    assert f"sklearn-faithful: note: {bom} starts with a UTF-8 byte-order mark" in err
    assert clean["warnings"] == []
    assert payload["warnings"] == [
        {
            "category": "InputNote",
            "message": f"{bom} starts with a UTF-8 byte-order mark (BOM); it was "
            "left out of the first line.",
        }
    ]
    assert err == f"sklearn-faithful: note: {payload['warnings'][0]['message']}\n"


def test_crlf_is_read_silently(capsys, tmp_path, binary):
    y, gold, a, b = binary
    clean, _ = _compare(capsys, gold, a, b)
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(open(gold, "rb").read().replace(b"\n", b"\r\n"))
    payload, err = _compare(capsys, str(crlf), a, b)
    assert numbers(json.dumps(payload)) == numbers(json.dumps(clean))
    assert str(crlf) not in err


@pytest.mark.parametrize(
    "data, message",
    [
        (b"neg\npos\nn\0eg\n", "line 3: a NUL byte; this is no text file"),
        ("neg\npos\n".encode("utf-16"), "is UTF-16 text"),
        (b"neg\rpos\rneg\r", "line 1: lines end with a carriage return alone"),
        (b"neg\n   \npos\n", "line 2: the label is empty"),
        (b"neg\n\xff\xfe\n", "line 2: not UTF-8 text"),
    ],
    ids=["nul", "utf-16", "cr-only", "blank", "latin-1"],
)
def test_unreadable_text_is_an_error_naming_the_line(capsys, tmp_path, binary, data,
                                                     message):  # fmt: skip
    _, _, a, b = binary
    bad = tmp_path / "bad.txt"
    bad.write_bytes(data)
    err = error(capsys, ["compare", str(bad), a, b])
    assert f"{bad}{',' if 'line' in message else ''} {message}" in err


@pytest.mark.parametrize("name", ["g.txt", "g.csv", "p.csv"])
def test_a_carriage_return_inside_a_line_is_an_error(capsys, tmp_path, name):
    gold = write(tmp_path / "gold.txt", ["neg", "pos", "neg"])
    bad = tmp_path / name
    if name == "p.csv":
        bad.write_bytes(b"neg,pos\n0.5,0.5\n0.5,0\r.5\n0.5,0.5\n")
        argv = ["interval", gold, str(bad), "--metric", "cf1"]
    else:
        head = b"label\n" if name.endswith(".csv") else b""
        bad.write_bytes(head + b"neg\npos\nne\rg\n")
        argv = ["compare", str(bad), str(bad), str(bad), "--column", "label"]
        argv = argv if head else argv[:4]
    err = error(capsys, argv)
    line = 3 if name == "g.txt" else 4 if name == "g.csv" else 3
    assert f"{bad}, line {line}: a carriage return inside the line" in err


def test_cr_only_error_says_the_fix(capsys, tmp_path, binary):
    _, _, a, b = binary
    bad = tmp_path / "mac.txt"
    bad.write_bytes(b"neg\rpos\r")
    assert "tr '\\r' '\\n'" in error(capsys, ["compare", str(bad), a, b])


def test_a_line_longer_than_the_limit_is_refused(capsys, tmp_path, monkeypatch,
                                                 binary):  # fmt: skip
    monkeypatch.setattr(_io, "CHUNK_BYTES", 64)
    monkeypatch.setattr(_io, "MAX_LINE_BYTES", 100)
    _, _, a, b = binary
    bad = tmp_path / "long.txt"
    bad.write_bytes(b"neg\n" + b"x" * 500)
    err = error(capsys, ["compare", str(bad), a, b])
    assert f"{bad}, line 2: longer than 100 bytes" in err


@pytest.mark.parametrize("where", ["gold", "groups"])
def test_a_fifo_is_refused_before_it_is_opened(capsys, tmp_path, binary, where):
    _, gold, a, b = binary
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    if where == "gold":
        err = error(capsys, ["compare", fifo, a, b])
        assert f"GOLD file {fifo!r} is a FIFO (named pipe)" in err
    else:
        err = error(capsys, ["compare", gold, a, b, "--groups", fifo])
        assert f"--groups file {fifo!r} is a FIFO (named pipe)" in err


def test_a_directory_names_the_argument(capsys, tmp_path, binary):
    _, gold, a, _ = binary
    err = error(capsys, ["compare", gold, a, str(tmp_path)])
    assert f"SYS_B file {str(tmp_path)!r} is a directory" in err


@pytest.mark.parametrize(
    "value, kind", [("null", "null"), ('["pos"]', "list"), ('{"a": 1}', "dict")]
)
def test_a_json_label_that_is_no_label_is_an_error(capsys, tmp_path, value, kind):
    rows = [json.dumps({"label": v}) for v in ["neg", "pos"] * 5]
    rows[6] = '{"label": ' + value + "}"
    gold = write(tmp_path / "g.jsonl", rows)
    a = write(tmp_path / "a.jsonl", [json.dumps({"label": "pos"})] * 10)
    err = error(capsys, ["compare", gold, a, a, "--field", "label"])
    assert f"{gold}, line 7: the field 'label' is {kind}, not a label" in err


def test_a_column_not_in_the_header_is_an_error(capsys, tmp_path):
    gold = write(tmp_path / "g.csv", ["label,id", "neg,1", "pos,2"])
    err = error(capsys, ["compare", gold, gold, gold, "--column", "labels"])
    assert f"{gold}, line 1: no column 'labels' in the header ['label', 'id']" in err


def test_npz_named_npy_is_an_error(capsys, tmp_path, binary):
    _, gold, _, _ = binary
    path = tmp_path / "p.npy"
    with open(path, "wb") as fh:
        np.savez(fh, proba=np.full((200, 2), 0.5))
    err = error(
        capsys, ["interval", gold, str(path), "--metric", "cf1", "--classes", "neg,pos"]
    )
    assert f"{path} is an .npz archive (np.savez), not one .npy array" in err


def test_a_label_file_given_for_cf1_says_it_needs_probabilities(capsys, binary):
    _, gold, a, _ = binary
    err = error(capsys, ["interval", gold, a, "--metric", "cf1"])
    assert f"{a} holds one value a line" in err
    assert "score probability files" in err
    assert "is not a number" not in err


def test_a_conll_file_given_as_labels_hints_conll(capsys, tmp_path):
    gold = tmp_path / "g.conll"
    gold.write_text(GOLD_CONLL.replace("-DOCSTART- O\n\n", ""), encoding="utf-8")
    err = error(capsys, ["compare", str(gold), str(gold), str(gold)])
    assert f"{gold} looks like a CoNLL file" in err
    assert "pass --conll" in err
    # named otherwise: the first blank line
    renamed = tmp_path / "g.txt"
    renamed.write_bytes(gold.read_bytes())
    err = error(capsys, ["compare", str(renamed), str(renamed), str(renamed)])
    assert f"{renamed}, line 5: the label is empty" in err
    assert "is a CoNLL file: pass --conll" in err


def test_sizes_are_checked_before_memory_is_asked_for(capsys, tmp_path, binary):
    err = error(capsys, ["split", str(10**13), "--out", str(tmp_path / "s")])
    assert "split 10000000000000 (10,000,000,000,000 items) needs about" in err
    assert "GiB of memory" in err
    _, gold, a, b = binary
    err = error(capsys, ["compare", gold, a, b, "--n-resamples", str(10**14)])
    assert "--n-resamples 100000000000000 needs about" in err


def test_pos_label_needs_the_binary_average(capsys, binary):
    _, gold, a, b = binary
    err = error(capsys, ["compare", gold, a, b, "--metric", "f1", "--pos-label", "pos"])
    assert (
        "--pos-label pos would have no effect: it applies only with --average "
        "binary. Drop it, or give what it needs." in err
    )


@pytest.mark.parametrize(
    "message, expected",
    [
        (
            "method='delta' needs the size of the annotated set; pass "
            "n_predicted_positive and n_predicted_negative to from_rates.",
            "--method delta needs the size of the annotated set; pass "
            "--n-predicted-positive and --n-predicted-negative.",
        ),
        ("the estimate is np.float64(nan).", "the estimate is nan."),
        ("6 row(s) of y_proba do not sum to 1", "6 row(s) of the probability "
         "file do not sum to 1"),
        ("groups names only 3 clusters", "--groups names only 3 clusters"),
        ("pos_label='x' is not a class", "--pos-label x is not a class"),
    ],
)  # fmt: skip
def test_library_messages_in_cli_words(message, expected):
    options = {
        "method": "--method",
        "n_predicted_positive": "--n-predicted-positive",
        "n_predicted_negative": "--n-predicted-negative",
        "pos_label": "--pos-label",
    }
    assert cli_words(message, options) == expected


def test_plan_says_mde_not_theta(capsys):
    err = error(capsys, ["plan", "--accuracy", "0.9", "--mde", "1e-10"])
    assert "--mde 1e-10 is too small" in err
    assert "theta" not in err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_number_options_refuse_nan_and_infinity(capsys, value):
    with pytest.raises(SystemExit):
        main(
            ["plan", "--accuracy", "0.9", "--mde", "0.02", f"--reference-mean={value}"]
        )
    assert f"{value!r} is not a number" in capsys.readouterr().err


@pytest.mark.parametrize("classes", ["neg,neg", ","])
def test_class_names_must_differ(capsys, tmp_path, binary, classes):
    _, gold, _, _ = binary
    path = tmp_path / "p.npy"
    np.save(path, np.full((200, 2), 0.5))
    err = error(
        capsys, ["interval", gold, str(path), "--metric", "cf1", "--classes", classes]
    )
    assert "--classes: the class names" in err
    assert "give each column a name of its own" in err


def test_split_of_too_few_items_in_cli_words(capsys, tmp_path):
    err = error(capsys, ["split", "3", "--out", str(tmp_path / "s")])
    assert "the input has 3 items, too few to cut into the 4 blocks of a 3x2 BCV" in err
    assert "BlockRegularizedMx2CV" not in err
