"""``sklearn-faithful battles``: arena files, JSON Lines and CSV, text and JSON."""

import json

import pytest

from sklearn_faithful.battles import bradley_terry

from ..battles._battles import battle_records
from ._util import error, main_json, run_main, write

FAST = ["--n-resamples", "99"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("battles")
    records = battle_records()
    out = {
        "jsonl": write(d / "b.jsonl", [json.dumps(r) for r in records]),
        "csv": write(
            d / "b.csv",
            ["left,right,verdict"]
            + [f"{r['model_a']},{r['model_b']},{r['winner']}" for r in records],
        ),
    }
    bad = [dict(r) for r in records]
    bad[4]["model_b"] = bad[4]["model_a"]
    out["self"] = write(d / "self.jsonl", [json.dumps(r) for r in bad])
    bad = [dict(r) for r in records]
    bad[2]["winner"] = "draw"
    bad[3]["winner"] = "equal"
    out["codes"] = write(d / "codes.jsonl", [json.dumps(r) for r in bad])
    return out


def test_json_equals_the_python_api(files):
    payload = main_json(["battles", files["jsonl"], *FAST, "--format", "json"])
    records = battle_records()
    res = bradley_terry(records, n_resamples=99, random_state=0)
    assert payload["result"] == json.loads(json.dumps(res.to_dict()))
    assert payload["signature"]["ties"] == "half"


def test_csv_with_named_fields_and_elo_scale(files):
    argv = ["battles", files["csv"], "--a-field", "left", "--b-field", "right",
            "--winner-field", "verdict", "--scale", "elo", "--reference", "s0",
            *FAST]  # fmt: skip
    code, out = run_main(argv)
    assert code == 0
    assert "Elo-like points" in out and "s0 at 1000" in out
    assert "P(row beats column)" in out
    assert "scale:elo" in out and "reference:s0" in out


def test_a_system_battling_itself_names_the_line(files, capsys):
    err = error(capsys, ["battles", files["self"], *FAST])
    assert f"{files['self']}, line 5: system" in err and "battles itself" in err


def test_ties_coded_several_ways_say_how_to_map_them(files, capsys):
    err = error(capsys, ["battles", files["codes"], *FAST])
    assert "ties 4 ways" in err and "--winner-codes" in err
    code, _ = run_main(["battles", files["codes"], *FAST,
                        "--winner-codes", "draw=tie,equal=tie"])  # fmt: skip
    assert code == 0


def test_a_missing_field_names_the_option(files, capsys):
    err = error(capsys, ["battles", files["csv"], *FAST])
    assert "--a-field" in err or "model_a" in err
