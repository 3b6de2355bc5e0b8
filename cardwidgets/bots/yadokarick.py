"""Yadokarick bots that play from their own view only.

* Standard and duo (:class:`YadokarickGreedyBot`): before each card it imagines the
  rest of the trick a few times (the cards it cannot see dealt at random among the
  players still to play), judges each imagined trick with the rules, and keeps the
  card whose outcome brings its house closest to the target it expects at the end
  of the round: under or on the target, never over, and a roof only when the house
  is where it should stay. As a marker mover it steers the target towards the house
  size it expects to end with. In duo the target is the NPC's house, and the bot
  also wants to finish closer to it than the other player.
* Solo (:class:`SoloGreedyBot`): follows :func:`~cardwidgets.games.yadokarick.hint_from_view`.

>>> from cardwidgets.sim import simulate
>>> res = simulate("yadokarick", 4, bots=["greedy", "random", "random", "random"], seed=1, players=4, rounds=1)
>>> len(res.games)
4
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..games.yadokarick.cards import (NPC, Arrange, Move, card_id, duo_winners, judge_duo, judge_standard,
                                     round_score)
from ..games.yadokarick.solo import hint_from_view

#: Expected house size a player (or the NPC) gains per remaining trick, by game shape.
_GAIN = {"standard3": 3.0, "standard": 2.4, "duo": 1.3}


def _sizes(view: dict[str, Any]) -> list[int]:
    size = [0] * 72
    for name, s in view["sizes"].items():
        size[card_id(name)] = s
    return size


def _unseen(view: dict[str, Any], me: int) -> list[int]:
    """Cards the bot has not seen: the others' hands, the set-aside cards, the NPC deck."""
    seen = {card_id(c) for c in view["hands"][me]}
    for h in view["houses"]:
        seen.update(card_id(c) for c in h)
    for h in view["collapsed"]:
        if h is not None:
            seen.update(card_id(c) for c in h)
    seen.update(card_id(c) for c in view["discard"])
    seen.update(card_id(t["card"]) for t in view["trick"])
    return [card_id(c) for c in view["sizes"] if card_id(c) not in seen]


class YadokarickGreedyBot:
    """Aim the house at the target; a seeded Monte Carlo look at the current trick (see the module)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 10) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        mode = view.get("mode")
        if mode == "solo":
            return _solo_choice(view, legal)
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, Move):
            return self._move(view, legal)
        if isinstance(first, Arrange):
            return self._arrange(view, legal)
        if mode == "duo":
            return self._duo_play(view, legal)
        return self._play(view, legal)

    # ------------------------------------------------------------- standard
    def _gain(self, view: dict[str, Any]) -> float:
        return _GAIN["standard3" if view["players"] == 3 else "standard"]

    def _expected(self, view: dict[str, Any], me: int, house: int | None = None, roofed: bool | None = None,
                  left: int | None = None) -> float:
        h = view["house_sizes"][me] if house is None else house
        r = view["roofed"][me] if roofed is None else roofed
        if left is None:
            left = 10 - view["trick_no"]
        return h if r else h + self._gain(view) * left

    def _value(self, view: dict[str, Any], me: int, house: int, collapsed: int, roofed: bool, target: float,
               left: int) -> float:
        """The round score this position is heading for: exact with a roof; otherwise with the
        captures still to come added, and going over counted twice (more will come)."""
        if roofed:
            return round_score(house, collapsed, round(target))
        e = house + self._gain(view) * left
        if e <= target:
            return e - collapsed
        return 2 * (target - e) - collapsed

    def _move(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        me = view["current"]
        want = self._expected(view, me)
        m = view["marker"]
        return min(legal, key=lambda a: (abs(m + a.delta - want), abs(a.delta), self.rng.random()))

    def _arrange(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        size = _sizes(view)
        roofs = {card_id(c) for c in view["roofs"]}
        # bottom cards collapse first: small ones at the bottom, roofs on top
        return min(legal, key=lambda a: [(c in roofs, size[c]) for c in a.cids])

    def _play(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        me = view["current"]
        n = view["players"]
        size = _sizes(view)
        roofs = {card_id(c) for c in view["roofs"]}
        limit = view["house_limit"]
        trick = [card_id(t["card"]) for t in view["trick"]]
        lead = view["trick"][0]["seat"] if view["trick"] else me
        pos = len(trick)
        rest = n - pos - 1
        pool = _unseen(view, me)
        target = view["marker"]
        left = 10 - view["trick_no"]
        house = [card_id(c) for c in view["houses"][me]]
        h0 = view["house_sizes"][me]
        f0 = view["collapsed_sizes"][me] or 0
        roofed0 = view["roofed"][me]
        capture_all = view["three_player_capture"] == "all"
        samples = 1 if rest == 0 else self.samples
        best, best_v = legal[0], -1e9
        draws = [self.rng.sample(pool, rest) if rest <= len(pool) else pool[:rest] for _ in range(samples)]
        for a in legal:
            total = 0.0
            for extra in draws:
                cards = trick + [a.cid] + extra
                movers, caps = judge_standard(cards, n, size, capture_all)
                got: list[int] = []
                for p, cs in caps:
                    if (lead + p) % n == me:
                        got = cs
                h, f, r = h0, f0, roofed0
                if got and not roofed0:
                    stack = house + sorted(got, key=lambda c: c in roofs)
                    over = len(stack) - limit
                    if over > 0:
                        f += sum(size[c] for c in stack[:over])
                        stack = stack[over:]
                    h = sum(size[c] for c in stack)
                    r = any(c in roofs for c in got)
                t = target
                if any((lead + p) % n == me for p in movers):
                    e = h if r else h + self._gain(view) * left
                    t = target + max(-1, min(1, round(e - target)))
                total += self._value(view, me, h, f, r, t, left)
            v = total / samples + self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best

    # ------------------------------------------------------------- duo
    def _duo_play(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        me = view["current"]
        other = 1 - me
        size = _sizes(view)
        roofs = {card_id(c) for c in view["roofs"]}
        order = view["order"]  # e.g. ["A", "NPC", "B"]: the players by name
        who = {name: s for s, name in enumerate(view["names"])}
        who["NPC"] = NPC
        trick = [card_id(t["card"]) for t in view["trick"]]
        players = [who[t["who"]] for t in view["trick"]]
        my_pos = order.index(view["names"][me])
        seq = [who[order[(my_pos + i) % 3]] for i in range(1, 3 - len(trick))]
        pool = _unseen(view, me)
        left = 10 - view["trick_no"]
        gain = _GAIN["duo"]
        houses = [[card_id(c) for c in h] for h in view["houses"]]
        sizes0 = list(view["house_sizes"])
        roofed0 = list(view["roofed"])
        samples = 1 if not seq else self.samples
        draws = [self.rng.sample(pool, len(seq)) for _ in range(samples)]
        best, best_v = legal[0], -1e9
        for a in legal:
            total = 0.0
            for extra in draws:
                cards = trick + [a.cid] + extra
                seats = players + [me] + seq
                cpos, got = judge_duo(cards, size)
                captor = seats[cpos]
                hs = sizes0[:]
                rf = roofed0[:]
                if not rf[captor]:
                    stack = houses[captor] + sorted(got, key=lambda c: c in roofs)
                    stack = stack[-view["house_limit"]:]
                    hs[captor] = sum(size[c] for c in stack)
                    rf[captor] = any(c in roofs for c in got) and view["duo_roofs"]
                est = [h if rf[i] else h + gain * left for i, h in enumerate(hs)]
                t = est[NPC]
                winners, _ = duo_winners(round(est[0]), round(est[1]), round(t))
                score = 1.0 if winners == (me,) else 0.5 if len(winners) == 2 else 0.0
                mine, theirs = est[me], est[other]
                closeness = (-(abs(t - mine) + (6 if mine > t else 0))
                             + 0.5 * (abs(t - theirs) + (6 if theirs > t else 0)))
                total += score + 0.15 * closeness
            v = total / samples + self.rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best

    def __repr__(self) -> str:
        return "YadokarickGreedyBot()"


class SoloGreedyBot:
    """Solo: the hint's choice every time (it sees only its view)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        if view.get("mode") != "solo":
            return YadokarickGreedyBot(self.rng.random()).act(view, legal)
        return _solo_choice(view, legal)


def _solo_choice(view: dict[str, Any], legal: Sequence[Any]) -> Any:
    """The hint's action: the solo view already carries it, so it is not worked out twice."""
    hint = view.get("hint")
    if hint is not None:
        for a in legal:
            if str(a) == hint["action"]:
                return a
    return hint_from_view(view, legal)[0]


BOTS = {"greedy": YadokarickGreedyBot, "solo_greedy": SoloGreedyBot}

__all__ = ["BOTS", "SoloGreedyBot", "YadokarickGreedyBot"]
