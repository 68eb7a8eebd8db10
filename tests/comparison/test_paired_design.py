"""The item-based variances of the paired test (``"crossed"``, ``"design"``).

Checked against independent computations: the items' influences against a
numerical derivative of the metric, and the posterior's scale against a
direct transcription of the formulas page, item by item in plain Python.
"""

import math
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.comparison import BayesModelComparison, paired_bayes_test
from sklearn_faithful.comparison._counts import _one_vs_rest_counts
from sklearn_faithful.comparison._paired import _influences
from sklearn_faithful.model_selection import BlockRegularizedMx2CV


def _metric(counts, metric, average, pos):
    """Precision, recall or F1 from one-vs-rest counts (n_classes, 4)."""
    tp, fp, fn = (counts[:, k].astype(float) for k in range(3))
    if average == "micro":
        tp, fp, fn = tp.sum(), fp.sum(), fn.sum()
    if metric == "precision":
        per_class = tp / (tp + fp)
    elif metric == "recall":
        per_class = tp / (tp + fn)
    else:
        per_class = 2 * tp / (2 * tp + fp + fn)
    if average == "binary":
        return per_class[pos]
    return float(np.mean(per_class))


@pytest.mark.parametrize("metric", ["precision", "recall", "f1"])
@pytest.mark.parametrize("average", ["binary", "micro", "macro"])
def test_influence_is_the_derivative_of_the_metric(metric, average):
    rng = np.random.default_rng(0)
    n_classes = 2 if average == "binary" else 3
    truth = rng.integers(n_classes, size=200)
    pred = np.where(rng.random(200) < 0.7, truth, rng.integers(n_classes, size=200))
    weight = rng.uniform(0.5, 2.0, size=200)
    counts = _one_vs_rest_counts(truth, pred, n_classes, weight)
    infl = _influences(truth, pred, counts, metric, average, 1)
    base = _metric(counts, metric, average, 1)
    eps = 1e-6
    for i in range(0, 200, 17):
        bumped = weight.copy()
        bumped[i] += eps
        moved = _metric(
            _one_vs_rest_counts(truth, pred, n_classes, bumped), metric, average, 1
        )
        # adding eps weight to item i moves the metric by eps infl_i / W
        assert (moved - base) / eps == pytest.approx(infl[i] / weight.sum(), rel=1e-4)
    # the influences of a split sum to 0 on it (the metric is scale free)
    assert np.dot(weight, infl) == pytest.approx(0.0, abs=1e-12)


def _by_hand(y, splits, pred_a, pred_b, m, crossed=False):
    """The posterior's scale and df, transcribed item by item (binary F1)."""

    def f1(truth, p):
        tp = sum(1 for t, q in zip(truth, p, strict=True) if t == 1 and q == 1)
        wrong = sum(1 for t, q in zip(truth, p, strict=True) if t != q)
        return 2 * tp / (2 * tp + wrong)

    def grads(truth, p):  # dF1/dTP, dF1/dFP, dF1/dFN on proportions
        k = len(truth)
        tp = sum(1 for t, q in zip(truth, p, strict=True) if t == 1 and q == 1) / k
        fp = sum(1 for t, q in zip(truth, p, strict=True) if t == 0 and q == 1) / k
        fn = sum(1 for t, q in zip(truth, p, strict=True) if t == 1 and q == 0) / k
        den = 2 * tp + fp + fn
        return 2 * (fp + fn) / den**2, -2 * tp / den**2, -2 * tp / den**2

    def infl(t, q, g):
        if t == 1 and q == 1:
            return g[0]
        if t == 0 and q == 1:
            return g[1]
        if t == 1 and q == 0:
            return g[2]
        return 0.0

    d, v, sizes = [], [], []
    item_infl = {}  # (partition, item) -> the item's influence there
    for s, ((_, test), pa, pb) in enumerate(zip(splits, pred_a, pred_b, strict=True)):
        truth = [int(y[i]) for i in test]
        ga, gb = grads(truth, pa), grads(truth, pb)
        d.append(f1(truth, pb) - f1(truth, pa))
        for i, t, a, b in zip(test, truth, pa, pb, strict=True):
            item_infl[s // 2, int(i)] = infl(t, b, gb) - infl(t, a, ga)
        contrib = [
            (infl(t, b, gb) - infl(t, a, ga)) / len(test)
            for t, a, b in zip(truth, pa, pb, strict=True)
        ]
        k = len(test)
        sizes.append(k)
        v.append(sum(c * c for c in contrib) * k / (k - 1))
    if crossed:
        # formulas page, "The crossed variance of the paired test": z_j from
        # the items' mean influence over the other partitions, V_all, V_e,
        # s^2 = max(V_all - V_e (1 - 1/m) / 2, V_all / 4) on m / 2 df
        v_all = 0.0
        for j in range(m):
            halves = [splits[2 * j][1], splits[2 * j + 1][1]]
            mean_other = [
                [
                    sum(item_infl[q, int(i)] for q in range(m) if q != j) / (m - 1)
                    for i in half
                ]
                for half in halves
            ]
            z = sum(mean_other[0]) / len(halves[0]) - sum(mean_other[1]) / len(
                halves[1]
            )
            v_all += ((d[2 * j] - d[2 * j + 1]) / 2 - z) ** 2 / m
        sums = [d[2 * j] + d[2 * j + 1] for j in range(m)]
        mean = sum(sums) / m
        v_e = sum((x - mean) ** 2 for x in sums) / (m - 1) / 2
        v_cross = max(v_all - v_e * (1 - 1 / m) / 2, v_all / 4)
        return sum(d) / len(d), math.sqrt(v_cross), m / 2
    vbar = sum(v) / len(v)
    s_h = sum((d[2 * j] - d[2 * j + 1]) ** 2 for j in range(m)) / (2 * m)
    v_test = vbar / 2
    v_train = m * max(0.0, s_h - vbar) / (2 * m)
    s2 = v_test + v_train
    df = s2**2 / (v_test**2 / (sum(sizes) / len(sizes) - 1) + v_train**2 / m)
    return sum(d) / len(d), math.sqrt(s2), df


def _cancer_pair():
    lr = make_pipeline(StandardScaler(), LogisticRegression())
    return GaussianNB(), lr


@pytest.mark.parametrize("variance", ["design", "crossed"])
def test_scale_matches_a_transcription_of_the_formulas(variance):
    X, y = load_breast_cancer(return_X_y=True)
    m = 5
    comp = BayesModelComparison(
        *_cancer_pair(),
        variance=variance,
        cv=BlockRegularizedMx2CV(m, random_state=3),
        metrics=("f1",),
        random_state=3,
    )
    comp.fit(X, y)
    preds = [
        [est.fit(X[train], y[train]).predict(X[test]) for train, test in comp.splits_]
        for est in _cancer_pair()
    ]
    loc, scale, df = _by_hand(y, comp.splits_, *preds, m, crossed=variance == "crossed")
    res = comp.results_["f1"]
    assert res.variance == variance
    assert res.difference == pytest.approx(loc, rel=1e-12)
    assert res.scale == pytest.approx(scale, rel=1e-10)
    assert res.df == pytest.approx(df, rel=1e-10)


def test_crossed_on_10x2_is_the_default_and_the_others_one_argument_away():
    X, y = load_breast_cancer(return_X_y=True)
    default = BayesModelComparison(*_cancer_pair(), random_state=0).fit(X, y)
    assert len(default.splits_) == 20  # BlockRegularizedMx2CV(10)
    design = BayesModelComparison(
        *_cancer_pair(), variance="design", random_state=0
    ).fit(X, y)
    splits = BayesModelComparison(
        *_cancer_pair(), variance="splits", random_state=0
    ).fit(X, y)
    assert len(design.splits_) == len(splits.splits_) == 6  # the paper's 3x2
    for metric in design.metrics:
        a, b = design.results_[metric], splits.results_[metric]
        assert default.results_[metric].variance == "crossed"
        assert default.results_[metric].df == 5  # m / 2
        assert (a.variance, b.variance) == ("design", "splits")
        assert a.difference == b.difference  # the same splits and location
        direct = paired_bayes_test(splits.counts_a_, splits.counts_b_, metric=metric)
        assert b.p_h1 == direct.p_h1


@pytest.mark.parametrize("variance", ["crossed", "splits"])
def test_the_paired_test_needs_two_partitions(variance):
    X, y = load_breast_cancer(return_X_y=True)
    comp = BayesModelComparison(
        *_cancer_pair(), variance=variance, cv=BlockRegularizedMx2CV(1)
    )
    with pytest.raises(ValueError, match=r"needs at least 2 partitions .*gives 2 "):
        comp.fit(X, y)


@pytest.mark.parametrize("variance", ["design", "crossed"])
def test_item_variances_weights_scale_free_and_n_jobs_free(variance):
    X, y = load_breast_cancer(return_X_y=True)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=y.size)
    kw = dict(variance=variance, metrics=("f1",), random_state=0)
    base = BayesModelComparison(GaussianNB(), GaussianNB(var_smoothing=1e-3), **kw)
    one = base.fit(X, y, sample_weight=w).results_["f1"]
    scaled = base.fit(X, y, sample_weight=w * 10).results_["f1"]
    # GaussianNB's fit is invariant to scaled weights, and so is the test
    assert scaled.scale == pytest.approx(one.scale, rel=1e-9)
    assert scaled.p_h1 == pytest.approx(one.p_h1, rel=1e-9)
    two_jobs = base.set_params(n_jobs=2).fit(X, y, sample_weight=w).results_["f1"]
    assert two_jobs.p_h1 == one.p_h1


@pytest.mark.parametrize("variance", ["design", "crossed"])
@pytest.mark.parametrize("average", ["micro", "macro"])
def test_item_variances_multiclass(average, variance):
    X, y = load_iris(return_X_y=True)
    comp = BayesModelComparison(
        GaussianNB(),
        LogisticRegression(max_iter=500),
        average=average,
        variance=variance,
        cv=BlockRegularizedMx2CV(3, random_state=0),
        random_state=0,
    ).fit(X, y)
    for metric, res in comp.results_.items():
        assert res.variance == variance
        assert np.isfinite(res.p_h1)
        assert len(comp.per_class_results_[metric]) == 3


def test_crossed_on_few_partitions_warns_at_the_users_call():
    X, y = load_breast_cancer(return_X_y=True)
    comp = BayesModelComparison(
        *_cancer_pair(), metrics=("f1",), cv=BlockRegularizedMx2CV(3, random_state=0)
    )
    with pytest.warns(UserWarning, match="on 3 partitions has 1.5 degrees") as rec:
        comp.fit(X, y)
    assert rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        comp.set_params(variance="splits").fit(X, y)
        comp.set_params(variance="crossed", cv=None).fit(X, y)  # the 10 x 2 BCV


def test_crossed_on_few_partitions_warns_from_cross_validate_too():
    from sklearn.model_selection import cross_validate

    X, y = load_breast_cancer(return_X_y=True)
    cv = BlockRegularizedMx2CV(5, random_state=0)
    results = {
        name: cross_validate(
            est, X, y, cv=cv, return_indices=True, return_estimator=True
        )
        for name, est in zip("ab", _cancer_pair(), strict=True)
    }
    with pytest.warns(UserWarning, match="on 5 partitions has 2.5 degrees") as rec:
        BayesModelComparison.from_cross_validate(results, X, y, metrics=("f1",))
    assert rec[0].filename == __file__


def test_design_warns_that_it_leaves_out_the_covariance():
    X, y = load_breast_cancer(return_X_y=True)
    comp = BayesModelComparison(*_cancer_pair(), variance="design", metrics=("f1",))
    with pytest.warns(UserWarning, match="up to 13.7% of null settings") as rec:
        comp.fit(X, y)
    assert rec[0].filename == __file__
