"""RL adapter benchmarks: steps per second of random games, engine against adapters. Prints
figures; asserts nothing.

    python benchmarks/envs.py [--seconds S] [--game NAME ...]

Per configuration (every mode of every registered game, read from its ``SPEC``):

* ``engine``: ``legal_actions()`` + ``apply_unchecked()``, the engine call an env step makes;
* ``pz step``: a PettingZoo step without observing (``step`` of a masked random index: the
  legal list mapped to indices and the engine step);
* ``pz obs+step``: the usual agent loop, ``last()`` (observation of the agent to act:
  ``view(seat)`` encoded, and its mask) then ``step``;
* ``spiel``: an OpenSpiel ``apply_action`` with ``legal_actions()`` (the recall digests of
  every seat included); ``spiel+obs`` adds ``observation_tensor`` of the player to act;
* ``overhead``: ``pz step`` time per step over ``engine`` time per step;
* ``view µs`` / ``obs µs``: one ``view(seat)`` alone, and one whole observation (the view,
  its encoding, the numpy arrays and the mask) at positions of random games.

Compare ratios within one run: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from cardwidgets.envs import pettingzoo_env, register_openspiel  # noqa: E402
from cardwidgets.games import available_games, game_module  # noqa: E402
from engine import mode_configs  # noqa: E402  (benchmarks/ is on the path when run as a script)


def engine(game: str, cfg: dict, budget: float) -> float:
    mod = game_module(game)
    rng = random.Random(1)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        st = mod.new_game(seed=seed, **cfg)
        seed += 1
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo(game: str, cfg: dict, budget: float, observe: bool) -> float:
    env = pettingzoo_env(game, **cfg)
    rng = random.Random(1)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        env.reset(seed=seed)
        seed += 1
        while not env.game_state.is_terminal:
            if observe:
                obs, *_ = env.last()
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                legal = env.legal_actions()  # the mask's indices, without an observation
                env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel(game: str, cfg: dict, budget: float, observe: bool) -> float:
    import pyspiel

    g = pyspiel.load_game("python_cardwidgets_" + game, {**cfg, "rng_seed": 1})
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        st = g.new_initial_state()
        while not st.is_terminal():
            if observe:
                st.observation_tensor(st.current_player())
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def observation_cost(game: str, cfg: dict, n: int = 200) -> tuple[float, float]:
    """Microseconds per ``view(seat)`` and per observation, over positions of random games."""
    env = pettingzoo_env(game, **cfg)
    rng = random.Random(3)
    positions = []
    seed = 0
    while len(positions) < n:
        env.reset(seed=seed)
        seed += 1
        while not env.game_state.is_terminal and len(positions) < n:
            positions.append((env.game_state.clone(), env.agent_selection))
            legal = env.legal_actions()
            env.step(legal[rng.randrange(len(legal))])
    seats = [(st, env.possible_agents.index(agent)) for st, agent in positions]
    view = obs = float("inf")
    for _ in range(5):  # the best of 5 rounds: the machine is shared
        start = time.perf_counter()
        for st, seat in seats:
            st.view(seat)
        view = min(view, time.perf_counter() - start)
    envs = []
    for st, agent in positions:
        e = pettingzoo_env(game, **cfg)
        e.reset(options={"state": st})
        envs.append((e, agent))
    for _ in range(5):
        start = time.perf_counter()
        for e, agent in envs:
            e.observe(agent)
        obs = min(obs, time.perf_counter() - start)
    return view / n * 1e6, obs / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()
    register_openspiel()
    print(f"{'game':<13} {'config':<24} {'engine':>9} {'pz step':>9} {'pz obs+step':>12} {'spiel':>8} "
          f"{'spiel+obs':>10} {'overhead':>9} {'view µs':>8} {'obs µs':>7}   (steps per second)")
    for game in args.game or available_games():
        for cfg in mode_configs(game):
            e = engine(game, cfg, args.seconds)
            p = pettingzoo(game, cfg, args.seconds, observe=False)
            po = pettingzoo(game, cfg, args.seconds, observe=True)
            s = openspiel(game, cfg, args.seconds, observe=False)
            so = openspiel(game, cfg, args.seconds, observe=True)
            view, obs = observation_cost(game, cfg)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            print(f"{game:<13} {label:<24} {e:>9,.0f} {p:>9,.0f} {po:>12,.0f} {s:>8,.0f} {so:>10,.0f} "
                  f"{e / p:>8.2f}x {view:>8.1f} {obs:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
