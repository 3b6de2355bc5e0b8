"""``cardwidgets play`` in chromium: the command serves the app through Voilà; the page's chooser
starts a Yadokarick duo game (a person named Ann against a greedy bot and the NPC, the bots at
once), which is played to its end by clicking; then Start begins a new game.

The chooser is made of ipywidgets: ``.cw-app`` holds labelled ``select`` and ``input`` fields and
the ``.cw-app-start`` button; the table is the usual ``.cw-table``. Voilà shows no code and gives
no access to the kernel, so the test reads the game from the page only, then plays the same
clicks on the engine here and compares the result.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import history_pos, layout_problems, require_table
from .lab import REPO_ROOT, _free_port

pytestmark = pytest.mark.e2e

TABLE = '.cw-table[data-game="yadokarick"]'
SEED = 8

_require_table = require_table("Yadokarick")


@pytest.fixture(scope="module")
def app_url(artifacts_root):
    """``cardwidgets play --no-browser --port P`` running; its URL, from what it printed."""
    pytest.importorskip("voila")
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("ANYWIDGET_HMR", None)
    log = open(artifacts_root / "voila-app.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "cardwidgets", "play", "--no-browser", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True)
    first = proc.stdout.readline().strip()
    url = f"http://127.0.0.1:{port}/"
    assert first == f"cardwidgets play: {url} (Ctrl+C stops the server)", first
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"cardwidgets play did not serve {url} (exit {proc.poll()})", pytrace=False)
        time.sleep(0.3)
    yield url
    # Ctrl+C, as a person stops it: the command stops Voilà and removes its notebook
    os.killpg(proc.pid, signal.SIGINT)
    try:
        code = proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        pytest.fail("cardwidgets play did not stop on Ctrl+C", pytrace=False)
    finally:
        log.close()
    assert code in (0, 130, -signal.SIGINT), code


@pytest.fixture
def app_page(browser, app_url, artifacts_root, request):
    ctx = browser.new_context(viewport={"width": 1280, "height": 1500})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e.name}: {e.message}"))
    page.goto(app_url)
    page.locator(".cw-app-start").wait_for(timeout=120_000)  # Voilà ran the app's notebook
    yield page, errors
    out = artifacts_root / request.node.name
    out.mkdir(parents=True, exist_ok=True)
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        page.screenshot(path=str(out / "failure.png"), full_page=True)
    ctx.close()


def field(page, label: str):
    """The ``select`` or ``input`` of the chooser's field labelled ``label``."""
    box = page.locator(".cw-app .widget-inline-hbox").filter(
        has=page.locator(f'label:text-is("{label}")'))
    return box.locator("select, input").first


def test_choose_play_a_whole_game_and_start_again(app_page, artifacts_root):
    from cardwidgets import Yadokarick, game_spec

    page, errors = app_page
    spec = game_spec("yadokarick")
    field(page, "Game").select_option(label="Yadokarick")
    duo = [m.name for m in spec.modes].index("duo")
    field(page, "Mode").select_option(index=duo)
    expect(field(page, "Players").locator("option")).to_have_text(["2"])  # duo: two players
    expect(page.locator(".cw-app .widget-text input")).to_have_count(1 + 2 + 1)  # house_limit, 2 seats, seed
    field(page, "Seat A").fill("Ann")
    expect(field(page, "Screen").locator("option").first).to_have_text("Ann's seat: their cards only")
    field(page, "Bots' pace").select_option(label="Instant")
    field(page, "Seed").fill(str(SEED))
    page.locator(".cw-app-start").click()
    table = page.locator(TABLE)
    table.wait_for(state="visible", timeout=60_000)
    # a seated screen never shows the seed: it deals every hand
    expect(page.locator(".cw-app-status")).to_have_text("Yadokarick, 2 players, Ann's seat")
    expect(table.locator(".cw-player .cw-seat-name").first).to_have_text("Ann")
    page.locator(".cw-app").screenshot(path=str(artifacts_root / "app-started.png"))

    clicked: list[str] = []
    for _ in range(40):
        if table.locator(".cw-outcome").count():
            break
        pos = table.locator(".cw-history-pos").inner_text()
        control = table.locator(".cw-player [data-action]:not([disabled])").first
        expect(control).to_be_enabled()
        action = control.get_attribute("data-action")
        control.click()
        clicked.append(action)
        expect(table.locator(".cw-history-pos")).not_to_have_text(pos)
        # the bot and the NPC answered at once: Ann's turn again, or the end
        expect(table.locator(".cw-player [data-action]:not([disabled]), .cw-outcome").first).to_be_visible()
    else:
        pytest.fail("the game did not end in 40 clicks")
    assert len(clicked) == 10  # one card of Ann's each trick

    # the same clicks on the engine: the same game, and the page says its result with the names
    t = Yadokarick(players=2, mode="duo", seed=SEED, names=["Ann", "B"], seat=0, bots={1: "greedy"}, bot_delay=0)
    for action in clicked:
        t.step(action)
    assert t.state.is_terminal
    reason = t.state.outcome().reason
    expect(table.locator(".cw-outcome")).to_be_visible()
    expect(table.locator(".cw-history-pos")).to_have_text(history_pos(t.history_len))
    assert "Ann has" in reason
    said = reason.split(" (rules")[0]  # the page starts the sentence with a capital
    expect(table.locator(".cw-outcome")).to_contain_text(re.compile(re.escape(said), re.IGNORECASE))
    assert layout_problems(table) == []
    page.locator(".cw-app").screenshot(path=str(artifacts_root / "app-game-over.png"))

    # a new game: the old table goes, a fresh one is at its start
    page.locator(".cw-app-start").click()
    expect(page.locator(".cw-table")).to_have_count(1)
    expect(page.locator(TABLE).locator(".cw-history-pos")).to_have_text(history_pos(0))
    expect(page.locator(TABLE).locator(".cw-outcome")).to_have_count(0)
    assert errors == []


def test_a_bad_choice_is_said_on_the_page(app_page):
    page, errors = app_page
    field(page, "Game").select_option(label="Depot")
    field(page, "Seat A").fill("Bob")
    field(page, "Seat B").fill("bob")
    page.locator(".cw-app-start").click()
    expect(page.locator(".cw-app-error")).to_contain_text("names must differ")
    expect(page.locator(".cw-table")).to_have_count(0)
    assert errors == []
