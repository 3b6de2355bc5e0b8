"""Reading and writing Yadokarick positions as text: the parts every mode shares.

The grammar is in the rules reference ("Position text"). Each mode's state class
writes its fields (``_position_fields``) and reads them (``_load_position``) with
the helpers here: card lists with an unknown part (``G5,?9``), cards claimed once
each (card conservation, with the column of a card placed twice), the unknown parts
dealt from the cards placed nowhere, and consistency errors of the loaded state
(:class:`~cardwidgets.games.yadokarick.cards.LoadError`) turned into position errors
at the column of the field they name.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from ...core.errors import show
from ...core.position import Parsed, PositionError, Value, cards_text, deal_unknown
from ...core.state import plural
from .cards import NAME, LoadError, card_id, listing, parse_action

#: ``unknown`` of a card list without a ``?`` part.
NONE = 0


def write_cards(cards: Iterable[int]) -> str:
    """Card ids as position text: ``G25,P8``, ``-`` when there are none."""
    return cards_text(cards, NAME.__getitem__)


def write_lists(lists: Iterable[Iterable[int]]) -> str:
    return "/".join(write_cards(x) for x in lists)


def write_action(action: Any) -> str:
    """An action's notation without spaces (``play_G25``, ``move_left``)."""
    return str(action).replace(" ", "_")


class Reader:
    """Reads the fields of one position, claims each card once, remembers columns for errors."""

    def __init__(self, parsed: Parsed, cards: Sequence[int], why: str) -> None:
        self.parsed = parsed
        self.allowed = set(cards)
        self.cards = cards
        self.why = why
        self.where: dict[int, int] = {}
        self.values: dict[str, Value] = {}

    def take(self, key: str, default: str | None = None) -> Value:
        v = self.parsed.take(key, default)
        self.values[key] = v
        return v

    def card_list(self, v: Value, unknown_ok: bool = False) -> tuple[list[int], int | None]:
        """Cards joined by ``,`` (``-``: none), optionally ending with ``?N`` (N unknown cards) or
        ``?`` (as many as the position needs): ``(known cards, N or None or NONE)``."""
        if v.text == "-":
            return [], NONE
        out: list[int] = []
        unknown: int | None = NONE
        parts = v.split(",")
        for i, part in enumerate(parts):
            t = part.text
            if t.startswith("?"):
                if not unknown_ok:
                    raise part.error("the cards here are public: they cannot be written '?'")
                if i != len(parts) - 1:
                    raise part.error("an unknown part '?' comes last in its list")
                unknown = part.unknown_count()
                continue
            c = card_id(t) if t and len(t) <= 4 else None
            if c is None:
                raise part.error(f"{show(t, 20)} is not a card (G1-G36, P1-P36)")
            if c not in self.allowed:
                raise part.error(f"{NAME[c]} is not a card of this game ({self.why})")
            if c in self.where:
                raise part.error(f"{NAME[c]} is placed twice (also at column {self.where[c]})")
            self.where[c] = part.column
            out.append(c)
        return out, unknown

    def lists(self, v: Value, count: int, unknown_ok: bool = False) -> list[tuple[list[int], int | None, Value]]:
        """``count`` card lists separated by ``/``."""
        return [(*self.card_list(part, unknown_ok), part) for part in v.split("/", count)]

    def pool(self) -> list[int]:
        """The cards of the game placed nowhere yet, in card order."""
        return [c for c in self.cards if c not in self.where]

    def deal(self, state: Any, slots: list[tuple[Any, int | None]], at: Value,
             piles: Callable[[], object] | None = None) -> dict[Any, list[int]]:
        """Deal the cards placed nowhere to the unknown parts ``slots`` (card conservation).

        When they do not fit, ``piles`` (a check raising ``LoadError``) may explain why better:
        cards missing from the piles of the tricks over are the usual reason a count is off."""
        pool = self.pool()
        try:
            if not slots and pool:
                raise at.error(f"{listing(pool)} {'is' if len(pool) == 1 else 'are'} placed nowhere: write "
                               f"{'it' if len(pool) == 1 else 'them'} somewhere, or '?' where the cards are unknown")
            return dict(deal_unknown(state, slots, pool, at))
        except PositionError:
            if piles is not None:
                try:
                    piles()
                except LoadError as e:
                    raise self.blame(e) from None
            raise

    def seat_and(self, v: Value, labels: Sequence[str]) -> tuple[int, Value]:
        """``<label>:<rest>``: the index of the label and the rest."""
        label, sep, _ = v.text.partition(":")
        if not sep or label not in labels:
            raise v.error(f"expected {'/'.join(labels)} then ':' (such as {labels[0]}:...), got {show(v.text, 20)}")
        return labels.index(label), Value(v.text[len(label) + 1:], v.column + len(label) + 1, v.key)

    def action(self, v: Value, labels: Sequence[str] | None) -> tuple[int | None, Any]:
        """``last_action``: ``<label>:<action, spaces written _>`` (no label in solo)."""
        who, rest = (None, v) if labels is None else self.seat_and(v, labels)
        try:
            return who, parse_action(rest.text.replace("_", " "))
        except ValueError as e:
            raise rest.error(str(e)) from None

    def blame(self, error: LoadError) -> PositionError:
        """A consistency error of the loaded state, at the column of the field it names."""
        v = self.values.get(error.key)
        if v is None:
            return PositionError(error.reason, field=error.key)
        return PositionError(error.reason, column=v.column, field=error.key)

    def check(self, state: Any) -> None:
        """Refuse unknown fields, then run the state's checks with their errors at a column: those
        of every loaded state (``_check_loaded``), then those of position text only
        (``_check_reachable``: the piles add up to what the rules allow by this point of the game).
        A hand-built scenario (``setup_position``) and its saved states may set cards aside at will,
        so only text is held to the second."""
        self.parsed.fields.finish()
        try:
            state._derive()
            state._check_loaded()
            state._check_reachable()
        except LoadError as e:
            raise self.blame(e) from None


def part_size(v: Value, known: int, unknown: int | None, want: int, why: str) -> int | None:
    """Check a part whose size the rules fix at ``want`` cards (``why`` says which rules): it holds
    no more, and with ``?N`` exactly as many. Returns ``unknown``: a bare ``?`` (``None``) still
    takes every card placed nowhere, a part too short with no ``?`` leaves cards placed nowhere
    (an error that names them), and the state's reachability checks then find any pile that
    does not add up."""
    written = known + (unknown or 0)
    if written > want or (unknown not in (None, 0) and written != want):
        raise v.error(f"{why}; {plural(written, 'card')} {'is' if written == 1 else 'are'} written here")
    return unknown


def option_error(parsed: Parsed, error: ValueError) -> PositionError:
    """An error about the options, at the column of the option it names."""
    text = str(error)
    key = next((k for k in sorted(parsed.columns, key=len, reverse=True) if text.startswith(k)), None)
    return PositionError(text, column=parsed.columns.get(key) if key else None, field=key)
