"""Checks shared by the fast lane's tests (tests/test_fast_*.py): exact replay through the
reference engine, mutants of a kernel, statistical agreement with the reference engine."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from cardwidgets import fast

#: Lane games replayed per configuration in the default suite; CARDWIDGETS_FAST_GAMES raises it
#: (the kernels are exact on tens of thousands, but the default suite stays quick).
GAMES = int(os.environ.get("CARDWIDGETS_FAST_GAMES", "300"))
#: Games per engine in the statistical comparisons.
STAT_GAMES = int(os.environ.get("CARDWIDGETS_FAST_STAT_GAMES", "3000"))


def replay_all(batch: fast.Batch) -> int:
    """Replay every game of ``batch`` (played with ``legal=True``) through the reference engine:
    legal lists at every position, the outcome at the end. Returns the positions compared."""
    for i in range(len(batch)):
        fast.verify(batch, i)
    return int(batch.length.sum())


def first_mismatch(batch: fast.Batch) -> fast.Mismatch | None:
    for i in range(len(batch)):
        try:
            fast.verify(batch, i)
        except fast.Mismatch as e:
            return e
    return None


def mutant(module: ModuleType, old: str, new: str, folder: Path) -> ModuleType:
    """A copy of a kernel module with ``old`` replaced by ``new`` in its source (once), compiled
    apart from the real one. Its file in ``folder`` is rewritten only when its text changes, so
    numba's cache (next to it) spares the next session the compiling."""
    src = Path(module.__file__).read_text(encoding="utf-8")
    assert src.count(old) == 1, f"the mutation's text must occur once in {module.__name__}"
    path = Path(folder) / f"mutant_{Path(module.__file__).name}"
    text = src.replace(old, new)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    name = f"{module.__package__}._mutant_{Path(module.__file__).stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # kept: numba's cache finds a function's module by its name
    spec.loader.exec_module(mod)
    return mod


def shares_agree(lane: Any, ref: Any, z: float = 4.0) -> list[str]:
    """What differs between two ``SimResult``s by more than ``z`` standard errors: each seat's
    win share and the mean length. Empty if they agree."""
    out = []
    a, b = lane.seats, ref.seats
    for seat in range(lane.players):
        x = a[a["seat"] == seat]["share"]
        y = b[b["seat"] == seat]["share"]
        p = (x.sum() + y.sum()) / (len(x) + len(y))
        se = math.sqrt(max(p * (1 - p), 1e-9) * (1 / len(x) + 1 / len(y)))
        if abs(x.mean() - y.mean()) > z * se:
            out.append(f"seat {seat}: win share {x.mean():.3f} in the lane, {y.mean():.3f} in the reference")
    la, lb = lane.games["length"], ref.games["length"]
    se = math.sqrt(la.var() / len(la) + lb.var() / len(lb))
    if abs(la.mean() - lb.mean()) > z * se:
        out.append(f"mean length {la.mean():.2f} in the lane, {lb.mean():.2f} in the reference")
    return out


# --------------------------------------------------------------------------- rollouts (IS-MCTS)
def mid_game_worlds(game: str, configs: list[tuple[int, str | None, dict[str, Any], str]], per_config: int,
                    seed: int = 0, max_moves: int = 120) -> list[tuple[str, Any]]:
    """Sampled worlds of random positions: for each ``(players, mode, options, bot)`` of ``configs``,
    ``per_config`` games played by that bot (``"random"``, ``"greedy"``) in every seat for a random
    number of moves, then ``sample_world`` of the seat to act; as ``(label, world)`` pairs (the label
    says the configuration, for messages)."""
    import random

    from cardwidgets.bots import ask
    from cardwidgets.bots.base import playing_bot
    from cardwidgets.core.errors import SamplingLimitError
    from cardwidgets.games import game_module

    r = random.Random(seed)
    out = []
    for players, mode, options, bot in configs:
        kw = dict(options, **({} if mode is None else {"mode": mode}))
        made = 0
        while made < per_config:
            st = game_module(game).new_game(players=players, seed=r.getrandbits(32), **kw)
            bots = [playing_bot(game, bot, seed=r.getrandbits(32)) for _ in range(st.players)]
            stop = r.randrange(max_moves)
            while not st.is_terminal and st.move_count < stop:
                st.apply(ask(bots[st.current_player], st))
            if st.is_terminal:
                continue
            try:
                world = st.sample_world(st.current_player, r)
            except SamplingLimitError:  # no world to deal from this position: another game
                continue
            out.append((f"{game} players={players} mode={mode} {options} bot={bot} moves={st.move_count}", world))
            made += 1
    return out


def search_for(world: Any, policy: str, steps: int | None, round0: int | None) -> Any:
    """An IS-MCTS search (``ismcts._Search``) whose ``play_out`` rolls out as ``rollout(world, policy,
    steps, round0, ...)`` does."""
    from cardwidgets.bots.ismcts import _Search

    cfg = {"iterations": 1, "seconds": None, "exploration": 0.7, "rollout": policy,
           "depth": "round" if round0 is not None else steps}
    search = _Search(world, None, cfg, lambda: 0.0)
    if round0 is not None:
        search.round0 = round0
    return search


def reference_reward(world: Any) -> list[float]:
    """The reward ``_Search.play_out`` gives ``world`` where it stands (a rollout of no actions)."""
    import random

    return search_for(world, "random", 0, None).play_out(world, random.Random(0))


def check_rollout(module: ModuleType, world: Any, policy: str, steps: int | None, round0: int | None,
                  seed: int, label: str = "") -> int:
    """Play ``module.rollout_trace`` of ``world`` on a clone in the reference engine, with the trace's
    chance decisions injected at the world's decision counter: every action legal, the clone ends
    where the trace ends (over, ``steps`` actions, the round no longer ``round0``; not before), its
    reward is the rollout's and ``rollout`` agrees with the trace. ``world`` stays as it was.
    Returns the number of actions; raises ``AssertionError`` saying what differs."""
    from cardwidgets.bots.ismcts import ROUND_FIELDS
    from cardwidgets.core.rng import Recorded

    before = world.to_dict()
    reward, actions, chance = module.rollout_trace(world, policy, steps, round0, seed)
    where = f"{label or world.game} policy={policy} steps={steps} round0={round0} seed={seed}"
    assert world.to_dict() == before, f"{where}: the rollout changed the world"
    assert module.rollout(world, policy, steps, round0, seed) == reward, f"{where}: rollout != rollout_trace"
    field = ROUND_FIELDS.get(world.game, "")
    clone = world.clone()
    count = world._rng_count
    clone._chance = Recorded([0] * count + list(chance))
    for i, text in enumerate(actions):
        assert not clone.is_terminal, f"{where}: the game is over before action {i} ({text!r})"
        assert steps is None or i < steps, f"{where}: more than {steps} actions"
        assert round0 is None or getattr(clone, field, None) == round0, f"{where}: action {i} after the round changed"
        legal = [str(a) for a in clone.legal_actions()]
        assert text in legal, f"{where}: action {i} {text!r} is not legal; legal: {legal}\n{clone.to_position()}"
        clone.apply(text)
    ended = (clone.is_terminal or (steps is not None and len(actions) >= steps)
             or (round0 is not None and getattr(clone, field, None) != round0))
    assert ended, f"{where}: the rollout stopped after {len(actions)} actions with the game going on"
    assert clone._rng_count == count + len(chance), \
        f"{where}: the reference made {clone._rng_count - count} chance decisions, the lane {len(chance)}"
    want = reference_reward(clone)
    assert len(want) == len(reward) and all(abs(a - b) <= 1e-9 for a, b in zip(want, reward)), \
        f"{where}: reward {reward} in the lane, {want} in the reference"
    return len(actions)


def rollout_means_agree(module: ModuleType, world: Any, policy: str, steps: int | None, round0: int | None,
                        n: int, z: float = 4.0) -> list[str]:
    """Mean reward per seat over ``n`` lane rollouts (seeds ``0..n-1``) against ``n`` Python
    ``play_out``s of the same policy from ``world``: what differs by more than ``z`` standard errors."""
    import random

    lane = [module.rollout(world, policy, steps, round0, s) for s in range(n)]
    search = search_for(world, policy, steps, round0)
    ref = []
    for s in range(n):
        clone = world.clone()
        clone.seed = s  # the chance after the world's position (deals, draws): a rollout's own, as in the lane
        ref.append(search.play_out(clone, random.Random(s)))
    out = []
    for seat in range(len(lane[0])):
        a = [r[seat] for r in lane]
        b = [r[seat] for r in ref]
        ma, mb = sum(a) / n, sum(b) / n
        va = sum((x - ma) ** 2 for x in a) / (n - 1)
        vb = sum((x - mb) ** 2 for x in b) / (n - 1)
        se = math.sqrt(va / n + vb / n)
        if abs(ma - mb) > z * se + 1e-12:
            out.append(f"seat {seat}: mean reward {ma:.4f} in the lane, {mb:.4f} in Python (se {se:.4f})")
    return out
