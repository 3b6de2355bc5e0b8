"""Reinforcement-learning adapters: every game and mode as a PettingZoo AEC environment
and as an OpenSpiel game.

* :func:`pettingzoo_env` (``pip install "cardwidgets[rl]"``): ``pettingzoo_env("depot",
  players=4)``, a PettingZoo AEC environment with a fixed ``Discrete`` action space and
  a masked, numeric observation of each seat's view.
* :func:`register_openspiel` (``pip install "cardwidgets[openspiel]"``): registers
  ``python_cardwidgets_<game>`` for ``pyspiel.load_game``; :func:`openspiel_game` loads one
  with its parameters checked first.

Both read the engines through their public contract only, and what a seat observes is
read from ``view(seat)``. The frameworks are imported when these functions are first
called, so ``import cardwidgets.envs`` needs neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .adapter import EnvSpec, Table

if TYPE_CHECKING:
    from ._pettingzoo import CardGameEnv

__all__ = ["EnvSpec", "Table", "deserialize_game_and_state", "openspiel_game", "pettingzoo_env", "register_openspiel",
           "serialize_game_and_state"]


def pettingzoo_env(game: str, render_mode: str | None = None, **kwargs: Any) -> "CardGameEnv":
    """A PettingZoo AEC environment of one configuration of ``game``.

    Parameters
    ----------
    game:
        ``"depot"``, ``"cirno_neu"``, ``"crypto_trick"`` or ``"yadokarick"``.
    render_mode:
        ``None`` or ``"ansi"`` (``render()`` returns the text table of the seat to act)
        or ``"human"`` (it prints it).
    **kwargs:
        ``new_game``'s keyword arguments: ``players=``, ``mode=`` and the game's options.

    Examples
    --------
    >>> env = pettingzoo_env("depot", players=3)
    >>> env.reset(seed=7)
    >>> env.num_agents, int(env.action_space("player_0").n), env.action_names[-1]
    (3, 181, 'pass take 8 give 7')
    """
    from ._pettingzoo import pettingzoo_env as make

    return make(game, render_mode=render_mode, **kwargs)


def register_openspiel() -> list[str]:
    """Register every game as an OpenSpiel Python game; returns the registered names.

    Afterwards ``pyspiel.load_game("python_cardwidgets_yadokarick", {"mode": "duo"})``
    works; parameters: ``players``, ``mode``, ``rng_seed`` and the game's scalar options.
    Calling it again does nothing more.
    """
    from ._openspiel import register

    return register()


def openspiel_game(game: str, **params: Any) -> Any:
    """One configuration of ``game`` as an OpenSpiel game (registered first if need be).

    ``openspiel_game("depot", players=3, rng_seed=7)`` is
    ``pyspiel.load_game("python_cardwidgets_depot", {"players": 3, "rng_seed": 7})``, except that a
    parameter OpenSpiel cannot hold is a ``ValueError`` saying so: its int parameters are 32-bit,
    and ``pyspiel.load_game`` answers a larger int (``rng_seed=2**62``) with a bare ``RuntimeError``.
    """
    from ._openspiel import load

    return load(game, **params)


def serialize_game_and_state(game: Any, state: Any) -> str:
    """An OpenSpiel game of cardwidgets and one of its states as text (no pickle).

    ``pyspiel.serialize_game_and_state`` cannot take these games (OpenSpiel asks a
    sampled-stochastic game for an RNG state that no Python game can give): this is the
    same job, in the same layout; :func:`deserialize_game_and_state` reads it back.
    """
    from ._openspiel import serialize_game_and_state as write

    return write(game, state)


def deserialize_game_and_state(text: str) -> tuple[Any, Any]:
    """``(game, state)`` from :func:`serialize_game_and_state`'s text, checked; a ``ValueError``
    for anything else, and nothing in the text is run."""
    from ._openspiel import deserialize_game_and_state as read

    return read(text)
