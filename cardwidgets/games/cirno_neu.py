"""cirno+neu: a running-total game — keep the sum at or under 99, or bust.

Rules: ``shared/rules/cirno_neu.md`` (rule IDs ``N1``–``N8``, ambiguities ``NA-*``;
every refusal and narration line cites them). Players take turns playing one card
onto the main stack and drawing one; a player whose every card would take the sum
above 99 is *forced* and busts. Order cards change who plays next: PASS, TURN,
SHOT (an extra turn for a chosen player), DOUBLE (the next turn plays 2 cards)
and DOUBLE SHOT (both).

Cards are small ints (their row in the N1.3 table) inside the engine and tokens
(``"7"``, ``"9"``, ``"-10"``, ``"99"``, ``"PASS"``, ``"DSHOT"`` ...) outside it.

>>> st = new_game(players=3, seed=7, deck=DEMO_DECK)
>>> st.hand(0), st.sum, st.current_player
(['5', '10', 'SHOT'], 0, 0)
>>> [str(a) for a in st.legal_actions()]
['play 5', 'play 10', 'play shot @1', 'play shot @2']
>>> for e in st.apply("play 10"):
...     print(e)
A plays 10: sum 0 → 10 (rule N3.1).
A draws 1 card (rule N4.7).
B's turn: 1 card (rule N5.3).
>>> print(st.apply("play shot @A")[0])
B plays SHOT on A (rule N3.6): A plays now; afterwards play resumes after B (rule N5.2).
>>> st.explain("play 5, 1")
'Illegal: rule N4.1 — a two-card command needs a double turn; A has a normal turn with 1 card play'
>>> st.explain("play 50")
'Illegal: rule N4.2 — you hold no 50 (your hand: [1, 5, SHOT])'
>>> parse_action("PLAY ⑨"), str(parse_action("dshot @2"))
(Play(card='9', target=None), 'play dshot @2')
"""

from __future__ import annotations

import re
from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..core import ANY, Event, IllegalActionError, InvalidActionError, Option, Outcome, State
from ..core import fresh_seed, resolve, seat_name
from ..core.options import int_range, optional

GAME = "cirno_neu"
PLAYERS = range(2, 9)  # N1.1

# --------------------------------------------------------------------------- cards (N1.2, N1.3)
#: Card tokens in the order of the N1.3 table; a card's engine id is its index here.
TOKENS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "50",
          "-1", "-10", "99", "PASS", "TURN", "SHOT", "DOUBLE", "DSHOT")
#: Default deck (N1.3, an assumption: see NA-1): 59 cards.
DEFAULT_DECK = {
    "1": 3, "2": 3, "3": 3, "4": 3, "5": 3, "6": 3, "7": 3, "8": 3, "9": 3, "10": 6, "50": 2,
    "-1": 2, "-10": 4, "99": 5, "PASS": 4, "TURN": 4, "SHOT": 2, "DOUBLE": 2, "DSHOT": 1,
}
PLUS_MAX = 10  # ids 0..10 are plus cards (values ascending)
MINUS_1, MINUS_10, SET99, PASS, TURN, SHOT, DOUBLE, DSHOT = range(11, 19)
#: What a card adds (plus), or subtracts (minus); 0 for the others.
VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 50, 1, 10, 0, 0, 0, 0, 0, 0)
_ACTION_TOKEN = tuple(t.lower() for t in TOKENS)
_SHOW = TOKENS[:SET99 + 1] + ("PASS", "TURN", "SHOT", "DOUBLE", "DOUBLE SHOT")
_CARD_RULE = ("N3.1",) * 11 + ("N3.2", "N3.2", "N3.3", "N3.4", "N3.5", "N3.6", "N3.7", "N3.8")

_CARD_IDS = {t.lower(): i for i, t in enumerate(TOKENS)}
_CARD_IDS.update({"⑨": 8, "doubleshot": DSHOT, "double-shot": DSHOT, "+9": 8})


def card_id(token: Any) -> int | None:
    """The engine id of a card token (``"7"``, ``"⑨"``, ``"pass"``, ``-10`` ...), else ``None``."""
    if isinstance(token, bool):
        return None
    if isinstance(token, int):
        token = str(token)
    if not isinstance(token, str):
        return None
    return _CARD_IDS.get(token.strip().lower())


def card_token(token: Any) -> str:
    """The canonical token of a card (``"⑨"`` -> ``"9"``, ``"pass"`` -> ``"PASS"``); ValueError if none."""
    c = card_id(token)
    if c is None:
        raise ValueError(f"{token!r} is not a cirno+neu card; cards: {', '.join(TOKENS)} (also ⑨)")
    return TOKENS[c]


def _fmt(cards: Iterable[int]) -> str:
    return "[" + ", ".join(_SHOW[c] for c in cards) + "]"


# --------------------------------------------------------------------------- options (§10)
def _deck_check(value: Any) -> str | None:
    if value is DEFAULT_DECK:
        return None
    if not isinstance(value, dict) or not value:
        return "expected a dict {card token: count}, e.g. {'1': 3, ..., 'DSHOT': 1}"
    seen = set()
    for k, n in value.items():
        c = card_id(k)
        if c is None:
            return f"{k!r} is not a card token; allowed keys: {', '.join(TOKENS)}"
        if c in seen:
            return f"card {TOKENS[c]} is given twice"
        seen.add(c)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            return f"count {n!r} for {k!r} must be an int >= 0"
    return None


def _any_int(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return None
    return "allowed values: an int (at most limit), or None for the limit itself"


def _seat_or_random(value: Any) -> str | None:
    if value == "random" or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 7):
        return None
    return "allowed values: a seat 0..players-1, or 'random'"


#: The options of the spec's table (§10), with its names and defaults.
OPTIONS = (
    Option("deck_counts", DEFAULT_DECK, check=_deck_check, doc="cards per token (N1.3, NA-1)"),
    Option("limit", 99, check=int_range(1), doc="highest safe sum L (N1.5)"),
    Option("set_value", None, check=optional(_any_int), doc="what the 99 card sets; None = limit (N3.3)"),
    Option("hand_size", 3, check=int_range(1), doc="cards dealt to each player (N2.3)"),
    Option("life_system", False, (False, True), doc="True: busting costs a chip (N2.1)"),
    Option("lives", 2, check=int_range(1), doc="chips per player in the life system (N1.4)"),
    Option("first_dealer", 0, check=_seat_or_random, doc="seat that deals round 1, or 'random' (N2.2)"),
    Option("allow_voluntary_bust", False, (False, True), doc="unsafe cards may be played (N4.3, NA-5)"),
    Option("auto_forced_bust", True, (True, False), doc="the engine settles forced busts (N4.4, NA-6)"),
    Option("floor_at_zero", False, (False, True), doc="the sum never goes below 0 (N3.2, NA-7)"),
    Option("shot_resume", "after_shooter", ("after_shooter", "after_target"), doc="N5.2, NA-11"),
    Option("shot_self_target", False, (False, True), doc="SHOT may target its player (N3.6, NA-12)"),
    Option("pass_ends_double_turn", False, (False, True), doc="N4.6, NA-9"),
    Option("double_draw_timing", "after_both", ("after_both", "after_each"), doc="N4.6, NA-20"),
    Option("next_round_starter", "loser", ("loser", "after_loser", "rotate"), doc="N6.6, NA-24"),
    Option("reset_direction_each_round", True, (True, False), doc="N2.3, NA-25"),
)


@dataclass(frozen=True, slots=True)
class Config:
    """The resolved options in the form the hot paths read (shared by clones)."""

    deck: tuple[int, ...]  # count per card id
    cards: tuple[int, ...]  # the deck as sorted card ids
    limit: int
    set_value: int
    hand_size: int
    life_system: bool
    lives: int
    voluntary: bool
    auto_bust: bool
    floor: bool
    after_shooter: bool
    self_target: bool
    pass_ends: bool
    after_each: bool
    starter: str
    reset_direction: bool


_CONFIGS: dict[tuple, Config] = {}


def _config(opts: dict[str, Any]) -> Config:
    """The Config of resolved options (cached: simulations build many games alike)."""
    dc = opts["deck_counts"]
    try:
        key = (None if dc is DEFAULT_DECK else tuple(dc.items()), *[v for k, v in opts.items() if k != "deck_counts"])
        hit = _CONFIGS.get(key)
    except TypeError:  # an unhashable value: the checks will refuse it
        key, hit = None, None
    if hit is None:
        hit = _make_config(opts)
        if key is not None and len(_CONFIGS) < 1000:
            _CONFIGS[key] = hit
    return hit


def _make_config(opts: dict[str, Any]) -> Config:
    counts = [0] * len(TOKENS)
    for k, n in opts["deck_counts"].items():
        counts[card_id(k)] = n
    limit = opts["limit"]
    sv = limit if opts["set_value"] is None else opts["set_value"]
    if sv > limit:
        raise ValueError(f"set_value={sv!r} is not allowed; allowed values: an int <= limit ({limit}) (rule N3.9)")
    return Config(
        tuple(counts), tuple(k for k in range(len(TOKENS)) for _ in range(counts[k])),
        limit, sv, opts["hand_size"], opts["life_system"], opts["lives"],
        opts["allow_voluntary_bust"], opts["auto_forced_bust"], opts["floor_at_zero"],
        opts["shot_resume"] == "after_shooter", opts["shot_self_target"], opts["pass_ends_double_turn"],
        opts["double_draw_timing"] == "after_each", opts["next_round_starter"],
        opts["reset_direction_each_round"],
    )


# --------------------------------------------------------------------------- actions (§9.3, §15)
@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (a token such as ``"7"``, ``"9"``, ``"-10"``, ``"PASS"``, ``"DSHOT"``);
    ``target`` is a seat number, for SHOT and DOUBLE SHOT only (N4.2).

    >>> Play("⑨"), Play("shot", 2), str(Play("dshot", 1))
    (Play(card='9', target=None), Play(card='SHOT', target=2), 'play dshot @1')
    """

    card: str
    target: int | None = None
    cid: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        c = card_id(self.card)
        if c is None:
            raise InvalidActionError(f"{self.card!r} is not a cirno+neu card; cards: {', '.join(TOKENS)}")
        t = self.target
        if t is not None:
            if isinstance(t, str) and len(t.strip()) == 1 and t.strip().upper() in "ABCDEFGH":
                t = "ABCDEFGH".index(t.strip().upper())
            if isinstance(t, bool) or not isinstance(t, int) or t < 0:
                raise InvalidActionError(f"target {self.target!r} is not a seat number (or a seat letter A-H)")
        object.__setattr__(self, "card", TOKENS[c])
        object.__setattr__(self, "target", t)
        object.__setattr__(self, "cid", c)

    def __str__(self) -> str:
        s = "play " + _ACTION_TOKEN[self.cid]
        return s if self.target is None else f"{s} @{self.target}"


# Interned actions: legal lists hand out the same objects every time.
_PLAY1 = tuple(Play(t) for t in TOKENS)  # no target
_PLAYT = {(c, s): Play(TOKENS[c], s) for c in (SHOT, DSHOT) for s in range(8)}

_ONE = re.compile(r"^\s*(?:play\s+)?([^\s@,]+)\s*(?:@\s*([^\s@,]+))?\s*$", re.IGNORECASE)


def _intern(c: int, t: int | None) -> Play:
    if t is None:
        return _PLAY1[c]
    p = _PLAYT.get((c, t))
    return p if p is not None else Play(TOKENS[c], t)


def parse_action(text: str) -> Play:
    """Parse one card play (§15): ``play 7``, ``play ⑨``, ``play shot @2``, ``turn``, ``shot @C``.

    Targets are seat numbers; the default seat letters ``A``–``H`` are accepted too.
    Two-card text (``play 4, -1``) is refused here: :meth:`CirnoNeuState.apply` takes it.

    >>> parse_action("play -10"), str(parse_action("DOUBLE-SHOT @c"))
    (Play(card='-10', target=None), 'play dshot @2')
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{text!r} is not action text")
    if "," in text:
        raise InvalidActionError(
            f"{text!r}: parse_action reads one card play; give the two cards of a double turn "
            f"to apply() ('play 4, -1') or one at a time")
    m = _ONE.match(text)
    if not m:
        raise InvalidActionError(f"{text!r}: expected 'play <card> [@<seat>]', e.g. 'play 7' or 'play shot @2'")
    tok, tgt = m.group(1), m.group(2)
    c = card_id(tok)
    if c is None:
        raise InvalidActionError(
            f"{text!r}: {tok!r} is not a card; cards: 1-8, 9 (⑨), 10, 50, -1, -10, 99, "
            f"pass, turn, shot, double, dshot")
    t = None
    if tgt is not None:
        if tgt.isascii() and tgt.isdigit():
            t = int(tgt)
        elif len(tgt) == 1 and tgt.upper() in "ABCDEFGH":
            t = "ABCDEFGH".index(tgt.upper())
        else:
            raise InvalidActionError(
                f"{text!r}: target {tgt!r} is not a seat number or seat letter A-H "
                f"(other names resolve in the table widget)")
    return _intern(c, t)


# --------------------------------------------------------------------------- state
AWAIT_CARD = "AWAIT_CARD"
MATCH_END = "MATCH_END"
_NO_EVENTS: list = []  # returned (never filled) by the fast path


class CirnoNeuState(State):
    """A cirno+neu match in progress. Build it with :func:`new_game` or :func:`setup_position`."""

    game = GAME
    action_types = (Play,)
    _parse = staticmethod(parse_action)

    __slots__ = (
        "_cfg", "_hands", "_draw", "_stack", "_sum", "_dir", "_dealer", "_round", "_cp",
        "_actor", "_anchor", "_shot_turn", "_required", "_played", "_shot_target", "_double_next",
        "_turns", "_active", "_chips", "_out", "_tgt", "_last", "_bust", "_reason", "setup_events",
    )

    # _hands: one sorted list of card ids per seat; _draw: top card LAST; _stack: top card last.
    # _cp: seat to act or None (match over). _active/_chips/_out/_tgt are tuples replaced
    # (never mutated) on change, so clones share them. _tgt[seat] = (shot plays, dshot plays).
    # _bust: the last bust, a dict (public: N8.2 reveals the buster's hand).

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return self._cp

    @property
    def is_terminal(self) -> bool:
        return self._cp is None

    @property
    def phase(self) -> str:
        """``"AWAIT_CARD"`` while running, ``"MATCH_END"`` when over (§9.2)."""
        return AWAIT_CARD if self._cp is not None else MATCH_END

    @property
    def sum(self) -> int:
        """The running total of the main stack."""
        return self._sum

    @property
    def direction(self) -> int:
        """``+1`` clockwise, ``-1`` counter-clockwise."""
        return self._dir

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def round(self) -> int:
        return self._round

    @property
    def turn(self) -> dict[str, Any]:
        """The turn record of N4.1/N5.1."""
        return {
            "actor": self._actor, "anchor": self._anchor,
            "kind": "shot" if self._shot_turn else "normal",
            "required": self._required, "played": self._played,
            "shot_target": self._shot_target, "double_next": self._double_next,
        }

    @property
    def active(self) -> tuple[bool, ...]:
        return self._active

    @property
    def chips(self) -> tuple[int, ...]:
        return self._chips

    @property
    def main_stack(self) -> list[str]:
        """The main stack, bottom first."""
        return [TOKENS[c] for c in self._stack]

    @property
    def draw_pile(self) -> list[str]:
        """The draw pile, top first (teacher access)."""
        return [TOKENS[c] for c in reversed(self._draw)]

    @property
    def config(self) -> Config:
        return self._cfg

    def hand(self, seat: int) -> list[str]:
        """A seat's hand in table order (teacher access; players use :meth:`view`)."""
        return [TOKENS[c] for c in self._hands[seat]]

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Play]:
        """Legal actions of the player to act: the hand's cards in N1.3 table order, SHOT and
        DOUBLE SHOT once per legal target in seat order (§9.4a)."""
        if self._cp is None:
            return []
        return self._legal()  # a fresh list every call

    def _legal(self) -> list[Play]:
        hand = self._hands[self._actor]
        cfg = self._cfg
        room = cfg.limit - self._sum
        voluntary = cfg.voluntary
        out: list[Play] = []
        prev = -1
        for c in hand:
            if c == prev:
                continue
            prev = c
            if c <= PLUS_MAX:
                if VALUE[c] <= room or voluntary:
                    out.append(_PLAY1[c])
            elif c == SHOT:
                out.extend(self._tgt[self._actor][0])
            elif c == DSHOT:
                out.extend(self._tgt[self._actor][1])
            else:
                out.append(_PLAY1[c])
        if not out:
            # Forced with auto_forced_bust=False: every card is legal and busts (N4.4).
            out = [_PLAY1[c] for c in sorted(set(hand))]
        return out

    def _safe_cards(self, hand: Sequence[int]) -> list[int]:
        room = self._cfg.limit - self._sum
        return sorted({c for c in hand if c > PLUS_MAX or VALUE[c] <= room})

    def _diagnose(self, action: Play) -> tuple[str, str] | None:
        c, t = action.cid, action.target
        p = self._actor
        hand = self._hands[p]
        cfg = self._cfg
        if c not in hand:
            return "N4.2", f"you hold no {_SHOW[c]} (your hand: {_fmt(hand)})"
        if c == SHOT or c == DSHOT:
            if t is None:
                return "N3.6", f"{_SHOW[c]} needs a target"
        elif t is not None:
            return "N4.2", f"only SHOT/DOUBLE SHOT take a target ({_SHOW[c]} does not)"
        if t is not None:
            if t == p and not cfg.self_target:
                return "N3.6", "you cannot target yourself"
            if t >= self.players:
                return "N6.7", f"seat {t} is not an active player (seats are 0-{self.players - 1})"
            if not self._active[t]:
                return "N6.7", f"{seat_name(t)} is not an active player"
        if c <= PLUS_MAX and self._sum + VALUE[c] > cfg.limit and not cfg.voluntary:
            safe = self._safe_cards(hand)
            if safe:
                return "N4.3", (f"{_SHOW[c]} would make the sum {self._sum + VALUE[c]} (> {cfg.limit}) while you "
                                f"hold a safe card ({', '.join(_SHOW[s] for s in safe)})")
        return None

    # ------------------------------------------------------------- two-card shortcut (§9.4a)
    def apply(self, action: Any, seat: Any = ANY) -> list[Event]:
        """Apply one card play (object or text), or the two-card text of a double turn.

        ``"play 4, -1"`` is checked card by card on a copy and recorded as two
        actions; if either card is refused (or the turn would end after the first
        card) nothing changes and the refusal names that card's rule.
        """
        if isinstance(action, str) and "," in action:
            return self._apply_two(action, seat)
        return State.apply(self, action, seat)

    def is_legal(self, action: Any, seat: Any = ANY) -> bool:
        if isinstance(action, str) and "," in action:
            return self._two_refusal(action, seat) is None
        return State.is_legal(self, action, seat)

    def explain(self, action: Any, seat: Any = ANY) -> str:
        if isinstance(action, str) and "," in action:
            err = self._two_refusal(action, seat)
            if isinstance(err, InvalidActionError):
                return f"Invalid: {err}"
            if err is not None:
                return str(err)
            a, b = (parse_action(p) for p in action.split(","))
            return f"Legal: {a}, {b} by {seat_name(self._actor)}."
        return State.explain(self, action, seat)

    def _two_refusal(self, text: str, seat: Any) -> Exception | None:
        try:
            self.clone()._apply_two(text, seat)
        except (IllegalActionError, InvalidActionError) as e:
            return e
        return None

    def _apply_two(self, text: str, seat: Any) -> list[Event]:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise InvalidActionError(f"{text!r}: a two-card command is 'play <card> [@t], <card> [@t]'")
        first, second = parse_action(parts[0]), parse_action(parts[1])
        trial = self.clone()
        trial.setup_events = []
        err = trial.refusal(first, seat)
        if err is not None:
            raise err
        if trial._required != 2 or trial._played != 0:
            if trial._required == 2:
                why = f"{seat_name(trial._actor)} has already played 1 of the 2 cards of this double turn"
            else:
                why = f"{seat_name(trial._actor)} has a normal turn with 1 card play"
            raise IllegalActionError("N4.1", "a two-card command needs a double turn; " + why, first)
        turn = trial._turns
        trial._apply(first, False)
        if trial._turns != turn or trial._cp is None:
            bust = trial._bust
            if bust is not self._bust and bust["card"] is None:
                rule, why = "N4.4", (f"after {first} no card in hand is safe: the player is forced and the round "
                                     f"ends before the second card")
            elif bust is not self._bust:
                rule = "N4.4" if bust["forced"] else "N6.1"
                why = f"{first} busts, which ends the round before the second card (rule N6.2)"
            elif first.cid == PASS and self._cfg.pass_ends:
                rule, why = "N4.6", "PASS ends the double turn (pass_ends_double_turn), so no second card is played"
            else:
                rule, why = "N4.5", f"after {first} the hand is empty, so the turn ends before the second card"
            raise IllegalActionError(rule, why, second)
        err = trial.refusal(second, ANY)
        if err is not None:
            raise err
        return State.apply(self, first, seat) + State.apply(self, second, seat)

    # ------------------------------------------------------------- transitions
    def _apply(self, action: Play, narrate: bool) -> list[Event]:
        if narrate:
            return self._apply_narrated(action)
        # Simulation fast path: the same transitions as _apply_narrated with the common
        # case (draw from a non-empty pile, next turn, no forced bust) inlined. A test
        # checks that both paths reach identical states.
        c = action.cid
        p = self._actor
        cfg = self._cfg
        hand = self._hands[p]
        hand.remove(c)
        self._stack.append(c)
        self._last = (p, action)
        if c <= PLUS_MAX:
            before = self._sum
            s = before + VALUE[c]
            self._sum = s
            if s > cfg.limit:
                room = cfg.limit - before
                forced = all(k <= PLUS_MAX and VALUE[k] > room for k in hand) and VALUE[c] > room
                self._do_bust(p, c, forced, None)
                self._settle(None)
                return _NO_EVENTS
        elif c == MINUS_1 or c == MINUS_10:
            s = self._sum - VALUE[c]
            self._sum = 0 if s < 0 and cfg.floor else s
        elif c == SET99:
            self._sum = cfg.set_value
        elif c == TURN:
            self._dir = -self._dir
        elif c == SHOT:
            self._shot_target = action.target
        elif c == DOUBLE:
            self._double_next = True
        elif c == DSHOT:
            self._shot_target = action.target
            self._double_next = True
        played = self._played + 1
        self._played = played
        req = self._required
        each = req == 2 and cfg.after_each
        if each:
            self._draw_cards(p, 1, None)
        if played >= req or (c == PASS and cfg.pass_ends):
            # N4.7 draws, then N5 (as _end_turn + _begin_turn)
            if not each:
                draw = self._draw
                if len(draw) >= played:
                    insort(hand, draw.pop())
                    if played == 2:
                        insort(hand, draw.pop())
                else:
                    self._draw_cards(p, played, None)
            t = self._shot_target
            if t is not None:
                self._anchor = p if cfg.after_shooter else t
                self._shot_turn = True
                self._shot_target = None
            else:
                d, n, active = self._dir, self.players, self._active
                t = self._anchor
                while True:
                    t = (t + d) % n
                    if active[t]:
                        break
                self._anchor = t
                self._shot_turn = False
            self._actor = self._cp = t
            if self._double_next:
                self._required = 2
                self._double_next = False
            else:
                self._required = 1
            self._played = 0
            self._turns += 1
            hand = self._hands[t]
        # N4.4/N4.5 checks (as _settle)
        if hand:
            if cfg.auto_bust:
                c0 = hand[0]
                if c0 <= PLUS_MAX and VALUE[c0] > cfg.limit - self._sum and hand[-1] <= PLUS_MAX:
                    self._settle(None)
        else:
            self._settle(None)
        return _NO_EVENTS

    def _apply_narrated(self, action: Play) -> list[Event]:
        ev: list[Event] | None = []
        c = action.cid
        p = self._actor
        cfg = self._cfg
        self._hands[p].remove(c)
        self._stack.append(c)
        self._last = (p, action)
        before = self._sum
        if c <= PLUS_MAX:
            self._sum = before + VALUE[c]
            if self._sum > cfg.limit:
                if ev is not None:
                    ev.append(Event("play", {"seat": p, "card": TOKENS[c], "target": None, "sum_before": before,
                                             "sum": self._sum}, "N3.1",
                                    f"{seat_name(p)} plays {_SHOW[c]}: sum {before} → {self._sum} "
                                    f"(> {cfg.limit}) (rule N3.1)."))
                room = cfg.limit - before
                forced = all(k <= PLUS_MAX and VALUE[k] > room for k in self._hands[p]) and VALUE[c] > room
                self._do_bust(p, c, forced, ev)
                self._settle(ev)
                return ev  # type: ignore[return-value]
        elif c == MINUS_1 or c == MINUS_10:
            s = before - VALUE[c]
            self._sum = 0 if cfg.floor and s < 0 else s
        elif c == SET99:
            self._sum = cfg.set_value
        elif c == TURN:
            self._dir = -self._dir
        elif c == SHOT:
            self._shot_target = action.target
        elif c == DOUBLE:
            self._double_next = True
        elif c == DSHOT:
            self._shot_target = action.target
            self._double_next = True
        self._played += 1
        if ev is not None:
            self._narrate_play(p, c, action.target, before, ev)
        if cfg.after_each and self._required == 2:
            self._draw_cards(p, 1, ev, "N4.6")
        if (c == PASS and cfg.pass_ends) or self._played >= self._required:
            if ev is not None and c == PASS and cfg.pass_ends and self._played < self._required:
                ev.append(Event("pass_ends", {"seat": p}, "N4.6",
                                f"PASS ends {seat_name(p)}'s double turn (pass_ends_double_turn, rule N4.6)."))
            self._end_turn(ev)
        self._settle(ev)
        return ev  # type: ignore[return-value]

    def _narrate_play(self, p: int, c: int, t: int | None, before: int, ev: list[Event]) -> None:
        who = seat_name(p)
        rule = _CARD_RULE[c]
        if c <= SET99:
            floor = " (floored at 0)" if c in (MINUS_1, MINUS_10) and before - VALUE[c] != self._sum else ""
            text = f"{who} plays {_SHOW[c]}: sum {before} → {self._sum}{floor} (rule {rule})."
        elif c == PASS:
            text = f"{who} plays PASS: the sum stays {self._sum} (rule N3.4)."
        elif c == TURN:
            way = "clockwise" if self._dir == 1 else "counter-clockwise"
            text = f"{who} plays TURN: play now goes {way} (rule N3.5)."
        elif c == DOUBLE:
            text = f"{who} plays DOUBLE: the next turn plays 2 cards (rule N3.7)."
        else:
            tn = seat_name(t)  # type: ignore[arg-type]
            resume = who if self._cfg.after_shooter else tn
            two = " 2 cards" if c == DSHOT else ""
            text = (f"{who} plays {_SHOW[c]} on {tn} (rule {rule}): {tn} plays{two} now; "
                    f"afterwards play resumes after {resume} (rule N5.2).")
        if self._required == 2:
            text = text[:-1] + f" — card {self._played} of 2."
        ev.append(Event("play", {"seat": p, "card": TOKENS[c], "target": t, "sum_before": before,
                                 "sum": self._sum, "played": self._played, "required": self._required},
                        rule, text))

    def _settle(self, ev: list[Event] | None) -> None:
        """Automatic steps before the actor must choose: empty hands (N4.5), forced busts (N4.4)."""
        cfg = self._cfg
        while self._cp is not None:
            p = self._actor
            hand = self._hands[p]
            if not hand:
                if not any(self._hands[s] for s in range(self.players) if self._active[s]):
                    raise RuntimeError("no active player holds a card: the match cannot go on (N7.2)")
                if ev is not None:
                    ev.append(Event("empty_hand", {"seat": p}, "N4.5",
                                    f"{seat_name(p)} has no cards: the rest of the turn is skipped (rule N4.5)."))
                self._end_turn(ev)
                continue
            if cfg.auto_bust:
                c0 = hand[0]
                if c0 <= PLUS_MAX and VALUE[c0] > cfg.limit - self._sum and hand[-1] <= PLUS_MAX:
                    self._do_bust(p, None, True, ev)
                    continue
            return

    def _draw_cards(self, p: int, k: int, ev: list[Event] | None, rule: str = "N4.7") -> None:
        hand, draw = self._hands[p], self._draw
        got = 0
        for _ in range(k):
            if not draw:
                if len(self._stack) < 2:
                    if ev is not None:
                        ev.append(Event("draw_short", {"seat": p, "missing": k - got}, "N7.2",
                                        f"Nothing is left to draw: {seat_name(p)} goes on with {len(hand)} "
                                        f"card{'s' * (len(hand) != 1)} (rule N7.2)."))
                    break
                rest = self._stack[:-1]
                self._stack = self._stack[-1:]
                self._rng().shuffle(rest)
                self._draw = draw = rest
                if ev is not None:
                    ev.append(Event("reshuffle", {"cards": len(rest)}, "N7.1",
                                    f"The draw pile is empty: the main stack except its top card "
                                    f"({len(rest)} cards) is shuffled into a new draw pile; the sum stays "
                                    f"{self._sum} (rule N7.1)."))
            insort(hand, draw.pop())
            got += 1
        if ev is not None and got:
            ev.append(Event("draw", {"seat": p, "count": got}, rule,
                            f"{seat_name(p)} draws {got} card{'s' * (got != 1)} (rule {rule})."))

    def _end_turn(self, ev: list[Event] | None) -> None:
        """N4.7 draws, then N5: who plays next and how many cards."""
        cfg = self._cfg
        p = self._actor
        if self._played and not (cfg.after_each and self._required == 2):
            self._draw_cards(p, self._played, ev)
        req = 2 if self._double_next else 1
        t = self._shot_target
        if t is not None:
            self._begin_turn(t, p if cfg.after_shooter else t, req, True, ev)
        else:
            d = self._dir
            n = self.players
            active = self._active
            s = self._anchor
            while True:
                s = (s + d) % n
                if active[s]:
                    break
            self._begin_turn(s, s, req, False, ev)

    def _begin_turn(self, actor: int, anchor: int, required: int, shot: bool, ev: list[Event] | None) -> None:
        self._actor = self._cp = actor
        self._anchor = anchor
        self._required = required
        self._shot_turn = shot
        self._played = 0
        self._shot_target = None
        self._double_next = False
        self._turns += 1
        if ev is not None:
            who = seat_name(actor)
            if shot:
                kind = "a double shot turn (2 cards" if required == 2 else "a shot turn (1 card"
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "shot", "required": required},
                                "N5.2", f"{who} plays {kind}); afterwards play continues after "
                                        f"{seat_name(anchor)} (rule N5.2)."))
            elif required == 2:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 2},
                                "N5.4", f"{who} must play 2 cards (DOUBLE, rule N5.4)."))
            else:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 1},
                                "N5.3", f"{who}'s turn: 1 card (rule N5.3)."))

    def _step(self, s: int, d: int) -> int:
        n, active = self.players, self._active
        while True:
            s = (s + d) % n
            if active[s]:
                return s

    def _do_bust(self, p: int, card: int | None, forced: bool, ev: list[Event] | None) -> None:
        """N6: the round ends at once; chips, elimination, match end or the next round."""
        cfg = self._cfg
        # The hand at the moment of the choice (a forced play's card included).
        hand = self._hands[p] if card is None else sorted(self._hands[p] + [card])
        # N8.2: a forced bust shows the hand as proof; a voluntary bust keeps it private.
        self._bust = {"seat": p, "sum": self._sum, "hand": [TOKENS[c] for c in hand] if forced else None,
                      "card": None if card is None else TOKENS[card], "forced": forced, "round": self._round}
        who = seat_name(p)
        if ev is not None:
            if card is None:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} holds {_fmt(hand)} at {self._sum} — every card would exceed {cfg.limit}: "
                                f"{who} is forced and busts (rule N4.4)."))
            elif forced:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} held {_fmt(hand)} at {self._sum - VALUE[card]} — every card would exceed "
                                f"{cfg.limit}: {who} is forced, plays {_SHOW[card]} and busts at {self._sum} "
                                f"(rule N4.4)."))
            else:
                ev.append(Event("bust", dict(self._bust), "N6.1",
                                f"{who} busts at {self._sum} (rule N6.1); the round ends at once, "
                                f"nothing is drawn (rule N6.2)."))
        active = list(self._active)
        if cfg.life_system:
            chips = list(self._chips)
            chips[p] -= 1
            self._chips = tuple(chips)
            if chips[p] <= 0:
                active[p] = False
        else:
            active[p] = False
        out_now = not active[p]
        if out_now:
            self._out = self._out + (p,)
        self._active = tuple(active)
        if ev is not None:
            if cfg.life_system:
                left = self._chips[p]
                text = (f"{who} loses a chip, {left} left (rule N6.4)" if left else
                        f"{who} loses their last chip and is eliminated (rule N6.4)")
                ev.append(Event("chip", {"seat": p, "chips": left, "eliminated": out_now}, "N6.4", text + "."))
            else:
                ev.append(Event("eliminated", {"seat": p}, "N6.3", f"{who} is eliminated (rule N6.3)."))
        alive = [s for s in range(self.players) if active[s]]
        if len(alive) == 1:
            w = alive[0]
            self._cp = None
            self._reason = (f"{who} busted last (round {self._round}, sum {self._sum}); "
                            f"{seat_name(w)} is the last player left (rule N6.5)")
            if ev is not None:
                ev.append(Event("match_end", {"winner": w}, "N6.5",
                                f"Only {seat_name(w)} is left: {seat_name(w)} wins the match (rule N6.5)."))
            return
        self._tgt = _targets(self.players, self._active, cfg.self_target)
        rule = cfg.starter
        if rule == "loser" and active[p]:
            dealer = p
        elif rule == "rotate":
            dealer = self._step(self._dealer, 1)
        else:
            dealer = self._step(p, 1)
        self._new_round(dealer, None, ev)

    def _new_round(self, dealer: int, order: list[int] | None, ev: list[Event] | None) -> None:
        """N2.3: gather, shuffle, deal from the dealer clockwise; the dealer plays first."""
        n = self.players
        if order is None:
            gathered = self._draw + self._stack
            for h in self._hands:
                gathered += h
            self._rng().shuffle(gathered)
            order = gathered
        draw = order[::-1]  # internal: top of the pile is the end of the list
        hands: list[list[int]] = [[] for _ in range(n)]
        seats = [dealer]
        s = dealer
        for _ in range(n - 1):
            s = (s + 1) % n
            if self._active[s]:
                seats.append(s)
        for _ in range(self._cfg.hand_size):
            for s in seats:
                if draw:
                    hands[s].append(draw.pop())
        for h in hands:
            h.sort()
        self._hands, self._draw, self._stack = hands, draw, []
        self._sum = 0
        if self._cfg.reset_direction or self._round == 0:
            self._dir = 1
        self._dealer = dealer
        self._round += 1
        if ev is not None:
            ev.append(Event("round", {"round": self._round, "dealer": dealer}, "N2.3",
                            f"Round {self._round}: all cards are shuffled and {self._cfg.hand_size} dealt to each "
                            f"of {len(seats)} players; sum 0; {seat_name(dealer)} deals and plays first "
                            f"(rules N2.3, {'N2.2' if self._round == 1 else 'N6.6'})."))
        self._begin_turn(dealer, dealer, 1, False, ev)

    # ------------------------------------------------------------- cards, outcome, views
    def all_cards(self) -> Counter:
        """Every card in every zone (hands, draw pile, main stack), by token."""
        c = Counter(self._draw)
        c.update(self._stack)
        for h in self._hands:
            c.update(h)
        return Counter({TOKENS[k]: v for k, v in c.items()})

    def outcome(self) -> Outcome | None:
        """Winner = the last active player. Scores: chips left (life system), else the
        finishing place counted from the bottom (first eliminated 0, ..., winner n-1)."""
        if self._cp is not None:
            return None
        w = self._active.index(True)
        if self._cfg.life_system:
            scores: tuple = tuple(self._chips)
        else:
            place = {s: i for i, s in enumerate(self._out)}
            scores = tuple(place.get(s, self.players - 1) for s in range(self.players))
        return Outcome((w,), scores, self._reason)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (N8); ``None`` is the teacher view with every hand and the draw pile."""
        cfg = self._cfg
        out = self.outcome()
        stack = [TOKENS[c] for c in self._stack]
        v = self._view_head(seat)
        v.update({
            "round": self._round,
            "turn_no": self._turns,
            "sum": self._sum,
            "limit": cfg.limit,
            "direction": self._dir,
            "clockwise": self._dir == 1,
            "dealer": self._dealer,
            "stack_top": stack[-5:],
            "stack_size": len(stack),
            "draw_count": len(self._draw),
            "turn": self.turn,
            "pending": {"shot_target": self._shot_target, "double_next": self._double_next},
            "hands": [[TOKENS[c] for c in h] if seat is None or s == seat else None
                      for s, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "life_system": cfg.life_system,
            "chips": list(self._chips) if cfg.life_system else None,
            "active": list(self._active),
            "eliminated": list(self._out),
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "revealed": None if self._bust is None else dict(self._bust),
            "outcome": None if out is None else out.to_dict(),
        })
        if seat is None:
            v["stack"] = stack
            v["draw_pile"] = self.draw_pile
        return v

    def __str__(self) -> str:
        n = self.players
        way = "cw" if self._dir == 1 else "ccw"
        top = " ".join(TOKENS[c] for c in self._stack[-5:]) or "—"
        lines = [
            f"cirno+neu · {n} players · round {self._round} · sum {self._sum}/{self._cfg.limit} · {way} · "
            f"draw {len(self._draw)} · stack {len(self._stack)} [{top}]",
        ]
        if self._cp is not None:
            kind = "shot turn" if self._shot_turn else "turn"
            pend = []
            if self._shot_target is not None:
                pend.append(f"shot→{seat_name(self._shot_target)}")
            if self._double_next:
                pend.append("double next")
            lines.append(f"{seat_name(self._actor)}'s {kind} (anchor {seat_name(self._anchor)}), "
                         f"card {self._played + 1} of {self._required}" + (f" · {', '.join(pend)}" if pend else ""))
        for s in range(n):
            mark = ">" if s == self._cp else " "
            state = "" if self._active[s] else " (out)"
            chips = f" · chips {self._chips[s]}" if self._cfg.life_system else ""
            dealer = " · dealer" if s == self._dealer else ""
            lines.append(f"{mark} {seat_name(s)} {_fmt(self._hands[s])}{chips}{dealer}{state}")
        if self._cp is None:
            lines.append(f"Finished: {self._reason}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<CirnoNeuState players={self.players} seed={self.seed} moves={self._moves} "
                f"round={self._round} phase={self.phase}>")

    # ------------------------------------------------------------- copy and persistence
    def clone(self) -> "CirnoNeuState":
        new = CirnoNeuState.__new__(CirnoNeuState)
        new.players = self.players
        new.seed = self.seed
        new.options = self.options
        new.deck_order = self.deck_order
        new._rng_count = self._rng_count
        new._history = self._history
        new._moves = self._moves
        new._cfg = self._cfg
        new._hands = [h[:] for h in self._hands]
        new._draw = self._draw[:]
        new._stack = self._stack[:]
        new._sum = self._sum
        new._dir = self._dir
        new._dealer = self._dealer
        new._round = self._round
        new._cp = self._cp
        new._actor = self._actor
        new._anchor = self._anchor
        new._shot_turn = self._shot_turn
        new._required = self._required
        new._played = self._played
        new._shot_target = self._shot_target
        new._double_next = self._double_next
        new._turns = self._turns
        new._active = self._active
        new._chips = self._chips
        new._out = self._out
        new._tgt = self._tgt
        new._last = self._last
        new._bust = self._bust  # never mutated after creation
        new._reason = self._reason
        new.setup_events = self.setup_events
        return new

    def _state_dict(self) -> dict[str, Any]:
        return {
            "hands": [[TOKENS[c] for c in h] for h in self._hands],
            "draw": self.draw_pile,
            "stack": [TOKENS[c] for c in self._stack],
            "sum": self._sum,
            "direction": self._dir,
            "dealer": self._dealer,
            "round": self._round,
            "current": self._cp,
            "turn": self.turn,
            "turns": self._turns,
            "active": list(self._active),
            "chips": list(self._chips),
            "out": list(self._out),
            "last": None if self._last is None else [self._last[0], str(self._last[1])],
            "bust": None if self._bust is None else dict(self._bust),
            "reason": self._reason,
        }

    def _load_state(self, d: dict[str, Any]) -> None:
        self.options = resolve(OPTIONS, self.options, GAME)
        self._cfg = _config(self.options)
        self._hands = [sorted(card_id(c) for c in h) for h in d["hands"]]  # type: ignore[misc]
        self._draw = [card_id(c) for c in reversed(d["draw"])]
        self._stack = [card_id(c) for c in d["stack"]]
        self._sum = d["sum"]
        self._dir = d["direction"]
        self._dealer = d["dealer"]
        self._round = d["round"]
        self._cp = d["current"]
        t = d["turn"]
        self._actor, self._anchor = t["actor"], t["anchor"]
        self._shot_turn = t["kind"] == "shot"
        self._required, self._played = t["required"], t["played"]
        self._shot_target, self._double_next = t["shot_target"], t["double_next"]
        self._turns = d["turns"]
        self._active = tuple(d["active"])
        self._chips = tuple(d["chips"])
        self._out = tuple(d["out"])
        self._tgt = _targets(self.players, self._active, self._cfg.self_target)
        self._last = None if d["last"] is None else (d["last"][0], parse_action(d["last"][1]))
        self._bust = None if d["bust"] is None else dict(d["bust"])
        self._reason = d["reason"]
        self.setup_events = []


_TARGETS: dict[tuple, tuple] = {}


def _targets(n: int, active: Sequence[bool], self_target: bool) -> tuple:
    """Per seat: the SHOT plays and DOUBLE SHOT plays it may make, targets in seat order."""
    key = (n, tuple(active), self_target)
    hit = _TARGETS.get(key)
    if hit is None:
        hit = _TARGETS[key] = _make_targets(n, active, self_target)
    return hit


def _make_targets(n: int, active: Sequence[bool], self_target: bool) -> tuple:
    out = []
    for p in range(n):
        seats = [s for s in range(n) if active[s] and (s != p or self_target)]
        out.append((tuple(_PLAYT[SHOT, s] for s in seats), tuple(_PLAYT[DSHOT, s] for s in seats)))
    return tuple(out)


# --------------------------------------------------------------------------- construction
def _blank(players: int, seed: int | None, options: dict[str, Any], deck_order) -> CirnoNeuState:
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise ValueError(f"players={players!r} is not allowed; allowed values: 2 to 8 (rule N1.1)")
    opts = resolve(OPTIONS, options, GAME)
    if opts["deck_counts"] is not DEFAULT_DECK:
        opts["deck_counts"] = dict(opts["deck_counts"])  # the caller's dict may change later
    cfg = _config(opts)
    fd = opts["first_dealer"]
    if fd != "random" and fd >= players:
        raise ValueError(f"first_dealer={fd!r} is not allowed; allowed values: 0..{players - 1} or 'random'")
    total = sum(cfg.deck)
    if total < cfg.hand_size * players + 1:
        raise ValueError(f"deck_counts has {total} cards; {players} players with hand_size={cfg.hand_size} need "
                         f"at least {cfg.hand_size * players + 1} (rule N1.7)")
    if not any(cfg.deck[: PLUS_MAX + 1]):
        raise ValueError("deck_counts has no plus number card, so no card could ever be unsafe and no round "
                         "could end (rules N3.9, N4.4)")
    st = CirnoNeuState.__new__(CirnoNeuState)
    st._init_base(players, fresh_seed() if seed is None else seed, opts, deck_order)
    st._cfg = cfg
    st._hands = [[] for _ in range(players)]
    st._draw, st._stack = [], []
    st._sum, st._dir, st._round, st._turns = 0, 1, 0, 0
    st._dealer = 0
    st._actor = st._anchor = st._cp = 0
    st._shot_turn, st._required, st._played = False, 1, 0
    st._shot_target, st._double_next = None, False
    st._active = (True,) * players
    st._chips = (cfg.lives if cfg.life_system else 0,) * players
    st._out = ()
    st._tgt = _targets(players, st._active, cfg.self_target)
    st._last = None
    st._bust = None
    st._reason = ""
    st.setup_events = []
    return st


def _deck_list(deck: Sequence[Any], need: Sequence[int]) -> list[int]:
    cards = []
    for i, c in enumerate(deck):
        k = card_id(c)
        if k is None:
            raise ValueError(f"deck[{i}] = {c!r} is not a cirno+neu card; cards: {', '.join(TOKENS)}")
        cards.append(k)
    got = Counter(cards)
    missing = [(k, need[k] - got[k]) for k in range(len(TOKENS)) if need[k] > got[k]]
    extra = [(k, got[k] - need[k]) for k in range(len(TOKENS)) if got[k] > need[k]]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"{m}×{TOKENS[k]}" for k, m in missing))
        if extra:
            parts.append("extra " + ", ".join(f"{m}×{TOKENS[k]}" for k, m in extra))
        raise ValueError("deck is not the game's card multiset (deck_counts): " + "; ".join(parts))
    return cards


def new_game(players: int = 4, seed: int | None = None, deck: Sequence[Any] | None = None,
             **options: Any) -> CirnoNeuState:
    """Set up a cirno+neu match (N2).

    Parameters
    ----------
    players:
        2 to 8 (N1.1).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: the complete card order, index 0 = top, as card tokens
        (``"7"``, ``"⑨"``, ``"pass"``, ``-10`` ...). It must be exactly the
        ``deck_counts`` multiset. It fixes round 1's deal only.
    **options:
        The options of the rules' table (§10), e.g. ``life_system=True``.

    >>> st = new_game(players=4, seed=1)
    >>> [len(st.hand(s)) for s in range(4)], len(st.draw_pile), st.sum, st.current_player
    ([3, 3, 3, 3], 47, 0, 0)
    """
    st = _blank(players, seed, options, None)
    order = None
    if deck is not None:
        order = _deck_list(deck, st._cfg.deck)
        st.deck_order = tuple(TOKENS[c] for c in order)
    fd = st.options["first_dealer"]
    dealer = st._rng().randrange(players) if fd == "random" else fd
    if order is None:
        order = list(st._cfg.cards)
        st._rng().shuffle(order)
    events: list[Event] = []
    st._new_round(dealer, order, events)
    st._settle(events)
    st.setup_events = events
    return st


def setup_position(
    players: int,
    hands: Sequence[Sequence[Any]],
    *,
    sum: int = 0,
    draw: Sequence[Any] | None = None,
    stack: Sequence[Any] = (),
    direction: int = 1,
    actor: int = 0,
    anchor: int | None = None,
    required: int = 1,
    played: int = 0,
    kind: str = "normal",
    shot_target: int | None = None,
    double_next: bool = False,
    dealer: int | None = None,
    active: Sequence[bool] | None = None,
    chips: Sequence[int] | None = None,
    round: int = 1,
    seed: int = 0,
    **options: Any,
) -> CirnoNeuState:
    """A hand-built position for teaching and tests (the §13 fixtures).

    ``hands`` lists each seat's cards (tokens). ``draw`` is the draw pile **top
    first**; ``None`` fills it with the rest of the ``deck_counts`` cards (those not
    in hands or on the stack), shuffled with the seed. ``stack`` is the main stack
    bottom first. The turn fields are those of N4.1/N5.1 (``anchor`` defaults to the
    actor). Automatic steps due at once (a forced bust, N4.4) are carried out, and
    their narration is kept in ``state.setup_events``.

    >>> st = setup_position(4, [["4", "-1"], ["7"], ["1"], ["2"]], sum=95, draw=["5"], required=2)
    >>> [str(a) for a in st.legal_actions()], st.turn["required"]
    (['play 4', 'play -1'], 2)
    """
    st = _blank(players, seed, options, None)
    n = players
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")

    def ids(cards: Iterable[Any], what: str) -> list[int]:
        out = []
        for c in cards:
            k = card_id(c)
            if k is None:
                raise ValueError(f"{what}: {c!r} is not a cirno+neu card; cards: {', '.join(TOKENS)}")
            out.append(k)
        return out

    st._hands = [sorted(ids(h, f"hands[{s}]")) for s, h in enumerate(hands)]
    st._stack = ids(stack, "stack")
    if draw is None:
        rest = Counter({k: st._cfg.deck[k] for k in range(len(TOKENS))})
        rest.subtract(st._stack)
        for h in st._hands:
            rest.subtract(h)
        pile = [k for k in range(len(TOKENS)) for _ in range(max(0, rest[k]))]
        st._rng().shuffle(pile)
        st._draw = pile[::-1]
    else:
        st._draw = ids(draw, "draw")[::-1]
    if direction not in (1, -1):
        raise ValueError(f"direction={direction!r}; allowed values: 1 (clockwise), -1")
    if kind not in ("normal", "shot"):
        raise ValueError(f"kind={kind!r}; allowed values: 'normal', 'shot'")
    if required not in (1, 2) or not 0 <= played < required:
        raise ValueError(f"required={required!r}, played={played!r}: required is 1 or 2 and played < required")
    st._active = tuple(bool(a) for a in active) if active is not None else (True,) * n
    if len(st._active) != n or st._active.count(True) < 2:
        raise ValueError("active: one flag per seat, at least 2 active players")
    for s in (actor, anchor, shot_target, dealer):
        if s is not None and not (0 <= s < n and st._active[s]):
            raise ValueError(f"seat {s!r} is not an active seat")
    if chips is not None:
        st._chips = tuple(chips)
        if len(st._chips) != n:
            raise ValueError("chips: one count per seat")
    elif not st._cfg.life_system:
        st._chips = (0,) * n
    st._out = tuple(s for s in range(n) if not st._active[s])
    if not any(st._hands[s] for s in range(n) if st._active[s]):
        raise ValueError("at least one active player must hold a card")
    st._tgt = _targets(n, st._active, st._cfg.self_target)
    st._sum, st._dir, st._round = sum, direction, round
    st._dealer = actor if dealer is None else dealer
    st._begin_turn(actor, actor if anchor is None else anchor, required, kind == "shot", None)
    st._played, st._shot_target, st._double_next = played, shot_target, double_next
    events: list[Event] = []
    st._settle(events)
    st.setup_events = events
    return st


#: The deck order of the module docstring's example (3 players, default deck).
DEMO_DECK = ["5", "6", "7", "10", "SHOT", "8", "SHOT", "99", "1"]
DEMO_DECK += list((Counter(DEFAULT_DECK) - Counter(DEMO_DECK)).elements())

__all__ = [
    "ANY", "CirnoNeuState", "Config", "DEFAULT_DECK", "IllegalActionError", "InvalidActionError",
    "OPTIONS", "Play", "TOKENS", "card_id", "card_token", "new_game", "parse_action", "setup_position",
]
