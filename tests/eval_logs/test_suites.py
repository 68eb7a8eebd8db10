"""suite_scores and join_runs(task_field=...): hand computations, the
stratified bootstrap, reproducibility, bad input."""

import numpy as np
import pytest

from sklearn_faithful.eval_logs import compare_runs, join_runs, suite_scores
from sklearn_faithful.eval_logs._suites import (
    _suite_block,
    _suite_of,
    _suite_pair_se,
    _task_features_block,
    _task_resamplers,
)


def _suite(seed=0, sizes=(40, 200, 15), p=(0.6, 0.7, 0.65)):
    rng = np.random.default_rng(seed)
    tasks = np.repeat([f"t{i}" for i in range(len(sizes))], sizes)
    n = tasks.size
    runs = {f"r{j}": (rng.random(n) < q).astype(int) for j, q in enumerate(p)}
    return runs, tasks


def test_hand_computation_of_both_weightings():
    # task x: 3 items, task y: 1 + 4 = 5 items (unequal sizes)
    tasks = ["x", "x", "x", "y", "y", "y", "y", "y"]
    a = [1, 0, 0, 1, 1, 1, 1, 0]  # x: 1/3, y: 4/5
    b = [1, 1, 1, 0, 0, 1, 0, 0]  # x: 1,   y: 1/5
    by_task = suite_scores({"A": a, "B": b}, tasks=tasks, n_resamples=99)
    by_item = suite_scores(
        {"A": a, "B": b}, tasks=tasks, weighting="item", n_resamples=99
    )
    assert [r["score"] for r in by_task.runs] == pytest.approx(
        [(1 / 3 + 4 / 5) / 2, (1 + 1 / 5) / 2]
    )
    assert [r["score"] for r in by_item.runs] == pytest.approx([5 / 8, 4 / 8])
    assert by_task.pairs[0]["difference"] == pytest.approx(0.6 - (17 / 15) / 2)
    assert by_item.pairs[0]["difference"] == pytest.approx(-1 / 8)
    assert [t["weight"] for t in by_task.tasks] == [0.5, 0.5]
    assert [t["weight"] for t in by_item.tasks] == [3 / 8, 5 / 8]
    assert by_task.tasks[1]["scores"] == pytest.approx({"A": 0.8, "B": 0.2})


def test_item_weighting_is_the_mean_of_all_items():
    runs, tasks = _suite()
    res = suite_scores(runs, tasks=tasks, weighting="item", n_resamples=99)
    means = [r["mean"] for r in compare_runs(runs, n_resamples=99).runs]
    assert [r["score"] for r in res.runs] == pytest.approx(means)


def test_bootstrap_keeps_each_task_size():
    runs, tasks = _suite(sizes=(7, 30, 3))
    scores = np.column_stack(list(runs.values())).astype(float)
    labels, codes = np.unique(tasks, return_inverse=True)
    resamplers = _task_resamplers(scores, codes, labels, None)
    sums = _task_features_block(np.random.default_rng(0), 500, resamplers=resamplers)
    assert (sums[:, :, 3] == [7, 30, 3]).all()
    # a task's resampled mean moves: the draws are not the data repeated
    assert np.ptp(sums[:, 2, 0]) > 0
    # with clusters, each task draws as many clusters as it has; the
    # cluster 3 (items 6 and 7) spans two tasks and is one in each
    groups = np.arange(tasks.size) // 2
    resamplers = _task_resamplers(scores, codes, labels, groups)
    assert [r.n_units for r in resamplers] == [4, 16, 2]


def test_stratified_interval_spread_matches_the_within_task_variance():
    # with tasks of equal weight the variance of the suite score is
    # sum_t var_t / (T^2 n_t): the bootstrap's standard error agrees
    runs, tasks = _suite(seed=3, sizes=(60, 300, 30))
    res = suite_scores(runs, tasks=tasks, n_resamples=4000, random_state=0)
    x = runs["r0"].astype(float)
    var = sum(np.var(x[tasks == t]) / (tasks == t).sum() for t in np.unique(tasks)) / 9
    assert res.runs[0]["standard_error"] == pytest.approx(np.sqrt(var), rel=0.05)


def test_same_seed_same_result_with_any_n_jobs():
    runs, tasks = _suite()
    one = suite_scores(runs, tasks=tasks, n_resamples=600, random_state=7)
    two = suite_scores(runs, tasks=tasks, n_resamples=600, random_state=7, n_jobs=2)
    assert one.to_dict() == two.to_dict()
    other = suite_scores(runs, tasks=tasks, n_resamples=600, random_state=8)
    assert other.runs[0]["low"] != one.runs[0]["low"]


def test_join_with_task_field_and_ids_repeated_across_tasks():
    a = {"task": ["x", "x", "y", "y", "y"], "id": [0, 1, 0, 1, 2]}
    a["score"] = [1, 0, 1, 1, 0]
    b = {"task": ["y", "y", "y", "x", "x"], "id": [2, 1, 0, 1, 0]}
    b["score"] = [1, 1, 0, 1, 1]
    table = join_runs({"A": a, "B": b}, task_field="task")
    assert table.tasks.tolist() == ["x", "x", "y", "y", "y"]
    assert table.ids.tolist() == [0, 1, 0, 1, 2]
    assert table.scores.tolist() == [[1, 1], [0, 1], [1, 0], [1, 1], [0, 1]]
    assert table.to_dict()["n_tasks"] == 2 and "2 tasks" in table.summary()
    from_table = suite_scores(table, n_resamples=99, random_state=0)
    from_dict = suite_scores(
        {"A": table.scores[:, 0], "B": table.scores[:, 1]},
        tasks=table.tasks,
        n_resamples=99,
        random_state=0,
    )
    assert from_table.to_dict() == from_dict.to_dict()


def test_join_refuses_a_task_missing_in_one_run():
    a = {"task": ["x", "x", "y", "y"], "id": [0, 1, 0, 1], "score": [1, 0, 1, 1]}
    b = {"task": ["x", "x"], "id": [0, 1], "score": [1, 1]}
    with pytest.raises(ValueError, match=r"logs\['B'\] has no record of the task 'y'"):
        join_runs({"A": a, "B": b}, task_field="task")
    # a run with a task the others lack, whatever on_missing
    with pytest.raises(ValueError, match=r"logs\['B'\] has no record.*logs\['A'\]"):
        join_runs({"B": b, "A": a}, task_field="task", on_missing="drop")
    with pytest.raises(ValueError, match=r"has no field 'task' \(task_field\)"):
        join_runs({"A": {"id": [0], "score": [1]}}, task_field="task")


def test_clusters_are_read_within_their_task():
    runs, tasks = _suite(sizes=(20, 20))
    groups = np.tile(np.arange(10), 4)  # labels 0..9 in both tasks
    res = suite_scores(runs, tasks=tasks, groups=groups, n_resamples=99)
    assert res.n_clusters == 20


def test_every_printed_number_names_its_weighting():
    runs, tasks = _suite()
    for weighting in ("task", "item"):
        res = suite_scores(runs, tasks=tasks, weighting=weighting, n_resamples=99)
        text = res.summary()
        assert f"weighting={weighting!r}" in text
        tables = text.split("\n\n")  # the header, then each table
        assert all(f"{weighting}-weighted" in table for table in tables[1:])
        assert res.to_dict()["weighting"] == weighting


def test_bad_input():
    runs, tasks = _suite()
    with pytest.raises(ValueError, match="tasks is None"):
        suite_scores(runs)
    with pytest.raises(ValueError, match=r"tasks must hold one task label per item"):
        suite_scores(runs, tasks=tasks[:-1])
    with pytest.raises(ValueError, match=r"tasks holds None at item 3"):
        suite_scores(runs, tasks=[*tasks[:3], None, *tasks[4:]])
    with pytest.raises(ValueError, match=r"weighting"):
        suite_scores(runs, tasks=tasks, weighting="size")
    one = tasks.astype(object)
    one[0] = "lonely"
    with pytest.raises(ValueError, match=r"the task 'lonely' has 1 item"):
        suite_scores(runs, tasks=one)
    table = join_runs(
        {k: {"id": np.arange(v.size), "score": v} for k, v in runs.items()}
    )
    with pytest.raises(ValueError, match="RunTable without tasks"):
        suite_scores(table)
    with pytest.raises(ValueError, match="tasks must be None when runs is a RunTable"):
        suite_scores(table, tasks=tasks)
    with pytest.raises(ValueError, match=r"the task 't0' has 1 cluster"):
        suite_scores(runs, tasks=tasks, groups=(tasks == "t2").astype(int))


def test_inputs_are_not_modified():
    runs, tasks = _suite()
    copies = {k: v.copy() for k, v in runs.items()}, tasks.copy()
    suite_scores(runs, tasks=tasks, n_resamples=99)
    assert all((runs[k] == copies[0][k]).all() for k in runs)
    assert (tasks == copies[1]).all()


def test_suite_of_matches_the_weights():
    sums = np.array([[[2.0, 3.0, 4.0], [1.0, 1.0, 1.0]]])  # 2 tasks, 2 runs
    assert _suite_of(sums, "task").tolist() == [[(0.5 + 1) / 2, (0.75 + 1) / 2]]
    assert _suite_of(sums, "item").tolist() == [[3 / 5, 4 / 5]]


def _hand_pair_se(scores, codes, groups, picks, weighting):
    """The within-task cluster-robust standard errors of the suite
    differences of one resample, by a loop over its drawn units: ``picks``
    holds each task's drawn clusters (labels of ``groups``)."""
    k = scores.shape[1]
    drawn = []  # (task, sums of the runs' scores, items) per drawn unit
    for t, labels in enumerate(picks):
        for g in labels:
            rows = (codes == t) & (groups == g)
            drawn.append((t, scores[rows].sum(axis=0), rows.sum()))
    n_tasks = len(picks)
    task_sum = [sum(s for u, s, _ in drawn if u == t) for t in range(n_tasks)]
    task_n = [sum(n for u, _, n in drawn if u == t) for t in range(n_tasks)]
    means = [task_sum[t] / task_n[t] for t in range(n_tasks)]
    if weighting == "task":
        suite = sum(means) / n_tasks
    else:
        suite = sum(task_sum) / sum(task_n)
    se = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            var = 0.0
            for t in range(n_tasks):
                if weighting == "task":
                    d, scale = means[t][a] - means[t][b], n_tasks * task_n[t]
                else:
                    d, scale = suite[a] - suite[b], sum(task_n)
                z = [(s[a] - s[b] - d * n) / scale for u, s, n in drawn if u == t]
                var += sum((v - np.mean(z)) ** 2 for v in z)
            se[a, b] = np.sqrt(var)
    return suite, se


@pytest.mark.parametrize("weighting", ["task", "item"])
def test_pair_se_of_a_resample_matches_a_hand_loop(weighting):
    # clusters of unequal sizes in two tasks, three runs; one resample
    rng = np.random.default_rng(1)
    codes = np.repeat([0, 1], [9, 12])
    groups = np.array(
        [0, 0, 0, 1, 2, 2, 3, 3, 3] + [0, 1, 1, 1, 2, 2, 3, 4, 4] + [5] * 3
    )
    scores = rng.random((21, 3)).round(1)
    labels = np.array(["x", "y"])
    resamplers = _task_resamplers(scores, codes, labels, groups)
    picks = [[0, 0, 2, 3], [1, 1, 1, 2, 4, 5]]
    features = np.stack(
        [
            np.bincount(p, minlength=r.n_units) @ r.features[0]
            for p, r in zip(picks, resamplers, strict=True)
        ]
    )[None]
    suite = _suite_of(features[..., :4], weighting)
    task_means = np.stack([scores[codes == t].mean(axis=0) for t in (0, 1)])
    se = _suite_pair_se(features, suite, task_means, resamplers, weighting)
    hand_suite, hand_se = _hand_pair_se(scores, codes, groups, picks, weighting)
    assert suite[0] == pytest.approx(hand_suite)
    assert se[0] == pytest.approx(hand_se, abs=1e-12)
    # a block gives the scores, then each resample's K x K standard errors
    block = _suite_block(
        np.random.default_rng(0),
        5,
        resamplers=resamplers,
        weighting=weighting,
        task_means=task_means,
    )
    assert block.shape == (5, 3 + 9)


def test_rank_sets_are_studentized_by_each_resample(monkeypatch):
    # the rank sets get the data's within-task standard errors and each
    # resample's own (the bootstrap-t), not the bootstrap's deviations
    import sklearn_faithful.eval_logs._suites as suites

    seen = {}

    def spy(estimate, boot, se=None, boot_se=None, **kwargs):
        seen.update(se=se, boot_se=boot_se(0))
        return rank_sets(estimate, boot, se, boot_se, **kwargs)

    rank_sets = suites.rank_sets
    monkeypatch.setattr(suites, "rank_sets", spy)
    runs, tasks = _suite(seed=3, sizes=(60, 300, 30))
    suite_scores(runs, tasks=tasks, n_resamples=200, random_state=0)

    def hand(j):
        x = runs["r0"] - runs[f"r{j}"].astype(float)
        return sum(np.var(x[tasks == t]) / (tasks == t).sum() for t in set(tasks))

    # the scores are scaled by a power of 2 inside: compare the ratio
    ratio = seen["se"][0, 1] / seen["se"][0, 2]
    assert ratio == pytest.approx(np.sqrt(hand(1) / hand(2)))
    assert seen["boot_se"].shape == (200, 3)
    assert np.ptp(seen["boot_se"][:, 1]) > 0
