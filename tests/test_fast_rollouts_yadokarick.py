"""Yadokarick's IS-MCTS rollouts in the fast lane: from many mid-game sampled worlds, the lane's rollout
replays on a clone of the world in the reference engine (its chance injected as recorded decisions),
legal at every step, ends where ``play_out`` would stop, and scores what ``play_out`` scores there; a
mutant rollout is caught; and the lane's mean reward agrees with Python's ``play_out``."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.ismcts import ROUND_FIELDS  # noqa: E402
from cardwidgets.games import yadokarick as ref  # noqa: E402

from fast_check import check_rollout, mid_game_worlds, mutant, rollout_means_agree  # noqa: E402

FIELD = ROUND_FIELDS["yadokarick"]


@pytest.fixture(scope="module")
def kernel():
    return fast.kernel("yadokarick")


def worlds(mode: str, players: int, options: dict, count: int, seed: int, at: int | None = None):
    """``count`` sampled worlds of random positions: a game played ``at`` random actions in (``None``: a number
    at random), seen from the seat to act."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = ref.new_game(players=players, mode=mode, seed=rng.getrandbits(32), **options)
        for _ in range(rng.randrange(120 if mode == "standard" else 60) if at is None else at):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
        if st.is_terminal:
            continue
        out.append(st.sample_world(st.current_player, rng))
    return out


STANDARD = [
    (3, {}),
    (4, {}),
    (5, {"card_set": "advanced"}),
    (7, {}),
    (3, {"card_set": "advanced", "three_player_capture": "largest_size", "three_player_color": "pink"}),
    (5, {"tie_leader": "last_actual_mover", "dealer": 2, "dealer_rotation": "fixed", "rounds": 2,
         "reset_marker_each_round": False, "size_track": (9, 13), "marker_start": 12, "house_limit": 4}),
    (4, {"size_table": {1: 4, 36: 1, "P20": 3}, "roof_numbers": [5, 15], "collapsed_visibility": "count_only",
         "rounds": 2}),
    # captors arrange their cards: worlds in the arrange phase, rollouts that arrange
    (4, {"placement_order": "choose"}),
    (3, {"placement_order": "choose", "roof_numbers": [5, 15, 25], "house_limit": 4}),
]


@pytest.mark.parametrize("players, options", STANDARD)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_standard_rollouts_replay_exactly(kernel, players, options, policy):
    rng = random.Random(players * 31 + len(options))
    total = 0
    ends = set()
    per = 20 if policy == "random" else 8
    configs = [(players, "standard", options, "random"), (players, "standard", options, "greedy")]
    for label, world in mid_game_worlds("yadokarick", configs, per, seed=players, max_moves=60 * players):
        assert kernel.rollout_problem(world, policy) is None
        r = world._round
        # depth "round" (IS-MCTS's default), a world past the search's round, a number of steps, to the end
        for steps, round0 in ((None, r), (None, r - 1 if r > 1 else None), (rng.randrange(1, 30), None),
                              (None, None)):
            n = check_rollout(kernel, world, policy, steps, round0, rng.getrandbits(63), label)
            total += n
            ends.add((steps is None, round0 is None, n > 0))
    assert total > 0 and len(ends) >= 3


def test_rollout_problem(kernel):
    assert kernel.rollout_problem(ref.new_game(players=4, seed=1, placement_order="choose"), "greedy") is None
    assert "rollout='ismcts'" in kernel.rollout_problem(ref.new_game(players=4, seed=1), "ismcts")


def test_a_mutant_rollout_is_caught(kernel, pytestconfig):
    """A rollout that does not stop when a new round is dealt (depth "round") is caught."""
    bad = mutant(kernel, "if stop_round:  # the round changed", "if False:  # the round changed",
                 pytestconfig.cache.mkdir("fast-mutants"))
    caught = 0
    for world in worlds("standard", 4, {}, 20, 7):
        try:
            check_rollout(bad, world, "random", None, world._round, 3)
        except AssertionError:
            caught += 1
    assert caught > 0


@pytest.mark.parametrize("mode, players, policy, depth, n", [
    ("standard", 4, "random", "round", 600),
    ("standard", 3, "greedy", "round", 150),
    ("duo", 2, "random", None, 600),
    ("duo", 2, "greedy", None, 150),
    ("solo", 1, "random", 10, 600),
    ("solo", 1, "greedy", None, 40),
])
def test_lane_and_python_rollouts_agree(kernel, mode, players, policy, depth, n):
    world = worlds(mode, players, {}, 1, 11, at=5)[0]  # early in a round: rollouts of many outcomes
    round0 = getattr(world, FIELD, None) if depth == "round" else None
    steps = depth if isinstance(depth, int) else None
    assert rollout_means_agree(kernel, world, policy, steps, round0, n) == []


DUO = [
    {},
    {"npc_seat": 0, "duo_first_leader": 1, "duo_color": "pink"},
    {"npc_seat": 2, "duo_roofs": False, "house_limit": 3, "collapsed_visibility": "count_only"},
]


@pytest.mark.parametrize("options", DUO)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_duo_rollouts_replay_exactly(kernel, options, policy):
    """Duo rolls out to the end (IS-MCTS's default) or a number of actions; the NPC's cards are the world's."""
    rng = random.Random(len(options))
    total = 0
    configs = [(2, "duo", options, "random"), (2, "duo", options, "greedy")]
    for label, world in mid_game_worlds("yadokarick", configs, 20, seed=5, max_moves=20):
        assert kernel.rollout_problem(world, policy) is None
        for steps in (None, rng.randrange(1, 8)):
            total += check_rollout(kernel, world, policy, steps, None, rng.getrandbits(63), label)
    assert total > 0


SOLO = [
    {},
    {"solo_initial_row": "one_color", "solo_bonus_chain": False, "solo_bonus_on_setup": True,
     "solo_roof_insert_nonstrict": False},
    {"solo_initial_row": "one_color", "solo_removed": [30, 12, 5], "solo_house_complete": 5},
]


@pytest.mark.parametrize("options", SOLO)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_solo_rollouts_replay_exactly(kernel, options, policy):
    """Solo rolls out 10 actions (IS-MCTS's default) or to the end; "random" places and takes bonuses,
    giving up or declining only when nothing else is legal (ismcts._solo_random)."""
    rng = random.Random(len(options))
    total = 0
    configs = [(1, "solo", options, "random"), (1, "solo", options, "greedy")]
    for label, world in mid_game_worlds("yadokarick", configs, 20, seed=9, max_moves=80):
        assert kernel.rollout_problem(world, policy) is None
        for steps in (10, None, rng.randrange(1, 30)):
            total += check_rollout(kernel, world, policy, steps, None, rng.getrandbits(63), label)
    assert total > 0


def test_a_finished_game_rolls_out_to_its_own_reward(kernel):
    for mode, players in (("standard", 3), ("duo", 2), ("solo", 1)):
        st = ref.new_game(players=players, mode=mode, seed=4)
        rng = random.Random(4)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
        assert check_rollout(kernel, st, "random", None, None, 1) == 0


@pytest.mark.parametrize("mode, players, options", [
    ("standard", 3, {"rounds": 1, "placement_order": "choose"}),
    ("duo", 2, {}),
    ("solo", 1, {"solo_removed": list(range(1, 26))}),
])
def test_the_search_rolls_out_in_the_lane(kernel, mode, players, options):
    """ISMCTSBot(engine="fast") plays whole games of every mode with the lane's rollouts, legal moves only."""
    from cardwidgets.bots import ISMCTSBot, ask

    st = ref.new_game(players=players, mode=mode, seed=2, **options)
    bot = ISMCTSBot(iterations=40, seed=5, engine="fast")
    searched = 0
    while not st.is_terminal:
        st.apply(ask(bot, st))
        if bot.last is not None and bot.last.iterations:
            assert bot.last.engine == "fast"
            searched += 1
    assert searched > 0


def test_arrange_worlds_roll_out(kernel):
    """Worlds where a captor is to arrange (placement_order="choose") roll out exactly, arrangements and all."""
    arranged = 0
    for world in worlds("standard", 3, {"placement_order": "choose"}, 200, 3):
        if world.phase != "arrange":
            continue
        for policy in ("random", "greedy"):
            reward, actions, _ = kernel.rollout_trace(world, policy, None, world._round, 1)
            assert actions[0].startswith("arrange")
            check_rollout(kernel, world, policy, None, world._round, 1)
            check_rollout(kernel, world, policy, 1, None, 2)
        arranged += 1
    assert arranged >= 5


def test_a_mutant_solo_policy_is_caught(kernel, pytestconfig):
    """Rollouts that give up and decline as often as they place are legal at every step: the comparison of
    mean rewards with Python's play_out catches them."""
    bad = mutant(kernel, "if nu == 0:", "if nu >= 0:", pytestconfig.cache.mkdir("fast-mutants"))
    world = worlds("solo", 1, {}, 1, 11, at=5)[0]
    assert rollout_means_agree(bad, world, "random", 10, None, 600) != []
