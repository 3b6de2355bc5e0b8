"""Depot: loading a saved state accepts only states a game could reach.

``from_dict`` (and so a replay's hand-built ``position``) checks every field's type
and range and how the fields agree: who is to act after the standing play and the
passes (D5.1, D7.1), the phase, non-empty hands while the game runs (D8.1), card
conservation, the Storage target per round (D2.3, D7.3), the match records
(D10.2-D10.5) and the outcome. Each test here is a state the engine once loaded
and then crashed on or played on wrongly.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from cardwidgets import Replay
from cardwidgets.games import depot
from cardwidgets.games.depot import from_dict, new_game, setup_position


def _mid_game(players: int = 4, seed: int = 3, steps: int = 30, **options) -> depot.DepotState:
    st = new_game(players=players, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def _respond(players: int = 4) -> dict:
    """A saved state in the respond phase after at least one pass."""
    for seed in range(50):
        st = _mid_game(players, seed=seed, steps=17)
        if st.phase == "respond" and st.view(None)["passes"] >= 1:
            return st.to_dict()
    raise AssertionError("no respond position found")


def _refused(data: dict, words: str = "") -> ValueError:
    with pytest.raises(ValueError) as info:
        from_dict(data)
    assert words in str(info.value), str(info.value)
    return info.value


def _with(data: dict, **state) -> dict:
    out = copy.deepcopy(data)
    out["state"].update(state)
    return out


# --------------------------------------------------------------------------- crashes of the old loader
def test_a_finished_phase_needs_an_outcome():
    # Once loaded, and then outcome() built an Outcome from winners=None: TypeError.
    _refused(_with(_respond(), phase="finished"), "finished game")


@pytest.mark.parametrize("owner", [True, False, 1.5, -1, 9, "A"])
def test_the_standing_play_belongs_to_a_seat(owner):
    # Once loaded, and then the narration raised "no seat 1.5" in the middle of a game.
    data = _respond()
    data["state"]["standing"][0] = owner
    _refused(data)


def test_a_value_may_not_overflow_its_count():
    # 300 cards of one value spilled into the next value's byte: OverflowError, not ValueError.
    data = _respond()
    data["state"]["hands"][0] = [8] * 300
    _refused(data, "80")


def test_a_match_deals_every_game():
    # Penalty cards leave play (D10.5): a deck just big enough for game 1 ran out in game 3
    # with an IndexError. Such a deck is refused when the match is set up.
    with pytest.raises(ValueError, match="every game"):
        new_game(players=4, seed=1, games=3, deck_counts={1: 20, 2: 20})
    new_game(players=4, seed=1, games=3, deck_counts={1: 20, 2: 26})
    new_game(players=4, seed=1, games=3, deck_counts={1: 20, 2: 20}, penalty_cards_leave_play=False)
    st = new_game(players=4, seed=1, games=3, deck_counts={1: 20, 2: 26})
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert st.outcome().termination.value == "normal"


# --------------------------------------------------------------------------- states the old loader played on wrongly
def test_the_seat_to_act_follows_the_standing_play_and_the_passes():
    data = _respond()
    n = data["players"]
    cur = data["state"]["current"]
    for other in range(n):
        if other != cur:
            _refused(_with(data, current=other), "turn")


@pytest.mark.parametrize("passes", [-1, 3, 4, 10**6])
def test_n_minus_1_passes_end_the_round(passes):
    # With 3 passes in a row in a 4-player game the round would never end (D7.1).
    _refused(_with(_respond(), passes=passes), "passes")


def test_a_running_game_has_no_empty_hand():
    data = _respond()
    hands = data["state"]["hands"]
    victim = (data["state"]["current"] + 1) % data["players"]
    known = data["state"]["known"]
    for zone in (hands, known):
        zone[(victim + 1) % data["players"]] += zone[victim]
        zone[victim] = []
    _refused(data, "empty hand")


def test_cards_are_neither_created_nor_lost():
    data = _respond()
    grown = copy.deepcopy(data)
    grown["state"]["discard"].append(8)
    assert "extra [8]" in str(_refused(grown))
    lost = copy.deepcopy(data)
    lost["state"]["storage"].pop()
    _refused(lost, "missing")


def test_the_storage_target_grows_by_one_per_round():
    data = _respond()
    _refused(_with(data, target=data["state"]["target"] + 1), "target")
    _refused(_with(data, round=data["state"]["round"] + 1), "target")


def test_the_storage_never_exceeds_its_target():
    st = setup_position(4, [[1, 2], [3], [4], [5]], [1, 1, 2, 2, 3], target=5)
    data = st.to_dict()
    data["state"]["target"] = 3
    data["position"] = None
    _refused(data, "more than its target")


def test_a_standing_play_is_a_set_or_a_run():
    data = _respond()
    data["state"]["standing"][1] = [1, 3]
    _refused(data, "neither a set nor a run")


def test_the_last_action_agrees_with_the_table():
    data = _respond()
    _refused(_with(data, last=None), "missing")
    seat, action = data["state"]["last"]
    _refused(_with(data, last=[(seat + 1) % data["players"], action]), "previous player")


def test_a_lead_has_no_standing_play():
    data = _respond()
    _refused(_with(data, phase="lead"), "respond phase")


def test_round_one_is_led_by_the_starting_player():
    data = new_game(players=4, seed=2).to_dict()
    _refused(_with(data, current=2), "round 1")


# --------------------------------------------------------------------------- the match records
def _match_in_game_2() -> depot.DepotState:
    for seed in range(40):
        st = new_game(players=4, seed=seed, games=3)
        rng = random.Random(seed)
        while st.view(None)["game_no"] == 1:
            st.apply(rng.choice(st.legal_actions()))
        if not st.is_terminal:
            return st
    raise AssertionError


def test_match_records_add_up():
    st = _match_in_game_2()
    data = st.to_dict()
    from_dict(data)
    _refused(_with(data, lost=[v + 1 for v in data["state"]["lost"]]), "lost points")
    _refused(_with(data, penalties=[[] for _ in data["state"]["penalties"]]), "missing")
    _refused(_with(data, results=[]), "recorded")
    _refused(_with(data, game_no=3), "recorded")
    bad = copy.deepcopy(data)
    r = bad["state"]["results"][0]
    r["ranking"] = r["ranking"][1:] + r["ranking"][:1]
    _refused(bad)
    bad = copy.deepcopy(data)
    bad["state"]["results"][0]["cards_left"][0] += 1
    _refused(bad)
    _refused(_with(data, starter=(data["state"]["starter"] + 1) % 4), "D10.6")


def test_a_finished_match_names_its_winners():
    st = new_game(players=3, seed=5, games=3)
    rng = random.Random(5)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    data = st.to_dict()
    assert from_dict(data).outcome() == st.outcome()
    others = [s for s in range(3) if s not in st.outcome().winners]
    _refused(_with(data, winners=others), "winners")
    _refused(_with(data, reason="I won"), "winners")
    _refused(_with(data, termination="aborted"))


# --------------------------------------------------------------------------- saved starts and old files
def test_a_hand_built_start_must_be_a_position():
    st = setup_position(4, [[1, 2], [3], [4], [5]], [1, 2, 3, 4], deck=[5, 6])
    data = st.to_dict()
    assert from_dict(data).to_dict() == data
    for bad in ("x", 7, {}, {"x": 1}, [1]):
        _refused({**data, "position": bad})
    data["position"]["state"]["hands"][0] = []
    _refused(data)


def test_a_replay_of_a_hand_built_game_still_loads():
    st = setup_position(4, [[1, 2, 2], [3, 3], [4], [5]], [1, 2, 3, 4], deck=[5, 6, 7])
    st.apply("play 1 2")
    again = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert again.to_dict() == st.to_dict()


def test_states_saved_before_the_built_record_still_load():
    st = setup_position(4, [[1, 2], [3], [4], [5]], [1, 2, 3, 4], deck=[5, 6])
    data = json.loads(json.dumps(st.to_dict()))
    for d in (data["state"], data["position"]["state"]):
        for key in ("built", "known", "deck_known"):
            del d[key]
    assert from_dict(data).to_dict()["state"] == st.to_dict()["state"]


def test_hand_built_positions_keep_their_own_cards():
    # More 1s than the deck has: a teaching position, not a dealt game.
    st = setup_position(5, [[1] * 5] * 5, [2, 3, 4, 5])
    assert from_dict(st.to_dict()).to_dict() == st.to_dict()
    data = st.to_dict()
    data["state"]["hands"][0].append(1)
    _refused(data, "extra [1]")


def test_a_hand_built_start_played_on_loads():
    """A game played on from a hand-built start loads: its history replays from that start
    (tests/test_conformance.py refuses changed histories and seeds for every game)."""
    built = setup_position(3, [[1, 2], [3, 4], [5, 6]], [2, 3, 4])
    built.apply(built.legal_actions()[0])
    assert from_dict(built.to_dict()) == built


def test_no_game_has_a_set_longer_than_a_play_can_be_written():
    # 255 cards of a value were allowed, but a play names at most 80: a legal 90-card set was
    # offered to the RL adapters and the browser, and no replay or position could hold it.
    from cardwidgets.games.depot import MAX_COPIES, parse_action, setup_position

    with pytest.raises(ValueError, match="0 to 80"):
        new_game(players=3, seed=1, deck_counts={1: MAX_COPIES + 1, 2: 10})
    deck = {1: MAX_COPIES, 2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10, 8: 10}
    # the set limit is the Storage's (D3): 40 ones there let a set of the 40 in the hand be played
    st = setup_position(3, [[1] * 40 + [2], [3, 4], [5, 6]], [1] * 40 + [7], deck_counts=deck)
    longest = max((str(a) for a in st.legal_actions()), key=len)
    assert longest.count("1") == 40 and parse_action(longest) is not None
    st.apply(longest)
    assert type(st).from_dict(st.to_dict()).to_dict() == st.to_dict()
