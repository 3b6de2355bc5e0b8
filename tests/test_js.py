"""The front end: vitest (in js/) run as part of pytest, and one bundle per registered game."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
JS = ROOT / "js"
STATIC = ROOT / "cardwidgets" / "static"
REGISTRY = ROOT / "cardwidgets" / "games" / "registry.json"


def _npm():
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI"):
            pytest.fail("npm not found on PATH: the JS tests must run in CI")
        pytest.skip("npm not found on PATH")
    return npm


def test_vitest():
    npm = _npm()
    env = {**os.environ, "NO_COLOR": "1"}        # no ANSI codes in the failure message
    if not (JS / "node_modules").is_dir():
        # `npm ci` installs exactly package-lock.json and never rewrites it.
        subprocess.run([npm, "ci"], cwd=JS, env=env, check=True)
    proc = subprocess.run([npm, "test"], cwd=JS, env=env, capture_output=True, text=True)
    print(proc.stdout[-4000:], proc.stderr[-4000:])
    assert proc.returncode == 0, f"vitest failed:\n{proc.stdout}\n{proc.stderr}"


def test_every_registered_game_has_a_bundle():
    """js/build.mjs skips (with a warning) a registered game without src/<game>/index.js;
    this test is what fails for it, until the game has a front end."""
    games = json.loads(REGISTRY.read_text())
    manifest_path = STATIC / "manifest.json"
    assert manifest_path.exists(), "cardwidgets/static/manifest.json is missing: run `npm run build` in js/"
    built = json.loads(manifest_path.read_text())["games"]
    missing = [g for g in games if g not in built]
    assert not missing, (f"registered games without a front-end bundle: {', '.join(missing)} "
                         f"(add js/src/<game>/index.js, then `npm run build` in js/)")
    for g in games:
        for ext in ("js", "css"):
            assert (STATIC / f"{g}.{ext}").is_file(), f"static/{g}.{ext} is missing: run `npm run build` in js/"
