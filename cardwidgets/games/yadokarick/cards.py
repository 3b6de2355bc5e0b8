"""Cards, configuration, actions and notation shared by every Yadokarick mode.

A house card is an int ``cid = 2 * (number - 1) + colour`` (green 0, pink 1), so
card ids sort by number first and ``cid ± 2`` is the same colour one number away
(what the solo bonus looks for, Y14.10). Outside the engine a card is its name,
``"G25"`` or ``"P8"`` (Y0.2).

The house sizes and roof numbers are data of the :class:`Config` built from the
options (``size_table``, ``roof_numbers``): the real card list is not known, so
the default sizes are assumptions (Y1.2, YA-3).

>>> NAME[card_id("g25")], size_of("G25"), size_of("P8")
('G25', 1, 4)
>>> round_score(8, 0, 8), round_score(15, 7, 8)
(13, -14)
>>> str(parse_action("G17>b")), str(parse_action("+-")), str(parse_action("<"))
('place G17 B', 'decline', 'move left')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ...core import InvalidActionError
from ...core.deck import check_deck as _core_check_deck, read_cards
from ...core.errors import quote, show
from ...core.registry import game_module
from ...core.spec import int_table_problem

# --------------------------------------------------------------------------- the card table (Y1)
GREEN, PINK = 0, 1
COLOURS = ("green", "pink")
LETTERS = "GP"
NUMBERS = range(1, 37)
#: Card id -> number and name.
NUMBER = tuple(i // 2 + 1 for i in range(72))
NAME = tuple(LETTERS[i & 1] + str(i // 2 + 1) for i in range(72))
_IDS = {n: i for i, n in enumerate(NAME)}

HAND_SIZE = 10  # Y2.6, Y13.2
TRICKS = 10  # Y3.1, Y13.11
ROW_SIZE = 5  # Y14.2
CRABS = "ABCD"  # Y14.1
NPC = 2  # the NPC's participant index in duo (humans are 0 and 1)


def cid(colour: int, number: int) -> int:
    """The card id of a colour (0 green, 1 pink) and a number 1-36."""
    return 2 * (number - 1) + colour


def card_id(text: Any) -> int | None:
    """The id of a card name (``"G25"``, ``"p8"``), else ``None``.

    >>> card_id("G1"), card_id("P1"), card_id("G36"), card_id("G37"), card_id(5)
    (0, 1, 70, None, None)
    """
    if not isinstance(text, str) or len(text) > 4:
        return None
    return _IDS.get(text.strip().upper())


def default_size(number: int) -> int:
    """The assumed house size of a number: 1, 2, 3, 4, 1, 2, ... (Y1.2, YA-3)."""
    return (number - 1) % 4 + 1


DEFAULT_SIZE_TABLE = {n: default_size(n) for n in NUMBERS}
DEFAULT_ROOFS = (10, 20, 30)


def names(cards: Iterable[int]) -> list[str]:
    return [NAME[c] for c in cards]


def listing(cards: Sequence[int]) -> str:
    """``"G25"``, ``"G25 and G17"``, ``"G1, G5 and G9"`` (narration)."""
    n = [NAME[c] for c in cards]
    if not n:
        return "nothing"
    return n[0] if len(n) == 1 else ", ".join(n[:-1]) + " and " + n[-1]


# --------------------------------------------------------------------------- options
def _table_key(k: Any) -> int | str | None:
    """A size-table key: a number 1-36 (also as JSON text) or a card name."""
    if isinstance(k, bool):
        return None
    if isinstance(k, int):
        return k if 1 <= k <= 36 else None
    if isinstance(k, str):
        t = k.strip()
        if t.isascii() and t.isdigit() and len(t) <= 2:
            v = int(t)
            return v if 1 <= v <= 36 else None
        c = card_id(t)
        return None if c is None else NAME[c]
    return None


def check_size_table(value: Any) -> str | None:
    if value is DEFAULT_SIZE_TABLE:
        return None
    if not isinstance(value, dict):
        return "expected a dict {number 1-36 or card like 'G20': size}, e.g. {20: 0}"
    if len(value) > 108:
        return "a size table has at most 108 entries (36 numbers and 72 cards)"
    return int_table_problem(value, _table_key, 0, 50, not_key="{raw} is not a number 1-36 or a card like 'G25'",
                             twice="{key!r} is given twice", bad="the size of {key!r} must be an int from 0 to 50")


def norm_size_table(value: dict) -> dict:
    if value is DEFAULT_SIZE_TABLE:
        return value
    items = {_table_key(k): v for k, v in value.items()}
    nums = sorted((k, v) for k, v in items.items() if isinstance(k, int))
    cards = sorted(((k, v) for k, v in items.items() if isinstance(k, str)), key=lambda kv: _IDS[kv[0]])
    return dict(nums + cards)


def _numbers_check(what: str, most: int) -> Any:
    def check(value: Any) -> str | None:
        if not isinstance(value, (list, tuple, set, frozenset)) or len(value) > 36:
            return f"expected a list or set of numbers 1-36 ({what})"
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 36:
                return f"{show(v, 20)} is not a number 1-36 ({what})"
        if len(set(value)) > most:
            return f"at most {most} numbers ({what})"
        return None

    return check


def norm_numbers(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(value)))


def check_track(value: Any) -> str | None:
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and 0 <= value[0] <= value[1] <= 100):
        return None
    return "expected a pair (low, high) of ints with 0 <= low <= high <= 100"


def norm_track(value: Sequence[int]) -> tuple[int, int]:
    return (value[0], value[1])


# --------------------------------------------------------------------------- configuration
@dataclass(frozen=True, slots=True)
class Config:
    """The resolved options in the form the engines read (shared by clones, cached)."""

    mode: str
    players: int
    size: tuple[int, ...]  # house size per card id (Y1.2)
    roof: tuple[bool, ...]  # roof card per card id (Y1.3)
    cards: tuple[int, ...]  # the card ids in use, ascending
    roofset: frozenset = frozenset()  # the roof card ids
    # standard
    track: tuple[int, int] = (1, 21)
    marker_start: int = 11
    reset_marker: bool = True
    capture_all: bool = True
    choose: bool = False
    house_limit: int = 6
    last_entitled: bool = True
    dealer: int = 0
    rotate: bool = True
    rounds: int = 1
    collapsed_public: bool = True
    # duo
    order: tuple[int, ...] = ()  # participants in table order, position 0 first (NPC = 2)
    seq: tuple[tuple[int, ...], ...] = ()  # seq[lead]: the participants in play order from position lead
    roofs_apply: bool = True
    # solo
    one_color: bool = False
    nonstrict: bool = True
    complete: int = 7
    chain: bool = True
    bonus_on_setup: bool = False

    def size_of(self, cards: Iterable[int]) -> int:
        s = self.size
        return sum(s[c] for c in cards)


def size_tables(options: dict[str, Any]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    table = options.get("size_table", DEFAULT_SIZE_TABLE)
    size = [default_size(NUMBER[c]) for c in range(72)]
    for k, v in table.items():
        if isinstance(k, int):
            size[cid(GREEN, k)] = size[cid(PINK, k)] = v
    for k, v in table.items():
        if isinstance(k, str):
            size[_IDS[k]] = v
    roofs = set(options.get("roof_numbers", DEFAULT_ROOFS))
    return tuple(size), tuple(NUMBER[c] in roofs for c in range(72))


ADVANCED_TOP = {3: 30, 4: 20, 5: 25, 6: 30}  # Y12.1


def standard_cards(players: int, options: dict[str, Any]) -> tuple[int, ...]:
    """The card ids dealt in a standard game (Y2.2, Y2.3, Y12.1)."""
    top = ADVANCED_TOP[players] if options.get("card_set") == "advanced" else 36
    if players == 3:
        colour = GREEN if options["three_player_color"] == "green" else PINK
        return tuple(cid(colour, n) for n in range(1, top + 1))
    return tuple(range(2 * top))


_CONFIGS: dict[tuple, Config] = {}


def _freeze(value: Any) -> Any:
    if type(value) is dict:
        return None if value is DEFAULT_SIZE_TABLE else tuple((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def config(mode: str, players: int, options: dict[str, Any]) -> Config:
    """The :class:`Config` of resolved options (cached: simulations build many games alike)."""
    try:
        key = (mode, players, *[None if v is DEFAULT_SIZE_TABLE else v for v in options.values()])
        hit = _CONFIGS.get(key)
    except TypeError:  # a dict or a list among the values
        key = (mode, players, _freeze(options))
        hit = _CONFIGS.get(key)
    if hit is None:
        hit = _make_config(mode, players, options)
        if len(_CONFIGS) < 2000:
            _CONFIGS[key] = hit
    return hit


_DEFAULT_CONFIGS: dict[tuple[str, int], Config] = {}


def default_config(mode: str, players: int, options: dict[str, Any]) -> Config:
    """:func:`config` of options that are all at their defaults (a game set up without options,
    as simulations do by the thousand): looked up by mode and player count alone."""
    hit = _DEFAULT_CONFIGS.get((mode, players))
    if hit is None:
        hit = _DEFAULT_CONFIGS[(mode, players)] = config(mode, players, options)
    return hit


def _make_config(mode: str, players: int, o: dict[str, Any]) -> Config:
    size, roof = size_tables(o)
    roofset = frozenset(c for c in range(72) if roof[c])
    if mode == "standard":
        return Config(
            mode, players, size, roof, standard_cards(players, o), roofset,
            track=o["size_track"], marker_start=o["marker_start"], reset_marker=o["reset_marker_each_round"],
            capture_all=o["three_player_capture"] == "all", choose=o["placement_order"] == "choose",
            house_limit=o["house_limit"], last_entitled=o["tie_leader"] == "last_entitled",
            dealer=players - 1 if o["dealer"] is None else o["dealer"],
            rotate=o["dealer_rotation"] == "clockwise",
            rounds=players if o["rounds"] is None else o["rounds"],
            collapsed_public=o["collapsed_visibility"] == "public",
        )
    if mode == "duo":
        colour = GREEN if o["duo_color"] == "green" else PINK
        first = o["duo_first_leader"]
        humans = [first, 1 - first]
        order = tuple(NPC if pos == o["npc_seat"] else humans.pop(0) for pos in range(3))
        seq = tuple(tuple(order[(lead + i) % 3] for i in range(3)) for lead in range(3))
        return Config(mode, players, size, roof, tuple(cid(colour, n) for n in NUMBERS), roofset,
                      house_limit=o["house_limit"], collapsed_public=o["collapsed_visibility"] == "public",
                      order=order, seq=seq, roofs_apply=o["duo_roofs"])
    removed = set(o["solo_removed"])
    return Config(mode, players, size, roof, tuple(c for c in range(72) if NUMBER[c] not in removed), roofset,
                  one_color=o["solo_initial_row"] == "one_color", nonstrict=o["solo_roof_insert_nonstrict"],
                  complete=o["solo_house_complete"], chain=o["solo_bonus_chain"],
                  bonus_on_setup=o["solo_bonus_on_setup"])


_DEFAULT_SIZE, _DEFAULT_ROOF = size_tables({})


def size_of(card: str) -> int:
    """The default house size of a card name (Y1.6)."""
    c = card_id(card)
    if c is None:
        raise ValueError(f"{show(card)} is not a card")
    return _DEFAULT_SIZE[c]


# --------------------------------------------------------------------------- scoring
def round_score(h: int, f: int, t: int) -> int:
    """A standard round score: H below the target, H + 5 on it, T - H above it, minus F (Y10.2, Y10.3).

    >>> [round_score(h, f, 11) for h, f in ((6, 5), (11, 3), (0, 0), (0, 4), (12, 0))]
    [1, 13, 0, -4, -1]
    """
    base = h if h < t else h + 5 if h == t else t - h
    return base - f


def judge_standard(cards: Sequence[int], players: int, size: Sequence[int],
                   capture_all: bool = True) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """Judge a complete standard trick (card ids in play order): ``(movers, captures)``.

    ``movers`` are the play positions with the lowest number, in play order (Y5.1,
    Y6.1); ``captures`` lists ``(captor position, captured cards in play order)`` in
    captor order (Y5.2, Y6.2). Cards in no capture are discarded (Y5.3, Y6.3). The
    engine judges inline for speed; this is the same rule for bots and tests.

    >>> g = lambda *cs: [card_id(c) for c in cs]
    >>> size = [default_size(NUMBER[c]) for c in range(72)]
    >>> movers, caps = judge_standard(g("G25", "P8", "G17", "P29"), 4, size)
    >>> movers, [(p, [NAME[c] for c in cs]) for p, cs in caps]
    ([1], [(0, ['G25', 'G17']), (3, ['P8'])])
    """
    low = min(cards) >> 1
    movers = [i for i, c in enumerate(cards) if c >> 1 == low]
    if players == 3:
        hi = cards.index(max(cards))
        if capture_all:
            return movers, [(hi, list(cards))]
        smax = max(size[c] for c in cards)
        return movers, [(hi, [c for c in cards if size[c] == smax])]
    caps = []
    for colour in (GREEN, PINK):
        mine = [c for c in cards if c & 1 == colour]
        if mine:
            smax = max(size[c] for c in mine)
            caps.append((cards.index(max(mine)), [c for c in mine if size[c] == smax]))
    caps.sort()
    return movers, caps


def judge_duo(cards: Sequence[int], size: Sequence[int]) -> tuple[int, list[int]]:
    """Judge a duo trick: ``(captor position, captured cards)`` (Y13.6)."""
    smax = max(size[c] for c in cards)
    return cards.index(max(cards)), [c for c in cards if size[c] == smax]


def duo_winner_seats(h0: int, h1: int, t: int) -> tuple[int, ...]:
    """The winners of :func:`duo_winners` alone (the end of every simulated duo game).

    >>> duo_winner_seats(10, 11, 12), duo_winner_seats(13, 5, 12), duo_winner_seats(15, 15, 12)
    ((1,), (1,), (0, 1))
    """
    b0 = h0 > t
    if b0 == (h1 > t):
        if h0 == h1:
            return (0, 1)
        return ((0,) if h0 < h1 else (1,)) if b0 else ((0,) if h0 > h1 else (1,))
    return (1,) if b0 else (0,)


def duo_winners(h0: int, h1: int, t: int, labels: tuple[str, str] = ("A", "B")) -> tuple[tuple[int, ...], str]:
    """Who wins a duo game with house sizes ``h0``, ``h1`` and target ``t`` (Y13.10); ``labels``
    name the players in the reason.

    >>> duo_winners(10, 11, 12), duo_winners(13, 5, 12)[0], duo_winners(14, 13, 12)[0], duo_winners(9, 9, 12)[0]
    (((1,), 'neither bursts and B is closer'), (1,), (1,), (0, 1))
    """
    b0, b1 = h0 > t, h1 > t
    if b0 == b1:
        if h0 == h1:
            return (0, 1), ("both burst" if b0 else "neither bursts") + " and the houses are equal"
        closer = (0 if h0 < h1 else 1) if b0 else (0 if h0 > h1 else 1)
        return (closer,), ("both burst" if b0 else "neither bursts") + f" and {labels[closer]} is closer"
    keep = 1 if b0 else 0
    return (keep,), f"{labels[1 - keep]} bursts"


# --------------------------------------------------------------------------- actions
def _card(value: Any, what: str) -> int:
    c = card_id(value) if isinstance(value, str) else None
    if c is None:
        raise InvalidActionError(f"{what}: {show(value, 20)} is not a card; cards are G1-G36 and P1-P36")
    return c


def _crab(value: Any, what: str) -> str:
    if isinstance(value, str) and len(value.strip()) == 1 and value.strip().upper() in CRABS:
        return value.strip().upper()
    raise InvalidActionError(f"{what}: {show(value, 20)} is not a crab; crabs are A, B, C and D")


def _colour(value: Any, what: str) -> str:
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("green", "g"):
            return "green"
        if v in ("pink", "p"):
            return "pink"
    raise InvalidActionError(f"{what}: {show(value, 20)} is not a colour; say green or pink")


_PLAYS: list[Any] = [None] * 72


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """Play a card from your hand (Y4.2, Y13.5).

    There is one ``Play`` object per card (``Play("G25") is Play("g25")``), so plays
    compare by identity, which keeps removing a card from a hand fast.

    >>> Play("g25"), str(Play("P8")), Play("P8") == Play("p8")
    (Play(card='G25'), 'play P8', True)
    """

    kind = "play"
    card: str
    cid: int = field(init=False, repr=False, compare=False)

    def __new__(cls, card: Any) -> "Play":
        c = _card(card, "play")
        hit = _PLAYS[c]
        if hit is None:
            hit = _PLAYS[c] = object.__new__(cls)
        return hit

    def __post_init__(self) -> None:
        c = _card(self.card, "play")
        object.__setattr__(self, "card", NAME[c])
        object.__setattr__(self, "cid", c)

    def __reduce__(self) -> tuple:
        return (Play, (self.card,))

    def __str__(self) -> str:
        return "play " + self.card


_DELTA = {"left": -1, "right": 1, "stay": 0}


@dataclass(frozen=True, slots=True)
class Move:
    """Move the size marker one step left (down), right (up), or leave it (Y7.2).

    >>> Move("right").delta, str(Move("stay"))
    (1, 'move stay')
    """

    kind = "move"
    direction: str
    delta: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        d = self.direction.strip().lower() if isinstance(self.direction, str) else None
        if d not in _DELTA:
            raise InvalidActionError(f"move: {show(self.direction, 20)} is not left, right or stay")
        object.__setattr__(self, "direction", d)
        object.__setattr__(self, "delta", _DELTA[d])

    def __str__(self) -> str:
        return "move " + self.direction


@dataclass(frozen=True, slots=True)
class Arrange:
    """Place your captured cards in this order, bottom to top (Y8.3, ``placement_order="choose"``).

    >>> str(Arrange(("g26", "G10")))
    'arrange G26,G10'
    """

    kind = "arrange"
    cards: tuple[str, ...]
    cids: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.cards, (tuple, list)) or not 1 <= len(self.cards) <= 12:
            raise InvalidActionError("arrange: give the captured cards as a tuple of 1 to 12 card names")
        ids = tuple(_card(c, "arrange") for c in self.cards)
        if len(set(ids)) != len(ids):
            raise InvalidActionError("arrange: a card is named twice")
        object.__setattr__(self, "cards", tuple(NAME[c] for c in ids))
        object.__setattr__(self, "cids", ids)

    def __str__(self) -> str:
        return "arrange " + ",".join(self.cards)


_PLACES: list[Any] = [None] * (72 * 4)


@dataclass(frozen=True, slots=True, eq=False)
class Place:
    """Solo: place a row card on crab A, B, C or D (Y14.4).

    There is one ``Place`` object per card and crab, as for :class:`Play`: placements compare
    by identity, which keeps the row's placement lists fast to update.

    >>> Place("g17", "b"), str(Place("P5", "D")), Place("P5", "d") is Place("p5", "D")
    (Place(card='G17', crab='B'), 'place P5 D', True)
    """

    kind = "place"
    card: str
    crab: str
    cid: int = field(init=False, repr=False, compare=False)
    k: int = field(init=False, repr=False, compare=False)

    def __new__(cls, card: Any, crab: Any) -> "Place":
        i = 4 * _card(card, "place") + CRABS.index(_crab(crab, "place"))
        hit = _PLACES[i]
        if hit is None:
            hit = _PLACES[i] = object.__new__(cls)
        return hit

    def __post_init__(self) -> None:
        c = _card(self.card, "place")
        crab = _crab(self.crab, "place")
        object.__setattr__(self, "card", NAME[c])
        object.__setattr__(self, "crab", crab)
        object.__setattr__(self, "cid", c)
        object.__setattr__(self, "k", CRABS.index(crab))

    def __reduce__(self) -> tuple:
        return (Place, (self.card, self.crab))

    def __str__(self) -> str:
        return f"place {self.card} {self.crab}"


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Solo: give up a crab's whole house as a penalty (Y14.11).

    >>> str(GiveUp("c"))
    'giveup C'
    """

    kind = "giveup"
    crab: str
    k: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        crab = _crab(self.crab, "giveup")
        object.__setattr__(self, "crab", crab)
        object.__setattr__(self, "k", CRABS.index(crab))

    def __str__(self) -> str:
        return "giveup " + self.crab


@dataclass(frozen=True, slots=True)
class _ColourAction:
    """A solo action naming a deck, written ``"<kind> <colour>"``; subclasses set ``kind``."""

    kind = ""
    colour: str
    colour_id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        c = _colour(self.colour, self.kind)
        object.__setattr__(self, "colour", c)
        object.__setattr__(self, "colour_id", COLOURS.index(c))

    def __str__(self) -> str:
        return self.kind + " " + self.colour


@dataclass(frozen=True, slots=True)
class Draw(_ColourAction):
    """Solo: draw the next row card from the green or the pink deck (Y14.2, Y14.9).

    >>> str(Draw("G")), Draw("pink").colour_id
    ('draw green', 1)
    """

    kind = "draw"


@dataclass(frozen=True, slots=True)
class Row(_ColourAction):
    """Solo with ``solo_initial_row="one_color"``: draw the whole first row from one deck (Y14.2).

    >>> str(Row("pink"))
    'row pink'
    """

    kind = "row"


@dataclass(frozen=True, slots=True)
class Take:
    """Solo: take one card of the consecutive-number group to the score pile (Y14.10).

    >>> str(Take("p19"))
    'take P19'
    """

    kind = "take"
    card: str
    cid: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        c = _card(self.card, "take")
        object.__setattr__(self, "card", NAME[c])
        object.__setattr__(self, "cid", c)

    def __str__(self) -> str:
        return "take " + self.card


@dataclass(frozen=True, slots=True)
class Decline:
    """Solo: let the consecutive-number bonus go (Y14.10).

    >>> str(Decline())
    'decline'
    """

    kind = "decline"

    def __str__(self) -> str:
        return "decline"


ACTION_TYPES = (Play, Move, Arrange, Place, GiveUp, Draw, Row, Take, Decline)

# Interned actions: legal lists hand out the same objects every time.
PLAY = tuple(Play(NAME[c]) for c in range(72))
MOVE = {d: Move(d) for d in ("left", "right", "stay")}
PLACE = tuple(tuple(Place(NAME[c], k) for k in CRABS) for c in range(72))
GIVEUP = tuple(GiveUp(k) for k in CRABS)
DRAW = (Draw("green"), Draw("pink"))
ROW = (Row("green"), Row("pink"))
TAKE = tuple(Take(NAME[c]) for c in range(72))
DECLINE = Decline()
_ARRANGE: dict[tuple[int, ...], Arrange] = {}


def arrange(cids: tuple[int, ...]) -> Arrange:
    a = _ARRANGE.get(cids)
    if a is None:
        a = Arrange(tuple(NAME[c] for c in cids))
        if len(_ARRANGE) < 50_000:
            _ARRANGE[cids] = a
    return a


# --------------------------------------------------------------------------- notation (§ action notation)
_EXAMPLES = ("expected e.g. 'play G25' (or 'G25'), 'move left' ('<', '>', '='), 'arrange G26,G10', "
             "'place G17 B' ('G17>B'), 'giveup C' ('xC'), 'draw green' ('dG'), 'take P19' ('+P19'), "
             "'decline' ('+-') or 'row pink'")


def _card_token(tok: str, text: str) -> int:
    c = card_id(tok)
    if c is None:
        raise InvalidActionError(f"{quote(text)}: {quote(tok, 14)} is not a card; cards are G1-G36 and P1-P36")
    return c


def _crab_token(tok: str, text: str) -> int:
    t = tok.upper()
    if len(t) != 1 or t not in CRABS:
        raise InvalidActionError(f"{quote(text)}: {quote(tok, 14)} is not a crab; crabs are A, B, C and D")
    return CRABS.index(t)


def _colour_token(tok: str, text: str) -> int:
    t = tok.lower()
    if t in ("green", "g"):
        return GREEN
    if t in ("pink", "p"):
        return PINK
    raise InvalidActionError(f"{quote(text)}: {quote(tok, 14)} is not a colour; say green or pink")


def parse_action(text: str) -> Any:
    """Parse Yadokarick notation, long or short form (see the rules reference's action notation).

    Long forms: ``play G25``, ``move left|right|stay``, ``arrange G26,G10``,
    ``place G17 B``, ``giveup C``, ``draw green|pink``, ``take P19``, ``decline``,
    ``row green|pink``. Short forms: ``G25``, ``<`` ``>`` ``=``, ``G17>B``, ``xC``,
    ``dG`` / ``dP``, ``+P19``, ``+-``. Case does not matter. Linear in the text.

    >>> [str(parse_action(t)) for t in ("g25", ">", "xb", "dP", "+p19", "give up a", "arrange g1 g5")]
    ['play G25', 'move right', 'giveup B', 'draw pink', 'take P19', 'giveup A', 'arrange G1,G5']
    >>> parse_action("play G37")
    Traceback (most recent call last):
    ...
    cardwidgets.core.errors.InvalidActionError: 'play G37': 'G37' is not a card; cards are G1-G36 and P1-P36
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"{show(text)} is not action text")
    s = text.strip()
    if not s:
        raise InvalidActionError(f"empty action text; {_EXAMPLES}")
    if s in ("<", ">", "="):
        return MOVE["left" if s == "<" else "right" if s == ">" else "stay"]
    if s == "+-":
        return DECLINE
    if ">" in s:
        card, _, crab = s.partition(">")
        card = card.strip()
        if card[:5].lower() == "place":
            card = card[5:].strip()
        return PLACE[_card_token(card, text)][_crab_token(crab.strip(), text)]
    tokens = s.replace(",", " ").split()
    if not tokens:  # nothing but commas
        raise InvalidActionError(f"{quote(text)}: no action, only separators; {_EXAMPLES}")
    verb = tokens[0].lower()
    rest = tokens[1:]
    if len(tokens) == 1:
        c = card_id(s)
        if c is not None:
            return PLAY[c]
        head, tail = s[0].lower(), s[1:]
        if head == "x" and tail:
            return GIVEUP[_crab_token(tail, text)]
        if head == "d" and tail and verb not in ("draw", "decline"):
            return DRAW[_colour_token(tail, text)]
        if head == "+" and tail:
            return TAKE[_card_token(tail, text)]
        if verb == "decline":
            return DECLINE
        if verb in ("play", "move", "arrange", "place", "giveup", "draw", "take", "row"):
            raise InvalidActionError(f"{quote(text)}: {verb} needs more; {_EXAMPLES}")
        raise InvalidActionError(f"{quote(text)}: unknown action; {_EXAMPLES}")
    if verb == "play" and len(rest) == 1:
        return PLAY[_card_token(rest[0], text)]
    if verb == "move" and len(rest) == 1:
        d = {"<": "left", ">": "right", "=": "stay"}.get(rest[0], rest[0].lower())
        if d in MOVE:
            return MOVE[d]
        raise InvalidActionError(f"{quote(text)}: move left, move right or move stay")
    if verb == "arrange":
        if len(rest) > 12:
            raise InvalidActionError(f"{quote(text)}: at most 12 cards can be arranged")
        ids = tuple(_card_token(t, text) for t in rest)
        if len(set(ids)) != len(ids):
            raise InvalidActionError(f"{quote(text)}: a card is named twice")
        return arrange(ids)
    if verb == "place" and len(rest) in (2, 3):
        if len(rest) == 3 and rest[1].lower() != "on":
            raise InvalidActionError(f"{quote(text)}: expected 'place <card> <crab>', e.g. 'place G17 B'")
        return PLACE[_card_token(rest[0], text)][_crab_token(rest[-1], text)]
    if verb == "giveup" and len(rest) == 1:
        return GIVEUP[_crab_token(rest[0], text)]
    if verb == "give" and len(rest) == 2 and rest[0].lower() == "up":
        return GIVEUP[_crab_token(rest[1], text)]
    if verb == "draw" and len(rest) == 1:
        return DRAW[_colour_token(rest[0], text)]
    if verb == "row" and len(rest) == 1:
        return ROW[_colour_token(rest[0], text)]
    if verb == "take" and len(rest) == 1:
        return TAKE[_card_token(rest[0], text)]
    raise InvalidActionError(f"{quote(text)}: {_EXAMPLES}")


# --------------------------------------------------------------------------- decks
def check_deck(deck: Any, need: Sequence[int], what: str) -> list[int]:
    """Card ids of a ``deck=[...]`` list (top first), which must be exactly the cards ``need``
    (the card set of ``what``)."""
    try:
        return _core_check_deck(deck, need, card_id, NAME.__getitem__, "card name (G1-G36, P1-P36)")
    except ValueError as e:
        raise ValueError(f"{e} (the cards of {what})") from None


def decode_cards(value: Any, what: str = "cards") -> list[int]:
    """Card ids from a list of names (``from_dict``); ``ValueError`` on anything else."""
    return read_cards(value, card_id, what, "G1-G36, P1-P36")


def encode_lists(lists: Sequence[Sequence[int]]) -> list[list[str]]:
    return [[NAME[c] for c in x] for x in lists]


def decode_lists(value: Any, what: str = "cards") -> list[list[int]]:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list of lists of card names")
    return [decode_cards(x, what) for x in value]


class LoadError(ValueError):
    """A loaded state (``from_dict``, position text) that no game could reach.

    ``key`` names the part that is wrong, as the field of the position text it is
    written in (``hands``, ``turn`` ...), so that a position error can point at its column.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key, self.reason = key, message


def check_seat(value: Any, n: int, key: str, none_ok: bool = False) -> None:
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise LoadError(key, f"expected a seat 0..{n - 1}, got {show(value, 20)}")


def small_int(value: Any, key: str, lo: int = 0, hi: int = 10**6) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise LoadError(key, f"expected an int from {lo} to {hi}, got {show(value, 20)}")


def check_flag(value: Any, key: str) -> None:
    if not isinstance(value, bool):
        raise LoadError(key, f"expected True or False, got {show(value, 20)}")


def check_record(st: Any, kinds: tuple[type, ...]) -> None:
    """What every mode checks on loading: the history holds actions of this mode and ends with
    the last action the views show; a ``deck=`` order is the cards of this game; a hand-built
    start (``position``) is itself a sound position of the same game, mode and options."""
    last = st._last[1] if st.mode != "solo" and st._last is not None else st._last
    if last is not None and not isinstance(last, kinds):
        raise LoadError("last_action", f"{last} is not an action of the {st.mode} mode")
    if st._history is not None:
        node, a = st._history
        if last is None or str(a) != str(last):
            raise LoadError("last_action", f"the history ends with {a}, but the last action is {last}")
        while True:
            if not isinstance(a, kinds):
                raise LoadError("history", f"{a} is not an action of the {st.mode} mode")
            if node is None:
                break
            node, a = node
    if st.deck_order is not None:
        if st._origin is not None:
            raise LoadError("deck", "a game starts from a deck order or from a hand-built position, not both")
        check_deck(list(st.deck_order), st._cfg.cards, f"this {st.mode} game")
    origin = st._origin
    if origin is None:
        return
    loaders = game_module(st.SPEC.name)  # the modes' loaders (the package imports this module)
    if isinstance(origin, str):
        start = loaders.from_position(origin, st.seed)
    elif isinstance(origin, dict):
        start = loaders.from_dict({**origin, "history": [], "position": None})
    else:
        raise LoadError("position", f"a hand-built start is position text or a saved state, not "
                                    f"{type(origin).__name__}")
    if (type(start), start.players, start.options) != (type(st), st.players, st.options):
        raise LoadError("position", "the hand-built start is another game: its mode, players or options differ")


def _cap(text: str) -> str:
    """``"the NPC ..."`` -> ``"The NPC ..."`` at the start of a sentence."""
    return text[:1].upper() + text[1:]


__all__ = [
    "ACTION_TYPES", "Arrange", "COLOURS", "CRABS", "Config", "DEFAULT_ROOFS", "DEFAULT_SIZE_TABLE", "Decline",
    "Draw", "GiveUp", "Move", "NAME", "NUMBER", "Place", "Play", "Row", "Take", "card_id", "config",
    "default_size", "duo_winners", "parse_action", "round_score", "size_of",
]
