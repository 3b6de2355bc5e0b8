"""The Yadokarick table without a browser, in each mode: messages in, traits out.

Standard (and the advanced card set), duo (two players and the NPC) and solo: act messages,
refusals that cite the rule and change nothing, bots that answer inside the message, the NPC
that plays inside the step, the hold at a round's end, the solo hint, and what a player's table
may receive (never another seat's hand, the set-aside cards, the NPC deck or the solo decks).
"""

from __future__ import annotations

import json
import re

import pytest

from cardwidgets import Yadokarick
from cardwidgets.games.yadokarick import setup_duo, setup_solo, setup_standard

SYNCED_TO_CHECK = ("view", "legal", "refusals", "narration", "hold", "last_error")


def send(t, msg):
    t._on_msg(t, msg, [])


def act(t, action: str) -> None:
    send(t, {"type": "act", "action": action})


def snapshot(t) -> str:
    """Everything a refused message must leave as it was."""
    return json.dumps({k: getattr(t, k) for k in ("view", "legal", "refusals", "narration", "cursor", "history_len",
                                                  "branch", "branches", "hold")}, sort_keys=True)


def wire_text(t) -> str:
    """The synced state the browser receives (``get_state``), without the static card tables.

    ``view["sizes"]`` lists every card of the game with its house size and ``view["roofs"]`` the roof
    cards: static facts that name cards without saying where they are, so they are left out.
    """
    state = t.get_state()
    view = dict(state["view"])
    view.pop("sizes", None)
    view.pop("roofs", None)
    parts = {k: state[k] for k in SYNCED_TO_CHECK}
    parts["view"] = view
    return json.dumps(parts)


def mentions(text: str, card: str) -> bool:
    """``card`` named in ``text`` (not a core rule ID such as "rule G2")."""
    return re.search(rf"(?<![A-Za-z0-9])(?<!rule ){card}(?![0-9])", text) is not None


def assert_hidden(t, hidden) -> None:
    text = wire_text(t)
    leaked = sorted(c for c in hidden if mentions(text, c))
    assert not leaked, f"the table sent hidden cards to the browser: {leaked}"


def hidden_standard(t, seat: int) -> set[str]:
    st = t.state
    out = {c for s in range(st.players) if s != seat for c in st.hand(s)}
    return out | set(st.view(None)["aside"])


# =========================================================================== standard
def test_standard_act_messages_play_and_bots_answer_to_the_viewers_turn():
    t = Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
    assert t.game == "yadokarick" and t.bot_seats == [1, 2, 3]
    assert t.legal == [f"play {c}" for c in t.view["hands"][0]] and t.refusals == {}
    act(t, t.legal[0])
    assert t.last_error == ""
    assert t.state.current_player == 0 and t.cursor == t.history_len >= 4
    assert any("rule Y4.2" in line for line in t.narration)
    # the whole game: after each message the bots have played up to seat 0's next decision
    steps = 0
    while not t.state.is_terminal:
        assert t.state.current_player == 0 and t.legal, t.view["phase"]
        assert t.legal == [str(a) for a in t.state.legal_actions()]
        act(t, t.legal[0])
        assert t.last_error == ""
        if t.hold is not None:
            assert t.hold["kind"] == "round_end"
            send(t, {"type": "continue"})
        steps += 1
        assert steps < 200
    assert t.view["outcome"] is not None and t.legal == [] and len(t.view["results"]) == 4


def test_standard_marker_step_by_messages():
    t = Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
    while t.view["phase"] != "marker":
        act(t, t.legal[0])
    assert t.view["movers"][0] == 0 and t.legal == ["move left", "move right", "move stay"]
    # every own card is refused with rule Y7.4, and the table says so before any click
    assert set(t.refusals) == {f"play {c}" for c in t.view["hands"][0]}
    assert all("rule Y7.4" in why for why in t.refusals.values())
    marker = t.view["marker"]
    before = t.history_len
    act(t, "move right")
    assert t.last_error == "" and t.history_len > before
    assert str(t.timeline.line[before]) == "move right"
    assert any(f"{marker} → {marker + 1}" in line for line in t.narration)


@pytest.mark.parametrize("action, rule", [
    ("play {other}", "Y4.2"),    # a card seat 0 does not hold
    ("move left", "G2"),         # no marker step now
    ("arrange G1,G2", "Y8.3"),   # nothing to arrange
    ("play G37", None),          # not a card
])
def test_standard_refusals_cite_the_rule_and_change_nothing(action, rule):
    t = Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
    action = action.format(other=t.state.hand(1)[0])
    before = snapshot(t)
    act(t, action)
    assert t.last_error and (rule is None or f"rule {rule}" in t.last_error), t.last_error
    assert snapshot(t) == before


def test_standard_refusals_in_the_marker_step():
    st = setup_standard(4, [["G1", "G33"], ["P33"], ["G35"], ["P31"]], trick=["P35", "G31", "P29"], leader=1,
                        marker=21, trick_no=9)
    t = Yadokarick(state=st, seat=0, bots="greedy", bot_delay=0)
    act(t, "play G1")
    assert t.view["phase"] == "marker" and t.legal == ["move left", "move stay"]
    assert "rule Y7.2" in t.refusals["move right"]
    for action, rule in [("move right", "Y7.2"), ("play G33", "Y7.4"), ("play G99", None), ("hello", None)]:
        before = snapshot(t)
        act(t, action)
        assert t.last_error and (rule is None or f"rule {rule}" in t.last_error), (action, t.last_error)
        assert snapshot(t) == before
    send(t, {"type": "clear_error"})
    assert t.last_error == ""


def test_standard_acting_for_a_bot_is_refused():
    t = Yadokarick(players=4, seed=1, seat=None, bots={1: "greedy"}, bot_delay=0)
    act(t, t.legal[0])  # A plays, the bot B answers at once
    assert t.state.current_player == 2 and t.history_len == 2
    t.goto(1)
    before = snapshot(t)
    act(t, str(t.state.legal_actions()[0]))
    assert t.last_error == "Illegal: rule G3 — it is B's turn, played by the computer"
    assert snapshot(t) == before


def test_standard_arrange_step():
    st = setup_standard(4, [["G30", "G5"], ["P7"], ["P3"], ["G23"]], trick=["G14", "G18", "P1"], leader=1,
                        trick_no=9, placement_order="choose")
    t = Yadokarick(state=st, seat=0, bots="greedy", bot_delay=0)
    act(t, "play G30")
    assert t.view["phase"] == "arrange" and t.view["arrange"] == {"seat": 0, "cards": ["G14", "G18", "G30"]}
    assert len(t.legal) == 6 and "arrange G30,G14,G18" in t.legal
    before = snapshot(t)
    act(t, "arrange G30,G14")
    assert "rule Y8.3" in t.last_error and snapshot(t) == before
    act(t, "arrange G30,G14,G18")
    assert t.last_error == ""
    assert t.view["houses"][0] == ["G30", "G14", "G18"] and t.view["roofed"][0]


def test_standard_hold_at_a_round_end_until_continue():
    t = Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0, rounds=2)
    for _ in range(100):
        act(t, t.legal[0])
        if t.hold is not None:
            break
    assert t.hold is not None and t.hold["kind"] == "round_end"
    assert set(t.hold) == {"kind", "text"} and "rule Y10.4" in t.hold["text"]
    assert t.view["round"] == 2 and len(t.view["results"]) == 1
    # the bots wait: round 2's first player is a bot (seat 1, left of the dealer seat 0)
    assert t.state.current_player == 1 and t.legal == []
    r = t.view["results"][0]
    assert r["round"] == 1 and t.view["totals"] == r["scores"]
    n = t.history_len
    send(t, {"type": "continue"})
    assert t.hold is None and t.history_len > n and t.state.current_player == 0


def test_standard_view_never_carries_hidden_cards():
    for players, options in [(4, {}), (3, {"card_set": "advanced"}), (7, {}), (5, {"collapsed_visibility": "count_only"})]:
        t = Yadokarick(players=players, seed=2, seat=1, bots="greedy", bot_delay=0, rounds=1, **options)
        while not t.state.is_terminal:
            state = t.get_state()["view"]
            assert all(h is None for s, h in enumerate(state["hands"]) if s != 1)
            assert state["hands"][1] == t.state.hand(1)
            assert "aside" not in state and state["aside_count"] == len(t.state.view(None)["aside"])
            assert_hidden(t, hidden_standard(t, 1))
            act(t, t.legal[0])
        assert_hidden(t, set(t.state.view(None)["aside"]))


def test_standard_teacher_view_shows_every_hand():
    t = Yadokarick(players=4, seed=4, seat=None)
    assert all(h == t.state.hand(s) for s, h in enumerate(t.view["hands"]))
    act(t, t.legal[0])
    assert t.state.current_player == 1 and t.legal == [f"play {c}" for c in t.state.hand(1)]


# =========================================================================== duo
def test_duo_npc_plays_inside_the_step():
    t = Yadokarick(players=2, mode="duo", seed=3, seat=None, bot_delay=0)
    assert t.view["order"] == ["A", "NPC", "B"] and t.view["npc_deck_count"] == 16
    card = t.legal[0].split()[1]
    act(t, t.legal[0])
    v = t.view
    # one action in the history; the NPC's card was turned over in the same step
    assert t.history_len == 1 and [str(a) for a in t.history] == [f"play {card}"]
    assert [x["who"] for x in v["trick"]] == ["A", "NPC"] and v["trick"][0]["card"] == card
    assert v["npc_deck_count"] == 15 and t.state.current_player == 1
    assert any("The NPC turns over the top card of its deck" in line for line in t.narration)


def test_duo_npc_leads_and_a_bot_answers():
    t = Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0, npc_seat=0)
    assert [x["who"] for x in t.view["trick"]] == ["NPC"] and t.state.current_player == 0
    steps = 0
    while not t.state.is_terminal:
        assert t.state.current_player == 0 and t.legal
        act(t, t.legal[-1])
        assert t.last_error == ""
        steps += 1
    assert steps == 10 and t.view["outcome"]["scores"] == [t.state.house_size(0), t.state.house_size(1)]
    assert t.view["target"] == t.state.house_size(2)


def test_duo_refusals_cite_the_rule_and_change_nothing():
    t = Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0)
    other = t.state.hand(1)[0]
    for action, rule in [(f"play {other}", "Y13.5"), ("move left", "G2"), ("place G1 A", "G2"), ("play P3", None)]:
        before = snapshot(t)
        act(t, action)
        assert t.last_error and (rule is None or f"rule {rule}" in t.last_error), (action, t.last_error)
        assert snapshot(t) == before


def test_duo_view_never_carries_the_npc_deck_or_the_other_hand():
    for seat, npc_seat in [(0, 1), (1, 0), (1, 2)]:
        t = Yadokarick(players=2, mode="duo", seed=7, seat=seat, bots={1 - seat: "greedy"}, bot_delay=0,
                       npc_seat=npc_seat)
        while True:
            state = t.get_state()["view"]
            assert "npc_deck" not in state and "aside" not in state
            assert state["hands"][1 - seat] is None and state["hands"][seat] == t.state.hand(seat)
            full = t.state.view(None)
            assert_hidden(t, set(full["npc_deck"]) | set(full["hands"][1 - seat]) | set(full["aside"]))
            if t.state.is_terminal:
                break
            act(t, t.legal[0])
        # at the end the 6 NPC cards never played are still unseen
        assert t.view["npc_deck_count"] == 6
        assert_hidden(t, set(t.state.view(None)["npc_deck"]))


def test_duo_roofed_npc_and_hand_built_position():
    st = setup_duo([["G36", "G1"], ["G8", "G2"]], npc_deck=["G20", "G5", "G9"], trick_no=9,
                   houses=[[], [], ["G4", "G12"]])
    t = Yadokarick(state=st, seat=None, bot_delay=0)
    act(t, "play G1")  # A leads G1; the NPC turns over G20 (a roof, size 4); B to play
    assert [x["card"] for x in t.view["trick"]] == ["G1", "G20"]
    act(t, "play G2")  # the NPC's G20 is highest: it captures the size-4 cards and is roofed
    v = t.view
    assert v["roofed"][2] and v["target"] == t.state.house_size(2) and "G20" in v["houses"][2]


# =========================================================================== solo
def test_solo_act_messages_and_the_hint_in_the_view():
    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    assert t.view["phase"] == "setup" and t.legal == ["draw green", "draw pink"]
    hint = t.view["hint"]
    assert hint["action"] in t.legal and hint["reason"]
    action, why = t.state.hint()
    assert (str(action), why) == (hint["action"], hint["reason"])
    for _ in range(5):
        act(t, t.view["hint"]["action"])
        assert t.last_error == ""
    assert t.view["phase"] == "turn" and len(t.view["row"]) == 5
    assert any(a.startswith("place") for a in t.legal)
    # the whole game by the hint, through messages
    while not t.state.is_terminal:
        h = t.view["hint"]
        assert h["action"] in t.legal, (h, t.legal)
        act(t, h["action"])
        assert t.last_error == ""
    assert t.view["hint"] is None and t.legal == [] and t.refusals == {}
    assert t.view["outcome"]["scores"] == [t.view["score"]] == [t.view["points"] - t.view["penalty"]]


def test_solo_refusals_cite_the_rule_and_change_nothing():
    st = setup_solo(["G23", "G19", "P27", "P17", "P5"],
                    crabs={"A": ["G21", "G15", "G10"], "B": ["P22", "G17"], "D": ["P36", "P33", "P29", "P25", "P18", "P12"]})
    t = Yadokarick(state=st, seat=0, bot_delay=0)
    assert t.view["phase"] == "turn"
    assert "rule Y14.7" in t.refusals["place G19 A"] and "rule Y14.5" in t.refusals["place P27 A"]
    for action, rule in [("place G19 A", "Y14.7"), ("place P27 A", "Y14.5"), ("place P19 B", "Y14.4"),
                         ("giveup C", "Y14.11"), ("draw green", "Y14.9"), ("take P17", "Y14.10"),
                         ("play G23", "G2"), ("place G23", None)]:
        before = snapshot(t)
        act(t, action)
        assert t.last_error and (rule is None or f"rule {rule}" in t.last_error), (action, t.last_error)
        assert snapshot(t) == before
    act(t, "place P5 D")  # finishes crab D: 7 cards to the score pile
    assert t.last_error == "" and t.view["crabs"][3] == [] and t.view["points"] == 14


def test_solo_forced_give_up_and_the_bonus():
    st = setup_solo(["G36", "G35", "P36", "P35", "G34"], crabs={"A": ["G1"], "B": ["P1"], "C": ["G2"], "D": ["P2"]})
    t = Yadokarick(state=st, seat=0, bot_delay=0)
    assert t.legal == ["giveup A", "giveup B", "giveup C", "giveup D"]
    assert t.view["hint"]["action"].startswith("giveup")
    act(t, "giveup B")
    assert t.view["penalty"] == 1 and t.view["crabs"][1] == [] and t.view["penalty_pile"] == ["P1"]
    # a bonus: P18 drawn beside P17 and P19 (rule Y14.10)
    st = setup_solo(["P17", "P19", "G5", "G31", "G8"], green=["G2"], pink=["P18", "P3"])
    t = Yadokarick(state=st, seat=0, bot_delay=0)
    act(t, "place G8 A")
    assert t.view["phase"] == "refill"
    act(t, "draw pink")
    assert t.view["phase"] == "bonus" and t.legal == ["take P17", "take P19", "take P18", "decline"]
    assert t.view["hint"]["action"] == "take P19"  # the biggest card of the group
    act(t, "take P19")
    assert t.view["score_pile"] == ["P19"] and t.view["points"] == 3


def test_solo_view_never_carries_the_decks():
    t = Yadokarick(players=1, mode="solo", seed=3, seat=0, bot_delay=0)
    while True:
        state = t.get_state()["view"]
        assert "decks" not in state and "out" not in state
        full = t.state.view(None)
        assert_hidden(t, set(full["decks"]["green"]) | set(full["decks"]["pink"]))
        if t.state.is_terminal:
            break
        act(t, t.view["hint"]["action"])


def test_solo_static_fallback_and_repr():
    t = Yadokarick(players=1, mode="solo", seed=5, seat=0, bot_delay=0)
    assert "Yadokarick solo" in str(t) and 'data-game="yadokarick"' in t._repr_html_()
    assert "Green deck" not in str(t)  # the viewer's view only
