"""hypothesis, or stand-ins that skip the property tests where it is missing.

The property tests build their strategies and decorate with ``given`` and
``settings`` when their module is imported. Importing these names from here
lets such a module load without hypothesis (after ``pip install .`` and
``pip install pytest``), so that only its property tests skip.
"""

import pytest

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError:

    class _Strategies:
        """Any strategy, module or composite of them: nothing is drawn from it."""

        def __getattr__(self, name):
            return self

        def __call__(self, *args, **kwargs):
            return self

    st = hnp = _Strategies()

    def given(*args, **kwargs):
        return pytest.mark.skip(reason="needs hypothesis: pip install '.[test]'")

    def settings(*args, **kwargs):
        return lambda test: test


__all__ = ["given", "hnp", "settings", "st"]
