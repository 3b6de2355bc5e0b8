"""The solo puzzle (Y14): four crabs A–D, a row of 5 cards, two hidden decks.

Each turn places a row card on a crab (colours and numbers permitting) or gives a
crab up; placing refills the row (you choose the deck for each card unless only
one has cards) and each draw may offer a consecutive-number bonus. The game ends
when both decks are empty and no crab can be finished with the row cards alone.

>>> from cardwidgets.games.yadokarick import new_game
>>> st = new_game(players=1, mode="solo", seed=2)
>>> st.phase, [str(a) for a in st.legal_actions()]
('setup', ['draw green', 'draw pink'])
>>> for _ in range(5):
...     _ = st.apply("draw green")
>>> st.phase, len(st.row), st.deck_counts
('turn', 5, (30, 35))
>>> action, why = st.hint()
>>> st.is_legal(action)
True
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Sequence

from ...core import Event, Field, Outcome, State, number, plural
from ...core.errors import show
from ...core.position import Parsed
from .position import Reader, write_action, write_cards, write_lists
from .cards import (ACTION_TYPES, CRABS, DECLINE, DRAW, GIVEUP, NAME, NUMBER, PLACE, ROW, ROW_SIZE, TAKE, Decline,
                    Draw, GiveUp, LoadError, Place, Take, card_id, check_flag, check_record, config, decode_cards,
                    decode_lists, encode_lists, listing, names, parse_action, small_int)
from .spec import SPEC

_EMPTY = 144  # the index of "no card" in the acceptance tables


def _accept_tables(nonstrict: bool) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """``ACC[k][key][c]``: the action placing card ``c`` on crab ``k`` if that is allowed, else
    ``None``. ``key`` is ``2 * ref + roof`` (``ref`` the card the new one touches: the top, or
    the bottom in roof mode), or ``_EMPTY`` for an empty crab (Y14.5–Y14.7)."""
    out = []
    for k in range(4):
        rows = []
        for key in range(_EMPTY + 1):
            row: list[Any] = []
            for c in range(72):
                col = c & 1
                if (k == 0 and col) or (k == 3 and not col):
                    ok = False
                elif key == _EMPTY:
                    ok = True
                else:
                    ref, roof = key >> 1, key & 1
                    if k in (1, 2) and (ref & 1) == col:
                        ok = False
                    elif roof:
                        ok = c >> 1 >= ref >> 1 if nonstrict else c >> 1 > ref >> 1
                    else:
                        ok = c >> 1 <= ref >> 1
                row.append(PLACE[c][k] if ok else None)
            rows.append(tuple(row))
        out.append(tuple(rows))
    return tuple(out)


_ACC = {True: _accept_tables(True), False: _accept_tables(False)}


_PA, _PB, _PC, _PD = (tuple(PLACE[c][k] for c in range(72)) for k in range(4))
_GA, _GB, _GC, _GD = GIVEUP
_DG, _DP = DRAW
_TURNED = ("the top card of the green deck is turned over", "the top card of the pink deck is turned over")


def _key(stack: Sequence[int], roof: bool) -> int:
    if not stack:
        return _EMPTY
    return 2 * stack[0] + 1 if roof else 2 * stack[-1]


def can_finish(k: int, stack: Sequence[int], roof: bool, row: Sequence[int], complete: int,
               roofs: Sequence[bool], nonstrict: bool = True) -> bool:
    """Can crab ``k`` reach ``complete`` cards by legal placements of row cards alone? (Y14.13)

    A depth-first search over the orders of the row cards, following the crab's
    top and bottom card and its roof mode (a roof placed on top switches the crab to
    bottom insertion, Y14.7). Placements on other crabs never help, so crabs are
    checked one at a time.

    >>> g = lambda *cs: [card_id(c) for c in cs]
    >>> from cardwidgets.games.yadokarick.cards import size_tables
    >>> roofs = size_tables({})[1]
    >>> can_finish(3, g("P36", "P34", "P32", "P28", "P24", "P12"), False, g("P5", "G2"), 7, roofs)
    True
    >>> can_finish(3, g("P36", "P34", "P32", "P28", "P24", "P12"), False, g("P14", "G2"), 7, roofs)
    False
    """
    need = complete - len(stack)
    if need <= 0:
        return True
    if need > len(row):
        return False
    acc = _ACC[nonstrict][k]
    top = stack[-1] if stack else -1
    bottom = stack[0] if stack else -1
    return _dfs(acc, roofs, bool(stack), roof, top, bottom, list(row), need)


def _dfs(acc: Any, roofs: Sequence[bool], filled: bool, roof: bool, top: int, bottom: int, avail: list[int],
         need: int) -> bool:
    table = acc[(2 * bottom + 1 if roof else 2 * top) if filled else _EMPTY]
    for i, c in enumerate(avail):
        if not table[c]:
            continue
        if need == 1:
            return True
        rest = avail[:i] + avail[i + 1:]
        if not filled:
            t, b = c, c
        elif roof:
            t, b = top, c
        else:
            t, b = c, bottom
        if _dfs(acc, roofs, True, roof or roofs[c], t, b, rest, need - 1):
            return True
    return False


def _enc_decks(decks: list[list[int]]) -> list[list[str]]:
    return [names(d[::-1]) for d in decks]


def _dec_decks(value: Any) -> list[list[int]]:
    return [d[::-1] for d in decode_lists(value, "decks")]


class SoloState(State):
    """A solo game (Y14). Build it with ``new_game(players=1, mode="solo")``.

    The player is seat 0. Zones: the two decks (hidden, top card last inside), the
    row, the crabs A–D (each a stack listed bottom to top), the score pile (face up)
    and the penalty pile (face down, but its cards were seen).
    """

    SPEC = SPEC
    action_types = ACTION_TYPES
    _parse = staticmethod(parse_action)

    # ``is_terminal`` is a plain attribute kept in step with the phase (a simulation reads it once
    # per action, and a property costs more).
    __slots__ = ("is_terminal", "_cfg", "_acc", "_fits", "_decks", "_row", "_crabs", "_roofmode", "_score",
                 "_penalty", "_out", "_phase", "_bonus", "_bonus_used", "_setup", "_setup_color", "_turns", "_last")
    FIELDS = (
        Field("_cfg", save=False),
        Field("is_terminal", save=False),
        Field("_decks", "lists", _enc_decks, _dec_decks),
        Field("_row", "list", names, decode_cards),
        Field("_crabs", "lists", encode_lists, decode_lists),
        Field("_roofmode", save=False),
        Field("_acc", "list", save=False),
        Field("_fits", "lists", save=False),
        Field("_score", "list", names, decode_cards),
        Field("_penalty", "list", names, decode_cards),
        Field("_out", encode=names, decode=lambda v: tuple(decode_cards(v, "out"))),
        Field("_phase"),
        Field("_bonus", encode=names, decode=lambda v: tuple(decode_cards(v, "bonus"))),
        Field("_bonus_used"),
        Field("_setup"),
        Field("_setup_color"),
        Field("_turns"),
        Field("_last", encode=lambda x: None if x is None else str(x), decode=lambda v: None if v is None
              else parse_action(v)),
    )

    # ------------------------------------------------------------- reading
    @property
    def current_player(self) -> int | None:
        return None if self._phase == "finished" else 0

    @property
    def phase(self) -> str:
        return self._phase

    def seat_label(self, seat: int) -> str:
        """The single player is "you", or their name (the letters A–D name the crabs)."""
        return "you" if self.names is None else self.names[0]

    @property
    def row(self) -> list[str]:
        return names(self._row)

    def crab(self, crab: str | int) -> list[str]:
        """A crab's stack, bottom to top."""
        k = CRABS.index(crab.upper()) if isinstance(crab, str) else crab
        return names(self._crabs[k])

    def roof_mode(self, crab: str | int) -> bool:
        k = CRABS.index(crab.upper()) if isinstance(crab, str) else crab
        return self._roofmode[k]

    @property
    def deck_counts(self) -> tuple[int, int]:
        return len(self._decks[0]), len(self._decks[1])

    @property
    def score(self) -> int:
        """Score pile minus penalty pile, in house sizes (Y14.14)."""
        s = self._cfg.size
        return sum(s[c] for c in self._score) - sum(s[c] for c in self._penalty)

    @property
    def bonus_group(self) -> list[str]:
        return names(self._bonus)

    def hint(self) -> tuple[Any, str]:
        """A good action now and why, in plain words (see :func:`hint`)."""
        return hint(self)

    def _zones(self) -> list:
        return [*self._decks, self._row, *self._crabs, self._score, self._penalty, self._out]

    def all_cards(self) -> Counter:
        c: Counter = Counter()
        for zone in self._zones():
            c.update(NAME[x] for x in zone)
        return c

    # ------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Any]:
        """Legal actions in the order of ``_legal`` (a new list; none once the game is over)."""
        return self._legal()  # _legal builds a new list in every phase, an empty one at the end

    def _legal(self) -> list[Any]:
        """Turn: placements crab by crab (A to D), each in row order, then give-ups A to D.
        Draws: green, pink. Bonus: take each card of the group (row order), then decline."""
        ph = self._phase
        if ph == "turn":
            f0, f1, f2, f3 = self._fits
            crabs = self._crabs
            out = [*f0, *f1, *f2, *f3]
            if crabs[0]:
                out.append(_GA)
            if crabs[1]:
                out.append(_GB)
            if crabs[2]:
                out.append(_GC)
            if crabs[3]:
                out.append(_GD)
            return out
        if ph == "refill" or ph == "setup":
            d = self._decks
            if d[0] and d[1]:
                return [_DG, _DP]
            return [DRAW[i] for i in (0, 1) if d[i]]
        if ph == "bonus":
            return [TAKE[c] for c in self._bonus] + [DECLINE]
        if ph == "setup_color":
            return list(ROW)
        return []

    def _diagnose(self, a: Any) -> tuple[str, str] | None:
        k = a.__class__
        if k is Place:
            return self._place_problem(a.cid, a.k)
        if k is GiveUp:
            if not self._crabs[a.k]:
                return "Y14.11", f"crab {a.crab} is empty: only a crab with cards can be given up"
            return None
        if k is Draw:
            if not self._decks[a.colour_id]:
                return ("Y14.2" if self._phase == "setup" else "Y14.9"), f"the {a.colour} deck is empty"
            return None
        if k is Take:
            if a.cid not in self._bonus:
                return "Y14.10", f"{a.card} is not in the bonus group ({listing(self._bonus)})"
            return None
        return None

    def _place_problem(self, c: int, k: int) -> tuple[str, str] | None:
        name, crab = NAME[c], CRABS[k]
        if c not in self._row:
            return "Y14.4", f"{name} is not in the row (row: {listing(self._row)})"
        col = c & 1
        if k == 0 and col:
            return "Y14.5", f"crab A takes green cards only, and {name} is pink"
        if k == 3 and not col:
            return "Y14.5", f"crab D takes pink cards only, and {name} is green"
        stack = self._crabs[k]
        if not stack:
            return None
        roof = self._roofmode[k]
        ref = stack[0] if roof else stack[-1]
        where = "the bottom card in roof mode" if roof else "the top card"
        if k in (1, 2) and (ref & 1) == col:
            return "Y14.5", (f"{name} has the same colour as {NAME[ref]}, {where} of crab {crab}: the colours "
                             f"must alternate")
        if roof:
            ok = c >> 1 >= ref >> 1 if self._cfg.nonstrict else c >> 1 > ref >> 1
            if not ok:
                need = "at least" if self._cfg.nonstrict else "higher than"
                return "Y14.7", (f"crab {crab} is in roof mode: a new card goes to the bottom and must be {need} "
                                 f"{NUMBER[ref]}, the number of {NAME[ref]}")
            return None
        if c >> 1 > ref >> 1:
            return "Y14.6", (f"{name} is higher than {NAME[ref]}, the top card of crab {crab}: a new card must "
                             f"have the same number or a lower one")
        return None

    # ------------------------------------------------------------- transitions
    def apply_unchecked(self, a: Any) -> None:
        """Simulation fast path (see ``State.apply_unchecked``): ``_apply`` without narration and one
        call less for the common actions; exactly the state ``apply`` leaves (the conformance suite
        compares them). A preview never comes here: it applies with ``_apply``."""
        self._last = a
        self._history = (self._history, a)
        self._moves += 1
        k = a.__class__
        if k is Place:
            self._place(a, None)
        elif k is Draw:
            self._draw(a.colour_id, None, False)
            if self._phase != "bonus":
                d = self._decks
                if len(self._row) == ROW_SIZE and not self._setup and (d[0] or d[1]):
                    self._phase = "turn"
                else:
                    self._fill(None)
        elif k is GiveUp:
            self._give_up(a, None)
        else:
            self._apply(a, None)

    def _apply(self, a: Any, ev: list[Event] | None) -> None:
        self._last = a
        k = a.__class__
        if k is Place:
            self._place(a, ev)
        elif k is Draw:
            if self._previewing:
                self._hidden(ev, _TURNED[a.colour_id])
            self._draw(a.colour_id, ev, False)
            if self._phase != "bonus":
                d = self._decks
                if len(self._row) == ROW_SIZE and not self._setup and (d[0] or d[1]):
                    self._phase = "turn"  # what _fill and _end_check decide here
                else:
                    self._fill(ev)
        elif k is GiveUp:
            self._give_up(a, ev)
        elif k is Take:
            c = a.cid
            self._row.remove(c)
            self._unfit(c)
            self._score.append(c)
            self._bonus = ()
            self._bonus_used = True
            if ev is not None:
                ev.append(Event("bonus_taken", {"card": a.card}, "Y14.10",
                                f"You take {a.card} from the row to your score pile, +{self._cfg.size[c]} "
                                f"(rule Y14.10)."))
            self._fill(ev)
        elif k is Decline:
            self._bonus = ()
            if ev is not None:
                ev.append(Event("bonus_declined", {}, "Y14.10", "You let the bonus go (rule Y14.10)."))
            self._fill(ev)
        else:  # Row
            self._setup_color = a.colour_id
            if ev is not None:
                ev.append(Event("row_colour", {"colour": a.colour}, "Y14.2",
                                f"You lay out the first row from the {a.colour} deck (rule Y14.2)."))
            self._fill(ev)

    def _place(self, a: Place, ev: list[Event] | None) -> None:
        c, k = a.cid, a.k
        cfg = self._cfg
        self._row.remove(c)
        self._unfit(c)
        stack = self._crabs[k]
        rm = self._roofmode
        if rm[k]:
            stack.insert(0, c)
        else:
            stack.append(c)
        roofed = cfg.roof[c] and not rm[k]
        if roofed:
            rm = self._roofmode = rm[:k] + (True,) + rm[k + 1:]
        self._turns += 1
        self._bonus_used = False
        if ev is not None:
            where = "at the bottom of" if rm[k] and not roofed else "on"
            ev.append(Event("place", {"card": a.card, "crab": a.crab, "stack": names(stack)},
                            "Y14.7" if rm[k] and not roofed else "Y14.4",
                            f"You place {a.card} {where} crab {a.crab}: {plural(len(stack), 'card')} "
                            f"(rule {'Y14.7' if rm[k] and not roofed else 'Y14.4'})."))
            if roofed and len(stack) < cfg.complete:
                ev.append(Event("roof_mode", {"crab": a.crab}, "Y14.7",
                                f"{a.card} is a roof: crab {a.crab} is now in roof mode, and new cards go to its "
                                f"bottom (rule Y14.7)."))
        if len(stack) >= cfg.complete:
            self._score += stack
            self._crabs[k] = []
            if rm[k]:
                self._roofmode = rm[:k] + (False,) + rm[k + 1:]
            if ev is not None:
                pts = cfg.size_of(stack)
                ev.append(Event("house_finished", {"crab": a.crab, "cards": names(stack), "points": pts}, "Y14.8",
                                f"Crab {a.crab} has {len(stack)} cards: the house is finished, and "
                                f"{listing(stack)} go face up to your score pile, +{pts} (rule Y14.8)."))
        stack = self._crabs[k]
        acc = self._acc[k] = _ACC[cfg.nonstrict][k][((2 * stack[0] + 1) if self._roofmode[k] else 2 * stack[-1])
                                                    if stack else _EMPTY]
        self._fits[k] = [x for c in self._row if (x := acc[c])]
        decks = self._decks
        if len(self._row) == ROW_SIZE - 1 and decks[0] and decks[1] and not self._setup:
            self._phase = "refill"  # what _fill decides here: the player picks the deck
            return
        self._fill(ev)

    def _give_up(self, a: GiveUp, ev: list[Event] | None) -> None:
        k = a.k
        stack = self._crabs[k]
        self._penalty += stack
        self._crabs[k] = []
        if self._roofmode[k]:
            self._roofmode = self._roofmode[:k] + (False,) + self._roofmode[k + 1:]
        self._turns += 1
        acc = self._acc[k] = _ACC[self._cfg.nonstrict][k][_EMPTY]
        self._fits[k] = [x for c in self._row if (x := acc[c])]
        if ev is not None:
            pts = self._cfg.size_of(stack)
            ev.append(Event("give_up", {"crab": a.crab, "cards": names(stack), "penalty": pts}, "Y14.11",
                            f"You give up crab {a.crab}: {listing(stack)} {'goes' if len(stack) == 1 else 'go'} "
                            f"face down to your penalty pile, −{pts} (rule Y14.11)."))
        self._end_check(ev)

    def _fill(self, ev: list[Event] | None) -> None:
        """Fill the row to 5 cards (Y14.2, Y14.9): stop for a choice of deck or a bonus."""
        row = self._row
        decks = self._decks
        self._phase = "refill"
        while len(row) < ROW_SIZE:
            g, p = decks[0], decks[1]
            if not g and not p:
                break
            sc = self._setup_color
            if self._setup and sc is not None:
                colour = sc if decks[sc] else 1 - sc
            elif g and p:
                self._phase = "setup" if self._setup else "refill"
                return
            else:
                colour = 0 if g else 1
            if self._previewing:
                self._hidden(ev, _TURNED[colour])
            self._draw(colour, ev, True)
            if self._phase == "bonus":
                return
        if self._setup:
            self._setup = False
            if ev is not None:
                ev.append(Event("row_ready", {"row": names(row)}, "Y14.2",
                                f"The first row is laid out: {listing(row)} (rule Y14.2)."))
        self._end_check(ev)

    def _draw(self, colour: int, ev: list[Event] | None, forced: bool) -> None:
        c = self._decks[colour].pop()
        row = self._row
        row.append(c)
        a0, a1, a2, a3 = self._acc
        f0, f1, f2, f3 = self._fits
        if a0[c]:
            f0.append(a0[c])
        if a1[c]:
            f1.append(a1[c])
        if a2[c]:
            f2.append(a2[c])
        if a3[c]:
            f3.append(a3[c])
        cfg = self._cfg
        if ev is not None:
            deck = "green" if colour == 0 else "pink"
            if forced and self._setup_color is None:
                text = f"Only the {deck} deck has cards, so {NAME[c]} is drawn from it"
            else:
                text = f"{NAME[c]} is drawn from the {deck} deck"
            rule = "Y14.2" if self._setup else "Y14.9"
            ev.append(Event("draw", {"card": NAME[c], "deck": deck}, rule, f"{text} (rule {rule})."))
        if ((c - 2) in row or (c + 2) in row) and (not self._setup or cfg.bonus_on_setup) \
                and (cfg.chain or not self._bonus_used):
            e = [x for x in row if x == c or x == c - 2 or x == c + 2]
            if len(e) > 1:
                self._bonus = tuple(e)
                self._phase = "bonus"
                if ev is not None:
                    which = f"either {NAME[e[0]]} or {NAME[e[1]]}" if len(e) == 2 else f"one of {listing(e)}"
                    ev.append(Event("bonus", {"cards": names(e)}, "Y14.10",
                                    f"{NAME[c]} has a neighbour number of its colour in the row: you may take "
                                    f"{which} to your score pile, or decline (rule Y14.10)."))

    def _end_check(self, ev: list[Event] | None) -> None:
        """Y14.13: over once both decks are empty and no crab can be finished with the row."""
        if self._decks[0] or self._decks[1] or self._can_finish_any():
            self._phase = "turn"
            return
        self._phase = "finished"
        self.is_terminal = True
        s = self._cfg.size
        plus = sum(s[c] for c in self._score)
        minus = sum(s[c] for c in self._penalty)
        if ev is not None:
            ev.append(Event("game_end", {"score": plus - minus, "plus": plus, "minus": minus}, "Y14.13",
                            f"The game is over: {self._end_text()}."))

    def _end_text(self) -> str:
        s = self._cfg.size
        plus = sum(s[c] for c in self._score)
        minus = sum(s[c] for c in self._penalty)
        return (f"both decks are empty and no crab can be finished with the row; score {plus} − {minus} = "
                f"{number(plus - minus)} (rules Y14.13, Y14.14)")

    def _can_finish_any(self) -> bool:
        cfg = self._cfg
        row = self._row
        for k in range(4):
            if can_finish(k, self._crabs[k], self._roofmode[k], row, cfg.complete, cfg.roof, cfg.nonstrict):
                return True
        return False

    # ------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_seat(seat)
        cfg = self._cfg
        s = cfg.size
        out = self.outcome()
        v = {
            "game": "yadokarick",
            "mode": "solo",
            "players": 1,
            "names": [self.seat_label(0)],
            "seat": seat,
            "phase": self._phase,
            "current": self.current_player,
            "row": names(self._row),
            "crabs": [names(x) for x in self._crabs],
            "roof_mode": list(self._roofmode),
            "deck_counts": [len(self._decks[0]), len(self._decks[1])],
            "score_pile": names(self._score),
            "penalty_pile": names(self._penalty),
            "points": sum(s[c] for c in self._score),
            "penalty": sum(s[c] for c in self._penalty),
            "score": self.score,
            "bonus": names(self._bonus),
            "out_count": len(self._out),
            "turns": self._turns,
            "house_complete": cfg.complete,
            "roof_insert_nonstrict": cfg.nonstrict,
            "sizes": {NAME[c]: s[c] for c in cfg.cards},
            "roofs": [NAME[c] for c in cfg.cards if cfg.roof[c]],
            "last_action": None if self._last is None else {"seat": 0, "action": str(self._last)},
            "outcome": None if out is None else out.to_dict(),
        }
        # The hint (from the public part of the view only, so it is the same for every viewer): what a
        # table shows behind its "Hint" button. ``None`` once the game is over.
        if out is None:
            action, why = hint_from_view(v, self._legal())
            v["hint"] = {"action": str(action), "reason": why}
        else:
            v["hint"] = None
        if seat is None:
            v["decks"] = {"green": names(self._decks[0][::-1]), "pink": names(self._decks[1][::-1])}
            v["out"] = names(self._out)
        return v

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        g, p = v["deck_counts"]
        lines = [f"Yadokarick solo · score {v['points']} − {v['penalty']} = {number(v['score'])} · decks green {g}, "
                 f"pink {p} · turn {v['turns']} · {v['phase']}",
                 "Row: " + (" ".join(v["row"]) or "—")]
        for k, crab in enumerate(CRABS):
            mode = " (roof mode)" if v["roof_mode"][k] else ""
            lines.append(f"  {crab}: [{' '.join(v['crabs'][k])}]{mode}")
        if v["bonus"]:
            lines.append("Bonus: take one of " + " ".join(v["bonus"]) + ", or decline")
        if v.get("decks") is not None:
            lines.append("Green deck (top first): " + (" ".join(v["decks"]["green"]) or "—"))
            lines.append("Pink deck (top first): " + (" ".join(v["decks"]["pink"]) or "—"))
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        return Outcome((0,), (self.score,), self._end_text())

    def ui_candidates(self, seat: int | None) -> list[str]:
        """Every placement of a row card on a crab, every give-up and both draws: the table can say
        why each one that is not legal is refused."""
        if self._phase == "finished":
            return []
        out = [f"place {NAME[c]} {k}" for c in self._row for k in CRABS]
        out += [f"giveup {k}" for k in CRABS]
        out += ["draw green", "draw pink"]
        out += [f"take {NAME[c]}" for c in self._bonus]
        return out

    def _sample(self, seat: int, rng: Any) -> "SoloState":
        """The decks in a new order. What is in each deck is known (the cards of its colour seen
        nowhere else, Y15.4), except where cards are out of play: those are dealt again with
        the deck of their colour, the deck and the out cards keeping their sizes."""
        world = self.clone()
        out: list[int] = []
        for colour in (0, 1):
            deck = self._decks[colour]
            pool = sorted(deck + [c for c in self._out if c & 1 == colour])  # the order of the real cards
            rng.shuffle(pool)  # must not show through, so the pool is sorted first
            world._decks[colour] = pool[:len(deck)]
            out += pool[len(deck):]
        world._out = tuple(out)
        return world

    def __repr__(self) -> str:
        return f"<SoloState seed={self.seed} turn={self._turns} phase={self._phase}>"

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        f = [("phase", self._phase), ("turns", str(self._turns)), ("row", write_cards(self._row)),
             ("crabs", write_lists(self._crabs)), ("green", write_cards(self._decks[0][::-1])),
             ("pink", write_cards(self._decks[1][::-1])), ("score", write_cards(self._score)),
             ("penalty", write_cards(self._penalty))]
        if self._out:
            f.append(("out", write_cards(self._out)))
        if self._setup and self._phase == "bonus":
            f.append(("setup", "1"))
            if self._setup_color is not None:
                f.append(("row_colour", ("green", "pink")[self._setup_color]))
        if self._bonus_used and not self._cfg.chain:
            f.append(("taken", "1"))
        if self._last is not None:
            f.append(("last_action", write_action(self._last)))
        return f

    def _load_position(self, parsed: Parsed) -> None:
        cfg = self._cfg = config(self.mode, 1, self.options)
        removed = ",".join(map(str, self.options["solo_removed"])) or "none"
        r = Reader(parsed, cfg.cards, f"solo plays both colours without the numbers {removed}")
        fresh = not any(parsed.fields.has(k) for k in ("row", "crabs", "score", "penalty", "turns"))
        default = ("setup_color" if cfg.one_color else "setup") if fresh else "turn"  # a new game, or a turn
        phase = self._phase = r.take("phase", default).choice(
            ("setup", "setup_color", "turn", "refill", "bonus", "finished"))
        self._row, _ = r.card_list(r.take("row", "-"))
        self._crabs = [c for c, _, _ in r.lists(r.take("crabs", "-/-/-/-"), 4)]
        self._score, _ = r.card_list(r.take("score", "-"))
        self._penalty, _ = r.card_list(r.take("penalty", "-"))
        fewest = next(iter(self._turn_counts()), (0, 0))[0]  # what the piles need at least
        self._turns = r.take("turns", str(fewest)).int(0, SPEC.max_actions(1, self.options))
        ov = r.take("out", "-")
        if ov.text != "-":
            raise ov.error(f"{self._no_out()}: write out=- or leave the field out")
        decks = []
        pool = r.pool()
        for colour, key in enumerate(("green", "pink")):
            v = r.take(key, "?")
            known, unknown = r.card_list(v, unknown_ok=True)
            if any(c & 1 != colour for c in known):
                raise v.error(f"the {key} deck holds {key} cards only")
            slots: list[tuple[str, int | None]] = [] if unknown == 0 else [("deck", unknown)]
            mine = [c for c in pool if c & 1 == colour and c not in r.where]
            sub = Reader(parsed, mine, "")
            dealt = sub.deal(self, slots, v)
            decks.append((known + dealt.get("deck", []))[::-1])
        self._decks = decks
        self._out = ()
        setup = phase in ("setup", "setup_color")
        if parsed.fields.has("setup"):
            sv = r.take("setup")
            if phase != "bonus":
                raise sv.error("setup= tells whether a bonus is offered while the first row is laid out; it "
                               "belongs to the bonus phase only")
            setup = sv.flag()
        self._setup = setup
        self._setup_color = None
        if parsed.fields.has("row_colour"):
            self._setup_color = ("green", "pink").index(r.take("row_colour").choice(("green", "pink")))
        self._bonus_used = r.take("taken", "0").flag()
        row = self._row
        c = row[-1] if row and phase == "bonus" else None
        self._bonus = () if c is None else tuple(x for x in row if x in (c, c - 2, c + 2))
        self._last = None
        if parsed.fields.has("last_action"):
            self._last = r.action(r.take("last_action"), None)[1]
        self._acc, self._fits = [], []
        r.check(self)

    # ------------------------------------------------------------- reachable by a dealt game
    def _no_out(self) -> str:
        return ("solo sets no card aside: every card of both colours but the removed numbers is in a deck, the row, "
                "on a crab or in the score or penalty pile (rules Y14.1, Y14.2)")

    def _turn_counts(self) -> list[tuple[int, int]]:
        """The numbers of turns the piles fit, as ranges ``(lo, hi)``: each card on a crab or in the
        penalty pile was placed in a turn; each give-up took a turn and surrendered 1 to
        ``complete - 1`` cards (a crab never holds more, Y14.8, Y14.11); the score pile is ``h``
        finished houses of ``complete`` placed cards each and bonus cards (Y14.8, Y14.10)."""
        k = self._cfg.complete
        pen = len(self._penalty)
        if pen and k < 2:
            return []
        placed = sum(map(len, self._crabs)) + pen
        lo, hi = (-(-pen // (k - 1)), pen) if pen else (0, 0)
        return [(placed + k * h + lo, placed + k * h + hi) for h in range(len(self._score) // k + 1)]

    def _check_reachable(self) -> None:
        """What position text must show because every dealt game does (``LoadError``): nothing is
        out of play (Y14.1, Y14.2), and the turns played fit the cards placed, given up and
        scored. A hand-built scenario (``setup_solo``) may leave cards out, so ``_check_loaded``
        does not ask this."""
        if self._out:
            raise LoadError("out", self._no_out())
        k = self._cfg.complete
        if self._penalty and k < 2:
            raise LoadError("penalty", f"with solo_house_complete={k} a house is finished as soon as a card is placed "
                                       f"(rule Y14.8), so no crab ever holds a card to give up (rule Y14.11)")
        counts = self._turn_counts()
        t = self._turns
        if not any(lo <= t <= hi for lo, hi in counts):
            fits = " or ".join(str(lo) if lo == hi else f"{lo} to {hi}" for lo, hi in counts)
            raise LoadError("turns", f"each turn places a row card on a crab or gives a crab up (rules Y14.3, "
                                     f"Y14.4, Y14.11): {plural(sum(map(len, self._crabs)), 'card')} on the crabs "
                                     f"and {len(self._penalty)} given up (1 to {k - 1} cards a give-up), with "
                                     f"{len(self._score)} in the score pile (houses of {k} cards and bonus cards, "
                                     f"rules Y14.8, Y14.10), take {fits} turns, not {t}")

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = config(self.mode, self.players, self.options)
        self.is_terminal = self._phase == "finished"
        roof = self._cfg.roof
        self._roofmode = tuple(any(roof[c] for c in s) for s in self._crabs)
        self._reaccept()

    def _reaccept(self) -> None:
        """Rebuild the acceptance rows of the crabs (what each crab takes now, Y14.5–Y14.7)."""
        acc = _ACC[self._cfg.nonstrict]
        rm = self._roofmode
        self._acc = [acc[k][_key(s, rm[k])] for k, s in enumerate(self._crabs)]
        row = self._row
        self._fits = [[x for c in row if (x := a[c])] for a in self._acc]

    def _unfit(self, c: int) -> None:
        """Card ``c`` left the row: it is no longer a placement on any crab."""
        a0, a1, a2, a3 = self._acc
        f0, f1, f2, f3 = self._fits
        if a0[c]:
            f0.remove(a0[c])
        if a1[c]:
            f1.remove(a1[c])
        if a2[c]:
            f2.remove(a2[c])
        if a3[c]:
            f3.remove(a3[c])

    def _check_loaded(self) -> None:
        """Refuse a state no solo game can reach (``LoadError``, a ``ValueError``): the decks hold
        their own colour, each card of the game is in exactly one place, every crab's stack could
        have been built by the placement rules (Y14.5–Y14.7) and is not finished, and the phase
        fits the row, the decks and the bonus group (Y14.2, Y14.9, Y14.10, Y14.13)."""
        cfg = self._cfg
        if len(self._decks) != 2:
            raise LoadError("green", "expected a green and a pink deck")
        if len(self._crabs) != 4:
            raise LoadError("crabs", "expected 4 crabs, A to D")
        for i, d in enumerate(self._decks):
            if any(c & 1 != i for c in d):
                key = ("green", "pink")[i]
                raise LoadError(key, f"the {key} deck holds a card of the other colour")
        got = Counter(x for zone in self._zones() for x in zone)
        if got != Counter(cfg.cards):
            extra = sorted((got - Counter(cfg.cards)).elements())
            missing = sorted((Counter(cfg.cards) - got).elements())
            what = ([f"{listing(extra)} extra or placed twice"] if extra else []) + \
                ([f"{listing(missing)} missing"] if missing else [])
            raise LoadError("row", "the cards are not those of this game: " + "; ".join(what))
        phase = self._phase
        if phase not in ("setup", "setup_color", "turn", "refill", "bonus", "finished"):
            raise LoadError("phase", f"{show(phase, 20)} is not a phase of the solo game")
        row = self._row
        if len(row) > ROW_SIZE:
            raise LoadError("row", f"the row holds at most {ROW_SIZE} cards")
        for k, stack in enumerate(self._crabs):
            if len(stack) >= cfg.complete:
                raise LoadError("crabs", f"crab {CRABS[k]} holds {len(stack)} cards: a house of {cfg.complete} is "
                                         f"finished at once (rule Y14.8)")
            if not buildable(k, stack, cfg.roof, cfg.nonstrict):
                raise LoadError("crabs", f"crab {CRABS[k]}'s stack {listing(stack)} cannot be built by the placement "
                                         f"rules (rules Y14.5–Y14.7)")
        check_flag(self._bonus_used, "taken")
        check_flag(self._setup, "setup")
        if self._setup_color not in (None, 0, 1) or isinstance(self._setup_color, bool):
            raise LoadError("row_colour", "the first row's colour is green or pink")
        small_int(self._turns, "turns", 0, SPEC.max_actions(1, self.options))
        check_record(self, ACTION_TYPES[3:])
        decks = self._decks
        setup = self._setup
        if setup:
            if phase not in ("setup", "setup_color", "bonus"):
                raise LoadError("phase", f"the first row is still laid out, so the phase is not {phase} (rule Y14.2)")
            if self._turns or any(self._crabs) or self._penalty or (self._score and not cfg.bonus_on_setup):
                raise LoadError("phase", "while the first row is laid out nothing is placed, given up or scored "
                                         "(rule Y14.2)")
            if (self._setup_color is None) != (phase == "setup_color" or not cfg.one_color):
                raise LoadError("row_colour", "with solo_initial_row='one_color' the first row's colour is chosen "
                                              "first; otherwise each card's deck is (rule Y14.2)")
        elif phase in ("setup", "setup_color"):
            raise LoadError("phase", "the first row is laid out already")
        bonus = self._bonus
        if phase == "bonus":
            c = row[-1] if row else None
            group = tuple(x for x in row if c is not None and x in (c, c - 2, c + 2))
            if len(group) < 2 or bonus != group or (setup and not cfg.bonus_on_setup) or \
                    (not cfg.chain and self._bonus_used):
                raise LoadError("row", "a bonus is on offer right after a card is drawn next to a row card of its "
                                       "colour and number ± 1 (rule Y14.10)")
        elif bonus:
            raise LoadError("row", "a bonus group exists only in the bonus phase")
        if phase == "setup_color":
            if row or self._score:
                raise LoadError("row", "the first row's colour is chosen before any card is drawn (rule Y14.2)")
        elif phase == "setup":
            if cfg.one_color or len(row) >= ROW_SIZE or not (decks[0] and decks[1]):
                raise LoadError("phase", "you choose the deck of each first-row card while the row is short and "
                                         "both decks hold cards (rule Y14.2)")
        elif phase == "refill":
            if len(row) >= ROW_SIZE or not (decks[0] and decks[1]):
                raise LoadError("phase", "you choose the deck of a refill card while the row is short and both decks "
                                         "hold cards; otherwise the draw is automatic (rule Y14.9)")
        elif phase == "turn":
            if decks[0] or decks[1]:
                if len(row) != ROW_SIZE:
                    raise LoadError("row", f"a turn starts with {ROW_SIZE} cards in the row while the decks hold "
                                           f"cards (rule Y14.9)")
            elif not self._can_finish_any():
                raise LoadError("phase", "both decks are empty and no crab can be finished: the game is over "
                                         "(rule Y14.13)")
        elif phase == "finished":
            if decks[0] or decks[1] or self._can_finish_any():
                raise LoadError("phase", "the game ends once both decks are empty and no crab can be finished "
                                         "(rule Y14.13)")


def buildable(k: int, stack: Sequence[int], roofs: Sequence[bool], nonstrict: bool) -> bool:
    """Could crab ``k``'s stack (bottom to top) have been built by legal placements? (Y14.5–Y14.7)

    The cards went on top one by one until the first roof card (which stays on top), then
    each later card went to the bottom. So some card is where building started, the cards
    from it to the top came first, and the ones below it came after, the lowest last.

    >>> g = lambda *cs: [card_id(c) for c in cs]
    >>> from cardwidgets.games.yadokarick.cards import size_tables
    >>> roofs = size_tables({})[1]
    >>> buildable(1, g("P22", "G17"), roofs, True), buildable(1, g("G22", "G17"), roofs, True)
    (True, False)
    >>> buildable(0, g("G24", "G21", "G15", "G12", "G11", "G10"), roofs, True)
    True
    """
    acc = _ACC[nonstrict][k]
    want = list(stack)
    for start in range(len(want) or 1):
        cur: list[int] = []
        roof = False
        for c in want[start:] + want[:start][::-1]:
            if not acc[_key(cur, roof)][c]:
                break
            if roof:
                cur.insert(0, c)
            else:
                cur.append(c)
                roof = roofs[c]
        else:
            if cur == want:
                return True
    return False


# =========================================================================== the hint
def _crab_state(stack: list[int], roof: bool) -> tuple[bool, int, int]:
    return bool(stack), (stack[-1] if stack else -1), (stack[0] if stack else -1)


def hint(state: Any) -> tuple[Any, str]:
    """A good action for a solo position and why, in plain words: ``(action, reason)``.

    Works from what the player sees (``state.view(0)``) and the legal actions, so a
    bot can use the same judgement (:func:`hint_from_view`).
    """
    if state.is_terminal:
        return None, "the game is over"
    h = state.view(0)["hint"]  # the view carries it (hint_from_view of that view)
    return parse_action(h["action"]), h["reason"]


def hint_from_view(view: dict[str, Any], legal: Sequence[Any]) -> tuple[Any, str]:
    """The judgement behind :func:`hint`, from a solo view and the legal list.

    * A placement that finishes a house comes first (the biggest one).
    * Otherwise every placement and give-up is scored by what it does to its crab:
      progress (cards on it) and how many of the cards not yet used (row and decks)
      could still follow there, against the cards it still needs. A crab that can no
      longer be finished is worth little, so spoiling a good crab costs and dumping a
      card on a hopeless one is cheap; giving a crab up costs its cards' sizes and
      frees it for a new house while enough cards remain.
    * When no placement is legal, give up the crab that costs least.
    * Draw from the deck whose cards fit more crabs; take the biggest bonus card.
    """
    phase = view["phase"]
    sizes = view["sizes"]
    if phase in ("setup", "refill", "setup_color"):
        return _hint_draw(view, legal)
    if phase == "bonus":
        takes = [a for a in legal if isinstance(a, Take)]
        best = max(takes, key=lambda a: (sizes[a.card], -_fit_count(view, card_id(a.card))))
        return best, (f"take {best.card}: it is worth {sizes[best.card]}, the most in the bonus group, and "
                      f"the refill replaces it")
    return _hint_turn(view, legal)


def _seen(view: dict[str, Any]) -> set[int]:
    seen = set(card_id(c) for c in view["row"])
    for stack in view["crabs"]:
        seen.update(card_id(c) for c in stack)
    seen.update(card_id(c) for c in view["score_pile"])
    seen.update(card_id(c) for c in view["penalty_pile"])
    return seen


def _unseen(view: dict[str, Any]) -> list[int]:
    seen = _seen(view)
    return [card_id(c) for c in view["sizes"] if card_id(c) not in seen]


def _crabs(view: dict[str, Any]) -> list[tuple[list[int], bool]]:
    return [([card_id(c) for c in stack], view["roof_mode"][k]) for k, stack in enumerate(view["crabs"])]


def _fit_count(view: dict[str, Any], c: int) -> int:
    acc = _ACC[view["roof_insert_nonstrict"]]
    return sum(1 for k, (stack, roof) in enumerate(_crabs(view)) if acc[k][_key(stack, roof)][c])


def _hint_draw(view: dict[str, Any], legal: Sequence[Any]) -> tuple[Any, str]:
    acc = _ACC[view["roof_insert_nonstrict"]]
    crabs = _crabs(view)
    unseen = _unseen(view)
    score = []
    for colour in (0, 1):
        cards = [c for c in unseen if c & 1 == colour]
        if not cards:
            score.append(-1.0)
            continue
        fits = sum(1 for c in cards for k, (stack, roof) in enumerate(crabs) if acc[k][_key(stack, roof)][c])
        score.append(fits / len(cards))
    best = 0 if score[0] >= score[1] else 1
    colour = ("green", "pink")[best]
    act = next((a for a in legal if getattr(a, "colour_id", None) == best), legal[0])
    return act, (f"{act}: a {colour} card fits {score[best]:.1f} crabs on average, "
                 f"a {('green', 'pink')[1 - best]} one {max(score[1 - best], 0):.1f}")


def _room(k: int, stack: list[int], roof: bool, pool: Sequence[int], acc: Any, roofs: Any) -> int:
    """How many pool cards could still go on this crab, one after another, greedily."""
    filled, top, bottom = _crab_state(stack, roof)
    count = 0
    if not filled:
        return len([c for c in pool if acc[k][_EMPTY][c]])
    # normal mode: numbers go down, take the highest fitting card each time; roof mode: up, the lowest
    cands = sorted(pool, reverse=not roof)
    used = set()
    r = roof
    while True:
        table = acc[k][(2 * bottom + 1) if r else (2 * top)]
        nxt = next((c for c in cands if c not in used and table[c]), None)
        if nxt is None:
            return count
        used.add(nxt)
        count += 1
        if r:
            bottom = nxt
        else:
            top = nxt
            if roofs[nxt]:
                r = True
                cands = sorted(pool)


def _hint_turn(view: dict[str, Any], legal: Sequence[Any]) -> tuple[Any, str]:
    sizes = view["sizes"]
    complete = view["house_complete"]
    acc = _ACC[view["roof_insert_nonstrict"]]
    roof_names = set(view["roofs"])
    roofs = tuple(NAME[c] in roof_names for c in range(72))
    crabs = _crabs(view)
    unseen = _unseen(view)
    row = [card_id(c) for c in view["row"]]
    left = sum(view["deck_counts"])
    pool_all = unseen + row

    def worth(k: int, stack: list[int], roof: bool, pool: list[int]) -> tuple[float, int, int, bool]:
        """How promising a crab is: progress, and how many cards could still follow (room)."""
        if not stack:
            fresh = 6.0 * min(1.0, left / 20)
            return fresh, len([x for x in pool if acc[k][_EMPTY][x]]), complete, False
        need = complete - len(stack)
        room = _room(k, stack, roof, pool, acc, roofs)
        if room < need:
            return -2.0, room, need, True
        table = acc[k][_key(stack, roof)]
        nxt = sum(1 for x in pool if table[x])
        return 3.0 * len(stack) + 3.0 * math.log1p(nxt / need), room, need, False

    before = [worth(k, stack, roof, pool_all) for k, (stack, roof) in enumerate(crabs)]
    best, best_v, best_why = None, -1e9, ""
    for a in legal:
        if isinstance(a, Place):
            c, k = a.cid, a.k
            stack, roof = crabs[k]
            if len(stack) + 1 >= complete:
                pts = sum(sizes[NAME[x]] for x in stack) + sizes[a.card]
                v = 100.0 + pts
                why = (f"placing {a.card} on {a.crab} finishes the house: {complete} cards worth {pts} go to "
                       f"your score pile")
            else:
                new = [c] + stack if roof else stack + [c]
                pool = [x for x in pool_all if x != c]
                after, room, need, dead = worth(k, new, roof or roofs[c], pool)
                was_dead = before[k][3]
                v = after - before[k][0] + (-0.3 if was_dead else 0.25) * sizes[a.card]
                if was_dead:
                    why = (f"crab {a.crab} cannot be finished any more, so {a.card} goes there without spoiling "
                           f"a crab that can")
                elif dead:
                    why = (f"{a.card} on {a.crab} is the least harmful placement, though that crab can no longer "
                           f"be finished")
                else:
                    why = (f"{a.card} on {a.crab} leaves about {room} unused cards that could still follow "
                           f"there, for the {plural(need, 'card')} it still needs")
        else:
            k = a.k
            stack, roof = crabs[k]
            pen = sum(sizes[NAME[x]] for x in stack)
            fresh = worth(k, [], False, pool_all)[0]
            v = fresh - before[k][0] - pen
            if not any(isinstance(x, Place) for x in legal):
                v += 1000.0
                why = (f"no row card fits any crab, so a crab must be given up: {a.crab} costs {pen} and "
                       f"that is the cheapest way out")
            else:
                why = (f"crab {a.crab} can no longer be finished; clearing it costs {pen} but frees it for a new "
                       f"house while {left} cards remain") if before[k][3] else f"giving up {a.crab} costs {pen}"
        if v > best_v:
            best, best_v, best_why = a, v, why
    return best, best_why
