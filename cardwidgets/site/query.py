"""The query string of a static site's ``play.html``: the link is the game.

``play.html?game=depot&players=3&seat=0&bots=greedy&seed=7&bot_delay=0.7&games=3`` reads
as the table ``Depot(players=3, seat=0, bots="greedy", seed=7, bot_delay=0.7, games=3)``.
The parameters are ``new_game``'s keywords (``players``, ``mode``, ``seed``, ``names`` and
the game's rules options) plus the table's ``seat``, ``hotseat``, ``bots`` and
``bot_delay``. Values are written as the command line's ``--option NAME=VALUE`` reads
them (JSON when they read as JSON, else the text), seats as ``--seat`` reads them (``0``
or ``A``). ``names`` and ``bots`` are lists separated by commas: ``bots`` is one bot name
for every seat but the viewer's, or one entry per seat (empty for a person).

Anything wrong is a :class:`QueryError` that names the parameter, so the page can say it:

>>> table_arguments("game=depot&players=9")
Traceback (most recent call last):
...
cardwidgets.site.query.QueryError: players: players=9 is not allowed in Depot; allowed values: 3, 4, 5 (rule D1.4)
>>> table_arguments("game=depot&players=3&seat=B&bots=greedy&seed=4")
('depot', {'players': 3, 'seed': 4, 'seat': 1, 'bots': 'greedy'})
"""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import parse_qsl

from ..core.spec import option_value, seat_number
from ..games import available_games, game_spec

#: The table's own parameters (the others are ``new_game``'s).
TABLE_PARAMS = ("seat", "hotseat", "bots", "bot_delay")
#: ``new_game``'s parameters that are not rules options.
GAME_PARAMS = ("game", "players", "mode", "seed", "names")
#: The slowest pace a link may ask for, in seconds between the computer's moves (as the table's
#: speed control).
MAX_BOT_DELAY = 3.0
#: Longest query read (a link is short; this is no place for a deck).
MAX_QUERY = 4_000


class QueryError(ValueError):
    """A parameter of the page's link is wrong: ``.param`` names it, the message says why."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(f"{param}: {message}")
        self.param = param
        self.message = message


def parse(query: str) -> dict[str, str]:
    """The parameters of ``query`` (``a=1&b=2``, with or without ``?``), each given once."""
    if len(query) > MAX_QUERY:
        raise QueryError("query", f"the link is longer than {MAX_QUERY:,} characters")
    out: dict[str, str] = {}
    for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if name in out:
            raise QueryError(name, "is given twice")
        out[name] = value
    return out


def _int(param: str, text: str) -> int:
    value = option_value(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise QueryError(param, f"must be a whole number, got {text[:40]!r}")
    return value


def _flag(param: str, text: str) -> bool:
    value = option_value(text.lower())
    if value not in (True, False) or isinstance(value, int) and not isinstance(value, bool):
        raise QueryError(param, f"must be true or false, got {text[:40]!r}")
    return bool(value)


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def table_arguments(query: str | dict[str, str]) -> tuple[str, dict[str, Any]]:
    """``(game, keyword arguments of its table)`` for a ``play.html`` query; :class:`QueryError`
    naming the parameter when one is wrong. Each value is checked here as far as it can be
    alone; the table checks the whole (a seat played by a bot, say) when it is made."""
    params = parse(query) if isinstance(query, str) else dict(query)
    games = available_games()
    if "game" not in params:
        raise QueryError("game", f"the link names no game; add game= one of {', '.join(games)}")
    game = params.pop("game")
    if game not in games:
        raise QueryError("game", f"no game {game[:40]!r}; the games: {', '.join(games)}")
    spec = game_spec(game)
    kw: dict[str, Any] = {}
    options: dict[str, Any] = {}
    known = {o.name for o in spec.options}
    for name, text in params.items():
        if name in ("players", "seed"):
            kw[name] = _int(name, text)
        elif name == "mode":
            kw["mode"] = text
        elif name == "names":
            kw["names"] = _list(text)
        elif name in TABLE_PARAMS:
            continue  # read below, once the player count is known
        elif name in known:
            try:
                value = option_value(text)
                spec.option(name).validate(value)
            except ValueError as e:
                raise QueryError(name, str(e)) from None
            options[name] = value
        else:
            raise QueryError(name, f"{spec.title} has no parameter {name[:40]!r}; its rules options: "
                                   f"{', '.join(sorted(known)) or 'none'}; and players, mode, seed, names, "
                                   f"seat, hotseat, bots, bot_delay")
    try:
        mode = spec.mode(kw.get("mode")).name
    except ValueError as e:
        raise QueryError("mode", str(e)) from None
    players = kw.get("players", spec.mode(mode).players[0])
    try:
        spec.check_players(players, spec.mode(mode))
    except ValueError as e:
        raise QueryError("players", str(e)) from None
    kw.update(options)
    if "names" in kw and len(kw["names"]) != players:
        raise QueryError("names", f"give one name per seat ({players}), separated by commas")
    hotseat = _flag("hotseat", params["hotseat"]) if "hotseat" in params else False
    if hotseat:
        kw["hotseat"] = True
    if "seat" in params:
        text = params["seat"]
        if text.strip().lower() in ("", "teacher", "none"):
            seat = None
        else:
            try:
                seat = seat_number(text, players)
            except ValueError as e:
                raise QueryError("seat", f"no seat {text[:20]!r}: {e}") from None
        if seat is not None and hotseat:
            raise QueryError("seat", "a hot-seat table shows the seat to act: give no seat with hotseat=true")
        if seat is not None:
            kw["seat"] = seat
    if "bots" in params:
        kw["bots"] = _bots(game, params["bots"], players, kw.get("seat"), hotseat)
    if "bot_delay" in params:
        text = params["bot_delay"]
        value = option_value(text)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 <= value <= MAX_BOT_DELAY:
            raise QueryError("bot_delay", f"must be a number of seconds from 0 to {MAX_BOT_DELAY:g}, got {text[:40]!r}")
        kw["bot_delay"] = float(value)
    return game, kw


def _bots(game: str, text: str, players: int, seat: int | None, hotseat: bool) -> Any:
    """``bots=``: one name for every seat but the viewer's, or one entry per seat (empty: a person)."""
    from ..bots import bot_names

    names = bot_names(game)
    entries = _list(text)
    for name in entries:
        if name and name not in names:
            raise QueryError("bots", f"no bot {name[:40]!r} for this game; its bots: {', '.join(names)}")
    if len(entries) == 1 and not hotseat:
        return entries[0] or None
    if len(entries) != players:
        raise QueryError("bots", f"give one bot name for every seat, or one entry per seat ({players}, "
                                 f"empty for a person), separated by commas")
    bots = {s: name for s, name in enumerate(entries) if name}
    if seat is not None and seat in bots:
        raise QueryError("seat", f"seat {seat} is played by the computer ({bots[seat]}): choose a person's seat")
    return bots or None


def lesson_id(query: str | dict[str, str]) -> str:
    """The lesson of a ``lesson.html`` query (``id=depot/sets-and-runs``); :class:`QueryError`
    when it names no lesson the library has."""
    from .. import lessons

    params = parse(query) if isinstance(query, str) else dict(query)
    extra = sorted(set(params) - {"id"})
    if extra:
        raise QueryError(extra[0], "a lesson's link has one parameter, id")
    if "id" not in params:
        raise QueryError("id", "the link names no lesson; add id=, such as id=depot/sets-and-runs")
    known = lessons.available()
    if params["id"] not in known:
        raise QueryError("id", f"no lesson {params['id'][:60]!r}; see the lessons on the site's first page")
    return params["id"]


__all__ = ["QueryError", "lesson_id", "parse", "table_arguments"]
