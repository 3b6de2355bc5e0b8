"""The table model: a card table's logic with no Jupyter import (see :mod:`cardwidgets.table.model`).

``game_model("depot")`` is the Depot table's model class, ``lesson_model(id)`` a lesson's
table. The Jupyter tables (``cardwidgets.Depot`` ...) are these models carried over the
anywidget comm; a page carries them over its own messages (a Web Worker's, in Pyodide).
Importing this package loads neither ipywidgets, anywidget nor IPython: only traitlets
(pure Python, no dependencies, so it runs in Pyodide).
"""

from __future__ import annotations

from .lesson import LessonModel, lesson_model
from .model import TableModel, game_model
from .together import public_view

__all__ = ["LessonModel", "TableModel", "game_model", "lesson_model", "public_view"]
