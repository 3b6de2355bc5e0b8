"""The trick engines: the standard game (3–7 players, standard or advanced card set) and duo.

Both share the house building of Y8 (:meth:`_TrickTable._build`): captured cards go
on top of the house, the bottom ones collapse face down past the house limit, and a
roof fixes the house for the rest of the round.

>>> from cardwidgets.games.yadokarick import new_game
>>> st = new_game(players=4, seed=3)
>>> st.phase, st.current_player, len(st.hand(0)), st.marker
('play', 0, 10, 11)
>>> st = new_game(players=2, mode="duo", seed=3)
>>> st.current_player, st.view(0)["npc_deck_count"]
(0, 16)
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from typing import Any

from ...core import Event, Field, Outcome, State, number, plural, tuple_field
from ...core.registry import game_module
from .cards import (ACTION_TYPES, HAND_SIZE, MOVE, NAME, NPC, PLAY, TRICKS, Arrange, LoadError, Move, Play, _cap,
                    arrange, check_record, check_seat, decode_cards, decode_lists, duo_winner_seats, duo_winners,
                    encode_lists, listing, names, parse_action, round_score, small_int)
from .position import DuoPositionText, StandardPositionText
from .spec import SPEC
from .worlds import DuoSeat, StandardSeat

_MOVES = {
    (True, True): [MOVE["left"], MOVE["right"], MOVE["stay"]],
    (True, False): [MOVE["left"], MOVE["stay"]],
    (False, True): [MOVE["right"], MOVE["stay"]],
    (False, False): [MOVE["stay"]],
}


def _enc_hands(hands: list[list[Play]]) -> list[list[str]]:
    return [[a.card for a in h] for h in hands]


def _dec_hands(value: Any) -> list[list[Play]]:
    return [[PLAY[c] for c in sorted(h)] for h in decode_lists(value, "hands")]


def _enc_last(last: Any) -> Any:
    return None if last is None else [last[0], str(last[1])]


def _dec_last(value: Any) -> Any:
    if value is None:
        return None
    return (value[0], parse_action(value[1]))


def _enc_trick(t: Any) -> Any:
    return None if t is None else [t[0], names(t[1])]


def _dec_trick(v: Any) -> Any:
    return None if v is None else (v[0], tuple(decode_cards(v[1], "last_trick")))


_DEALS: dict[tuple, Event] = {}  # the duo deal's event per table order and names (events are never changed)






@lru_cache(maxsize=64)
def _text_start(text: str, seed: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    # The package's loader, through the registry (the package imports this module).
    st = game_module(SPEC.name).from_position(text, seed)
    return getattr(st, "_round", 1), tuple(tuple(p) for p in st._collapsed)


def _origin_start(st: Any) -> tuple[int, Any] | None:
    """The round and the collapsed piles of ``st``'s hand-built start (position text or a saved
    state), if it has one."""
    origin = st._origin
    if isinstance(origin, str):
        return _text_start(origin, st.seed)
    state = origin.get("state") if isinstance(origin, dict) else None
    if not isinstance(state, dict):
        return None
    return state.get("round", 1), decode_lists(state.get("collapsed", []), "collapsed")




def _auto_order(cards: list[int], roof: tuple[bool, ...]) -> list[int]:
    """Captured cards in placement order: play order, roof cards last (Y8.3)."""
    for c in cards:
        if roof[c]:
            return [c for c in cards if not roof[c]] + [c for c in cards if roof[c]]
    return cards


class _TrickTable(State):
    """What the standard and duo engines share: houses, building, views of houses."""

    SPEC = SPEC
    action_types = ACTION_TYPES
    _parse = staticmethod(parse_action)
    # ``is_terminal`` is a plain attribute kept in step with ``_cur`` (set where a game starts,
    # ends or is loaded): a simulation reads it once per action, and a property costs more.
    # ``_blind_start``: a world's memory of what its seat never saw (see ``_blind``).
    __slots__ = ("is_terminal", "_blind_start")

    @classmethod
    def _create(cls, *args: Any, **kwargs: Any) -> Any:
        st = super()._create(*args, **kwargs)
        st._blind_start = None
        return st

    # ------------------------------------------------------------- reading
    @property
    def current_player(self) -> int | None:
        return self._cur

    @property
    def phase(self) -> str:
        return self._phase

    def legal_actions(self) -> list[Any]:
        """Legal actions of the player to act, in the order of ``_legal`` (a new list)."""
        if self._cur is None:
            return []
        if self._phase == "play":
            return self._hands[self._cur][:]
        return list(self._legal())

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand (ascending by number)."""
        return [a.card for a in self._hands[seat]]

    def house(self, who: int) -> list[str]:
        """A house, bottom to top (duo: 2 is the NPC)."""
        return names(self._houses[who])

    def collapsed(self, who: int) -> list[str]:
        return names(self._collapsed[who])

    def house_size(self, who: int) -> int:
        """H: the total size of the face-up cards of a house (Y8.8)."""
        s = self._cfg.size
        return sum(s[c] for c in self._houses[who])

    def collapsed_size(self, who: int) -> int:
        """F: the total size of a collapsed pile (Y8.8)."""
        s = self._cfg.size
        return sum(s[c] for c in self._collapsed[who])

    @property
    def roofed(self) -> tuple[bool, ...]:
        return self._roofed

    @property
    def discard(self) -> list[str]:
        return names(self._discard)

    def _who(self, who: int) -> str:
        return self.seat_label(who)

    # ------------------------------------------------------------- building (Y8)
    def _build(self, who: int, cards: list[int], ev: list[Event] | None, rule: str = "Y8.2") -> None:
        """Place ``cards`` (in this order) on ``who``'s unroofed house; collapse; roof."""
        cfg = self._cfg
        house = self._houses[who]
        house += cards
        over = len(house) - cfg.house_limit
        gone = None
        if over > 0:
            gone = house[:over]
            del house[:over]
            self._collapsed[who] += gone
        roofed = cfg.roofs_apply and not cfg.roofset.isdisjoint(cards)
        if roofed:
            r = list(self._roofed)
            r[who] = True
            self._roofed = tuple(r)
        if ev is not None:
            roof = cfg.roof
            name = self._who(who)
            size = cfg.size
            h = sum(size[c] for c in house)
            order = " then ".join(NAME[c] for c in cards)
            ev.append(Event("place", {"who": name, "cards": names(cards), "house": names(house), "size": h}, rule,
                            f"{_cap(name)} places {order} on {self._their(who)} house: H = {h} (rule {rule})."))
            if gone:
                f = sum(size[c] for c in self._collapsed[who])
                head = f"{_cap(name)}'s house holds more than {cfg.house_limit} cards: "
                verb = "collapses" if len(gone) == 1 else "collapse"
                text = f"{head}{listing(gone)} {verb} face down, F = {f} (rule Y8.4)."
                data = {"who": name, "cards": names(gone), "collapsed_size": f}
                if cfg.collapsed_public:
                    ev.append(Event("collapse", data, "Y8.4", text))
                else:  # everyone sees how many cards go; only the owner sees which (Y15.3)
                    ev.append(Event("collapse", {"who": name, "count": len(gone)}, "Y8.4",
                                    f"{head}{plural(len(gone), 'card')} {verb} face down (rule Y8.4)."))
                    owner = (who,) if who < self.players else ()  # the NPC's pile: the teacher view only
                    which = "they are" if len(gone) > 1 else "it is"
                    secret = f"only {name} sees that pile" if owner else "no player sees the NPC's collapsed pile"
                    ev.append(Event("collapse_cards", data, "Y15.3", f"Face down, {which} {listing(gone)}: F = {f}; "
                                                                    f"{secret} (rule Y15.3).", audience=owner))
            if roofed:
                r = [NAME[c] for c in cards if roof[c]]
                ev.append(Event("roof", {"who": name, "roof": r, "size": h}, "Y8.5",
                                f"{r[0]} is a roof: {name}'s house is fixed at H = {h} for the rest of the "
                                f"round (rule Y8.5)."))

    def _their(self, who: int) -> str:
        return "its" if who == NPC and self.mode == "duo" else "their"

    def _capture(self, who: int, cards: list[int], ev: list[Event] | None) -> None:
        """``who`` captured ``cards`` (play order): build, or discard if the house is roofed (Y8.6)."""
        if self._roofed[who]:
            self._discard += cards
            if ev is not None:
                name = self._who(who)
                ev.append(Event("roofed_discard", {"who": name, "cards": names(cards)}, "Y8.6",
                                f"{_cap(name)}'s house has a roof, so {listing(cards)} "
                                f"{'goes' if len(cards) == 1 else 'go'} to the discard pile (rule Y8.6)."))
            return
        cfg = self._cfg
        if not cfg.roofset.isdisjoint(cards):
            cards = _auto_order(cards, cfg.roof)
        self._build(who, cards, ev)

    # ------------------------------------------------------------- views
    def _house_view(self, seat: int | None, count: int) -> dict[str, Any]:
        cfg = self._cfg
        size = cfg.size
        public = cfg.collapsed_public
        return {
            "houses": [names(h) for h in self._houses],
            "house_sizes": [sum(size[c] for c in h) for h in self._houses],
            "roofed": list(self._roofed),
            "collapsed": [names(self._collapsed[w]) if public or seat is None or seat == w else None
                          for w in range(count)],
            "collapsed_counts": [len(x) for x in self._collapsed],
            "collapsed_sizes": [sum(size[c] for c in self._collapsed[w]) if public or seat is None or seat == w
                                else None for w in range(count)],
            "discard": names(self._discard),
            "sizes": {NAME[c]: size[c] for c in cfg.cards},
            "roofs": [NAME[c] for c in cfg.cards if cfg.roof[c]],
        }

    def all_cards(self) -> Counter:
        """Every card in every zone (the conformance suite checks none is created or lost)."""
        c: Counter = Counter()
        for zone in self._zones():
            c.update(NAME[x] for x in zone)
        return c

    def _check_common(self, humans: int, count: int) -> None:
        """The checks the standard and duo games share: the shape of every zone, the cards
        (each card of the game exactly once), the houses (Y8), the trick number, the last
        trick (its cards were played, so they are in houses, collapsed piles, captures or the
        discard pile) and the last action's seat. ``count``: the houses (duo: 3 with the NPC)."""
        cfg = self._cfg
        if not isinstance(self._hands, list) or len(self._hands) != humans:
            raise LoadError("hands", f"expected {humans} hands")
        for key in ("houses", "collapsed"):
            v = getattr(self, "_" + key)
            if not isinstance(v, list) or len(v) != count:
                raise LoadError(key, f"expected {count} lists of cards")
        if not isinstance(self._roofed, tuple) or len(self._roofed) != count or \
                not all(isinstance(r, bool) for r in self._roofed):
            raise LoadError("houses", f"roofed: expected {count} booleans")
        got = Counter(x for zone in self._zones() for x in zone)
        if got != Counter(cfg.cards):
            extra = sorted((got - Counter(cfg.cards)).elements())
            missing = sorted((Counter(cfg.cards) - got).elements())
            what = []
            if extra:
                what.append(f"{listing(extra)} {'is' if len(extra) == 1 else 'are'} extra or placed twice")
            if missing:
                what.append(f"{listing(missing)} {'is' if len(missing) == 1 else 'are'} missing")
            raise LoadError("hands", "the cards are not those of this game: " + "; ".join(what))
        limit = cfg.house_limit
        roof = cfg.roof
        for w in range(count):
            house, gone = self._houses[w], self._collapsed[w]
            name = self.seat_label(w)
            if len(house) > limit:
                raise LoadError("houses", f"{name}'s house holds {len(house)} cards; at most {limit} (rule Y8.4)")
            if gone and len(house) != limit:
                raise LoadError("collapsed", f"{name} has collapsed cards, so their house holds {limit} cards: "
                                             f"cards collapse only from a full house and never leave it (rule Y8.4)")
            has_roof = any(roof[c] for c in house) or any(roof[c] for c in gone)
            if self._roofed[w] != (cfg.roofs_apply and has_roof):
                raise LoadError("houses", f"{name}'s house is {'' if self._roofed[w] else 'not '}roofed, but "
                                          f"{'it holds' if has_roof else 'it never held'} a roof card "
                                          f"({'rules Y8.5, Y13.7' if self.mode == 'duo' else 'rule Y8.5'})")
        small_int(self._trick_no, "trick", 1, TRICKS)
        if self._last is not None:
            check_seat(self._last[0], humans, "last_action")
        if self._last_trick is not None:
            lead, cards = self._last_trick
            small_int(lead, "last_trick", 0, count - 1)
            if len(cards) != count or len(set(cards)) != count:
                raise LoadError("last_trick", f"the last trick holds {count} different cards")
            played = set(self._discard).union(*self._houses, *self._collapsed, *self._captured())
            if not played.issuperset(cards):
                raise LoadError("last_trick", "the cards of the last trick are captured or discarded: "
                                              f"{listing([c for c in cards if c not in played])} "
                                              f"{'is' if len(cards) == 1 else 'are'} somewhere else")
        check_record(self, self._kinds)

    def _captured(self) -> list[tuple[int, ...]]:
        """Captured cards not yet placed (standard, ``placement_order="choose"``)."""
        return []

    def _tricks_over(self) -> int:
        """Tricks whose cards have left the hands: the one just judged counts (marker, arrange)."""
        return TRICKS if self._phase == "finished" else self._trick_no - (self._phase == "play")

    def _check_piles(self) -> int:
        """Position text only (``LoadError``): each trick over moved one card per participant out of
        the hands into a house, a collapsed pile, a captor's cards still to arrange or the discard
        pile; and until some house has a roof, each put at least one card in a house, since its
        highest card always captures. Returns the number of tricks over. ``_pile_rules()`` cites
        the mode's rules for where a trick's cards go."""
        done, rules = self._tricks_over(), self._pile_rules()
        per = len(self._houses)
        built = sum(map(len, self._houses)) + sum(map(len, self._collapsed)) + sum(map(len, self._captured()))
        placed = built + len(self._discard)
        want = per * done
        if placed != want:
            where = "the houses, the collapsed piles" + (", the captors' cards to arrange" if self._captured()
                                                        else "") + " and the discard pile"
            if done == 0:
                why = f"no trick is over yet, so {where} are empty"
            elif self._phase == "finished":
                why = f"the game is over after {TRICKS} tricks of {per} cards, so {want} cards lie in {where}"
            else:
                when = f"at trick {self._trick_no}," if self._phase == "play" else \
                    f"trick {self._trick_no} has just been judged:"
                why = (f"{when} {plural(done, 'trick')} of {per} cards {'is' if done == 1 else 'are'} over, so "
                       f"{want} cards lie in {where}")
            raise LoadError("discard", f"{why} (rules {rules}); {placed} {'is' if placed == 1 else 'are'} written "
                                       f"there")
        if built < done and not any(self._roofed):
            raise LoadError("houses", f"until a house has a roof, every trick puts at least one card in a house, "
                                      f"since its highest card always captures (rules {rules}); "
                                      f"{plural(done, 'trick')} {'is' if done == 1 else 'are'} over, and the "
                                      f"houses and collapsed piles hold {plural(built, 'card')}")
        return done

    def _blind(self, seat: int) -> list[tuple[int, int]]:
        """``(owner, k)``: the bottom ``k`` cards of ``owner``'s collapsed pile, which ``seat`` never
        saw. With ``collapsed_visibility="count_only"`` a collapsed pile is face down to the
        others, but every card in it was seen face up in a house, except those a hand-built
        position put there at the start of this round."""
        start = self._start_piles()
        if start is None or start[0] != getattr(self, "_round", 1):
            return []
        return [(w, k) for w, k in enumerate(start[1]) if w != seat and k]

    def _start_piles(self) -> tuple[int, tuple[int, ...]] | None:
        """The round of the hand-built start and how many cards each collapsed pile held then,
        if those cards are face down to the others (count_only). A world sampled from such a
        position has no start (``sample_world`` drops it: it holds the real cards) but keeps
        this in ``_blind_start``, so it samples, previews and explains as its position does."""
        if self._cfg.collapsed_public:
            return None
        if self._origin is None:
            return self._blind_start
        start = _origin_start(self)
        return None if start is None else (start[0], tuple(map(len, start[1])))


# =========================================================================== standard
class StandardState(StandardSeat, StandardPositionText, _TrickTable):
    """A standard (or advanced) game of 3 to 7 players. Build it with ``new_game``.

    Seats play clockwise (Y0.1). Each trick: every player plays a card (Y4), the
    trick is judged (Y5 with 3 players, Y6 with more), captured cards are built
    (Y8, with an ``arrange`` step per captor under ``placement_order="choose"``),
    then the players with the lowest number move the marker (Y7) and the last of
    them leads (Y9). After 10 tricks the round is scored (Y10) and the next is dealt.
    """

    __slots__ = ("_cfg", "_hands", "_houses", "_collapsed", "_roofed", "_discard", "_aside", "_trick", "_leader",
                 "_cur", "_phase", "_marker", "_movers", "_entitled", "_moved", "_pending", "_trick_no",
                 "_round", "_dealer", "_totals", "_results", "_last_trick", "_last", "_winners")
    FIELDS = (
        Field("_cfg", save=False),
        Field("is_terminal", save=False),
        Field("_blind_start", save=False),
        Field("_hands", "lists", _enc_hands, _dec_hands),
        Field("_houses", "lists", encode_lists, decode_lists),
        Field("_collapsed", "lists", encode_lists, decode_lists),
        tuple_field("_roofed"),
        Field("_discard", "list", names, decode_cards),
        Field("_aside", encode=names, decode=lambda v: tuple(decode_cards(v, "aside"))),
        Field("_trick", "list", names, decode_cards),
        Field("_leader"),
        Field("_cur"),
        Field("_phase"),
        Field("_marker"),
        tuple_field("_movers"),
        tuple_field("_entitled"),
        tuple_field("_moved"),
        Field("_pending", encode=lambda p: [[s, names(c)] for s, c in p],
              decode=lambda v: tuple((s, tuple(decode_cards(c, "pending"))) for s, c in v)),
        Field("_trick_no"),
        Field("_round"),
        Field("_dealer"),
        tuple_field("_totals"),
        Field("_results", encode=list, decode=lambda v: tuple(dict(x) for x in v)),
        Field("_last_trick", encode=_enc_trick, decode=_dec_trick),
        Field("_last", encode=_enc_last, decode=_dec_last),
        Field("_winners", encode=lambda w: None if w is None else list(w),
              decode=lambda v: None if v is None else tuple(v)),
    )

    _kinds = (Play, Move, Arrange)

    # ------------------------------------------------------------- reading
    @property
    def marker(self) -> int:
        """The value under the size marker: the current target (Y7.1)."""
        return self._marker

    @property
    def totals(self) -> tuple[int, ...]:
        return self._totals

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The current trick as ``(seat, card)`` in play order."""
        n = self.players
        return [((self._leader + i) % n, NAME[c]) for i, c in enumerate(self._trick)]

    @property
    def movers(self) -> tuple[int, ...]:
        """The players still to move the marker this trick, in play order."""
        return self._movers

    def _zones(self) -> list:
        z = [[a.cid for a in h] for h in self._hands]
        z += self._houses + self._collapsed + [self._discard, self._aside, self._trick]
        z += self._captured()
        return z

    def _captured(self) -> list[tuple[int, ...]]:
        return [c for _, c in self._pending]

    # ------------------------------------------------------------- legal actions
    def _legal(self) -> list[Any]:
        """Play: the hand's cards by number (green before pink). Marker: left, right, stay
        (those that stay on the track). Arrange: every order of the captured cards."""
        ph = self._phase
        if ph == "play":
            return self._hands[self._cur]
        if ph == "marker":
            lo, hi = self._cfg.track
            m = self._marker
            return _MOVES[m > lo, m < hi]
        if ph == "arrange":
            return [arrange(p) for p in permutations(self._pending[0][1])]
        return []

    def _diagnose(self, a: Any) -> tuple[str, str] | None:
        me = self.seat_label(self._cur)
        if a.__class__ is Play:
            if a not in self._hands[self._cur]:
                return "Y4.2", f"{me} does not hold {a.card} (hand: {', '.join(self.hand(self._cur))})"
            return None
        if a.__class__ is Move:
            lo, hi = self._cfg.track
            to = self._marker + a.delta
            if not lo <= to <= hi:
                end = "left" if a.delta < 0 else "right"
                return "Y7.2", (f"the marker is on {self._marker}, the {end} end of the size track "
                                f"({lo} to {hi}): it cannot move {a.direction}")
            return None
        want = sorted(self._pending[0][1])
        if sorted(a.cids) != want:
            return "Y8.3", (f"arrange names the cards {me} captured, each once, bottom to top: "
                            f"{', '.join(NAME[c] for c in self._pending[0][1])}")
        return None

    # ------------------------------------------------------------- transitions
    def apply_unchecked(self, a: Any) -> None:
        """Simulation fast path (see ``State.apply_unchecked``): a play or a marker move with as few
        calls as possible; exactly the state ``apply`` leaves (the conformance suite compares)."""
        k = a.__class__
        if k is Arrange:
            State.apply_unchecked(self, a)
            return
        p = self._cur
        self._last = (p, a)
        self._history = (self._history, a)
        self._moves += 1
        if k is Move:
            self._move(p, a, None)
            return
        self._hands[p].remove(a)
        trick = self._trick
        trick.append(a.cid)
        n = self.players
        if len(trick) < n:
            self._cur = p + 1 if p + 1 < n else 0
        else:
            self._judge(None)

    def _apply(self, a: Any, ev: list[Event] | None) -> None:
        k = a.__class__
        p = self._cur
        self._last = (p, a)
        if k is Play:
            self._hands[p].remove(a)
            trick = self._trick
            trick.append(a.cid)
            if ev is not None:
                ev.append(Event("play", {"seat": p, "card": a.card}, "Y4.2",
                                f"{self.seat_label(p)} plays {a.card}, size {self._cfg.size[a.cid]} "
                                f"(rule Y4.2)."))
            if len(trick) < self.players:
                self._cur = p + 1 if p + 1 < self.players else 0
            else:
                self._judge(ev)
        elif k is Move:
            self._move(p, a, ev)
        else:
            self._arranged(p, a, ev)

    def _judge(self, ev: list[Event] | None) -> None:
        """Y5 / Y6: find the movers and the captures; build; discard; then the marker phase.

        With 4 to 7 players one pass finds the lowest card and each colour's highest card and
        largest size, and a second sorts the cards into captures and discards (Y6.1–Y6.3):
        this runs once per trick of every simulated game, so it avoids ``min``/``max`` and
        comprehensions."""
        trick = self._trick
        n = self.players
        lead = self._leader
        cfg = self._cfg
        size = cfg.size
        if n == 3:
            lo = min(trick)
            movers: tuple[int, ...] = ((lead + trick.index(lo)) % 3,)
            if cfg.capture_all:
                taken = trick[:]
            else:
                smax = max([size[c] for c in trick])
                taken = [c for c in trick if size[c] == smax]
            caps = [(trick.index(max(trick)), taken)]
            gone = [c for c in trick if c not in taken] if len(taken) < 3 else None
        else:
            lo = 72
            ghi = phi = -1
            gs = ps = 0
            for c in trick:
                if c < lo:
                    lo = c
                if c & 1:
                    if c > phi:
                        phi = c
                    if size[c] > ps:
                        ps = size[c]
                else:
                    if c > ghi:
                        ghi = c
                    if size[c] > gs:
                        gs = size[c]
            p1 = trick.index(lo)
            if not lo & 1 and phi > lo and lo + 1 in trick:  # the same number in pink (Y6.1)
                p2 = trick.index(lo + 1)
                movers = ((lead + p1) % n, (lead + p2) % n) if p1 < p2 else ((lead + p2) % n, (lead + p1) % n)
            else:
                movers = ((lead + p1) % n,)
            greens, pinks, gone = [], [], []
            for c in trick:
                if c & 1:
                    if size[c] == ps:
                        pinks.append(c)
                    else:
                        gone.append(c)
                elif size[c] == gs:
                    greens.append(c)
                else:
                    gone.append(c)
            if ghi < 0:
                caps = [(trick.index(phi), pinks)]
            elif phi < 0:
                caps = [(trick.index(ghi), greens)]
            else:
                pg, pp = trick.index(ghi), trick.index(phi)
                caps = [(pg, greens), (pp, pinks)] if pg < pp else [(pp, pinks), (pg, greens)]
        if ev is not None:
            self._say_judgment(movers, caps, ev)
        pending = []
        roofed = self._roofed
        houses = self._houses
        for pos, cards in caps:
            who = (lead + pos) % n
            if roofed[who]:
                self._capture(who, cards, ev)  # discarded (Y8.6)
            elif cfg.choose and len(cards) > 1:
                pending.append((who, tuple(cards)))
            elif not cfg.roofset.isdisjoint(cards):
                self._build(who, _auto_order(cards, cfg.roof), ev)
            elif ev is None and len(houses[who]) + len(cards) <= cfg.house_limit:
                houses[who] += cards  # the usual case: no roof, no collapse, nothing to say (Y8.2)
            else:
                self._build(who, cards, ev)
        if gone:
            self._discard += gone
            if ev is not None:
                rule = "Y5.3" if n == 3 else "Y6.3"
                ev.append(Event("discard", {"cards": names(gone)}, rule,
                                f"Nobody captures {listing(gone)}, so {'it goes' if len(gone) == 1 else 'they go'} "
                                f"to the discard pile (rule {rule})."))
        self._movers = self._entitled = movers
        self._moved = ()
        self._last_trick = (lead, trick)  # the list is never changed again
        self._trick = []
        if pending:
            self._pending = tuple(pending)
            self._phase = "arrange"
            self._cur = pending[0][0]
            if ev is not None:
                self._say_arrange(ev)
            return
        self._phase = "marker"
        self._cur = movers[0]
        if ev is not None:
            self._say_marker(ev)

    def _arranged(self, p: int, a: Arrange, ev: list[Event] | None) -> None:
        self._pending = self._pending[1:]
        self._build(p, list(a.cids), ev, "Y8.3")
        if self._pending:
            self._cur = self._pending[0][0]
            if ev is not None:
                self._say_arrange(ev)
            return
        self._phase = "marker"
        self._cur = self._movers[0]
        if ev is not None:
            self._say_marker(ev)

    def _move(self, p: int, a: Move, ev: list[Event] | None) -> None:
        old = self._marker
        self._marker = old + a.delta
        if a.delta:
            self._moved += (p,)
        if ev is not None:
            name = self.seat_label(p)
            text = (f"{name} moves the marker {a.direction}: {old} → {self._marker}" if a.delta
                    else f"{name} leaves the marker on {old}")
            ev.append(Event("marker", {"seat": p, "from": old, "to": self._marker}, "Y7.2",
                            text + " (rule Y7.2)."))
        movers = self._movers[1:]
        self._movers = movers
        if movers:
            self._cur = movers[0]
            if ev is not None:
                self._say_marker(ev)
            return
        entitled = self._entitled
        if self._cfg.last_entitled or not self._moved:
            leader = entitled[-1]
        else:
            leader = self._moved[-1]
        if self._trick_no == TRICKS:
            if self._previewing and self._blind(p):
                # Scoring gives every collapsed size F (Y10.2): a preview for p stops before it when
                # p never saw all the cards of another collapsed pile (count_only, Y15.3).
                self._hidden(ev, "the round is scored and the collapsed piles are turned up (rules Y10.2, Y15.3)")
            self._end_round(ev)
            return
        self._trick_no += 1
        self._leader = self._cur = leader
        self._phase = "play"
        if ev is not None:
            x = self.seat_label(leader)
            t = self._trick_no
            if len(entitled) == 1:
                rule, text = "Y9.1", f"{x} played the lowest number, so {x} leads trick {t}"
            elif self._cfg.last_entitled:
                rule, text = "Y9.2", f"{x} took the last marker turn of the tied players (moving it or not), so {x} leads trick {t}"
            elif self._moved:
                rule, text = "Y9.2", f"{x} was the last tied player to really move the marker, so {x} leads trick {t}"
            else:
                rule, text = "Y9.3", f"Nobody moved the marker, so {x}, the last of the tied players, leads trick {t}"
            ev.append(Event("lead", {"seat": leader, "trick": t}, rule, f"{text} (rule {rule})."))

    # ------------------------------------------------------------- rounds
    def _start_round(self, order: list[int], ev: list[Event] | None) -> None:
        """Deal (Y2.6): 10 cards each, one at a time clockwise from the dealer's left."""
        n = self.players
        start = (self._dealer + 1) % n
        deal = HAND_SIZE * n
        hands: list[list[Play]] = [[] for _ in range(n)]
        for j in range(n):
            hands[(start + j) % n] = [PLAY[c] for c in sorted(order[j:deal:n])]
        self._hands = hands
        self._aside = tuple(order[deal:])
        self._houses = [[] for _ in range(n)]
        self._collapsed = [[] for _ in range(n)]
        self._roofed = (False,) * n
        self._discard = []
        self._trick = []
        if self._round == 1 or self._cfg.reset_marker:
            self._marker = self._cfg.marker_start
        self._leader = self._cur = start
        self.is_terminal = False
        self._phase = "play"
        self._trick_no = 1
        self._movers = self._entitled = self._moved = ()
        self._pending = ()
        self._last_trick = None
        if ev is not None:
            aside = len(self._aside)
            ev.append(Event("deal", {"round": self._round, "dealer": self._dealer, "aside": aside}, "Y2.6",
                            f"Round {self._round} of {self._cfg.rounds}: {self.seat_label(self._dealer)} deals "
                            f"10 cards to each player" + (f", and {plural(aside, 'card')} "
                                                          f"{'is' if aside == 1 else 'are'} set aside unseen"
                                                          if aside else "")
                            + " (rule Y2.6)."))
            ev.append(Event("lead", {"seat": start, "trick": 1}, "Y4.1",
                            f"The marker is on {self._marker}. {self.seat_label(start)}, left of the dealer, "
                            f"leads the first trick (rules Y2.5, Y4.1)."))

    def _end_round(self, ev: list[Event] | None) -> None:
        """Y10: score the round; deal the next one or end the game (Y11)."""
        cfg = self._cfg
        t = self._marker
        size = cfg.size
        hs = [sum(size[c] for c in h) for h in self._houses]
        fs = [sum(size[c] for c in h) for h in self._collapsed]
        scores = [round_score(h, f, t) for h, f in zip(hs, fs)]
        self._totals = tuple(a + b for a, b in zip(self._totals, scores))
        self._results += ({"round": self._round, "target": t, "house_sizes": hs, "collapsed_sizes": fs,
                           "scores": scores},)
        if ev is not None:
            ev.append(Event("target", {"target": t}, "Y10.1",
                            f"Round {self._round} is over; the marker is on {t}, so the target is {t} "
                            f"(rule Y10.1)."))
            for s in range(self.players):
                h, f, sc = hs[s], fs[s], scores[s]
                how = (f"house {h}, under the target" if h < t else f"house {h}, exactly on the target: +5"
                       if h == t else f"house {h}, {h - t} over the target")
                pen = f", minus {f} collapsed" if f else ""
                ev.append(Event("score", {"seat": s, "house": h, "collapsed": f, "target": t, "score": sc},
                                "Y10.2", f"{self.seat_label(s)} scores {number(sc)}: {how}{pen} (rules Y10.2, Y10.3)."))
            ev.append(Event("round_end", {"round": self._round, "totals": list(self._totals)}, "Y10.4",
                            "Totals: " + ", ".join(f"{self.seat_label(s)} {number(self._totals[s])}"
                                                   for s in range(self.players)) + " (rule Y10.4)."))
        if self._round < cfg.rounds:
            self._hidden(ev, f"the cards are shuffled and dealt for round {self._round + 1}")
            self._round += 1
            if cfg.rotate:
                self._dealer = (self._dealer + 1) % self.players
            order = list(cfg.cards)
            self._shuffle(order)
            self._start_round(order, ev)
            return
        best = max(self._totals)
        self._winners = tuple(s for s in range(self.players) if self._totals[s] == best)
        self._phase = "finished"
        self._cur = None
        self.is_terminal = True
        if ev is not None:
            ev.append(Event("game_end", {"winners": list(self._winners), "totals": list(self._totals)}, "Y11.1",
                            f"The game is over: {self._end_text()}."))

    def _end_text(self) -> str:
        """Why the game ended as it did (Y11.1), from the totals and the winners."""
        best = max(self._totals)
        who = " and ".join(self.seat_label(s) for s in self._winners)
        share = " share the win" if len(self._winners) > 1 else " wins"
        return (f"{who}{share} with the highest total, {best} points after {plural(self._cfg.rounds, 'round')} "
                f"(rule Y11.1)")

    # ------------------------------------------------------------- narration helpers
    def _say_judgment(self, movers: tuple[int, ...], caps: list, ev: list[Event]) -> None:
        n = self.players
        lead = self._leader
        size = self._cfg.size
        low = min(self._trick) // 2 + 1
        if len(movers) == 1:
            rule = "Y5.1" if n == 3 else "Y6.1"
            text = (f"The lowest number is {low}: {self.seat_label(movers[0])} moves the marker (rule {rule}).")
        else:
            rule = "Y6.1"
            text = (f"The lowest number is {low}, played by {self.seat_label(movers[0])} and "
                    f"{self.seat_label(movers[1])}: both may move the marker, in play order (rules Y6.1, Y7.3).")
        ev.append(Event("movers", {"movers": list(movers), "number": low}, rule, text))
        for pos, cards in caps:
            who = (lead + pos) % n
            top = NAME[self._trick[pos]]
            name = self.seat_label(who)
            if n == 3:
                rule = "Y5.2"
                if self._cfg.capture_all:
                    text = f"{name} played the highest number, {top}, and captures all 3 cards (rule Y5.2)."
                else:
                    text = (f"{name} played the highest number, {top}, and captures the cards of the largest "
                            f"size, {size[cards[0]]}: {listing(cards)} (rule Y5.2).")
            else:
                rule = "Y6.2"
                colour = "green" if not cards[0] & 1 else "pink"
                text = (f"{colour.capitalize()}: {name} played the highest {colour} card, {top}; the largest "
                        f"{colour} size is {size[cards[0]]}, so {name} captures {listing(cards)} (rule Y6.2).")
            ev.append(Event("capture", {"seat": who, "cards": names(cards)}, rule, text))

    def _say_arrange(self, ev: list[Event]) -> None:
        who, cards = self._pending[0]
        ev.append(Event("arrange", {"seat": who, "cards": names(cards)}, "Y8.3",
                        f"{self.seat_label(who)} chooses the order to place {listing(cards)}, bottom to top "
                        f"(rule Y8.3)."))

    def _say_marker(self, ev: list[Event]) -> None:
        p, m = self._cur, self._marker
        lo, hi = self._cfg.track
        steps = [side for side, ok in (("left", m > lo), ("right", m < hi)) if ok]  # at an end, inward only
        move = f"move the marker from {m} one step {' or '.join(steps)}, or leave it" if steps else \
            f"only leave the marker on {m} (the size track is that one number)"
        ev.append(Event("mover", {"seat": p, "marker": m}, "Y7.2", f"{self.seat_label(p)} may {move} (rule Y7.2)."))

    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        return Outcome(self._winners, self._totals, self._end_text())

    def ui_candidates(self, seat: int | None) -> list[str]:
        """The actions a table offers ``seat`` (its own cards and, after a trick, the marker moves)."""
        s = self._cur if seat is None else seat
        if s is None:
            return []
        out = [f"play {c}" for c in self.hand(s)]
        if self._phase == "marker" and s in self._movers:
            out += ["move left", "move right", "move stay"]
        return out

    def __repr__(self) -> str:
        return (f"<StandardState players={self.players} seed={self.seed} round={self._round} "
                f"trick={self._trick_no} phase={self._phase}>")


# =========================================================================== duo
class DuoState(DuoSeat, DuoPositionText, _TrickTable):
    """A duo game: two players (seats 0 and 1) and a virtual player, the NPC (Y13).

    Table order: position 0 is the first turn position, then clockwise; the NPC sits
    at position ``npc_seat``, and the players fill the other two positions, player
    ``duo_first_leader`` first. So with ``npc_seat=0`` the NPC leads trick 1 (its card
    is turned over while setting up), and the player ``duo_first_leader`` plays right
    after it. The NPC never acts: the top card of its hidden deck is turned over
    inside ``apply`` whenever its turn comes (Y13.5, Y13.12).
    """

    __slots__ = ("_cfg", "_hands", "_npc_deck", "_aside", "_houses", "_collapsed", "_roofed", "_discard",
                 "_trick", "_lead", "_cur", "_phase", "_trick_no", "_last_trick", "_last", "_winners")
    FIELDS = (
        Field("_cfg", save=False),
        Field("is_terminal", save=False),
        Field("_blind_start", save=False),
        Field("_hands", "lists", _enc_hands, _dec_hands),
        Field("_npc_deck", "list", lambda d: names(d[::-1]), lambda v: decode_cards(v, "npc_deck")[::-1]),
        Field("_aside", encode=names, decode=lambda v: tuple(decode_cards(v, "aside"))),
        Field("_houses", "lists", encode_lists, decode_lists),
        Field("_collapsed", "lists", encode_lists, decode_lists),
        tuple_field("_roofed"),
        Field("_discard", "list", names, decode_cards),
        Field("_trick", "list", names, decode_cards),
        Field("_lead"),
        Field("_cur"),
        Field("_phase"),
        Field("_trick_no"),
        Field("_last_trick", encode=_enc_trick, decode=_dec_trick),
        Field("_last", encode=_enc_last, decode=_dec_last),
        Field("_winners", encode=lambda w: None if w is None else list(w),
              decode=lambda v: None if v is None else tuple(v)),
    )

    _kinds = (Play,)
    RESERVED_LABELS = ("NPC", "the NPC")

    def seat_label(self, seat: int) -> str:
        """The players' names (``"A"`` and ``"B"`` by default), ``"NPC"`` for the virtual player."""
        return State.seat_label(self, seat) if seat in (0, 1) else "NPC"

    def _who(self, who: int) -> str:
        return "the NPC" if who == NPC else self.seat_label(who)

    @property
    def order(self) -> tuple[int, ...]:
        """Who sits at table positions 0, 1, 2 (0 and 1 the players, 2 the NPC)."""
        return self._cfg.order

    @property
    def target(self) -> int:
        """The NPC's house size, the target at the end (Y13.9)."""
        return self.house_size(NPC)

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The current trick as ``(who, card)`` in play order (who 2 is the NPC)."""
        order = self._cfg.order
        return [(order[(self._lead + i) % 3], NAME[c]) for i, c in enumerate(self._trick)]

    def _zones(self) -> list:
        z = [[a.cid for a in h] for h in self._hands]
        return z + [self._npc_deck, self._aside, self._discard, self._trick] + self._houses + self._collapsed

    # ------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Any]:
        """The hand's cards by number (a new list); none once the game is over."""
        cur = self._cur
        return [] if cur is None else self._hands[cur][:]

    def _legal(self) -> list[Any]:
        """The hand's cards by number."""
        return self._hands[self._cur]

    def _diagnose(self, a: Any) -> tuple[str, str] | None:
        if a not in self._hands[self._cur]:
            me = self.seat_label(self._cur)
            return "Y13.5", f"{me} does not hold {a.card} (hand: {', '.join(self.hand(self._cur))})"
        return None

    # ------------------------------------------------------------- transitions
    def _apply(self, a: Any, ev: list[Event] | None) -> None:
        p = self._cur
        self._last = (p, a)
        self._hands[p].remove(a)
        trick = self._trick
        trick.append(a.cid)
        if ev is not None:
            ev.append(Event("play", {"seat": p, "card": a.card}, "Y13.5",
                            f"{self.seat_label(p)} plays {a.card}, size {self._cfg.size[a.cid]} (rule Y13.5)."))
        k = len(trick)
        if k < 3:
            who = self._cfg.seq[self._lead][k]
            if who != NPC:  # the other player is next: nothing automatic happens
                self._cur = who
                return
        self._advance(ev)

    def apply_unchecked(self, a: Any) -> None:
        """Simulation fast path (see ``State.apply_unchecked``): ``_apply`` without narration, written
        out so that a play, the NPC's card and the judgment cost as few calls as possible. It
        leaves exactly the state ``apply`` leaves (the conformance suite compares them). A preview
        never comes here: it applies with ``_apply``, which stops before the NPC's hidden card."""
        p = self._cur
        self._last = (p, a)
        self._hands[p].remove(a)
        self._history = (self._history, a)
        self._moves += 1
        trick = self._trick
        trick.append(a.cid)
        seq = self._cfg.seq[self._lead]
        k = len(trick)
        if k < 3:
            who = seq[k]
            if who != NPC:
                self._cur = who
                return
            trick.append(self._npc_deck.pop())  # the NPC's turn: its top card (Y13.5)
            if k == 1:
                self._cur = seq[2]
                return
        if self._judge(None):
            return
        seq = self._cfg.seq[self._lead]
        if seq[0] == NPC:  # the NPC leads the next trick: its card is turned over at once
            self._trick.append(self._npc_deck.pop())
            self._cur = seq[1]
        else:
            self._cur = seq[0]

    def _advance(self, ev: list[Event] | None) -> None:
        """Go round the table: the NPC's turns are automatic; stop at a player's turn or the end."""
        seq = self._cfg.seq
        trick = self._trick
        while True:
            k = len(trick)
            if k == 3:
                if self._judge(ev):
                    return
                trick = self._trick
                k = 0
            who = seq[self._lead][k]
            if who != NPC:
                self._cur = who
                return
            if self._previewing:
                self._hidden(ev, "the NPC turns over the top card of its deck")
            c = self._npc_deck.pop()
            trick.append(c)
            if ev is not None:
                ev.append(Event("npc_play", {"card": NAME[c]}, "Y13.5",
                                f"The NPC turns over the top card of its deck: {NAME[c]}, size "
                                f"{self._cfg.size[c]} (rule Y13.5)."))

    def _judge(self, ev: list[Event] | None) -> bool:
        """Y13.6: the highest number captures the cards of the largest size; Y13.8: the next leader.
        True when that was the last trick. (Comparisons rather than ``max``/``index``: this runs
        once per trick of every simulated game.)"""
        trick = self._trick
        cfg = self._cfg
        size = cfg.size
        a, b, c = trick
        if a > b:
            pos = 0 if a > c else 2
        else:
            pos = 1 if b > c else 2
        sa, sb, sc = size[a], size[b], size[c]
        smax = sa if sa >= sb else sb
        if sc > smax:
            smax = sc
        gone = None
        if sa == smax:
            if sb == smax:
                if sc == smax:
                    taken = trick
                else:
                    taken, gone = [a, b], [c]
            elif sc == smax:
                taken, gone = [a, c], [b]
            else:
                taken, gone = [a], [b, c]
        elif sb == smax:
            if sc == smax:
                taken, gone = [b, c], [a]
            else:
                taken, gone = [b], [a, c]
        else:
            taken, gone = [c], [a, b]
        lead = self._lead
        who = cfg.seq[lead][pos]
        if ev is not None:
            name = self._who(who)
            ev.append(Event("capture", {"who": self.seat_label(who), "cards": names(taken)}, "Y13.6",
                            f"{name[0].upper() + name[1:]} played the highest number, {NAME[trick[pos]]}; the "
                            f"largest size is {smax}, so {name} captures {listing(taken)} (rule Y13.6)."))
        roof = cfg.roof
        if self._roofed[who]:
            self._capture(who, taken, ev)
        elif roof[a] or roof[b] or roof[c]:
            self._build(who, _auto_order(taken, roof), ev)
        elif ev is None and len(self._houses[who]) + len(taken) <= cfg.house_limit:
            self._houses[who] += taken  # the usual case: no roof, no collapse, nothing to say (Y8.2)
        else:
            self._build(who, taken, ev)
        if gone:
            self._discard += gone
            if ev is not None:
                ev.append(Event("discard", {"cards": names(gone)}, "Y13.6",
                                f"{listing(gone)} {'goes' if len(gone) == 1 else 'go'} to the discard pile "
                                f"(rule Y13.6)."))
        self._last_trick = (lead, trick)  # the list is never changed again
        self._trick = []
        lead = self._lead = (lead + pos + 1) % 3
        if self._trick_no == TRICKS:
            self._finish(ev)
            return True
        self._trick_no += 1
        if ev is not None:
            nxt = cfg.order[lead]
            ev.append(Event("lead", {"who": self.seat_label(nxt), "trick": self._trick_no}, "Y13.8",
                            f"{self._who(nxt)[0].upper() + self._who(nxt)[1:]} leads trick {self._trick_no}, "
                            f"sitting left of {self._who(who)} (rule Y13.8)."))
        return False

    def _finish(self, ev: list[Event] | None) -> None:
        size = self._cfg.size
        h0, h1, t = (sum([size[c] for c in h]) for h in self._houses)
        self._winners = duo_winner_seats(h0, h1, t)
        self._phase = "finished"
        self._cur = None
        self.is_terminal = True
        if ev is not None:
            ev.append(Event("game_end", {"target": self.house_size(NPC), "houses": [self.house_size(0),
                                         self.house_size(1)], "winners": list(self._winners)},
                            "Y13.10", f"After 10 tricks {self._end_text()}."))

    def _end_text(self) -> str:
        """Who won and why (Y13.9, Y13.10), from the houses."""
        t = self.house_size(NPC)
        h0, h1 = self.house_size(0), self.house_size(1)
        a, b = self.seat_label(0), self.seat_label(1)
        winners, why = duo_winners(h0, h1, t, (a, b))
        result = "it is a draw" if len(winners) == 2 else f"{self.seat_label(winners[0])} wins"
        return f"the NPC's house is {t}, the target; {a} has {h0} and {b} {h1}: {why}, so {result} (rules Y13.9, Y13.10)"

    def _start(self, order: list[int], ev: list[Event] | None) -> None:
        """Deal (Y13.2, Y13.13): 10 cards to each player, alternately, the first player in table order
        first; the other cards form the NPC deck, top first."""
        cfg = self._cfg
        deal = 2 * HAND_SIZE
        one = [PLAY[c] for c in sorted(order[0:deal:2])]
        two = [PLAY[c] for c in sorted(order[1:deal:2])]
        self._hands = [one, two] if cfg.order[0] == 0 or cfg.order[0] == NPC and cfg.order[1] == 0 else [two, one]
        self._npc_deck = order[:deal - 1:-1]
        self._aside = ()
        self._houses = [[], [], []]
        self._collapsed = [[], [], []]
        self._roofed = (False, False, False)
        self._discard = []
        self._trick = []
        self._lead = 0
        self._phase = "play"
        self._trick_no = 1
        self._last_trick = None
        self.is_terminal = False
        if ev is not None:
            order = self._cfg.order
            deal_event = _DEALS.get((order, self.names))
            if deal_event is None:  # the same words for every game at this table: made once
                table = ", ".join(self._who(w) for w in order)
                deal_event = _DEALS[order, self.names] = Event(
                    "deal", {"order": [self.seat_label(w) for w in order]}, "Y13.2",
                    f"Each player gets 10 cards; the other 16 form the NPC's face-down deck (rule Y13.2). "
                    f"Clockwise the table is {table}, and {self._who(order[0])} leads the first trick "
                    f"(rules Y13.3, Y13.4).")
            ev.append(deal_event)
        if cfg.order[0] == NPC:
            self._advance(ev)  # the NPC leads trick 1: its card is turned over while setting up
        else:
            self._cur = cfg.order[0]

    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        return Outcome(self._winners, (self.house_size(0), self.house_size(1)), self._end_text())

    def ui_candidates(self, seat: int | None) -> list[str]:
        """The seat's own cards, as plays."""
        s = self._cur if seat is None else seat
        return [] if s is None else [f"play {c}" for c in self.hand(s)]

    def __repr__(self) -> str:
        return f"<DuoState seed={self.seed} trick={self._trick_no} phase={self._phase}>"

    # ------------------------------------------------------------- position text
    _LABELS = ("A", "B", "NPC")
