"""Declared game options: defaults and validation in one place.

Each game declares its options as data (``OPTIONS``, a tuple of :class:`Option`) at
the top of its module. :func:`resolve` turns keyword arguments into a complete,
validated mapping: an unknown name is a ``TypeError`` and a bad value a
``ValueError`` that lists what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping


@dataclass(frozen=True)
class Option:
    """One option: its name, default, and either a tuple of allowed values or a check.

    ``check`` returns ``None`` when the value is fine, else a description of what is
    allowed (used in the error message).
    """

    name: str
    default: Any
    allowed: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    doc: str = ""
    #: Turns an accepted value into its canonical form (e.g. JSON's string keys to ints).
    normalize: Callable[[Any], Any] | None = None

    def validate(self, value: Any) -> None:
        if self.allowed is not None:
            # `True == 1` in Python: compare types too so `games=True` is refused.
            if not any(value == a and type(value) is type(a) for a in self.allowed):
                allowed = ", ".join(repr(a) for a in self.allowed)
                raise ValueError(f"{self.name}={value!r} is not allowed; allowed values: {allowed}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(f"{self.name}={value!r} is not allowed; {problem}")


def resolve(options: Iterable[Option], given: Mapping[str, Any], game: str) -> dict[str, Any]:
    """Defaults overlaid with ``given``, every value validated."""
    table = {o.name: o for o in options}
    unknown = sorted(set(given) - set(table))
    if unknown:
        raise TypeError(
            f"{game}: unknown option(s) {', '.join(unknown)}; known options: {', '.join(table)}"
        )
    out = {}
    for name, opt in table.items():
        value = given.get(name, opt.default)
        opt.validate(value)
        out[name] = opt.normalize(value) if opt.normalize else value
    return out


def int_range(lo: int, hi: int | None = None) -> Callable[[Any], str | None]:
    """A check for an int in ``[lo, hi]`` (``hi=None``: no upper bound)."""

    def check(value: Any) -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo
        if ok and (hi is None or value <= hi):
            return None
        return f"allowed values: an int from {lo}" + (f" to {hi}" if hi is not None else " up")

    return check


def optional(check: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
    """Allow ``None`` besides what ``check`` allows."""

    def inner(value: Any) -> str | None:
        if value is None:
            return None
        problem = check(value)
        return problem and problem + " (or None)"

    return inner
