"""The declarations of Yadokarick: modes, options (every one of the rules' option table), phases.

>>> SPEC.default_mode, [m.players for m in SPEC.modes]
('standard', [(3, 4, 5, 6, 7), (2,), (1,)])
>>> SPEC.max_actions(4, SPEC.defaults("standard") | {"rounds": None}), SPEC.max_actions(2, {}), \
SPEC.max_actions(1, SPEC.defaults("solo"))
(320, 20, 281)
"""

from __future__ import annotations

from typing import Any, Mapping

from ...core import GameSpec, Mode, Option, Phase
from ...core.spec import int_range, optional, seat_or_none
from .cards import (DEFAULT_ROOFS, DEFAULT_SIZE_TABLE, TRICKS, _numbers_check, check_size_table, check_track,
                    norm_numbers, norm_size_table, norm_track)

STANDARD, DUO, SOLO = "standard", "duo", "solo"
_TRICK_MODES = (STANDARD, DUO)


def _max_actions(players: int, options: Mapping[str, Any]) -> int:
    """A hard bound on a game's length in actions (the mode follows from the player count).

    Standard: per trick every player plays, at most 2 players move the marker and at
    most 2 captors arrange. Duo: the two players' 20 cards. Solo: with C cards, at
    most C draws, C placements or takes, one bonus answer per draw, one give-up per
    placement, and the colour choice of the first row.
    """
    if players >= 3:
        rounds = options.get("rounds") or players
        return rounds * TRICKS * (players + 4)
    if players == 2:
        return 2 * TRICKS
    cards = 2 * (36 - len(options.get("solo_removed", (30,))))
    return 4 * cards + 1


SPEC = GameSpec(
    name="yadokarick",
    title="Yadokarick",
    version=1,
    summary="hermit-crab trick-taking: build a house that hits the target size; 3–7 players, a duo against "
            "a virtual player, and a solo puzzle",
    modes=(
        Mode(STANDARD, (3, 4, 5, 6, 7), "3 to 7 players; card_set='advanced' for the reduced sets", rule="Y2.1"),
        Mode(DUO, (2,), "2 players and a virtual player (NPC)", rule="Y13.12"),
        Mode(SOLO, (1,), "the solo puzzle with four crabs", rule="Y14.15"),
    ),
    options=(
        Option("size_table", DEFAULT_SIZE_TABLE, check=check_size_table, normalize=norm_size_table,
               doc="house sizes: {number: size} for both colours and/or {'G20': size} for one card; numbers "
                   "not given keep the default ((n - 1) mod 4) + 1. The sizes are assumptions", rule="Y1.2",
               label="House sizes",
               help="The house size on each card.",
               values=((DEFAULT_SIZE_TABLE, "1, 2, 3, 4 over and over up the numbers"),),
               accepts="a table of number → size (set from code)",
               group="The cards and the deal"),
        Option("roof_numbers", DEFAULT_ROOFS, check=_numbers_check("roof numbers", 36), normalize=norm_numbers,
               doc="the numbers whose cards are roofs, in both colours", rule="Y1.3",
               label="Roof numbers",
               help="The numbers whose cards are roofs, in both colours.",
               values=((DEFAULT_ROOFS, "10, 20 and 30"),),
               accepts="card numbers (set from code)",
               group="The cards and the deal"),
        Option("size_track", (1, 21), check=check_track, normalize=norm_track, modes=(STANDARD,),
               doc="the lowest and highest size card", rule="Y1.5",
               label="Size track",
               help="The lowest and highest size card.",
               values=(((1, 21), "1 to 21"),),
               accepts="two whole numbers (set from code)",
               group="The cards and the deal"),
        Option("marker_start", 11, check=int_range(0, 100), modes=(STANDARD,),
               doc="where the size marker starts", rule="Y1.5",
               label="Where the size marker starts",
               help="The size card the marker starts on.",
               accepts="a whole number from 0 to 100",
               group="How play goes"),
        Option("reset_marker_each_round", True, (True, False), modes=(STANDARD,), rule="Y2.5",
               label="The size marker each round",
               help="Whether the marker goes back to its start every round.",
               values=((True, "Back to its start"), (False, "Stays where the last round left it"),),
               group="How play goes"),
        Option("three_player_color", "green", ("green", "pink"), modes=(STANDARD,), rule="Y2.2",
               label="Colour for three players",
               help="Which colour's 36 cards three players use.",
               values=(("green", "Green"), ("pink", "Pink"),),
               group="The cards and the deal"),
        Option("three_player_capture", "all", ("all", "largest_size"), modes=(STANDARD,), rule="Y5.2",
               label="What a trick's winner takes (3 players)",
               help="With three players, which cards of a trick its winner captures.",
               values=(("all", "All 3 cards"), ("largest_size", "Only the cards of the largest size"),),
               group="How play goes"),
        Option("placement_order", "auto", ("auto", "choose"), modes=(STANDARD,), rule="Y8.3",
               label="Order of captured cards",
               help="In what order captured cards go onto a house.",
               values=(("auto", "Play order, roofs last"), ("choose", "The captor chooses"),),
               group="How play goes"),
        Option("house_limit", 6, check=int_range(1, 36), modes=_TRICK_MODES,
               doc="face-up cards a house holds before the bottom ones collapse", rule="Y8.4",
               label="Cards a house holds",
               help="Face-up cards a house holds before the bottom ones collapse.",
               accepts="a whole number from 1 to 36",
               group="How play goes"),
        Option("tie_leader", "last_entitled", ("last_entitled", "last_actual_mover"), modes=(STANDARD,),
               rule="Y9.2",
               label="Who leads after tied movers",
               help="With several players entitled to move the marker, which of them leads.",
               values=(("last_entitled", "The last one entitled, moved or not"),
                       ("last_actual_mover", "The last one who really moved it")),
               group="Who starts"),
        Option("dealer", None, check=seat_or_none(6), modes=(STANDARD,),
               doc="the seat that deals round 1; None = the last seat, so seat 0 leads", rule="Y2.6",
               label="Who deals the first round",
               help="The seat that deals round 1; the seat after it leads.",
               values=((None, "The last seat, so seat A leads"),),
               group="Who starts"),
        Option("dealer_rotation", "clockwise", ("clockwise", "fixed"), modes=(STANDARD,), rule="Y2.6",
               label="The dealer each round",
               help="Whether the deal moves on every round.",
               values=(("clockwise", "Moves one seat clockwise"), ("fixed", "Stays the same"),),
               group="Who starts"),
        Option("rounds", None, check=optional(int_range(1, 100)), modes=(STANDARD,),
               doc="rounds to play; None = one per player", rule="Y2.7",
               label="Rounds to play",
               help="How many rounds a game lasts.",
               values=((None, "One per player"),),
               accepts="a whole number from 1 to 100, or empty for one per player",
               group="How long a game lasts"),
        Option("card_set", "standard", ("standard", "advanced"), modes=(STANDARD,), rule="Y12.1",
               label="Card set",
               help="The standard cards, or the advanced game's smaller deck.",
               values=(("standard", "Standard"), ("advanced", "Advanced: fewer cards"),),
               group="The cards and the deal"),
        Option("collapsed_visibility", "public", ("public", "count_only"), modes=_TRICK_MODES, rule="Y15.3",
               label="Collapsed piles",
               help="What the others see of a player's collapsed pile.",
               values=(("public", "Every card"), ("count_only", "Only how many cards"),),
               group="What players see"),
        Option("duo_color", "green", ("green", "pink"), modes=(DUO,), rule="Y13.1",
               label="Colour for two players",
               help="Which colour's 36 cards the two players use.",
               values=(("green", "Green"), ("pink", "Pink"),),
               group="The cards and the deal"),
        Option("npc_seat", 1, (0, 1, 2), modes=(DUO,),
               doc="the NPC's place in the first trick's order: 0 leads, 1 second, 2 last", rule="Y13.3",
               label="The NPC's place",
               help="Where the NPC plays in the first trick.",
               values=((0, "First: it leads"), (1, "Second"), (2, "Last"),),
               group="Who starts"),
        Option("duo_first_leader", 0, (0, 1), modes=(DUO,),
               doc="the player (seat 0 or 1) in the first turn position; with npc_seat=0 the NPC leads "
                   "trick 1 and this player plays right after it", rule="Y13.4",
               label="Who leads the first trick",
               help="Which player takes the first turn position (right after the NPC when it leads).",
               values=((0, "Seat A"), (1, "Seat B"),),
               group="Who starts"),
        Option("duo_roofs", True, (True, False), modes=(DUO,), rule="Y13.7",
               label="Roofs",
               help="Whether roof cards work in the two-player game.",
               values=((True, "With roofs"), (False, "Without roofs"),),
               group="How play goes"),
        Option("solo_removed", (30,), check=_numbers_check("removed numbers", 31), normalize=norm_numbers,
               modes=(SOLO,), doc="numbers taken out of both colours", rule="Y14.1",
               label="Numbers taken out",
               help="The numbers removed from both colours.",
               values=(((30,), "30 (G30 and P30)"),),
               accepts="card numbers (set from code)",
               group="The cards and the deal"),
        Option("solo_initial_row", "choose_each", ("choose_each", "one_color"), modes=(SOLO,), rule="Y14.2",
               label="The first row",
               help="Where the five cards of the first row come from.",
               values=(("choose_each", "Choose the deck of each card"),
                       ("one_color", "Choose one deck for all five")),
               group="The cards and the deal"),
        Option("solo_roof_insert_nonstrict", True, (True, False), modes=(SOLO,), rule="Y14.7",
               label="Cards under a roof",
               help="A card slipped in under a roof: the same as the bottom card or higher, or strictly higher.",
               values=((True, "The same or higher"), (False, "Strictly higher"),),
               group="How play goes"),
        Option("solo_house_complete", 7, check=int_range(1, 36), modes=(SOLO,),
               doc="cards that finish a house", rule="Y14.8",
               label="Cards that finish a house",
               help="A crab holding this many cards has a finished house.",
               accepts="a whole number from 1 to 36",
               group="Scoring and winning"),
        Option("solo_bonus_chain", True, (True, False), modes=(SOLO,),
               doc="False: after a bonus card is taken, the draws of that refill give no further bonus",
               rule="Y14.10",
               label="Chained bonuses",
               help="Whether the draws of one refill may give more than one bonus card.",
               values=((True, "Yes: each draw may give a bonus"), (False, "No: one bonus per refill"),),
               group="Scoring and winning"),
        Option("solo_bonus_on_setup", False, (False, True), modes=(SOLO,), rule="Y14.2",
               label="Bonus during setup",
               help="Whether the first row may give a bonus card.",
               values=((False, "No"), (True, "Yes, and the card is replaced"),),
               group="Scoring and winning"),
    ),
    phases=(
        Phase("play", ("play",), "the next player plays a card",
              refusals={"arrange": ("Y8.3", "nothing is waiting to be arranged: only a standard game with "
                                            "placement_order='choose' has captured cards arranged, right "
                                            "after a trick is judged")}),
        Phase("arrange", ("arrange",), "a captor orders the captured cards",
              refusals={"play": ("Y8.2", "the trick is being judged: the captured cards are placed first"),
                        "move": ("Y7.4", "the captured cards are placed before the marker moves")}),
        Phase("marker", ("move",), "the players with the lowest card move the marker",
              refusals={"play": ("Y7.4", "the trick is being judged: the marker movers act before the next "
                                         "card is played"),
                        "arrange": ("Y8.3", "the captured cards are already placed")}),
        Phase("setup", ("draw",), "the first row is drawn card by card",
              refusals={"row": ("Y14.2", "each row card's deck is chosen one at a time: draw green or draw "
                                         "pink")}),
        Phase("setup_color", ("row",), "one colour is chosen for the whole first row",
              refusals={"draw": ("Y14.2", "with solo_initial_row='one_color' the first row comes from one deck: "
                                          "row green or row pink")}),
        Phase("turn", ("place", "giveup"), "place a row card on a crab, or give a crab up",
              refusals={"draw": ("Y14.9", "the row is refilled only after a card is placed"),
                        "take": ("Y14.10", "a bonus is offered only right after a refill draw"),
                        "decline": ("Y14.10", "no bonus is on offer")}),
        Phase("refill", ("draw",), "the row is refilled card by card",
              refusals={"place": ("Y14.9", "refill the row to 5 cards first"),
                        "giveup": ("Y14.9", "refill the row to 5 cards first")}),
        Phase("bonus", ("take", "decline"), "a consecutive-number bonus is on offer",
              refusals={"draw": ("Y14.10", "take a card of the bonus group or decline first"),
                        "place": ("Y14.10", "take a card of the bonus group or decline first"),
                        "giveup": ("Y14.10", "take a card of the bonus group or decline first")}),
        Phase("finished", ()),
    ),
    table="Yadokarick",
    max_actions=_max_actions,
    pauses=("round_end",),
)


def check_options(st: Any) -> None:
    """The standard options that depend on each other or on the player count (Y1.5, Y2.6, Y12.3)."""
    o, n = st.options, st.players
    if o["card_set"] == "advanced" and n == 7:
        raise ValueError("card_set='advanced' is not allowed with 7 players: the advanced card sets are for 3 to 6 "
                         "players (rule Y12.3)")
    if o["dealer"] is not None and o["dealer"] >= n:
        raise ValueError(f"dealer={o['dealer']!r} is not allowed; allowed values: a seat 0..{n - 1} or None "
                         f"(rule Y2.6)")
    lo, hi = o["size_track"]
    if not lo <= o["marker_start"] <= hi:
        raise ValueError(f"marker_start={o['marker_start']!r} is not allowed; allowed values: a value on the size "
                         f"track, {lo} to {hi} (rule Y1.5)")
