"""n_jobs and verbose of the resampling functions.

Resamples are drawn in fixed blocks, each from its own random stream, so the
result must be the same, bit for bit, whatever the number of jobs and the
joblib backend; n_jobs=2 below runs joblib's default (loky) processes.
"""

import functools

import numpy as np
import pytest
from joblib import parallel_config

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)
from sklearn_faithful.holdout._fast_metrics import RESAMPLE_BLOCK, run_resamples
from sklearn_faithful.utils._param_validation import InvalidParameterError

# 3 blocks (256, 256, 8): more blocks than jobs, and a short last one
N_RESAMPLES = 2 * RESAMPLE_BLOCK + 8


def _data(n=80, k=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    pa, pb = rng.dirichlet(np.ones(k), n), rng.dirichlet(np.ones(k) * 2, n)
    return y, a, b, pa, pb


def _hits(y_true, y_pred, sample_weight=None):
    """Accuracy without a fast path, cheap enough to call thousands of times."""
    return float(np.average(y_true == y_pred, weights=sample_weight))


def _arrays(res):
    """Every number of a result, NaN-safe, for an exact comparison."""
    if hasattr(res, "pvalue"):  # a test: the interval is a method
        dist = res.null_distribution
        extra = [res.statistic, *res.confidence_interval(), res.pvalue]
    else:  # an interval of a score: the interval is a field
        dist = res.bootstrap_distribution
        extra = [res.statistic, *res.confidence_interval, res.standard_error]
    return np.concatenate([dist, extra])


def _cases():
    y, a, b, pa, pb = _data()
    w = np.linspace(0.5, 2, y.size)
    kw = dict(n_resamples=N_RESAMPLES, random_state=0)
    boot = functools.partial(bootstrap_confidence_interval, **kw)
    paired = functools.partial(paired_bootstrap_test, **kw)
    perm = functools.partial(paired_permutation_test, **kw)
    return {
        # fast paths: label cells (multinomial), weighted items, probabilities
        "boot-f1-cells": lambda **j: boot(y, a, metric="f1_macro", **j),
        "boot-f1-weighted": lambda **j: boot(
            y, a, metric="f1_macro", metric_kwargs={"sample_weight": w}, **j
        ),
        "boot-cf1": lambda **j: boot(y, pa, metric="cf1_macro", **j),
        "boot-generic": lambda **j: boot(y, a, metric=_hits, **j),
        "boot-bca": lambda **j: boot(y, a, metric=_hits, method="bca", **j),
        "paired-f1-cells": lambda **j: paired(y, a, b, metric="f1_macro", **j),
        "paired-cf1": lambda **j: paired(y, pa, pb, metric="cf1_macro", **j),
        "paired-generic": lambda **j: paired(y, a, b, metric=_hits, **j),
        "perm-f1-cells": lambda **j: perm(y, a, b, metric="f1_macro", **j),
        "perm-cf1": lambda **j: perm(y, pa, pb, metric="cf1_macro", **j),
        "perm-generic": lambda **j: perm(y, a, b, metric=_hits, **j),
        "kappa": lambda **j: kappa_confidence_interval(
            y, a, weights="quadratic", **kw, **j
        ),
    }


CASES = _cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_n_jobs_gives_identical_results(case):
    call = CASES[case]
    one = call(n_jobs=1)
    np.testing.assert_array_equal(_arrays(call(n_jobs=2)), _arrays(one))
    # n_jobs=None takes the number of jobs (and the backend) from the context
    with parallel_config(backend="threading", n_jobs=3):
        np.testing.assert_array_equal(_arrays(call()), _arrays(one))
    assert _arrays(one).size == N_RESAMPLES + 4


def test_blocks_do_not_depend_on_their_number():
    """The stream of block j is the same whatever the total: a prefix is kept."""
    y, a, *_ = _data()
    long = bootstrap_confidence_interval(y, a, n_resamples=N_RESAMPLES, random_state=3)
    short = bootstrap_confidence_interval(y, a, n_resamples=300, random_state=3)
    np.testing.assert_array_equal(
        short.bootstrap_distribution, long.bootstrap_distribution[:300]
    )


def test_a_generator_is_advanced():
    y, a, *_ = _data()
    rng = np.random.default_rng(0)
    first = bootstrap_confidence_interval(y, a, n_resamples=50, random_state=rng)
    second = bootstrap_confidence_interval(y, a, n_resamples=50, random_state=rng)
    assert not np.array_equal(
        first.bootstrap_distribution, second.bootstrap_distribution
    )


def test_run_resamples_puts_blocks_in_order():
    def draw(rng, size):
        return rng.random(size)

    reference = run_resamples(draw, np.random.default_rng(1), 1000)
    with parallel_config(backend="threading"):
        for n_jobs in (2, 3, -1):
            out = run_resamples(draw, np.random.default_rng(1), 1000, n_jobs=n_jobs)
            np.testing.assert_array_equal(out, reference)
    # each block is its own stream: not one stream cut into pieces
    assert not np.array_equal(reference, np.random.default_rng(1).random(1000))


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_verbose_prints_progress_on_stderr(capsys, n_jobs):
    y, a, b, *_ = _data()
    paired_permutation_test(
        y, a, b, n_resamples=N_RESAMPLES, random_state=0, n_jobs=n_jobs, verbose=1
    )
    out, err = capsys.readouterr()
    assert out == ""
    jobs = "1 job" if n_jobs == 1 else f"{n_jobs} jobs"
    assert f"[paired_permutation_test] {N_RESAMPLES} permutations in 3 blocks" in err
    assert f"of at most {RESAMPLE_BLOCK}, on {jobs}" in err
    last = f"[paired_permutation_test] {N_RESAMPLES}/{N_RESAMPLES}"
    assert f"{last} permutations, " in err
    assert f"{last} bootstrap resamples, " in err


def test_verbose_2_prints_every_block_and_0_nothing(capsys):
    y, a, *_ = _data()
    kappa_confidence_interval(y, a, n_resamples=N_RESAMPLES, random_state=0)
    assert capsys.readouterr() == ("", "")
    kappa_confidence_interval(y, a, n_resamples=N_RESAMPLES, random_state=0, verbose=2)
    err = capsys.readouterr().err
    for done in (256, 512, N_RESAMPLES):
        assert f"[kappa_confidence_interval] {done}/{N_RESAMPLES} resamples, " in err


@pytest.mark.parametrize(
    "func",
    [
        bootstrap_confidence_interval,
        paired_bootstrap_test,
        paired_permutation_test,
        kappa_confidence_interval,
    ],
)
@pytest.mark.parametrize(
    "param, value, allowed",
    [
        ("n_jobs", 0, r"an int in the range \(-inf, -1\], an int in the range"),
        ("n_jobs", 1.5, "an int in the range"),
        ("n_jobs", "2", "None"),
        ("verbose", -1, "an int in the range"),
        ("verbose", "yes", "an int in the range"),
    ],
)
def test_bad_n_jobs_and_verbose_are_rejected(func, param, value, allowed):
    y, a, b, *_ = _data(n=20)
    paired = func in (paired_bootstrap_test, paired_permutation_test)
    args = (y, a, b) if paired else (y, a)
    match = (
        rf"The '{param}' parameter of {func.__name__} must be .*{allowed}.* "
        rf"Got {value!r} instead\."
    )
    with pytest.raises(InvalidParameterError, match=match):
        func(*args, **{param: value})
