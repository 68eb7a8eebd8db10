"""The confidence scorers inside scikit-learn's model selection tools."""

import pickle
import warnings

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.metrics import (
    cf1_score,
    cfbeta_score,
    cprecision_score,
    get_scorer,
    get_scorer_names,
    make_confidence_scorer,
)


@pytest.fixture(scope="module")
def iris_strings():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])
    return X, names[y]


def _pipeline(C=1.0):
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=1000))


def test_cross_validate_pipeline_string_labels(iris_strings):
    X, y = iris_strings
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    scoring = {
        n: get_scorer(n) for n in ("cf1_macro", "cprecision_weighted", "f1_macro")
    }
    res = cross_validate(_pipeline(), X, y, cv=cv, scoring=scoring)
    for i, (train, test) in enumerate(cv.split(X, y)):
        model = _pipeline().fit(X[train], y[train])
        proba = model.predict_proba(X[test])
        assert_allclose(
            res["test_cf1_macro"][i], cf1_score(y[test], proba, average="macro")
        )
        assert_allclose(
            res["test_cprecision_weighted"][i],
            cprecision_score(y[test], proba, average="weighted"),
        )
    assert all(isinstance(v, float) for v in map(float, res["test_cf1_macro"]))


def test_fold_missing_a_class_matches_hand_computation():
    # The model is trained on all three iris classes; the first test fold holds
    # only classes 0 and 1, the second only class 2.
    X, y = load_iris(return_X_y=True)
    test_sets = [np.r_[0:15, 50:65], np.arange(120, 140)]
    cv = [(np.setdiff1d(np.arange(150), test), test) for test in test_sets]
    scores = cross_val_score(_pipeline(), X, y, cv=cv, scoring=get_scorer("cf1_macro"))
    for score, (train, test) in zip(scores, cv, strict=True):
        model = _pipeline().fit(X[train], y[train])
        assert model.classes_.tolist() == [0, 1, 2]
        assert np.unique(y[test]).size < 3
        proba = model.predict_proba(X[test])
        # Hand computation of eqs. 3-8 over every class the model knows.
        f = []
        for k in range(3):
            ctp = proba[y[test] == k, k].sum()
            mass = proba[:, k].sum()
            n_k = np.sum(y[test] == k)
            f.append(2 * ctp / (n_k + mass))
        assert_allclose(score, np.mean(f))
        # Inferring the columns from the fold alone is impossible, and refused.
        with pytest.raises(ValueError, match="labels"):
            cf1_score(y[test], proba, average="macro")


def test_grid_search_refit_on_cf1_with_dict_scoring(iris_strings):
    X, y = iris_strings
    scoring = {
        "cf1": get_scorer("cf1_macro"),
        "f1": "f1_macro",
        "cp": get_scorer("cprecision_macro"),
    }
    search = GridSearchCV(
        _pipeline(),
        {"logisticregression__C": [0.01, 1.0, 100.0]},
        scoring=scoring,
        refit="cf1",
        cv=3,
        error_score="raise",
    ).fit(X, y)
    best = np.argmax(search.cv_results_["mean_test_cf1"])
    assert search.best_index_ == best
    assert search.best_score_ == search.cv_results_["mean_test_cf1"][best]
    assert hasattr(search, "best_estimator_")


def test_error_score_raise_propagates_metric_errors():
    # 'cf1' is binary; iris is multiclass, so the metric raises in every fold.
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="average='binary'"):
        cross_validate(
            _pipeline(), X, y, cv=3, scoring=get_scorer("cf1"), error_score="raise"
        )


class _CountingClassifier(ClassifierMixin, BaseEstimator):
    """Logistic regression that counts its predict_proba calls."""

    calls = 0

    def fit(self, X, y, sample_weight=None):
        self.model_ = LogisticRegression(max_iter=1000).fit(
            X, y, sample_weight=sample_weight
        )
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        type(self).calls += 1
        return self.model_.predict_proba(X)

    def predict(self, X):
        return self.model_.predict(X)


def test_predict_proba_called_once_per_fold():
    X, y = load_iris(return_X_y=True)
    _CountingClassifier.calls = 0
    names = ["cf1_macro", "cprecision_macro", "crecall_micro", "cf1_weighted"]
    cross_validate(
        _CountingClassifier(), X, y, cv=4, scoring={n: get_scorer(n) for n in names}
    )
    assert _CountingClassifier.calls == 4


def _one_hot_model():
    # A tree's predict_proba is one-hot, so cf1 must equal sklearn's f1 scorer.
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0)


def test_grid_search_sample_weight_like_sklearn():
    X, y = load_wine(return_X_y=True)
    w = np.random.default_rng(0).integers(1, 4, size=y.shape[0]).astype(float)
    params = {"criterion": ["gini", "entropy"], "max_features": [None, 0.5]}
    ours = GridSearchCV(
        _one_hot_model(),
        params,
        cv=3,
        scoring={"f": get_scorer("cf1_macro")},
        refit=False,
    )
    theirs = GridSearchCV(
        _one_hot_model(), params, cv=3, scoring={"f": "f1_macro"}, refit=False
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours.fit(X, y, sample_weight=w)
        theirs.fit(X, y, sample_weight=w)
    assert_allclose(
        ours.cv_results_["mean_test_f"], theirs.cv_results_["mean_test_f"], rtol=1e-12
    )


def test_grid_search_sample_weight_routed_is_weighted():
    X, y = load_wine(return_X_y=True)
    w = np.random.default_rng(1).uniform(0.1, 3, size=y.shape[0])
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = get_scorer("cf1_macro").set_score_request(sample_weight=True)
        model = make_pipeline(
            StandardScaler().set_fit_request(sample_weight=False),
            LogisticRegression(max_iter=1000).set_fit_request(sample_weight=True),
        )
        search = GridSearchCV(
            model, {"logisticregression__C": [1.0]}, cv=cv, scoring=scorer
        ).fit(X, y, sample_weight=w)
    expected = []
    for train, test in cv.split(X, y):
        fitted = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
        fitted.fit(X[train], y[train], logisticregression__sample_weight=w[train])
        expected.append(
            cf1_score(
                y[test],
                fitted.predict_proba(X[test]),
                average="macro",
                sample_weight=w[test],
            )
        )
    assert_allclose(search.cv_results_["mean_test_score"][0], np.mean(expected))
    unweighted = np.mean(
        [
            cf1_score(
                y[te],
                make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
                .fit(X[tr], y[tr], logisticregression__sample_weight=w[tr])
                .predict_proba(X[te]),
                average="macro",
            )
            for tr, te in cv.split(X, y)
        ]
    )
    assert not np.isclose(search.cv_results_["mean_test_score"][0], unweighted)


def test_binary_scorer_pos_label_and_strings():
    X, y = load_iris(return_X_y=True)
    mask = y > 0
    X, y = X[mask], np.array(["versicolor", "virginica"])[y[mask] - 1]
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    scorer = make_confidence_scorer(cf1_score, pos_label="versicolor")
    scores = cross_val_score(_pipeline(), X, y, cv=cv, scoring=scorer)
    for s, (train, test) in zip(scores, cv.split(X, y), strict=True):
        model = _pipeline().fit(X[train], y[train])
        proba = model.predict_proba(X[test])
        assert_allclose(
            s, cf1_score(y[test], proba, labels=model.classes_, pos_label="versicolor")
        )
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        cross_val_score(
            _pipeline(), X, y, cv=cv, scoring=get_scorer("cf1"), error_score="raise"
        )
    macro = cross_val_score(_pipeline(), X, y, cv=cv, scoring=get_scorer("cf1_macro"))
    for s, (train, test) in zip(macro, cv.split(X, y), strict=True):
        proba = _pipeline().fit(X[train], y[train]).predict_proba(X[test])
        assert_allclose(s, cf1_score(y[test], proba, average="macro"))


def test_scorer_pickles_and_runs_in_parallel():
    X, y = load_iris(return_X_y=True)
    scorer = make_confidence_scorer(cfbeta_score, beta=2.0, average="macro")
    clone = pickle.loads(pickle.dumps(scorer))
    serial = cross_val_score(_pipeline(), X, y, cv=3, scoring=scorer)
    parallel = cross_val_score(_pipeline(), X, y, cv=3, scoring=clone, n_jobs=2)
    assert_allclose(serial, parallel)
    assert repr(scorer) == (
        "make_confidence_scorer(cfbeta_score, beta=2.0, average='macro')"
    )


def test_scorer_names_and_fallback():
    names = get_scorer_names()
    for base in ("cprecision", "crecall", "cf1"):
        for suffix in ("", "_micro", "_macro", "_weighted"):
            assert base + suffix in names
    assert "accuracy" in names
    assert get_scorer("accuracy") is not None
    assert get_scorer("cf1") is not get_scorer("cf1")  # fresh copies


def test_scorer_rejects_regressor():
    from sklearn.linear_model import LinearRegression

    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="classes_"):
        get_scorer("cf1_macro")(LinearRegression().fit(X, y), X, y)
