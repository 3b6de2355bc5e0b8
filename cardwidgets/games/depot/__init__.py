"""Depot: a climbing/shedding game whose shared Storage sets the size of every play.

Rule IDs ``D1``–``D10`` (and the resolutions ``DA-*``) are cited in every refusal
and narration line; ``cardwidgets.rules.lookup("D4.2")`` explains each. Cards are
values 1–8; equal values are interchangeable, so every zone is a multiset, kept as
a packed count vector (see ``_ONE``).

>>> st = new_game(players=4, seed=1)
>>> st.phase, st.current_player
('lead', 0)
>>> print(st.apply("play 2")[0])
A leads [2] (single; limits: set 1, run 3) — rule D4.8.
>>> st.apply("pass take 9")
Traceback (most recent call last):
...
cardwidgets.core.errors.InvalidActionError: 'pass take 9': '9' is not a card value 1-8
"""

from __future__ import annotations

from ...core import ANY, IllegalActionError, InvalidActionError
from .cards import (DEFAULT_DECK, MAX_COPIES, PLAYERS, TURN_BOUND, Pass, Play, _counts, parse_action, run_limit,
                    set_limit, shape)
from .spec import SPEC
from .state import DepotState, from_dict, from_position, new_game, setup_position


__all__ = [
    "ANY", "DepotState", "IllegalActionError", "InvalidActionError", "Pass", "Play", "SPEC",
    "from_dict", "from_position", "new_game", "parse_action", "run_limit", "set_limit", "setup_position", "shape",
]
