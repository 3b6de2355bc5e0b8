"""Yadokarick's games set up: ``new_game`` in each mode, ``from_position``, ``from_dict`` and the
hand-built positions (``setup_position``, ``setup_standard``, ``setup_duo``, ``setup_solo``). The
rules are the modes' state classes, in ``trick.py`` (standard and duo) and ``solo.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

from ...core import Event, Recorded
from ...core.deck import read_cards
from ...core.position import load_position
from .cards import (CRABS, GREEN, NAME, NPC, PINK, PLAY, TRICKS, card_id, check_deck, config, default_config,
                    names)
from .solo import SoloState
from .spec import DUO, SOLO, SPEC, STANDARD, check_options
from .trick import DuoState, StandardState

_CLASSES = {STANDARD: StandardState, DUO: DuoState, SOLO: SoloState}
_DEFAULT_PLAYERS = {STANDARD: 4, DUO: 2, SOLO: 1}


class _ModeDefault:
    """``players`` not given: the mode's usual count (standard 4, duo 2, solo 1)."""

    def __repr__(self) -> str:
        return "<the mode's default>"


_UNSET: Any = _ModeDefault()


def _mode_of(mode: Any) -> str:
    return mode if mode.__class__ is str and mode in _CLASSES else SPEC.mode(mode).name  # SPEC.mode: errors


def new_game(players: int = _UNSET, seed: int | None = None, deck: Sequence[Any] | None = None, *,
             mode: str = STANDARD, chance: Recorded | None = None, **options: Any):
    """Set up a Yadokarick game.

    Parameters
    ----------
    players:
        3–7 (standard, default 4), 2 (duo) or 1 (solo).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup instead of a shuffle: card names, index 0 = the top. Standard:
        the cards of this player count and card set, dealt one at a time clockwise from
        the dealer's left, the rest set aside (round 1 only, Y2.6). Duo: the 36 cards of
        ``duo_color``; 20 dealt alternately to the players, the first player in table
        order first, the other 16 the NPC deck, top first (Y13.13). Solo: both colours
        (without ``solo_removed``); each colour's cards in list order form its deck,
        top first (Y14.15).
    mode:
        ``"standard"``, ``"duo"`` or ``"solo"`` (Y0.6).
    chance:
        Recorded chance decisions instead of the seeded ones.
    **options:
        The options of ``SPEC`` for that mode (an option of another mode is a
        ``ValueError``).

    Examples
    --------
    >>> [new_game(mode=m, seed=1).players for m in ("standard", "duo", "solo")]
    [4, 2, 1]
    >>> new_game(players=7, card_set="advanced")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: card_set='advanced' is not allowed with 7 players: the advanced card sets are for 3 to 6 ...
    """
    m = _mode_of(mode)
    if players is _UNSET:
        players = _DEFAULT_PLAYERS[m]
    if m == STANDARD:
        return _new_standard(players, seed, deck, chance, options)
    if m == DUO:
        return _new_duo(players, seed, deck, chance, options)
    return _new_solo(players, seed, deck, chance, options)


def _first_order(st: Any, deck: Any) -> list[int]:
    """The first deal's card order: the checked ``deck=`` (kept in ``deck_order``), or a shuffle."""
    if deck is not None:
        what = (f"a duo game in {st.options['duo_color']}" if st.mode == DUO
                else f"a {st.players}-player {st.options['card_set']} game")
        order = check_deck(deck, st._cfg.cards, what)
        st.deck_order = tuple(names(order))
        return order
    order = list(st._cfg.cards)
    st._shuffle(order)
    return order


def _new_standard(players: Any, seed: Any, deck: Any, chance: Any, options: dict) -> StandardState:
    st = StandardState._create(players, seed, STANDARD, options, chance)
    check_options(st)
    cfg = st._cfg = (config if options else default_config)(STANDARD, st.players, st.options)
    order = _first_order(st, deck)
    n = st.players
    st._round = 1
    st._dealer = cfg.dealer
    st._totals = (0,) * n
    st._results = ()
    st._last = None
    st._winners = None
    st._marker = cfg.marker_start
    events: list[Event] = []
    st._start_round(order, events)
    st.setup_events = events
    return st


def _new_duo(players: Any, seed: Any, deck: Any, chance: Any, options: dict) -> DuoState:
    st = DuoState._create(players, seed, DUO, options, chance)
    st._cfg = (config if options else default_config)(DUO, st.players, st.options)
    order = _first_order(st, deck)
    st._cur = None
    st._last = None
    st._winners = None
    events: list[Event] = []
    st._start(order, events)
    st.setup_events = events
    return st


def _blank_solo(players: Any, seed: Any, chance: Any, options: dict) -> SoloState:
    st = SoloState._create(players, seed, SOLO, options, chance)
    st.is_terminal = False
    st._cfg = (config if options else default_config)(SOLO, st.players, st.options)
    st._row = []
    st._crabs = [[], [], [], []]
    st._roofmode = (False,) * 4
    st._reaccept()
    st._score = []
    st._penalty = []
    st._out = ()
    st._bonus = ()
    st._bonus_used = False
    st._setup = True
    st._setup_color = None
    st._turns = 0
    st._last = None
    return st


def _new_solo(players: Any, seed: Any, deck: Any, chance: Any, options: dict) -> SoloState:
    st = _blank_solo(players, seed, chance, options)
    cfg = st._cfg
    if deck is not None:
        order = check_deck(deck, cfg.cards, "a solo game")
        st.deck_order = tuple(names(order))
        green = [c for c in order if c & 1 == GREEN]
        pink = [c for c in order if c & 1 == PINK]
    else:
        green = [c for c in cfg.cards if c & 1 == GREEN]
        pink = [c for c in cfg.cards if c & 1 == PINK]
        st._shuffle(green)
        st._shuffle(pink)
    st._decks = [green[::-1], pink[::-1]]
    events: list[Event] = []
    if cfg.one_color:
        st._phase = "setup_color"
    else:
        st._phase = "setup"
        st._fill(events)
    st.setup_events = events
    return st


def from_position(text: str, seed: int | None = None):
    """A state from position text (``state.to_position()``; the grammar is in the rules
    reference, "Position text"). Unknown parts (``?``) are dealt with ``seed``, which also
    seeds every later shuffle. Raises :class:`~cardwidgets.core.position.PositionError`,
    also for a position no game reaches: the piles hold the cards of the tricks over, and
    only the standard card set sets cards aside.

    >>> st = from_position("yadokarick/1 players=4 mode=standard trick=2 turn=C marker=12 "
    ...                    "hands=G3,?8/?/?/? houses=G2/-/-/P8 discard=G25,P29", seed=1)
    >>> st.current_player, len(st.hand(2)), "G3" in st.hand(0), len(st.view(None)["aside"])
    (2, 9, True, 32)
    >>> from_position("yadokarick/1 players=4 mode=standard trick=2 hands=?/?/?/?", seed=1)
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 59 (discard): at trick 2, 1 trick of 4 cards is over, so 4 cards lie in the houses, the collapsed piles and the discard pile (rules Y4.2, Y6.2, Y6.3, Y8.2); 0 are written there
    """
    return load_position(text, seed, lambda mode: _CLASSES[SPEC.mode(mode).name])


def from_dict(data: dict[str, Any]):
    """A state saved with ``to_dict`` (any mode)."""
    mode = data.get("mode") if isinstance(data, dict) else None
    cls = _CLASSES.get(mode if isinstance(mode, str) else STANDARD, StandardState)
    return cls.from_dict(data)


# --------------------------------------------------------------------------- hand-built positions
def _ids(cards: Any, what: str) -> list[int]:
    return read_cards(cards, card_id, what, "G1-G36, P1-P36")


def _lists(value: Any, count: int, what: str) -> list[list[int]]:
    if value is None:
        return [[] for _ in range(count)]
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise ValueError(f"{what}: expected {count} lists of card names")
    return [_ids(x, f"{what}[{i}]") for i, x in enumerate(value)]


def _claim(used: Counter, cards: Sequence[int], allowed: set[int], what: str) -> None:
    for c in cards:
        if c not in allowed:
            raise ValueError(f"{what}: {NAME[c]} is not a card of this game")
        used[c] += 1
        if used[c] > 1:
            raise ValueError(f"{NAME[c]} is placed twice")


def _read_table(cfg: Any, hand_seats: int, table_seats: int, hands: Any, houses: Any, collapsed: Any,
                trick: Any, discard: Any) -> tuple[set[int], Counter, tuple[list, ...]]:
    """The zones of a hand-built trick position (standard or duo) as card ids, with the cards of
    the game and how often each is placed: a card of another set, or one placed twice, is refused."""
    allowed = set(cfg.cards)
    used: Counter = Counter()
    hs = _lists(hands, hand_seats, "hands")
    hz = _lists(houses, table_seats, "houses")
    cz = _lists(collapsed, table_seats, "collapsed")
    tz = _ids(trick, "trick")
    dz = _ids(discard, "discard")
    if len(tz) >= table_seats:
        raise ValueError(f"trick: at most {table_seats - 1} cards may be down already")
    for what, zone in (("hands", hs), ("houses", hz), ("collapsed", cz)):
        for i, cards in enumerate(zone):
            _claim(used, cards, allowed, f"{what}[{i}]")
    _claim(used, tz, allowed, "trick")
    _claim(used, dz, allowed, "discard")
    return allowed, used, (hs, hz, cz, tz, dz)


def _left_over(st: Any, cfg: Any, houses: list[list[int]], used: Counter) -> list[int]:
    """The cards placed nowhere, shuffled with the position's seed (after checking the houses, Y8.4)."""
    if any(len(h) > cfg.house_limit for h in houses):
        raise ValueError(f"a house holds at most {cfg.house_limit} cards (rule Y8.4)")
    rest = [c for c in cfg.cards if not used[c]]
    st._shuffle(rest)
    return rest


def _fill_hands(hands: list[list[int]], needs: Sequence[int], rest: list[int], fill: bool, trick_no: int,
                who: str) -> None:
    """Check each hand against the cards it still plays and, with ``fill``, top it up from ``rest``."""
    for s, need in enumerate(needs):
        if len(hands[s]) > need or (not fill and len(hands[s]) != need):
            raise ValueError(f"hands[{s}]: {who} {s} must hold {need} cards at trick {trick_no}")
        while len(hands[s]) < need:
            if not rest:
                raise ValueError("not enough cards left to fill the hands")
            hands[s].append(rest.pop())


def _hand_built(st: Any, start: Callable[[list[Event]], Any]) -> Any:
    """Finish a hand-built position: ``start`` plays its automatic first steps (narrated into
    ``setup_events``); then it is held to the same rules as a loaded one, and recorded as the
    game's start."""
    events: list[Event] = []
    start(events)
    st.setup_events = events
    st._check_loaded()
    st._mark_origin()
    return st


def setup_position(mode: str = STANDARD, **kwargs: Any):
    """A hand-built position for lessons and tests (``mode`` picks the engine).

    * standard: :func:`setup_standard`; duo: :func:`setup_duo`; solo: :func:`setup_solo`.

    >>> st = setup_position(players=4, hands=[["G25"], ["P8"], ["G17"], ["P29"]])
    >>> [e.text for e in st.apply("play G25") + st.apply("play P8")][1]
    'B plays P8, size 4 (rule Y4.2).'
    """
    m = _mode_of(mode)
    if m == STANDARD:
        return setup_standard(**kwargs)
    if m == DUO:
        return setup_duo(**kwargs)
    return setup_solo(**kwargs)


def setup_standard(players: int = 4, hands: Sequence[Sequence[str]] | None = None, *,
                   houses: Sequence[Sequence[str]] | None = None, collapsed: Sequence[Sequence[str]] | None = None,
                   roofed: Sequence[bool] | None = None, discard: Sequence[str] = (), trick: Sequence[str] = (),
                   leader: int = 0, marker: int | None = None, trick_no: int = 1, round: int = 1,
                   dealer: int | None = None, totals: Sequence[int] | None = None, fill: bool = True,
                   seed: int = 0, **options: Any) -> StandardState:
    """A standard position: it is trick ``trick_no`` and ``leader`` led it; ``trick`` lists the
    cards played so far (from the leader on). Houses are listed bottom to top; ``roofed``
    defaults to "the house holds a roof card". Each hand must hold at most the cards
    still to play; with ``fill`` (default) short hands are topped up with cards left over,
    shuffled with ``seed``. Cards nowhere else are set aside. Replays record the position.
    A scenario may leave out cards a real game would have played by then (the houses and
    the discard pile need not hold every trick over): it plays by the rules all the same,
    but ``from_position`` refuses its ``to_position()`` text, which no game reaches.

    >>> st = setup_standard(4, [["G2"], ["P4"], ["G36"], ["P32"]], trick_no=10, marker=8,
    ...                     houses=[["G4", "G8", "G1"], ["G12", "G16"], [], []])
    >>> st.apply("play G2")[0].text, st.current_player
    ('A plays G2, size 2 (rule Y4.2).', 1)
    """
    st = StandardState._create(players, seed, STANDARD, options, None)
    check_options(st)
    cfg = st._cfg = config(STANDARD, st.players, st.options)
    n = st.players
    if not isinstance(trick_no, int) or not 1 <= trick_no <= TRICKS:
        raise ValueError("trick_no must be 1 to 10")
    if not isinstance(leader, int) or not 0 <= leader < n:
        raise ValueError(f"leader must be a seat 0..{n - 1}")
    if not isinstance(round, int) or not 1 <= round <= cfg.rounds:
        raise ValueError(f"round must be 1 to {cfg.rounds}")
    _, used, (hs, hz, cz, tz, dz) = _read_table(cfg, n, n, hands, houses, collapsed, trick, discard)
    rest = _left_over(st, cfg, hz, used)
    left = TRICKS - trick_no + 1
    _fill_hands(hs, [left - (1 if (s - leader) % n < len(tz) else 0) for s in range(n)], rest, fill,
                trick_no, "seat")
    st._hands = [[PLAY[c] for c in sorted(h)] for h in hs]
    st._aside = tuple(rest)
    st._houses, st._collapsed = hz, cz
    if roofed is None:
        st._roofed = tuple(any(cfg.roof[c] for c in h) for h in hz)
    else:
        if len(roofed) != n or not all(isinstance(r, bool) for r in roofed):
            raise ValueError(f"roofed: expected {n} booleans")
        st._roofed = tuple(roofed)
    st._discard = dz
    st._trick = tz
    st._leader = leader
    st._cur = (leader + len(tz)) % n
    st._phase = "play"
    st._marker = cfg.marker_start if marker is None else marker
    lo, hi = cfg.track
    if not isinstance(st._marker, int) or not lo <= st._marker <= hi:
        raise ValueError(f"marker must be on the size track, {lo} to {hi}")
    st._movers = st._entitled = st._moved = ()
    st._pending = ()
    st.is_terminal = False
    st._trick_no = trick_no
    st._round = round
    st._dealer = (leader - 1) % n if dealer is None else dealer
    if not isinstance(st._dealer, int) or not 0 <= st._dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}")
    st._totals = (0,) * n if totals is None else tuple(totals)
    if len(st._totals) != n or not all(isinstance(t, int) and not isinstance(t, bool) for t in st._totals):
        raise ValueError(f"totals: expected {n} ints")
    st._results = ()
    st._last_trick = None
    st._last = None
    st._winners = None
    st._check_loaded()  # a hand-built position is held to the same rules as a loaded one
    st._mark_origin()
    return st


def setup_duo(hands: Sequence[Sequence[str]] | None = None, *, npc_deck: Sequence[str] | None = None,
              houses: Sequence[Sequence[str]] | None = None, collapsed: Sequence[Sequence[str]] | None = None,
              roofed: Sequence[bool] | None = None, discard: Sequence[str] = (), trick: Sequence[str] = (),
              leader: int | str = 0, trick_no: int = 1, fill: bool = True, seed: int = 0,
              **options: Any) -> DuoState:
    """A duo position. ``hands`` are players 0 and 1; ``houses``/``collapsed``/``roofed`` list
    player 0, player 1 and the NPC. ``leader`` (0, 1 or ``"npc"``) led trick ``trick_no`` and
    ``trick`` holds the cards played so far from the leader on. ``npc_deck`` is listed top
    first (``None``: every card left over, shuffled); with a given deck, leftover cards are
    set aside. If it is the NPC's turn its card is turned over at once (``setup_events``).
    Like :func:`setup_standard`, a scenario that sets cards aside or leaves piles short plays
    by the rules, but ``from_position`` refuses its ``to_position()`` text.

    >>> st = setup_duo([["G6"], ["G13"]], npc_deck=["G34"], trick_no=10)
    >>> [e.text for e in st.apply("play G6")][1]
    'The NPC turns over the top card of its deck: G34, size 2 (rule Y13.5).'
    """
    st = DuoState._create(2, seed, DUO, options, None)
    cfg = st._cfg = config(DUO, 2, st.options)
    if not isinstance(trick_no, int) or not 1 <= trick_no <= TRICKS:
        raise ValueError("trick_no must be 1 to 10")
    lead_who = NPC if leader in ("npc", "NPC", NPC) else leader
    if lead_who not in (0, 1, NPC):
        raise ValueError("leader must be 0, 1 or 'npc'")
    order = cfg.order
    lead = order.index(lead_who)
    allowed, used, (hs, hz, cz, tz, dz) = _read_table(cfg, 2, 3, hands, houses, collapsed, trick, discard)
    nd = None if npc_deck is None else _ids(npc_deck, "npc_deck")
    if nd is not None:
        _claim(used, nd, allowed, "npc_deck")
    rest = _left_over(st, cfg, hz, used)
    left = TRICKS - trick_no + 1
    _fill_hands(hs, [left - (1 if (order.index(s) - lead) % 3 < len(tz) else 0) for s in (0, 1)], rest, fill,
                trick_no, "player")
    npc_need = left - (1 if (order.index(NPC) - lead) % 3 < len(tz) else 0)
    if nd is None:
        nd, rest = rest, []
    if len(nd) < npc_need:
        raise ValueError(f"npc_deck: the NPC still plays {npc_need} cards; its deck has {len(nd)}")
    st._hands = [[PLAY[c] for c in sorted(h)] for h in hs]
    st._npc_deck = nd[::-1]
    st._aside = tuple(rest)
    st._houses, st._collapsed = hz, cz
    if roofed is None:
        st._roofed = tuple(cfg.roofs_apply and any(cfg.roof[c] for c in h) for h in hz)
    else:
        if len(roofed) != 3 or not all(isinstance(r, bool) for r in roofed):
            raise ValueError("roofed: expected 3 booleans (player 0, player 1, NPC)")
        st._roofed = tuple(roofed)
    st._discard = dz
    st._trick = tz
    st._lead = lead
    st._phase = "play"
    st._trick_no = trick_no
    st._cur = None
    st.is_terminal = False
    st._last_trick = None
    st._last = None
    st._winners = None
    return _hand_built(st, st._advance)


def setup_solo(row: Sequence[str] = (), *, crabs: Mapping[str, Sequence[str]] | Sequence[Sequence[str]] | None = None,
               green: Sequence[str] | None = None, pink: Sequence[str] | None = None, score: Sequence[str] = (),
               penalty: Sequence[str] = (), seed: int = 0, **options: Any) -> SoloState:
    """A solo position at the start of a turn. ``crabs`` maps ``"A"``–``"D"`` to stacks listed
    bottom to top (roof mode follows from a roof card in the stack). ``green`` / ``pink`` are
    the decks, top first (``None``: every card of that colour left over, shuffled; with a given
    deck, the colour's leftover cards are out of play, and ``from_position`` refuses the
    ``to_position()`` text of such a scenario: a solo game puts no card out of play). A row
    shorter than 5 is refilled as in a turn (you choose the deck when both have cards); then
    the end of the game is checked.

    >>> st = setup_solo(["G23", "G19", "P27", "P17", "P5"],
    ...                 crabs={"A": ["G21", "G15", "G10"], "B": ["P22", "G17"],
    ...                        "D": ["P36", "P33", "P29", "P25", "P18", "P12"]})
    >>> st.roof_mode("A"), st.is_legal("G23>A"), st.is_legal("G19>A")
    (True, True, False)
    """
    st = _blank_solo(1, seed, None, options)
    cfg = st._cfg
    allowed = set(cfg.cards)
    used: Counter = Counter()
    rz = _ids(row, "row")
    if len(rz) > 5:
        raise ValueError("row: at most 5 cards")
    if crabs is None:
        cz = [[], [], [], []]
    elif isinstance(crabs, Mapping):
        bad = set(crabs) - set(CRABS) - set(CRABS.lower())
        if bad:
            raise ValueError(f"crabs: unknown crab {sorted(bad)[0]!r}; crabs are A, B, C, D")
        cz = [_ids(crabs.get(k, crabs.get(k.lower(), ())), f"crabs[{k}]") for k in CRABS]
    else:
        cz = _lists(crabs, 4, "crabs")
    sz, pz = _ids(score, "score"), _ids(penalty, "penalty")
    for what, cards in (("row", rz), ("score", sz), ("penalty", pz)):
        _claim(used, cards, allowed, what)
    for k, stack in enumerate(cz):
        _claim(used, stack, allowed, f"crabs[{CRABS[k]}]")
        if len(stack) >= cfg.complete:
            raise ValueError(f"crab {CRABS[k]} holds {len(stack)} cards; a house is finished at {cfg.complete}")
    decks, out = [], []
    for colour, given in ((GREEN, green), (PINK, pink)):
        left = [c for c in cfg.cards if c & 1 == colour and not used[c]]
        if given is None:
            st._shuffle(left)
            decks.append(left[::-1])
            continue
        d = _ids(given, "green" if colour == GREEN else "pink")
        if any(c & 1 != colour for c in d):
            raise ValueError(f"the {'green' if colour == GREEN else 'pink'} deck holds a card of the other colour")
        _claim(used, d, allowed, "deck")
        decks.append(d[::-1])
        out += [c for c in left if c not in set(d)]
    st._decks = decks
    st._row = rz
    st._crabs = cz
    st._roofmode = tuple(any(cfg.roof[c] for c in s) for s in cz)
    st._reaccept()
    st._score, st._penalty = sz, pz
    st._out = tuple(out)
    st._setup = False
    st._phase = "turn"
    return _hand_built(st, st._fill)


# --------------------------------------------------------------------------- examples
#: The deck of the module docstring: 4 players, default cards. A gets G1, P2, G4, P5, G25 ...;
#: B gets P1, G3, G5, P8 ...
DEMO_DECK = ["G1", "P1", "G2", "P3", "P2", "G3", "P4", "G6", "G4", "G5", "P6", "G7", "P5", "P8", "G8", "P7"]
DEMO_DECK += ["G25", "G9", "G17", "P29", "G10", "P14", "G11", "P9", "G12", "P15", "G13", "P10", "G14", "G16",
              "G15", "P11", "G19", "G18", "P12", "P13", "G20", "P26", "P16", "P17"]
DEMO_DECK += [NAME[c] for c in range(72) if NAME[c] not in set(DEMO_DECK)]
