"""Replay files: a game is its options, seed, optional deck order and action list.

The format (JSON, one action per line so that diffs and error lines are readable)::

    {"format": "cardwidgets-replay", "version": 1, "game": "depot",
     "options": {"players": 4, "games": 3}, "seed": 7, "deck": null,
     "actions": [
      "play 5",
      "pass take 3"
     ],
     "notes": {"1": "B could have played 6 here"}}

Loading validates everything and reports the **first** problem with its line in the
file: a JSON syntax error, a missing field, or the first action that does not parse
or is illegal (with its index and rule ID).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import registry
from .errors import IllegalActionError, InvalidActionError
from .state import State

FORMAT = "cardwidgets-replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay file or record that cannot be loaded.

    ``line`` (1-based, in the file; ``None`` when not from text), ``index`` (of the bad
    action, or ``None``) and ``rule`` (when an action was illegal) locate the problem.
    """

    def __init__(self, message: str, *, line: int | None = None, index: int | None = None,
                 rule: str | None = None) -> None:
        self.line, self.index, self.rule = line, index, rule
        where = f"line {line}: " if line is not None else ""
        super().__init__(where + message)


@dataclass
class Replay:
    """A reproducible game record. ``Replay.from_state(st).build()`` equals ``st``."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    deck: list[Any] | None = None
    notes: dict[int, str] = field(default_factory=dict)
    _lines: list[int] | None = field(default=None, repr=False, compare=False)
    _text: str | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_state(cls, state: State, notes: dict[int, str] | None = None) -> "Replay":
        return cls(
            game=state.game,
            options={"players": state.players, **_json_safe(state.options)},
            seed=state.seed,
            actions=[str(a) for a in state.history],
            deck=None if state.deck_order is None else list(state.deck_order),
            notes=dict(notes or {}),
        )

    def new_state(self) -> State:
        """The state before any action."""
        kwargs = dict(self.options)
        if self.deck is not None:
            kwargs["deck"] = list(self.deck)
        try:
            return registry.game_module(self.game).new_game(seed=self.seed, **kwargs)
        except (TypeError, ValueError) as e:
            raise ReplayError(f"cannot set up the game: {e}", line=self._line_of_key("options")) from e

    def states(self) -> Iterator[State]:
        """The initial state, then a copy after every action."""
        st = self.new_state()
        yield st.clone()
        for i, text in enumerate(self.actions):
            self._apply(st, i, text)
            yield st.clone()

    def build(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default)."""
        st = self.new_state()
        for i, text in enumerate(self.actions[:upto]):
            self._apply(st, i, text)
        return st

    def _apply(self, st: State, i: int, text: Any) -> list:
        line = self._lines[i] if self._lines and i < len(self._lines) else None
        if not isinstance(text, str):
            raise ReplayError(f"action #{i} is {text!r}, not action text", line=line, index=i)
        try:
            return st.apply(text)
        except InvalidActionError as e:
            raise ReplayError(f"action #{i} {text!r} is malformed: {e}", line=line, index=i) from e
        except IllegalActionError as e:
            raise ReplayError(f"action #{i} {text!r}: {e}", line=line, index=i, rule=e.rule) from e

    # ------------------------------------------------------------------ text
    def to_json(self) -> str:
        """Deterministic JSON text, one action per line."""
        head = {
            "format": FORMAT, "version": VERSION, "game": self.game,
            "options": self.options, "seed": self.seed, "deck": self.deck,
        }
        parts = [json.dumps(head, sort_keys=False)[:-1] + ","]
        if self.actions:
            parts.append(' "actions": [')
            parts.append(",\n".join("  " + json.dumps(a) for a in self.actions))
            parts.append(" ],")
        else:
            parts.append(' "actions": [],')
        notes = {str(k): v for k, v in sorted(self.notes.items())}
        parts.append(' "notes": ' + json.dumps(notes) + "}")
        return "\n".join(parts) + "\n"

    @classmethod
    def from_json(cls, text: str, *, validate: bool = True) -> "Replay":
        """Parse replay text; with ``validate`` also replay every action."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ReplayError(f"not valid JSON: {e.msg}", line=e.lineno) from e
        rep = cls._from_data(data, text)
        if validate:
            rep.build()
        return rep

    @classmethod
    def _from_data(cls, data: Any, text: str | None = None) -> "Replay":
        def bad(msg: str, key: str | None = None) -> ReplayError:
            line = _key_line(text, key) if text and key else (1 if text else None)
            return ReplayError(msg, line=line)

        if not isinstance(data, dict):
            raise bad("a replay is a JSON object")
        if data.get("format") != FORMAT:
            raise bad(f'"format" must be {FORMAT!r}, got {data.get("format")!r}', "format")
        if data.get("version") != VERSION:
            raise bad(f'unsupported "version" {data.get("version")!r}; this library reads version {VERSION}',
                      "version")
        game = data.get("game")
        if game not in registry.available_games():
            raise bad(f'unknown "game" {game!r}; available: {", ".join(registry.available_games())}', "game")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise bad('"options" must be an object', "options")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise bad(f'"seed" must be an integer, got {seed!r}', "seed")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise bad('"actions" must be a list of action strings', "actions")
        deck = data.get("deck")
        if deck is not None and not isinstance(deck, list):
            raise bad('"deck" must be a list of cards or null', "deck")
        notes_raw = data.get("notes", {}) or {}
        if not isinstance(notes_raw, dict):
            raise bad('"notes" must be an object {index: text}', "notes")
        notes = {}
        for k, v in notes_raw.items():
            if not str(k).isdigit() or not isinstance(v, str):
                raise bad(f'"notes" entry {k!r}: keys are action indexes, values text', "notes")
            notes[int(k)] = v
        rep = cls(game=game, options=options, seed=seed, actions=actions, deck=deck, notes=notes)
        rep._text = text
        rep._lines = _action_lines(text) if text else None
        return rep

    def _line_of_key(self, key: str) -> int | None:
        return _key_line(self._text, key) if self._text else None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, *, validate: bool = True) -> "Replay":
        return cls.from_json(Path(path).read_text(encoding="utf-8"), validate=validate)

    def fork(self, upto: int) -> "Replay":
        """A copy keeping only the first ``upto`` actions (and their notes)."""
        return Replay(self.game, dict(self.options), self.seed, list(self.actions[:upto]),
                      None if self.deck is None else list(self.deck),
                      {k: v for k, v in self.notes.items() if k < upto})


def _json_safe(value: Any) -> Any:
    """Options as JSON would give them back (dict keys become strings)."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def _key_line(text: str | None, key: str) -> int | None:
    if not text:
        return None
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _action_lines(text: str) -> list[int] | None:
    """Line of each element of the top-level "actions" array."""
    m = re.search(r'"actions"\s*:\s*\[', text)
    if not m:
        return None
    dec = json.JSONDecoder()
    pos, lines = m.end(), []
    ws = re.compile(r"[\s,]*")
    while True:
        pos = ws.match(text, pos).end()
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = dec.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines
