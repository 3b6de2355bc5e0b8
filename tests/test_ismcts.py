"""The search bot (information-set MCTS) and the bot protocol for search.

A search bot gets what its seat sees and a sampler of worlds, never the real state:
its move is a function of its seed and what the seat knows (twin positions give the
same move), every move is legal, it finds an obvious win, it is a bot name wherever
bots are named, and its budgets count what they should. Budgets are tiny here: the
strength of the defaults is measured in benchmarks/strength.py.
"""

from __future__ import annotations

import gc
import math
import random

import pytest

import cardwidgets
from cardwidgets.bots import ISMCTSBot, RandomBot, ask, bot_names, make_bot, world_sampler
from cardwidgets.bots.ismcts import DEFAULTS, ESTIMATES, ROUND_FIELDS, defaults_for, win_shares
from cardwidgets.games import available_games, game_module
from cardwidgets.sim import simulate

#: One configuration per game and mode (and the variants with rounds or chips).
MODES = [
    ("depot", dict(players=4)),
    ("depot", dict(players=3, games=3)),
    ("cirno_neu", dict(players=4)),
    ("cirno_neu", dict(players=3, life_system=True)),
    ("crypto_trick", dict(players=4)),
    ("crypto_trick", dict(players=2)),
    ("yadokarick", dict(mode="standard", players=4)),
    ("yadokarick", dict(mode="standard", players=5, card_set="advanced")),
    ("yadokarick", dict(mode="standard", players=3)),
    ("yadokarick", dict(mode="duo", players=2)),
    ("yadokarick", dict(mode="solo", players=1)),
]
IDS = [f"{g}:" + ",".join(f"{k}={v}" for k, v in cfg.items()) for g, cfg in MODES]


def positions(game: str, cfg: dict, seed: int, every: int = 7, count: int = 12):
    """``count`` positions of random games where the player to act has a choice (copies)."""
    rng = random.Random(seed)
    found = 0
    for g in range(50):
        st = game_module(game).new_game(seed=seed * 100 + g, **cfg)
        k = 0
        while not st.is_terminal:
            legal = st.legal_actions()
            if k % every == every // 2 and len(legal) > 1:
                yield st.clone()
                found += 1
                if found == count:
                    return
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            k += 1


def cheap(seed: int = 1, **kw) -> ISMCTSBot:
    return ISMCTSBot(iterations=kw.pop("iterations", 24), seed=seed, **kw)


# --------------------------------------------------------------------------- the protocol
def test_ask_keeps_the_old_protocol():
    """Bots without ``needs_worlds`` are called ``act(view, legal)``, as before."""
    st = cardwidgets.make("depot", players=3, seed=2)
    calls = []

    class Plain:
        def act(self, view, legal):
            calls.append((view, legal))
            return legal[0]

    assert ask(Plain(), st) == st.legal_actions()[0]
    view, legal = calls[0]
    assert view == st.view(st.current_player) and legal == st.legal_actions()
    assert ask(RandomBot(1), st) in st.legal_actions()  # needs_view=False: no view built


def test_a_search_bot_gets_worlds_and_never_the_state():
    st = cardwidgets.make("crypto_trick", players=4, seed=5)
    for _ in range(9):
        st.apply_unchecked(st.legal_actions()[0])
    seat = st.current_player
    before = st.to_dict()
    got = {}

    class Spy:
        needs_worlds = True

        def act(self, view, legal, worlds):
            got.update(view=view, legal=legal, worlds=worlds)
            return legal[0]

    ask(Spy(), st)
    assert set(got) == {"view", "legal", "worlds"}
    assert got["view"] == st.view(seat)
    world = got["worlds"](random.Random(1))
    assert world is not st and world.view(seat) == st.view(seat)
    world.apply_unchecked(world.legal_actions()[0])  # playing on in a world changes nothing real
    assert st.to_dict() == before
    # Nothing handed to the bot but the sampler's closure refers to the real state.
    for obj in (got["view"], got["legal"], world):
        assert not _reaches(obj, st), f"{type(obj).__name__} leads to the real state"


def _reaches(root, target, limit: int = 20000) -> bool:
    seen, todo = set(), [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if obj is target:
            return True
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        todo.extend(gc.get_referents(obj))
    return False


def test_world_sampler_checks_the_seat():
    st = cardwidgets.make("depot", players=3, seed=1)
    with pytest.raises(ValueError):
        world_sampler(st, 3)
    assert world_sampler(st, 1)(random.Random(2)).view(1) == st.view(1)


def test_act_without_worlds_says_how_to_call_it():
    st = cardwidgets.make("cirno_neu", players=3, seed=1)
    with pytest.raises(TypeError, match="ask"):
        cheap().act(st.view(st.current_player), st.legal_actions())


# --------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("game, cfg", MODES, ids=IDS)
def test_same_seed_same_position_same_move(game, cfg):
    for st in positions(game, cfg, seed=3, every=23, count=3):
        bot = cheap(seed=7)
        a = ask(bot, st)
        assert ask(bot, st) == a, "the same bot at the same position again"
        assert ask(cheap(seed=7), st.clone()) == a, "a new bot with the same seed"
        assert bot.last.iterations > 0


def test_different_seeds_search_differently():
    st = cardwidgets.make("depot", players=4, seed=8)
    a, b = cheap(seed=1, iterations=60), cheap(seed=2, iterations=60)
    ask(a, st), ask(b, st)
    assert a.last.values != b.last.values


@pytest.mark.parametrize("game, cfg", MODES, ids=IDS)
def test_twin_positions_give_the_same_move(game, cfg, report):
    """The bot's choice is a function of what its seat knows: a twin position (the cards
    the seat has not seen dealt differently) gives the same move for the same seed."""
    rng = random.Random(11)
    compared = 0
    for st in positions(game, cfg, seed=4, every=9, count=8):
        seat = st.current_player
        twin = st._twin(seat, random.Random(rng.random()))
        assert twin.view(seat) == st.view(seat)
        a = ask(cheap(seed=3), st)
        b = ask(cheap(seed=3), twin)
        assert str(a) == str(b), f"seat {seat} plays {a} in one twin and {b} in the other"
        compared += 1
    assert compared == 8
    report("ismcts twins", game, positions=compared)


# --------------------------------------------------------------------------- legality
@pytest.mark.parametrize("game, cfg", MODES, ids=IDS)
@pytest.mark.parametrize("root", ["halving", "ucb"])
def test_every_decision_is_legal(game, cfg, root, report):
    n = 0
    settings = [dict(), dict(rollout="greedy", depth=6), dict(depth="round", rollout="greedy")]
    for i, st in enumerate(positions(game, cfg, seed=21, every=11, count=6)):
        before = st.to_dict()
        bot = cheap(seed=i, root=root, **settings[i % len(settings)])
        a = ask(bot, st)
        assert st.is_legal(a) and a in st.legal_actions()
        assert st.to_dict() == before, "searching changed the real state"
        n += 1
    assert n == 6
    report("ismcts legality", game, decisions=n)


def test_plays_whole_games_in_every_mode():
    for game, cfg in MODES:
        st = game_module(game).new_game(seed=2, **cfg)
        bots = [cheap(seed=s, iterations=8) for s in range(st.players)]
        while not st.is_terminal:
            st.apply(ask(bots[st.current_player], st))
        assert st.outcome() is not None


# --------------------------------------------------------------------------- strength in the small
#: Positions typed by hand where one move wins and the others do not.
WINNING = {
    # A goes out with the run 3-4-5 (run limit 3 from the Storage 1-2-3, D4.5, D8.1).
    "depot": ("depot/1 players=3 turn=A standing=C:8 hands=3,4,5/?9/?9 storage=1,2,3 deck=?", "play 3 4 5"),
    # The deck is tiny: B holds the 2 or the 3, safe at 95 but not at 99 (N3.9, N4.4).
    "cirno_neu": ('cirno_neu/1 players=2 deck_counts={"2":1,"3":1,"4":1,"PASS":1,"10":3} turn=A sum=95 '
                  "hands=4,PASS/?1 stack=10,10,10 draw=?", "play 4"),
    # A has 3 blocks in 2 colours (6 points, C9.2); winning Y3 makes 4 blocks, 4 points.
    "crypto_trick": ("crypto_trick/1 players=2 rounds=1 block_numbers=[3,5] trick=5 phase=follow turn=A first=B "
                     "indicator=W6 hidden=? hands=Y1,Y6/? declared=n table=Y3 won=Y5,B3,B5,B1/B2,B6,W1,Y2",
                     "play Y1"),
    # The last move of the game (Y7.5): A moves the marker from 9 to 8, which puts A's house
    # (size 8) on target (13 points) and C's (size 9) over it (-1); staying or moving right
    # leaves C's house on or under the target, and C ahead (Y10.2, Y11.1).
    "yadokarick": ("yadokarick/1 players=3 mode=standard rounds=1 trick=10 phase=marker turn=A marker=9 "
                   "hands=-/-/- houses=G4,G7,G5/G6,G8,G11,G12,G14,G15/G9,G13,G17,G1,G2,G3 "
                   "collapsed=-/G16,G18,G19,G21,G22,G23,G24,G25,G26,G27,G28,G29,G31,G32,G33/- "
                   "last_trick=A:G1,G2,G3",
                   "move left"),
}


@pytest.mark.parametrize("game", sorted(WINNING))
@pytest.mark.parametrize("root", ["halving", "ucb"])
def test_finds_the_winning_move(game, root):
    text, win = WINNING[game]
    for seed in range(3):
        st = cardwidgets.from_position(text, seed=seed)
        bot = ISMCTSBot(iterations=200, seed=seed, root=root)
        assert str(ask(bot, st)) == win
        assert bot.last.values[win] == max(bot.last.values.values())


def test_solo_finishes_a_house():
    """Solo: G1 is the only row card crab A takes (Y14.5, Y14.6); as its seventh card it
    finishes the house, 16 points on the score pile (Y14.8, Y14.14)."""
    text = ("yadokarick/1 players=1 mode=solo phase=turn row=G1,P33,G25,P3,G15 crabs=G36,G31,G28,G21,G17,G14/-/-/- "
            "green=? pink=?")
    for seed in range(3):
        st = cardwidgets.from_position(text, seed=seed)
        assert [str(a) for a in st.legal_actions() if str(a).endswith(" A")] == ["place G1 A", "giveup A"]
        bot = ISMCTSBot(iterations=300, seed=seed)
        assert str(ask(bot, st)) == "place G1 A"


# --------------------------------------------------------------------------- names and tables
@pytest.mark.parametrize("game", available_games())
def test_selectable_by_name(game):
    assert "ismcts" in bot_names(game)
    bot = make_bot(game, "ismcts", seed=4)
    assert isinstance(bot, ISMCTSBot) and bot.seed == 4
    bot = make_bot(game, {"name": "ismcts", "iterations": 12, "rollout": "greedy"}, seed=4)
    assert (bot.iterations, bot.rollout, bot.seed) == (12, "greedy", 4)
    assert make_bot(game, {"name": "ismcts", "seed": 9}, seed=4).seed == 9


def test_bad_parameters_are_refused():
    for kw in (dict(iterations=0), dict(iterations=1.5), dict(seconds=0), dict(seconds=-1), dict(depth=-1),
               dict(depth="trick"), dict(root="best"), dict(rollout=3), dict(exploration=-0.1)):
        with pytest.raises(ValueError):
            ISMCTSBot(**kw)
    with pytest.raises(TypeError):
        make_bot("depot", {"name": "ismcts", "budget": 3})
    st = cardwidgets.make("depot", players=3, seed=1)
    with pytest.raises(ValueError, match="unknown bot"):
        ask(cheap(rollout="oracle"), st)  # a bot made by hand is checked when it plays
    # A bot made by name is checked at once, naming the parameter and what it takes.
    for rollout in ("smart", "ismcts"):
        with pytest.raises(ValueError, match=rf"rollout='{rollout}' is not a bot of depot .*: random, greedy$"):
            make_bot("depot", {"name": "ismcts", "iterations": 3, "rollout": rollout})


def test_simulate_with_ismcts():
    pytest.importorskip("pandas")
    bots = [{"name": "ismcts", "iterations": 10}, "greedy"]
    res = simulate("yadokarick", 2, bots=bots, seed=3, mode="duo")
    assert len(res.games) == 2 and res.bots == ("ismcts", "greedy")
    again = simulate("yadokarick", 2, bots=bots, seed=3, mode="duo", workers=2)
    cols = ["seed", "winners", "scores", "length"]
    assert res.games[cols].equals(again.games[cols]), "the same games in worker processes"
    res = simulate("cirno_neu", 1, bots=["ismcts", ISMCTSBot(iterations=6, seed=1), "random"], seed=1, players=3)
    assert res.bots == ("ismcts", "ismcts", "random") and len(res.games["winners"].iat[0]) >= 1
    with pytest.raises(TypeError):
        simulate("depot", 1, bots=[{"name": "ismcts", "budget": 3}, "random", "random"], seed=1, players=3)


def test_a_table_plays_ismcts_bots():
    pytest.importorskip("anywidget")
    from cardwidgets import CryptoTrick

    table = CryptoTrick(players=3, seed=6, seat=0, bot_delay=0, bots={1: {"name": "ismcts", "iterations": 10},
                                                                       2: "ismcts"})
    while not table.state.is_terminal and table.state.current_player != 0:
        table.play_bots()
    assert table.last_error == ""
    for _ in range(6):
        if table.state.is_terminal:
            break
        table.step(table.legal_actions()[0])  # the bots answer each move
        assert table.last_error == ""
    assert len(table.history) > 6 and all(table.view["hands"][s] is None for s in (1, 2))


# --------------------------------------------------------------------------- budgets
class FakeClock:
    """A clock that moves one second every time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("root", ["halving", "ucb"])
def test_a_time_budget_counts_iterations(root):
    st = cardwidgets.make("yadokarick", players=4, seed=2)
    clock = FakeClock()
    bot = ISMCTSBot(seconds=40, seed=1, root=root, clock=clock)
    ask(bot, st)
    # One clock read per iteration: the search stops when the 40 seconds are used up.
    assert 30 <= bot.last.iterations <= 40
    assert bot.last.seconds == pytest.approx(clock.now - 1.0 - 0.0, abs=2)
    assert bot.totals["iterations"] == bot.last.iterations and bot.totals["searches"] == 1


def test_a_time_budget_used_up_by_one_iteration_ends_the_search():
    # Halving ran at least one iteration in each of its log2(moves) rounds, however late: with
    # long rollouts a 0.05 s budget took seconds. Once the time is gone, the next round is not begun.
    st = cardwidgets.make("depot", players=4, seed=2)
    while len(st.legal_actions()) < 5:
        st.apply(st.legal_actions()[0])
    bot = ISMCTSBot(seconds=0.5, seed=1, clock=FakeClock())  # every read of the clock is a second later
    ask(bot, st)
    assert bot.last.iterations == 1


def test_both_budgets_stop_at_the_first():
    st = cardwidgets.make("depot", players=4, seed=2)
    bot = ISMCTSBot(iterations=15, seconds=1000, seed=1, clock=FakeClock())
    ask(bot, st)
    assert bot.last.iterations <= 15
    bot = ISMCTSBot(iterations=10**6, seconds=25, seed=1, root="ucb", clock=FakeClock())
    ask(bot, st)
    assert bot.last.iterations <= 25


@pytest.mark.parametrize("root", ["halving", "ucb"])
def test_an_iteration_budget_is_kept(root):
    st = cardwidgets.make("crypto_trick", players=4, seed=3)
    while len(st.legal_actions()) < 3:
        st.apply_unchecked(st.legal_actions()[0])
    bot = ISMCTSBot(iterations=90, seed=2, root=root)
    ask(bot, st)
    assert 80 <= bot.last.iterations <= 90
    assert sum(bot.last.visits.values()) == bot.last.iterations


def test_one_legal_action_needs_no_search():
    st = cardwidgets.make("yadokarick", mode="duo", seed=1)
    bot = cheap()
    assert bot.act(st.view(0), st.legal_actions()[:1], worlds=None) == st.legal_actions()[0]
    assert bot.totals == {"decisions": 1, "searches": 0, "iterations": 0, "seconds": 0.0}


# --------------------------------------------------------------------------- rewards
@pytest.mark.parametrize("game, cfg", MODES, ids=IDS)
def test_estimates_and_rewards(game, cfg):
    """Rewards are shares of the win (they add up to 1), or solo's scaled score; the round
    number the rollouts watch is the one the seat sees."""
    for st in positions(game, cfg, seed=5, every=13, count=10):
        shares = ESTIMATES[game](st)
        assert len(shares) == st.players and all(0 <= x <= 1 for x in shares)
        if st.players > 1:
            assert sum(shares) == pytest.approx(1.0)
        v = st.view(None)
        if st.mode == "solo":  # the estimate reads engine fields: they say what the view says
            from cardwidgets.bots.ismcts import SOLO_PARTIAL, solo_reward

            partial = sum(sum(v["sizes"][c] for c in crab) * len(crab) / v["house_complete"] for crab in v["crabs"])
            assert shares == [pytest.approx(solo_reward(v["score"] + SOLO_PARTIAL * partial))]
        if st.mode not in ("duo", "solo"):
            key = "game_no" if game == "depot" else "round"
            assert getattr(st, ROUND_FIELDS[game]) == v[key]
    rng = random.Random(1)
    st = game_module(game).new_game(seed=5, **cfg)
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply_unchecked(legal[rng.randrange(len(legal))])
    if st.players > 1:
        shares = win_shares(st)
        assert sum(shares) == pytest.approx(1.0)
        assert {s for s, x in enumerate(shares) if x > 0} == set(st.outcome().winners or range(st.players))


def test_solo_random_rollouts_place_rather_than_give_up():
    """Solo's random rollouts never give up while a card can be placed, nor decline a bonus."""
    from cardwidgets.bots.ismcts import _Search

    st = game_module("yadokarick").new_game(seed=4, mode="solo")
    search = _Search(st, world_sampler(st, 0), ISMCTSBot(seed=1).settings("yadokarick", "solo"), lambda: 0.0)
    pick = search.policy(random.Random(1))
    kinds = set()
    while not st.is_terminal:
        legal = [str(a) for a in st.legal_actions()]
        a = str(pick(st))
        useful = [x for x in legal if not x.startswith(("giveup", "decline"))]
        assert a in (useful or legal)
        kinds.add(a.split()[0])
        st.apply(a)
    assert {"place", "take"} <= kinds


def test_defaults_cover_every_game_and_mode():
    for game in available_games():
        for mode in cardwidgets.game_spec(game).modes:
            cfg = defaults_for(game, mode.name)
            assert cfg["iterations"] > 0 and cfg["rollout"] in bot_names(game)
            assert cfg["root"] in ("halving", "ucb")
    assert all(k[0] in available_games() for k in DEFAULTS)


def test_an_endless_time_budget_is_refused():
    # seconds=inf was accepted (NaN and -1 were refused), and the decision never ended
    for seconds in (math.inf, float("nan"), 10 ** 400, -math.inf, "1"):
        with pytest.raises(ValueError, match="seconds must be a positive finite number or None"):
            ISMCTSBot(seconds=seconds)
    with pytest.raises(ValueError, match="seconds must be a positive finite number"):
        make_bot("depot", {"name": "ismcts", "seconds": math.inf})
    assert ISMCTSBot(seconds=1e6).seconds == 1e6
