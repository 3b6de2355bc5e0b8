"""The documentation runs as written: README examples, every module's doctests, and no
pointer to documents a user of the library does not have."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import subprocess
from pathlib import Path

import pytest

import cardwidgets

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(cardwidgets.__path__, "cardwidgets."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} doctest(s) failed"


def test_readme_examples_run_as_written(tmp_path, monkeypatch):
    """Every ```python block of the README, pasted in order into one session."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102
    assert (tmp_path / "lesson.json").exists()


def test_readme_comments_tell_the_truth():
    """The values the README's comments promise."""
    from cardwidgets import Depot

    lesson = Depot(players=3, seed=11)
    assert [str(a) for a in lesson.legal_actions()[:2]] == ["play 1", "play 2"]
    assert lesson.step("play 2")[0].text == "A leads [2] (single; limits: set 1, run 1) — rule D4.8."
    assert str(lesson.explain("play 1 8")).startswith("Illegal: rule D4.2 — [1,8] is neither a set nor a run")
    lesson.step("play 3")
    lesson.undo()
    lesson.step("play 6")
    assert [b.name for b in lesson.timeline.branches] == ["main", "branch-1"]


def test_project_files_point_at_nothing_a_user_lacks():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    # Written in pieces so that this file does not match its own search.
    words = ["shared/(rules|recipes|seeds)", "DESIGN" + r"\.md", "STYLE" + r"\.md", "plan" + "ning repo",
             "browser-e2e " + "recipe", "the team" + "'s", "/wo" + "rk/", "/ro" + "ot/", r"§\d"]
    pattern = re.compile("|".join(words))
    bad = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".lock"} or name.endswith("package-lock.json"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        bad += [f"{name}: {m.group(0)}" for m in pattern.finditer(text)]
    assert not bad, bad
