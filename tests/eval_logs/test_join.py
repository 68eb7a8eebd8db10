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
        (["C", "I", "C"], "holds 'C' for id 1 .*not a score"),
        ([1, None, 0], "holds None for id 2 .*not a score"),
        (["1", "0.5", "inf"], "holds 'inf' for id 3"),
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


def test_ids_match_as_written():
    # issue 36: the command line joined JSON ids 1 and "1" where join_runs
    # refused them; one rule now (an id is its text as written): 7 and "7"
    # are one item, "07" another, in both
    table = join_runs({"A": _log([1, 2], [1, 0]), "B": _log(["2", "1"], [0, 1])})
    assert table.ids.tolist() == [1, 2] and table.ids.dtype.kind == "i"
    np.testing.assert_array_equal(table.scores, [[1, 1], [0, 0]])
    with pytest.raises(ValueError, match=r"'B' lacks 1 \(e.g. '7'\)"):
        join_runs({"A": _log([7], [1]), "B": _log(["07"], [1])})
    texts = join_runs({"A": _log(["q1", 10], [1, 0]), "B": _log(["10", "q1"], [0, 1])})
    assert texts.ids.tolist() == ["10", "q1"]


def test_text_scores_are_read_as_the_command_line_reads_them():
    # "0.5", "1" and "true" (a CSV's cells, a JSON string) are the numbers
    table = join_runs({"A": _log([1, 2, 3], ["0.5", "true", " 1"])})
    assert table.scores[:, 0].tolist() == [0.5, 1.0, 1.0]
    with pytest.raises(ValueError, match="holds 'nan' for id 1"):
        join_runs({"A": _log([1], ["nan"])})


def _filters():
    # lm-evaluation-harness --log_samples: one record per filter and doc_id
    return {
        "doc_id": [0, 0, 1, 1, 2, 2],
        "filter": ["strict-match", "flexible-extract"] * 3,
        "exact_match": [1, 0, 0, 1, 1, 1],
        "resps": [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]],
    }


def test_where_selects_records_before_the_join():
    log = _filters()
    for value, want in (("strict-match", [1, 0, 1]), ("flexible-extract", [0, 1, 1])):
        table = join_runs(
            {"A": log},
            id_field="doc_id",
            score_field="exact_match",
            where={"filter": value},
        )
        assert table.scores[:, 0].tolist() == want
        assert table.n_repeated == {"A": 0}
    # numbers match as written: 1 and "1", not 1.0; true matches True
    log = {"id": [1, 1, 2, 2], "score": [1, 0, 0, 1], "epoch": [1, "2", 1, 2.0]}
    table = join_runs({"A": log}, where={"epoch": "1"})
    assert table.ids.tolist() == [1, 2] and table.scores[:, 0].tolist() == [1, 0]
    flags = {"id": [1, 2, 3], "score": [1, 0, 1], "ok": [True, False, True]}
    assert join_runs({"A": flags}, where={"ok": True}).n_items == 2


@pytest.mark.parametrize(
    "where, match",
    [
        ({"filter": "strict"}, r"where=\{'filter': 'strict'\} keeps no record; the "
         r"values of 'filter' are 'strict-match', 'flexible-extract'"),
        ({"nofield": 1}, r"no field 'nofield' \(where\)"),
        ({"filter": [1]}, r"where\['filter'\] is \[1\]"),
    ],
)  # fmt: skip
def test_where_that_keeps_nothing_is_an_error(where, match):
    with pytest.raises(ValueError, match=match):
        join_runs({"A": _filters()}, id_field="doc_id", score_field="exact_match",
                  where=where)  # fmt: skip


def test_where_field_missing_from_a_record_names_the_values_seen():
    log = {"id": [1, 2], "score": [1, 0], "filter": np.array(["x", None], dtype=object)}
    with pytest.raises(ValueError, match=r"without 'filter' \(row 1.*seen are 'x'"):
        join_runs({"A": log}, where={"filter": "x"})


def test_repeats_refuse_records_that_differ_as_conditions():
    # issue 36: following the duplicate-id advice on an lm-eval file averaged
    # the two filters (0.4533 and 0.5183 became 0.4858) silently
    kwargs = dict(id_field="doc_id", score_field="exact_match")
    with pytest.raises(
        ValueError,
        match=r"would average records that differ in 'filter': 'strict-match', "
        r"'flexible-extract' .*Select one with where=\{'filter': 'strict-match'\}",
    ):
        join_runs({"A": _filters()}, on_duplicate="repeats", **kwargs)
    # and the duplicate-id error says so, with the same advice
    with pytest.raises(
        ValueError,
        match=r"has 3 'doc_id' ids with several records .*differ in 'filter'.*"
        r"where=\{'filter': 'strict-match'\}",
    ):
        join_runs({"A": _filters()}, **kwargs)


def test_epochs_are_repeats_once_named():
    log = {"id": ["a", "a", "b", "b"], "epoch": [1, 2, 1, 2], "score": [1, 0, 1, 1]}
    with pytest.raises(ValueError, match=r"differ in 'epoch': 1, 2.*sample_field="):
        join_runs({"A": log}, on_duplicate="repeats")
    table = join_runs({"A": log}, on_duplicate="repeats", sample_field="epoch")
    assert table.scores[:, 0].tolist() == [0.5, 1.0]
    twice = {**log, "epoch": [1, 1, 1, 2]}
    with pytest.raises(ValueError, match=r"has 2 records of 'id' 'a' with 'epoch' = 1"):
        join_runs({"A": twice}, on_duplicate="repeats", sample_field="epoch")
    with pytest.raises(ValueError, match="sample_field='epoch' numbers the repeated"):
        join_runs({"A": log}, sample_field="epoch")


def test_outcomes_that_differ_between_samples_are_not_conditions():
    # a response, a time or a uuid differs from item to item: repeats stand
    log = {
        "id": ["a", "a", "b", "b"],
        "score": [1, 0, 1, 1],
        "answer": ["x", "y", "x", "x"],
        "uuid": ["u1", "u2", "u3", "u4"],
        "time": [0.1, 0.3, 0.2, 0.5],
    }
    table = join_runs({"A": log}, on_duplicate="repeats")
    assert table.scores[:, 0].tolist() == [0.5, 1.0]


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
