"""cirno+neu rule scenarios: every scenario of the rules (NX-*, NE-*),
one test each, plus every refusal path, every option and the notation
and random playouts over every player count and mode."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardwidgets.core import IllegalActionError, InvalidActionError
from cardwidgets.games import cirno_neu
from cardwidgets.games.cirno_neu import DEFAULT_DECK, TOKENS, Play, new_game, parse_action, setup_position

A, B, C, D = range(4)
FILL = ["1", "PASS", "-10"]  # a harmless hand for seats a scenario does not care about


def pos(hands=None, players=4, **kw):
    """A scenario fixture: seats A, B, C, D; clockwise; elimination; a full draw pile
    (eliminated seats hold no cards)."""
    hands = hands or {}
    active = kw.get("active") or [True] * players
    return setup_position(players, [hands.get(s, FILL if active[s] else []) for s in range(players)], **kw)


def refused(st, action, rule, text=None):
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(f"Illegal: rule {rule} — ")
    if text is not None:
        assert text in str(info.value), str(info.value)
    assert st.to_dict() == before, "a refused action must change nothing"
    if isinstance(action, str) and "," not in action:
        assert not st.is_legal(action)
    return info.value


def ok(st, action):
    if "," not in action:
        assert st.is_legal(action), st.explain(action)
        assert parse_action(action) in st.legal_actions()
    events = st.apply(action)
    assert events and all(e.text and e.rule for e in events)
    return events


def hand(st, seat):
    return Counter(st.hand(seat))


def turn(st):
    t = st.turn
    return (t["actor"], t["required"], t["kind"], t["anchor"])


def order(st, n):
    """Who plays the next ``n`` turns, each playing a harmless card (PASS or a minus card)."""
    seats = []
    for _ in range(n):
        p = st.current_player
        seats.append(p)
        for _card in range(st.turn["required"]):
            h = st.hand(p)
            card = next((c for c in ("PASS", "-1", "-10") if c in h), h[0])
            st.apply(f"play {card}")
    return seats


def texts(events):
    return [e.text for e in events]


# --------------------------------------------------------------------------- scenarios rebuilt from the rulebook (NX)
def test_NX01_setup():
    st = new_game(players=4, seed=3, first_dealer=0)
    assert [len(st.hand(s)) for s in range(4)] == [3, 3, 3, 3]
    assert len(st.draw_pile) == 47 and st.sum == 0 and st.direction == 1
    assert st.current_player == A and st.turn["required"] == 1 and st.turn["kind"] == "normal"
    assert st.round == 1 and st.dealer == A and st.phase == "play"
    assert sum(st.all_cards().values()) == 59
    life = new_game(players=4, seed=3, life_system=True)
    assert life.chips == (2, 2, 2, 2) and sum(life.chips) == 8
    # setup table of N2.4
    for n, pile in {2: 53, 3: 50, 5: 44, 6: 41, 7: 38, 8: 35}.items():
        st = new_game(players=n, seed=n, life_system=True)
        assert len(st.draw_pile) == pile and sum(st.chips) == 2 * n


def test_NX01_deck_order_deals_from_the_dealer_clockwise():
    deck = list(Counter(DEFAULT_DECK).elements())  # table order
    st = new_game(players=4, seed=0, deck=deck, first_dealer=2)
    # C gets cards 0, 4, 8; D 1, 5, 9; A 2, 6, 10; B 3, 7, 11
    # (deck: 1 1 1 2 2 2 3 3 3 4 4 4 5 ...)
    assert st.hand(C) == ["1", "2", "3"] and st.hand(D) == ["1", "2", "4"]
    assert st.hand(A) == ["1", "3", "4"] and st.hand(B) == ["2", "3", "4"]
    assert st.draw_pile[:4] == ["5", "5", "5", "6"] and st.current_player == C


def test_NX02_plus_card_and_draw():
    st = pos({A: ["7", "TURN", "-1"]}, sum=40, draw=["5", "6", "8"])
    events = ok(st, "play 7")
    assert st.sum == 47
    assert hand(st, A) == Counter(["TURN", "-1", "5"])
    assert st.current_player == B and st.turn["required"] == 1
    assert texts(events)[:2] == ["A plays 7: sum 40 → 47 (rule N3.1).", "A draws 1 card (rule N4.7)."]
    assert events[0].rule == "N3.1" and events[0].data["sum"] == 47


@pytest.mark.parametrize("text", ["play ⑨", "play 9", "⑨", "9"])
def test_NX03_cirno_nine(text):
    st = pos({A: ["9", "1", "PASS"]}, sum=40)
    ok(st, text)
    assert st.sum == 49


def test_NX04_minus_card():
    st = pos({A: ["-10", "1", "PASS"]}, sum=40)
    events = ok(st, "play -10")
    assert st.sum == 30 and events[0].rule == "N3.2"


@pytest.mark.parametrize("before", [12, 99, -7])
def test_NX05_the_99_card(before):
    st = pos({A: ["99", "50", "10"]}, sum=before)
    assert st.is_legal("play 99")
    events = ok(st, "play 99")
    assert st.sum == 99 and events[0].rule == "N3.3"


def test_NX06_special_cards_safe_at_99():
    st = pos({B: ["PASS", "3", "10"]}, sum=99, actor=B)
    refused(st, "play 3", "N4.3", "3 would make the sum 102 (over 99) while you hold a safe card (PASS)")
    assert [str(a) for a in st.legal_actions()] == ["play pass"]
    ok(st, "play pass")
    assert st.sum == 99 and st.current_player == C


def test_NX07_pass():
    st = pos({B: ["PASS", "3", "10"]}, sum=50, actor=B)
    events = ok(st, "play pass")
    assert st.sum == 50 and len(st.hand(B)) == 3 and st.current_player == C
    assert events[0].rule == "N3.4" and "draws 1 card" in events[1].text


def test_NX08_turn():
    st = pos({A: ["TURN", "1", "2"]})
    events = ok(st, "play turn")
    assert st.direction == -1 and events[0].rule == "N3.5"
    assert order(st, 4) == [D, C, B, A]


def test_NX09_shot():
    st = pos({A: ["SHOT", "1", "2"], C: ["4", "PASS", "-1"]})
    events = ok(st, "play shot @C")
    assert events[0].text == ("A plays SHOT on C (rule N3.6): C plays now; afterwards play resumes "
                              "after A (rule N5.2).")
    assert len(st.hand(A)) == 3
    assert turn(st) == (C, 1, "shot", A)
    ok(st, "play 4")
    assert len(st.hand(C)) == 3
    assert order(st, 4) == [B, C, D, A]


def test_NX10_double():
    st = pos({A: ["DOUBLE", "1", "2"], B: ["3", "5", "PASS"]}, sum=20)
    ok(st, "play double")
    assert turn(st) == (B, 2, "normal", B)
    ok(st, "play 3")
    assert st.current_player == B and st.turn["played"] == 1 and len(st.hand(B)) == 2
    events = ok(st, "play 5")
    assert st.sum == 28 and len(st.hand(B)) == 3
    assert any(e.kind == "draw" and e.data["count"] == 2 and e.rule == "N4.7" for e in events)
    assert turn(st) == (C, 1, "normal", C)


def test_NX11_double_shot():
    st = pos({A: ["DSHOT", "1", "2"]})
    events = ok(st, "play dshot @C")
    assert events[0].rule == "N3.8"
    assert turn(st) == (C, 2, "shot", A)
    ok(st, "play pass")
    ok(st, "play 1")
    assert len(st.hand(C)) == 3 and st.current_player == B


def _forced_b(**kw):
    """Sum 90, A plays 5 -> 95, and B holds [10, 50, 8]: B is forced."""
    return pos({A: ["5", "PASS", "-1"], B: ["10", "50", "8"]}, sum=90, **kw)


def test_NX12_forced_bust_elimination():
    st = _forced_b()
    events = ok(st, "play 5")
    bust = [e for e in events if e.kind == "bust"][0]
    assert bust.rule == "N4.4"
    assert bust.text == ("B holds [8, 10, 50] at 95 — every card would take the sum over 99: B is forced and busts "
                         "(rule N4.4).")
    assert any(e.kind == "eliminated" and e.rule == "N6.3" for e in events)
    assert st.active == (True, False, True, True)
    assert st.round == 2 and st.dealer == C and st.current_player == C
    assert st.sum == 0 and st.direction == 1 and st.main_stack == []
    assert [len(st.hand(s)) for s in range(4)] == [3, 0, 3, 3]
    assert len(st.draw_pile) == 59 - 9 and sum(st.all_cards().values()) == 59
    v = st.view(A)
    assert v["revealed"]["seat"] == B and v["revealed"]["hand"] == ["8", "10", "50"]
    assert v["revealed"]["forced"] is True and v["revealed"]["sum"] == 95


def test_NX12_forced_position_resolves_at_setup():
    st = pos({B: ["10", "50", "8"]}, sum=95, actor=B)
    assert st.active[B] is False and st.current_player == C
    assert [e.rule for e in st.setup_events][:2] == ["N4.4", "N6.3"]


def test_NX13_life_system_lose_a_chip():
    st = _forced_b(life_system=True)
    events = ok(st, "play 5")
    assert st.chips == (2, 1, 2, 2) and st.active[B]
    assert any(e.kind == "chip" and e.rule == "N6.4" for e in events)
    assert st.dealer == B and st.current_player == B and st.round == 2


def test_NX14_life_system_eliminated_at_zero():
    st = _forced_b(life_system=True, chips=[2, 1, 2, 2])
    ok(st, "play 5")
    assert st.chips == (2, 0, 2, 2) and not st.active[B]
    assert st.dealer == C and st.current_player == C


def test_NX15_match_end():
    st = pos({A: ["5", "PASS", "-1"], C: ["10", "50", "8"]}, sum=90, active=[True, False, True, False])
    events = ok(st, "play 5")
    assert st.is_terminal and st.current_player is None and st.phase == "finished"
    assert events[-1].kind == "match_end" and events[-1].rule == "N6.5"
    out = st.outcome()
    assert out.winners == (A,) and "C busted last" in out.reason
    assert st.round == 1, "no further round is dealt"
    assert st.legal_actions() == []
    refused(st, "play pass", "G1", "the game is over")


# --------------------------------------------------------------------------- edge cases (NE)
def test_NE01_no_bust_on_purpose():
    st = pos({B: ["10", "5", "-1"]}, sum=90, actor=B)
    refused(st, "play 10", "N4.3", "10 would make the sum 100 (over 99) while you hold a safe card (5, -1)")
    assert [str(a) for a in st.legal_actions()] == ["play 5", "play -1"]
    twin = st.clone()
    ok(st, "play 5")
    assert st.sum == 95
    ok(twin, "play -1")
    assert twin.sum == 89


def test_NE02_exactly_99_is_safe():
    st = pos({B: ["9", "10", "50"]}, sum=90, actor=B)
    ok(st, "play 9")
    assert st.sum == 99 and st.active[B]


def test_NE03_negative_sums():
    st = pos({A: ["-10", "1", "2"], B: ["50", "1", "2"]}, sum=3)
    ok(st, "play -10")
    assert st.sum == -7
    ok(st, "play 50")
    assert st.sum == 43
    floor = pos({A: ["-10", "1", "2"]}, sum=3, floor_at_zero=True)
    events = ok(floor, "play -10")
    assert floor.sum == 0 and "floored at 0" in events[0].text


def test_NE04_bust_on_first_card_of_double():
    st = pos({A: ["DOUBLE", "PASS", "-1"], B: ["5", "10", "50"]}, sum=97)
    events = ok(st, "play double")
    kinds = [e.kind for e in events]
    assert kinds.index("bust") < kinds.index("round")
    assert [e for e in events if e.kind == "bust"][0].data["hand"] == ["5", "10", "50"]
    assert not [e for e in events if e.kind == "draw" and e.data["seat"] == B]
    assert not st.active[B] and st.round == 2


def test_NE05_bust_on_second_card_of_double():
    st = pos({B: ["1", "2", "3"]}, sum=98, actor=B, required=2)
    refused(st, "play 2", "N4.3", "2 would make the sum 100 (over 99) while you hold a safe card (1)")
    events = ok(st, "play 1")
    assert events[0].text == "B plays 1: sum 98 → 99 (rule N3.1) — card 1 of 2."
    bust = [e for e in events if e.kind == "bust"][0]
    assert bust.rule == "N4.4" and bust.data["hand"] == ["2", "3"] and bust.data["sum"] == 99
    assert not [e for e in events if e.kind == "draw"]
    assert not st.active[B] and st.round == 2


def test_NE06_order_of_cards_in_a_double_turn():
    st = pos({B: ["4", "-1", "10"]}, sum=95, actor=B, required=2)
    refused(st, "play 10", "N4.3", "10 would make the sum 105 (over 99) while you hold a safe card (4, -1)")
    ok(st, "play 4")
    assert st.sum == 99
    refused(st, "play 10", "N4.3", "10 would make the sum 109 (over 99) while you hold a safe card (-1)")
    ok(st, "play -1")
    assert st.sum == 98 and len(st.hand(B)) == 3 and st.current_player == C


def test_NE07_second_check_uses_new_sum():
    st = pos({B: ["10", "10", "9"]}, sum=80, actor=B, required=2)
    ok(st, "play 10")
    assert st.sum == 90
    refused(st, "play 10", "N4.3", "10 would make the sum 100 (over 99)")
    ok(st, "play 9")
    assert st.sum == 99


def test_NE08_pass_inside_double():
    st = pos({B: ["PASS", "6", "1"]}, sum=30, actor=B, required=2)
    ok(st, "play pass")
    assert st.sum == 30 and st.current_player == B and st.turn["played"] == 1
    ok(st, "play 6")
    assert len(st.hand(B)) == 3 and st.current_player == C
    opt = pos({B: ["PASS", "6", "1"]}, sum=30, actor=B, required=2, pass_ends_double_turn=True)
    events = ok(opt, "play pass")
    assert opt.current_player == C and len(opt.hand(B)) == 3
    assert any(e.rule == "N4.6" for e in events)
    assert [e.data["count"] for e in events if e.kind == "draw"] == [1]


def test_NE09_double_passed_on():
    st = pos({B: ["DOUBLE", "3", "1"]}, actor=B, required=2)
    ok(st, "play double")
    ok(st, "play 3")
    assert turn(st) == (C, 2, "normal", C)


def test_NE10_doubles_do_not_stack():
    st = pos({B: ["DOUBLE", "DOUBLE", "1"]}, actor=B, required=2)
    ok(st, "play double")
    ok(st, "play double")
    assert turn(st) == (C, 2, "normal", C)


def test_NE11_shooting_the_next_player():
    st = pos({A: ["SHOT", "1", "2"]})
    ok(st, "play shot @B")
    assert turn(st) == (B, 1, "shot", A)
    assert order(st, 3) == [B, B, C]


def test_NE12_shot_with_two_players():
    st = pos({A: ["SHOT", "1", "2"]}, players=2)
    ok(st, "play shot @B")
    assert order(st, 3) == [B, B, A]
    st = pos({A: ["SHOT", "1", "2"]}, players=2, shot_resume="after_target")
    ok(st, "play shot @B")
    assert turn(st) == (B, 1, "shot", B)
    assert order(st, 2) == [B, A]


def test_NE13_illegal_targets():
    st = pos({A: ["SHOT", "5", "1"]})
    refused(st, "play shot @A", "N3.6", "you cannot target yourself")
    refused(st, "play shot", "N3.6", "SHOT needs a target")
    refused(st, "play 5 @C", "N4.2", "only SHOT and DOUBLE SHOT take a target")
    st = pos({A: ["SHOT", "5", "1"]}, active=[True, False, True, True])
    refused(st, "play shot @B", "N6.7", "B is out of the match")
    assert [str(a) for a in st.legal_actions()] == ["play 1", "play 5", "play shot @2", "play shot @3"]


def test_NE14_nested_shot():
    st = pos({A: ["SHOT", "1", "2"], C: ["SHOT", "1", "2"], B: ["2", "1", "PASS"]})
    ok(st, "play shot @C")
    ok(st, "play shot @B")
    assert turn(st) == (B, 1, "shot", C)
    ok(st, "play 2")
    assert order(st, 4) == [D, A, B, C]


def test_NE15_turn_inside_shot_turn():
    st = pos({A: ["SHOT", "1", "2"], C: ["TURN", "1", "2"]})
    ok(st, "play shot @C")
    ok(st, "play turn")
    assert st.direction == -1
    assert order(st, 4) == [D, C, B, A]


def test_NE16_double_inside_shot_turn():
    st = pos({A: ["SHOT", "1", "2"], C: ["DOUBLE", "1", "2"]})
    ok(st, "play shot @C")
    ok(st, "play double")
    assert turn(st) == (B, 2, "normal", B)


def test_NE17_shot_and_double_in_one_double_turn():
    st = pos({A: ["DOUBLE", "1", "2"], B: ["SHOT", "DOUBLE", "1"]})
    ok(st, "play double")
    ok(st, "play shot @D")
    ok(st, "play double")
    assert len(st.hand(B)) == 3
    assert turn(st) == (D, 2, "shot", B)
    ok(st, "play pass")
    ok(st, "play -10")
    assert st.current_player == C


def test_NE18_two_shots_in_one_double_turn():
    st = pos({B: ["SHOT", "SHOT", "1"]}, actor=B, required=2)
    ok(st, "play shot @D")
    ok(st, "play shot @A")
    assert turn(st) == (A, 1, "shot", B)
    assert order(st, 3) == [A, C, D]


def test_NE19_shot_does_not_interrupt_a_double_turn():
    st = pos({B: ["SHOT", "7", "1"]}, actor=B, required=2)
    ok(st, "play shot @D")
    assert st.current_player == B and st.turn["played"] == 1 and st.turn["shot_target"] == D
    assert len(st.hand(B)) == 2, "no draw before the second card"
    ok(st, "play 7")
    assert len(st.hand(B)) == 3 and turn(st) == (D, 1, "shot", B)


def test_NE20_turn_with_two_players():
    st = pos({A: ["TURN", "1", "2"]}, players=2)
    ok(st, "play turn")
    assert st.direction == -1 and st.current_player == B
    assert order(st, 3) == [B, A, B]


def test_NE21_turn_with_three_players():
    st = pos({A: ["TURN", "1", "2"]}, players=3)
    ok(st, "play turn")
    assert order(st, 3) == [C, B, A]


def test_NE22_reshuffle_empty_draw_pile():
    st = pos({B: ["7", "1", "2"]}, sum=53, actor=B, draw=[], stack=["3", "10", "50", "PASS", "-10"])
    events = ok(st, "play 7")
    assert st.sum == 60
    assert st.main_stack == ["7"]
    assert len(st.draw_pile) == 4 and len(st.hand(B)) == 3
    assert sorted(st.draw_pile + st.hand(B)) == sorted(["3", "10", "50", "PASS", "-10", "1", "2"])
    assert [e.rule for e in events if e.kind == "reshuffle"] == ["N7.1"]


def test_NE22_nothing_left_to_draw():
    st = pos({B: ["7", "1", "2"]}, sum=53, actor=B, draw=[], stack=[])
    events = ok(st, "play 7")
    assert st.main_stack == ["7"] and st.hand(B) == ["1", "2"] and st.draw_pile == []
    assert [e.rule for e in events if e.kind == "draw_short"] == ["N7.2"]


def test_NE23_dealer_wraps_around_after_elimination():
    st = pos({A: ["5", "PASS", "-1"], D: ["10", "50", "8"]}, sum=90, direction=-1)
    ok(st, "play 5")
    assert not st.active[D]
    assert st.dealer == A and st.current_player == A and st.direction == 1


def test_NE24_double_shot_with_two_players():
    st = pos({A: ["DSHOT", "1", "2"]}, players=2)
    ok(st, "play dshot @B")
    assert turn(st) == (B, 2, "shot", A)
    assert order(st, 3) == [B, B, A]


def test_NE25_life_system_two_players():
    # round 1: B busts
    st = pos({A: ["5", "PASS", "-1"], B: ["10", "50", "8"]}, players=2, sum=90, life_system=True)
    ok(st, "play 5")
    assert st.chips == (2, 1) and st.dealer == B and st.round == 2
    # round 2: A busts (same chips carried over)
    st = pos({B: ["5", "PASS", "-1"], A: ["10", "50", "8"]}, players=2, sum=90, actor=B, chips=[2, 1],
             life_system=True, round=2)
    ok(st, "play 5")
    assert st.chips == (1, 1) and st.dealer == A and st.round == 3
    # round 3: B busts and is out
    st = pos({A: ["5", "PASS", "-1"], B: ["10", "50", "8"]}, players=2, sum=90, chips=[1, 1],
             life_system=True, round=3)
    ok(st, "play 5")
    assert st.chips == (1, 0) and st.is_terminal and st.outcome().winners == (A,)
    assert st.outcome().scores == (1, 0)


def test_NE25_two_player_life_match_lasts_at_most_three_rounds():
    for seed in range(30):
        st = new_game(players=2, seed=seed, life_system=True)
        rng = random.Random(seed)
        while not st.is_terminal:
            st.apply_unchecked(rng.choice(st.legal_actions()))
        assert st.round <= 3 and sorted(st.chips) in ([0, 1], [0, 2])


def test_NE26_auto_forced_bust_off():
    st = pos({B: ["10", "50", "8"]}, sum=95, actor=B, auto_forced_bust=False)
    assert st.current_player == B
    assert [str(a) for a in st.legal_actions()] == ["play 8", "play 10", "play 50"]
    events = ok(st, "play 50")
    assert events[0].data["sum"] == 145 and "95 → 145" in events[0].text
    bust = [e for e in events if e.kind == "bust"][0]
    assert bust.rule == "N4.4" and bust.data["forced"] and bust.data["card"] == "50"
    assert not st.active[B] and st.round == 2


def test_NE27_shot_self_target():
    st = pos({A: ["SHOT", "1", "2"]}, shot_self_target=True)
    assert "play shot @0" in [str(a) for a in st.legal_actions()]
    ok(st, "play shot @A")
    assert turn(st) == (A, 1, "shot", A)
    assert order(st, 2) == [A, B]


def test_NE28_first_card_can_be_a_minus_card():
    st = new_game(players=4, seed=0, deck=["-10"] + [t for t in Counter(DEFAULT_DECK).elements() if t != "-10"]
                  + ["-10"] * 3)
    assert "-10" in st.hand(A) and st.sum == 0
    ok(st, "play -10")
    assert st.sum == -10


def test_NE29_voluntary_bust():
    st = pos({B: ["10", "5", "-1"]}, sum=90, actor=B, allow_voluntary_bust=True)
    assert "play 10" in [str(a) for a in st.legal_actions()]
    events = ok(st, "play 10")
    bust = [e for e in events if e.kind == "bust"][0]
    assert bust.rule == "N6.1" and bust.data["sum"] == 100 and not bust.data["forced"]
    assert not st.active[B]


# --------------------------------------------------------------------------- refusals
def test_refusal_G1_match_over():
    st = pos({A: ["5", "PASS", "-1"], C: ["10", "50", "8"]}, sum=90, active=[True, False, True, False])
    ok(st, "play 5")
    refused(st, "play 5", "G1")


def test_refusal_G3_not_your_turn():
    st = pos({A: ["5", "PASS", "-1"]})
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply("play 5", seat=B)
    assert info.value.rule == "G3" and st.to_dict() == before


def test_refusal_N42_card_not_in_hand():
    st = pos({A: ["5", "PASS", "-1"]})
    refused(st, "play 7", "N4.2", "you hold no 7 (your hand: [5, -1, PASS])")


def test_refusal_N36_shot_without_target():
    st = pos({A: ["SHOT", "DSHOT", "-1"]})
    refused(st, "play shot", "N3.6", "SHOT needs a target")
    refused(st, "play dshot", "N3.6", "DOUBLE SHOT needs a target")
    refused(st, Play("DSHOT"), "N3.6")


def test_refusal_N42_target_with_another_card():
    st = pos({A: ["PASS", "DOUBLE", "-1"]})
    refused(st, "play pass @1", "N4.2", "only SHOT and DOUBLE SHOT take a target")
    refused(st, "play double @B", "N4.2")


def test_refusal_N36_self_target():
    st = pos({A: ["DSHOT", "1", "-1"]})
    refused(st, "play dshot @0", "N3.6", "you cannot target yourself")


def test_refusal_N67_target_not_active():
    st = pos({A: ["SHOT", "1", "-1"]}, active=[True, True, False, True])
    refused(st, "play shot @2", "N6.7", "C is out of the match")
    refused(st, "play shot @7", "N6.7", "there is no seat 7 (seats are 0-3)")
    with pytest.raises(InvalidActionError, match="not a seat number 0-7"):  # no game has a seat 12
        st.apply("play shot @12")


def test_refusal_N43_unsafe_card():
    st = pos({A: ["10", "-1", "50"]}, sum=95)
    refused(st, "play 10", "N4.3", "10 would make the sum 105 (over 99) while you hold a safe card (-1)")
    refused(st, "play 50", "N4.3")


def test_refusal_precedence():
    st = pos({A: ["10", "-1", "PASS"]}, sum=95)
    # not in hand beats target problems, target problems beat unsafe cards
    refused(st, "play shot", "N4.2", "you hold no SHOT")
    refused(st, "play shot @0", "N4.2")
    refused(st, "play 10 @1", "N4.2", "only SHOT and DOUBLE SHOT take a target")
    st = pos({A: ["SHOT", "1", "2"]}, active=[True, False, True, True])
    refused(st, "play shot @0", "N3.6", "you cannot target yourself")


@pytest.mark.parametrize("text", ["", "play", "play banana", "play 11", "play 7 7", "draw 2", "play shot @Bob", "shot @⑨",
                                  "play shot @", "play 4, -1", "play 9 @1 @2"])
def test_invalid_text(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_invalid_objects():
    st = pos()
    with pytest.raises(InvalidActionError):
        st.apply(42)
    with pytest.raises(InvalidActionError):
        Play("joker")
    with pytest.raises(InvalidActionError):
        Play("SHOT", -1)


# --------------------------------------------------------------------------- two cards at once (N4.1)
def test_two_card_command():
    st = pos({B: ["4", "-1", "10"]}, sum=95, actor=B, required=2)
    events = st.apply("play 4, -1")
    assert st.sum == 98 and st.current_player == C
    assert [str(a) for a in st.history] == ["play 4", "play -1"]
    assert events[0].text.startswith("B plays 4: sum 95 → 99")
    st = pos({A: ["DOUBLE", "1", "-1"], B: ["SHOT", "DOUBLE", "1"]})
    ok(st, "play double")
    st.apply("play double, shot @C")
    assert turn(st) == (C, 2, "shot", B)


def test_two_card_command_refused_on_second_card():
    st = pos({B: ["4", "-1", "10"]}, sum=95, actor=B, required=2)
    e = refused(st, "play 4, 10", "N4.3", "10 would make the sum 109 (over 99)")
    assert str(e.action) == "play 10"
    refused(st, "play 10, 4", "N4.3", "10 would make the sum 105")
    refused(st, "play 4, 7", "N4.2", "you hold no 7")
    assert st.history == ()


def test_two_card_command_needs_a_double_turn():
    st = pos({A: ["4", "-1", "10"]})
    refused(st, "play 4, -1", "N4.1", "two cards at once need a double turn")
    st = pos({B: ["4", "-1", "10"]}, actor=B, required=2)
    ok(st, "play 4")
    refused(st, "play -1, 10", "N4.1", "already played 1 of the 2 cards")


def test_two_card_command_turn_would_end_early():
    st = pos({B: ["PASS", "1", "2"]}, actor=B, required=2, pass_ends_double_turn=True)
    refused(st, "play pass, 1", "N4.6")
    st = pos({B: ["1", "2", "3"]}, sum=98, actor=B, required=2)
    refused(st, "play 1, 2", "N4.4", "no card in hand is safe")
    st = pos({B: ["10", "1", "2"]}, sum=95, actor=B, required=2, allow_voluntary_bust=True)
    refused(st, "play 10, 1", "N6.1")
    with pytest.raises(InvalidActionError):
        st.apply("play 1, 2, 3")


# --------------------------------------------------------------------------- options
def test_option_deck_counts():
    deck = {"1": 5, "2": 5, "10": 3, "PASS": 2, "SHOT": 2}
    st = new_game(players=3, seed=1, deck_counts=deck)
    assert st.all_cards() == Counter(deck)
    assert len(st.draw_pile) == 17 - 9
    st = new_game(players=3, seed=1, deck_counts={"⑨": 10, "pass": 3})
    assert st.all_cards() == Counter({"9": 10, "PASS": 3})
    with pytest.raises(ValueError, match="rule N1.7"):
        new_game(players=4, deck_counts={"1": 12})
    assert new_game(players=4, seed=0, deck_counts={"1": 13})
    with pytest.raises(ValueError, match="not a card token"):
        new_game(deck_counts={"11": 30})
    with pytest.raises(ValueError, match="must be an int from 0 to 100"):
        new_game(deck_counts={"1": -1, "2": 30})
    with pytest.raises(ValueError, match="no plus number card"):
        new_game(deck_counts={"PASS": 30})
    with pytest.raises(ValueError, match="card 9 is given twice"):  # ⑨ and 9 are one card
        new_game(deck_counts={"9": 5, "⑨": 5, "1": 30})


def test_option_limit():
    st = pos({A: ["10", "5", "-1"]}, sum=40, limit=45)
    refused(st, "play 10", "N4.3", "10 would make the sum 50 (over 45)")
    ok(st, "play 5")
    assert st.sum == 45
    st = pos({A: ["99", "5", "-1"]}, sum=10, limit=45)
    ok(st, "play 99")
    assert st.sum == 45, "set_value defaults to the limit"
    with pytest.raises(ValueError, match="allowed values"):
        new_game(limit=0)


def test_option_set_value():
    st = pos({A: ["99", "5", "-1"]}, sum=10, set_value=90)
    ok(st, "play 99")
    assert st.sum == 90
    with pytest.raises(ValueError, match="limit"):
        new_game(set_value=100)
    with pytest.raises(ValueError, match="allowed values"):
        new_game(set_value="99")


def test_option_hand_size():
    st = new_game(players=5, seed=2, hand_size=5)
    assert [len(st.hand(s)) for s in range(5)] == [5] * 5 and len(st.draw_pile) == 34
    with pytest.raises(ValueError, match="allowed values"):
        new_game(hand_size=0)
    with pytest.raises(ValueError, match="rule N1.7"):
        new_game(players=8, hand_size=8)


def test_option_life_system_and_lives():
    st = new_game(players=3, seed=1, life_system=True, lives=3)
    assert st.chips == (3, 3, 3)
    assert st.view(0)["chips"] == [3, 3, 3] and new_game(players=3, seed=1).view(0)["chips"] is None
    with pytest.raises(ValueError, match="allowed values"):
        new_game(lives=0)
    with pytest.raises(ValueError, match="allowed values"):
        new_game(life_system="yes")


def test_option_first_dealer():
    st = new_game(players=4, seed=1, first_dealer=2)
    assert st.dealer == C and st.current_player == C
    dealers = {new_game(players=4, seed=s, first_dealer="random").dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(players=4, seed=9, first_dealer="random").to_dict() == \
        new_game(players=4, seed=9, first_dealer="random").to_dict()
    with pytest.raises(ValueError, match="first_dealer"):
        new_game(players=4, first_dealer=4)
    with pytest.raises(ValueError, match="allowed values"):
        new_game(first_dealer="rps")


def test_option_allow_voluntary_bust():
    test_NE29_voluntary_bust()
    st = pos({B: ["10", "5", "-1"]}, sum=90, actor=B)
    assert "play 10" not in [str(a) for a in st.legal_actions()]


def test_option_auto_forced_bust():
    test_NE26_auto_forced_bust_off()


def test_option_floor_at_zero():
    test_NE03_negative_sums()


def test_option_shot_resume():
    test_NE12_shot_with_two_players()
    st = pos({A: ["SHOT", "1", "2"]}, shot_resume="after_target")
    ok(st, "play shot @C")
    assert order(st, 3) == [C, D, A]


def test_option_shot_self_target():
    test_NE27_shot_self_target()


def test_option_pass_ends_double_turn():
    test_NE08_pass_inside_double()


def test_option_double_draw_timing():
    st = pos({B: ["3", "5", "PASS"]}, sum=10, actor=B, required=2, draw=["7", "8", "9", "10"],
             double_draw_timing="after_each")
    events = ok(st, "play 3")
    assert len(st.hand(B)) == 3 and "7" in st.hand(B) and st.current_player == B
    assert [e.rule for e in events if e.kind == "draw"] == ["N4.6"]
    ok(st, "play 7")
    assert hand(st, B) == Counter(["5", "PASS", "8"]) and st.current_player == C
    # the card drawn after the first play counts for the second card's check (N4.4)
    st = pos({B: ["1", "50", "10"]}, sum=97, actor=B, required=2, draw=["PASS"], double_draw_timing="after_each")
    ok(st, "play 1")
    assert st.active[B] and st.current_player == B
    ok(st, "play pass")


@pytest.mark.parametrize("rule, life, dealer", [
    ("loser", True, B), ("loser", False, C),
    ("after_loser", True, C), ("after_loser", False, C),
    ("rotate", True, D), ("rotate", False, D),
])
def test_option_next_round_starter(rule, life, dealer):
    st = _forced_b(next_round_starter=rule, life_system=life, dealer=C)
    ok(st, "play 5")
    assert st.dealer == dealer and st.current_player == dealer


def test_option_reset_direction_each_round():
    st = pos({A: ["5", "PASS", "-1"], D: ["10", "50", "8"]}, sum=90, direction=-1, life_system=True,
             reset_direction_each_round=False)
    ok(st, "play 5")
    assert st.direction == -1 and st.dealer == D
    test_NE23_dealer_wraps_around_after_elimination()


def test_options_contract():
    with pytest.raises(TypeError):
        new_game(num_players=4)
    for opt in cirno_neu.SPEC.options:
        if opt.allowed:
            with pytest.raises(ValueError, match="allowed values"):
                new_game(**{opt.name: "definitely-not-allowed"})
    for n in (1, 9, True, "4", 4.0):
        with pytest.raises(ValueError, match="allowed values: 2, 3, 4, 5, 6, 7, 8"):
            new_game(players=n)
    names = [o.name for o in cirno_neu.SPEC.options]
    assert names == ["deck_counts", "limit", "set_value", "hand_size", "life_system", "lives", "first_dealer",
                     "allow_voluntary_bust", "auto_forced_bust", "floor_at_zero", "shot_resume",
                     "shot_self_target", "pass_ends_double_turn", "double_draw_timing", "next_round_starter",
                     "reset_direction_each_round"]


def test_deck_argument_must_be_the_multiset():
    deck = list(Counter(DEFAULT_DECK).elements())
    with pytest.raises(ValueError, match="missing 1×DSHOT"):
        new_game(deck=deck[:-1])
    with pytest.raises(ValueError, match="extra 1×7"):
        new_game(deck=deck + ["7"])
    with pytest.raises(ValueError, match="not a cirno"):
        new_game(deck=deck[:-1] + ["joker"])
    st = new_game(players=2, seed=0, deck=[7 if c == "7" else c for c in deck])
    assert st.deck_order == tuple(deck)


# --------------------------------------------------------------------------- notation
def test_notation_round_trip_every_action():
    for c in TOKENS:
        targets = range(8) if c in ("SHOT", "DSHOT") else [None]
        for t in targets:
            a = Play(c, t)
            assert parse_action(str(a)) == a
            assert eval(repr(a), {"Play": Play}) == a


@pytest.mark.parametrize("text, canonical", [
    ("play 7", "play 7"), ("PLAY 7", "play 7"), ("7", "play 7"), ("play ⑨", "play 9"), ("⑨", "play 9"),
    ("play -10", "play -10"), ("  play   -1 ", "play -1"), ("play 99", "play 99"), ("play 50", "play 50"),
    ("pass", "play pass"), ("Play PASS", "play pass"), ("turn", "play turn"), ("double", "play double"),
    ("play shot @2", "play shot @2"), ("shot @C", "play shot @2"), ("shot@c", "play shot @2"),
    ("play dshot @Bob"[:-3] + "B", "play dshot @1"), ("play doubleshot @3", "play dshot @3"),
    ("play double-shot @ 0", "play dshot @0"), ("play DSHOT @H", "play dshot @7"),
])
def test_notation_forms(text, canonical):
    assert str(parse_action(text)) == canonical


def test_actions_are_interned_and_frozen():
    assert parse_action("play 7") is parse_action("7")
    assert parse_action("shot @1") is parse_action("play shot @B")
    st = new_game(players=3, seed=4)
    assert all(a is parse_action(str(a)) for a in st.legal_actions())
    with pytest.raises(AttributeError):
        parse_action("7").card = "8"
    assert Play(9) == Play("⑨") == Play("9") and Play(-10) == parse_action("-10")
    assert Play("shot", "C") == Play("SHOT", 2)


def test_legal_actions_order():
    st = pos({A: ["DSHOT", "PASS", "SHOT", "-10", "50", "3", "3"]}, hand_size=3)
    assert [str(a) for a in st.legal_actions()] == [
        "play 3", "play 50", "play -10", "play pass",
        "play shot @1", "play shot @2", "play shot @3", "play dshot @1", "play dshot @2", "play dshot @3"]


# --------------------------------------------------------------------------- views, persistence, outcome
def test_view_hides_hands_and_draw_pile():
    st = new_game(players=4, seed=8)
    for seat in range(4):
        v = st.view(seat)
        assert json.loads(json.dumps(v)) == v
        assert v["hands"][seat] == st.hand(seat)
        assert all(h is None for s, h in enumerate(v["hands"]) if s != seat)
        assert "draw_pile" not in v and "stack" not in v
        assert v["hand_counts"] == [3, 3, 3, 3] and v["draw_count"] == 47
    t = st.view(None)
    assert t["draw_pile"] == st.draw_pile and all(h is not None for h in t["hands"])
    assert t["names"] == ["A", "B", "C", "D"] and t["turn"]["actor"] == 0 and t["phase"] == "play"
    with pytest.raises(ValueError):
        st.view(4)


def test_view_stack_top_and_pending():
    st = pos({A: ["DOUBLE", "1", "2"], B: ["SHOT", "3", "4"]}, stack=["1", "2", "3", "4", "5", "6"], sum=21)
    ok(st, "play double")
    ok(st, "play shot @3")
    v = st.view(C)
    assert v["stack_top"] == ["4", "5", "6", "DOUBLE", "SHOT"] and v["stack_size"] == 8
    assert v["pending"] == {"shot_target": 3, "double_next": False}
    assert v["turn"]["required"] == 2 and v["turn"]["played"] == 1
    assert v["last_action"] == {"seat": B, "action": "play shot @3"}


def test_to_dict_round_trip_and_str():
    st = pos({A: ["SHOT", "1", "2"]}, life_system=True, stack=["5"], sum=5)
    ok(st, "play shot @C")
    d = st.to_dict()
    again = type(st).from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d and again == st
    assert again.legal_actions() == st.legal_actions()
    assert "sum 5/99" in str(st) and "shot turn" in str(st)
    assert "CirnoNeuState" in repr(st)


def test_outcome_scores_elimination_places():
    st = new_game(players=5, seed=11)
    rng = random.Random(0)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    out = st.outcome()
    assert sorted(out.scores) == [0, 1, 2, 3, 4]
    assert out.scores[out.winners[0]] == 4
    assert st.view(None)["eliminated"] == sorted(range(5), key=lambda s: out.scores[s])[:4]


def test_same_seed_same_match():
    def run():
        st = new_game(players=6, seed=21, life_system=True)
        rng = random.Random(2)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        return st.to_dict()
    assert run() == run()


# --------------------------------------------------------------------------- random playouts
COMBOS = [
    {},
    dict(life_system=True),
    dict(life_system=True, lives=3, double_draw_timing="after_each", pass_ends_double_turn=True),
    dict(allow_voluntary_bust=True, floor_at_zero=True),
    dict(auto_forced_bust=False, shot_self_target=True, shot_resume="after_target"),
    dict(life_system=True, next_round_starter="rotate", reset_direction_each_round=False, first_dealer="random"),
    dict(next_round_starter="after_loser", hand_size=2, limit=60, set_value=55),
]


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_random_playouts_end_and_conserve(players, combo):
    for seed in range(4):
        st = new_game(players=players, seed=seed, **COMBOS[combo])
        twin = st.clone()
        cards = st.all_cards()
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal:
            legal = st.legal_actions()
            assert legal and legal == twin.legal_actions()
            a = rng.choice(legal)
            events = st.apply(a)
            assert events and all(e.text and e.rule for e in events)
            twin.apply_unchecked(a)  # the fast path reaches the same state as the narrated one
            steps += 1
            assert steps < 20_000
            if steps % 7 == 0:
                assert st.all_cards() == cards
                assert twin.to_dict() == st.to_dict()
        assert st.all_cards() == cards and twin.to_dict() == st.to_dict()
        out = st.outcome()
        assert len(out.winners) == 1 and st.active.count(True) == 1 and len(out.scores) == players


# --------------------------------------------------------------------------- docs and replays
def test_module_doctests():
    import doctest

    from cardwidgets.games.cirno_neu import cards, position, spec, state, worlds

    results = [doctest.testmod(m) for m in (cirno_neu, cards, spec, worlds, position, state)]
    assert sum(r.attempted for r in results) >= 10 and sum(r.failed for r in results) == 0


def test_replay_with_deck_and_two_card_command():
    from cardwidgets import Replay

    deck = list(Counter(DEFAULT_DECK).elements())
    st = new_game(players=3, seed=4, deck=deck, life_system=True)
    rng = random.Random(4)
    pairs = 0
    while not st.is_terminal:
        if st.turn["required"] == 2 and st.turn["played"] == 0:
            for a in st.legal_actions():
                trial = st.clone()
                trial.apply(a)
                if not trial.is_terminal and trial.current_player == st.current_player and trial.legal_actions():
                    moves = st.move_count
                    st.apply(f"{a}, {trial.legal_actions()[0]}")
                    assert st.move_count == moves + 2
                    pairs += 1
                    break
            else:
                st.apply(st.legal_actions()[0])
            continue
        st.apply(rng.choice(st.legal_actions()))
    assert pairs
    rebuilt = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert rebuilt.to_dict() == st.to_dict()


def test_two_card_command_explain_and_is_legal():
    st = pos({B: ["4", "-1", "10"]}, sum=95, actor=B, required=2)
    before = st.to_dict()
    assert st.is_legal("play 4, -1") and not st.is_legal("play 4, 10")
    ex = st.explain("play 4, -1")
    assert ex.legal and str(ex) == "Legal: play 4, play -1 by B."
    # the effects stop where the hidden draw pile starts (N4.7)
    assert [str(e) for e in ex.effects][-1] == "Then B draws 2 cards (rule N4.7)."
    assert str(st.explain("play 4, 10")).startswith("Illegal: rule N4.3 — 10 would make the sum 109")
    assert str(st.explain("play 4, banana")).startswith("Invalid: ")
    assert not st.is_legal("play 4, -1", seat=A)
    assert st.to_dict() == before


def test_narration_of_round_starts_and_fixed_decks():
    """The round's first turn is N5.5's (actor = anchor = dealer), not N5.3's; a game dealt from
    ``deck=`` does not say it was shuffled."""
    st = new_game(players=4, seed=1)
    assert (st.setup_events[-1].rule, st.setup_events[-1].text) == \
        ("N5.5", "A's turn: 1 card, the first of the round (rule N5.5).")
    events = ok(st, str(st.legal_actions()[0]))
    assert [e.rule for e in events if e.kind == "turn"] in (["N5.3"], ["N3.7"], ["N5.2"])
    fixed = new_game(players=3, seed=7, deck=cirno_neu.DEMO_DECK)
    assert "in the order given (deck=)" in fixed.setup_events[0].text
    assert "shuffled" not in fixed.setup_events[0].text and "shuffled" in st.setup_events[0].text


def test_after_each_double_turns_are_told_truly():
    """With double_draw_timing='after_each' a two-card command is refused because the draw comes
    between the cards (N4.6), not because the hand would be empty (it is drawn again); and a
    hand emptied with nothing to draw says so once."""
    st = setup_position(2, [["1", "2", "3"], ["5"]], actor=1, required=2, double_draw_timing="after_each",
                        hand_size=1)
    refused(st, "play 5, 1", "N4.6", "the draw comes between the two cards")
    st = setup_position(2, [["1"], ["5"]], draw=[], actor=1, required=2, double_draw_timing="after_each")
    events = ok(st, "play 5")
    assert [e.kind for e in events].count("draw_short") == 1
    assert [e.kind for e in events][:3] == ["play", "draw_short", "empty_hand"]


def test_a_shot_after_a_double_shot_in_one_turn_says_its_target_plays_2_cards():
    """The DOUBLE SHOT's double stays when a SHOT follows it in the same double turn: the SHOT's
    target plays 2 cards, and the narration says so (it used to say "plays now")."""
    st = setup_position(4, [["DSHOT", "SHOT", "5"], ["7"], ["1"], ["2"]], sum=10, required=2, draw=["1", "2", "3"])
    ok(st, "play dshot @3")
    events = ok(st, "play shot @2")
    assert "C plays 2 cards now" in events[0].text
    assert [e.data["required"] for e in events if e.kind == "turn"] == [2]
