"""A Crypto Trick bot that plays to the block scoring, from its own view only."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..games.crypto_trick import Give, Play, Reveal, Want


def _score(b: float, k: float, negative: bool = False) -> float:
    """The round score of ``b`` blocks in ``k`` colours (C9.2), for fractional estimates too."""
    if b <= 0:
        return 5.0
    if b < 4:
        return b * min(k, b)
    return -b if negative else b


#: How generously the bot counts the blocks it will still win (tuned over simulated games).
OPTIMISM = 3.0


class CryptoGreedyBot:
    """Heuristic, seeded, from its own view only (its hand, the table, public piles).

    A round scores 5 with no block card, B × K with 1 to 3 blocks (at best 9 for three
    colours) and just B from 4 blocks on. So each trick the bot weighs two plans from
    here: *stop* (take no more blocks: keep the score it has) and *go* (win every
    trick it can: its expected block haul added). Each card's chance to win a trick
    is estimated from its class and number; the blocks a trick brings from the unseen
    cards' share of blocks. Winning the current trick is wanted when the best plan
    after winning it beats the best plan after losing it.

    * **Following**: to win, the last player plays its cheapest winning card, an
      earlier one its strongest; to lose, it sheds its weakest card while it still
      wants later tricks, else its strongest card that does not win now (if every
      card wins, the cheapest).
    * **Offering**: the offered card is usually taken by someone who then leads it
      (C5.6) and hands the bot a card; so when it wants tricks it offers its weakest
      card (and will follow above it), and when it does not, a low card of a colour
      it holds no other card of (so it can shed something else when that is led).
    * **Declaring**: it wants a strong offered card when it wants the trick (it
      leads someone else's card and keeps its own trumps), or a weak one when it
      wants to lose the trick and be rid of a dangerous card; else it passes.
    * **Giving**: the card it needs least: its weakest when it wants tricks, its
      strongest when it does not.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ reading the view
    def _read(self, view: dict[str, Any]) -> None:
        me = self.me = view["seat"]
        self.n = view["players"]
        self.trumps = set(view["trumps"])
        self.blocks = set(view["block_cards"])
        rules = view.get("rules", {})
        self.white_high = rules.get("trump_ranking") == "white_high"
        self.negative = rules.get("overload_score") == "negative_count"
        self.hand = list(view["hands"][me] or [])
        # A card's rank 1..6 within its colour, whatever numbers the options print on it.
        by_colour: dict[str, list[int]] = {}
        for c in view["cards"]:
            by_colour.setdefault(c[0], []).append(int(c[1:]))
        self.rank = {}
        for col, nums in by_colour.items():
            nums.sort()
            for i, v in enumerate(nums):
                self.rank[f"{col}{v}"] = 1 + 5 * i / max(1, len(nums) - 1) if col != "W" else (1 if i == 0 else 6)
        self.left = view["tricks"] - view["trick"]  # tricks after this one
        self.b = view["won_blocks"][me]
        self.cols = set(view["won_block_colors"][me])
        # The share of block cards among the cards this seat has not seen yet.
        table = [t["card"] for t in view["table"]]
        seen = set(self.hand) | set(table) | {view["indicator"]}
        if view["offered"]:
            seen.add(view["offered"])
        unseen_cards = len(view["cards"]) - len(seen) - sum(view["won_counts"])
        unseen_blocks = len(self.blocks) - len(self.blocks & seen) - sum(view["won_blocks"])
        self.block_share = max(0.0, unseen_blocks) / max(1, unseen_cards)

    def _key(self, card: str, lead: str | None, position: int) -> tuple[int, int, int]:
        """C7.2's comparison key: class (trump > lead colour > other), number, play position."""
        col, num = card[0], int(card[1:])
        if col in self.trumps:
            cls = 3 if (self.white_high and col == "W" and len(self.trumps) > 1) else 2
        else:
            cls = 1 if col == lead else 0
        return cls, num, position

    def _win_chance(self, card: str) -> float:
        """A rough chance that this card takes the trick it is played to."""
        num = self.rank.get(card, 3)
        if card[0] in self.trumps:
            return min(0.95, 0.45 + 0.08 * num)
        return 0.09 * num

    def _plan_value(self, b: float, k: float, future: float) -> float:
        """The better of stopping at (b, k) and going on to win ``future`` more blocks."""
        stop = _score(b, k, self.negative)
        if future <= 0:
            return stop
        go = _score(b + future, k + 0.7 * future, self.negative)
        return max(stop, go)

    def _future(self, exclude: str | None = None) -> float:
        """Blocks the bot expects to win in the tricks after this one, if it goes for them."""
        if self.left <= 0:
            return 0.0
        chances = sorted((self._win_chance(c) for c in self.hand if c != exclude), reverse=True)[:self.left]
        # Tricks also come from cards received and from what others throw away: a hand
        # wins well beyond its own cards' odds, so the haul is counted generously.
        return OPTIMISM * sum(chances) * self.n * self.block_share

    def _want_trick(self, cards: list[str], still: int, exclude: str | None = None) -> float:
        """How much better the round looks if the bot wins this trick (``cards`` known, ``still`` to come)."""
        new = [c for c in cards if c in self.blocks]
        more = still * self.block_share
        b_win = self.b + len(new) + more
        k_win = len(self.cols | {c[0] for c in new}) + 0.7 * more
        future = self._future(exclude)
        return self._plan_value(b_win, k_win, future) - self._plan_value(self.b, len(self.cols), future)

    # ------------------------------------------------------------------ acting
    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        self._read(view)
        first = legal[0]
        if isinstance(first, Play):
            return self._follow(view, legal)
        if isinstance(first, Reveal):
            return self._offer(view, legal)
        if isinstance(first, Give):
            return self._give(view, legal)
        return self._declare(view, legal)

    def _follow(self, view: dict[str, Any], legal: Sequence[Play]) -> Play:
        table = view["table"]
        lead = view["lead_color"]
        pos = len(table) + 1
        best = max(self._key(t["card"], lead, t["position"]) for t in table)
        still = self.n - pos
        cards = [t["card"] for t in table]
        winners = [a for a in legal if self._key(a.card, lead, pos) >= best]
        losers = [a for a in legal if a not in winners]
        jitter = self.rng.random
        if winners and self._want_trick(cards + [winners[0].card], still, winners[0].card) > 0:
            if still == 0:
                return min(winners, key=lambda a: (self._key(a.card, lead, pos)[:2], jitter()))
            return max(winners, key=lambda a: (self._key(a.card, lead, pos)[:2], jitter()))
        if losers:
            if self._future() > 0.5:  # still after tricks: keep the strong cards, shed the weakest
                return min(losers, key=lambda a: (self._win_chance(a.card), a.card in self.blocks, jitter()))
            return max(losers, key=lambda a: (self._win_chance(a.card), a.card not in self.blocks, jitter()))
        return min(winners, key=lambda a: (self._key(a.card, lead, pos)[:2], jitter()))

    def _offer(self, view: dict[str, Any], legal: Sequence[Reveal]) -> Reveal:
        jitter = self.rng.random
        going = self._want_trick([], self.n, None) > 0

        def alone(card: str) -> bool:
            return sum(1 for c in self.hand if c[0] == card[0]) == 1

        if going:
            # Offer the weakest card: taken or not, the bot can follow above it.
            return min(legal, key=lambda a: (self._win_chance(a.card), a.card in self.blocks, jitter()))
        # Offer a low lone card: if someone leads it, the bot is void there and sheds.
        return max(legal, key=lambda a: (alone(a.card), -self._win_chance(a.card), a.card not in self.blocks,
                                          jitter()))

    def _declare(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        offered = view["offered"]
        want = next(a for a in legal if isinstance(a, Want))
        skip = next(a for a in legal if not isinstance(a, Want))
        chance = self._win_chance(offered)
        # Weakest card we would give away, and what leading the offered card means for the trick.
        gain = self._want_trick([offered], self.n - 1)
        if gain > 0 and chance >= 0.5:
            return want  # lead a strong card that is not ours, keep our own strength
        if gain < 0 and chance <= 0.15:
            return want  # lead a weak card to lose the trick, and hand over a dangerous card
        return skip

    def _give(self, view: dict[str, Any], legal: Sequence[Give]) -> Give:
        jitter = self.rng.random
        lead = view["offered"]
        going = self._want_trick([lead] if lead else [], self.n - 1) > 0

        def short(card: str) -> int:
            return sum(1 for c in self.hand if c[0] == card[0])

        if going:
            # Keep strong cards; give a weak card from a short colour (voids let trumps in).
            return min(legal, key=lambda a: (self._win_chance(a.card), short(a.card), jitter()))
        return max(legal, key=lambda a: (self._win_chance(a.card), jitter()))

    def __repr__(self) -> str:
        return "CryptoGreedyBot()"


BOTS = {"greedy": CryptoGreedyBot}
