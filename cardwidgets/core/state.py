"""The game-agnostic State base: everything every game would otherwise repeat.

A game declares its :class:`~cardwidgets.core.spec.GameSpec` (``SPEC``), its action
classes, and its state fields (``FIELDS``: how each is copied and saved), and
implements a few hooks for the normal case:

* ``current_player`` / ``phase`` properties (``"finished"`` at the end);
* ``_legal()`` — the legal actions, in the game's fixed order;
* ``_diagnose(action)`` — ``None`` if legal, else ``(rule, reason)``; written from
  the rules, independently of ``_legal`` (the conformance tests check they agree),
  and from what the actor can see only;
* ``_apply(action, ev)`` — mutate; append narrated events to ``ev`` unless it is
  ``None`` (the simulation fast path). One code path serves both. Before a step
  that depends on cards the actor cannot see (a draw from a hidden pile, another
  player's forced move) it calls ``self._hidden(ev, "what happens next")``, which
  is how a preview knows where to stop;
* ``view(seat)``, ``view_text(view)``, ``outcome()``, ``_twin(seat, rng)``.

The base turns text into actions (with an optional ``S2:`` or ``B:`` seat prefix,
and text that stands for several actions), refuses with the core rules G1–G3
before asking the game, validates fully before it mutates anything, explains and
previews on a clone, and builds ``clone`` / ``to_dict`` / ``from_dict`` from the
declared fields.
"""

from __future__ import annotations

import random
import re
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable

from .errors import MAX_ACTION_TEXT, IllegalActionError, InvalidActionError, quote, show
from .events import Event, Explanation
from .outcome import Outcome
from .position import write_position
from .rng import Recorded, Recorder, fresh_seed, randrange, shuffle
from .spec import GameSpec, json_safe

#: ``seat=ANY`` (the default) means "whoever is to act": no G3 check.
ANY: Any = object()

SEAT_NAMES = "ABCDEFGH"
#: Longest player name (``new_game(names=[...])``), in characters.
MAX_NAME = 20
_NOT_IN_NAMES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def seat_name(seat: int) -> str:
    """The letter a seat is narrated with: 0 -> A, 1 -> B, ..."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(SEAT_NAMES):
        raise ValueError(f"no seat {seat!r}: seats are 0 to {len(SEAT_NAMES) - 1}")
    return SEAT_NAMES[seat]


def check_names(names: Any, players: int, reserved: Iterable[str] = ()) -> tuple[str, ...] | None:
    """Player names as a game keeps them: one per seat, or ``None`` for the seat letters.

    Each name is text of 1 to :data:`MAX_NAME` characters once the spaces around it are
    trimmed, with no control character; names are distinct (ignoring case), and none is
    another seat's letter or a participant's own label (``reserved``, such as Yadokarick
    duo's ``"NPC"``): narration must name one seat only. Raises ``ValueError`` naming the
    bad entry.
    """
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise ValueError(f"names must be a list of {players} names, one per seat, got {show(names)}")
    if len(names) != players:
        raise ValueError(f"names must hold one name per seat: {players}, got {len(names)}")
    out: list[str] = []
    seen: dict[str, int] = {}
    taken = {r.casefold() for r in reserved}
    for i, raw in enumerate(names):
        if not isinstance(raw, str):
            raise ValueError(f"names[{i}] must be text, got {show(raw)}")
        name = raw.strip()
        if not name or len(name) > MAX_NAME:
            raise ValueError(f"names[{i}]={show(raw)} is not a name: 1 to {MAX_NAME} characters")
        # Control, format (direction overrides, zero widths) and separator characters would make
        # a name print as another one, or break a line of narration.
        if any(unicodedata.category(ch) in _NOT_IN_NAMES for ch in name):
            raise ValueError(f"names[{i}]={show(raw)} holds a control or invisible character")
        key = name.casefold()
        if key in seen:
            raise ValueError(f"names[{i}]={show(name)} is the name of seat {seat_name(seen[key])} too; "
                             f"names must differ")
        if key in taken:
            raise ValueError(f"names[{i}]={show(name)} is what this game calls another participant")
        if len(name) == 1 and name.upper() in SEAT_NAMES[:players] and SEAT_NAMES.index(name.upper()) != i:
            raise ValueError(f"names[{i}]={show(name)} is the letter of seat {name.upper()}: narration would "
                             f"name two seats alike")
        seen[key] = i
        out.append(name)
    # The seat letters themselves are the default, kept as None (positions and replays omit them).
    return None if out == list(SEAT_NAMES[:players]) else tuple(out)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``plural(1, "card") == "1 card"``, ``plural(0, "card") == "0 cards"``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


class PreviewStop(Exception):
    """Raised inside a previewed action at the first step that depends on hidden cards."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class Field:
    """A declared state field: how ``clone`` copies it and ``to_dict`` saves it.

    ``copy``: ``"ref"`` (immutable, or never mutated in place: shared by clones),
    ``"list"`` (a list copied shallowly), ``"lists"`` (a list of lists), or
    ``"dict"``. ``encode`` / ``decode`` turn the value into JSON and back (default:
    as is; ``"tuple"`` fields are saved as lists). ``save=False`` marks a field
    derived from the others, rebuilt by ``_derive()`` after loading.
    """

    name: str
    copy: str = "ref"
    encode: Callable[[Any], Any] | None = None
    decode: Callable[[Any], Any] | None = None
    save: bool = True

    @property
    def key(self) -> str:
        return self.name.lstrip("_")


def tuple_field(name: str) -> Field:
    """A tuple (saved as a JSON list)."""
    return Field(name, encode=list, decode=tuple)


_COPY = {"ref": "self.{n}", "list": "self.{n}[:]", "lists": "[x[:] for x in self.{n}]",
         "dict": "dict(self.{n})"}
_BASE_FIELDS = ("players", "seed", "options", "mode", "names", "deck_order", "_origin", "_rng_count", "_chance",
                "_history", "_moves", "_previewing", "setup_events", "_sampled")
_PREFIX = re.compile(r"\s*(?:S([0-9])|([A-H]))\s*:\s*", re.IGNORECASE)


class State(ABC):
    """One playthrough of a game: the engine contract every game implements."""

    #: The game's declarations.
    SPEC: ClassVar[GameSpec]
    #: Action classes this game accepts as objects (each has a ``kind`` class attribute).
    action_types: ClassVar[tuple[type, ...]] = ()
    #: The game's state fields (see :class:`Field`).
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    #: Parses the game's action notation (module-level ``parse_action``).
    _parse: ClassVar[Callable[[str], Any]]
    #: Labels of participants no player sits in (Yadokarick duo's ``"NPC"``): no player may take them as names.
    RESERVED_LABELS: ClassVar[tuple[str, ...]] = ()

    __slots__ = _BASE_FIELDS

    players: int
    seed: int
    options: dict[str, Any]
    mode: str
    #: The players' names, one per seat (``new_game(names=[...])``), or ``None``: the seat letters.
    names: tuple[str, ...] | None
    deck_order: tuple[Any, ...] | None
    #: The hand-built starting position (``setup_position``), as ``to_dict`` saved it.
    _origin: dict[str, Any] | None
    _rng_count: int
    _chance: Recorded | Recorder | None
    # History is a persistent linked list ``(previous, action)`` so that clone() shares
    # it instead of copying hundreds of actions; ``_moves`` is its length.
    _history: tuple | None
    _moves: int
    _previewing: bool
    #: Events of the automatic steps done while setting up (the first deal ...).
    setup_events: list[Event]
    #: A world of :meth:`sample_world` (or a game played on from one): its seed and history
    #: are not a record of how it came about, so loading it replays nothing.
    _sampled: bool

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "FIELDS" in cls.__dict__:
            _generate(cls)

    # ----------------------------------------------------------------- to implement
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, ``None`` when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """Name of the current phase; ``"finished"`` when the game is over."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @abstractmethod
    def _legal(self) -> list[Any]: ...

    @abstractmethod
    def _diagnose(self, action: Any) -> tuple[str, str] | None: ...

    @abstractmethod
    def _apply(self, action: Any, ev: list[Event] | None) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe dict of exactly what ``seat`` may see (``None``: everything)."""

    @staticmethod
    @abstractmethod
    def view_text(view: dict[str, Any]) -> str:
        """A compact text table drawn from a view only (the static fallback of tables)."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    def _twin(self, seat: int, rng: Any) -> "State":
        """A position ``seat`` cannot tell from this one: the cards it cannot see dealt
        differently (used by the noninterference checks). Defaults to :meth:`sample_world`."""
        return self.sample_world(seat, rng)

    def _sample(self, seat: int, rng: random.Random) -> "State":
        """The game's part of :meth:`sample_world`: a clone with every card ``seat`` has not
        seen dealt again at random (``rng``), keeping what it saw and what the rules let it
        infer. The base then gives the world a fresh seed and drops the deal's record."""
        raise NotImplementedError(f"{self.game} does not sample worlds yet")

    def _position_fields(self) -> list[tuple[str, str]]:
        """The game's fields of :meth:`to_position`, in order: ``(key, value)`` pairs."""
        raise NotImplementedError(f"{self.game} has no position text yet")

    def _load_position(self, parsed: Any) -> None:
        """Fill a blank state (options resolved, seed set) from a parsed position.

        ``parsed.take(key)`` gives each field as a :class:`~cardwidgets.core.position.Value`
        (typed reads raise ``PositionError`` at the right column). Unknown parts (``?``)
        are dealt with :func:`~cardwidgets.core.position.deal_unknown`. The base then
        refuses unread fields and runs ``_derive`` and ``_check_loaded``."""
        raise NotImplementedError(f"{self.game} has no position text yet")

    def _expand(self, text: str) -> list[Any] | None:
        """The actions a text stands for when it stands for several, else ``None``."""
        return None

    def _sequence_break(self, done: Any, trial: "State | None", actor: int,
                        hidden: str | None) -> tuple[str, str] | None:
        """Why a multi-action text cannot go on after ``done`` (``None``: it can).

        ``trial`` is the position after ``done``; it is ``None`` when applying ``done``
        reached a step that depends on hidden cards (``hidden`` says which), where the
        answer must not depend on what would have been drawn. The base already refuses
        when another seat is to act."""
        return None

    def _derive(self) -> None:
        """Rebuild the fields declared with ``save=False`` (after ``from_dict``)."""

    def _check_loaded(self) -> None:
        """Raise ``ValueError`` if a loaded state is inconsistent (cards created or lost ...)."""

    # ----------------------------------------------------------------- reading
    @property
    def game(self) -> str:
        """Registry name of the game, e.g. ``"depot"``."""
        return self.SPEC.name

    @property
    def history(self) -> tuple[Any, ...]:
        """The actions applied so far, oldest first."""
        out = []
        node = self._history
        while node is not None:
            node, a = node
            out.append(a)
        return tuple(reversed(out))

    @property
    def last_move(self) -> Any:
        """The last action applied, or ``None``."""
        return None if self._history is None else self._history[1]

    @property
    def move_count(self) -> int:
        """``len(self.history)``, without building it."""
        return self._moves

    def seat_label(self, seat: int) -> str:
        """How narration names a seat: its player's name (``new_game(names=[...])``), else
        its letter (``"A"``, ``"B"`` ...)."""
        seat = self.check_seat(seat, spectator=False)
        return seat_name(seat) if self.names is None else self.names[seat]

    def check_seat(self, seat: Any, *, spectator: bool = True) -> int | None:
        """``seat`` if it is a seat of this game (or ``None``, the teacher or a spectator,
        when ``spectator``), else ``ValueError`` naming this game's seats.

        The one seat check: views, refusals, explanations, the timeline and the tables
        use it, so ``True``, ``1.0`` or a seat past the player count is never taken for a seat.
        """
        if seat is None and spectator:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            seats = "seat 0" if self.players == 1 else f"seats are 0 to {self.players - 1}"
            extra = " (or None for the teacher view)" if spectator else ""
            raise ValueError(f"no seat {show(seat)} in this {self.players}-player game: {seats}{extra}")
        return seat

    def _check_asking(self, seat: Any) -> None:
        """``seat`` as the seat an action is asked for: ``None`` (a spectator), a player's seat,
        or the participant no player sits in that some games have (Yadokarick duo's NPC),
        numbered right after the players and named apart from them: it is never to act, so
        it is refused under G3. Anything else is a ``ValueError`` naming this game's seats."""
        if seat is None or (type(seat) is int and 0 <= seat < self.players):
            return
        if type(seat) is int and seat == self.players and type(self).seat_label is not State.seat_label:
            try:
                name = self.seat_label(seat)
            except ValueError:
                name = None
            if name is not None and name not in {self.seat_label(s) for s in range(self.players)}:
                return
        self.check_seat(seat)  # raises, naming this game's seats

    def legal_actions(self) -> list[Any]:
        """Legal actions of the player to act, in the game's fixed order (a new list)."""
        if self.is_terminal:
            return []
        return list(self._legal())

    def describe(self, seat: int | None = None) -> str:
        """The text table of what ``seat`` sees (``None``: everything)."""
        return self.view_text(self.view(seat))

    def __str__(self) -> str:
        return self.describe(None)

    def to_position(self) -> str:
        """The whole position as one line of text (FEN for this game), starting with the
        game's name and engine version; ``cardwidgets.from_position`` reads it back with
        the same ``view(None)`` and legal actions. The grammar is in the game's rules
        reference."""
        return write_position(self, self._position_fields())

    def sample_world(self, seat: int, rng: Any = None) -> "State":
        """A position ``seat`` cannot tell from this one (determinization).

        ``view(seat)`` is identical; every card ``seat`` has seen stays where it saw it
        and what the rules let it infer holds (a player who did not follow a colour
        holds none of it); every other card is dealt again at random with ``rng`` (a
        ``random.Random``, an int seed, or ``None`` for a fresh one). The world has a
        new seed and no record of the real deal, so nothing in it tells the real
        hidden cards; its history holds only actions ``seat`` saw as they were (a game
        may drop it: ``move_count`` is kept).
        """
        self.check_seat(seat, spectator=False)
        if not isinstance(rng, random.Random):
            if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int)):
                raise TypeError(f"rng must be a random.Random, an int seed or None, got {show(rng)}")
            rng = random.Random(fresh_seed() if rng is None else rng)
        world = self._sample(seat, rng)
        world.seed = rng.getrandbits(63)
        world.deck_order = None
        world._origin = None
        world._chance = None
        world._previewing = False
        world._sampled = True
        if world._history is None:
            # A game may drop a history that would tell hidden cards; how many moves were
            # made is public, so the world still counts them.
            world._moves = self._moves
        return world

    # ----------------------------------------------------------------- parsing
    def parse(self, text: str) -> Any:
        """Parse one action's notation in the context of this position."""
        return type(self)._parse(text)

    def coerce(self, action: Any) -> Any:
        """An action object from an object or its notation (``InvalidActionError`` if neither)."""
        if isinstance(action, str):
            if len(action) > MAX_ACTION_TEXT:
                raise InvalidActionError(f"an action is at most {MAX_ACTION_TEXT} characters; "
                                         f"got {len(action)}")
            return self.parse(action)
        if isinstance(action, self.action_types):
            return action
        raise InvalidActionError(f"{show(action)} is not a {self.game} action")

    def _split_prefix(self, text: str, seat: Any) -> tuple[str, Any]:
        """Strip a transcript seat prefix (``S2:`` or ``C:``); it fixes the seat (G3)."""
        m = _PREFIX.match(text)
        if not m:
            return text, seat
        said = int(m.group(1)) if m.group(1) else SEAT_NAMES.index(m.group(2).upper())
        if said >= self.players:
            raise InvalidActionError(f"{quote(text)}: there is no seat {m.group(0).strip()} in a "
                                     f"{self.players}-player game")
        if seat is not ANY and seat != said:
            who = "a spectator" if seat is None else self.seat_label(seat)
            raise IllegalActionError("G3", f"{who} cannot act for {self.seat_label(said)}")
        return text[m.end():], said

    # ----------------------------------------------------------------- checking
    def refusal(self, action: Any, seat: Any = ANY) -> IllegalActionError | None:
        """Why ``action`` (an object) is refused now, or ``None`` if it is legal."""
        if seat is not ANY:
            self._check_asking(seat)
        if self.is_terminal:
            return IllegalActionError("G1", "the game is over", action)
        actor = self.current_player
        if seat is not ANY and seat != actor:
            if seat is None:  # whose turn it is does not help a spectator (and reads badly in solo: "you")
                return IllegalActionError("G3", "a spectator cannot act: only the player to move can", action)
            return IllegalActionError("G3", f"it is {self.seat_label(actor)}'s turn, not {self.seat_label(seat)}'s",
                                      action)
        kind = action.kind
        phase = self.SPEC.phase(self.phase)
        if phase is not None and kind not in phase.actions:
            special = phase.refusals.get(kind)
            if special is not None:
                return IllegalActionError(special[0], special[1], action)
            allowed = " or ".join(repr(k) for k in phase.actions)
            return IllegalActionError("G2", f"there is no {kind!r} action in the {phase.name} phase "
                                            f"(now: {allowed})", action)
        problem = self._diagnose(action)
        if problem is not None:
            return IllegalActionError(problem[0], problem[1], action)
        return None

    def plan(self, action: Any, seat: Any = ANY) -> list[Any]:
        """The checked action objects that ``action`` stands for (usually one).

        Text may carry a transcript seat prefix (``"S1: play 5"``) and, in games that
        have it, stand for several actions of one player (cirno+neu's ``"play 4, -1"``).
        Raises ``InvalidActionError`` / ``IllegalActionError``, and ``ValueError`` for a
        ``seat`` that is neither ``ANY``, ``None`` nor a seat of this game; changes nothing.
        """
        if seat is not ANY:
            self._check_asking(seat)
        if isinstance(action, str):
            if len(action) > MAX_ACTION_TEXT:
                raise InvalidActionError(f"an action is at most {MAX_ACTION_TEXT} characters; got {len(action)}")
            action, seat = self._split_prefix(action, seat)
            parts = self._expand(action)
            if parts is not None:
                return self._check_sequence(parts, seat)
        a = self.coerce(action)
        err = self.refusal(a, seat)
        if err is not None:
            raise err
        return [a]

    def _check_sequence(self, actions: list[Any], seat: Any) -> list[Any]:
        """Check several actions of one player on a previewing clone: each must be legal
        after the ones before, the same seat must stay to act, and no step before the
        last may depend on hidden cards (or the answer would reveal them)."""
        err = self.refusal(actions[0], seat)
        if err is not None:
            raise err
        trial = self.clone()
        trial._previewing = True
        actor = trial.current_player
        for i in range(1, len(actions)):
            done = actions[i - 1]
            try:
                trial._apply(done, None)
            except PreviewStop as stop:
                rule, why = self._sequence_break(done, None, actor, stop.what) or ("G2", "")
                raise IllegalActionError(
                    rule, why or f"after {done} {stop.what}, so the next action cannot be chosen in advance: "
                                 f"send the actions one at a time", actions[i]) from None
            trial._history = (trial._history, done)
            trial._moves += 1
            problem = self._sequence_break(done, trial, actor, None)
            if problem is None and trial.current_player != actor:
                problem = ("G3", f"after {done} it is no longer {self.seat_label(actor)}'s turn")
            if problem is not None:
                raise IllegalActionError(problem[0], problem[1], actions[i])
            err = trial.refusal(actions[i], actor)
            if err is not None:
                raise err
        return actions

    def check(self, action: Any, seat: Any = ANY) -> Any:
        """Validate one action fully; return the action object or raise. Changes nothing."""
        plan = self.plan(action, seat)
        if len(plan) != 1:
            raise InvalidActionError(f"{quote(str(action))} stands for {len(plan)} actions; check() takes one")
        return plan[0]

    def is_legal(self, action: Any, seat: Any = ANY) -> bool:
        try:
            self.plan(action, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    # ----------------------------------------------------------------- acting
    def apply(self, action: Any, seat: Any = ANY) -> list[Event]:
        """Apply a legal action (object or notation) and return what happened.

        Raises ``InvalidActionError`` / ``IllegalActionError`` and changes nothing
        when the action is malformed or not allowed.
        """
        events: list[Event] = []
        for a in self.plan(action, seat):
            self._apply(a, events)
            self._history = (self._history, a)
            self._moves += 1
        return events

    def apply_checked(self, action: Any) -> list[Event]:
        """Apply one action already checked by :meth:`plan` (the timeline's step)."""
        events: list[Event] = []
        self._apply(action, events)
        self._history = (self._history, action)
        self._moves += 1
        return events

    def apply_unchecked(self, action: Any) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``.

        Skips validation and narration. Applying anything else corrupts the state.
        """
        self._apply(action, None)
        self._history = (self._history, action)
        self._moves += 1

    def _hidden(self, ev: list[Event] | None, what: str) -> None:
        """Mark the next step as depending on hidden cards: a preview stops here."""
        if self._previewing:
            raise PreviewStop(what)

    # ----------------------------------------------------------------- explaining
    def preview(self, action: Any, seat: Any = ANY) -> list[Event]:
        """The events ``action`` would cause, as its player would see them, on a clone.

        Raises like :meth:`apply`. The preview stops at the first step that depends
        on cards its player cannot see, with a final ``"preview_stop"`` event saying
        what happens next without saying how.
        """
        return self._preview(self.plan(action, seat))

    def _preview(self, actions: list[Any]) -> list[Event]:
        actor = self.current_player
        trial = self.clone()
        trial._previewing = True
        events: list[Event] = []
        try:
            for a in actions:
                trial._apply(a, events)
                trial._history = (trial._history, a)
                trial._moves += 1
        except PreviewStop as stop:
            events.append(Event("preview_stop", {"next": stop.what}, None,
                                f"Then {stop.what}."))
        return [e for e in events if e.visible_to(actor)]

    def explain(self, action: Any, seat: Any = ANY) -> Explanation:
        """Whether ``action`` is legal now for ``seat`` and why, with its effects if legal.

        ``str()`` of the result is one sentence: ``"Illegal: rule D4.7 — ..."``,
        ``"Invalid: ..."`` or ``"Legal: play 5 5 by A."``. Changes nothing.
        """
        try:
            actions = self.plan(action, seat)
        except InvalidActionError as e:
            return Explanation(False, None, None, str(e))
        except IllegalActionError as e:
            return Explanation(False, e.action, e.rule, e.reason)
        what = ", ".join(map(str, actions))
        return Explanation(True, actions[0] if len(actions) == 1 else tuple(actions), None,
                           f"{what} by {self.seat_label(self.current_player)}.",
                           tuple(self._preview(actions)))

    # ----------------------------------------------------------------- randomness
    def _shuffle(self, items: list[Any]) -> None:
        """Shuffle with the state's next chance decision (recorded ones first, then the seed's)."""
        k = self._rng_count
        self._rng_count = k + 1
        if self._chance is None or not self._chance.has(k):
            shuffle(self.seed, k, items)
        else:
            self._chance.shuffle(k, items)

    def _randrange(self, n: int) -> int:
        k = self._rng_count
        self._rng_count = k + 1
        if self._chance is None or not self._chance.has(k):
            return randrange(self.seed, k, n)
        return self._chance.randrange(k, n)

    # ----------------------------------------------------------------- construction
    @classmethod
    def _create(cls, players: Any, seed: int | None, mode: str | None, options: dict[str, Any],
                chance: Recorded | None = None) -> "State":
        """A blank state with the base fields set and the options resolved.

        ``options`` may hold ``names`` (the players' names, see :func:`check_names`): they are
        set before the game's setup narrates anything."""
        names = None
        if "names" in options:  # not a rules option: every game takes it, none declares it
            options = dict(options)
            names = options.pop("names")
        mode_name, n, opts = cls.SPEC.resolve(players, mode, options)
        if seed is None:
            seed = fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int) or not -2**63 <= seed < 2**64:
            raise ValueError(f"seed must be an int (64 bits at most), got {show(seed)}")
        if chance is not None and not isinstance(chance, (Recorded, Recorder)):
            raise TypeError("chance must be a cardwidgets.core.Recorded (or a Recorder)")
        st = cls.__new__(cls)
        st.players, st.seed, st.options, st.mode = n, seed, opts, mode_name
        st.names = check_names(names, n, cls.RESERVED_LABELS)
        st.deck_order = None
        st._origin = None
        st._rng_count = 0
        st._chance = chance
        st._history = None
        st._moves = 0
        st._previewing = False
        st.setup_events = []
        st._sampled = False
        return st

    def _mark_origin(self) -> None:
        """Record this hand-built position as the game's start (replays save it)."""
        self._origin = None
        d = self.to_dict()
        del d["history"]
        self._origin = d

    # ----------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot that :meth:`from_dict` restores exactly (RNG included)."""
        out = {
            "game": self.game,
            "version": self.SPEC.version,
            "mode": self.mode,
            "players": self.players,
            "seed": self.seed,
            "options": json_safe(self.options),
            "names": None if self.names is None else list(self.names),
            "deck": None if self.deck_order is None else list(self.deck_order),
            "position": self._origin,
            "rng": [self.seed, self._rng_count],
            "chance": self._chance.to_list() if isinstance(self._chance, Recorded) else None,
            "history": [str(a) for a in self.history],
            "state": self._state_dict(),
        }
        if self._sampled:
            out["sampled"] = True  # only worlds say so: every other save is as it always was
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        """Rebuild a state from :meth:`to_dict`; ``ValueError`` if the data is not one."""
        if not isinstance(data, dict) or data.get("game") != cls.SPEC.name:
            got = data.get("game") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"not a {cls.SPEC.name} state: game={show(got)}")
        try:
            chance = data.get("chance")
            options = dict(data["options"])
            if data.get("names") is not None:  # saved before names existed: the seat letters
                options["names"] = data["names"]
            st = cls._create(data["players"], data["seed"], data.get("mode"), options,
                             None if chance is None else Recorded(chance))
            deck = data.get("deck")
            st.deck_order = None if deck is None else tuple(deck)
            st._origin = data.get("position")
            check_start(st._origin)
            count = data["rng"][1]
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"bad rng position {count!r}")
            st._rng_count = count
            if not isinstance(data["history"], list):
                raise ValueError("history: expected a list of actions")
            for a in data["history"]:
                st._history = (st._history, cls._parse(a))
                st._moves += 1
            sampled = data.get("sampled", False)
            if sampled is not False and sampled is not True:
                raise ValueError(f"sampled: true for a world of sample_world, else left out, got {show(sampled)}")
            st._sampled = sampled
            st._load_state(data["state"])
            st._derive()
            st._check_loaded()
            if st._history is not None and not sampled:
                st._check_replayed()
        except (KeyError, IndexError, TypeError, AttributeError) as e:
            raise ValueError(f"not a valid {cls.SPEC.name} state: {type(e).__name__}: {quote(str(e), 80)}") from None
        except InvalidActionError as e:
            raise ValueError(f"not a valid {cls.SPEC.name} state: {e}") from None
        return st

    def _first_position(self) -> "State":
        """This game's first position, set up again: its hand-built start (position text, or a
        saved state, which may not have a start of its own), or a new game from its seed, deck,
        recorded chance and options. Raises ``ValueError`` if it cannot be set up."""
        from .registry import game_module  # the games import this module

        mod = game_module(self.game)
        origin = self._origin
        if isinstance(origin, str):
            return mod.from_position(origin, self.seed)
        if isinstance(origin, dict):
            check_start(origin)
            start = type(self).from_dict({**origin, "history": []})
            start._origin = origin
            return start
        if origin is not None:
            raise ValueError(f"a hand-built start is position text or a saved state, not {show(origin)}")
        options = dict(self.options)
        if len(self.SPEC.modes) > 1:
            options["mode"] = self.mode
        if self.names is not None:
            options["names"] = list(self.names)
        chance = self._chance
        if isinstance(chance, Recorder):
            chance = chance.recorded()
        return mod.new_game(players=self.players, seed=self.seed,
                            deck=None if self.deck_order is None else list(self.deck_order),
                            chance=chance, **options)

    def _check_replayed(self) -> None:
        """``ValueError`` unless this loaded state is its start with its history played on it.

        Chance comes from the seed (or the recorded decisions), so a state that has moved from
        its start is fully determined by that start and its history: a history, seed or option
        changed by hand would otherwise load and then fail to replay (``Replay.from_state``)."""
        try:
            game = self._first_position()
        except Exception as e:  # noqa: BLE001 - whatever the start's own loader refuses
            raise ValueError(f"its start cannot be set up again: {e}") from None
        actions = self.history
        for i, a in enumerate(actions):
            problem = game.refusal(a)
            if problem is not None:
                raise ValueError(f"history[{i}] ({a}) cannot be played from the game's start: {problem}")
            game.apply_unchecked(a)
        if game.to_dict() != self.to_dict():
            raise ValueError(f"the game's start with its history of {plural(len(actions), 'action')} does not "
                             f"lead to this state (its seed, options or history were changed)")

    # Generated per game from FIELDS (see _generate).
    def clone(self) -> "State":  # pragma: no cover - replaced
        raise NotImplementedError

    def _state_dict(self) -> dict[str, Any]:  # pragma: no cover - replaced
        raise NotImplementedError

    def _load_state(self, data: dict[str, Any]) -> None:  # pragma: no cover - replaced
        raise NotImplementedError

    def __reduce__(self) -> tuple:
        # States pickle through to_dict (plain data), so parallel simulations can
        # ship them to other processes whatever caches the engine keeps.
        return (_restore, (type(self), self.to_dict()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]


def check_start(origin: Any) -> None:
    """``ValueError`` unless ``origin`` can be a saved hand-built start: a saved state that does
    not itself start from another (one level only: a start nested without end could not be
    saved as JSON, nor checked)."""
    if isinstance(origin, dict) and origin.get("position") is not None:
        raise ValueError("a hand-built start (\"position\") is a position, not a game that has a start of its own")


def _restore(cls: type, data: dict[str, Any]) -> State:
    return cls.from_dict(data)


def _generate(cls: type) -> None:
    """Write ``clone``, ``_state_dict`` and ``_load_state`` for the declared fields.

    Generated code (as dataclasses does) keeps ``clone`` as fast as one written by
    hand, without listing every field again in three places.
    """
    fields: tuple[Field, ...] = cls.FIELDS  # type: ignore[attr-defined]
    names = [f.name for f in fields]
    missing = [n for n in names if not any(n in getattr(k, "__slots__", ()) for k in cls.__mro__)]
    if missing:
        raise TypeError(f"{cls.__name__}: declared fields missing from __slots__: {', '.join(missing)}")
    env: dict[str, Any] = {"_new": object.__new__, "cls": cls}
    clone = ["def clone(self):", "    new = _new(cls)"]
    for n in _BASE_FIELDS:
        clone.append(f"    new.{n} = self.{n}")
    for f in fields:
        clone.append(f"    new.{f.name} = " + _COPY[f.copy].format(n=f.name))
    clone.append("    return new")
    save = ["def _state_dict(self):", "    return {"]
    load = ["def _load_state(self, d):"]
    for i, f in enumerate(fields):
        if not f.save:
            continue
        env[f"enc{i}"], env[f"dec{i}"] = f.encode, f.decode
        save.append(f"        {f.key!r}: " + (f"enc{i}(self.{f.name})," if f.encode else f"self.{f.name},"))
        load.append(f"    self.{f.name} = " + (f"dec{i}(d[{f.key!r}])" if f.decode else f"d[{f.key!r}]"))
    save.append("    }")
    if len(load) == 1:
        load.append("    pass")
    exec("\n".join(clone + save + load), env)  # noqa: S102 - code built from declared names only
    for name in ("clone", "_state_dict", "_load_state"):
        fn = env[name]
        fn.__qualname__ = f"{cls.__name__}.{name}"
        setattr(cls, name, fn)
    cls.clone.__doc__ = "An independent copy (shares only what is never mutated in place)."


def fields(*items: Field | str) -> tuple[Field, ...]:
    """Declare fields: a :class:`Field`, or a name for a plain shared field."""
    return tuple(Field(i) if isinstance(i, str) else i for i in items)
