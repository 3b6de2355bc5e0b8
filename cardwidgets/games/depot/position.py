"""Depot's position text, read and written, and the checks of a state read from position
text or a saved state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...core import InvalidActionError, Termination, plural
from ...core.errors import show
from ...core.position import Parsed, PositionError, Value, cards_text, deal_unknown, seat_text
from .cards import (MAX_COPIES, TURN_BOUND, VALUES, _DIGITS, _NEXT, Pass, Play, _cards, _check_deck, _counts, _fmt,
                    _info_of, _play, _vec, parse_action, shape)


class _Inconsistent(ValueError):
    """A loaded state no game could reach; ``field`` names the position field it is about."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _number(v: Any, what: str, lo: int, hi: int, field: str | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _Inconsistent(f"{what} must be a whole number from {lo} to {hi}, got {show(v, 20)}", field)
    return v


def _seat_of(v: Any, n: int, what: str, field: str | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise _Inconsistent(f"{what} must be a seat 0..{n - 1}, got {show(v, 20)}", field)
    return v


def _result_text(r: dict[str, Any]) -> str:
    """A finished game of a match in position text: ranking, hands at the end, penalty cards."""
    return ("".join(seat_text(s) for s in r["ranking"]) + ":" + "/".join(cards_text(h) for h in r["hands"]) + ":"
            + ",".join("-" if t is None else str(t) for t in r["taken"]))


def _read_results(v: Value, n: int) -> list[tuple[dict[str, Any], Value]]:
    """The ``results`` field: ``(record, where its penalty cards are written)`` per finished game."""
    if v.text == "-":
        return []
    out = []
    lost = [0] * n
    for i, game in enumerate(v.split(";")):
        ranking, hands, taken = game.split(":", 3)
        if len(ranking.text) != n:
            raise ranking.error(f"the ranking of game {i + 1} names every seat once, such as "
                                f"{''.join(seat_text(s) for s in range(n))}")
        order = [Value(ch, ranking.column + k, v.key).seat(n) for k, ch in enumerate(ranking.text)]
        if len(set(order)) != n:
            raise ranking.error(f"the ranking of game {i + 1} names every seat once")
        cards = [h.cards(_DIGITS.get, "a value 1-8") for h in hands.split("/", n)]
        took = [None if t.text == "-" else t.int(1, 8) for t in taken.split(",", n)]
        lost = [a + (t or 0) for a, t in zip(lost, took)]
        out.append(({"game": i + 1, "ranking": order, "cards_left": [len(h) for h in cards], "hands": cards,
                     "taken": took, "lost_points": list(lost)}, taken))
    return out


def _within(small: int, big: int) -> bool:
    """Whether every count of the zone ``small`` is at most the same count of ``big``."""
    return all(a <= b for a, b in zip(_vec(small), _vec(big)))


class PositionText:
    """Position text written and read, and the checks of a state read or loaded."""

    __slots__ = ()

    def _derive(self) -> None:
        self._info = _info_of(self._storage)
        self.is_terminal = self._phase == "finished"
        self._next = _NEXT[self.players]
        self._max_turns = self.options["max_turns"] or TURN_BOUND
        self._noted = self.options["refill_target"] == "noted"
        self._when_empty = self.options["reshuffle_timing"] == "when_empty"

    def _check_loaded(self) -> None:
        """Refuse a loaded state that no game could reach: a field of the wrong type or range,
        cards created or lost, or fields that disagree (who is to act, the phase, the records)."""
        n = self.players
        self._check_fields(n)
        self._check_cards()
        self._check_turn(n)
        self._check_records(n)
        self._check_start()

    def _check_fields(self, n: int) -> None:
        if not isinstance(self._hands, list) or len(self._hands) != n:
            raise _Inconsistent(f"a {n}-player state needs {n} hands", "hands")
        for name in ("_current", "_starter"):
            _seat_of(getattr(self, name), n, name[1:])
        _number(self._target, "target", 0, 10**6, "target")
        _number(self._round, "round", 1, 10**6, "round")
        _number(self._game_no, "game", 1, self.options["games"], "game")
        _number(self._passes, "passes", 0, n - 2, "passes")  # n - 1 passes in a row end the round (D7.1)
        _number(self._turns, "turns", 0, self._max_turns, "turns")
        if self._phase not in ("lead", "respond", "finished"):
            raise ValueError(f"unknown phase {show(self._phase)}")
        if not isinstance(self._lost, tuple) or len(self._lost) != n:
            raise ValueError(f"lost points: expected {n} numbers")
        for v in self._lost:
            _number(v, "lost points", 0, 10**6)
        if len(self._penalties) != n:
            raise _Inconsistent(f"penalties: expected {n} piles", "results")
        if len(self._known) != n or not all(_within(k, h) for k, h in zip(self._known, self._hands)):
            raise ValueError("the cards known to be in a hand must be in that hand")
        if not isinstance(self._deck_known, bool):
            raise ValueError("deck_known must be true or false")
        if not isinstance(self._reason, str):
            raise ValueError("the reason the game ended must be text")
        if self._standing is not None:
            _seat_of(self._standing[0], n, "the standing play's owner", "standing")
            if shape(self._standing[1].cards) is None:
                raise _Inconsistent(f"the standing play {_fmt(self._standing[1].cards)} is neither a set nor a run "
                                    f"(D4.2)", "standing")
        if self._last is not None:
            _seat_of(self._last[0], n, "the last action's seat")
        if self._winners is not None:
            for s in self._winners:
                _seat_of(s, n, "winner")
        if self._deck_order_bad():
            raise ValueError("the recorded deck order is not a deck of this game")
        self._check_origin()

    def _deck_order_bad(self) -> bool:
        if self.deck_order is None:
            return False
        try:
            _check_deck(list(self.deck_order), self._deck_multiset())
        except ValueError:
            return True
        return False

    def _check_cards(self) -> None:
        have = self.all_cards()
        if any(k > MAX_COPIES for k in have.values()):
            raise ValueError(f"more than {MAX_COPIES} cards of one value")
        if self._built is True:  # saved by an older version: whatever it holds is its game's cards
            self._built = _counts(have.elements())
        want = self._deck_multiset() if self._built is None else Counter(_cards(self._built))
        if have != want:
            extra, missing = have - want, want - have
            raise ValueError("the cards are not those of this game (cards created or lost): "
                             + "; ".join(f"{what} {_fmt(sorted(c.elements()))}"
                                         for what, c in (("extra", extra), ("missing", missing)) if c))
        if self._info.size > max(self._target, 1):
            # take-and-give never grows the Storage, the refills stop at T; only a give to
            # an empty Storage can put 1 card there when T is 0 (D6.3, D6.5)
            raise _Inconsistent(f"the Storage holds {self._info.size} cards, more than its target {self._target}",
                                "target")

    def _check_turn(self, n: int) -> None:
        standing, last, passes, cur = self._standing, self._last, self._passes, self._current
        finished, normal = self._phase == "finished", self._termination is Termination.NORMAL
        if finished and normal:
            # the last play emptied its owner's hand (D8.1): nothing moved after it
            if standing is None or cur != standing[0] or passes or self._hands[cur]:
                raise _Inconsistent("a finished game ends on the play that emptied its owner's hand (D8.1)", "turn")
            if last is not None and last != standing:
                raise _Inconsistent("the last action of a finished game is the play that ended it", "last")
            if sum(1 for h in self._hands if not h) != 1:
                raise _Inconsistent("exactly one hand is empty when a game ends (D8.1)", "hands")
            return
        if self._phase == "lead" and standing is not None or self._phase == "respond" and standing is None:
            raise _Inconsistent("a standing play is on the table exactly in the respond phase (D5.2)", "standing")
        if standing is None:
            if passes or last is not None:
                raise _Inconsistent("a round starts with no pass and no last action (D5.2)", "last")
        else:
            if (cur - standing[0] - 1) % n != passes:
                after = f"after {self.seat_label(standing[0])}'s play and {plural(passes, 'pass', 'passes')}"
                raise _Inconsistent(f"{after} it is {self.seat_label((standing[0] + 1 + passes) % n)}'s turn, not "
                                    f"{self.seat_label(cur)}'s (D5.1, D7.1)", "turn")
            if last is not None:
                if last[0] != (cur - 1) % n:
                    raise _Inconsistent("the last action was not made by the previous player (D5.1)", "last")
                if type(last[1]) is Play and (passes or last != standing):
                    raise _Inconsistent("the last play is the standing play (D4.9)", "last")
                if type(last[1]) is Pass and not passes:
                    raise _Inconsistent("after a pass the pass count is at least 1 (D6.7)", "last")
        if any(not h for h in self._hands):
            raise _Inconsistent("a game in progress has no empty hand: the game ends when one empties (D8.1)", "hands")
        if finished:  # stopped by the safety cap (D9.3)
            if self._termination is not Termination.ABORTED or self._winners != () or \
                    self._turns != self._max_turns or self._reason != self._abort_reason():
                raise _Inconsistent("a game stopped by the safety cap has no winner and reached the cap (D9.3)",
                                    "turns")
        elif self._winners is not None or self._reason or not normal or self._turns >= self._max_turns:
            raise ValueError("a game in progress has no winner, no outcome and is below the turn cap")

    def _check_records(self, n: int) -> None:
        games, results = self.options["games"], self._results
        ended = self._phase == "finished" and self._termination is Termination.NORMAL
        want = 0 if games == 1 else self._game_no - (not ended)
        if len(results) != want or ended and self._game_no != games:
            raise _Inconsistent(f"{plural(len(results), 'game')} recorded, but this is game {self._game_no} of "
                                f"{games}{' and it is over' if ended else ''}", "results")
        lost = [0] * n
        for i, r in enumerate(results):
            self._check_result(i, r, n, lost)
        if tuple(lost) != self._lost:
            raise _Inconsistent("the lost points are not the sum of the penalty cards taken (D10.4)", "results")
        if self._penalties != self._penalty_piles():
            raise _Inconsistent("the penalty piles are not the penalty cards taken (D10.5)", "results")
        if self._phase == "finished" and self._termination is Termination.NORMAL:
            if (self._winners, self._reason) != self._end_of(self._standing[0]):
                raise ValueError("the winners and the reason are not what the rules give (D8.2, D10.7)")

    def _check_result(self, i: int, r: dict[str, Any], n: int, lost: list[int]) -> None:
        ranking, hands, taken = r["ranking"], r["hands"], r["taken"]
        if r["game"] != i + 1 or sorted(ranking) != list(range(n)) or len(hands) != n or len(taken) != n \
                or r["cards_left"] != [len(h) for h in hands] or len(r["lost_points"]) != n:
            raise _Inconsistent(f"the record of game {i + 1} is not one of a {n}-player game", "results")
        if hands[ranking[0]] or not all(hands[s] for s in ranking[1:]) or taken[ranking[0]] is not None:
            raise _Inconsistent(f"in the record of game {i + 1} the winner is not ranked first (D10.2)", "results")
        keys = [(len(hands[s]), -sum(hands[s])) for s in ranking[1:]]
        if keys != sorted(keys) or self.options["rank_tiebreak"] == "seat_after_winner" and \
                ranking != self._rank(ranking[0], [_counts(h) for h in hands], None):
            raise _Inconsistent(f"the ranking of game {i + 1} does not follow rule D10.2", "results")
        for s, t in enumerate(taken):
            if t is not None:
                if t not in VALUES:
                    raise _Inconsistent(f"the record of game {i + 1} holds a penalty card {show(t)}", "results")
                lost[s] += t
        if r["lost_points"] != lost:
            raise _Inconsistent(f"the lost points after game {i + 1} are not the sums of the penalty cards "
                                f"(D10.4)", "results")

    def _penalty_piles(self) -> tuple[tuple[int, ...], ...]:
        """The penalty piles the recorded games leave (D10.5)."""
        piles: list[tuple[int, ...]] = [()] * self.players
        leave = self.options["penalty_cards_leave_play"]
        for r in self._results:
            if not leave:
                piles = [()] * self.players  # the next deal took them back
            piles = [pile + ((t,) if t is not None else ()) for pile, t in zip(piles, r["taken"])]
        if not leave and self._game_no > len(self._results):
            piles = [()] * self.players  # a game was dealt after the last record
        return tuple(piles)

    def _check_start(self) -> None:
        """What a game dealt by the rules adds: its start, the target and the count of turns."""
        opts, results, n = self.options, self._results, self.players
        if results and self._game_no > len(results):
            rule, last = opts["next_game_starter"], results[-1]["ranking"]
            if rule == "last_place" and self._starter != last[-1] or rule == "winner" and self._starter != last[0]:
                raise _Inconsistent(f"game {self._game_no} starts with the seat rule D10.6 names", "starter")
        sp = opts["starting_player"]
        if sp != "random" and opts["next_game_starter"] == "rotate" and self._starter != (sp + self._game_no - 1) % n:
            raise _Inconsistent(f"game {self._game_no} starts with the seat rule D10.6 names", "starter")
        if self._moves:
            last = self.last_move
            if self._last is not None and last != self._last[1]:
                raise ValueError("the last action is not the last action of the history")
            # The last action is forgotten only when it ended a round (a pass, D7.2) or a
            # game of a match (a play, D10.6).
            if self._last is None and (self._standing is not None or
                                       (self._round == 1) != (type(last) is Play) or
                                       type(last) is Play and self._game_no == 1):
                raise ValueError(f"the last action {last} is missing from the table")
        if self._built is not None:
            return  # a hand-built game may start anywhere
        if sp != "random" and self._game_no == 1 and self._starter != sp:
            raise ValueError("game 1 starts with the starting player (D2.5)")
        t0 = opts["initial_storage"][n]
        if self._target != t0 + self._round - 1:
            raise ValueError(f"in round {self._round} the Storage target is {t0 + self._round - 1}, not "
                             f"{self._target} (D2.3, D7.3)")
        if self._turns > self._moves or self._game_no == 1 and self._turns != self._moves:
            raise ValueError(f"{self._turns} turns in this game but {self._moves} actions in the history")
        if self._round == 1 and self._phase == "lead" and (self._turns or self._current != self._starter):
            raise ValueError("round 1 is led by the game's starting player, on the first turn (D2.5, D10.6)")

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        """The fields of :meth:`to_position` (the grammar is in the rules reference, "Position text")."""
        out = []
        if self._built is not None and self._built != _counts(self._deck_multiset().elements()):
            # a hand-built game with cards of its own (setup_position): how many of each value
            out.append(("cards", ",".join(map(str, _vec(self._built)[1:]))))
        if self.options["games"] == 3:
            out += [("game", str(self._game_no)), ("starter", seat_text(self._starter))]
            if self._results:
                out.append(("results", ";".join(_result_text(r) for r in self._results)))
        out.append(("round", str(self._round)))
        if self._target != self._usual_target():
            out.append(("target", str(self._target)))
        finished = self._phase == "finished"
        aborted = self._termination is Termination.ABORTED
        # A game stopped by the cap keeps the seat that was to act: it leads the round in play,
        # or the passes since the standing play are counted from it (D9.3).
        out.append(("turn", "-" if finished and not aborted else seat_text(self._current)))
        if aborted:
            out.append(("aborted", "1"))
        if self._standing is not None:
            owner, play = self._standing
            out.append(("standing", f"{seat_text(owner)}:{cards_text(play.cards)}"))
        if self._last is not None:
            out.append(("last", f"{seat_text(self._last[0])}:{str(self._last[1]).replace(' ', '_')}"))
        out.append(("hands", "/".join(cards_text(_cards(h)) for h in self._hands)))
        out.append(("storage", cards_text(_cards(self._storage))))
        if self._discard:
            out.append(("discard", cards_text(_cards(self._discard))))
        out.append(("deck", cards_text(self._deck[::-1])))
        if self.options["max_turns"] is not None and not aborted:
            out.append(("turns", str(self._turns)))
        return out

    def _usual_target(self) -> int:
        """T in this round of a game dealt by the rules (D2.3, D7.3)."""
        return self.options["initial_storage"][self.players] + self._round - 1

    def _load_position(self, parsed: Parsed) -> None:
        n, opts = self.players, self.options
        take = parsed.take
        places: list[tuple[Value, list[int]]] = []  # (where, cards) of every card written out
        where: dict[str | None, Value] = {}

        def field(key: str, default: str | None = None) -> Value:
            v = where[key] = take(key, default)
            return v

        full = self._deck_multiset()
        counts = field("cards", ",".join(str(full[v]) for v in VALUES)).ints(0, MAX_COPIES)
        if len(counts) != 8:
            raise where["cards"].error(f"write how many cards of each value 1 to 8 this game has: 8 numbers, "
                                       f"got {len(counts)}")
        game_cards = Counter({v: k for v, k in zip(VALUES, counts) if k})
        match = opts["games"] == 3
        self._game_no = field("game", "1").int(1, opts["games"])
        results = _read_results(field("results", "-"), n) if match else ()
        if len(results) != self._game_no - 1 and not (len(results) == self._game_no == opts["games"]):
            raise where["results"].error(f"this is game {self._game_no}, so results must hold "
                                         f"{plural(self._game_no - 1, 'finished game')}; it holds {len(results)}")
        self._results = tuple(r for r, _ in results)
        self._lost = tuple(results[-1][0]["lost_points"]) if results else (0,) * n
        self._penalties = self._penalty_piles()  # the penalty cards still out of play (D10.5)
        if results:
            places.append((results[-1][1], [v for pile in self._penalties for v in pile]))
        sp = opts["starting_player"]
        self._starter = field("starter", "A" if sp == "random" else seat_text(sp)).seat(n)
        self._round = field("round", "1").int(1, 10**6)
        self._target = field("target", str(self._usual_target())).int(0, 10**6)
        turn = field("turn").seat(n, none=True)
        aborted = field("aborted", "0").flag()
        standing = field("standing", "-")
        self._standing = None
        if standing.text != "-":
            owner, cards = standing.split(":", 2)
            play = _play(tuple(sorted(cards.cards(_DIGITS.get, "a value 1-8"))))
            if shape(play.cards) is None:
                raise cards.error(f"{_fmt(play.cards)} is neither a set nor a run (D4.2)")
            self._standing = (owner.seat(n), play)
            places.append((cards, list(play.cards)))
        last = field("last", "-")
        self._last = None
        if last.text != "-":
            seat, action = last.split(":", 2)
            try:
                self._last = (seat.seat(n), parse_action(action.text.replace("_", " ")))
            except InvalidActionError as e:
                raise action.error(f"{show(action.text)} is not an action written with '_' for spaces, "
                                   f"such as play_4_5 ({e})") from None
        # who is to act (D5.1, D7.1): the passes are counted from the standing play
        if turn is None and not aborted:
            if self._standing is None:
                raise where["turn"].error("a finished game ends on a play: write the standing play that ended it")
            self._phase, self._current, self._passes = "finished", self._standing[0], 0
        else:
            self._phase = "finished" if aborted else "lead" if self._standing is None else "respond"
            self._current = self._starter if turn is None else turn
            self._passes = 0
            if self._standing is not None:
                derived = (self._current - self._standing[0] - 1) % n
                # A stopped game written with turn=- has no seat to count the passes from: passes=
                # says how many (none if left out).
                self._passes = field("passes", "0").int(0, n - 2) if turn is None else derived
                if turn is None:
                    self._current = (self._standing[0] + 1 + self._passes) % n
                elif derived == n - 1:
                    raise where["turn"].error(f"{seat_text(turn)} owns the standing play: everyone else "
                                              f"passing would have ended the round (D7.1)")
        # the cards
        hands = field("hands").split("/", n)
        self._hands = [0] * n
        unknown: list[tuple[Any, int | None]] = []
        for s, part in enumerate(hands):
            if part.unknown:
                count = part.unknown_count()
                if count is None:
                    raise part.error("a hidden hand is written with its size, such as ?9")
                unknown.append((s, count))
            else:
                cards = part.cards(_DIGITS.get, "a value 1-8")
                places.append((part, cards))
                self._hands[s] = _counts(cards)
        storage = field("storage").cards(_DIGITS.get, "a value 1-8")
        places.append((where["storage"], storage))
        discard = field("discard", "-").cards(_DIGITS.get, "a value 1-8")
        places.append((where["discard"], discard))
        deck_v = field("deck", "?")
        deck: list[int] = []
        if deck_v.unknown:
            unknown.append(("deck", deck_v.unknown_count()))
        else:
            deck = deck_v.cards(_DIGITS.get, "a value 1-8")
            places.append((deck_v, deck))
        pool = Counter(game_cards)
        for at, cards in sorted(places, key=lambda pc: pc[0].column):
            pool.subtract(cards)
            over = sorted(v for v, k in pool.items() if k < 0)
            if over:
                v = over[0]
                raise at.error(f"one {v} too many: this game has {plural(game_cards[v], 'card')} of value {v} "
                               f"(every card is in one place)")
        rest = sorted(pool.elements())
        if not unknown and rest:
            raise deck_v.error(f"{plural(len(rest), 'card')} {_fmt(rest)} {'is' if len(rest) == 1 else 'are'} "
                               f"not placed: write them somewhere or write the deck as '?'")
        # A size that does not add up is the deck's fault when it says its size, else the hands'.
        blame = deck_v if deck_v.text.startswith("?") and deck_v.text != "?" else \
            next((hands[s] for s, _ in unknown if s != "deck"), deck_v)
        for name, cards in deal_unknown(self, unknown, rest, blame):
            if name == "deck":
                deck = cards
            else:
                self._hands[name] = _counts(cards)
        self._storage, self._discard = _counts(storage), _counts(discard)
        self._deck = bytes(deck[::-1])
        self._known = [0] * n
        self._deck_known = False
        self._built = _counts(game_cards.elements())
        max_turns = opts["max_turns"] or TURN_BOUND
        self._turns = field("turns", str(max_turns if aborted else 0)).int(0, max_turns)
        self._termination = Termination.ABORTED if aborted else Termination.NORMAL
        self._winners, self._reason = None, ""
        if aborted:
            self._winners, self._reason = (), self._abort_reason()
        elif self._phase == "finished":
            self._winners, self._reason = self._end_of(self._standing[0])
        # The rules' checks, blamed on the field they are about.
        try:
            self._derive()
            self._check_loaded()
        except _Inconsistent as e:
            at = where.get(e.field)
            raise (at.error(str(e)) if at is not None else PositionError(str(e))) from None
