"""Write the outside libraries' values that the fast suite compares against.

The tests that check this package against statsmodels, mlxtend, baycomp,
ppi_py, krippendorff, irrCAC, uncertainty-calibration, relplot,
model-diagnostics, netcal and choix take the ``reference`` fixture of
``tests/conftest.py``. Their ``[live]`` variants (marked ``crosscheck``) call
the library; their ``[stored]`` variants read what it returned from the
``*.json`` files beside this script, one per test module. This script runs
every live variant and writes those files afresh; it writes nothing unless
every live test passed, so a file never holds a value that the package
disagrees with or that a missing library left out.

To regenerate, from the repository root::

    pip install -e ".[test,crosscheck]"
    pip install --no-deps irrCAC==0.4.4 netcal==1.4.0
    python tests/reference/make_reference.py

or, to rewrite only the files of some test modules (the others are left as
they are)::

    python tests/reference/make_reference.py tests/calibration/test_reference.py

(irrCAC, the reference of Gwet's coefficients in ``tests/agreement/``, pins
scipy==1.12.0 and coverage<7 (numba, which ppi_py imports, needs coverage
7), so it cannot join the crosscheck extra; installed without its
dependencies it runs on the newer scipy and needs only pandas. netcal, the
reference of the binned ECE in ``tests/calibration/``, imports torch when it
loads but never calls it in its ECE; torch and netcal's other dependencies
weigh gigabytes, so netcal joins no extra, and this script loads it under an
inert stand-in for torch. model-diagnostics needs Python 3.11.) Then run
``pytest`` and commit the JSON files. Regenerate when a test that uses
``reference`` changes its inputs or its calls, or to move to newer releases
of the libraries. Each file records, under ``"versions"``, the
releases that produced it; the files in the repository were made with Python
3.11.7, numpy 2.4.6, scipy 1.17.1, scikit-learn 1.9.1, statsmodels 0.15.0,
mlxtend 0.25.0, baycomp 1.0.3, ppi-python 0.2.3, krippendorff 0.9.0,
irrCAC 0.4.4, uncertainty-calibration 0.1.4, relplot 1.0.3,
model-diagnostics 1.5.0, netcal 1.4.0 and choix 0.4.1.
"""

import importlib.util
import json
import platform
import sys
import types
from collections import defaultdict
from importlib import metadata
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
LIBRARIES = (
    "numpy",
    "scipy",
    "scikit-learn",
    "statsmodels",
    "mlxtend",
    "baycomp",
    "ppi-python",
    "krippendorff",
    "irrCAC",
    "uncertainty-calibration",
    "relplot",
    "model-diagnostics",
    "netcal",
    "choix",
)


class Recorder:
    """A pytest plugin that collects the values of the live reference tests."""

    # the name under which tests/conftest.py finds this plugin
    __name__ = "reference-recorder"

    def __init__(self):
        self.values = defaultdict(dict)
        self.not_passed = []

    def add(self, path, key, calls):
        self.values[path][key] = calls

    def pytest_runtest_logreport(self, report):
        if report.failed or report.skipped:
            self.not_passed.append(f"{report.nodeid}: {report.outcome}")


def versions():
    found = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def import_netcal_without_torch():
    """Load netcal under an inert stand-in for torch, if torch is absent.

    netcal imports torch (and ``torch.nn``, ``torch.nn.functional``,
    ``torch.distributions``) when it loads; its ECE never calls them. The
    stand-in leaves ``sys.modules`` once netcal is loaded, so that no test
    sees a torch.
    """
    if importlib.util.find_spec("netcal") is None or importlib.util.find_spec("torch"):
        return

    class Inert:
        def __init__(self, *args, **kwargs):
            pass

    names = ("torch", "torch.nn", "torch.nn.functional", "torch.distributions")
    stand_ins = {name: types.ModuleType(name) for name in names}
    for name, module in stand_ins.items():
        module.__getattr__ = lambda attribute: Inert
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(stand_ins[parent], child, module)
    stand_ins["torch"].Tensor = type("Tensor", (), {})
    sys.modules.update(stand_ins)
    try:
        importlib.import_module("netcal.metrics")
    finally:
        for name in names:
            sys.modules.pop(name, None)


def main(paths):
    """Run the live tests of ``paths`` (default: every test) and write their
    files; with no ``paths``, also remove the files no test wrote."""
    import_netcal_without_torch()
    recorder = Recorder()
    code = pytest.main(
        [*(paths or [str(TESTS)]), "-m", "crosscheck", "-p", "no:cacheprovider", "-q"],
        plugins=[recorder],
    )
    if code != 0 or recorder.not_passed or not recorder.values:
        print("\nmake_reference: nothing written; every live test must pass:")
        print("\n".join(recorder.not_passed) or f"pytest exited with {code}")
        return 1
    stamp = versions()
    for path, values in sorted(recorder.values.items()):
        content = {
            "made_by": "tests/reference/make_reference.py",
            "versions": stamp,
            "values": dict(sorted(values.items())),
        }
        path.write_text(json.dumps(content, indent=1) + "\n")
        print(f"make_reference: {len(values)} test(s) -> {path.relative_to(TESTS)}")
    if paths:
        return 0
    for stale in set(HERE.glob("*.json")) - set(recorder.values):
        stale.unlink()
        print(f"make_reference: removed {stale.relative_to(TESTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
