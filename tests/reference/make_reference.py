"""Write the outside libraries' values that the fast suite compares against.

The tests that check this package against statsmodels, mlxtend, baycomp,
ppi_py, krippendorff and irrCAC take the ``reference`` fixture of
``tests/conftest.py``. Their ``[live]`` variants (marked ``crosscheck``) call
the library; their ``[stored]`` variants read what it returned from the
``*.json`` files beside this script, one per test module. This script runs
every live variant and writes those files afresh; it writes nothing unless
every live test passed, so a file never holds a value that the package
disagrees with or that a missing library left out.

To regenerate, from the repository root::

    pip install -e ".[test,crosscheck]"
    pip install --no-deps irrCAC==0.4.4
    python tests/reference/make_reference.py

(irrCAC, the reference of Gwet's coefficients in ``tests/agreement/``, pins
scipy==1.12.0 and coverage<7 (numba, which ppi_py imports, needs coverage
7), so it cannot join the crosscheck extra; installed without its
dependencies it runs on the newer scipy and needs only pandas.) Then run
``pytest`` and commit the JSON files. Regenerate when a test that uses
``reference`` changes its inputs or its calls, or to move to newer releases
of the libraries. Each file records, under ``"versions"``, the
releases that produced it; the files in the repository were made with Python
3.11.7, numpy 2.4.6, scipy 1.17.1, scikit-learn 1.9.1, statsmodels 0.15.0,
mlxtend 0.25.0, baycomp 1.0.3, ppi-python 0.2.3, krippendorff 0.9.0 and
irrCAC 0.4.4.
"""

import json
import platform
import sys
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


def main():
    recorder = Recorder()
    code = pytest.main(
        [str(TESTS), "-m", "crosscheck", "-p", "no:cacheprovider", "-q"],
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
    for stale in set(HERE.glob("*.json")) - set(recorder.values):
        stale.unlink()
        print(f"make_reference: removed {stale.relative_to(TESTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
