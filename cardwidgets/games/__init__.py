"""Pure rules, one module per game. Only the standard library and ``cardwidgets.core``."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: Registry name -> module name under ``cardwidgets.games``.
GAMES = {"depot": "depot", "cirno_neu": "cirno_neu"}


def available_games() -> list[str]:
    """Names accepted by :func:`game_module` and ``cardwidgets.make``."""
    return list(GAMES)


def game_module(game: str) -> ModuleType:
    """The rules module of ``game`` (``new_game``, ``parse_action``, ``OPTIONS`` ...)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available games: {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{GAMES[game]}")


def new_game(game: str, **kwargs: Any):
    """``game_module(game).new_game(**kwargs)``."""
    return game_module(game).new_game(**kwargs)
