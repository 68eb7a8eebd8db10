"""Bad input: one line on standard error naming the file, the line and the fix."""

import pytest

from sklearn_faithful.cli import main

from ._util import GOLD_CONLL, error, write


def test_missing_file(capsys, files, tmp_path):
    missing = str(tmp_path / "nope.txt")
    err = error(capsys, ["compare", missing, files["a_txt"], files["b_txt"]])
    assert f"GOLD file {missing!r} does not exist" in err


def test_empty_file(capsys, files, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    err = error(capsys, ["compare", files["y_txt"], str(empty), files["b_txt"]])
    assert f"{empty} is empty" in err


def test_files_of_unequal_length(capsys, files, tmp_path):
    short = write(tmp_path / "short.txt", files["b"][:-1])
    err = error(capsys, ["compare", files["y_txt"], files["a_txt"], short])
    assert f"{short} has 299 lines but {files['y_txt']} has 300" in err


def test_non_numeric_probability(capsys, tmp_path):
    bad = write(tmp_path / "p.csv", ["neg,neu,pos", "0.2,0.3,0.5", "0.1,abc,0.9"])
    gold = write(tmp_path / "g.txt", ["neg", "pos"])
    err = error(capsys, ["interval", gold, bad, "--metric", "cf1"])
    assert f"{bad}, line 3, column 'neu': 'abc' is not a number" in err


def test_probabilities_that_do_not_sum_to_one(capsys, tmp_path):
    bad = write(tmp_path / "p.csv", ["neg,neu,pos", "0.2,0.3,0.5", "0.1,0.3,0.4"])
    gold = write(tmp_path / "g.txt", ["neg", "pos"])
    err = error(capsys, ["interval", gold, bad, "--metric", "cf1"])
    assert f"{bad}, line 3: the probabilities sum to 0.8, not 1" in err
    assert "normalise the rows" in err


def test_unknown_label_in_a_system(capsys, files, tmp_path):
    b = files["b"].copy()
    b[41] = "Pos"
    typo = write(tmp_path / "typo.txt", b)
    err = error(capsys, ["compare", files["y_txt"], files["a_txt"], typo])
    assert f"{typo}, line 42: the label 'Pos' does not occur in" in err
    # below a table's header, the item on line 43
    gold = write(tmp_path / "g.csv", ["label", *files["y"]])
    a = write(tmp_path / "a.csv", ["label", *files["a"]])
    typo = write(tmp_path / "typo.csv", ["label", *b])
    err = error(capsys, ["compare", gold, a, typo, "--column", "label"])
    assert f"{typo}, line 43: the label 'Pos' does not occur in {gold}" in err


def test_malformed_conll_tags(capsys, files, tmp_path):
    pytest.importorskip("seqeval")
    bad = tmp_path / "bad.conll"
    bad.write_text(GOLD_CONLL.replace("German B-MISC", "German X-MISC"))
    err = error(
        capsys, ["compare", files["gold_conll"], files["s1_conll"], str(bad), "--conll"]
    )
    assert f"{bad}, line 5: the tag 'X-MISC' is not valid in IOB2" in err
    # an I- tag after O starts no entity in IOB2
    bad.write_text(GOLD_CONLL.replace("Peter B-PER", "Peter O"))
    err = error(
        capsys, ["compare", files["gold_conll"], files["s1_conll"], str(bad), "--conll"]
    )
    assert f"{bad}, line 9: the tag 'I-PER' after 'O' belongs to no entity" in err


def test_errors_of_the_package_functions_exit_2(capsys, files):
    err = error(
        capsys,
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric", "f1",
         "--average", "binary"],
    )  # fmt: skip
    assert "--average binary needs two classes" in err
    # a correlation the package refuses: its own message, no traceback
    err = error(
        capsys,
        ["bayes-test", files["ta"], files["tb"], "--triples", "--unpaired",
         "--correlation", "-3"],
    )  # fmt: skip
    assert "correlation" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "g", "a", "b", "--random-state", "-1"],
        ["interval", "g", "a", "--confidence-level", "1.5"],
        ["plan", "--accuracy", "0.9", "--mde", "0"],
        ["bayes-test", "a", "b", "--correlation", "wang"],
        ["model-based", "--lam", "2"],
        ["split", "10", "--out", "o", "--repetitions", "16"],
    ],
)
def test_bad_options_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "record",
    [
        '{"id": 1, "score": 1, "score": 0}',  # flat
        '{"id": 1, "judge": {"score": 1, "score": 0}}',  # nested
        '{"id" : 1, "score" : 1, "score" : 0}',  # spaced
    ],
)
def test_a_json_object_that_names_a_key_twice_is_refused(capsys, tmp_path, record):
    # json.loads keeps the last of the two values without a word
    dup = tmp_path / "dup.jsonl"
    dup.write_text(record + "\n" + '{"id": 2, "score": 1}\n', encoding="utf-8")
    ok = tmp_path / "ok.jsonl"
    ok.write_text('{"id": 1, "score": 1}\n{"id": 2, "score": 0}\n', encoding="utf-8")
    field = ["--score-field", "judge.score"] if "judge" in record else []
    err = error(capsys, ["eval-logs", str(dup), str(ok), *field])
    assert f"{dup}, line 1: the object names 'score' twice" in err
