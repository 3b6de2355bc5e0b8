"""Helpers the kernels share: the arrays of a :class:`~cardwidgets.fast.Batch`, the chance stream, the
legal lists a game records, sorted hands and the greedy bots' tie-break."""

from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

from ._rng import below, permutation


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


@njit(cache=True)
def record(gi, length, cu, lu, local, ch, lg, lstart, acts, a_start, chance, c_start, legal, l_start, l_pos,
           record_legal):
    """Game ``gi`` of a kernel's ``_run`` into the batch's arrays: its ``length`` actions from
    ``local``, its chance stream (``ch[:cu]``) and, with ``record_legal``, its legal lists (``lg[:lu]``,
    position ``j`` from ``lstart[j]``), after game ``gi - 1``'s. Returns ``False``, copying nothing,
    if a buffer is too small (the caller grows them and plays the game again)."""
    a0 = a_start[gi]
    c0 = c_start[gi]
    lp = l_pos[0]
    if a0 + length > acts.shape[0] or c0 + cu > chance.shape[0]:
        return False
    if record_legal and (lp + lu > legal.shape[0] or a0 + length + 1 > l_start.shape[0]):
        return False
    acts[a0:a0 + length] = local[:length]
    chance[c0:c0 + cu] = ch[:cu]
    a_start[gi + 1] = a0 + length
    c_start[gi + 1] = c0 + cu
    if record_legal:
        legal[lp:lp + lu] = lg[:lu]
        for j in range(length + 1):
            l_start[a0 + j] = lp + lstart[j]
        l_pos[0] = lp + lu
    return True


@njit(cache=True, inline="always")
def grow(buf, used, need):
    """``buf``, or a copy twice as large when ``need`` more entries after ``used`` do not fit."""
    if used + need <= buf.shape[0]:
        return buf
    out = np.empty(max(2 * buf.shape[0], used + need), buf.dtype)
    out[:used] = buf[:used]
    return out


@njit(cache=True, inline="always")
def choice_into(rng, n, ch, cu):
    """A random choice ``randrange(n)`` written to the chance stream at ``ch[cu]`` as ``-1, v``, where the
    stream has room: returns ``(v, cu + 2)``."""
    v = below(rng, n)
    ch[cu] = -1
    ch[cu + 1] = v
    return v, cu + 2


@njit(cache=True, inline="always")
def shuffle_into(rng, perm, k, ch, cu):
    """A shuffle of ``k`` items: its permutation in ``perm[:k]`` (``new[i] = old[perm[i]]``), written to
    the chance stream at ``ch[cu]`` as ``k, perm[0], ..., perm[k-1]`` where the stream has room: returns
    ``cu + k + 1``."""
    permutation(rng, perm, k)
    ch[cu] = k
    for i in range(k):
        ch[cu + 1 + i] = perm[i]
    return cu + k + 1


@njit(cache=True, inline="always")
def chance_choice(rng, n, ch, cu):
    """:func:`choice_into` on a stream grown as needed: returns ``(v, ch, cu)``."""
    ch = grow(ch, cu, 2)
    v, cu = choice_into(rng, n, ch, cu)
    return v, ch, cu


@njit(cache=True, inline="always")
def chance_shuffle(rng, perm, k, ch, cu):
    """:func:`shuffle_into` on a stream grown as needed: returns ``(ch, cu)``."""
    ch = grow(ch, cu, k + 1)
    return ch, shuffle_into(rng, perm, k, ch, cu)


@njit(cache=True, inline="always")
def record_legal(legal, m, legal_buf, legal_cnt, na, nl):
    """The legal list ``legal[:m]`` of action ``na`` into ``legal_buf`` at ``nl`` (``legal_cnt[na] = m``):
    returns ``nl`` after it. Call it under the caller's ``if record:``: with the branch inside, the helper
    made a random Crypto Trick batch 2.3x slower, inlined or called (the compiled loop then holds more
    reference-count calls on its arrays)."""
    for j in range(m):
        legal_buf[nl + j] = legal[j]
    legal_cnt[na] = m
    return nl + m


@njit(cache=True)
def append_legal(lg, lu, lstart, length, lcode, nl):
    """The legal list ``lcode[:nl]`` of action ``length`` appended to ``lg[:lu]`` (grown when needed), where
    ``lstart[length]`` says it starts: returns ``(lg, lu)`` after it. Called, not inlined, under the
    caller's ``if record_legal:``: inlined, it cost a random batch 4 % though it never ran."""
    lg = grow(lg, lu, nl)
    lstart[length] = lu
    for i in range(nl):
        lg[lu + i] = lcode[i]
    return lg, lu + nl


@njit(cache=True)
def insort(rows, counts, r, v):
    """Insert ``v`` into row ``r`` of ``rows``, kept in increasing order (``counts[r]`` entries)."""
    i = counts[r]
    while i > 0 and rows[r, i - 1] > v:
        rows[r, i] = rows[r, i - 1]
        i -= 1
    rows[r, i] = v
    counts[r] += 1


@njit(cache=True, inline="always")
def tally(key, best, ties, highest):
    """``(best, ties)`` after one more key: the best (highest, or lowest) key so far and how many have it."""
    if key == best:
        return best, ties + 1
    if (key > best) == highest:
        return key, 1
    return best, ties


@njit(cache=True, inline="always")
def tie_at_random(rng, keys, codes, m, best, ties):
    """The code of one of the ``ties`` entries of ``keys[:m]`` equal to ``best``, chosen uniformly: one
    draw ``below(rng, ties)``, then the tie of that rank in list order. The greedy bots' tie-break."""
    pick = below(rng, ties)
    for i in range(m):
        if keys[i] == best:
            if pick == 0:
                return codes[i]
            pick -= 1
    return -1
