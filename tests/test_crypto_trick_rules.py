"""Crypto Trick: every scenario of the rules (CT-X1, CT-X2, CT-01 to CT-21) as its own test,
every refusal with its rule ID, every option, the notation, hidden information,
hand-built positions, deck validation, and the greedy bot."""

from __future__ import annotations

import json
import random
import re

import pytest

import kit
from cardwidgets import IllegalActionError, InvalidActionError, Replay, rules
from cardwidgets.bots import make_bot
from cardwidgets.core import ANY, Timeline
from cardwidgets.games import crypto_trick as ct
from cardwidgets.games.crypto_trick import (Give, Pass, Play, Reveal, Want, card_id, new_game, parse_action,
                                            round_score, setup_position)
from cardwidgets.sim import simulate

S0, S1, S2, S3, S4 = range(5)


# --------------------------------------------------------------------------- helpers
def legal(st):
    return [str(a) for a in st.legal_actions()]


def ok(st, *actions, seat=ANY):
    """Apply legal actions (text), return all their events."""
    events = []
    for a in actions:
        assert st.is_legal(a, seat), st.explain(a, seat)
        assert st.check(a, seat) in st.legal_actions()
        events += st.apply(a, seat)
    return events


def refused(st, action, rule, text=None, seat=ANY):
    """The action is refused with ``rule`` (and ``text``), and the state is unchanged."""
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as info:
        st.apply(action, seat)
    err = info.value
    assert err.rule == rule, str(err)
    if text is not None:
        assert text in str(err), str(err)
    assert st.to_dict() == before, "a refused action must change nothing"
    assert not st.is_legal(action, seat)
    ex = st.explain(action, seat)
    assert not ex.legal and ex.rule == rule and str(ex) == str(err)
    rules.lookup(rule, game="crypto_trick")
    assert st.to_dict() == before
    return err


def dynamic(view):
    """A view without the game's static card lists (which name every card)."""
    return json.dumps({k: v for k, v in view.items() if k not in ("cards", "block_cards")})


def texts(events, seat=None):
    return [e.text for e in events if e.visible_to(seat)]


def deck_for(hands, indicator, hidden, first=0):
    """The deck order (top first) that deals these hands from ``first``, then the indicator and hidden card."""
    n = len(hands)
    order = [hands[(first + j) % n][i] for i in range(len(hands[0])) for j in range(n)]
    return order + [indicator, hidden]


def pile_score(pile, players=5, **opts):
    cfg = new_game(players=players, seed=0, **opts).config
    return round_score([card_id(c) for c in pile.split()], cfg.block, cfg.negative)


# --------------------------------------------------------------------------- lost example, rebuilt
def ctx1_position():
    hands = [["Y4", "Y1", "Y2", "B1", "P1"],
             ["Y6", "B3", "R1", "P2", "W1"],
             ["G1", "B4", "R2", "P3", "G2"],
             ["R6", "B5", "R3", "P4", "G4"],
             ["B2", "B6", "R4", "P5", "G5"]]
    return setup_position(5, hands, "G3", "W6", first=S0)


def test_CT_X1_trump_beats_lead_colour_and_off_colour_cannot_win():
    st = ctx1_position()
    assert st.trick == 2 and st.trumps == ["G", "W"] and st.first_player == S0
    ok(st, "S0: r Y4", "S1: n", "S2: n", "S3: n", "S4: n")
    assert st.leader == S0 and st.table == [(S0, "Y4")]
    assert legal(st) == ["play Y6"]
    ok(st, "S1: Y6", "S2: G1", "S3: R6")
    assert [st.card_class(c) for c in ("Y4", "Y6", "G1", "R6", "B2")] == ["lead", "lead", "trump", "off", "off"]
    events = ok(st, "S4: B2")
    trick = next(e for e in events if e.kind == "trick")
    assert trick.data["winner"] == S2 and trick.data["card"] == "G1" and trick.rule == "C7.2"
    assert "a trump beats the lead colour yellow" in trick.text
    assert sorted(st.won(S2)) == sorted(["Y4", "Y6", "G1", "R6", "B2"])
    assert st.score_now(S2)[0] == 1  # one block card: Y4
    assert st.phase == "offer" and st.current_player == S2 and st.first_player == S2 and st.trick == 3


def test_CT_X2_equal_trumps_the_later_card_wins():
    hands = [["Y4", "Y1", "Y2", "B1", "P1"],
             ["G6", "B3", "R1", "P2", "B4"],
             ["W6", "B5", "R2", "P3", "G2"],
             ["Y5", "R6", "R3", "P4", "G4"],
             ["P6", "B2", "R4", "P5", "G5"]]
    st = setup_position(5, hands, "G3", "W1", first=S0)
    ok(st, "r Y4", "n", "n", "n", "n", "G6", "W6", "Y5")
    events = ok(st, "P6")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S2, "W6")
    assert "ties G6 and was played later" in trick.text
    assert st.score_now(S2)[:2] == (2, 1)  # Y4 and Y5


# --------------------------------------------------------------------------- edge cases
def ct02_game():
    """CT-02's table: 4 players (Y B R P), indicator R2, S0 to offer."""
    hands = [["B3", "Y1", "P5", "R6", "W1", "Y6"],
             ["W6", "Y2", "Y3", "R1", "R3", "P2"],
             ["B5", "B1", "B2", "Y4", "R4", "P3"],
             ["P1", "B4", "B6", "Y5", "R5", "P4"]]
    st = new_game(players=4, seed=1, deck=deck_for(hands, "R2", "P6"))
    assert [st.hand(s) for s in range(4)] == [sorted(h, key=card_id) for h in hands]
    assert st.indicator == "R2" and st.hidden_card == "P6"
    return st


def test_CT_01_nobody_wants_the_offered_card():
    st = ct02_game()
    events = ok(st, "S0: r Y1", "S1: n", "S2: n", "S3: n")
    # Said once: nobody wants it, then A leads it.
    assert texts(events)[-2:] == ["Nobody wants Y1 (rule C5.3).",
                                  "A leads Y1 (rule C5.3). B follows first (rule C6.2)."]
    assert st.leader == S0 and st.table == [(S0, "Y1")] and st.declarer is None
    assert st.view(None)["table"][0]["position"] == 1
    assert len(st.hand(S0)) == 5  # of its 6 cards
    order = []
    while st.phase == "follow":
        order.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert order == [S1, S2, S3]


def test_CT_02_the_last_want_takes_the_card_and_F_follows():
    st = ct02_game()
    events = ok(st, "S0: r B3", "S1: y", "S2: n", "S3: y")
    assert st.declarer == S3 and st.phase == "give" and st.current_player == S3
    assert "D is the declarer: of the players who wanted B3, D declared last (rule C5.4)." in texts(events)
    ok(st, "S3: g P1")
    assert st.hand(S0) == ["Y1", "Y6", "R6", "P1", "P5", "W1"]  # the 6 cards of CT-02, in card order
    assert len(st.hand(S3)) == 5
    assert st.leader == S3 and st.table == [(S3, "B3")]
    assert st.current_player == S0
    assert legal(st) == ["play " + c for c in st.hand(S0)]  # no blue: everything is legal
    order = []
    while st.phase == "follow":
        order.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert order == [S0, S1, S2]


def test_CT_03_a_received_card_forces_F_to_follow():
    st = setup_position(3, [["Y2", "R5", "B1"], ["R1", "R2", "W6"], ["Y6", "R3", "B6"]], "B4", first=S0)
    assert st.trick == 4 and st.trumps == ["B", "W"]
    ok(st, "S0: r Y2", "S1: n", "S2: y", "S2: g Y6")
    assert st.leader == S2 and st.table == [(S2, "Y2")]
    assert st.hand(S0) == ["Y6", "B1", "R5"]
    assert legal(st) == ["play Y6"]
    refused(st, "play R5", "C6.3", "you must play yellow")
    ok(st, "S0: Y6")
    assert legal(st) == ["play R1", "play R2", "play W6"]  # no yellow: anything goes
    events = ok(st, "S1: W6")
    trick = next(e for e in events if e.kind == "trick")
    assert trick.data["winner"] == S1 and "a trump beats" in trick.text
    assert st.current_player == S1 and st.phase == "offer" and st.trick == 5


def test_CT_04_a_must_follow_violation_is_rejected():
    st = setup_position(3, [["Y2", "R4"], ["B5", "W6", "Y1"], ["Y3", "R1", "R2"]], "R3", first=S0,
                        phase="follow", table=["B2"], declarations=["pass", "pass"])
    assert st.current_player == S1
    err = refused(st, "S1: W6", "C6.3", "the lead is B2 and you hold B5: you must play blue")
    assert err.action == Play("W6")
    assert legal(st) == ["play B5"]


def ct05_position(**opts):
    hands = [["Y1", "B2"], ["G4", "W1", "Y2"], ["W6", "R6", "B3"], ["G3", "B1", "R1"], ["P6", "Y4", "B4"]]
    return setup_position(5, hands, "G5", first=S0, phase="follow", table=["G2"], declarations=["n"] * 4, **opts)


def test_CT_05_trump_coloured_lead_with_literal_following():
    st = ct05_position()
    assert st.trumps == ["G", "W"]
    refused(st, "S1: W1", "C6.3", "white and green are different colours for following (rule C6.4)")
    assert legal(st) == ["play G4"]
    ok(st, "S1: G4", "S2: W6", "S3: G3")
    assert [st.card_class(c) for c in ("G2", "G4", "W6", "G3", "P6")] == ["trump", "trump", "trump", "trump", "off"]
    events = ok(st, "S4: P6")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S2, "W6")
    assert "the highest trump" in trick.text


def test_CT_05_unified_trumps_make_white_follow_green():
    st = ct05_position(trump_follow_unified=True)
    assert legal(st) == ["play G4", "play W1"]
    ok(st, "S1: W1")
    assert legal(st) == ["play W6"]  # S2 holds a trump (W6): it must follow the trumps too
    refused(st, "S2: R6", "C6.3", "a trump (green or white")


def test_CT_06_white_lead_tied_by_the_indicator_colour():
    hands = [["Y1"], ["R1", "Y2"], ["B5", "Y3"], ["P6", "Y4"]]
    st = setup_position(4, hands, "R4", "W6", first=S0, phase="follow", table=["W1"], declarations=["n"] * 3)
    assert st.trumps == ["R", "W"] and st.hidden_card == "W6"
    events = ok(st, "S1: R1", "S2: B5", "S3: P6")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S1, "R1")
    assert "R1 ties W1 and was played later" in trick.text


def test_CT_07_a_white_indicator_means_only_white_is_trump():
    st = setup_position(3, [["Y1"], ["B6", "Y2"], ["R1", "B1"]], "W6", first=S0, phase="follow", table=["R3"],
                        declarations=["n", "n"])
    assert st.trumps == ["W"]
    assert st.card_class("B6") == "off"
    events = ok(st, "S1: B6", "S2: R1")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S0, "R3")
    assert "the highest red card" in trick.text


def test_CT_08_a_high_off_colour_card_cannot_win():
    st = setup_position(4, [["Y1"], ["R6", "Y2"], ["Y6", "R2"], ["B2", "B3"]], "P1", first=S0, phase="follow",
                        table=["B1"], declarations=["n"] * 3)
    assert st.trumps == ["P", "W"]
    events = ok(st, "S1: R6", "S2: Y6", "S3: B2")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S3, "B2")


def test_CT_09_last_trick_exchange_and_next_rounds_first_player():
    st = setup_position(3, [["Y1"], ["B2"], ["R4"]], "B1", first=S0, won=[["Y2", "Y3", "R3"], [], []])
    assert st.trick == 6 and st.round == 1 and st.trumps == ["B", "W"]
    ok(st, "S0: r Y1", "S1: n", "S2: y", "S2: g R4")
    assert st.hand(S2) == [] and st.hand(S0) == ["R4"]
    assert st.leader == S2 and st.table == [(S2, "Y1")]
    assert legal(st) == ["play R4"]
    ok(st, "S0: R4")
    events = ok(st, "S1: B2")
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["play", "trick", "round_end"] and "hidden_card" in kinds and "deal" in kinds
    trick = next(e for e in events if e.kind == "trick")
    assert trick.data["winner"] == S1
    end = next(e for e in events if e.kind == "round_end")
    assert end.rule == "C9.2" and end.data["round"] == 1 and end.data["hidden"] is None
    assert st.round == 2 and st.trick == 1 and st.phase == "offer"
    assert st.current_player == S1 and st.first_player == S1
    assert [len(st.hand(s)) for s in range(3)] == [6, 6, 6]
    record = st.view(S0)["results"][0]
    assert record["last_winner"] == S1 and record["hidden"] is not None


def test_CT_10_a_two_player_game():
    st = setup_position(2, [["B6", "B1", "Y4"], ["Y5", "Y1", "Y3"]], "Y2", first=S0)
    assert st.config.deck == tuple(sorted(card_id(c) for c in "Y1 Y2 Y3 Y4 Y5 Y6 B1 B2 B3 B4 B5 B6 W1 W6".split()))
    assert st.trumps == ["Y", "W"]
    ok(st, "S0: r B6", "S1: y", "S1: g Y5")
    assert st.leader == S1 and st.table == [(S1, "B6")]
    assert st.hand(S0) == ["Y4", "Y5", "B1"]
    assert legal(st) == ["play B1"]
    events = ok(st, "S0: B1")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S1, "B6")
    assert "the highest blue card" in trick.text


def test_CT_11_declaring_out_of_turn():
    st = ct02_game()
    ok(st, "S0: r B3")
    assert st.phase == "declare" and st.current_player == S1
    refused(st, "S0: y", "G3")  # the first player never declares
    refused(st, "want", "G3", seat=S0)
    refused(st, "S2: y", "G3", "it is B's turn, not C's")
    ok(st, "S1: y", "S2: n", "S3: y")
    assert st.declarer == S3
    refused(st, "S3: n", "C5.8", "the declarer may not withdraw")  # the rule that says so wins over G2
    refused(st, "S3: y", "C5.8", "the only action now is to give")
    refused(st, "S3: g Y1", "C5.5", "you hold no Y1")
    refused(st, "S3: g W6", "C5.5")


@pytest.mark.parametrize("pile", ["Y1 Y2 Y6 B1 B6 W6 R2 R6 P1 P2 P6 G6"])
def test_CT_12_no_blocks_scores_5(pile):
    assert pile_score(pile) == (0, 0, 5)


def test_CT_13_one_block_scores_1():
    assert pile_score("Y3 Y1 B6") == (1, 1, 1)


@pytest.mark.parametrize("pile, expect", [
    ("Y3 B4 R1", (2, 2, 4)), ("Y3 Y4", (2, 1, 2)), ("Y3 B4 R5 G6 W1", (3, 3, 9)), ("Y3 Y4 B5", (3, 2, 6)),
    ("Y3 Y4 Y5", (3, 1, 3)),
])
def test_CT_14_the_multiplier_for_2_and_3_blocks(pile, expect):
    assert pile_score(pile) == expect


@pytest.mark.parametrize("pile, score", [("Y3 Y4 B5 R3", 4), ("Y3 Y4 Y5 B3 B4 B5 R3", 7)])
def test_CT_15_four_or_more_blocks_lose_the_multiplier(pile, score):
    assert pile_score(pile)[2] == score


def test_CT_16_indicator_and_hidden_card_are_never_counted():
    st = setup_position(3, [["Y1"], ["R2"], ["R1"]], "Y3", "Y4", first=S0, won=[["B3", "B1"], [], []])
    assert st.score_now(S0) == (1, 1, 1)
    ok(st, "r Y1", "n", "n", "R2")  # nobody wants Y1: A leads it; B follows with R2 (no yellow)
    events = ok(st, "R1")
    end = next(e for e in events if e.kind == "round_end")
    # Y1 R2 R1 carry no block, whoever won them; Y3 (indicator) and Y4 (hidden) count for nobody.
    assert end.data["blocks"][S0] == 1 and end.data["scores"][S0] == 1
    assert sum(end.data["blocks"]) == 1
    assert end.data["indicator"] == "Y3" and st.view(S1)["results"][0]["hidden"] == "Y4"


def test_CT_17_a_shared_victory():
    st = setup_position(3, [["Y1"], ["Y2"], ["R1"]], "B3", first=S0, round=3, totals=[9, 9, 4])
    ok(st, "r Y1", "n", "n", "Y2")
    events = ok(st, "R1")
    assert st.is_terminal and st.phase == "finished"
    out = st.outcome()
    assert st.totals == (14, 14, 9) and out.scores == (14, 14, 9)
    assert out.winners == (S0, S1)
    assert out.reason == "A and B share the win with 14 points each, the highest total after 3 rounds (rule C10.1)"
    assert events[-1].kind == "game_end" and events[-1].rule == "C10.1"


def test_CT_18_the_exchanged_card_is_private():
    st = ct02_game()
    ok(st, "S0: r B3", "S1: y", "S2: n", "S3: y")
    events = ok(st, "S3: g P1")
    for seat in (S1, S2):
        seen = texts(events, seat)
        assert "D gives A a card face down (rule C5.5)." in seen
        assert not any("P1" in t for t in seen)
        v = st.view(seat)
        assert v["gives"] == [{"trick": 1, "from": S3, "to": S0, "card": None}]
        assert "P1" not in dynamic(v)
    for seat in (S0, S3):
        assert "The card is P1: only D and A know it (rule C11.3)." in texts(events, seat)
        assert st.view(seat)["gives"][0]["card"] == "P1"
    for seat in range(4):
        assert st.view(seat)["table"][0]["card"] == "B3"
    assert st.view(S1)["last_action"] == {"seat": S3, "action": "give"}
    assert st.view(S0)["last_action"] == {"seat": S3, "action": "give P1"}
    private = [e for e in events if e.audience is not None]
    assert len(private) == 1 and private[0].audience == (S3, S0)


def test_CT_19_white_cards_with_blocks():
    opts = dict(white_cards=[(3, True), (4, True)])
    assert pile_score("W3 Y4", **opts) == (2, 2, 4)
    st = new_game(players=3, seed=2, **opts)
    assert {"W3", "W4"} <= set(st.view(None)["cards"]) and {"W3", "W4"} <= set(st.view(None)["block_cards"])


def test_CT_20_the_next_first_player_is_the_trick_winner():
    st = ct02_game()
    ok(st, "S0: r B3", "S1: y", "S2: n", "S3: y", "S3: g P1")
    events = ok(st, "S0: Y1", "S1: W6", "S2: B5")
    trick = next(e for e in events if e.kind == "trick")
    assert (trick.data["winner"], trick.data["card"]) == (S1, "W6")
    assert st.phase == "offer" and st.current_player == S1 and st.first_player == S1
    assert st.declarer is None and st.leader is None
    assert "B opens trick 2 with an offer (rule C8.2)." in texts(events)


@pytest.mark.parametrize("players, size", [(2, 14), (3, 20), (4, 26), (5, 32)])
def test_CT_21_deck_composition_by_player_count(players, size):
    st = new_game(players=players, seed=3)
    assert len(st.config.deck) == size == 6 * players + 2
    assert all(len(st.hand(s)) == 6 for s in range(players))
    v = st.view(None)
    assert len(v["cards"]) == size and len(v["block_cards"]) == 3 * players
    assert sum(st.all_cards().values()) == size


@pytest.mark.parametrize("players", [1, 6, 0, "4", 4.0, True])
def test_CT_21_other_player_counts_are_rejected(players):
    with pytest.raises(ValueError, match="players"):
        new_game(players=players)


# --------------------------------------------------------------------------- refusals
def test_refusal_reveal_a_card_not_held_C5_1():
    st = ct02_game()
    refused(st, "reveal Y2", "C5.1", "you hold no Y2 (your hand: Y1 Y6 B3 R6 P5 W1)")
    refused(st, "r G1", "C5.1", "G1 is not a card of this game")


def test_refusal_give_a_card_not_held_C5_5():
    st = ct02_game()
    ok(st, "r B3", "y", "n", "n")
    assert st.declarer == S1
    refused(st, "give B1", "C5.5", "you hold no B1")


def test_refusal_play_a_card_not_held_C6_2():
    st = ct02_game()
    ok(st, "r Y1", "n", "n", "n")
    refused(st, "play Y4", "C6.2", "you hold no Y4")
    refused(st, "Y1", "C6.2")  # the lead card is on the table, not in anyone's hand
    refused(st, "play G2", "C6.2", "G2 is not a card of this game")


def test_refusal_must_follow_C6_3():
    st = ct02_game()
    ok(st, "r Y1", "n", "n", "n")
    assert legal(st) == ["play Y2", "play Y3"]
    refused(st, "play W6", "C6.3", "the lead is Y1 and you hold Y2 Y3: you must play yellow")


@pytest.mark.parametrize("phase_actions, bad", [
    ([], ["want", "give Y1", "play Y1"]),
    (["r Y1"], ["reveal Y6", "give Y2", "play Y2"]),
    (["r Y1", "y", "n", "n"], ["reveal W6", "play W6"]),
    (["r Y1", "n", "n", "n"], ["reveal Y2", "want", "pass", "give Y2"]),
])
def test_refusal_wrong_kind_for_the_phase_G2(phase_actions, bad):
    st = ct02_game()
    ok(st, *phase_actions)
    for action in bad:
        refused(st, action, "G2", f"in the {st.phase} phase")


def test_refusals_cite_the_rule_that_forbids_them_rather_than_G2():
    """C5.1: the first player must offer a card and cannot pass. C5.8: the declarer may not
    withdraw; giving is its only action."""
    st = ct02_game()
    refused(st, "pass", "C5.1", "must offer a card: passing is not allowed")
    ok(st, "r Y1", "y", "n", "n")
    for action in ("pass", "want"):
        refused(st, action, "C5.8", "may not withdraw")


def test_refusal_not_your_turn_G3_and_game_over_G1():
    st = ct02_game()
    refused(st, "S1: r W6", "G3")
    refused(st, "reveal Y1", "G3", seat=S2)
    refused(st, "reveal Y1", "G3", seat=None)
    st = setup_position(2, [["Y1"], ["Y2"]], "B1", round=3)
    ok(st, "r Y1", "n", "Y2")
    assert st.is_terminal and st.legal_actions() == []
    refused(st, "reveal Y1", "G1")
    refused(st, "want", "G1")


def test_every_refusal_in_a_random_game_names_a_rule_and_changes_nothing():
    rng = random.Random(5)
    st = new_game(players=4, seed=8)
    vocab = [f"{v} {c}" for v in ("reveal", "give", "play") for c in st.view(None)["cards"]] + ["want", "pass"]
    while not st.is_terminal:
        texts_ = legal(st)
        kit.refusals_change_nothing(st, rng.sample(vocab, 30), texts_)
        st.apply(rng.choice(st.legal_actions()))


# --------------------------------------------------------------------------- options
def test_option_numbers():
    st = new_game(players=3, seed=1, numbers=[0, 2, 4, 6, 8, 10], block_numbers=[4, 6])
    cards = st.view(None)["cards"]
    assert "Y10" in cards and "Y0" in cards and "Y1" not in cards and len(cards) == 20
    assert set(st.view(None)["block_cards"]) == {"Y4", "Y6", "B4", "B6", "R4", "R6"}
    assert str(parse_action("play y10")) == "play Y10"
    kit.playout("crypto_trick", dict(players=3, numbers=[0, 2, 4, 6, 8, 10], block_numbers=[4, 6]), seed=2,
                vocab=kit.vocabulary(ct, dict(players=3, numbers=[0, 2, 4, 6, 8, 10], block_numbers=[4, 6]),
                                     games=2), deep_steps=30, every=40)
    for bad in ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 5], [1, 2, 3, 4, 5, 100], [1, 2, 3, 4, 5, True], "123456", None):
        with pytest.raises(ValueError, match="numbers=.*allowed values: a list of 6 different ints"):
            new_game(players=3, numbers=bad)


def test_option_block_numbers():
    st = new_game(players=4, seed=1, block_numbers={6})
    assert st.view(None)["block_cards"] == ["Y6", "B6", "R6", "P6"]
    assert new_game(players=4, seed=1, block_numbers=[]).view(None)["block_cards"] == []
    with pytest.raises(ValueError, match=r"block_numbers=.*7 is not among numbers .* \(rule C1\.3\)"):
        new_game(players=4, block_numbers=[3, 7])
    with pytest.raises(ValueError, match="allowed values"):
        new_game(players=4, block_numbers=[3, 3])


def test_option_white_cards():
    st = new_game(players=2, seed=1, white_cards=[(6, False), (2, True)])
    assert st.options["white_cards"] == ((2, True), (6, False))
    assert "W2" in st.view(None)["block_cards"] and "W6" not in st.view(None)["block_cards"]
    for bad in ([(1, False)], [(1, False), (1, True)], [(1, "no"), (6, False)], [(1, False), (6, False), (3, True)]):
        with pytest.raises(ValueError, match=r"white_cards=.*allowed values: a list of 2 \(number, has_block\)"):
            new_game(players=2, white_cards=bad)


def test_option_colors():
    st = new_game(players=3, seed=1, colors=["g", "P", "Y"])
    assert st.view(0)["colors"] == ["Y", "P", "G"]
    assert {c[0] for c in st.view(None)["cards"]} == {"Y", "P", "G", "W"}
    assert new_game(players=2, seed=1).view(0)["colors"] == ["Y", "B"]
    with pytest.raises(ValueError, match=r"a 3-player game uses exactly 3 regular colours \(rule C2\.2\)"):
        new_game(players=3, colors=["Y", "B"])
    for bad in (["Y", "W", "B"], ["Y", "Y", "B"], ["Y", "X", "B"], 3):
        with pytest.raises(ValueError, match="colors=.*allowed values"):
            new_game(players=3, colors=bad)


def test_option_rounds():
    st = new_game(players=2, seed=4, rounds=1)
    rng = random.Random(0)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert st.round == 1 and len(st.view(0)["results"]) == 1
    assert "after 1 round" in st.outcome().reason
    st = new_game(players=2, seed=4, rounds=5)
    while not st.is_terminal:
        st.apply_unchecked(rng.choice(st.legal_actions()))
    assert len(st.view(0)["results"]) == 5
    assert st.move_count <= ct.SPEC.max_actions(2, st.options)
    for bad in (0, 21, 2.0, "3"):
        with pytest.raises(ValueError, match="rounds=.*allowed values"):
            new_game(players=2, rounds=bad)


def test_option_first_player():
    assert new_game(players=4, seed=1, first_player=2).current_player == 2
    seats = {new_game(players=4, seed=s, first_player="random").current_player for s in range(30)}
    assert seats == {0, 1, 2, 3}
    with pytest.raises(ValueError, match=r"first_player=4 is not allowed in a 4-player game.*\(rule C2\.5\)"):
        new_game(players=4, first_player=4)
    with pytest.raises(ValueError, match="first_player=.*allowed values"):
        new_game(players=4, first_player=-1)


def test_option_first_player_deals_from_that_seat():
    hands = [["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], ["B1", "B2", "B3", "B4", "B5", "B6"]]
    st = new_game(players=2, seed=1, deck=deck_for(hands, "W1", "W6", first=1), first_player=1)
    assert st.hand(0) == hands[0] and st.hand(1) == hands[1] and st.current_player == 1
    assert st.deck_order[0] == "B1"  # the first card goes to the first player


def test_option_declaration_mode_single_pass_first():
    st = new_game(players=4, seed=1, deck=ct02_game().deck_order, declaration_mode="single_pass_first")
    events = ok(st, "r B3", "n", "y")
    assert st.phase == "give" and st.declarer == S2 and st.current_player == S2
    assert any("nobody after declares" in t for t in texts(events))
    assert st.view(S0)["declarations"] == [{"seat": S1, "want": False}, {"seat": S2, "want": True}]
    ok(st, "g B1")
    assert st.leader == S2 and st.current_player == S3


def test_option_declaration_mode_default_is_last():
    st = ct02_game()
    ok(st, "r B3", "y", "y", "n")
    assert st.declarer == S2  # the last want, not the first


def test_option_trump_ranking_white_high():
    hands = [["Y1"], ["W1", "Y2"], ["G6", "Y3"]]
    for ranking, winner in (("equal", S2), ("white_high", S1)):
        st = setup_position(3, hands, "G1", first=S0, phase="follow", table=["R2"], declarations=["n", "n"],
                            colors=["Y", "R", "G"], trump_ranking=ranking)
        events = ok(st, "W1", "G6")
        trick = next(e for e in events if e.kind == "trick")
        assert trick.data["winner"] == winner, ranking
    assert "white ranks above the indicator colour" in trick.text


def test_option_overload_score_negative_count():
    assert pile_score("Y3 Y4 B5 R3") == (4, 3, 4)
    assert pile_score("Y3 Y4 B5 R3", overload_score="negative_count") == (4, 3, -4)
    assert pile_score("Y3 Y4 B5", overload_score="negative_count") == (3, 2, 6)


def test_option_exchange_visibility_public():
    st = new_game(players=4, seed=1, deck=ct02_game().deck_order, exchange_visibility="public")
    ok(st, "r B3", "y", "n", "y")
    events = ok(st, "g P1")
    gives = [e for e in events if e.kind.startswith("give")]
    assert len(gives) == 1 and gives[0].audience is None and "P1" in gives[0].text
    assert all(st.view(s)["gives"][0]["card"] == "P1" for s in range(4))
    # Everyone knows where P1 is, so a twin keeps it in A's hand for every seat.
    for seat in (S1, S2):
        for k in range(5):
            twin = st._twin(seat, random.Random(k))
            assert "P1" in twin.hand(S0) and twin.view(seat) == st.view(seat)


def test_option_won_pile_visibility_block_count_only():
    st = ct02_game()
    st2 = new_game(players=4, seed=1, deck=st.deck_order, won_pile_visibility="block_count_only")
    for s in (st, st2):
        ok(s, "r B3", "y", "n", "y", "g P1", "Y1", "W6", "B5")
    v_pub, v = st.view(S0), st2.view(S0)
    assert v_pub["won"][S1] == ["B3", "Y1", "W6", "B5"]
    assert v["won"][S1] is None and v["won_counts"][S1] == 4
    assert v["won_blocks"][S1] == 2 and v["won_block_colors"][S1] == ["B", "B"]
    assert v["score_now"][S1] == 2
    assert st2.view(S1)["won"][S1] == ["B3", "Y1", "W6", "B5"] and st2.view(None)["won"][S1] is not None


def test_option_color_labels():
    st = new_game(players=3, seed=1, color_labels={"y": "Bitcorn", "W": "Moon"})
    labels = st.view(0)["labels"]
    assert labels["Y"] == "Bitcorn" and labels["W"] == "Moon" and labels["B"] == "Tipple"
    assert new_game(players=3).view(0)["labels"] == ct.DEFAULT_LABELS
    for bad in ({"X": "a"}, {"Y": 3}, {"Y": "x" * 41}, ["Y"]):
        with pytest.raises(ValueError, match="color_labels=.*allowed values"):
            new_game(players=3, color_labels=bad)


def test_options_round_trip_through_json_and_replays():
    opts = dict(numbers=[2, 3, 4, 5, 6, 7], block_numbers={4, 5, 6}, white_cards=[(1, True), (7, False)],
                colors=["R", "G"], rounds=2, first_player="random", declaration_mode="single_pass_first",
                trump_follow_unified=True, trump_ranking="white_high", overload_score="negative_count",
                exchange_visibility="public", won_pile_visibility="block_count_only", color_labels={"R": "Ruby"})
    st = new_game(players=2, seed=9, **opts)
    rng = random.Random(2)
    for _ in range(30):
        st.apply(rng.choice(st.legal_actions()))
    data = json.loads(json.dumps(st.to_dict()))
    again = ct.from_dict(data)
    assert again.to_dict() == st.to_dict() and again.options == st.options
    rebuilt = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert rebuilt.to_dict() == st.to_dict()


def test_unknown_option_is_a_type_error():
    with pytest.raises(TypeError, match="unknown option"):
        new_game(players=3, trumps="W")


# --------------------------------------------------------------------------- notation
@pytest.mark.parametrize("long, short, cls", [
    ("reveal Y3", "r Y3", Reveal), ("want", "y", Want), ("pass", "n", Pass), ("give B2", "g B2", Give),
    ("play R5", "R5", Play),
])
def test_notation_long_and_short_forms_round_trip(long, short, cls):
    for text in (long, short, long.upper(), short.lower(), f"  {short}  ", short.swapcase()):
        a = parse_action(text)
        assert type(a) is cls and str(a) == long
        assert parse_action(str(a)) == a


def test_notation_cards_are_case_insensitive_and_canonical():
    assert parse_action("play w6") == Play("W6") == Play("w6")
    assert Reveal("y3").card == "Y3" and str(Give("b2")) == "give B2"
    assert parse_action("P1") == Play("P1") and parse_action("p1") == Play("P1")
    assert parse_action("g2") == Play("G2") and parse_action("g g2") == Give("G2")
    assert parse_action("r r5") == Reveal("R5") and parse_action("r5") == Play("R5")
    assert parse_action("Y") == Want() and parse_action("N") == Pass()


@pytest.mark.parametrize("bad", ["", "   ", "play", "reveal", "g", "x", "Y7x", "play Y", "play Y٣", "play Y³",
                                 "play Y1 Y2", "reveal Y3 now", "want Y3", "give", "Z3", "Y-1", "Y03", "Y100",
                                 "s0: r y3", "\x00", "play ⑨"])
def test_notation_malformed_text_is_invalid(bad):
    with pytest.raises(InvalidActionError):
        parse_action(bad)


@pytest.mark.parametrize("bad", [True, 1.0, 3, None, ("Y", 3), "Y", "W", "Q1"])
def test_action_objects_validate_their_card(bad):
    for cls in (Reveal, Give, Play):
        with pytest.raises(InvalidActionError):
            cls(bad)


def test_transcript_prefix_and_too_long_text():
    st = ct02_game()
    ok(st, "S0: r B3", "B: y", "s2: n")
    with pytest.raises(InvalidActionError, match="no seat S7"):
        st.apply("S7: y")
    with pytest.raises(InvalidActionError, match="at most"):
        st.apply("y" * 300)
    assert st.current_player == S3


def test_legal_actions_parse_back_and_follow_card_order():
    st = ct02_game()
    assert legal(st) == ["reveal Y1", "reveal Y6", "reveal B3", "reveal R6", "reveal P5", "reveal W1"]
    ok(st, "r B3")
    assert legal(st) == ["want", "pass"]
    for a in st.legal_actions():
        assert parse_action(str(a)) == a


# --------------------------------------------------------------------------- hidden information
def test_hidden_card_is_seen_by_nobody_until_the_round_ends():
    st = ct02_game()
    for seat in range(4):
        v = st.view(seat)
        assert v["hidden_card"] is None and "P6" not in dynamic(v)
    assert st.view(None)["hidden_card"] == "P6"
    assert not any("P6" in e.text for e in st.setup_events)


def test_explain_and_preview_never_reveal_the_hidden_card():
    st = setup_position(3, [["Y1"], ["B2"], ["R4"]], "B1", "W6", first=S0)
    ok(st, "r Y1", "n", "y", "g R4", "R4")
    assert st.current_player == S1 and legal(st) == ["play B2"]
    ex = st.explain("B2", S1)
    assert ex.legal and ex.effects[-1].kind == "preview_stop"
    assert "hidden card is turned up" in ex.effects[-1].text
    for e in [*ex.effects, *st.preview("B2")]:
        assert "W6" not in e.text and "W6" not in json.dumps(e.data)
    assert any(e.kind == "round_end" for e in ex.effects)
    events = st.apply("B2")
    assert any("The hidden card of round 1 was W6 (rule C11.4)." == e.text for e in events)


def test_explain_and_preview_never_reveal_the_given_card_to_others():
    st = ct02_game()
    ok(st, "r B3", "y", "n", "y")
    # Only the declarer can ask what its give would do; it sees its own card.
    assert any("P1" in e.text for e in st.explain("g P1", S3).effects)
    for seat in (S0, S1, S2):
        ex = st.explain("g P1", seat)
        assert not ex.legal and ex.rule == "G3" and not ex.effects
    ok(st, "g P1")
    # After the give, other seats asking about A's cards learn nothing about P1.
    for seat in (S1, S2):
        ex = st.explain("play P1", seat)
        assert ex.rule == "G3" and "P1" not in ex.reason.replace("play P1", "")
    assert st.explain("play P1", S0).legal


def test_narration_of_a_private_give_per_seat_in_a_timeline():
    st = ct02_game()
    tl = Timeline(st)
    for a in ("r B3", "y", "n", "y", "g P1"):
        tl.step(a)
    for seat in (S1, S2):
        assert not any("P1" in line for line in tl.narration(seat))
    for seat in (S0, S3, None):
        assert any("The card is P1" in line for line in tl.narration(seat))


def test_twins_keep_what_the_seat_knows():
    st = ct02_game()
    ok(st, "r B3", "y", "n", "y", "g P1")
    for seat in range(4):
        for k in range(10):
            twin = st._twin(seat, random.Random(k))
            assert twin.view(seat) == st.view(seat)
            assert twin.all_cards() == st.all_cards()
            if seat in (S0, S3):
                assert "P1" in twin.hand(S0)  # both know A holds it
    moved = {tuple(st._twin(S1, random.Random(k)).hand(S0)) for k in range(20)}
    assert len(moved) > 1  # B does not know A's hand, so it is dealt anew
    assert any(st._twin(S1, random.Random(k)).hidden_card != "P6" for k in range(20))


# --------------------------------------------------------------------------- round end, views, narration
def test_round_end_view_has_what_a_score_screen_needs():
    st = new_game(players=3, seed=12)
    rng = random.Random(3)
    while st.round == 1:
        st.apply(rng.choice(st.legal_actions()))
    v = st.view(S1)
    r = v["results"][0]
    for key in ("won", "blocks", "colors", "block_colors", "scores", "totals", "hidden", "indicator", "last_winner"):
        assert key in r
    assert all(len(r[k]) == 3 for k in ("won", "blocks", "colors", "scores", "totals"))
    assert r["totals"] == v["totals"] == list(st.totals) and v["round_scores"] == [r["scores"]]
    assert sum(len(w) for w in r["won"]) == 18
    for s in range(3):
        assert r["scores"][s] == round_score([card_id(c) for c in r["won"][s]], st.config.block)[2]
    assert v["won"] == [[], [], []] and v["score_now"] == [5, 5, 5]
    assert ct.SPEC.pauses == ("round_end",)


def test_score_now_follows_the_won_pile():
    st = ct02_game()
    ok(st, "r B3", "y", "n", "y", "g P1", "Y1", "W6", "B5")
    assert st.view(S2)["score_now"] == [5, 2, 5, 5] and st.score_now(S1) == (2, 1, 2)


def test_narration_cites_existing_rules_and_reads_like_a_person():
    st = new_game(players=4, seed=21)
    rng = random.Random(4)
    events = list(st.setup_events)
    while not st.is_terminal:
        events += st.apply(rng.choice(st.legal_actions()))
    kit.cited_rules("crypto_trick", events)
    kinds = {e.kind for e in events}
    assert {"deal", "indicator", "reveal", "declare", "lead", "play", "trick", "next_trick", "round_end",
            "hidden_card", "game_end"} <= kinds
    for e in events:
        assert e.text[0].isupper() and e.text.endswith(".")


def test_view_text_draws_from_a_view_only():
    st = ct02_game()
    ok(st, "r B3", "y")
    text = st.view_text(st.view(S1))
    assert "Offer: B3 by A · B:want" in text and "6 cards (hidden)" in text and "P6" not in text
    assert "Hidden card P6" in str(st)


def test_ui_candidates():
    st = ct02_game()
    assert st.ui_candidates(S0) == legal(st)
    assert st.ui_candidates(S1) == []  # not B's turn
    ok(st, "r B3")
    assert st.ui_candidates(S1) == ["want", "pass"] and st.ui_candidates(S2) == []
    ok(st, "n", "n", "n", "S1: Y2")
    hints = st.ui_candidates(S2)
    assert hints == ["play " + c for c in st.hand(S2)]
    reasons = {h: str(st.explain(h, S2)) for h in hints if h not in legal(st)}
    assert set(reasons) == {"play Y4", "play R4", "play P3"}
    assert reasons["play R4"] == "Illegal: rule C6.3 — the lead is B3 and you hold B1 B2 B5: you must play blue"
    assert st.ui_candidates(None) == []
    with pytest.raises(ValueError):
        st.ui_candidates(7)


# --------------------------------------------------------------------------- setup_position and decks
def test_setup_position_phases():
    hands = [["Y1", "Y2"], ["B1", "B2"], ["R1", "R2"]]
    st = setup_position(3, [["Y1"], ["B1", "B2"], ["R1", "R2"]], "W1", first=S0, phase="declare", offered="Y2",
                        declarations=["y"])
    assert st.phase == "declare" and st.current_player == S2 and st.offered == "Y2"
    assert st.view(S0)["declarations"] == [{"seat": S1, "want": True}]
    st = setup_position(3, [["Y1"], ["B1", "B2"], ["R1", "R2"]], "W1", first=S0, phase="give", offered="Y2",
                        declarations=["y", "n"])
    assert st.phase == "give" and st.current_player == S1 and st.declarer == S1
    st = setup_position(3, [["Y1"], ["B2"], ["R1", "R2"]], "W1", first=S0, phase="follow", table=["Y2", "B1"],
                        declarations=["n", "n"])
    assert st.current_player == S2 and st.table == [(S0, "Y2"), (S1, "B1")]
    assert st.view(S2)["winning"] == S0
    st = setup_position(3, hands, "W1", round=2, totals=[3, 4, 5], won=[["B3"], [], []])
    assert st.round == 2 and st.totals == (3, 4, 5) and st.won(S0) == ["B3"]
    data = st.to_dict()
    assert data["position"] is not None
    again = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert again.to_dict() == st.to_dict()


@pytest.mark.parametrize("kwargs, words", [
    (dict(hands=[["Y1"], ["B1"]]), "expected 3 hands"),
    (dict(hands=[["Y1"], ["B1"], ["R1", "R2"]]), "do not fit"),
    (dict(hands=[["Y1"], ["Y1"], ["R1"]]), "placed twice"),
    (dict(hands=[["Y1"], ["P1"], ["R1"]]), "not in this game's deck"),
    (dict(hands=[["Y1"], ["Q1"], ["R1"]]), "is not a card \\(a card name like"),
    (dict(hands=[[], [], []]), "1 to 6 cards"),
    (dict(phase="declare"), "needs the offered card"),
    (dict(phase="give", offered="Y2", declarations=["n", "n"]), "needs a declarer"),
    (dict(phase="give", offered="Y2", declarations=["y"]), "after all 2 declarations"),
    (dict(phase="declare", offered="Y2", declarations=["y", "n"]), "someone must still be to declare"),
    (dict(phase="follow"), "needs the table's cards"),
    (dict(phase="bid"), "allowed values"),
    (dict(first=3), "first must be a seat"),
    (dict(trick=2), "does not fit"),
    (dict(round=4), "round must be"),
    (dict(totals=[1, 2]), "totals"),
    (dict(declarations=["maybe"], phase="declare", offered="Y2"), "not 'want'/'pass'"),
])
def test_setup_position_refuses_inconsistent_positions(kwargs, words):
    args = dict(players=3, hands=[["Y1"], ["B1"], ["R1"]], indicator="W1")
    args.update(kwargs)
    with pytest.raises(ValueError, match=words):
        setup_position(**args)


def test_deck_validation():
    good = ct02_game().deck_order
    assert new_game(players=4, seed=0, deck=[c.lower() for c in good]).deck_order == good
    with pytest.raises(ValueError, match=r"deck is not the game's card multiset: missing 1×P6 \(rule C2\.2: 26 cards"):
        new_game(players=4, deck=good[:-1])
    with pytest.raises(ValueError, match="missing 1×P6; extra 1×Y1"):
        new_game(players=4, deck=[*good[:-1], "Y1"])
    with pytest.raises(ValueError, match="extra 1×G1"):
        new_game(players=4, deck=[*good, "G1"])
    with pytest.raises(ValueError, match=r"deck\[3\] = 'Z9' is not a card name"):
        new_game(players=4, deck=[*good[:3], "Z9", *good[4:]])
    with pytest.raises(ValueError, match="deck must be a list"):
        new_game(players=4, deck="Y1 Y2")


def test_deal_order_from_the_deck():
    st = ct02_game()
    d = st.deck_order
    assert st.hand(S1) == sorted(d[1:24:4], key=card_id)
    assert st.indicator == d[24] and st.hidden_card == d[25]


def test_loading_refuses_tampered_states():
    st = ct02_game()
    ok(st, "r B3", "y")
    good = st.to_dict()
    for path, value in [(("state", "hands", 0, 0), "Y2"), (("state", "hands", 1), []), (("state", "ph"), "bid"),
                        (("state", "cur"), 9), (("state", "wants"), -1), (("state", "offered"), None),
                        (("state", "totals"), [0, 0]), (("state", "indicator"), "Q1"), (("state", "round"), 0)]:
        data = json.loads(json.dumps(good))
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        with pytest.raises(ValueError):
            ct.from_dict(data)
    assert ct.from_dict(good).to_dict() == good


def test_same_seed_same_game_and_fast_path_equals_narrated():
    assert kit.fast_path_matches("crypto_trick", dict(players=5), range(3)) > 0
    a, b = new_game(players=3, seed=99), new_game(players=3, seed=99)
    assert a.to_dict() == b.to_dict()


# --------------------------------------------------------------------------- the greedy bot
def test_greedy_bot_beats_random_play_beyond_chance():
    res = simulate("crypto_trick", 300, bots=["greedy", "random", "random", "random"], seed=41, players=4)
    greedy = res.summary().table.iloc[0]
    assert greedy.win_low > 0.25, f"greedy wins {greedy.win_rate:.2f}"


def test_greedy_bot_is_seeded():
    a = simulate("crypto_trick", 6, bots="greedy", seed=5, players=3).games
    b = simulate("crypto_trick", 6, bots="greedy", seed=5, players=3).games
    assert a.equals(b)


def test_greedy_bot_sees_only_its_own_view():
    class Spy:
        def __init__(self, inner):
            self.inner, self.calls = inner, []

        def act(self, view, legal):
            self.calls.append(view)
            return self.inner.act(view, legal)

    st = new_game(players=4, seed=6)
    spy = Spy(make_bot("crypto_trick", "greedy", seed=1))
    while not st.is_terminal:
        p = st.current_player
        st.apply(spy.act(st.view(p), st.legal_actions()))
    assert spy.calls
    for view in spy.calls:
        me = view["seat"]
        assert all(h is None for s, h in enumerate(view["hands"]) if s != me)
        assert view["hidden_card"] is None
    # Its choice depends on its view only: the same view and legal list give the same action.
    st = new_game(players=4, seed=6)
    twin = st._twin(0, random.Random(1))
    x, y = make_bot("crypto_trick", "greedy", seed=3), make_bot("crypto_trick", "greedy", seed=3)
    assert x.act(st.view(0), st.legal_actions()) == y.act(twin.view(0), twin.legal_actions())


# --------------------------------------------------------------------------- loading only what a game can reach
def _tampered(data, path, value):
    data = json.loads(json.dumps(data))
    if not path:
        return value(data)
    node = data
    for k in path[:-1]:
        node = node[k]
    if callable(value):
        node[path[-1]] = value(node[path[-1]])
    else:
        node[path[-1]] = value
    return data


def _after(*actions):
    st = ct02_game()
    ok(st, *actions)
    return st


TRICK_1 = ("r B3", "y", "n", "y", "g P1", "Y1", "W6", "B5")  # D leads B3; B's W6 takes the trick


@pytest.mark.parametrize("actions, path, value, words", [
    # A position that loaded and then had no legal action: the first player must offer (C5.1).
    (TRICK_1, ("state", "cur"), 2, "the first player is to offer"),
    (TRICK_1, ("state",), lambda s: {**s, "first": 2, "cur": 2}, "the winner of the last trick opens the next one"),
    (TRICK_1, ("state", "last_trick"), lambda lt: [lt[0], lt[1], lt[2], 0], "is won by B, not A"),
    (TRICK_1, ("state", "gives"), lambda gs: [[1, 3, 0, "P6"]], "not an exchange of this round"),
    (TRICK_1, ("state", "won"), lambda w: [w[1][:1], w[1][1:], [], []], "the winner took the trick's cards last"),
    (TRICK_1, ("history",), lambda h: h[:3] + h[4:], "the history"),
    (TRICK_1, ("state", "wants"), 4, "between tricks nobody has declared"),
    (TRICK_1, ("state", "table"), ["B3"], "only while a trick is played"),
    (TRICK_1, (), lambda d: {**d, "history": [], "state": {**d["state"], "lmove": "play W6"}},
     "the move that leads here is C's play B5, not C's play W6"),
    (TRICK_1, ("state", "lmove"), "play W6", "the last move is the last action of the history"),
    (TRICK_1, ("deck",), lambda d: d[:-1] + ["Y1"], "deck is not the game's card multiset"),
    (TRICK_1, ("position",), "depot/1 players=4", "a starting position is crypto_trick position text"),
    # A did not follow blue, so A holds no blue (C6.3).
    (TRICK_1[:6], ("state", "hands"), lambda h: [sorted(h[0][1:] + ["B1"], key=card_id), h[1],
                                                  [c for c in h[2] if c != "B1"] + [h[0][0]], h[3]],
     "A played Y1 to the lead B3 while holding B1"),
    (TRICK_1[:6], ("state", "declarer"), 1, "the declarer is the last player who wanted the card"),
    (TRICK_1[:6], ("state", "wants"), 8, "the history does not hold this trick's declarations"),
    (TRICK_1[:6], ("state", "leader"), 0, "the declarer leads the offered card"),
    (TRICK_1[:4], ("state", "wants"), 2 | 4, "the declarer is the last player who wanted the card"),
    (TRICK_1[:4], ("state", "declarer"), None, "the declarer is the last player who wanted the card"),
    (TRICK_1[:4], ("state",), lambda s: {**s, "wants": 0, "declarer": None}, "the give phase needs a declarer"),
])
def test_loading_refuses_what_no_game_reaches(actions, path, value, words):
    st = _after(*actions)
    good = st.to_dict()
    assert ct.from_dict(good).to_dict() == good
    with pytest.raises(ValueError, match=re.escape(words)):
        ct.from_dict(_tampered(good, path, value))


def test_loading_checks_the_rounds_scored():
    st = new_game(players=3, seed=12)
    rng = random.Random(3)
    while st.round == 1:
        st.apply(rng.choice(st.legal_actions()))
    good = st.to_dict()
    ct.from_dict(good)
    for path, value, words in [  # words None: a hand-built position, sound as such
        (("state", "results", 0, 4, 0, 2), lambda s: s + 1, "scores are not those of its won piles"),
        (("state", "totals"), lambda t: [t[0] + 1] + t[1:], "the totals are those after the last round scored"),
        (("state", "results"), [], "a round starts after the last play of the round before"),
        ((), lambda d: {**d, "history": [], "state": {**d["state"], "results": [], "lmove": None, "lseat": None,
                                                      "totals": [0, 0, 0]}}, None),
        (("state", "round"), 3, "the rounds scored must run up to round 2"),
        (("state",), lambda s: {**s, "first": (s["first"] + 1) % 3, "cur": (s["first"] + 1) % 3}, "starts a round"),
    ]:
        if words is None:
            kit.roundtrips(ct.from_dict(_tampered(good, path, value)))
            continue
        with pytest.raises(ValueError, match=re.escape(words)):
            ct.from_dict(_tampered(good, path, value))


def test_setup_position_refuses_a_table_that_breaks_the_follow_rule():
    with pytest.raises(ValueError, match="B played B1 to the lead Y2 while holding Y3"):
        setup_position(3, [["Y1"], ["Y3"], ["R1", "R2"]], "W1", first=S0, phase="follow", table=["Y2", "B1"],
                       declarations=["n", "n"])


def test_a_replay_of_a_saved_mid_game_position_keeps_its_last_move():
    st = _after(*TRICK_1[:5])
    rep = Replay.from_state(st)
    rep.position, rep.actions, rep.deck = st.to_dict(), ["Y1"], None
    tl = Timeline.from_replay(Replay.from_json(rep.to_json()))
    assert tl.position(0).view(S1)["last_action"] == {"seat": S3, "action": "give"}
    assert tl.state.view(None)["last_action"] == {"seat": S0, "action": "play Y1"}


def test_negative_numbers_are_written_with_a_minus_sign():
    st = setup_position(2, [["Y1"], ["B1"]], "W1", "W6", first=S0, overload_score="negative_count", rounds=1,
                        won=[["Y3", "Y4", "Y5", "B3"], []], totals=[-1, 2])
    events = ok(st, "r Y1", "n", "B1")
    end = next(e for e in events if e.kind == "round_end")
    assert "4 blocks = \u22124 (no multiplier)" in end.text and "A \u22125" in end.text
    assert end.data["scores"][0] == -4 and end.data["totals"][0] == -5
    assert not re.search(r"(?<![\w-])-\d", " ".join(e.text for e in events))
    over = next(e for e in events if e.kind == "game_end")
    assert "B wins with 7 points" in over.text
    st = setup_position(2, [["Y1"], ["B1"]], "W1", "W6", first=S0, overload_score="negative_count", rounds=1,
                        won=[["Y3", "Y4", "Y5", "B3"], []], totals=[1, -8])
    events = ok(st, "r Y1", "n", "B1")
    assert "A and B share the win with \u22123 points each" in events[-1].text


@pytest.mark.parametrize("cfg", [dict(players=2), dict(players=3, declaration_mode="single_pass_first"),
                                 dict(players=4, trump_follow_unified=True, exchange_visibility="public"),
                                 dict(players=5, trump_ranking="white_high", overload_score="negative_count")],
                         ids=kit.label)
def test_the_fast_path_takes_every_step_the_narrated_path_takes(cfg):
    """``apply_unchecked`` does the steps of ``apply`` without narration in one call: the
    same state after every action, to the end of whole games."""
    for seed in range(6):
        kit.lockstep(new_game(seed=seed, **cfg), random.Random(seed), views=True)
