"""Crypto Trick lessons: their words name only cards the student has seen, and the
scores, totals and trick winners they state are the engine's.

``tests/test_lessons.py`` checks that every lesson plays; this checks what the
Crypto Trick lessons say about the position (the numbers in a step's words, and
what would happen after the tempting wrong moves they answer).
"""

from __future__ import annotations

import re

import pytest

import kit

from cardwidgets import lessons

IDS = lessons.available("crypto_trick")
CARD = re.compile(r"\b[YBRPGW]\d\b")
RULE = re.compile(r"\bC\d+(?:\.\d+)?\b")


def _seen(run) -> set[str]:
    """The cards the student's seat has seen (its view without the deck lists, and its narration)."""
    return set(CARD.findall(kit.lesson_seen(run, hide=("cards", "block_cards"))))


def _named(*texts: str) -> set[str]:
    return {c for t in texts for c in CARD.findall(t)}


def test_the_lessons_are_in_teaching_order():
    assert IDS == [f"crypto_trick/{n}" for n in
                   ("the-offer", "giving", "following", "trumps", "blocks-and-scoring", "the-whole-game")]
    for lesson_id in IDS:
        assert 2 <= len(lessons.load(lesson_id).steps) <= 6


@pytest.mark.parametrize("lesson_id", IDS)
def test_the_words_name_only_cards_the_student_has_seen(lesson_id, report):
    lesson = lessons.load(lesson_id)
    run = lesson.start()
    named = 0
    unseen = _named(lesson.intro) - _seen(run)
    assert not unseen, f"{lesson_id} intro names {unseen}"
    for i, step in enumerate(lesson.steps):
        before = _named(step.say, step.hint, step.other, *step.replies.values())
        assert not before - _seen(run), f"{lesson_id} step {i} names {before - _seen(run)} before the move"
        move = step.accept[0] if step.accept else str(run.state.legal_actions()[0])
        assert run.attempt(move).ok
        after = _named(step.done)
        assert not after - _seen(run), f"{lesson_id} step {i} 'done' names {after - _seen(run)}"
        named += len(before) + len(after)
    assert not _named(lesson.outro) - _seen(run)
    report("lessons", "crypto_trick", cards_named_and_seen=named)


def _scores(state) -> list[int]:
    return [state.score_now(s)[2] for s in range(state.players)]


def test_blocks_and_scoring_numbers():
    lid = "crypto_trick/blocks-and-scoring"
    run = kit.lesson_at(lid, 0)
    assert _scores(run.state)[0] == 4  # "2 × 2 = 4 points so far"
    ducked = run.state.clone()
    ducked.apply("play B2")  # the reply: B5 goes to B, you stay at 4
    assert ducked.view(None)["last_trick"]["winner"] == 1 and _scores(ducked)[0] == 4
    assert _scores(kit.lesson_at(lid, 1).state)[0] == 9  # "3 blocks in 3 colours, 9 points"
    # The reply to passing on Y4: whoever then leads it, you must follow with R6, which wins
    # the last trick and brings a fourth block or more, scored as the count alone.
    for b_declares in ("pass", "want"):
        st = kit.lesson_at(lid, 2).state.clone()
        st.apply("pass")
        st.apply(b_declares)
        while st.current_player != 0:
            st.apply(st.legal_actions()[0])
        assert [str(a) for a in st.legal_actions()] == ["play R6"]
        while st.round == 1:
            st.apply(st.legal_actions()[0])
        result = st.view(None)["results"][-1]
        assert result["last_winner"] == 0 and result["blocks"][0] >= 4
        assert result["scores"][0] == result["blocks"][0] < 9
    result = kit.lesson_at(lid, 4).state.view(None)["results"][-1]
    assert result["blocks"] == [3, 0, 5] and result["scores"] == [9, 5, 5]


def test_the_whole_game_numbers():
    lid = "crypto_trick/the-whole-game"
    run = kit.lesson_at(lid, 0)
    assert list(run.state.totals) == [11, 14, 9]
    ducked = run.state.clone()
    ducked.apply("play R2")  # the reply: 15 for you and 18 for B going into the last trick
    assert [t + s for t, s in zip(ducked.totals, _scores(ducked))][:2] == [15, 18]
    after = kit.lesson_at(lid, 1).state
    assert [t + s for t, s in zip(after.totals, _scores(after))][:2] == [20, 20]
    out = kit.lesson_at(lid, 2).state.outcome()
    assert out.winners == (0, 1) and tuple(out.scores) == (20, 20, 11)


def test_trick_winners_the_words_state():
    # following: either red wins the trick for you; trumps: a low trump, then the later 6.
    for move in ("play R5", "play R6"):
        st = kit.lesson_at("crypto_trick/following", 0).state.clone()
        st.apply(move)
        assert st.current_player == 0 and st.phase == "offer"
    trumps = kit.lesson_at("crypto_trick/trumps", 1).state
    assert trumps.view(None)["last_trick"]["winner"] == 0
    tie = kit.lesson_at("crypto_trick/trumps", 2).state.clone()
    tie.apply("play W1")  # the reply: a 1 is lower than C's 6
    assert tie.view(None)["last_trick"]["winner"] == 2
    assert kit.lesson_at("crypto_trick/trumps", 3).state.view(None)["last_trick"]["winner"] == 0


