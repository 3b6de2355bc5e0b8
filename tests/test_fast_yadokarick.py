"""The Yadokarick kernels of the fast lane (standard, advanced card set, duo, solo) against the reference engine.

Lane games are replayed by ``cardwidgets.games.yadokarick`` from their recorded chance,
action by action: the legal lists must be equal at every position, and the winners,
scores and length at the end. Mutant rules in the kernel must be caught, and lane and
engine must agree in distribution (win shares per seat, mean length). The kernels
compile once per process (and are cached on disk), so every test shares them.
"""

from __future__ import annotations

import pytest
from fast_kit import agree, decisions

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.yadokarick import YadokarickGreedyBot  # noqa: E402
from cardwidgets.core import Recorded  # noqa: E402
from cardwidgets.fast import yadokarick as kern  # noqa: E402
from cardwidgets.games import yadokarick as ref  # noqa: E402
from cardwidgets.sim._play import play_chunk  # noqa: E402



def replay_problems(players: int, mode: str, options: dict, bots: list[str], seeds, mutant: int = 0,
                    stop: int = 3) -> list[str]:
    """Play lane games and replay them on the reference engine; what differed (at most ``stop``)."""
    mode, n, opts = fast.resolve("yadokarick", players, mode, options)
    tables = kern.tables_for(n, mode, opts)
    out = kern.run(tables, np.asarray(seeds, dtype=np.int64), bots, record=True, mutant=mutant)
    problems = []
    for g in range(len(seeds)):
        st = ref.new_game(players=players, mode=mode, seed=1, chance=Recorded(decisions(out["chance"][g].tolist())),
                          **options)
        if st.current_player != out["starter"][g]:
            problems.append(f"game {g}: starter {out['starter'][g]}, engine {st.current_player}")
        off = 0
        for a in range(out["lengths"][g]):
            m = out["legal_cnt"][g, a]
            lane = out["legal_buf"][g, off:off + m].tolist()
            off += m
            engine = [kern.code_of(x) for x in st.legal_actions()]
            if lane != engine:
                problems.append(f"game {g} action {a}: lane legal {lane}, engine {engine}")
                break
            st.apply(tables.decode[out["actions"][g, a]])
        else:
            o = st.outcome()
            if o is None or o.scores != tuple(out["scores"][g].tolist()) or st.move_count != out["lengths"][g]:
                problems.append(f"game {g}: lane {out['scores'][g].tolist()} in {out['lengths'][g]}, engine {o} "
                                f"in {st.move_count}")
        if len(problems) >= stop:
            break
    return problems


SEEDS = np.arange(100, dtype=np.int64) * 7919 + 17


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_standard_random_games_replay_exactly(players):
    assert replay_problems(players, "standard", {}, ["random"] * players, SEEDS[:80]) == []


@pytest.mark.parametrize("players", [3, 4, 7])
def test_standard_greedy_games_replay_exactly(players):
    bots = ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    assert replay_problems(players, "standard", {}, bots, SEEDS[:20]) == []


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_advanced_card_set_replays_exactly(players):
    bots = ["greedy"] + ["random"] * (players - 1)
    assert replay_problems(players, "standard", {"card_set": "advanced"}, bots, SEEDS[:50]) == []


@pytest.mark.parametrize("players,options", [
    (3, {"three_player_capture": "largest_size", "three_player_color": "pink", "rounds": 2}),
    # a short track: the marker meets its ends, and the moves there are fewer (Y7.2)
    (5, {"tie_leader": "last_actual_mover", "dealer": 2, "dealer_rotation": "fixed", "rounds": 2,
         "reset_marker_each_round": False, "size_track": (9, 13), "marker_start": 12, "house_limit": 4}),
    (4, {"size_table": {1: 4, 36: 1, "P20": 3}, "roof_numbers": [5, 15], "collapsed_visibility": "count_only",
         "rounds": 2}),
])
def test_standard_options_replay_exactly(players, options):
    bots = ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    assert replay_problems(players, "standard", options, bots, SEEDS[:40]) == []


@pytest.mark.parametrize("options,bots", [
    ({}, ["random", "random"]),
    ({}, ["greedy", "greedy"]),
    ({"npc_seat": 0, "duo_first_leader": 1, "duo_color": "pink"}, ["greedy", "random"]),
    ({"npc_seat": 2, "duo_roofs": False, "house_limit": 3, "collapsed_visibility": "count_only"}, ["random", "greedy"]),
])
def test_duo_replays_exactly(options, bots):
    assert replay_problems(2, "duo", options, bots, SEEDS) == []


@pytest.mark.parametrize("mode,players,mutant", [("standard", 4, 1), ("standard", 4, 2), ("duo", 2, 1),
                                                 ("duo", 2, 2)])
def test_a_mutant_rule_is_caught(mode, players, mutant):
    # 1: a roofed house still builds (Y8.6); 2: the wrong player leads the next trick (Y9.2, Y13.8).
    assert replay_problems(players, mode, {}, ["random"] * players, SEEDS[:40], mutant=mutant)


@pytest.mark.parametrize("mode,players", [("standard", 4), ("duo", 2)])
def test_batch_rows_and_replay_match_the_engine(mode, players):
    b = fast.play("yadokarick", SEEDS[:12], bots="greedy", players=players, mode=mode)
    rows = b.rows(range(len(b)))
    for i in (0, 5, 11):
        st = b.replay(i).build()
        o = st.outcome()
        assert (o.winners, o.scores, st.move_count, o.reason) == (rows[i][3], rows[i][4], rows[i][5], rows[i][7])
    assert b.actions_of(3) == fast.play("yadokarick", SEEDS[3:4], bots="greedy", players=players,
                                        mode=mode).actions_of(0)


def test_coverage():
    assert fast.not_covered("yadokarick", bots="greedy", players=6, card_set="advanced", tie_leader="last_actual_mover") \
        is None
    assert fast.not_covered("yadokarick", bots="greedy", players=2, mode="duo", npc_seat=2) is None
    assert "placement_order" in fast.not_covered("yadokarick", bots="random", players=4, placement_order="choose")
    assert fast.not_covered("yadokarick", bots="solo_greedy", players=1, mode="solo", solo_house_complete=6) is None
    with pytest.raises(ValueError, match="ismcts"):
        fast.play("yadokarick", [1], bots=["ismcts", "random", "random"], players=3)


@pytest.mark.parametrize("mode,players,bots,n_ref", [
    ("standard", 4, ["random"] * 4, 200),
    ("standard", 3, ["greedy", "random", "random"], 100),
    ("duo", 2, ["greedy", "random"], 200),
])
def test_lane_and_engine_agree_in_distribution(mode, players, bots, n_ref):
    n_lane = 4000
    rows = play_chunk("yadokarick", {"players": players, "mode": mode}, bots, 5, range(n_ref))
    lane = fast.play("yadokarick", np.arange(n_lane, dtype=np.int64) * 13 + 5, bots=bots, players=players,
                     mode=mode)
    assert agree(rows, lane, players) == []


@pytest.mark.parametrize("options,bot", [
    ({}, "random"),
    ({}, "greedy"),
    ({"solo_initial_row": "one_color", "solo_bonus_chain": False, "solo_bonus_on_setup": True,
      "solo_roof_insert_nonstrict": False}, "random"),
    ({"solo_initial_row": "one_color", "solo_removed": [30, 12, 5], "solo_house_complete": 5}, "greedy"),
])
def test_solo_replays_exactly(options, bot):
    assert replay_problems(1, "solo", options, [bot], SEEDS) == []


def test_solo_greedy_is_the_hint_at_every_step():
    # The solo heuristic draws nothing at random: the lane's greedy plays exactly the reference bot's moves.
    b = fast.play("yadokarick", SEEDS[:15], bots="greedy", players=1, mode="solo")
    bot = YadokarickGreedyBot(seed=1)
    for i in range(len(b)):
        st = b.replay(i).new_state()
        for text in b.actions_of(i):
            assert str(bot.act(st.view(0), st.legal_actions())) == text
            st.apply(text)
        assert st.outcome().scores == tuple(b.scores[i].tolist())


def test_solo_mutant_is_caught():
    # a bonus card taken scores nothing (Y14.10)
    assert replay_problems(1, "solo", {}, ["random"], SEEDS[:40], mutant=1)
