"""Bots: they see only ``view(seat)`` and the legal list, and are seeded.

A bot is any object with ``act(view, legal) -> action`` (``legal`` is the list of
action objects of ``state.legal_actions()``). :func:`make_bot` builds the named ones.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Protocol, Sequence

from ..games import game_module


class Bot(Protocol):
    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any: ...


class RandomBot:
    """Uniformly random legal action, from its own seeded RNG."""

    name = "random"
    needs_view = False  # simulations skip building the view for it

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any], legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _named(game: str) -> dict[str, Callable[[int | None], Bot]]:
    """The heuristic bots of ``game``: ``BOTS`` of the module ``cardwidgets.bots.<game>``, if any.

    ``"greedy"`` is the general name of each game's heuristic bot; a game may add aliases.
    """
    game_module(game)  # an unknown game is a ValueError naming the games
    try:
        mod = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{game}":
            raise
        return {}
    return dict(mod.BOTS)


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (``"random"`` always is)."""
    return ["random"] + sorted(_named(game))


def make_bot(game: str, spec: Any, seed: int | None = None) -> Bot:
    """A bot from a name (``"random"``, ``"greedy"``) or an object with ``act``."""
    if hasattr(spec, "act"):
        return spec
    if spec == "random":
        return RandomBot(seed)
    factory = _named(game).get(spec) if isinstance(spec, str) else None
    if factory is None:
        raise ValueError(f"unknown bot {spec!r} for {game}; available: {', '.join(bot_names(game))}")
    return factory(seed)


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
