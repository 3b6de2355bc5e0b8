"""The Depot table without a browser: messages in, traits out."""

from __future__ import annotations

import asyncio
import json

import pytest

from cardwidgets import Depot, IllegalActionError, Replay
from cardwidgets.games.depot import new_game


def send(t, msg):
    """What the comm does with a custom message from the front end."""
    t._on_msg(t, msg, [])


def snapshot(t):
    return (t.cursor, t.history_len, json.dumps(t.view, sort_keys=True), list(t.legal), list(t.narration))


@pytest.fixture
def hot():
    """Teacher view, hot-seat (no bots)."""
    return Depot(players=4, seed=3, bot_delay=0)


def test_traits_at_start(hot):
    assert hot.game == "depot" and hot.cursor == 0 and hot.history_len == 0 and hot.last_error == ""
    assert hot.view == hot.state.view(None)
    assert hot.legal == [str(a) for a in hot.state.legal_actions()]
    assert hot.legal and all(a.startswith("play") for a in hot.legal)  # the leader must play


def test_act_message_applies_and_narrates(hot):
    action = hot.legal[0]
    send(hot, {"type": "act", "action": action})
    assert hot.last_error == "" and hot.cursor == 1 and hot.history_len == 1
    assert [str(a) for a in hot.history] == [action]
    assert hot.narration and "rule D4.8" in hot.narration[-1]
    assert hot.view["current"] == 1 and hot.view["last_action"] == {"seat": 0, "action": action}


@pytest.mark.parametrize("msg, words", [
    ({"type": "act", "action": "play 1 8"}, "rule D4"),
    ({"type": "act", "action": "pass take 2"}, "rule D5.3"),
    ({"type": "act", "action": "dance"}, "unknown command"),
    ({"type": "act", "action": 5}, "must be action text"),
    ({"type": "act"}, "must be action text"),
    ({"type": "goto", "index": 99}, "index must be"),
    ({"type": "goto", "index": "1"}, "index must be"),
    ({"type": "explode"}, "Unknown message type"),
    ({"action": "play 1"}, "expected an object with a 'type'"),
    ("play 1", "expected an object with a 'type'"),
    (None, "expected an object with a 'type'"),
])
def test_bad_messages_set_last_error_and_change_nothing(hot, msg, words):
    before = snapshot(hot)
    engine = hot.state.to_dict()
    send(hot, msg)
    assert words in hot.last_error
    assert snapshot(hot) == before and hot.state.to_dict() == engine
    send(hot, {"type": "clear_error"})
    assert hot.last_error == ""


def test_illegal_message_cites_the_rule():
    st = new_game(players=4, seed=3)
    t = Depot(state=st, bot_delay=0)
    hand = st.hand(0)
    bad = next(v for v in range(1, 9) if v not in hand)
    send(t, {"type": "act", "action": f"play {bad}"})
    assert t.last_error.startswith("Illegal: rule D4.1 — ") and t.history_len == 0


def test_wrong_seat_is_refused_with_G3():
    t = Depot(players=3, seed=2, seat=1, bot_delay=0)  # seat 0 leads, the viewer is B
    assert t.legal == []
    st = t.state
    send(t, {"type": "act", "action": str(st.legal_actions()[0])})
    assert "rule G3" in t.last_error and t.history_len == 0


def test_view_for_a_seat_hides_the_others():
    t = Depot(players=5, seed=4, seat=2, bot_delay=0)
    state = t.get_state()  # exactly what the comm would send
    view = state["view"]
    assert view["hands"][2] == t.state.hand(2)
    assert all(h is None for s, h in enumerate(view["hands"]) if s != 2)
    assert "deck" not in view
    text = json.dumps(state)
    for s in (0, 1, 3, 4):
        assert json.dumps(t.state.hand(s)) not in text or t.state.hand(s) == t.state.hand(2)


def test_bots_answer_at_once_without_delay():
    t = Depot(players=4, seed=8, seat=0, bots="greedy", bot_delay=0)
    assert t.bot_seats == [1, 2, 3]
    send(t, {"type": "act", "action": t.legal[0]})
    assert t.last_error == ""
    assert t.state.current_player in (0, None) and t.history_len >= 4
    assert t.cursor == t.history_len
    assert t.legal == ([str(a) for a in t.state.legal_actions()] if t.state.current_player == 0 else [])


def test_acting_for_a_bot_is_refused():
    t = Depot(players=3, seed=1, seat=None, bots={1: "random"}, bot_delay=0)
    t.step(t.legal_actions()[0])  # A plays, B (bot) answers at once
    assert t.state.current_player == 2 and t.history_len == 2
    t.goto(1)  # back to B's turn: bots never move in the past
    assert t.state.current_player == 1 and t.legal == []
    before = snapshot(t)
    send(t, {"type": "act", "action": str(t.state.legal_actions()[0])})
    assert t.last_error == "Illegal: rule G3 — it is B's turn, played by the computer"
    assert snapshot(t) == before
    t2 = Depot(players=3, seed=1, starting_player=1, bots={1: "random"}, bot_delay=0)
    assert t2.history_len == 1  # the bot opened the game by itself


def test_bots_pause_when_a_loop_runs():
    async def scenario():
        t = Depot(players=3, seed=5, seat=0, bots="random", bot_delay=0.02)
        send(t, {"type": "act", "action": t.legal[0]})
        assert t.thinking and t.history_len == 1  # the bots have not moved yet
        for _ in range(100):
            await asyncio.sleep(0.02)
            if not t.thinking:
                break
        assert not t.thinking and t.history_len >= 3
        assert t.state.current_player in (0, None)

    asyncio.run(scenario())


def test_undo_goto_and_fork(hot):
    for _ in range(3):
        hot.step(hot.legal_actions()[0])
    assert hot.cursor == 3
    send(hot, {"type": "goto", "index": 1})
    assert hot.cursor == 1 and hot.history_len == 3 and len(hot.history) == 1
    assert hot.view == hot.state.view(None)
    send(hot, {"type": "goto", "index": 3})
    hot.undo()
    assert hot.cursor == 2
    hot.goto(1)
    hot.step(hot.legal_actions()[-1])  # a new line of play; the old one is kept
    assert hot.cursor == 2 and hot.history_len == 2
    assert [b["name"] for b in hot.branches] == ["main", "branch-1"] and hot.branch == "branch-1"
    assert hot.branches[1] == {"name": "branch-1", "parent": "main", "from": 1, "length": 2}
    send(hot, {"type": "switch", "branch": "main"})
    assert hot.branch == "main" and hot.cursor == hot.history_len == 3
    send(hot, {"type": "switch", "branch": "nope"})
    assert "no line of play" in hot.last_error and hot.branch == "main"
    with pytest.raises(IndexError):
        hot.goto(7)


def test_undo_skips_bot_moves():
    t = Depot(players=3, seed=6, seat=0, bots="random", bot_delay=0)
    t.step(t.legal_actions()[0])
    t.undo()
    assert t.cursor == 0 and t.state.current_player == 0


def test_step_from_code_raises_and_changes_nothing(hot):
    before = snapshot(hot)
    with pytest.raises(IllegalActionError) as info:
        hot.step("pass take 1")
    assert info.value.rule == "D5.3"
    assert snapshot(hot) == before
    ex = hot.explain("pass take 1")
    assert not ex.legal and ex.rule == "D5.3" and "D5.3" in str(ex)


def test_one_sync_message_per_step(hot):
    sent = []
    real = hot.comm.send if hot.comm is not None else None
    hot.comm.send = lambda *a, **k: sent.append(k.get("data") or (a[0] if a else None))
    try:
        hot.step(hot.legal_actions()[0])
    finally:
        if real is not None:
            hot.comm.send = real
    updates = [m for m in sent if m and m.get("method") == "update"]
    assert len(updates) == 1
    assert {"view", "legal", "narration", "cursor", "history_len"} <= set(updates[0]["state"])


def test_replay_round_trip(hot):
    for _ in range(6):
        hot.step(hot.legal_actions()[-1])
    hot.goto(3)
    hot.note("a note")
    rep = Replay.from_json(hot.replay().to_json())  # the whole game, whatever the cursor
    assert rep.notes == {2: "a note"}
    hot.goto(6)
    t2 = Depot.from_replay(rep)
    assert t2.state.to_dict() == hot.state.to_dict() and t2.history_len == 6
    t2.goto(0)
    assert t2.state.to_dict() == Depot(players=4, seed=3, bot_delay=0).state.to_dict()


def test_static_fallback(hot):
    html = hot._repr_html_()
    assert 'data-game="depot"' in html and "Storage" in html
    assert "Storage" in str(hot)


def test_seat_validation():
    with pytest.raises(ValueError):
        Depot(players=3, seat=5)
    with pytest.raises(ValueError):
        Depot(players=3, seat=0, bots={0: "random"})
    with pytest.raises(ValueError, match="unknown bot"):
        Depot(players=3, bots={1: "genius"})
    with pytest.raises(TypeError):
        Depot(players=3, colour="red")
    t = Depot(players=3, seed=1, bot_delay=0)
    t.seat = 2
    assert t.view["hands"][0] is None and t.view["hands"][2] is not None


def test_from_replay_narrates_and_reports_bad_actions(hot):
    from cardwidgets import ReplayError

    for _ in range(4):
        hot.step(hot.legal_actions()[0])
    t = Depot.from_replay(hot.replay())
    assert t.narration == hot.narration
    rep = hot.replay()
    rep.actions[2] = "play 1 8"
    with pytest.raises(ReplayError, match="action #2"):
        Depot.from_replay(rep)
