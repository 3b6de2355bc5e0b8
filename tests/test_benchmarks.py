"""The benchmarks' own machinery measures what it says: benchmarks/ceiling.py's recorded
playouts, stand-in state and chance replay, and engine.py's resumable playouts.

The figures themselves are never asserted (speed belongs in the benchmarks, not in tests)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import ceiling  # noqa: E402
import engine  # noqa: E402

from cardwidgets.games import available_games, game_module  # noqa: E402

CONFIGS = [(g, cfg) for g in available_games() for cfg in engine.configs(g)]


def _playouts(mod, cfg: dict, games: int) -> tuple[int, int]:
    """Actions and chance decisions of engine.py's random playouts of seeds 0..games-1."""
    rng = random.Random(1)
    actions = decisions = 0
    for seed in range(games):
        st = mod.new_game(seed=seed, **cfg)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
        actions += st.move_count
        decisions += st._rng_count
    return actions, decisions


@pytest.mark.parametrize("game, cfg", CONFIGS, ids=[f"{g}:{c}" for g, c in CONFIGS])
def test_the_recorded_sample_is_the_benchmark_s_own_playouts(game, cfg):
    mod = game_module(game)
    rec = ceiling.Recorded(mod, cfg, 3)
    actions, decisions = _playouts(mod, cfg, 3)
    assert rec.actions == actions == len(rec.ends) and sum(rec.ends) == 3
    assert all(rec.lists) and all(isinstance(x, list) for x in rec.lists)
    # The recorded games are the seeded ones (same actions), and every chance decision goes
    # through the recorder; Depot alone counts one it does not draw (a discard pile taken whole into the Storage needs no order).
    if game == "depot":
        assert 3 <= len(rec.chance) <= decisions
    else:
        assert len(rec.chance) == decisions >= 3
    assert {kind for kind, *_ in rec.chance} <= {"shuffle", "randrange"}


def test_the_stand_in_plays_the_recorded_games_through():
    rec = ceiling.Recorded(game_module("cirno_neu"), {"players": 4}, 4)
    i = games = 0
    while i < rec.actions:
        st = ceiling.StandIn(rec.lists, rec.ends, i)
        while not st.is_terminal:
            assert st.legal_actions() is rec.lists[st.i]
            st.apply_unchecked(None)
        i, games = st.i, games + 1
    assert (i, games) == (rec.actions, 4)
    assert ceiling.loop_cost(rec, 0.01) > 0 and ceiling.chance_cost(rec, 0.01) > 0


def test_playouts_resume_with_the_next_seeds():
    mod = game_module("crypto_trick")
    run = engine.Playouts(mod, {"players": 3}, True)
    a1, g1, _ = run(0.02)
    a2, g2, _ = run(0.02)
    assert g1 >= 1 and g2 >= 1 and run.seed == g1 + g2
    # The two slices are the first g1 + g2 seeds, played with one random stream.
    assert a1 + a2 == _playouts(mod, {"players": 3}, g1 + g2)[0]
