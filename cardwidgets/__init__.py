"""cardwidgets: Jupyter-native card-game tables you can play, teach, replay and explore.

Headless engines::

    >>> import cardwidgets
    >>> st = cardwidgets.make("depot", players=3, seed=1)
    >>> st.current_player
    0

Tables (anywidget) are imported on first use, so simulations never load the widget
stack: ``from cardwidgets import Depot``.
"""

from __future__ import annotations

from typing import Any

from .core import Event, IllegalActionError, InvalidActionError, Outcome, State
from .games import available_games, game_module
from .core.replay import Replay, ReplayError

__version__ = "0.1.0"

_TABLES = {"Depot": "depot", "CirnoNeu": "cirno_neu"}


def make(game: str, **kwargs: Any) -> State:
    """A new engine state: ``make("depot", players=4, seed=1, games=3)``."""
    return game_module(game).new_game(**kwargs)


def __getattr__(name: str) -> Any:
    if name in _TABLES:
        from . import widgets

        return getattr(widgets, name)
    raise AttributeError(f"module 'cardwidgets' has no attribute {name!r}")


__all__ = [
    "CirnoNeu",
    "Depot",
    "Event",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "Replay",
    "ReplayError",
    "State",
    "available_games",
    "game_module",
    "make",
]
