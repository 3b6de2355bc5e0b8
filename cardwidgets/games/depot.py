"""Depot: a climbing/shedding game whose shared Storage sets the size of every play.

Rules: ``shared/rules/depot.md`` (rule IDs ``D1``–``D10``, cited in every refusal and
narration line). Cards are values 1–8; equal values are interchangeable, so every
zone is a multiset, kept as a count vector ``c[v]`` (index 0 unused).

>>> st = new_game(players=4, seed=1)
>>> st.phase, st.current_player
('lead', 0)
>>> st.apply("play 2")[0].text
'A leads [2] (single; limits: set 1, run 3) — rule D4.8.'
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
from itertools import islice
from typing import Any, Iterable, Sequence, Union

from ..core import ANY, Event, IllegalActionError, InvalidActionError, Option, Outcome, State
from ..core import fresh_seed, resolve, seat_name
from ..core.options import int_range, optional

GAME = "depot"
VALUES = range(1, 9)
PLAYERS = (3, 4, 5)

DEFAULT_DECK = {1: 13, 2: 12, 3: 11, 4: 10, 5: 10, 6: 9, 7: 8, 8: 7}  # D1.1
DEFAULT_HAND = {3: 9, 4: 9, 5: 8}  # D2.2
DEFAULT_STORAGE = {3: 3, 4: 4, 5: 4}  # D2.3


def _per_value(value: Any) -> str | None:
    if not isinstance(value, dict) or not value:
        return "expected a dict {value: count} for values 1..8"
    for k, c in value.items():
        if _int_key(k) not in VALUES or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 255:
            # 255: every zone is a count vector with one byte per value (see _ONE)
            return "expected a dict {value: count} with values 1..8 and counts from 0 to 255"
    return None


def _per_players(value: Any) -> str | None:
    if not isinstance(value, dict) or {_int_key(k) for k in value} != set(PLAYERS):
        return "expected a dict {players: count} for 3, 4 and 5 players"
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in value.values()):
        return "counts must be ints >= 0"
    return None


def _int_key(k: Any) -> int | None:
    # JSON turns int keys into strings; accept both so saved games load back.
    if isinstance(k, int) and not isinstance(k, bool):
        return k
    if isinstance(k, str) and k.isdigit():
        return int(k)
    return None


def _int_keys(value: dict) -> dict[int, int]:
    return {_int_key(k): c for k, c in value.items()}


def _starting_player(value: Any) -> str | None:
    if value == "random" or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return None
    return "allowed values: a seat index or 'random'"


#: The options of the spec's table (§14), with its names and defaults.
OPTIONS = (
    Option("starting_player", 0, check=_starting_player, doc="seat that leads round 1, or 'random' (D2.5)"),
    Option("deck_counts", DEFAULT_DECK, check=_per_value, doc="cards per value (D1.1)",
           normalize=_int_keys),
    Option("hand_size", DEFAULT_HAND, check=_per_players, doc="hand size per player count (D2.2)",
           normalize=_int_keys),
    Option("initial_storage", DEFAULT_STORAGE, check=_per_players, doc="T0 per player count (D2.3)",
           normalize=_int_keys),
    Option("refill_target", "target", ("target", "noted"), doc="what a pass refills to (D6.1, DA-7)"),
    Option("reshuffle_timing", "on_draw", ("on_draw", "when_empty"), doc="when the discard is reshuffled (D9.1)"),
    Option("games", 1, (1, 3), doc="1 = single game, 3 = match (D10)"),
    Option("rank_tiebreak", "seat_after_winner", ("seat_after_winner", "random"), doc="D10.2 step 4"),
    Option("penalty_mode", "distinct_descending", ("distinct_descending", "greedy"), doc="D10.3"),
    Option("penalty_cards_leave_play", True, (True, False), doc="D10.5"),
    Option("next_game_starter", "last_place", ("last_place", "winner", "rotate"), doc="D10.6"),
    Option("match_tie", "shared", ("shared", "last_game_rank"), doc="D10.7"),
    Option("max_turns", None, check=optional(int_range(1)), doc="safety cap for simulations (D9.3, not a rule)"),
)


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Play:
    """Play these card values (any order; kept ascending)."""

    cards: tuple[int, ...]
    #: ``(count, total)``, what D4.6 compares; derived from ``cards``.
    strength: tuple[int, int] = field(init=False, repr=False, compare=False)
    #: The cards as a packed count vector (see ``_ONE``), so applying a play is one subtraction.
    _counts: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(sorted(self.cards))
        # Other values make the play illegal (D4.1), so it is never applied.
        valid = [v for v in cards if isinstance(v, int) and v in VALUES]
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "strength", (len(cards), sum(valid)))
        object.__setattr__(self, "_counts", sum(_ONE[v] for v in valid))

    def __str__(self) -> str:
        return "play " + " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: take every Storage card of value ``take``, optionally give one card ``give``."""

    take: int | None = None
    give: int | None = None

    def __str__(self) -> str:
        out = "pass"
        if self.take is not None:
            out += f" take {self.take}"
        if self.give is not None:
            out += f" give {self.give}"
        return out


Action = Union[Play, Pass]

_SPLIT = re.compile(r"[\s,]+")


def _value(token: str, text: str) -> int:
    if not token.isdigit() or int(token) not in VALUES:
        raise InvalidActionError(f"{text!r}: {token!r} is not a card value 1-8")
    return int(token)


def parse_action(text: str) -> Action:
    """Parse Depot notation (rules §19): ``play 3 4 5``, ``pass take 3 give 7``, ``pass 3``, ``pass``.

    >>> parse_action("PLAY 5,5"), str(parse_action("pass 3 give 7"))
    (Play(cards=(5, 5)), 'pass take 3 give 7')
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{text!r} is not action text")
    tokens = [t for t in _SPLIT.split(text.strip().lower()) if t]
    if not tokens:
        raise InvalidActionError("empty action text; expected 'play <values>' or 'pass take <v> [give <g>]'")
    verb, rest = tokens[0], tokens[1:]
    if verb == "play":
        if not rest:
            raise InvalidActionError(f"{text!r}: a play names at least one card value (D4.1)")
        return _play(tuple(sorted(_value(t, text) for t in rest)))
    if verb == "pass":
        take = give = None
        if rest and rest[0] == "take":
            if len(rest) < 2:
                raise InvalidActionError(f"{text!r}: 'take' needs a value")
            take, rest = _value(rest[1], text), rest[2:]
        elif rest and rest[0] != "give":
            take, rest = _value(rest[0], text), rest[1:]
        if rest:
            if rest[0] != "give" or len(rest) != 2:
                raise InvalidActionError(
                    f"{text!r}: expected 'pass take <v> [give <g>]'; at most one card may be given (D6.3)"
                )
            give = _value(rest[1], text)
        return _PASS[take, give]
    raise InvalidActionError(f"{text!r}: unknown command {verb!r}; expected 'play' or 'pass'")


# Interned action objects: the legal list hands out the same objects every time, so
# enumeration allocates nothing and identity comparisons are fast.
_PLAYS: dict[tuple[int, ...], Play] = {}
_PASS: dict[tuple[int | None, int | None], Pass] = {
    (t, g): Pass(t, g) for t in (None, *VALUES) for g in (None, *VALUES)
}


def _play(cards: tuple[int, ...]) -> Play:
    p = _PLAYS.get(cards)
    if p is None:
        p = _PLAYS[cards] = Play(cards)
    return p


# --------------------------------------------------------------------------- zones
# Every multiset zone (a hand, the Storage, the discard) is a packed count vector: an
# int whose byte ``v`` counts the cards of value ``v`` (byte 0 is unused). Ints are
# immutable, so clone() shares them; moving a card is one addition; and
# ``_vec(x)`` gives the counts as bytes for C-speed indexing, max, sum and translate.
# A count never exceeds 255 because no deck may hold more of one value (_per_value).
_ONE = tuple(1 << 8 * v for v in range(9))


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
# Legal plays are enumerated by count k, one *level* per count, so that every piece is
# memoized on a key with few values, whatever the size of the hand or the Storage:
#
# * a level's plays depend only on a byte per value — 2 if the hand holds enough copies
#   for a set of k (k <= set limit), 1 if the value is merely present (for runs of k,
#   k <= run limit), 0 otherwise. One ``bytes.translate`` of the hand's count vector
#   computes that pattern; the Storage limits only choose the translate table;
# * levels come out in the order of §12.5 (count, then total, then values), so the
#   legal list is a concatenation, and the strength filter (D4.7) is a bisect on the
#   totals of the standing play's level only;
# * the passes depend only on which values the Storage and the hand hold: one list per
#   pair of presence patterns.
class _Memo(dict):
    """A dict that builds a missing entry with ``build(key)`` on first use."""

    __slots__ = ("build", "limit")

    def __init__(self, build: Any, limit: int | None = None) -> None:
        super().__init__()
        self.build = build
        self.limit = limit

    def __missing__(self, key: Any) -> Any:
        if self.limit is not None and len(self) >= self.limit:
            # Bound memory in long simulations: forget the older half (dicts keep
            # insertion order), so the entries in use now stay.
            for old in list(islice(self, len(self) // 2)):
                self.pop(old, None)
        value = self[key] = self.build(key)
        return value


def _table(f: Any) -> bytes:
    """A ``bytes.translate`` table mapping a count ``c`` (0..255) to ``f(c)``."""
    return bytes(int(f(c)) for c in range(256))


_PRESENT = _table(lambda c: c > 0)
_NOTHING = bytes(9)  # the pattern of a level the hand cannot reach


def _level_plays(k: int, runs: bool) -> _Memo:
    """Plays of exactly ``k`` cards by pattern: ``(totals, plays)`` sorted by (total, values)."""
    shapes = [(v,) * k for v in VALUES]  # sets (singles when k == 1)
    if runs:
        shapes += [tuple(range(s, s + k)) for s in range(1, 10 - k)]
    shapes.sort(key=lambda cards: (sum(cards), cards))
    totals = [sum(cards) for cards in shapes]
    plays = [_play(cards) for cards in shapes]
    # What each candidate needs: a set of v needs pattern[v] == 2, a run needs every one
    # of its values present. As (lowest value, run length or 0 for a set):
    needs = [(cards[0], 0 if cards[0] == cards[-1] else k) for cards in shapes]
    entries: dict[tuple[int, ...], tuple[list[int], list[Play]]] = {}

    def build(pattern: bytes) -> tuple[list[int], list[Play]]:
        found = tuple(i for i, (low, run) in enumerate(needs)
                      if (0 not in pattern[low:low + run] if run else pattern[low] == 2))
        # Many patterns allow the same plays: they share one entry, which keeps the
        # entries few and in cache.
        entry = entries.get(found)
        if entry is None:
            entry = entries[found] = ([totals[i] for i in found], [plays[i] for i in found])
        return entry

    return _Memo(build)


_LEVEL_PLAYS = _Memo(lambda key: _level_plays(*key))


def _levels(limits: tuple[int, int]) -> tuple[tuple[bytes, _Memo], ...]:
    """``(translate table, plays by pattern)`` for counts 1, 2, ... up to the limits.

    Levels up to the run limit have runs, so a non-empty hand never has the pattern
    ``_NOTHING`` there; above it a level holds sets only, and ``_NOTHING`` at one such
    level means no value has that many copies, so none has more: the search stops.
    """
    sl, rl = limits
    out = [(_table(lambda c: 2 * (c > 0)), _LEVEL_PLAYS[1, False])]  # singles: always (D4.3)
    for k in range(2, max(sl, rl) + 1):
        sets, runs = k <= sl, k <= rl  # D4.4, D4.5
        table = _table(lambda c: 2 if sets and c >= k else int(runs and c > 0))
        out.append((table, _LEVEL_PLAYS[k, runs]))
    return tuple(out)


_LEVELS = _Memo(_levels)


def _pass_chunk(take: int | None) -> _Memo:
    """The passes taking ``take``, by the hand's presence pattern: no give first, then each
    value held other than the one taken (D6.3). Giving the last card (D6.4) is left to
    the caller: it can only happen when nothing is taken."""
    return _Memo(lambda present: [_PASS[take, None], *(_PASS[take, g] for g in VALUES if g != take and present[g])])


_PASS_CHUNKS = {t: _pass_chunk(t) for t in (None, *VALUES)}


def _pass_lists(storage_present: bytes) -> _Memo:
    """Every pass, by the hand's presence pattern, when the Storage holds these values (§12.5)."""
    takes = [v for v in VALUES if storage_present[v]] or [None]  # D6.2: take a value held there, if any
    chunks = [_PASS_CHUNKS[t] for t in takes]

    def build(present: bytes) -> list[Pass]:
        out: list[Pass] = []
        for chunk in chunks:
            out += chunk[present]
        return out

    return _Memo(build)


# Storage presence pattern -> (run limit, passes by hand pattern): at most 256 x 256 lists.
_PRESENCE = _Memo(lambda present: (run_limit(present), _pass_lists(present)))


class _StorageInfo:
    """What the rules read from one Storage content (D3), shared by every state holding it."""

    __slots__ = ("size", "sl", "rl", "levels", "passes")

    def __init__(self, storage: int) -> None:
        counts = _vec(storage)
        self.size = sum(counts)
        self.sl = set_limit(counts)
        self.rl, self.passes = _PRESENCE[counts.translate(_PRESENT)]
        self.levels = _LEVELS[self.sl, self.rl]


_STORAGE = _Memo(_StorageInfo, limit=1 << 16)
#: A zone's cards in ascending order. Reshuffles see the same small piles over and over.
_PILES = _Memo(lambda zone: tuple(_cards(zone)), limit=1 << 14)


# --------------------------------------------------------------------------- state
class DepotState(State):
    """A Depot game (or 3-game match) in progress. Build it with :func:`new_game`."""

    game = GAME
    action_types = (Play, Pass)
    _parse = staticmethod(parse_action)

    # Zones are packed count vectors (ints, see _ONE). The deck is an immutable tuple of
    # which the first ``_deck_n`` cards are still in it, the top card last; the match
    # records (_lost, _penalties, _results) are tuples. So clone() copies references
    # only, and nothing a clone shares is ever mutated in place.
    __slots__ = (
        "_hands", "_storage", "_info", "_deck", "_deck_n", "_discard", "_target", "_standing",
        "_current", "_leader", "_passes", "_round", "_game_no", "_starter", "_phase", "_turns",
        "_lost", "_penalties", "_results", "_winners", "_reason", "_last",
        "_max_turns", "_noted", "_when_empty",
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return None if self._phase == "finished" else self._current

    @property
    def is_terminal(self) -> bool:
        return self._phase == "finished"

    @property
    def phase(self) -> str:
        """``"lead"`` (leader must play), ``"respond"`` or ``"finished"``."""
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
        """Legal actions of the player to act, in the order of §12.5."""
        # Builds a new list every time, so the base class's copy is not needed.
        if self._phase == "finished":
            return []
        counts = self._hands[self._current].to_bytes(9, "little")
        info = self._info
        levels = info.levels
        standing = self._standing
        # Plays stronger than the standing play (D4.7): the rest of its level, then every
        # higher level. The lead (D4.8) is the same search from the singles up.
        k, total = (1, 0) if standing is None else standing[1].strength
        out: list[Action] = []
        if k <= len(levels):
            table, plays = levels[k - 1]
            pattern = counts.translate(table)
            if pattern != _NOTHING:
                totals, level = plays[pattern]
                out = level[bisect_right(totals, total):]
                for table, plays in levels[k:]:
                    pattern = counts.translate(table)
                    if pattern == _NOTHING:
                        break
                    out += plays[pattern][1]
        if standing is None:
            return out  # the leader must play (D5.3)
        if info.size or sum(counts) > 1:
            out += info.passes[counts.translate(_PRESENT)]
        else:
            out.append(_PASS[None, None])  # nothing to take, and the only card may not be given (D6.4)
        return out

    _legal = legal_actions

    def _diagnose(self, action: Action) -> tuple[str, str] | None:
        hand = _vec(self._hands[self._current])
        if isinstance(action, Play):
            return self._diagnose_play(action.cards, hand)
        return self._diagnose_pass(action, hand)

    def _diagnose_play(self, cards: tuple[int, ...], hand: bytes) -> tuple[str, str] | None:
        if not cards:
            return "D4.1", "a play must contain at least one card"
        for v in sorted(set(cards)):
            k = cards.count(v)
            held = hand[v] if v in VALUES else 0
            if held < k:
                return "D4.1", f"you hold {held} card(s) of value {v}, the play needs {k}"
        kind, k = shape(cards), len(cards)
        if kind is None:
            counts = Counter(cards)
            if len(set(counts.values())) == 1 and len(counts) > 1 and k > len(counts):
                return "D4.2", "two sets (or two runs) cannot be played together"
            if len(counts) < k:
                return "D4.2", f"{_fmt(cards)} is neither a set nor a run (a run cannot repeat a value)"
            if cards[0] == 1 and cards[-1] == 8:
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
                return "D4.7", f"{k} card(s) cannot beat a {len(sc)}-card play {_fmt(sc)}"
            if k == len(sc) and sum(cards) == sum(sc):
                return "D4.7", (
                    f"{_fmt(cards)} has the same strength ({k} cards, total {sum(cards)}); it must be stronger"
                )
            if k == len(sc) and sum(cards) < sum(sc):
                return "D4.7", (
                    f"a {k}-card play must beat {_fmt(sc)} (total {sum(sc)}); {_fmt(cards)} totals {sum(cards)}"
                )
        return None

    def _diagnose_pass(self, action: Pass, hand: bytes) -> tuple[str, str] | None:
        if self._standing is None:
            return "D5.3", "the leader must play on the first turn of a round"
        take, give = action.take, action.give
        storage = _vec(self._storage)
        if sum(storage):
            if take is None:
                return "D6.2", f"a value must be taken from the Storage {_fmt(_cards(self._storage))}"
            if take not in VALUES or not storage[take]:
                return "D6.2", f"there is no {take} in the Storage {_fmt(_cards(self._storage))}"
        elif take is not None:
            return "D6.2", "the Storage is empty, so nothing can be taken"
        if give is not None:
            if give == take:
                return "D6.3", f"the given card must differ from the taken value {take}"
            if give not in VALUES or not hand[give]:
                return "D6.3", f"you hold no {give} to give"
            if take is None and sum(hand) == 1:
                return "D6.4", "the give would empty the hand"
        return None

    # ------------------------------------------------------------- transitions
    def _apply(self, action: Action, narrate: bool) -> list[Event]:
        events: list[Event] = []
        p = self._current
        self._turns += 1
        if type(action) is Play:
            self._do_play(p, action, events if narrate else None)
        else:
            self._do_pass(p, action, events if narrate else None)
        self._last = (p, action)
        cap = self._max_turns
        if cap is not None and self._turns >= cap and self._phase != "finished":
            self._phase, self._winners, self._reason = "finished", (), "aborted"
            if narrate:
                events.append(Event("abort", {"turns": self._turns}, "D9.3",
                                    f"Stopped after {self._turns} turns (max_turns safety cap, D9.3)."))
        return events

    def _do_play(self, p: int, play: Play, events: list[Event] | None) -> None:
        hands = self._hands
        hand = hands[p] = hands[p] - play._counts
        prev = self._standing
        if prev is not None:
            self._discard += prev[1]._counts
        self._standing = (p, play)
        self._passes = 0
        if events is not None:
            cards = play.cards
            kind = shape(cards)
            desc = f"{kind} of {len(cards)}, total {sum(cards)}" if kind != "single" else "single"
            lim = "limits: set {}, run {}".format(*self.limits)
            if prev is None:
                text = f"{seat_name(p)} leads {_fmt(cards)} ({desc}; {lim}) — rule D4.8."
                rule = "D4.8"
            else:
                pc = prev[1].cards
                text = (f"{seat_name(p)} plays {_fmt(cards)} ({desc}; {lim}). It beats {_fmt(pc)} "
                        f"({len(pc)} card{'s' * (len(pc) > 1)}, total {sum(pc)}) — rule D4.6.")
                rule = "D4.6"
            events.append(Event("play", {"seat": p, "cards": list(cards)}, rule, text))
        if not hand:
            self._game_end(p, events)
        else:
            self._current = (p + 1) % self.players
            self._phase = "respond"

    def _do_pass(self, p: int, action: Pass, events: list[Event] | None) -> None:
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
        if give is not None:
            hand -= _ONE[give]
            storage += _ONE[give]
            have += 1
        self._hands[p], self._storage = hand, storage
        drawn = self._refill(noted if self._noted else self._target, have, events)
        self._passes += 1
        if events is not None:
            parts = []
            if take is not None:
                parts.append(f"takes {'all ' if taken > 1 else ''}{taken} × {take} from the Storage")
            else:
                parts.append("takes nothing (the Storage is empty)")
            if give is not None:
                parts.append(f"gives a {give}")
            parts.append(f"draws {len(drawn)} card{'s' * (len(drawn) != 1)}" + (f" ({_fmt(drawn)})" if drawn else ""))
            text = (f"{seat_name(p)} passes (D6): {', '.join(parts)}. Storage {_fmt(_cards(self._storage))} — "
                    "set limit {}, run limit {}.".format(*self.limits))
            events.append(Event("pass", {"seat": p, "take": take, "give": give, "taken": taken,
                                         "drawn": drawn}, "D6", text))
        if self._passes == self.players - 1:
            self._round_end(events)
        else:
            self._current = (p + 1) % self.players

    def _refill(self, goal: int, have: int, events: list[Event] | None) -> list[int]:
        """Draw from the deck into the Storage (``have`` cards now) up to ``goal`` (D6.5, D9)."""
        storage = self._storage
        drawn = []
        if have < goal:
            deck, n = self._deck, self._deck_n
            while have < goal:
                if not n:
                    if not self._discard:
                        if events is not None:
                            events.append(Event("short", {"missing": goal - have}, "D9.2",
                                                f"Deck and discard are both empty: the Storage stays at {have} "
                                                f"of {goal} cards (rule D9.2)."))
                        break
                    self._deck_n = n
                    self._reshuffle(events)
                    deck, n = self._deck, self._deck_n
                n -= 1
                v = deck[n]
                storage += _ONE[v]
                drawn.append(v)
                have += 1
                if not n and self._when_empty and self._discard:
                    self._deck_n = n
                    self._reshuffle(events)
                    deck, n = self._deck, self._deck_n
            self._deck_n = n
            self._storage = storage
        # The take/give of a pass changed the Storage too, so always look it up again (D3.5).
        self._info = _STORAGE[storage]
        return drawn

    def _reshuffle(self, events: list[Event] | None) -> None:
        cards = _PILES[self._discard]  # sorted first, so the shuffle depends only on the RNG
        rng = self._rng()  # one RNG decision per reshuffle, whether it is needed or not
        if cards[0] != cards[-1]:
            # Most piles in long games hold one value (a discarded set, or a single card),
            # which every shuffle leaves as it is: skip seeding a generator (~10 µs).
            cards = list(cards)
            rng.shuffle(cards)
        self._deck = (*cards, *self._deck[:self._deck_n])  # any cards still in the deck stay on top
        self._deck_n = len(self._deck)
        self._discard = 0
        if events is not None:
            events.append(Event("reshuffle", {"cards": len(cards)}, "D9.1",
                                f"The deck is empty: the {len(cards)}-card discard pile is shuffled into a new "
                                f"deck (rule D9.1)."))

    def _round_end(self, events: list[Event] | None) -> None:
        owner, play = self._standing
        last = self._current
        self._discard += play._counts
        self._standing = None
        self._target += 1
        drawn = self._refill(self._target, self._info.size, events)
        self._leader = self._current = owner
        self._passes = 0
        self._round += 1
        self._phase = "lead"
        if events is not None:
            events.append(Event(
                "round_end", {"leader": owner, "target": self._target, "drawn": drawn}, "D7.1",
                f"{seat_name(last)} passes — {self.players - 1} passes in a row (rule D7.1): round over. "
                f"{_fmt(play.cards)} is discarded, the Storage grows to {self._target} (D7.2), "
                f"{seat_name(owner)} leads round {self._round}."))

    # ------------------------------------------------------------- game and match end
    def _ranking(self, winner: int) -> list[int]:
        """D10.2: winner first, then fewer cards, then higher total, then the tiebreak."""
        n = self.players
        if self.options["rank_tiebreak"] == "random":
            order = list(range(n))
            self._rng().shuffle(order)
            tie = {s: order.index(s) for s in range(n)}
        else:
            tie = {s: (s - winner - 1) % n for s in range(n)}
        others = [s for s in range(n) if s != winner]
        counts = [_vec(h) for h in self._hands]
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
        self._storage, self._info = storage, _STORAGE[storage]
        self._penalties = tuple(penalties)
        return taken

    def _game_end(self, p: int, events: list[Event] | None) -> None:
        if events is not None:
            events.append(Event("game_end", {"winner": p}, "D8.1",
                                f"{seat_name(p)} has played their last card: game {self._game_no} is over "
                                f"(rule D8.1)."))
        if self.options["games"] == 1:
            self._phase = "finished"
            self._winners = (p,)
            self._reason = f"{seat_name(p)} emptied their hand (rule D8.1)"
            return
        ranking = self._ranking(p)
        taken = self._take_penalties(ranking)
        self._lost = tuple(lost + (taken.get(s) or 0) for s, lost in enumerate(self._lost))
        self._results += ({
            "game": self._game_no,
            "ranking": ranking,
            "cards_left": [_size(h) for h in self._hands],
            "taken": [taken.get(s) for s in range(self.players)],
            "lost_points": list(self._lost),
        },)
        if events is not None:
            order = ", ".join(seat_name(s) for s in ranking)
            takes = ", ".join(f"{seat_name(s)} {taken[s] if taken[s] is not None else '—'}"
                              for s in reversed(ranking[1:]))
            events.append(Event("scoring", self._results[-1], "D10.3",
                                f"Ranking (D10.2): {order}. Penalty cards (D10.3): {takes}. "
                                f"Lost points so far: " + ", ".join(
                                    f"{seat_name(s)} {self._lost[s]}" for s in range(self.players)) + "."))
        if self._game_no < self.options["games"]:
            rule = self.options["next_game_starter"]
            starter = ranking[-1] if rule == "last_place" else p if rule == "winner" else (self._starter + 1) % self.players
            self._game_no += 1
            self._setup(starter, None)
            if events is not None:
                events.append(Event("new_game", {"game": self._game_no, "starter": starter}, "D10.6",
                                    f"Game {self._game_no} of {self.options['games']}: cards are reshuffled and "
                                    f"dealt again; {seat_name(starter)} leads (rule D10.6)."))
            return
        best = min(self._lost)
        tied = [s for s in range(self.players) if self._lost[s] == best]
        if len(tied) > 1 and self.options["match_tie"] == "last_game_rank":
            tied = [min(tied, key=ranking.index)]
        self._phase = "finished"
        self._winners = tuple(tied)
        self._reason = (f"fewest lost points after {self.options['games']} games: "
                        + ", ".join(seat_name(s) for s in tied) + f" with {best} (rule D10.7)")
        if events is not None:
            events.append(Event("match_end", {"winners": list(tied)}, "D10.7", f"Match over: {self._reason}."))

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
            order = [v for v in VALUES for _ in range(counts[v])]
            self._rng().shuffle(order)
        deck = order[::-1]  # internal: top of the deck is the end of the list
        hand_size = _lookup(self.options["hand_size"], n)
        hands = [0] * n
        for i in range(hand_size * n):
            hands[(starter + i) % n] += _ONE[deck.pop()]
        storage = 0
        t0 = _lookup(self.options["initial_storage"], n)
        for _ in range(min(t0, len(deck))):
            storage += _ONE[deck.pop()]
        self._hands, self._storage, self._info = hands, storage, _STORAGE[storage]
        self._deck, self._deck_n = tuple(deck), len(deck)
        self._discard = 0
        self._target = t0
        self._standing = None
        self._current = self._leader = self._starter = starter
        self._passes = 0
        self._round = 1
        self._phase = "lead"

    def _deck_counts(self) -> dict[int, int]:
        return {v: _lookup(self.options["deck_counts"], v, 0) for v in VALUES}

    def all_cards(self) -> Counter:
        """Every card in every zone (hands, Storage, deck, discard, table, penalty piles)."""
        c = Counter(self._deck[:self._deck_n])
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

    # ------------------------------------------------------------- outcome and views
    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        if self.options["games"] == 3 and self._reason != "aborted":
            scores: tuple = tuple(self._lost)
        else:
            scores = tuple(_size(h) for h in self._hands)
        return Outcome(self._winners, scores, self._reason)

    def view(self, seat: int | None) -> dict[str, Any]:
        out = self.outcome()
        v = self._view_head(seat)
        v.update({
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
            "deck_count": self._deck_n,
            "discard": _cards(self._discard),
            "hands": [_cards(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [_size(h) for h in self._hands],
            "lost_points": list(self._lost),
            "penalties": [sorted(p) for p in self._penalties],
            "results": [dict(r) for r in self._results],
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "outcome": None if out is None else out.to_dict(),
        })
        if seat is None:
            v["deck"] = self._deck_list()  # the teacher sees everything
        return v

    def __str__(self) -> str:
        n = self.players
        head = (f"Depot · {n} players · game {self._game_no}/{self.options['games']} · round {self._round} · "
                f"T={self._target} · deck {self._deck_n} · discard {_size(self._discard)}")
        st = self.standing
        lines = [
            head,
            f"Storage {_fmt(_cards(self._storage))} (set {self._info.sl}, run {self._info.rl})",
            "Standing " + ("—" if st is None else f"{_fmt(st[1])} by {seat_name(st[0])}") + f" · passes {self._passes}",
        ]
        for s in range(n):
            mark = ">" if s == self.current_player else " "
            extra = f" · lost {self._lost[s]}" if self.options["games"] == 3 else ""
            lines.append(f"{mark} {seat_name(s)} {_fmt(_cards(self._hands[s]))}{extra}")
        out = self.outcome()
        if out is not None:
            lines.append(f"Finished: {out.reason}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<DepotState players={self.players} seed={self.seed} turn={self._moves} phase={self._phase}>"

    # ------------------------------------------------------------- copy and persistence
    def clone(self) -> "DepotState":
        new = DepotState.__new__(DepotState)
        self._clone_base(new)
        new._hands = self._hands[:]  # the list is mutated in place, the ints it holds are not
        new._storage = self._storage
        new._info = self._info
        new._deck = self._deck
        new._deck_n = self._deck_n
        new._discard = self._discard
        new._penalties = self._penalties
        new._lost = self._lost
        new._results = self._results  # entries are never mutated after creation
        new._target = self._target
        new._standing = self._standing
        new._current = self._current
        new._leader = self._leader
        new._passes = self._passes
        new._round = self._round
        new._game_no = self._game_no
        new._starter = self._starter
        new._phase = self._phase
        new._turns = self._turns
        new._winners = self._winners
        new._reason = self._reason
        new._last = self._last
        new._max_turns = self._max_turns
        new._noted = self._noted
        new._when_empty = self._when_empty
        return new

    def _deck_list(self) -> list[int]:
        """The deck, top card first (``deck=`` order)."""
        return list(self._deck[self._deck_n - 1::-1]) if self._deck_n else []

    def _read_options(self) -> None:
        """Keep the options the hot path reads as attributes (``options`` is never mutated)."""
        self._max_turns = self.options["max_turns"]
        self._noted = self.options["refill_target"] == "noted"
        self._when_empty = self.options["reshuffle_timing"] == "when_empty"

    def _state_dict(self) -> dict[str, Any]:
        return {
            "hands": [_cards(h) for h in self._hands],
            "storage": _cards(self._storage),
            "deck": self._deck_list(),
            "discard": _cards(self._discard),
            "target": self._target,
            "standing": None if self._standing is None else [self._standing[0], list(self._standing[1].cards)],
            "current": self._current,
            "leader": self._leader,
            "passes": self._passes,
            "round": self._round,
            "game_no": self._game_no,
            "starter": self._starter,
            "phase": self._phase,
            "turns": self._turns,
            "lost": list(self._lost),
            "penalties": [list(p) for p in self._penalties],
            "results": [dict(r) for r in self._results],
            "winners": None if self._winners is None else list(self._winners),
            "reason": self._reason,
            "last": None if self._last is None else [self._last[0], str(self._last[1])],
        }

    def _load_state(self, d: dict[str, Any]) -> None:
        self.options = resolve(OPTIONS, self.options, GAME)
        self._hands = [_counts(h) for h in d["hands"]]
        self._storage = _counts(d["storage"])
        self._info = _STORAGE[self._storage]
        self._deck = tuple(d["deck"][::-1])
        self._deck_n = len(self._deck)
        self._discard = _counts(d["discard"])
        self._target = d["target"]
        self._standing = None if d["standing"] is None else (d["standing"][0], _play(tuple(d["standing"][1])))
        for k in ("current", "leader", "passes", "round", "game_no", "starter", "phase", "turns", "reason"):
            setattr(self, "_" + k, d[k])
        self._lost = tuple(d["lost"])
        self._penalties = tuple(tuple(p) for p in d["penalties"])
        self._results = tuple(dict(r) for r in d["results"])
        self._winners = None if d["winners"] is None else tuple(d["winners"])
        self._last = None if d["last"] is None else (d["last"][0], parse_action(d["last"][1]))
        self._read_options()


def _lookup(table: dict, key: int, default: Any = None) -> Any:
    return table.get(key, default)


def new_game(players: int = 4, seed: int | None = None, deck: list[int] | None = None, **options: Any) -> DepotState:
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
    **options:
        The options of the rules' table (§14), e.g. ``games=3``.
    """
    if isinstance(players, bool) or players not in PLAYERS:
        raise ValueError(f"players={players!r} is not allowed; allowed values: 3, 4, 5 (rule D1.4)")
    opts = resolve(OPTIONS, options, GAME)
    sp = opts["starting_player"]
    if sp != "random" and sp >= players:
        raise ValueError(f"starting_player={sp!r} is not allowed; allowed values: 0..{players - 1} or 'random'")
    st = DepotState.__new__(DepotState)
    st._init_base(players, fresh_seed() if seed is None else seed, opts, None if deck is None else tuple(deck))
    need = st._deck_multiset()
    hand_size, t0 = _lookup(opts["hand_size"], players), _lookup(opts["initial_storage"], players)
    if sum(need.values()) < hand_size * players + t0:
        raise ValueError(f"deck_counts has {sum(need.values())} cards; {players} players need at least "
                         f"{hand_size * players + t0} to deal (D2.2, D2.3)")
    if deck is not None:
        deck = _check_deck(deck, need)
    st._read_options()
    st._lost = (0,) * players
    st._penalties = ((),) * players
    st._results = ()
    st._game_no = 1
    st._turns = 0
    st._winners = None
    st._reason = ""
    st._last = None
    starter = st._rng().randrange(players) if sp == "random" else sp
    st._setup(starter, deck)
    return st


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
    passes: int = 0,
    round: int = 1,
    seed: int = 0,
    **options: Any,
) -> DepotState:
    """A hand-built position for teaching and tests (rules §17 fixtures).

    ``deck`` is listed top first. ``target`` defaults to the Storage size. With no
    ``standing`` play the seat to act is the leader (phase ``"lead"``).

    >>> st = setup_position(4, [[3, 3, 3, 4, 5, 6, 7, 7, 8], [1], [1], [1]], [2, 4, 5, 5, 6])
    >>> st.limits
    (2, 3)
    """
    st = new_game(players=players, seed=seed, **options)
    if len(hands) != players:
        raise ValueError(f"hands: expected {players} hands, got {len(hands)}")
    st._hands = [_counts(h) for h in hands]
    st._storage = _counts(storage)
    st._info = _STORAGE[st._storage]
    st._deck = tuple(deck)[::-1]
    st._deck_n = len(st._deck)
    st._discard = _counts(discard)
    st._standing = None if standing is None else (standing[0], _play(tuple(sorted(standing[1]))))
    st._current = current
    st._leader = current if standing is None else standing[0]
    st._target = len(storage) if target is None else target
    st._passes = passes
    st._round = round
    st._phase = "lead" if standing is None else "respond"
    return st


def _check_deck(deck: list[Any], need: Counter) -> list[int]:
    cards = []
    for i, c in enumerate(deck):
        if isinstance(c, str) and c.strip().isdigit():
            c = int(c)
        if isinstance(c, bool) or not isinstance(c, int) or c not in VALUES:
            raise ValueError(f"deck[{i}] = {c!r} is not a Depot card (values 1-8)")
        cards.append(c)
    got = Counter(cards)
    if got != need:
        missing = need - got
        extra = got - need
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"{k}×{v}" for v, k in sorted(missing.items())))
        if extra:
            parts.append("extra " + ", ".join(f"{k}×{v}" for v, k in sorted(extra.items())))
        raise ValueError("deck is not the game's card multiset: " + "; ".join(parts))
    return cards


# Re-exported so users can catch them from the game module too.
__all__ = [
    "ANY", "DepotState", "IllegalActionError", "InvalidActionError", "OPTIONS", "Pass", "Play",
    "new_game", "parse_action", "run_limit", "set_limit", "setup_position", "shape",
]
