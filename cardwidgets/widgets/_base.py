"""The Jupyter transport of the table model: a :class:`~cardwidgets.table.TableModel` on the anywidget comm.

Everything a table does lives in the model (``cardwidgets.table``). This module only
carries it over the comm: the comm's custom messages go to ``handle_message``, a state
update from the browser to ``refuse_write`` (and the values it named are sent back),
the model's ``batch()`` is the widget's ``hold_sync()`` (one message per step), and
ipywidgets syncs every trait tagged ``sync=True`` itself.
"""

from __future__ import annotations

import pathlib
import sys
import types
from contextlib import AbstractContextManager
from typing import Any

import anywidget

from ..games import game_spec
from ..table import model as _model
from ..table.model import TableModel, table_doc

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"

#: The table's limits, read from the model (``cardwidgets.table.model``): setting one here sets it there.
_LIMITS = ("LOG_ALL", "LOG_TAIL", "MAX_MESSAGE", "MAX_ERROR", "MAX_LINES", "MAX_BOT_DELAY", "MIN_REPLAY_SPEED",
           "MAX_REPLAY_SPEED", "DEFAULT_REPLAY_SPEED", "UNDER_CURTAIN")
globals().update({name: getattr(_model, name) for name in _LIMITS})


def bundle(game: str, ext: str) -> pathlib.Path:
    """Path of a built front-end file; a clear error if the JS was never built."""
    path = STATIC / f"{game}.{ext}"
    if not path.exists():
        raise ImportError(
            f"the cardwidgets front end is not built ({path.name} is missing); "
            "install the package with `pip install -e .` (it runs the npm build) "
            "or run `npm install && npm run build` in js/"
        )
    return path


class TableWidget(TableModel, anywidget.AnyWidget):
    """A live card table for one game. ``table_class(game)`` makes one per registered game."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_msg(self._on_msg)

    def batch(self) -> AbstractContextManager[Any]:
        """One comm message for the changes made inside (ipywidgets' ``hold_sync``)."""
        return self.hold_sync()

    def set_state(self, sync_data: Any) -> None:
        """Refuse a state update from the browser: it may only send messages."""
        keys = self.refuse_write(sync_data)
        if keys:
            try:
                self.send_state(keys)  # put the browser's copy back
            except Exception:  # never raise into the comm
                self.last_error = "Refused: the browser cannot change the table's state."

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(content)

    def _live(self) -> bool:
        return self.comm is not None


def table_class(game: str) -> type[TableWidget]:
    """The table widget class of a registered game (its model on the comm, with its bundle)."""
    spec = game_spec(game)
    return type(spec.table, (TableWidget,), {
        "__module__": "cardwidgets.widgets", "__doc__": table_doc(game), "__qualname__": spec.table,
        "GAME": game, "_esm": bundle(game, "js"), "_css": bundle(game, "css"),
    })


class _Limits(types.ModuleType):
    """This module, whose limits write through to the model's (``_base.MAX_LINES = 6`` still works)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LIMITS:
            setattr(_model, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Limits
