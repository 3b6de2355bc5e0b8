"""Yadokarick lessons for the advanced cards, duo and solo: what their words claim is the engine's.

``tests/test_lessons.py`` checks the mechanics of every listed lesson. Here, for the
nine lessons of the other modes (loaded from their files, listed or not): each plays the
mode it is named for; the numbers its words state (house sizes, targets, scores) are the
engine's, after the right move and after the tempting wrong ones its replies answer;
its "whatever they play" promises hold in every deal the student cannot tell apart from
this one; its words name only cards the student has seen (or, with the advanced set,
where every card is dealt, can place in the other hands); and nothing it shows depends
on the seed that deals the cards its position leaves unknown.
"""

from __future__ import annotations

import json
import random
import re
from importlib import resources

import pytest

from cardwidgets import from_position, lessons
from cardwidgets.games.yadokarick import duo_winners
from cardwidgets.lessons import Lesson, LessonRun
from kit import lesson_after

#: The lessons, in teaching order.
MODES = ["advanced-the-card-set", "advanced-the-top-roofs", "advanced-counting-cards",
         "duo-the-npc", "duo-playing-with-two", "duo-scoring",
         "solo-setup-and-the-row", "solo-building-crabs", "solo-scoring-and-the-end"]
CARD = re.compile(r"\b[GP]\d{1,2}\b")


def _lesson(name: str, **changes) -> Lesson:
    text = resources.files("cardwidgets.lessons").joinpath("yadokarick", f"{name}.json").read_text("utf-8")
    return Lesson.from_dict(f"yadokarick/{name}", {**json.loads(text), **changes})


def _move(lesson: Lesson, done: list[str], index: int) -> str:
    """The step's first accepted move (for a step with a named check: the first legal move it accepts)."""
    step = lesson.steps[index]
    if step.accept:
        return step.accept[0]
    for action in lesson_after(lesson, done).state.legal_actions():
        if lesson_after(lesson, done).attempt(str(action)).ok:
            return str(action)
    raise AssertionError(f"{lesson.id} step {index}: no legal move passes {step.check!r}")


def _solution(lesson: Lesson) -> list[str]:
    moves: list[str] = []
    for i in range(len(lesson.steps)):
        moves.append(_move(lesson, moves, i))
    return moves


def _at(name: str, index: int) -> LessonRun:
    """A run of the lesson at step ``index``, each earlier step solved."""
    lesson = _lesson(name)
    return lesson_after(lesson, _solution(lesson)[:index])


# --------------------------------------------------------------------------- the set
def test_each_lesson_plays_the_mode_it_is_named_for():
    for name in MODES:
        state = _lesson(name).start().state
        mode = name.split("-")[0]
        if mode == "advanced":
            assert state.mode == "standard" and state.options["card_set"] == "advanced", name
        else:
            assert state.mode == mode, name


def test_the_index_lists_them_in_teaching_order():
    listed = [i.split("/", 1)[1] for i in lessons.available("yadokarick")]
    mine = [n for n in listed if n in MODES]
    assert not mine or mine == MODES, "list all nine lessons, in this order"


# --------------------------------------------------------------------------- the story
#: Per lesson: after how many steps, and what the words say is true then (the view of
#: the student's seat; ``outcome``: winners and scores).
STORY = {
    "advanced-the-card-set": [
        (1, {"house_sizes": [4, 0, 4, 0], "roofed": [False, False, True, False], "marker": 11,
             "trick": [{"seat": 3, "card": "P16"}]}),
        (2, {"house_sizes": [8, 0, 4, 0], "marker": 10, "current": 1})],
    "advanced-the-top-roofs": [
        (0, {"house_sizes": [7, 7, 6, 7], "marker": 11}),
        (1, {"house_sizes": [7, 11, 6, 7], "marker": 11, "trick": [{"seat": 3, "card": "P13"}]}),
        (2, {"house_sizes": [11, 13, 6, 7], "roofed": [True, False, True, False], "marker": 11})],
    "advanced-counting-cards": [
        (0, {"house_sizes": [11, 10, 10], "roofed": [False, True, False], "marker": 11}),
        (1, {"house_sizes": [11, 10, 10], "marker": 10, "trick": [{"seat": 2, "card": "G22"}]}),
        (2, {"house_sizes": [11, 10, 14], "collapsed_sizes": [0, 0, 10], "marker": 10, "movers": [0]}),
        (3, {"outcome": ((0,), (16, 10, -13)), "target": 11})],
    "duo-the-npc": [
        (1, {"house_sizes": [4, 0, 0], "trick": [{"who": "NPC", "card": "G24"}, {"who": "B", "card": "G7"}]}),
        (2, {"house_sizes": [4, 0, 8], "target": 8, "trick": [{"who": "B", "card": "G35"}]}),
        (3, {"house_sizes": [4, 3, 8], "leader": "A", "trick": []})],
    "duo-playing-with-two": [
        (0, {"house_sizes": [10, 7, 11], "roofed": [True, False, False], "target": 11}),
        (1, {"house_sizes": [10, 7, 11], "trick": [{"who": "NPC", "card": "G27"}, {"who": "B", "card": "G19"}]}),
        (2, {"house_sizes": [10, 7, 11], "leader": "NPC"})],
    "duo-scoring": [
        (0, {"house_sizes": [8, 11, 12], "roofed": [False, True, True], "target": 12}),
        (1, {"house_sizes": [12, 11, 12], "trick": [{"who": "NPC", "card": "G13"}, {"who": "B", "card": "G2"}]}),
        (2, {"outcome": ((0,), (12, 11))})],
    "solo-setup-and-the-row": [
        (1, {"phase": "turn", "row": ["G35", "G22", "G13", "P7", "P6"]}),
        (3, {"phase": "bonus", "bonus": ["G13", "G14"]}),
        (4, {"points": 2, "score_pile": ["G14"]}),
        (5, {"phase": "turn", "points": 2})],
    "solo-building-crabs": [
        (1, {"crabs": [["G26", "G21", "G10"], ["P28", "G19"], [], ["P33", "P27", "P12"]],
             "roof_mode": [True, False, False, False]}),
        (3, {"crabs": [["G28", "G26", "G21", "G10"], ["P28", "G19"], [], ["P33", "P27", "P12"]]}),
        (5, {"crabs": [["G28", "G26", "G21", "G10"], ["P28", "G19", "P17"], [], ["P33", "P27", "P12"]]})],
    "solo-scoring-and-the-end": [
        (0, {"points": 107, "penalty": 17, "score": 90, "deck_counts": [0, 1]}),
        (1, {"penalty": 19}),
        (2, {"deck_counts": [0, 0]}),
        (3, {"outcome": ((0,), (111,)), "points": 130, "penalty": 19, "score": 111})],
}


def test_every_lesson_has_its_story():
    assert sorted(STORY) == sorted(MODES)


@pytest.mark.parametrize("name", MODES)
def test_the_story_matches_the_engine(name, report):
    lesson = _lesson(name)
    solution = _solution(lesson)
    checked = 0
    for after, facts in STORY[name]:
        run = lesson_after(lesson, solution[:after])
        view, where = run.state.view(lesson.seat), f"{name} after step {after}"
        for key, value in facts.items():
            if key == "outcome":
                out = run.state.outcome()
                assert (out.winners, tuple(out.scores)) == value, where
            else:
                assert view[key] == value, f"{where}: {key} is {view[key]!r}"
            checked += 1
        if after < len(lesson.steps):
            assert run.state.current_player == lesson.seat and not run.state.is_terminal, where
        else:
            assert run.done
    report("lessons", "yadokarick", modes_story_facts=checked)


# --------------------------------------------------------------------------- the replies
def _after(name: str, index: int, *moves: str):
    """The state at step ``index`` with ``moves`` applied (a clone: the lesson is untouched)."""
    state = _at(name, index).state.clone()
    for m in moves:
        state.apply(m)
    return state


def test_advanced_replies():
    # the top roofs: G20 brings G16 too (15, roofed); G17 makes 11 now, and G20 must still come.
    assert _after("advanced-the-top-roofs", 0, "play G20").view(0)["house_sizes"][0] == 15
    assert _after("advanced-the-top-roofs", 0, "play G20").view(0)["roofed"][0]
    g17 = _after("advanced-the-top-roofs", 0, "play G17")
    assert g17.view(0)["house_sizes"][0] == 11 and "G20" in g17.hand(0)
    # counting: G4 now, then G26 leads the last trick and captures G26, G22 and G15 (18);
    # the last mover is whoever holds G15.
    st = _after("advanced-counting-cards", 0, "play G4")
    assert st.view(0)["movers"] == [0]
    holder = next(seat for seat in (1, 2) if "G15" in st.hand(seat))
    st.apply("move stay")
    st.apply("play G26")
    while st.phase == "play":
        st.apply(st.legal_actions()[0])  # each holds one card
    assert st.view(0)["house_sizes"][0] == 18 and st.view(0)["movers"] == [holder]
    # counting, the last move: stay -1, left -2, right 16.
    for move, score in (("move stay", -1), ("move left", -2), ("move right", 16)):
        assert _after("advanced-counting-cards", 2, move).outcome().scores[0] == score


def test_advanced_promises_hold_in_every_deal_the_student_cannot_tell_apart(report):
    """'Whatever the others play': every deal of the hidden hands, every answer."""
    answers = 0
    for index, move, check in (
            (0, "play G19", lambda ev: _capture(ev, "G").get("seat") == 0),
            (1, "play P19", lambda ev: _capture(ev, "P").get("seat") == 0)):
        base = _at("advanced-the-card-set", index).state
        for w in range(3):
            world = base.sample_world(0, random.Random(w))
            assert world.view(0) == base.view(0)
            start = world.clone()
            start.apply(move)
            for answer in _answers(start):
                assert check(answer), f"step {index}: {move} does not capture"
                answers += 1
    # the top roofs, step 2: G20 captures itself alone, whatever B and C answer.
    base = _at("advanced-the-top-roofs", 1).state
    for w in range(3):
        world = base.sample_world(0, random.Random(w))
        start = world.clone()
        start.apply("play G20")
        for events in _answers(start):
            assert _capture(events, "G") == {"seat": 0, "cards": ["G20"]}
            answers += 1
    # counting: in every deal, the two cards left are G15 and G22, both above G4.
    base = _at("advanced-counting-cards", 0).state
    for w in range(5):
        world = base.sample_world(0, random.Random(w))
        assert sorted(world.hand(1) + world.hand(2)) == ["G15", "G22"]
    report("lessons", "yadokarick", promises_checked=answers)


def _answers(state) -> list[list]:
    """The events of every way the other players can finish the trick (teacher's view)."""
    out = []

    def go(st, events):
        if st.phase != "play" or not st.view(None)["trick"]:
            out.append(events)
            return
        for a in st.legal_actions():
            nxt = st.clone()
            go(nxt, events + nxt.apply(a))

    go(state, [])
    return out


def _capture(events, colour: str) -> dict:
    """The capture of one colour in a trick's events (``{}`` when nobody captured it)."""
    for e in events:
        if e.kind == "capture" and e.data["cards"][0].startswith(colour):
            return e.data
    return {}


def test_duo_replies():
    for move, sizes in (("play G33", [8, 0, 0]), ("play G26", [8, 0, 0]), ("play G2", [4, 0, 4]),
                        ("play G11", [4, 0, 4]), ("play G4", [4, 0, 8])):
        assert _after("duo-the-npc", 1, move).view(0)["house_sizes"] == sizes, move
    assert "G11" in _after("duo-the-npc", 2, "play G11").view(0)["houses"][1]  # the NPC turns a size-2 card
    for move in ("play G5", "play G1"):
        assert _after("duo-playing-with-two", 0, move).view(0)["house_sizes"][1] == 10
        assert _after("duo-playing-with-two", 1, move).view(0)["house_sizes"][2] == 17
    g1 = _after("duo-scoring", 0, "play G1").view(0)
    assert g1["leader"] == "A" and g1["trick"] == [] and g1["house_sizes"][0] == 8
    # "At 8 you would have lost, at 11 it would have been a draw, at 13 or more burst and lost."
    assert duo_winners(8, 11, 12)[0] == (1,) and duo_winners(11, 11, 12)[0] == (0, 1)
    assert all(duo_winners(h, 11, 12)[0] == (1,) for h in range(13, 30))
    assert duo_winners(16, 11, 12)[0] == (1,)


def test_duo_promises_hold_whatever_the_npc_turns_over(report):
    """G36 wins trick 1 whatever B answers, and a size-1 or size-2 card under B's G35 is
    discarded, whatever the NPC's deck holds: every card the student has not seen comes up
    on top of it in one of the deals sampled."""
    checked = 0
    for index, moves, check in (
            (0, ["play G36"], lambda events: _duo_capture(events)["who"] == "A"),
            (2, list(_lesson("duo-the-npc").steps[2].accept),
             lambda events: _duo_capture(events)["who"] == "B" and events[0].data["card"] in _discarded(events))):
        base = _at("duo-the-npc", index).state
        tops = set()
        for w in range(400):
            world = base.sample_world(0, random.Random(w))
            assert world.view(0) == base.view(0)
            tops.add(world.view(None)["npc_deck"][0])
            for move in moves:
                played = world.clone()
                first = played.apply(move)
                finished = [first] if any(e.kind == "capture" for e in first) else \
                    [first + played.clone().apply(answer) for answer in played.legal_actions()]  # B's answers
                for events in finished:
                    assert check(events), f"step {index}: {move}"
                    checked += 1
        unseen = set(base.view(None)["npc_deck"]) | set(base.hand(1))
        assert tops == unseen
    report("lessons", "yadokarick", npc_worlds_checked=checked)


def _duo_capture(events) -> dict:
    return next(e.data for e in events if e.kind == "capture")


def _discarded(events) -> list[str]:
    return [c for e in events if e.kind == "discard" for c in e.data["cards"]]


def test_solo_replies_and_counts():
    # The bonus chances counted in the row: every card of each deck put on top in turn.
    run = _at("solo-setup-and-the-row", 2)
    seen = set(run.state.view(0)["row"]) | {c for crab in run.state.view(0)["crabs"] for c in crab}
    position = run.state.to_position()
    bonus = set()
    for colour, letter in (("green", "G"), ("pink", "P")):
        for n in range(1, 37):
            card = f"{letter}{n}"
            if n == 30 or card in seen:
                continue
            top = re.sub(rf"\b{colour}=\S+", f"{colour}={card},?", position)
            st = from_position(top, 1)
            st.apply(f"draw {colour}")
            if st.phase == "bonus":
                bonus.add(card)
    assert bonus == {"G12", "G14", "G21", "G23", "P5", "P8"}
    assert _after("solo-setup-and-the-row", 3, "take G13").view(0)["points"] == 1
    assert _after("solo-setup-and-the-row", 3, "take G14").view(0)["points"] == 2
    declined = _after("solo-setup-and-the-row", 3, "decline")
    assert declined.phase == "turn" and len(declined.view(0)["row"]) == 5
    # Giving up: A 5, B 10, C 2, D 22.
    for crab, cost in zip("ABCD", (5, 10, 2, 22)):
        assert _after("solo-scoring-and-the-end", 0, f"giveup {crab}").view(0)["penalty"] == 17 + cost
    for crab, cost in zip("ABD", (5, 10, 22)):
        assert _after("solo-scoring-and-the-end", 1, f"giveup {crab}").view(0)["penalty"] == 19 + cost
    # Whichever card starts C, the last pink card comes in and P5 then ends the game.
    start = _at("solo-scoring-and-the-end", 1).state
    for action in start.legal_actions():
        if action.kind != "place":
            continue
        st = start.clone()
        st.apply(action)
        assert st.view(0)["row"][-1] == "P5" and st.view(0)["deck_counts"] == [0, 0]
        st.apply("place P5 D")
        assert st.outcome().scores == (111,)


# --------------------------------------------------------------------------- hidden cards
#: Cards some words name as what a draw could bring, before anyone has seen them.
MAY_COME = {"solo-setup-and-the-row": {"G12", "G14", "G21", "G23", "P5", "P8"}}


def _seen(run: LessonRun) -> set[str]:
    """Cards the student's seat has seen: its view (without the card tables) and its narration."""
    view = {k: v for k, v in run.state.view(run.seat).items() if k not in ("sizes", "roofs")}
    return set(CARD.findall(json.dumps(view))) | set(CARD.findall(" ".join(run.timeline.narration(run.seat))))


@pytest.mark.parametrize("name", MODES)
def test_the_words_name_only_cards_the_student_may_know(name, report):
    lesson = _lesson(name)
    run = lesson.start()
    # With the advanced set every card is dealt, so an unseen card is in another hand.
    known = set(run.state.view(None).get("sizes", {})) if name.startswith("advanced") else set()
    may_come = MAY_COME.get(name, set())
    named = 0
    assert not set(CARD.findall(lesson.intro)) - _seen(run) - known, f"{name} intro"
    moves = _solution(lesson)
    for i, step in enumerate(lesson.steps):
        before = set(CARD.findall(" ".join([step.say, step.hint, step.other, *step.replies.values()])))
        assert not before - _seen(run) - known - may_come, f"{name} step {i} names {before - _seen(run)}"
        assert run.attempt(moves[i]).ok
        after = set(CARD.findall(step.done))
        assert not after - _seen(run) - known, f"{name} step {i} 'done' names {after - _seen(run)}"
        named += len(before) + len(after)
    assert not set(CARD.findall(lesson.outro)) - _seen(run) - known
    report("lessons", "yadokarick", modes_cards_named=named)


@pytest.mark.parametrize("name", MODES)
def test_what_the_student_sees_does_not_depend_on_the_seed(name):
    """The cards a position leaves unknown are dealt by the seed: the story never uses them."""
    lesson = _lesson(name)
    moves = _solution(lesson)
    shown = []
    for seed in (1, 2, 3, 2026):
        run, seen = _lesson(name, seed=seed).start(), []
        for m in moves:
            assert run.attempt(m).ok
            seen.append((run.state.view(run.seat), run.timeline.narration(run.seat)))
        shown.append(seen)
    assert all(s == shown[0] for s in shown[1:])
