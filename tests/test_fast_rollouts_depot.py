"""Depot's IS-MCTS rollouts in the fast lane: from mid-game sampled worlds (single games and
matches, random and greedy), the lane's rollout replays move by move on a clone of the world
in the reference engine, ends where it does and scores what ``_Search.play_out`` scores; a
mutant is caught; the lane's mean reward agrees with Python rollouts."""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("numba")

import cardwidgets  # noqa: E402
from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.base import playing_bot  # noqa: E402
from cardwidgets.bots.ismcts import _Search, defaults_for  # noqa: E402
from cardwidgets.core.rng import Recorded  # noqa: E402

from fast_check import mutant  # noqa: E402

CONFIGS = [
    (3, {}),
    (4, {}),
    (5, {"refill_target": "noted", "reshuffle_timing": "when_empty", "starting_player": "random"}),
    (3, {"deck_counts": {v: 6 for v in range(1, 9)}, "hand_size": {3: 5, 4: 5, 5: 5},
         "initial_storage": {3: 2, 4: 2, 5: 6}}),
    (4, {"max_turns": 40}),
    (3, {"games": 3}),
    (4, {"games": 3, "rank_tiebreak": "random", "penalty_mode": "greedy", "penalty_cards_leave_play": False,
         "next_game_starter": "rotate", "match_tie": "last_game_rank"}),
    (5, {"games": 3, "next_game_starter": "winner", "refill_target": "noted"}),
]
WORLDS = 40  # per configuration


@pytest.fixture(scope="module")
def kernel():
    return fast.kernel("depot")


def _worlds(players, options, count, seed):
    """Sampled worlds of random positions: games of random and greedy bots stopped after a
    random number of actions, sampled from the seat to act."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = cardwidgets.make("depot", players=players, seed=rng.getrandbits(32), **options)
        bots = [playing_bot("depot", rng.choice(["random", "greedy"]), seed=rng.getrandbits(32))
                for _ in range(players)]
        stop = rng.randrange(0, 60 * options.get("games", 1))
        for _ in range(stop):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            bot = bots[st.current_player]
            st.apply(bot.act(st.view(st.current_player), legal) if bot.name != "random" else rng.choice(legal))
        if st.is_terminal:
            continue
        out.append(st.sample_world(st.current_player, rng))
    return out


def _depth(world, rng):
    """(steps, round0) as ISMCTSBot's depths give them: to the end, a number of actions, the game in play."""
    kind = rng.randrange(3)
    if kind == 0:
        return None, None
    if kind == 1:
        return rng.randrange(0, 40), None
    return None, world._game_no


def _play_out_reward(clone, steps, round0):
    """``_Search.play_out``'s reward of a clone already where the rollout stopped (its loop does not move)."""
    cfg = dict(defaults_for("depot"), seconds=None, depth=0 if steps is not None else
               ("round" if round0 is not None else None))
    search = _Search(clone, None, cfg, None)
    search.round0 = round0
    return search.play_out(clone, random.Random(0))


def check_trace(mod, world, policy, steps, round0, seed):
    """The rollout replayed on a clone with its chance injected: legal at every step, the same
    end, the same reward. Returns what went wrong, or ``None``."""
    before = world.to_dict()
    reward, actions, chance = mod.rollout_trace(world, policy, steps, round0, seed)
    if world.to_dict() != before:
        return "the rollout changed the world"
    if reward != mod.rollout(world, policy, steps, round0, seed):
        return "rollout and rollout_trace differ"
    clone = world.clone()
    clone._chance = Recorded([0] * clone._rng_count + chance)
    for i, a in enumerate(actions):
        if clone.is_terminal or (steps is not None and i >= steps) or \
                (round0 is not None and clone._game_no != round0):
            return f"the rollout played on past its end at action {i}"
        legal = {str(x): x for x in clone.legal_actions()}
        if a not in legal:
            return f"action {i} {a!r} is not legal: {sorted(legal)}"
        clone.apply_unchecked(legal[a])
    ended = clone.is_terminal or (steps is not None and len(actions) >= steps) or \
        (round0 is not None and clone._game_no != round0)
    if not ended:
        return f"the rollout stopped after {len(actions)} actions in a game in play"
    expect = _play_out_reward(clone, steps, round0)
    if len(expect) != len(reward) or any(abs(x - y) > 1e-9 for x, y in zip(expect, reward)):
        return f"reward {reward} in the lane, {expect} from play_out"
    return None


@pytest.mark.parametrize("players, options", CONFIGS)
def test_rollouts_replay_on_the_reference_engine(kernel, players, options, report):
    rng = random.Random(players * 1000 + len(options))
    worlds = _worlds(players, options, WORLDS, rng.getrandbits(32))
    actions = 0
    for world in worlds:
        assert kernel.rollout_problem(world, "greedy") is None
        for policy in ("random", "greedy"):
            steps, round0 = _depth(world, rng)
            seed = rng.getrandbits(64)
            problem = check_trace(kernel, world, policy, steps, round0, seed)
            assert problem is None, (policy, steps, round0, seed, world.to_dict(), problem)
            actions += len(kernel.rollout_trace(world, policy, steps, round0, seed)[1])
    report("fast lane rollouts", "depot", worlds=len(worlds), actions=actions)


def test_rollout_problem_names_what_is_not_covered(kernel):
    world = _worlds(3, {}, 1, 5)[0]
    assert "ismcts" in kernel.rollout_problem(world, "ismcts")
    assert kernel.rollout_problem(world, "random") is None


def test_a_terminal_world_scores_its_winners(kernel):
    st = cardwidgets.make("depot", players=3, seed=3)
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    r = kernel.rollout(st, "greedy", None, None, 7)
    assert r == [1.0 if s in st.outcome().winners else 0.0 for s in range(3)]


def test_a_mutant_is_caught(kernel, pytestconfig):
    # The refill after a pass draws from the bottom of the loaded deck: the replay finds it.
    bad = mutant(kernel, "        deck[i] = zones[z + i]\n", "        deck[i] = zones[z + dn - 1 - i]\n",
                 pytestconfig.cache.mkdir("fast-mutants"))
    rng = random.Random(11)
    found = None
    for world in _worlds(4, {}, 20, 12):
        found = found or check_trace(bad, world, "random", None, None, rng.getrandbits(63))
    assert found is not None, "a rollout that loads the deck upside down replays as if it were right"


@pytest.mark.parametrize("policy, steps", [("greedy", None), ("random", 30)])
def test_the_lane_agrees_with_python_rollouts(kernel, policy, steps):
    world = _worlds(3, {}, 1, 21)[0]
    n = 400
    lane = [kernel.rollout(world, policy, steps, None, s)[world.current_player] for s in range(n)]
    cfg = dict(defaults_for("depot"), seconds=None, rollout=policy, depth=steps)
    search = _Search(world, None, cfg, None)
    py = [search.play_out(world.clone(), random.Random(s))[world.current_player] for s in range(n)]
    ma, mb = sum(lane) / n, sum(py) / n
    va = sum((x - ma) ** 2 for x in lane) / (n - 1)
    vb = sum((x - mb) ** 2 for x in py) / (n - 1)
    se = math.sqrt((va + vb) / n)
    assert abs(ma - mb) <= 4 * se + 1e-9, (ma, mb, se)
