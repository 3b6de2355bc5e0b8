"""Reading and writing Yadokarick positions as text, and the checks of a state read or loaded.

The grammar is in the rules reference ("Position text"). The trick modes' fields are
written (``_position_fields``), read (``_load_position``) and checked (``_check_loaded``)
by :class:`StandardPositionText` and :class:`DuoPositionText`, mixins of their state
classes; solo keeps its own in ``solo.py``. All of them use the helpers here: card lists with an unknown part (``G5,?9``), cards claimed once
each (card conservation, with the column of a card placed twice), the unknown parts
dealt from the cards placed nowhere, and consistency errors of the loaded state
(:class:`~cardwidgets.games.yadokarick.cards.LoadError`) turned into position errors
at the column of the field they name.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from ...core.errors import show
from ...core.position import Parsed, PositionError, Value, cards_text, deal_unknown, seat_text
from ...core.state import plural
from .cards import (HAND_SIZE, NAME, NPC, PLAY, TRICKS, Arrange, LoadError, Move, Play, _cap, card_id, check_seat,
                    config, duo_winners, judge_standard, listing, parse_action, round_score, small_int)
from .spec import check_options

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


class StandardPositionText:
    """Position text of a standard game written and read, and the checks of a state read or loaded."""

    __slots__ = ()

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        f = [("round", str(self._round)), ("deals", seat_text(self._dealer)), ("trick", str(self._trick_no)),
             ("phase", self._phase), ("turn", seat_text(self._cur)), ("marker", str(self._marker)),
             ("totals", ",".join(map(str, self._totals))),
             ("hands", "/".join(write_cards(a.cid for a in h) for h in self._hands)),
             ("played", write_cards(self._trick)), ("houses", write_lists(self._houses)),
             ("collapsed", write_lists(self._collapsed)), ("discard", write_cards(self._discard)),
             ("aside", write_cards(self._aside))]
        if self._last_trick is not None:
            f.append(("last_trick", f"{seat_text(self._last_trick[0])}:{write_cards(self._last_trick[1])}"))
        if self._pending:
            f.append(("pending", "/".join(f"{seat_text(s)}:{write_cards(c)}" for s, c in self._pending)))
        if self._phase == "marker" and self._moved:
            f.append(("moved", ",".join(seat_text(s) for s in self._moved)))
        if self._results:
            f.append(("results", "/".join(f"{r['target']}:{','.join(map(str, r['house_sizes']))}:"
                                          f"{','.join(map(str, r['collapsed_sizes']))}" for r in self._results)))
        if self._last is not None:
            f.append(("last_action", f"{seat_text(self._last[0])}:{write_action(self._last[1])}"))
        return f

    def _load_position(self, parsed: Parsed) -> None:
        n = self.players
        try:
            check_options(self)
        except ValueError as e:
            raise option_error(parsed, e) from None
        cfg = self._cfg = config(self.mode, n, self.options)
        why = f"{n} players, {self.options['card_set']} card set"
        r = Reader(parsed, cfg.cards, why)
        seats = [seat_text(s) for s in range(n)]
        self._round = r.take("round", "1").int(1, cfg.rounds)
        first = cfg.dealer + (self._round - 1 if cfg.rotate else 0)
        self._dealer = r.take("deals", seat_text(first % n)).seat(n)
        self._trick_no = r.take("trick", "1").int(1, TRICKS)
        phase = self._phase = r.take("phase", "play").choice(("play", "marker", "arrange", "finished"))
        played, _ = r.card_list(r.take("played", "-"))
        self._trick = played
        default_turn = "-" if phase == "finished" else seat_text((self._dealer + 1 + len(played)) % n)
        turn = self._cur = r.take("turn", default_turn).seat(n, none=True)
        self._marker = r.take("marker", str(cfg.marker_start)).int(*cfg.track)
        last = None
        if parsed.fields.has("last_trick"):
            lv = r.take("last_trick")
            lead, rest = r.seat_and(lv, seats)
            cards, _ = r.card_list(rest)
            if len(cards) != n:
                raise rest.error(f"a trick holds {n} cards, one per player")
            for c in cards:  # the cards of the last trick are elsewhere too: they are not claimed here
                del r.where[c]
            last = (lead, tuple(cards))
        self._last_trick = last
        if phase == "play":
            if turn is None:
                raise r.values["turn"].error("a seat plays next while the game runs")
            self._leader = (turn - len(played)) % n
        else:
            self._leader = last[0] if last is not None else (turn if turn is not None else 0)
        entitled = () if last is None else self._lowest(last)
        self._entitled, self._movers, self._moved = entitled, (), ()
        self._pending = ()
        for key, only in (("moved", "marker"), ("pending", "arrange")):
            if parsed.fields.has(key) and phase != only:
                raise r.take(key).error(f"{key}= belongs to the {only} phase only")
        if phase == "play" and entitled and not cfg.last_entitled and self._leader != entitled[-1]:
            self._moved = (self._leader,)  # the only way the earlier mover leads (Y9.2)
        elif phase in ("marker", "arrange"):
            if last is None:
                raise PositionError("a trick was just judged: give it as last_trick=", field="last_trick")
            if phase == "marker":
                if turn not in entitled:
                    raise r.values["turn"].error(f"the marker movers are {', '.join(seat_text(s) for s in entitled)}: "
                                                 f"the players of the last trick's lowest number (rule Y6.1)")
                self._movers = entitled[entitled.index(turn):]
                if parsed.fields.has("moved"):
                    mv = r.take("moved")
                    self._moved = tuple(part.seat(n) for part in mv.split(","))
            else:
                self._movers = entitled
                pending = []
                for part in r.take("pending", "-").split("/"):
                    if part.text == "-":
                        continue
                    who, rest = r.seat_and(part, seats)
                    cards, _ = r.card_list(rest)
                    pending.append((who, tuple(cards)))
                self._pending = tuple(pending)
        left = TRICKS - self._trick_no + 1
        hands = r.lists(r.take("hands", "/".join(["?"] * n)), n, unknown_ok=True)
        slots: list[tuple[Any, int | None]] = []
        for s, (known, unknown, v) in enumerate(hands):
            if phase == "play":
                need = left - (1 if (s - self._leader) % n < len(played) else 0)
            else:
                need = 0 if phase == "finished" else left - 1
            if unknown is None:
                unknown = need - len(known)
            if unknown < 0 or len(known) + unknown != need:
                raise v.error(f"{seats[s]} holds {need} cards now (trick {self._trick_no}, phase {phase}); "
                              f"{len(known) + unknown} are written")
            if unknown:
                slots.append((s, unknown))
        houses = r.lists(r.take("houses", "/".join(["-"] * n)), n)
        collapsed = r.lists(r.take("collapsed", "/".join(["-"] * n)), n)
        discard, _ = r.card_list(r.take("discard", "-"))
        av = r.take("aside", "?")
        aside, unknown = r.card_list(av, unknown_ok=True)
        unknown = part_size(av, len(aside), unknown, len(cfg.cards) - HAND_SIZE * n, self._aside_rule())
        if unknown != 0:
            slots.append(("aside", unknown))
        self._houses = [h for h, _, _ in houses]
        self._collapsed = [h for h, _, _ in collapsed]
        self._roofed = tuple(any(cfg.roof[c] for c in h + g) for h, g in zip(self._houses, self._collapsed))
        self._discard = discard
        dealt = r.deal(self, slots, av, self._check_piles)
        self._hands = [[PLAY[c] for c in sorted(known + dealt.get(s, []))] for s, (known, _, _) in enumerate(hands)]
        self._aside = tuple(aside + dealt.get("aside", []))
        results = []
        done = self._round if phase == "finished" else self._round - 1
        if parsed.fields.has("results"):
            parts = r.take("results").split("/")
            for i, part in enumerate(parts, done - len(parts) + 1):  # the last rounds over
                t, hs, fs = part.split(":", 3)
                tv, h, f = t.int(*cfg.track), hs.ints(0, 10**6), fs.ints(0, 10**6)
                if len(h) != n or len(f) != n:
                    raise part.error(f"a round's result is target:{n} house sizes:{n} collapsed sizes")
                results.append({"round": i, "target": tv, "house_sizes": h, "collapsed_sizes": f,
                                "scores": [round_score(a, b, tv) for a, b in zip(h, f)]})
        self._results = tuple(results)
        sums = tuple(sum(x["scores"][s] for x in results) for s in range(n))
        tv = r.take("totals", ",".join(map(str, sums)))
        self._totals = tuple(tv.split(",", n)[s].int(-10**9, 10**9) for s in range(n))
        self._last = None
        if parsed.fields.has("last_action"):
            self._last = r.action(r.take("last_action"), seats)
        self._winners = None
        if phase == "finished":
            best = max(self._totals)
            self._winners = tuple(s for s in range(n) if self._totals[s] == best)
        r.check(self)

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = config(self.mode, self.players, self.options)
        self.is_terminal = self._cur is None

    def _check_loaded(self) -> None:
        """Refuse a state no standard game can reach (``LoadError``, a ``ValueError``): options
        that contradict each other, zones and cards (``_check_common``), the round, dealer,
        marker, totals and round results, and per phase who acts, the hands, the trick, the
        marker movers (the lowest cards of the last trick, Y6.1) and the captors still to
        arrange (Y8.3)."""
        n, cfg = self.players, self._cfg
        check_options(self)
        self._check_common(n, n)
        phase = self._phase
        if phase not in ("play", "arrange", "marker", "finished"):
            raise LoadError("phase", f"{show(phase, 20)} is not a phase of the standard game")
        check_seat(self._leader, n, "turn")
        check_seat(self._dealer, n, "deals")
        small_int(self._round, "round", 1, cfg.rounds)
        lo, hi = cfg.track
        small_int(self._marker, "marker", lo, hi)
        self._check_scores()
        for key, seats in (("last_trick", self._entitled), ("moved", self._moved), ("last_trick", self._movers)):
            if not isinstance(seats, tuple) or len(seats) > 2:
                raise LoadError(key, "at most 2 players move the marker (rule Y6.1)")
            for s in seats:
                check_seat(s, n, key)
        if not isinstance(self._pending, tuple):
            raise LoadError("pending", "expected the captors still to arrange")
        for s, cards in self._pending:
            check_seat(s, n, "pending")
        left = TRICKS - self._trick_no + 1
        trick, last = self._trick, self._last_trick
        entitled = () if last is None else self._lowest(last)
        if phase == "finished":
            if self._cur is not None or trick or self._pending or self._movers or any(self._hands):
                raise LoadError("phase", "a finished game has no player to act, no cards in hand and no trick")
            if self._round != cfg.rounds or self._trick_no != TRICKS:
                raise LoadError("round", f"the game ends after trick 10 of round {cfg.rounds} (rule Y11.1)")
            best = max(self._totals)
            if self._winners != tuple(s for s in range(n) if self._totals[s] == best):
                raise LoadError("totals", "the winners are the players with the highest total (rule Y11.1)")
            return
        if self._winners is not None:
            raise LoadError("phase", "a game still running has no winners")
        check_seat(self._cur, n, "turn")
        if phase == "play":
            if len(trick) >= n or self._cur != (self._leader + len(trick)) % n:
                raise LoadError("turn", f"{self.seat_label(self._leader)} led, {len(trick)} cards are down: "
                                        f"{self.seat_label((self._leader + len(trick)) % n)} plays next (rule Y4.2)")
            if self._pending or self._movers:
                raise LoadError("phase", "while cards are played nobody moves the marker or arranges")
            for s in range(n):
                need = left - (1 if (s - self._leader) % n < len(trick) else 0)
                if len(self._hands[s]) != need:
                    raise LoadError("hands", f"{self.seat_label(s)} holds {len(self._hands[s])} cards; at trick "
                                             f"{self._trick_no} they hold {need} (rule Y2.6)")
            if last is None:
                if self._entitled or self._moved:
                    raise LoadError("last_trick", "marker movers need the trick they come from")
            else:
                if self._trick_no == 1:
                    raise LoadError("last_trick", "the first trick of a round has no trick before it")
                moved = self._moved
                if self._entitled != entitled or not set(moved) <= set(entitled):
                    raise LoadError("last_trick", "the marker movers are the players of the last trick's lowest "
                                                  "number (rule Y6.1)")
                if self._leader != (moved[-1] if moved and not cfg.last_entitled else entitled[-1]):
                    raise LoadError("turn", f"the last trick's lowest number decides who leads, not "
                                            f"{self.seat_label(self._leader)} (rules Y9.1, Y9.2)")
            self._check_last_play()
            return
        # a trick was just judged: the captors arrange (Y8.3), then the marker movers act (Y7)
        if trick or any(len(h) != left - 1 for h in self._hands):
            raise LoadError("hands", f"after trick {self._trick_no} the trick is cleared and every hand holds "
                                     f"{left - 1} cards")
        if last is None or last[0] != self._leader:
            raise LoadError("last_trick", "the trick just judged is the last trick, led by the leader")
        movers = self._movers
        k = len(entitled) - len(movers)
        if self._entitled != entitled or not movers or k < 0 or entitled[k:] != movers:
            raise LoadError("last_trick", "the marker movers are the players of the last trick's lowest number, "
                                          "in play order (rules Y6.1, Y7.3)")
        if not set(self._moved) <= set(entitled[:k]):
            raise LoadError("moved", "only the movers who already acted can have moved the marker")
        if phase == "marker":
            if self._cur != movers[0] or self._pending:
                raise LoadError("turn", f"{self.seat_label(movers[0])} moves the marker now (rule Y7.3)")
        else:
            if not cfg.choose:
                raise LoadError("phase", "captured cards are arranged only with placement_order='choose' (rule Y8.3)")
            if not self._pending or self._cur != self._pending[0][0] or k or self._moved:
                raise LoadError("turn", "the first captor still to arrange acts, before the marker moves "
                                        "(rules Y7.4, Y8.3)")
            self._check_pending(last)
        self._check_last_play()

    # ------------------------------------------------------------- reachable by a dealt game
    def _aside_rule(self) -> str:
        """How many cards the deal sets aside, and why (the reason of a count error)."""
        n, total = self.players, len(self._cfg.cards)
        if self.options["card_set"] == "advanced":
            return f"the advanced card set deals all {total} of its cards, so no card is set aside (rule Y12.2)"
        return (f"{n} players are dealt {HAND_SIZE * n} of the {total} cards in use and the other "
                f"{total - HAND_SIZE * n} are set aside unseen (rules {'Y2.2' if n == 3 else 'Y2.3'}, Y2.6)")

    def _pile_rules(self) -> str:
        return "Y4.2, Y5.2, Y5.3, Y8.2" if self.players == 3 else "Y4.2, Y6.2, Y6.3, Y8.2"

    def _check_reachable(self) -> None:
        """What position text must show because every dealt game does (``LoadError``): the tricks
        over moved their cards into the houses, collapsed piles and discard pile (Y4.2, Y5, Y6,
        Y8); with three players capturing all three cards, every capture is a whole trick and only
        a roofed house discards (Y5.2, Y5.3, Y8.6); the deal set aside exactly its cards (Y2.6,
        Y12.2); the marker is no further from its start than the movers could take it (Y2.5,
        Y7.2). A hand-built scenario (``setup_standard``) may leave cards out, set aside, so
        ``_check_loaded`` does not ask this of every state."""
        n, cfg, phase = self.players, self._cfg, self._phase
        done = self._check_piles()
        three = n == 3
        if three and cfg.capture_all:
            whole = "with three players the highest card captures all three cards of a trick (rule Y5.2)"
            for s in range(n):
                k = len(self._houses[s]) + len(self._collapsed[s]) + sum(len(c) for w, c in self._pending if w == s)
                if k % 3:
                    raise LoadError("houses", f"{whole}, so {self.seat_label(s)}'s house and collapsed pile hold a "
                                              f"multiple of 3 cards; they hold {k}")
            gone = len(self._discard)
            if gone % 3 or (gone and not any(self._roofed)):
                raise LoadError("discard", f"{whole}: a trick is discarded whole, and only when its captor's house "
                                           f"has a roof (rules Y5.3, Y8.6); {plural(gone, 'card')} "
                                           f"{'is' if gone == 1 else 'are'} written"
                                           + ("" if any(self._roofed) else " and no house has a roof"))
        want = len(cfg.cards) - HAND_SIZE * n
        if len(self._aside) != want:
            raise LoadError("aside", f"{self._aside_rule()}; {len(self._aside)} are set aside here")
        first = (self._dealer + 1) % n
        if self._trick_no == 1 and phase != "finished" and self._leader != first:
            raise LoadError("turn", f"the first trick of a round is led by the player left of the dealer (rule "
                                    f"Y4.1): {self.seat_label(self._dealer)} deals, so {self.seat_label(first)} "
                                    f"leads, not {self.seat_label(self._leader)} (deals= names the dealer)")
        if self._round == 1 or cfg.reset_marker:
            per = 1 if three else 2  # movers a trick: the lowest number, in one colour or both (Y5.1, Y6.1)
            if phase == "marker":
                steps = (done - 1) * per + len(self._entitled) - len(self._movers)
            else:
                steps = (done - (phase == "arrange")) * per
            start = cfg.marker_start
            if abs(self._marker - start) > steps:
                raise LoadError("marker", f"the marker starts the round on {start} (rule Y2.5) and each marker "
                                          f"mover moves it at most one step (rules {'Y5.1' if three else 'Y6.1'}, "
                                          f"Y7.2): by now it is at most {plural(steps, 'step')} away, not on "
                                          f"{self._marker}")

    def _lowest(self, last: tuple[int, tuple[int, ...]]) -> tuple[int, ...]:
        """The seats that played the lowest number of a trick, in play order (Y5.1, Y6.1)."""
        lead, cards = last
        movers, _ = judge_standard(cards, self.players, self._cfg.size, self._cfg.capture_all)
        return tuple((lead + p) % self.players for p in movers)

    def _check_pending(self, last: tuple[int, tuple[int, ...]]) -> None:
        """The captors still to arrange: the last ones, in play order, that captured 2 cards or more
        into a house without a roof, each with exactly the cards it captured (Y8.3)."""
        n, cfg = self.players, self._cfg
        lead, cards = last
        _, caps = judge_standard(cards, n, cfg.size, cfg.capture_all)
        caps = [((lead + p) % n, tuple(c)) for p, c in caps]
        pending = list(self._pending)
        first = next((i for i, (s, _) in enumerate(caps) if s == pending[0][0]), None)
        later = [] if first is None else [(s, c) for s, c in caps[first:] if len(c) > 1 and not self._roofed[s]]
        if pending != later:
            raise LoadError("pending", "the captors still to arrange are those of the last trick with 2 cards or "
                                       "more and a house without a roof, in play order, each with the cards it "
                                       "captured (rules Y6.2, Y8.3)")

    def _check_last_play(self) -> None:
        """The last action the views show is the one this position follows from."""
        if self._last is None:
            return
        p, a = self._last
        phase, trick = self._phase, self._trick
        entitled = self._entitled
        if phase == "play" and trick:
            ok = a.__class__ is Play and p == (self._leader + len(trick) - 1) % self.players and a.cid == trick[-1]
        elif phase == "play":  # the last marker move of the trick before (or of the round before)
            ok = a.__class__ is Move and (not entitled or p == entitled[-1])
        elif phase == "marker" and self._movers != entitled:  # the mover before this one
            ok = a.__class__ is Move and p == entitled[len(entitled) - len(self._movers) - 1]
        else:
            lead, cards = self._last_trick
            ok = (a.__class__ is Play and a.cid == cards[-1] and p == (lead + self.players - 1) % self.players) \
                or (a.__class__ is Arrange and self._cfg.choose)
        if not ok:
            raise LoadError("last_action", f"{self.seat_label(p)}: {a} cannot be the action that led here")

    def _check_scores(self) -> None:
        """Totals are ints; the results of the rounds played (if recorded) add up to them (Y10)."""
        n, cfg = self.players, self._cfg
        totals = self._totals
        if not isinstance(totals, tuple) or len(totals) != n or \
                not all(type(t) is int and abs(t) <= 10**9 for t in totals):
            raise LoadError("totals", f"expected {n} ints")
        results = self._results
        done = self._round if self._phase == "finished" else self._round - 1
        # The results are the last rounds over. A game dealt from its start records them all, and
        # its totals are their sums; a hand-built start may bring totals without the rounds before.
        first = done - len(results) + 1
        if not isinstance(results, tuple) or first < 1:
            raise LoadError("results", f"{plural(done, 'round')} {'is' if done == 1 else 'are'} over, so there "
                                       f"{'is' if done == 1 else 'are'} at most {plural(done, 'result')}")
        lo, hi = cfg.track
        sums = [0] * n
        for i, r in enumerate(results, first):
            if not isinstance(r, dict) or set(r) != {"round", "target", "house_sizes", "collapsed_sizes", "scores"}:
                raise LoadError("results", "a round's result has its round, target, house sizes, collapsed sizes "
                                           "and scores")
            t, hs, fs = r["target"], r["house_sizes"], r["collapsed_sizes"]
            if r["round"] != i or type(t) is not int or not lo <= t <= hi:
                raise LoadError("results", f"round {i}'s result has its number and a target on the size track")
            for v in (hs, fs):
                if not isinstance(v, list) or len(v) != n or not all(type(x) is int and 0 <= x <= 10**6 for x in v):
                    raise LoadError("results", f"round {i}: expected {n} sizes")
            if r["scores"] != [round_score(h, f, t) for h, f in zip(hs, fs)]:
                raise LoadError("results", f"round {i}: the scores follow from the sizes and the target "
                                           f"(rules Y10.2, Y10.3)")
            sums = [a + b for a, b in zip(sums, r["scores"])]
        if first == 1 and tuple(sums) != totals:
            raise LoadError("totals", f"the totals are the sums of the round scores{' so far' if done else ''}"
                                      f" (rule Y10.4)")


class DuoPositionText:
    """Position text of a duo game written and read, and the checks of a state read or loaded."""

    __slots__ = ()

    def _position_fields(self) -> list[tuple[str, str]]:
        labels = self._LABELS
        f = [("trick", str(self._trick_no)), ("phase", self._phase),
             ("turn", "-" if self._cur is None else labels[self._cur]),
             ("hands", "/".join(write_cards(a.cid for a in h) for h in self._hands)),
             ("played", write_cards(self._trick)), ("houses", write_lists(self._houses)),
             ("collapsed", write_lists(self._collapsed)), ("discard", write_cards(self._discard)),
             ("npc_deck", write_cards(self._npc_deck[::-1]))]
        if self._aside:
            f.append(("aside", write_cards(self._aside)))
        if self._last_trick is not None:
            lead, cards = self._last_trick
            f.append(("last_trick", f"{labels[self._cfg.order[lead]]}:{write_cards(cards)}"))
        if self._last is not None:
            f.append(("last_action", f"{labels[self._last[0]]}:{write_action(self._last[1])}"))
        return f

    def _load_position(self, parsed: Parsed) -> None:
        cfg = self._cfg = config(self.mode, 2, self.options)
        order = cfg.order
        labels = self._LABELS
        r = Reader(parsed, cfg.cards, f"a duo game plays the {self.options['duo_color']} cards")
        self._trick_no = r.take("trick", "1").int(1, TRICKS)
        phase = self._phase = r.take("phase", "play").choice(("play", "finished"))
        played, _ = r.card_list(r.take("played", "-"))
        if len(played) > 2:
            raise r.values["played"].error("at most 2 cards are down while a player is to act")
        self._trick = played
        last = None
        if parsed.fields.has("last_trick"):
            who, rest = r.seat_and(r.take("last_trick"), labels)
            cards, _ = r.card_list(rest)
            if len(cards) != 3:
                raise rest.error("a trick holds 3 cards")
            for c in cards:  # they are in houses or the discard pile too
                del r.where[c]
            last = (order.index(who), tuple(cards))
        self._last_trick = last
        lead = 0 if last is None else (last[0] + last[1].index(max(last[1])) + 1) % 3
        default = "-" if phase == "finished" else labels[order[(lead + len(played)) % 3]]
        tv = r.take("turn", default)
        if phase == "finished":
            if tv.text != "-":
                raise tv.error("nobody acts in a finished game: turn=-")
            self._cur = None
            self._lead = lead
        else:
            if tv.text not in ("A", "B"):
                raise tv.error("A or B plays next: the NPC's cards are turned over at once (rule Y13.12); "
                               "write its card in played=")
            self._cur = labels.index(tv.text)
            self._lead = (order.index(self._cur) - len(played)) % 3
        left = TRICKS - self._trick_no + 1
        slots: list[tuple[Any, int | None]] = []
        hands = r.lists(r.take("hands", "?/?"), 2, unknown_ok=True)
        for s, (known, unknown, v) in enumerate(hands):
            need = 0 if phase == "finished" else left - (1 if (order.index(s) - self._lead) % 3 < len(played) else 0)
            if unknown is None:
                unknown = need - len(known)
            if unknown < 0 or len(known) + unknown != need:
                raise v.error(f"{labels[s]} holds {need} cards now (trick {self._trick_no}); "
                              f"{len(known) + unknown} are written")
            if unknown:
                slots.append((s, unknown))
        houses = r.lists(r.take("houses", "-/-/-"), 3)
        collapsed = r.lists(r.take("collapsed", "-/-/-"), 3)
        discard, _ = r.card_list(r.take("discard", "-"))
        av = r.take("aside", "-")
        if av.text != "-":
            raise av.error(f"{self._no_aside()}: write aside=- or leave the field out")
        dv = r.take("npc_deck", "?")
        deck, unknown = r.card_list(dv, unknown_ok=True)
        unknown = part_size(dv, len(deck), unknown, *self._npc_deck_size())
        if unknown != 0:
            slots.append(("npc_deck", unknown))
        self._houses = [h for h, _, _ in houses]
        self._collapsed = [h for h, _, _ in collapsed]
        self._roofed = tuple(cfg.roofs_apply and any(cfg.roof[c] for c in h + g)
                             for h, g in zip(self._houses, self._collapsed))
        self._discard = discard
        dealt = r.deal(self, slots, dv, self._check_piles)
        self._hands = [[PLAY[c] for c in sorted(known + dealt.get(s, []))] for s, (known, _, _) in enumerate(hands)]
        self._npc_deck = (deck + dealt.get("npc_deck", []))[::-1]
        self._aside = ()
        self._last = None
        if parsed.fields.has("last_action"):
            who, action = r.action(r.take("last_action"), labels[:2])
            self._last = (who, action)
        self._winners = None
        if phase == "finished":
            self._winners = duo_winners(self.house_size(0), self.house_size(1), self.house_size(NPC))[0]
        r.check(self)

    # ------------------------------------------------------------- reachable by a dealt game
    def _pile_rules(self) -> str:
        return "Y13.5, Y13.6, Y13.7"

    def _no_aside(self) -> str:
        return (f"a duo game sets no card aside: the {len(self._cfg.cards) - 2 * HAND_SIZE} cards the players are "
                f"not dealt form the NPC deck (rule Y13.2)")

    def _npc_deck_size(self) -> tuple[int, str]:
        """The cards the NPC deck holds now, and why (the NPC turns over one card a trick)."""
        start = len(self._cfg.cards) - 2 * HAND_SIZE
        turned = self._tricks_over() + ((self._cfg.order.index(NPC) - self._lead) % 3 < len(self._trick))
        return start - turned, (f"the NPC deck starts with the {start} cards the players are not dealt (rule Y13.2) "
                                f"and the NPC has turned over {turned} of them (rule Y13.5), so it holds "
                                f"{start - turned}")

    def _check_reachable(self) -> None:
        """What position text must show because every dealt game does (``LoadError``): the tricks
        over moved their cards into the houses, collapsed piles and discard pile (Y13.5–Y13.7),
        nothing is set aside and the NPC deck lost one card a trick (Y13.2, Y13.5). A hand-built
        scenario (``setup_duo``) may leave cards out, so ``_check_loaded`` does not ask this."""
        self._check_piles()
        if self._aside:
            raise LoadError("aside", self._no_aside())
        want, why = self._npc_deck_size()
        if len(self._npc_deck) != want:
            raise LoadError("npc_deck", f"{why}; it holds {len(self._npc_deck)} here")
        if self._trick_no == 1 and self._phase == "play" and self._lead != 0:
            first = self._who(self._cfg.order[0])
            raise LoadError("turn", f"{_cap(first)}, in the first turn position, leads trick 1 (rules Y13.3, Y13.4): "
                                    f"with {plural(len(self._trick), 'card')} down, {self.seat_label(self._cur)} does not "
                                    f"play next")

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = config(self.mode, self.players, self.options)
        self.is_terminal = self._cur is None

    def _check_loaded(self) -> None:
        """Refuse a state no duo game can reach (``LoadError``, a ``ValueError``): zones and cards
        (``_check_common``), the leader (left of the last trick's captor, Y13.8), who acts (a
        player: the NPC's turns are automatic, Y13.12), the hands, the NPC deck, the result."""
        cfg = self._cfg
        self._check_common(2, 3)
        phase = self._phase
        if phase not in ("play", "finished"):
            raise LoadError("phase", f"{show(phase, 20)} is not a phase of the duo game")
        small_int(self._lead, "turn", 0, 2)
        order = cfg.order
        last = self._last_trick
        if last is not None:
            lead, cards = last
            if (lead + cards.index(max(cards)) + 1) % 3 != self._lead:
                raise LoadError("turn", "the seat left of the last trick's highest card leads (rule Y13.8)")
            if self._trick_no == 1 and phase != "finished":
                raise LoadError("last_trick", "the first trick has no trick before it")
        seen = [] if last is None else [(order[(last[0] + i) % 3], c) for i, c in enumerate(last[1])]
        seen += [(order[(self._lead + i) % 3], c) for i, c in enumerate(self._trick)]
        mine = [(w, c) for w, c in seen if w != NPC]
        if self._last is not None and mine and (self._last[0], self._last[1].cid) != mine[-1]:
            raise LoadError("last_action", f"{self.seat_label(self._last[0])}: {self._last[1]} is not the last card "
                                           f"a player played")
        if phase == "finished":
            if self._cur is not None or self._trick or any(self._hands) or self._trick_no != TRICKS:
                raise LoadError("phase", "a finished game has played its 10 tricks: no cards in hand, no trick")
            h0, h1, t = self.house_size(0), self.house_size(1), self.house_size(NPC)
            if self._winners != duo_winners(h0, h1, t)[0]:
                raise LoadError("phase", "the result follows from the houses (rules Y13.9, Y13.10)")
            return
        if self._winners is not None:
            raise LoadError("phase", "a game still running has no winners")
        check_seat(self._cur, 2, "turn")
        if len(self._trick) >= 3 or order[(self._lead + len(self._trick)) % 3] != self._cur:
            raise LoadError("turn", "the player to act is the next one in the trick; the NPC's cards are turned "
                                    "over at once (rules Y13.5, Y13.12)")
        left = TRICKS - self._trick_no + 1
        for s in range(2):
            played = 1 if (order.index(s) - self._lead) % 3 < len(self._trick) else 0
            if len(self._hands[s]) != left - played:
                raise LoadError("hands", f"{self.seat_label(s)} holds {len(self._hands[s])} cards; at trick "
                                         f"{self._trick_no} they hold {left - played} (rule Y13.2)")
        npc_played = 1 if (order.index(NPC) - self._lead) % 3 < len(self._trick) else 0
        if len(self._npc_deck) < left - npc_played:
            raise LoadError("npc_deck", f"the NPC still plays {left - npc_played} cards; its deck holds "
                                        f"{len(self._npc_deck)} (rule Y13.5)")
