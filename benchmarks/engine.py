"""Engine benchmarks: random playouts and clones, one core. Prints figures; asserts nothing.

    python benchmarks/engine.py [--games N] [--seconds S]

Figures:
* ``api``: ``legal_actions()`` + ``apply()`` (validation and narration included);
* ``fast``: ``legal_actions()`` + ``apply_unchecked()`` (the simulation path);
* ``games/s`` for the fast path, and ``clone()`` per second at a mid-game position.
Compare ratios within one run: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets.games import available_games, game_module  # noqa: E402

#: Configurations measured per game (players and a representative option set).
CONFIGS = {
    "depot": [dict(players=3), dict(players=4), dict(players=5), dict(players=4, games=3)],
    "cirno_neu": [dict(players=2), dict(players=4), dict(players=4, life_system=True), dict(players=8)],
}


def playouts(mod, cfg, fast: bool, budget: float) -> tuple[int, int, float]:
    rng = random.Random(1)
    actions = games = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < budget:
        st = mod.new_game(seed=seed, **cfg)
        seed += 1
        if fast:
            while not st.is_terminal:
                legal = st.legal_actions()
                st.apply_unchecked(legal[rng.randrange(len(legal))])
        else:
            while not st.is_terminal:
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
        actions += st.move_count
        games += 1
    return actions, games, time.perf_counter() - start


def clones_per_second(mod, cfg, n: int = 100_000) -> float:
    rng = random.Random(2)
    st = mod.new_game(seed=7, **cfg)
    for _ in range(40):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    start = time.perf_counter()
    for _ in range(n):
        st.clone()
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()
    print(f"{'game':<10} {'config':<26} {'api act/s':>10} {'fast act/s':>11} {'games/s':>8} {'clones/s':>10}")
    for game in args.game or available_games():
        mod = game_module(game)
        for cfg in CONFIGS.get(game, [dict()]):
            a_act, _, a_t = playouts(mod, cfg, False, args.seconds)
            f_act, f_games, f_t = playouts(mod, cfg, True, args.seconds)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            print(f"{game:<10} {label:<26} {a_act / a_t:>10,.0f} {f_act / f_t:>11,.0f} "
                  f"{f_games / f_t:>8,.1f} {clones_per_second(mod, cfg):>10,.0f}", flush=True)


if __name__ == "__main__":
    main()
