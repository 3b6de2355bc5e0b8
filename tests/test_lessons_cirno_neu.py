"""cirno+neu lessons: what their words claim is what the engine does.

``tests/test_lessons.py`` checks every lesson's mechanics along its first solution.
Here: every accepted move (not only the first) plays through, the texts cite rules
that exist, and each lesson's story -- who busts with which hand, whose turn it is,
who deals, the chips, the winner -- matches the engine.
"""

from __future__ import annotations


import pytest

from cardwidgets import lessons
from cardwidgets.lessons import LessonRun
from kit import lesson_after

IDS = lessons.available("cirno_neu")


def test_teaching_order():
    assert IDS == ["cirno_neu/" + n for n in ("the-running-sum", "minus-cards-and-99", "pass-and-turn",
                                             "shot", "double", "busting", "life-system")]


def _busts(run: LessonRun) -> list[tuple[int, tuple[str, ...]]]:
    tl = run.timeline
    return [(e.data["seat"], tuple(e.data["hand"])) for n in range(1, tl.cursor + 1)
            for e in tl.events(n) if e.kind == "bust"]


#: Per lesson: the step after which to look, and what the lesson's words say is true then.
#: ``busts``: (seat, hand shown) of every bust so far; ``turn``: the view's turn fields;
#: ``view``: other view fields; ``winner``: the match's winner.
STORY = {
    "cirno_neu/the-running-sum": [(2, {"busts": [(1, ("2", "3", "9"))], "view": {"round": 2, "dealer": 2}})],
    "cirno_neu/minus-cards-and-99": [
        (1, {"view": {"sum": 99}, "hand": ["4", "-1", "-10"]}),
        (2, {"view": {"sum": 98}, "hand": ["4", "-10", "99"]}),
        (3, {"busts": [(1, ("5", "6", "8"))]})],
    "cirno_neu/pass-and-turn": [
        (1, {"view": {"sum": 96, "clockwise": True}}),
        (2, {"view": {"sum": 89, "clockwise": False}}),
        (3, {"view": {"sum": 99, "clockwise": True}}),
        (4, {"busts": [(3, ("8", "10", "50"))], "view": {"dealer": 0}})],
    "cirno_neu/shot": [
        (1, {"turn": {"kind": "shot", "anchor": 2}, "view": {"sum": 89}}),
        (2, {"turn": {"kind": "normal", "anchor": 0}, "view": {"sum": 99}}),
        (3, {"busts": [(1, ("6", "7", "10"))]})],
    "cirno_neu/double": [
        (1, {"turn": {"required": 2}, "view": {"sum": 90}, "hand": ["4", "5", "9"]}),
        (3, {"turn": {"required": 1}, "view": {"sum": 89}, "hand": ["3", "9", "DSHOT"]}),
        (4, {"busts": [(2, ("7", "8", "10"))]})],
    "cirno_neu/busting": [
        (1, {"busts": [(1, ("6", "10"))], "view": {"round": 2, "dealer": 2, "sum": 0, "eliminated": [1]},
             "hand": ["50", "99", "DSHOT"]}),
        (2, {"view": {"sum": 50}, "hand": ["2", "99", "DSHOT"]}),
        (3, {"busts": [(1, ("6", "10")), (2, ("5", "8", "10"))], "winner": 0})],
    "cirno_neu/life-system": [
        (0, {"view": {"chips": [2, 1, 1]}}),
        (1, {"busts": [(0, ("2", "6", "8"))], "view": {"round": 4, "dealer": 0, "chips": [1, 1, 1]}}),
        (2, {"view": {"round": 5, "dealer": 2, "chips": [1, 0, 1], "sum": 50}}),
        (3, {"busts": [(0, ("2", "6", "8")), (1, ("8", "10", "10")), (2, ("3", "8", "10"))],
             "view": {"chips": [1, 0, 0]}, "winner": 0})],
}


def test_every_lesson_has_its_story():
    assert sorted(STORY) == sorted(IDS)


@pytest.mark.parametrize("lesson_id", IDS)
def test_the_story_matches_the_engine(lesson_id):
    lesson = lessons.load(lesson_id)
    solution = lesson.solution()
    for after, facts in STORY[lesson_id]:
        run = lesson_after(lesson, solution[:after])
        view = run.state.view(lesson.seat)
        where = f"{lesson_id} after step {after}"
        if "busts" in facts:
            assert _busts(run) == facts["busts"], where
        for key, value in facts.get("view", {}).items():
            assert view[key] == value, f"{where}: {key}"
        for key, value in facts.get("turn", {}).items():
            assert view["turn"][key] == value, f"{where}: turn {key}"
        if "hand" in facts:
            assert sorted(view["hands"][lesson.seat]) == sorted(facts["hand"]), where
        if "winner" in facts:
            assert run.state.outcome().winners == (facts["winner"],), where
        else:
            assert not run.state.is_terminal, where
        if after < len(lesson.steps):
            assert run.state.current_player == lesson.seat, where
