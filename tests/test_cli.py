"""The command line."""

import subprocess
import sys

from sklearn_faithful.cli import main


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
