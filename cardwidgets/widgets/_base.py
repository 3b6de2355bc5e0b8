"""The table widget base: engine state + timeline + bots, synced to the front end.

A table keeps the timeline of states (``states[i]`` is the position after ``i``
actions) and a cursor into it, so undo, scrubbing and forking are just moves of the
cursor. Traits are set from Python only, once per step a person sees, inside
``hold_sync()``; the front end sends one message form (``{"type": "act", ...}``)
plus small UI messages, and every message is validated here: a bad one sets
``last_error`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any, ClassVar, Mapping

import anywidget
import traitlets

from ..bots import Bot, make_bot
from ..core import ANY, IllegalActionError, InvalidActionError, State
from ..core.replay import Replay
from ..core.state import seat_name
from ..games import game_module

STATIC = pathlib.Path(__file__).resolve().parent.parent / "static"

#: Narration lines synced to the browser (the full log stays in ``table.log``).
LOG_TAIL = 200


def bundle(game: str, ext: str) -> pathlib.Path:
    """Path of a built front-end file; a clear error if the JS was never built."""
    path = STATIC / f"{game}.{ext}"
    if not path.exists():
        raise ImportError(
            f"the cardwidgets front end is not built ({path.name} is missing); "
            "install the package with `pip install -e .` (it runs the npm build) "
            "or run `npm install && npm run build` in js/"
        )
    return path


class TableWidget(anywidget.AnyWidget):
    """A live card table for one game. Subclasses set ``GAME`` and the bundle paths."""

    GAME: ClassVar[str] = ""

    game = traitlets.Unicode("").tag(sync=True)
    """Registry name of the game (``"depot"`` ...)."""
    view = traitlets.Dict().tag(sync=True)
    """``state.view(seat)`` of the position at ``cursor``: exactly what the viewer may see."""
    legal = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Action notation the viewer may send now (empty when it is not their turn)."""
    log = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The last narration lines up to ``cursor`` (see ``narration`` for all)."""
    cursor = traitlets.Int(0).tag(sync=True)
    """Index of the shown position in the timeline (0 = before any action)."""
    history_len = traitlets.Int(0).tag(sync=True)
    """Number of actions in the timeline."""
    last_error = traitlets.Unicode("").tag(sync=True)
    """Why the last request was refused (with rule ID), or ``""``."""
    seat = traitlets.Int(None, allow_none=True).tag(sync=True)
    """Whose view the table shows; ``None`` = teacher view (all hands, hot-seat)."""
    bot_seats = traitlets.List(traitlets.Int()).tag(sync=True)
    """Seats the computer plays."""
    thinking = traitlets.Bool(False).tag(sync=True)
    """True while a bot move is scheduled (the pause a person can follow)."""
    bot_delay = traitlets.Float(0.7)
    """Seconds between bot moves after a click (0: immediate). Not synced."""

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        *,
        seat: int | None = None,
        bots: Mapping[int, Any] | str | None = None,
        bot_delay: float = 0.7,
        state: State | None = None,
        **options: Any,
    ) -> None:
        if state is None:
            kwargs = dict(options)
            if players is not None:
                kwargs["players"] = players
            state = game_module(self.GAME).new_game(seed=seed, **kwargs)
        elif players is not None or seed is not None or options:
            raise TypeError("give either state= or the game arguments, not both")
        if state.game != self.GAME:
            raise ValueError(f"a {type(self).__name__} table needs a {self.GAME} state, got {state.game}")
        state._check_seat(seat)
        self._bots = self._make_bots(state, seat, bots)
        self._states: list[State] = [state]
        self._events: list[list[str]] = [[]]
        self._pending: asyncio.Handle | None = None
        super().__init__(game=self.GAME, seat=seat, bot_seats=sorted(self._bots), bot_delay=bot_delay)
        self.on_msg(self._on_msg)
        self._sync()
        self._run_bots(from_browser=False)

    def _make_bots(self, state: State, seat: int | None, bots: Any) -> dict[int, Bot]:
        if bots is None:
            return {}
        if isinstance(bots, str):  # one name for every seat except the viewer's
            bots = {s: bots for s in range(state.players) if s != seat}
        out = {}
        for s, spec in dict(bots).items():
            state._check_seat(s)
            if s is None or s == seat:
                raise ValueError(f"seat {s} cannot be both the viewer's seat and a bot")
            out[s] = make_bot(self.GAME, spec, seed=state.seed * 31 + s)
        return out

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The engine state at the cursor (a live object: use ``step`` to change it)."""
        return self._states[self.cursor]

    @property
    def history(self) -> tuple[Any, ...]:
        """Actions up to the cursor."""
        return self.state.history

    @property
    def narration(self) -> list[str]:
        """Every narration line up to the cursor."""
        return [line for step in self._events[: self.cursor + 1] for line in step]

    def legal_actions(self) -> list[Any]:
        """Legal actions (objects) of the player to act at the cursor."""
        return self.state.legal_actions()

    def explain(self, action: Any, seat: Any = None) -> str:
        """Whether ``action`` is legal now and, if not, the rule it breaks."""
        return self.state.explain(action, ANY if seat is None else seat)

    def replay(self, notes: Mapping[int, str] | None = None) -> Replay:
        """The game up to the cursor as a :class:`~cardwidgets.Replay`."""
        return Replay.from_state(self.state, dict(notes or {}))

    @classmethod
    def from_replay(cls, replay: Replay, **kwargs: Any) -> "TableWidget":
        """A table holding the whole replay (narrated), with the cursor at its end.

        Raises :class:`~cardwidgets.ReplayError` naming the first bad action.
        """
        table = cls(state=replay.new_state(), **{"bot_delay": 0, **kwargs, "bots": None})
        cur = table._states[0]
        for i, text in enumerate(replay.actions):
            cur = cur.clone()
            events = replay._apply(cur, i, text)
            table._states.append(cur)
            table._events.append([e.text for e in events])
        table._sync(cursor=len(table._states) - 1)
        return table

    # ------------------------------------------------------------------ stepping
    def step(self, action: Any) -> list[Any]:
        """Apply ``action`` (object or notation) for whoever is to act, then let bots move.

        Acting at an earlier cursor forks: the later actions are dropped. Raises the
        engine's errors (and changes nothing) when the action is refused.
        """
        events = self._push(action, seat=None)
        self._run_bots(from_browser=False)
        return events

    def _push(self, action: Any, seat: int | None, by_bot: bool = False) -> list[Any]:
        before = self.state
        st = before.clone()
        events = st.apply(action, ANY if seat is None else seat)
        if not by_bot:  # a person's move supersedes any scheduled bot move
            self._cancel_pending()
        del self._states[self.cursor + 1 :]
        del self._events[self.cursor + 1 :]
        done = st.history[before.move_count :]
        if len(done) == 1:
            self._states.append(st)
            self._events.append([e.text for e in events])
        else:
            # A shortcut that applied several actions (cirno+neu's two-card turn): one
            # timeline entry per action, so the timeline and `history` stay aligned.
            cur = before
            for a in done:
                cur = cur.clone()
                self._states.append(cur)
                self._events.append([e.text for e in cur.apply(a)])
        self._sync(cursor=len(self._states) - 1)
        return events

    def undo(self) -> None:
        """Step back one action (past bot moves, to the last time a person was to act)."""
        if self.cursor == 0:
            return
        c = self.cursor - 1
        while c > 0 and self._states[c].current_player in self._bots:
            c -= 1
        self._cancel_pending()
        self._sync(cursor=c)

    def goto(self, n: int) -> None:
        """Show the position after ``n`` actions (time travel; nothing is dropped)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"goto needs an int, got {n!r}")
        if not 0 <= n < len(self._states):
            raise IndexError(f"goto({n}): the timeline has positions 0..{len(self._states) - 1}")
        self._cancel_pending()
        self._sync(cursor=n)

    def play_bots(self) -> None:
        """Let the bots move now until a person is to act (or the game ends)."""
        self._run_bots(from_browser=False)

    # ------------------------------------------------------------------ bots
    def _bot_to_move(self) -> Bot | None:
        if self.cursor != len(self._states) - 1:
            return None  # never move while the user looks at the past
        return self._bots.get(self.state.current_player)

    def _run_bots(self, from_browser: bool) -> None:
        if from_browser and self.bot_delay > 0:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                if self._bot_to_move() is not None:
                    self.thinking = True
                    self._pending = loop.call_later(self.bot_delay, self._bot_tick, loop)
                return
        while (bot := self._bot_to_move()) is not None:
            self._bot_move(bot)

    def _bot_tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self._pending = None
        try:
            bot = self._bot_to_move()
            if bot is not None:
                self._bot_move(bot)
            if self._bot_to_move() is not None:
                self._pending = loop.call_later(self.bot_delay, self._bot_tick, loop)
                return
        except Exception as e:  # a callback must never raise into the event loop
            self.last_error = f"bot error: {e}"
        self.thinking = False

    def _bot_move(self, bot: Bot) -> None:
        st = self.state
        seat = st.current_player
        action = bot.act(st.view(seat), st.legal_actions())
        self._push(action, seat=seat, by_bot=True)

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.thinking = False

    # ------------------------------------------------------------------ browser messages
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        try:
            self._handle(content)
        except Exception as e:  # never let anything raise into the comm
            self.last_error = f"internal error: {type(e).__name__}: {e}"

    def _handle(self, msg: Any) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            self.last_error = f"bad message {msg!r}: expected an object with a 'type'"
            return
        kind = msg["type"]
        if kind == "act":
            action = msg.get("action")
            if not isinstance(action, str):
                self.last_error = f"bad 'act' message: 'action' must be action text, got {action!r}"
                return
            self._act_from_browser(action)
        elif kind == "goto":
            index = msg.get("index")
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self._states):
                self.last_error = f"bad 'goto' message: index must be 0..{len(self._states) - 1}, got {index!r}"
                return
            self.goto(index)
            self._run_bots(from_browser=True)
        elif kind == "undo":
            self.undo()
        elif kind == "clear_error":
            self.last_error = ""
        else:
            self.last_error = f"unknown message type {kind!r}"

    def _act_from_browser(self, text: str) -> None:
        st = self.state
        actor = st.current_player
        if actor is not None and actor in self._bots:
            self.last_error = f"Illegal: rule G3 — it is {seat_name(actor)}'s turn, played by the computer"
            return
        seat = self.seat if self.seat is not None else actor
        try:
            self._push(text, seat=seat)
        except (IllegalActionError, InvalidActionError) as e:
            self.last_error = str(e)
            return
        self._run_bots(from_browser=True)

    # ------------------------------------------------------------------ sync
    def _viewer_may_act(self, st: State) -> bool:
        actor = st.current_player
        if actor is None or actor in self._bots:
            return False
        return self.seat is None or self.seat == actor

    def _sync(self, cursor: int | None = None) -> None:
        if cursor is None:
            cursor = self.cursor
        st = self._states[cursor]
        lines = [line for step in self._events[: cursor + 1] for line in step]
        with self.hold_sync():
            self.cursor = cursor
            self.history_len = len(self._states) - 1
            self.view = st.view(self.seat)
            self.legal = [str(a) for a in st.legal_actions()] if self._viewer_may_act(st) else []
            self.log = lines[-LOG_TAIL:]
            self.last_error = ""

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: dict[str, Any]) -> int | None:
        seat = proposal["value"]
        if hasattr(self, "_states"):
            try:
                self.state._check_seat(seat)
            except ValueError as e:
                raise traitlets.TraitError(str(e)) from None
            if seat in self._bots:
                raise traitlets.TraitError(f"seat {seat} is played by a bot")
        return seat

    @traitlets.observe("seat")
    def _seat_changed(self, _change: dict[str, Any]) -> None:
        if hasattr(self, "_states"):
            self._sync()

    # ------------------------------------------------------------------ static fallback
    def __str__(self) -> str:
        return str(self.state)

    def _repr_html_(self) -> str:
        import html

        return (f'<pre class="cw-fallback" data-game="{self.GAME}">'
                f"{html.escape(str(self.state))}</pre>")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat} cursor={self.cursor}/{self.history_len}>"

