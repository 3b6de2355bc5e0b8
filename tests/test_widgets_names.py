"""Player names: ``names=[...]`` on every engine and table, in narration, views, outcomes,
saved states, positions and replays. Without names the seats keep their letters (the golden
playthroughs in tests/golden/ are unchanged)."""

from __future__ import annotations

import json
import random
import re

import pytest

from cardwidgets import Replay, ReplayError, Timeline, available_games, from_position, game_spec, widgets
from cardwidgets.core.state import MAX_NAME
from cardwidgets.games import game_module

NAMES = ["Ann", "Bartholomew Quince", "Cy", "Dee", "Éowyn", "Fay", "Gus", "Hal"]


def configs() -> list[tuple[str, dict]]:
    """Every game and mode at two player counts (the fewest and the most)."""
    out = []
    for game in available_games():
        spec = game_spec(game)
        for mode in spec.modes:
            base = {"mode": mode.name} if len(spec.modes) > 1 else {}
            for n in sorted({mode.players[0], mode.players[-1]}):
                out.append((game, {**base, "players": n}))
    return out


CONFIGS = configs()
IDS = [f"{g}-" + "-".join(f"{k}={v}" for k, v in kw.items()) for g, kw in CONFIGS]


def playout(game: str, kw: dict, seed: int, names):
    """A random game with (or without) names: every narrated line, refusal and the end."""
    mod = game_module(game)
    st = mod.new_game(seed=seed, names=names, **kw)
    rng = random.Random(seed)
    lines = [e.text for e in st.setup_events]
    while not st.is_terminal:
        legal = st.legal_actions()
        # a refusal for another seat names both seats
        other = (st.current_player + 1) % st.players
        if other != st.current_player:
            lines.append(str(st.explain(str(legal[0]), other)))
        lines.append(str(st.explain(str(legal[0]))))  # "Legal: ... by <name>."
        lines += [e.text for e in st.apply(rng.choice(legal))]
    lines.append(st.outcome().reason)
    return st, lines


@pytest.mark.parametrize("game, kw", CONFIGS, ids=IDS)
def test_narration_and_outcome_use_the_names(game, kw, report):
    """The same game with names narrates exactly what it narrates without, each seat's letter
    (or solo's "you") replaced by its name."""
    n = kw["players"]
    names = NAMES[:n]
    checked = 0
    for seed in range(4):
        plain, plain_lines = playout(game, kw, seed, None)
        named, named_lines = playout(game, kw, seed, names)
        assert [str(a) for a in named.history] == [str(a) for a in plain.history]
        assert len(named_lines) == len(plain_lines)
        labels = [plain.seat_label(s) for s in range(n)]  # what the seats are called without names
        for a, b in zip(named_lines, plain_lines):
            back = a
            for name, label in sorted(zip(names, labels), key=lambda p: -len(p[0])):
                back = back.replace(name, label)
            assert back == b, (a, b)
            if kw.get("mode") != "solo":  # solo says "You ..." in its own words
                # every seat the plain line names is named in the named line (no text made
                # once without names and reused: the engines cache some narration); "F = 4" is
                # Yadokarick's collapse formula, not seat F
                for name, label in zip(names, labels):
                    assert a.count(name) == len(re.findall(rf"(?<!\w){label}(?!\w)(?! =)", b)), (label, name, a, b)
            checked += 1
        assert any(name in line for line in named_lines for name in names), "no line names a player"
        for seat in [None, *range(n)]:
            assert named.view(seat)["names"] == names
        assert named.outcome().reason != "" and named.outcome().winners == plain.outcome().winners
    report("names", game, lines_compared=checked)


@pytest.mark.parametrize("game, kw", CONFIGS, ids=IDS)
def test_names_are_saved_in_states_positions_and_replays(game, kw):
    n = kw["players"]
    names = NAMES[:n]
    st, _ = playout(game, kw, 1, names)
    mod = game_module(game)
    start = mod.new_game(seed=1, names=names, **kw)
    assert start.names == tuple(names)
    # to_dict / from_dict, JSON and pickle
    d = json.loads(json.dumps(st.to_dict()))
    assert d["names"] == names and type(st).from_dict(d).names == tuple(names)
    older = {k: v for k, v in game_module(game).new_game(seed=1, **kw).to_dict().items() if k != "names"}
    assert type(st).from_dict(older).names is None  # saved before names existed: the letters
    # positions: names=[...] after the options, read back
    text = start.to_position()
    assert " names=" + json.dumps(names, separators=(",", ":")).replace(" ", "\\u0020") + " " in text
    back = from_position(text, seed=5)
    assert back.names == tuple(names) and back.view(None)["names"] == names
    # a world sampled for a seat keeps the names
    assert start.sample_world(0, random.Random(1)).names == tuple(names)
    # replays record them in "options", and play them back
    rep = Replay.from_state(st)
    assert rep.options["names"] == names
    again = Replay.from_json(rep.to_json())
    built = again.build()
    assert built.names == tuple(names) and built.to_dict() == st.to_dict()
    tl = Timeline.from_replay(again)
    assert tl.state.names == tuple(names) and tl.root.names == tuple(names)
    # without names nothing is written
    plain = mod.new_game(seed=1, **kw)
    assert "names=" not in plain.to_position() and "names" not in Replay.from_state(plain).options


@pytest.mark.parametrize("bad, words", [
    ("Ann", "must be a list"),
    (["Ann", "Bob"], "one name per seat: 3, got 2"),
    (["Ann", "Bob", 7], "names[2] must be text"),
    (["Ann", "", "Cy"], "is not a name: 1 to 20"),
    (["Ann", "   ", "Cy"], "is not a name"),
    (["Ann", "x" * (MAX_NAME + 1), "Cy"], "is not a name"),
    (["Ann", "bob", "BOB"], "is the name of seat B too"),
    (["Ann", "Bo\nb", "Cy"], "control or invisible"),
    (["Ann", "Bo\u202eb", "Cy"], "control or invisible"),
    (["Ann", "Bo\u200bb", "Cy"], "control or invisible"),
    (["C", "Bob", "Cy"], "the letter of seat C"),
    (["b", "Bob2", "Cy"], "the letter of seat B"),
])
def test_bad_names_are_refused_saying_which(bad, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        game_module("depot").new_game(players=3, seed=1, names=bad)
    with pytest.raises(ValueError, match=re.escape(words)):
        widgets.Depot(players=3, seed=1, names=bad)


def test_names_are_trimmed_and_the_letters_are_the_default():
    mod = game_module("depot")
    assert mod.new_game(players=3, seed=1, names=["  Ann ", "Bob", "Cy"]).names == ("Ann", "Bob", "Cy")
    assert mod.new_game(players=3, seed=1, names=["A", "B", "C"]).names is None
    assert mod.new_game(players=3, seed=1, names=("a", "Bob", "c")).names == ("a", "Bob", "c")  # its own letter


def test_the_duo_npc_keeps_its_name():
    mod = game_module("yadokarick")
    for bad in ("NPC", "npc", "the NPC"):
        with pytest.raises(ValueError, match="another participant"):
            mod.new_game(mode="duo", seed=1, names=["Ann", bad])
    st = mod.new_game(mode="duo", seed=8, names=["Ann", "Bob"])
    v = st.view(0)
    assert v["participants"] == ["Ann", "Bob", "NPC"] and set(v["order"]) == {"Ann", "Bob", "NPC"}
    assert "Clockwise the table is Ann, the NPC, Bob" in st.setup_events[-1].text


def test_cirno_neu_names_survive_its_setup_cache():
    """cirno+neu remembers validated options to set up simulations fast: names given as a
    tuple (hashable) were lost by the second game set up from the cache."""
    mod = game_module("cirno_neu")
    for _ in range(3):
        st = mod.new_game(players=3, seed=1, names=("Ann", "Bob", "Cy"))
        assert st.names == ("Ann", "Bob", "Cy") and "Ann deals" in st.setup_events[0].text
    assert mod.new_game(players=3, seed=1).names is None


def test_a_replay_whose_names_contradict_its_position_is_refused():
    st = game_module("depot").new_game(players=3, seed=1, names=["Ann", "Bob", "Cy"])
    text = from_position(st.to_position(), seed=1).to_position()
    rep = Replay("depot", {"players": 3, "names": ["Ann", "Bob", "Di"]}, 1, position=text)
    with pytest.raises(ReplayError, match="names"):
        rep.new_state()
    rep = Replay("depot", {"players": 3}, 1, position=text)
    with pytest.raises(ReplayError, match="names"):
        rep.new_state()
    ok = Replay("depot", {"players": 3, "names": ["Ann", "Bob", "Cy"]}, 1, position=text)
    assert ok.new_state().names == ("Ann", "Bob", "Cy")
    with pytest.raises(ReplayError, match="names"):
        Replay("depot", {"players": 3, "names": ["Ann", "Ann", "Cy"]}, 1).new_state()


# --------------------------------------------------------------------------- tables
@pytest.mark.parametrize("game, kw", CONFIGS, ids=IDS)
def test_tables_show_and_save_the_names(game, kw):
    """A whole game on a table with names, the bots playing every other seat (a bot reads the
    names in its view: the duo bot once looked its seat up by letter)."""
    names = NAMES[:kw["players"]]
    cls = getattr(widgets, game_spec(game).table)
    t = cls(**kw, seed=3, names=names, seat=0, bots="greedy", bot_delay=0)
    assert t.view["names"] == names and t.state.names == tuple(names)
    while not t.state.is_terminal:  # from Python the bots answer at once
        t.step(t.legal_actions()[0])
        assert t.last_error == "", t.last_error
    if kw.get("mode") != "solo":
        assert any(name in line for line in t.timeline.narration(0) for name in names)
    again = cls.from_replay(Replay.from_json(t.replay().to_json()), seat=0)
    assert again.view["names"] == names and again.state.to_dict() == t.state.to_dict()
    with pytest.raises(TypeError):
        cls(state=t.state, names=names)  # the state has its names already


def test_a_failing_bot_is_named_by_its_players_name():
    class Raising:
        name = "grumpy"

        def act(self, view, legal):
            raise RuntimeError("no")

    t = widgets.Depot(players=3, seed=2, seat=0, names=["Ann", "Bob", "Cy"], bots={1: Raising(), 2: "random"},
                      bot_delay=0)
    t.step(t.legal_actions()[0])
    assert t.last_error.startswith("the bot playing Bob (grumpy)")


def test_the_readmes_names_example_tells_the_truth():
    from cardwidgets import make

    st = make("crypto_trick", players=3, names=["Ann", "Bob", "Cy"], seed=4)
    assert st.setup_events[0].text.startswith("Round 1 of 3: ") and "clockwise from Ann (rules C4.1, C4.2); " \
        "Ann starts" in st.setup_events[0].text
    assert st.to_position()[:44] == 'crypto_trick/1 players=3 names=["Ann","Bob",'
