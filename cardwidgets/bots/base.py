"""The bots that play without searching, found by name: what the search bot builds on.

:class:`RandomBot`, and each game's own bots (``BOTS`` of the module
``cardwidgets.bots.<game>``, for the games of the game registry). The search bot
(:mod:`cardwidgets.bots.ismcts`) plays its rollouts and its fallback moves with these;
:func:`cardwidgets.bots.make_bot` adds the search bot to them.
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


def game_bots(game: str) -> dict[str, Callable[..., Bot]]:
    """``BOTS`` of the module ``cardwidgets.bots.<game>`` (empty if the game has none).

    ``"greedy"`` is the general name of each game's heuristic bot; a game may add aliases.
    """
    game_module(game)  # an unknown game is a ValueError naming the games
    name = f"{__package__}.{game}"
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return {}
    return dict(mod.BOTS)


def playing_bot(game: str, name: str, seed: int | None = None) -> Bot:
    """A bot of ``game`` that plays without searching: ``"random"`` or one of :func:`game_bots`."""
    if name == "random":
        return RandomBot(seed=seed)
    factory = game_bots(game).get(name)
    if factory is None:
        playable = ", ".join(["random"] + sorted(game_bots(game)))
        raise ValueError(f"unknown bot {name!r} for {game} among those that play without searching: {playable}")
    return factory(seed=seed)
