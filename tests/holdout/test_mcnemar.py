"""McNemar's and Cochran's Q tests, checked against statsmodels and mlxtend."""

import math

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.holdout._mcnemar import (
    CochransQTestResult,
    McNemarTestResult,
    cochrans_q_test,
    mcnemar_test,
)
from sklearn_faithful.utils._param_validation import InvalidParameterError


def _statsmodels_mcnemar(table, **kwargs):
    """statsmodels' McNemar (statistic, pvalue) of a 2 x 2 table."""
    tables = pytest.importorskip("statsmodels.stats.contingency_tables")
    ref = tables.mcnemar(table, **kwargs)
    return float(ref.statistic), float(ref.pvalue)


def _mlxtend_cochrans_q(y, preds):
    """mlxtend's Cochran's Q (statistic, pvalue)."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    return evaluate.cochrans_q(y, *preds)


def _predictions(n_both, n_a_only, n_b_only, n_neither):
    """y_true and two classifiers' labels with the given 2 x 2 table."""
    y = np.ones(n_both + n_a_only + n_b_only + n_neither, dtype=int)
    a = np.concatenate(
        [np.ones(n_both + n_a_only), np.zeros(n_b_only + n_neither)]
    ).astype(int)
    b = np.concatenate(
        [np.ones(n_both), np.zeros(n_a_only), np.ones(n_b_only), np.zeros(n_neither)]
    ).astype(int)
    return y, a, b


TABLES = [
    (10, 2, 10, 3),
    (50, 7, 3, 1),
    (0, 1, 0, 0),
    (5, 0, 6, 2),
    (100, 31, 45, 20),
    (3, 12, 4, 9),
    (80, 200, 180, 5),
]


# --- McNemar -----------------------------------------------------------------


@pytest.mark.parametrize("table", TABLES)
def test_mcnemar_exact_equals_statsmodels(table, reference):
    y, a, b = _predictions(*table)
    res = mcnemar_test(y, a, b)
    statistic, pvalue = reference(
        _statsmodels_mcnemar, [[table[0], table[1]], [table[2], table[3]]], exact=True
    )
    assert (res.n_a_only, res.n_b_only) == (table[1], table[2])
    assert res.statistic == pytest.approx(statistic, abs=0)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-12)
    assert isinstance(res.pvalue, float) and isinstance(res.statistic, float)


@pytest.mark.parametrize("table", TABLES)
def test_mcnemar_asymptotic_equals_statsmodels(table, reference):
    y, a, b = _predictions(*table)
    res = mcnemar_test(y, a, b, method="asymptotic")
    statistic, pvalue = reference(
        _statsmodels_mcnemar,
        [[table[0], table[1]], [table[2], table[3]]],
        exact=False,
        correction=True,
    )
    assert res.statistic == pytest.approx(statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-12)


def test_mcnemar_asymptotic_correction_stops_at_zero(reference):
    # b = c: statsmodels gives (0 - 1)^2 / (b + c) = 1/8; the correction
    # stops at 0, as scipy's Yates correction does (documented departure)
    y, a, b = _predictions(10, 4, 4, 2)
    res = mcnemar_test(y, a, b, method="asymptotic")
    statistic, _ = reference(_statsmodels_mcnemar, [[10, 4], [4, 2]], exact=False)
    assert statistic == pytest.approx(1 / 8)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize(
    "b, c, expected",
    [
        # P(X = k) for X ~ Binomial(12, 1/2) is C(12, k) / 4096;
        # mid-p = 2 P(X <= 2) - P(X = 2) = (2 (1 + 12 + 66) - 66) / 4096
        (2, 10, (2 * (1 + 12 + 66) - 66) / 4096),
        (10, 2, (2 * (1 + 12 + 66) - 66) / 4096),
        # n = 5, m = 0: 2 P(X = 0) - P(X = 0) = 1/32
        (0, 5, 1 / 32),
        # b = c: 2 P(X <= b) - P(X = b) = 1 by symmetry
        (5, 5, 1.0),
    ],
)
def test_mcnemar_mid_p_by_hand(b, c, expected):
    y, pred_a, pred_b = _predictions(7, b, c, 3)
    res = mcnemar_test(y, pred_a, pred_b, method="mid-p")
    assert res.pvalue == pytest.approx(expected, rel=1e-12)
    assert res.statistic == min(b, c)


def test_mcnemar_mid_p_is_exact_minus_point_probability():
    for b, c in [(1, 9), (3, 8), (20, 35), (40, 12)]:
        y, pred_a, pred_b = _predictions(0, b, c, 0)
        exact = mcnemar_test(y, pred_a, pred_b).pvalue
        mid = mcnemar_test(y, pred_a, pred_b, method="mid-p").pvalue
        n, m = b + c, min(b, c)
        point = math.comb(n, m) / 2**n
        assert mid == pytest.approx(exact - point, rel=1e-10)
        assert mid < exact


@pytest.mark.parametrize("method", ["exact", "mid-p", "asymptotic"])
def test_mcnemar_without_discordant_items(method, reference):
    y, a, b = _predictions(8, 0, 0, 3)
    # one tie behaviour with the sign test: p = 1, statistic 0, a warning
    with pytest.warns(RuntimeWarning, match="no item is discordant") as record:
        res = mcnemar_test(y, a, b, method=method)
    assert record[0].filename == __file__  # points at the user's call
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    assert (res.n_a_only, res.n_b_only, res.n_samples) == (0, 0, 11)
    # no discordant item: the interval still has width (1/2 added to each cell)
    low, high = res.confidence_interval()
    assert res.difference == 0.0 and low == pytest.approx(-high) and high > 0
    ref = reference(_statsmodels_mcnemar, [[8, 0], [0, 3]], exact=True)
    assert tuple(ref) == (0.0, 1.0)
    with pytest.warns(RuntimeWarning, match="no item is discordant"):
        assert sign_test(y, a, b).pvalue == res.pvalue


@pytest.mark.parametrize("table", TABLES)
def test_mcnemar_exact_is_the_sign_test(table):
    y, a, b = _predictions(*table)
    res, sign = mcnemar_test(y, a, b), sign_test(y, a, b)
    assert res.pvalue == sign.pvalue  # exactly: one computes, the other calls it
    assert (res.n_a_only, res.n_b_only) == (sign.n_a_better, sign.n_b_better)
    # the interval of the accuracy difference: Agresti & Min (2005), the Wald
    # interval of p21 - p12 after adding 1/2 to each of the four cells
    n_both, n_a, n_b, n_neither = table
    cells = np.array([n_both, n_a, n_b, n_neither]) + 0.5
    p = cells / cells.sum()
    d = p[2] - p[1]
    var = (p[1] + p[2] - d**2) / cells.sum()
    for level in (0.8, 0.95):
        z = stats.norm.ppf(0.5 + level / 2)
        expected = (max(d - z * var**0.5, -1), min(d + z * var**0.5, 1))
        assert res.confidence_interval(level) == pytest.approx(expected, abs=1e-12)
    assert res.difference == pytest.approx((table[2] - table[1]) / sum(table))
    low, high = res.confidence_interval()
    assert low <= res.difference <= high


def test_mcnemar_swapping_the_classifiers_swaps_the_counts():
    y, a, b = _predictions(10, 3, 9, 2)
    for method in ("exact", "mid-p", "asymptotic"):
        ab, ba = (
            mcnemar_test(y, a, b, method=method),
            mcnemar_test(y, b, a, method=method),
        )
        assert (ab.n_a_only, ab.n_b_only) == (ba.n_b_only, ba.n_a_only)
        assert ab.pvalue == ba.pvalue


def test_mcnemar_label_types_give_the_same_result():
    y, a, b = _predictions(10, 3, 9, 2)
    expected = mcnemar_test(y, a, b)
    as_str = np.array(["no", "yes"])
    variants = [
        (y.astype(np.int8), a.astype(np.int8), b.astype(np.int8)),
        (y.astype(bool), a.astype(bool), b.astype(bool)),
        (as_str[y], as_str[a], as_str[b]),
        (as_str[y].astype(object), as_str[a].astype(object), as_str[b].astype(object)),
        (y.tolist(), a.tolist(), b.tolist()),
        (y.astype(object), a.astype(object), b.astype(object)),
    ]
    for args in variants:
        assert mcnemar_test(*args) == expected


def test_mcnemar_multiclass_labels():
    y = np.array([0, 1, 2, 2, 1, 0, 2, 1])
    a = np.array([0, 1, 2, 0, 1, 1, 2, 1])  # wrong on items 3, 5
    b = np.array([0, 2, 2, 2, 0, 0, 2, 0])  # wrong on items 1, 4, 7
    res = mcnemar_test(y, a, b)
    assert (res.n_a_only, res.n_b_only) == (3, 2)


def test_mcnemar_does_not_modify_its_inputs():
    y, a, b = _predictions(10, 3, 9, 2)
    copies = [y.copy(), a.copy(), b.copy()]
    mcnemar_test(y, a, b, method="asymptotic")
    for arr, copy in zip((y, a, b), copies, strict=True):
        np.testing.assert_array_equal(arr, copy)


def test_mcnemar_input_errors():
    y, a, b = _predictions(10, 3, 9, 2)
    with pytest.raises(ValueError, match=r"y_pred_b has 23 samples but y_true has 24"):
        mcnemar_test(y, a, b[:-1])
    with pytest.raises(ValueError, match=r"y_pred_a has 25 samples but y_true has 24"):
        mcnemar_test(y, np.append(a, 1), b)
    with pytest.raises(ValueError, match="y_pred_a holds labels of dtype"):
        mcnemar_test(y, a.astype(str), b)
    with pytest.raises(ValueError, match="y_pred_b must be a 1-D"):
        mcnemar_test(y, a, np.ones((24, 2)))
    with pytest.raises(ValueError, match="y_true is empty"):
        mcnemar_test([], [], [])
    with pytest.raises(InvalidParameterError, match="'method' parameter"):
        mcnemar_test(y, a, b, method="midp")


def test_mcnemar_result_and_summary():
    y, a, b = _predictions(10, 2, 10, 3)
    res = mcnemar_test(y, a, b)
    assert isinstance(res, McNemarTestResult)
    assert res.method == "exact"
    with pytest.raises(AttributeError):
        res.pvalue = 0.5  # frozen
    text = res.summary()
    assert "A right and B wrong on 2" in text and "A wrong and B right on 10" in text


# --- Cochran's Q -------------------------------------------------------------


def _random_classifiers(rng, n, k, accuracies):
    y = rng.integers(0, 3, size=n)
    preds = []
    for acc in accuracies[:k]:
        wrong = rng.random(n) > acc
        preds.append(np.where(wrong, (y + 1) % 3, y))
    return y, preds


@pytest.mark.parametrize("k", [2, 3, 4, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cochrans_q_equals_mlxtend(k, seed, reference):
    rng = np.random.default_rng(seed)
    y, preds = _random_classifiers(rng, 60, k, [0.7, 0.8, 0.75, 0.6, 0.9, 0.85])
    res = cochrans_q_test(y, preds)
    q, p = reference(_mlxtend_cochrans_q, y, preds)
    assert res.statistic == pytest.approx(q, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-12)
    assert res.df == k - 1
    np.testing.assert_array_equal(res.n_correct, [np.sum(p == y) for p in preds])


def test_cochrans_q_for_two_is_mcnemar_without_correction(reference):
    y, a, b = _predictions(30, 4, 11, 5)
    res = cochrans_q_test(y, [a, b])
    statistic, pvalue = reference(
        _statsmodels_mcnemar, [[30, 4], [11, 5]], exact=False, correction=False
    )
    assert res.statistic == pytest.approx(statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-12)


def test_cochrans_q_dict_list_and_dataframe_agree():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    y, preds = _random_classifiers(rng, 40, 3, [0.7, 0.8, 0.9])
    named = dict(zip(["tree", "forest", "svm"], preds, strict=True))
    by_dict = cochrans_q_test(y, named)
    by_list = cochrans_q_test(y, preds)
    by_frame = cochrans_q_test(y, pd.DataFrame(named))
    assert by_dict.names == by_frame.names == ("tree", "forest", "svm")
    assert by_list.names == ("classifier 0", "classifier 1", "classifier 2")
    for other in (by_list, by_frame):
        assert other.statistic == by_dict.statistic
        assert other.pvalue == by_dict.pvalue
    assert "tree" in by_dict.summary()


def test_cochrans_q_degenerate_items():
    # every item right for all classifiers or wrong for all: Q = 0/0
    y = np.array(["a", "b", "c", "a", "b"])
    same = np.array(["a", "b", "a", "a", "c"])
    res = cochrans_q_test(y, {"x": same, "y": same.copy(), "z": same.copy()})
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


def test_cochrans_q_label_types_give_the_same_result():
    rng = np.random.default_rng(5)
    y, preds = _random_classifiers(rng, 50, 3, [0.6, 0.8, 0.7])
    expected = cochrans_q_test(y, preds)
    names = np.array(["cat", "dog", "emu"])
    for conv in (
        lambda v: v.astype(np.int8),
        lambda v: names[v],
        lambda v: names[v].astype(object),
        lambda v: v.tolist(),
    ):
        res = cochrans_q_test(conv(y), [conv(p) for p in preds])
        assert res.statistic == expected.statistic and res.pvalue == expected.pvalue


def test_cochrans_q_input_errors():
    y = np.array([0, 1, 1, 0, 1])
    with pytest.raises(ValueError, match=r"1 classifier\(s\).*at least 2"):
        cochrans_q_test(y, [y])
    with pytest.raises(
        ValueError, match=r"y_preds\['forest'\] has 4 samples but y_true has 5"
    ):
        cochrans_q_test(y, {"tree": y, "forest": y[:4]})
    with pytest.raises(ValueError, match=r"y_preds\['forest'\] holds labels of dtype"):
        cochrans_q_test(y, {"tree": y, "forest": y.astype(str)})
    with pytest.raises(InvalidParameterError, match="'y_preds' parameter"):
        cochrans_q_test(y, 3)
    with pytest.raises(ValueError, match=r"y_preds\[1\] has 4 samples"):
        cochrans_q_test(y, [y, y[:4]])


def test_cochrans_q_does_not_modify_its_inputs():
    rng = np.random.default_rng(7)
    y, preds = _random_classifiers(rng, 30, 3, [0.6, 0.8, 0.7])
    copies = [y.copy()] + [p.copy() for p in preds]
    res = cochrans_q_test(y, preds)
    for arr, copy in zip([y, *preds], copies, strict=True):
        np.testing.assert_array_equal(arr, copy)
    assert isinstance(res, CochransQTestResult)


@pytest.mark.parametrize(
    "call",
    [
        lambda y, p, q: mcnemar_test(y, p, q),
        lambda y, p, q: sign_test(y, p, q),
        lambda y, p, q: cochrans_q_test(y, [p, q, q]),
        lambda y, p, q: bootstrap_confidence_interval(y, p, metric="f1"),
        lambda y, p, q: paired_permutation_test(y, p, q, metric="accuracy"),
        lambda y, p, q: kappa_confidence_interval(y, p),
    ],
)
def test_probabilities_are_not_labels(call):
    # each distinct float would be a class, every item wrong, p tiny
    rng = np.random.default_rng(0)
    y, p, q = rng.integers(0, 2, 50), rng.random(50), rng.random(50)
    with pytest.raises(ValueError, match=r"holds 0\.38.* at item 0, not a class label"):
        call(y, p, q)
    labels = np.array([0, None] * 25, dtype=object)
    with pytest.raises(ValueError, match="holds None at item 1"):
        call(y, labels, labels)


def test_whole_floats_are_labels():
    y = np.array([0, 1] * 10)
    res = sign_test(y, y.astype(float), (1 - y).astype(np.float32))
    assert res.n_a_better == 20
