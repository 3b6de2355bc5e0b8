"""Measuring growth without timing: work counted in lines run, and inputs that grow.

Tests never time things; to show that a cost is linear (or constant) they run the
same call on inputs of growing size and compare :func:`lines_run` counts, which are
exact and the same on every machine.
"""

from __future__ import annotations

import random
import sys
from types import ModuleType
from typing import Any, Callable

from cardwidgets import Timeline, make


def lines_run(fn: Callable[[], Any], *modules: ModuleType) -> tuple[Any, int]:
    """``(fn(), n)``: ``n`` is the number of source lines of ``modules`` that ``fn`` executed."""
    files = {m.__file__ for m in modules}
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename in files else None

    old = sys.gettrace()
    sys.settrace(calls)
    try:
        result = fn()
    finally:
        sys.settrace(old)
    return result, count


def chain(branches: int, back: int = 2, seed: int = 3, game: str = "depot", **kw: Any) -> Timeline:
    """A timeline whose lines form a chain, each the child of the last: each branch starts
    ``back`` actions before the end of the line before it, with another move, and plays
    ``back`` moves (with ``back=1`` every line is one action longer than its parent)."""
    tl = Timeline(make(game, seed=seed, **{"players": 3, **kw}))
    rng = random.Random(seed)
    for _ in range(max(6, back)):
        tl.step(rng.choice(tl.state.legal_actions()))
    for _ in range(branches):
        tl.goto(tl.length - back)
        here = str(tl.position(tl.cursor + 1).last_move)
        tl.step(rng.choice([a for a in tl.state.legal_actions() if str(a) != here]))
        for _ in range(back if back == 1 else back - 1):
            if tl.state.is_terminal:
                raise ValueError("the game ended: choose another seed or fewer branches")
            tl.step(rng.choice(tl.state.legal_actions()))
    return tl
