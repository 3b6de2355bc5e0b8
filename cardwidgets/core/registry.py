"""The game registry: names -> rules modules, filled in by ``cardwidgets.games``.

Core never names a game: the games package registers its games here (dependencies
point downward), and core code that must build a game by name (replays) asks the
registry. A game module defines ``SPEC`` (a :class:`~cardwidgets.core.spec.GameSpec`),
``new_game`` and ``parse_action``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .spec import GameSpec

_GAMES: dict[str, str] = {}


def register_game(name: str, module: str) -> None:
    """Make ``name`` loadable; ``module`` is imported on first use."""
    _GAMES[name] = module


def available_games() -> list[str]:
    """Registered game names, in registration order."""
    return list(_GAMES)


def game_module(game: str) -> ModuleType:
    """The rules module of ``game`` (``SPEC``, ``new_game``, ``parse_action`` ...)."""
    if not isinstance(game, str) or game not in _GAMES:
        raise ValueError(f"unknown game {game!r}; available games: {', '.join(_GAMES)}")
    return importlib.import_module(_GAMES[game])


def game_spec(game: str) -> "GameSpec":
    """The declared :class:`~cardwidgets.core.spec.GameSpec` of ``game``."""
    return game_module(game).SPEC
