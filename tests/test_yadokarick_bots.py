"""Yadokarick bots: they beat random play beyond chance, are seeded, and see only their view."""

from __future__ import annotations

import pytest

from cardwidgets.bots import bot_names, make_bot
from cardwidgets.bots.yadokarick import BOTS, SoloGreedyBot, YadokarickGreedyBot
from cardwidgets.games import yadokarick as Y
from cardwidgets.sim import simulate
from kit import Spy


@pytest.mark.parametrize("cfg, games", [
    (dict(players=4), 200),
    (dict(players=3), 150),
    (dict(players=6, rounds=2), 100),
    (dict(players=4, card_set="advanced", placement_order="choose", rounds=2), 150),
    (dict(players=2, mode="duo"), 400),
])
def test_greedy_beats_random_beyond_chance(cfg, games):
    n = cfg["players"]
    res = simulate("yadokarick", games, bots=["greedy"] + ["random"] * (n - 1), seed=21, **cfg)
    greedy = res.summary().table.iloc[0]
    assert greedy.win_low > 1 / n, f"greedy wins {greedy.win_rate:.3f} of {games}: not better than chance"


def test_solo_greedy_scores_far_above_random():
    greedy = simulate("yadokarick", 40, bots=["greedy"], seed=5, players=1, mode="solo")
    rand = simulate("yadokarick", 40, bots=["random"], seed=5, players=1, mode="solo")
    assert greedy.games["scores"].str[0].mean() > 30 > 0 > rand.games["scores"].str[0].mean()
    solo_bot = simulate("yadokarick", 5, bots=["solo_greedy"], seed=5, players=1, mode="solo")
    assert list(solo_bot.games["scores"]) == list(greedy.games["scores"][:5])


@pytest.mark.parametrize("cfg", [dict(players=4, rounds=1), dict(players=2, mode="duo"),
                                 dict(players=1, mode="solo")])
def test_seeded_bots_replay_the_same_games(cfg):
    a = simulate("yadokarick", 3, bots="greedy", seed=3, **cfg).games
    b = simulate("yadokarick", 3, bots="greedy", seed=3, **cfg).games
    assert a.equals(b)


@pytest.mark.parametrize("cfg", [dict(players=5, rounds=1), dict(players=2, mode="duo"), dict(players=1, mode="solo")])
def test_bots_see_only_their_own_view(cfg):
    st = Y.new_game(seed=2, **cfg)
    spy = Spy(make_bot("yadokarick", "greedy", seed=1))
    while not st.is_terminal:
        p = st.current_player
        a = spy.act(st.view(p), st.legal_actions())
        assert st.is_legal(a)
        st.apply(a)
    assert spy.calls
    for view, legal in spy.calls:
        me = view["seat"]
        assert me is not None and legal
        assert "aside" not in view and "npc_deck" not in view and "decks" not in view
        if "hands" in view:
            assert all(h is None for s, h in enumerate(view["hands"]) if s != me)


def test_bot_registry():
    assert set(BOTS) == {"greedy", "solo_greedy"} and "greedy" in bot_names("yadokarick")
    assert isinstance(make_bot("yadokarick", "greedy", 1), YadokarickGreedyBot)
    assert isinstance(make_bot("yadokarick", "solo_greedy", 1), SoloGreedyBot)


def test_greedy_moves_the_marker_towards_its_house():
    st = Y.setup_standard(4, [["G25"], ["P8"], ["G17"], ["P29"]], trick_no=10,
                          houses=[[], ["G4", "G8", "G12", "G16"], [], []])
    for c in ("G25", "P8", "G17", "P29"):
        st.apply(f"play {c}")
    bot = YadokarickGreedyBot(1)
    # B ends the round with a house of 16, over the target 11: it wants the marker up
    assert str(bot.act(st.view(1), st.legal_actions())) == "move right"
