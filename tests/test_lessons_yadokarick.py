"""Yadokarick lessons: what their words claim is what the engine does, and they name
only cards the student has seen.

``tests/test_lessons.py`` checks that every lesson plays. Here, along every accepted
way through each lesson (steps with a check accept several moves): the judgments,
house sizes, collapsed sizes, marker values, scores and winners the words state are
the engine's; what the words say the tempting wrong moves would do is what they do;
and no text names a card the student's seat has not been shown.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardwidgets import lessons
from kit import lesson_at, lesson_paths, lesson_seen

IDS = lessons.available("yadokarick")
MINE = [f"yadokarick/{n}" for n in ("playing-a-trick", "three-players", "judgment", "the-size-marker",
                                    "building-houses", "scoring")]
CARD = re.compile(r"\b[GP](?:[1-9]|[12]\d|3[0-6])\b")
#: View keys that list the whole card set (sizes, roof cards), not cards anyone was shown.
HIDE = ("sizes", "roofs")


def test_teaching_order():
    assert IDS[:len(MINE)] == MINE


# --------------------------------------------------------------------------- every way through
def _judged(events: list[Any]) -> dict[str, Any]:
    """The first trick judged among ``events``: its movers, captures, collapses, roofs, discards."""
    starts = [i for i, e in enumerate(events) if e.kind == "movers"]
    if not starts:
        return {}
    out: dict[str, Any] = {"movers": events[starts[0]].data["movers"], "captures": {}, "collapsed": [],
                           "roofed": [], "discarded": []}
    for e in events[starts[0] + 1:]:
        if e.kind == "mover":
            break
        if e.kind == "capture":
            out["captures"][e.data["seat"]] = e.data["cards"]
        elif e.kind == "collapse":
            out["collapsed"] += e.data["cards"]
        elif e.kind == "roof":
            out["roofed"].append(e.data["who"])
        elif e.kind in ("discard", "roofed_discard"):
            out["discarded"] += e.data["cards"]
    return out


def _check(where: str, facts: dict[str, Any], judged: dict[str, Any], state: Any, seat: int = 0) -> None:
    """``facts`` hold: ``judged`` (exact values of the first judgment's keys), ``captors``
    (the seats that captured), ``discards`` (cards among the discarded), ``view`` (view
    fields), ``H``/``F`` (the student's house and collapsed sizes), ``result`` (fields of
    the last round's result) and ``winners`` (the game's)."""
    view = state.view(seat)
    for key, value in facts.get("judged", {}).items():
        assert judged.get(key) == value, f"{where}: judged {key} {judged.get(key)} != {value}"
    if "captors" in facts:
        assert sorted(judged["captures"]) == facts["captors"], f"{where}: captors {judged['captures']}"
    for card in facts.get("discards", ()):
        assert card in judged["discarded"], f"{where}: {card} not discarded: {judged['discarded']}"
    for key, value in facts.get("view", {}).items():
        assert view[key] == value, f"{where}: {key} {view[key]} != {value}"
    if "H" in facts:
        assert view["house_sizes"][seat] == facts["H"], f"{where}: H {view['house_sizes'][seat]}"
    if "F" in facts:
        assert view["collapsed_sizes"][seat] == facts["F"], f"{where}: F {view['collapsed_sizes'][seat]}"
    for key, value in facts.get("result", {}).items():
        assert view["results"][-1][key] == value, f"{where}: result {key}"
    if "winners" in facts:
        assert state.outcome().winners == facts["winners"], f"{where}: {state.outcome()}"


#: Per lesson and step: what the words say is true once the step is played (the step's
#: own move and its scripted replies), on every accepted way through. Step 0 is the start.
STORY: dict[str, dict[int, dict[str, Any]]] = {
    "yadokarick/playing-a-trick": {
        0: {"view": {"leader": 0, "trick_no": 1, "dealer": 3}},
        1: {"judged": {"movers": [1]}, "view": {"marker": 12, "leader": 1, "trick_no": 2}},
        2: {"judged": {"movers": [0]}, "view": {"phase": "marker"}},
        3: {"view": {"leader": 0, "trick_no": 3}},
    },
    "yadokarick/three-players": {
        0: {"view": {"leader": 1, "aside_count": 6}},
        1: {"judged": {"movers": [1], "captures": {0: ["G14", "G26", "G32"]}}, "H": 8, "view": {"leader": 1}},
        2: {"judged": {"movers": [1], "discarded": []}, "captors": [2], "H": 8},
        3: {"judged": {"movers": [0]}, "captors": [2]},
        4: {"view": {"leader": 0}},
    },
    "yadokarick/judgment": {
        0: {"view": {"movers": [0, 1], "phase": "marker"}},
        1: {"view": {"leader": 1, "trick_no": 2}},
        2: {"judged": {"movers": [1], "captures": {0: ["P16"], 3: ["G7", "G31"]}}, "H": 4},
        3: {"judged": {"movers": [0], "captures": {0: ["P9"], 3: ["G15", "G23"]}}, "discards": ["G14"], "H": 5},
        4: {"view": {"leader": 0, "trick_no": 4}},
    },
    "yadokarick/the-size-marker": {
        0: {"H": 9, "view": {"marker": 10, "roofed": [True, False, False, False], "trick_no": 9}},
        1: {"judged": {"movers": [1, 0]}, "view": {"marker": 11, "phase": "marker", "current": 0}},
        2: {"view": {"marker": 10, "leader": 0, "trick_no": 10}},
        3: {"judged": {"movers": [0]}, "H": 9},
        4: {"result": {"target": 9, "scores": [14, 6, -10, -3]}},
    },
    "yadokarick/building-houses": {
        0: {"H": 10, "F": 0},
        1: {"judged": {"movers": [1], "collapsed": ["G5"]}, "H": 13, "F": 1,
            "view": {"houses": [["G9", "G14", "G18", "G22", "G26", "P12"], ["P21"], ["G36"], ["G8"]]}},
        2: {"judged": {"movers": [1], "collapsed": ["G9"], "roofed": ["A"]}, "H": 14, "F": 2,
            "view": {"collapsed": [["G5", "G9"], [], [], []], "roofed": [True, False, False, False]}},
        3: {"judged": {"movers": [1]}, "discards": ["P24"], "H": 14, "F": 2},
    },
    "yadokarick/scoring": {
        0: {"H": 8, "view": {"marker": 10, "totals": [30, 33, 28, 36], "round": 4, "rounds": 4}},
        1: {"judged": {"movers": [1], "captures": {1: ["G3"], 0: ["P14"]}}, "H": 10,
            "view": {"marker": 11, "leader": 1, "trick_no": 10}},
        2: {"judged": {"movers": [0]}, "view": {"house_sizes": [10, 11, 12, 7], "collapsed_sizes": [0, 0, 3, 0],
                                                  "marker": 11}},
        3: {"result": {"target": 10, "scores": [15, -1, -5, 7]}, "view": {"totals": [45, 32, 23, 43]},
            "winners": (0,)},
    },
}


def test_every_lesson_has_its_story():
    assert sorted(STORY) == sorted(MINE)
    for lesson_id, story in STORY.items():
        assert sorted(story) == list(range(len(lessons.load(lesson_id).steps) + 1))


@pytest.mark.parametrize("lesson_id", MINE)
def test_the_story_matches_the_engine_on_every_way_through(lesson_id, report):
    lesson = lessons.load(lesson_id)
    paths = lesson_paths(lesson)
    for path in paths:
        run = lesson.start()
        _check(f"{lesson_id} at the start", STORY[lesson_id][0], {}, run.state)
        for i, move in enumerate(path):
            start = run.timeline.cursor
            assert run.attempt(move).ok
            events = [e for n in range(start + 1, run.timeline.cursor + 1) for e in run.timeline.events(n)]
            _check(f"{lesson_id} after step {i} ({path[:i + 1]})", STORY[lesson_id][i + 1], _judged(events),
                   run.state)
            if not run.done:
                assert run.state.current_player == lesson.seat
    report("lessons", "yadokarick", ways_through_checked=len(paths))


# --------------------------------------------------------------------------- the wrong moves
#: Per lesson and step: what the words say a wrong move would do (``"other"``: every
#: legal move the step neither accepts nor answers by name), checked on a copy.
WRONG: dict[str, dict[int, dict[str, dict[str, Any]]]] = {
    "yadokarick/playing-a-trick": {1: {"other": {"judged": {"movers": [3]}},
                                       "play P22": {"judged": {"movers": [3]}}}},
    "yadokarick/three-players": {0: {"other": {"captors": [2]}},
                                 1: {"other": {"judged": {"movers": [0]}}},
                                 2: {"other": {"judged": {"movers": [1]}}}},
    "yadokarick/judgment": {1: {"play P32": {"judged": {"captures": {0: ["P16", "P32"], 3: ["G7", "G31"]}}},
                                "play P9": {"judged": {"captures": {2: ["P16"], 3: ["G7", "G31"]}},
                                            "discards": ["P9"]},
                                "other": {"no_capture": "P16"}},
                            2: {"other": {"judged": {"movers": [2]}}}},
    "yadokarick/the-size-marker": {0: {"play G1": {"judged": {"movers": [0]}}},
                                   3: {"move stay": {"result": {"target": 10, "scores": [9, 6, -9, -2]}},
                                       "move right": {"result": {"target": 11, "scores": [9, 6, -8, -1]}}}},
    "yadokarick/building-houses": {
        0: {"play P32": {"judged": {"collapsed": ["G5", "G9"]}, "H": 16},
            "play P36": {"judged": {"collapsed": ["G5", "G9"]}, "H": 16},
            "play P2": {"judged": {"movers": [0], "captures": {2: ["P12"], 3: ["G8"]}}},
            "other": {"no_capture": "P12"}},
        1: {"play G34": {"judged": {"captures": {0: ["G10", "G34"], 1: ["P3"]}, "collapsed": ["G9", "G14"],
                                    "roofed": ["A"]}},
            "play G35": {"judged": {"captures": {0: ["G35"], 1: ["P3"]}, "roofed": []}, "discards": ["G10"]},
            "play P2": {"judged": {"movers": [0], "captures": {1: ["P3"], 3: ["G10"]}}},
            "other": {"no_capture": "G10"}},
        2: {"play P2": {"judged": {"captures": {2: ["P24"], 3: ["G16"]}}},
            "other": {"no_capture": "P24"}},
    },
    "yadokarick/scoring": {
        0: {"play G1": {"judged": {"movers": [0]}, "H": 8}},
        2: {"move stay": {"view": {"totals": [40, 49, 24, 43]}, "winners": (1,)},
            "move right": {"result": {"scores": [10, 11, 14, 7]}, "view": {"totals": [40, 44, 42, 43]},
                           "winners": (1,)}},
    },
}


@pytest.mark.parametrize("lesson_id", MINE)
def test_the_wrong_moves_do_what_the_words_say(lesson_id, report):
    lesson = lessons.load(lesson_id)
    checked = 0
    for index, claims in WRONG[lesson_id].items():
        step = lesson.steps[index]
        assert {m for m in claims if m != "other"} <= set(step.replies), f"{lesson_id} step {index}"
        run = lesson_at(lesson_id, index)
        for action in run.state.legal_actions():
            move = str(action)
            if move in step.accept:
                continue
            if move in claims:
                facts = claims[move]
            elif move in step.replies or "other" not in claims:
                continue
            else:
                facts = claims["other"]
            trial = run.state.clone()
            events = trial.apply(move)
            judged = _judged(events)
            where = f"{lesson_id} step {index}, {move}"
            if "no_capture" in facts:
                assert all(facts["no_capture"] not in cards for seat, cards in judged["captures"].items()
                           if seat == lesson.seat), where
            _check(where, {k: v for k, v in facts.items() if k != "no_capture"}, judged, trial)
            assert not run.attempt(move).ok  # and the lesson answers it without playing it
            checked += 1
    report("lessons", "yadokarick", wrong_moves_checked=checked)


# --------------------------------------------------------------------------- hidden cards
@pytest.mark.parametrize("lesson_id", MINE)
def test_the_words_name_only_cards_the_student_has_seen(lesson_id, report):
    """At every step of every way through: the words shown before the move name only cards
    the student's seat has been shown, and so do the words shown after it."""
    lesson = lessons.load(lesson_id)
    named = 0
    for path in lesson_paths(lesson):
        run = lesson.start()
        seen = set(CARD.findall(lesson_seen(run, HIDE)))
        assert not set(CARD.findall(lesson.intro)) - seen, f"{lesson_id} intro"
        for i, (step, move) in enumerate(zip(lesson.steps, path)):
            seen = set(CARD.findall(lesson_seen(run, HIDE)))
            before = {c for t in (step.say, step.hint, step.other, *step.replies.values()) for c in CARD.findall(t)}
            assert not before - seen, f"{lesson_id} step {i} names {before - seen} before the move"
            assert run.attempt(move).ok
            seen = set(CARD.findall(lesson_seen(run, HIDE)))
            after = set(CARD.findall(step.done))
            assert not after - seen, f"{lesson_id} step {i} 'done' names {after - seen}"
            named += len(before) + len(after)
        assert not set(CARD.findall(lesson.outro)) - seen, f"{lesson_id} outro"
    report("lessons", "yadokarick", cards_named_and_seen=named)


def test_the_helpers_see_what_a_seat_sees():
    """The seen text holds the student's hand and the public piles, never another hand."""
    run = lesson_at("yadokarick/judgment", 0)
    seen = set(CARD.findall(lesson_seen(run, HIDE)))
    assert {"P29", "G6", "P6", "G12", "P24"} <= seen
    assert not {"G7", "P16", "G31"} & seen  # B's, C's and D's cards until they are played
    assert {"G7", "P16", "G31"} <= set(CARD.findall(lesson_seen(lesson_at("yadokarick/judgment", 1), HIDE)))
