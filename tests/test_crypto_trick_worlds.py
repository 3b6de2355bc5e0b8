"""Crypto Trick determinization (``sample_world``): against every world an independent
brute force finds consistent with what a seat saw (3 players, round 1: every deal of the
cards the seat did not see, replayed), no world is inconsistent and every consistent place
of every unseen card occurs; the inference rules one by one; and worlds depend only on
what the seat knows (two real games the seat cannot tell apart give the same worlds)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import kit
from cardwidgets.games import crypto_trick as ct
from cardwidgets.games.crypto_trick import Give, Play, Reveal, new_game, setup_position

S0, S1, S2, S3 = range(4)


# --------------------------------------------------------------------------- the brute force
def record(players: int, seed: int, steps: int, **opts):
    """A seeded random game of round 1: its start, the position after ``steps`` actions, and
    every ``(seat, action)`` played."""
    st = new_game(players=players, seed=seed, **opts)
    start, rng, log = st.clone(), random.Random(seed), []
    for _ in range(steps):
        p, a = st.current_player, rng.choice(st.legal_actions())
        log.append((p, a))
        st.apply(a)
        if st.round > 1:
            raise ValueError("past round 1")
    return start, st, log


def colours_that_follow(lead: str, indicator: str, unified: bool) -> set[str]:
    """C6.3, C6.4 written out again: the lead's colour, or both trump colours when unified."""
    trumps = {"W"} if indicator[0] == "W" else {"W", indicator[0]}
    return trumps if unified and lead[0] in trumps else {lead[0]}


def consistent_worlds(start, log, seat: int) -> dict[tuple, tuple]:
    """Every world consistent with what ``seat`` saw, with one way it came about: every deal of
    the cards the seat did not see (the other hands and the hidden card), the round replayed
    with each card played checked (in hand, following the lead colour when it can), and every
    card an unseen give could have been. Key: the other hands, the hidden card and the unseen
    given cards; value: a deal and gives that lead there."""
    n = start.players
    indicator = start.indicator
    unified = start.options["trump_follow_unified"]
    public = start.options["exchange_visibility"] == "public"
    mine = set(start.hand(seat))
    others = [p for p in range(n) if p != seat]
    unknown = sorted(set(ct.card_name(c) for c in start.config.deck) - mine - {indicator})
    found: dict[tuple, tuple] = {}

    def run(i, hands, offered, first, lead, gives, deal):
        if i == len(log):
            key = (tuple(tuple(sorted(hands[p], key=ct.card_id)) for p in others), deal[1],
                   tuple(c for c, seen in gives if not seen))
            found.setdefault(key, (deal, gives))
            return
        p, a = log[i]
        if type(a) is Reveal:
            if a.card in hands[p]:
                run(i + 1, {**hands, p: hands[p] - {a.card}}, a.card, p, None, gives, deal)
        elif type(a) is Give:
            seen = public or seat in (p, first)
            for c in ([a.card] if seen else sorted(hands[p])):
                if c in hands[p]:
                    run(i + 1, {**hands, p: hands[p] - {c}, first: hands[first] | {c}}, offered, first, lead,
                        gives + [(c, seen)], deal)
        elif type(a) is Play:
            lead = lead or offered
            follow = colours_that_follow(lead, indicator, unified)
            if a.card in hands[p] and (a.card[0] in follow or not any(c[0] in follow for c in hands[p])):
                run(i + 1, {**hands, p: hands[p] - {a.card}}, offered, first, lead, gives, deal)
        else:
            run(i + 1, hands, offered, first, lead, gives, deal)

    for hand in itertools.combinations(unknown, 6):
        rest = [c for c in unknown if c not in hand]
        for hand2 in itertools.combinations(rest, 6):
            hidden = next(c for c in rest if c not in hand2)
            hands = {seat: frozenset(mine), others[0]: frozenset(hand), others[1]: frozenset(hand2)}
            run(0, hands, None, None, None, [], ({p: sorted(hands[p]) for p in range(n)}, hidden))
    return found


def key_of(world, seat: int) -> tuple:
    public = world.options["exchange_visibility"] == "public"
    return (tuple(tuple(world.hand(p)) for p in range(world.players) if p != seat), world.hidden_card,
            tuple(ct.card_name(g[3]) for g in world._gives if not (public or seat in g[1:3])))


def places(worlds) -> set[tuple]:
    """(card, where) for every card of every world: a hand's index, the hidden card, an exchange."""
    out = set()
    for hands, hidden, gives in worlds:
        out |= {(c, i) for i, h in enumerate(hands) for c in h}
        out |= {(hidden, "hidden")} | {(c, f"give {j}") for j, c in enumerate(gives)}
    return out


def positions_with_secrets(opts: dict, want: int):
    """Round-1 positions of seeded 3-player games where a seat did not see an exchange (any
    seat, with public exchanges) and some player has not followed a colour."""
    out = []
    for seed in range(300):
        try:
            start, st, log = record(3, seed, random.Random(seed).randrange(10, 34), **opts)
        except ValueError:
            continue
        public = opts.get("exchange_visibility") == "public"
        for seat in range(3):
            know = ct._Knowledge(st, seat)
            void = know.caps or any(len(spots) < 3 for c, spots in know.allowed.items())
            if void and (public or any(seat not in g[1:3] for g in st._gives)):
                out.append((start, st, log, seat))
                break
        if len(out) == want:
            return out
    return out


@pytest.mark.parametrize("opts", [{}, {"trump_follow_unified": True}, {"declaration_mode": "single_pass_first"},
                                  {"exchange_visibility": "public"}],
                         ids=["default", "unified trumps", "first want", "public exchange"])
def test_worlds_are_exactly_the_consistent_ones(opts, report):
    checked = 0
    for start, st, log, seat in positions_with_secrets(opts, 2):
        truth = consistent_worlds(start, log, seat)
        assert key_of(st, seat) in truth  # the real world is one of them
        rng = random.Random(1)
        seen = Counter(key_of(st.sample_world(seat, rng), seat) for _ in range(1500))
        assert set(seen) <= set(truth), "a world the seat could rule out"
        assert places(seen) == places(truth), "a place an unseen card could be never occurs"
        checked += 1
    assert checked == 2
    report("crypto_trick worlds", "crypto_trick", brute_force_positions=checked)


def test_worlds_depend_only_on_what_the_seat_saw():
    """Two games the seat cannot tell apart (another consistent deal, the unseen exchanges
    replayed with other cards) give the same worlds for the same random numbers."""
    compared = 0
    for start, real, log, seat in positions_with_secrets({}, 3):
        truth = consistent_worlds(start, log, seat)

        def replay(hands, hidden, gives):
            order = [hands[j][i] for i in range(6) for j in range(3)] + [start.indicator, hidden]
            st = new_game(players=3, seed=real.seed, deck=order)
            secret = iter(c for c, seen in gives if not seen)
            for p, a in log:
                st.apply(f"give {next(secret)}" if type(a) is Give and seat not in (p, st.first_player) else a)
            return st

        st = replay(*truth[key_of(real, seat)][0], truth[key_of(real, seat)][1])
        assert st.view(None) == real.view(None)
        (hands, hidden), gives = next(v for k, v in sorted(truth.items()) if k != key_of(real, seat))
        twin = replay(hands, hidden, gives)
        assert twin.view(seat) == st.view(seat) and twin.to_dict() != st.to_dict()
        for k in range(5):
            a, b = st.sample_world(seat, k), twin.sample_world(seat, k)
            assert a.to_dict() == b.to_dict()
            compared += 1
    assert compared == 15


# --------------------------------------------------------------------------- the inference rules
def worlds(st, seat: int, n: int = 300, seed: int = 0):
    rng = random.Random(seed)
    return [st.sample_world(seat, rng) for _ in range(n)]


def ct02():
    """CT-02: A offers B3, B and D want it, D takes it and gives A the P1 face down."""
    hands = [["B3", "Y1", "P5", "R6", "W1", "Y6"], ["Y2", "B1", "R1", "P2", "W6", "Y3"],
             ["Y4", "B2", "R3", "P3", "B4", "R4"], ["P1", "B5", "R2", "P4", "Y5", "B6"]]
    order = [hands[j][i] for i in range(6) for j in range(4)] + ["R5", "P6"]
    st = new_game(players=4, seed=1, deck=order)
    for a in ("r B3", "y", "n", "y", "g P1"):
        st.apply(a)
    return st


def test_the_seat_keeps_its_hand_and_what_is_face_up():
    st = ct02()
    for w in worlds(st, S2):
        assert w.hand(S2) == st.hand(S2) and w.table == st.table and w.indicator == st.indicator
        assert w.view(S2) == st.view(S2)
        assert w.hidden_card not in st.hand(S2) and w.hidden_card not in ("B3", "R5")


def test_a_card_seen_given_stays_with_its_receiver():
    st = ct02()
    for seat in (S0, S3):  # the two players of the exchange know A holds P1
        assert all("P1" in w.hand(S0) for w in worlds(st, seat, 100))
    # B and C saw only that a card changed hands: P1 can be anywhere they cannot see,
    # and the card A got may be any card D could have given.
    spots = {next((s for s in range(4) if "P1" in w.hand(s)), "hidden") for w in worlds(st, S1)}
    assert spots == {S0, S2, S3, "hidden"}
    assert len({w._gives[0][3] for w in worlds(st, S1)}) > 3
    for w in worlds(st, S1):
        assert ct.card_name(w._gives[0][3]) in w.hand(S0)  # A has not played yet: it still holds it
        assert w.view(S1)["last_action"] == {"seat": S3, "action": "give"}
        assert w.view(None)["last_action"]["action"] == "give " + ct.card_name(w._gives[0][3])
    public = new_game(players=4, seed=1, deck=st.deck_order, exchange_visibility="public")
    for a in ("r B3", "y", "n", "y", "g P1"):
        public.apply(a)
    assert all("P1" in w.hand(S0) for w in worlds(public, S1, 100))


def test_a_player_who_did_not_follow_holds_none_of_the_colour():
    st = ct02()
    before = {s for w in worlds(st, S2) for s in (S0, S1, S3) if any(c[0] == "B" for c in w.hand(s))}
    assert before == {S0, S1, S3}
    st.apply("Y1")  # D led B3 and A plays yellow: A holds no blue (C6.3)
    for w in worlds(st, S2):
        assert not [c for c in w.hand(S0) if c[0] == "B"]
    # The blues C cannot see are with B, D or the hidden card, never with A.
    where = {s for w in worlds(st, S2) for s in (S0, S1, S3) if any(c[0] == "B" for c in w.hand(s))}
    assert where == {S1, S3}
    assert any(w.hidden_card[0] == "B" for w in worlds(st, S2))


def test_unified_trumps_make_a_void_in_both_trump_colours():
    # Trumps white and red; A leads R1; B has neither red nor white, C follows with W1.
    st = setup_position(3, [["Y1", "Y2"], ["Y3", "B1", "B2"], ["W1", "B3", "B4"]], "R2", first=S0,
                        phase="follow", table=["R1"], declarations=["n", "n"], trump_follow_unified=True)
    st.apply("B1")
    for w in worlds(st, S0):
        assert not [c for c in w.hand(S1) if c[0] in "RW"]
    literal = setup_position(3, [["Y1", "Y2"], ["Y3", "B1", "B2"], ["W1", "B3", "B4"]], "R2", first=S0,
                             phase="follow", table=["R1"], declarations=["n", "n"])
    literal.apply("B1")
    assert any(c[0] == "W" for w in worlds(literal, S0) for c in w.hand(S1))  # only red is ruled out


def test_after_a_void_a_card_received_face_down_may_be_of_that_colour_once():
    """A player who showed a void and then got one card face down holds at most one card of
    the colour, and only if its giver could have had it."""
    for start, st, log, seat in positions_with_secrets({}, 12):
        know = ct._Knowledge(st, seat)
        for place, mask, cap in know.caps:
            p = know.others[place]
            for w in worlds(st, seat, 200):
                assert sum(1 for c in w._hands[p] if 1 << (c // 100) & mask) <= cap


def test_worlds_are_sound_games_without_a_history():
    """A world drops the history (its gives could tell hidden cards) and keeps the move count."""
    st = ct02()
    for w in worlds(st, S1, 20):
        assert w.history == () and w.move_count == st.move_count and w._origin is None and w.deck_order is None
        assert w.view(S1) == st.view(S1) and w.all_cards() == st.all_cards()
        kit.roundtrips(w)
        again = w.sample_world(S1, 3)  # a world of a world
        assert again.view(S1) == st.view(S1)
    before = st.to_dict()
    st.sample_world(S1, 1)
    assert st.to_dict() == before
    assert st.sample_world(S1, 9).to_dict() == st.sample_world(S1, 9).to_dict()


def test_a_world_samples_as_its_position_does():
    """A world has no history to recount the round from, but the seat remembers the round:
    sampling from a world (a search's twin of the position) gives the worlds the position
    gives for the same random numbers, and a move made in the world starts afresh."""
    compared = 0
    for seed in range(6):
        st = new_game(players=4, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            for seat in range(4):
                w = st.sample_world(seat, rng.randrange(2**31))
                for k in range(2):
                    assert w.sample_world(seat, k).to_dict() == st.sample_world(seat, k).to_dict()
                    compared += 1
            st.apply(rng.choice(st.legal_actions()))
    assert compared > 1000
    w = ct02().sample_world(S1, 1)
    known = w._know
    w.apply(w.legal_actions()[0])
    w.sample_world(S1, 2)
    assert w._know is not known


def test_a_finished_game_has_nothing_to_deal():
    st = new_game(players=2, seed=3, rounds=1)
    rng = random.Random(2)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    w = st.sample_world(0, 1)
    assert w.view(None) == st.view(None) and w.history == ()


def test_hand_built_positions_sample_too():
    st = setup_position(3, [["Y1"], ["B2"], ["R4"]], "B1", "W6", first=S0, won=[["Y2", "Y3", "R3"], [], []])
    seen = {(w.hand(S1)[0], w.hidden_card) for w in worlds(st, S0)}
    assert {c for c, _ in seen} > {"B2", "R4"} and all(h != c for c, h in seen)
    from_text = ct.from_position("crypto_trick/1 players=4 trick=3 first=A indicator=R2 hands=?/?/?/? "
                                 "won=Y1,Y2,Y3,Y4/B1,B2,B3,B4/-/- gives=1:C>D:P6,2:D>B:P6", seed=1)
    for w in worlds(from_text, S2, 100):  # C gave the P6, and saw D pass a card on unseen
        assert "P6" in w.hand(S1) + w.hand(S3) and w.view(S2) == from_text.view(S2)
    for w in worlds(from_text, S0, 100):  # A saw neither exchange: P6 may be anywhere hidden to A
        assert w.view(S0) == from_text.view(S0)
    assert {s for w in worlds(from_text, S0) for s in range(1, 4) if "P6" in w.hand(s)} == {1, 2, 3}


def test_knowledge_is_worked_out_once_per_position():
    st = ct02()
    st.sample_world(S1, 1)
    know = st._know[1][S1]
    st.sample_world(S1, 2)
    assert st._know[1][S1] is know
    st.apply("Y1")
    st.sample_world(S1, 3)
    assert st._know[1][S1] is not know


# --------------------------------------------------------------------------- won piles kept face down
HIDDEN_PILES = ("crypto_trick/1 players=3 won_pile_visibility=block_count_only round=1 trick=4 phase=offer turn=B "
                "first=B indicator=R4 hidden=Y5 hands=Y4,B3,R6/B1,B5,B6/Y6,B2,R2 won=Y2,Y3,Y1/R1,R3,R5,W6,B4,W1/- "
                "last=B:W6,B4,W1 gives=1:C>A:B3,2:C>A:R6 move=A:play:W1")


def test_won_piles_the_seat_cannot_see_are_dealt_again():
    """With ``won_pile_visibility="block_count_only"`` a hand-built position's won piles hold
    cards from tricks the seat never saw: they are unseen like the hands. Swapping one of
    them with a card in a hand (Y2 in A's pile, Y6 in C's hand) changes nothing B sees, so
    B's worlds and B's bot are the same; the worlds keep each pile's size and block colours
    in order, and the last trick, which B saw."""
    from cardwidgets.bots import ISMCTSBot, ask
    p = ct.from_position(HIDDEN_PILES, seed=5)
    q = ct.from_position(HIDDEN_PILES.replace("Y6,B2,R2 won=Y2,", "Y2,B2,R2 won=Y6,"), seed=5)
    assert p.view(S1) == q.view(S1) and p.to_dict() != q.to_dict()
    for k in range(20):
        a, b = p.sample_world(S1, k), q.sample_world(S1, k)
        assert a.to_dict() == b.to_dict() and a.view(S1) == p.view(S1)
        assert a.won(S1) == p.won(S1) and len(a.won(S0)) == 3 and a.won(S2) == []
        kit.roundtrips(a)
    assert ask(ISMCTSBot(iterations=60, seed=1), p) == ask(ISMCTSBot(iterations=60, seed=1), q)
    # The pile's cards go anywhere B cannot see: into hands, the hidden card, other piles.
    spots = {next((s for s in (S0, S2) if "Y2" in w.hand(s)), "pile" if "Y2" in w.won(S0) + w.won(S2) else "hidden")
             for w in worlds(p, S1)}
    assert spots == {S0, S2, "pile", "hidden"}
    # A sees its own pile; B's pile is dealt again but for the last trick, which A saw.
    for w in worlds(p, S0, 50):
        assert w.won(S0) == p.won(S0) and w.won(S1)[3:] == ["W6", "B4", "W1"] and w.view(S0) == p.view(S0)
    assert len({tuple(w.won(S1)) for w in worlds(p, S0, 50)}) > 1


def test_won_piles_seen_filled_stay_as_they_are():
    """In a game played from its deal every won card was played in a trick the seat saw:
    the worlds keep every pile, also with ``block_count_only``, and a world of a world too."""
    checked = 0
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        st = new_game(players=players, seed=seed, won_pile_visibility="block_count_only")
        rng = random.Random(seed)
        while not st.is_terminal:
            seat = rng.randrange(players)
            w = st.sample_world(seat, rng.randrange(2**31))
            piles = [st.won(s) for s in range(players)]
            assert [w.won(s) for s in range(players)] == piles and w.view(seat) == st.view(seat)
            assert [w.sample_world(seat, 1).won(s) for s in range(players)] == piles
            checked += 1
            st.apply(rng.choice(st.legal_actions()))
    assert checked > 300
