"""cirno+neu's declaration: the options and their checks, ``SPEC``, the configuration
(:class:`Config`) every rule reads, the table of who plays next, and the empty table a
new state starts from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ...core import GameSpec, Mode, Option, Phase, Termination
from ...core.deck import check_deck, counts_to_cards
from ...core.spec import int_range, int_table_problem, seat_or_random
from .cards import DEFAULT_DECK, DSHOT, PLAYERS, PLUS_MAX, SHOT, TOKENS, _PLAYT, card_id

if TYPE_CHECKING:
    from .state import CirnoNeuState


#: The engine's bound on the actions (card plays) of one match, counted in its history
#: (the rules set none): a match that reaches it ends as aborted (rule G4), so no deck,
#: option or strategy keeps a kernel busy. ``SPEC.max_actions`` declares it.
ACTION_BOUND = 20_000


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
