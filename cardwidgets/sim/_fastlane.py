"""Games of a simulation played in the fast lane (``cardwidgets.fast``): the worker's part, and
the columns it sends back.

A chunk comes back as its batch's numpy arrays (:class:`LaneRows`), not as row tuples: a
worker pickles a few arrays in milliseconds where 100,000 rows of tuples took it 0.4 s and the
parent 1.1 s to unpickle, and the parent builds the games table from the arrays of the whole
run at once (:meth:`LaneRows.columns`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ._play import game_seed


@dataclass
class LaneRows:
    """Games of a run played in the lane, as arrays (``n`` games, ``players`` seats).

    ``index`` is each game's index in its run; ``reason`` indexes ``reasons`` (a few
    distinct texts). The other arrays are the :class:`cardwidgets.fast.Batch`'s.
    """

    index: np.ndarray
    seeds: np.ndarray
    starter: np.ndarray
    winners: np.ndarray
    scores: np.ndarray
    length: np.ndarray
    aborted: np.ndarray
    reason: np.ndarray
    reasons: list[str]

    def __len__(self) -> int:
        return len(self.index)

    @classmethod
    def of(cls, batch: Any, indexes: Sequence[int]) -> "LaneRows":
        codes: dict[str, int] = {}
        reason = np.fromiter((codes.setdefault(r, len(codes)) for r in batch.reasons), np.int32, len(batch.reasons))
        return cls(np.asarray(indexes, dtype=np.int64), batch.seeds, batch.starter, batch.winners, batch.scores,
                   batch.length, batch.aborted, reason, list(codes))

    @classmethod
    def merge(cls, parts: Sequence["LaneRows"]) -> "LaneRows":
        """The chunks of a run as one, in the order of the games' indexes."""
        texts: dict[str, int] = {}
        reason = []
        for p in parts:
            remap = np.array([texts.setdefault(r, len(texts)) for r in p.reasons] or [0], dtype=np.int32)
            reason.append(remap[p.reason])
        index = np.concatenate([p.index for p in parts])
        order = np.argsort(index, kind="stable")

        def cat(name: str) -> np.ndarray:
            return np.concatenate([getattr(p, name) for p in parts])[order]

        return cls(index[order], cat("seeds"), cat("starter"), cat("winners"), cat("scores"), cat("length"),
                   cat("aborted"), np.concatenate(reason)[order], list(texts))

    def columns(self) -> dict[str, Any]:
        """The games table's per-game columns, as :meth:`cardwidgets.fast.Batch.rows` words them.

        The tuples of winners and scores are made once per distinct value (a run has few) and
        laid out by numpy: no Python object is made per game."""
        players = self.winners.shape[1]
        masks = (self.winners.astype(np.int64) << np.arange(players)).sum(axis=1)
        distinct, inverse = np.unique(masks, return_inverse=True)
        winners = [tuple(s for s in range(players) if int(m) >> s & 1) for m in distinct]
        rows, scores = _unique_rows(self.scores)
        return {
            "game_index": self.index,
            "seed": self.seeds,
            "starter": _starters(self.starter),
            "winners": _objects(winners)[inverse.reshape(-1)],
            "scores": _objects([tuple(r) for r in rows.tolist()])[scores.reshape(-1)],
            "length": self.length,
            "termination": _objects(["normal", "aborted"])[self.aborted.astype(np.int64)],
            "reason": _objects(self.reasons)[self.reason],
        }


def _unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, axis=0, return_inverse=True)``, through one int64 key per row where the
    columns' distinct values allow (sorting rows as a whole is ten times slower)."""
    codes, sizes = [], []
    for j in range(a.shape[1]):
        values, code = np.unique(a[:, j], return_inverse=True)
        codes.append(code.reshape(-1))
        sizes.append(len(values))
    if not a.shape[1] or np.prod(np.array(sizes, dtype=float)) >= 2 ** 62:
        rows, inverse = np.unique(a, axis=0, return_inverse=True)
        return rows, inverse.reshape(-1)
    key = np.zeros(len(a), dtype=np.int64)
    for code, size in zip(codes, sizes):
        key = key * size + code
    _, firsts, inverse = np.unique(key, return_index=True, return_inverse=True)
    return a[firsts], inverse.reshape(-1)


def _objects(values: Sequence[Any]) -> np.ndarray:
    """``values`` as a 1-d object array (tuples stay whole: ``np.array`` would make rows of them)."""
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out


def _starters(starter: np.ndarray) -> list[int | None]:
    """The starter column: ``None`` where nobody acted (-1)."""
    return [None if s < 0 else s for s in starter.tolist()]


def play_chunk(game: str, kwargs: Mapping[str, Any], specs: Sequence[Any], run_seed: int,
               indexes: Sequence[int], on_illegal: str = "raise") -> LaneRows:
    """Games ``indexes`` of a run, played in the lane (``kwargs``: players, mode and every
    option, resolved). The lane plays named bots only, whose moves are legal by construction,
    so ``on_illegal`` never applies."""
    from ..fast import play

    indexes = list(indexes)
    kw = dict(kwargs)
    batch = play(game, [game_seed(run_seed, i) for i in indexes], bots=list(specs), players=kw.pop("players"),
                 mode=kw.pop("mode"), **kw)
    return LaneRows.of(batch, indexes)
