"""The table model: a :class:`~cardwidgets.Timeline` and bots, with the values a page draws.

A table wraps one timeline (``table.timeline``) and keeps no timeline logic of its own.
The browser can only send messages (``{"type": "act", ...}`` and a few small UI messages);
every message is validated here, and a bad one sets ``last_error`` and changes nothing.
The browser never writes a synced value: a write is refused, so a player's view cannot
switch itself to the teacher view or move the cursor behind the table's back.

Playing together: ``hotseat=True`` shares one screen (the table shows the seat to act,
with a curtain between two people's turns), and ``table.view_for(seat)`` makes another
table on the same game for one player (see :mod:`cardwidgets.table.together`).

The model imports neither ipywidgets, anywidget nor IPython; its values are traitlets
(pure Python, no dependencies: it runs in Pyodide). A *transport* carries it to a page:
the Jupyter widget (``cardwidgets.widgets``, the anywidget comm) is one, a static page's
Web Worker another. A transport needs only this:

* **Model.** ``game_model(game)(players=..., seed=..., seat=..., bots=..., ...)``, the
  same arguments as ``cardwidgets.Depot(...)`` (or ``lesson_model(id)``).
* **Browser messages in.** ``model.handle_message(msg)`` with the decoded JSON object.
  It never raises; a refused message sets ``last_error``.
* **Synced values out.** ``model.synced_names()`` lists them (the traits tagged
  ``sync=True``: ``game``, ``view``, ``legal``, ``cursor``, ``history_len`` ... and
  ``lesson`` on a lesson table); ``model.synced_state()`` is ``{name: value}``, plain JSON,
  for the first paint. ``model.on_sync(callback)`` calls ``callback({name: value})`` with
  the values that changed: once per step or message, however many values changed.
* **Batching.** Everything one step changes is set inside ``with model.batch():``, and the
  listeners hear of it once, when the outermost batch ends (the widget's ``batch()`` is
  ipywidgets' ``hold_sync()``). A change outside a batch is handed over at once.
* **Custom messages out.** None: everything a page draws is a synced value (a message sent
  before a page shows the table would be lost; a value is there at first paint).
* **Refused writes.** A page that tries to set a value: ``model.refuse_write({name: value})``
  sets ``last_error`` and returns the synced names it tried; the transport sends their
  current values back, so the page's copy is the model's again.
* **Timers.** The bots' pacing (``bot_delay``), a lesson's scripted replies and a replay
  playing are scheduled with ``loop.call_later`` on ``model.event_loop``, or when that is
  ``None`` on the asyncio loop running while a message is handled (a kernel's). Pyodide's
  web loop provides ``call_later``: a worker sets ``model.event_loop =
  asyncio.get_event_loop()``. With no loop, bots move at once, as they do from Python.
* **Closing.** ``model.close()`` when the page goes: the other tables on the game (views)
  stop syncing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import math
import pathlib
from typing import Any, Callable, ClassVar, Collection, Iterator, Mapping

import traitlets

from ..bots import Bot, ask, make_bot
from ..core import ANY, IllegalActionError, InvalidActionError, SamplingLimitError, State, Timeline
from ..core.errors import has_lone_surrogate, quote
from ..core.replay import Replay
from ..core.timeline import LineLimitError
from ..games import game_module, game_spec
from ..rules import as_json
from .together import LOG_TAIL, Group, narration_at, public_view

#: Narration lines synced while the viewer reads the whole narration (a ``narration`` message);
#: ``table.timeline.narration(seat)`` has every line.
LOG_ALL = 5_000
#: Longest browser message read (its JSON text); longer ones are refused unread.
MAX_MESSAGE = 2_000
#: Longest error text synced back.
MAX_ERROR = 400
#: Most lines of play a front end may grow a game to (goto, then another move): each line
#: costs memory and a button in the browser's list. Once the game has this many lines
#: (however made), a browser's move that would start another is refused (``last_error``);
#: following a line or playing at its end still works. Python code (``table.step``,
#: ``table.timeline``, replays) is not limited: its author sees what it costs.
MAX_LINES = 100
#: The slowest bot pace the page may ask for, in seconds (a ``speed`` message is clamped to it).
MAX_BOT_DELAY = 3.0
#: The paces a replay plays at, in positions per second (``play_replay`` and ``play`` messages).
MIN_REPLAY_SPEED, MAX_REPLAY_SPEED = 0.2, 20.0
DEFAULT_REPLAY_SPEED = 2.0
#: What the page may still ask a hot-seat table while its curtain is down: nothing that acts or
#: shows a seat's cards (a new message type is refused there until it is known to be safe).
UNDER_CURTAIN = frozenset({"iam", "goto", "undo", "switch", "continue", "clear_error", "speed", "skip", "narration"})


def _clip(text: str, limit: int = MAX_ERROR) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TableModel(traitlets.HasTraits):
    """The logic of a card table for one game (see the module docs). ``game_model(game)`` makes
    one class per registered game; the Jupyter tables (``cardwidgets.Depot`` ...) are these
    models on the anywidget comm."""

    GAME: ClassVar[str] = ""

    game = traitlets.Unicode("").tag(sync=True)
    """Registry name of the game (``"depot"`` ...)."""
    view = traitlets.Dict().tag(sync=True)
    """``state.view(seat)`` of the position at ``cursor``: exactly what the viewer may see."""
    legal = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Action notation the viewer may send now (empty when it is not their turn)."""
    refusals = traitlets.Dict().tag(sync=True)
    """For the viewer's cards that are not playable now: action -> why (rule and reason)."""
    narration = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The newest narration lines up to ``cursor`` that the viewer may see, oldest first: the last
    ``LOG_TAIL`` (80), or the last ``LOG_ALL`` (5,000) after a ``{"type": "narration", "all": true}``
    message (the page's "Show all"), until ``"all": false``."""
    narration_more = traitlets.Bool(False).tag(sync=True)
    """Whether the viewer may see earlier lines than those in ``narration``."""
    cursor = traitlets.Int(0).tag(sync=True)
    """The shown position: the number of actions along the current line (0 = the start)."""
    history_len = traitlets.Int(0).tag(sync=True)
    """Number of actions of the current line."""
    branch = traitlets.Unicode("main").tag(sync=True)
    """Name of the current line of play."""
    branches = traitlets.List(traitlets.Dict()).tag(sync=True)
    """Every line: ``{"name", "parent", "from", "length"}``, the main line first. Synced when it
    changes while the game has at most ``MAX_LINES`` lines; past that (only Python code makes
    so many) only when a line is added or the current line changes, so that a message costs
    the same with thousands of lines, and the current line's ``length`` may lag (``history_len``
    is it)."""
    last_error = traitlets.Unicode("").tag(sync=True)
    """Why the last request was refused (with rule ID), or ``""``."""
    seat = traitlets.Int(None, allow_none=True).tag(sync=True)
    """Whose view the table shows; ``None`` = teacher view (all hands). On a hot-seat table, the seat
    that said "I am ..." for this turn (``None`` while the curtain is down). Set from Python only."""
    bot_seats = traitlets.List(traitlets.Int()).tag(sync=True)
    """Seats the computer plays."""
    thinking = traitlets.Bool(False).tag(sync=True)
    """True exactly while a bot move is scheduled (the pause a person can follow)."""
    hold = traitlets.Dict(default_value=None, allow_none=True).tag(sync=True)
    """A game's or round's end the bots wait on until the viewer goes on (``{"kind", "text"}``),
    at the end of the current line; moving the cursor or changing lines ends it."""
    rules = traitlets.Dict().tag(sync=True)
    """The game's rules reference, ``{rule ID: {"title", "text"}}``, for the rule chips."""
    bot_delay = traitlets.Float(0.7).tag(sync=True)
    """Seconds between bot moves after a click (0: at once). The page's speed control asks for another
    pace with a ``{"type": "speed", "delay": seconds}`` message, clamped to 0..``MAX_BOT_DELAY``."""
    animations = traitlets.Bool(True).tag(sync=True)
    """Whether cards move with short transitions (the page also skips them when the system asks for
    reduced motion). Set from Python: ``Depot(..., animations=False)`` or ``table.animations = False``."""
    preview = traitlets.Dict(default_value=None, allow_none=True).tag(sync=True)
    """What the move the viewer points at would do, as the viewer may see it: ``{"action", "lines"}``,
    the answer to a ``{"type": "preview", "action": ...}`` message (``state.explain(action, seat)``'s
    effects, up to the first step that depends on hidden cards, which ends the lines with what happens
    next). ``lines`` is empty for a move the viewer may not make now. ``None`` after every change."""
    playing = traitlets.Float(0.0).tag(sync=True)
    """Positions per second while the table plays the current line forward (``play_replay``, or the
    scrubber's play button); 0 when it does not."""
    hotseat = traitlets.Bool(False).tag(sync=True)
    """People share this screen (``hotseat=True``): the table shows the view of the seat to act, and a
    curtain hides every hand between two people's turns. Looking back, with several people, it shows
    only the hand of the person whose turn it is now; elsewhere in the past, what every seat sees."""
    curtain = traitlets.Dict(default_value=None, allow_none=True).tag(sync=True)
    """While a hot-seat table waits for the next person, ``{"seat", "name"}`` of the seat to act (the
    page offers "I am <name>"), else ``None``. While it is set the other traits carry only what every
    seat sees: the view of nobody, the public narration, no legal moves."""

    def __init__(
        self,
        players: int | None = None,
        seed: int | None = None,
        *,
        seat: int | None = None,
        bots: Mapping[int, Any] | str | None = None,
        bot_delay: float = 0.7,
        animations: bool = True,
        hotseat: bool = False,
        state: State | None = None,
        timeline: Timeline | None = None,
        _group: Group | None = None,
        **options: Any,
    ) -> None:
        if timeline is None:
            if state is None:
                kwargs = dict(options)
                if players is not None:
                    kwargs["players"] = players
                state = game_module(self.GAME).new_game(seed=seed, **kwargs)
            elif players is not None or seed is not None or options:
                raise TypeError("give either state= or the game arguments, not both")
            timeline = Timeline(state)
        elif state is not None or players is not None or seed is not None or options:
            raise TypeError("give either timeline= or the game arguments, not both")
        root = timeline.state
        if root.game != self.GAME:
            raise ValueError(f"a {type(self).__name__} table needs a {self.GAME} game, got {root.game}")
        root.check_seat(seat)
        if hotseat and seat is not None:
            raise ValueError("a hot-seat table shows the seat to act: give no seat")
        if hotseat and isinstance(bots, str):
            raise ValueError("on a hot-seat table give the bots seat by seat, such as bots={2: 'greedy'}: "
                             "the other seats are the people at the screen")
        self.timeline = timeline
        self._depth = 0  # batches open (see batch)
        self._changes: dict[str, Any] = {}  # synced values changed in the open batch
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._closed = False
        self._syncing = False  # a hot-seat table sets its own seat while it syncs
        self._look: int | None = None  # a view looking back: the position it shows (None: the game's now)
        self._look_line = ""
        self._now_line = timeline.branch  # hot seat: the line of the last move, whose end is "now"
        self._log_all = False  # the page reads the whole narration: sync LOG_ALL lines, not LOG_TAIL
        if _group is None:
            self._bots = self._make_bots(root, seat, bots)
            self._group = Group(self._bots)
            self._own_cursor = False  # this table moves the game's cursor itself
        else:  # a view of another table (view_for): its game, its bots, its scheduled move
            if bots is not None:
                raise TypeError("a view shares the bots of the table it views")
            self._group = _group
            self._bots = _group.bots
            if seat in self._bots:
                raise ValueError(f"seat {seat} is played by a bot")
            self._own_cursor = True
        # A line re-dealt for one seat is shown to nobody else (G5): not to a new view, nor at a
        # hot-seat table, whatever line the timeline was left on.
        people = _people_at(root.players, self._bots, hotseat, seat)
        for table in self._group.others(self):
            people |= table._own_people()
        timeline.check_shown(people)
        self._group.add(self)
        self._play: asyncio.Handle | None = None  # the next step of a replay playing, if any
        self._branches_key: tuple | None = None  # what the synced list of lines reflects
        self._pauses = set(game_spec(self.GAME).pauses)
        first = next(self._group.others(self), None)  # a view starts at the game's pace and hold
        super().__init__(game=self.GAME, seat=seat, bot_seats=sorted(self._bots),
                         bot_delay=bot_delay if first is None else first.bot_delay,
                         animations=animations, rules=as_json(self.GAME), hotseat=hotseat,
                         hold=None if first is None else first.hold,
                         thinking=False if first is None else first.thinking)
        self._sync()
        if _group is None:
            self._run_bots(from_browser=False)

    # The bot move scheduled and the stall after a bot's failure belong to the game, not to one
    # table: every view of it shares them (so a bot moves once, whatever the number of views).
    @property
    def _pending(self) -> asyncio.Handle | None:
        return self._group.pending

    @_pending.setter
    def _pending(self, handle: asyncio.Handle | None) -> None:
        self._group.pending = handle

    @property
    def _stalled(self) -> bool:
        return self._group.stalled

    @_stalled.setter
    def _stalled(self, value: bool) -> None:
        self._group.stalled = value

    def _make_bots(self, state: State, seat: int | None, bots: Any) -> dict[int, Bot]:
        if bots is None:
            return {}
        if isinstance(bots, str):  # one name for every seat except the viewer's
            bots = {s: bots for s in range(state.players) if s != seat}
        out = {}
        for s, spec in dict(bots).items():
            state.check_seat(s, spectator=False)
            if s == seat:
                raise ValueError(f"seat {s} cannot be both the viewer's seat and a bot")
            out[s] = make_bot(self.GAME, spec, seed=state.seed * 31 + s)
        return out

    # ------------------------------------------------------------------ transport
    #: The event loop that paces the bots and replays (``None``: the loop running when a message
    #: arrives, if any; without one, bots move at once). A transport whose loop is not "running"
    #: while it hands a message over sets it, e.g. ``model.event_loop = asyncio.get_event_loop()``.
    event_loop: asyncio.AbstractEventLoop | None = None

    def _loop(self) -> asyncio.AbstractEventLoop | None:
        """The loop to schedule a bot's move or a replay's next position on, else ``None``."""
        if self.event_loop is not None:
            return self.event_loop
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    @classmethod
    def synced_names(cls) -> list[str]:
        """The names of the synced traits (``tag(sync=True)``), sorted: what the page reads."""
        return sorted(n for n, t in cls.class_traits().items() if t.metadata.get("sync"))

    def synced_state(self) -> dict[str, Any]:
        """Every synced value, ``{name: value}``: plain JSON (the page's first paint)."""
        return {n: getattr(self, n) for n in self.synced_names()}

    def on_sync(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback({name: value})`` with the synced values that changed, once per
        :meth:`batch` (a step, a message), or once per change made outside a batch."""
        if not self._listeners:
            self.observe(self._changed, names=self.synced_names())
        self._listeners.append(callback)

    def _changed(self, change: dict[str, Any]) -> None:
        self._changes[change["name"]] = change["new"]
        if self._depth == 0:
            self._flush()

    def _flush(self) -> None:
        if self._changes:
            changes, self._changes = self._changes, {}
            for callback in list(self._listeners):
                callback(changes)

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Hold the changes made inside back, and hand them to the page as one message at the end
        (nested batches: at the end of the outermost). The widget's is ``hold_sync()``."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._flush()

    def close(self) -> None:
        """The page is gone: the table no longer follows the game (other tables on it go on)."""
        self._closed = True
        parent = super()
        if hasattr(parent, "close"):  # a transport's own close (a widget closes its comm)
            parent.close()  # type: ignore[attr-defined]

    def _live(self) -> bool:
        """Whether a page may still show this table (a closed one is left out of the game's tables)."""
        return not self._closed

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The engine state at the cursor (do not mutate it: use ``step``)."""
        return self.timeline.state

    @property
    def history(self) -> tuple[Any, ...]:
        """Actions up to the cursor."""
        return self.timeline.history

    def legal_actions(self) -> list[Any]:
        """Legal actions (objects) of the player to act at the cursor."""
        return self.state.legal_actions()

    def explain(self, action: Any, seat: Any = ANY):
        """Whether ``action`` is legal now and, if not, the rule it breaks (an ``Explanation``).

        A player's table explains for its own seat (a hot-seat table: the seat shown).
        """
        if seat is ANY and self.seat is not None:
            seat = self.seat
        return self.state.explain(action, seat)

    def replay(self) -> Replay:
        """The whole game (every line and note) as a :class:`~cardwidgets.Replay`."""
        return self.timeline.to_replay()

    def to_html(self, path: str | pathlib.Path, seat: Any = ANY) -> pathlib.Path:
        """Write the game (every line and note) as one self-contained page that plays without
        Python, each position as ``seat`` sees it (by default this table's seat; ``None``: the
        teacher view); see ``Timeline.to_html``. A hot-seat table has no one viewer: name the seat."""
        if seat is ANY:
            if self.hotseat:
                raise ValueError("a hot-seat table is shared by several people: say whose page it is "
                                 "(seat=k), or seat=None for the teacher view with every hand open")
            seat = self.seat
        return self.timeline.to_html(path, seat)

    @classmethod
    def from_replay(cls, replay: Any, seat: int | None = None, **kwargs: Any) -> "TableModel":
        """A table holding every line of a game (narrated), at the main line's end, shown as ``seat``
        sees it (``None``: the teacher view).

        ``replay`` is a :class:`~cardwidgets.Replay`, the path of a replay file, a
        :class:`~cardwidgets.Timeline` or a table (both copied: the new table's moves do not
        change them). As seat ``k``, every position shows ``view(k)`` and ``k``'s narration
        only. ``table.play_replay()`` plays it forward. Raises :class:`~cardwidgets.ReplayError`
        naming the first bad action.
        """
        if isinstance(replay, TableModel):
            replay = replay.timeline
        if isinstance(replay, Timeline):
            replay = replay.to_replay()
        elif isinstance(replay, (str, pathlib.PurePath)):
            replay = Replay.load(replay)
        elif not isinstance(replay, Replay):
            raise TypeError(f"from_replay takes a Replay, a replay file's path, a Timeline or a table, "
                            f"not {type(replay).__name__}")
        return cls(timeline=Timeline.from_replay(replay), seat=seat, **{"bot_delay": 0, **kwargs})

    # ------------------------------------------------------------------ stepping
    def step(self, action: Any) -> list[Any]:
        """Apply ``action`` (object or notation) for whoever is to act, then let bots move.

        Acting at an earlier position starts a new line (the old one is kept). Raises
        the engine's errors (and changes nothing) when the action is refused. A view
        (``view_for``) acts for its own seat only, at the game's current position.
        """
        if self._own_cursor:
            self._look = None
        events = self._push(action, seat=self.seat if self._own_cursor else ANY)
        self._run_bots(from_browser=False)
        return events

    def _push(self, action: Any, seat: Any, by_bot: bool = False, max_lines: int | None = None) -> list[Any]:
        events = self.timeline.step(action, seat, max_lines=max_lines, shared_with=self._people())
        self._now_line = self.timeline.branch
        with self.batch():  # one message to the browser
            if not by_bot:  # a person's move supersedes a scheduled bot move, a wait, a stall and a replay
                self._cancel_pending()
                self._stop_playing()
                self._stalled = False
            self._sync(person=not by_bot)
        self._sync_others()
        return events

    def undo(self) -> None:
        """Step back one action (past bot moves, to the last time a person was to act).

        A view (``view_for``) looks back on its own: the game and the other tables stay."""
        if self._own_cursor:
            self._look_at(self._look_back())
            return
        self._navigate(self._back, False)

    def goto(self, n: int) -> None:
        """Show the position after ``n`` actions of the current line (nothing is dropped).

        A view (``view_for``) looks there on its own: the game and the other tables stay."""
        if self._own_cursor:
            self.timeline.position(n)  # raises on a bad index, as the timeline's goto does
            self._look_at(n)
            return
        self._navigate(lambda: self.timeline.goto(n), False)

    def switch(self, branch: str) -> None:
        """Show another line of play, at its last position (the table that holds the game only)."""
        if self._own_cursor:
            raise ValueError("a view follows the game's line of play; switch lines on the table it views")

        def move() -> None:
            self.timeline.switch(branch, shown_to=self._people())
            self._now_line = self.timeline.branch  # code moves the game there; the page only looks

        self._navigate(move, False)

    def _navigate(self, move: Any, from_browser: bool) -> None:
        """Move the cursor (or change lines); a scheduled bot move and a wait end with the
        position they belonged to, and bots go on if the new position is theirs to play."""
        move()  # raises (and changes nothing) on a bad index or name
        with self.batch():
            self._stop_playing()
            self._cancel_pending()
            self.hold = None
            self._sync()
            self._sync_others()
            self._run_bots(from_browser)

    def _back(self) -> None:
        self.timeline.undo(skip=lambda st: st.current_player in self._bots)

    def note(self, text: str) -> None:
        """Comment on the move that led to the shown position (saved in replays)."""
        self.timeline.note(text)

    def play_bots(self) -> None:
        """Let the bots move now until a person is to act (or the game ends)."""
        self._stalled = False
        self.hold = None
        self._run_bots(from_browser=False)

    # ------------------------------------------------------------------ bots
    def _bot_to_move(self) -> Bot | None:
        tl = self.timeline
        if tl.cursor != tl.length or self._stalled or self.hold is not None:
            return None  # never move while the user looks at the past, or after a bot failed
        return self._bots.get(self.state.current_player)

    def _run_bots(self, from_browser: bool) -> None:
        """Let the bots move: after a browser message one move per ``bot_delay`` (at most one
        move is ever scheduled), from Python all at once."""
        loop = self._loop() if from_browser and self.bot_delay > 0 else None
        if loop is not None:
            if self._pending is None and self._bot_to_move() is not None:
                self._pending = loop.call_later(self.bot_delay, self._bot_tick, loop)
                self.thinking = True
            return
        self._cancel_pending()  # moving now: a scheduled move would be a second one
        while (bot := self._bot_to_move()) is not None:
            self._bot_move(bot, from_browser)

    def _bot_tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self._pending = None
        try:
            bot = self._bot_to_move()
            if bot is not None:
                self._bot_move(bot, True)
            if self._bot_to_move() is not None:
                self._pending = loop.call_later(self.bot_delay, self._bot_tick, loop)
                return
        except Exception as e:  # a callback must never raise into the event loop
            self.last_error = _clip(f"The table stopped the bots after an error: {type(e).__name__}")
        self.thinking = False

    def _bot_move(self, bot: Bot, from_browser: bool) -> None:
        st = self.state
        seat = st.current_player
        name = getattr(bot, "name", type(bot).__name__)
        who = f"the bot playing {st.seat_label(seat)} ({name})"
        try:
            action = ask(bot, st)
            events = self._push(action, seat=seat, by_bot=True)
        except (IllegalActionError, InvalidActionError) as e:
            # Neither the action nor the engine's reason, and for a player not even the rule:
            # which rule refuses it (D4.1 or D4.2 ...) can depend on the bot's hidden hand.
            rule = f" (rule {e.rule})" if isinstance(e, IllegalActionError) and self._is_teacher() else ""
            self._bot_failed(f"{who} chose an action the rules refuse{rule}")
            return
        except Exception as e:  # a bot's own bug
            self._bot_failed(f"{who} failed with {type(e).__name__}")
            return
        if from_browser:
            self._hold_on(events)

    def _hold_on(self, events: list[Any]) -> None:
        """Hold the bots at a pause event (a game's end in a match) until the viewer continues.

        Only at the end of a line: following a move already played into the past replays its
        events, but there is nothing to wait for there."""
        tl = self.timeline
        if self._pauses & {e.kind for e in events} and not self.state.is_terminal and tl.cursor == tl.length:
            pause = next(e for e in events if e.kind in self._pauses)
            # Only the public narration line: the panel reads the viewer's own view for the
            # details, so nothing an event carries for the teacher reaches the browser.
            self.hold = {"kind": pause.kind, "text": pause.text}

    def _bot_failed(self, why: str) -> None:
        self._stalled = True
        self.last_error = _clip(f"{why}; the bots are stopped. Play that seat's move yourself with "
                                f"table.step(...), or call table.play_bots() to try again.")

    def _cancel_pending(self) -> None:
        if not hasattr(self, "_group"):  # a table whose construction failed is closed by ipywidgets' __del__
            return
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.thinking = False

    # ------------------------------------------------------------------ browser messages
    def refuse_write(self, data: Any) -> list[str]:
        """A trait write from the browser (``{name: value}``): refused, with ``last_error`` saying so.

        Returns the synced names in ``data``: the transport sends their values back, so the
        browser's copy is the table's again. Never raises."""
        try:
            names = self.synced_names()
            keys = [k for k in data if isinstance(k, str) and k in names] if isinstance(data, dict) else []
            named = ", ".join(quote(k, 24) for k in keys[:5]) or "a trait"
            self.last_error = _clip(f"Refused: the browser cannot change {named}; the table changes only "
                                    f"through its messages (act, goto, undo ...).")
            return keys
        except Exception:  # never raise into the transport
            self.last_error = "Refused: the browser cannot change the table's state."
            return []

    def handle_message(self, msg: Any) -> None:
        """A message from the browser (``{"type": "act", "action": ...}`` ...): validated and
        answered through the synced values. Never raises: a bad one sets ``last_error``."""
        try:
            self._handle(msg)
        except Exception as e:  # never let anything raise into the transport
            self.last_error = _clip(f"The table could not handle that message ({type(e).__name__}).")

    def _handle(self, msg: Any) -> None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            self.last_error = "Bad message: expected an object with a 'type'."
            return
        if len(msg) > 4 or _size(msg) > MAX_MESSAGE:
            self.last_error = f"Bad message: more than {MAX_MESSAGE} characters."
            return
        if has_lone_surrogate(msg):  # a trait holding such text could never be sent to the page again
            self.last_error = "Bad message: its text is not valid Unicode (an unpaired surrogate)."
            return
        kind = msg["type"]
        if self._handle_together(kind, msg):
            return
        if kind == "act":
            action = msg.get("action")
            if not isinstance(action, str):
                self.last_error = "Bad 'act' message: 'action' must be action text."
                return
            self._act_from_browser(action)
        elif kind == "goto":
            index = msg.get("index")
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.timeline.length:
                self.last_error = f"Bad 'goto' message: index must be 0..{self.timeline.length}."
                return
            self._navigate(lambda: self.timeline.goto(index), True)
        elif kind == "switch":
            name = msg.get("branch")
            if not self.timeline.has_line(name):
                self.last_error = "Bad 'switch' message: no line of play by that name."
                return
            try:
                self._navigate(lambda: self.timeline.switch(name, shown_to=self._people()), True)
            except IllegalActionError as e:  # a line re-dealt for someone else (G5)
                self.last_error = _clip(str(e))
        elif kind == "undo":
            self._navigate(self._back, True)
        elif kind == "continue":
            if self.hold is None:
                self.last_error = "Nothing to continue: the table is not paused."
                return
            with self.batch():
                self.hold = None
                self.last_error = ""
                self._run_bots(from_browser=True)
        elif kind == "clear_error":
            self.last_error = ""
        elif kind == "speed":
            self._set_speed(msg.get("delay"))
        elif kind == "skip":
            self._skip_to_viewer()
        elif kind == "preview":
            self._preview_from_browser(msg.get("action"))
        elif kind == "play":
            self._play_from_browser(msg.get("speed", DEFAULT_REPLAY_SPEED))
        elif kind == "pause":
            self._stop_playing()
        elif kind == "narration":
            whole = msg.get("all")
            if not isinstance(whole, bool):
                self.last_error = "Bad 'narration' message: 'all' must be true or false."
                return
            if whole != self._log_all:
                self._log_all = whole
                self._sync()
        else:
            self.last_error = f"Unknown message type {quote(kind, 24)}."

    def _set_speed(self, delay: Any) -> None:
        """The page's speed control: a new pace for the bots, from the next move on."""
        seconds = _clamped(delay, 0.0, MAX_BOT_DELAY)
        if seconds is None:
            self.last_error = f"Bad 'speed' message: 'delay' must be a number of seconds (0 to {MAX_BOT_DELAY:g})."
            return
        self.bot_delay = seconds
        if self._pending is not None:  # the move already scheduled takes the new pace too
            self._pending.cancel()
            self._pending = None
            self._run_bots(from_browser=True)
            if self._pending is None:
                self.thinking = False

    def _skip_to_viewer(self) -> None:
        """"Skip to my turn": the bots play at once up to a person's turn, still stopping at a hold."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        while (bot := self._bot_to_move()) is not None:
            self._bot_move(bot, True)
        self.thinking = False

    def _act_from_browser(self, text: str) -> None:
        self._stop_playing()  # a person acting ends a replay playing, refused or not
        st = self.state
        actor = st.current_player
        if actor is not None and actor in self._bots:
            self.last_error = f"Illegal: rule G3 — it is {st.seat_label(actor)}'s turn, played by the computer"
            return
        # Nobody seated at a hot-seat table acts as a spectator: refused (G3), never for anyone.
        seat = self.seat if self.seat is not None or self.hotseat else ANY
        try:
            events = self._push(text, seat=seat, max_lines=MAX_LINES)
        except (IllegalActionError, InvalidActionError, LineLimitError, SamplingLimitError) as e:
            self.last_error = _clip(str(e))
            return
        self._hold_on(events)  # the viewer's own move can end a game too
        self._run_bots(from_browser=True)

    # ------------------------------------------------------------------ sync
    def _viewer_may_act(self, st: State) -> bool:
        actor = st.current_player
        if actor is None or actor in self._bots or (self.hotseat and self.seat is None):
            return False
        return self.seat is None or self.seat == actor

    def _sync(self, person: bool = False) -> None:
        """Set every synced trait from the timeline: one message to the browser."""
        tl = self.timeline
        n = self._shown_index()
        st = tl.state if n == tl.cursor else tl.position(n)
        self._update_curtain(st, n)
        nobody = self.hotseat and self.seat is None  # a hot-seat table between two people
        may_act = self._viewer_may_act(st) and n == tl.cursor
        legal = [str(a) for a in st.legal_actions()] if may_act else []
        with self.batch():
            if person:  # a person's move ends a wait
                self.hold = None
            self.preview = None  # it belonged to the position before
            self.cursor = n
            self.history_len = tl.length
            self.view = public_view(st) if nobody else st.view(self.seat)
            self.legal = legal
            self.refusals = self._refusals(st, legal) if may_act else {}
            # One line more than are sent tells whether there are earlier ones.
            keep = LOG_ALL if self._log_all else LOG_TAIL
            if nobody or n != tl.cursor:
                lines = narration_at(tl, n, self.seat, public=nobody, last=keep + 1)
            else:
                lines = tl.narration(self.seat, last=keep + 1)
            self.narration_more = len(lines) > keep
            self.narration = lines[-keep:]
            self.branch = tl.branch
            # Rebuilding and sending the list costs as much as it is long: with many lines, not
            # for every move along the current one.
            shape = (tl.line_count, tl.branch, tl.length if tl.line_count <= MAX_LINES else None)
            if shape != self._branches_key:
                self.branches = [b.to_dict() for b in tl.branches]
                self._branches_key = shape
            self.last_error = ""

    def _refusals(self, st: State, legal: list[str]) -> dict[str, str]:
        hints = getattr(st, "ui_candidates", None)
        if hints is None:
            return {}
        ok = set(legal)
        seat = st.current_player
        return {a: str(st.explain(a, seat)) for a in hints(seat) if a not in ok}

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: dict[str, Any]) -> int | None:
        seat = proposal["value"]
        if hasattr(self, "timeline"):
            try:
                self.state.check_seat(seat)
            except ValueError as e:
                raise traitlets.TraitError(str(e)) from None
            if seat in self._bots:
                raise traitlets.TraitError(f"seat {seat} is played by a bot")
        return seat

    @traitlets.observe("seat")
    def _seat_changed(self, _change: dict[str, Any]) -> None:
        if hasattr(self, "timeline") and not self._syncing:
            self._sync()

    # ------------------------------------------------------------------ previews
    def _preview_from_browser(self, action: Any) -> None:
        """Answer a ``preview`` message: what the move would do, as the viewer may see it. A move
        the viewer may not make gives no lines (never an error: it is a pointer passing by)."""
        if not isinstance(action, str):
            self.last_error = "Bad 'preview' message: 'action' must be action text."
            return
        self.preview = {"action": _clip(action, 200), "lines": self.preview_lines(action)}

    def preview_lines(self, action: Any) -> list[str]:
        """What ``action`` would do now, in the viewer's words: the narration of its effects that the
        viewer may see, up to the first step that depends on hidden cards (its last line says what
        happens next). Empty when the viewer may not make that move now."""
        st = self.state
        if not self._viewer_may_act(st) or self._shown_index() != self.timeline.cursor:
            return []  # a view looking back plays nothing there
        ex = st.explain(action, self.seat if self.seat is not None else ANY)
        return [e.text for e in ex.effects if e.text] if ex.legal else []

    # ------------------------------------------------------------------ playing a replay
    def play_replay(self, speed: float = DEFAULT_REPLAY_SPEED) -> None:
        """Play the current line forward, ``speed`` positions per second (from its start when the
        cursor is at its end), until the line ends, a person acts or moves the cursor, or
        :meth:`pause_replay`. Needs a running event loop (a notebook's kernel has one). A view
        (``view_for``) does not: it follows the game, which the table it views plays."""
        if self._own_cursor:
            raise ValueError("a view follows the game: play the line on the table it views")
        loop = self._loop()
        if loop is None:
            raise RuntimeError("play_replay needs a running event loop (call it in a notebook cell); "
                               "without one, step through the positions with table.goto(n)")
        speed = _replay_speed(speed)
        if speed is None:
            raise ValueError(f"speed must be a number of positions per second ({MIN_REPLAY_SPEED:g} to "
                             f"{MAX_REPLAY_SPEED:g})")
        self._start_playing(speed, loop)

    def pause_replay(self) -> None:
        """Stop a replay playing (the cursor stays where it is)."""
        self._stop_playing()

    def _play_from_browser(self, speed: Any) -> None:
        loop = self._loop()
        value = _replay_speed(speed)
        if value is None or loop is None:
            self.last_error = (f"Bad 'play' message: 'speed' must be a number of positions per second "
                               f"({MIN_REPLAY_SPEED:g} to {MAX_REPLAY_SPEED:g}).") if value is None else \
                "The table cannot play the line here (no event loop)."
            return
        self._start_playing(value, loop)

    def _start_playing(self, speed: float, loop: asyncio.AbstractEventLoop) -> None:
        tl = self.timeline
        if self._own_cursor:  # it would move the game of every other table
            self.last_error = "This view follows the game: play the line on the table it views."
            return
        if tl.length == 0:
            self.last_error = "There is nothing to play: the line has no moves yet."
            return
        if tl.cursor >= tl.length:  # at the end: from the start, as a player would
            self._navigate(lambda: tl.goto(0), False)
        self._stop_playing()
        with self.batch():
            self.playing = speed
            self.last_error = ""
        self._play = loop.call_later(1 / speed, self._play_tick, loop)

    def _play_tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self._play = None
        tl = self.timeline
        try:
            if tl.cursor < tl.length:
                tl.goto(tl.cursor + 1)
                with self.batch():  # as _navigate, without stopping the replay
                    self._cancel_pending()
                    self.hold = None
                    self._sync()
                    self._sync_others()
                    if tl.cursor >= tl.length:
                        self.playing = 0.0
            if tl.cursor < tl.length and self.playing > 0:
                self._play = loop.call_later(1 / self.playing, self._play_tick, loop)
                return
            self.playing = 0.0
            self._run_bots(from_browser=True)  # at the end of the line the game goes on as usual
        except Exception as e:  # a callback must never raise into the event loop
            self.playing = 0.0
            self.last_error = _clip(f"The replay stopped after an error: {type(e).__name__}")

    def _stop_playing(self) -> None:
        if self._play is not None:
            self._play.cancel()
            self._play = None
        if self.playing:
            self.playing = 0.0

    # ------------------------------------------------------------------ playing together
    def view_for(self, seat: int | None) -> "TableModel":
        """Another table on the same game, showing ``seat``'s view (``None``: the teacher's).

        Every table on the game shows every move, whoever makes it; a view acts only for its
        own seat (others are refused with rule G3), at the game's current position. The bots
        belong to the game: they move once, whatever the number of views. Each view has its own
        cursor: going back (its scrubber, ``goto``, ``undo``) shows the past there only, while
        the game and the other tables go on; "Back to the latest move" follows the game again.
        The table that holds the game (the one made first) moves the game itself, as ever.
        """
        return type(self)(timeline=self.timeline, seat=seat, animations=self.animations, _group=self._group)

    def _people(self) -> set[int]:
        """The seats people play at on this game: every table's seat, and a hot-seat table's
        seats without a bot (a player's move in the past is refused while there are others, G5)."""
        seats: set[int] = set()
        for table in (self, *self._group.others(self)):
            seats |= table._own_people()
        return seats

    def _own_people(self) -> set[int]:
        """The seats of the people at this table (see :meth:`_people`)."""
        return _people_at(self.state.players, self._bots, self.hotseat, self.seat)

    def _is_teacher(self) -> bool:
        """Whether the viewer may see everything (a teacher's table; never a hot-seat one)."""
        return self.seat is None and not self.hotseat

    def _sync_others(self) -> None:
        """The game changed: every other table on it shows the change."""
        for table in self._group.others(self):
            table._sync()

    @traitlets.observe("thinking", "hold", "bot_delay")
    def _share(self, change: dict[str, Any]) -> None:
        # The bots' pace, their scheduled move and a round's wait belong to the game: every
        # table on it shows the same (setting the same value again does nothing).
        group = getattr(self, "_group", None)
        if group is None or group.sharing:
            return
        # One table sets every other one, which passes nothing on: no chain of observers as
        # deep as the number of views (a RecursionError at about 150).
        group.sharing = True
        try:
            for table in group.others(self):
                if getattr(table, change["name"]) != change["new"]:
                    setattr(table, change["name"], change["new"])
        finally:
            group.sharing = False

    def _update_curtain(self, st: State, n: int) -> None:
        """Hot seat: show the seat to act if it said "I am ...", else lower the curtain for it.

        The curtain comes down only for a person's turn other than the seat shown: during the
        bots' turns (and at the end) the seat shown stays, and nobody is shown before the first
        person says who they are. In the past (``n`` before the end of the line of the last move,
        or on another line) with several people at the screen, only the person whose turn it is
        now may be shown: any other person's hand there is most of their hand now, so the table
        shows nobody's view (what every seat sees) and lowers no curtain."""
        if not self.hotseat:
            return
        actor = st.current_player
        shown = self.seat
        tl = self.timeline
        line = self._now_line if tl.has_line(self._now_line) else tl.branch
        if (n != tl.length or tl.branch != line) and len(self._own_people()) > 1:
            end = tl.length if line == tl.branch else next(b.length for b in tl.branches if b.name == line)
            now = tl.position(end, line).current_player
            if shown is not None and shown != now:
                shown = None
            if actor != now:
                actor = None
        waiting = actor is not None and actor not in self._bots and actor != shown
        self._syncing = True
        try:
            with self.batch():
                if waiting or shown != self.seat:
                    self.seat = None
                self.curtain = {"seat": actor, "name": st.seat_label(actor)} if waiting else None
        finally:
            self._syncing = False

    def _handle_together(self, kind: str, msg: dict[str, Any]) -> bool:
        """The messages of hot-seat tables and views; ``True`` when handled here."""
        if kind == "iam":
            self._claim(msg.get("seat"))
            return True
        if self.hotseat and self.seat is None and kind not in UNDER_CURTAIN:
            who = self.curtain["name"] if self.curtain else None
            self.last_error = (f"Illegal: rule G3 — nobody is seated: {who}, say \"I am {who}\" first"
                               if who else "Illegal: rule G3 — nobody is seated at this table now")
            return True
        if not self._own_cursor:
            return False
        if kind == "undo":
            self._look_at(self._look_back())
            return True
        if kind == "goto":
            index = msg.get("index")
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.timeline.length:
                self.last_error = f"Bad 'goto' message: index must be 0..{self.timeline.length}."
            else:
                self._look_at(index)
            return True
        if kind == "switch":
            self.last_error = "This view follows the game's line of play: lines are switched on the table it views."
            return True
        if kind == "act" and self._shown_index() != self.timeline.cursor:
            self.last_error = (f"You are looking at move {self._shown_index()}: go back to the game's move "
                               f"{self.timeline.cursor} to play.")
            return True
        return False

    def lift_curtain(self, seat: int) -> None:
        """What "I am <name>" does on a hot-seat table: show ``seat``'s view, the seat to act.

        Raises ``ValueError`` (and changes nothing) unless the curtain is down for that seat.
        """
        self._claim(seat)
        if self.last_error:
            error, self.last_error = self.last_error, ""
            raise ValueError(error)

    def _claim(self, seat: Any) -> None:
        """ "I am <name>" on a hot-seat table: the curtain lifts on that seat's view."""
        if not self.hotseat:
            self.last_error = "Bad 'iam' message: this table is not a hot-seat table."
            return
        curtain = self.curtain
        if curtain is None:
            self.last_error = "Nothing to lift: the curtain is not down."
            return
        if type(seat) is not int or seat != curtain["seat"]:  # not True, not 0.0
            self.last_error = f"Bad 'iam' message: it is {curtain['name']}'s turn (seat {curtain['seat']})."
            return
        self._syncing = True
        try:
            self.seat = curtain["seat"]
        finally:
            self._syncing = False
        self._sync()

    def _shown_index(self) -> int:
        """The position this table shows: the game's (the timeline's cursor), or a view's own."""
        tl = self.timeline
        look = self._look
        if look is None:
            return tl.cursor
        if self._look_line != tl.branch or look > tl.length:  # the game changed lines under it
            self._look = None
            return tl.cursor
        return look

    def _look_back(self) -> int:
        """A view's "undo": one position back from the one it shows, past the bots' turns."""
        n = self._shown_index() - 1
        while n > 0 and self.timeline.position(n).current_player in self._bots:
            n -= 1
        return max(n, 0)

    def _look_at(self, n: int) -> None:
        """A view shows position ``n`` of the game's line (the game's own position: follows it)."""
        tl = self.timeline
        self._look = None if n == tl.cursor else n
        self._look_line = tl.branch
        self._sync()

    # ------------------------------------------------------------------ static fallback
    def __str__(self) -> str:
        st = self.state
        if self.hotseat and self.seat is None:  # saved with the notebook: nobody's cards
            return f"{st.SPEC.title}, hot seat: " + (f"{self.curtain['name']} to play." if self.curtain
                                                       else "nobody is seated.")
        return st.view_text(st.view(self.seat))

    def _repr_html_(self) -> str:
        # Saved in the notebook next to the live view: only what the viewer may see.
        return (f'<pre class="cw-fallback" data-game="{self.GAME}">'
                f"{html.escape(str(self))}</pre>")

    def __repr__(self) -> str:
        who = "teacher view" if self.seat is None else f"seat {self.seat}"
        if self.hotseat:
            who = "hot seat, " + ("curtain down" if self.seat is None else f"seat {self.seat}")
        return f"<{type(self).__name__} {who} move {self.cursor} of {self.history_len}>"


def _replay_speed(speed: Any) -> float | None:
    """A replay's pace in positions per second, clamped to the allowed range (``None``: not a number)."""
    if isinstance(speed, (int, float)) and not isinstance(speed, bool) and speed <= 0:
        return None
    return _clamped(speed, MIN_REPLAY_SPEED, MAX_REPLAY_SPEED)


def _clamped(value: Any, low: float, high: float) -> float | None:
    """``value`` clamped to ``low..high`` as a float, or ``None`` if it is not a finite number
    (an int of any size is clamped before it becomes a float, which it could overflow)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return float(min(max(value, low), high))


def _size(value: Any, budget: int = MAX_MESSAGE) -> int:
    """A cheap upper bound of a message's JSON size, stopping early past the budget."""
    stack, total = [value], 0
    while stack and total <= budget:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) + 2
        elif isinstance(v, dict):
            total += 2 + 4 * len(v)
            for k, x in v.items():
                stack.append(k)
                stack.append(x)
        elif isinstance(v, (list, tuple)):
            total += 2 + len(v)
            stack.extend(v)
        else:
            total += 24
    return total


def table_doc(game: str) -> str:
    """The docstring of a game's table class (its parameters)."""
    spec = game_spec(game)
    return (f"A live {spec.title} table ({spec.summary}).\n\n"
            f"Parameters are those of ``cardwidgets.games.{game}.new_game`` (``players``, ``seed``,\n"
            f"``deck`` and the game's options) plus ``seat`` (whose view is shown; ``None`` = teacher\n"
            f"view), ``bots`` (``{{seat: \"greedy\"}}``, or one name for every other seat),\n"
            f"``bot_delay`` (seconds a bot waits after a click; the page's speed control changes it),\n"
            f"``animations`` (``False``: cards do not move), ``names`` (one per seat, for narration and\n"
            f"the table) and ``hotseat`` (``True``: people share the screen, a curtain between their turns).\n"
            f"``table.timeline`` holds the game; ``table.view_for(seat)`` is another player's table on it.\n")


_models: dict[str, type[TableModel]] = {}


def game_model(game: str) -> type[TableModel]:
    """The table model class of a registered game (``DepotModel`` ...), made once from its spec."""
    if game not in _models:
        name = f"{game_spec(game).table}Model"
        _models[game] = type(name, (TableModel,), {
            "__module__": __name__, "__qualname__": name, "__doc__": table_doc(game), "GAME": game})
    return _models[game]


def _people_at(players: int, bots: Collection[int], hotseat: bool, seat: int | None) -> set[int]:
    """The seats of the people at one table: a hot-seat table's seats without a bot, else its seat."""
    if hotseat:
        return set(range(players)) - set(bots)
    return set() if seat is None else {seat}
