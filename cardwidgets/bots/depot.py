"""A sensible Depot bot that plays from its own view only."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..games.depot import Pass, Play


class DepotGreedyBot:
    """Shed cards cheaply, keep the hand small when passing.

    * Leading: play the most cards possible, lowest total first (get rid of bulk
      while keeping strong cards for beating).
    * Responding: play the weakest play that beats the standing one; when the hand
      is nearly empty, play the strongest to keep control.
    * Passing: take the value with the fewest Storage cards (preferring values it
      already holds, which builds sets), and give away its weakest isolated card.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        plays = [a for a in legal if isinstance(a, Play)]
        passes = [a for a in legal if isinstance(a, Pass)]
        me = view["current"]
        hand = view["hands"][me] or []
        if plays:
            if view["standing"] is None:
                return max(plays, key=lambda p: (len(p.cards), -sum(p.cards), self.rng.random()))
            if len(hand) <= 3 or not passes:
                return plays[-1]  # legal plays are ordered weakest first
            return plays[0]
        return min(passes, key=lambda p: self._pass_cost(p, hand, view["storage"]))

    def _pass_cost(self, p: Pass, hand: list[int], storage: list[int]) -> tuple:
        taken = storage.count(p.take) if p.take is not None else 0
        builds = 1 if p.take in hand else 0
        if p.give is None:
            give_cost = 5  # not giving keeps a card: worse than giving a lone card
        else:
            lone = hand.count(p.give) == 1 and (p.give - 1) not in hand and (p.give + 1) not in hand
            give_cost = (0 if lone else 2) + p.give / 10
        return (taken - builds - (1 if p.give is not None else 0), give_cost, self.rng.random())

    def __repr__(self) -> str:
        return "DepotGreedyBot()"


BOTS = {"greedy": DepotGreedyBot}
