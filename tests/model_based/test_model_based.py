"""Tests of the model-based metric test (Goyal, Hu & Gupta 2023)."""

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.exceptions import NotFittedError
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_faithful.model_based import (
    ModelBasedMetricTest,
    model_based_test_from_summary,
)
from sklearn_faithful.utils._param_validation import InvalidParameterError

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
    assert round(res.confidence_interval().low, 5) == -0.00978
    assert round(res.confidence_interval().high, 5) == 0.00538
    # CI_D (-0.00325, -0.00114): the printed means give -0.00326 for the lower
    # end, one unit in the last digit, as they give Var_D 9.94e-8 for GPT-Neo
    # where the table prints 9.97e-8 (the table's own rounding of the means)
    assert res.confidence_interval(deterministic=True).low == pytest.approx(
        -0.00325, abs=1.5e-5
    )
    assert round(res.confidence_interval(deterministic=True).high, 5) == -0.00114
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
    assert res.confidence_interval().low == pytest.approx(res.effect - half)  # eq. 14
    assert res.corrected_effect == pytest.approx(
        (BOLD["precision"] - BOLD["fo_rate"]) * res.effect
    )
    ci90 = res.confidence_interval(0.90)
    assert (
        ci90.high - ci90.low
        < res.confidence_interval().high - res.confidence_interval().low
    )
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
        assert res.confidence_interval() == res.confidence_interval(deterministic=True)


def test_labels_path_equals_summary_path():
    rng = np.random.default_rng(1)
    lab_c, lab_t = rng.random(3000) < 0.1, rng.random(2000) < 0.07
    res = ModelBasedMetricTest.from_rates(0.8, 0.05).test_labels(
        lab_c.astype(int), lab_t.astype(int)
    )
    ref = model_based_test_from_summary(
        lab_c.mean(), 3000, lab_t.mean(), 2000, precision=0.8, false_omission_rate=0.05
    )
    for field in ("var_model_c", "var_model_t", "pvalue"):
        assert getattr(res, field) == pytest.approx(getattr(ref, field))
    for deterministic in (False, True):
        assert res.confidence_interval(deterministic=deterministic) == pytest.approx(
            ref.confidence_interval(deterministic=deterministic)
        )


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
    binary = ModelBasedMetricTest(model, method="goyal2023").fit(X[300:], y[300:])
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
    multi = ModelBasedMetricTest(model3, pos_label=2, method="goyal2023").fit(
        X[300:], y3[300:]
    )
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
    test = ModelBasedMetricTest(model, pos_label=2, method="goyal2023").fit(
        X[400:], y[400:]
    )
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
    test = ModelBasedMetricTest(clf, method="goyal2023").fit(ann_x, ann_y)
    assert 0.5 < test.precision_ <= 1 and 0 <= test.false_omission_rate_ < 0.5
    out_c, _ = corpus(500, 0.2)
    out_t, _ = corpus(500, 0.3)
    res = test.test(out_c, out_t)
    direct = test.test_labels(clf.predict(out_c), clf.predict(out_t))
    assert res == direct
    assert res.var_model_c == pytest.approx(res.rate_c * (1 - res.rate_c) / 499)
    assert test.annotated_counts_.sum() == 300
    with pytest.raises(ValueError, match="not in the metric model.s classes"):
        ModelBasedMetricTest(clf, method="goyal2023").fit(
            ann_x, np.where(ann_y == 1, 7, 0)
        )


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
        ModelBasedMetricTest(LogisticRegression(), method="goyal2023").fit(X, y)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="never predicts positive"):
        ModelBasedMetricTest(model, method="goyal2023").fit(
            X[X[:, 0] < -0.5], y[X[:, 0] < -0.5]
        )
    with pytest.raises(ValueError, match="false omission rate is undefined"):
        ModelBasedMetricTest(model, method="goyal2023").fit(
            X[X[:, 0] > 0.5], y[X[:, 0] > 0.5]
        )
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
        ModelBasedMetricTest(model, positive_label=3, method="goyal2023").fit(X, y)
    with pytest.raises(ValueError, match="pos_label=3 is not a valid label"):
        ModelBasedMetricTest(model, pos_label=3, method="goyal2023").fit(X, y)


def test_positive_label_is_a_deprecated_alias():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((200, 2))
    y = (X[:, 0] + rng.standard_normal(200) > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    new = ModelBasedMetricTest(model, pos_label=0, method="goyal2023").fit(X, y)
    with pytest.warns(FutureWarning, match="renamed pos_label"):
        old = ModelBasedMetricTest(model, positive_label=0, method="goyal2023").fit(
            X, y
        )
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


# --- method="ppi": prediction-powered inference ------------------------------


def _ppi_data(seed, n_out=3000, n_ann=200, paired=False):
    """Metric-model labels of N outputs per system and annotated samples."""
    rng = np.random.default_rng(seed)
    o_c = (rng.random(n_out) < 0.2).astype(int)
    o_t = (rng.random(n_out) < 0.25).astype(int)
    if paired:
        o_t = np.where(rng.random(n_out) < 0.6, o_c, o_t)
    q = np.array([0.02, 0.30])  # FOR, precision of an over-flagging model
    r_c = (rng.random(n_ann) < q[o_c[:n_ann]]).astype(int)
    r_t = (rng.random(n_ann) < q[o_t[:n_ann]]).astype(int)
    if paired:
        r_t = np.where(rng.random(n_ann) < 0.5, r_c, r_t)
    return o_c, o_t, (o_c[:n_ann], r_c), (o_t[:n_ann], r_t)


def _ppi_py_mean_ci(real, pred, outputs, lam):
    """ppi_py's 95% PPI interval of a mean, (low, high); lam="auto" tunes it."""
    ppi_py = pytest.importorskip("ppi_py")
    lo, hi = ppi_py.ppi_mean_ci(
        np.asarray(real, dtype=float),
        np.asarray(pred, dtype=float),
        np.asarray(outputs, dtype=float),
        alpha=0.05,
        lam=None if lam == "auto" else lam,
    )
    return float(lo[0]), float(hi[0])


@pytest.mark.parametrize("lam", ["auto", 1.0, 0.3])
def test_ppi_matches_ppi_py(lam, reference):
    o_c, o_t, ann_c, ann_t = _ppi_data(8, n_out=2500)
    o_t = o_t[:1800]  # unequal sizes
    res = ModelBasedMetricTest(None, method="ppi", lam=lam).test_labels(
        o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
    )
    z = 1.959963984540054
    for outputs, (pred, real), rate, var in (
        (o_c, ann_c, res.rate_c, res.var_model_c),
        (o_t, ann_t, res.rate_t, res.var_model_t),
    ):
        lo, hi = reference(_ppi_py_mean_ci, real, pred, outputs, lam)
        assert rate == pytest.approx((lo + hi) / 2, rel=1e-10)
        assert var == pytest.approx(((hi - lo) / (2 * z)) ** 2, rel=1e-10)
    if lam == "auto":
        assert 0 < res.lam_c < 1 and 0 < res.lam_t < 1 and res.lam_c != res.lam_t
    # independent systems: the variances add
    assert res.var_effect_model == pytest.approx(res.var_model_c + res.var_model_t)
    half = z * np.sqrt(res.var_effect_model)
    assert res.confidence_interval().low == pytest.approx(res.corrected_effect - half)
    assert res.statistic == res.corrected_effect


@pytest.mark.parametrize("lam", ["auto", 1.0])
def test_ppi_paired_matches_ppi_py_on_the_differences(lam, reference):
    # paired with the same annotated inputs: theta_T - theta_C is PPI on the
    # differences R_T - R_C with predictions O_T - O_C (one lam for both)
    o_c, o_t, (a_c, r_c), (a_t, r_t) = _ppi_data(9, paired=True)
    res = ModelBasedMetricTest(None, method="ppi", lam=lam, paired=True).test_labels(
        o_c, o_t, annotated_c=(a_c, r_c), annotated_t=(a_t, r_t)
    )
    lo, hi = reference(_ppi_py_mean_ci, r_t - r_c, a_t - a_c, o_t - o_c, lam)
    assert res.confidence_interval().low == pytest.approx(lo, rel=1e-10)
    assert res.confidence_interval().high == pytest.approx(hi, rel=1e-10)
    assert res.lam_c == res.lam_t
    assert res.covariance_model > 0


def test_ppi_hand_computed():
    # C: N = 8 labels with 4 positive; annotated (O, R) = (1,1) (0,0) (1,0) (0,0)
    # T: N = 8 labels with 6 positive; annotated all right
    res = ModelBasedMetricTest(None, method="ppi", lam=1.0).test_labels(
        [0, 1, 1, 0, 1, 0, 0, 1],
        [1, 1, 1, 0, 1, 1, 0, 1],
        annotated_c=([1, 0, 1, 0], [1, 0, 0, 0]),
        annotated_t=([1, 1, 0, 1], [1, 1, 0, 1]),
    )
    # theta_C = 4/8 + mean(0, 0, -1, 0) = 0.25; theta_T = 6/8 + 0 = 0.75
    assert (res.rate_c, res.rate_t) == (0.25, 0.75)
    assert res.corrected_effect == 0.5 and res.effect == 0.25
    # Var_C = (1/4) / 8 + (1/4 - 1/16) / 4 = 0.078125; Var_T = (3/16) / 8
    assert res.var_model_c == pytest.approx(0.078125)
    assert res.var_model_t == pytest.approx(0.0234375)
    assert res.var_effect_model == pytest.approx(0.1015625)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(0.5 / np.sqrt(0.1015625)))
    assert (res.n_annotated_c, res.lam_c) == (4, 1.0)
    # lam = 0: the annotated sample alone, mean(R) and Var(R) / n
    zero = ModelBasedMetricTest(None, method="ppi", lam=0.0).test_labels(
        [0, 1, 1, 0, 1, 0, 0, 1],
        [1, 1, 1, 0, 1, 1, 0, 1],
        annotated_c=([1, 0, 1, 0], [1, 0, 0, 0]),
        annotated_t=([1, 1, 0, 1], [1, 1, 0, 1]),
    )
    assert (zero.rate_c, zero.rate_t) == (0.25, 0.75)
    assert zero.var_model_c == pytest.approx(0.1875 / 4)
    # power tuning by hand: Cov(R, O) = 1/4 - 1/4 * 1/2 = 1/8 (ddof 0) and
    # Var(O) over the 12 labels of C = 6/12 * 6/12 * 12/11 (ddof 1)
    with pytest.warns(UserWarning, match=r"with 1 annotated item\(s\) of the rarer"):
        auto = ModelBasedMetricTest(None, method="ppi", lam="auto").test_labels(
            [0, 1, 1, 0, 1, 0, 0, 1],
            [1, 1, 1, 0, 1, 1, 0, 1],
            annotated_c=([1, 0, 1, 0], [1, 0, 0, 0]),
            annotated_t=([1, 1, 0, 1], [1, 1, 0, 1]),
        )
    lam_c = (1 / 8) / ((1 + 4 / 8) * (0.25 * 12 / 11))
    assert auto.lam_c == pytest.approx(lam_c)
    assert auto.rate_c == pytest.approx(lam_c * 0.5 + 0.25 - lam_c * 0.5)
    # T: Cov(R, O) = Var(O) = 3/16 on its annotated sample, Var(O) over 12
    # labels = 9/12 * 3/12 * 12/11, so lam = (3/16) / (3/2 * 9/44) = 11/18
    assert auto.lam_t == pytest.approx(11 / 18)
    assert "prediction-powered" in auto.summary() and "lam C" in auto.summary()


def test_ppi_paired_variance_against_simulation():
    # Paired systems; fresh outputs and annotated samples drawn many times
    # from one joint distribution of (O_C, O_T, R_C, R_T) per input. The
    # spread of the estimated difference must match the reported variance,
    # which subtracts the covariance of both terms.
    rng = np.random.default_rng(10)
    n_out, n_ann, reps = 300, 60, 10_000
    # joint law of (O_C, O_T) and real labels given them
    p_joint = np.array([0.65, 0.10, 0.05, 0.20])  # (0,0) (0,1) (1,0) (1,1)
    o_pairs = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    q = np.array([0.05, 0.4])

    def sample(size):
        cell = rng.choice(4, size=size, p=p_joint)
        o = o_pairs[cell]
        shared = rng.random(size) < 0.3  # the real labels agree
        r_c = rng.random(size) < q[o[..., 0]]
        r_t = np.where(shared, r_c, rng.random(size) < q[o[..., 1]])
        return o[..., 0], o[..., 1], r_c.astype(int), r_t.astype(int)

    # the reported variance, A / N + B / n, from a sample 200 times larger in
    # both parts: times 200 it is the variance of the design (N, n) = (300, 60)
    # with little estimation noise
    scale = 200
    o_c, o_t, r_c, r_t = sample(n_out * scale)
    res = ModelBasedMetricTest(None, method="ppi", lam=1.0, paired=True).test_labels(
        o_c,
        o_t,
        annotated_c=(o_c[: n_ann * scale], r_c[: n_ann * scale]),
        annotated_t=(o_t[: n_ann * scale], r_t[: n_ann * scale]),
    )
    # classical PPI, vectorised over replicates with separate annotated inputs
    oc, ot, _, _ = sample((reps, n_out))
    ac, at, rc, rt = sample((reps, n_ann))
    theta = (ot - oc).mean(1) + ((rt - at) - (rc - ac)).mean(1)
    simulated = theta.var() / scale
    assert res.var_effect_model == pytest.approx(simulated, rel=0.07)
    independent = res.var_model_c + res.var_model_t
    assert independent > 1.5 * simulated  # the covariance is large here


def test_ppi_from_outputs_equals_from_labels():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((400, 2))
    model = LogisticRegression().fit(X, X[:, 0] + 0.5 * X[:, 1] > 0.4)
    out_c, out_t = rng.standard_normal((500, 2)), rng.standard_normal((500, 2)) + 0.2
    real_c, real_t = out_c[:80, 0] > 0.2, out_t[:80, 0] > 0.2
    for paired in (False, True):
        test = ModelBasedMetricTest(model, pos_label=True, method="ppi", paired=paired)
        res = test.test(
            out_c,
            out_t,
            annotated_c=(out_c[:80], real_c),
            annotated_t=(out_t[:80], real_t),
        )
        ref = test.test_labels(
            model.predict(out_c),
            model.predict(out_t),
            annotated_c=(model.predict(out_c[:80]), real_c),
            annotated_t=(model.predict(out_t[:80]), real_t),
        )
        assert res == ref and res.paired is paired and res.method == "ppi"


def test_ppi_label_types_and_inputs_not_modified():
    o_c, o_t, (a_c, r_c), (a_t, r_t) = _ppi_data(12, n_out=300, n_ann=40)
    test = ModelBasedMetricTest(None, method="ppi")
    ref = test.test_labels(o_c, o_t, annotated_c=(a_c, r_c), annotated_t=(a_t, r_t))
    arrays = [o_c, o_t, a_c, r_c, a_t, r_t]
    copies = [a.copy() for a in arrays]
    for convert in (
        lambda a: a.astype(np.int8),
        lambda a: a.astype(bool),
        lambda a: a.tolist(),
    ):
        c = [convert(a) for a in arrays]
        res = test.test_labels(
            c[0], c[1], annotated_c=(c[2], c[3]), annotated_t=(c[4], c[5])
        )
        assert res == ref
    for a, a0 in zip(arrays, copies, strict=True):
        np.testing.assert_array_equal(a, a0)
    words = np.array(["clean", "toxic"])
    res = ModelBasedMetricTest(None, method="ppi", pos_label="toxic").test_labels(
        words[o_c],
        words[o_t],
        annotated_c=(words[a_c], words[r_c]),
        annotated_t=(words[a_t], words[r_t]),
    )
    assert res == ref
    # a metric model's classes: bool predictions, pos_label=True
    with pytest.warns(UserWarning, match="rarer real class"):
        constant = ModelBasedMetricTest(None, method="ppi", lam="auto").test_labels(
            np.zeros(50, int),
            o_t[:50],
            annotated_c=(np.zeros(5, int), r_c[:5]),
            annotated_t=(a_t[:5], r_t[:5]),
        )
    # one label everywhere: the annotated mean, whatever lam
    assert constant.lam_c == 0.0 and constant.rate_c == r_c[:5].mean()


@pytest.mark.parametrize("paired", [False])
def test_ppi_auto_warns_below_ten_of_the_rarer_class(paired):
    # PPI++'s tuned lam with fewer than 10 annotated items of the rarer real
    # class in either sample: up to 21% false positives unpaired
    # (benchmarks/sim_ppi_small.py, seed 0), so lam="auto" warns there and
    # gives ppi_py's PPI++ unchanged; lam=1 held its level and never warns
    rng = np.random.default_rng(3)
    o_c, o_t = rng.integers(0, 2, 500), rng.integers(0, 2, 500)
    r_c = np.r_[np.ones(10, int), np.zeros(90, int)]  # 10 positives of 100
    r_t = np.r_[np.ones(50, int), np.zeros(50, int)]
    # the metric model's labels of the annotated items: the real ones, 5 flipped
    o_c[:100], o_t[:100] = r_c, r_t
    o_c[[0, 20, 40, 60, 80]] ^= 1
    ann_c, ann_t = (o_c[:100], r_c), (o_t[:100], r_t)
    auto = ModelBasedMetricTest(None, method="ppi", lam="auto", paired=paired)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        at_ten = auto.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=ann_t)
        ModelBasedMetricTest(None, method="ppi", paired=paired).test_labels(
            o_c, o_t, annotated_c=(o_c[:100], r_c[1:].tolist() + [0]), annotated_t=ann_t
        )
    # 9 positives among 100 in C (T's count is 50): the warning names 9
    with pytest.warns(UserWarning, match=r"with 9 annotated item\(s\).*lam=1"):
        at_nine = auto.test_labels(
            o_c, o_t, annotated_c=(o_c[:100], r_c[1:].tolist() + [0]), annotated_t=ann_t
        )
    assert 0 < at_nine.lam_c < 1 and 0 < at_ten.lam_c < 1
    # the rarer class is the negative one here: 9 negatives of 100 in T
    with pytest.warns(UserWarning, match=r"with 9 annotated item\(s\)"):
        auto.test_labels(
            o_c,
            o_t,
            annotated_c=ann_c,
            annotated_t=(o_t[:100], np.r_[[0] * 9, [1] * 91]),
        )


def test_ppi_bad_input():
    o_c, o_t, ann_c, ann_t = _ppi_data(13, n_out=100, n_ann=20)
    ppi = ModelBasedMetricTest(None, method="ppi")
    with pytest.raises(ValueError, match=r"method='ppi' needs annotated_t=\(labels"):
        ppi.test_labels(o_c, o_t, annotated_c=ann_c)
    with pytest.raises(ValueError, match=r"annotated_c\[0\] has 1 label\(s\)"):
        ppi.test_labels(o_c, o_t, annotated_c=([1], [1]), annotated_t=ann_t)
    with pytest.raises(
        ValueError, match=r"annotated_c\[0\] has 20 samples but annotated_c\[1\] has 19"
    ):
        ppi.test_labels(
            o_c, o_t, annotated_c=(ann_c[0], ann_c[1][:-1]), annotated_t=ann_t
        )
    with pytest.raises(ValueError, match=r"annotated_t must be a pair \(labels, real"):
        ppi.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=(*ann_t, ann_t[0]))
    with pytest.raises(ValueError, match=r"annotated_t\[1\] contains NaN at row 0"):
        ppi.test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=(ann_t[0], [np.nan] * 20)
        )
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        ppi.test_labels(
            [0, 0], [0, 0], annotated_c=([0, 0], [0, 0]), annotated_t=([0, 0], [0, 0])
        )
    with pytest.raises(ValueError, match="must use the same labels as annotated_t"):
        ppi.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=(ann_t[0], ["a"] * 20))
    with pytest.raises(ValueError, match="holds strings"):
        strings = (np.array(["a", "b"])[ann_t[0]], np.array(["a", "b"])[ann_t[1]])
        ppi.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=strings)
    with pytest.raises(ValueError, match="same annotated inputs"):
        ModelBasedMetricTest(None, method="ppi", paired=True).test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=(ann_t[0][:10], ann_t[1][:10])
        )
    with pytest.raises(ValueError, match="paired=True needs one output"):
        ModelBasedMetricTest(None, method="ppi", paired=True).test_labels(
            o_c, o_t[:50], annotated_c=ann_c, annotated_t=ann_t
        )
    with pytest.raises(InvalidParameterError, match="'annotated_c' parameter"):
        ppi.test_labels(o_c, o_t, annotated_c=np.array(ann_c), annotated_t=ann_t)
    # labels outside a metric model's classes
    X = np.arange(40.0).reshape(20, 2)
    model = LogisticRegression().fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match=r"annotated_c\[1\] contains label\(s\) 7"):
        ModelBasedMetricTest(model, method="ppi").test(
            X, X, annotated_c=(X[:4], [0, 1, 7, 0]), annotated_t=(X[:4], [0, 1, 1, 0])
        )
    # wrong method / parameter combinations
    with pytest.raises(ValueError, match="does not fit on a separate annotated set"):
        ModelBasedMetricTest(model, method="ppi").fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="does not use precision and false omission"):
        ModelBasedMetricTest.from_rates(0.9, 0.1, method="ppi")
    with pytest.raises(InvalidParameterError, match="'method' parameter"):
        model_based_test_from_summary(
            0.1, 10, 0.2, 10, precision=0.9, false_omission_rate=0.1, method="ppi"
        )
    with pytest.raises(ValueError, match=r"lam=0.5 tunes method='ppi' only"):
        ModelBasedMetricTest.from_rates(0.9, 0.1, lam=0.5)
    with pytest.raises(InvalidParameterError, match="'lam' parameter"):
        ModelBasedMetricTest(None, method="ppi", lam=1.5).test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
        )
    with pytest.raises(ValueError, match="annotated_c is for method='ppi' only"):
        ModelBasedMetricTest.from_rates(0.9, 0.1).test_labels(
            o_c, o_t, annotated_c=ann_c
        )
    with pytest.raises(ValueError, match="annotated_t is for method='ppi' only"):
        ModelBasedMetricTest(model, method="goyal2023").fit(X, np.arange(20) % 2).test(
            X, X, annotated_t=(X, np.arange(20) % 2)
        )


@pytest.mark.slow
@pytest.mark.parametrize("paired", [False, True])
def test_ppi_coverage_when_errors_depend_on_the_real_label(paired):
    # fixed sensitivity 0.79 and false-positive rate 0.15: precision and FOR
    # shift with prevalence, which biases goyal2023 and delta, not PPI
    rng = np.random.default_rng(14)
    pi_c, pi_t, n_out, n_ann, reps = 0.076, 0.09, 2000, 100, 600
    rates = np.array([0.15, 0.79])
    covered = 0
    test = ModelBasedMetricTest(None, method="ppi", paired=paired)
    for _ in range(reps):
        u_c = rng.random(n_out)
        u_t = (
            np.where(rng.random(n_out) < 0.6, u_c, rng.random(n_out))
            if paired
            else (rng.random(n_out))
        )
        real_c, real_t = (u_c < pi_c).astype(int), (u_t < pi_t).astype(int)
        o_c = (rng.random(n_out) < rates[real_c]).astype(int)
        o_t = (rng.random(n_out) < rates[real_t]).astype(int)
        res = test.test_labels(
            o_c,
            o_t,
            annotated_c=(o_c[:n_ann], real_c[:n_ann]),
            annotated_t=(o_t[:n_ann], real_t[:n_ann]),
        )
        covered += (
            res.confidence_interval().low
            <= pi_t - pi_c
            <= res.confidence_interval().high
        )
    # 95% nominal; 600 replicates give a Monte-Carlo s.e. of 0.9%
    assert covered / reps >= 0.92


@pytest.mark.parametrize("lam", [True, False])
def test_ppi_rejects_bool_lam(lam):
    """A bool is a Real to Python; lam=True must not silently mean 1.0."""
    with pytest.raises(ValueError, match=r"'lam' parameter.* Got (True|False) instead"):
        ModelBasedMetricTest(None, method="ppi", lam=lam).test_labels(
            [0, 1, 1, 0],
            [1, 1, 0, 1],
            annotated_c=([0, 1], [0, 1]),
            annotated_t=([1, 0], [1, 1]),
        )


def test_ppi_is_the_default_and_the_paper_one_argument_away():
    assert ModelBasedMetricTest(None).method == "ppi"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 1))
    model = LogisticRegression().fit(X, X[:, 0] > 0)
    with pytest.raises(ValueError, match="method='goyal2023'"):
        ModelBasedMetricTest(model).fit(X, X[:, 0] > 0)
    paper = ModelBasedMetricTest(model, method="goyal2023").fit(X, X[:, 0] > 0.2)
    assert paper.precision_ > 0
    # from_rates takes precision and FOR: the paper's method by default
    assert ModelBasedMetricTest.from_rates(0.9, 0.1).method == "goyal2023"
    assert _bold().method == "goyal2023"


def test_result_intervals_at_any_level():
    res = _bold()
    assert res.statistic == res.effect  # goyal2023 centres on the observed effect
    assert res.confidence_interval() == res.confidence_interval(0.95)
    for deterministic in (False, True):
        narrow = res.confidence_interval(0.5, deterministic=deterministic)
        wide = res.confidence_interval(0.99, deterministic=deterministic)
        assert wide.low < narrow.low < res.effect < narrow.high < wide.high
    low, high = res.confidence_interval(deterministic=True)
    assert res.significant_deterministic == (not low <= 0 <= high)
    d = res.to_dict()
    assert d["confidence_interval"] == dict(
        zip(("low", "high"), res.confidence_interval(), strict=True)
    )
    assert d["method"] == "goyal2023" and d["n_c"] == BOLD["n"]


def _paired_sample(m, differ, seed=0):
    """Paired real and metric-model labels of ``m`` annotated inputs, the
    systems' real labels differing on ``differ`` of them, 300 outputs each."""
    rng = np.random.default_rng(seed)
    r_c = (np.arange(m) % 2).astype(int)
    r_t = r_c.copy()
    r_t[:differ] ^= 1
    o_c, o_t = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    o_c[:m], o_t[:m] = r_c, r_t
    o_c[:m:7] ^= 1  # the metric model errs on every 7th annotated input
    return o_c, o_t, (o_c[:m], r_c), (o_t[:m], r_t)


@pytest.mark.parametrize(
    "m, differ, few",
    [
        (75, 10, False),
        (75, 65, False),  # 10 agree: the rarer class of R_T - R_C != 0
        (75, 9, True),
        (75, 66, True),
        (74, 30, True),
        (200, 9, True),
        (200, 100, False),
    ],
)
def test_paired_ppi_auto_always_warns_with_its_measured_coverage(m, differ, few):
    # paired PPI++ covered a real effect in as few as 26.2% of data sets with
    # fewer than 75 annotated inputs or fewer than 10 on which the systems'
    # real labels differ, and 87.5% above both in held-back settings
    # (benchmarks/sim_ppi_paired.py, seed 0): it always warns, with the
    # number for the data's counts; lam=1 never warns
    o_c, o_t, ann_c, ann_t = _paired_sample(m, differ)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ModelBasedMetricTest(None, method="ppi", paired=True).test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
        )
    coverage = r"26\.2% with fewer than 75" if few else r"87\.5% even with 75"
    message = rf"with {m} annotated input\(s\), on {differ} of which.*{coverage}"
    auto = ModelBasedMetricTest(None, method="ppi", lam="auto", paired=True)
    with pytest.warns(UserWarning, match=message) as record:
        res = auto.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=ann_t)
    assert len(record) == 1 and "lam=1" in str(record[0].message)
    # the result is ppi_py's PPI++ all the same (one lam for the difference),
    # and the warning points at the caller's line
    assert res.lam_c == res.lam_t
    assert record[0].filename == __file__


def test_paired_ppi_auto_warning_counts_discordant_not_rarer_class():
    # 50 positives of 100 in each system and the same inputs: the unpaired rule
    # (rarer class >= 10) is met, but the systems differ on no input
    o_c, o_t, ann_c, ann_t = _paired_sample(100, 0)
    with pytest.warns(UserWarning, match=r"on 0 of which.*26\.2%"):
        ModelBasedMetricTest(None, method="ppi", lam="auto", paired=True).test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ModelBasedMetricTest(None, method="ppi", lam="auto").test_labels(
            o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
        )


def test_paired_ppi_auto_warns_through_test():
    # the same rule through test(), which runs the metric model
    from sklearn.dummy import DummyClassifier

    model = DummyClassifier(strategy="most_frequent").fit([[0], [1], [1]], [0, 1, 1])
    x = np.zeros((300, 1))
    real = np.r_[np.ones(30, int), np.zeros(30, int)]
    with pytest.warns(UserWarning, match=r"with 60 annotated input\(s\)"):
        ModelBasedMetricTest(model, method="ppi", lam="auto", paired=True).test(
            x, x, annotated_c=(x[:60], real), annotated_t=(x[:60], real)
        )


def _rectified_sample(m, departs):
    """Paired samples of ``m`` annotated inputs, the metric model's difference
    ``O_T - O_C`` departing from the real one on the first ``departs``."""
    o_c, o_t, (_, r_c), (_, r_t) = _paired_sample(m, m // 3)
    o_c, o_t = o_c.copy(), o_t.copy()
    o_c[:m], o_t[:m] = r_c, r_t
    o_c[:departs] ^= 1
    return o_c, o_t, (o_c[:m], r_c), (o_t[:m], r_t)


@pytest.mark.parametrize(
    "m, departs, warns",
    [(60, 0, True), (60, 1, True), (60, 2, False), (60, 58, False), (60, 59, True)],
)
def test_paired_ppi_warns_when_the_correction_rests_on_few_inputs(m, departs, warns):
    # paired lam=1 covered as little as 50.6% of a real effect in data sets
    # with e < 2 annotated inputs where O_T - O_C != R_T - R_C (or all but
    # e), and 92.3% or more elsewhere, in every group of
    # benchmarks/sim_ppi_paired.py (seed 0), a held-back one included
    o_c, o_t, ann_c, ann_t = _rectified_sample(m, departs)
    test = ModelBasedMetricTest(None, method="ppi", paired=True)
    if not warns:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            test.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=ann_t)
        return
    message = (
        rf"paired PPI \(lam=1\) with {m} annotated input\(s\), on {departs} of "
        r"which.*interval printed.*as few as 50\.6%, the others in 92\.3% or more"
        r".*Annotate more inputs"
    )
    with pytest.warns(UserWarning, match=message) as record:
        res = test.test_labels(o_c, o_t, annotated_c=ann_c, annotated_t=ann_t)
    assert len(record) == 1 and record[0].filename == __file__
    # the interval is classical PPI's all the same
    assert res.lam_c == res.lam_t == 1.0
    # unpaired, and with another lam, the rule was not measured: no warning
    for other in (dict(paired=False), dict(paired=True, lam=0.5)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ModelBasedMetricTest(None, method="ppi", **other).test_labels(
                o_c, o_t, annotated_c=ann_c, annotated_t=ann_t
            )
