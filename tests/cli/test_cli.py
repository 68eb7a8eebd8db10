"""The command line."""

import contextlib
import io
import json
import subprocess
import sys

import numpy as np
import pytest

from sklearn_faithful.cli import main
from sklearn_faithful.comparison import (
    bayes_test,
    counts_from_triples,
    paired_bayes_test,
)
from sklearn_faithful.gate import required_sample_size
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)
from sklearn_faithful.model_based import model_based_test_from_summary
from sklearn_faithful.utils._multitest import holm


def test_demo_prints_both_metrics(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "F1 (macro)" in out and "cF1 (macro)" in out
    assert "logistic regression" in out
    assert "Probabilistic confusion matrix" in out
    # the Bayes comparison of two pipelines, under both corrections
    assert "P(H0)" in out and "correlation='wang2015'" in out
    assert "random_state=0" in out
    # the model-based test, with the paper's BOLD row
    assert "Model-based metric test" in out and "(-0.00978, 0.00538)" in out


def test_module_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "sklearn_faithful", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("sklearn-faithful ")


def test_bad_seed_is_a_usage_error(capsys):
    for seed in ("-1", "abc", str(2**32)):
        with pytest.raises(SystemExit) as info:
            main(["demo", "--random-state", seed])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "--random-state" in err and "not a seed" in err
        assert "Traceback" not in err


def test_closed_pipe_ends_quietly():
    # `sklearn-faithful demo | head -n 1`: the reader leaves after one line
    demo = subprocess.Popen(
        [sys.executable, "-m", "sklearn_faithful", "demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    demo.stdout.readline()
    demo.stdout.close()
    err = demo.stderr.read().decode()
    demo.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert demo.returncode in (0, 141)


# ---------------------------------------------------------------------------
# The commands for people who hold prediction files. Each subcommand runs once
# end to end through `python -m sklearn_faithful`, all of them at the same time
# (module fixture), on files written here; the checks of numbers and errors
# call main() in-process, which is what the subprocess runs.

CLASSES = np.array(["neg", "neu", "pos"])
# Table 5 of Wang & Li (2019): (n_gold, n_pred, n_correct) of the two models
TRIPLES_A = [[3146, 2242, 2088], [3175, 2298, 2109], [3142, 2288, 2098],
             [3179, 2250, 2085], [3143, 2261, 2069], [3178, 2245, 2068]]  # fmt: skip
TRIPLES_B = [[3146, 2226, 2075], [3175, 2289, 2114], [3142, 2255, 2080],
             [3179, 2229, 2071], [3143, 2210, 2041], [3178, 2218, 2054]]  # fmt: skip

GOLD_CONLL = """\
-DOCSTART- O

EU B-ORG
rejects O
German B-MISC
call O

Peter B-PER
Blackburn I-PER

BRUSSELS B-LOC
1996-08-22 O

Germany B-LOC
's O
Werner B-PER
Zwingmann I-PER
"""


def _write(path, lines):
    path.write_text("".join(f"{v}\n" for v in lines), encoding="utf-8")
    return str(path)


def _systems(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.choice(CLASSES, n)

    def noisy(p):
        return np.where(rng.random(n) < p, y, rng.choice(CLASSES, n))

    return y, noisy(0.7), noisy(0.85), noisy(0.72)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    y, a, b, c = _systems()
    out = {"dir": d, "y": y, "a": a, "b": b, "c": c}
    for name in ("y", "a", "b", "c"):
        out[name + "_txt"] = _write(d / f"{name}.txt", out[name])
    rng = np.random.default_rng(1)
    for name in ("pa", "pb"):
        proba = rng.dirichlet(np.ones(3), size=y.size)
        out[name] = proba
        rows = [",".join(repr(float(v)) for v in row) for row in proba]
        out[name + "_csv"] = _write(d / f"{name}.csv", ["neg,neu,pos", *rows])
    out["ta"] = _write(d / "ta.txt", [" ".join(map(str, r)) for r in TRIPLES_A])
    out["tb"] = _write(d / "tb.txt", [" ".join(map(str, r)) for r in TRIPLES_B])
    gold = d / "gold.conll"
    gold.write_text(GOLD_CONLL, encoding="utf-8")
    out["gold_conll"] = str(gold)
    out["s1_conll"] = str(d / "s1.conll")
    (d / "s1.conll").write_text(
        GOLD_CONLL.replace("German B-MISC", "German O"), encoding="utf-8"
    )
    out["s2_conll"] = str(d / "s2.conll")
    (d / "s2.conll").write_text(
        GOLD_CONLL.replace(
            "Werner B-PER\nZwingmann I-PER", "Werner B-LOC\nZwingmann I-LOC"
        ),
        encoding="utf-8",
    )
    return out


@pytest.fixture(scope="module")
def runs(files):
    """Every subcommand once, through the module entry point, in parallel."""
    f = files
    commands = {
        "compare": ["compare", f["y_txt"], f["a_txt"], f["b_txt"], f["c_txt"],
                    "--metric", "f1", "--n-resamples", "199", "--format", "json"],
        "interval": ["interval", f["y_txt"], f["pa_csv"], "--metric", "cf1",
                     "--n-resamples", "199", "--format", "json"],
        "split": ["split", f["y_txt"], "--labels", f["y_txt"], "--out",
                  str(f["dir"] / "splits"), "--format", "json"],
        "bayes-test": ["bayes-test", f["ta"], f["tb"], "--triples"],
        "plan": ["plan", "--accuracy", "0.9", "--mde", "0.02", "--format", "json"],
        "model-based": ["model-based", "--mean-c", "0.00456", "--n-c", "23679",
                        "--mean-t", "0.00236", "--n-t", "23679", "--precision",
                        "0.8897", "--false-omission-rate", "0.22769"],
    }  # fmt: skip
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "sklearn_faithful", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, argv in commands.items()
    }
    done = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        done[name] = (proc.returncode, out, err)
    return done


def _ok(runs, name):
    code, out, err = runs[name]
    assert code == 0, err
    assert "Traceback" not in err
    return out


def test_compare_end_to_end(runs, files):
    payload = json.loads(_ok(runs, "compare"))
    assert payload["command"] == "compare" and payload["n_items"] == 300
    assert payload["multiple_comparisons"] == "holm"
    names = [s["name"] for s in payload["systems"]]
    assert names == [files["a_txt"], files["b_txt"], files["c_txt"]]
    raw = [s["pvalue"] for s in payload["systems"][1:]]
    adjusted = [s["pvalue_adjusted"] for s in payload["systems"][1:]]
    assert adjusted == holm(raw).tolist()
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], files["c_txt"],
            "--metric", "f1", "--n-resamples", "199"]  # fmt: skip
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(argv) == 0
    text = buf.getvalue()
    assert "Baseline: " in text and "Holm" in text and "f1 (95% CI)" in text


def test_compare_numbers_equal_the_python_api(files):
    # the same seed gives the Python API's numbers, on the labels as strings
    out = _main_json(
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric",
         "f1", "--n-resamples", "199", "--random-state", "7", "--format", "json"]
    )  # fmt: skip
    kw = dict(
        metric="f1",
        metric_kwargs={"average": "macro"},
        n_resamples=199,
        random_state=7,
    )
    y, a, b = files["y"], files["a"], files["b"]
    for row, pred in zip(out["systems"], (a, b), strict=True):
        res = bootstrap_confidence_interval(y, pred, **kw)
        assert row["score"] == res.statistic
        assert row["interval"] == list(res.confidence_interval)
    res = paired_bootstrap_test(y, a, b, **kw)
    row = out["systems"][1]
    assert row["difference"] == res.statistic and row["pvalue"] == res.pvalue
    assert row["difference_interval"] == list(res.confidence_interval)
    assert out["multiple_comparisons"] == "none"
    assert row["pvalue_adjusted"] == row["pvalue"]


def _main_json(argv, capsys=None):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(argv) == 0
    return json.loads(buf.getvalue())


def test_compare_permutation_and_sign(files):
    y, a, b = files["y"], files["a"], files["b"]
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"],
            "--n-resamples", "99", "--format", "json"]  # fmt: skip
    out = _main_json([*argv, "--test", "permutation"])
    res = paired_permutation_test(y, a, b, n_resamples=99, random_state=0)
    assert out["systems"][1]["pvalue"] == res.pvalue
    out = _main_json([*argv, "--test", "sign"])
    row = out["systems"][1]
    assert row["n_b_better"] == int(np.sum((b == y) & (a != y)))
    assert row["n_a_better"] == int(np.sum((a == y) & (b != y)))
    assert row["difference"] == pytest.approx(np.mean(b == y) - np.mean(a == y))


def test_compare_paired_bayes_uses_bcv_halves(files):
    from sklearn.metrics import multilabel_confusion_matrix

    from sklearn_faithful.model_selection import BlockRegularizedMx2CV

    out = _main_json(
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric",
         "f1", "--test", "paired-bayes", "--average", "micro", "--format", "json"]
    )  # fmt: skip
    y, a, b = files["y"], files["a"], files["b"]
    cv = BlockRegularizedMx2CV(3, random_state=0)
    tests = [t for _, t in cv.split(np.zeros((y.size, 1)), y)]

    def counts(pred):
        m = np.array([multilabel_confusion_matrix(y[t], pred[t]) for t in tests])
        return np.stack([m[..., 1, 1], m[..., 0, 1], m[..., 1, 0]], axis=-1)

    res = paired_bayes_test(counts(a), counts(b), metric="f1", average="micro")
    row = out["systems"][1]
    assert row["p_h1"] == res.p_h1 and row["difference"] == res.difference
    assert row["pvalue"] is None and row["decision"] == res.decide(0.95)


def test_interval_end_to_end_with_probability_files(runs, files):
    payload = json.loads(_ok(runs, "interval"))
    res = bootstrap_confidence_interval(
        files["y"],
        files["pa"],
        metric="cf1",
        metric_kwargs={"average": "macro", "labels": CLASSES},
        n_resamples=199,
        random_state=0,
    )
    assert payload["score"] == pytest.approx(res.statistic, rel=1e-12)
    assert payload["interval"] == pytest.approx(list(res.confidence_interval))


def test_probability_files_npy_and_column_order(files, tmp_path):
    proba = files["pa"]
    structured = np.zeros(
        proba.shape[0], dtype=[("pos", "f8"), ("neg", "f8"), ("neu", "f8")]
    )
    for j, name in ((2, "pos"), (0, "neg"), (1, "neu")):
        structured[name] = proba[:, j]
    np.save(tmp_path / "p.npy", structured)
    np.save(tmp_path / "plain.npy", proba)
    base = ["interval", files["y_txt"], "--metric", "cf1", "--n-resamples", "99",
            "--format", "json"]  # fmt: skip
    csv_out = _main_json([*base, files["pa_csv"]])
    npy_out = _main_json([*base, str(tmp_path / "p.npy")])
    plain = _main_json([*base, str(tmp_path / "plain.npy"), "--classes", "neg,neu,pos"])
    assert csv_out["score"] == npy_out["score"] == plain["score"]
    assert csv_out["interval"] == npy_out["interval"] == plain["interval"]


def test_tsv_and_jsonl_inputs(files, tmp_path):
    y, a = files["y"], files["a"]
    tsv = ["id\tlabel"] + [f"{i}\t{v}" for i, v in enumerate(y)]
    tsv_a = ["id\tlabel"] + [f"{i}\t{v}" for i, v in enumerate(a)]
    _write(tmp_path / "g.tsv", tsv)
    _write(tmp_path / "a.tsv", tsv_a)
    _write(tmp_path / "g.jsonl", [json.dumps({"label": str(v)}) for v in y])
    _write(tmp_path / "a.jsonl", [json.dumps({"label": str(v)}) for v in a])
    base = ["interval", "--n-resamples", "99", "--format", "json"]
    plain = _main_json([*base, files["y_txt"], files["a_txt"]])
    tsv_out = _main_json(
        [*base, str(tmp_path / "g.tsv"), str(tmp_path / "a.tsv"), "--column", "label"]
    )
    jsonl_out = _main_json(
        [
            *base,
            str(tmp_path / "g.jsonl"),
            str(tmp_path / "a.jsonl"),
            "--field",
            "label",
        ]
    )
    assert plain["score"] == tsv_out["score"] == jsonl_out["score"] == np.mean(a == y)
    assert plain["interval"] == tsv_out["interval"] == jsonl_out["interval"]


def test_split_end_to_end(runs, files):
    payload = json.loads(_ok(runs, "split"))
    assert payload["regularized_by"] == "labels" and len(payload["splits"]) == 6
    assert payload["balance"]["max_size_difference"] <= 1
    y = files["y"]
    for s in payload["splits"]:
        train = np.loadtxt(s["train"], dtype=int)
        test = np.loadtxt(s["test"], dtype=int)
        assert np.array_equal(np.sort(np.r_[train, test]), np.arange(y.size))
    # the index files are the splitter's own splits
    from sklearn_faithful.model_selection import BlockRegularizedMx2CV

    cv = BlockRegularizedMx2CV(3, random_state=0)
    _, test = next(cv.split(np.zeros((y.size, 1)), y))
    first = np.loadtxt(payload["splits"][0]["test"], dtype=int)
    assert np.array_equal(first, np.sort(test))


def test_split_by_groups_and_n(tmp_path):
    groups = _write(tmp_path / "g.txt", [f"doc{i // 5}" for i in range(80)])
    out = _main_json(
        ["split", "80", "--groups", groups, "--out", str(tmp_path / "o"), "--format",
         "json"]
    )  # fmt: skip
    assert out["regularized_by"] == "groups" and out["n_items"] == 80
    for s in out["splits"]:
        test = np.loadtxt(s["test"], dtype=int)
        assert set(np.bincount(test // 5)) <= {0, 5}  # documents stay whole


def test_bayes_test_end_to_end(runs):
    text = _ok(runs, "bayes-test")
    assert "precision" in text and "0.8097" in text  # P(H1), Table 5
    assert "accept H1" in text


def test_bayes_test_numbers_equal_the_python_api(files):
    a, b = counts_from_triples(TRIPLES_A), counts_from_triples(TRIPLES_B)
    out = _main_json(["bayes-test", files["ta"], files["tb"], "--triples",
                      "--format", "json"])  # fmt: skip
    for row in out["results"]:
        res = bayes_test(a, b, metric=row["metric"])
        assert row["p_h1"] == res.p_h1 and row["paper_decision"] == res.decision
        assert row["interval_a"] == list(res.interval_a)
    out = _main_json(
        ["bayes-test", files["ta"], files["tb"], "--triples", "--paired",
         "--rope", "0.005", "--metric", "f1", "--format", "json"]
    )  # fmt: skip
    res = paired_bayes_test(a, b, metric="f1", rope=0.005)
    (row,) = out["results"]
    assert row["p_h1"] == res.p_h1 and row["p_equivalent"] == res.p_equivalent
    assert row["decision"] == res.decide(0.95)


def test_plan_and_model_based_end_to_end(runs):
    payload = json.loads(_ok(runs, "plan"))
    n, table = required_sample_size(0.3, 0.02, return_table=True)
    assert payload["n"] == n == 2783
    assert [r["n"] for r in payload["table"]] == list(table["n"])
    assert payload["threshold"] < 0.9
    text = _ok(runs, "model-based")
    res = model_based_test_from_summary(
        0.00456, 23679, 0.00236, 23679, precision=0.8897, false_omission_rate=0.22769
    )
    assert res.summary() in text and "(-0.00978, 0.00538)" in text


def test_conll_entity_level(files):
    pytest.importorskip("seqeval")
    out = _main_json(
        ["compare", files["gold_conll"], files["s1_conll"], files["s2_conll"],
         "--conll", "--metric", "f1", "--n-resamples", "99", "--format", "json"]
    )  # fmt: skip
    assert out["entity_level"] and out["n_items"] == 4 and out["items"] == "sentences"
    # 6 gold entities; s1 misses MISC: P = 5/5, R = 5/6
    a, b = out["systems"]
    assert a["score"] == pytest.approx(2 * 1 * (5 / 6) / (1 + 5 / 6))
    # s2 tags Werner Zwingmann as LOC: 5 of its 6 entities right, 5 of 6 found
    assert b["score"] == pytest.approx(5 / 6)
    assert b["difference"] == pytest.approx(5 / 6 - a["score"])


def test_conll_split_balances_entity_types(files, tmp_path):
    pytest.importorskip("seqeval")
    out = _main_json(
        ["split", files["gold_conll"], "--conll", "--repetitions", "1", "--out",
         str(tmp_path / "o"), "--format", "json"]
    )  # fmt: skip
    assert out["items"] == "sentences" and out["n_items"] == 4
    assert out["columns"] == ["LOC", "MISC", "ORG", "PER"]


def _statsmodels_holm(pvalues):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    return multitest.multipletests(pvalues, method="holm")[1]


def test_holm_against_statsmodels_and_by_hand(reference):
    p = [0.01, 0.04, 0.03, 0.005]
    # by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, then running max
    expected = [0.03, 0.06, 0.06, 0.02]
    assert holm(p) == pytest.approx(expected)
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = rng.random(rng.integers(1, 8)) ** 3
        assert holm(p) == pytest.approx(reference(_statsmodels_holm, p), abs=1e-15)


def test_closed_pipe_ends_quietly_for_file_commands(files):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sklearn_faithful",
            "plan",
            "--sigma",
            "0.3",
            "--mde",
            "0.0001",
        ],  # fmt: skip
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader leaves before a line is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode in (0, 141)


# ---------------------------------------------------------------- bad input


def _error(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith(f"sklearn-faithful {argv[0]}: error: ")
    return err


def test_missing_file(capsys, files, tmp_path):
    missing = str(tmp_path / "nope.txt")
    err = _error(capsys, ["compare", missing, files["a_txt"], files["b_txt"]])
    assert f"{missing}: no such file; check the path" in err


def test_empty_file(capsys, files, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    err = _error(capsys, ["compare", files["y_txt"], str(empty), files["b_txt"]])
    assert f"{empty} is empty" in err


def test_files_of_unequal_length(capsys, files, tmp_path):
    short = _write(tmp_path / "short.txt", files["b"][:-1])
    err = _error(capsys, ["compare", files["y_txt"], files["a_txt"], short])
    assert f"{short} has 299 lines but {files['y_txt']} has 300" in err


def test_non_numeric_probability(capsys, files, tmp_path):
    bad = _write(tmp_path / "p.csv", ["neg,neu,pos", "0.2,0.3,0.5", "0.1,abc,0.9"])
    gold = _write(tmp_path / "g.txt", ["neg", "pos"])
    err = _error(capsys, ["interval", gold, bad, "--metric", "cf1"])
    assert f"{bad}, line 3, column 'neu': 'abc' is not a number" in err


def test_probabilities_that_do_not_sum_to_one(capsys, tmp_path):
    bad = _write(tmp_path / "p.csv", ["neg,neu,pos", "0.2,0.3,0.5", "0.1,0.3,0.4"])
    gold = _write(tmp_path / "g.txt", ["neg", "pos"])
    err = _error(capsys, ["interval", gold, bad, "--metric", "cf1"])
    assert f"{bad}, line 3: the probabilities sum to 0.8, not 1" in err
    assert "normalise the rows" in err


def test_unknown_label_in_a_system(capsys, files, tmp_path):
    b = files["b"].copy()
    b[41] = "Pos"
    typo = _write(tmp_path / "typo.txt", b)
    err = _error(capsys, ["compare", files["y_txt"], files["a_txt"], typo])
    assert f"{typo}, line 42: the label 'Pos' does not occur in" in err


def test_malformed_conll_tags(capsys, files, tmp_path):
    pytest.importorskip("seqeval")
    bad = tmp_path / "bad.conll"
    bad.write_text(GOLD_CONLL.replace("German B-MISC", "German X-MISC"))
    err = _error(
        capsys, ["compare", files["gold_conll"], files["s1_conll"], str(bad), "--conll"]
    )
    assert f"{bad}, line 5: the tag 'X-MISC' is not valid in IOB2" in err
    # an I- tag after O starts no entity in IOB2
    bad.write_text(GOLD_CONLL.replace("Peter B-PER", "Peter O"))
    err = _error(
        capsys, ["compare", files["gold_conll"], files["s1_conll"], str(bad), "--conll"]
    )
    assert f"{bad}, line 9: the tag 'I-PER' after 'O' belongs to no entity" in err


def test_errors_of_the_package_functions_exit_2(capsys, files):
    # the package's own validation (here: binary average on three classes)
    err = _error(
        capsys,
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric", "f1",
         "--average", "binary"],
    )  # fmt: skip
    assert "--average binary needs two classes" in err
    err = _error(capsys, ["bayes-test", files["ta"], files["tb"], "--correlation", "x"])
    assert "correlation" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "g", "a", "b", "--random-state", "-1"],
        ["interval", "g", "a", "--confidence-level", "1.5"],
        ["plan", "--accuracy", "0.9", "--mde", "0"],
    ],
)
def test_bad_options_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
