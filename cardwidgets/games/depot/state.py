"""The rules of Depot as :class:`DepotState` and its transitions, and the construction of a
game: ``new_game``, ``from_dict``, ``from_position``, ``setup_position``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any, Sequence

from ...core import Event, Field, Outcome, State, Termination, ordinal, plural, tuple_field
from ...core.errors import show
from ...core.position import load_position
from .cards import (Action, MAX_COPIES, TURN_BOUND, VALUES, _CLASSES, _NEXT, _ONE, _PASS, _PRESENT, _SEEN, _SORTED, Pass, Play,
                    _card_values, _cards, _check_deck, _counts, _fmt, _info_of, _play, _size, _vec, parse_action, shape)
from .position import PositionText
from .spec import SPEC
from .worlds import SeatKnowledge


# --------------------------------------------------------------------------- state
def _zone(cards: Any) -> int:
    """Decode a saved zone (a list of values), refusing anything but values 1..8."""
    if not isinstance(cards, list) or any(isinstance(v, bool) or not isinstance(v, int) or v not in VALUES
                                          for v in cards):
        raise ValueError(f"a zone is a list of card values 1-8, got {show(cards, 60)}")
    if len(cards) > MAX_COPIES and max(Counter(cards).values()) > MAX_COPIES:
        # no game has more (and one byte per value, see _ONE: more than 255 would spill over)
        raise ValueError(f"a zone holds more than {MAX_COPIES} cards of one value")
    return _counts(cards)


def _deck_bytes(top_first: Any) -> bytes:
    """The internal deck (top card last, one byte per card) from a list written top first."""
    _zone(top_first)  # validates the values
    return bytes(top_first[::-1])


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list, got {show(value, 40)}")
    return value


def _pair(value: Any, what: str, second: Any) -> tuple[int, Any]:
    """A saved ``[seat, thing]`` (the standing play, the last action); the seat is checked later."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{what}: expected [seat, ...], got {show(value, 40)}")
    return value[0], second(value[1])


def _play_of(cards: Any) -> "Play":
    return _play(_card_values(_list(cards, "standing play")))


def _decode_penalties(piles: Any) -> tuple[tuple[int, ...], ...]:
    out = []
    for pile in _list(piles, "penalties"):
        _zone(pile)
        out.append(tuple(pile))
    return tuple(out)


_RESULT_KEYS = ("game", "ranking", "cards_left", "hands", "taken", "lost_points")


def _result_copy(r: dict[str, Any]) -> dict[str, Any]:
    return {"game": r["game"], "ranking": list(r["ranking"]), "cards_left": list(r["cards_left"]),
            "hands": [list(h) for h in r["hands"]], "taken": list(r["taken"]), "lost_points": list(r["lost_points"])}


def _decode_results(results: Any) -> tuple[dict[str, Any], ...]:
    """The saved records of finished games, their shape checked (their sense is checked with the state)."""
    out = []
    for r in _list(results, "results"):
        if not isinstance(r, dict) or sorted(r) != sorted(_RESULT_KEYS):
            raise ValueError(f"a game result has the keys {', '.join(_RESULT_KEYS)}; got {show(r, 60)}")
        for key in _RESULT_KEYS[1:]:
            _list(r[key], f"result {key}")
        for h in r["hands"]:
            _zone(h)
        ints = [r["game"], *r["ranking"], *r["cards_left"], *r["lost_points"],
                *(t for t in r["taken"] if t is not None)]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in ints):
            raise ValueError(f"a game result holds something other than numbers: {show(r, 60)}")
        out.append(_result_copy(r))
    return tuple(out)


def _decode_built(cards: Any) -> int | None | bool:
    # ``True`` stands for a state saved before the record existed (see DepotState.from_dict).
    return cards if cards is None or cards is True else _zone(cards)


def _article(v: int) -> str:
    return "an" if v == 8 else "a"


def _took(taken: int, v: int) -> str:
    if taken == 1:
        return f"the {v}"
    return f"both {v}s" if taken == 2 else f"all {taken} {v}s"


class DepotState(SeatKnowledge, PositionText, State):
    """A Depot game (or 3-game match) in progress. Build it with :func:`new_game`."""

    SPEC = SPEC
    action_types = (Play, Pass)
    _parse = staticmethod(parse_action)

    # Zones are packed count vectors (ints, see _ONE). The deck is bytes, one card
    # value per byte, top card last; the match records are tuples: clone() copies
    # references, and nothing a clone shares is ever mutated in place (only the lists
    # of hands and of known cards are copied).
    __slots__ = (
        "_hands", "_storage", "_info", "_deck", "_discard", "_target", "_standing",
        "_current", "_passes", "_round", "_game_no", "_starter", "_phase", "_turns",
        "_lost", "_penalties", "_results", "_winners", "_reason", "_termination", "_last", "_built",
        "_known", "_deck_known", "_max_turns", "_noted", "_when_empty", "_next", "is_terminal",
    )
    FIELDS = (
        Field("_hands", "list", lambda hs: [_cards(h) for h in hs], lambda hs: [_zone(h) for h in hs]),
        Field("_storage", encode=_cards, decode=_zone),
        Field("_info", save=False),
        Field("_deck", encode=lambda d: list(d[::-1]), decode=_deck_bytes),
        Field("_discard", encode=_cards, decode=_zone),
        Field("_target"), Field("_current"), Field("_passes"), Field("_round"),
        Field("_game_no"), Field("_starter"), Field("_phase"), Field("_turns"),
        Field("_standing", encode=lambda s: None if s is None else [s[0], list(s[1].cards)],
              decode=lambda s: None if s is None else _pair(s, "standing", _play_of)),
        tuple_field("_lost"),
        Field("_penalties", encode=lambda ps: [list(p) for p in ps], decode=_decode_penalties),
        Field("_results", encode=lambda rs: [_result_copy(r) for r in rs], decode=_decode_results),
        Field("_winners", encode=lambda w: None if w is None else list(w),
              decode=lambda w: None if w is None else tuple(_list(w, "winners"))),
        Field("_reason"),
        Field("_termination", encode=lambda t: t.value, decode=Termination),
        Field("_last", encode=lambda x: None if x is None else [x[0], str(x[1])],
              decode=lambda x: None if x is None else _pair(x, "last action", parse_action)),
        Field("_built", encode=lambda b: None if b is None else _cards(b), decode=_decode_built),
        Field("_known", "list", lambda ks: [_cards(k) for k in ks], lambda ks: [_zone(k) for k in _list(ks, "known")]),
        Field("_deck_known"),
        Field("_max_turns", save=False), Field("_noted", save=False), Field("_when_empty", save=False),
        Field("_next", save=False),
        # A plain attribute rather than a property: simulations read it before every action.
        Field("is_terminal", save=False),
    )

    # ------------------------------------------------------------- properties
    @property
    def current_player(self) -> int | None:
        return None if self._phase == "finished" else self._current

    @property
    def phase(self) -> str:
        """``"lead"`` (the leader must play), ``"respond"`` or ``"finished"``."""
        return self._phase

    @property
    def storage(self) -> list[int]:
        """The Storage as a sorted list of values."""
        return _cards(self._storage)

    @property
    def target(self) -> int:
        """The Storage target T (D2.3, D7.2)."""
        return self._target

    @property
    def limits(self) -> tuple[int, int]:
        """``(set_limit, run_limit)`` of the current Storage (D3)."""
        return self._info.sl, self._info.rl

    @property
    def standing(self) -> tuple[int, tuple[int, ...]] | None:
        """``(owner, cards)`` of the play to beat, or ``None`` (D1.3)."""
        st = self._standing
        return None if st is None else (st[0], st[1].cards)

    def hand(self, seat: int) -> list[int]:
        """A seat's hand as a sorted list (teacher access; players use ``view``)."""
        return _cards(self._hands[seat])

    # ------------------------------------------------------------- legality
    def legal_actions(self) -> list[Action]:
        """Legal actions of the player to act: plays by (count, total, values), then passes."""
        # Builds a new list every time, so the base class's copy is not needed.
        if self.is_terminal:
            return []
        counts = self._hands[self._current].to_bytes(9, "little")
        info = self._info
        standing = self._standing
        # Plays stronger than the standing play (D4.7): the plays of 1 and 2 cards past
        # it, then those of 3 cards and up (past it too). The lead (D4.8) takes them all.
        keys, plays, held, chain = info.low[counts.translate(info.cap)]
        if standing is None:
            out = plays[:]
            k = 0
        else:
            play = standing[1]
            out = plays[bisect_right(keys, play._key):]
            k = play.strength[0]
        high = info.high
        if high:
            # Counts from 3 (or the standing play's count) up, while the hand can reach them:
            # its longest run within the run limit, and on while some value is held that
            # many times (2 in the pattern), which a bigger set needs too.
            runs = info.rl if info.rl < chain else chain
            i = 0 if k < 3 else k - 3
            if i < len(high):
                table, memo = high[i]
                pattern = counts.translate(table)
                keys, plays = memo[pattern]
                out += plays if k < 3 else plays[bisect_right(keys, play._key):]
                for table, memo in high[i + 1:]:
                    if i + 3 >= runs and 2 not in pattern:
                        break
                    i += 1
                    pattern = counts.translate(table)
                    out += memo[pattern][1]
        if standing is None:
            return out  # the leader must play (D5.3)
        if info.size or sum(counts) > 1:
            for chunk in info.passes:
                out += chunk[held]
        else:
            out.append(_PASS[None, None])  # nothing to take, and the only card may not be given (D6.4)
        return out

    _legal = legal_actions

    def ui_candidates(self, seat: int | None) -> list[str]:
        """A single of each value in the seat's hand: the table says why one cannot be played."""
        if self._phase == "finished" or seat != self._current:
            return []
        return [f"play {v}" for v in sorted(set(_cards(self._hands[seat])))]

    def _diagnose(self, action: Action) -> tuple[str, str] | None:
        hand = _vec(self._hands[self._current])
        if isinstance(action, Play):
            return self._diagnose_play(action.cards, hand)
        return self._diagnose_pass(action, hand)

    def _diagnose_play(self, cards: tuple[int, ...], hand: bytes) -> tuple[str, str] | None:
        for v in sorted(set(cards)):
            k = cards.count(v)
            if hand[v] < k:
                held = "no" if not hand[v] else ("only one" if hand[v] == 1 else f"only {hand[v]}")
                need = f"{_article(v)} {v}" if k == 1 else f"{k} of them"
                return "D4.1", f"you hold {held} {v}{'s' if hand[v] != 1 else ''}; the play needs {need}"
        kind, k = shape(cards), len(cards)
        if kind is None:
            counts = Counter(cards)
            if len(set(counts.values())) == 1 and len(counts) > 1 and k > len(counts):
                return "D4.2", "two sets (or two runs) cannot be played together"
            if len(counts) < k:
                return "D4.2", f"{_fmt(cards)} is neither a set nor a run (a run cannot repeat a value)"
            held = set(cards)
            if sum((v % 8) + 1 not in held for v in held) == 1:  # a run if 8 led on to 1: [1,8], [7,8,1,2]
                return "D4.2", f"{_fmt(cards)} is neither a set nor a run (8 and 1 are not consecutive, D3.4)"
            return "D4.2", f"{_fmt(cards)} is neither a set nor a run (the values are not consecutive)"
        sl, rl = self.limits
        if kind == "set" and k > sl:
            return "D4.4", f"a set of {k} exceeds the set limit {sl} (Storage {_fmt(self.storage)})"
        if kind == "run" and k > rl:
            return "D4.5", f"a run of {k} exceeds the run limit {rl} (Storage {_fmt(self.storage)})"
        if self._standing is not None:
            sc = self._standing[1].cards
            if k < len(sc):
                return "D4.7", f"{plural(k, 'card')} cannot beat a {len(sc)}-card play {_fmt(sc)}"
            if k == len(sc) and sum(cards) == sum(sc):
                return "D4.7", (
                    f"{_fmt(cards)} has the same strength ({plural(k, 'card')}, total {sum(cards)}); "
                    f"it must be stronger")
            if k == len(sc) and sum(cards) < sum(sc):
                return "D4.7", (
                    f"a {k}-card play must beat {_fmt(sc)} (total {sum(sc)}); {_fmt(cards)} totals {sum(cards)}"
                )
        return None

    def _diagnose_pass(self, action: Pass, hand: bytes) -> tuple[str, str] | None:
        take, give = action.take, action.give
        storage = _vec(self._storage)
        if sum(storage):
            if take is None:
                return "D6.2", f"a value must be taken from the Storage {_fmt(_cards(self._storage))}"
            if not storage[take]:
                return "D6.2", f"there is no {take} in the Storage {_fmt(_cards(self._storage))}"
        elif take is not None:
            return "D6.2", "the Storage is empty, so nothing can be taken"
        if give is not None:
            if give == take:
                return "D6.3", f"the given card must differ from the taken value {take}"
            if not hand[give]:
                return "D6.3", f"you hold no {give} to give"
            if take is None and sum(hand) == 1:
                return "D6.4", "giving your last card would empty your hand"
        return None

    # ------------------------------------------------------------- transitions
    def apply_unchecked(self, action: Action) -> None:
        """Simulation fast path: apply an action taken from ``legal_actions()``.

        The steps simulations spend their time in are written out here: a play that
        leaves cards in the hand, a pass, and the end of a round. The rest (going out,
        the turn cap, refills that shuffle a pile they do not draw whole) runs the code
        of the narrated path; the tests check both paths end in the same state.
        """
        self._history = (self._history, action)
        self._moves += 1
        turns = self._turns + 1
        if turns >= self._max_turns:
            self._apply(action, None)
            return
        self._turns = turns
        p = self._current
        hands = self._hands
        if type(action) is Pass:
            storage = self._storage
            moved = storage & action._take  # D6.2: every card of the value taken
            give = action._one  # D6.3: one card (or none) given
            delta = moved - give
            hands[p] += delta
            storage -= delta
            known = self._known  # everyone saw the take; a card known in the hand may be given
            seen = known[p] + moved
            if seen & action._mask:
                seen -= give
            known[p] = seen
            have = self._info.size - (moved >> action._shift) + action._gives
            goal = self._info.size if self._noted else self._target
            passes = self._passes + 1
            ends = passes == self.players - 1  # n - 1 passes in a row end the round (D7.1)
            if not ends:
                self._passes, self._last, self._current = passes, (p, action), self._next[p]
            while True:  # twice when the round ends: the pass's refill, then the round's (D7.2)
                # The refill (D6.5), written out for the cases simulations meet most: cards
                # left in the deck, or deck and discard pile both dry (D9.2).
                need = goal - have
                deck = self._deck
                left = len(deck) - need
                if need <= 0 or not deck and not self._discard:
                    info = _SEEN.get(storage)
                    if info is None:
                        info = _info_of(storage)
                    self._storage, self._info = storage, info
                elif left > 0 or not left and not (self._when_empty and self._discard):
                    if need == 1:
                        storage += _ONE[deck[left]]
                    else:
                        for v in deck[left:]:
                            storage += _ONE[v]
                    self._deck = deck[:left]
                    info = _SEEN.get(storage)
                    if info is None:
                        info = _info_of(storage)
                    self._storage, self._info = storage, info
                else:
                    self._fill(storage, have, goal)
                    storage, info = self._storage, self._info
                if not ends:
                    return
                ends = False
                owner, play = self._standing
                self._discard += play._counts
                self._standing = self._last = None
                self._target = goal = self._target + 1
                self._current, self._passes, self._phase = owner, 0, "lead"
                self._round += 1
                have = info.size
        hand = hands[p] - action._counts
        if not hand:  # going out (D8.1)
            self._turns = turns - 1
            self._apply(action, None)
            return
        hands[p] = hand
        known = self._known[p]
        if known:
            for shift, k in action._parts:
                had = known >> shift & 255
                if had:
                    known -= (had if had < k else k) << shift
            self._known[p] = known
        prev = self._standing
        if prev is not None:
            self._discard += prev[1]._counts
        self._standing = self._last = (p, action)
        self._passes, self._current, self._phase = 0, self._next[p], "respond"

    def _fill(self, storage: int, have: int, goal: int) -> None:
        """The refill of the fast path: ``storage`` (``have`` cards) drawn up to ``goal``.

        Draws from the top of the deck. When the deck runs dry the discard pile is
        reshuffled (D9.1); if it is drawn whole at once, it goes into the Storage without
        a shuffle, as its order cannot matter (the decision is still counted). A pile
        drawn in part is ``_refill``'s, like the narrated path.
        """
        need = goal - have
        if need > 0:
            deck = self._deck
            left = len(deck) - need
            if left > 0 or not left and not (self._when_empty and self._discard):
                if need == 1:
                    storage += _ONE[deck[left]]
                else:
                    for v in deck[left:]:
                        storage += _ONE[v]
                self._deck = deck[:left]
            else:
                pile = self._discard
                if pile:
                    if -left < sum(pile.to_bytes(9, "little")):
                        self._storage = storage
                        self._refill(goal, have, None, "D6.5")
                        return
                    storage += pile
                    self._discard = 0
                    self._rng_count += 1
                    self._deck_known = True
                if deck:
                    for v in deck:
                        storage += _ONE[v]
                    self._deck = b""
        info = _SEEN.get(storage)
        if info is None:  # _info_of, written out: the simulations' most frequent call
            counts = storage.to_bytes(9, "little")
            info = _CLASSES[max(counts)][counts.translate(_PRESENT)].infos[sum(counts)]
            if len(_SEEN) >= 1 << 16:
                _SEEN.clear()
            _SEEN[storage] = info
        self._storage, self._info = storage, info

    def _apply(self, action: Action, ev: list[Event] | None) -> None:
        p = self._current
        self._turns += 1
        self._last = (p, action)
        if type(action) is Play:
            self._do_play(p, action, ev)
        else:
            self._do_pass(p, action, ev)
        if self._turns >= self._max_turns and self._phase != "finished":
            self._phase, self._winners, self._termination = "finished", (), Termination.ABORTED
            self.is_terminal = True
            self._reason = self._abort_reason()
            if ev is not None:
                rule = "G4" if self.options["max_turns"] is None else "D9.3"
                ev.append(Event("abort", {"turns": self._turns}, rule,
                                f"The game is stopped after {self._turns:,} turns: a safety cap, not a rule "
                                f"(rule {rule})."))

    def _do_play(self, p: int, play: Play, ev: list[Event] | None) -> None:
        hands = self._hands
        hand = hands[p] = hands[p] - play._counts
        known = self._known[p]
        if known:
            # The table knew some of these cards were in the hand (taken from the Storage):
            # it now knows that many fewer, never less than none.
            for shift, k in play._parts:
                had = known >> shift & 255
                if had:
                    known -= (had if had < k else k) << shift
            self._known[p] = known
        prev = self._standing
        if prev is not None:
            self._discard += prev[1]._counts
        self._standing = (p, play)
        self._passes = 0
        if ev is not None:
            cards = play.cards
            kind = shape(cards)
            desc = f"{kind} of {len(cards)}, total {sum(cards)}" if kind != "single" else "single"
            lim = "limits: set {}, run {}".format(*self.limits)
            who = self.seat_label(p)
            if prev is None:
                text, rule = f"{who} leads {_fmt(cards)} ({desc}; {lim}) — rule D4.8.", "D4.8"
            else:
                pc = prev[1].cards
                text = (f"{who} plays {_fmt(cards)} ({desc}; {lim}). It beats {_fmt(pc)} "
                        f"({plural(len(pc), 'card')}, total {sum(pc)}) — rule D4.6.")
                rule = "D4.6"
            ev.append(Event("play", {"seat": p, "cards": list(cards)}, rule, text))
        if not hand:
            self._game_end(p, ev)
        else:
            self._current = (p + 1) % self.players
            self._phase = "respond"

    def _do_pass(self, p: int, action: Pass, ev: list[Event] | None) -> None:
        hand, storage = self._hands[p], self._storage
        have = noted = self._info.size
        take, give = action.take, action.give
        taken = 0
        if take is not None:
            shift = 8 * take  # the byte of value ``take`` (see _ONE)
            taken = storage >> shift & 255
            moved = taken << shift
            hand += moved
            storage -= moved
            have -= taken
            self._known[p] += moved  # everyone saw them go into this hand (D6.2)
        if give is not None:
            hand -= _ONE[give]
            storage += _ONE[give]
            have += 1
            known = self._known[p]
            if known >> 8 * give & 255:
                self._known[p] = known - _ONE[give]
        self._hands[p], self._storage = hand, storage
        goal = noted if self._noted else self._target
        self._passes += 1
        if ev is not None:
            what = f"takes {_took(taken, take)} from the Storage" if take is not None else \
                "takes nothing (the Storage is empty)"
            if give is not None:
                what += f" and gives {_article(give)} {give}"
            text = f"{self.seat_label(p)} passes (rule D6): {what}."
            if have >= goal:  # no refill follows: say what the Storage is now
                self._info = _info_of(storage)
                text += f" {self._storage_line()}"
            ev.append(Event("pass", {"seat": p, "take": take, "give": give, "taken": taken}, "D6", text))
        self._refill(goal, have, ev, "D6.5")
        if self._passes == self.players - 1:
            self._round_end(ev)
        else:
            self._current = (p + 1) % self.players

    def _storage_line(self) -> str:
        return "Storage {} — set limit {}, run limit {}.".format(_fmt(_cards(self._storage)), *self.limits)

    def _refill(self, goal: int, have: int, ev: list[Event] | None, rule: str) -> None:
        """Draw from the deck into the Storage (``have`` cards now) up to ``goal`` (D6.5, D7.2, D9)."""
        storage = self._storage
        if have < goal:
            if self._previewing and (self._deck or self._discard):  # the deck is hidden: a preview stops here
                self._hidden(ev, "the Storage is refilled from the deck")
            drawn: list[int] = []

            def tell(last: bool) -> None:
                """Narrate the cards drawn so far (before a reshuffle, so the order reads true)."""
                if ev is not None and drawn:
                    text = (f"{plural(len(drawn), 'card')} from the deck go{'es' * (len(drawn) == 1)} into the "
                            f"Storage: {_fmt(drawn)} (rule {rule}).")
                    ev.append(Event("refill", {"drawn": drawn[:]}, rule,
                                    f"{text} {self._storage_line()}" if last else text))
                    drawn.clear()
            deck = self._deck
            n = len(deck)
            while have < goal:
                if not n:
                    pile = self._discard
                    if not pile:
                        break
                    self._deck = b""  # every card of the old deck was drawn
                    if ev is None and _size(pile) <= goal - have:
                        # The whole pile goes into the Storage now, so its order cannot
                        # matter: the simulation skips the generator (the decision is still
                        # counted, and the narrated path shuffles to tell the order drawn).
                        storage += pile
                        have += _size(pile)
                        self._discard = 0
                        self._rng_count += 1
                        self._deck_known = True
                        deck, n = b"", 0
                        continue
                    tell(False)
                    self._reshuffle(ev)
                    deck = self._deck
                    n = len(deck)
                n -= 1
                v = deck[n]
                storage += _ONE[v]
                have += 1
                if ev is not None:
                    drawn.append(v)
                if not n and self._when_empty and self._discard:
                    self._deck = b""
                    tell(False)
                    self._reshuffle(ev)
                    deck = self._deck
                    n = len(deck)
            self._deck = deck if n == len(deck) else deck[:n]
            self._storage = storage
            self._info = _info_of(storage)
            if ev is not None:
                told = bool(drawn)
                tell(True)
                if have < goal:
                    # what the Storage is now, unless the refill just said it
                    now = "" if told else f" {self._storage_line()}"
                    ev.append(Event("short", {"missing": goal - have}, "D9.2",
                                    f"Deck and discard are both empty: the Storage stays at {have} of {goal} "
                                    f"cards (rule D9.2).{now}"))
        else:
            # The take/give of a pass changed the Storage, so always look it up again (D3.5).
            self._info = _info_of(storage)

    def _reshuffle(self, ev: list[Event] | None) -> None:
        cards = _cards(self._discard)  # sorted first, so the shuffle depends only on the RNG
        if cards[0] != cards[-1]:
            self._shuffle(cards)
        else:
            # A pile of one value (a discarded set, a single card) is the same in any
            # order: skip the generator but keep the decision count, so games replay alike.
            self._rng_count += 1
        self._deck = bytes(cards) + self._deck  # any cards still in the deck stay on top
        self._discard = 0
        self._deck_known = True  # everyone saw the discard pile that became the deck
        if ev is not None:
            ev.append(Event("reshuffle", {"cards": len(cards)}, "D9.1",
                            f"The deck is empty: the {len(cards)}-card discard pile is shuffled into a new "
                            f"deck (rule D9.1)."))

    def _round_end(self, ev: list[Event] | None) -> None:
        owner, play = self._standing
        last = self._current
        self._discard += play._counts
        self._standing = None
        self._target += 1
        self._current = owner
        self._passes = 0
        self._round += 1
        self._phase = "lead"
        self._last = None  # a new round starts with no last move on the table
        if ev is not None:
            ev.append(Event(
                "round_end", {"leader": owner, "target": self._target}, "D7.1",
                f"{self.seat_label(last)}'s pass is the {ordinal(self.players - 1)} in a row (rule D7.1): the "
                f"round is over. {_fmt(play.cards)} is discarded and the Storage target grows to {self._target} "
                f"(rule D7.2); {self.seat_label(owner)} leads round {self._round}."))
        self._refill(self._target, self._info.size, ev, "D7.2")

    # ------------------------------------------------------------- game and match end
    def _ranking(self, winner: int) -> list[int]:
        """D10.2: winner first, then fewer cards, then higher total, then the tiebreak."""
        tie = None
        if self.options["rank_tiebreak"] == "random":
            tie = list(range(self.players))
            self._shuffle(tie)
        return self._rank(winner, self._hands, tie)

    def _rank(self, winner: int, hands: Sequence[int], order: list[int] | None) -> list[int]:
        """The D10.2 ranking of these hands; ties broken by ``order`` (a seat order), else
        clockwise from the seat after the winner."""
        n = self.players
        tie = {s: (s - winner - 1) % n for s in range(n)} if order is None else {s: order.index(s) for s in range(n)}
        others = [s for s in range(n) if s != winner]
        counts = [_vec(h) for h in hands]
        others.sort(key=lambda s: (sum(counts[s]), -sum(v * c for v, c in enumerate(counts[s])), tie[s]))
        return [winner, *others]

    def _take_penalties(self, ranking: list[int]) -> dict[int, int | None]:
        """D10.3: from last place up to 2nd, each takes one Storage card."""
        storage = self._storage
        penalties = list(self._penalties)
        greedy = self.options["penalty_mode"] == "greedy"
        ref = None
        taken: dict[int, int | None] = {}
        for s in reversed(ranking[1:]):
            counts = _vec(storage)
            present = [v for v in VALUES if counts[v]]
            if not present:
                c = None
            elif greedy or ref is None:
                c = present[-1]
            else:
                lower = [v for v in present if v < ref]
                c = lower[-1] if lower else (ref if counts[ref] else None)
            if c is not None:
                storage -= _ONE[c]
                penalties[s] += (c,)
                ref = c
            taken[s] = c
        self._storage, self._info = storage, _info_of(storage)
        self._penalties = tuple(penalties)
        return taken

    def _game_end(self, p: int, ev: list[Event] | None) -> None:
        who = self.seat_label(p)
        if ev is not None:
            ev.append(Event("game_end", {"winner": p, "game": self._game_no}, "D8.1",
                            f"{who} has played their last card: game {self._game_no} is over (rule D8.1)."))
        if self.options["games"] == 1:
            self._phase, self.is_terminal = "finished", True
            self._winners, self._reason = self._end_of(p)
            return
        self._hidden(ev, "the hands are shown and ranked (rule D10.2)")
        ranking = self._ranking(p)
        taken = self._take_penalties(ranking)
        self._lost = tuple(lost + (taken.get(s) or 0) for s, lost in enumerate(self._lost))
        self._results += ({
            "game": self._game_no,
            "ranking": ranking,
            "cards_left": [_size(h) for h in self._hands],
            "hands": [_cards(h) for h in self._hands],  # shown when the game ends (D10.2)
            "taken": [taken.get(s) for s in range(self.players)],
            "lost_points": list(self._lost),
        },)
        if ev is not None:
            order = ", ".join(self.seat_label(s) for s in ranking)
            takes = ", ".join(f"{self.seat_label(s)} {taken[s] if taken[s] is not None else 'nothing'}"
                              for s in reversed(ranking[1:]))
            ev.append(Event("scoring", self._results[-1], "D10.3",
                            f"Ranking (rule D10.2): {order}. Penalty cards (rule D10.3): {takes}. Lost points "
                            f"so far: " + ", ".join(f"{self.seat_label(s)} {self._lost[s]}"
                                                    for s in range(self.players)) + "."))
        if self._game_no < self.options["games"]:
            rule = self.options["next_game_starter"]
            starter = ranking[-1] if rule == "last_place" else p if rule == "winner" else \
                (self._starter + 1) % self.players
            self._game_no += 1
            self._setup(starter, None)
            if ev is not None:
                ev.append(Event("new_game", {"game": self._game_no, "starter": starter}, "D10.6",
                                f"Game {self._game_no} of {self.options['games']}: the cards are shuffled and "
                                f"dealt again; {self.seat_label(starter)} leads (rule D10.6)."))
            return
        self._phase, self.is_terminal = "finished", True
        self._winners, self._reason = self._end_of(p)
        if ev is not None:
            ev.append(Event("match_end", {"winners": list(self._winners)}, "D10.7",
                            f"The match is over: {self._reason}."))

    def _end_of(self, p: int) -> tuple[tuple[int, ...], str]:
        """The winners and the reason of a game (or match) that ``p`` has just ended by going out."""
        if self.options["games"] == 1:
            return (p,), f"{self.seat_label(p)} emptied their hand (rule D8.1)"
        best = min(self._lost)
        tied = [s for s in range(self.players) if self._lost[s] == best]
        why = f"fewest lost points after {self.options['games']} games"
        if len(tied) > 1 and self.options["match_tie"] == "last_game_rank":
            level = " and ".join(self.seat_label(s) for s in tied)
            tied = [min(tied, key=self._results[-1]["ranking"].index)]
            why += f" ({level} tied with {best}; the last game's ranking puts {self.seat_label(tied[0])} first)"
            return tuple(tied), f"{why}: {self.seat_label(tied[0])} wins (rule D10.7)"
        names = " and ".join(self.seat_label(s) for s in tied)
        return tuple(tied), f"{why}: {names} with {best} (rule D10.7)"

    def _abort_reason(self) -> str:
        if self.options["max_turns"] is None:  # no cap was asked for: the engine's own bound (G4)
            return f"stopped by the engine's safety cap of {self._turns:,} turns (rule G4)"
        return f"stopped after {self._turns} turns by the max_turns safety cap (rule D9.3)"

    # ------------------------------------------------------------- setup
    def _setup(self, starter: int, order: list[int] | None) -> None:
        """Deal a game (D2). ``order`` is top-first; ``None`` shuffles the cards in play."""
        n = self.players
        if order is None:
            counts = dict(self._deck_counts())
            if self.options["penalty_cards_leave_play"]:
                for pile in self._penalties:
                    for v in pile:
                        counts[v] -= 1
            else:
                self._penalties = ((),) * n
            order = list(_SORTED[tuple(counts[v] for v in VALUES)])
            self._shuffle(order)
            # After a hand-built first game the penalty piles may hold cards the deck has not:
            # then this game's cards are the ones dealt and the piles.
            self._built = None if min(counts.values()) >= 0 else \
                _counts(order) + _counts(v for pile in self._penalties for v in pile)
        # One card at a time clockwise from the starter: card i of the deal goes to seat
        # (starter + i) % n, then the Storage's cards (D2.2, D2.3).
        dealt = self.options["hand_size"][n] * n
        t0 = self.options["initial_storage"][n]
        card = _ONE.__getitem__
        hands = [0] * n
        for i in range(n):
            hands[(starter + i) % n] = sum(map(card, order[i:dealt:n]))
        storage = sum(map(card, order[dealt:dealt + t0]))
        self._hands, self._storage, self._info = hands, storage, _info_of(storage)
        self._known = [0] * n
        self._deck_known = False
        self._deck = bytes(reversed(order[dealt + t0:]))  # internal: the top card last
        self._discard = 0
        self._target = t0
        self._standing = None
        self._current = self._starter = starter
        self._passes = 0
        self._round = 1
        self._phase = "lead"
        self.is_terminal = False
        self._last = None
        self._turns = 0

    def _deck_counts(self) -> dict[int, int]:
        return {v: self.options["deck_counts"].get(v, 0) for v in VALUES}

    def all_cards(self) -> Counter:
        """Every card in every zone (hands, Storage, deck, discard, table, penalty piles)."""
        c = Counter(self._deck)
        for zone in (*self._hands, self._storage, self._discard):
            counts = _vec(zone)
            c.update({v: counts[v] for v in VALUES if counts[v]})
        if self._standing:
            c.update(self._standing[1].cards)
        for pile in self._penalties:
            c.update(pile)
        return c

    def _deck_multiset(self) -> Counter:
        return Counter({v: k for v, k in self._deck_counts().items() if k})

    # ------------------------------------------------------------- loading
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "DepotState":
        """Rebuild a state from :meth:`to_dict`; ``ValueError`` if the data is not a state a
        game could reach (see ``_check_loaded``)."""
        state = data.get("state") if isinstance(data, dict) else None
        if isinstance(state, dict) and "built" not in state:
            # Saved before these records existed: its cards are its game's cards, and the
            # table is taken to know nothing of the hands and the deck.
            hands = state.get("hands")
            data = {**data, "state": {"built": True, "deck_known": False,
                                      "known": [[] for _ in hands] if isinstance(hands, list) else None,
                                      **state}}
        return super().from_dict(data)  # type: ignore[return-value]

    def _check_origin(self) -> None:
        """A hand-built start (what replays record) must itself be a position of this game."""
        origin = self._origin
        if origin is None:
            return
        if self.deck_order is not None:
            raise ValueError("a game starts from a deck order or from a hand-built position, not both")
        if isinstance(origin, str):
            start = from_position(origin, self.seed)
        elif not isinstance(origin, dict) or origin.get("position") is not None:
            raise ValueError("the hand-built start must be position text or a saved position of its own")
        else:
            start = type(self).from_dict({**origin, "history": []})
        if (start.players, start.mode, start.options) != (self.players, self.mode, self.options):
            raise ValueError("the hand-built start is a game with other options")

    # ------------------------------------------------------------- outcome and views
    def outcome(self) -> Outcome | None:
        if self._phase != "finished":
            return None
        if self.options["games"] == 3:  # a match counts lost points, aborted or not (D10.4)
            scores: tuple = tuple(self._lost)
        else:
            scores = tuple(_size(h) for h in self._hands)
        return Outcome(self._winners, scores, self._reason, self._termination)

    def __repr__(self) -> str:
        return f"<DepotState players={self.players} seed={self.seed} turn={self._moves} phase={self._phase}>"


# --------------------------------------------------------------------------- construction
def new_game(players: int = 4, seed: int | None = None, deck: list[int] | None = None, *,
             chance: Any = None, **options: Any) -> DepotState:
    """Set up a Depot game (D2).

    Parameters
    ----------
    players:
        3, 4 or 5 (D1.4).
    seed:
        Seeds every shuffle; ``None`` picks one (kept in ``state.seed``).
    deck:
        Scenario setup: the complete card order, index 0 = top, instead of a shuffle.
        It must be exactly the ``deck_counts`` multiset. Fixes game 1's deal only.
    chance:
        Recorded shuffles to use instead of the seeded ones (see ``cardwidgets.core.Recorded``).
    **options:
        The options of ``SPEC`` (e.g. ``games=3`` for a match).
    """
    st = DepotState._create(players, seed, None, options, chance)
    opts = st.options
    sp = opts["starting_player"]
    n = st.players
    if sp != "random" and sp >= n:
        raise ValueError(f"starting_player={sp!r} is not allowed; allowed values: 0..{n - 1} or 'random'")
    need = st._deck_multiset()
    hand_size, t0 = opts["hand_size"][n], opts["initial_storage"][n]
    # In a match up to n - 1 penalty cards per game leave play (D10.5): the last game must deal too.
    out = (opts["games"] - 1) * (n - 1) if opts["penalty_cards_leave_play"] else 0
    if sum(need.values()) - out < hand_size * n + t0:
        raise ValueError(f"deck_counts has {sum(need.values())} cards; {n} players need at least "
                         f"{hand_size * n + t0 + out} to deal" + (f" every game ({out} penalty cards may leave play)"
                                                                  if out else "") + " (rules D2.2, D2.3, D10.5)")
    if deck is not None:
        deck = _check_deck(deck, need)
        st.deck_order = tuple(deck)
    st._lost = (0,) * n
    st._penalties = ((),) * n
    st._results = ()
    st._game_no = 1
    st._winners = None
    st._reason = ""
    st._termination = Termination.NORMAL
    st._built = None
    st._max_turns = opts["max_turns"] or TURN_BOUND
    st._noted = opts["refill_target"] == "noted"
    st._when_empty = opts["reshuffle_timing"] == "when_empty"
    st._next = _NEXT[n]
    starter = st._randrange(n) if sp == "random" else sp
    st._setup(starter, deck)
    return st


def from_dict(data: dict[str, Any]) -> DepotState:
    """A state saved with ``to_dict``."""
    return DepotState.from_dict(data)  # type: ignore[return-value]


def from_position(text: str, seed: int | None = None) -> DepotState:
    """A state from position text (``state.to_position()``; the grammar is in the rules
    reference, "Position text"). Unknown parts (``?``) are dealt with ``seed``.

    >>> st = from_position("depot/1 players=3 turn=B standing=A:4 hands=1,2/5,5,6/?3 storage=1,2,3 deck=?", seed=1)
    >>> st.current_player, st.hand(1), st.legal_actions()[0]
    (1, [5, 5, 6], Play(cards=(5,)))
    >>> from_position("depot/1 players=3 turn=A hands=9/?9/?9 storage=1,2,3")
    Traceback (most recent call last):
    ...
    cardwidgets.core.position.PositionError: column 32 (hands): '9' is not a card (a value 1-8)
    """
    return load_position(text, seed, lambda mode: DepotState)  # type: ignore[return-value]


def setup_position(
    players: int,
    hands: list[list[int]],
    storage: list[int],
    *,
    deck: list[int] = (),
    discard: list[int] = (),
    standing: tuple[int, list[int]] | None = None,
    current: int = 0,
    target: int | None = None,
    passes: int | None = None,
    round: int = 1,
    seed: int = 0,
    **options: Any,
) -> DepotState:
    """A hand-built position for teaching and tests.

    ``deck`` is listed top first. ``target`` defaults to the Storage size. With no
    ``standing`` play the seat to act is the leader (phase ``"lead"``); after one,
    ``passes`` defaults to the passes since it (D5.1). The cards placed are this
    game's cards: any not placed are out of it (a match deals the whole deck again
    for the next game). A position no game could reach (an empty hand, the wrong
    seat to act ...) is a ``ValueError``. Replays record the position.

    >>> st = setup_position(4, [[3, 3, 3, 4, 5, 6, 7, 7, 8], [1], [1], [1]], [2, 4, 5, 5, 6])
    >>> st.limits
    (2, 3)
    """
    st = new_game(players=players, seed=seed, **options)
    n = st.players
    if len(hands) != n:
        raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
    st._hands = [_zone(list(h)) for h in hands]
    st._storage = _zone(list(storage))
    st._info = _info_of(st._storage)
    st._deck = _deck_bytes(list(deck))
    st._discard = _zone(list(discard))
    if standing is not None:
        owner = st.check_seat(standing[0])
        if owner is None:
            raise ValueError("standing: the owner must be a seat")
        st._standing = (owner, _play(_card_values(list(standing[1]))))
    st._current = st.check_seat(current)
    if st._current is None:
        raise ValueError("current must be a seat")
    st._target = len(storage) if target is None else target
    if passes is None:
        passes = 0 if standing is None else (st._current - st._standing[0] - 1) % n
    st._passes = passes
    st._round = round
    st._phase = "lead" if standing is None else "respond"
    have = st.all_cards()
    if max(have.values()) > MAX_COPIES:
        raise ValueError(f"more than {MAX_COPIES} cards of one value")
    st._built = _counts(have.elements())
    st._check_loaded()
    st._mark_origin()
    return st
