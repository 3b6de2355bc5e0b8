"""Seeded randomness owned by each state.

Every random decision of an engine (a shuffle, a random starting seat) draws from a
fresh ``random.Random`` seeded with ``(seed, k)``, where ``k`` counts the decisions
made so far. The whole random state is therefore two integers: cloning and
``to_dict`` are exact and cheap, and nothing touches the module-level ``random``.
"""

from __future__ import annotations

import random
from typing import MutableSequence, TypeVar

T = TypeVar("T")


def fresh_seed() -> int:
    """A new seed from the operating system, used when the caller gives none."""
    return random.SystemRandom().randrange(2**63)


class Rng:
    """The random source of decision number ``count`` of a state seeded with ``seed``."""

    __slots__ = ("seed", "count")

    def __init__(self, seed: int, count: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, got {seed!r}")
        self.seed = seed
        self.count = count

    def _next(self) -> random.Random:
        # A string seed is hashed with SHA-512 by `random`, so it is stable across runs
        # and platforms (unlike hash()).
        r = random.Random(f"cardwidgets/{self.seed}/{self.count}")
        self.count += 1
        return r

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._next().shuffle(items)

    def randrange(self, n: int) -> int:
        return self._next().randrange(n)

    def copy(self) -> "Rng":
        return Rng(self.seed, self.count)

    def to_list(self) -> list[int]:
        return [self.seed, self.count]

    def __repr__(self) -> str:
        return f"Rng({self.seed}, {self.count})"
