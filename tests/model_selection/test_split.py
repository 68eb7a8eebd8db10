"""Tests of the block-regularized m x 2 cross-validators."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy.linalg import hadamard
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)

from sklearn_faithful.model_selection import (
    BlockRegularized3x2CV,
    BlockRegularizedMx2CV,
)

from .._hypothesis import given, settings, st


def _splits(cv, n, y=None, groups=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return list(cv.split(np.zeros((n, 1)), y, groups))


@st.composite
def _cases(draw):
    m = draw(st.integers(1, 15))
    n_blocks = 1 << int(np.ceil(np.log2(m + 1)))
    n = draw(st.integers(n_blocks, 200))
    n_classes = draw(st.integers(1, 6))
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    seed = draw(st.integers(0, 2**31 - 1))
    return m, n_blocks, n, y, seed


@settings(max_examples=60, deadline=None)
@given(case=_cases(), use_y=st.booleans())
def test_properties_of_blocks_and_splits(case, use_y):
    m, n_blocks, n, y, seed = case
    cv = BlockRegularizedMx2CV(m, random_state=seed)
    y_arg = y if use_y else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        blocks = cv.get_blocks(np.zeros((n, 1)), y_arg)
    sizes = np.bincount(blocks, minlength=n_blocks)
    assert sizes.max() - sizes.min() <= 1  # block sizes differ by at most 1
    if use_y:
        for k in np.unique(y):  # per-class counts differ by at most 1
            per_class = np.bincount(blocks[y == k], minlength=n_blocks)
            assert per_class.max() - per_class.min() <= 1
    splits = _splits(cv, n, y_arg)
    assert len(splits) == 2 * m == cv.get_n_splits()
    for j in range(m):
        (s_train, t_test), (t_train, s_test) = splits[2 * j], splits[2 * j + 1]
        # the two test sets of a repetition partition the index set exactly
        assert_array_equal(np.sort(np.r_[t_test, s_test]), np.arange(n))
        assert_array_equal(s_train, s_test)
        assert_array_equal(t_train, t_test)
    # training sets of different repetitions share a quarter of the blocks
    for a in range(0, 2 * m, 2):
        for b in range(a + 2, 2 * m, 2):
            for ta in (splits[a][0], splits[a + 1][0]):
                for tb in (splits[b][0], splits[b + 1][0]):
                    shared = np.intersect1d(ta, tb).shape[0]
                    q = n_blocks // 4 if n_blocks >= 4 else None
                    if q:
                        lo = q * (n // n_blocks)
                        hi = q * -(-n // n_blocks)
                        assert lo <= shared <= hi


@settings(max_examples=40, deadline=None)
@given(n_groups=st.integers(4, 40), seed=st.integers(0, 10_000), m=st.integers(1, 7))
def test_groups_are_never_split(n_groups, seed, m):
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_groups, size=rng.integers(n_groups, 300))
    groups[:n_groups] = np.arange(n_groups)
    cv = BlockRegularizedMx2CV(m, random_state=seed)
    if n_groups < cv.n_blocks:
        with pytest.raises(ValueError, match="groups are needed"):
            cv.get_blocks(np.zeros(groups.shape[0]), groups=groups)
        return
    for train, test in _splits(cv, groups.shape[0], groups=groups):
        assert not set(groups[train]) & set(groups[test])
    # Longest-processing-time: sizes differ by no more than the largest group.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        sizes = np.bincount(cv.get_blocks(np.zeros(groups.shape[0]), groups=groups))
    assert sizes.max() - sizes.min() <= np.bincount(groups).max()


def test_3x2_partitions_are_table_1():
    # Table 1 of Wang & Li (2019): (B1 B2 | B3 B4), (B1 B3 | B2 B4), (B2 B3 | B1 B4)
    cv = BlockRegularized3x2CV(random_state=0)
    n = 40
    blocks = cv.get_blocks(np.zeros(n))
    splits = list(cv.split(np.zeros(n)))
    table = [({0, 1}, {2, 3}), ({0, 2}, {1, 3}), ({1, 2}, {0, 3})]
    for j, (s_blocks, t_blocks) in enumerate(table):
        train, test = splits[2 * j]
        assert set(blocks[train]) == s_blocks and set(blocks[test]) == t_blocks
        train, test = splits[2 * j + 1]
        assert set(blocks[train]) == t_blocks and set(blocks[test]) == s_blocks


def test_general_partitions_are_hadamard_columns():
    cv = BlockRegularizedMx2CV(7, random_state=0)
    blocks = cv.get_blocks(np.zeros(64))
    h = hadamard(8)
    for j, (train, _) in enumerate(list(cv.split(np.zeros(64)))[::2]):
        assert set(blocks[train]) == set(np.flatnonzero(h[:, j + 1] == 1))
    assert cv.n_blocks == 8 and BlockRegularizedMx2CV(15).n_blocks == 16
    assert BlockRegularizedMx2CV(1).n_blocks == 2


def test_int_seed_is_deterministic_and_seeds_differ():
    X, y = load_iris(return_X_y=True)
    a = _splits(BlockRegularized3x2CV(random_state=3), 150, y)
    b = _splits(BlockRegularized3x2CV(random_state=3), 150, y)
    cv = BlockRegularized3x2CV(random_state=3)
    c, d = _splits(cv, 150, y), _splits(cv, 150, y)
    for (tr1, te1), (tr2, te2), (tr3, _), (tr4, _) in zip(a, b, c, d, strict=True):
        assert_array_equal(tr1, tr2)
        assert_array_equal(te1, te2)
        assert_array_equal(tr1, tr3)
        assert_array_equal(tr3, tr4)
    other = _splits(BlockRegularized3x2CV(random_state=4), 150, y)
    assert not np.array_equal(a[0][0], other[0][0])


def test_count_matrix_is_balanced_better_than_random():
    rng = np.random.default_rng(0)
    counts = rng.poisson([0.3, 2.0, 0.05, 1.0], size=(2000, 4))
    X = np.zeros((2000, 1))
    greedy = BlockRegularized3x2CV(random_state=0).block_balance(X, counts)
    assert greedy.max_size_difference <= 1
    # Compare with the plain random cut, whose column totals drift.
    plain_blocks = BlockRegularized3x2CV(random_state=0).get_blocks(X)
    totals = np.zeros((4, 4))
    np.add.at(totals, plain_blocks, counts)
    plain_dev = np.max(np.abs(totals - totals.mean(0)) / totals.mean(0))
    assert greedy.max_relative_deviation < plain_dev
    assert greedy.max_relative_deviation < 0.05


def test_sklearn_integration():
    X, y = load_iris(return_X_y=True)
    cv = BlockRegularized3x2CV(random_state=0)
    model = LogisticRegression(max_iter=1000)
    assert cross_val_score(model, X, y, cv=cv).shape == (6,)
    assert len(cross_validate(model, X, y, cv=cv)["test_score"]) == 6
    search = GridSearchCV(model, {"C": [0.1, 1.0]}, cv=cv).fit(X, y)
    assert search.n_splits_ == 6
    # cross_val_predict needs a partition: one repetition is.
    pred = cross_val_predict(model, X, y, cv=BlockRegularizedMx2CV(1, random_state=0))
    assert pred.shape == (150,)
    assert repr(BlockRegularizedMx2CV(5, random_state=1)) == (
        "BlockRegularizedMx2CV(n_repetitions=5, random_state=1)"
    )


def test_bad_input():
    cv = BlockRegularized3x2CV(random_state=0)
    with pytest.raises(ValueError, match="at least 4 samples are needed"):
        cv.get_blocks(np.zeros(3))
    with pytest.raises(ValueError, match="at least 4 groups are needed"):
        cv.get_blocks(np.zeros(10), groups=[0, 1, 2] * 3 + [0])
    with pytest.warns(UserWarning, match="least populated class"):
        blocks = cv.get_blocks(np.zeros(10), np.r_[np.zeros(8), 1, 1])
    assert blocks.shape == (10,)
    with pytest.raises(ValueError, match="continuous"):
        cv.get_blocks(np.zeros(10), np.linspace(0, 1, 10))
    with pytest.raises(ValueError, match="non-negative"):
        cv.get_blocks(np.zeros(4), -np.ones((4, 2)))
    with pytest.raises(ValueError, match="n_repetitions"):
        BlockRegularizedMx2CV(16).get_n_splits()
    with pytest.warns(UserWarning, match="larger than a block"):
        cv.get_blocks(np.zeros(20), groups=np.r_[np.zeros(14), np.arange(1, 7)])


def test_example_renders_its_figure(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    import runpy
    from pathlib import Path

    script = Path(__file__).parents[2] / "examples" / "plot_block_regularized_cv.py"
    runpy.run_path(str(script))["main"]([str(tmp_path / "bcv.png")])
    assert (tmp_path / "bcv.png").stat().st_size > 5_000
    assert "samples per block: [25, 25, 25, 25]" in capsys.readouterr().out


@pytest.mark.parametrize("routing", [False, True])
def test_groups_reach_the_splitter(routing):
    """``groups`` reaches the splitter through cross_validate, GridSearchCV and
    BayesModelComparison, with metadata routing enabled or not."""
    from sklearn import config_context
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, cross_validate
    from sklearn.naive_bayes import GaussianNB

    from sklearn_faithful.comparison import BayesModelComparison

    rng = np.random.default_rng(0)
    X = rng.standard_normal((120, 3))
    y = (X[:, 0] + 0.5 * rng.standard_normal(120) > 0).astype(int)
    groups = np.repeat(np.arange(30), 4)
    cv = BlockRegularized3x2CV(random_state=0)
    expected = [test for _, test in cv.split(X, y, groups)]
    ungrouped = [test for _, test in cv.split(X, y)]
    assert not all(
        np.array_equal(a, b) for a, b in zip(expected, ungrouped, strict=True)
    )
    # with routing, metadata goes through ``params``; without, as ``groups``
    given = {"params": {"groups": groups}} if routing else {"groups": groups}
    with config_context(enable_metadata_routing=routing):
        res = cross_validate(GaussianNB(), X, y, cv=cv, return_indices=True, **given)
        for got, want in zip(res["indices"]["test"], expected, strict=True):
            np.testing.assert_array_equal(np.sort(got), np.sort(want))
        search = GridSearchCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, cv=cv, return_train_score=False
        ).fit(X, y, groups=groups)
        assert search.n_splits_ == 6
        comp = BayesModelComparison(
            GaussianNB(), LogisticRegression(), cv=cv, metrics="f1"
        ).fit(X, y, groups=groups)
        for (_, got), want in zip(comp.splits_, expected, strict=True):
            np.testing.assert_array_equal(np.sort(got), np.sort(want))
