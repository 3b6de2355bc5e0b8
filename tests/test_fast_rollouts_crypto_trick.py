"""Crypto Trick's IS-MCTS rollouts in the fast lane: from sampled mid-game worlds, the lane's
rollout replays on the reference engine (legal at every step, the same end, the same reward as
``_Search.play_out``), a mutant rule is caught, and the lane's mean reward agrees with Python
rollouts."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

pytest.importorskip("numba")

import cardwidgets  # noqa: E402
from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.base import playing_bot  # noqa: E402
from cardwidgets.bots.ismcts import _Search  # noqa: E402
from cardwidgets.core.rng import Recorded  # noqa: E402

from fast_check import mutant  # noqa: E402

GAME = "crypto_trick"
#: Player counts and options the worlds are sampled from (every player count, every kind of option).
CONFIGS = [
    (2, {}),
    (3, {"first_player": "random", "rounds": 2}),
    (4, {"declaration_mode": "single_pass_first", "trump_follow_unified": True}),
    (5, {"trump_ranking": "white_high", "overload_score": "negative_count", "first_player": 2}),
    (3, {"numbers": [2, 3, 5, 7, 11, 13], "block_numbers": [2, 13], "white_cards": [(3, True), (13, False)],
         "colors": ["G", "P", "Y"], "rounds": 2, "exchange_visibility": "public",
         "won_pile_visibility": "block_count_only"}),
]
#: Where a rollout stops: (steps, round0 is the world's round).
DEPTHS = [(None, True), (None, False), (7, False), (0, False)]


@pytest.fixture(scope="module")
def kernel():
    """The compiled kernel (numba's cache makes later sessions start fast)."""
    mod = fast.kernel(GAME)
    mod.rollout(cardwidgets.make(GAME, players=3, seed=1), "greedy", None, 1, 0)
    return mod


def worlds(players: int, options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """Sampled worlds of random positions: games of random and greedy seats stopped after a random
    number of moves, seen from the seat to act (a few finished games too)."""
    rng = random.Random(seed)
    out = []
    for g in range(count):
        st = cardwidgets.make(GAME, players=players, seed=seed * 1000 + g, **options)
        greedy = playing_bot(GAME, "greedy", seed=g)
        total = st.config.rounds * 6 * 2 * players
        stop = total + 10 if g % 10 == 9 else rng.randrange(total // 2 + 1)
        for _ in range(stop):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            if st.current_player % 2:
                a = greedy.act(st.view(st.current_player), legal) if len(legal) > 1 else legal[0]
            else:
                a = rng.choice(legal)
            st.apply(a)
        seat = 0 if st.is_terminal else st.current_player
        out.append(st.sample_world(seat, rng))
    return out


def state_of(world: Any) -> dict[str, Any]:
    return world.to_dict()["state"]


def check_trace(kernel: Any, world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> str | None:
    """Play the lane's rollout again on a clone of ``world`` through ``_Search.play_out`` (its
    loop decides when to stop) with the lane's chance injected; what differs, or ``None``."""
    before = state_of(world)
    reward, actions, chance = kernel.rollout_trace(world, policy, steps, round0, seed)
    if state_of(world) != before:
        return "the rollout changed the world"
    if kernel.rollout(world, policy, steps, round0, seed) != reward:
        return "rollout and rollout_trace differ"
    clone = world.clone()
    clone._chance = Recorded([0] * clone._rng_count + chance)
    todo = iter(actions)
    done = []

    def replay(w: Any) -> Any:
        a = next(todo, None)
        if a is None:
            raise AssertionError(f"play_out goes on after the lane's {len(actions)} actions")
        legal = {str(x): x for x in w.legal_actions()}
        if a not in legal:
            raise AssertionError(f"action {len(done)} {a!r} is not legal; legal: {sorted(legal)}")
        done.append(a)
        return legal[a]

    search = _Search(world, lambda r: world, dict(iterations=1, seconds=None, exploration=0.7, rollout=policy,
                                                   depth="round" if round0 is not None else steps), lambda: 0.0)
    search.round0 = round0
    search.policy = lambda rng: replay
    try:
        expected = search.play_out(clone, random.Random(0))
    except AssertionError as e:
        return str(e)
    if len(done) != len(actions):
        return f"play_out stopped after {len(done)} of the lane's {len(actions)} actions"
    if clone._rng_count != world._rng_count + len(chance):
        return f"the reference made {clone._rng_count - world._rng_count} chance decisions, the lane {len(chance)}"
    if len(expected) != len(reward) or any(abs(a - b) > 1e-9 for a, b in zip(expected, reward)):
        return f"rewards differ: lane {reward}, play_out {expected}"
    return None


@pytest.mark.parametrize("players, options", CONFIGS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_rollouts_replay_exactly(kernel, players, options, policy, report):
    rng = random.Random(players)
    actions = 0
    ws = worlds(players, options, 24, seed=players * 7 + len(options))
    for i, world in enumerate(ws):
        for steps, by_round in DEPTHS:
            round0 = world._round if by_round else None
            if by_round and i % 6 == 5 and world._round > 1:
                round0 = world._round - 1  # the search started a round earlier: nothing to play
            seed = rng.getrandbits(63)
            problem = check_trace(kernel, world, policy, steps, round0, seed)
            assert problem is None, f"world {i} ({world.to_position()}), steps={steps}, round0={round0}, " \
                                    f"seed={seed}: {problem}"
            actions += len(kernel.rollout_trace(world, policy, steps, round0, seed)[1])
    report("fast lane rollouts", GAME, rollouts=len(ws) * len(DEPTHS), actions=actions)


def test_a_rollout_ends_where_it_should(kernel):
    world = worlds(3, {}, 1, seed=5)[0]
    reward, actions, chance = kernel.rollout_trace(world, "random", None, None, 3)
    assert sum(reward) == pytest.approx(1.0) and max(reward) >= 1 / 3
    assert len(chance) == world.config.rounds - world._round  # one deal per round still to come
    assert kernel.rollout_trace(world, "random", 5, None, 3)[1] == actions[:5]
    assert kernel.rollout_trace(world, "random", 0, None, 3)[1] == []
    by_round = kernel.rollout_trace(world, "random", None, world._round, 3)
    assert by_round[1] == actions[:len(by_round[1])] and len(chance) and len(by_round[2]) == 1
    assert kernel.rollout(world, "greedy", None, None, 9) == kernel.rollout(world, "greedy", None, None, 9)


def test_a_finished_game_is_scored_as_it_is(kernel):
    st = worlds(4, {}, 10, seed=3)[9]
    assert st.is_terminal
    winners = st.outcome().winners
    assert kernel.rollout(st, "random", None, None, 1) == [1 / len(winners) if s in winners else 0.0
                                                          for s in range(4)]


def test_rollout_problem(kernel):
    st = cardwidgets.make(GAME, players=5, seed=2, trump_ranking="white_high", first_player="random")
    assert kernel.rollout_problem(st, "random") is None and kernel.rollout_problem(st, "greedy") is None
    assert "'ismcts'" in kernel.rollout_problem(st, "ismcts")
    assert "depot" in kernel.rollout_problem(cardwidgets.make("depot", players=3, seed=1), "random")
    with pytest.raises(ValueError, match="'ismcts'"):
        kernel.rollout(st, "ismcts", None, None, 0)


def test_a_mutant_rule_is_caught(kernel, pytestconfig):
    # C7.2 broken: of two equal cards the earlier one wins the trick.
    bad = mutant(kernel, "if key >= best:  # C7.2", "if key > best:  # C7.2", pytestconfig.cache.mkdir("fast-mutants"))
    rng = random.Random(4)
    for world in worlds(4, {}, 40, seed=11):
        seed = rng.getrandbits(63)
        if check_trace(bad, world, "random", None, None, seed) is not None:
            return
    pytest.fail("a rollout with rule C7.2 broken replays as if it were right")


def python_rewards(world: Any, policy: str, steps: int | None, round0: int | None, n: int) -> list[list[float]]:
    """``n`` rollouts of ``_Search.play_out`` (the Python ones) from ``world``, each on a clone
    with a seed of its own."""
    search = _Search(world, lambda r: world, dict(iterations=1, seconds=None, exploration=0.7, rollout=policy,
                                                   depth="round" if round0 is not None else steps), lambda: 0.0)
    search.round0 = round0
    out = []
    for i in range(n):
        clone = world.clone()
        clone.seed = i  # the deals after this round: from the world's seed, one per rollout as in the lane
        out.append(search.play_out(clone, random.Random(i)))
    return out


# Worlds whose rollouts vary (a greedy rollout to the round's end is often always the same).
@pytest.mark.parametrize("policy, players, world_seed, by_round, n_ref", [
    ("random", 3, 23, True, 2000), ("random", 4, 21, False, 800), ("greedy", 3, 29, False, 400),
])
def test_lane_and_python_rollouts_agree(kernel, policy, players, world_seed, by_round, n_ref):
    world = worlds(players, {}, 1, seed=world_seed)[0]
    round0 = world._round if by_round else None
    lane = [kernel.rollout(world, policy, None, round0, s) for s in range(20_000)]
    ref = python_rewards(world, policy, None, round0, n_ref)
    for seat in range(players):
        x = [r[seat] for r in lane]
        y = [r[seat] for r in ref]
        mx, my = sum(x) / len(x), sum(y) / len(y)
        vx = sum((v - mx) ** 2 for v in x) / (len(x) - 1)
        vy = sum((v - my) ** 2 for v in y) / (len(y) - 1)
        se = math.sqrt(vx / len(x) + vy / len(y))
        assert se > 0.002, "a world whose rollouts all end alike tests nothing"
        assert abs(mx - my) <= 4 * se, f"seat {seat}: lane {mx:.4f}, python {my:.4f} (se {se:.4f})"
