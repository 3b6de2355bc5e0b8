"""Tables for teaching in a live JupyterLab, driven by chromium: the preview of the move pointed at,
a replay shown as a seat and played with play/pause, a lesson on a table, and a seated player's
move in the past, which is re-dealt.

DOM hooks (``js/README.md``): ``.cw-preview-slot .cw-preview[data-preview]`` with
``.cw-preview-line``; the scrubber's ``[data-control="replay-play"]`` / ``"replay-pause"`` and
``.cw-history-pos``; ``.cw-lesson[data-lesson]`` with ``.cw-lesson-progress``,
``.cw-lesson-feedback[data-ok]``, ``[data-control="lesson-hint"]``, ``"lesson-next"``;
``.cw-branch-dealt[data-dealt-for]``.
"""

from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import require_table
from .conftest import open_table as _open_table

pytestmark = pytest.mark.e2e

CIRNO = '.cw-table[data-game="cirno_neu"]'
DEPOT = '.cw-table[data-game="depot"]'

_require_cirno = require_table("CirnoNeu")
_require_depot = require_table("Depot")


def open_table(lab_page, name: str, cell: str, selector: str):
    return _open_table(lab_page, name, cell, selector, 1500)


def scrub_to(table, k: int) -> None:
    """Move the scrubber to position k, as a drag and release does (one goto message)."""
    table.locator('[data-control="scrub"]').evaluate(
        "(el, k) => { el.value = String(k); el.dispatchEvent(new Event('change', { bubbles: true })); }", k)


def test_pointing_at_a_move_previews_it_under_the_moves(lab_page):
    """Resting the pointer on a card asks Python; the lines it may see appear under the moves and
    go when the pointer leaves. The keyboard's focus does the same."""
    nb, table = open_table(lab_page, "preview.ipynb", """\
from cardwidgets import CirnoNeu
t = CirnoNeu(players=3, seat=0, bots="greedy", seed=7, bot_delay=0)
t
""", CIRNO)
    legal = nb.json("t.legal")
    action = next(a for a in legal if table.locator(f'.cw-hand [data-action="{a}"]').count())
    expected = nb.json(f"t.preview_lines({action!r})")
    assert expected and expected[-1].startswith("Then A draws"), expected  # it stops before the draw
    card = table.locator(f'.cw-hand [data-action="{action}"]')
    card.hover()
    box = table.locator(f'.cw-preview-slot .cw-preview[data-preview="{action}"]')
    expect(box).to_be_visible()
    expect(box.locator(".cw-preview-line")).to_have_text(expected)
    assert nb.json("t.preview") == {"action": action, "lines": expected}  # Python's answer, synced
    # under the player's moves: nothing on the felt is covered
    felt, preview = table.locator(".cw-felt").bounding_box(), box.bounding_box()
    assert preview["y"] >= felt["y"] + felt["height"], (preview, felt)
    lab_page.screenshot(table, "preview.png")
    table.locator(".cw-title").hover()
    expect(table.locator(".cw-preview")).to_have_count(0)
    # the keyboard: a focused move previews too
    other = next((a for a in legal if a != action and table.locator(f'.cw-hand [data-action="{a}"]').count()), action)
    table.locator(f'.cw-hand [data-action="{other}"]').focus()
    expect(table.locator(f'.cw-preview[data-preview="{other}"]')).to_be_visible()
    # playing the move clears it
    table.locator(f'.cw-hand [data-action="{other}"]').click()
    expect(table.locator(".cw-history-pos")).not_to_have_text("start of the game")
    assert nb.json("t.history_len") >= 1
    assert lab_page.page_errors == []


REPLAY_CELL = """\
from cardwidgets import Depot
game = Depot(players=4, seat=0, bots="greedy", seed=1, bot_delay=0)
while game.history_len < 16:
    game.step(game.legal[0])
t = Depot.from_replay(game, seat=1)
t.goto(0)
t
"""


def test_a_replay_as_a_seat_plays_and_pauses(lab_page):
    """A recorded game shown as seat B: ▶ moves the position along (the DOM follows, B's hand and
    B's narration), ⏸ stops it where it is."""
    nb, table = open_table(lab_page, "replay.ipynb", REPLAY_CELL, DEPOT)
    n = nb.json("t.history_len")
    pos = table.locator(".cw-history-pos")
    expect(pos).to_have_text(re.compile(r"^start of the game"))
    hand = table.locator(".cw-player .cw-hand [data-card]")

    def cards() -> list[str]:
        return hand.evaluate_all("els => els.map((e) => e.dataset.card)")

    assert cards() == [str(c) for c in nb.json("t.view['hands'][1]")]  # B's own hand, face up

    table.locator('.cw-history [data-control="replay-play"]').click()
    expect(table.locator('.cw-history [data-control="replay-pause"]')).to_be_visible()
    expect(table.locator(".cw-past")).to_contain_text("Playing the line")
    expect(pos).to_have_text(re.compile(rf"^move [3-9] of {n}$"), timeout=10_000)
    assert nb.json("t.playing") > 0
    table.locator('.cw-history [data-control="replay-pause"]').click()
    expect(table.locator('.cw-history [data-control="replay-play"]')).to_be_visible()
    stopped = pos.text_content()
    lab_page.page.wait_for_timeout(1500)
    assert pos.text_content() == stopped  # paused: it stays
    k = int(stopped.split()[1])
    state = nb.json("{'playing': t.playing, 'cursor': t.cursor, 'view': t.view, 'narration': t.narration,"
                    " 'b': t.timeline.state.view(1), 'log': t.timeline.narration(1, last=80)}")
    assert state["playing"] == 0 and state["cursor"] == k
    assert state["view"] == state["b"] and state["narration"] == state["log"]  # B's view and words only
    assert cards() == [str(c) for c in state["b"]["hands"][1]]
    # played to the end, it stops by itself
    table.locator('.cw-history [data-control="replay-play"]').click()
    expect(pos).to_have_text(f"move {n} of {n} (latest)", timeout=20_000)
    expect(table.locator('.cw-history [data-control="replay-play"]')).to_be_visible()
    assert nb.json("[t.playing, t.cursor]") == [0, n]
    assert lab_page.page_errors == []


LESSON_CELL = """\
import cardwidgets
t = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0.4)
t
"""


def test_a_lesson_on_a_table(lab_page):
    """A wrong card changes nothing and the panel says why with its rule; the hint; a right card is
    played and the other players' moves follow one after another; the end offers the next lesson."""
    nb, table = open_table(lab_page, "lesson.ipynb", LESSON_CELL, CIRNO)
    panel = table.locator(".cw-lesson")
    expect(panel).to_have_attribute("data-lesson", "cirno_neu/the-running-sum")
    expect(panel.locator(".cw-lesson-title")).to_have_text("The running sum")
    expect(panel.locator(".cw-lesson-progress")).to_have_text("Step 1 of 2")
    expect(panel.locator(".cw-lesson-prompt")).to_contain_text("The sum is 90")

    table.locator('.cw-hand [data-card="10"]').click()  # over 99 while a safe card is held
    feedback = panel.locator(".cw-lesson-feedback")
    expect(feedback).to_have_attribute("data-ok", "false")
    expect(feedback).to_contain_text("10 would make the sum 100")
    expect(feedback.locator('.cw-rule[data-rule="N4.3"]')).to_be_visible()
    assert nb.json("[t.history_len, t.last_error]") == [0, ""]
    expect(table.locator(".cw-error")).to_have_count(0)

    panel.locator('[data-control="lesson-hint"]').click()
    expect(panel.locator(".cw-lesson-hint")).to_contain_text("90 + 5 = 95")
    lab_page.screenshot(table, "lesson-wrong.png")

    # Every text the position shows from now on, recorded in the page (polling could miss one).
    table.evaluate("""root => {
        window.cwSeen = [];
        const pos = () => root.querySelector(".cw-history-pos");
        new MutationObserver(() => {
            const text = pos() && pos().textContent.trim();
            if (text && window.cwSeen[window.cwSeen.length - 1] !== text) window.cwSeen.push(text);
        }).observe(root, {subtree: true, childList: true, characterData: true});
    }""")
    table.locator('.cw-hand [data-action="play 5"]').click()
    expect(feedback).to_have_attribute("data-ok", "true")
    expect(panel.locator(".cw-lesson-waiting")).to_be_visible()  # B and C move one after another
    expect(table.locator(".cw-history-pos")).to_have_text("move 3 of 3 (latest)")
    seen = lab_page.page.evaluate("window.cwSeen")
    assert [t for t in seen if t.startswith("move ")] == [f"move {k} of {k} (latest)" for k in (1, 2, 3)], seen
    expect(panel.locator(".cw-lesson-progress")).to_have_text("Step 2 of 2")
    expect(panel.locator(".cw-lesson-waiting")).to_have_count(0)

    table.locator('.cw-hand [data-action="play 3"]').click()
    expect(panel.locator(".cw-lesson-progress")).to_have_text("Done: 2 of 2 steps")
    lab_page.screenshot(table, "lesson-done.png")
    following = nb.json("cardwidgets.lessons.available('cirno_neu')[1]")
    panel.locator('[data-control="lesson-next"]').click()
    expect(panel).to_have_attribute("data-lesson", following)
    expect(panel.locator(".cw-lesson-progress")).to_have_text(re.compile(r"^Step 1 of \d+$"))
    assert nb.json("[t.lesson['id'], t.history_len]") == [following, 0]
    assert lab_page.page_errors == []


TRAVEL_CELL = """\
from cardwidgets import CirnoNeu
t = CirnoNeu(players=3, seat=0, bots="greedy", seed=21, bot_delay=0)
for _ in range(4):
    t.step(t.legal[0])
t
"""


def test_a_seated_player_going_back_plays_on_a_re_dealt_line(lab_page):
    """Scrub back to an own earlier turn and click another card: the new line is marked re-dealt, and
    the position there looks the same to the player."""
    nb, table = open_table(lab_page, "travel.ipynb", TRAVEL_CELL, CIRNO)
    info = nb.json("_cw_info()", setup="""
def _cw_info():
    tl = t.timeline
    k = max(k for k in range(tl.length) if tl.position(k).current_player == 0
            and sum(not str(a).startswith('play shot') and not str(a).startswith('play dshot')
                    for a in tl.position(k).legal_actions()) > 1)
    legal = [str(a) for a in tl.position(k).legal_actions()]
    other = next(a for a in legal if a != tl.line[k] and ' @' not in a)
    return {'k': k, 'other': other, 'len': tl.length, 'view': tl.position(k).view(0)}
""")
    scrub_to(table, info["k"])
    expect(table.locator(".cw-past")).to_contain_text("the cards you have not seen are dealt again")
    table.locator(f'.cw-hand [data-action="{info["other"]}"]').click()
    dealt = table.locator('.cw-branches .cw-branch-dealt[data-dealt-for="0"]')
    expect(dealt).to_have_count(1)
    state = nb.json("{'b': t.timeline.branches[-1].dealt_for, 'branch': t.branch, 'start': t.timeline.branches[-1].start,"
                    " 'view': t.timeline.position(t.timeline.branches[-1].start).view(0),"
                    " 'dealt': t.timeline._lines[t.branch].dealt.view(0)}")
    assert state["b"] == 0 and state["branch"] != "main" and state["start"] == info["k"]
    assert state["dealt"] == state["view"] == info["view"]
    expect(table.locator(f'[data-branch="{state["branch"]}"]')).to_have_attribute("aria-pressed", "true")
    lab_page.screenshot(table, "re-dealt.png")
    assert lab_page.page_errors == []
