"""Replay files: a game is its options, seed (or hand-built start) and actions.

The format is JSON with one action per line, so diffs and error lines read well::

    {"format": "cardwidgets-replay", "version": 2, "game": "depot", "engine_version": 1,
     "options": {"players": 4, "games": 3}, "seed": 7, "deck": null, "position": null,
     "actions": [
      "play 5",
      "pass take 3"
     ],
     "notes": {"1": "B could have played 6 here"},
     "branches": [
      {"name": "branch-1", "parent": "main", "from": 1, "actions": ["play 6"], "notes": {}}
     ]}

``options`` holds ``players`` (and ``mode`` for games that have several), the
options that differ from their defaults, and ``names`` when the players have names. ``deck`` (the first deal's card order)
or ``position`` (a hand-built start: position text as ``State.to_position`` writes
it, or an object as ``State.to_dict`` does) replaces the shuffle; the seed then
deals the position's unknown parts and every later shuffle. ``notes`` comment
on actions by index. ``branches`` are other lines of
play: each shares its first ``from`` actions with its ``parent`` line. A branch a
seated player started in the past (see :meth:`~cardwidgets.Timeline.step`) is
*re-dealt*: it also gives ``"seat"`` (whom it was dealt for), ``"seed"`` and
``"position"`` (position text), and its actions go on from that position, which
must look to that seat exactly as the parent's position after ``from`` actions.
``engine_version`` is the rules version the game was recorded under; version 1
files (no branches, no position) still load.

``chance`` (format version 3, written only when present) holds the game's chance decisions
instead of its seed's: a list with, per decision in the order the engine makes them, the
permutation a shuffle applied (``new[i] = old[p[i]]``, see :class:`~cardwidgets.core.rng.Recorded`)
or the int a random choice drew. A game played by another implementation (the compiled fast
lane of ``cardwidgets.fast``) is saved this way, and the reference engine plays it exactly;
the seed draws any decision after the recorded ones.

Loading checks everything and reports the first problem as a :class:`ReplayError`
with its line in the file, and for an action its index and the rule that refuses
it, in time linear in the size of the file. ``options`` hold ``players``, ``mode``
and the game's options only, and next to a ``position`` they must say what the
position holds (a saved state also fixes the ``seed``). No line of play may be longer
than the game's declared bound (``SPEC.max_actions``, rule G4), and whatever the
engine raises while setting up or playing a line is reported the same way, naming
the line. The same input gives the same states and the same bytes back.

Limits, each refused with a ``ReplayError`` before anything is played: at most
``MAX_BYTES`` (64 MiB) of text are read, from a pipe as from a file; JSON nested
at most ``MAX_DEPTH`` (64) levels; at most ``MAX_ACTIONS`` (100,000) actions over all
the lines of play of a file, the main line and every branch (each action played keeps a
position: about 2 KB and 80 microseconds each in a Depot match, which is a few thousand actions
long). No key may be given twice in an object, and no text may hold a lone surrogate
(a ``\\ud800`` escape with no pair, which a UTF-8 file cannot hold). The error names the
first bad line of the file, whichever check finds it.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import registry
from .errors import IllegalActionError, InvalidActionError, has_lone_surrogate, quote, show
from .rng import Recorded
from .spec import GameSpec, json_safe
from .state import State, check_names

FORMAT = "cardwidgets-replay"
#: The format version of a file without recorded chance (older readers read it too).
VERSION = 2
#: The format version of a file with recorded chance decisions (``"chance"``).
CHANCE_VERSION = 3
#: Files larger than this are refused before parsing.
MAX_BYTES = 64 * 1024 * 1024
#: JSON nested deeper than this is refused (a replay is 4 levels deep; a position ~8).
MAX_DEPTH = 64
#: Files holding more actions than this over all their lines of play (the main line and every
#: branch) are refused before any is played: each action played keeps a position. A long Depot
#: match is a few thousand actions.
MAX_ACTIONS = 100_000
_KEYS = {"format", "version", "game", "engine_version", "options", "seed", "deck", "position", "chance",
         "actions", "notes", "branches"}
#: The keys that set a game up (and say nothing of its actions).
_HEAD = _KEYS - {"actions", "notes", "branches"}
_BRANCH_KEYS = {"name", "parent", "from", "seat", "seed", "position", "actions", "notes"}
#: The keys of a re-dealt branch (a seated player's move in the past), given together.
_DEALT_KEYS = {"seat", "seed", "position"}


class ReplayError(ValueError):
    """A replay file or record that cannot be loaded.

    ``line`` (1-based, in the file; ``None`` when not read from text), ``index`` (of
    the bad action, or ``None``) and ``rule`` (when an action was illegal) locate the
    problem; ``branch`` names the line of play when it is not the main one.
    """

    def __init__(self, message: str, *, line: int | None = None, index: int | None = None,
                 rule: str | None = None, branch: str | None = None) -> None:
        self.line, self.index, self.rule, self.branch = line, index, rule, branch
        where = f"line {line}: " if line is not None else ""
        super().__init__(where + message)


@dataclass
class Branch:
    """Another line of play: its first ``start`` actions are those of ``parent``.

    A branch that a seated player started in the past is *re-dealt*: it goes on from
    ``position`` (position text, with ``seed`` for its later shuffles) rather than from
    the parent's position, a position that looks the same to ``seat`` (see
    :meth:`~cardwidgets.Timeline.step`). The three are ``None`` for an exact branch.
    """

    name: str
    parent: str
    start: int
    actions: list[str] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    _lines: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    position: str | None = None
    seat: int | None = None
    seed: int | None = None


class Line:
    """One line of play in a tree of positions (a replay's lines, a timeline's lines).

    ``states[i]`` follows ``start + i + 1`` actions and ``events[i]`` is what led to it;
    the first ``start`` positions are those of ``parent`` (``None``: the main line).
    ``notes`` maps action indexes of the line's own part to comments. A re-dealt line
    (``dealt``, dealt for the seat ``dealt_for``) plays its own part from ``dealt``, a
    position that seat cannot tell from the parent's position at ``start``; position
    ``start`` itself is the parent's.

    Looking a position up walks from a line towards the main line. So that this costs
    O(log lines) whatever the shape of the tree (a file can hold a chain of thousands
    of branches, each the child of the last), each line keeps ``base``, the line whose
    own part holds its branch point, and a skip pointer ``jump`` along the bases
    (E. W. Myers' jump pointers: following them halves the distance left, roughly).
    """

    __slots__ = ("name", "parent", "start", "states", "events", "notes", "base", "jump", "depth", "children",
                 "dealt", "dealt_for", "seats")

    def __init__(self, name: str, parent: "Line | None", start: int, notes: dict[int, str] | None = None,
                 dealt: State | None = None, dealt_for: int | None = None) -> None:
        self.name, self.parent, self.start = name, parent, start
        self.dealt, self.dealt_for = dealt, dealt_for
        self.states: list[State] = []
        self.events: list[list[Any]] = []
        self.notes: dict[int, str] = dict(notes or {})
        #: Lines started from this one: (branch point, first move, seat it was dealt for) -> line.
        self.children: dict[tuple[int, str, int | None], Line] = {}
        base = None if parent is None else parent.owner(start)
        self.base = base
        #: The seats whose re-deals the positions of this line's own part come from (empty: the
        #: real deal): a re-dealt line, and every line drawn on from it, is for those eyes only.
        self.seats: frozenset[int] = base.seats if base is not None else frozenset()
        if dealt is not None and dealt_for is not None:
            self.seats |= {dealt_for}
        self.depth = 0 if base is None else base.depth + 1
        # Myers' rule: jump two of the parent's jumps at once when their spans are equal.
        j = None if base is None else base.jump
        if j is not None and j.jump is not None and base.depth - j.depth == j.depth - j.jump.depth:  # type: ignore[union-attr]
            self.jump: Line | None = j.jump
        else:
            self.jump = base

    @property
    def length(self) -> int:
        """The number of actions of this line (its shared part included)."""
        return self.start + len(self.states)

    @property
    def parent_name(self) -> str | None:
        return None if self.parent is None else self.parent.name

    def owner(self, n: int) -> "Line | None":
        """The line whose own part holds position ``n`` of this line (``None``: the start)."""
        ln: Line | None = self
        # Along the bases the branch points strictly decrease, so a jump whose target
        # still starts at or after n skips only lines that do too.
        while ln is not None and n <= ln.start:
            j = ln.jump
            ln = j if j is not None and n <= j.start else ln.base
        return ln

    def position(self, root: State, n: int) -> State:
        """The position after ``n`` actions of this line (``0 <= n <= length``)."""
        ln = self.owner(n)
        return root if ln is None else ln.states[n - ln.start - 1]

    def moves(self) -> list[str]:
        """The notation of the line's own actions (its shared part excluded)."""
        return [str(st.last_move) for st in self.states]

    def first(self, root: State) -> State:
        """The position the line's own part starts from (its re-dealt one, if any)."""
        return self.dealt if self.dealt is not None else self.position(root, self.start)

    def __repr__(self) -> str:
        return f"<Line {self.name!r} from {self.start} of {self.parent_name!r}, {self.length} actions>"


@dataclass
class Replay:
    """A reproducible game record. ``Replay.from_state(st).build()`` equals ``st``."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    deck: list[Any] | None = None
    notes: dict[int, str] = field(default_factory=dict)
    position: dict[str, Any] | str | None = None
    branches: list[Branch] = field(default_factory=list)
    engine_version: int | None = None
    chance: list[Any] | None = None
    _lines: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.engine_version is None:
            self.engine_version = registry.game_spec(self.game).version

    # ------------------------------------------------------------------ building
    @classmethod
    def from_state(cls, state: State, notes: dict[int, str] | None = None, *, root: State | None = None) -> "Replay":
        """The record of ``state``'s game (``root``: its starting position, if known)."""
        if state._sampled:
            raise ValueError("this is a world of sample_world (or a game played on from one): its seed and "
                             "history are not how it came about, so it has no replay")
        start = root if root is not None else state
        spec = state.SPEC
        options: dict[str, Any] = {"players": state.players}
        if len(spec.modes) > 1:
            options["mode"] = state.mode
        options.update(json_safe(spec.non_defaults(state.options)))
        if start.names is not None:
            options["names"] = list(start.names)
        return cls(
            game=state.game,
            options=options,
            seed=state.seed,
            actions=[str(a) for a in state.history],
            deck=None if start.deck_order is None else list(start.deck_order),
            notes=dict(notes or {}),
            position=None if start._origin is None else start._origin,
            engine_version=spec.version,
            chance=start._chance.to_list() if isinstance(start._chance, Recorded) else None,
        )

    def new_state(self) -> State:
        """The starting position, checked against the header (``ReplayError`` if it does not fit)."""
        try:
            spec = registry.game_spec(self.game)
        except ValueError as e:
            raise ReplayError(str(e), line=self._key_line("game")) from None
        self._check_options(spec)
        if self.position is not None:
            st = self._load_position()
            self._check_agreement(st)
            return st
        kwargs = dict(self.options)
        if self.deck is not None:
            kwargs["deck"] = list(self.deck)
        if self.chance is not None:
            try:
                kwargs["chance"] = Recorded(self.chance)
            except ValueError as e:
                raise ReplayError(f'"chance": {e}', line=self._key_line("chance")) from None
        try:
            return registry.game_module(self.game).new_game(seed=self.seed, **kwargs)
        except Exception as e:  # noqa: BLE001 - whatever the engine raises is a bad file here
            key = ("deck" if self.deck is not None and "deck" in str(e) else
                   "chance" if self.chance is not None and "chance" in str(e) else "options")
            raise ReplayError(f"cannot set up the game: {_failure(e)}", line=self._key_line(key)) from None

    def _load_position(self) -> State:
        mod = registry.game_module(self.game)
        line = self._key_line("position")
        if isinstance(self.position, str):
            try:
                return mod.from_position(self.position, self.seed)
            except Exception as e:  # noqa: BLE001 - PositionError, or an engine's own failure
                raise ReplayError(f"the position text cannot be set up: {_failure(e)}", line=line) from None
        if not isinstance(self.position, dict):
            raise ReplayError('"position" must be position text or an object', line=line)
        data = dict(self.position)
        version = data.get("version", self.engine_version)
        if version != self.engine_version:
            raise ReplayError(f"the position was saved under rules version {show(version)}, the replay under "
                              f"{self.engine_version}", line=line)
        data["history"] = []
        try:
            st = mod.from_dict(data)
        except Exception as e:  # noqa: BLE001
            raise ReplayError(f"the hand-built position cannot be set up: {_failure(e)}", line=line) from None
        st._origin = self.position  # the start of this game is that position
        return st

    def _check_options(self, spec: GameSpec) -> None:
        """``options`` holds ``players``, ``mode``, ``names`` and the game's options, nothing else."""
        if not isinstance(self.options, dict):
            raise ReplayError('"options" must be an object', line=self._key_line("options"))
        known = {"players", "mode", "names", *(o.name for o in spec.options)}
        for key in self.options:
            if key == "deck":
                raise ReplayError('"options" holds a deck: the first deal\'s card order goes in the replay\'s '
                                  '"deck" (next to "seed"), not in "options"', line=self._key_line("options"))
            if key not in known:
                raise ReplayError(f"unknown option {show(key)} in \"options\"; {spec.title} options: "
                                  f"{', '.join(sorted(known))}", line=self._key_line("options"))

    def _check_agreement(self, st: State) -> None:
        """A hand-built start fixes players, mode and options (and a saved state its seed):
        the header must say the same, or the file contradicts itself."""
        spec = st.SPEC
        line = self._key_line("options")
        given = dict(self.options)
        players, mode = given.pop("players", None), given.pop("mode", None)
        names = given.pop("names", None)
        try:
            mode_name, n, options = spec.resolve(players, mode, given)
            names = check_names(names, n, type(st).RESERVED_LABELS)
        except (TypeError, ValueError) as e:
            raise ReplayError(f'"options" do not describe a game: {e}', line=line) from None
        said = {"players": n, "mode": mode_name, **options, "names": names}
        has = {"players": st.players, "mode": st.mode, **st.options, "names": st.names}
        for key in dict.fromkeys([*said, *has]):
            if _canonical(said.get(key)) != _canonical(has.get(key)):
                raise ReplayError(f'"options" say {key}={show(said.get(key))} but the position has '
                                  f"{key}={show(has.get(key))}", line=line)
        if isinstance(self.position, dict) and st.seed != self.seed:
            raise ReplayError(f'"seed" is {show(self.seed)} but the position was saved with seed {show(st.seed)}',
                              line=self._key_line("seed"))

    def _bound(self, root: State) -> int | None:
        """The most actions any line of this game may hold (the game's declared bound)."""
        limit = root.SPEC.max_actions
        try:
            return None if limit is None else limit(root.players, root.options)
        except Exception as e:  # noqa: BLE001 - options a hand-built position brought
            raise ReplayError(f"the game's options give no length bound: {_failure(e)}",
                              line=self._key_line("position" if self.position is not None else "options")) from None

    def states(self) -> Iterator[State]:
        """The starting position, then a copy after every action of the main line."""
        st = self.new_state()
        too_long = self._length_problem("main", 0, self.actions, self._bound(st), None)
        yield st.clone()
        for i, text in enumerate(_within(self.actions, too_long)):
            self._apply(st, text, i, None)
            yield st.clone()
        if too_long is not None:
            raise too_long

    def build(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions of the main line (all by default)."""
        st = self.new_state()
        actions = self.actions[:upto]
        too_long = self._length_problem("main", 0, actions, self._bound(st), None)
        for i, text in enumerate(_within(actions, too_long)):
            self._apply(st, text, i, None)
        if too_long is not None:
            raise too_long
        return st

    def play(self) -> tuple[State, list[Line]]:
        """The starting position and every line checked and played, the main line first:
        ``ReplayError`` on the first problem. ``Timeline.from_replay`` builds on it.

        Linear in the number of actions (each branch point is found in O(log lines))."""
        root = self.new_state()
        bound = self._bound(root)
        if not isinstance(self.branches, list):
            raise ReplayError('"branches" must be a list', line=self._key_line("branches"))
        played: dict[str, Line] = {}
        entries = [("main", None, 0, self.actions, self.notes, self._lines, None)]
        for k, br in enumerate(self.branches):
            if not isinstance(br, Branch):
                raise ReplayError(f"branch #{k} is {show(br)}, not a Branch", line=self._key_line("branches"))
            entries.append((br.name, br.parent, br.start, br.actions, br.notes,
                            self._lines["branches"][k] if self._lines and k < len(self._lines["branches"]) else None,
                            br))
        for name, parent, start, actions, notes, lines, br in entries:  # br is None: the main line
            branch = None if br is None else name
            at = lines["line"] if lines and br is not None else self._key_line("actions")
            if not isinstance(actions, list):
                raise ReplayError('"actions" must be a list of action strings', line=at, branch=branch)
            if br is not None:
                if not isinstance(name, str) or name in played or not isinstance(parent, str) \
                        or parent not in played:
                    raise ReplayError(f"branch {show(name)}: the name must be new and the parent {show(parent)} "
                                      f"the main line or an earlier branch", line=at, branch=branch)
                length = played[parent].length
                if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= length:
                    raise ReplayError(f"branch {name!r} starts after action {show(start)}, but {parent!r} has "
                                      f"{length}", line=at, branch=name)
            too_long = self._length_problem(name, start, actions, bound, lines if br is not None else None)
            up = None if br is None else played[parent]
            dealt = None
            if br is not None and br.position is not None:
                dealt = self._dealt(br, up.position(root, start), at)  # type: ignore[union-attr]
            line = Line(name, up, start, notes, dealt, None if dealt is None else br.seat)  # type: ignore[union-attr]
            st = line.first(root)
            for i, text in enumerate(_within(actions, too_long)):
                st = st.clone()
                line.events.append(self._apply(st, text, i, branch, lines))
                line.states.append(st)
            if too_long is not None:
                raise too_long
            played[name] = line
        return root, list(played.values())

    def _dealt(self, br: Branch, base: State, at: int | None) -> State:
        """The start of a re-dealt branch, checked: it must look to its seat exactly as the parent's
        position there does (else the file would let that seat see what it never saw)."""
        def bad(msg: str) -> ReplayError:
            return ReplayError(f"branch {br.name!r}: {msg}", line=at, branch=br.name)

        seat, seed, text = br.seat, br.seed, br.position
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < base.players:
            raise bad(f'"seat" must be the seat it was dealt for (0 to {base.players - 1}), got {show(seat)}')
        if isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**64:
            raise bad(f'"seed" must be an integer of at most 64 bits, got {show(seed)}')
        if not isinstance(text, str):
            raise bad(f'"position" must be position text, got {show(text)}')
        try:
            start = dealt_start(text, seed, base.move_count)
        except Exception as e:  # noqa: BLE001 - PositionError, or an engine's own failure
            raise bad(f"the re-dealt position cannot be set up: {_failure(e)}") from None
        said = (start.game, start.mode, start.players, _canonical(start.options))
        has = (base.game, base.mode, base.players, _canonical(base.options))
        if said != has:
            raise bad(f"the re-dealt position is not a position of this game ({start.game}, {start.players} "
                      f"players, mode {start.mode}, options {_canonical(start.options)})")
        if start.view(seat) != base.view(seat):
            raise bad(f"the re-dealt position does not look to seat {base.seat_label(seat)} as the position after "
                      f"{br.start} actions of {br.parent!r} does: a re-deal changes only cards that seat has not seen")
        return start

    def _length_problem(self, name: str, start: int, actions: list[Any], bound: int | None,
                        lines: Any) -> ReplayError | None:
        """The refusal of a line that runs past the game's bound, at its first action past it
        (``None``: within it). The line's actions before that one are played first, so that
        an earlier problem is reported first (see :func:`_within`), and no more."""
        if bound is None or start + len(actions) <= bound:
            return None
        i = max(0, bound - start)
        branch = None if name == "main" else name
        if lines is None and branch is None:
            lines = self._lines
        where = f"action #{i}" if branch is None else f"branch {branch!r} action #{i}"
        at = lines["actions"][i] if lines and i < len(lines.get("actions") or ()) else None
        return ReplayError(f"{where}: the line holds {start + len(actions):,} actions, but a {self.game} game "
                           f"with these options ends within {bound:,} (rule G4)", line=at, index=i, rule="G4",
                           branch=branch)

    def _apply(self, st: State, text: Any, i: int, branch: str | None, lines: Any = None) -> list:
        if lines is None and branch is None:
            lines = self._lines
        line = None
        if lines and i < len(lines.get("actions") or ()):
            line = lines["actions"][i]
        where = f"action #{i}" if branch is None else f"branch {branch!r} action #{i}"
        if not isinstance(text, str):
            raise ReplayError(f"{where} is {show(text)}, not action text", line=line, index=i, branch=branch)
        try:
            plan = st.plan(text)
        except InvalidActionError as e:
            raise ReplayError(f"{where} {quote(text)} is malformed: {e}", line=line, index=i, branch=branch) from None
        except IllegalActionError as e:
            raise ReplayError(f"{where} {quote(text)}: {e}", line=line, index=i, rule=e.rule,
                              branch=branch) from None
        except Exception as e:  # noqa: BLE001 - an engine failing on a hand-built position
            raise ReplayError(f"{where} {quote(text)} cannot be checked: {_failure(e)}", line=line, index=i,
                              branch=branch) from None
        if len(plan) != 1:
            raise ReplayError(f"{where} {quote(text)} stands for {len(plan)} actions; a replay lists one action "
                              f"per entry: " + ", ".join(map(str, plan)), line=line, index=i, branch=branch)
        try:
            return st.apply_checked(plan[0])
        except Exception as e:  # noqa: BLE001
            raise ReplayError(f"{where} {quote(text)} cannot be played: {_failure(e)}", line=line, index=i,
                              branch=branch) from None

    # ------------------------------------------------------------------ text
    def to_json(self) -> str:
        """Deterministic JSON text, one action per line."""
        head = {"format": FORMAT, "version": VERSION if self.chance is None else CHANCE_VERSION, "game": self.game,
                "engine_version": self.engine_version, "options": self.options, "seed": self.seed, "deck": self.deck,
                "position": self.position}
        if self.chance is not None:  # only then: files without it stay readable by older versions
            head["chance"] = self.chance
        parts = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
        parts.append(' "actions": ' + _lines_array(self.actions, "  ") + ",")
        parts.append(' "notes": ' + json.dumps(_notes_json(self.notes), ensure_ascii=False) + ",")
        if self.branches:
            rows = []
            for b in self.branches:
                head = {"name": b.name, "parent": b.parent, "from": b.start}
                if b.position is not None:
                    head.update(seat=b.seat, seed=b.seed, position=b.position)
                rows.append("  " + json.dumps(head, ensure_ascii=False)[:-1]
                            + ', "actions": ' + _lines_array(b.actions, "    ")
                            + ', "notes": ' + json.dumps(_notes_json(b.notes), ensure_ascii=False) + "}")
            parts.append(' "branches": [\n' + ",\n".join(rows) + "\n ]}")
        else:
            parts.append(' "branches": []}')
        return "\n".join(parts) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes, *, validate: bool = True) -> "Replay":
        """Parse replay text (or UTF-8 bytes); with ``validate`` also replay every action."""
        if isinstance(text, (bytes, bytearray)):
            text = _decode(bytes(text))
        if not isinstance(text, str):
            raise ReplayError(f"a replay is JSON text, got {type(text).__name__}")
        if len(text) > MAX_BYTES:
            raise ReplayError(f"the replay is {len(text):,} characters; at most {MAX_BYTES:,} are read")
        deep = _too_deep(text)
        if deep is not None:
            raise ReplayError(f"the JSON is nested more than {MAX_DEPTH} levels deep", line=deep)
        try:
            # A key given twice keeps its first value, the one whose lines _locate records;
            # _from_data then refuses the file at the second.
            data = json.loads(text, object_pairs_hook=_FirstPairs())
        except json.JSONDecodeError as e:
            raise ReplayError(f"not valid JSON: {e.msg}", line=e.lineno) from None
        except (ValueError, RecursionError) as e:  # an int of thousands of digits
            # The lookbehind starts a run of digits only at its first digit: linear.
            m = re.search(r"(?<!\d)\d{4000,}", text)
            line = text.count("\n", 0, m.start()) + 1 if m else None
            raise ReplayError(f"not a usable number in the JSON ({quote(str(e), 60)})", line=line) from None
        lines = _locate(text)
        try:
            rep = cls._from_data(data, lines)
        except ReplayError as e:
            raise (cls._first_problem(data, lines, e) if validate else e) from None
        if validate:
            rep.play()
        return rep

    @classmethod
    def _first_problem(cls, data: Any, lines: dict[str, Any] | None, err: ReplayError) -> ReplayError:
        """The file's first problem: ``err`` or one on an earlier line.

        ``err`` was found by a check of the file's structure, and these checks do not go in the
        file's order (all the keys are checked before any action is played). So the part of
        the file before ``err``'s line is checked on its own, and played: a problem it has lies
        earlier. A structural one is searched again the same way; each round finds a problem of
        another kind of check, so there are few rounds, each linear in the file. The part
        played holds at most ``MAX_ACTIONS`` actions (the part has passed that check too).
        """
        if lines is None:
            return err
        # The first key given twice, if any, is checked first: it is err itself, and every part
        # searched lies before it.
        lines = {**lines, "duplicate": None}
        while err.line is not None:
            try:
                part = cls._from_data(_before(data, lines, err.line), lines)
            except ReplayError as e:
                if e.line is None or e.line >= err.line:
                    return err
                err = e
                continue
            try:
                part.play()  # plays the lines in the file's order: its first problem is the first
            except ReplayError as e:
                if e.line is not None and e.line < err.line:
                    return e
            return err
        return err

    @classmethod
    def _from_data(cls, data: Any, lines: dict[str, Any] | None = None) -> "Replay":
        """A replay from parsed JSON, every key checked (``lines``: where they stand in the
        text, from :func:`_locate`; ``None``: not read from text)."""
        keys = lines["keys"] if lines else {}

        def bad(msg: str, key: str | None = None) -> ReplayError:
            return ReplayError(msg, line=keys.get(key, 1) if lines else None)

        if not isinstance(data, dict):
            raise bad("a replay is a JSON object")
        if lines and lines.get("duplicate"):
            line, what = lines["duplicate"]
            raise ReplayError(f"{what} is given twice: JSON would keep one and drop the other, unseen", line=line)
        unknown = sorted(set(data) - _KEYS, key=lambda k: (keys.get(k, 1), k))
        if unknown:
            raise bad(f"unknown key {quote(unknown[0])}; a replay has: {', '.join(sorted(_KEYS))}", unknown[0])
        if lines is None or lines.get("surrogates"):
            _check_text(data, lines)
        if data.get("format") != FORMAT:
            raise bad(f'"format" must be {FORMAT!r}, got {show(data.get("format"))}', "format")
        version = data.get("version")
        if version not in (1, 2, CHANCE_VERSION) or isinstance(version, bool):
            raise bad(f'unsupported "version" {show(version)}; this library reads versions 1 to {CHANCE_VERSION}',
                      "version")
        game = data.get("game")
        if not isinstance(game, str) or game not in registry.available_games():
            raise bad(f'unknown "game" {show(game)}; available: {", ".join(registry.available_games())}',
                      "game")
        spec = registry.game_spec(game)
        engine = data.get("engine_version", 1)
        if isinstance(engine, bool) or not isinstance(engine, int):
            raise bad(f'"engine_version" must be an integer, got {show(engine)}', "engine_version")
        if engine != spec.version:
            raise bad(f"recorded under {spec.title} rules version {engine}; this library plays version "
                      f"{spec.version}, which would replay it differently", "engine_version")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise bad('"options" must be an object', "options")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**64:
            raise bad(f'"seed" must be an integer of at most 64 bits, got {show(seed)}', "seed")
        deck = data.get("deck")
        if deck is not None and not isinstance(deck, list):
            raise bad('"deck" must be a list of cards or null', "deck")
        position = data.get("position")
        if position is not None and (version == 1 or not isinstance(position, (dict, str))):
            raise bad('"position" must be position text or an object (a hand-built start, replay version 2) '
                      'or null', "position")
        if position is not None and deck is not None:
            raise bad('give "deck" or "position", not both', "position")
        chance = data.get("chance")
        if chance is not None:
            if version != CHANCE_VERSION:
                raise bad(f'"chance" needs replay version {CHANCE_VERSION}', "chance")
            if position is not None:
                raise bad('give "chance" or "position", not both: a hand-built start has no recorded deal',
                          "chance")
            try:
                chance = Recorded(chance).to_list()
            except ValueError as e:
                raise bad(f'"chance": {e}', "chance") from None
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise bad('"actions" must be a list of action strings', "actions")
        notes = _notes(data.get("notes", {}), len(actions), lambda m: bad(m, "notes"))
        branches = []
        raw = data.get("branches", [])
        if not isinstance(raw, list) or (raw and version == 1):
            raise bad('"branches" must be a list (replay version 2)', "branches")
        names = {"main"}
        for k, b in enumerate(raw):
            blines = lines["branches"][k] if lines and k < len(lines["branches"]) else None

            def bbad(msg: str) -> ReplayError:
                return ReplayError(f"branch #{k}: {msg}", line=blines["line"] if blines else None)

            if not isinstance(b, dict) or set(b) - _BRANCH_KEYS or not {"name", "from", "actions"} <= set(b):
                raise bbad('a branch is {"name", "parent", "from", "actions", "notes"} (and "seat", "seed", '
                           '"position" when it was re-dealt)')
            name, parent, start = b["name"], b.get("parent", "main"), b["from"]
            if not isinstance(name, str) or not name or len(name) > 80 or name in names:
                raise bbad(f"the name {show(name)} is not a new, non-empty name of at most 80 characters")
            if not isinstance(parent, str) or parent not in names:  # a list cannot even be looked up
                raise bbad(f"the parent {show(parent)} is not the main line or an earlier branch")
            if isinstance(start, bool) or not isinstance(start, int) or start < 0:
                raise bbad(f'"from" must be a count of actions, got {show(start)}')
            if not isinstance(b["actions"], list):
                raise bbad('"actions" must be a list of action strings')
            dealt = _DEALT_KEYS & set(b)
            if dealt and dealt != _DEALT_KEYS:
                raise bbad('a re-dealt branch gives "seat", "seed" and "position" together')
            names.add(name)
            branches.append(Branch(name, parent, start, b["actions"],
                                   _notes(b.get("notes", {}), start + len(b["actions"]), bbad, low=start),
                                   blines, b.get("position"), b.get("seat"), b.get("seed")))
        _check_total(actions, branches, lines)
        rep = cls(game=game, options=options, seed=seed, actions=actions, deck=deck, notes=notes,
                  position=position, branches=branches, engine_version=engine, chance=chance)
        rep._lines = lines
        rep._check_options(spec)
        return rep

    def _key_line(self, key: str) -> int | None:
        return self._lines["keys"].get(key, 1) if self._lines else None

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` as UTF-8."""
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, *, validate: bool = True) -> "Replay":
        """Read a replay file (UTF-8); every problem is a :class:`ReplayError`."""
        p = Path(path)
        # One byte more than the limit, whatever the file is: a pipe, /dev/stdin or /dev/zero
        # says its size is 0, so the size cannot be asked first.
        with p.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ReplayError(f"{p.name} holds more than {MAX_BYTES:,} bytes; at most {MAX_BYTES:,} are read")
        return cls.from_json(data, validate=validate)

    def to_html(self, path: str | Path, seat: int | None = None) -> Path:
        """Write every line of this game as one self-contained page that plays without Python,
        each position as ``seat`` sees it (``None``: the teacher view); see
        :meth:`Timeline.to_html <cardwidgets.core.timeline.Timeline.to_html>`. The page holds no
        seed, no deck order and no action list. Raises :class:`ReplayError` for a bad replay."""
        return registry.provider("html")(self, path, seat)

    def fork(self, upto: int) -> "Replay":
        """A copy keeping only the first ``upto`` actions of the main line (and their notes)."""
        return Replay(self.game, dict(self.options), self.seed, list(self.actions[:upto]),
                      None if self.deck is None else list(self.deck),
                      {k: v for k, v in self.notes.items() if k < upto}, self.position,
                      engine_version=self.engine_version,
                      chance=None if self.chance is None else list(self.chance))


# --------------------------------------------------------------------------- re-dealt lines
def dealt_start(text: str, seed: int, moves: int) -> State:
    """The start of a re-dealt line: position ``text``, with ``seed`` for its later shuffles,
    ``moves`` actions into the game. The actions before it are not kept (they may name cards
    that were dealt again): its ``history`` holds the line's own actions only."""
    from .position import from_position

    st = from_position(text, seed)
    st._history = None
    st._moves = moves
    return st


# --------------------------------------------------------------------------- helpers
def _lines_array(items: list[str], indent: str) -> str:
    if not items:
        return "[]"
    body = ",\n".join(indent + json.dumps(a, ensure_ascii=False) for a in items)
    return "[\n" + body + "\n" + indent[:-1] + "]"


def _notes_json(notes: dict[int, str]) -> dict[str, str]:
    return {str(k): v for k, v in sorted(notes.items())}


def _notes(raw: Any, limit: int, bad: Any, low: int = 0) -> dict[int, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        return _raise(bad('"notes" must be an object {action index: text}'))
    out = {}
    for k, v in raw.items():
        if not _is_index(k) or not isinstance(v, str):
            return _raise(bad(f'"notes" entry {show(k)}: keys are action indexes, values text'))
        if not low <= int(k) < limit:
            return _raise(bad(f'"notes" entry {k}: there is no action #{k} on that line'))
        out[int(k)] = v
    return out


def _is_index(key: Any) -> bool:
    """Whether a key of "notes" is an action index (isascii: "²".isdigit() is true, but int("²") fails)."""
    return isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 9


def _check_total(actions: list[Any], branches: list[Branch], lines: dict[str, Any] | None) -> None:
    """At most MAX_ACTIONS actions over all the lines of play of a file, refused before any is
    played, at the action where the total passes the limit in the file's order.

    Every action played keeps a position, and every line a file may hold is bounded only by the
    game (rule G4): a 16 MB file of 600 branches, each replaying a long game, held 968k actions
    and took 135 s and 2.2 GB to load."""
    total = len(actions) + sum(len(b.actions) for b in branches)
    if total <= MAX_ACTIONS:
        return
    # (branch name, actions, their lines) of each line of play, sorted to the file's order.
    blocks = [(None, len(actions), lines["actions"] if lines else None)]
    blocks += [(b.name, len(b.actions), b._lines["actions"] if b._lines else None) for b in branches]
    blocks.sort(key=lambda block: block[2][0] if block[2] else 0)
    left = MAX_ACTIONS
    for name, count, at in blocks:
        if count > left:
            where = f"action #{left}" if name is None else f"branch {name!r} action #{left}"
            raise ReplayError(f"{where}: the file holds {total:,} actions over all its lines of play; at most "
                              f"{MAX_ACTIONS:,} are loaded", line=at[left] if at and left < len(at) else None,
                              index=left, branch=name)
        left -= count


def _within(actions: list[Any], too_long: ReplayError | None) -> list[Any]:
    """The actions of a line to play: all of them, or those before the first past the bound."""
    return actions if too_long is None else actions[:too_long.index]


def _before(data: dict[str, Any], lines: dict[str, Any], stop: int) -> dict[str, Any]:
    """The part of replay data that lies before line ``stop`` (see ``Replay._first_problem``).

    The header keys wherever they stand (their own problems name their own lines), the other
    keys that start before ``stop``, and of the actions and branches those that start before
    it; a note is dropped when its action is (a bad note stays, to be found)."""
    keys = lines["keys"]
    part = {k: v for k, v in data.items() if k in _HEAD or keys.get(k, 1) < stop}
    kept = cut = 0
    if isinstance(part.get("actions"), list):
        kept, cut = bisect.bisect_left(lines["actions"], stop), len(part["actions"])
        part["actions"] = part["actions"][:kept]
    if "notes" in part:
        part["notes"] = _notes_before(part["notes"], kept, cut)
    if keys.get("branches", 0) < keys.get("actions", 0):
        part.pop("branches", None)  # before the main line in the file: not played before it
    if isinstance(part.get("branches"), list):
        branches = []
        for b, at in zip(part["branches"], lines["branches"]):
            if at["line"] >= stop:
                break
            if isinstance(b, dict) and isinstance(b.get("actions"), list):
                n, cut = bisect.bisect_left(at["actions"], stop), len(b["actions"])
                b = {**b, "actions": b["actions"][:n]}
                start = b.get("from")
                if "notes" in b and isinstance(start, int):
                    b["notes"] = _notes_before(b["notes"], start + n, start + cut)
            branches.append(b)
        part["branches"] = branches
    return part


def _notes_before(notes: Any, kept: int, cut: int) -> Any:
    """``notes`` without those on the actions ``kept`` to ``cut`` (dropped from the part)."""
    if not isinstance(notes, dict):
        return notes
    return {k: v for k, v in notes.items() if not (_is_index(k) and kept <= int(k) < cut)}


# The JSON escape that can make a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_text(data: dict[str, Any], lines: dict[str, Any] | None) -> None:
    """Refuse text holding a lone surrogate (``"\\ud800"`` in JSON, with no pair): such a file
    loads, but UTF-8 cannot write it, so saving or exporting it fails. ``check_names`` refuses
    them in player names the same way (Unicode category Cs); here it is any text of the file."""
    keys = lines["keys"] if lines else {}
    for key, value in data.items():
        if key in ("actions", "branches") and isinstance(value, list):
            what = "action" if key == "actions" else "branch"
            at = (lines["actions"] if key == "actions" else [b["line"] for b in lines["branches"]]) if lines else []
            for i, item in enumerate(value):
                if has_lone_surrogate(item):
                    raise ReplayError(f"{what} #{i} holds a lone surrogate (a \\ud800 to \\udfff escape with no "
                                      f"pair), which no UTF-8 file can hold", line=at[i] if i < len(at) else None)
        elif has_lone_surrogate(value):
            raise ReplayError(f'"{key}" holds a lone surrogate (a \\ud800 to \\udfff escape with no pair), which '
                              f"no UTF-8 file can hold", line=keys.get(key, 1) if lines else None)


class _FirstPairs:
    """A JSON object hook that keeps the first value of a key given twice and counts such keys
    (``json.loads`` would keep the last, while ``_locate`` records the lines of the first)."""

    def __init__(self) -> None:
        self.twice = 0

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                self.twice += 1
            else:
                out[key] = value
        return out


def _raise(e: Exception) -> Any:
    raise e


def _failure(e: Exception) -> str:
    """An engine's refusal as it reads (a ValueError), anything else named as the engine's failure."""
    text = _clip(str(e), 300)
    return text if isinstance(e, ValueError) else f"the engine failed ({type(e).__name__}: {_clip(text, 120)})"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _canonical(value: Any) -> str:
    """Options compared as JSON text: 1 and True, (1, 2) and [1, 2] differ or agree as JSON says."""
    return json.dumps(json_safe(value), sort_keys=True)


def _decode(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00"):
        raise ReplayError("the file is UTF-16/UTF-32 text; a replay is UTF-8 (save it again as UTF-8)", line=1)
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ReplayError(f"not UTF-8 text: byte 0x{data[e.start]:02x} cannot be decoded (save the replay as "
                          f"UTF-8)", line=line) from None


# The brackets that nest, and the quote that opens a string.
_STRUCTURE = re.compile(r'["\[\]{}]')
# A string's body from where the last match stopped: a run of plain characters, then at most
# 4096 escapes each with the plain run after it. CPython's sre keeps a backtracking frame per
# repetition of a group (not of a single character class), so an unbounded
# ``(?:[^"\\]|\\.)*`` held one frame per character of the string: 7 GB for a 60 MB note. The
# bound keeps the frames few whatever the string holds; a string of more escapes takes one more
# match per 4096 of them.
_STRING_PART = re.compile(r'[^"\\]*(?:\\.[^"\\]*){0,4096}', re.S)


def _too_deep(text: str) -> int | None:
    """The line where brackets first nest deeper than MAX_DEPTH, outside strings (None: fine).

    Linear in time, constant in memory (see ``_STRING_PART``)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    m = _STRUCTURE.search(text)
    while m is not None:
        tok, pos = m.group(), m.end()
        if tok == '"':
            while True:  # to the quote that ends the string
                end = _STRING_PART.match(text, pos).end()
                if end < len(text) and text[end] == '"':
                    pos = end + 1
                    break
                if end == pos or end == len(text):
                    return None  # no closing quote (or a backslash ends the text): json.loads names it
                pos = end  # a backslash after 4096 escapes: go on
        elif tok in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, m.start()) + 1
        else:
            depth -= 1
        m = _STRUCTURE.search(text, pos)
    return None


class _Lines:
    """Line numbers of positions in one text, for positions visited in increasing order."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        if pos < self.pos:  # never in a left-to-right scan; stay correct anyway
            self.pos, self.line = 0, 1
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


_WS = re.compile(r"[\s,:]*")


def _locate(text: str) -> dict[str, Any] | None:
    """Lines of the top-level keys, of each action, and of each branch and its actions; the
    first key given twice (``"duplicate"``: its line, and what it is); whether the text may
    hold a lone surrogate (``"surrogates"``).

    One left-to-right scan with the C JSON decoder for every value it skips: linear
    in the size of the text. ``None`` if the text is not a JSON object.
    """
    lines = _Lines(text)
    pairs = _FirstPairs()
    dec = json.JSONDecoder(object_pairs_hook=pairs)
    out: dict[str, Any] = {"keys": {}, "actions": [], "branches": [], "duplicate": None,
                           "surrogates": bool(_SURROGATE_ESCAPE.search(text)) or has_lone_surrogate(text)}

    def twice(pos: int, what: str) -> None:
        if out["duplicate"] is None:
            out["duplicate"] = (lines.at(pos), what)

    def skip(pos: int) -> int:
        """Past the value at ``pos``, noting a key given twice inside it (at the value's line)."""
        before = pairs.twice
        _, end = dec.raw_decode(text, pos)
        if pairs.twice > before:
            twice(pos, "a key inside this value")
        return end

    def elements(pos: int, into: list[int]) -> int:
        pos += 1
        while True:
            pos = _WS.match(text, pos).end()
            if text[pos] == "]":
                return pos + 1
            into.append(lines.at(pos))
            pos = skip(pos)

    def branches(pos: int) -> int:
        pos += 1
        while True:
            pos = _WS.match(text, pos).end()
            if text[pos] == "]":
                return pos + 1
            entry: dict[str, Any] = {"line": lines.at(pos), "actions": []}
            out["branches"].append(entry)
            if text[pos] != "{":
                pos = skip(pos)
                continue
            pos += 1
            seen = set()
            while True:
                pos = _WS.match(text, pos).end()
                if text[pos] == "}":
                    pos += 1
                    break
                at = pos
                key, pos = dec.raw_decode(text, pos)
                pos = _WS.match(text, pos).end()
                if key in seen:
                    twice(at, f"the key {quote(key)} of branch #{len(out['branches']) - 1}")
                    pos = skip(pos)
                elif key == "actions" and text[pos] == "[":
                    pos = elements(pos, entry["actions"])
                else:
                    pos = skip(pos)
                seen.add(key)

    try:
        pos = _WS.match(text, 0).end()
        if text[pos] != "{":
            return None
        pos += 1
        while True:
            pos = _WS.match(text, pos).end()
            if text[pos] == "}":
                return out
            at = pos
            key, pos = dec.raw_decode(text, pos)
            if key in out["keys"]:
                # The lines recorded stay those of the first value: the one json.loads keeps here.
                twice(at, f"the key {quote(key)}")
                pos = skip(_WS.match(text, pos).end())
                continue
            out["keys"][key] = lines.at(pos)
            pos = _WS.match(text, pos).end()
            if key == "actions" and text[pos] == "[":
                pos = elements(pos, out["actions"])
            elif key == "branches" and text[pos] == "[":
                pos = branches(pos)
            else:
                pos = skip(pos)
    except (ValueError, IndexError, RecursionError):
        return out
