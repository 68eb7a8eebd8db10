"""rank_intervals: a hand computation, the sets' properties, bad input."""

import json
import warnings

import numpy as np
import pytest

from sklearn_faithful.eval_logs import join_runs, rank_intervals
from sklearn_faithful.eval_logs._ranks import (
    _pair_se,
    _rank_bootstrap,
    _rank_resampler,
)
from sklearn_faithful.utils._rank_sets import rank_sets


def _runs(seed=0, n=300, p=(0.55, 0.6, 0.62, 0.7, 0.9)):
    rng = np.random.default_rng(seed)
    shared = rng.random(n)  # items hard for every run: correlated scores
    noise = rng.random((n, len(p)))
    scores = (0.5 * shared[:, None] + 0.5 * noise) < np.asarray(p)
    return {f"r{j}": scores[:, j].astype(int) for j in range(len(p))}


def _sets(res):
    return [
        (r["rank"], r["low"], r["high"], r["simultaneous_low"], r["simultaneous_high"])
        for r in res.ranks
    ]


def test_hand_computation_of_three_runs():
    # means 1, 0, -0.1 and four bootstrap deviations u, by hand:
    #   d01 = u0 - u1 = (1, -1, -1, 1), s01 = sqrt(4 / 3) = 1.1547
    #   d02 = (1, -1, 0, 0), d12 = (0, 0, 1, -1), s02 = s12 = sqrt(2 / 3)
    # studentized: t01 = +-0.866, t02 and t12 = +-1.2247 or 0.
    # All pairs (both orders): the maximum is 1.2247 in every resample, so
    # c = 1.2247; bounds 1 - 1.2247 * 1.1547 < 0, 1.1 - 1.2247 * 0.8165 =
    # 0.1 > 0 (run 0 above run 2), 0.1 - 1.0 < 0; the step-down's next c
    # is again 1.2247 (resample 2 of (2, 0)): nothing new. Simultaneous
    # sets [1, 2], [1, 3], [2, 3].
    # Marginal of run 0: its pairs' maxima (1.2247, 1.2247, 0.866, 0.866)
    # reject (0, 2); then (0.866, 1.2247, 0.866, 0.866): c = 0.866 + 0.85 *
    # 0.3587 = 1.1709, and 1 - 1.1709 * 1.1547 < 0: [1, 2]. Run 1: maxima
    # (0.866, 0.866, 1.2247, 1.2247), nothing rejected: [1, 3]. Run 2:
    # rejects (0, 2) first, then c = 1.2247 and 0.1 - 1.0 < 0: [2, 3].
    means = np.array([1.0, 0.0, -0.1])
    u = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], dtype=float)
    rank, (low, high), (slow, shigh) = rank_sets(
        means, means + u, confidence_level=0.95
    )
    assert rank.tolist() == [1, 2, 3]
    assert low.tolist() == [1, 1, 2] and high.tolist() == [2, 3, 3]
    assert slow.tolist() == [1, 1, 2] and shigh.tolist() == [2, 3, 3]


def test_two_runs_are_the_two_sided_bootstrap_t_test():
    # K = 2: the one pair's bound d - c s with c the quantile of |t*|, t* the
    # resample's deviation over its own standard error
    runs = _runs(p=(0.6, 0.66))
    res = rank_intervals(runs, n_resamples=999, random_state=3)
    x = np.column_stack(list(runs.values())).astype(float)
    means, boot, se, boot_se = _rank_bootstrap(x - np.median(x), None, 3, 999)
    d = x[:, 1].mean() - x[:, 0].mean()
    s = np.sqrt(np.mean((x[:, 1] - x[:, 0] - d) ** 2) / 300)
    assert se[1, 0] == pytest.approx(s, rel=1e-12)
    t = (boot[:, 1] - boot[:, 0] - d) / boot_se(1)[:, 0]
    c = np.quantile(np.abs(t), 0.95)
    separated = abs(d) - c * s > 0
    assert [r["low"] for r in res.ranks] == ([2, 1] if separated else [1, 1])
    assert [r["high"] for r in res.ranks] == ([2, 1] if separated else [2, 2])


@pytest.mark.parametrize("clustered", [False, True])
def test_each_resamples_standard_errors_by_hand(clustered):
    # a resample's cluster-robust s.e. of a pair, sum_g W_g (D_g - d* n_g)^2
    # / N*^2, from the sums of the unit features, against a loop
    rng = np.random.default_rng(0)
    x = rng.random((60, 4))
    g = np.repeat(np.arange(12), 5) if clustered else np.arange(60)
    resampler = _rank_resampler(x, (g, 12) if clustered else None)
    (features,) = resampler.features
    units = np.arange(12) if clustered else np.arange(features.shape[0])
    w = rng.integers(0, 3, units.size).astype(float)
    se_of = _pair_se((w @ features)[None], 4)
    for a in range(4):
        for b in range(4):
            if clustered:
                dg = np.bincount(g, weights=x[:, a] - x[:, b])
                ng = np.bincount(g)
            else:  # the units are distinct rows: each row once
                cols = features if isinstance(features, np.ndarray) else features.base
                dg = cols[:, a] - cols[:, b]
                ng = np.ones(units.size)
            dstar = (w @ dg) / (w @ ng)
            hand = np.sqrt(w @ (dg - dstar * ng) ** 2) / (w @ ng)
            assert se_of(a)[0, b] == pytest.approx(hand, rel=1e-10, abs=1e-15)


def test_ties_share_the_better_rank_and_a_constant_difference_is_certain():
    a = np.array([0.0, 1, 1, 0, 1, 0, 0, 1])
    res = rank_intervals({"A": a, "B": a.copy(), "C": a + 0.5}, n_resamples=99)
    # C is above A and B on every item: certain; A and B are equal
    assert _sets(res) == [(2, 2, 3, 2, 3), (2, 2, 3, 2, 3), (1, 1, 1, 1, 1)]


@pytest.mark.parametrize("seed", range(4))
def test_sets_hold_the_observed_rank_and_simultaneous_holds_marginal(seed):
    runs = _runs(seed)
    groups = np.arange(300) // 6
    for g in (None, groups):
        res = rank_intervals(runs, groups=g, n_resamples=499, random_state=seed)
        for rank, low, high, slow, shigh in _sets(res):
            assert slow <= low <= rank <= high <= shigh


def test_sets_are_wider_at_a_higher_level():
    runs = _runs(1, p=np.linspace(0.5, 0.8, 8))
    sets = [
        _sets(
            rank_intervals(runs, confidence_level=lv, n_resamples=499, random_state=0)
        )
        for lv in (0.5, 0.8, 0.95, 0.999)
    ]
    for narrow, wide in zip(sets[:-1], sets[1:], strict=True):
        for n, w in zip(narrow, wide, strict=True):
            assert w[1] <= n[1] and n[2] <= w[2] and w[3] <= n[3] and n[4] <= w[4]
    assert sets[0] != sets[-1]


def test_same_seed_same_result_with_any_n_jobs_and_a_table():
    runs = _runs(2)
    groups = np.arange(300) % 50
    one = rank_intervals(runs, groups=groups, n_resamples=999, random_state=7)
    two = rank_intervals(runs, groups=groups, n_resamples=999, random_state=7, n_jobs=2)
    assert one == two
    logs = {
        name: {"id": np.arange(300), "score": s, "passage": groups}
        for name, s in runs.items()
    }
    table = join_runs(logs, groups_field="passage")
    assert rank_intervals(table, n_resamples=999, random_state=7) == one


def test_scale_and_shift_leave_the_sets():
    runs = _runs(4)
    base = rank_intervals(runs, n_resamples=299, random_state=0)
    for scale, shift in ((1e-300, 0.0), (1e300, 0.0), (1.0, 1e6)):
        moved = {k: v * scale + shift for k, v in runs.items()}
        res = rank_intervals(moved, n_resamples=299, random_state=0)
        assert _sets(res) == _sets(base)


def test_summary_dict_and_plot():
    res = rank_intervals(_runs(), n_resamples=199, random_state=0)
    text = res.summary()
    assert "1 = highest mean" in text and "simultaneous" in text
    first = text.splitlines()[3].split()
    assert first[0] == "r4" and first[2] == "1"  # best first
    out = json.loads(json.dumps(res.to_dict()))
    assert out["result"] == "RankIntervalsResult"
    assert out["ranks"][0]["run"] == "r0" and isinstance(out["ranks"][0]["low"], int)
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = res.plot()
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "r4"
    plt.close(ax.figure)


def test_repeats_are_averaged():
    rng = np.random.default_rng(0)
    two = {k: rng.integers(0, 2, (50, 3)) for k in "AB"}
    res = rank_intervals(two, n_resamples=99, random_state=0)
    one = rank_intervals(
        {k: v.mean(axis=1) for k, v in two.items()}, n_resamples=99, random_state=0
    )
    assert res == one


@pytest.mark.parametrize(
    "runs, kwargs, match",
    [
        ({"A": [1, 0, 1]}, {}, r"runs holds 1 run \('A'\); ranks need at least 2"),
        ({"A": [1], "B": [0]}, {}, r"runs\['A'\] scores 1 item"),
        ({"A": [1, 0, 1], "B": [1, 0]}, {}, r"runs\['B'\] has 2 items"),
        ({"A": [1, np.nan], "B": [1, 0]}, {}, r"runs\['A'\] contains NaN"),
        ({"A": ["x", "y"], "B": [1, 0]}, {}, r"runs\['A'\] must hold numeric"),
        ({}, {}, "runs is empty"),
        ({"A": [1, 0], "B": [1, 0]}, {"groups": [0]}, r"groups must hold one"),
        ({"A": [1, 0], "B": [1, 0]}, {"groups": [0, 0]}, r"at least 2"),
        ({"A": [1, 0], "B": [0, 1]}, {"confidence_level": 1.5}, "confidence_level"),
        ({"A": [1, 0], "B": [0, 1]}, {"n_resamples": 1}, "n_resamples"),
    ],
)
def test_bad_input_is_refused(runs, kwargs, match):
    with pytest.raises(ValueError, match=match):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            rank_intervals(runs, **kwargs)


def test_a_table_takes_no_groups():
    logs = {k: {"id": [1, 2, 3], "score": [1, 0, 1]} for k in "AB"}
    with pytest.raises(ValueError, match="groups must be None when runs is a RunTable"):
        rank_intervals(join_runs(logs), groups=[0, 1, 1])


def test_inputs_are_not_modified():
    runs = _runs(5)
    copy = {k: v.copy() for k, v in runs.items()}
    rank_intervals(runs, n_resamples=99, random_state=0)
    for k in runs:
        np.testing.assert_array_equal(runs[k], copy[k])


@pytest.mark.parametrize("clustered", [False, True])
def test_residual_products_formed_per_chunk_give_the_stored_result(
    clustered, monkeypatch
):
    from sklearn_faithful.eval_logs import _ranks

    rng = np.random.default_rng(1)
    x = rng.random((600, 5))
    runs = {f"r{j}": x[:, j] for j in range(5)}
    groups = np.repeat(np.arange(60), 10) if clustered else None
    kw = dict(groups=groups, n_resamples=99, random_state=0)
    stored = rank_intervals(runs, **kw).to_dict()
    monkeypatch.setattr(_ranks, "_STORED_CROSS_BYTES", 0)
    monkeypatch.setattr(_ranks, "_CROSS_ENTRIES", 64)  # several blocks
    assert rank_intervals(runs, **kw).to_dict() == stored
