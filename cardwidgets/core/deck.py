"""Checking a scenario deck (``new_game(deck=[...])``) once for every game."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Sequence

from .errors import show


def check_deck(deck: Any, need: Iterable[Hashable], card: Callable[[Any], Hashable | None],
               name: Callable[[Hashable], str] = str, what: str = "card") -> list[Hashable]:
    """The cards of ``deck`` (top first) read with ``card``, or a ``ValueError``.

    ``card`` turns one entry into the game's card (``None`` if it is not one);
    ``need`` is the game's card multiset. The error names the first entry that is
    not a card, or every card missing and every card extra.

    >>> check_deck(["1", 2], [1, 2], lambda c: int(c) if str(c).isdigit() else None)
    [1, 2]
    >>> check_deck([1, 1], [1, 2], lambda c: c)
    Traceback (most recent call last):
    ...
    ValueError: deck is not the game's card multiset: missing 1×2; extra 1×1
    """
    if not isinstance(deck, (list, tuple)):
        raise ValueError(f"deck must be a list of {what}s, top first")
    cards = []
    for i, c in enumerate(deck):
        k = card(c)
        if k is None:
            raise ValueError(f"deck[{i}] = {show(c, 20)} is not a {what}")
        cards.append(k)
    got, want = Counter(cards), Counter(need)
    if got != want:
        parts = []
        for label, diff in (("missing", want - got), ("extra", got - want)):
            if diff:
                parts.append(label + " " + ", ".join(f"{n}×{name(k)}" for k, n in
                                                     sorted(diff.items(), key=lambda kv: _order(kv[0]))))
        raise ValueError("deck is not the game's card multiset: " + "; ".join(parts))
    return cards


def read_cards(cards: Any, card: Callable[[Any], Hashable | None], what: str, example: str) -> list[Hashable]:
    """A list of cards read with ``card`` (hand-built positions), or a ``ValueError`` naming
    the first entry that is not a card.

    >>> read_cards(["1", "2"], lambda c: int(c) if c.isdigit() else None, "hand", "1-8")
    [1, 2]
    """
    if isinstance(cards, str) or not isinstance(cards, (list, tuple)):
        raise ValueError(f"{what}: expected a list of cards, got {show(cards)}")
    out = []
    for c in cards:
        k = card(c)
        if k is None:
            raise ValueError(f"{what}: {show(c, 20)} is not a card ({example})")
        out.append(k)
    return out


def _order(key: Hashable) -> tuple:
    return (0, key, "") if isinstance(key, int) else (1, 0, str(key))


def counts_to_cards(counts: Sequence[int]) -> list[int]:
    """``[0, 2, 1]`` -> ``[1, 1, 2]``: a card multiset from counts indexed by card id."""
    return [k for k, n in enumerate(counts) for _ in range(n)]
