"""The package layers: dependencies point one way, downward."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import kit

PKG = Path(__file__).resolve().parent.parent / "cardwidgets"

#: layer -> the cardwidgets layers it may import (besides itself and the standard library)
ALLOWED = {
    "core": set(),
    "rules": set(),
    "games": {"core"},
    "bots": {"core", "games"},
    "sim": {"core", "games", "bots"},
    "lessons": {"core", "games"},
    "widgets": {"core", "games", "bots", "rules", "lessons"},  # a lesson on a table
    "envs": {"core", "games"},
    "export": {"core", "games", "rules"},
    "fast": {"core", "games"},
}
#: Layers a layer may import inside a function only, never at load time: the core's ``to_html``
#: methods hand over to the export module (itself standard library only) when called.
LAZY = {"core": {"export"}, "sim": {"fast"}}
# sim needs the explore extra (pandas, joblib with cloudpickle, tqdm; matplotlib to plot) and
# imports none of it where worker processes play; the widgets are the only layer with the widget stack.
THIRD_PARTY_OK = {"bots": set(), "sim": {"matplotlib", "pandas", "joblib", "cloudpickle", "tqdm"},
                  "widgets": {"anywidget", "traitlets", "IPython"},
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
        for name, line, lazy in imports(path):
            top = name.split(".")[0]
            if top == "cardwidgets":
                sub = name.split(".")[1] if "." in name else ""
                assert sub == layer or sub in ALLOWED[layer] or (lazy and sub in LAZY.get(layer, ())), \
                    f"{path.name}:{line} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top in THIRD_PARTY_OK.get(layer, set()), (
                    f"{path.name}:{line} imports {name}: {layer} may use only the standard library"
                )


def test_headless_import_loads_no_widget_stack():
    code = "import cardwidgets; cardwidgets.make('depot', players=3, seed=1); import cardwidgets.sim, cardwidgets.bots"
    assert kit.modules_loaded(code, ("anywidget", "ipywidgets", "traitlets", "IPython")) == []
