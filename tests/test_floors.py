"""Versions written in more than one place agree with pyproject.toml.

The floors of the core dependencies live in pyproject.toml; CI runs the fast
suite on the oldest supported Python with exactly those versions. A page that
states a floor (``numpy>=1.26``, "Python 3.10 or newer") must state the same
one, and the ruff that pre-commit runs is the one the test extra pins.
"""

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest itself needs tomli before Python 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(ROOT.glob("doc/*.rst"))]
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.-]+)\s*(>=|==)\s*([0-9][0-9.]*)$")


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _floors():
    """{name: floor} of the core dependencies, and "python" for requires-python."""
    project = _pyproject()["project"]
    floors = {}
    for requirement in project["dependencies"]:
        name, operator, version = REQUIREMENT.match(requirement).groups()
        assert operator == ">=", f"{requirement}: a core dependency has a floor"
        floors[name] = version
    floors["python"] = project["requires-python"].removeprefix(">=")
    return floors


def _stated(text, floors):
    """(name, version) of every floor the text states, in either spelling."""
    names = "|".join(re.escape(name) for name in floors if name != "python")
    for match in re.finditer(rf"\b({names})\s*>=\s*([0-9][0-9.]*[0-9])", text):
        yield match.groups()
    for match in re.finditer(r"\bPython\s*(?:>=\s*)?(3\.[0-9]+)\s+or\s+newer", text):
        yield "python", match.group(1)
    for match in re.finditer(r"requires-python\s*=\s*\"?>=\s*(3\.[0-9]+)", text):
        yield "python", match.group(1)


def test_every_core_dependency_has_a_floor():
    floors = _floors()
    assert set(floors) == {
        "numpy", "scipy", "scikit-learn", "joblib", "threadpoolctl", "python"
    }  # fmt: skip


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_state_the_floors_of_pyproject(page):
    floors = _floors()
    wrong = [
        f"{name} {version} (pyproject.toml: {floors[name]})"
        for name, version in _stated(page.read_text(), floors)
        if version != floors[name]
    ]
    assert not wrong, f"{page.name} states other floors: {wrong}"


def test_the_install_page_states_every_floor():
    floors = _floors()
    stated = dict(_stated((ROOT / "doc" / "install.rst").read_text(), floors))
    assert stated == floors


def test_a_changed_floor_would_be_caught():
    floors = {"numpy": "1.26", "python": "3.10"}
    text = "needs ``numpy>=1.25`` and Python 3.9 or newer"
    assert list(_stated(text, floors)) == [("numpy", "1.25"), ("python", "3.9")]


def test_pre_commit_runs_the_pinned_ruff():
    pins = [
        REQUIREMENT.match(r).groups()
        for r in _pyproject()["project"]["optional-dependencies"]["test"]
    ]
    (ruff,) = [version for name, op, version in pins if name == "ruff" and op == "=="]
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    revs = re.findall(r"ruff-pre-commit\s+rev:\s*v?([0-9.]+)", config)
    assert revs == [ruff]
