"""The package's own parameter validation: the decorator's reading of a call.

What it accepts and the words it refuses with are checked against
scikit-learn's validator for every declared constraint in
``tests/test_common_params.py``; here, how ``validate_params`` maps a call's
arguments to their names, and when it skips its checks.
"""

from numbers import Integral

import pytest

from sklearn_faithful.utils._param_validation import (
    Interval,
    InvalidParameterError,
    validate_params,
)

NON_NEGATIVE = [Interval(Integral, 0, None, closed="left")]


def _checked(func):
    names = [n for n in func.__code__.co_varnames[: func.__code__.co_argcount]]
    names += ["x", "y"]
    constraints = {n: NON_NEGATIVE for n in set(names) if n in ("x", "y")}
    return validate_params(constraints, prefer_skip_nested_validation=True)(func)


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f(-1),
        lambda f: f(x=-1),
        lambda f: f(0, y=-1),
        lambda f: f(0, -1),
    ],
)
def test_positional_and_keyword_arguments_are_checked(call):
    @_checked
    def f(x, y=0):
        return x, y

    with pytest.raises(InvalidParameterError, match="parameter of"):
        call(f)


def test_keyword_only_positional_only_and_defaults():
    @_checked
    def f(x, /, *, y=0):
        return x, y

    assert f(1, y=2) == (1, 2)
    with pytest.raises(InvalidParameterError, match="'x' parameter"):
        f(-1)
    with pytest.raises(InvalidParameterError, match="'y' parameter"):
        f(1, y=-1)
    with pytest.raises(TypeError):  # Python's own error, not a skipped check
        f(x=1)


def test_a_keyword_named_cls_or_self_is_not_a_reason_to_skip():
    # before: a keyword named cls (not the method's first parameter) made the
    # binder give up, and no argument was checked
    @_checked
    def f(x, *, cls=0):
        return x, cls

    with pytest.raises(InvalidParameterError, match="'x' parameter"):
        f(-1, cls=1)

    @_checked
    def g(x, self=0):
        return x, self

    with pytest.raises(InvalidParameterError, match="'x' parameter"):
        g(-1, self=1)


def test_methods_and_variadic_functions():
    class A:
        @_checked
        def m(self, x):
            return x

    assert A().m(1) == 1
    with pytest.raises(InvalidParameterError, match=r"'x' parameter of .*A\.m must"):
        A().m(-1)

    @_checked
    def v(x, *args, **kwargs):
        return x, args, kwargs

    assert v(1, 2, z=3) == (1, (2,), {"z": 3})
    with pytest.raises(InvalidParameterError):
        v(-1, 2, z=3)


def test_wrong_calls_get_pythons_type_error():
    @_checked
    def f(x):
        return x

    for call in (lambda: f(), lambda: f(1, 2), lambda: f(1, x=1), lambda: f(z=1)):
        with pytest.raises(TypeError) as exc:
            call()
        assert not isinstance(exc.value, InvalidParameterError)


def test_scikit_learn_config_skips_the_checks():
    sklearn = pytest.importorskip("sklearn")

    @_checked
    def f(x):
        return x

    with sklearn.config_context(skip_parameter_validation=True):
        assert f(-1) == -1
    with pytest.raises(InvalidParameterError):
        f(-1)


def test_nested_calls_skip_their_checks_only_when_asked():
    @_checked
    def inner(x):
        return x

    @validate_params({}, prefer_skip_nested_validation=True)
    def skipping():
        return inner(-1)

    @validate_params({}, prefer_skip_nested_validation=False)
    def checking():
        return inner(-1)

    assert skipping() == -1
    with pytest.raises(InvalidParameterError):
        checking()
    with pytest.raises(InvalidParameterError):  # the skip ends with the call
        inner(-1)
