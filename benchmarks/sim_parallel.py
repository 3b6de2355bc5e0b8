"""Parallel simulation: games per second on one worker and on several. Prints figures (and checks
only that both runs give the same rows).

    python benchmarks/sim_parallel.py [--workers 2] [--repeat 3] [--seconds 4]
    python benchmarks/sim_parallel.py --lane 200000 [--workers 2] [--repeat 3]

For each configuration, ``simulate`` runs the same games with ``workers=1`` and with
``--workers`` (loky processes), alternating, ``--repeat`` times; the table shows the
best and the median wall time of each, the speed-up of the medians, and the CPU cost of
working in parallel (CPU seconds of all processes, over those of one worker). The worker
pool is started once before timing (a first call pays for starting the processes:
the cold start is printed on its own). The number of games is chosen so that one
worker needs about ``--seconds`` seconds.

``--lane N``: the fast lane's ``compare`` of two cirno+neu variants, ``N`` games each, on one
worker and on ``--workers``, alternating, and where the parallel run's time goes: a fresh pool
(processes, imports, the kernel from numba's cache), one chunk played, pickled and unpickled
(the arrays a worker sends back), and the games table the parent builds from them.

Compare ratios within one run: the machine may be shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets.sim import simulate  # noqa: E402

#: (label, game, bots, new_game kwargs): short, middling and long games.
CONFIGS = [
    ("depot 4p greedy", "depot", "greedy", dict(players=4)),
    ("cirno_neu 4p greedy", "cirno_neu", "greedy", dict(players=4)),
    ("crypto_trick 4p greedy", "crypto_trick", "greedy", dict(players=4)),
    ("yadokarick 5p greedy", "yadokarick", "greedy", dict(players=5)),
]


def cpu_seconds() -> float:
    """CPU time of this process and of its worker processes (psutil sees the workers)."""
    total = time.process_time()
    try:
        import psutil
    except ImportError:  # then only this process is counted
        return total
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system
    return total


def timed(game: str, n: int, bots: str, workers: int, kwargs: dict) -> tuple[float, float, object]:
    """Wall seconds, CPU seconds (all processes) and the result of one run."""
    cpu, start = cpu_seconds(), time.perf_counter()
    res = simulate(game, n, bots=bots, seed=7, workers=workers, **kwargs)
    return time.perf_counter() - start, cpu_seconds() - cpu, res


LANE_VARIANTS = {"resume": {"shot_resume": "after_target"}, "default": {}}


def lane(n: int, workers: int, repeat: int) -> None:
    """The fast lane's ``compare("cirno_neu", two variants, n)`` on 1 and ``workers`` workers, and
    where the parallel run's time goes: starting the workers (processes, imports, the compiled
    kernel loaded from numba's cache), playing a chunk, sending it back, building the table."""
    import pickle

    from cardwidgets import fast
    from cardwidgets.sim import compare
    from cardwidgets.sim._fastlane import LaneRows, play_chunk
    from cardwidgets.sim._result import games_frame_columns
    from cardwidgets.sim._run import _chunk_size, MAX_FAST_CHUNK

    def run(w: int, games: int) -> float:
        start = time.perf_counter()
        compare("cirno_neu", LANE_VARIANTS, n=games, bots="random", seed=7, workers=w)
        return time.perf_counter() - start

    print(f"\nfast lane: compare('cirno_neu', {LANE_VARIANTS}, n={n:,}), random bots; load average before: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    t = time.perf_counter()
    fast.play("cirno_neu", [1, 2], bots="random")  # this process: the kernel from numba's cache
    print(f"  this process: first lane call (kernel loaded from numba's cache) {time.perf_counter() - t:.2f} s")
    print(f"  a fresh pool of {workers} workers and a compare of 2 x 100 games (process start, imports, "
          f"cache load): {run(workers, 100):.2f} s")
    size = _chunk_size(n, workers, MAX_FAST_CHUNK)
    mode, players, options = fast.resolve("cirno_neu", None, None, {})
    kwargs = {"players": players, "mode": mode, **options}
    t = time.perf_counter()
    part = play_chunk("cirno_neu", kwargs, ["random"] * players, 7, range(size))
    played = time.perf_counter() - t
    t = time.perf_counter()
    data = pickle.dumps(part, protocol=5)
    sent = time.perf_counter() - t
    t = time.perf_counter()
    pickle.loads(data)
    got = time.perf_counter() - t
    chunks = [play_chunk("cirno_neu", kwargs, ["random"] * players, 7, range(k, min(n, k + size)))
              for k in range(0, n, size)]
    t = time.perf_counter()
    games_frame_columns({"game": "cirno_neu", "players": players, "mode": mode, "options": "{}",
                         "bots": ("random",) * players, "engine": "fast"}, LaneRows.merge(chunks).columns())
    table = time.perf_counter() - t
    print(f"  one chunk of {size:,} games: played {played:.2f} s; sent as arrays {len(data) / 1e6:.1f} MB, "
          f"pickled {sent * 1e3:.0f} ms, unpickled {got * 1e3:.0f} ms; the games table of {n:,} games from the "
          f"arrays: {table:.2f} s (per variant, in the parent)")
    one, many = [], []
    for _ in range(repeat):
        one.append(run(1, n))
        many.append(run(workers, n))
    print(f"  1 worker: {' '.join(f'{x:.2f}' for x in one)} s; {workers} workers: "
          f"{' '.join(f'{x:.2f}' for x in many)} s; speed-up of the medians "
          f"{statistics.median(one) / statistics.median(many):.2f}x")
    print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0, help="target wall time of one run on one worker")
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--lane", type=int, default=0, metavar="N",
                    help="only the fast lane's compare of two cirno+neu variants, N games each")
    args = ap.parse_args()
    if args.lane:
        lane(args.lane, args.workers, args.repeat)
        return

    print(f"{os.cpu_count()} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cold, _, _ = timed("depot", 40, "random", args.workers, dict(players=3))
    print(f"cold start of {args.workers} loky workers and 40 short games: {cold:.2f} s")
    print(f"{'configuration':24} {'games':>6} {'1 worker s':>14} {f'{args.workers} workers s':>14} "
          f"{'games/s (1)':>12} {'speed-up':>9} {'CPU cost':>9}")
    for label, game, bots, kwargs in CONFIGS:
        if args.game and game not in args.game:
            continue
        probe, _, _ = timed(game, 20, bots, 1, kwargs)
        n = max(40, int(20 * args.seconds / probe))
        one, many, cpu1, cpun = [], [], [], []
        for _ in range(args.repeat):
            t1, c1, r1 = timed(game, n, bots, 1, kwargs)
            tn, cn, rn = timed(game, n, bots, args.workers, kwargs)
            assert r1.games.equals(rn.games), "the rows differ between 1 and several workers"
            one.append(t1)
            many.append(tn)
            cpu1.append(c1)
            cpun.append(cn)
        m1, mn = statistics.median(one), statistics.median(many)
        cost = statistics.median(cpun) / statistics.median(cpu1)
        print(f"{label:24} {n:6d} {min(one):6.2f} / {m1:5.2f} {min(many):6.2f} / {mn:5.2f} "
              f"{n / m1:12.0f} {m1 / mn:8.2f}x {cost:8.2f}x")
    print("(times: best / median of the runs; speed-up: median over median; CPU cost: CPU seconds of\n"
          " the parallel run, workers included, over those of one worker: what chunking, pickling and\n"
          " the workers' own imports add, whatever else the machine is doing)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
