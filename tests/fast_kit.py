"""Helpers of the fast lane's kernel tests (tests/test_fast_crypto_trick.py, tests/test_fast_yadokarick.py)."""

from __future__ import annotations

import math
from typing import Any, Sequence


def decisions(stream: Sequence[int]) -> list[Any]:
    """A chance stream (the lane's format: ``k, p...`` a shuffle, ``-1, v`` a choice) as ``Recorded`` takes it."""
    out: list[Any] = []
    k = 0
    while k < len(stream):
        if stream[k] < 0:
            out.append(stream[k + 1])
            k += 2
        else:
            out.append(list(stream[k + 1:k + 1 + stream[k]]))
            k += 1 + stream[k]
    return out


def shares(winners: Sequence[Sequence[int]], players: int) -> list[float]:
    """Each seat's share of the wins (a shared win counts 1 / the winners for each)."""
    w = [0.0] * players
    for ws in winners:
        for s in ws:
            w[s] += 1 / len(ws)
    return [x / len(winners) for x in w]


def agree(ref_rows: Sequence[tuple], batch: Any, players: int) -> list[str]:
    """Where the reference engine's games (``cardwidgets.sim`` rows) and a lane ``Batch``
    disagree by more than 4 standard errors: each seat's win share, the mean length and the
    mean score of seat 0 (a bot in that seat that plays differently moves it first)."""
    n_ref, n_lane = len(ref_rows), len(batch)
    problems = []
    ref_shares = shares([r[3] for r in ref_rows], players)
    lane_shares = shares([batch.winners_of(i) for i in range(n_lane)], players)
    for s in range(players):
        p = lane_shares[s]
        sigma = math.sqrt(max(p * (1 - p), 0.01) * (1 / n_ref + 1 / n_lane))
        if abs(ref_shares[s] - p) >= 4 * sigma:
            problems.append(f"seat {s} wins {ref_shares[s]:.3f} on the engine, {p:.3f} in the lane")
    for what, ref_values, lane_values in (("length", [r[5] for r in ref_rows], batch.length.tolist()),
                                          ("seat 0's score", [r[4][0] for r in ref_rows], batch.scores[:, 0].tolist())):
        m1, v1 = _mean_var(ref_values)
        m2, v2 = _mean_var(lane_values)
        sigma = math.sqrt(v1 / n_ref + v2 / n_lane)
        if abs(m1 - m2) > 4 * sigma + 1e-9:
            problems.append(f"mean {what} {m1:.2f} on the engine, {m2:.2f} in the lane")
    return problems


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / len(xs)
