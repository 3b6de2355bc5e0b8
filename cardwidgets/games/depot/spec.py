"""Depot's declaration: the options and their checks, and ``SPEC``.
"""

from __future__ import annotations

from typing import Any

from ...core import GameSpec, Mode, Option, Phase
from ...core.spec import int_range, optional, seat_or_random
from .cards import DEFAULT_DECK, DEFAULT_HAND, DEFAULT_STORAGE, MAX_COPIES, PLAYERS, TURN_BOUND, VALUES


def _per_value(value: Any) -> str | None:
    if not isinstance(value, dict) or not value:
        return "expected a dict {value: count} for values 1..8"
    for k, c in value.items():
        if _int_key(k) not in VALUES or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_COPIES:
            return f"expected a dict {{value: count}} with values 1..8 and counts from 0 to {MAX_COPIES}"
    return None


def _per_players(lo: int) -> Any:
    def check(value: Any) -> str | None:
        if not isinstance(value, dict) or {_int_key(k) for k in value} != set(PLAYERS):
            return "expected a dict {players: count} for 3, 4 and 5 players"
        if any(isinstance(c, bool) or not isinstance(c, int) or not lo <= c <= 255 for c in value.values()):
            return f"counts must be ints from {lo} to 255" + (" (a hand of 0 cards could never play, D2.2)"
                                                             if lo else "")
        return None

    return check


def _int_key(k: Any) -> int | None:
    # JSON turns int keys into strings; accept both so saved games load back.
    if isinstance(k, int) and not isinstance(k, bool):
        return k
    if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 4:
        return int(k)
    return None


def _int_keys(value: dict) -> dict[int, int]:
    return {_int_key(k): c for k, c in value.items()}


SPEC = GameSpec(
    name="depot",
    title="Depot",
    version=1,
    summary="climbing/shedding with a shared Storage, 3–5 players, optional 3-game match",
    modes=(Mode("standard", PLAYERS, rule="D1.4"),),
    options=(
        Option("starting_player", 0, check=seat_or_random(4), doc="seat that leads round 1, or 'random'",
               rule="D2.5",
               label="Who leads the first round",
               help="The seat that plays first in round 1.",
               values=(("random", "A random seat"),),
               group="Who starts"),
        Option("deck_counts", DEFAULT_DECK, check=_per_value, doc="cards per value", normalize=_int_keys,
               rule="D1.1",
               label="Cards of each value",
               help="How many cards of each value 1–8 the deck holds.",
               values=((DEFAULT_DECK, "The standard 80 cards: 13 ones down to 7 eights"),),
               accepts="a table of value → number of cards (set from code)",
               group="The cards and the deal"),
        Option("hand_size", DEFAULT_HAND, check=_per_players(1), doc="hand size per player count",
               normalize=_int_keys, rule="D2.2",
               label="Cards in each hand",
               help="How many cards each player is dealt, by the number of players.",
               values=((DEFAULT_HAND, "9 with 3 or 4 players, 8 with 5"),),
               accepts="a table of players → cards (set from code)",
               group="The cards and the deal"),
        Option("initial_storage", DEFAULT_STORAGE, check=_per_players(0), doc="T0 per player count",
               normalize=_int_keys, rule="D2.3",
               label="Cards in the first Storage",
               help="Cards turned face up into the Storage at the start; also the first Storage target.",
               values=((DEFAULT_STORAGE, "3 with 3 players, 4 with 4 or 5"),),
               accepts="a table of players → cards (set from code)",
               group="The cards and the deal"),
        Option("refill_target", "target", ("target", "noted"), doc="what a pass refills to", rule="DA-7",
               label="What a pass refills the Storage to",
               help="When everyone passes, how many cards the Storage is refilled to.",
               values=(("target", "The current Storage target"),
                       ("noted", "The size it had when the passing began")),
               group="How play goes"),
        Option("reshuffle_timing", "on_draw", ("on_draw", "when_empty"), doc="when the discard is reshuffled",
               rule="D9.1",
               label="When the discard pile is reshuffled",
               help="When the discard pile is shuffled into a new deck.",
               values=(("on_draw", "When a card must be drawn from an empty deck"),
                       ("when_empty", "As soon as the deck runs out")),
               group="The cards and the deal"),
        Option("games", 1, (1, 3), doc="1 = single game, 3 = match", rule="D10",
               label="One game or a match",
               help="Play one game, or a match of three games scored in lost points.",
               values=((1, "One game"), (3, "A match of three games"),),
               group="How long a game lasts"),
        Option("rank_tiebreak", "seat_after_winner", ("seat_after_winner", "random"), rule="D10.2",
               label="Ties in the ranking",
               help="How players still tied on cards and hand values are ranked after a game.",
               values=(("seat_after_winner", "Clockwise from the seat after the winner"),
                       ("random", "At random")),
               group="Scoring and winning"),
        Option("penalty_mode", "distinct_descending", ("distinct_descending", "greedy"), rule="D10.3",
               label="How penalty cards are taken",
               help="In a match, how the players behind the winner take penalty cards from the Storage.",
               values=(("distinct_descending", "Each taker a lower value than the one before"),
                       ("greedy", "Each taker the highest value left")),
               group="Scoring and winning"),
        Option("penalty_cards_leave_play", True, (True, False), rule="D10.5",
               label="Penalty cards leave the match",
               help="Whether penalty cards stay out of the later games of a match.",
               values=((True, "Yes: out for the rest of the match"),
                       (False, "No: shuffled back in for the next game")),
               group="Scoring and winning"),
        Option("next_game_starter", "last_place", ("last_place", "winner", "rotate"), rule="D10.6",
               label="Who starts the next game of a match",
               help="Who leads the first round of games 2 and 3.",
               values=(("last_place", "Last place of the game just played"),
                       ("winner", "The winner of the game just played"),
                       ("rotate", "The seat after the last starting player")),
               group="Who starts"),
        Option("match_tie", "shared", ("shared", "last_game_rank"), rule="D10.7",
               label="A tied match",
               help="How a tie on lost points after three games is settled.",
               values=(("shared", "The tied players share the win"),
                       ("last_game_rank", "Whoever ranked better in game 3")),
               group="Scoring and winning"),
        Option("max_turns", None, check=optional(int_range(1, TURN_BOUND)),
               doc=f"stop a game after this many turns as aborted (not a rule; the engine's own bound is "
                   f"{TURN_BOUND})", rule="D9.3",
               label="Turn limit",
               help="Stop a game as aborted after this many turns (for simulations; not a rule).",
               values=((None, "No limit"),),
               accepts=f"a whole number of turns from 1 to {TURN_BOUND}, or empty for no limit",
               group="How long a game lasts"),
    ),
    phases=(
        Phase("lead", ("play",), "the leader opens a round",
              refusals={"pass": ("D5.3", "the leader must play on the first turn of a round")}),
        Phase("respond", ("play", "pass")),
        Phase("finished", ()),
    ),
    table="Depot",
    max_actions=lambda players, options: (options.get("max_turns") or TURN_BOUND) * options.get("games", 1),
    pauses=("scoring",),
)
