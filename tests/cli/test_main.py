"""The parser, the entry point, ``demo``, and what ``--help`` costs."""

import json
import subprocess
import sys

import pytest

from sklearn_faithful.agreement._options import LEVELS, PAIR_COEFFICIENTS
from sklearn_faithful.battles._options import INTERVALS as BATTLE_INTERVALS
from sklearn_faithful.battles._options import SCALES as BATTLE_SCALES
from sklearn_faithful.battles._options import TIES as BATTLE_TIES
from sklearn_faithful.cli import _main, main
from sklearn_faithful.comparison._options import CORRELATIONS
from sklearn_faithful.comparison._options import METRICS as BAYES_METRICS
from sklearn_faithful.eval_logs._options import (
    CORRECTIONS,
    INTERVALS,
    ON_DUPLICATE,
    ON_MISSING,
    SUITE_WEIGHTINGS,
)
from sklearn_faithful.eval_logs._options import METHODS as EVAL_LOGS_METHODS
from sklearn_faithful.holdout._options import INTERVAL_METHODS, METRIC_NAMES
from sklearn_faithful.metrics._options import AVERAGE_OPTIONS
from sklearn_faithful.model_based._options import METHODS as MODEL_BASED_METHODS

from ._util import ok, stderr_lines

HEAVY = ("numpy", "scipy", "sklearn", "joblib", "pandas", "matplotlib")


def _imported(stderr):
    """Top-level package names that ``python -X importtime`` reports."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            names.add(name.split(".")[0])
    return names


def test_help_imports_no_numpy_scipy_or_sklearn():
    argvs = [[], *([name] for name in _main.COMMANDS)]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-X",
                "importtime",
                "-m",
                "sklearn_faithful",
                *argv,
                "--help",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for argv in argvs
    ]
    for argv, proc in zip(argvs, procs, strict=True):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.startswith("usage: sklearn-faithful")
        imported = _imported(err)
        assert "sklearn_faithful" in imported  # importtime did report
        assert not imported & set(HEAVY), (argv, imported & set(HEAVY))


def _choices(parser):
    """``{(command, option): choices}`` of every subcommand's options."""
    out = {}
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    for command, p in sub.choices.items():
        for action in p._actions:
            if action.choices is not None and action.option_strings:
                out[command, action.option_strings[0]] = tuple(action.choices)
    return out


def _metric_type(parser, command):
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    (action,) = [a for a in sub.choices[command]._actions if a.dest == "metric"]
    return action.type


def test_choices_are_the_rooms_lists():
    parser = _main.build_parser()
    choices = _choices(parser)
    for command in ("compare", "interval"):
        # --metric takes several names, separated by commas
        assert _metric_type(parser, command).choices == METRIC_NAMES
    assert choices.pop(("compare", "--average")) == AVERAGE_OPTIONS
    assert choices.pop(("interval", "--average")) == AVERAGE_OPTIONS
    assert choices.pop(("interval", "--method")) == INTERVAL_METHODS
    assert choices.pop(("bayes-test", "--metric")) == (*BAYES_METRICS, "all")
    assert choices.pop(("model-based", "--method")) == MODEL_BASED_METHODS
    assert choices.pop(("agreement", "--level")) == LEVELS
    assert choices.pop(("agreement", "--model-coefficient")) == PAIR_COEFFICIENTS
    assert choices.pop(("eval-logs", "--on-missing")) == ON_MISSING
    assert choices.pop(("eval-logs", "--on-duplicate")) == ON_DUPLICATE
    assert choices.pop(("eval-logs", "--method")) == EVAL_LOGS_METHODS
    assert choices.pop(("eval-logs", "--correction")) == (*CORRECTIONS, "none")
    assert choices.pop(("eval-logs", "--interval")) == INTERVALS
    assert choices.pop(("eval-logs", "--plot-kind")) == ("runs", "pairs", "ranks")
    assert choices.pop(("battles", "--ties")) == BATTLE_TIES
    assert choices.pop(("battles", "--scale")) == BATTLE_SCALES
    assert choices.pop(("battles", "--interval")) == BATTLE_INTERVALS
    assert choices.pop(("eval-logs", "--suite-weighting")) == SUITE_WEIGHTINGS
    # the calibration room's lists, which tests/cli/test_calibration.py checks
    for option in ("--method", "--norm", "--strategy", "--multi-class",
                   "--interval", "--test"):  # fmt: skip
        choices.pop(("calibration", option))
    # the command line's own lists: its tests, output formats, CoNLL schemes
    assert choices.pop(("compare", "--test"))[0] == "paired-bootstrap"
    assert {c for c, _ in choices} >= {"compare", "interval", "split"}
    assert {o for _, o in choices} == {"--format", "--scheme"}
    # --correlation takes a name from the room or a number
    parser = _main.build_parser()
    for name in CORRELATIONS:
        args = parser.parse_args(["bayes-test", "a", "b", "--correlation", name])
        assert args.correlation == name
    args = parser.parse_args(["bayes-test", "a", "b", "--correlation", "0.3"])
    assert args.correlation == 0.3


def test_defaults_are_the_recommended_methods():
    parser = _main.build_parser()
    args = parser.parse_args(["bayes-test", "a", "b"])
    assert not args.unpaired  # the paired test
    assert parser.parse_args(["model-based"]).method == "ppi"


def test_every_command_has_examples(capsys):
    for name in _main.COMMANDS:
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: sklearn-faithful {name}")
        assert name == "demo" or f"sklearn-faithful {name} " in out


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
    assert "Model-based metric test" in out and "[-0.00978, 0.00538]" in out


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


@pytest.mark.parametrize(
    "argv",
    [
        ["demo"],  # the reader leaves after one line
        ["plan", "--sigma", "0.3", "--mde", "0.0001"],  # before a line is written
    ],
)
def test_closed_pipe_ends_quietly(argv):
    proc = subprocess.Popen(
        [sys.executable, "-m", "sklearn_faithful", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if argv[0] == "demo":
        proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode in (0, 141)


# the runs of conftest.runs that print JSON
JSON_RUNS = ("compare", "interval", "split", "plan", "model-based-ppi", "agreement",
             "eval-logs")  # fmt: skip


def test_json_output_ends_with_the_warnings_of_standard_error(runs):
    # a pipeline that reads standard output sees what standard error says:
    # the last key, a list, [] when nothing was warned
    for name in JSON_RUNS:
        payload = json.loads(ok(runs, name))
        assert list(payload)[-1] == "warnings", name
        assert stderr_lines(payload["warnings"]) == runs[name][2].splitlines(), name
        for entry in payload["warnings"]:
            assert set(entry) == {"category", "message"}, name
    for name in ("compare", "interval", "split", "plan", "model-based-ppi"):
        assert json.loads(ok(runs, name))["warnings"] == [], name
    # the 15 passages of the eval-logs run are too few clusters: the warning
    # is in the command line's words (groups_field -> --cluster-field)
    (warning,) = json.loads(ok(runs, "eval-logs"))["warnings"]
    assert warning["category"] == "RuntimeWarning"
    assert warning["message"].startswith(
        "--cluster-field names only 15 clusters: the 95% jackknife-bm interval"
    )
    assert "too narrow" in warning["message"]
