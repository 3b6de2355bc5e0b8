"""The lane's random numbers: SplitMix64, one stream per game from the game's seed.

Compiled helpers every kernel shares. A stream is a one-element ``uint64`` array (its
state), so a kernel passes it around and the games of a batch are independent: game
``i`` draws the same numbers alone or in any batch, on any worker.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)


@njit(cache=True)
def stream(seed: int) -> np.ndarray:
    """A new stream seeded with ``seed`` (an int64; mixed once so nearby seeds differ)."""
    st = np.empty(1, np.uint64)
    reseed(st, seed)
    return st


@njit(cache=True)
def reseed(st: np.ndarray, seed: int) -> None:
    """Start stream ``st`` again from ``seed``: as :func:`stream`, with no allocation."""
    st[0] = uint64(seed) ^ uint64(0x6A09E667F3BCC909)
    next64(st)


@njit(cache=True)
def next64(st: np.ndarray) -> np.uint64:
    z = st[0] + _GOLDEN
    st[0] = z
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@njit(cache=True)
def below(st: np.ndarray, n: int) -> int:
    """An int in ``range(n)``, unbiased (Lemire's multiply-and-reject on 32 bits; n < 2**32)."""
    un = uint64(n)
    while True:
        x = next64(st) >> uint64(32)
        m = x * un
        low = m & uint64(0xFFFFFFFF)
        # The division that finds the rejected zone is needed only when low < n (rarely).
        if low >= un or low >= (uint64(0x100000000) - un) % un:
            return np.int64(m >> uint64(32))


@njit(cache=True)
def permutation(st: np.ndarray, p: np.ndarray, k: int) -> None:
    """``p[:k]`` := a uniformly random permutation of ``0..k-1`` (Fisher-Yates)."""
    for i in range(k):
        p[i] = i
    for i in range(k - 1, 0, -1):
        j = below(st, i + 1)
        t = p[i]
        p[i] = p[j]
        p[j] = t
