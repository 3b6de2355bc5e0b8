"""Run the front-end unit tests (vitest, in js/) as part of pytest."""
import os, pathlib, shutil, subprocess
import pytest

JS = pathlib.Path(__file__).resolve().parent.parent / "js"

def test_vitest():
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI"):
            pytest.fail("npm not found on PATH: the JS tests must run in CI")
        pytest.skip("npm not found on PATH")
    env = {**os.environ, "NO_COLOR": "1"}        # no ANSI codes in the failure message
    if not (JS / "node_modules").is_dir():
        # `npm ci` installs exactly package-lock.json and never rewrites it.
        subprocess.run([npm, "ci"], cwd=JS, env=env, check=True)
    proc = subprocess.run([npm, "test"], cwd=JS, env=env, capture_output=True, text=True)
    print(proc.stdout[-4000:], proc.stderr[-4000:])
    assert proc.returncode == 0, f"vitest failed:\n{proc.stdout}\n{proc.stderr}"
