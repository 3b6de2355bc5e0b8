"""The PettingZoo adapters (``cardwidgets.envs.pettingzoo_env``) over every game, mode,
player count and option of the conformance suite.

PettingZoo's own ``api_test`` and ``seed_test`` pass; the action mask always equals the
engine's legal list; every legal action seen in random games is in the fixed space; an
observation depends on ``view(seat)`` only (twin positions give the same numbers); a
whole game is played by sampling masked actions; errors change nothing.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardwidgets import IllegalActionError, InvalidActionError, game_spec  # noqa: E402
from cardwidgets.envs import EnvSpec, pettingzoo_env  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402
from test_conformance import CASES, IDS  # noqa: E402

#: One configuration per game, mode and player count (what api_test must pass for).
MODES = [(g, {"mode": m.name, "players": n} if len(game_spec(g).modes) > 1 else {"players": n})
         for g in ("depot", "cirno_neu", "crypto_trick", "yadokarick") for m in game_spec(g).modes
         for n in m.players]
MODE_IDS = [f"{g}:{','.join(f'{k}={v}' for k, v in c.items())}" for g, c in MODES]
#: Warnings api_test gives any env whose observation is a dict with an action mask
#: (PettingZoo's own classic games are exempted from them by name).
DICT_OBS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")
ITEM = "arrange next "


def expected_mask(env) -> set[str]:
    """The action names the engine allows now, computed from its legal list alone."""
    legal = [str(a) for a in env.game_state.legal_actions()]
    if legal and legal[0].startswith("arrange "):
        k = len(env.pending)
        seqs = [tuple(t[len("arrange "):].split(",")) for t in legal]
        return {ITEM + s[k] for s in seqs if s[:k] == env.pending}
    return set(legal)


def play(env, rng: random.Random, check, report=None, label: str = "") -> dict[str, float]:
    """Play one game through ``agent_iter`` with masked random actions, calling
    ``check(env, agent, obs)`` before every live step; returns the agents' final returns."""
    returns: dict[str, float] = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        check(env, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return returns


# --------------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize("game, cfg", MODES, ids=MODE_IDS)
def test_pettingzoo_api_and_seed_tests_pass(game, cfg):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo_env(game, **cfg), num_cycles=400)
        seed_test(lambda: pettingzoo_env(game, **cfg), num_cycles=200)
    other = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBS)}
    assert not other, other


# --------------------------------------------------------------------------- the space and the mask
@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_the_mask_is_the_legal_list_and_the_space_holds_every_legal_action(game, cfg, report):
    env = pettingzoo_env(game, **cfg)
    space = set(env.action_names)
    steps = 0

    def check(env, agent, obs):
        nonlocal steps
        steps += 1
        want = expected_mask(env)
        assert want <= space, f"legal actions outside the space: {sorted(want - space)}"
        got = {env.action_names[i] for i in np.flatnonzero(obs["action_mask"])}
        assert got == want
        assert env.legal_actions() == list(np.flatnonzero(obs["action_mask"]))
        assert env.observation_space(agent).contains(obs), "an observation outside its space"
        seat = env.possible_agents.index(agent)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), "a seat not to act has legal actions"
        assert env.game_state.current_player == seat

    rng = random.Random(5)
    for g in range(3):
        env.reset(seed=g)
        play(env, rng, check)
    # The space is complete: every action legal anywhere in many more engine-only games.
    mod = game_module(game)
    seen = 0
    for g in range(12):
        st = mod.new_game(seed=500 + g, **cfg)
        while not st.is_terminal:
            legal = st.legal_actions()
            for a in legal:
                text = str(a)
                if text.startswith("arrange "):
                    assert all(ITEM + c in space for c in text[len("arrange "):].split(","))
                else:
                    assert text in space, f"{text!r} is legal but not in the action space"
                seen += 1
            st.apply_unchecked(legal[rng.randrange(len(legal))])
    report("envs", game, env_steps=steps, legal_actions_in_space=seen)


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_every_action_name_is_the_games_own_notation(game, cfg):
    spec = EnvSpec(game, **cfg)
    parse = game_module(game).parse_action
    for i, name in enumerate(spec.names):
        if name.startswith(ITEM):
            continue
        assert str(parse(name)) == name, f"{name!r} is not canonical notation"
        assert spec.index(name) == i and spec.index(parse(name)) == i
    assert len(set(spec.names)) == len(spec.names)
    assert len(spec.layout.low) == len(spec.layout.high) == spec.layout.size
    assert all(lo <= hi for lo, hi in zip(spec.layout.low, spec.layout.high))


# --------------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_observations_read_only_the_seats_view(game, cfg, report):
    """A twin position (the cards a seat cannot see dealt differently) gives that seat the
    same observation and mask, at many points of a game."""
    env, twin_env = pettingzoo_env(game, **cfg), pettingzoo_env(game, **cfg)
    rng = random.Random(11)
    compared = differed = 0
    env.reset(seed=3)
    k = 0
    while not env.game_state.is_terminal:
        st = env.game_state
        if k % 5 == 0 and not env.pending:
            for seat, agent in enumerate(env.possible_agents):
                twin = st._twin(seat, random.Random(k * 31 + seat))
                assert twin.view(seat) == st.view(seat)
                differed += twin.view(None) != st.view(None)
                twin_env.reset(options={"state": twin})
                a, b = env.observe(agent), twin_env.observe(agent)
                assert np.array_equal(a["observation"], b["observation"]), f"seat {seat} tells the twin apart"
                assert np.array_equal(a["action_mask"], b["action_mask"])
                compared += 1
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        k += 1
    assert compared
    report("envs twins", game, compared=compared, hidden_deals_differed=differed)


def test_twins_really_differ_somewhere():
    """The twin comparisons above are not vacuous: twins redeal hidden cards, and the
    observation does change when what the seat sees changes."""
    env = pettingzoo_env("depot", players=4)
    env.reset(seed=1)
    st = env.game_state
    twin = st._twin(0, random.Random(1))
    assert twin.view(None) != st.view(None) and twin.view(0) == st.view(0)
    other = st._twin(1, random.Random(1))  # seat 0's own hand redealt
    env2 = pettingzoo_env("depot", players=4)
    env2.reset(options={"state": other})
    assert not np.array_equal(env.observe("player_0")["observation"], env2.observe("player_0")["observation"])


def test_a_pending_arrangement_is_seen_by_its_captor_only():
    env = pettingzoo_env("yadokarick", players=4, placement_order="choose")
    rng = random.Random(2)
    for seed in range(20):
        env.reset(seed=seed)
        while not env.game_state.is_terminal:
            obs = env.observe(env.agent_selection)
            names = [env.action_names[i] for i in np.flatnonzero(obs["action_mask"])]
            if env.game_state.phase == "arrange" and not env.pending \
                    and len(env.game_state.view(None)["arrange"]["cards"]) >= 3:
                captor = env.agent_selection
                cards = env.game_state.view(None)["arrange"]["cards"]
                assert sorted(names) == sorted(ITEM + c for c in cards)
                before = {a: env.observe(a)["observation"] for a in env.possible_agents}
                env.step(env.action_index(ITEM + cards[-1]))
                assert env.pending == (cards[-1],) and env.agent_selection == captor
                for a in env.possible_agents:
                    same = np.array_equal(before[a], env.observe(a)["observation"])
                    assert same == (a != captor), a
                assert ITEM + cards[-1] not in {env.action_names[i] for i in
                                                np.flatnonzero(env.observe(captor)["action_mask"])}
                # choosing that card again is refused by the rule, not by the notation, and changes nothing
                chosen = env.game_state.to_dict()
                with pytest.raises(IllegalActionError) as e:
                    env.step(env.action_index(ITEM + cards[-1]))
                assert e.value.rule == "Y8.3" and "each once" in str(e.value)
                assert env.pending == (cards[-1],) and env.game_state.to_dict() == chosen
                # Go on bottom to top in reverse; the last card goes on top by itself.
                order = [cards[-1]] + cards[:-1][::-1]
                seat = env.possible_agents.index(captor)
                house = env.game_state.view(None)["houses"][seat]
                for c in order[1:-2]:
                    env.step(env.action_index(ITEM + c))
                    assert env.game_state.phase == "arrange"
                env.step(env.action_index(ITEM + order[-2]))
                assert env.pending == () and env.game_state.last_move is not None
                assert str(env.game_state.last_move) == "arrange " + ",".join(order)
                built = env.game_state.view(None)["houses"][seat]
                if not env.game_state.view(None)["roofed"][seat] and len(house) + len(order) <= 6:
                    assert built == house + order
                return
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no arrangement of 3 or more cards in 20 games")


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("game, cfg", MODES, ids=MODE_IDS)
def test_a_whole_game_by_sampling_masked_actions(game, cfg):
    env = pettingzoo_env(game, **cfg)
    env.reset(seed=42)
    for agent in env.possible_agents:
        env.action_space(agent).seed(7)
    returns = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            assert info["outcome"] == env.game_state.outcome().to_dict()
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    assert env.agents == [] and env.game_state.is_terminal
    out = env.game_state.outcome()
    assert steps <= env.env_spec.max_steps
    if len(env.possible_agents) == 1:
        assert returns["player_0"] == out.scores[0]
    else:
        assert sum(returns.values()) == pytest.approx(1.0)
        for s, a in enumerate(env.possible_agents):
            assert returns[a] == pytest.approx(1 / len(out.winners) if s in out.winners else 0.0)


def test_a_game_stopped_by_the_safety_cap_is_a_truncated_draw():
    env = pettingzoo_env("depot", players=3, max_turns=4)
    env.reset(seed=0)
    while not env.game_state.is_terminal:
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.game_state.outcome().termination.value == "aborted"
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env._cumulative_rewards == {a: pytest.approx(1 / 3) for a in env.possible_agents}


# --------------------------------------------------------------------------- errors and the rest
def test_numpy_actions_are_scalars_and_arrays_are_refused():
    env = pettingzoo_env("crypto_trick", players=3)
    env.reset(seed=9)
    before = env.game_state.to_dict()
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    # one environment takes one index: an array (a batch, even of one) is an InvalidActionError, not numpy's TypeError
    for bad in (np.array([legal]), np.array([[legal]]), np.array([legal, legal]), np.array([], dtype=int),
                np.array(float(legal)), np.bool_(True), np.array([legal], dtype=object)):
        with pytest.raises(InvalidActionError, match="an action is one index"):
            env.step(bad)
    assert env.game_state.to_dict() == before
    env.step(np.array(legal))  # a 0-d integer array is a scalar, as is np.int64
    assert env.game_state.move_count == 1


def test_bad_actions_raise_and_change_nothing():
    env = pettingzoo_env("crypto_trick", players=3)
    env.reset(seed=9)
    before = env.game_state.to_dict()
    with pytest.raises(InvalidActionError):
        env.step(env.action_space("player_0").n)
    with pytest.raises(InvalidActionError):
        env.step("reveal Y1")
    with pytest.raises(InvalidActionError):
        env.step(-1)
    with pytest.raises(IllegalActionError) as e:
        env.step(env.action_index("want"))  # the offer comes first
    assert e.value.rule == "G2"
    not_held = next(c for c in env.game_state.view(None)["cards"]
                    if c not in env.game_state.view(0)["hands"][0])
    with pytest.raises(IllegalActionError) as e:
        env.step(env.action_index(f"reveal {not_held}"))
    assert e.value.rule == "C5.1"
    assert env.game_state.to_dict() == before and env.agent_selection == "player_0"


def test_configuration_errors_are_the_engines():
    with pytest.raises(TypeError):
        pettingzoo_env("depot", players=3, colour="red")
    with pytest.raises(ValueError, match="players=9"):
        pettingzoo_env("depot", players=9)
    with pytest.raises(TypeError, match="seed"):
        pettingzoo_env("depot", seed=3)
    with pytest.raises(ValueError, match="unknown game"):
        pettingzoo_env("chess")
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env("depot", render_mode="rgb_array")
    with pytest.raises(ValueError, match="mode="):
        pettingzoo_env("depot", mode="solo")
    assert pettingzoo_env("depot", mode="standard").max_num_agents == 4
    with pytest.raises(RuntimeError, match="reset"):
        pettingzoo_env("depot").step(0)


def test_reset_from_a_position_and_render_the_seat_to_act(capsys):
    env = pettingzoo_env("cirno_neu", players=3, render_mode="ansi")
    env.reset(seed=4)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    seat = env.game_state.current_player
    other = pettingzoo_env("cirno_neu", players=3)
    other.reset(options={"state": env.game_state})
    assert other.game_state is not env.game_state  # a copy: the caller's state is left alone
    assert other.agent_selection == env.agent_selection == f"player_{seat}"
    assert np.array_equal(other.observe(env.agent_selection)["observation"],
                          env.observe(env.agent_selection)["observation"])
    assert env.render() == env.game_state.describe(seat)
    assert "(hidden)" in env.render()  # the others' hands are not shown
    human = pettingzoo_env("cirno_neu", players=3, render_mode="human")
    human.reset(seed=4)
    assert human.render() is None and capsys.readouterr().out.strip() == human.game_state.describe(0)
    with pytest.raises(TypeError):
        other.reset(options={"state": 5})
    from cardwidgets import make

    for wrong in (make("cirno_neu", players=4, seed=1), make("cirno_neu", players=3, seed=1, life_system=True),
                  make("depot", players=3, seed=1)):
        with pytest.raises(ValueError, match="not a state of this configuration"):
            other.reset(options={"state": wrong})


@pytest.mark.parametrize("game, cfg", MODES[::3], ids=MODE_IDS[::3])
def test_reset_from_a_position_text(game, cfg):
    env = pettingzoo_env(game, **cfg)
    env.reset(seed=8)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    try:
        text = env.game_state.to_position()
    except NotImplementedError:
        pytest.skip(f"{game} has no position text yet")
    other = pettingzoo_env(game, **cfg)
    other.reset(options={"state": text})
    agent = env.agent_selection
    assert other.agent_selection == agent
    assert np.array_equal(other.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
    assert np.array_equal(other.observe(agent)["observation"], env.observe(agent)["observation"])


def test_reset_seeds_reproduce_games_and_differ_between_seeds():
    def first_obs(seed):
        env = pettingzoo_env("depot", players=4)
        env.reset(seed=seed)
        return env.observe("player_0")["observation"], env.game_state.view(None)

    assert np.array_equal(first_obs(3)[0], first_obs(3)[0]) and first_obs(3)[1] == first_obs(3)[1]
    assert first_obs(3)[1] != first_obs(4)[1]
    env = pettingzoo_env("depot", players=4)
    env.reset(seed=3)
    a = env.game_state.view(None)
    env.reset()
    assert env.game_state.view(None) != a  # the next game of the seeded stream


def test_observation_parts_hold_what_the_view_says():
    """Spot checks of the encoding against the view it was made from."""
    env = pettingzoo_env("depot", players=4)
    env.reset(seed=2)
    spec = env.env_spec
    x = env.observe("player_1")["observation"]
    v = env.game_state.view(1)
    off, size = spec.layout.part("hand")
    assert list(x[off:off + size]) == [v["hands"][1].count(val) for val in range(1, 9)]
    off, size = spec.layout.part("hand_counts")
    assert list(x[off:off + size]) == v["hand_counts"][1:] + v["hand_counts"][:1]  # rotated to the seat
    off, size = spec.layout.part("current")
    assert list(x[off:off + size]) == [0, 0, 0, 1]  # seat 0 acts: three seats after seat 1
