"""cirno+neu: a running-total game — keep the sum at or under 99, or bust.

Rule IDs ``N1``–``N8`` (resolutions ``NA-*``) are cited in every refusal and
narration line; ``cardwidgets.rules.lookup("N4.3")`` explains each. Players take
turns playing one card onto the main stack and drawing one; a player whose every
card would take the sum above 99 is *forced* and busts. Order cards change who
plays next: PASS, TURN, SHOT (an extra turn for a chosen player), DOUBLE (the next
turn plays 2 cards) and DOUBLE SHOT (both).

Cards are small ints (their row in the N1.3 table) inside the engine and tokens
(``"7"``, ``"9"``, ``"-10"``, ``"99"``, ``"PASS"``, ``"DSHOT"`` ...) outside it.

>>> st = new_game(players=3, seed=7, deck=DEMO_DECK)
>>> st.hand(0), st.sum, st.current_player
(['5', '10', 'SHOT'], 0, 0)
>>> [str(a) for a in st.legal_actions()]
['play 5', 'play 10', 'play shot @1', 'play shot @2']
>>> for e in st.apply("play 10"):
...     print(e)
A plays 10: sum 0 → 10 (rule N3.1).
A draws 1 card (rule N4.7).
B's turn: 1 card (rule N5.3).
>>> print(st.apply("play shot @A")[0])
B plays SHOT on A (rule N3.6): A plays now; afterwards play resumes after B (rule N5.2).
>>> print(st.explain("play 5, 1"))
Illegal: rule N4.1 — two cards at once need a double turn; A has a normal turn with 1 card to play
>>> print(st.explain("play 50"))
Illegal: rule N4.2 — you hold no 50 (your hand: [1, 5, SHOT])
>>> parse_action("PLAY ⑨"), str(parse_action("dshot @2"))
(Play(card='9', target=None), 'play dshot @2')
"""

from __future__ import annotations

from ...core import ANY, IllegalActionError, InvalidActionError
from .cards import (DEFAULT_DECK, DSHOT, MINUS_1, PLAYERS, PLUS_MAX, SET99, TOKENS, VALUE, Play, card_id, card_token,
                    parse_action)
from .spec import ACTION_BOUND, SPEC, Config, _make_config
from .state import DEMO_DECK, CirnoNeuState, from_dict, from_position, new_game, setup_position
from .worlds import MIXING, SEARCH_LIMIT


__all__ = [
    "ANY", "CirnoNeuState", "Config", "DEFAULT_DECK", "IllegalActionError", "InvalidActionError",
    "Play", "SPEC", "TOKENS", "card_id", "card_token", "from_dict", "from_position", "new_game", "parse_action",
    "setup_position",
]
