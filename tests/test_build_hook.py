"""``pip install .`` without npm: the build step says so in one line (hatch_build.py)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("hatch_jupyter_builder")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import hatch_build  # noqa: E402

sys.path.remove(str(ROOT))


def project(tmp_path: Path, built: bool) -> dict:
    (tmp_path / "js" / "src").mkdir(parents=True)
    (tmp_path / "js" / "src" / "table.js").write_text("export default {};\n")
    static = tmp_path / "static"
    if built:
        static.mkdir()
        (static / "manifest.json").write_text("{}")
        later = time.time() + 10
        os.utime(static / "manifest.json", (later, later))  # newer than every source: nothing to build
    return {"path": str(tmp_path / "js"), "build_dir": str(static), "source_dir": str(tmp_path / "js" / "src"),
            "build_cmd": "build", "npm": "npm"}


@pytest.fixture
def no_npm(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # npm hidden
    monkeypatch.delenv("HATCH_JUPYTER_BUILDER_SKIP_NPM", raising=False)


@pytest.mark.parametrize("version", ["standard", "editable"])
def test_missing_npm_is_one_clear_line(no_npm, tmp_path, capsys, version):
    with pytest.raises(SystemExit) as done:
        hatch_build.npm_builder("wheel", version, **project(tmp_path, built=False))
    assert done.value.code == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    # before: hatch-jupyter-builder's "ValueError: Aborting. Could not find cmd (npm) in path" under a traceback
    assert len(lines) == 1 and "Traceback" not in err
    for words in ("'npm' is not on PATH", "Node.js 20", "pip install cardwidgets-*.whl", "python -m build --wheel"):
        assert words in lines[0]


def test_no_npm_needed_when_the_bundle_is_up_to_date(no_npm, tmp_path, capsys):
    hatch_build.npm_builder("wheel", "editable", **project(tmp_path, built=True))  # nothing to build: no error
    assert "not on PATH" not in capsys.readouterr().err


def test_the_project_uses_the_hook():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook = config["tool"]["hatch"]["build"]["hooks"]["jupyter-builder"]
    assert hook["build-function"] == "hatch_build.npm_builder"
    assert "hatch_build.py" in config["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
