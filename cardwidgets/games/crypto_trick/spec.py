"""Crypto Trick's declaration: the options and their checks, ``SPEC``, the configuration
(:class:`Config`) every rule reads, the scoring of a round (C9) and the trick rules a
configuration implies (following, the winner of a trick).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...core import GameSpec, Mode, Option, Phase
from ...core.deck import check_deck
from ...core.spec import int_range, seat_or_random
from ...core.state import seat_name
from .cards import (DEFAULT_BLOCKS, DEFAULT_LABELS, DEFAULT_NUMBERS, DEFAULT_WHITES, HAND_SIZE, LETTERS, MAX_NUMBER,
                    NAMES, PLAYERS, REGULAR, TRICKS, WHITE, _LEAD, _OFF, _TRUMP, _WHITE_HIGH, _bad, _cid, _fmt, _names,
                    card_id, card_name)


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


# --------------------------------------------------------------------------- configuration and scoring
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


# --------------------------------------------------------------------------- phases and a round's record
OFFER, DECLARE, GIVE, FOLLOW, FINISHED = range(5)
PHASES = ("offer", "declare", "give", "follow", "finished")


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


# --------------------------------------------------------------------------- following and winning a trick (C6, C7)
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


def _deck_list(deck: Any, cfg: Config) -> list[int]:
    try:
        return check_deck(deck, cfg.deck, card_id, card_name, what="card name like 'Y3'")
    except ValueError as e:
        raise ValueError(f"{e} (rule C2.2: {len(cfg.deck)} cards with {cfg.players} players)") from None
