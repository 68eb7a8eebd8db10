"""bradley_terry: inputs, bad input, the result, reproducibility."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from sklearn_faithful.battles import BradleyTerryResult, bradley_terry
from sklearn_faithful.battles._bradley_terry import _rank_sets

from ._battles import arena

A, B, WINNER = arena()
SEED = dict(n_resamples=49, random_state=0)


def test_every_form_of_battles_gives_the_same_ratings():
    frame = pd.DataFrame({"model_a": A, "model_b": B, "winner": WINNER})
    records = frame.to_dict("records")
    short = np.where(
        WINNER == "model_a", "a", np.where(WINNER == "model_b", "b", "tie")
    )
    forms = [
        frame,
        records,
        {"system_a": list(A), "system_b": list(B), "winner": list(WINNER)},
        np.column_stack([A, B, short]),
        [
            (f" {a}", f"{b} ", f" {w.upper()} ")
            for a, b, w in zip(A, B, WINNER, strict=True)
        ],
        frame.rename(columns={"model_a": "x", "model_b": "y", "winner": "w"}),
    ]
    first = bradley_terry(forms[0], **SEED)
    for i, form in enumerate(forms[1:]):
        columns = ("x", "y", "w") if i == 4 else None
        res = bradley_terry(form, columns=columns, **SEED)
        np.testing.assert_array_equal(res.ratings, first.ratings)
        np.testing.assert_array_equal(
            res.bootstrap_distribution, first.bootstrap_distribution
        )
    assert frame.equals(pd.DataFrame({"model_a": A, "model_b": B, "winner": WINNER}))


def test_tie_bothbad_is_a_tie_unless_mapped():
    bothbad = np.where(
        np.arange(len(A)) % 2 & (WINNER == "tie"), "tie (bothbad)", WINNER
    )
    base = bradley_terry(np.column_stack([A, B, WINNER]), **SEED)
    same = bradley_terry(np.column_stack([A, B, bothbad]), **SEED)
    np.testing.assert_array_equal(same.ratings, base.ratings)
    dropped = bradley_terry(
        np.column_stack([A, B, bothbad]), winner_codes={"tie (bothbad)": "drop"}, **SEED
    )
    assert dropped.n_battles < base.n_battles


def test_step_down_rank_sets_lie_within_the_single_step_ones():
    # the step-down recomputes the critical value over the pairs left: its
    # sets lie within the single-step ones, and are narrower in some data
    rng = np.random.default_rng(0)
    narrower = 0
    for _ in range(30):
        k = int(rng.integers(3, 9))
        theta = np.sort(rng.normal(0, 0.3, k))
        draws = theta + rng.normal(0, 0.1, (199, k)) * rng.uniform(0.5, 2, k)
        down = _rank_sets(theta, draws, 0.95)
        single = _rank_sets(theta, draws, 0.95, step_down=False)
        for d, s in zip(down, single, strict=True):
            assert np.all(d[:, 0] >= s[:, 0]) and np.all(d[:, 1] <= s[:, 1])
        narrower += any(
            not np.array_equal(d, s) for d, s in zip(down, single, strict=True)
        )
    assert narrower > 0
    # a fit's sets are the step-down ones of its own bootstrap (any scale)
    res = bradley_terry(np.column_stack([A, B, WINNER]), scale="elo", **SEED)
    down = _rank_sets(res.ratings, res.bootstrap_distribution, 0.95)
    np.testing.assert_array_equal(down[0], res.rank_sets)
    np.testing.assert_array_equal(down[1], res.simultaneous_rank_sets)


def test_result_is_consistent():
    res = bradley_terry(
        np.column_stack([A, B, WINNER]), n_resamples=199, random_state=0
    )
    assert isinstance(res, BradleyTerryResult)
    assert res.systems == ("s0", "s1", "s2", "s3", "s4")
    assert res.ratings.sum() == pytest.approx(0, abs=1e-12)
    low, high = res.confidence_interval
    assert np.all(low <= res.ratings) and np.all(res.ratings <= high)
    np.testing.assert_allclose(res.win_probability + res.win_probability.T, 1)
    assert list(res.ranks) == [5, 4, 3, 2, 1] or len(set(res.ranks)) == 5
    for sets in (res.rank_sets, res.simultaneous_rank_sets):
        assert np.all(sets[:, 0] <= res.ranks) and np.all(res.ranks <= sets[:, 1])
    # the simultaneous sets hold the marginal ones
    assert np.all(res.simultaneous_rank_sets[:, 0] <= res.rank_sets[:, 0])
    assert np.all(res.simultaneous_rank_sets[:, 1] >= res.rank_sets[:, 1])
    d = res.to_dict()
    json.dumps(d, allow_nan=False)
    assert "bootstrap_distribution" not in d and d["tie_parameter"] is None
    text = res.summary()
    assert "a tie half a win" in text and "log-strength" in text
    assert list(res.summary(as_frame=True).index)[0] == "s4"


@pytest.mark.parametrize("scale", ["log", "elo"])
def test_each_interval_equals_a_hand_computation_from_the_bootstrap(scale):
    data = np.column_stack([A, B, WINNER])
    kw = dict(scale=scale, reference="s2", confidence_level=0.9, **SEED)
    res = bradley_terry(data, **kw)
    boot, rating = res.bootstrap_distribution, res.ratings
    se = np.std(boot, axis=0, ddof=1)
    z = 1.6448536269514722  # the 95% quantile of the standard normal
    q05, q95 = np.quantile(boot, 0.05, axis=0), np.quantile(boot, 0.95, axis=0)
    # the default: rating -+ z se, symmetric about the rating
    assert res.interval == "normal"
    np.testing.assert_allclose(res.confidence_interval.low, rating - z * se)
    np.testing.assert_allclose(res.confidence_interval.high, rating + z * se)
    np.testing.assert_allclose(res.standard_error, se)
    expected = {"percentile": (q05, q95), "basic": (2 * rating - q95, 2 * rating - q05)}
    for interval, (low, high) in expected.items():
        other = bradley_terry(data, interval=interval, **kw)
        np.testing.assert_array_equal(other.bootstrap_distribution, boot)
        np.testing.assert_allclose(other.confidence_interval.low, low)
        np.testing.assert_allclose(other.confidence_interval.high, high)
        assert f"90% {interval} bootstrap intervals" in other.summary()
        assert other.to_dict()["interval"] == interval
    assert "90% normal bootstrap intervals" in res.summary()


def test_an_unknown_interval_is_refused():
    with pytest.raises(ValueError, match=r"'interval' parameter .*'bca'"):
        bradley_terry(np.column_stack([A, B, WINNER]), interval="bca", **SEED)


def test_same_seed_same_numbers_any_n_jobs():
    data = np.column_stack([A, B, WINNER])
    one = bradley_terry(data, n_resamples=99, random_state=3)
    two = bradley_terry(data, n_resamples=99, random_state=3, n_jobs=2)
    np.testing.assert_array_equal(
        one.bootstrap_distribution, two.bootstrap_distribution
    )


def test_plot_draws_every_system():
    import matplotlib

    matplotlib.use("Agg")
    ax = bradley_terry(np.column_stack([A, B, WINNER]), **SEED).plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "s0",
        "s1",
        "s2",
        "s3",
        "s4",
    ]


@pytest.mark.parametrize(
    "battles, kw, match",
    [
        ([("x", "x", "a"), ("x", "y", "b")], {}, "row 0: system 'x' battles itself"),
        ([("x", "y", "win"), ("x", "y", "b")], {}, "row 0: winner is 'win'"),
        (
            [
                ("x", "y", "tie"),
                ("x", "y", "draw"),
                ("y", "x", "Both bad"),
                ("x", "y", "a"),
            ],
            {},
            "ties 3 ways .*winner_codes=",
        ),
        (
            [("x", "y", "a"), ("y", "x", "a")],
            {"systems": ["x", "y", "z"]},
            "'z' of systems never battles",
        ),
        ([("x", "y", "a"), ("y", "x", "a")], {"systems": ["x"]}, "'y', which systems"),
        (
            [("x", "y", "a"), ("y", "x", "a"), ("u", "v", "a"), ("v", "u", "b")],
            {},
            "2 groups that never meet: 'u', 'v'; 'x', 'y'",
        ),
        (
            [("x", "y", "a"), ("x", "z", "a"), ("y", "z", "a"), ("z", "y", "a")],
            {},
            "'x' wins every battle.*infinite.*alpha > 0",
        ),
        ([("x", "y", "a"), ("y", "x", "a")], {"ties": "davidson"}, "no tie"),
        ([("x", "y", "a"), ("y", "x", "a")], {"reference": "q"}, "reference='q'"),
        ([("x", "y", "a")], {"winner_codes": {"w": "win"}}, "winner_codes maps 'w'"),
        ([], {}, "battles is empty"),
        ([("x", None, "a")], {}, "row 0: system b is None"),
        ({"a": ["x"], "b": ["y"], "w": ["a"]}, {}, "columns=\\('model_a'"),
    ],
)
def test_bad_battles_get_a_clear_error(battles, kw, match):
    with pytest.raises(ValueError, match=match):
        bradley_terry(battles, **kw, **SEED)


def test_a_system_that_always_wins_is_rated_with_a_penalty():
    battles = [("x", "y", "a"), ("x", "z", "a"), ("y", "z", "a"), ("z", "y", "a")]
    res = bradley_terry(battles * 3, alpha=0.1, **SEED)
    assert res.ranks[0] == 1 and np.isfinite(res.ratings).all()


def test_unrated_resamples_are_counted_and_warned():
    battles = [("x", "y", "a"), ("y", "x", "a"), ("y", "z", "a"), ("z", "y", "a")]
    with pytest.warns(UserWarning, match=re.escape("resamples have no finite")):
        res = bradley_terry(battles, **SEED)
    assert res.n_unrated_resamples > 0
