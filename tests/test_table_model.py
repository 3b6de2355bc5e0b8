"""The table model on its own (``cardwidgets.table``): the interface a transport other than the
Jupyter comm uses (a static page's Web Worker), with no widget made."""

from __future__ import annotations

import json

from invariants import FakeLoop

from cardwidgets.table import game_model, lesson_model
from cardwidgets.table.model import TableModel


def depot(**kw):
    return game_model("depot")(players=3, seed=7, **{"seat": 0, "bots": "greedy", "bot_delay": 0, **kw})


def test_a_game_model_is_made_once_per_game_and_syncs_the_tables_traits():
    assert game_model("depot") is game_model("depot") and game_model("depot").GAME == "depot"
    from cardwidgets import Depot

    assert set(TableModel.synced_names()) <= set(Depot.synced_names())  # the widget syncs the model's traits (and its own)
    m = depot()
    state = m.synced_state()
    assert set(state) == set(m.synced_names()) >= {"game", "view", "legal", "cursor", "history_len", "last_error"}
    assert json.loads(json.dumps(state)) == state  # plain JSON for the page's first paint


def test_one_change_message_per_step_with_only_what_changed():
    m = depot()
    heard: list[dict] = []
    m.on_sync(heard.append)
    m.handle_message({"type": "act", "action": m.legal[0]})
    # the person's move and each bot's answer: one message each, as the comm's hold_sync sends them
    assert len(heard) == m.history_len == 3
    assert all({"cursor", "history_len", "view"} <= set(h) for h in heard)
    assert heard[-1]["history_len"] == 3 and heard[-1]["legal"] == m.legal
    assert "rules" not in heard[0] and "game" not in heard[0]  # unchanged values are not sent again
    heard.clear()
    m.handle_message({"type": "act", "action": "play 99"})
    assert heard == [{"last_error": m.last_error}] and "not a card value" in m.last_error
    heard.clear()
    with m.batch():
        m.handle_message({"type": "clear_error"})
        m.handle_message({"type": "speed", "delay": 1.5})
        assert heard == []  # held until the outermost batch ends
    assert heard == [{"last_error": "", "bot_delay": 1.5}]


def test_a_refused_write_names_the_values_to_send_back_and_never_raises():
    m = depot()
    before = m.synced_state()
    assert m.refuse_write({"seat": None, "cursor": 9, "no_such": 1}) == ["seat", "cursor"]
    assert m.last_error.startswith("Refused: the browser cannot change 'seat', 'cursor'")
    assert {**m.synced_state(), "last_error": ""} == {**before, "last_error": ""}
    assert m.refuse_write("garbage") == [] and m.last_error.startswith("Refused")
    for bad in (None, 7, [], {"type": 3}, {"type": "act", "action": ["x"]}):
        m.handle_message(bad)  # never raises
        assert m.last_error.startswith("Bad")


def test_the_bots_are_paced_on_the_models_event_loop():
    """A transport whose loop is not running while it hands a message over (a worker's) sets
    ``event_loop``; with none, the bots move at once (as from Python)."""
    loop = FakeLoop()
    m = depot(bot_delay=0.5)
    m.event_loop = loop  # type: ignore[assignment]
    m.handle_message({"type": "act", "action": m.legal[0]})
    assert m.history_len == 1 and m.thinking and len(loop.live()) == 1
    loop.run_next()
    assert m.history_len == 2 and len(loop.live()) == 1
    loop.run_next()
    assert m.history_len == 3 and not m.thinking and loop.live() == []
    now = depot(bot_delay=0.5)
    now.handle_message({"type": "act", "action": now.legal[0]})
    assert now.history_len == 3 and not now.thinking


def test_a_closed_view_no_longer_follows_the_game():
    m = depot(bots={1: "greedy", 2: "greedy"})
    view = m.view_for(None)
    m.handle_message({"type": "act", "action": m.legal[0]})
    assert view.history_len == m.history_len == 3
    view.close()
    m.step(m.legal_actions()[0])
    assert view.history_len == 3 and m.history_len > 3


def test_a_lesson_model_answers_the_lesson_messages():
    m = lesson_model("depot/sets-and-runs", bot_delay=0)
    assert m.lesson["id"] == "depot/sets-and-runs" and "lesson" in m.synced_names()
    heard: list[dict] = []
    m.on_sync(heard.append)
    m.handle_message({"type": "hint"})
    assert heard and heard[-1]["lesson"]["hint"]
