"""Every public callable validates its parameters declaratively.

A walk over ``sklearn_faithful.__all__``, in the spirit of scikit-learn's
``tests/test_public_functions.py``: every parameter of every public function,
class and method has a declarative constraint (``validate_params`` or
``_parameter_constraints``), and a bad value gets scikit-learn's message, which
names the parameter, shows the value and says what is allowed.
"""

import dataclasses
import inspect

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.naive_bayes import GaussianNB

from sklearn_faithful.comparison import (
    BayesModelComparison,
    BetaPosterior,
    F1Posterior,
    MacroPosterior,
    bayes_test,
    paired_bayes_test,
)
from sklearn_faithful.gate import AccuracyRegressionTest
from sklearn_faithful.metrics import ProbabilisticConfusionMatrixDisplay
from sklearn_faithful.model_based import (
    ModelBasedMetricTest,
    model_based_test_from_summary,
)
from sklearn_faithful.model_selection import (
    BlockRegularized3x2CV,
    BlockRegularizedMx2CV,
)
from sklearn_faithful.utils._compat import (
    SklearnInvalidParameterError,
    generate_invalid_param_val,
    generate_valid_param,
    sklearn_constraint,
    sklearn_validate_parameter_constraints,
)
from sklearn_faithful.utils._discovery import all_public_names
from sklearn_faithful.utils._param_validation import (
    InvalidParameterError,
    make_constraint,
    validate_parameter_constraints,
)

PUBLIC = {name: obj for name, (_, obj) in all_public_names().items()}
FUNCTIONS = {n: f for n, f in PUBLIC.items() if inspect.isfunction(f)}
CLASSES = {n: c for n, c in PUBLIC.items() if inspect.isclass(c)}

# Elementwise methods of the posteriors take any array-like, as the methods of
# scipy's frozen distributions do; numpy converts and checks them.
ELEMENTWISE = {"pdf", "logpdf", "cdf", "sf", "ppf", "isf"}


def _is_result(cls):
    """Results are frozen dataclasses or named tuples built by the package."""
    return dataclasses.is_dataclass(cls) or (
        issubclass(cls, tuple) and hasattr(cls, "_fields")
    )


def _params(func):
    skip = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [
        p.name
        for p in inspect.signature(func).parameters.values()
        if p.kind not in skip and p.name not in ("self", "cls")
    ]


def _required(func):
    return [
        p.name
        for p in inspect.signature(func).parameters.values()
        if p.default is p.empty
        and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        and p.name not in ("self", "cls")
    ]


def _methods(cls):
    """Public methods the package defines on ``cls`` (not inherited from sklearn)."""
    out = {}
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith("sklearn_faithful"):
            continue
        for name, member in vars(klass).items():
            func = member.__func__ if isinstance(member, classmethod) else member
            if name.startswith("_") or not inspect.isfunction(func):
                continue
            out[name] = getattr(cls, name)
    return out


def _valid(constraints, name):
    if constraints[name] == "no_validation":
        return None
    return generate_valid_param(_sklearn(constraints[name][0]))


def _sklearn(constraint):
    """scikit-learn's constraint object for one of ours, for its generators."""
    from sklearn.utils._param_validation import make_constraint as sklearn_make

    return sklearn_make(sklearn_constraint(constraint))


def _invalid_values(constraint_list):
    """A bad type, a boolean where none is declared, then values that break
    each constraint and satisfy none."""
    values = [type("BadType", (), {})()]
    constraints = [make_constraint(c) for c in constraint_list]
    if not _takes_booleans(constraint_list):
        values.append(True)
    for declared in constraint_list:
        try:
            bad = generate_invalid_param_val(_sklearn(declared))
        except NotImplementedError:
            continue
        if not any(c.is_satisfied_by(bad) for c in constraints):
            values.append(bad)
    return values


def _takes_booleans(constraint_list):
    """Booleans are declared (``"boolean"``), or a verbosity, as in scikit-learn."""
    return any(c in ("boolean", "verbose", bool) for c in constraint_list)


def _all_constraints():
    """``(where, parameter, constraints)`` of every public function, class
    and method."""
    for name, obj in sorted(PUBLIC.items()):
        owners = [(name, obj)]
        if inspect.isclass(obj):
            owners += [(f"{name}.{m}", f) for m, f in _methods(obj).items()]
        for where, owner in owners:
            constraints = getattr(owner, "_skl_parameter_constraints", None)
            if inspect.isclass(owner):
                constraints = getattr(owner, "_parameter_constraints", None)
            for param, constraint_list in (constraints or {}).items():
                if constraint_list != "no_validation":
                    yield where, param, constraint_list


def test_booleans_are_refused_where_no_boolean_is_declared():
    # True is an int to Python: n_resamples=True, random_state=True or
    # zero_division=True would run as 1
    accepted = [
        f"{where}({param}=True)"
        for where, param, constraint_list in _all_constraints()
        if not _takes_booleans(constraint_list)
        for value in (True, np.bool_(False))
        if any(make_constraint(c).is_satisfied_by(value) for c in constraint_list)
    ]
    assert not accepted


def _cases(func, constraints):
    for name in _params(func):
        if constraints[name] == "no_validation":
            continue
        for bad in _invalid_values(constraints[name]):
            yield name, bad


def _check_rejects(call, func, constraints, caller):
    required = {n: _valid(constraints, n) for n in _required(func)}
    checked = 0
    for name, bad in _cases(func, constraints):
        match = rf"The '{name}' parameter of {caller} must be .* Got .* instead\."
        with pytest.raises(InvalidParameterError, match=match):
            call(**{**required, name: bad})
        checked += 1
    return checked


# --- every parameter has a constraint ----------------------------------------


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_constraints_cover_every_parameter(name):
    func = FUNCTIONS[name]
    if not _params(func):
        return  # get_scorer_names(): nothing to validate
    constraints = getattr(func, "_skl_parameter_constraints", None)
    assert constraints is not None, f"{name} has no validate_params"
    assert set(constraints) == set(_params(func)), name


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class_constraints_cover_every_parameter(name):
    cls = CLASSES[name]
    if not _is_result(cls):
        assert set(cls._parameter_constraints) == set(_params(cls.__init__)), name
    for method_name, method in _methods(cls).items():
        if method_name in ELEMENTWISE or not _params(method):
            continue
        constraints = getattr(method, "_skl_parameter_constraints", None)
        assert constraints is not None, f"{name}.{method_name} has no constraints"
        assert set(constraints) == set(_params(method)), f"{name}.{method_name}"


# --- and a bad value gets scikit-learn's message ------------------------------


@pytest.mark.parametrize("name", sorted(n for n, f in FUNCTIONS.items() if _params(f)))
def test_functions_reject_bad_parameters(name):
    func = FUNCTIONS[name]
    constraints = func._skl_parameter_constraints
    assert _check_rejects(func, func, constraints, func.__qualname__) > 0


def _fit_data():
    X = np.arange(40, dtype=float).reshape(20, 2)
    return X, np.arange(20) % 2


# How each class checks its own parameters: estimators when used (as
# scikit-learn's do, in fit), the other classes when built.
USE = {
    BayesModelComparison: lambda obj: obj.fit(*_fit_data()),
    PUBLIC["ModelComparison"]: lambda obj: obj.fit(*_fit_data()),
    ModelBasedMetricTest: lambda obj: obj.fit([[0.0]], [0]),
    BlockRegularized3x2CV: lambda obj: obj.get_n_splits(),
    BlockRegularizedMx2CV: lambda obj: obj.get_n_splits(),
    AccuracyRegressionTest: lambda obj: obj.set_reference([0.0, 1.0]),
}


@pytest.mark.parametrize(
    "name", sorted(n for n, c in CLASSES.items() if not _is_result(c))
)
def test_classes_reject_bad_parameters(name):
    cls = CLASSES[name]
    use = USE.get(cls, lambda obj: obj)

    def build_and_use(**params):
        return use(cls(**params))

    constraints = cls._parameter_constraints
    assert _check_rejects(build_and_use, cls.__init__, constraints, cls.__name__) > 0


def _instances():
    post = BetaPosterior(3.0, 4.0)
    counts = [[30, 5, 6]] * 6
    split_a, split_b = [0.80, 0.82, 0.79, 0.81], [0.83, 0.82, 0.84, 0.80]
    labels = [0, 1, 1, 0, 1, 0, 0, 1]
    return {
        AccuracyRegressionTest: AccuracyRegressionTest(),
        BayesModelComparison: BayesModelComparison(GaussianNB(), GaussianNB()),
        PUBLIC["ModelComparison"]: PUBLIC["ModelComparison"](
            {"a": GaussianNB(), "b": GaussianNB()}, scoring="accuracy"
        ),
        BetaPosterior: post,
        F1Posterior: F1Posterior(3.0, 4.0),
        MacroPosterior: MacroPosterior([post, post], n_draws=1000),
        ModelBasedMetricTest: ModelBasedMetricTest(None),
        BlockRegularized3x2CV: BlockRegularized3x2CV(),
        BlockRegularizedMx2CV: BlockRegularizedMx2CV(),
        ProbabilisticConfusionMatrixDisplay: ProbabilisticConfusionMatrixDisplay(
            np.eye(2), np.eye(2)
        ),
        PUBLIC["BayesTestResult"]: bayes_test(counts, counts),
        PUBLIC["PairedBayesTestResult"]: paired_bayes_test(counts, counts),
        PUBLIC["ModelBasedTestResult"]: model_based_test_from_summary(
            0.1, 100, 0.2, 100, precision=0.9, false_omission_rate=0.1
        ),
        PUBLIC["CVTtestResult"]: PUBLIC["blocked_mx2cv_ttest"](split_a, split_b),
        PUBLIC["CVFtestResult"]: PUBLIC["combined_ftest_5x2cv"](split_a, split_b),
        PUBLIC["CorrelatedTTestResult"]: (
            PUBLIC["bayesian_correlated_ttest"](split_a, split_b, n_train=9, n_test=1)
        ),
        PUBLIC["ReliabilityDisplay"]: PUBLIC["ReliabilityDisplay"]([0.5], [0.5], [0.5]),
        PUBLIC["CriticalDifferenceDisplay"]: (
            PUBLIC["CriticalDifferenceDisplay"]([1.0, 2.0, 3.0], 1.0)
        ),
        PUBLIC["FriedmanTestResult"]: PUBLIC["friedman_test"](
            np.random.default_rng(0).random((5, 4))
        ),
        PUBLIC["BayesianSignedRankTestResult"]: (
            PUBLIC["bayesian_signed_rank_test"]([1, 2, 3], [2, 3, 3.5], n_samples=10)
        ),
        PUBLIC["BradleyTerryResult"]: PUBLIC["bradley_terry"](
            [("x", "y", "a"), ("y", "x", "a")], n_resamples=9, random_state=0
        ),
        PUBLIC["RunComparisonResult"]: PUBLIC["compare_runs"](
            {"a": split_a, "b": split_b}, n_resamples=99, random_state=0
        ),
        PUBLIC["RankIntervalsResult"]: PUBLIC["rank_intervals"](
            {"a": split_a, "b": split_b}, n_resamples=99, random_state=0
        ),
        PUBLIC["SuiteScoresResult"]: PUBLIC["suite_scores"](
            {"a": split_a, "b": split_b},
            tasks=np.arange(len(split_a)) % 2,
            n_resamples=99,
            random_state=0,
        ),
        PUBLIC["PairedTestResult"]: PUBLIC["paired_bootstrap_test"](
            labels, labels[::-1], labels[1:] + [1], n_resamples=99, random_state=0
        ),
        PUBLIC["SignTestResult"]: PUBLIC["sign_test"](labels, labels[::-1], labels),
        PUBLIC["AnnotatorComparisonResult"]: PUBLIC["compare_to_annotators"](
            [labels, labels[::-1]], labels[1:] + [1], n_resamples=99, random_state=0
        ),
        PUBLIC["McNemarTestResult"]: PUBLIC["mcnemar_test"](
            labels, labels[::-1], labels
        ),
        PUBLIC["RegressionCheckResult"]: (
            AccuracyRegressionTest().set_reference(split_a).check(split_b)
        ),
    }


def _method_cases():
    for cls_name, cls in sorted(CLASSES.items()):
        for method_name, method in sorted(_methods(cls).items()):
            if method_name not in ELEMENTWISE and _params(method):
                yield cls_name, method_name


@pytest.mark.parametrize("cls_name, method_name", list(_method_cases()))
def test_methods_reject_bad_parameters(cls_name, method_name):
    cls = CLASSES[cls_name]
    obj = _instances()[cls]
    method = getattr(obj, method_name)
    constraints = method._skl_parameter_constraints
    caller = method.__qualname__
    assert _check_rejects(method, method, constraints, caller) > 0


def test_every_estimator_like_class_is_covered():
    """A new public class must say here how it validates (or be a result)."""
    instances = _instances()
    for cls in CLASSES.values():
        if issubclass(cls, BaseEstimator):
            assert cls in USE, cls
        if any(m not in ELEMENTWISE and _params(f) for m, f in _methods(cls).items()):
            assert cls in instances, cls


# --- the shared catalogue of bad confidence levels and seeds ------------------

CATALOGUE = {
    "confidence_level": [0, 1, 1.5, np.nan, "95%"],
    "random_state": [-1, 1.5, "seed", 2**40],
}


def _catalogue_cases():
    for name, func in sorted(FUNCTIONS.items()):
        constraints = getattr(func, "_skl_parameter_constraints", {})
        for param, values in CATALOGUE.items():
            if param in constraints:
                for value in values:
                    yield name, param, value


@pytest.mark.parametrize("name, param, value", list(_catalogue_cases()))
def test_catalogue_of_bad_levels_and_seeds(name, param, value):
    func = FUNCTIONS[name]
    constraints = func._skl_parameter_constraints
    required = {n: _valid(constraints, n) for n in _required(func)}
    match = rf"The '{param}' parameter of {func.__qualname__} must be"
    with pytest.raises(InvalidParameterError, match=match):
        func(**{**required, param: value})


# --- our validator words what scikit-learn's does ------------------------------


def _parity_cases():
    seen = set()
    for where, param, constraint_list in _all_constraints():
        key = (param, repr(constraint_list))
        if key not in seen:
            seen.add(key)
            yield where, param, constraint_list


@pytest.mark.parametrize("where, param, constraint_list", list(_parity_cases()))
def test_validation_matches_scikit_learn(where, param, constraint_list):
    # utils/_param_validation checks without importing scikit-learn; on every
    # declared constraint it accepts and refuses what scikit-learn's validator
    # does, in the same words; the one difference is deliberate: a boolean is
    # refused where no boolean is declared (test above)
    ours = {param: constraint_list}
    theirs = {param: [sklearn_constraint(c) for c in constraint_list]}
    values = _invalid_values(constraint_list) + [None, 0, 1, 0.5, -1, "x", [1]]
    values += [np.inf, -np.inf, np.nan, 2**32, np.int8(3), np.float32(0.5)]
    for value in values:
        try:
            sklearn_validate_parameter_constraints(theirs, {param: value}, "f")
        except SklearnInvalidParameterError as exc:
            with pytest.raises(InvalidParameterError) as ours_exc:
                validate_parameter_constraints(ours, {param: value}, "f")
            # scikit-learn < 1.7 said "a sparse matrix"; ours has the new words
            words = str(exc).replace("a sparse matrix", "a sparse array or matrix")
            assert str(ours_exc.value) == words
            continue
        if not _is_boolean_refusal(constraint_list, value):
            validate_parameter_constraints(ours, {param: value}, "f")


def _is_boolean_refusal(constraint_list, value):
    return isinstance(value, (bool, np.bool_)) and not _takes_booleans(constraint_list)
