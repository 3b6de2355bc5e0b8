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
import math
from typing import Any, Mapping, Sequence

from ..bots import ask, make_bot
from ..core import IllegalActionError, InvalidActionError
from ..core.errors import quote, show
from ..games import game_module

#: One row per game, in this order (the games table adds the run's constant columns).
ROW = ("game_index", "seed", "starter", "winners", "scores", "length", "termination", "reason")
#: What ``simulate(on_illegal=...)`` does with a bot's refused move: stop the run, or end that game.
ON_ILLEGAL = ("raise", "forfeit")


class BotMoveError(ValueError):
    """A bot object chose a move the rules refuse: the game it was played in stops there.

    ``seat``, ``bot`` (its name), ``move`` (what it returned), ``rule`` (the rule ID that
    refuses it; ``None`` for something that is not a move of the game at all), ``seed``
    (the game's seed) and ``state`` (the position it was asked in; not sent between processes).
    """

    def __init__(self, message: str, *, seat: int, bot: str, move: str, rule: str | None, seed: int | None = None,
                 state: Any = None) -> None:
        super().__init__(message)
        self.seat, self.bot, self.move, self.rule, self.seed, self.state = seat, bot, move, rule, seed, state
        self.starter: int | None = None  # the seat that acted first in that game (set by play_game)

    def __reduce__(self) -> tuple:
        # Raised in a worker process and raised again here: keep the fields, drop the state.
        return (_rebuild_error, (str(self), self.seat, self.bot, self.move, self.rule, self.seed))


def _rebuild_error(message: str, seat: int, bot: str, move: str, rule: str | None, seed: int | None) -> BotMoveError:
    return BotMoveError(message, seat=seat, bot=bot, move=move, rule=rule, seed=seed)


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
    that acted first (``None`` if nobody acted).

    A bot object's move is checked as a table checks it (text notation is parsed); a
    refused one raises :class:`BotMoveError`. The named bots choose from the legal list,
    so their moves take the fast path unchecked.
    """
    st = game_module(game).new_game(seed=seed, **kwargs)
    starter = st.current_player
    bots = [_bot(game, spec, bot_seed(seed, s)) for s, spec in enumerate(specs)]
    checked = [hasattr(spec, "act") for spec in specs]
    while not st.is_terminal:
        seat = st.current_player
        if checked[seat]:
            try:
                actions = _checked_move(st, seat, bots[seat], seed)
            except BotMoveError as e:
                e.starter = starter
                raise
            for action in actions:
                st.apply_unchecked(action)
        else:
            st.apply_unchecked(ask(bots[seat], st))
    return st, starter


def _checked_move(st: Any, seat: int, bot: Any, seed: int) -> list[Any]:
    """The checked actions a bot object's move stands for, or :class:`BotMoveError`."""
    legal = st.legal_actions()
    move = ask(bot, st, legal)
    # The legal list's own object, never the bot's: an object that only claims to be equal
    # to a move must not reach the unchecked apply.
    for action in legal:
        if type(action) is type(move) and action == move:
            return [action]
    try:
        return st.plan(move, seat)
    except IllegalActionError as e:
        rule, reason = e.rule, f"rule {e.rule}: {e.reason}"
    except InvalidActionError as e:
        rule, reason = None, str(e)
    except Exception as e:  # a malformed action object (a card that does not exist ...) fails anywhere
        rule, reason = None, f"not a well-formed {st.game} action ({type(e).__name__}: {e})"
    name = bot_label(bot)
    text, written = _notation(move, st)
    raise BotMoveError(f"bot {name!r} at seat {st.seat_label(seat)} chose {quote(text, 60) if written else text} "
                       f"in the game seeded {seed}, move {st.move_count + 1}; refused: {reason}",
                       seat=seat, bot=name, move=text, rule=rule, seed=seed, state=st)


def _notation(move: Any, st: Any) -> tuple[str, bool]:
    """A bot's move as text for an error, and whether it is notation (else a short repr):
    never huge, never raising."""
    if isinstance(move, str):
        return move[:200], True
    if isinstance(move, st.action_types):
        try:
            return str(move)[:200], True
        except Exception:  # a malformed action object may not even print
            pass
    return show(move), False


def play_chunk(game: str, kwargs: Mapping[str, Any], specs: Sequence[Any], run_seed: int,
               indexes: Sequence[int], on_illegal: str = "raise") -> list[tuple]:
    """Play games ``indexes`` of a run; one plain tuple (see :data:`ROW`) per game.

    ``on_illegal="forfeit"`` records a game whose bot chose a refused move as a forfeit:
    won by nobody, no scores (NaN), termination ``"forfeit"``, the error's text as its reason.
    """
    rows = []
    for i in indexes:
        seed = game_seed(run_seed, i)
        try:
            st, starter = play_game(game, kwargs, specs, seed)
        except BotMoveError as e:
            if on_illegal != "forfeit":
                raise
            st = e.state
            rows.append((i, seed, e.starter, (), (math.nan,) * st.players, st.move_count, "forfeit", str(e)))
            continue
        out = st.outcome()
        rows.append((i, seed, starter, tuple(out.winners), tuple(out.scores), st.move_count,
                     out.termination.value, out.reason))
    return rows
