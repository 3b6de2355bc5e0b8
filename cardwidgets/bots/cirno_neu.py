"""A cirno+neu bot that plays to survive and to push the next player over."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..games.cirno_neu import VALUE, card_id

_PLUS_MAX, _MINUS_1, _MINUS_10, _SET99, _PASS, _TURN, _SHOT, _DOUBLE, _DSHOT = 10, 11, 12, 13, 14, 15, 16, 17, 18


class NeuSurvivorBot:
    """Heuristic, from its own view only.

    * Keep escape cards (PASS, TURN, minus cards, 99, SHOT) for when no number fits.
    * While a number card is safe, play the biggest one that keeps the sum at or under
      the limit: a high sum leaves the next player fewer safe cards.
    * When the sum is already high, attack with DOUBLE (two cards to survive) or 99.
    * With nothing safe but escapes, use the one that hurts the next player most:
      DOUBLE / SHOT the weakest, 99, PASS, TURN, then minus cards (which help them).
    """

    name = "survivor"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        total, limit = view["sum"], view["limit"]
        chips = view.get("chips")

        def target_weakness(seat: int | None) -> float:
            if seat is None:
                return 0.0
            if chips is not None:  # life system: finish off the player closest to elimination
                return -chips[seat]
            return -view["hand_counts"][seat]

        def score(a: Any) -> tuple:
            c = card_id(a.card)
            high = total >= limit - 10
            if c <= _PLUS_MAX:
                after = total + VALUE[c]
                return (3 if after <= limit else -9, after, 0)  # unsafe only when forced
            if c == _DOUBLE or c == _DSHOT:
                return (4 if high else 0, target_weakness(a.target), 1)
            if c == _SET99:
                return (4 if high else 1, 0, 0)
            if c == _SHOT:
                return (2 if high else 0, target_weakness(a.target), 0)
            if c == _PASS:
                return (1, 0, 0)
            if c == _TURN:
                return (1, -1, 0)
            return (0, -VALUE[c], 0)  # minus cards help the next player: last resort

        best = max(score(a) for a in legal)
        options = [a for a in legal if score(a) == best]
        return options[self.rng.randrange(len(options))]

    def __repr__(self) -> str:
        return "NeuSurvivorBot()"


BOTS = {"greedy": NeuSurvivorBot, "survivor": NeuSurvivorBot}
