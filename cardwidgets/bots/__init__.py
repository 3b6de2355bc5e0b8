"""Bots: they see only ``view(seat)`` and the legal list, and are seeded.

A bot is any object with ``act(view, legal) -> action`` (``legal`` is the list of
action objects of ``state.legal_actions()``). :func:`make_bot` builds the named ones.

A search bot also needs the positions its seat cannot tell from the real one. It says
so with ``needs_worlds = True`` and is then called ``act(view, legal, worlds=sampler)``,
where ``sampler(rng)`` returns ``state.sample_world(seat, rng)`` of the real state:
:func:`ask` is the one place that builds the call, for simulations and tables alike.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from .base import Bot, RandomBot, game_bots
from .ismcts import ISMCTSBot, SearchInfo


def world_sampler(state: Any, seat: int) -> Callable[[random.Random], Any]:
    """``sampler(rng) -> state.sample_world(seat, rng)``: the worlds a search bot may see.

    Each call deals the cards ``seat`` has not seen again (a new state every time; the
    real state is never returned and never changed). The sampler keeps a reference to
    the real state in its closure: bots run in the caller's process, so this is a
    protocol for honest bots, not a sandbox; what a bot decides from the worlds depends
    only on what the seat knows (tests/test_ismcts.py checks twin positions).
    """
    state.check_seat(seat)

    def sampler(rng: random.Random) -> Any:
        return state.sample_world(seat, rng)

    return sampler


def ask(bot: Any, state: Any, legal: Sequence[Any] | None = None) -> Any:
    """The move ``bot`` chooses for the player to act in ``state`` (not applied).

    The bot gets ``view(seat)`` (``None`` if it says ``needs_view = False``), the legal
    list (``legal`` if given, else ``state.legal_actions()``) and, if it says
    ``needs_worlds = True``, ``worlds=`` :func:`world_sampler` of the state and seat.
    """
    seat = state.current_player
    if legal is None:
        legal = state.legal_actions()
    view = state.view(seat) if getattr(bot, "needs_view", True) else None
    if getattr(bot, "needs_worlds", False):
        return bot.act(view, legal, worlds=world_sampler(state, seat))
    return bot.act(view, legal)


def _named(game: str) -> dict[str, Callable[..., Bot]]:
    """The named bots of ``game``: ``"ismcts"`` and the game's own (:func:`~cardwidgets.bots.base.game_bots`)."""
    named: dict[str, Callable[..., Bot]] = {"ismcts": ISMCTSBot}
    named.update(game_bots(game))
    return named


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (``"random"`` and ``"ismcts"`` always are)."""
    return ["random"] + sorted(_named(game))


def make_bot(game: str, spec: Any, seed: int | None = None) -> Bot:
    """A bot from a name (``"random"``, ``"greedy"``, ``"ismcts"``), a mapping with a
    ``"name"`` and the bot's parameters (``{"name": "ismcts", "iterations": 500}``;
    its ``"seed"``, if any, wins over ``seed``) or an object with ``act`` (returned as is).
    """
    if hasattr(spec, "act"):
        return spec
    params: dict[str, Any] = {}
    if isinstance(spec, Mapping):
        params = {k: v for k, v in spec.items() if k != "name"}
        seed = params.pop("seed", seed)
        spec = spec.get("name")
    if spec == "random":
        return RandomBot(seed=seed, **params)
    factory = _named(game).get(spec) if isinstance(spec, str) else None
    if factory is None:
        raise ValueError(f"unknown bot {spec!r} for {game}; available: {', '.join(bot_names(game))}")
    bot = factory(seed=seed, **params)
    rollout = getattr(bot, "rollout", None)
    if isinstance(bot, ISMCTSBot) and rollout is not None:
        # Checked here, where the game is known, rather than at the bot's first decision.
        playable = [b for b in bot_names(game) if b != "ismcts"]  # a rollout cannot search
        if rollout not in playable:
            raise ValueError(f"rollout={rollout!r} is not a bot of {game} that can play rollouts; "
                             f"choose from: {', '.join(playable)}")
    return bot


__all__ = ["Bot", "ISMCTSBot", "RandomBot", "SearchInfo", "ask", "bot_names", "make_bot", "world_sampler"]
