"""An app without code: a game chooser and the table, for ``cardwidgets play`` (Voilà).

:class:`App` is an ipywidgets box: choose the game, its mode and player count, the rules
options the game declares (its ``SPEC``: each option with its allowed values, or a value to
type), who plays each seat (a person, with a name, or one of the game's bots), how the
screen is shared (one person's seat, hot seat with a curtain between people, or the
teacher's view), the bots' pace and a seed; *Start* shows a live table under the chooser,
and starting again replaces it. In a notebook::

    from cardwidgets.app import App
    App()

``cardwidgets play`` serves exactly that cell as a page (see :mod:`cardwidgets.app.server`).
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as w

from ..bots import bot_names
from ..core.spec import GameSpec, Option
from ..games import available_games, game_spec

#: "Played by" values: a person, or a bot by name (``"bot:greedy"``).
PERSON = "person"
#: How the screen is shared.
HOTSEAT, TEACHER = "hotseat", "teacher"
#: The bots' paces offered (seconds between their moves), as on the table's speed control.
PACES = (("Slow (1.5 s)", 1.5), ("Normal (0.7 s)", 0.7), ("Fast (0.3 s)", 0.3), ("Instant", 0.0))
#: Options typed as text are those whose default is one of these (a dict of counts is not typed).
_TYPED = (bool, int, float, str, type(None))


def _typed(opt: Option) -> bool:
    """Whether an option without a list of allowed values gets a text field (a plain default)."""
    return opt.allowed is None and isinstance(opt.default, _TYPED)


def _read(text: str) -> Any:
    """A typed option value: JSON when it reads as JSON (3, true, null, [1, 2]), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class App(w.VBox):
    """The game chooser and the table it starts (see the module docstring).

    ``app.table`` is the table shown (``None`` before *Start*); ``app.start()`` does what the
    button does and returns the new table, or ``None`` with the reason in ``app.status``.
    """

    def __init__(self, game: str | None = None) -> None:
        games = available_games()
        style = {"description_width": "110px"}
        self.game = w.Dropdown(options=[(game_spec(g).title, g) for g in games], value=game or games[0],
                               description="Game", style=style)
        self.mode = w.Dropdown(description="Mode", style=style, layout=w.Layout(width="420px"))  # its text says what a mode is
        self.players = w.Dropdown(description="Players", style=style)
        self.options_box = w.GridBox(layout=w.Layout(grid_template_columns="repeat(2, minmax(260px, 1fr))",
                                                     grid_gap="2px 16px"))
        self.seats_box = w.VBox()
        self.screen = w.Dropdown(description="Screen", style=style, layout=w.Layout(width="420px"))
        self.pace = w.Dropdown(options=PACES, value=0.7, description="Bots' pace", style=style)
        self.seed = w.Text(value="", placeholder="random", description="Seed", style=style,
                           layout=w.Layout(width="260px"))
        self.start_button = w.Button(description="Start", button_style="primary", icon="play")
        self.start_button.add_class("cw-app-start")
        self.status = w.HTML()
        self.status.add_class("cw-app-status")
        # a column that stretches its child: the table takes the page's width
        self.table_box = w.VBox(layout=w.Layout(width="100%", align_items="stretch"))
        self.table: Any = None
        #: name -> the widget of each option of the current game and mode
        self._options: dict[str, w.Widget] = {}
        self._seats: list[tuple[w.Text, w.Dropdown]] = []
        self._building = False

        head = w.HTML("<h2 style='margin:4px 0'>cardwidgets</h2>"
                      "<p style='margin:0 0 6px'>Choose a game and who plays it, then press <b>Start</b>. "
                      "Start again for a new game.</p>")
        super().__init__([
            head,
            w.HBox([self.game, self.mode, self.players]),
            w.HTML("<b>Rules options</b>"), self.options_box,
            w.HTML("<b>Seats</b> (a name for each person; the computer plays the other seats)"), self.seats_box,
            w.HBox([self.screen, self.pace, self.seed]),
            w.HBox([self.start_button, self.status]),
            self.table_box,
        ])
        self.add_class("cw-app")
        self.game.observe(self._game_changed, "value")
        self.mode.observe(self._mode_changed, "value")
        self.players.observe(self._players_changed, "value")
        self.start_button.on_click(lambda _b: self.start())
        self._game_changed()

    # ------------------------------------------------------------------ the chooser
    @property
    def spec(self) -> GameSpec:
        return game_spec(self.game.value)

    def _game_changed(self, _change: Any = None) -> None:
        spec = self.spec
        self._building = True
        try:
            self.mode.options = [(f"{m.name}: {m.doc}" if m.doc else m.name, m.name) for m in spec.modes]
            self.mode.value = spec.default_mode
            self.mode.layout.display = None if len(spec.modes) > 1 else "none"
        finally:
            self._building = False
        self._mode_changed()

    def _mode_changed(self, _change: Any = None) -> None:
        if self._building or self.mode.value is None:
            return
        spec, mode = self.spec, self.spec.mode(self.mode.value)
        self._building = True
        try:
            self.players.options = [str(n) for n in mode.players]
            # the middle of the range: a full table, not the biggest
            self.players.value = str(mode.players[(len(mode.players) - 1) // 2])
        finally:
            self._building = False
        self._options = {}
        for opt in spec.options_for(mode.name):
            tip = opt.doc + (f" (rule {opt.rule})" if opt.rule else "")
            if opt.allowed is not None:
                box = w.Dropdown(options=[(json.dumps(v) if not isinstance(v, str) else v, v) for v in opt.allowed],
                                 value=opt.default, description=opt.name, tooltip=tip or None,
                                 style={"description_width": "170px"})
            elif _typed(opt):
                box = w.Text(value="", placeholder=f"{json.dumps(opt.default)} (default)", description=opt.name,
                             tooltip=tip or None, style={"description_width": "170px"})
            else:
                continue  # a table of numbers (a deck's counts ...): kept at its default here
            self._options[opt.name] = box
        self.options_box.children = list(self._options.values())
        self._players_changed()

    def _players_changed(self, _change: Any = None) -> None:
        if self._building or not self.players.value:
            return
        n = int(self.players.value)
        bots = [(f"computer: {b}", f"bot:{b}") for b in bot_names(self.game.value)]
        kept = [(t.value, d.value) for t, d in self._seats]
        rows, self._seats = [], []
        for s in range(n):
            letter = "ABCDEFGH"[s]
            name = w.Text(value=kept[s][0] if s < len(kept) else "", placeholder=letter,
                          description=f"Seat {letter}", layout=w.Layout(width="260px"))
            default = PERSON if s == 0 else ("bot:greedy" if "greedy" in bot_names(self.game.value) else "bot:random")
            who = w.Dropdown(options=[("a person", PERSON), *bots], layout=w.Layout(width="220px"),
                             value=kept[s][1] if s < len(kept) and kept[s][1] in [PERSON, *dict(bots).values()]
                             else default)
            who.observe(lambda _c: self._people_changed(), "value")
            name.observe(lambda _c: self._people_changed(), "value")
            self._seats.append((name, who))
            rows.append(w.HBox([name, who]))
        self.seats_box.children = rows
        self._people_changed()

    def _people_changed(self) -> None:
        people = self.people()
        was = self.screen.value
        if len(people) == 1:
            choices = [(f"{self._name(people[0])}'s seat: their cards only", people[0]),
                       ("Teacher: every hand face up", TEACHER)]
        elif people:
            choices = [("Hot seat: each person's own cards, a curtain between turns", HOTSEAT),
                       ("Teacher: every hand face up", TEACHER)]
        else:
            choices = [("Teacher: every hand face up (the computer plays every seat)", TEACHER)]
        self.screen.options = choices
        values = [v for _, v in choices]
        self.screen.value = was if was in values else values[0]

    def people(self) -> list[int]:
        """The seats a person plays."""
        return [s for s, (_, who) in enumerate(self._seats) if who.value == PERSON]

    def _name(self, seat: int) -> str:
        return self._seats[seat][0].value.strip() or "ABCDEFGH"[seat]

    # ------------------------------------------------------------------ starting
    def arguments(self) -> dict[str, Any]:
        """The table's arguments the chooser says (``ValueError`` for a value that does not read)."""
        spec = self.spec
        kw: dict[str, Any] = {"players": int(self.players.value)}
        if len(spec.modes) > 1:
            kw["mode"] = self.mode.value
        for name, box in self._options.items():
            if isinstance(box, w.Dropdown):
                if box.value != spec.option(name).default:
                    kw[name] = box.value
            elif box.value.strip():
                try:
                    kw[name] = _read(box.value.strip())
                except RecursionError:  # json.loads of "[[[[...": no value of a game's option is that deep
                    raise ValueError(f"{name}: the value is nested too deeply to read") from None
        names = [t.value.strip() for t, _ in self._seats]
        if any(names):
            kw["names"] = [n or "ABCDEFGH"[s] for s, n in enumerate(names)]
        bots = {s: who.value.split(":", 1)[1] for s, (_, who) in enumerate(self._seats) if who.value != PERSON}
        if bots:
            kw["bots"] = bots
        view = self.screen.value
        if view == HOTSEAT:
            kw["hotseat"] = True
        elif view != TEACHER:
            kw["seat"] = view
        seed = self.seed.value.strip()
        if seed:
            try:
                kw["seed"] = int(seed)
            except ValueError:
                raise ValueError(f"the seed must be a whole number, got {seed!r}") from None
        kw["bot_delay"] = float(self.pace.value)
        return kw

    def start(self) -> Any:
        """Start a game with the chosen arguments; the new table replaces the old one."""
        from .. import widgets

        # With every seat a bot, the only screen offered is the teacher's: the bots play it out.
        try:
            kw = self.arguments()
            table = getattr(widgets, self.spec.table)(**kw)
        except (ValueError, TypeError, RecursionError) as e:
            # RecursionError: a deeply nested value that the engine's checks recurse into.
            said = "an option's value is nested too deeply" if isinstance(e, RecursionError) else str(e)
            self.status.value = f"<span class='cw-app-error' style='color:#b42318'>{html.escape(said)}</span>"
            return None
        old, self.table = self.table, table
        self.table_box.children = [table]
        if old is not None:
            old.close()
        # The seed deals every hand: only the teacher's screen, where every hand is face up,
        # may show it (to play the same deal again); a seated or hot-seat player must not see it.
        if kw.get("hotseat"):
            who = "hot seat"
        elif "seat" in kw:
            who = f"{self._name(kw['seat'])}'s seat"
        else:
            who = f"teacher view: seed {table.state.seed}"
        self.status.value = (f"<span class='cw-app-started'>{html.escape(self.spec.title)}, "
                             f"{kw['players']} players, {html.escape(who, quote=False)}</span>")
        self.start_button.description = "Start a new game"
        return table
