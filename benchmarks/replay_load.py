"""Lines of play at scale: loading branched replays, and a table's messages with many lines.

    python benchmarks/replay_load.py [--max-branches N] [--messages N]

1. Replays whose branches form a chain (each the child of the last, the shape that
   used to load in quadratic time), sizes doubling: seconds to load
   (``Replay.from_json`` + ``Timeline.from_replay``), to save (``Timeline.to_replay``
   + ``to_json``), and µs per KB. Linear loading keeps µs/KB flat.
2. One table message (a move at the end of a line, goto, undo, and a move that starts
   a new line at an earlier position) on a table holding 10, 1,000 and 10,000 lines:
   median µs per message. Only a new line costs as much as the list of lines is long
   (the list changes, so it is synced); a browser can start lines only while the table
   has fewer than ``MAX_LINES``, so it never pays that with thousands (lifted here to
   measure it).

Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets import Replay, Timeline, make  # noqa: E402


def chain(branches: int, seed: int = 3) -> Timeline:
    """Each branch starts two actions before the end of the line before it, with another
    move, and plays two moves: a chain of ``branches`` lines, each the child of the last."""
    tl = Timeline(make("depot", players=3, seed=seed))
    rng = random.Random(seed)
    for _ in range(6):
        tl.step(rng.choice(tl.state.legal_actions()))
    for _ in range(branches):
        tl.goto(tl.length - 2)
        here = str(tl.position(tl.cursor + 1).last_move)
        tl.step(rng.choice([a for a in tl.state.legal_actions() if str(a) != here]))
        tl.step(rng.choice(tl.state.legal_actions()))
    return tl


def loading(max_branches: int) -> None:
    print("Loading a chain of branches (each the child of the last); CPU seconds, one process per")
    print("size so that garbage of one size does not slow the next down")
    print(f"{'branches':>9} {'KB':>8} {'load s':>8} {'µs/KB':>8} {'save s':>8}")
    n = 500
    while n <= max_branches:
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True,
                             check=True)
        print(out.stdout.rstrip())
        n *= 2


def load_one(n: int) -> None:
    tl = chain(n)
    text = tl.to_replay().to_json()
    del tl
    gc.collect()
    kb = len(text.encode()) / 1024
    t0 = time.process_time()
    loaded = Timeline.from_replay(Replay.from_json(text))
    load = time.process_time() - t0
    t0 = time.process_time()
    again = loaded.to_replay().to_json()
    save = time.process_time() - t0
    assert again == text
    print(f"{n:>9,} {kb:>8.0f} {load:>8.3f} {load / kb * 1e6:>8.0f} {save:>8.3f}")


def messages(count: int) -> None:
    from cardwidgets import widgets

    print("\nOne table message with many lines of play (teacher view, no bots; CPU µs, median)")
    print(f"{'lines':>7} {'move at end':>12} {'goto':>6} {'undo':>6} {'new line':>9}")
    for n in (10, 1_000, 10_000):
        t = widgets.Depot(timeline=chain(n), bot_delay=0)

        def send(msg: dict) -> float:
            t0 = time.process_time()  # CPU time: steadier than the wall clock on a shared machine
            t._on_msg(t, msg, [])
            return time.process_time() - t0

        rng = random.Random(1)
        end, new, goto, undo = [], [], [], []
        deepest = t.branch
        for i in range(count):
            t.switch(deepest)
            goto.append(send({"type": "goto", "index": t.history_len - 2}))
            undo.append(send({"type": "undo"}))
            t.switch(deepest)
            t.goto(t.history_len - 2)
            follow = str(t.timeline.position(t.cursor + 1).last_move)
            others = [a for a in t.legal if a != follow]
            if others and i % 4 == 0:
                new.append(_unbounded(lambda: send({"type": "act", "action": rng.choice(others)})))
            t.switch(deepest)
            if t.legal and i % 4 == 1:  # a few moves only: the deepest line's game must not end
                end.append(send({"type": "act", "action": rng.choice(t.legal)}))
                deepest = t.branch
        med = [statistics.median(x) * 1e6 if x else float("nan") for x in (end, goto, undo, new)]
        print(f"{n:>7,} {med[0]:>12.0f} {med[1]:>6.0f} {med[2]:>6.0f} {med[3]:>9.0f}")


def _unbounded(fn):
    """Run ``fn`` with no limit on the lines a browser may start (to measure starting one)."""
    from cardwidgets.table import model

    old = model.MAX_LINES
    model.MAX_LINES = 10**9
    try:
        return fn()
    finally:
        model.MAX_LINES = old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-branches", type=int, default=16_000)
    ap.add_argument("--messages", type=int, default=60)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # one size, in a fresh process
    args = ap.parse_args()
    if args.one:
        load_one(args.one)
        return
    loading(args.max_branches)
    messages(args.messages)


if __name__ == "__main__":
    main()
