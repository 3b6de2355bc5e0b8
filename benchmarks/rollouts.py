"""Rollouts per second of the search bot: the fast lane's ``rollout`` against the Python
``_Search.play_out``, from the same sampled worlds, and what loading a world into the lane costs.

    python benchmarks/rollouts.py [--worlds 200] [--repeat 5] [--only cirno_neu,depot]

For each game and mode whose kernel has ``rollout`` (others are listed as skipped), worlds
are sampled (``sample_world`` of the seat to act) from positions of greedy games after a
random number of moves; both engines then roll every world on with the game's default
rollout policy and depth (``cardwidgets.bots.ismcts.DEFAULTS``). The Python figure times
``play_out`` on clones made beforehand (the search rolls out a world it owns); the lane's
includes loading the world. *Load* is a rollout of no actions: reading the world's fields
into arrays and the call into the kernel. One core, after a warm-up; the machine may be
shared, so compare figures of one run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots import ask  # noqa: E402
from cardwidgets.bots.base import playing_bot  # noqa: E402
from cardwidgets.bots.ismcts import ROUND_FIELDS, _Search, defaults_for  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402

#: (label, game, new_game keywords)
CONFIGS = [
    ("cirno_neu 2p", "cirno_neu", dict(players=2)),
    ("cirno_neu 4p", "cirno_neu", dict(players=4)),
    ("cirno_neu 4p life", "cirno_neu", dict(players=4, life_system=True)),
    ("depot 3p", "depot", dict(players=3)),
    ("depot 4p", "depot", dict(players=4)),
    ("crypto_trick 2p", "crypto_trick", dict(players=2)),
    ("crypto_trick 4p", "crypto_trick", dict(players=4)),
    ("yadokarick 4p", "yadokarick", dict(players=4)),
    ("yadokarick duo", "yadokarick", dict(players=2, mode="duo")),
    ("yadokarick solo", "yadokarick", dict(players=1, mode="solo")),
]


def worlds(game: str, kw: dict, count: int, seed: int) -> list:
    r = random.Random(seed)
    out = []
    while len(out) < count:
        st = game_module(game).new_game(seed=r.getrandbits(32), **kw)
        bots = [playing_bot(game, "greedy", seed=r.getrandbits(32)) for _ in range(st.players)]
        stop = r.randrange(80)
        while not st.is_terminal and st.move_count < stop:
            st.apply(ask(bots[st.current_player], st))
        if not st.is_terminal:
            out.append(st.sample_world(st.current_player, r))
    return out


def measure(game: str, kw: dict, n: int, repeat: int) -> dict | str:
    mod = fast.kernel(game)
    if mod is None or not hasattr(mod, "rollout"):
        return "no lane rollouts"
    ws = worlds(game, kw, n, 7)
    cfg = defaults_for(game, ws[0].mode)
    policy, depth = cfg["rollout"], cfg["depth"]
    problem = mod.rollout_problem(ws[0], policy)
    if problem is not None:
        return problem
    by_round = depth == "round"
    steps = None if by_round else depth
    field = ROUND_FIELDS.get(game, "")
    r0 = [getattr(w, field, None) if by_round else None for w in ws]
    mod.rollout(ws[0], policy, steps, r0[0], 1)  # compile (or load numba's cache)
    search = _Search(ws[0], None, dict(cfg, seconds=None), time.perf_counter)
    out: dict = {"policy": policy, "depth": depth}
    # Python: play_out on clones made beforehand, the search's round0 per world
    best = float("inf")
    for rep in range(repeat):
        clones = [w.clone() for w in ws]
        rng = random.Random(rep)
        t = time.perf_counter()
        for w, c in zip(ws, clones):
            search.round0 = getattr(w, field, None)
            search.play_out(c, rng)
        best = min(best, time.perf_counter() - t)
    out["python"] = n / best
    for key, st in (("lane", steps), ("load", 0)):
        best = float("inf")
        for rep in range(repeat):
            t = time.perf_counter()
            for i, w in enumerate(ws):
                mod.rollout(w, policy, st, r0[i] if key == "lane" else None, rep * n + i)
            best = min(best, time.perf_counter() - t)
        out[key] = n / best
    actions = [len(mod.rollout_trace(w, policy, steps, r0[i], i)[1]) for i, w in enumerate(ws[:50])]
    out["actions"] = sum(actions) / len(actions)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5, help="timings per figure (the best is kept)")
    ap.add_argument("--only", default="", help="comma-separated games (default: all)")
    args = ap.parse_args()
    why = fast.unavailable()
    if why is not None:
        sys.exit(why)
    only = set(filter(None, args.only.split(",")))
    print("| game | rollout | actions / rollout | lane rollouts / s | Python rollouts / s | lane / Python "
          "| load (µs) |")
    print("|---|---|---|---|---|---|---|")
    for label, game, kw in CONFIGS:
        if only and game not in only:
            continue
        got = measure(game, kw, args.worlds, args.repeat)
        if isinstance(got, str):
            print(f"| {label} | skipped: {got} | | | | | |")
            continue
        depth = "to the end" if got["depth"] is None else f"depth {got['depth']}"
        print(f"| {label} | {got['policy']}, {depth} | {got['actions']:.1f} | {got['lane']:,.0f} "
              f"| {got['python']:,.0f} | {got['lane'] / got['python']:.1f}x | {1e6 / got['load']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
