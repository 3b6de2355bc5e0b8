"""Yadokarick's IS-MCTS rollouts in the fast lane: from many mid-game sampled worlds, the lane's rollout
replays on a clone of the world in the reference engine (its chance injected as recorded decisions),
legal at every step, ends where ``play_out`` would stop, and scores what ``play_out`` scores there; a
mutant rollout is caught; and the lane's mean reward agrees with Python's ``play_out``."""

from __future__ import annotations

import math
import random
import time

import numpy as np
import pytest

pytest.importorskip("numba")

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.ismcts import ROUND_FIELDS, _Search  # noqa: E402
from cardwidgets.core import Recorded  # noqa: E402
from cardwidgets.games import yadokarick as ref  # noqa: E402

from fast_check import mutant  # noqa: E402

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


def play_out_reward(world, policy: str) -> list[float]:
    """What ``_Search.play_out`` scores ``world`` (already where the rollout stopped) with."""
    cfg = dict(iterations=1, seconds=None, exploration=0.7, rollout=policy, depth=0, root="ucb")
    return _Search(world, None, cfg, time.perf_counter).play_out(world, random.Random(0))


def check(kernel, world, policy: str, steps, round0, seed: int) -> int:
    """The rollout of ``world`` replays exactly on a clone (see the module's docstring). Returns its length."""
    before = world.to_dict()
    reward, actions, chance = kernel.rollout_trace(world, policy, steps, round0, seed)
    assert kernel.rollout(world, policy, steps, round0, seed) == reward
    assert world.to_dict() == before, "a rollout changed its world"
    clone = world.clone()
    k = clone._rng_count
    clone._chance = Recorded([0] * k + chance)  # the lane's decisions from the world's next one on
    for j, text in enumerate(actions):
        assert not clone.is_terminal, f"action {j}: the game is over, the lane plays {text}"
        assert round0 is None or getattr(clone, FIELD, None) == round0, f"action {j}: the round changed"
        legal = [str(a) for a in clone.legal_actions()]
        assert text in legal, f"action {j}: {text} is not legal; legal: {legal}\n{clone.to_position()}"
        clone.apply(text)
    assert clone._rng_count == k + len(chance), "the lane made chance decisions the engine did not"
    if not clone.is_terminal:
        stopped = (steps is not None and len(actions) == steps) or \
            (round0 is not None and getattr(clone, FIELD, None) != round0)
        assert stopped, f"the lane stopped after {len(actions)} actions; play_out goes on"
    want = play_out_reward(clone, policy)
    assert len(reward) == len(want) and all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(reward, want)), \
        (reward, want)
    return len(actions)


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
]


@pytest.mark.parametrize("players, options", STANDARD)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_standard_rollouts_replay_exactly(kernel, players, options, policy):
    rng = random.Random(players * 31 + len(options))
    total = 0
    ends = set()
    for world in worlds("standard", players, options, 40 if policy == "random" else 15, players):
        assert kernel.rollout_problem(world, policy) is None
        r = world._round
        # depth "round" (IS-MCTS's default), a world past the search's round, a number of steps, to the end
        for steps, round0 in ((None, r), (None, r - 1 if r > 1 else None), (rng.randrange(1, 30), None),
                              (None, None)):
            n = check(kernel, world, policy, steps, round0, rng.getrandbits(63))
            total += n
            ends.add((steps is None, round0 is None, n > 0))
    assert total > 0 and len(ends) >= 3


def test_rollout_problem(kernel):
    st = ref.new_game(players=4, seed=1, placement_order="choose")
    assert "placement_order" in kernel.rollout_problem(st, "random")
    assert "rollout='ismcts'" in kernel.rollout_problem(ref.new_game(players=4, seed=1), "ismcts")


def test_a_mutant_rollout_is_caught(kernel, pytestconfig):
    """A rollout that does not stop when a new round is dealt (depth "round") is caught."""
    bad = mutant(kernel, "if stop_round:  # the round changed", "if False:  # the round changed",
                 pytestconfig.cache.mkdir("fast-mutants"))
    caught = 0
    for world in worlds("standard", 4, {}, 20, 7):
        try:
            check(bad, world, "random", None, world._round, 3)
        except AssertionError:
            caught += 1
    assert caught > 0


def _agree(lane: list[list[float]], python: list[list[float]], z: float = 5.0) -> list[str]:
    """Seats whose mean rewards differ by more than ``z`` standard errors."""
    a, b = np.array(lane), np.array(python)
    out = []
    for s in range(a.shape[1]):
        se = math.sqrt(a[:, s].var() / len(a) + b[:, s].var() / len(b)) or 1e-9
        if abs(a[:, s].mean() - b[:, s].mean()) > z * se:
            out.append(f"seat {s}: {a[:, s].mean():.4f} in the lane, {b[:, s].mean():.4f} in Python (se {se:.4f})")
    return out


@pytest.mark.parametrize("mode, players, policy, depth, n", [
    ("standard", 4, "random", "round", 600),
    ("standard", 3, "greedy", "round", 150),
    ("duo", 2, "random", None, 600),
    ("duo", 2, "greedy", None, 150),
])
def test_lane_and_python_rollouts_agree(kernel, mode, players, policy, depth, n):
    world = worlds(mode, players, {}, 1, 11, at=5)[0]  # early in a round: rollouts of many outcomes
    round0 = getattr(world, FIELD, None) if depth == "round" else None
    steps = depth if isinstance(depth, int) else None
    lane = [kernel.rollout(world, policy, steps, round0, s) for s in range(n)]
    cfg = dict(iterations=1, seconds=None, exploration=0.7, rollout=policy, depth=depth, root="ucb")
    search = _Search(world, None, cfg, time.perf_counter)
    python = [search.play_out(world.clone(), random.Random(s)) for s in range(n)]
    assert _agree(lane, python) == []


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
    for world in worlds("duo", 2, options, 40, 5):
        assert kernel.rollout_problem(world, policy) is None
        for steps in (None, rng.randrange(1, 8)):
            total += check(kernel, world, policy, steps, None, rng.getrandbits(63))
    assert total > 0
