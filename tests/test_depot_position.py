"""Depot positions as text: the grammar of the rules reference's "Position text" section.

``state.to_position()`` writes one line; ``from_position(text, seed)`` reads it back
with the same teacher view and legal actions. Unknown parts (``?``) are dealt from the
cards not written elsewhere, with the seed. Every card lies in one place (card
conservation), and every refusal is a ``PositionError`` naming the column.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from importlib import resources

import pytest

import cardwidgets
from cardwidgets import PositionError, Replay
from cardwidgets.games import depot
from cardwidgets.games.depot import from_position, new_game, setup_position


def _section() -> str:
    text = resources.files("cardwidgets.rules").joinpath("depot.md").read_text(encoding="utf-8")
    return text.split("\n## Position text\n", 1)[1]


def _same(a, b) -> None:
    assert a.view(None) == b.view(None)
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
    assert a.to_position() == b.to_position()


def _play(st, seed: int, steps: int | None = None):
    rng = random.Random(seed)
    k = 0
    while not st.is_terminal and (steps is None or k < steps):
        st.apply(rng.choice(st.legal_actions()))
        k += 1
    return st


# --------------------------------------------------------------------------- typed by hand
def test_the_reference_example_sets_up_its_table():
    text = re.search(r"```\n(depot/1 .*)\n```", _section()).group(1)
    st = cardwidgets.from_position(text, seed=1)
    v = st.view(None)
    assert (v["round"], v["target"], v["current"], v["passes"]) == (2, 5, 2, 1)
    assert v["standing"] == {"owner": 0, "cards": [5, 6]} and v["last_action"] == {"seat": 1, "action": "pass take 3"}
    assert v["hands"][0] == [2, 3, 7, 8] and v["hand_counts"] == [4, 10, 9, 8]
    assert v["storage"] == [1, 2, 3, 3, 8] and v["discard"] == [1, 4] and v["deck_count"] == 80 - 31 - 5 - 2 - 2
    assert st.all_cards() == Counter(depot.DEFAULT_DECK)


def test_a_teacher_types_DX01():
    text = "depot/1 players=4 turn=A target=5 hands=3,3,3,4,5,6,7,7,8/?9/?9/?9 storage=2,4,5,5,6"
    st = from_position(text, seed=7)
    assert st.phase == "lead" and st.current_player == 0 and st.limits == (2, 3)
    assert [len(st.hand(s)) for s in range(4)] == [9, 9, 9, 9] and st.view(None)["deck_count"] == 39
    assert st.all_cards() == Counter(depot.DEFAULT_DECK)
    assert st.is_legal("play 7 7") and st.is_legal("play 4 5 6") and not st.is_legal("play 3 4 5 6")
    with pytest.raises(cardwidgets.IllegalActionError, match="D4.4"):
        st.apply("play 3 3 3")
    st.apply("play 7 7")
    assert Replay.from_state(st).position == text  # replays start from the text, with the seed


def test_the_same_seed_deals_the_same_unknown_parts():
    text = "depot/1 players=3 turn=B standing=A:4 hands=1,2/?9/?9 storage=1,2,3 discard=5,5 deck=?"
    a, b = from_position(text, seed=3), from_position(text, seed=3)
    assert a.to_dict() == b.to_dict()
    deals = {tuple(map(tuple, from_position(text, seed=s).view(None)["hands"])) for s in range(8)}
    assert len(deals) == 8
    assert all(h[0] == (1, 2) for h in deals)


def test_a_hidden_deck_with_its_size():
    text = "depot/1 players=3 turn=A hands=?9/?9/?9 storage=1,2,3"
    assert from_position(text + " deck=?50", seed=1).view(None)["deck_count"] == 50
    with pytest.raises(PositionError) as info:
        from_position(text + " deck=?49", seed=1)
    assert info.value.column == len(text) + 7 and "77 are not placed" in str(info.value)


def test_the_passes_are_counted_from_the_standing_play():
    # A played, B and C passed: D to act with 2 passes in a row (D5.1, D7.1)
    st = from_position("depot/1 players=4 turn=D standing=A:4 hands=?5/?6/?7/?8 storage=1,1,2,3", seed=1)
    assert st.view(None)["passes"] == 2 and st.phase == "respond"
    st.apply("pass take 1")  # the third pass in a row ends the round; A leads
    assert st.phase == "lead" and st.current_player == 0


# --------------------------------------------------------------------------- errors name their column
ERRORS = [
    # (text, where the column points, words of the message)
    ("depot/1 players=3 turn=A hands=9/?9/?9 storage=1,2,3", "9/", "is not a card"),
    ("depot/1 players=4 turn=A hands=8,8,8,8/8,8/?9/?9 storage=8,8,1", "8,8,1", "one 8 too many"),
    ("depot/1 players=3 turn=A hands=?9/?9 storage=1,2,3", "?9/?9", "expected 3 parts"),
    ("depot/1 players=3 turn=E hands=?9/?9/?9 storage=1,2,3", "E", "not a seat"),
    ("depot/1 players=3 turn=A hands=?/?9/?9 storage=1,2,3", "?/", "such as ?9"),
    ("depot/1 players=3 turn=A hands=1,2/3/4 storage=1,2,3 deck=-", "-", "not placed"),
    ("depot/1 players=3 turn=A hands=1,2/?9/?9 storage=1,2,3 deck=-", "?9/?9", "not placed"),
    ("depot/1 players=3 turn=A hands=?9/?9/?60 storage=1,2,3", "?9/", "not placed"),
    ("depot/1 players=3 turn=A hands=?9/?9/?9 storage=1,2,3 deck=?49", "?49", "77 are not placed"),
    ("depot/1 players=3 turn=B standing=A hands=?9/?9/?9 storage=1,2,3", "A hands", "2 parts"),
    ("depot/1 players=3 turn=B standing=A:1,3 hands=?9/?9/?9 storage=1,2,3", "1,3", "neither a set nor a run"),
    ("depot/1 players=3 turn=A standing=A:4 hands=?9/?9/?9 storage=1,2,3", "A standing", "owns the standing play"),
    ("depot/1 players=3 turn=B standing=A:4 last=A:play_5 hands=?9/?9/?9 storage=1,2,3", "A:play", "standing play"),
    ("depot/1 players=3 turn=B standing=A:4 last=A:jump hands=?9/?9/?9 storage=1,2,3", "jump", "'_' for spaces"),
    ("depot/1 players=3 turn=A target=2 hands=?9/?9/?9 storage=1,2,3", "2 hands", "more than its target"),
    ("depot/1 players=3 turn=A hands=1/-/?9 storage=1,2,3", "1/-", "empty hand"),
    ("depot/1 players=3 turn=- hands=?9/?9/?9 storage=1,2,3", "- hands", "ends on a play"),
    ("depot/1 players=3 turn=- standing=A:4 hands=1/?9/?9 storage=1,2,3", "- standing", "emptied"),
    ("depot/1 players=3 turn=A round=x hands=?9/?9/?9 storage=1,2,3", "x", "not a number"),
    ("depot/1 players=3 turn=A cards=1,2 hands=?9/?9/?9 storage=1,2,3", "1,2 hands", "8 numbers"),
    ("depot/1 players=3 games=3 game=2 turn=A hands=?9/?9/?9 storage=1,2,3", None, "1 finished game"),
    ("depot/1 players=3 games=3 game=2 results=ABC:-/1/2:-,1,2 turn=A hands=?9/?9/?9 storage=1,2,3",
     "ABC", "D10.2"),
    ("depot/1 players=3 games=3 game=2 results=AB:-/1/2:-,1,2 turn=A hands=?9/?9/?9 storage=1,2,3",
     "AB:", "every seat once"),
    ("depot/1 players=3 games=3 game=2 starter=A results=ACB:-/1/2:-,2,1 turn=A hands=?9/?9/?9 storage=1,2,3",
     "A results", "D10.6"),
    ("depot/1 players=3 turn=A hands=?9/?9/?9 storage=1,2,3 colour=red", "colour", "unknown field"),
    ("depot/1 players=3 turn=A turn=B hands=?9/?9/?9 storage=1,2,3", "turn=B", "twice"),
    ("depot/1 players=9 turn=A hands=?9/?9/?9 storage=1,2,3", "9 turn", "players"),
    ("depot/2 players=3 turn=A hands=?9/?9/?9 storage=1,2,3", "2 players", "version"),
]


@pytest.mark.parametrize("text, where, words", ERRORS, ids=[w for _, _, w in ERRORS])
def test_errors_name_their_column(text, where, words):
    with pytest.raises(PositionError) as info:
        from_position(text, seed=1)
    assert words in str(info.value), str(info.value)
    column = len(text) + 1 if where is None else text.index(where) + 1
    assert info.value.column == column, str(info.value)
    assert re.match(f"column {column}[ :]", str(info.value))


def test_the_reference_error_examples_are_true():
    for text, message in re.findall(r"`(depot/1 [^`]*)` gives `([^`]*)`", _section()):
        with pytest.raises(PositionError) as info:
            from_position(text)
        assert str(info.value) == message


# --------------------------------------------------------------------------- round trips of every kind of position
def _round_trip(st) -> None:
    text = st.to_position()
    again = from_position(text, seed=99)
    _same(st, again)
    assert again.to_dict()["position"] == text
    assert depot.from_dict(again.to_dict()).to_dict() == again.to_dict()


def test_finished_games_matches_and_stopped_games_round_trip():
    _round_trip(_play(new_game(players=3, seed=1), 1))                      # a single game won
    _round_trip(_play(new_game(players=5, seed=2, games=3), 2))             # a match over
    stopped = _play(new_game(players=4, seed=3, max_turns=7), 3)
    assert stopped.outcome().termination.value == "aborted"
    _round_trip(stopped)
    assert "aborted=1" in stopped.to_position()
    mid = _play(new_game(players=4, seed=4, games=3, next_game_starter="rotate", starting_player="random",
                         penalty_cards_leave_play=False), 4, steps=400)
    assert mid.view(None)["game_no"] >= 2 and "results=" in mid.to_position()
    _round_trip(mid)


def test_games_stopped_at_any_turn_round_trip():
    """A game stopped by max_turns has nobody to act, but the text keeps the seat that was to
    act (it leads, or the passes are counted from it), so even a stop after one play with no
    pass since reads back as it was, passes and that seat included."""
    st = new_game(players=3, seed=0, max_turns=1)
    st.apply(st.legal_actions()[0])
    assert "turn=B aborted=1" in st.to_position()
    _round_trip(st)
    stops = 0
    for players in (3, 4, 5):
        for cap in range(1, 40, 3):
            stopped = _play(new_game(players=players, seed=cap, max_turns=cap), cap)
            stops += stopped.outcome().termination.value == "aborted"
            _round_trip(stopped)
            again = from_position(stopped.to_position(), seed=1).to_dict()["state"]
            assert (again["current"], again["passes"]) == (stopped._current, stopped._passes)
    assert stops > 30
    # Text written with turn=- gives the passes, none when left out.
    text = "depot/1 players=4 turn=- aborted=1 standing=A:3 hands=?9/?9/?9/?8 storage=1,2,3"
    assert from_position(text, seed=1)._passes == 0
    assert from_position(text.replace("turn=-", "turn=- passes=2"), seed=1)._passes == 2


def test_hand_built_positions_round_trip_with_their_cards():
    st = setup_position(5, [[1] * 5] * 5, [2, 3, 4, 5], standing=(0, [1]), current=1, target=6, round=2)
    assert "cards=26,1,1,1,1,0,0,0" in st.to_position() and "target=6" in st.to_position()
    _round_trip(st)
    st.apply("pass take 2 give 1")
    _round_trip(st)


def test_a_position_text_start_is_checked_when_loading():
    st = from_position("depot/1 players=3 turn=A hands=1,2/?9/?9 storage=1,2,3", seed=4)
    data = st.to_dict()
    assert depot.from_dict(data).to_dict() == data
    data["position"] = data["position"].replace("turn=A", "turn=Q")
    with pytest.raises(ValueError):
        depot.from_dict(data)


def test_every_field_written_is_documented():
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", _section(), re.M))
    written = set()
    for cfg in ({"players": 3}, {"players": 4, "games": 3}, {"players": 5, "max_turns": 30}):
        for seed in range(3):
            st = new_game(seed=seed, **cfg)
            rng = random.Random(seed)
            while not st.is_terminal:
                written |= {f.partition("=")[0] for f in st.to_position().split()[2:]}
                st.apply(rng.choice(st.legal_actions()))
            written |= {f.partition("=")[0] for f in st.to_position().split()[2:]}
    options = {o.name for o in depot.SPEC.options}
    assert written - options <= documented, written - options - documented
    assert documented - written <= {"cards", "passes", "target"}  # hand-built or stopped games, tested above
