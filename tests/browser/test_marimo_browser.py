"""A table in marimo: ``notebooks/marimo_depot.py`` served by ``marimo run``, played by clicks in chromium.

``mo.ui.anywidget(Depot(...))`` carries the same table over marimo's own comm. The test clicks a
legal move and Play, and waits on the root's ``data-moves`` (the moves of the line shown) to grow:
the person's move, then the bots' answers at the table's pace. DOM hooks: ``.cw-table[data-game]``,
``[data-moves]``, ``.cw-legal [data-move]``, ``[data-control="play"]``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import _import_or_unavailable, require_table
from .lab import ARTIFACTS, REPO_ROOT, VIEWPORT, _free_port

pytestmark = pytest.mark.e2e

NOTEBOOK = REPO_ROOT / "notebooks" / "marimo_depot.py"
TABLE = '.cw-table[data-game="depot"]'
#: How long marimo may take to serve its page, and a table to draw (s).
START_S, DRAW_MS = 60, 60_000

_require_table = require_table("Depot")


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory):
    """``marimo run`` of the notebook, headless, on a free local port; stopped (its whole process
    group) at the end. Its config and caches go to a temporary home."""
    _import_or_unavailable("marimo")
    home = tmp_path_factory.mktemp("marimo-home")
    port = _free_port()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    log = open(home / "marimo.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "marimo", "run", str(NOTEBOOK), "--headless", "--host", "127.0.0.1",
         "--port", str(port), "--no-token", "--no-sandbox", "--no-check"],
        cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"marimo run exited with {proc.returncode}: {(home / 'marimo.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"marimo run served nothing in {START_S} s: {(home / 'marimo.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=15)
        log.close()
        out = ARTIFACTS / "marimo"
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(home / "marimo.log", out / "marimo.log")


def test_a_marimo_notebook_plays_a_table(browser, marimo_app):
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e.name}: {e.message}"))
    page.on("request", lambda r: outside.append(r.url)
            if urlsplit(r.url).hostname not in ("127.0.0.1", "localhost") and urlsplit(r.url).scheme in ("http", "https")
            else None)
    try:
        page.goto(marimo_app)
        table = page.locator(TABLE)
        table.wait_for(state="visible", timeout=DRAW_MS)
        expect(table).to_have_attribute("data-moves", "0")  # seat A plays first
        move = table.locator(".cw-legal [data-move]").first
        action = move.get_attribute("data-move")
        move.click()  # selects the move's cards
        play = table.locator('[data-control="play"]')
        expect(play).to_have_attribute("data-action", action)
        play.click()
        expect(table).not_to_have_attribute("data-moves", "0")
        # the bots answer at the table's pace (0.5 s a move): 3 moves and more (marimo draws the
        # table in a shadow root, which locators pierce and document.querySelector does not)
        expect(table).to_have_attribute("data-moves", re.compile(r"^([3-9]|[1-9][0-9]+)$"), timeout=30_000)
        assert table.locator(".cw-log .cw-log-line").last.is_visible()  # the newest narration line is in sight
        (ARTIFACTS / "marimo").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo" / "marimo-depot.png"), full_page=True)
        assert errors == []
        assert outside == [], f"the marimo page asked outside this machine: {outside[:5]}"
    finally:
        ctx.close()
