"""Tests of the confidence metrics against independent computations."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

from sklearn_faithful.metrics import (
    cf1_score,
    cfbeta_score,
    cprecision_recall_fscore_support,
    cprecision_score,
    crecall_score,
    probabilistic_confusion_matrix,
)

from .._hypothesis import given, hnp, settings, st

AVERAGES = [None, "micro", "macro", "weighted"]


def _random_proba(rng, n, k):
    return rng.dirichlet(np.ones(k), size=n)


def _one_hot(pred, k):
    out = np.zeros((pred.shape[0], k))
    out[np.arange(pred.shape[0]), pred] = 1.0
    return out


def _weights(kind, n, rng):
    if kind is None:
        return None
    if kind == "int":
        return rng.integers(0, 4, size=n)
    return rng.uniform(0, 3, size=n)


# ---------------------------------------------------------------------------
# Identity with scikit-learn on one-hot probabilities (doc/formulas.rst,
# "Confidence precision, recall and F-score")
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3, 7, 80])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("weight_kind", [None, "int", "float"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_one_hot_equals_sklearn(n_classes, average, weight_kind, beta):
    rng = np.random.default_rng(n_classes)
    n = 500
    y_true = rng.integers(0, n_classes, size=n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, n_classes, n))
    w = _weights(weight_kind, n, rng)
    labels = np.arange(n_classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = precision_recall_fscore_support(
            y_true,
            y_pred,
            beta=beta,
            labels=labels,
            average=average,
            sample_weight=w,
            zero_division=0.0,
        )
        got = cprecision_recall_fscore_support(
            y_true,
            _one_hot(y_pred, n_classes),
            beta=beta,
            labels=labels,
            average=average,
            sample_weight=w,
            zero_division=0.0,
        )
    for e, g in zip(expected[:3], got[:3], strict=True):
        if weight_kind == "float":
            # Float weights are summed in another order than sklearn's bincount.
            assert_allclose(g, e, rtol=1e-12, atol=1e-15)
        else:
            assert_array_equal(g, e)
    if average is None:
        assert_allclose(got[3], expected[3])


@pytest.mark.parametrize("weight_kind", [None, "int", "float"])
@pytest.mark.parametrize("pos_label", [0, 1])
@pytest.mark.parametrize("one_d", [True, False])
def test_one_hot_binary_equals_sklearn(weight_kind, pos_label, one_d):
    rng = np.random.default_rng(3)
    n = 300
    y_true = rng.integers(0, 2, size=n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, 1 - y_true)
    w = _weights(weight_kind, n, rng)
    proba = _one_hot(y_pred, 2)
    y_proba = proba[:, pos_label] if one_d else proba
    for ours, theirs in [
        (cprecision_score, "precision"),
        (crecall_score, "recall"),
        (cf1_score, "f1"),
    ]:
        from sklearn import metrics

        expected = getattr(metrics, f"{theirs}_score")(
            y_true, y_pred, pos_label=pos_label, sample_weight=w
        )
        got = ours(y_true, y_proba, pos_label=pos_label, sample_weight=w)
        assert isinstance(got, float)
        assert_allclose(got, expected, rtol=1e-13)


@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_zero_division_matches_sklearn(zero_division):
    # Class 2 is never predicted and class 3 never true: both 0/0 cases.
    y_true = np.array([0, 1, 2, 0, 1, 2])
    y_pred = np.array([0, 1, 1, 0, 3, 0])
    labels = np.arange(4)
    with warnings.catch_warnings(record=True) as ours_warn:
        warnings.simplefilter("always")
        got = cprecision_recall_fscore_support(
            y_true, _one_hot(y_pred, 4), labels=labels, zero_division=zero_division
        )
    with warnings.catch_warnings(record=True) as sk_warn:
        warnings.simplefilter("always")
        expected = precision_recall_fscore_support(
            y_true, y_pred, labels=labels, zero_division=zero_division
        )
    for e, g in zip(expected[:3], got[:3], strict=True):
        assert_array_equal(g, e)
    ours_undefined = [w for w in ours_warn if w.category is UndefinedMetricWarning]
    sk_undefined = [w for w in sk_warn if w.category is UndefinedMetricWarning]
    assert len(ours_undefined) == len(sk_undefined)


# ---------------------------------------------------------------------------
# Hand computations
# ---------------------------------------------------------------------------


def test_probabilistic_confusion_matrix_by_hand():
    # eq. 3: pcm[r, h] = sum of y_proba[i, h] over samples of true class r.
    y_true = ["b", "a", "b", "c"]
    y_proba = [[0.1, 0.7, 0.2], [0.5, 0.25, 0.25], [0.0, 0.4, 0.6], [0.2, 0.2, 0.6]]
    expected = [[0.5, 0.25, 0.25], [0.1, 1.1, 0.8], [0.2, 0.2, 0.6]]
    assert_allclose(probabilistic_confusion_matrix(y_true, y_proba), expected)
    w = [1.0, 2.0, 0.0, 1.0]
    expected_w = [[1.0, 0.5, 0.5], [0.1, 0.7, 0.2], [0.2, 0.2, 0.6]]
    assert_allclose(
        probabilistic_confusion_matrix(y_true, y_proba, sample_weight=w), expected_w
    )
    assert_allclose(
        probabilistic_confusion_matrix(y_true, y_proba, normalize="all"),
        np.array(expected) / 4,
    )


def test_metrics_by_hand_multiclass():
    y_true = ["b", "a", "b", "c"]
    y_proba = np.array(
        [[0.1, 0.7, 0.2], [0.5, 0.25, 0.25], [0.0, 0.4, 0.6], [0.2, 0.2, 0.6]]
    )
    # pcm = [[0.5, .25, .25], [0.1, 1.1, 0.8], [0.2, 0.2, 0.6]]
    p, r, f, s = cprecision_recall_fscore_support(y_true, y_proba)
    assert_allclose(p, [0.5 / 0.8, 1.1 / 1.55, 0.6 / 1.65])  # eq. 7
    assert_allclose(r, [0.5 / 1, 1.1 / 2, 0.6 / 1])  # eq. 8
    assert_allclose(f, 2 * p * r / (p + r))
    assert_array_equal(s, [1, 2, 1])
    assert_allclose(cf1_score(y_true, y_proba, average="macro"), f.mean())
    assert_allclose(
        cf1_score(y_true, y_proba, average="weighted"), np.average(f, weights=s)
    )
    micro = (0.5 + 1.1 + 0.6) / 4
    assert_allclose(cprecision_score(y_true, y_proba, average="micro"), micro)
    assert_allclose(crecall_score(y_true, y_proba, average="micro"), micro)
    beta = 2.0
    fb = (1 + beta**2) * p * r / (beta**2 * p + r)
    assert_allclose(cfbeta_score(y_true, y_proba, beta=beta, average=None), fb)


def test_labels_name_columns_when_a_class_is_absent():
    # y_true lacks class 1; the columns are classes 0, 1, 2.
    y_true = np.array([0, 2, 2])
    y_proba = np.array([[0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]])
    with pytest.raises(ValueError, match="(?i)pass labels"):
        cf1_score(y_true, y_proba, average="macro")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        p, r, f, _ = cprecision_recall_fscore_support(y_true, y_proba, labels=[0, 1, 2])
    assert_allclose(p, [0.6 / 0.9, 0.0, 1.4 / 1.5])
    assert_allclose(r, [0.6, 0.0, 0.7])  # class 1: 0/0 -> zero_division "warn" -> 0
    # Class 1 is absent but got probability mass 0.6: cF1 = 2*0/(0 + 0.6) = 0.
    assert_allclose(f[1], 0.0)
    # Columns can be in any order as long as labels says so.
    perm = [2, 0, 1]
    p2, r2, f2, _ = cprecision_recall_fscore_support(
        y_true,
        y_proba[:, perm],
        labels=np.array([0, 1, 2])[perm],
        zero_division=0.0,
    )
    assert_allclose(p2, p[perm])
    assert_allclose(f2, f[perm])


@pytest.mark.filterwarnings("ignore:Note that pos_label")
def test_one_d_is_probability_of_pos_label():
    y_true = np.array(["ham", "spam", "spam", "ham"])
    p_spam = np.array([0.2, 0.9, 0.6, 0.4])
    two_d = np.column_stack([1 - p_spam, p_spam])
    for avg in AVERAGES:
        expected = cf1_score(y_true, two_d, average=avg, pos_label="spam")
        got = cf1_score(y_true, p_spam, average=avg, pos_label="spam")
        assert_allclose(got, expected)
    # The same data seen as the probability of "ham".
    assert_allclose(
        cprecision_score(y_true, 1 - p_spam, pos_label="ham"),
        cprecision_score(y_true, two_d, pos_label="ham"),
    )
    assert_allclose(cprecision_score(y_true, p_spam, pos_label="spam"), 1.5 / 2.1)


def test_one_d_single_class_in_y_true():
    # Only positives: cFP = 0, so cPrecision = 1 and cRecall = mean probability.
    assert cprecision_score([1, 1], [0.3, 0.5]) == 1.0
    assert_allclose(crecall_score([1, 1], [0.3, 0.5]), 0.4)
    # Only negatives: every bit of positive mass is a confidence false positive.
    with pytest.warns(UndefinedMetricWarning):
        assert crecall_score([0, 0], [0.3, 0.5]) == 0.0
    assert cprecision_score([0, 0], [0.3, 0.5]) == 0.0


def test_matrix_matches_reference():
    # Many samples, float32 input, weights: compare with np.add.at.
    rng = np.random.default_rng(0)
    n, k = 20_000, 5
    y = rng.integers(0, k, n)
    proba = _random_proba(rng, n, k).astype(np.float32)
    proba /= proba.sum(axis=1, keepdims=True)
    w = rng.uniform(0, 2, n)
    expected = np.zeros((k, k))
    np.add.at(expected, y, proba.astype(np.float64) * w[:, None])
    got = probabilistic_confusion_matrix(y, proba, sample_weight=w)
    assert_allclose(got, expected, rtol=1e-10)


def test_input_is_not_modified():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 50)
    proba = _random_proba(rng, 50, 3)
    w = rng.uniform(0, 1, 50)
    copies = y.copy(), proba.copy(), w.copy()
    cf1_score(y, proba, average="macro", sample_weight=w)
    probabilistic_confusion_matrix(y, proba, sample_weight=w, normalize="true")
    for original, copy in zip((y, proba, w), copies, strict=True):
        assert_array_equal(original, copy)


# ---------------------------------------------------------------------------
# Properties (hypothesis)
# ---------------------------------------------------------------------------


@st.composite
def _problems(draw, normalized=True):
    k = draw(st.integers(2, 6))
    n = draw(st.integers(1, 40))
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    raw = draw(
        hnp.arrays(
            np.float64,
            (n, k),
            elements=st.floats(0, 1, allow_nan=False, allow_subnormal=False),
        )
    )
    if normalized:
        raw = raw + 1e-3
        raw = raw / raw.sum(axis=1, keepdims=True)
    return y, raw, np.arange(k)


@settings(max_examples=150, deadline=None)
@given(problem=_problems(), average=st.sampled_from(AVERAGES))
def test_values_lie_in_unit_interval(problem, average):
    y, proba, labels = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        values = cprecision_recall_fscore_support(
            y, proba, labels=labels, average=average
        )[:3]
    for v in values:
        v = np.atleast_1d(v)
        assert np.all((v >= 0) & (v <= 1 + 1e-12))


@settings(max_examples=150, deadline=None)
@given(problem=_problems(normalized=False))
def test_crecall_divides_by_class_count(problem):
    # eq. 8: the denominator is TP + FN, the number of samples of the class, not
    # the probabilistic row sum (they differ when rows do not sum to 1).
    y, proba, labels = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        recall = crecall_score(
            y, proba, labels=labels, average=None, zero_division=np.nan
        )
    for k in labels:
        members = proba[y == k]
        if members.shape[0] == 0:
            assert np.isnan(recall[k])
        else:
            expected = sum(row[k] for row in members) / members.shape[0]
            assert recall[k] == pytest.approx(expected, rel=1e-12, abs=1e-15)


@settings(max_examples=150, deadline=None)
@given(problem=_problems())
def test_cprecision_defined_whenever_precision_is(problem):
    # Benefit A of the paper: cPrecision is NaN no more often than Precision.
    y, proba, labels = problem
    y_pred = proba.argmax(axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = precision_recall_fscore_support(
            y, y_pred, labels=labels, zero_division=np.nan
        )[0]
        cp = cprecision_score(
            y, proba, labels=labels, average=None, zero_division=np.nan
        )
    assert np.all(np.isnan(cp) <= np.isnan(p))


@settings(max_examples=100, deadline=None)
@given(problem=_problems())
def test_matrix_rows_sum_to_class_counts(problem):
    y, proba, labels = problem
    pcm = probabilistic_confusion_matrix(y, proba, labels=labels)
    assert_allclose(
        pcm.sum(axis=1), np.bincount(y, minlength=labels.shape[0]), atol=1e-9
    )
    # The argmax of one-hot input gives sklearn's confusion matrix.
    one_hot = _one_hot(proba.argmax(axis=1), labels.shape[0])
    assert_array_equal(
        probabilistic_confusion_matrix(y, one_hot, labels=labels),
        confusion_matrix(y, proba.argmax(axis=1), labels=labels),
    )


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

Y3 = np.array([0, 1, 2, 1])
P3 = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3]])


@pytest.mark.parametrize(
    "y_true, y_proba, kwargs, match",
    [
        (Y3, np.where(np.eye(4, 3) == 1, np.nan, P3), {}, "NaN at row 0"),
        (
            Y3,
            np.where(np.arange(12).reshape(4, 3) == 7, np.inf, P3),
            {},
            "infinity at row 2",
        ),
        (Y3, P3 * np.array([[1], [1], [1], [-1]]), {}, "-0.3 at row 3"),
        (Y3, P3 * 2, {}, "must lie in \\[0, 1\\]"),
        (Y3, P3[:3], {}, "different numbers of samples: 4 and 3"),
        (Y3, P3[:, :2], {}, "2 columns but y_true holds 3"),
        (np.array([0, 1, 5, 1]), P3, {"labels": [0, 1, 2]}, "label\\(s\\) 5"),
        (Y3, P3, {"labels": [0, 1]}, "labels has 2 entries"),
        (Y3, P3, {"labels": [0, 1, 1]}, "duplicates"),
        ([], np.empty((0, 3)), {}, "y_true is empty"),
        (Y3, P3, {"average": "binary"}, "multiclass"),
        (Y3, P3[:, 0], {}, "only meaningful for a binary"),
        (Y3, P3.reshape(4, 3, 1), {}, "must have shape"),
        (Y3, P3, {"sample_weight": [1, 1]}, "sample_weight must have shape"),
        (Y3, P3, {"sample_weight": [1, -1, 1, 1]}, "negative weight"),
        (Y3, P3, {"sample_weight": [1, np.nan, 1, 1]}, "sample_weight contains"),
        (np.array([0, 1, 0]), [0.2, 0.5, 1.5], {}, "1.5 at row 2"),
        (np.array([0, 1, 0]), [0.2, np.nan, 0.1], {}, "NaN at row 1"),
        (np.array(["a", "b"]), [0.2, 0.5], {}, "pos_label=1 is not a valid"),
        (np.array([1, 1]), [[0.2, 0.8], [0.1, 0.9]], {}, "(?i)pass labels"),
        (Y3, np.array([["a"] * 3] * 4), {}, "must hold numbers"),
        (np.array([[0, 1], [1, 0]]), [0.5, 0.5], {}, "1-D array-like"),
    ],
)
def test_bad_input_raises_value_error(y_true, y_proba, kwargs, match):
    kwargs = {"average": "macro", **kwargs}
    with pytest.raises(ValueError, match=match):
        cf1_score(y_true, y_proba, **kwargs)


def test_unknown_average_names_the_parameter():
    with pytest.raises(ValueError, match="'average' parameter"):
        cf1_score(Y3, P3, average="samples")


def test_rows_not_summing_to_one_warn():
    with pytest.warns(UserWarning, match="1 row\\(s\\) of y_proba do not sum to 1"):
        cf1_score(Y3, P3 * np.array([[1], [1], [0.5], [1]]), average="macro")


def test_pos_label_ignored_warning_for_2d():
    y = np.array(["a", "b", "b"])
    proba = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]])
    with pytest.warns(UserWarning, match="pos_label .* is ignored"):
        cf1_score(y, proba, average="macro", pos_label="a")
