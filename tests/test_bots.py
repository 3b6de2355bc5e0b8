"""Bots: seeded, see only the view and the legal list, and the heuristics beat random play."""

from __future__ import annotations

import pytest

from cardwidgets.bots import RandomBot, bot_names, make_bot
from cardwidgets.games import available_games
from cardwidgets.sim import simulate
from kit import Spy

HEURISTIC = {"depot": dict(players=4), "cirno_neu": dict(players=4, life_system=True)}


@pytest.mark.parametrize("game", sorted(HEURISTIC))
def test_heuristic_bot_beats_random_play(game):
    cfg = HEURISTIC[game]
    n = cfg["players"]
    res = simulate(game, 200, bots=["greedy"] + ["random"] * (n - 1), seed=11, **cfg)
    greedy = res.summary().table.iloc[0]
    assert greedy.win_low > 1 / n, f"greedy seat wins {greedy.win_rate:.2f}: not better than chance"


def _default(game: str) -> dict:
    from cardwidgets import game_spec

    mode = game_spec(game).modes[0]
    return {"players": mode.players[len(mode.players) // 2]}


@pytest.mark.parametrize("game", available_games())
def test_same_seed_same_games(game):
    cfg = HEURISTIC.get(game, _default(game))
    a = simulate(game, 5, bots="greedy", seed=3, **cfg).games
    b = simulate(game, 5, bots="greedy", seed=3, **cfg).games
    assert a.equals(b)


@pytest.mark.parametrize("game", sorted(HEURISTIC))
def test_bots_see_only_their_own_view(game):
    from cardwidgets import make

    st = make(game, seed=2, **HEURISTIC[game])
    spy = Spy(make_bot(game, "greedy", seed=1))
    for _ in range(60):
        if st.is_terminal:
            break
        p = st.current_player
        st.apply(spy.act(st.view(p), st.legal_actions()))
    for view, legal in spy.calls:
        me = view["seat"]
        assert all(h is None for s, h in enumerate(view["hands"]) if s != me)
        assert legal


def test_registry():
    assert "greedy" in bot_names("depot") and "random" in bot_names("cirno_neu")
    assert isinstance(make_bot("depot", "random", 1), RandomBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("depot", "oracle")
    custom = Spy(RandomBot(0))
    assert make_bot("depot", custom) is custom
