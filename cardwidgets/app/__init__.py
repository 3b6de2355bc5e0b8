"""An app without code: a game chooser and the table, for ``cardwidgets play`` (Voilà).

:class:`App` is an ipywidgets box: choose the game, its mode and player count, who plays each
seat (a person, with a name, or one of the game's bots), how the screen is shared (one
person's seat, hot seat with a curtain between people, or the teacher's view), the bots'
pace and a seed; the game's rules options are folded away under "Rules options", grouped by
what they change, each named in words with a line of help, its values in words, its default
and its rule (:func:`cardwidgets.core.spec.option_form`, the form the static site shows too).
*Start* folds the chooser away and the table takes the page; "Change the game" unfolds it.
In a notebook::

    from cardwidgets.app import App
    App()

``cardwidgets play`` serves exactly that cell as a page (see :mod:`cardwidgets.app.server`).
"""

from __future__ import annotations

import functools
import html
import json
from typing import Any

import ipywidgets as w

from ..bots import bot_names
from ..core.spec import OPTION_GROUPS, GameSpec, Mode, option_form
from ..games import available_games, game_spec
from ..rules import lookup

#: "Played by" values: a person, or a bot by name (``"bot:greedy"``).
PERSON = "person"
#: How the screen is shared.
HOTSEAT, TEACHER = "hotseat", "teacher"
#: The bots' paces offered (seconds between their moves), as on the table's speed control.
PACES = (("Slow (1.5 s)", 1.5), ("Normal (0.7 s)", 0.7), ("Fast (0.3 s)", 0.3), ("Instant", 0.0))
#: With nobody to play, the bots play to be watched: at a pace, never all at once.
WATCHED_PACES = PACES[:-1]

#: The chooser's own look: an option's name on a line of its own above its field (no value
#: cut short), and the result of a game beside the felt, not over it.
_STYLE = """<style>
.cw-app { max-width: 1200px; }
.cw-app .cw-app-wide { width: auto; max-width: 100%; }
.cw-app .cw-app-wide > select { flex: 0 1 auto; width: auto; max-width: 100%; }
.cw-app .cw-app-group h3 { margin: 10px 0 2px; font-size: 14px; }
.cw-app .cw-app-options-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr));
  gap: 6px 18px; }
.cw-app .cw-app-option { border-left: 3px solid #d0ccc4; padding-left: 8px; }
.cw-app .cw-app-option .widget-inline-hbox { flex-wrap: wrap; width: 100%; height: auto; }
.cw-app .cw-app-option .widget-inline-hbox > .widget-label { width: 100% !important; max-width: none;
  text-align: left; font-weight: 600; white-space: normal; }
.cw-app .cw-app-option select, .cw-app .cw-app-option input { flex: 1 1 100%; max-width: 100%;
  min-height: var(--jp-widgets-inline-height, 28px); }
.cw-app .cw-app-help { font-size: 12.5px; color: #4a4540; line-height: 1.35; }
.cw-app .cw-app-help summary { cursor: pointer; color: #8a3108; }
.cw-app .cw-app-help .cw-app-rule-text { white-space: pre-line; margin: 2px 0 4px; }
.cw-app .cw-table .cw-felt:has(> .cw-outcome) { grid-template-rows: auto auto; }
.cw-app .cw-table .cw-felt > .cw-outcome { grid-area: 2 / 1; width: 100%; }
.cw-app .cw-table .cw-felt-covered:has(> .cw-outcome) > .cw-felt-content { filter: none; opacity: 1; }
</style>"""


@functools.cache
def _paced(cls: type) -> type:
    """``cls`` whose bots move at the table's own pace from the first move, not only after a click.

    A table built in Python plays its bots at once (the whole game, when every seat is a bot),
    and the button's handler would answer nothing until the end. The app's table sends every
    bot move through the table's pacing instead: one move per ``bot_delay`` on the kernel's
    event loop, the "thinking" sign and the holds a match makes between its games included.
    """

    class Paced(cls):  # type: ignore[misc, valid-type]
        def _run_bots(self, from_browser: bool) -> None:
            super()._run_bots(True)

        def close(self) -> None:
            # a table replaced by a new game: its bots stop with it (else they would play on,
            # unseen, to the end of the game)
            self._cancel_pending()
            super().close()

    Paced.__name__ = Paced.__qualname__ = cls.__name__
    Paced.__doc__ = cls.__doc__
    return Paced


def _mode_words(mode: Mode) -> str:
    """A mode in words: ``Duo: 2 players and a virtual player (NPC)`` (its player counts when its
    doc is written for programmers, naming an option's keyword)."""
    p = mode.players
    counts = f"{p[0]}–{p[-1]} players" if len(p) > 1 else f"{p[0]} player{'s' * (p[0] != 1)}"
    said = mode.doc if mode.doc and not any(c in mode.doc for c in "=_") else counts
    return f"{mode.name.capitalize()}: {said}"


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
    ``app.fields`` holds the field of each rules option shown, by the option's name.
    """

    def __init__(self, game: str | None = None) -> None:
        games = available_games()
        style = {"description_width": "110px"}
        self.game = w.Dropdown(options=[(game_spec(g).title, g) for g in games], value=game or games[0],
                               description="Game", style=style)
        # as wide as their words: no choice cut short
        self.mode = w.Dropdown(description="Mode", style=style, layout=w.Layout(width="auto"))
        self.players = w.Dropdown(description="Players", style=style)
        self.options_toggle = w.Button(description="Show the rules options", icon="",
                                       layout=w.Layout(width="auto"))
        self.options_toggle.add_class("cw-app-options-toggle")
        self.options_summary = w.HTML()
        self.options_box = w.VBox(layout=w.Layout(display="none"))
        self.options_box.add_class("cw-app-options")
        self.seats_box = w.VBox()
        self.screen = w.Dropdown(description="Screen", style=style, layout=w.Layout(width="auto"))
        self.pace = w.Dropdown(options=PACES, value=0.7, description="Bots' pace", style=style)
        for box in (self.mode, self.screen):
            box.add_class("cw-app-wide")
        self.seed = w.Text(value="", placeholder="random", description="Seed", style=style,
                           layout=w.Layout(width="260px"))
        self.start_button = w.Button(description="Start", button_style="primary")
        self.start_button.add_class("cw-app-start")
        self.again_button = w.Button(description="New game", button_style="primary",
                                     tooltip="the same choices, a new deal", layout=w.Layout(display="none"))
        self.again_button.add_class("cw-app-again")
        self.change_button = w.Button(description="Change the game", layout=w.Layout(display="none"))
        self.change_button.add_class("cw-app-change")
        self.status = w.HTML()
        self.status.add_class("cw-app-status")
        # a column that stretches its child: the table takes the page's width
        self.table_box = w.VBox(layout=w.Layout(width="100%", align_items="stretch"))
        self.table: Any = None
        #: name -> the field of each option of the current game and mode
        self.fields: dict[str, w.Widget] = {}
        self._form: dict[str, dict[str, Any]] = {}
        self._seats: list[tuple[w.Text, w.Dropdown]] = []
        self._building = False

        head = w.HTML(_STYLE + "<h2 style='margin:4px 0'>cardwidgets</h2>"
                      "<p style='margin:0 0 6px'>Choose a game and who plays it, then press <b>Start</b>.</p>")
        self.chooser = w.VBox([
            head,
            w.HBox([self.game, self.mode, self.players], layout=w.Layout(flex_flow="row wrap")),
            w.HTML("<b>Seats</b> (a name for each person; the computer plays the other seats)"), self.seats_box,
            w.HBox([self.screen, self.pace, self.seed], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.options_toggle, self.options_summary], layout=w.Layout(align_items="center")),
            self.options_box,
            self.start_button,
        ])
        self.chooser.add_class("cw-app-chooser")
        super().__init__([
            self.chooser,
            w.HBox([self.again_button, self.change_button, self.status], layout=w.Layout(align_items="center")),
            self.table_box,
        ])
        self.add_class("cw-app")
        self.game.observe(self._game_changed, "value")
        self.mode.observe(self._mode_changed, "value")
        self.players.observe(self._players_changed, "value")
        self.start_button.on_click(lambda _b: self.start())
        self.again_button.on_click(lambda _b: self.start())
        self.change_button.on_click(lambda _b: self.unfold())
        self.options_toggle.on_click(lambda _b: self.fold_options(self.options_box.layout.display != "none"))
        self._game_changed()

    # ------------------------------------------------------------------ the chooser
    @property
    def spec(self) -> GameSpec:
        return game_spec(self.game.value)

    def fold_options(self, folded: bool) -> None:
        """Fold the rules options away (``True``) or show them."""
        self.options_box.layout.display = "none" if folded else None
        self.options_toggle.description = ("Show" if folded else "Hide") + " the rules options"

    def unfold(self) -> None:
        """Show the chooser again (the table stays until the next *Start*)."""
        self.chooser.layout.display = None
        self.change_button.layout.display = "none"

    def _game_changed(self, _change: Any = None) -> None:
        spec = self.spec
        self._building = True
        try:
            self.mode.options = [(_mode_words(m), m.name) for m in spec.modes]
            self.mode.value = spec.default_mode
            self.mode.layout.display = None if len(spec.modes) > 1 else "none"
        finally:
            self._building = False
        self._mode_changed()

    def _mode_changed(self, _change: Any = None) -> None:
        if self._building or self.mode.value is None:
            return
        mode = self.spec.mode(self.mode.value)
        self._building = True
        try:
            self.players.options = [str(n) for n in mode.players]
            # the middle of the range: a full table, not the biggest
            self.players.value = str(mode.players[(len(mode.players) - 1) // 2])
        finally:
            self._building = False
        self.fields = {}  # a new game or mode: every option at its default
        self._players_changed()

    def _build_options(self) -> None:
        """The rules options of the game, mode and player count, grouped; a value chosen is kept
        when the player count changes (a seat option offers the seats of the table)."""
        kept = {name: self.option_value(name) for name in self.fields}
        form = option_form(self.spec, self.mode.value, int(self.players.value))
        self._form = {e["name"]: e for e in form}
        self.fields = {}
        groups: dict[str, list[w.Widget]] = {}
        fixed: dict[str, list[str]] = {}
        for e in form:
            field = self._field(e, kept.get(e["name"], e["default"]))
            if field is None:
                fixed.setdefault(e["group"], []).append(
                    f"<b>{html.escape(e['label'])}</b>: {html.escape(e['default_label'])} "
                    f"<span class='cw-app-fixed'>(set from code: {html.escape(e['name'])}=...)</span>")
                continue
            self.fields[e["name"]] = field
            card = w.VBox([field, w.HTML(self._help(e))])
            card.add_class("cw-app-option")
            groups.setdefault(e["group"], []).append(card)
        sections = []
        for group in OPTION_GROUPS:
            if group not in groups and group not in fixed:
                continue
            grid = w.Box(groups.get(group, []))
            grid.add_class("cw-app-options-grid")
            extra = "".join(f"<div class='cw-app-help'>{line}</div>" for line in fixed.get(group, []))
            section = w.VBox([w.HTML(f"<h3>{html.escape(group)}</h3>"), grid, w.HTML(extra)])
            section.add_class("cw-app-group")
            sections.append(section)
        self.options_box.children = sections
        shown = len(self.fields)
        self.options_summary.value = (f"<span class='cw-app-help'><b>Rules options</b>: {shown} for "
                                      f"{html.escape(self.spec.title)}, each at the rules' own default "
                                      "until you change it</span>" if shown else "")
        self.options_toggle.layout.display = None if form else "none"

    def _field(self, e: dict[str, Any], value: Any) -> w.Widget | None:
        """The field of one option of the form (``None`` for a table of numbers: set from code)."""
        label = e["label"]
        if e["input"] == "choice":
            values = [c["value"] for c in e["choices"]]
            at = values.index(value) if value in values else values.index(e["default"])
            return w.Dropdown(options=[(c["label"], i) for i, c in enumerate(e["choices"])], value=at,
                              description=label, tooltip=e["help"])
        if e["input"] in ("number", "text"):
            shown = "" if value == e["default"] else (value if isinstance(value, str) else json.dumps(value))
            return w.Text(value=shown, placeholder=f"{e['default_label']} (default)", description=label,
                          tooltip=e["help"])
        return None

    def _help(self, e: dict[str, Any]) -> str:
        """An option's line of help, what it takes, its default and its rule (folded, in place)."""
        parts = [html.escape(e["help"])]
        if e["input"] != "choice":
            parts.append(f"It takes {html.escape(e['accepts'])}.")
        parts.append(f"<span class='cw-app-default'>Default: {html.escape(e['default_label'])}.</span>")
        rule = ""
        if e["rule"]:
            text = lookup(e["rule"], self.spec.name).text
            rule = (f"<details><summary>Rule {html.escape(e['rule'])}: {html.escape(e['rule_title'])}</summary>"
                    f"<div class='cw-app-rule-text'>{html.escape(text)}</div></details>")
        return f"<div class='cw-app-help'>{' '.join(parts)}{rule}</div>"

    def option_value(self, name: str) -> Any:
        """The value the field of option ``name`` says (its default when left empty)."""
        e, field = self._form[name], self.fields[name]
        if isinstance(field, w.Dropdown):
            return e["choices"][field.value]["value"]
        text = field.value.strip()
        if not text:
            return e["default"]
        try:
            return _read(text)
        except RecursionError:  # json.loads of "[[[[...": no value of a game's option is that deep
            raise ValueError(f"{name}: the value is nested too deeply to read") from None

    def _players_changed(self, _change: Any = None) -> None:
        if self._building or not self.players.value:
            return
        n = int(self.players.value)
        self._build_options()
        bots = [(f"computer: {b}", f"bot:{b}") for b in bot_names(self.game.value)]
        kept = [(t.value, d.value) for t, d in self._seats]
        rows, self._seats = [], []
        for s in range(n):
            letter = "ABCDEFGH"[s]
            name = w.Text(value=kept[s][0] if s < len(kept) else "", placeholder=letter,
                          description=f"Seat {letter}", layout=w.Layout(width="260px"))
            default = PERSON if s == 0 else ("bot:greedy" if "greedy" in bot_names(self.game.value) else "bot:random")
            who = w.Dropdown(options=[("a person", PERSON), *bots], layout=w.Layout(width="220px"),
                             description=f"Seat {letter} is played by", style={"description_width": "0px"},
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
        # nobody to play: the bots play to be watched, at a pace (never the whole game at once)
        paces = PACES if people else WATCHED_PACES
        if tuple(self.pace.options) != paces:
            pace = self.pace.value
            self.pace.options = paces
            self.pace.value = pace if pace in dict(paces).values() else paces[-1][1]

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
        for name in self.fields:
            value = self.option_value(name)
            if value != self._form[name]["default"] or type(value) is not type(self._form[name]["default"]):
                kw[name] = value
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
        """Start a game with the chosen arguments; the new table replaces the old one and takes
        the page (the chooser folds away)."""
        from .. import widgets

        # With every seat a bot, the only screen offered is the teacher's: the bots play it out,
        # one move per pace on the kernel's event loop (see _paced), so Start answers at once.
        try:
            kw = self.arguments()
            table = _paced(getattr(widgets, self.spec.table))(**kw)
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
        self.chooser.layout.display = "none"  # the table takes the page
        self.again_button.layout.display = None
        self.change_button.layout.display = None
        return table
