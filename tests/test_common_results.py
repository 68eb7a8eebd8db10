"""Every result has the shape of its kind, ``summary()`` and ``to_dict()``.

A walk over every public result class, found through each room's
``__all__`` (``utils._discovery.all_public_names``): the frozen dataclasses
the functions return, and the classes with a ``to_dict`` (the posteriors).
Each is built here from a small real call, and a new result class without a
builder fails the suite. The shapes follow scipy.stats (STYLE.md, "Results
are dataclasses"):

- tests with an effect: ``statistic``, ``pvalue`` and a method
  ``confidence_interval(confidence_level)``, as ``TtestResult``;
- tests without one: ``statistic`` and ``pvalue``, and no interval at all;
- intervals of a score: the ``confidence_interval``, ``bootstrap_distribution``
  and ``standard_error`` fields of ``BootstrapResult``;
- Bayes results: ``p_h0``, ``p_h1``, ``decide(threshold)``, a ``posterior`` of
  B - A and ``credible_interval(confidence_level)``;
- posteriors: frozen distributions with ``interval(confidence)``.
"""

import dataclasses
import inspect
import json
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from sklearn_faithful.agreement import (
    agreement_confidence_interval,
    agreement_report,
    coder_diagnostics,
    compare_to_annotators,
)
from sklearn_faithful.battles import bradley_terry
from sklearn_faithful.calibration import (
    calibration_error_interval,
    calibration_test,
    corp_decomposition,
)
from sklearn_faithful.comparison import (
    BetaPosterior,
    F1Posterior,
    MacroPosterior,
    bayes_test,
    bayesian_correlated_ttest,
    blocked_mx2cv_ttest,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    paired_bayes_test,
    paired_ttest_5x2cv,
)
from sklearn_faithful.eval_logs import (
    compare_runs,
    join_runs,
    prediction_powered_mean,
    rank_intervals,
    suite_scores,
)
from sklearn_faithful.gate import AccuracyRegressionTest, plan_paired_comparison
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    cochrans_q_test,
    kappa_confidence_interval,
    mcnemar_test,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)
from sklearn_faithful.model_based import (
    ModelBasedMetricTest,
    model_based_test_from_summary,
)
from sklearn_faithful.model_selection import BlockRegularized3x2CV
from sklearn_faithful.multi_dataset import bayesian_signed_rank_test, friedman_test
from sklearn_faithful.utils import ConfidenceInterval, CredibleInterval
from sklearn_faithful.utils._discovery import all_public_names
from sklearn_faithful.utils._results import DECISIONS

N = 80
_RNG = np.random.default_rng(0)
Y = _RNG.integers(0, 2, N)
A = np.where(_RNG.random(N) < 0.7, Y, 1 - Y)
B = np.where(_RNG.random(N) < 0.85, Y, 1 - Y)
COUNTS_A = np.array([[40, 10, 12], [38, 12, 13], [41, 9, 11]] * 2)
COUNTS_B = np.array([[44, 8, 8], [42, 10, 9], [44, 8, 9]] * 2)
SPLIT_A = np.array([0.80, 0.82, 0.79, 0.81, 0.83, 0.80, 0.78, 0.81, 0.80, 0.82])
SPLIT_B = np.array([0.84, 0.83, 0.82, 0.85, 0.84, 0.83, 0.82, 0.82, 0.83, 0.86])
SEED = dict(n_resamples=499, random_state=0)
# probabilities of the positive class, near-calibrated for Y
PROBA = np.clip(0.25 + 0.5 * Y + _RNG.normal(0, 0.1, N), 0, 1)


def _regression_checks():
    ref = (np.random.default_rng(1).random(400) < 0.9).astype(float)
    new = (np.random.default_rng(2).random(400) < 0.87).astype(float)
    return [
        AccuracyRegressionTest().set_reference(ref).check(new),
        AccuracyRegressionTest(paired=False).set_reference(ref).check(new),
        AccuracyRegressionTest(higher_is_better=False).set_reference(ref).check(new),
    ]


def _model_based():
    labels_c = (np.random.default_rng(3).random(60) < 0.3).astype(int)
    labels_t = (np.random.default_rng(4).random(60) < 0.5).astype(int)
    return [
        model_based_test_from_summary(
            0.1, 100, 0.2, 100, precision=0.9, false_omission_rate=0.1
        ),
        ModelBasedMetricTest(None).test_labels(
            labels_c,
            labels_t,
            annotated_c=(labels_c[:20], labels_c[:20] ^ (np.arange(20) % 7 == 0)),
            annotated_t=(labels_t[:20], labels_t[:20] ^ (np.arange(20) % 5 == 0)),
        ),
    ]


def _runs():
    logs = {
        name: {"id": np.arange(N)[::-1], "score": y[::-1], "cluster": np.arange(N) % 40}
        for name, y in (("A", A), ("B", B), ("Y", Y))
    }
    table = join_runs(logs, groups_field="cluster")
    return [
        compare_runs({"A": A, "B": B}, **SEED),
        compare_runs(table, correction="bh", interval="percentile", **SEED),
        compare_runs(table, baseline="Y", correction=None, **SEED),
        compare_runs({"A": A, "B": A}, method="sign", **SEED),
    ]


def _judged():
    human = np.where(np.arange(N) < 20, Y, np.nan)
    return [
        prediction_powered_mean(A, human),
        prediction_powered_mean(A, human, lam="auto", confidence_level=0.9),
    ]


# Each result class: (kind, a builder of one or more instances from real calls).
BUILDERS = {
    "AgreementReport": (
        "report",
        lambda: [
            agreement_report(np.stack([Y, A, B]), **SEED),
            agreement_report(np.stack([Y, A]), level_of_measurement="ordinal", **SEED),
        ],
    ),
    "CoderDiagnostics": (
        "report",
        lambda: [
            coder_diagnostics(np.stack([Y, A, B, 1 - Y]), coder_names=list("abcd"))
        ],
    ),
    "AgreementInterval": (
        "score interval",
        lambda: [
            agreement_confidence_interval(np.stack([Y, A, B]), **SEED),
            agreement_confidence_interval(
                np.stack([Y, A, B]), coefficient="gwet_ac", interval="bca", **SEED
            ),
            agreement_confidence_interval(
                np.stack([Y, A, B]), method="krippendorff", **SEED
            ),
            agreement_confidence_interval(
                np.stack([Y, A]), coefficient="cohen_kappa", **SEED
            ),
        ],
    ),
    "AnnotatorComparisonResult": (
        "effect",
        lambda: [
            compare_to_annotators(np.stack([Y, A]), B, **SEED),
            compare_to_annotators(
                np.stack([Y, A, B]),
                1 - A,
                coefficient="krippendorff_alpha",
                confidence_level=0.9,
                **SEED,
            ),
        ],
    ),
    "BootstrapIntervalResult": (
        "score interval",
        lambda: [
            bootstrap_confidence_interval(Y, B, metric="f1", **SEED),
            bootstrap_confidence_interval(Y, B, method="bca", **SEED),
            kappa_confidence_interval(Y, B, **SEED),
        ],
    ),
    "PairedTestResult": (
        "effect",
        lambda: [
            paired_bootstrap_test(Y, A, B, **SEED),
            paired_permutation_test(Y, A, B, alternative="greater", **SEED),
        ],
    ),
    "SignTestResult": ("effect", lambda: [sign_test(Y, A, B)]),
    "CalibrationErrorResult": (
        "score interval",
        lambda: [
            calibration_error_interval(Y, PROBA, **SEED),
            calibration_error_interval(Y, PROBA, method="debiased", **SEED),
        ],
    ),
    "CalibrationTestResult": (
        "test",
        lambda: [
            calibration_test(Y, PROBA, **SEED),
            calibration_test(Y, PROBA, test="spiegelhalter"),
        ],
    ),
    "CorpDecompositionResult": (
        "report",
        lambda: [
            corp_decomposition(Y, PROBA),
            corp_decomposition(Y, PROBA, scoring="log_loss"),
        ],
    ),
    "RunComparisonResult": ("report", _runs),
    "BradleyTerryResult": (
        "report",
        lambda: [
            bradley_terry(
                [
                    ("x", "y", "a"),
                    ("y", "z", "a"),
                    ("z", "x", "tie"),
                    ("y", "x", "a"),
                    ("z", "y", "b"),
                    ("x", "z", "b"),
                ]
                * 3,
                ties=ties,
                **SEED,
            )
            for ties in ("half", "davidson")
        ],
    ),
    "RankIntervalsResult": (
        "report",
        lambda: [
            rank_intervals({"A": A, "B": B, "Y": Y}, **SEED),
            rank_intervals({"A": A, "B": A}, confidence_level=0.8, **SEED),
        ],
    ),
    "SuiteScoresResult": (
        "report",
        lambda: [
            suite_scores({"A": A, "B": B, "Y": Y}, tasks=np.arange(len(A)) % 3, **SEED),
            suite_scores(
                {"A": A}, tasks=np.arange(len(A)) % 2, weighting="item", **SEED
            ),
        ],
    ),
    "RunTable": (
        "report",
        lambda: [
            join_runs(
                {
                    "A": {"id": [1, 2, 2], "s": [1, 0, 1]},
                    "B": {"id": [2, 1], "s": [1, 1]},
                },
                score_field="s",
                on_duplicate="repeats",
            )
        ],
    ),
    "PredictionPoweredMeanResult": ("score interval", _judged),
    "McNemarTestResult": (
        "effect",
        lambda: [mcnemar_test(Y, A, B, method=m) for m in ("exact", "asymptotic")],
    ),
    "CochransQTestResult": ("test", lambda: [cochrans_q_test(Y, [A, B, Y])]),
    "RegressionCheckResult": ("effect", _regression_checks),
    "PairedPlanResult": (
        "report",
        lambda: [
            plan_paired_comparison({"A": A, "B": B}, 0.1),
            plan_paired_comparison({"A": A, "B": B, "Y": Y}, groups=np.arange(N) // 4),
        ],
    ),
    "CVTtestResult": (
        "effect",
        lambda: [
            corrected_resampled_ttest(SPLIT_A, SPLIT_B, n_train=90, n_test=10),
            paired_ttest_5x2cv(SPLIT_A, SPLIT_B, alternative="greater"),
            blocked_mx2cv_ttest(SPLIT_A[:6], SPLIT_B[:6]),
        ],
    ),
    "CVFtestResult": ("test", lambda: [combined_ftest_5x2cv(SPLIT_A, SPLIT_B)]),
    "ModelBasedTestResult": ("effect", _model_based),
    "BayesTestResult": (
        "bayes",
        lambda: [
            bayes_test(COUNTS_A, COUNTS_B, confidence_level=0.9),
            bayes_test(
                COUNTS_A,
                COUNTS_B,
                rope=0.01,
                method="monte-carlo",
                n_draws=4000,
                random_state=0,
            ),
            bayes_test(
                COUNTS_A[:, None].repeat(2, axis=1),
                COUNTS_B[:, None].repeat(2, axis=1),
                average="macro",
                n_draws=4000,
                random_state=0,
            ),
        ],  # fmt: skip
    ),
    "PairedBayesTestResult": (
        "bayes",
        lambda: [paired_bayes_test(COUNTS_A, COUNTS_B, rope=0.01)],
    ),
    "CorrelatedTTestResult": (
        "bayes",
        lambda: [bayesian_correlated_ttest(SPLIT_A, SPLIT_B, n_train=90, n_test=10)],
    ),
    "BayesianSignedRankTestResult": (
        "bayes",
        lambda: [
            bayesian_signed_rank_test(SPLIT_A, SPLIT_B, n_samples=2000, random_state=0)
        ],
    ),
    "FriedmanTestResult": (
        "test",
        lambda: [friedman_test(np.random.default_rng(5).random((6, 3)))],
    ),
    "BlockBalance": (
        "report",
        lambda: [
            BlockRegularized3x2CV(random_state=0).block_balance(np.zeros((N, 1)), Y)
        ],
    ),
    "BetaPosterior": ("posterior", lambda: [BetaPosterior(30.0, 8.0)]),
    "F1Posterior": ("posterior", lambda: [F1Posterior(20.0, 81.0)]),
    "MacroPosterior": (
        "posterior",
        lambda: [MacroPosterior([F1Posterior(20.0, 81.0)] * 3, n_draws=5000)],
    ),
}


def _is_result(obj):
    """A result: a dataclass or a class with ``to_dict``, not an estimator."""
    return (
        inspect.isclass(obj)
        and (dataclasses.is_dataclass(obj) or hasattr(obj, "to_dict"))
        and not issubclass(obj, BaseEstimator)
    )


RESULTS = sorted(
    name for name, (_, obj) in all_public_names().items() if _is_result(obj)
)


def test_every_result_class_has_a_builder():
    missing = sorted(set(RESULTS) - set(BUILDERS))
    assert not missing, f"add a builder to tests/test_common_results.py: {missing}"
    assert not set(BUILDERS) - set(RESULTS), "a builder of no public result"


def _instances(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small data: too few resamples, ...
        instances = BUILDERS[name][1]()
    assert instances and all(type(res).__name__ == name for res in instances)
    return instances


def _plain(value):
    """Whether ``value`` is made of JSON's own types, with no NaN or infinity."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, float):
        return bool(np.isfinite(value))
    return value is None or type(value) in (str, int, bool)


@pytest.mark.parametrize("name", RESULTS)
def test_summary_is_text(name):
    for res in _instances(name):
        text = res.summary()
        assert isinstance(text, str) and text.strip()
        if dataclasses.is_dataclass(res):
            assert str(res) == text
            assert repr(res).startswith(f"{name}(")


@pytest.mark.parametrize("name", RESULTS)
def test_to_dict_is_json_and_round_trips(name):
    for res in _instances(name):
        d = res.to_dict()
        assert _plain(d), d
        assert json.loads(json.dumps(d, allow_nan=False)) == d
        if dataclasses.is_dataclass(res):
            assert d["result"] == name
            # every field the dict keeps is the field's value, made plain
            for key, value in d.items():
                if key in {f.name for f in dataclasses.fields(res)}:
                    field_value = getattr(res, key)
                    if isinstance(field_value, tuple) and hasattr(field_value, "low"):
                        assert value == _interval_dict(field_value)
                    elif isinstance(field_value, float) and np.isfinite(field_value):
                        assert value == field_value
                    elif isinstance(field_value, str | bool | int):
                        assert value == field_value


def _interval_dict(interval):
    def plain(v):  # a bound, or the bounds of a vector statistic
        if np.ndim(v):
            return [plain(x) for x in v]
        return float(v) if np.isfinite(v) else None

    return {key: plain(v) for key, v in zip(("low", "high"), interval, strict=True)}


@pytest.mark.parametrize("name", RESULTS)
def test_results_are_frozen(name):
    for res in _instances(name):
        if not dataclasses.is_dataclass(res):
            continue  # posteriors mirror scipy's frozen distributions
        field = dataclasses.fields(res)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(res, field, None)


def _interval_methods(res):
    return [
        getattr(res, name)
        for name in ("confidence_interval", "credible_interval")
        if callable(getattr(res, name, None))
    ]


@pytest.mark.parametrize("name", RESULTS)
def test_interval_methods_take_a_level_and_return_one_interval(name):
    for res in _instances(name):
        for method in _interval_methods(res):
            assert "confidence_level" in inspect.signature(method).parameters
            kind = CredibleInterval if method.__name__.startswith("cred") else None
            intervals = [method(confidence_level=level) for level in (0.5, 0.9, 0.99)]
            for interval in intervals:
                assert isinstance(interval, kind or ConfidenceInterval)
                assert len(interval) == 2 and interval.low <= interval.high
                assert all(isinstance(bound, float) for bound in interval)
            # nested, and wider with the level (one-sided ones on one side)
            for narrow, wide in zip(intervals, intervals[1:], strict=False):
                assert wide.low <= narrow.low and wide.high >= narrow.high
                assert wide.low < narrow.low or wide.high > narrow.high
            # the default is the level of the call (0.95 where it has none)
            level = getattr(res, "confidence_level", 0.95)
            assert method() == method(level)
            # to_dict holds it at that level
            key = method.__name__
            assert res.to_dict()[key] == _interval_dict(method(level))


@pytest.mark.parametrize("name", RESULTS)
def test_one_shape_per_kind(name):
    kind = BUILDERS[name][0]
    for res in _instances(name):
        if kind in ("effect", "test"):
            assert isinstance(res.statistic, float) and isinstance(res.pvalue, float)
            assert 0 <= res.pvalue <= 1
            has_interval = callable(getattr(res, "confidence_interval", None))
            assert has_interval == (kind == "effect")
            assert not hasattr(res, "credible_interval")
        elif kind == "score interval":
            assert isinstance(res.confidence_interval, ConfidenceInterval)
            assert isinstance(res.statistic, float)
            assert isinstance(res.standard_error, float)
            if hasattr(res, "bootstrap_distribution"):  # else a normal interval
                assert isinstance(res.bootstrap_distribution, np.ndarray)
                assert res.standard_error == pytest.approx(
                    np.nanstd(res.bootstrap_distribution, ddof=1)
                )
                assert "bootstrap_distribution" not in res.to_dict()
        elif kind == "bayes":
            assert 0 <= res.p_h0 <= 1 and res.p_h1 == pytest.approx(1 - res.p_h0)
            assert res.decide(0.95) in DECISIONS and res.decide(0.6) in DECISIONS
            low, high = res.credible_interval()
            assert low <= res.posterior.mean() <= high  # the difference B - A
            assert not hasattr(res, "confidence_interval")
            assert not hasattr(res, "interval")  # one interval, from the method
        elif kind == "posterior":
            low, high = res.interval(0.9)
            assert 0 <= low < high <= 1
            assert res.to_dict()["distribution"] == name
        else:
            assert kind == "report"
