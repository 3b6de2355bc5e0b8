"""The Crypto Trick table without a browser: messages in, traits out, and nothing hidden synced.

The hot-seat position (3 players, seed 4): A holds Y2 B1 B4 B5 B6 R4, B Y3 B2 R2 R5 R6 W1,
C Y1 Y4 Y5 Y6 B3 R1; the indicator is W6 (only white is trump), the hidden card R3. A offers B1,
B passes, C wants it, gives A R1 face down and leads B1; A follows B4, B follows B2: A wins.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from cardwidgets import CryptoTrick, IllegalActionError
from cardwidgets.games.crypto_trick import new_game

CARD = re.compile(r"\b[YBRPGW]\d{1,2}\b")


def send(t, msg):
    """What the comm does with a custom message from the front end."""
    t._on_msg(t, msg, [])


def snapshot(t):
    return (t.cursor, t.history_len, json.dumps(t.view, sort_keys=True), list(t.legal), list(t.narration),
            json.dumps(t.refusals, sort_keys=True), t.state.to_dict())


def synced_cards(t) -> set[str]:
    """Every card name in what the comm sends the browser (``get_state``), except the game's
    static card lists (the whole deck, the block cards) and the rules reference's examples."""
    state = t.get_state()
    state.pop("rules")
    view = dict(state.pop("view"))
    view.pop("cards")
    view.pop("block_cards")
    state["view"] = view
    return set(CARD.findall(json.dumps(state)))


def private_cards(st, seat) -> set[str]:
    """What ``seat`` may not see at ``st``: the others' hands (less a card it gave or received,
    which it knows) and the hidden card."""
    known = {g["card"] for g in st.view(seat)["gives"] if g["card"]}
    others = {c for s in range(st.players) if s != seat for c in st.hand(s)}
    return (others - known) | {st.hidden_card}


@pytest.fixture
def hot():
    """Teacher view, hot seat (no bots): the scripted deal of the module docstring."""
    return CryptoTrick(players=3, seed=4, bot_delay=0)


# --------------------------------------------------------------------------- acting, phase by phase
def test_traits_at_start(hot):
    assert hot.game == "crypto_trick" and hot.cursor == 0 and hot.history_len == 0 and hot.last_error == ""
    assert hot.view == hot.state.view(None) and hot.view["phase"] == "offer"
    assert hot.legal == ["reveal Y2", "reveal B1", "reveal B4", "reveal B5", "reveal B6", "reveal R4"]
    assert hot.refusals == {}  # every card may be offered
    assert hot.rules["C6.3"]["title"] and hot.hold is None


def test_each_phase_by_act_messages(hot):
    steps = [  # action, phase after it, rule of its first narration line
        ("reveal B1", "declare", "C5.1"),
        ("pass", "declare", "C5.2"),
        ("want", "give", "C5.2"),
        ("give R1", "follow", "C5.5"),
        ("play B4", "follow", "C6.3"),
        ("play B2", "offer", "C6.3"),
    ]
    for i, (action, phase, rule) in enumerate(steps):
        lines = len(hot.narration)
        assert action in hot.legal, (action, hot.legal)
        send(hot, {"type": "act", "action": action})
        assert hot.last_error == "", hot.last_error
        assert hot.history_len == hot.cursor == i + 1
        assert hot.view["phase"] == phase
        assert f"rule {rule}" in hot.narration[lines]
        assert hot.view["last_action"]["action"] == action
    v = hot.view
    assert v["declarations"] == [] and v["last_trick"]["winner"] == 0  # A's B4 beat B1 and B2
    assert v["won"][0] == ["B1", "B4", "B2"] and v["won_blocks"][0] == 1 and v["score_now"][0] == 1
    assert v["current"] == 0 and v["trick"] == 2
    assert [str(a) for a in hot.history] == [s[0] for s in steps]


def test_declare_and_give_are_shown_in_the_view(hot):
    for a in ("reveal B1", "pass"):
        send(hot, {"type": "act", "action": a})
    assert hot.view["offered"] == "B1" and hot.view["declarations"] == [{"seat": 1, "want": False}]
    assert hot.legal == ["want", "pass"] and hot.refusals == {}
    send(hot, {"type": "act", "action": "want"})
    assert hot.view["declarer"] == 2 and hot.legal == [f"give {c}" for c in hot.state.hand(2)]
    send(hot, {"type": "act", "action": "give R1"})
    v = hot.view
    assert v["leader"] == 2 and v["lead_color"] == "B" and v["table"][0]["card"] == "B1"
    assert v["gives"] == [{"trick": 1, "from": 2, "to": 0, "card": "R1"}]  # the teacher sees it


def test_must_follow_refusals_name_the_rule(hot):
    for a in ("reveal B1", "pass", "want", "give R1"):
        hot.step(a)
    # A follows blue: B4 B5 B6 are legal, the rest is refused under C6.3
    assert hot.legal == ["play B4", "play B5", "play B6"]
    assert set(hot.refusals) == {"play Y2", "play R1", "play R4"}
    for action, why in hot.refusals.items():
        assert why == str(hot.state.explain(action)) and why.startswith("Illegal: rule C6.3 — the lead is B1")
    assert set(hot.legal) | set(hot.refusals) == set(hot.state.ui_candidates(0))


@pytest.mark.parametrize("actions, msg, words", [
    ((), {"type": "act", "action": "reveal W1"}, "rule C5.1"),                       # not in A's hand
    ((), {"type": "act", "action": "want"}, "rule G2"),                               # nothing offered yet
    ((), {"type": "act", "action": "play Y2"}, "rule G2"),
    (("reveal B1",), {"type": "act", "action": "give Y3"}, "rule G2"),                # declaring, not giving
    (("reveal B1", "pass", "want"), {"type": "act", "action": "give Y2"}, "rule C5.5"),  # C holds no Y2
    (("reveal B1", "pass", "want", "give R1"), {"type": "act", "action": "play Y2"}, "rule C6.3"),
    (("reveal B1", "pass", "want", "give R1"), {"type": "act", "action": "play W6"}, "rule C6.2"),
    ((), {"type": "act", "action": "reveal"}, "needs a card"),
    ((), {"type": "act", "action": "dance"}, "neither a card nor a command"),
    ((), {"type": "act", "action": 5}, "must be action text"),
    ((), {"type": "goto", "index": 9}, "index must be"),
    ((), {"type": "explode"}, "Unknown message type"),
])
def test_refusals_set_last_error_with_the_rule_and_change_nothing(hot, actions, msg, words):
    for a in actions:
        hot.step(a)
    before = snapshot(hot)
    send(hot, msg)
    assert words in hot.last_error, hot.last_error
    assert snapshot(hot) == before
    send(hot, {"type": "clear_error"})
    assert hot.last_error == ""


def test_refusal_for_a_player_seat_is_its_own_and_wrong_turn_is_G3():
    t = CryptoTrick(players=3, seed=4, seat=1, bot_delay=0)
    assert t.legal == [] and t.refusals == {}  # A offers first
    send(t, {"type": "act", "action": "reveal Y3"})
    assert "rule G3" in t.last_error and t.history_len == 0
    t.step("reveal B1")  # from code: acts for whoever is to act
    assert t.legal == ["want", "pass"]
    send(t, {"type": "act", "action": "want"})
    assert t.last_error == "" and t.view["declarations"] == [{"seat": 1, "want": True}]


def test_step_from_code_raises_explains_and_previews(hot):
    before = snapshot(hot)
    with pytest.raises(IllegalActionError) as info:
        hot.step("reveal W1")
    assert info.value.rule == "C5.1" and snapshot(hot) == before
    ex = hot.explain("want")
    assert not ex.legal and ex.rule == "G2"
    effects = hot.state.preview("reveal B1")
    assert [e.kind for e in effects][:1] == ["reveal"] and snapshot(hot) == before


# --------------------------------------------------------------------------- what a player's table receives
def test_a_third_seat_never_receives_the_given_card():
    tables = {s: CryptoTrick(players=3, seed=4, seat=s, bot_delay=0) for s in range(3)}
    for t in tables.values():
        for a in ("reveal B1", "pass", "want", "give R1"):
            t.step(a)
    third = tables[1]
    assert "R1" not in synced_cards(third)
    assert third.view["gives"] == [{"trick": 1, "from": 2, "to": 0, "card": None}]
    assert third.view["last_action"] == {"seat": 2, "action": "give"}
    assert not any("R1" in line for line in third.narration)
    for s in (0, 2):  # the receiver and the giver know it
        t = tables[s]
        assert t.view["gives"][0]["card"] == "R1"
        assert t.view["last_action"]["action"] == "give R1"
        assert any("The card is R1" in line and "rule C11.3" in line for line in t.narration)
    assert tables[0].view["hands"][0].count("R1") == 1


def test_a_players_table_never_receives_other_hands_or_the_hidden_card():
    """Every position of round 1, as seat 1's table syncs it: no card of another hand (unless it
    gave or received it), never the hidden card."""
    t = CryptoTrick(players=4, seed=2, seat=1, bots="greedy", bot_delay=0)
    while t.view["round"] == 1:
        assert t.legal, t.view
        t.step(t.legal[0])
    first_round = next(k for k in range(t.history_len) if t.timeline.position(k + 1).round == 2)
    checked = 0
    for k in range(first_round + 1):
        t.goto(k)
        st = t.state
        assert t.view["hidden_card"] is None and all(h is None for s, h in enumerate(t.view["hands"]) if s != 1)
        leaked = synced_cards(t) & private_cards(st, 1)
        assert not leaked, (k, leaked)
        checked += 1
    assert checked > 20


def test_the_hidden_card_is_turned_up_once_the_round_is_scored():
    t = CryptoTrick(players=4, seed=2, seat=0, bots="greedy", bot_delay=0)
    hidden = t.state.hidden_card
    while t.view["round"] == 1:
        assert hidden not in synced_cards(t) and t.view["results"] == []
        t.step(t.legal[0])
    rec = t.view["results"][0]
    assert rec["hidden"] == hidden and rec["round"] == 1
    assert any(f"hidden card of round 1 was {hidden}" in line for line in t.narration)
    assert t.view["hidden_card"] is None  # round 2's stays hidden


def test_structural_privacy_over_a_whole_game():
    """Seat 2 against bots, every position of a whole game: hands, the hidden card and gives between
    others are never in its view; won piles are public by default."""
    t = CryptoTrick(players=4, seed=6, seat=2, bots="greedy", bot_delay=0)
    while not t.state.is_terminal:
        t.step(t.legal[0])
    for k in range(0, t.history_len + 1):
        t.goto(k)
        v, st = t.view, t.state
        assert v == st.view(2)
        assert all(h is None for s, h in enumerate(v["hands"]) if s != 2)
        assert v["hidden_card"] is None
        for g in v["gives"]:
            assert (g["card"] is None) == (2 not in (g["from"], g["to"])), g
        assert all(w is not None for w in v["won"])


def test_block_count_only_hides_the_other_piles():
    t = CryptoTrick(players=4, seed=2, seat=0, bots="greedy", bot_delay=0, won_pile_visibility="block_count_only")
    while t.view["round"] == 1:
        t.step(t.legal[0])
    v = t.view
    assert v["won"][0] is not None and v["won"][1:] == [None, None, None]
    rec = v["results"][0]
    assert rec["won"][0] is not None and rec["won"][1:] == [None, None, None]
    assert rec["blocks"] and rec["block_colors"] and rec["scores"]


def test_block_count_only_hold_does_not_carry_the_other_piles():
    """The round-end hold used to sync the round_end event's data: every won pile."""
    t = CryptoTrick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0, won_pile_visibility="block_count_only")
    while t.hold is None:
        send(t, {"type": "act", "action": t.legal[0]})
    assert set(t.hold) == {"kind", "text"}  # only the public narration line
    assert t.view["results"][-1]["won"][1:] == [None, None, None]
    assert all(e.kind != "round_end" or "won" not in e.data for e in t.timeline.events(t.cursor))


# --------------------------------------------------------------------------- bots and the hold
def test_bots_play_to_the_viewers_turn():
    t = CryptoTrick(players=4, seed=3, seat=0, bots="greedy", bot_delay=0)
    assert t.bot_seats == [1, 2, 3]
    acted = 0
    while t.view["round"] == 1:
        assert t.state.current_player == 0 and t.legal and t.cursor == t.history_len
        before = t.history_len
        send(t, {"type": "act", "action": t.legal[-1]})
        assert t.last_error == ""
        assert t.history_len > before
        # seat 0 made the first of these actions, the bots every later one
        assert t.timeline.position(before).current_player == 0
        assert all(t.timeline.position(k).current_player in (1, 2, 3) for k in range(before + 1, t.history_len))
        acted += 1
        assert acted < 50
        if t.hold is not None:
            break
    assert acted > 3


def test_round_end_holds_the_bots_until_continue():
    t = CryptoTrick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
    while t.hold is None:
        assert not t.state.is_terminal
        send(t, {"type": "act", "action": t.legal[0]})
    hold = t.hold
    assert hold["kind"] == "round_end" and "rule C9.2" in hold["text"] and "Round 1 is over" in hold["text"]
    assert t.view["round"] == 2 and t.view["results"][0]["hidden"] is not None
    # the hold is the narration line only; the view's round record has the details
    assert set(hold) == {"kind", "text"}
    length = t.history_len
    t._run_bots(from_browser=False)
    assert t.history_len == length and t.hold == hold  # the bots wait
    send(t, {"type": "continue"})
    assert t.hold is None and t.last_error == ""
    assert t.state.current_player == 0 and t.legal  # the bots played on to seat 0's turn


def test_no_hold_after_the_last_round():
    t = CryptoTrick(players=3, seed=8, seat=0, bots="greedy", bot_delay=0, rounds=1)
    while not t.state.is_terminal:
        assert t.hold is None
        send(t, {"type": "act", "action": t.legal[0]})
    assert t.hold is None and t.view["outcome"]["winners"] and t.legal == []
    assert len(t.view["results"]) == 1 and t.view["results"][0]["hidden"]


def test_bots_wait_for_the_delay_in_a_loop():
    async def scenario():
        t = CryptoTrick(players=3, seed=5, seat=0, bots="greedy", bot_delay=0.02)
        send(t, {"type": "act", "action": t.legal[0]})  # A offers: B is to declare
        assert t.thinking and t.history_len == 1
        for _ in range(200):
            await asyncio.sleep(0.02)
            if not t.thinking:
                break
        assert not t.thinking and t.history_len >= 3
        assert t.state.current_player == 0

    asyncio.run(scenario())


def test_static_fallback_shows_only_the_view():
    t = CryptoTrick(players=3, seed=4, seat=1, bot_delay=0)
    html = t._repr_html_()
    assert 'data-game="crypto_trick"' in html and "indicator W6" in html
    assert "Y3 B2 R2 R5 R6 W1" in html  # B's own hand
    assert "B1 B4 B5" not in html and t.state.hidden_card not in CARD.findall(html)


def test_replay_round_trip(hot):
    for a in ("reveal B1", "pass", "want", "give R1", "play B4"):
        hot.step(a)
    again = CryptoTrick.from_replay(hot.replay())
    assert again.state.to_dict() == hot.state.to_dict() and again.narration == hot.narration
    again.goto(0)
    assert again.state.to_dict() == new_game(players=3, seed=4).to_dict()
