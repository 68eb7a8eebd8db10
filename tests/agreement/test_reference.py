"""The agreement coefficients against published values and outside libraries.

Published: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability"
(examples A, B and C: alpha 0.095, 0.692, and 0.743, 0.815, 0.849, 0.797 for
the nominal, ordinal, interval and ratio levels of the same 4-coder data with
missing values), given to three decimals as printed and as the exact
rationals of the coincidence matrices; Fleiss (1971), kappa 0.430 of his 30
patients and 6 psychiatrists; Gwet's irrCAC documentation, AC1, Fleiss' kappa
and percent agreement of Krippendorff's data, to five decimals.

Libraries (the ``reference`` fixture: stored values in the fast suite, the
library itself under ``-m crosscheck``): the ``krippendorff`` package (alpha,
every level, random data with missing values), statsmodels (Fleiss' kappa on
complete data with equal raters per unit, Cohen's kappa) and irrCAC (Fleiss'
kappa, Gwet's AC1/AC2, Scott's pi, Krippendorff's alpha and percent agreement
with missing values, weighted and unweighted; Conger's kappa of two coders is
Cohen's). To 1e-10 throughout.
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    percent_agreement,
    reliability_data_from_long,
    scotts_pi,
)

NAN = np.nan
TOL = 1e-10

# Krippendorff (2011), example C: 4 coders (rows A-D) x 12 units, values 1-5
KRIPPENDORFF_C = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]
# section D of the paper: the same data at each level of measurement
PUBLISHED_C = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
# alpha = 1 - (n - 1) sum_ck o_ck d_ck / sum_ck n_c n_k d_ck, in fractions
# (n = 40 pairable values; nominal: 1 - 39 * 10 / 1520 = 113/152)
EXACT_C = {
    "nominal": Fraction(113, 152),
    "ordinal": Fraction(108577, 133160),
    "interval": Fraction(951, 1120),
    "ratio": Fraction(18222619, 22852465),
}
# example A: binary data, two coders, no missing value: 1 - 19 * 4 / (14 * 6)
KRIPPENDORFF_A = [[0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]]
# example B: nominal data (a-e), two coders, no missing value
KRIPPENDORFF_B = [list("aabbdcccedda"), list("babbbccceddd")]
# Fleiss (1971), Table 1: 30 patients (units) x 6 psychiatrists, 5 diagnoses
# (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other);
# the data of R's irr::diagnoses. Kappa 0.430 (0.4302445 in irr).
FLEISS_1971 = np.array(
    [
        [4, 4, 4, 4, 4, 4],
        [2, 2, 2, 5, 5, 5],
        [2, 3, 3, 3, 3, 5],
        [5, 5, 5, 5, 5, 5],
        [2, 2, 2, 4, 4, 4],
        [1, 1, 3, 3, 3, 3],
        [3, 3, 3, 3, 5, 5],
        [1, 1, 3, 3, 3, 4],
        [1, 1, 4, 4, 4, 4],
        [5, 5, 5, 5, 5, 5],
        [1, 4, 4, 4, 4, 4],
        [1, 2, 4, 4, 4, 4],
        [2, 2, 2, 3, 3, 3],
        [1, 4, 4, 4, 4, 4],
        [2, 2, 4, 4, 4, 5],
        [3, 3, 3, 3, 3, 5],
        [1, 1, 1, 4, 5, 5],
        [1, 1, 1, 1, 1, 2],
        [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 5, 5, 5],
        [5, 5, 5, 5, 5, 5],
        [2, 4, 4, 4, 4, 4],
        [2, 2, 4, 5, 5, 5],
        [1, 1, 4, 4, 4, 4],
        [1, 4, 4, 4, 4, 5],
        [2, 2, 2, 2, 2, 4],
        [1, 1, 1, 1, 5, 5],
        [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 3, 3, 3],
        [5, 5, 5, 5, 5, 5],
    ]
).T

LEVELS = ["nominal", "ordinal", "interval", "ratio"]
# unevenly spaced, positive (Gwet's ratio weights refuse 0): interval and
# ratio distances differ from ordinal ranks
VALUES = np.array([1.0, 2.0, 3.0, 5.0, 8.0])


def _ratings(seed, n_coders, n_units, missing=0.2, agree=0.6, prevalence=None):
    """Random reliability data (coders x units) of VALUES, NaN where missing.

    Each coder gives the unit's true value with probability ``agree`` and a
    random value otherwise; true and random values are drawn with the
    probabilities ``prevalence`` (uniform by default).
    """
    rng = np.random.default_rng(seed)
    p = prevalence if prevalence is not None else np.full(VALUES.size, 0.2)
    truth = rng.choice(VALUES.size, size=n_units, p=p)
    noise = rng.choice(VALUES.size, size=(n_coders, n_units), p=p)
    codes = np.where(rng.random((n_coders, n_units)) < agree, truth, noise)
    data = VALUES[codes]
    data[rng.random(data.shape) < missing] = NAN
    return data


# the prevalence paradox: 95% of the units in one class, coders who agree on
# 92% of the pairs, a kappa near 0.4 and an AC1 near 0.9
PARADOX = _ratings(
    7, 3, 300, missing=0.05, agree=0.7, prevalence=[0.95, 0.05, 0.0, 0.0, 0.0]
)
DATASETS = {
    "krippendorff_c": np.array(KRIPPENDORFF_C, dtype=float),
    "paradox": PARADOX,
    "random_2x60": _ratings(0, 2, 60),
    "random_3x40": _ratings(1, 3, 40),
    "random_5x200": _ratings(2, 5, 200, missing=0.3),
    "random_8x30": _ratings(3, 8, 30, missing=0.5),
}
GWET_WEIGHTS = [None, "linear", "quadratic", "ordinal", "radical", "ratio"]


# --- the reference libraries -------------------------------------------------


def _krippendorff_alpha(data, level, value_domain=None):
    """The ``krippendorff`` package's alpha."""
    krippendorff = pytest.importorskip("krippendorff")
    if level == "absolute":
        # the callable distance of this module's tests, in the package's form
        def level(v1, v2, i1, i2, n_v, dtype=np.float64):
            return np.abs(v1 - v2).astype(dtype)

    return float(
        krippendorff.alpha(data, level_of_measurement=level, value_domain=value_domain)
    )


def _statsmodels_fleiss_kappa(data):
    """statsmodels' Fleiss' kappa of complete data (coders x units)."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    table, _ = inter_rater.aggregate_raters(np.asarray(data).T)
    return float(inter_rater.fleiss_kappa(table, method="fleiss"))


def _statsmodels_cohens_kappa(a, b, wt):
    """statsmodels' Cohen's kappa of two coders' labels, weights "linear" etc."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    labels = np.unique(np.concatenate([a, b]))
    table = np.zeros((labels.size, labels.size))
    np.add.at(table, (np.searchsorted(labels, a), np.searchsorted(labels, b)), 1)
    return float(inter_rater.cohens_kappa(table, wt=wt, return_results=False))


def _irrcac(data, method, weights=None, categories=None):
    """irrCAC's coefficient, p_a and p_e (``CAC(...).<method>()``).

    irrCAC 0.4.4 pins scipy==1.12.0, so it is not in the crosscheck extra:
    ``pip install --no-deps irrCAC==0.4.4`` (it needs pandas and scipy only).
    """
    pytest.importorskip("pandas")
    raw = pytest.importorskip("irrCAC.raw")
    import pandas as pd

    ratings = pd.DataFrame(np.asarray(data, dtype=float).T)
    with warnings.catch_warnings():
        # irrCAC replaces "" in a frame that dropna gave it (pandas < 3 warns;
        # pandas 3 has no such warning)
        copy_warning = getattr(pd.errors, "SettingWithCopyWarning", None)
        if copy_warning is not None:
            warnings.simplefilter("ignore", copy_warning)
        cac = raw.CAC(
            ratings,
            weights="identity" if weights is None else weights,
            categories=categories,
            digits=20,  # irrCAC rounds its results to 5 digits by default
        )
        est = getattr(cac, method)()["est"]
    return {key: float(est[key]) for key in ("coefficient_value", "pa", "pe")}


# --- published values --------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_reproduces_krippendorff_2011(level, reference):
    alpha = krippendorff_alpha(KRIPPENDORFF_C, level_of_measurement=level)
    assert isinstance(alpha, float)
    assert round(alpha, 3) == PUBLISHED_C[level]
    assert alpha == pytest.approx(float(EXACT_C[level]), abs=1e-14)
    # the exact rationals are the krippendorff package's values, to rounding
    package = reference(_krippendorff_alpha, KRIPPENDORFF_C, level)
    assert package == pytest.approx(float(EXACT_C[level]), abs=1e-15)
    assert alpha == pytest.approx(package, abs=TOL)


@pytest.mark.parametrize(
    "data, published, exact",
    [
        pytest.param(KRIPPENDORFF_A, 0.095, Fraction(2, 21), id="A-binary"),
        pytest.param(KRIPPENDORFF_B, 0.692, Fraction(155, 224), id="B-nominal"),
    ],
)
def test_alpha_reproduces_krippendorff_2011_two_coders(data, published, exact):
    alpha = krippendorff_alpha(data)
    assert round(alpha, 3) == published
    assert alpha == pytest.approx(float(exact), abs=1e-14)


def test_alpha_of_ordered_labels_with_value_domain():
    # example C with the values 1-5 spelled as words, None where missing:
    # the ordered value_domain gives them their ranks
    words = ["very low", "low", "mid", "high", "very high"]
    data = [
        [None if np.isnan(v) else words[int(v) - 1] for v in row]
        for row in KRIPPENDORFF_C
    ]
    ordinal = krippendorff_alpha(
        data, level_of_measurement="ordinal", value_domain=words
    )
    assert ordinal == pytest.approx(float(EXACT_C["ordinal"]), abs=1e-14)
    assert krippendorff_alpha(data) == pytest.approx(float(EXACT_C["nominal"]))


def test_alpha_of_long_format_equals_wide():
    units, coders, values = [], [], []
    for coder, row in zip("ABCD", KRIPPENDORFF_C, strict=True):
        for unit, value in enumerate(row, start=1):
            if not np.isnan(value):
                units.append(unit)
                coders.append(coder)
                values.append(value)
    data, unit_labels, coder_labels = reliability_data_from_long(units, coders, values)
    assert list(coder_labels) == list("ABCD")
    assert list(unit_labels) == list(range(1, 13))
    for level in LEVELS:
        alpha = krippendorff_alpha(data, level_of_measurement=level)
        assert alpha == pytest.approx(float(EXACT_C[level]), abs=1e-14)


def test_fleiss_kappa_reproduces_fleiss_1971(reference):
    kappa = fleiss_kappa(FLEISS_1971)
    assert isinstance(kappa, float)
    assert round(kappa, 3) == 0.430
    assert kappa == pytest.approx(reference(_statsmodels_fleiss_kappa, FLEISS_1971))


def test_gwet_documented_example():
    # irrCAC's documentation (Python and R: cac.raw4raters), Krippendorff's
    # data C: AC1 0.77544, Fleiss' kappa 0.76117, p_a 0.81818
    assert round(gwet_ac(KRIPPENDORFF_C), 5) == 0.77544
    assert round(fleiss_kappa(KRIPPENDORFF_C), 5) == 0.76117
    assert round(percent_agreement(KRIPPENDORFF_C), 5) == 0.81818


def test_prevalence_paradox_data():
    # high raw agreement, low kappa, high AC1: the data show the paradox
    assert percent_agreement(PARADOX) > 0.9
    assert fleiss_kappa(PARADOX) < 0.5
    assert gwet_ac(PARADOX) > 0.85


# --- the krippendorff package ------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "n_coders, n_units", [(2, 10), (3, 50), (5, 200), (10, 500)], ids=str
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alpha_equals_krippendorff_package(seed, n_coders, n_units, level, reference):
    data = _ratings(seed, n_coders, n_units, missing=0.1 + 0.1 * seed)
    alpha = krippendorff_alpha(data, level_of_measurement=level)
    assert alpha == pytest.approx(reference(_krippendorff_alpha, data, level), abs=TOL)


@pytest.mark.parametrize("seed", [0, 1])
def test_alpha_of_a_callable_distance_equals_krippendorff_package(seed, reference):
    data = _ratings(seed, 4, 80)
    alpha = krippendorff_alpha(data, level_of_measurement=lambda c, k: abs(c - k))
    assert alpha == pytest.approx(
        reference(_krippendorff_alpha, data, "absolute"), abs=TOL
    )


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_with_unused_values_in_the_domain(level, reference):
    # a value no coder used changes neither the coincidences nor alpha
    data = _ratings(4, 3, 40)
    data[data == VALUES[2]] = VALUES[1]
    alpha = krippendorff_alpha(data, level_of_measurement=level, value_domain=VALUES)
    expected = reference(_krippendorff_alpha, data, level, VALUES)
    assert alpha == pytest.approx(expected, abs=TOL)
    assert krippendorff_alpha(data, level_of_measurement=level) == pytest.approx(
        expected, abs=TOL
    )


# --- statsmodels -------------------------------------------------------------


@pytest.mark.parametrize(
    "n_coders, n_units", [(2, 30), (3, 20), (5, 100), (10, 500)], ids=str
)
@pytest.mark.parametrize("seed", [0, 1])
def test_fleiss_kappa_equals_statsmodels(seed, n_coders, n_units, reference):
    data = _ratings(seed, n_coders, n_units, missing=0.0)
    expected = reference(_statsmodels_fleiss_kappa, data)
    assert fleiss_kappa(data) == pytest.approx(expected, abs=TOL)
    if n_coders == 2:  # Fleiss' kappa of two coders is Scott's pi
        assert scotts_pi(data) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize("seed", [0, 1])
def test_cohen_kappa_equals_statsmodels(seed, weights, reference):
    # on equally spaced values, where Gwet's linear and quadratic weights
    # are Cohen's
    data = _ratings(seed, 2, 80, missing=0.0)
    a, b = (np.searchsorted(VALUES, row) + 1 for row in data)
    expected = reference(_statsmodels_cohens_kappa, a, b, weights)
    assert cohen_kappa_score(a, b, weights=weights) == pytest.approx(expected, abs=TOL)
    res = agreement_confidence_interval(
        np.array([a, b]),
        coefficient="cohen_kappa",
        weights=weights,
        n_resamples=99,
        random_state=0,
    )
    assert res.statistic == pytest.approx(expected, abs=TOL)


# --- irrCAC ------------------------------------------------------------------


@pytest.mark.parametrize("weights", GWET_WEIGHTS, ids=str)
@pytest.mark.parametrize("dataset", DATASETS)
def test_gwet_ac_equals_irrcac(dataset, weights, reference):
    data = DATASETS[dataset]
    expected = reference(_irrcac, data, "gwet", weights)
    ac = gwet_ac(data, weights=weights)
    assert ac == pytest.approx(expected["coefficient_value"], abs=TOL)
    pa = percent_agreement(data, weights=weights)
    assert pa == pytest.approx(expected["pa"], abs=TOL)


@pytest.mark.parametrize("weights", GWET_WEIGHTS, ids=str)
@pytest.mark.parametrize("dataset", DATASETS)
def test_fleiss_kappa_equals_irrcac(dataset, weights, reference):
    data = DATASETS[dataset]
    expected = reference(_irrcac, data, "fleiss", weights)
    kappa = fleiss_kappa(data, weights=weights)
    assert kappa == pytest.approx(expected["coefficient_value"], abs=TOL)
    if data.shape[0] == 2:  # Gwet's Scott's pi is Fleiss' kappa of two coders
        pi = scotts_pi(data, weights=weights)
        assert pi == pytest.approx(expected["coefficient_value"], abs=TOL)


@pytest.mark.parametrize(
    "level, weights", [("nominal", None), ("interval", "quadratic")]
)
@pytest.mark.parametrize("dataset", DATASETS)
def test_alpha_equals_irrcac(dataset, level, weights, reference):
    # Gwet's alpha with quadratic weights 1 - (c - k)^2 / (max - min)^2 is
    # the interval alpha
    data = DATASETS[dataset]
    expected = reference(_irrcac, data, "krippendorff", weights)
    alpha = krippendorff_alpha(data, level_of_measurement=level)
    assert alpha == pytest.approx(expected["coefficient_value"], abs=TOL)


@pytest.mark.parametrize("coefficient", ["fleiss_kappa", "gwet_ac"])
@pytest.mark.parametrize("dataset", ["paradox", "random_3x40"])
def test_observed_and_expected_agreement_equal_irrcac(dataset, coefficient, reference):
    # the interval's result shows p_a and p_e beside the coefficient
    data = DATASETS[dataset]
    method = {"fleiss_kappa": "fleiss", "gwet_ac": "gwet"}[coefficient]
    expected = reference(_irrcac, data, method)
    res = agreement_confidence_interval(
        data, coefficient=coefficient, n_resamples=99, random_state=0
    )
    assert res.statistic == pytest.approx(expected["coefficient_value"], abs=TOL)
    assert res.observed_agreement == pytest.approx(expected["pa"], abs=TOL)
    assert res.expected_agreement == pytest.approx(expected["pe"], abs=TOL)


@pytest.mark.parametrize("weights", [None, "quadratic"], ids=str)
def test_value_domain_with_an_unused_category_equals_irrcac(weights, reference):
    # Gwet's p_e counts the q categories of the domain, used or not, and the
    # weights span its range
    data = DATASETS["random_3x40"]
    domain = [*VALUES, 13.0]
    for method, ours in [("gwet", gwet_ac), ("fleiss", fleiss_kappa)]:
        expected = reference(_irrcac, data, method, weights, domain)
        value = ours(data, weights=weights, value_domain=domain)
        assert value == pytest.approx(expected["coefficient_value"], abs=TOL)


@pytest.mark.parametrize("seed", [0, 1])
def test_cohen_kappa_equals_irrcac_conger_of_two_coders(seed, reference):
    # Conger's kappa of two coders is Cohen's; sklearn's is the one home
    data = _ratings(seed, 2, 80, missing=0.0)
    expected = reference(_irrcac, data, "conger")
    kappa = cohen_kappa_score(*data)
    assert kappa == pytest.approx(expected["coefficient_value"], abs=TOL)
