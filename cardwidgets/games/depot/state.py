"""Depot: a climbing/shedding game whose shared Storage sets the size of every play.

Rule IDs ``D1``–``D10`` (and the resolutions ``DA-*``) are cited in every refusal
and narration line; ``cardwidgets.rules.lookup("D4.2")`` explains each. Cards are
values 1–8; equal values are interchangeable, so every zone is a multiset, kept as
a packed count vector (see ``_ONE``).

>>> st = new_game(players=4, seed=1)
>>> st.phase, st.current_player
('lead', 0)
>>> print(st.apply("play 2")[0])
A leads [2] (single; limits: set 1, run 3) — rule D4.8.
>>> st.apply("pass take 9")
Traceback (most recent call last):
...
cardwidgets.core.errors.InvalidActionError: 'pass take 9': '9' is not a card value 1-8
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence, Union

from ...core import (ANY, Event, Field, GameSpec, IllegalActionError, InvalidActionError, Mode, Option, Outcome,
                    Phase, State, Termination, plural, tuple_field)
from ...core.deck import check_deck
from ...core.errors import quote, show
from ...core.position import Parsed, PositionError, Value, cards_text, deal_unknown, load_position, seat_text
from ...core.spec import int_range, optional, seat_or_random

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


def _per_value(value: Any) -> str | None:
    if not isinstance(value, dict) or not value:
        return "expected a dict {value: count} for values 1..8"
    for k, c in value.items():
        if _int_key(k) not in VALUES or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_COPIES:
            return f"expected a dict {{value: count}} with values 1..8 and counts from 0 to {MAX_COPIES}"
    return None


def _per_players(lo: int) -> Any:
    def check(value: Any) -> str | None:
        if not isinstance(value, dict) or {_int_key(k) for k in value} != set(PLAYERS):
            return "expected a dict {players: count} for 3, 4 and 5 players"
        if any(isinstance(c, bool) or not isinstance(c, int) or not lo <= c <= 255 for c in value.values()):
            return f"counts must be ints from {lo} to 255" + (" (a hand of 0 cards could never play, D2.2)"
                                                             if lo else "")
        return None

    return check


def _int_key(k: Any) -> int | None:
    # JSON turns int keys into strings; accept both so saved games load back.
    if isinstance(k, int) and not isinstance(k, bool):
        return k
    if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 4:
        return int(k)
    return None


def _int_keys(value: dict) -> dict[int, int]:
    return {_int_key(k): c for k, c in value.items()}


SPEC = GameSpec(
    name="depot",
    title="Depot",
    version=1,
    summary="climbing/shedding with a shared Storage, 3–5 players, optional 3-game match",
    modes=(Mode("standard", PLAYERS, rule="D1.4"),),
    options=(
        Option("starting_player", 0, check=seat_or_random(4), doc="seat that leads round 1, or 'random'",
               rule="D2.5",
               label="Who leads the first round",
               help="The seat that plays first in round 1.",
               values=(("random", "A random seat"),),
               group="Who starts"),
        Option("deck_counts", DEFAULT_DECK, check=_per_value, doc="cards per value", normalize=_int_keys,
               rule="D1.1",
               label="Cards of each value",
               help="How many cards of each value 1–8 the deck holds.",
               values=((DEFAULT_DECK, "The standard 80 cards: 13 ones down to 7 eights"),),
               accepts="a table of value → number of cards (set from code)",
               group="The cards and the deal"),
        Option("hand_size", DEFAULT_HAND, check=_per_players(1), doc="hand size per player count",
               normalize=_int_keys, rule="D2.2",
               label="Cards in each hand",
               help="How many cards each player is dealt, by the number of players.",
               values=((DEFAULT_HAND, "9 with 3 or 4 players, 8 with 5"),),
               accepts="a table of players → cards (set from code)",
               group="The cards and the deal"),
        Option("initial_storage", DEFAULT_STORAGE, check=_per_players(0), doc="T0 per player count",
               normalize=_int_keys, rule="D2.3",
               label="Cards in the first Storage",
               help="Cards turned face up into the Storage at the start; also the first Storage target.",
               values=((DEFAULT_STORAGE, "3 with 3 players, 4 with 4 or 5"),),
               accepts="a table of players → cards (set from code)",
               group="The cards and the deal"),
        Option("refill_target", "target", ("target", "noted"), doc="what a pass refills to", rule="DA-7",
               label="What a pass refills the Storage to",
               help="When everyone passes, how many cards the Storage is refilled to.",
               values=(("target", "The current Storage target"),
                       ("noted", "The size it had when the passing began")),
               group="How play goes"),
        Option("reshuffle_timing", "on_draw", ("on_draw", "when_empty"), doc="when the discard is reshuffled",
               rule="D9.1",
               label="When the discard pile is reshuffled",
               help="When the discard pile is shuffled into a new deck.",
               values=(("on_draw", "When a card must be drawn from an empty deck"),
                       ("when_empty", "As soon as the deck runs out")),
               group="The cards and the deal"),
        Option("games", 1, (1, 3), doc="1 = single game, 3 = match", rule="D10",
               label="One game or a match",
               help="Play one game, or a match of three games scored in lost points.",
               values=((1, "One game"), (3, "A match of three games"),),
               group="How long a game lasts"),
        Option("rank_tiebreak", "seat_after_winner", ("seat_after_winner", "random"), rule="D10.2",
               label="Ties in the ranking",
               help="How players still tied on cards and hand values are ranked after a game.",
               values=(("seat_after_winner", "Clockwise from the seat after the winner"),
                       ("random", "At random")),
               group="Scoring and winning"),
        Option("penalty_mode", "distinct_descending", ("distinct_descending", "greedy"), rule="D10.3",
               label="How penalty cards are taken",
               help="In a match, how the players behind the winner take penalty cards from the Storage.",
               values=(("distinct_descending", "Each taker a lower value than the one before"),
                       ("greedy", "Each taker the highest value left")),
               group="Scoring and winning"),
        Option("penalty_cards_leave_play", True, (True, False), rule="D10.5",
               label="Penalty cards leave the match",
               help="Whether penalty cards stay out of the later games of a match.",
               values=((True, "Yes: out for the rest of the match"),
                       (False, "No: shuffled back in for the next game")),
               group="Scoring and winning"),
        Option("next_game_starter", "last_place", ("last_place", "winner", "rotate"), rule="D10.6",
               label="Who starts the next game of a match",
               help="Who leads the first round of games 2 and 3.",
               values=(("last_place", "Last place of the game just played"),
                       ("winner", "The winner of the game just played"),
                       ("rotate", "The seat after the last starting player")),
               group="Who starts"),
        Option("match_tie", "shared", ("shared", "last_game_rank"), rule="D10.7",
               label="A tied match",
               help="How a tie on lost points after three games is settled.",
               values=(("shared", "The tied players share the win"),
                       ("last_game_rank", "Whoever ranked better in game 3")),
               group="Scoring and winning"),
        Option("max_turns", None, check=optional(int_range(1, TURN_BOUND)),
               doc=f"stop a game after this many turns as aborted (not a rule; the engine's own bound is "
                   f"{TURN_BOUND})", rule="D9.3",
               label="Turn limit",
               help="Stop a game as aborted after this many turns (for simulations; not a rule).",
               values=((None, "No limit"),),
               accepts=f"a whole number of turns from 1 to {TURN_BOUND}, or empty for no limit",
               group="How long a game lasts"),
    ),
    phases=(
        Phase("lead", ("play",), "the leader opens a round",
              refusals={"pass": ("D5.3", "the leader must play on the first turn of a round")}),
        Phase("respond", ("play", "pass")),
        Phase("finished", ()),
    ),
    table="Depot",
    max_actions=lambda players, options: (options.get("max_turns") or TURN_BOUND) * options.get("games", 1),
    pauses=("scoring",),
)


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


# --------------------------------------------------------------------------- state
def _zone(cards: Any) -> int:
    """Decode a saved zone (a list of values), refusing anything but values 1..8."""
    if not isinstance(cards, list) or any(isinstance(v, bool) or not isinstance(v, int) or v not in VALUES
                                          for v in cards):
        raise ValueError(f"a zone is a list of card values 1-8, got {show(cards, 60)}")
    if len(cards) > MAX_COPIES and max(Counter(cards).values()) > MAX_COPIES:
        # no game has more (and one byte per value, see _ONE: more than 255 would spill over)
        raise ValueError(f"a zone holds more than {MAX_COPIES} cards of one value")
    return _counts(cards)


def _deck_bytes(top_first: Any) -> bytes:
    """The internal deck (top card last, one byte per card) from a list written top first."""
    _zone(top_first)  # validates the values
    return bytes(top_first[::-1])


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list, got {show(value, 40)}")
    return value


def _pair(value: Any, what: str, second: Any) -> tuple[int, Any]:
    """A saved ``[seat, thing]`` (the standing play, the last action); the seat is checked later."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{what}: expected [seat, ...], got {show(value, 40)}")
    return value[0], second(value[1])


def _play_of(cards: Any) -> "Play":
    return _play(_card_values(_list(cards, "standing play")))


def _decode_penalties(piles: Any) -> tuple[tuple[int, ...], ...]:
    out = []
    for pile in _list(piles, "penalties"):
        _zone(pile)
        out.append(tuple(pile))
    return tuple(out)


_RESULT_KEYS = ("game", "ranking", "cards_left", "hands", "taken", "lost_points")


def _result_copy(r: dict[str, Any]) -> dict[str, Any]:
    return {"game": r["game"], "ranking": list(r["ranking"]), "cards_left": list(r["cards_left"]),
            "hands": [list(h) for h in r["hands"]], "taken": list(r["taken"]), "lost_points": list(r["lost_points"])}


def _decode_results(results: Any) -> tuple[dict[str, Any], ...]:
    """The saved records of finished games, their shape checked (their sense is checked with the state)."""
    out = []
    for r in _list(results, "results"):
        if not isinstance(r, dict) or sorted(r) != sorted(_RESULT_KEYS):
            raise ValueError(f"a game result has the keys {', '.join(_RESULT_KEYS)}; got {show(r, 60)}")
        for key in _RESULT_KEYS[1:]:
            _list(r[key], f"result {key}")
        for h in r["hands"]:
            _zone(h)
        ints = [r["game"], *r["ranking"], *r["cards_left"], *r["lost_points"],
                *(t for t in r["taken"] if t is not None)]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
            raise ValueError(f"a game result holds something other than numbers: {show(r, 60)}")
        out.append(_result_copy(r))
    return tuple(out)


def _decode_built(cards: Any) -> int | None | bool:
    # ``True`` stands for a state saved before the record existed (see DepotState.from_dict).
    return cards if cards is None or cards is True else _zone(cards)


class _Inconsistent(ValueError):
    """A loaded state no game could reach; ``field`` names the position field it is about."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _number(v: Any, what: str, lo: int, hi: int, field: str | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _Inconsistent(f"{what} must be a whole number from {lo} to {hi}, got {show(v, 20)}", field)
    return v


def _seat_of(v: Any, n: int, what: str, field: str | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise _Inconsistent(f"{what} must be a seat 0..{n - 1}, got {show(v, 20)}", field)
    return v


def _result_text(r: dict[str, Any]) -> str:
    """A finished game of a match in position text: ranking, hands at the end, penalty cards."""
    return ("".join(seat_text(s) for s in r["ranking"]) + ":" + "/".join(cards_text(h) for h in r["hands"]) + ":"
            + ",".join("-" if t is None else str(t) for t in r["taken"]))


def _read_results(v: Value, n: int) -> list[tuple[dict[str, Any], Value]]:
    """The ``results`` field: ``(record, where its penalty cards are written)`` per finished game."""
    if v.text == "-":
        return []
    out = []
    lost = [0] * n
    for i, game in enumerate(v.split(";")):
        ranking, hands, taken = game.split(":", 3)
        if len(ranking.text) != n:
            raise ranking.error(f"the ranking of game {i + 1} names every seat once, such as "
                                f"{''.join(seat_text(s) for s in range(n))}")
        order = [Value(ch, ranking.column + k, v.key).seat(n) for k, ch in enumerate(ranking.text)]
        if len(set(order)) != n:
            raise ranking.error(f"the ranking of game {i + 1} names every seat once")
        cards = [h.cards(_DIGITS.get, "a value 1-8") for h in hands.split("/", n)]
        took = [None if t.text == "-" else t.int(1, 8) for t in taken.split(",", n)]
        lost = [a + (t or 0) for a, t in zip(lost, took)]
        out.append(({"game": i + 1, "ranking": order, "cards_left": [len(h) for h in cards], "hands": cards,
                     "taken": took, "lost_points": list(lost)}, taken))
    return out


def _within(small: int, big: int) -> bool:
    """Whether every count of the zone ``small`` is at most the same count of ``big``."""
    return all(a <= b for a, b in zip(_vec(small), _vec(big)))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _article(v: int) -> str:
    return "an" if v == 8 else "a"


def _took(taken: int, v: int) -> str:
    if taken == 1:
        return f"the {v}"
    return f"both {v}s" if taken == 2 else f"all {taken} {v}s"


class DepotState(State):
    """A Depot game (or 3-game match) in progress. Build it with :func:`new_game`."""

    SPEC = SPEC
    action_types = (Play, Pass)
    _parse = staticmethod(parse_action)

    # Zones are packed count vectors (ints, see _ONE). The deck is bytes, one card
    # value per byte, top card last; the match records are tuples: clone() copies
    # references, and nothing a clone shares is ever mutated in place (only the lists
    # of hands and of known cards are copied).
    __slots__ = (
        "_hands", "_storage", "_info", "_deck", "_discard", "_target", "_standing",
        "_current", "_passes", "_round", "_game_no", "_starter", "_phase", "_turns",
        "_lost", "_penalties", "_results", "_winners", "_reason", "_termination", "_last", "_built",
        "_known", "_deck_known", "_max_turns", "_noted", "_when_empty", "_next", "is_terminal",
    )
    FIELDS = (
        Field("_hands", "list", lambda hs: [_cards(h) for h in hs], lambda hs: [_zone(h) for h in hs]),
        Field("_storage", encode=_cards, decode=_zone),
        Field("_info", save=False),
        Field("_deck", encode=lambda d: list(d[::-1]), decode=_deck_bytes),
        Field("_discard", encode=_cards, decode=_zone),
        Field("_target"), Field("_current"), Field("_passes"), Field("_round"),
        Field("_game_no"), Field("_starter"), Field("_phase"), Field("_turns"),
        Field("_standing", encode=lambda s: None if s is None else [s[0], list(s[1].cards)],
              decode=lambda s: None if s is None else _pair(s, "standing", _play_of)),
        tuple_field("_lost"),
        Field("_penalties", encode=lambda ps: [list(p) for p in ps], decode=_decode_penalties),
        Field("_results", encode=lambda rs: [_result_copy(r) for r in rs], decode=_decode_results),
        Field("_winners", encode=lambda w: None if w is None else list(w),
              decode=lambda w: None if w is None else tuple(_list(w, "winners"))),
        Field("_reason"),
        Field("_termination", encode=lambda t: t.value, decode=Termination),
        Field("_last", encode=lambda x: None if x is None else [x[0], str(x[1])],
              decode=lambda x: None if x is None else _pair(x, "last action", parse_action)),
        Field("_built", encode=lambda b: None if b is None else _cards(b), decode=_decode_built),
        Field("_known", "list", lambda ks: [_cards(k) for k in ks], lambda ks: [_zone(k) for k in _list(ks, "known")]),
        Field("_deck_known"),
        Field("_max_turns", save=False), Field("_noted", save=False), Field("_when_empty", save=False),
        Field("_next", save=False),
        # A plain attribute rather than a property: simulations read it before every action.
        Field("is_terminal", save=False),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return None if self._phase == "finished" else self._current

    @property
    def phase(self) -> str:
        """``"lead"`` (the leader must play), ``"respond"`` or ``"finished"``."""
        return self._phase

    @property
    def storage(self) -> list[int]:
        """The Storage as a sorted list of values."""
        return _cards(self._storage)

    @property
    def target(self) -> int:
        """The Storage target T (D2.3, D7.2)."""
        return self._target

    @property
    def limits(self) -> tuple[int, int]:
        """``(set_limit, run_limit)`` of the current Storage (D3)."""
        return self._info.sl, self._info.rl

    @property
    def standing(self) -> tuple[int, tuple[int, ...]] | None:
        """``(owner, cards)`` of the play to beat, or ``None`` (D1.3)."""
        st = self._standing
        return None if st is None else (st[0], st[1].cards)

    def hand(self, seat: int) -> list[int]:
        """A seat's hand as a sorted list (teacher access; players use :meth:`view`)."""
        return _cards(self._hands[seat])

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Action]:
        """Legal actions of the player to act: plays by (count, total, values), then passes."""
        # Builds a new list every time, so the base class's copy is not needed.
        if self.is_terminal:
            return []
        counts = self._hands[self._current].to_bytes(9, "little")
        info = self._info
        standing = self._standing
        # Plays stronger than the standing play (D4.7): the plays of 1 and 2 cards past
        # it, then those of 3 cards and up (past it too). The lead (D4.8) takes them all.
        keys, plays, held, chain = info.low[counts.translate(info.cap)]
        if standing is None:
            out = plays[:]
            k = 0
        else:
            play = standing[1]
            out = plays[bisect_right(keys, play._key):]
            k = play.strength[0]
        high = info.high
        if high:
            # Counts from 3 (or the standing play's count) up, while the hand can reach them:
            # its longest run within the run limit, and on while some value is held that
            # many times (2 in the pattern), which a bigger set needs too.
            runs = info.rl if info.rl < chain else chain
            i = 0 if k < 3 else k - 3
            if i < len(high):
                table, memo = high[i]
                pattern = counts.translate(table)
                keys, plays = memo[pattern]
                out += plays if k < 3 else plays[bisect_right(keys, play._key):]
                for table, memo in high[i + 1:]:
                    if i + 3 >= runs and 2 not in pattern:
                        break
                    i += 1
                    pattern = counts.translate(table)
                    out += memo[pattern][1]
        if standing is None:
            return out  # the leader must play (D5.3)
        if info.size or sum(counts) > 1:
            for chunk in info.passes:
                out += chunk[held]
        else:
            out.append(_PASS[None, None])  # nothing to take, and the only card may not be given (D6.4)
        return out

    _legal = legal_actions

    def ui_candidates(self, seat: int | None) -> list[str]:
        """A single of each value in the seat's hand: the table says why one cannot be played."""
        if self._phase == "finished" or seat != self._current:
            return []
        return [f"play {v}" for v in sorted(set(_cards(self._hands[seat])))]

    def _diagnose(self, action: Action) -> tuple[str, str] | None:
        hand = _vec(self._hands[self._current])
        if isinstance(action, Play):
            return self._diagnose_play(action.cards, hand)
        return self._diagnose_pass(action, hand)

    def _diagnose_play(self, cards: tuple[int, ...], hand: bytes) -> tuple[str, str] | None:
        for v in sorted(set(cards)):
            k = cards.count(v)
            if hand[v] < k:
                held = "no" if not hand[v] else ("only one" if hand[v] == 1 else f"only {hand[v]}")
                need = f"{_article(v)} {v}" if k == 1 else f"{k} of them"
                return "D4.1", f"you hold {held} {v}{'s' if hand[v] != 1 else ''}; the play needs {need}"
        kind, k = shape(cards), len(cards)
        if kind is None:
            counts = Counter(cards)
            if len(set(counts.values())) == 1 and len(counts) > 1 and k > len(counts):
                return "D4.2", "two sets (or two runs) cannot be played together"
            if len(counts) < k:
                return "D4.2", f"{_fmt(cards)} is neither a set nor a run (a run cannot repeat a value)"
            held = set(cards)
            if sum((v % 8) + 1 not in held for v in held) == 1:  # a run if 8 led on to 1: [1,8], [7,8,1,2]
                return "D4.2", f"{_fmt(cards)} is neither a set nor a run (8 and 1 are not consecutive, D3.4)"
            return "D4.2", f"{_fmt(cards)} is neither a set nor a run (the values are not consecutive)"
        sl, rl = self.limits
        if kind == "set" and k > sl:
            return "D4.4", f"a set of {k} exceeds the set limit {sl} (Storage {_fmt(self.storage)})"
        if kind == "run" and k > rl:
            return "D4.5", f"a run of {k} exceeds the run limit {rl} (Storage {_fmt(self.storage)})"
        if self._standing is not None:
            sc = self._standing[1].cards
            if k < len(sc):
                return "D4.7", f"{plural(k, 'card')} cannot beat a {len(sc)}-card play {_fmt(sc)}"
            if k == len(sc) and sum(cards) == sum(sc):
                return "D4.7", (
                    f"{_fmt(cards)} has the same strength ({plural(k, 'card')}, total {sum(cards)}); "
                    f"it must be stronger")
            if k == len(sc) and sum(cards) < sum(sc):
                return "D4.7", (
                    f"a {k}-card play must beat {_fmt(sc)} (total {sum(sc)}); {_fmt(cards)} totals {sum(cards)}"
                )
        return None

    def _diagnose_pass(self, action: Pass, hand: bytes) -> tuple[str, str] | None:
        take, give = action.take, action.give
        storage = _vec(self._storage)
        if sum(storage):
            if take is None:
                return "D6.2", f"a value must be taken from the Storage {_fmt(_cards(self._storage))}"
            if not storage[take]:
                return "D6.2", f"there is no {take} in the Storage {_fmt(_cards(self._storage))}"
        elif take is not None:
            return "D6.2", "the Storage is empty, so nothing can be taken"
        if give is not None:
            if give == take:
                return "D6.3", f"the given card must differ from the taken value {take}"
            if not hand[give]:
                return "D6.3", f"you hold no {give} to give"
            if take is None and sum(hand) == 1:
                return "D6.4", "giving your last card would empty your hand"
        return None

    # ------------------------------------------------------------- transitions
    def apply_unchecked(self, action: Action) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``.

        The steps simulations spend their time in are written out here: a play that
        leaves cards in the hand, a pass, and the end of a round. The rest (going out,
        the turn cap, refills that shuffle a pile they do not draw whole) runs the code
        of the narrated path; the tests check both paths end in the same state.
        """
        self._history = (self._history, action)
        self._moves += 1
        turns = self._turns + 1
        if turns >= self._max_turns:
            self._apply(action, None)
            return
        self._turns = turns
        p = self._current
        hands = self._hands
        if type(action) is Pass:
            storage = self._storage
            moved = storage & action._take  # D6.2: every card of the value taken
            give = action._one  # D6.3: one card (or none) given
            delta = moved - give
            hands[p] += delta
            storage -= delta
            known = self._known  # everyone saw the take; a card known in the hand may be given
            seen = known[p] + moved
            if seen & action._mask:
                seen -= give
            known[p] = seen
            have = self._info.size - (moved >> action._shift) + action._gives
            goal = self._info.size if self._noted else self._target
            passes = self._passes + 1
            ends = passes == self.players - 1  # n - 1 passes in a row end the round (D7.1)
            if not ends:
                self._passes, self._last, self._current = passes, (p, action), self._next[p]
            while True:  # twice when the round ends: the pass's refill, then the round's (D7.2)
                # The refill (D6.5), written out for the cases simulations meet most: cards
                # left in the deck, or deck and discard pile both dry (D9.2).
                need = goal - have
                deck = self._deck
                left = len(deck) - need
                if need <= 0 or not deck and not self._discard:
                    info = _SEEN.get(storage)
                    if info is None:
                        info = _info_of(storage)
                    self._storage, self._info = storage, info
                elif left > 0 or not left and not (self._when_empty and self._discard):
                    if need == 1:
                        storage += _ONE[deck[left]]
                    else:
                        for v in deck[left:]:
                            storage += _ONE[v]
                    self._deck = deck[:left]
                    info = _SEEN.get(storage)
                    if info is None:
                        info = _info_of(storage)
                    self._storage, self._info = storage, info
                else:
                    self._fill(storage, have, goal)
                    storage, info = self._storage, self._info
                if not ends:
                    return
                ends = False
                owner, play = self._standing
                self._discard += play._counts
                self._standing = self._last = None
                self._target = goal = self._target + 1
                self._current, self._passes, self._phase = owner, 0, "lead"
                self._round += 1
                have = info.size
        hand = hands[p] - action._counts
        if not hand:  # going out (D8.1)
            self._turns = turns - 1
            self._apply(action, None)
            return
        hands[p] = hand
        known = self._known[p]
        if known:
            for shift, k in action._parts:
                had = known >> shift & 255
                if had:
                    known -= (had if had < k else k) << shift
            self._known[p] = known
        prev = self._standing
        if prev is not None:
            self._discard += prev[1]._counts
        self._standing = self._last = (p, action)
        self._passes, self._current, self._phase = 0, self._next[p], "respond"

    def _fill(self, storage: int, have: int, goal: int) -> None:
        """The refill of the fast path: ``storage`` (``have`` cards) drawn up to ``goal``.

        Draws from the top of the deck. When the deck runs dry the discard pile is
        reshuffled (D9.1); if it is drawn whole at once, it goes into the Storage without
        a shuffle, as its order cannot matter (the decision is still counted). A pile
        drawn in part is ``_refill``'s, like the narrated path.
        """
        need = goal - have
        if need > 0:
            deck = self._deck
            left = len(deck) - need
            if left > 0 or not left and not (self._when_empty and self._discard):
                if need == 1:
                    storage += _ONE[deck[left]]
                else:
                    for v in deck[left:]:
                        storage += _ONE[v]
                self._deck = deck[:left]
            else:
                pile = self._discard
                if pile:
                    if -left < sum(pile.to_bytes(9, "little")):
                        self._storage = storage
                        self._refill(goal, have, None, "D6.5")
                        return
                    storage += pile
                    self._discard = 0
                    self._rng_count += 1
                    self._deck_known = True
                if deck:
                    for v in deck:
                        storage += _ONE[v]
                    self._deck = b""
        info = _SEEN.get(storage)
        if info is None:  # _info_of, written out: the simulations' most frequent call
            counts = storage.to_bytes(9, "little")
            info = _CLASSES[max(counts)][counts.translate(_PRESENT)].infos[sum(counts)]
            if len(_SEEN) >= 1 << 16:
                _SEEN.clear()
            _SEEN[storage] = info
        self._storage, self._info = storage, info

    def _apply(self, action: Action, ev: list[Event] | None) -> None:
        p = self._current
        self._turns += 1
        self._last = (p, action)
        if type(action) is Play:
            self._do_play(p, action, ev)
        else:
            self._do_pass(p, action, ev)
        if self._turns >= self._max_turns and self._phase != "finished":
            self._phase, self._winners, self._termination = "finished", (), Termination.ABORTED
            self.is_terminal = True
            self._reason = self._abort_reason()
            if ev is not None:
                rule = "G4" if self.options["max_turns"] is None else "D9.3"
                ev.append(Event("abort", {"turns": self._turns}, rule,
                                f"The game is stopped after {self._turns:,} turns: a safety cap, not a rule "
                                f"(rule {rule})."))

    def _do_play(self, p: int, play: Play, ev: list[Event] | None) -> None:
        hands = self._hands
        hand = hands[p] = hands[p] - play._counts
        known = self._known[p]
        if known:
            # The table knew some of these cards were in the hand (taken from the Storage):
            # it now knows that many fewer, never less than none.
            for shift, k in play._parts:
                had = known >> shift & 255
                if had:
                    known -= (had if had < k else k) << shift
            self._known[p] = known
        prev = self._standing
        if prev is not None:
            self._discard += prev[1]._counts
        self._standing = (p, play)
        self._passes = 0
        if ev is not None:
            cards = play.cards
            kind = shape(cards)
            desc = f"{kind} of {len(cards)}, total {sum(cards)}" if kind != "single" else "single"
            lim = "limits: set {}, run {}".format(*self.limits)
            who = self.seat_label(p)
            if prev is None:
                text, rule = f"{who} leads {_fmt(cards)} ({desc}; {lim}) — rule D4.8.", "D4.8"
            else:
                pc = prev[1].cards
                text = (f"{who} plays {_fmt(cards)} ({desc}; {lim}). It beats {_fmt(pc)} "
                        f"({plural(len(pc), 'card')}, total {sum(pc)}) — rule D4.6.")
                rule = "D4.6"
            ev.append(Event("play", {"seat": p, "cards": list(cards)}, rule, text))
        if not hand:
            self._game_end(p, ev)
        else:
            self._current = (p + 1) % self.players
            self._phase = "respond"

    def _do_pass(self, p: int, action: Pass, ev: list[Event] | None) -> None:
        hand, storage = self._hands[p], self._storage
        have = noted = self._info.size
        take, give = action.take, action.give
        taken = 0
        if take is not None:
            shift = 8 * take  # the byte of value ``take`` (see _ONE)
            taken = storage >> shift & 255
            moved = taken << shift
            hand += moved
            storage -= moved
            have -= taken
            self._known[p] += moved  # everyone saw them go into this hand (D6.2)
        if give is not None:
            hand -= _ONE[give]
            storage += _ONE[give]
            have += 1
            known = self._known[p]
            if known >> 8 * give & 255:
                self._known[p] = known - _ONE[give]
        self._hands[p], self._storage = hand, storage
        goal = noted if self._noted else self._target
        self._passes += 1
        if ev is not None:
            what = f"takes {_took(taken, take)} from the Storage" if take is not None else \
                "takes nothing (the Storage is empty)"
            if give is not None:
                what += f" and gives {_article(give)} {give}"
            text = f"{self.seat_label(p)} passes (rule D6): {what}."
            if have >= goal:  # no refill follows: say what the Storage is now
                self._info = _info_of(storage)
                text += f" {self._storage_line()}"
            ev.append(Event("pass", {"seat": p, "take": take, "give": give, "taken": taken}, "D6", text))
        self._refill(goal, have, ev, "D6.5")
        if self._passes == self.players - 1:
            self._round_end(ev)
        else:
            self._current = (p + 1) % self.players

    def _storage_line(self) -> str:
        return "Storage {} — set limit {}, run limit {}.".format(_fmt(_cards(self._storage)), *self.limits)

    def _refill(self, goal: int, have: int, ev: list[Event] | None, rule: str) -> None:
        """Draw from the deck into the Storage (``have`` cards now) up to ``goal`` (D6.5, D7.2, D9)."""
        storage = self._storage
        if have < goal:
            if self._previewing and (self._deck or self._discard):  # the deck is hidden: a preview stops here
                self._hidden(ev, "the Storage is refilled from the deck")
            drawn: list[int] = []

            def tell(last: bool) -> None:
                """Narrate the cards drawn so far (before a reshuffle, so the order reads true)."""
                if ev is not None and drawn:
                    text = (f"{plural(len(drawn), 'card')} from the deck go{'es' * (len(drawn) == 1)} into the "
                            f"Storage: {_fmt(drawn)} (rule {rule}).")
                    ev.append(Event("refill", {"drawn": drawn[:]}, rule,
                                    f"{text} {self._storage_line()}" if last else text))
                    drawn.clear()
            deck = self._deck
            n = len(deck)
            while have < goal:
                if not n:
                    pile = self._discard
                    if not pile:
                        break
                    self._deck = b""  # every card of the old deck was drawn
                    if ev is None and _size(pile) <= goal - have:
                        # The whole pile goes into the Storage now, so its order cannot
                        # matter: the simulation skips the generator (the decision is still
                        # counted, and the narrated path shuffles to tell the order drawn).
                        storage += pile
                        have += _size(pile)
                        self._discard = 0
                        self._rng_count += 1
                        self._deck_known = True
                        deck, n = b"", 0
                        continue
                    tell(False)
                    self._reshuffle(ev)
                    deck = self._deck
                    n = len(deck)
                n -= 1
                v = deck[n]
                storage += _ONE[v]
                have += 1
                if ev is not None:
                    drawn.append(v)
                if not n and self._when_empty and self._discard:
                    self._deck = b""
                    tell(False)
                    self._reshuffle(ev)
                    deck = self._deck
                    n = len(deck)
            self._deck = deck if n == len(deck) else deck[:n]
            self._storage = storage
            self._info = _info_of(storage)
            if ev is not None:
                told = bool(drawn)
                tell(True)
                if have < goal:
                    # what the Storage is now, unless the refill just said it
                    now = "" if told else f" {self._storage_line()}"
                    ev.append(Event("short", {"missing": goal - have}, "D9.2",
                                    f"Deck and discard are both empty: the Storage stays at {have} of {goal} "
                                    f"cards (rule D9.2).{now}"))
        else:
            # The take/give of a pass changed the Storage, so always look it up again (D3.5).
            self._info = _info_of(storage)

    def _reshuffle(self, ev: list[Event] | None) -> None:
        cards = _cards(self._discard)  # sorted first, so the shuffle depends only on the RNG
        if cards[0] != cards[-1]:
            self._shuffle(cards)
        else:
            # A pile of one value (a discarded set, a single card) is the same in any
            # order: skip the generator but keep the decision count, so games replay alike.
            self._rng_count += 1
        self._deck = bytes(cards) + self._deck  # any cards still in the deck stay on top
        self._discard = 0
        self._deck_known = True  # everyone saw the discard pile that became the deck
        if ev is not None:
            ev.append(Event("reshuffle", {"cards": len(cards)}, "D9.1",
                            f"The deck is empty: the {len(cards)}-card discard pile is shuffled into a new "
                            f"deck (rule D9.1)."))

    def _round_end(self, ev: list[Event] | None) -> None:
        owner, play = self._standing
        last = self._current
        self._discard += play._counts
        self._standing = None
        self._target += 1
        self._current = owner
        self._passes = 0
        self._round += 1
        self._phase = "lead"
        self._last = None  # a new round starts with no last move on the table
        if ev is not None:
            ev.append(Event(
                "round_end", {"leader": owner, "target": self._target}, "D7.1",
                f"{self.seat_label(last)}'s pass is the {_ordinal(self.players - 1)} in a row (rule D7.1): the "
                f"round is over. {_fmt(play.cards)} is discarded and the Storage target grows to {self._target} "
                f"(rule D7.2); {self.seat_label(owner)} leads round {self._round}."))
        self._refill(self._target, self._info.size, ev, "D7.2")

    # ------------------------------------------------------------- game and match end
    def _ranking(self, winner: int) -> list[int]:
        """D10.2: winner first, then fewer cards, then higher total, then the tiebreak."""
        tie = None
        if self.options["rank_tiebreak"] == "random":
            tie = list(range(self.players))
            self._shuffle(tie)
        return self._rank(winner, self._hands, tie)

    def _rank(self, winner: int, hands: Sequence[int], order: list[int] | None) -> list[int]:
        """The D10.2 ranking of these hands; ties broken by ``order`` (a seat order), else
        clockwise from the seat after the winner."""
        n = self.players
        tie = {s: (s - winner - 1) % n for s in range(n)} if order is None else {s: order.index(s) for s in range(n)}
        others = [s for s in range(n) if s != winner]
        counts = [_vec(h) for h in hands]
        others.sort(key=lambda s: (sum(counts[s]), -sum(v * c for v, c in enumerate(counts[s])), tie[s]))
        return [winner, *others]

    def _take_penalties(self, ranking: list[int]) -> dict[int, int | None]:
        """D10.3: from last place up to 2nd, each takes one Storage card."""
        storage = self._storage
        penalties = list(self._penalties)
        greedy = self.options["penalty_mode"] == "greedy"
        ref = None
        taken: dict[int, int | None] = {}
        for s in reversed(ranking[1:]):
            counts = _vec(storage)
            present = [v for v in VALUES if counts[v]]
            if not present:
                c = None
            elif greedy or ref is None:
                c = present[-1]
            else:
                lower = [v for v in present if v < ref]
                c = lower[-1] if lower else (ref if counts[ref] else None)
            if c is not None:
                storage -= _ONE[c]
                penalties[s] += (c,)
                ref = c
            taken[s] = c
        self._storage, self._info = storage, _info_of(storage)
        self._penalties = tuple(penalties)
        return taken

    def _game_end(self, p: int, ev: list[Event] | None) -> None:
        who = self.seat_label(p)
        if ev is not None:
            ev.append(Event("game_end", {"winner": p, "game": self._game_no}, "D8.1",
                            f"{who} has played their last card: game {self._game_no} is over (rule D8.1)."))
        if self.options["games"] == 1:
            self._phase, self.is_terminal = "finished", True
            self._winners, self._reason = self._end_of(p)
            return
        self._hidden(ev, "the hands are shown and ranked (rule D10.2)")
        ranking = self._ranking(p)
        taken = self._take_penalties(ranking)
        self._lost = tuple(lost + (taken.get(s) or 0) for s, lost in enumerate(self._lost))
        self._results += ({
            "game": self._game_no,
            "ranking": ranking,
            "cards_left": [_size(h) for h in self._hands],
            "hands": [_cards(h) for h in self._hands],  # shown when the game ends (D10.2)
            "taken": [taken.get(s) for s in range(self.players)],
            "lost_points": list(self._lost),
        },)
        if ev is not None:
            order = ", ".join(self.seat_label(s) for s in ranking)
            takes = ", ".join(f"{self.seat_label(s)} {taken[s] if taken[s] is not None else 'nothing'}"
                              for s in reversed(ranking[1:]))
            ev.append(Event("scoring", self._results[-1], "D10.3",
                            f"Ranking (rule D10.2): {order}. Penalty cards (rule D10.3): {takes}. Lost points "
                            f"so far: " + ", ".join(f"{self.seat_label(s)} {self._lost[s]}"
                                                    for s in range(self.players)) + "."))
        if self._game_no < self.options["games"]:
            rule = self.options["next_game_starter"]
            starter = ranking[-1] if rule == "last_place" else p if rule == "winner" else \
                (self._starter + 1) % self.players
            self._game_no += 1
            self._setup(starter, None)
            if ev is not None:
                ev.append(Event("new_game", {"game": self._game_no, "starter": starter}, "D10.6",
                                f"Game {self._game_no} of {self.options['games']}: the cards are shuffled and "
                                f"dealt again; {self.seat_label(starter)} leads (rule D10.6)."))
            return
        self._phase, self.is_terminal = "finished", True
        self._winners, self._reason = self._end_of(p)
        if ev is not None:
            ev.append(Event("match_end", {"winners": list(self._winners)}, "D10.7",
                            f"The match is over: {self._reason}."))

    def _end_of(self, p: int) -> tuple[tuple[int, ...], str]:
        """The winners and the reason of a game (or match) that ``p`` has just ended by going out."""
        if self.options["games"] == 1:
            return (p,), f"{self.seat_label(p)} emptied their hand (rule D8.1)"
        best = min(self._lost)
        tied = [s for s in range(self.players) if self._lost[s] == best]
        why = f"fewest lost points after {self.options['games']} games"
        if len(tied) > 1 and self.options["match_tie"] == "last_game_rank":
            level = " and ".join(self.seat_label(s) for s in tied)
            tied = [min(tied, key=self._results[-1]["ranking"].index)]
            why += f" ({level} tied with {best}; the last game's ranking puts {self.seat_label(tied[0])} first)"
            return tuple(tied), f"{why}: {self.seat_label(tied[0])} wins (rule D10.7)"
        names = " and ".join(self.seat_label(s) for s in tied)
        return tuple(tied), f"{why}: {names} with {best} (rule D10.7)"

    def _abort_reason(self) -> str:
        if self.options["max_turns"] is None:  # no cap was asked for: the engine's own bound (G4)
            return f"stopped by the engine's safety cap of {self._turns:,} turns (rule G4)"
        return f"stopped after {self._turns} turns by the max_turns safety cap (rule D9.3)"

    # ------------------------------------------------------------- setup
    def _setup(self, starter: int, order: list[int] | None) -> None:
        """Deal a game (D2). ``order`` is top-first; ``None`` shuffles the cards in play."""
        n = self.players
        if order is None:
            counts = dict(self._deck_counts())
            if self.options["penalty_cards_leave_play"]:
                for pile in self._penalties:
                    for v in pile:
                        counts[v] -= 1
            else:
                self._penalties = ((),) * n
            order = list(_SORTED[tuple(counts[v] for v in VALUES)])
            self._shuffle(order)
            # After a hand-built first game the penalty piles may hold cards the deck has not:
            # then this game's cards are the ones dealt and the piles.
            self._built = None if min(counts.values()) >= 0 else \
                _counts(order) + _counts(v for pile in self._penalties for v in pile)
        # One card at a time clockwise from the starter: card i of the deal goes to seat
        # (starter + i) % n, then the Storage's cards (D2.2, D2.3).
        dealt = self.options["hand_size"][n] * n
        t0 = self.options["initial_storage"][n]
        card = _ONE.__getitem__
        hands = [0] * n
        for i in range(n):
            hands[(starter + i) % n] = sum(map(card, order[i:dealt:n]))
        storage = sum(map(card, order[dealt:dealt + t0]))
        self._hands, self._storage, self._info = hands, storage, _info_of(storage)
        self._known = [0] * n
        self._deck_known = False
        self._deck = bytes(reversed(order[dealt + t0:]))  # internal: the top card last
        self._discard = 0
        self._target = t0
        self._standing = None
        self._current = self._starter = starter
        self._passes = 0
        self._round = 1
        self._phase = "lead"
        self.is_terminal = False
        self._last = None
        self._turns = 0

    def _deck_counts(self) -> dict[int, int]:
        return {v: self.options["deck_counts"].get(v, 0) for v in VALUES}

    def all_cards(self) -> Counter:
        """Every card in every zone (hands, Storage, deck, discard, table, penalty piles)."""
        c = Counter(self._deck)
        for zone in (*self._hands, self._storage, self._discard):
            counts = _vec(zone)
            c.update({v: counts[v] for v in VALUES if counts[v]})
        if self._standing:
            c.update(self._standing[1].cards)
        for pile in self._penalties:
            c.update(pile)
        return c

    def _deck_multiset(self) -> Counter:
        return Counter({v: k for v, k in self._deck_counts().items() if k})

    # ------------------------------------------------------------- loading
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "DepotState":
        """Rebuild a state from :meth:`to_dict`; ``ValueError`` if the data is not a state a
        game could reach (see ``_check_loaded``)."""
        state = data.get("state") if isinstance(data, dict) else None
        if isinstance(state, dict) and "built" not in state:
            # Saved before these records existed: its cards are its game's cards, and the
            # table is taken to know nothing of the hands and the deck.
            hands = state.get("hands")
            data = {**data, "state": {"built": True, "deck_known": False,
                                      "known": [[] for _ in hands] if isinstance(hands, list) else None,
                                      **state}}
        return super().from_dict(data)  # type: ignore[return-value]

    def _derive(self) -> None:
        self._info = _info_of(self._storage)
        self.is_terminal = self._phase == "finished"
        self._next = _NEXT[self.players]
        self._max_turns = self.options["max_turns"] or TURN_BOUND
        self._noted = self.options["refill_target"] == "noted"
        self._when_empty = self.options["reshuffle_timing"] == "when_empty"

    def _check_loaded(self) -> None:
        """Refuse a loaded state that no game could reach: a field of the wrong type or range,
        cards created or lost, or fields that disagree (who is to act, the phase, the records)."""
        n = self.players
        self._check_fields(n)
        self._check_cards()
        self._check_turn(n)
        self._check_records(n)
        self._check_start()

    def _check_fields(self, n: int) -> None:
        if not isinstance(self._hands, list) or len(self._hands) != n:
            raise _Inconsistent(f"a {n}-player state needs {n} hands", "hands")
        for name in ("_current", "_starter"):
            _seat_of(getattr(self, name), n, name[1:])
        _number(self._target, "target", 0, 10**6, "target")
        _number(self._round, "round", 1, 10**6, "round")
        _number(self._game_no, "game", 1, self.options["games"], "game")
        _number(self._passes, "passes", 0, n - 2, "passes")  # n - 1 passes in a row end the round (D7.1)
        _number(self._turns, "turns", 0, self._max_turns, "turns")
        if self._phase not in ("lead", "respond", "finished"):
            raise ValueError(f"unknown phase {show(self._phase)}")
        if not isinstance(self._lost, tuple) or len(self._lost) != n:
            raise ValueError(f"lost points: expected {n} numbers")
        for v in self._lost:
            _number(v, "lost points", 0, 10**6)
        if len(self._penalties) != n:
            raise _Inconsistent(f"penalties: expected {n} piles", "results")
        if len(self._known) != n or not all(_within(k, h) for k, h in zip(self._known, self._hands)):
            raise ValueError("the cards known to be in a hand must be in that hand")
        if not isinstance(self._deck_known, bool):
            raise ValueError("deck_known must be true or false")
        if not isinstance(self._reason, str):
            raise ValueError("the reason the game ended must be text")
        if self._standing is not None:
            _seat_of(self._standing[0], n, "the standing play's owner", "standing")
            if shape(self._standing[1].cards) is None:
                raise _Inconsistent(f"the standing play {_fmt(self._standing[1].cards)} is neither a set nor a run "
                                    f"(D4.2)", "standing")
        if self._last is not None:
            _seat_of(self._last[0], n, "the last action's seat")
        if self._winners is not None:
            for s in self._winners:
                _seat_of(s, n, "winner")
        if self._deck_order_bad():
            raise ValueError("the recorded deck order is not a deck of this game")
        self._check_origin()

    def _check_origin(self) -> None:
        """A hand-built start (what replays record) must itself be a position of this game."""
        origin = self._origin
        if origin is None:
            return
        if self.deck_order is not None:
            raise ValueError("a game starts from a deck order or from a hand-built position, not both")
        if isinstance(origin, str):
            start = from_position(origin, self.seed)
        elif not isinstance(origin, dict) or origin.get("position") is not None:
            raise ValueError("the hand-built start must be position text or a saved position of its own")
        else:
            start = type(self).from_dict({**origin, "history": []})
        if (start.players, start.mode, start.options) != (self.players, self.mode, self.options):
            raise ValueError("the hand-built start is a game with other options")

    def _deck_order_bad(self) -> bool:
        if self.deck_order is None:
            return False
        try:
            _check_deck(list(self.deck_order), self._deck_multiset())
        except ValueError:
            return True
        return False

    def _check_cards(self) -> None:
        have = self.all_cards()
        if any(k > MAX_COPIES for k in have.values()):
            raise ValueError(f"more than {MAX_COPIES} cards of one value")
        if self._built is True:  # saved by an older version: whatever it holds is its game's cards
            self._built = _counts(have.elements())
        want = self._deck_multiset() if self._built is None else Counter(_cards(self._built))
        if have != want:
            extra, missing = have - want, want - have
            raise ValueError("the cards are not those of this game (cards created or lost): "
                             + "; ".join(f"{what} {_fmt(sorted(c.elements()))}"
                                         for what, c in (("extra", extra), ("missing", missing)) if c))
        if self._info.size > max(self._target, 1):
            # take-and-give never grows the Storage, the refills stop at T; only a give to
            # an empty Storage can put 1 card there when T is 0 (D6.3, D6.5)
            raise _Inconsistent(f"the Storage holds {self._info.size} cards, more than its target {self._target}",
                                "target")

    def _check_turn(self, n: int) -> None:
        standing, last, passes, cur = self._standing, self._last, self._passes, self._current
        finished, normal = self._phase == "finished", self._termination is Termination.NORMAL
        if finished and normal:
            # the last play emptied its owner's hand (D8.1): nothing moved after it
            if standing is None or cur != standing[0] or passes or self._hands[cur]:
                raise _Inconsistent("a finished game ends on the play that emptied its owner's hand (D8.1)", "turn")
            if last is not None and last != standing:
                raise _Inconsistent("the last action of a finished game is the play that ended it", "last")
            if sum(1 for h in self._hands if not h) != 1:
                raise _Inconsistent("exactly one hand is empty when a game ends (D8.1)", "hands")
            return
        if self._phase == "lead" and standing is not None or self._phase == "respond" and standing is None:
            raise _Inconsistent("a standing play is on the table exactly in the respond phase (D5.2)", "standing")
        if standing is None:
            if passes or last is not None:
                raise _Inconsistent("a round starts with no pass and no last action (D5.2)", "last")
        else:
            if (cur - standing[0] - 1) % n != passes:
                after = f"after {self.seat_label(standing[0])}'s play and {plural(passes, 'pass', 'passes')}"
                raise _Inconsistent(f"{after} it is {self.seat_label((standing[0] + 1 + passes) % n)}'s turn, not "
                                    f"{self.seat_label(cur)}'s (D5.1, D7.1)", "turn")
            if last is not None:
                if last[0] != (cur - 1) % n:
                    raise _Inconsistent("the last action was not made by the previous player (D5.1)", "last")
                if type(last[1]) is Play and (passes or last != standing):
                    raise _Inconsistent("the last play is the standing play (D4.9)", "last")
                if type(last[1]) is Pass and not passes:
                    raise _Inconsistent("after a pass the pass count is at least 1 (D6.7)", "last")
        if any(not h for h in self._hands):
            raise _Inconsistent("a game in progress has no empty hand: the game ends when one empties (D8.1)", "hands")
        if finished:  # stopped by the safety cap (D9.3)
            if self._termination is not Termination.ABORTED or self._winners != () or \
                    self._turns != self._max_turns or self._reason != self._abort_reason():
                raise _Inconsistent("a game stopped by the safety cap has no winner and reached the cap (D9.3)",
                                    "turns")
        elif self._winners is not None or self._reason or not normal or self._turns >= self._max_turns:
            raise ValueError("a game in progress has no winner, no outcome and is below the turn cap")

    def _check_records(self, n: int) -> None:
        games, results = self.options["games"], self._results
        ended = self._phase == "finished" and self._termination is Termination.NORMAL
        want = 0 if games == 1 else self._game_no - (not ended)
        if len(results) != want or ended and self._game_no != games:
            raise _Inconsistent(f"{plural(len(results), 'game')} recorded, but this is game {self._game_no} of "
                                f"{games}{' and it is over' if ended else ''}", "results")
        lost = [0] * n
        for i, r in enumerate(results):
            self._check_result(i, r, n, lost)
        if tuple(lost) != self._lost:
            raise _Inconsistent("the lost points are not the sum of the penalty cards taken (D10.4)", "results")
        if self._penalties != self._penalty_piles():
            raise _Inconsistent("the penalty piles are not the penalty cards taken (D10.5)", "results")
        if self._phase == "finished" and self._termination is Termination.NORMAL:
            if (self._winners, self._reason) != self._end_of(self._standing[0]):
                raise ValueError("the winners and the reason are not what the rules give (D8.2, D10.7)")

    def _check_result(self, i: int, r: dict[str, Any], n: int, lost: list[int]) -> None:
        ranking, hands, taken = r["ranking"], r["hands"], r["taken"]
        if r["game"] != i + 1 or sorted(ranking) != list(range(n)) or len(hands) != n or len(taken) != n \
                or r["cards_left"] != [len(h) for h in hands] or len(r["lost_points"]) != n:
            raise _Inconsistent(f"the record of game {i + 1} is not one of a {n}-player game", "results")
        if hands[ranking[0]] or not all(hands[s] for s in ranking[1:]) or taken[ranking[0]] is not None:
            raise _Inconsistent(f"in the record of game {i + 1} the winner is not ranked first (D10.2)", "results")
        keys = [(len(hands[s]), -sum(hands[s])) for s in ranking[1:]]
        if keys != sorted(keys) or self.options["rank_tiebreak"] == "seat_after_winner" and \
                ranking != self._rank(ranking[0], [_counts(h) for h in hands], None):
            raise _Inconsistent(f"the ranking of game {i + 1} does not follow rule D10.2", "results")
        for s, t in enumerate(taken):
            if t is not None:
                if t not in VALUES:
                    raise _Inconsistent(f"the record of game {i + 1} holds a penalty card {show(t)}", "results")
                lost[s] += t
        if r["lost_points"] != lost:
            raise _Inconsistent(f"the lost points after game {i + 1} are not the sums of the penalty cards "
                                f"(D10.4)", "results")

    def _penalty_piles(self) -> tuple[tuple[int, ...], ...]:
        """The penalty piles the recorded games leave (D10.5)."""
        piles: list[tuple[int, ...]] = [()] * self.players
        leave = self.options["penalty_cards_leave_play"]
        for r in self._results:
            if not leave:
                piles = [()] * self.players  # the next deal took them back
            piles = [pile + ((t,) if t is not None else ()) for pile, t in zip(piles, r["taken"])]
        if not leave and self._game_no > len(self._results):
            piles = [()] * self.players  # a game was dealt after the last record
        return tuple(piles)

    def _check_start(self) -> None:
        """What a game dealt by the rules adds: its start, the target and the count of turns."""
        opts, results, n = self.options, self._results, self.players
        if results and self._game_no > len(results):
            rule, last = opts["next_game_starter"], results[-1]["ranking"]
            if rule == "last_place" and self._starter != last[-1] or rule == "winner" and self._starter != last[0]:
                raise _Inconsistent(f"game {self._game_no} starts with the seat rule D10.6 names", "starter")
        sp = opts["starting_player"]
        if sp != "random" and opts["next_game_starter"] == "rotate" and self._starter != (sp + self._game_no - 1) % n:
            raise _Inconsistent(f"game {self._game_no} starts with the seat rule D10.6 names", "starter")
        if self._moves:
            last = self.last_move
            if self._last is not None and last != self._last[1]:
                raise ValueError("the last action is not the last action of the history")
            # The last action is forgotten only when it ended a round (a pass, D7.2) or a
            # game of a match (a play, D10.6).
            if self._last is None and (self._standing is not None or
                                       (self._round == 1) != (type(last) is Play) or
                                       type(last) is Play and self._game_no == 1):
                raise ValueError(f"the last action {last} is missing from the table")
        if self._built is not None:
            return  # a hand-built game may start anywhere
        if sp != "random" and self._game_no == 1 and self._starter != sp:
            raise ValueError("game 1 starts with the starting player (D2.5)")
        t0 = opts["initial_storage"][n]
        if self._target != t0 + self._round - 1:
            raise ValueError(f"in round {self._round} the Storage target is {t0 + self._round - 1}, not "
                             f"{self._target} (D2.3, D7.3)")
        if self._turns > self._moves or self._game_no == 1 and self._turns != self._moves:
            raise ValueError(f"{self._turns} turns in this game but {self._moves} actions in the history")
        if self._round == 1 and self._phase == "lead" and (self._turns or self._current != self._starter):
            raise ValueError("round 1 is led by the game's starting player, on the first turn (D2.5, D10.6)")

    # ------------------------------------------------------------- outcome and views
    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        if self.options["games"] == 3:  # a match counts lost points, aborted or not (D10.4)
            scores: tuple = tuple(self._lost)
        else:
            scores = tuple(_size(h) for h in self._hands)
        return Outcome(self._winners, scores, self._reason, self._termination)

    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_seat(seat)
        out = self.outcome()
        v = {
            "game": "depot",
            "players": self.players,
            "names": [self.seat_label(s) for s in range(self.players)],
            "seat": seat,
            "phase": self._phase,
            "current": self.current_player,
            "round": self._round,
            "game_no": self._game_no,
            "games": self.options["games"],
            "target": self._target,
            "storage": _cards(self._storage),
            "set_limit": self._info.sl,
            "run_limit": self._info.rl,
            "standing": None if self._standing is None else {"owner": self._standing[0],
                                                               "cards": list(self._standing[1].cards)},
            "passes": self._passes,
            "deck_count": len(self._deck),
            "discard": _cards(self._discard),
            "hands": [_cards(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [_size(h) for h in self._hands],
            "lost_points": list(self._lost),
            "penalties": [sorted(p) for p in self._penalties],
            "results": [dict(r) for r in self._results],
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["deck"] = list(self._deck[::-1])  # the teacher sees everything, deck top first
        return v

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        head = (f"Depot · {n} players · game {v['game_no']}/{v['games']} · round {v['round']} · "
                f"T={v['target']} · deck {v['deck_count']} · discard {len(v['discard'])}")
        st = v["standing"]
        lines = [
            head,
            f"Storage {_fmt(v['storage'])} (set {v['set_limit']}, run {v['run_limit']})",
            "Standing " + ("—" if st is None else f"{_fmt(st['cards'])} by {v['names'][st['owner']]}")
            + f" · passes {v['passes']}",
        ]
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            hand = v["hands"][s]
            cards = _fmt(hand) if hand is not None else f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            extra = f" · lost {v['lost_points'][s]}" if v["games"] == 3 else ""
            lines.append(f"{mark} {v['names'][s]} {cards}{extra}")
        if v.get("deck") is not None:
            lines.append(f"Deck (top first) {_fmt(v['deck'])}")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        """The fields of :meth:`to_position` (the grammar is in the rules reference, "Position text")."""
        out = []
        if self._built is not None and self._built != _counts(self._deck_multiset().elements()):
            # a hand-built game with cards of its own (setup_position): how many of each value
            out.append(("cards", ",".join(map(str, _vec(self._built)[1:]))))
        if self.options["games"] == 3:
            out += [("game", str(self._game_no)), ("starter", seat_text(self._starter))]
            if self._results:
                out.append(("results", ";".join(_result_text(r) for r in self._results)))
        out.append(("round", str(self._round)))
        if self._target != self._usual_target():
            out.append(("target", str(self._target)))
        finished = self._phase == "finished"
        aborted = self._termination is Termination.ABORTED
        # A game stopped by the cap keeps the seat that was to act: it leads the round in play,
        # or the passes since the standing play are counted from it (D9.3).
        out.append(("turn", "-" if finished and not aborted else seat_text(self._current)))
        if aborted:
            out.append(("aborted", "1"))
        if self._standing is not None:
            owner, play = self._standing
            out.append(("standing", f"{seat_text(owner)}:{cards_text(play.cards)}"))
        if self._last is not None:
            out.append(("last", f"{seat_text(self._last[0])}:{str(self._last[1]).replace(' ', '_')}"))
        out.append(("hands", "/".join(cards_text(_cards(h)) for h in self._hands)))
        out.append(("storage", cards_text(_cards(self._storage))))
        if self._discard:
            out.append(("discard", cards_text(_cards(self._discard))))
        out.append(("deck", cards_text(self._deck[::-1])))
        if self.options["max_turns"] is not None and not aborted:
            out.append(("turns", str(self._turns)))
        return out

    def _usual_target(self) -> int:
        """T in this round of a game dealt by the rules (D2.3, D7.3)."""
        return self.options["initial_storage"][self.players] + self._round - 1

    def _load_position(self, parsed: Parsed) -> None:
        n, opts = self.players, self.options
        take = parsed.take
        places: list[tuple[Value, list[int]]] = []  # (where, cards) of every card written out
        where: dict[str | None, Value] = {}

        def field(key: str, default: str | None = None) -> Value:
            v = where[key] = take(key, default)
            return v

        full = self._deck_multiset()
        counts = field("cards", ",".join(str(full[v]) for v in VALUES)).ints(0, MAX_COPIES)
        if len(counts) != 8:
            raise where["cards"].error(f"write how many cards of each value 1 to 8 this game has: 8 numbers, "
                                       f"got {len(counts)}")
        game_cards = Counter({v: k for v, k in zip(VALUES, counts) if k})
        match = opts["games"] == 3
        self._game_no = field("game", "1").int(1, opts["games"])
        results = _read_results(field("results", "-"), n) if match else ()
        if len(results) != self._game_no - 1 and not (len(results) == self._game_no == opts["games"]):
            raise where["results"].error(f"this is game {self._game_no}, so results must hold "
                                         f"{plural(self._game_no - 1, 'finished game')}; it holds {len(results)}")
        self._results = tuple(r for r, _ in results)
        self._lost = tuple(results[-1][0]["lost_points"]) if results else (0,) * n
        self._penalties = self._penalty_piles()  # the penalty cards still out of play (D10.5)
        if results:
            places.append((results[-1][1], [v for pile in self._penalties for v in pile]))
        sp = opts["starting_player"]
        self._starter = field("starter", "A" if sp == "random" else seat_text(sp)).seat(n)
        self._round = field("round", "1").int(1, 10**6)
        self._target = field("target", str(self._usual_target())).int(0, 10**6)
        turn = field("turn").seat(n, none=True)
        aborted = field("aborted", "0").flag()
        standing = field("standing", "-")
        self._standing = None
        if standing.text != "-":
            owner, cards = standing.split(":", 2)
            play = _play(tuple(sorted(cards.cards(_DIGITS.get, "a value 1-8"))))
            if shape(play.cards) is None:
                raise cards.error(f"{_fmt(play.cards)} is neither a set nor a run (D4.2)")
            self._standing = (owner.seat(n), play)
            places.append((cards, list(play.cards)))
        last = field("last", "-")
        self._last = None
        if last.text != "-":
            seat, action = last.split(":", 2)
            try:
                self._last = (seat.seat(n), parse_action(action.text.replace("_", " ")))
            except InvalidActionError as e:
                raise action.error(f"{show(action.text)} is not an action written with '_' for spaces, "
                                   f"such as play_4_5 ({e})") from None
        # who is to act (D5.1, D7.1): the passes are counted from the standing play
        if turn is None and not aborted:
            if self._standing is None:
                raise where["turn"].error("a finished game ends on a play: write the standing play that ended it")
            self._phase, self._current, self._passes = "finished", self._standing[0], 0
        else:
            self._phase = "finished" if aborted else "lead" if self._standing is None else "respond"
            self._current = self._starter if turn is None else turn
            self._passes = 0
            if self._standing is not None:
                derived = (self._current - self._standing[0] - 1) % n
                # A stopped game written with turn=- has no seat to count the passes from: passes=
                # says how many (none if left out).
                self._passes = field("passes", "0").int(0, n - 2) if turn is None else derived
                if turn is None:
                    self._current = (self._standing[0] + 1 + self._passes) % n
                elif derived == n - 1:
                    raise where["turn"].error(f"{seat_text(turn)} owns the standing play: everyone else "
                                              f"passing would have ended the round (D7.1)")
        # the cards
        hands = field("hands").split("/", n)
        self._hands = [0] * n
        unknown: list[tuple[Any, int | None]] = []
        for s, part in enumerate(hands):
            if part.unknown:
                count = part.unknown_count()
                if count is None:
                    raise part.error("a hidden hand is written with its size, such as ?9")
                unknown.append((s, count))
            else:
                cards = part.cards(_DIGITS.get, "a value 1-8")
                places.append((part, cards))
                self._hands[s] = _counts(cards)
        storage = field("storage").cards(_DIGITS.get, "a value 1-8")
        places.append((where["storage"], storage))
        discard = field("discard", "-").cards(_DIGITS.get, "a value 1-8")
        places.append((where["discard"], discard))
        deck_v = field("deck", "?")
        deck: list[int] = []
        if deck_v.unknown:
            unknown.append(("deck", deck_v.unknown_count()))
        else:
            deck = deck_v.cards(_DIGITS.get, "a value 1-8")
            places.append((deck_v, deck))
        pool = Counter(game_cards)
        for at, cards in sorted(places, key=lambda pc: pc[0].column):
            pool.subtract(cards)
            over = sorted(v for v, k in pool.items() if k < 0)
            if over:
                v = over[0]
                raise at.error(f"one {v} too many: this game has {plural(game_cards[v], 'card')} of value {v} "
                               f"(every card is in one place)")
        rest = sorted(pool.elements())
        if not unknown and rest:
            raise deck_v.error(f"{plural(len(rest), 'card')} {_fmt(rest)} {'is' if len(rest) == 1 else 'are'} "
                               f"not placed: write them somewhere or write the deck as '?'")
        # A size that does not add up is the deck's fault when it says its size, else the hands'.
        blame = deck_v if deck_v.text.startswith("?") and deck_v.text != "?" else \
            next((hands[s] for s, _ in unknown if s != "deck"), deck_v)
        for name, cards in deal_unknown(self, unknown, rest, blame):
            if name == "deck":
                deck = cards
            else:
                self._hands[name] = _counts(cards)
        self._storage, self._discard = _counts(storage), _counts(discard)
        self._deck = bytes(deck[::-1])
        self._known = [0] * n
        self._deck_known = False
        self._built = _counts(game_cards.elements())
        max_turns = opts["max_turns"] or TURN_BOUND
        self._turns = field("turns", str(max_turns if aborted else 0)).int(0, max_turns)
        self._termination = Termination.ABORTED if aborted else Termination.NORMAL
        self._winners, self._reason = None, ""
        if aborted:
            self._winners, self._reason = (), self._abort_reason()
        elif self._phase == "finished":
            self._winners, self._reason = self._end_of(self._standing[0])
        # The rules' checks, blamed on the field they are about.
        try:
            self._derive()
            self._check_loaded()
        except _Inconsistent as e:
            at = where.get(e.field)
            raise (at.error(str(e)) if at is not None else PositionError(str(e))) from None

    # ------------------------------------------------------------- determinization
    def _sample(self, seat: int, rng: Any) -> "DepotState":
        """Deal again every card ``seat`` cannot place (D11).

        Everything but the other hands and the deck order is public. Of another hand the
        table knows the cards it saw the player take from the Storage and not yet play or
        give (``_known``); those stay. After a reshuffle the deck is the discard pile
        everyone saw, less the cards drawn since, so only its order is dealt again;
        before one, the deck and the unknown parts of the other hands share their cards.
        The cards to deal are sorted first, so the world depends on ``rng`` and on what
        ``seat`` knows only.
        """
        world = self.clone()
        others = [s for s in range(self.players) if s != seat]
        unknown = [self._hands[s] - self._known[s] for s in others]
        deck = _counts(self._deck)
        pool = _cards(sum(unknown) + (0 if self._deck_known else deck))
        rng.shuffle(pool)
        k = 0
        for s, u in zip(others, unknown):
            size = _size(u)
            world._hands[s] = self._known[s] + _counts(pool[k:k + size])
            k += size
        if self._deck_known:
            pool = _cards(deck)
            rng.shuffle(pool)
            k = 0
        world._deck = bytes(pool[k:])
        return world

    def __repr__(self) -> str:
        return f"<DepotState players={self.players} seed={self.seed} turn={self._moves} phase={self._phase}>"


# --------------------------------------------------------------------------- construction
def new_game(players: int = 4, seed: int | None = None, deck: list[int] | None = None, *,
             chance: Any = None, **options: Any) -> DepotState:
    """Set up a Depot game (D2).

    Parameters
    ----------
    players:
        3, 4 or 5 (D1.4).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: the complete card order, index 0 = top, instead of a shuffle.
        It must be exactly the ``deck_counts`` multiset. Fixes game 1's deal only.
    chance:
        Recorded shuffles to use instead of the seeded ones (see ``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC`` (e.g. ``games=3`` for a match).
    """
    st = DepotState._create(players, seed, None, options, chance)
    opts = st.options
    sp = opts["starting_player"]
    n = st.players
    if sp != "random" and sp >= n:
        raise ValueError(f"starting_player={sp!r} is not allowed; allowed values: 0..{n - 1} or 'random'")
    need = st._deck_multiset()
    hand_size, t0 = opts["hand_size"][n], opts["initial_storage"][n]
    # In a match up to n - 1 penalty cards per game leave play (D10.5): the last game must deal too.
    out = (opts["games"] - 1) * (n - 1) if opts["penalty_cards_leave_play"] else 0
    if sum(need.values()) - out < hand_size * n + t0:
        raise ValueError(f"deck_counts has {sum(need.values())} cards; {n} players need at least "
                         f"{hand_size * n + t0 + out} to deal" + (f" every game ({out} penalty cards may leave play)"
                                                                  if out else "") + " (rules D2.2, D2.3, D10.5)")
    if deck is not None:
        deck = _check_deck(deck, need)
        st.deck_order = tuple(deck)
    st._lost = (0,) * n
    st._penalties = ((),) * n
    st._results = ()
    st._game_no = 1
    st._winners = None
    st._reason = ""
    st._termination = Termination.NORMAL
    st._built = None
    st._max_turns = opts["max_turns"] or TURN_BOUND
    st._noted = opts["refill_target"] == "noted"
    st._when_empty = opts["reshuffle_timing"] == "when_empty"
    st._next = _NEXT[n]
    starter = st._randrange(n) if sp == "random" else sp
    st._setup(starter, deck)
    return st


def from_dict(data: dict[str, Any]) -> DepotState:
    """A state saved with ``to_dict``."""
    return DepotState.from_dict(data)  # type: ignore[return-value]


def from_position(text: str, seed: int | None = None) -> DepotState:
    """A state from position text (``state.to_position()``; the grammar is in the rules
    reference, "Position text"). Unknown parts (``?``) are dealt with ``seed``.

    >>> st = from_position("depot/1 players=3 turn=B standing=A:4 hands=1,2/5,5,6/?3 storage=1,2,3 deck=?", seed=1)
    >>> st.current_player, st.hand(1), st.legal_actions()[0]
    (1, [5, 5, 6], Play(cards=(5,)))
    >>> from_position("depot/1 players=3 turn=A hands=9/?9/?9 storage=1,2,3")
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 32 (hands): '9' is not a card (a value 1-8)
    """
    return load_position(text, seed, lambda mode: DepotState)  # type: ignore[return-value]


def setup_position(
    players: int,
    hands: list[list[int]],
    storage: list[int],
    *,
    deck: list[int] = (),
    discard: list[int] = (),
    standing: tuple[int, list[int]] | None = None,
    current: int = 0,
    target: int | None = None,
    passes: int | None = None,
    round: int = 1,
    seed: int = 0,
    **options: Any,
) -> DepotState:
    """A hand-built position for teaching and tests.

    ``deck`` is listed top first. ``target`` defaults to the Storage size. With no
    ``standing`` play the seat to act is the leader (phase ``"lead"``); after one,
    ``passes`` defaults to the passes since it (D5.1). The cards placed are this
    game's cards: any not placed are out of it (a match deals the whole deck again
    for the next game). A position no game could reach (an empty hand, the wrong
    seat to act ...) is a ``ValueError``. Replays record the position.

    >>> st = setup_position(4, [[3, 3, 3, 4, 5, 6, 7, 7, 8], [1], [1], [1]], [2, 4, 5, 5, 6])
    >>> st.limits
    (2, 3)
    """
    st = new_game(players=players, seed=seed, **options)
    n = st.players
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    st._hands = [_zone(list(h)) for h in hands]
    st._storage = _zone(list(storage))
    st._info = _info_of(st._storage)
    st._deck = _deck_bytes(list(deck))
    st._discard = _zone(list(discard))
    if standing is not None:
        owner = st.check_seat(standing[0])
        if owner is None:
            raise ValueError("standing: the owner must be a seat")
        st._standing = (owner, _play(_card_values(list(standing[1]))))
    st._current = st.check_seat(current)
    if st._current is None:
        raise ValueError("current must be a seat")
    st._target = len(storage) if target is None else target
    if passes is None:
        passes = 0 if standing is None else (st._current - st._standing[0] - 1) % n
    st._passes = passes
    st._round = round
    st._phase = "lead" if standing is None else "respond"
    have = st.all_cards()
    if max(have.values()) > MAX_COPIES:
        raise ValueError(f"more than {MAX_COPIES} cards of one value")
    st._built = _counts(have.elements())
    st._check_loaded()
    st._mark_origin()
    return st


def _check_deck(deck: list[Any], need: Counter) -> list[int]:
    def card(c: Any) -> int | None:
        if isinstance(c, str):
            c = _DIGITS.get(c.strip())
        return c if isinstance(c, int) and not isinstance(c, bool) and c in VALUES else None

    return check_deck(deck, need.elements(), card, what="Depot card (values 1-8)")


# Re-exported so users can catch them from the game module too.
__all__ = [
    "ANY", "DepotState", "IllegalActionError", "InvalidActionError", "Pass", "Play", "SPEC",
    "from_dict", "from_position", "new_game", "parse_action", "run_limit", "set_limit", "setup_position", "shape",
]
