"""A game as a tree of positions: undo, time travel, branches and notes, headless.

A :class:`Timeline` holds the main line of a game and every branch started from
an earlier position. The cursor is a position along the current line (0 = the
start). Acting at an earlier position starts a new branch (the old line is kept),
unless the same move already follows there, in which case the cursor just moves
along. Lessons, HTML export, the command line and the table widgets all use it.

>>> from cardwidgets.games import new_game
>>> tl = Timeline(new_game("depot", players=3, seed=11))
>>> _ = tl.step("play 3"); _ = tl.step("play 4"); tl.cursor
2
>>> tl.goto(1); _ = tl.step("play 6"); tl.branch, [b.name for b in tl.branches]
('branch-1', ['main', 'branch-1'])
>>> tl.switch("main"); [str(a) for a in tl.history]
['play 3', 'play 4']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .events import Event
from .replay import Branch, Replay
from .state import ANY, State

MAIN = "main"


@dataclass
class _Line:
    """One line of play: the actions after its first ``start`` (shared with its parent)."""

    name: str
    parent: "_Line | None"
    start: int
    states: list[State] = field(default_factory=list)   # states[i]: after start + i + 1 actions
    events: list[list[Event]] = field(default_factory=list)  # what led to states[i]
    notes: dict[int, str] = field(default_factory=dict)  # action index -> comment

    @property
    def length(self) -> int:
        return self.start + len(self.states)


@dataclass(frozen=True)
class BranchInfo:
    """A line of the timeline: ``name``, ``parent`` (``None`` for the main line),
    ``start`` (actions shared with the parent line) and ``length`` (actions in all)."""

    name: str
    parent: str | None
    start: int
    length: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "parent": self.parent, "from": self.start, "length": self.length}


class Timeline:
    """The positions of one game, as a tree with a cursor. See the module docstring."""

    def __init__(self, state: State) -> None:
        self._root = state
        self._root_events = list(getattr(state, "setup_events", []) or [])
        self._main = _Line(MAIN, None, 0)
        self._lines: dict[str, _Line] = {MAIN: self._main}
        self._line = self._main
        self._cursor = 0
        self._made = 0

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The position at the cursor (do not mutate it: use :meth:`step`)."""
        return self.position(self._cursor)

    @property
    def cursor(self) -> int:
        """The position shown, as the number of actions along the current line."""
        return self._cursor

    @property
    def length(self) -> int:
        """The number of actions of the current line."""
        return self._line.length

    @property
    def history(self) -> tuple[Any, ...]:
        """The actions along the current line up to the cursor."""
        return self.state.history

    @property
    def line(self) -> list[str]:
        """Every action of the current line, beyond the cursor too (notation)."""
        return [str(a) for a in self.position(self.length).history]

    @property
    def branch(self) -> str:
        """The name of the current line."""
        return self._line.name

    @property
    def branches(self) -> list[BranchInfo]:
        """Every line, the main line first, in the order they were started."""
        return [BranchInfo(ln.name, None if ln.parent is None else ln.parent.name, ln.start, ln.length)
                for ln in self._lines.values()]

    @property
    def root(self) -> State:
        """The starting position."""
        return self._root

    def position(self, n: int, line: str | None = None) -> State:
        """The position after ``n`` actions of a line (the current one by default)."""
        ln = self._line if line is None else self._get(line)
        if not 0 <= n <= ln.length:
            raise IndexError(f"position {n}: the line {ln.name!r} has positions 0..{ln.length}")
        while ln is not None and n <= ln.start:
            ln = ln.parent
        if ln is None:
            return self._root
        return ln.states[n - ln.start - 1]

    def events(self, n: int) -> list[Event]:
        """The events of the action that led to position ``n`` (setup events for 0)."""
        ln = self._owner(n)
        return self._root_events if ln is None else ln.events[n - ln.start - 1]

    def narration(self, seat: int | None = None, last: int | None = None) -> list[str]:
        """The narration lines ``seat`` may see, up to the cursor (the ``last`` ones)."""
        out: list[str] = []
        n = self._cursor
        while n >= 0 and (last is None or len(out) < last):
            lines = [e.text for e in self.events(n) if e.text and e.visible_to(seat)]
            out[:0] = lines
            n -= 1
        return out if last is None else out[-last:]

    def notes(self) -> dict[int, str]:
        """The comments along the current line: action index -> text."""
        out: dict[int, str] = {}
        ln: _Line | None = self._line
        limit = self._line.length
        while ln is not None:
            out.update({k: v for k, v in ln.notes.items() if ln.start <= k < limit})
            limit = ln.start
            ln = ln.parent
        return dict(sorted(out.items()))

    # ------------------------------------------------------------------ moving
    def goto(self, n: int) -> None:
        """Show the position after ``n`` actions of the current line (nothing is dropped)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"goto needs an int, got {n!r}")
        if not 0 <= n <= self.length:
            raise IndexError(f"goto({n}): the line {self.branch!r} has positions 0..{self.length}")
        self._cursor = n

    def undo(self, skip: Callable[[State], bool] | None = None) -> None:
        """Move the cursor back one position (drops nothing); with ``skip``, keep going
        back over positions for which ``skip(state)`` is true (a table skips bots' turns)."""
        if self._cursor == 0:
            return
        n = self._cursor - 1
        while skip is not None and n > 0 and skip(self.position(n)):
            n -= 1
        self._cursor = n

    def switch(self, branch: str) -> None:
        """Make ``branch`` the current line, at its last position."""
        self._line = self._get(branch)
        self._cursor = self._line.length

    def note(self, text: str) -> None:
        """Comment on the move that led to the cursor (replaces an earlier comment)."""
        if self._cursor == 0:
            raise ValueError("a note comments a move: go to a position after one")
        if not isinstance(text, str):
            raise TypeError("a note is text")
        ln = self._owner(self._cursor)
        assert ln is not None
        if text:
            ln.notes[self._cursor - 1] = text
        else:
            ln.notes.pop(self._cursor - 1, None)

    # ------------------------------------------------------------------ acting
    def step(self, action: Any, seat: Any = ANY) -> list[Event]:
        """Play ``action`` (object or notation, possibly standing for several actions)
        at the cursor and move the cursor past it.

        At an earlier position the same move already played there is followed; another
        move starts a new branch. Raises the engine's errors and changes nothing when
        the action is refused.
        """
        start = self.state
        actions = start.plan(action, seat)
        events: list[Event] = []
        for a in actions:
            events += self._push(a)
        return events

    def _push(self, action: Any) -> list[Event]:
        n = self._cursor
        text = str(action)
        if n < self.length and str(self.position(n + 1).last_move) == text:
            self._cursor = n + 1  # the same move already follows on this line
            return list(self.events(n + 1))
        for ln in self._lines.values():
            if ln.parent is self._line and ln.start == n and ln.states and str(ln.states[0].last_move) == text:
                self._line, self._cursor = ln, n + 1  # ... or starts a branch from here
                return list(ln.events[0])
        st = self.position(n).clone()
        ev = st.apply_checked(action)
        ln = self._line
        if n < ln.length:
            self._made += 1
            name = f"branch-{self._made}"
            while name in self._lines:
                self._made += 1
                name = f"branch-{self._made}"
            ln = _Line(name, self._line, n)
            self._lines[name] = ln
            self._line = ln
        ln.states.append(st)
        ln.events.append(ev)
        self._cursor = n + 1
        return ev

    # ------------------------------------------------------------------ replays
    def to_replay(self) -> Replay:
        """Every line and note, whatever the cursor."""
        rep = Replay.from_state(self.position(self._main.length, MAIN), dict(self._main.notes), root=self._root)
        for ln in self._lines.values():
            if ln is self._main:
                continue
            tail = ln.states[-1].history[ln.start:] if ln.states else ()
            rep.branches.append(Branch(ln.name, ln.parent.name if ln.parent else MAIN, ln.start,
                                       [str(a) for a in tail], dict(ln.notes)))
        return rep

    @classmethod
    def from_replay(cls, replay: Replay) -> "Timeline":
        """A timeline of every line of ``replay``, at the main line's last position.

        Raises :class:`~cardwidgets.core.replay.ReplayError` naming the first bad action.
        """
        root, played = replay.play()
        tl = cls(root)
        for p in played:
            line = tl._main if p.parent is None else _Line(p.name, tl._lines[p.parent], p.start)
            line.states, line.events, line.notes = p.states, p.events, p.notes
            tl._lines[p.name] = line
        tl._made = len(played) - 1
        tl.switch(MAIN)
        return tl

    # ------------------------------------------------------------------ helpers
    def _get(self, name: str) -> _Line:
        ln = self._lines.get(name) if isinstance(name, str) else None
        if ln is None:
            raise KeyError(f"no line called {name!r}; lines: {', '.join(self._lines)}")
        return ln

    def _owner(self, n: int) -> _Line | None:
        """The line whose own part holds position ``n`` of the current line (None: the root)."""
        ln: _Line | None = self._line
        while ln is not None and n <= ln.start:
            ln = ln.parent
        return ln

    def __repr__(self) -> str:
        return (f"<Timeline {self._root.game} line={self.branch!r} cursor={self._cursor}/{self.length} "
                f"lines={len(self._lines)}>")
