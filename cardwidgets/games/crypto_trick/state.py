"""The rules of Crypto Trick as :class:`CryptoTrickState` and its transitions, and the
construction of a game: ``new_game``, ``from_dict``, ``from_position``, ``setup_position``.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

from ...core import Event, Field, Outcome, State, number, plural, tuple_field
from ...core.errors import show
from ...core.position import load_position
from .cards import (Action, COLOUR_NAMES, HAND_SIZE, LETTERS, NAMES, PASS, TRICKS, WANT, WHITE, _GIVE, _LEAD, _PLAY, _REVEAL,
                    _TRUMP, _WHITE_HIGH, Give, Pass, Play, Reveal, Want, _cid, _cid_list, _fmt, _names, _opt_name,
                    card_name, parse_action)
from .position import PositionText
from .spec import (DECLARE, FINISHED, FOLLOW, GIVE, OFFER, PHASES, SPEC, _CLASS_NAMES, _add_score, _config, _deck_list,
                   _default_config, _record_dict, _score, round_score, trump_set)
from .worlds import SeatKnowledge

if TYPE_CHECKING:
    from .spec import Config


def _opt_cid(card: Any) -> int | None:
    return None if card is None else _cid(card)


def _four(v: Any) -> list:
    if type(v) is not list or len(v) != 4:
        raise ValueError(f"expected a list of 4 entries, got {show(v)}")
    return v


def _seat_or_none(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"expected a seat number or None, got {show(v)}")
    return v


def _points(v: int) -> str:
    return f"{number(v)} {'point' if v == 1 else 'points'}"


def _score_words(b: int, k: int, score: int) -> str:
    if b == 0:
        return "no blocks = 5"
    if b <= 3:
        return f"{plural(b, 'block')} in {plural(k, 'colour')} = {score}"
    return f"{b} blocks = {number(score)} (no multiplier)"


def _record_json(raw: tuple) -> list[Any]:
    rnd, ind, hid, won, scored, totals, last_winner = raw
    return [rnd, NAMES[ind], NAMES[hid], [_names(w) for w in won], [list(s) for s in scored], list(totals),
            last_winner]


def _small_int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**6:
        raise ValueError(f"expected a small int, got {show(v)}")
    return v


def _record_load(data: Any) -> tuple:
    if not isinstance(data, list) or len(data) != 7:
        raise ValueError("a round result is [round, indicator, hidden, won, scores, totals, last winner]")
    rnd, ind, hid, won, scored, totals, last_winner = data
    if not isinstance(won, list) or not isinstance(scored, list) or not isinstance(totals, list):
        raise ValueError("a round result holds lists of won piles, scores and totals")
    return (_small_int(rnd), _cid(ind), _cid(hid), tuple(tuple(_cid_list(w, "won")) for w in won),
            tuple(tuple(map(_small_int, sc)) if isinstance(sc, list) and len(sc) == 3 else _bad_score()
                  for sc in scored),
            tuple(map(_small_int, totals)), _small_int(last_winner))


def _bad_score() -> tuple:
    raise ValueError("a round score is [B, K, score]")


class CryptoTrickState(SeatKnowledge, PositionText, State):
    """A Crypto Trick game in progress. Build it with :func:`new_game` or :func:`setup_position`."""

    SPEC = SPEC
    action_types = (Reveal, Want, Pass, Give, Play)
    _parse = staticmethod(parse_action)

    # _hands: a sorted list of card ids per seat. _won: the cards each seat took this
    # round. _table: the cards of the trick in play order (the lead first; position i is
    # seat (leader + i) % N). _wants: bit s is set if seat s declared want this trick.
    # _gives: (trick, giver, receiver, card) of this round's exchanges. _out: cards of
    # the deck that are in no zone this round (hand-built positions only). _lseat and
    # _lmove: who made the last move and what it was (the views show it; a position
    # keeps it without a history). Between tricks the table is empty and nobody leads
    # or declares, so a saved state holds nothing stale.
    # Derived (not saved): _cfg, _str (strength keys of this trick), _fol (must-follow
    # ranges), _best/_win (the strongest key so far and who played it), _know.
    __slots__ = (
        "_cfg", "_hands", "_won", "_table", "_out", "_indicator", "_hidden_card", "_ph", "_cur", "_first",
        "_leader", "_declarer", "_offered", "_wants", "_round", "_trick", "_totals", "_results", "_gives",
        "_lseat", "_lmove", "_last_trick", "_str", "_fol", "_best", "_win", "_know", "is_terminal",
    )
    FIELDS = (
        Field("_cfg", save=False),
        Field("_hands", "lists", lambda hs: [_names(h) for h in hs],
              lambda hs: [sorted(_cid_list(h, "hands")) for h in hs]),
        Field("_won", "lists", lambda ws: [_names(w) for w in ws], lambda ws: [_cid_list(w, "won") for w in ws]),
        Field("_table", "list", _names, lambda t: _cid_list(t, "table")),
        Field("_out", encode=_names, decode=lambda o: tuple(_cid_list(o, "out"))),
        Field("_indicator", encode=card_name, decode=_cid),
        Field("_hidden_card", encode=card_name, decode=_cid),
        Field("_ph", encode=lambda p: PHASES[p], decode=lambda p: PHASES.index(p)),
        Field("_cur"), Field("_first"),
        Field("_leader", decode=_seat_or_none), Field("_declarer", decode=_seat_or_none),
        Field("_offered", encode=_opt_name, decode=_opt_cid),
        Field("_wants"), Field("_round"), Field("_trick"),
        tuple_field("_totals"),
        Field("_results", encode=lambda rs: [_record_json(r) for r in rs],
              decode=lambda rs: tuple(_record_load(r) for r in rs)),
        Field("_gives", encode=lambda gs: [[t, a, b, NAMES[c]] for t, a, b, c in gs],
              decode=lambda gs: tuple((g[0], g[1], g[2], _cid(g[3])) for g in map(_four, gs))),
        Field("_lseat", decode=_seat_or_none),
        Field("_lmove", encode=lambda a: None if a is None else str(a),
              decode=lambda a: None if a is None else parse_action(a)),
        Field("_last_trick", encode=lambda x: None if x is None else [x[0], x[1], _names(x[2]), x[3]],
              decode=lambda x: None if x is None else (x[0], x[1], _cid_list(_four(x)[2], "last_trick"), x[3])),
        Field("_str", save=False), Field("_fol", save=False), Field("_best", save=False), Field("_win", save=False),
        # What a seat knows of the round in play, for sample_world (a cache keyed by the history).
        Field("_know", save=False),
        # A plain slot, not a property: simulations read it once per action.
        Field("is_terminal", save=False),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return None if self._ph == FINISHED else self._cur

    @property
    def phase(self) -> str:
        """``"offer"``, ``"declare"``, ``"give"``, ``"follow"`` or ``"finished"``."""
        return PHASES[self._ph]

    @property
    def config(self) -> Config:
        return self._cfg

    @property
    def round(self) -> int:
        return self._round

    @property
    def trick(self) -> int:
        """The trick in play, 1 to 6."""
        return self._trick

    @property
    def first_player(self) -> int:
        """F, the seat that offers in this trick (C0.4)."""
        return self._first

    @property
    def declarer(self) -> int | None:
        """D, the seat that took the offered card this trick, if any (C5.4)."""
        return self._declarer

    @property
    def leader(self) -> int | None:
        """L, the seat whose card leads this trick (``None`` before the lead, C0.4)."""
        return self._leader if self._ph == FOLLOW else None

    @property
    def offered(self) -> str | None:
        """The card revealed in this trick's offer, until it is led."""
        return _opt_name(self._offered)

    @property
    def indicator(self) -> str:
        """This round's trump indicator (C4.3)."""
        return NAMES[self._indicator]

    @property
    def hidden_card(self) -> str:
        """This round's hidden card (teacher access: nobody sees it before the round ends, C11.4)."""
        return NAMES[self._hidden_card]

    @property
    def trumps(self) -> list[str]:
        """The trump colours of this round, as letters (C4.4)."""
        return [LETTERS[c] for c in sorted(trump_set(self._indicator // 100))]

    @property
    def table(self) -> list[tuple[int, str]]:
        """``(seat, card)`` of the trick so far, in play order (the lead first)."""
        n = self.players
        return [((self._leader + i) % n, NAMES[c]) for i, c in enumerate(self._table)] if self._ph == FOLLOW else []

    @property
    def totals(self) -> tuple[int, ...]:
        return self._totals

    def hand(self, seat: int) -> list[str]:
        """A seat's hand in card order (teacher access; players use ``view``)."""
        return _names(self._hands[seat])

    def won(self, seat: int) -> list[str]:
        """The cards a seat has won this round."""
        return _names(self._won[seat])

    def card_class(self, card: str) -> str:
        """``"trump"``, ``"lead"`` or ``"off"``: the class of ``card`` in the trick in play (C7.1).

        >>> st = setup_position(4, [["B5"], ["R1"], ["Y2"], []], "R4", first=3, phase="follow",
        ...                     table=["W1"], declarations=["pass"] * 3)
        >>> [st.card_class(c) for c in ("W1", "R1", "Y2", "W6")]
        ['trump', 'trump', 'off', 'trump']
        """
        if self._ph != FOLLOW:
            raise ValueError("card classes exist only while a trick is being played (phase 'follow')")
        c = _cid(card)
        if c not in self._cfg.deck_set:
            raise ValueError(f"{NAMES[c]} is not a card of this game")
        return _CLASS_NAMES[self._str[c] // 1000]

    def score_now(self, seat: int) -> tuple[int, int, int]:
        """``(B, K, score)`` the seat's won pile would score if the round ended now (C9)."""
        return round_score(self._won[seat], self._cfg.block, self._cfg.negative)

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Action]:
        """Legal actions, in card order (colours Y B R P G W, then number): ``reveal``
        each card in hand; ``want`` then ``pass``; ``give`` each card in hand; ``play``
        each card that follows the lead colour, or every card when none does (C6.3)."""
        # Plain loops, not comprehensions: a comprehension costs a call of its own, and
        # simulations ask for the legal actions once per action.
        ph = self._ph
        if ph == FOLLOW:
            out: list[Action] = []
            hand = self._hands[self._cur]
            fol = self._fol
            # A hand is sorted, so the cards of a colour are one slice of it (C6.3).
            lo = bisect_left(hand, fol[0])
            hi = bisect_left(hand, fol[1], lo)
            if len(fol) == 2:
                for c in (hand[lo:hi] if lo != hi else hand):
                    out.append(_PLAY[c])
                return out
            lo2 = bisect_left(hand, fol[2], hi)
            hi2 = bisect_left(hand, fol[3], lo2)
            for c in (hand[lo:hi] + hand[lo2:hi2] if lo != hi or lo2 != hi2 else hand):
                out.append(_PLAY[c])
            return out
        if ph == DECLARE:
            return [WANT, PASS]
        out = []
        table = _REVEAL if ph == OFFER else _GIVE if ph == GIVE else None
        if table is not None:
            for c in self._hands[self._cur]:
                out.append(table[c])
        return out

    _legal = legal_actions

    def _diagnose(self, action: Action) -> tuple[str, str] | None:
        # From what the actor sees only: their own hand and the table.
        t = type(action)
        if t is Want or t is Pass:
            return None  # the phase check (G2) and the turn (G3) are all C5.2 asks
        hand = self._hands[self._cur]
        c = action.cid
        rule = "C5.1" if t is Reveal else "C5.5" if t is Give else "C6.2"
        if c not in hand:
            if c not in self._cfg.deck_set:
                return rule, f"{NAMES[c]} is not a card of this game (your hand: {_fmt(hand)})"
            return rule, f"you hold no {NAMES[c]} (your hand: {_fmt(hand)})"
        if t is Play:
            fol = self._fol
            cols = [fol[i] // 100 for i in range(0, len(fol), 2)]
            if c // 100 not in cols:
                same = [x for x in hand if x // 100 in cols]
                if same:
                    if len(cols) == 1:
                        need = COLOUR_NAMES[cols[0]]
                    else:
                        need = "a trump (" + " or ".join(COLOUR_NAMES[x] for x in cols) + \
                               ", which follow each other here)"
                    note = ""
                    trumps = trump_set(self._indicator // 100)
                    if len(cols) == 1 and len(trumps) == 2 and c // 100 in trumps and cols[0] in trumps:
                        note = (f"; {NAMES[c]} is a trump too, but white and "
                                f"{COLOUR_NAMES[self._indicator // 100]} are different colours for following "
                                f"(rule C6.4)")
                    return "C6.3", (f"the lead is {NAMES[self._table[0]]} and you hold {_fmt(same)}: you must "
                                    f"play {need}{note}")
        return None

    # ------------------------------------------------------------- the one transition path
    def apply_unchecked(self, a: Action) -> None:
        """Simulation fast path (see :meth:`State.apply_unchecked`): the steps of ``_apply``
        without narration, in one call. The conformance tests compare the two paths on every
        step of random games of every configuration."""
        p = self._cur
        self._lseat = p
        self._lmove = a
        ph = self._ph
        self._history = (self._history, a)
        self._moves += 1
        if ph == FOLLOW:  # C6.2
            c = a.cid
            self._hands[p].remove(c)
            table = self._table
            table.append(c)
            k = self._str[c]
            if k >= self._best:  # C7.2: an equal card played later wins
                self._best = k
                self._win = p
            if len(table) < self.players:
                p += 1
                self._cur = 0 if p == self.players else p
            elif self._trick == TRICKS:
                self._end_trick(None)
            else:  # _end_trick without narration, for the tricks before the last (C8.1, C8.2)
                w = self._win
                self._won[w].extend(table)
                self._last_trick = (self._trick, self._leader, table, w)
                self._table = []
                self._declarer = self._leader = None
                self._wants = 0
                self._trick += 1
                self._first = self._cur = w
                self._ph = OFFER
            return
        if ph == DECLARE:  # C5.2
            if type(a) is Want:
                self._wants |= 1 << p
                self._declarer = p
                if self._cfg.first_mode:  # C5.4: the first want takes it
                    self._ph = GIVE
                    return
            p += 1
            if p == self.players:
                p = 0
            if p != self._first:
                self._cur = p
                return
            if self._declarer is not None:  # C5.4: the declarer gives
                self._ph = GIVE
                self._cur = self._declarer
                return
            # C5.3: nobody wants it, so the first player leads (p is back to them)
        elif ph == OFFER:  # C5.1
            c = a.cid
            self._hands[p].remove(c)
            self._offered = c
            self._ph = DECLARE
            p += 1
            self._cur = 0 if p == self.players else p
            return
        else:  # GIVE: C5.5, then the declarer leads (C5.6)
            c = a.cid
            f = self._first
            self._hands[p].remove(c)
            insort(self._hands[f], c)
            self._gives += ((self._trick, p, f, c),)
        # The offered card leads (_lead without narration): p is the lead player.
        c = self._offered
        self._offered = None
        self._leader = self._win = p
        self._table = [c]
        cfg = self._cfg
        lc = c // 100
        s = self._str = cfg.strength[self._indicator // 100][lc]
        self._fol = cfg.follow[self._indicator // 100][lc]
        self._best = s[c]
        self._ph = FOLLOW
        p += 1
        self._cur = 0 if p == self.players else p

    def _apply(self, a: Action, ev: list[Event] | None) -> None:
        # The phase says which kind of action this is: the base refuses any other (G2).
        p = self._cur
        self._lseat = p
        self._lmove = a
        ph = self._ph
        if ph == FOLLOW:  # C6.2: a follower plays
            c = a.cid
            self._hands[p].remove(c)
            table = self._table
            table.append(c)
            k = self._str[c]
            if k >= self._best:  # C7.2: an equal card played later wins
                self._best = k
                self._win = p
            if ev is not None:
                self._say_play(p, c, ev)
            if len(table) == self.players:
                self._end_trick(ev)
            else:
                p += 1
                self._cur = 0 if p == self.players else p
        elif ph == DECLARE:  # C5.2
            if type(a) is Want:
                self._wants |= 1 << p
                self._declarer = p
                if ev is not None:
                    ev.append(Event("declare", {"seat": p, "want": True}, "C5.2",
                                    f"{self.seat_label(p)} wants {NAMES[self._offered]} (rule C5.2)."))
                if self._cfg.first_mode:
                    self._to_give(ev)
                    return
            elif ev is not None:
                ev.append(Event("declare", {"seat": p, "want": False}, "C5.2",
                                f"{self.seat_label(p)} passes (rule C5.2)."))
            p += 1
            if p == self.players:
                p = 0
            if p != self._first:
                self._cur = p
            elif self._declarer is None:
                if ev is not None:
                    ev.append(Event("no_taker", {"seat": self._first, "card": NAMES[self._offered]}, "C5.3",
                                    f"Nobody wants {NAMES[self._offered]} (rule C5.3)."))
                self._lead(self._first, ev)
            else:
                self._to_give(ev)
        elif ph == OFFER:  # C5.1 (the declarer was cleared when the last trick ended)
            c = a.cid
            self._hands[p].remove(c)
            self._offered = c
            self._ph = DECLARE
            if ev is not None:
                ev.append(Event("reveal", {"seat": p, "card": NAMES[c]}, "C5.1",
                                f"{self.seat_label(p)} reveals {NAMES[c]} and offers it (rule C5.1)."))
            p += 1
            self._cur = 0 if p == self.players else p
        else:  # GIVE (C5.5): the declarer hands the first player a card, then leads (C5.6).
            c = a.cid
            f = self._first
            self._hands[p].remove(c)
            insort(self._hands[f], c)
            self._gives += ((self._trick, p, f, c),)
            if ev is not None:
                self._say_give(p, f, c, ev)
            self._lead(p, ev)

    def _say_give(self, p: int, f: int, c: int, ev: list[Event]) -> None:
        d, r = self.seat_label(p), self.seat_label(f)
        if self._cfg.public_give:
            ev.append(Event("give", {"seat": p, "to": f, "card": NAMES[c]}, "C5.5",
                            f"{d} gives {r} {NAMES[c]}, face up for all to see (rules C5.5, C11.3)."))
        else:
            ev.append(Event("give", {"seat": p, "to": f, "card": None}, "C5.5",
                            f"{d} gives {r} a card face down (rule C5.5)."))
            ev.append(Event("give_card", {"seat": p, "to": f, "card": NAMES[c]}, "C11.3",
                            f"The card is {NAMES[c]}: only {d} and {r} know it (rule C11.3).", audience=(p, f)))

    def _to_give(self, ev: list[Event] | None) -> None:
        """C5.4: the declarer is settled; they must now give the first player a card."""
        d = self._declarer
        self._ph = GIVE
        self._cur = d
        if ev is not None:
            who, card = self.seat_label(d), NAMES[self._offered]
            if self._cfg.first_mode:
                text = (f"{who} is the declarer: the first player to want {card} takes it, and nobody after "
                        f"declares (declaration_mode single_pass_first, rule C5.4).")
            elif self._wants & (self._wants - 1):
                text = f"{who} is the declarer: of the players who wanted {card}, {who} declared last (rule C5.4)."
            else:
                text = f"{who} is the declarer: the only player who wanted {card} (rule C5.4)."
            ev.append(Event("declarer", {"seat": d, "card": card}, "C5.4", text))

    def _lead(self, leader: int, ev: list[Event] | None) -> None:
        """The offered card becomes the lead card of ``leader`` (C5.3, C5.6); following starts (C6.2)."""
        c = self._offered
        self._offered = None
        self._leader = leader
        self._table = [c]
        t = self._indicator // 100
        lc = c // 100
        cfg = self._cfg
        s = self._str = cfg.strength[t][lc]
        self._fol = cfg.follow[t][lc]
        self._best = s[c]
        self._win = leader
        self._ph = FOLLOW
        nxt = leader + 1
        self._cur = 0 if nxt == self.players else nxt
        if ev is not None:
            who = self.seat_label(leader)
            if leader == self._first:
                text = f"{who} leads {NAMES[c]} (rule C5.3)."
                rule = "C5.3"
            else:
                text = f"{who} leads {NAMES[c]}, the card {self.seat_label(self._first)} offered (rule C5.6)."
                rule = "C5.6"
            text += f" {self.seat_label(self._cur)} follows first (rule C6.2)."
            ev.append(Event("lead", {"seat": leader, "card": NAMES[c], "colour": LETTERS[lc],
                                     "declarer": self._declarer}, rule, text))

    def _say_play(self, p: int, c: int, ev: list[Event]) -> None:
        lead = self._table[0]
        fol = self._fol
        cols = [fol[i] // 100 for i in range(0, len(fol), 2)]
        who = self.seat_label(p)
        follows = c // 100 in cols
        if follows:
            what = COLOUR_NAMES[lead // 100] if len(cols) == 1 else "the trumps"
            text = f"{who} follows {what} with {NAMES[c]} (rule C6.3)."
        else:
            what = COLOUR_NAMES[lead // 100] if len(cols) == 1 else "trump"
            text = f"{who} has no {what} and plays {NAMES[c]} (rule C6.3)."
        ev.append(Event("play", {"seat": p, "card": NAMES[c], "position": len(self._table), "forced": follows},
                        "C6.3", text))

    def _end_trick(self, ev: list[Event] | None) -> None:
        """C7.3, C8: the strongest card takes the trick; its player opens the next one."""
        w = self._win
        table = self._table
        self._won[w].extend(table)
        self._last_trick = (self._trick, self._leader, table, w)
        if ev is not None:
            self._say_trick(w, table, ev)
        self._table = []
        self._declarer = self._leader = None
        self._wants = 0
        t = self._trick + 1
        if t > TRICKS:
            self._end_round(w, ev)
            return
        self._trick = t
        self._first = self._cur = w
        self._ph = OFFER
        if ev is not None:
            ev.append(Event("next_trick", {"seat": w, "trick": t}, "C8.2",
                            f"{self.seat_label(w)} opens trick {t} with an offer (rule C8.2)."))

    def _say_trick(self, w: int, table: list[int], ev: list[Event]) -> None:
        n = self.players
        s = self._str
        leader = self._leader
        pos = (w - leader) % n
        c = table[pos]
        key = s[c]
        cls = key // 1000
        lead = table[0]
        rivals = [table[i] for i in range(n) if i != pos]
        equal = [x for x in rivals if s[x] == key]
        if equal:
            why = f"{NAMES[c]} ties {_fmt(equal)} and was played later"
        elif cls == _WHITE_HIGH and any(s[x] // 1000 == _TRUMP for x in rivals):
            why = "white ranks above the indicator colour (trump_ranking white_high)"
        elif cls >= _TRUMP and any(s[x] // 1000 == _LEAD for x in table):
            why = f"a trump beats the lead colour {COLOUR_NAMES[lead // 100]}"
        elif cls >= _TRUMP:
            why = "the highest trump"
        else:
            why = f"the highest {COLOUR_NAMES[lead // 100]} card, and no trump was played"
        blocks = sum(self._cfg.block[x] for x in table)
        ev.append(Event("trick", {"trick": self._trick, "winner": w, "card": NAMES[c], "cards": _names(table),
                                  "leader": leader},
                        "C7.2", f"{self.seat_label(w)} wins trick {self._trick} with {NAMES[c]}: {why} (rule C7.2). "
                                f"{self.seat_label(w)} takes the {len(table)} cards, {plural(blocks, 'block card')} "
                                f"among them (rule C8.1)."))

    def _end_round(self, last_winner: int, ev: list[Event] | None) -> None:
        """C8.3, C9: score the round; then show the hidden card and deal again, or end the game (C10)."""
        cfg = self._cfg
        n = self.players
        bbit, negative = cfg.bbit, cfg.negative
        scored = tuple(map(_score, self._won, (bbit,) * n, (negative,) * n))
        totals = tuple(map(_add_score, self._totals, scored))
        self._totals = totals
        won = tuple(map(tuple, self._won))
        if ev is not None:
            record = _record_dict((self._round, self._indicator, None, won, scored, totals, last_winner), cfg)
            if self.options["won_pile_visibility"] == "block_count_only":
                del record["won"]  # a public event carries only what every seat may see (C11.5)
            parts = "; ".join(f"{self.seat_label(s)} {_score_words(*scored[s])}" for s in range(n))
            tot = ", ".join(f"{self.seat_label(s)} {number(totals[s])}" for s in range(n))
            ev.append(Event("round_end", record, "C9.2",
                            f"Round {self._round} is over after {TRICKS} tricks (rule C8.3). Scores (rule C9.2): "
                            f"{parts}. Totals (rule C9.4): {tot}."))
        # What follows shows a card nobody has seen, then deals from a shuffle.
        self._hidden(ev, "the hidden card is turned up (rule C11.4)")
        self._results += ((self._round, self._indicator, self._hidden_card, won, scored, totals, last_winner),)
        if ev is not None:
            ev.append(Event("hidden_card", {"round": self._round, "card": NAMES[self._hidden_card]}, "C11.4",
                            f"The hidden card of round {self._round} was {NAMES[self._hidden_card]} (rule C11.4)."))
        if self._round < cfg.rounds:
            self._round += 1
            self._deal(last_winner, None, ev)
            return
        self._ph = FINISHED
        self.is_terminal = True
        if ev is not None:
            out = self.outcome()
            ev.append(Event("game_end", {"winners": list(out.winners), "totals": list(totals)}, "C10.1",
                            f"The game is over: {out.reason}."))

    def _deal(self, first: int, order: list[int] | None, ev: list[Event] | None) -> None:
        """C4: shuffle (unless ``order``, top first, is given), deal 6 each from ``first``
        clockwise, turn up the indicator and set the hidden card aside."""
        cfg = self._cfg
        n = self.players
        given = order is not None
        if order is None:
            order = list(cfg.deck)
            self._shuffle(order)
        dealt = HAND_SIZE * n
        hands: list[Any] = [None] * n
        for j in range(n):
            h = order[j:dealt:n]
            h.sort()
            hands[(first + j) % n] = h
        self._hands = hands
        self._indicator = order[dealt]
        self._hidden_card = order[dealt + 1]
        self._won = [[], [], [], [], []][:n]
        self._table = []
        self._out = ()
        self._gives = ()
        self._trick = 1
        self._first = self._cur = first
        self._leader = self._declarer = self._offered = None
        self._wants = 0
        self._ph = OFFER
        self._last_trick = None
        if ev is not None:
            ind = self._indicator
            deal, shown = _deal_texts(self._round, cfg.rounds, len(cfg.deck), given, self.seat_label(first), ind)
            ev.append(Event("deal", {"round": self._round, "first": first}, "C4.2", deal))
            trumps = [LETTERS[c] for c in sorted(trump_set(ind // 100))]
            ev.append(Event("indicator", {"card": NAMES[ind], "trumps": trumps}, "C4.4", shown))

    # ------------------------------------------------------------- outcome
    def outcome(self) -> Outcome | None:
        """Winners: every seat with the highest total (C10.1). Scores: the totals."""
        if self._ph != FINISHED:
            return None
        best = max(self._totals)
        winners = tuple(s for s, t in enumerate(self._totals) if t == best)
        rounds = plural(self._cfg.rounds, "round")
        points = _points(best)
        if len(winners) == 1:
            reason = f"{self.seat_label(winners[0])} wins with {points}, the highest total after {rounds} (rule C10.1)"
        else:
            names = ", ".join(self.seat_label(s) for s in winners[:-1]) + f" and {self.seat_label(winners[-1])}"
            reason = f"{names} share the win with {points} each, the highest total after {rounds} (rule C10.1)"
        return Outcome(winners, tuple(self._totals), reason)

    # ------------------------------------------------------------- cards
    def all_cards(self) -> Counter:
        """Every card in every zone: hands, won piles, the trick, the offer, the indicator,
        the hidden card (and cards a hand-built position left out)."""
        c: Counter = Counter()
        for h in self._hands:
            c.update(_names(h))
        for w in self._won:
            c.update(_names(w))
        if self._ph == FOLLOW:
            c.update(_names(self._table))
        if self._offered is not None:
            c[NAMES[self._offered]] += 1
        c.update(_names(self._out))
        c[NAMES[self._indicator]] += 1
        c[NAMES[self._hidden_card]] += 1
        return c

    def _deck_counter(self) -> Counter:
        return Counter(_names(self._cfg.deck))

    def __repr__(self) -> str:
        return (f"<CryptoTrickState players={self.players} seed={self.seed} moves={self._moves} "
                f"round={self._round} trick={self._trick} phase={self.phase}>")


_DEAL_TEXTS: dict[tuple, tuple[str, str]] = {}


def _deal_texts(rnd: int, rounds: int, cards: int, given: bool, who: str, ind: int) -> tuple[str, str]:
    """The narration of a deal and of its trump indicator (C4.2 to C4.4), worked out once
    for each case: every new game narrates its first deal."""
    key = (rnd, rounds, cards, given, who, ind)
    texts = _DEAL_TEXTS.get(key)
    if texts is None:
        tc = ind // 100
        how = "dealt in the given order" if given else "shuffled and dealt"
        start = (f"{who} won the last trick of round {rnd - 1} and starts (rule C3.3)" if rnd > 1
                 else f"{who} starts (rule C2.5)")
        trumps = "only white is trump" if tc == WHITE else f"white and {COLOUR_NAMES[tc]} are trumps"
        texts = (f"Round {rnd} of {rounds}: the {cards} cards are {how}, {HAND_SIZE} to each player clockwise "
                 f"from {who} (rules C4.1, C4.2); {start}.",
                 f"{NAMES[ind]} is turned up as the trump indicator: {trumps} this round (rules C4.3, C4.4). The "
                 f"last card is set aside face down as the hidden card (rule C4.3).")
        if len(_DEAL_TEXTS) < 20_000:
            _DEAL_TEXTS[key] = texts
    return texts


# --------------------------------------------------------------------------- construction
def _blank(players: int, seed: int | None, options: dict[str, Any], chance: Any) -> CryptoTrickState:
    st = CryptoTrickState._create(players, seed, None, options, chance)
    n = st.players
    fp = st.options["first_player"]
    if fp != "random" and fp >= n:
        raise ValueError(f"first_player={fp!r} is not allowed in a {n}-player game; allowed values: 0..{n - 1} "
                         f"or 'random' (rule C2.5)")
    st._cfg = _config(n, st.options) if options else _default_config(n)
    st._totals = (0,) * n
    st._results = ()
    st._round = 1
    st._lseat = st._lmove = st._know = None
    st._str, st._fol, st._best, st._win = None, (0, 0), -1, None  # no trick is played yet
    st.is_terminal = False
    return st


def new_game(players: int = 4, seed: int | None = None, deck: Sequence[Any] | None = None, *,
             chance: Any = None, **options: Any) -> CryptoTrickState:
    """Set up a Crypto Trick game and deal round 1 (C2, C4).

    Parameters
    ----------
    players:
        2 to 5 (C2.1).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: round 1's card order, index 0 = top, as card names. It must be
        exactly the game's 6N + 2 cards. Dealt one at a time clockwise from the first
        player; the next card is the trump indicator, the last the hidden card (C4.2).
    chance:
        Recorded shuffles instead of the seeded ones (``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC`` (``rounds``, ``declaration_mode`` ...).

    Examples
    --------
    >>> st = new_game(players=2, seed=1, deck="Y1 Y2 Y3 Y4 Y5 Y6 B1 B2 B3 B4 B5 B6 W1 W6".split())
    >>> st.hand(0), st.hand(1), st.indicator
    (['Y1', 'Y3', 'Y5', 'B1', 'B3', 'B5'], ['Y2', 'Y4', 'Y6', 'B2', 'B4', 'B6'], 'W1')
    """
    st = _blank(players, seed, options, chance)
    order = None
    if deck is not None:
        order = _deck_list(deck, st._cfg)
        st.deck_order = tuple(NAMES[c] for c in order)
    fp = st.options["first_player"]
    first = st._randrange(st.players) if fp == "random" else fp
    events: list[Event] = []
    st._deal(first, order, events)
    st.setup_events = events
    return st


def from_dict(data: dict[str, Any]) -> CryptoTrickState:
    """A state saved with ``to_dict``."""
    return CryptoTrickState.from_dict(data)  # type: ignore[return-value]


def from_position(text: str, seed: int | None = None) -> CryptoTrickState:
    """A state from position text (``state.to_position()``, or typed by hand).

    The grammar, with an example and every field, is in the rules reference
    (``cardwidgets/rules/crypto_trick.md``, "Position text"). Parts written ``?`` (a hand
    ``?5``, the hidden card) are dealt from the cards placed nowhere with ``seed``, which
    also seeds every later shuffle. Raises :class:`~cardwidgets.core.position.PositionError`
    naming the column.

    >>> st = from_position("crypto_trick/1 players=3 trick=5 first=B indicator=B4 "
    ...                    "hands=?2/R1,R2/?2 won=Y1,Y2,Y3/R3,R4,R5/B1,B2,B3,Y4,Y5,Y6", seed=1)
    >>> st.phase, st.current_player, st.hand(1), len(st.hand(0))
    ('offer', 1, ['R1', 'R2'], 2)
    >>> from_position("crypto_trick/1 players=3 indicator=B4 hands=?/?/Q1")
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 49 (hands): 'Q1' is not a card (the cards are Y, B and R 1-6, W1 and W6)
    """
    return load_position(text, seed, lambda mode: CryptoTrickState)  # type: ignore[return-value]


def _decl_value(d: Any) -> bool:
    if isinstance(d, bool):
        return d
    if isinstance(d, str) and d.strip().lower() in ("want", "y", "pass", "n"):
        return d.strip().lower() in ("want", "y")
    raise ValueError(f"declarations: {show(d)} is not 'want'/'pass' (or True/False)")


def setup_position(
    players: int,
    hands: Sequence[Sequence[str]],
    indicator: str,
    hidden: str | None = None,
    *,
    first: int = 0,
    phase: str = "offer",
    offered: str | None = None,
    declarations: Sequence[Any] = (),
    table: Sequence[str] = (),
    won: Sequence[Sequence[str]] | None = None,
    totals: Sequence[int] | None = None,
    round: int = 1,
    trick: int | None = None,
    seed: int = 0,
    **options: Any,
) -> CryptoTrickState:
    """A hand-built position for lessons and tests.

    ``hands`` lists each seat's cards; ``indicator`` and ``hidden`` are this round's
    trump indicator and hidden card (``hidden=None`` sets aside one of the cards
    placed nowhere, chosen with the seed). ``first`` is the trick's first player F.
    ``phase`` and its fields:

    * ``"offer"``: F is to reveal;
    * ``"declare"``: ``offered`` is F's revealed card, ``declarations`` those made
      so far (``"want"``/``"pass"`` or booleans, clockwise from F's left);
    * ``"give"``: every declaration made, the declarer is the one C5.4 names;
    * ``"follow"``: ``table`` holds the cards played so far, the lead first (its
      leader is the declarer if there was one, else F; the offered card is
      ``table[0]``); the next follower is to act.

    ``won`` are the piles won so far this round, ``totals`` the scores of earlier
    rounds. ``trick`` defaults to what the hand sizes say (7 minus the cards each
    player holds at the start of the trick). Cards of the deck placed nowhere are
    out of this round; the next round deals all of them again.

    >>> st = setup_position(3, [["Y2", "R5", "B1"], ["R1", "R2", "W6"], ["Y6", "R3", "B6"]], "B4")
    >>> st.trick, st.trumps, st.phase, st.current_player
    (4, ['B', 'W'], 'offer', 0)
    """
    st = _blank(players, seed, options, None)
    n = st.players
    cfg = st._cfg
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    if phase not in ("offer", "declare", "give", "follow"):
        raise ValueError(f"phase={phase!r}; allowed values: 'offer', 'declare', 'give', 'follow'")
    ph = PHASES.index(phase)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise ValueError(f"first must be a seat 0..{n - 1}")
    st._hands = [sorted(_cid_list(h, f"hands[{s}]")) for s, h in enumerate(hands)]
    st._won = [_cid_list(w, f"won[{s}]") for s, w in enumerate(won)] if won is not None else [[] for _ in range(n)]
    if len(st._won) != n:
        raise ValueError(f"won: expected {n} piles")
    st._indicator = _cid(indicator, "indicator")
    decl = [_decl_value(d) for d in declarations]
    tab = _cid_list(list(table), "table")
    st._offered = None
    st._wants, st._declarer, st._leader = 0, None, None
    st._table = []
    if ph != OFFER:
        if ph == FOLLOW:
            if not tab:
                raise ValueError("phase 'follow' needs the table's cards, the lead first")
            if offered is not None and _cid(offered) != tab[0]:
                raise ValueError("the offered card is the lead card, table[0]")
        elif offered is None:
            raise ValueError(f"phase {phase!r} needs the offered card")
        else:
            st._offered = _cid(offered, "offered")
        full = len(decl) == n - 1
        if cfg.first_mode and any(decl[:-1]):
            raise ValueError("with single_pass_first nobody declares after the first want")
        if ph == DECLARE and (full or (decl and decl[-1] and cfg.first_mode)):
            raise ValueError("declarations: in phase 'declare' someone must still be to declare")
        if ph != DECLARE and not full and not (cfg.first_mode and decl and decl[-1]):
            raise ValueError(f"declarations: phase {phase!r} comes after all {n - 1} declarations")
        for i, w in enumerate(decl):
            if w:
                s = (first + 1 + i) % n
                st._wants |= 1 << s
                st._declarer = s
        if ph == GIVE and st._declarer is None:
            raise ValueError("phase 'give' needs a declarer: someone must have declared want")
        if ph == FOLLOW:
            st._leader = first if st._declarer is None else st._declarer
            if len(tab) >= n:
                raise ValueError(f"table: a trick in play holds 1 to {n - 1} cards")
            st._table = tab
    st._first = first
    st._ph = ph
    if ph == OFFER:
        st._cur = first
    elif ph == DECLARE:
        st._cur = (first + 1 + len(decl)) % n
    elif ph == GIVE:
        st._cur = st._declarer
    else:
        st._cur = (st._leader + len(tab)) % n
    # Hand sizes: h at the start of the trick, h - 1 once a card is down (C5.7).
    h = max(len(x) for x in st._hands)
    trick_now = TRICKS + 1 - h
    if trick is not None and trick != trick_now:
        raise ValueError(f"trick={trick!r} does not fit hands of up to {h} cards: that is trick {trick_now} "
                         f"(rules C3.2, C5.7)")
    if not 1 <= trick_now <= TRICKS:
        raise ValueError(f"hands: a trick starts with 1 to {HAND_SIZE} cards in each hand (rule C4.2)")
    st._trick = trick_now
    problem = st._size_problem()
    if problem:
        raise ValueError(problem)
    if totals is not None:
        if len(totals) != n or any(isinstance(t, bool) or not isinstance(t, int) for t in totals):
            raise ValueError(f"totals: expected {n} ints")
        st._totals = tuple(totals)
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= cfg.rounds:
        raise ValueError(f"round must be an int from 1 to {cfg.rounds}")
    st._round = round
    placed = [c for h in st._hands for c in h] + [c for w in st._won for c in w] + st._table
    placed += [st._indicator] + ([st._offered] if st._offered is not None else [])
    if hidden is not None:
        placed.append(_cid(hidden, "hidden"))
    bad = sorted({c for c in placed if c not in cfg.deck_set})
    if bad:
        raise ValueError(f"{_fmt(bad)} {'is' if len(bad) == 1 else 'are'} not in this game's deck "
                         f"({_fmt(cfg.deck)}, rule C2.2)")
    dup = sorted(c for c, k in Counter(placed).items() if k > 1)
    if dup:
        raise ValueError(f"{_fmt(dup)} placed twice: every card is unique")
    rest = [c for c in cfg.deck if c not in set(placed)]
    if hidden is None:
        if not rest:
            raise ValueError("no card is left to be the hidden card (rule C4.3)")
        st._shuffle(rest)
        st._hidden_card = rest.pop()
        rest.sort()
    else:
        st._hidden_card = _cid(hidden, "hidden")
    st._out = tuple(rest)
    st._gives = ()
    st._last_trick = None
    st._check_loaded()  # what setup_position cannot see for itself, such as C6.3 on the table
    st._mark_origin()
    return st
