"""Positions as text, the same checks for every game and mode.

Along random games of every configuration of the conformance suite, a position
written with ``to_position`` reads back (``cardwidgets.from_position``) with the
same teacher view and the same legal actions, and writes the same text again;
a replay's ``position`` accepts the text. Bad text is a ``PositionError`` naming
a column. Each game's own grammar (unknown parts, card conservation, every field)
is tested in its own test file.
"""

from __future__ import annotations

import random

import pytest

import kit
from cardwidgets import PositionError, Replay, Timeline, from_position
from cardwidgets.games import game_module
from test_conformance import CASES, IDS


def _positions(game: str, cfg: dict, seed: int, every: int = 7):
    """Positions along a seeded random game: the start, every ``every``-th, the end."""
    mod = game_module(game)
    st = mod.new_game(seed=seed, **cfg)
    rng = random.Random(seed)
    k = 0
    yield st
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply_unchecked(legal[rng.randrange(len(legal))])
        k += 1
        if k % every == 0 or st.is_terminal:
            yield st


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_positions_round_trip(game, cfg, report):
    n = 0
    for st in _positions(game, cfg, seed=3):
        text = st.to_position()
        assert "\n" not in text and text.startswith(f"{game}/{st.SPEC.version} "), text
        again = from_position(text, seed=5)
        assert type(again) is type(st)
        assert again.view(None) == st.view(None), f"the teacher view differs after reading {text!r}"
        assert [str(a) for a in again.legal_actions()] == [str(a) for a in st.legal_actions()]
        assert again.to_position() == text
        assert again.current_player == st.current_player and again.phase == st.phase
        n += 1
    report("positions", game, round_trips=n)


@pytest.mark.parametrize("game, cfg", CASES[::5], ids=IDS[::5])
def test_a_replay_starts_from_position_text(game, cfg):
    positions = list(_positions(game, cfg, seed=4, every=11))
    st = positions[len(positions) // 2]
    if st.is_terminal:
        return
    text = st.to_position()
    rep = Replay.from_state(from_position(text, seed=9))
    assert rep.position == text
    rep.actions = [str(st.legal_actions()[0])]
    again = Replay.from_json(rep.to_json())
    tl = Timeline.from_replay(again)
    assert tl.position(0).view(None) == st.view(None)
    assert tl.cursor == 1


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_bad_position_text_names_a_column(game):
    st = game_module(game).new_game(seed=1, **CASES[[g for g, _ in CASES].index(game)][1])
    text = st.to_position()
    head, _, rest = text.partition(" ")
    cases = {
        "": 1,
        "chess/1 players=2": 1,
        f"{game}/999 " + rest: len(game) + 2,
        text + " nonsense": len(text) + 2,
        text + " zzz=1": len(text) + 2,
        text.replace(" players=", " players=x", 1): None,
    }
    for bad, column in cases.items():
        with pytest.raises(PositionError) as info:
            from_position(bad)
        if column is not None:
            assert info.value.column == column, (bad, str(info.value))
        assert str(info.value)
    # Every field cut short or filled with junk: refused with a column, never another error.
    fields = text.split(" ")
    for i in range(1, len(fields)):
        for junk in ("", "?", "-", "ZZ", "9" * 12, "A/B/C", "?99999"):
            key = fields[i].partition("=")[0]
            bad = " ".join(fields[:i] + [f"{key}={junk}"] + fields[i + 1:])
            try:
                again = from_position(bad, seed=1)
            except PositionError as e:
                assert e.column is None or 1 <= e.column <= len(bad) + 1, (bad, e)
                continue
            kit.views_are_safe(again)  # accepted: it must be a sound position


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_an_option_nested_past_the_json_decoder_is_a_position_error(game):
    """``players=[[[[...`` (2000 deep) raised RecursionError from the JSON decoder, in every
    game and through every option (``names=``, ``deck_counts=`` ...)."""
    from cardwidgets import game_spec

    spec = game_spec(game)
    head = f"{game}/{spec.version} "
    for key in ["players", "names", *(o.name for o in spec.options)]:
        for value in ("[" * 2000, "[" * 2000 + "]" * 2000, '{"a":' * 2000):
            with pytest.raises(PositionError) as info:
                from_position(head + f"{key}={value}", seed=1)
            assert (info.value.column, info.value.field) == (len(head) + len(key) + 2, key), str(info.value)
