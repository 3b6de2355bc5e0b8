"""cirno+neu: the simulation fast path (``apply_unchecked``) ends every action exactly
where the narrated path (``apply``) does, over many random games of every option and
from hand-built positions (short hands, empty draw piles, shot and double turns)."""

from __future__ import annotations

import random

import pytest

import kit
from cardwidgets.games.cirno_neu import SPEC, from_position, new_game, setup_position

CONFIGS = kit.spec_configs(SPEC) + [
    dict(players=3, shot_resume="after_target", shot_self_target=True, double_draw_timing="after_each",
         pass_ends_double_turn=True, first_dealer="random"),
    dict(players=6, life_system=True, lives=3, floor_at_zero=True, allow_voluntary_bust=True,
         auto_forced_bust=False, next_round_starter="rotate", reset_direction_each_round=False),
    dict(players=2, hand_size=1, deck_counts={"1": 2, "50": 1, "PASS": 2, "SHOT": 1, "DSHOT": 1, "DOUBLE": 1}),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=kit.label)
def test_fast_path_equals_narrated_path_action_by_action(cfg, report):
    n = 0
    for seed in range(6):
        n += kit.lockstep(new_game(seed=seed, **cfg), random.Random(seed))
    report("fast path", "cirno_neu", actions=n)


def test_fast_path_from_hand_built_positions():
    rng = random.Random(5)
    cases = [
        setup_position(4, [["4", "-1", "7"], ["7"], ["1"], ["2"]], sum=90, draw=["5", "6", "3"]),
        setup_position(3, [["7", "8"], ["9"], ["PASS"]], sum=80, draw=["1", "2", "3"]),
        setup_position(4, [["SHOT", "SHOT", "5"], ["7"], ["1"], ["2"]], sum=10, required=2),
        setup_position(4, [["7", "1", "2"], ["1", "PASS", "-10"], ["1", "PASS", "-10"], ["1", "PASS", "-10"]],
                       sum=53, draw=[], stack=["3", "10", "50", "PASS", "-10"]),
        from_position("cirno_neu/1 players=5 turn=C sum=95 hands=?3/?3/PASS,?2/?3/?3 stack=?6 draw=?", seed=3),
    ]
    for st in cases:
        for k in range(4):
            kit.lockstep(st.clone(), random.Random(rng.random()), steps=400)


def test_fast_path_reaches_the_cap_like_the_narrated_path(monkeypatch):
    from cardwidgets.games import cirno_neu

    monkeypatch.setattr(cirno_neu.state, "ACTION_BOUND", 50)
    st = new_game(players=3, seed=2, deck_counts={"1": 1, "PASS": 20, "DOUBLE": 5})
    assert kit.lockstep(st, random.Random(2)) == 50
    assert st.outcome().termination.value == "aborted"
