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
from ...core.spec import int_range, optional
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
                   "not given keep the default ((n - 1) mod 4) + 1. The sizes are assumptions", rule="Y1.2"),
        Option("roof_numbers", DEFAULT_ROOFS, check=_numbers_check("roof numbers", 36), normalize=norm_numbers,
               doc="the numbers whose cards are roofs, in both colours", rule="Y1.3"),
        Option("size_track", (1, 21), check=check_track, normalize=norm_track, modes=(STANDARD,),
               doc="the lowest and highest size card", rule="Y1.5"),
        Option("marker_start", 11, check=int_range(0, 100), modes=(STANDARD,),
               doc="where the size marker starts", rule="Y1.5"),
        Option("reset_marker_each_round", True, (True, False), modes=(STANDARD,), rule="Y2.5"),
        Option("three_player_color", "green", ("green", "pink"), modes=(STANDARD,), rule="Y2.2"),
        Option("three_player_capture", "all", ("all", "largest_size"), modes=(STANDARD,), rule="Y5.2"),
        Option("placement_order", "auto", ("auto", "choose"), modes=(STANDARD,), rule="Y8.3"),
        Option("house_limit", 6, check=int_range(1, 36), modes=_TRICK_MODES,
               doc="face-up cards a house holds before the bottom ones collapse", rule="Y8.4"),
        Option("tie_leader", "last_entitled", ("last_entitled", "last_actual_mover"), modes=(STANDARD,),
               rule="Y9.2"),
        Option("dealer", None, check=optional(int_range(0, 6)), modes=(STANDARD,),
               doc="the seat that deals round 1; None = the last seat, so seat 0 leads", rule="Y2.6"),
        Option("dealer_rotation", "clockwise", ("clockwise", "fixed"), modes=(STANDARD,), rule="Y2.6"),
        Option("rounds", None, check=optional(int_range(1, 100)), modes=(STANDARD,),
               doc="rounds to play; None = one per player", rule="Y2.7"),
        Option("card_set", "standard", ("standard", "advanced"), modes=(STANDARD,), rule="Y12.1"),
        Option("collapsed_visibility", "public", ("public", "count_only"), modes=_TRICK_MODES, rule="Y15.3"),
        Option("duo_color", "green", ("green", "pink"), modes=(DUO,), rule="Y13.1"),
        Option("npc_seat", 1, (0, 1, 2), modes=(DUO,),
               doc="the NPC's place in the first trick's order: 0 leads, 1 second, 2 last", rule="Y13.3"),
        Option("duo_first_leader", 0, (0, 1), modes=(DUO,),
               doc="the player (seat 0 or 1) in the first turn position; with npc_seat=0 the NPC leads "
                   "trick 1 and this player plays right after it", rule="Y13.4"),
        Option("duo_roofs", True, (True, False), modes=(DUO,), rule="Y13.7"),
        Option("solo_removed", (30,), check=_numbers_check("removed numbers", 31), normalize=norm_numbers,
               modes=(SOLO,), doc="numbers taken out of both colours", rule="Y14.1"),
        Option("solo_initial_row", "choose_each", ("choose_each", "one_color"), modes=(SOLO,), rule="Y14.2"),
        Option("solo_roof_insert_nonstrict", True, (True, False), modes=(SOLO,), rule="Y14.7"),
        Option("solo_house_complete", 7, check=int_range(1, 36), modes=(SOLO,),
               doc="cards that finish a house", rule="Y14.8"),
        Option("solo_bonus_chain", True, (True, False), modes=(SOLO,),
               doc="False: after a bonus card is taken, the draws of that refill give no further bonus",
               rule="Y14.10"),
        Option("solo_bonus_on_setup", False, (False, True), modes=(SOLO,), rule="Y14.2"),
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
