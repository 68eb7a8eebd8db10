"""scikit-learn integration: metadata routing, weighted counts, CV results.

Every test runs with metadata routing enabled and disabled where both make
sense; counts are checked against a hand computation that refits each split.
"""

import numpy as np
import pytest
from sklearn import config_context
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import KFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison import (
    BayesModelComparison,
    bayes_test,
    counts_from_cross_validate,
    paired_bayes_test,
)
from sklearn_faithful.model_selection import BlockRegularized3x2CV


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=240, n_features=6, weights=[0.7], random_state=0
    )
    # heavy weights on the positives move the fitted boundary a lot
    weight = np.where(y == 1, 6.0, 1.0)
    return X, y, weight


def _hand_counts(estimator, X, y, cv, fit_weight, count_weight):
    """Refit every split by hand: (TP, FP, FN, TN) of class 1, weighted."""
    rows = []
    for train, test in cv.split(X, y):
        est = clone(estimator)
        if fit_weight is None:
            est.fit(X[train], y[train])
        else:
            est.fit(X[train], y[train], sample_weight=fit_weight[train])
        w = None if count_weight is None else count_weight[test]
        tn, fp, fn, tp = confusion_matrix(
            y[test], est.predict(X[test]), labels=[0, 1], sample_weight=w
        ).ravel()
        rows.append([tp, fp, fn, tn])
    return np.asarray(rows, dtype=float)


def _lr(request=None):
    est = LogisticRegression(max_iter=1000)
    return est if request is None else est.set_fit_request(sample_weight=request)


def test_unrequested_weights_raise_sklearns_error(data):
    X, y, w = data
    comp = BayesModelComparison(_lr(), _lr(), paired=True, random_state=0)
    with config_context(enable_metadata_routing=True):
        with pytest.raises(UnsetMetadataPassedError, match="sample_weight"):
            comp.fit(X, y, sample_weight=w)


@pytest.mark.parametrize("request_a, request_b", [(True, True), (False, True)])
def test_routed_weights_reach_the_requesting_fits_and_the_counts(
    data, request_a, request_b
):
    X, y, w = data
    cv = BlockRegularized3x2CV(random_state=0)
    with config_context(enable_metadata_routing=True):
        comp = BayesModelComparison(
            _lr(request_a), _lr(request_b), cv=cv, paired=True, random_state=0
        )
        comp.fit(X, y, sample_weight=w)
    for request, counts in ((request_a, comp.counts_a_), (request_b, comp.counts_b_)):
        fit_weight = w if request else None
        expected = _hand_counts(_lr(), X, y, cv, fit_weight, w)
        np.testing.assert_allclose(counts, expected)
    # the weights changed the fitted model, so the check is not vacuous
    unweighted_fit = _hand_counts(_lr(), X, y, cv, None, w)
    assert not np.allclose(comp.counts_b_, unweighted_fit)


def test_weights_without_routing_go_to_both_fits_as_cross_validate(data):
    X, y, w = data
    cv = BlockRegularized3x2CV(random_state=0)
    comp = BayesModelComparison(
        _lr(), GaussianNB(), cv=cv, paired=True, variance="splits"
    )
    comp.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(comp.counts_a_, _hand_counts(_lr(), X, y, cv, w, w))
    np.testing.assert_allclose(
        comp.counts_b_, _hand_counts(GaussianNB(), X, y, cv, w, w)
    )
    # the paired test runs on the weighted counts
    res = paired_bayes_test(comp.counts_a_, comp.counts_b_, metric="f1")
    assert comp.results_["f1"].p_h1 == pytest.approx(res.p_h1)


def test_estimator_without_sample_weight_counts_weighted_under_routing(data):
    X, y, w = data
    cv = BlockRegularized3x2CV(random_state=0)
    knn = KNeighborsClassifier()  # its fit takes no sample_weight
    with config_context(enable_metadata_routing=True):
        comp = BayesModelComparison(knn, _lr(False), cv=cv, paired=True)
        comp.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(comp.counts_a_, _hand_counts(knn, X, y, cv, None, w))


def test_paper_test_refuses_fractional_weights_and_takes_frequency_weights(data):
    X, y, w = data
    comp = BayesModelComparison(_lr(), GaussianNB(), paired=False, random_state=0)
    with pytest.raises(ValueError, match=r"fractional weight 0\.5.*paired=True"):
        comp.fit(X, y, sample_weight=np.full(y.shape, 0.5))
    freq = np.where(y == 1, 2, 1)  # whole numbers: frequency weights
    cv = BlockRegularized3x2CV(random_state=0)
    comp = BayesModelComparison(_lr(), GaussianNB(), cv=cv, paired=False)
    comp.fit(X, y, sample_weight=freq)
    expected_a = _hand_counts(_lr(), X, y, cv, freq, freq)
    np.testing.assert_allclose(comp.counts_a_, expected_a)
    expected = bayes_test(
        expected_a, _hand_counts(GaussianNB(), X, y, cv, freq, freq), metric="f1"
    )
    assert comp.results_["f1"].p_h1 == pytest.approx(expected.p_h1)


def test_paired_test_does_not_depend_on_the_scale_of_the_weights(data):
    X, y, w = data
    kw = dict(paired=True, metrics=("f1",), random_state=0)
    with config_context(enable_metadata_routing=True):  # weights in counts only
        nb = GaussianNB().set_fit_request(sample_weight=False)
        one = BayesModelComparison(_lr(False), nb, **kw)
        ten = BayesModelComparison(_lr(False), nb, **kw)
        one.fit(X, y, sample_weight=w)
        ten.fit(X, y, sample_weight=10 * w)
    np.testing.assert_allclose(ten.counts_a_, 10 * one.counts_a_)
    assert one.results_["f1"].p_h1 == pytest.approx(ten.results_["f1"].p_h1)


def test_bad_weights_name_the_parameter(data):
    X, y, _ = data
    comp = BayesModelComparison(_lr(), GaussianNB(), paired=True)
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(240,\)"):
        comp.fit(X, y, sample_weight=np.ones(5))
    with pytest.raises(ValueError, match="sample_weight contains the negative"):
        comp.fit(X, y, sample_weight=-np.ones(y.shape))


def test_weights_not_modified(data):
    X, y, w = data
    w_int8 = (w > 1).astype(np.int8) + 1
    before = w_int8.copy()
    BayesModelComparison(_lr(), GaussianNB()).fit(X, y, sample_weight=w_int8)
    np.testing.assert_array_equal(w_int8, before)


@pytest.mark.parametrize("routing", [False, True])
@pytest.mark.parametrize(
    "params",
    [
        dict(paired=True),
        dict(paired=False),
        dict(paired=False, average="micro"),
        dict(paired=True, average="macro", correlation="wang2015"),
    ],
)
def test_from_cross_validate_equals_fit(data, routing, params):
    X, y, _ = data
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0)
    cv = BlockRegularized3x2CV(random_state=3)
    kw = dict(cv=cv, return_indices=True, return_estimator=True)
    with config_context(enable_metadata_routing=routing):
        fitted = BayesModelComparison(a, b, cv=cv, random_state=7, **params).fit(X, y)
        results = {
            "a": cross_validate(a, X, y, **kw),
            "b": cross_validate(b, X, y, **kw),
        }
        built = BayesModelComparison.from_cross_validate(
            results, X, y, random_state=7, **params
        )
    np.testing.assert_array_equal(built.per_class_counts_a_, fitted.per_class_counts_a_)
    np.testing.assert_array_equal(built.per_class_counts_b_, fitted.per_class_counts_b_)
    for metric, res in fitted.results_.items():
        assert built.results_[metric].p_h1 == pytest.approx(res.p_h1, abs=1e-12)
    assert built.summary() == fitted.summary()
    assert "cross_validate results" in str(built)


def test_from_cross_validate_weighted_counts(data):
    X, y, w = data
    cv = BlockRegularized3x2CV(random_state=0)
    kw = dict(cv=cv, return_indices=True, return_estimator=True)
    res = {
        "nb": cross_validate(GaussianNB(), X, y, **kw),
        "lr": cross_validate(_lr(), X, y, **kw),
    }
    comp = BayesModelComparison.from_cross_validate(res, X, y, sample_weight=w)
    np.testing.assert_allclose(
        comp.counts_a_, _hand_counts(GaussianNB(), X, y, cv, None, w)
    )
    counts = counts_from_cross_validate(res["lr"], X, y, sample_weight=w)
    np.testing.assert_allclose(counts[:, 1], comp.counts_b_)
    with pytest.raises(ValueError, match="fractional weight"):
        BayesModelComparison.from_cross_validate(
            res, X, y, sample_weight=w / 3, paired=False
        )


def test_from_cross_validate_says_what_is_wrong(data):
    X, y, _ = data
    kw = dict(return_indices=True, return_estimator=True)
    cv0, cv1 = (
        BlockRegularized3x2CV(random_state=0),
        BlockRegularized3x2CV(random_state=1),
    )
    res0 = cross_validate(GaussianNB(), X, y, cv=cv0, **kw)
    res1 = cross_validate(GaussianNB(), X, y, cv=cv1, **kw)
    bmc = BayesModelComparison
    with pytest.raises(ValueError, match=r"'a'\] and results\['b'\] used different"):
        bmc.from_cross_validate({"a": res0, "b": res1}, X, y)
    bare = cross_validate(GaussianNB(), X, y, cv=cv0)
    with pytest.raises(ValueError, match="return_indices=True, return_estimator"):
        bmc.from_cross_validate({"a": bare, "b": res0}, X, y)
    kfold = cross_validate(GaussianNB(), X, y, cv=KFold(6), **kw)
    with pytest.raises(ValueError, match="not the two halves of one"):
        bmc.from_cross_validate({"a": kfold, "b": kfold}, X, y)
    five = cross_validate(GaussianNB(), X, y, cv=KFold(5), **kw)
    with pytest.raises(ValueError, match=r"has 5 splits and results\['b'\] 6"):
        bmc.from_cross_validate({"a": five, "b": kfold}, X, y)
    with pytest.raises(TypeError, match="come from the results"):
        bmc.from_cross_validate({"a": res0, "b": res0}, X, y, cv=cv0)
    with pytest.raises(ValueError, match="two cross_validate results, of A"):
        bmc.from_cross_validate({"a": res0, "b": res0, "c": res0}, X, y)
    with pytest.raises(ValueError, match="results.*must be an instance of .dict"):
        bmc.from_cross_validate([res0, res1], X, y)
    with pytest.raises(ValueError, match="result.*must be an instance of .dict"):
        counts_from_cross_validate([1, 2], X, y)


def test_counts_from_cross_validate_by_hand(data):
    X, y, _ = data
    cv = BlockRegularized3x2CV(random_state=0)
    res = cross_validate(
        GaussianNB(), X, y, cv=cv, return_indices=True, return_estimator=True
    )
    counts = counts_from_cross_validate(res, X, y, labels=[1, 0])
    assert counts.shape == (6, 2, 4) and counts.dtype.kind == "i"
    np.testing.assert_array_equal(
        counts[:, 0], _hand_counts(GaussianNB(), X, y, cv, None, None)
    )


def test_metadata_routing_object():
    from sklearn.utils.metadata_routing import get_routing_for_object

    with config_context(enable_metadata_routing=True):
        comp = BayesModelComparison(_lr(True), _lr(False))
        routing = get_routing_for_object(comp)
    assert routing.consumes("fit", ["sample_weight"]) == {"sample_weight"}
    assert routing.consumes("fit", ["groups"]) == {"groups"}
