"""Crypto Trick's cards and actions: card ids and names, the action classes, their notation and
``parse_action``, and the checks of values read from saved states and position text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Union

from ...core import InvalidActionError
from ...core.deck import read_cards
from ...core.errors import quote, show


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


# --------------------------------------------------------------------------- card classes and loaded values
# Classes of C7.1 in the strength key (class * 1000 + number): the highest key wins,
# and a later card with an equal key wins too (C7.2).
_OFF, _LEAD, _TRUMP, _WHITE_HIGH = 0, 1, 2, 3


def _cid_list(cards: Any, what: str = "cards") -> list[int]:
    return read_cards(cards, card_id, what, "a card name like 'Y3'")


def _cid(card: Any, what: str = "card") -> int:
    k = card_id(card)
    if k is None:
        raise ValueError(f"{what}: {show(card)} is not a card name like 'Y3'")
    return k


def _opt_name(c: int | None) -> str | None:
    return None if c is None else NAMES[c]


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
