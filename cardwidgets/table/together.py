"""Playing together: what several tables on one game share, and what nobody in particular sees.

* :class:`Group` — the tables showing one game (a table and the views ``view_for`` made):
  they share the timeline, the bots and the one bot move that may be scheduled, so a bot
  moves once whatever the number of views.
* :func:`public_view` — the view of nobody: what every seat sees alike (a hot-seat table
  shows it while its curtain is down).
* :func:`narration_at` — a seat's (or nobody's) narration up to any position of the
  timeline's current line (a view looking back, a curtain).
"""

from __future__ import annotations

import weakref
from typing import Any, Iterator

from ..core import State, Timeline

#: Narration lines synced to the browser (``table.timeline.narration(seat)`` has all).
LOG_TAIL = 80


class Group:
    """The tables on one timeline: the bots (one dict), the bot move scheduled for all of
    them (``pending``), and whether the bots stopped after a failure (``stalled``)."""

    def __init__(self, bots: dict[int, Any]) -> None:
        self.bots = bots
        self.pending: Any = None
        self.stalled = False
        #: A table is setting a shared value on the others: they do not pass it on again.
        self.sharing = False
        self._members: weakref.WeakSet = weakref.WeakSet()

    def add(self, table: Any) -> None:
        self._members.add(table)

    def others(self, table: Any) -> Iterator[Any]:
        """The other live tables of the group (a closed one is left out)."""
        for t in list(self._members):
            if t is not table and t._live():
                yield t

    def __len__(self) -> int:
        return len(self._members)


def public_view(state: State) -> dict[str, Any]:
    """What every seat of ``state`` sees alike: the parts of ``view(seat)`` equal for all seats.

    A part that differs between two seats' views (a hand its owner sees and the others do
    not, a card given face down) is ``None``; a key missing from one seat's view is left out.
    ``"seat"`` is ``None``: nobody is seated. Noninterference: a part kept is the same in
    every seat's view, so two positions some seat cannot tell apart give the same result
    (tests/test_widgets_together.py checks it on twin deals of every game).
    """
    views = [state.view(s) for s in range(state.players)]
    out = _meet(views)
    if not isinstance(out, dict):  # every view is a dict with the same keys: cannot happen
        raise TypeError(f"{state.game} views are not dicts")
    out["seat"] = None
    return out


def _meet(values: list[Any]) -> Any:
    first = values[0]
    if all(_same(v, first) for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: _meet([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) and len(v) == len(first) for v in values):
        return [_meet([v[i] for v in values]) for i in range(len(first))]
    return None


def _same(a: Any, b: Any) -> bool:
    # JSON tells True from 1: so does the view of nobody
    return a == b and type(a) is type(b)


def narration_at(timeline: Timeline, n: int, seat: int | None, public: bool = False,
                 last: int = LOG_TAIL) -> list[str]:
    """The last ``last`` narration lines up to position ``n`` of the timeline's current line:
    those ``seat`` may see, or with ``public`` only the public ones (events for everyone)."""
    back: list[list[str]] = []
    count = 0
    for m in range(n, -1, -1):
        events = timeline.events(m)
        lines = [e.text for e in events if e.text and (e.audience is None if public else e.visible_to(seat))]
        back.append(lines)
        count += len(lines)
        if count >= last:
            break
    flat = [t for lines in reversed(back) for t in lines]
    return flat[-last:] if last > 0 else []
