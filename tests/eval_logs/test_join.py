"""join_runs: records matched by id, repeats averaged, clusters kept."""

import numpy as np
import pytest

from sklearn_faithful.eval_logs import join_runs


def _log(ids, scores, clusters=None):
    log = {"id": np.asarray(ids), "score": np.asarray(scores)}
    if clusters is not None:
        log["cluster"] = np.asarray(clusters)
    return log


def test_records_are_matched_by_id_not_by_order():
    a = _log(["q1", "q2", "q3"], [1, 0, 1])
    b = _log(["q3", "q1", "q2"], [0, 1, 1])
    table = join_runs({"A": a, "B": b})
    assert table.ids.tolist() == ["q1", "q2", "q3"]
    np.testing.assert_array_equal(table.scores, [[1, 1], [0, 1], [1, 0]])
    assert table.names == ["A", "B"] and table.n_dropped == 0


def test_repeats_are_averaged_within_the_item():
    a = _log([1, 2, 1, 2, 1, 2], [1, 0, 1, 1, 0, 1])
    b = _log([2, 1], [0.5, 0.25])
    table = join_runs({"A": a, "B": b}, on_duplicate="repeats")
    np.testing.assert_allclose(table.scores[:, 0], [2 / 3, 2 / 3])
    np.testing.assert_array_equal(table.n_records, [[3, 1], [3, 1]])
    assert table.n_repeated == {"A": 2, "B": 0}


def test_duplicates_stop_the_join_with_counts_and_examples():
    a = _log(["x", "x", "y", "z", "z", "z"], [1, 0, 1, 1, 1, 0])
    with pytest.raises(ValueError, match=r"logs\['A'\] has 2 'id' ids with several"):
        join_runs({"A": a, "B": _log(["x", "y", "z"], [1, 1, 1])})
    with pytest.raises(ValueError, match=r"'x' x2, 'z' x3.*on_duplicate='repeats'"):
        join_runs({"A": a})


def test_missing_ids_stop_the_join_unless_dropped():
    a = _log(["a", "b", "c", "d"], [1, 0, 1, 1])
    b = _log(["a", "b", "e"], [1, 1, 0])
    with pytest.raises(ValueError) as info:
        join_runs({"A": a, "B": b})
    text = str(info.value)
    assert "3 of 5 'id' ids are not in every run" in text
    assert "'A' lacks 1 (e.g. 'e')" in text and "'B' lacks 2 (e.g. 'c', 'd')" in text
    assert "on_missing='drop'" in text and "2 ids are in every run" in text
    table = join_runs({"A": a, "B": b}, on_missing="drop")
    assert table.ids.tolist() == ["a", "b"] and table.n_dropped == 3
    assert table.n_missing == {"A": 1, "B": 2}
    with pytest.raises(ValueError, match="share no item"):
        join_runs({"A": a, "B": _log(["z"], [1])}, on_missing="drop")


def test_clusters_are_kept_and_must_agree():
    a = _log([1, 2, 3], [1, 0, 1], ["p", "p", "q"])
    b = _log([3, 2, 1], [1, 1, 1], ["q", "p", "p"])
    table = join_runs({"A": a, "B": b}, groups_field="cluster")
    assert table.groups.tolist() == ["p", "p", "q"] and table.n_clusters == 2
    b["cluster"] = np.array(["q", "q", "p"])
    with pytest.raises(
        ValueError,
        match=r"id 2 is in the clusters 'p' and 'q' \(groups_field='cluster', "
        r"logs\['B'\]\)",
    ):
        join_runs({"A": a, "B": b}, groups_field="cluster")


@pytest.mark.parametrize(
    "scores, match",
    [
        ([1.0, np.nan, 0.0], "holds nan for id 2"),
        (["C", "I", "C"], "not scores"),
        ([1, None, 0], "not scores"),
    ],
)
def test_bad_scores_name_the_run_and_the_id(scores, match):
    with pytest.raises(ValueError, match=match):
        join_runs(
            {
                "A": {
                    "id": [1, 2, 3],
                    "score": np.array(scores, dtype=object)
                    if None in scores
                    else scores,
                }
            }
        )


def test_booleans_are_right_or_wrong():
    table = join_runs({"A": _log([1, 2], [True, False])})
    assert table.scores[:, 0].tolist() == [1.0, 0.0]


def test_missing_field_lists_the_fields():
    with pytest.raises(ValueError, match=r"no field 'score' \(score_field\).*'acc'"):
        join_runs({"A": {"id": [1, 2], "acc": [1, 0]}})


def test_ids_of_two_kinds_never_match():
    with pytest.raises(ValueError, match="strings in \\['B'\\] but numbers in"):
        join_runs({"A": _log([1, 2], [1, 0]), "B": _log(["1", "2"], [1, 0])})


def test_missing_ids_are_refused():
    with pytest.raises(
        ValueError, match=r"row 1 \(counting from 0\); every record needs an id"
    ):
        join_runs({"A": {"id": np.array(["a", None], dtype=object), "score": [1, 0]}})


def test_data_frames_and_arrow_tables():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"id": ["b", "a", "a"], "score": [0.5, 1.0, 0.0]})
    table = join_runs({"A": frame}, on_duplicate="repeats")
    assert table.ids.tolist() == ["a", "b"] and table.scores[:, 0].tolist() == [
        0.5,
        0.5,
    ]
    pa = pytest.importorskip("pyarrow")
    arrow = join_runs({"A": pa.Table.from_pandas(frame)}, on_duplicate="repeats")
    np.testing.assert_array_equal(arrow.scores, table.scores)


def test_inputs_are_not_modified():
    a = _log(["b", "a", "b"], [1, 0, 0])
    before = {k: v.copy() for k, v in a.items()}
    join_runs({"A": a}, on_duplicate="repeats")
    for key in a:
        np.testing.assert_array_equal(a[key], before[key])


def test_float_repeats_give_the_same_bits_in_any_order():
    # sums of floats depend on their order; the join sums in score order
    rng = np.random.default_rng(0)
    ids = np.repeat(np.arange(2000), 3)
    scores = rng.random(ids.size) * 7.3
    first = join_runs({"A": _log(ids, scores)}, on_duplicate="repeats")
    for seed in range(3):
        order = np.random.default_rng(seed).permutation(ids.size)
        again = join_runs(
            {"A": _log(ids[order], scores[order])}, on_duplicate="repeats"
        )
        np.testing.assert_array_equal(again.scores, first.scores)


def test_white_space_around_ids_is_stripped_with_a_warning():
    a = _log(np.array(["q1 ", "q2"], dtype=object), [1, 0])
    b = _log(["q2", "q1"], [1, 1])
    with pytest.warns(
        UserWarning, match=r"holds 'q1 ' at row 0 .* read as 'q1'"
    ) as rec:
        table = join_runs({"A": a, "B": b})
    assert rec[0].filename == __file__
    assert table.ids.tolist() == ["q1", "q2"] and a["id"][0] == "q1 "


def test_dropped_ids_are_named_by_run():
    a = _log(["a", "b", "c"], [1, 0, 1])
    b = _log(["a", "b"], [1, 1])
    table = join_runs({"A": a, "B": b}, on_missing="drop")
    assert "1 ids missing from some run were dropped (B lacked 1)" in table.summary()
    assert table.to_dict()["records_per_item"] == {
        "A": {"min": 1, "max": 1},
        "B": {"min": 1, "max": 1},
    }
