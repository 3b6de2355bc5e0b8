"""Random programs against every game and mode, with the invariants checked after each step.

Two Hypothesis state machines run per configuration:

* ``TimelineMachine``: a headless :class:`~cardwidgets.Timeline` driven by legal,
  illegal and malformed actions, wrong and junk seats, undo, goto, switch, notes,
  clones, ``to_dict``/``from_dict``, and saving/loading the whole timeline as a replay
  (it then goes on with the loaded copy);
* ``TableMachine``: a real table object without a browser, driven by the messages a
  front end sends (act, goto, switch, undo, continue, clear_error), junk messages and
  forged trait updates, Python calls, and the ticks of a stand-in event loop (so
  scheduled bot moves run when the program says).

After every step: cards are conserved, a refusal changed nothing (byte for byte),
no seat's view holds another seat's hand and a twin position looks the same to it,
the game is within its declared length, and a table's traits, ``thinking``, hold and
scheduled bot move agree (``tests/invariants.py``). Runs are derandomized; set
``CW_STATEFUL_EXAMPLES`` to run more examples.
"""

from __future__ import annotations

import json
import os
import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, \
    run_state_machine_as_test

import invariants as inv
import kit
from cardwidgets import IllegalActionError, InvalidActionError, game_spec, widgets
from cardwidgets.core import ANY
from cardwidgets.core.timeline import Timeline
from cardwidgets.games import game_module

SCALE = int(os.environ.get("CW_STATEFUL_EXAMPLES", "1"))

#: Every mode, its smallest and largest player counts, and the options that change most.
CONFIGS = [
    ("depot", {"players": 3}), ("depot", {"players": 5}), ("depot", {"players": 4, "games": 3}),
    ("cirno_neu", {"players": 2}), ("cirno_neu", {"players": 8}),
    ("cirno_neu", {"players": 4, "life_system": True, "double_draw_timing": "after_each"}),
    ("crypto_trick", {"players": 2}), ("crypto_trick", {"players": 5}),
    ("crypto_trick", {"players": 4, "exchange_visibility": "public", "won_pile_visibility": "block_count_only"}),
    ("yadokarick", {"players": 3}), ("yadokarick", {"players": 7}),
    ("yadokarick", {"players": 5, "card_set": "advanced", "collapsed_visibility": "count_only"}),
    ("yadokarick", {"mode": "duo", "players": 2}), ("yadokarick", {"mode": "solo", "players": 1}),
]
#: One configuration per mode for the tables (a table step costs a trait sync).
TABLE_CONFIGS = [CONFIGS[i] for i in (0, 5, 7, 9, 12, 13)]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    return f"{case[0]}:{kit.label(case[1])}"


@lru_cache(maxsize=None)
def _vocabulary(game: str, cfg: str) -> tuple[str, ...]:
    return tuple(kit.vocabulary(game_module(game), json.loads(cfg), games=3, seed=1))


def vocabulary(game: str, cfg: dict[str, Any]) -> tuple[str, ...]:
    return _vocabulary(game, json.dumps(cfg, sort_keys=True))


def run(machine: type, game: str, cfg: dict[str, Any], examples: int, steps: int) -> dict[str, int]:
    """Run the machine on one configuration; returns how many programs and steps ran."""
    counts = {"programs": 0, "steps": 0}
    bound = type(f"{machine.__name__}_{game}", (machine,), {"GAME": game, "CFG": cfg, "COUNTS": counts})
    run_state_machine_as_test(bound, settings=settings(
        max_examples=examples * SCALE, stateful_step_count=steps, derandomize=True, deadline=None,
        database=None, suppress_health_check=list(HealthCheck)))
    return counts


# --------------------------------------------------------------------------- the timeline
class TimelineMachine(RuleBasedStateMachine):
    GAME: str = ""
    CFG: dict[str, Any] = {}
    COUNTS: dict[str, int] = {}

    @initialize(seed=st.integers(0, 2**32))
    def start(self, seed: int) -> None:
        st0 = game_module(self.GAME).new_game(seed=seed, **self.CFG)
        self.tl = Timeline(st0)
        self.cards = st0.all_cards() if hasattr(st0, "all_cards") else None
        self.limit = inv.bound(st0)
        self.rng = random.Random(seed)
        self.vocab = vocabulary(self.GAME, self.CFG)
        self.COUNTS["programs"] += 1

    # ------------------------------------------------------------------ acting
    def _refused(self, action: Any, seat: Any = ANY, bad_seat: bool = False) -> None:
        """Step ``action`` on the timeline; if it is refused, nothing may have changed."""
        before = inv.timeline_key(self.tl)
        try:
            self.tl.step(action, seat)
        except (IllegalActionError, InvalidActionError) as e:
            assert not bad_seat, f"a bad seat {seat!r} was refused as an action ({e})"
            assert inv.timeline_key(self.tl) == before, f"refusing {action!r} changed the timeline"
        except ValueError as e:
            assert bad_seat, f"{action!r} by {seat!r}: ValueError {e}"
            assert inv.timeline_key(self.tl) == before, f"refusing seat {seat!r} changed the timeline"
        else:
            assert not bad_seat, f"seat {seat!r} was taken for a seat"

    @rule(i=st.integers(0, 10**6))
    def legal(self, i: int) -> None:
        state = self.tl.state
        legal = state.legal_actions()
        if not legal:
            self._refused(self.rng.choice(self.vocab))
            return
        events = self.tl.step(legal[i % len(legal)])
        assert events and self.tl.state.move_count == self.tl.cursor

    @rule(k=st.integers(1, 60))
    def play_on(self, k: int) -> None:
        """Random legal moves (towards the end of the game)."""
        for _ in range(k):
            legal = self.tl.state.legal_actions()
            if not legal:
                break
            self.tl.step(self.rng.choice(legal))
            inv.cheap(self.tl.state, self.limit)

    @rule()
    def finish(self) -> None:
        """Random legal moves to the end: every game ends within its declared bound."""
        state = self.tl.state
        left = self.limit - state.move_count
        for _ in range(left):
            legal = self.tl.state.legal_actions()
            if not legal:
                break
            self.tl.step(self.rng.choice(legal))
        assert self.tl.state.is_terminal, f"the game did not end within {self.limit} actions"

    @rule(i=st.integers(0, 10**6), seat=st.sampled_from(["any", "actor", "other", "none"]))
    def candidate(self, i: int, seat: str) -> None:
        """An action seen legal somewhere in this game (most are illegal here), by some seat."""
        text = self.vocab[i % len(self.vocab)]
        state = self.tl.state
        who = {"any": ANY, "none": None, "actor": state.current_player,
               "other": self.rng.randrange(state.players)}[seat]
        if who is None and seat == "actor":
            who = ANY
        inv.refused_changes_nothing(state, text, who)
        self._refused(text, who)

    @rule(junk=st.sampled_from(inv.JUNK) | st.text(max_size=40) | st.binary(max_size=8) | st.integers())
    def malformed(self, junk: Any) -> None:
        before = inv.timeline_key(self.tl)
        try:
            self.tl.step(junk)
        except (IllegalActionError, InvalidActionError):
            assert inv.timeline_key(self.tl) == before
        # junk text can be a real action ("pass" ...): then it was simply played

    @rule(seat=st.sampled_from(inv.BAD_SEATS))
    def bad_seat(self, seat: Any) -> None:
        state = self.tl.state
        text = str(state.legal_actions()[0]) if not state.is_terminal else self.vocab[0]
        out_of_range = not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state.players
        self._refused(text, seat, bad_seat=not out_of_range)

    # ------------------------------------------------------------------ moving
    @rule()
    def undo(self) -> None:
        n = self.tl.cursor
        self.tl.undo()
        assert self.tl.cursor == max(0, n - 1)

    @rule(n=st.integers(-2, 10**4))
    def goto(self, n: int) -> None:
        if 0 <= n <= self.tl.length:
            self.tl.goto(n)
            assert self.tl.cursor == n
        else:
            before = inv.timeline_key(self.tl)
            with pytest.raises(IndexError):
                self.tl.goto(n)
            assert inv.timeline_key(self.tl) == before

    @rule(i=st.integers(0, 10**6))
    def switch(self, i: int) -> None:
        names = [b.name for b in self.tl.branches]
        self.tl.switch(names[i % len(names)])
        assert self.tl.cursor == self.tl.length

    @rule(text=st.text(max_size=30))
    def note(self, text: str) -> None:
        if self.tl.cursor == 0:
            with pytest.raises(ValueError):
                self.tl.note(text)
            return
        self.tl.note(text)
        assert self.tl.notes().get(self.tl.cursor - 1) == (text or None)

    # ------------------------------------------------------------------ copies
    @rule()
    def copies(self) -> None:
        inv.roundtrip(self.tl.state)

    @rule()
    def save_and_load(self) -> None:
        """The whole timeline through replay text; the program goes on with the loaded copy."""
        self.tl = inv.replay_roundtrip(self.tl)

    # ------------------------------------------------------------------ invariants
    @invariant()
    def sound(self) -> None:
        if not hasattr(self, "tl"):
            return
        self.COUNTS["steps"] += 1
        inv.timeline(self.tl)
        inv.position(self.tl.state, self.cards, self.limit)

    @invariant()
    def hidden(self) -> None:
        if hasattr(self, "tl"):
            inv.views(self.tl.state, self.rng)


@pytest.mark.parametrize("game, cfg", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_timeline_programs(game, cfg, report):
    report("stateful timelines", game, **run(TimelineMachine, game, cfg, examples=10, steps=40))


# --------------------------------------------------------------------------- the table
class TableMachine(RuleBasedStateMachine):
    GAME: str = ""
    CFG: dict[str, Any] = {}
    COUNTS: dict[str, int] = {}

    @initialize(seed=st.integers(0, 2**32), viewer=st.sampled_from(["seat", "teacher", "hotseat"]),
                delay=st.sampled_from([0.0, 0.5]))
    def start(self, seed: int, viewer: str, delay: float) -> None:
        import asyncio

        self.loop = inv.FakeLoop()
        self._real = asyncio.get_running_loop
        asyncio.get_running_loop = lambda: self.loop  # restored in teardown
        spec = game_spec(self.GAME)
        players = self.CFG["players"]
        seat = None if viewer != "seat" else 0
        bots = None if viewer == "hotseat" else {s: ("greedy" if s % 2 else "random")
                                                 for s in range(players) if s != seat}
        if viewer == "teacher" and players > 1:
            bots.pop(0)  # the teacher plays seat A's moves
        self.t = getattr(widgets, spec.table)(seed=seed, seat=seat, bots=bots or None, bot_delay=delay,
                                              **self.CFG)
        self.cards = self.t.state.all_cards() if hasattr(self.t.state, "all_cards") else None
        self.limit = inv.bound(self.t.state)
        self.rng = random.Random(seed)
        self.vocab = vocabulary(self.GAME, self.CFG)
        self.COUNTS["programs"] += 1

    def teardown(self) -> None:
        import asyncio

        if hasattr(self, "_real"):
            asyncio.get_running_loop = self._real

    def _message(self, msg: Any, refused: bool | None = None) -> None:
        """Send ``msg``; when the table refuses it (``last_error``), nothing else changed."""
        before = inv.table_key(self.t, self.loop)
        inv.send(self.t, msg)
        if refused is not None:
            assert bool(self.t.last_error) == refused, (msg, self.t.last_error)
        if self.t.last_error:
            assert inv.table_key(self.t, self.loop) == before, f"the refused message {msg!r:.80} changed the table"

    # ------------------------------------------------------------------ the browser
    @rule(i=st.integers(0, 10**6))
    def act(self, i: int) -> None:
        legal = self.t.legal
        if legal:
            self._message({"type": "act", "action": legal[i % len(legal)]}, refused=False)
        else:
            self._message({"type": "act", "action": self.vocab[i % len(self.vocab)]}, refused=True)

    @rule(k=st.integers(1, 80))
    def play_on(self, k: int) -> None:
        """A person playing on (their moves, the bots' scheduled moves) up to a hold."""
        for _ in range(k):
            if self.t.hold is not None:
                break  # what happens at a hold is up to the other rules
            if self.loop.live():
                self.loop.run_next()
            elif self.t.legal:
                self._message({"type": "act", "action": self.rng.choice(self.t.legal)}, refused=False)
            else:
                break
            inv.table(self.t, self.loop)

    @rule()
    def act_the_next_move(self) -> None:
        """In the past, the move already played next (followed, not a new line)."""
        tl = self.t.timeline
        if tl.cursor < tl.length and not self.t.state.is_terminal:
            nxt = str(tl.position(tl.cursor + 1).last_move)
            if nxt in self.t.legal:
                lines = tl.line_count
                self._message({"type": "act", "action": nxt}, refused=False)
                assert tl.line_count == lines

    @rule(i=st.integers(0, 10**6))
    def act_candidate(self, i: int) -> None:
        self._message({"type": "act", "action": self.vocab[i % len(self.vocab)]})

    @rule(junk=st.sampled_from(inv.JUNK))
    def act_junk(self, junk: Any) -> None:
        self._message({"type": "act", "action": junk})

    @rule(index=st.integers(-1, 400) | st.sampled_from([None, "1", 1.0, True, 10**30]))
    def goto(self, index: Any) -> None:
        ok = not isinstance(index, bool) and isinstance(index, int) and 0 <= index <= self.t.history_len
        self._message({"type": "goto", "index": index}, refused=not ok)
        if ok:
            assert self.t.hold is None

    @rule(k=st.integers(1, 4))
    def step_back(self, k: int) -> None:
        """The scrubber a few moves back from the end of the line."""
        self._message({"type": "goto", "index": max(0, self.t.history_len - k)}, refused=False)

    @rule(i=st.integers(0, 10**6), junk=st.booleans())
    def switch(self, i: int, junk: bool) -> None:
        names = [b.name for b in self.t.timeline.branches]
        name = "no-such-line" if junk else names[i % len(names)]
        self._message({"type": "switch", "branch": name}, refused=junk)
        if not junk:
            assert self.t.hold is None

    @rule()
    def undo(self) -> None:
        self._message({"type": "undo"}, refused=False)
        assert self.t.hold is None

    @rule()
    def go_on(self) -> None:
        held = self.t.hold is not None
        self._message({"type": "continue"}, refused=not held)

    @rule()
    def clear_error(self) -> None:
        inv.send(self.t, {"type": "clear_error"})
        assert self.t.last_error == ""

    @rule(msg=st.sampled_from([None, "act", 5, [], {"type": None}, {"type": 3}, {"act": "play 1"},
                               {"type": "act", "action": ["play 1"]}, {"type": "\x00" * 3000},
                               {"type": "act", "action": "play 1", "extra": "x" * 10_000},
                               {"type": "preview?"}, {"type": "goto"}, {"type": "switch"}]))
    def junk_message(self, msg: Any) -> None:
        self._message(msg, refused=True)

    @rule(key=st.sampled_from(["seat", "cursor", "view", "legal", "branch", "hold", "thinking", "narration",
                               "history_len", "bot_seats", "last_error"]),
          value=st.sampled_from([None, -1, 0, 1, 7, "x", [], {}, True, {"seat": None}]))
    def forged_update(self, key: str, value: Any) -> None:
        before = inv.table_key(self.t, self.loop)
        inv.forge(self.t, {key: value})
        assert self.t.last_error.startswith("Refused: the browser cannot change")
        assert inv.table_key(self.t, self.loop) == before, f"a forged update of {key!r} changed the table"

    # ------------------------------------------------------------------ time and Python
    @rule()
    def tick(self) -> None:
        """The delay of the scheduled bot move is over."""
        live = self.loop.live()
        if live:
            before = self.t.history_len
            live[0].run()
            assert self.t.history_len <= before + 1, "more than one bot move in one delay"

    @rule(i=st.integers(0, 10**6))
    def python_step(self, i: int) -> None:
        legal = self.t.legal_actions()
        if legal:
            self.t.step(legal[i % len(legal)])

    @rule(n=st.integers(0, 400))
    def python_goto(self, n: int) -> None:
        if n <= self.t.history_len:
            self.t.goto(n)

    @rule()
    def python_undo(self) -> None:
        self.t.undo()

    @rule(i=st.integers(0, 10**6))
    def python_switch(self, i: int) -> None:
        names = [b.name for b in self.t.timeline.branches]
        self.t.switch(names[i % len(names)])

    @rule()
    def save_and_load(self) -> None:
        """The table's game through replay text loads into the same lines."""
        inv.replay_roundtrip(self.t.timeline)

    # ------------------------------------------------------------------ invariants
    @invariant()
    def sound(self) -> None:
        if not hasattr(self, "t"):
            return
        self.COUNTS["steps"] += 1
        inv.table(self.t, self.loop)
        inv.timeline(self.t.timeline)
        inv.position(self.t.state, self.cards, self.limit)
        if self.t.seat is not None:
            for other, hand in enumerate(self.t.view.get("hands") or ()):
                assert other == self.t.seat or hand is None, "a player's table shows another hand"


@pytest.mark.parametrize("game, cfg", TABLE_CONFIGS, ids=[_id(c) for c in TABLE_CONFIGS])
def test_table_programs(game, cfg, report):
    report("stateful tables", game, **run(TableMachine, game, cfg, examples=8, steps=40))
