"""Widget step cost in Python: engine apply + trait sync (one comm message per step).

    python benchmarks/widget_step.py [--steps N]

Runs outside a kernel: the comm is ipywidgets' dummy, so this measures everything
up to the wire (state serialization included), not the browser. Prints the median
cost of ``table.step()`` next to the bare engine ``apply()`` it wraps.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets import widgets  # noqa: E402
from cardwidgets.games import available_games, game_spec  # noqa: E402


def config(game: str) -> dict:
    mode = game_spec(game).modes[0]
    return {"players": 4 if 4 in mode.players else mode.players[len(mode.players) // 2]}


def measure(cls_name: str, cfg: dict, steps: int) -> tuple[float, float]:
    cls = getattr(widgets, cls_name)
    rng = random.Random(3)
    table_times, engine_times = [], []
    seed = 0
    while len(table_times) < steps:
        t = cls(seed=seed, bot_delay=0, **cfg)
        seed += 1
        while not t.state.is_terminal and len(table_times) < steps:
            action = rng.choice(t.legal_actions())
            twin = t.state.clone()
            s = time.perf_counter()
            twin.apply(action)
            engine_times.append(time.perf_counter() - s)
            s = time.perf_counter()
            t.step(action)
            table_times.append(time.perf_counter() - s)
    return statistics.median(table_times), statistics.median(engine_times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    args = ap.parse_args()
    print(f"{'game':<13} {'table.step median':>18} {'engine.apply median':>20} {'ratio':>6}")
    for game in available_games():
        table, engine = measure(game_spec(game).table, config(game), args.steps)
        print(f"{game:<13} {table * 1e6:>15.0f} µs {engine * 1e6:>17.1f} µs {table / engine:>6.0f}")


if __name__ == "__main__":
    main()
