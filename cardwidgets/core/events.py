"""What happened: events returned by ``State.apply``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during an action.

    ``kind`` is a short machine name (``"play"``, ``"pass"``, ``"refill"``,
    ``"round_end"`` ...), ``data`` its JSON-safe details, ``rule`` the rule ID it
    follows, and ``text`` the narration a teacher would say, citing that rule.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None
    text: str = ""

    def __str__(self) -> str:
        return self.text
