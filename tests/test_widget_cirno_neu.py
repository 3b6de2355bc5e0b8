"""The cirno+neu table without a browser: messages in, traits out."""

from __future__ import annotations

import json

import pytest

from cardwidgets import CirnoNeu
from cardwidgets.games import cirno_neu


def send(t, msg):
    t._on_msg(t, msg, [])


def test_table_plays_and_narrates():
    t = CirnoNeu(players=3, seed=7, deck=cirno_neu.DEMO_DECK, bot_delay=0)
    assert t.game == "cirno_neu" and t.legal == ["play 5", "play 10", "play shot @1", "play shot @2"]
    send(t, {"type": "act", "action": "play 10"})
    assert t.last_error == "" and t.view["sum"] == 10 and t.cursor == 1
    assert any("rule N3.1" in line for line in t.narration)


def test_refusals_cite_rules_and_change_nothing():
    t = CirnoNeu(players=3, seed=7, deck=cirno_neu.DEMO_DECK, bot_delay=0)
    before = json.dumps(t.view, sort_keys=True)
    for action, rule in [("play 50", "N4.2"), ("play shot", "N3.6"), ("play 5 @1", "N4.2")]:
        send(t, {"type": "act", "action": action})
        assert f"rule {rule}" in t.last_error, (action, t.last_error)
        assert json.dumps(t.view, sort_keys=True) == before and t.history_len == 0


def test_two_card_command_is_two_timeline_entries():
    st = cirno_neu.setup_position(4, [["4", "-1", "7"], ["7"], ["1"], ["2"]], sum=90, draw=["5", "6", "3"],
                                  required=2)
    t = CirnoNeu(state=st, bot_delay=0)
    t.step("play 4, -1")
    assert t.history_len == 2 == t.cursor and [str(a) for a in t.history] == ["play 4", "play -1"]
    t.goto(1)
    assert [str(a) for a in t.history] == ["play 4"] and t.view["sum"] == 94
    t.goto(0)
    with pytest.raises(ValueError):
        t.step("play 7, 4")  # 97, then 4 would bust while -1 is safe: nothing changes
    assert t.history_len == 2 and t.cursor == 0


def test_life_system_against_bots_to_the_end():
    t = CirnoNeu(players=4, seed=5, seat=0, bots="greedy", life_system=True, bot_delay=0)
    assert t.bot_seats == [1, 2, 3]
    steps = 0
    while not t.state.is_terminal:
        assert t.state.current_player == 0 and t.legal
        send(t, {"type": "act", "action": t.legal[0]})
        assert t.last_error == ""
        steps += 1
        assert steps < 2000
    assert t.view["outcome"] is not None and t.legal == []
    assert all(h is None for s, h in enumerate(t.view["hands"]) if s != 0)


def test_view_hides_other_hands_and_the_draw_pile():
    t = CirnoNeu(players=5, seed=1, seat=3, bot_delay=0)
    state = t.get_state()["view"]
    assert state["hands"][3] == t.state.hand(3)
    assert all(h is None for s, h in enumerate(state["hands"]) if s != 3)
    assert "draw_pile" not in state and "stack" not in state
