"""The conformance kit: the engine contract, checked the same way for every game.

``tests/test_conformance.py`` runs it over every registered game, mode, player
count and option value; a game's own tests may call it directly. Everything here
reads the game's ``SPEC`` and the engine contract only, never a game's internals.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
import subprocess
import sys
from typing import Any, Iterable

import pytest

from cardwidgets import IllegalActionError, InvalidActionError, Replay, rules
from cardwidgets.core import ANY, Termination
from cardwidgets.core.spec import GameSpec
from cardwidgets.games import game_module


# --------------------------------------------------------------------------- configurations
def spec_configs(spec: GameSpec) -> list[dict[str, Any]]:
    """New-game kwargs covering every mode, every player count, and every allowed value
    of every option (one at a time, at the mode's middle player count)."""
    out = []
    for mode in spec.modes:
        base = {"mode": mode.name} if len(spec.modes) > 1 else {}
        for n in mode.players:
            out.append({**base, "players": n})
        mid = mode.players[len(mode.players) // 2]
        for opt in spec.options_for(mode.name):
            for value in opt.allowed or ():
                if value != opt.default or type(value) is not type(opt.default):
                    out.append({**base, "players": mid, opt.name: value})
    return out


def label(cfg: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in cfg.items())


# --------------------------------------------------------------------------- candidates
def vocabulary(mod: Any, cfg: dict[str, Any], games: int = 6, seed: int = 0) -> list[str]:
    """Action texts seen legal somewhere in random games of this configuration: the
    candidates tried everywhere else (most are illegal there)."""
    seen: dict[str, None] = {}
    rng = random.Random(seed)
    for g in range(games):
        st = mod.new_game(seed=10_000 + g, **cfg)
        while not st.is_terminal:
            legal = st.legal_actions()
            for a in legal:
                seen.setdefault(str(a), None)
            st.apply_unchecked(legal[rng.randrange(len(legal))])
    return list(seen)


#: A negative number written with a hyphen where narration computes ("sum 0 → -1", "scores -9",
#: "= -73"); card names such as cirno+neu's "-10" are notation and keep their hyphen.
HYPHEN_MINUS = re.compile(r"(?:[=→]|\b(?:sum|scores?|stays|totals?)\b:?)\s+-\d")


def cited_rules(game: str, events: Iterable[Any]) -> None:
    """Every event cites a rule, every rule it cites resolves in the reference, and negative
    numbers carry the minus sign."""
    for e in events:
        assert e.text, f"an event without narration: {e}"
        assert not HYPHEN_MINUS.search(e.text), f"a hyphen for a minus sign: {e.text}"
        if e.kind == "preview_stop":
            continue
        assert e.rule, f"an event without a rule: {e.text}"
        rules.lookup(e.rule, game=game)
        for rid in rules.cited(e.text, game=game):
            rules.lookup(rid, game=game)


# --------------------------------------------------------------------------- one playout
def playout(game: str, cfg: dict[str, Any], seed: int, vocab: list[str], *, deep_steps: int = 150,
            every: int = 20, twins: bool = True) -> dict[str, int]:
    """A seeded random game checked at every step (all checks for the first
    ``deep_steps`` steps, then every ``every``-th step). Returns counts of what was checked."""
    mod = game_module(game)
    spec = mod.SPEC
    rng = random.Random(seed)
    st = mod.new_game(seed=seed, **cfg)
    bound = spec.max_actions(st.players, st.options)
    cards = st.all_cards() if hasattr(st, "all_cards") else None
    counts = {"steps": 0, "refusals": 0, "twins": 0, "previews": 0}
    cited_rules(game, st.setup_events)
    while not st.is_terminal:
        counts["steps"] += 1
        steps = counts["steps"]
        assert steps <= bound, f"the game ran past its declared bound of {bound} actions"
        legal = st.legal_actions()
        assert legal, "no legal action in a running game"
        assert st.current_player is not None and st.phase != "finished"
        texts = [str(a) for a in legal]
        assert len(set(texts)) == len(texts), "duplicate legal actions"
        deep = steps <= deep_steps or steps % every == 0
        for a, t in zip(legal, texts):
            assert mod.parse_action(t) == a, f"{t!r} does not parse back"
            if deep:
                assert st.is_legal(a) and st.is_legal(t), st.explain(t)
        before = st.to_dict()
        if deep:
            counts["refusals"] += refusals_change_nothing(st, rng.sample(vocab, min(40, len(vocab))), texts)
            views_are_safe(st)
            roundtrips(st)
            if twins:
                counts["twins"] += noninterference(st, rng, rng.sample(vocab, min(12, len(vocab))) + texts[:4])
        action = rng.choice(legal)
        twin = st.clone()
        fast = st.clone()
        if deep:
            preview = st.preview(action)
            counts["previews"] += 1
            assert preview, "a legal action previews to nothing"
            cited_rules(game, preview)
        events = st.apply(action)
        assert events, f"{action} produced no narration"
        cited_rules(game, events)
        fast.apply_unchecked(action)
        assert twin.to_dict() == before, "a clone changed when the original moved"
        if deep:
            assert fast.to_dict() == st.to_dict(), "the fast path and the narrated path disagree"
            if cards is not None:
                assert st.all_cards() == cards, "cards were created or lost"
            for seat in range(st.players):
                seen = [e for e in events if e.visible_to(seat)]
                assert all(e.audience is None or seat in e.audience for e in seen)
    assert st.legal_actions() == [] and st.current_player is None and st.phase == "finished"
    out = st.outcome()
    assert out is not None and len(out.scores) == st.players
    assert all(0 <= w < st.players for w in out.winners)
    assert isinstance(out.termination, Termination)
    assert out.termination is Termination.NORMAL, f"a random game was aborted: {out.reason}"
    with pytest.raises(IllegalActionError) as info:
        st.apply(texts[0])
    assert info.value.rule == "G1"
    rebuilt = Replay.from_json(Replay.from_state(st).to_json()).build()
    assert rebuilt.to_dict() == st.to_dict(), "the replay did not rebuild the game"
    return counts


def refusals_change_nothing(st: Any, candidates: list[str], legal_texts: list[str]) -> int:
    """Enumeration and diagnosis agree; every refusal names a rule and changes nothing."""
    before = st.to_dict()
    legal = set(legal_texts)
    n = 0
    for t in candidates:
        try:
            a = st.parse(t)
        except InvalidActionError:
            continue
        if str(a) in legal:
            continue
        with pytest.raises(IllegalActionError) as info:
            st.apply(a)
        err = info.value
        assert err.rule and str(err).startswith(f"Illegal: rule {err.rule} — "), str(err)
        rules.lookup(err.rule, game=st.game)
        ex = st.explain(t)
        assert not ex.legal and ex.rule == err.rule and str(ex) == str(err)
        n += 1
    for bad in ("", "   ", "x" * 300, "play", "\x00", "S9: " + (legal_texts[0] if legal_texts else "")):
        with pytest.raises((InvalidActionError, IllegalActionError)):
            st.apply(bad)
    assert st.to_dict() == before, "a refused action changed the state"
    return n


def views_are_safe(st: Any) -> None:
    """Views are JSON-safe dicts of the viewer's seat; the teacher view is a superset."""
    teacher = st.view(None)
    assert json.loads(json.dumps(teacher)) == teacher
    assert teacher["seat"] is None and teacher["players"] == st.players
    for seat in range(st.players):
        v = st.view(seat)
        assert json.loads(json.dumps(v)) == v
        assert v["seat"] == seat and v["phase"] == st.phase and v["current"] == st.current_player
        text = st.view_text(v)
        assert isinstance(text, str) and text
    with pytest.raises(ValueError):
        st.view(st.players)


def roundtrips(st: Any) -> None:
    d = st.to_dict()
    again = type(st).from_dict(d)
    assert again.to_dict() == d
    via_json = type(st).from_dict(json.loads(json.dumps(d)))
    assert via_json.to_dict() == d
    assert pickle.loads(pickle.dumps(st)).to_dict() == d


def noninterference(st: Any, rng: random.Random, candidates: list[str]) -> int:
    """In a twin position (the cards a seat cannot see dealt differently), that seat gets
    the same view, legal list, refusals, explanations and previews."""
    done = 0
    actor = st.current_player
    for seat in {actor, rng.randrange(st.players)}:
        for _ in range(2):
            twin = st._twin(seat, random.Random(rng.random()))
            assert twin.view(seat) == st.view(seat), "a twin must look the same to the seat"
            if seat == actor:
                assert [str(a) for a in twin.legal_actions()] == [str(a) for a in st.legal_actions()]
            for t in candidates:
                a, b = st.explain(t, seat), twin.explain(t, seat)
                assert str(a) == str(b), f"seat {seat} can tell the twins apart by explaining {t!r}"
                assert [str(e) for e in a.effects] == [str(e) for e in b.effects], \
                    f"seat {seat} can tell the twins apart by previewing {t!r}"
                if a.legal and seat == actor:
                    assert [str(e) for e in st.preview(t)] == [str(e) for e in twin.preview(t)]
            done += 1
    return done


def fast_path_matches(game: str, cfg: dict[str, Any], seeds: Iterable[int]) -> int:
    """Whole games on the fast path end where the narrated path ends, and within the bound."""
    mod = game_module(game)
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        fast = mod.new_game(seed=seed, **cfg)
        slow = fast.clone()
        bound = mod.SPEC.max_actions(fast.players, fast.options)
        while not fast.is_terminal:
            legal = fast.legal_actions()
            a = legal[rng.randrange(len(legal))]
            fast.apply_unchecked(a)
            slow.apply(a, ANY)
            actions += 1
            assert actions <= bound * 50
        assert fast.to_dict() == slow.to_dict()
    return actions


def lockstep(st: Any, rng: random.Random, steps: int = 10_000, views: bool = False) -> int:
    """Play random legal actions on the narrated path (``st``) and the fast path (``apply_unchecked``
    on a clone) side by side: the same legal actions before and the same state after every action
    (with ``views``, the same teacher view too), and the same outcome. Returns how many actions."""
    fast = st.clone()
    n = 0
    while not st.is_terminal and n < steps:
        legal = st.legal_actions()
        assert [str(a) for a in fast.legal_actions()] == [str(a) for a in legal]
        a = legal[rng.randrange(len(legal))]
        st.apply(a, ANY)
        fast.apply_unchecked(a)
        assert fast.to_dict() == st.to_dict() and fast.is_terminal == st.is_terminal, f"after {a} the paths disagree"
        if views:
            assert fast.view(None) == st.view(None), f"after {a} the views disagree"
        n += 1
    assert fast.outcome() == st.outcome()
    return n


def advance(st: Any, rng: random.Random, moves: int) -> Any:
    """Play up to ``moves`` random legal actions on ``st`` (the fast path), fewer if the game ends."""
    for _ in range(moves):
        if st.is_terminal:
            break
        st.apply_unchecked(rng.choice(st.legal_actions()))
    return st


def without_past(st: Any) -> Any:
    """A copy of ``st`` that forgets how it came about (as a world of ``sample_world`` may): a
    table on it starts there. Twin tests build both tables so, the real position's and its
    twin's: a table on a game under way would otherwise narrate the real game's past, which
    the twin has not got."""
    out = st.clone()
    out._history = None
    return out


def random_line(game: str, cfg: dict[str, Any], seed: int, length: int) -> Any:
    """A ``Timeline`` whose main line is ``length`` random legal moves (fewer if the game ends),
    the moves drawn with ``random.Random(seed)`` from a game dealt with ``seed``."""
    from cardwidgets import Timeline

    tl = Timeline(game_module(game).new_game(seed=seed, **cfg))
    rng = random.Random(seed)
    for _ in range(length):
        legal = tl.state.legal_actions()
        if not legal:
            break
        tl.step(rng.choice(legal))
    return tl


def all_pairs(values: list[Any]) -> list[tuple[Any, Any]]:
    return list(itertools.combinations(values, 2))


# --------------------------------------------------------------------------- bots
class Spy:
    """A bot that records what it is given (it must be a view dict and the legal list only),
    then asks ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, []

    def act(self, view: Any, legal: Any) -> Any:
        self.calls.append((view, list(legal)))
        return self.inner.act(view, legal)


# --------------------------------------------------------------------------- lessons
def lesson_at(lesson_id: str, index: int) -> Any:
    """A run of the lesson at step ``index``, each earlier step solved by its first accepted
    move (a step with only a named check: the first legal move the check accepts)."""
    from cardwidgets import lessons

    run = lessons.load(lesson_id).start()
    for i in range(index):
        step = run.lesson.steps[i]
        moves = list(step.accept) or [str(a) for a in run.state.legal_actions()]
        assert any(run.attempt(m).ok for m in moves), f"{lesson_id} step {i}: no move is accepted"
    return run


def lesson_after(lesson: Any, moves: list[str]) -> Any:
    """A run of ``lesson`` after ``moves``, every one of which it must accept."""
    run = lesson.start()
    for m in moves:
        fb = run.attempt(m)
        assert fb.ok, f"{lesson.id}: {m} refused after {moves}: {fb.text}"
    return run


def lesson_paths(lesson: Any) -> list[list[str]]:
    """Every complete way through ``lesson``: at each step, every legal move it accepts."""
    out: list[list[str]] = []

    def walk(moves: list[str]) -> None:
        run = lesson_after(lesson, moves)
        if run.done:
            out.append(moves)
            return
        for action in run.state.legal_actions():
            if lesson_after(lesson, moves).attempt(str(action)).ok:
                walk(moves + [str(action)])

    walk([])
    return out


def lesson_seen(run: Any, hide: Iterable[str] = ()) -> str:
    """Everything the student's seat has been shown so far, as one text: its view (without
    the keys in ``hide``, such as tables of the whole card set) and its narration."""
    view = {k: v for k, v in run.state.view(run.seat).items() if k not in set(hide)}
    return json.dumps(view) + "\n" + "\n".join(run.timeline.narration(run.seat))


# --------------------------------------------------------------------------- imports
def modules_loaded(code: str, modules: Iterable[str]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    probe = (f"{code}\nimport json as _json, sys as _sys\n"
             f"print(_json.dumps(sorted(m for m in {tuple(modules)!r} if m in _sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])
