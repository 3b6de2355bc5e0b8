"""The optimized Depot engine against a plain reading of the rules.

``legal_actions()`` is built from memoized pieces (see the "enumeration" notes in
``cardwidgets/games/depot.py``); here it is compared, order included, with a naive
enumeration written straight from the rules (``legal_plays``, D3-D4) and
the documented order, on the positions of random games and on random hand-built
positions (big hands, big or empty Storages, standing plays of every size). The
random games also check that no card is created or lost, and that the simulation fast
path (``apply_unchecked``) ends exactly where the checked path (``apply``) does.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardwidgets.games import depot
from cardwidgets.games.depot import new_game, setup_position


# --------------------------------------------------------------------------- the rules text
def set_limit(storage: list[int]) -> int:  # D3.2
    return max(Counter(storage).values(), default=0)


def run_limit(storage: list[int]) -> int:  # D3.3, D3.4
    vals, best = set(storage), 0
    for v in vals:
        if v - 1 not in vals:  # start of a chain; 8 -> 1 never wraps
            k = 1
            while v + k in vals:
                k += 1
            best = max(best, k)
    return best


def stronger(a: list[int], b: tuple[int, ...]) -> bool:  # D4.6
    return (len(a), sum(a)) > (len(b), sum(b))


def legal_plays(hand: list[int], storage: list[int], standing) -> list[list[int]]:  # D3, D4
    out, cnt = [], Counter(hand)
    sl, rl = set_limit(storage), run_limit(storage)
    for v in cnt:
        out.append([v])
        for k in range(2, min(cnt[v], sl) + 1):
            out.append([v] * k)
    for start in range(1, 8):
        for k in range(2, rl + 1):
            run = list(range(start, start + k))
            if run[-1] <= 8 and all(cnt[x] >= 1 for x in run):
                out.append(run)
    return [p for p in out if standing is None or stronger(p, standing[1])]


def reference_legal(st) -> list[str]:
    """Legal action notation in the documented order: plays by (count, total, values), then
    passes by (take, give) with no give first."""
    if st.is_terminal:
        return []
    hand, storage, standing = st.hand(st.current_player), st.storage, st.standing
    plays = sorted(legal_plays(hand, storage, standing), key=lambda p: (len(p), sum(p), p))
    out = ["play " + " ".join(map(str, p)) for p in plays]
    if standing is None:
        return out  # D5.3: the leader must play
    for take in sorted(set(storage)) or [None]:  # D6.2: take a value in the Storage, if any
        out.append("pass" if take is None else f"pass take {take}")
        for give in sorted(set(hand) - {take}):  # D6.3
            if take is None and len(hand) == 1:
                continue  # D6.4: never give the last card
            out.append(("pass" if take is None else f"pass take {take}") + f" give {give}")
    return out


def check(st) -> None:
    got = [str(a) for a in st.legal_actions()]
    assert got == reference_legal(st), f"\n{st}\nengine:    {got}\nreference: {reference_legal(st)}"


# --------------------------------------------------------------------------- random games
CONFIGS = [
    dict(players=3),
    dict(players=4),
    dict(players=5),
    dict(players=4, games=3),
    dict(players=5, games=3, penalty_mode="greedy", penalty_cards_leave_play=False, rank_tiebreak="random"),
    dict(players=3, refill_target="noted", reshuffle_timing="when_empty"),
    dict(players=4, deck_counts={1: 30, 2: 3, 3: 12, 4: 1, 5: 20, 6: 0, 7: 9, 8: 25}),
    dict(players=4, max_turns=25),  # the turn cap stops the game on the fast path too
    dict(players=5, games=3, reshuffle_timing="when_empty", refill_target="noted", next_game_starter="rotate"),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_random_games_match_the_rules_text(cfg):
    for seed in range(12):
        rng = random.Random(seed)
        fast = new_game(seed=seed, **cfg)
        checked = new_game(seed=seed, **cfg)
        cards = fast.all_cards()
        while not fast.is_terminal:
            check(fast)
            legal = fast.legal_actions()
            action = legal[rng.randrange(len(legal))]
            twin = fast.clone()
            fast.apply_unchecked(action)
            checked.apply(action)
            assert fast.all_cards() == cards, "cards were created or lost"
            assert twin.move_count == fast.move_count - 1 and twin.all_cards() == cards
        assert fast.legal_actions() == [] and reference_legal(fast) == []
        assert fast.to_dict() == checked.to_dict(), "the fast path diverged from apply()"


# --------------------------------------------------------------------------- random positions
def random_position(rng: random.Random):
    players = rng.choice((3, 4, 5))
    pool = [v for v, k in depot.DEFAULT_DECK.items() for _ in range(k)]
    rng.shuffle(pool)
    size = rng.choice((1, 1, 2, 3, 5, 9, 15, 25, 40))
    hand, pool = pool[:size], pool[size:]
    stored = rng.choice((0, 0, 1, 3, 4, 6, 10, 16))
    if rng.random() < 0.3:  # stack the Storage to get big set limits
        v = rng.randint(1, 8)
        storage = [v] * min(stored, depot.DEFAULT_DECK[v]) + pool[:max(0, stored - depot.DEFAULT_DECK[v])]
    else:
        storage = pool[:stored]
    hands = [hand] + [[1]] * (players - 1)
    standing = None
    if rng.random() < 0.8:
        k = rng.randint(1, 6)
        if rng.random() < 0.5 or k == 1:
            standing = (1, [rng.randint(1, 8)] * k)
        else:
            start = rng.randint(1, 9 - k)
            standing = (1, list(range(start, start + k)))
    return setup_position(players, hands, storage, standing=standing, current=0)


def test_random_positions_match_the_rules_text():
    rng = random.Random(2024)
    for _ in range(3000):
        check(random_position(rng))


def test_empty_storage_and_last_card():
    st = setup_position(4, [[5], [1], [1], [1]], [], standing=(1, [3]), current=0)
    assert [str(a) for a in st.legal_actions()] == ["play 5", "pass"] == reference_legal(st)
    st = setup_position(4, [[5, 5, 6], [1], [1], [1]], [], standing=(1, [3]), current=0)
    check(st)
    assert "pass give 5" in reference_legal(st)
