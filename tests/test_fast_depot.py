"""Depot in the fast lane: lane games (single games and matches) replay exactly on the
reference engine, a mutant rule is caught, and lane and reference agree statistically."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pandas")

from cardwidgets import fast  # noqa: E402
from cardwidgets.sim import simulate  # noqa: E402

from fast_check import GAMES, STAT_GAMES, first_mismatch, mutant, replay_all, shares_agree  # noqa: E402

#: Matches are ten times longer than single games: fewer of them keep the suite quick.
MATCHES = max(10, GAMES // 5)

CONFIGS = [
    (3, ("random",) * 3, {}),
    (4, ("greedy", "random", "random", "greedy"), {}),
    (5, ("random",) * 5, {}),
    (3, ("greedy",) * 3, {"refill_target": "noted", "reshuffle_timing": "when_empty", "starting_player": "random"}),
    (5, ("greedy", "random") * 2 + ("random",), {"deck_counts": {v: 6 for v in range(1, 9)},
                                                 "hand_size": {3: 5, 4: 5, 5: 5},
                                                 "initial_storage": {3: 2, 4: 2, 5: 6}}),
    (4, ("random",) * 4, {"max_turns": 40}),
]
MATCH_CONFIGS = [
    (4, ("random",) * 4, {"games": 3}),
    (3, ("greedy", "random", "random"), {"games": 3, "next_game_starter": "winner", "refill_target": "noted"}),
    (5, ("greedy",) * 5, {"games": 3, "rank_tiebreak": "random", "penalty_mode": "greedy",
                          "penalty_cards_leave_play": False, "next_game_starter": "rotate",
                          "match_tie": "last_game_rank"}),
    (4, ("random",) * 4, {"games": 3, "max_turns": 150}),
]


@pytest.fixture(scope="session")
def kernel():
    """The compiled kernel (numba's cache makes later sessions start fast)."""
    mod = fast.kernel("depot")
    mod.play(np.arange(2, dtype=np.int64), 4, "standard", fast.resolve("depot", 4)[2], ("random",) * 4)
    return mod


def _batch(kernel, players, bots, options, n, seed=0):
    opts = fast.resolve("depot", players, None, options)[2]
    seeds = np.arange(seed, seed + n, dtype=np.int64) * 104729 + 7
    return kernel.play(seeds, players, "standard", opts, bots, legal=True)


@pytest.mark.parametrize("players, bots, options", CONFIGS)
def test_lane_games_replay_exactly(kernel, players, bots, options, report):
    batch = _batch(kernel, players, bots, options, GAMES)
    report("fast lane replay", "depot", games=len(batch), positions=replay_all(batch))


@pytest.mark.parametrize("players, bots, options", MATCH_CONFIGS)
def test_lane_matches_replay_exactly(kernel, players, bots, options, report):
    batch = _batch(kernel, players, bots, options, MATCHES)
    report("fast lane replay", "depot", matches=len(batch), positions=replay_all(batch))


def test_a_mutant_rule_is_caught(kernel, pytestconfig):
    # A pass may give back a card of the value it took (D6.3 broken): the replay finds it.
    bad = mutant(kernel, "if gv != t and hands[p, gv] > 0:\n                                        lcode[nl]",
                 "if hands[p, gv] > 0:\n                                        lcode[nl]",
                 pytestconfig.cache.mkdir("fast-mutants"))
    problem = first_mismatch(_batch(bad, 4, ("random",) * 4, {}, 100))
    assert problem is not None, "a kernel with rule D6.3 broken replays as if it were right"


@pytest.mark.parametrize("players, bots, options", [
    (4, "random", {}),
    (3, ["greedy", "random", "random"], {}),
])
def test_lane_and_reference_agree(kernel, players, bots, options):
    n = STAT_GAMES // 2  # a reference Depot game costs about ten cirno+neu games
    lane = simulate("depot", n, bots=bots, seed=11, players=players, engine="fast", **options)
    ref = simulate("depot", n, bots=bots, seed=11, players=players, engine="python", **options)
    assert lane.engine == "fast" and ref.engine == "python"
    assert shares_agree(lane, ref) == []


def test_recording_the_legal_lists_changes_no_game(kernel):
    # The replay tests record the legal lists; simulations do not (a random bot then counts the
    # passes instead of listing them): both must play the same games.
    opts = fast.resolve("depot", 5)[2]
    seeds = np.arange(200, dtype=np.int64)
    a = kernel.play(seeds, 5, "standard", opts, ("random",) * 5)
    b = kernel.play(seeds, 5, "standard", opts, ("random",) * 5, legal=True)
    assert (a.actions == b.actions).all() and (a.chance == b.chance).all() and (a.length == b.length).all()
