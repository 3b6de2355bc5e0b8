"""Determinization (``state.sample_world``), the same checks for every game and mode.

A sampled world looks the same to its seat (``view(seat)`` identical, the same
legal list when the seat is to act), conserves the cards, carries no record of
the real deal (new seed, no deck order, no hand-built origin), is a sound state
(round trips, plays to its end), and leaves the real state untouched. Whether every
consistent place of an unseen card occurs is tested per game.
"""

from __future__ import annotations

import random

import pytest

import kit
from cardwidgets import Replay
from cardwidgets.games import game_module
from test_conformance import CASES, IDS


def check_world(st, seat: int, rng: random.Random) -> object:
    before = st.to_dict()
    world = st.sample_world(seat, rng)
    assert st.to_dict() == before, "sampling a world changed the real state"
    assert type(world) is type(st)
    assert world.view(seat) == st.view(seat), "the seat can tell the world from the real position"
    if st.current_player == seat:
        assert [str(a) for a in world.legal_actions()] == [str(a) for a in st.legal_actions()]
    assert world.current_player == st.current_player and world.phase == st.phase
    if hasattr(st, "all_cards"):
        assert world.all_cards() == st.all_cards(), "the world created or lost cards"
    assert world.seed != st.seed and world.deck_order is None and world._origin is None
    with pytest.raises(ValueError, match="world of sample_world"):
        Replay.from_state(world)  # its seed and history do not make it: no record to replay
    kit.roundtrips(world)
    return world


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_worlds_look_the_same_to_their_seat(game, cfg, report):
    mod = game_module(game)
    rng = random.Random(7)
    st = mod.new_game(seed=11, **cfg)
    n = 0
    step = 0
    while not st.is_terminal:
        if step % 5 == 0:
            for seat in {st.current_player, rng.randrange(st.players)}:
                world = check_world(st, seat, rng)
                n += 1
                if step % 25 == 0:  # a world is a real game: it plays to its end
                    bound = mod.SPEC.max_actions(world.players, world.options)
                    k = 0
                    while not world.is_terminal:
                        legal = world.legal_actions()
                        assert legal
                        world.apply_unchecked(legal[rng.randrange(len(legal))])
                        k += 1
                        assert k <= bound
        legal = st.legal_actions()
        st.apply_unchecked(legal[rng.randrange(len(legal))])
        step += 1
    report("worlds", game, worlds_checked=n)


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_sample_world_arguments(game):
    st = game_module(game).new_game(seed=1, **CASES[[g for g, _ in CASES].index(game)][1])
    a = st.sample_world(0, 5).to_dict()
    b = st.sample_world(0, random.Random(5)).to_dict()
    assert a == b, "an int seed and random.Random(seed) give the same world"
    for bad in (None, -1, st.players, True, 1.0, "A"):
        with pytest.raises(ValueError):
            st.sample_world(bad, 1)
    with pytest.raises(TypeError):
        st.sample_world(0, "seed")
