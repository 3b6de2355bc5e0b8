"""Rule exploration: many seeded games between bots, on every core, as pandas tables.

* :func:`simulate` plays ``n`` games of one configuration and returns a
  :class:`SimResult` (``.games``, ``.seats``, ``.summary()``, ``.plot()``, ``.save()``);
  :func:`load` reads a saved result back.
* :func:`compare` plays the same game seeds under several variants (options,
  players, mode, bots) and measures one metric with its 95 % interval.

Needs the ``explore`` extra (pandas, joblib, tqdm; matplotlib to plot):
``pip install 'cardwidgets[explore]'``. The engines never import it.

>>> from cardwidgets.sim import simulate
>>> res = simulate("depot", 20, bots=["greedy", "random", "random"], seed=1, players=3)
>>> len(res.games), len(res.seats), repr(res.summary()).splitlines()[0]
(20, 60, 'Depot: 20 games, 3 players, mode standard')
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._play import BotMoveError, game_seed

# Resolved on first use: a worker process imports this package to play its games and
# must not pay for pandas, which only the tables need.
_LAZY = {
    "simulate": "_run",
    "SimResult": "_result",
    "Plot": "_result",
    "Summary": "_result",
    "load": "_result",
    "compare": "_compare",
    "Comparison": "_compare",
    "METRICS": "_compare",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        import pandas  # noqa: F401
    except ImportError as e:
        raise ImportError("cardwidgets.sim needs pandas, joblib and tqdm: pip install 'cardwidgets[explore]'") from e
    return getattr(import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = ["BotMoveError", "Comparison", "METRICS", "Plot", "SimResult", "Summary", "compare", "game_seed", "load",
           "simulate"]
