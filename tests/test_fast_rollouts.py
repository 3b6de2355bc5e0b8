"""The rollouts of the search bot in the fast lane: from sampled mid-game worlds, every rollout
replays on the reference engine (its chance injected) to the same end and the same reward as
``ismcts``'s Python rollout, a mutant rule is caught, and over many seeds the lane's mean reward
agrees with Python's. One section per game; the helpers live in fast_check.py."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from cardwidgets import fast  # noqa: E402

from fast_check import check_rollout, mid_game_worlds, mutant, rollout_means_agree  # noqa: E402

#: (steps, by_round): to the end, a few actions, to the end of the round (the search's defaults).
STOPS = [(None, False), (4, False), (None, True)]


def _round0(game: str, world, by_round: bool):
    from cardwidgets.bots.ismcts import ROUND_FIELDS

    return getattr(world, ROUND_FIELDS[game], None) if by_round else None


def check_worlds(module, game, worlds, policies, seeds=(1, 2)) -> int:
    actions = 0
    for label, world in worlds:
        for policy in policies:
            for steps, by_round in STOPS:
                for seed in seeds:
                    actions += check_rollout(module, world, policy, steps, _round0(game, world, by_round), seed,
                                             label)
    return actions


# =========================================================================== cirno+neu
CIRNO = [
    (2, None, {}, "random"),
    (3, None, {}, "greedy"),
    (4, None, {"life_system": True}, "random"),
    (5, None, {"life_system": True, "lives": 1}, "greedy"),
    (8, None, {"life_system": True}, "random"),
    (6, None, {"double_draw_timing": "after_each", "pass_ends_double_turn": True, "first_dealer": "random"},
     "random"),
    (4, None, {"auto_forced_bust": False, "allow_voluntary_bust": True, "floor_at_zero": True}, "random"),
    (3, None, {"shot_resume": "after_target", "shot_self_target": True, "next_round_starter": "rotate",
               "reset_direction_each_round": False, "limit": 50, "set_value": 40}, "greedy"),
    (7, None, {"next_round_starter": "after_loser", "hand_size": 5, "life_system": True, "lives": 3}, "random"),
    (2, None, {"deck_counts": {"1": 3, "5": 2, "10": 2, "-1": 2, "99": 1, "PASS": 1, "DOUBLE": 2, "DSHOT": 1}},
     "random"),
]


@pytest.fixture(scope="module")
def cirno():
    return fast.kernel("cirno_neu")


@pytest.mark.parametrize("config", CIRNO, ids=lambda c: f"{c[0]}p-{c[3]}-{len(c[2])}opts")
def test_cirno_rollouts_replay_exactly(cirno, config, report):
    worlds = mid_game_worlds("cirno_neu", [config], 6, seed=config[0])
    actions = check_worlds(cirno, "cirno_neu", worlds, ("random", "greedy"))
    report("fast lane rollouts", "cirno_neu", rollouts=len(worlds) * 12, actions=actions)


def test_cirno_rollout_at_the_action_bound(cirno):
    # A world a few actions before the engine's safety cap: the rollout stops there as the reference does
    # (rule G4), a draw.
    (label, world), = mid_game_worlds("cirno_neu", [(3, None, {}, "random")], 1, seed=5)
    world._moves = cirno.BOUND - 2
    assert check_rollout(cirno, world, "random", None, None, 1, label) == 2
    assert cirno.rollout(world, "random", None, None, 1) == [1 / 3] * 3


def test_cirno_rollout_of_a_finished_game_is_its_win_shares(cirno):
    from cardwidgets.bots.ismcts import win_shares
    from cardwidgets.games.cirno_neu import new_game

    st = new_game(players=3, seed=2)
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    assert cirno.rollout(st, "random", None, None, 1) == win_shares(st) == [0.0, 1.0, 0.0]
    capped = new_game(players=3, seed=2)
    capped._moves = cirno.BOUND - 1  # the next action is the last the engine allows (G4): a draw
    capped.apply(capped.legal_actions()[0])
    assert capped.outcome().winners == ()
    assert cirno.rollout_trace(capped, "greedy", 3, None, 1) == (win_shares(capped), [], []) == ([1 / 3] * 3, [], [])


def test_cirno_rollouts_depend_on_the_seed_alone(cirno):
    worlds = [w for _, w in mid_game_worlds("cirno_neu", [(4, None, {}, "random")], 4, seed=9)]
    for w in worlds:
        a = [cirno.rollout_trace(w, "random", None, None, s)[1] for s in range(6)]
        assert a == [cirno.rollout_trace(w, "random", None, None, s)[1] for s in range(6)]
    assert len({tuple(cirno.rollout_trace(worlds[0], "random", None, None, s)[1]) for s in range(6)}) > 1


def test_cirno_rollout_policies(cirno):
    (_, world), = mid_game_worlds("cirno_neu", [(2, None, {}, "random")], 1)
    assert cirno.rollout_problem(world, "random") is None and cirno.rollout_problem(world, "greedy") is None
    assert "'smart'" in cirno.rollout_problem(world, "smart")
    with pytest.raises(ValueError, match="smart"):
        cirno.rollout(world, "smart", None, None, 1)


@pytest.mark.parametrize("old, new, what", [
    # the round stop (play_out checks the round before each action) one round late
    ("(round0 >= 0 and rnd != round0)", "(round0 >= 0 and rnd > round0 + 1)", "round"),
    # the double turn a world's seat is in (N3.7) lost on loading
    ("flat = [world._actor, world._anchor, world._required,", "flat = [world._actor, world._anchor, 1,", "double"),
])
def test_a_cirno_rollout_mutant_is_caught(cirno, pytestconfig, old, new, what):
    bad = mutant(cirno, old, new, pytestconfig.cache.mkdir("fast-mutants-" + what))
    worlds = mid_game_worlds("cirno_neu", [(4, None, {}, "random"), (3, None, {"life_system": True}, "random")], 15,
                             seed=3)
    if what == "double":  # worlds where the seat to act owes two cards
        worlds = [(lab, w) for lab, w in mid_game_worlds("cirno_neu", [(3, None, {}, "random")], 300, seed=4)
                  if w._required == 2 and w._played == 0][:10]
        assert worlds
    with pytest.raises(AssertionError):
        check_worlds(bad, "cirno_neu", worlds, ("random",), seeds=(1,))


@pytest.mark.parametrize("config, policy, by_round", [
    ((4, None, {}, "random"), "random", True),
    ((3, None, {"life_system": True}, "greedy"), "greedy", True),
    ((5, None, {"life_system": True, "lives": 1}, "random"), "random", False),
    ((2, None, {}, "greedy"), "greedy", False),
])
def test_cirno_lane_and_python_rollouts_agree(cirno, config, policy, by_round):
    worlds = mid_game_worlds("cirno_neu", [config], 3, seed=21)
    for label, world in worlds:
        round0 = _round0("cirno_neu", world, by_round)
        rewards = np.array([cirno.rollout(world, policy, None, round0, s) for s in range(50)])
        if by_round or rewards.std(axis=0).max() > 0:
            assert rollout_means_agree(cirno, world, policy, None, round0, 1500) == [], label


# =========================================================================== Crypto Trick
CRYPTO = [
    (2, None, {}, "random"),
    (3, None, {"first_player": "random", "rounds": 2}, "greedy"),
    (4, None, {"declaration_mode": "single_pass_first", "trump_follow_unified": True}, "random"),
    (5, None, {"trump_ranking": "white_high", "overload_score": "negative_count", "first_player": 2}, "greedy"),
    (3, None, {"numbers": [2, 3, 5, 7, 11, 13], "block_numbers": [2, 13], "white_cards": [(3, True), (13, False)],
               "colors": ["G", "P", "Y"], "rounds": 2, "won_pile_visibility": "block_count_only"}, "random"),
    (4, None, {"exchange_visibility": "public", "rounds": 4}, "greedy"),
]


@pytest.fixture(scope="module")
def crypto():
    return fast.kernel("crypto_trick")


def _crypto_worlds(config, count, seed):
    # A game is about 12 actions a player and round: stop anywhere in it.
    return mid_game_worlds("crypto_trick", [config], count, seed=seed, max_moves=12 * config[0] * 3)


@pytest.mark.parametrize("config", CRYPTO, ids=lambda c: f"{c[0]}p-{c[3]}-{len(c[2])}opts")
def test_crypto_rollouts_replay_exactly(crypto, config, report):
    worlds = _crypto_worlds(config, 8, seed=config[0] + len(config[2]))
    actions = check_worlds(crypto, "crypto_trick", worlds, ("random", "greedy"))
    report("fast lane rollouts", "crypto_trick", rollouts=len(worlds) * 12, actions=actions)


def test_crypto_rollout_from_a_round_already_over_plays_nothing(crypto):
    # After the tree's descent a world may be in a later round than the search's first world.
    worlds = [(lab, w) for lab, w in _crypto_worlds((3, None, {}, "random"), 12, seed=6) if w._round > 1]
    assert worlds
    for label, world in worlds:
        assert check_rollout(crypto, world, "random", None, world._round - 1, 1, label) == 0


def test_crypto_rollouts_from_hand_built_positions(crypto):
    # Lesson positions: cards out of the round (in no zone; the next round deals them all again),
    # a trick in play with one hand already empty, a later round with totals.
    from cardwidgets.games.crypto_trick import from_position, setup_position

    for st in (from_position("crypto_trick/1 players=3 trick=5 first=B indicator=B4 hands=?2/R1,R2/?2 "
                             "won=Y1,Y2,Y3/R3,R4,R5/B1,B2,B3,Y4,Y5,Y6", seed=1),
               setup_position(4, [["B5"], ["R1"], ["Y2"], []], "R4", first=3, phase="follow", table=["W1"],
                              declarations=["pass"] * 3),
               setup_position(3, [["Y2", "R5", "B1"], ["R1", "R2", "W6"], ["Y6", "R3", "B6"]], "B4",
                              totals=[5, 9, 2], round=2)):
        for policy in ("random", "greedy"):
            for steps, round0 in ((None, None), (None, st.round), (3, None)):
                for seed in range(3):
                    check_rollout(crypto, st, policy, steps, round0, seed, st.to_position())


def test_crypto_rollout_of_a_finished_game_is_its_win_shares(crypto):
    from cardwidgets.bots.ismcts import win_shares
    from cardwidgets.games.crypto_trick import new_game

    for seed in range(4):
        st = new_game(players=4, seed=seed, rounds=1)
        while not st.is_terminal:
            st.apply(st.legal_actions()[0])
        assert crypto.rollout(st, "greedy", None, None, 1) == win_shares(st)


def test_crypto_rollouts_depend_on_the_seed_alone(crypto):
    worlds = [w for _, w in _crypto_worlds((4, None, {}, "random"), 4, seed=9)]
    for w in worlds:
        a = [crypto.rollout_trace(w, "random", None, None, s) for s in range(6)]
        assert a == [crypto.rollout_trace(w, "random", None, None, s) for s in range(6)]
    assert len({tuple(crypto.rollout_trace(worlds[0], "random", None, None, s)[1]) for s in range(6)}) > 1


def test_crypto_rollout_policies(crypto):
    from cardwidgets import make

    (_, world), = _crypto_worlds((5, None, {"trump_ranking": "white_high"}, "random"), 1, seed=2)
    assert crypto.rollout_problem(world, "random") is None and crypto.rollout_problem(world, "greedy") is None
    assert "'ismcts'" in crypto.rollout_problem(world, "ismcts")
    assert "depot" in crypto.rollout_problem(make("depot", players=3, seed=1), "random")
    with pytest.raises(ValueError, match="'ismcts'"):
        crypto.rollout(world, "ismcts", None, None, 1)


@pytest.mark.parametrize("old, new, what", [
    # C7.2 broken: of two equal cards the earlier one wins the trick
    ("if key >= best:  # C7.2", "if key > best:  # C7.2", "c72"),
    # a world's trick in play loaded as if its leader were winning it
    ("                win = (leader + i) % n", "                win = leader", "winning"),
])
def test_a_crypto_rollout_mutant_is_caught(crypto, pytestconfig, old, new, what):
    bad = mutant(crypto, old, new, pytestconfig.cache.mkdir("fast-mutants-crypto-" + what))
    worlds = _crypto_worlds((4, None, {}, "random"), 20, seed=11) + _crypto_worlds((3, None, {}, "greedy"), 20, seed=12)
    with pytest.raises(AssertionError):
        check_worlds(bad, "crypto_trick", worlds, ("random",), seeds=(1,))


@pytest.mark.parametrize("config, policy, by_round", [
    ((3, None, {}, "random"), "random", True),
    ((4, None, {"declaration_mode": "single_pass_first"}, "random"), "random", False),
    ((3, None, {}, "greedy"), "greedy", False),
])
def test_crypto_lane_and_python_rollouts_agree(crypto, config, policy, by_round):
    for label, world in _crypto_worlds(config, 2, seed=23):
        round0 = _round0("crypto_trick", world, by_round)
        assert rollout_means_agree(crypto, world, policy, None, round0, 600) == [], label


@pytest.mark.parametrize("players, options, rollout, depth", [
    (3, {}, "random", "round"),
    (4, {"declaration_mode": "single_pass_first", "rounds": 2}, "greedy", None),
])
def test_the_fast_bot_plays_legal_moves_over_whole_crypto_games(crypto, players, options, rollout, depth):
    from cardwidgets.bots import ISMCTSBot, ask
    from cardwidgets.games.crypto_trick import new_game

    bots = [ISMCTSBot(iterations=30, seed=s, engine="fast", rollout=rollout, depth=depth) for s in range(players)]
    st = new_game(players=players, seed=1, **options)
    while not st.is_terminal:
        st.apply(ask(bots[st.current_player], st))  # apply refuses an illegal move
    assert all(b.totals["searches"] > 0 and b.last.engine == "fast" for b in bots)


# =========================================================================== the bot: ISMCTSBot(engine=...)
def _cirno_position(players=3, seed=4, moves=7):
    from cardwidgets.games.cirno_neu import new_game

    st = new_game(players=players, seed=seed)
    while st.move_count < moves or len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    return st


def test_the_bot_rolls_out_in_python_by_default(cirno):
    from cardwidgets.bots import ISMCTSBot, ask

    st = _cirno_position()
    bot = ISMCTSBot(iterations=60, seed=3)
    assert bot.engine == "python"
    ask(bot, st)
    assert bot.last.engine == "python"


def test_auto_without_the_extra_rolls_out_in_python(cirno, monkeypatch):
    from cardwidgets.bots import ISMCTSBot, ask

    st = _cirno_position()
    want = ask(ISMCTSBot(iterations=60, seed=3), st)
    python_visits = ISMCTSBot(iterations=60, seed=3)
    ask(python_visits, st)
    monkeypatch.setattr(fast, "unavailable", lambda: "the fast lane needs numba and numpy (test)")
    bot = ISMCTSBot(iterations=60, seed=3, engine="auto")
    assert ask(bot, st) == want and bot.last.engine == "python"
    assert bot.last.visits == python_visits.last.visits  # the very same search as engine="python"
    with pytest.raises(ValueError, match=r"engine='fast'.*numba and numpy \(test\)"):
        ask(ISMCTSBot(iterations=60, seed=3, engine="fast"), st)


def test_auto_with_the_extra_rolls_out_in_the_lane(cirno):
    from cardwidgets.bots import ISMCTSBot, ask

    bot = ISMCTSBot(iterations=60, seed=3, engine="auto")
    ask(bot, _cirno_position())
    assert bot.last.engine == "fast" and bot.last.iterations == 60


def test_fast_on_a_game_without_lane_rollouts_names_it(cirno, monkeypatch):
    from cardwidgets import make
    from cardwidgets.bots import ISMCTSBot, ask

    mod = fast.kernel("crypto_trick")
    monkeypatch.delattr(mod, "rollout", raising=False)
    st = make("crypto_trick", players=3, seed=4)
    with pytest.raises(ValueError, match="no rollouts for crypto_trick"):
        ask(ISMCTSBot(iterations=20, seed=1, engine="fast"), st)
    bot = ISMCTSBot(iterations=20, seed=1, engine="auto")
    assert ask(bot, st) in st.legal_actions() and bot.last.engine == "python"
    # a rollout policy the lane does not play (the survivor bot), named too
    with pytest.raises(ValueError, match="'survivor'"):
        ask(ISMCTSBot(iterations=20, seed=1, engine="fast", rollout="survivor"), _cirno_position())
    bot = ISMCTSBot(iterations=20, seed=1, engine="auto", rollout="survivor")
    ask(bot, _cirno_position())
    assert bot.last.engine == "python"


def test_engine_must_be_known():
    from cardwidgets.bots import ISMCTSBot, make_bot

    with pytest.raises(ValueError, match="engine must be one of 'python', 'fast', 'auto'"):
        ISMCTSBot(engine="numba")
    assert make_bot("cirno_neu", {"name": "ismcts", "engine": "fast"}).engine == "fast"
    assert "engine='fast'" in repr(ISMCTSBot(seed=1, engine="fast"))


@pytest.mark.parametrize("root", ["halving", "ucb"])
def test_a_seeded_fast_search_is_reproducible(cirno, root):
    from cardwidgets.bots import ISMCTSBot, ask

    st = _cirno_position(players=4, seed=8)
    a, b = ISMCTSBot(iterations=80, seed=5, engine="fast", root=root), ISMCTSBot(iterations=80, seed=5,
                                                                                  engine="fast", root=root)
    assert ask(a, st) == ask(b, st)
    assert a.last.visits == b.last.visits and a.last.values == b.last.values and a.last.engine == "fast"


@pytest.mark.parametrize("players, options, rollout, depth", [
    (2, {}, "random", "round"),
    (4, {"life_system": True}, "greedy", None),
    (3, {"double_draw_timing": "after_each"}, "random", 5),
])
def test_the_fast_bot_plays_legal_moves_over_whole_games(cirno, players, options, rollout, depth):
    from cardwidgets.bots import ISMCTSBot, ask
    from cardwidgets.games.cirno_neu import new_game

    bots = [ISMCTSBot(iterations=30, seed=s, engine="fast", rollout=rollout, depth=depth) for s in range(players)]
    for seed in range(2):
        st = new_game(players=players, seed=seed, **options)
        while not st.is_terminal:
            st.apply(ask(bots[st.current_player], st))  # apply refuses an illegal move
        assert st.outcome() is not None
    assert all(b.totals["searches"] > 0 and b.last.engine == "fast" for b in bots)
