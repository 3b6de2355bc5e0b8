"""Crypto Trick in the fast lane: lane games replay exactly on the reference engine (legal lists at
every position, the outcome at the end), a mutant rule is caught, and lane and reference agree
statistically."""

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
    (5, ("greedy",) * 5, {}),
    (2, ("greedy", "greedy"), {"first_player": "random", "rounds": 2}),
    (4, ("greedy", "random") * 2, {"declaration_mode": "single_pass_first", "trump_follow_unified": True}),
    (5, ("random", "greedy", "random", "greedy", "random"),
     {"trump_ranking": "white_high", "overload_score": "negative_count", "first_player": 2}),
    (3, ("greedy", "random", "greedy"),
     {"numbers": [2, 3, 5, 7, 11, 13], "block_numbers": [2, 13], "white_cards": [(3, True), (13, False)],
      "colors": ["G", "P", "Y"], "rounds": 1, "exchange_visibility": "public",
      "won_pile_visibility": "block_count_only"}),
]


@pytest.fixture(scope="session")
def kernel():
    """The compiled kernel (numba's cache makes later sessions start fast)."""
    mod = fast.kernel("crypto_trick")
    mod.play(np.arange(2, dtype=np.int64), 4, "standard", fast.resolve("crypto_trick", 4)[2], ("greedy",) * 4)
    return mod


def _batch(kernel, players, bots, options, n=GAMES, seed=0):
    opts = fast.resolve("crypto_trick", players, None, options)[2]
    seeds = np.arange(seed, seed + n, dtype=np.int64) * 7919 + 13
    return kernel.play(seeds, players, "standard", opts, bots, legal=True)


@pytest.mark.parametrize("players, bots, options", CONFIGS)
def test_lane_games_replay_exactly(kernel, players, bots, options, report):
    batch = _batch(kernel, players, bots, options)
    positions = replay_all(batch)
    report("fast lane replay", "crypto_trick", games=len(batch), positions=positions)


def test_the_record_is_complete(kernel):
    batch = _batch(kernel, 3, ("random",) * 3, {"first_player": "random"}, n=10)
    rep = batch.replay(4)
    # Every chance decision was recorded (the first player, one shuffle a round): the seed draws nothing.
    rep2 = type(rep).from_json(rep.to_json().replace(f'"seed": {rep.seed}', '"seed": 1'))
    assert rep2.build().to_dict()["state"] == rep.build().to_dict()["state"]
    assert rep.build()._rng_count == len(rep.chance) == 4


def test_the_same_seed_is_the_same_game_in_any_batch(kernel):
    a = _batch(kernel, 4, ("greedy",) * 4, {}, n=10)
    b = _batch(kernel, 4, ("greedy",) * 4, {}, n=5, seed=5)
    assert a.actions_of(7) == b.actions_of(2) and a.chance_of(7) == b.chance_of(2)


def test_a_mutant_rule_is_caught(kernel, pytestconfig):
    # C7.2 broken: of two equal cards the earlier one wins the trick.
    bad = mutant(kernel, "if key >= best:  # C7.2", "if key > best:  # C7.2", pytestconfig.cache.mkdir("fast-mutants"))
    problem = first_mismatch(_batch(bad, 4, ("random",) * 4, {}, n=50))
    assert problem is not None, "a kernel with rule C7.2 broken replays as if it were right"
    assert "legal lists differ" in str(problem) or "outcomes differ" in str(problem)


def test_coverage():
    assert fast.not_covered("crypto_trick", bots="greedy", players=5, trump_ranking="white_high",
                            first_player="random", color_labels={"Y": "Gold"}) is None
    assert "bot 'ismcts'" in fast.not_covered("crypto_trick", bots=["ismcts", "random"], players=2)
    with pytest.raises(ValueError, match="players=6"):
        fast.play("crypto_trick", [1], bots="random", players=6)


@pytest.mark.parametrize("players, bots, n_ref", [
    (3, "random", STAT_GAMES // 3),
    (4, ["greedy", "random", "random", "random"], STAT_GAMES // 6),
])
def test_lane_and_reference_agree(kernel, players, bots, n_ref):
    lane = simulate("crypto_trick", STAT_GAMES, bots=bots, seed=11, players=players, engine="fast")
    ref = simulate("crypto_trick", n_ref, bots=bots, seed=11, players=players, engine="python")
    assert lane.engine == "fast" and ref.engine == "python"
    assert shares_agree(lane, ref) == []
