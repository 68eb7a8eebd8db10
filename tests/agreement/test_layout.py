"""Reliability data as users hold them: transposed matrices, DataFrames, coder
names, missing ids, each warning once, weighted labels, extreme scales."""

import warnings

import numpy as np
import pytest

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    agreement_report,
    coder_diagnostics,
    compare_to_annotators,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    percent_agreement,
    reliability_data_from_long,
    scotts_pi,
)
from sklearn_faithful.agreement._data import LayoutWarning

from ._annotations import ALPHA_FLEISS_1971, FLEISS_1971

# Krippendorff (2011): 4 coders x 12 units, values 1-5
K2011 = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
    [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan],
])  # fmt: skip

FAST = {"n_resamples": 99, "random_state": 0}


def _caught(call, *args, **kwargs):
    """``call``'s result and the warnings it gave, every copy recorded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args, **kwargs)
    return result, caught


# -- a units x coders matrix ---------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        krippendorff_alpha,
        fleiss_kappa,
        percent_agreement,
        lambda d: agreement_confidence_interval(d, **FAST),
        lambda d: agreement_confidence_interval(d, coefficient="gwet_ac", **FAST),
        coder_diagnostics,
        lambda d: compare_to_annotators(d[:-1], d[-1], **FAST),
    ],
)
def test_a_units_by_coders_matrix_is_said_and_the_fix_given(call):
    # before: alpha 0.078 of "30 coders of 6 units", with the small-sample
    # warning only
    _, caught = _caught(call, FLEISS_1971)
    layout = [w for w in caught if w.category is LayoutWarning]
    assert len(layout) == 1
    assert "more coders (30 rows) than units (6 columns)" in str(layout[0].message) or (
        "more coders (29 rows)" in str(layout[0].message)
    )
    assert "pass reliability_data.T" in str(layout[0].message)
    assert layout[0].filename == __file__


def test_the_transpose_gives_the_alpha_of_krippendorff():
    # krippendorff 0.8: alpha(diagnoses.T, level_of_measurement="nominal")
    _, caught = _caught(krippendorff_alpha, FLEISS_1971.T)
    assert not [w for w in caught if w.category is LayoutWarning]
    assert krippendorff_alpha(FLEISS_1971.T) == pytest.approx(ALPHA_FLEISS_1971)


def test_naming_the_coders_says_rows_are_coders():
    _, caught = _caught(
        agreement_report,
        FLEISS_1971,
        coder_names=[f"r{i}" for i in range(30)],
        **FAST,
    )
    assert not [w for w in caught if w.category is LayoutWarning]


def test_a_data_frame_of_units_by_coders_is_said():
    pd = pytest.importorskip("pandas")
    # more coders than units is not needed: integer row labels (unit ids) and
    # coder names as columns give it away
    frame = pd.DataFrame(
        K2011.T[:3], index=[1, 2, 3], columns=["Rater1", "Rater2", "Rater3", "Rater4"]
    )
    _, caught = _caught(percent_agreement, frame)
    assert [w for w in caught if w.category is LayoutWarning]
    assert "its rows are labelled [1, 2, 3]" in str(caught[0].message)


def test_a_data_frame_names_its_coders_by_its_rows():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(K2011, index=["ann", "bob", "cy", "dee"])
    res = coder_diagnostics(frame)
    assert res.coders == ["ann", "bob", "cy", "dee"]
    report = agreement_report(frame, **FAST)
    assert report.coders.coders == ["ann", "bob", "cy", "dee"]


# -- coder names and ids -------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda d, names: agreement_report(d, coder_names=names, **FAST),
        lambda d, names: coder_diagnostics(d, coder_names=names),
        lambda d, names: compare_to_annotators(d[:-1], d[-1], coder_names=names[:-1]),
    ],
)
def test_a_coder_named_twice_is_refused(call):
    with pytest.raises(ValueError, match="coder_names names 'ann' twice"):
        call(K2011, ["ann", "bob", "ann", "dee"])


@pytest.mark.parametrize("missing", [None, np.nan, float("nan")])
def test_a_missing_coder_name_is_refused(missing):
    with pytest.raises(ValueError, match=r"coder_names\[1\] is .*a missing value"):
        coder_diagnostics(K2011, coder_names=["ann", missing, "cy", "dee"])


@pytest.mark.parametrize(
    ("units", "coders", "match"),
    [
        ([1, 2, None], ["a", "b", "a"], r"units\[2\] is None, a missing id"),
        ([1.0, np.nan, 2.0], ["a", "b", "a"], r"units\[1\] is nan, a missing id"),
        ([1, 2, 3], ["a", None, "b"], r"coders\[1\] is None, a missing id"),
        ([1, 2, 3], [1.0, 2.0, np.nan], r"coders\[2\] is nan, a missing id"),
    ],
)
def test_a_missing_unit_or_coder_id_is_refused(units, coders, match):
    # before: NaN units became units of their own, None failed in np.unique
    with pytest.raises(ValueError, match=match):
        reliability_data_from_long(units, coders, [1, 2, 3])


# -- each warning once, and what it says ----------------------------------------


def test_the_report_says_each_warning_once():
    # before: the small-sample warning came once per coefficient (alpha,
    # Fleiss' kappa and Cohen's kappa) under an "always" filter
    _, caught = _caught(agreement_report, K2011[:2], **FAST)
    texts = [str(w.message) for w in caught]
    assert len(texts) == len(set(texts))
    few = [t for t in texts if "fewer than 50" in t]
    assert len(few) == 1
    assert all(w.filename == __file__ for w in caught)


def test_the_small_sample_warning_gives_the_data_s_numbers():
    _, caught = _caught(agreement_confidence_interval, K2011, **FAST)
    (text,) = [str(w.message) for w in caught if "fewer than 50" in str(w.message)]
    # 9 units have 2 values or more; 34 values of 4 coders; 2 is 26%
    assert text.startswith(
        "reliability_data has 11 units with values from 2 coders or more (40 values "
        "of 4 coders; the most common, 2.0, is 32% of them), fewer than 50."
    )
    assert "(no value above 85%)" in text and "90%" not in text


def test_the_small_sample_warning_cites_the_skewed_setting_when_skewed():
    data = np.zeros((3, 30), dtype=int)
    data[:, :3] = 1  # one value is 90% of them
    data[0, 5] = 1
    _, caught = _caught(agreement_confidence_interval, data, **FAST)
    (text,) = [str(w.message) for w in caught if "fewer than 50" in str(w.message)]
    assert "is 89% of them" in text and "(one value at 90%)" in text


# -- weighted agreement is labelled -------------------------------------------------


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_weighted_agreement_is_labelled_weighted(level):
    report = agreement_report(K2011, level_of_measurement=level, **FAST)
    text = report.summary()
    assert "percent_agreement (weighted)" in text
    assert "fleiss_kappa (weighted)" in text
    assert "'observed' is weighted agreement" in text
    intervals = report.to_dict()["intervals"]
    assert intervals["percent_agreement"]["weighted"] is True
    assert "weighted observed agreement" in report.intervals["gwet_ac"].summary()


def test_nominal_agreement_is_not_labelled_weighted():
    report = agreement_report(K2011, **FAST)
    assert "weighted" not in report.summary()
    assert report.to_dict()["intervals"]["percent_agreement"]["weighted"] is False


# -- extreme scales ---------------------------------------------------------------

TINY = np.nextafter(0, 1)  # 2**-1074: the smallest subnormal
SCALES = [1e-300, 1e300, TINY, np.finfo(float).max / 8, 2.0**-1022]


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize(
    ("call", "kwargs"),
    [
        (krippendorff_alpha, {"level_of_measurement": "interval"}),
        (krippendorff_alpha, {"level_of_measurement": "ratio"}),
        (fleiss_kappa, {"weights": "quadratic"}),
        (fleiss_kappa, {"weights": "linear"}),
        (fleiss_kappa, {"weights": "ratio"}),
        (gwet_ac, {"weights": "radical"}),
        (gwet_ac, {"weights": "quadratic"}),
        (percent_agreement, {"weights": "quadratic"}),
        (scotts_pi, {"weights": "linear"}),
    ],
)
def test_scale_free_coefficients_are_exact_at_any_magnitude(call, kwargs, scale):
    # before: interval alpha was NaN at 1e-300 (the squares underflow) and
    # overflowed at 1e300; ratio weights overflowed near the largest float
    data = K2011[:2] if call is scotts_pi else K2011
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = call(data * scale, **kwargs)
    assert value == pytest.approx(call(data, **kwargs), rel=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_intervals_and_diagnostics_are_exact_at_any_magnitude(scale):
    rng = np.random.default_rng(0)
    data = rng.normal(size=60) + 0.5 * rng.normal(size=(4, 60))
    kwargs = {"level_of_measurement": "interval"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("bootstrap", "krippendorff"):
            a = agreement_confidence_interval(data, method=method, **kwargs, **FAST)
            b = agreement_confidence_interval(
                data * scale, method=method, **kwargs, **FAST
            )
            assert b.statistic == pytest.approx(a.statistic, rel=1e-12)
            np.testing.assert_allclose(
                b.confidence_interval, a.confidence_interval, rtol=1e-9
            )
        d = coder_diagnostics(data * scale, **kwargs)
        # 3 annotators: with 2, compare_to_annotators warns by design
        m = compare_to_annotators(data[:3] * scale, data[3] * scale, **kwargs, **FAST)
    assert m.statistic == pytest.approx(
        compare_to_annotators(data[:3], data[3], **kwargs, **FAST).statistic,
        rel=1e-9,
        abs=1e-12,
    )
    np.testing.assert_allclose(
        d.alpha_without, coder_diagnostics(data, **kwargs).alpha_without, rtol=1e-12
    )


def test_values_at_both_ends_of_the_float_range():
    big = np.finfo(float).max
    data = np.array([[-big, big, -big, big, 0.0], [-big, big, big, big, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = krippendorff_alpha(data, level_of_measurement="interval")
    assert value == pytest.approx(
        krippendorff_alpha(data / big, level_of_measurement="interval"), rel=1e-12
    )
