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


def test_bad_seed_is_a_usage_error(capsys):
    import pytest

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
