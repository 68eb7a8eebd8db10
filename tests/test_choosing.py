"""The recommended calls of ``doc/choosing.rst`` run, and they are the defaults.

``doc/choosing.rst`` names, for each question, the method to use (its "Use"
column). Each recommended call is run here on small generated data, with the
defaults and no argument beyond the ones the table shows, and the defaults
are checked to be the recommended methods: the front door must lead where the
docs point, and the paper's method stays one argument away.

A guard ties the two together: every name in the "Use" column must be run by
a test here, so a new row of the table needs a test.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.naive_bayes import GaussianNB

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    agreement_report,
    compare_to_annotators,
)
from sklearn_faithful.battles import bradley_terry
from sklearn_faithful.calibration import (
    ReliabilityDisplay,
    calibration_error_interval,
    calibration_test,
    paired_calibration_test,
)
from sklearn_faithful.comparison import (
    BayesModelComparison,
    BayesTestResult,
    ModelComparison,
    PairedBayesTestResult,
    bayes_test,
    paired_bayes_test,
)
from sklearn_faithful.eval_logs import (
    compare_runs,
    join_runs,
    prediction_powered_mean,
    rank_intervals,
    suite_scores,
)
from sklearn_faithful.gate import (
    AccuracyRegressionTest,
    estimate_sigma,
    paired_sample_size,
    plan_paired_comparison,
    required_sample_size,
)
from sklearn_faithful.holdout import (
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.model_based import ModelBasedMetricTest
from sklearn_faithful.multi_dataset import bayesian_signed_rank_test, friedman_test

CHOOSING = Path(__file__).resolve().parents[1] / "doc" / "choosing.rst"
CLAIMS = {"B better", "B not better", "undecided", "equivalent", "B worse"}

# name in the "Use" column -> the test that runs it (filled by @runs)
RUNS = {}


def runs(*names):
    """Register a test as the one that runs these recommended names."""

    def register(test):
        for name in names:
            RUNS[name] = test.__name__
        return test

    return register


def _use_column():
    """The qualified names the "Use" column of the table links to."""
    text = CHOOSING.read_text(encoding="utf-8")
    table = text[text.index(".. list-table::") : text.index("\nComparing two models")]
    rows = re.split(r"\n   \* - ", table)[2:]  # skip the options and the header
    names = set()
    for row in rows:
        use = re.split(r"\n     - ", row)[1]
        names.update(re.findall(r":(?:func|class|meth):`~?([\w.]+)`", use))
    return names


def test_every_recommended_name_is_run():
    use = _use_column()
    assert len(use) >= 10, use  # the parser found the table
    missing = sorted(use - set(RUNS))
    assert not missing, f"recommended in doc/choosing.rst but not run: {missing}"


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=160, n_features=6, n_informative=3, flip_y=0.1, random_state=0
    )
    return X, y


def _labels(seed, n=100, accuracy=0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, rng


def _predictions(y, rng, accuracy):
    wrong = rng.random(y.shape[0]) > accuracy
    return np.where(wrong, 1 - y, y)


# -- Is model B better than model A? (two estimators, or per-split counts) --


@runs(
    "sklearn_faithful.comparison.BayesModelComparison",
    "sklearn_faithful.comparison.paired_bayes_test",
)
def test_two_models_on_an_mx2_cv(data):
    X, y = data
    comp = BayesModelComparison(GaussianNB(), LogisticRegression(), random_state=0)
    comp.fit(X, y)
    for result in comp.results_.values():
        assert result.decide(0.95) in CLAIMS
    res = paired_bayes_test(comp.counts_a_, comp.counts_b_)
    assert res.decide(0.95) in CLAIMS
    assert 0 <= res.p_h1 <= 1


def test_bayes_model_comparison_defaults_to_the_paired_test(data):
    X, y = data
    assert BayesModelComparison(GaussianNB(), LogisticRegression()).paired is True
    comp = BayesModelComparison(GaussianNB(), LogisticRegression(), random_state=0)
    comp.fit(X, y)
    assert isinstance(comp.results_["f1"], PairedBayesTestResult)
    # the crossed scale on the 10 x 2 BCV (doc/choosing.rst, first row)
    assert comp.results_["f1"].variance == "crossed"
    assert len(comp.splits_) == 20


def test_bayes_model_comparison_decides(data):
    # BayesModelComparison(a, b).fit(X, y).decide(0.95), as the README says
    X, y = data
    comp = BayesModelComparison(GaussianNB(), LogisticRegression(), random_state=0)
    assert comp.fit(X, y).decide(0.95) is not None


def _the_papers_test(data, correlation):
    """BayesModelComparison(paired=False, correlation=...), fitted."""
    comp = BayesModelComparison(
        GaussianNB(),
        LogisticRegression(),
        paired=False,
        correlation=correlation,
        random_state=0,
    )
    return comp.fit(*data)


def test_the_papers_test_is_one_argument_away(data):
    comp = _the_papers_test(data, "wang2019")
    assert isinstance(comp.results_["f1"], BayesTestResult)
    assert comp.results_["f1"].decision in {"accept H0", "accept H1"}


# -- What is my model's F1, with an interval? (m x 2 CV) --------------------


@runs("sklearn_faithful.comparison.bayes_test")
def test_interval_of_f1_on_an_mx2_cv(data):
    comp = _the_papers_test(data, "wang2015")
    res = bayes_test(comp.counts_a_, comp.counts_b_, correlation="wang2015")
    assert res.interval_a.low < res.mean_a < res.interval_a.high
    assert res.interval_b.low < res.mean_b < res.interval_b.high
    # the same test, through the comparison
    assert comp.results_["f1"].interval_a == res.interval_a


# -- Is B better than A on one held-out test set? ---------------------------


@runs(
    "sklearn_faithful.holdout.paired_permutation_test",
    "sklearn_faithful.holdout.paired_bootstrap_test",
    "sklearn_faithful.holdout.sign_test",
)
def test_one_held_out_test_set():
    y, rng = _labels(0)
    a = _predictions(y, rng, 0.7)
    b = _predictions(y, rng, 0.9)
    for test in (paired_permutation_test, paired_bootstrap_test):
        res = test(y, a, b, random_state=0)
        assert 0 < res.pvalue <= 1
        assert res.statistic == pytest.approx(np.mean(b == y) - np.mean(a == y))
    res = sign_test(y, a, b)
    assert 0 < res.pvalue <= 1


# -- Which of several pipelines is better, on any score? ---------------------


@runs(
    "sklearn_faithful.comparison.ModelComparison",
    "sklearn_faithful.comparison.ModelComparison.from_cv_results",
)
def test_several_pipelines_on_any_score(data):
    X, y = data
    estimators = {"nb": GaussianNB(), "logreg": LogisticRegression()}
    comp = ModelComparison(estimators, scoring="roc_auc", random_state=0).fit(X, y)
    # "auto": the blocked m x 2 BCV t on the default splits
    assert comp.test_ == "bcv-t"
    search = GridSearchCV(
        LogisticRegression(), {"C": [0.01, 1.0]}, cv=KFold(4), scoring="roc_auc"
    ).fit(X, y)
    n = len(y)
    found = ModelComparison.from_cv_results(
        search.cv_results_, n_train=n - n // 4, n_test=n // 4
    )
    # "auto": the corrected t elsewhere, each candidate against the best
    assert found.test_ == "corrected-t"
    assert len(found.pairs_) == 1


def test_model_comparison_defaults_to_auto():
    estimators = {"a": GaussianNB(), "b": GaussianNB()}
    assert ModelComparison(estimators, scoring="accuracy").test == "auto"


def test_model_comparison_scores_with_the_estimators_score_by_default(data):
    # scoring=None means estimator.score, as in scikit-learn
    X, y = data
    estimators = {"nb": GaussianNB(), "logreg": LogisticRegression()}
    default = ModelComparison(estimators, random_state=0).fit(X, y)
    accuracy = ModelComparison(estimators, scoring="accuracy", random_state=0)
    np.testing.assert_allclose(
        default.summary()["difference"], accuracy.fit(X, y).summary()["difference"]
    )


def test_model_comparison_decides(data):
    X, y = data
    estimators = {"nb": GaussianNB(), "logreg": LogisticRegression()}
    comp = ModelComparison(estimators, random_state=0).fit(X, y)
    assert comp.decide(0.95) is not None


# -- Do k methods differ over N data sets? -----------------------------------


@runs(
    "sklearn_faithful.multi_dataset.friedman_test",
    "sklearn_faithful.multi_dataset.bayesian_signed_rank_test",
)
def test_methods_over_data_sets():
    scores = np.random.default_rng(0).uniform(0.7, 0.9, size=(8, 3))
    res = friedman_test(scores)
    assert 0 < res.pvalue <= 1
    assert res.critical_difference() > 0
    assert res.nemenyi().shape == (3, 3)
    res = bayesian_signed_rank_test(scores[:, 0], scores[:, 1], random_state=0)
    assert res.decide(0.95) in CLAIMS


# -- Did a system change the rate a classifier detects? ---------------------


def _metric_model_and_outputs():
    rng = np.random.default_rng(0)

    def outputs(n, shift):
        return rng.normal(shift, 1.0, size=(n, 2))

    X_train = outputs(400, 0.0)
    y_train = (X_train.sum(axis=1) + rng.normal(0, 0.5, 400) > 1.0).astype(int)
    metric_model = LogisticRegression().fit(X_train, y_train)

    def annotated(X):
        real = (X.sum(axis=1) + rng.normal(0, 0.5, len(X)) > 1.0).astype(int)
        return X, real

    out_c, out_t = outputs(600, 0.0), outputs(600, 0.2)
    return metric_model, out_c, out_t, annotated(out_c[:100]), annotated(out_t[:100])


@runs("sklearn_faithful.model_based.ModelBasedMetricTest")
def test_model_based_metric():
    metric_model, out_c, out_t, ann_c, ann_t = _metric_model_and_outputs()
    res = ModelBasedMetricTest(metric_model, method="ppi").test(
        out_c, out_t, annotated_c=ann_c, annotated_t=ann_t
    )
    low, high = res.confidence_interval()
    assert low < res.corrected_effect < high
    assert 0 < res.pvalue <= 1


def test_model_based_metric_test_defaults_to_ppi():
    metric_model, out_c, out_t, ann_c, ann_t = _metric_model_and_outputs()
    assert ModelBasedMetricTest(metric_model).method == "ppi"
    default = ModelBasedMetricTest(metric_model).test(
        out_c, out_t, annotated_c=ann_c, annotated_t=ann_t
    )
    ppi = ModelBasedMetricTest(metric_model, method="ppi").test(
        out_c, out_t, annotated_c=ann_c, annotated_t=ann_t
    )
    assert default.confidence_interval() == ppi.confidence_interval()


# -- Did my new model regress? How many test items do I need? ---------------


@runs("sklearn_faithful.gate.AccuracyRegressionTest")
def test_regression_gate():
    # n min(p, 1 - p) above 100, where the unpaired gate is also sound
    y, rng = _labels(1, n=1500)
    reference = (_predictions(y, rng, 0.9) == y).astype(float)
    worse = (_predictions(y, rng, 0.75) == y).astype(float)
    gate = AccuracyRegressionTest().set_reference(reference)
    assert gate.check(reference).passed
    assert not gate.check(worse).passed


def test_regression_gate_defaults_to_paired():
    assert AccuracyRegressionTest().paired is True
    y, rng = _labels(1, n=1500)
    reference = (_predictions(y, rng, 0.9) == y).astype(float)
    assert AccuracyRegressionTest().set_reference(reference).check(reference).paired


@runs(
    "sklearn_faithful.gate.required_sample_size",
    "sklearn_faithful.gate.estimate_sigma",
)
def test_how_many_items():
    y, rng = _labels(2, n=500)
    scores = (_predictions(y, rng, 0.9) == y).astype(float)
    sigma = estimate_sigma(scores)
    n = required_sample_size(sigma, 0.01)
    # a measured sigma asks for fewer items than the worst case, 0.5
    assert n < required_sample_size(0.5, 0.01)


@runs(
    "sklearn_faithful.gate.plan_paired_comparison",
    "sklearn_faithful.gate.paired_sample_size",
)
def test_how_many_items_for_a_paired_comparison():
    y, rng = _labels(2, n=500)
    a = (_predictions(y, rng, 0.8) == y).astype(float)
    b = np.where(rng.random(500) < 0.1, 1 - a, a)
    plan = plan_paired_comparison({"A": a, "B": b}, 0.02)
    # runs that agree on most items: far fewer items than two independent runs
    assert plan.n_required < plan.n_unpaired / 2
    n = paired_sample_size(0.02, accuracy_a=0.80, accuracy_b=0.82, agreement=0.90)
    assert n < required_sample_size(0.4, 0.02, alpha=0.025) / 2


def _annotators(seed, n_coders=3, n=200, accuracy=0.85):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    wrong = (truth + rng.integers(1, 3, (n_coders, n))) % 3
    return truth, np.where(rng.random((n_coders, n)) < accuracy, truth, wrong)


@runs(
    "sklearn_faithful.agreement.agreement_report",
    "sklearn_faithful.agreement.agreement_confidence_interval",
)
def test_agreement():
    _, data = _annotators(0)
    report = agreement_report(data, n_resamples=999, random_state=0)
    alpha = report.intervals["krippendorff_alpha"]
    assert alpha.confidence_interval.low < alpha.statistic
    assert {"percent_agreement", "gwet_ac"} <= set(report.intervals)
    res = agreement_confidence_interval(data, n_resamples=99, random_state=0)
    assert (res.method, res.interval) == ("bootstrap", "bca")


@runs("sklearn_faithful.agreement.compare_to_annotators")
def test_model_as_annotator():
    truth, data = _annotators(1, n_coders=4)
    res = compare_to_annotators(data[:3], data[3], n_resamples=999, random_state=0)
    assert res.verdict in ("below", "within", "above")


# -- Where does each run rank, and how sure is that? -------------------------


@runs("sklearn_faithful.eval_logs.rank_intervals")
def test_rank_sets_of_runs():
    rng = np.random.default_rng(0)
    groups = np.arange(400) // 8
    runs = {
        name: (rng.random(400) < p).astype(int)
        for name, p in (("A", 0.55), ("B", 0.7), ("C", 0.72), ("D", 0.9))
    }
    res = rank_intervals(runs, groups=groups, random_state=0)
    assert res.n_resamples == 9999 and res.confidence_level == 0.95
    sets = {r["run"]: (r["low"], r["high"]) for r in res.ranks}
    assert sets["D"] == (1, 1) and sets["A"] == (4, 4)
    for r in res.ranks:
        assert r["simultaneous_low"] <= r["low"] <= r["rank"] <= r["high"]


# -- What is a suite's score over tasks, and is B better on the suite? --------


@runs("sklearn_faithful.eval_logs.suite_scores")
def test_suite_of_tasks():
    rng = np.random.default_rng(0)
    tasks = np.repeat(["small", "medium", "large"], [40, 120, 400])
    runs = {
        name: (rng.random(tasks.size) < p).astype(int)
        for name, p in (("A", 0.6), ("B", 0.75))
    }
    res = suite_scores(runs, tasks=tasks, random_state=0)
    assert res.weighting == "task" and res.n_resamples == 9999
    assert res.confidence_level == 0.95 and res.correction == "holm"
    task_means = [np.mean(runs["A"][tasks == t]) for t in ("large", "medium", "small")]
    assert res.runs[0]["score"] == pytest.approx(np.mean(task_means))
    assert res.pairs[0]["difference"] > 0 and res.pairs[0]["pvalue"] < 0.05


# -- Who wins the pairwise battles? ------------------------------------------


@runs("sklearn_faithful.battles.bradley_terry")
def test_pairwise_battles():
    rng = np.random.default_rng(0)
    strength = {"A": 0.0, "B": 0.5, "C": 1.5}
    names = list(strength)
    battles = []
    for _ in range(300):
        a, b = rng.choice(3, 2, replace=False)
        d = strength[names[a]] - strength[names[b]]
        won = rng.random() < 1 / (1 + np.exp(-d))
        tie = rng.random() < 0.1
        winner = "tie" if tie else ("model_a" if won else "model_b")
        battles.append({"model_a": names[a], "model_b": names[b], "winner": winner})
    res = bradley_terry(battles, random_state=0)
    # the defaults the docs recommend: ties as half wins, log scale, 999 resamples
    assert (res.ties, res.scale, res.n_resamples) == ("half", "log", 999)
    assert res.ranks.tolist() == [3, 2, 1] and res.rank_sets[2].tolist() == [1, 1]


# -- Is run B better than run A, from per-item logs? -------------------------


@runs(
    "sklearn_faithful.eval_logs.join_runs",
    "sklearn_faithful.eval_logs.compare_runs",
    "sklearn_faithful.eval_logs.prediction_powered_mean",
)
def test_evaluation_logs_joined_by_id():
    rng = np.random.default_rng(0)
    ids = np.repeat(np.arange(200), 3)  # three samples per item
    logs = {
        run: {"id": ids, "score": rng.random(600) < p, "passage": ids // 4}
        for run, p in (("A", 0.6), ("B", 0.75))
    }
    table = join_runs(logs, groups_field="passage", on_duplicate="repeats")
    res = compare_runs(table, n_resamples=999, random_state=0)
    # the defaults the docs recommend: cluster permutation, Holm, jackknife-bm
    assert (res.method, res.correction, res.interval) == (
        "permutation",
        "holm",
        "jackknife-bm",
    )
    assert res.n_clusters == 50 and res.tied_with_best == ["B"]
    human = np.where(np.arange(200) < 120, table.scores[:, 1], np.nan)
    judged = prediction_powered_mean(table.scores[:, 1], human)
    assert judged.n_labelled == 120 and judged.lam == 1.0


# -- Are my model's probabilities calibrated? Is B better calibrated? --


@runs(
    "sklearn_faithful.calibration.calibration_error_interval",
    "sklearn_faithful.calibration.calibration_test",
    "sklearn_faithful.calibration.paired_calibration_test",
    "sklearn_faithful.calibration.ReliabilityDisplay",
)
def test_calibration(data):
    import matplotlib

    matplotlib.use("Agg")
    X, y = data
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    nb = GaussianNB().fit(X, y).predict_proba(X)
    res = calibration_error_interval(y, proba, n_resamples=199, random_state=0)
    assert "debiased L2" in res.estimator and res.interval == "basic"
    assert 0 <= res.confidence_interval.low <= res.confidence_interval.high <= 1
    test = calibration_test(y, proba, n_resamples=199, random_state=0)
    assert "binned L1" in test.estimator and 0 < test.pvalue <= 1
    paired = paired_calibration_test(
        y, nb, proba, metric="brier", n_resamples=199, random_state=0
    )
    assert paired.metric == "brier"
    disp = ReliabilityDisplay.from_predictions(y, proba, random_state=0)
    assert disp.band_ is not None
