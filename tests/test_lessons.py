"""Lessons: every shipped lesson is sound, and the runner keeps its promises.

For every lesson: its start position reads, its solution completes it, and at
every step every other legal move is answered (accepted by the step, or refused
with words and nothing changed), an illegal move is refused with the engine's rule
and changes nothing, and the scripted replies hand the turn back to the student.
"""

from __future__ import annotations

import json
import re

import pytest

from cardwidgets import available_games, lessons, rules
from cardwidgets.lessons import Feedback, Lesson, LessonError

ALL = lessons.available()

#: Lessons each game ships at least (Yadokarick: 6 standard and 3 for each other mode).
MINIMUM = {"depot": 6, "cirno_neu": 6, "crypto_trick": 6, "yadokarick": 6 + 3 * 3}


def test_every_game_has_its_lessons():
    for game in available_games():
        ids = lessons.available(game)
        assert len(ids) >= MINIMUM[game], f"{game} has {len(ids)} lessons"
        assert all(i.startswith(game + "/") for i in ids)
    assert sorted(ALL) == sorted(i for g in available_games() for i in lessons.available(g))


def test_unknown_lessons_and_games():
    with pytest.raises(LookupError, match="no lesson"):
        lessons.load("depot/no-such-lesson")
    with pytest.raises(ValueError, match="unknown game"):
        lessons.available("chess")


@pytest.mark.parametrize("lesson_id", ALL)
def test_lesson_data(lesson_id):
    """Titles, intros, hints and words for every step; every rule cited resolves; no paths."""
    lesson = lessons.load(lesson_id)
    assert lesson.id == lesson_id and lesson.game == lesson_id.split("/")[0]
    assert lesson.title and lesson.rules and lesson.intro and lesson.outro
    assert 2 <= len(lesson.steps) <= 6, f"{lesson_id}: a lesson has 2 to 6 steps"
    texts = [lesson.intro, lesson.outro]
    for step in lesson.steps:
        assert step.say and step.hint and step.done, f"{lesson_id}: every step says, hints and explains"
        texts += [step.say, step.hint, step.other, step.done, *step.replies.values()]
        if step.rule:
            rules.lookup(step.rule, game=lesson.game)
    cited = {rid for t in texts for rid in rules.cited(t, game=lesson.game)}
    assert cited, f"{lesson_id} cites no rule in its words"
    for rid in cited | set(lesson.rules):
        rules.lookup(rid, game=lesson.game)
    for t in texts:
        assert not re.search(r"(^|\s)/\w|ASM-|\bspec\b", t), f"{lesson_id}: words a student cannot use: {t}"


@pytest.mark.parametrize("lesson_id", ALL)
def test_every_accepted_move_plays_through(lesson_id, report):
    """Depth first over every accepted move of every step: each path completes the lesson."""
    lesson = lessons.load(lesson_id)
    paths = 0

    def walk(moves: list[str]) -> None:
        nonlocal paths
        run = lesson.start()
        for m in moves:
            fb = run.attempt(m)
            assert fb.ok, f"{lesson_id}: after {moves}, {m} is refused: {fb.text}"
        if run.done:
            paths += 1
            return
        step = lesson.steps[run.index]
        legal = [str(a) for a in run.state.legal_actions()]
        ok = [m for m in legal if m in step.accept] if step.check is None else \
            [m for m in legal if _accepted(lesson, moves, m)]
        assert ok, f"{lesson_id} step {run.index}: no accepted move is legal after {moves}"
        for move in ok:
            walk(moves + [move])

    walk([])
    report("lessons", lesson.game, accepted_paths=paths)


def _accepted(lesson: Lesson, moves: list[str], move: str) -> bool:
    run = lesson.start()
    for m in moves:
        run.attempt(m)
    return run.attempt(move).ok


@pytest.mark.parametrize("lesson_id", ALL)
def test_solution_completes_and_every_other_move_is_answered(lesson_id, report):
    lesson = lessons.load(lesson_id)
    run = lesson.start()
    answered = 0
    for i, step in enumerate(lesson.steps):
        assert not run.done and run.prompt == step.say and run.progress == (i, len(lesson.steps))
        assert run.hint()
        before, cursor = run.state.to_dict(), run.timeline.cursor
        for action in run.state.legal_actions():
            if str(action) in step.accept:
                continue
            fb = run.attempt(str(action))  # another legal move: answered in words ...
            assert isinstance(fb, Feedback) and fb.text
            answered += 1
            if fb.ok:  # ... or accepted by the step's check: start this step again
                run = _fresh_at(lesson, i)
            assert run.state.to_dict() == before and run.timeline.cursor == cursor, \
                f"{lesson_id} step {i}: {action} changed the position"
        for junk in ("", "play", "zz 99", "S7: pass"):
            fb = run.attempt(junk)
            assert not fb.ok and fb.text
        assert run.state.to_dict() == before and run.timeline.cursor == cursor
        fb = run.attempt(step.accept[0] if step.accept else _checked_move(lesson, i))
        assert fb.ok, f"{lesson_id} step {i}: the solution was refused: {fb.text}"
        assert fb.text
    assert run.done and run.prompt
    assert not run.attempt("pass").ok
    report("lessons", lesson.game, lessons=1, steps=len(lesson.steps), other_moves_answered=answered)


def _fresh_at(lesson: Lesson, index: int):
    """A new run of ``lesson`` at step ``index`` (each earlier step solved)."""
    run = lesson.start()
    for i in range(index):
        step = lesson.steps[i]
        assert run.attempt(step.accept[0] if step.accept else _checked_move(lesson, i)).ok
    return run


def _checked_move(lesson: Lesson, index: int) -> str:
    """A move that a step with only a named check accepts (the first legal one that passes)."""
    run = _fresh_at(lesson, index)
    for action in run.state.legal_actions():
        trial = _fresh_at(lesson, index)
        if trial.attempt(str(action)).ok:
            return str(action)
    raise AssertionError(f"{lesson.id} step {index}: no legal move passes the check {lesson.steps[index].check!r}")


# --------------------------------------------------------------------------- the runner itself
DEMO = "cirno_neu/1 players=3 turn=A sum=90 hands=5,10,PASS/1,2,3/-1,6,7 draw=?"


def _demo(*steps: dict, **step) -> Lesson:
    if not steps:
        steps = ({"say": "Keep the sum at 99 or below.", "hint": "95 is fine.", **step},)
    data = {"title": "Demo", "rules": ["N4.3"], "position": DEMO, "seed": 1, "seat": 0, "steps": list(steps)}
    return Lesson.from_dict("cirno_neu/demo", json.loads(json.dumps(data)))


def test_a_wrong_move_changes_nothing_and_is_explained():
    run = _demo(accept=["play 5"], other="PASS would waste it.", replies={"play PASS": "Not yet."},
                then=["play 1", "play -1"], done="95: safe.").start()
    before = run.state.to_dict()
    fb = run.attempt("play PASS")
    assert not fb.ok and fb.text == "Not yet." and fb.rule is None
    fb = run.attempt("play 10")
    assert not fb.ok and fb.rule == "N4.3" and "rule N4.3" in fb.text and "100" in fb.text
    fb = run.attempt("B: play 1")
    assert not fb.ok and fb.rule == "G3"
    fb = run.attempt("play 4 4 4")
    assert not fb.ok and fb.rule is None
    assert run.state.to_dict() == before and run.index == 0 and run.timeline.cursor == 0
    fb = run.attempt("play 5")
    assert fb.ok and fb.text == "95: safe." and run.done and run.timeline.cursor == 3
    assert run.state.current_player == 0 and run.prompt == "Lesson complete."
    assert [str(a) for a in run.timeline.history] == ["play 5", "play 1", "play -1"]


def test_a_move_while_looking_back_is_refused_and_changes_nothing():
    """The lesson goes on from its latest move only: a move at an earlier position used to be
    played on a new line there, and the run then stuck on its scripted replies."""
    run = lessons.load("depot/sets-and-runs").start()
    first = run.lesson.steps[0].accept[0]
    assert run.attempt(first).ok
    index, length = run.index, run.timeline.length
    run.timeline.goto(0)
    assert run.looking_back
    for move in (first, *[str(a) for a in run.state.legal_actions()[:3]]):
        fb = run.attempt(move)
        assert not fb.ok and fb.text.startswith("You are looking at an earlier position")
    assert run.index == index and run.timeline.line_count == 1 and run.timeline.length == length
    run.timeline.goto(length)
    assert not run.looking_back and run.attempt(run.lesson.steps[index].accept[0]).ok


def test_replies_wait_for_the_latest_move():
    run = _demo(accept=["play 5"], then=["play 1", "play -1"]).start()
    assert run.attempt("play 5", replies=False).ok and run.replying
    run.timeline.goto(0)
    with pytest.raises(ValueError, match="go back to it first"):
        run.reply()
    assert run.timeline.line_count == 1 and run.replying
    run.timeline.goto(run.timeline.length)
    run.reply(), run.reply()
    assert run.done


def test_other_legal_moves_get_the_lesson_words():
    run = _demo(accept=["play 5"], other="Play the 5.").start()
    assert run.attempt("play PASS").text == "Play the 5."
    assert _demo(accept=["play 5"]).start().attempt("play PASS").text  # a default text


def test_named_checks():
    assert _demo(check="kind:play").start().attempt("play PASS").ok
    assert _demo(check="any").start().attempt("play PASS").ok
    assert not _demo(check="event:round_end", accept=["play 5"]).start().attempt("play PASS").ok
    with pytest.raises(LessonError, match="unknown check"):
        _demo(check="nonsense")
    with pytest.raises(LessonError, match="accept"):
        _demo()


def test_one_action_at_a_time():
    double = "cirno_neu/1 players=3 turn=A need=2 sum=80 hands=4,5,9/1,2,3/-1,6,7 draw=?"
    steps = [{"say": "First card.", "hint": "h", "check": "any"},
             {"say": "Second card.", "hint": "h", "accept": ["play 5"], "then": ["play 1", "play -1"]}]
    lesson = Lesson.from_dict("cirno_neu/double", {"title": "T", "rules": [], "position": double, "steps": steps})
    run = lesson.start()
    fb = run.attempt("play 4, 5")  # both cards of the double turn in one text
    assert not fb.ok and "one move at a time" in fb.text and run.timeline.cursor == 0
    assert run.attempt("play 4").ok and run.attempt("play 5").ok and run.done


def test_scripted_replies_are_the_other_seats_moves():
    mine = {"say": "Play the 5.", "hint": "h", "accept": ["play 5"], "then": ["play 1", "play -1", "play pass"]}
    with pytest.raises(LessonError, match="student"):
        _demo(mine).start().attempt("play 5")


def test_scripted_replies_must_hand_the_turn_back():
    first = {"say": "Play the 5.", "hint": "h", "accept": ["play 5"], "then": ["play 1"]}
    second = {"say": "Again.", "hint": "h", "check": "any"}
    with pytest.raises(LessonError, match="turn"):
        _demo(first, second).start().attempt("play 5")
    bad = {"say": "Play the 5.", "hint": "h", "accept": ["play 5"], "then": ["play 9"]}
    with pytest.raises(LessonError, match="does not play"):
        _demo(bad).start().attempt("play 5")


def test_malformed_lesson_files():
    good = {"title": "T", "rules": [], "position": DEMO, "steps": [{"say": "s", "accept": ["play 5"]}]}
    for bad, match in [({**good, "extra": 1}, "unknown key"), ({**good, "steps": []}, "at least one step"),
                       ({k: v for k, v in good.items() if k != "title"}, "missing key"),
                       ({**good, "seed": "x"}, "int"), ({**good, "steps": [{"say": 1, "accept": ["play 5"]}]}, "text"),
                       ([], "JSON object")]:
        with pytest.raises(LessonError, match=match):
            Lesson.from_dict("cirno_neu/bad", bad)
    with pytest.raises(LessonError, match="does not read"):
        Lesson.from_dict("cirno_neu/bad", {**good, "position": "cirno_neu/1 players=3 turn=Q"}).start()


@pytest.mark.parametrize("lesson_id", ALL)
def test_the_solution_has_one_move_per_step(lesson_id):
    lesson = lessons.load(lesson_id)
    solution = lesson.solution()
    assert len(solution) == len(lesson.steps)
    run = lesson.start()
    assert all(run.attempt(m).ok for m in solution) and run.done
