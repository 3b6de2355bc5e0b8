"""Pure rules, one module per game. Only the standard library and ``cardwidgets.core``."""

from __future__ import annotations

from typing import Any

from ..core.registry import available_games, game_module, register_game

register_game("depot", f"{__name__}.depot")
register_game("cirno_neu", f"{__name__}.cirno_neu")


def new_game(game: str, **kwargs: Any):
    """``game_module(game).new_game(**kwargs)``."""
    return game_module(game).new_game(**kwargs)


__all__ = ["available_games", "game_module", "new_game"]
