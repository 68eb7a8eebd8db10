"""``sklearn-faithful compare``."""

import json

import numpy as np
import pytest

from sklearn_faithful.comparison import paired_bayes_test
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.utils._multitest import holm

from ._util import error, main_json, ok, run_main


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
