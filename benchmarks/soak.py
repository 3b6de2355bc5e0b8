"""Soak: millions of random actions per game and mode, with the stateful tests' invariants.

    python benchmarks/soak.py [--actions N] [--games depot,cirno_neu] [--seed S]
                              [--every K] [--table-messages M]

For every game and mode, random games (random player counts and option values) are
played on a :class:`~cardwidgets.Timeline` with a mix of requests: mostly legal
moves, then actions seen legal elsewhere (mostly illegal here), malformed text and
objects, bad seats, undo/goto (so later moves start branches), until ``--actions``
requests were made. Cheap invariants are checked after every request (turn, length
within the game's declared bound, the cursor's depth, a refusal leaves the timeline
where it was); every ``--every`` requests and at the end of every game, all of them
(``tests/invariants.py``: cards conserved, views hide the other hands and look the
same in twin positions, round trips, clones, refusals change nothing byte for byte,
the timeline saved and loaded as a replay). Then ``--table-messages`` random browser
messages per mode go to real table objects, with a stand-in event loop for the bots,
checking the table invariants after each.

Prints what it ran (requests, games, seconds, invariant checks, failures) per game
and mode; exits with status 1 if any invariant failed. Asserts nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import invariants as inv  # noqa: E402
import kit  # noqa: E402
from cardwidgets import IllegalActionError, InvalidActionError, available_games, game_spec  # noqa: E402
from cardwidgets.core import ANY, Timeline  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402


class Tally:
    """What one game and mode ran."""

    def __init__(self) -> None:
        self.requests = self.games = self.cheap = self.deep = self.refused = self.twins = 0
        self.messages = self.failures = 0
        self.engine_s = self.table_s = 0.0
        self.first: list[str] = []

    def fail(self, where: str, e: BaseException) -> None:
        self.failures += 1
        if len(self.first) < 5:
            last = traceback.extract_tb(e.__traceback__)[-1]
            self.first.append(f"{where}: {type(e).__name__}: {str(e)[:200]} ({Path(last.filename).name}:"
                              f"{last.lineno})")


def random_config(game: str, mode: str, rng: random.Random) -> dict[str, Any]:
    """A random player count of the mode and, now and then, another allowed option value."""
    spec = game_spec(game)
    m = spec.mode(mode)
    cfg: dict[str, Any] = {"players": rng.choice(m.players)}
    if len(spec.modes) > 1:
        cfg["mode"] = mode
    for opt in spec.options_for(mode):
        if opt.allowed and rng.random() < 0.3:
            cfg[opt.name] = rng.choice(opt.allowed)
    return cfg


_VOCAB: dict[str, list[str]] = {}


def vocabulary(game: str, cfg: dict[str, Any]) -> list[str]:
    key = json.dumps([game, cfg.get("mode"), cfg["players"]])
    if key not in _VOCAB:
        base = {k: v for k, v in cfg.items() if k in ("players", "mode")}
        _VOCAB[key] = kit.vocabulary(game_module(game), base, games=3, seed=1)
    return _VOCAB[key]


def deep(tl: Timeline, cards: Any, limit: int, vocab: list[str], rng: random.Random, tally: Tally) -> None:
    """Every invariant of the stateful tests at this position."""
    st = tl.state
    inv.timeline(tl)
    inv.position(st, cards, limit)
    tally.twins += inv.views(st, rng, twins=2)
    inv.roundtrip(st)
    for text in rng.sample(vocab, min(6, len(vocab))) + rng.sample(inv.JUNK, 3):
        tally.refused += inv.refused_changes_nothing(st, text)
    tally.deep += 1


def play_games(game: str, mode: str, requests: int, every: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    mod = game_module(game)
    while tally.requests < requests:
        cfg = random_config(game, mode, rng)
        gseed = rng.getrandbits(32)
        where = f"{game} {kit.label(cfg)} seed={gseed}"
        try:
            root = mod.new_game(seed=gseed, **cfg)
        except ValueError:
            continue  # an option value that does not fit this player count
        tl = Timeline(root)
        cards = root.all_cards() if hasattr(root, "all_cards") else None
        limit = inv.bound(root)
        vocab = vocabulary(game, cfg)
        tally.games += 1
        try:
            while not tl.state.is_terminal and tally.requests < requests:
                tally.requests += 1
                request(tl, vocab, rng, limit)
                tally.cheap += 1
                if tally.requests % every == 0:
                    deep(tl, cards, limit, vocab, rng, tally)
            if tl.state.is_terminal:
                inv.position(tl.state, cards, limit)
                if tally.games % 5 == 1:  # the whole timeline, every line, through replay text
                    inv.replay_roundtrip(tl)
                    tally.deep += 1
        except Exception as e:  # noqa: BLE001 - counted and reported: the point of a soak
            tally.fail(f"{where} after {tl.state.move_count} actions", e)


def request(tl: Timeline, vocab: list[str], rng: random.Random, limit: int) -> None:
    """One random request to the timeline, and the checks cheap enough for every one."""
    st = tl.state
    r = rng.random()
    if r < 0.86:
        legal = st.legal_actions()
        assert legal, "a running game without a legal action"
        tl.step(legal[rng.randrange(len(legal))])
        assert tl.state.move_count == tl.cursor
    elif r < 0.97:
        if r < 0.93:
            action, seat = rng.choice(vocab), rng.choice([ANY, ANY, None, rng.randrange(st.players)])
        elif r < 0.95:
            action, seat = rng.choice(inv.JUNK), ANY
        else:
            legal = st.legal_actions()
            action, seat = str(legal[0]), rng.choice(inv.BAD_SEATS)
        where = (tl.cursor, tl.length, tl.line_count, tl.branch, id(st))
        try:
            tl.step(action, seat)
        except (IllegalActionError, InvalidActionError, ValueError):
            # positions are stored, never rebuilt: the same object means the same position
            assert (tl.cursor, tl.length, tl.line_count, tl.branch, id(tl.state)) == where, \
                "a refusal moved the timeline"
    elif r < 0.985:
        tl.undo()
    elif r < 0.997:  # a few moves back: the next move there may start a branch
        tl.goto(max(0, tl.length - rng.randint(1, 5)))
    else:
        tl.goto(rng.randrange(tl.length + 1))
    inv.cheap(tl.state, limit)


def table_messages(game: str, mode: str, count: int, seed: int, tally: Tally) -> None:
    """Random browser messages to real tables (bots on a stand-in loop), table invariants after each."""
    from cardwidgets import widgets

    rng = random.Random(seed)
    loop = inv.FakeLoop()
    real = asyncio.get_running_loop
    asyncio.get_running_loop = lambda: loop  # type: ignore[assignment]  # each table gets a fresh one
    try:
        cls = getattr(widgets, game_spec(game).table)
        t = None
        while tally.messages < count:
            if t is None or t.state.is_terminal:
                cfg = random_config(game, mode, rng)
                loop = inv.FakeLoop()
                seat = rng.choice([0, None])
                bots = {s: rng.choice(["random", "greedy"]) for s in range(cfg["players"]) if s not in (0, seat)}
                try:
                    t = cls(seed=rng.getrandbits(32), seat=seat, bots=bots or None,
                            bot_delay=rng.choice([0.0, 0.5]), **cfg)
                except ValueError:
                    t = None
                    continue
                vocab = vocabulary(game, cfg)
            msg = random_message(t, vocab, rng)
            tally.messages += 1
            try:
                before = inv.table_key(t, loop)
                if msg == "tick":
                    if loop.live():
                        loop.run_next()
                else:
                    inv.send(t, msg)
                    if t.last_error and not (isinstance(msg, dict) and msg.get("type") == "clear_error"):
                        assert inv.table_key(t, loop) == before, f"the refused message {msg!r:.80} changed the table"
                inv.table(t, loop)
                tally.cheap += 1
            except Exception as e:  # noqa: BLE001
                tally.fail(f"{game} table message {msg!r:.60}", e)
                t = None
    finally:
        asyncio.get_running_loop = real  # type: ignore[assignment]


def random_message(t: Any, vocab: list[str], rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.45:
        return {"type": "act", "action": rng.choice(t.legal) if t.legal else rng.choice(vocab)}
    if r < 0.55:
        return {"type": "act", "action": rng.choice(vocab + [str(j) for j in inv.JUNK])}
    if r < 0.75:
        return "tick"
    if r < 0.83:
        return {"type": "goto", "index": rng.choice([0, t.history_len, max(0, t.history_len - 2), -1, "1"])}
    if r < 0.87:
        return {"type": "switch", "branch": rng.choice([b["name"] for b in t.branches] + ["nope"])}
    if r < 0.92:
        return {"type": "undo"}
    if r < 0.97:
        return {"type": "continue"}
    return rng.choice([{"type": "clear_error"}, {"type": "nope"}, {"type": "act"}, None, []])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1_000_000, help="requests per game and mode")
    ap.add_argument("--games", default=",".join(available_games()))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--every", type=int, default=250, help="all invariants every K requests")
    ap.add_argument("--table-messages", type=int, default=5_000, help="browser messages per game and mode")
    args = ap.parse_args()
    print(f"soak: {args.actions:,} requests per game and mode, all invariants every {args.every}, "
          f"{args.table_messages:,} table messages, seed {args.seed}")
    head = (f"{'game':<13} {'mode':<9} {'requests':>10} {'games':>7} {'seconds':>8} {'req/s':>7} "
            f"{'cheap checks':>12} {'deep checks':>11} {'twins':>7} {'refusals':>8} {'messages':>8} "
            f"{'table s':>8} {'failures':>8}")
    print(head)
    failures = 0
    start = time.perf_counter()
    for game in args.games.split(","):
        for mode in game_spec(game).modes:
            tally = Tally()
            t0 = time.perf_counter()
            play_games(game, mode.name, args.actions, args.every, args.seed, tally)
            t1 = time.perf_counter()
            table_messages(game, mode.name, args.table_messages, args.seed, tally)
            tally.engine_s, tally.table_s = t1 - t0, time.perf_counter() - t1
            failures += tally.failures
            print(f"{game:<13} {mode.name:<9} {tally.requests:>10,} {tally.games:>7,} {tally.engine_s:>8.1f} "
                  f"{tally.requests / max(tally.engine_s, 1e-9):>7,.0f} {tally.cheap:>12,} {tally.deep:>11,} "
                  f"{tally.twins:>7,} {tally.refused:>8,} {tally.messages:>8,} {tally.table_s:>8.1f} "
                  f"{tally.failures:>8,}", flush=True)
            for line in tally.first:
                print(f"    FAILED {line}")
    print(f"total: {time.perf_counter() - start:.1f} s, {failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
