"""Errors raised by the engines.

Both are ``ValueError`` subclasses split by cause, as in python-chess: the text did
not parse (:class:`InvalidActionError`) or the action is well formed but not allowed
now (:class:`IllegalActionError`, which names the rule it breaks).

Core rule IDs, for refusals no game rule covers:

* ``G1`` the game is over;
* ``G2`` the action does not exist in this phase;
* ``G3`` the seat is not the one to act.
"""

from __future__ import annotations

import re
from typing import Any

#: Longest action text any game reads; longer text is refused before parsing, so
#: no input can make a parser work for long.
MAX_ACTION_TEXT = 200

CORE_RULES = {
    "G1": "the game is over",
    "G2": "this action does not exist in the current phase",
    "G3": "it is not this seat's turn",
    "G5": "a line dealt again for one player is for that player alone",
}


class InvalidActionError(ValueError):
    """The action text (or object) is malformed: it is not an action of this game."""


class SamplingLimitError(RuntimeError):
    """``sample_world`` gave up: dealing the unseen cards again so that they fit everything
    the seat saw took longer than its search may (a round of very many reshuffles). Nothing
    changed; a search bot then plays without searching, a move in the past is not made."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now.

    Attributes
    ----------
    rule:
        The rule ID that forbids it, e.g. ``"D4.7"`` (``cardwidgets.rules.lookup``
        explains it), or a core ID ``G1``–``G5``.
    reason:
        Plain words with the concrete numbers of the position.
    action:
        The refused action (object), when known.
    """

    def __init__(self, rule: str, reason: str, action: object = None) -> None:
        self.rule = rule
        self.reason = reason
        self.action = action
        super().__init__(f"Illegal: rule {rule} — {reason}")


def quote(text: str, limit: int = 40) -> str:
    """``repr(text)`` cut to ``limit`` characters, for error messages about user input."""
    r = repr(text)
    return r if len(r) <= limit else r[: limit - 2] + "…" + r[0]


def show(value: object, limit: int = 40) -> str:
    """A short ``repr`` of any value from outside, for error messages: never huge, never raises."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an int of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        r = repr(value)
    except Exception:  # a hostile __repr__, or an int too long to print
        return f"<{type(value).__name__}>"
    return r if len(r) <= limit else r[: limit - 1] + "…"


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: Any) -> bool:
    """Whether any text in a JSON-like value (nested dicts, lists, tuples) holds a lone surrogate:
    JSON's ``"\\ud800"`` escape with no pair parses into a string that UTF-8 cannot encode, so
    kept anywhere it stops a later save, export or message to the page."""
    stack = [value]  # no recursion: a value built in code may be nested deeper than Python allows
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return True
        elif isinstance(v, dict):
            stack += v.keys()
            stack += v.values()
        elif isinstance(v, (list, tuple)):
            stack += v
    return False
