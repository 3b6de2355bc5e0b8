"""Replay files: save, load, byte-for-byte determinism, and errors that name the line."""

from __future__ import annotations

import json
import random

import pytest

from cardwidgets import Replay, ReplayError, Timeline, make
from cardwidgets.core.replay import Branch
from cardwidgets.games import depot
from scale import chain, lines_run


def played(n=30, **kw):
    rng = random.Random(4)
    st = make("depot", seed=9, **{"players": 4, **kw})
    for _ in range(n):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_round_trip_is_byte_for_byte(tmp_path):
    st = played(games=3)
    rep = Replay.from_state(st, notes={4: "look at this pass"})
    path = tmp_path / "g.json"
    rep.save(path)
    loaded = Replay.load(path)
    assert loaded.to_json() == path.read_text() == rep.to_json()
    assert loaded.build().to_dict() == st.to_dict()
    assert loaded.notes == {4: "look at this pass"}
    states = list(loaded.states())
    assert len(states) == len(st.history) + 1 and states[-1].to_dict() == st.to_dict()


def test_deck_scenario_replays():
    order = [v for v in range(1, 9) for _ in range(depot.DEFAULT_DECK[v])]
    random.Random(1).shuffle(order)
    st = make("depot", players=3, seed=2, deck=order)
    st.apply(st.legal_actions()[0])
    rep = Replay.from_json(Replay.from_state(st).to_json())
    assert rep.deck == order and rep.build().to_dict() == st.to_dict()


def test_fork_keeps_a_prefix():
    rep = Replay.from_state(played(), notes={2: "x", 20: "y"})
    f = rep.fork(5)
    assert len(f.actions) == 5 and f.notes == {2: "x"}
    assert f.build().history == rep.build(5).history


def _text_with(action_index: int, replacement: str) -> tuple[str, int]:
    rep = Replay.from_state(played())
    rep.actions[action_index] = replacement
    text = rep.to_json()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip().rstrip(",") == f'"{replacement}"')
    return text, line


def test_first_illegal_action_is_named_with_line_index_and_rule():
    text, line = _text_with(3, "play 1 8")
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    e = info.value
    assert e.index == 3 and e.line == line and e.rule and e.rule.startswith(("D4", "D5"))
    assert str(e).startswith(f"line {line}: action #3 'play 1 8'")


def test_malformed_action_is_named():
    text, line = _text_with(6, "jump 3")
    with pytest.raises(ReplayError, match=rf"^line {line}: action #6 'jump 3' is malformed") as info:
        Replay.from_json(text)
    assert info.value.index == 6 and info.value.rule is None


def test_json_syntax_error_names_the_line():
    text = Replay.from_state(played()).to_json().replace('"seed": 9,', '"seed": 9,,')
    with pytest.raises(ReplayError, match=r"^line 1: not valid JSON"):
        Replay.from_json(text)
    lines = Replay.from_state(played()).to_json().splitlines()
    lines[4] = lines[4] + " oops"
    with pytest.raises(ReplayError, match=r"^line 5: not valid JSON"):
        Replay.from_json("\n".join(lines))


@pytest.mark.parametrize("edit, words", [
    (('"format": "cardwidgets-replay"', '"format": "other"'), '"format" must be'),
    (('"version": 2', '"version": 4'), "unsupported"),
    (('"deck": null', '"deck": null, "chance": [[0]]'), '"chance" needs replay version 3'),
    (('"game": "depot"', '"game": "chess"'), 'unknown "game"'),
    (('"seed": 9', '"seed": "nine"'), '"seed" must be an integer'),
    (('"players": 4', '"players": 9'), "cannot set up the game"),
    (('"players": 4', '"players": 4, "colour": 1'), "unknown option"),
])
def test_bad_header_fields(edit, words):
    text = Replay.from_state(played(3)).to_json().replace(*edit)
    with pytest.raises(ReplayError, match=words) as info:
        Replay.from_json(text)
    assert info.value.line == 1


def test_not_an_object():
    with pytest.raises(ReplayError, match="JSON object"):
        Replay.from_json("[1, 2]")


# --------------------------------------------------------------------------- whatever the engine does
def _short_replay(game: str = "depot", n: int = 4, **kw) -> tuple[Replay, str]:
    st = make(game, seed=9, **{"players": 4, **kw})
    rng = random.Random(2)
    for _ in range(n):
        st.apply(rng.choice(st.legal_actions()))
    rep = Replay.from_state(st)
    return rep, rep.to_json()


def _line_of(text: str, needle: str, nth: int = 0) -> int:
    return [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln][nth]


@pytest.mark.parametrize("hook, error", [("_apply", RuntimeError), ("_diagnose", KeyError),
                                         ("_apply", RecursionError), ("_diagnose", AttributeError)])
def test_an_engine_failing_on_an_action_is_a_replay_error_naming_its_line(monkeypatch, hook, error):
    """An engine bug (or a hand-built position it cannot handle) used to escape as the engine's
    own exception: loading a file raises only ReplayError."""
    rep, text = _short_replay()
    cls = type(make("depot", players=4, seed=1))
    real = getattr(cls, hook)
    calls = {"n": 0}

    def failing(self, *args):
        calls["n"] += 1
        if self.move_count == 2:
            raise error("engine bug")
        return real(self, *args)

    monkeypatch.setattr(cls, hook, failing)
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    e = info.value
    assert type(e) is ReplayError and e.index == 2 and e.line == _line_of(text, f'"{rep.actions[2]}"')
    assert error.__name__ in str(e) and "engine" in str(e)
    assert calls["n"]


def test_an_engine_failing_to_set_up_is_a_replay_error(monkeypatch):
    _, text = _short_replay()
    from cardwidgets.games import depot as mod

    monkeypatch.setattr(mod, "new_game", lambda **kw: 1 / 0)
    with pytest.raises(ReplayError, match="ZeroDivisionError") as info:
        Replay.from_json(text)
    assert info.value.line == 1


def test_a_hand_built_position_that_breaks_the_engine_is_a_replay_error():
    """A saved state the engine accepted (seat True where a seat belongs) made the first action
    raise a bare ValueError from the narration, not a ReplayError."""
    st = make("cirno_neu", players=3, seed=0)
    data = st.to_dict()
    del data["history"]
    data["state"]["shot_target"] = True
    rep = Replay("cirno_neu", {"players": 3}, 0, [str(st.legal_actions()[0])], position=data)
    text = rep.to_json()
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    assert type(info.value) is ReplayError and info.value.line is not None


def test_a_line_longer_than_the_game_can_be_is_refused_at_its_first_action_past_the_bound():
    """No line of play runs past the game's declared bound (SPEC.max_actions): a file cannot
    make the loader play on without end, whatever the engine would do. The actions before
    the bound are played first, so an earlier problem on the line is the one reported."""
    st = make("depot", players=3, seed=1, max_turns=5)
    assert st.SPEC.max_actions(st.players, st.options) == 5
    tl = Timeline(st.clone())
    for _ in range(5):
        tl.step(tl.state.legal_actions()[0])
    rep = tl.to_replay()
    rep.actions = rep.actions + ["no such action"] * 3  # past the bound: never played
    text = rep.to_json()
    with pytest.raises(ReplayError, match=r"holds 8 actions, but a depot game with these options ends within 5") \
            as info:
        Replay.from_json(text)
    assert info.value.index == 5 and info.value.rule == "G4"
    assert info.value.line == _line_of(text, '"no such action"', 0)
    with pytest.raises(ReplayError, match="ends within 5"):
        rep.build()
    with pytest.raises(ReplayError, match="ends within 5"):
        list(rep.states())
    # An illegal action before the bound is the first problem: it is reported, not the length.
    rep.actions[2] = "no such action"
    text = rep.to_json()
    with pytest.raises(ReplayError, match="malformed") as info:
        Replay.from_json(text)
    assert info.value.index == 2 and info.value.line == _line_of(text, '"no such action"', 0)
    with pytest.raises(ReplayError, match="malformed"):
        rep.build()


def test_a_branch_longer_than_the_game_can_be_is_refused():
    tl = Timeline(make("depot", players=3, seed=1, max_turns=4))
    for _ in range(3):
        tl.step(tl.state.legal_actions()[0])
    rep = tl.to_replay()
    st = rep.build(1)
    moves = []
    for _ in range(3):
        moves.append(str(st.legal_actions()[-1]))
        st.apply(moves[-1])
    rep.branches.append(Branch("long", "main", 1, moves + ["x"]))
    with pytest.raises(ReplayError, match="ends within 4") as info:
        Replay.from_json(rep.to_json())
    assert info.value.branch == "long" and info.value.index == 3 and info.value.line is not None
    rep.branches[-1].actions[1] = "x"  # an earlier problem on the branch comes first
    with pytest.raises(ReplayError, match="malformed") as info:
        Replay.from_json(rep.to_json())
    assert info.value.branch == "long" and info.value.index == 1


# --------------------------------------------------------------------------- the header and the position agree
def _position_replay(**kw) -> Replay:
    st = make("depot", seed=5, **{"players": 4, "games": 3, **kw})
    data = st.to_dict()
    del data["history"]
    return Replay("depot", {"players": 4, "games": 3}, 5, [str(st.legal_actions()[0])], position=data)


@pytest.mark.parametrize("options, words", [
    ({"players": 3, "games": 3}, "players=3 but the position has players=4"),
    ({"players": 4}, "games=1 but the position has games=3"),
    ({"players": 4, "games": 3, "max_turns": 50}, "max_turns=50 but the position has max_turns=None"),
    ({"games": 3}, "do not describe a game"),
])
def test_header_options_must_agree_with_the_position(options, words):
    """Options next to a position were not read at all: a file could say 3 players over a
    4-player position."""
    rep = _position_replay()
    assert Replay.from_json(rep.to_json()).build().players == 4  # as saved: fine
    rep.options = options
    text = rep.to_json()
    with pytest.raises(ReplayError, match=words) as info:
        Replay.from_json(text)
    assert info.value.line == 1


def test_header_seed_must_agree_with_a_saved_state():
    rep = _position_replay()
    rep.seed = 6
    with pytest.raises(ReplayError, match='"seed" is 6 but the position was saved with seed 5') as info:
        Replay.from_json(rep.to_json())
    assert info.value.line == 1


def test_mode_must_agree_with_the_position():
    st = make("yadokarick", players=2, mode="duo", seed=5)
    data = st.to_dict()
    del data["history"]
    rep = Replay("yadokarick", {"players": 2, "mode": "duo"}, 5, [], position=data)
    Replay.from_json(rep.to_json())
    rep.options = {"players": 2}
    with pytest.raises(ReplayError, match="players=2 is not allowed|mode="):
        Replay.from_json(rep.to_json())


def test_position_text_and_header_options_agree(monkeypatch):
    """The same check for a position written as text (the game reads the text; the header
    must say what it holds)."""
    read = []

    def from_position(text, seed):
        read.append((text, seed))
        return make("depot", players=4, seed=seed, games=3)

    monkeypatch.setattr(depot, "from_position", from_position, raising=False)
    rep = Replay("depot", {"players": 4, "games": 3}, 5, [], position="depot/1 players=4 games=3 ...")
    assert Replay.from_json(rep.to_json()).build().players == 4
    assert read[-1] == ("depot/1 players=4 games=3 ...", 5)  # the seed deals its unknown parts
    rep.options = {"players": 4}
    with pytest.raises(ReplayError, match="games=1 but the position has games=3") as info:
        Replay.from_json(rep.to_json())
    assert info.value.line == 1


def test_a_saved_state_of_another_rules_version_is_refused():
    rep = _position_replay()
    rep.position = {**rep.position, "version": 99}
    with pytest.raises(ReplayError, match="rules version 99"):
        Replay.from_json(rep.to_json())


@pytest.mark.parametrize("with_deck", [True, False])
def test_a_deck_inside_options_is_refused(with_deck):
    """``options.deck`` next to the replay's ``deck`` was silently ignored (and alone it dealt
    the game): the deck has one place, the replay's "deck"."""
    order = [v for v in range(1, 9) for _ in range(depot.DEFAULT_DECK[v])]
    rep = Replay("depot", {"players": 3, "deck": order[::-1]}, 2, [], deck=order if with_deck else None)
    with pytest.raises(ReplayError, match='the first deal\'s card order goes in the replay\'s "deck"') as info:
        Replay.from_json(rep.to_json())
    assert info.value.line == 1
    with pytest.raises(ReplayError, match="holds a deck"):
        Replay.from_json(rep.to_json(), validate=False)


@pytest.mark.parametrize("key", ["chance", "seed", "state", "position"])
def test_options_hold_only_players_mode_and_the_games_options(key):
    rep = Replay("depot", {"players": 3, key: 1}, 2, [])
    with pytest.raises(ReplayError, match=f"unknown option '{key}'") as info:
        Replay.from_json(rep.to_json())
    assert info.value.line == 1


# --------------------------------------------------------------------------- linear loading
def test_loading_a_chain_of_branches_is_linear_in_the_file():
    """Branches each the child of the last took x4 per doubling (each walked to the main line):
    8 times the file now costs at most about 8 times the work."""
    from cardwidgets.core import replay as replay_module, timeline as timeline_module

    work, size = [], []
    for n in (40, 320):
        text = chain(n).to_replay().to_json()
        tl, lines = lines_run(lambda: Timeline.from_replay(Replay.from_json(text)), replay_module,
                              timeline_module)
        assert len(tl.branches) == n + 1 and tl.to_replay().to_json() == text
        work.append(lines)
        size.append(len(text))
    assert size[1] / size[0] > 7
    assert work[1] / work[0] < 1.15 * size[1] / size[0], (work, size)


@pytest.mark.parametrize("game", ["depot", "cirno_neu", "crypto_trick", "yadokarick"])
def test_every_configuration_agrees_with_its_own_header(game):
    """The agreement check refuses no honest file: every mode, player count and option value,
    saved as a position next to the header ``Replay.from_state`` writes."""
    import kit
    from cardwidgets import game_spec
    from cardwidgets.games import game_module

    for cfg in kit.spec_configs(game_spec(game)):
        st = game_module(game).new_game(seed=3, **cfg)
        data = st.to_dict()
        del data["history"]
        rep = Replay.from_state(st)
        rep.deck, rep.position, rep.actions = None, data, [str(st.legal_actions()[0])]
        expected = st.clone()
        expected.apply(rep.actions[0])
        assert Replay.from_json(rep.to_json()).build().to_dict()["state"] == expected.to_dict()["state"]


# --------------------------------------------------------------------------- hostile files
def test_load_reads_no_more_than_the_limit_from_a_pipe(monkeypatch):
    """A pipe (or /dev/stdin, /dev/zero, a process substitution) says its size is 0: the size
    check was skipped and the whole stream read (`cardwidgets replay /dev/zero` ran out of
    memory). The writer here never closes its end: only a loader that stops at the limit
    returns (the timer ends the stream after 10 s, so an old loader fails, not hangs)."""
    import os
    import threading
    from pathlib import Path

    from cardwidgets.core import replay as replay_module

    if not Path("/dev/fd").is_dir():
        pytest.skip("no /dev/fd on this system")
    monkeypatch.setattr(replay_module, "MAX_BYTES", 1000)
    r, w = os.pipe()
    os.write(w, b"[" * 5000)
    closed = []
    timer = threading.Timer(10, lambda: closed.append(os.close(w)))
    timer.start()
    try:
        with pytest.raises(ReplayError, match=r"holds more than 1,000 bytes; at most 1,000 are read"):
            Replay.load(f"/dev/fd/{r}")
    finally:
        timer.cancel()
        timer.join()  # now it has closed the writer's end, or never will
        os.close(r)
        if not closed:
            os.close(w)


def test_a_long_string_is_scanned_for_nesting_in_constant_memory():
    """The nesting scan matched a string with ``"(?:[^"\\\\]|\\\\.)*"``: sre kept a frame per
    character, 7 GB and 20 s for a 60 MB note of "[". Now a bounded number, whatever the
    string holds (plain text, escaped quotes, escaped backslashes)."""
    import tracemalloc

    from cardwidgets.core.replay import MAX_DEPTH, _too_deep

    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    for body in ("[" * 2_000_000, '\\"' * 1_000_000, "\\\\" * 1_000_000):
        text = '{"notes": {"0": "' + body + '"},\n "x": ' + deep + "}"
        tracemalloc.start()
        try:
            line = _too_deep(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert line == 2, body[:4]  # the string's brackets do not count, the ones after it do
        assert peak < 1_000_000, (body[:4], peak)
    assert _too_deep('{"a": "' + "[" * 100 + '"}') is None
    assert _too_deep('{"a": "\\\\", "b": ' + deep + "}") == 1  # an escaped backslash ends no string early
    assert _too_deep('{"a": "\\' + "[" * 100) is None  # no closing quote: json.loads names the line


def test_the_actions_of_all_lines_together_are_bounded(monkeypatch):
    """600 branches each replaying a long game (968k actions in 16 MB) took 135 s and 2.2 GB:
    each action played keeps a position. The total over all lines is bounded, checked before
    anything is played, and the error names the action where the total passes the bound."""
    from cardwidgets.core import replay as replay_module

    rep, _ = _short_replay(n=8)
    rep.branches = [Branch(f"b{k}", "main", 0, list(rep.actions)) for k in range(3)]  # 4 x 8 actions
    text = rep.to_json()
    assert len(Timeline.from_replay(Replay.from_json(text)).branches) == 4
    monkeypatch.setattr(replay_module, "MAX_ACTIONS", 20)
    applied = []
    real = Replay._apply
    monkeypatch.setattr(Replay, "_apply", lambda self, *a, **kw: applied.append(1) or real(self, *a, **kw))
    with pytest.raises(ReplayError, match=r"branch 'b1' action #4: the file holds 32 actions over all its lines "
                                          r"of play; at most 20 are loaded") as info:
        Replay.from_json(text)
    e = info.value
    assert (e.branch, e.index) == ("b1", 4) and e.line == _line_of(text, f'"{rep.actions[4]}"', 2)
    assert len(applied) <= 20  # nothing past the bound was played
    with pytest.raises(ReplayError, match="at most 20 are loaded"):
        Replay.from_json(text, validate=False)


@pytest.mark.parametrize("parent", [["main"], {"main": 1}, [], None])
def test_a_branch_parent_that_is_not_text_is_refused_at_the_branch(parent):
    """A list or an object as "parent" raised TypeError (unhashable) from the loader."""
    rep, _ = _short_replay()
    rep.branches = [Branch("b", "main", 1, [rep.actions[1]])]
    text = rep.to_json().replace('"parent": "main"', f'"parent": {json.dumps(parent)}')
    with pytest.raises(ReplayError, match=r"branch #0: the parent .* is not the main line") as info:
        Replay.from_json(text)
    assert info.value.line == _line_of(text, '"name": "b"')
    rep.branches[0].parent = parent  # a Replay built in code: the same refusal when played
    with pytest.raises(ReplayError, match="the parent"):
        rep.play()


def _bad_first_action() -> tuple[Replay, str, int]:
    """A replay whose action #0 is illegal, with a branch and a note: text and that line."""
    rep, _ = _short_replay(n=4)
    rep.branches = [Branch("b", "main", 1, [rep.actions[1]], {1: "a note"})]
    rep.notes = {2: "a note"}
    rep.actions[0] = "play 1 8"
    text = rep.to_json()
    return rep, text, _line_of(text, '"play 1 8"')


@pytest.mark.parametrize("edit", [
    ('"notes": {"2": "a note"}', '"notes": {"99": "a note"}'),
    ('"notes": {"2": "a note"}', '"notes": []'),
    ('"parent": "main"', '"parent": "nowhere"'),
    ('"from": 1', '"from": -1'),
    ('"branches": [', '"colour": 1, "branches": ['),
    ('"notes": {"2": "a note"}', '"notes": {"2": "\\ud800"}'),
    ('"name": "b", ', '"name": "b", "name": "c", '),
])
def test_the_first_bad_line_is_named_whichever_check_finds_it(edit):
    """The keys of a file were all checked before any action was played: an illegal action #0
    (line 3) was reported as a bad note or branch on a later line. The part before a
    structural problem is played first; the earliest problem wins."""
    _, text, line = _bad_first_action()
    assert line == 3
    bad = text.replace(*edit, 1)
    assert bad != text
    with pytest.raises(ReplayError) as info:
        Replay.from_json(bad)
    assert (info.value.line, info.value.index) == (line, 0), str(info.value)
    assert str(info.value).startswith("line 3: action #0 'play 1 8'")
    with pytest.raises(ReplayError) as info:  # not played: the structural problem itself
        Replay.from_json(bad, validate=False)
    assert info.value.line > line


def test_a_structural_problem_before_the_bad_action_is_named_first():
    _, text, _ = _bad_first_action()
    for bad in (text.replace('"seed": 9', '"seed": 9, "colour": 1'), text.replace('"seed": 9', '"seed": "9"')):
        with pytest.raises(ReplayError) as info:
            Replay.from_json(bad)
        assert info.value.line == 1 and info.value.index is None, str(info.value)
    # two structural problems: the one of the earlier line, though another check runs first
    bad = text.replace('"notes": {"2": "a note"}', '"notes": {"99": "a note"}').replace('"branches": [',
                                                                                     '"colour": 1, "branches": [')
    with pytest.raises(ReplayError, match='"notes" entry 99'):
        Replay.from_json(bad.replace('"play 1 8"', f'"{_short_replay(n=4)[0].actions[0]}"'))


def test_a_key_given_twice_is_refused_at_the_second():
    """json.loads keeps the second "actions" while the lines recorded were those of the first:
    errors pointed into the array that was dropped. A key given twice is refused, at its line."""
    rep, text = _short_replay(n=4)
    twice = text.rstrip()[:-1] + ',\n "actions": ["play 1 8"]}'
    with pytest.raises(ReplayError, match=r"the key 'actions' is given twice") as info:
        Replay.from_json(twice)
    assert info.value.line == len(twice.splitlines())
    rep.branches = [Branch("b", "main", 1, [rep.actions[1]])]
    text = rep.to_json()
    for old, new in [('"from": 1', '"from": 1, "from": 0'), ('"players": 4', '"players": 4, "players": 3')]:
        with pytest.raises(ReplayError, match="given twice") as info:
            Replay.from_json(text.replace(old, new))
        assert info.value.line == _line_of(text, old)
    # an earlier action that cannot be played is still the first problem
    bad = rep.to_json().replace(f'"{rep.actions[0]}"', '"play 1 8"', 1).rstrip()[:-1] + ', "seed": 1}'
    with pytest.raises(ReplayError, match="action #0 'play 1 8'"):
        Replay.from_json(bad)


@pytest.mark.parametrize("where", ["note", "branch name", "branch note"])
def test_text_with_a_lone_surrogate_is_refused_at_its_line(where, tmp_path):
    """A note or a branch name holding "\\ud800" loaded, then saving and exporting it failed
    (UnicodeEncodeError): UTF-8 cannot write a lone surrogate. Refused at load, as player
    names are; a surrogate pair (an emoji written as two escapes) is fine."""
    rep, _ = _short_replay(n=4)
    rep.branches = [Branch("b", "main", 1, [rep.actions[1]], {1: "PAIR"})]
    rep.notes = {2: "PAIR"}
    text = rep.to_json()
    assert text.count('"PAIR"') == 2
    fine = Replay.from_json(text.replace('"PAIR"', '"\\ud83c\\udca1"'))
    fine.save(tmp_path / "fine.json")
    assert fine.notes == {2: "\U0001f0a1"}
    old, new, line = {
        "note": ('"notes": {"2": "PAIR"}', '"notes": {"2": "\\ud800"}', _line_of(text, '"notes": {"2"')),
        "branch name": ('"name": "b"', '"name": "b\\udc00"', _line_of(text, '"name": "b"')),
        "branch note": ('"notes": {"1": "PAIR"}', '"notes": {"1": "x\\uDBFF"}', _line_of(text, '"name": "b"')),
    }[where]
    with pytest.raises(ReplayError, match="lone surrogate") as info:
        Replay.from_json(text.replace(old, new))
    assert info.value.line == line


# --------------------------------------------------------------------------- a timeline of a game under way
@pytest.mark.parametrize("game, kw", [("depot", dict(players=3)), ("cirno_neu", dict(players=3)),
                                      ("crypto_trick", dict(players=3)), ("yadokarick", dict(players=4))])
def test_a_timeline_of_a_game_under_way_starts_at_the_games_start(game, kw):
    """``Timeline(state)`` of a state with moves used to take that state as position 0, while its
    replay wrote the earlier moves into the main line: notes and branch points then landed on
    other moves, and the file loaded as another game. The earlier moves are now the main line's."""
    st = make(game, seed=11, **kw)
    rng = random.Random(1)
    for _ in range(4):
        st.apply(rng.choice(st.legal_actions()))
    tl = Timeline(st)
    assert (tl.cursor, tl.length) == (4, 4) and tl.state.to_dict() == st.to_dict()
    assert tl.root.move_count == 0 and [str(a) for a in tl.history] == [str(a) for a in st.history]
    assert tl.events(4) and tl.narration()  # the earlier moves are narrated too
    tl.step(tl.state.legal_actions()[0])
    tl.note("my note")
    tl.step(tl.state.legal_actions()[0])
    tl.goto(5)
    tl.step(tl.state.legal_actions()[-1] if len(tl.state.legal_actions()) > 1 else tl.state.legal_actions()[0])
    rep = tl.to_replay()
    back = Timeline.from_replay(Replay.from_json(rep.to_json()))
    assert back.to_replay().to_json() == rep.to_json()
    assert back.notes("main") == tl.notes("main") == {4: "my note"}
    for line in tl.branches:
        for n in range(line.length + 1):
            assert back.position(n, line.name).to_dict() == tl.position(n, line.name).to_dict()


# --------------------------------------------------------------------------- recorded chance (version 3)
def _chance_game() -> tuple[list, list[str]]:
    """A cirno+neu match with its shuffles recorded, and its actions."""
    from cardwidgets.core import Recorder

    rec = Recorder(3)
    st = make("cirno_neu", players=3, seed=3, chance=rec)
    r = random.Random(4)
    while not st.is_terminal:
        st.apply(r.choice(st.legal_actions()))
    return rec.recorded().to_list(), [str(a) for a in st.history]


def test_recorded_chance_replays_whatever_the_seed():
    chance, actions = _chance_game()
    rep = Replay("cirno_neu", {"players": 3}, seed=12345, actions=actions, chance=chance)
    text = rep.to_json()
    assert '"version": 3' in text.splitlines()[0] and '"chance": [[' in text
    back = Replay.from_json(text)
    assert back.chance == chance and back.to_json() == text
    end = back.build()
    assert end.is_terminal and [str(a) for a in end.history] == actions
    # Without the record the seed deals another game, which these actions do not fit.
    with pytest.raises(ReplayError):
        Replay("cirno_neu", {"players": 3}, seed=12345, actions=actions).play()


def test_files_without_chance_keep_version_2():
    assert '"version": 2' in Replay.from_state(played(3)).to_json().splitlines()[0]


@pytest.mark.parametrize("chance, words", [
    ('"chance": 5', "decisions are a list"),
    ('"chance": [[0, "x"]]', "neither an int nor a list"),
    ('"chance": [[0, 0, 1]]', "not a permutation"),
])
def test_bad_chance(chance, words):
    chance_list, actions = _chance_game()
    text = Replay("cirno_neu", {"players": 3}, seed=1, actions=actions, chance=chance_list).to_json()
    head, rest = text.split("\n", 1)
    head = head[:head.index('"chance"')] + chance + ","  # the header's last key
    with pytest.raises(ReplayError, match=words) as info:
        Replay.from_json(head + "\n" + rest)
    assert info.value.line == 1
