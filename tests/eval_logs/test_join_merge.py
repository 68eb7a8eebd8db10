"""The join's merge of the runs' ids, a block at a time, against sets."""

import numpy as np
import pytest

from sklearn_faithful.eval_logs import _join, join_runs

# ASCII ids of one width and of several, in one run or some, and others
NAMES = {
    "ascii": lambda run, i: f"q{i}",
    "widths": lambda run, i: "q" * (i % 5) + str(i),
    "one run not ascii": lambda run, i: f"q{i}" + "é" * (run == "B" and i % 2),
    "nul inside": lambda run, i: f"q\0{i}",
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("block", [1, 2, 3, 7, 2**18])
def test_merged_ids_are_the_sets_of_ids(block, name, monkeypatch):
    monkeypatch.setattr(_join, "_BLOCK", block)
    rng = np.random.default_rng(0)
    for _ in range(20):
        logs = {}
        for run in "ABC":
            ids = rng.choice(20, size=rng.integers(8, 20), replace=False)
            logs[run] = {
                "id": np.array([NAMES[name](run, i) for i in ids]),
                "score": rng.random(ids.size),
            }
        held = [set(log["id"].tolist()) for log in logs.values()]
        common = sorted(set.intersection(*held))
        if not common:
            continue
        table = join_runs(logs, on_missing="drop")
        assert table.ids.tolist() == common
        for j, log in enumerate(logs.values()):
            score = dict(zip(log["id"].tolist(), log["score"].tolist(), strict=True))
            assert table.scores[:, j].tolist() == [score[i] for i in common]
        every = set.union(*held)
        assert list(table.n_missing.values()) == [len(every - h) for h in held]
