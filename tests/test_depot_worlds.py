"""Depot determinization: ``sample_world(seat, rng)`` deals again exactly what the seat
cannot place, and nothing else.

Public in Depot (D11): the Storage, the discard pile, the table, every play and every
pass (what was taken from the Storage and given to it), and so the cards a player was
seen taking, until that player plays or gives that many of the value. Hidden: the rest
of the other hands and the deck order; after a reshuffle the deck's cards are the
discard pile everyone saw, less what was drawn since (D9.1). Every action is public, so
a world keeps the real history.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardwidgets.games.depot import new_game, setup_position

A, B, C, D = range(4)


def _worlds(st, seat: int, count: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(count):
        world = st.sample_world(seat, rng)
        assert world.view(seat) == st.view(seat)
        assert world.all_cards() == st.all_cards()
        yield world


def _places(st, seat: int, count: int = 600):
    """Per value: in how many worlds some copy lay in each other hand (by seat) and in the deck."""
    seen: dict[int, Counter] = {v: Counter() for v in range(1, 9)}
    for world in _worlds(st, seat, count):
        for s in range(st.players):
            if s != seat:
                for v in set(world.hand(s)):
                    seen[v][s] += 1
        for v in set(world.view(None)["deck"]):
            seen[v]["deck"] += 1
    return seen


def _taken_fives():
    """B took both 5s from the Storage; the deck still holds a third 5."""
    st = setup_position(4, [[1, 1, 2, 8], [2, 3, 4], [3, 6, 7], [7, 8]], [5, 5, 6, 8],
                        deck=[1, 2, 3, 4, 6, 7, 8, 5, 1, 2], standing=(A, [1]), current=B, target=4)
    st.apply("pass take 5")
    return st


def test_cards_seen_taken_stay_in_the_hand():
    st = _taken_fives()
    assert st.hand(B).count(5) == 2
    for world in _worlds(st, A, 300):
        assert world.hand(B).count(5) >= 2
        assert world.hand(A) == st.hand(A)
        assert world.storage == st.storage and world.view(None)["discard"] == st.view(None)["discard"]


def test_every_consistent_place_occurs_and_no_other():
    st = _taken_fives()
    seen = _places(st, A)
    # A holds no 7; the 7s may be in B's, C's or D's unknown cards or in the deck.
    assert set(seen[7]) == {B, C, D, "deck"}
    # the third 5 is unseen: any hand or the deck (B's two known 5s are always there)
    assert set(seen[5]) == {B, C, D, "deck"} and seen[5][B] == 600
    # every 1 is placed: A holds two, the Storage one, the standing play one, the deck two...
    unseen = Counter(st.all_cards()) - Counter(st.hand(A)) - Counter(st.storage) - Counter([1]) \
        - Counter([5, 5])
    for v in range(1, 9):
        assert bool(seen[v]) == bool(unseen[v]), (v, seen[v], unseen[v])


def test_playing_a_copy_forgets_one_known_card_only():
    st = _taken_fives()
    st.apply("pass take 8")       # C
    st.apply("pass take 6")       # D: the round ends, A leads again
    assert st.phase == "lead" and st.current_player == A
    st.apply("play 2")
    st.apply("play 5")            # B plays one of its two known 5s: one is still known
    counts = Counter(w.hand(B).count(5) for w in _worlds(st, A, 400))
    assert min(counts) == 1, counts  # never fewer than the one still known
    assert max(counts) >= 2, counts  # the deck's 5 may have been in B's unknown cards all along
    assert st.hand(B).count(5) == 1 and 5 in st.view(None)["deck"]


def test_the_taker_itself_knows_its_hand_and_others_know_what_it_took():
    st = _taken_fives()
    for world in _worlds(st, B, 100):
        assert world.hand(B) == st.hand(B)  # its own hand never moves
    for world in _worlds(st, C, 100):
        assert world.hand(B).count(5) >= 2  # C saw the take too


def test_after_a_reshuffle_the_deck_keeps_its_cards():
    # DX-14: the deck runs dry during the refill; the discard [2,2,7] becomes the deck.
    st = setup_position(4, [[1, 3], [1, 4], [6, 8], [1, 1]], [1, 3, 3, 8], deck=[4], discard=[2, 2, 7],
                        standing=(A, [5, 6]), current=B, target=4)
    st.apply("pass take 3")
    deck = Counter(st.view(None)["deck"])
    assert sum(deck.values()) == 2 and deck <= Counter([2, 2, 7])
    orders = set()
    for world in _worlds(st, A, 200):
        assert Counter(world.view(None)["deck"]) == deck
        orders.add(tuple(world.view(None)["deck"]))
        for s in (C, D):
            assert not set(world.hand(s)) & {2, 7}, "a deck card went into a hand"
    assert len(orders) == len(set(__import__("itertools").permutations(st.view(None)["deck"])))


def test_before_a_reshuffle_hands_and_deck_share_their_cards():
    st = new_game(players=4, seed=12)
    seen = _places(st, A, 400)
    for v, where in seen.items():
        if where:
            assert set(where) == {B, C, D, "deck"}, (v, where)


def test_the_world_depends_only_on_what_the_seat_knows():
    rng = random.Random(4)
    for players, games in ((3, 1), (4, 3), (5, 1)):
        st = new_game(players=players, seed=players, games=games)
        step = 0
        while not st.is_terminal:
            if step % 9 == 0:
                seat = rng.randrange(players)
                twin = st.sample_world(seat, rng)  # the seat cannot tell these two apart
                a = st.sample_world(seat, random.Random(step)).to_dict()
                b = twin.sample_world(seat, random.Random(step)).to_dict()
                assert a == b, f"seat {seat}'s world depends on cards it cannot see (step {step})"
            st.apply(rng.choice(st.legal_actions()))
            step += 1


def test_unknown_cards_are_dealt_evenly():
    st = new_game(players=4, seed=5)
    # A sees 9 cards and the 4 in the Storage: 67 are dealt again, 27 of them to the other hands.
    pool = 80 - 9 - 4
    eights = Counter()
    n = 3000
    for world in _worlds(st, A, n, seed=9):
        for s in (B, C, D):
            eights[s] += world.hand(s).count(8)
        eights["deck"] += world.view(None)["deck"].count(8)
    unseen = 7 - st.hand(A).count(8) - st.storage.count(8)
    for where, size in ((B, 9), (C, 9), (D, 9), ("deck", pool - 27)):
        expected = n * unseen * size / pool
        assert abs(eights[where] - expected) < 0.1 * expected + 30, (where, eights[where], expected)


def test_a_new_game_of_a_match_forgets_what_was_known():
    st = new_game(players=3, seed=8, games=3)
    rng = random.Random(8)
    while st.view(None)["game_no"] == 1:
        st.apply(rng.choice(st.legal_actions()))
    assert st._known == [0, 0, 0] and not st._deck_known
    seen = _places(st, A, 300)
    for v, where in seen.items():
        if where:
            assert set(where) == {B, C, "deck"}, (v, where)


@pytest.mark.parametrize("seat", [A, B, C, D])
def test_a_world_plays_on_like_a_game(seat):
    st = _taken_fives()
    world = st.sample_world(seat, 3)
    rng = random.Random(3)
    while not world.is_terminal:
        world.apply(rng.choice(world.legal_actions()))
    assert world.outcome() is not None


def test_giving_a_known_card_forgets_it_and_the_history_is_kept():
    st = _taken_fives()
    st.apply("pass take 8")       # C
    st.apply("pass take 6")       # D: round over
    st.apply("play 2")            # A leads
    st.apply("pass take 1 give 5")  # B gives one of its two known 5s to the Storage
    assert st.hand(B).count(5) == 1
    for world in _worlds(st, D, 200):
        assert world.hand(B).count(5) >= 1
        assert world.history == st.history and world.view(None)["last_action"] == st.view(None)["last_action"]
