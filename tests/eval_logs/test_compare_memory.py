"""compare_runs holds nothing that grows with the items beyond what it needs."""

import tracemalloc

import numpy as np
import pytest

from sklearn_faithful.eval_logs import compare_runs
from sklearn_faithful.eval_logs._compare import (
    _centred,
    _runs_matrix,
    _unit_parts,
)

N = 200_000


def _peak(func):
    """``(result, peak bytes)`` that ``func()`` allocates (tracemalloc)."""
    tracemalloc.start()
    try:
        result = func()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak


def _runs(kind, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "binary":
        return {
            k: (rng.random(N) < p).astype(np.float64)
            for k, p in zip("ABC", (0.6, 0.62, 0.65), strict=True)
        }
    return {k: rng.normal(5, 2, N) for k in "ABC"}


@pytest.mark.parametrize("kind", ["binary", "floats"])
def test_scores_are_copied_once_and_centred_in_place(kind):
    # the scores matrix is the one copy of the runs: no float copy of each
    # run before it, no rescaled nor centred copy after it (the median's
    # partition is the one transient copy); before, 3.1x the matrix
    runs = _runs(kind)
    kept = {k: v.copy() for k, v in runs.items()}

    def centred():
        _, scores, _ = _runs_matrix(runs, None)
        return _centred(scores, copy=False)

    (exponent, centre, scores), peak = _peak(centred)
    assert peak <= 2.5 * scores.nbytes
    want = _centred(np.column_stack(list(kept.values())))
    assert (exponent, centre) == want[:2]
    np.testing.assert_array_equal(scores, want[2])
    for k, v in runs.items():  # the inputs are not modified
        np.testing.assert_array_equal(v, kept[k])


def test_codes_of_few_scores_take_a_byte_each():
    # the codes are kept for every pair: 0/1 scores need one byte an item
    runs = _runs("binary")
    parts, peak = _peak(lambda: _unit_parts(list(runs.values()), None))
    for (values, codes), column in zip(parts, runs.values(), strict=True):
        assert codes.itemsize == 1
        np.testing.assert_array_equal(values[codes], column)


def test_integer_and_boolean_scores_give_the_results_of_floats():
    # the runs are cast as the scores matrix is filled, not copied first
    rng = np.random.default_rng(1)
    a = rng.random(500) < 0.6
    b = np.where(rng.random(500) < 0.2, True, a)
    c = rng.integers(1, 11, 500).astype(np.int8)
    kwargs = dict(n_resamples=199, random_state=0, interval="percentile")
    got = compare_runs({"A": a, "B": b.astype(np.int8), "C": c}, **kwargs)
    want = compare_runs(
        {"A": a.astype(float), "B": b.astype(float), "C": c.astype(float)}, **kwargs
    )
    assert got.to_dict() == want.to_dict()


@pytest.mark.parametrize("kind", ["binary", "floats"])
def test_peak_is_few_copies_of_the_runs(kind):
    # 3 runs x 2e5 items: the matrix, the jackknife's temporaries of one run
    # and a pair's cells; before, 9.1x (0/1) and 13.0x (floats) the runs
    runs = _runs(kind)
    size = sum(v.nbytes for v in runs.values())
    _, peak = _peak(lambda: compare_runs(runs, n_resamples=49, random_state=0))
    assert peak <= (8.5 if kind == "binary" else 12.5) * size
