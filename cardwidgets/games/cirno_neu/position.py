"""cirno+neu's position text, read and written, and the checks of a state read from
position text or a saved state.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable

from ...core import Termination
from ...core.errors import show
from ...core.position import PositionError, Value, cards_text, deal_unknown, seat_text
from .cards import DOUBLE, DSHOT, PLUS_MAX, SHOT, TOKENS, VALUE, _intern, _tokens, card_id
from .spec import ACTION_BOUND, _check_options, _config, _dec_counts, _deck_list, _enc_counts, _init, _targets

if TYPE_CHECKING:
    from .cards import Play


def _cards_text(ids: Iterable[int]) -> str:
    return cards_text(ids, TOKENS.__getitem__)


def _read_last(v: Value, n: int) -> tuple[int, Play] | None:
    """``last=C:SHOT@A``: who played the last card, the card and its target."""
    if v.text == "-":
        return None
    who, sep, rest = v.text.partition(":")
    if not sep:
        raise v.error(f"{show(v.text)} is not '<seat>:<card>' such as 'C:7' or 'C:SHOT@A'")
    seat = Value(who, v.column, v.key).seat(n)
    tok, at, tgt = rest.partition("@")
    c = card_id(tok)
    if c is None:
        raise v.error(f"{show(tok)} is not a card ({', '.join(TOKENS)})", len(who) + 1)
    target = Value(tgt, v.column + len(who) + len(tok) + 2, v.key).seat(n) if at else None
    if (target is None) != (c not in (SHOT, DSHOT)):
        raise v.error("SHOT and DOUBLE SHOT, and only they, have a target (N4.2)", len(who) + 1)
    return (seat, _intern(c, target))


def _read_bust(v: Value, n: int) -> dict[str, Any] | None:
    """``bust=B/2/95/8,10,50/-``: seat, round, sum, the hand shown (``-``: not shown), the card played."""
    if v.text == "-":
        return None
    seat, rnd, total, hand, card = v.split("/", 5)
    shown = None if hand.text == "-" else _tokens(sorted(c for c in hand.cards(card_id, ", ".join(TOKENS))))
    played = None
    if card.text != "-":
        c = card_id(card.text)
        if c is None:
            raise card.error(f"{show(card.text)} is not a card ({', '.join(TOKENS)})")
        played = TOKENS[c]
    return {"seat": seat.seat(n), "sum": total.int(-10**6, 10**6), "hand": shown, "card": played,
            "forced": shown is not None, "round": rnd.int(1, 10**6)}


#: Where the loading checks' messages point in the position text (their first word).
_POSITION_KEYS = {"hands": "hands", "sum": "sum", "dealer": "dealer", "actor": "turn", "current": "turn",
                  "anchor": "anchor", "shot_target": "shot", "chips": "chips", "out": "out", "bust": "bust",
                  "last action": "last", "round": "round", "turn_no": "turn_no", "dir": "dir", "required": "need",
                  "played": "played", "a turn records": "played", "the actor holds": "hands",
                  "an eliminated player": "hands", "the actor holds no": "hands"}


def _blame(taken: dict[str, Value], message: str) -> PositionError:
    """A consistency error of a loaded position, at the field it is about."""
    for words, key in _POSITION_KEYS.items():
        if message.startswith(words) and key in taken:
            return taken[key].error(f"not a consistent position: {message}")
    return PositionError(f"not a consistent position: {message}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: Any, lo: int, hi: int, what: str) -> int:
    if not _is_int(v) or not lo <= v <= hi:
        raise ValueError(f"{what}: an int from {lo} to {hi}, got {show(v, 20)}")
    return v


def _seat(v: Any, n: int, what: str) -> int:
    if not _is_int(v) or not 0 <= v < n:
        raise ValueError(f"{what}: a seat 0..{n - 1}, got {show(v, 20)}")
    return v


class PositionText:
    """Position text written and read, and the checks of a state read or loaded."""

    __slots__ = ()

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        cfg = self._cfg
        actor = self._actor
        out: list[tuple[str, str]] = []

        def opt(key: str, value: str, default: str) -> None:
            if value != default:
                out.append((key, value))

        opt("round", str(self._round), "1")
        opt("dealer", seat_text(self._dealer), seat_text(actor))
        out.append(("turn", seat_text(actor)))
        opt("anchor", seat_text(self._anchor), seat_text(actor))
        opt("kind", "shot" if self._shot_turn else "normal", "normal")
        opt("need", str(self._required), "1")
        opt("played", str(self._played), "0")
        opt("shot", seat_text(self._shot_target), "-")
        opt("double", "1" if self._double_next else "0", "0")
        opt("dir", "cw" if self._dir == 1 else "ccw", "cw")
        opt("sum", str(self._sum), "0")
        out.append(("hands", "/".join(_cards_text(h) for h in self._hands)))
        opt("stack", _cards_text(self._stack), "-")
        out.append(("draw", _cards_text(reversed(self._draw))))
        opt("out", ",".join(seat_text(s) for s in self._out) or "-", "-")
        if cfg.life_system:
            opt("chips", ",".join(map(str, self._chips)),
                ",".join(str(cfg.lives if a else 0) for a in self._active))
        if self._last is not None:
            p, a = self._last
            out.append(("last", f"{seat_text(p)}:{TOKENS[a.cid]}" + ("" if a.target is None else
                                                                      f"@{seat_text(a.target)}")))
        b = self._bust
        if b is not None:
            hand = "-" if b["hand"] is None else ",".join(b["hand"])
            out.append(("bust", f"{seat_text(b['seat'])}/{b['round']}/{b['sum']}/{hand}/{b['card'] or '-'}"))
        if self._cp is None:
            out.append(("end", "won" if self._termination is Termination.NORMAL else "aborted"))
        opt("turn_no", str(self._turns), "1")
        if self._built is not None and self._built != cfg.deck:
            out.append(("built", json.dumps(_enc_counts(self._built), separators=(",", ":"))))
        return out

    def _load_position(self, parsed: Any) -> None:
        _init(self)
        n, cfg = self.players, self._cfg
        taken: dict[str, Value] = {}

        def take(key: str, default: str | None = None) -> Value:
            v = taken[key] = parsed.take(key, default)
            return v

        universe = cfg.deck
        if parsed.fields.has("built"):
            v = take("built")
            try:
                universe = _dec_counts(json.loads(v.text))  # type: ignore[assignment]
            except ValueError as e:
                raise v.error(f"not a card count object such as {{\"1\":3,\"PASS\":4}}: {e}") from None
        left = Counter({k: c for k, c in enumerate(universe) if c})
        slots: list[tuple[int, int | None]] = []  # the unknown parts: (slot number, how many)
        unknown: list[Value] = []  # where they are written

        def cards(v: Value, where: str) -> list[Any]:
            """Cards and ``?N`` parts of a list (``-``: none); counts each known card off.
            An unknown part stands in the list as its slot number (a str)."""
            if v.text == "-":
                return []
            items: list[Any] = []
            for part in v.split(","):
                if part.unknown:
                    count = part.unknown_count()
                    if count is None and where != "draw":
                        raise part.error("a bare '?' (all the cards left) is for the draw pile; write '?N' here")
                    items.append(str(len(slots)))
                    slots.append((len(slots), count))
                    unknown.append(part)
                    continue
                c = card_id(part.text)
                if c is None:
                    raise part.error(f"{show(part.text)} is not a card ({', '.join(TOKENS)})")
                if left[c] <= 0:
                    raise part.error(f"one {TOKENS[c]} too many: this match has {universe[c]}")
                left[c] -= 1
                items.append(c)
            return items

        self._round = take("round", "1").int(1, 10**6)
        turn = take("turn")
        actor = turn.seat(n)
        self._actor = actor
        self._dealer = take("dealer", seat_text(actor)).seat(n)
        self._anchor = take("anchor", seat_text(actor)).seat(n)
        self._shot_turn = take("kind", "normal").choice(("normal", "shot")) == "shot"
        self._required = take("need", "1").int(1, 2)
        self._played = take("played", "0").int(0, 1)
        self._shot_target = take("shot", "-").seat(n, none=True)
        self._double_next = take("double", "0").flag()
        self._dir = 1 if take("dir", "cw").choice(("cw", "ccw")) == "cw" else -1
        self._sum = take("sum", "0").int(-10**6, 10**6)
        hv = take("hands")
        hands = [cards(v, f"hand {i}") for i, v in enumerate(hv.split("/", n))]
        stack = cards(take("stack", "-"), "stack")
        dv = take("draw", "?")
        draw = cards(dv, "draw")
        out = take("out", "-")
        self._out = tuple(p.seat(n) for p in out.split(",")) if out.text != "-" else ()
        self._active = tuple(s not in self._out for s in range(n))
        default_chips = ",".join(str(cfg.lives if a and cfg.life_system else 0) for a in self._active)
        if cfg.life_system:
            self._chips = tuple(take("chips", default_chips).ints(0, cfg.lives))
        else:
            self._chips = (0,) * n
        self._last = _read_last(take("last", "-"), n)
        self._bust = _read_bust(take("bust", "-"), n)
        end = take("end", "-").choice(("-", "won", "aborted"))
        self._cp = actor if end == "-" else None
        self._termination = Termination.ABORTED if end == "aborted" else Termination.NORMAL
        self._turns = take("turn_no", "1").int(1, 10**8)
        # Deal the unknown parts from the cards not placed (card conservation).
        pool = list(left.elements())
        dealt: dict[str, list[int]] = {}
        if slots:
            for k, got in deal_unknown(self, slots, pool, unknown[-1]):
                dealt[str(k)] = got
        elif pool:
            missing = ", ".join(f"{k}×{TOKENS[c]}" for c, k in sorted(left.items()) if k)
            raise dv.error(f"cards missing from the position: {missing} (write '?' in the draw pile to deal them)")

        def fill(items: list[Any]) -> list[int]:
            return [c for x in items for c in (dealt[x] if isinstance(x, str) else (x,))]

        self._hands = [sorted(fill(h)) for h in hands]
        self._stack = fill(stack)
        self._draw = fill(draw)[::-1]
        self._tgt = _targets(n, self._active, cfg)
        # A position is checked as dealt by the rules if it can be, else as hand-built.
        self._built = universe
        self._reason = ""
        try:
            self._check(settled=True)
        except ValueError as e:
            raise _blame(taken, str(e)) from None
        if universe == cfg.deck:
            self._built = None
            try:
                self._check(settled=True)
            except ValueError:
                self._built = universe

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = _config(self.options)
        self._tgt = _targets(self.players, self._active, self._cfg)
        self._reason = ""  # set by _check once the fields are known to be sound

    def _check_loaded(self) -> None:
        self._check(settled=True)

    def _check(self, settled: bool) -> None:
        """``ValueError`` unless this is a position the rules can reach (``_built``: a
        hand-built one, where hand sizes and the turn record are free). ``settled``: no
        automatic step is due (a forced bust or an empty hand would be carried out at once)."""
        n, cfg = self.players, self._cfg
        _check_options(self.options, n, cfg)
        self._check_origin()
        if self.deck_order is not None:
            if self._built is not None:
                raise ValueError("deck: a hand-built match has no deck order")
            _deck_list(self.deck_order, cfg.deck)
        hands = self._hands
        if len(hands) != n:
            raise ValueError(f"hands: expected {n} hands, got {len(hands)}")
        zones = Counter(self._draw)
        zones.update(self._stack)
        for h in hands:
            zones.update(h)
        universe = cfg.deck if self._built is None else self._built
        if zones != Counter({k: c for k, c in enumerate(universe) if c}):
            raise ValueError("the hands, draw pile and main stack do not hold exactly the cards of this match: "
                             "cards were created or lost")
        if sum(universe) < 2:
            raise ValueError("a match needs at least 2 cards")
        active, chips, out = self._active, self._chips, self._out
        if len(active) != n or not all(type(a) is bool for a in active):
            raise ValueError(f"active: expected {n} true/false flags")
        if len(chips) != n or not all(_is_int(c) for c in chips):
            raise ValueError(f"chips: expected {n} counts")
        if cfg.life_system:
            if any(not 0 <= c <= cfg.lives or (c > 0) != a for c, a in zip(chips, active)):
                raise ValueError(f"chips: each 0 to {cfg.lives}, and a player is in the match while they have one")
        elif any(chips):
            raise ValueError("chips: all 0 without the life system")
        if not all(_is_int(s) and 0 <= s < n for s in out) or len(set(out)) != len(out) or \
                set(out) != {s for s in range(n) if not active[s]}:
            raise ValueError("out: the eliminated seats, each once, and exactly the players not active")
        for name in ("_dealer", "_actor", "_anchor"):
            _seat(getattr(self, name), n, name[1:])
        for name, lo, hi in (("_round", 1, 10**6), ("_turns", 1, 10**8), ("_sum", -10**9, 10**9)):
            _int(getattr(self, name), lo, hi, name[1:])
        if not (_is_int(self._dir) and self._dir in (1, -1)):
            raise ValueError("dir: 1 (clockwise) or -1")
        for name in ("_shot_turn", "_double_next"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name[1:]}: true or false")
        _int(self._required, 1, 2, "required")
        _int(self._played, 0, self._required - 1, "played")
        if self._shot_target is not None:
            _seat(self._shot_target, n, "shot_target")
        if type(self._termination) is not Termination:
            raise ValueError("termination: 'normal' or 'aborted'")
        self._check_bust(n)
        last = self._last
        if last is not None:
            _seat(last[0], n, "last action's seat")
            if last[1].target is not None and last[1].target >= n:
                raise ValueError("last action: its target is not a seat")
            if not self._stack or self._stack[-1] != last[1].cid:
                raise ValueError("last action: its card must be the top of the main stack")
        if self._cp is not None and not _is_int(self._cp):
            raise ValueError("current: a seat, or null when the match is over")
        running = self._cp is not None
        if running:
            self._check_turn(n, settled)
        elif self._termination is Termination.NORMAL:
            if active.count(True) != 1 or self._bust is None or not out or self._bust["seat"] != out[-1]:
                raise ValueError("a finished match has one player left, and the last bust eliminated the last one out")
        elif active.count(True) < 2:
            raise ValueError("an aborted match was stopped with two or more players in it")
        if self._built is None:
            self._check_dealt(n, running)
        self._reason = self._end_reason()

    def _check_turn(self, n: int, settled: bool) -> None:
        """A running match: whose turn it is and what the turn has recorded (N4.1, N5)."""
        cfg, active = self._cfg, self._active
        if self._cp != self._actor or self._termination is not Termination.NORMAL:
            raise ValueError("current: the actor while the match runs")
        if active.count(True) < 2:
            raise ValueError("a running match has two or more players in it")
        if self._moves >= ACTION_BOUND:
            raise ValueError(f"a running match has fewer than {ACTION_BOUND:,} actions")
        for name in ("_actor", "_anchor", "_dealer"):
            if not active[getattr(self, name)]:
                raise ValueError(f"{name[1:]}: a player in the match")
        if self._anchor != self._actor and not (self._shot_turn and cfg.after_shooter):
            raise ValueError("anchor: the actor, except in a shot turn that resumes after its shooter (N5.2)")
        if self._shot_turn and self._anchor == self._actor and cfg.after_shooter and not cfg.self_target:
            raise ValueError("anchor: a shot turn resumes after its shooter, who cannot be its target (N3.6)")
        t = self._shot_target
        if t is not None and (not active[t] or (t == self._actor and not cfg.self_target)):
            raise ValueError("shot_target: a player in the match, not the actor (N3.6)")
        if not self._played and (t is not None or self._double_next):
            raise ValueError("a turn records SHOT and DOUBLE only once a card is played (N5.1)")
        if self._sum > cfg.limit:
            raise ValueError(f"sum: at most {cfg.limit} while the round goes on (N6.2)")
        if cfg.floor and self._sum < min(0, cfg.set_value):
            raise ValueError("sum: not below 0 with floor_at_zero (N3.2)")
        last = self._last
        if last is not None:
            if not active[last[0]]:
                raise ValueError("last action: played by a player in the match")
            if self._played and last[0] != self._actor:
                raise ValueError("last action: the actor's, once the actor has played a card")
            c = last[1].cid
            if self._played == 1:
                if self._shot_target != (last[1].target if c in (SHOT, DSHOT) else None) or \
                        self._double_next != (c in (DOUBLE, DSHOT)):
                    raise ValueError("the turn's record (shot_target, double_next) must follow its first card (N5.1)")
            else:  # the last card ended the turn before this one
                if c in (DOUBLE, DSHOT) and self._required != 2:
                    raise ValueError("required: a DOUBLE ended the last turn, so this one plays 2 cards (N5.4)")
                if c in (SHOT, DSHOT):
                    shooter, target = last
                    anchor = shooter if cfg.after_shooter else target.target
                    if not self._shot_turn or self._actor != target.target or self._anchor != anchor:
                        raise ValueError("a SHOT ended the last turn, so its target plays a shot turn (N5.2)")
        if any(self._hands[s] for s in range(n) if not active[s]):
            raise ValueError("an eliminated player holds no cards (N6.7)")
        if settled:
            hand = self._hands[self._actor]
            if not hand:
                raise ValueError("the actor holds no card: the turn would be skipped at once (N4.5)")
            if cfg.auto_bust and hand[0] <= PLUS_MAX and hand[-1] <= PLUS_MAX \
                    and VALUE[hand[0]] > cfg.limit - self._sum:
                raise ValueError("the actor holds no safe card: the forced bust would be settled at once (N4.4)")

    def _check_bust(self, n: int) -> None:
        b = self._bust
        if b is None:
            return
        _seat(b["seat"], n, "bust seat")
        _int(b["sum"], -10**9, 10**9, "bust sum")
        _int(b["round"], 1, self._round, "bust round")
        if type(b["forced"]) is not bool or b["forced"] != (b["hand"] is not None):
            raise ValueError("bust: forced is true exactly when the hand is shown (N8.2)")
        if b["card"] is None and not b["forced"]:
            raise ValueError("bust: a bust without a card played is a forced one (N4.4)")
        if b["hand"] is not None and (not b["hand"] or (b["card"] is not None and b["card"] not in b["hand"])):
            raise ValueError("bust: the shown hand holds the card played")

    def _check_dealt(self, n: int, running: bool) -> None:
        """A match dealt by the rules: hand sizes, rounds and busts agree (N2.3, N4.7, N6)."""
        cfg, active, b = self._cfg, self._active, self._bust
        h = cfg.hand_size
        busts = sum(cfg.lives - c for c in self._chips) if cfg.life_system else len(self._out)
        won = not running and self._termination is Termination.NORMAL
        if self._round != busts + (0 if won else 1):
            raise ValueError(f"round: {busts} busts so far make this round {busts + (0 if won else 1)}")
        if (b is None) != (busts == 0) or (b is not None and b["round"] != busts):
            raise ValueError("bust: the record of the last bust, in the round it ended")
        if b is not None and not cfg.life_system and b["seat"] != self._out[-1]:
            raise ValueError("bust: the last player busted is the last one out")
        if self._turns < self._round:
            raise ValueError("turn_no: every round has begun a turn")
        actor_hand = h if cfg.after_each and self._required == 2 else h - self._played
        if won:
            p = b["seat"]
            if self._actor != p:
                raise ValueError("the last turn is the last buster's")
            want = [h if active[s] else 0 for s in range(n)]
            want[p] = actor_hand - (b["card"] is not None)
            if [len(x) for x in self._hands] != want:
                raise ValueError(f"hands: the finished match's hands hold {want} cards")
            return
        want = [h if active[s] else 0 for s in range(n)]
        want[self._actor] = actor_hand
        if [len(x) for x in self._hands] != want:
            raise ValueError(f"hands: {want} cards at this point of the turn (N2.3, N4.7)")
        if not self._stack:  # no card played yet this round: its first turn (N2.3, N5.5)
            if self._sum or self._last is not None or self._played or self._shot_turn or self._required != 1 \
                    or self._actor != self._dealer or (self._dir != 1 and (cfg.reset_direction or self._round == 1)):
                raise ValueError("a round with no card played yet is at its first turn: the dealer's, "
                                 "sum 0, clockwise (N2.3, N5.5)")
        elif self._last is None:
            raise ValueError("last action: the card on top of the main stack")
        fd = self.options["first_dealer"]
        if self._round == 1 and fd != "random" and self._dealer != fd:
            raise ValueError(f"dealer: round 1 is dealt by first_dealer={fd} (N2.2)")
        if b is not None and cfg.starter != "rotate":
            p = b["seat"]
            want_dealer = p if cfg.starter == "loser" and active[p] else self._step(p, 1)
            if self._dealer != want_dealer:
                raise ValueError(f"dealer: after {self.seat_label(p)} busted, {self.seat_label(want_dealer)} "
                                 f"deals (N6.6)")
