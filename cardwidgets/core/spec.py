"""What a game declares: its :class:`GameSpec` (modes, options, phases, table).

Every game module defines ``SPEC = GameSpec(...)`` at the top, as data. The base
class reads it for everything games used to repeat: player and option validation,
modes, the G2 refusal of an action kind that does not exist in a phase, and the
``finished`` phase. The registry, the widgets, the bots, the simulator, the
conformance tests and the benchmarks all read the same declarations.

>>> spec = GameSpec("demo", "Demo", 1, modes=(Mode("standard", (2, 3)),),
...                 options=(Option("rounds", 3, check=int_range(1, 9)),),
...                 phases=(Phase("play", ("play",)),), table="Demo")
>>> spec.resolve(2, None, {"rounds": 5})
('standard', 2, {'rounds': 5})
>>> spec.resolve(4.0, None, {})
Traceback (most recent call last):
...
ValueError: players=4.0 is not allowed in Demo; allowed values: 2, 3
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Mapping

from .errors import show

#: The phase every game ends in.
FINISHED = "finished"

#: What an option changes, in the order a form shows the groups (``Option.group``).
OPTION_GROUPS = ("Who starts", "The cards and the deal", "How play goes", "Scoring and winning",
                 "How long a game lasts", "What players see")


@dataclass(frozen=True)
class Option:
    """One game option: name, default, and either a tuple of allowed values or a check.

    ``check`` returns ``None`` when a value is fine, else a description of what is
    allowed (used in the error). ``normalize`` turns an accepted value into its
    canonical form (JSON's string keys back to ints, say). ``modes`` lists the modes
    the option applies to (``None``: every mode); giving it in another mode is a
    ``ValueError``. ``rule`` is the rule ID it configures.

    The rest says the option in words, for people who do not program (the forms of
    ``cardwidgets play`` and of the static site read it through :func:`option_form`):
    ``label`` its name ("Who leads the first round"), ``help`` one line on what it
    changes, ``values`` ``(value, words)`` pairs for every allowed value and for the
    special values a check accepts (``None``, ``"random"``, a default table), ``accepts``
    what an option without ``allowed`` takes ("a whole number from 1 to 20"), and
    ``group`` what it changes, one of :data:`OPTION_GROUPS`.
    """

    name: str
    default: Any
    allowed: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    doc: str = ""
    normalize: Callable[[Any], Any] | None = None
    modes: tuple[str, ...] | None = None
    rule: str | None = None
    label: str = ""
    help: str = ""
    values: tuple[tuple[Any, str], ...] = ()
    accepts: str = ""
    group: str = ""

    def words(self, value: Any) -> str | None:
        """The words of ``value`` from ``values`` (``None`` when it has none)."""
        for v, said in self.values:
            if _same(v, value) or (isinstance(v, (dict, tuple, list)) and v == value):
                return said
        return None

    def validate(self, value: Any) -> None:
        """Raise ``ValueError`` naming the allowed values unless ``value`` is allowed."""
        if self.allowed is not None:
            # `True == 1` in Python: compare types too so `games=True` is refused.
            if not any(value == a and type(value) is type(a) for a in self.allowed):
                allowed = ", ".join(repr(a) for a in self.allowed)
                raise ValueError(f"{self.name}={_short(value)} is not allowed; allowed values: {allowed}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(f"{self.name}={_short(value)} is not allowed; {problem}")


@dataclass(frozen=True)
class Mode:
    """A way to play a game: its name and the player counts it allows.

    ``rule`` is the rule ID that sets the player counts (cited in the error).
    """

    name: str
    players: tuple[int, ...]
    doc: str = ""
    rule: str | None = None


@dataclass(frozen=True)
class Phase:
    """A phase and the action kinds it allows.

    An action whose kind is not listed is refused with core rule G2, unless
    ``refusals`` names a more specific rule for that kind (Depot refuses a leader's
    pass with D5.3): ``{kind: (rule, reason)}``.
    """

    name: str
    actions: tuple[str, ...]
    doc: str = ""
    refusals: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSpec:
    """The static facts of a game, declared once at the top of its module.

    ``version`` is raised whenever a rules change would alter recorded games;
    replays record it. ``max_actions(players, options)`` bounds the length of any
    game (the conformance tests hold every game to it). ``table`` is the name of the
    widget class (``cardwidgets.Depot``).
    """

    name: str
    title: str
    version: int
    modes: tuple[Mode, ...]
    options: tuple[Option, ...]
    phases: tuple[Phase, ...]
    table: str
    summary: str = ""
    max_actions: Callable[[int, Mapping[str, Any]], int] | None = None
    #: Event kinds after which a table waits for the viewer before bots go on
    #: (a game's or a round's end, so a person can read the scores).
    pauses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: an option is declared twice")
        modes = {m.name for m in self.modes}
        for o in self.options:
            if o.modes is not None and not set(o.modes) <= modes:
                raise ValueError(f"{self.name}: option {o.name} names an unknown mode")
        object.__setattr__(self, "_phase_map", {p.name: p for p in self.phases})
        object.__setattr__(self, "_option_map", {o.name: o for o in self.options})
        # Simulations start thousands of games with no options: resolve those once.
        object.__setattr__(self, "_defaults_cache", {})

    # ------------------------------------------------------------------ reading
    @property
    def default_mode(self) -> str:
        return self.modes[0].name

    def mode(self, name: str | None = None) -> Mode:
        """The mode called ``name`` (the first declared one for ``None``)."""
        if name is None:
            return self.modes[0]
        for m in self.modes:
            if m.name == name:
                return m
        # A value of one option given as a mode (Yadokarick's card_set="advanced"): point at it.
        owners = [o.name for o in self.options if isinstance(name, str) and name in (o.allowed or ())]
        hint = f"; {name!r} is a value of the option {owners[0]}: use {owners[0]}={name!r}" if len(owners) == 1 else ""
        raise ValueError(f"mode={_short(name)} is not allowed in {self.title}; allowed values: "
                         f"{self._modes_text()}{hint}")

    def _modes_text(self) -> str:
        """``'standard' for 3–7 players, 'duo' for 2 players``: what each mode accepts."""
        def counts(m: Mode) -> str:
            p = m.players
            run = len(p) > 2 and list(p) == list(range(p[0], p[-1] + 1))
            text = f"{p[0]}–{p[-1]}" if run else " or ".join(map(str, p))
            return f"{text} player{'' if p == (1,) else 's'}"
        return ", ".join(f"{m.name!r} for {counts(m)}" for m in self.modes)

    def phase(self, name: str) -> Phase | None:
        return self._phase_map.get(name)  # type: ignore[attr-defined]

    def option(self, name: str) -> Option:
        return self._option_map[name]  # type: ignore[attr-defined]

    def options_for(self, mode: str) -> tuple[Option, ...]:
        """The options that apply to ``mode``."""
        return tuple(o for o in self.options if o.modes is None or mode in o.modes)

    def defaults(self, mode: str | None = None) -> dict[str, Any]:
        return {o.name: o.default for o in self.options_for(self.mode(mode).name)}

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every player count of every mode, ascending."""
        return tuple(sorted({n for m in self.modes for n in m.players}))

    # ------------------------------------------------------------------ validation
    def check_players(self, players: Any, mode: Mode) -> int:
        if isinstance(players, bool) or not isinstance(players, int) or players not in mode.players:
            allowed = ", ".join(map(str, mode.players))
            where = self.title if len(self.modes) == 1 else f"{self.title} mode {mode.name!r}"
            rule = f" (rule {mode.rule})" if mode.rule else ""
            other = [m for m in self.modes if players in m.players and m is not mode] \
                if isinstance(players, int) and not isinstance(players, bool) else []
            hint = ""
            if len(self.modes) > 1:  # another mode may take this count: say which (Yadokarick's duo, solo)
                use = f"; for {players} player{'' if players == 1 else 's'} use mode={other[0].name!r}" if other else ""
                hint = f"{use} (the modes: {self._modes_text()})"
            raise ValueError(f"players={_short(players)} is not allowed in {where}{hint}; allowed values: "
                             f"{allowed}{rule}")
        return players

    def resolve(self, players: Any, mode: str | None, given: Mapping[str, Any]) -> tuple[str, int, dict[str, Any]]:
        """``(mode, players, options)`` with defaults filled in and every value validated.

        An unknown option is a ``TypeError``; a bad value, a player count the mode
        does not allow, or an option that does not apply to the mode, a ``ValueError``.
        ``mode`` may also come among the options (``new_game(mode="standard")`` of a game
        with one mode).
        """
        if "mode" in given and "mode" not in self._option_map:  # type: ignore[attr-defined]
            given = dict(given)
            named = given.pop("mode")
            if mode is not None and named != mode:
                raise ValueError(f"mode given twice: {mode!r} and {named!r}")
            mode = named
        if not given and type(players) is int:
            key = (players, mode)
            hit = self._defaults_cache.get(key)  # type: ignore[attr-defined]
            if hit is None:
                hit = self._defaults_cache[key] = self._resolve(players, mode, given)  # type: ignore[attr-defined]
            return hit[0], hit[1], dict(hit[2])
        return self._resolve(players, mode, given)

    def _resolve(self, players: Any, mode: str | None, given: Mapping[str, Any]) -> tuple[str, int, dict[str, Any]]:
        m = self.mode(mode)
        unknown = sorted(set(given) - set(self._option_map))  # type: ignore[attr-defined]
        if unknown:
            raise TypeError(f"{self.name}: unknown option(s) {', '.join(unknown)}; "
                            f"known options: {', '.join(o.name for o in self.options)}")
        n = self.check_players(players, m)
        out: dict[str, Any] = {}
        for opt in self.options:
            applies = opt.modes is None or m.name in opt.modes
            if not applies:
                if opt.name in given:
                    raise ValueError(f"{opt.name} does not apply to mode {m.name!r}; it applies to: "
                                     + ", ".join(repr(x) for x in opt.modes or ()))
                continue
            value = given.get(opt.name, opt.default)
            opt.validate(value)
            out[opt.name] = opt.normalize(value) if opt.normalize else value
        return m.name, n, out

    def non_defaults(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that differ from their defaults (what a replay records)."""
        out = {}
        for name, value in options.items():
            opt = self._option_map.get(name)  # type: ignore[attr-defined]
            if opt is None or not _same(value, opt.normalize(opt.default) if opt.normalize else opt.default):
                out[name] = value
        return out


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, so a huge bad value never floods an error."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- checks
def json_safe(value: Any) -> Any:
    """Options as JSON would give them back (dict keys become strings, tuples lists)."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [json_safe(v) for v in items]
    return value


def int_range(lo: int, hi: int | None = None) -> Callable[[Any], str | None]:
    """A check for an int in ``[lo, hi]`` (``hi=None``: no upper bound)."""

    def check(value: Any) -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo
        if ok and (hi is None or value <= hi):
            return None
        return f"allowed values: an int from {lo}" + (f" to {hi}" if hi is not None else " up")

    check.bounds = (lo, hi)  # type: ignore[attr-defined]  # a form's number field reads them
    return check


def int_table_problem(table: Mapping[Any, Any], key: Callable[[Any], Hashable | None], lo: int, hi: int, *,
                      not_key: str, twice: str, bad: str) -> str | None:
    """What is wrong with a table ``{key: int in [lo, hi]}`` (card counts, sizes ...), or ``None``.

    ``key`` reads a key as the game's own (``None``: not one); two keys that read the same are
    refused. The messages are templates: ``not_key`` gets ``{raw}`` (the key as given), ``twice``
    gets ``{key}`` (as read), ``bad`` gets both and ``{value}``.

    >>> int_table_problem({"1": 2, 1: 3}, lambda k: int(k), 0, 9, not_key="{raw}?", twice="{key} twice",
    ...                   bad="{raw}: {value}")
    '1 twice'
    """
    seen = set()
    for k, n in table.items():
        name = key(k)
        if name is None:
            return not_key.format(raw=show(k, 20))
        if name in seen:
            return twice.format(key=name)
        seen.add(name)
        if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            return bad.format(key=name, raw=show(k, 20), value=show(n, 20))
    return None


def optional(check: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
    """Allow ``None`` besides what ``check`` allows."""

    def inner(value: Any) -> str | None:
        if value is None:
            return None
        problem = check(value)
        return problem and problem + " (or None)"

    inner.bounds = getattr(check, "bounds", None)  # type: ignore[attr-defined]
    inner.optional = True  # type: ignore[attr-defined]
    return inner


def seat_or_none(most: int) -> Callable[[Any], str | None]:
    """A check for a seat number ``0..most`` or ``None`` (the game picks the seat, such as the last)."""
    check = optional(int_range(0, most))
    check.seats = most + 1  # type: ignore[attr-defined]  # a form offers the seats of the table
    return check


def seat_or_random(most: int) -> Callable[[Any], str | None]:
    """A check for a seat number ``0..most`` or ``"random"`` (which seat deals, leads ...).
    Whether the seat exists at the chosen player count is checked when the game is built."""

    def check(value: Any) -> str | None:
        if value == "random" or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most):
            return None
        return "allowed values: a seat number 0..players-1, or 'random'"

    check.seats = most + 1  # type: ignore[attr-defined]  # a form offers the seats of the table
    return check


# --------------------------------------------------------------------------- the form in words
#: Seat letters, as tables and the app name the seats.
SEAT_LETTERS = "ABCDEFGH"


def option_form(game: "str | GameSpec", mode: str | None = None, players: int | None = None, *,
                rule_base: str = "") -> list[dict[str, Any]]:
    """The rules options of ``game`` in ``mode`` as a form in words: one JSON-safe dict each.

    The app's chooser and the static site's both build their form from it, so an option is
    described once, on its game's ``SPEC``. The entries come grouped (:data:`OPTION_GROUPS`
    order, then as declared); each holds

    - ``name``, ``label``, ``help``, ``group``: the keyword, its name in words, one line of
      help, what it changes;
    - ``input``: ``"choice"`` (pick one of ``choices``, each ``{"value", "label"}``; a seat
      option offers the seats of ``players``, else of the mode's largest table),
      ``"number"`` (a whole number from ``min`` to ``max``, ``None`` when unbounded;
      ``optional``: an empty field is allowed), ``"text"`` (typed, read as JSON when it
      reads as JSON) or ``"fixed"`` (a table of numbers: set from code only);
    - ``accepts``: what the field takes, in words (empty for a choice);
    - ``default`` (JSON-safe) and ``default_label``, the default in words;
    - ``rule``, ``rule_title`` and ``rule_url`` (``cardwidgets.rules.url`` from ``rule_base``).

    >>> form = option_form("depot", players=3)
    >>> first = form[0]
    >>> first["label"], first["input"], [c["label"] for c in first["choices"]], first["default_label"]
    ('Who leads the first round', 'choice', ['Seat A', 'Seat B', 'Seat C', 'A random seat'], 'Seat A')
    >>> first["rule"], first["rule_url"]
    ('D2.5', 'rules/depot.html#D2.5')
    """
    # The rules reference is a layer above the core: it comes through core's registry (the
    # package root registers it), read when a form is asked for, never when a game loads.
    from .registry import game_spec, provider

    lookup, url = provider("rule"), provider("rule_url")

    spec = game_spec(game) if isinstance(game, str) else game
    m = spec.mode(mode)
    if players is not None:
        spec.check_players(players, m)
    seats_at = players if players is not None else max(m.players)
    order = {g: i for i, g in enumerate(OPTION_GROUPS)}
    out = []
    for opt in sorted(spec.options_for(m.name), key=lambda o: order.get(o.group, len(order))):
        rule = lookup(opt.rule, spec.name) if opt.rule else None
        entry: dict[str, Any] = {
            "name": opt.name, "label": opt.label or opt.name, "help": opt.help or opt.doc,
            "group": opt.group or OPTION_GROUPS[-1], "input": "text", "accepts": opt.accepts,
            "default": json_safe(opt.default), "default_label": opt.words(opt.default),
            "rule": rule.id if rule else None, "rule_title": rule.title if rule else None,
            "rule_url": url(rule.id, spec.name, base=rule_base) if rule else None,
        }
        seats = getattr(opt.check, "seats", None)
        bounds = getattr(opt.check, "bounds", None)
        if opt.allowed is not None or seats:
            allowed = opt.allowed if opt.allowed is not None else \
                (*range(min(seats, seats_at)), *(v for v, _ in opt.values if not isinstance(v, int)))
            choices = [{"value": json_safe(v),
                        "label": opt.words(v) or (f"Seat {SEAT_LETTERS[v]}" if seats and isinstance(v, int)
                                                  else str(v))} for v in allowed]
            entry.update(input="choice", choices=choices, accepts="")
            entry["default_label"] = next(c["label"] for c in choices if _same(c["value"], opt.default))
        elif bounds is not None:
            entry.update(input="number", min=bounds[0], max=bounds[1], optional=bool(getattr(opt.check, "optional", False)))
        elif not isinstance(opt.default, (bool, int, float, str, type(None))):
            entry["input"] = "fixed"
        if entry["default_label"] is None:
            entry["default_label"] = str(opt.default)
        out.append(entry)
    return out


# ---------------------------------------------------------------- values written as text
# The command line's --option NAME=VALUE and --seat, and a static site's link, read them alike.
def option_value(raw: str) -> Any:
    """A rule option's value as ``--option NAME=VALUE`` (and a static site's link) reads it:
    JSON when it reads as JSON (``3``, ``true``, ``[30]``), else the text itself, so that
    ``shot_resume=after_target`` needs no quotes."""
    try:
        return json.loads(raw)
    except RecursionError:  # "[[[[...": no value of a game's option is nested that deep
        raise ValueError("the value is nested too deeply to read") from None
    except ValueError:
        return raw


def seat_number(text: str, players: int) -> int:
    """A seat written as ``--seat`` (and a static site's link) takes it: ``0``, ``1`` ... or ``A``,
    ``B`` ...; ``ValueError`` naming the game's seats for any other text."""
    t = text.strip().upper()
    seat: int | None = None
    # isascii: "²" and other Unicode digits pass isdigit but are no number int() reads; a number of
    # more than a few digits is no seat (and int() refuses 4,300 digits and more with its own message)
    if t.isascii() and t.isdigit():
        digits = t.lstrip("0") or "0"
        seat = int(digits) if len(digits) <= 3 else players
    elif len(t) == 1 and "A" <= t <= "Z":
        seat = ord(t) - ord("A")
    if seat is None or not 0 <= seat < players:
        last = chr(ord("A") + players - 1)
        raise ValueError(f"this game has seats 0-{players - 1} (A-{last})")
    return seat
