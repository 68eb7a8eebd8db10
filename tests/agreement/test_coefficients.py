"""The coefficients against their definitions, the bootstrap against its engine."""

import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    agreement_report,
    coder_diagnostics,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    percent_agreement,
    scotts_pi,
)
from sklearn_faithful.agreement._coefficients import (
    _alpha_features,
    _kappa_features,
    _point,
    _prepare,
    agreement_weights,
)
from sklearn_faithful.agreement._data import check_reliability_data, value_counts

nan = np.nan
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C
K2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
)
COEFFICIENTS = [
    "krippendorff_alpha",
    "fleiss_kappa",
    "gwet_ac",
    "percent_agreement",
]


def _random_data(seed, n_coders=4, n_units=80, k=4, missing=0.3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n_units)
    data = np.where(
        rng.random((n_coders, n_units)) < 0.7,
        truth,
        rng.integers(1, k + 1, (n_coders, n_units)),
    ).astype(float)
    data[rng.random(data.shape) < missing] = nan
    return data


@pytest.mark.parametrize(
    "level, published",
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_2011_example(level, published):
    assert krippendorff_alpha(K2011, level_of_measurement=level) == pytest.approx(
        published, abs=5e-4
    )


def test_nominal_alpha_closed_form_two_coders():
    # two coders, no missing value: alpha = 1 - (n - 1) D / sum n_c (n - n_c)
    y1 = np.array([0, 0, 1, 1, 2, 2, 0, 1])
    y2 = np.array([0, 1, 1, 1, 2, 0, 0, 1])
    values = np.concatenate([y1, y2])
    n = values.size
    n_c = np.bincount(values)
    disagree = 2 * np.count_nonzero(y1 != y2)  # ordered pairs
    expected = 1 - (n - 1) * disagree / np.sum(n_c * (n - n_c))
    assert krippendorff_alpha([y1, y2]) == pytest.approx(expected)


def test_units_with_one_value_do_not_count_for_alpha():
    data = K2011.copy()
    extra = np.full((4, 1), nan)
    extra[0] = 5
    assert krippendorff_alpha(np.hstack([data, extra])) == pytest.approx(
        krippendorff_alpha(data)
    )
    # but the kappa family's chance term counts them
    assert fleiss_kappa(np.hstack([data, extra])) != pytest.approx(fleiss_kappa(data))


def test_all_missing_units_change_nothing():
    empty = np.full((4, 3), nan)
    for f in (krippendorff_alpha, fleiss_kappa, gwet_ac, percent_agreement):
        assert f(np.hstack([K2011, empty])) == pytest.approx(f(K2011))


def test_strings_numbers_and_order():
    words = np.array(["low", "mid", "high"], dtype=object)
    data = _random_data(0, k=3, missing=0.0).astype(int) - 1
    as_words = words[data]
    assert krippendorff_alpha(as_words) == pytest.approx(krippendorff_alpha(data))
    ordinal = krippendorff_alpha(
        as_words, level_of_measurement="ordinal", value_domain=["low", "mid", "high"]
    )
    assert ordinal == pytest.approx(
        krippendorff_alpha(data, level_of_measurement="ordinal")
    )
    with pytest.raises(ValueError, match="value_domain"):
        krippendorff_alpha(as_words, level_of_measurement="ordinal")


def test_value_domain_unused_values():
    data = _random_data(1, k=3)
    # nominal alpha does not see a value no coder used; Gwet's chance term does
    assert krippendorff_alpha(data, value_domain=[1, 2, 3, 4]) == pytest.approx(
        krippendorff_alpha(data)
    )
    assert gwet_ac(data, value_domain=[1, 2, 3, 4]) != pytest.approx(gwet_ac(data))
    with pytest.raises(ValueError, match="outside value_domain"):
        krippendorff_alpha(data, value_domain=[1, 2])


def test_callable_distance_equals_interval():
    data = _random_data(2)
    got = krippendorff_alpha(data, level_of_measurement=lambda a, b: (a - b) ** 2)
    assert got == pytest.approx(
        krippendorff_alpha(data, level_of_measurement="interval")
    )


def test_prevalence_paradox():
    # 95% "no", coders agree on 94% of the units
    rng = np.random.default_rng(0)
    truth = rng.random(500) < 0.05
    data = np.where(rng.random((2, 500)) < 0.97, truth, ~truth).astype(int)
    assert percent_agreement(data) > 0.9
    assert fleiss_kappa(data) < 0.7 < gwet_ac(data)


def test_scotts_pi_is_two_coder_fleiss():
    data = _random_data(3, n_coders=2, missing=0.0)
    assert scotts_pi(data) == pytest.approx(fleiss_kappa(data))
    with pytest.raises(ValueError, match="2 coders"):
        scotts_pi(_random_data(3, n_coders=3))


def test_fleiss_kappa_closed_form():
    # Fleiss (1971): P_bar and P_e from the (units x categories) counts
    data = _random_data(4, n_coders=5, missing=0.0).astype(int)
    counts = np.stack([np.bincount(u, minlength=5) for u in data.T])
    r = 5
    p_bar = np.mean((np.sum(counts**2, axis=1) - r) / (r * (r - 1)))
    p = counts.sum(axis=0) / counts.sum()
    p_e = np.sum(p**2)
    assert fleiss_kappa(data) == pytest.approx((p_bar - p_e) / (1 - p_e))


@pytest.mark.parametrize("coefficient", COEFFICIENTS)
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_feature_sums_equal_the_coefficient_on_repeated_units(coefficient, level):
    # the engine's coefficient of a resample's feature sums is the coefficient
    # of the data with the units repeated as often as they were drawn
    data = _random_data(5)
    domain = [1, 2, 3, 4]
    weights = None if level == "nominal" else "quadratic"
    alpha = coefficient == "krippendorff_alpha"
    codes, values = check_reliability_data(data, domain)
    counts = value_counts(codes, 4)
    kept = counts.sum(axis=1) >= (2 if alpha else 1)
    counts, data = counts[kept], data[:, kept]
    if alpha:
        features = _alpha_features(counts, level, values)[0]
    else:
        features = _kappa_features(counts, agreement_weights(values, weights))
    of_sums = _prepare(data, coefficient, level, weights, domain).of_sums
    rng = np.random.default_rng(0)
    for _ in range(3):
        idx = rng.integers(0, data.shape[1], data.shape[1])
        sums = np.bincount(idx, minlength=data.shape[1]) @ features
        direct = _point(data[:, idx], coefficient, level, weights, domain)
        assert of_sums(sums[None])[0] == pytest.approx(direct)


def test_interval_reproducible_and_same_for_any_n_jobs():
    data = _random_data(6)
    one = agreement_confidence_interval(data, n_resamples=999, random_state=3)
    two = agreement_confidence_interval(data, n_resamples=999, random_state=3, n_jobs=2)
    np.testing.assert_array_equal(
        one.bootstrap_distribution, two.bootstrap_distribution
    )
    assert one.confidence_interval.low < one.statistic < one.confidence_interval.high


def test_unit_bootstrap_equals_a_loop_in_distribution():
    # the multinomial over distinct rows draws what resampling units does
    from scipy.stats import ks_2samp

    data = _random_data(7, n_units=40)
    res = agreement_confidence_interval(data, n_resamples=2000, random_state=0)
    rng = np.random.default_rng(1)
    loop = [krippendorff_alpha(data[:, rng.integers(0, 40, 40)]) for _ in range(2000)]
    kept = np.count_nonzero(~np.isnan(data), axis=0) >= 2
    loop = [
        krippendorff_alpha(data[:, kept][:, rng.integers(0, kept.sum(), kept.sum())])
        for _ in range(2000)
    ]
    assert ks_2samp(res.bootstrap_distribution, loop).pvalue > 0.001


def test_krippendorff_bootstrap():
    res = agreement_confidence_interval(
        K2011, method="krippendorff", n_resamples=4999, random_state=0
    )
    assert res.method == "krippendorff"
    assert abs(np.mean(res.bootstrap_distribution) - res.statistic) < 0.02
    assert res.bootstrap_distribution.min() >= -1
    with pytest.raises(ValueError, match="alpha"):
        agreement_confidence_interval(
            K2011, coefficient="gwet_ac", method="krippendorff"
        )
    with pytest.raises(ValueError, match="percentile"):
        agreement_confidence_interval(K2011, method="krippendorff", interval="bca")


def test_bca_interval():
    res = agreement_confidence_interval(
        _random_data(8), coefficient="gwet_ac", interval="bca", random_state=0
    )
    assert res.interval == "bca"
    assert res.confidence_interval.low < res.statistic < res.confidence_interval.high


def test_cohen_kappa_is_scikit_learns():
    data = _random_data(9, n_coders=2)
    both = ~np.isnan(data).any(axis=0)
    res = agreement_confidence_interval(
        data, coefficient="cohen_kappa", n_resamples=99, random_state=0
    )
    assert res.statistic == pytest.approx(cohen_kappa_score(*data[:, both]))
    assert res.n_units == both.sum()
    with pytest.raises(ValueError, match="2 coders"):
        agreement_confidence_interval(K2011, coefficient="cohen_kappa")


def test_observed_and_expected_agreement():
    res = agreement_confidence_interval(
        K2011, coefficient="fleiss_kappa", n_resamples=99, random_state=0
    )
    p_a, p_e = res.observed_agreement, res.expected_agreement
    assert res.statistic == pytest.approx((p_a - p_e) / (1 - p_e))
    assert p_a == pytest.approx(percent_agreement(K2011))
    alpha = agreement_confidence_interval(K2011, n_resamples=99, random_state=0)
    a_o, a_e = alpha.observed_agreement, alpha.expected_agreement
    assert alpha.statistic == pytest.approx((a_o - a_e) / (1 - a_e))


def test_one_value_everywhere_warns_and_gives_nan():
    with pytest.warns(RuntimeWarning, match="undefined"):
        assert np.isnan(krippendorff_alpha([[1, 1, 1], [1, 1, 1]]))


def test_coder_diagnostics_leave_one_out():
    data = _random_data(10, n_coders=4)
    res = coder_diagnostics(data)
    for j in range(4):
        assert res.alpha_without[j] == pytest.approx(
            krippendorff_alpha(np.delete(data, j, axis=0))
        )
    assert res.pairwise_alpha[0, 1] == pytest.approx(krippendorff_alpha(data[[0, 1]]))
    assert res.alpha == pytest.approx(krippendorff_alpha(data))
    with pytest.raises(ValueError, match="coder_names"):
        coder_diagnostics(data, coder_names=["a", "b"])


def test_report_equals_the_single_calls():
    data = _random_data(11)
    report = agreement_report(data, n_resamples=199, random_state=4)
    for name, res in report.intervals.items():
        single = agreement_confidence_interval(
            data, coefficient=name, n_resamples=199, random_state=4
        )
        assert res.confidence_interval == single.confidence_interval
    assert "prevalence paradox" not in report.summary()


@pytest.mark.parametrize(
    "data, match",
    [
        ([[1, 2, 3]], "at least 2 coders"),
        ([[[1, 2]], [[1, 2]]], "2-D"),
        ([[1, nan, 2], [nan, 1, nan]], "no unit"),
        ([[1, "a", 2], [1, "a", 2]], "mixes values"),
        ([[1, np.inf], [1, 2]], "infinity"),
        (np.full((2, 3), nan), "no value"),
    ],
)
def test_bad_data(data, match):
    with pytest.raises(ValueError, match=match):
        krippendorff_alpha(
            np.array(data, dtype=object) if match == "mixes values" else data
        )


def test_levels_that_need_numbers():
    with pytest.raises(ValueError, match="needs numbers"):
        krippendorff_alpha([["a", "b"], ["a", "a"]], level_of_measurement="interval")
    with pytest.raises(ValueError, match=">= 0"):
        krippendorff_alpha([[-1, 2], [1, 2]], level_of_measurement="ratio")
    with pytest.raises(ValueError, match="booleans"):
        krippendorff_alpha([[True, False]] * 2, level_of_measurement="interval")


def test_defaults_are_the_measured_ones():
    data = _random_data(12, n_units=120)
    res = agreement_confidence_interval(data, n_resamples=99, random_state=0)
    assert (res.method, res.interval) == ("bootstrap", "bca")
    kalpha = agreement_confidence_interval(
        data, method="krippendorff", n_resamples=99, random_state=0
    )
    assert kalpha.interval == "percentile"


@pytest.mark.parametrize(
    "coefficient, weights, n_units, warns",
    [
        ("krippendorff_alpha", None, 49, True),
        ("krippendorff_alpha", None, 50, False),
        ("fleiss_kappa", None, 30, True),
        ("gwet_ac", None, 20, False),
        ("gwet_ac", "quadratic", 99, True),
        ("gwet_ac", "quadratic", 100, False),
        ("percent_agreement", None, 20, False),
    ],
)
def test_few_units_warn_with_the_measured_coverage(
    coefficient, weights, n_units, warns
):
    data = _random_data(13, n_coders=3, n_units=n_units, missing=0.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agreement_confidence_interval(
            data,
            coefficient=coefficient,
            weights=weights,
            n_resamples=99,
            random_state=0,
        )
    few = [w for w in caught if "sim_agreement.py" in str(w.message)]
    assert bool(few) == warns


def test_bca_when_one_unit_holds_all_disagreement():
    # leaving that unit out makes alpha NaN, the others do not move it: the
    # acceleration is 0, not 0 / 0
    data = [[1] + [0] * 59, [0] * 60]
    res = agreement_confidence_interval(data, n_resamples=999, random_state=0)
    assert np.isfinite(res.confidence_interval).all()


def test_a_scale_the_coefficient_does_not_take_is_refused():
    with pytest.raises(ValueError, match="kappa family's"):
        agreement_confidence_interval(K2011, weights="quadratic")
    with pytest.raises(ValueError, match="takes weights instead"):
        agreement_confidence_interval(
            K2011, coefficient="fleiss_kappa", level_of_measurement="ordinal"
        )


def test_krippendorff_bootstrap_equals_drawing_pairs_one_by_one():
    # Hayes & Krippendorff (2007) as the KALPHA macro: M unordered pairs drawn
    # from p_cc = o_cc / n, p_ck = 2 o_ck / n; alpha* = 1 - sum delta / (M D_e).
    # Here the pairs are drawn one by one from the coincidence matrix computed
    # directly from its definition; the package draws multinomial counts.
    from scipy.stats import ks_2samp

    data = _random_data(14, n_coders=3, n_units=40, k=3, missing=0.2)
    o = np.zeros((3, 3))
    for unit in data.T:
        values = [int(v) - 1 for v in unit if not np.isnan(v)]
        for i, a in enumerate(values):  # ordered pairs of different coders
            for j, b in enumerate(values):
                if i != j:
                    o[a, b] += 1 / (len(values) - 1)
    n_c, n = o.sum(axis=1), o.sum()
    delta = 1 - np.eye(3)
    d_e = (n_c @ delta @ n_c) / (n * (n - 1))
    pairs = [(c, k) for c in range(3) for k in range(c, 3)]
    p = np.array([o[c, k] * (1 if c == k else 2) / n for c, k in pairs])
    m = int(min(25 * np.count_nonzero(o), (3 - 1) * n / 2))
    rng = np.random.default_rng(0)
    loop = []
    for _ in range(3000):
        drawn = rng.choice(len(pairs), size=m, p=p / p.sum())
        loop.append(max(1 - sum(delta[pairs[i]] for i in drawn) / (m * d_e), -1))
    res = agreement_confidence_interval(
        data, method="krippendorff", n_resamples=3000, random_state=1
    )
    assert ks_2samp(res.bootstrap_distribution, loop).pvalue > 0.001
