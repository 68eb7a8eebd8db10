"""A common suite of scalings: scale-free statistics stay exact at any magnitude.

Every public name of the package (found through each room's ``__all__``) is
either walked here or excused in ``NOT_SCALE_FREE`` with the reason (a new
name without either fails the suite, as in ``test_common_inputs.py``). A
walked case computes a result from continuous data (scores, values, ratings)
multiplied by a factor ``c``, from subnormal numbers to numbers near the
largest float, and, where the statistic is shift-invariant, shifted by a
large constant. Parameters in the data's units (ropes, effects, ``sigma``,
``theta``, reference means, value domains) are scaled with the data. Then:

- coefficients, statistics, p-values and posterior probabilities equal the
  unscaled ones (``rtol=1e-9``);
- fields in the data's units (means, differences, standard errors,
  intervals) are the unscaled ones times ``c`` (plus the shift for
  locations);
- no warning is raised on the way (warnings are errors here).

The data are multiples of a power of two, so that the shifted data hold the
same numbers exactly, and the scalings change them by one rounding at most.
"""

import dataclasses
import json
import math
import re
import types
import warnings

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_error

from sklearn_faithful.cli._main import main
from sklearn_faithful.utils._discovery import all_public_names

_NAMES = all_public_names()
sf = types.SimpleNamespace(**{name: obj for name, (_, obj) in _NAMES.items()})

RTOL = 1e-9
SEED = dict(n_resamples=99, random_state=0)
# the factors: subnormal numbers, the ends of the float range, and data whose
# largest magnitude is 1e307 (summing a few of those overflows)
SCALES = {
    "1e-310": 1e-310,
    "1e-300": 1e-300,
    "1e-150": 1e-150,
    "1e150": 1e150,
    "1e300": 1e300,
    "near max": "max",
}
# a shift that keeps the data below exact (multiples of 2**-10 under 2**21)
SHIFT = 2.0**20


def _dyadic(values, bits=10):
    return np.round(np.asarray(values) * 2**bits) / 2**bits


_rng = np.random.default_rng(0)
# per-split scores of two models on the 10 splits of an m x 2 CV
SPLIT_A = _dyadic(_rng.uniform(0.6, 0.9, 10))
SPLIT_B = SPLIT_A + _dyadic(_rng.normal(0.02, 0.03, 10))
# scores of 4 methods on 8 data sets
BENCHMARK = _dyadic(_rng.uniform(0.6, 0.9, (8, 4)))
# per-item scores of three runs on the same 40 items
ITEMS = _dyadic(_rng.uniform(0, 1, 40))
ITEMS_B = ITEMS + _dyadic(_rng.normal(0.05, 0.1, 40))
ITEMS_C = ITEMS - _dyadic(_rng.normal(0.05, 0.1, 40))
# 3 coders x 100 units of ratings 1..5, mostly agreeing, a few missing
_truth = _rng.integers(1, 6, 100)
RATINGS = np.stack(
    [
        np.where(_rng.random(100) < 0.7, _truth, _rng.integers(1, 6, 100))
        for _ in range(3)
    ]
).astype(float)
RATINGS[0, 3] = RATINGS[2, 7] = np.nan
MODEL_RATINGS = np.where(_rng.random(100) < 0.7, _truth, _rng.integers(1, 6, 100))
DOMAIN = np.arange(1.0, 6.0)
# a judge's ratings of 600 items, people's of the first 300
JUDGE = _dyadic(_rng.uniform(0, 5, 600), 2)
HUMAN = np.where(
    np.arange(600) < 300,
    np.clip(JUDGE + _dyadic(_rng.normal(0, 1, 600), 2), 0, 5),
    np.nan,
)
# weighted counts (sums of sample weights) of 6 splits: TP, FP, FN
WEIGHTED_A = (
    np.array([[50, 5, 8], [48, 7, 6], [52, 4, 9], [47, 6, 7], [51, 5, 5], [49, 8, 6]])
    / 4
)
WEIGHTED_B = WEIGHTED_A + np.array([[2, -1, -1], [1, -1, 0], [1, 0, -1]] * 2) / 4


@dataclasses.dataclass
class Case:
    """A call ``call(c, s)`` on data ``(x + s) * c``; its result's fields.

    ``units``: a pattern of the fields in the data's units (scaled by ``c``);
    ``location``: those that also move with a shift (means, thresholds);
    ``shift``: whether the statistic is shift-invariant (else not shifted);
    ``data``: the arrays whose largest magnitude goes to 1e307 "near max";
    ``refused``: ``(parameter, bound)`` when data beyond ``bound`` get an
    error naming the parameter, by design; ``shift_rtol``: the tolerance of
    the shifted data, where a result keeps a rounded summary of them.
    """

    call: object
    units: str = r"(?!)"
    location: str = r"(?!)"
    shift: bool = True
    data: tuple = ()
    refused: tuple = None
    shift_rtol: float = RTOL


def _fields(result):
    """The comparable leaves of a result, by path."""
    out = {}

    def walk(value, path):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                if f.name != "posterior":  # an object of the other fields
                    walk(getattr(value, f.name), f"{path}.{f.name}")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}[{key!r}]")
        elif isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")
        elif value is None or isinstance(value, (str, bool)):
            out[path] = value
        elif hasattr(value, "_fields"):  # an interval, a named tuple
            walk(dict(zip(value._fields, value, strict=True)), path)
        else:
            out[path] = np.asarray(value, dtype=float)

    walk(result, "")
    return out


def _gate(c, s, **params):
    theta, sigma = 0.05 * c, params.pop("sigma", None)
    gate = sf.AccuracyRegressionTest(
        theta=theta, sigma=None if sigma is None else sigma * c, **params
    )
    return gate.set_reference((ITEMS_B + s) * c).check((ITEMS + s) * c)


def _saved_gate(c, s, tmp_path):
    path = tmp_path / "gate.json"
    gate = sf.AccuracyRegressionTest(theta=0.05 * c).set_reference((ITEMS_B + s) * c)
    gate.save(path)
    return sf.AccuracyRegressionTest.load(path).check((ITEMS + s) * c)


def _critical_difference(c, s):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        display = sf.CriticalDifferenceDisplay.from_scores((BENCHMARK + s) * c, ax=ax)
    finally:
        plt.close(fig)
    return display.average_ranks, display.critical_difference


def _join(c, s):
    logs = {
        name: {"id": np.arange(x.size), "score": (x + s) * c}
        for name, x in (("A", ITEMS), ("B", ITEMS_B))
    }
    return sf.join_runs(logs).scores


_PPI = r"\.(statistic|confidence_interval.*|judge_mean\w*|human_mean\w*)$"
_RUNS = r"\.runs\[\d+\]\['(mean|low|high)'\]"
_T_TEST = r"\.(estimate|standard_error|mean_difference)$"
_SPLITS = (SPLIT_A, SPLIT_B)
_CV_RESULT = (
    r"\.(difference|scale|mean_a|mean_b|rope|estimate|standard_error"
    r"|mean_difference|scores_a|scores_b)$"
)

_HOLDOUT = (
    r"\.(statistic|confidence_interval.*|bootstrap_distribution|"
    r"null_distribution|standard_error)$"
)

CASES = {
    # comparison: tests on per-split scores
    "corrected_resampled_ttest": Case(
        lambda c, s: sf.corrected_resampled_ttest(
            (SPLIT_A + s) * c, (SPLIT_B + s) * c, n_train=90, n_test=10
        ),
        units=_T_TEST,
        data=_SPLITS,
    ),
    "paired_ttest_5x2cv": Case(
        lambda c, s: sf.paired_ttest_5x2cv((SPLIT_A + s) * c, (SPLIT_B + s) * c),
        units=_T_TEST,
        data=_SPLITS,
    ),
    "combined_ftest_5x2cv": Case(
        lambda c, s: sf.combined_ftest_5x2cv((SPLIT_A + s) * c, (SPLIT_B + s) * c),
        units=r"\.mean_difference",
        data=_SPLITS,
    ),
    "blocked_mx2cv_ttest": Case(
        lambda c, s: sf.blocked_mx2cv_ttest((SPLIT_A + s) * c, (SPLIT_B + s) * c),
        units=_T_TEST,
        data=_SPLITS,
    ),
    "bayesian_correlated_ttest": Case(
        lambda c, s: sf.bayesian_correlated_ttest(
            (SPLIT_A + s) * c, (SPLIT_B + s) * c, n_train=50, n_test=50, rope=0.01 * c
        ),
        units=r"\.(difference|scale|mean_a|mean_b|rope)$",
        location=r"\.(mean_a|mean_b)$",
        data=_SPLITS,
    ),
    "ModelComparison.from_scores": Case(
        lambda c, s: (
            sf.ModelComparison.from_scores(
                {"a": (SPLIT_A + s) * c, "b": (SPLIT_B + s) * c}, n_train=50, n_test=50
            ).results_
        ),
        units=_CV_RESULT,
        data=_SPLITS,
    ),
    "ModelComparison.from_scores: bayesian, rope": Case(
        lambda c, s: (
            sf.ModelComparison.from_scores(
                {"a": (SPLIT_A + s) * c, "b": (SPLIT_B + s) * c},
                n_train=50,
                n_test=50,
                test="bayesian",
                rope=0.01 * c,
            ).results_
        ),
        units=_CV_RESULT,
        location=r"\.(mean_a|mean_b|scores_a|scores_b)$",
        data=_SPLITS,
    ),
    "paired_bayes_test: weighted counts": Case(
        lambda c, s: sf.paired_bayes_test(WEIGHTED_A * c, WEIGHTED_B * c),
        shift=False,
        data=(WEIGHTED_A, WEIGHTED_B),
        refused=("counts_a", 2**53),  # not exact as doubles
    ),
    # multi_dataset: ranks and signed differences over data sets
    "friedman_test": Case(
        lambda c, s: sf.friedman_test((BENCHMARK + s) * c), data=(BENCHMARK,)
    ),
    "CriticalDifferenceDisplay.from_scores": Case(
        _critical_difference, data=(BENCHMARK,)
    ),
    "bayesian_signed_rank_test": Case(
        lambda c, s: sf.bayesian_signed_rank_test(
            (SPLIT_A + s) * c,
            (SPLIT_B + s) * c,
            rope=0.01 * c,
            n_samples=2000,
            random_state=0,
        ),
        units=r"\.(rope|mean_difference|differences)$",
        data=_SPLITS,
    ),
    "bayesian_signed_rank_test: signs mixed": Case(
        lambda c, s: sf.bayesian_signed_rank_test(
            (SPLIT_A - 0.75 + s) * c,
            (0.75 - SPLIT_B + s) * c,
            rope=0.01 * c,
            n_samples=2000,
            random_state=0,
        ),
        units=r"\.(rope|mean_difference|differences)$",
        data=(SPLIT_A - 0.75, 0.75 - SPLIT_B),
    ),
    # gate: per-item scores, sigma and theta in the scores' units
    "estimate_sigma": Case(
        lambda c, s: sf.estimate_sigma((ITEMS + s) * c), units="", data=(ITEMS,)
    ),
    "minimum_detectable_effect": Case(
        lambda c, s: sf.minimum_detectable_effect(0.3 * c, 100), units="", shift=False
    ),
    "minimum_detectable_effect: array n": Case(
        lambda c, s: sf.minimum_detectable_effect(0.3 * c, [10, 100, 1000]),
        units="",
        shift=False,
    ),
    "regression_threshold": Case(
        lambda c, s: sf.regression_threshold((0.9 + s) * c, 0.3 * c, 100),
        units="",
        location="",
    ),
    "required_sample_size": Case(
        lambda c, s: sf.required_sample_size(0.3 * c, 0.02 * c), shift=False
    ),
    "plan_paired_comparison": Case(
        lambda c, s: sf.plan_paired_comparison(
            {"A": (ITEMS + s) * c, "B": (ITEMS_B + s) * c, "C": (ITEMS_C + s) * c},
            0.05 * c,
            groups=np.arange(40) // 4,
        ),
        units=r"(\.(delta|difference|sd_difference|minimum_detectable_effect)"
        r"|\['(difference|sd_difference|minimum_detectable_effect)'\])$",
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    "paired_sample_size": Case(
        lambda c, s: sf.paired_sample_size(0.05 * c, sd_difference=0.3 * c),
        shift=False,
    ),
    "paired_minimum_detectable_effect": Case(
        lambda c, s: sf.paired_minimum_detectable_effect(100, sd_difference=0.3 * c),
        units="",
        shift=False,
    ),
    "required_sample_size: table": Case(
        lambda c, s: sf.required_sample_size(0.3 * c, 0.02 * c, return_table=True),
        units=r"\['theta'\]",
        shift=False,
    ),
    "AccuracyRegressionTest": Case(
        lambda c, s: _gate(c, s),
        units=r"\.(threshold|observed_mean|reference_mean|effect|standard_error)$",
        location=r"\.(threshold|observed_mean|reference_mean)$",
        data=(ITEMS, ITEMS_B),
    ),
    "AccuracyRegressionTest: unpaired": Case(
        lambda c, s: _gate(c, s, paired=False),
        # the unpaired gate keeps the reference's mean, rounded at 2**20: the
        # effect of a few 1e-2 comes out within about 1e-9 of its value
        shift_rtol=1e-7,
        units=r"\.(threshold|observed_mean|reference_mean|effect|standard_error)$",
        location=r"\.(threshold|observed_mean|reference_mean)$",
        data=(ITEMS, ITEMS_B),
    ),
    "AccuracyRegressionTest: unpaired, sigma": Case(
        lambda c, s: _gate(c, s, paired=False, sigma=0.4),
        # the unpaired gate keeps the reference's mean, rounded at 2**20: the
        # effect of a few 1e-2 comes out within about 1e-9 of its value
        shift_rtol=1e-7,
        units=r"\.(threshold|observed_mean|reference_mean|effect|standard_error)$",
        location=r"\.(threshold|observed_mean|reference_mean)$",
        data=(ITEMS, ITEMS_B),
    ),
    "AccuracyRegressionTest: saved and loaded": Case(
        _saved_gate,
        units=r"\.(threshold|observed_mean|reference_mean|effect|standard_error)$",
        location=r"\.(threshold|observed_mean|reference_mean)$",
        data=(ITEMS, ITEMS_B),
    ),
    "AccuracyRegressionTest.plan": Case(
        lambda c, s: sf.AccuracyRegressionTest(theta=0.05 * c, sigma=0.4 * c).plan(),
        shift=False,
    ),
    # holdout: a regression metric of continuous predictions, in the data's
    # units (the statistic, intervals, distributions and standard error)
    "bootstrap_confidence_interval: mean_absolute_error": Case(
        lambda c, s: sf.bootstrap_confidence_interval(
            (ITEMS + s) * c, (ITEMS_B + s) * c, metric=mean_absolute_error, **SEED
        ),
        units=_HOLDOUT,
        data=(ITEMS, ITEMS_B),
    ),
    "bootstrap_confidence_interval: bca": Case(
        lambda c, s: sf.bootstrap_confidence_interval(
            (ITEMS + s) * c,
            (ITEMS_B + s) * c,
            metric=mean_absolute_error,
            method="bca",
            **SEED,
        ),
        units=_HOLDOUT,
        data=(ITEMS, ITEMS_B),
    ),
    "paired_bootstrap_test: mean_absolute_error": Case(
        lambda c, s: sf.paired_bootstrap_test(
            (ITEMS + s) * c,
            (ITEMS_B + s) * c,
            (ITEMS_C + s) * c,
            metric=mean_absolute_error,
            **SEED,
        ),
        units=_HOLDOUT,
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    "paired_permutation_test: mean_absolute_error": Case(
        lambda c, s: sf.paired_permutation_test(
            (ITEMS + s) * c,
            (ITEMS_B + s) * c,
            (ITEMS_C + s) * c,
            metric=mean_absolute_error,
            **SEED,
        ),
        units=_HOLDOUT,
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    # eval_logs: per-item scores of runs
    "compare_runs": Case(
        lambda c, s: sf.compare_runs(
            {"A": (ITEMS + s) * c, "B": (ITEMS_B + s) * c, "C": (ITEMS_C + s) * c},
            **SEED,
        ),
        units=_RUNS
        + r"|\['standard_error'\]|\.pairs\[\d+\]\['(difference|low|high)'\]",
        location=_RUNS,
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    "rank_intervals": Case(
        lambda c, s: sf.rank_intervals(
            {"A": (ITEMS + s) * c, "B": (ITEMS_B + s) * c, "C": (ITEMS_C + s) * c},
            **SEED,
        ),
        units=r"\.ranks\[\d+\]\['mean'\]",
        location=r"\.ranks\[\d+\]\['mean'\]",
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    "suite_scores": Case(
        lambda c, s: sf.suite_scores(
            {"A": (ITEMS + s) * c, "B": (ITEMS_B + s) * c, "C": (ITEMS_C + s) * c},
            tasks=np.arange(40) % 3,
            **SEED,
        ),
        units=r"\.runs\[\d+\]\['(score|low|high|standard_error)'\]"
        r"|\.pairs\[\d+\]\['(difference|low|high)'\]|\.tasks\[\d+\]\['scores'\]",
        location=r"\.runs\[\d+\]\['(score|low|high)'\]|\.tasks\[\d+\]\['scores'\]",
        data=(ITEMS, ITEMS_B, ITEMS_C),
    ),
    "compare_runs: bootstrap, bca": Case(
        lambda c, s: sf.compare_runs(
            {"A": (ITEMS + s) * c, "B": (ITEMS_B + s) * c},
            method="bootstrap",
            interval="bca",
            **SEED,
        ),
        units=_RUNS
        + r"|\['standard_error'\]|\.pairs\[\d+\]\['(difference|low|high)'\]",
        location=_RUNS,
        data=(ITEMS, ITEMS_B),
    ),
    "join_runs": Case(_join, units="", location="", data=(ITEMS, ITEMS_B)),
    "prediction_powered_mean": Case(
        lambda c, s: sf.prediction_powered_mean((JUDGE + s) * c, (HUMAN + s) * c),
        units=_PPI + r"|\.standard_error$",
        location=_PPI,
        data=(JUDGE, HUMAN),
    ),
    "prediction_powered_mean: lam auto": Case(
        lambda c, s: sf.prediction_powered_mean(
            (JUDGE + s) * c, (HUMAN + s) * c, lam="auto"
        ),
        units=_PPI + r"|\.standard_error$",
        location=_PPI,
        data=(JUDGE, HUMAN),
    ),
    # agreement: coefficients of ratings
    "krippendorff_alpha": Case(
        lambda c, s: sf.krippendorff_alpha(
            (RATINGS + s) * c, level_of_measurement="interval"
        ),
        data=(RATINGS,),
    ),
    "krippendorff_alpha: ratio": Case(
        lambda c, s: sf.krippendorff_alpha(RATINGS * c, level_of_measurement="ratio"),
        shift=False,
        data=(RATINGS,),
    ),
    "krippendorff_alpha: ordinal": Case(
        lambda c, s: sf.krippendorff_alpha(
            (RATINGS + s) * c, level_of_measurement="ordinal"
        ),
        data=(RATINGS,),
    ),
    "krippendorff_alpha: nominal": Case(
        lambda c, s: sf.krippendorff_alpha((RATINGS + s) * c), data=(RATINGS,)
    ),
    "krippendorff_alpha: interval, value_domain": Case(
        lambda c, s: sf.krippendorff_alpha(
            (RATINGS + s) * c,
            level_of_measurement="interval",
            value_domain=(DOMAIN + s) * c,
        ),
        data=(RATINGS,),
    ),
    "gwet_ac": Case(
        lambda c, s: sf.gwet_ac((RATINGS + s) * c, weights="quadratic"), data=(RATINGS,)
    ),
    "gwet_ac: linear": Case(
        lambda c, s: sf.gwet_ac((RATINGS + s) * c, weights="linear"), data=(RATINGS,)
    ),
    "gwet_ac: ordinal": Case(
        lambda c, s: sf.gwet_ac((RATINGS + s) * c, weights="ordinal"), data=(RATINGS,)
    ),
    "gwet_ac: ratio": Case(
        lambda c, s: sf.gwet_ac(RATINGS * c, weights="ratio"),
        shift=False,
        data=(RATINGS,),
    ),
    "gwet_ac: radical": Case(
        lambda c, s: sf.gwet_ac((RATINGS + s) * c, weights="radical"), data=(RATINGS,)
    ),
    "fleiss_kappa": Case(
        lambda c, s: sf.fleiss_kappa((RATINGS + s) * c, weights="quadratic"),
        data=(RATINGS,),
    ),
    "scotts_pi": Case(
        lambda c, s: sf.scotts_pi((RATINGS[:2] + s) * c, weights="quadratic"),
        data=(RATINGS,),
    ),
    "percent_agreement": Case(
        lambda c, s: sf.percent_agreement((RATINGS + s) * c, weights="quadratic"),
        data=(RATINGS,),
    ),
    "agreement_confidence_interval": Case(
        lambda c, s: sf.agreement_confidence_interval(
            (RATINGS + s) * c, level_of_measurement="interval", **SEED
        ),
        data=(RATINGS,),
    ),
    "agreement_confidence_interval: gwet_ac, quadratic": Case(
        lambda c, s: sf.agreement_confidence_interval(
            (RATINGS + s) * c, coefficient="gwet_ac", weights="quadratic", **SEED
        ),
        data=(RATINGS,),
    ),
    "agreement_report": Case(
        lambda c, s: sf.agreement_report(
            (RATINGS + s) * c, level_of_measurement="interval", **SEED
        ),
        units=r"\.dominant_value$",
        location=r"\.dominant_value$",
        data=(RATINGS,),
    ),
    "coder_diagnostics": Case(
        lambda c, s: sf.coder_diagnostics(
            (RATINGS + s) * c, level_of_measurement="interval"
        ),
        data=(RATINGS,),
    ),
    "compare_to_annotators": Case(
        lambda c, s: sf.compare_to_annotators(
            (RATINGS + s) * c,
            (MODEL_RATINGS + s) * c,
            level_of_measurement="interval",
            **SEED,
        ),
        data=(RATINGS, MODEL_RATINGS),
    ),
}

# Public names whose results do not scale with continuous data, and why.
NOT_SCALE_FREE = {
    # who beat whom: names and winner codes, no continuous data
    **dict.fromkeys(
        ["bradley_terry", "BradleyTerryResult"],
        "battle records: system names and winner codes",
    ),
    # labels, probabilities and integer counts: no continuous scale
    **dict.fromkeys(
        [
            "cf1_score",
            "cfbeta_score",
            "cprecision_recall_fscore_support",
            "cprecision_score",
            "crecall_score",
            "probabilistic_confusion_matrix",
            "ProbabilisticConfusionMatrixDisplay",
            "calibration_error",
            "calibration_error_interval",
            "calibration_test",
            "corp_decomposition",
            "paired_calibration_test",
            "CalibrationErrorResult",
            "CalibrationTestResult",
            "CorpDecompositionResult",
            "ReliabilityDisplay",
        ],
        "probabilities in [0, 1]",
    ),
    **dict.fromkeys(
        [
            "sign_test",
            "mcnemar_test",
            "cochrans_q_test",
            "kappa_confidence_interval",
        ],
        "class labels",
    ),
    **dict.fromkeys(
        [
            "bootstrap_confidence_interval_from_table",
            "paired_bootstrap_test_from_table",
            "paired_permutation_test_from_table",
            "sign_test_from_table",
            "bayes_test",
            "effective_counts",
            "counts_from_triples",
            "counts_from_cross_validate",
            "metric_posterior",
            "BetaPosterior",
            "F1Posterior",
            "MacroPosterior",
        ],
        "counts of items: a Beta posterior or a count depends on their size",
    ),
    **dict.fromkeys(
        ["BlockRegularized3x2CV", "BlockRegularizedMx2CV", "BlockBalance"],
        "splits of items",
    ),
    **dict.fromkeys(
        ["get_scorer", "get_scorer_names", "make_confidence_scorer"],
        "scorers: names and metrics",
    ),
    "correlation_factor": "a number of the design, no data",
    "BayesModelComparison": "fits classifiers: counts of their predictions",
    "ModelBasedMetricTest": "rates of a classifier's labels",
    "model_based_test_from_summary": "rates in [0, 1] and counts",
    "reliability_data_from_long": "records: the values pass through, walked "
    "as reliability data above",
    "CriticalDifferenceDisplay": None,  # walked: from_scores
    "ComparisonDisplay": "a plot of a comparison's results",
    "ModelComparison": None,  # walked: from_scores
    # results: built by the walked functions, their fields compared there
    **dict.fromkeys(
        [
            "AgreementInterval",
            "AgreementReport",
            "AnnotatorComparisonResult",
            "BayesTestResult",
            "BayesianSignedRankTestResult",
            "BootstrapIntervalResult",
            "CVFtestResult",
            "CVTtestResult",
            "CochransQTestResult",
            "CoderDiagnostics",
            "ConfidenceInterval",
            "CorrelatedTTestResult",
            "CredibleInterval",
            "FriedmanTestResult",
            "McNemarTestResult",
            "ModelBasedTestResult",
            "PairedBayesTestResult",
            "PairedPlanResult",
            "PairedTestResult",
            "PredictionPoweredMeanResult",
            "RankIntervalsResult",
            "RegressionCheckResult",
            "RunComparisonResult",
            "RunTable",
            "SuiteScoresResult",
            "SignTestResult",
        ],
        "a result",
    ),
}


def _walked(name):
    return any(re.match(rf"{re.escape(name)}\b", case) for case in CASES)


def test_every_public_name_is_walked_or_excused():
    missing = [
        n for n in sorted(_NAMES) if not _walked(n) and NOT_SCALE_FREE.get(n) is None
    ]
    assert not missing, (
        "add these to CASES (scale-free in continuous data) or NOT_SCALE_FREE "
        f"(with the reason) in tests/test_common_scale.py: {missing}"
    )
    stale = [n for n in NOT_SCALE_FREE if n not in _NAMES]
    walked_and_excused = [n for n, why in NOT_SCALE_FREE.items() if why and _walked(n)]
    assert not stale and not walked_and_excused, (stale, walked_and_excused)


def _factor(case, scale):
    if scale != "max":
        return scale
    top = max(np.nanmax(np.abs(d)) for d in case.data) if case.data else 1.0
    return 1e307 / top


# text that prints numbers of the data's units: its numbers are checked as
# numbers elsewhere in the same output
TEXT = re.compile(r"\['summary'\]$")


def _assert_scaled(got, expected, case, c, s, rtol=RTOL):
    assert got.keys() == expected.keys()
    for path, value in expected.items():
        if TEXT.search(path):
            continue
        if not isinstance(value, np.ndarray):
            assert got[path] == value, path
            continue
        if re.search(case.units, path):
            value = (value + (s if re.search(case.location, path) else 0)) * c
        # an element of a distribution that cancels to 0 (a permutation's
        # difference) keeps a rounding of the array's scale, not its own
        atol = rtol * np.nanmax(np.abs(value), initial=0) if value.size > 1 else 0
        np.testing.assert_allclose(
            got[path], value, rtol=rtol, atol=atol, equal_nan=True, err_msg=path
        )


def _run(call, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call(*args)


def _call(case, c, s, tmp_path):
    if case.call is _saved_gate:
        return case.call(c, s, tmp_path)
    return case.call(c, s)


def _params():
    for name in CASES:
        for label, scale in SCALES.items():
            yield pytest.param(name, scale, id=f"{name}-x{label}")


_UNSCALED = {}


def _unscaled(name, tmp_path):
    """The fields of a case's result on the data as they are (computed once)."""
    if name not in _UNSCALED:
        _UNSCALED[name] = _fields(_run(_call, CASES[name], 1.0, 0.0, tmp_path))
    return _UNSCALED[name]


@pytest.mark.parametrize("name, scale", list(_params()))
def test_scaled_data_give_the_same_statistics(name, scale, tmp_path):
    case = CASES[name]
    expected = _unscaled(name, tmp_path)
    c = _factor(case, scale)
    if (
        case.refused
        and max(np.nanmax(np.abs(d)) for d in case.data) * c > case.refused[1]
    ):
        with pytest.raises(ValueError, match=case.refused[0]):
            _run(_call, case, c, 0.0, tmp_path)
        return
    _assert_scaled(_fields(_run(_call, case, c, 0.0, tmp_path)), expected, case, c, 0.0)


@pytest.mark.parametrize(
    "name",
    [n for n, c in CASES.items() if c.shift],
)
def test_shifted_data_give_the_same_statistics(name, tmp_path):
    case = CASES[name]
    expected = _unscaled(name, tmp_path)
    got = _fields(_run(_call, case, 1.0, SHIFT, tmp_path))
    _assert_scaled(got, expected, case, 1.0, SHIFT, case.shift_rtol)


# The command line: the same walk through files.


def _cli_json(argv, capsys):
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 0 and not err, err
    return json.loads(out)


def _eval_logs(tmp_path, c):
    paths = []
    for name, x in (("A", ITEMS), ("B", ITEMS_B), ("C", ITEMS_C)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(
            "".join(
                json.dumps({"id": f"q{i}", "score": float(v)}) + "\n"
                for i, v in enumerate(x * c)
            ),
            encoding="utf-8",
        )
        paths.append(str(path))
    return [*paths, "--n-resamples", "99"]


def _agreement(tmp_path, c):
    path = tmp_path / "ratings.csv"
    rows = ["unit,ann1,ann2,ann3"]
    for j, unit in enumerate(RATINGS.T * c):
        cells = ["" if math.isnan(v) else repr(float(v)) for v in unit]
        rows.append(",".join([f"u{j}", *cells]))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [str(path), "--level", "interval", "--n-resamples", "99"]


def _plan(tmp_path, c):
    return [
        *("--sigma", repr(0.3 * c), "--mde", repr(0.02 * c)),
        *("--reference-mean", repr(0.9 * c)),
    ]


# command: (its arguments at factor c, the fields in the data's units, the data)
CLI_CASES = {
    "eval-logs": (
        _eval_logs,
        r"\['runs'\]\[\d+\]\['(mean|low|high|standard_error)'\]"
        r"|\['pairs'\]\[\d+\]\['(difference|low|high)'\]",
        (ITEMS, ITEMS_B, ITEMS_C),
    ),
    "agreement": (_agreement, r"\['dominant_value'\]", (RATINGS,)),
    "plan": (
        _plan,
        r"\['(sigma|mde|achieved_mde|threshold|reference_mean|theta)'\]",
        (),
    ),
}


def _cli_params():
    for command in CLI_CASES:
        for label, scale in SCALES.items():
            yield pytest.param(command, scale, id=f"{command}-x{label}")


@pytest.mark.parametrize("command, scale", list(_cli_params()))
def test_command_line_gives_the_same_statistics(command, scale, tmp_path, capsys):
    arguments, units, data = CLI_CASES[command]
    case = Case(None, units=units, data=data)
    expected = _fields(_cli_json([command, *arguments(tmp_path, 1.0)], capsys))
    c = _factor(case, scale)
    got = _fields(_cli_json([command, *arguments(tmp_path, c)], capsys))
    _assert_scaled(got, expected, case, c, 0.0)
