"""Crypto Trick: trick-taking where each lead is offered first, and blocks score.

Rule IDs ``C0``–``C11`` (and the settled questions ``CA-*``) are cited in
every refusal and narration line; ``cardwidgets.rules.lookup("C5.4",
game="crypto_trick")`` explains each. A trick runs in four phases:

* ``offer`` — the first player reveals a card from their hand (C5.1);
* ``declare`` — every other player, clockwise, says ``want`` or ``pass`` (C5.2);
  with no taker the first player leads the card (C5.3);
* ``give`` — the declarer (the last ``want``, C5.4) gives the first player a card
  face down and leads the offered card (C5.5, C5.6);
* ``follow`` — the others play in turn, following the lead colour if they can
  (C6); the strongest card takes the trick (C7, C8).

Six tricks make a round, scored by the block cards each player won (C9); after
``rounds`` rounds the highest total wins, ties share the win (C10).

Cards are written as a colour letter and a number (``Y3``, ``W6``). Inside the
engine a card is a small int, ``100 * colour + number`` with the colours in the
order ``Y B R P G W``; a hand is a sorted list of them, so the cards of one
colour sit together. Action objects are interned and every rule reads tables
built once per option set (:class:`Config`), so simulations run on
``legal_actions()`` + ``apply_unchecked()`` without building any narration.

What a seat sees (C11, :meth:`CryptoTrickState.view`): its own hand, every hand's
size, the offer, the declarations, the table, the won piles (only their block
count and colours with ``won_pile_visibility="block_count_only"``) and the card
given face down only if it gave or received it. The hidden card is turned up
after the round is scored; a preview stops just before that, and before a deal.
``state.sample_world(seat, rng)`` deals again everything that seat has not seen,
keeping what it saw and what the rules tell it (who did not follow a colour holds
none, C6.3; where a card it saw given went, C5.5).

A position is also one line of text: ``state.to_position()`` writes it and
:func:`from_position` reads it, with unknown parts (``?``) dealt from the seed;
the grammar is in the rules reference ("Position text").

>>> st = new_game(players=3, seed=4)
>>> st.phase, st.current_player, st.hand(0)
('offer', 0, ['Y2', 'B1', 'B4', 'B5', 'B6', 'R4'])
>>> st.indicator, st.trumps
('W6', ['W'])
>>> for e in st.apply("r B1") + st.apply("n") + st.apply("y"):
...     print(e)
A reveals B1 and offers it (rule C5.1).
B passes (rule C5.2).
C wants B1 (rule C5.2).
C is the declarer: the only player who wanted B1 (rule C5.4).
>>> print(st.explain("give Y2"))
Illegal: rule C5.5 — you hold no Y2 (your hand: Y1 Y4 Y5 Y6 B3 R1)
>>> for e in st.apply("g R1"):
...     print(e.audience or "all", e)
all C gives A a card face down (rule C5.5).
(2, 0) The card is R1: only C and A know it (rule C11.3).
all C leads B1, the card A offered (rule C5.6). A follows first (rule C6.2).
>>> [str(a) for a in st.legal_actions()]
['play B4', 'play B5', 'play B6']
>>> print(st.explain("play Y2"))
Illegal: rule C6.3 — the lead is B1 and you hold B4 B5 B6: you must play blue
>>> str(parse_action("g r2")), str(parse_action("R5")), str(parse_action("y"))
('give R2', 'play R5', 'want')
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence, Union

from ...core import (ANY, Event, Field, GameSpec, IllegalActionError, InvalidActionError, Mode, Option, Outcome,
                    Phase, State, number, plural, tuple_field)
from ...core.deck import check_deck, read_cards
from ...core.position import PositionError, Value, cards_text, deal_unknown, load_position, seat_text
from ...core.errors import quote, show
from ...core.spec import int_range, seat_or_random
from ...core.state import seat_name

PLAYERS = (2, 3, 4, 5)  # C2.1
HAND_SIZE = 6  # C4.2
TRICKS = 6  # C3.2
#: Colour letters in card order; the first five are the regular colours (C1.1), W the fixed trump.
LETTERS = "YBRPGW"
REGULAR = "YBRPG"
WHITE = 5
COLOUR_NAMES = ("yellow", "blue", "red", "purple", "green", "white")
#: Highest card number an option may give (a card is ``100 * colour + number``).
MAX_NUMBER = 99
DEFAULT_NUMBERS = (1, 2, 3, 4, 5, 6)  # C1.2
DEFAULT_BLOCKS = (3, 4, 5)  # C1.3
DEFAULT_WHITES = ((1, False), (6, False))  # C1.4
#: Suggested, unconfirmed coin names per colour (C1.6): display labels only.
DEFAULT_LABELS = {"Y": "Datcoin", "B": "Tipple", "R": "Boardano", "P": "Elixireum", "G": "Nether",
                  "W": "In-Fungible Trump"}

# --------------------------------------------------------------------------- cards (C0.3, C1)
#: ``NAMES[cid]``: the card's name, for every card any option can create.
NAMES = tuple(f"{LETTERS[k // 100]}{k % 100}" for k in range(600))
_CARD_IDS = {n.lower(): k for k, n in enumerate(NAMES)}


def card_id(token: Any) -> int | None:
    """The engine id of a card name (``"Y3"``, ``"w6"`` ...), else ``None``. Case-insensitive."""
    if not isinstance(token, str) or len(token) > 8:
        return None
    return _CARD_IDS.get(token.strip().lower())


def card_name(cid: int) -> str:
    """The name of an engine card id: ``card_name(203) == "R3"``."""
    return NAMES[cid]


def _names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def _fmt(cards: Iterable[int]) -> str:
    return " ".join(NAMES[c] for c in cards) or "—"


# --------------------------------------------------------------------------- options
def _int_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NUMBER


def _check_numbers(value: Any) -> str | None:
    if value is DEFAULT_NUMBERS:
        return None
    if (isinstance(value, (list, tuple)) and len(value) == HAND_SIZE and all(_int_ok(v) for v in value)
            and len(set(value)) == HAND_SIZE):
        return None
    return (f"allowed values: a list of {HAND_SIZE} different ints from 0 to {MAX_NUMBER} (6 cards per colour "
            f"leave exactly 2 cards after the deal, rule C4.3)")


def _check_blocks(value: Any) -> str | None:
    if value is DEFAULT_BLOCKS:
        return None
    if isinstance(value, (list, tuple, set, frozenset)) and all(_int_ok(v) for v in value) \
            and len(set(value)) == len(value):
        return None
    return f"allowed values: a set (or list) of different card numbers from 0 to {MAX_NUMBER}"


def _white_pair(p: Any) -> bool:
    return isinstance(p, (list, tuple)) and len(p) == 2 and _int_ok(p[0]) and isinstance(p[1], bool)


def _check_whites(value: Any) -> str | None:
    if value is DEFAULT_WHITES:
        return None
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_white_pair(p) for p in value) \
            and value[0][0] != value[1][0]:
        return None
    return ("allowed values: a list of 2 (number, has_block) pairs with different numbers from 0 to "
            f"{MAX_NUMBER}, e.g. [(1, False), (6, False)] (rule C1.4)")


def _check_colors(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = list(value)
    if isinstance(value, (list, tuple)) and 2 <= len(value) <= 5 and all(
            isinstance(c, str) and len(c) == 1 and c.upper() in REGULAR for c in value) \
            and len({c.upper() for c in value}) == len(value):
        return None
    return "allowed values: None (the first colours of Y, B, R, P, G) or a list of different letters from " \
           "Y, B, R, P, G, one per player (rule C2.3)"


def _check_labels(value: Any) -> str | None:
    if value is DEFAULT_LABELS:
        return None
    if isinstance(value, dict) and all(isinstance(k, str) and k.upper() in LETTERS and isinstance(v, str)
                                       and len(v) <= 40 for k, v in value.items()):
        return None
    return "allowed values: a dict {colour letter: label} with letters from Y, B, R, P, G, W and labels of " \
           "at most 40 characters"


def _norm_labels(value: dict) -> dict[str, str]:
    if value is DEFAULT_LABELS:  # shared, never mutated: views copy it
        return value
    given = {k.upper(): v for k, v in value.items()}
    return {k: given.get(k, DEFAULT_LABELS[k]) for k in LETTERS}


def _sorted_tuple(value: Any) -> tuple[int, ...]:
    return value if value is DEFAULT_NUMBERS or value is DEFAULT_BLOCKS else tuple(sorted(value))


def _norm_whites(value: Any) -> tuple[tuple[int, bool], ...]:
    return value if value is DEFAULT_WHITES else tuple(sorted((p[0], p[1]) for p in value))


SPEC = GameSpec(
    name="crypto_trick",
    title="Crypto Trick",
    version=1,
    summary="trick-taking with offered leads, two trump colours and block scoring, 2–5 players",
    modes=(Mode("standard", PLAYERS, rule="C2.1"),),
    options=(
        Option("numbers", DEFAULT_NUMBERS, check=_check_numbers, doc="the numbers of each regular colour",
               normalize=_sorted_tuple, rule="C1.2",
               label="Numbers on the cards",
               help="The six numbers of each regular colour.",
               values=((DEFAULT_NUMBERS, "1 to 6"),),
               accepts="six different whole numbers from 0 to 99 (set from code)",
               group="The cards and the deal"),
        Option("block_numbers", DEFAULT_BLOCKS, check=_check_blocks, doc="numbers carrying a block",
               normalize=_sorted_tuple, rule="C1.3",
               label="Numbers with a block",
               help="Which numbers carry a block.",
               values=((DEFAULT_BLOCKS, "3, 4 and 5"),),
               accepts="numbers of the cards (set from code)",
               group="The cards and the deal"),
        Option("white_cards", DEFAULT_WHITES, check=_check_whites, doc="(number, has_block) of the 2 white cards",
               normalize=_norm_whites, rule="C1.4",
               label="The white cards",
               help="The numbers of the two white trump cards, and whether they carry a block.",
               values=((DEFAULT_WHITES, "W1 and W6, no block"),),
               accepts="two (number, has a block) pairs (set from code)",
               group="The cards and the deal"),
        Option("colors", None, check=_check_colors, doc="the regular colours used; None: the first N of YBRPG",
               normalize=lambda v: None if v is None else tuple(c.upper() for c in v), rule="C2.3",
               label="Colours in play",
               help="Which regular colours are used, one per player.",
               values=((None, "The first ones of yellow, blue, red, purple, green"),),
               accepts="one letter per player from Y, B, R, P, G (such as YBR), or empty for the first ones",
               group="The cards and the deal"),
        Option("rounds", 3, check=int_range(1, 20), doc="rounds in a game", rule="C3.1",
               label="Rounds in a game",
               help="How many rounds a game lasts.",
               accepts="a whole number from 1 to 20",
               group="How long a game lasts"),
        Option("first_player", 0, check=seat_or_random(max(PLAYERS) - 1), doc="seat that starts round 1, or 'random'", rule="C2.5",
               label="Who starts the first round",
               help="The seat that plays first in round 1.",
               values=(("random", "A random seat"),),
               group="Who starts"),
        Option("declaration_mode", "single_pass_last", ("single_pass_last", "single_pass_first"),
               doc="who takes the offered card: the last or the first player to want it", rule="C5.4",
               label="Who takes the offered card",
               help="When several players want the offered card, which of them takes it.",
               values=(("single_pass_last", "The last player to want it"),
                       ("single_pass_first", "The first player to want it")),
               group="How play goes"),
        Option("trump_follow_unified", False, (False, True),
               doc="white and the indicator colour follow each other", rule="C6.4",
               label="Following a trump lead",
               help="Whether white and the indicator colour count as one colour when following.",
               values=((False, "Two colours: follow the one led"), (True, "One colour: either trump follows"),),
               group="How play goes"),
        Option("trump_ranking", "equal", ("equal", "white_high"), doc="white above the indicator colour",
               rule="C7.1",
               label="White among the trumps",
               help="Whether white ranks above the indicator colour.",
               values=(("equal", "Equal to the indicator colour"), ("white_high", "Above the indicator colour"),),
               group="How play goes"),
        Option("overload_score", "count", ("count", "negative_count"), doc="4+ blocks score +B or -B",
               rule="C9.2",
               label="Four or more blocks",
               help="What a won pile with 4 or more block cards scores.",
               values=(("count", "Plus the number of blocks"), ("negative_count", "Minus the number of blocks"),),
               group="Scoring and winning"),
        Option("exchange_visibility", "private", ("private", "public"), doc="who sees the given card",
               rule="C11.3",
               label="The exchanged card",
               help="Who sees the card given in an exchange.",
               values=(("private", "Only the two players"), ("public", "Everyone"),),
               group="What players see"),
        Option("won_pile_visibility", "public", ("public", "block_count_only"),
               doc="what others see of a won pile", rule="C11.5",
               label="Won piles",
               help="What the others see of a player's won pile.",
               values=(("public", "Every card"), ("block_count_only", "Only its size and blocks"),),
               group="What players see"),
        Option("color_labels", DEFAULT_LABELS, check=_check_labels, doc="display names of the colours",
               normalize=_norm_labels, rule="C1.6",
               label="Coin names",
               help="The names shown for the colours; they change no rule.",
               values=((DEFAULT_LABELS, "Datcoin, Tipple, Boardano, Elixireum, Nether, In-Fungible Trump"),),
               accepts="a table of colour letter → name (set from code)",
               group="What players see"),
    ),
    phases=(
        Phase("offer", ("reveal",), "the first player reveals a card to offer (C5.1)",
              refusals={"pass": ("C5.1", "the first player must offer a card: passing is not allowed")}),
        Phase("declare", ("want", "pass"), "the others say in turn whether they want it (C5.2)"),
        Phase("give", ("give",), "the declarer gives the first player a card (C5.5)",
              refusals={kind: ("C5.8", "the declarer may not withdraw or declare again: the only action now is "
                                       "to give the first player a card") for kind in ("want", "pass")}),
        Phase("follow", ("play",), "the followers play to the lead (C6)"),
        Phase("finished", ()),
    ),
    table="CryptoTrick",
    # Each trick: 1 reveal, at most N-1 declarations, at most 1 give and N-1 plays.
    max_actions=lambda players, options: options.get("rounds", 3) * TRICKS * 2 * players,
    pauses=("round_end",),
)


# --------------------------------------------------------------------------- actions (notation)
def _card_arg(card: Any, verb: str) -> int:
    c = card_id(card)
    if c is None:
        raise InvalidActionError(f"{verb}: {show(card)} is not a card; a card is a colour letter "
                                 f"Y B R P G W and a number, e.g. 'Y3'")
    return c


@dataclass(frozen=True, slots=True)
class _CardAction:
    """An action naming one card, written ``"<kind> <card>"``; subclasses set ``kind``."""

    kind = ""
    card: str
    cid: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        c = _card_arg(self.card, self.kind)
        object.__setattr__(self, "card", NAMES[c])
        object.__setattr__(self, "cid", c)

    def __str__(self) -> str:
        return self.kind + " " + self.card


@dataclass(frozen=True, slots=True)
class Reveal(_CardAction):
    """The first player reveals and offers ``card`` (C5.1).

    >>> Reveal("y3"), str(Reveal("Y3"))
    (Reveal(card='Y3'), 'reveal Y3')
    """

    kind = "reveal"


@dataclass(frozen=True, slots=True)
class Give(_CardAction):
    """The declarer gives ``card`` to the first player, face down (C5.5)."""

    kind = "give"


@dataclass(frozen=True, slots=True)
class Play(_CardAction):
    """A follower plays ``card`` (C6.2).

    >>> Play("r5"), str(Play("R5"))
    (Play(card='R5'), 'play R5')
    """

    kind = "play"


@dataclass(frozen=True, slots=True)
class Want:
    """Declare that you want the offered card (C5.2)."""

    kind = "want"

    def __str__(self) -> str:
        return "want"


@dataclass(frozen=True, slots=True)
class Pass:
    """Declare that you do not want the offered card (C5.2)."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


Action = Union[Reveal, Want, Pass, Give, Play]

# Interned actions: legal lists hand out the same objects every time.
_REVEAL = tuple(Reveal(n) for n in NAMES)
_GIVE = tuple(Give(n) for n in NAMES)
_PLAY = tuple(Play(n) for n in NAMES)
WANT, PASS = Want(), Pass()
_VERBS = {"reveal": _REVEAL, "r": _REVEAL, "give": _GIVE, "g": _GIVE, "play": _PLAY}
_WORDS = {"want": WANT, "y": WANT, "pass": PASS, "n": PASS}
_EXAMPLE = "expected 'reveal Y3' (r Y3), 'want' (y), 'pass' (n), 'give B2' (g B2) or 'play R5' (R5)"


def parse_action(text: str) -> Action:
    """Parse Crypto Trick notation, long or short form, in any case.

    ``reveal Y3`` / ``r Y3``, ``want`` / ``y``, ``pass`` / ``n``, ``give B2`` /
    ``g B2``, ``play R5`` / ``R5``. ``str()`` of the result is the long form.

    >>> [str(parse_action(t)) for t in ("r y3", "Y", "N", "G B2", "g2", "PLAY w6")]
    ['reveal Y3', 'want', 'pass', 'give B2', 'play G2', 'play W6']
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{show(text)} is not action text")
    tokens = text.lower().split()
    if not tokens:
        raise InvalidActionError(f"empty action text; {_EXAMPLE}")
    if len(tokens) == 1:
        tok = tokens[0]
        word = _WORDS.get(tok)
        if word is not None:
            return word
        c = _CARD_IDS.get(tok)
        if c is not None:
            return _PLAY[c]
        if tok in _VERBS:
            raise InvalidActionError(f"{quote(text)}: {tok!r} needs a card, e.g. '{tok} Y3'")
        raise InvalidActionError(f"{quote(text)}: {quote(tok, 16)} is neither a card nor a command; {_EXAMPLE}")
    if len(tokens) == 2:
        table = _VERBS.get(tokens[0])
        if table is not None:
            c = _CARD_IDS.get(tokens[1])
            if c is None:
                raise InvalidActionError(f"{quote(text)}: {quote(tokens[1], 16)} is not a card; a card is a colour "
                                         f"letter Y B R P G W and a number, e.g. 'Y3'")
            return table[c]
    raise InvalidActionError(f"{quote(text)}: {_EXAMPLE}")


# --------------------------------------------------------------------------- configuration
# Classes of C7.1 in the strength key (class * 1000 + number): the highest key wins,
# and a later card with an equal key wins too (C7.2).
_OFF, _LEAD, _TRUMP, _WHITE_HIGH = 0, 1, 2, 3
_CLASS_NAMES = ("off", "lead", "trump", "trump")


class Config:
    """The resolved options as tables the hot paths read (shared by every state alike)."""

    __slots__ = ("players", "colours", "deck", "deck_set", "block", "strength", "follow", "rounds", "first_mode",
                 "unified", "white_high", "negative", "public_give", "public_won", "labels", "block_numbers",
                 "white_cards", "bbit")

    def __init__(self, players: int, opts: dict[str, Any]) -> None:
        n = players
        letters = opts["colors"] or tuple(REGULAR[:n])
        if len(letters) != n:
            raise ValueError(f"colors={list(letters)!r} is not allowed: a {n}-player game uses exactly {n} regular "
                             f"colours (rule C2.2); allowed values: None or {n} different letters of Y, B, R, P, G")
        numbers, blocks = opts["numbers"], opts["block_numbers"]
        stray = sorted(set(blocks) - set(numbers))
        if stray:
            raise ValueError(f"block_numbers={list(blocks)!r} is not allowed: {', '.join(map(str, stray))} "
                             f"{'is' if len(stray) == 1 else 'are'} not among numbers {list(numbers)}, so no card "
                             f"would carry that block (rule C1.3); allowed values: numbers from {list(numbers)}")
        self.players = n
        self.colours = tuple(sorted(LETTERS.index(c) for c in letters))
        block = bytearray(600)
        deck = []
        for col in self.colours:
            for v in numbers:
                deck.append(100 * col + v)
                block[100 * col + v] = v in blocks
        for v, has in opts["white_cards"]:
            deck.append(100 * WHITE + v)
            block[100 * WHITE + v] = has
        self.deck = tuple(sorted(deck))  # C2.2: 6N + 2 cards
        # bbit[card]: the bit of its colour if it carries a block, else 0 (C9.1 counts both at once).
        self.bbit = tuple((1 << k // 100) if block[k] else 0 for k in range(600))
        self.deck_set = frozenset(deck)
        self.block = bytes(block)
        self.block_numbers = tuple(blocks)
        self.white_cards = tuple(opts["white_cards"])
        self.rounds = opts["rounds"]
        self.first_mode = opts["declaration_mode"] == "single_pass_first"
        self.unified = opts["trump_follow_unified"]
        self.white_high = opts["trump_ranking"] == "white_high"
        self.negative = opts["overload_score"] == "negative_count"
        self.public_give = opts["exchange_visibility"] == "public"
        self.public_won = opts["won_pile_visibility"] == "public"
        self.labels = opts["color_labels"]
        # strength[indicator colour][lead colour][card] and follow[indicator][lead]: the
        # card ranges (lo, hi, ...) that count as the lead colour for must-follow (C6.3, C6.4).
        self.strength = [[self._keys(t, lead) for lead in range(6)] for t in range(6)]
        self.follow = [[self._follow(t, lead) for lead in range(6)] for t in range(6)]

    def _keys(self, t: int, lead: int) -> list[int]:
        trumps = trump_set(t)
        keys = [0] * 600
        for c in self.deck:
            col = c // 100
            if col in trumps:
                cls = _WHITE_HIGH if (self.white_high and col == WHITE and t != WHITE) else _TRUMP
            else:
                cls = _LEAD if col == lead else _OFF
            keys[c] = cls * 1000 + c % 100
        return keys

    def _follow(self, t: int, lead: int) -> tuple[int, ...]:
        trumps = trump_set(t)
        cols = sorted(trumps) if (self.unified and lead in trumps) else [lead]
        return tuple(x for col in cols for x in (100 * col, 100 * col + 100))


def trump_set(indicator_colour: int) -> tuple[int, ...]:
    """C4.4: white and the indicator's colour; white alone for a white indicator."""
    return (WHITE,) if indicator_colour == WHITE else (indicator_colour, WHITE)


_CONFIGS: dict[tuple, Config] = {}


def _config(players: int, opts: dict[str, Any]) -> Config:
    key = (players, *[(None if v is DEFAULT_LABELS else tuple(sorted(v.items()))) if type(v) is dict else v
                      for v in opts.values()])
    hit = _CONFIGS.get(key)
    if hit is None:
        hit = Config(players, opts)
        if len(_CONFIGS) < 1000:
            _CONFIGS[key] = hit
    return hit


_DEFAULT_CONFIGS: dict[int, Config] = {}


def _default_config(players: int) -> Config:
    hit = _DEFAULT_CONFIGS.get(players)
    if hit is None:
        hit = _DEFAULT_CONFIGS[players] = _config(players, SPEC.defaults())
    return hit


def round_score(won: Iterable[int | str], block: bytes | Sequence[int], negative: bool = False) -> tuple[int, int, int]:
    """``(B, K, score)`` of a won pile (C9.1, C9.2): its cards as names or engine ids;
    ``block[id]`` says whether a card carries a block (``state.config.block``).

    >>> cfg = _default_config(5)
    >>> [round_score(pile.split(), cfg.block) for pile in ("Y1 B6", "Y3 B4 R1", "Y3 B4 R5 G6 W1", "Y3 Y4 B5 R3")]
    [(0, 0, 5), (2, 2, 4), (3, 3, 9), (4, 3, 4)]
    """
    won = [_cid(c) if isinstance(c, str) else c for c in won]
    blocks = [c for c in won if block[c]]
    b = len(blocks)
    k = len({c // 100 for c in blocks})
    if b == 0:
        score = 5
    elif b <= 3:
        score = b * k
    else:
        score = -b if negative else b
    return b, k, score


_POPCOUNT = tuple(bin(m).count("1") for m in range(64))


def _add_score(total: int, scored: tuple[int, int, int]) -> int:
    return total + scored[2]


def _score(won: Iterable[int], bbit: Sequence[int], negative: bool) -> tuple[int, int, int]:
    """:func:`round_score` from the ``Config.bbit`` table (the round-end fast path)."""
    b = m = 0
    for c in won:
        x = bbit[c]
        if x:
            b += 1
            m |= x
    if not b:
        return 0, 0, 5
    k = _POPCOUNT[m]
    return b, k, (b * k if b <= 3 else -b if negative else b)


# --------------------------------------------------------------------------- state
OFFER, DECLARE, GIVE, FOLLOW, FINISHED = range(5)
PHASES = ("offer", "declare", "give", "follow", "finished")


def _cid_list(cards: Any, what: str = "cards") -> list[int]:
    return read_cards(cards, card_id, what, "a card name like 'Y3'")


def _cid(card: Any, what: str = "card") -> int:
    k = card_id(card)
    if k is None:
        raise ValueError(f"{what}: {show(card)} is not a card name like 'Y3'")
    return k


def _opt_cid(card: Any) -> int | None:
    return None if card is None else _cid(card)


def _opt_name(c: int | None) -> str | None:
    return None if c is None else NAMES[c]


def _four(v: Any) -> list:
    if type(v) is not list or len(v) != 4:
        raise ValueError(f"expected a list of 4 entries, got {show(v)}")
    return v


def _seat_or_none(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"expected a seat number or None, got {show(v)}")
    return v


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _points(v: int) -> str:
    return f"{number(v)} {'point' if v == 1 else 'points'}"


def _score_words(b: int, k: int, score: int) -> str:
    if b == 0:
        return "no blocks = 5"
    if b <= 3:
        return f"{plural(b, 'block')} in {plural(k, 'colour')} = {score}"
    return f"{b} blocks = {number(score)} (no multiplier)"


def _record_dict(raw: tuple, cfg: Config) -> dict[str, Any]:
    """A round's result as JSON for views and events (C9): won piles, B, K, scores, totals."""
    rnd, ind, hid, won, scored, totals, last_winner = raw
    return {
        "round": rnd,
        "indicator": NAMES[ind],
        "hidden": None if hid is None else NAMES[hid],
        "won": [_names(w) for w in won],
        "blocks": [s[0] for s in scored],
        "colors": [s[1] for s in scored],
        "block_colors": [sorted({LETTERS[c // 100] for c in w if cfg.block[c]}, key=LETTERS.index) for w in won],
        "scores": [s[2] for s in scored],
        "totals": list(totals),
        "last_winner": last_winner,
    }


def _record_json(raw: tuple) -> list[Any]:
    rnd, ind, hid, won, scored, totals, last_winner = raw
    return [rnd, NAMES[ind], NAMES[hid], [_names(w) for w in won], [list(s) for s in scored], list(totals),
            last_winner]


def _small_int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**6:
        raise ValueError(f"expected a small int, got {show(v)}")
    return v


def _record_load(data: Any) -> tuple:
    if not isinstance(data, list) or len(data) != 7:
        raise ValueError("a round result is [round, indicator, hidden, won, scores, totals, last winner]")
    rnd, ind, hid, won, scored, totals, last_winner = data
    if not isinstance(won, list) or not isinstance(scored, list) or not isinstance(totals, list):
        raise ValueError("a round result holds lists of won piles, scores and totals")
    return (_small_int(rnd), _cid(ind), _cid(hid), tuple(tuple(_cid_list(w, "won")) for w in won),
            tuple(tuple(map(_small_int, sc)) if isinstance(sc, list) and len(sc) == 3 else _bad_score()
                  for sc in scored),
            tuple(map(_small_int, totals)), _small_int(last_winner))


def _bad_score() -> tuple:
    raise ValueError("a round score is [B, K, score]")


class CryptoTrickState(State):
    """A Crypto Trick game in progress. Build it with :func:`new_game` or :func:`setup_position`."""

    SPEC = SPEC
    action_types = (Reveal, Want, Pass, Give, Play)
    _parse = staticmethod(parse_action)

    # _hands: a sorted list of card ids per seat. _won: the cards each seat took this
    # round. _table: the cards of the trick in play order (the lead first; position i is
    # seat (leader + i) % N). _wants: bit s is set if seat s declared want this trick.
    # _gives: (trick, giver, receiver, card) of this round's exchanges. _out: cards of
    # the deck that are in no zone this round (hand-built positions only). _lseat and
    # _lmove: who made the last move and what it was (the views show it; a position
    # keeps it without a history). Between tricks the table is empty and nobody leads
    # or declares, so a saved state holds nothing stale.
    # Derived (not saved): _cfg, _str (strength keys of this trick), _fol (must-follow
    # ranges), _best/_win (the strongest key so far and who played it), _know.
    __slots__ = (
        "_cfg", "_hands", "_won", "_table", "_out", "_indicator", "_hidden_card", "_ph", "_cur", "_first",
        "_leader", "_declarer", "_offered", "_wants", "_round", "_trick", "_totals", "_results", "_gives",
        "_lseat", "_lmove", "_last_trick", "_str", "_fol", "_best", "_win", "_know", "is_terminal",
    )
    FIELDS = (
        Field("_cfg", save=False),
        Field("_hands", "lists", lambda hs: [_names(h) for h in hs],
              lambda hs: [sorted(_cid_list(h, "hands")) for h in hs]),
        Field("_won", "lists", lambda ws: [_names(w) for w in ws], lambda ws: [_cid_list(w, "won") for w in ws]),
        Field("_table", "list", _names, lambda t: _cid_list(t, "table")),
        Field("_out", encode=_names, decode=lambda o: tuple(_cid_list(o, "out"))),
        Field("_indicator", encode=card_name, decode=_cid),
        Field("_hidden_card", encode=card_name, decode=_cid),
        Field("_ph", encode=lambda p: PHASES[p], decode=lambda p: PHASES.index(p)),
        Field("_cur"), Field("_first"),
        Field("_leader", decode=_seat_or_none), Field("_declarer", decode=_seat_or_none),
        Field("_offered", encode=_opt_name, decode=_opt_cid),
        Field("_wants"), Field("_round"), Field("_trick"),
        tuple_field("_totals"),
        Field("_results", encode=lambda rs: [_record_json(r) for r in rs],
              decode=lambda rs: tuple(_record_load(r) for r in rs)),
        Field("_gives", encode=lambda gs: [[t, a, b, NAMES[c]] for t, a, b, c in gs],
              decode=lambda gs: tuple((g[0], g[1], g[2], _cid(g[3])) for g in map(_four, gs))),
        Field("_lseat", decode=_seat_or_none),
        Field("_lmove", encode=lambda a: None if a is None else str(a),
              decode=lambda a: None if a is None else parse_action(a)),
        Field("_last_trick", encode=lambda x: None if x is None else [x[0], x[1], _names(x[2]), x[3]],
              decode=lambda x: None if x is None else (x[0], x[1], _cid_list(_four(x)[2], "last_trick"), x[3])),
        Field("_str", save=False), Field("_fol", save=False), Field("_best", save=False), Field("_win", save=False),
        # What a seat knows of the round in play, for sample_world (a cache keyed by the history).
        Field("_know", save=False),
        # A plain slot, not a property: simulations read it once per action.
        Field("is_terminal", save=False),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return None if self._ph == FINISHED else self._cur

    @property
    def phase(self) -> str:
        """``"offer"``, ``"declare"``, ``"give"``, ``"follow"`` or ``"finished"``."""
        return PHASES[self._ph]

    @property
    def config(self) -> Config:
        return self._cfg

    @property
    def round(self) -> int:
        return self._round

    @property
    def trick(self) -> int:
        """The trick in play, 1 to 6."""
        return self._trick

    @property
    def first_player(self) -> int:
        """F, the seat that offers in this trick (C0.4)."""
        return self._first

    @property
    def declarer(self) -> int | None:
        """D, the seat that took the offered card this trick, if any (C5.4)."""
        return self._declarer

    @property
    def leader(self) -> int | None:
        """L, the seat whose card leads this trick (``None`` before the lead, C0.4)."""
        return self._leader if self._ph == FOLLOW else None

    @property
    def offered(self) -> str | None:
        """The card revealed in this trick's offer, until it is led."""
        return _opt_name(self._offered)

    @property
    def indicator(self) -> str:
        """This round's trump indicator (C4.3)."""
        return NAMES[self._indicator]

    @property
    def hidden_card(self) -> str:
        """This round's hidden card (teacher access: nobody sees it before the round ends, C11.4)."""
        return NAMES[self._hidden_card]

    @property
    def trumps(self) -> list[str]:
        """The trump colours of this round, as letters (C4.4)."""
        return [LETTERS[c] for c in sorted(trump_set(self._indicator // 100))]

    @property
    def table(self) -> list[tuple[int, str]]:
        """``(seat, card)`` of the trick so far, in play order (the lead first)."""
        n = self.players
        return [((self._leader + i) % n, NAMES[c]) for i, c in enumerate(self._table)] if self._ph == FOLLOW else []

    @property
    def totals(self) -> tuple[int, ...]:
        return self._totals

    def hand(self, seat: int) -> list[str]:
        """A seat's hand in card order (teacher access; players use :meth:`view`)."""
        return _names(self._hands[seat])

    def won(self, seat: int) -> list[str]:
        """The cards a seat has won this round."""
        return _names(self._won[seat])

    def card_class(self, card: str) -> str:
        """``"trump"``, ``"lead"`` or ``"off"``: the class of ``card`` in the trick in play (C7.1).

        >>> st = setup_position(4, [["B5"], ["R1"], ["Y2"], []], "R4", first=3, phase="follow",
        ...                     table=["W1"], declarations=["pass"] * 3)
        >>> [st.card_class(c) for c in ("W1", "R1", "Y2", "W6")]
        ['trump', 'trump', 'off', 'trump']
        """
        if self._ph != FOLLOW:
            raise ValueError("card classes exist only while a trick is being played (phase 'follow')")
        c = _cid(card)
        if c not in self._cfg.deck_set:
            raise ValueError(f"{NAMES[c]} is not a card of this game")
        return _CLASS_NAMES[self._str[c] // 1000]

    def score_now(self, seat: int) -> tuple[int, int, int]:
        """``(B, K, score)`` the seat's won pile would score if the round ended now (C9)."""
        return round_score(self._won[seat], self._cfg.block, self._cfg.negative)

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Action]:
        """Legal actions, in card order (colours Y B R P G W, then number): ``reveal``
        each card in hand; ``want`` then ``pass``; ``give`` each card in hand; ``play``
        each card that follows the lead colour, or every card when none does (C6.3)."""
        # Plain loops, not comprehensions: a comprehension costs a call of its own, and
        # simulations ask for the legal actions once per action.
        ph = self._ph
        if ph == FOLLOW:
            out: list[Action] = []
            hand = self._hands[self._cur]
            fol = self._fol
            # A hand is sorted, so the cards of a colour are one slice of it (C6.3).
            lo = bisect_left(hand, fol[0])
            hi = bisect_left(hand, fol[1], lo)
            if len(fol) == 2:
                for c in (hand[lo:hi] if lo != hi else hand):
                    out.append(_PLAY[c])
                return out
            lo2 = bisect_left(hand, fol[2], hi)
            hi2 = bisect_left(hand, fol[3], lo2)
            for c in (hand[lo:hi] + hand[lo2:hi2] if lo != hi or lo2 != hi2 else hand):
                out.append(_PLAY[c])
            return out
        if ph == DECLARE:
            return [WANT, PASS]
        out = []
        table = _REVEAL if ph == OFFER else _GIVE if ph == GIVE else None
        if table is not None:
            for c in self._hands[self._cur]:
                out.append(table[c])
        return out

    _legal = legal_actions

    def _diagnose(self, action: Action) -> tuple[str, str] | None:
        # From what the actor sees only: their own hand and the table.
        t = type(action)
        if t is Want or t is Pass:
            return None  # the phase check (G2) and the turn (G3) are all C5.2 asks
        hand = self._hands[self._cur]
        c = action.cid
        rule = "C5.1" if t is Reveal else "C5.5" if t is Give else "C6.2"
        if c not in hand:
            if c not in self._cfg.deck_set:
                return rule, f"{NAMES[c]} is not a card of this game (your hand: {_fmt(hand)})"
            return rule, f"you hold no {NAMES[c]} (your hand: {_fmt(hand)})"
        if t is Play:
            fol = self._fol
            cols = [fol[i] // 100 for i in range(0, len(fol), 2)]
            if c // 100 not in cols:
                same = [x for x in hand if x // 100 in cols]
                if same:
                    if len(cols) == 1:
                        need = COLOUR_NAMES[cols[0]]
                    else:
                        need = "a trump (" + " or ".join(COLOUR_NAMES[x] for x in cols) + \
                               ", which follow each other here)"
                    note = ""
                    trumps = trump_set(self._indicator // 100)
                    if len(cols) == 1 and len(trumps) == 2 and c // 100 in trumps and cols[0] in trumps:
                        note = (f"; {NAMES[c]} is a trump too, but white and "
                                f"{COLOUR_NAMES[self._indicator // 100]} are different colours for following "
                                f"(rule C6.4)")
                    return "C6.3", (f"the lead is {NAMES[self._table[0]]} and you hold {_fmt(same)}: you must "
                                    f"play {need}{note}")
        return None

    # ------------------------------------------------------------- the one transition path
    def apply_unchecked(self, a: Action) -> None:
        """Simulation fast path (see :meth:`State.apply_unchecked`): the steps of ``_apply``
        without narration, in one call. The conformance tests compare the two paths on every
        step of random games of every configuration."""
        p = self._cur
        self._lseat = p
        self._lmove = a
        ph = self._ph
        self._history = (self._history, a)
        self._moves += 1
        if ph == FOLLOW:  # C6.2
            c = a.cid
            self._hands[p].remove(c)
            table = self._table
            table.append(c)
            k = self._str[c]
            if k >= self._best:  # C7.2: an equal card played later wins
                self._best = k
                self._win = p
            if len(table) < self.players:
                p += 1
                self._cur = 0 if p == self.players else p
            elif self._trick == TRICKS:
                self._end_trick(None)
            else:  # _end_trick without narration, for the tricks before the last (C8.1, C8.2)
                w = self._win
                self._won[w].extend(table)
                self._last_trick = (self._trick, self._leader, table, w)
                self._table = []
                self._declarer = self._leader = None
                self._wants = 0
                self._trick += 1
                self._first = self._cur = w
                self._ph = OFFER
            return
        if ph == DECLARE:  # C5.2
            if type(a) is Want:
                self._wants |= 1 << p
                self._declarer = p
                if self._cfg.first_mode:  # C5.4: the first want takes it
                    self._ph = GIVE
                    return
            p += 1
            if p == self.players:
                p = 0
            if p != self._first:
                self._cur = p
                return
            if self._declarer is not None:  # C5.4: the declarer gives
                self._ph = GIVE
                self._cur = self._declarer
                return
            # C5.3: nobody wants it, so the first player leads (p is back to them)
        elif ph == OFFER:  # C5.1
            c = a.cid
            self._hands[p].remove(c)
            self._offered = c
            self._ph = DECLARE
            p += 1
            self._cur = 0 if p == self.players else p
            return
        else:  # GIVE: C5.5, then the declarer leads (C5.6)
            c = a.cid
            f = self._first
            self._hands[p].remove(c)
            insort(self._hands[f], c)
            self._gives += ((self._trick, p, f, c),)
        # The offered card leads (_lead without narration): p is the lead player.
        c = self._offered
        self._offered = None
        self._leader = self._win = p
        self._table = [c]
        cfg = self._cfg
        lc = c // 100
        s = self._str = cfg.strength[self._indicator // 100][lc]
        self._fol = cfg.follow[self._indicator // 100][lc]
        self._best = s[c]
        self._ph = FOLLOW
        p += 1
        self._cur = 0 if p == self.players else p

    def _apply(self, a: Action, ev: list[Event] | None) -> None:
        # The phase says which kind of action this is: the base refuses any other (G2).
        p = self._cur
        self._lseat = p
        self._lmove = a
        ph = self._ph
        if ph == FOLLOW:  # C6.2: a follower plays
            c = a.cid
            self._hands[p].remove(c)
            table = self._table
            table.append(c)
            k = self._str[c]
            if k >= self._best:  # C7.2: an equal card played later wins
                self._best = k
                self._win = p
            if ev is not None:
                self._say_play(p, c, ev)
            if len(table) == self.players:
                self._end_trick(ev)
            else:
                p += 1
                self._cur = 0 if p == self.players else p
        elif ph == DECLARE:  # C5.2
            if type(a) is Want:
                self._wants |= 1 << p
                self._declarer = p
                if ev is not None:
                    ev.append(Event("declare", {"seat": p, "want": True}, "C5.2",
                                    f"{self.seat_label(p)} wants {NAMES[self._offered]} (rule C5.2)."))
                if self._cfg.first_mode:
                    self._to_give(ev)
                    return
            elif ev is not None:
                ev.append(Event("declare", {"seat": p, "want": False}, "C5.2",
                                f"{self.seat_label(p)} passes (rule C5.2)."))
            p += 1
            if p == self.players:
                p = 0
            if p != self._first:
                self._cur = p
            elif self._declarer is None:
                if ev is not None:
                    ev.append(Event("no_taker", {"seat": self._first, "card": NAMES[self._offered]}, "C5.3",
                                    f"Nobody wants {NAMES[self._offered]} (rule C5.3)."))
                self._lead(self._first, ev)
            else:
                self._to_give(ev)
        elif ph == OFFER:  # C5.1 (the declarer was cleared when the last trick ended)
            c = a.cid
            self._hands[p].remove(c)
            self._offered = c
            self._ph = DECLARE
            if ev is not None:
                ev.append(Event("reveal", {"seat": p, "card": NAMES[c]}, "C5.1",
                                f"{self.seat_label(p)} reveals {NAMES[c]} and offers it (rule C5.1)."))
            p += 1
            self._cur = 0 if p == self.players else p
        else:  # GIVE (C5.5): the declarer hands the first player a card, then leads (C5.6).
            c = a.cid
            f = self._first
            self._hands[p].remove(c)
            insort(self._hands[f], c)
            self._gives += ((self._trick, p, f, c),)
            if ev is not None:
                self._say_give(p, f, c, ev)
            self._lead(p, ev)

    def _say_give(self, p: int, f: int, c: int, ev: list[Event]) -> None:
        d, r = self.seat_label(p), self.seat_label(f)
        if self._cfg.public_give:
            ev.append(Event("give", {"seat": p, "to": f, "card": NAMES[c]}, "C5.5",
                            f"{d} gives {r} {NAMES[c]}, face up for all to see (rules C5.5, C11.3)."))
        else:
            ev.append(Event("give", {"seat": p, "to": f, "card": None}, "C5.5",
                            f"{d} gives {r} a card face down (rule C5.5)."))
            ev.append(Event("give_card", {"seat": p, "to": f, "card": NAMES[c]}, "C11.3",
                            f"The card is {NAMES[c]}: only {d} and {r} know it (rule C11.3).", audience=(p, f)))

    def _to_give(self, ev: list[Event] | None) -> None:
        """C5.4: the declarer is settled; they must now give the first player a card."""
        d = self._declarer
        self._ph = GIVE
        self._cur = d
        if ev is not None:
            who, card = self.seat_label(d), NAMES[self._offered]
            if self._cfg.first_mode:
                text = (f"{who} is the declarer: the first player to want {card} takes it, and nobody after "
                        f"declares (declaration_mode single_pass_first, rule C5.4).")
            elif self._wants & (self._wants - 1):
                text = f"{who} is the declarer: of the players who wanted {card}, {who} declared last (rule C5.4)."
            else:
                text = f"{who} is the declarer: the only player who wanted {card} (rule C5.4)."
            ev.append(Event("declarer", {"seat": d, "card": card}, "C5.4", text))

    def _lead(self, leader: int, ev: list[Event] | None) -> None:
        """The offered card becomes the lead card of ``leader`` (C5.3, C5.6); following starts (C6.2)."""
        c = self._offered
        self._offered = None
        self._leader = leader
        self._table = [c]
        t = self._indicator // 100
        lc = c // 100
        cfg = self._cfg
        s = self._str = cfg.strength[t][lc]
        self._fol = cfg.follow[t][lc]
        self._best = s[c]
        self._win = leader
        self._ph = FOLLOW
        nxt = leader + 1
        self._cur = 0 if nxt == self.players else nxt
        if ev is not None:
            who = self.seat_label(leader)
            if leader == self._first:
                text = f"{who} leads {NAMES[c]} (rule C5.3)."
                rule = "C5.3"
            else:
                text = f"{who} leads {NAMES[c]}, the card {self.seat_label(self._first)} offered (rule C5.6)."
                rule = "C5.6"
            text += f" {self.seat_label(self._cur)} follows first (rule C6.2)."
            ev.append(Event("lead", {"seat": leader, "card": NAMES[c], "colour": LETTERS[lc],
                                     "declarer": self._declarer}, rule, text))

    def _say_play(self, p: int, c: int, ev: list[Event]) -> None:
        lead = self._table[0]
        fol = self._fol
        cols = [fol[i] // 100 for i in range(0, len(fol), 2)]
        who = self.seat_label(p)
        follows = c // 100 in cols
        if follows:
            what = COLOUR_NAMES[lead // 100] if len(cols) == 1 else "the trumps"
            text = f"{who} follows {what} with {NAMES[c]} (rule C6.3)."
        else:
            what = COLOUR_NAMES[lead // 100] if len(cols) == 1 else "trump"
            text = f"{who} has no {what} and plays {NAMES[c]} (rule C6.3)."
        ev.append(Event("play", {"seat": p, "card": NAMES[c], "position": len(self._table), "forced": follows},
                        "C6.3", text))

    def _end_trick(self, ev: list[Event] | None) -> None:
        """C7.3, C8: the strongest card takes the trick; its player opens the next one."""
        w = self._win
        table = self._table
        self._won[w].extend(table)
        self._last_trick = (self._trick, self._leader, table, w)
        if ev is not None:
            self._say_trick(w, table, ev)
        self._table = []
        self._declarer = self._leader = None
        self._wants = 0
        t = self._trick + 1
        if t > TRICKS:
            self._end_round(w, ev)
            return
        self._trick = t
        self._first = self._cur = w
        self._ph = OFFER
        if ev is not None:
            ev.append(Event("next_trick", {"seat": w, "trick": t}, "C8.2",
                            f"{self.seat_label(w)} opens trick {t} with an offer (rule C8.2)."))

    def _say_trick(self, w: int, table: list[int], ev: list[Event]) -> None:
        n = self.players
        s = self._str
        leader = self._leader
        pos = (w - leader) % n
        c = table[pos]
        key = s[c]
        cls = key // 1000
        lead = table[0]
        rivals = [table[i] for i in range(n) if i != pos]
        equal = [x for x in rivals if s[x] == key]
        if equal:
            why = f"{NAMES[c]} ties {_fmt(equal)} and was played later"
        elif cls == _WHITE_HIGH and any(s[x] // 1000 == _TRUMP for x in rivals):
            why = "white ranks above the indicator colour (trump_ranking white_high)"
        elif cls >= _TRUMP and any(s[x] // 1000 == _LEAD for x in table):
            why = f"a trump beats the lead colour {COLOUR_NAMES[lead // 100]}"
        elif cls >= _TRUMP:
            why = "the highest trump"
        else:
            why = f"the highest {COLOUR_NAMES[lead // 100]} card, and no trump was played"
        blocks = sum(self._cfg.block[x] for x in table)
        ev.append(Event("trick", {"trick": self._trick, "winner": w, "card": NAMES[c], "cards": _names(table),
                                  "leader": leader},
                        "C7.2", f"{self.seat_label(w)} wins trick {self._trick} with {NAMES[c]}: {why} (rule C7.2). "
                                f"{self.seat_label(w)} takes the {len(table)} cards, {plural(blocks, 'block card')} "
                                f"among them (rule C8.1)."))

    def _end_round(self, last_winner: int, ev: list[Event] | None) -> None:
        """C8.3, C9: score the round; then show the hidden card and deal again, or end the game (C10)."""
        cfg = self._cfg
        n = self.players
        bbit, negative = cfg.bbit, cfg.negative
        scored = tuple(map(_score, self._won, (bbit,) * n, (negative,) * n))
        totals = tuple(map(_add_score, self._totals, scored))
        self._totals = totals
        won = tuple(map(tuple, self._won))
        if ev is not None:
            record = _record_dict((self._round, self._indicator, None, won, scored, totals, last_winner), cfg)
            if self.options["won_pile_visibility"] == "block_count_only":
                del record["won"]  # a public event carries only what every seat may see (C11.5)
            parts = "; ".join(f"{self.seat_label(s)} {_score_words(*scored[s])}" for s in range(n))
            tot = ", ".join(f"{self.seat_label(s)} {number(totals[s])}" for s in range(n))
            ev.append(Event("round_end", record, "C9.2",
                            f"Round {self._round} is over after {TRICKS} tricks (rule C8.3). Scores (rule C9.2): "
                            f"{parts}. Totals (rule C9.4): {tot}."))
        # What follows shows a card nobody has seen, then deals from a shuffle.
        self._hidden(ev, "the hidden card is turned up (rule C11.4)")
        self._results += ((self._round, self._indicator, self._hidden_card, won, scored, totals, last_winner),)
        if ev is not None:
            ev.append(Event("hidden_card", {"round": self._round, "card": NAMES[self._hidden_card]}, "C11.4",
                            f"The hidden card of round {self._round} was {NAMES[self._hidden_card]} (rule C11.4)."))
        if self._round < cfg.rounds:
            self._round += 1
            self._deal(last_winner, None, ev)
            return
        self._ph = FINISHED
        self.is_terminal = True
        if ev is not None:
            out = self.outcome()
            ev.append(Event("game_end", {"winners": list(out.winners), "totals": list(totals)}, "C10.1",
                            f"The game is over: {out.reason}."))

    def _deal(self, first: int, order: list[int] | None, ev: list[Event] | None) -> None:
        """C4: shuffle (unless ``order``, top first, is given), deal 6 each from ``first``
        clockwise, turn up the indicator and set the hidden card aside."""
        cfg = self._cfg
        n = self.players
        given = order is not None
        if order is None:
            order = list(cfg.deck)
            self._shuffle(order)
        dealt = HAND_SIZE * n
        hands: list[Any] = [None] * n
        for j in range(n):
            h = order[j:dealt:n]
            h.sort()
            hands[(first + j) % n] = h
        self._hands = hands
        self._indicator = order[dealt]
        self._hidden_card = order[dealt + 1]
        self._won = [[], [], [], [], []][:n]
        self._table = []
        self._out = ()
        self._gives = ()
        self._trick = 1
        self._first = self._cur = first
        self._leader = self._declarer = self._offered = None
        self._wants = 0
        self._ph = OFFER
        self._last_trick = None
        if ev is not None:
            ind = self._indicator
            deal, shown = _deal_texts(self._round, cfg.rounds, len(cfg.deck), given, self.seat_label(first), ind)
            ev.append(Event("deal", {"round": self._round, "first": first}, "C4.2", deal))
            trumps = [LETTERS[c] for c in sorted(trump_set(ind // 100))]
            ev.append(Event("indicator", {"card": NAMES[ind], "trumps": trumps}, "C4.4", shown))

    # ------------------------------------------------------------- outcome
    def outcome(self) -> Outcome | None:
        """Winners: every seat with the highest total (C10.1). Scores: the totals."""
        if self._ph != FINISHED:
            return None
        best = max(self._totals)
        winners = tuple(s for s, t in enumerate(self._totals) if t == best)
        rounds = plural(self._cfg.rounds, "round")
        points = _points(best)
        if len(winners) == 1:
            reason = f"{self.seat_label(winners[0])} wins with {points}, the highest total after {rounds} (rule C10.1)"
        else:
            names = ", ".join(self.seat_label(s) for s in winners[:-1]) + f" and {self.seat_label(winners[-1])}"
            reason = f"{names} share the win with {points} each, the highest total after {rounds} (rule C10.1)"
        return Outcome(winners, tuple(self._totals), reason)

    # ------------------------------------------------------------- cards
    def all_cards(self) -> Counter:
        """Every card in every zone: hands, won piles, the trick, the offer, the indicator,
        the hidden card (and cards a hand-built position left out)."""
        c: Counter = Counter()
        for h in self._hands:
            c.update(_names(h))
        for w in self._won:
            c.update(_names(w))
        if self._ph == FOLLOW:
            c.update(_names(self._table))
        if self._offered is not None:
            c[NAMES[self._offered]] += 1
        c.update(_names(self._out))
        c[NAMES[self._indicator]] += 1
        c[NAMES[self._hidden_card]] += 1
        return c

    def _deck_counter(self) -> Counter:
        return Counter(_names(self._cfg.deck))

    # ------------------------------------------------------------- views
    def _gives_for(self, seat: int | None) -> list[dict[str, Any]]:
        pub = self._cfg.public_give
        return [{"trick": t, "from": a, "to": b,
                 "card": NAMES[c] if (pub or seat is None or seat in (a, b)) else None}
                for t, a, b, c in self._gives]

    def _declarations(self) -> list[dict[str, Any]]:
        """This trick's declarations so far, in order (C5.2)."""
        n, f = self.players, self._first
        if self._ph == OFFER or self._ph == FINISHED:
            return []
        if self._ph == DECLARE:
            made = (self._cur - f - 1) % n
        elif self._cfg.first_mode and self._declarer is not None:
            made = (self._declarer - f) % n
        else:
            made = n - 1
        seats = [(f + i) % n for i in range(1, made + 1)]
        return [{"seat": s, "want": bool(self._wants >> s & 1)} for s in seats]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (C11); ``None`` is the teacher view with every hand and the hidden card."""
        self.check_seat(seat)
        cfg = self._cfg
        n = self.players
        out = self.outcome()
        shows_pile = [cfg.public_won or seat is None or s == seat for s in range(n)]
        scored = [round_score(w, cfg.block, cfg.negative) for w in self._won]
        results = []
        for raw in self._results:
            r = _record_dict(raw, cfg)
            r["won"] = [w if shows_pile[s] else None for s, w in enumerate(r["won"])]
            results.append(r)
        tc = self._indicator // 100
        follow = self._ph == FOLLOW
        v = {
            "game": "crypto_trick",
            "players": n,
            "names": [self.seat_label(s) for s in range(n)],
            "seat": seat,
            "phase": self.phase,
            "current": self.current_player,
            "round": self._round,
            "rounds": cfg.rounds,
            "trick": self._trick,
            "tricks": TRICKS,
            "colors": [LETTERS[c] for c in cfg.colours],
            "labels": dict(cfg.labels),
            "cards": _names(cfg.deck),
            "block_cards": [NAMES[c] for c in cfg.deck if cfg.block[c]],
            "rules": {"declaration_mode": self.options["declaration_mode"],
                      "trump_follow_unified": cfg.unified, "trump_ranking": self.options["trump_ranking"],
                      "overload_score": self.options["overload_score"],
                      "exchange_visibility": self.options["exchange_visibility"],
                      "won_pile_visibility": self.options["won_pile_visibility"]},
            "indicator": NAMES[self._indicator],
            "trumps": [LETTERS[c] for c in sorted(trump_set(tc))],
            "first": self._first,
            "offered": _opt_name(self._offered),
            "declarations": self._declarations(),
            "declarer": self._declarer if self._ph in (GIVE, FOLLOW) else None,
            "leader": self._leader if follow else None,
            "lead_color": LETTERS[self._table[0] // 100] if follow else None,
            "table": ([{"seat": (self._leader + i) % n, "card": NAMES[c], "position": i + 1,
                        "class": _CLASS_NAMES[self._str[c] // 1000]}
                       for i, c in enumerate(self._table)] if follow else []),
            "winning": self._win if follow else None,
            "last_trick": None if self._last_trick is None else {
                "trick": self._last_trick[0], "leader": self._last_trick[1], "winner": self._last_trick[3],
                "cards": [{"seat": (self._last_trick[1] + i) % n, "card": NAMES[c]}
                          for i, c in enumerate(self._last_trick[2])]},
            "gives": self._gives_for(seat),
            "hands": [_names(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "won": [_names(w) if shows_pile[s] else None for s, w in enumerate(self._won)],
            "won_counts": [len(w) for w in self._won],
            "won_blocks": [sc[0] for sc in scored],
            "won_block_colors": [[LETTERS[c // 100] for c in w if cfg.block[c]] for w in self._won],
            "score_now": [sc[2] for sc in scored],
            "totals": list(self._totals),
            "round_scores": [r["scores"] for r in results],
            "results": results,
            "hidden_card": NAMES[self._hidden_card] if seat is None else None,
            "last_action": self._last_action(seat),
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None and self._out:
            v["out"] = _names(self._out)
        return v

    def _last_action(self, seat: int | None) -> dict[str, Any] | None:
        """The last action as ``seat`` saw it: a private give shows no card to the others (C11.3)."""
        last = self._lmove
        if last is None:
            return None
        text = str(last)
        if type(last) is Give and not self._cfg.public_give and seat is not None and seat != self._lseat:
            receiver = self._gives[-1][2] if self._gives else None
            if seat != receiver:
                text = "give"
        return {"seat": self._lseat, "action": text}

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        names = v["names"]
        trumps = "+".join(v["trumps"])
        lines = [f"Crypto Trick · {n} players · round {v['round']}/{v['rounds']} · "
                 f"trick {v['trick']}/{v['tricks']} · indicator {v['indicator']} (trumps {trumps}) · "
                 f"phase {v['phase']}"]
        if v["offered"] is not None:
            decl = " ".join(f"{names[d['seat']]}:{'want' if d['want'] else 'pass'}" for d in v["declarations"])
            lines.append(f"Offer: {v['offered']} by {names[v['first']]}" + (f" · {decl}" if decl else ""))
        if v["table"]:
            lines.append("Trick: " + " ".join(f"{names[t['seat']]}:{t['card']}" for t in v["table"])
                         + f" (lead {names[v['leader']]})")
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            hand = v["hands"][s]
            cards = " ".join(hand) if hand is not None else f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            won = v["won"][s]
            pile = " ".join(won) if won is not None else f"{plural(v['won_counts'][s], 'card')}"
            lines.append(f"{mark} {names[s]} [{cards or '—'}] · won {pile or '—'} · "
                         f"blocks {v['won_blocks'][s]} · now {v['score_now'][s]} · total {v['totals'][s]}")
        if v.get("hidden_card") is not None:
            lines.append(f"Hidden card {v['hidden_card']}")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    def ui_candidates(self, seat: int | None) -> list[str]:
        """What a table offers the seat to act for its own cards, so it can say why one is
        refused: ``reveal``, ``give`` or ``play`` each card in hand (a card that does not
        follow the lead colour is refused with C6.3), ``want`` and ``pass`` when declaring.
        Nothing for a seat that is not to act."""
        self.check_seat(seat)
        if seat is None or self._ph == FINISHED or seat != self._cur:
            return []
        if self._ph == DECLARE:
            return ["want", "pass"]
        verb = ("reveal", "", "give", "play")[self._ph]
        return [f"{verb} {NAMES[c]}" for c in self._hands[seat]]

    # ------------------------------------------------------------- worlds
    def _sample(self, seat: int, rng: Any) -> "CryptoTrickState":
        """A world ``seat`` cannot tell from this one (see :class:`_Knowledge` for what it keeps).

        The other hands, the hidden card and the cards left out are dealt again among the
        places each card can be; an exchange ``seat`` did not see gets a card that fits.
        The world has no history: its last move, which the views show, is kept (with the
        world's card when it was an exchange ``seat`` did not see), and so is what ``seat``
        worked out from the history, for sampling again from the world."""
        world = self.clone()
        world._history, world._moves, world._know = None, 0, None
        if self._ph == FINISHED:
            return world  # nothing is hidden any more
        know = self._knowledge(seat)
        # The world has no history to recount the round from, but the seat remembers it: the
        # world keeps the seat's knowledge (until a move is made in it), so the worlds sampled
        # from a world are those sampled from this position, whatever the hidden cards.
        world._know = (None, {seat: know})
        deal, chosen = know.world(rng)
        for i, p in enumerate(know.others):
            world._hands[p] = sorted(deal[i])
        world._hidden_card = deal[know.hid][0]
        world._out = tuple(sorted(deal[know.hid + 1]))
        for p, colours, spots in know.piles:
            # The pile's unseen cards again: its block colours in the order the view shows,
            # its other cards among them anywhere (the view does not say where).
            dealt = {key: rng.sample(deal[i], len(deal[i])) for key, i in spots.items()}
            size = len(colours) + len(dealt.get(-1, ()))
            plain = set(rng.sample(range(size), len(dealt.get(-1, ()))))
            blocks = iter(colours)
            prefix = [dealt[-1 if i in plain else next(blocks)].pop() for i in range(size)]
            world._won[p] = prefix + world._won[p][size:]
        if chosen:
            gives = list(world._gives)
            for gi, c in chosen.items():
                t, a, r, _ = gives[gi]
                gives[gi] = (t, a, r, c)
            world._gives = tuple(gives)
            if type(world._lmove) is Give and world._gives[-1][0] == self._trick:
                world._lmove = _GIVE[world._gives[-1][3]]
        return world

    def _knowledge(self, seat: int) -> "_Knowledge":
        """What ``seat`` knows, worked out once per position (a search samples many worlds)."""
        cache = self._know
        if cache is None or cache[0] is not self._history:
            cache = self._know = (self._history, {})
        know = cache[1].get(seat)
        if know is None:
            know = cache[1][seat] = _Knowledge(self, seat)
        return know

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        """The fields of :meth:`to_position` (the grammar is in the rules reference, "Position text")."""
        name = NAMES.__getitem__
        out = [("round", str(self._round)), ("trick", str(self._trick)), ("phase", self.phase),
               ("turn", seat_text(self.current_player)), ("first", seat_text(self._first)),
               ("indicator", NAMES[self._indicator]), ("hidden", NAMES[self._hidden_card]),
               ("hands", "/".join(cards_text(h, name) for h in self._hands))]
        if self._offered is not None:
            out.append(("offer", NAMES[self._offered]))
        declared = self._declarations()
        if declared:
            out.append(("declared", "".join("y" if d["want"] else "n" for d in declared)))
        if self._table:
            out.append(("table", cards_text(self._table, name)))
        if any(self._won):
            out.append(("won", "/".join(cards_text(w, name) for w in self._won)))
        if self._last_trick is not None:
            out.append(("last", f"{seat_text(self._last_trick[1])}:{cards_text(self._last_trick[2], name)}"))
        if self._gives:
            out.append(("gives", ",".join(f"{t}:{seat_text(a)}>{seat_text(r)}:{NAMES[c]}"
                                          for t, a, r, c in self._gives)))
        if self._lmove is not None:
            out.append(("move", f"{seat_text(self._lseat)}:{str(self._lmove).replace(' ', ':')}"))
        if self._out:
            out.append(("out", cards_text(self._out, name)))
        if any(self._totals) or self._results:
            out.append(("totals", ",".join(map(str, self._totals))))
        if self._results:
            out.append(("past", ";".join(f"{NAMES[r[1]]}:{NAMES[r[2]]}:{seat_text(r[6])}:"
                                         + "/".join(cards_text(w, name) for w in r[3]) for r in self._results)))
        return out

    def _load_position(self, parsed: Any) -> None:
        _PositionReader(self, parsed).load()

    def __repr__(self) -> str:
        return (f"<CryptoTrickState players={self.players} seed={self.seed} moves={self._moves} "
                f"round={self._round} trick={self._trick} phase={self.phase}>")

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = _config(self.players, self.options)
        self.is_terminal = self._ph == FINISHED
        self._know = None
        # The trick's strength table comes once the fields are checked (_check_loaded).
        self._str, self._fol, self._best, self._win = None, (0, 0), -1, None

    def _derive_trick(self) -> None:
        """The strength table, must-follow ranges and the standing winner of the trick in play."""
        if self._ph == FOLLOW and self._table:
            t = self._indicator // 100
            lc = self._table[0] // 100
            s = self._str = self._cfg.strength[t][lc]
            self._fol = self._cfg.follow[t][lc]
            best, win = -1, self._leader
            for i, c in enumerate(self._table):
                if s[c] >= best:
                    best, win = s[c], (self._leader + i) % self.players
            self._best, self._win = best, win
        else:
            self._str, self._fol, self._best, self._win = None, (0, 0), -1, None

    def _size_problem(self) -> str | None:
        """Why the hand sizes do not fit the phase and trick (C5.7), or ``None``. Whoever has a
        card down this trick (offered, led or followed) holds h - 1 cards, the others h."""
        n = self.players
        sizes = [len(h) for h in self._hands]
        if self._ph == FINISHED:
            expect = [0] * n
        else:
            h = TRICKS + 1 - self._trick
            if self._ph in (DECLARE, GIVE):
                acted = {self._first}
            elif self._ph == FOLLOW:
                acted = {(self._leader + i) % n for i in range(len(self._table))}
            else:
                acted = set()
            expect = [h - 1 if s in acted else h for s in range(n)]
        if sizes != expect:
            return (f"hands of {sizes} cards do not fit trick {self._trick} in phase {self.phase!r} (expected "
                    f"{expect}): everyone holds the same number at the start of a trick and one fewer once their "
                    f"card is down (rule C5.7)")
        return None

    def _check_loaded(self) -> None:
        """Refuse a state that no game, and no hand-built position, can be in.

        Every field's type and range first; then how they fit together: who acts in
        each phase (C5.1 to C6.2), the declarer (C5.4), hand sizes (C5.7), every card
        of the deck exactly once, the follow rule on what was played (C6.3), the last
        trick and its winner (C7, C8), the exchanges (C5.5), the rounds scored so far
        (C9) and the last move. Raises :class:`ValueError` (a ``_Bad`` naming the field).
        """
        n = self.players
        cfg = self._cfg
        fp = self.options["first_player"]
        if fp != "random" and fp >= n:
            _bad(f"first_player={fp} is not a seat of a {n}-player game (rule C2.5)", "first_player")
        self._check_types(n, cfg)
        self._check_phase(n, cfg)
        problem = self._size_problem()
        if problem:
            _bad(problem, "hands")
        have, want = self.all_cards(), self._deck_counter()
        if have != want:
            parts = [f"{label} {', '.join(sorted(diff.elements(), key=card_id))}"
                     for label, diff in (("missing", want - have), ("extra", have - want)) if diff]
            _bad(f"the cards are not this game's {len(cfg.deck)}-card deck ({'; '.join(parts)}): every card is "
                 f"in exactly one place (rule C2.2)", "hands")
        self._check_tricks(n, cfg)
        self._check_results(n, cfg)
        self._check_last_move(n)
        self._check_record(n, cfg)
        self._derive_trick()

    def _check_types(self, n: int, cfg: Config) -> None:
        for key, v in (("hands", self._hands), ("won", self._won)):
            if type(v) is not list or len(v) != n or any(type(x) is not list for x in v):
                _bad(f"expected {n} lists of cards, one per seat", key)
        if any(h != sorted(h) for h in self._hands):
            _bad("each hand is kept in card order", "hands")
        if type(self._table) is not list:
            _bad("expected a list of cards", "table")
        if type(self._out) is not tuple or list(self._out) != sorted(self._out):
            _bad("expected the cards left out of the round, in card order", "out")
        if not 0 <= self._ph < len(PHASES):
            _bad("unknown phase", "ph")
        _check_seat(self._cur, n, "cur")
        _check_seat(self._first, n, "first")
        for key in ("leader", "declarer", "lseat"):
            v = getattr(self, "_" + key)
            if v is not None:
                _check_seat(v, n, key)
        _check_int(self._round, 1, cfg.rounds, "round")
        _check_int(self._trick, 1, TRICKS, "trick")
        _check_int(self._wants, 0, (1 << n) - 1, "wants")
        if type(self._totals) is not tuple or len(self._totals) != n or not all(map(_small, self._totals)):
            _bad(f"expected {n} whole numbers", "totals")
        if type(self._gives) is not tuple or not all(
                type(g) is tuple and len(g) == 4 and all(type(x) is int for x in g) for g in self._gives):
            _bad("each exchange is [trick, giver, receiver, card]", "gives")
        lt = self._last_trick
        if lt is not None and not (type(lt) is tuple and len(lt) == 4 and type(lt[0]) is int
                                   and type(lt[2]) is list and len(lt[2]) == n):
            _bad(f"expected [trick, leader, {n} cards, winner]", "last_trick")
        if lt is not None:
            _check_seat(lt[1], n, "last_trick")
            _check_seat(lt[3], n, "last_trick")
        for r in self._results:
            if not (len(r[3]) == len(r[4]) == len(r[5]) == n):
                _bad(f"a round result holds one won pile, score and total per seat ({n})", "results")
            _check_seat(r[6], n, "results")
        if self._lmove is not None and not isinstance(self._lmove, self.action_types):
            _bad("not an action", "lmove")

    def _check_phase(self, n: int, cfg: Config) -> None:
        """Who acts, the offer, the declarations and the lead, for the phase (C5, C6.2)."""
        ph, first, cur, decl, wants = self._ph, self._first, self._cur, self._declarer, self._wants
        if ph != FOLLOW and self._table:
            _bad("cards lie on the table only while a trick is played (phase 'follow')", "table")
        if (self._offered is not None) != (ph in (DECLARE, GIVE)):
            _bad("the offered card waits on the table exactly while the others declare and the declarer "
                 "gives (rules C5.1, C5.6)", "offered")
        if wants >> first & 1:
            _bad("the first player never declares (rule C5.2)", "wants")
        if (ph in (OFFER, DECLARE, GIVE, FINISHED)) != (self._leader is None):
            _bad("a lead player exists only while a trick is played (rules C5.3, C5.6)", "leader")
        if ph in (OFFER, FINISHED):
            if wants or decl is not None:
                _bad("between tricks nobody has declared (rule C5.2)", "wants")
            if ph == OFFER and cur != first:
                _bad("the first player is to offer (rule C5.1)", "cur")
            return
        order = [(first + i) % n for i in range(1, n)]  # who declares, in turn (C5.2)
        wanted = [x for x in order if wants >> x & 1]
        if ph == DECLARE:
            if cur == first:
                _bad("the first player never declares (rule C5.2)", "cur")
            made = order[:order.index(cur)]
        elif cfg.first_mode and wanted:
            made = order[:order.index(wanted[0]) + 1]
        else:
            made = order
        if any(x not in made for x in wanted):
            _bad("only players who have declared can want the card (rule C5.2)", "wants")
        if cfg.first_mode and (len(wanted) > 1 or (ph == DECLARE and wanted)):
            _bad("with declaration_mode single_pass_first the first player to want the card takes it "
                 "and nobody declares after (rule C5.4)", "wants")
        if decl != (wanted[-1] if wanted else None):
            _bad("the declarer is the last player who wanted the card (rule C5.4)", "declarer")
        if ph == GIVE:
            if decl is None:
                _bad("the give phase needs a declarer, someone who wanted the card (rule C5.5)", "declarer")
            if cur != decl:
                _bad("the declarer gives (rule C5.5)", "cur")
        elif ph == FOLLOW:
            leader = first if decl is None else decl
            if self._leader != leader:
                _bad("the declarer leads the offered card, or the first player when nobody wanted it "
                     "(rules C5.3, C5.6)", "leader")
            if not 1 <= len(self._table) < n:
                _bad(f"a trick in play holds 1 to {n - 1} cards", "table")
            if cur != (leader + len(self._table)) % n:
                _bad("the next follower clockwise after the cards on the table is to play (rule C6.2)", "cur")

    def _check_tricks(self, n: int, cfg: Config) -> None:
        """The follow rule on the cards played (C6.3), the last trick (C7, C8) and the exchanges (C5.5)."""
        ph, hands, t = self._ph, self._hands, self._trick
        ind = self._indicator
        if ph == FOLLOW:
            _follow_problem(cfg, ind, self._leader, self._table, hands, n, set())
        gives = self._gives
        if any(a[0] >= b[0] for a, b in zip(gives, gives[1:])):
            _bad("at most one exchange per trick, in trick order", "gives")
        dead = {ind, self._hidden_card, *self._out}
        current = ph == FOLLOW and self._declarer is not None
        for gt, giver, receiver, c in gives:
            _check_seat(giver, n, "gives")
            _check_seat(receiver, n, "gives")
            if giver == receiver or not 1 <= gt <= t or c not in cfg.deck_set or c in dead:
                _bad(f"{[gt, giver, receiver, NAMES[c]]} is not an exchange of this round: the declarer gives "
                     f"the first player a card in play, in a trick played so far (rule C5.5)", "gives")
            if gt == t and ph != FINISHED and not (current and giver == self._declarer and receiver == self._first):
                _bad(f"in trick {t} only a declarer who has led gives, to the first player (rules C5.5, "
                     f"C5.6)", "gives")
        if current and gives and gives[-1][0] == t:
            c, f = gives[-1][3], self._first
            pos = (f - self._leader) % n
            if c not in hands[f] and not (pos < len(self._table) and self._table[pos] == c):
                _bad(f"{NAMES[c]}, given to {self.seat_label(f)} this trick, is neither in that hand nor "
                     f"played by it (rule C5.5)", "gives")
        lt = self._last_trick
        if lt is None:
            if ph == FINISHED:
                _bad("a finished game has a last trick (rule C8.3)", "last_trick")
            return
        done = TRICKS if ph == FINISHED else t - 1
        lt_no, leader, cards, w = lt
        if lt_no != done or done < 1:
            _bad(f"trick {lt_no} is not the trick before trick {t} of this round (rule C4.5)",
                 "last_trick")
        if _trick_winner(cfg, ind, leader, cards, n) != w:
            _bad(f"{_fmt(cards)} led by {self.seat_label(leader)} is won by "
                 f"{self.seat_label(_trick_winner(cfg, ind, leader, cards, n))}, not {self.seat_label(w)} (rule C7.2)",
                 "last_trick")
        if self._won[w][-n:] != cards:
            _bad("the winner took the trick's cards last (rule C8.1)", "last_trick")
        if ph != FINISHED and w != self._first:
            _bad("the winner of the last trick opens the next one (rule C8.2)", "first")
        g = next((g for g in gives if g[0] == done), None)
        if g is not None and g[1] != leader:
            _bad("the declarer of a trick leads it (rule C5.6)", "gives")
        if ph == FINISHED and self._first != (leader if g is None else g[2]):
            _bad("the first player of the last trick is its leader, or the player the declarer gave a card "
                 "(rules C5.3, C5.6)", "first")
        # Who did not follow then holds none of that colour now, unless a card came in since (C6.3).
        _follow_problem(cfg, ind, leader, cards, hands, n, {self._first} if current else set())

    def _check_results(self, n: int, cfg: Config) -> None:
        """The rounds scored so far (C9) and how the round in play follows them (C3.3)."""
        rs, ph = self._results, self._ph
        if ph == FINISHED and (not rs or self._round != cfg.rounds):
            _bad(f"a finished game has scored its last round ({cfg.rounds}) (rule C3.4)", "results")
        if rs:
            end = self._round if ph == FINISHED else self._round - 1
            if rs[-1][0] != end or rs[0][0] < 1 or any(r[0] != rs[0][0] + i for i, r in enumerate(rs)):
                _bad(f"the rounds scored must run up to round {end}", "results")
            if self._totals != rs[-1][5]:
                _bad("the totals are those after the last round scored (rule C9.4)", "totals")
        for i, (rnd, ind, hid, won, scored, totals, last_winner) in enumerate(rs):
            cards = [c for w in won for c in w] + [ind, hid]
            if not all(c in cfg.deck_set for c in cards) or len(set(cards)) != len(cards):
                _bad(f"round {rnd} holds cards that are not this game's, or a card twice", "results")
            if tuple(scored) != tuple(_score(w, cfg.bbit, cfg.negative) for w in won):
                _bad(f"round {rnd}'s scores are not those of its won piles (rule C9.2)", "results")
            if i and tuple(a + s[2] for a, s in zip(rs[i - 1][5], scored)) != tuple(totals):
                _bad(f"round {rnd}'s totals are not the totals before plus its scores (rule C9.4)",
                     "results")
        if ph == FINISHED:
            r = rs[-1]
            if (r[1], r[2], r[6]) != (self._indicator, self._hidden_card, self._last_trick[3]) or \
                    r[3] != tuple(map(tuple, self._won)):
                _bad("the last round scored is the round on the table (rule C9)", "results")
        elif rs and self._trick == 1 and self._first != rs[-1][6]:
            _bad("the winner of the last trick of the round before starts a round (rule C3.3)", "first")

    def _check_record(self, n: int, cfg: Config) -> None:
        """The deal's record and, for a game played from its first deal, the history of the
        round in play against the won piles (C8.1): every won card came from a trick played."""
        origin = self._origin
        if origin is not None and not (isinstance(origin, str) and origin.startswith(f"{SPEC.name}/") or
                                       isinstance(origin, dict) and origin.get("game") == SPEC.name):
            _bad(f"a starting position is {SPEC.name} position text or a saved state, not {show(origin)}",
                 "position")
        deck = self.deck_order
        if deck is not None:
            if origin is not None:
                _bad("a game starts from a deck or from a position, not both", "deck")
            try:
                _deck_list(list(deck), cfg)
            except (TypeError, ValueError) as e:
                _bad(str(e), "deck")
        if origin is not None or self._history is None:
            return  # a hand-built position: what came before it is not recorded
        recs, reached, left = _recount(self)
        ph = self._ph
        if ph in (DECLARE, GIVE, FOLLOW):
            seg, _ = _segment(self._history)
            said = [d["want"] for d in self._declarations()]
            expect = [_REVEAL[self._offered if ph != FOLLOW else self._table[0]]]
            expect += [WANT if w else PASS for w in said]
            if ph == FOLLOW and self._declarer is not None and self._gives:
                expect.append(_GIVE[self._gives[-1][3]])
            expect += [_PLAY[c] for c in self._table[1:]]
            if seg != expect:
                _bad("the history does not hold this trick's declarations and plays (rules C5.1, C5.2, C6.2)",
                     "history")
        if not reached or any(left):
            _bad("the history does not hold the tricks that filled the won piles of this round (rule C8.1)",
                 "history")
        if self._out:
            _bad("a dealt round leaves no card out (rule C4.2)", "out")
        done = TRICKS if ph == FINISHED else self._trick - 1
        if done and self._last_trick is None:
            _bad("a trick has been played this round, so there is a last trick (rule C8.1)", "last_trick")
        rs = self._results
        end = self._round if ph == FINISHED else self._round - 1
        if len(rs) != end or (not rs and any(self._totals)):
            _bad("a game played from its first deal has a result for every round before this one (rule C9.4)",
                 "results")
        fp = self.options["first_player"]
        if self._round == 1 and fp != "random" and 1 in recs and recs[1][0] != fp:
            _bad(f"round 1 starts with first_player {seat_name(fp)} (rule C2.5)", "first")

    def _check_last_move(self, n: int) -> None:
        """The last move (the views show it) is the one this position comes from."""
        a, seat = self._lmove, self._lseat
        if (a is None) != (seat is None):
            _bad("the last move and its seat go together", "lmove")
        if self._history is not None and self._history[1] != a:
            _bad("the last move is the last action of the history", "lmove")
        if a is None:
            return  # a hand-built position nobody has moved from yet
        ph, first, cur, decl, bit = self._ph, self._first, self._cur, self._declarer, self._wants
        lt = self._last_trick
        e_seat: int | None = None
        e_move: Any = None
        if ph == DECLARE:
            e_seat = (cur - 1) % n
            e_move = _REVEAL[self._offered] if e_seat == first else WANT if bit >> e_seat & 1 else PASS
        elif ph == GIVE:
            e_seat = decl if self._cfg.first_mode else (first - 1) % n
            e_move = WANT if bit >> e_seat & 1 else PASS
        elif ph == FOLLOW and len(self._table) > 1:
            e_seat, e_move = (cur - 1) % n, _PLAY[self._table[-1]]
        elif ph == FOLLOW and decl is None:
            e_seat, e_move = (first - 1) % n, PASS
        elif ph == FOLLOW:
            g = self._gives[-1] if self._gives else None
            if g is None or g[0] != self._trick:
                _bad("the declarer's give of this trick is not recorded (rule C5.5)", "lmove")
            e_seat, e_move = decl, _GIVE[g[3]]
        elif lt is not None:
            e_seat, e_move = (lt[1] - 1) % n, _PLAY[lt[2][-1]]
        elif self._trick == 1 and ph == OFFER:
            # A new round was dealt: the move was the last play of the round before (C8.3).
            last = {c for w in self._results[-1][3] for c in w} if self._results else set()
            if type(a) is not Play or a.cid not in last:
                _bad("a round starts after the last play of the round before", "lmove")
            return
        elif type(a) is not Play:  # a hand-built position a trick later: a play ended that trick
            _bad("a trick ends with a play (rule C6.2)", "lmove")
        if e_move is not None and (a != e_move or seat != e_seat):
            _bad(f"the move that leads here is {self.seat_label(e_seat)}'s {e_move}, not "
                 f"{self.seat_label(seat)}'s {a} (rules C5, C6)", "lmove")


def _segment(node: tuple | None) -> tuple[list[Any] | None, tuple | None]:
    """The actions of one trick, oldest first, read back from a history node to its reveal
    (C5.1 opens every trick); ``None`` if the history ends before."""
    out = []
    while node is not None:
        node, a = node
        out.append(a)
        if type(a) is Reveal:
            out.reverse()
            return out, node
    return None, None


def _trick_from(seg: list[Any], k: int, winner: int, st: "CryptoTrickState") -> tuple | None:
    """``(first, declarer, leader, cards)`` of trick ``k`` from its actions and its winner, or
    ``None`` if they do not make a trick of this game that fits the exchanges recorded."""
    n, cfg = st.players, st._cfg
    i, wants = 1, []
    while i < len(seg) and type(seg[i]) in (Want, Pass):
        wants.append(type(seg[i]) is Want)
        i += 1
    give = seg[i] if i < len(seg) and type(seg[i]) is Give else None
    plays = seg[i + (give is not None):]
    if len(plays) != n - 1 or any(type(a) is not Play for a in plays) or not wants or len(wants) > n - 1:
        return None
    cards = [seg[0].cid] + [a.cid for a in plays]
    if any(c not in cfg.deck_set for c in cards):
        return None
    pos = (_trick_winner(cfg, st._indicator, 0, cards, n)) % n
    leader = (winner - pos) % n
    record = next((g for g in st._gives if g[0] == k), None)
    if give is None:
        if any(wants) or len(wants) != n - 1 or record is not None:
            return None
        return leader, None, leader, cards
    j = len(wants) - 1 - wants[::-1].index(True) if any(wants) else -1
    if j < 0 or (cfg.first_mode and (j != len(wants) - 1 or wants.count(True) != 1)) or \
            (not cfg.first_mode and len(wants) != n - 1):
        return None
    first = (leader - j - 1) % n
    if record != (k, leader, first, give.cid):
        return None
    return first, leader, leader, cards


def _recount(st: "CryptoTrickState") -> tuple[dict[int, tuple], bool, list[int]]:
    """The public record of the round in play: ``{trick: (first, declarer, leader, cards)}``
    (cards in play order, the lead first; the offered card alone before the lead), from the
    state's fields and its history, back as far as the history goes and still fits the won
    piles; whether it reached the round's first trick; and how many cards of each won pile
    no recounted trick explains."""
    n, ph, t = st.players, st._ph, st._trick
    recs: dict[int, tuple] = {}
    node = st._history
    if ph in (DECLARE, GIVE, FOLLOW):
        cards = list(st._table) if ph == FOLLOW else [st._offered]
        recs[t] = (st._first, None if ph == DECLARE else st._declarer, st._leader, cards)
        _, node = _segment(node)
    done = TRICKS if ph == FINISHED else t - 1
    winner = st._results[-1][6] if ph == FINISHED and st._results else st._first
    left = [len(w) for w in st._won]
    k = done
    lt = st._last_trick
    while k >= 1:
        seg, node = _segment(node)
        if seg is None:
            if k == done and lt is not None:
                g = next((g for g in st._gives if g[0] == k), None)
                recs[k] = (lt[1] if g is None else g[2], None if g is None else g[1], lt[1], list(lt[2]))
                left[lt[3]] -= n
                k -= 1
            break
        rec = _trick_from(seg, k, winner, st)
        if rec is None or left[winner] < n or st._won[winner][left[winner] - n:left[winner]] != rec[3]:
            break
        left[winner] -= n
        recs[k] = rec
        winner = rec[0]
        k -= 1
    return recs, k == 0, left


# --------------------------------------------------------------------------- dealing unseen cards
_OUT, _VOID, _GIVEN = range(3)
#: Random deals tried before the deals are searched one by one (a rare, tightly constrained case).
_TRIES = 200


class _Deal:
    """Unseen cards to deal among places of given sizes, each card only to its ``allowed``
    places, with at most ``cap`` cards of some colours in a place (``caps``: ``(place,
    colour bits, cap)``). Used by :meth:`CryptoTrickState.sample_world` and for the ``?``
    parts of position text."""

    __slots__ = ("cards", "sizes", "allowed", "caps", "capof", "order", "simple")

    def __init__(self, cards: list[int], sizes: list[int], allowed: dict[int, list[int]],
                 caps: Sequence[tuple[int, int, int]] = ()) -> None:
        self.cards, self.sizes, self.allowed, self.caps = cards, sizes, allowed, list(caps)
        self.capof = {c: [[j for j, (pl, mask, _) in enumerate(self.caps) if pl == spot and mask & 1 << (c // 100)]
                          for spot in allowed[c]] for c in cards}
        self.order = sorted(cards, key=lambda c: (len(allowed[c]), c))
        roomy = {i for i, m in enumerate(sizes) if m}
        self.simple = not self.caps and all(roomy <= set(allowed[c]) for c in cards)

    def check(self, deal: list[list[int]], rng: Any) -> dict[int, int] | None:
        """Whether a deal fits what else is known (``None`` if not); here always."""
        return {}

    def sample(self, rng: Any) -> tuple[list[list[int]], dict[int, int]] | None:
        """A random deal that fits, with what :meth:`check` chose; ``None`` if none does."""
        for _ in range(_TRIES):
            deal = self._propose(rng)
            if deal is not None:
                chosen = self.check(deal, rng)
                if chosen is not None:
                    return deal, chosen
        return self._search(rng)

    def _propose(self, rng: Any) -> list[list[int]] | None:
        """Every card to a place it may go, chosen at random in proportion to the room left
        (a plain shuffle when nothing constrains the cards); ``None`` at a dead end."""
        sizes = self.sizes
        if self.simple:
            cards = list(self.cards)
            rng.shuffle(cards)
            deal, k = [], 0
            for m in sizes:
                deal.append(cards[k:k + m])
                k += m
            return deal
        room = list(sizes)
        left = [cap for _, _, cap in self.caps]
        deal: list[list[int]] = [[] for _ in sizes]
        allowed, capof = self.allowed, self.capof
        for c in self.order:
            spots, limits = allowed[c], capof[c]
            weights = [room[pl] if room[pl] and all(left[j] for j in limits[i]) else 0 for i, pl in enumerate(spots)]
            total = sum(weights)
            if not total:
                return None
            r = rng.randrange(total)
            i = 0
            while r >= weights[i]:
                r -= weights[i]
                i += 1
            pl = spots[i]
            room[pl] -= 1
            for j in limits[i]:
                left[j] -= 1
            deal[pl].append(c)
        return deal

    def _search(self, rng: Any) -> tuple[list[list[int]], dict[int, int]] | None:
        """The deals one by one (most constrained card first, places in random order) until one
        fits; ``None`` if none does."""
        sizes, order = self.sizes, self.order
        deal: list[list[int]] = [[] for _ in sizes]
        room = list(sizes)
        left = [cap for _, _, cap in self.caps]
        found: list[Any] = []

        def place(k: int) -> bool:
            if k == len(order):
                chosen = self.check(deal, rng)
                if chosen is not None:
                    found.append(([list(part) for part in deal], chosen))
                return chosen is not None
            c = order[k]
            spots = list(enumerate(self.allowed[c]))
            rng.shuffle(spots)
            for i, pl in spots:
                limits = self.capof[c][i]
                if not room[pl] or not all(left[j] for j in limits):
                    continue
                room[pl] -= 1
                for j in limits:
                    left[j] -= 1
                deal[pl].append(c)
                if place(k + 1):
                    return True
                deal[pl].pop()
                room[pl] += 1
                for j in limits:
                    left[j] += 1
            return False

        return found[0] if place(0) else None


class _Knowledge(_Deal):
    """What one seat knows of the cards it cannot see in the round in play.

    The unseen cards are the other hands, the hidden card, the cards left out of a
    hand-built round and, with ``won_pile_visibility="block_count_only"``, the cards of
    the other won piles that no trick the seat can recount put there (a hand-built
    position's): every card not in the seat's hand and not face up. Places are the other
    seats' hands (in seat order), then the hidden card, then the cards left out, then those
    won-pile cards, one place per pile and block colour (and one for cards without blocks).

    What the seat saw limits where a card can be:

    * a card it gave, received or saw given face up (C5.5, C11.3) that is still unseen is
      in its receiver's hand, or in the hand of anyone that player has since given a card
      to face down, and so on;
    * a player who did not follow the lead colour held none of it (C6.3; both trump
      colours with ``trump_follow_unified``, C6.4): while that player has received no card
      face down since, the hand holds none of it; after that, at most as many as the cards
      received (``caps``).

    A deal that keeps these is then checked against the whole round (``events``, newest
    first), taking every card back to where it was: a card given face down that the seat
    did not see must be one its giver could hold, and what the giver showed before must
    still hold. The check is needed only once a card changed hands unseen; it chooses
    that card for the world's record of the exchange. Everything here comes from what
    the seat saw, so the worlds a seat gets do not depend on the real hidden cards.
    """

    __slots__ = ("seat", "others", "hid", "piles", "events", "special", "unseen")

    def __init__(self, st: "CryptoTrickState", seat: int) -> None:
        n, cfg = st.players, st._cfg
        self.seat = seat
        self.others = others = [p for p in range(n) if p != seat]
        place = {p: i for i, p in enumerate(others)}
        self.hid = hid = len(others)
        out = hid + 1
        cards = [c for p in others for c in st._hands[p]] + [st._hidden_card, *st._out]
        sizes = [len(st._hands[p]) for p in others] + [1, len(st._out)]
        pub = cfg.public_give
        recs, _, left = _recount(st)
        first_known = min(recs) if recs else st._trick
        # Won piles the seat cannot see (block_count_only, C11.5): the cards of another pile that
        # no trick the seat can recount put there (the first left[p], from tricks before a
        # hand-built position) are unseen too. They are dealt again keeping what the view shows
        # of the pile, its size and the colours of its block cards in order: one place per
        # (pile, block colour) and one for its cards without blocks (key -1).
        self.piles: list[tuple[int, list[int], dict[int, int]]] = []  # (seat, block colours in order, key -> place)
        pile_spots: dict[int, list[int]] = {}  # card class (colour, or -1) -> pile places
        if not cfg.public_won:
            for p in others:
                prefix = st._won[p][:left[p]]
                if not prefix:
                    continue
                colours = [c // 100 for c in prefix if cfg.block[c]]
                counts = Counter(colours)
                counts[-1] = len(prefix) - len(colours)
                spots = {}
                for key, m in sorted(counts.items()):
                    if m:
                        spots[key] = len(sizes)
                        pile_spots.setdefault(key, []).append(len(sizes))
                        sizes.append(m)
                self.piles.append((p, colours, spots))
                cards += prefix
        cards.sort()
        unknown = set(cards)
        gives = st._gives
        # The round's public facts, oldest first (from the tricks recounted in full).
        events: list[tuple] = []
        for k in sorted(recs):
            f, _, leader, played = recs[k]
            events.append((_OUT, f, played[0]))
            for gi, g in enumerate(gives):
                if g[0] == k:
                    events.append((_GIVEN, g[1], g[2], g[3] if pub or seat in (g[1], g[2]) else None, gi))
            if leader is not None:
                mask = _follow_mask(cfg, st._indicator, played[0])
                for i in range(1, len(played)):
                    p = (leader + i) % n
                    events.append((_OUT, p, played[i]))
                    if not 1 << (played[i] // 100) & mask:
                        events.append((_VOID, p, mask))
        # Cards seen changing hands: who may hold each now.
        tracked: dict[int, set[int]] = {}
        played_since: set[int] = set()  # seen given before the tricks recounted: maybe played since
        for gt, a, r, c in gives:
            seen = pub or seat in (a, r)
            for chain in tracked.values():
                if not seen and a in chain:
                    chain.add(r)
            if seen and c in unknown:
                tracked[c] = {r}
                if gt < first_known:
                    played_since.add(c)
                else:
                    played_since.discard(c)
        # Voids, and how many cards of a colour a hand may hold after cards came in face down.
        strict = [0] * n
        caps: dict[tuple[int, int], int] = {}
        for p in others:
            mine = [(i, e) for i, e in enumerate(events) if (e[2] if e[0] == _GIVEN else e[1]) == p
                    or e[0] == _GIVEN and e[1] == p]
            unseen_in = [i for i, e in mine if e[0] == _GIVEN and e[2] == p and e[3] is None]
            last_in = unseen_in[-1] if unseen_in else -1
            for i, e in mine:
                if e[0] != _VOID:
                    continue
                mask = e[2]
                if i > last_in:
                    strict[p] |= mask
                    continue
                came = sum(1 for j in unseen_in if j > i)
                played_out = sum(1 for j, x in mine if j > i and x[0] == _OUT and 1 << (x[2] // 100) & mask)
                seen_in = sum(1 for j, x in mine if j > i and x[0] == _GIVEN and x[2] == p and x[3] is not None
                              and 1 << (x[3] // 100) & mask)
                cap = max(0, came - max(0, played_out - seen_in))
                key = (place[p], mask)
                if cap < sizes[place[p]] and cap < caps.get(key, HAND_SIZE + 1):
                    caps[key] = cap
        allowed: dict[int, list[int]] = {}
        every = list(range(len(sizes)))
        for c in cards:
            bit = 1 << (c // 100)
            in_piles = pile_spots.get(c // 100 if cfg.block[c] else -1, [])
            if c in tracked:
                spots = [place[p] for p in sorted(tracked[c]) if p != seat]
                if c in played_since:
                    spots += in_piles
            else:
                spots = [place[p] for p in others if not strict[p] & bit] + [hid] + ([out] if st._out else [])
                spots += in_piles
            allowed[c] = spots if spots else every
        super().__init__(cards, sizes, allowed, [(pl, mask, cap) for (pl, mask), cap in sorted(caps.items())])
        unseen = any(e[0] == _GIVEN and e[3] is None for e in events)
        self.events = events[::-1] if unseen else None
        self.special = {e[3] for e in events if e[0] == _GIVEN and e[3] is not None}
        # Exchanges before what the seat can recount (a hand-built position): any card fits.
        self.unseen = [gi for gi, g in enumerate(gives) if g[0] < first_known and not (pub or seat in g[1:3])]

    def world(self, rng: Any) -> tuple[list[list[int]], dict[int, int]]:
        """A deal of the unseen cards to the places, and the cards of the exchanges the seat did not see."""
        found = self.sample(rng)
        if found is None:  # the real deal always fits
            raise AssertionError("no world fits what this seat saw")
        deal, chosen = found
        for gi in self.unseen:
            # Any card a player may hold or have played since (a won pile's unseen card).
            pool = sorted(c for i, part in enumerate(deal) if i not in (self.hid, self.hid + 1)
                          for c in part) or self.cards
            chosen[gi] = pool[rng.randrange(len(pool))]
        return deal, chosen

    def check(self, deal: list[list[int]], rng: Any) -> dict[int, int] | None:
        """Take the deal back through the round (newest fact first): ``None`` if some fact
        cannot have happened, else a card for each exchange the seat did not see."""
        events = self.events
        if events is None:
            return {}
        seat, special = self.seat, self.special
        hands = {p: set(deal[i]) for i, p in enumerate(self.others)}
        chosen: dict[int, int] = {}
        budget = [64]

        def back(start: int, hands: dict[int, set[int]]) -> bool:
            for i in range(start, len(events)):
                e = events[i]
                if e[0] == _OUT:
                    if e[1] != seat:
                        hands[e[1]].add(e[2])
                elif e[0] == _VOID:
                    if e[1] != seat and any(1 << (c // 100) & e[2] for c in hands[e[1]]):
                        return False
                elif e[3] is not None:
                    _, a, r, c, _ = e
                    if r != seat:
                        if c not in hands[r]:
                            return False
                        hands[r].discard(c)
                    if a != seat:
                        hands[a].add(c)
                else:
                    _, a, r, _, gi = e
                    groups: dict[int, list[int]] = {}
                    for c in sorted(hands[r]):
                        groups.setdefault(c if c in special else -1 - c // 100, []).append(c)
                    keys = sorted(groups)
                    rng.shuffle(keys)
                    for key in keys:
                        budget[0] -= 1
                        if budget[0] < 0:
                            return False
                        g = groups[key][rng.randrange(len(groups[key]))]
                        trial = {p: set(h) for p, h in hands.items()}
                        trial[r].discard(g)
                        trial[a].add(g)
                        if back(i + 1, trial):
                            chosen[gi] = g
                            return True
                    return False
            return True

        return chosen if back(0, hands) else None


class _Bad(ValueError):
    """A loaded state that does not hold together: ``key`` names the field to blame,
    ``reason`` says what is wrong."""

    def __init__(self, reason: str, key: str) -> None:
        super().__init__(f"{key}: {reason}")
        self.key, self.reason = key, reason


def _bad(message: str, key: str) -> Any:
    raise _Bad(message, key)


def _small(v: Any) -> bool:
    return type(v) is int and abs(v) <= 10**6


def _check_int(v: Any, lo: int, hi: int, key: str) -> None:
    if type(v) is not int or not lo <= v <= hi:
        _bad(f"expected a whole number from {lo} to {hi}, got {show(v)}", key)


def _check_seat(v: Any, n: int, key: str) -> None:
    if type(v) is not int or not 0 <= v < n:
        _bad(f"expected a seat from 0 to {n - 1}, got {show(v)}", key)


def _follow_mask(cfg: Config, indicator: int, lead: int) -> int:
    """The colours (bit per colour) that follow ``lead`` this round (C6.3, C6.4)."""
    fol = cfg.follow[indicator // 100][lead // 100]
    return sum(1 << (fol[i] // 100) for i in range(0, len(fol), 2))


def _trick_winner(cfg: Config, indicator: int, leader: int, cards: Sequence[int], n: int) -> int:
    """The seat whose card takes a trick (C7.2: the highest key, the later of equal keys)."""
    s = cfg.strength[indicator // 100][cards[0] // 100]
    best, pos = -1, 0
    for i, c in enumerate(cards):
        if s[c] >= best:
            best, pos = s[c], i
    return (leader + pos) % n


def _follow_problem(cfg: Config, indicator: int, leader: int, cards: Sequence[int], hands: Sequence[list[int]],
                    n: int, skip: set[int]) -> None:
    """A follower who did not follow the lead colour held none of it, and holds none now
    unless a card came into the hand since (``skip``) (C6.3)."""
    mask = _follow_mask(cfg, indicator, cards[0])
    for i in range(1, len(cards)):
        s = (leader + i) % n
        if s in skip or 1 << (cards[i] // 100) & mask:
            continue
        held = [c for c in hands[s] if 1 << (c // 100) & mask]
        if held:
            _bad(f"{seat_name(s)} played {NAMES[cards[i]]} to the lead {NAMES[cards[0]]} while holding "
                 f"{_fmt(held)}, which follow it (rule C6.3)", "hands")


_DEAL_TEXTS: dict[tuple, tuple[str, str]] = {}


def _deal_texts(rnd: int, rounds: int, cards: int, given: bool, who: str, ind: int) -> tuple[str, str]:
    """The narration of a deal and of its trump indicator (C4.2 to C4.4), worked out once
    for each case: every new game narrates its first deal."""
    key = (rnd, rounds, cards, given, who, ind)
    texts = _DEAL_TEXTS.get(key)
    if texts is None:
        tc = ind // 100
        how = "dealt in the given order" if given else "shuffled and dealt"
        start = (f"{who} won the last trick of round {rnd - 1} and starts (rule C3.3)" if rnd > 1
                 else f"{who} starts (rule C2.5)")
        trumps = "only white is trump" if tc == WHITE else f"white and {COLOUR_NAMES[tc]} are trumps"
        texts = (f"Round {rnd} of {rounds}: the {cards} cards are {how}, {HAND_SIZE} to each player clockwise "
                 f"from {who} (rules C4.1, C4.2); {start}.",
                 f"{NAMES[ind]} is turned up as the trump indicator: {trumps} this round (rules C4.3, C4.4). The "
                 f"last card is set aside face down as the hidden card (rule C4.3).")
        if len(_DEAL_TEXTS) < 20_000:
            _DEAL_TEXTS[key] = texts
    return texts


# --------------------------------------------------------------------------- construction
def _blank(players: int, seed: int | None, options: dict[str, Any], chance: Any) -> CryptoTrickState:
    st = CryptoTrickState._create(players, seed, None, options, chance)
    n = st.players
    fp = st.options["first_player"]
    if fp != "random" and fp >= n:
        raise ValueError(f"first_player={fp!r} is not allowed in a {n}-player game; allowed values: 0..{n - 1} "
                         f"or 'random' (rule C2.5)")
    st._cfg = _config(n, st.options) if options else _default_config(n)
    st._totals = (0,) * n
    st._results = ()
    st._round = 1
    st._lseat = st._lmove = st._know = None
    st._str, st._fol, st._best, st._win = None, (0, 0), -1, None  # no trick is played yet
    st.is_terminal = False
    return st


def _deck_list(deck: Any, cfg: Config) -> list[int]:
    try:
        return check_deck(deck, cfg.deck, card_id, card_name, what="card name like 'Y3'")
    except ValueError as e:
        raise ValueError(f"{e} (rule C2.2: {len(cfg.deck)} cards with {cfg.players} players)") from None


def new_game(players: int = 4, seed: int | None = None, deck: Sequence[Any] | None = None, *,
             chance: Any = None, **options: Any) -> CryptoTrickState:
    """Set up a Crypto Trick game and deal round 1 (C2, C4).

    Parameters
    ----------
    players:
        2 to 5 (C2.1).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: round 1's card order, index 0 = top, as card names. It must be
        exactly the game's 6N + 2 cards. Dealt one at a time clockwise from the first
        player; the next card is the trump indicator, the last the hidden card (C4.2).
    chance:
        Recorded shuffles instead of the seeded ones (``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC`` (``rounds``, ``declaration_mode`` ...).

    Examples
    --------
    >>> st = new_game(players=2, seed=1, deck="Y1 Y2 Y3 Y4 Y5 Y6 B1 B2 B3 B4 B5 B6 W1 W6".split())
    >>> st.hand(0), st.hand(1), st.indicator
    (['Y1', 'Y3', 'Y5', 'B1', 'B3', 'B5'], ['Y2', 'Y4', 'Y6', 'B2', 'B4', 'B6'], 'W1')
    """
    st = _blank(players, seed, options, chance)
    order = None
    if deck is not None:
        order = _deck_list(deck, st._cfg)
        st.deck_order = tuple(NAMES[c] for c in order)
    fp = st.options["first_player"]
    first = st._randrange(st.players) if fp == "random" else fp
    events: list[Event] = []
    st._deal(first, order, events)
    st.setup_events = events
    return st


def from_dict(data: dict[str, Any]) -> CryptoTrickState:
    """A state saved with ``to_dict``."""
    return CryptoTrickState.from_dict(data)  # type: ignore[return-value]


# --------------------------------------------------------------------------- reading position text
class _PositionReader:
    """Reads the fields of a Crypto Trick position (see the rules reference, "Position text")
    into a blank state: every field typed at its column, the unknown parts (``?``) dealt from
    the cards placed nowhere, then the state checked as a whole."""

    def __init__(self, st: CryptoTrickState, parsed: Any) -> None:
        self.st, self.p = st, parsed
        self.n = st.players
        self.cfg = st._cfg = _config(self.n, st.options)
        self.at: dict[str, Value] = {}  # the field each problem of _check_loaded is blamed on
        self.placed: dict[int, Value] = {}

    # ------------------------------------------------------------- pieces
    def take(self, key: str, default: str | None = None) -> Value:
        v = self.p.take(key, default)
        self.at[key] = v
        return v

    def card(self, v: Value, place: bool = True) -> int:
        c = card_id(v.text) if v.text else None
        if c is None or c not in self.cfg.deck_set:
            what = "not a card" if c is None else "not in this game's deck"
            raise v.error(f"{show(v.text)} is {what} (the cards are {_deck_words(self.cfg)})")
        if place:
            if c in self.placed:
                raise v.error(f"{NAMES[c]} is placed twice (also at column {self.placed[c].column}): every card "
                              f"is in one place (rule C2.2)")
            self.placed[c] = v
        return c

    def cards(self, v: Value, place: bool = True) -> list[int]:
        return [] if v.text == "-" else [self.card(part, place) for part in v.split(",")]

    def seat(self, v: Value, none: bool = False) -> int | None:
        return v.seat(self.n, none=none)

    # ------------------------------------------------------------- the fields
    def load(self) -> None:
        st, n, cfg = self.st, self.n, self.cfg
        fp = st.options["first_player"]
        if fp != "random" and fp >= n:
            raise PositionError(f"first_player={fp} is not a seat of a {n}-player game (rule C2.5)",
                                column=self.p.columns.get("first_player"), field="first_player")
        rnd = self.take("round", "1").int(1, cfg.rounds)
        hands_v = self.take("hands")
        hand_parts = hands_v.split("/", n)
        phase_v = self.take("phase", "")
        first_v, turn_v, trick_v = self.take("first", ""), self.take("turn", ""), self.take("trick", "")
        ind_v, hid_v = self.take("indicator"), self.take("hidden", "?")
        offer_v, decl_v, table_v = self.take("offer", "-"), self.take("declared", "-"), self.take("table", "-")
        won_v, last_v, gives_v = self.take("won", "-"), self.take("last", "-"), self.take("gives", "-")
        move_v, out_v = self.take("move", "-"), self.take("out", "-")
        totals_v, past_v = self.take("totals", ""), self.take("past", "-")

        # Known cards, each in one place.
        hands: list[list[int] | None] = []
        counts: list[int | None] = []
        for part in hand_parts:
            if part.unknown:
                hands.append(None)
                counts.append(part.unknown_count())
            else:
                hands.append(self.cards(part))
                counts.append(None)
        indicator = None if ind_v.unknown else self.card(ind_v)
        hidden = None if hid_v.unknown else self.card(hid_v)
        offered = None if offer_v.text == "-" else self.card(offer_v)
        table = self.cards(table_v)
        won = [[] for _ in range(n)] if won_v.text == "-" else [self.cards(w) for w in won_v.split("/", n)]
        out = None if out_v.unknown else self.cards(out_v)
        out_count = out_v.unknown_count() if out_v.unknown else None
        last = None
        if last_v.text != "-":
            lead_v, lcards_v = last_v.split(":", 2)
            last = (self.seat(lead_v), [self.card(c, False) for c in lcards_v.split(",", n)])
        declared = []
        if decl_v.text != "-":
            for i, ch in enumerate(decl_v.text):
                if ch not in "yn":
                    raise decl_v.error(f"{ch!r} is not a declaration: y (want) or n (pass), in turn from the first "
                                       f"player's left (rule C5.2)", i)
                declared.append(ch == "y")
        gives = []
        if gives_v.text != "-":
            for g in gives_v.split(","):
                t_v, who_v, c_v = g.split(":", 3)
                giver_v, receiver_v = who_v.split(">", 2)
                gives.append((t_v.int(1, TRICKS), self.seat(giver_v), self.seat(receiver_v), self.card(c_v, False),
                              c_v))
        move = None
        if move_v.text != "-":
            seat_v, _, rest = move_v.text.partition(":")
            mover = self.seat(Value(seat_v, move_v.column, move_v.key))
            if not rest:
                raise move_v.error("a move is the seat and the action, such as A:play:R5")
            try:
                move = (mover, parse_action(rest.replace(":", " ")))
            except InvalidActionError as e:
                raise move_v.error(f"not a move: {e}", len(seat_v) + 1) from None
        totals = [0] * n if not totals_v.text else totals_v.ints(-10**6, 10**6)
        if len(totals) != n:
            raise totals_v.error(f"expected {n} totals, one per seat")
        past = self.past(past_v)

        # The phase and who acts in it.
        if len(declared) > n - 1:
            raise decl_v.error(f"at most {n - 1} declarations: everyone but the first player declares once (rule C5.2)")
        complete = len(declared) == n - 1 or (cfg.first_mode and declared and declared[-1])
        if phase_v.text:
            phase = phase_v.choice(PHASES)
        elif table:
            phase = "follow"
        elif offered is not None:
            phase = "give" if complete and any(declared) else "declare"
        elif all(h == [] for h in hands):
            phase = "finished"
        else:
            phase = "offer"
        ph = PHASES.index(phase)
        if (offered is not None) != (ph in (DECLARE, GIVE)):
            v = offer_v if offered is not None else phase_v
            raise v.error("an offered card (offer=) waits on the table exactly while the others declare and the "
                          "declarer gives (rules C5.1, C5.6)")
        if bool(table) != (ph == FOLLOW):
            raise (table_v if table else phase_v).error("the table (table=, the lead first) holds cards exactly "
                                                        "while a trick is played (rule C6.2)")
        if ph in (OFFER, FINISHED) and declared:
            raise decl_v.error("nobody declares before an offer (rule C5.2)")
        if ph == DECLARE and complete:
            raise decl_v.error("everyone has declared: the next step is the give or the lead (rules C5.3, C5.4)")
        if ph in (GIVE, FOLLOW) and not complete:
            raise decl_v.error(f"phase {phase!r} comes after every declaration ({n - 1}, rule C5.2)")
        if cfg.first_mode and True in declared and declared.index(True) < len(declared) - 1:
            # the first want takes the card: nobody declares after it (another want, or a pass)
            raise decl_v.error("with declaration_mode single_pass_first the first want takes the card: nobody "
                               "declares after it (rule C5.4)")
        if ph == GIVE and not any(declared):
            raise decl_v.error("somebody must want the card for a give (rule C5.5)")
        if first_v.text:
            first = self.seat(first_v)
        elif ph == OFFER and turn_v.text:
            first = self.seat(turn_v, none=True)
        else:
            first = 0
        wanted = [(first + 1 + i) % n for i, w in enumerate(declared) if w]
        declarer = wanted[-1] if wanted and ph != DECLARE else None
        if ph == DECLARE and wanted and not cfg.first_mode:
            declarer = wanted[-1]
        leader = (first if declarer is None else declarer) if ph == FOLLOW else None
        if ph == OFFER:
            cur = first
        elif ph == DECLARE:
            cur = (first + 1 + len(declared)) % n
        elif ph == GIVE:
            cur = declarer
        elif ph == FOLLOW:
            if len(table) >= n:
                raise table_v.error(f"a trick in play holds 1 to {n - 1} cards (rule C6.2)")
            cur = (leader + len(table)) % n
        else:
            if last is None:
                raise (last_v if last_v.text != "-" else phase_v).error(
                    "a finished game shows its last trick (last=)")
            cur = (last[0] - 1) % n
        if turn_v.text:
            turn = self.seat(turn_v, none=True)
            if turn != (None if ph == FINISHED else cur):
                raise turn_v.error(f"it is {seat_text(None if ph == FINISHED else cur)}'s turn in this position "
                                   f"(rules C5, C6.2)")

        # Hand sizes: h at the start of the trick, one fewer once a card is down (C5.7).
        if ph == FINISHED:
            down, h = set(range(n)), 1
        else:
            down = {first} if ph in (DECLARE, GIVE) else {(leader + i) % n for i in range(len(table))} \
                if ph == FOLLOW else set()
            if trick_v.text:
                h = TRICKS + 1 - trick_v.int(1, TRICKS)
            else:
                seen = {len(x) + (s in down) for s, x in enumerate(hands) if x is not None}
                seen |= {c + (s in down) for s, c in enumerate(counts) if c is not None}
                h = seen.pop() if len(seen) == 1 else HAND_SIZE if not seen else None
                if h is None or not 1 <= h <= HAND_SIZE:
                    raise hands_v.error("the hands do not fit one trick: say which with trick= (rule C5.7)")
        trick = TRICKS if ph == FINISHED else TRICKS + 1 - h
        if ph == FINISHED and trick_v.text:
            trick_v.int(TRICKS, TRICKS)
        for s, part in enumerate(hand_parts):
            need = h - (s in down)
            have = len(hands[s]) if hands[s] is not None else counts[s]
            if have is None:
                counts[s] = need
            elif have != need:
                raise part.error(f"{seat_text(s)} holds {plural(need, 'card')} in trick {trick}, phase {phase!r}, "
                                 f"not {have} (rule C5.7)")

        # The unknown parts, dealt from the cards placed nowhere.
        pool = [c for c in cfg.deck if c not in self.placed]
        slots = [(s, counts[s]) for s in range(n) if hands[s] is None]
        slots += [("indicator", 1)] * (indicator is None) + [("hidden", 1)] * (hidden is None)
        if out is None:
            slots.append(("out", out_count))
        fixed = sum(c for _, c in slots if c is not None)
        if fixed > len(pool) or (out is not None or out_count is not None) and fixed != len(pool):
            if not slots:
                raise hands_v.error(f"{_fmt(pool)} {'is' if len(pool) == 1 else 'are'} placed nowhere: every card of "
                                    f"the deck is in one place (out=? leaves the rest out of the round, rule C2.2)")
            raise hands_v.error(f"the unknown parts (?) hold {fixed} cards but {len(pool)} are placed nowhere: every "
                                f"card of the deck is in one place (out=? leaves the rest out of the round, rule C2.2)")
        dealt = self.deal(slots, pool, hands, gives, table, last, leader, indicator, declarer, ph, first)
        for s in range(n):
            if hands[s] is None:
                hands[s] = dealt[s]
        indicator = dealt["indicator"] if indicator is None else indicator
        hidden = dealt["hidden"][0] if hidden is None else hidden
        out = dealt["out"] if out is None else out
        if isinstance(indicator, list):
            indicator = indicator[0]

        # The state.
        st._hands = [sorted(x) for x in hands]
        st._won = won
        st._table = table
        st._out = tuple(sorted(out))
        st._indicator, st._hidden_card = indicator, hidden
        st._ph, st._cur, st._first = ph, cur, first
        st._leader, st._declarer, st._offered = leader, declarer, offered
        st._wants = sum(1 << s for s in wanted)
        st._round, st._trick = rnd, trick
        st._totals = tuple(totals)
        st._gives = tuple(g[:4] for g in gives)
        done = TRICKS if ph == FINISHED else trick - 1
        if last is not None:
            if done < 1:
                raise last_v.error("the last trick belongs to this round: there is none in trick 1 (rule C4.5)")
            st._last_trick = (done, last[0], last[1], _trick_winner(cfg, indicator, last[0], last[1], n))
        else:
            st._last_trick = None
        st._results = self.results(past, rnd, ph, totals, past_v)
        st._lseat, st._lmove = move if move is not None else (None, None)
        st._know = None
        self.check()

    def past(self, v: Value) -> list[tuple]:
        """``past=``: the rounds scored before, oldest first: indicator, hidden card, the winner of
        their last trick, the won piles."""
        if v.text == "-":
            return []
        rounds = []
        for part in v.split(";"):
            ind_v, hid_v, w_v, piles_v = part.split(":", 4)
            ind, hid = self.card(ind_v, False), self.card(hid_v, False)
            piles = [[self.card(c, False) for c in pile.split(",")] if pile.text != "-" else []
                     for pile in piles_v.split("/", self.n)]
            cards = [ind, hid] + [c for pile in piles for c in pile]
            if len(set(cards)) != len(cards):
                raise part.error("a card appears twice in this round (rule C2.2)")
            rounds.append((ind, hid, self.seat(w_v), piles))
        return rounds

    def results(self, past: list[tuple], rnd: int, ph: int, totals: list[int], v: Value) -> tuple:
        """The records of the rounds in ``past``: their scores (C9.2) and the totals after each
        (counted back from ``totals``)."""
        cfg = self.cfg
        end = rnd if ph == FINISHED else rnd - 1
        if len(past) > end:
            raise v.error(f"{len(past)} rounds scored before round {rnd}")
        out = []
        after = tuple(totals)
        for i in range(len(past) - 1, -1, -1):
            ind, hid, w, piles = past[i]
            scored = tuple(_score(p, cfg.bbit, cfg.negative) for p in piles)
            out.append((end - (len(past) - 1 - i), ind, hid, tuple(map(tuple, piles)), scored, after, w))
            after = tuple(t - s[2] for t, s in zip(after, scored))
        return tuple(reversed(out))

    def deal(self, slots: list[tuple[Any, int | None]], pool: list[int], hands: list, gives: list, table: list[int],
             last: tuple | None, leader: int | None, indicator: int | None, declarer: int | None, ph: int,
             first: int) -> dict[Any, list[int]]:
        """The unknown parts from ``pool``. A card given to a seat whose hand is unknown goes to
        that hand (to the last receiver of that card), and a seat that did not follow a colour
        on the table or in the last trick gets none of it (C6.3); else the deal is at random."""
        st, n, cfg = self.st, self.n, self.cfg
        pinned: dict[int, int] = {}
        for t, a, r, c, c_v in gives:
            if c in self.placed:
                pinned.pop(c, None)
                continue
            if hands[r] is not None:
                raise c_v.error(f"{NAMES[c]}, given to {seat_text(r)} in trick {t}, is placed nowhere: put it in "
                                f"that hand or where it went (rule C5.5)")
            pinned[c] = r
        voids = [0] * n
        if indicator is not None:
            if table:
                voids = _void_masks(cfg, indicator, leader, table, n, voids, set())
            if last is not None:
                voids = _void_masks(cfg, indicator, last[0], last[1], n, voids,
                                    {first} if ph == FOLLOW and declarer is not None else set())
        if not pinned and not any(voids[s] for s, _ in slots if isinstance(s, int)):
            return {name: cards for name, cards in deal_unknown(st, slots, pool, self.at["hands"])}
        # Constrained: every part a place; the part without a count (out=?) takes the rest.
        sizes = [len(pool) - sum(c for _, c in slots if c is not None) if c is None else c for _, c in slots]
        index = {name: i for i, (name, _) in enumerate(slots)}
        allowed = {}
        for c in pool:
            if c in pinned:
                allowed[c] = [index[pinned[c]]]
            else:
                allowed[c] = [i for i, (name, _) in enumerate(slots)
                              if not (isinstance(name, int) and voids[name] & 1 << (c // 100))]
        st._shuffle(pool)  # the seed's decision for this deal, as deal_unknown takes one
        found = _Deal(sorted(pool), sizes, allowed).sample(random.Random(f"{st.seed}/{st._rng_count}"))
        if found is None:
            raise self.at["hands"].error("the unknown cards cannot be dealt so that every exchange and every "
                                         "card not followed holds (rules C5.5, C6.3)")
        return {name: found[0][i] for i, (name, _) in enumerate(slots)}

    def check(self) -> None:
        """The position as a whole (``_check_loaded``), its problem blamed on a field's column."""
        st = self.st
        try:
            st._derive()
            st._check_loaded()
        except _Bad as e:
            key = _BLAME.get(e.key, e.key)
            v = self.at.get(key)
            raise PositionError(e.reason, column=None if v is None else v.column, field=key) from None


#: The field of position text each problem found by ``_check_loaded`` is blamed on.
_BLAME = {"ph": "phase", "cur": "turn", "leader": "declared", "declarer": "declared", "wants": "declared",
          "lseat": "move", "lmove": "move", "last_trick": "last", "results": "past", "offered": "offer"}


def _void_masks(cfg: Config, indicator: int, leader: int, cards: Sequence[int], n: int, voids: list[int],
                skip: set[int]) -> list[int]:
    """Add the colours each follower of a trick showed they lack (C6.3) to ``voids``."""
    mask = _follow_mask(cfg, indicator, cards[0])
    out = list(voids)
    for i in range(1, len(cards)):
        s = (leader + i) % n
        if s not in skip and not 1 << (cards[i] // 100) & mask:
            out[s] |= mask
    return out


def _deck_words(cfg: Config) -> str:
    """The deck in a few words: ``Y, B and R 1-6, W1 and W6``."""
    regular = [LETTERS[c] for c in cfg.colours]
    nums = sorted({c % 100 for c in cfg.deck if c // 100 != WHITE})
    span = f"{nums[0]}-{nums[-1]}" if nums == list(range(nums[0], nums[-1] + 1)) else ",".join(map(str, nums))
    whites = [NAMES[c] for c in cfg.deck if c // 100 == WHITE]
    return f"{', '.join(regular[:-1])} and {regular[-1]} {span}, {' and '.join(whites)}"


def from_position(text: str, seed: int | None = None) -> CryptoTrickState:
    """A state from position text (``state.to_position()``, or typed by hand).

    The grammar, with an example and every field, is in the rules reference
    (``cardwidgets/rules/crypto_trick.md``, "Position text"). Parts written ``?`` (a hand
    ``?5``, the hidden card) are dealt from the cards placed nowhere with ``seed``, which
    also seeds every later shuffle. Raises :class:`~cardwidgets.core.position.PositionError`
    naming the column.

    >>> st = from_position("crypto_trick/1 players=3 trick=5 first=B indicator=B4 "
    ...                    "hands=?2/R1,R2/?2 won=Y1,Y2,Y3/R3,R4,R5/B1,B2,B3,Y4,Y5,Y6", seed=1)
    >>> st.phase, st.current_player, st.hand(1), len(st.hand(0))
    ('offer', 1, ['R1', 'R2'], 2)
    >>> from_position("crypto_trick/1 players=3 indicator=B4 hands=?/?/Q1")
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 49 (hands): 'Q1' is not a card (the cards are Y, B and R 1-6, W1 and W6)
    """
    return load_position(text, seed, lambda mode: CryptoTrickState)  # type: ignore[return-value]


def _decl_value(d: Any) -> bool:
    if isinstance(d, bool):
        return d
    if isinstance(d, str) and d.strip().lower() in ("want", "y", "pass", "n"):
        return d.strip().lower() in ("want", "y")
    raise ValueError(f"declarations: {show(d)} is not 'want'/'pass' (or True/False)")


def setup_position(
    players: int,
    hands: Sequence[Sequence[str]],
    indicator: str,
    hidden: str | None = None,
    *,
    first: int = 0,
    phase: str = "offer",
    offered: str | None = None,
    declarations: Sequence[Any] = (),
    table: Sequence[str] = (),
    won: Sequence[Sequence[str]] | None = None,
    totals: Sequence[int] | None = None,
    round: int = 1,
    trick: int | None = None,
    seed: int = 0,
    **options: Any,
) -> CryptoTrickState:
    """A hand-built position for lessons and tests.

    ``hands`` lists each seat's cards; ``indicator`` and ``hidden`` are this round's
    trump indicator and hidden card (``hidden=None`` sets aside one of the cards
    placed nowhere, chosen with the seed). ``first`` is the trick's first player F.
    ``phase`` and its fields:

    * ``"offer"``: F is to reveal;
    * ``"declare"``: ``offered`` is F's revealed card, ``declarations`` those made
      so far (``"want"``/``"pass"`` or booleans, clockwise from F's left);
    * ``"give"``: every declaration made, the declarer is the one C5.4 names;
    * ``"follow"``: ``table`` holds the cards played so far, the lead first (its
      leader is the declarer if there was one, else F; the offered card is
      ``table[0]``); the next follower is to act.

    ``won`` are the piles won so far this round, ``totals`` the scores of earlier
    rounds. ``trick`` defaults to what the hand sizes say (7 minus the cards each
    player holds at the start of the trick). Cards of the deck placed nowhere are
    out of this round; the next round deals all of them again.

    >>> st = setup_position(3, [["Y2", "R5", "B1"], ["R1", "R2", "W6"], ["Y6", "R3", "B6"]], "B4")
    >>> st.trick, st.trumps, st.phase, st.current_player
    (4, ['B', 'W'], 'offer', 0)
    """
    st = _blank(players, seed, options, None)
    n = st.players
    cfg = st._cfg
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    if phase not in ("offer", "declare", "give", "follow"):
        raise ValueError(f"phase={phase!r}; allowed values: 'offer', 'declare', 'give', 'follow'")
    ph = PHASES.index(phase)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise ValueError(f"first must be a seat 0..{n - 1}")
    st._hands = [sorted(_cid_list(h, f"hands[{s}]")) for s, h in enumerate(hands)]
    st._won = [_cid_list(w, f"won[{s}]") for s, w in enumerate(won)] if won is not None else [[] for _ in range(n)]
    if len(st._won) != n:
        raise ValueError(f"won: expected {n} piles")
    st._indicator = _cid(indicator, "indicator")
    decl = [_decl_value(d) for d in declarations]
    tab = _cid_list(list(table), "table")
    st._offered = None
    st._wants, st._declarer, st._leader = 0, None, None
    st._table = []
    if ph != OFFER:
        if ph == FOLLOW:
            if not tab:
                raise ValueError("phase 'follow' needs the table's cards, the lead first")
            if offered is not None and _cid(offered) != tab[0]:
                raise ValueError("the offered card is the lead card, table[0]")
        elif offered is None:
            raise ValueError(f"phase {phase!r} needs the offered card")
        else:
            st._offered = _cid(offered, "offered")
        full = len(decl) == n - 1
        if cfg.first_mode and any(decl[:-1]):
            raise ValueError("with single_pass_first nobody declares after the first want")
        if ph == DECLARE and (full or (decl and decl[-1] and cfg.first_mode)):
            raise ValueError("declarations: in phase 'declare' someone must still be to declare")
        if ph != DECLARE and not full and not (cfg.first_mode and decl and decl[-1]):
            raise ValueError(f"declarations: phase {phase!r} comes after all {n - 1} declarations")
        for i, w in enumerate(decl):
            if w:
                s = (first + 1 + i) % n
                st._wants |= 1 << s
                st._declarer = s
        if ph == GIVE and st._declarer is None:
            raise ValueError("phase 'give' needs a declarer: someone must have declared want")
        if ph == FOLLOW:
            st._leader = first if st._declarer is None else st._declarer
            if len(tab) >= n:
                raise ValueError(f"table: a trick in play holds 1 to {n - 1} cards")
            st._table = tab
    st._first = first
    st._ph = ph
    if ph == OFFER:
        st._cur = first
    elif ph == DECLARE:
        st._cur = (first + 1 + len(decl)) % n
    elif ph == GIVE:
        st._cur = st._declarer
    else:
        st._cur = (st._leader + len(tab)) % n
    # Hand sizes: h at the start of the trick, h - 1 once a card is down (C5.7).
    h = max(len(x) for x in st._hands)
    trick_now = TRICKS + 1 - h
    if trick is not None and trick != trick_now:
        raise ValueError(f"trick={trick!r} does not fit hands of up to {h} cards: that is trick {trick_now} "
                         f"(rules C3.2, C5.7)")
    if not 1 <= trick_now <= TRICKS:
        raise ValueError(f"hands: a trick starts with 1 to {HAND_SIZE} cards in each hand (rule C4.2)")
    st._trick = trick_now
    problem = st._size_problem()
    if problem:
        raise ValueError(problem)
    if totals is not None:
        if len(totals) != n or any(isinstance(t, bool) or not isinstance(t, int) for t in totals):
            raise ValueError(f"totals: expected {n} ints")
        st._totals = tuple(totals)
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= cfg.rounds:
        raise ValueError(f"round must be an int from 1 to {cfg.rounds}")
    st._round = round
    placed = [c for h in st._hands for c in h] + [c for w in st._won for c in w] + st._table
    placed += [st._indicator] + ([st._offered] if st._offered is not None else [])
    if hidden is not None:
        placed.append(_cid(hidden, "hidden"))
    bad = sorted({c for c in placed if c not in cfg.deck_set})
    if bad:
        raise ValueError(f"{_fmt(bad)} {'is' if len(bad) == 1 else 'are'} not in this game's deck "
                         f"({_fmt(cfg.deck)}, rule C2.2)")
    dup = sorted(c for c, k in Counter(placed).items() if k > 1)
    if dup:
        raise ValueError(f"{_fmt(dup)} placed twice: every card is unique")
    rest = [c for c in cfg.deck if c not in set(placed)]
    if hidden is None:
        if not rest:
            raise ValueError("no card is left to be the hidden card (rule C4.3)")
        st._shuffle(rest)
        st._hidden_card = rest.pop()
        rest.sort()
    else:
        st._hidden_card = _cid(hidden, "hidden")
    st._out = tuple(rest)
    st._gives = ()
    st._last_trick = None
    st._check_loaded()  # what setup_position cannot see for itself, such as C6.3 on the table
    st._mark_origin()
    return st


__all__ = [
    "ANY", "Config", "CryptoTrickState", "Give", "IllegalActionError", "InvalidActionError", "PASS", "Pass", "Play",
    "Reveal", "SPEC", "WANT", "Want", "card_id", "card_name", "from_dict", "from_position", "new_game", "parse_action",
    "round_score", "setup_position", "trump_set",
]
