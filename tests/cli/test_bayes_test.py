"""``sklearn-faithful bayes-test``: paired by default, the paper one option away."""

import pytest

from sklearn_faithful.comparison import (
    bayes_test,
    counts_from_triples,
    paired_bayes_test,
)

from ._util import TRIPLES_A, TRIPLES_B, error, main_json, ok, write

A, B = counts_from_triples(TRIPLES_A), counts_from_triples(TRIPLES_B)


def test_default_is_the_paired_test(runs):
    text = ok(runs, "bayes-test")
    assert text.startswith("Paired Bayes test (per-split differences)")
    res = paired_bayes_test(A, B, metric="precision")
    assert f"{res.p_h1:.4f}" in text
    # the paper's test is named one option away
    assert "--unpaired --correlation wang2019" in text


def test_unpaired_wang2019_is_the_paper(runs):
    text = ok(runs, "bayes-test-paper")
    assert "Bayes test of Wang & Li (2019), correlation='wang2019'" in text
    assert "0.8097" in text  # P(H1) of precision, Table 5
    assert "accept H1" in text


def test_numbers_equal_the_python_api(files):
    base = ["bayes-test", files["ta"], files["tb"], "--triples", "--format", "json"]
    out = main_json(base)
    assert out["test"] == "paired-bayes" and out["correlation"] is None
    for row in out["results"]:
        test = row["test"]
        res = paired_bayes_test(A, B, metric=test["metric"])
        assert test == res.to_dict()
        assert test["p_h1"] == res.p_h1 and test["difference"] == res.difference
        assert test["credible_interval"] == res.credible_interval()._asdict()
        assert row["decision"] == res.decide(0.95)
    # --unpaired: the correction whose intervals held their level
    out = main_json([*base, "--unpaired"])
    assert out["test"] == "bayes" and out["correlation"] == "wang2015"
    for row in out["results"]:
        test = row["test"]
        res = bayes_test(A, B, metric=test["metric"], correlation="wang2015")
        assert test == res.to_dict()
        assert test["p_h1"] == res.p_h1 and test["decision"] == res.decision
        assert test["interval_a"] == res.interval_a._asdict()
        assert row["decision"] == res.decide(0.95)
    # --unpaired --correlation wang2019: bayes_test with the paper's defaults
    out = main_json([*base, "--unpaired", "--correlation", "wang2019"])
    for row in out["results"]:
        test = row["test"]
        res = bayes_test(A, B, metric=test["metric"])
        assert test["p_h1"] == res.p_h1
        assert test["interval_b"] == res.interval_b._asdict()


def test_rope_and_one_metric(files):
    out = main_json(
        ["bayes-test", files["ta"], files["tb"], "--triples", "--rope", "0.005",
         "--metric", "f1", "--format", "json"]
    )  # fmt: skip
    res = paired_bayes_test(A, B, metric="f1", rope=0.005)
    (row,) = out["results"]
    assert row["test"] == res.to_dict()
    assert row["test"]["p_h1"] == res.p_h1
    assert row["test"]["p_equivalent"] == res.p_equivalent
    assert row["decision"] == res.decide(0.95)


def test_counts_in_columns(files, tmp_path):
    # TP FP FN rows under a header, and comma-separated rows with comments
    a = write(tmp_path / "a.txt", ["TP FP FN", *(" ".join(map(str, r)) for r in A)])
    b = write(tmp_path / "b.txt", [f"{r[0]},{r[1]},{r[2]}  # split" for r in B])
    out = main_json(["bayes-test", a, b, "--format", "json"])
    ref = main_json(
        ["bayes-test", files["ta"], files["tb"], "--triples", "--format", "json"]
    )
    assert out["results"] == ref["results"]


@pytest.mark.parametrize("option", [["--correlation", "wang2019"], ["--prior", "2"]])
def test_unpaired_options_need_unpaired(capsys, files, option):
    err = error(capsys, ["bayes-test", files["ta"], files["tb"], "--triples", *option])
    assert f"{option[0]} is an option of the unpaired test; add --unpaired" in err


def test_bad_counts(capsys, files, tmp_path):
    bad = write(tmp_path / "bad.txt", ["TP FP FN", "1 2 3", "# a comment", "4 -5 6"])
    err = error(capsys, ["bayes-test", bad, bad])
    assert f"{bad}, line 4: [4.0, -5.0, 6.0] are not all whole counts >= 0." in err
    short = write(tmp_path / "short.txt", ["3 2 1"])
    err = error(capsys, ["bayes-test", files["ta"], short, "--triples"])
    assert "has 1 splits but" in err
