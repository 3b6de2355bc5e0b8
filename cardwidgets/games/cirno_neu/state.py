"""The rules of cirno+neu as :class:`CirnoNeuState` and its transitions, and the
construction of a game: ``new_game``, ``from_dict``, ``from_position``, ``setup_position``.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

from ...core import Event, Field, InvalidActionError, Outcome, State, Termination, number, plural
from ...core.deck import read_cards
from ...core.errors import quote, show
from ...core.position import load_position
from .cards import (DEFAULT_DECK, DOUBLE, DSHOT, MINUS_1, MINUS_10, PASS, PLUS_MAX, SET99, SHOT, TOKENS, TURN, VALUE,
                    _CARD_RULE, _NEED, _NO_LIMIT, _PLAY1, _PLAY1_SIMPLE, _SHOW, Play, _fmt, _tokens, card_id,
                    parse_action)
from .position import PositionText
from .spec import ACTION_BOUND, SPEC, _dec_counts, _deck_list, _enc_counts, _fill, _init, _targets
from .worlds import SeatKnowledge

if TYPE_CHECKING:
    from .spec import Config


# --------------------------------------------------------------------------- state
def _ids(cards: Any, what: str) -> list[int]:
    return read_cards(cards, card_id, what, ", ".join(TOKENS))


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list, got {show(value, 30)}")
    return value


def _dec_flags(value: Any) -> tuple[bool, ...]:
    flags = tuple(_list(value, "active"))
    if not all(type(a) is bool for a in flags):
        raise ValueError("active: expected a list of true/false flags")
    return flags


def _dec_last(x: Any) -> tuple[int, Play] | None:
    if x is None:
        return None
    if not isinstance(x, list) or len(x) != 2 or not isinstance(x[1], str):
        raise ValueError(f"last: expected [seat, action] or null, got {show(x, 40)}")
    return (x[0], parse_action(x[1]))


_BUST_KEYS = {"seat", "sum", "hand", "card", "forced", "round"}


def _dec_bust(b: Any) -> dict[str, Any] | None:
    if b is None:
        return None
    if not isinstance(b, dict) or set(b) != _BUST_KEYS:
        raise ValueError(f"bust: expected null or an object with {', '.join(sorted(_BUST_KEYS))}")
    out = dict(b)
    if out["hand"] is not None:
        out["hand"] = _tokens(sorted(_ids(out["hand"], "bust hand")))
    if out["card"] is not None:
        c = card_id(out["card"]) if isinstance(out["card"], str) else None
        if c is None:
            raise ValueError(f"bust card: {show(out['card'], 20)} is not a card")
        out["card"] = TOKENS[c]
    return out


class CirnoNeuState(SeatKnowledge, PositionText, State):
    """A cirno+neu match in progress. Build it with :func:`new_game` or :func:`setup_position`."""

    SPEC = SPEC
    action_types = (Play,)
    _parse = staticmethod(parse_action)

    # _hands: one sorted list of card ids per seat; _draw: top card LAST; _stack: top card
    # last. _cp: seat to act, None when the match is over. _active/_chips/_out are tuples
    # replaced (never mutated) on change, so clones share them. _tgt: the _Table of the
    # players still in (targets, turn order, deal order). _bust: the last bust (public:
    # N8.2). _know: the round's public record, cached for sampling (not a field). _built:
    # None for a match dealt by the rules; for one that starts from a hand-built position,
    # the count per card id of the cards it plays with (hand sizes are then free).
    __slots__ = (
        "_cfg", "_hands", "_draw", "_stack", "_sum", "_dir", "_dealer", "_round", "_cp",
        "_actor", "_anchor", "_shot_turn", "_required", "_played", "_shot_target", "_double_next",
        "_turns", "_active", "_chips", "_out", "_tgt", "_last", "_bust", "_reason", "_termination",
        "_built", "_know",
    )
    FIELDS = (
        Field("_cfg", save=False),
        Field("_hands", "lists", lambda hs: [_tokens(h) for h in hs],
              lambda hs: [sorted(_ids(h, "hands")) for h in _list(hs, "hands")]),
        Field("_draw", "list", lambda d: _tokens(reversed(d)), lambda d: _ids(d, "draw")[::-1]),
        Field("_stack", "list", _tokens, lambda s: _ids(s, "stack")),
        Field("_sum"), Field("_dir"), Field("_dealer"), Field("_round"), Field("_cp"), Field("_actor"),
        Field("_anchor"), Field("_shot_turn"), Field("_required"), Field("_played"), Field("_shot_target"),
        Field("_double_next"), Field("_turns"),
        Field("_active", encode=list, decode=_dec_flags),
        Field("_chips", encode=list, decode=lambda a: tuple(_list(a, "chips"))),
        Field("_out", encode=list, decode=lambda a: tuple(_list(a, "out"))),
        Field("_tgt", save=False),
        Field("_last", encode=lambda x: None if x is None else [x[0], str(x[1])], decode=_dec_last),
        Field("_bust", encode=lambda b: None if b is None else dict(b), decode=_dec_bust),
        Field("_reason", save=False),
        Field("_termination", encode=lambda t: t.value, decode=Termination),
        Field("_built", encode=_enc_counts, decode=_dec_counts),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return self._cp

    @property
    def is_terminal(self) -> bool:
        return self._cp is None

    @property
    def phase(self) -> str:
        """``"play"`` while the match runs, ``"finished"`` when it is over."""
        return "play" if self._cp is not None else "finished"

    @property
    def sum(self) -> int:
        """The running total of the main stack."""
        return self._sum

    @property
    def direction(self) -> int:
        """``+1`` clockwise, ``-1`` counter-clockwise."""
        return self._dir

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def round(self) -> int:
        return self._round

    @property
    def turn(self) -> dict[str, Any]:
        """The turn record (N4.1, N5.1)."""
        return {
            "actor": self._actor, "anchor": self._anchor,
            "kind": "shot" if self._shot_turn else "normal",
            "required": self._required, "played": self._played,
            "shot_target": self._shot_target, "double_next": self._double_next,
        }

    @property
    def active(self) -> tuple[bool, ...]:
        return self._active

    @property
    def chips(self) -> tuple[int, ...]:
        return self._chips

    @property
    def main_stack(self) -> list[str]:
        """The main stack, bottom first."""
        return _tokens(self._stack)

    @property
    def draw_pile(self) -> list[str]:
        """The draw pile, top first (teacher access)."""
        return _tokens(reversed(self._draw))

    @property
    def config(self) -> Config:
        return self._cfg

    def hand(self, seat: int) -> list[str]:
        """A seat's hand in table order (teacher access; players use ``view``)."""
        return _tokens(self._hands[seat])

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Play]:
        """Legal actions of the player to act: the hand's cards in N1.3 table order, SHOT and
        DOUBLE SHOT once per legal target in seat order (a fresh list every call)."""
        if self._cp is None:
            return []
        p = self._actor
        hand = self._hands[p]
        cfg = self._cfg
        room = _NO_LIMIT if cfg.voluntary else cfg.limit - self._sum
        out: list[Play] = []
        prev = -1
        for c in hand:  # sorted: equal cards are neighbours
            if c != prev and _NEED[c] <= room:  # safe, or busting allowed (N4.3)
                a = _PLAY1_SIMPLE[c]
                if a is None:  # SHOT / DOUBLE SHOT: one play per target (N3.6)
                    out += (self._tgt.shots if c == SHOT else self._tgt.dshots)[p]
                else:
                    out.append(a)
            prev = c
        if not out:
            # Forced with auto_forced_bust=False: every card is legal and busts (N4.4).
            out = [_PLAY1[c] for c in sorted(set(hand))]
        return out

    _legal = legal_actions  # the base's hook; the match is running whenever it is asked

    def ui_candidates(self, seat: int | None) -> list[str]:
        """Each card in the seat's hand (SHOT cards with their first target): the table says why
        one cannot be played."""
        if self._cp is None or seat != self._actor:
            return []
        out = []
        for c in sorted(set(self._hands[seat])):
            if c == SHOT or c == DSHOT:
                targets = (self._tgt.shots if c == SHOT else self._tgt.dshots)[seat]
                out += [str(a) for a in targets[:1]]
            else:
                out.append(str(_PLAY1[c]))
        return out

    def _safe_cards(self, hand: Sequence[int]) -> list[int]:
        room = self._cfg.limit - self._sum
        return sorted({c for c in hand if c > PLUS_MAX or VALUE[c] <= room})

    def _diagnose(self, action: Play) -> tuple[str, str] | None:
        c, t = action.cid, action.target
        p = self._actor
        hand = self._hands[p]
        cfg = self._cfg
        if c not in hand:
            return "N4.2", f"you hold no {_SHOW[c]} (your hand: {_fmt(hand)})"
        if c == SHOT or c == DSHOT:
            if t is None:
                return "N3.6", f"{_SHOW[c]} needs a target"
        elif t is not None:
            return "N4.2", f"only SHOT and DOUBLE SHOT take a target ({_SHOW[c]} does not)"
        if t is not None:
            if t == p and not cfg.self_target:
                return "N3.6", "you cannot target yourself"
            if t >= self.players:
                return "N6.7", f"there is no seat {t} (seats are 0-{self.players - 1})"
            if not self._active[t]:
                return "N6.7", f"{self.seat_label(t)} is out of the match"
        if c <= PLUS_MAX and self._sum + VALUE[c] > cfg.limit and not cfg.voluntary:
            safe = self._safe_cards(hand)
            if safe:
                return "N4.3", (f"{_SHOW[c]} would make the sum {self._sum + VALUE[c]} (over {cfg.limit}) while "
                                f"you hold a safe card ({', '.join(_SHOW[s] for s in safe)})")
        return None

    # ------------------------------------------------------------- two cards at once (N4.1)
    def _expand(self, text: str) -> list[Play] | None:
        if "," not in text:
            return None
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(parts):
            raise InvalidActionError(f"{quote(text)}: two cards at once are 'play <card> [@t], <card> [@t]'")
        return [parse_action(parts[0]), parse_action(parts[1])]

    def _sequence_break(self, done: Any, trial: State | None, actor: int,
                        hidden: str | None) -> tuple[str, str] | None:
        # Reasons from what the actor knows only (their hand, the sum, the options), so
        # the answer never depends on a card about to be drawn.
        cfg = self._cfg
        if self._required != 2 or self._played != 0:
            who = self.seat_label(self._actor)
            why = (f"{who} has already played 1 of the 2 cards of this double turn" if self._required == 2
                   else f"{who} has a normal turn with 1 card to play")
            return "N4.1", "two cards at once need a double turn; " + why
        c = done.cid
        if c <= PLUS_MAX and self._sum + VALUE[c] > cfg.limit:
            rule = "N4.4" if not self._safe_cards(self._hands[actor]) else "N6.1"
            return rule, f"{done} busts, which ends the round before the second card (rule N6.2)"
        if c == PASS and cfg.pass_ends:
            return "N4.6", "PASS ends the double turn (pass_ends_double_turn), so no second card is played"
        if cfg.after_each:  # before the hand's size: the draw between the cards may refill it
            return "N4.6", ("with double_draw_timing='after_each' the draw comes between the two cards: "
                            "play them one at a time")
        if len(self._hands[actor]) == 1:
            return "N4.5", f"after {done} the hand is empty, so the turn ends before the second card"
        if trial is None or trial.current_player != actor:
            return "N4.4", f"after {done} no card in hand is safe: the player is forced and the round ends"
        return None

    # ------------------------------------------------------------- the simulation fast path
    def apply_unchecked(self, action: Play) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``, unnarrated.

        A one-card turn that busts nobody and finds a card to draw (most turns) is done
        here in a few steps; everything else (double turns, busts, reshuffles) goes
        through ``_apply``, the path narrated play takes. The tests play every option
        both ways and compare the states."""
        c = action.cid
        draw = self._draw
        if self._required == 1 and draw:
            cfg = self._cfg
            total = self._sum
            if c <= PLUS_MAX:
                total += VALUE[c]
                if total > cfg.limit:  # a bust (N6.1, N4.4)
                    self._apply(action, None)
                    self._history = (self._history, action)
                    self._moves += 1
                    return
            elif c == MINUS_1 or c == MINUS_10:
                total -= VALUE[c]
                if total < 0 and cfg.floor:
                    total = 0
            elif c == SET99:
                total = cfg.set_value
            elif c == TURN:
                self._dir = -self._dir
            p = self._actor
            hand = self._hands[p]
            hand.remove(c)
            self._stack.append(c)
            self._sum = total
            self._last = (p, action)
            insort(hand, draw.pop())  # N4.7
            # N5: the next turn (this one recorded nothing before its only card).
            if c < SHOT or c == DOUBLE:
                nxt = self._tgt.next[self._dir][self._anchor]
                self._actor = self._cp = self._anchor = nxt
                if self._shot_turn:
                    self._shot_turn = False
                if c == DOUBLE:
                    self._required = 2
            else:  # SHOT or DOUBLE SHOT: its target plays now (N5.2)
                nxt = action.target
                self._actor = self._cp = nxt
                self._anchor = p if cfg.after_shooter else nxt
                self._shot_turn = True
                if c == DSHOT:
                    self._required = 2
            self._turns += 1
            hand = self._hands[nxt]
            if not hand or (cfg.auto_bust and hand[-1] <= PLUS_MAX and VALUE[hand[0]] > cfg.limit - total):
                self._settle(None)  # an empty hand (N4.5) or a forced bust (N4.4)
            if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
                self._abort(None)
        else:
            self._apply(action, None)
        self._history = (self._history, action)
        self._moves += 1

    # ------------------------------------------------------------- the one transition path
    def _apply(self, action: Play, ev: list[Event] | None) -> None:
        c = action.cid
        p = self._actor
        cfg = self._cfg
        hand = self._hands[p]
        hand.remove(c)
        self._stack.append(c)
        self._last = (p, action)
        before = self._sum
        if c <= PLUS_MAX:
            s = before + VALUE[c]
            self._sum = s
            if s > cfg.limit:
                if ev is not None:
                    ev.append(Event("play", {"seat": p, "card": TOKENS[c], "target": None, "sum_before": before,
                                             "sum": s}, "N3.1",
                                    f"{self.seat_label(p)} plays {_SHOW[c]}: sum {number(before)} → {s} "
                                    f"(over {cfg.limit}) (rule N3.1)."))
                room = cfg.limit - before
                forced = all(k <= PLUS_MAX and VALUE[k] > room for k in hand) and VALUE[c] > room
                self._do_bust(p, c, forced, ev)
                self._settle(ev)
                if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
                    self._abort(ev)
                return
        elif c == MINUS_1 or c == MINUS_10:
            s = before - VALUE[c]
            self._sum = 0 if s < 0 and cfg.floor else s
        elif c == SET99:
            self._sum = cfg.set_value
        elif c == TURN:
            self._dir = -self._dir
        elif c == SHOT:
            self._shot_target = action.target
        elif c == DOUBLE:
            self._double_next = True
        elif c == DSHOT:
            self._shot_target = action.target
            self._double_next = True
        played = self._played + 1
        self._played = played
        req = self._required
        if ev is not None:
            self._narrate_play(p, c, action.target, before, ev)
        each = req == 2 and cfg.after_each
        if each:
            self._draw_cards(p, 1, ev, "N4.6")
        if played >= req or (c == PASS and cfg.pass_ends):
            if ev is not None and played < req:
                ev.append(Event("pass_ends", {"seat": p}, "N4.6",
                                f"PASS ends {self.seat_label(p)}'s double turn (pass_ends_double_turn, rule N4.6)."))
            # N4.7 draws (unless drawn after each card), then N5: who plays next.
            if not each:
                draw = self._draw
                if ev is None and not self._previewing and len(draw) >= played:
                    insort(hand, draw.pop())  # the common case, inlined for simulations
                    if played == 2:
                        insort(hand, draw.pop())
                else:
                    self._draw_cards(p, played, ev)
            self._next_turn(p, ev)
        self._settle(ev)
        if self._moves + 1 >= ACTION_BOUND and self._cp is not None:
            self._abort(ev)  # this action is the match's ACTION_BOUND-th (rule G4)

    def _next_turn(self, p: int, ev: list[Event] | None) -> None:
        """N5: the next actor, anchor and number of cards."""
        t = self._shot_target
        req = 2 if self._double_next else 1
        if t is not None:
            self._begin_turn(t, p if self._cfg.after_shooter else t, req, True, ev)
        else:
            s = self._tgt.next[self._dir][self._anchor]
            self._begin_turn(s, s, req, False, ev)
        if self._previewing:  # what comes next depends on the new actor's hidden hand
            self._hidden(ev, f"{self.seat_label(self._actor)}'s turn begins")

    def _narrate_play(self, p: int, c: int, t: int | None, before: int, ev: list[Event]) -> None:
        who = self.seat_label(p)
        rule = _CARD_RULE[c]
        double = self._required == 2
        if c <= SET99:
            floor = " (floored at 0)" if c in (MINUS_1, MINUS_10) and before - VALUE[c] != self._sum else ""
            text = f"{who} plays {_SHOW[c]}: sum {number(before)} → {number(self._sum)}{floor} (rule {rule})."
        elif c == PASS:
            text = f"{who} plays PASS: the sum stays {number(self._sum)} (rule N3.4)."
        elif c == TURN:
            way = "clockwise" if self._dir == 1 else "counter-clockwise"
            text = f"{who} plays TURN: play now goes {way} (rule N3.5)."
        elif c == DOUBLE:
            text = f"{who} plays DOUBLE: the next turn plays 2 cards (rule N3.7)."
        else:
            tn = self.seat_label(t)  # type: ignore[arg-type]
            resume = who if self._cfg.after_shooter else tn
            two = " 2 cards" if self._double_next else ""  # this DOUBLE SHOT's, or a DOUBLE's earlier this turn
            if double and self._played == 1:
                # Only the last SHOT of a double turn decides who plays next (N4.6, N5.1).
                text = (f"{who} plays {_SHOW[c]} on {tn} (rule {rule}): if no other SHOT follows in this double "
                        f"turn, {tn} plays{two} next (rules N4.6, N5.1).")
            else:
                text = (f"{who} plays {_SHOW[c]} on {tn} (rule {rule}): {tn} plays{two} now; "
                        f"afterwards play resumes after {resume} (rule N5.2).")
        if double:
            text = text[:-1] + f" — card {self._played} of 2."
        ev.append(Event("play", {"seat": p, "card": TOKENS[c], "target": t, "sum_before": before,
                                 "sum": self._sum, "played": self._played, "required": self._required},
                        rule, text))

    def _settle(self, ev: list[Event] | None) -> None:
        """Automatic steps before the actor must choose: empty hands (N4.5), forced busts (N4.4)."""
        cfg = self._cfg
        while self._cp is not None:
            p = self._actor
            hand = self._hands[p]
            if not hand:
                if not any(self._hands[s] for s in range(self.players) if self._active[s]):
                    # Unreachable: with 2 cards or more and none held by eliminated players
                    # (both checked on loading) someone always holds a card.
                    raise RuntimeError("no active player holds a card: the match cannot go on (N7.2)")
                if ev is not None:
                    ev.append(Event("empty_hand", {"seat": p}, "N4.5",
                                    f"{self.seat_label(p)} has no cards: the rest of the turn is skipped "
                                    f"(rule N4.5)."))
                if not (self._required == 2 and cfg.after_each):  # else drawn after each card (N4.6)
                    self._draw_cards(p, self._played, ev)
                self._next_turn(p, ev)
                continue
            if cfg.auto_bust:
                c0 = hand[0]
                if c0 <= PLUS_MAX and VALUE[c0] > cfg.limit - self._sum and hand[-1] <= PLUS_MAX:
                    self._do_bust(p, None, True, ev)
                    continue
            return

    def _draw_cards(self, p: int, k: int, ev: list[Event] | None, rule: str = "N4.7") -> None:
        if not k:
            return
        if self._previewing:  # the draw pile is hidden: a preview stops here
            self._hidden(ev, f"{self.seat_label(p)} draws {plural(k, 'card')} (rule {rule})")
        hand, draw = self._hands[p], self._draw
        got = 0
        for _ in range(k):
            if not draw:
                if len(self._stack) < 2:
                    if ev is not None:
                        ev.append(Event("draw_short", {"seat": p, "missing": k - got}, "N7.2",
                                        f"Nothing is left to draw: {self.seat_label(p)} goes on with "
                                        f"{plural(len(hand), 'card')} (rule N7.2)."))
                    break
                rest = self._stack[:-1]
                self._stack = self._stack[-1:]
                self._shuffle(rest)
                self._draw = draw = rest
                if ev is not None:
                    ev.append(Event("reshuffle", {"cards": len(rest)}, "N7.1",
                                    f"The draw pile is empty: the main stack except its top card "
                                    f"({plural(len(rest), 'card')}) is shuffled into a new draw pile; the sum stays "
                                    f"{self._sum} (rule N7.1)."))
            insort(hand, draw.pop())
            got += 1
        if ev is not None and got:
            ev.append(Event("draw", {"seat": p, "count": got}, rule,
                            f"{self.seat_label(p)} draws {plural(got, 'card')} (rule {rule})."))

    def _begin_turn(self, actor: int, anchor: int, required: int, shot: bool, ev: list[Event] | None) -> None:
        self._actor = self._cp = actor
        self._anchor = anchor
        self._required = required
        self._shot_turn = shot
        self._played = 0
        self._shot_target = None
        self._double_next = False
        self._turns += 1
        if ev is not None:
            who = self.seat_label(actor)
            if shot:
                kind = "a double shot turn (2 cards" if required == 2 else "a shot turn (1 card"
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "shot", "required": required},
                                "N5.2", f"{who} plays {kind}); afterwards play continues after "
                                        f"{self.seat_label(anchor)} (rule N5.2)."))
            elif required == 2:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 2},
                                "N3.7", f"{who} must play 2 cards (DOUBLE, rule N3.7)."))
            elif not self._stack:  # no card played yet this round: the dealer opens it
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 1},
                                "N5.5", f"{who}'s turn: 1 card, the first of the round (rule N5.5)."))
            else:
                ev.append(Event("turn", {"seat": actor, "anchor": anchor, "kind": "normal", "required": 1},
                                "N5.3", f"{who}'s turn: 1 card (rule N5.3)."))

    def _abort(self, ev: list[Event] | None) -> None:
        """End the match with no winner: it reached the engine's safety cap (G4)."""
        self._cp = None
        self._termination = Termination.ABORTED
        self._reason = self._end_reason()
        if ev is not None:
            ev.append(Event("abort", {"actions": ACTION_BOUND}, "G4", f"The match is {self._reason}."))

    def _end_reason(self) -> str:
        """``outcome().reason``, from the fields (so loading needs no saved text)."""
        if self._cp is not None:
            return ""
        if self._termination is Termination.ABORTED:
            return f"stopped by the engine's safety cap of {ACTION_BOUND:,} actions (rule G4)"
        b = self._bust
        w = self._active.index(True)
        return (f"{self.seat_label(b['seat'])} busted last (round {b['round']}, sum {b['sum']}); "
                f"{self.seat_label(w)} is the last player left (rule N6.5)")

    def _step(self, s: int, d: int) -> int:
        return self._tgt.next[d][s]

    def _do_bust(self, p: int, card: int | None, forced: bool, ev: list[Event] | None) -> None:
        """N6: the round ends at once; chips, elimination, match end or the next round."""
        cfg = self._cfg
        # The hand at the moment of the choice (a forced play's card included).
        hand = self._hands[p] if card is None else sorted(self._hands[p] + [card])
        # N8.2: a forced bust shows the hand as proof; a voluntary bust keeps it private.
        self._bust = {"seat": p, "sum": self._sum, "hand": _tokens(hand) if forced else None,
                      "card": None if card is None else TOKENS[card], "forced": forced, "round": self._round}
        if ev is not None:
            who = self.seat_label(p)
            if card is None:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} holds {_fmt(hand)} at {self._sum} — every card would take the sum over "
                                f"{cfg.limit}: {who} is forced and busts (rule N4.4)."))
            elif forced:
                ev.append(Event("bust", dict(self._bust), "N4.4",
                                f"{who} held {_fmt(hand)} at {self._sum - VALUE[card]} — every card would take "
                                f"the sum over {cfg.limit}: {who} is forced, plays {_SHOW[card]} and busts at "
                                f"{self._sum} (rule N4.4)."))
            else:
                ev.append(Event("bust", dict(self._bust), "N6.1",
                                f"{who} busts at {self._sum} (rule N6.1); the round ends at once, "
                                f"nothing is drawn (rule N6.2)."))
        active = list(self._active)
        if cfg.life_system:
            chips = list(self._chips)
            chips[p] -= 1
            self._chips = tuple(chips)
            if chips[p] <= 0:
                active[p] = False
        else:
            active[p] = False
        out_now = not active[p]
        if out_now:
            self._out = self._out + (p,)
        self._active = tuple(active)
        if ev is not None:
            who = self.seat_label(p)
            if cfg.life_system:
                left = self._chips[p]
                text = (f"{who} loses a chip, {left} left (rule N6.4)" if left else
                        f"{who} loses their last chip and is out of the match (rule N6.4)")
                ev.append(Event("chip", {"seat": p, "chips": left, "eliminated": out_now}, "N6.4", text + "."))
            else:
                ev.append(Event("eliminated", {"seat": p}, "N6.3", f"{who} is out of the match (rule N6.3)."))
        if active.count(True) == 1:
            w = active.index(True)
            self._cp = None
            self._reason = self._end_reason()
            if ev is not None:
                ev.append(Event("match_end", {"winner": w}, "N6.5",
                                f"Only {self.seat_label(w)} is left: {self.seat_label(w)} wins the match "
                                f"(rule N6.5)."))
            return
        self._tgt = _targets(self.players, self._active, cfg)
        rule = cfg.starter
        if rule == "loser" and active[p]:
            dealer = p
        elif rule == "rotate":
            dealer = self._step(self._dealer, 1)
        else:
            dealer = self._step(p, 1)
        self._new_round(dealer, None, ev)

    def _new_round(self, dealer: int, order: list[int] | None, ev: list[Event] | None) -> None:
        """N2.3: gather, shuffle, deal from the dealer clockwise; the dealer plays first."""
        n = self.players
        if order is None:
            self._hidden(ev, f"the cards are shuffled and dealt for round {self._round + 1} (rule N6.6)")
            gathered = self._draw + self._stack
            for h in self._hands:
                gathered += h
            self._shuffle(gathered)
            order = gathered
        hands: list[list[int]] = [[] for _ in range(n)]
        seats = self._tgt.deal[dealer]
        m = len(seats)
        dealt = m * self._cfg.hand_size
        if len(order) >= dealt:  # one card at a time, clockwise: seat i gets cards i, i+m, i+2m ...
            for i, s in enumerate(seats):
                hands[s] = sorted(order[i:dealt:m])
            draw = order[dealt:]
        else:  # a hand-built match with too few cards: the last seats get fewer (N7.2)
            for i in range(len(order)):
                hands[seats[i % m]].append(order[i])
            for h in hands:
                h.sort()
            draw = []
        draw.reverse()  # internal: top of the pile is the end of the list
        self._hands, self._draw, self._stack = hands, draw, []
        self._sum = 0
        if self._cfg.reset_direction or self._round == 0:
            self._dir = 1
        self._dealer = dealer
        self._round += 1
        self._last = None  # a new round starts with no last move on the table
        if ev is not None:
            ev.append(self._round_event(dealer, m))
        self._begin_turn(dealer, dealer, 1, False, ev)

    def _round_event(self, dealer: int, m: int, shuffled: bool = True) -> Event:
        how = "all cards are shuffled and" if shuffled else "the cards, in the order given (deck=), are"
        return Event("round", {"round": self._round, "dealer": dealer}, "N2.3",
                     f"Round {self._round}: {how} {self._cfg.hand_size} dealt to each "
                     f"of {m} players; sum 0; {self.seat_label(dealer)} deals and plays first "
                     f"(rules N2.3, {'N2.2' if self._round == 1 else 'N6.6'}).")

    # ------------------------------------------------------------- cards, outcome, views
    def all_cards(self) -> Counter:
        """Every card in every zone (hands, draw pile, main stack), by token."""
        c = Counter(self._draw)
        c.update(self._stack)
        for h in self._hands:
            c.update(h)
        return Counter({TOKENS[k]: v for k, v in c.items()})

    def outcome(self) -> Outcome | None:
        """Winner = the last active player. Scores: chips left (life system), else the
        finishing place counted from the bottom (first eliminated 0, ..., winner n-1)."""
        if self._cp is not None:
            return None
        if self._termination is Termination.ABORTED:
            return Outcome((), tuple(self._chips), self._reason, self._termination)
        w = self._active.index(True)
        if self._cfg.life_system:
            scores: tuple = tuple(self._chips)
        else:
            place = {s: i for i, s in enumerate(self._out)}
            scores = tuple(place.get(s, self.players - 1) for s in range(self.players))
        return Outcome((w,), scores, self._reason)

    def __repr__(self) -> str:
        return (f"<CirnoNeuState players={self.players} seed={self.seed} moves={self._moves} "
                f"round={self._round} phase={self.phase}>")

    def _check_origin(self) -> None:
        """A game that starts from a hand-built position saves it: it must set up (replays start there)."""
        origin = self._origin
        if origin is None:
            return
        try:
            if isinstance(origin, str):
                start = from_position(origin, self.seed)
            elif isinstance(origin, dict) and origin.get("position") is None:
                start = type(self).from_dict({**origin, "history": []})
            else:
                raise ValueError("expected position text or an object")
        except ValueError as e:
            raise ValueError(f"position: the hand-built start does not set up: {e}") from None
        if start.players != self.players or start.options != self.options:
            raise ValueError("position: the hand-built start is another game (players, options)")


_load_fields = CirnoNeuState._load_state  # generated from FIELDS


def _load_state(self: CirnoNeuState, data: dict[str, Any]) -> None:
    legacy = isinstance(data, dict) and "built" not in data
    _load_fields(self, {**data, "built": None} if legacy else data)
    if legacy:  # saved before states recorded how they were set up: checked as hand-built
        zones = Counter(self._draw) + Counter(self._stack)
        for h in self._hands:
            zones.update(h)
        self._built = tuple(zones[k] for k in range(len(TOKENS)))


CirnoNeuState._load_state = _load_state  # type: ignore[method-assign]


# --------------------------------------------------------------------------- construction
def _blank(players: int, seed: int | None, options: dict[str, Any], chance: Any) -> CirnoNeuState:
    st = CirnoNeuState._create(players, seed, None, options, chance)
    _init(st)
    return st


_NEW_GAMES: dict[tuple, tuple[dict[str, Any], Config]] = {}
_SETUP_EVENTS: dict[tuple, list[Event]] = {}


def new_game(players: int = 4, seed: int | None = None, deck: Sequence[Any] | None = None, *,
             chance: Any = None, **options: Any) -> CirnoNeuState:
    """Set up a cirno+neu match (N2).

    Parameters
    ----------
    players:
        2 to 8 (N1.1).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: the complete card order, index 0 = top, as card tokens
        (``"7"``, ``"⑨"``, ``"pass"``, ``-10`` ...). It must be exactly the
        ``deck_counts`` multiset. It fixes round 1's deal only.
    chance:
        Recorded shuffles to use instead of the seeded ones (``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC``, e.g. ``life_system=True``.

    Examples
    --------
    >>> st = new_game(players=4, seed=1)
    >>> [len(st.hand(s)) for s in range(4)], len(st.draw_pile), st.sum, st.current_player
    ([3, 3, 3, 3], 47, 0, 0)
    """
    # Simulations build many games alike: options validated once are remembered.
    try:
        # Names are no rules option: a game with names is set up in full (see _blank).
        key = (players, *[(k, type(v), v) for k, v in options.items()]) \
            if type(players) is int and "names" not in options else None
        known = _NEW_GAMES.get(key)
    except TypeError:  # an unhashable option value (deck_counts): validated every time
        key = known = None
    if known is None:
        st = _blank(players, seed, options, chance)
        if key is not None and len(_NEW_GAMES) < 512:
            _NEW_GAMES[key] = (st.options, st._cfg)
    else:
        st = CirnoNeuState._create(players, seed, None, {}, chance)  # checks the seed and chance
        st.options = dict(known[0])
        _fill(st, known[1])
    order = None
    if deck is not None:
        order = _deck_list(deck, st._cfg.deck)
        st.deck_order = tuple(TOKENS[c] for c in order)
    fd = st.options["first_dealer"]
    dealer = st._randrange(st.players) if fd == "random" else fd
    if order is None:
        order = list(st._cfg.cards)
        st._shuffle(order)
    st._new_round(dealer, order, None)
    # The first round's narration depends on a few numbers only: made once, then copied.
    key = (len(st._tgt.deal[dealer]), dealer, st._cfg.hand_size, st.names, deck is None)
    told = _SETUP_EVENTS.get(key)
    if told is None:
        told = [st._round_event(dealer, key[0], shuffled=deck is None)]
        st._turns -= 1
        st._begin_turn(dealer, dealer, 1, False, told)
        if len(_SETUP_EVENTS) < 1024:
            _SETUP_EVENTS[key] = told
    events = list(told)
    st._settle(events)
    st.setup_events = events
    return st


def from_dict(data: dict[str, Any]) -> CirnoNeuState:
    """A state saved with ``to_dict``."""
    return CirnoNeuState.from_dict(data)  # type: ignore[return-value]


def from_position(text: str, seed: int | None = None) -> CirnoNeuState:
    """A state from position text (``state.to_position()``; the grammar is in the rules
    reference, "Position text"). ``seed`` deals the unknown parts (``?``) and every later
    shuffle. Raises ``PositionError`` naming the column of what is wrong.
    """
    return load_position(text, seed, lambda mode: CirnoNeuState)  # type: ignore[return-value]


def setup_position(
    players: int,
    hands: Sequence[Sequence[Any]],
    *,
    sum: int = 0,
    draw: Sequence[Any] | None = None,
    stack: Sequence[Any] = (),
    direction: int = 1,
    actor: int = 0,
    anchor: int | None = None,
    required: int = 1,
    played: int = 0,
    kind: str = "normal",
    shot_target: int | None = None,
    double_next: bool = False,
    dealer: int | None = None,
    active: Sequence[bool] | None = None,
    chips: Sequence[int] | None = None,
    round: int = 1,
    seed: int = 0,
    **options: Any,
) -> CirnoNeuState:
    """A hand-built position for teaching and tests.

    ``hands`` lists each seat's cards (tokens). ``draw`` is the draw pile **top
    first**; ``None`` fills it with the rest of the ``deck_counts`` cards (those not
    in hands or on the stack), shuffled with the seed. ``stack`` is the main stack
    bottom first. The turn fields are those of N4.1/N5.1 (``anchor`` defaults to the
    actor). Automatic steps due at once (a forced bust, N4.4) are carried out, and
    their narration is kept in ``state.setup_events``. Replays record the position.

    >>> st = setup_position(4, [["4", "-1"], ["7"], ["1"], ["2"]], sum=95, draw=["5"], required=2)
    >>> [str(a) for a in st.legal_actions()], st.turn["required"]
    (['play 4', 'play -1'], 2)
    """
    st = _blank(players, seed, options, None)
    n = st.players
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    st._hands = [sorted(_ids(h, f"hands[{s}]")) for s, h in enumerate(hands)]
    st._stack = _ids(stack, "stack")
    if draw is None:
        rest = Counter({k: st._cfg.deck[k] for k in range(len(TOKENS))})
        rest.subtract(st._stack)
        for h in st._hands:
            rest.subtract(h)
        pile = [k for k in range(len(TOKENS)) for _ in range(max(0, rest[k]))]
        st._shuffle(pile)
        st._draw = pile[::-1]
    else:
        st._draw = _ids(draw, "draw")[::-1]
    if direction not in (1, -1):
        raise ValueError(f"direction={direction!r}; allowed values: 1 (clockwise), -1")
    if kind not in ("normal", "shot"):
        raise ValueError(f"kind={kind!r}; allowed values: 'normal', 'shot'")
    if required not in (1, 2) or not 0 <= played < required:
        raise ValueError(f"required={required!r}, played={played!r}: required is 1 or 2 and played < required")
    st._active = tuple(bool(a) for a in active) if active is not None else (True,) * n
    if len(st._active) != n or st._active.count(True) < 2:
        raise ValueError("active: one flag per seat, at least 2 active players")
    for s in (actor, anchor, shot_target, dealer):
        if s is not None and not (isinstance(s, int) and 0 <= s < n and st._active[s]):
            raise ValueError(f"seat {s!r} is not an active seat")
    if chips is not None:
        st._chips = tuple(chips)
        if len(st._chips) != n:
            raise ValueError("chips: one count per seat")
    elif st._cfg.life_system:
        st._chips = tuple(st._cfg.lives if a else 0 for a in st._active)
    st._out = tuple(s for s in range(n) if not st._active[s])
    if not any(st._hands[s] for s in range(n) if st._active[s]):
        raise ValueError("at least one active player must hold a card")
    # The match plays with exactly the cards placed here (N2.3 gathers them for later rounds).
    placed = Counter(st._draw) + Counter(st._stack)
    for h in st._hands:
        placed.update(h)
    st._built = tuple(placed[k] for k in range(len(TOKENS)))
    st._tgt = _targets(n, st._active, st._cfg)
    st._sum, st._dir, st._round = sum, direction, round
    st._dealer = actor if dealer is None else dealer
    st._begin_turn(actor, actor if anchor is None else anchor, required, kind == "shot", None)
    st._played, st._shot_target, st._double_next = played, shot_target, double_next
    events: list[Event] = []
    st._check(settled=False)
    st._settle(events)
    st.setup_events = events
    st._mark_origin()
    return st


#: The deck order of the module docstring's example (3 players, default deck).
DEMO_DECK = ["5", "6", "7", "10", "SHOT", "8", "SHOT", "99", "1"]
DEMO_DECK += list((Counter(DEFAULT_DECK) - Counter(DEMO_DECK)).elements())
