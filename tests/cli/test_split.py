"""``sklearn-faithful split``."""

import json

import numpy as np
import pytest

from sklearn_faithful.model_selection import BlockRegularizedMx2CV

from ._util import main_json, ok, write


def test_split_end_to_end(runs, files):
    payload = json.loads(ok(runs, "split"))
    assert payload["regularized_by"] == "labels" and len(payload["splits"]) == 6
    assert payload["balance"]["max_size_difference"] <= 1
    y = files["y"]
    for s in payload["splits"]:
        train = np.loadtxt(s["train"], dtype=int)
        test = np.loadtxt(s["test"], dtype=int)
        assert np.array_equal(np.sort(np.r_[train, test]), np.arange(y.size))
    # the index files are the splitter's own splits
    cv = BlockRegularizedMx2CV(3, random_state=0)
    _, test = next(cv.split(np.zeros((y.size, 1)), y))
    first = np.loadtxt(payload["splits"][0]["test"], dtype=int)
    assert np.array_equal(first, np.sort(test))
    balance = cv.block_balance(np.zeros((y.size, 1)), y)
    assert payload["balance"] == balance.to_dict()
    assert payload["balance"]["sizes"] == balance.sizes.tolist()
    assert payload["balance"]["totals"] == balance.totals.tolist()


def test_split_by_groups_and_n(tmp_path):
    groups = write(tmp_path / "g.txt", [f"doc{i // 5}" for i in range(80)])
    out = main_json(
        ["split", "80", "--groups", groups, "--out", str(tmp_path / "o"), "--format",
         "json"]
    )  # fmt: skip
    assert out["regularized_by"] == "groups" and out["n_items"] == 80
    for s in out["splits"]:
        test = np.loadtxt(s["test"], dtype=int)
        assert set(np.bincount(test // 5)) <= {0, 5}  # documents stay whole


def test_conll_split_balances_entity_types(files, tmp_path):
    pytest.importorskip("seqeval")
    out = main_json(
        ["split", files["gold_conll"], "--conll", "--repetitions", "1", "--out",
         str(tmp_path / "o"), "--format", "json"]
    )  # fmt: skip
    assert out["items"] == "sentences" and out["n_items"] == 4
    assert out["columns"] == ["LOC", "MISC", "ORG", "PER"]
