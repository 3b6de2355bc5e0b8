"""cirno+neu: a running-total game — keep the sum at or under 99, or bust.

Rule IDs ``N1``–``N8`` (resolutions ``NA-*``) are cited in every refusal and
narration line; ``cardwidgets.rules.lookup("N4.3")`` explains each. Players take
turns playing one card onto the main stack and drawing one; a player whose every
card would take the sum above 99 is *forced* and busts. Order cards change who
plays next: PASS, TURN, SHOT (an extra turn for a chosen player), DOUBLE (the next
turn plays 2 cards) and DOUBLE SHOT (both).

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
>>> print(st.explain("play 5, 1"))
Illegal: rule N4.1 — two cards at once need a double turn; A has a normal turn with 1 card to play
>>> print(st.explain("play 50"))
Illegal: rule N4.2 — you hold no 50 (your hand: [1, 5, SHOT])
>>> parse_action("PLAY ⑨"), str(parse_action("dshot @2"))
(Play(card='9', target=None), 'play dshot @2')
"""

from __future__ import annotations

import json
import random
from bisect import bisect_right, insort
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ...core import (ANY, Event, Field, GameSpec, IllegalActionError, InvalidActionError, Mode, Option, Outcome,
                    Phase, State, Termination, number, plural)
from ...core.deck import check_deck, counts_to_cards, read_cards
from ...core.errors import SamplingLimitError, quote, show
from ...core.position import PositionError, Value, cards_text, deal_unknown, load_position, seat_text
from ...core.spec import int_range, int_table_problem, seat_or_random

PLAYERS = tuple(range(2, 9))  # N1.1
#: The engine's bound on the actions (card plays) of one match, counted in its history
#: (the rules set none): a match that reaches it ends as aborted (rule G4), so no deck,
#: option or strategy keeps a kernel busy. ``SPEC.max_actions`` declares it.
ACTION_BOUND = 20_000

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
        if not -1000 < token < 1000:  # no card; and str() of a huge int is slow or refused
            return None
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


# --------------------------------------------------------------------------- options
def _deck_check(value: Any) -> str | None:
    if value is DEFAULT_DECK:
        return None
    if not isinstance(value, dict) or not value:
        return "expected a dict {card token: count}, e.g. {'1': 3, ..., 'DSHOT': 1}"
    return int_table_problem(value, _token_or_none, 0, 100,
                             not_key="{raw} is not a card token; allowed keys: " + ", ".join(TOKENS),
                             twice="card {key} is given twice",
                             bad="count {value} for {raw} must be an int from 0 to 100")


def _token_or_none(token: Any) -> str | None:
    """The canonical token of a card, or ``None`` if ``token`` names none."""
    c = card_id(token)
    return None if c is None else TOKENS[c]


def _set_value(value: Any) -> str | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and -10_000 <= value <= 10_000):
        return None
    return "allowed values: an int from -limit to limit, or None for the limit itself"


SPEC = GameSpec(
    name="cirno_neu",
    title="cirno+neu",
    version=1,
    summary="a 99-sum elimination game with special cards and a life system, 2–8 players",
    modes=(Mode("standard", PLAYERS, rule="N1.1"),),
    options=(
        Option("deck_counts", DEFAULT_DECK, check=_deck_check, doc="cards per token", rule="NA-1",
               label="Cards of each kind",
               help="How many of each card the deck holds.",
               values=((DEFAULT_DECK, "The 59-card deck"),),
               accepts="a table of card → number of cards (set from code)",
               group="The cards and the deal"),
        Option("limit", 99, check=int_range(1, 10_000), doc="highest safe sum L", rule="N1.5",
               label="Highest safe sum",
               help="The sum may not go above this number: going over it busts.",
               accepts="a whole number from 1 to 10000",
               group="How play goes"),
        Option("set_value", None, check=_set_value, doc="what the 99 card sets; None = limit", rule="N3.3",
               label="What the 99 card sets the sum to",
               help="The sum a 99 card sets, whatever it was before.",
               values=((None, "The highest safe sum"),),
               accepts="a whole number from -10000 to 10000, or empty for the highest safe sum",
               group="How play goes"),
        Option("hand_size", 3, check=int_range(1, 20), doc="cards dealt to each player", rule="N2.3",
               label="Cards in each hand",
               help="Cards dealt to each player at the start of a round.",
               accepts="a whole number from 1 to 20",
               group="The cards and the deal"),
        Option("life_system", False, (False, True), doc="True: busting costs a chip", rule="N2.1",
               label="Life system",
               help="Whether a bust eliminates a player or costs them a chip.",
               values=((False, "Off: a bust eliminates"), (True, "On: a bust costs a chip"),),
               group="Scoring and winning"),
        Option("lives", 2, check=int_range(1, 20), doc="chips per player in the life system", rule="N1.4",
               label="Chips per player",
               help="In the life system, the chips each player starts with.",
               accepts="a whole number from 1 to 20",
               group="Scoring and winning"),
        Option("first_dealer", 0, check=seat_or_random(7), doc="seat that deals round 1, or 'random'",
               rule="N2.2",
               label="Who deals the first round",
               help="The seat that deals round 1 and plays first.",
               values=(("random", "A random seat"),),
               group="Who starts"),
        Option("allow_voluntary_bust", False, (False, True), doc="unsafe cards may be played", rule="NA-5",
               label="Busting on purpose",
               help="Whether a player may play a card that takes the sum over the limit.",
               values=((False, "Not allowed: only when forced"), (True, "Allowed"),),
               group="How play goes"),
        Option("auto_forced_bust", True, (True, False), doc="the engine settles forced busts", rule="NA-6",
               label="Forced busts",
               help="When no card is safe: the bust happens by itself, or the player picks a card.",
               values=((True, "By itself, the hand shown"), (False, "The player picks a card"),),
               group="How play goes"),
        Option("floor_at_zero", False, (False, True), doc="the sum never goes below 0", rule="NA-7",
               label="Sums below zero",
               help="Whether the sum may go below 0.",
               values=((False, "Allowed"), (True, "Not allowed: the sum stops at 0"),),
               group="How play goes"),
        Option("shot_resume", "after_shooter", ("after_shooter", "after_target"), rule="NA-11",
               label="Where play goes after a SHOT",
               help="After the target's turn, who plays next.",
               values=(("after_shooter", "The player after the shooter"),
                       ("after_target", "The player after the target")),
               group="How play goes"),
        Option("shot_self_target", False, (False, True), doc="SHOT may target its player", rule="NA-12",
               label="Shooting yourself",
               help="Whether a SHOT may name its own player.",
               values=((False, "Not allowed"), (True, "Allowed"),),
               group="How play goes"),
        Option("pass_ends_double_turn", False, (False, True), rule="NA-9",
               label="PASS in a double turn",
               help="Whether PASS ends a double turn or counts as one of its two cards.",
               values=((False, "Counts as one of the two cards"), (True, "Ends the turn"),),
               group="How play goes"),
        Option("double_draw_timing", "after_both", ("after_both", "after_each"), rule="NA-20",
               label="When a double turn draws",
               help="Whether a double turn draws after both of its cards, or after each.",
               values=(("after_both", "Draw 2 after both cards"), ("after_each", "Draw 1 after each card"),),
               group="How play goes"),
        Option("next_round_starter", "loser", ("loser", "after_loser", "rotate"), rule="NA-24",
               label="Who starts the next round",
               help="Who deals and plays first after a bust.",
               values=(("loser", "The player who busted"),
                       ("after_loser", "The player after the one who busted"),
                       ("rotate", "The next dealer clockwise")),
               group="Who starts"),
        Option("reset_direction_each_round", True, (True, False), rule="NA-25",
               label="Direction each round",
               help="Whether every round starts clockwise again.",
               values=((True, "Clockwise again each round"), (False, "Keeps the last round's direction"),),
               group="How play goes"),
    ),
    phases=(Phase("play", ("play",), "the actor plays a card"), Phase("finished", ())),
    table="CirnoNeu",
    max_actions=lambda players, options: ACTION_BOUND,
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
    if not -limit <= sv <= limit:
        raise ValueError(f"set_value={sv!r} is not allowed; allowed values: an int from -limit to limit "
                         f"({-limit} to {limit}) (rule N3.3)")
    return Config(
        tuple(counts), tuple(k for k in range(len(TOKENS)) for _ in range(counts[k])),
        limit, sv, opts["hand_size"], opts["life_system"], opts["lives"],
        opts["allow_voluntary_bust"], opts["auto_forced_bust"], opts["floor_at_zero"],
        opts["shot_resume"] == "after_shooter", opts["shot_self_target"], opts["pass_ends_double_turn"],
        opts["double_draw_timing"] == "after_each", opts["next_round_starter"],
        opts["reset_direction_each_round"],
    )


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (a token such as ``"7"``, ``"9"``, ``"-10"``, ``"PASS"``, ``"DSHOT"``);
    ``target`` is a seat number, for SHOT and DOUBLE SHOT only (N4.2).

    >>> Play("⑨"), Play("shot", 2), str(Play("dshot", 1))
    (Play(card='9', target=None), Play(card='SHOT', target=2), 'play dshot @1')
    """

    kind = "play"
    card: str
    target: int | None = None
    cid: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        c = card_id(self.card)
        if c is None:
            raise InvalidActionError(f"{show(self.card, 20)} is not a cirno+neu card; "
                                     f"cards: {', '.join(TOKENS)}")
        t = self.target
        if t is not None:
            if isinstance(t, str) and len(t.strip()) == 1 and t.strip().upper() in "ABCDEFGH":
                t = "ABCDEFGH".index(t.strip().upper())
            if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < 8:
                raise InvalidActionError(f"target {show(self.target, 20)} is not a seat number 0-7 "
                                         f"(or a seat letter A-H)")
        object.__setattr__(self, "card", TOKENS[c])
        object.__setattr__(self, "target", t)
        object.__setattr__(self, "cid", c)

    def __str__(self) -> str:
        s = "play " + _ACTION_TOKEN[self.cid]
        return s if self.target is None else f"{s} @{self.target}"


# Interned actions: legal lists hand out the same objects every time.
_PLAY1 = tuple(Play(t) for t in TOKENS)  # no target
_PLAYT = {(c, s): Play(TOKENS[c], s) for c in (SHOT, DSHOT) for s in range(8)}


#: Per card: the room under the limit it needs (plus cards), and its play (None: it takes a target).
_NEED = tuple(VALUE[c] if c <= PLUS_MAX else -10**9 for c in range(len(TOKENS)))
_NO_LIMIT = 10**12
_PLAY1_SIMPLE = tuple(None if c in (SHOT, DSHOT) else _PLAY1[c] for c in range(len(TOKENS)))


def _intern(c: int, t: int | None) -> Play:
    if t is None:
        return _PLAY1[c]
    p = _PLAYT.get((c, t))
    return p if p is not None else Play(TOKENS[c], t)


_EXAMPLE = "expected 'play <card> [@<seat>]', e.g. 'play 7' or 'play shot @2'"


def parse_action(text: str) -> Play:
    """Parse one card play: ``play 7``, ``play ⑨``, ``play shot @2``, ``turn``, ``shot @C``.

    Targets are seat numbers; the seat letters ``A``–``H`` are accepted too. Two
    cards of a double turn (``play 4, -1``) are read by the state (``apply``,
    ``explain``), which checks them together. Linear in the length of the text.

    >>> parse_action("play -10"), str(parse_action("DOUBLE-SHOT @c"))
    (Play(card='-10', target=None), 'play dshot @2')
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{show(text)} is not action text")
    if "," in text:
        raise InvalidActionError(
            f"{quote(text)}: parse_action reads one card play; give the two cards of a double turn "
            f"to apply() ('play 4, -1') or one at a time")
    body = text.strip()
    if body[:4].lower() == "play" and (len(body) == 4 or body[4].isspace()):
        body = body[4:].lstrip()
    tok, at, tgt = body.partition("@")
    tok, tgt = tok.strip(), tgt.strip()
    if not tok or any(ch.isspace() for ch in tok) or (at and (not tgt or "@" in tgt
                                                              or any(ch.isspace() for ch in tgt))):
        raise InvalidActionError(f"{quote(text)}: {_EXAMPLE}")
    c = card_id(tok)
    if c is None:
        raise InvalidActionError(
            f"{quote(text)}: {quote(tok, 16)} is not a card; cards: 1-8, 9 (⑨), 10, 50, -1, -10, 99, "
            f"pass, turn, shot, double, dshot")
    t = None
    if at:
        if tgt.isascii() and tgt.isdigit() and len(tgt) == 1:
            t = int(tgt)
        elif len(tgt) == 1 and tgt.upper() in "ABCDEFGH":
            t = "ABCDEFGH".index(tgt.upper())
        else:
            raise InvalidActionError(f"{quote(text)}: target {quote(tgt, 12)} is not a seat number 0-7 or a "
                                     f"seat letter A-H")
        if t > 7:
            raise InvalidActionError(f"{quote(text)}: target {t} is not a seat number 0-7")
    return _intern(c, t)


# --------------------------------------------------------------------------- state
def _ids(cards: Any, what: str) -> list[int]:
    return read_cards(cards, card_id, what, ", ".join(TOKENS))


def _tokens(ids: Iterable[int]) -> list[str]:
    return [TOKENS[c] for c in ids]


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list, got {show(value, 30)}")
    return value


def _dec_flags(value: Any) -> tuple[bool, ...]:
    flags = tuple(_list(value, "active"))
    if not all(type(a) is bool for a in flags):
        raise ValueError("active: expected a list of true/false flags")
    return flags


def _dec_last(x: Any) -> tuple[int, Play] | None:
    if x is None:
        return None
    if not isinstance(x, list) or len(x) != 2 or not isinstance(x[1], str):
        raise ValueError(f"last: expected [seat, action] or null, got {show(x, 40)}")
    return (x[0], parse_action(x[1]))


_BUST_KEYS = {"seat", "sum", "hand", "card", "forced", "round"}


def _dec_bust(b: Any) -> dict[str, Any] | None:
    if b is None:
        return None
    if not isinstance(b, dict) or set(b) != _BUST_KEYS:
        raise ValueError(f"bust: expected null or an object with {', '.join(sorted(_BUST_KEYS))}")
    out = dict(b)
    if out["hand"] is not None:
        out["hand"] = _tokens(sorted(_ids(out["hand"], "bust hand")))
    if out["card"] is not None:
        c = card_id(out["card"]) if isinstance(out["card"], str) else None
        if c is None:
            raise ValueError(f"bust card: {show(out['card'], 20)} is not a card")
        out["card"] = TOKENS[c]
    return out


def _enc_counts(counts: Sequence[int] | None) -> dict[str, int] | None:
    return None if counts is None else {TOKENS[k]: n for k, n in enumerate(counts) if n}


def _dec_counts(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    problem = _deck_check(value) if isinstance(value, dict) else "expected an object {card: count} or null"
    if problem:
        raise ValueError(f"built: {problem}")
    counts = [0] * len(TOKENS)
    for k, n in value.items():
        counts[card_id(k)] = n
    return tuple(counts)


class CirnoNeuState(State):
    """A cirno+neu match in progress. Build it with :func:`new_game` or :func:`setup_position`."""

    SPEC = SPEC
    action_types = (Play,)
    _parse = staticmethod(parse_action)

    # _hands: one sorted list of card ids per seat; _draw: top card LAST; _stack: top card
    # last. _cp: seat to act, None when the match is over. _active/_chips/_out are tuples
    # replaced (never mutated) on change, so clones share them. _tgt: the _Table of the
    # players still in (targets, turn order, deal order). _bust: the last bust (public:
    # N8.2). _know: the round's public record, cached for sampling (not a field). _built:
    # None for a match dealt by the rules; for one that starts from a hand-built position,
    # the count per card id of the cards it plays with (hand sizes are then free).
    __slots__ = (
        "_cfg", "_hands", "_draw", "_stack", "_sum", "_dir", "_dealer", "_round", "_cp",
        "_actor", "_anchor", "_shot_turn", "_required", "_played", "_shot_target", "_double_next",
        "_turns", "_active", "_chips", "_out", "_tgt", "_last", "_bust", "_reason", "_termination",
        "_built", "_know",
    )
    FIELDS = (
        Field("_cfg", save=False),
        Field("_hands", "lists", lambda hs: [_tokens(h) for h in hs],
              lambda hs: [sorted(_ids(h, "hands")) for h in _list(hs, "hands")]),
        Field("_draw", "list", lambda d: _tokens(reversed(d)), lambda d: _ids(d, "draw")[::-1]),
        Field("_stack", "list", _tokens, lambda s: _ids(s, "stack")),
        Field("_sum"), Field("_dir"), Field("_dealer"), Field("_round"), Field("_cp"), Field("_actor"),
        Field("_anchor"), Field("_shot_turn"), Field("_required"), Field("_played"), Field("_shot_target"),
        Field("_double_next"), Field("_turns"),
        Field("_active", encode=list, decode=_dec_flags),
        Field("_chips", encode=list, decode=lambda a: tuple(_list(a, "chips"))),
        Field("_out", encode=list, decode=lambda a: tuple(_list(a, "out"))),
        Field("_tgt", save=False),
        Field("_last", encode=lambda x: None if x is None else [x[0], str(x[1])], decode=_dec_last),
        Field("_bust", encode=lambda b: None if b is None else dict(b), decode=_dec_bust),
        Field("_reason", save=False),
        Field("_termination", encode=lambda t: t.value, decode=Termination),
        Field("_built", encode=_enc_counts, decode=_dec_counts),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return self._cp

    @property
    def is_terminal(self) -> bool:
        return self._cp is None

    @property
    def phase(self) -> str:
        """``"play"`` while the match runs, ``"finished"`` when it is over."""
        return "play" if self._cp is not None else "finished"

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
        """The turn record (N4.1, N5.1)."""
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
        return _tokens(self._stack)

    @property
    def draw_pile(self) -> list[str]:
        """The draw pile, top first (teacher access)."""
        return _tokens(reversed(self._draw))

    @property
    def config(self) -> Config:
        return self._cfg

    def hand(self, seat: int) -> list[str]:
        """A seat's hand in table order (teacher access; players use :meth:`view`)."""
        return _tokens(self._hands[seat])

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Play]:
        """Legal actions of the player to act: the hand's cards in N1.3 table order, SHOT and
        DOUBLE SHOT once per legal target in seat order (a fresh list every call)."""
        if self._cp is None:
            return []
        p = self._actor
        hand = self._hands[p]
        cfg = self._cfg
        room = _NO_LIMIT if cfg.voluntary else cfg.limit - self._sum
        out: list[Play] = []
        prev = -1
        for c in hand:  # sorted: equal cards are neighbours
            if c != prev and _NEED[c] <= room:  # safe, or busting allowed (N4.3)
                a = _PLAY1_SIMPLE[c]
                if a is None:  # SHOT / DOUBLE SHOT: one play per target (N3.6)
                    out += (self._tgt.shots if c == SHOT else self._tgt.dshots)[p]
                else:
                    out.append(a)
            prev = c
        if not out:
            # Forced with auto_forced_bust=False: every card is legal and busts (N4.4).
            out = [_PLAY1[c] for c in sorted(set(hand))]
        return out

    _legal = legal_actions  # the base's hook; the match is running whenever it is asked

    def ui_candidates(self, seat: int | None) -> list[str]:
        """Each card in the seat's hand (SHOT cards with their first target): the table says why
        one cannot be played."""
        if self._cp is None or seat != self._actor:
            return []
        out = []
        for c in sorted(set(self._hands[seat])):
            if c == SHOT or c == DSHOT:
                targets = (self._tgt.shots if c == SHOT else self._tgt.dshots)[seat]
                out += [str(a) for a in targets[:1]]
            else:
                out.append(str(_PLAY1[c]))
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
            return "N4.2", f"only SHOT and DOUBLE SHOT take a target ({_SHOW[c]} does not)"
        if t is not None:
            if t == p and not cfg.self_target:
                return "N3.6", "you cannot target yourself"
            if t >= self.players:
                return "N6.7", f"there is no seat {t} (seats are 0-{self.players - 1})"
            if not self._active[t]:
                return "N6.7", f"{self.seat_label(t)} is out of the match"
        if c <= PLUS_MAX and self._sum + VALUE[c] > cfg.limit and not cfg.voluntary:
            safe = self._safe_cards(hand)
            if safe:
                return "N4.3", (f"{_SHOW[c]} would make the sum {self._sum + VALUE[c]} (over {cfg.limit}) while "
                                f"you hold a safe card ({', '.join(_SHOW[s] for s in safe)})")
        return None

    # ------------------------------------------------------------- two cards at once (N4.1)
    def _expand(self, text: str) -> list[Play] | None:
        if "," not in text:
            return None
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise InvalidActionError(f"{quote(text)}: two cards at once are 'play <card> [@t], <card> [@t]'")
        return [parse_action(parts[0]), parse_action(parts[1])]

    def _sequence_break(self, done: Any, trial: State | None, actor: int,
                        hidden: str | None) -> tuple[str, str] | None:
        # Reasons from what the actor knows only (their hand, the sum, the options), so
        # the answer never depends on a card about to be drawn.
        cfg = self._cfg
        if self._required != 2 or self._played != 0:
            who = self.seat_label(self._actor)
            why = (f"{who} has already played 1 of the 2 cards of this double turn" if self._required == 2
                   else f"{who} has a normal turn with 1 card to play")
            return "N4.1", "two cards at once need a double turn; " + why
        c = done.cid
        if c <= PLUS_MAX and self._sum + VALUE[c] > cfg.limit:
            rule = "N4.4" if not self._safe_cards(self._hands[actor]) else "N6.1"
            return rule, f"{done} busts, which ends the round before the second card (rule N6.2)"
        if c == PASS and cfg.pass_ends:
            return "N4.6", "PASS ends the double turn (pass_ends_double_turn), so no second card is played"
        if cfg.after_each:  # before the hand's size: the draw between the cards may refill it
            return "N4.6", ("with double_draw_timing='after_each' the draw comes between the two cards: "
                            "play them one at a time")
        if len(self._hands[actor]) == 1:
            return "N4.5", f"after {done} the hand is empty, so the turn ends before the second card"
        if trial is None or trial.current_player != actor:
            return "N4.4", f"after {done} no card in hand is safe: the player is forced and the round ends"
        return None

    # ------------------------------------------------------------- the simulation fast path
    def apply_unchecked(self, action: Play) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``, unnarrated.

        A one-card turn that busts nobody and finds a card to draw (most turns) is done
        here in a few steps; everything else (double turns, busts, reshuffles) goes
        through ``_apply``, the path narrated play takes. The tests play every option
        both ways and compare the states."""
        c = action.cid
        draw = self._draw
        if self._required == 1 and draw:
            cfg = self._cfg
            total = self._sum
            if c <= PLUS_MAX:
                total += VALUE[c]
                if total > cfg.limit:  # a bust (N6.1, N4.4)
                    self._apply(action, None)
                    self._history = (self._history, action)
                    self._moves += 1
                    return
            elif c == MINUS_1 or c == MINUS_10:
                total -= VALUE[c]
                if total < 0 and cfg.floor:
                    total = 0
            elif c == SET99:
                total = cfg.set_value
            elif c == TURN:
                self._dir = -self._dir
            p = self._actor
            hand = self._hands[p]
            hand.remove(c)
            self._stack.append(c)
            self._sum = total
            self._last = (p, action)
            insort(hand, draw.pop())  # N4.7
            # N5: the next turn (this one recorded nothing before its only card).
            if c < SHOT or c == DOUBLE:
                nxt = self._tgt.next[self._dir][self._anchor]
                self._actor = self._cp = self._anchor = nxt
                if self._shot_turn:
                    self._shot_turn = False
                if c == DOUBLE:
                    self._required = 2
            else:  # SHOT or DOUBLE SHOT: its target plays now (N5.2)
                nxt = action.target
                self._actor = self._cp = nxt
                self._anchor = p if cfg.after_shooter else nxt
                self._shot_turn = True
                if c == DSHOT:
                    self._required = 2
            self._turns += 1
            hand = self._hands[nxt]
            if not hand or (cfg.auto_bust and hand[-1] <= PLUS_MAX and VALUE[hand[0]] > cfg.limit - total):
                self._settle(None)  # an empty hand (N4.5) or a forced bust (N4.4)
            if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
                self._abort(None)
        else:
            self._apply(action, None)
        self._history = (self._history, action)
        self._moves += 1

    # ------------------------------------------------------------- the one transition path
    def _apply(self, action: Play, ev: list[Event] | None) -> None:
        c = action.cid
        p = self._actor
        cfg = self._cfg
        hand = self._hands[p]
        hand.remove(c)
        self._stack.append(c)
        self._last = (p, action)
        before = self._sum
        if c <= PLUS_MAX:
            s = before + VALUE[c]
            self._sum = s
            if s > cfg.limit:
                if ev is not None:
                    ev.append(Event("play", {"seat": p, "card": TOKENS[c], "target": None, "sum_before": before,
                                             "sum": s}, "N3.1",
                                    f"{self.seat_label(p)} plays {_SHOW[c]}: sum {number(before)} → {s} "
                                    f"(over {cfg.limit}) (rule N3.1)."))
                room = cfg.limit - before
                forced = all(k <= PLUS_MAX and VALUE[k] > room for k in hand) and VALUE[c] > room
                self._do_bust(p, c, forced, ev)
                self._settle(ev)
                if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
                    self._abort(ev)
                return
        elif c == MINUS_1 or c == MINUS_10:
            s = before - VALUE[c]
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
        if ev is not None:
            self._narrate_play(p, c, action.target, before, ev)
        each = req == 2 and cfg.after_each
        if each:
            self._draw_cards(p, 1, ev, "N4.6")
        if played >= req or (c == PASS and cfg.pass_ends):
            if ev is not None and played < req:
                ev.append(Event("pass_ends", {"seat": p}, "N4.6",
                                f"PASS ends {self.seat_label(p)}'s double turn (pass_ends_double_turn, rule N4.6)."))
            # N4.7 draws (unless drawn after each card), then N5: who plays next.
            if not each:
                draw = self._draw
                if ev is None and not self._previewing and len(draw) >= played:
                    insort(hand, draw.pop())  # the common case, inlined for simulations
                    if played == 2:
                        insort(hand, draw.pop())
                else:
                    self._draw_cards(p, played, ev)
            self._next_turn(p, ev)
        self._settle(ev)
        if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
            self._abort(ev)  # this action is the match's ACTION_BOUND-th (rule G4)

    def _next_turn(self, p: int, ev: list[Event] | None) -> None:
        """N5: the next actor, anchor and number of cards."""
        t = self._shot_target
        req = 2 if self._double_next else 1
        if t is not None:
            self._begin_turn(t, p if self._cfg.after_shooter else t, req, True, ev)
        else:
            s = self._tgt.next[self._dir][self._anchor]
            self._begin_turn(s, s, req, False, ev)
        if self._previewing:  # what comes next depends on the new actor's hidden hand
            self._hidden(ev, f"{self.seat_label(self._actor)}'s turn begins")

    def _narrate_play(self, p: int, c: int, t: int | None, before: int, ev: list[Event]) -> None:
        who = self.seat_label(p)
        rule = _CARD_RULE[c]
        double = self._required == 2
        if c <= SET99:
            floor = " (floored at 0)" if c in (MINUS_1, MINUS_10) and before - VALUE[c] != self._sum else ""
            text = f"{who} plays {_SHOW[c]}: sum {number(before)} → {number(self._sum)}{floor} (rule {rule})."
        elif c == PASS:
            text = f"{who} plays PASS: the sum stays {number(self._sum)} (rule N3.4)."
        elif c == TURN:
            way = "clockwise" if self._dir == 1 else "counter-clockwise"
            text = f"{who} plays TURN: play now goes {way} (rule N3.5)."
        elif c == DOUBLE:
            text = f"{who} plays DOUBLE: the next turn plays 2 cards (rule N3.7)."
        else:
            tn = self.seat_label(t)  # type: ignore[arg-type]
            resume = who if self._cfg.after_shooter else tn
            two = " 2 cards" if self._double_next else ""  # this DOUBLE SHOT's, or a DOUBLE's earlier this turn
            if double and self._played == 1:
                # Only the last SHOT of a double turn decides who plays next (N4.6, N5.1).
                text = (f"{who} plays {_SHOW[c]} on {tn} (rule {rule}): if no other SHOT follows in this double "
                        f"turn, {tn} plays{two} next (rules N4.6, N5.1).")
            else:
                text = (f"{who} plays {_SHOW[c]} on {tn} (rule {rule}): {tn} plays{two} now; "
                        f"afterwards play resumes after {resume} (rule N5.2).")
        if double:
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
                    # Unreachable: with 2 cards or more and none held by eliminated players
                    # (both checked on loading) someone always holds a card.
                    raise RuntimeError("no active player holds a card: the match cannot go on (N7.2)")
                if ev is not None:
                    ev.append(Event("empty_hand", {"seat": p}, "N4.5",
                                    f"{self.seat_label(p)} has no cards: the rest of the turn is skipped "
                                    f"(rule N4.5)."))
                if not (self._required == 2 and cfg.after_each):  # else drawn after each card (N4.6)
                    self._draw_cards(p, self._played, ev)
                self._next_turn(p, ev)
                continue
            if cfg.auto_bust:
                c0 = hand[0]
                if c0 <= PLUS_MAX and VALUE[c0] > cfg.limit - self._sum and hand[-1] <= PLUS_MAX:
                    self._do_bust(p, None, True, ev)
                    continue
            return

    def _draw_cards(self, p: int, k: int, ev: list[Event] | None, rule: str = "N4.7") -> None:
        if not k:
            return
        if self._previewing:  # the draw pile is hidden: a preview stops here
            self._hidden(ev, f"{self.seat_label(p)} draws {plural(k, 'card')} (rule {rule})")
        hand, draw = self._hands[p], self._draw
        got = 0
        for _ in range(k):
            if not draw:
                if len(self._stack) < 2:
                    if ev is not None:
                        ev.append(Event("draw_short", {"seat": p, "missing": k - got}, "N7.2",
                                        f"Nothing is left to draw: {self.seat_label(p)} goes on with "
                                        f"{plural(len(hand), 'card')} (rule N7.2)."))
                    break
                rest = self._stack[:-1]
                self._stack = self._stack[-1:]
                self._shuffle(rest)
                self._draw = draw = rest
                if ev is not None:
                    ev.append(Event("reshuffle", {"cards": len(rest)}, "N7.1",
                                    f"The draw pile is empty: the main stack except its top card "
                                    f"({plural(len(rest), 'card')}) is shuffled into a new draw pile; the sum stays "
                                    f"{self._sum} (rule N7.1)."))
            insort(hand, draw.pop())
            got += 1
        if ev is not None and got:
            ev.append(Event("draw", {"seat": p, "count": got}, rule,
                            f"{self.seat_label(p)} draws {plural(got, 'card')} (rule {rule})."))

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
            who = self.seat_label(actor)
            if shot:
                kind = "a double shot turn (2 cards" if required == 2 else "a shot turn (1 card"
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "shot", "required": required},
                                "N5.2", f"{who} plays {kind}); afterwards play continues after "
                                        f"{self.seat_label(anchor)} (rule N5.2)."))
            elif required == 2:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 2},
                                "N3.7", f"{who} must play 2 cards (DOUBLE, rule N3.7)."))
            elif not self._stack:  # no card played yet this round: the dealer opens it
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 1},
                                "N5.5", f"{who}'s turn: 1 card, the first of the round (rule N5.5)."))
            else:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 1},
                                "N5.3", f"{who}'s turn: 1 card (rule N5.3)."))

    def _abort(self, ev: list[Event] | None) -> None:
        """End the match with no winner: it reached the engine's safety cap (G4)."""
        self._cp = None
        self._termination = Termination.ABORTED
        self._reason = self._end_reason()
        if ev is not None:
            ev.append(Event("abort", {"actions": ACTION_BOUND}, "G4", f"The match is {self._reason}."))

    def _end_reason(self) -> str:
        """``outcome().reason``, from the fields (so loading needs no saved text)."""
        if self._cp is not None:
            return ""
        if self._termination is Termination.ABORTED:
            return f"stopped by the engine's safety cap of {ACTION_BOUND:,} actions (rule G4)"
        b = self._bust
        w = self._active.index(True)
        return (f"{self.seat_label(b['seat'])} busted last (round {b['round']}, sum {b['sum']}); "
                f"{self.seat_label(w)} is the last player left (rule N6.5)")

    def _step(self, s: int, d: int) -> int:
        return self._tgt.next[d][s]

    def _do_bust(self, p: int, card: int | None, forced: bool, ev: list[Event] | None) -> None:
        """N6: the round ends at once; chips, elimination, match end or the next round."""
        cfg = self._cfg
        # The hand at the moment of the choice (a forced play's card included).
        hand = self._hands[p] if card is None else sorted(self._hands[p] + [card])
        # N8.2: a forced bust shows the hand as proof; a voluntary bust keeps it private.
        self._bust = {"seat": p, "sum": self._sum, "hand": _tokens(hand) if forced else None,
                      "card": None if card is None else TOKENS[card], "forced": forced, "round": self._round}
        if ev is not None:
            who = self.seat_label(p)
            if card is None:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} holds {_fmt(hand)} at {self._sum} — every card would take the sum over "
                                f"{cfg.limit}: {who} is forced and busts (rule N4.4)."))
            elif forced:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} held {_fmt(hand)} at {self._sum - VALUE[card]} — every card would take "
                                f"the sum over {cfg.limit}: {who} is forced, plays {_SHOW[card]} and busts at "
                                f"{self._sum} (rule N4.4)."))
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
            who = self.seat_label(p)
            if cfg.life_system:
                left = self._chips[p]
                text = (f"{who} loses a chip, {left} left (rule N6.4)" if left else
                        f"{who} loses their last chip and is out of the match (rule N6.4)")
                ev.append(Event("chip", {"seat": p, "chips": left, "eliminated": out_now}, "N6.4", text + "."))
            else:
                ev.append(Event("eliminated", {"seat": p}, "N6.3", f"{who} is out of the match (rule N6.3)."))
        if active.count(True) == 1:
            w = active.index(True)
            self._cp = None
            self._reason = self._end_reason()
            if ev is not None:
                ev.append(Event("match_end", {"winner": w}, "N6.5",
                                f"Only {self.seat_label(w)} is left: {self.seat_label(w)} wins the match "
                                f"(rule N6.5)."))
            return
        self._tgt = _targets(self.players, self._active, cfg)
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
            self._hidden(ev, f"the cards are shuffled and dealt for round {self._round + 1} (rule N6.6)")
            gathered = self._draw + self._stack
            for h in self._hands:
                gathered += h
            self._shuffle(gathered)
            order = gathered
        hands: list[list[int]] = [[] for _ in range(n)]
        seats = self._tgt.deal[dealer]
        m = len(seats)
        dealt = m * self._cfg.hand_size
        if len(order) >= dealt:  # one card at a time, clockwise: seat i gets cards i, i+m, i+2m ...
            for i, s in enumerate(seats):
                hands[s] = sorted(order[i:dealt:m])
            draw = order[dealt:]
        else:  # a hand-built match with too few cards: the last seats get fewer (N7.2)
            for i in range(len(order)):
                hands[seats[i % m]].append(order[i])
            for h in hands:
                h.sort()
            draw = []
        draw.reverse()  # internal: top of the pile is the end of the list
        self._hands, self._draw, self._stack = hands, draw, []
        self._sum = 0
        if self._cfg.reset_direction or self._round == 0:
            self._dir = 1
        self._dealer = dealer
        self._round += 1
        self._last = None  # a new round starts with no last move on the table
        if ev is not None:
            ev.append(self._round_event(dealer, m))
        self._begin_turn(dealer, dealer, 1, False, ev)

    def _round_event(self, dealer: int, m: int, shuffled: bool = True) -> Event:
        how = "all cards are shuffled and" if shuffled else "the cards, in the order given (deck=), are"
        return Event("round", {"round": self._round, "dealer": dealer}, "N2.3",
                     f"Round {self._round}: {how} {self._cfg.hand_size} dealt to each "
                     f"of {m} players; sum 0; {self.seat_label(dealer)} deals and plays first "
                     f"(rules N2.3, {'N2.2' if self._round == 1 else 'N6.6'}).")

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
        if self._termination is Termination.ABORTED:
            return Outcome((), tuple(self._chips), self._reason, self._termination)
        w = self._active.index(True)
        if self._cfg.life_system:
            scores: tuple = tuple(self._chips)
        else:
            place = {s: i for i, s in enumerate(self._out)}
            scores = tuple(place.get(s, self.players - 1) for s in range(self.players))
        return Outcome((w,), scores, self._reason)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (N8); ``None`` is the teacher view with every hand and the draw pile."""
        self.check_seat(seat)
        cfg = self._cfg
        out = self.outcome()
        stack = _tokens(self._stack)
        v = {
            "game": "cirno_neu",
            "players": self.players,
            "names": [self.seat_label(s) for s in range(self.players)],
            "seat": seat,
            "phase": self.phase,
            "current": self._cp,
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
            "hands": [_tokens(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "life_system": cfg.life_system,
            "chips": list(self._chips) if cfg.life_system else None,
            "active": list(self._active),
            "eliminated": list(self._out),
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "revealed": None if self._bust is None else dict(self._bust),
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["stack"] = stack
            v["draw_pile"] = self.draw_pile
        return v

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        way = "cw" if v["clockwise"] else "ccw"
        top = " ".join(v["stack_top"]) or "—"
        lines = [f"cirno+neu · {n} players · round {v['round']} · sum {number(v['sum'])}/{v['limit']} · {way} · "
                 f"draw {v['draw_count']} · stack {v['stack_size']} [{top}]"]
        t = v["turn"]
        if v["current"] is not None:
            kind = "shot turn" if t["kind"] == "shot" else "turn"
            pend = []
            if v["pending"]["shot_target"] is not None:
                pend.append(f"shot→{v['names'][v['pending']['shot_target']]}")
            if v["pending"]["double_next"]:
                pend.append("double next")
            lines.append(f"{v['names'][t['actor']]}'s {kind} (anchor {v['names'][t['anchor']]}), "
                         f"card {t['played'] + 1} of {t['required']}" + (f" · {', '.join(pend)}" if pend else ""))
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            out = "" if v["active"][s] else " (out)"
            chips = f" · chips {v['chips'][s]}" if v["life_system"] else ""
            dealer = " · dealer" if s == v["dealer"] else ""
            hand = v["hands"][s]
            cards = "[" + ", ".join(hand) + "]" if hand is not None else \
                f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            lines.append(f"{mark} {v['names'][s]} {cards}{chips}{dealer}{out}")
        if v.get("draw_pile") is not None:
            lines.append("Draw pile (top first) [" + ", ".join(v["draw_pile"]) + "]")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        cfg = self._cfg
        actor = self._actor
        out: list[tuple[str, str]] = []

        def opt(key: str, value: str, default: str) -> None:
            if value != default:
                out.append((key, value))

        opt("round", str(self._round), "1")
        opt("dealer", seat_text(self._dealer), seat_text(actor))
        out.append(("turn", seat_text(actor)))
        opt("anchor", seat_text(self._anchor), seat_text(actor))
        opt("kind", "shot" if self._shot_turn else "normal", "normal")
        opt("need", str(self._required), "1")
        opt("played", str(self._played), "0")
        opt("shot", seat_text(self._shot_target), "-")
        opt("double", "1" if self._double_next else "0", "0")
        opt("dir", "cw" if self._dir == 1 else "ccw", "cw")
        opt("sum", str(self._sum), "0")
        out.append(("hands", "/".join(_cards_text(h) for h in self._hands)))
        opt("stack", _cards_text(self._stack), "-")
        out.append(("draw", _cards_text(reversed(self._draw))))
        opt("out", ",".join(seat_text(s) for s in self._out) or "-", "-")
        if cfg.life_system:
            opt("chips", ",".join(map(str, self._chips)),
                ",".join(str(cfg.lives if a else 0) for a in self._active))
        if self._last is not None:
            p, a = self._last
            out.append(("last", f"{seat_text(p)}:{TOKENS[a.cid]}" + ("" if a.target is None else
                                                                      f"@{seat_text(a.target)}")))
        b = self._bust
        if b is not None:
            hand = "-" if b["hand"] is None else ",".join(b["hand"])
            out.append(("bust", f"{seat_text(b['seat'])}/{b['round']}/{b['sum']}/{hand}/{b['card'] or '-'}"))
        if self._cp is None:
            out.append(("end", "won" if self._termination is Termination.NORMAL else "aborted"))
        opt("turn_no", str(self._turns), "1")
        if self._built is not None and self._built != cfg.deck:
            out.append(("built", json.dumps(_enc_counts(self._built), separators=(",", ":"))))
        return out

    def _load_position(self, parsed: Any) -> None:
        _init(self)
        n, cfg = self.players, self._cfg
        taken: dict[str, Value] = {}

        def take(key: str, default: str | None = None) -> Value:
            v = taken[key] = parsed.take(key, default)
            return v

        universe = cfg.deck
        if parsed.fields.has("built"):
            v = take("built")
            try:
                universe = _dec_counts(json.loads(v.text))  # type: ignore[assignment]
            except ValueError as e:
                raise v.error(f"not a card count object such as {{\"1\":3,\"PASS\":4}}: {e}") from None
        left = Counter({k: c for k, c in enumerate(universe) if c})
        slots: list[tuple[int, int | None]] = []  # the unknown parts: (slot number, how many)
        unknown: list[Value] = []  # where they are written

        def cards(v: Value, where: str) -> list[Any]:
            """Cards and ``?N`` parts of a list (``-``: none); counts each known card off.
            An unknown part stands in the list as its slot number (a str)."""
            if v.text == "-":
                return []
            items: list[Any] = []
            for part in v.split(","):
                if part.unknown:
                    count = part.unknown_count()
                    if count is None and where != "draw":
                        raise part.error("a bare '?' (all the cards left) is for the draw pile; write '?N' here")
                    items.append(str(len(slots)))
                    slots.append((len(slots), count))
                    unknown.append(part)
                    continue
                c = card_id(part.text)
                if c is None:
                    raise part.error(f"{show(part.text)} is not a card ({', '.join(TOKENS)})")
                if left[c] <= 0:
                    raise part.error(f"one {TOKENS[c]} too many: this match has {universe[c]}")
                left[c] -= 1
                items.append(c)
            return items

        self._round = take("round", "1").int(1, 10**6)
        turn = take("turn")
        actor = turn.seat(n)
        self._actor = actor
        self._dealer = take("dealer", seat_text(actor)).seat(n)
        self._anchor = take("anchor", seat_text(actor)).seat(n)
        self._shot_turn = take("kind", "normal").choice(("normal", "shot")) == "shot"
        self._required = take("need", "1").int(1, 2)
        self._played = take("played", "0").int(0, 1)
        self._shot_target = take("shot", "-").seat(n, none=True)
        self._double_next = take("double", "0").flag()
        self._dir = 1 if take("dir", "cw").choice(("cw", "ccw")) == "cw" else -1
        self._sum = take("sum", "0").int(-10**6, 10**6)
        hv = take("hands")
        hands = [cards(v, f"hand {i}") for i, v in enumerate(hv.split("/", n))]
        stack = cards(take("stack", "-"), "stack")
        dv = take("draw", "?")
        draw = cards(dv, "draw")
        out = take("out", "-")
        self._out = tuple(p.seat(n) for p in out.split(",")) if out.text != "-" else ()
        self._active = tuple(s not in self._out for s in range(n))
        default_chips = ",".join(str(cfg.lives if a and cfg.life_system else 0) for a in self._active)
        if cfg.life_system:
            self._chips = tuple(take("chips", default_chips).ints(0, cfg.lives))
        else:
            self._chips = (0,) * n
        self._last = _read_last(take("last", "-"), n)
        self._bust = _read_bust(take("bust", "-"), n)
        end = take("end", "-").choice(("-", "won", "aborted"))
        self._cp = actor if end == "-" else None
        self._termination = Termination.ABORTED if end == "aborted" else Termination.NORMAL
        self._turns = take("turn_no", "1").int(1, 10**8)
        # Deal the unknown parts from the cards not placed (card conservation).
        pool = list(left.elements())
        dealt: dict[str, list[int]] = {}
        if slots:
            for k, got in deal_unknown(self, slots, pool, unknown[-1]):
                dealt[str(k)] = got
        elif pool:
            missing = ", ".join(f"{k}×{TOKENS[c]}" for c, k in sorted(left.items()) if k)
            raise dv.error(f"cards missing from the position: {missing} (write '?' in the draw pile to deal them)")

        def fill(items: list[Any]) -> list[int]:
            return [c for x in items for c in (dealt[x] if isinstance(x, str) else (x,))]

        self._hands = [sorted(fill(h)) for h in hands]
        self._stack = fill(stack)
        self._draw = fill(draw)[::-1]
        self._tgt = _targets(n, self._active, cfg)
        # A position is checked as dealt by the rules if it can be, else as hand-built.
        self._built = universe
        self._reason = ""
        try:
            self._check(settled=True)
        except ValueError as e:
            raise _blame(taken, str(e)) from None
        if universe == cfg.deck:
            self._built = None
            try:
                self._check(settled=True)
            except ValueError:
                self._built = universe

    # ------------------------------------------------------------- determinization (N8.3)
    def _sample(self, seat: int, rng: random.Random) -> "CirnoNeuState":
        """Deal every card ``seat`` has not seen again (the other hands and the draw pile's
        cards and order), keeping what the seat saw and what the rules let it infer (N8.3)."""
        world = self.clone()
        record = self._record()
        world._hands, world._draw, slots = record.seat(seat, self).sample(self, rng)
        # The world's own record: the same public one, with the cards it dealt to the other
        # players, so its seats know what they knew here (a world of a world, or a position
        # the seat cannot tell from this one, searches as this one does).
        world._know = (world._history, world._moves, record.dealt(seat, slots))
        return world

    def _record(self) -> "_Record":
        """The public record of the current round (cached per position: a search samples
        many worlds of one position)."""
        cached = getattr(self, "_know", None)
        if cached is not None and cached[0] is self._history and cached[1] == self._moves:
            return cached[2]
        record = _Record.rebuild(self)
        self._know = (self._history, self._moves, record)
        return record

    def _start(self) -> "CirnoNeuState | None":
        """This match's first position, set up again (``None`` if it cannot be)."""
        try:
            return self._first_position()  # type: ignore[return-value]
        except ValueError:
            return None

    def __repr__(self) -> str:
        return (f"<CirnoNeuState players={self.players} seed={self.seed} moves={self._moves} "
                f"round={self._round} phase={self.phase}>")

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = _config(self.options)
        self._tgt = _targets(self.players, self._active, self._cfg)
        self._reason = ""  # set by _check once the fields are known to be sound

    def _check_loaded(self) -> None:
        self._check(settled=True)

    def _check(self, settled: bool) -> None:
        """``ValueError`` unless this is a position the rules can reach (``_built``: a
        hand-built one, where hand sizes and the turn record are free). ``settled``: no
        automatic step is due (a forced bust or an empty hand would be carried out at once)."""
        n, cfg = self.players, self._cfg
        _check_options(self.options, n, cfg)
        self._check_origin()
        if self.deck_order is not None:
            if self._built is not None:
                raise ValueError("deck: a hand-built match has no deck order")
            _deck_list(self.deck_order, cfg.deck)
        hands = self._hands
        if len(hands) != n:
            raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
        zones = Counter(self._draw)
        zones.update(self._stack)
        for h in hands:
            zones.update(h)
        universe = cfg.deck if self._built is None else self._built
        if zones != Counter({k: c for k, c in enumerate(universe) if c}):
            raise ValueError("the hands, draw pile and main stack do not hold exactly the cards of this match: "
                             "cards were created or lost")
        if sum(universe) < 2:
            raise ValueError("a match needs at least 2 cards")
        active, chips, out = self._active, self._chips, self._out
        if len(active) != n or not all(type(a) is bool for a in active):
            raise ValueError(f"active: expected {n} true/false flags")
        if len(chips) != n or not all(_is_int(c) for c in chips):
            raise ValueError(f"chips: expected {n} counts")
        if cfg.life_system:
            if any(not 0 <= c <= cfg.lives or (c > 0) != a for c, a in zip(chips, active)):
                raise ValueError(f"chips: each 0 to {cfg.lives}, and a player is in the match while they have one")
        elif any(chips):
            raise ValueError("chips: all 0 without the life system")
        if not all(_is_int(s) and 0 <= s < n for s in out) or len(set(out)) != len(out) or \
                set(out) != {s for s in range(n) if not active[s]}:
            raise ValueError("out: the eliminated seats, each once, and exactly the players not active")
        for name in ("_dealer", "_actor", "_anchor"):
            _seat(getattr(self, name), n, name[1:])
        for name, lo, hi in (("_round", 1, 10**6), ("_turns", 1, 10**8), ("_sum", -10**9, 10**9)):
            _int(getattr(self, name), lo, hi, name[1:])
        if not (_is_int(self._dir) and self._dir in (1, -1)):
            raise ValueError("dir: 1 (clockwise) or -1")
        for name in ("_shot_turn", "_double_next"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name[1:]}: true or false")
        _int(self._required, 1, 2, "required")
        _int(self._played, 0, self._required - 1, "played")
        if self._shot_target is not None:
            _seat(self._shot_target, n, "shot_target")
        if type(self._termination) is not Termination:
            raise ValueError("termination: 'normal' or 'aborted'")
        self._check_bust(n)
        last = self._last
        if last is not None:
            _seat(last[0], n, "last action's seat")
            if last[1].target is not None and last[1].target >= n:
                raise ValueError("last action: its target is not a seat")
            if not self._stack or self._stack[-1] != last[1].cid:
                raise ValueError("last action: its card must be the top of the main stack")
        if self._cp is not None and not _is_int(self._cp):
            raise ValueError("current: a seat, or null when the match is over")
        running = self._cp is not None
        if running:
            self._check_turn(n, settled)
        elif self._termination is Termination.NORMAL:
            if active.count(True) != 1 or self._bust is None or not out or self._bust["seat"] != out[-1]:
                raise ValueError("a finished match has one player left, and the last bust eliminated the last one out")
        elif active.count(True) < 2:
            raise ValueError("an aborted match was stopped with two or more players in it")
        if self._built is None:
            self._check_dealt(n, running)
        self._reason = self._end_reason()

    def _check_origin(self) -> None:
        """A game that starts from a hand-built position saves it: it must set up (replays start there)."""
        origin = self._origin
        if origin is None:
            return
        try:
            if isinstance(origin, str):
                start = from_position(origin, self.seed)
            elif isinstance(origin, dict) and origin.get("position") is None:
                start = type(self).from_dict({**origin, "history": []})
            else:
                raise ValueError("expected position text or an object")
        except ValueError as e:
            raise ValueError(f"position: the hand-built start does not set up: {e}") from None
        if start.players != self.players or start.options != self.options:
            raise ValueError("position: the hand-built start is another game (players, options)")

    def _check_turn(self, n: int, settled: bool) -> None:
        """A running match: whose turn it is and what the turn has recorded (N4.1, N5)."""
        cfg, active = self._cfg, self._active
        if self._cp != self._actor or self._termination is not Termination.NORMAL:
            raise ValueError("current: the actor while the match runs")
        if active.count(True) < 2:
            raise ValueError("a running match has two or more players in it")
        if self._moves >= ACTION_BOUND:
            raise ValueError(f"a running match has fewer than {ACTION_BOUND:,} actions")
        for name in ("_actor", "_anchor", "_dealer"):
            if not active[getattr(self, name)]:
                raise ValueError(f"{name[1:]}: a player in the match")
        if self._anchor != self._actor and not (self._shot_turn and cfg.after_shooter):
            raise ValueError("anchor: the actor, except in a shot turn that resumes after its shooter (N5.2)")
        if self._shot_turn and self._anchor == self._actor and cfg.after_shooter and not cfg.self_target:
            raise ValueError("anchor: a shot turn resumes after its shooter, who cannot be its target (N3.6)")
        t = self._shot_target
        if t is not None and (not active[t] or (t == self._actor and not cfg.self_target)):
            raise ValueError("shot_target: a player in the match, not the actor (N3.6)")
        if not self._played and (t is not None or self._double_next):
            raise ValueError("a turn records SHOT and DOUBLE only once a card is played (N5.1)")
        if self._sum > cfg.limit:
            raise ValueError(f"sum: at most {cfg.limit} while the round goes on (N6.2)")
        if cfg.floor and self._sum < min(0, cfg.set_value):
            raise ValueError("sum: not below 0 with floor_at_zero (N3.2)")
        last = self._last
        if last is not None:
            if not active[last[0]]:
                raise ValueError("last action: played by a player in the match")
            if self._played and last[0] != self._actor:
                raise ValueError("last action: the actor's, once the actor has played a card")
            c = last[1].cid
            if self._played == 1:
                if self._shot_target != (last[1].target if c in (SHOT, DSHOT) else None) or \
                        self._double_next != (c in (DOUBLE, DSHOT)):
                    raise ValueError("the turn's record (shot_target, double_next) must follow its first card (N5.1)")
            else:  # the last card ended the turn before this one
                if c in (DOUBLE, DSHOT) and self._required != 2:
                    raise ValueError("required: a DOUBLE ended the last turn, so this one plays 2 cards (N5.4)")
                if c in (SHOT, DSHOT):
                    shooter, target = last
                    anchor = shooter if cfg.after_shooter else target.target
                    if not self._shot_turn or self._actor != target.target or self._anchor != anchor:
                        raise ValueError("a SHOT ended the last turn, so its target plays a shot turn (N5.2)")
        if any(self._hands[s] for s in range(n) if not active[s]):
            raise ValueError("an eliminated player holds no cards (N6.7)")
        if settled:
            hand = self._hands[self._actor]
            if not hand:
                raise ValueError("the actor holds no card: the turn would be skipped at once (N4.5)")
            if cfg.auto_bust and hand[0] <= PLUS_MAX and hand[-1] <= PLUS_MAX \
                    and VALUE[hand[0]] > cfg.limit - self._sum:
                raise ValueError("the actor holds no safe card: the forced bust would be settled at once (N4.4)")

    def _check_bust(self, n: int) -> None:
        b = self._bust
        if b is None:
            return
        _seat(b["seat"], n, "bust seat")
        _int(b["sum"], -10**9, 10**9, "bust sum")
        _int(b["round"], 1, self._round, "bust round")
        if type(b["forced"]) is not bool or b["forced"] != (b["hand"] is not None):
            raise ValueError("bust: forced is true exactly when the hand is shown (N8.2)")
        if b["card"] is None and not b["forced"]:
            raise ValueError("bust: a bust without a card played is a forced one (N4.4)")
        if b["hand"] is not None and (not b["hand"] or (b["card"] is not None and b["card"] not in b["hand"])):
            raise ValueError("bust: the shown hand holds the card played")

    def _check_dealt(self, n: int, running: bool) -> None:
        """A match dealt by the rules: hand sizes, rounds and busts agree (N2.3, N4.7, N6)."""
        cfg, active, b = self._cfg, self._active, self._bust
        h = cfg.hand_size
        busts = sum(cfg.lives - c for c in self._chips) if cfg.life_system else len(self._out)
        won = not running and self._termination is Termination.NORMAL
        if self._round != busts + (0 if won else 1):
            raise ValueError(f"round: {busts} busts so far make this round {busts + (0 if won else 1)}")
        if (b is None) != (busts == 0) or (b is not None and b["round"] != busts):
            raise ValueError("bust: the record of the last bust, in the round it ended")
        if b is not None and not cfg.life_system and b["seat"] != self._out[-1]:
            raise ValueError("bust: the last player busted is the last one out")
        if self._turns < self._round:
            raise ValueError("turn_no: every round has begun a turn")
        actor_hand = h if cfg.after_each and self._required == 2 else h - self._played
        if won:
            p = b["seat"]
            if self._actor != p:
                raise ValueError("the last turn is the last buster's")
            want = [h if active[s] else 0 for s in range(n)]
            want[p] = actor_hand - (b["card"] is not None)
            if [len(x) for x in self._hands] != want:
                raise ValueError(f"hands: the finished match's hands hold {want} cards")
            return
        want = [h if active[s] else 0 for s in range(n)]
        want[self._actor] = actor_hand
        if [len(x) for x in self._hands] != want:
            raise ValueError(f"hands: {want} cards at this point of the turn (N2.3, N4.7)")
        if not self._stack:  # no card played yet this round: its first turn (N2.3, N5.5)
            if self._sum or self._last is not None or self._played or self._shot_turn or self._required != 1 \
                    or self._actor != self._dealer or (self._dir != 1 and (cfg.reset_direction or self._round == 1)):
                raise ValueError("a round with no card played yet is at its first turn: the dealer's, "
                                 "sum 0, clockwise (N2.3, N5.5)")
        elif self._last is None:
            raise ValueError("last action: the card on top of the main stack")
        fd = self.options["first_dealer"]
        if self._round == 1 and fd != "random" and self._dealer != fd:
            raise ValueError(f"dealer: round 1 is dealt by first_dealer={fd} (N2.2)")
        if b is not None and cfg.starter != "rotate":
            p = b["seat"]
            want_dealer = p if cfg.starter == "loser" and active[p] else self._step(p, 1)
            if self._dealer != want_dealer:
                raise ValueError(f"dealer: after {self.seat_label(p)} busted, {self.seat_label(want_dealer)} "
                                 f"deals (N6.6)")


def _cards_text(ids: Iterable[int]) -> str:
    return cards_text(ids, TOKENS.__getitem__)


def _read_last(v: Value, n: int) -> tuple[int, Play] | None:
    """``last=C:SHOT@A``: who played the last card, the card and its target."""
    if v.text == "-":
        return None
    who, sep, rest = v.text.partition(":")
    if not sep:
        raise v.error(f"{show(v.text)} is not '<seat>:<card>' such as 'C:7' or 'C:SHOT@A'")
    seat = Value(who, v.column, v.key).seat(n)
    tok, at, tgt = rest.partition("@")
    c = card_id(tok)
    if c is None:
        raise v.error(f"{show(tok)} is not a card ({', '.join(TOKENS)})", len(who) + 1)
    target = Value(tgt, v.column + len(who) + len(tok) + 2, v.key).seat(n) if at else None
    if (target is None) != (c not in (SHOT, DSHOT)):
        raise v.error("SHOT and DOUBLE SHOT, and only they, have a target (N4.2)", len(who) + 1)
    return (seat, _intern(c, target))


def _read_bust(v: Value, n: int) -> dict[str, Any] | None:
    """``bust=B/2/95/8,10,50/-``: seat, round, sum, the hand shown (``-``: not shown), the card played."""
    if v.text == "-":
        return None
    seat, rnd, total, hand, card = v.split("/", 5)
    shown = None if hand.text == "-" else _tokens(sorted(c for c in hand.cards(card_id, ", ".join(TOKENS))))
    played = None
    if card.text != "-":
        c = card_id(card.text)
        if c is None:
            raise card.error(f"{show(card.text)} is not a card ({', '.join(TOKENS)})")
        played = TOKENS[c]
    return {"seat": seat.seat(n), "sum": total.int(-10**6, 10**6), "hand": shown, "card": played,
            "forced": shown is not None, "round": rnd.int(1, 10**6)}


#: Where the loading checks' messages point in the position text (their first word).
_POSITION_KEYS = {"hands": "hands", "sum": "sum", "dealer": "dealer", "actor": "turn", "current": "turn",
                  "anchor": "anchor", "shot_target": "shot", "chips": "chips", "out": "out", "bust": "bust",
                  "last action": "last", "round": "round", "turn_no": "turn_no", "dir": "dir", "required": "need",
                  "played": "played", "a turn records": "played", "the actor holds": "hands",
                  "an eliminated player": "hands", "the actor holds no": "hands"}


def _blame(taken: dict[str, Value], message: str) -> PositionError:
    """A consistency error of a loaded position, at the field it is about."""
    for words, key in _POSITION_KEYS.items():
        if message.startswith(words) and key in taken:
            return taken[key].error(f"not a consistent position: {message}")
    return PositionError(f"not a consistent position: {message}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: Any, lo: int, hi: int, what: str) -> int:
    if not _is_int(v) or not lo <= v <= hi:
        raise ValueError(f"{what}: an int from {lo} to {hi}, got {show(v, 20)}")
    return v


def _seat(v: Any, n: int, what: str) -> int:
    if not _is_int(v) or not 0 <= v < n:
        raise ValueError(f"{what}: a seat 0..{n - 1}, got {show(v, 20)}")
    return v


def _check_options(opts: dict[str, Any], n: int, cfg: Config) -> None:
    """What the options table cannot check alone (N1.7, N2.2)."""
    fd = opts["first_dealer"]
    if fd != "random" and fd >= n:
        raise ValueError(f"first_dealer={fd!r} is not allowed; allowed values: 0..{n - 1} or 'random'")
    total = sum(cfg.deck)
    if total < cfg.hand_size * n + 1:
        raise ValueError(f"deck_counts has {total} cards; {n} players with hand_size={cfg.hand_size} need "
                         f"at least {cfg.hand_size * n + 1} (rule N1.7)")
    if not any(cfg.deck[: PLUS_MAX + 1]):
        raise ValueError("deck_counts has no plus number card, so no card could ever be unsafe and no round "
                         "could end (rules N3.9, N4.4)")


class _Record:
    """What every seat saw of the current round: the position it started from (a deal,
    or the position the match was set up or loaded from) and, in order, each card
    played, each draw (how many, and from which draw pile) and each reshuffle (which
    cards, N7.1). Draws also keep their cards, but a seat only ever reads its own."""

    __slots__ = ("hands", "stack", "events", "epochs", "_seats")

    def __init__(self, st: CirnoNeuState) -> None:
        self.hands = [list(h) for h in st._hands]
        self.stack = Counter(st._stack)
        self.events: list[tuple] = []
        self.epochs = 0  # reshuffles so far: the draw pile's "epoch"
        self._seats: dict[int, _Seat] = {}

    @classmethod
    def rebuild(cls, st: CirnoNeuState) -> "_Record":
        """Replay the match from its start and note what was public. A match that cannot
        be replayed (a sampled world, an edited save) is known from this position on."""
        game = st._start()
        if game is not None:
            record = cls(game)
            node = st._history
            actions = []
            while node is not None:
                node, a = node
                actions.append(a)
            for a in reversed(actions):
                if game.is_terminal or game.refusal(a) is not None:
                    break
                record._step(game, a)
            else:
                if game._state_dict() == st._state_dict() and game._rng_count == st._rng_count:
                    return record
        return cls(st)

    def _step(self, st: CirnoNeuState, a: Play) -> None:
        p, c = st._actor, a.cid
        before = Counter(st._hands[p])
        before[c] -= 1
        top = st._draw[-2:]  # at most 2 cards are drawn in one action, from the end
        d0, rnd, rng0 = len(st._draw), st._round, st._rng_count
        st._apply(a, None)
        st._history = (st._history, a)
        st._moves += 1
        if st._round != rnd:  # a bust: a new round was dealt
            self.__init__(st)
            return
        self.events.append(("play", p, c))
        drawn = Counter(st._hands[p]) - before
        k = sum(drawn.values())
        if not k:
            return
        old = top[::-1][:min(k, d0)]
        if old:
            self.events.append(("draw", p, self.epochs, old))
        new = drawn - Counter(old)
        if st._rng_count != rng0:  # the stack was reshuffled into a new draw pile (N7.1)
            self.epochs += 1
            self.events.append(("epoch", Counter(st._draw) + new))
        if new:
            self.events.append(("draw", p, self.epochs, list(new.elements())))

    def dealt(self, seat: int, slots: dict[tuple[int, int], list[int]]) -> "_Record":
        """This record with the other players' cards as a world of ``seat`` dealt them:
        ``slots[p, e]`` are the cards p received from draw pile e in order (the first
        ones of pile 0 its hand at the deal)."""
        new = _Record.__new__(_Record)
        new.stack, new.epochs, new._seats = self.stack, self.epochs, {}
        taken = {key: iter(cards) for key, cards in slots.items()}
        new.hands = [h if s == seat or not h else [next(taken[s, 0]) for _ in h] for s, h in enumerate(self.hands)]
        new.events = [ev if ev[0] != "draw" or ev[1] == seat else
                      ("draw", ev[1], ev[2], [next(taken[ev[1], ev[2]]) for _ in ev[3]]) for ev in self.events]
        return new

    def seat(self, seat: int, st: CirnoNeuState) -> "_Seat":
        hit = self._seats.get(seat)
        if hit is None:
            hit = self._seats[seat] = _Seat(self, seat, st)
        return hit


class _Seat:
    """One seat's knowledge of the round, ready for sampling: each draw pile's unseen
    cards, what each other player received from each pile, and the cards they played."""

    __slots__ = ("seat", "content", "received", "steps", "others", "draw_size", "needs", "safe_actor",
                 "_searches", "spent")

    def __init__(self, record: _Record, seat: int, st: CirnoNeuState) -> None:
        n = st.players
        self.seat = seat
        self.others = [s for s in range(n) if s != seat]
        universe = st._cfg.deck if st._built is None else st._built
        first = Counter({k: c for k, c in enumerate(universe) if c})
        first.subtract(record.hands[seat])
        first.subtract(record.stack)
        content = [first]
        received = {s: [len(record.hands[s])] for s in self.others}
        steps = []
        for ev in record.events:
            if ev[0] == "play":
                if ev[1] != seat:
                    steps.append((ev[1], (ev[2],), tuple(received[ev[1]])))
            elif ev[0] == "draw":
                _, p, e, cards = ev
                if p == seat:
                    content[e].subtract(cards)
                else:
                    received[p][e] += len(cards)
            else:
                content.append(Counter(ev[1]))
                for s in self.others:
                    received[s].append(0)
        self.content = [[c[k] for k in range(len(TOKENS))] for c in content]
        self.received = received
        self.steps = steps
        self.draw_size = len(st._draw)
        self._searches: dict[int, _Search] = {}  # by number of steps: with the safe card or not
        # What the seat sees now and must hold in every world (N8.3).
        self.needs: list[tuple] = []
        b = st._bust
        if st._cp is None and b is not None and b["hand"] is not None and b["round"] == st._round \
                and b["seat"] != seat:
            shown = Counter(card_id(t) for t in b["hand"])
            if b["card"] is not None:
                shown[card_id(b["card"])] -= 1
            for c in shown.elements():
                self.needs.append((b["seat"], (c,), tuple(received[b["seat"]])))
        p = st._actor
        self.safe_actor = None
        if st._cfg.auto_bust and p != seat and st._hands[p] and \
                (st._cp is not None or st._termination is Termination.ABORTED):
            room = st._cfg.limit - st._sum
            safe = tuple(k for k in range(len(TOKENS)) if k > PLUS_MAX or VALUE[k] <= room)
            self.safe_actor = (p, safe, tuple(received[p]))

    def sample(self, st: CirnoNeuState,
               rng: random.Random) -> tuple[list[list[int]], list[int], dict[tuple[int, int], list[int]]]:
        """The hands (the seat's own as it is), the draw pile (top last) and the other
        players' cards from each pile (see ``_deal``) of a world.
        Its searches together place at most ``SEARCH_LIMIT`` cards (``spent``: how many)."""
        steps = self.steps + self.needs
        self.spent = 0
        if self.safe_actor is not None:
            # The actor holds a safe card, or the forced bust would have been settled: a few
            # plain tries (half the work at most) keep each world's odds, then a safe card is
            # asked for outright.
            p, safe, _ = self.safe_actor
            try:
                for _ in range(8):
                    world = self._deal(st, steps, rng, SEARCH_LIMIT // 2 - self.spent)
                    if world is not None and any(c in safe for c in world[0][p]):
                        return world
            except SamplingLimitError:
                pass
            steps = steps + [self.safe_actor]
        world = self._deal(st, steps, rng, SEARCH_LIMIT - self.spent)
        if world is None:  # the real position always fits its own record
            raise RuntimeError("no world fits this position's record")
        return world

    def _deal(self, st: CirnoNeuState, steps: list[tuple], rng: random.Random,
              limit: int) -> tuple[list[list[int]], list[int], dict[tuple[int, int], list[int]]] | None:
        remain = [row[:] for row in self.content]
        used = {s: [0] * len(remain) for s in self.others}
        search = self._searches.get(len(steps))
        if search is None:
            search = self._searches[len(steps)] = _Search(steps, self.content)
        try:
            chosen = search.solve(remain, used, rng, max(limit, 0))
        finally:
            self.spent += search.spent
        if chosen is None:
            return None
        hands = [list(h) for h in st._hands]
        # slots[p, e]: the cards p received from pile e, in the order received: the ones it
        # played (or shows) first, each before it was played, then the ones it still holds
        slots: dict[tuple[int, int], list[int]] = {}
        for s in self.others:
            hands[s] = []
        for (p, _, _), (e, v), i in zip(steps, chosen, range(len(steps))):
            slots.setdefault((p, e), []).append(v)
            if i >= len(self.steps):  # a card the player still holds (N8.2, N8.3)
                hands[p].append(v)
        draw: list[int] = []
        last = len(remain) - 1
        for e, row in enumerate(remain):
            pool = [k for k, c in enumerate(row) for _ in range(c)]
            rng.shuffle(pool)
            k = 0
            for s in self.others:
                m = self.received[s][e] - used[s][e]
                hands[s] += pool[k:k + m]
                slots.setdefault((s, e), []).extend(pool[k:k + m])
                k += m
            if e == last:
                draw = pool[k:]
            elif k != len(pool):
                return None
        if len(draw) != self.draw_size or any(len(hands[s]) != len(st._hands[s]) for s in self.others):
            return None
        for s in self.others:
            hands[s].sort()
        return hands, draw, slots
        return hands, draw


#: Cards ``_Search.solve`` may place (over all its tries) before ``sample_world`` gives up
#: with :class:`SamplingLimitError`. A world usually takes about one placement per card the
#: other players played this round; the bound keeps the rare long search of a round of
#: hundreds of reshuffles well under a second, in memory that grows with the round only.
SEARCH_LIMIT = 10_000


class _OutOfWork(Exception):
    """A try of :meth:`_Search.solve` used up its share of the work (its count)."""


class _Search:
    """Where each of a seat's steps ``(player, cards it may be, draw piles received from
    by then)`` may have got its card: a pile with such a card in it, from which the player
    had received a card by then. Built once per seat and position; :meth:`solve` chooses."""

    def __init__(self, steps: list[tuple], content: list[list[int]]) -> None:
        self.steps = steps
        self.doms: list[dict[int, tuple[int, ...]]] = []  # step -> {pile: cards it may take there}
        self.by_card: dict[tuple[int, int], list[int]] = {}  # steps that may take this card of this pile
        self.by_pile: dict[tuple[int, int], list[int]] = {}  # this player's steps that may use this pile
        piles: dict[int, list[int]] = {}  # player -> the piles it ever received from (its last step knows)
        for p, _, recv in reversed(steps):
            if p not in piles:
                piles[p] = [e for e, r in enumerate(recv) if r]
        for i, (p, values, recv) in enumerate(steps):
            dom = {}
            for e in piles[p]:
                if e >= len(recv):
                    break
                if recv[e]:
                    vs = tuple(v for v in values if content[e][v])
                    if vs:
                        dom[e] = vs
                        self.by_pile.setdefault((p, e), []).append(i)
                        for v in vs:
                            self.by_card.setdefault((e, v), []).append(i)
            self.doms.append(dom)

    def solve(self, remain: list[list[int]], used: dict[int, list[int]], rng: random.Random,
              limit: int | None = None) -> list[tuple[int, int]] | None:
        """For each step, the pile its card came from and which card it is, such that no
        pile gives more of a card than it holds (``remain``) and the k-th of a player's
        steps served from a pile comes after the player's k-th card from it. ``remain`` and
        ``used`` (cards each player's steps took from each pile) end as the choice leaves
        them. ``None``: no choice fits. :class:`SamplingLimitError` once ``limit`` cards were
        placed (``SEARCH_LIMIT``), the failed tries included.

        A constraint search: the step with the fewest choices left goes first, each choice
        in random order (so every consistent choice can come out), and a choice that leaves
        some other step none is taken back at once. A try that backs up too often starts
        again with other random orders, each allowed twice the work of the one before: a bad
        early choice is what makes such searches long, and a new start rarely repeats it."""
        limit = SEARCH_LIMIT if limit is None else limit
        self.remain, self.used = remain, used
        budget, spent = 2 * len(self.steps) + 16, 0
        while True:
            try:
                found = self.run(rng, min(budget, limit - spent))
            except _OutOfWork as e:
                spent += e.args[0]
                budget *= 2
                self.spent = spent
                if spent >= limit:
                    raise SamplingLimitError(
                        f"no world was found within {limit:,} placed cards: this round has "
                        f"{len(remain) - 1} reshuffles, too many to deal its unseen cards again") from None
                continue
            self.spent = spent + self.work
            return found

    def run(self, rng: random.Random, budget: int) -> list[tuple[int, int]] | None:
        """One try, :class:`_OutOfWork` after ``budget`` placed cards (all taken back)."""
        steps, remain, doms = self.steps, self.remain, self.doms
        n = len(steps)
        self.taken: dict[tuple[int, int], list[int]] = {}
        self.ok = [dict.fromkeys(d, True) for d in doms]  # pile still open to the step
        self.left = [sum(1 for e, vs in d.items() for v in vs if remain[e][v]) for d in doms]
        self.open = set(range(n))
        self.choice: list[tuple[int, int] | None] = [None] * n
        self.work = 0
        if n and min(self.left) == 0:
            return None
        frames: list[list] = []  # [step, its choices in random order, index tried]
        while self.open:
            i = min(self.open, key=self.left.__getitem__)
            # Random order, biased towards the choices fewest other steps could also make
            # (k of the player's steps may use this pile, m steps this pile's card): weight
            # copies / (k * k * m) as keys random() ** (1 / weight). Every choice stays
            # possible; the bias takes a search of hundreds of reshuffles from many tries
            # to about one.
            p = steps[i][0]
            keyed = sorted(((rng.random() ** (len(self.by_pile[(p, e)]) ** 2 * len(self.by_card[(e, v)])
                                               / remain[e][v]), e, v)
                            for e, vs in doms[i].items() if self.ok[i][e] for v in vs if remain[e][v]),
                           reverse=True)
            opts = [(e, v) for _, e, v in keyed]
            frames.append([i, opts, -1])
            while True:  # the top frame's next choice, or back up
                i, opts, k = frames[-1]
                if k >= 0:
                    self._unplace(i)
                k += 1
                frames[-1][2] = k
                if k < len(opts):
                    self.work += 1
                    if self.work > budget:
                        self._clear()
                        raise _OutOfWork(self.work)
                    if self._place(i, *opts[k]):
                        break
                    continue
                frames.pop()
                if not frames:
                    return None
        return self.choice  # type: ignore[return-value]

    def _clear(self) -> None:
        """Take every placed card back (``remain``/``used`` as before the try)."""
        for i, c in enumerate(self.choice):
            if c is not None:
                self.remain[c[0]][c[1]] += 1
                self.used[self.steps[i][0]][c[0]] -= 1

    def _fits(self, j: int, e: int) -> bool:
        """Whether step j may still take a card of pile e: the k-th of its player's steps
        served from pile e must have received k cards from it by then."""
        steps = self.steps
        mine = self.taken.get((steps[j][0], e))
        if not mine:
            return True
        at = bisect_right(mine, j)
        if at + 1 > steps[j][2][e]:
            return False
        return all(steps[x][2][e] >= at + 2 + k for k, x in enumerate(mine[at:]))

    def _place(self, i: int, e: int, v: int) -> bool:
        p = self.steps[i][0]
        self.remain[e][v] -= 1
        self.used[p][e] += 1
        insort(self.taken.setdefault((p, e), []), i)
        self.choice[i] = (e, v)
        self.open.discard(i)
        return self._update(p, e, v, self.remain[e][v] == 0)

    def _unplace(self, i: int) -> None:
        p = self.steps[i][0]
        e, v = self.choice[i]  # type: ignore[misc]
        self.remain[e][v] += 1
        self.used[p][e] -= 1
        self.taken[(p, e)].remove(i)
        self.choice[i] = None
        self._update(p, e, v, self.remain[e][v] == 1)
        # step i counted afresh, after the others (counted by _update, it would gain its
        # own card twice)
        self.open.add(i)
        remain = self.remain
        ok = self.ok[i]
        for f in ok:
            ok[f] = self._fits(i, f)
        self.left[i] = sum(1 for f, vs in self.doms[i].items() if ok[f] for w in vs if remain[f][w])

    def _update(self, p: int, e: int, v: int, card_changed: bool) -> bool:
        """Bring the open steps' choices up to date after pile e's card v and player p's
        use of pile e changed; False when one of them has no choice left."""
        remain, left, ok, open_, steps = self.remain, self.left, self.ok, self.open, self.steps
        fine = True
        if card_changed:
            delta = 1 if remain[e][v] else -1
            for j in self.by_card.get((e, v), ()):
                if j in open_ and ok[j][e]:
                    left[j] += delta
                    if left[j] <= 0:
                        fine = False
        # _fits for every step of p at once: after[a] says whether the steps already served
        # from pile e keep their room when one more comes in at place a among them
        mine = self.taken.get((p, e)) or []
        after = [True] * (len(mine) + 1)
        for a in range(len(mine) - 1, -1, -1):
            after[a] = after[a + 1] and steps[mine[a]][2][e] >= a + 2
        row = remain[e]
        for j in self.by_pile.get((p, e), ()):
            if j in open_:
                at = bisect_right(mine, j)
                now = after[at] and steps[j][2][e] > at
                okj = ok[j]
                if now != okj[e]:
                    okj[e] = now
                    k = sum(1 for w in self.doms[j][e] if row[w])
                    left[j] += k if now else -k
                if left[j] <= 0:
                    fine = False
        return fine


_load_fields = CirnoNeuState._load_state  # generated from FIELDS


def _load_state(self: CirnoNeuState, data: dict[str, Any]) -> None:
    legacy = isinstance(data, dict) and "built" not in data
    _load_fields(self, {**data, "built": None} if legacy else data)
    if legacy:  # saved before states recorded how they were set up: checked as hand-built
        zones = Counter(self._draw) + Counter(self._stack)
        for h in self._hands:
            zones.update(h)
        self._built = tuple(zones[k] for k in range(len(TOKENS)))


CirnoNeuState._load_state = _load_state  # type: ignore[method-assign]

class _Table:
    """What a set of players still in the match fixes, shared by every state with it:
    per seat, the SHOT and DOUBLE SHOT plays it may make (targets in seat order, N3.6,
    N6.7); the next seat in each direction (``step``, N5.3: ``next[1]`` clockwise,
    ``next[-1]`` counter-clockwise); and, per dealer, the seats dealt to (N2.3)."""

    __slots__ = ("shots", "dshots", "next", "deal")

    def __init__(self, n: int, active: Sequence[bool], self_target: bool) -> None:
        seats = [[s for s in range(n) if active[s] and (s != p or self_target)] for p in range(n)]
        self.shots = tuple(tuple(_PLAYT[SHOT, s] for s in row) for row in seats)
        self.dshots = tuple(tuple(_PLAYT[DSHOT, s] for s in row) for row in seats)
        self.next = (None, tuple(_step_from(n, active, s, 1) for s in range(n)),
                     tuple(_step_from(n, active, s, -1) for s in range(n)))
        # per dealer: the seats dealt to, the dealer first then clockwise (N2.3)
        self.deal = tuple((d, *(s for s in (*range(d + 1, n), *range(d)) if active[s])) for d in range(n))


def _step_from(n: int, active: Sequence[bool], s: int, d: int) -> int:
    """The first seat in the match from ``s`` in direction ``d`` (``s`` itself if alone)."""
    for _ in range(n):
        s = (s + d) % n
        if active[s]:
            return s
    return s


_TABLES: dict[tuple, _Table] = {}


def _targets(n: int, active: Sequence[bool], cfg: Config) -> _Table:
    key = (n, tuple(active), cfg.self_target, cfg.voluntary)
    hit = _TABLES.get(key)
    if hit is None:
        hit = _TABLES[key] = _Table(n, active, cfg.self_target)
    return hit


# --------------------------------------------------------------------------- construction
def _blank(players: int, seed: int | None, options: dict[str, Any], chance: Any) -> CirnoNeuState:
    st = CirnoNeuState._create(players, seed, None, options, chance)
    _init(st)
    return st


def _init(st: CirnoNeuState) -> None:
    """The empty table of a new state (options resolved): no cards dealt, round 0."""
    opts = st.options
    n = st.players
    if opts["deck_counts"] is not DEFAULT_DECK:
        opts["deck_counts"] = {TOKENS[card_id(k)]: v for k, v in opts["deck_counts"].items()}
    cfg = _config(opts)
    _check_options(opts, n, cfg)
    _fill(st, cfg)


def _fill(st: CirnoNeuState, cfg: Config) -> None:
    n = st.players
    st._cfg = cfg
    st._hands = [[] for _ in range(n)]
    st._draw, st._stack = [], []
    st._sum, st._dir, st._round, st._turns = 0, 1, 0, 0
    st._dealer = 0
    st._actor = st._anchor = st._cp = 0
    st._shot_turn, st._required, st._played = False, 1, 0
    st._shot_target, st._double_next = None, False
    st._active = (True,) * n
    st._chips = (cfg.lives if cfg.life_system else 0,) * n
    st._out = ()
    st._tgt = _targets(n, st._active, cfg)
    st._last = None
    st._bust = None
    st._reason = ""
    st._termination = Termination.NORMAL
    st._built = None


def _deck_list(deck: Sequence[Any], need: Sequence[int]) -> list[int]:
    return check_deck(deck, counts_to_cards(need), card_id, TOKENS.__getitem__,
                      what=f"cirno+neu card ({', '.join(TOKENS)})")


_NEW_GAMES: dict[tuple, tuple[dict[str, Any], Config]] = {}
_SETUP_EVENTS: dict[tuple, list[Event]] = {}


def new_game(players: int = 4, seed: int | None = None, deck: Sequence[Any] | None = None, *,
             chance: Any = None, **options: Any) -> CirnoNeuState:
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
    chance:
        Recorded shuffles to use instead of the seeded ones (``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC``, e.g. ``life_system=True``.

    Examples
    --------
    >>> st = new_game(players=4, seed=1)
    >>> [len(st.hand(s)) for s in range(4)], len(st.draw_pile), st.sum, st.current_player
    ([3, 3, 3, 3], 47, 0, 0)
    """
    # Simulations build many games alike: options validated once are remembered.
    try:
        # Names are no rules option: a game with names is set up in full (see _blank).
        key = (players, *[(k, type(v), v) for k, v in options.items()]) \
            if type(players) is int and "names" not in options else None
        known = _NEW_GAMES.get(key)
    except TypeError:  # an unhashable option value (deck_counts): validated every time
        key = known = None
    if known is None:
        st = _blank(players, seed, options, chance)
        if key is not None and len(_NEW_GAMES) < 512:
            _NEW_GAMES[key] = (st.options, st._cfg)
    else:
        st = CirnoNeuState._create(players, seed, None, {}, chance)  # checks the seed and chance
        st.options = dict(known[0])
        _fill(st, known[1])
    order = None
    if deck is not None:
        order = _deck_list(deck, st._cfg.deck)
        st.deck_order = tuple(TOKENS[c] for c in order)
    fd = st.options["first_dealer"]
    dealer = st._randrange(st.players) if fd == "random" else fd
    if order is None:
        order = list(st._cfg.cards)
        st._shuffle(order)
    st._new_round(dealer, order, None)
    # The first round's narration depends on a few numbers only: made once, then copied.
    key = (len(st._tgt.deal[dealer]), dealer, st._cfg.hand_size, st.names, deck is None)
    told = _SETUP_EVENTS.get(key)
    if told is None:
        told = [st._round_event(dealer, key[0], shuffled=deck is None)]
        st._turns -= 1
        st._begin_turn(dealer, dealer, 1, False, told)
        if len(_SETUP_EVENTS) < 1024:
            _SETUP_EVENTS[key] = told
    events = list(told)
    st._settle(events)
    st.setup_events = events
    return st


def from_dict(data: dict[str, Any]) -> CirnoNeuState:
    """A state saved with ``to_dict``."""
    return CirnoNeuState.from_dict(data)  # type: ignore[return-value]


def from_position(text: str, seed: int | None = None) -> CirnoNeuState:
    """A state from position text (``state.to_position()``; the grammar is in the rules
    reference, "Position text"). ``seed`` deals the unknown parts (``?``) and every later
    shuffle. Raises ``PositionError`` naming the column of what is wrong.
    """
    return load_position(text, seed, lambda mode: CirnoNeuState)  # type: ignore[return-value]


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
    """A hand-built position for teaching and tests.

    ``hands`` lists each seat's cards (tokens). ``draw`` is the draw pile **top
    first**; ``None`` fills it with the rest of the ``deck_counts`` cards (those not
    in hands or on the stack), shuffled with the seed. ``stack`` is the main stack
    bottom first. The turn fields are those of N4.1/N5.1 (``anchor`` defaults to the
    actor). Automatic steps due at once (a forced bust, N4.4) are carried out, and
    their narration is kept in ``state.setup_events``. Replays record the position.

    >>> st = setup_position(4, [["4", "-1"], ["7"], ["1"], ["2"]], sum=95, draw=["5"], required=2)
    >>> [str(a) for a in st.legal_actions()], st.turn["required"]
    (['play 4', 'play -1'], 2)
    """
    st = _blank(players, seed, options, None)
    n = st.players
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    st._hands = [sorted(_ids(h, f"hands[{s}]")) for s, h in enumerate(hands)]
    st._stack = _ids(stack, "stack")
    if draw is None:
        rest = Counter({k: st._cfg.deck[k] for k in range(len(TOKENS))})
        rest.subtract(st._stack)
        for h in st._hands:
            rest.subtract(h)
        pile = [k for k in range(len(TOKENS)) for _ in range(max(0, rest[k]))]
        st._shuffle(pile)
        st._draw = pile[::-1]
    else:
        st._draw = _ids(draw, "draw")[::-1]
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
        if s is not None and not (isinstance(s, int) and 0 <= s < n and st._active[s]):
            raise ValueError(f"seat {s!r} is not an active seat")
    if chips is not None:
        st._chips = tuple(chips)
        if len(st._chips) != n:
            raise ValueError("chips: one count per seat")
    elif st._cfg.life_system:
        st._chips = tuple(st._cfg.lives if a else 0 for a in st._active)
    st._out = tuple(s for s in range(n) if not st._active[s])
    if not any(st._hands[s] for s in range(n) if st._active[s]):
        raise ValueError("at least one active player must hold a card")
    # The match plays with exactly the cards placed here (N2.3 gathers them for later rounds).
    placed = Counter(st._draw) + Counter(st._stack)
    for h in st._hands:
        placed.update(h)
    st._built = tuple(placed[k] for k in range(len(TOKENS)))
    st._tgt = _targets(n, st._active, st._cfg)
    st._sum, st._dir, st._round = sum, direction, round
    st._dealer = actor if dealer is None else dealer
    st._begin_turn(actor, actor if anchor is None else anchor, required, kind == "shot", None)
    st._played, st._shot_target, st._double_next = played, shot_target, double_next
    events: list[Event] = []
    st._check(settled=False)
    st._settle(events)
    st.setup_events = events
    st._mark_origin()
    return st


#: The deck order of the module docstring's example (3 players, default deck).
DEMO_DECK = ["5", "6", "7", "10", "SHOT", "8", "SHOT", "99", "1"]
DEMO_DECK += list((Counter(DEFAULT_DECK) - Counter(DEMO_DECK)).elements())

__all__ = [
    "ANY", "CirnoNeuState", "Config", "DEFAULT_DECK", "IllegalActionError", "InvalidActionError",
    "Play", "SPEC", "TOKENS", "card_id", "card_token", "from_dict", "from_position", "new_game", "parse_action",
    "setup_position",
]
