"""Array helpers the kernels share to build a :class:`~cardwidgets.fast.Batch` (and a rollout's trace)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def flat(rows: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The first ``lengths[i]`` entries of each row, one row after the other."""
    return rows[np.arange(rows.shape[1])[None, :] < lengths[:, None]]


def starts(lengths: np.ndarray) -> np.ndarray:
    """Where each of the parts of these lengths starts in their concatenation, and the end."""
    out = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


def worded(keys: np.ndarray, word: Callable[..., str]) -> list[str]:
    """``word(*row)`` of each row of ``keys`` (an int array, one row per game), worded once per
    distinct row: a batch's reasons are a few texts over and over."""
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    texts = [word(*row) for row in uniq.tolist()]
    return [texts[j] for j in inv.ravel().tolist()]


def chance_list(stream: list[int]) -> list[Any]:
    """A chance stream (see :mod:`cardwidgets.fast`) as the decisions of
    :class:`~cardwidgets.core.rng.Recorded`: a permutation per shuffle, an int per random choice."""
    out: list[Any] = []
    k = 0
    while k < len(stream):
        size = stream[k]
        if size < 0:
            out.append(stream[k + 1])
            k += 2
        else:
            out.append(stream[k + 1:k + 1 + size])
            k += 1 + size
    return out
