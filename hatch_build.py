"""The front end's build step for ``pip install .`` (hatch-jupyter-builder's ``npm_builder``).

It bundles ``js/`` into ``cardwidgets/static/`` with npm. Without npm that step ended in a
long traceback from deep inside the build; here a missing npm is one line that says what is
missing and how to do without it. Nothing changes when npm is there, or when no build is
needed (a wheel, an sdist, an editable install whose bundle is up to date).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from hatch_jupyter_builder import npm_builder as _npm_builder
from hatch_jupyter_builder.utils import is_stale

MISSING_NPM = (
    "cardwidgets: the table's front end (js/) is built with npm, and {npm!r} is not on PATH: install "
    "Node.js 20 or later with npm (https://nodejs.org/ or your system's packages, e.g. "
    "'sudo apt install nodejs npm'), or install a built wheel instead: 'pip install cardwidgets-*.whl' "
    "(made once with 'python -m build --wheel' where npm is, and installed anywhere without Node.js)"
)


def npm_builder(target_name: str, version: str, *, path: str = ".", build_dir: str | None = None,
                source_dir: str | None = None, build_cmd: str | None = "build", force: bool = False,
                npm: str | list[Any] | None = None, editable_build_cmd: str | None = None) -> None:
    """``hatch_jupyter_builder.npm_builder``, after checking that npm is there when a build is needed."""
    skipped = "--skip-npm" in sys.argv or os.environ.get("HATCH_JUPYTER_BUILDER_SKIP_NPM") == "1"
    needed = force or not (build_dir and source_dir) or is_stale(build_dir, source_dir)
    command = npm if isinstance(npm, str) else (npm or ["npm"])[0]
    if skipped or not needed:
        return  # npm_builder would still look for npm, and fail without it, to build nothing
    if shutil.which(str(command)) is None:
        print(MISSING_NPM.format(npm=str(command)), file=sys.stderr)
        raise SystemExit(1)  # one line, not a traceback: the build process ends here
    _npm_builder(target_name, version, path=path, build_dir=build_dir, source_dir=source_dir, build_cmd=build_cmd,
                 force=force, npm=npm, editable_build_cmd=editable_build_cmd)
