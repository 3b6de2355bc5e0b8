"""The registries core owns: games by name, and the writers of pages.

Core never names a game: the games package registers its games here (dependencies
point downward), and core code that must build a game by name (replays) asks the
registry. A game module defines ``SPEC`` (a :class:`~cardwidgets.core.spec.GameSpec`),
``new_game`` and ``parse_action``.

Core never imports a layer above it either: ``Timeline.to_html`` and ``Replay.to_html``
hand over to the writer registered for ``"html"`` (the package root registers
``cardwidgets.export``), imported when first used.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .spec import GameSpec

_GAMES: dict[str, str] = {}
_WRITERS: dict[str, str] = {}


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


def register_writer(kind: str, target: str) -> None:
    """Make ``target`` (``"module:function"``) the writer of ``kind`` pages; imported on first use.

    The writer is called ``writer(source, path, seat)`` with a Timeline or a Replay and
    returns the path written.
    """
    _WRITERS[kind] = target


def writer(kind: str) -> Callable[..., Any]:
    """The function registered for ``kind`` (``"html"``) by :func:`register_writer`."""
    if kind not in _WRITERS:
        raise LookupError(f"no writer of {kind!r} pages is registered; registered: {', '.join(_WRITERS) or 'none'}")
    module, _, name = _WRITERS[kind].partition(":")
    return getattr(importlib.import_module(module), name)
