"""Yadokarick determinization (``state.sample_world``): over many samples at chosen positions,
every place an unseen card could be occurs, and no place it could not be.

What a seat knows: its own hand, every card played (face up, Y4.3), houses, the discard pile,
collapsed piles (public, or under ``collapsed_visibility="count_only"`` seen face up in a
house before they collapsed), hand and pile sizes. There is no duty to follow (Y4.2), so
nothing more is known about a hand. Hidden: the other hands, the cards set aside, the NPC
deck and its order (duo), the two decks' order (solo), where each deck's colour is known.
"""

from __future__ import annotations

import random
from collections import defaultdict

from cardwidgets.games import yadokarick as Y

SAMPLES = 300


def advance(st, steps, seed=1):
    rng = random.Random(seed)
    for _ in range(steps):
        st.apply(rng.choice(st.legal_actions()))
    return st


def places(world, seat):
    """Where each card is, by the name of its place."""
    out = {}
    for s in range(world.players):
        for c in world.hand(s):
            out[c] = f"hand {s}"
    for c in world.view(None)["aside"]:
        out[c] = "aside"
    if world.mode == "duo":
        for i, c in enumerate(world.view(None)["npc_deck"]):
            out[c] = "npc top" if i == 0 else "npc deck"
    for w, pile in enumerate(world.view(None)["collapsed"]):
        for c in pile:
            out[c] = f"collapsed {w}"
    return out


def public(st, seat):
    """What the seat has seen, which every world keeps as it is."""
    v = st.view(None)
    return (st.hand(seat), v["houses"], v["collapsed"] if st.options["collapsed_visibility"] == "public"
            else v["collapsed"][seat], v["discard"], v["trick"], v["last_trick"], v["last_action"],
            [str(a) for a in st.history])


def test_standard_every_unseen_card_goes_everywhere_it_could_be():
    st = advance(Y.new_game(players=4, seed=3), 23)
    seat = 1
    unseen = [c for s in range(4) if s != seat for c in st.hand(s)] + st.view(None)["aside"]
    where = defaultdict(set)
    rng = random.Random(5)
    for _ in range(SAMPLES):
        world = st.sample_world(seat, rng)
        assert world.view(seat) == st.view(seat) and public(world, seat) == public(st, seat)
        assert [len(world.hand(s)) for s in range(4)] == [len(st.hand(s)) for s in range(4)]
        found = places(world, seat)
        for c in unseen:
            where[c].add(found[c])
    allowed = {"hand 0", "hand 2", "hand 3", "aside"}
    assert all(where[c] == allowed for c in unseen), {c: where[c] for c in unseen if where[c] != allowed}


def test_three_players_the_six_cards_aside_are_unknown_too():
    st = advance(Y.new_game(players=3, seed=8), 4)
    aside = st.view(None)["aside"]
    assert len(aside) == 6
    where = defaultdict(set)
    rng = random.Random(2)
    for _ in range(SAMPLES):
        found = places(st.sample_world(0, rng), 0)
        for c in aside + st.hand(1):
            where[c].add(found[c])
    assert all(where[c] == {"hand 1", "hand 2", "aside"} for c in aside + st.hand(1))


def test_a_world_depends_on_what_the_seat_knows_only():
    """Two positions the seat cannot tell apart give the same world for the same rng: no trace of
    the real hidden cards (not even through the order they were pooled in)."""
    for mode, players, steps in (("standard", 5, 17), ("duo", 2, 5), ("solo", 1, 30)):
        st = advance(Y.new_game(mode=mode, players=players, seed=4), steps)
        for seat in range(players):
            twin = st.sample_world(seat, random.Random(99))  # the same to the seat, cards dealt otherwise
            assert twin.view(seat) == st.view(seat)
            for k in range(5):
                a, b = st.sample_world(seat, random.Random(k)), twin.sample_world(seat, random.Random(k))
                assert a.to_dict() == b.to_dict(), (mode, seat, k)


def test_count_only_collapsed_cards_seen_in_a_house_stay():
    st = Y.new_game(players=4, seed=12, collapsed_visibility="count_only")
    rng = random.Random(12)
    while not any(st._collapsed) or st.phase != "play":
        st.apply(rng.choice(st.legal_actions()))
    piles = st.view(None)["collapsed"]
    assert st.view(0)["collapsed"][1:] == [None] * 3  # face down to the others
    for _ in range(50):
        assert st.sample_world(0, rng).view(None)["collapsed"] == piles


def test_count_only_collapsed_cards_a_hand_built_start_put_there_are_unknown():
    hands = [["G25", "G2"], ["P8", "G4"], ["G17", "P6"], ["P29", "P10"]]
    st = Y.setup_standard(4, hands, trick_no=9, collapsed_visibility="count_only",
                          houses=[["G1", "G3", "G5", "G7", "G9", "G11"], ["P1", "P3", "P5", "P7", "P9", "P11"], [], []],
                          collapsed=[["G13"], ["P13", "P15"], [], []])
    st.apply("play G25")
    seen_by_0 = defaultdict(set)
    rng = random.Random(3)
    for _ in range(SAMPLES):
        world = st.sample_world(0, rng)
        assert world.view(0) == st.view(0)
        assert world.collapsed(0) == ["G13"] and len(world.collapsed(1)) == 2
        found = places(world, 0)
        for c in ("P13", "P15"):
            seen_by_0[c].add(found[c])
    assert seen_by_0["P13"] == seen_by_0["P15"] == {"collapsed 1", "hand 1", "hand 2", "hand 3", "aside"}
    public = Y.setup_standard(4, hands, trick_no=9, houses=[["G1", "G3", "G5", "G7", "G9", "G11"],
                                                            ["P1", "P3", "P5", "P7", "P9", "P11"], [], []],
                              collapsed=[["G13"], ["P13", "P15"], [], []])
    for _ in range(20):
        assert public.sample_world(0, rng).collapsed(1) == ["P13", "P15"]  # public piles are seen


def test_count_only_scoring_is_not_previewed_while_a_pile_is_face_down():
    """The last marker move of a round scores it, which gives every collapsed size F (Y10.2).
    While another pile holds cards the seat never saw face up (a hand-built start's), the
    preview and the explanation stop before the scoring, in the position and in its worlds
    (and in a world's world) alike; with public piles, or in a game played from its deal,
    where the seat saw every collapsed card in a house, they go on to the scores."""
    text = ("yadokarick/1 players=3 mode=standard collapsed_visibility=count_only trick=10 turn=A "
            "hands=G1/G36/G18 houses=G2,G3,G4,G5,G6,G7/G12,G13,G14,G15,G16,G17/G23,G24,G25,G26,G27,G28 "
            "collapsed=G8,G9,G11/G19,G21,G22/G29,G31,G32 aside=?")
    st = Y.from_position(text, seed=1)
    for a in ("play G1", "play G36", "play G18"):
        st.apply(a)
    seat = st.current_player
    said = [e.text for e in st.explain("move stay", seat=seat).effects]
    assert said[-1].startswith("Then the round is scored") and not any(" scores " in t for t in said)
    rng = random.Random(3)
    for _ in range(10):
        world = st.sample_world(seat, rng)
        for twin in (world, world.sample_world(seat, rng)):
            assert twin.view(seat) == st.view(seat)
            assert [e.text for e in twin.explain("move stay", seat=seat).effects] == said
            assert [e.text for e in twin.preview("move stay")] == said
    shown = Y.from_position(text.replace(" collapsed_visibility=count_only", ""), seed=1)
    for a in ("play G1", "play G36", "play G18"):
        shown.apply(a)
    assert any(" scores " in e.text for e in shown.preview("move stay"))
    played = Y.new_game(players=3, seed=0, collapsed_visibility="count_only")
    rng = random.Random(0)
    while played.view(None)["round"] == 1:
        if played.phase == "marker" and played.view(None)["trick_no"] == 10 and len(played._movers) == 1:
            last = played.current_player
            assert any(played.collapsed(w) for w in range(3) if w != last)  # seen in a house before
            assert any(" scores " in e.text for e in played.preview(played.legal_actions()[0]))
        played.apply(rng.choice(played.legal_actions()))


def test_duo_the_next_npc_card_is_unknown_until_turned():
    st = advance(Y.new_game(mode="duo", seed=6), 6)
    seat = st.current_player
    unseen = st.hand(1 - seat) + st.view(None)["npc_deck"]
    where = defaultdict(set)
    rng = random.Random(4)
    for _ in range(SAMPLES):
        world = st.sample_world(seat, rng)
        assert world.view(seat) == st.view(seat) and world.view(seat)["npc_deck_count"] == len(st._npc_deck)
        found = places(world, seat)
        for c in unseen:
            where[c].add(found[c])
    assert all(where[c] == {f"hand {1 - seat}", "npc top", "npc deck"} for c in unseen)
    # After the world moves on, the NPC plays the world's card, not the real one.
    tops = {st.sample_world(seat, random.Random(k)).view(None)["npc_deck"][0] for k in range(60)}
    assert len(tops) > 5


def test_solo_decks_keep_their_colour_and_lose_their_order():
    st = advance(Y.new_game(mode="solo", seed=2), 12)
    green, pink = st.view(None)["decks"]["green"], st.view(None)["decks"]["pink"]
    tops = [set(), set()]
    rng = random.Random(8)
    for _ in range(4 * SAMPLES):
        world = st.sample_world(0, rng)
        assert world.view(0) == st.view(0)
        decks = world.view(None)["decks"]
        assert sorted(decks["green"]) == sorted(green) and sorted(decks["pink"]) == sorted(pink)
        tops[0].add(decks["green"][0])
        tops[1].add(decks["pink"][0])
    assert tops == [set(green), set(pink)]


def test_solo_cards_out_of_play_are_unknown_within_their_colour():
    st = Y.setup_solo(["P17", "P19", "G5", "G31", "G8"], green=["G2", "G9"], pink=["P18", "P3"])
    out = st.view(None)["out"]
    assert st.view(0)["out_count"] == len(out) and "G4" in out
    where = defaultdict(set)
    rng = random.Random(1)
    for _ in range(SAMPLES):
        world = st.sample_world(0, rng)
        assert world.view(0) == st.view(0)
        decks = world.view(None)["decks"]
        assert all(c.startswith("G") for c in decks["green"]) and all(c.startswith("P") for c in decks["pink"])
        for c in ("G2", "G4", "P3", "P4"):
            where[c].add("green" if c in decks["green"] else "pink" if c in decks["pink"] else "out")
    assert where == {"G2": {"green", "out"}, "G4": {"green", "out"}, "P3": {"pink", "out"}, "P4": {"pink", "out"}}


def test_worlds_keep_the_history_the_seat_saw_and_play_on():
    st = advance(Y.new_game(players=4, seed=9), 30)
    world = st.sample_world(2, 7)
    assert world.history == st.history and world.last_move == st.last_move
    while not world.is_terminal:
        world.apply_unchecked(world.legal_actions()[0])
    assert world.outcome() is not None
