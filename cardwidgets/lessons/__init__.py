"""Guided lessons: a start position, then steps that tell the student what to do and why.

Lessons are data files shipped in this package (``<game>/<name>.json``); a lesson's
id is ``"<game>/<name>"``::

    >>> from cardwidgets import lessons
    >>> "cirno_neu/the-running-sum" in lessons.available("cirno_neu")
    True
    >>> run = lessons.load("cirno_neu/the-running-sum").start()
    >>> run.attempt("play 10")
    Feedback(ok=False, text='10 would make the sum 100 (over 99) while you hold a safe card (5, PASS) — rule N4.3.', rule='N4.3')
    >>> run.attempt("play 5").ok, run.progress
    (True, (1, 2))

A run is headless (it wraps a :class:`~cardwidgets.Timeline`): ``run.attempt(action)``
answers with a :class:`Feedback` (``ok``, ``text``, ``rule``). A wrong move changes
nothing and is explained: an illegal one by the engine's refusal (its rule), a legal
but unintended one by the lesson's own words. A right move is played, then the
moves the lesson scripts for the other seats, and the run moves to the next step.
``cardwidgets.lesson(id)`` shows the same run on a table with a lesson panel.

File format (JSON)::

    {"title": "Sets and runs", "rules": ["D4.1", "D4.2"],
     "intro": "What the lesson teaches, before the first step.",
     "position": "depot/1 players=3 ...",   # the start, as position text
     "seed": 1,                             # deals the position's unknown parts
     "seat": 0,                             # the student's seat (its view is shown)
     "steps": [
       {"say": "What to tell the student.",
        "accept": ["play 5 5"],             # the accepted action(s) ...
        "check": "pass",                    # ... or a named check (see CHECKS)
        "hint": "A nudge, shown on request.",
        "other": "What to say for another legal move.",
        "replies": {"play 5": "Words for one particular legal move."},
        "rule": "D4.2",                     # the rule the step practises
        "done": "What to say once it is played.",
        "then": ["play 6 6", "pass"]}],     # moves played for the other seats afterwards
     "outro": "What the student learned."}

A step gives ``accept``, ``check`` or both (then a move must satisfy either).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Mapping

from ..core import IllegalActionError, InvalidActionError, State, Timeline
from ..core.errors import show
from ..core.events import Event
from ..core.position import PositionError, from_position
from ..core.timeline import MAIN

__all__ = ["CHECKS", "Feedback", "Lesson", "LessonError", "LessonRun", "Step", "available", "load"]


class LessonError(ValueError):
    """A lesson file that is malformed, or whose scripted moves do not play."""


# --------------------------------------------------------------------------- named checks
#: A named check: ``(before, action, events) -> bool``, where ``before`` is the position
#: the move was made in and ``events`` what it caused (as the teacher sees them).
Check = Callable[[State, Any, list[Event]], bool]


def _event_check(kind: str) -> Check:
    return lambda before, action, events: any(e.kind == kind for e in events)


def _kind_check(kind: str) -> Check:
    return lambda before, action, events: getattr(action, "kind", None) == kind


#: Named checks a step may use instead of (or besides) listing the accepted moves.
#: ``"any"`` accepts every legal move; ``"kind:<k>"`` a move of action kind ``k``
#: (``"kind:pass"``); ``"event:<e>"`` a move that causes an event of kind ``e``
#: (``"event:round_end"``).
CHECKS: dict[str, Check] = {"any": lambda before, action, events: True}


def _check(name: str) -> Check:
    if name in CHECKS:
        return CHECKS[name]
    prefix, _, arg = name.partition(":")
    if arg and prefix == "kind":
        return _kind_check(arg)
    if arg and prefix == "event":
        return _event_check(arg)
    raise LessonError(f"unknown check {show(name)}; checks: any, kind:<action kind>, event:<event kind>, "
                      + ", ".join(sorted(set(CHECKS) - {"any"})))


# --------------------------------------------------------------------------- data
@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module docs for each field)."""

    say: str
    accept: tuple[str, ...] = ()
    check: str | None = None
    hint: str = ""
    other: str = ""
    replies: Mapping[str, str] = field(default_factory=dict)
    rule: str | None = None
    done: str = ""
    then: tuple[str, ...] = ()

    def accepts(self, before: State, action: Any, events: list[Event]) -> bool:
        if str(action) in self.accept:
            return True
        return self.check is not None and _check(self.check)(before, action, events)


@dataclass(frozen=True)
class Lesson:
    """A guided lesson: ``id``, ``game``, ``title``, the ``rules`` it teaches and its ``steps``."""

    id: str
    game: str
    title: str
    rules: tuple[str, ...]
    position: str
    steps: tuple[Step, ...]
    seed: int = 0
    seat: int | None = 0
    intro: str = ""
    outro: str = ""

    def start(self) -> "LessonRun":
        """A new headless run of this lesson, at its first step."""
        return LessonRun(self)

    def solution(self) -> list[str]:
        """One accepted move per step, for tests and demos: the first one a step lists, or
        for a step with only a check the first legal move the check accepts."""
        run = self.start()
        moves = []
        for step in self.steps:
            options = list(step.accept) or [str(a) for a in run.state.legal_actions()]
            move = next((m for m in options if run.attempt(m).ok), None)
            if move is None:
                raise LessonError(f"{self.id}: no move completes step {run.index}")
            moves.append(move)
        return moves

    @classmethod
    def from_dict(cls, lesson_id: str, data: Mapping[str, Any]) -> "Lesson":
        """A lesson from its file's data (``LessonError`` naming what is wrong)."""
        if not isinstance(data, Mapping):
            raise LessonError(f"{lesson_id}: a lesson is a JSON object")
        known = {"title", "rules", "intro", "position", "seed", "seat", "steps", "outro"}
        extra = sorted(set(data) - known)
        if extra:
            raise LessonError(f"{lesson_id}: unknown key {extra[0]!r}")
        try:
            game = str(data["position"]).split("/", 1)[0]
            parse = _parser(game)
            steps = tuple(_step(i, s, parse) for i, s in enumerate(data["steps"]))
            lesson = cls(lesson_id, game, _text(data["title"]), tuple(_texts(data.get("rules", []))),
                         _text(data["position"]), steps, _int(data.get("seed", 0)),
                         data.get("seat", 0), _text(data.get("intro", "")), _text(data.get("outro", "")))
        except KeyError as e:
            raise LessonError(f"{lesson_id}: missing key {e}") from None
        except (TypeError, ValueError) as e:
            raise LessonError(f"{lesson_id}: {e}") from None
        if not steps:
            raise LessonError(f"{lesson_id}: a lesson has at least one step")
        return lesson


def _text(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"expected text, got {show(v)}")
    return v


def _texts(v: Any) -> list[str]:
    if not isinstance(v, list):
        raise TypeError(f"expected a list of texts, got {show(v)}")
    return [_text(x) for x in v]


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected an int, got {show(v)}")
    return v


def _parser(game: str) -> Callable[[str], str]:
    """Action text -> its canonical notation in ``game`` (so a lesson may write ``pass`` or ``PASS``)."""
    from ..core.registry import available_games, game_module

    if game not in available_games():
        raise ValueError(f"the position names no known game: {show(game)}")
    parse = game_module(game).parse_action

    def canonical(text: str) -> str:
        try:
            return str(parse(_text(text)))
        except InvalidActionError as e:
            raise ValueError(f"{show(text)} is not an action: {e}") from None

    return canonical


def _step(i: int, s: Any, canonical: Callable[[str], str]) -> Step:
    if not isinstance(s, Mapping):
        raise TypeError(f"step {i} is not an object")
    known = {"say", "accept", "check", "hint", "other", "replies", "rule", "done", "then"}
    extra = sorted(set(s) - known)
    if extra:
        raise ValueError(f"step {i}: unknown key {extra[0]!r}")
    accept = tuple(canonical(t) for t in _texts(s.get("accept", [])))
    check = s.get("check")
    if check is not None:
        _check(_text(check))
    if not accept and check is None:
        raise ValueError(f"step {i}: give 'accept' or 'check'")
    replies = s.get("replies", {})
    if not isinstance(replies, Mapping) or not all(isinstance(k, str) and isinstance(v, str)
                                                   for k, v in replies.items()):
        raise TypeError(f"step {i}: 'replies' maps moves to texts")
    rule = s.get("rule")
    replies = {canonical(k): v for k, v in replies.items()}
    return Step(_text(s["say"]), accept, check, _text(s.get("hint", "")), _text(s.get("other", "")),
                replies, None if rule is None else _text(rule), _text(s.get("done", "")),
                tuple(_texts(s.get("then", []))))


# --------------------------------------------------------------------------- finding lessons
def _root() -> Any:
    return resources.files(__name__)


def available(game: str | None = None) -> list[str]:
    """Ids of the lessons shipped with the library (of one game, or all), in teaching order.

    Each game's lessons are listed in its ``<game>/index.json``.
    """
    out = []
    for folder in sorted(_root().iterdir(), key=lambda p: p.name):
        if not folder.is_dir() or folder.name.startswith(("_", ".")) or (game and folder.name != game):
            continue
        index = folder.joinpath("index.json")
        if index.is_file():
            out += [f"{folder.name}/{name}" for name in json.loads(index.read_text(encoding="utf-8"))]
    if game is not None and not out:
        from ..games import available_games

        if game not in available_games():
            raise ValueError(f"unknown game {game!r}; available games: {', '.join(available_games())}")
    return out


def load(lesson_id: str) -> Lesson:
    """The lesson ``"<game>/<name>"`` (``LookupError`` listing the lessons if there is none)."""
    if not isinstance(lesson_id, str) or lesson_id not in available():
        raise LookupError(f"no lesson {show(lesson_id)}; lessons: {', '.join(available())}")
    game, name = lesson_id.split("/", 1)
    text = _root().joinpath(game, f"{name}.json").read_text(encoding="utf-8")
    return Lesson.from_dict(lesson_id, json.loads(text))


# --------------------------------------------------------------------------- running
@dataclass(frozen=True)
class Feedback:
    """What the lesson says to an attempt: ``ok`` (played), ``text``, ``rule`` (or ``None``)."""

    ok: bool
    text: str
    rule: str | None = None

    def __str__(self) -> str:
        return self.text


class LessonRun:
    """One student's way through a lesson (headless). See the module docs."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        try:
            start = from_position(lesson.position, lesson.seed)
        except PositionError as e:
            raise LessonError(f"{lesson.id}: the start position does not read: {e}") from None
        self.timeline = Timeline(start)
        self.index = 0
        self.feedback: Feedback | None = None
        self._replies: list[str] = []  # the step just played: its scripted replies still to come
        self._check_seat()

    # ------------------------------------------------------------------ reading
    @property
    def step(self) -> Step | None:
        """The step the student is on (``None`` when the lesson is done)."""
        return None if self.done else self.lesson.steps[self.index]

    @property
    def done(self) -> bool:
        return self.index >= len(self.lesson.steps)

    @property
    def prompt(self) -> str:
        """What to tell the student now."""
        if self.done:
            return self.lesson.outro or "Lesson complete."
        return self.lesson.steps[self.index].say

    @property
    def progress(self) -> tuple[int, int]:
        """``(steps done, steps in all)``."""
        return self.index, len(self.lesson.steps)

    @property
    def state(self) -> State:
        return self.timeline.state

    @property
    def seat(self) -> int | None:
        return self.lesson.seat

    def hint(self) -> str:
        """The current step's hint (or a generic one)."""
        if self.done:
            return ""
        step = self.lesson.steps[self.index]
        return step.hint or "Look at the moves the rules allow now; the step says which one it wants."

    # ------------------------------------------------------------------ acting
    def attempt(self, action: Any, *, replies: bool = True) -> Feedback:
        """Try ``action`` (object or notation) for the student's seat.

        Illegal or malformed: the engine's reason, nothing changes. Legal but not what
        the step asks: the lesson's words, nothing changes. Right: it is played with
        the step's scripted replies, and the run goes to the next step. With
        ``replies=False`` (a table that shows the replies one after another) the
        replies wait for :meth:`reply`, and the run goes on after the last one.
        """
        if self.done:
            fb = Feedback(False, "The lesson is over.", None)
        elif self.replying:
            fb = Feedback(False, "Wait for the other players' moves.", None)
        elif self.looking_back:
            fb = Feedback(False, "You are looking at an earlier position: go back to the latest move to play on.",
                          None)
        else:
            fb = self._attempt(action)
            if fb.ok and replies:
                while self.replying:
                    self.reply()
        self.feedback = fb
        return fb

    @property
    def looking_back(self) -> bool:
        """The timeline shows an earlier position than the lesson's latest (the student went
        back): the lesson goes on only from its latest move."""
        tl = self.timeline
        return tl.branch != MAIN or tl.cursor != tl.length

    @property
    def replying(self) -> bool:
        """Scripted replies of the step just played are still to come (see :meth:`reply`)."""
        return bool(self._replies)

    def reply(self) -> list[Event]:
        """Play the next scripted reply of the step just played (its events); after the last
        one the run goes to the next step."""
        queue = self._replies
        if not queue:
            raise LessonError(f"{self.lesson.id}: no scripted reply is waiting")
        if self.looking_back:
            raise ValueError("the replies follow the lesson's latest move: go back to it first "
                             "(timeline.goto(timeline.length))")
        i = len(self.lesson.steps[self.index].then) - len(queue)
        reply = queue[0]
        seat = self.lesson.seat
        if seat is not None and self.state.current_player == seat:
            raise LessonError(f"{self.lesson.id}: step {self.index} reply #{i} {reply!r} would be the "
                              f"student's move: replies are the other seats' moves")
        try:
            events = self.timeline.step(reply)
        except (IllegalActionError, InvalidActionError) as e:
            raise LessonError(f"{self.lesson.id}: step {self.index} reply #{i} {reply!r} does not play: {e}") \
                from None
        queue.pop(0)
        if not queue:
            self._next_step()
        return events

    def _attempt(self, action: Any) -> Feedback:
        step = self.lesson.steps[self.index]
        before = self.state
        seat = self.lesson.seat if self.lesson.seat is not None else before.current_player
        try:
            plan = before.plan(action, seat)
        except InvalidActionError as e:
            return Feedback(False, str(e), None)
        except IllegalActionError as e:
            return Feedback(False, f"{e.reason[:1].upper()}{e.reason[1:]} — rule {e.rule}.", e.rule)
        if len(plan) != 1:  # each step practises one move: a step's check sees one action
            return Feedback(False, "In a lesson, play one move at a time.", None)
        played = plan[0]
        events = before.clone().apply_checked(played)
        if not step.accepts(before, played, events):
            text = step.replies.get(str(played)) or step.other or \
                "That move is legal, but it is not what this step asks for: read the step again."
            return Feedback(False, text, step.rule)
        self.timeline.step(action, seat)
        self._replies = list(step.then)
        if not self._replies:
            self._next_step()
        return Feedback(True, step.done or "Right.", step.rule)

    def _next_step(self) -> None:
        self.index += 1
        if not self.done:
            self._check_seat()

    def _check_seat(self) -> None:
        seat = self.lesson.seat
        if seat is not None and self.state.current_player != seat:
            raise LessonError(f"{self.lesson.id}: at step {self.index} it is not seat {seat}'s turn "
                              f"(the scripted replies must hand the turn back)")

    def __repr__(self) -> str:
        return f"<LessonRun {self.lesson.id} step {self.index}/{len(self.lesson.steps)}>"
