"""WCAG 2.1 AA with axe-core 4 (from npm, injected by Playwright) on every game's table in
JupyterLab (Yadokarick duo and solo included), a lesson table, an exported page and the static
site's pages with their live tables, each at several widths: no serious or critical violation,
and no name that leaves out the text it shows (WCAG 2.5.3). axe is scoped to the table's root (``.cw-table``; the exported page's
``#cw-export``): JupyterLab's own chrome is not ours. The narration reaches screen readers through
one polite live region that receives only the new lines, and every control is reached by Tab.

Figures (violating nodes by impact, per surface) go to ``test-artifacts/browser/axe.json``.
"""

from __future__ import annotations

import json

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it
    expect = None

from cardwidgets import Timeline
from cardwidgets.bots import make_bot
from cardwidgets.games import game_module

from .conftest import axe_audit, by_impact, history_pos, require_table, unreachable_controls
from .lab import ARTIFACTS, VIEWPORT
from .test_site_browser import _every_game_and_mode, drawn, site  # noqa: F401  (site: the built site, served)

pytestmark = pytest.mark.e2e

_require = require_table("Depot")

#: (surface, notebook cell): the viewer's table part-way through a game against bots.
TABLES = [
    ("depot", "from cardwidgets import Depot\nt = Depot(players=4, seed=3, seat=0, bots='greedy', bot_delay=0)\n"
              "t.step(t.legal[-1])\nt"),
    ("cirno_neu", "from cardwidgets import CirnoNeu\nt = CirnoNeu(players=4, seed=3, seat=0, bots='greedy', bot_delay=0, "
                  "life_system=True)\nt.step(t.legal[0])\nt"),
    ("crypto_trick", "from cardwidgets import CryptoTrick\nt = CryptoTrick(players=4, seed=3, seat=0, bots='greedy', "
                     "bot_delay=0)\nt.step(t.legal[0])\nt"),
    ("yadokarick", "from cardwidgets import Yadokarick\nt = Yadokarick(players=4, seed=3, seat=0, bots='greedy', "
                   "bot_delay=0)\nt.step(t.legal[0])\nt"),
    ("yadokarick-duo", "from cardwidgets import Yadokarick\nt = Yadokarick(players=2, mode='duo', seed=8, seat=0, "
                       "bots={1: 'greedy'}, bot_delay=0)\nt.step(t.legal[0])\nt"),
    ("yadokarick-solo", "from cardwidgets import Yadokarick\nt = Yadokarick(players=1, mode='solo', seed=3, seat=0)\n"
                        "for _ in range(4):\n    t.step(t.legal[0])\nt"),
    ("teacher-cirno_neu", "from cardwidgets import CirnoNeu\nt = CirnoNeu(players=5, seed=2, seat=None)\nt.step(t.legal[0])\nt"),
    ("lesson", "import cardwidgets\nt = cardwidgets.lesson('depot/sets-and-runs', bot_delay=0)\nt"),
]
_REPORT: dict[str, dict] = {}


def _report(surface: str, violations: list[dict], **extra) -> None:
    _REPORT[surface] = {"by_impact": by_impact(violations), "rules": {v["id"]: v["nodes"] for v in violations}, **extra}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "axe.json"
    old = json.loads(path.read_text()) if path.is_file() else {}
    path.write_text(json.dumps({**old, **_REPORT}, indent=1, sort_keys=True))


def _serious(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in ("serious", "critical")]


#: Window widths the tables are audited at: the table's layout, and the size its cards are drawn at
#: (corners, captions, footers), follow the width it is given.
WIDTHS = (VIEWPORT["width"], 1800, 760)

#: The card buttons of a table by size class, and what each shows (its corners and marks included).
CARD_SIZES_JS = """(root) => { const out = {};
    for (const b of root.querySelectorAll("button[data-card]")) {
      const size = [...b.classList].find((c) => /^cw-card-(xs|sm|md|lg)$/.test(c)) || "other";
      out[size] = (out[size] || 0) + 1;
    }
    return out; }"""


@pytest.mark.parametrize("surface,cell", TABLES, ids=[t[0] for t in TABLES])
def test_every_table_meets_wcag_aa(lab_page, surface, cell):
    """axe on the table's root at every width (so every size its cards are drawn at): no serious or
    critical violation, and no card or control whose name leaves out the text it shows (WCAG 2.5.3,
    axe's label-content-name-mismatch); every control reached by Tab."""
    page = lab_page.page
    page.set_viewport_size(VIEWPORT)
    nb = lab_page.open_notebook(f"a11y_{surface}.ipynb", [cell])
    assert nb.errors() == []
    table = page.locator(".cw-table").first
    table.wait_for(state="visible", timeout=60_000)
    expect(table.locator(".cw-history-pos")).to_have_text(history_pos(nb.json("t.history_len")))
    found, sizes = [], {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": VIEWPORT["height"]})
        page.wait_for_timeout(300)  # cards at rest: axe reads colours as painted
        violations = axe_audit(page, ".cw-table")
        found += [{**v, "width": width} for v in violations]
        for size, n in table.evaluate(CARD_SIZES_JS).items():
            sizes[size] = max(sizes.get(size, 0), n)
    page.set_viewport_size(VIEWPORT)
    _report(f"lab:{surface}", found, card_buttons_by_size=sizes)
    assert [v for v in found if v["id"] == "label-content-name-mismatch"] == [], json.dumps(found, indent=1)[:3000]
    assert _serious(found) == [], json.dumps(found, indent=1)[:3000]
    assert unreachable_controls(page, ".cw-table") == []


def test_the_narration_is_announced_line_by_line(lab_page):
    """One polite live region; after a move it holds the move's new narration lines, no earlier line."""
    page = lab_page.page
    cell = "from cardwidgets import Depot\nt = Depot(players=3, seed=3, seat=0)\nt"
    nb = lab_page.open_notebook("a11y_live.ipynb", [cell])
    table = page.locator(".cw-table").first
    table.wait_for(state="visible", timeout=60_000)
    # the visible list is redrawn whole at every change: as a live region it said nothing or all again
    assert table.locator(".cw-log[aria-live], .cw-log [aria-live]").count() == 0
    assert table.locator(".cw-announce[aria-live]").count() == 1
    live = table.locator('.cw-announce[aria-live="polite"]')
    before = nb.json("list(t.narration)")
    assert live.inner_text() == ""  # what was said before the table was shown is not read out
    move = nb.json("[a for a in t.legal if a.startswith('play')][0]")
    table.locator(f'.cw-legal [data-move="{move}"]').click()
    table.locator('[data-control="play"]').click()
    expect(table.locator(".cw-history-pos")).to_have_text(history_pos(1))
    after = nb.json("list(t.narration)")
    new = after[len(before):]
    assert new and live.locator("p").evaluate_all("els => els.map((e) => e.textContent)") == new


def test_an_exported_page_meets_wcag_aa(browser, tmp_path):
    """An exported Depot match for seat B, at its start and at a position with a note: axe on the
    page's content (``#cw-export``) finds no serious or critical violation; Tab reaches every control."""
    tl = Timeline(game_module("depot").new_game(players=4, seed=3))
    bots = [make_bot("depot", "greedy", seed=k) for k in range(4)]
    while not tl.state.is_terminal and tl.length < 40:
        st = tl.state
        tl.step(bots[st.current_player].act(st.view(st.current_player), st.legal_actions()))
    tl.goto(12)
    tl.note("B could have kept the 8 here")
    path = tl.to_html(tmp_path / "match.html", 1)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    try:
        page.goto(path.as_uri())
        page.wait_for_selector("#cw-export[data-ready=true]", timeout=10_000)
        found = []
        for n in (0, 12, tl.length):
            page.evaluate("(n) => window.cardwidgetsExport.model.goto(n)", n)
            page.wait_for_timeout(200)
            found += axe_audit(page, "#cw-export")
        _report("export:depot", found)
        assert _serious(found) == [], json.dumps(found, indent=1)[:3000]
        assert unreachable_controls(page, "#cw-export") == []
    finally:
        ctx.close()


def test_the_static_site_meets_wcag_aa_with_its_tables(browser, site):  # noqa: F811
    """The static site's pages, whole (the chooser; a live table of every game and mode, seated
    against bots; a lesson), at every width: axe finds no serious or critical violation, and no
    card or control whose name leaves out the text it shows (label-content-name-mismatch)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    pages = [("index", "index.html")]
    for game, mode, players in _every_game_and_mode():
        bots = "" if players == 1 else "&bots=greedy"
        pages.append((f"{game}-{mode}", f"play.html?game={game}&mode={mode}&players={players}&seat=0{bots}"
                                        "&bot_delay=0&seed=2"))
    pages.append(("lesson", "lesson.html?id=depot/sets-and-runs"))
    bad = {}
    try:
        for surface, path in pages:
            page.goto(site.url + path)
            if path.startswith("index"):
                page.wait_for_selector("#cw-chooser #cw-game", timeout=30_000)
            else:
                drawn(page)
            found, sizes = [], {}
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": VIEWPORT["height"]})
                page.wait_for_timeout(300)  # cards at rest: axe reads colours as painted
                found += [{**v, "width": width} for v in axe_audit(page, "body")]
                if page.locator(".cw-table").count():
                    for size, n in page.locator(".cw-table").evaluate(CARD_SIZES_JS).items():
                        sizes[size] = max(sizes.get(size, 0), n)
            _report(f"site:{surface}", found, card_buttons_by_size=sizes)
            wrong = [v for v in found if v["id"] == "label-content-name-mismatch" or v["impact"] in ("serious", "critical")]
            if wrong:
                bad[surface] = wrong
    finally:
        ctx.close()
    assert bad == {}, json.dumps(bad, indent=1)[:4000]
