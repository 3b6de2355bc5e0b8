"""Engine benchmarks: random playouts and clones, one core. Prints figures; asserts nothing.

    python benchmarks/engine.py [--seconds S] [--game NAME ...] [--no-hearts]

Per configuration (every mode of every registered game, read from its ``SPEC``):

* ``checked act/s``: ``legal_actions()`` + ``apply()`` (validation and narration);
* ``fast act/s``: ``legal_actions()`` + ``apply_unchecked()`` (the simulation path);
* ``vs Hearts``: fast act/s divided by OpenSpiel's C++ Hearts decisions per second,
  driven from Python the same way and measured in the same run (``pip install open_spiel``);
* ``games/s`` on the fast path, and ``clone()`` per second at a mid-game position.

Compare ratios within one run: the machine is shared and noisy. Times are the process's
CPU time (``time.process_time``), so that other programs on the machine do not count.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets.games import available_games, game_module, game_spec  # noqa: E402

#: CPU time of this process: on a shared machine, wall-clock time counts the others' work too.
clock = time.process_time

#: Extra configurations beyond one per mode (player count in the middle of its range).
EXTRA = {
    "depot": [dict(players=3), dict(players=5), dict(players=4, games=3)],
    "cirno_neu": [dict(players=2), dict(players=4, life_system=True), dict(players=8)],
    "yadokarick": [dict(mode="standard", players=4)],
}


def mode_configs(game: str) -> list[dict]:
    """One configuration per mode, with 4 players where the mode allows it (benchmarks/envs.py too)."""
    spec = game_spec(game)
    out = []
    for mode in spec.modes:
        cfg = {"mode": mode.name} if len(spec.modes) > 1 else {}
        players = 4 if 4 in mode.players else mode.players[len(mode.players) // 2]
        out.append({**cfg, "players": players})
    return out


def configs(game: str) -> list[dict]:
    out = mode_configs(game)
    for extra in EXTRA.get(game, []):
        if extra not in out:
            out.append(extra)
    return out


def playouts(mod, cfg: dict, fast: bool, budget: float) -> tuple[int, int, float]:
    rng = random.Random(1)
    actions = games = 0
    start = clock()
    seed = 0
    while clock() - start < budget:
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
    return actions, games, clock() - start


def clones_per_second(mod, cfg: dict, n: int = 50_000) -> float:
    rng = random.Random(2)
    st = mod.new_game(seed=7, **cfg)
    for _ in range(40):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    start = clock()
    for _ in range(n):
        st.clone()
    return n / (clock() - start)


def hearts(budget: float) -> float | None:
    """OpenSpiel's C++ Hearts from Python: decisions per second (chance outcomes sampled)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    decisions = 0
    start = clock()
    while clock() - start < budget:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = st.legal_actions()
                st.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions / (clock() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--no-hearts", action="store_true", help="skip the OpenSpiel Hearts reference")
    args = ap.parse_args()
    ref = None if args.no_hearts else hearts(args.seconds)
    print("(rates per second of this process's CPU time, time.process_time)")
    print(f"OpenSpiel Hearts: {'not installed' if ref is None else f'{ref:,.0f} decisions/s'}")
    print(f"{'game':<13} {'config':<28} {'checked act/s':>13} {'fast act/s':>11} {'vs Hearts':>9} "
          f"{'games/s':>9} {'clones/s':>10}")
    for game in args.game or available_games():
        mod = game_module(game)
        for cfg in configs(game):
            c_act, _, c_t = playouts(mod, cfg, False, args.seconds)
            f_act, f_games, f_t = playouts(mod, cfg, True, args.seconds)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            fast = f_act / f_t
            ratio = "" if ref is None else f"{fast / ref:.2f}x"
            print(f"{game:<13} {label:<28} {c_act / c_t:>13,.0f} {fast:>11,.0f} {ratio:>9} "
                  f"{f_games / f_t:>9,.1f} {clones_per_second(mod, cfg):>10,.0f}", flush=True)
    if ref is not None:
        print(f"OpenSpiel Hearts (again, for drift): {hearts(args.seconds):,.0f} decisions/s")


if __name__ == "__main__":
    main()
