"""Pure rules, one package per game: the standard library and ``cardwidgets.core`` only.

Every game's package has the same rooms: ``cards`` (cards, actions, notation), ``spec``
(options, ``SPEC``, configuration), ``worlds`` (what a seat sees and knows), ``position``
(position text, the checks of a loaded state) and ``state`` (the rules, and the
construction of a game); a game with several engines keeps one more room per mode. The
games are listed once, in ``registry.json`` next to this file; the JS build reads the
same list. Adding a game is its package (with ``SPEC``), its front-end layout and one
line there.
"""

from __future__ import annotations

import importlib
import json
from importlib import resources
from typing import Any

from ..core.registry import available_games, game_module, game_spec, register_game

for _name in json.loads(resources.files(__name__).joinpath("registry.json").read_text(encoding="utf-8")):
    register_game(_name, f"{__name__}.{_name}")


def new_game(game: str, **kwargs: Any):
    """``game_module(game).new_game(**kwargs)``."""
    return game_module(game).new_game(**kwargs)


def __getattr__(name: str) -> Any:
    # ``cardwidgets.games.depot`` after a bare ``import cardwidgets``: a game's module is
    # imported when first named, so importing one engine never loads the others.
    if name in available_games():
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(available_games()))


__all__ = ["available_games", "game_module", "game_spec", "new_game"]
