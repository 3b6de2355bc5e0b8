"""cirno+neu positions as text (``to_position`` / ``from_position``): a teacher's
position with unknown parts, every kind of mistake with its column, card
conservation, seeds, and the hand-built and finished positions."""

from __future__ import annotations

import random

import pytest

import cardwidgets
from cardwidgets import PositionError, Replay, Timeline
from cardwidgets.games.cirno_neu import DEFAULT_DECK, from_position, new_game, setup_position

LESSON = "cirno_neu/1 players=3 turn=A sum=90 hands=5,PASS,-1/10,50,8/?3 stack=?4 draw=?"


def col(text: str, part: str, offset: int = 0) -> int:
    """1-based column of ``part`` in ``text``."""
    return text.index(part) + 1 + offset


def test_a_teachers_position_with_unknown_parts():
    st = from_position(LESSON, seed=1)
    assert cardwidgets.from_position(LESSON, seed=1).to_dict() == st.to_dict()
    assert st.current_player == 0 and st.sum == 90 and st.players == 3
    assert st.hand(0) == ["5", "-1", "PASS"] and st.hand(1) == ["8", "10", "50"]
    assert len(st.hand(2)) == 3 and len(st.main_stack) == 4 and len(st.draw_pile) == 59 - 13
    assert sum(st.all_cards().values()) == 59 and st.all_cards() == {k: v for k, v in DEFAULT_DECK.items()}
    events = st.apply("play 5")
    assert [e.rule for e in events if e.kind == "bust"] == ["N4.4"]
    assert not st.active[1] and st.round == 2
    # the state remembers the text as its start: a replay of it rebuilds the game
    assert Replay.from_json(Replay.from_state(st).to_json()).build().to_dict() == st.to_dict()


def test_the_same_seed_deals_the_same_unknown_parts():
    a, b = from_position(LESSON, seed=7), from_position(LESSON, seed=7)
    assert a.to_dict() == b.to_dict()
    others = {tuple(from_position(LESSON, seed=s).hand(2)) for s in range(12)}
    assert len(others) > 1, "other seeds deal the unknown cards differently"


def test_unknown_parts_inside_lists_and_case():
    text = "cirno_neu/1 players=2 turn=B hands=pass,?2/⑨,?2 stack=10,?2,-10 draw=7,?,dshot sum=9"
    st = from_position(text, seed=3)
    assert "PASS" in st.hand(0) and "9" in st.hand(1) and len(st.hand(0)) == 3
    stack = st.main_stack
    assert stack[0] == "10" and stack[-1] == "-10" and len(stack) == 4
    pile = st.draw_pile
    assert pile[0] == "7" and pile[-1] == "DSHOT"
    assert st.all_cards() == dict(DEFAULT_DECK)


def test_every_field_round_trips():
    """A position with every optional field set: a double shot turn of the life system."""
    st = setup_position(4, [["SHOT", "DOUBLE", "5"], ["1", "2", "3"], ["4", "6", "7"], ["8", "9", "10"]], sum=10,
                        life_system=True, chips=[2, 1, 2, 1], direction=-1)
    st.apply("play shot @2")  # C plays a shot turn now; afterwards play resumes after A
    st.apply("play 4")
    text = st.to_position()
    for field in ("life_system=true", "dir=ccw", "chips=2,1,2,1", "last=C:4", "turn_no="):
        assert field in text, (field, text)
    again = from_position(text, seed=1)
    assert again.view(None) == st.view(None) and again.to_position() == text
    # a shot turn in the middle of a double turn
    st = setup_position(4, [["DSHOT", "1", "2"], ["3", "4", "5"], ["6", "7", "8"], ["SHOT", "9", "10"]])
    st.apply("play dshot @3")
    st.apply("play shot @1")
    text = st.to_position()
    for field in ("turn=D", "anchor=A", "kind=shot", "need=2", "played=1", "shot=B", "last=D:SHOT@B"):
        assert field in text, (field, text)
    assert from_position(text).to_position() == text


def test_finished_and_aborted_matches_round_trip():
    st = setup_position(2, [["5", "PASS", "-1"], ["10", "50", "8"]], sum=90)
    st.apply("play 5")
    text = st.to_position()
    assert "end=won" in text and "bust=B/1/95/8,10,50/-" in text
    again = from_position(text)
    assert again.is_terminal and again.outcome() == st.outcome() and again.view(None) == st.view(None)
    cap = new_game(players=2, seed=1, deck_counts={"1": 1, "DOUBLE": 30})
    rng = random.Random(1)
    while not cap.is_terminal:
        cap.apply_unchecked(rng.choice(cap.legal_actions()))
    text = cap.to_position()
    assert "end=aborted" in text
    assert from_position(text).outcome() == cap.outcome()


def test_hand_built_positions_with_their_own_cards_round_trip():
    st = setup_position(4, [["1", "1", "PASS"], ["1"], ["1"], ["2"]], sum=20, draw=["5", "6"])
    text = st.to_position()
    assert 'built={"1":4,"2":1,"5":1,"6":1,"PASS":1}' in text
    again = from_position(text)
    assert again.view(None) == st.view(None) and again.all_cards() == st.all_cards()
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in st.legal_actions()]
    with pytest.raises(PositionError) as info:
        from_position(text.replace("draw=5,6", "draw=5,6,7"))
    assert info.value.column == col(text, "draw=5,6", 9) and "one 7 too many" in str(info.value)


def test_a_position_of_a_custom_deck():
    text = 'cirno_neu/1 players=2 deck_counts={"1":3,"50":2,"PASS":4} turn=B hands=?3/?3 draw=?'
    st = from_position(text, seed=2)
    assert st.all_cards() == {"1": 3, "50": 2, "PASS": 4}
    assert from_position(st.to_position()).to_position() == st.to_position()


def test_a_timeline_starts_from_position_text():
    st = from_position(LESSON, seed=4)
    tl = Timeline(st)
    tl.step("play pass")
    rep = tl.to_replay()
    assert rep.position == LESSON
    again = Timeline.from_replay(Replay.from_json(rep.to_json()))
    assert again.state.to_dict() == tl.state.to_dict()


# --------------------------------------------------------------------------- mistakes
BAD = [
    # (text, the part the error points at, words)
    ("cirno_neu/1 players=3 turn=A hands=5,PASS,-1/10,50,8/?3 draw=? stack=12", "12", "is not a card"),
    ("cirno_neu/1 players=3 turn=A hands=50,50,50/?3/?3 draw=?", "50/?3", "one 50 too many"),
    ("cirno_neu/1 players=3 turn=A hands=5,PASS,-1/10,50,8/1,2,3 draw=1,2", "draw=1,2", "cards missing"),
    ("cirno_neu/1 players=3 turn=A hands=?3/?3/?3 draw=?40", "?40", "hold 49 cards but 59 are not placed"),
    ("cirno_neu/1 players=3 turn=A hands=?3/?3/? draw=?", "/? ", "a bare '?'"),
    ("cirno_neu/1 players=3 turn=A hands=?3/?3 draw=?", "hands=", "expected 3 parts"),
    ("cirno_neu/1 players=3 turn=D hands=?3/?3/?3 draw=?", "turn=D", "not a seat"),
    ("cirno_neu/1 players=3 turn=A sum=x hands=?3/?3/?3 draw=?", "sum=x", "not a number"),
    ("cirno_neu/1 players=3 turn=A sum=120 hands=?3/?3/?3 draw=?", "sum=120", "sum: at most 99"),
    ("cirno_neu/1 players=3 turn=A dir=up hands=?3/?3/?3 draw=?", "dir=up", "not one of: cw, ccw"),
    ("cirno_neu/1 players=3 turn=B out=B hands=?3/?3/?3 draw=?", "turn=B", "actor: a player in the match"),
    ("cirno_neu/1 players=3 turn=A out=B hands=?3/?3/?3 draw=?", "hands=", "eliminated player holds no cards"),
    ("cirno_neu/1 players=3 turn=A last=A:shot hands=?3/?3/?3 draw=?", "last=A:shot", "have a target"),
    ("cirno_neu/1 players=3 turn=A bust=A/1/95 hands=?3/?3/?3 draw=?", "bust=A/1/95", "expected 5 parts"),
    ("cirno_neu/1 players=3 turn=A end=lost hands=?3/?3/?3 draw=?", "end=lost", "not one of"),
    ("cirno_neu/1 players=3 turn=A colour=red hands=?3/?3/?3 draw=?", "colour=red", "unknown field"),
    ("cirno_neu/1 players=3 turn=A built={x} hands=?3/?3/?3 draw=?", "built={x}", "card count object"),
    ("cirno_neu/1 players=3 hands=?3/?3/?3 draw=?", None, "the field turn= is missing"),
    ("cirno_neu/1 players=9 turn=A hands=?3/?3/?3 draw=?", "players=9", "players=9 is not allowed"),
    ("cirno_neu/1 players=3 turn=A sum=95 hands=10,50,8/?3/?3 draw=?", "hands=", "no safe card"),
]


@pytest.mark.parametrize("text, part, words", BAD, ids=[w for _, _, w in BAD])
def test_mistakes_name_their_column(text, part, words):
    with pytest.raises(PositionError) as info:
        from_position(text, seed=1)
    err = info.value
    assert words in str(err), str(err)
    if part is None:
        assert err.column == len(text) + 1
    else:
        start = col(text, part)
        assert err.column is not None and start <= err.column <= start + len(part), (err.column, start, str(err))
    assert str(err).startswith(f"column {err.column}") or err.column is None


def test_a_card_too_many_points_at_the_card():
    text = "cirno_neu/1 players=2 turn=A hands=DSHOT,1,2/DSHOT,3,4 draw=?"
    with pytest.raises(PositionError) as info:
        from_position(text)
    assert info.value.column == text.index("DSHOT,3") + 1 and info.value.field == "hands"


def test_positions_of_every_configuration_read_back():
    for cfg in (dict(players=2), dict(players=8, life_system=True, lives=3),
                dict(players=5, double_draw_timing="after_each", pass_ends_double_turn=True),
                dict(players=3, shot_resume="after_target", shot_self_target=True, floor_at_zero=True)):
        st = new_game(seed=9, **cfg)
        rng = random.Random(9)
        while not st.is_terminal:
            text = st.to_position()
            again = from_position(text, seed=1)
            assert again.view(None) == st.view(None) and again.to_position() == text
            st.apply_unchecked(rng.choice(st.legal_actions()))


def test_the_rules_reference_examples_load():
    from importlib import resources

    text = resources.files("cardwidgets.rules").joinpath("cirno_neu.md").read_text(encoding="utf-8")
    section = text.split("\n## Position text\n", 1)[1].split("\n## ", 1)[0]
    examples = [line for line in section.split("```")[1].splitlines() if line.startswith("cirno_neu/")]
    assert len(examples) == 2
    for line in examples:
        st = from_position(line, seed=1)
        assert from_position(st.to_position()).view(None) == st.view(None)
