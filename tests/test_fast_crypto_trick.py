"""The Crypto Trick kernel of the fast lane against the reference engine.

Lane games are replayed by ``cardwidgets.games.crypto_trick`` from their recorded
chance, action by action: the legal lists must be equal at every position, and the
winners, scores and length at the end. Mutant rules in the kernel must be caught, and
lane and engine must agree in distribution (win shares per seat, mean length).
The kernel compiles once per process (and is cached on disk), so every test shares it.
"""

from __future__ import annotations

import pytest
from fast_kit import agree, decisions

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from cardwidgets import fast  # noqa: E402
from cardwidgets.core import Recorded  # noqa: E402
from cardwidgets.fast import crypto_trick as kern  # noqa: E402
from cardwidgets.games import crypto_trick as ref  # noqa: E402
from cardwidgets.sim._play import play_chunk  # noqa: E402


def replay_problems(players: int, options: dict, bots: list[str], seeds, mutant: int = 0, stop: int = 3) -> list[str]:
    """Play lane games and replay them on the reference engine; what differed (at most ``stop``)."""
    _, n, opts = fast.resolve("crypto_trick", players, None, options)
    tables = kern.tables_for(n, opts)
    out = kern.run(tables, np.asarray(seeds, dtype=np.int64), bots, record=True, mutant=mutant)
    problems = []
    for g in range(len(seeds)):
        st = ref.new_game(players=players, seed=1, chance=Recorded(decisions(out["chance"][g].tolist())), **options)
        if st.current_player != out["starter"][g]:
            problems.append(f"game {g}: starter {out['starter'][g]}, engine {st.current_player}")
        off = 0
        for a in range(out["lengths"][g]):
            m = out["legal_cnt"][g, a]
            lane = out["legal_buf"][g, off:off + m].tolist()
            off += m
            engine = [kern.code_of(tables, x) for x in st.legal_actions()]
            if lane != engine:
                problems.append(f"game {g} action {a}: lane legal {lane}, engine {engine}")
                break
            st.apply(tables.action(out["actions"][g, a]))
        else:
            o = st.outcome()
            lane_win = tuple(np.flatnonzero(out["scores"][g] == out["scores"][g].max()).tolist())
            if o is None or o.scores != tuple(out["scores"][g].tolist()) or o.winners != lane_win \
                    or st.move_count != out["lengths"][g]:
                problems.append(f"game {g}: lane {out['scores'][g].tolist()} in {out['lengths'][g]}, engine {o} "
                                f"in {st.move_count}")
        if len(problems) >= stop:
            break
    return problems


SEEDS = np.arange(150, dtype=np.int64) * 7919 + 11


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_replay_exactly(players):
    assert replay_problems(players, {}, ["random"] * players, SEEDS) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_games_replay_exactly(players):
    bots = ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    assert replay_problems(players, {}, bots, SEEDS[:80]) == []
    assert replay_problems(players, {}, ["greedy"] * players, SEEDS[80:]) == []


@pytest.mark.parametrize("options", [
    {"first_player": "random", "rounds": 2},
    {"declaration_mode": "single_pass_first", "trump_follow_unified": True},
    {"trump_ranking": "white_high", "overload_score": "negative_count", "first_player": 2},
    {"numbers": [2, 3, 5, 7, 11, 13], "block_numbers": [2, 13], "white_cards": [(3, True), (13, False)],
     "colors": ["G", "P", "Y"], "rounds": 1},
])
def test_options_replay_exactly(options):
    assert replay_problems(3, options, ["greedy", "random", "greedy"], SEEDS[:60]) == []


@pytest.mark.parametrize("mutant", [1, 2])
def test_a_mutant_rule_is_caught(mutant):
    # 1: must-follow ignored (C6.3); 2: a tie goes to the earlier card (C7.2).
    assert replay_problems(4, {}, ["random"] * 4, SEEDS[:60], mutant=mutant)


def test_batch_rows_and_replay_match_the_engine():
    b = fast.play("crypto_trick", SEEDS[:20], bots=["greedy", "random", "random"], players=3, rounds=2)
    assert b.length.tolist() == (b.action_start[1:] - b.action_start[:-1]).tolist()
    rows = b.rows(range(len(b)))
    for i in (0, 7, 19):
        st = b.replay(i).build()
        o = st.outcome()
        assert (o.winners, o.scores, st.move_count, o.reason) == (rows[i][3], rows[i][4], rows[i][5], rows[i][7])
        assert rows[i][2] == 0 and rows[i][6] == "normal"


def test_the_same_seed_is_the_same_game_in_any_batch():
    a = fast.play("crypto_trick", SEEDS[:10], bots="greedy", players=4)
    b = fast.play("crypto_trick", SEEDS[5:10], bots="greedy", players=4)
    assert a.actions_of(7) == b.actions_of(2) and a.chance_of(7) == b.chance_of(2)


def test_coverage():
    assert fast.not_covered("crypto_trick", bots="greedy", players=5, trump_ranking="white_high",
                            first_player="random") is None
    assert "ismcts" in fast.not_covered("crypto_trick", bots=["ismcts", "random"], players=2)
    with pytest.raises(ValueError, match="players=6"):
        fast.play("crypto_trick", [1], bots="random", players=6)


@pytest.mark.parametrize("players,bots", [(3, ["random"] * 3), (4, ["greedy", "random", "random", "random"])])
def test_lane_and_engine_agree_in_distribution(players, bots):
    n_ref, n_lane = 300, 6000
    rows = play_chunk("crypto_trick", {"players": players}, bots, 5, range(n_ref))
    lane = fast.play("crypto_trick", np.arange(n_lane, dtype=np.int64) * 13 + 5, bots=bots, players=players)
    assert agree(rows, lane, players) == []
