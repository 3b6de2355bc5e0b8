"""Depot lessons: what their words claim is what the engine does, and they name only
cards the student has seen.

``tests/test_lessons.py`` checks that every lesson plays. Here, along every accepted
way through each lesson (steps with a named check accept many moves): the limits,
Storages, targets, leaders, rankings, penalty cards, lost points and winners the
words state are the engine's, also part-way through a step's scripted replies; what
the words say the wrong moves would do (a refusal and its rule, the hand they leave,
how the match would end) is what they do; and every card list the words write in
brackets, such as ``[3,3,3]``, is one the student's seat can see.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from cardwidgets import lessons
from cardwidgets.lessons import LessonRun
from kit import lesson_at, lesson_paths, lesson_seen

IDS = lessons.available("depot")
ORDER = ["sets-and-runs", "leading-and-beating", "storage-limits", "passing", "round-end", "penalties",
         "the-match"]
#: A card list as the words (and the engine's narration) write it: ``[5]``, ``[3,4,5]``.
CARDS = re.compile(r"\[([1-8](?:,[1-8])*)\]")


def test_teaching_order():
    assert IDS == ["depot/" + n for n in ORDER]


# --------------------------------------------------------------------------- ways through
def _shape(cards: list[int]) -> str | None:
    """The shape of a play (D4.2), or ``None`` for cards that are not one play."""
    cards = sorted(cards)
    if len(cards) == 1:
        return "single"
    if cards and cards[0] == cards[-1]:
        return "set"
    if cards and all(b == a + 1 for a, b in zip(cards, cards[1:])):
        return "run"
    return None


def _check(where: str, facts: dict[str, Any], state: Any, events: list[Any], seat: int = 0) -> None:
    """``facts`` hold: ``view`` (exact fields of the seat's view), ``standing`` ((owner,
    cards)), ``hand`` (the seat's hand), ``not_one_play`` (the seat's hand is no single
    play), ``top`` (the two highest distinct Storage values), ``events`` (kinds that
    happened), ``refills`` (cards drawn by each refill, in order), ``result`` (fields of
    the last finished game), ``winners``, ``position`` (parts of the position text) and
    ``legal`` (the action kinds legal now)."""
    view = state.view(seat)
    for key, value in facts.get("view", {}).items():
        assert view[key] == value, f"{where}: {key} {view[key]} != {value}"
    if "standing" in facts:
        st = view["standing"]
        assert st is not None and (st["owner"], st["cards"]) == facts["standing"], f"{where}: standing {st}"
    if "hand" in facts:
        assert view["hands"][seat] == facts["hand"], f"{where}: hand {view['hands'][seat]}"
    if facts.get("not_one_play"):
        assert _shape(view["hands"][seat]) is None, f"{where}: {view['hands'][seat]} is one play"
    if "top" in facts:
        assert sorted(set(view["storage"]))[-2:][::-1] == facts["top"], f"{where}: Storage {view['storage']}"
    kinds = [e.kind for e in events]
    for kind in facts.get("events", ()):
        assert kind in kinds, f"{where}: no {kind} event in {kinds}"
    if "refills" in facts:
        drawn = [len(e.data["drawn"]) for e in events if e.kind == "refill"]
        assert drawn == facts["refills"], f"{where}: refills drew {drawn}"
    for key, value in facts.get("result", {}).items():
        assert view["results"][-1][key] == value, f"{where}: result {key} {view['results'][-1][key]}"
    if "winners" in facts:
        assert state.outcome() is not None and state.outcome().winners == facts["winners"], \
            f"{where}: {state.outcome()}"
    for part in facts.get("position", ()):
        assert part in state.to_position().split(), f"{where}: {part} not in {state.to_position()}"
    if "legal" in facts:
        assert {a.kind for a in state.legal_actions()} == facts["legal"], f"{where}: {state.legal_actions()}"


#: Per lesson and step: what the words say is true once the step is played (the step's
#: own move and its scripted replies), on every accepted way through; step 0 is the
#: start. ``mid`` maps ``k`` to facts true after the move and its first ``k`` replies.
STORY: dict[str, dict[int, dict[str, Any]]] = {
    "depot/sets-and-runs": {
        0: {"view": {"phase": "lead", "storage": [4, 5, 5], "set_limit": 2, "run_limit": 2}},
        1: {"view": {"round": 2, "current": 0, "phase": "lead"}, "events": ["round_end"]},
        2: {"view": {"round": 3, "current": 0, "phase": "lead", "storage": [3, 4, 4, 4, 5], "set_limit": 3,
                     "run_limit": 3}, "events": ["round_end"]},
        3: {},
    },
    "depot/leading-and-beating": {
        0: {"view": {"phase": "lead", "set_limit": 2, "run_limit": 2}},
        1: {"standing": (2, [6]), "view": {"current": 0, "passes": 0}, "mid": {1: {"standing": (1, [4])}}},
        2: {"standing": (1, [7, 8]), "view": {"passes": 1, "set_limit": 2, "run_limit": 2}},
        3: {"view": {"round": 2, "current": 0, "phase": "lead"}, "events": ["round_end"]},
    },
    "depot/storage-limits": {
        0: {"standing": (2, [8]), "view": {"storage": [2, 4, 5, 5, 6], "set_limit": 2, "run_limit": 3}},
        1: {"view": {"storage": [1, 4, 6, 6, 6, 8], "set_limit": 3, "run_limit": 1, "round": 4, "current": 0,
                     "phase": "lead"},
            "mid": {1: {"view": {"storage": [2, 4, 6, 6, 6]}, "refills": [2]}}},
        2: {"view": {"round": 5, "current": 0, "phase": "lead"},
            "mid": {1: {"standing": (0, [3, 3, 3]), "view": {"set_limit": 1, "run_limit": 2}}}},
    },
    "depot/passing": {
        0: {"standing": (2, [7]), "view": {"storage": [2, 5, 5, 6], "target": 4}},
        1: {"standing": (2, [3, 3]), "view": {"current": 0, "set_limit": 2},
            "mid": {0: {"view": {"storage": [2, 2, 6, 6]}, "refills": [2]}},
            "hand": [1, 3, 4, 5, 5, 5, 6, 8, 8]},
        2: {"standing": (1, [7, 7]), "view": {"set_limit": 3, "round": 2, "passes": 1}},
        3: {"view": {"round": 3, "current": 0, "phase": "lead"}, "events": ["round_end"]},
    },
    "depot/round-end": {
        0: {"standing": (1, [5]), "view": {"passes": 1, "target": 4}},
        1: {"view": {"round": 3, "target": 5, "current": 0, "phase": "lead"}, "events": ["round_end"],
            "refills": [1, 1, 1]},
        2: {"standing": (1, [8, 8]), "view": {"passes": 1}, "legal": {"pass"}},
        3: {"view": {"round": 4, "target": 6, "current": 1, "phase": "lead"}, "events": ["round_end"]},
    },
    "depot/penalties": {
        0: {"standing": (2, [3, 3]), "view": {"deck_count": 1, "hand_counts": [4, 3, 2], "games": 3}},
        1: {"view": {"hand_counts": [1, 4, 4], "current": 0, "phase": "lead"}, "top": [8, 7],
            "events": ["reshuffle", "round_end"], "mid": {1: {"view": {"deck_count": 0}, "refills": [1]}}},
        2: {"events": ["game_end", "scoring"],
            "result": {"ranking": [0, 2, 1], "hands": [[], [1, 1, 2, 3], [2, 2, 6, 7]], "taken": [None, 8, 7]},
            "view": {"lost_points": [0, 8, 7], "penalties": [[], [8], [7]], "game_no": 2, "current": 1}},
    },
    "depot/the-match": {
        0: {"standing": (2, [2]), "view": {"lost_points": [6, 4, 7], "penalties": [[2, 4], [4], [7]], "game_no": 3,
                                          "hand_counts": [2, 4, 6], "storage": [1, 2, 5, 5]},
            "position": ["starter=B"]},
        1: {"hand": [2, 3], "standing": (2, [7]),
            "view": {"storage": [1, 4, 5, 5], "set_limit": 2, "run_limit": 2, "hand_counts": [2, 3, 5]},
            "mid": {0: {"view": {"set_limit": 2, "run_limit": 2}, "refills": []}}},
        2: {"events": ["game_end", "scoring", "match_end"], "winners": (0,),
            "result": {"ranking": [0, 1, 2], "taken": [None, 4, 5]}, "view": {"lost_points": [6, 8, 12]}},
    },
}


def test_every_lesson_has_its_story():
    assert sorted(STORY) == sorted(IDS)
    for lesson_id, story in STORY.items():
        assert sorted(story) == list(range(len(lessons.load(lesson_id).steps) + 1)), lesson_id


def _events(run: LessonRun, start: int) -> list[Any]:
    return [e for n in range(start + 1, run.timeline.cursor + 1) for e in run.timeline.events(n)]


@pytest.mark.parametrize("lesson_id", IDS)
def test_the_story_matches_the_engine_on_every_way_through(lesson_id, report):
    lesson = lessons.load(lesson_id)
    story = STORY[lesson_id]
    paths = lesson_paths(lesson)
    for path in paths:
        run = lesson.start()
        _check(f"{lesson_id} at the start", story[0], run.state, [])
        for i, move in enumerate(path):
            before, start = run.state, run.timeline.cursor
            assert run.attempt(move).ok
            where = f"{lesson_id} after step {i} ({path[:i + 1]})"
            _check(where, {k: v for k, v in story[i + 1].items() if k != "mid"}, run.state, _events(run, start))
            for k, facts in story[i + 1].get("mid", {}).items():
                part = before.clone()
                events = part.apply(move)
                for reply in lesson.steps[i].then[:k]:
                    events += part.apply(reply)
                _check(f"{where} and {k} replies", facts, part, events)
    report("lessons", "depot", ways_through_checked=len(paths))


def test_the_round_end_discards_the_play_that_won_the_round():
    """round-end, last step: "[8,8] was discarded"; and the first: "your play went to the
    discard pile" (whichever play beat the [5])."""
    lid = "depot/round-end"
    run = lesson_at(lid, 2)
    discard = Counter(run.state.view(0)["discard"])
    assert run.attempt("pass take 3").ok
    assert Counter(run.state.view(0)["discard"]) - discard == Counter([8, 8])
    for action in lesson_at(lid, 0).state.legal_actions():
        if action.kind == "play":
            trial = lesson_at(lid, 0)
            before = Counter(trial.state.view(0)["discard"])
            assert trial.attempt(str(action)).ok
            assert Counter(trial.state.view(0)["discard"]) - before == Counter([5, *action.cards])


# --------------------------------------------------------------------------- the wrong moves
#: Per lesson and step: what the words (say, hint, replies, other) claim a move does,
#: mostly moves the step does not accept (an accepted one may be listed for contrast).
#: ``refused``: the rule the engine refuses it with; otherwise facts (see ``_check``)
#: about a copy where it was played, without the scripted replies.
#: A key ``kind:<k>`` stands for every legal move of that kind the step does not accept.
WRONG: dict[str, dict[int, dict[str, dict[str, Any]]]] = {
    "depot/sets-and-runs": {
        0: {"play 3 3 3": {"refused": "D4.4"}},
        1: {"play 1 8": {"refused": "D4.2"}, "play 6 8": {"refused": "D4.2"}},
    },
    "depot/leading-and-beating": {
        0: {"pass take 3": {"refused": "D5.3"}, "pass take 4": {"refused": "D5.3"}},
        2: {"play 7 8": {"refused": "D4.7"}},
    },
    "depot/storage-limits": {
        0: {"play 3 3 3": {"refused": "D4.4"}, "play 5 6 7 8": {"refused": "D4.5"}},
        1: {"play 3 3 3 3": {"refused": "D4.4"}, "play 2 3": {"refused": "D4.5"}},
    },
    "depot/passing": {
        1: {"play 5 5 5": {"refused": "D4.4"}, "pass take 6 give 6": {"refused": "D6.3"},
            **{f"pass take 2{g}": {"view": {"set_limit": 2}}
               for g in ("", " give 1", " give 3", " give 4", " give 5", " give 8")},
            "pass take 2 give 6": {"view": {"set_limit": 3}}},
    },
    "depot/round-end": {
        0: {"kind:pass": {"events": ["round_end"], "view": {"current": 1, "phase": "lead"}}},
    },
    "depot/penalties": {
        0: {"play 4 5": {"hand": [2, 6], "not_one_play": True}, "play 5 6": {"hand": [2, 4], "not_one_play": True},
            "play 4 5 6": {"hand": [2]}},
    },
    "depot/the-match": {
        0: {"play 3 4": {"winners": (0, 1), "view": {"lost_points": [6, 6, 12]},
                         "result": {"ranking": [0, 1, 2], "taken": [None, 2, 5]}},
            "pass take 2": {"hand": [2, 3, 4], "refills": [1]},
            "pass take 2 give 3": {"hand": [2, 4], "not_one_play": True}},
    },
}


@pytest.mark.parametrize("lesson_id", IDS)
def test_the_wrong_moves_do_what_the_words_say(lesson_id, report):
    checked = 0
    for index, claims in WRONG.get(lesson_id, {}).items():
        run = lesson_at(lesson_id, index)
        step = run.lesson.steps[index]
        legal = {str(a): a for a in run.state.legal_actions()}
        for key, facts in claims.items():
            if key.startswith("kind:"):
                moves = [m for m, a in legal.items() if a.kind == key[5:] and m not in step.accept]
                assert moves, f"{lesson_id} step {index}: no {key} move"
            else:
                moves = [key]
            for move in moves:
                where = f"{lesson_id} step {index}, {move}"
                if "refused" in facts:
                    before = run.state.to_dict()
                    fb = run.attempt(move)
                    assert move not in legal and not fb.ok and fb.rule == facts["refused"], f"{where}: {fb}"
                    assert run.state.to_dict() == before, where
                else:
                    assert move in legal, f"{where} is not legal"
                    trial = run.state.clone()
                    _check(where, facts, trial, trial.apply(move))
                    if move not in step.accept:  # the lesson answers it and plays nothing
                        before = run.state.to_dict()
                        assert not run.attempt(move).ok and run.state.to_dict() == before, where
                checked += 1
    report("lessons", "depot", wrong_moves_checked=checked)


@pytest.mark.parametrize("lesson_id", IDS)
def test_every_reply_answers_a_legal_move(lesson_id):
    """A reply written for a move that is never legal at its step would never be shown."""
    lesson = lessons.load(lesson_id)
    legal: dict[int, set[str]] = {i: set() for i in range(len(lesson.steps))}
    for path in lesson_paths(lesson):
        run = lesson.start()
        for i, move in enumerate(path):
            legal[i] |= {str(a) for a in run.state.legal_actions()}
            assert run.attempt(move).ok
    for i, step in enumerate(lesson.steps):
        for move in step.replies:
            assert move in legal[i] and move not in step.accept, f"{lesson_id} step {i}: reply to {move}"


# --------------------------------------------------------------------------- hidden cards
def _zones(run: LessonRun) -> list[Counter]:
    """The card lists the student's seat has been shown: its hand, the Storage, its hand
    with the Storage (what a pass could leave it), the play on the table, the discard,
    the penalty piles and the hands shown at the end of a game, and every card list in
    its narration."""
    text = lesson_seen(run)
    view_text, _, narration = text.partition("\n")
    view = json.loads(view_text)
    hand = view["hands"][run.seat]
    lists = [hand, view["storage"], hand + view["storage"], view["discard"], *view["penalties"]]
    if view["standing"] is not None:
        lists.append(view["standing"]["cards"])
    lists += [h for r in view["results"] for h in r["hands"]]
    lists += [[int(v) for v in m.split(",")] for m in CARDS.findall(narration)]
    return [Counter(cs) for cs in lists]


def _unseen(texts: list[str], zones: list[Counter]) -> list[str]:
    named = [m for t in texts for m in CARDS.findall(t)]
    return [m for m in named if not any(not (Counter(int(v) for v in m.split(",")) - z) for z in zones)]


@pytest.mark.parametrize("lesson_id", IDS)
def test_the_words_name_only_cards_the_student_has_seen(lesson_id, report):
    """On every way through: each card list the words write, before and after a move, is
    part of something the student's seat has been shown."""
    lesson = lessons.load(lesson_id)
    named = 0
    for path in lesson_paths(lesson):
        run = lesson.start()
        assert not _unseen([lesson.intro], _zones(run)), f"{lesson_id} intro"
        for i, (step, move) in enumerate(zip(lesson.steps, path)):
            before = [step.say, step.hint, step.other, *step.replies.values()]
            unseen = _unseen(before, _zones(run))
            assert not unseen, f"{lesson_id} step {i} names {unseen} before the move ({path})"
            assert run.attempt(move).ok
            unseen = _unseen([step.done], _zones(run))
            assert not unseen, f"{lesson_id} step {i} 'done' names {unseen} ({path})"
            named += sum(len(CARDS.findall(t)) for t in before + [step.done])
        assert not _unseen([lesson.outro], _zones(run)), f"{lesson_id} outro"
    report("lessons", "depot", card_lists_named_and_seen=named)


def test_the_seen_cards_are_what_the_seat_sees():
    """The zones hold the student's hand and the public piles, never another hand."""
    run = lesson_at("depot/leading-and-beating", 0)
    zones = _zones(run)
    assert Counter([1, 1, 1, 3, 5, 5, 7, 8, 8]) in zones and Counter([3, 3, 4]) in zones
    assert _unseen(["B holds [2,2,3,4,5,6,6,7,8]."], zones)  # B's hand, hidden from A
    run = lesson_at("depot/leading-and-beating", 1)
    assert not _unseen(["B played [4] and C [6]."], _zones(run))  # narrated plays are seen
    assert _unseen(["C holds [4,7,7]."], _zones(lesson_at("depot/the-match", 0)))
    end = lesson_at("depot/penalties", 1)
    assert Counter([1, 1, 2, 3]) not in _zones(end)
    assert end.attempt("play 2").ok
    assert Counter([1, 1, 2, 3]) in _zones(end)  # the hands are shown when the game ends


#: A sentence that says what the student's hand holds.
YOU_HOLD = re.compile(r"(?:^|(?<=[.:!?] ))You hold [^.]*\.")
NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4}


def _hand_claims(text: str, hand: list[int]) -> list[str]:
    """What a 'You hold …' sentence gets wrong about ``hand``: a set it writes (``[3,3]``)
    is every card of that value the hand holds, and 'N pairs' are N values held exactly twice."""
    wrong = []
    held = Counter(hand)
    for sentence in YOU_HOLD.findall(text):
        for m in CARDS.findall(sentence):
            values = [int(v) for v in m.split(",")]
            if len(values) > 1 and len(set(values)) == 1 and held[values[0]] != len(values):
                wrong.append(f"[{m}] but the hand holds {held[values[0]]} of {values[0]}: {sentence!r}")
        for word in re.findall(r"\b(one|two|three|four) pairs?\b", sentence):
            pairs = sum(1 for n in held.values() if n == 2)
            if NUMBER[word] != pairs:
                wrong.append(f"{word} pairs but the hand holds {pairs}: {sentence!r}")
    return wrong


@pytest.mark.parametrize("lesson_id", IDS)
def test_what_the_words_say_you_hold_is_your_hand(lesson_id):
    """sets-and-runs said "You hold two pairs, [2,2] and [3,3]" to a hand with three 3s."""
    lesson = lessons.load(lesson_id)
    for path in lesson_paths(lesson):
        run = lesson.start()
        for i, (step, move) in enumerate(zip(lesson.steps, path)):
            hand = run.state.view(run.seat)["hands"][run.seat]
            wrong = [w for t in (step.say, step.hint, step.other) for w in _hand_claims(t or "", hand)]
            assert not wrong, f"{lesson_id} step {i}: {wrong}"
            assert run.attempt(move).ok


def test_the_hand_check_reads_the_words():
    assert _hand_claims("You hold two pairs, [2,2] and [3,3]. Lead one.", [1, 2, 2, 3, 3, 3])
    assert not _hand_claims("You hold a pair of 2s, [2,2], and three 3s, [3,3,3].", [1, 2, 2, 3, 3, 3])
    assert _hand_claims("Lead. You hold one pair.", [2, 2, 3, 3])
