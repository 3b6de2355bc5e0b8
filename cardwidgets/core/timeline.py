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

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection

from .errors import IllegalActionError, has_lone_surrogate
from .events import Event
from .registry import provider
from .replay import Branch, Line, Replay, dealt_start
from .state import ANY, State

MAIN = "main"


class LineLimitError(ValueError):
    """Acting here would start a line of play past the limit the caller set (``max_lines``)."""


@dataclass(frozen=True)
class BranchInfo:
    """A line of the timeline: ``name``, ``parent`` (``None`` for the main line),
    ``start`` (actions shared with the parent line), ``length`` (actions in all) and
    ``dealt_for`` (the seat a re-dealt branch was dealt for, else ``None``)."""

    name: str
    parent: str | None
    start: int
    length: int
    dealt_for: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "parent": self.parent, "from": self.start, "length": self.length}
        if self.dealt_for is not None:
            out["dealt_for"] = self.dealt_for
        return out


class Timeline:
    """The positions of one game, as a tree with a cursor. See the module docstring.

    Every operation costs the same whatever the number of lines, up to a factor
    O(log lines) for finding a position (see :class:`~cardwidgets.core.replay.Line`),
    so a front end may keep thousands of lines without slowing down.
    """

    def __init__(self, state: State) -> None:
        """The timeline of ``state``'s game, at ``state``: a state that has moves already is the
        end of the main line, which starts at the game's first position (so that positions,
        notes and branch points count from there, as a replay's do)."""
        # A world of sample_world is its own start: its history is not how it came about.
        moves = () if state._sampled else state.history
        root = state._first_position() if moves else state
        self._root = root
        self._root_events = list(getattr(root, "setup_events", []) or [])
        self._main = Line(MAIN, None, 0)
        self._lines: dict[str, Line] = {MAIN: self._main}
        self._line = self._main
        self._made = 0
        st = root
        for a in moves:
            st = st.clone()
            self._main.events.append(st.apply_checked(a))
            self._main.states.append(st)
        if moves and st.to_dict() != state.to_dict():  # an engine's bug: never show another game
            raise ValueError(f"{state.game}: the game's start with its history does not lead to this state")
        self._cursor = len(moves)

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
        """The actions along the current line up to the cursor (through re-dealt branches too,
        whose positions keep only their own actions)."""
        return tuple(self._actions(self._line, self._cursor))

    @property
    def line(self) -> list[str]:
        """Every action of the current line, beyond the cursor too (notation)."""
        return [str(a) for a in self._actions(self._line, self.length)]

    def _actions(self, line: Line, n: int) -> list[Any]:
        """The first ``n`` actions of ``line``, one line segment at a time."""
        out: list[Any] = []
        ln = line.owner(n)
        while ln is not None:
            out.extend(st.last_move for st in reversed(ln.states[: n - ln.start]))
            n, ln = ln.start, ln.base
        out.reverse()
        return out

    @property
    def branch(self) -> str:
        """The name of the current line."""
        return self._line.name

    @property
    def branches(self) -> list[BranchInfo]:
        """Every line, the main line first, in the order they were started."""
        return [BranchInfo(ln.name, ln.parent_name, ln.start, ln.length, ln.dealt_for) for ln in self._lines.values()]

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

    def notes(self, line: str | None = None, own: bool = False) -> dict[int, str]:
        """The comments along a line (the current one by default): action index -> text; with
        ``own``, only those on the line's own actions (after its branch point)."""
        out: dict[int, str] = {}
        ln: Line | None = self._line if line is None else self._get(line)
        limit = ln.length
        if own:
            return dict(sorted((k, v) for k, v in ln.notes.items() if ln.start <= k < limit))
        while ln is not None:
            out.update({k: v for k, v in ln.notes.items() if ln.start <= k < limit})
            limit = ln.start
            ln = ln.base
        return dict(sorted(out.items()))

    def redealt_for(self, n: int | None = None, line: str | None = None) -> frozenset[int]:
        """The seats whose re-deals position ``n`` of a line (the cursor's by default) comes
        from: empty for the real game. A line re-dealt for a seat, and every line drawn on from
        it, is for that seat's eyes only (rule G5): anyone else would learn from its new hands."""
        return _seats(*self._at(n, line))

    def check_shown(self, viewers: Collection[int], n: int | None = None, line: str | None = None) -> None:
        """Refuse (``IllegalActionError``, rule G5) to show a position (the cursor's by default)
        to the people at ``viewers``' seats unless they may see it: a re-dealt one is for the
        seat it was dealt for alone; the teacher (no seat) sees all."""
        self._check_shown(*self._at(n, line), viewers)

    def _at(self, n: int | None, line: str | None) -> tuple[Line, int]:
        """A line and a position on it: the cursor's by default, a named line's last."""
        ln = self._line if line is None else self._get(line)
        return ln, (self._cursor if line is None else ln.length) if n is None else n

    def _check_shown(self, ln: Line, n: int, viewers: Collection[int]) -> None:
        seats = _seats(ln, n)
        if not seats or all(seats <= {v} for v in viewers):
            return
        label = self._root.seat_label
        dealt = " and ".join(label(s) for s in sorted(seats))
        who = ", ".join(label(s) for s in sorted(set(viewers) - seats) or sorted(viewers))
        raise IllegalActionError("G5", f"that line was dealt again for {dealt} alone: its new hands would tell "
                                       f"{who} which cards {dealt} cannot hold")

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

    def switch(self, branch: str, *, shown_to: Collection[int] = ()) -> None:
        """Make ``branch`` the current line, at its last position.

        ``shown_to`` names the seats of the people who will see it (a table's players): a line
        re-dealt for one seat is refused (``IllegalActionError``, rule G5) for anyone else."""
        ln = self._get(branch)
        self._check_shown(ln, ln.length, shown_to)
        self._line = ln
        self._cursor = ln.length

    def note(self, text: str) -> None:
        """Comment on the move that led to the cursor (replaces an earlier comment)."""
        if self._cursor == 0:
            raise ValueError("a note comments a move: go to a position after one")
        if not isinstance(text, str):
            raise TypeError("a note is text")
        if has_lone_surrogate(text):  # it could never be saved or exported
            raise ValueError("a note is Unicode text: this one holds an unpaired surrogate")
        ln = self._line.owner(self._cursor)
        assert ln is not None
        if text:
            ln.notes[self._cursor - 1] = text
        else:
            ln.notes.pop(self._cursor - 1, None)

    # ------------------------------------------------------------------ acting
    def step(self, action: Any, seat: Any = ANY, *, max_lines: int | None = None,
             redeal: bool = True, shared_with: Collection[int] = ()) -> list[Event]:
        """Play ``action`` (object or notation, possibly standing for several actions)
        at the cursor and move the cursor past it.

        At an earlier position the same move already played there is followed; another
        move starts a new branch. Raises the engine's errors and changes nothing when
        the action is refused; with ``max_lines``, raises :class:`LineLimitError` (and
        changes nothing) rather than start a line past that many.

        Time travel never shows a seated player what it has not seen: when ``seat`` is
        a player's seat (not ``ANY`` or ``None``, the teacher) and the move starts a new
        branch, the branch is *re-dealt*: it goes on from ``state.sample_world(seat)`` of
        that position, where every card the seat has not seen is dealt again (seeded
        from the game's seed and the branch's number, so the same steps give the same
        lines). Going back to see a card, then playing differently, tells nothing about
        where the cards are in the new line. The seat follows a line already played
        from there only if it is the current line or a branch re-dealt for that seat.
        ``redeal=False`` plays the branch exactly, as the teacher's moves always are.

        A re-dealt line is for its seat alone: the other seats' new hands are drawn from
        the cards that seat cannot see, so each of them rules cards out of its hand.
        ``shared_with`` names the seats of the people at the game (a hot-seat table, a
        table per player); while any is not ``seat``'s, a move that would re-deal is refused
        (``IllegalActionError``, rule G5) and changes nothing, and so is following a line
        re-dealt for a seat into positions shown to others (see :meth:`redealt_for`).
        """
        actions = self.state.plan(action, seat)
        dealt_for = seat if redeal and type(seat) is int and 0 <= seat < self._root.players else None
        line, n = self._line, self._cursor
        events: list[Event] = []
        k = 0
        while k < len(actions):  # moves already played here are followed
            found = self._next(line, n, str(actions[k]), dealt_for)
            if found is None:
                break
            line, n = found
            owner = line.owner(n)
            assert owner is not None
            events += owner.events[n - owner.start - 1]
            k += 1
        # Following lines already played may lead into one re-dealt for someone else (a file
        # made alone, shared later): none is shown to the others.
        self._check_shown(line, n, shared_with)
        rest = actions[k:]
        if rest:
            branching = n < line.length
            if branching and max_lines is not None and len(self._lines) >= max_lines:
                raise LineLimitError(f"this game already has {len(self._lines)} lines of play, the most allowed "
                                     f"here; play on at the end of a line, or follow a move already played")
            number, name = self._new_name() if branching else (0, "")
            first = line.position(self._root, n)
            dealt = None
            if branching and dealt_for is not None:
                people = sorted(set(shared_with) - {dealt_for})
                if people:
                    raise IllegalActionError("G5", (
                        f"{', '.join(first.seat_label(s) for s in people)} also "
                        f"{'plays' if len(people) == 1 else 'play'} this game: a new move in the past would "
                        f"deal them new cards, which would tell them yours; look back, or play on from the "
                        f"latest move"))
                dealt = self._redeal(first, dealt_for, number)
                first = dealt
            # Validate fully, then mutate: every move is played on copies first.
            states, evs = [], []
            st = first
            # Moves checked on the real position go on in a re-dealt world: checked again there.
            recheck = dealt_for is not None and (dealt is not None or bool(_seats(line, n)))
            for a in rest:
                st = st.clone()
                if recheck:
                    st.check(a, dealt_for)  # the same view, so the same legal moves (noninterference)
                evs.append(st.apply_checked(a))
                states.append(st)
            if branching:
                self._made = number
                new = Line(name, line, n, dealt=dealt, dealt_for=None if dealt is None else dealt_for)
                self._adopt(new, states[0])
                line = new
            line.states += states
            line.events += evs
            n += len(rest)
            events += [e for ev in evs for e in ev]
        self._line, self._cursor = line, n
        return events

    def _next(self, line: Line, n: int, text: str, dealt_for: int | None = None) -> tuple[Line, int] | None:
        """Where the move ``text`` after ``n`` actions of ``line`` already leads, if it was played there
        (for a seated player's move, ``dealt_for``: on this line, or a branch re-dealt for that seat)."""
        if n < line.length and str(line.position(self._root, n + 1).last_move) == text:
            return line, n + 1  # the same move already follows on this line
        child = line.children.get((n, text, dealt_for))
        return None if child is None else (child, n + 1)  # ... or starts a branch from here

    def _new_name(self) -> tuple[int, str]:
        number = self._made + 1
        while f"branch-{number}" in self._lines:
            number += 1
        return number, f"branch-{number}"

    def _redeal(self, position: State, seat: int, number: int) -> State:
        """The start of branch ``number``, re-dealt for ``seat``: ``position`` with every card the
        seat has not seen dealt again. Built from its position text and seed, exactly as a replay
        rebuilds it."""
        rng = random.Random(f"cardwidgets/redeal/{self._root.seed}/{number}")
        world = position.sample_world(seat, rng)
        start = dealt_start(world.to_position(), world.seed, position.move_count)
        if start.view(seat) != position.view(seat):  # an engine's bug: never show the seat another position
            raise RuntimeError(f"{position.game}: the re-dealt position does not look to seat "
                               f"{position.seat_label(seat)} as the position it was dealt from")
        return start

    def _adopt(self, line: Line, first: State | None) -> None:
        """Register a new line (``first``: the position after its first own move)."""
        self._lines[line.name] = line
        if line.parent is not None and first is not None:
            line.parent.children.setdefault((line.start, str(first.last_move), line.dealt_for), line)

    # ------------------------------------------------------------------ replays
    def to_replay(self) -> Replay:
        """Every line and note, whatever the cursor (linear in the number of actions)."""
        rep = Replay.from_state(self.position(self._main.length, MAIN), dict(self._main.notes), root=self._root)
        for ln in self._lines.values():
            if ln is self._main:
                continue
            dealt = ln.dealt
            rep.branches.append(Branch(ln.name, ln.parent_name or MAIN, ln.start, ln.moves(), dict(ln.notes),
                                       position=None if dealt is None else dealt._origin,
                                       seat=ln.dealt_for, seed=None if dealt is None else dealt.seed))
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
        # The export is a layer above the core (it reads the built front end and the rules
        # reference): the core finds it through its registry and never imports it.
        return provider("html")(self, path, seat)

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


def _seats(line: Line, n: int) -> frozenset[int]:
    """The seats whose re-deals position ``n`` of ``line`` comes from (see ``Line.seats``)."""
    own = line.owner(n)
    return frozenset() if own is None else own.seats
