"""Parallel simulation: games per second on one worker and on several. Prints figures (and checks
only that both runs give the same rows).

    python benchmarks/sim_parallel.py [--workers 2] [--repeat 3] [--seconds 4]

For each configuration, ``simulate`` runs the same games with ``workers=1`` and with
``--workers`` (loky processes), alternating, ``--repeat`` times; the table shows the
best and the median wall time of each, the speed-up of the medians, and the CPU cost of
working in parallel (CPU seconds of all processes, over those of one worker). The worker
pool is started once before timing (a first call pays for starting the processes:
the cold start is printed on its own). The number of games is chosen so that one
worker needs about ``--seconds`` seconds.

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0, help="target wall time of one run on one worker")
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()

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
