"""Lessons on a Jupyter table: the lesson model (``cardwidgets.table.lesson``) on the anywidget comm."""

from __future__ import annotations

from typing import Any

from ..lessons import Lesson
from ..table.lesson import LessonModel, check_lesson
from ._base import TableWidget


class LessonMode(LessonModel, TableWidget):
    """The lesson mode of a game's table (see ``cardwidgets.table.lesson``); made by :func:`lesson_table`."""


_classes: dict[str, type[LessonMode]] = {}


def lesson_table(lesson: str | Lesson, **kwargs: Any) -> LessonMode:
    """The table of a lesson (an id such as ``"depot/sets-and-runs"``, or a :class:`Lesson`) in
    lesson mode. ``bot_delay`` (the pause between scripted replies) and ``animations`` as on
    every table."""
    from . import game_table

    lesson = check_lesson(lesson, kwargs)
    cls = _classes.get(lesson.game)
    if cls is None:
        base = game_table(lesson.game)
        cls = _classes[lesson.game] = type(f"{base.__name__}Lesson", (LessonMode, base), {
            "__module__": "cardwidgets.widgets", "__qualname__": f"{base.__name__}Lesson",
            "__doc__": f"A {base.__name__} table in lesson mode (see ``cardwidgets.lesson``)."})
    return cls(lesson, **kwargs)
