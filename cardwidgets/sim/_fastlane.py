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
        """The games table's per-game columns, as :meth:`cardwidgets.fast.Batch.rows` words them."""
        players = self.winners.shape[1]
        # Winners as tuples, one per distinct set of seats (few): no Python loop over seats per game.
        masks = (self.winners.astype(np.int64) << np.arange(players)).sum(axis=1)
        distinct, inverse = np.unique(masks, return_inverse=True)
        sets = [tuple(s for s in range(players) if int(m) >> s & 1) for m in distinct]
        starter = self.starter.tolist()
        return {
            "game_index": self.index,
            "seed": self.seeds,
            "starter": [None if s < 0 else s for s in starter],
            "winners": [sets[k] for k in inverse.tolist()],
            "scores": list(map(tuple, self.scores.tolist())),
            "length": self.length,
            "termination": np.where(self.aborted, "aborted", "normal").astype(object),
            "reason": np.array(self.reasons, dtype=object)[self.reason] if self.reasons else
            np.empty(0, dtype=object),
        }


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
