"""Replay files: save, load, byte-for-byte determinism, and errors that name the line."""

from __future__ import annotations

import random

import pytest

from cardwidgets import Replay, ReplayError, make
from cardwidgets.games import depot


def played(n=30, **kw):
    rng = random.Random(4)
    st = make("depot", seed=9, **{"players": 4, **kw})
    for _ in range(n):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_round_trip_is_byte_for_byte(tmp_path):
    st = played(games=3)
    rep = Replay.from_state(st, notes={4: "look at this pass"})
    path = tmp_path / "g.json"
    rep.save(path)
    loaded = Replay.load(path)
    assert loaded.to_json() == path.read_text() == rep.to_json()
    assert loaded.build().to_dict() == st.to_dict()
    assert loaded.notes == {4: "look at this pass"}
    states = list(loaded.states())
    assert len(states) == len(st.history) + 1 and states[-1].to_dict() == st.to_dict()


def test_deck_scenario_replays():
    order = [v for v in range(1, 9) for _ in range(depot.DEFAULT_DECK[v])]
    random.Random(1).shuffle(order)
    st = make("depot", players=3, seed=2, deck=order)
    st.apply(st.legal_actions()[0])
    rep = Replay.from_json(Replay.from_state(st).to_json())
    assert rep.deck == order and rep.build().to_dict() == st.to_dict()


def test_fork_keeps_a_prefix():
    rep = Replay.from_state(played(), notes={2: "x", 20: "y"})
    f = rep.fork(5)
    assert len(f.actions) == 5 and f.notes == {2: "x"}
    assert f.build().history == rep.build(5).history


def _text_with(action_index: int, replacement: str) -> tuple[str, int]:
    rep = Replay.from_state(played())
    rep.actions[action_index] = replacement
    text = rep.to_json()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip().rstrip(",") == f'"{replacement}"')
    return text, line


def test_first_illegal_action_is_named_with_line_index_and_rule():
    text, line = _text_with(3, "play 1 8")
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    e = info.value
    assert e.index == 3 and e.line == line and e.rule and e.rule.startswith(("D4", "D5"))
    assert str(e).startswith(f"line {line}: action #3 'play 1 8'")


def test_malformed_action_is_named():
    text, line = _text_with(6, "jump 3")
    with pytest.raises(ReplayError, match=rf"^line {line}: action #6 'jump 3' is malformed") as info:
        Replay.from_json(text)
    assert info.value.index == 6 and info.value.rule is None


def test_json_syntax_error_names_the_line():
    text = Replay.from_state(played()).to_json().replace('"seed": 9,', '"seed": 9,,')
    with pytest.raises(ReplayError, match=r"^line 1: not valid JSON"):
        Replay.from_json(text)
    lines = Replay.from_state(played()).to_json().splitlines()
    lines[4] = lines[4] + " oops"
    with pytest.raises(ReplayError, match=r"^line 5: not valid JSON"):
        Replay.from_json("\n".join(lines))


@pytest.mark.parametrize("edit, words", [
    (('"format": "cardwidgets-replay"', '"format": "other"'), '"format" must be'),
    (('"version": 2', '"version": 3'), "unsupported"),
    (('"game": "depot"', '"game": "chess"'), 'unknown "game"'),
    (('"seed": 9', '"seed": "nine"'), '"seed" must be an integer'),
    (('"players": 4', '"players": 9'), "cannot set up the game"),
    (('"players": 4', '"players": 4, "colour": 1'), "unknown option"),
])
def test_bad_header_fields(edit, words):
    text = Replay.from_state(played(3)).to_json().replace(*edit)
    with pytest.raises(ReplayError, match=words) as info:
        Replay.from_json(text)
    assert info.value.line == 1


def test_not_an_object():
    with pytest.raises(ReplayError, match="JSON object"):
        Replay.from_json("[1, 2]")
