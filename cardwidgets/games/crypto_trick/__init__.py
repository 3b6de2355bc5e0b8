"""Crypto Trick: trick-taking where each lead is offered first, and blocks score.

Rule IDs ``C0``–``C11`` (and the settled questions ``CA-*``) are cited in
every refusal and narration line; ``cardwidgets.rules.lookup("C5.4",
game="crypto_trick")`` explains each. A trick runs in four phases:

* ``offer`` — the first player reveals a card from their hand (C5.1);
* ``declare`` — every other player, clockwise, says ``want`` or ``pass`` (C5.2);
  with no taker the first player leads the card (C5.3);
* ``give`` — the declarer (the last ``want``, C5.4) gives the first player a card
  face down and leads the offered card (C5.5, C5.6);
* ``follow`` — the others play in turn, following the lead colour if they can
  (C6); the strongest card takes the trick (C7, C8).

Six tricks make a round, scored by the block cards each player won (C9); after
``rounds`` rounds the highest total wins, ties share the win (C10).

Cards are written as a colour letter and a number (``Y3``, ``W6``). Inside the
engine a card is a small int, ``100 * colour + number`` with the colours in the
order ``Y B R P G W``; a hand is a sorted list of them, so the cards of one
colour sit together. Action objects are interned and every rule reads tables
built once per option set (:class:`Config`), so simulations run on
``legal_actions()`` + ``apply_unchecked()`` without building any narration.

What a seat sees (C11, ``CryptoTrickState.view``): its own hand, every hand's
size, the offer, the declarations, the table, the won piles (only their block
count and colours with ``won_pile_visibility="block_count_only"``) and the card
given face down only if it gave or received it. The hidden card is turned up
after the round is scored; a preview stops just before that, and before a deal.
``state.sample_world(seat, rng)`` deals again everything that seat has not seen,
keeping what it saw and what the rules tell it (who did not follow a colour holds
none, C6.3; where a card it saw given went, C5.5).

A position is also one line of text: ``state.to_position()`` writes it and
:func:`from_position` reads it, with unknown parts (``?``) dealt from the seed;
the grammar is in the rules reference ("Position text").

>>> st = new_game(players=3, seed=4)
>>> st.phase, st.current_player, st.hand(0)
('offer', 0, ['Y2', 'B1', 'B4', 'B5', 'B6', 'R4'])
>>> st.indicator, st.trumps
('W6', ['W'])
>>> for e in st.apply("r B1") + st.apply("n") + st.apply("y"):
...     print(e)
A reveals B1 and offers it (rule C5.1).
B passes (rule C5.2).
C wants B1 (rule C5.2).
C is the declarer: the only player who wanted B1 (rule C5.4).
>>> print(st.explain("give Y2"))
Illegal: rule C5.5 — you hold no Y2 (your hand: Y1 Y4 Y5 Y6 B3 R1)
>>> for e in st.apply("g R1"):
...     print(e.audience or "all", e)
all C gives A a card face down (rule C5.5).
(2, 0) The card is R1: only C and A know it (rule C11.3).
all C leads B1, the card A offered (rule C5.6). A follows first (rule C6.2).
>>> [str(a) for a in st.legal_actions()]
['play B4', 'play B5', 'play B6']
>>> print(st.explain("play Y2"))
Illegal: rule C6.3 — the lead is B1 and you hold B4 B5 B6: you must play blue
>>> str(parse_action("g r2")), str(parse_action("R5")), str(parse_action("y"))
('give R2', 'play R5', 'want')
"""

from __future__ import annotations

from ...core import ANY, IllegalActionError, InvalidActionError, plural
from .cards import (DEFAULT_LABELS, PASS, PLAYERS, WANT, Give, Pass, Play, Reveal, Want, card_id, card_name,
                    parse_action)
from .spec import SPEC, Config, round_score, trump_set
from .state import CryptoTrickState, _points, from_dict, from_position, new_game, setup_position
from .worlds import _Knowledge


__all__ = [
    "ANY", "Config", "CryptoTrickState", "Give", "IllegalActionError", "InvalidActionError", "PASS", "Pass", "Play",
    "Reveal", "SPEC", "WANT", "Want", "card_id", "card_name", "from_dict", "from_position", "new_game", "parse_action",
    "round_score", "setup_position", "trump_set",
]
