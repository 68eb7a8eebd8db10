"""The import rules of the package layout (see CONTRIBUTING.md)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "sklearn_faithful"

# Which subpackages each subpackage may import. utils is the floor; stats and
# comparison are peers that never import each other.
ALLOWED = {
    "utils": set(),
    "metrics": {"utils"},
    "model_selection": {"utils"},
    "stats": {"utils", "metrics"},
    "comparison": {"utils", "metrics", "model_selection"},
}


def _imports(path):
    """(module, level) of every import statement of a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0, []


def _subpackage_imports(path):
    """The sibling subpackages a module of a subpackage imports."""
    for module, level, names in _imports(path):
        if level == 2:  # from ..x import ...
            yield module.split(".")[0] if module else names[0]
        elif level == 0 and module.startswith("sklearn_faithful."):
            yield module.split(".")[1]


@pytest.mark.parametrize("subpackage", sorted(ALLOWED))
def test_imports_run_one_way(subpackage):
    for path in sorted((PACKAGE / subpackage).glob("*.py")):
        used = set(_subpackage_imports(path)) - {subpackage}
        assert used <= ALLOWED[subpackage], (path.name, used - ALLOWED[subpackage])


def test_private_sklearn_api_only_in_compat():
    compat = PACKAGE / "utils" / "_compat.py"
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == compat:
            continue
        for module, level, names in _imports(path):
            if level or not module.startswith("sklearn"):
                continue
            private = [p for p in module.split(".") if p.startswith("_")]
            private += [n for n in names if n.startswith("_")]
            assert not private, (path.relative_to(PACKAGE), module, names)
