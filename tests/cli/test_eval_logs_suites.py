"""``eval-logs --task-field``: a suite of tasks, each task or each item equal."""

import json

import numpy as np
import pytest

from sklearn_faithful.eval_logs import join_runs, suite_scores

from ._util import error, main_json, run_main, write

FAST = ["--n-resamples", "199", "--random-state", "0"]


def _records(seed, rates):
    """One run's records of two tasks of unequal sizes, ids from 0 in each."""
    rng = np.random.default_rng(seed)
    out = []
    for task, n, rate in (("arc", 30, rates[0]), ("gsm8k", 90, rates[1])):
        out += [
            {"task": task, "doc_id": i, "acc": int(rng.random() < rate)}
            for i in range(n)
        ]
    return out


def _files(tmp_path, runs=None):
    runs = runs or {"A": _records(0, (0.5, 0.8)), "B": _records(1, (0.7, 0.7))}
    paths = []
    for name, records in runs.items():
        paths.append(
            write(tmp_path / f"{name}.jsonl", [json.dumps(r) for r in records])
        )
    return runs, paths


ARGS = ["--id-field", "doc_id", "--score-field", "acc", "--task-field", "task"]


@pytest.mark.parametrize("weighting", ["task", "item"])
def test_json_suite_is_the_api_result(tmp_path, weighting):
    runs, paths = _files(tmp_path)
    payload = main_json(
        ["eval-logs", *paths, *ARGS, "--suite-weighting", weighting, *FAST,
         "--format", "json"]
    )  # fmt: skip
    logs = {k: {f: [r[f] for r in v] for f in ("task", "doc_id", "acc")}
            for k, v in runs.items()}  # fmt: skip
    table = join_runs(logs, id_field="doc_id", score_field="acc", task_field="task")
    expected = suite_scores(
        table, weighting=weighting, n_resamples=199, random_state=0
    ).to_dict()
    assert payload["suite"] == expected
    assert payload["join"]["n_tasks"] == 2 and payload["join"]["n_items"] == 120
    assert payload["signature"]["suite_weighting"] == weighting
    a = np.array([r["acc"] for r in runs["A"]], dtype=float)
    hand = (a[:30].mean() + a[30:].mean()) / 2 if weighting == "task" else a.mean()
    assert payload["suite"]["runs"][0]["score"] == pytest.approx(hand)


def test_text_names_the_weighting(tmp_path):
    _, paths = _files(tmp_path)
    code, out = run_main(["eval-logs", *paths, *ARGS, *FAST])
    assert code == 0
    assert "weighting='task'" in out and "score (task-weighted)" in out
    assert "difference (task-weighted)" in out
    assert "task_field:task|suite_weighting:task" in out


def test_missing_task_names_the_file_and_task(tmp_path, capsys):
    runs = {"A": _records(0, (0.5, 0.8)), "B": _records(1, (0.7, 0.7))[:30]}
    _, paths = _files(tmp_path, runs)
    err = error(capsys, ["eval-logs", *paths, *ARGS, *FAST])
    assert f"{paths[1]} has no record of the task 'gsm8k'" in err
    assert paths[0] in err


def test_suite_weighting_without_task_field_is_refused(tmp_path, capsys):
    _, paths = _files(tmp_path)
    argv = ["eval-logs", *paths, "--id-field", "doc_id", "--score-field", "acc"]
    err = error(capsys, [*argv, "--suite-weighting", "item", *FAST])
    assert "--suite-weighting" in err and "--task-field" in err
