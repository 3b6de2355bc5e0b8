"""The cirno+neu table in a live JupyterLab, driven by clicks in chromium.

Each test opens its own notebook (own kernel) holding ``t = CirnoNeu(...)``, clicks the table like a
player would, then checks both the DOM and the Python state (read from the same kernel).

DOM hooks used (the front end's contract, ``js/src/cirno_neu/index.js``):
``.cw-table[data-game="cirno_neu"]``; hand cards ``.cw-hand [data-card]`` with ``data-action="play <t>"``
when directly playable; SHOT/DOUBLE SHOT hand cards carry ``data-control="target"`` and start the
targeting step, after which ``.cw-seat[data-seat=k].cw-targetable[data-action="play shot @k"]`` are
clicked; ``.cw-sum``; ``.cw-direction[data-direction]``; ``.cw-turn`` (header),
``.cw-turn-detail`` (shot turn, card k of 2), ``.cw-turn-info .cw-badge-shot`` / ``.cw-badge-double``; ``.cw-seat.cw-current`` / ``.cw-shot-turn``;
``.cw-stack-top .cw-newest[data-card]``; ``.cw-log .cw-log-line`` with ``.cw-rule[data-rule]``;
``.cw-error``; ``.cw-outcome`` (head ``.cw-overlay-head``); ``.cw-seat.cw-out``; ``.cw-lives[data-chips]``;
``.cw-history-pos`` (``move k of k (latest)``), which every kernel sync redraws.
"""

from __future__ import annotations


import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import expect_at_latest, has_class, history_pos, log_lines, require_table, signed, snapshot
from .conftest import open_table as _open_table

pytestmark = pytest.mark.e2e

TABLE = '.cw-table[data-game="cirno_neu"]'
NAMES = "ABCDEFGH"

# --------------------------------------------------------------------------- (a) the scripted position
# Three players, hot-seat in the teacher view: whoever is to act, the clicker plays their hand.
# The draw pile (top first) hands out exactly the cards each later turn needs.
HANDS = [["9", "PASS", "SHOT"], ["-10", "TURN", "-1"], ["99", "DOUBLE", "-10"]]
DRAW = ["DSHOT", "-10", "PASS", "1", "10", "2", "5", "3", "4", "6", "7", "8", "1", "2", "3"]

# One entry per card play: (hand card clicked, target seat clicked or None, action, rule, sum after).
# Turn by turn: A ⑨ · B −10 · C 99 · A PASS · B TURN (now counter-clockwise, so A is next) ·
# A SHOT on B · B's shot turn −10 · then C (after the shooter A, counter-clockwise) DOUBLE ·
# B's double turn −1, 10 · A DOUBLE SHOT on C · C's double shot turn −10, PASS · then C again.
STEPS = [
    ("9", None, "play 9", "N3.1", 9),
    ("-10", None, "play -10", "N3.2", -1),
    ("99", None, "play 99", "N3.3", 99),
    ("PASS", None, "play pass", "N3.4", 99),
    ("TURN", None, "play turn", "N3.5", 99),
    ("SHOT", 1, "play shot @1", "N3.6", 99),
    ("-10", None, "play -10", "N3.2", 89),
    ("DOUBLE", None, "play double", "N3.7", 89),
    ("-1", None, "play -1", "N3.2", 88),
    ("10", None, "play 10", "N3.1", 98),
    ("DSHOT", 2, "play dshot @2", "N3.8", 98),
    ("-10", None, "play -10", "N3.2", 88),
    ("PASS", None, "play pass", "N3.4", 88),
]

SCRIPT_CELL = f"""\
from cardwidgets import CirnoNeu
from cardwidgets.games.cirno_neu import setup_position
t = CirnoNeu(state=setup_position(3, {HANDS!r}, draw={DRAW!r}), seat=None)
t
"""

# (b) sum 95, A holds 10, 5 and -1: 10 and 5 would exceed 99 while -1 is safe (rule N4.3).
REFUSE_CELL = """\
from cardwidgets import CirnoNeu
from cardwidgets.games.cirno_neu import setup_position
t = CirnoNeu(state=setup_position(3, [["10", "5", "-1"], ["1", "2", "3"], ["4", "6", "7"]], sum=95,
                                  draw=["8", "8", "8"]), seat=None)
t
"""

# (c) seat 0 against two greedy bots, life system. Seed 170 is short when seat 0 always plays its first
# playable card: 10 clicks (one SHOT with its target click), 4 rounds, B wins (found by playing
# legal[0] for seat 0 on the engine for seeds 0-299).
MATCH_SEED = 170
MATCH_CELL = f"""\
from cardwidgets import CirnoNeu
t = CirnoNeu(players=3, seat=0, bots="greedy", life_system=True, seed={MATCH_SEED}, bot_delay=0)
t
"""
MAX_CLICKS = 300

# Everything a test compares with the DOM, in one round trip to the kernel.
SNAPSHOT = snapshot(cursor="t.cursor", sum="t.state.sum", direction="t.state.direction", turn="t.state.turn")



def open_table(lab_page, name: str, cell: str, height: int = 1900):
    return _open_table(lab_page, name, cell, TABLE, height)


_require_table = require_table("CirnoNeu")


# --------------------------------------------------------------------------- helpers
def expected_script() -> list[dict]:
    """Replay STEPS on the engine in plain Python: the kernel and the DOM must show exactly this."""
    from cardwidgets.games.cirno_neu import setup_position

    st = setup_position(3, HANDS, draw=DRAW)
    out = []
    for card, target, action, rule, total in STEPS:
        actor = st.current_player
        assert card in st.hand(actor), (action, st.hand(actor))
        assert action in [str(a) for a in st.legal_actions()], (action, str(st))
        events = st.apply(action)
        assert events[0].rule == rule and f"rule {rule}" in events[0].text, [e.text for e in events]
        assert st.sum == total, (action, st.sum)
        out.append({"actor": actor, "history": [str(a) for a in st.history], "sum": st.sum,
                    "direction": st.direction, "turn": st.turn, "events": [e.text for e in events]})
    return out


def test_script_is_what_the_test_claims():
    """The scripted position, checked on the engine alone (no browser): it plays every special card."""
    exp = expected_script()
    by_action = {STEPS[i][2]: e for i, e in enumerate(exp)}
    assert by_action["play turn"]["direction"] == -1                       # TURN reverses (N3.5)
    shot = by_action["play shot @1"]["turn"]                                # B plays a shot turn for A
    assert (shot["actor"], shot["anchor"], shot["kind"], shot["required"]) == (1, 0, "shot", 1)
    assert exp[6]["turn"]["actor"] == 2                                     # then after A, ccw: C
    dbl = by_action["play double"]["turn"]                                  # B must play 2 cards
    assert (dbl["actor"], dbl["kind"], dbl["required"]) == (1, "normal", 2)
    assert exp[8]["turn"] == {**dbl, "played": 1}                           # still B, card 2 of 2
    assert exp[9]["turn"]["actor"] == 0
    dshot = by_action["play dshot @2"]["turn"]                              # C: double shot turn
    assert (dshot["actor"], dshot["anchor"], dshot["kind"], dshot["required"]) == (2, 0, "shot", 2)
    assert exp[11]["turn"] == {**dshot, "played": 1}
    assert exp[12]["turn"]["kind"] == "normal" and exp[12]["turn"]["actor"] == 2
    assert {s[3] for s in STEPS} >= {"N3.1", "N3.2", "N3.3", "N3.4", "N3.5", "N3.6", "N3.7", "N3.8"}


# --------------------------------------------------------------------------- (a)
def expect_turn_shown(table, turn: dict, direction: int) -> None:
    """Direction, header, badges and the current seat as the front end shows a turn record."""
    actor, kind, required, played = turn["actor"], turn["kind"], turn["required"], turn["played"]
    expect(table.locator(".cw-direction")).to_have_attribute("data-direction", "cw" if direction == 1 else "ccw")
    expect(table.locator(".cw-ring")).to_have_attribute("data-direction", "cw" if direction == 1 else "ccw")
    header = table.locator(".cw-header .cw-turn")
    expect(header).to_contain_text(f"{NAMES[actor]} to play")
    if kind == "shot":
        expect(header.locator(".cw-turn-detail")).to_contain_text("shot turn")
    shot_badge = table.locator(".cw-turn-info .cw-badge-shot")
    double_badge = table.locator(".cw-turn-info .cw-badge-double")
    seat = table.locator(f'.cw-seat[data-seat="{actor}"]')
    expect(seat).to_have_class(has_class("cw-current"))
    expect(table.locator(".cw-seat.cw-current")).to_have_count(1)
    if kind == "shot":
        expect(shot_badge).to_have_count(1)
        expect(shot_badge).to_contain_text(f"shot turn, then after {NAMES[turn['anchor']]}")
        expect(seat).to_have_class(has_class("cw-shot-turn"))
    else:
        expect(shot_badge).to_have_count(0)
        expect(table.locator(".cw-seat.cw-shot-turn")).to_have_count(0)
    if required == 2:
        expect(double_badge).to_have_text(f"×2 · card {played + 1} of 2")
        expect(header.locator(".cw-turn-detail")).to_contain_text(f"card {played + 1} of 2")
    else:
        expect(double_badge).to_have_count(0)
        expect(header).not_to_contain_text("card ")
    # the acting player's hand is the one shown (teacher view, hot-seat)
    expect(table.locator(".cw-player .cw-seat-name")).to_have_text(f"{NAMES[actor]}'s hand")


def test_every_special_card_by_clicking(lab_page):
    """(a) ⑨, minus, 99, PASS, TURN, SHOT (target clicked), DOUBLE (2-card turn by two clicks) and
    DOUBLE SHOT (target clicked, then the target's double shot turn): DOM and kernel after each click."""
    expected = expected_script()
    nb, table = open_table(lab_page, "cirno_script.ipynb", SCRIPT_CELL)
    snap = nb.json(SNAPSHOT)
    assert snap["history"] == [] and snap["sum"] == 0 and snap["current"] == 0
    expect(table.locator(".cw-sum")).to_have_text("0")
    expect_turn_shown(table, snap["turn"], 1)
    expect(log_lines(table)).to_have_count(0)
    n_log = 0

    for i, ((card, target, action, rule, total), exp) in enumerate(zip(STEPS, expected)):
        hand = table.locator(".cw-hand")
        if target is None:
            el = hand.locator(f'[data-card="{card}"]').first
            expect(el).to_have_attribute("data-action", action)  # directly playable
            el.click()
        else:
            el = hand.locator(f'[data-card="{card}"][data-control="target"]')
            expect(el).to_have_count(1)
            el.click()  # targeting step: legal target seats glow and carry the action
            expect(el).to_have_class(has_class("cw-selected"))
            expect(table.locator(".cw-ring")).to_have_class(has_class("cw-aiming"))
            targets = table.locator(".cw-seat.cw-targetable")
            actor = exp["actor"]
            others = [s for s in range(3) if s != actor]
            expect(targets).to_have_count(len(others))
            assert [int(s) for s in targets.evaluate_all("els => els.map(e => e.dataset.seat)")] == others
            token = "shot" if card == "SHOT" else "dshot"
            for s in others:
                expect(table.locator(f'.cw-seat[data-seat="{s}"]')).to_have_attribute(
                    "data-action", f"play {token} @{s}")
            if card == "SHOT":
                lab_page.screenshot(table, "cirno-targeting.png")
            # nothing was sent yet: the kernel still holds the previous position
            assert nb.json("len(t.history)") == i
            table.locator(f'.cw-seat.cw-targetable[data-seat="{target}"]').click()
            expect(table.locator(".cw-seat.cw-targetable")).to_have_count(0)

        expect_at_latest(table, i + 1)
        snap = nb.json(SNAPSHOT)
        # kernel
        assert snap["history"] == exp["history"], (action, snap["history"])
        assert snap["history"][-1] == action
        assert snap["sum"] == total == exp["sum"]
        assert snap["turn"] == exp["turn"], (action, snap["turn"])
        assert snap["direction"] == exp["direction"]
        assert snap["last_error"] == ""
        assert snap["log"][n_log:] == exp["events"]
        # DOM
        expect(table.locator(".cw-sum")).to_have_text(signed(total))
        expect(table.locator(".cw-stack-top .cw-newest")).to_have_attribute("data-card", card)
        expect_turn_shown(table, snap["turn"], snap["direction"])
        lines = log_lines(table)
        expect(lines).to_have_count(len(snap["log"]))
        assert len(snap["log"]) > n_log  # the log grew
        expect(lines.nth(n_log)).to_have_text(exp["events"][0])
        expect(lines.nth(n_log).locator(f'.cw-rule[data-rule="{rule}"]')).to_have_count(1)
        expect(table.locator(".cw-error")).to_have_count(0)
        n_log = len(snap["log"])
        if action == "play double":
            lab_page.screenshot(table, "cirno-double-turn.png")  # mid-game: B's 2-card turn is next

    assert snap["history"] == [s[2] for s in STEPS]
    lab_page.screenshot(table, "cirno-script-end.png")
    assert lab_page.page_errors == []


# --------------------------------------------------------------------------- (b)
def test_unsafe_card_is_refused(lab_page):
    """(b) clicking a number that would take the sum over 99 while a safe card is held: the banner
    cites rule N4.3, the kernel history does not change."""
    nb, table = open_table(lab_page, "cirno_refuse.ipynb", REFUSE_CELL)
    before = nb.json(SNAPSHOT)
    assert before["legal"] == ["play -1"] and before["sum"] == 95
    expect(table.locator(".cw-sum")).to_have_text("95")
    ten = table.locator('.cw-hand [data-card="10"]')
    expect(ten).to_have_count(1)
    expect(ten).not_to_have_attribute("data-action", "play 10")  # not offered: unsafe
    expect(ten).to_have_class(has_class("cw-dimmed"))
    expect(table.locator('.cw-hand [data-card="-1"]')).to_have_attribute("data-action", "play -1")

    ten.click()  # sent anyway: Python explains why not
    error = table.locator(".cw-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("rule N4.3")
    expect(error.locator('.cw-rule[data-rule="N4.3"]')).to_have_count(1)
    lab_page.screenshot(table, "cirno-refused.png")

    after = nb.json(SNAPSHOT)
    assert after["history"] == before["history"] == []
    assert after["history_len"] == 0 and after["sum"] == 95
    assert after["view"] == before["view"] and after["legal"] == before["legal"]
    assert after["last_error"].startswith("Illegal: rule N4.3")
    assert "105" in after["last_error"] and "(-1)" in after["last_error"], after["last_error"]
    expect(error.locator(".cw-error-text")).to_have_text(after["last_error"])
    expect(table.locator(".cw-sum")).to_have_text("95")
    expect(table.locator(".cw-history-pos")).to_have_text(history_pos(0))
    expect(log_lines(table)).to_have_count(0)
    assert lab_page.page_errors == []


# --------------------------------------------------------------------------- (c)
def click_first_playable(table, action: str) -> None:
    """Click the hand card of ``action``; for SHOT/DOUBLE SHOT the card, then the target seat."""
    hand = table.locator(".cw-hand")
    if "@" in action:
        words = action.split()
        token = "SHOT" if words[1] == "shot" else "DSHOT"
        hand.locator(f'[data-card="{token}"][data-control="target"]').first.click()
        seat = table.locator(f'.cw-seat.cw-targetable[data-seat="{words[2][1:]}"]')
        expect(seat).to_have_attribute("data-action", action)
        seat.click()
    else:
        hand.locator(f'[data-action="{action}"]').first.click()


def dom_offers(table) -> list[str]:
    """What the hand offers, in hand order, once each: direct plays and the targeted cards' tokens."""
    offered = table.locator(".cw-hand [data-card]").evaluate_all(
        "els => els.filter(e => e.dataset.action || e.dataset.control === 'target')"
        ".map(e => e.dataset.action || e.dataset.card)")
    return list(dict.fromkeys(offered))


def kernel_offers(legal: list[str]) -> list[str]:
    """The same from the kernel's legal list: ``play <t>``, or the card token of a targeted play."""
    out = [{"shot": "SHOT", "dshot": "DSHOT"}[a.split()[1]] if "@" in a else a for a in legal]
    return list(dict.fromkeys(out))


def test_life_system_match_against_bots(lab_page):
    """(c) a whole life-system match against two greedy bots, seat 0 clicking its first playable
    card each turn (SHOT: the card, then the target), until the outcome panel shows."""
    nb, table = open_table(lab_page, "cirno_match.ipynb", MATCH_CELL)
    clicks = 0
    shots = 0
    ours = 0
    while True:
        snap = nb.json(SNAPSHOT)
        expect_at_latest(table, snap["history_len"])
        if snap["terminal"]:
            break
        assert snap["current"] == 0, snap["view"]  # bots answer at once (bot_delay=0)
        legal = snap["legal"]
        assert legal, snap["view"]
        action = legal[0]
        # the hand offers exactly what the kernel allows, in the same order
        assert dom_offers(table) == kernel_offers(legal), legal
        expect(table.locator(".cw-sum")).to_have_text(signed(snap["sum"]))
        if clicks >= MAX_CLICKS:
            pytest.fail(f"the match did not end within {MAX_CLICKS} clicks (history {snap['history_len']}, "
                        f"round {snap['view']['round']}, chips {snap['view']['chips']})", pytrace=False)
        before = snap["history_len"]
        click_first_playable(table, action)
        clicks += 2 if "@" in action else 1
        shots += "@" in action
        ours += 1
        # the DOM moved on: the kernel took the card (and the bots answered within the same message)
        expect(table.locator(".cw-history-pos")).not_to_have_text(history_pos(before))
        if ours == 3:
            lab_page.screenshot(table, "cirno-match-midgame.png")

    view = snap["view"]
    out = nb.json("{'outcome': t.state.outcome().to_dict(), 'chips': list(t.state.chips), "
                  "'active': list(t.state.active), 'terminal': t.state.is_terminal, 'phase': t.state.phase}")
    assert out["terminal"] is True and out["phase"] == "finished"
    winners = out["outcome"]["winners"]
    assert len(winners) == 1 and out["active"].count(True) == 1 and out["active"][winners[0]]
    w = winners[0]
    panel = table.locator(".cw-outcome")
    expect(panel).to_be_visible()
    expect(panel.locator(".cw-overlay-head")).to_contain_text(
        "A (you) wins the match!" if w == 0 else f"{NAMES[w]} wins the match")
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Match over")
    # chips: the seats and the score table agree with the kernel
    assert out["outcome"]["scores"] == out["chips"] == view["chips"]
    for s, alive in enumerate(out["active"]):
        seat = table.locator(f'.cw-seat[data-seat="{s}"]')
        if alive:
            expect(seat).not_to_have_class(has_class("cw-out"))
            expect(seat.locator(".cw-lives")).to_have_attribute("data-chips", str(out["chips"][s]))
            expect(seat.locator(".cw-life")).to_have_count(out["chips"][s])
        else:
            expect(seat).to_have_class(has_class("cw-out"))
            expect(seat.locator(".cw-life")).to_have_count(0)
        expect(panel.locator(f'tr[data-seat="{s}"] td').last).to_have_text(str(out["chips"][s]))
    expect(table.locator(".cw-seat.cw-out")).to_have_count(out["active"].count(False))
    expect(table.locator(f'.cw-seat[data-seat="{w}"]')).to_have_class(has_class("cw-winner"))
    expect(panel.locator("tr.cw-winner-row")).to_have_attribute("data-seat", str(w))
    expect(table.locator(".cw-hand [data-action]")).to_have_count(0)
    lab_page.screenshot(table, "cirno-match-end.png")
    assert 0 < clicks <= MAX_CLICKS
    assert lab_page.page_errors == []
