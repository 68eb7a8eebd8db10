"""compare_runs against closed forms, exact enumerations and the holdout tests."""

import itertools
import json
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.eval_logs import compare_runs, join_runs
from sklearn_faithful.utils._multitest import benjamini_hochberg, holm


def _runs(seed=0, n=200, p=(0.6, 0.7)):
    rng = np.random.default_rng(seed)
    return {
        name: (rng.random(n) < q).astype(int) for name, q in zip("AB", p, strict=True)
    }


def test_run_means_and_pair_counts():
    runs = _runs()
    res = compare_runs(runs, n_resamples=199, random_state=0)
    a, b = runs["A"], runs["B"]
    assert [r["mean"] for r in res.runs] == [a.mean(), b.mean()]
    (pair,) = res.pairs
    assert pair["difference"] == pytest.approx(b.mean() - a.mean())
    assert pair["n_wins"] == int(((b - a) > 0).sum())
    assert pair["n_losses"] == int(((b - a) < 0).sum())
    assert pair["n_wins"] + pair["n_ties"] + pair["n_losses"] == a.size
    d = b - a
    assert pair["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1))


def test_bootstrap_standard_error_is_the_plug_in_one():
    # the bootstrap s.e. of a mean is sd(ddof=0) / sqrt(n), and with clusters
    # the linearised ratio's sqrt(sum_g (S_g - m N_g)^2) / N
    rng = np.random.default_rng(1)
    scores = rng.random(300)
    res = compare_runs(
        {"A": scores}, interval="percentile", n_resamples=20000, random_state=0
    )
    expected = scores.std() / np.sqrt(scores.size)
    assert res.runs[0]["standard_error"] == pytest.approx(expected, rel=0.03)
    groups = rng.integers(0, 60, 300)
    scores = scores + 0.5 * rng.random(60)[groups]
    res = compare_runs(
        {"A": scores},
        groups=groups,
        interval="percentile",
        n_resamples=20000,
        random_state=0,
    )
    m = scores.mean()
    sums = np.bincount(groups, scores) - m * np.bincount(groups)
    expected = np.sqrt((sums**2).sum()) / scores.size
    assert res.runs[0]["standard_error"] == pytest.approx(expected, rel=0.03)
    assert res.n_clusters == np.unique(groups).size


def test_permutation_pvalue_matches_the_exact_enumeration():
    # 10 items: every one of the 2^10 swaps, two-sided
    rng = np.random.default_rng(2)
    a, b = rng.random(10), rng.random(10) + 0.3
    d = b - a
    flips = np.array(list(itertools.product([1, -1], repeat=10)))
    null = (flips * d).mean(axis=1)
    exact = np.mean(np.abs(null) >= abs(d.mean()) - 1e-12)
    res = compare_runs({"A": a, "B": b}, n_resamples=20000, random_state=0)
    se = np.sqrt(exact * (1 - exact) / 20000)
    assert abs(res.pairs[0]["pvalue"] - exact) < 4 * se + 1e-4


def test_cluster_permutation_swaps_whole_clusters():
    # 8 clusters: the exact cluster-swap distribution of the summed differences
    rng = np.random.default_rng(3)
    groups = np.repeat(np.arange(8), 5)
    a, b = rng.random(40), rng.random(40) + 0.15
    per_cluster = np.bincount(groups, b - a)
    flips = np.array(list(itertools.product([1, -1], repeat=8)))
    null = (flips * per_cluster).sum(axis=1) / 40
    exact = np.mean(np.abs(null) >= abs(per_cluster.sum() / 40) - 1e-12)
    with pytest.warns(RuntimeWarning, match="only 8 clusters"):
        res = compare_runs(
            {"A": a, "B": b}, groups=groups, n_resamples=20000, random_state=0
        )
    se = np.sqrt(exact * (1 - exact) / 20000)
    assert abs(res.pairs[0]["pvalue"] - exact) < 4 * se + 1e-4


def test_sign_test_is_mcnemars_exact_test_on_0_1_scores():
    runs = _runs(4)
    res = compare_runs(runs, method="sign", n_resamples=99, random_state=0)
    a, b = runs["A"], runs["B"]
    wins, losses = int(((b == 1) & (a == 0)).sum()), int(((a == 1) & (b == 0)).sum())
    expected = stats.binomtest(wins, wins + losses, 0.5).pvalue
    assert res.pairs[0]["pvalue"] == pytest.approx(expected)
    with pytest.raises(ValueError, match="method='sign' takes the items as indep"):
        compare_runs(runs, method="sign", groups=np.arange(200) % 50)


@pytest.mark.parametrize(
    "correction, adjust", [("holm", holm), ("bh", benjamini_hochberg)]
)
def test_many_runs_adjust_over_the_pairs_and_find_the_tied(correction, adjust):
    rng = np.random.default_rng(5)
    truth = {"A": 0.55, "B": 0.75, "C": 0.74, "D": 0.6}
    runs = {k: (rng.random(400) < p).astype(int) for k, p in truth.items()}
    res = compare_runs(runs, correction=correction, n_resamples=999, random_state=0)
    assert [(p["run_a"], p["run_b"]) for p in res.pairs] == list(
        itertools.combinations("ABCD", 2)
    )
    raw = [p["pvalue"] for p in res.pairs]
    np.testing.assert_allclose([p["pvalue_adjusted"] for p in res.pairs], adjust(raw))
    assert res.best == "B" and res.tied_with_best == ["B", "C"]
    text = res.summary()
    assert "tied with the best (B)" in text
    assert ("p (Holm)" if correction == "holm" else "p (BH)") in text
    d = json.loads(json.dumps(res.to_dict()))
    assert d["tied_with_best"] == ["B", "C"] and len(d["pairs"]) == 6


def test_baseline_compares_every_run_with_it():
    runs = _runs(6)
    runs["C"] = runs["A"]
    res = compare_runs(runs, baseline="B", correction=None, n_resamples=99)
    assert [(p["run_a"], p["run_b"]) for p in res.pairs] == [("B", "A"), ("B", "C")]
    assert all(p["pvalue_adjusted"] == p["pvalue"] for p in res.pairs)
    with pytest.raises(ValueError, match=r"baseline='Z' is not a run"):
        compare_runs(runs, baseline="Z")


def test_baseline_keeps_the_runs_tied_with_the_best():
    # issue 36: --baseline dropped the tied-with-best column
    rng = np.random.default_rng(5)
    truth = {"A": 0.55, "B": 0.75, "C": 0.74, "D": 0.6}
    runs = {k: (rng.random(400) < p).astype(int) for k, p in truth.items()}
    every = compare_runs(runs, n_resamples=999, random_state=0)
    for baseline in "ABD":
        res = compare_runs(runs, baseline=baseline, n_resamples=999, random_state=0)
        assert res.best == "B" and res.tied_with_best == ["B", "C"]
        assert "tied with best" in res.summary().splitlines()[2]
        assert all(baseline in (p["run_a"], p["run_b"]) for p in res.pairs)
    # the best as baseline: its pairs are the family, the same tests as in
    # the comparison of every pair (the same random streams)
    res = compare_runs(runs, baseline="B", n_resamples=999, random_state=0)
    raw = {frozenset((p["run_a"], p["run_b"])): p["pvalue"] for p in every.pairs}
    for p in res.pairs:
        assert p["pvalue"] == raw[frozenset((p["run_a"], p["run_b"]))]
    np.testing.assert_allclose(
        [p["pvalue_adjusted"] for p in res.pairs],
        holm([p["pvalue"] for p in res.pairs]),
    )


def test_repeats_as_2d_equal_their_mean():
    rng = np.random.default_rng(7)
    a, b = rng.random((100, 3)), rng.random((100, 3))
    two_d = compare_runs({"A": a, "B": b}, n_resamples=199, random_state=0)
    means = compare_runs(
        {"A": a.mean(axis=1), "B": b.mean(axis=1)}, n_resamples=199, random_state=0
    )
    assert two_d.to_dict() == means.to_dict()


def test_a_table_is_the_same_in_any_order_and_with_any_n_jobs():
    rng = np.random.default_rng(8)
    n, k = 120, 3
    ids = np.repeat(np.arange(n), k)
    cluster = ids // 3
    logs = {
        name: {"id": ids, "score": (rng.random(n * k) < p).astype(int), "c": cluster}
        for name, p in (("A", 0.6), ("B", 0.7), ("C", 0.65))
    }
    shuffled = {}
    for name, log in logs.items():
        order = rng.permutation(n * k)
        shuffled[name] = {key: value[order] for key, value in log.items()}
    kw = dict(groups_field="c", on_duplicate="repeats")
    first = compare_runs(join_runs(logs, **kw), n_resamples=499, random_state=0)
    again = compare_runs(
        join_runs(shuffled, **kw), n_resamples=499, random_state=0, n_jobs=2
    )
    assert first.to_dict() == again.to_dict()
    assert first.n_clusters == 40 and first.n_items == n
    with pytest.raises(ValueError, match="groups must be None when runs is a RunTable"):
        compare_runs(join_runs(logs, **kw), groups=np.zeros(n))


@pytest.mark.parametrize(
    "runs, match",
    [
        ({"A": [1.0, np.nan]}, r"runs\['A'\] contains NaN"),
        ({"A": ["a", "b"]}, r"runs\['A'\] must hold numeric scores"),
        ({"A": [1, 0, 1], "B": [1, 0]}, r"runs\['B'\] has 2 items but the first"),
        ({"A": [1]}, r"runs\['A'\] scores 1 item"),
        ({}, "runs is empty"),
    ],
)
def test_bad_runs_name_the_run(runs, match):
    with pytest.raises(ValueError, match=match):
        compare_runs(runs, n_resamples=99)


def test_plot_draws_runs_and_pairs():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    res = compare_runs(_runs(9), n_resamples=99, random_state=0)
    ax = res.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B"]
    ax = res.plot(kind="pairs")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["B - A"]
    one = compare_runs({"A": [0, 1, 1]}, n_resamples=99, random_state=0)
    with pytest.raises(ValueError, match="kind='pairs' needs two runs"):
        one.plot(kind="pairs")


def test_pairs_plot_colours_each_pair_by_direction():
    # issue 36: the pairs plot coloured only "significant", with no legend
    pytest.importorskip("matplotlib")
    import matplotlib
    from matplotlib.colors import to_hex

    matplotlib.use("Agg")
    rng = np.random.default_rng(0)
    truth = {"A": 0.5, "B": 0.65, "C": 0.5, "D": 0.38}
    runs = {k: (rng.random(300) < p).astype(int) for k, p in truth.items()}
    res = compare_runs(runs, n_resamples=199, random_state=0)
    ax = res.plot(kind="pairs")
    colour = {"B better": "#2ca02c", "A better": "#d62728", "no difference": "#666666"}
    box = ax.get_legend()
    texts = [t.get_text() for t in box.get_texts()]
    colours = [to_hex(h.get_color()) for h in box.legend_handles]
    legend = dict(zip(texts, colours, strict=True))
    assert legend == colour
    points = [line for line in ax.get_lines() if line.get_marker() == "o"]
    for pair, point in zip(res.pairs, points, strict=True):
        if pair["pvalue_adjusted"] >= 0.05:
            want = "no difference"
        else:
            want = "B better" if pair["difference"] > 0 else "A better"
        assert to_hex(point.get_color()) == colour[want]
    # the legend sits beside the axes, hiding no interval
    renderer = ax.figure.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= ax.get_window_extent(renderer).x1


def test_run_interval_agrees_with_scipy_bca():
    # scipy.stats.bootstrap's BCa interval of the mean, on the same items
    rng = np.random.default_rng(10)
    scores = rng.gamma(2.0, 1.0, 150)  # skewed: BCa moves the interval
    res = compare_runs({"A": scores}, interval="bca", n_resamples=40000, random_state=0)
    ref = stats.bootstrap(
        (scores,), np.mean, n_resamples=40000, method="BCa", random_state=1
    ).confidence_interval
    se = res.runs[0]["standard_error"]
    assert res.runs[0]["low"] == pytest.approx(ref.low, abs=0.05 * se)
    assert res.runs[0]["high"] == pytest.approx(ref.high, abs=0.05 * se)


def test_pandas_rows_in_another_order_are_refused():
    pd = pytest.importorskip("pandas")
    a = pd.Series([1, 0, 1, 1], index=["q1", "q2", "q3", "q4"])
    b = pd.Series([1, 1, 0, 1], index=["q2", "q1", "q3", "q4"])
    with pytest.raises(ValueError, match=r"runs\['B'\] has another index"):
        compare_runs({"A": a, "B": b}, n_resamples=99)
    same = compare_runs({"A": a, "B": b.reindex(a.index)}, n_resamples=99)
    assert same.n_items == 4


def test_a_run_and_a_pair_do_not_depend_on_the_other_runs():
    runs = _runs(11)
    runs["C"] = _runs(12)["A"]
    three = compare_runs(runs, n_resamples=199, random_state=0)
    two = compare_runs(
        {"B": runs["B"], "A": runs["A"]}, n_resamples=199, random_state=0
    )
    by_run = {r["run"]: r for r in two.runs}
    for row in three.runs[:2]:
        assert row == by_run[row["run"]]
    pair = next(p for p in three.pairs if (p["run_a"], p["run_b"]) == ("A", "B"))
    (other,) = compare_runs(
        {"A": runs["A"], "B": runs["B"]}, n_resamples=199, random_state=0
    ).pairs
    assert {k: v for k, v in pair.items() if k != "pvalue_adjusted"} == {
        k: v for k, v in other.items() if k != "pvalue_adjusted"
    }


@pytest.mark.filterwarnings("ignore:the 44 clusters are of unequal sizes")
def test_jackknife_t_is_students_t_and_the_cluster_jackknife():
    rng = np.random.default_rng(13)
    x = (rng.random(150) < 0.3).astype(float)
    res = compare_runs({"A": x}, interval="jackknife-t", n_resamples=99)
    se = x.std(ddof=1) / np.sqrt(x.size)  # the jackknife s.e. of a mean
    half = stats.t.ppf(0.975, x.size - 1) * se
    assert res.interval == "jackknife-t"
    assert res.runs[0]["low"] == pytest.approx(x.mean() - half)
    assert res.runs[0]["standard_error"] == pytest.approx(se)
    groups = rng.integers(0, 45, 150)
    res = compare_runs(
        {"A": x},
        groups=groups,
        interval="jackknife-t",
        n_resamples=99,
        confidence_level=0.9,
    )
    codes = np.unique(groups, return_inverse=True)[1]  # clusters with items
    totals, sizes = np.bincount(codes, x), np.bincount(codes)
    g = totals.size
    loo = (totals.sum() - totals) / (sizes.sum() - sizes)
    se = np.sqrt((g - 1) / g * np.sum((loo - loo.mean()) ** 2))
    half = stats.t.ppf(0.95, g - 1) * se
    assert res.runs[0]["high"] == pytest.approx(x.mean() + half)


def test_unequal_clusters_worth_fewer_than_40_warn():
    rng = np.random.default_rng(14)
    sizes = np.r_[np.full(40, 2), [200, 150]]  # 42 clusters, worth about 5
    groups = np.repeat(np.arange(42), sizes)
    runs = {"A": rng.random(groups.size), "B": rng.random(groups.size)}
    with pytest.warns(
        RuntimeWarning, match="42 clusters are of unequal sizes and weigh as"
    ):
        compare_runs(runs, groups=groups, n_resamples=99)


@pytest.mark.parametrize("scale", [2.0**-1000, 2.0**1000, 1e-300, 1e300, 1e-310])
@pytest.mark.parametrize("method", ["permutation", "bootstrap", "sign"])
@pytest.mark.parametrize("interval", ["jackknife-t", "bca"])
def test_any_magnitude_gives_the_same_answer(scale, method, interval):
    # issue 36: at 1e-300 the permutation p-value was 1 (0.19 at scale 1) and
    # the intervals collapsed; at 1e300 sums of squares overflowed. A power
    # of 2 scales exactly: the same bits; other scales round the input only
    rng = np.random.default_rng(0)
    a = rng.gamma(2, 1, 100)
    runs = {"A": a, "B": a + rng.normal(0.3, 1, 100)}
    kwargs = dict(method=method, interval=interval, n_resamples=199, random_state=0)
    base = compare_runs(runs, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = compare_runs({k: v * scale for k, v in runs.items()}, **kwargs)
    rtol = 0 if np.log2(scale).is_integer() else 1e-9
    assert res.pairs[0]["pvalue"] == base.pairs[0]["pvalue"]
    assert res.pairs[0]["effect_size"] == pytest.approx(
        base.pairs[0]["effect_size"], rel=rtol
    )
    for got, want in ((res.pairs[0], base.pairs[0]), (res.runs[1], base.runs[1])):
        for key in ("difference", "low", "high", "mean", "standard_error"):
            if key in want:
                np.testing.assert_allclose(got[key], want[key] * scale, rtol=rtol)


def test_scores_near_the_float_maximum_keep_their_spread():
    # shifted to half the float maximum: the sums would overflow
    rng = np.random.default_rng(1)
    a = rng.gamma(2, 1, 60)
    b = a + rng.normal(0.3, 1, 60)
    shift, unit = np.finfo(float).max / 2, 1e306
    repeats = np.repeat(np.arange(60), 3)
    base = compare_runs({"A": a, "B": b}, n_resamples=199, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = join_runs(
            {
                "A": {"id": repeats, "score": a[repeats] * unit + shift},
                "B": {"id": repeats, "score": b[repeats] * unit + shift},
            },
            on_duplicate="repeats",
        )
        res = compare_runs(table, n_resamples=199, random_state=0)
    assert res.pairs[0]["pvalue"] == base.pairs[0]["pvalue"]
    assert (res.runs[0]["mean"] - shift) / unit == pytest.approx(
        base.runs[0]["mean"], rel=1e-9
    )
    assert res.pairs[0]["difference"] / unit == pytest.approx(
        base.pairs[0]["difference"], rel=1e-9
    )


def _jackknife_bm_by_hand(x, groups, level=0.95):
    """compare_runs' default interval, transcribed from its formulas in plain
    Python and dense matrices: the leave-one-cluster-out jackknife by loops,
    the ANOVA intra-cluster correlation by loops, and Bell and McCaffrey's
    degrees of freedom of the CR2 variance from the eigenvalues of
    ``G' Omega G`` (Imbens & Kolesar 2016, eq. 8), with the CR2 adjustment
    ``(I - H_gg)^(-1/2)`` by an eigendecomposition."""
    x = [float(v) for v in x]
    labels = sorted(set(groups))
    members = [[i for i, g in enumerate(groups) if g == c] for c in labels]
    n, k = len(x), len(members)
    mean = sum(x) / n
    # the jackknife standard error
    loo = [
        sum(x[i] for i in range(n) if i not in set(m)) / (n - len(m)) for m in members
    ]
    centre = sum(loo) / k
    se = ((k - 1) / k * sum((v - centre) ** 2 for v in loo)) ** 0.5
    # ANOVA ICC
    sums = [sum(x[i] for i in m) for m in members]
    msb = sum(
        len(m) * (s / len(m) - mean) ** 2 for m, s in zip(members, sums, strict=True)
    )
    msb /= k - 1
    msw = sum(
        (x[i] - s / len(m)) ** 2 for m, s in zip(members, sums, strict=True) for i in m
    )
    msw /= max(n - k, 1)
    n0 = (n - sum(len(m) ** 2 for m in members) / n) / (k - 1)
    rho = min(max((msb - msw) / (msb + (n0 - 1) * msw), 0.0), 1.0)
    # the CR2 variance's quadratic form, and its Bell-McCaffrey df
    hat = np.full((n, n), 1 / n)
    omega = np.eye(n) * (1 - rho)
    columns = []
    for m in members:
        vals, vecs = np.linalg.eigh(np.eye(len(m)) - hat[np.ix_(m, m)])
        adjust = vecs @ np.diag(vals**-0.5) @ vecs.T
        c = np.zeros(n)
        c[m] = adjust @ np.ones(len(m)) / n
        columns.append((np.eye(n) - hat) @ c)
        omega[np.ix_(m, m)] += rho
    g = np.array(columns).T
    lam = np.linalg.eigvalsh(g.T @ omega @ g)
    df = lam.sum() ** 2 / (lam**2).sum()
    half = stats.t.ppf(0.5 + level / 2, df) * se
    return mean - half, mean + half, se, df


@pytest.mark.parametrize("binary", [True, False])
def test_default_interval_matches_a_transcription_of_its_formula(binary):
    rng = np.random.default_rng(21)
    sizes = [1, 2, 3, 5, 9, 14]  # unequal, as the Pareto-size clusters
    groups = [f"c{g}" for g, k in enumerate(sizes) for _ in range(k)]
    effect = np.repeat(rng.normal(0, 1, len(sizes)), sizes)
    x = effect + rng.normal(0, 1, effect.size)
    x = (x > 0).astype(float) if binary else np.round(5 + 2 * x)
    low, high, se, df = _jackknife_bm_by_hand(x, groups, level=0.9)
    assert 1 < df < len(sizes) - 1  # unequal sizes: fewer than G - 1
    with pytest.warns(RuntimeWarning, match="only 6 clusters"):
        res = compare_runs({"A": x}, groups=groups, confidence_level=0.9)
    assert res.interval == "jackknife-bm"  # the default
    (run,) = res.runs
    assert run["low"] == pytest.approx(low, rel=1e-10)
    assert run["high"] == pytest.approx(high, rel=1e-10)
    assert run["standard_error"] == pytest.approx(se, rel=1e-10)


def test_bell_mccaffrey_df_is_g_minus_1_for_equal_clusters_and_n_minus_1_alone():
    rng = np.random.default_rng(22)
    x = (rng.random(120) < 0.4).astype(float)
    (run,) = compare_runs({"A": x}, n_resamples=99).runs
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert run["standard_error"] == pytest.approx(se)
    assert run["high"] == pytest.approx(x.mean() + stats.t.ppf(0.975, 119) * se)
    # 40 equal clusters: df = G - 1 whatever the ICC, the jackknife-t interval
    groups = np.repeat(np.arange(40), 3)
    kw = dict(groups=groups, n_resamples=99)
    bm, jack = (
        compare_runs({"A": x}, interval=i, **kw).runs[0]
        for i in ("jackknife-bm", "jackknife-t")
    )
    assert bm == pytest.approx(jack)


def test_default_interval_ignores_the_clusters_labels_and_the_items_order():
    rng = np.random.default_rng(23)
    sizes = rng.geometric(0.1, 45)
    groups = np.repeat(np.arange(45), sizes)
    x = (rng.random(groups.size) < 0.6).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # unequal sizes
        base = compare_runs({"A": x}, groups=groups).runs[0]
        names = np.array([f"passage {g}" for g in rng.permutation(45)])[groups]
        order = rng.permutation(x.size)
        moved = compare_runs({"A": x[order]}, groups=names[order]).runs[0]
    for key in ("mean", "low", "high", "standard_error"):
        assert moved[key] == pytest.approx(base[key], rel=1e-12)


def test_the_warning_gives_the_printed_intervals_measured_coverage():
    from sklearn_faithful.eval_logs._compare import _MEASURED_COVERAGE

    sizes = np.r_[np.full(40, 2), [200, 150]]  # 42 clusters, worth about 5
    groups = np.repeat(np.arange(42), sizes)
    rng = np.random.default_rng(14)
    x = (rng.random(groups.size) < 0.7).astype(float)
    effective = sizes.sum() ** 2 / np.sum(sizes**2)
    for interval in ("jackknife-bm", "jackknife-t", "bca"):
        band = next(b for b in _MEASURED_COVERAGE[interval] if effective < b[1])
        with pytest.warns(RuntimeWarning) as record:
            compare_runs({"A": x}, groups=groups, interval=interval, n_resamples=99)
        (message,) = [str(w.message) for w in record]
        assert message.startswith(
            f"the 42 clusters are of unequal sizes and weigh as {effective:.1f} of "
            "equal size"
        )
        assert (
            f"the 95% {interval} interval of a run's mean (printed for each run) "
            f"covered {band[2]:.1f}% (s.e. {band[3]:.1f})" in message
        )
        assert f"and {band[4]:.1f}% in the lowest setting ({band[5]})" in message
        assert "pair" not in message  # one run: no pair printed
    # two runs: the pairs' bootstrap interval too; the bootstrap test's level
    with pytest.warns(RuntimeWarning, match="paired bootstrap test rejects too"):
        compare_runs(
            {"A": x, "B": x[::-1]}, groups=groups, method="bootstrap", n_resamples=99
        )


def test_no_warning_where_the_printed_interval_held():
    rng = np.random.default_rng(24)
    groups = np.repeat(np.arange(80), 10)  # 80 equal clusters: held there
    x = (rng.random(800) < 0.7).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_runs({"A": x, "B": x[::-1]}, groups=groups, n_resamples=99)
    # with a pair, its bootstrap interval is too narrow below 40 clusters
    with pytest.warns(RuntimeWarning, match="only 30 clusters.*each pair's interval"):
        compare_runs({"A": x, "B": x[::-1]}, groups=groups % 30, n_resamples=99)


def test_rare_events_in_few_clusters_warn_with_their_own_coverage():
    # issue 37: 0/1 scores of base rate 0.05 in 30 geometric clusters covered
    # 89.0% (jackknife-bm); the G_eff warning alone did not say why
    from sklearn_faithful.eval_logs._compare import _RARE_COVERAGE

    rng = np.random.default_rng(37)
    sizes = rng.geometric(1 / 20, 30)
    groups = np.repeat(np.arange(30), sizes)
    x = np.zeros(groups.size)
    x[np.flatnonzero(groups < 3)[:4]] = 1  # 4 successes, in 1 cluster
    effective = sizes.sum() ** 2 / np.sum(sizes**2)
    rare = effective * x.mean()
    assert rare < 1
    band = next(b for b in _RARE_COVERAGE["jackknife-bm"] if rare < b[1])
    with pytest.warns(RuntimeWarning) as record:
        compare_runs({"A": x, "B": 1 - x}, groups=groups, n_resamples=99)
    (message,) = [str(w.message) for w in record]
    assert f"rare events in few clusters: run(s) 'A' (R = {rare:.2f}), 'B'" in message
    assert (
        f"the 95% jackknife-bm interval covered {band[2]:.1f}% (s.e. {band[3]:.1f})"
        in message
    )
    assert f"{band[4]:.1f}% in the lowest setting ({band[5]})" in message
    assert "likely too narrow: score more clusters" in message


def test_no_rare_event_warning_where_the_interval_held():
    # R = G_eff x min(p, 1 - p) of 3 or more: the rare-event bands stay silent
    rng = np.random.default_rng(38)
    groups = np.repeat(np.arange(320), 10)  # 320 equal clusters, mean 0.05
    x = (rng.random(groups.size) < 0.05).astype(float)
    assert 320 * min(x.mean(), 1 - x.mean()) > 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_runs({"A": x}, groups=groups, n_resamples=99)
    # a mean of 0.5 in 30 unequal clusters: the G_eff warning only
    sizes = rng.geometric(1 / 20, 30)
    groups = np.repeat(np.arange(30), sizes)
    x = (rng.random(groups.size) < 0.5).astype(float)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        compare_runs({"A": x}, groups=groups, n_resamples=99)
    assert not any("rare events" in str(w.message) for w in record)
