"""cirno+neu's cards and actions: the card tokens and values, the action :class:`Play`, its
notation and ``parse_action``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ...core import InvalidActionError
from ...core.errors import quote, show


PLAYERS = tuple(range(2, 9))  # N1.1

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


def _tokens(ids: Iterable[int]) -> list[str]:
    return [TOKENS[c] for c in ids]
