"""``sklearn-faithful bayes-test``: paired by default, the paper one option away."""

import pytest

from sklearn_faithful.cli import main
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
    # --unpaired: bayes_test with its defaults, whose correlation is the one
    # whose intervals held their level
    out = main_json([*base, "--unpaired"])
    assert out["test"] == "bayes" and out["correlation"] == "wang2015"
    for row in out["results"]:
        test = row["test"]
        res = bayes_test(A, B, metric=test["metric"], random_state=0)
        assert test == res.to_dict()
        assert test["p_h1"] == res.p_h1 and test["decision"] == res.decision
        assert test["interval_a"] == res.interval_a._asdict()
        assert row["decision"] == res.decide(0.95)
    # --unpaired --correlation wang2019: bayes_test with the paper's defaults
    out = main_json([*base, "--unpaired", "--correlation", "wang2019"])
    for row in out["results"]:
        test = row["test"]
        res = bayes_test(A, B, metric=test["metric"], correlation="wang2019")
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


@pytest.mark.parametrize("option", [["--correlation", "wang2019"], ["--prior", "2.5"]])
def test_unpaired_options_need_unpaired(capsys, files, option):
    err = error(capsys, ["bayes-test", files["ta"], files["tb"], "--triples", *option])
    assert (
        f"{option[0]} {option[1]} would have no effect: it applies only to the "
        "unpaired test (--unpaired;" in err
    )


def test_no_seed_since_nothing_is_drawn(capsys, files):
    # the unpaired test integrates its posteriors exactly: a seed would act on
    # nothing, so the command has none (it was accepted and ignored)
    with pytest.raises(SystemExit):
        main(
            [
                "bayes-test",
                files["ta"],
                files["tb"],
                "--unpaired",
                "--random-state",
                "7",
            ]
        )
    assert "unrecognized arguments: --random-state" in capsys.readouterr().err


def test_bad_counts(capsys, files, tmp_path):
    bad = write(tmp_path / "bad.txt", ["TP FP FN", "1 2 3", "# a comment", "4 -5 6"])
    err = error(capsys, ["bayes-test", bad, bad])
    assert f"{bad}, line 4: [4.0, -5.0, 6.0] are not all whole counts >= 0;" in err
    short = write(tmp_path / "short.txt", ["3 2 1"])
    err = error(capsys, ["bayes-test", files["ta"], short, "--triples"])
    assert "has 1 splits but" in err


@pytest.mark.parametrize(
    "value, says",
    [
        ("nan", "holds NaN"),
        ("inf", "holds an infinite value"),
        ("-inf", "holds an infinite value"),
        ("1e400", "beyond the float range"),
        ("1e20", "holds a count above 2**53"),
    ],
)
@pytest.mark.parametrize("triples", [False, True])
def test_nan_inf_and_overflowing_counts_name_file_and_line(
    capsys, tmp_path, value, says, triples
):
    # before: "cannot convert float NaN to integer" with no file or line, and
    # a traceback for infinity; 1e20 wrapped to a negative int64
    rows = ["n_gold n_pred n_correct", "10 12 8", f"10 {value} 8"]
    bad = write(tmp_path / "bad.txt", rows + ["10 12 8"] * 4)
    ok_ = write(tmp_path / "ok.txt", ["10 12 8"] * 6)
    argv = ["bayes-test", ok_, bad, *(["--triples"] if triples else [])]
    err = error(capsys, argv)
    assert f"{bad}, line 3: " in err and says in err
    assert "counts are whole numbers from 0 to 2**53" in err


@pytest.mark.parametrize("rope", ["1", "1.0", "2", "nan", "-0.1"])
def test_rope_that_makes_the_test_vacuous_is_refused(capsys, files, rope):
    # before: --rope 1 called every metric "equivalent" with status 0
    from sklearn_faithful.cli import main

    with pytest.raises(SystemExit) as info:
        main(["bayes-test", files["ta"], files["tb"], "--rope", rope])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --rope: {rope!r} is not a number >= 0 and < 1.0" in err


def test_unpaired_default_correlation_is_bayes_tests(files):
    import inspect

    default = inspect.signature(bayes_test).parameters["correlation"].default
    base = ["bayes-test", files["ta"], files["tb"], "--triples", "--format", "json"]
    out = main_json([*base, "--unpaired"])
    assert out["correlation"] == default
    named = main_json([*base, "--unpaired", "--correlation", default])
    assert named["results"] == out["results"]
