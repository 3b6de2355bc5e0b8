"""Yadokarick solo: every scenario of the rules (YS-*), the refusals, the solo options, the end
check (against a brute force), hidden decks, and the hint."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cardwidgets import IllegalActionError, Replay, rules
from cardwidgets.games import yadokarick as Y
from cardwidgets.games.yadokarick import cards as C
from cardwidgets.games.yadokarick.solo import can_finish


def solo(row, **kw):
    return Y.setup_solo(list(row), **kw)


def refused(st, action, rule):
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert st.to_dict() == before
    rules.lookup(rule, game="yadokarick")
    return info.value


def legal(st):
    return [str(a) for a in st.legal_actions()]


YS_R1 = dict(crabs={"A": ["G21", "G15", "G10"], "B": ["P22", "G17"], "D": ["P36", "P33", "P29", "P25", "P18", "P12"]})


# =========================================================================== 19.5 from the rulebook
def test_YS_R1_placement_example():
    st = solo(["G23", "G19", "P27", "P17", "P16"], **YS_R1)
    assert st.roof_mode("A") and not st.roof_mode("B")
    assert st.is_legal("G23>A")
    refused(st, "G19>A", "Y14.7")
    refused(st, "P27>A", "Y14.5")
    assert st.is_legal("P17>B") and st.is_legal("P16>B")
    refused(st, "P27>B", "Y14.6")
    st.apply("G23>A")
    assert st.crab("A") == ["G23", "G21", "G15", "G10"]
    st = solo(["G16", "P19", "G5", "P35", "P5"], **YS_R1)
    refused(st, "G16>B", "Y14.5")
    refused(st, "P19>B", "Y14.6")
    assert st.is_legal("G5>C") and st.is_legal("P35>C")
    st2 = solo(["P14", "G3", "G5", "P35", "P5"], **YS_R1)
    refused(st2, "P14>D", "Y14.6")
    refused(st2, "G3>D", "Y14.5")
    ev = st.apply("P5>D")
    assert st.crab("D") == [] and sorted(st.view(0)["score_pile"]) == sorted(
        ["P36", "P33", "P29", "P25", "P18", "P12", "P5"])
    assert st.score == 14 and any(e.kind == "house_finished" and "+14" in e.text for e in ev)


def _ys_r2():
    st = solo(["P17", "P19", "G5", "G31"], pink=["P18", "P2", "P3"], crabs={"A": ["G36"]})
    assert st.phase == "refill" and legal(st) == ["draw green", "draw pink"]
    ev = st.apply("draw pink")
    return st, ev


def test_YS_R2_consecutive_number_bonus():
    st, ev = _ys_r2()
    assert st.phase == "bonus" and sorted(st.bonus_group) == ["P17", "P18", "P19"]
    assert ev[-1].kind == "bonus" and ev[-1].rule == "Y14.10"
    assert legal(st) == ["take P17", "take P19", "take P18", "decline"]
    st.apply("take P19")
    assert st.view(0)["score_pile"] == ["P19"] and st.score == 3
    assert st.row == ["P17", "G5", "G31", "P18"] and st.phase == "refill"


def test_YS_R3_giving_up():
    st = solo(["G1", "G2", "G3", "G4", "G5"], crabs={"B": ["G35", "P28", "G19", "P7"]})
    counts = st.deck_counts
    ev = st.apply("xB")
    assert st.view(0)["penalty"] == 13 and st.crab("B") == [] and not st.roof_mode("B")
    assert st.row == ["G1", "G2", "G3", "G4", "G5"] and st.deck_counts == counts and st.phase == "turn"
    assert [e.kind for e in ev] == ["give_up"]


def test_YS_R4_final_scoring():
    score = ["G4", "G8", "G12", "G16", "G24", "G28", "G32", "G36", "P4", "P8", "P12", "P16", "P24", "P28", "P32"]
    st = solo([], score=score, penalty=["G3", "G7", "P11", "P15"], green=[], pink=[])
    assert st.is_terminal and st.outcome().scores == (48,) and st.outcome().winners == (0,)
    assert "60 − 12 = 48" in st.outcome().reason


# =========================================================================== 19.6 edge cases
def test_YS_01_end_crabs_take_one_colour():
    st = solo(["P5", "G5", "P31", "G31", "G1"])
    refused(st, "P5>A", "Y14.5")
    refused(st, "G5>D", "Y14.5")
    assert st.is_legal("G5>A") and st.is_legal("P5>D")


def test_YS_02_middle_crabs_alternate():
    st = solo(["G20", "P20", "P9", "G9", "P8"], green=["G33", "G3"], pink=["P1", "P3"])
    assert st.is_legal("G20>C") and st.is_legal("P20>C")
    st.apply("P9>C")
    assert st.phase == "refill"
    st.apply("draw green")
    refused(st, "P8>C", "Y14.5")
    assert st.is_legal("G9>C")
    refused(st, "G20>C", "Y14.6")


def test_YS_03_roof_on_an_empty_crab():
    st = solo(["G20", "G27", "G18", "G1", "G2"])
    ev = st.apply("G20>A")
    assert st.crab("A") == ["G20"] and st.roof_mode("A") and any(e.kind == "roof_mode" for e in ev)
    st.apply("draw pink")
    assert st.is_legal("G27>A")
    refused(st, "G18>A", "Y14.7")
    st.apply("G27>A")
    assert st.crab("A") == ["G27", "G20"]


def test_YS_04_roof_mode_on_a_middle_crab():
    st = solo(["G25", "G21", "P26", "G1", "G2"], crabs={"C": ["P22", "G10"]})
    assert st.roof_mode("C")
    refused(st, "G21>C", "Y14.7")
    refused(st, "P26>C", "Y14.5")
    st.apply("G25>C")
    assert st.crab("C") == ["G25", "P22", "G10"]


def test_YS_05_finishing_a_house_in_roof_mode():
    st = solo(["G27", "G1", "G2", "G3", "G4"], crabs={"A": ["G24", "G21", "G15", "G12", "G11", "G10"]})
    ev = st.apply("G27>A")
    assert st.crab("A") == [] and not st.roof_mode("A") and st.score == 20
    assert any(e.kind == "house_finished" and "+20" in e.text for e in ev)


def test_YS_06_chain_of_bonuses():
    st, _ = _ys_r2()
    st.apply("take P19")
    st2 = solo(["P17", "G5", "G31", "P18"], green=["G6", "G8"], pink=["P2"], crabs={"A": ["G36"]})
    st2.apply("draw green")
    assert st2.phase == "bonus" and st2.bonus_group == ["G5", "G6"]
    st2.apply("take G6")
    assert st2.score == 2 and st2.phase == "refill"


def test_YS_07_take_or_decline():
    st, _ = _ys_r2()
    st.apply("take P17")
    assert st.score == 1
    st, _ = _ys_r2()
    ev = st.apply("+-")
    assert len(st.row) == 5 and st.phase == "turn" and ev[0].kind == "bonus_declined"


def test_YS_08_no_bonus():
    st = solo(["G5", "G7", "P8", "P20"], pink=["P6", "P1"], crabs={"C": ["P7"]})
    st.apply("draw pink")
    assert st.phase == "turn" and st.row == ["G5", "G7", "P8", "P20", "P6"]


def test_YS_09_no_bonus_during_setup():
    deck = ["P17", "P18"] + [C.NAME[c] for c in range(72) if C.NAME[c] not in ("P17", "P18", "G30", "P30")]
    st = Y.new_game(players=1, mode="solo", deck=deck)
    st.apply("draw pink")
    st.apply("draw pink")
    assert st.phase == "setup" and st.row == ["P17", "P18"]
    st = Y.new_game(players=1, mode="solo", deck=deck, solo_bonus_on_setup=True)
    st.apply("draw pink")
    st.apply("draw pink")
    assert st.phase == "bonus" and st.bonus_group == ["P17", "P18"]
    st.apply("take P18")
    assert st.phase == "setup" and st.row == ["P17"] and st.score == 2


def test_YS_10_running_out_of_cards():
    st = solo(["G1", "G2", "G3", "G4", "G5"], green=[], pink=["P19", "P17", "P15"],
              crabs={"D": ["P36", "P35", "P34", "P33", "P32"]})
    ev = st.apply("G5>B")
    assert st.row == ["G1", "G2", "G3", "G4", "P19"] and st.phase == "turn"
    assert any(e.kind == "draw" and "Only the pink deck" in e.text for e in ev)
    st.apply("G4>A")
    st.apply("G3>A")
    assert st.deck_counts == (0, 0) and len(st.row) == 5 and not st.is_terminal
    st.apply("P19>D")
    assert len(st.row) == 4 and not st.is_terminal
    st.apply("P17>D")
    assert len(st.row) == 3 and st.score == 4 + 3 + 2 + 1 + 4 + 3 + 1


def test_YS_11_game_ends_on_card_counts():
    st = solo(["G2", "P3"], green=[], pink=[],
              crabs={"A": ["G36", "G33", "G28"], "B": ["P35", "G31", "P26", "G22"], "D": ["P19", "P17"]})
    assert st.is_terminal and st.phase == "finished"
    assert st.outcome().scores == (0,) and any(e.kind == "game_end" for e in st.setup_events)


def test_YS_12_not_over_yet():
    st = solo(["P5", "G2"], green=[], pink=[], crabs={"A": ["G20"], "D": ["P36", "P34", "P32", "P28", "P24", "P12"]})
    assert not st.is_terminal
    ev = st.apply("P5>D")
    assert st.score == 23 and st.is_terminal and ev[-1].kind == "game_end" and ev[-1].rule == "Y14.13"


def test_YS_13_end_check_respects_placement_rules():
    st = solo(["P14", "G2"], green=[], pink=[],
              crabs={"A": ["G7"], "B": ["G36", "P33", "G29", "P25", "G9"],
                     "D": ["P36", "P34", "P32", "P28", "P24", "P12"]})
    assert st.is_terminal


def test_YS_14_give_up_legality():
    st = solo(["G1", "G2", "G3", "G4", "G5"], crabs={"B": ["P7"]})
    refused(st, "xC", "Y14.11")
    assert st.is_legal("xB") and st.is_legal("G5>B")
    ev = st.apply("xB")
    assert st.phase == "turn" and not any(e.kind in ("draw", "bonus") for e in ev)


def test_YS_15_forced_to_give_up():
    st = solo(["G36", "G35", "P36", "P35", "G34"], crabs={"A": ["G1"], "B": ["P1"], "C": ["G2"], "D": ["P2"]})
    assert legal(st) == ["giveup A", "giveup B", "giveup C", "giveup D"]
    st.apply("xB")
    assert st.view(0)["penalty"] == 1
    assert {"place G36 B", "place G35 B", "place P36 B", "place P35 B", "place G34 B"} <= set(legal(st))


def test_YS_16_the_solo_deck():
    st = Y.new_game(players=1, mode="solo", seed=1)
    v = st.view(None)
    assert v["deck_counts"] == [35, 35]
    assert "G30" not in v["sizes"] and "P30" not in v["sizes"]
    assert sorted(v["roofs"]) == ["G10", "G20", "P10", "P20"]


# =========================================================================== refusals
def test_solo_refusals_by_phase():
    st = Y.new_game(players=1, mode="solo", seed=3)
    refused(st, "row green", "Y14.2")
    refused(st, "G1>A", "G2")
    refused(st, "play G1", "G2")
    for _ in range(5):
        st.apply("draw green")
    assert st.phase == "turn"
    refused(st, "draw green", "Y14.9")
    refused(st, "take G1", "Y14.10")
    refused(st, "decline", "Y14.10")
    refused(st, "move left", "G2")
    refused(st, "xA", "Y14.11")
    missing = next(n for n in ("G36", "G35", "G34", "G33", "G32", "G31") if n not in st.row)
    refused(st, f"place {missing} B", "Y14.4")
    st.apply(st.legal_actions()[0])
    assert st.phase == "refill"
    refused(st, "place " + st.row[0] + " B", "Y14.9")
    refused(st, "xA", "Y14.9")
    refused(st, "decline", "G2")
    one = Y.new_game(players=1, mode="solo", seed=3, solo_initial_row="one_color")
    refused(one, "draw green", "Y14.2")
    assert legal(one) == ["row green", "row pink"]


def test_solo_refusals_in_the_bonus_phase():
    st, _ = _ys_r2()
    refused(st, "draw green", "Y14.10")
    refused(st, "G5>A", "Y14.10")
    refused(st, "xA", "Y14.10")
    refused(st, "take G5", "Y14.10")


# =========================================================================== options
def test_one_color_initial_row():
    st = Y.new_game(players=1, mode="solo", seed=3, solo_initial_row="one_color")
    assert st.phase == "setup_color"
    ev = st.preview("row pink")
    assert ev[-1].kind == "preview_stop"
    ev = st.apply("row pink")
    assert all(c.startswith("P") for c in st.row) and len(st.row) == 5 and st.phase == "turn"
    assert sum(1 for e in ev if e.kind == "draw") == 5


def test_roof_insert_strict():
    crabs = {"A": ["G21", "G10"]}
    assert solo(["G21", "G22", "G1", "G2", "G3"], crabs={"A": ["G20", "G10"]}).is_legal("G21>A")
    st = solo(["G22", "G23", "G1", "G2", "G3"], crabs=crabs, solo_roof_insert_nonstrict=False)
    assert st.is_legal("G22>A")
    st = solo(["P21", "G23", "G1", "G2", "G3"], crabs={"B": ["G21", "P10"]}, solo_roof_insert_nonstrict=False)
    refused(st, "P21>B", "Y14.7")
    st = solo(["P21", "G23", "G1", "G2", "G3"], crabs={"B": ["G21", "P10"]})
    assert st.is_legal("P21>B")


def test_house_complete_and_removed_options():
    st = solo(["G5", "G1", "G2", "G3", "G4"], crabs={"A": ["G9", "G7"]}, solo_house_complete=3)
    st.apply("G5>A")
    assert st.crab("A") == [] and st.score == 1 + 3 + 1
    st = Y.new_game(players=1, mode="solo", seed=1, solo_removed=[30, 1, 36])
    assert st.deck_counts == (33, 33) and "G1" not in st.view(0)["sizes"]
    with pytest.raises(ValueError, match="allowed"):
        Y.new_game(players=1, mode="solo", solo_removed=list(range(1, 33)))


def test_bonus_chain_option():
    def chain(**opt):
        st = solo(["P17", "P19", "G5", "G31"], green=["G6", "G9"], pink=["P18", "P2"], crabs={"A": ["G36"]}, **opt)
        st.apply("draw pink")
        st.apply("take P19")
        st.apply("draw green")
        return st

    assert chain().phase == "bonus"
    st = chain(solo_bonus_chain=False)
    assert st.phase == "turn" and st.row == ["P17", "G5", "G31", "P18", "G6"]


# =========================================================================== end check
def brute_can_finish(k, stack, row, complete, nonstrict=True):
    """Every order of every subset of the row, checked with the engine's own refusals."""
    roofs = C.size_tables({})[1]
    need = complete - len(stack)
    for r in range(need, len(row) + 1):
        for seq in itertools.permutations(row, need):
            s = list(stack)
            ok = True
            for c in seq:
                roof = any(roofs[x] for x in s)
                if k == 0 and c & 1 or k == 3 and not c & 1:
                    ok = False
                    break
                if s:
                    ref = s[0] if roof else s[-1]
                    if k in (1, 2) and (ref & 1) == (c & 1):
                        ok = False
                        break
                    good = (c >> 1 >= ref >> 1 if nonstrict else c >> 1 > ref >> 1) if roof else c >> 1 <= ref >> 1
                    if not good:
                        ok = False
                        break
                if roof:
                    s.insert(0, c)
                else:
                    s.append(c)
            if ok:
                return True
        break
    return False


def test_end_check_matches_a_brute_force():
    rng = random.Random(7)
    roofs = C.size_tables({})[1]
    deck = [c for c in range(72) if C.NUMBER[c] != 30]
    checked = 0
    for _ in range(3000):
        cards = rng.sample(deck, rng.randint(2, 11))
        row, rest = cards[:rng.randint(1, 5)], cards[5:]
        k = rng.randrange(4)
        stack = sorted(rest, key=lambda c: -(c >> 1))[:rng.randint(0, 6)]
        if rng.random() < 0.3:
            stack = sorted(stack, key=lambda c: c >> 1)
            stack.append(rng.choice([18, 19, 38, 39]) if 18 not in cards else 39)
        roof = any(roofs[c] for c in stack)
        for complete in (7, 5):
            if len(stack) >= complete:
                continue
            nonstrict = rng.random() < 0.7
            got = can_finish(k, stack, roof, row, complete, roofs, nonstrict)
            assert got == brute_can_finish(k, stack, row, complete, nonstrict), (k, stack, row, complete)
            checked += 1
    assert checked > 2000


def test_end_check_is_fast():
    import time

    roofs = C.size_tables({})[1]
    row = [C.card_id(c) for c in ("G20", "P19", "G18", "P17", "G16")]
    start = time.perf_counter()
    for _ in range(200):
        for k in range(4):
            can_finish(k, [C.card_id("P36")], False, row, 7, roofs)
    assert (time.perf_counter() - start) / 800 < 0.002


# =========================================================================== hidden decks, positions, decks
def test_decks_are_hidden():
    st = Y.new_game(players=1, mode="solo", seed=2)
    v = st.view(0)
    assert "decks" not in v and v["deck_counts"] == [35, 35]
    top = st.view(None)["decks"]["green"][0]
    ev = st.preview("draw green")
    assert ev[-1].kind == "preview_stop" and all(top not in e.text for e in ev)
    twin = st._twin(0, random.Random(1))
    assert twin.view(0) == v


def test_setup_solo_and_replay():
    st = solo(["G23", "G19", "P27", "P17", "P16"], **YS_R1)
    origin = st.to_dict()
    rng = random.Random(4)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert Replay.from_json(Replay.from_state(st).to_json()).build().to_dict() == st.to_dict()
    assert Y.from_dict(origin).to_dict() == origin
    for kw, match in ((dict(row=["G1"] * 2), "twice"), (dict(row=["G30"]), "not a card of this game"),
                      (dict(row=["G1"], crabs={"E": ["G2"]}), "unknown crab"),
                      (dict(row=["G1"], crabs={"A": ["G9", "G8", "G7", "G6", "G5", "G4", "G3"]}), "finished"),
                      (dict(row=["G1"], green=["P2"]), "other colour")):
        with pytest.raises(ValueError, match=match):
            Y.setup_solo(**kw)


def test_solo_deck_validation():
    deck = [C.NAME[c] for c in range(72) if C.NUMBER[c] != 30]
    st = Y.new_game(players=1, mode="solo", deck=deck)
    assert st.view(None)["decks"]["green"] == [c for c in deck if c[0] == "G"]
    with pytest.raises(ValueError, match="extra"):
        Y.new_game(players=1, mode="solo", deck=deck + ["G30"])
    with pytest.raises(ValueError, match="missing"):
        Y.new_game(players=1, mode="solo", deck=deck[1:])


def test_solo_views_and_text():
    st = Y.new_game(players=1, mode="solo", seed=2)
    assert json.loads(json.dumps(st.view(0))) == st.view(0)
    assert "Green deck (top first)" in str(st) and "Green deck" not in st.describe(0)
    assert st.seat_label(0) == "you"
    assert "draw green" in st.ui_candidates(0)


# =========================================================================== the hint
def test_hint_finishes_a_house_first():
    st = solo(["P5", "G23", "P17", "G1", "G2"], **YS_R1)
    action, why = st.hint()
    assert str(action) == "place P5 D" and "finishes the house" in why and "14" in why


def test_hint_forced_give_up_picks_the_cheapest():
    st = solo(["G36", "G35", "P36", "P35", "G34"], crabs={"A": ["G1"], "B": ["P4"], "C": ["G2"], "D": ["P3"]})
    action, why = st.hint()
    assert str(action) == "giveup A" and "must be given up" in why


def test_hint_takes_the_biggest_bonus_card():
    st, _ = _ys_r2()
    action, why = st.hint()
    assert str(action) == "take P19" and "worth 3" in why


def test_hint_is_always_legal_and_explained():
    rng = random.Random(3)
    for seed in range(4):
        st = Y.new_game(players=1, mode="solo", seed=seed)
        while not st.is_terminal:
            action, why = st.hint()
            assert st.is_legal(action) and isinstance(why, str) and why
            st.apply(action if rng.random() < 0.8 else rng.choice(st.legal_actions()))
    assert st.hint() == (None, "the game is over")


def test_hint_draws_the_colour_that_fits():
    st = solo(["G1", "G2", "G3", "G4"], crabs={"A": ["G5"], "B": ["G36"], "C": ["G35"], "D": ["P36"]})
    assert st.phase == "refill"
    action, why = st.hint()
    assert str(action) == "draw pink" and "fits" in why


def test_incremental_placement_lists_match_a_fresh_load():
    """The engine keeps each crab's possible placements up to date as the row and crabs
    change; a state loaded from scratch must offer exactly the same actions."""
    rng = random.Random(11)
    for seed in range(6):
        st = Y.new_game(players=1, mode="solo", seed=seed, solo_roof_insert_nonstrict=seed % 2 == 0)
        while not st.is_terminal:
            fresh = Y.from_dict(st.to_dict())
            assert [str(a) for a in st.legal_actions()] == [str(a) for a in fresh.legal_actions()]
            st.apply_unchecked(rng.choice(st.legal_actions()))


def test_a_spectator_is_told_it_cannot_act_in_words_that_read_in_solo():
    """Solo names its player "you": a spectator's G3 refusal must not read "it is you's turn"."""
    st = Y.new_game(mode="solo", players=1, seed=3)
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(st.legal_actions()[0], None)
    assert info.value.rule == "G3" and "a spectator cannot act" in str(info.value)
    assert "you's" not in str(info.value) and st.to_dict() == before
