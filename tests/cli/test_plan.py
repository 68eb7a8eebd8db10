"""``sklearn-faithful plan``."""

import json

import pytest

from sklearn_faithful.gate import regression_threshold, required_sample_size

from ._util import run_main


def test_plan_end_to_end(runs):
    code, out, err = runs["plan"]
    assert code == 0, err
    payload = json.loads(out)
    n, table = required_sample_size(0.3, 0.02, return_table=True)
    assert payload["n"] == n == 2783
    assert [r["n"] for r in payload["table"]] == list(table["n"])
    assert payload["threshold"] == pytest.approx(regression_threshold(0.9, 0.3, n))
    assert payload["threshold"] < 0.9


def test_plan_text_for_an_error_rate():
    code, out = run_main(
        ["plan", "--sigma", "0.3", "--mde", "0.01", "--reference-mean", "0.1",
         "--lower-is-better"]
    )  # fmt: skip
    assert code == 0
    assert "items per run:" in out and "threshold: a new run fails" in out
    threshold = float(out.split("crosses ")[1].split()[0])
    assert threshold > 0.1  # an error rate regresses upwards
