"""Depot rule scenarios: every scenario of the rules (DX-*, DE-*), one test each,
plus every refusal path and every option."""

from __future__ import annotations

import pytest

from cardwidgets import IllegalActionError, InvalidActionError
from cardwidgets.core import Termination
from cardwidgets.games import depot
from cardwidgets.games.depot import Pass, Play, new_game, parse_action, setup_position

A, B, C, D, E = range(5)
FILL = [1, 1, 1, 1, 1]  # a harmless hand for seats a scenario does not care about


def pos(players, hands=None, storage=(), **kw):
    hands = hands or {}
    return setup_position(players, [hands.get(s, FILL) for s in range(players)], list(storage), **kw)


def refused(st, action, rule, text=None):
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert info.value.rule == rule, str(info.value)
    if text is not None:
        assert text in str(info.value)
    assert st.to_dict() == before, "a refused action must change nothing"
    assert not st.is_legal(action)
    return info.value


def ok(st, action):
    assert st.is_legal(action), st.explain(action)
    assert parse_action(action) in st.legal_actions()
    return st.apply(action)


# --------------------------------------------------------------------------- scenarios rebuilt from the rulebook (DX)
def test_DX01_storage_limits():
    hand = [3, 3, 3, 4, 5, 6, 7, 7, 8]
    st = pos(4, {A: hand}, [2, 4, 5, 5, 6], target=5)
    assert st.limits == (2, 3)
    assert st.is_legal("play 7 7")
    refused(st, "play 3 3 3", "D4.4", "a set of 3 exceeds the set limit 2")
    assert st.is_legal("play 4 5 6") and st.is_legal("play 3 4 5")
    e = refused(st, "play 3 4 5 6", "D4.5", "a run of 4 exceeds the run limit 3")
    assert str(e).startswith("Illegal: rule D4.5 — ")
    ok(st, "play 7 7")


def test_DX02_pass_example():
    st = pos(4, {B: [1, 4, 4, 4, 9 - 1]}, [2, 4, 5, 5, 6], deck=[6, 6, 1, 2], standing=(A, [3]), current=B, target=5)
    ok(st, "pass take 5")
    assert st.hand(B) == [1, 4, 4, 4, 5, 5, 8]
    assert st.storage == [2, 4, 6, 6, 6]
    assert st.view(None)["deck"] == [1, 2]
    assert st.limits == (3, 1)
    assert st.standing == (A, (3,)) and st.view(None)["passes"] == 1 and st.current_player == C
    st._hands[C] = depot._counts([4, 4, 4, 5])
    assert st.is_legal("play 4 4 4")
    refused(st, "play 4 5", "D4.5", "a run of 2 exceeds the run limit 1")


def test_DX03_pair_of_twos_beats_one_two():
    st = pos(4, {B: [2, 2, 7]}, [3, 3, 5, 6], standing=(A, [1, 2]), current=B)
    ok(st, "play 2 2")
    assert st.view(None)["discard"] == [1, 2]


def test_DX04_pair_of_fours():
    st = pos(4, {B: [3, 4, 5]}, [1, 1, 4, 5], standing=(A, [4, 4]), current=B)
    refused(st, "play 3 4", "D4.7", "a 2-card play must beat [4,4] (total 8); [3,4] totals 7")
    ok(st, "play 4 5")


def test_DX05_no_wrap():
    st = pos(4, {A: [1, 8, 5]}, [1, 2, 7, 8])
    refused(st, "play 1 8", "D4.2", "8 and 1 are not consecutive")


def test_DX06_run_of_absent_values():
    st = pos(4, {A: [1, 2, 5]}, [4, 5, 7, 7])
    ok(st, "play 1 2")


def test_DX07_one_combination_at_a_time():
    st = pos(4, {A: [1, 1, 2, 2, 5]}, [1, 1, 2, 2, 3])
    refused(st, "play 1 1 2 2", "D4.2", "two sets (or two runs) cannot be played together")
    refused(st, "play 1 2 1 2", "D4.2", "two sets (or two runs) cannot be played together")


def test_DX08_leader_must_play():
    st = pos(4, {A: [1, 2]}, [4, 5, 6, 7])
    refused(st, "pass take 4", "D5.3", "the leader must play on the first turn of a round")
    assert all(isinstance(a, Play) for a in st.legal_actions())


def test_DX09_equal_strength_is_illegal():
    st = pos(4, {B: [2, 3, 4, 5, 6]}, [1, 2, 3, 3], standing=(A, [3, 4]), current=B)
    refused(st, "play 2 5", "D4.2")
    refused(st, "play 3 4", "D4.7", "[3,4] has the same strength (2 cards, total 7); it must be stronger")
    st = pos(4, {B: [6, 6]}, [1, 2, 3, 3], standing=(A, [6]), current=B)
    refused(st, "play 6", "D4.7")


def test_DX10_more_cards_win():
    st = pos(4, {B: [1, 1, 1]}, [2, 2, 2, 5], standing=(A, [8, 8]), current=B)
    ok(st, "play 1 1 1")


def test_DX11_give_differs_and_precedes_refill():
    st = pos(4, {B: [3, 5, 7]}, [2, 4, 5, 5, 6], deck=[8, 1], standing=(A, [1]), current=B, target=5)
    refused(st, "pass take 5 give 5", "D6.3", "the given card must differ from the taken value 5")
    events = ok(st, "pass take 5 give 3")
    assert st.hand(B) == [5, 5, 5, 7]
    assert st.storage == [2, 3, 4, 6, 8]
    assert st.limits[1] == 3
    # the pass is narrated first, then the refill it causes (D6.6: take, give, refill)
    assert [e.kind for e in events] == ["pass", "refill"] and events[1].data["drawn"] == [8]
    assert events[0].text == "B passes (rule D6): takes both 5s from the Storage and gives a 3."


def test_DX12_round_end():
    st = pos(4, {A: [6, 1]}, [1, 3, 3, 7], deck=[2, 5, 8, 4, 1], target=4)
    ok(st, "play 6")
    ok(st, "pass take 7")
    assert st.storage == [1, 2, 3, 3]
    ok(st, "pass take 1")
    assert st.storage == [2, 3, 3, 5]
    events = ok(st, "pass take 5")
    # the pass refills the Storage (D6.5), then the round ends and the bigger target refills it (D7.2)
    assert [e.kind for e in events] == ["pass", "refill", "round_end", "refill"]
    assert events[2].rule == "D7.1" and events[3].rule == "D7.2"
    assert "the Storage target grows to 5" in events[2].text
    assert st.storage == [2, 3, 3, 4, 8] and st.target == 5
    assert st.view(None)["discard"] == [6]
    assert st.view(None)["round"] == 2 and st.current_player == A and st.phase == "lead"


def test_DX13_passed_player_plays_again():
    st = pos(3, {A: [3, 1, 1], B: [6, 1, 1], C: [5, 1, 1]}, [2, 4, 7], deck=[1] * 10)
    ok(st, "play 3")
    ok(st, "pass take 2")
    ok(st, "play 5")
    ok(st, "pass take 4")
    ok(st, "play 6")
    assert st.view(None)["passes"] == 0 and st.view(None)["round"] == 1


def test_DX14_deck_runs_out_during_refill():
    st = pos(4, {B: [1]}, [1, 3, 3, 8], deck=[4], discard=[2, 2, 7], standing=(A, [5, 6]), current=B, target=4)
    events = ok(st, "pass take 3")
    # the pass first, then what it causes in the order it happens: the 4 drawn, the reshuffle, one
    # more drawn from the new deck (D6.5, D9.1); the last refill tells the Storage
    assert [e.kind for e in events] == ["pass", "refill", "reshuffle", "refill"]
    assert events[1].data["drawn"] == [4] and "Storage" not in events[1].text.split(":", 1)[1]
    assert len(events[3].data["drawn"]) == 1 and "set limit" in events[3].text
    assert len(st.storage) == 4 and st.storage[:3] == [1, 4, 8] or sorted(st.storage)[0] == 1
    v = st.view(None)
    assert v["deck_count"] == 2 and v["discard"] == [] and v["standing"] == {"owner": A, "cards": [5, 6]}
    assert sorted(st.storage + v["deck"]) == [1, 2, 2, 4, 7, 8]


def test_DX15_going_out_ends_the_game():
    st = pos(4, {A: [5, 6]}, [2, 3, 3, 5], standing=(D, [2, 3]), current=A)
    events = ok(st, "play 5 6")
    assert st.is_terminal and st.current_player is None and st.phase == "finished"
    assert st.outcome().winners == (A,)
    assert st.outcome().scores == (0, 5, 5, 5)
    assert st.storage == [2, 3, 3, 5] and st.target == 4
    assert events[-1].kind == "game_end" and events[-1].rule == "D8.1"
    refused(st, "play 1", "G1", "the game is over")
    assert st.legal_actions() == []


def _match_end(players, hands, storage, **options):
    """Position where seat A goes out with `play 8`, in a 3-game match."""
    hands = {A: [8], **hands}
    st = pos(players, hands, storage, standing=None, games=3, **options)
    ok(st, "play 8")
    return st


def test_DX16_match_scoring():
    st = _match_end(4, {B: [3, 5], C: [1, 2], D: [1, 1, 2, 4, 8]}, [2, 4, 4, 7, 8])
    res = st.view(None)["results"][0]
    assert res["ranking"] == [A, B, C, D]
    assert res["taken"] == [None, 4, 7, 8]
    assert st.view(None)["lost_points"] == [0, 4, 7, 8]
    assert st.view(None)["game_no"] == 2


def test_DX17_same_value_fallback():
    st = _match_end(3, {B: [1], C: [1, 1]}, [5, 5, 5])
    assert st.view(None)["results"][0]["taken"] == [None, 5, 5]


def test_DX18_nothing_to_take():
    st = _match_end(5, {B: [1], C: [1, 1], D: [1, 1, 1], E: [1, 1, 1, 1]}, [3, 6, 6, 7])
    res = st.view(None)["results"][0]
    assert res["taken"] == [None, None, 3, 6, 7]
    assert res["lost_points"] == [0, 0, 3, 6, 7]


# --------------------------------------------------------------------------- edge cases (DE)
def test_DE01_only_singles():
    st = pos(4, {A: [4, 4, 5]}, [1, 3, 5, 7])
    assert st.limits == (1, 1)
    refused(st, "play 4 4", "D4.4")
    refused(st, "play 4 5", "D4.5")
    ok(st, "play 4")


def test_DE02_no_wrap_separate_chains():
    st = pos(4, {A: [6, 7, 8]}, [1, 2, 7, 8])
    assert st.limits[1] == 2
    refused(st, "play 6 7 8", "D4.5")
    ok(st, "play 7 8")


def test_DE03_copies_do_not_lengthen_a_run():
    st = pos(4, {A: [1, 2, 3, 4]}, [3, 4, 4, 5])
    assert st.limits == (2, 3)
    refused(st, "play 1 2 3 4", "D4.5")


def test_DE04_run_with_repeated_value():
    st = pos(4, {A: [3, 3, 4]}, [1, 1, 1, 2, 3, 4, 5])
    refused(st, "play 3 3 4", "D4.2", "a run cannot repeat a value")


def test_DE05_fewer_cards_never_win():
    st = pos(4, {B: [8]}, [1, 2, 2, 3], standing=(A, [1, 2]), current=B)
    refused(st, "play 8", "D4.7", "cannot beat a 2-card play")


def test_DE06_standing_play_above_limits():
    st = pos(3, {A: [2, 3, 4, 1], B: [1, 2], C: [6, 6, 7, 8]}, [1, 5, 6, 7], target=4)
    ok(st, "play 2 3 4")
    ok(st, "pass take 6 give 1")
    assert st.storage == [1, 1, 5, 7] and st.limits == (2, 1)
    refused(st, "play 6 7 8", "D4.5")
    refused(st, "play 6 6", "D4.7")
    assert all(isinstance(a, Pass) for a in st.legal_actions())


def test_DE07_take_absent_value():
    st = pos(4, {B: [1]}, [2, 4, 6, 6], standing=(A, [3]), current=B)
    refused(st, "pass take 5", "D6.2", "there is no 5 in the Storage")


def test_DE08_pass_without_take_and_two_gives():
    st = pos(4, {B: [1, 3, 4]}, [2, 4], standing=(A, [3]), current=B)
    refused(st, Pass(None), "D6.2", "a value must be taken")
    with pytest.raises(InvalidActionError, match="at most one card may be given"):
        parse_action("pass take 2 give 3 give 4")


@pytest.mark.parametrize("text, words", [
    ("pass give", "'give' needs a value"),
    ("pass take 3 give", "'give' needs a value"),
    ("pass take 3 take 4", "'take' is out of place: a pass takes one value and gives at most one card"),
    ("pass 3 4", "'4' is out of place"),
    ("pass give 4 5", "at most one card may be given (D6.3)"),
    ("pass take 3 give 4 now", "nothing follows the given card"),
])
def test_a_malformed_pass_is_told_what_is_wrong_with_it(text, words):
    """Only a second card given is a D6.3 matter: a missing value or a second take is not."""
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert words in str(info.value)
    if "D6.3" not in words:
        assert "D6.3" not in str(info.value)


def test_DE09_counter_resets_on_any_play():
    st = pos(4, {s: [1, 2, 3, 4, 5, 6, 7, 8] for s in range(4)}, [1, 2, 3, 4], deck=[1] * 20)
    ok(st, "play 1")  # A
    ok(st, "pass take 1")  # B: 1
    ok(st, "play 2")  # C: 0
    ok(st, "pass take 2")  # D: 1
    ok(st, "pass take 3")  # A: 2
    assert st.view(None)["round"] == 1
    events = ok(st, "pass take 4")  # B: 3 = n-1
    assert [e.kind for e in events][:3] == ["pass", "refill", "round_end"]
    assert st.current_player == C and st.phase == "lead"  # DE-25: the owner leads


def test_DE10_give_the_card_held_before_taking():
    st = pos(4, {B: [4]}, [2, 2, 6], standing=(A, [3]), current=B, deck=[1, 1])
    ok(st, "pass take 2 give 4")
    assert st.hand(B) == [2, 2]


def test_DE11_nothing_left_to_draw():
    st = pos(3, {B: [1], C: [1, 1]}, [6, 6, 7, 7, 8], standing=(A, [5]), current=B, target=5)
    preview = [e.text for e in st.explain("pass take 6", seat=B).effects]  # deck and discard: public, empty
    events = ok(st, "pass take 6")
    assert any(e.rule == "D9.2" for e in events)
    assert st.storage == [7, 7, 8] and st.target == 5 and st.limits == (2, 2)
    assert st.is_legal("play 1 1")
    # The narration says what the Storage is now, and the preview no longer promises a refill.
    assert events[-1].text.endswith("Storage [7,7,8] — set limit 2, run limit 2.")
    assert "refilled" not in " ".join(preview) and "Storage [7,7,8]" in " ".join(preview)


def test_DE12_round_end_reshuffles_the_discarded_play():
    st = pos(3, {A: [1, 2], B: [1], C: [1]}, [2, 3, 4], standing=(A, [8]), current=B, target=3)
    ok(st, "pass take 2 give 1")
    # B's pass left the Storage short and nothing could be drawn
    events = ok(st, "pass take 3")
    kinds = [e.kind for e in events]
    # the pass leaves the Storage short (D9.2); the round ends (D7.1); its play is discarded and
    # reshuffled into the new deck to refill the Storage to the new target (D7.2, D9.1)
    assert kinds == ["pass", "short", "round_end", "reshuffle", "refill", "short"]
    assert 8 in st.storage and st.target == 4 and st.current_player == A


def test_DE13_leader_plays_anything():
    st = pos(4, {A: [1, 5]}, [2, 4, 6, 8])
    ok(st, "play 1")


def test_DE14_pass_while_holding_a_legal_play():
    st = pos(4, {B: [8, 8]}, [2, 4, 6, 8], standing=(A, [1]), current=B)
    assert st.is_legal("play 8")
    ok(st, "pass take 2")


def test_DE15_give_creates_a_run():
    st = pos(4, {B: [3, 5]}, [2, 4, 6, 6], standing=(A, [1]), current=B, deck=[7, 1])
    ok(st, "pass take 6 give 3")
    assert st.storage == [2, 3, 4, 7] and st.limits[1] >= 3


def test_DE16_limit_checked_before_strength():
    st = pos(4, {B: [1, 1, 1]}, [2, 2, 5, 6], standing=(A, [8]), current=B)
    refused(st, "play 1 1 1", "D4.4")


def test_DE17_error_precedence():
    st = pos(4, {B: [1, 2, 3]}, [1, 2, 5, 5, 4 + 4], standing=(A, [7, 8]), current=B)
    assert st.limits[1] == 2
    refused(st, "play 1 2 3", "D4.5")
    refused(st, "play 1 2", "D4.7")


def test_DE18_full_rank_tie():
    st = pos(4, {A: [1, 4], B: [8], C: [2, 3], D: [1, 1, 1]}, [5, 6, 7],
             standing=(D, [1]), current=B, games=3)
    ok(st, "play 8")
    assert st.view(None)["results"][0]["ranking"] == [B, C, A, D]


def test_DE19_second_place_takes_the_lowest():
    st = _match_end(5, {B: [1], C: [1, 1], D: [1, 1, 1], E: [1, 1, 1, 1]}, [1, 3, 5, 8])
    assert st.view(None)["results"][0]["taken"] == [None, 1, 3, 5, 8]


def test_DE20_copies_and_the_cascade():
    st = _match_end(5, {B: [1], C: [1, 1], D: [1, 1, 1], E: [1, 1, 1, 1]}, [2, 2, 8, 8])
    assert st.view(None)["results"][0]["taken"] == [None, None, 2, 2, 8]


def test_DE21_greedy_penalties():
    st = _match_end(5, {B: [1], C: [1, 1], D: [1, 1, 1], E: [1, 1, 1, 1]}, [2, 2, 8, 8], penalty_mode="greedy")
    assert st.view(None)["results"][0]["taken"] == [None, 2, 2, 8, 8]


@pytest.mark.parametrize("leave, deck_left", [(True, 37), (False, 40)])
def test_DE22_penalty_cards_leave_play(leave, deck_left):
    st = new_game(players=4, seed=3, games=3, penalty_cards_leave_play=leave)
    # End game 1 at once: A goes out holding a single card, Storage [4,7,8,8].
    st._hands = [depot._counts(h) for h in ([8], [1, 2], [1, 2, 3], [1, 2, 3, 4])]
    # keep the 80-card total: everything else is in deck/discard for this check
    st._storage = depot._counts([4, 7, 8, 8])
    ok(st, "play 8")
    v = st.view(None)
    assert v["game_no"] == 2
    assert sorted(x for pile in v["penalties"] for x in pile) == ([4, 7, 8] if leave else [])
    assert v["deck_count"] == deck_left
    assert sum(v["hand_counts"]) == 36 and len(v["storage"]) == 4


def test_DE23_empty_storage():
    st = pos(4, {B: [5]}, [], standing=(A, [3]), current=B)
    refused(st, "pass give 5", "D6.4", "giving your last card would empty your hand")
    refused(st, "pass take 5", "D6.2", "the Storage is empty")
    assert [str(a) for a in st.legal_actions()] == ["play 5", "pass"]
    ok(st, "pass")
    st2 = pos(4, {B: [4]}, [], standing=(A, [3]), current=B)
    ok(st2, "play 4")


def test_DE24_a_pass_never_ends_the_game():
    st = pos(4, {B: [5]}, [2, 3], standing=(A, [6]), current=B, deck=[1, 1])
    ok(st, "pass take 2 give 5")
    assert not st.is_terminal and st.hand(B) == [2]


def test_DE26_five_player_setup():
    st = new_game(players=5, seed=0, starting_player=2)
    v = st.view(None)
    assert v["hand_counts"] == [8] * 5 and len(v["storage"]) == 4 and v["deck_count"] == 36
    assert v["target"] == 4 and st.current_player == 2


def test_DE27_target_keeps_growing():
    st = new_game(players=4, seed=5)
    rounds = 0
    while rounds < 3:
        lead = st.legal_actions()[0]
        st.apply(lead)
        for _ in range(3):
            st.apply(next(a for a in st.legal_actions() if isinstance(a, Pass)))
        rounds += 1
    assert st.target == 7 and len(st.storage) == 7


# --------------------------------------------------------------------------- setup and deal
def test_setup_table():
    for n, hand, t0, deck_left in [(3, 9, 3, 50), (4, 9, 4, 40), (5, 8, 4, 36)]:
        v = new_game(players=n, seed=1).view(None)
        assert v["hand_counts"] == [hand] * n and len(v["storage"]) == t0 and v["deck_count"] == deck_left


def test_deck_order_deals_clockwise_from_the_starter():
    order = [v for v in range(1, 9) for _ in range(depot.DEFAULT_DECK[v])]
    st = new_game(players=3, seed=0, deck=order, starting_player=1)
    # 13 ones then 12 twos ...: deal one at a time starting with seat 1.
    hands = [st.hand(s) for s in range(3)]
    assert hands[1][:5] == [1, 1, 1, 1, 1]
    assert st.storage == sorted(order[27:30])
    assert st.view(None)["deck"] == order[30:]
    dealt = [order[i] for i in range(27)]
    assert sorted(dealt[0::3]) == hands[1] and sorted(dealt[1::3]) == hands[2] and sorted(dealt[2::3]) == hands[0]


def test_bad_deck_says_what_is_missing():
    order = [v for v in range(1, 9) for _ in range(depot.DEFAULT_DECK[v])]
    with pytest.raises(ValueError, match=r"missing 1×8; extra 1×1"):
        new_game(players=4, deck=order[:-1] + [1])
    with pytest.raises(ValueError, match="not a Depot card"):
        new_game(players=4, deck=order[:-1] + [9])


def test_options_validated():
    with pytest.raises(TypeError, match="unknown option"):
        new_game(players=4, gmaes=3)
    with pytest.raises(ValueError, match="allowed values: 1, 3"):
        new_game(players=4, games=2)
    with pytest.raises(ValueError, match="allowed values: 3, 4, 5"):
        new_game(players=6)
    with pytest.raises(ValueError, match="starting_player"):
        new_game(players=3, starting_player=3)
    with pytest.raises(ValueError, match="games=True"):
        new_game(players=4, games=True)


def test_random_starting_player_is_seeded():
    a = [new_game(players=5, seed=s, starting_player="random").current_player for s in range(20)]
    b = [new_game(players=5, seed=s, starting_player="random").current_player for s in range(20)]
    assert a == b and len(set(a)) > 1


def test_refill_target_noted_option():
    # Short Storage (D9.2): noted refill aims for the size at the start of the pass.
    kw = dict(standing=(A, [5]), current=B, target=5, deck=[1, 2, 3, 4])
    st = pos(3, {B: [1]}, [6, 7, 8], refill_target="noted", **kw)
    ok(st, "pass take 6")
    assert len(st.storage) == 3
    st = pos(3, {B: [1]}, [6, 7, 8], **kw)
    ok(st, "pass take 6")
    assert len(st.storage) == 5


def test_reshuffle_timing_when_empty():
    kw = dict(standing=(A, [5, 6]), current=B, target=4, deck=[4], discard=[2, 2, 7])
    st = pos(4, {B: [1]}, [1, 3, 3, 8], reshuffle_timing="when_empty", **kw)
    events = ok(st, "pass take 3")
    assert [e.kind for e in events][:2] == ["reshuffle", "pass"] or "reshuffle" in [e.kind for e in events]
    assert len(st.storage) == 4 and st.view(None)["discard"] == []


def test_max_turns_aborts():
    st = new_game(players=4, seed=1, max_turns=5)
    for _ in range(5):
        st.apply(st.legal_actions()[-1])
    out = st.outcome()
    assert st.is_terminal and out.termination is Termination.ABORTED and out.winners == ()
    assert "safety cap" in out.reason


def _play_out(st, pick=lambda legal: legal[0]):
    while not st.is_terminal:
        st.apply(pick(st.legal_actions()))
    return st


def test_full_match_next_game_starter_and_tie_options():
    import random

    for starter in ("last_place", "winner", "rotate"):
        for tie in ("shared", "last_game_rank"):
            r = random.Random(7)
            st = _play_out(new_game(players=3, seed=11, games=3, next_game_starter=starter, match_tie=tie),
                           lambda legal: r.choice(legal))
            out = st.outcome()
            v = st.view(None)
            assert len(v["results"]) == 3 and out.scores == tuple(v["lost_points"])
            best = min(out.scores)
            assert all(out.scores[w] == best for w in out.winners)
            if tie == "last_game_rank":
                assert len(out.winners) == 1


def test_next_game_starter_is_last_place():
    st = _match_end(4, {B: [3, 5], C: [1, 2], D: [1, 1, 2, 4, 8]}, [2, 4, 4, 7, 8])
    assert st.current_player == D
    st = _match_end(4, {B: [3, 5], C: [1, 2], D: [1, 1, 2, 4, 8]}, [2, 4, 4, 7, 8], next_game_starter="winner")
    assert st.current_player == A
    st = _match_end(4, {B: [3, 5], C: [1, 2], D: [1, 1, 2, 4, 8]}, [2, 4, 4, 7, 8], next_game_starter="rotate")
    assert st.current_player == B


def test_rank_tiebreak_random_is_seeded():
    res = set()
    for seed in range(12):
        st = pos(4, {A: [1, 4], B: [8], C: [2, 3], D: [1, 1, 1]}, [5, 6, 7],
                 standing=(D, [1]), current=B, games=3, rank_tiebreak="random", seed=seed)
        ok(st, "play 8")
        res.add(tuple(st.view(None)["results"][0]["ranking"]))
    assert res == {(B, C, A, D), (B, A, C, D)}


# --------------------------------------------------------------------------- notation
@pytest.mark.parametrize("text, canonical", [
    ("play 5", "play 5"), ("PLAY 5,5", "play 5 5"), ("play 5 4 3", "play 3 4 5"),
    ("pass take 3", "pass take 3"), ("pass 3", "pass take 3"), ("pass 3 give 7", "pass take 3 give 7"),
    ("Pass Take 3 Give 7", "pass take 3 give 7"), ("pass", "pass"), ("pass give 5", "pass give 5"),
])
def test_notation_round_trip(text, canonical):
    a = parse_action(text)
    assert str(a) == canonical and parse_action(str(a)) == a
    assert eval(repr(a), {"Play": Play, "Pass": Pass}) == a


@pytest.mark.parametrize("text", ["", "play", "play 0", "play 9", "play x", "fold", "pass take", "pass give",
                                  "pass take 3 give", "pass take 3 keep 4", "pass 3 4"])
def test_malformed_text(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_apply_accepts_text_and_objects_and_refuses_other_things():
    st = pos(4, {A: [5, 5, 6]}, [5, 5, 1, 2])
    before = st.to_dict()
    with pytest.raises(InvalidActionError):
        st.apply(42)
    with pytest.raises(InvalidActionError):
        st.apply("play banana")
    assert st.to_dict() == before
    st.apply(Play((5, 5)))
    assert st.history == (Play((5, 5)),)


def test_wrong_seat_is_G3():
    st = pos(4, {A: [5]}, [5, 5, 1, 2])
    with pytest.raises(IllegalActionError) as info:
        st.apply("play 5", seat=B)
    assert info.value.rule == "G3" and "A's turn" in str(info.value)


def test_narration_cites_rules():
    st = pos(4, {A: [4, 4, 1], B: [4, 5, 1]}, [2, 4, 5, 5, 6], deck=[1, 2])
    st.apply("play 4 4")
    e = st.apply("play 4 5")[0]
    assert e.text == ("B plays [4,5] (run of 2, total 9; limits: set 2, run 3). It beats [4,4] "
                      "(2 cards, total 8) — rule D4.6.")
    e = st.apply("pass take 2")[0]
    assert e.text == "C passes (rule D6): takes the 2 from the Storage." and e.rule == "D6"


def test_str_is_a_compact_table():
    text = str(pos(4, {A: [4, 4]}, [2, 4, 5, 5, 6]))
    assert "Storage [2,4,5,5,6] (set 2, run 3)" in text and "> A [4,4]" in text


def test_a_game_looping_on_purpose_stops_at_the_engines_safety_cap_under_G4():
    """With max_turns=None (no cap asked for) a loop played on purpose still ends: the engine's
    own bound stops it as aborted, citing G4, the library's safety cap, not D9.3's option."""
    path = ["play 1", "play 2", "play 3", "pass", "pass take 1", "play 1", "play 2", "play 3", "pass take 2",
            "pass take 2", "play 1", "pass take 3", "play 2", "pass take 1", "play 3", "pass take 1",
            "pass take 2", "play 2", "pass take 3", "play 3", "pass", "pass take 2"]
    cycle = ["play 1", "play 2", "play 3", "pass take 3", "pass take 1", "play 1", "pass take 2", "pass take 3",
             "play 1", "play 2", "play 3", "pass take 1", "pass take 1", "play 1", "pass take 3", "play 3",
             "pass take 2", "pass take 1"]
    st = depot.setup_position(3, [[1, 1, 2], [2, 3, 3], [1, 2, 3]], [], target=12)
    assert st.options["max_turns"] is None
    for a in path:
        st.apply(a)
    def cards(v):
        return v["hands"], v["storage"], v["deck"], v["discard"], v["current"]

    start = cards(st.view(None))
    for a in cycle:
        st.apply(a)
    assert cards(st.view(None)) == start  # the same cards in the same places: it could go on for ever
    events = []
    while not st.is_terminal:
        for a in cycle:
            if st.is_terminal:
                break
            events = st.apply(a)
    out = st.outcome()
    assert out.termination.name == "ABORTED" and out.winners == ()
    assert out.reason == "stopped by the engine's safety cap of 20,000 turns (rule G4)"
    assert events[-1].kind == "abort" and events[-1].rule == "G4"
    # A cap asked for is the option's (D9.3).
    st = depot.setup_position(3, [[1, 1, 2], [2, 3, 3], [1, 2, 3]], [], target=12, max_turns=len(path))
    events = [e for a in path for e in st.apply(a)]
    assert st.outcome().reason == f"stopped after {len(path)} turns by the max_turns safety cap (rule D9.3)"
    assert events[-1].rule == "D9.3"


def test_the_wrap_around_note_is_given_only_where_a_wrap_would_make_a_run():
    """D3.4's note (8 and 1 are not consecutive) explains [1,8] or [1,2,3,8]; [1,5,8] is no run
    with or without a wrap, so the note would mislead there."""
    st = setup_position(3, [[1, 2, 3, 5, 7, 8], [2], [3]], [1, 1, 2, 3, 4, 5])
    for text in ("play 1 8", "play 1 2 3 8", "play 1 7 8"):
        assert "8 and 1 are not consecutive, D3.4" in st.explain(text).reason, text
    for text in ("play 1 5 8", "play 1 3", "play 2 8"):
        reason = st.explain(text).reason
        assert st.explain(text).rule == "D4.2" and "D3.4" not in reason, (text, reason)


def test_an_aborted_match_keeps_its_lost_points_as_scores():
    """A match counts lost points (D10.4); stopped by a cap in game 2, it used to report that game's
    hand sizes and drop game 1's lost points."""
    import random

    st = new_game(players=3, seed=1, games=3, max_turns=60)
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply_unchecked(rng.choice(st.legal_actions()))
    out = st.outcome()
    assert out.termination is Termination.ABORTED and out.winners == () and st.view(None)["game_no"] == 2
    assert out.scores == tuple(st.view(None)["lost_points"]) and sum(out.scores) > 0


def test_a_match_tie_settled_by_the_last_game_says_so():
    """With match_tie='last_game_rank' the reason names the tie and how it was settled (D10.7)."""
    import random

    st = new_game(players=3, seed=26, games=3, match_tie="last_game_rank")
    r = random.Random(26)
    while not st.is_terminal:
        st.apply_unchecked(r.choice(st.legal_actions()))
    lost = st.view(None)["lost_points"]
    tied = [s for s in range(3) if lost[s] == min(lost)]
    out = st.outcome()
    assert len(tied) == 2 and len(out.winners) == 1 and out.winners[0] in tied
    assert f"{' and '.join('ABC'[s] for s in tied)} tied with {min(lost)}" in out.reason
    assert f"the last game's ranking puts {'ABC'[out.winners[0]]} first" in out.reason
