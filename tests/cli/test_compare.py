"""``sklearn-faithful compare``."""

import json

import numpy as np
import pytest

from sklearn_faithful import __version__
from sklearn_faithful.cli import _compare, main
from sklearn_faithful.comparison import paired_bayes_test
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.utils._multitest import holm

from ._util import error, main_json, ok, run_main, stderr_lines, write


def test_compare_end_to_end(runs, files):
    payload = json.loads(ok(runs, "compare"))
    assert payload["command"] == "compare" and payload["n_items"] == 300
    assert payload["multiple_comparisons"] == "holm"
    (entry,) = payload["metrics"]
    assert entry["metric"] == "f1" and entry["average"] == "macro"
    names = [s["name"] for s in entry["systems"]]
    assert (
        names == payload["systems"] == [files["a_txt"], files["b_txt"], files["c_txt"]]
    )
    assert entry["systems"][0]["test"] is None  # the baseline
    raw = [s["test"]["pvalue"] for s in entry["systems"][1:]]
    adjusted = [s["pvalue_adjusted"] for s in entry["systems"][1:]]
    assert adjusted == holm(raw).tolist()
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], files["c_txt"],
            "--metric", "f1", "--n-resamples", "199"]  # fmt: skip
    code, text = run_main(argv)
    assert code == 0
    assert "Baseline: " in text and "Holm" in text and "f1 (95% CI)" in text


def test_compare_numbers_equal_the_python_api(files):
    # the same seed gives the Python API's numbers, on the labels as strings
    out = main_json(
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
    for row, pred in zip(out["metrics"][0]["systems"], (a, b), strict=True):
        # each system's interval is the result's to_dict(), with its numbers
        res = bootstrap_confidence_interval(y, pred, **kw)
        assert row["interval"] == res.to_dict()
        assert row["interval"]["statistic"] == res.statistic
        assert (
            row["interval"]["confidence_interval"] == res.confidence_interval._asdict()
        )
        assert row["interval"]["standard_error"] == res.standard_error
    res = paired_bootstrap_test(y, a, b, **kw)
    row = out["metrics"][0]["systems"][1]
    assert row["test"] == res.to_dict()
    assert row["test"]["statistic"] == res.statistic
    assert row["test"]["pvalue"] == res.pvalue
    assert row["test"]["confidence_interval"] == res.confidence_interval()._asdict()
    assert out["multiple_comparisons"] == "none"
    assert row["pvalue_adjusted"] == res.pvalue


def test_compare_permutation_and_sign(files):
    y, a, b = files["y"], files["a"], files["b"]
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"],
            "--n-resamples", "99", "--format", "json"]  # fmt: skip
    out = main_json([*argv, "--test", "permutation"])
    res = paired_permutation_test(y, a, b, n_resamples=99, random_state=0)
    assert out["metrics"][0]["systems"][1]["test"] == res.to_dict()
    assert out["metrics"][0]["systems"][1]["test"]["pvalue"] == res.pvalue
    out = main_json([*argv, "--test", "sign"])
    base, row = out["metrics"][0]["systems"]
    assert row["test"] == sign_test(y, a, b).to_dict()
    assert row["test"]["n_b_better"] == int(np.sum((b == y) & (a != y)))
    assert row["test"]["n_a_better"] == int(np.sum((a == y) & (b != y)))
    assert row["interval"]["statistic"] - base["interval"]["statistic"] == (
        pytest.approx(np.mean(b == y) - np.mean(a == y))
    )


def test_compare_paired_bayes_uses_bcv_halves(files):
    from sklearn.metrics import multilabel_confusion_matrix

    from sklearn_faithful.model_selection import BlockRegularizedMx2CV

    out = main_json(
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
    base, row = out["metrics"][0]["systems"]
    assert row["test"] == res.to_dict()
    assert row["test"]["p_h1"] == res.p_h1
    assert row["test"]["difference"] == res.difference
    assert row["decision"] == res.decide(0.95) and base["decision"] is None
    assert out["threshold"] == 0.95 and "pvalue_adjusted" not in row


def test_compare_paired_bayes_needs_a_count_metric(capsys, files):
    err = error(
        capsys,
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--test",
         "paired-bayes"],
    )  # fmt: skip
    assert "--metric accuracy is not one of them" in err


def test_conll_entity_level(files):
    pytest.importorskip("seqeval")
    out = main_json(
        ["compare", files["gold_conll"], files["s1_conll"], files["s2_conll"],
         "--conll", "--metric", "f1", "--n-resamples", "99", "--format", "json"]
    )  # fmt: skip
    assert out["entity_level"] and out["n_items"] == 4 and out["items"] == "sentences"
    # 6 gold entities; s1 misses MISC: P = 5/5, R = 5/6
    a, b = (s["interval"]["statistic"] for s in out["metrics"][0]["systems"])
    assert a == pytest.approx(2 * 1 * (5 / 6) / (1 + 5 / 6))
    # s2 tags Werner Zwingmann as LOC: 5 of its 6 entities right, 5 of 6 found
    assert b == pytest.approx(5 / 6)
    assert out["metrics"][0]["systems"][1]["test"]["statistic"] == pytest.approx(
        5 / 6 - a
    )


def test_several_metrics_in_one_run(files):
    # each metric's entry is what a run with that metric alone prints
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], files["c_txt"],
            "--n-resamples", "99", "--format", "json"]  # fmt: skip
    both = main_json([*argv, "--metric", "f1,accuracy"])
    assert [m["metric"] for m in both["metrics"]] == ["f1", "accuracy"]
    assert [m["average"] for m in both["metrics"]] == ["macro", None]
    for entry in both["metrics"]:
        (alone,) = main_json([*argv, "--metric", entry["metric"]])["metrics"]
        assert entry == alone
    code, text = run_main([*argv[:-2], "--metric", "accuracy,f1"])
    assert code == 0
    assert "accuracy, f1 (macro) on 300 items" in text
    assert "accuracy (95% CI)" in text and "f1 (95% CI)" in text
    assert "Holm's method for each metric" in text


def test_every_table_metric_by_name(files):
    # metrics that do not average over classes take no --average
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"],
            "--n-resamples", "99", "--format", "json", "--metric",
            "balanced_accuracy,matthews_corrcoef,cohen_kappa,jaccard"]  # fmt: skip
    out = main_json(argv)
    assert [m["average"] for m in out["metrics"]] == [None, None, None, "macro"]
    y, a = files["y"], files["a"]
    (row, _) = out["metrics"][0]["systems"]
    res = bootstrap_confidence_interval(
        y, a, metric="balanced_accuracy", n_resamples=99, random_state=0
    )
    assert row["interval"] == res.to_dict()


def test_metrics_of_labels_and_probabilities_do_not_mix(capsys, files):
    err = error(
        capsys,
        ["compare", files["y_txt"], files["pa_csv"], files["pb_csv"], "--metric",
         "cf1,f1"],
    )  # fmt: skip
    assert "run them separately" in err
    with pytest.raises(SystemExit):
        main(["compare", "g", "a", "b", "--metric", "f1,f2"])
    assert "'f2' is not one of accuracy" in capsys.readouterr().err


def test_signature_line_and_json(files):
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric",
            "f1,accuracy", "--test", "permutation", "--n-resamples", "99",
            "--random-state", "3", "--average", "weighted"]  # fmt: skip
    code, text = run_main(argv)
    assert code == 0
    out = main_json([*argv, "--format", "json"])
    sig = out["signature"]
    assert sig == {
        "version": __version__, "command": "compare", "seed": 3,
        "test": "permutation", "resamples": 99, "level": 0.95,
        "metric": "f1,accuracy", "average": "weighted", "adjust": "none",
    }  # fmt: skip
    assert text.splitlines()[-1] == (
        f"sklearn-faithful {__version__}|command:compare|seed:3|test:permutation|"
        "resamples:99|level:0.95|metric:f1,accuracy|average:weighted|adjust:none"
    )
    # the signature's options give the same numbers
    again = main_json(
        ["compare", files["y_txt"], files["a_txt"], files["b_txt"],
         "--random-state", str(sig["seed"]), "--test", sig["test"],
         "--n-resamples", str(sig["resamples"]), "--confidence-level",
         str(sig["level"]), "--metric", sig["metric"], "--average", sig["average"],
         "--format", "json"]
    )  # fmt: skip
    assert again["metrics"] == out["metrics"]


def _clusters(n=300, size=5):
    """Cluster labels as text, sorted differently from their numbers."""
    return np.array([f"p{i // size}" for i in range(n)])


def test_groups_resample_whole_clusters(files, tmp_path):
    groups = _clusters()
    path = write(tmp_path / "groups.txt", groups)
    y, a, b, c = files["y"], files["a"], files["b"], files["c"]
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], files["c_txt"],
            "--metric", "f1", "--n-resamples", "99", "--format", "json"]  # fmt: skip
    kw = dict(metric="f1", metric_kwargs={"average": "macro"}, n_resamples=99,
              random_state=0, groups=groups)  # fmt: skip
    for test, func in (("paired-bootstrap", paired_bootstrap_test),
                       ("permutation", paired_permutation_test)):  # fmt: skip
        out = main_json([*argv, "--groups", path, "--test", test])
        assert out["groups"] == path and out["n_groups"] == 60
        rows = out["metrics"][0]["systems"]
        for row, pred in zip(rows, (a, b, c), strict=True):
            res = bootstrap_confidence_interval(y, pred, **kw)
            assert row["interval"] == res.to_dict()
        for row, pred in zip(rows[1:], (b, c), strict=True):
            assert row["test"] == func(y, a, pred, **kw).to_dict()
        assert out["signature"]["groups"] == path
    # the clusters change the numbers
    plain = main_json(argv)["metrics"][0]["systems"][0]["interval"]
    assert plain != rows[0]["interval"]


def test_few_clusters_warn_in_the_json_and_on_standard_error(capsys, files, tmp_path):
    path = write(tmp_path / "groups.txt", _clusters(size=25))  # 12 clusters
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"], "--metric",
            "f1", "--n-resamples", "99", "--groups", path]  # fmt: skip
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    payload = json.loads(out)
    assert {w["category"] for w in payload["warnings"]} == {"RuntimeWarning"}
    # in the command line's words, as on standard error (groups -> --groups)
    messages = [w["message"] for w in payload["warnings"]]
    assert any(m.startswith("--groups names only 12 clusters; ") for m in messages)
    assert stderr_lines(payload["warnings"]) == err.splitlines()
    # the text output is the same payload's table, and standard error the same
    assert main(argv) == 0
    text, text_err = capsys.readouterr()
    assert text_err == err
    del payload["warnings"]
    assert text == _compare.text(payload) + "\n"


def test_groups_from_a_column_or_a_field(files, tmp_path):
    y, a, b = files["y"], files["a"], files["b"]
    groups = _clusters()
    tables, lines = {}, {}
    for name, values in (("g", y), ("a", a), ("b", b)):
        tables[name] = write(
            tmp_path / f"{name}.csv",
            ["label,passage"]
            + [f"{v},{g}" for v, g in zip(values, groups, strict=True)],
        )
        lines[name] = write(tmp_path / f"{name}.jsonl", [
            json.dumps({"label": str(v), "passage": str(g)})
            for v, g in zip(values, groups, strict=True)])  # fmt: skip
    base = ["--n-resamples", "99", "--format", "json"]
    by_file = main_json(
        [
            "compare",
            files["y_txt"],
            files["a_txt"],
            files["b_txt"],
            "--groups",
            write(tmp_path / "groups.txt", groups),
            *base,
        ]
    )
    by_column = main_json(
        [
            "compare",
            tables["g"],
            tables["a"],
            tables["b"],
            "--column",
            "label",
            "--groups-column",
            "passage",
            *base,
        ]
    )
    by_field = main_json(["compare", lines["g"], lines["a"], lines["b"], "--field",
                          "label", "--groups-field", "passage", *base])  # fmt: skip

    def numbers(out):
        return [(s["interval"], s["test"]) for s in out["metrics"][0]["systems"]]

    assert numbers(by_file) == numbers(by_column) == numbers(by_field)
    assert by_file["metrics"][0]["systems"][0]["interval"]["n_clusters"] == 60
    assert by_column["groups"] == "column=passage"
    assert by_field["signature"]["groups"] == "field=passage"


def test_groups_errors(capsys, files, tmp_path):
    argv = ["compare", files["y_txt"], files["a_txt"], files["b_txt"]]
    short = write(tmp_path / "short.txt", _clusters()[:-1])
    err = error(capsys, [*argv, "--groups", short])
    assert f"{short} has 299 groups but {files['y_txt']} has 300 items" in err
    path = write(tmp_path / "groups.txt", _clusters())
    err = error(capsys, [*argv, "--groups", path, "--test", "sign"])
    assert "--test sign counts the items as independent" in err
    with pytest.raises(SystemExit):
        main([*argv, "--groups", path, "--groups-column", "doc"])
    assert "not allowed with argument" in capsys.readouterr().err
