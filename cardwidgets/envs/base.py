"""What every game's RL adapter builds on: the observation layout, the encoder, the
small writers of an observation vector, the resolved configuration and the
:class:`GameAdapter` a game subclasses (in ``cardwidgets.envs._<game>``, one module per
registered game). Standard library only; it imports no game and no other adapter module.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Callable, Sequence


# --------------------------------------------------------------------------- observation layout
class Layout:
    """The observation vector's named parts, each with its bounds (declared once per
    configuration; the encoders write into a list of this size).

    >>> lay = Layout()
    >>> lay.add("phase", 3), lay.add("round", 1, 0, 20), lay.size, lay.high
    (0, 3, 4, [1.0, 1.0, 1.0, 20.0])
    """

    def __init__(self) -> None:
        self.size = 0
        self.low: list[float] = []
        self.high: list[float] = []
        #: ``(name, offset, size)`` of every part, in order.
        self.parts: list[tuple[str, int, int]] = []
        self._zeros = array("f")

    def add(self, name: str, size: int = 1, low: float = 0.0, high: float = 1.0) -> int:
        """Append a part of ``size`` numbers in ``[low, high]``; returns its offset."""
        if size < 0 or low > high:
            raise ValueError(f"bad part {name!r}: size {size}, bounds [{low}, {high}]")
        off = self.size
        self.parts.append((name, off, size))
        self.low += [float(low)] * size
        self.high += [float(high)] * size
        self.size += size
        return off

    def zeros(self) -> array:
        """A new observation of zeros (float32, so a framework takes it without copying)."""
        if len(self._zeros) != self.size:
            self._zeros = array("f", bytes(4 * self.size))
        return self._zeros[:]

    def part(self, name: str) -> tuple[int, int]:
        """``(offset, size)`` of a named part."""
        for n, off, size in self.parts:
            if n == name:
                return off, size
        raise KeyError(name)


class Encoder:
    """The observation of one configuration: :meth:`encode` turns ``view(seat)`` into a
    float32 array of ``layout.size`` numbers. Per-seat quantities are rotated so that index 0 is
    the observing seat, index 1 the next seat clockwise, and so on."""

    layout: Layout

    def encode(self, view: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        """The numbers of ``view`` (and of ``prefix``, the items the seat has chosen of a
        pending combinatorial action)."""
        raise NotImplementedError


def rel(seat: int | None, me: int, n: int) -> int | None:
    """``seat`` counted clockwise from ``me`` (``None`` stays ``None``)."""
    return None if seat is None else (seat - me) % n


def hot(x: array, off: int, i: int | None) -> None:
    """Set the one-hot position ``i`` of the part at ``off`` (nothing for ``None``)."""
    if i is not None:
        x[off + i] = 1.0


def count(x: array, off: int, items: Sequence[Any], index: dict[Any, int], value: float = 1.0) -> None:
    """Add ``value`` at each item's index (a card count vector, or card bits)."""
    for it in items:
        x[off + index[it]] += value


def per_seat(x: array, off: int, values: Sequence[Any], me: int, scale: Callable[[Any], float] = float) -> None:
    """Per-seat numbers, rotated to the observer."""
    n = len(values)
    for s, v in enumerate(values):
        if v is not None:
            x[off + (s - me) % n] = scale(v)


# --------------------------------------------------------------------------- per-game knowledge
@dataclass(frozen=True)
class Config:
    """A resolved configuration as the per-game adapters read it."""

    game: str
    mode: str
    players: int
    options: dict[str, Any]
    #: ``view(0)`` of a freshly set-up game (what is in use: cards, sizes ...).
    start: dict[str, Any]
    #: ``SPEC.max_actions`` of the configuration: the engine's bound on a game's length.
    max_actions: int


class GameAdapter:
    """What the adapters know about one game (a subclass per game, in this package)."""

    def actions(self, cfg: Config) -> list[str]:
        """Every action string the game can ever have in this configuration, in a fixed
        order (the env's action indices); combinatorial actions as their items."""
        raise NotImplementedError

    def encoder(self, cfg: Config) -> Encoder:
        raise NotImplementedError

    #: Whether some action of the game is offered item by item (then :meth:`items` is asked).
    combinatorial = False

    def items(self, action: Any) -> tuple[str, ...] | None:
        """The items of a combinatorial action object (offered one at a time), else ``None``."""
        return None

    def item_name(self, item: str) -> str:
        """The action string offering ``item`` next."""
        raise NotImplementedError

    def item_of(self, name: str) -> str | None:
        """The item an action string offers next, if it is such a string."""
        return None

    def sequence_text(self, items: tuple[str, ...]) -> str:
        """The notation of the combinatorial action made of ``items`` (complete or not)."""
        raise NotImplementedError

    def extra_steps(self, cfg: Config) -> int:
        """A bound on the steps that combinatorial actions add to a game."""
        return 0

    def score_bounds(self, cfg: Config) -> tuple[float, float]:
        """Bounds of the score of a one-player game (its reward)."""
        raise NotImplementedError(f"{cfg.game} has no one-player mode")
