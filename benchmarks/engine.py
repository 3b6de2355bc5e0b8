"""Engine benchmarks: random playouts and clones, one core. Prints figures; asserts nothing.

    python benchmarks/engine.py [--seconds S] [--slices K] [--game NAME ...] [--no-hearts] [--no-lane | --lane-only]

Per configuration (every mode of every registered game, read from its ``SPEC``):

* ``checked act/s``: ``legal_actions()`` + ``apply()`` (validation and narration);
* ``fast act/s``: ``legal_actions()`` + ``apply_unchecked()`` (the simulation path);
* ``vs Hearts``: fast act/s divided by OpenSpiel's C++ Hearts decisions per second,
  driven from Python the same way (``pip install open_spiel``);
* ``games/s`` on the fast path, and ``clone()`` per second at a mid-game position.

How the ratio is measured. The machine is shared: the speed of both programs drifts more
than twofold within a minute, even in CPU time. So Hearts is not timed once for the whole
run: the fast path and Hearts take turns in ``--slices`` short slices of ``--seconds / slices``
each, a ratio is taken per pair of neighbouring slices, and the table gives their median
with the lowest and the highest (``spread``). Times are the process's CPU time
(``time.process_time``), so that other programs on the machine do not count. Each game
first plays one untimed slice: its memo tables (plays by hand pattern, Storage contents)
fill during a long simulation, and the figure is the steady state such a simulation meets.

The fast lane (``cardwidgets.fast``, the ``fast`` extra), for every configuration it covers,
in the same run and measured the same way against Hearts: random bots, player actions
counted, after a warm-up, and each slice builds ``simulate``'s rows too (its lane chunks:
the game seeds, the kernel, the rows). Then ``simulate(..., engine="fast")`` on 1 and 2
workers (wall clock: the workers' CPU time is not this process's), and the first call's
compile cost, cold (an empty numba cache) and cached, each in a fresh process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets.games import available_games, game_module, game_spec  # noqa: E402

#: CPU time of this process: on a shared machine, wall-clock time counts the others' work too.
clock = time.process_time

#: Extra configurations beyond one per mode (player count in the middle of its range).
EXTRA = {
    "depot": [dict(players=3), dict(players=5), dict(players=4, games=3)],
    "cirno_neu": [dict(players=2), dict(players=4, life_system=True), dict(players=8)],
    "crypto_trick": [dict(players=2), dict(players=5)],
    "yadokarick": [dict(mode="standard", players=4), dict(mode="standard", players=3),
                   dict(mode="standard", players=7), dict(mode="standard", players=5, card_set="advanced")],
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


class Playouts:
    """Random playouts of one configuration, resumable: each call plays on for ``budget`` CPU
    seconds (whole games) with the same random stream and the next seeds."""

    def __init__(self, mod: Any, cfg: dict, fast: bool) -> None:
        self.mod, self.cfg, self.fast = mod, cfg, fast
        self.rng = random.Random(1)
        self.seed = 0

    def __call__(self, budget: float) -> tuple[int, int, float]:
        """``(actions, games, CPU seconds)`` of the games played."""
        mod, cfg, rng = self.mod, self.cfg, self.rng
        actions = games = 0
        start = clock()
        while clock() - start < budget:
            st = mod.new_game(seed=self.seed, **cfg)
            self.seed += 1
            if self.fast:
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


def hearts() -> Callable[[float], float] | None:
    """OpenSpiel's C++ Hearts from Python: a function playing on for ``budget`` CPU seconds and
    returning decisions per second (chance outcomes sampled, not counted); ``None`` if
    OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def run(budget: float) -> float:
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

    return run


def interleaved(fast: Playouts, ref: Callable[[float], float] | None, seconds: float,
                slices: int) -> tuple[float, float, list[float], list[float]]:
    """Fast-path and Hearts slices in turn: ``(actions/s, games/s, ratios, Hearts rates)``."""
    per = seconds / slices
    fast(per)  # untimed warm-up: the memo tables of a long simulation
    actions = games = 0
    cpu = 0.0
    ratios: list[float] = []
    refs: list[float] = []
    for _ in range(slices):
        a, g, t = fast(per)
        actions, games, cpu = actions + a, games + g, cpu + t
        if ref is not None:
            refs.append(ref(per))
            ratios.append(a / t / refs[-1])
    return actions / cpu, games / cpu, ratios, refs


class LanePlayouts:
    """Random playouts of one configuration in the fast lane, resumable like :class:`Playouts`:
    chunks of ``chunk`` games as ``simulate`` plays them (seeds, kernel, the arrays a worker sends)."""

    def __init__(self, game: str, cfg: dict, chunk: int = 2000) -> None:
        from cardwidgets import fast
        from cardwidgets.sim._fastlane import play_chunk

        mode, players, options = fast.resolve(game, cfg.get("players"), cfg.get("mode"),
                                              {k: v for k, v in cfg.items() if k not in ("players", "mode")})
        self.play = play_chunk
        self.game, self.chunk = game, chunk
        self.kwargs = {"players": players, "mode": mode, **options}
        self.specs = ["random"] * players
        self.next = 0

    def __call__(self, budget: float) -> tuple[int, int, float]:
        actions = games = 0
        start = clock()
        while clock() - start < budget:
            part = self.play(self.game, self.kwargs, self.specs, 1, range(self.next, self.next + self.chunk))
            self.next += self.chunk
            actions += int(part.length.sum())
            games += len(part)
        return actions, games, clock() - start


def lane_workers(game: str, cfg: dict, workers: int, n: int) -> float:
    """Actions per wall-clock second of ``simulate(..., engine="fast", workers=workers)``."""
    from cardwidgets.sim import simulate

    simulate(game, 2 * workers, bots="random", seed=0, engine="fast", workers=workers, **cfg)  # start the pool
    start = time.perf_counter()
    res = simulate(game, n, bots="random", seed=1, engine="fast", workers=workers, **cfg)
    return int(res.games["length"].sum()) / (time.perf_counter() - start)


def compile_cost(game: str, cache: str) -> float:
    """Seconds of a fresh process's first lane call (import included), with numba's cache in ``cache``."""
    import os
    import subprocess

    code = ("import time; t = time.perf_counter(); from cardwidgets import fast; "
            f"fast.play({game!r}, [1], bots='random'); print(time.perf_counter() - t)")
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def lane(games: list[str], ref: Callable[[float], float] | None, seconds: float, slices: int) -> list[float]:
    """The fast lane's table; returns the Hearts rates measured."""
    import tempfile

    from cardwidgets import fast

    why = fast.unavailable()
    if why is not None:
        print(f"fast lane: {why}")
        return []
    print(f"\nfast lane (random bots; rows of simulate included; {'Hearts interleaved' if ref else 'no Hearts'})")
    print(f"{'game':<13} {'config':<28} {'lane act/s':>11} {'vs Hearts':>9} {'spread':>11} {'Hearts/s':>9} "
          f"{'games/s':>9} {'1 worker':>10} {'2 workers':>10} {'compile cold':>12} {'cached':>7}")
    refs: list[float] = []
    for game in games:
        if fast.kernel(game) is None:
            print(f"{game:<13} (no kernel)")
            continue
        with tempfile.TemporaryDirectory() as cache:
            cold, cached = compile_cost(game, cache), compile_cost(game, cache)
        for cfg in configs(game):
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            if fast.not_covered(game, bots="random", **cfg) is not None:
                print(f"{game:<13} {label:<28} (not covered)")
                continue
            act, games_s, ratios, rs = interleaved(LanePlayouts(game, cfg), ref, seconds, slices)
            refs += rs
            n = max(2000, int(act * 2 / 300))  # about 2 s of play on one worker
            w1, w2 = lane_workers(game, cfg, 1, n), lane_workers(game, cfg, 2, n)
            ratio = spread = hrate = ""
            if ratios:
                ratio = f"{statistics.median(ratios):.2f}x"
                spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
                hrate = f"{statistics.median(rs) / 1000:,.0f}k"
            print(f"{game:<13} {label:<28} {act:>11,.0f} {ratio:>9} {spread:>11} {hrate:>9} {games_s:>9,.0f} "
                  f"{w1:>10,.0f} {w2:>10,.0f} {cold:>11.1f}s {cached:>6.1f}s", flush=True)
            cold = cached = 0.0  # once per game: the kernel serves every configuration
    return refs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of fast-path play per configuration")
    ap.add_argument("--slices", type=int, default=10, help="fast-path/Hearts slices the seconds are cut into")
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--no-hearts", action="store_true", help="skip the OpenSpiel Hearts reference")
    ap.add_argument("--no-lane", action="store_true", help="skip the fast lane")
    ap.add_argument("--lane-only", action="store_true", help="only the fast lane")
    args = ap.parse_args()
    ref = None if args.no_hearts else hearts()
    if args.lane_only:
        refs = lane(args.game or available_games(), ref, args.seconds, args.slices)
        if refs:
            print(f"OpenSpiel Hearts over the run: median {statistics.median(refs):,.0f} decisions/s")
        return
    print("(rates per second of this process's CPU time, time.process_time; Hearts in turn with each game)")
    print(f"OpenSpiel Hearts: {'not installed' if ref is None else 'interleaved, C++ driven from Python'}")
    print(f"{'game':<13} {'config':<28} {'checked act/s':>13} {'fast act/s':>11} {'vs Hearts':>9} "
          f"{'spread':>11} {'Hearts/s':>9} {'games/s':>9} {'clones/s':>10}")
    all_refs: list[float] = []
    for game in args.game or available_games():
        mod = game_module(game)
        for cfg in configs(game):
            c_act, _, c_t = Playouts(mod, cfg, False)(args.seconds / 2)
            fast, games, ratios, refs = interleaved(Playouts(mod, cfg, True), ref, args.seconds, args.slices)
            all_refs += refs
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            ratio = spread = hrate = ""
            if ratios:
                ratio = f"{statistics.median(ratios):.2f}x"
                spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
                hrate = f"{statistics.median(refs) / 1000:,.0f}k"
            print(f"{game:<13} {label:<28} {c_act / c_t:>13,.0f} {fast:>11,.0f} {ratio:>9} {spread:>11} "
                  f"{hrate:>9} {games:>9,.1f} {clones_per_second(mod, cfg):>10,.0f}", flush=True)
    if not args.no_lane:
        all_refs += lane(args.game or available_games(), ref, args.seconds, args.slices)
    if all_refs:
        print(f"OpenSpiel Hearts over the run: median {statistics.median(all_refs):,.0f}, "
              f"{min(all_refs):,.0f} to {max(all_refs):,.0f} decisions/s")


if __name__ == "__main__":
    main()
