"""Sphinx configuration of the cardwidgets documentation site.

Build it from the repository root with one command (see ``docs/building.md``)::

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

Why these tools:

* **Sphinx** with ``-W`` turns every warning into an error and ``-n`` (nitpicky,
  also set below) reports every cross-reference that does not resolve, so a
  broken link, a renamed function or a malformed docstring fails the build.
* **MyST-NB** reads the Markdown pages and executes the notebooks (and the
  getting-started page, a Markdown notebook) while building, so every example
  on the site ran against this version of the library.
* **autodoc** with **napoleon** reads the numpy-style docstrings of the package.
* **furo** is a clean, readable theme with a light and a dark mode.

The generated parts (the rules reference, the lessons, the replays and copies of
the notebooks) are written by the local ``cwdocs`` extension in ``docs/_ext/``
before Sphinx reads the sources.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# Document (and execute the notebooks with) the cardwidgets of this checkout, whatever
# is installed: the kernels that run the notebooks inherit PYTHONPATH.
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
# Plots in the executed notebooks are saved as images in the page, whatever backend the
# environment of the build asks for.
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

import cardwidgets  # noqa: E402

project = "cardwidgets"
author = "the cardwidgets authors"
copyright = "the cardwidgets authors, MIT licence"  # noqa: A001
release = version = cardwidgets.__version__

extensions = [
    "myst_nb",  # MyST Markdown pages and executed notebooks (includes myst_parser)
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "cwdocs",  # this site's generators, the rule anchors and the {rule} role
]

exclude_patterns = ["_build", "_generated", "_ext", "**.ipynb_checkpoints"]
root_doc = "index"
nitpicky = True

# --- MyST and MyST-NB ---------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# Notebooks run once per version of the library: the cache lives under docs/_build and
# is keyed by the library's sources (cwdocs sets nb_execution_cache_path), so a change to
# cardwidgets runs them again while a rebuild of the pages alone does not.
nb_execution_mode = "cache"
nb_execution_timeout = 300
nb_execution_raise_on_error = True  # a failing cell fails the build
nb_execution_in_temp = True  # files the examples save go to a temporary folder
# A static site has no kernel: show the tables' static fallback (the text table a seat
# may see) instead of a live widget, and load no widget JavaScript from a CDN.
nb_mime_priority_overrides = [("*", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}
nb_merge_streams = True

# --- autodoc and napoleon -----------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
# A return annotation imported only for type checkers (the class needs PettingZoo).
autodoc_type_aliases = {"CardGameEnv": "cardwidgets.envs._pettingzoo.CardGameEnv"}
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True  # "Attributes" sections as fields: no clash with autodoc's members
napoleon_use_rtype = False

# No inventories of other projects are fetched (the build makes no network request), so
# references to the standard library and to third-party classes cannot resolve: they are
# listed here, and only they. A reference to anything of cardwidgets must resolve.
nitpick_ignore_regex = [
    ("py:.*", rf"({'|'.join(sorted(sys.stdlib_module_names))})(\..*)?"),
    ("py:.*", r"(traitlets|t|anywidget|ipywidgets|pandas|numpy|np|gymnasium|pettingzoo|pyspiel)(\..*)?"),
    ("py:class", r"(Any|Callable|Iterable|Iterator|Sequence|Mapping|Protocol|Generic|TypeVar|Literal|"
                 r"Path|Random|Enum|IntEnum|NamedTuple|ValueError|LookupError|TypeError|Exception|"
                 r"object|str|int|float|bool|bytes|dict|list|tuple|set|frozenset|type|None|"
                 r"NoneType|Ellipsis|EllipsisType|optional|callable|iterable)"),
    ("py:obj", r"(None|True|False)"),
    ("py:data", r"(typing\.)?(Any|Callable)"),
]

# --- HTML -----------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"cardwidgets {release}"
html_static_path = ["_static"]
html_css_files = ["cwdocs.css"]
html_extra_path = ["_generated/extra"]  # the exported replays, copied as they are
html_show_sourcelink = False
html_last_updated_fmt = None
