"""The Yadokarick table in a live JupyterLab, driven by clicks in chromium: a standard trick with
the marker step, a duo trick with the NPC, a whole solo game, and the layout on a laptop.

Each test opens its own notebook (own kernel) holding ``t = Yadokarick(...)``, clicks the table like
a player would, then checks the DOM and the Python state (read from the same kernel) against the
engine replayed here in plain Python.

DOM hooks used (the front end's contract, ``js/src/yadokarick/``): ``.cw-table[data-game="yadokarick"]``;
``.cw-yk[data-mode]``; hand cards ``.cw-hand [data-card]`` with ``data-action="play <card>"``; the trick
``.cw-trick .cw-trick-slot[data-who]`` (``npc`` for the NPC) and ``.cw-slot-now``; the marker step
``.cw-marker-controls [data-control="move-left|stay|right"]`` (``data-action`` when legal) and the
track ``.cw-track-cell[data-value]``, ``.cw-marker-here``; crabs ``.cw-crab[data-who]`` with
``.cw-stack [data-card]`` and ``.cw-hsize``; duo: ``.cw-npc-deck-count``, ``.cw-last-trick``; solo: the
row ``.cw-row [data-card]`` (``data-control="select"``, or ``data-action="take <card>"`` in a bonus),
crabs ``.cw-crab[data-crab]`` (``data-action="place <card> <crab>"`` once a row card is selected),
``.cw-giveup[data-action]``, decks ``.cw-deck[data-deck][data-action]``, ``[data-control="hint"]`` and
``.cw-hint-action``; ``.cw-history-pos``; ``.cw-outcome``.
"""

from __future__ import annotations

import json
import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import dom_cards, expect_at_latest, measure_layout, require_table, signed, snapshot
from .conftest import open_table as _open_table

pytestmark = pytest.mark.e2e

TABLE = '.cw-table[data-game="yadokarick"]'
LAPTOP_WIDTH = 850
MAX_TABLE_HEIGHT = 640


def open_table(lab_page, name: str, cell: str, height: int = 1900):
    return _open_table(lab_page, name, cell, TABLE, height)


_require_table = require_table("Yadokarick")

# (a) A hand-built standard position: round 2 of 3, trick 8, C leads; seat 0 (A) against three greedy
# bots. A holds G1, the lowest number in play (P1 is set aside), so A moves the marker after the trick.
# B's house is full (six cards), as it must be once a card has collapsed from it (Y8.4).
STANDARD_POSITION = dict(
    hands=[["G1", "G20", "P9"], ["G12", "P14", "G33"], ["P22", "G27", "P31"], ["G5", "P6", "P35"]],
    trick_no=8, leader=2, marker=12, fill=False, round=2, rounds=3, totals=[5, 9, -2, 11],
    houses=[["G4", "G8"], ["P12", "P16", "G13", "P18", "G17", "P21"], ["G24"], ["P10"]],
    collapsed=[[], ["P2"], [], []])
STANDARD_CELL = f"""\
from cardwidgets import Yadokarick
from cardwidgets.games.yadokarick import setup_standard
t = Yadokarick(state=setup_standard(4, **{STANDARD_POSITION!r}), seat=0, bots="greedy", bot_delay=0)
t
"""

# (b) duo: seat 0 (A) against a greedy B, the NPC between them (table order A, NPC, B).
DUO_SEED = 3
DUO_CELL = f"""\
from cardwidgets import Yadokarick
t = Yadokarick(players=2, mode="duo", seed={DUO_SEED}, seat=0, bots={{1: "greedy"}}, bot_delay=0)
t
"""

# (c) solo, seed 10: 133 decisions when the hint is followed (57 draws, 60 placements, 5 bonus cards
# taken, 11 give-ups); the whole game is clicked, reading the hint from the table each time.
SOLO_SEED = 10
SOLO_CELL = f"""\
from cardwidgets import Yadokarick
t = Yadokarick(players=1, mode="solo", seed={SOLO_SEED}, seat=0, bot_delay=0)
t
"""

SNAPSHOT = snapshot()


# --------------------------------------------------------------------------- helpers






def slots(table) -> list[tuple[str, str | None]]:
    """The trick as drawn: (who, card or None) per slot, in play order."""
    return table.locator(".cw-trick .cw-trick-slot").evaluate_all(
        "els => els.map(e => [e.dataset.who, (e.querySelector('[data-card]') || {dataset: {}}).dataset.card || null])")


def expected_standard():
    """Play (a) on the engine with the same bots: A's G1, then A's marker move right."""
    from cardwidgets import Yadokarick
    from cardwidgets.games.yadokarick import setup_standard

    t = Yadokarick(state=setup_standard(4, **STANDARD_POSITION), seat=0, bots="greedy", bot_delay=0)
    start = [str(a) for a in t.history]
    first = t.view
    t.step("play G1")
    marker = t.view
    marker_history = [str(a) for a in t.history]
    t.step("move right")
    return {"start": start, "first": first, "marker": marker, "marker_history": marker_history,
            "after": t.view, "after_history": [str(a) for a in t.history]}


# --------------------------------------------------------------------------- (a) standard
def test_standard_trick_and_marker_move_by_clicking(lab_page):
    """A plays its lowest card by clicking; the trick is judged; A moves the marker right by clicking
    the marker step; the bots play on to A's next lead. DOM and kernel against the engine."""
    exp = expected_standard()
    nb, table = open_table(lab_page, "yk_standard.ipynb", STANDARD_CELL)
    snap = nb.json(SNAPSHOT)
    # the bots C and D led the trick when the table was made
    assert snap["history"] == exp["start"] and len(snap["history"]) == 2 and snap["current"] == 0
    assert snap["view"] == exp["first"]
    expect_at_latest(table, 2)
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Your turn")
    expect(table.locator(".cw-chip-target b")).to_have_text("12")
    expect(table.locator(".cw-marker-here")).to_have_attribute("data-value", "12")
    drawn = [(who, card) for who, card in slots(table)]
    assert drawn == [("2", exp["first"]["trick"][0]["card"]), ("3", exp["first"]["trick"][1]["card"]),
                     ("0", None), ("1", None)], drawn
    expect(table.locator(".cw-slot-now")).to_have_attribute("data-who", "0")
    assert dom_cards(table.locator(".cw-hand [data-card]")) == exp["first"]["hands"][0] == ["G1", "P9", "G20"]
    for c in ("G1", "G20", "P9"):
        expect(table.locator(f'.cw-hand [data-card="{c}"]')).to_have_attribute("data-action", f"play {c}")
    # the houses, bottom to top, and a roofed one
    for s, house in enumerate(STANDARD_POSITION["houses"]):
        assert dom_cards(table.locator(f'.cw-crab[data-who="{s}"] .cw-stack [data-card]')) == house
    expect(table.locator('.cw-crab[data-who="3"] .cw-house-roof')).to_have_count(1)
    expect(table.locator('.cw-crab[data-who="1"] .cw-collapsed .cw-fsize')).to_have_text("F2")
    lab_page.screenshot(table, "yadokarick-standard-trick.png")

    # click G1: B answers, the trick is judged, and A is the marker mover
    table.locator('.cw-hand [data-card="G1"]').click()
    n = len(exp["marker_history"])
    expect_at_latest(table, n)
    snap = nb.json(SNAPSHOT)
    assert snap["history"] == exp["marker_history"] and snap["view"] == exp["marker"]
    assert snap["view"]["phase"] == "marker" and snap["view"]["movers"] == [0] and snap["last_error"] == ""
    expect(table.locator(".cw-header .cw-turn")).to_contain_text("moving the marker")
    expect(table.locator(".cw-trick")).to_have_class(re.compile(r"cw-trick-judged"))
    assert [c for _, c in slots(table)] == [x["card"] for x in exp["marker"]["last_trick"]["cards"]]
    expect(table.locator(".cw-slot-mover")).to_have_attribute("data-who", "0")
    expect(table.locator('.cw-crab[data-who="0"] .cw-badge-mover')).to_have_text("moves the marker")
    for d, action in (("left", "move left"), ("stay", "move stay"), ("right", "move right")):
        expect(table.locator(f'.cw-marker-controls [data-control="move-{d}"]')).to_have_attribute("data-action", action)
    expect(table.locator('.cw-track button[data-action="move right"]')).to_have_attribute("data-value", "13")
    # the own cards are refused now: dimmed, with the rule on hover, and no action
    g20 = table.locator('.cw-hand [data-card="G20"]')
    expect(g20).to_have_attribute("title", re.compile(r"rule Y7\.4"))
    expect(g20).not_to_have_attribute("data-action", "play G20")
    lab_page.screenshot(table, "yadokarick-marker-step.png")

    table.locator('.cw-marker-controls [data-action="move right"]').click()
    expect_at_latest(table, len(exp["after_history"]))
    snap = nb.json(SNAPSHOT)
    assert snap["history"] == exp["after_history"] and snap["view"] == exp["after"]
    assert snap["history"][n] == "move right" and snap["view"]["marker"] == 13
    assert any("12 → 13" in line and "rule Y7.2" in line for line in snap["log"])
    expect(table.locator(".cw-marker-here")).to_have_attribute("data-value", "13")
    expect(table.locator(".cw-chip-target b")).to_have_text("13")
    # A moved last, so A leads trick 9 (rule Y9.1)
    assert snap["view"]["trick_no"] == 9 and snap["current"] == 0 and snap["view"]["leader"] == 0
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Your turn")
    expect(table.locator(".cw-marker-controls")).to_have_count(0)
    for s in range(4):
        expect(table.locator(f'.cw-crab[data-who="{s}"] .cw-hsize b')).to_have_text(str(snap["view"]["house_sizes"][s]))
    expect(table.locator(".cw-error")).to_have_count(0)
    assert lab_page.page_errors == []


# --------------------------------------------------------------------------- (b) duo
def test_duo_tricks_with_the_npc_by_clicking(lab_page):
    """Three duo tricks: A clicks a card, the NPC turns over its card inside the same step, the bot B
    answers; the DOM shows the NPC's card, its deck count, its house (the target) and the next leader."""
    from cardwidgets import Yadokarick

    eng = Yadokarick(players=2, mode="duo", seed=DUO_SEED, seat=0, bots={1: "greedy"}, bot_delay=0)
    nb, table = open_table(lab_page, "yk_duo.ipynb", DUO_CELL)
    expect(table.locator(".cw-yk")).to_have_attribute("data-mode", "duo")
    assert table.locator(".cw-crab").evaluate_all("els => els.map(e => e.dataset.who)") == ["0", "npc", "1"]
    expect(table.locator(".cw-npc-deck-count")).to_have_text("16")
    assert nb.json("t.view") == eng.view
    for trick in range(3):
        snap = nb.json(SNAPSHOT)
        assert snap["view"] == eng.view and snap["current"] == 0
        trick_before = [(x["who"], x["card"]) for x in snap["view"]["trick"]]
        # what the table shows of the trick: the NPC's card already down if it led or played before A
        drawn = [(w, c) for w, c in slots(table) if c is not None]
        assert drawn == [("npc" if w == "NPC" else str("AB".index(w)), c) for w, c in trick_before]
        card = snap["legal"][-1].split()[1]  # A's highest card
        table.locator(f'.cw-hand [data-card="{card}"]').click()
        eng.step(f"play {card}")
        expect_at_latest(table, eng.history_len)
        snap = nb.json(SNAPSHOT)
        assert snap["history"] == [str(a) for a in eng.history] and snap["view"] == eng.view
        v = snap["view"]
        # A's and B's cards only: the NPC never acts, its card is turned over inside a step
        assert len(snap["history"]) == 2 * (trick + 1) + sum(1 for x in v["trick"] if x["who"] != "NPC")
        last = [(x["who"], x["card"]) for x in v["last_trick"]["cards"]]
        assert "NPC" in [w for w, _ in last] and (("A", card) in last)
        npc_card = next(c for w, c in last if w == "NPC")
        expect(table.locator(f'.cw-last-trick [data-card="{npc_card}"]')).to_have_count(1)
        expect(table.locator(".cw-npc-deck-count")).to_have_text(str(v["npc_deck_count"]))
        expect(table.locator(".cw-chip-target b")).to_have_text(str(v["target"]))
        expect(table.locator('.cw-crab[data-who="npc"] .cw-hsize b')).to_have_text(str(v["house_sizes"][2]))
        assert dom_cards(table.locator('.cw-crab[data-who="npc"] .cw-stack [data-card]')) == v["houses"][2]
        assert v["trick_no"] == trick + 2 and snap["current"] == 0
        expect(table.locator(".cw-slot-now")).to_have_attribute("data-who", "0")
        if trick == 1:
            lab_page.screenshot(table, "yadokarick-duo.png")
    # nothing of the NPC deck or B's hand reached the page
    full = eng.state.view(None)
    page_cards = set(dom_cards(table.locator("[data-card]")))
    assert not page_cards & (set(full["npc_deck"]) | set(full["hands"][1]))
    assert lab_page.page_errors == []


# --------------------------------------------------------------------------- (c) solo
def expected_solo():
    """The solo game (c) played by the hint on the engine: every action and the final score."""
    from cardwidgets.games.yadokarick import new_game

    st = new_game(players=1, mode="solo", seed=SOLO_SEED)
    actions = []
    while not st.is_terminal:
        a, _ = st.hint()
        actions.append(str(a))
        st.apply(a)
    return actions, st.score, st.outcome().reason


def click_action(table, action: str) -> None:
    """Do ``action`` the way a player does: decks, row cards then crabs, give-up buttons, bonus."""
    words = action.split()
    kind = words[0]
    if kind == "draw":
        table.locator(f'.cw-deck[data-deck="{words[1]}"][data-action="{action}"]').click()
    elif kind == "place":
        card, crab = words[1], words[2]
        table.locator(f'.cw-row [data-card="{card}"][data-control="select"]').click()
        target = table.locator(f'.cw-crab[data-crab="{crab}"]')
        expect(target).to_have_attribute("data-action", action)
        target.click()
    elif kind == "giveup":
        table.locator(f'.cw-crab[data-crab="{words[1]}"] .cw-giveup[data-action="{action}"]').click()
    elif kind == "take":
        table.locator(f'.cw-row [data-card="{words[1]}"][data-action="{action}"]').click()
    elif kind == "decline":
        table.locator('.cw-controls [data-action="decline"]').click()
    else:  # pragma: no cover - the hint never suggests anything else here
        raise AssertionError(f"unexpected hint {action!r}")


def test_solo_game_by_clicking_the_hint(lab_page):
    """A whole solo game: each turn the player asks for the hint, reads it on the table and does it by
    clicking (draws, placements as row card then crab, bonus cards, give-ups). The end screen shows
    the engine's score."""
    actions, score, reason = expected_solo()
    kinds = {a.split()[0] for a in actions}
    assert {"draw", "place", "take", "giveup"} <= kinds
    nb, table = open_table(lab_page, "yk_solo.ipynb", SOLO_CELL)
    expect(table.locator(".cw-yk")).to_have_attribute("data-mode", "solo")
    clicks = 0
    shot = False
    for i, want in enumerate(actions):
        table.locator('[data-control="hint"]').click()
        shown = table.locator(".cw-hint-action").text_content()
        assert shown == want, (i, shown, want)
        if i >= 40 and not shot and want.startswith("place"):
            # mid-game: the hint shown, its row card selected: the crabs that take it glow
            table.locator(f'.cw-row [data-card="{want.split()[1]}"]').click()
            expect(table.locator(f'.cw-crab[data-crab="{want.split()[2]}"]')).to_have_class(re.compile(r"cw-targetable"))
            lab_page.screenshot(table, "yadokarick-solo-midgame.png")
            table.locator('[data-control="cancel"]').click()
            shot = True
        click_action(table, want)
        clicks += 2 if want.startswith("place") else 1
        expect_at_latest(table, i + 1)
        if i % 30 == 29:
            snap = nb.json(SNAPSHOT)
            assert snap["history"] == actions[: i + 1] and snap["last_error"] == ""
            expect(table.locator(".cw-solo-score")).to_have_text(signed(snap["view"]["score"]))
    snap = nb.json(SNAPSHOT)
    assert snap["terminal"] and snap["history"] == actions
    assert snap["view"]["outcome"]["scores"] == [score] and snap["view"]["score"] == score
    panel = table.locator(".cw-outcome")
    expect(panel).to_be_visible()
    expect(panel.locator(".cw-overlay-head")).to_contain_text(f"Final score {signed(score)}")
    expect(panel.locator(".cw-final-score")).to_have_text(signed(score))
    expect(panel.locator(".cw-reason")).to_contain_text("rules Y14.13, Y14.14")
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Game over")
    expect(table.locator("[data-action]")).to_have_count(0)
    assert reason in snap["view"]["outcome"]["reason"]
    lab_page.screenshot(table, "yadokarick-solo-end.png")
    assert 133 <= clicks < 400
    assert lab_page.page_errors == []


# --------------------------------------------------------------------------- (d) the layout
LAYOUT_CELL = """\
from cardwidgets import Yadokarick
from cardwidgets.games.yadokarick import setup_standard
std = Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
seven = Yadokarick(players=7, seed=3, seat=0, bots="greedy", bot_delay=0)
duo = Yadokarick(players=2, mode="duo", seed=5, seat=1, bots={0: "greedy"}, bot_delay=0)
solo = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
for t in (std, seven, duo):
    for _ in range(4):
        t.step(t.legal[0])
for _ in range(40):
    solo.step(solo.view["hint"]["action"])
while solo.view["phase"] != "turn":
    solo.step(solo.view["hint"]["action"])
"""




def test_layouts_fit_a_laptop(lab_page):
    """At 850 px the table proper (header, felt, player area) of the trick modes is at most 640 px
    tall, narration below; solo is measured and reported too."""
    page = lab_page.page
    page.set_viewport_size({"width": 1280, "height": 1900})
    nb = lab_page.open_notebook("yk_layout.ipynb", [LAYOUT_CELL, "std", "seven", "duo", "solo"])
    assert nb.errors() == []
    tables = page.locator(TABLE)
    expect(tables).to_have_count(4)
    # size the notebook so the tables are 850 px wide
    for _ in range(3):
        now = tables.first.evaluate("el => el.getBoundingClientRect().width")
        vp = page.viewport_size
        page.set_viewport_size({"width": int(vp["width"] + LAPTOP_WIDTH - now), "height": vp["height"]})
        page.wait_for_timeout(300)
    sizes = {}
    for i, name in enumerate(("standard", "seven", "duo", "solo")):
        table = tables.nth(i)
        table.scroll_into_view_if_needed()
        sizes[name] = m = measure_layout(table)
        assert m["width"] == pytest.approx(LAPTOP_WIDTH, abs=3), (name, m)
        assert m["sideBelow"], (name, m)
        lab_page.screenshot(table, f"yadokarick-laptop-{name}.png")
    (lab_page.artifacts / "sizes.json").write_text(json.dumps(sizes, indent=1))
    for name in ("standard", "seven", "duo", "solo"):
        assert sizes[name]["proper"] <= MAX_TABLE_HEIGHT, (name, sizes)
    assert lab_page.page_errors == []
