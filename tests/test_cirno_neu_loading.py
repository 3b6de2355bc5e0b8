"""cirno+neu: loading a saved state accepts only positions the rules can reach, and a
match never runs past its declared bound.

Each refused case below is a real mid-game ``to_dict()`` with one field changed; the
ones marked *regression* loaded before and then hung, crashed or had no legal action.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from cardwidgets import Replay, ReplayError
from cardwidgets.core import Termination
from cardwidgets.games import cirno_neu
from cardwidgets.games.cirno_neu import ACTION_BOUND, SPEC, from_dict, new_game, setup_position
from test_position_fuzz import watchdog


def mid_game(players: int = 4, seed: int = 3, steps: int = 9, **options) -> dict:
    """``to_dict()`` of a seeded random game after ``steps`` actions."""
    st = new_game(players=players, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        st.apply_unchecked(rng.choice(st.legal_actions()))
    assert not st.is_terminal
    return st.to_dict()


def changed(data: dict, **fields) -> dict:
    out = copy.deepcopy(data)
    out["state"].update(fields)
    return out


def refused(data: dict, words: str) -> None:
    with watchdog(10, "loading"):
        with pytest.raises(ValueError) as info:
            from_dict(data)
    assert words in str(info.value), str(info.value)


def test_a_real_game_loads_at_every_step():
    st = new_game(players=5, seed=8, life_system=True)
    rng = random.Random(8)
    while True:
        again = from_dict(json.loads(json.dumps(st.to_dict())))
        assert again.to_dict() == st.to_dict()
        if st.is_terminal:
            break
        st.apply_unchecked(rng.choice(st.legal_actions()))


# --------------------------------------------------------------------------- regressions
@pytest.mark.parametrize("active", [[True, None, True, True], [True, False, True, True], [True, {}, True, True],
                                    [None, True, True, True], [1, 1, 1, 1]])
def test_regression_active_flags_must_be_booleans_matching_the_eliminated(active):
    # A null or flipped flag loaded, and play then looped forever in the turn order.
    refused(changed(mid_game(), active=active), "active" if active != [True, False, True, True] else "out")


@pytest.mark.parametrize("value", [True, False, 1.5, "0"])
def test_regression_turn_fields_are_typed(value):
    # shot_target=True loaded and the next turn raised ValueError("no seat True");
    # played=1.5 loaded and raised TypeError.
    data = mid_game()
    refused(changed(data, shot_target=value), "shot_target")
    refused(changed(data, played=value), "played")


@pytest.mark.parametrize("out", [[[]], [7, {}], [0, 0]])
def test_regression_eliminated_seats_are_seats(out):
    # A list inside "out" loaded and the first bust raised TypeError (unhashable).
    refused(changed(mid_game(), out=out), "out")


def test_regression_hands_cannot_be_emptied():
    # Empty hands loaded into a running game with no legal action.
    data = mid_game()
    refused(changed(data, hands=[[], [], [], []]), "cards were created or lost")
    hands = data["state"]["hands"]
    moved = copy.deepcopy(hands)
    moved[1] += moved[0]
    moved[0] = []
    refused(changed(data, hands=moved), "hands:")


def test_regression_a_replay_file_with_a_null_active_flag_is_refused(tmp_path):
    """A hand-built position whose seat has ``active: null`` loaded, and its moves then
    froze the kernel while the file was read."""
    st = setup_position(2, [["5", "7", "PASS"], ["1", "2", "3"]], sum=10)
    rep = json.loads(Replay.from_state(st).to_json())
    rep["position"]["state"]["active"][1] = None
    rep["actions"] = ["play 5", "play 7", "play pass"]
    path = tmp_path / "frozen.json"
    path.write_text(json.dumps(rep, indent=1))
    with watchdog(10, "loading the replay"):
        with pytest.raises(ReplayError) as info:
            Replay.load(path)
    assert info.value.line is not None and "active" in str(info.value)


def test_regression_a_one_card_game_is_refused():
    # Playing the only card left nobody holding one: RuntimeError inside apply().
    with pytest.raises(ValueError, match="at least 2 cards"):
        setup_position(2, [["PASS"], []], draw=[])


# --------------------------------------------------------------------------- the bound (G4)
def test_max_actions_is_a_true_bound_and_the_cap_aborts_there():
    """With one plus card and DOUBLEs only no round can end: every turn plays 2 cards. The
    cap counted turns, so such a match ran to 40,000 actions past its declared 20,000."""
    opts = {"deck_counts": {"1": 1, "DOUBLE": 30}}
    assert SPEC.max_actions(2, opts) == ACTION_BOUND
    st = new_game(players=2, seed=1, **opts)
    narrated = st.clone()
    rng = random.Random(1)
    while not st.is_terminal:
        assert st.move_count < ACTION_BOUND
        st.apply_unchecked(rng.choice(st.legal_actions()))
    assert st.move_count == ACTION_BOUND
    out = st.outcome()
    assert out.termination is Termination.ABORTED and out.winners == ()
    assert out.reason == "stopped by the engine's safety cap of 20,000 actions (rule G4)"
    # The narrated path ends at the same action with the same outcome and says why.
    rng = random.Random(1)
    events = []
    while not narrated.is_terminal:
        events = narrated.apply(rng.choice(narrated.legal_actions()))
    assert narrated.to_dict() == st.to_dict()
    assert events[-1].kind == "abort" and events[-1].rule == "G4"
    assert from_dict(st.to_dict()).outcome() == out


def test_a_running_match_at_the_bound_is_refused():
    data = mid_game()
    data["history"] = ["play pass"] * ACTION_BOUND
    refused(data, "fewer than 20,000 actions")


# --------------------------------------------------------------------------- consistency
def _field_cases():
    data = mid_game()
    st = data["state"]
    cases = {
        "sum over the limit": (changed(data, sum=120), "sum"),
        "current is not the actor": (changed(data, cp=(st["actor"] + 1) % 4), "current"),
        "current is a bool": (changed(data, cp=bool(st["cp"]) if st["cp"] in (0, 1) else True), "current"),
        "direction 0": (changed(data, dir=0), "dir"),
        "direction True": (changed(data, dir=True), "dir"),
        "round out of step with the busts": (changed(data, round=st["round"] + 1), "round"),
        "required 3": (changed(data, required=3), "required"),
        "played as many as required": (changed(data, played=st["required"]), "played"),
        "a card too many": (changed(data, draw=st["draw"] + ["50"]), "created or lost"),
        "an unknown card": (changed(data, draw=st["draw"][:-1] + ["51"]), "not a card"),
        "chips without the life system": (changed(data, chips=[1, 0, 0, 0]), "chips"),
        "a bust record in round 1": (changed(data, bust={"seat": 0, "sum": 95, "hand": ["10", "50", "8"],
                                                          "card": None, "forced": True, "round": 1}), "bust"),
        "a shot target before any card": (changed(data, played=0, shot_target=(st["actor"] + 1) % 4), "shot"),
        "termination junk": (changed(data, termination="won"), "valid"),
        "built junk": (changed(data, built={"1": -1}), "built"),
        "built not the zones": (changed(data, built={"1": 59}), "created or lost"),
        "hands not a list": (changed(data, hands="1,2,3"), "hands"),
    }
    bad_deck = copy.deepcopy(data)
    bad_deck["deck"] = ["x"]
    cases["deck order junk"] = (bad_deck, "deck")
    bad_origin = copy.deepcopy(data)
    bad_origin["position"] = {"game": "cirno_neu"}
    cases["hand-built start junk"] = (bad_origin, "position")
    bad_history = copy.deepcopy(data)
    bad_history["history"] = ""
    cases["history not a list"] = (bad_history, "history")
    return cases


CASES = _field_cases()


@pytest.mark.parametrize("name", list(CASES))
def test_inconsistent_fields_are_refused(name):
    data, words = CASES[name]
    refused(data, words)


def test_the_actor_and_the_dealer_are_in_the_match():
    st = setup_position(4, [["5", "PASS", "-1"], ["10", "50", "8"], ["1", "2", "3"], ["4", "6", "7"]], sum=90)
    st.apply("play 5")  # B is forced and out; C deals round 2
    data = st.to_dict()
    assert data["state"]["active"] == [True, False, True, True]
    refused(changed(data, actor=1, cp=1, anchor=1), "actor: a player in the match")
    refused(changed(data, dealer=1), "dealer: a player in the match")


def test_first_turn_of_a_round_is_the_dealers():
    st = new_game(players=4, seed=2)
    data = st.to_dict()
    refused(changed(data, sum=5), "first turn")
    refused(changed(data, dir=-1), "first turn")
    other = (st.dealer + 1) % 4
    refused(changed(data, actor=other, anchor=other, cp=other), "first turn")


def test_a_shot_that_ended_the_last_turn_gives_a_shot_turn():
    st = setup_position(4, [["SHOT", "1", "2"], ["1", "2", "3"], ["4", "5", "6"], ["7", "8", "PASS"]])
    st.apply("play shot @2")
    data = st.to_dict()
    assert data["state"]["shot_turn"] is True
    refused(changed(data, shot_turn=False, anchor=2), "shot turn")
    refused(changed(data, anchor=3), "shot turn")


def test_an_unsettled_position_is_refused_but_setup_settles_it():
    data = setup_position(4, [["1", "PASS", "-1"], ["10", "50", "8"], ["1", "2", "3"], ["4", "5", "6"]],
                          sum=60).to_dict()
    refused(changed(data, sum=95, cp=1, actor=1, anchor=1), "no safe card")
    st = setup_position(4, [["1", "PASS", "-1"], ["10", "50", "8"], ["1", "2", "3"], ["4", "5", "6"]],
                        sum=95, actor=1)
    assert not st.active[1] and st.round == 2  # the forced bust was carried out (N4.4)


def test_hand_built_positions_keep_their_own_cards():
    """A hand-built match plays with exactly the cards it placed (short hands, four 1s)."""
    st = setup_position(4, [["1", "1", "PASS"], ["1"], ["1"], ["2"]], sum=20, draw=["5", "6"])
    assert st.all_cards() == {"1": 4, "PASS": 1, "2": 1, "5": 1, "6": 1}
    again = from_dict(st.to_dict())
    assert again.to_dict() == st.to_dict()
    rng = random.Random(0)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
        assert from_dict(st.to_dict()).to_dict() == st.to_dict()
        assert sum(st.all_cards().values()) == 8
    # its cards cannot change on the way
    data = again.to_dict()
    refused(changed(data, draw=["5", "6", "7"]), "created or lost")


def test_states_saved_before_the_built_field_load_as_hand_built():
    st = setup_position(3, [["7", "8"], ["9"], ["PASS"]], sum=80, draw=["1", "2", "3"])
    data = st.to_dict()
    del data["state"]["built"]
    del data["position"]["state"]["built"]
    again = from_dict(data)
    assert again.all_cards() == st.all_cards() and again.view(None) == st.view(None)


def test_an_eliminated_player_holds_no_cards_in_a_hand_built_position():
    with pytest.raises(ValueError, match="eliminated player holds no cards"):
        setup_position(3, [["1", "2", "3"], ["4"], ["5", "6", "7"]], active=[True, False, True])


def test_module_reexports():
    assert cirno_neu.from_dict is from_dict
