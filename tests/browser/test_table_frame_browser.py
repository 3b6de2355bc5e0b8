"""The shared table frame in a live JupyterLab, driven by chromium: the trust boundary, the past,
lines of play, the narration, a bot's turn, and the layout at laptop and wide widths.

DOM hooks (the frame's contract, ``js/src/lib/frame.js``): ``.cw-past`` with
``[data-control="latest"]``; ``.cw-branches [data-control="branch"][data-branch]`` (``aria-pressed``
on the line shown); ``.cw-history-pos``; ``.cw-turn[data-turn]``; ``.cw-error`` inside
``.cw-error-slot``; ``.cw-log``; ``.cw-main`` (the table proper) and ``.cw-side`` (narration and
scrubber).
"""

from __future__ import annotations

import json

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import measure_layout, require_table, set_output_width
from .conftest import open_table as _open_table
from .lab import _PANEL_JS

pytestmark = pytest.mark.e2e

DEPOT = '.cw-table[data-game="depot"]'
CIRNO = '.cw-table[data-game="cirno_neu"]'
#: The table proper (header, felt, player area) must fit a laptop screen at this width.
LAPTOP_WIDTH = 850
WIDE_WIDTH = 1200
MAX_TABLE_HEIGHT = 640

_require_depot = require_table("Depot")
_require_cirno = require_table("CirnoNeu")

VS_BOTS = """\
from cardwidgets import Depot
t = Depot(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
t
"""

# A table built with history before it is shown: it must open at the newest narration line.
WITH_HISTORY = """\
from cardwidgets import Depot
t = Depot(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
for _ in range(14):
    if not t.legal:
        break
    plays = [a for a in t.legal if a.startswith("play")]
    t.step((plays or t.legal)[0])
t
"""

# Finds the anywidget model of the table from the page, as any script in the page could.
MODEL_JS = f"""async ([path, modelId]) => {{
    const panel = ({_PANEL_JS})(path);
    for (const cell of panel.content.widgets) {{
      if (cell.model.type !== "code") continue;
      for (const out of cell.outputArea.widgets) {{
        for (const child of Array.from(out.children())) {{
          if (!child._manager) continue;
          const manager = await child._manager.promise;
          window.__cwModel = await manager.get_model(modelId);
          return true;
        }}
      }}
    }}
    return false;
}}"""


def open_table(lab_page, name: str, cell: str, selector: str = DEPOT):
    return _open_table(lab_page, name, cell, selector, 1400)


def at(table, cursor: int, length: int) -> None:
    text = f"move {cursor} of {length}" + (" (latest)" if cursor == length else "")
    expect(table.locator(".cw-history-pos")).to_have_text(text)


def test_hostile_front_end_cannot_set_traits(lab_page):
    """A page script sets synced traits through the widget model: Python refuses, nothing leaks."""
    nb, table = open_table(lab_page, "hostile.ipynb", VS_BOTS)
    nb.run("for _ in range(3): t.step([a for a in t.legal if a.startswith('play')][0])")
    before = nb.json("{'seat': t.seat, 'cursor': t.cursor, 'len': t.history_len, 'model': t.model_id}")
    at(table, before["cursor"], before["len"])
    page = lab_page.page
    assert page.evaluate(MODEL_JS, ["hostile.ipynb", before["model"]]) is True

    # 1. switch itself to the teacher view
    page.evaluate("() => { const m = window.__cwModel; m.set('seat', null); m.save_changes(); }")
    error = table.locator(".cw-error")
    expect(error).to_contain_text("Refused")
    expect(error).to_contain_text("seat")
    after = nb.json("{'seat': t.seat, 'cursor': t.cursor, 'len': t.history_len, 'hands': t.view['hands'], "
                    "'error': t.last_error}")
    assert after["seat"] == 0 and after["cursor"] == before["cursor"] and after["len"] == before["len"]
    assert "seat" in after["error"]
    assert sum(h is not None for h in after["hands"]) == 1
    # Python put the browser's copy back, and no other hand reached the DOM
    page.wait_for_function("() => window.__cwModel.get('seat') === 0")
    expect(table.locator(".cw-seats [data-card]")).to_have_count(0)
    expect(table.locator(".cw-chip-teacher")).to_have_count(0)
    lab_page.screenshot(table, "hostile-seat-refused.png")

    # 2. move the cursor behind the table's back
    table.locator('[data-control="clear-error"]').click()
    expect(error).to_have_count(0)
    page.evaluate("() => { const m = window.__cwModel; m.set('cursor', 0); m.save_changes(); }")
    expect(error).to_contain_text("cursor")
    assert nb.json("[t.cursor, t.history_len, t.seat]") == [before["cursor"], before["len"], 0]
    page.wait_for_function(f"() => window.__cwModel.get('cursor') === {before['cursor']}")
    at(table, before["cursor"], before["len"])
    expect(table.locator(".cw-past")).to_have_count(0)
    assert lab_page.page_errors == []


def test_past_banner_new_line_and_switching_lines(lab_page):
    """Scrub back: the banner says where we are (a bot's move waits, not "waiting for" forever);
    acting at the viewer's own earlier move starts a new line, shown in the scrubber; clicking a
    line switches to it."""
    nb, table = open_table(lab_page, "lines.ipynb", VS_BOTS)
    info = nb.json("_cw_info()", setup="""
for _ in range(12):
    if t.history_len >= 12:
        break
    t.step([a for a in t.legal if a.startswith('play')][0] if any(a.startswith('play') for a in t.legal) else t.legal[0])

def _cw_info():
    tl = t.timeline
    own = max(k for k in range(tl.length) if tl.position(k).current_player == 0)
    bot = max(k for k in range(tl.length) if tl.position(k).current_player not in (0, None))
    return {"len": tl.length, "own": own, "bot": bot, "line": list(tl.line)}
""")
    n = info["len"]
    at(table, n, n)

    # a bot's position in the past
    table.locator('[data-control="first"]').click()
    expect(table.locator(".cw-history-pos")).to_contain_text("start of the game")
    scrub_to(table, info["bot"])
    at(table, info["bot"], n)
    banner = table.locator(".cw-past")
    expect(banner).to_contain_text(f"Paused in the past: move {info['bot']} of {n}")
    expect(banner).to_contain_text("played by the computer, which waits while you look back")
    expect(table).not_to_contain_text("waiting for")
    expect(table.locator(".cw-turn")).to_have_attribute("data-turn", "bot")
    lab_page.page.wait_for_timeout(400)
    assert nb.json("[t.cursor, t.history_len]") == [info["bot"], n]  # the bots did not move
    lab_page.screenshot(table, "past-bot.png")

    # the viewer's own earlier move: acting starts a new line
    scrub_to(table, info["own"])
    at(table, info["own"], n)
    expect(banner).to_contain_text("Playing a move here starts a new line of play")
    played = info["line"][info["own"]]
    legal = nb.json("t.legal")
    other = next(a for a in legal if a.startswith("play") and a != played)
    table.locator(f'.cw-legal [data-move="{other}"]').click()
    table.locator('[data-control="play"]').click()
    lines = table.locator('.cw-branches [data-control="branch"]')
    expect(lines).to_have_count(2)
    state = nb.json("{'branch': t.branch, 'branches': t.branches, 'cursor': t.cursor, 'len': t.history_len}")
    assert state["branch"] != "main" and len(state["branches"]) == 2
    assert state["branches"][1]["from"] == info["own"]
    expect(table.locator(f'[data-branch="{state["branch"]}"]')).to_have_attribute("aria-pressed", "true")
    expect(table.locator('[data-branch="main"]')).to_have_attribute("aria-pressed", "false")
    expect(table.locator('[data-branch="main"]')).to_contain_text(f"Main line{n} moves")
    expect(banner).to_have_count(0)  # the new line's latest position (the bots answered)
    lab_page.screenshot(table, "new-line.png")

    # switch lines by clicking
    table.locator('[data-branch="main"]').click()
    expect(table.locator('[data-branch="main"]')).to_have_attribute("aria-pressed", "true")
    at(table, n, n)
    assert nb.json("[t.branch, t.cursor, [str(a) for a in t.history][:%d]]" % (info["own"] + 1)) == \
        ["main", n, info["line"][: info["own"] + 1]]
    table.locator(f'[data-branch="{state["branch"]}"]').click()
    expect(table.locator(f'[data-branch="{state["branch"]}"]')).to_have_attribute("aria-pressed", "true")
    assert nb.json("[t.branch, t.cursor]") == [state["branch"], state["len"]]
    assert lab_page.page_errors == []


def scrub_to(table, k: int) -> None:
    """Move the scrubber to position k, as a drag and release does (one goto message)."""
    table.locator('[data-control="scrub"]').evaluate(
        "(el, k) => { el.value = String(k); el.dispatchEvent(new Event('change', { bubbles: true })); }", k)


def test_narration_opens_at_the_newest_line(lab_page):
    """A table shown with history already played opens with its newest narration line in view."""
    nb, table = open_table(lab_page, "history.ipynb", WITH_HISTORY)
    log = table.locator(".cw-log")
    expect(log.locator(".cw-log-latest")).to_be_visible()
    if table.locator(".cw-log-collapsed").count():  # under a narrow table: the two newest lines, whole
        assert log.locator(".cw-log-line:visible").count() == 2
        table.locator('[data-control="log-toggle"]').click()  # opened: every line, in a scrolled box
        expect(log.locator(".cw-log-latest")).to_be_visible()
        lab_page.page.wait_for_timeout(100)  # scrolled in the next frame
    box = log.evaluate("el => [el.scrollTop, el.scrollHeight, el.clientHeight]")
    assert box[1] > box[2] + 50, box  # the narration overflows its box ...
    assert box[0] + box[2] >= box[1] - 2, box  # ... and is scrolled to the end
    latest = nb.json("t.narration[-1]")
    expect(log.locator(".cw-log-latest")).to_have_text(latest)
    lab_page.screenshot(table, "narration-newest.png")
    assert lab_page.page_errors == []


def test_bot_turn_disables_controls_and_says_who_thinks(lab_page):
    """With bot_delay the table shows whose move the computer is thinking about, controls off."""
    cell = VS_BOTS.replace("bot_delay=0", "bot_delay=1.2")
    nb, table = open_table(lab_page, "thinking.ipynb", cell)
    play = nb.json("[a for a in t.legal if a.startswith('play')][0]")
    table.locator(f'.cw-legal [data-move="{play}"]').click()
    table.locator('[data-control="play"]').click()
    turn = table.locator(".cw-turn")
    expect(turn).to_have_attribute("data-turn", "thinking", timeout=5_000)
    expect(turn).to_contain_text("B is thinking")
    expect(table.locator('.cw-seat[data-seat="1"] .cw-thinking')).to_have_count(1)
    expect(table.locator('[data-control="play"]')).to_be_disabled()
    expect(table.locator('[data-control="pass"]')).to_be_disabled()
    expect(table.locator(".cw-hand button[data-card]")).to_have_count(0)
    lab_page.screenshot(table, "thinking.png")
    expect(turn).to_have_text("Your turn", timeout=15_000)
    expect(table.locator(".cw-hand button[data-card]").first).to_be_enabled()
    assert lab_page.page_errors == []






@pytest.mark.parametrize("game,cell", [
    ("depot", VS_BOTS.replace("seed=1", "seed=2")),
    ("cirno_neu", "from cardwidgets import CirnoNeu\nt = CirnoNeu(players=4, seed=3, seat=0, bots='greedy', "
                  "bot_delay=0, life_system=True)\nt\n"),
])
def test_layout_fits_a_laptop_and_uses_a_wide_screen(lab_page, artifacts_root, game, cell):
    """At 850 px the table proper is at most 640 px tall with the narration below; at 1200 px the
    narration and scrubber sit beside it. A refusal does not move the table."""
    nb, table = open_table(lab_page, f"layout_{game}.ipynb", cell, DEPOT if game == "depot" else CIRNO)
    nb.run("""
for _ in range(6):
    plays = [a for a in t.legal if a.startswith('play')]
    if not t.legal or t.state.is_terminal:
        break
    t.step((plays or t.legal)[0])
""")
    expect(table.locator(".cw-log-latest")).to_be_visible()
    sizes = {}
    sizes["laptop"] = laptop = set_output_width(lab_page, table, LAPTOP_WIDTH)
    lab_page.screenshot(table, f"{game}-laptop.png")
    assert laptop["width"] == pytest.approx(LAPTOP_WIDTH, abs=3), laptop
    assert laptop["sideBelow"] and not laptop["sideBeside"], laptop
    assert laptop["proper"] <= MAX_TABLE_HEIGHT, laptop

    # a refusal is laid over the table: the player area stays where it was
    illegal = nb.json("_cw_illegal()", setup="""
def _cw_illegal():
    hand = t.view['hands'][0]
    for v in hand:
        if f"play {v}".lower() not in t.legal:
            return str(v)
    return None
""")
    if illegal is not None and nb.json("t.state.current_player") == 0:
        top = laptop["player"]
        card = table.locator(f'.cw-hand [data-card="{illegal}"]').first
        card.click()
        if game == "depot":
            table.locator('[data-control="play"]').click()
        expect(table.locator(".cw-error")).to_be_visible()
        assert measure_layout(table)["player"] == top
        lab_page.screenshot(table, f"{game}-laptop-refused.png")
        table.locator('[data-control="clear-error"]').click()

    sizes["wide"] = wide = set_output_width(lab_page, table, WIDE_WIDTH)
    lab_page.screenshot(table, f"{game}-wide.png")
    assert wide["sideBeside"], wide
    assert wide["height"] <= wide["proper"] + 2, wide  # the side never makes the table taller
    (lab_page.artifacts / "sizes.json").write_text(json.dumps(sizes, indent=1))
    assert lab_page.page_errors == []
