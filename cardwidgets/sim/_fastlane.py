"""Games of a simulation played in the fast lane (``cardwidgets.fast``): the worker's part."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ._play import game_seed


def play_chunk(game: str, kwargs: Mapping[str, Any], specs: Sequence[Any], run_seed: int,
               indexes: Sequence[int]) -> list[tuple]:
    """Games ``indexes`` of a run, played in the lane: the rows of :func:`._play.play_chunk`
    (``kwargs``: players, mode and every option, resolved)."""
    from ..fast import play

    indexes = list(indexes)
    kw = dict(kwargs)
    batch = play(game, [game_seed(run_seed, i) for i in indexes], bots=list(specs), players=kw.pop("players"),
                      mode=kw.pop("mode"), **kw)
    return batch.rows(indexes)
