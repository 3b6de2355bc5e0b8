"""What the teaching features cost in Python, per game and mode (prints figures, asserts nothing).

    python benchmarks/teach.py [--samples N]

* preview: a ``preview`` message answered into the synced trait (explain on a clone + one sync),
  for a legal move of the viewer;
* step in the past: a move that starts a new line at an earlier position, exactly (the teacher)
  and re-dealt (a seated player: ``sample_world``, position text written and read back, the move);
* replay load: ``Timeline.from_replay`` of a game with a re-dealt branch every few moves.

Runs outside a kernel (ipywidgets' dummy comm): everything up to the wire, not the browser.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import kit  # noqa: E402
from cardwidgets import Replay, Timeline, widgets  # noqa: E402
from cardwidgets.games import game_spec  # noqa: E402

CASES = [("depot", {"players": 4}), ("cirno_neu", {"players": 4}), ("crypto_trick", {"players": 4}),
         ("yadokarick", {"players": 4}), ("yadokarick", {"mode": "duo", "players": 2}),
         ("yadokarick", {"mode": "solo", "players": 1})]


def main_line(game: str, cfg: dict, seed: int, length: int = 60) -> Timeline:
    return kit.random_line(game, cfg, seed, length)


def choices(tl: Timeline) -> list[int]:
    """Positions where the player to act has a move other than the one played."""
    return [k for k in range(tl.length) if len(tl.position(k).legal_actions()) > 1]


def preview_cost(game: str, cfg: dict, samples: int) -> float:
    cls = getattr(widgets, game_spec(game).table)
    times = []
    seed = 0
    while len(times) < samples:
        tl = main_line(game, cfg, seed)
        seed += 1
        for k in choices(tl)[:10]:
            st = tl.position(k)
            t = cls(state=st, seat=st.current_player, bot_delay=0)
            move = t.legal[0]
            s = time.perf_counter()
            t._on_msg(t, {"type": "preview", "action": move}, [])
            times.append(time.perf_counter() - s)
    return statistics.median(times)


def past_step_costs(game: str, cfg: dict, samples: int) -> tuple[float, float]:
    exact, dealt = [], []
    seed = 0
    while len(dealt) < samples:
        tl = main_line(game, cfg, seed)
        seed += 1
        played = tl.line
        for k in choices(tl)[:10]:
            real = tl.position(k, "main")
            seat = real.current_player
            other = next(str(a) for a in real.legal_actions() if str(a) != played[k])
            for sink, who in ((exact, None), (dealt, seat)):
                tl.switch("main")
                tl.goto(k)
                s = time.perf_counter()
                if who is None:
                    tl.step(other)
                else:
                    tl.step(other, who)
                sink.append(time.perf_counter() - s)
    return statistics.median(exact), statistics.median(dealt)


def replay_load(game: str, cfg: dict) -> tuple[int, int, float]:
    tl = main_line(game, cfg, 1, length=400)
    played = tl.line
    for k in choices(tl)[::4]:
        tl.switch("main")
        tl.goto(k)
        other = next(str(a) for a in tl.state.legal_actions() if str(a) != played[k])
        tl.step(other, tl.state.current_player)
    text = tl.to_replay().to_json()
    s = time.perf_counter()
    Timeline.from_replay(Replay.from_json(text))
    return len(tl.branches) - 1, len(text), time.perf_counter() - s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=60)
    args = ap.parse_args()
    print(f"{'game':<28} {'preview':>9} {'past exact':>11} {'past re-dealt':>14} {'replay: re-dealt lines':>23} "
          f"{'bytes':>8} {'load':>8}")
    for game, cfg in CASES:
        label = game + ("" if "mode" not in cfg else f" ({cfg['mode']})")
        pv = preview_cost(game, cfg, args.samples)
        ex, dl = past_step_costs(game, cfg, args.samples)
        lines, size, load = replay_load(game, cfg)
        print(f"{label:<28} {pv * 1e6:>7.0f}µs {ex * 1e6:>9.0f}µs {dl * 1e6:>12.0f}µs {lines:>23} {size:>8,} "
              f"{load * 1e3:>6.1f}ms")


if __name__ == "__main__":
    main()
