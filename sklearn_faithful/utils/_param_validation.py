"""Declarative parameter validation, without importing scikit-learn.

The constraints and messages are scikit-learn's (``_parameter_constraints``
dictionaries of ``Interval``, ``StrOptions``, ``"array-like"``, ...; "The
'n_resamples' parameter of f must be an int in the range [1, inf). Got 0
instead."), so that our functions fail as scikit-learn's do. The
implementation is the package's own: importing scikit-learn costs about two
seconds of CPU (it imports ``scipy.stats``), which the command line's label,
table and log paths must not pay for a check of a few arguments
(issue 40). ``tests/test_common_params.py`` checks, for every constraint the
package declares, that this module and scikit-learn's accept the same values
and word the same refusals (``utils/_compat.sklearn_constraint`` translates);
the one difference is deliberate: numbers and options here never accept a
boolean (``n_resamples=True`` would run as 1), unless ``"boolean"`` is
declared.

scikit-learn's ``skip_parameter_validation`` configuration is honoured when
scikit-learn has been imported (a user who set it has imported it), and
nested calls skip their checks as ``prefer_skip_nested_validation`` asks.
"""

import contextvars
import functools
import inspect
import math
import operator
import sys
from numbers import Integral, Real

import numpy as np

__all__ = [
    "HasMethods",
    "Hidden",
    "Interval",
    "InvalidParameterError",
    "Options",
    "StrOptions",
    "make_constraint",
    "validate_parameter_constraints",
    "validate_params",
]


class InvalidParameterError(ValueError, TypeError):
    """A parameter has a type or a value that its constraints refuse.

    Both a ``ValueError`` and a ``TypeError``, as scikit-learn's
    exception of the same name.
    """


def _is_bool(val):
    return isinstance(val, (bool, np.bool_))


def _type_name(t):
    """How a type is named in a message: ``int``, ``float`` or its full path."""
    if t is Real:
        return "float"
    if t is Integral:
        return "int"
    if t.__module__ == "builtins":
        return t.__qualname__
    return f"{t.__module__}.{t.__qualname__}"


def _either(constraints):
    """``"a, b or c"``: the constraints a value may satisfy, as a message says."""
    words = [str(c) for c in constraints]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


class _Constraint:
    """One rule a parameter's value may satisfy; ``str`` says it to a user."""

    hidden = False

    def is_satisfied_by(self, val):
        raise NotImplementedError

    def __str__(self):
        raise NotImplementedError


class _InstancesOf(_Constraint):
    def __init__(self, type):
        self.type = type

    def is_satisfied_by(self, val):
        return isinstance(val, self.type)

    def __str__(self):
        return f"an instance of {_type_name(self.type)!r}"


class _NoneConstraint(_Constraint):
    def is_satisfied_by(self, val):
        return val is None

    def __str__(self):
        return "None"


class _Callables(_Constraint):
    def is_satisfied_by(self, val):
        return callable(val)

    def __str__(self):
        return "a callable"


def _is_sparse(val):
    # a sparse matrix exists only if scipy.sparse was imported
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(val)


class _NanConstraint(_Constraint):
    def is_satisfied_by(self, val):
        return (
            not isinstance(val, Integral) and isinstance(val, Real) and math.isnan(val)
        )

    def __str__(self):
        return "numpy.nan"


class _ArrayLikes(_Constraint):
    """Anything with a length, a shape or ``__array__``, but not a scalar or
    a sparse matrix (scikit-learn's ``_is_arraylike_not_scalar``)."""

    def is_satisfied_by(self, val):
        if _is_sparse(val):
            return False
        arraylike = (
            hasattr(val, "__len__")
            or hasattr(val, "shape")
            or hasattr(val, "__array__")
        )
        return arraylike and not np.isscalar(val)

    def __str__(self):
        return "an array-like"


class _SparseMatrices(_Constraint):
    def is_satisfied_by(self, val):
        return _is_sparse(val)

    def __str__(self):
        return "a sparse array or matrix"


class _AnyOf(_Constraint):
    """A named group of constraints (``"random_state"``, ``"boolean"``, ...)."""

    def __init__(self, *constraints):
        self.constraints = constraints

    def is_satisfied_by(self, val):
        return any(c.is_satisfied_by(val) for c in self.constraints)

    def __str__(self):
        return _either(self.constraints)


class Options(_Constraint):
    """One of a finite set of values of one type (never a boolean unless the
    type is ``bool``: ``True == 1.0`` would pass for the option 1.0).

    Parameters
    ----------
    type : type
        The type of every valid value.
    options : set
        The valid values.
    """

    def __init__(self, type, options):
        self.type = type
        self.options = options

    def is_satisfied_by(self, val):
        if _is_bool(val) and self.type is not bool:
            return False
        return isinstance(val, self.type) and val in self.options

    def __str__(self):
        options = ", ".join(repr(option) for option in self.options)
        return f"a {_type_name(self.type)} among {{{options}}}"


class StrOptions(Options):
    """One of a finite set of strings.

    Parameters
    ----------
    options : set of str
        The valid strings.
    """

    def __init__(self, options):
        super().__init__(str, options)


class Interval(_Constraint):
    """A number of one type within bounds, never a boolean.

    ``True`` is an ``Integral`` to Python, so ``n_resamples=True`` would
    run as 1; a count, a level or a size is never a boolean here.

    Parameters
    ----------
    type : {numbers.Integral, numbers.Real}
        The numbers allowed.
    left, right : int, float or None
        The bounds; None is unbounded.
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    """

    def __init__(self, type, left, right, *, closed):
        if type not in (Integral, Real):
            raise ValueError(
                f"type must be numbers.Integral or numbers.Real; got {type}."
            )
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(
                f"closed must be 'left', 'right', 'both' or 'neither'; got {closed!r}."
            )
        if left is not None and right is not None and right <= left:
            raise ValueError(f"right must exceed left; got left={left}, right={right}.")
        self.type = type
        self.left = left
        self.right = right
        self.closed = closed

    def __contains__(self, val):
        if not isinstance(val, Integral) and math.isnan(val):
            return False
        # a value is out if it passes a bound, or meets an open one; an
        # absent bound is an open infinite one (inf is not in [0, inf))
        below = operator.lt if self.closed in ("left", "both") else operator.le
        above = operator.gt if self.closed in ("right", "both") else operator.ge
        left = -math.inf if self.left is None else self.left
        right = math.inf if self.right is None else self.right
        return not below(val, left) and not above(val, right)

    def is_satisfied_by(self, val):
        return not _is_bool(val) and isinstance(val, self.type) and val in self

    def __str__(self):
        integers = self.type is Integral
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        if not integers:  # 0 prints as 0.0 for a float
            left = left if self.left is None else float(left)
            right = right if self.right is None else float(right)
        return (
            f"{'an int' if integers else 'a float'} in the range "
            f"{'[' if self.closed in ('left', 'both') else '('}{left}, "
            f"{right}{']' if self.closed in ('right', 'both') else ')'}"
        )


class HasMethods(_Constraint):
    """An object with callable attributes of the given names.

    Parameters
    ----------
    methods : str or list of str
        The methods the object must have.
    """

    def __init__(self, methods):
        self.methods = [methods] if isinstance(methods, str) else list(methods)

    def is_satisfied_by(self, val):
        return all(callable(getattr(val, method, None)) for method in self.methods)

    def __str__(self):
        names = [repr(method) for method in self.methods]
        listed = (
            names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        )
        return f"an object implementing {listed}"


class Hidden:
    """A constraint that is checked but not named in messages.

    Parameters
    ----------
    constraint : str or constraint object
        The constraint.
    """

    def __init__(self, constraint):
        self.constraint = constraint


class _IterablesNotString(_Constraint):
    def is_satisfied_by(self, val):
        return hasattr(val, "__iter__") and not isinstance(val, str)

    def __str__(self):
        return "an iterable"


_NONE = _NoneConstraint()
_CALLABLES = _Callables()
_BOOLEANS = (_InstancesOf(bool), _InstancesOf(np.bool_))
# the declarations scikit-learn spells as strings; constraints hold no state
_NAMED = {
    "array-like": _ArrayLikes(),
    "sparse matrix": _SparseMatrices(),
    "nan": _NanConstraint(),
    "random_state": _AnyOf(
        Interval(Integral, 0, 2**32 - 1, closed="both"),
        _InstancesOf(np.random.RandomState),
        _NoneConstraint(),
    ),
    "boolean": _AnyOf(*_BOOLEANS),
    "verbose": _AnyOf(Interval(Integral, 0, None, closed="left"), *_BOOLEANS),
    "cv_object": _AnyOf(
        Interval(Integral, 2, None, closed="left"),
        HasMethods(["split", "get_n_splits"]),
        _IterablesNotString(),
        _NoneConstraint(),
    ),
}


def make_constraint(constraint):
    """The constraint object a declaration stands for.

    Parameters
    ----------
    constraint : object
        A declaration: a constraint object, a type, None, ``callable``,
        ``Hidden(...)`` or one of ``"array-like"``, ``"sparse matrix"``,
        ``"random_state"``, ``"boolean"``, ``"verbose"``, ``"cv_object"``,
        ``"nan"``.

    Returns
    -------
    constraint : object
        Has ``is_satisfied_by(value)``, ``hidden`` and a ``str``.
    """
    if isinstance(constraint, _Constraint):
        return constraint
    if isinstance(constraint, Hidden):
        inner = make_constraint(constraint.constraint)
        hidden = _AnyOf(inner)
        hidden.hidden = True
        return hidden
    if constraint is None:
        return _NONE
    if constraint is callable:
        return _CALLABLES
    if isinstance(constraint, type):
        return _InstancesOf(constraint)
    if isinstance(constraint, str) and constraint in _NAMED:
        return _NAMED[constraint]
    raise ValueError(f"Unknown constraint type: {constraint!r}")


def _compile(parameter_constraints):
    """``{name: [constraint object, ...]}`` of the validated parameters.

    Made once per declaration (declarations are module or class constants);
    a few hundred at most live in the cache.
    """
    key = id(parameter_constraints)
    cached = _COMPILED.get(key)
    if cached is not None and cached[0] is parameter_constraints:
        return cached[1]
    compiled = {
        name: [make_constraint(c) for c in declared]
        for name, declared in parameter_constraints.items()
        if not (isinstance(declared, str) and declared == "no_validation")
    }
    if len(_COMPILED) > 4096:  # declarations made per call: do not grow
        _COMPILED.clear()
    _COMPILED[key] = (parameter_constraints, compiled)
    return compiled


_COMPILED = {}


def _check(compiled, params, caller_name):
    for name, value in params.items():
        constraints = compiled.get(name)
        if constraints is None:
            continue
        for constraint in constraints:
            if constraint.is_satisfied_by(value):
                break
        else:
            shown = [c for c in constraints if not c.hidden]
            raise InvalidParameterError(
                f"The {name!r} parameter of {caller_name} must be "
                f"{_either(shown)}. Got {value!r} instead."
            )


def validate_parameter_constraints(parameter_constraints, params, caller_name):
    """Raise if a parameter's value satisfies none of its constraints.

    Parameters
    ----------
    parameter_constraints : dict
        ``{name: [constraint, ...]}`` or ``{name: "no_validation"}``; a
        parameter not named is not checked.
    params : dict
        ``{name: value}``.
    caller_name : str
        The function or class named in the message.

    Raises
    ------
    InvalidParameterError
        "The 'name' parameter of caller must be <the constraints>. Got
        <value!r> instead."
    """
    _check(_compile(parameter_constraints), params, caller_name)


# True inside a validated call that asked its nested calls to skip their checks
_SKIP_NESTED = contextvars.ContextVar("sklearn_faithful_skip_nested", default=False)


def _skip_requested():
    """Whether checks are off: in a nested call, or by scikit-learn's config."""
    if _SKIP_NESTED.get():
        return True
    sklearn = sys.modules.get("sklearn")
    get_config = getattr(sklearn, "get_config", None)
    return get_config is not None and get_config()["skip_parameter_validation"]


class _Binder:
    """A signature's arguments by name, defaults applied, read once.

    ``inspect.Signature.bind`` and ``apply_defaults`` cost more than the
    checks of a short call; this maps positional and keyword arguments in a
    few dictionary operations, and leaves a call it cannot map (a missing or
    unknown argument) to Python, which raises its own ``TypeError``.
    """

    def __init__(self, signature):
        kinds = inspect.Parameter
        parameters = [
            p
            for p in signature.parameters.values()
            if p.name not in ("self", "cls")
            or p.kind not in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)
        ]
        self.signature = signature
        self.variadic = any(
            p.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD)
            for p in signature.parameters.values()
        )
        every = list(signature.parameters.values())
        self.positional = [
            p.name
            for p in every
            if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)
        ]
        # a method's first parameter is bound by Python, not passed by name
        bound = every[:1] if every and every[0].name in ("self", "cls") else []
        self.keywords = {
            p.name
            for p in every
            if p.kind is not kinds.POSITIONAL_ONLY and p not in bound
        }
        self.defaults = {
            p.name: p.default
            for p in parameters
            if p.default is not p.empty
            and p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD)
        }
        self.required = {
            p.name
            for p in parameters
            if p.default is p.empty
            and p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD)
        }

    def bind(self, args, kwargs):
        """``{name: value}`` of the call, or None if Python should raise."""
        if self.variadic:
            try:
                bound = self.signature.bind(*args, **kwargs)
            except TypeError:
                return None
            bound.apply_defaults()
            return dict(bound.arguments)
        if len(args) > len(self.positional):
            return None
        values = dict(self.defaults)
        values.update(zip(self.positional, args, strict=False))
        for name, value in kwargs.items():
            if name not in self.keywords or name in self.positional[: len(args)]:
                return None
            values[name] = value
        if not self.required.issubset(values):
            return None
        return values


def validate_params(parameter_constraints, *, prefer_skip_nested_validation):
    """Check a function's arguments against ``parameter_constraints``.

    Used as scikit-learn's ``validate_params`` decorator is, with the same
    constraints and messages; the function's signature is read once, when
    it is decorated.

    Parameters
    ----------
    parameter_constraints : dict
        ``{name: [constraint, ...]}`` for the function's parameters.
    prefer_skip_nested_validation : bool
        Whether the validated calls made inside the function skip their
        checks.

    Returns
    -------
    decorate : callable
        The decorator.
    """

    def decorate(func):
        # the common suites read the constraints off the function and its wrapper
        func._skl_parameter_constraints = parameter_constraints
        binder = _Binder(inspect.signature(func))
        compiled = _compile(parameter_constraints)
        skipped = {"self", "cls"} | {
            name
            for name, parameter in binder.signature.parameters.items()
            if parameter.kind
            in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        }
        compiled = {k: v for k, v in compiled.items() if k not in skipped}

        @functools.wraps(func)
        def checked(*args, **kwargs):
            if _skip_requested():
                return func(*args, **kwargs)
            values = binder.bind(args, kwargs)
            if values is None:  # Python's own TypeError
                return func(*args, **kwargs)
            _check(compiled, values, func.__qualname__)
            # the body runs in this frame (warnings' stacklevels count on it);
            # its nested calls skip their checks if asked, scikit-learn's too
            token = _SKIP_NESTED.set(prefer_skip_nested_validation)
            try:
                sklearn = sys.modules.get("sklearn")
                if prefer_skip_nested_validation and hasattr(sklearn, "config_context"):
                    with sklearn.config_context(skip_parameter_validation=True):
                        return func(*args, **kwargs)
                return func(*args, **kwargs)
            finally:
                _SKIP_NESTED.reset(token)

        return checked

    return decorate
