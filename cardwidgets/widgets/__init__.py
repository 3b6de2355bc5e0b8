"""anywidget tables: one class per registered game, built by ``table_class`` from its spec.

The classes are made on first use (``cardwidgets.widgets.Depot``), each from its
game's ``GameSpec`` and front-end bundle.
"""

from __future__ import annotations

from typing import Any

from ..games import available_games, game_spec
from ._base import TableWidget, table_class

_made: dict[str, type[TableWidget]] = {}


def _names() -> dict[str, str]:
    return {game_spec(g).table: g for g in available_games()}


def __getattr__(name: str) -> Any:
    game = _names().get(name)
    if game is None:
        raise AttributeError(f"module 'cardwidgets.widgets' has no attribute {name!r}")
    return game_table(game)


def game_table(game: str) -> type[TableWidget]:
    """The table class of a registered game: the same class as ``cardwidgets.widgets.<Name>``."""
    name = game_spec(game).table
    if name not in _made:
        _made[name] = table_class(game)
    return _made[name]


def __dir__() -> list[str]:
    return sorted([*globals(), *_names()])


__all__ = ["TableWidget", "game_table", "table_class", *_names()]
