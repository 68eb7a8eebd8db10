"""Shared test machinery: the values of the outside reference libraries.

A test that checks a result against an outside library (statsmodels, mlxtend,
baycomp, ppi_py) asks the ``reference`` fixture for the library's value::

    def _statsmodels_holm(p):
        multitest = pytest.importorskip("statsmodels.stats.multitest")
        return multitest.multipletests(p, method="holm")[1]

    def test_holm(reference):
        assert holm(P) == pytest.approx(reference(_statsmodels_holm, P))

Each such test runs twice:

- ``[stored]``, in the fast suite: the value is read from
  ``tests/reference/<room>.<module>.json``, so the library need not be
  installed and the comparison runs everywhere;
- ``[live]``, marked ``crosscheck``: the function is called, so the value
  comes from the library itself (the test skips when it is not installed).
  ``pytest -m crosscheck`` runs these after ``pip install ".[crosscheck]"``.

Both variants see the value as JSON gives it back (lists for tuples and
arrays, plain floats), so they run the same assertions. The stored values are
written by ``tests/reference/make_reference.py``, which runs the live tests.
The tests must make their inputs deterministically (fixed seeds), so that
the stored values fit the inputs of every run.
"""

import functools
import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

REFERENCE_DIR = Path(__file__).parent / "reference"
_MODES = ("stored", "live")


def reference_file(test_path):
    """The JSON file of a test module: tests/room/test_x.py -> room.test_x.json."""
    parts = Path(test_path).relative_to(Path(__file__).parent).with_suffix("").parts
    return REFERENCE_DIR / (".".join(parts) + ".json")


def reference_key(node):
    """The name of a test without its stored/live id: test_x[a-1] for both."""
    base, _, ids = node.name.partition("[")
    kept = [part for part in ids.removesuffix("]").split("-") if part not in _MODES]
    return f"{base}[{'-'.join(kept)}]" if kept else base


def as_json(value):
    """The value as it comes back from JSON: lists, plain floats, ints, str."""

    def plain(x):
        if isinstance(x, np.generic):
            return x.item()
        if isinstance(x, np.ndarray):
            return x.tolist()
        raise TypeError(f"a reference value cannot hold {type(x).__name__}")

    return json.loads(json.dumps(value, default=plain))


def pytest_generate_tests(metafunc):
    if "reference" in metafunc.fixturenames:
        metafunc.parametrize(
            "reference",
            [
                pytest.param("stored", id="stored"),
                pytest.param("live", id="live", marks=pytest.mark.crosscheck),
            ],
            indirect=True,
        )


def pytest_collection_finish(session):
    """Send the functions of the test modules to joblib's workers by value.

    The importlib import mode keeps the repository root off sys.path, so that
    the tests run on the installed package; a worker process can then not
    import a test module to find, say, a metric the test passes with n_jobs=2.
    cloudpickle, which joblib's worker processes use (the cloudpickle package
    from joblib 1.5 on, a copy of its own before), sends such modules'
    functions whole instead.
    """
    picklers = []
    for name in ("cloudpickle", "joblib.externals.cloudpickle"):
        try:
            picklers.append(importlib.import_module(name))
        except ImportError:
            pass
    modules = {item.module for item in session.items if hasattr(item, "module")}
    for module in modules:
        if sys.modules.get(module.__name__) is module:
            for cloudpickle in picklers:
                cloudpickle.register_pickle_by_value(module)


@functools.cache
def _stored_values(path):
    return json.loads(path.read_text())["values"] if path.exists() else {}


@pytest.fixture
def reference(request):
    """``reference(compute, *args, **kwargs)``: an outside library's value.

    Live, ``compute(*args, **kwargs)``; stored, the value it returned when
    ``make_reference.py`` last ran (the n-th call of a test gets the n-th
    value).
    """
    path, key = reference_file(request.node.path), reference_key(request.node)
    calls = []

    if request.param == "live":

        def get(compute, *args, **kwargs):
            calls.append(as_json(compute(*args, **kwargs)))
            return calls[-1]

        yield get
        recorder = request.config.pluginmanager.get_plugin("reference-recorder")
        if recorder is not None:
            recorder.add(path, key, calls)
        return

    stored = _stored_values(path).get(key, [])

    def get(compute, *args, **kwargs):
        if len(calls) == len(stored):
            pytest.fail(
                f"{path.name} holds {len(stored)} value(s) for {key}, and the "
                f"test asks for one more: run tests/reference/make_reference.py"
            )
        calls.append(stored[len(calls)])
        return calls[-1]

    yield get
