"""Lessons on a table: a headless :class:`~cardwidgets.lessons.LessonRun` shown on its game's table.

``cardwidgets.lesson(id)`` makes one. The table is the lesson's game at the run's
position, seated at the lesson's seat, with a lesson panel (the synced ``lesson``
trait): the title, the step's prompt, a hint, the feedback of the last attempt with
its rule, the progress, and next/restart. A click on a card or a move is an attempt
(``LessonRun.attempt``): a wrong move changes nothing and the panel says why; a right
one is played, then the lesson's scripted replies one after another, as bots' moves
are. Everything synced is what the student's seat may see.
"""

from __future__ import annotations

import asyncio
from typing import Any

import traitlets

from ..lessons import Feedback, Lesson, LessonRun, available, load
from .model import MAX_MESSAGE, TableModel, _clip, _size, game_model

#: Messages only a lesson table answers.
LESSON_MESSAGES = ("hint", "restart", "next_lesson")


class LessonModel(TableModel):
    """The lesson mode of a game's table (see the module docs); made by :func:`lesson_model`
    (the widget's by ``cardwidgets.lesson``)."""

    lesson = traitlets.Dict(default_value=None, allow_none=True).tag(sync=True)
    """The lesson panel: ``{"id", "title", "intro", "rules", "prompt", "step", "steps", "done",
    "feedback" ({"ok", "text", "rule"} or None), "hint" (shown once asked for, else None),
    "waiting" (the scripted replies are being played), "next" (the next lesson's title or None)}``."""

    def __init__(self, lesson: Lesson, *, bot_delay: float = 0.7, animations: bool = True) -> None:
        run = lesson.start()
        self._run = run
        self._hint = False
        self._next: tuple[str, str] | None = _following(lesson)
        super().__init__(timeline=run.timeline, seat=run.seat, bot_delay=bot_delay, animations=animations)

    # ------------------------------------------------------------------ reading
    @property
    def run(self) -> LessonRun:
        """The headless run the table shows."""
        return self._run

    def attempt(self, action: Any) -> Feedback:
        """Try ``action`` for the student, as a click does (the scripted replies are played at once)."""
        fb = self._try(action, replies=True)
        self._sync_lesson()
        return fb

    def step(self, action: Any) -> Feedback:  # type: ignore[override]
        """On a lesson table a move is an attempt: the same as :meth:`attempt`."""
        return self.attempt(action)

    def _try(self, action: Any, replies: bool) -> Feedback:
        """An attempt at the end of the line; what the panel says to it is ``run.feedback``."""
        self._stop_playing()
        run = self._run
        fb = run.attempt(action, replies=replies)
        if fb.ok:
            self._hint = False
            with self.batch():
                self._sync(person=True)
                self._run_bots(from_browser=not replies)
        return fb

    def hint(self) -> str:
        """Show the step's hint in the panel; returns it."""
        self._hint = True
        self._sync_lesson()
        return self._run.hint()

    def restart(self) -> None:
        """Start the lesson again from its first step."""
        self._load(self._run.lesson)

    def next_lesson(self) -> bool:
        """Go on to the game's next lesson (``False`` when this is the last one)."""
        if self._next is None:
            return False
        self._load(load(self._next[0]))
        return True

    # ------------------------------------------------------------------ the panel
    def _sync(self, person: bool = False) -> None:
        with self.batch():
            super()._sync(person)
            self._sync_lesson()

    def _sync_lesson(self) -> None:
        run = getattr(self, "_run", None)
        if run is None:
            return
        lesson = run.lesson
        done, steps = run.progress
        fb = run.feedback
        self.lesson = {
            "id": lesson.id, "title": lesson.title, "intro": lesson.intro, "rules": list(lesson.rules),
            "prompt": run.prompt, "step": done, "steps": steps, "done": run.done,
            "feedback": None if fb is None else {"ok": fb.ok, "text": fb.text, "rule": fb.rule},
            "hint": run.hint() if self._hint and not run.done else None,
            "waiting": run.replying,
            "next": None if self._next is None else self._next[1],
        }

    def _load(self, lesson: Lesson) -> None:
        """Show a new run of ``lesson`` (the same game) on this table."""
        run = lesson.start()
        with self.batch():
            self._cancel_pending()
            self._stop_playing()
            self._run, self._hint, self._next = run, False, _following(lesson)
            self.timeline = run.timeline
            self._branches_key = None
            self.hold = None
            if self.seat != run.seat:
                self.seat = run.seat  # validated against the new game (its observer syncs)
            self._sync()

    # ------------------------------------------------------------------ browser messages
    def _handle(self, msg: Any) -> None:
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind not in LESSON_MESSAGES:
            super()._handle(msg)
            return
        if len(msg) > 4 or _size(msg) > MAX_MESSAGE:
            self.last_error = f"Bad message: more than {MAX_MESSAGE} characters."
            return
        self._stop_playing()
        if kind == "hint":
            self.hint()
        elif kind == "restart":
            self.restart()
        elif not self.next_lesson():
            self.last_error = "This is the last lesson of the game."

    def _act_from_browser(self, text: str) -> None:
        if self._run.replying:
            self._run.feedback = Feedback(False, "Wait for the other players' moves.")
        else:
            self._try(text, replies=False)
        self._sync_lesson()

    def _reply_tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self._pending = None
        try:
            self._run.reply()
            with self.batch():
                self._sync()
                if self._run.replying:
                    self._pending = loop.call_later(self.bot_delay, self._reply_tick, loop)
                    return
                self.thinking = False
        except Exception as e:  # a callback must never raise into the event loop
            self.thinking = False
            self.last_error = _clip(f"The lesson stopped after an error: {type(e).__name__}")

    def _run_bots(self, from_browser: bool) -> None:
        """The lesson's scripted replies take the bots' place: one per ``bot_delay`` after a click,
        at once from Python."""
        if not self._run.replying:
            super()._run_bots(from_browser)
            return
        loop = self._loop() if from_browser and self.bot_delay > 0 else None
        if loop is None:
            self._flush_replies()
        elif self._pending is None:
            self._pending = loop.call_later(self.bot_delay, self._reply_tick, loop)
            self.thinking = True

    def _skip_to_viewer(self) -> None:
        self._flush_replies()
        super()._skip_to_viewer()

    def _navigate(self, move: Any, from_browser: bool) -> None:
        # Looking back during the replies: they are played at once, so the run stays whole.
        self._flush_replies()
        super()._navigate(move, from_browser)

    def _flush_replies(self) -> None:
        if self._run.replying:
            self._cancel_pending()
            while self._run.replying:
                self._run.reply()
            self._sync()

    def __repr__(self) -> str:
        done, steps = self._run.progress
        return f"<{type(self).__name__} {self._run.lesson.id!r} step {min(done + 1, steps)} of {steps}>"


def _following(lesson: Lesson) -> tuple[str, str] | None:
    """The id and title of the game's next lesson, if there is one."""
    ids = available(lesson.game)
    at = ids.index(lesson.id) if lesson.id in ids else -1
    if not 0 <= at < len(ids) - 1:
        return None
    return ids[at + 1], load(ids[at + 1]).title


_classes: dict[str, type[LessonModel]] = {}


def check_lesson(lesson: str | Lesson, kwargs: dict[str, Any]) -> Lesson:
    """The :class:`Lesson` named (an id or a lesson), once the table's keywords are checked."""
    if isinstance(lesson, str):
        lesson = load(lesson)
    if not isinstance(lesson, Lesson):
        raise TypeError(f"a lesson is an id or a Lesson, not {type(lesson).__name__}")
    unknown = set(kwargs) - {"bot_delay", "animations"}
    if unknown:
        raise TypeError(f"a lesson table takes bot_delay and animations only, not {', '.join(sorted(unknown))}")
    return lesson


def lesson_model(lesson: str | Lesson, **kwargs: Any) -> LessonModel:
    """The table model of a lesson (an id such as ``"depot/sets-and-runs"``, or a :class:`Lesson`)
    in lesson mode. ``bot_delay`` (the pause between scripted replies) and ``animations`` as on
    every table."""
    lesson = check_lesson(lesson, kwargs)
    cls = _classes.get(lesson.game)
    if cls is None:
        base = game_model(lesson.game)
        name = base.__name__.removesuffix("Model") + "LessonModel"
        cls = _classes[lesson.game] = type(name, (LessonModel, base), {
            "__module__": __name__, "__qualname__": name,
            "__doc__": f"A {lesson.game} table model in lesson mode (see ``lesson_model``)."})
    return cls(lesson, **kwargs)
