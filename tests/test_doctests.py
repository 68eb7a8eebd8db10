"""The docstring examples of every module run as tests.

They run on the package as imported (installed or editable), not on the
source files under the working directory, so that ``pytest`` works after a
plain ``pip install .`` too.
"""

import doctest
import importlib
import importlib.util
import pkgutil
import re

import pytest

import sklearn_faithful

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(
        sklearn_faithful.__path__, prefix="sklearn_faithful."
    )
    if not info.name.endswith("__main__")
)


def _missing_imports(test):
    """The packages that a docstring's examples import and that are missing."""
    imported = {
        match.group(1)
        for example in test.examples
        for match in re.finditer(r"^\s*(?:import|from)\s+(\w+)", example.source, re.M)
    }
    return sorted(p for p in imported if importlib.util.find_spec(p) is None)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    skipped = []
    for test in finder.find(module, name, globs={}):
        # examples that show an extra (matplotlib, say) need it installed
        if missing := _missing_imports(test):
            skipped.append(f"{test.name} needs {', '.join(missing)}")
        else:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
    if skipped:
        pytest.skip("; ".join(skipped))


def test_the_examples_are_found():
    # a guard: the finder must see the examples of functions wrapped by
    # validate_params too (32 docstrings had examples when this was written)
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = [
        test
        for name in MODULES
        for test in finder.find(importlib.import_module(name), name, globs={})
    ]
    assert len(found) >= 32
