"""The table path's statistic: scikit-learn's number, errors and warnings, without
calling scikit-learn; and results pinned from before it stopped calling it."""

import functools
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn import __version__ as sklearn_version
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
    paired_bootstrap_test,
    paired_bootstrap_test_from_table,
    paired_permutation_test,
    paired_permutation_test_from_table,
)

from .test_tables import TABLE_METRICS

# an undefined kappa warns from scikit-learn 1.7 on, as ours always does
_OLD_KAPPA = tuple(int(v) for v in sklearn_version.split(".")[:2]) < (1, 7)

# (name, metric_kwargs, scikit-learn's function with the same arguments)
AVERAGED = [
    (f"{name}{suffix}", kwargs, functools.partial(func, average=average, **kwargs))
    for name, func in (
        ("precision", skm.precision_score),
        ("recall", skm.recall_score),
        ("f1", skm.f1_score),
    )
    for suffix, average in (
        ("", "binary"),
        ("_micro", "micro"),
        ("_macro", "macro"),
        ("_weighted", "weighted"),
    )
    for kwargs in ({}, {"zero_division": 0.0}, {"zero_division": 1.0},
                   {"zero_division": np.nan})
]  # fmt: skip
OTHERS = [
    ("accuracy", {}, skm.accuracy_score),
    *TABLE_METRICS[:4],  # balanced accuracy (adjusted too), MCC, kappa
    *[
        (f"jaccard{suffix}", kwargs, functools.partial(
            skm.jaccard_score, average=average, **kwargs))
        for suffix, average in (("", "binary"), ("_micro", "micro"),
                                ("_macro", "macro"), ("_weighted", "weighted"))
        for kwargs in ({}, {"zero_division": 1.0})
    ],
]  # fmt: skip


def _label_sets(seed):
    """Label pairs that reach every undefined case: one class only, a class
    never predicted, never true, a positive class of no item."""
    rng = np.random.default_rng(seed)
    sets = [
        (np.array([0, 0, 1, 1, 0]), np.array([0, 0, 0, 0, 0])),  # 1 never predicted
        (np.array([0, 0, 0, 0]), np.array([0, 1, 0, 1])),  # 1 never true
        (np.array([0, 0, 0]), np.array([0, 0, 0])),  # one class
        (np.array([1, 1, 1]), np.array([1, 1, 1])),
        (np.array([2, 2, 2, 0]), np.array([2, 0, 2, 0])),  # pos_label 1 absent
    ]
    for _ in range(6):
        k, n = int(rng.integers(2, 5)), int(rng.integers(3, 30))
        y = rng.integers(0, k, n)
        sets.append((y, np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))))
    return sets


def _outcome(call):
    """``(value, error, warnings)`` of a call: scikit-learn's warning classes
    only, as (class, message), in order. Left out: confusion_matrix's warning
    that its matrix of one label has one row, which is about the shape of
    its output, not about the metric."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = call(), None
        except ValueError as exc:
            value, error = None, exc
    said = [
        (w.category, str(w.message))
        for w in caught
        if w.category in (UndefinedMetricWarning, UserWarning)
        and not str(w.message).startswith("A single label was found")
    ]
    return value, error, said


def _same(ours, theirs, metric):
    if np.isnan(theirs):
        return np.isnan(ours)
    if metric == "cohen_kappa":  # 1 - a / b, grouped differently: 1 ulp
        return ours == pytest.approx(theirs, rel=1e-15, abs=1e-15)
    return ours == theirs


@pytest.mark.parametrize("name, kwargs, func", AVERAGED + OTHERS)
def test_statistic_is_sklearns_number_error_and_warnings(name, kwargs, func):
    """On the labels' table path: the value bit for bit (kappa to an ulp), the
    same ValueError (multiclass under average='binary'), the same
    UndefinedMetricWarning and UserWarning messages."""
    for y, pred in _label_sets(0):
        theirs, their_error, their_warnings = _outcome(functools.partial(func, y, pred))
        res, our_error, our_warnings = _outcome(
            functools.partial(
                bootstrap_confidence_interval, y, pred, metric=name,
                metric_kwargs=kwargs, n_resamples=2, random_state=0,
            )
        )  # fmt: skip
        assert (our_error is None) == (their_error is None), (y, pred, our_error)
        if their_error is not None:
            continue
        assert res.fast_path
        assert _same(res.statistic, theirs, name), (y, pred)
        if name == "cohen_kappa":  # ours names no `labels` nor replace_undefined_by
            our_warnings = [c for c, _ in our_warnings]
            their_warnings = [c for c, _ in their_warnings]
            if _OLD_KAPPA:  # scikit-learn < 1.7 returned NaN without a word
                their_warnings = [
                    c for c in our_warnings if c is UndefinedMetricWarning
                ]
        assert our_warnings == their_warnings, (y, pred)


@pytest.mark.parametrize(
    "y, pred, pos_label",
    [
        (np.array([3, 5, 5, 3], np.int8), np.array([3, 3, 5, 3], np.int8), 5),
        (np.array([True, False, True]), np.array([True, True, False]), True),
        (np.array(["a", "b", "b", "a"]), np.array(["a", "a", "b", "b"]), "b"),
        (np.array(["a", "a", "a"]), np.array(["a", "a", "a"]), "b"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("metric", ["precision", "recall", "f1", "jaccard"])
def test_statistic_with_pos_label_and_label_types(y, pred, pos_label, metric):
    func = getattr(skm, "f1_score" if metric == "f1" else f"{metric}_score")
    kwargs = {"pos_label": pos_label}
    theirs, _, their_warnings = _outcome(lambda: func(y, pred, **kwargs))
    res, _, our_warnings = _outcome(
        lambda: bootstrap_confidence_interval(
            y, pred, metric=metric, metric_kwargs=kwargs, n_resamples=2,
            random_state=0
        )
    )  # fmt: skip
    assert res.statistic == theirs
    assert our_warnings == their_warnings


def test_pos_label_ignored_warning_is_sklearns():
    y, pred = np.array([0, 1, 2, 1]), np.array([0, 2, 2, 1])
    kwargs = {"pos_label": 2, "average": "macro"}
    theirs, _, their_warnings = _outcome(lambda: skm.f1_score(y, pred, **kwargs))
    res, _, our_warnings = _outcome(
        lambda: bootstrap_confidence_interval(
            y, pred, metric="f1", metric_kwargs=kwargs, n_resamples=2, random_state=0
        )
    )
    assert res.statistic == theirs
    assert our_warnings == their_warnings
    assert our_warnings[0][0] is UserWarning


@pytest.mark.parametrize(
    "metric, kwargs, match",
    [
        ("f1", {}, r"labels hold 3 classes \[0, 1, 2\], but average='binary'"),
        ("precision", {"pos_label": 7}, "pos_label=7 is not a valid label"),
        ("jaccard", {"pos_label": None}, "pos_label=None is not a valid label"),
        ("f1_macro", {"zero_division": 0.5}, r"_kwargs\['zero_division'\] is 0.5"),
        ("jaccard_macro", {"zero_division": np.nan}, r"\(0.0 or 1.0\) or 'warn'"),
        ("f1_macro", {"zero_division": "nan"}, r"\['zero_division'\] is 'nan'"),
        (skm.fbeta_score, {"beta": -1, "average": "macro"}, r"\['beta'\] is -1"),
        ("f1_macro", {"pos_label": [1]}, r"\['pos_label'\] is \[1\]"),
        ("balanced_accuracy", {"adjusted": "yes"}, r"\['adjusted'\] is 'yes'"),
    ],
)  # fmt: skip
def test_arguments_sklearn_would_refuse_are_refused(metric, kwargs, match):
    """The table path checks what scikit-learn's metric would have checked."""
    y, pred = np.array([0, 1, 2, 1, 0]), np.array([0, 2, 2, 1, 1])
    if match.startswith("pos_label") or "pos_label=None" in match:
        y, pred = y % 2, pred % 2
    with pytest.raises(ValueError, match=match):
        bootstrap_confidence_interval(
            y, pred, metric=metric, metric_kwargs=kwargs, n_resamples=2
        )
    table = np.zeros((3, 3), dtype=int)
    np.add.at(table, (y, pred), 1)
    with pytest.raises(ValueError, match=match):
        bootstrap_confidence_interval_from_table(
            table[: y.max() + 1, : y.max() + 1],
            metric=metric,
            metric_kwargs=kwargs,
            n_resamples=2,
        )


@pytest.mark.parametrize("metric", ["f1_macro", "precision_weighted", "jaccard_macro"])
def test_paired_statistic_counts_each_systems_own_classes(metric):
    """B predicts a class that neither y_true nor A holds: scikit-learn
    averages A's metric over A's classes only, and says nothing about B's."""
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    a = np.array([0, 1, 1, 1, 0, 0, 1, 0])
    b = np.array([0, 2, 0, 1, 1, 0, 1, 0])
    name, _, average = metric.rpartition("_")
    func = getattr(skm, "f1_score" if name == "f1" else f"{name}_score")
    expected = func(y, b, average=average) - func(y, a, average=average)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        res = paired_bootstrap_test(y, a, b, metric=metric, n_resamples=2)
    assert res.statistic == expected


def test_sklearn_metric_is_not_called_on_the_table_path(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("scikit-learn's metric was called")

    for name in ("f1_score", "accuracy_score", "cohen_kappa_score"):
        monkeypatch.setattr(skm, name, refuse)
    y, pred = np.array([0, 1, 1, 0, 1, 1]), np.array([0, 1, 0, 0, 1, 1])
    for metric in ("f1", "accuracy", "cohen_kappa"):
        bootstrap_confidence_interval(y, pred, metric=metric, n_resamples=9)
        bootstrap_confidence_interval_from_table([[3, 1], [2, 4]], metric=metric)


def test_table_path_imports_neither_sklearn_nor_scipy():
    code = (
        "import sys, numpy as np\n"
        "from sklearn_faithful.holdout import (bootstrap_confidence_interval,\n"
        "    bootstrap_confidence_interval_from_table, paired_permutation_test)\n"
        "y = np.array([0, 1, 1, 0, 1, 1, 0, 0])\n"
        "a = np.array([0, 1, 0, 0, 1, 1, 1, 0])\n"
        "for m in ('f1', 'f1_macro', 'accuracy', 'cohen_kappa', 'jaccard_weighted'):\n"
        "    bootstrap_confidence_interval(y, a, metric=m, n_resamples=99)\n"
        "    paired_permutation_test(y, a, y[::-1], metric=m, n_resamples=99)\n"
        "bootstrap_confidence_interval_from_table([[3, 1], [2, 4]], metric='f1')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "    ('sklearn', 'scipy', 'joblib')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"


# --- results pinned before the statistic stopped calling scikit-learn -----------
# (float.hex of: statistic, low, high, standard error, resamples 0, 57, 198 for
# the intervals; statistic, p-value, low, high, null resamples 0, 100 for the
# tests), computed with the code that called scikit-learn's metric


def _pinned_data():
    rng = np.random.default_rng(7)
    n = 300
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    return y, a, b


PINNED_INTERVALS = [
    ("f1", None, "bca", True, ["0x1.c5733b2c394dep-1", "0x1.b801fea6ded1ep-1",
     "0x1.dc3430232fee1p-1", "0x1.1e6c4ada661aep-6", "0x1.c34115b1e5f75p-1",
     "0x1.c40efc40efc41p-1", "0x1.d1745d1745d17p-1"]),
    ("cohen_kappa", None, "percentile", False, ["0x1.572aa7f023d02p-1",
     "0x1.3627aa5a0e00ep-1", "0x1.76352be806a90p-1", "0x1.261b0c8340a1bp-5",
     "0x1.7585b422ed5a4p-1", "0x1.5c6399212eae2p-1", "0x1.64a856e360cf0p-1"]),
    ("balanced_accuracy", {"adjusted": True}, "percentile", False, [
     "0x1.591056a21df04p-1", "0x1.388692f25057ap-1", "0x1.77b945daedae6p-1",
     "0x1.1ffd85dd6ccf3p-5", "0x1.765fc87f212e7p-1", "0x1.5e63c8cfad590p-1",
     "0x1.63ad45f18297fp-1"]),
    ("jaccard_weighted", None, "bca", False, ["0x1.48628eafa158dp-1",
     "0x1.2ce3d53c99274p-1", "0x1.6a4648af74e37p-1", "0x1.077c354f77db4p-5",
     "0x1.65d2f87f51aa2p-1", "0x1.4cf4a05f6c719p-1", "0x1.563f733ec5dd9p-1"]),
]  # fmt: skip


@pytest.mark.parametrize("metric, kwargs, method, binary, expected", PINNED_INTERVALS)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_intervals_equal_those_before(metric, kwargs, method, binary, expected):
    y, a, _ = _pinned_data()
    if binary:
        y, a = (y > 0).astype(int), (a > 0).astype(int)
    res = bootstrap_confidence_interval(
        y, a, metric=metric, metric_kwargs=kwargs, n_resamples=199, method=method,
        random_state=3,
    )  # fmt: skip
    got = [res.statistic, *res.confidence_interval, res.standard_error,
           *res.bootstrap_distribution[[0, 57, 198]]]  # fmt: skip
    assert [float(v).hex() for v in got] == expected


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_paired_tests_equal_those_before():
    y, a, b = _pinned_data()
    expected = {
        (paired_permutation_test, "f1_macro"): ["0x1.838eb9d56f348p-4",
            "0x1.47ae147ae147bp-7", "0x1.433ec34e284f2p-6", "0x1.32baf46495958p-3",
            "-0x1.115c6e1c2e1a0p-5", "-0x1.0f5d7152bd700p-9"],
        (paired_bootstrap_test, "cohen_kappa"): ["0x1.26b3dd71cbff0p-3",
            "0x1.47ae147ae147bp-8", "0x1.e76c9b57eb2fcp-5", "0x1.d7cb44cd4cb70p-3",
            "-0x1.ea555fff19ac0p-7", "-0x1.a4c5616681830p-5"],
    }  # fmt: skip
    for (test, metric), values in expected.items():
        res = test(y, a, b, metric=metric, n_resamples=199, random_state=5)
        got = [res.statistic, res.pvalue, *res.confidence_interval(),
               *res.null_distribution[[0, 100]]]  # fmt: skip
        assert [float(v).hex() for v in got] == values
    table = np.zeros((3, 3, 3), dtype=int)
    np.add.at(table, (y, a, b), 1)
    res = paired_permutation_test_from_table(
        table, metric="cohen_kappa", n_resamples=199, random_state=1
    )
    assert [res.statistic.hex(), res.pvalue.hex()] == [
        "0x1.26b3dd71cbff0p-3",
        "0x1.47ae147ae147bp-7",
    ]
    res = bootstrap_confidence_interval_from_table(
        table.sum(axis=2), metric="f1_micro", method="bca", n_resamples=199,
        random_state=1,
    )  # fmt: skip
    got = [res.statistic, *res.confidence_interval]
    assert [float(v).hex() for v in got] == [
        "0x1.8f5c28f5c28f6p-1",
        "0x1.76a6610327cd9p-1",
        "0x1.a3d70a3d70a3dp-1",
    ]
    # the joint table's bootstrap test, as from the labels
    res = paired_bootstrap_test_from_table(
        table, metric="cohen_kappa", n_resamples=199, random_state=5
    )
    assert res.statistic.hex() == "0x1.26b3dd71cbff0p-3"


def test_kappa_statistic_is_sklearns_bit_for_bit_and_bca_unchanged():
    # before: the table's kappa was one ulp off scikit-learn's here, which
    # moved the BCa bias correction: (-0.1852, 0.6087) instead of these ends
    y = [1, -1, -1, 1, -1, -1, 1, 1, -1, -1, -1, -1]
    p = [-1, 5, -1, -1, -1, -1, -1, 1, -1, 2, -1, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few items
        res = bootstrap_confidence_interval(
            y, p, metric="cohen_kappa", n_resamples=999, method="bca", random_state=0
        )
    assert res.statistic == skm.cohen_kappa_score(y, p)
    assert tuple(res.confidence_interval) == (-0.19999999999999996, 0.565692159049955)


def test_kappa_statistic_equals_sklearns_on_random_labels():
    rng = np.random.default_rng(0)
    for _ in range(300):
        k, n = rng.integers(2, 6), rng.integers(5, 60)
        y = rng.integers(0, k, n)
        p = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = bootstrap_confidence_interval(
                y, p, metric="cohen_kappa", n_resamples=2, random_state=0
            ).statistic
            theirs = skm.cohen_kappa_score(y, p)
        assert ours == theirs or (np.isnan(ours) and np.isnan(theirs))


def test_binary_average_without_pos_label_on_one_class_is_an_error():
    # before: 0.0 (scikit-learn fails here too, with a TypeError)
    with pytest.raises(ValueError, match="pos_label=None is not a valid label"):
        bootstrap_confidence_interval(
            [0, 0, 0, 0],
            [0, 0, 0, 0],
            metric="f1",
            metric_kwargs={"average": "binary", "pos_label": None, "zero_division": 0},
            n_resamples=2,
        )
