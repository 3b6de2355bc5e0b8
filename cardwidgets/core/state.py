"""The game-agnostic State base: the checks that live once for every game.

A game subclasses :class:`State` and implements a few hooks for the normal case:

* ``current_player`` / ``phase`` / ``is_terminal`` properties;
* ``_legal()`` — the legal actions, in the game's fixed order;
* ``_diagnose(action)`` — ``None`` if legal, else ``(rule, reason)``; written from the
  rules text, independently of ``_legal`` (the conformance tests check they agree);
* ``_apply(action, narrate)`` — mutate and return the events (``narrate=False`` is
  the simulation fast path and may return an empty list);
* ``view(seat)``, ``outcome()``, ``clone()``, ``_state_dict()`` / ``_load_state()``.

The base turns strings into actions, refuses with core rules G1/G3 before asking
the game, and never mutates before the whole action has been validated.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar

from .errors import IllegalActionError, InvalidActionError
from .events import Event
from .outcome import Outcome
from .rng import Rng

#: ``seat=ANY`` (the default) means "whoever is to act": no G3 check.
ANY: Any = object()

SEAT_NAMES = "ABCDEFGH"


def seat_name(seat: int) -> str:
    """The letter a seat is narrated with: 0 -> A, 1 -> B, ..."""
    return SEAT_NAMES[seat]


class State(ABC):
    """One playthrough of a game. See DESIGN.md "Engine contract"."""

    #: Registry name of the game, e.g. ``"depot"``.
    game: ClassVar[str] = ""
    #: Action classes this game accepts as objects.
    action_types: ClassVar[tuple[type, ...]] = ()
    #: Parses the game's action notation (module-level ``parse_action``).
    _parse: ClassVar[Callable[[str], Any]]

    __slots__ = ("players", "seed", "options", "deck_order", "_rng_count", "_history", "_moves")

    players: int
    seed: int
    options: dict[str, Any]
    deck_order: tuple[Any, ...] | None
    _rng_count: int
    # History is a persistent linked list ``(previous, action)`` so that clone() shares
    # it instead of copying hundreds of actions; ``_moves`` is its length.
    _history: tuple | None
    _moves: int

    # ----------------------------------------------------------------- to implement
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, ``None`` when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """Name of the current phase (game-specific, ``"finished"`` at the end)."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @abstractmethod
    def _legal(self) -> list[Any]: ...

    @abstractmethod
    def _diagnose(self, action: Any) -> tuple[str, str] | None: ...

    @abstractmethod
    def _apply(self, action: Any, narrate: bool) -> list[Event]: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe dict of exactly what ``seat`` may see (``None``: everything)."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def clone(self) -> "State": ...

    @abstractmethod
    def _state_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def _load_state(self, data: dict[str, Any]) -> None: ...

    # ----------------------------------------------------------------- shared API
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
    def move_count(self) -> int:
        """``len(self.history)``, without building it."""
        return self._moves

    def _rng(self) -> Rng:
        """The random stream for the next decision; advances the state's RNG position."""
        r = Rng(self.seed, self._rng_count)
        self._rng_count += 1
        return r

    def legal_actions(self) -> list[Any]:
        """Legal actions of the player to act, in the game's fixed order."""
        if self.is_terminal:
            return []
        return list(self._legal())

    def parse(self, text: str) -> Any:
        """Parse action notation in the context of this position."""
        return type(self)._parse(text)

    def coerce(self, action: Any) -> Any:
        """An action object from an object or its notation (``InvalidActionError`` if neither)."""
        if isinstance(action, str):
            return self.parse(action)
        if isinstance(action, self.action_types):
            return action
        raise InvalidActionError(f"{action!r} is not a {self.game} action")

    def refusal(self, action: Any, seat: Any = ANY) -> IllegalActionError | None:
        """Why ``action`` (an object) is refused now, or ``None`` if it is legal."""
        if self.is_terminal:
            return IllegalActionError("G1", "the game is over", action)
        if seat is not ANY and seat != self.current_player:
            who = "nobody" if self.current_player is None else seat_name(self.current_player)
            mine = "a spectator" if seat is None else seat_name(seat)
            return IllegalActionError("G3", f"it is {who}'s turn, not {mine}'s", action)
        problem = self._diagnose(action)
        if problem is not None:
            return IllegalActionError(problem[0], problem[1], action)
        return None

    def check(self, action: Any, seat: Any = ANY) -> Any:
        """Validate fully; return the action object or raise. Changes nothing."""
        a = self.coerce(action)
        err = self.refusal(a, seat)
        if err is not None:
            raise err
        return a

    def is_legal(self, action: Any, seat: Any = ANY) -> bool:
        try:
            self.check(action, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def explain(self, action: Any, seat: Any = ANY) -> str:
        """A sentence saying whether ``action`` is legal now and, if not, the rule it breaks."""
        try:
            a = self.check(action, seat)
        except InvalidActionError as e:
            return f"Invalid: {e}"
        except IllegalActionError as e:
            return str(e)
        return f"Legal: {a} by {seat_name(self.current_player)}."

    def apply(self, action: Any, seat: Any = ANY) -> list[Event]:
        """Apply a legal action (object or notation) and return what happened.

        Raises ``InvalidActionError`` / ``IllegalActionError`` and changes nothing
        when the action is malformed or not allowed.
        """
        a = self.check(action, seat)
        events = self._apply(a, True)
        self._history = (self._history, a)
        self._moves += 1
        return events

    def apply_unchecked(self, action: Any) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``.

        Skips validation and narration. Applying anything else corrupts the state.
        """
        self._apply(action, False)
        self._history = (self._history, action)
        self._moves += 1

    # ----------------------------------------------------------------- helpers
    def _init_base(self, players: int, seed: int, options: dict[str, Any], deck_order) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        self.deck_order = deck_order
        self._rng_count = 0
        self._history = None
        self._moves = 0

    def _clone_base(self, new: "State") -> None:
        new.players = self.players
        new.seed = self.seed
        new.options = self.options  # never mutated after construction: shared
        new.deck_order = self.deck_order
        new._rng_count = self._rng_count
        new._history = self._history  # persistent: shared, never mutated
        new._moves = self._moves

    def _view_head(self, seat: int | None) -> dict[str, Any]:
        """The fields every game's view starts with (``seat`` is validated)."""
        self._check_seat(seat)
        return {
            "game": self.game,
            "players": self.players,
            "names": [seat_name(s) for s in range(self.players)],
            "seat": seat,
            "phase": self.phase,
            "current": self.current_player,
        }

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise ValueError(f"seat must be None or an int from 0 to {self.players - 1}, got {seat!r}")

    # ----------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot that :meth:`from_dict` restores exactly (RNG included)."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deck": None if self.deck_order is None else list(self.deck_order),
            "rng": [self.seed, self._rng_count],
            "history": [str(a) for a in self.history],
            "state": self._state_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        if data.get("game") != cls.game:
            raise ValueError(f"not a {cls.game} state: game={data.get('game')!r}")
        st = cls.__new__(cls)
        deck = data.get("deck")
        st._init_base(data["players"], data["seed"], dict(data["options"]), None if deck is None else tuple(deck))
        st._rng_count = data["rng"][1]
        for a in data["history"]:
            st._history = (st._history, cls._parse(a))
            st._moves += 1
        st._load_state(data["state"])
        return st

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]
