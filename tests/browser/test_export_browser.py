"""Exported pages in chromium, with the network blocked: they load nothing, draw each position as
the exported seat saw it, and scrub with the buttons, the slider, the keys and the lines of play.

Every request that is not the page itself is aborted and recorded (the tests assert there is none),
and the page's content security policy reports any load it refuses (none either). The DOM is
checked at many positions against ``view(seat)`` of the Python timeline: the cards drawn are the
cards of the view, the narration is the seat's.

DOM hooks: ``#cw-export[data-ready]``; the frame's ``.cw-history-pos``, ``[data-control=first|prev|
next|last|scrub|branch]``, ``.cw-log .cw-log-line``; ``.cw-player .cw-hand [data-card]``;
the page's ``.cw-export-note-here`` and ``[data-control="note"]``.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from cardwidgets import Timeline, export
from cardwidgets.bots import make_bot
from cardwidgets.games import available_games, game_module, game_spec

from .lab import ARTIFACTS, VIEWPORT

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it
    expect = None

pytestmark = pytest.mark.e2e

#: The page is served from here (answered by the test itself): any other URL is a request to block.
URL = "http://export.cardwidgets.test/replay.html"
OUT = ARTIFACTS / "export"

WATCH = """
window.__cw = { csp: [] };
document.addEventListener("securitypolicyviolation", (e) => window.__cw.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.fixture(scope="module", autouse=True)
def _built():
    if not (export.STATIC / "depot.js").is_file():
        pytest.fail("the front end is not built (npm ci && npm run build in js/)", pytrace=False)
    OUT.mkdir(parents=True, exist_ok=True)


class Page:
    """An exported page open in a fresh context: the page, and everything it tried to load."""

    def __init__(self, browser, path: Path, *, reduced_motion: str = "no-preference"):
        self.ctx = browser.new_context(viewport=VIEWPORT, reduced_motion=reduced_motion)
        self.page = self.ctx.new_page()
        self.blocked: list[str] = []
        self.requests: list[str] = []
        self.errors: list[str] = []
        body = path.read_bytes()

        def route(r):
            if r.request.url == URL:
                r.fulfill(body=body, content_type="text/html; charset=utf-8")
            else:
                self.blocked.append(r.request.url)
                r.abort()

        self.ctx.route("**/*", route)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("websocket", lambda w: self.blocked.append(w.url))
        self.page.on("pageerror", lambda e: self.errors.append(f"{e.name}: {e.message}"))
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.add_init_script(WATCH)
        self.page.goto(URL)
        self.page.wait_for_selector("#cw-export[data-ready=true]", timeout=10_000)

    def quiet(self) -> None:
        """Nothing was loaded, refused, or went wrong."""
        assert self.requests == [URL], self.requests
        assert self.blocked == [], self.blocked
        assert self.page.evaluate("window.__cw.csp") == []
        assert self.errors == [], self.errors

    def close(self) -> None:
        self.ctx.close()

    # ---------------------------------------------------------------- reading the DOM
    def position(self) -> str:
        return self.page.locator(".cw-history-pos").inner_text()

    def cards(self, where: str = "") -> list[str]:
        return self.page.locator(f"{where} [data-card]").evaluate_all(
            "els => els.filter((e) => !e.closest('.cw-motion-layer')).map((e) => e.dataset.card)")

    def narration(self) -> list[str]:
        return self.page.locator(".cw-log .cw-log-line:not(.cw-muted)").evaluate_all("els => els.map((e) => e.textContent)")

    def at(self, n: int, length: int) -> None:
        text = "start of the game" if n == 0 else f"move {n} of {length}"
        expect(self.page.locator(".cw-history-pos")).to_contain_text(text)


def own_cards(view: dict) -> list[str]:
    return [str(c) for c in (view["row"] if view.get("mode") == "solo" else view["hands"][view["seat"]] or [])]


def leaves(value) -> Counter:
    """Every scalar of a view, as text, counted (a drawn card must be one of them)."""
    out: Counter = Counter()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif v is not None:
            out[str(v)] += 1
    return out


def depot_cards(view: dict) -> Counter:
    """What a Depot table draws face up: the Storage, the standing play, the viewer's hand, penalties."""
    cards = [*view["storage"], *((view["standing"] or {}).get("cards") or []), *(view["hands"][view["seat"]] or [])]
    cards += [c for pile in view["penalties"] for c in pile]
    return Counter(map(str, cards))


def match(seed: int = 3) -> Timeline:
    """A 3-game Depot match between greedy bots, a branch from move 30, and notes."""
    tl = Timeline(game_module("depot").new_game(players=4, games=3, seed=seed))
    bots = [make_bot("depot", "greedy", seed=k) for k in range(4)]

    def play(limit: int) -> None:
        while not tl.state.is_terminal and limit > 0:
            st = tl.state
            tl.step(bots[st.current_player].act(st.view(st.current_player), st.legal_actions()))
            limit -= 1

    play(10_000)
    tl.goto(12)
    tl.note("B could have kept the 8 here")
    tl.goto(30)
    legal = tl.state.legal_actions()
    tl.step(legal[-1] if str(legal[-1]) != tl.line[30] else legal[0])
    play(9)
    tl.note("the other line ends here")
    tl.switch("main")
    tl.goto(20)
    return tl


def test_a_depot_match_scrubs_offline_as_seat_b_saw_it(browser, tmp_path):
    tl = match()
    seat, length = 1, tl.length
    path = tl.to_html(tmp_path / "match.html", seat)
    size = path.stat().st_size
    assert size <= 1_500_000, size
    p = Page(browser, path)
    page = p.page
    try:
        def check(n: int, line: str = "main") -> None:
            line_length = next(b.length for b in tl.branches if b.name == line)
            p.at(n, line_length)
            view = tl.position(n, line).view(seat)
            assert Counter(p.cards()) == depot_cards(view), n
            assert p.cards(".cw-player .cw-hand") == own_cards(view) or view["phase"] == "finished"
            here = Timeline.from_replay(tl.to_replay())
            here.switch(line)
            here.goto(n)
            said = here.narration(seat)
            assert p.narration() == said[-300:], n  # the narration panel keeps the newest 300 lines

        check(20)  # where the timeline was
        page.locator('[data-control="next"]').click()
        check(21)
        page.locator('[data-control="prev"]').click()
        page.locator('[data-control="prev"]').click()
        check(19)
        page.locator('[data-control="first"]').click()
        check(0)
        page.locator('[data-control="last"]').click()
        check(length)
        expect(page.locator(".cw-outcome")).to_be_visible()  # the match's result
        page.locator('[data-control="scrub"]').evaluate(
            "(el) => { el.value = '12'; el.dispatchEvent(new Event('input')); el.dispatchEvent(new Event('change')); }")
        check(12)
        expect(page.locator(".cw-export-note-here")).to_have_text("Note on move 12 B could have kept the 8 here")
        page.keyboard.press("ArrowRight")
        check(13)
        expect(page.locator(".cw-export-note-here")).to_be_hidden()
        for _ in range(6):
            page.keyboard.press("ArrowLeft")
        check(7)
        page.keyboard.press("End")
        check(length)
        page.keyboard.press("Home")
        check(0)
        page.locator('[data-control="scrub"]').focus()  # keys on the slider step one move too
        page.keyboard.press("ArrowRight")
        check(1)
        for n in (37, 55, 70):  # a few more positions, across the match's games
            page.evaluate("(n) => window.cardwidgetsExport.model.goto(n)", n)
            check(n)
        page.screenshot(path=str(OUT / "depot-match-seat-B.png"), full_page=True)

        page.locator('[data-control="branch"][data-branch="branch-1"]').click()
        branch = next(b for b in tl.branches if b.name == "branch-1")
        check(branch.length, "branch-1")
        expect(page.locator('[data-control="branch"][aria-pressed="true"]')).to_have_attribute("data-branch", "branch-1")
        expect(page.locator(".cw-export-note-here")).to_contain_text("the other line ends here")
        page.keyboard.press("Home")
        check(0, "branch-1")
        page.locator('[data-control="note"][data-index="11"]').click()  # the shared part's note
        check(12, "branch-1")
        page.locator('[data-control="branch"][data-branch="main"]').click()
        check(length)
        assert page.locator("[data-action]").count() == 0  # nothing to play in a replay
        p.quiet()
    finally:
        p.close()


MODES = [(game, mode.name) for game in available_games() for mode in game_spec(game).modes]


@pytest.mark.parametrize(("game", "mode"), MODES, ids=[f"{g}-{m}" for g, m in MODES])
def test_every_game_draws_the_seats_views(browser, tmp_path, game, mode):
    """A typical game between greedy bots, exported for seat A and for the teacher: at positions
    all along it, the hand drawn is the hand in the view, and no card is drawn that the view lacks."""
    spec = game_spec(game)
    players = next(m.players for m in spec.modes if m.name == mode)
    players = players[len(players) // 2]
    st = game_module(game).new_game(players=players, seed=4, **({"mode": mode} if len(spec.modes) > 1 else {}))
    tl = Timeline(st)
    bots = [make_bot(game, "greedy", seed=k) for k in range(players)]
    while not tl.state.is_terminal and tl.length < 400:
        s = tl.state
        tl.step(bots[s.current_player].act(s.view(s.current_player), s.legal_actions()))
    tl.goto(0)
    rng = random.Random(game)
    stops = sorted({0, 1, 2, tl.length, *rng.sample(range(tl.length + 1), min(8, tl.length + 1))})
    for seat in (0, None):
        p = Page(browser, tl.to_html(tmp_path / f"{game}-{mode}-{seat}.html", seat), reduced_motion="reduce")
        try:
            for n in stops:
                p.page.evaluate("(n) => window.cardwidgetsExport.model.goto(n)", n)
                p.at(n, tl.length)
                view = tl.position(n).view(seat)
                drawn = set(p.cards())  # (a card may show twice: on the table and as the last move)
                assert drawn <= set(leaves(view)), (n, drawn - set(leaves(view)))  # only cards of the view
                if seat is not None and not view.get("outcome"):
                    assert p.cards(".cw-player .cw-hand") == own_cards(view), n
                elif seat is None and view.get("current") is not None and view.get("mode") != "solo":
                    actor = view["current"]
                    assert p.cards(".cw-player .cw-hand") == [str(c) for c in view["hands"][actor]], n
            p.page.keyboard.press("Home")
            p.at(0, tl.length)
            p.page.keyboard.press("ArrowRight")
            p.at(1, tl.length)
            if seat == 0:
                p.page.screenshot(path=str(OUT / f"{game}-{mode}-seat-A.png"), full_page=True)
            p.quiet()
        finally:
            p.close()


def test_a_file_opened_from_disk_needs_nothing_else(browser, tmp_path):
    """Opened as a file (file://), as someone who was sent it would: it draws, and asks for nothing."""
    tl = match()
    path = tl.to_html(tmp_path / "match.html", 2)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(path.as_uri())
        page.wait_for_selector("#cw-export[data-ready=true]", timeout=10_000)
        expect(page.locator(".cw-table[data-game=depot]")).to_be_visible()
        page.keyboard.press("End")
        expect(page.locator(".cw-history-pos")).to_contain_text(f"move {tl.length} of {tl.length}")
        assert requests == [path.as_uri()], requests
    finally:
        ctx.close()


def test_the_play_button_plays_the_line_and_pauses(browser, tmp_path):
    """Home, then ▶: the page steps forward by itself, as the live table does; pause stops it."""
    tl = match()
    p = Page(browser, tl.to_html(tmp_path / "match.html", 1))
    page = p.page
    try:
        page.keyboard.press("Home")
        p.at(0, tl.length)
        page.locator('[data-control="replay-play"]').click()
        expect(page.locator('.cw-history [data-control="replay-pause"]')).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".cw-history-pos")).to_contain_text(f"move 2 of {tl.length}", timeout=5_000)
        page.locator('.cw-history [data-control="replay-pause"]').click()
        expect(page.locator('[data-control="replay-play"]')).to_be_visible()
        stopped = p.position()
        page.wait_for_timeout(1_200)  # more than two steps at the default pace
        assert p.position() == stopped
        assert "move 0" not in stopped and "start of the game" not in stopped, stopped
        p.quiet()
    finally:
        p.close()
