"""The calibration scorers inside scikit-learn's model selection tools."""

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.calibration import calibration_error, corp_decomposition
from sklearn_faithful.comparison import ModelComparison
from sklearn_faithful.metrics import (
    get_scorer,
    get_scorer_names,
    make_confidence_scorer,
)
from sklearn_faithful.metrics._scorer import _check_scoring

# name: (the calibration room's function of (y, proba), its sign as a score)
EXPECTED = {
    "neg_calibration_error": (lambda y, p: calibration_error(y, p), -1),
    "neg_calibration_error_top_label": (
        lambda y, p: calibration_error(y, p, multi_class="top-label"),
        -1,
    ),
    "neg_calibration_error_classwise": (
        lambda y, p: calibration_error(y, p, multi_class="classwise"),
        -1,
    ),
    "neg_debiased_calibration_error": (
        lambda y, p: calibration_error(y, p, method="debiased"),
        -1,
    ),
    "neg_brier_miscalibration": (
        lambda y, p: corp_decomposition(y, p).miscalibration,
        -1,
    ),
    "brier_discrimination": (lambda y, p: corp_decomposition(y, p).discrimination, 1),
    "neg_log_loss_miscalibration": (
        lambda y, p: corp_decomposition(y, p, scoring="log_loss").miscalibration,
        -1,
    ),
    "log_loss_discrimination": (
        lambda y, p: corp_decomposition(y, p, scoring="log_loss").discrimination,
        1,
    ),
}


def _pipeline(C=1.0):
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=1000))


def _data(name):
    X, y = (load_breast_cancer if name == "cancer" else load_iris)(return_X_y=True)
    if name == "iris_strings":
        y = np.array(["setosa", "versicolor", "virginica"])[y]
    return X, y


@pytest.mark.parametrize("data", ["cancer", "iris", "iris_strings"])
def test_cross_validate_equals_the_calibration_room_on_each_fold(data):
    X, y = _data(data)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    scoring = {name: get_scorer(name) for name in EXPECTED}
    res = cross_validate(_pipeline(), X, y, cv=cv, scoring=scoring)
    for i, (train, test) in enumerate(cv.split(X, y)):
        proba = _pipeline().fit(X[train], y[train]).predict_proba(X[test])
        for name, (func, sign) in EXPECTED.items():
            expected = sign * func(y[test], proba)
            assert_allclose(res[f"test_{name}"][i], expected, rtol=1e-12, atol=0)
    # errors are not negative: the negated scores are not positive
    assert np.all(res["test_neg_calibration_error"] <= 0)
    assert np.all(res["test_brier_discrimination"] > 0)


def test_binary_scores_the_greater_class_of_string_labels():
    # pos_label=None is classes_[-1]: labels that are not {0, 1} work, and
    # the value is that of the 2-column predict_proba
    X, y = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[y]
    model = _pipeline().fit(X[::2], y[::2])
    proba = model.predict_proba(X[1::2])
    for name, (func, sign) in EXPECTED.items():
        got = get_scorer(name)(model, X[1::2], y[1::2])
        assert_allclose(got, sign * func(y[1::2], proba), rtol=1e-12, atol=0)
        assert type(got) is float


def test_fold_missing_a_class_uses_the_estimator_classes():
    # a test set without class 2: the columns are still the model's classes
    X, y = load_iris(return_X_y=True)
    model = _pipeline().fit(X, y)
    keep = y < 2
    proba = model.predict_proba(X[keep])
    got = get_scorer("neg_calibration_error_classwise")(model, X[keep], y[keep])
    expected = calibration_error(
        y[keep], proba, multi_class="classwise", labels=model.classes_
    )
    assert_allclose(got, -expected, rtol=1e-12)
    with pytest.raises(ValueError, match="y_proba has 3 columns"):
        calibration_error(y[keep], proba, multi_class="classwise")


def test_grid_search_refits_on_the_calibration_error():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    grid = {"logisticregression__C": [0.01, 1.0, 100.0]}
    scoring = {n: get_scorer(n) for n in ("neg_calibration_error", "accuracy")}
    search = GridSearchCV(
        _pipeline(), grid, cv=cv, scoring=scoring, refit="neg_calibration_error"
    ).fit(X, y)
    means = search.cv_results_["mean_test_neg_calibration_error"]
    assert search.best_index_ == int(np.argmax(means))  # the lowest error
    expected = [
        -np.mean(
            [
                calibration_error(
                    y[te],
                    _pipeline(C).fit(X[tr], y[tr]).predict_proba(X[te]),
                )
                for tr, te in cv.split(X, y)
            ]
        )
        for C in grid["logisticregression__C"]
    ]
    assert_allclose(means, expected, rtol=1e-12)
    assert hasattr(search.best_estimator_, "predict_proba")


def test_model_comparison_accepts_the_names():
    X, y = load_breast_cancer(return_X_y=True)
    models = {"weak": _pipeline(C=0.001), "strong": _pipeline(C=1.0)}
    for name in ("neg_calibration_error", "brier_discrimination"):
        comp = ModelComparison(models, scoring=name, random_state=0).fit(X, y)
        splits = comp.splits_
        for model, est in models.items():
            res = cross_validate(est, X, y, cv=splits, scoring=get_scorer(name))
            assert_allclose(comp.scores_[model], res["test_score"], rtol=1e-12)


def test_names_errors_repr_and_pickle():
    names = get_scorer_names()
    assert set(EXPECTED) <= set(names)
    assert "neg_brier_score" in names  # scikit-learn's still follow
    for name in EXPECTED:
        scorer = _check_scoring(None, name)
        assert repr(scorer) == repr(get_scorer(name))
        assert repr(pickle.loads(pickle.dumps(scorer))) == repr(scorer)
    assert repr(get_scorer("neg_debiased_calibration_error")) == (
        "make_confidence_scorer(calibration_error, greater_is_better=False, "
        "pos_label=None, method='debiased')"
    )
    with pytest.raises(ValueError, match="scoring='calibration_error' is not"):
        _check_scoring(None, "calibration_error")


def test_make_confidence_scorer_negates_an_error():
    X, y = load_iris(return_X_y=True)
    model = _pipeline().fit(X, y)
    proba = model.predict_proba(X)
    scorer = make_confidence_scorer(
        calibration_error, greater_is_better=False, n_bins=5, strategy="quantile"
    )
    expected = calibration_error(y, proba, n_bins=5, strategy="quantile")
    assert_allclose(scorer(model, X, y), -expected, rtol=1e-12)
    assert repr(scorer).startswith(
        "make_confidence_scorer(calibration_error, greater_is_better=False, n_bins=5"
    )
    with pytest.raises(ValueError, match="greater_is_better"):
        make_confidence_scorer(calibration_error, greater_is_better="no")


def test_bad_probabilities_raise_through_the_scorer():
    class Unnormalised(LogisticRegression):
        def predict_proba(self, X):
            return super().predict_proba(X) * 0.5

    X, y = load_iris(return_X_y=True)
    model = Unnormalised(max_iter=1000).fit(X, y)
    with pytest.raises(ValueError, match="sums to 0.5, not 1"):
        get_scorer("neg_calibration_error")(model, X, y)
