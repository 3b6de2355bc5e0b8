"""Depot's cards and actions: the card values, the actions :class:`Play` and :class:`Pass`, their
notation and ``parse_action``, the zones (a count per value packed in an int), the Storage's
limits and the enumeration of the plays a hand holds.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence, Union

from ...core import InvalidActionError
from ...core.deck import check_deck
from ...core.errors import quote, show


VALUES = range(1, 9)
PLAYERS = (3, 4, 5)
#: One card of value ``v`` as a packed count vector: the zones section below explains them.
_ONE = tuple(1 << 8 * v for v in range(9))

DEFAULT_DECK = {1: 13, 2: 12, 3: 11, 4: 10, 5: 10, 6: 9, 7: 8, 8: 7}  # D1.1
DEFAULT_HAND = {3: 9, 4: 9, 5: 8}  # D2.2
DEFAULT_STORAGE = {3: 3, 4: 4, 5: 4}  # D2.3
#: The engine's bound on the turns of one game (D9.3: the rules set none). A game
#: that reaches it ends as aborted, so no sequence of moves keeps a kernel busy.
TURN_BOUND = 20_000
#: The most cards of one value a game may have: a set can then never be longer than a play's
#: notation may be (``play`` and 80 values fit the 200 characters of an action), and every
#: zone's count fits its byte (see _ONE).
MAX_COPIES = 80


# --------------------------------------------------------------------------- actions
def _card_values(cards: Any) -> tuple[int, ...]:
    if not isinstance(cards, (tuple, list)):
        raise InvalidActionError(f"a play's cards are a tuple of values 1-8, got {show(cards)}")
    for v in cards:
        if isinstance(v, bool) or not isinstance(v, int) or v not in VALUES:
            raise InvalidActionError(f"{show(v)} is not a card value 1-8")
    return tuple(sorted(cards))


@dataclass(frozen=True, slots=True)
class Play:
    """Play these card values (any order; kept ascending).

    >>> Play((5, 3, 4)), str(Play((5, 5)))
    (Play(cards=(3, 4, 5)), 'play 5 5')
    """

    kind = "play"
    cards: tuple[int, ...]
    #: ``(count, total)``, what D4.6 compares; derived from ``cards``.
    strength: tuple[int, int] = field(init=False, repr=False, compare=False)
    #: The cards as a packed count vector (see ``_ONE``), so applying a play is one subtraction.
    _counts: int = field(init=False, repr=False, compare=False)
    #: ``(bit shift, copies)`` per value played: what the table forgets of the player's known cards.
    _parts: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    #: The strength as one number, ``count * _COUNT + total``, for the legal list's bisect.
    _key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = _card_values(self.cards)
        if not cards:
            raise InvalidActionError("a play names at least one card value (D4.1)")
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "strength", (len(cards), sum(cards)))
        object.__setattr__(self, "_counts", sum(_ONE[v] for v in cards))
        object.__setattr__(self, "_parts", tuple((8 * v, cards.count(v)) for v in sorted(set(cards))))
        object.__setattr__(self, "_key", len(cards) * 4096 + sum(cards))  # _COUNT

    def __str__(self) -> str:
        return "play " + " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: take every Storage card of value ``take``, optionally give one card ``give``."""

    kind = "pass"
    take: int | None = None
    give: int | None = None
    # Precomputed for the simulation fast path (see _ONE): the byte mask and the bit shift
    # of the value taken (0: none), the card given as a count vector (0: none), its byte's
    # mask, and the number of cards given.
    _take: int = field(init=False, repr=False, compare=False)
    _shift: int = field(init=False, repr=False, compare=False)
    _one: int = field(init=False, repr=False, compare=False)
    _mask: int = field(init=False, repr=False, compare=False)
    _gives: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("take", "give"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v not in VALUES):
                raise InvalidActionError(f"pass: {name}={show(v)} is not a card value 1-8")
        take, give = self.take, self.give
        object.__setattr__(self, "_take", 0 if take is None else 255 << 8 * take)
        object.__setattr__(self, "_shift", 0 if take is None else 8 * take)
        object.__setattr__(self, "_one", 0 if give is None else _ONE[give])
        object.__setattr__(self, "_mask", 0 if give is None else 255 << 8 * give)
        object.__setattr__(self, "_gives", int(give is not None))

    def __str__(self) -> str:
        out = "pass"
        if self.take is not None:
            out += f" take {self.take}"
        if self.give is not None:
            out += f" give {self.give}"
        return out


Action = Union[Play, Pass]

_SPLIT = re.compile(r"[\s,]+")
_DIGITS = {str(v): v for v in VALUES}


def _value(token: str, text: str) -> int:
    v = _DIGITS.get(token)  # exactly "1".."8": no other digit forms (⑨, ²) or huge numbers reach int()
    if v is None:
        raise InvalidActionError(f"{quote(text)}: {quote(token, 12)} is not a card value 1-8")
    return v


def parse_action(text: str) -> Action:
    """Parse Depot notation: ``play 3 4 5``, ``pass take 3 give 7``, ``pass 3``, ``pass``.

    >>> parse_action("PLAY 5,5"), str(parse_action("pass 3 give 7"))
    (Play(cards=(5, 5)), 'pass take 3 give 7')
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{show(text)} is not action text")
    tokens = [t for t in _SPLIT.split(text.strip().lower()) if t]
    if not tokens:
        raise InvalidActionError("empty action text; expected 'play <values>' or 'pass take <v> [give <g>]'")
    verb, rest = tokens[0], tokens[1:]
    if verb == "play":
        if not rest:
            raise InvalidActionError(f"{quote(text)}: a play names at least one card value (D4.1)")
        if len(rest) > MAX_COPIES:
            raise InvalidActionError(f"{quote(text)}: a play has at most {MAX_COPIES} cards")
        return _play(tuple(sorted(_value(t, text) for t in rest)))
    if verb == "pass":
        take = give = None
        if rest and rest[0] == "take":
            if len(rest) < 2:
                raise InvalidActionError(f"{quote(text)}: 'take' needs a value")
            take, rest = _value(rest[1], text), rest[2:]
        elif rest and rest[0] != "give":
            take, rest = _value(rest[0], text), rest[1:]
        if rest:
            # Say what is wrong: a second give (D6.3), a give without its value, or anything else.
            form = "expected 'pass take <v> [give <g>]'"
            if rest[0] != "give":
                raise InvalidActionError(f"{quote(text)}: {form}; {quote(rest[0], 20)} is out of place: a pass "
                                         f"takes one value and gives at most one card, in that order")
            if len(rest) == 1:
                raise InvalidActionError(f"{quote(text)}: 'give' needs a value")
            if len(rest) > 2:
                two = "give" in rest[2:] or len(rest) == 3 and rest[2].isdigit()
                extra = "at most one card may be given (D6.3)" if two else "nothing follows the given card"
                raise InvalidActionError(f"{quote(text)}: {form}; {extra}")
            give = _value(rest[1], text)
        return _PASS[take, give]
    raise InvalidActionError(f"{quote(text)}: unknown command {quote(verb, 20)}; expected 'play' or 'pass'")


# Interned action objects: the legal list hands out the same objects every time, so
# enumeration allocates nothing and identity comparisons are fast.
_PLAYS: dict[tuple[int, ...], Play] = {}


def _play(cards: tuple[int, ...]) -> Play:
    p = _PLAYS.get(cards)
    if p is None:
        p = Play(cards)
        if len(_PLAYS) < 100_000:
            _PLAYS[cards] = p
    return p


#: players -> the seat after each seat (D5.1: clockwise)
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in PLAYERS}

_PASS: dict[tuple[int | None, int | None], Pass] = {
    (t, g): Pass(t, g) for t in (None, *VALUES) for g in (None, *VALUES)
}


# --------------------------------------------------------------------------- zones
# Every multiset zone (a hand, the Storage, the discard) is a packed count vector: an
# int whose byte ``v`` counts the cards of value ``v`` (byte 0 is unused). Ints are
# immutable, so clone() shares them; moving a card is one addition; and
# ``_vec(x)`` gives the counts as bytes for C-speed indexing, max, sum and translate.
# A count never exceeds MAX_COPIES because no game may hold more of one value.
# (``_ONE``, one card of each value, is defined with the values at the top.)


def _vec(zone: int) -> bytes:
    """The count vector as bytes: ``_vec(zone)[v]`` is the number of cards of value ``v``."""
    return zone.to_bytes(9, "little")


def _size(zone: int) -> int:
    """The number of cards in the zone."""
    return sum(zone.to_bytes(9, "little"))


def _cards(zone: int) -> list[int]:
    """The zone's cards in ascending order."""
    c = zone.to_bytes(9, "little")
    # Repeating and joining bytes runs in C: no Python loop over values and copies.
    return list(b"\x01" * c[1] + b"\x02" * c[2] + b"\x03" * c[3] + b"\x04" * c[4]
                + b"\x05" * c[5] + b"\x06" * c[6] + b"\x07" * c[7] + b"\x08" * c[8])


def _counts(cards: Iterable[int]) -> int:
    return sum(_ONE[v] for v in cards)


def _fmt(cards: Iterable[int]) -> str:
    return "[" + ",".join(map(str, cards)) + "]"


# --------------------------------------------------------------------------- metrics
def set_limit(storage: Sequence[int]) -> int:
    """Largest multiplicity in the Storage (D3.2); ``storage[v]`` counts value ``v``."""
    return max(storage)


def run_limit(storage: Sequence[int]) -> int:
    """Longest chain of distinct consecutive values present (D3.3; 8 and 1 do not wrap, D3.4)."""
    best = k = 0
    for v in VALUES:
        k = k + 1 if storage[v] else 0
        if k > best:
            best = k
    return best


def shape(cards: tuple[int, ...]) -> str | None:
    """``"single"``, ``"set"``, ``"run"`` or ``None`` for a sorted play (D4.2)."""
    if len(cards) == 1:
        return "single"
    if cards[0] == cards[-1]:
        return "set"
    if all(cards[i + 1] == cards[i] + 1 for i in range(len(cards) - 1)):
        return "run"
    return None


# --------------------------------------------------------------------------- enumeration
# Legal plays come from two lookups, each memoized on a key with few values whatever the
# size of the hand or the Storage, in the legal list's order (count, then total, then
# values) so that the list is a concatenation and the strength filter (D4.7) a bisect:
#
# * plays of 1 and 2 cards: they depend only on each value's copies capped at 2 (at 1
#   when the set limit allows no pair): one ``bytes.translate`` of the hand's count
#   vector, at most 3**8 patterns;
# * plays of k cards, k >= 3: one lookup per k, on a byte per value — 2 if the hand
#   holds k copies (and k is within the set limit), 1 if the value is merely present
#   (for runs of k within the run limit), 0 otherwise: at most 3**8 patterns per k. Only
#   the k the hand can reach are looked up: up to its most copies or its longest run;
# * the passes: for each value the Storage holds, the passes taking it depend only on
#   which values the hand holds: 9 x 512 short lists, shared by every Storage (one list
#   per pair of presence patterns made tens of thousands of long lists, out of cache);
# * everything a Storage content decides is gathered once (_StorageInfo), from pieces
#   shared by every Storage with the same set limit and values present.
class _Memo(dict):
    """A dict that builds a missing entry with ``build(key)`` on first use."""

    __slots__ = ("build",)

    def __init__(self, build: Any) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.build(key)
        return value


def _table(f: Any) -> bytes:
    """A ``bytes.translate`` table mapping a count ``c`` (0..255) to ``f(c)``."""
    return bytes(int(f(c)) for c in range(256))


_PRESENT = _table(lambda c: c > 0)
#: cards per value -> the cards in ascending order (what a new game's shuffle starts from)
_SORTED = _Memo(lambda counts: tuple(v for v, k in zip(VALUES, counts) for _ in range(k)))
#: ``play._key`` orders plays by strength (D4.6): count first, then total.
_COUNT = 4096


def _plays_finder(sizes: range, sl: int, rl: int) -> Any:
    """``find(pattern) -> (keys, plays)``: the plays of these sizes a hand allows, in legal
    order, with their ``_key``.

    ``pattern[v]`` is a lower bound of the copies of ``v`` held, exact up to the sets
    asked for; non-zero means ``v`` is present. Singles always (D4.3), sets up to the set
    limit (D4.4), runs of present values up to the run limit (D4.5). The candidates are
    listed once, so that a new pattern (simulations meet thousands) costs one pass over
    them; patterns that allow the same plays share one entry, which keeps the lists few
    and in cache."""
    shapes = [(v,) * k for k in sizes for v in VALUES if k == 1 or k <= sl]
    shapes += [tuple(range(s, s + k)) for k in sizes if 2 <= k <= rl for s in range(1, 10 - k)]
    shapes.sort(key=lambda cards: (len(cards), sum(cards), cards))
    # (lowest value, count, is a run): a set of v needs pattern[v] >= count, a run needs
    # each of its values present.
    needs = [(cards[0], len(cards), cards[0] != cards[-1]) for cards in shapes]
    entries: dict[tuple[int, ...], tuple[list[int], list[Play]]] = {}

    def find(pattern: bytes) -> tuple[list[int], list[Play]]:
        found = tuple(i for i, (v, k, run) in enumerate(needs)
                      if (0 not in pattern[v:v + k] if run else pattern[v] >= k))
        entry = entries.get(found)
        if entry is None:
            entry = entries[found] = ([len(shapes[i]) * _COUNT + sum(shapes[i]) for i in found],
                                      [_play(shapes[i]) for i in found])
        return entry

    return find


def _longest_run(present: Sequence[int]) -> int:
    """The longest chain of consecutive values present (as run_limit, D3.3)."""
    best = k = 0
    for v in VALUES:
        k = k + 1 if present[v] else 0
        best = max(best, k)
    return best


def _low_plays(pairs: bool, runs: bool) -> _Memo:
    """Plays of 1 and 2 cards by the hand's counts capped at 2: ``(keys, plays, held, chain)``,
    the plays in legal order, their ``_key``, the values held (bit ``v`` for value ``v``) and
    the longest run of values held."""
    find = _plays_finder(range(1, 3), 2 * pairs, 2 * runs)

    def build(capped: bytes) -> tuple[list[int], list[Play], int, int]:
        keys, plays = find(capped)
        return keys, plays, sum(1 << v for v in VALUES if capped[v]), _longest_run(capped)

    return _Memo(build)


_LOW_PLAYS = {(pairs, runs): _low_plays(pairs, runs) for pairs in (False, True) for runs in (False, True)}
_CAPS = {cap: _table(lambda c: min(c, cap)) for cap in (1, 2)}


def _level(k: int, sets: bool, runs: bool) -> tuple[bytes, _Memo]:
    """``(translate table, (keys, plays) by pattern)`` of the plays of exactly ``k`` cards:
    the pattern is 2 for a value held ``k`` times when sets of ``k`` are allowed, 1 for a
    value present when runs of ``k`` are, else 0."""
    table = _table(lambda c: 2 if sets and c >= k else int(runs and c > 0))
    copies = bytes([0, 1, k] + [0] * 253)  # the pattern as copies for the finder
    find = _plays_finder(range(k, k + 1), k * sets, k * runs)
    return table, _Memo(lambda pattern: find(pattern.translate(copies)))


_LEVELS = _Memo(lambda key: _level(*key))


def _high(limits: tuple[int, int]) -> tuple[tuple[bytes, _Memo], ...]:
    """The levels of 3 cards and more the limits allow (D4.4, D4.5), 3 first."""
    sl, rl = limits
    return tuple(_LEVELS[k, k <= sl, k <= rl] for k in range(3, max(sl, rl) + 1))


_HIGH = _Memo(_high)


def _pass_chunk(take: int | None) -> list[list[Pass]]:
    """The passes taking ``take``, indexed by the values held (bit ``v`` for value ``v``): no give
    first, then each value held other than the one taken (D6.3). Giving the last card
    (D6.4) is left to the caller: it can only happen when nothing is taken."""
    return [[_PASS[take, None], *(_PASS[take, g] for g in VALUES if g != take and held >> g & 1)]
            for held in range(512)]


_PASS_CHUNKS = {t: _pass_chunk(t) for t in (None, *VALUES)}


def _pass_lists(storage_present: bytes) -> tuple[list[list[Pass]], ...]:
    """Per value that may be taken, its passes indexed by the values held (bit ``v`` for ``v``)."""
    takes = [v for v in VALUES if storage_present[v]] or [None]  # D6.2: take a value held there, if any
    return tuple(_PASS_CHUNKS[t] for t in takes)


# Storage presence pattern -> (run limit, the pass lists of the values it holds).
_PRESENCE = _Memo(lambda present: (run_limit(present), _pass_lists(present)))


class _StorageInfo:
    """What the rules read from one Storage content (D3), shared by every state holding it.

    ``size``, the limits ``sl`` and ``rl``; ``cap`` and ``low``: the translate table and
    the plays of 1 and 2 cards by capped hand; ``high``: ``(table, plays by pattern)`` per
    count from 3 up; ``passes``: per value that may be taken, its passes by the values
    held (bits).
    """

    __slots__ = ("size", "sl", "rl", "cap", "low", "high", "passes")

    def __init__(self, size: int, sl: int, rl: int, passes: tuple[list[list[Pass]], ...]) -> None:
        self.size, self.sl, self.rl, self.passes = size, sl, rl, passes
        self.cap = _CAPS[2 if sl >= 2 else 1]
        self.low = _LOW_PLAYS[sl >= 2, rl >= 2]
        self.high = _HIGH[sl, rl]


class _StorageClass:
    """The pieces shared by every Storage with the same set limit and values present."""

    __slots__ = ("sl", "rl", "passes", "infos")

    def __init__(self, sl: int, present: bytes) -> None:
        self.sl = sl
        self.rl, self.passes = _PRESENCE[present]
        #: size -> the info of a Storage of this class with that many cards
        self.infos = _Memo(lambda size: _StorageInfo(size, self.sl, self.rl, self.passes))


#: set limit -> values present -> class (the set limit is at most MAX_COPIES)
_CLASSES = [_Memo(lambda present, sl=sl: _StorageClass(sl, present)) for sl in range(256)]
#: Storage content -> info, for the contents met lately. Simulations meet new contents all
#: the time (the target grows every round), so the fast path looks a miss up by class
#: itself (see _fill) rather than through a call; the cache is emptied when it is full.
_SEEN: dict[int, _StorageInfo] = {}


def _info_of(storage: int) -> _StorageInfo:
    """The :class:`_StorageInfo` of a Storage content."""
    info = _SEEN.get(storage)
    if info is None:
        counts = storage.to_bytes(9, "little")
        info = _CLASSES[max(counts)][counts.translate(_PRESENT)].infos[sum(counts)]
        if len(_SEEN) >= 1 << 16:
            _SEEN.clear()
        _SEEN[storage] = info
    return info


def _check_deck(deck: list[Any], need: Counter) -> list[int]:
    def card(c: Any) -> int | None:
        if isinstance(c, str):
            c = _DIGITS.get(c.strip())
        return c if isinstance(c, int) and not isinstance(c, bool) and c in VALUES else None

    return check_deck(deck, need.elements(), card, what="Depot card (values 1-8)")
