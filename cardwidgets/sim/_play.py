"""Playing simulated games: the part that runs in worker processes (standard library only).

A worker imports this module and the game's engine, nothing else: no pandas, so a
new worker process starts fast.

>>> game_seed(1, 0) == game_seed(1, 0) != game_seed(2, 0)
True
>>> rows = play_chunk("depot", {"players": 3}, ["greedy", "random", "random"], 1, [0, 1])
>>> [r[0] for r in rows], rows[0][1] == game_seed(1, 0)
([0, 1], True)
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any, Mapping, Sequence

from ..bots import ask, make_bot
from ..games import game_module

#: One row per game, in this order (the games table adds the run's constant columns).
ROW = ("game_index", "seed", "starter", "winners", "scores", "length", "termination", "reason")


def _hash63(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (a 63-bit int).

    Hashed rather than ``seed + index``, so that runs with nearby seeds share no games.
    """
    return _hash63(f"cardwidgets.sim/{seed}/{index}")


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game seeded with ``game_seed``."""
    return _hash63(f"cardwidgets.sim/{game_seed}/bot/{seat}")


def bot_specs(bots: Any, players: int) -> list[Any]:
    """One bot spec (a name, a mapping with a ``"name"`` and the bot's parameters, or an
    object with ``act``) per seat.

    ``bots`` is one spec for every seat, a sequence with one per seat, or a mapping
    seat -> spec (seats it leaves out play ``"random"``).
    """
    # A mapping with a "name" is one bot with its parameters, as make_bot takes it
    # ({"name": "ismcts", "iterations": 50}); seats are ints, so no seat mapping has that key.
    if isinstance(bots, str) or hasattr(bots, "act") or (isinstance(bots, Mapping) and "name" in bots):
        return [bots] * players
    if isinstance(bots, Mapping):
        extra = [s for s in bots if not (isinstance(s, int) and 0 <= s < players)]
        if extra:
            raise ValueError(f"bots: no seat {extra[0]!r} in a {players}-player game (seats 0-{players - 1})")
        return [bots.get(s, "random") for s in range(players)]
    if isinstance(bots, Sequence):
        specs = list(bots)
        if len(specs) != players:
            raise ValueError(f"bots: expected {players} entries (one per seat), got {len(specs)}")
        return specs
    raise TypeError(f"bots must be a name, a list of names or a mapping seat -> name, got {type(bots).__name__}")


def bot_label(spec: Any) -> str:
    """The name a table of results shows for a bot spec (a mapping: its ``"name"``)."""
    if isinstance(spec, Mapping):
        return str(spec.get("name"))
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))


def _bot(game: str, spec: Any, seed: int) -> Any:
    # An object is copied for every game, so that a game never depends on the games
    # played before it in the same process: the rows stay the same whatever the workers.
    return copy.deepcopy(spec) if hasattr(spec, "act") else make_bot(game, spec, seed=seed)


def play_game(game: str, kwargs: Mapping[str, Any], specs: Sequence[Any], seed: int) -> tuple[Any, int | None]:
    """Play one game with bots seeded from ``seed``; return the final state and the seat
    that acted first (``None`` if nobody acted)."""
    st = game_module(game).new_game(seed=seed, **kwargs)
    starter = st.current_player
    bots = [_bot(game, spec, bot_seed(seed, s)) for s, spec in enumerate(specs)]
    while not st.is_terminal:
        st.apply_unchecked(ask(bots[st.current_player], st))
    return st, starter


def play_chunk(game: str, kwargs: Mapping[str, Any], specs: Sequence[Any], run_seed: int,
               indexes: Sequence[int]) -> list[tuple]:
    """Play games ``indexes`` of a run; one plain tuple (see :data:`ROW`) per game."""
    rows = []
    for i in indexes:
        seed = game_seed(run_seed, i)
        st, starter = play_game(game, kwargs, specs, seed)
        out = st.outcome()
        rows.append((i, seed, starter, tuple(out.winners), tuple(out.scores), st.move_count,
                     out.termination.value, out.reason))
    return rows
