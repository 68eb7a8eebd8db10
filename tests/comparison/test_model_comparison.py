"""ModelComparison: several models on any score, from fits or from results."""

import warnings

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RandomizedSearchCV,
    RepeatedKFold,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_faithful.comparison import (
    ModelComparison,
    bayesian_correlated_ttest,
    blocked_mx2cv_ttest,
    corrected_resampled_ttest,
)
from sklearn_faithful.utils._multitest import holm

TESTS = ["corrected-t", "5x2cv-t", "5x2cv-f", "bcv-t", "bayesian"]


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=200, n_features=8, random_state=0)


def _models():
    return {
        "nb": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "logreg": LogisticRegression(max_iter=1000),
    }


@pytest.mark.parametrize("test", TESTS)
def test_fit_equals_from_cross_validate_and_the_functions(data, test):
    X, y = data
    comp = ModelComparison(
        _models(), scoring="roc_auc", test=test, random_state=0, rope=0.01
    ).fit(X, y)
    assert comp.pairs_ == [("nb", "tree"), ("nb", "logreg"), ("tree", "logreg")]
    assert comp.n_train_ == comp.n_test_ == 100
    splits = comp.splits_
    results = {
        name: cross_validate(
            est, X, y, cv=splits, scoring="roc_auc", return_indices=True
        )
        for name, est in _models().items()
    }
    built = ModelComparison.from_cross_validate(results, test=test, rope=0.01)
    np.testing.assert_equal(built.summary(), comp.summary())
    a, b = comp.scores_["nb"], comp.scores_["logreg"]
    if test == "corrected-t":
        ref = corrected_resampled_ttest(a, b, n_train=100, n_test=100)
        assert comp.results_[("nb", "logreg")].pvalue == ref.pvalue
    elif test == "bcv-t":
        assert comp.results_[("nb", "logreg")] == blocked_mx2cv_ttest(a, b)
    elif test == "bayesian":
        ref = bayesian_correlated_ttest(a, b, n_train=100, n_test=100, rope=0.01)
        assert comp.results_[("nb", "logreg")].p_better == ref.p_better
    if test != "bayesian":
        raw = [comp.results_[p].pvalue for p in comp.pairs_]
        assert list(comp.pvalues_holm_.values()) == holm(raw).tolist()


def _statsmodels_holm(pvalues):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    return multitest.multipletests(pvalues, method="holm")[1]


def test_holm_against_statsmodels(data, reference):
    X, y = data
    comp = ModelComparison(_models(), scoring="accuracy", random_state=1).fit(X, y)
    raw = [comp.results_[p].pvalue for p in comp.pairs_]
    expected = reference(_statsmodels_holm, raw)
    np.testing.assert_allclose(comp.summary()["pvalue_holm"], expected)


def test_reference_tests_each_model_against_it(data):
    X, y = data
    comp = ModelComparison(
        _models(), scoring="accuracy", reference="tree", random_state=0
    ).fit(X, y)
    assert comp.pairs_ == [("tree", "nb"), ("tree", "logreg")]
    table = comp.summary()
    assert table["model_a"] == ["tree", "tree"]
    diff = comp.scores_["logreg"] - comp.scores_["tree"]
    assert table["difference"][1] == pytest.approx(diff.mean())


def test_regressors_on_a_continuous_target():
    pytest.importorskip("pandas")
    X, y = make_regression(n_samples=160, n_features=5, noise=20.0, random_state=0)
    comp = ModelComparison(
        {"ridge": Ridge(), "tree": DecisionTreeRegressor(max_depth=2, random_state=0)},
        scoring="neg_root_mean_squared_error",
        test="bayesian",
        rope=1.0,
        random_state=0,
    ).fit(X, y)
    row = comp.summary(as_frame=True).iloc[0]
    assert row["difference"] < 0 and row["decide"] == "B worse"
    assert "rope" in str(comp) or "P(B worse" in str(comp)


def test_from_cv_results_of_a_grid_search(data):
    X, y = data
    cv = KFold(5, shuffle=True, random_state=0)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 4], "min_samples_leaf": [1, 10]},
        cv=cv,
        scoring="roc_auc",
    ).fit(X, y)
    comp = ModelComparison.from_cv_results(search.cv_results_, n_train=160, n_test=40)
    best = "max_depth={!r}, min_samples_leaf={!r}".format(
        search.best_params_["max_depth"], search.best_params_["min_samples_leaf"]
    )
    assert comp.reference == best and len(comp.pairs_) == 5
    assert all(a == best for a, _ in comp.pairs_)
    # the same as the per-split columns given to from_scores
    cols = {
        name: [search.cv_results_[f"split{k}_test_score"][i] for k in range(5)]
        for i, name in enumerate(comp.names_)
    }
    again = ModelComparison.from_scores(cols, 160, 40, reference=best)
    assert again.summary() == comp.summary()
    # max_depth=1 makes min_samples_leaf irrelevant: two identical candidates
    with pytest.warns(RuntimeWarning, match="1 of the 15 pairs have the same"):
        every = ModelComparison.from_cv_results(
            search.cv_results_, n_train=160, n_test=40, reference=None
        )
    assert len(every.pairs_) == 15
    table = every.summary()
    k = int(np.flatnonzero(np.isnan(table["pvalue"]))[0])
    assert np.isnan(table["pvalue_holm"][k]) and table["decide"][k] == "undecided"


def test_multimetric_results_need_scoring(data):
    X, y = data
    kw = dict(cv=KFold(4), scoring=["accuracy", "roc_auc"], return_indices=True)
    res = {name: cross_validate(est, X, y, **kw) for name, est in _models().items()}
    with pytest.raises(ValueError, match=r"\['accuracy', 'roc_auc'\]; pass scoring"):
        ModelComparison.from_cross_validate(res)
    comp = ModelComparison.from_cross_validate(res, scoring="roc_auc")
    assert comp.scoring == "roc_auc"
    search = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-3]},
        cv=KFold(4),
        scoring=["accuracy", "roc_auc"],
        refit="roc_auc",
    ).fit(X, y)
    with pytest.raises(ValueError, match="pass scoring"):
        ModelComparison.from_cv_results(search.cv_results_, n_train=150, n_test=50)
    bare = {"params": [{}, {}], "mean_test_score": [0.5, 0.6]}
    with pytest.raises(ValueError, match="holds 0 split column"):
        ModelComparison.from_cv_results(bare, n_train=150, n_test=50)


def test_errors_say_what_is_wrong(data):
    X, y = data
    with pytest.raises(ValueError, match="two or more models"):
        ModelComparison({"nb": GaussianNB()}, scoring="accuracy").fit(X, y)
    with pytest.raises(ValueError, match="reference='svm' is not one of"):
        ModelComparison(_models(), scoring="accuracy", reference="svm").fit(X, y)
    with pytest.raises(ValueError, match="not the two halves of one"):
        ModelComparison(_models(), scoring="accuracy", cv=KFold(4), test="bcv-t").fit(
            X, y
        )
    kw = dict(scoring="accuracy", return_indices=True)
    res = {
        "nb": cross_validate(GaussianNB(), X, y, cv=KFold(4), **kw),
        "tree": cross_validate(
            GaussianNB(), X, y, cv=KFold(4, shuffle=True, random_state=0), **kw
        ),
    }
    with pytest.raises(ValueError, match=r"results\['nb'\] and results\['tree'\]"):
        ModelComparison.from_cross_validate(res)
    res["tree"] = {"test_score": res["tree"]["test_score"]}
    with pytest.raises(ValueError, match="return_indices=True"):
        ModelComparison.from_cross_validate(res)
    with pytest.raises(ValueError, match="scores of model 'b'.*same length"):
        ModelComparison.from_scores({"a": [1, 2, 3], "b": [1, 2]}, 10, 10)
    with pytest.raises(ValueError, match="scores of model 'b'.*finite"):
        ModelComparison.from_scores({"a": [1, 2, 3], "b": [1, np.nan, 2]}, 10, 10)
    with pytest.raises(ValueError, match="needs the 2m splits"):
        ModelComparison.from_scores(
            {"a": [1, 2, 3], "b": [1, 3, 2]}, 10, 10, test="bcv-t"
        )


def test_routing_sample_weight_and_groups(data):
    X, y = data
    w = np.where(y == 1, 5.0, 1.0)
    groups = np.arange(len(y)) // 4
    with config_context(enable_metadata_routing=True):
        comp = ModelComparison(
            {"a": LogisticRegression(), "b": GaussianNB()}, scoring="accuracy"
        )
        with pytest.raises(UnsetMetadataPassedError, match="sample_weight"):
            comp.fit(X, y, sample_weight=w)
        models = {
            "a": LogisticRegression().set_fit_request(sample_weight=True),
            "b": GaussianNB().set_fit_request(sample_weight=False),
        }
        scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        comp = ModelComparison(models, scoring=scorer, random_state=0)
        comp.fit(X, y, groups=groups, sample_weight=w)
        expected = {}
        for name, est in models.items():
            expected[name] = cross_validate(
                est, X, y, cv=comp.splits_, scoring=scorer, params={"sample_weight": w}
            )["test_score"]
    for name in models:  # weighted fits where requested, weighted scores
        np.testing.assert_allclose(comp.scores_[name], expected[name])
        by_hand = []
        for train, test in comp.splits_:
            est = models[name].__class__()
            if name == "a":
                est.fit(X[train], y[train], sample_weight=w[train])
            else:
                est.fit(X[train], y[train])
            pred = est.predict(X[test])
            by_hand.append(accuracy_score(y[test], pred, sample_weight=w[test]))
        np.testing.assert_allclose(comp.scores_[name], by_hand)
    for _, test in comp.splits_:  # groups stay whole in one half
        inside = np.isin(groups, groups[test])
        np.testing.assert_array_equal(inside, np.isin(np.arange(len(y)), test))
    # without routing, groups still reach the splitter
    plain = ModelComparison(
        {"a": LogisticRegression(), "b": GaussianNB()},
        scoring="accuracy",
        random_state=0,
    ).fit(X, y, groups=groups)
    for (_, got), (_, want) in zip(plain.splits_, comp.splits_, strict=True):
        np.testing.assert_array_equal(got, want)


def test_scoring_none_is_estimator_score_and_inputs_stay(data):
    X, y = data
    X_before, y_before = X.copy(), y.copy()
    default = ModelComparison(_models(), random_state=3).fit(X, y)
    assert default.scoring is None
    accuracy = ModelComparison(_models(), scoring="accuracy", random_state=3)
    np.testing.assert_equal(default.summary(), accuracy.fit(X, y).summary())
    for name, est in _models().items():  # each split's est.score, by hand
        by_hand = [
            est.fit(X[train], y[train]).score(X[test], y[test])
            for train, test in default.splits_
        ]
        np.testing.assert_allclose(default.scores_[name], by_hand)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    reg = ModelComparison({"ridge": Ridge(), "tree": DecisionTreeRegressor()})
    with pytest.raises(ValueError, match="scoring='five' is not a scorer name"):
        reg.set_params(scoring="five").fit(X, y.astype(float))


def test_decide_reads_holm_at_one_minus_threshold():
    a = [0.803, 0.797, 0.813, 0.802, 0.789, 0.807, 0.826, 0.819, 0.786, 0.775]
    scores = {
        "a": a,
        "b": [0.847, 0.847, 0.84, 0.85, 0.827, 0.85, 0.871, 0.866, 0.84, 0.835],
        "c": [0.792, 0.801, 0.796, 0.796, 0.788, 0.798, 0.809, 0.8, 0.771, 0.767],
    }
    comp = ModelComparison.from_scores(scores, n_train=90, n_test=10)
    assert comp.pvalues_holm_[("a", "c")] == pytest.approx(0.0181, abs=1e-4)
    assert comp.decide(0.95) == {
        ("a", "b"): "B better",
        ("a", "c"): "B worse",
        ("b", "c"): "B worse",
    }
    # at 0.999, alpha = 0.001 is below the Holm p-value of (a, c)
    assert comp.decide(0.999)[("a", "c")] == "undecided"
    assert comp.summary()["decide"] == list(comp.decide(0.95).values())


@pytest.mark.parametrize("test", ["corrected-t", "5x2cv-f", "bayesian"])
def test_plot_draws_a_row_per_pair(data, test):
    plt = pytest.importorskip("matplotlib.pyplot")

    X, y = data
    comp = ModelComparison(
        _models(), scoring="accuracy", test=test, rope=0.01, random_state=0
    ).fit(X, y)
    ax = comp.plot(labels={"logreg": "LR"}).ax_
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["tree - nb", "LR - nb", "LR - tree"]  # top to bottom
    assert "rope +/-0.01" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close("all")


def test_str_and_frame(data):
    pytest.importorskip("pandas")
    X, y = data
    comp = ModelComparison(_models(), scoring="accuracy", test="5x2cv-f").fit(X, y)
    text = str(comp)
    assert "Holm-adjusted" in text and "n/a" in text
    frame = comp.summary(as_frame=True)
    assert list(frame["model_b"]) == ["tree", "logreg", "logreg"]
    assert np.isnan(frame["low"]).all()


def _scores(n_splits, seed=0):
    rng = np.random.default_rng(seed)
    return {"a": rng.normal(size=n_splits), "b": rng.normal(size=n_splits)}


@pytest.mark.parametrize("test", ["auto", "corrected-t", "bayesian"])
def test_warns_on_repeated_cv_where_the_correction_is_liberal(data, test):
    # benchmarks/sim_ct_liberal.py: 10 x 10-fold CV rejects equal learners
    # above the level; the warning says so, with the measured rates
    with pytest.warns(UserWarning, match=r"about 10 times.*sim_ct_liberal") as rec:
        comp = ModelComparison.from_scores(_scores(100), 270, 30, test=test)
    assert comp.test_ == ("corrected-t" if test == "auto" else test)
    X, y = data
    cv = RepeatedKFold(n_splits=4, n_repeats=3, random_state=0)
    with pytest.warns(UserWarning, match="about 3 times") as rec_fit:
        ModelComparison(_models(), scoring="accuracy", cv=cv, test=test).fit(X, y)
    tree = DecisionTreeClassifier(random_state=0)
    search = GridSearchCV(tree, {"max_depth": [1, 3]}, cv=cv)
    search.fit(X, y)
    with pytest.warns(UserWarning, match="about 3 times") as rec_search:
        ModelComparison.from_cv_results(search.cv_results_, n_train=150, n_test=50)
    for record in (rec, rec_fit, rec_search):  # the warning names the user's line
        assert [w.filename for w in record if w.category is UserWarning] == [__file__]


@pytest.mark.parametrize(
    "n_splits, n_train, n_test, test",
    [
        (10, 270, 30, "auto"),  # one 10-fold CV: held its level
        (5, 240, 60, "bayesian"),  # one 5-fold CV
        (10, 150, 150, "corrected-t"),  # halves: 5 x 2 CV held its level
        (100, 270, 30, "5x2cv-f"),  # not a corrected test
    ],
)
def test_no_warning_where_the_correction_held(n_splits, n_train, n_test, test):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ModelComparison.from_scores(_scores(n_splits), n_train, n_test, test=test)


def test_no_warning_on_one_kfold_or_the_default_design(data):
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ModelComparison(_models(), scoring="accuracy", random_state=0).fit(X, y)
        ModelComparison(_models(), scoring="accuracy", cv=KFold(5)).fit(X, y)
        ModelComparison(
            _models(), scoring="accuracy", test="corrected-t", random_state=0
        ).fit(X, y)


def test_auto_picks_the_test_for_the_design(data):
    X, y = data
    comp = ModelComparison(_models(), scoring="accuracy", random_state=0).fit(X, y)
    assert comp.test == "auto" and comp.test_ == "bcv-t"
    assert "test='bcv-t'" in str(comp)
    kfold = ModelComparison(_models(), scoring="accuracy", cv=KFold(5)).fit(X, y)
    assert kfold.test_ == "corrected-t"
    scores = ModelComparison.from_scores({"a": [1, 2, 3, 4], "b": [2, 2, 4, 5]}, 3, 1)
    assert scores.test_ == "corrected-t"


# -- searches: one model per candidate, the design from the search ------------


def _bcv_search(data, **kw):
    from scipy import stats

    from sklearn_faithful.model_selection import BlockRegularizedMx2CV

    X, y = data
    # C drawn from {1, 2} five times: candidates repeat
    return RandomizedSearchCV(
        LogisticRegression(max_iter=1000),
        {"C": stats.randint(1, 3)},
        n_iter=5,
        cv=BlockRegularizedMx2CV(3, random_state=0),
        random_state=0,
        **kw,
    ).fit(X, y)


def test_from_cv_results_keeps_repeated_candidates(data):
    search = _bcv_search(data)
    drawn = [p["C"] for p in search.cv_results_["params"]]
    assert len(set(drawn)) < len(drawn)  # the search drew a candidate twice
    with pytest.warns(RuntimeWarning, match="same difference on every split"):
        comp = ModelComparison.from_cv_results(search, reference=None)
    # before: 2 models (the names collided); now one per candidate
    assert comp.names_ == [f"C={c!r} #{k}" for k, c in enumerate(drawn)]
    assert len(comp.pairs_) == 10
    for k, name in enumerate(comp.names_):
        np.testing.assert_array_equal(
            comp.scores_[name],
            [search.cv_results_[f"split{j}_test_score"][k] for j in range(6)],
        )
    # the best-ranked candidate is the reference, under its indexed name
    with pytest.warns(RuntimeWarning):
        best = ModelComparison.from_cv_results(search)
    assert best.reference == comp.names_[search.best_index_]


def test_from_cv_results_reads_the_design_from_the_search(data):
    search = _bcv_search(data)
    with pytest.warns(RuntimeWarning):
        comp = ModelComparison.from_cv_results(search)
    # the m x 2 BCV gives the blocked t-test, with no n_train and n_test
    assert comp.test_ == "bcv-t" and comp.n_train_ is None
    assert "halves of an m x 2 BCV" in str(comp)
    with pytest.warns(RuntimeWarning):
        again = ModelComparison.from_scores(
            {n: comp.scores_[n] for n in comp.names_},
            100,
            100,
            test="bcv-t",
            reference=comp.reference,
        )
    np.testing.assert_array_equal(again.summary()["pvalue"], comp.summary()["pvalue"])
    # the tests that need sizes ask for them
    with pytest.raises(ValueError, match="test='corrected-t' needs n_train and n_test"):
        ModelComparison.from_cv_results(search, test="corrected-t")
    # the cv_results_ dict alone: the design is unknown, so the corrected t
    with pytest.raises(ValueError, match="or search on an m x 2 BCV"):
        ModelComparison.from_cv_results(search.cv_results_)
    with pytest.warns(RuntimeWarning):
        plain = ModelComparison.from_cv_results(
            search.cv_results_, n_train=100, n_test=100
        )
    assert plain.test_ == "corrected-t"


def test_from_cv_results_reads_listed_splits(data):
    X, y = data
    splits = list(KFold(4, shuffle=True, random_state=0).split(X))
    search = GridSearchCV(
        LogisticRegression(max_iter=1000), {"C": [0.01, 1.0]}, cv=splits
    )
    comp = ModelComparison.from_cv_results(search.fit(X, y))
    assert (comp.n_train_, comp.n_test_) == (150, 50)
    assert comp.test_ == "corrected-t"


def test_from_cv_results_refuses_an_unfitted_search():
    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-1]})
    with pytest.raises(ValueError, match="has no cv_results_ \\(fit it first\\)"):
        ModelComparison.from_cv_results(search)


def test_package_scorer_names_wherever_scoring_is_taken(data):
    from sklearn_faithful.metrics import get_scorer, get_scorer_names

    X, y = data
    models = {"nb": GaussianNB(), "logreg": LogisticRegression(max_iter=1000)}
    comp = ModelComparison(models, scoring="cf1_macro", random_state=0).fit(X, y)
    # the same as the scorer object, which scikit-learn's check_scoring took
    same = ModelComparison(models, scoring=get_scorer("cf1_macro"), random_state=0).fit(
        X, y
    )
    assert comp.summary() == same.summary()
    for name in ("cprecision", "crecall_micro", "cf1_weighted"):
        assert name in get_scorer_names()
        ModelComparison(models, scoring=name, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="scoring='cf1_macr' is not a scorer name"):
        ModelComparison(models, scoring="cf1_macr").fit(X, y)
    # a search scored with the scorer a name names reads it under that name
    search = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-1]},
        cv=KFold(4),
        scoring=get_scorer("cf1_macro"),
    ).fit(X, y)
    found = ModelComparison.from_cv_results(
        search, scoring="cf1_macro", n_train=150, n_test=50
    )
    assert found.scoring == "cf1_macro"
    with pytest.raises(ValueError, match="the search scored with make_confidence"):
        ModelComparison.from_cv_results(
            search, scoring="roc_auc", n_train=150, n_test=50
        )
    # several scorers: the search's refit metric, or any of them by name
    multi = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-1]},
        cv=KFold(4),
        scoring={"cf1_macro": get_scorer("cf1_macro"), "accuracy": "accuracy"},
        refit="cf1_macro",
    ).fit(X, y)
    by_refit = ModelComparison.from_cv_results(multi, n_train=150, n_test=50)
    by_name = ModelComparison.from_cv_results(
        multi.cv_results_, scoring="cf1_macro", n_train=150, n_test=50
    )
    assert by_refit.summary() == by_name.summary() == found.summary()
