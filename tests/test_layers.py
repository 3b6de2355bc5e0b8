"""The package layers: dependencies point one way, downward."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Iterator

import pytest

import kit

PKG = Path(__file__).resolve().parent.parent / "cardwidgets"

#: layer -> the cardwidgets layers it may import (besides itself and the standard library)
ALLOWED = {
    "core": set(),
    "rules": set(),
    "games": {"core"},
    "bots": {"core", "games"},
    "sim": {"core", "games", "bots", "fast"},  # the fast lane, imported only when a run takes it
    "lessons": {"core", "games"},
    "table": {"core", "games", "bots", "rules", "lessons"},  # a lesson on a table
    "widgets": {"core", "games", "lessons", "table"},
    "envs": {"core", "games"},
    "export": {"core", "games", "rules"},
    "fast": {"core", "games", "bots"},  # the rollouts score with the search's rewards
}
# sim needs the explore extra (pandas with its numpy, joblib with cloudpickle, tqdm; matplotlib to plot) and
# imports none of it where worker processes play; the widgets are the only layer with the widget stack,
# the table model has traitlets only (pure Python: it runs in a browser's Pyodide).
THIRD_PARTY_OK = {"bots": set(), "sim": {"matplotlib", "pandas", "numpy", "joblib", "cloudpickle", "tqdm"},
                  "table": {"traitlets"}, "widgets": {"anywidget"},
                  "envs": {"numpy", "gymnasium", "pettingzoo", "pyspiel"},
                  "fast": {"numpy", "numba"}}


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(absolute module name, line, inside a function) of every import in a module of the package."""
    rel = path.relative_to(PKG.parent).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    tree = ast.parse(path.read_text())
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(f)}
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                names = [".".join(base + ([node.module] if node.module else []))]
            else:
                names = [node.module]
        out += [(n, node.lineno, id(node) in inside) for n in names]
    return out


def files(layer: str) -> list[Path]:
    """The modules of a layer: a package's files, or the one module ``<layer>.py``."""
    return sorted((PKG / layer).rglob("*.py")) if (PKG / layer).is_dir() else [PKG / f"{layer}.py"]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports(layer):
    for path in files(layer):
        assert path.is_file(), path
        for name, line, _ in imports(path):
            top = name.split(".")[0]
            if top == "cardwidgets":
                sub = name.split(".")[1] if "." in name else ""
                assert sub == layer or sub in ALLOWED[layer], f"{path.name}:{line} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top in THIRD_PARTY_OK.get(layer, set()), (
                    f"{path.name}:{line} imports {name}: {layer} may use only the standard library"
                )


def test_headless_import_loads_no_widget_stack():
    code = "import cardwidgets; cardwidgets.make('depot', players=3, seed=1); import cardwidgets.sim, cardwidgets.bots"
    assert kit.modules_loaded(code, ("anywidget", "ipywidgets", "traitlets", "IPython")) == []


def test_the_table_model_loads_no_jupyter():
    """The table's logic runs where there is no Jupyter (a static page's Pyodide): making a model,
    playing a move through a browser message and a lesson load neither ipywidgets, anywidget
    nor IPython."""
    code = ("import cardwidgets.table as t; m = t.game_model('depot')(players=3, seed=1, seat=0, bots='greedy', "
            "bot_delay=0); m.handle_message({'type': 'act', 'action': m.legal[0]}); assert m.history_len > 1; "
            "m._repr_html_(); t.lesson_model('depot/sets-and-runs')")
    assert kit.modules_loaded(code, ("anywidget", "ipywidgets", "IPython", "comm")) == []


# --------------------------------------------------------------------------- no circles
def module_name(path: Path) -> str:
    """``cardwidgets/games/yadokarick/__init__.py`` -> ``cardwidgets.games.yadokarick``."""
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PKG.rglob("*.py")}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``: read by type checkers, never run."""
    return {id(n) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for stmt in node.body for n in ast.walk(stmt)}


def _module_of(name: str) -> str | None:
    """The package module ``name`` is, or is inside (``cardwidgets.core.Timeline`` -> ``cardwidgets.core``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def edges(module: str) -> Iterator[tuple[str, int]]:
    """(imported package module, line) of every import a module runs, at load time or in a
    function. ``from pkg import name`` is an edge to the submodule ``pkg.name`` when there is
    one, else to ``pkg`` itself (its ``__init__``)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    skip = _type_checking_only(tree)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [_module_of(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level else node.module)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else _module_of(base) for a in node.names]
        else:
            continue
        yield from ((t, node.lineno) for t in targets if t is not None and t != module)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    """No two modules of the package import each other, directly or round a longer circle,
    whether the import runs at load time or inside a function."""
    graph = {m: {t for t, _ in edges(m)} for m in MODULES}
    found = circles(graph)
    lines = []
    for part in found:
        members = set(part)
        arrows = sorted({f"{m}:{line} imports {t}" for m in part for t, line in edges(m) if t in members})
        lines.append(" <-> ".join(part) + ": " + "; ".join(arrows))
    assert not found, "import circles:\n" + "\n".join(lines)


def test_core_imports_nothing_above_it():
    """Not even inside a function: core reaches the layers above through its registries."""
    for module in MODULES:
        if module.startswith("cardwidgets.core"):
            above = [(t, line) for t, line in edges(module) if not t.startswith("cardwidgets.core")]
            assert not above, f"{module} imports {above}"


# --------------------------------------------------------------------------- one layout for every game
ROOMS = ("cards", "spec", "worlds", "position", "state")
#: A room past this many lines is two rooms.
MOST_LINES = 1_200


@pytest.mark.parametrize("game", sorted(json.loads((PKG / "games" / "registry.json").read_text(encoding="utf-8"))))
def test_every_game_is_a_package_with_the_same_rooms(game):
    package = PKG / "games" / game
    assert (package / "__init__.py").is_file(), f"{game} is not a package"
    missing = [room for room in ROOMS if not (package / f"{room}.py").is_file()]
    assert not missing, f"{game} lacks the rooms {missing}"
    long = {p.name: n for p in package.glob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"{game}: rooms over {MOST_LINES:,} lines: {long}"
