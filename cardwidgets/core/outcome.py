"""The typed result of a finished game."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Termination(str, Enum):
    """How a game ended: by its rules, or stopped by a safety cap."""

    NORMAL = "normal"
    ABORTED = "aborted"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winners`` is a tuple of seats (several for a shared win, empty for an aborted
    game), ``scores`` one number per seat whose meaning each game documents,
    ``reason`` a sentence citing the rule, ``termination`` a :class:`Termination`.
    """

    winners: tuple[int, ...]
    scores: tuple[Any, ...]
    reason: str
    termination: Termination = Termination.NORMAL

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason,
                "termination": self.termination.value}
