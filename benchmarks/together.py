"""The cost of playing together, in Python: a step synced to 1 table or to 1 + 4 views, and a
hot-seat step whose curtain comes down (the view of nobody is made from every seat's view).

    python benchmarks/together.py [--steps N]

Runs outside a kernel (ipywidgets' dummy comm): everything up to the wire, not the browser.
Prints medians per step; asserts nothing.
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
from cardwidgets.table.together import public_view  # noqa: E402


def players(game: str) -> int:
    mode = game_spec(game).modes[0]
    return 4 if 4 in mode.players else mode.players[len(mode.players) // 2]


def steps_cost(game: str, steps: int, views: bool, hotseat: bool) -> float:
    """Median seconds of one step (browser message in, every table synced)."""
    cls = getattr(widgets, game_spec(game).table)
    n = players(game)
    rng = random.Random(3)
    times: list[float] = []
    seed = 0
    while len(times) < steps:
        t = cls(players=n, seed=seed, bot_delay=0, hotseat=hotseat)
        seats = [t.view_for(s) for s in range(n)] if views else []
        seed += 1
        while not t.state.is_terminal and len(times) < steps:
            if hotseat and t.curtain is not None:
                t._handle({"type": "iam", "seat": t.curtain["seat"]})
            action = rng.choice(t.legal) if hotseat else str(rng.choice(t.legal_actions()))
            s = time.perf_counter()
            t._handle({"type": "act", "action": action})
            times.append(time.perf_counter() - s)
        for v in seats:
            v.close()
        t.close()
    return statistics.median(times)


def public_cost(game: str, samples: int = 300) -> float:
    cls = getattr(widgets, game_spec(game).table)
    st = cls(players=players(game), seed=1, bot_delay=0).state
    rng = random.Random(1)
    times = []
    while len(times) < samples and not st.is_terminal:
        s = time.perf_counter()
        public_view(st)
        times.append(time.perf_counter() - s)
        st.apply_unchecked(rng.choice(st.legal_actions()))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args()
    print(f"{'game':<13} {'1 table':>10} {'1 + 4 views':>12} {'hot seat':>10} {'view of nobody':>15}")
    for game in available_games():
        one = steps_cost(game, args.steps, views=False, hotseat=False)
        many = steps_cost(game, args.steps, views=True, hotseat=False)
        hot = steps_cost(game, args.steps, views=False, hotseat=True)
        pub = public_cost(game)
        print(f"{game:<13} {one * 1e3:>7.2f} ms {many * 1e3:>9.2f} ms {hot * 1e3:>7.2f} ms {pub * 1e6:>12.0f} µs")


if __name__ == "__main__":
    main()
