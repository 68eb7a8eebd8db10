"""The one place that imports private scikit-learn API.

scikit-learn keeps its parameter validation and its scorer classes private. We
build on them (so that our functions raise the same errors and our scorers share
``predict_proba`` with scikit-learn's), and isolate the imports here so that a
change in scikit-learn touches one file.
"""

from sklearn.metrics._scorer import _Scorer
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    validate_parameter_constraints,
    validate_params,
)
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.validation import _check_method_params

__all__ = [
    "HasMethods",
    "Interval",
    "Options",
    "StrOptions",
    "_Scorer",
    "_check_method_params",
    "_safe_split",
    "validate_parameter_constraints",
    "validate_params",
]
