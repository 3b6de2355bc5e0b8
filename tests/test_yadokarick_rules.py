"""Yadokarick, standard and duo modes: every scenario of the rules (YM-*, YD-*), every refusal
with its rule, every option in its mode, the notation, hidden information and hand-built positions."""

from __future__ import annotations

import json
import random

import pytest

import kit
from cardwidgets import IllegalActionError, InvalidActionError, Replay, rules
from cardwidgets.games import yadokarick as Y
from cardwidgets.games.yadokarick import cards as C


def std(hands, **kw):
    return Y.setup_standard(len(hands), [list(h) for h in hands], **kw)


def play(st, *cards):
    events = []
    for c in cards:
        events += st.apply(f"play {c}")
    return events


def refused(st, action, rule, seat=Y.ANY):
    """The action is refused under ``rule`` and changes nothing."""
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action, seat)
    assert info.value.rule == rule, str(info.value)
    assert st.to_dict() == before
    rules.lookup(rule, game="yadokarick")
    return info.value


def texts(events):
    return [e.text for e in events]


# =========================================================================== 19.1 standard, from the rulebook
def test_YM_R1_four_player_trick_judged():
    st = std([["G25"], ["P8"], ["G17"], ["P29"]])
    ev = play(st, "G25", "P8", "G17", "P29")
    assert st.phase == "marker" and st.movers == (1,) and st.current_player == 1
    assert st.house(0) == ["G25", "G17"] and st.house_size(0) == 2
    assert st.house(3) == ["P8"] and st.house_size(3) == 4
    assert st.discard == ["P29"]
    assert any("rule Y6.2" in t for t in texts(ev)) and any("rule Y6.3" in t for t in texts(ev))
    st.apply("<")
    assert st.marker == 10 and st.current_player == 1 and st.phase == "play"


def test_YM_R2_six_player_judgment():
    st = std([["G31"], ["P9"], ["P26"], ["P12"], ["G27"], ["G14"]])
    play(st, "G31", "P9", "P26", "P12", "G27", "G14")
    assert st.movers == (1,)
    assert st.house(2) == ["P12"]
    assert st.house(0) == ["G31", "G27"]
    assert sorted(st.discard) == sorted(["P9", "P26", "G14"])
    st.apply("=")
    assert st.current_player == 1


def test_YM_R3_collapse():
    st = std([["P11"], ["G9"], ["P7"], ["G14"]], houses=[["G1", "G2", "G3", "G4", "G5", "G6"], [], [], []])
    assert st.house_size(0) == 13
    ev = play(st, "P11", "G9", "P7", "G14")
    assert st.house(0) == ["G3", "G4", "G5", "G6", "P11", "P7"] and st.house_size(0) == 16
    assert st.collapsed(0) == ["G1", "G2"] and st.collapsed_size(0) == 3
    assert st.house(3) == ["G14"] and st.discard == ["G9"]
    assert st.movers == (2,)
    assert any(e.kind == "collapse" and e.rule == "Y8.4" for e in ev)
    st.apply("=")
    assert st.current_player == 2


def test_YM_R4_roof_settles_the_house_at_7():
    st = std([["G33"], ["G26"], ["P5"], ["G10"]], houses=[["G3"], [], [], []])
    ev = play(st, "G33", "G26", "P5", "G10")
    assert st.house(0) == ["G3", "G26", "G10"] and st.house_size(0) == 7 and st.roofed[0]
    assert st.discard == ["G33"]
    assert st.house(2) == ["P5"] and st.movers == (2,)
    assert any(e.kind == "roof" and e.rule == "Y8.5" for e in ev)


def test_YM_R5_scoring_examples():
    assert [C.round_score(4, 0, 8), C.round_score(8, 0, 8), C.round_score(15, 7, 8)] == [4, 13, -14]


def test_YM_R6_lone_colour_lowest_captures_and_moves():
    st = std([["G22"], ["G35"], ["P3"], ["G18"], ["G9"]])
    play(st, "G22", "G35", "P3", "G18", "G9")
    assert st.house(2) == ["P3"] and st.movers == (2,)
    assert st.house(1) == ["G35"]
    assert sorted(st.discard) == ["G18", "G22", "G9"]
    st.apply("move stay")
    assert st.current_player == 2


def test_YM_R7_tie_for_lowest():
    st = std([["G6"], ["P24"], ["P6"], ["G12"]], leader=2)
    assert st.current_player == 2
    ev = play(st, "P6", "G12", "G6", "P24")
    assert st.movers == (2, 0)
    assert any(e.kind == "movers" and "rules Y6.1, Y7.3" in e.text for e in ev)
    st.apply(">")
    assert st.marker == 12 and st.current_player == 0
    st.apply("<")
    assert st.marker == 11
    assert st.current_player == 0 and st.phase == "play"
    assert st.house(3) == ["G12"] and st.house(1) == ["P24"]
    assert sorted(st.discard) == ["G6", "P6"]


# =========================================================================== 19.2 standard edge cases
def _ym_r7(**options):
    st = std([["G6"], ["P24"], ["P6"], ["G12"]], leader=2, **options)
    play(st, "P6", "G12", "G6", "P24")
    return st


def test_YM_01_last_tied_mover_stays_and_still_leads():
    st = _ym_r7()
    st.apply(">")
    ev = st.apply("=")
    assert st.marker == 12 and st.current_player == 0
    assert ev[-1].rule == "Y9.2"
    st = _ym_r7(tie_leader="last_actual_mover")
    st.apply(">")
    st.apply("=")
    assert st.current_player == 2
    st = _ym_r7(tie_leader="last_actual_mover")
    st.apply("=")
    ev = st.apply("=")
    assert st.current_player == 0 and ev[-1].rule == "Y9.3"  # nobody moved: the last entitled player


def test_YM_02_three_players_highest_takes_everything_roof_last():
    st = std([["G5"], ["G30"], ["G12"]])
    play(st, "G5", "G30", "G12")
    assert st.movers == (0,)
    assert st.house(1) == ["G5", "G12", "G30"] and st.house_size(1) == 7 and st.roofed[1]
    st.apply("=")
    assert st.current_player == 0
    st = std([["G5"], ["G30"], ["G12"]], three_player_capture="largest_size")
    play(st, "G5", "G30", "G12")
    assert st.house(1) == ["G12"] and st.house_size(1) == 4 and not st.roofed[1]
    assert sorted(st.discard) == ["G30", "G5"]


@pytest.mark.parametrize("marker, legal", [(21, ["move left", "move stay"]), (1, ["move right", "move stay"]),
                                           (11, ["move left", "move right", "move stay"])])
def test_YM_03_marker_at_the_end_of_the_track(marker, legal):
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=marker)
    play(st, "G25", "P8", "G17", "P29")
    assert [str(a) for a in st.legal_actions()] == legal
    if marker == 21:
        refused(st, ">", "Y7.2")
    if marker == 1:
        refused(st, "<", "Y7.2")


def test_YM_04_roofed_house_discards_later_captures():
    st = std([["G33", "G36"], ["G26", "G4"], ["P5", "P2"], ["G10", "G1"]], houses=[["G3"], [], [], []], trick_no=9)
    play(st, "G33", "G26", "P5", "G10")
    st.apply("=")
    assert st.current_player == 2 and st.roofed[0]
    ev = play(st, "P2", "G1", "G36", "G4")
    assert st.house_size(0) == 7 and len(st.house(0)) == 3
    assert {"G36", "G4", "G1"} <= set(st.discard)
    assert any(e.kind == "roofed_discard" and e.rule == "Y8.6" for e in ev)
    assert st.house(2) == ["P5", "P2"]
    assert st.movers == (3,)


def test_YM_05_roof_and_collapse_in_one_step():
    st = std([["G30"], ["G34"], ["P1"], ["G33"]], houses=[[], ["G2", "G3", "G7", "G11", "G15"], [], []])
    assert st.house_size(1) == 14
    play(st, "G30", "G34", "P1", "G33")
    assert st.house(1) == ["G3", "G7", "G11", "G15", "G34", "G30"]
    assert st.house_size(1) == 16 and st.collapsed_size(1) == 2 and st.roofed[1]
    assert st.discard == ["G33"] and st.house(2) == ["P1"] and st.movers == (2,)


def test_YM_06_captor_need_not_take_its_own_card():
    st = std([["G31"], ["P9"], ["P26"], ["P12"], ["G27"], ["G14"]])
    play(st, "G31", "P9", "P26", "P12", "G27", "G14")
    assert st.house(2) == ["P12"] and "P26" in st.discard


def test_YM_07_tenth_trick_move_decides_the_target():
    def run(move):
        st = std([["G2"], ["P4"], ["G36"], ["P32"]], trick_no=10, marker=8,
                 houses=[["G4", "G8", "G1"], ["G12", "G16"], [], []])
        play(st, "G2", "P4", "G36", "P32")
        assert st.house(2) == ["G36"] and st.house(3) == ["P4", "P32"] and st.discard == ["G2"]
        ev = st.apply(move)
        result = st.view(None)["results"][-1]
        return st, result, ev

    st, result, ev = run(">")
    assert result["target"] == 9 and result["scores"][:2] == [14, 8]
    assert any(e.kind == "round_end" for e in ev) and st.view(None)["round"] == 2
    _, result, _ = run("=")
    assert result["target"] == 8 and result["scores"][:2] == [-1, 13]


@pytest.mark.parametrize("h, f, score", [(6, 5, 1), (11, 3, 13), (0, 0, 0), (0, 4, -4), (12, 0, -1)])
def test_YM_08_collapse_penalty_always_applies(h, f, score):
    assert C.round_score(h, f, 11) == score


def test_YM_09_more_than_six_captured_at_once():
    cards = ["G1", "G5", "G9", "G13", "G17", "G21", "G25"]
    st = std([[c] for c in cards])
    play(st, *cards)
    assert st.house(6) == cards[1:] and st.house_size(6) == 6
    assert st.collapsed(6) == ["G1"] and st.collapsed_size(6) == 1
    assert st.movers == (0,)
    st.apply("=")
    assert st.current_player == 0


def test_YM_10_advanced_set_for_four():
    st = Y.new_game(players=4, card_set="advanced", seed=3)
    v = st.view(None)
    dealt = sorted(c for h in v["hands"] for c in h)
    assert dealt == sorted([f"G{n}" for n in range(1, 21)] + [f"P{n}" for n in range(1, 21)])
    assert v["aside_count"] == 0 and v["aside"] == []
    assert sorted(v["roofs"]) == ["G10", "G20", "P10", "P20"]
    with pytest.raises(ValueError, match="Y12.3"):
        Y.new_game(players=7, card_set="advanced")


@pytest.mark.parametrize("n, top, colours", [(3, 30, 1), (5, 25, 2), (6, 30, 2)])
def test_advanced_sets_for_other_counts(n, top, colours):
    st = Y.new_game(players=n, card_set="advanced", seed=1)
    v = st.view(None)
    assert v["aside_count"] == 0 and sum(v["hand_counts"]) == top * colours == 10 * n
    assert max(C.card_id(c) // 2 + 1 for h in v["hands"] for c in h) == top


def test_YM_11_next_round():
    st = Y.new_game(players=4, rounds=4, dealer=3, seed=8)
    assert st.current_player == 0 and st.view(0)["dealer"] == 3
    rng = random.Random(1)
    while st.view(None)["round"] == 1:
        totals_before = st.totals
        st.apply(rng.choice(st.legal_actions()))
    v = st.view(None)
    assert v["results"][0]["scores"] == list(st.totals) and totals_before == (0, 0, 0, 0)
    assert v["dealer"] == 0 and v["current"] == 1 and v["leader"] == 1 and v["marker"] == 11
    assert all(h == [] for h in v["houses"]) and all(c == [] for c in v["collapsed"]) and v["discard"] == []
    assert v["hand_counts"] == [10, 10, 10, 10] and not any(v["roofed"])


def test_YM_12_same_number_both_colours_top_and_bottom():
    st = std([["G30"], ["P30"], ["G2"], ["P2"]])
    play(st, "G30", "P30", "G2", "P2")
    assert st.movers == (2, 3)
    assert st.house(0) == ["G2", "G30"] and st.roofed[0] and st.house_size(0) == 4
    assert st.house(1) == ["P2", "P30"] and st.roofed[1] and st.house_size(1) == 4
    st.apply("=")
    st.apply("=")
    assert st.current_player == 3


def test_YM_13_illegal_actions_are_rejected():
    st = std([["G25", "G1"], ["P8", "P1"], ["G17", "G2"], ["P29", "P2"]], trick_no=9)
    refused(st, "play G36", "Y4.2")
    refused(st, "play P8", "G3", seat=1)
    refused(st, "S1: play P8", "G3")
    refused(st, "arrange G25", "Y8.3")
    refused(st, "move left", "G2")
    play(st, "G25", "P8", "G17", "P29")
    assert st.movers == (1,)
    refused(st, "move left", "G3", seat=0)  # not a mover
    refused(st, "play G1", "Y7.4")
    refused(st, "play P1", "Y7.4")
    with pytest.raises(InvalidActionError):
        st.apply("move +2")
    st2 = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=21)
    play(st2, "G25", "P8", "G17", "P29")
    refused(st2, ">", "Y7.2")


def test_YM_14_one_colour_trick():
    st = std([["G8"], ["G16"], ["G3"], ["G35"]])
    play(st, "G8", "G16", "G3", "G35")
    assert st.movers == (2,)
    assert st.house(3) == ["G8", "G16"]
    assert sorted(st.discard) == ["G3", "G35"]


def test_YM_15_three_player_setup():
    st = Y.new_game(players=3, seed=4)
    v0, teacher = st.view(0), st.view(None)
    assert sum(teacher["hand_counts"]) == 30 and teacher["aside_count"] == 6 and len(teacher["aside"]) == 6
    assert "aside" not in v0
    assert all(c.startswith("G") for h in teacher["hands"] for c in h)
    rng = random.Random(2)
    for _ in range(10):  # ten tricks
        while st.phase == "play":
            st.apply(rng.choice(st.legal_actions()))
        assert len(st.movers) == 1
        while st.phase == "marker":
            st.apply("move stay")
        if st.view(None)["round"] == 2:
            break
    assert st.view(None)["round"] == 2 and st.view(None)["results"][0]


# =========================================================================== 19.3 / 19.4 duo
def duo(hands, **kw):
    return Y.setup_duo([list(h) for h in hands], **kw)


def test_YD_R1_npc_plays_the_highest():
    st = duo([["G6"], ["G13"]], npc_deck=["G34"], trick_no=10)
    ev = st.apply("play G6")
    assert any(e.kind == "npc_play" and "G34" in e.text for e in ev)
    assert st.current_player == 1
    st = duo([["G6", "G1"], ["G13", "G5"]], npc_deck=["G34", "G9"], trick_no=9)
    play(st, "G6", "G13")
    assert st.house(2) == ["G6", "G34"] and st.house_size(2) == 4
    assert st.discard == ["G13"]
    assert st.current_player == 1  # Bob sits left of the NPC (npc_seat=1: A, NPC, B)


@pytest.mark.parametrize("h0, h1, winners", [(10, 11, (1,)), (13, 5, (1,)), (14, 13, (1,))])
def test_YD_R2_burst_rules(h0, h1, winners):
    assert C.duo_winners(h0, h1, 12)[0] == winners


def test_YD_01_human_captures_so_the_npc_leads():
    st = duo([["G36", "G1"], ["G8", "G2"]], npc_deck=["G3", "G27"], trick_no=9)
    play(st, "G36")
    ev = play(st, "G8")
    assert st.house(0) == ["G36", "G8"] and st.discard == ["G3"]
    assert ev[-1].kind == "npc_play" and "G27" in ev[-1].text
    assert st.trick == [(2, "G27")] and st.current_player == 1


def test_YD_02_next_leader_wraps_round():
    st = duo([["G2"], ["G31"]], npc_deck=["G27"], leader="npc", trick_no=10)
    assert st.trick == [(2, "G27")] and st.current_player == 1
    assert any("G27" in t for t in texts(st.setup_events))
    st2 = duo([["G2", "G5"], ["G31", "G9"]], npc_deck=["G27", "G13"], leader="npc", trick_no=9)
    play(st2, "G31", "G2")
    assert st2.house(1) == ["G27", "G31"] and st2.discard == ["G2"] and st2.current_player == 0


def test_YD_03_all_three_the_same_size():
    st = duo([["G1", "G2"], ["G9", "G3"]], npc_deck=["G5", "G4"], trick_no=9)
    play(st, "G1", "G9")
    assert st.house(1) == ["G1", "G5", "G9"] and st.current_player == 0


def test_YD_04_highest_is_not_the_largest():
    st = duo([["G33", "G2"], ["G7", "G3"]], npc_deck=["G12", "G4"], trick_no=9)
    ev = play(st, "G33", "G7")
    assert st.house(0) == ["G12"] and sorted(st.discard) == ["G33", "G7"]
    assert st.trick[0][0] == 2 and ev[-1].kind == "npc_play"  # the NPC leads next


def test_YD_05_exactly_on_target():
    st = duo([["G1"], ["G2"]], npc_deck=["G3"], trick_no=10,
             houses=[["G24", "G28", "G36"], ["G11", "G15", "G19", "G13", "G9"], ["G4", "G8", "G5"]])
    play(st, "G1", "G2")  # the NPC's G3 is highest and largest: it captures G3, T = 9 + 3
    out = st.outcome()
    assert st.target == 12 and out.scores == (12, 11) and out.winners == (0,)
    assert "rules Y13.9, Y13.10" in out.reason


def test_YD_05_06_10_results_from_the_houses():
    assert C.duo_winners(12, 11, 12)[0] == (0,)
    assert C.duo_winners(9, 9, 12)[0] == (0, 1)
    assert C.duo_winners(15, 15, 12)[0] == (0, 1)
    assert C.duo_winners(0, 3, 0)[0] == (0,)
    assert C.duo_winners(0, 0, 0)[0] == (0, 1)


def test_YD_06_draw_reported():
    st = duo([["G25"], ["G29"]], npc_deck=["G33"], trick_no=10,
             houses=[["G4", "G8", "G1"], ["G12", "G16", "G5"], ["G24", "G28", "G32"]])
    play(st, "G25", "G29")
    out = st.outcome()
    # NPC's G33 (size 1) is highest; all three are size 1: the NPC captures all, T = 12 + 3 = 15
    assert st.target == 15 and out.scores == (9, 9) and out.winners == (0, 1) and "draw" in out.reason


def test_YD_07_collapsed_cards_are_ignored():
    # Cards collapse only from a full house (Y8.4): A's six cards make H = 11, three collapsed F = 7.
    st = duo([["G25"], ["G29"]], npc_deck=["G33"], trick_no=10,
             houses=[["G1", "G5", "G9", "G14", "G3", "G7"], ["G12", "G16", "G6"], ["G24", "G28", "G17"]],
             collapsed=[["G11", "G15", "G21"], [], []])
    play(st, "G25", "G29")  # all size 1: the NPC captures all three, T = 9 + 3
    out = st.outcome()
    assert st.target == 12 and st.collapsed_size(0) == 7
    assert out.scores == (11, 10) and out.winners == (0,)


def test_YD_08_the_npc_collapses():
    # With the default sizes no trick lets the NPC capture G14 alone over this house, so two
    # low cards are made size 1 here (size_table): the building rule is what is tested.
    st = duo([["G10"], ["G3"]], npc_deck=["G14"], trick_no=10, houses=[[], [], ["G1", "G2", "G5", "G6", "G9", "G13"]],
             leader="npc", size_table={10: 1, 3: 1}, duo_roofs=False)
    assert st.house_size(2) == 8
    play(st, "G3", "G10")
    assert st.house(2) == ["G2", "G5", "G6", "G9", "G13", "G14"] and st.collapsed(2) == ["G1"]
    assert st.house_size(2) == 9 and st.target == 9


def test_YD_09_npc_roof_fixes_the_target():
    st = duo([["G3", "G1"], ["G7", "G2"]], npc_deck=["G20", "G35"], trick_no=9)
    play(st, "G3", "G7")
    assert st.house(2) == ["G20"] and st.roofed[2] and st.target == 4
    # the NPC led? no: it captured, so B (left of the NPC) leads
    assert st.current_player == 1
    ev = play(st, "G2")
    ev += play(st, "G1")
    assert st.house(2) == ["G20"] and "G35" in st.discard and st.target == 4
    assert any(e.kind == "roofed_discard" for e in ev)


def test_YD_10_target_zero():
    st = duo([["G1"], ["G36"]], npc_deck=["G3"], trick_no=10)
    play(st, "G1", "G36")  # B captures G36: A 0, B 4, T 0
    assert st.target == 0 and st.outcome().scores == (0, 4) and st.outcome().winners == (0,)
    # a roof of size 0 keeps the NPC at 0 and discards its capture: A 0, B 0, a draw
    st = duo([["G1"], ["G2"]], npc_deck=["G36"], trick_no=10, houses=[[], [], ["G10"]], size_table={10: 0})
    play(st, "G1", "G2")
    assert st.target == 0 and st.outcome().scores == (0, 0) and st.outcome().winners == (0, 1)


def test_YD_11_roofed_human_captures():
    st = duo([["G36", "G1"], ["G8", "G2"]], npc_deck=["G4", "G5"], trick_no=9, houses=[["G10"], [], []])
    assert st.roofed[0]
    play(st, "G36", "G8")
    assert st.house(0) == ["G10"] and {"G36", "G4", "G8"} <= set(st.discard)
    assert st.trick[0][0] == 2  # the NPC, left of A, leads


def test_YD_12_lowest_has_no_effect_no_marker():
    st = Y.new_game(players=2, mode="duo", seed=3)
    for m in ("<", ">", "=", "move stay"):
        refused(st, m, "G2")
    assert "marker" not in st.view(0) and "size_track" not in st.view(0)


def test_YD_13_moving_the_npc_seat():
    st = duo([["G25", "G1"], ["G2", "G3"]], npc_deck=["G34", "G4"], trick_no=9, npc_seat=2)
    assert st.order == (0, 1, 2) and st.current_player == 0
    play(st, "G25")
    assert st.current_player == 1
    play(st, "G2")
    assert st.house(2) == ["G2", "G34"] and st.current_player == 0


def test_YD_14_npc_plays_from_its_hidden_deck():
    st = Y.new_game(players=2, mode="duo", seed=11)
    assert st.view(0)["npc_deck_count"] == 16
    deck = st.view(None)["npc_deck"]
    rng = random.Random(3)
    seen_in_views = set()
    while not st.is_terminal:
        for s in (0, 1):
            v = st.view(s)
            del v["sizes"], v["roofs"]  # the card table lists every card of the game
            seen_in_views.add(json.dumps(v))
        with pytest.raises((IllegalActionError, InvalidActionError)):
            st.apply("S2: play G1")
        refused(st, st.legal_actions()[0], "G3", seat=2)
        st.apply(rng.choice(st.legal_actions()))
    v = st.view(None)
    assert v["npc_deck_count"] == 6 and v["npc_deck"] == deck[10:]
    for card in deck[10:]:
        assert all(f'"{card}"' not in text for text in seen_in_views)


# =========================================================================== duo decisions
def test_duo_seat_numbering_and_first_leader():
    assert Y.new_game(players=2, mode="duo", seed=1).order == (0, 2, 1)
    st = Y.new_game(players=2, mode="duo", seed=1, npc_seat=0)
    assert st.order == (2, 0, 1) and len(st.trick) == 1 and st.trick[0][0] == 2 and st.current_player == 0
    assert any(e.kind == "npc_play" for e in st.setup_events)
    st = Y.new_game(players=2, mode="duo", seed=1, npc_seat=0, duo_first_leader=1)
    assert st.order == (2, 1, 0) and st.current_player == 1
    st = Y.new_game(players=2, mode="duo", seed=1, duo_first_leader=1)
    assert st.order == (1, 2, 0) and st.current_player == 1 and st.trick == []
    st = Y.new_game(players=2, mode="duo", seed=1, npc_seat=2, duo_first_leader=1)
    assert st.order == (1, 0, 2) and st.current_player == 1


def test_duo_scenario_deck_deal_order():
    deck = [f"G{n}" for n in range(1, 37)]
    st = Y.new_game(players=2, mode="duo", deck=deck)
    assert st.hand(0) == [f"G{n}" for n in range(1, 21, 2)] and st.hand(1) == [f"G{n}" for n in range(2, 21, 2)]
    assert st.view(None)["npc_deck"] == deck[20:]
    st = Y.new_game(players=2, mode="duo", deck=deck, duo_first_leader=1)
    assert st.hand(1) == [f"G{n}" for n in range(1, 21, 2)]
    st = Y.new_game(players=2, mode="duo", deck=deck, npc_seat=0)
    assert st.trick == [(2, "G21")] and st.view(None)["npc_deck"] == deck[21:]


def test_duo_roofs_option():
    st = duo([["G3", "G1"], ["G7", "G2"]], npc_deck=["G20", "G35"], trick_no=9, duo_roofs=False)
    play(st, "G3", "G7")
    assert st.house(2) == ["G20"] and not st.roofed[2]
    play(st, "G2", "G1")
    assert st.house(2) == ["G20", "G35"]


def test_duo_colour_option():
    st = Y.new_game(players=2, mode="duo", duo_color="pink", seed=2)
    v = st.view(None)
    assert all(c.startswith("P") for h in v["hands"] for c in h) and all(c.startswith("P") for c in v["npc_deck"])


# =========================================================================== options
def test_three_player_colour_option():
    st = Y.new_game(players=3, three_player_color="pink", seed=2)
    assert all(c.startswith("P") for h in st.view(None)["hands"] for c in h)


def test_size_table_and_roof_numbers():
    st = Y.new_game(players=4, seed=1, size_table={20: 0, "P1": 9}, roof_numbers=[20, 10])
    v = st.view(0)
    assert v["sizes"]["G20"] == 0 and v["sizes"]["P20"] == 0 and v["sizes"]["P1"] == 9 and v["sizes"]["G1"] == 1
    assert st.options["roof_numbers"] == (10, 20) and "G30" not in v["roofs"]
    again = Y.from_dict(json.loads(json.dumps(st.to_dict())))
    assert again.view(0) == v and again.options == st.options
    for bad in ({37: 1}, {"G40": 1}, {1: -1}, {1: True}, [1, 2], {"1": 2, 1: 3}):
        with pytest.raises(ValueError, match="allowed"):
            Y.new_game(players=4, size_table=bad)
    for bad in ([0], [37], "10", [True]):
        with pytest.raises(ValueError, match="allowed"):
            Y.new_game(players=4, roof_numbers=bad)


def test_size_track_and_marker_start():
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], size_track=(5, 9), marker_start=9)
    assert st.marker == 9
    play(st, "G25", "P8", "G17", "P29")
    assert [str(a) for a in st.legal_actions()] == ["move left", "move stay"]
    with pytest.raises(ValueError, match="marker_start"):
        Y.new_game(players=4, size_track=(5, 9))
    with pytest.raises(ValueError, match="allowed"):
        Y.new_game(players=4, size_track=(9, 5))


def test_reset_marker_each_round_option():
    def after_round_one(**opt):
        st = std([["G25"], ["P8"], ["G17"], ["P29"]], trick_no=10, **opt)
        play(st, "G25", "P8", "G17", "P29")
        st.apply(">")
        return st

    assert after_round_one().marker == 11
    assert after_round_one(reset_marker_each_round=False).marker == 12


def test_placement_order_choose():
    st = std([["G5"], ["G30"], ["G12"]], placement_order="choose")
    ev = play(st, "G5", "G30", "G12")
    assert st.phase == "arrange" and st.current_player == 1 and ev[-1].kind == "arrange"
    legal = [str(a) for a in st.legal_actions()]
    assert len(legal) == 6 and "arrange G30,G5,G12" in legal
    refused(st, "arrange G30,G5", "Y8.3")
    refused(st, "arrange G30,G5,G13", "Y8.3")
    refused(st, "play G1", "Y8.2")
    refused(st, "move left", "Y7.4")
    st.apply("arrange G30,G5,G12")
    assert st.house(1) == ["G30", "G5", "G12"] and st.roofed[1]
    assert st.phase == "marker" and st.current_player == 0


def test_placement_order_choose_skips_single_cards_and_roofed_houses():
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], placement_order="choose")
    play(st, "G25", "P8", "G17", "P29")
    assert st.phase == "arrange" and st.current_player == 0  # two green cards; pink is one card
    st.apply("arrange G17,G25")
    assert st.house(0) == ["G17", "G25"] and st.house(3) == ["P8"] and st.phase == "marker"


def test_house_limit_option():
    st = std([["G1"], ["G5"], ["G9"], ["G13"]], house_limit=2)
    play(st, "G1", "G5", "G9", "G13")
    assert st.house(3) == ["G9", "G13"] and st.collapsed(3) == ["G1", "G5"]


def test_dealer_rotation_and_rounds_options():
    st = Y.new_game(players=4, dealer=1, dealer_rotation="fixed", rounds=2, seed=5)
    assert st.current_player == 2
    rng = random.Random(5)
    dealers = set()
    while not st.is_terminal:
        dealers.add(st.view(None)["dealer"])
        st.apply(rng.choice(st.legal_actions()))
    assert dealers == {1} and len(st.view(None)["results"]) == 2
    out = st.outcome()
    assert out.scores == tuple(st.totals) and "rule Y11.1" in out.reason
    assert set(out.winners) == {s for s in range(4) if st.totals[s] == max(st.totals)}
    with pytest.raises(ValueError, match="dealer"):
        Y.new_game(players=3, dealer=5)


def test_collapsed_visibility_count_only():
    st = std([["P11"], ["G9"], ["P7"], ["G14"]], houses=[["G1", "G2", "G3", "G4", "G5", "G6"], [], [], []],
             collapsed_visibility="count_only")
    play(st, "P11", "G9", "P7", "G14")
    assert st.view(1)["collapsed"][0] is None and st.view(1)["collapsed_counts"][0] == 2
    assert st.view(1)["collapsed_sizes"][0] is None
    assert st.view(0)["collapsed"][0] == ["G1", "G2"] and st.view(None)["collapsed"][0] == ["G1", "G2"]
    assert Y.new_game(players=4, seed=1).view(1)["collapsed"] == [[], [], [], []]


@pytest.mark.parametrize("mode, players, option, value", [
    ("duo", 2, "three_player_color", "green"), ("duo", 2, "rounds", 3), ("duo", 2, "card_set", "advanced"),
    ("duo", 2, "solo_removed", (30,)), ("solo", 1, "npc_seat", 1), ("solo", 1, "house_limit", 6),
    ("solo", 1, "collapsed_visibility", "public"), ("standard", 4, "duo_color", "green"),
    ("standard", 4, "solo_bonus_chain", True), ("standard", 4, "npc_seat", 0), ("duo", 2, "size_track", (1, 21)),
])
def test_options_refused_in_the_wrong_mode(mode, players, option, value):
    with pytest.raises(ValueError, match="does not apply"):
        Y.new_game(players=players, mode=mode, **{option: value})


def test_modes_and_players():
    with pytest.raises(ValueError, match="players"):
        Y.new_game(players=2)
    with pytest.raises(ValueError, match="players"):
        Y.new_game(players=3, mode="duo")
    with pytest.raises(ValueError, match="mode"):
        Y.new_game(mode="team")
    with pytest.raises(TypeError, match="unknown option"):
        Y.new_game(players=4, colour="green")


# =========================================================================== notation
@pytest.mark.parametrize("short, long", [
    ("G25", "play G25"), ("p8", "play P8"), ("<", "move left"), (">", "move right"), ("=", "move stay"),
    ("move <", "move left"), ("arrange g26, g10", "arrange G26,G10"), ("arrange G26 G10", "arrange G26,G10"),
    ("G17>B", "place G17 B"), ("g17 > b", "place G17 B"), ("place G17 on B", "place G17 B"),
    ("xC", "giveup C"), ("give up c", "giveup C"), ("dG", "draw green"), ("dp", "draw pink"), ("draw g", "draw green"),
    ("+P19", "take P19"), ("+-", "decline"), ("DECLINE", "decline"), ("row Pink", "row pink"),
])
def test_notation_short_and_long_forms(short, long):
    a = Y.parse_action(short)
    assert str(a) == long and Y.parse_action(long) == a and Y.parse_action(str(a)) == a


@pytest.mark.parametrize("bad", ["", "play", "play G0", "play G37", "play X5", "G05", "move up", "move 2",
                                 "place G17", "place G17 E", "G17>", ">B", "xE", "dX", "+", "+G99", "take",
                                 "arrange G1,G1", "row blue", "jump", "play ⑨", "play G²", "G" + "9" * 500,
                                 "arrange " + ",".join(["G1"] * 13)])
def test_notation_refuses_malformed_text(bad):
    with pytest.raises(InvalidActionError):
        Y.parse_action(bad)


def test_action_objects_validate_their_fields():
    for make in (lambda: C.Play(True), lambda: C.Play(1.0), lambda: C.Play("G37"), lambda: C.Move("up"),
                 lambda: C.Place("G1", "E"), lambda: C.Place(5, "A"), lambda: C.Draw("blue"), lambda: C.Take(None),
                 lambda: C.Arrange(("G1", "G1")), lambda: C.Arrange(())):
        with pytest.raises(InvalidActionError):
            make()
    assert C.Play("g1") is C.Play("G1") and C.Move("LEFT") == C.Move("left")


def test_history_round_trips_through_text():
    st = Y.new_game(players=5, seed=9, placement_order="choose")
    rng = random.Random(9)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    again = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert again.to_dict() == st.to_dict()


# =========================================================================== hidden information
def test_hands_are_private_and_aside_hidden():
    st = Y.new_game(players=4, seed=1)
    for s in range(4):
        v = st.view(s)
        assert [h is None for h in v["hands"]] == [x != s for x in range(4)]
        assert "aside" not in v and v["aside_count"] == 32
    assert len(st.view(None)["aside"]) == 32


def test_next_deal_is_not_previewed():
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], trick_no=10)
    play(st, "G25", "P8", "G17", "P29")
    ev = st.preview("move stay")
    assert ev[-1].kind == "preview_stop" and "shuffled" in ev[-1].text
    assert any(e.kind == "round_end" for e in ev)
    assert not any(e.kind == "deal" for e in ev)


def test_npc_card_is_never_previewed():
    st = Y.new_game(players=2, mode="duo", seed=4)
    card = st.view(None)["npc_deck"][0]
    a = st.legal_actions()[0]
    ev = st.preview(a)
    assert ev[-1].kind == "preview_stop" and "NPC" in ev[-1].text
    assert all(card not in e.text for e in ev)
    ex = st.explain(a)
    assert ex.legal and all(card not in e.text for e in ex.effects)
    for s in (0, 1):
        v = st.view(s)
        del v["sizes"], v["roofs"]
        assert f'"{card}"' not in json.dumps(v)


# =========================================================================== hand-built positions and decks
def test_setup_positions_replay():
    for st in (std([["G25"], ["P8"], ["G17"], ["P29"]], trick_no=10, houses=[["G3"], [], [], []]),
               Y.setup_duo([["G6"], ["G13"]], npc_deck=["G34"], trick_no=10, leader="npc"),
               Y.setup_position(mode="duo", hands=[["G6"], ["G13"]], trick_no=10)):
        origin = st.to_dict()
        rng = random.Random(1)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        rep = Replay.from_json(Replay.from_state(st).to_json())
        assert rep.position is not None and rep.build().to_dict() == st.to_dict()
        assert Y.from_dict(origin).to_dict() == origin


@pytest.mark.parametrize("kwargs, match", [
    (dict(hands=[["G1", "G2"], [], [], []], trick_no=10), "must hold"),
    (dict(hands=[["G1"], ["G1"], [], []]), "twice"),
    (dict(hands=[["X1"], [], [], []]), "not a card"),
    (dict(hands=[[], [], []]), "4 lists"),
    (dict(hands=[[], [], [], []], houses=[["G1"] * 1 + ["G2", "G3", "G4", "G5", "G6", "G7"], [], [], []]),
     "at most"),
    (dict(hands=[[], [], [], []], marker=30), "track"),
    (dict(hands=[[], [], [], []], trick=["G1", "G2", "G3", "G4"]), "at most"),
    (dict(hands=[[], [], []], players=3, three_player_color="green", trick=["P1"]), "not a card of this game"),
])
def test_setup_standard_refuses_bad_positions(kwargs, match):
    kwargs = {"players": 4, **kwargs}
    with pytest.raises(ValueError, match=match):
        Y.setup_standard(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(hands=[["G1", "G2"], []], trick_no=10), "hands[0]: player 0 must hold 1 cards at trick 10"),
    (dict(hands=[["G1"], ["G1"]]), "G1 is placed twice"),
    (dict(trick=["G1", "G2", "G3"]), "trick: at most 2 cards may be down already"),
    (dict(hands=[[], []], npc_deck=["G1"], discard=["G1"]), "G1 is placed twice"),
    (dict(houses=[["G1", "G2", "G3", "G4", "G5", "G6", "G7"], [], []]), "a house holds at most 6 cards (rule Y8.4)"),
])
def test_setup_duo_refuses_bad_positions(kwargs, message):
    with pytest.raises(ValueError) as info:
        Y.setup_duo(**kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("table, message", [
    ({"x": 1}, "'x' is not a number 1-36 or a card like 'G25'"),
    ({1: 1, "1": 2}, "1 is given twice"),
    ({"G1": 1, "g1": 2}, "'G1' is given twice"),
    ({1: 51}, "the size of 1 must be an int from 0 to 50"),
    ({"G2": False}, "the size of 'G2' must be an int from 0 to 50"),
])
def test_size_table_refusals_name_the_entry(table, message):
    assert C.check_size_table(table) == message
    with pytest.raises(ValueError, match="size_table"):
        Y.new_game(players=4, size_table=table)


def test_deck_validation_per_mode():
    good = [C.NAME[c] for c in range(72)]
    st = Y.new_game(players=4, deck=good)
    assert st.hand(0) == sorted(good[0:40:4], key=C.card_id) and st.deck_order == tuple(good)
    for bad, match in ((good[:-1], "missing"), (good + ["G1"], "extra"), (good[:-1] + ["X9"], "not a card name"),
                       ("G1 G2", "list")):
        with pytest.raises(ValueError, match=match):
            Y.new_game(players=4, deck=bad)
    with pytest.raises(ValueError, match="extra"):
        Y.new_game(players=3, deck=good)
    with pytest.raises(ValueError, match="missing|extra"):
        Y.new_game(players=2, mode="duo", deck=good[:36])
    st = Y.new_game(players=3, deck=[f"G{n}" for n in range(1, 37)], dealer=0)
    assert st.current_player == 1 and st.hand(1) == [f"G{n}" for n in range(1, 29, 3)]


def test_loading_refuses_inconsistent_states():
    st = Y.new_game(players=4, seed=2)
    d = st.to_dict()
    bad = json.loads(json.dumps(d))
    bad["state"]["hands"][0].append(bad["state"]["aside"].pop())
    with pytest.raises(ValueError):
        Y.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["hands"][0][0] = "G99"
    with pytest.raises(ValueError):
        Y.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["cur"] = 9
    with pytest.raises(ValueError):
        Y.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["marker"] = 40
    with pytest.raises(ValueError):
        Y.from_dict(bad)
    duo_d = Y.new_game(players=2, mode="duo", seed=1).to_dict()
    duo_d["state"]["npc_deck"] = duo_d["state"]["npc_deck"][:3]
    with pytest.raises(ValueError):
        Y.from_dict(duo_d)


# =========================================================================== narration and the table
def test_narration_cites_rules_and_reads_well():
    st = Y.new_game(players=4, seed=6)
    rng = random.Random(6)
    all_events = list(st.setup_events)
    while not st.is_terminal:
        all_events += st.apply(rng.choice(st.legal_actions()))
    for e in all_events:
        assert e.rule and e.text.endswith(".")
        rules.lookup(e.rule, game="yadokarick")
        for rid in rules.cited(e.text, game="yadokarick"):
            rules.lookup(rid, game="yadokarick")
    kinds = {e.kind for e in all_events}
    assert {"deal", "play", "movers", "capture", "place", "marker", "lead", "score", "round_end",
            "game_end"} <= kinds


def test_the_mover_is_told_only_the_moves_the_track_allows():
    """At an end of the size track only the inward step and staying are legal (Y7.2): the
    narration offers those, not a step off the track."""
    def prompt(st):
        return [e.text for e in play(st, "G25", "P8", "G17", "P29") if e.kind == "mover"]

    st = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=21)
    assert prompt(st) == ["B may move the marker from 21 one step left, or leave it (rule Y7.2)."]
    assert [str(a) for a in st.legal_actions()] == ["move left", "move stay"]
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=1)
    assert prompt(st) == ["B may move the marker from 1 one step right, or leave it (rule Y7.2)."]
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=11, size_track=(11, 11))
    assert prompt(st) == ["B may only leave the marker on 11 (the size track is that one number) (rule Y7.2)."]
    assert [str(a) for a in st.legal_actions()] == ["move stay"]
    st = std([["G25"], ["P8"], ["G17"], ["P29"]], marker=15)
    assert prompt(st) == ["B may move the marker from 15 one step left or right, or leave it (rule Y7.2)."]


def test_the_last_tied_player_leads_even_after_leaving_the_marker():
    """Y9.2: the last tied player to act leads, even when that player left the marker where it
    was; the narration says so rather than that the player moved it."""
    st = std([["G6"], ["P24"], ["P6"], ["G12"]], leader=2)
    play(st, "P6", "G12", "G6", "P24")
    st.apply(">")
    events = st.apply("=")
    lead = [e for e in events if e.kind == "lead"]
    assert [e.rule for e in lead] == ["Y9.2"] and lead[0].data["seat"] == 0
    assert "A leaves the marker" in " ".join(texts(events))
    assert "moving it or not" in lead[0].text and "to move the marker" not in lead[0].text


def test_an_arrange_refusal_names_no_option_the_mode_lacks():
    """Duo has no arrange step (and no placement_order option): its refusal must not send the
    player to an option duo refuses."""
    st = duo([["G6", "G1"], ["G13", "G2"]], npc_deck=["G34", "G9"], trick_no=9)
    err = refused(st, "arrange G6,G1", "Y8.3")
    assert "only a standard game with placement_order='choose'" in str(err)
    with pytest.raises(ValueError, match="placement_order does not apply to mode 'duo'"):
        Y.new_game(mode="duo", players=2, placement_order="choose")


def test_ui_candidates_explain_refusals():
    st = std([["G25", "G1"], ["P8", "P1"], ["G17", "G2"], ["P29", "P2"]], trick_no=9)
    play(st, "G25", "P8", "G17", "P29")
    cands = st.ui_candidates(1)
    assert "move left" in cands and "play P1" in cands
    assert str(st.explain("play P1", 1)).startswith("Illegal: rule Y7.4")
    assert st.ui_candidates(0) == ["play G1"]
    duo_st = Y.new_game(players=2, mode="duo", seed=1)
    assert duo_st.ui_candidates(0) == [str(a) for a in duo_st.legal_actions()]


def test_view_text_draws_from_the_view():
    st = Y.new_game(players=4, seed=1)
    text = str(st)
    assert "Yadokarick · 4 players" in text and "Aside:" in text
    assert "Aside" not in st.describe(0)
    assert "NPC deck (top first)" in str(Y.new_game(players=2, mode="duo", seed=1))
    assert "NPC deck (top first)" not in Y.new_game(players=2, mode="duo", seed=1).describe(0)


def _paths(obj, prefix=()):
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))


@pytest.mark.parametrize("mode, players, options, steps", [
    ("standard", 4, {"placement_order": "choose"}, 17), ("standard", 3, {"placement_order": "choose"}, 3),
    ("duo", 2, {}, 7), ("solo", 1, {}, 30)])
def test_hostile_state_files_load_or_refuse(mode, players, options, steps):
    """Any field of a saved state replaced by junk: loading refuses it with a ValueError, or the
    loaded game plays on without crashing."""
    st = Y.new_game(players=players, mode=mode, seed=5, **options)
    rng = random.Random(steps)
    for _ in range(steps):
        st.apply(rng.choice(st.legal_actions()))
    base = st.to_dict()
    for path in _paths(base["state"]):
        for junk in (None, -1, 5, "G1", [], ["G2"], True, 10**30):
            d = json.loads(json.dumps(base))
            o = d["state"]
            for k in path[:-1]:
                o = o[k]
            o[path[-1]] = junk
            try:
                x = Y.from_dict(d)
            except ValueError:
                continue
            x.view(None)
            r = random.Random(0)
            for _ in range(300):
                if x.is_terminal:
                    break
                x.apply(r.choice(x.legal_actions()))


def test_refusals_in_duo_and_after_the_end():
    st = duo([["G6", "G1"], ["G13", "G2"]], npc_deck=["G34", "G9"], trick_no=9)
    refused(st, "play G36", "Y13.5")
    refused(st, "play G13", "Y13.5")  # B's card: A does not hold it
    refused(st, "play G6", "G3", seat=1)
    refused(st, "G17>B", "G2")
    refused(st, "arrange G6", "Y8.3")
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    refused(st, "play G1", "G1")
    std_st = std([["G25"], ["P8"], ["G17"], ["P29"]], trick_no=10, rounds=1)
    play(std_st, "G25", "P8", "G17", "P29")
    refused(std_st, "arrange G25", "Y8.3")
    refused(std_st, "place G25 A", "G2")
    std_st.apply("=")
    assert std_st.is_terminal and std_st.phase == "finished" and std_st.legal_actions() == []
    refused(std_st, "move left", "G1")


# =========================================================================== notation hardening
@pytest.mark.parametrize("text", [",", " , ", ",,", ", ,\t,"])
def test_regression_commas_alone_are_invalid_everywhere(text):
    # Found by review: "," split into no word at all and parse_action raised IndexError, which
    # escaped apply, is_legal, explain (which must never raise), preview and replays.
    with pytest.raises(InvalidActionError, match="no action"):
        C.parse_action(text)
    for st in (Y.new_game(players=4, seed=1), Y.new_game(mode="solo", seed=1)):
        before = st.to_dict()
        with pytest.raises(InvalidActionError):
            st.apply(text)
        with pytest.raises(InvalidActionError):
            st.preview(text)
        assert not st.is_legal(text)
        ex = st.explain(text)
        assert not ex.legal and ex.rule is None and str(ex).startswith("Invalid:")
        assert st.to_dict() == before
    rep = Replay.from_state(Y.new_game(players=4, seed=1))
    rep.actions = [text]
    from cardwidgets import ReplayError

    with pytest.raises(ReplayError) as info:
        Replay.from_json(rep.to_json())
    assert info.value.index == 0


def test_any_text_parses_or_is_invalid_and_explain_never_raises():
    from hypothesis import given, settings
    from hypothesis import strategies as hs

    alphabet = hs.sampled_from(list("GPgp0123456789 ,<>=+-xXdD:;") + ["play", "move", "place", "give", "up",
                                                                      "arrange", "take", "draw", "row", "on",
                                                                      "green", "pink", "left", "\t", "\u00a0"])
    words = hs.lists(alphabet, max_size=12).map("".join)
    states = [Y.new_game(players=4, seed=1), Y.new_game(mode="duo", seed=1), Y.new_game(mode="solo", seed=1),
              Y.new_game(players=3, seed=2, placement_order="choose")]
    snapshots = [s.to_dict() for s in states]

    @settings(max_examples=600, deadline=None, derandomize=True, database=None)
    @given(hs.one_of(hs.text(max_size=40), words))
    def check(text):
        try:
            action = C.parse_action(text)
        except InvalidActionError:
            action = None
        if action is not None:
            assert C.parse_action(str(action)) == action
        for st in states:
            ex = st.explain(text)
            assert isinstance(ex.legal, bool) and isinstance(str(ex), str)
            for seat in (None, 0):
                st.explain(text, seat)

    check()
    assert [s.to_dict() for s in states] == snapshots


# =========================================================================== hidden collapsed piles
def _collapse_game(mode, **options):
    """A game under collapsed_visibility='count_only' played until some collapses happened; every
    event with the position it happened in."""
    for seed in range(40):
        st = Y.new_game(mode=mode, seed=seed, collapsed_visibility="count_only", **options)
        rng = random.Random(seed)
        events = []
        while not st.is_terminal:
            owners = [list(x) for x in st._collapsed]
            for e in st.apply(rng.choice(st.legal_actions())):
                events.append((e, owners))
        if sum(e.kind == "collapse" for e, _ in events) >= 2:
            return st, [e for e, _ in events]
    raise AssertionError("no collapse happened")


@pytest.mark.parametrize("mode, options", [("standard", dict(players=4, rounds=1)),
                                           ("standard", dict(players=3, rounds=1)),
                                           ("duo", dict(players=2))])
def test_count_only_collapses_are_narrated_without_their_cards(mode, options):
    st, events = _collapse_game(mode, **options)
    collapses = [e for e in events if e.kind in ("collapse", "collapse_cards")]
    names = set(C.NAME)
    for e in collapses:
        if e.kind == "collapse":  # the public line: who, and how many cards
            assert e.audience is None and set(e.data) == {"who", "count"}
            assert not names & set(e.text.replace(",", " ").replace(".", " ").split()), e.text
        else:  # the private line: the owner only (nobody at the table for the NPC)
            who = e.data["who"]
            owner = () if who == "the NPC" else ("AB".index(who) if mode == "duo" else "ABCDEFG".index(who),)
            assert e.audience == owner and e.data["cards"] and all(c in e.text for c in e.data["cards"])
    assert any(e.kind == "collapse_cards" for e in collapses)
    for seat in range(st.players):
        lines = [e for e in events if e.visible_to(seat)]
        for e in lines:
            if e.kind == "collapse_cards":
                assert e.audience == (seat,)
        mine = [e for e in collapses if e.kind == "collapse_cards" and e.audience == (seat,)]
        assert len([e for e in lines if e.kind == "collapse_cards"]) == len(mine)
    teacher = [e for e in events if e.visible_to(None)]
    assert len(teacher) == len(events)


def test_public_collapses_name_their_cards_to_everyone():
    st = std([["P11"], ["G9"], ["P7"], ["G14"]], houses=[["G1", "G2", "G3", "G4", "G5", "G6"], [], [], []])
    e = next(e for e in play(st, "P11", "G9", "P7", "G14") if e.kind == "collapse")
    assert e.audience is None and e.data["cards"] == ["G1", "G2"] and "G1 and G2 collapse face down, F = 3" in e.text


# =========================================================================== the right knob
@pytest.mark.parametrize("kwargs, words", [
    (dict(players=2), ["players=2 is not allowed", "use mode='duo'", "'standard' for 3–7 players",
                       "'duo' for 2 players", "'solo' for 1 player"]),
    (dict(players=1), ["use mode='solo'"]),
    (dict(players=3, mode="duo"), ["use mode='standard'"]),
    (dict(players=8), ["allowed values: 3, 4, 5, 6, 7", "'duo' for 2 players"]),
    (dict(mode="advanced"), ["mode='advanced' is not allowed", "use card_set='advanced'", "'solo' for 1 player"]),
])
def test_errors_point_at_the_mode_or_option_to_use(kwargs, words):
    with pytest.raises(ValueError) as info:
        Y.new_game(**kwargs)
    for w in words:
        assert w in str(info.value), str(info.value)
    text = "yadokarick/1 " + " ".join(f"{k}={v}" for k, v in {"players": 4, **kwargs}.items())
    with pytest.raises(ValueError) as info:  # a position text points at the same knob
        Y.from_position(text)
    assert all(w in str(info.value) for w in words), str(info.value)


# =========================================================================== the simulation fast path
@pytest.mark.parametrize("mode, options", [
    ("standard", dict(players=4)), ("standard", dict(players=3, three_player_capture="largest_size")),
    ("standard", dict(players=7, house_limit=2, rounds=1)),
    ("standard", dict(players=4, placement_order="choose", tie_leader="last_actual_mover", rounds=1)),
    ("duo", dict(players=2)), ("duo", dict(players=2, npc_seat=0, duo_first_leader=1)),
    ("duo", dict(players=2, npc_seat=2, house_limit=2, duo_roofs=False)),
    ("solo", dict(players=1)), ("solo", dict(players=1, solo_initial_row="one_color", solo_bonus_chain=False,
                                             solo_bonus_on_setup=True)),
])
def test_the_fast_path_leaves_the_state_apply_leaves_after_every_action(mode, options):
    """``apply_unchecked`` has its own code for the common steps (a play, the NPC's card, the
    judgment, a placement, a draw): after every action it must equal the narrated path."""
    for seed in range(6):
        slow = Y.new_game(mode=mode, seed=seed, **options)
        kit.lockstep(slow, random.Random(seed))
        assert slow.is_terminal


def test_the_fast_path_from_hand_built_positions():
    starts = [Y.setup_standard(4, [["G30", "G5"], ["P7", "G1"], ["P3", "G2"], ["G23", "G3"]], trick_no=9,
                               houses=[["G8", "G12", "G16", "G24", "G28", "G32"], [], [], []]),
              Y.setup_duo([["G36", "G1"], ["G8", "G2"]], npc_deck=["G20", "G5", "G9"], trick_no=9,
                          houses=[[], [], ["G4", "G7", "G11", "G15", "G19", "G23"]]),
              Y.setup_solo(["P17", "P19", "G5", "G31", "G8"], green=["G6", "G2"], pink=["P18", "P3"])]
    for start in starts:
        for seed in range(5):
            kit.lockstep(start.clone(), random.Random(seed))
