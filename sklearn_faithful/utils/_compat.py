"""The one place that imports private scikit-learn API and works around versions.

scikit-learn keeps its parameter validation and its scorer classes private. We
build on them (so that our functions raise the same errors and our scorers share
``predict_proba`` with scikit-learn's), and isolate the imports here so that a
change in scikit-learn touches one file. The test suite takes scikit-learn's
generators of valid and invalid parameter values from here too. Differences
between the supported versions of scipy and joblib are bridged here too.
"""

import functools
import inspect

import numpy as np
from sklearn import config_context, get_config
from sklearn.metrics._scorer import _Scorer
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    InvalidParameterError,
    StrOptions,
    generate_invalid_param_val,
    generate_valid_param,
    make_constraint,
    validate_parameter_constraints,
)
from sklearn.utils._param_validation import Interval as _Interval
from sklearn.utils._param_validation import Options as _Options
from sklearn.utils.metadata_routing import _routing_enabled
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.parallel import Parallel
from sklearn.utils.validation import _check_method_params, _num_samples

try:  # the HTML repr's block of a meta-estimator
    from sklearn.utils._repr_html.estimator import _VisualBlock
except ImportError:  # pragma: no cover - scikit-learn < 1.7
    from sklearn.utils._estimator_html_repr import _VisualBlock

__all__ = [
    "HasMethods",
    "Hidden",
    "Interval",
    "InvalidParameterError",
    "Options",
    "StrOptions",
    "_Scorer",
    "_VisualBlock",
    "_check_method_params",
    "_num_samples",
    "_routing_enabled",
    "_safe_split",
    "generate_invalid_param_val",
    "generate_valid_param",
    "make_constraint",
    "parallel_as_completed",
    "validate_parameter_constraints",
    "validate_params",
]


def parallel_as_completed(tasks, **parallel_kw):
    """Run joblib ``tasks``, yielding results in order as they complete.

    Backends without generator output (Dask under joblib < 1.4) fall back to
    a plain list.
    """
    try:
        return Parallel(return_as="generator", **parallel_kw)(tasks)
    except ValueError as exc:  # pragma: no cover - old joblib with Dask
        if "return_as" not in str(exc):
            raise
        return Parallel(**parallel_kw)(tasks)


def _is_bool(val):
    return isinstance(val, (bool, np.bool_))


class Interval(_Interval):
    """scikit-learn's ``Interval``, refusing booleans.

    ``True`` is an ``Integral`` to Python, so scikit-learn's interval takes
    it as 1: ``n_resamples=True`` or ``n_train=True`` would run. A count, a
    level or a size is never a boolean here; a parameter that takes one
    says ``"boolean"``.
    """

    def is_satisfied_by(self, val):
        return not _is_bool(val) and super().is_satisfied_by(val)


class Options(_Options):
    """scikit-learn's ``Options``, refusing booleans (``True == 1.0`` would
    pass for the option 1.0)."""

    def is_satisfied_by(self, val):
        return not _is_bool(val) and super().is_satisfied_by(val)


def validate_params(parameter_constraints, *, prefer_skip_nested_validation):
    """Check a function's arguments against ``parameter_constraints``.

    Used as scikit-learn's ``validate_params`` decorator is, with the same
    constraint objects, messages (``validate_parameter_constraints``) and
    ``skip_parameter_validation`` configuration; the difference is that the
    decorated function's signature is read once, when it is decorated, not on
    every call. For a call that does microseconds of work (a t-test on ten
    scores) that signature was most of the cost of validating.
    """

    def decorate(func):
        # the common suites read the constraints off the function and its wrapper
        func._skl_parameter_constraints = parameter_constraints
        signature = inspect.signature(func)
        skipped = {"self", "cls"} | {
            name
            for name, parameter in signature.parameters.items()
            if parameter.kind
            in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        }

        @functools.wraps(func)
        def checked(*args, **kwargs):
            if get_config()["skip_parameter_validation"]:
                return func(*args, **kwargs)
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            validate_parameter_constraints(
                parameter_constraints,
                {k: v for k, v in arguments.arguments.items() if k not in skipped},
                caller_name=func.__qualname__,
            )
            with config_context(
                skip_parameter_validation=prefer_skip_nested_validation
            ):
                return func(*args, **kwargs)

        return checked

    return decorate
