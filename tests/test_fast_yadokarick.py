"""Yadokarick in the fast lane (standard, advanced card set, duo, solo): lane games replay exactly on
the reference engine (legal lists at every position, the outcome at the end), mutant rules are
caught, and lane and reference agree statistically."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pandas")

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.yadokarick import YadokarickGreedyBot  # noqa: E402
from cardwidgets.sim import simulate  # noqa: E402

from fast_check import GAMES, STAT_GAMES, first_mismatch, mutant, replay_all, shares_agree  # noqa: E402

# (mode, players, bots, options, games): the long games of 6 and 7 players replay fewer.
CONFIGS = [
    ("standard", 3, ("random",) * 3, {}, GAMES),
    ("standard", 4, ("greedy", "random", "greedy", "random"), {}, GAMES),
    ("standard", 5, ("random",) * 5, {}, GAMES // 2),
    ("standard", 6, ("greedy",) + ("random",) * 5, {}, GAMES // 3),
    ("standard", 7, ("random",) * 7, {}, GAMES // 3),
    ("standard", 3, ("greedy", "random", "random"), {"card_set": "advanced", "three_player_capture": "largest_size",
                                                     "three_player_color": "pink"}, GAMES),
    ("standard", 4, ("random",) * 4, {"card_set": "advanced"}, GAMES // 2),
    ("standard", 5, ("greedy", "random") * 2 + ("random",), {"card_set": "advanced"}, GAMES // 3),
    ("standard", 6, ("random",) * 6, {"card_set": "advanced", "rounds": 2}, GAMES // 3),
    # a short track: the marker meets its ends, where fewer moves are legal (Y7.2)
    ("standard", 5, ("greedy",) + ("random",) * 4,
     {"tie_leader": "last_actual_mover", "dealer": 2, "dealer_rotation": "fixed", "rounds": 2,
      "reset_marker_each_round": False, "size_track": (9, 13), "marker_start": 12, "house_limit": 4}, GAMES // 2),
    ("standard", 4, ("greedy", "random", "random", "greedy"),
     {"size_table": {1: 4, 36: 1, "P20": 3}, "roof_numbers": [5, 15], "collapsed_visibility": "count_only",
      "rounds": 2}, GAMES // 2),
    # Y8.3: captors of several cards choose their order (an action of its own, every order legal)
    ("standard", 4, ("greedy", "random", "greedy", "random"), {"placement_order": "choose"}, GAMES // 2),
    ("standard", 3, ("random", "greedy", "random"), {"placement_order": "choose", "card_set": "advanced",
                                                     "roof_numbers": [5, 15, 25], "house_limit": 4}, GAMES // 2),
    ("standard", 6, ("random",) * 6, {"placement_order": "choose", "rounds": 2}, GAMES // 6),
    ("duo", 2, ("random", "random"), {}, GAMES),
    ("duo", 2, ("greedy", "greedy"), {}, GAMES),
    ("duo", 2, ("greedy", "random"), {"npc_seat": 0, "duo_first_leader": 1, "duo_color": "pink"}, GAMES),
    ("duo", 2, ("random", "greedy"), {"npc_seat": 2, "duo_roofs": False, "house_limit": 3,
                                      "collapsed_visibility": "count_only"}, GAMES),
    ("solo", 1, ("random",), {}, GAMES),
    ("solo", 1, ("greedy",), {}, GAMES),
    ("solo", 1, ("random",), {"solo_initial_row": "one_color", "solo_bonus_chain": False, "solo_bonus_on_setup": True,
                              "solo_roof_insert_nonstrict": False}, GAMES),
    ("solo", 1, ("greedy",), {"solo_initial_row": "one_color", "solo_removed": [30, 12, 5],
                              "solo_house_complete": 5}, GAMES),
]


@pytest.fixture(scope="session")
def kernel():
    """The compiled kernel (numba's cache makes later sessions start fast)."""
    mod = fast.kernel("yadokarick")
    for mode, players in (("standard", 4), ("duo", 2), ("solo", 1)):
        mod.play(np.arange(2, dtype=np.int64), players, mode, fast.resolve("yadokarick", players, mode)[2],
                 ("greedy",) * players)
    return mod


def _batch(kernel, mode, players, bots, options, n=GAMES, seed=0):
    opts = fast.resolve("yadokarick", players, mode, options)[2]
    seeds = np.arange(seed, seed + n, dtype=np.int64) * 7919 + 17
    return kernel.play(seeds, players, mode, opts, bots, legal=True)


@pytest.mark.parametrize("mode, players, bots, options, games", CONFIGS)
def test_lane_games_replay_exactly(kernel, mode, players, bots, options, games, report):
    batch = _batch(kernel, mode, players, bots, options, n=games)
    positions = replay_all(batch)
    report("fast lane replay", "yadokarick", games=len(batch), positions=positions)


def test_the_record_is_complete(kernel):
    for mode, players, decisions in (("standard", 4, 4), ("duo", 2, 1), ("solo", 1, 2)):
        rep = _batch(kernel, mode, players, ("random",) * players, {}, n=3).replay(2)
        # Every shuffle was recorded: the seed of the replay draws nothing.
        rep2 = type(rep).from_json(rep.to_json().replace(f'"seed": {rep.seed}', '"seed": 1'))
        assert rep2.build().to_dict()["state"] == rep.build().to_dict()["state"]
        assert rep.build()._rng_count == len(rep.chance) == decisions


def test_solo_greedy_is_the_hint_at_every_step(kernel):
    # The solo heuristic draws nothing at random: the lane's greedy plays exactly the reference bot's moves.
    batch = _batch(kernel, "solo", 1, ("greedy",), {}, n=10)
    bot = YadokarickGreedyBot(seed=1)
    for i in range(len(batch)):
        st = batch.replay(i).new_state()
        for text in batch.actions_of(i):
            assert str(bot.act(st.view(0), st.legal_actions())) == text
            st.apply(text)


@pytest.mark.parametrize("mode, players, old, new", [
    # Y9.2: the first tied mover leads, not the last
    ("standard", 4, "leader = movers[nm - 1]", "leader = movers[0]"),
    # Y13.8: the captor leads the next trick, not the seat on its left
    ("duo", 2, "lead = (lead + pos + 1) % 3  # Y13.8", "lead = (lead + pos) % 3  # Y13.8"),
    # Y14.10: a bonus card taken scores nothing
    ("solo", 1, "plus += size[c]  # Y14.10", "plus += 0  # Y14.10"),
    # Y8.5: a roof card placed by an arrangement (placement_order="choose") does not roof the house
    ("standard", 3, "    if has_roof:\n        roofed[who] = 1", "    if has_roof:\n        roofed[who] = 0"),
])
def test_a_mutant_rule_is_caught(kernel, pytestconfig, mode, players, old, new):
    bad = mutant(kernel, old, new, pytestconfig.cache.mkdir("fast-mutants"))
    options = {"placement_order": "choose"} if "roofed[who]" in old else {}
    problem = first_mismatch(_batch(bad, mode, players, ("random",) * players, options, n=50))
    assert problem is not None, f"a kernel with {new!r} replays as if it were right"
    assert "legal lists differ" in str(problem) or "outcomes differ" in str(problem)


def test_coverage():
    assert fast.not_covered("yadokarick", bots="greedy", players=6, card_set="advanced",
                            tie_leader="last_actual_mover") is None
    assert fast.not_covered("yadokarick", bots="greedy", players=2, mode="duo", npc_seat=2) is None
    assert fast.not_covered("yadokarick", bots="solo_greedy", players=1, mode="solo", solo_house_complete=6) is None
    assert fast.not_covered("yadokarick", bots="random", players=4, placement_order="choose") is None
    with pytest.raises(ValueError, match="ismcts"):
        fast.play("yadokarick", [1], bots=["ismcts", "random", "random"], players=3)
    # players left out: the mode's own count, as new_game takes it (standard 4, duo 2, solo 1)
    assert [fast.play("yadokarick", [1], bots="random", **mode).players
            for mode in ({}, {"mode": "duo"}, {"mode": "solo"})] == [4, 2, 1]


@pytest.mark.parametrize("mode, players, bots, n_ref", [
    ("standard", 4, "random", STAT_GAMES // 10),
    ("standard", 3, ["greedy", "random", "random"], STAT_GAMES // 30),
    ("standard", 3, ["random", "greedy", "greedy"], STAT_GAMES // 30),  # placement_order="choose" below
    ("duo", 2, ["greedy", "random"], STAT_GAMES // 15),
    ("solo", 1, "random", STAT_GAMES // 10),
])
def test_lane_and_reference_agree(kernel, mode, players, bots, n_ref):
    options = {"placement_order": "choose"} if bots == ["random", "greedy", "greedy"] else {}
    lane = simulate("yadokarick", STAT_GAMES, bots=bots, seed=11, players=players, mode=mode, engine="fast",
                    **options)
    ref = simulate("yadokarick", n_ref, bots=bots, seed=11, players=players, mode=mode, engine="python", **options)
    assert lane.engine == "fast" and ref.engine == "python"
    assert shares_agree(lane, ref) == []
    # the mean score of seat 0 too: a bot there that played differently would move it first
    a, b = lane.games["scores"].map(lambda s: s[0]), ref.games["scores"].map(lambda s: s[0])
    assert abs(a.mean() - b.mean()) < 4 * (a.var() / len(a) + b.var() / len(b)) ** 0.5
