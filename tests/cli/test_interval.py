"""``sklearn-faithful interval`` and the label, table and probability readers."""

import json

import numpy as np
import pytest

from sklearn_faithful.holdout import bootstrap_confidence_interval

from ._util import CLASSES, main_json, ok, write


def test_interval_end_to_end_with_probability_files(runs, files):
    payload = json.loads(ok(runs, "interval"))
    res = bootstrap_confidence_interval(
        files["y"],
        files["pa"],
        metric="cf1",
        metric_kwargs={"average": "macro", "labels": CLASSES},
        n_resamples=199,
        random_state=0,
    )
    interval = payload["metrics"][0]["interval"]
    assert interval["result"] == "BootstrapIntervalResult"
    assert interval["statistic"] == pytest.approx(res.statistic, rel=1e-12)
    ci = res.confidence_interval._asdict()
    assert interval["confidence_interval"] == pytest.approx(ci)


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
    csv_out = main_json([*base, files["pa_csv"]])
    npy_out = main_json([*base, str(tmp_path / "p.npy")])
    plain = main_json([*base, str(tmp_path / "plain.npy"), "--classes", "neg,neu,pos"])
    assert csv_out["metrics"] == npy_out["metrics"] == plain["metrics"]


def test_tsv_and_jsonl_inputs(files, tmp_path):
    y, a = files["y"], files["a"]
    tsv = ["id\tlabel"] + [f"{i}\t{v}" for i, v in enumerate(y)]
    tsv_a = ["id\tlabel"] + [f"{i}\t{v}" for i, v in enumerate(a)]
    write(tmp_path / "g.tsv", tsv)
    write(tmp_path / "a.tsv", tsv_a)
    write(tmp_path / "g.jsonl", [json.dumps({"label": str(v)}) for v in y])
    write(tmp_path / "a.jsonl", [json.dumps({"label": str(v)}) for v in a])
    base = ["interval", "--n-resamples", "99", "--format", "json"]
    plain = main_json([*base, files["y_txt"], files["a_txt"]])
    tsv_out = main_json(
        [*base, str(tmp_path / "g.tsv"), str(tmp_path / "a.tsv"), "--column", "label"]
    )
    jsonl_out = main_json(
        [*base, str(tmp_path / "g.jsonl"), str(tmp_path / "a.jsonl"), "--field",
         "label"]
    )  # fmt: skip
    assert plain["metrics"] == tsv_out["metrics"] == jsonl_out["metrics"]
    assert plain["metrics"][0]["interval"]["statistic"] == np.mean(a == y)


def test_interval_methods(files):
    base = ["interval", files["y_txt"], files["a_txt"], "--n-resamples", "199",
            "--format", "json"]  # fmt: skip
    for method in ("basic", "bca"):
        out = main_json([*base, "--method", method])
        res = bootstrap_confidence_interval(
            files["y"], files["a"], n_resamples=199, method=method, random_state=0
        )
        interval = out["metrics"][0]["interval"]
        assert out["method"] == interval["method"] == method
        ci = res.confidence_interval._asdict()
        assert interval["confidence_interval"] == pytest.approx(ci)


def test_interval_of_several_metrics_with_groups(files, tmp_path):
    groups = np.array([f"p{i // 4}" for i in range(files["y"].size)])
    path = write(tmp_path / "groups.txt", groups)
    out = main_json(
        ["interval", files["y_txt"], files["a_txt"], "--metric", "recall,accuracy",
         "--groups", path, "--n-resamples", "99", "--format", "json"]
    )  # fmt: skip
    assert out["n_groups"] == 75
    for entry, kwargs in zip(out["metrics"], ({"average": "macro"}, None), strict=True):
        res = bootstrap_confidence_interval(
            files["y"],
            files["a"],
            metric=entry["metric"],
            metric_kwargs=kwargs,
            n_resamples=99,
            random_state=0,
            groups=groups,
        )
        assert entry["interval"] == res.to_dict()
    assert out["signature"]["metric"] == "recall,accuracy"
    assert out["signature"]["groups"] == path
