"""Randomness that is pinned, cheap, and can be injected.

Every random decision of an engine (a shuffle, a random seat) is decision number
``k`` of its state. By default decision ``k`` of a state seeded with ``seed`` draws
from a Mersenne Twister seeded with the text ``"cardwidgets/<seed>/<k>"``; the
whole random state is two integers, so clones and ``to_dict`` are exact and
nothing touches the module-level ``random``.

The shuffle is the library's own Fisher–Yates over ``getrandbits``, not
``random.shuffle`` (whose algorithm Python does not promise to keep): recorded
seeds replay the same games on any Python. It reproduces the permutations
``random.Random(text).shuffle`` gives on CPython 3.8–3.13, so games recorded
before it existed replay unchanged.

A test or a cross-check can hand a state recorded decisions instead
(:class:`Recorded`): another implementation of a game records its shuffles, the
engine replays them, and the two games can be compared action by action.

>>> deck = list(range(6)); shuffle(7, 0, deck); deck
[4, 1, 2, 3, 0, 5]
>>> r = Recorded([[5, 4, 3, 2, 1, 0], 2]); d = list(range(6)); r.shuffle(0, d); d, r.randrange(1, 3)
([5, 4, 3, 2, 1, 0], 2)
"""

from __future__ import annotations

import random
import threading
from typing import Any, MutableSequence, Sequence

_local = threading.local()


def fresh_seed() -> int:
    """A new seed from the operating system, used when the caller gives none."""
    return random.SystemRandom().randrange(2**63)


def _generator(seed: int, k: int) -> random.Random:
    # Reseeding one generator per thread is cheaper than building a new one, and the
    # text seed is hashed with SHA-512 by `random`: stable across runs and platforms.
    r = getattr(_local, "r", None)
    if r is None:
        r = _local.r = random.Random()
    r.seed(f"cardwidgets/{seed}/{k}")
    return r


_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _plan(n: int) -> tuple[tuple[int, int], ...]:
    """Fisher–Yates steps for ``n`` items: ``(i, bits)``, drawing ``j`` in ``0..i`` (cached:
    the bit lengths are the same for every shuffle of that many items)."""
    plan = _PLANS.get(n)
    if plan is None:
        plan = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
        if len(_PLANS) < 4096:
            _PLANS[n] = plan
    return plan


def shuffle(seed: int, k: int, items: MutableSequence[Any]) -> None:
    """Shuffle ``items`` in place with decision ``k`` of ``seed``."""
    bits = _generator(seed, k).getrandbits
    for i, b in _plan(len(items)):
        j = bits(b)
        while j > i:  # rejection sampling: unbiased
            j = bits(b)
        items[i], items[j] = items[j], items[i]


def randrange(seed: int, k: int, n: int) -> int:
    """An int in ``range(n)`` from decision ``k`` of ``seed``."""
    if n <= 0:
        raise ValueError("randrange needs n >= 1")
    bits = _generator(seed, k).getrandbits
    b = n.bit_length()
    j = bits(b)
    while j >= n:
        j = bits(b)
    return j


class Recorded:
    """Chance decisions handed to an engine instead of its seeded ones.

    ``decisions[k]`` answers decision ``k``: a permutation for a shuffle (the new
    order as indexes into the items as they were: ``new[i] = old[p[i]]``), an int
    for a random choice. A state draws the decisions after the record from its seed. Build a state with ``new_game(..., chance=Recorded(...))``.
    :class:`Recorder` captures the decisions of a seeded game in this form.
    """

    __slots__ = ("decisions",)

    def __init__(self, decisions: Sequence[Sequence[int] | int]) -> None:
        if isinstance(decisions, (str, bytes)) or not isinstance(decisions, Sequence):
            raise ValueError("recorded chance decisions are a list")
        out: list[Any] = []
        for d in decisions:
            if _is_int(d):
                out.append(d)
            elif isinstance(d, Sequence) and not isinstance(d, (str, bytes)) and all(_is_int(i) for i in d):
                out.append(tuple(d))
            else:
                raise ValueError(f"chance decision {len(out)} is neither an int nor a list of ints")
        self.decisions = tuple(out)

    def has(self, k: int) -> bool:
        """Whether decision ``k`` was recorded (a state draws the ones after the record from its seed)."""
        return k < len(self.decisions)

    def _get(self, k: int, what: str) -> Any:
        if k >= len(self.decisions):
            raise IndexError(f"chance decision {k} ({what}) was not recorded: {len(self.decisions)} were given")
        return self.decisions[k]

    def shuffle(self, k: int, items: MutableSequence[Any]) -> None:
        p = self._get(k, f"a shuffle of {len(items)} items")
        if isinstance(p, int) or sorted(p) != list(range(len(items))):
            raise ValueError(f"chance decision {k} is {p!r}, not a permutation of {len(items)} items")
        items[:] = [items[i] for i in p]

    def randrange(self, k: int, n: int) -> int:
        v = self._get(k, f"a choice among {n}")
        if not isinstance(v, int) or not 0 <= v < n:
            raise ValueError(f"chance decision {k} is {v!r}, not an int in range({n})")
        return v

    def to_list(self) -> list[Any]:
        return [d if isinstance(d, int) else list(d) for d in self.decisions]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Recorder:
    """The seeded decisions of ``seed``, recorded as they are made (for :class:`Recorded`)."""

    __slots__ = ("seed", "decisions")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.decisions: dict[int, Any] = {}

    def shuffle(self, k: int, items: MutableSequence[Any]) -> None:
        order = list(range(len(items)))
        shuffle(self.seed, k, order)
        items[:] = [items[i] for i in order]
        self.decisions[k] = order

    def randrange(self, k: int, n: int) -> int:
        v = self.decisions[k] = randrange(self.seed, k, n)
        return v

    def has(self, k: int) -> bool:
        return True

    def recorded(self) -> Recorded:
        """What was drawn so far, in decision order (a missing number is a skipped decision)."""
        top = max(self.decisions, default=-1) + 1
        return Recorded([self.decisions.get(k, 0) for k in range(top)])
