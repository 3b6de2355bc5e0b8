"""The typed result of a finished game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winners`` is a tuple of seats (empty for an aborted game), ``scores`` one
    number per seat whose meaning each game documents, ``reason`` a sentence.
    """

    winners: tuple[int, ...]
    scores: tuple[Any, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}
