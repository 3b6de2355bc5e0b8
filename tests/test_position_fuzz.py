"""Position fuzzing: a corrupted saved state is refused, or it is a sound game.

For every game and mode, real mid-game ``to_dict()`` snapshots have each field
changed (types, nulls, ranges, lists cut, grown or swapped, cards moved between
places, turn and phase) and are loaded with ``from_dict`` and as a replay's
``position``. Each one is refused with ``ValueError`` (``ReplayError`` from a
file), or it loads into a state that plays to its end within the game's declared
``max_actions`` with every action narrated: never a hang (a watchdog turns one
into a failure), never another exception.
"""

from __future__ import annotations

import copy
import json
import random
import signal
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from cardwidgets import Replay, ReplayError, available_games, game_spec
from cardwidgets.games import game_module

#: Seconds one mutated position may take to load and play out.
WATCHDOG = 10


class Hang(Exception):
    pass


@contextmanager
def watchdog(seconds: int, what: str) -> Iterator[None]:
    def ring(*_: Any) -> None:
        raise Hang(f"{what} did not finish within {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _configs(game: str) -> list[dict[str, Any]]:
    spec = game_spec(game)
    out = []
    for mode in spec.modes:
        base = {"mode": mode.name} if len(spec.modes) > 1 else {}
        counts = sorted({mode.players[0], mode.players[-1]})
        out += [{**base, "players": n} for n in counts]
    return out


def _snapshots(game: str, cfg: dict[str, Any], seed: int, count: int = 3) -> list[dict[str, Any]]:
    """``to_dict()`` at the start and at ``count - 1`` random points of a random game."""
    mod = game_module(game)
    rng = random.Random(seed)
    st = mod.new_game(seed=seed, **cfg)
    states = [st.clone()]
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply_unchecked(legal[rng.randrange(len(legal))])
        states.append(st.clone())
    picks = sorted(rng.sample(range(1, len(states)), min(count - 1, len(states) - 1)))
    return [states[0].to_dict()] + [states[i].to_dict() for i in picks]


JUNK = [None, True, False, -1, 0, 1, 2, 7, 10**9, -10**9, 1.5, "x", "", [], {}, [None], [[]], ["x"], {"x": 1}]


def _mutations(value: Any, rng: random.Random, players: int, phases: list[str]) -> list[Any]:
    """Values to put in place of ``value``: junk of every type, and near misses of its own type."""
    out = list(JUNK)
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, value - 1, -value, value * 3 + 1, *range(players + 2)]
    elif isinstance(value, str):
        out += phases + [value.upper(), value + "x"]
    elif isinstance(value, list) and value:
        out += [value[:-1], value + value[-1:], value[::-1], [value[0]] * len(value),
                [None] + value[1:], value[1:] + ["x"]]
        if all(isinstance(x, list) for x in value):  # lists of cards per seat: move cards around
            flat = [c for x in value for c in x]
            if flat:
                moved = copy.deepcopy(value)
                src = rng.randrange(len(moved))
                if moved[src]:
                    moved[(src + 1) % len(moved)].append(moved[src].pop())
                    out.append(moved)
                shuffled = list(flat)
                rng.shuffle(shuffled)
                k, again = 0, []
                for x in value:
                    again.append(shuffled[k:k + len(x)])
                    k += len(x)
                out.append(again)
                swapped = copy.deepcopy(value)
                i, j = rng.randrange(len(swapped)), rng.randrange(len(swapped))
                if swapped[i] and swapped[j]:
                    swapped[i][0], swapped[j][-1] = swapped[j][-1], swapped[i][0]
                    out.append(swapped)
        for _ in range(3):
            i = rng.randrange(len(value))
            item = value[i]
            for m in rng.sample(JUNK, 4) + ([item + 1, -item] if type(item) is int else []):
                changed = list(value)
                changed[i] = m
                out.append(changed)
    elif isinstance(value, dict) and value:
        k = rng.choice(sorted(value, key=str))
        out += [{kk: v for kk, v in value.items() if kk != k}, {**value, k: None}, {**value, "zz": 1}]
    return out


def _paths(d: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every field of the game's ``state`` part, and the base fields that shape it."""
    out = [("state", k) for k in d["state"]]
    out += [(k,) for k in ("players", "mode", "seed", "rng", "options", "deck", "position", "history", "chance")]
    out += [("options", k) for k in d.get("options") or {}]
    return out


def _get(d: dict[str, Any], path: tuple[str, ...]) -> Any:
    for k in path:
        d = d[k]
    return d


def _set(d: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(d)
    cur = out
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return out


def _play_out(st: Any, rng: random.Random) -> int:
    """Random legal actions, narrated, to the end within the declared bound."""
    bound = st.SPEC.max_actions(st.players, st.options)
    for seat in [None, *range(st.players)]:
        json.dumps(st.view(seat))
    k = 0
    while not st.is_terminal:
        legal = st.legal_actions()
        assert legal, f"a loaded game is not over but has no legal action: {st!r}"
        events = st.apply(legal[rng.randrange(len(legal))])
        assert events, "an action was not narrated"
        k += 1
        assert k <= bound, f"a loaded game ran past its declared bound of {bound} actions"
    assert st.outcome() is not None
    return k


@pytest.mark.parametrize("game", available_games())
def test_corrupted_positions_are_refused_or_sound(game, report):
    mod = game_module(game)
    phases = [p.name for p in game_spec(game).phases]
    rng = random.Random(2026)
    counts = {"mutations": 0, "refused": 0, "played": 0}
    for cfg in _configs(game):
        for snap in _snapshots(game, cfg, seed=rng.randrange(10**6)):
            for path in _paths(snap):
                try:
                    value = _get(snap, path)
                except (KeyError, TypeError):
                    continue
                for mutated in _mutations(value, rng, snap["players"], phases):
                    if mutated == value and type(mutated) is type(value):
                        continue
                    data = _set(snap, path, mutated)
                    counts["mutations"] += 1
                    where = f"{game} {cfg} {'.'.join(path)}={mutated!r:.60}"
                    with watchdog(WATCHDOG, where):
                        try:
                            st = mod.from_dict(data)
                        except ValueError:
                            counts["refused"] += 1
                            continue
                        except Exception as e:  # noqa: BLE001 - the point of the test
                            pytest.fail(f"{where}: from_dict raised {type(e).__name__}: {e}")
                        try:
                            _play_out(st, random.Random(counts["mutations"]))
                        except AssertionError as e:
                            pytest.fail(f"{where}: {e}")
                        except Exception as e:  # noqa: BLE001
                            pytest.fail(f"{where}: the loaded game raised {type(e).__name__}: {e}")
                    counts["played"] += 1
    report("position fuzz", game, **counts)


@pytest.mark.parametrize("game", available_games())
def test_corrupted_positions_in_a_replay_file(game):
    """The same corruption inside a replay file is a ``ReplayError`` naming the line, or loads."""
    rng = random.Random(7)
    cfg = _configs(game)[0]
    snap = _snapshots(game, cfg, seed=5, count=2)[1]
    for path in rng.sample(_paths(snap), min(12, len(_paths(snap)))):
        value = _get(snap, path)
        for mutated in rng.sample(_mutations(value, rng, snap["players"], []), 6):
            data = _set(snap, path, mutated)
            data["history"] = []
            rep = {"format": "cardwidgets-replay", "version": 2, "game": game,
                   "engine_version": game_spec(game).version, "options": {"players": snap["players"]},
                   "seed": 1, "deck": None, "position": data, "actions": [], "notes": {}, "branches": []}
            if "mode" in cfg:
                rep["options"]["mode"] = cfg["mode"]
            text = json.dumps(rep, indent=1)
            with watchdog(WATCHDOG, f"{game} replay {'.'.join(path)}"):
                try:
                    Replay.from_json(text)
                except ReplayError as e:
                    assert e.line is not None, str(e)
