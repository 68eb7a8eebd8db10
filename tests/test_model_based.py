"""Tests of the model-based metric test (Goyal, Hu & Gupta 2023)."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_faithful import ModelBasedMetricTest, model_based_test_from_summary

# Table 1, BOLD row: N = 23,679 prompts per system, precision and FOR of the
# RoBERTa-ToxiGen classifier (section 3.1)
BOLD = dict(mean_c=0.00456, mean_t=0.00236, n=23679, precision=0.8897, fo_rate=0.22769)


def _bold():
    return model_based_test_from_summary(
        BOLD["mean_c"],
        BOLD["n"],
        BOLD["mean_t"],
        BOLD["n"],
        precision=BOLD["precision"],
        false_omission_rate=BOLD["fo_rate"],
    )


def test_paper_table_1_bold_row():
    res = _bold()
    # Table 1: Var_D GPT2 1.92e-7, Var_M 7.50e-6 / 7.46e-6, CI_M (-0.00978, 0.00538)
    assert f"{res.var_deterministic_c:.2e}" == "1.92e-07"
    assert f"{res.var_model_c:.2e}" == "7.50e-06"
    assert f"{res.var_model_t:.2e}" == "7.46e-06"
    assert round(res.ci_model.low, 5) == -0.00978
    assert round(res.ci_model.high, 5) == 0.00538
    # CI_D (-0.00325, -0.00114): the printed means give -0.00326 for the lower
    # end, one unit in the last digit, as they give Var_D 9.94e-8 for GPT-Neo
    # where the table prints 9.97e-8 (the table's own rounding of the means)
    assert res.ci_deterministic.low == pytest.approx(-0.00325, abs=1.5e-5)
    assert round(res.ci_deterministic.high, 5) == -0.00114
    assert res.var_deterministic_t == pytest.approx(9.97e-8, rel=0.005)
    assert res.significant_deterministic and not res.significant_model
    assert res.conclusion_changed


def test_formulas_written_out():
    res = _bold()
    p, n = BOLD["mean_c"], BOLD["n"]
    p_r = BOLD["precision"] * p + BOLD["fo_rate"] * (1 - p)  # eq. 10
    assert res.rate_c == pytest.approx(p_r)
    assert res.var_model_c == pytest.approx(p_r * (1 - p_r) / (n - 1))  # eq. 13
    assert res.var_deterministic_c == pytest.approx(p * (1 - p) / (n - 1))  # eq. 5
    half = 1.959963984540054 * np.sqrt(res.var_model_c + res.var_model_t)
    assert res.ci_model.low == pytest.approx(res.effect - half)  # eq. 14
    assert res.corrected_effect == pytest.approx(
        (BOLD["precision"] - BOLD["fo_rate"]) * res.effect
    )
    ci90 = res.confidence_interval(0.90)
    assert ci90.high - ci90.low < res.ci_model.high - res.ci_model.low
    assert "changes the conclusion" in res.summary()


def test_perfect_metric_model_gives_deterministic_variance():
    # appendix A.1: precision 1 and FOR 0 give eq. 5 exactly
    rng = np.random.default_rng(0)
    lab_c, lab_t = rng.integers(0, 2, 500), rng.integers(0, 2, 400)
    for paired in (False, True):
        test = ModelBasedMetricTest.from_rates(1.0, 0.0, paired=paired)
        res = test.test_labels(lab_c, lab_t[:500] if not paired else lab_c[::-1])
        assert res.var_model_c == res.var_deterministic_c
        assert res.var_model_t == res.var_deterministic_t
        assert res.ci_model == res.ci_deterministic


def test_labels_path_equals_summary_path():
    rng = np.random.default_rng(1)
    lab_c, lab_t = rng.random(3000) < 0.1, rng.random(2000) < 0.07
    res = ModelBasedMetricTest.from_rates(0.8, 0.05).test_labels(
        lab_c.astype(int), lab_t.astype(int)
    )
    ref = model_based_test_from_summary(
        lab_c.mean(), 3000, lab_t.mean(), 2000, precision=0.8, false_omission_rate=0.05
    )
    for field in (
        "var_model_c",
        "var_model_t",
        "ci_model",
        "ci_deterministic",
        "pvalue",
    ):
        assert getattr(res, field) == pytest.approx(getattr(ref, field))


def test_paired_covariance_against_simulation():
    # O_C, O_T correlated per prompt; R | O ~ Bernoulli(q(O)) independently
    rng = np.random.default_rng(2)
    n, prec, fo_rate = 400, 0.85, 0.1
    o_c = (rng.random(n) < 0.3).astype(int)
    o_t = np.where(rng.random(n) < 0.7, o_c, (rng.random(n) < 0.3).astype(int))
    res = ModelBasedMetricTest.from_rates(prec, fo_rate, paired=True).test_labels(
        o_c, o_t
    )
    q = np.array([fo_rate, prec])
    # direct: the covariance of q(O_C) and q(O_T) over prompts, as a plain
    # sample covariance with ddof=0, over N - 1 (appendix A.3)
    direct = np.cov(q[o_c], q[o_t], ddof=0)[0, 1] / (n - 1)
    assert res.covariance_model == pytest.approx(direct, rel=1e-12)
    # and the erratum: the variance of the difference subtracts it. Simulate
    # the real labels of a fresh sample of prompts from the same joint
    # distribution many times and compare Var(mean R_T - mean R_C).
    reps = 20_000
    idx = rng.integers(0, n, size=(reps, n))
    r_c = rng.random((reps, n)) < q[o_c[idx]]
    r_t = rng.random((reps, n)) < q[o_t[idx]]
    simulated = np.var(r_t.mean(1) - r_c.mean(1))
    assert res.var_effect_model == pytest.approx(simulated, rel=0.05)
    wrong_sign = res.var_model_c + res.var_model_t + 2 * res.covariance_model
    assert abs(wrong_sign - simulated) > 0.3 * simulated


def test_multiclass_path_equals_binary_path():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((600, 3))
    y = (X[:, 0] + 0.8 * rng.standard_normal(600) > 0.3).astype(int)
    model = LogisticRegression().fit(X[:300], y[:300])
    binary = ModelBasedMetricTest(model).fit(X[300:], y[300:])
    labels = model.predict(rng.standard_normal((500, 3)))
    other = model.predict(rng.standard_normal((500, 3)) + 0.3)
    res = binary.test_labels(labels, other)
    # the same through the general P(R | O) matrix of appendix A.2
    q = binary.real_given_observed_[1]
    assert q[1] == pytest.approx(binary.precision_)
    assert q[0] == pytest.approx(binary.false_omission_rate_)
    p_o = np.bincount(labels, minlength=2) / 500
    assert res.rate_c == pytest.approx(q @ p_o)
    # three classes where the third is never real nor predicted collapse
    y3 = np.where(y == 1, 2, 0)
    model3 = LogisticRegression().fit(X[:300], y3[:300])
    multi = ModelBasedMetricTest(model3, pos_label=2).fit(X[300:], y3[300:])
    res3 = multi.test_labels(
        model3.predict(rng.standard_normal((500, 3))),
        model3.predict(rng.standard_normal((500, 3)) + 0.3),
    )
    ref3 = ModelBasedMetricTest.from_rates(
        multi.precision_, multi.false_omission_rate_, classes=(0, 2), pos_label=2
    ).test_labels(model3.predict(rng.standard_normal((2, 3))), [0, 2])
    assert multi.precision_ == pytest.approx(binary.precision_)
    assert np.isfinite([res3.var_model_c, ref3.var_model_c]).all()


def test_multiclass_metric_model():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((900, 2))
    y = np.digitize(X[:, 0] + 0.5 * rng.standard_normal(900), [-0.5, 0.5])
    model = LogisticRegression().fit(X[:400], y[:400])
    test = ModelBasedMetricTest(model, pos_label=2).fit(X[400:], y[400:])
    qm = test.real_given_observed_
    np.testing.assert_allclose(qm.sum(axis=0), 1.0)
    lab_c, lab_t = model.predict(X[:300]), model.predict(X[300:600])
    res = test.test_labels(lab_c, lab_t)
    p_o = np.bincount(lab_c, minlength=3) / 300
    assert res.rate_c == pytest.approx(qm[2] @ p_o)  # A.2
    assert res.var_model_c == pytest.approx(res.rate_c * (1 - res.rate_c) / 299)


def test_end_to_end_text_pipeline():
    rng = np.random.default_rng(5)
    toxic = ["awful", "hate", "stupid", "idiot", "trash"]
    neutral = ["lovely", "weather", "book", "friend", "music", "garden"]

    def corpus(n, rate):
        y = (rng.random(n) < rate).astype(int)
        docs = []
        for label in y:
            words = list(rng.choice(neutral, 4))
            if label or rng.random() < 0.1:  # some noise the model can't see
                words.append(rng.choice(toxic))
            docs.append(" ".join(words))
        return docs, y

    train_x, train_y = corpus(400, 0.4)
    clf = make_pipeline(CountVectorizer(), LogisticRegression()).fit(train_x, train_y)
    ann_x, ann_y = corpus(300, 0.4)
    test = ModelBasedMetricTest(clf).fit(ann_x, ann_y)
    assert 0.5 < test.precision_ <= 1 and 0 <= test.false_omission_rate_ < 0.5
    out_c, _ = corpus(500, 0.2)
    out_t, _ = corpus(500, 0.3)
    res = test.test(out_c, out_t)
    direct = test.test_labels(clf.predict(out_c), clf.predict(out_t))
    assert res == direct
    assert res.var_model_c == pytest.approx(res.rate_c * (1 - res.rate_c) / 499)
    assert test.annotated_counts_.sum() == 300
    with pytest.raises(ValueError, match="not in the metric model.s classes"):
        ModelBasedMetricTest(clf).fit(ann_x, np.where(ann_y == 1, 7, 0))


def test_delta_method():
    test = ModelBasedMetricTest.from_rates(
        0.8897,
        0.22769,
        n_predicted_positive=400,
        n_predicted_negative=600,
        method="delta",
    )
    rng = np.random.default_rng(6)
    lab_c, lab_t = (rng.random(5000) < 0.2).astype(int), (rng.random(5000) < 0.25)
    res = test.test_labels(lab_c, lab_t.astype(int))
    k = 0.8897 - 0.22769
    assert res.corrected_effect == pytest.approx(k * res.effect)
    assert res.statistic == res.corrected_effect
    d = res.effect
    expected = k**2 * res.var_effect_deterministic + d**2 * (
        0.8897 * 0.1103 / 400 + 0.22769 * 0.77231 / 600
    )
    assert res.var_effect_model == pytest.approx(expected, rel=1e-9)
    # with an infinite annotated set the delta interval is the rescaled naive one
    big = ModelBasedMetricTest.from_rates(
        0.8897,
        0.22769,
        n_predicted_positive=10**15,
        n_predicted_negative=10**15,
        method="delta",
    ).test_labels(lab_c, lab_t.astype(int))
    assert big.var_effect_model == pytest.approx(k**2 * res.var_effect_deterministic)


def test_bad_input():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((200, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(NotFittedError):
        ModelBasedMetricTest(LogisticRegression()).fit(X, y)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="never predicts positive"):
        ModelBasedMetricTest(model).fit(X[X[:, 0] < -0.5], y[X[:, 0] < -0.5])
    with pytest.raises(ValueError, match="false omission rate is undefined"):
        ModelBasedMetricTest(model).fit(X[X[:, 0] > 0.5], y[X[:, 0] > 0.5])
    test = ModelBasedMetricTest.from_rates(0.9, 0.1)
    with pytest.raises(ValueError, match="N >= 2"):
        test.test_labels([1], [0, 1])
    with pytest.raises(ValueError, match="not in the metric model.s classes"):
        test.test_labels([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        test.test_labels([0.0, np.nan, 1.0], [0, 1])
    with pytest.raises(ValueError, match="paired"):
        ModelBasedMetricTest.from_rates(0.9, 0.1, paired=True).test_labels(
            [0, 1, 1], [0, 1]
        )
    with pytest.raises(ValueError, match="no better than chance"):
        ModelBasedMetricTest.from_rates(
            0.2, 0.3, n_predicted_positive=5, n_predicted_negative=5, method="delta"
        ).test_labels([0, 1], [1, 1])
    with pytest.raises(ValueError, match="size of the annotated set"):
        ModelBasedMetricTest.from_rates(0.9, 0.1, method="delta").test_labels(
            [0, 1], [1, 1]
        )
    with pytest.raises(ValueError, match="precision"):
        ModelBasedMetricTest.from_rates(1.2, 0.1)
    with pytest.raises(ValueError, match="n_c"):
        model_based_test_from_summary(
            0.1, 1, 0.2, 10, precision=0.9, false_omission_rate=0.1
        )
    with pytest.raises(ValueError, match="method"):
        ModelBasedMetricTest.from_rates(0.9, 0.1, method="bootstrap")
    with pytest.raises(ValueError, match="positive_label"), pytest.warns(FutureWarning):
        ModelBasedMetricTest(model, positive_label=3).fit(X, y)
    with pytest.raises(ValueError, match="pos_label=3 is not a valid label"):
        ModelBasedMetricTest(model, pos_label=3).fit(X, y)


def test_positive_label_is_a_deprecated_alias():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((200, 2))
    y = (X[:, 0] + rng.standard_normal(200) > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    new = ModelBasedMetricTest(model, pos_label=0).fit(X, y)
    with pytest.warns(FutureWarning, match="renamed pos_label"):
        old = ModelBasedMetricTest(model, positive_label=0).fit(X, y)
    assert (old.precision_, old._pos) == (new.precision_, new._pos)
    with pytest.warns(FutureWarning, match="renamed pos_label"):
        rates = ModelBasedMetricTest.from_rates(0.9, 0.1, positive_label=0)
    assert rates._pos == 0


def test_inputs_not_modified():
    lab_c = np.array([0, 1, 1, 0, 1])
    lab_t = np.array([1, 1, 0, 0, 0])
    c0, t0 = lab_c.copy(), lab_t.copy()
    ModelBasedMetricTest.from_rates(0.9, 0.1, paired=True).test_labels(lab_c, lab_t)
    np.testing.assert_array_equal(lab_c, c0)
    np.testing.assert_array_equal(lab_t, t0)


def test_summary_warns_when_the_papers_interval_is_narrower():
    # an over-flagging metric model: p_R < p_O, so eq. 13 shrinks the variance
    res = model_based_test_from_summary(
        0.20, 2000, 0.21, 2000, precision=0.30, false_omission_rate=0.02
    )
    assert res.var_effect_model < res.var_effect_deterministic
    assert "narrower than the naive one" in res.summary()
    fine = model_based_test_from_summary(  # Table 1, BOLD: wider than naive
        0.00456, 23679, 0.00236, 23679, precision=0.8897, false_omission_rate=0.22769
    )
    assert "narrower" not in fine.summary()
