"""Parameter validation (temporarily re-exported from scikit-learn)."""

from ._compat import (  # noqa: F401
    HasMethods,
    Hidden,
    Interval,
    InvalidParameterError,
    Options,
    StrOptions,
    make_constraint,
    validate_parameter_constraints,
    validate_params,
)
