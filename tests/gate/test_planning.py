"""Planning a paired comparison: closed forms by hand (the normal rule for
ratings, the continuity-corrected one for 0/1 scores), the paired/unpaired
ratio, the clusters' design effect, and bad input."""

import json
import math

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.gate import (
    PairedPlanResult,
    paired_minimum_detectable_effect,
    paired_sample_size,
    plan_paired_comparison,
    required_sample_size,
)

Z_A, Z_B = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
Z = Z_A + Z_B  # two-sided 0.05, power 0.8


def _pilot(n=400, seed=0, flip=0.15):
    rng = np.random.default_rng(seed)
    a = (rng.random(n) < 0.75).astype(float)
    b = np.where(rng.random(n) < flip, 1 - a, a)
    return a, b


def _ratings(n=400, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    return a, 0.8 * a + 0.6 * rng.normal(size=n) + 0.05


def _shortfall(delta, n, s2, s_eff2, m_w, z_a=Z_A, z_b=Z_B):
    """The corrected rule for 0/1 scores written out: ``delta n - 1 -
    sqrt(n) (z_a sqrt(s_eff2 + m_w delta^2) + z_b s_1)`` (Miettinen's s_1)."""
    psi = s2 + delta**2
    s1_2 = s_eff2 / s2 * (psi - delta**2 - 0.75 * delta**2 * (1 - psi) / psi)
    return (
        delta * n
        - 1
        - math.sqrt(n)
        * (z_a * math.sqrt(s_eff2 + m_w * delta**2) + z_b * math.sqrt(s1_2))
    )


def _corrected_n(delta, s2, s_eff2=None, m_w=1.0, **z):
    """The smallest n with a shortfall >= 0, by counting up."""
    s_eff2 = s2 if s_eff2 is None else s_eff2
    n = 1
    while _shortfall(delta, n, s2, s_eff2, m_w, **z) < 0:
        n += 1
    return n


def test_sample_size_and_detectable_difference_by_hand():
    # ratings (not 0/1): the normal rule, unchanged
    a, b = _ratings()
    d = b - a
    s2 = d.var(ddof=1)
    plan = plan_paired_comparison({"A": a, "B": b}, 0.04)
    assert plan.n_required == math.ceil(s2 * Z**2 / 0.04**2)
    assert plan.minimum_detectable_effect == pytest.approx(
        Z * math.sqrt(s2 / a.size), rel=1e-12
    )
    assert plan.sd_difference == pytest.approx(math.sqrt(s2), rel=1e-12)
    assert plan.difference == pytest.approx(d.mean(), rel=1e-12)
    assert plan.design_effect == pytest.approx(1.0, rel=1e-12)
    assert plan.correlation == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-12)
    assert (plan.n_items, plan.n_clusters, plan.mean_cluster_size) == (400, 400, 1.0)
    assert math.isnan(plan.icc)


def test_zero_one_scores_by_hand():
    a, b = _pilot()
    d = b - a
    s2 = d.var(ddof=1)
    plan = plan_paired_comparison({"A": a, "B": b}, 0.04)
    assert plan.n_required == _corrected_n(0.04, s2)
    # larger than the normal rule's, which the sign test's steps do not reach
    assert plan.n_required > math.ceil(s2 * Z**2 / 0.04**2)
    # by hand: K = z_a sqrt(psi) + z_b s_1, sqrt(n) = (K + sqrt(K^2 + 4 d)) / 2 d
    psi = s2 + 0.04**2
    k = Z_A * math.sqrt(psi) + Z_B * math.sqrt(s2 - 0.75 * 0.04**2 * (1 - psi) / psi)
    root = (k + math.sqrt(k * k + 4 * 0.04)) / (2 * 0.04)
    assert plan.n_required == math.ceil(root**2)
    mde = plan.minimum_detectable_effect
    assert _shortfall(mde, a.size, s2, s2, 1.0) == pytest.approx(0, abs=1e-9)
    assert mde > Z * math.sqrt(s2 / a.size)
    # the same data as ratings on another scale: the normal rule
    shifted = plan_paired_comparison({"A": 2 * a, "B": 2 * b}, 0.08)
    assert shifted.n_required == math.ceil(s2 * Z**2 / 0.04**2)


def test_zero_one_n_at_the_detectable_difference_is_n():
    a, b = _pilot()
    for n in (20, 97, 400, 12345):
        mde = paired_minimum_detectable_effect(n, discordant=(0.05, 0.1))
        assert paired_sample_size(mde, discordant=(0.05, 0.1)) == n
        # the smallest: one float less needs more items
        assert paired_sample_size(math.nextafter(mde, 0), discordant=(0.05, 0.1)) > n
    plan = plan_paired_comparison({"A": a, "B": b})
    again = plan_paired_comparison({"A": a, "B": b}, plan.minimum_detectable_effect)
    assert again.n_required == a.size
    # clusters too
    kw = {"discordant": (0.04, 0.06), "cluster_size": 5, "icc": 0.1}
    mde = paired_minimum_detectable_effect(500, **kw)
    assert paired_sample_size(mde, **kw) == 500


def test_zero_one_too_few_items_detect_nothing():
    # 3 discordant items never reach p < 0.05 two-sided (2 / 2**3 = 0.25)
    assert paired_minimum_detectable_effect(3, discordant=(0.1, 0.1)) == math.inf
    with pytest.raises(ValueError, match=r"delta=1.5 is beyond 1"):
        paired_sample_size(1.5, discordant=(0.1, 0.1))
    a, b = _pilot()
    with pytest.raises(ValueError, match=r"delta=1.5 is beyond 1"):
        plan_paired_comparison({"A": a, "B": b}, 1.5)


def test_the_unpaired_plan_is_the_independent_runs_rule():
    a, b = _pilot()
    plan = plan_paired_comparison({"A": a, "B": b}, 0.04)
    sigma = math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    assert plan.n_unpaired == required_sample_size(sigma, 0.04, alpha=0.025)
    exact = (a.var(ddof=1) + b.var(ddof=1)) * Z**2 / 0.04**2
    assert plan.n_unpaired == math.ceil(exact)


def test_paired_over_unpaired_is_one_over_one_minus_rho():
    # b is a with 40 of its ones and 40 of its zeros swapped: equal spread
    rng = np.random.default_rng(3)
    a = np.r_[np.ones(600), np.zeros(400)]
    b = a.copy()
    b[rng.choice(600, 40, replace=False)] = 0
    b[600 + rng.choice(400, 40, replace=False)] = 1
    assert a.var() == pytest.approx(b.var(), rel=1e-12)
    rho = np.corrcoef(a, b)[0, 1]
    delta = 0.02
    plan = plan_paired_comparison({"A": a, "B": b}, delta)
    assert plan.correlation == pytest.approx(rho, rel=1e-12)
    paired = (b - a).var(ddof=1) * Z**2 / delta**2
    unpaired = 2 * a.var(ddof=1) * Z**2 / delta**2
    assert unpaired / paired == pytest.approx(1 / (1 - rho), rel=1e-12)
    assert plan.n_unpaired == math.ceil(unpaired)
    # the same runs as ratings (not 0/1): the normal rule on both sides
    ratings = plan_paired_comparison({"A": a + 0.5, "B": b + 0.5}, delta)
    assert ratings.n_required == math.ceil(paired)
    assert ratings.n_unpaired / ratings.n_required == pytest.approx(
        1 / (1 - rho), rel=2e-3
    )
    # 0/1: the continuity-corrected paired n, the unpaired one unchanged
    assert plan.n_required == _corrected_n(delta, (b - a).var(ddof=1))
    assert plan.n_required > ratings.n_required


def test_clusters_use_the_cluster_level_variance_by_hand():
    rng = np.random.default_rng(1)
    groups = np.repeat(np.arange(60), np.tile([2, 4, 6, 8], 15))[:300]
    a = (rng.random(300) < 0.7).astype(float)
    # B changes many of A's answers in some clusters, few in others
    flip = rng.choice([0.02, 0.4], 60)[groups]
    b = np.where(rng.random(300) < flip, 1 - a, a)
    d = b - a
    labels = np.unique(groups)
    sums = np.array([d[groups == g].sum() for g in labels])
    sizes = np.array([(groups == g).sum() for g in labels])
    big_g = labels.size
    s_eff2 = big_g / (big_g - 1) * np.sum((sums - sizes * d.mean()) ** 2) / d.size
    assert s_eff2 > d.var(ddof=1)  # no floor here
    plan = plan_paired_comparison({"A": a, "B": b}, 0.05, groups=groups)
    assert plan.n_clusters == big_g
    assert plan.design_effect == pytest.approx(s_eff2 / d.var(ddof=1), rel=1e-12)
    # 0/1 scores: the null variance per item is s_eff^2 + m_w delta^2
    m_w = np.sum(sizes**2) / d.size
    s2 = d.var(ddof=1)
    assert plan.n_required == _corrected_n(0.05, s2, s_eff2, m_w)
    mde = plan.minimum_detectable_effect
    assert _shortfall(mde, d.size, s2, s_eff2, m_w) == pytest.approx(0, abs=1e-9)
    # the same as ratings: the normal rule at s_eff^2
    ratings = plan_paired_comparison({"A": a, "B": b + 0.5}, 0.05, groups=groups)
    assert ratings.n_required == math.ceil(s_eff2 * Z**2 / 0.05**2)
    assert ratings.minimum_detectable_effect == pytest.approx(
        Z * math.sqrt(s_eff2 / d.size), rel=1e-12
    )
    assert plan.mean_cluster_size == pytest.approx(300 / big_g)
    assert 0 <= plan.icc <= 1


def test_a_design_effect_below_one_is_taken_as_one():
    # clusters of a +1 and a -1 difference: cluster sums 0, s_eff^2 = 0
    a = np.zeros(200)
    b = np.tile([1.0, -1.0], 100)
    plan = plan_paired_comparison(
        {"A": a, "B": b}, 0.1, groups=np.repeat(np.arange(100), 2)
    )
    assert plan.design_effect == 1.0
    assert plan.n_required == plan_paired_comparison({"A": a, "B": b}, 0.1).n_required


def test_items_copied_k_times_as_clusters_need_k_times_the_items():
    # a cluster of k copies of one item carries one item's information
    a, b = _ratings(n=200, seed=2)
    k = 5
    single = plan_paired_comparison({"A": a, "B": b}, 0.05)
    copied = plan_paired_comparison(
        {"A": np.repeat(a, k), "B": np.repeat(b, k)},
        0.05,
        groups=np.repeat(np.arange(200), k),
    )
    assert copied.design_effect == pytest.approx((200 * k - 1) / 199, rel=1e-12)
    s2 = (b - a).var(ddof=1)
    assert copied.n_required == math.ceil(k * s2 * Z**2 / 0.05**2)
    assert copied.n_required == pytest.approx(k * single.n_required, abs=k)
    # the same smallest detectable difference: k n items, k times the variance
    assert copied.minimum_detectable_effect == pytest.approx(
        single.minimum_detectable_effect, rel=1e-12
    )


def test_more_runs_plan_every_pair_and_head_with_the_hardest():
    rng = np.random.default_rng(4)
    a = (rng.random(500) < 0.7).astype(float)
    runs = {
        "A": a,
        "B": np.where(rng.random(500) < 0.05, 1 - a, a),
        "C": np.where(rng.random(500) < 0.3, 1 - a, a),
    }
    plan = plan_paired_comparison(runs, 0.03)
    assert [(p["a"], p["b"]) for p in plan.pairs] == [
        ("A", "B"),
        ("A", "C"),
        ("B", "C"),
    ]
    worst = max(plan.pairs, key=lambda p: p["sd_difference"])
    assert plan.pair == (worst["a"], worst["b"])
    assert plan.n_required == max(p["n_required"] for p in plan.pairs)
    for p in plan.pairs:
        two = plan_paired_comparison({"x": runs[p["a"]], "y": runs[p["b"]]}, 0.03)
        assert p["n_required"] == two.n_required
    # an array (n_items, n_runs) is the same
    array = plan_paired_comparison(np.column_stack(list(runs.values())), 0.03)
    assert array.n_required == plan.n_required
    assert array.pair == tuple(str(list(runs).index(name)) for name in plan.pair)


def test_one_sided_is_two_sided_at_twice_alpha_and_direction_free():
    a, b = _pilot()
    two = plan_paired_comparison({"A": a, "B": b}, 0.04, alpha=0.1)
    for alternative in ("less", "greater"):
        one = plan_paired_comparison(
            {"A": a, "B": b}, 0.04, alpha=0.05, alternative=alternative
        )
        assert one.n_required == two.n_required
        assert one.minimum_detectable_effect == two.minimum_detectable_effect


def test_without_delta_only_the_detectable_difference():
    a, b = _pilot()
    plan = plan_paired_comparison({"A": a, "B": b})
    assert plan.n_required is None and plan.n_unpaired is None
    assert plan.minimum_detectable_effect > 0
    assert "items needed" not in plan.summary()


def test_summary_and_json():
    a, b = _pilot()
    plan = plan_paired_comparison({"A": a, "B": b}, 0.04, groups=np.arange(400) // 4)
    assert isinstance(plan, PairedPlanResult)
    text = plan.summary()
    assert f"{plan.n_required} paired" in text and "100 clusters" in text
    out = json.loads(json.dumps(plan.to_dict(), allow_nan=False))
    assert out["result"] == "PairedPlanResult"
    assert out["n_required"] == plan.n_required and out["pair"] == ["A", "B"]


def test_inputs_are_not_modified_and_other_types_agree():
    a, b = _pilot()
    groups = np.arange(400) // 4
    copies = a.copy(), b.copy(), groups.copy()
    plan = plan_paired_comparison({"A": a, "B": b}, 0.04, groups=groups)
    assert all(
        np.array_equal(x, y) for x, y in zip((a, b, groups), copies, strict=True)
    )
    for kind in (bool, np.int8, np.float32):
        other = plan_paired_comparison(
            {"A": a.astype(kind), "B": list(b.astype(kind))},
            0.04,
            groups=groups.astype(str),
        )
        assert other.n_required == plan.n_required


def test_scale_free():
    rng = np.random.default_rng(5)
    a = np.round(rng.normal(size=300) * 64) / 64
    b = a + np.round(rng.normal(0.1, 0.5, 300) * 64) / 64
    plan = plan_paired_comparison({"A": a, "B": b}, 0.1)
    for c in (1e-300, 1e300):
        scaled = plan_paired_comparison({"A": a * c, "B": b * c}, 0.1 * c)
        assert scaled.n_required == plan.n_required
        assert scaled.n_unpaired == plan.n_unpaired
        assert scaled.minimum_detectable_effect == pytest.approx(
            plan.minimum_detectable_effect * c, rel=1e-9
        )


# --- summary numbers ---------------------------------------------------------


def test_summary_numbers_by_hand():
    # A 0.80, B 0.82, agree on 90%: discordant 0.04 and 0.06
    var = 0.10 - 0.02**2
    n = paired_sample_size(0.02, accuracy_a=0.80, accuracy_b=0.82, agreement=0.90)
    # 0/1: psi = 0.1, s_1^2 = 0.0996 - 0.75 0.0004 0.9 / 0.1 = 0.0969,
    # K = 1.95996 sqrt(0.1) + 0.84162 sqrt(0.0969) = 0.881779,
    # sqrt(n) = (K + sqrt(K^2 + 0.08)) / 0.04 = 45.19..., n = 2042.4 -> 2043
    assert n == 2043 == _corrected_n(0.02, var)
    assert n == paired_sample_size(0.02, discordant=(0.04, 0.06))
    # the spread alone is not known to be of 0/1 scores: the normal rule, 1955
    assert paired_sample_size(0.02, sd_difference=math.sqrt(var)) == math.ceil(
        var * Z**2 / 0.02**2
    )
    assert math.ceil(var * Z**2 / 0.02**2) == 1955 < n
    # the design effect of equal clusters, 1 + (m - 1) ICC, and m_w = m
    clustered = paired_sample_size(
        0.02, discordant=(0.04, 0.06), cluster_size=5, icc=0.1
    )
    assert clustered == _corrected_n(0.02, var, 1.4 * var, 5.0)
    assert paired_sample_size(
        0.02, sd_difference=math.sqrt(var), cluster_size=5, icc=0.1
    ) == math.ceil(1.4 * var * Z**2 / 0.02**2)
    mde = paired_minimum_detectable_effect(1000, discordant=(0.04, 0.06))
    assert _shortfall(mde, 1000, var, var, 1.0) == pytest.approx(0, abs=1e-9)
    assert paired_minimum_detectable_effect(
        1000, sd_difference=math.sqrt(var)
    ) == pytest.approx(Z * math.sqrt(var / 1000), rel=1e-12)


def test_summary_numbers_are_the_one_rule_of_required_sample_size():
    for sd, delta, alpha, beta in [(0.3, 0.02, 0.05, 0.2), (2.0, 0.5, 0.01, 0.1)]:
        assert paired_sample_size(
            delta, sd_difference=sd, alpha=alpha, beta=beta
        ) == required_sample_size(sd / math.sqrt(2), delta, alpha=alpha / 2, beta=beta)


def test_the_pilot_and_its_summary_numbers_agree():
    a, b = _pilot(n=2000, seed=6)
    plan = plan_paired_comparison({"A": a, "B": b}, 0.03)
    only_a, only_b = np.mean((a == 1) & (b == 0)), np.mean((a == 0) & (b == 1))
    n = paired_sample_size(0.03, discordant=(only_a, only_b))
    # the pilot's variance has ddof 1, the shares' ddof 0
    assert plan.n_required == pytest.approx(n * 2000 / 1999, abs=1)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({}, "one source"),
        ({"sd_difference": 0.3, "discordant": (0.1, 0.1)}, "one source"),
        ({"accuracy_a": 0.8, "agreement": 0.9}, "go together"),
        ({"accuracy_a": 0.7, "accuracy_b": 0.9, "agreement": 0.9}, "impossible"),
        ({"accuracy_a": 0.9, "accuracy_b": 0.9, "agreement": 0.5}, r"\[0.8, 1\]"),
        ({"accuracy_a": 0.8, "accuracy_b": 0.8, "agreement": 1.0}, "no spread"),
        ({"discordant": (0.0, 0.0)}, "no spread"),
        ({"discordant": (0.7, 0.6)}, "sum to at most 1"),
        ({"discordant": (-0.1, 0.2)}, ">= 0"),
        ({"discordant": (0.1, 0.2, 0.3)}, "2 shares"),
        ({"discordant": (0.1, np.nan)}, "2 shares"),
    ],
)
def test_bad_summary_numbers(kwargs, match):
    with pytest.raises(ValueError, match=match):
        paired_sample_size(0.02, **kwargs)
    with pytest.raises(ValueError, match=match):
        paired_minimum_detectable_effect(100, **kwargs)


@pytest.mark.parametrize("delta", [0, -0.1, np.nan, "0.1"])
def test_delta_must_be_positive(delta):
    a, b = _pilot()
    with pytest.raises(ValueError, match="delta"):
        plan_paired_comparison({"A": a, "B": b}, delta)
    with pytest.raises(ValueError, match="delta"):
        paired_sample_size(delta, sd_difference=0.3)


def test_a_delta_too_small_to_count_names_delta():
    with pytest.raises(ValueError, match=r"delta=1e-10 is too small"):
        paired_sample_size(1e-10, sd_difference=1.0)


def _bad_runs():
    a, b = _pilot(n=10)
    nan = b.copy()
    nan[3] = np.nan
    return [
        ({"A": a}, "holds 1 run"),
        (np.c_[a], "holds 1 run"),
        ({"A": a, "B": nan}, r"runs\['B'\] contains nan at item 3"),
        ({"A": a, "B": b[:9]}, r"runs\['B'\] has 9 items but runs\['A'\] has 10"),
        ({"A": a, "B": a + 0.5}, "no spread"),
        ({"A": a, "B": a.astype(str)}, "numeric"),
        ({"A": a[:1], "B": b[:1]}, "at least 2"),
        (a, r"shape \(n_items, n_runs\)"),
    ]


@pytest.mark.parametrize("runs, match", _bad_runs())
def test_bad_runs(runs, match):
    with pytest.raises(ValueError, match=match):
        plan_paired_comparison(runs, 0.05)


@pytest.mark.parametrize(
    "groups, match",
    [
        (np.zeros(400), "1 cluster"),
        (np.arange(399), r"shape \(400,\)"),
        (np.r_[np.arange(399.0), np.nan], "NaN"),
        (np.array([1, "a"] * 200, dtype=object), "cannot be compared"),
    ],
)
def test_bad_groups(groups, match):
    a, b = _pilot()
    with pytest.raises(ValueError, match=match):
        plan_paired_comparison({"A": a, "B": b}, 0.05, groups=groups)


@pytest.mark.parametrize(
    "kwargs", [{"alpha": 0.5}, {"beta": 0}, {"alternative": "two"}]
)
def test_bad_parameters(kwargs):
    a, b = _pilot()
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        plan_paired_comparison({"A": a, "B": b}, 0.05, **kwargs)
