"""Positions as one line of text (FEN for these games): the grammar every game shares.

A position is a header and ``key=value`` fields separated by spaces::

    depot/1 players=4 games=3 game=2 round=1 turn=B hands=1,1,3/?9/?9/?9 deck=? ...

* The header is the game's registry name and its engine version (``SPEC.version``).
* ``players``, ``mode`` (games with several modes) and every option that differs
  from its default come first, each under its own name; a value that is not a plain
  word or number is compact JSON (``deck_counts={"1":13,...}``). Player names
  (``new_game(names=[...])``) follow as ``names=["Ann","Bob","Cy"]``; without them
  the seats are their letters.
* Then the game's own fields, documented in its rules reference. Values never hold
  spaces. Common conventions: seats are letters (``A``, ``B`` ...); a list of cards
  is the cards' notation joined by ``,`` with ``-`` for an empty list; ``/`` separates
  the lists of several seats; ``?`` is a part nobody wrote (an unknown deck order, a
  hand the writer cannot see) and ``?9`` nine unknown cards. Unknown parts are dealt
  at random from the cards not placed elsewhere, with the ``seed`` given to
  :func:`load_position`.

Errors are :class:`PositionError` (a ``ValueError``) naming the 1-based column
where the bad part starts, the field, and what is wrong::

    >>> read_position("depot/1 players=4 turn=Q", "depot", 1, {"players", "games"}).take("turn").seat(4)
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 24 (turn): 'Q' is not a seat; seats are A to D
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from .errors import show
from .spec import json_safe

if TYPE_CHECKING:
    from .state import State

#: Longest position text read (a whole Yadokarick solo game with every deck is ~1 KB).
MAX_POSITION = 20_000
_WORD = re.compile(r"[A-Za-z0-9_.+\-]+\Z")
_TOKEN = re.compile(r"\S+")
_SEATS = "ABCDEFGH"


class PositionError(ValueError):
    """Position text that does not parse, names an unknown card, or breaks card conservation.

    ``column`` (1-based, in the text; ``None`` when the problem is the whole position)
    and ``field`` (the key of the bad field, ``None`` for the header) say where.
    """

    def __init__(self, message: str, *, column: int | None = None, field: str | None = None) -> None:
        self.column, self.field, self.reason = column, field, message
        where = ""
        if column is not None:
            where = f"column {column}" + (f" ({field})" if field else "") + ": "
        elif field is not None:
            where = f"{field}: "
        super().__init__(where + message)


@dataclass(frozen=True)
class Value:
    """A part of a position's text that remembers where it starts (for errors)."""

    text: str
    column: int
    key: str | None

    def error(self, message: str, offset: int = 0) -> PositionError:
        """A :class:`PositionError` at this part (``offset`` characters into it)."""
        return PositionError(message, column=self.column + offset, field=self.key)

    # ------------------------------------------------------------------ pieces
    def split(self, sep: str, count: int | None = None) -> list["Value"]:
        """The parts between ``sep``; with ``count``, exactly that many or an error."""
        out, pos = [], 0
        for piece in self.text.split(sep):
            out.append(Value(piece, self.column + pos, self.key))
            pos += len(piece) + len(sep)
        if count is not None and len(out) != count:
            raise self.error(f"expected {count} parts separated by {sep!r}, got {len(out)}")
        return out

    @property
    def unknown(self) -> bool:
        """``?`` or ``?N``: a part nobody wrote."""
        return self.text.startswith("?")

    def unknown_count(self) -> int | None:
        """``N`` of ``?N`` (``None`` for a bare ``?``); an error for anything else."""
        if not self.unknown:
            raise self.error(f"{show(self.text)} is not '?' or '?N'")
        if self.text == "?":
            return None
        rest = Value(self.text[1:], self.column + 1, self.key)
        return rest.int(0, 10_000)

    # ------------------------------------------------------------------ typed reads
    def int(self, lo: int | None = None, hi: int | None = None) -> int:
        """An integer in ``[lo, hi]``."""
        t = self.text
        if not re.fullmatch(r"-?[0-9]{1,9}", t):
            raise self.error(f"{show(t)} is not a number")
        v = int(t)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            raise self.error(f"{v} is out of range ({span})")
        return v

    def seat(self, players: int, *, none: bool = False) -> int | None:
        """A seat letter (``A`` ...); ``-`` is ``None`` when ``none`` allows it."""
        if none and self.text == "-":
            return None
        if len(self.text) == 1 and self.text in _SEATS[:players]:
            return _SEATS.index(self.text)
        return self._bad_seat(players)

    def _bad_seat(self, players: int) -> Any:
        raise self.error(f"{show(self.text)} is not a seat; seats are A to {_SEATS[players - 1]}")

    def choice(self, allowed: Sequence[str]) -> str:
        """One of the words ``allowed``."""
        if self.text in allowed:
            return self.text
        raise self.error(f"{show(self.text)} is not one of: {', '.join(allowed)}")

    def flag(self) -> bool:
        """``1`` or ``0``."""
        return self.choice(("0", "1")) == "1"

    def cards(self, card: Callable[[str], Any], example: str) -> list[Any]:
        """A list of cards: notations joined by ``,`` (``-`` is the empty list).

        ``card`` reads one notation (``None`` if it is not a card of the game)."""
        if self.text == "-":
            return []
        out = []
        for part in self.split(","):
            c = card(part.text) if part.text else None
            if c is None:
                raise part.error(f"{show(part.text)} is not a card ({example})")
            out.append(c)
        return out

    def ints(self, lo: int | None = None, hi: int | None = None, sep: str = ",") -> list[int]:
        """Integers joined by ``sep`` (``-`` is the empty list)."""
        if self.text == "-":
            return []
        return [p.int(lo, hi) for p in self.split(sep)]


class Fields:
    """The fields of a position after its header and options, taken one by one by the game."""

    def __init__(self, items: dict[str, Value], text: str) -> None:
        self._items = items
        self._text = text
        self._end = len(text) + 1

    def take(self, key: str, default: str | None = None) -> Value:
        """The field ``key`` (an error naming it if it is missing and has no default)."""
        v = self._items.pop(key, None)
        if v is not None:
            return v
        if default is not None:
            return Value(default, self._end, key)
        raise PositionError(f"the field {key}= is missing", column=self._end, field=key)

    def has(self, key: str) -> bool:
        return key in self._items

    def finish(self) -> None:
        """Refuse fields the game did not read."""
        if self._items:
            key, v = min(self._items.items(), key=lambda kv: kv[1].column)
            raise PositionError(f"unknown field {key}=", column=v.column - len(key) - 1, field=key)


@dataclass
class Parsed:
    """A position's header and options, and its game fields still to read."""

    game: str
    version: int
    options: dict[str, Any]
    columns: dict[str, int]
    fields: Fields

    def take(self, key: str, default: str | None = None) -> Value:
        return self.fields.take(key, default)


def read_position(text: Any, game: str | None, version: int | None, option_names: Iterable[str]) -> Parsed:
    """Split a position into header, options and game fields (no game logic).

    ``game``/``version``: what the header must say (``None``: anything).
    ``option_names``: the keys read as options (``players``, ``mode`` and the
    spec's options); their values are plain words, numbers or compact JSON.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position is text, got {type(text).__name__}")
    if len(text) > MAX_POSITION:
        raise PositionError(f"the position is {len(text):,} characters; at most {MAX_POSITION:,} are read")
    if "\n" in text.strip():
        raise PositionError("a position is one line of text", column=text.index("\n") + 1)
    tokens = [(m.group(0), m.start() + 1) for m in _TOKEN.finditer(text)]
    if not tokens:
        raise PositionError("the position is empty", column=1)
    head, col = tokens[0]
    m = re.fullmatch(r"([a-z_]+)/([0-9]{1,6})", head)
    if not m:
        raise PositionError(f"{show(head)} is not a header '<game>/<version>' such as 'depot/1'", column=col)
    if game is not None and m.group(1) != game:
        raise PositionError(f"this is a {m.group(1)} position, not {game}", column=col)
    if version is not None and int(m.group(2)) != version:
        raise PositionError(f"written for rules version {m.group(2)}; this library plays version {version}",
                            column=col + len(m.group(1)) + 1)
    names = set(option_names)
    options: dict[str, Any] = {}
    columns: dict[str, int] = {}
    items: dict[str, Value] = {}
    for tok, col in tokens[1:]:
        key, eq, raw = tok.partition("=")
        if not eq or not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
            raise PositionError(f"{show(tok)} is not a field 'key=value'", column=col)
        if key in items or key in options:
            raise PositionError(f"the field {key}= is given twice", column=col, field=key)
        vcol = col + len(key) + 1
        if key in names:
            options[key] = _option_value(raw, vcol, key)
            columns[key] = vcol
        else:
            items[key] = Value(raw, vcol, key)
    return Parsed(m.group(1), int(m.group(2)), options, columns, Fields(items, text))


def _option_value(raw: str, col: int, key: str) -> Any:
    if raw in ("true", "false", "null") or raw[:1] in "[{\"" or re.fullmatch(r"-?[0-9]+", raw):
        try:
            return json.loads(raw)
        except ValueError:
            raise PositionError(f"{show(raw)} is not a value (a word, a number or JSON)", column=col,
                                field=key) from None
        except RecursionError:  # "[[[[..." nested past what the JSON decoder follows
            raise PositionError(f"{show(raw)} is JSON nested too deeply to be a value", column=col,
                                field=key) from None
    if not raw:
        raise PositionError("the value is empty", column=col, field=key)
    return raw


def option_text(value: Any) -> str:
    """An option's value as a position writes it: a plain word or number, else compact JSON
    (a space inside a string written ``\\u0020``, so the value stays one field)."""
    if isinstance(value, str) and _WORD.match(value) and value not in ("true", "false", "null") \
            and not re.fullmatch(r"-?[0-9]+", value):
        return value
    return json.dumps(value, separators=(",", ":"), sort_keys=True).replace(" ", "\\u0020")


def seat_text(seat: int | None) -> str:
    """``0`` -> ``A``; ``None`` -> ``-``."""
    return "-" if seat is None else _SEATS[seat]


def cards_text(cards: Iterable[Any], name: Callable[[Any], str] = str) -> str:
    """Cards joined by ``,`` (``-`` when there are none)."""
    return ",".join(name(c) for c in cards) or "-"


def write_position(state: "State", fields: Iterable[tuple[str, str]]) -> str:
    """The header, the options that differ from their defaults, then the game's fields."""
    spec = state.SPEC
    parts = [f"{spec.name}/{spec.version}", f"players={state.players}"]
    if len(spec.modes) > 1:
        parts.append(f"mode={state.mode}")
    for name, value in spec.non_defaults(state.options).items():
        # keys as JSON has them: a table may mix numbers and names
        parts.append(f"{name}={option_text(json_safe(value))}")
    if state.names is not None:
        parts.append(f"names={option_text(list(state.names))}")
    for key, value in fields:
        if not value or any(ch.isspace() for ch in value):
            raise AssertionError(f"{spec.name}: field {key}= must be non-empty and hold no spaces: {value!r}")
        parts.append(f"{key}={value}")
    return " ".join(parts)


def deal_unknown(state: "State", slots: Sequence[tuple[Any, int | None]], pool: list[Any],
                 at: Value | None = None) -> Iterator[tuple[Any, list[Any]]]:
    """Deal the unplaced cards ``pool`` to the unknown parts of a position, at random.

    ``slots`` are ``(name, count)``: a part of ``count`` cards, or of all the cards
    left over when ``count`` is ``None`` (at most one such part, dealt last).
    Shuffles with the state's seeded RNG; yields ``(name, cards)``. A pool of the
    wrong size is a :class:`PositionError` (card conservation).
    """
    fixed = sum(c for _, c in slots if c is not None)
    rest = [n for n, c in slots if c is None]
    if len(rest) > 1:
        raise (at.error if at else PositionError)("only one part may be '?' without a count")
    if fixed > len(pool) or (not rest and fixed != len(pool)):
        msg = (f"the unknown parts hold {fixed} cards but {len(pool)} are not placed"
               if fixed != len(pool) else "")
        raise at.error(msg) if at else PositionError(msg)
    cards = list(pool)
    state._shuffle(cards)
    k = 0
    for name, count in slots:
        if count is not None:
            yield name, cards[k:k + count]
            k += count
    for name in rest:
        yield name, cards[k:]


def load_position(text: Any, seed: int | None, classes: Callable[[str], type]) -> "State":
    """A state from position text, for a game module's ``from_position``.

    ``classes(mode)`` is the state class of a mode. The class reads its fields in
    ``_load_position(parsed)`` (see ``State._load_position``); then unread
    fields are refused, the state is checked (``_check_loaded``) and the text becomes
    the game's start (replays save it with the seed, which deals its unknown parts).
    """
    from .registry import game_module

    probe = read_position(text, None, None, ())
    spec = game_module(probe.game).SPEC if _known(probe.game) else None
    if spec is None:
        raise PositionError(f"unknown game {show(probe.game)}", column=_first_col(text))
    names = {"players", "mode", "names", *(o.name for o in spec.options)}
    parsed = read_position(text, spec.name, spec.version, names)
    opts = dict(parsed.options)
    players = opts.pop("players", None)
    mode = opts.pop("mode", None)
    if players is None:
        raise PositionError("the field players= is missing", column=len(text) + 1, field="players")
    try:
        cls = classes(mode if isinstance(mode, str) else spec.default_mode)
        st = cls._create(players, seed, mode, opts)
    except (TypeError, ValueError) as e:
        key = _blame(str(e), parsed.columns)
        raise PositionError(str(e), column=parsed.columns.get(key), field=key) from None
    try:
        st._load_position(parsed)
        parsed.fields.finish()
        st._derive()
        st._check_loaded()
    except PositionError:
        raise
    except (TypeError, ValueError, KeyError, IndexError) as e:
        raise PositionError(f"not a consistent position: {e}") from None
    st._origin = text.strip()  # replays of this game start from the text (and the seed)
    return st


def from_position(text: Any, seed: int | None = None) -> "State":
    """A state from position text of any game (the header names it); see the module docs.

    ``seed`` deals the unknown parts (``?``) and every later shuffle (``None``: a fresh
    one). Raises :class:`PositionError`.
    """
    from .registry import game_module

    probe = read_position(text, None, None, ())
    if not _known(probe.game):
        raise PositionError(f"unknown game {show(probe.game)}", column=_first_col(text))
    mod = game_module(probe.game)
    if not hasattr(mod, "from_position"):
        raise PositionError(f"{probe.game} has no position text yet", column=_first_col(text))
    return mod.from_position(text, seed)


def _known(game: str) -> bool:
    from .registry import available_games

    return game in available_games()


def _first_col(text: str) -> int:
    m = _TOKEN.search(text)
    return m.start() + 1 if m else 1


def _blame(message: str, columns: dict[str, int]) -> str | None:
    """The option an error message is about (its name starts the message), if any."""
    for key in sorted(columns, key=len, reverse=True):
        if message.startswith(key) or f" {key}=" in message or message.startswith(f"{key}="):
            return key
    return next(iter(columns), None)
