"""Crypto Trick positions as one line of text: the grammar of the rules reference's
"Position text" section, typed by hand with unknown parts, every kind of error with its
column, card conservation, and the same state for the same seed."""

from __future__ import annotations

import random
import re
from importlib import resources

import pytest

import kit
from cardwidgets import PositionError, Replay, Timeline, from_position
from cardwidgets.games import crypto_trick as ct
from cardwidgets.games.crypto_trick import new_game, setup_position

#: The example of the rules reference: round 1, trick 2, D took B's W6 and gave B the R3.
EXAMPLE = ("crypto_trick/1 players=4 round=1 trick=2 phase=follow turn=A first=B indicator=W1 hidden=Y5 "
           "hands=B1,B4,R1,P2,P5/B5,B6,R3,R5,P1/B3,R4,R6,P4,P6/Y1,B2,R2,P3 declared=yyn table=W6 "
           "won=-/Y2,Y4,Y3,Y6/-/- last=C:Y2,Y4,Y3,Y6 gives=1:C>A:B4,2:D>B:R3 move=D:give:R3")
#: The same trick typed from A's seat: the other hands unknown.
TYPED = ("crypto_trick/1 players=4 first=B indicator=W1 hands=B1,B4,R1,P2,P5/?/?/? declared=yyn table=W6 "
         "won=-/Y2,Y4,Y3,Y6/-/- gives=2:D>B:R3")


def reference() -> str:
    return resources.files("cardwidgets.rules").joinpath("crypto_trick.md").read_text(encoding="utf-8")


def test_the_reference_example_reads_back_as_written():
    section = reference().split("\n## Position text\n", 1)[1]
    assert EXAMPLE in section and TYPED in section
    for field in re.findall(r"^\| `(\w+)=", section, re.M):
        assert f"{field}=" in EXAMPLE or field in ("offer", "out", "totals", "past", "players"), field
    st = from_position(EXAMPLE)
    assert st.to_position() == EXAMPLE
    assert (st.phase, st.current_player, st.first_player, st.declarer, st.leader) == ("follow", 0, 1, 3, 3)
    assert st.table == [(3, "W6")] and st.hand(1) == ["B5", "B6", "R3", "R5", "P1"] and st.hidden_card == "Y5"
    assert st.view(None)["last_action"] == {"seat": 3, "action": "give R3"}
    assert st.view(2)["last_action"] == {"seat": 3, "action": "give"}  # C did not see the card
    assert [g["card"] for g in st.view(2)["gives"]] == ["B4", None]  # C gave A the B4
    assert [g["card"] for g in st.view(1)["gives"]] == [None, "R3"]
    assert st.view(None)["last_trick"]["winner"] == 1
    assert st.history == () and st.seed is not None
    kit.views_are_safe(st)
    kit.roundtrips(st)


def test_a_position_typed_by_hand_deals_its_unknown_parts():
    st = from_position(TYPED, seed=4)
    assert st.hand(0) == ["B1", "B4", "R1", "P2", "P5"]
    assert [len(st.hand(s)) for s in range(4)] == [5, 5, 5, 4]  # worked out from the trick (C5.7)
    assert (st.trick, st.phase, st.current_player, st.declarer) == (2, "follow", 0, 3)
    assert "R3" in st.hand(1)  # the card D gave B is in B's hand
    assert st.all_cards() == st._deck_counter()
    assert [str(a) for a in st.legal_actions()] == ["play B1", "play B4", "play R1", "play P2", "play P5"]
    # Another seed deals the unknown parts differently; the same seed, the same state.
    again = from_position(TYPED, seed=4)
    assert again.to_dict() == st.to_dict()
    deals = {tuple(map(tuple, from_position(TYPED, seed=s)._hands)) for s in range(12)}
    assert len(deals) > 6
    assert all(from_position(TYPED, seed=s).to_position().startswith("crypto_trick/1 players=4 round=1 trick=2 ")
               for s in range(3))


def test_unknown_hands_keep_the_cards_not_followed_and_the_cards_given():
    # B led Y5; C played P1 without following yellow, so C holds no yellow (C6.3).
    text = ("crypto_trick/1 players=4 trick=2 first=B indicator=R2 hands=?/Y1,Y6,R6,P5/?/? declared=nnn "
            "table=Y5,P1 won=-/-/Y2,Y3,B1,R4/-")
    for seed in range(40):
        st = from_position(text, seed=seed)
        assert not [c for c in st.hand(2) if c.startswith("Y")]
    # Unified trumps: a player who did not follow a trump lead holds neither trump colour (C6.4).
    text = ("crypto_trick/1 players=3 trump_follow_unified=true trick=2 first=A indicator=B2 hands=?/?/? "
            "declared=nn table=W6,R1 won=Y1,Y2,Y3/-/- out=?")
    for seed in range(40):
        st = from_position(text, seed=seed)
        assert not [c for c in st.hand(1) if c[0] in "BW"]
    # A card given face down to an unknown hand is in that hand; passed on, in the last receiver's.
    text = ("crypto_trick/1 players=4 trick=3 first=A indicator=R2 hands=?/?/?/? won=Y1,Y2,Y3,Y4/B1,B2,B3,B4/-/- "
            "gives=1:C>D:P6,2:D>B:P6")
    for seed in range(10):
        st = from_position(text, seed=seed)
        assert "P6" in st.hand(1)


def test_positions_of_every_phase_and_after_the_end_read_back():
    rng = random.Random(8)
    for opts in ({}, {"declaration_mode": "single_pass_first"}, {"overload_score": "negative_count", "rounds": 2},
                 {"exchange_visibility": "public", "colors": ["G", "P", "Y"]}):
        st = new_game(players=3, seed=3, **opts)
        phases = set()
        while True:
            text = st.to_position()
            again = from_position(text, seed=1)
            assert again.view(None) == st.view(None) and again.to_position() == text
            assert [str(a) for a in again.legal_actions()] == [str(a) for a in st.legal_actions()]
            phases.add(st.phase)
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_actions()))
        assert phases == {"offer", "declare", "give", "follow", "finished"}
        assert "past=" in text and "totals=" in text and "turn=-" in text


def test_negative_totals_and_labels_with_spaces():
    st = new_game(players=2, seed=5, overload_score="negative_count", color_labels={"Y": "Yellow Coin"})
    st._totals = (-4, 3)
    text = st.to_position()
    assert "totals=-4,3" in text and " ".join(text.split()) == text
    assert from_position(text).view(None) == st.view(None)


def test_hand_built_positions_write_their_text():
    st = setup_position(3, [["Y1"], ["B2"], ["R4"]], "B1", "W6", first=0, won=[["Y2", "Y3", "R3"], [], []])
    text = st.to_position()
    assert "out=" in text and "last=" not in text and "move=" not in text
    again = from_position(text)
    assert again.view(None) == st.view(None) and again.legal_actions() == st.legal_actions()
    st.apply("r Y1")
    assert from_position(st.to_position()).view(None) == st.view(None)


def test_cardwidgets_from_position_and_replays_start_from_the_text():
    import cardwidgets

    st = cardwidgets.from_position(TYPED, seed=2)
    assert type(st) is ct.CryptoTrickState
    rep = Replay.from_state(st)
    assert rep.position == TYPED and rep.actions == []
    line = st.clone()
    for _ in range(2):
        rep.actions.append(str(line.legal_actions()[-1]))
        line.apply(rep.actions[-1])
    tl = Timeline.from_replay(Replay.from_json(rep.to_json()))
    assert tl.cursor == 2 and tl.position(0).to_dict() == st.to_dict()
    assert tl.state.view(None) == line.view(None)


# --------------------------------------------------------------------------- errors
BASE = "crypto_trick/1 players=4 indicator=R2 hands=?/?/?/?"


@pytest.mark.parametrize("text, field, words", [
    ("crypto_trick/1 players=4 hands=?/?/?/?", "indicator", "missing"),
    (BASE.replace("R2", "Q2"), "indicator", "'Q2' is not a card"),
    (BASE.replace("R2", "G2"), "indicator", "'G2' is not in this game's deck"),
    (BASE.replace("?/?/?/?", "?/?/?"), "hands", "expected 4 parts"),
    (BASE.replace("?/?/?/?", "?/?/?/Y1,Y1,B3,B4,B5,B6"), "hands", "Y1 is placed twice"),
    (BASE.replace("?/?/?/?", "?/?/?/Y1,B2,B3,B4,B5"), "hands", "the unknown parts (?) hold 16 cards but 20"),
    (BASE.replace("?/?/?/?", "?6/?6/?6/?5"), "hands", "do not fit one trick"),
    (BASE.replace("?/?/?/?", "?6/?6/?6/?99999"), "hands", "out of range"),
    (BASE + " trick=3", "hands", "placed nowhere"),
    (BASE + " trick=9", "trick", "out of range"),
    (BASE + " round=4", "round", "out of range"),
    (BASE + " phase=bid", "phase", "not one of"),
    (BASE + " first=A turn=B", "turn", "it is A's turn"),
    (BASE + " turn=Q", "turn", "not a seat"),
    (BASE + " first=E", "first", "not a seat"),
    (BASE.replace("?/?/?/?", "?6/?/?/?") + " offer=Y1", "hands", "do not fit one trick"),
    (BASE.replace("?/?/?/?", "?6/?/?/?") + " offer=Y1 trick=1", "hands",
     "A holds 5 cards in trick 1, phase 'declare', not 6"),
    (BASE.replace("?/?/?/?", "?5/?/?/?") + " offer=Y1 phase=follow", "offer", "offered card"),
    (BASE + " phase=offer table=Y1", "table", "holds cards exactly while a trick is played"),
    (BASE.replace("?/?/?/?", "?5/?/?/?") + " offer=Y1 declared=nnnn", "declared", "at most 3 declarations"),
    (BASE.replace("?/?/?/?", "?5/?/?/?") + " offer=Y1 declared=nnn phase=declare", "declared", "everyone has declared"),
    (BASE.replace("?/?/?/?", "?5/?/?/?") + " offer=Y1 declared=nx", "declared", "'x' is not a declaration"),
    (BASE.replace("?/?/?/?", "?5/?/?/?") + " offer=Y1 phase=give declared=nnn", "declared", "somebody must want"),
    # single_pass_first: the first want takes the card, so nobody declares after it (a pass was dropped)
    (BASE.replace("?/?/?/?", "?5/?/?/?").replace("players=4", "players=4 declaration_mode=single_pass_first")
     + " offer=Y1 declared=nyn", "declared", "nobody declares after it"),
    (BASE.replace("?/?/?/?", "?5/?/?/?").replace("players=4", "players=4 declaration_mode=single_pass_first")
     + " offer=Y1 declared=yy", "declared", "nobody declares after it"),
    (BASE + " totals=1,2", "totals", "expected 4 totals"),
    (BASE + " totals=1,x,2,3", "totals", "not a number"),
    (BASE + " move=A:dance", "move", "not a move"),
    (BASE + " move=Z:pass", "move", "not a seat"),
    (BASE + " move=A", "move", "a move is the seat and the action"),
    (BASE + " move=A:pass", "move", "a round starts after the last play"),
    (BASE + " gives=1:A>B:Y1", "gives", "only a declarer who has led gives"),
    (BASE + " gives=1:A-B:Y1", "gives", "expected 2 parts"),
    (BASE + " last=A:Y1,Y2,Y3,Y4", "last", "there is none in trick 1"),
    (BASE + " last=A:Y1,Y2", "last", "expected 4 parts"),
    (BASE + " won=-/-/-", "won", "expected 4 parts"),
    (BASE + " past=W1:Y5:C", "past", "expected 4 parts"),
    (BASE + " round=2 past=W1:Y5:C:-/-/-/-", "first", "starts a round"),
    (BASE + " round=2 past=W1:W1:A:-/-/-/-", "past", "a card appears twice"),
    (BASE + " out=Y1", "hands", "hold 25 cards but 24"),
    (BASE + " zz=1", "zz", "unknown field"),
    (BASE + " colors=[\"Y\"]", "colors", "colors"),
    (BASE.replace("players=4", "players=2"), "hands", "expected 2 parts"),
    (BASE.replace("players=4", "players=3 first_player=4"), "first_player", "not a seat"),
    ("crypto_trick/1 players=3 trick=5 first=A indicator=R1 hands=?/Y2/? declared=nn table=Y1,B3 out=?", "hands",
     "B played B3 to the lead Y1 while holding Y2"),
    ("crypto_trick/1 players=3 trick=6 first=A indicator=B1 hands=-/-/- phase=follow declared=nn table=Y1,B2 "
     "out=?", "hands", "C holds 1 card"),
])
def test_bad_text_names_its_column(text, field, words):
    with pytest.raises(PositionError) as info:
        from_position(text, seed=1)
    err = info.value
    assert words in str(err), str(err)
    assert err.field == field, str(err)
    assert err.column is not None and 1 <= err.column <= len(text) + 1, str(err)
    # The column points into the field named (or past the end for a field left out).
    at = text.find(f" {field}=")
    if at >= 0:
        assert at + 2 <= err.column <= at + 2 + len(text[at + 1:].split(" ")[0]), (err.column, at, str(err))
    else:
        assert err.column == len(text) + 1 or field in ("hands",), str(err)


def test_card_conservation():
    full = new_game(players=2, seed=1).to_position()
    assert from_position(full).all_cards() == new_game(players=2, seed=1).all_cards()
    hands = re.search(r"hands=(\S+)", full).group(1)
    one = hands.split("/")[0].split(",")[0]
    # A card taken away: placed nowhere. A card added: placed twice. Both name the column.
    fewer = full.replace(f"hands={hands}", "hands=" + hands.replace(one + ",", "", 1))
    with pytest.raises(PositionError, match=f"{one} is placed nowhere|A holds"):
        from_position(fewer)
    twice = full.replace("hidden=", f"hidden={one} x=", 1)
    with pytest.raises(PositionError, match="placed twice|unknown field"):
        from_position(twice)
    with pytest.raises(PositionError, match="placed twice") as info:
        from_position(full.replace(f"indicator={re.search(r'indicator=(..)', full).group(1)}", f"indicator={one}"))
    assert info.value.column == full.index("indicator=") + len("indicator=") + 1
    # Unknown parts take exactly the cards placed nowhere, or out=? takes the rest.
    with pytest.raises(PositionError, match="hold 5 cards but 6"):
        from_position("crypto_trick/1 players=2 indicator=W1 hands=?/Y1,Y2,Y3,Y4,Y5 hidden=Y6 trick=2 out=-"
                      " won=B1/-")
    st = from_position("crypto_trick/1 players=2 indicator=W1 hands=?/Y1,Y2,Y3,Y4,Y5 trick=2 out=?", seed=3)
    assert len(st.hand(0)) == 5 and len(st._out) == 2 and st.all_cards() == st._deck_counter()


def test_the_same_seed_gives_the_same_state():
    texts = [TYPED, BASE, "crypto_trick/1 players=5 indicator=? hidden=? hands=?/?/?/?/?"]
    for text in texts:
        for seed in (0, 7, 2**40):
            a, b = from_position(text, seed=seed), from_position(text, seed=seed)
            assert a.to_dict() == b.to_dict() and a.seed == seed
            assert a.to_position() == b.to_position()
        assert len({from_position(text, seed=s).to_position() for s in range(6)}) > 1
    # The seed also drives every later shuffle: play to the next round, the same deal.
    a, b = from_position(BASE, seed=11), from_position(BASE, seed=11)
    rng = random.Random(1)
    while a.round == 1:
        act = rng.choice(a.legal_actions())
        a.apply(act)
        b.apply(act)
    assert a.to_dict() == b.to_dict()


def test_texts_with_a_part_changed_are_refused_with_a_column_or_play_to_the_end(report):
    """Real positions with one part of one field changed (a card, a seat, a count, a card
    swapped with another, a field left out): a PositionError with a column in the text, or
    a game that plays to its end."""
    rng = random.Random(5)
    junk = ["Y1", "W6", "B3", "G5", "?", "?3", "-", "Q9", "A", "D", "y", "n", "0", "7", ""]
    counts = {"refused": 0, "played": 0}
    for g in range(8):
        st = new_game(players=2 + g % 4, seed=g, **({"declaration_mode": "single_pass_first"} if g % 3 else {}))
        texts = []
        while not st.is_terminal:
            if rng.random() < 0.1:
                texts.append(st.to_position())
            st.apply_unchecked(rng.choice(st.legal_actions()))
        for text in texts + [st.to_position()]:
            parts = text.split(" ")
            for _ in range(8):
                i = rng.randrange(1, len(parts))
                key, _, value = parts[i].partition("=")
                pieces = re.split(r"([,/:;>])", value)
                pieces[rng.randrange(len(pieces))] = rng.choice(junk)
                cards = re.findall(r"[YBRPGW][0-9]", text)
                a, b = rng.sample(cards, 2)
                for bad in (" ".join(parts[:i] + [f"{key}={''.join(pieces)}"] + parts[i + 1:]),
                            " ".join(parts[:i] + parts[i + 1:]),
                            text.replace(a, "@").replace(b, a).replace("@", b)):
                    try:
                        again = from_position(bad, seed=1)
                    except PositionError as e:
                        assert e.column is None or 1 <= e.column <= len(bad) + 1, (bad, str(e))
                        counts["refused"] += 1
                        continue
                    kit.views_are_safe(again)
                    while not again.is_terminal:
                        again.apply(rng.choice(again.legal_actions()))
                    counts["played"] += 1
    assert counts["refused"] and counts["played"]
    report("crypto_trick positions", "crypto_trick", **counts)


def test_a_hand_built_start_has_no_start_of_its_own():
    """A hand-built start is a position: one that has a start of its own (nested without end,
    which JSON could not even write) is refused. (tests/test_conformance.py checks changed
    histories and seeds for every game.)"""
    built = setup_position(3, [["Y1"], ["B2"], ["R4"]], "B1", "W6", first=0, won=[["Y2", "Y3", "R3"], [], []])
    data = built.to_dict()
    assert ct.from_dict(data) == built
    inner = {k: v for k, v in data.items() if k != "history"}
    for depth in (1, 3000):
        nested = dict(inner)
        for _ in range(depth):
            nested = dict(inner, position=nested)
        with pytest.raises(ValueError, match="start of its own"):
            ct.from_dict(dict(data, position=nested))
