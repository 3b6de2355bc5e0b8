"""The static site in real chromium: built into a temporary folder, served by a local static
server, every request outside that folder refused and counted (the count must be 0).

A lesson finished by clicks, Depot played by clicks, a hot-seat Crypto Trick started from the
chooser, a bad link's message, and an accessibility audit (axe-core) of the pages, the chooser
and every game's live table included. Python runs
in Pyodide in each page's Web Worker; the tests wait on ``.cw-table[data-moves]``.
DOM hooks: ``#cw-status[data-state][data-param]``, ``#cw-chooser`` (``#cw-game``,
``#cw-players``, ``#cw-seat-<k>-name``, ``#cw-seat-<k>-who``, ``#cw-screen``), the tables' own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import _unavailable, layout_problems
from .lab import VIEWPORT
from .site import SiteServer, guard

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the browser fixture
    pass

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "js" / "node_modules" / "axe-core" / "axe.min.js"
#: A cold start compiles Pyodide's WebAssembly: generous on a loaded 2-core machine.
START = 90_000
TABLE = ".cw-table"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from cardwidgets.site import SiteError, build

    try:
        out = build(tmp_path_factory.mktemp("site") / "public")
    except SiteError as e:
        _unavailable(str(e))
    with SiteServer(out) as server:
        yield server


@pytest.fixture
def visit(browser, site, artifacts_root, request):
    """Open a page of the site in a fresh context; at the end, nothing outside the site was asked for."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)[:100]
    out = artifacts_root / name
    out.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport=VIEWPORT)
    refused = guard(ctx, site.url)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"[{m.type}] {m.text}"))
    page.on("pageerror", lambda e: console.append(f"[pageerror] {e}"))

    def go(path: str):
        page.goto(site.url + path)
        return page

    go.page = page  # type: ignore[attr-defined]
    go.out = out  # type: ignore[attr-defined]
    yield go
    (out / "console.log").write_text("\n".join(console) + "\n")
    try:
        page.screenshot(path=str(out / "last.png"), full_page=True)
    finally:
        ctx.close()
    assert refused == [], f"the site asked for {len(refused)} URL(s) outside its folder: {refused[:5]}"
    assert not [c for c in console if c.startswith("[pageerror]")], console


def moves(page) -> int:
    return int(page.locator(TABLE).get_attribute("data-moves"))


def wait_moves(page, at_least: int) -> int:
    page.wait_for_function(f"() => Number(document.querySelector('{TABLE}')?.dataset.moves) >= {at_least}",
                           timeout=30_000)
    return moves(page)


def drawn(page) -> None:
    page.wait_for_function("() => document.querySelector('#cw-status')?.dataset.state === 'done'"
                           " || document.querySelector('#cw-status')?.dataset.state === 'problem'", timeout=START)
    status = page.locator("#cw-status")
    assert status.get_attribute("data-state") == "done", status.text_content()
    expect(page.locator(TABLE)).to_be_visible()


def audit(page, out: Path | None = None, name: str = "axe") -> list[str]:
    """axe-core's serious and critical violations (WCAG 2.1 A and AA) on the whole page: the
    chooser, the status, the links and the live table in it. Every violation found, whatever its
    impact, goes to ``<name>.txt`` in the test's artifacts."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))  # inline: no request
    page.wait_for_timeout(300)  # cards at rest: axe reads colours as painted
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']});
        return r.violations.map(v => ({ impact: v.impact, text:
            `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}` }));
    }""")
    if out is not None:
        (out / f"{name}.txt").write_text("".join(f"{v['text']}\n" for v in found))
    return [v["text"] for v in found if v["impact"] in ("serious", "critical")]


def test_a_lesson_is_finished_by_clicks(visit):
    page = visit("lesson.html?id=depot/sets-and-runs")
    drawn(page)
    panel = page.locator(".cw-lesson")
    expect(panel).to_have_attribute("data-lesson", "depot/sets-and-runs")
    expect(panel.locator(".cw-lesson-progress")).to_have_text("Step 1 of 3")
    table = page.locator(TABLE)
    for step, (play, after) in enumerate((("play 2 2", 3), ("play 6 7", 6), ("play 3 3 3", 7)), start=1):
        move = table.locator(f'.cw-legal [data-move="{play}"]')
        move.click()
        button = table.locator('[data-control="play"]')
        expect(button).to_have_attribute("data-action", play)
        button.click()
        wait_moves(page, after)
    expect(panel.locator(".cw-lesson-progress")).to_have_text("Done: 3 of 3 steps")
    assert audit(page, visit.out) == []
    # the next lesson, on the same table: the address follows it
    panel.locator('[data-control="lesson-next"]').click()
    expect(panel).to_have_attribute("data-lesson", "depot/leading-and-beating")
    page.wait_for_url(re.compile(r"lesson\.html\?id=depot/leading-and-beating$"))
    expect(page.locator("#cw-heading")).to_contain_text("Leading and beating")


def test_depot_is_played_by_clicks_with_the_network_blocked(visit):
    page = visit("play.html?game=depot&players=3&seat=0&bots=greedy&seed=3&bot_delay=0")
    drawn(page)
    expect(page.locator("#cw-heading")).to_have_text("Depot")
    table = page.locator(TABLE)
    assert moves(page) == 0
    for round_ in range(3):
        before = moves(page)
        expect(table.locator(".cw-legal [data-move]").first).to_be_visible()
        chip = table.locator(".cw-legal [data-move]").first
        play = chip.get_attribute("data-move")
        if play.startswith("pass"):
            table.locator(f'[data-action="{play}"]').first.click()
        else:
            chip.click()
            button = table.locator('[data-control="play"]')
            expect(button).to_have_attribute("data-action", play)
            button.click()
        wait_moves(page, before + 1)
    # the bots answered in the worker: more moves than the three clicks
    assert moves(page) > 3
    assert audit(page, visit.out) == []


def test_a_hot_seat_crypto_trick_from_the_chooser(visit):
    page = visit("index.html")
    expect(page.locator("#cw-chooser #cw-game")).to_be_visible()
    page.select_option("#cw-game", "crypto_trick")
    page.select_option("#cw-players", "3")
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        page.fill(f"#cw-seat-{seat}-name", name)
        page.select_option(f"#cw-seat-{seat}-who", "")
    expect(page.locator("#cw-screen")).to_have_value("hotseat")
    href = page.locator("#cw-link").get_attribute("href")
    assert href.startswith("play.html?game=crypto_trick") and "hotseat=true" in href and "names=Ann%2CBob%2CCy" in href
    assert audit(page, visit.out) == []
    page.locator(".cw-start").click()
    page.wait_for_url(re.compile(r"play\.html\?game=crypto_trick"))
    drawn(page)
    table = page.locator(TABLE)
    expect(table.locator(".cw-chip-hotseat")).to_be_visible()
    curtains = clicks = 0
    people = set()
    for _ in range(60):
        if curtains >= 3 and clicks >= 4:
            break
        curtain = table.locator(".cw-curtain")
        if curtain.count():
            expect(table.locator(".cw-player")).to_have_count(0)  # nobody's cards while it is down
            people.add(curtain.get_attribute("data-seat"))
            curtain.locator('[data-control="iam"]').click()
            expect(table.locator(".cw-curtain")).to_have_count(0)
            curtains += 1
            continue
        before = moves(page)
        control = table.locator(".cw-main [data-action]:not([disabled])").first
        expect(control).to_be_visible()
        control.click()
        clicks += 1
        page.wait_for_function(f"() => Number(document.querySelector('{TABLE}')?.dataset.moves) > {before}"
                               " || document.querySelector('.cw-curtain') !== null", timeout=30_000)
    assert curtains >= 3 and clicks >= 4 and len(people) >= 2, (curtains, clicks, people)


def test_previews_the_scrubber_and_a_new_line_work_as_in_jupyter(visit):
    """cirno+neu against paced bots: a preview answered by Python, the bots thinking at their pace
    while the page stays responsive, the scrubber going back and a move there starting a new line."""
    page = visit("play.html?game=cirno_neu&players=3&seat=0&bots=greedy&seed=7&bot_delay=0.6")
    drawn(page)
    table = page.locator(TABLE)
    card = table.locator(".cw-hand [data-action]").first
    action = card.get_attribute("data-action")
    card.hover()
    box = table.locator(f'.cw-preview-slot .cw-preview[data-preview="{action}"]')
    expect(box).to_be_visible()
    expect(box.locator(".cw-preview-line").last).to_contain_text("draws")  # stops before the hidden draw
    card.click()
    wait_moves(page, 1)
    # the bots wait their pace in the worker; the page answers meanwhile
    expect(table).to_have_class(re.compile(r"\bcw-thinking-now\b"))
    assert page.evaluate("() => new Promise((r) => { const t = performance.now(); "
                         "requestAnimationFrame(() => r(performance.now() - t)); })") < 1000
    wait_moves(page, 3)
    page.wait_for_function("() => !document.querySelector('.cw-table').classList.contains('cw-thinking-now')")
    table.locator('[data-control="scrub"]').evaluate(
        "(el) => { el.value = '0'; el.dispatchEvent(new Event('change', { bubbles: true })); }")
    expect(table.locator(".cw-history-pos")).to_contain_text("start")
    other = table.locator(".cw-hand [data-action]").last
    other.click()  # a move in the past: a new line of play (re-dealt for this seat)
    expect(table.locator(".cw-history")).to_contain_text("Line 2")
    expect(table.locator(".cw-history")).to_contain_text("re-dealt")
    assert page.locator(".cw-error").count() == 0


def test_a_long_last_move_keeps_its_seat_on_the_table(visit):
    """Depot for five at 700 px: E's "passed: took the 2 and gave an 8" ends in "…" inside E's seat.
    It widened the seat past the felt and the table instead, E's cards cut at the edge, on this
    page (JupyterLab's narrower type kept it in)."""
    page = visit.page
    page.set_viewport_size({"width": 700, "height": VIEWPORT["height"]})
    visit("play.html?game=depot&players=5&seat=0&bots=greedy&bot_delay=0&seed=5")
    drawn(page)
    table = page.locator(TABLE)
    table.locator(".cw-legal [data-move]").last.click()
    table.locator('[data-control="play"][data-action]').click()
    wait_moves(page, 5)
    expect(table.locator('.cw-seat[data-seat="4"] .cw-bubble')).to_have_text("passed: took the 2 and gave an 8")
    assert layout_problems(table) == []


def _every_game_and_mode() -> list[tuple[str, str, int]]:
    from cardwidgets.games import available_games, game_spec

    return [(g, m.name, m.players[0]) for g in available_games() for m in game_spec(g).modes]


def test_every_game_and_mode_plays_a_move(visit):
    """One context (the browser's cache warm after the first): each game and mode draws a table
    with a legal move for the seated person, and a click on it is played by Python."""
    page = visit.page
    for n, (game, mode, players) in enumerate(_every_game_and_mode()):
        bots = "" if players == 1 else "&bots=greedy"
        visit(f"play.html?game={game}&mode={mode}&players={players}&seat=0{bots}&bot_delay=0&seed=2")
        drawn(page)
        # the first start keeps a snapshot of Python's memory in the browser; the others restore it
        page.wait_for_function("() => window.cwTimings !== undefined")
        assert page.evaluate("window.cwTimings.snapshot === 1") == (n > 0), page.evaluate("window.cwTimings")
        table = page.locator(TABLE)
        expect(table).to_have_attribute("data-game", game)
        page.wait_for_function("() => document.querySelector('.cw-table .cw-legal [data-move], "
                               ".cw-table .cw-main [data-action]:not([disabled])') !== null")
        before = moves(page)
        chip = table.locator(".cw-legal [data-move]")
        if game == "depot" and chip.count():
            chip.first.click()
            table.locator('[data-control="play"][data-action]').click()
        else:
            table.locator(".cw-main [data-action]:not([disabled])").first.click()
        wait_moves(page, before + 1)
        assert page.locator(".cw-error").count() == 0, (game, mode, page.locator(".cw-error").text_content())
        # the page with its live table, after the move
        assert audit(page, visit.out, f"axe-{game}-{mode}") == [], (game, mode)


@pytest.mark.parametrize("path, param, words", [
    ("play.html?game=chess", "game", "no game 'chess'"),
    ("play.html?game=depot&players=9", "players", "players=9 is not allowed"),
    ("play.html?game=depot&games=7", "games", "games=7 is not allowed"),
    ("play.html?game=depot&players=3&seat=E", "seat", "no seat 'E'"),
    ("lesson.html?id=depot/no-such-lesson", "id", "no lesson 'depot/no-such-lesson'"),
])
def test_a_bad_link_says_which_parameter_is_wrong(visit, path, param, words):
    page = visit(path)
    status = page.locator("#cw-status")
    expect(status).to_have_attribute("data-state", "problem", timeout=START)
    expect(status).to_have_attribute("data-param", param)
    expect(status).to_contain_text(words)
    expect(status).to_have_attribute("role", "alert")
    assert "Traceback" not in page.content()
    expect(page.locator('a[href="index.html"]').first).to_be_visible()
    if param == "game":
        assert audit(page, visit.out) == []


def test_a_page_says_when_python_cannot_start(visit, site):
    # Pyodide's files refused: as on a site whose Python copy is missing or out of reach.
    page = visit.page
    page.route("**/pyodide/pyodide.asm.wasm", lambda r: r.abort())
    visit("play.html?game=depot")
    status = page.locator("#cw-status")
    expect(status).to_have_attribute("data-state", "problem", timeout=START)
    expect(status).to_contain_text("Python could not start")


def test_a_site_with_a_hosted_pyodide_loads_python_from_there(browser, tmp_path):
    """``--pyodide URL``: the site holds no Pyodide, and its pages load it from the hosted copy
    (here another local server, on another origin); nothing else is asked for."""
    from cardwidgets.site import STATIC, build

    with SiteServer(STATIC, cors=True) as host:
        out = build(tmp_path / "public", pyodide=host.url + "pyodide")
        assert not (out / "pyodide").exists()
        with SiteServer(out) as site:
            ctx = browser.new_context(viewport=VIEWPORT)
            refused = guard(ctx, site.url, host.url + "pyodide/")
            page = ctx.new_page()
            try:
                page.goto(site.url + "play.html?game=depot&players=3&seat=0&bots=random")
                drawn(page)
            finally:
                ctx.close()
    assert refused == []
    assert any(p.startswith("/pyodide/pyodide.asm.wasm") for p in host.requests)
    assert not any("pyodide" in p for p in site.requests)


# --------------------------------------------------------------------------- the docs site
@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    """The documentation site, built as its own test builds it, served like any static host."""
    import os
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("docs")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d", str(out / "doctrees"), "docs",
                          str(out / "html")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    with SiteServer(out / "html") as server:
        yield server


def test_a_game_page_of_the_docs_plays(browser, docs):
    """The rules page of a game embeds a live table (the static site's, built by the same command)
    that plays by clicks inside the page, with nothing asked for outside the docs."""
    ctx = browser.new_context(viewport=VIEWPORT)
    refused = guard(ctx, docs.url)
    try:
        page = ctx.new_page()
        page.goto(docs.url + "rules/depot.html")
        live = page.locator("iframe.cw-live")
        live.scroll_into_view_if_needed()  # the frame loads lazily, as a reader scrolls to it
        frame = page.frame_locator("iframe.cw-live")
        expect(frame.locator("#cw-status")).to_have_attribute("data-state", "done", timeout=START)
        table = frame.locator(TABLE)
        chip = table.locator(".cw-legal [data-move]").first
        expect(chip).to_be_visible(timeout=30_000)  # the reader's turn: no bot moves until they do
        before = int(table.get_attribute("data-moves"))
        play = chip.get_attribute("data-move")
        if play.startswith("pass"):
            table.locator(f'[data-action="{play}"]').first.click()
        else:
            chip.click()
            table.locator('[data-control="play"]').click()
        expect(table).not_to_have_attribute("data-moves", str(before), timeout=30_000)
        assert int(table.get_attribute("data-moves")) > before
    finally:
        ctx.close()
    assert refused == [], f"the docs asked for {len(refused)} URL(s) outside themselves: {refused[:5]}"
