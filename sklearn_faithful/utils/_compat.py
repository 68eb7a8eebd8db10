"""The one place that imports private scikit-learn API and works around versions.

scikit-learn keeps its scorer classes, metadata routing and splitting helpers
private. We build on them (so that our scorers share ``predict_proba`` with
scikit-learn's), and isolate the imports here so that a change in scikit-learn
touches one file. Parameter validation is the package's own
(``utils/_param_validation``, which imports nothing from scikit-learn); the test
suites take scikit-learn's generators of valid and invalid parameter values and
its validator from here, to check ours against them. Differences
between the supported versions of scipy and joblib are bridged here too.
"""

from sklearn.metrics._scorer import _Scorer
from sklearn.utils._param_validation import (
    InvalidParameterError as SklearnInvalidParameterError,
)
from sklearn.utils._param_validation import (
    generate_invalid_param_val,
    generate_valid_param,
)
from sklearn.utils._param_validation import (
    validate_parameter_constraints as sklearn_validate_parameter_constraints,
)
from sklearn.utils.metadata_routing import _routing_enabled
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.parallel import Parallel
from sklearn.utils.validation import _check_method_params, _num_samples

try:  # the HTML repr's block of a meta-estimator
    from sklearn.utils._repr_html.estimator import _VisualBlock
except ImportError:  # pragma: no cover - scikit-learn < 1.7
    from sklearn.utils._estimator_html_repr import _VisualBlock

__all__ = [
    "SklearnInvalidParameterError",
    "_Scorer",
    "_VisualBlock",
    "_check_method_params",
    "_num_samples",
    "_routing_enabled",
    "_safe_split",
    "generate_invalid_param_val",
    "generate_valid_param",
    "parallel_as_completed",
    "sklearn_constraint",
    "sklearn_validate_parameter_constraints",
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


def sklearn_constraint(constraint):
    """scikit-learn's constraint object for one of ours (for the test suites).

    ``utils/_param_validation`` declares constraints as scikit-learn does but
    checks them without importing it; the common suites feed scikit-learn's
    ``generate_invalid_param_val`` and ``generate_valid_param`` with the
    translation, and check that both word the same refusals.
    """
    from sklearn.utils import _param_validation as skl

    from . import _param_validation as ours

    if isinstance(constraint, ours.Hidden):
        return skl.Hidden(sklearn_constraint(constraint.constraint))
    if isinstance(constraint, ours.Interval):
        return skl.Interval(
            constraint.type, constraint.left, constraint.right, closed=constraint.closed
        )
    if isinstance(constraint, ours.StrOptions):
        return skl.StrOptions(constraint.options)
    if isinstance(constraint, ours.Options):
        return skl.Options(constraint.type, constraint.options)
    if isinstance(constraint, ours.HasMethods):
        return skl.HasMethods(constraint.methods)
    return constraint
