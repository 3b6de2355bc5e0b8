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

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .events import Event
from .replay import Branch, Line, Replay
from .state import ANY, State

MAIN = "main"


class LineLimitError(ValueError):
    """Acting here would start a line of play past the limit the caller set (``max_lines``)."""


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
    """The positions of one game, as a tree with a cursor. See the module docstring.

    Every operation costs the same whatever the number of lines, up to a factor
    O(log lines) for finding a position (see :class:`~cardwidgets.core.replay.Line`),
    so a front end may keep thousands of lines without slowing down.
    """

    def __init__(self, state: State) -> None:
        self._root = state
        self._root_events = list(getattr(state, "setup_events", []) or [])
        self._main = Line(MAIN, None, 0)
        self._lines: dict[str, Line] = {MAIN: self._main}
        self._line = self._main
        self._cursor = 0
        self._made = 0

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The position at the cursor (do not mutate it: use :meth:`step`)."""
        return self._line.position(self._root, self._cursor)

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
        return [BranchInfo(ln.name, ln.parent_name, ln.start, ln.length) for ln in self._lines.values()]

    @property
    def line_count(self) -> int:
        """The number of lines, the main line included (lines are never removed: while it
        stays the same, :attr:`branches` changes only in the current line's ``length``)."""
        return len(self._lines)

    def has_line(self, name: Any) -> bool:
        """Whether a line is called ``name``."""
        return isinstance(name, str) and name in self._lines

    @property
    def root(self) -> State:
        """The starting position."""
        return self._root

    def position(self, n: int, line: str | None = None) -> State:
        """The position after ``n`` actions of a line (the current one by default)."""
        ln = self._line if line is None else self._get(line)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= ln.length:
            raise IndexError(f"position {n!r}: the line {ln.name!r} has positions 0..{ln.length}")
        return ln.position(self._root, n)

    def events(self, n: int, line: str | None = None) -> list[Event]:
        """The events of the action that led to position ``n`` of a line (the current one by
        default; setup events for 0)."""
        ln = (self._line if line is None else self._get(line)).owner(n)
        return self._root_events if ln is None else ln.events[n - ln.start - 1]

    def narration(self, seat: int | None = None, last: int | None = None) -> list[str]:
        """The narration lines ``seat`` may see, up to the cursor (the ``last`` ones)."""
        out: list[list[str]] = []
        count = 0
        for events in self._events_back():
            lines = [e.text for e in events if e.text and e.visible_to(seat)]
            out.append(lines)
            count += len(lines)
            if last is not None and count >= last:
                break
        flat = [t for lines in reversed(out) for t in lines]
        return flat if last is None else flat[-last:] if last > 0 else []

    def _events_back(self) -> Any:
        """The events of every position from the cursor back to the start, newest first,
        one line segment at a time (no lookup per position)."""
        n = self._cursor
        ln = self._line.owner(n)
        while ln is not None:
            for k in range(n - ln.start - 1, -1, -1):
                yield ln.events[k]
            # The base owns this segment's branch point: the walk goes on there.
            n, ln = ln.start, ln.base
        yield self._root_events

    def notes(self, line: str | None = None) -> dict[int, str]:
        """The comments along a line (the current one by default): action index -> text."""
        out: dict[int, str] = {}
        ln: Line | None = self._line if line is None else self._get(line)
        limit = ln.length
        while ln is not None:
            out.update({k: v for k, v in ln.notes.items() if ln.start <= k < limit})
            limit = ln.start
            ln = ln.base
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
        ln = self._line.owner(self._cursor)
        assert ln is not None
        if text:
            ln.notes[self._cursor - 1] = text
        else:
            ln.notes.pop(self._cursor - 1, None)

    # ------------------------------------------------------------------ acting
    def step(self, action: Any, seat: Any = ANY, *, max_lines: int | None = None) -> list[Event]:
        """Play ``action`` (object or notation, possibly standing for several actions)
        at the cursor and move the cursor past it.

        At an earlier position the same move already played there is followed; another
        move starts a new branch. Raises the engine's errors and changes nothing when
        the action is refused; with ``max_lines``, raises :class:`LineLimitError` (and
        changes nothing) rather than start a line past that many.
        """
        start = self.state
        actions = start.plan(action, seat)
        if max_lines is not None and len(self._lines) >= max_lines and self._branches_off(actions):
            raise LineLimitError(f"this game already has {len(self._lines)} lines of play, the most allowed "
                                 f"here; play on at the end of a line, or follow a move already played")
        events: list[Event] = []
        for a in actions:
            events += self._push(a)
        return events

    def _next(self, line: Line, n: int, text: str) -> tuple[Line, int] | None:
        """Where the move ``text`` after ``n`` actions of ``line`` already leads, if it was played there."""
        if n < line.length and str(line.position(self._root, n + 1).last_move) == text:
            return line, n + 1  # the same move already follows on this line
        child = line.children.get((n, text))
        return None if child is None else (child, n + 1)  # ... or starts a branch from here

    def _branches_off(self, actions: list[Any]) -> bool:
        """Whether playing ``actions`` at the cursor would start a new line."""
        line, n = self._line, self._cursor
        for a in actions:
            if n >= line.length:
                return False  # at the end of a line a move extends it
            found = self._next(line, n, str(a))
            if found is None:
                return True
            line, n = found
        return False

    def _push(self, action: Any) -> list[Event]:
        n = self._cursor
        found = self._next(self._line, n, str(action))
        if found is not None:
            self._line, self._cursor = found
            return list(self.events(self._cursor))
        st = self.position(n).clone()
        ev = st.apply_checked(action)
        ln = self._line
        if n < ln.length:
            self._made += 1
            name = f"branch-{self._made}"
            while name in self._lines:
                self._made += 1
                name = f"branch-{self._made}"
            ln = Line(name, self._line, n)
            self._adopt(ln, st)
            self._line = ln
        ln.states.append(st)
        ln.events.append(ev)
        self._cursor = n + 1
        return ev

    def _adopt(self, line: Line, first: State | None) -> None:
        """Register a new line (``first``: the position after its first own move)."""
        self._lines[line.name] = line
        if line.parent is not None and first is not None:
            line.parent.children.setdefault((line.start, str(first.last_move)), line)

    # ------------------------------------------------------------------ replays
    def to_replay(self) -> Replay:
        """Every line and note, whatever the cursor (linear in the number of actions)."""
        rep = Replay.from_state(self.position(self._main.length, MAIN), dict(self._main.notes), root=self._root)
        for ln in self._lines.values():
            if ln is self._main:
                continue
            rep.branches.append(Branch(ln.name, ln.parent_name or MAIN, ln.start, ln.moves(), dict(ln.notes)))
        return rep

    @classmethod
    def from_replay(cls, replay: Replay) -> "Timeline":
        """A timeline of every line of ``replay``, at the main line's last position.

        Raises :class:`~cardwidgets.core.replay.ReplayError` naming the first bad action.
        """
        root, played = replay.play()
        tl = cls(root)
        tl._main = tl._line = played[0]
        tl._lines = {}
        for line in played:
            tl._adopt(line, line.states[0] if line.states else None)
        tl._made = len(played) - 1
        tl.switch(MAIN)
        return tl

    def to_html(self, path: str | Path, seat: int | None = None) -> Path:
        """Write every line of play as one self-contained HTML page that plays without Python.

        The page shows each position as ``seat`` sees it (``None``: the teacher view, every
        hand open), with the narration that seat may see, the notes, the lines of play, a
        scrubber and the keyboard; it loads nothing from anywhere. Returns the path written.
        See :mod:`cardwidgets.export`.
        """
        # Lazily: the export is a layer above the core (it reads the built front end and the
        # rules reference); the core never imports it at load time.
        from ..export import write_html

        return write_html(self, path, seat)

    # ------------------------------------------------------------------ helpers
    def _get(self, name: str) -> Line:
        ln = self._lines.get(name) if isinstance(name, str) else None
        if ln is None:
            shown = ", ".join(list(self._lines)[:10]) + (" ..." if len(self._lines) > 10 else "")
            raise KeyError(f"no line called {name!r}; lines: {shown}")
        return ln

    def __repr__(self) -> str:
        return (f"<Timeline {self._root.game} line={self.branch!r} cursor={self._cursor}/{self.length} "
                f"lines={len(self._lines)}>")
