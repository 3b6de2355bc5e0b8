"""The game kit itself: declarations, the base's checks, randomness, events, the timeline."""

from __future__ import annotations

import random

import pytest

from cardwidgets import IllegalActionError, InvalidActionError, Replay, Timeline, available_games, game_spec, make
from cardwidgets.core import Event, GameSpec, Mode, Option, Phase, Recorded, Recorder, rng
from cardwidgets.games import depot


# --------------------------------------------------------------------------- declarations
def test_every_game_is_one_registration():
    import json
    from importlib import resources

    listed = json.loads(resources.files("cardwidgets.games").joinpath("registry.json").read_text())
    assert available_games() == listed
    for game in listed:
        spec = game_spec(game)
        assert spec.name == game
        import cardwidgets

        assert spec.table in cardwidgets.__all__


def test_spec_validates_modes_players_and_options():
    spec = GameSpec("demo", "Demo", 1, modes=(Mode("standard", (2, 3)), Mode("solo", (1,))),
                    options=(Option("rounds", 3, (1, 3)), Option("npc", False, (False, True), modes=("solo",))),
                    phases=(Phase("play", ("play",)), Phase("finished", ())), table="Demo")
    assert spec.resolve(2, None, {}) == ("standard", 2, {"rounds": 3})
    assert spec.resolve(1, "solo", {"npc": True}) == ("solo", 1, {"rounds": 3, "npc": True})
    with pytest.raises(ValueError, match="does not apply to mode 'standard'"):
        spec.resolve(2, "standard", {"npc": True})
    with pytest.raises(ValueError, match="allowed values: 1$"):
        spec.resolve(2, "solo", {})
    with pytest.raises(ValueError, match="mode='duo' is not allowed"):
        spec.resolve(2, "duo", {})
    with pytest.raises(TypeError, match="unknown option"):
        spec.resolve(2, None, {"colour": 1})
    with pytest.raises(ValueError, match="rounds=2 is not allowed; allowed values: 1, 3"):
        spec.resolve(2, None, {"rounds": 2})
    with pytest.raises(ValueError, match="rounds=True"):
        spec.resolve(2, None, {"rounds": True})
    assert spec.non_defaults({"rounds": 3, "npc": True}) == {"npc": True}


def test_G2_comes_from_the_phase_table_and_a_game_rule_wins():
    st = make("depot", players=4, seed=1)
    assert st.phase == "lead"
    with pytest.raises(IllegalActionError) as info:
        st.apply("pass take 4")
    assert info.value.rule == "D5.3"  # the phase names a more specific rule than G2


def test_transcript_seat_prefix():
    st = make("depot", players=4, seed=1)
    before = st.to_dict()
    for text in ("S1: play 2", "B: play 2"):
        with pytest.raises(IllegalActionError) as info:
            st.apply(text)
        assert info.value.rule == "G3"
    with pytest.raises(InvalidActionError, match="no seat S7"):
        st.apply("S7: play 2")
    assert st.to_dict() == before
    st.apply("S0: play 2")
    st.apply("b:pass take 4")
    assert [str(a) for a in st.history] == ["play 2", "pass take 4"]


def test_check_seat_is_public():
    st = make("cirno_neu", players=3, seed=1)
    assert st.check_seat(None) is None and st.check_seat(2) == 2
    for bad in (3, -1, True, 1.0, "0"):
        with pytest.raises(ValueError):
            st.check_seat(bad)


# --------------------------------------------------------------------------- randomness
def test_the_shuffle_is_pinned():
    """The library's own shuffle: the same permutations as the games recorded before it."""
    deck = list(range(10))
    rng.shuffle(123, 4, deck)
    assert deck == [3, 1, 9, 7, 0, 4, 2, 5, 6, 8]
    # identical to what CPython's random.shuffle gave for the same seed text
    ref = list(range(10))
    random.Random("cardwidgets/123/4").shuffle(ref)
    assert deck == ref
    assert rng.randrange(123, 5, 52) == random.Random("cardwidgets/123/5").randrange(52)


def test_recorded_chance_replays_a_game_and_can_be_injected():
    seeded = make("cirno_neu", players=4, seed=5, life_system=True)
    recorder = Recorder(5)  # records every decision of the seeded stream it plays
    recorded = make("cirno_neu", players=4, seed=5, life_system=True, chance=recorder)
    r = random.Random(1)
    while not seeded.is_terminal:
        a = r.choice(seeded.legal_actions())
        seeded.apply(a)
        recorded.apply(a)
    assert recorded.to_dict()["state"] == seeded.to_dict()["state"]
    # Another implementation hands its shuffles over: the engine replays the same game.
    first = recorder.recorded()
    fresh = make("cirno_neu", players=4, seed=999, life_system=True, chance=Recorded(first.decisions))
    start = make("cirno_neu", players=4, seed=5, life_system=True)
    assert fresh.to_dict()["state"] == start.to_dict()["state"]
    # Its replay keeps the recorded decisions (format version 3): the same game again.
    rep = Replay.from_json(Replay.from_state(fresh).to_json())
    assert rep.chance == first.to_list() and rep.build().to_dict()["state"] == fresh.to_dict()["state"]


def test_recorded_decisions_are_checked():
    with pytest.raises(ValueError, match="not a permutation"):
        Recorded([[0, 0, 1]]).shuffle(0, [1, 2, 3])
    with pytest.raises(IndexError, match="was not recorded"):
        Recorded([]).randrange(0, 4)


# --------------------------------------------------------------------------- events and explanations
def test_event_audience():
    private = Event("give", {"card": "Y3"}, "C5.5", "B gives C the Y3.", audience=(1, 2))
    assert private.visible_to(1) and private.visible_to(2) and not private.visible_to(0)
    assert private.visible_to(None)
    assert Event("x").visible_to(3)


def test_ordinals_as_narration_writes_them():
    from cardwidgets.core import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 101, 111, 112, 113)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "14th", "21st", "22nd", "23rd", "101st", "111th",
        "112th", "113th"]


def test_explanation_objects():
    st = make("depot", players=4, seed=1)
    bad = st.explain("play 7 7 7")
    assert not bad and bad.rule is not None and str(bad).startswith(f"Illegal: rule {bad.rule} — ")
    assert isinstance(bad.action, depot.Play)
    worse = st.explain("dance")
    assert not worse and worse.rule is None and worse.action is None and str(worse).startswith("Invalid: ")
    good = st.explain("play 2")
    assert good and str(good) == "Legal: play 2 by A." and good.effects[0].rule == "D4.8"
    assert st.move_count == 0


# --------------------------------------------------------------------------- generated clone / to_dict
def test_clone_and_to_dict_come_from_the_declared_fields():
    st = make("depot", players=4, seed=1)
    fields = {f.key for f in type(st).FIELDS if f.save}
    assert set(st.to_dict()["state"]) == fields
    twin = st.clone()
    twin.apply("play 2")
    assert st.move_count == 0 and st.to_dict() != twin.to_dict()


# --------------------------------------------------------------------------- the timeline
def _timeline() -> Timeline:
    tl = Timeline(make("depot", players=3, seed=11))
    for text in ("play 2", "play 3", "play 4"):
        tl.step(text)
    return tl


def test_timeline_moves_and_keeps_every_line():
    tl = _timeline()
    assert tl.cursor == tl.length == 3 and tl.branch == "main"
    tl.undo()
    assert tl.cursor == 2 and tl.length == 3  # undo drops nothing
    tl.step("play 4")  # the move already played here: just follow it
    assert tl.cursor == 3 and len(tl.branches) == 1
    tl.goto(1)
    tl.step("play 6")  # another move: a branch
    assert tl.branch == "branch-1" and tl.cursor == 2 and tl.length == 2
    assert [(b.name, b.parent, b.start, b.length) for b in tl.branches] == [
        ("main", None, 0, 3), ("branch-1", "main", 1, 2)]
    tl.goto(1)
    tl.step("play 6")  # following the branch again, not a third line
    assert tl.branch == "branch-1" and len(tl.branches) == 2
    tl.switch("main")
    assert tl.cursor == 3 and [str(a) for a in tl.history] == ["play 2", "play 3", "play 4"]
    with pytest.raises(IndexError):
        tl.goto(4)
    with pytest.raises(KeyError):
        tl.switch("nope")


def test_timeline_notes_and_replay_round_trip():
    tl = _timeline()
    tl.goto(2)
    tl.note("B could keep the 3")
    tl.step("play 8")
    tl.note("a bolder answer")
    text = tl.to_replay().to_json()
    back = Timeline.from_replay(Replay.from_json(text))
    assert back.branch == "main" and back.cursor == 3
    assert back.notes() == {1: "B could keep the 3"}
    back.switch("branch-1")
    assert back.notes() == {1: "B could keep the 3", 2: "a bolder answer"}
    assert [str(a) for a in back.history] == ["play 2", "play 3", "play 8"]
    assert back.to_replay().to_json() == text  # byte for byte


def test_timeline_narration_is_per_seat_and_bounded():
    tl = _timeline()
    assert tl.narration(0) == tl.narration(None) and len(tl.narration(0)) == 3
    assert tl.narration(0, last=2) == tl.narration(0)[-2:]
    tl.goto(1)
    assert len(tl.narration(1)) == 1


def test_timeline_refusal_changes_nothing():
    tl = _timeline()
    tl.goto(1)
    with pytest.raises(IllegalActionError):
        tl.step("play 1")
    assert tl.cursor == 1 and len(tl.branches) == 1


def test_replay_branch_errors_name_the_branch_and_line():
    tl = _timeline()
    tl.goto(1)
    tl.step("play 6")
    rep = tl.to_replay()
    rep.branches[0].actions.append("play 1 8")
    text = rep.to_json()
    from cardwidgets import ReplayError

    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    err = info.value
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if '"play 1 8"' in ln)
    assert (err.branch, err.index, err.line, err.rule) == ("branch-1", 1, line, "D4.1")
    assert str(err).startswith(f"line {line}: branch 'branch-1' action #1 'play 1 8'")


# --------------------------------------------------------------------------- the timeline at scale
def _naive_position(tl: Timeline, name: str, n: int):
    """The position after n actions of a line, by walking parents one by one (the reference)."""
    info = {b.name: b for b in tl.branches}
    line = name
    while info[line].parent is not None and n <= info[line].start:
        line = info[line].parent
    if info[line].parent is None:
        return tl.position(n, "main") if n else tl.root
    own = tl._lines[line]
    return own.states[n - own.start - 1]


def test_random_trees_find_every_position():
    """Lines started anywhere (in the past of a branch, at its start, on the main line) find
    each position where the step-by-step walk does, and narrate the same lines."""
    rng = random.Random(8)
    tl = Timeline(make("depot", players=4, seed=8))
    for _ in range(200):
        if rng.random() < 0.3 and tl.length:
            if rng.random() < 0.3:
                tl.switch(rng.choice([b.name for b in tl.branches]))
            tl.goto(rng.randrange(tl.length + 1))
        if tl.state.is_terminal:
            tl.goto(rng.randrange(tl.length))
        tl.step(rng.choice(tl.state.legal_actions()))
    assert len(tl.branches) > 20
    for b in tl.branches:
        for n in range(b.length + 1):
            assert tl.position(n, b.name) is _naive_position(tl, b.name, n)
        tl.switch(b.name)
        for n in sorted({0, 1, b.start, b.length}):
            tl.goto(min(n, b.length))
            lines = []
            for k in range(tl.cursor + 1):
                lines += [e.text for e in tl.events(k) if e.text and e.visible_to(2)]
            assert tl.narration(2) == lines and tl.narration(2, last=3) == lines[-3:]
            assert tl.narration(None, last=0) == []
    text = tl.to_replay().to_json()
    assert Timeline.from_replay(Replay.from_json(text)).to_replay().to_json() == text


def test_a_step_at_a_branch_point_costs_the_same_with_many_lines():
    """Each step at an earlier position scanned every line for one that starts there."""
    from cardwidgets.core import replay as replay_module, timeline as timeline_module
    from scale import chain, lines_run

    work = []
    for n in (10, 1000):
        tl = chain(n)
        deepest = tl.branch
        tl.goto(tl.length - 2)
        follow = str(tl.position(tl.cursor + 1).last_move)
        other = next(str(a) for a in tl.state.legal_actions() if str(a) != follow)
        cost = 0
        for text in (follow, other):  # follow the line, then start another
            tl.switch(deepest)
            tl.goto(tl.length - 2)
            _, lines = lines_run(lambda: tl.step(text), replay_module, timeline_module)
            cost += lines
        assert tl.branch == f"branch-{n + 1}" and len(tl.branches) == n + 2
        work.append(cost)
    assert work[1] < 1.5 * work[0], work


def test_to_replay_is_linear_in_the_actions():
    """Every branch of a growing chain used to rebuild its whole history to save its tail."""
    from cardwidgets.core import replay as replay_module, state as state_module, timeline as timeline_module
    from scale import chain, lines_run

    work = []
    for n in (20, 160):
        tl = chain(n, back=1, seed=4, players=4, games=3)
        _, lines = lines_run(tl.to_replay, replay_module, state_module, timeline_module)
        work.append(lines / sum(b.length - b.start for b in tl.branches))
    assert work[1] < 1.3 * work[0], work


def test_every_game_takes_mode_as_new_game_says():
    """``mode=`` is a keyword of every ``new_game``, single-mode games included."""
    for game in available_games():
        spec = game_spec(game)
        for mode in spec.modes:
            st = make(game, mode=mode.name, players=mode.players[0], seed=1)
            assert st.mode == mode.name
        with pytest.raises(ValueError, match="mode"):
            make(game, mode="no-such-mode", players=spec.modes[0].players[0])
