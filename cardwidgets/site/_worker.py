"""The Python half of a static site's page, run by Pyodide in the page's Web Worker.

``worker.js`` calls :func:`start` once with the page (``"play"`` or ``"lesson"``), the
link's query string and a function ``post(kind, json_text)`` that hands a message to the
page; then :func:`handle` for each message of the page. The table is the same model as
a notebook's table (:mod:`cardwidgets.table`); this module is only its transport:

* to the page: ``ready`` (the game, a title and every synced value: the first paint),
  ``changes`` (the values one step changed), ``answered`` (a message has been handled,
  as a kernel going idle), ``problem`` (the link is wrong: ``param`` names the parameter);
* from the page: ``msg`` (the table's own messages: ``{"type": "act", ...}``) and ``state``
  (a write of a value, which the model refuses).

Timers (the bots' pace, a lesson's replies) run on Pyodide's web loop (``setTimeout``).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Callable

from .query import QueryError, lesson_id, table_arguments

Post = Callable[[str, str], None]

_table: Any = None
_post: Post | None = None


def _send(kind: str, **data: Any) -> None:
    assert _post is not None
    _post(kind, json.dumps(data, ensure_ascii=False))


def _param(message: str, names: list[str]) -> str:
    """The parameter a table's ``ValueError`` is about (its messages start ``players=5 ...``,
    ``no seat 4 ...``): for the page to name it."""
    head = re.match(r"\s*([a-z_]+)(?:\[\d+\])?=", message)
    if head and head.group(1) in names:
        return head.group(1)
    for word, param in (("hotseat", "hotseat"), ("hot-seat", "hotseat"), ("bot", "bots"), ("seat", "seat"),
                        ("name", "names"), ("mode", "mode"), ("player", "players")):
        if word in message:
            return param
    return "query"


def open_table(page: str, query: str) -> tuple[Any, dict[str, Any]]:
    """The table model a page's link asks for, and what the page shows about it; a
    :class:`QueryError` naming the parameter when the link is wrong."""
    from ..games import game_spec

    if page == "lesson":
        lesson = lesson_id(query)
        from ..lessons import load
        from ..table import lesson_model

        info = load(lesson)
        table = lesson_model(lesson)
        return table, {"game": info.game, "title": f"{info.title} — a {game_spec(info.game).title} lesson"}
    game, kw = table_arguments(query)
    from ..table import game_model

    spec = game_spec(game)
    try:
        table = game_model(game)(**kw)
    except (ValueError, TypeError) as e:
        names = ["players", "mode", "seed", "names", *(o.name for o in spec.options)]
        raise QueryError(_param(str(e), names), str(e)) from None
    players = table.state.players
    who = ("hot seat" if kw.get("hotseat") else "teacher view" if table.seat is None
           else f"{table.state.seat_label(table.seat)}'s seat")
    return table, {"game": game, "title": spec.title,
                   "about": f"{players} player{'s' * (players != 1)}, {who}"}


def compiled(root: str) -> bytes:
    """Every module under ``root`` compiled, as a zip of its ``__pycache__`` files: the worker
    keeps it in the browser beside the memory snapshot, so a later visit imports the package
    without compiling it again. Unchecked hash-based files: the zip belongs to one build."""
    import compileall
    import io
    import os
    import py_compile
    import zipfile

    compileall.compile_dir(root, quiet=2, workers=1,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for folder, _dirs, files in os.walk(root):
            if os.path.basename(folder) == "__pycache__":
                for name in files:
                    path = os.path.join(folder, name)
                    z.write(path, os.path.relpath(path, root))
    return buf.getvalue()


def start(page: str, query: str, post: Post) -> None:
    """Make the page's table and send its first paint (or the link's problem) to the page."""
    global _table, _post
    _post = post
    try:
        table, info = open_table(page, query)
    except QueryError as e:
        _send("problem", param=e.param, message=f"This link cannot be played: {e.param}: {e.message}")
        return
    except Exception as e:  # a bug, not the link: said in one line, never a traceback
        _send("problem", param=None, message=f"The table could not start: {type(e).__name__}: {e}")
        return
    table.event_loop = asyncio.get_event_loop()  # Pyodide's web loop: call_later is setTimeout
    table.on_sync(lambda values: _send("changes", values=values))
    _table = table
    _send("ready", values=table.synced_state(), **info)


def handle(text: str) -> None:
    """One message of the page (JSON text): the table's own message, or a refused write."""
    m = json.loads(text)
    if _table is None:
        return
    if m.get("kind") == "msg":
        _table.handle_message(m.get("content"))
        _send("answered", seq=m.get("seq"))
    elif m.get("kind") == "state":
        names = _table.refuse_write(m.get("values"))
        _send("changes", values={n: getattr(_table, n) for n in (*names, "last_error")})
