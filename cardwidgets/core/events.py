"""What happened, and why an action is or is not allowed: events and explanations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during an action.

    ``kind`` is a short machine name (``"play"``, ``"pass"``, ``"refill"``,
    ``"round_end"`` ...), ``data`` its JSON-safe details, ``rule`` the rule ID it
    follows, ``text`` the narration a teacher would say, citing that rule.
    ``audience`` is ``None`` for a public event, else the seats that may see it: a
    private fact (a card given face down) is a private event plus a public one that
    says only what everyone saw.

    >>> e = Event("give", {"card": "Y3"}, "C5.5", "B gives C the Y3.", audience=(1, 2))
    >>> e.visible_to(1), e.visible_to(0), e.visible_to(None)
    (True, False, True)
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None
    text: str = ""
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` may see this event (``None``, the teacher, sees all)."""
        return self.audience is None or seat is None or seat in self.audience

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "rule": self.rule, "text": self.text,
                "audience": None if self.audience is None else list(self.audience)}

    def __str__(self) -> str:
        return self.text


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see, in order."""
    return [e for e in events if e.visible_to(seat)]


@dataclass(frozen=True)
class Explanation:
    """Whether an action is legal now, and why (``state.explain``).

    ``legal``; ``action`` (the parsed action, ``None`` if the text did not parse);
    ``rule`` (the rule ID that refuses it, ``None`` when legal or malformed);
    ``reason`` (plain words); ``effects`` (for a legal action: the events it would
    cause as its player would see them, up to the first step that depends on hidden
    cards). ``str()`` is the one-line sentence.
    """

    legal: bool
    action: Any
    rule: str | None
    reason: str
    effects: tuple[Event, ...] = ()

    def __str__(self) -> str:
        if self.legal:
            return f"Legal: {self.reason}"
        if self.rule is None:
            return f"Invalid: {self.reason}"
        return f"Illegal: rule {self.rule} — {self.reason}"

    def __bool__(self) -> bool:
        return self.legal


def ordinal(n: int) -> str:
    """A place as narration writes it: ``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '111th']
    """
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def number(v: int) -> str:
    """A number as narration writes it: a negative one with the minus sign (U+2212), as in
    "41 − 114 = −73", never a hyphen (card names such as cirno+neu's ``-10`` are notation
    and keep theirs).

    >>> number(-73), number(5)
    ('−73', '5')
    """
    return f"\u2212{-v}" if v < 0 else str(v)
