"""The layout rules of CONTRIBUTING.md: rooms, one-way imports, no cycles."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from sklearn_faithful.utils._discovery import ROOMS, all_public_names

PACKAGE = Path(__file__).parents[1] / "sklearn_faithful"

# Which rooms each room may import. utils is the floor; the rooms stand on it
# and on the rooms below them, never sideways; the command line sits on top.
ALLOWED = {
    "utils": set(),
    "metrics": {"utils"},
    "model_selection": {"utils"},
    "holdout": {"utils", "metrics"},
    "gate": {"utils"},
    "multi_dataset": {"utils"},
    "model_based": {"utils", "metrics"},
    "comparison": {"utils", "metrics", "model_selection"},
    "agreement": {"utils", "metrics", "holdout"},
    "eval_logs": {"utils", "holdout", "model_based"},
    "calibration": {"utils", "metrics", "holdout"},
    "battles": {"utils"},
    "cli": {*ROOMS},
}


def _imports(path):
    """(module, level, names) of every import statement of a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0, []


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(path, module, level, names):
    """The package modules an import statement of ``path`` loads."""
    if level == 0:
        if module.startswith("sklearn_faithful"):
            yield module
        return
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (level - 1)]
    target = ".".join(base + ([module] if module else []))
    for name in names or [None]:
        candidate = f"{target}.{name}" if name else target
        if (PACKAGE.parent / candidate.replace(".", "/")).with_suffix(".py").exists():
            yield candidate
        elif (PACKAGE.parent / candidate.replace(".", "/") / "__init__.py").exists():
            yield candidate
        else:
            yield target


def _graph():
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        graph[name] = {
            dep for imp in _imports(path) for dep in _resolve(path, *imp) if dep != name
        }
    return graph


def _room(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_room_is_a_package_in_the_map():
    rooms = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert rooms == set(ALLOWED), rooms ^ set(ALLOWED)


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_imports_run_one_way(room):
    for module, deps in _graph().items():
        if _room(module) != room:
            continue
        used = {_room(d) for d in deps} - {room, None}
        assert used <= ALLOWED[room], (module, used - ALLOWED[room])


def test_no_import_cycle():
    graph = _graph()
    # module -> package __init__ edges are implied by Python; a room's
    # __init__ re-exporting its own modules is not a cycle of code.
    state = {}

    def visit(node, stack):
        state[node] = "open"
        for dep in graph.get(node, ()):
            if dep.endswith("__init__"):
                continue
            if _room(dep) == _room(node) and dep == ".".join(node.split(".")[:2]):
                continue  # a module importing its own room's __init__
            if state.get(dep) == "open":
                cycle = stack[stack.index(dep) :] + [dep]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep, [*stack, dep])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def test_no_room_holds_more_than_a_third_of_the_lines():
    lines = {}
    for path in PACKAGE.rglob("*.py"):
        room = _room(_module_name(path))
        n = len(path.read_text(encoding="utf-8").splitlines())
        lines[room] = lines.get(room, 0) + n
    total = sum(lines.values())
    for room, n in lines.items():
        assert n <= total / 3, f"{room} holds {n} of {total} lines"


def test_each_public_name_has_one_home():
    # all_public_names raises if two rooms list one name
    names = all_public_names()
    import sklearn_faithful

    assert set(sklearn_faithful.__all__) == {*ROOMS, "cli", "__version__"}
    for name, (room, _) in names.items():
        assert room in ROOMS, name


def test_room_init_only_reexports():
    for init in PACKAGE.glob("*/__init__.py"):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        for node in tree.body:
            assert isinstance(
                node, ast.Import | ast.ImportFrom | ast.Assign | ast.Expr
            ), (init, ast.dump(node)[:60])


def test_import_is_light():
    code = (
        "import sys, sklearn_faithful, sklearn_faithful.cli; "
        "heavy = [m for m in ('scipy', 'sklearn', 'matplotlib', 'pandas') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_private_sklearn_api_only_in_compat():
    compat = PACKAGE / "utils" / "_compat.py"
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == compat:
            continue
        for module, level, names in _imports(path):
            if level or not module.startswith("sklearn"):
                continue
            if module.startswith("sklearn_faithful"):
                continue
            private = [p for p in module.split(".") if p.startswith("_")]
            private += [n for n in names if n.startswith("_")]
            assert not private, (path.relative_to(PACKAGE), module, names)
