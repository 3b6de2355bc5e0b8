"""cardwidgets: Jupyter-native card-game tables you can play, teach, replay and explore.

Headless engines::

    >>> import cardwidgets
    >>> st = cardwidgets.make("depot", players=3, seed=1)
    >>> st.current_player, cardwidgets.game_spec("depot").title
    (0, 'Depot')

Tables (anywidget) are imported on first use, so simulations never load the widget
stack: ``from cardwidgets import Depot``. So are the subpackages: after a bare
``import cardwidgets``, ``cardwidgets.rules.lookup("D4.2")``, ``cardwidgets.lessons``,
``cardwidgets.sim``, ``cardwidgets.bots`` ... import themselves when first named.
"""

from __future__ import annotations

import importlib as _importlib
from functools import lru_cache as _lru_cache
from typing import Any

from .core import (Event, Explanation, IllegalActionError, InvalidActionError, Outcome, SamplingLimitError, State,
                   Termination, Timeline)
from .core.position import PositionError, from_position
from .core.registry import register_provider as _register_provider
from .core.replay import Replay, ReplayError
from .games import available_games, game_module, game_spec

__version__ = "0.2.0"

# What the core uses from the layers above, through its registry (it never imports them).
_register_provider("html", "cardwidgets.export:write_html")
_register_provider("rule", "cardwidgets.rules:lookup")
_register_provider("rule_url", "cardwidgets.rules:url")
_register_provider("lane_rollout", "cardwidgets.fast:lane_rollout")


def make(game: str, **kwargs: Any) -> State:
    """A new engine state: ``make("depot", players=4, seed=1, games=3)``."""
    return game_module(game).new_game(**kwargs)


def lesson(lesson_id: Any, **kwargs: Any) -> Any:
    """The table of a lesson in lesson mode: ``cardwidgets.lesson("depot/sets-and-runs")``.

    The lesson's game at the run's position, seated at the lesson's seat, with a lesson panel
    (prompt, hint, feedback with its rule, progress, next and restart); a click is an attempt.
    ``cardwidgets.lessons.load(id).start()`` runs the same lesson without a table.
    ``bot_delay`` (the pause between the scripted replies) and ``animations`` as on every table.
    """
    from .widgets._lesson import lesson_table

    return lesson_table(lesson_id, **kwargs)


def _tables() -> dict[str, str]:
    # Reading the specs imports every game module, so it is done on first use only:
    # importing one engine stays cheap.
    return {game_spec(g).table: g for g in available_games()}


@_lru_cache(maxsize=None)
def _subpackages() -> frozenset[str]:
    # The public subpackages and modules as they are on disk (rules, lessons, sim, bots, envs,
    # export ...): each is imported when first named, so a bare ``import cardwidgets`` stays
    # light (no widget stack, no pandas) and ``cardwidgets.sim`` still works without an import.
    import pkgutil  # here, not at the top: it costs more than the rest of the bare import

    return frozenset(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def __getattr__(name: str) -> Any:
    if name == "__all__":
        return [*_NAMES, *_tables()]
    if name in _subpackages():
        # import_module binds the submodule in this module's namespace: later lookups skip here.
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _tables():
        from . import widgets

        return getattr(widgets, name)
    raise AttributeError(f"module 'cardwidgets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_tables()) | _subpackages())


_NAMES = [
    "Event",
    "Explanation",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "PositionError",
    "Replay",
    "ReplayError",
    "SamplingLimitError",
    "State",
    "Termination",
    "Timeline",
    "available_games",
    "from_position",
    "game_module",
    "game_spec",
    "lesson",
    "make",
]
