"""Tests of the statistics toolbox: gates, bootstrap, paired tests, agreement."""

import functools
import json
import os
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.gate import (
    AccuracyRegressionTest,
    estimate_sigma,
    minimum_detectable_effect,
    regression_threshold,
    required_sample_size,
)

# --- regression gates (formulas page) --------------------------------------------


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
@pytest.mark.parametrize("sigma, n", [(0.3, 100), (0.5, 1000), (12.0, 57)])
def test_threshold_and_mde_formulas(alpha, sigma, n):
    se = np.sqrt(2 * sigma**2 / n)
    gamma = regression_threshold(0.8, sigma, n, alpha=alpha)
    assert gamma == pytest.approx(0.8 + stats.norm.ppf(alpha) * se)
    assert gamma < 0.8
    up = regression_threshold(0.8, sigma, n, alpha=alpha, higher_is_better=False)
    assert up == pytest.approx(0.8 - stats.norm.ppf(alpha) * se)
    theta = minimum_detectable_effect(sigma, n, alpha=alpha, beta=0.1)
    assert theta == pytest.approx((stats.norm.ppf(0.9) - stats.norm.ppf(alpha)) * se)
    # beta from the text's derivation: P(mean' > gamma | true drop theta)
    miss = stats.norm.sf((gamma - (0.8 - theta)) / se)
    assert miss == pytest.approx(0.1)


@pytest.mark.parametrize("sigma", [0.1, 0.3, 0.5, 3.0])
@pytest.mark.parametrize("target", [0.001, 0.013, 0.05, 0.2])
@pytest.mark.parametrize("alpha, beta", [(0.05, 0.2), (0.01, 0.1), (0.1, 0.3)])
def test_sample_size_is_smallest_n(sigma, target, alpha, beta):
    n = required_sample_size(sigma, target, alpha=alpha, beta=beta)
    theta = functools.partial(minimum_detectable_effect, sigma, alpha=alpha, beta=beta)
    assert theta(n) <= target
    if n > 1:
        assert theta(n - 1) > target


def test_sample_size_matches_iterating_n():
    # the text's recipe: iterate n from small to large until theta(n) <= target
    sigma, target = 0.4, 0.03
    n = 1
    while minimum_detectable_effect(sigma, n) > target:
        n += 1
    closed, table = required_sample_size(sigma, target, return_table=True)
    assert closed == n
    assert closed in table["n"]
    np.testing.assert_allclose(
        table["theta"], minimum_detectable_effect(sigma, table["n"])
    )
    assert (np.diff(table["theta"]) < 0).all()


def test_estimate_sigma():
    assert estimate_sigma(proportion=0.9) == pytest.approx(0.3)
    scores = np.array([1, 0, 1, 1, 0, 1.0])
    assert estimate_sigma(scores) == pytest.approx(scores.std(ddof=1))
    # the worst case costs (0.5 / 0.3)^2 = 2.8x the items at 90% accuracy
    ratio = required_sample_size(0.5, 0.02) / required_sample_size(0.3, 0.02)
    assert ratio == pytest.approx((0.5 / 0.3) ** 2, rel=0.01)


def test_gate_passes_fails_and_round_trips(tmp_path):
    rng = np.random.default_rng(0)
    gate = AccuracyRegressionTest(theta=0.03, sigma=0.3, paired=False)
    n = gate.plan()
    assert n == required_sample_size(0.3, 0.03)
    gate.set_reference((rng.random(n) < 0.9).astype(float))
    same = gate.check((rng.random(n) < 0.9).astype(float))
    worse = gate.check((rng.random(n) < 0.83).astype(float))
    assert worse.passed is False and worse.pvalue < 0.05
    assert same.threshold == gate.threshold_
    assert worse.power_at_theta == pytest.approx(0.8, abs=0.01)
    path = tmp_path / "gate.json"
    gate.save(path)
    json.loads(path.read_text())
    again = AccuracyRegressionTest.load(path)
    assert again.check(
        worse_scores := (rng.random(n) < 0.83).astype(float)
    ) == gate.check(worse_scores)


def test_gate_lower_is_better_and_paired(tmp_path):
    rng = np.random.default_rng(1)
    ref = rng.normal(100, 10, 400)  # latency, lower is better
    gate = AccuracyRegressionTest(higher_is_better=False, theta=2.0, paired=True)
    gate.set_reference(ref)
    slower = ref + rng.normal(0.8, 2.0, 400)  # each item 0.8 slower
    res = gate.check(slower)
    assert not res.passed and res.threshold > gate.reference_mean_
    unpaired = AccuracyRegressionTest(higher_is_better=False, theta=2.0, paired=False)
    assert unpaired.set_reference(ref).check(slower).passed  # far less power
    gate.save(tmp_path / "g.json")
    assert AccuracyRegressionTest.load(tmp_path / "g.json").check(slower) == res


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: regression_threshold(0.9, 0.0, 10), "sigma"),
        (lambda: minimum_detectable_effect(0.3, 10, alpha=0.6), "alpha"),
        (lambda: minimum_detectable_effect(0.3, 10, beta=0.0), "beta"),
        (lambda: required_sample_size(0.3, -0.1), "theta"),
        (lambda: regression_threshold(0.9, 0.3, 0), "n"),
        (lambda: AccuracyRegressionTest().plan(), "sigma and theta"),
        (lambda: AccuracyRegressionTest().check([1, 0]), "set_reference"),
        (lambda: AccuracyRegressionTest(sigma=0.3).set_reference([1.0]), "2 items"),
        (
            lambda: AccuracyRegressionTest(sigma=0.3).set_reference([1, 0]).check([1]),
            "items",
        ),
    ],
)
def test_gate_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- the gate where the normal approximation is poor --------------------------


def test_perfect_reference_run():
    perfect = np.ones(300)
    with pytest.raises(ValueError, match="all 300 reference scores equal 1.0"):
        AccuracyRegressionTest(paired=False).set_reference(perfect)
    paired = AccuracyRegressionTest().set_reference(perfect)  # paired by default
    worse = perfect.copy()
    worse[:30] = 0
    assert not paired.check(worse).passed
    assert paired.check(perfect).passed
    sigma = estimate_sigma(proportion=1 - 3 / 300)
    with pytest.warns(UserWarning, match="normal approximation is poor"):
        gate = AccuracyRegressionTest(sigma=sigma, paired=False).set_reference(perfect)
    assert gate.check(perfect).passed


def test_gate_warns_where_its_false_alarms_exceed_alpha():
    rng = np.random.default_rng(0)
    unpaired = AccuracyRegressionTest(paired=False)
    with pytest.warns(UserWarning, match=r"n min\(p, 1 - p\) = 5 < 100"):
        unpaired.set_reference((np.arange(100) >= 5).astype(float))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unpaired.set_reference((rng.random(2000) < 0.9).astype(float))
        AccuracyRegressionTest().set_reference(np.arange(100) >= 5)  # paired
        unpaired.set_reference(rng.random(50))  # not 0/1 scores


def test_gate_warns_for_skewed_scores():
    """Lognormal latencies of 50 items: the unpaired gate's false alarms ran to
    17.9% at alpha = 0.05 (sim_gate_false_alarms.py --held-back); it warns,
    with the skewness and the measured rate, at any magnitude."""
    rng = np.random.default_rng(0)
    latencies = rng.lognormal(0.0, 1.5, 50)
    g = np.mean(((latencies - latencies.mean()) / latencies.std()) ** 3)
    gate = AccuracyRegressionTest(paired=False, higher_is_better=False)
    for scale in (1.0, 1e-300, 1e300):
        with pytest.warns(UserWarning, match=f"skewness {g:.3g} on 50 items") as rec:
            gate.set_reference(latencies * scale)
        assert "17.9% at alpha=0.05" in str(rec[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gate.set_reference(rng.normal(10.0, 1.0, 50))  # no skew
        AccuracyRegressionTest(higher_is_better=False).set_reference(latencies)
    # the 0/1 warning gives the rates measured at alpha 0.05 and 0.01
    with pytest.warns(UserWarning, match=r"10\.1% at alpha=0\.05 and 3\.4% at"):
        AccuracyRegressionTest(paired=False, alpha=0.01).set_reference(
            (np.arange(100) >= 5).astype(float)
        )


def test_regression_gate_is_estimator_like(tmp_path):
    """get_params, set_params, clone, scikit-learn's repr and NotFittedError."""
    from sklearn.base import clone
    from sklearn.exceptions import NotFittedError

    gate = AccuracyRegressionTest(theta=0.03, sigma=0.3)
    assert gate.get_params() == {
        "alpha": 0.05,
        "beta": 0.2,
        "higher_is_better": True,
        "paired": True,
        "sigma": 0.3,
        "theta": 0.03,
    }
    assert repr(gate) == "AccuracyRegressionTest(sigma=0.3, theta=0.03)"
    assert gate.set_params(alpha=0.01) is gate and gate.alpha == 0.01
    copy = clone(gate)
    assert copy.get_params() == gate.get_params()
    for call in (lambda g: g.check([1.0, 0.0]), lambda g: g.save(tmp_path / "g.json")):
        with pytest.raises(NotFittedError, match="set_reference"):
            call(copy)
    scores = np.tile([1.0, 0.0, 1.0, 1.0], 50)
    gate.set_reference(scores)
    assert not hasattr(clone(gate), "reference_mean_")  # clone drops the reference
    gate.save(tmp_path / "g.json")
    loaded = AccuracyRegressionTest.load(tmp_path / "g.json")
    assert loaded.get_params() == gate.get_params()
    assert loaded.check(scores) == gate.check(scores)


@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_interval_inverts_the_gate(paired, higher_is_better):
    """The one-sided interval at 1 - alpha reaches 0 exactly when the run passes."""
    rng = np.random.default_rng(2)
    ref = rng.normal(0.8, 0.1, 500)
    gate = AccuracyRegressionTest(higher_is_better=higher_is_better, paired=paired)
    gate.set_reference(ref)
    sign = 1.0 if higher_is_better else -1.0
    for shift in np.linspace(-0.03, 0.03, 13):
        res = gate.check(ref + sign * shift + rng.normal(0, 0.02, 500))
        low, high = res.confidence_interval()
        assert res.confidence_level == 1 - gate.alpha
        assert res.passed == (low <= 0 <= high)
        assert (low == -np.inf) == higher_is_better and (high == np.inf) != (
            higher_is_better
        )
        se = res.standard_error
        assert res.statistic == pytest.approx(sign * res.effect / se)
        wide = res.confidence_interval(0.99)
        assert wide.low <= low and wide.high >= high


def test_gate_is_paired_by_default():
    assert AccuracyRegressionTest().paired is True
    ref = np.tile([1.0, 0.0, 1.0, 1.0], 50)
    res = AccuracyRegressionTest().set_reference(ref).check(ref)
    assert res.paired and res.passed and res.effect == 0.0


# --- a saved gate is read like input ---------------------------------------------


def _saved(tmp_path, paired=True):
    rng = np.random.default_rng(0)
    gate = AccuracyRegressionTest(paired=paired, theta=0.05)
    with warnings.catch_warnings():  # the unpaired gate's warning on 50 items
        warnings.simplefilter("ignore", UserWarning)
        gate.set_reference((rng.random(50) < 0.8).astype(float))
    path = tmp_path / "gate.json"
    gate.save(path)
    return path, json.loads(path.read_text())


def _tamper(data, **changes):
    return {**data, **changes}


@pytest.mark.parametrize(
    "change, match",
    [
        (dict(alpha=float("nan")), r"key 'alpha' is nan; it must be a finite number"),
        (dict(alpha="0.05"), r"key 'alpha' is '0.05'; it must be a finite number"),
        (dict(alpha=True), r"key 'alpha' is True"),
        (dict(alpha=1.5), r"'alpha' parameter of AccuracyRegressionTest"),
        (dict(n=50.5), r"key 'n' is 50.5; it must be an integer >= 2"),
        (dict(n=1), r"key 'n' is 1; it must be an integer >= 2"),
        (dict(sigma_=-1.0), r"key 'sigma_' is -1.0; it must be a finite number >= 0"),
        (dict(reference_mean=float("inf")), r"key 'reference_mean' is inf"),
        (dict(reference_mean=0.5), r"'reference_mean' is 0.5 but the stored"),
        (dict(paired="yes"), r"key 'paired' is 'yes'; it must be true or false"),
        (dict(reference_scores=[0.5] * 3), r"must list the n = 50 paired"),
        (dict(version=2), r"key 'version' is 2; this version .* reads version 1"),
        (dict(format="something"), "is not a saved AccuracyRegressionTest"),
        (dict(extra=1), r"keys \[\] are missing and \['extra'\] unknown"),
    ],
)
def test_load_refuses_a_tampered_file(tmp_path, change, match):
    path, data = _saved(tmp_path)
    path.write_text(json.dumps(_tamper(data, **change)))
    with pytest.raises(ValueError, match=match) as info:
        AccuracyRegressionTest.load(path)
    assert "gate.json" in str(info.value)


def test_load_refuses_a_missing_key_and_a_bad_score(tmp_path):
    path, data = _saved(tmp_path)
    del data["beta"]
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"keys \['beta'\] are missing"):
        AccuracyRegressionTest.load(path)
    path, data = _saved(tmp_path)
    data["reference_scores"][3] = None
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"reference_scores\[3\]: key 'score' is None"):
        AccuracyRegressionTest.load(path)


def test_load_unpaired_consistency(tmp_path):
    path, data = _saved(tmp_path, paired=False)
    path.write_text(json.dumps(_tamper(data, reference_scores=[1.0, 0.0])))
    with pytest.raises(ValueError, match="must be null for an unpaired gate"):
        AccuracyRegressionTest.load(path)
    path.write_text(json.dumps(_tamper(data, sigma_=0.0)))
    with pytest.raises(ValueError, match="needs a positive standard deviation"):
        AccuracyRegressionTest.load(path)


def test_load_refuses_what_is_not_a_saved_gate(tmp_path):
    path, _ = _saved(tmp_path)
    path.write_text('{"alpha": 0.05,')
    with pytest.raises(ValueError, match=r"is not JSON \(line 1, column 16"):
        AccuracyRegressionTest.load(path)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="is not a saved AccuracyRegressionTest"):
        AccuracyRegressionTest.load(path)
    with pytest.raises(ValueError, match="does not exist"):
        AccuracyRegressionTest.load(tmp_path / "nothing.json")
    with pytest.raises(ValueError, match="is a directory"):
        AccuracyRegressionTest.load(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\)"):
        AccuracyRegressionTest.load(fifo)  # refused before it is opened: no hang


def test_load_reads_a_file_with_a_byte_order_mark(tmp_path):
    path, data = _saved(tmp_path)
    gate = AccuracyRegressionTest.load(path)
    path.write_text("\ufeff" + json.dumps(data), encoding="utf-8")
    again = AccuracyRegressionTest.load(path)
    scores = np.r_[np.ones(40), np.zeros(10)]
    assert again.check(scores) == gate.check(scores)
