"""The registries core owns: games by name, and what the layers above provide.

Core never names a game: the games package registers its games here (dependencies
point downward), and core code that must build a game by name (replays) asks the
registry. A game module defines ``SPEC`` (a :class:`~cardwidgets.core.spec.GameSpec`),
``new_game`` and ``parse_action``.

Core never imports a layer above it either: what it needs from one is registered here by
the package root and imported when first used. ``Timeline.to_html`` and ``Replay.to_html``
hand over to the ``"html"`` provider (``cardwidgets.export.write_html``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .spec import GameSpec

_GAMES: dict[str, str] = {}
_PROVIDERS: dict[str, str] = {}


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


def register_provider(kind: str, target: str) -> None:
    """Make ``target`` (``"module:attribute"``) what provides ``kind``, imported on first use.

    ``"html"``: the writer of a page, called ``write(source, path, seat)`` with a Timeline or
    a Replay; it returns the path written. ``"rule"`` and ``"rule_url"``: the rules
    reference's ``lookup(rule_id, game)`` and ``url(rule_id, game, base=...)``.
    ``"lane_rollout"``: the fast lane's ``lane_rollout(world, policy)`` for IS-MCTS.
    """
    _PROVIDERS[kind] = target


def provider(kind: str) -> Any:
    """What :func:`register_provider` registered for ``kind``."""
    if kind not in _PROVIDERS:
        raise LookupError(f"nothing provides {kind!r}; registered: {', '.join(_PROVIDERS) or 'nothing'}")
    module, _, name = _PROVIDERS[kind].partition(":")
    return getattr(importlib.import_module(module), name)
