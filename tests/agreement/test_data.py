"""The long format to reliability data."""

import numpy as np
import pytest

from sklearn_faithful.agreement import krippendorff_alpha, reliability_data_from_long


def test_long_equals_wide_in_any_order():
    rng = np.random.default_rng(0)
    wide = rng.integers(0, 3, (3, 20)).astype(float)
    wide[rng.random(wide.shape) < 0.2] = np.nan
    coder, unit = np.nonzero(~np.isnan(wide))
    order = rng.permutation(coder.size)
    data, units, coders = reliability_data_from_long(
        unit[order], np.array(["a", "b", "c"])[coder[order]], wide[coder, unit][order]
    )
    assert coders.tolist() == ["a", "b", "c"]
    kept = np.isin(np.arange(20), units)
    np.testing.assert_array_equal(data, wide[:, kept])
    assert krippendorff_alpha(data) == pytest.approx(krippendorff_alpha(wide))


def test_strings_give_objects_with_none():
    data, _, _ = reliability_data_from_long([1, 1, 2], ["x", "y", "x"], ["a", "b", "a"])
    assert data.dtype == object and data[1, 1] is None


def test_a_pair_given_twice_is_refused():
    with pytest.raises(ValueError, match="coder 'x' coded unit 1 2 times"):
        reliability_data_from_long([1, 1], ["x", "x"], [0, 1])


def test_lengths_must_match():
    with pytest.raises(ValueError, match="one entry per record"):
        reliability_data_from_long([1, 2], ["x"], [0, 1])
