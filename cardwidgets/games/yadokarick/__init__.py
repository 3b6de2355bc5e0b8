"""Yadokarick: hermit-crab trick-taking — build a house whose size hits the target.

Three modes, one engine each (rule IDs ``Y0``–``Y15``, resolutions ``YA-*``;
``cardwidgets.rules.lookup("Y6.2", game="yadokarick")`` explains each):

* ``mode="standard"`` (3–7 players, :class:`StandardState`): 10 tricks a round; the
  lowest card moves the size marker, the highest card of each colour captures the
  cards of that colour's largest size, which are built into the captor's house.
  ``card_set="advanced"`` plays the reduced card sets for 3–6 players (Y12).
* ``mode="duo"`` (2 players and a virtual player, :class:`DuoState`): the NPC plays
  the top card of its hidden deck; its house size is the target (Y13).
* ``mode="solo"`` (1 player, :class:`SoloState`): four crabs, a row of five cards,
  finished houses score (Y14). ``state.hint()`` suggests a move and says why.

A position is one line of text (``state.to_position()``, :func:`from_position`; the
grammar is in the rules reference, "Position text"), and ``state.sample_world(seat)``
deals again what a seat has not seen: the other hands and the cards set aside, the NPC
deck, the order of the solo decks.

>>> st = new_game(players=4, seed=1, deck=DEMO_DECK)
>>> st.hand(0)[:4], st.current_player
(['G1', 'P2', 'G4', 'P5'], 0)
>>> for e in st.apply("play G25")[:1]:
...     print(e)
A plays G25, size 1 (rule Y4.2).
>>> print(st.explain("play P8", 0))
Illegal: rule G3 — it is B's turn, not A's
>>> print(st.explain("play P36"))
Illegal: rule Y4.2 — B does not hold P36 (hand: P1, G3, G5, P8, G9, P14, P15, G16, G18, P26)
>>> solo = new_game(players=1, mode="solo", seed=5)
>>> solo.phase, solo.legal_actions()[0]
('setup', Draw(colour='green'))
>>> world = st.sample_world(1, 7)
>>> world.hand(1) == st.hand(1), world.hand(0) == st.hand(0), world.view(1) == st.view(1)
(True, False, True)
>>> from_position(st.to_position()).view(None) == st.view(None)
True
"""


from __future__ import annotations

from ...core import ANY, IllegalActionError, InvalidActionError
from .cards import (CRABS, Arrange, Decline, Draw, GiveUp, Move, Place, Play, Row, Take, card_id, duo_winners,
                    parse_action, round_score, size_of)
from .solo import SoloState, can_finish, hint, hint_from_view
from .spec import DUO, SOLO, SPEC, STANDARD
from .state import (DEMO_DECK, from_dict, from_position, new_game, setup_duo, setup_position, setup_solo,
                    setup_standard)
from .trick import DuoState, StandardState


__all__ = [
    "ANY", "Arrange", "CRABS", "DEMO_DECK", "Decline", "Draw", "DuoState", "GiveUp", "IllegalActionError",
    "InvalidActionError", "Move", "Place", "Play", "Row", "SPEC", "SoloState", "StandardState", "Take", "can_finish",
    "card_id", "duo_winners", "from_dict", "from_position", "hint", "hint_from_view", "new_game", "parse_action",
    "round_score", "setup_duo", "setup_position", "setup_solo", "setup_standard", "size_of",
]
