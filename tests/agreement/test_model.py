"""The model as one more annotator: compare_to_annotators."""

import itertools
import json
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from sklearn_faithful.agreement import (
    AnnotatorComparisonResult,
    compare_to_annotators,
    krippendorff_alpha,
)
from sklearn_faithful.agreement._model import (
    _contrast,
    _critical_value,
    _pairs,
    _reference_scales,
)
from sklearn_faithful.utils._measured import TWO_ANNOTATORS_FALSE_BELOW
from sklearn_faithful.utils._param_validation import InvalidParameterError

SEED = dict(n_resamples=199, random_state=0)


def _coders(accuracies, n=300, k=3, seed=0):
    """Labels of coders who know the truth with their accuracy, else guess."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    return np.array(
        [np.where(rng.random(n) < p, truth, rng.integers(0, k, n)) for p in accuracies]
    )


def _with_missing(labels, share, seed=1):
    out = labels.astype(float)
    out[np.random.default_rng(seed).random(out.shape) < share] = np.nan
    return out


def _both(a, b):
    """The labels of two coders on the units both labelled."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~np.isnan(a) & ~np.isnan(b)
    return a[keep], b[keep]


# --- the pairwise agreements are the coefficients of one home -----------------


def test_pairwise_kappa_is_scikit_learns_on_the_units_both_labelled():
    coders = _with_missing(_coders([0.8, 0.7, 0.9, 0.6]), 0.15)
    humans, model = coders[:3], coders[3]
    res = compare_to_annotators(humans, model, **SEED)
    for i in range(3):
        expected = cohen_kappa_score(*_both(model, humans[i]))
        assert res.model_agreement[i] == pytest.approx(expected, abs=1e-12)
    for p, pair in enumerate(res.annotator_pairs):
        i, j = map(res.annotators.index, pair)
        expected = cohen_kappa_score(*_both(humans[i], humans[j]))
        assert res.annotator_agreement[p] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_pairwise_alpha_is_krippendorff_alpha_of_the_two_rows(level):
    coders = _with_missing(_coders([0.8, 0.7, 0.9, 0.6], k=5) + 1, 0.15)
    humans, model = coders[:3], coders[3]
    res = compare_to_annotators(
        humans,
        model,
        coefficient="krippendorff_alpha",
        level_of_measurement=level,
        **SEED,
    )
    for i in range(3):
        expected = krippendorff_alpha(
            np.vstack([model, humans[i]]), level_of_measurement=level
        )
        assert res.model_agreement[i] == pytest.approx(expected, abs=1e-10)
    for p, pair in enumerate(res.annotator_pairs):
        i, j = map(res.annotators.index, pair)
        expected = krippendorff_alpha(humans[[i, j]], level_of_measurement=level)
        assert res.annotator_agreement[p] == pytest.approx(expected, abs=1e-10)


def test_a_distance_function_is_the_level_it_spells():
    humans, model = (c := _coders([0.8, 0.7, 0.9, 0.6]))[:3], c[3]
    nominal = compare_to_annotators(
        humans, model, coefficient="krippendorff_alpha", **SEED
    )
    spelled = compare_to_annotators(
        humans,
        model,
        coefficient="krippendorff_alpha",
        level_of_measurement=lambda c, k: float(c != k),
        **SEED,
    )
    np.testing.assert_allclose(spelled.model_agreement, nominal.model_agreement)
    assert spelled.level_of_measurement == "callable"
    assert spelled.statistic == pytest.approx(nominal.statistic)


def test_the_statistic_is_the_difference_of_the_means_and_the_range_the_humans():
    coders = _coders([0.8, 0.7, 0.9, 0.85, 0.6])
    res = compare_to_annotators(coders[:4], coders[4], **SEED)
    assert res.model_mean == pytest.approx(res.model_agreement.mean())
    assert res.human_mean == pytest.approx(res.annotator_agreement.mean())
    assert res.statistic == pytest.approx(res.model_mean - res.human_mean)
    assert tuple(res.human_range) == (
        res.annotator_agreement.min(),
        res.annotator_agreement.max(),
    )
    names = ["coder 0", "coder 1", "coder 2", "coder 3"]
    assert res.annotators == names and res.model_name == "model"
    assert res.annotator_pairs == tuple(itertools.combinations(names, 2))
    assert res.n_annotators == 4 and res.n_units == 300
    for value, ci in zip(
        res.annotator_agreement, res.annotator_confidence_intervals, strict=True
    ):
        assert ci.low < value < ci.high


# --- the skill effects of eq. (2) ---------------------------------------------


@pytest.mark.parametrize("h", [2, 3, 5])
def test_skill_effects_are_recovered_from_additive_agreements(h):
    # a_ij = g + s_i + s_j exactly: d = s_M - mean(s), and eq. (2) gives
    # s_h - mean(s) (for two annotators, from the model's pairs)
    rng = np.random.default_rng(h)
    s = rng.normal(0, 0.05, h + 1)
    human, model = _pairs(h)
    agreement = np.array([[0.6 + s[i] + s[j] for i, j in human + model]])
    diff, skill = _contrast(agreement, h)
    assert diff[0] == pytest.approx(s[h] - s[:h].mean())
    np.testing.assert_allclose(skill[0], s[:h] - s[:h].mean(), atol=1e-12)


# --- the reference distribution of eq. (3) -------------------------------------


@pytest.mark.parametrize("h", [2, 3, 5])
def test_reference_is_students_t_when_the_annotators_spread_dominates(h):
    # no unit noise: (d - delta) / s is the prediction t with H - 1 df,
    # whatever the bound on sigma^2
    scales = _reference_scales(unit_var=0.0, spread=0.01, noise=0.0, h=h)
    for level in (0.9, 0.95):
        expected = stats.t.ppf(0.5 + level / 2, h - 1)
        assert _critical_value(scales, level) == pytest.approx(expected, rel=2e-3)


def test_reference_is_normal_when_only_the_units_vary():
    scales = _reference_scales(unit_var=1e-3, spread=0.0, noise=0.0, h=3)
    np.testing.assert_array_equal(scales, 1.0)
    assert _critical_value(scales, 0.95) == pytest.approx(stats.norm.ppf(0.975))


# --- the verdict ---------------------------------------------------------------


@pytest.mark.parametrize(
    "model_accuracy, verdict", [(0.4, "below"), (0.75, "within"), (0.98, "above")]
)
def test_verdict_follows_the_models_accuracy(model_accuracy, verdict):
    coders = _coders([0.75] * 5 + [model_accuracy], n=1000, seed=3)
    res = compare_to_annotators(coders[:5], coders[5], **SEED)
    assert res.verdict == verdict
    ci = res.confidence_interval()
    assert (ci.high < 0, ci.low <= 0 <= ci.high, ci.low > 0)[
        ("below", "within", "above").index(verdict)
    ]


def test_interval_widens_with_the_level_and_the_pvalue_agrees_with_it():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=4)
    res = compare_to_annotators(coders[:3], coders[3], **SEED)
    low95, high95 = res.confidence_interval()
    low99, high99 = res.confidence_interval(0.99)
    assert low99 < low95 < res.statistic < high95 < high99
    # the interval at level 1 - p just touches 0
    edge = res.confidence_interval(1 - res.pvalue)
    assert min(abs(edge.low), abs(edge.high)) == pytest.approx(0, abs=1e-9)


def test_annotators_spread_widens_the_interval_beyond_the_units():
    # annotators of very different skill: the spread is estimated and counted
    coders = _coders([0.95, 0.55, 0.8, 0.7], n=2000, seed=5)
    res = compare_to_annotators(coders[:3], coders[3], **SEED)
    assert res.annotator_standard_error > res.unit_standard_error > 0
    assert res.standard_error == pytest.approx(
        np.hypot(res.unit_standard_error, res.annotator_standard_error)
    )
    assert res.pvalue < 1


def test_two_annotators_use_the_model_as_the_reference():
    coders = _coders([0.8, 0.8, 0.8], seed=6)
    res = compare_to_annotators(coders[:2], coders[2], **SEED)
    assert res.annotator_pairs == (("coder 0", "coder 1"),)
    assert np.isfinite(res.standard_error) and res.reference_scales.shape == (200,)


# --- the result ----------------------------------------------------------------


def test_summary_and_to_dict():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=7)
    res = compare_to_annotators(
        coders[:3], coders[3], coder_names=["ann", "bob", "cy"], **SEED
    )
    assert isinstance(res, AnnotatorComparisonResult)
    text = res.summary()
    assert str(res) == text
    lines = text.splitlines()
    assert lines[0].startswith("model as one more annotator: cohen_kappa")
    assert lines[1].split()[:3] == ["coder", "with", "cohen_kappa"]
    rows = [line.split()[:3] for line in lines[2:8]]
    pairs = [("model", n) for n in ("ann", "bob", "cy")]
    pairs += [("ann", "bob"), ("ann", "cy"), ("bob", "cy")]
    agreement = [*res.model_agreement, *res.annotator_agreement]
    assert rows == [
        [i, j, f"{a:.4f}"] for (i, j), a in zip(pairs, agreement, strict=True)
    ]
    for part in ("human range", "model - humans", "verdict: ", res.verdict):
        assert part in text
    d = res.to_dict()
    json.dumps(d)
    assert d["result"] == "AnnotatorComparisonResult"
    assert d["annotators"] == ["ann", "bob", "cy"] and d["model_name"] == "model"
    assert d["annotator_pairs"] == [["ann", "bob"], ["ann", "cy"], ["bob", "cy"]]
    assert "bootstrap_distribution" not in d
    assert d["verdict"] == res.verdict
    assert d["confidence_interval"]["low"] == pytest.approx(
        res.confidence_interval().low
    )
    assert len(d["model_confidence_intervals"]) == 3


def test_names_change_the_labels_only():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=7)
    plain = compare_to_annotators(coders[:3], coders[3], **SEED)
    named = compare_to_annotators(
        coders[:3],
        coders[3],
        coder_names=np.array(["ann", "bob", "cy"]),
        model_name="tagger",
        **SEED,
    )
    assert named.annotators == ["ann", "bob", "cy"]
    assert named.model_name == "tagger"
    assert "tagger  ann" in named.summary() and "tagger - humans" in named.summary()
    assert "coder 0  coder 1" in plain.summary()
    for key in ("annotators", "model_name", "annotator_pairs"):
        assert plain.to_dict().pop(key) != named.to_dict().pop(key)
    same = {"annotators", "model_name", "annotator_pairs"}
    assert {k: v for k, v in plain.to_dict().items() if k not in same} == {
        k: v for k, v in named.to_dict().items() if k not in same
    }


def test_labels_of_any_kind_and_missing_model_labels():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=8)
    ints = compare_to_annotators(coders[:3], coders[3], **SEED)
    names = np.array(["cat", "dog", "eel"])[coders]
    strings = compare_to_annotators(names[:3].tolist(), list(names[3]), **SEED)
    assert strings.statistic == pytest.approx(ints.statistic)
    np.testing.assert_allclose(
        strings.bootstrap_distribution, ints.bootstrap_distribution
    )
    with_none = names.astype(object)
    with_none[3, :10] = None
    res = compare_to_annotators(with_none[:3], with_none[3], **SEED)
    expected = cohen_kappa_score(names[3, 10:], names[0, 10:])
    assert res.model_agreement[0] == pytest.approx(expected)


def test_unit_order_leaves_the_agreements_unchanged():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=9)
    order = np.random.default_rng(0).permutation(coders.shape[1])
    a = compare_to_annotators(coders[:3], coders[3], **SEED)
    b = compare_to_annotators(coders[:3, order], coders[3, order], **SEED)
    np.testing.assert_allclose(a.model_agreement, b.model_agreement)
    np.testing.assert_allclose(a.annotator_agreement, b.annotator_agreement)


def test_same_result_for_any_n_jobs_and_seeded():
    coders = _coders([0.8, 0.7, 0.9, 0.6], seed=10)
    one = compare_to_annotators(coders[:3], coders[3], n_resamples=600, random_state=1)
    two = compare_to_annotators(
        coders[:3], coders[3], n_resamples=600, random_state=1, n_jobs=2
    )
    np.testing.assert_array_equal(
        one.bootstrap_distribution, two.bootstrap_distribution
    )
    assert one.to_dict() == two.to_dict()


def test_pairs_undefined_on_some_resamples_warn_at_the_caller():
    humans = [["a", "b", None, "a"], ["a", "b", "b", None]]
    with pytest.warns(RuntimeWarning, match=r"of a pair was NaN on \d+ of 99") as rec:
        res = compare_to_annotators(
            humans, ["a", "a", "b", "a"], **SEED | {"n_resamples": 99}
        )
    assert rec[0].filename == __file__
    assert np.isfinite(res.statistic)


def test_too_few_resamples_warn_at_the_caller():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.warns(RuntimeWarning, match="too few") as rec:
        compare_to_annotators(coders[:2], coders[2], n_resamples=9, random_state=0)
    assert {w.filename for w in rec} == {__file__}


def test_two_annotators_warn_at_the_caller_with_the_measured_rate():
    # before: silent, though a model like them was called "below" in up to
    # 13.3% of held-back data sets (2 annotators, an expert and a novice)
    coders = _coders([0.9, 0.55, 0.7])
    rate = TWO_ANNOTATORS_FALSE_BELOW
    with pytest.warns(UserWarning, match="decides with 2 annotators") as rec:
        compare_to_annotators(coders[:2], coders[2], **SEED)
    (warning,) = [w for w in rec if "2 annotators" in str(w.message)]
    assert warning.filename == __file__
    assert f"up to {rate.value} (s.e. {rate.se})" in str(warning.message)
    assert "4 or more annotators" in str(warning.message)


@pytest.mark.parametrize("n_annotators", [3, 4])
def test_three_or_more_annotators_do_not_warn(n_annotators):
    coders = _coders([0.9, 0.55, 0.7, 0.8, 0.6])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_to_annotators(coders[:n_annotators], coders[4], **SEED)


# --- errors --------------------------------------------------------------------


def test_y_pred_of_other_units_is_refused():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.raises(ValueError, match=r"y_pred has 299 labels .* 300 units"):
        compare_to_annotators(coders[:2], coders[2, :-1], **SEED)


@pytest.mark.parametrize("coefficient", ["cohen_kappa", "krippendorff_alpha"])
def test_a_pair_the_spread_needs_is_named_where_it_is_undefined(coefficient):
    # before: scipy's "The function value at x=0.0 is NaN; solver cannot
    # continue." from brentq: coder 1 and the model give only 0, so their
    # agreement is undefined and so is the spread of the 2 annotators' skill
    humans = [[0, 1, 0, 1, 1, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0]]
    with pytest.raises(ValueError) as err:
        compare_to_annotators(
            humans,
            [0] * 8,
            coefficient=coefficient,
            level_of_measurement="nominal",
            **SEED,
        )
    message = str(err.value)
    assert f"needs the {coefficient} of pairs where it is undefined" in message
    assert (
        "on the 8 units both labelled, 'coder 1' gives only 0 and 'model' only 0"
        in message
    )
    assert "'coder 0'" not in message  # its pairs are defined
    assert "Label more units" in message and "krippendorff_alpha of all" in message


def test_an_annotator_who_shares_no_unit_with_the_others_is_named():
    nan = np.nan
    humans = [
        [0, 1, 0, 1, nan, nan, nan, nan],
        [1, 1, 0, 1, nan, nan, nan, nan],
        [nan, nan, nan, nan, 0, 1, 0, 1],
    ]
    with pytest.raises(ValueError, match="spread of skill") as err:
        compare_to_annotators(
            humans,
            [0, 1, 0, 0, 1, 1, 0, 1],
            coder_names=["ann", "bob", "cy"],
            **SEED,
        )
    assert "'ann' and 'cy' share no unit; 'bob' and 'cy' share no unit" in str(
        err.value
    )


def test_one_annotator_is_refused():
    coders = _coders([0.8, 0.7])
    with pytest.raises(ValueError, match=r"1 annotator.* at least 2"):
        compare_to_annotators(coders[:1], coders[1], **SEED)


def test_coder_names_must_name_every_annotator():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.raises(ValueError, match=r"coder_names has 3 names; .* 2 coders"):
        compare_to_annotators(
            coders[:2], coders[2], coder_names=["a", "b", "c"], **SEED
        )


def test_model_name_must_differ_from_the_annotators():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.raises(ValueError, match=r"model_name='b' is also .* annotator 1"):
        compare_to_annotators(
            coders[:2], coders[2], coder_names=["a", "b"], model_name="b", **SEED
        )


def test_kappa_takes_nominal_values_only():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.raises(
        ValueError, match=r"'cohen_kappa' takes .*'nominal'.* 'ordinal'"
    ):
        compare_to_annotators(
            coders[:2],
            coders[2],
            coefficient="cohen_kappa",
            level_of_measurement="ordinal",
            **SEED,
        )


def test_the_default_pair_coefficient_follows_the_level():
    coders = _coders([0.8, 0.7, 0.6])
    nominal = compare_to_annotators(coders[:2], coders[2], **SEED)
    ordinal = compare_to_annotators(
        coders[:2], coders[2], level_of_measurement="ordinal", **SEED
    )
    assert (nominal.coefficient, ordinal.coefficient) == (
        "cohen_kappa",
        "krippendorff_alpha",
    )


def test_interval_values_must_be_numbers():
    names = np.array(["a", "b", "c"])[_coders([0.8, 0.7, 0.6])]
    with pytest.raises(ValueError, match=r"'interval' needs numbers"):
        compare_to_annotators(
            names[:2],
            names[2],
            coefficient="krippendorff_alpha",
            level_of_measurement="interval",
            **SEED,
        )


def test_bad_parameters_get_scikit_learns_message():
    coders = _coders([0.8, 0.7, 0.6])
    with pytest.raises(InvalidParameterError, match="coefficient"):
        compare_to_annotators(coders[:2], coders[2], coefficient="fleiss_kappa")
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        compare_to_annotators(coders[:2], coders[2], n_resamples=1)
    with pytest.raises(InvalidParameterError, match="model_name"):
        compare_to_annotators(coders[:2], coders[2], model_name=1)
