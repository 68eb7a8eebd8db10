"""join_runs holds text ids encoded (bytes, or integers after their common
prefix) and gives the same table as a join of Python strings."""

import tracemalloc
import warnings

import numpy as np
import pytest

from sklearn_faithful.eval_logs import join_runs
from sklearn_faithful.eval_logs._join import _encoded


def _reference(logs):
    """The table of ``on_missing="drop", on_duplicate="repeats"`` in plain
    Python: ids sorted as str, each score the mean of the id's records."""
    sums = [{} for _ in logs]
    for per, log in zip(sums, logs.values(), strict=True):
        for i, s in zip(log["id"].tolist(), log["score"].tolist(), strict=True):
            per.setdefault(i, []).append(s)
    common = sorted(set.intersection(*(set(p) for p in sums)))
    scores = [[sum(p[i]) / len(p[i]) for p in sums] for i in common]
    return common, scores


# ids whose text after the shared prefix fits an integer key, ids too long
# for one, ids of several widths, ids ending in NUL (numpy drops it), and
# non-ASCII ids (kept as str)
_KINDS = {
    "prefix": lambda i: f"gsm8k-{i:07d}",
    "long": lambda i: f"a-very-long-shared-prefix/{i}-{'x' * (i % 11)}",
    "widths": lambda i: f"q{i}" * (1 + i % 3),
    "nul": lambda i: f"p{i:03d}" + "\0" * (i % 2),
    "unicode": lambda i: f"é{i}",
}


@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_encoded_ids_give_the_table_of_python_strings(kind):
    rng = np.random.default_rng(0)
    logs = {}
    for run in "ABC":
        items = rng.choice(300, size=250, replace=False).tolist() * 2
        ids = np.array([_KINDS[kind](i) for i in items])
        logs[run] = {"id": ids, "score": rng.random(ids.size)}
    table = join_runs(logs, on_missing="drop", on_duplicate="repeats")
    ids, scores = _reference(logs)
    assert table.ids.dtype.kind == "U" and table.ids.tolist() == ids
    np.testing.assert_allclose(table.scores, scores, rtol=1e-15)


def test_encoded_keys_sort_and_read_back_as_the_ids():
    rng = np.random.default_rng(1)
    ids = np.array([f"run/{i}" for i in rng.integers(0, 10**6, 1000)] + ["run/"])

    class Run:
        pass

    run = Run()
    run.ids = ids
    decode = _encoded([run])
    assert run.ids.dtype == np.uint64  # "run/" shared: at most 7 bytes left
    order = np.argsort(run.ids, kind="stable")
    np.testing.assert_array_equal(order, np.argsort(ids, kind="stable"))
    np.testing.assert_array_equal(decode(run.ids), ids)


def test_one_message_shows_ids_as_written():
    a = {"id": np.array(["gsm8k-0001", "gsm8k-0002"]), "score": [1, 0]}
    b = {"id": np.array(["gsm8k-0001", "gsm8k-0003"]), "score": [1, 1]}
    with pytest.raises(ValueError, match=r"'A' lacks 1 \(e\.g\. 'gsm8k-0003'\)"):
        join_runs({"A": a, "B": b})
    c = {"id": np.array(["gsm8k-0001", "gsm8k-0001"]), "score": [1, 0]}
    with pytest.raises(ValueError, match=r"e\.g\. 'gsm8k-0001' x2"):
        join_runs({"C": c})


def test_join_holds_text_ids_narrow():
    # before: each run's distinct ids, the union and the table's ids were
    # numpy str (4 bytes a character) at once, 2.6x the input at the peak
    rng = np.random.default_rng(2)
    n = 50_000
    logs = {
        run: {
            "id": np.array([f"gsm8k-{i:07d}" for i in rng.permutation(n)]),
            "score": rng.random(n),
        }
        for run in "ABC"
    }
    given = sum(log["id"].nbytes + log["score"].nbytes for log in logs.values())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tracemalloc.start()
        try:
            join_runs(logs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 1.6 * given
