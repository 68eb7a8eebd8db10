"""A common suite of inputs over every public entry point.

In the spirit of scikit-learn's ``test_common.py``: every public name of
``sklearn_faithful.__all__`` has an entry here (a new name without one fails
the suite). Entries that take data get a shared catalogue of inputs:

- other representations of the same data (int8, uint64, bool, object and
  string labels, a list, a pandas Series with a non-default index, read-only
  and non-contiguous arrays, float32 probabilities) must give the same value;
- bad data (NaN, infinity, wrong shapes, empty input, negative or fractional
  counts, booleans as counts or scores, probabilities as labels) must raise
  a ValueError or TypeError whose message names the parameter;

and every entry must leave its inputs unmodified, leave numpy's global random
state alone, and give the same result for the same seed. Parameters that are
not data are covered by ``test_common_params.py``.
"""

import dataclasses
import types
import warnings

import numpy as np
import pytest

from sklearn_faithful.utils._discovery import all_public_names

N = 60

# Every public name under one roof, found through each room's __all__.
_NAMES = all_public_names()
sf = types.SimpleNamespace(
    __all__=sorted(_NAMES), **{name: obj for name, (_, obj) in _NAMES.items()}
)


def _labels(seed=0, n=N):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    return y


Y = _labels(0)
A = np.where(np.random.default_rng(1).random(N) < 0.75, Y, 1 - Y)
B = np.where(np.random.default_rng(2).random(N) < 0.85, Y, 1 - Y)
P = np.random.default_rng(3).dirichlet([1, 1], N)
COUNTS = np.array(
    [[50, 5, 8], [48, 7, 6], [52, 4, 9], [47, 6, 7], [51, 5, 5], [49, 8, 6]]
)
SCORES = np.random.default_rng(4).random(N)
# the (true, predicted) table of Y and A, with a third class of no item, and the
# (true, A, B) table of Y, A and B plus one item in each cell (the bad-count
# cases change the fifth count, which must not be 0)
TABLE = np.zeros((3, 3), dtype=int)
np.add.at(TABLE, (Y, A), 1)
JOINT_TABLE = np.ones((2, 2, 2), dtype=int)
np.add.at(JOINT_TABLE, (Y, A, B), 1)
# per-split scores of two models on the 10 splits of an m x 2 CV
SPLIT_A = np.random.default_rng(5).uniform(0.7, 0.8, 10)
SPLIT_B = SPLIT_A + np.random.default_rng(6).normal(0.01, 0.01, 10)
SEED = dict(n_resamples=99, random_state=0)
# reliability data: 3 coders (rows) x N units, labels {0, 1}, mostly agreeing
RELIABILITY = np.stack([A, B, Y])
# a model's labels of the same units
MODEL = np.where(np.random.default_rng(7).random(N) < 0.8, Y, 1 - Y)


def _effect(result):
    return {"statistic": result.statistic, "pvalue": result.pvalue}


def _quiet(call, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args)


# Each entry: (family, data parameter names, call taking the data positionally).
# Families: "y_proba" (labels, probabilities), "labels" (labels and one or two
# label predictions), "counts", "table" ((true, predicted) counts), "joint
# table" ((true, A, B) counts), "scores", "split".
ENTRIES = {
    "krippendorff_alpha": ("reliability", ("reliability_data",), sf.krippendorff_alpha),
    "fleiss_kappa": ("reliability", ("reliability_data",), sf.fleiss_kappa),
    "gwet_ac": ("reliability", ("reliability_data",), sf.gwet_ac),
    "percent_agreement": ("reliability", ("reliability_data",), sf.percent_agreement),
    "scotts_pi": ("reliability", ("reliability_data",), lambda r: sf.scotts_pi(r[:2])),
    "agreement_report": (
        "reliability",
        ("reliability_data",),
        lambda r: sf.agreement_report(r, **SEED),
    ),
    "coder_diagnostics": ("reliability", ("reliability_data",), sf.coder_diagnostics),
    "agreement_confidence_interval": (
        "reliability",
        ("reliability_data",),
        lambda r: sf.agreement_confidence_interval(r, **SEED),
    ),
    "compare_to_annotators": (
        "reliability and model",
        ("reliability_data", "y_pred"),
        lambda r, m: sf.compare_to_annotators(r, m, **SEED),
    ),
    "probabilistic_confusion_matrix": (
        "y_proba",
        ("y_true", "y_proba"),
        sf.probabilistic_confusion_matrix,
    ),
    "cprecision_score": ("y_proba", ("y_true", "y_proba"), sf.cprecision_score),
    "crecall_score": ("y_proba", ("y_true", "y_proba"), sf.crecall_score),
    "cf1_score": ("y_proba", ("y_true", "y_proba"), sf.cf1_score),
    "cfbeta_score": (
        "y_proba",
        ("y_true", "y_proba"),
        lambda y, p: sf.cfbeta_score(y, p, beta=2),
    ),
    "cprecision_recall_fscore_support": (
        "y_proba",
        ("y_true", "y_proba"),
        sf.cprecision_recall_fscore_support,
    ),
    "calibration_error": ("y_proba", ("y_true", "y_proba"), sf.calibration_error),
    "corp_decomposition": ("y_proba", ("y_true", "y_proba"), sf.corp_decomposition),
    "calibration_error_interval": (
        "y_proba",
        ("y_true", "y_proba"),
        lambda y, p: sf.calibration_error_interval(y, p, **SEED),
    ),
    "calibration_test": (
        "y_proba",
        ("y_true", "y_proba"),
        lambda y, p: sf.calibration_test(y, p, **SEED),
    ),
    "paired_calibration_test": (
        "y_proba",
        ("y_true", "y_proba_b"),
        # the statistic and p-value: resampled differences near 0 carry
        # float32's absolute error (1e-8), not its relative one
        lambda y, p: _effect(sf.paired_calibration_test(y, P[::-1], p, **SEED)),
    ),
    "bootstrap_confidence_interval": (
        "labels",
        ("y_true", "y_pred"),
        lambda y, a: sf.bootstrap_confidence_interval(y, a, metric="f1", **SEED),
    ),
    "paired_bootstrap_test": (
        "labels",
        ("y_true", "y_pred_a", "y_pred_b"),
        lambda y, a, b: sf.paired_bootstrap_test(y, a, b, **SEED),
    ),
    "paired_permutation_test": (
        "labels",
        ("y_true", "y_pred_a", "y_pred_b"),
        lambda y, a, b: sf.paired_permutation_test(y, a, b, **SEED),
    ),
    "sign_test": ("labels", ("y_true", "y_pred_a", "y_pred_b"), sf.sign_test),
    "bootstrap_confidence_interval_from_table": (
        "table",
        ("table",),
        lambda t: sf.bootstrap_confidence_interval_from_table(t, **SEED),
    ),
    "paired_bootstrap_test_from_table": (
        "joint table",
        ("table",),
        lambda t: sf.paired_bootstrap_test_from_table(t, **SEED),
    ),
    "paired_permutation_test_from_table": (
        "joint table",
        ("table",),
        lambda t: sf.paired_permutation_test_from_table(t, **SEED),
    ),
    "sign_test_from_table": ("joint table", ("table",), sf.sign_test_from_table),
    "kappa_confidence_interval": (
        "labels",
        ("y1", "y2"),
        lambda y1, y2: sf.kappa_confidence_interval(y1, y2, **SEED),
    ),
    "ModelBasedMetricTest": (
        "labels",
        ("labels_c", "labels_t"),
        lambda c, t: sf.ModelBasedMetricTest.from_rates(0.9, 0.1).test_labels(c, t),
    ),
    "bayes_test": (
        "counts",
        ("counts_a", "counts_b"),
        lambda a, b: sf.bayes_test(
            a, b, method="monte-carlo", n_draws=10_000, random_state=0
        ),
    ),
    "paired_bayes_test": ("counts", ("counts_a", "counts_b"), sf.paired_bayes_test),
    "effective_counts": ("counts", ("counts",), sf.effective_counts),
    "mcnemar_test": ("labels", ("y_true", "y_pred_a", "y_pred_b"), sf.mcnemar_test),
    "cochrans_q_test": (
        "labels",
        ("y_true", "y_pred_a", "y_pred_b"),
        lambda y, a, b: sf.cochrans_q_test(y, {"y_pred_a": a, "y_pred_b": b}),
    ),
    "counts_from_triples": ("triples", ("triples",), sf.counts_from_triples),
    "estimate_sigma": ("scores", ("scores",), sf.estimate_sigma),
    "corrected_resampled_ttest": (
        "split scores",
        ("scores_a", "scores_b"),
        lambda a, b: sf.corrected_resampled_ttest(a, b, n_train=90, n_test=10),
    ),
    "paired_ttest_5x2cv": (
        "split scores",
        ("scores_a", "scores_b"),
        sf.paired_ttest_5x2cv,
    ),
    "combined_ftest_5x2cv": (
        "split scores",
        ("scores_a", "scores_b"),
        sf.combined_ftest_5x2cv,
    ),
    "blocked_mx2cv_ttest": (
        "split scores",
        ("scores_a", "scores_b"),
        sf.blocked_mx2cv_ttest,
    ),
    "bayesian_correlated_ttest": (
        "split scores",
        ("scores_a", "scores_b"),
        lambda a, b: sf.bayesian_correlated_ttest(a, b, n_train=50, n_test=50),
    ),
    "bayesian_signed_rank_test": (
        "split scores",
        ("scores_a", "scores_b"),
        lambda a, b: sf.bayesian_signed_rank_test(a, b, n_samples=1000, random_state=0),
    ),
    "AccuracyRegressionTest": (
        "scores",
        ("scores",),
        lambda s: sf.AccuracyRegressionTest(theta=0.05).set_reference(s).check(s),
    ),
    "compare_runs": (
        "scores",
        ("runs['A']",),
        lambda s: sf.compare_runs({"A": s}, **SEED),
    ),
    # the same run twice: the ranks need two runs, and their means are the data's
    "rank_intervals": (
        "scores",
        ("runs['A']",),
        lambda s: sf.rank_intervals({"A": s, "B": s}, **SEED),
    ),
    # two tasks of alternate items
    "suite_scores": (
        "scores",
        ("runs['A']",),
        lambda s: sf.suite_scores({"A": s}, tasks=np.arange(len(s)) % 2, **SEED),
    ),
    "BlockRegularized3x2CV": (
        "split",
        ("y",),
        lambda y: list(
            sf.BlockRegularized3x2CV(random_state=0).split(np.zeros((len(y), 1)), y)
        ),
    ),
    "BlockRegularizedMx2CV": (
        "split",
        ("y",),
        lambda y: list(
            sf.BlockRegularizedMx2CV(2, random_state=0).split(np.zeros((len(y), 1)), y)
        ),
    ),
}

# Public names whose inputs are not data arrays, and where they are tested.
NOT_DATA = {
    "reliability_data_from_long": "records: agreement/test_data.py",
    "join_runs": "records: eval_logs/test_join.py",
    "bradley_terry": "battle records: battles/test_bradley_terry.py",
    "BradleyTerryResult": "a result",
    "prediction_powered_mean": "scores, NaN where unlabelled: eval_logs/test_judge.py",
    "RunTable": "a result, built by join_runs",
    "RunComparisonResult": "a result",
    "RankIntervalsResult": "a result",
    "SuiteScoresResult": "a result",
    "PredictionPoweredMeanResult": "a result",
    "__version__": "a string",
    "AccuracyRegressionTest": None,  # in ENTRIES
    "BayesModelComparison": "fits estimators: bad y checked below, data in "
    "test_bayes_comparison.py",
    "BayesTestResult": "a result, built by bayes_test",
    "ModelComparison": "fits estimators through cross_validate: "
    "test_model_comparison.py",
    "BetaPosterior": "numbers: test_common_params.py",
    "BlockBalance": "a result of block_balance",
    "AgreementInterval": "a result",
    "AnnotatorComparisonResult": "a result",
    "AgreementReport": "a result",
    "CoderDiagnostics": "a result",
    "BootstrapIntervalResult": "a result",
    "CalibrationErrorResult": "a result",
    "CalibrationTestResult": "a result",
    "CorpDecompositionResult": "a result",
    "ConfidenceInterval": "a result",
    "CredibleInterval": "a result",
    "F1Posterior": "numbers: test_common_params.py",
    "MacroPosterior": "posteriors: test_common_params.py",
    "ModelBasedTestResult": "a result",
    "PairedBayesTestResult": "a result, built by paired_bayes_test",
    "PairedTestResult": "a result",
    "ProbabilisticConfusionMatrixDisplay": "draws; its data go through "
    "probabilistic_confusion_matrix (test_plot.py)",
    "RegressionCheckResult": "a result",
    "SignTestResult": "a result",
    "correlation_factor": "numbers: test_common_params.py",
    "CVTtestResult": "a result",
    "CVFtestResult": "a result",
    "CorrelatedTTestResult": "a result",
    "McNemarTestResult": "a result",
    "CochransQTestResult": "a result",
    "FriedmanTestResult": "a result",
    "BayesianSignedRankTestResult": "a result",
    "CriticalDifferenceDisplay": "draws ranks: test_multi_dataset.py",
    "ReliabilityDisplay": "draws; its data go through check_calibration_data "
    "(calibration/test_plot.py)",
    "ComparisonDisplay": "draws a fitted comparison: comparison/test_base.py",
    "friedman_test": "a scores table: test_multi_dataset.py",
    "counts_from_cross_validate": "cross_validate results: test_routing.py",
    "get_scorer": "a name: test_scorer.py",
    "get_scorer_names": "no parameter",
    "make_confidence_scorer": "a metric: test_scorer.py",
    "metric_posterior": "effective counts: test_bayes.py",
    "minimum_detectable_effect": "numbers: test_common_params.py",
    "model_based_test_from_summary": "numbers: test_common_params.py",
    "regression_threshold": "numbers: test_common_params.py",
    "required_sample_size": "numbers: test_common_params.py",
    "paired_sample_size": "numbers: test_common_params.py",
    "paired_minimum_detectable_effect": "numbers: test_common_params.py",
    "plan_paired_comparison": "runs of scores, with groups: gate/test_planning.py "
    "(bool, int8, float32, list and str groups; NaN, one run, shapes)",
    "PairedPlanResult": "a result",
}


def test_every_public_name_has_an_entry():
    missing = [n for n in sf.__all__ if n not in ENTRIES and NOT_DATA.get(n) is None]
    assert not missing, f"add these to tests/test_common_inputs.py: {missing}"


def _canonical(family, n_params):
    return {
        "y_proba": (Y, P),
        "labels": (Y, A, B)[:n_params],
        "counts": (COUNTS, COUNTS + [[1, 0, 0]])[:n_params],
        "table": (TABLE,),
        "joint table": (JOINT_TABLE,),
        # (gold, predicted, correct) = (TP + FN, TP + FP, TP)
        "triples": (COUNTS[:, [0, 0, 0]] + COUNTS[:, [2, 1, 0]] * [1, 1, 0],),
        "scores": (SCORES,),
        "split scores": (SPLIT_A, SPLIT_B),
        "split": (Y,),
        "reliability": (RELIABILITY,),
        "reliability and model": (RELIABILITY, MODEL),
    }[family]


def _value(result):
    """A comparable value of any result."""
    if dataclasses.is_dataclass(result):
        return {
            f.name: _value(getattr(result, f.name))
            for f in dataclasses.fields(result)
            if not f.name.startswith("posterior")
        }
    if isinstance(result, dict):
        return {k: _value(v) for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return [_value(r) for r in result]
    if result is None or isinstance(result, (str, bool)):
        return result
    return np.asarray(result, dtype=float)


def _assert_same(a, b, rtol):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _assert_same(a[k], b[k], rtol)
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y, rtol)
    elif isinstance(a, np.ndarray):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-12, equal_nan=True)
    else:
        assert a == b


def _read_only(x):
    x = np.array(x)
    x.setflags(write=False)
    return x


def _strided(x):
    x = np.asarray(x)
    doubled = np.repeat(x, 2, axis=0)[::2]
    assert (
        not doubled.flags.c_contiguous
        or x.ndim == 1
        and doubled.strides[0] != x.itemsize
    )
    return doubled


# Representations of the same labels {0, 1}: order-preserving, so every
# metric, class order and positive class is the same.
LABEL_VARIANTS = {
    "list": lambda y: y.tolist(),
    "int8": lambda y: y.astype(np.int8),
    "uint64": lambda y: y.astype(np.uint64),
    "bool": lambda y: y.astype(bool),
    "object": lambda y: y.astype(object),
    "pandas, non-default index": lambda y: (
        pytest.importorskip("pandas").Series
        if np.ndim(y) == 1
        else pytest.importorskip("pandas").DataFrame
    )(y, index=np.arange(len(y)) + 1000),
    "floats, NaN-free": lambda y: np.asarray(y, dtype=np.float32),
    "read-only": _read_only,
    "non-contiguous": _strided,
}


# reliability data (NaN marks a missing value), with a model's labels or not
RELIABILITY_FAMILIES = ("reliability", "reliability and model")


def _label_cases():
    for name, (family, _, _) in ENTRIES.items():
        if family in ("labels", "y_proba", "split", *RELIABILITY_FAMILIES):
            for variant in LABEL_VARIANTS:
                if variant != "floats, NaN-free" or family in RELIABILITY_FAMILIES:
                    yield name, variant


@pytest.mark.parametrize("name, variant", list(_label_cases()))
def test_label_representations_give_the_same_value(name, variant):
    family, params, call = ENTRIES[name]
    data = _canonical(family, len(params))
    expected = _value(_quiet(call, *data))
    convert = LABEL_VARIANTS[variant]
    if family == "y_proba":
        if variant == "bool" and name != "probabilistic_confusion_matrix":
            convert = LABEL_VARIANTS["int8"]  # pos_label=1 is True: same class
        other = (convert(data[0]), data[1])
    else:
        other = tuple(convert(d) for d in data)
    _assert_same(_value(_quiet(call, *other)), expected, rtol=1e-12)


PROBA_VARIANTS = {
    "float32": lambda p: p.astype(np.float32),
    "read-only": _read_only,
    "Fortran order": np.asfortranarray,
    "non-contiguous": _strided,
    "pandas": lambda p: pytest.importorskip("pandas").DataFrame(
        p, index=np.arange(len(p)) + 7
    ),
}


@pytest.mark.parametrize("name", [n for n, e in ENTRIES.items() if e[0] == "y_proba"])
@pytest.mark.parametrize("variant", list(PROBA_VARIANTS))
def test_probability_representations_give_the_same_value(name, variant):
    _, _, call = ENTRIES[name]
    expected = _value(_quiet(call, Y, P))
    rtol = 1e-6 if variant == "float32" else 1e-12
    got = _value(_quiet(call, Y, PROBA_VARIANTS[variant](P)))
    _assert_same(got, expected, rtol=rtol)


def _with_nan(x):
    x = np.asarray(x, dtype=float).copy()
    x.flat[3] = np.nan
    return x


def _with_inf(x):
    x = np.asarray(x, dtype=float).copy()
    x.flat[3] = np.inf
    return x


BAD = {
    "NaN": _with_nan,
    "infinity": _with_inf,
    "one axis too many": lambda x: np.stack([np.asarray(x)] * 2, axis=-1),
    "empty": lambda x: np.asarray(x)[:0],
}
BAD_COUNTS = {
    "negative": lambda c: (
        np.asarray(c) * np.where(np.arange(np.size(c)) == 4, -1, 1).reshape(np.shape(c))
    ),
    "fractional": lambda c: (
        np.asarray(c)
        + np.where(np.arange(np.size(c)) == 4, 0.5, 0).reshape(np.shape(c))
    ),
    "beyond 2**53": lambda c: (
        np.asarray(c, dtype=np.int64)
        + np.where(np.arange(np.size(c)) == 4, 2**60, 0).reshape(np.shape(c))
    ),
}


# Numbers given as booleans (True would count as 1), and probabilities given
# where labels are expected (each distinct float would be a class).
BAD_BOOLEANS = {"booleans": lambda x: np.asarray(x) > np.median(x)}
BAD_LABELS = {"probabilities as labels": lambda y: np.linspace(0.01, 0.99, len(y))}

# Functions that take weighted counts (sums of sample weights), which need not
# be whole numbers: only their per-split ratios enter.
WEIGHTED_COUNTS = {"paired_bayes_test"}
# Functions whose 2-D scores are valid: an item's repeated samples.
TAKES_REPEATS = {"compare_runs", "rank_intervals", "suite_scores"}


def _bad_cases():
    for name, (family, params, _) in ENTRIES.items():
        bad = dict(BAD)
        if family in ("counts", "triples", "table", "joint table"):
            bad = {**bad, **BAD_COUNTS, **BAD_BOOLEANS}
        if family == "split scores":
            bad = {**bad, **BAD_BOOLEANS}
        if name in WEIGHTED_COUNTS:
            del bad["fractional"]
        if family in RELIABILITY_FAMILIES:
            del bad["NaN"]  # a missing value
        if name in TAKES_REPEATS:
            del bad["one axis too many"]
        for position, param in enumerate(params):
            cases = dict(bad)
            if family == "labels" and position > 0:
                cases.update(BAD_LABELS)
            for case in cases:
                yield name, position, param, case


@pytest.mark.parametrize("name, position, param, case", list(_bad_cases()))
def test_bad_data_gets_an_error_naming_the_parameter(name, position, param, case):
    family, params, call = ENTRIES[name]
    data = list(_canonical(family, len(params)))
    bad = {**BAD, **BAD_COUNTS, **BAD_BOOLEANS, **BAD_LABELS}[case]
    if case == "infinity" and family == "y_proba" and position == 0:
        pytest.skip("infinity is not a float label here: covered by NaN")
    if family == "split" and case == "one axis too many":
        bad = BAD[case](BAD[case](data[position]))  # 2-D y is valid: counts
    else:
        bad = bad(data[position])
    data[position] = bad
    with pytest.raises((ValueError, TypeError)) as info:
        _quiet(call, *data)
    # an empty y of a splitter leaves X empty too: the message is about X
    name = "X" if family == "split" and case == "empty" else param
    assert name in str(info.value), str(info.value)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_inputs_unmodified_global_state_untouched_and_reproducible(name):
    family, params, call = ENTRIES[name]
    data = [np.array(d) for d in _canonical(family, len(params))]
    copies = [d.copy() for d in data]
    state = np.random.get_state()  # noqa: NPY002 - the global state is the point
    first = _value(_quiet(call, *data))
    after = np.random.get_state()  # noqa: NPY002
    assert after[0] == state[0] and np.array_equal(after[1], state[1])
    assert after[2:] == state[2:]
    for d, c in zip(data, copies, strict=True):
        np.testing.assert_array_equal(d, c)
    _assert_same(_value(_quiet(call, *data)), first, rtol=0)


@pytest.mark.parametrize("case", ["NaN", "one axis too many", "empty"])
def test_bayes_model_comparison_names_y(case):
    X = np.arange(2 * N, dtype=float).reshape(N, 2)
    comp = sf.BayesModelComparison(
        sf.ProbabilisticConfusionMatrixDisplay, sf.ProbabilisticConfusionMatrixDisplay
    )
    from sklearn.naive_bayes import GaussianNB

    comp = sf.BayesModelComparison(GaussianNB(), GaussianNB())
    y = BAD[case](Y)
    with pytest.raises((ValueError, TypeError)) as info:
        comp.fit(X[: len(y)] if len(y) else X[:0], y)
    assert "y" in str(info.value)
