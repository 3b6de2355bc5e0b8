"""cirno+neu in the fast lane: lane games replay exactly on the reference engine, a mutant
rule is caught, and lane and reference agree statistically."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pandas")

from cardwidgets import fast  # noqa: E402
from cardwidgets.sim import simulate  # noqa: E402

from fast_check import GAMES, STAT_GAMES, first_mismatch, mutant, replay_all, shares_agree  # noqa: E402

CONFIGS = [
    (2, ("random", "random"), {}),
    (3, ("greedy", "random", "greedy"), {}),
    (4, ("random",) * 4, {}),
    (5, ("greedy",) * 5, {"life_system": True}),
    (8, ("random",) * 8, {"life_system": True, "lives": 1}),
    (6, ("greedy", "random") * 3, {"double_draw_timing": "after_each", "pass_ends_double_turn": True,
                                   "first_dealer": "random"}),
    (4, ("random",) * 4, {"auto_forced_bust": False, "allow_voluntary_bust": True, "floor_at_zero": True}),
    (3, ("random", "greedy", "random"), {"shot_resume": "after_target", "shot_self_target": True,
                                         "next_round_starter": "rotate", "reset_direction_each_round": False,
                                         "limit": 50, "set_value": 40}),
    (7, ("random",) * 7, {"next_round_starter": "after_loser", "hand_size": 5, "life_system": True,
                          "lives": 3}),
    (2, ("random", "greedy"), {"deck_counts": {"1": 3, "5": 2, "10": 2, "-1": 2, "99": 1, "PASS": 1, "DOUBLE": 2,
                                               "DSHOT": 1}}),
]


@pytest.fixture(scope="session")
def kernel():
    """The compiled kernel (numba's cache makes later sessions start fast)."""
    mod = fast.kernel("cirno_neu")
    mod.play(np.arange(2, dtype=np.int64), 4, "standard", fast.resolve("cirno_neu", 4)[2], ("random",) * 4)
    return mod


def _batch(kernel, players, bots, options, n=GAMES, seed=0):
    opts = fast.resolve("cirno_neu", players, None, options)[2]
    seeds = np.arange(seed, seed + n, dtype=np.int64) * 7919 + 13
    return kernel.play(seeds, players, "standard", opts, bots, legal=True)


@pytest.mark.parametrize("players, bots, options", CONFIGS)
def test_lane_games_replay_exactly(kernel, players, bots, options, report):
    batch = _batch(kernel, players, bots, options)
    positions = replay_all(batch)
    report("fast lane replay", "cirno_neu", games=len(batch), positions=positions)


def test_a_game_that_hits_the_action_bound_replays(kernel):
    # Minus cards and PASS keep the sum low for ever: both games stop at the bound (rule G4).
    batch = _batch(kernel, 2, ("random", "random"), {"deck_counts": {"1": 2, "-10": 10, "PASS": 5, "SHOT": 1}}, n=2)
    assert batch.aborted.all() and (batch.length == kernel.BOUND).all()
    replay_all(batch)


def test_the_record_is_complete(kernel):
    batch = _batch(kernel, 4, ("random",) * 4, {"life_system": True}, n=20)
    rep = batch.replay(3)
    # Every shuffle was recorded: the seed of the replay draws nothing.
    rep2 = type(rep).from_json(rep.to_json().replace(f'"seed": {rep.seed}', '"seed": 1'))
    assert rep2.build().to_dict()["state"] == rep.build().to_dict()["state"]
    assert rep.build()._rng_count == len(rep.chance)


def test_a_mutant_rule_is_caught(kernel, pytestconfig):
    # DOUBLE (N3.7) no longer doubles the next turn: the replay finds the first game it changes.
    bad = mutant(kernel, "            elif c == DOUBLE:\n                double_next = True",
                 "            elif c == DOUBLE:\n                double_next = False",
                 pytestconfig.cache.mkdir("fast-mutants"))
    problem = first_mismatch(_batch(bad, 4, ("random",) * 4, {}, n=50))
    assert problem is not None, "a kernel with rule N3.7 broken replays as if it were right"
    assert "legal lists differ" in str(problem) or "outcomes differ" in str(problem)


@pytest.mark.parametrize("players, bots, options", [
    (4, "random", {}),
    (5, ["greedy", "random", "random", "random", "random"], {"life_system": True}),
])
def test_lane_and_reference_agree(kernel, players, bots, options):
    lane = simulate("cirno_neu", STAT_GAMES, bots=bots, seed=11, players=players, engine="fast", **options)
    ref = simulate("cirno_neu", STAT_GAMES, bots=bots, seed=11, players=players, engine="python", **options)
    assert lane.engine == "fast" and ref.engine == "python"
    assert shares_agree(lane, ref) == []


def test_recording_the_legal_lists_changes_no_game(kernel):
    opts = fast.resolve("cirno_neu", 5)[2]
    seeds = np.arange(200, dtype=np.int64)
    a = kernel.play(seeds, 5, "standard", opts, ("random", "greedy") * 2 + ("random",))
    b = kernel.play(seeds, 5, "standard", opts, ("random", "greedy") * 2 + ("random",), legal=True)
    assert (a.actions == b.actions).all() and (a.chance == b.chance).all() and (a.length == b.length).all()
