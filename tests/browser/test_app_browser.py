"""``cardwidgets play`` in chromium: the command serves the app through Voilà; the page's chooser
starts a Yadokarick duo game (a person named Ann against a greedy bot and the NPC, the bots at
once), which is played to its end by clicking; then "New game" begins a new one. The rules
options are in words, folded, with no drop-down cut short; the table takes the page once
started; an all-bot game plays at its pace and its result leaves the table in sight. The page
asks nothing of another machine (every request outside this one is blocked and counted), and
axe-core finds no serious or critical violation on the chooser nor on a started table.

The chooser is made of ipywidgets: ``.cw-app`` holds labelled ``select`` and ``input`` fields and
the ``.cw-app-start`` button; the table is the usual ``.cw-table``. Voilà shows no code and gives
no access to the kernel, so the test reads the game from the page only, then plays the same
clicks on the engine here and compares the result.
"""

from __future__ import annotations

import json
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


#: The accessibility audit: axe-core from the project's npm dependencies, WCAG 2.0/2.1 A and AA.
AXE = REPO_ROOT / "js" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture
def app_page(browser, app_url, artifacts_root, request):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e.name}: {e.message}"))
    outside: list[str] = []

    def local_only(route):  # a request to another machine: blocked, and counted
        host = re.match(r"^[a-z]+://([^/:]+)", route.request.url)
        if host is not None and host.group(1) not in ("127.0.0.1", "localhost"):
            outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", local_only)
    page.goto(app_url)
    page.locator(".cw-app-start").wait_for(timeout=120_000)  # Voilà ran the app's notebook
    yield page, errors
    out = artifacts_root / request.node.name
    out.mkdir(parents=True, exist_ok=True)
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        page.screenshot(path=str(out / "failure.png"), full_page=True)
    ctx.close()
    assert outside == [], f"the page asked another machine for {outside}"


def axe_violations(page, where: str, artifacts_root, include: str | None = None,
                   exclude: str | None = None) -> dict[str, list[str]]:
    """axe-core's violations (WCAG 2 A/AA) on the page, or on ``include`` less ``exclude`` (CSS
    selectors), by impact: ``{impact: ["rule-id (nodes)"]}``; the whole report goes to the artifacts."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (npm install in js/)")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    context = {"include": [[include]] if include else [["html"]], **({"exclude": [[exclude]]} if exclude else {})}
    result = page.evaluate("([context, tags]) => axe.run(context, {runOnly: {type: 'tag', values: tags}})",
                           [context, AXE_TAGS])
    (artifacts_root / f"axe-{where}.json").write_text(json.dumps(result["violations"], indent=1))
    found: dict[str, list[str]] = {}
    for v in result["violations"]:
        found.setdefault(v["impact"] or "unknown", []).append(f"{v['id']} ({len(v['nodes'])})")
    return found


def serious(found: dict[str, list[str]]) -> dict[str, list[str]]:
    return {k: v for k, v in found.items() if k in ("serious", "critical")}


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
    page.locator(".cw-app-again").click()
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


def cut_selects(page) -> list[str]:
    """The drop-downs of the chooser (shown) whose chosen value does not fit: "seat_after_winn…"."""
    return page.evaluate("""() => {
      const out = [], canvas = document.createElement("canvas").getContext("2d");
      for (const sel of document.querySelectorAll(".cw-app select")) {
        if (!sel.offsetParent || sel.selectedIndex < 0) continue;
        const cs = getComputedStyle(sel);
        canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = sel.options[sel.selectedIndex].text;
        // the text's room: inside the padding (a drawn arrow sits in the right one), less the
        // browser's own arrow when the select keeps it
        const arrow = cs.appearance === "none" ? 0 : 20;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow + 1;
        if (canvas.measureText(text).width > room) out.push(text);
      }
      return out;
    }""")


def test_rules_options_in_words_folded_uncut_and_the_table_takes_the_page(app_page, artifacts_root):
    from cardwidgets import available_games, game_spec
    from cardwidgets.core.spec import option_form

    page, errors = app_page
    field(page, "Game").select_option(label="Depot")
    options = page.locator(".cw-app-options")
    expect(options).to_be_hidden()  # folded under "Rules options"
    page.get_by_role("button", name="Show the rules options").click()
    expect(options).to_be_visible()
    form = option_form("depot", players=4)
    shown = [e for e in form if e["input"] != "fixed"]
    for e in shown:  # each option named in words, with its help, its default and its rule
        expect(field(page, e["label"])).to_be_visible()
    text = options.inner_text()
    for raw in ("seat_after_winner", "penalty_cards_leave_play", "reshuffle_timing", "starting_player"):
        assert raw not in text
    assert "Default: Clockwise from the seat after the winner." in text and "Rule D10.2: Ranking after a game" in text
    assert [h for h in options.locator("h3").all_inner_texts()] == \
        ["Who starts", "The cards and the deal", "How play goes", "Scoring and winning", "How long a game lasts"]
    assert cut_selects(page) == []
    page.screenshot(path=str(artifacts_root / "app-options.png"), full_page=True)
    before = axe_violations(page, "chooser", artifacts_root)
    # every game and mode, with two people at the screen: no choice cut short either
    for game in available_games():
        spec = game_spec(game)
        field(page, "Game").select_option(label=spec.title)
        for i, mode in enumerate(spec.modes):
            if len(spec.modes) > 1:
                field(page, "Mode").select_option(index=i)
            expect(field(page, "Players").locator("option")).to_have_count(len(mode.players))
            if len(mode.players) > 1 and mode.players[0] > 1:
                field(page, "Seat B is played by").select_option(label="a person")
                expect(field(page, "Screen").locator("option").first).to_contain_text("Hot seat")
            expect(page.locator(".cw-app-options h3").first).to_be_visible()
            assert cut_selects(page) == [], (game, mode.name)
    field(page, "Game").select_option(label="Depot")
    expect(field(page, "Ties in the ranking")).to_be_visible()

    field(page, "Ties in the ranking").select_option(label="At random")
    page.locator(".cw-app-start").click()
    table = page.locator(".cw-table")
    table.wait_for(state="visible", timeout=60_000)
    expect(page.locator(".cw-app-chooser")).to_be_hidden()
    box = table.bounding_box()
    assert box["y"] < 120 and box["y"] + 200 < page.viewport_size["height"], box  # at the top, in sight
    expect(page.locator(".cw-app-change")).to_be_visible()
    # the app's own page around the table, and the table widget itself
    around = axe_violations(page, "app-with-table", artifacts_root, exclude=".cw-table")
    inside = axe_violations(page, "table", artifacts_root, include=".cw-table")
    print(f"axe (WCAG 2 A/AA) on the app: chooser {before}; page around the table {around}; table {inside}")
    assert serious(before) == {} and serious(around) == {} and serious(inside) == {}, (before, around, inside)
    page.locator(".cw-app-change").click()
    expect(page.locator(".cw-app-chooser")).to_be_visible()
    assert errors == []


def test_an_all_bot_game_plays_at_its_pace_and_its_result_leaves_the_table_in_sight(app_page, artifacts_root):
    page, errors = app_page
    field(page, "Game").select_option(label="Yadokarick")
    field(page, "Mode").select_option(index=1)  # duo: two players and the NPC
    expect(field(page, "Players").locator("option")).to_have_text(["2"])
    expect(page.locator(".cw-app .widget-text input")).to_have_count(1 + 2 + 1)  # the duo's seats are in
    for seat in ("A", "B"):
        field(page, f"Seat {seat} is played by").select_option(label="computer: greedy")
    expect(field(page, "Screen").locator("option")).to_have_count(1)  # the teacher's: nobody to play
    pace = field(page, "Bots' pace")
    expect(pace.locator("option")).to_have_count(3)  # no "Instant": the game is to be watched
    assert [t.replace("\xa0", " ") for t in pace.locator("option").all_inner_texts()] == \
        ["Slow (1.5 s)", "Normal (0.7 s)", "Fast (0.3 s)"]
    pace.select_option(label="Fast (0.3 s)")
    field(page, "Seed").fill(str(SEED))
    page.locator(".cw-app-start").click()
    table = page.locator(TABLE)
    table.wait_for(state="visible", timeout=60_000)
    # Start answered at once: the game is under way, a move at a time, not over
    shown = table.locator(".cw-history-pos")

    def moves() -> int:
        found = re.search(r"(\d+)", shown.inner_text())
        return int(found.group(1)) if found else 0  # "start of the game"

    expect(shown).not_to_have_text(history_pos(0))  # the bots move, nobody clicked
    assert table.locator(".cw-outcome").count() == 0
    before, began = moves(), time.monotonic()
    time.sleep(1.0)
    played, spent = moves() - before, time.monotonic() - began
    assert played <= spent / 0.3 + 1, (played, spent)  # one move per 0.3 s at most, never a burst
    outcome = table.locator(".cw-outcome")
    outcome.wait_for(state="visible", timeout=60_000)  # 30 moves at 0.3 s
    felt, result = table.locator(".cw-felt-content").bounding_box(), outcome.bounding_box()
    assert result["y"] >= felt["y"] + felt["height"] - 1, (felt, result)  # under the felt, not over it
    assert float(table.locator(".cw-felt-content").evaluate("e => getComputedStyle(e).opacity")) == 1
    page.locator(".cw-app").screenshot(path=str(artifacts_root / "app-all-bots-over.png"))
    assert errors == []
