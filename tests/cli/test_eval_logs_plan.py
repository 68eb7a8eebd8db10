"""``eval-logs --plan DIFF``: the options, the plan of the joined runs, its text.

Called the way ``eval-logs`` calls them: ``add_plan`` on its parser,
``plan_runs`` on the joined RunTable, ``plan_text`` on the payload's JSON;
and end to end once ``eval-logs`` has the options.
"""

import argparse
import json

import numpy as np
import pytest

from sklearn_faithful.cli import main
from sklearn_faithful.cli._eval_logs_plan import APPLIES, add_plan, plan_runs, plan_text
from sklearn_faithful.cli._io import InputError
from sklearn_faithful.eval_logs import join_runs
from sklearn_faithful.gate import plan_paired_comparison
from sklearn_faithful.utils._results import _jsonable

from ._util import main_json, run_logs, run_main, write_log


def _parser():
    p = argparse.ArgumentParser()
    p.add_argument("runs", nargs="+")
    p.add_argument("--confidence-level", type=float, default=0.95)
    p.add_argument("--human-field")
    add_plan(p)
    return p


def _table(n=300, groups=False):
    rng = np.random.default_rng(0)
    a = (rng.random(n) < 0.7).astype(int)
    logs = {
        "A": {"id": np.arange(n), "score": a},
        "B": {"id": np.arange(n), "score": np.where(rng.random(n) < 0.1, 1 - a, a)},
        "C": {"id": np.arange(n), "score": np.where(rng.random(n) < 0.2, 1 - a, a)},
    }
    for log in logs.values():
        log["cluster"] = np.arange(n) // 3
    return join_runs(logs, groups_field="cluster" if groups else None)


@pytest.mark.parametrize("groups", [False, True])
def test_the_plan_is_the_python_apis(groups):
    table = _table(groups=groups)
    args = _parser().parse_args(["a", "b", "c", "--plan", "0.03", "--power", "0.9"])
    plan = plan_runs(table, args)
    expected = plan_paired_comparison(
        {n: table.scores[:, j] for j, n in enumerate(table.names)},
        0.03,
        groups=table.groups,
        alpha=0.05,
        beta=0.1,
    )
    assert _jsonable(plan) == _jsonable(expected)
    text = plan_text(_jsonable(plan))
    assert f"items needed to detect 0.03: {plan.n_required}" in text
    assert "hardest pair" in text and "not adjusted" in text
    assert ("in 100 clusters" in text) == groups
    for pair in plan.pairs:
        assert f"{pair['b']} - {pair['a']}" in text
    json.dumps(_jsonable(plan), allow_nan=False)


def test_options_and_when_they_apply():
    p = _parser()
    args = p.parse_args(["a", "b"])
    assert args.plan is None and args.power == 0.8
    assert not APPLIES["power"].when(args)
    args = p.parse_args(["a", "b", "--plan", "0.02"])
    assert APPLIES["plan"].when(args) and APPLIES["power"].when(args)
    assert not APPLIES["plan"].when(p.parse_args(["a", "--plan", "0.02"]))
    assert not APPLIES["plan"].when(
        p.parse_args(["a", "b", "--plan", "0.02", "--human-field", "h"])
    )


@pytest.mark.parametrize(
    "argv", [["--plan", "0"], ["--plan", "-1"], ["--plan", "x"], ["--power", "1"]]
)
def test_bad_option_values(argv, capsys):
    with pytest.raises(SystemExit):
        _parser().parse_args(["a", "b", *argv])
    assert argv[0] in capsys.readouterr().err


def test_a_level_below_one_half_and_identical_runs_are_input_errors():
    table = _table()
    args = _parser().parse_args(["a", "b", "--plan", "0.03"])
    args.confidence_level = 0.4
    with pytest.raises(InputError, match="--confidence-level above 0.5"):
        plan_runs(table, args)
    same = join_runs({k: {"id": [1, 2, 3], "score": [1, 0, 1]} for k in "AB"})
    args.confidence_level = 0.95
    with pytest.raises(InputError, match=r"--plan 0.03: runs 'A' and 'B' .* no spread"):
        plan_runs(same, args)


def test_end_to_end_once_eval_logs_has_the_options(tmp_path, capsys):
    try:
        main(["eval-logs", "--help"])
    except SystemExit:
        pass
    if "--plan" not in capsys.readouterr().out:
        pytest.skip("eval-logs has no --plan yet (the lead hooks it in)")
    logs = run_logs()
    paths = [str(write_log(tmp_path / f"{k}.jsonl", logs[k], "jsonl")) for k in "AB"]
    argv = ["eval-logs", *paths, "--cluster-field", "passage", "--on-duplicate",
            "repeats", "--n-resamples", "199", "--plan", "0.05"]  # fmt: skip
    payload = main_json([*argv, "--format", "json"])
    table = join_runs(
        {
            k: {
                key: np.array([r[key] for r in logs[k]], dtype=object)
                for key in ("id", "score", "passage")
            }  # fmt: skip
            for k in "AB"
        },
        groups_field="passage",
        on_duplicate="repeats",
    )
    expected = plan_paired_comparison(
        {"A": table.scores[:, 0], "B": table.scores[:, 1]}, 0.05, groups=table.groups
    )
    assert payload["plan"]["n_required"] == expected.n_required
    code, text = run_main(argv)
    assert code == 0
    assert f"items needed to detect 0.05: {expected.n_required}" in text
