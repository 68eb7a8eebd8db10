"""Tests of BayesModelComparison on real pipelines and bundled data.

Most run the paper's test (``paired=False``), whose counts, factor and
per-model posteriors they check; the paired default is checked in
test_paired_bayes.py and the behaviour both comparisons share in test_base.py.
"""

import warnings

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer, load_wine, make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import KFold, RepeatedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison import (
    BayesModelComparison,
    PairedBayesTestResult,
    bayes_test,
    correlation_factor,
)
from sklearn_faithful.model_selection import (
    BlockRegularized3x2CV,
    BlockRegularizedMx2CV,
)


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


def _pair():
    return GaussianNB(), make_pipeline(StandardScaler(), LogisticRegression())


@pytest.fixture(scope="module")
def fitted_binary(cancer):
    X, y = cancer
    return BayesModelComparison(
        *_pair(), paired=False, correlation="wang2019", random_state=0, rope=0.01
    ).fit(X, y)


def test_counts_match_a_direct_computation(cancer, fitted_binary):
    X, y = cancer
    comp = fitted_binary
    splits = list(BlockRegularized3x2CV(random_state=0).split(X, y))
    for (train, test), (tr, te) in zip(splits, comp.splits_, strict=True):
        np.testing.assert_array_equal(train, tr)
        np.testing.assert_array_equal(test, te)
    for est, counts in ((_pair()[0], comp.counts_a_), (_pair()[1], comp.counts_b_)):
        for k, (train, test) in enumerate(splits):
            pred = clone(est).fit(X[train], y[train]).predict(X[test])
            tn, fp, fn, tp = confusion_matrix(y[test], pred, labels=[0, 1]).ravel()
            np.testing.assert_array_equal(counts[k], [tp, fp, fn, tn])
    c = correlation_factor("wang2019")
    np.testing.assert_allclose(comp.effective_counts_a_, c * comp.counts_a_.sum(0))
    assert comp.correlation_factor_ == c


def test_results_equal_count_level_test(fitted_binary):
    comp = fitted_binary
    for metric in ("precision", "recall", "f1"):
        direct = bayes_test(
            comp.counts_a_,
            comp.counts_b_,
            metric=metric,
            rope=0.01,
            correlation="wang2019",
        )
        assert comp.results_[metric].p_h0 == direct.p_h0
        assert comp.results_[metric].interval_b == direct.interval_b


def test_summary_str_and_frame(fitted_binary):
    comp = fitted_binary
    table = comp.summary()
    assert table["metric"] == ["precision", "recall", "f1"]
    assert table["p_h0"][2] == comp.results_["f1"].p_h0
    assert "p_better" in table
    text = str(comp)
    for piece in ("random_state=0", "c = 0.368802", "P(H0)", "GaussianNB", "rope"):
        assert piece in text
    pytest.importorskip("pandas")
    frame = comp.summary(as_frame=True)
    assert list(frame.index) == ["precision", "recall", "f1"]
    assert "BayesModelComparison(" in str(clone(comp))  # unfitted: the repr


def test_plot(fitted_binary):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    axes = fitted_binary.plot().axes_
    assert len(axes) == 3
    assert len(axes[0].lines) == 2
    with pytest.raises(ValueError, match="not tested"):
        fitted_binary.plot(metrics=["accuracy"])


def test_n_jobs_2_equals_n_jobs_1(wine):
    X, y = wine
    kw = dict(average="macro", paired=False, random_state=0, n_draws=20_000)
    one = BayesModelComparison(*_pair(), n_jobs=1, **kw).fit(X, y)
    two = BayesModelComparison(*_pair(), n_jobs=2, **kw).fit(X, y)
    np.testing.assert_array_equal(one.per_class_counts_a_, two.per_class_counts_a_)
    np.testing.assert_array_equal(one.per_class_counts_b_, two.per_class_counts_b_)
    for metric in one.results_:
        r1, r2 = one.results_[metric], two.results_[metric]
        assert (r1.p_h0, r1.interval_a, r1.interval_b) == (
            r2.p_h0,
            r2.interval_a,
            r2.interval_b,
        )


def test_multiclass_micro_macro_per_class(wine):
    X, y = wine
    micro = BayesModelComparison(
        *_pair(), average="micro", paired=False, random_state=0
    ).fit(X, y)
    assert micro.counts_a_.shape == (6, 4)
    np.testing.assert_array_equal(micro.counts_a_, micro.per_class_counts_a_.sum(1))
    # single-label multiclass: pooled precision = recall = accuracy
    assert micro.results_["precision"].p_h0 == pytest.approx(
        micro.results_["recall"].p_h0
    )
    macro = BayesModelComparison(
        *_pair(), average="macro", paired=False, random_state=0, n_draws=20_000
    ).fit(X, y)
    assert macro.counts_a_.shape == (6, 3, 4)
    per_class = macro.per_class_results_["f1"]
    assert len(per_class) == 3
    expected = np.mean([r.mean_a for r in per_class])
    assert macro.results_["f1"].mean_a == pytest.approx(expected)


def test_pos_label_and_string_labels(cancer):
    X, y = cancer
    labels = np.array(["neg", "pos"])[y]  # same class order as y
    comp = BayesModelComparison(
        *_pair(), pos_label="pos", random_state=0, metrics=("f1",)
    ).fit(X, labels)
    ref = BayesModelComparison(*_pair(), random_state=0, metrics=("f1",)).fit(X, y)
    np.testing.assert_array_equal(comp.counts_a_, ref.counts_a_)
    with pytest.raises(ValueError, match="pos_label"):
        BayesModelComparison(*_pair()).fit(X, labels)
    with pytest.raises(ValueError, match="not a label"):
        BayesModelComparison(*_pair(), pos_label="other").fit(X, labels)


def test_other_mx2_cv_and_raw_factor(cancer):
    X, y = cancer
    comp = BayesModelComparison(
        *_pair(), cv=BlockRegularizedMx2CV(5, random_state=1), metrics=("f1",)
    ).fit(X, y)
    assert len(comp.splits_) == 10
    assert comp.correlation_factor_ == correlation_factor("wang2015", 5)
    comp = BayesModelComparison(
        *_pair(),
        cv=RepeatedKFold(n_splits=2, n_repeats=3, random_state=0),
        metrics=("f1",),
    ).fit(X, y)
    assert len(comp.splits_) == 6
    # a 5-fold CV is not m x 2: refused unless the factor is given
    with pytest.raises(ValueError, match="two-fold|2m splits"):
        BayesModelComparison(*_pair(), cv=5).fit(X, y)
    with pytest.raises(ValueError, match="two-fold"):
        BayesModelComparison(*_pair(), cv=KFold(4)).fit(X, y)
    comp = BayesModelComparison(*_pair(), cv=5, paired=False, correlation=0.2)
    assert comp.fit(X, y).correlation_factor_ == 0.2
    # the paired test always needs the m x 2 design
    with pytest.raises(ValueError, match="two-fold|2m splits"):
        BayesModelComparison(*_pair(), cv=5, correlation=0.2).fit(X, y)


def test_dask_backend(cancer):
    distributed = pytest.importorskip("distributed")
    X, y = cancer
    kw = dict(random_state=0, metrics=("f1",))
    ref = BayesModelComparison(*_pair(), **kw).fit(X, y)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        with joblib.parallel_config(backend="dask"):
            comp = BayesModelComparison(*_pair(), **kw).fit(X, y)
    np.testing.assert_array_equal(comp.counts_a_, ref.counts_a_)
    assert comp.results_["f1"].p_h0 == ref.results_["f1"].p_h0


class _NoPredict(BaseEstimator):
    def fit(self, X, y):
        return self


class _BadLabels(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.full(len(X), 7)


def test_bad_input(cancer, wine):
    X, y = cancer
    with pytest.raises(ValueError, match="estimator_b"):
        BayesModelComparison(GaussianNB(), _NoPredict()).fit(X, y)
    with pytest.raises(ValueError, match="not among the classes"):
        BayesModelComparison(GaussianNB(), _BadLabels()).fit(X, y)
    with pytest.raises(ValueError, match="metrics"):
        BayesModelComparison(*_pair(), metrics=("auc",)).fit(X, y)
    with pytest.raises(ValueError, match="single class"):
        BayesModelComparison(*_pair()).fit(X, np.zeros_like(y))
    with pytest.raises(ValueError, match="average='binary' needs two classes"):
        BayesModelComparison(*_pair()).fit(*wine)
    with pytest.raises(ValueError, match="average"):
        BayesModelComparison(*_pair(), average="weighted").fit(X, y)
    with pytest.raises(ValueError, match="correlation"):
        BayesModelComparison(*_pair(), correlation="paper").fit(X, y)
    with pytest.raises(ValueError):
        BayesModelComparison(*_pair()).fit(X, y[:-1])
    y_nan = y.astype(float)
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        BayesModelComparison(*_pair()).fit(X, y_nan)


def test_dummy_never_positive_gives_prior_precision(cancer):
    # a model that never predicts the positive class: precision's posterior is
    # the prior; the paper's test still runs and says B is better
    X, y = cancer
    models = (
        DummyClassifier(strategy="constant", constant=0),
        DecisionTreeClassifier(random_state=0),
    )
    comp = BayesModelComparison(*models, paired=False, random_state=0).fit(X, y)
    assert comp.counts_a_[:, 0].sum() == 0
    assert comp.results_["recall"].p_h1 > 0.999
    # the paired test needs the precision of A on every split: it is left
    # out, and recall and F1 stand
    with pytest.warns(UndefinedMetricWarning, match="precision is undefined on 20"):
        paired = BayesModelComparison(*models, random_state=0).fit(X, y)
    assert list(paired.results_) == ["recall", "f1"]
    assert paired.decide()["recall"] == "B better"


def test_inputs_not_modified(cancer):
    X, y = cancer
    X0, y0 = X.copy(), y.copy()
    BayesModelComparison(*_pair(), random_state=0, metrics=("f1",)).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_default_is_the_paired_test_and_the_paper_one_argument_away(cancer):
    X, y = cancer
    comp = BayesModelComparison(*_pair(), random_state=0).fit(X, y)
    assert comp.paired
    # the default design is the 10 x 2 BCV of the crossed variance
    ten = list(BlockRegularizedMx2CV(10, random_state=0).split(X, y))
    for (_, test), (_, test10) in zip(comp.splits_, ten, strict=True):
        np.testing.assert_array_equal(test, test10)
    for metric, res in comp.results_.items():
        assert isinstance(res, PairedBayesTestResult)
        assert res.variance == "crossed"
        assert comp.decide(0.95)[metric] == res.decide(0.95)
    # paired=False alone is the paper's test with the correction whose
    # intervals held their level, "wang2015", lambda = 1, on the paper's 3x2
    # BCV; correlation="wang2019" is the paper as printed
    unpaired = BayesModelComparison(*_pair(), paired=False, random_state=0).fit(X, y)
    assert unpaired.correlation_factor_ == correlation_factor("wang2015")
    direct = bayes_test(unpaired.counts_a_, unpaired.counts_b_, metric="f1")
    assert unpaired.results_["f1"].p_h0 == direct.p_h0
    paper = BayesModelComparison(
        *_pair(), paired=False, correlation="wang2019", random_state=0
    ).fit(X, y)
    three = list(BlockRegularized3x2CV(random_state=0).split(X, y))
    for (_, test), (_, test3) in zip(paper.splits_, three, strict=True):
        np.testing.assert_array_equal(test, test3)
    assert paper.correlation_factor_ == correlation_factor("wang2019")
    direct = bayes_test(
        paper.counts_a_, paper.counts_b_, metric="f1", correlation="wang2019"
    )
    assert paper.results_["f1"].p_h0 == direct.p_h0
    assert paper.decide(0.95)["f1"] == direct.decide(0.95)


# 10% positives: LogisticRegression(C=0.1) predicts no positive on splits 4
# and 7 of the 10 x 2 BCV (seed 0), so its precision is undefined there
_RARE = dict(n_samples=200, weights=[0.9], random_state=0)
_UNDEFINED = (
    r"precision is undefined on 2 of the 20 splits of model A, "
    r"LogisticRegression: split 4 \(partition 3, half 1\), split 7 "
    r"\(partition 4, half 2\)\. A zero denominator there: no predicted "
    r"positive \(TP \+ FP = 0\)\."
)


def _rare_pair():
    return LogisticRegression(C=0.1), LogisticRegression()


@pytest.fixture(scope="module")
def rare():
    return make_classification(**_RARE)


@pytest.mark.filterwarnings("ignore:variance='design':UserWarning")
@pytest.mark.parametrize("variance", ["crossed", "splits", "design"])
def test_undefined_metric_leaves_the_others(rare, variance):
    # before: fit raised for every metric; recall and F1 were lost
    X, y = rare
    kw = dict(variance=variance, random_state=0)
    kw["cv"] = BlockRegularizedMx2CV(10, random_state=0)
    with pytest.warns(UndefinedMetricWarning, match=_UNDEFINED) as record:
        comp = BayesModelComparison(*_rare_pair(), **kw).fit(X, y)
    (warning,) = [w for w in record if w.category is UndefinedMetricWarning]
    assert warning.filename == __file__  # points at the user's line
    text = str(warning.message)
    assert "recall and f1 stand" in text
    assert "paired=False" in text and "metrics=('recall', 'f1')" in text
    assert list(comp.undefined_metrics_) == ["precision"]
    assert comp.undefined_metrics_["precision"] == text
    assert list(comp.results_) == ["recall", "f1"]
    # the others equal what testing them alone gives
    alone = BayesModelComparison(*_rare_pair(), metrics=("recall", "f1"), **kw)
    alone.fit(X, y)
    for metric in ("recall", "f1"):
        assert comp.results_[metric].to_dict() == alone.results_[metric].to_dict()
    assert comp.decide() == alone.decide()


def test_undefined_metric_in_summary_decide_and_plot(rare):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X, y = rare
    with pytest.warns(UndefinedMetricWarning):
        comp = BayesModelComparison(*_rare_pair(), random_state=0, rope=0.01).fit(X, y)
    text = comp.undefined_metrics_["precision"]
    table = comp.summary()
    assert table["metric"] == ["precision", "recall", "f1"]
    assert table["decide"][0] == "undefined"
    assert all(np.isnan(table[c][0]) for c in table if c not in ("metric", "decide"))
    assert table["decide"][1:] == [comp.decide()[m] for m in ("recall", "f1")]
    assert "undefined" in str(comp)
    # asking for it raises its message, where results_ and decide() hold it
    for keyed in (comp.results_, comp.decide(0.9)):
        assert "precision" not in keyed and keyed.get("precision") is None
        with pytest.raises(KeyError) as info:
            keyed["precision"]
        assert str(info.value) == text
        with pytest.raises(KeyError, match="'accuracy'"):
            keyed["accuracy"]
    assert len(comp.plot().axes_) == 2
    with pytest.raises(ValueError) as info:
        comp.plot(metrics=["precision", "f1"])
    assert str(info.value) == text
    # the messages survive a pickle
    again = joblib.load(_dump(comp))
    assert again.undefined_metrics_ == comp.undefined_metrics_
    with pytest.raises(KeyError, match="precision is undefined"):
        again.results_["precision"]


def _dump(obj):
    import io

    buffer = io.BytesIO()
    joblib.dump(obj, buffer)
    buffer.seek(0)
    return buffer


def test_undefined_metric_unpaired_and_everywhere(rare):
    X, y = rare
    # the paper's test pools the counts: every metric is defined
    unpaired = BayesModelComparison(*_rare_pair(), paired=False, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        unpaired.fit(X, y)
    assert list(unpaired.results_) == ["precision", "recall", "f1"]
    assert unpaired.undefined_metrics_ == {}
    assert "undefined" not in unpaired.summary()["decide"]
    # with no metric defined there is nothing to return: fit raises why
    with pytest.raises(ValueError, match=_UNDEFINED) as info:
        BayesModelComparison(*_rare_pair(), metrics=("precision",), random_state=0).fit(
            X, y
        )
    assert "stand" not in str(info.value)


def test_undefined_metric_macro_names_the_class(rare):
    X, y = rare
    labels = np.where(y == 1, "rare", "common")
    with pytest.warns(UndefinedMetricWarning, match="half 1, class 'rare'"):
        comp = BayesModelComparison(*_rare_pair(), average="macro", random_state=0).fit(
            X, labels
        )
    assert list(comp.results_) == ["recall", "f1"]
    assert comp.per_class_results_["precision"][1] is None


def test_undefined_metric_from_cross_validate_warns_at_the_caller(rare):
    X, y = rare
    cv = BlockRegularizedMx2CV(10, random_state=0)
    results = {
        name: cross_validate(
            est, X, y, cv=cv, return_indices=True, return_estimator=True
        )
        for name, est in zip("ab", _rare_pair(), strict=True)
    }
    with pytest.warns(UndefinedMetricWarning, match=_UNDEFINED) as record:
        comp = BayesModelComparison.from_cross_validate(results, X, y)
    assert record[0].filename == __file__
    assert list(comp.results_) == ["recall", "f1"]
