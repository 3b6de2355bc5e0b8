"""The OpenSpiel adapters (``cardwidgets.envs.register_openspiel``): every game and mode
loads with ``pyspiel.load_game``, passes OpenSpiel's ``random_sim_test``, and runs
OpenSpiel algorithms (random agents through ``rl_environment``, MCTS)."""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import mcts, random_agent  # noqa: E402

from cardwidgets import available_games, game_spec  # noqa: E402
from cardwidgets.envs import EnvSpec, register_openspiel  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402

NAMES = register_openspiel()
#: Every mode and player count; rounds cut where a game has them, to keep the games short.
SHORT = {"crypto_trick": {"rounds": 1}, "yadokarick": {"rounds": 1}}
CONFIGS = [(g, {"mode": m.name, "players": n, **({} if m.name != "standard" else SHORT.get(g, {}))})
           for g in available_games() for m in game_spec(g).modes for n in m.players]
CONFIGS += [("yadokarick", {"players": 5, "rounds": 1, "placement_order": "choose"}),
            ("depot", {"players": 4, "games": 3}), ("depot", {"players": 3, "max_turns": 10}),
            ("cirno_neu", {"players": 4, "life_system": True, "allow_voluntary_bust": True})]
IDS = [f"{g}:{','.join(f'{k}={v}' for k, v in c.items())}" for g, c in CONFIGS]


def load(game: str, **params):
    return pyspiel.load_game("python_cardwidgets_" + game, params)


def random_prefix(state, rng: random.Random, steps: int):
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_register_names_every_game_once():
    assert NAMES == ["python_cardwidgets_" + g for g in available_games()]
    assert register_openspiel() == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("game, params", CONFIGS, ids=IDS)
def test_random_sim_test_passes(game, params):
    g = load(game, rng_seed=1, **params)
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("game, params", CONFIGS, ids=IDS)
def test_game_type_and_info_follow_the_spec(game, params):
    g = load(game, **params)
    t = g.get_type()
    spec = EnvSpec(game, **params)
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    one_seat_mode = min(game_spec(game).player_counts) == 1
    assert (t.utility == pyspiel.GameType.Utility.GENERAL_SUM) == one_seat_mode
    assert g.num_players() == spec.players and g.num_distinct_actions() == spec.num_actions
    assert g.max_game_length() == spec.max_steps >= game_spec(game).max_actions(spec.players, spec.options)
    assert g.observation_tensor_shape() == [spec.layout.size]
    assert g.max_chance_outcomes() == 0
    if spec.players > 1:
        assert (g.min_utility(), g.max_utility()) == (0.0, 1.0)
    if t.utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        assert g.utility_sum() == 1.0


def test_parameters():
    assert load("yadokarick", mode="duo").num_players() == 2  # players=0: the mode's own count
    assert load("yadokarick", mode="solo").num_players() == 1
    assert load("depot").num_players() == 4
    assert load("crypto_trick", players=2).num_distinct_actions() == 44
    assert load("depot", max_turns=7).max_game_length() == 7
    with pytest.raises(ValueError, match="mode"):
        load("depot", mode="solo")
    with pytest.raises(ValueError, match="does not apply"):
        load("yadokarick", mode="duo", placement_order="choose")
    with pytest.raises(ValueError, match="players=9"):
        load("depot", players=9)
    spec = load("yadokarick").get_type().parameter_specification
    assert spec["rounds"] == -1 and spec["mode"] == "standard" and spec["rng_seed"] == -1
    assert "size_table" not in spec  # not a scalar


def test_every_scalar_value_of_an_option_can_be_asked_for():
    """-1 stands for None where -1 is no value of the option, and for "random" at a seat option;
    cirno+neu's set_value, which may be -1, takes its number as text ("" for None)."""
    from cardwidgets.envs._openspiel import _kwargs

    spec = load("cirno_neu").get_type().parameter_specification
    assert spec["set_value"] == "" and spec["first_dealer"] == 0
    assert _kwargs("cirno_neu", {**spec, "set_value": "-50"})["set_value"] == -50
    assert _kwargs("cirno_neu", {**spec, "set_value": "-1"})["set_value"] == -1
    assert _kwargs("cirno_neu", spec)["set_value"] is None
    assert _kwargs("cirno_neu", {**spec, "first_dealer": -1})["first_dealer"] == "random"
    assert _kwargs("depot", {**load("depot").get_type().parameter_specification, "starting_player": -1})[
        "starting_player"] == "random"
    assert _kwargs("crypto_trick", {**load("crypto_trick").get_type().parameter_specification, "first_player": -1})[
        "first_player"] == "random"
    assert load("yadokarick").get_type().parameter_specification["rounds"] == -1  # None: as before
    state = load("cirno_neu", set_value="-50", rng_seed=1).new_initial_state()
    assert state.table.state.config.set_value == -50
    dealers = {load("cirno_neu", first_dealer=-1, rng_seed=s).new_initial_state().table.state.dealer for s in range(12)}
    assert len(dealers) > 1  # a random first dealer, drawn from each game's seed
    with pytest.raises(ValueError, match="whole number"):
        load("cirno_neu", set_value="x")


def test_rng_seed_makes_the_same_games():
    def deals(seed):
        g = load("depot", players=3, rng_seed=seed)
        return [str(g.new_initial_state()) for _ in range(3)]

    assert deals(5) == deals(5)
    assert deals(5) != deals(6)
    assert len(set(deals(5))) == 3  # each new game is a new deal


def test_observations_are_the_pettingzoo_encoding_of_the_view_and_hide_what_they_should():
    from cardwidgets.envs import pettingzoo_env

    g = load("crypto_trick", players=3, rng_seed=2)
    st = random_prefix(g.new_initial_state(), random.Random(1), 9)
    table = st.table
    env = pettingzoo_env("crypto_trick", players=3)
    env.reset(options={"state": table.state})
    rng = random.Random(4)
    for seat in range(3):
        obs = np.asarray(st.observation_tensor(seat), np.float32)
        assert np.array_equal(obs, env.observe(f"player_{seat}")["observation"])
        assert st.observation_string(seat) == table.state.describe(seat)
        # A twin position: the same answers for this seat.
        real = table.state
        twin = real._twin(seat, rng)
        assert twin.view(None) != real.view(None)
        info = st.information_state_string(seat)
        table.state = twin
        try:
            assert st.observation_tensor(seat) == list(obs)
            assert st.observation_string(seat) == real.describe(seat)
            assert st.information_state_string(seat) == info
        finally:
            table.state = real
    assert len({st.information_state_string(s) for s in range(3)}) == 3


def test_the_information_state_remembers_every_observation_of_its_seat():
    """The recall digest is the chain of the seat's own views along the game, nothing else."""
    g = load("cirno_neu", players=3, rng_seed=9)
    st = random_prefix(g.new_initial_state(), random.Random(2), 12)
    engine = st.table.state
    mod = game_module("cirno_neu")
    replay = mod.new_game(players=3, seed=engine.seed)
    history = list(engine.history)
    for seat in range(3):
        replay = mod.new_game(players=3, seed=engine.seed)
        chain = b""
        for k in range(len(history) + 1):
            text = json.dumps(replay.view(seat), sort_keys=True, separators=(",", ":")) + "|"
            chain = hashlib.blake2b(chain + text.encode(), digest_size=16).digest()
            if k < len(history):
                replay.apply(history[k])
        assert st.information_state_string(seat).endswith("recall " + chain.hex())
    before = st.information_state_string(0)
    st.apply_action(st.legal_actions()[0])
    assert st.information_state_string(0) != before


@pytest.mark.parametrize("game, params", CONFIGS[::4], ids=IDS[::4])
def test_serialize_clone_and_returns(game, params):
    g = load(game, rng_seed=3, **params)
    rng = random.Random(0)
    st = random_prefix(g.new_initial_state(), rng, 15)
    copy = g.deserialize_state(st.serialize())
    twin = st.clone()
    assert str(copy) == str(st) and copy.legal_actions() == st.legal_actions()
    assert copy.history() == st.history()
    for s in range(g.num_players()):
        assert copy.information_state_string(s) == st.information_state_string(s)
    if not st.is_terminal():
        twin.apply_action(twin.legal_actions()[-1])
        assert len(twin.history()) == len(st.history()) + 1 and str(copy) == str(st)
    seed = rng.random()
    for state in (st, copy):
        random_prefix(state, random.Random(seed), 100_000)
    assert str(copy) == str(st) and copy.returns() == st.returns()
    spec = EnvSpec(game, **params)
    out = st.table.state.outcome()
    if spec.players == 1:
        assert st.returns() == [out.scores[0]]
    else:
        assert sum(st.returns()) == pytest.approx(1.0)
        assert st.returns() == spec.rewards(st.table.state)


def test_an_action_id_out_of_range_is_a_clear_error():
    st = load("depot").new_initial_state()
    names = st.table.spec.names
    assert st.action_to_string(0, len(names) - 1) == names[-1]
    for action in (len(names), 10 ** 6, -1):  # -1 would name the last action
        with pytest.raises(ValueError, match=rf"action {action} is not an action id of python_cardwidgets_depot: "
                                             rf"the ids run from 0 to {len(names) - 1}"):
            st.action_to_string(0, action)


def test_random_agents_play_through_rl_environment():
    game = load("yadokarick", players=3, rounds=1, rng_seed=4)
    env = rl_environment.Environment(game)
    assert env.observation_spec()["info_state"] == (game.observation_tensor_size(),)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(3)]
    np.random.seed(0)
    totals = np.zeros(3)
    for _ in range(3):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            out = agents[p].step(ts)
            assert out.action in ts.observations["legal_actions"][p]
            ts = env.step([out.action])
        totals += ts.rewards
    assert totals.sum() == pytest.approx(3.0)  # each game shares a win of 1


def test_mcts_with_random_rollouts_plays_a_duo_game():
    game = load("yadokarick", mode="duo", rng_seed=6)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=25,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    st = game.new_initial_state()
    rng = random.Random(3)
    while not st.is_terminal():
        legal = st.legal_actions()
        action = bot.step(st) if st.current_player() == 0 else rng.choice(legal)
        assert action in legal
        st.apply_action(action)
    assert sum(st.returns()) == pytest.approx(1.0)


# --------------------------------------------------------------------------- serialization
class _Boom:
    """A pickle that runs a shell command when it is loaded."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        import os

        return (os.system, (self.command,))


@pytest.mark.parametrize("game, params", CONFIGS[::3], ids=IDS[::3])
def test_serialized_state_is_json_and_round_trips(game, params):
    import pickle

    g = load(game, rng_seed=5, **params)
    st = random_prefix(g.new_initial_state(), random.Random(1), 12)
    text = st.serialize()
    data = json.loads(text)  # the library's own JSON, not a pickle
    assert data["format"] == "cardwidgets-openspiel-state" and data["actions"] == st.history()
    for copy in (g.deserialize_state(text), pickle.loads(pickle.dumps(st))):
        assert str(copy) == str(st) and copy.history() == st.history() and copy.legal_actions() == st.legal_actions()
        for s in range(g.num_players()):
            assert copy.information_state_string(s) == st.information_state_string(s)
            assert copy.observation_tensor(s) == st.observation_tensor(s)
        # the same future: the restored game plays on exactly as the original
        for state in (st.clone(), copy):
            random_prefix(state, random.Random(9), 100_000)
            assert state.returns() == random_prefix(st.clone(), random.Random(9), 100_000).returns()
    assert str(pickle.loads(pickle.dumps(g))) == str(g)


def test_a_hostile_state_text_runs_nothing(tmp_path):
    import base64
    import pickle

    marker = tmp_path / "ran"
    g = load("depot", players=3, rng_seed=1)
    payload = base64.b64encode(pickle.dumps({"_play": _Boom(f"touch {marker}")})).decode()
    # OpenSpiel's default text for a Python state, as the adapter wrote it before: history, move number, a pickle
    texts = [f"history=\nmove_number=0\n__dict__={payload}", payload, "", "[" * 100_000, "1" * 5000,
             json.dumps({"format": "cardwidgets-openspiel-state", "version": 1, "game": "python_cardwidgets_depot",
                         "config": {}, "seed": 1, "actions": []})]
    for text in texts:
        with pytest.raises(ValueError, match="serialized|another game"):
            g.deserialize_state(text)
    assert not marker.exists()


def test_a_state_text_is_checked():
    g = load("depot", players=3, rng_seed=1)
    st = random_prefix(g.new_initial_state(), random.Random(2), 5)
    good = json.loads(st.serialize())
    other = load("depot", players=4, rng_seed=1)
    with pytest.raises(ValueError, match="another game or configuration"):
        other.deserialize_state(st.serialize())
    for change, message in [({"seed": -1}, "seed is a whole number"), ({"seed": 2 ** 63}, "seed is a whole number"),
                            ({"actions": ["0"]}, "action ids"), ({"actions": [0] * 100_000}, "action ids"),
                            ({"version": 2}, "version 2"), ({"extra": 1}, "has the keys")]:
        with pytest.raises(ValueError, match=message):
            g.deserialize_state(json.dumps({**good, **change}))
    illegal = [*good["actions"][:-1], 10 ** 6]
    with pytest.raises(ValueError, match=f"action {len(illegal)} .* is not legal there"):
        g.deserialize_state(json.dumps({**good, "actions": illegal}))
    assert g.deserialize_state(json.dumps(good)).history() == st.history()


def test_an_int_parameter_past_32_bits_is_a_clear_error():
    from cardwidgets.envs import openspiel_game
    from cardwidgets.envs._openspiel import _CLASSES

    for params in ({"rng_seed": 2 ** 62}, {"rng_seed": 2 ** 31}, {"rng_seed": -2 ** 31 - 1}, {"players": 2 ** 40}):
        name = next(iter(params))
        with pytest.raises(ValueError, match=rf"{name}=.*: OpenSpiel's int parameters are 32-bit, from -2147483648 "
                                             r"to 2147483647"):
            openspiel_game("depot", **params)
        with pytest.raises(ValueError, match="32-bit"):
            _CLASSES["depot"](params)  # the class itself, as OpenSpiel's registry calls it
    g = openspiel_game("depot", players=3, rng_seed=2 ** 31 - 1)
    assert str(g) == str(load("depot", players=3, rng_seed=2 ** 31 - 1))
    assert g.new_initial_state().history() == []


def test_every_32_bit_seed_repeats_its_own_games():
    # OpenSpiel passes any 32-bit int; only -1 means fresh games (a negative seed was fresh games too,
    # and -5 would have been 5's games: random.Random takes a seed's absolute value)
    def first_games(seed: int) -> list[str]:
        g = pyspiel.load_game("python_cardwidgets_depot", {"players": 3, "rng_seed": seed})
        return [str(g.new_initial_state()) for _ in range(2)]

    seeds = [-2 ** 31, -5, -2, 0, 5, 2 ** 31 - 1]
    games = {seed: first_games(seed) for seed in seeds}
    for seed in seeds:
        assert first_games(seed) == games[seed], seed
    assert len({tuple(v) for v in games.values()}) == len(seeds)
    assert first_games(-1) != first_games(-1)


def test_openspiels_own_game_and_state_serialization_needs_an_rng_hook():
    # pyspiel 2.x writes [GameRNGState] for a SAMPLED_STOCHASTIC game and asks Game::GetRNGState /
    # SetRNGState, which its Python-game trampoline does not forward: no Python game can give them
    g = load("depot", players=3, rng_seed=1)
    st = g.new_initial_state()
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    with pytest.raises(pyspiel.SpielError, match="GetRNGState unimplemented"):
        pyspiel.serialize_game_and_state(g, st)
    from cardwidgets.envs import serialize_game_and_state

    with pytest.raises(pyspiel.SpielError, match="SetRNGState unimplemented"):
        pyspiel.deserialize_game_and_state(serialize_game_and_state(g, st))


def test_game_and_state_round_trip():
    from cardwidgets.envs import deserialize_game_and_state, serialize_game_and_state

    g = load("cirno_neu", players=4, rng_seed=11)
    g.new_initial_state().legal_actions()  # the game's seed stream has moved on once
    st = random_prefix(g.new_initial_state(), random.Random(3), 9)
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(g, st)  # OpenSpiel's own: no RNG state from a Python game
    text = serialize_game_and_state(g, st)
    game, copy = deserialize_game_and_state(text)
    assert str(game) == str(g) and str(copy) == str(st) and copy.history() == st.history()
    # the restored game goes on drawing the same seeds for its next games
    assert str(game.new_initial_state()) == str(g.new_initial_state())
    assert serialize_game_and_state(game, copy) != text  # its RNG moved on, as the original's did


def test_a_hostile_game_and_state_text_runs_nothing(tmp_path):
    import base64
    import pickle

    from cardwidgets.envs import deserialize_game_and_state, serialize_game_and_state

    marker = tmp_path / "ran"
    payload = base64.b64encode(pickle.dumps({"_play": _Boom(f"touch {marker}")})).decode()
    g = load("depot", players=3, rng_seed=1)
    good = serialize_game_and_state(g, g.new_initial_state())
    lines = good.split("\n")
    state_at = lines.index("[State]") + 1
    texts = ["\n".join([*lines[:state_at], f"history=\nmove_number=0\n__dict__={payload}"]),
             good.replace("python_cardwidgets_depot", "tic_tac_toe"), good.replace("[Meta]", ""),
             good.replace(lines[lines.index("[GameRNGState]") + 1], "[3, [1, 2], null]"), "", "x" * 2_000_000]
    for text in texts:
        with pytest.raises(ValueError):
            deserialize_game_and_state(text)
    assert not marker.exists()
