"""Crypto Trick's position text, read and written, and the checks of a state read from
position text or a saved state.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from ...core import InvalidActionError, plural
from ...core.errors import show
from ...core.position import PositionError, Value, cards_text, deal_unknown, seat_text
from ...core.state import seat_name
from .cards import (HAND_SIZE, LETTERS, NAMES, PASS, TRICKS, WANT, WHITE, _GIVE, _PLAY, _REVEAL, Play, _Bad, _bad,
                    _check_int, _check_seat, _fmt, _small, card_id, parse_action)
from .spec import (DECLARE, FINISHED, FOLLOW, GIVE, OFFER, PHASES, SPEC, _config, _deck_list, _follow_mask,
                   _follow_problem, _score, _trick_winner)
from .worlds import _Deal, _recount, _segment

if TYPE_CHECKING:
    from .spec import Config
    from .state import CryptoTrickState


# --------------------------------------------------------------------------- reading position text
class _PositionReader:
    """Reads the fields of a Crypto Trick position (see the rules reference, "Position text")
    into a blank state: every field typed at its column, the unknown parts (``?``) dealt from
    the cards placed nowhere, then the state checked as a whole."""

    def __init__(self, st: CryptoTrickState, parsed: Any) -> None:
        self.st, self.p = st, parsed
        self.n = st.players
        self.cfg = st._cfg = _config(self.n, st.options)
        self.at: dict[str, Value] = {}  # the field each problem of _check_loaded is blamed on
        self.placed: dict[int, Value] = {}

    # ------------------------------------------------------------- pieces
    def take(self, key: str, default: str | None = None) -> Value:
        v = self.p.take(key, default)
        self.at[key] = v
        return v

    def card(self, v: Value, place: bool = True) -> int:
        c = card_id(v.text) if v.text else None
        if c is None or c not in self.cfg.deck_set:
            what = "not a card" if c is None else "not in this game's deck"
            raise v.error(f"{show(v.text)} is {what} (the cards are {_deck_words(self.cfg)})")
        if place:
            if c in self.placed:
                raise v.error(f"{NAMES[c]} is placed twice (also at column {self.placed[c].column}): every card "
                              f"is in one place (rule C2.2)")
            self.placed[c] = v
        return c

    def cards(self, v: Value, place: bool = True) -> list[int]:
        return [] if v.text == "-" else [self.card(part, place) for part in v.split(",")]

    def seat(self, v: Value, none: bool = False) -> int | None:
        return v.seat(self.n, none=none)

    # ------------------------------------------------------------- the fields
    def load(self) -> None:
        st, n, cfg = self.st, self.n, self.cfg
        fp = st.options["first_player"]
        if fp != "random" and fp >= n:
            raise PositionError(f"first_player={fp} is not a seat of a {n}-player game (rule C2.5)",
                                column=self.p.columns.get("first_player"), field="first_player")
        rnd = self.take("round", "1").int(1, cfg.rounds)
        hands_v = self.take("hands")
        hand_parts = hands_v.split("/", n)
        phase_v = self.take("phase", "")
        first_v, turn_v, trick_v = self.take("first", ""), self.take("turn", ""), self.take("trick", "")
        ind_v, hid_v = self.take("indicator"), self.take("hidden", "?")
        offer_v, decl_v, table_v = self.take("offer", "-"), self.take("declared", "-"), self.take("table", "-")
        won_v, last_v, gives_v = self.take("won", "-"), self.take("last", "-"), self.take("gives", "-")
        move_v, out_v = self.take("move", "-"), self.take("out", "-")
        totals_v, past_v = self.take("totals", ""), self.take("past", "-")

        # Known cards, each in one place.
        hands: list[list[int] | None] = []
        counts: list[int | None] = []
        for part in hand_parts:
            if part.unknown:
                hands.append(None)
                counts.append(part.unknown_count())
            else:
                hands.append(self.cards(part))
                counts.append(None)
        indicator = None if ind_v.unknown else self.card(ind_v)
        hidden = None if hid_v.unknown else self.card(hid_v)
        offered = None if offer_v.text == "-" else self.card(offer_v)
        table = self.cards(table_v)
        won = [[] for _ in range(n)] if won_v.text == "-" else [self.cards(w) for w in won_v.split("/", n)]
        out = None if out_v.unknown else self.cards(out_v)
        out_count = out_v.unknown_count() if out_v.unknown else None
        last = None
        if last_v.text != "-":
            lead_v, lcards_v = last_v.split(":", 2)
            last = (self.seat(lead_v), [self.card(c, False) for c in lcards_v.split(",", n)])
        declared = []
        if decl_v.text != "-":
            for i, ch in enumerate(decl_v.text):
                if ch not in "yn":
                    raise decl_v.error(f"{ch!r} is not a declaration: y (want) or n (pass), in turn from the first "
                                       f"player's left (rule C5.2)", i)
                declared.append(ch == "y")
        gives = []
        if gives_v.text != "-":
            for g in gives_v.split(","):
                t_v, who_v, c_v = g.split(":", 3)
                giver_v, receiver_v = who_v.split(">", 2)
                gives.append((t_v.int(1, TRICKS), self.seat(giver_v), self.seat(receiver_v), self.card(c_v, False),
                              c_v))
        move = None
        if move_v.text != "-":
            seat_v, _, rest = move_v.text.partition(":")
            mover = self.seat(Value(seat_v, move_v.column, move_v.key))
            if not rest:
                raise move_v.error("a move is the seat and the action, such as A:play:R5")
            try:
                move = (mover, parse_action(rest.replace(":", " ")))
            except InvalidActionError as e:
                raise move_v.error(f"not a move: {e}", len(seat_v) + 1) from None
        totals = [0] * n if not totals_v.text else totals_v.ints(-10**6, 10**6)
        if len(totals) != n:
            raise totals_v.error(f"expected {n} totals, one per seat")
        past = self.past(past_v)

        # The phase and who acts in it.
        if len(declared) > n - 1:
            raise decl_v.error(f"at most {n - 1} declarations: everyone but the first player declares once (rule C5.2)")
        complete = len(declared) == n - 1 or (cfg.first_mode and declared and declared[-1])
        if phase_v.text:
            phase = phase_v.choice(PHASES)
        elif table:
            phase = "follow"
        elif offered is not None:
            phase = "give" if complete and any(declared) else "declare"
        elif all(h == [] for h in hands):
            phase = "finished"
        else:
            phase = "offer"
        ph = PHASES.index(phase)
        if (offered is not None) != (ph in (DECLARE, GIVE)):
            v = offer_v if offered is not None else phase_v
            raise v.error("an offered card (offer=) waits on the table exactly while the others declare and the "
                          "declarer gives (rules C5.1, C5.6)")
        if bool(table) != (ph == FOLLOW):
            raise (table_v if table else phase_v).error("the table (table=, the lead first) holds cards exactly "
                                                        "while a trick is played (rule C6.2)")
        if ph in (OFFER, FINISHED) and declared:
            raise decl_v.error("nobody declares before an offer (rule C5.2)")
        if ph == DECLARE and complete:
            raise decl_v.error("everyone has declared: the next step is the give or the lead (rules C5.3, C5.4)")
        if ph in (GIVE, FOLLOW) and not complete:
            raise decl_v.error(f"phase {phase!r} comes after every declaration ({n - 1}, rule C5.2)")
        if cfg.first_mode and True in declared and declared.index(True) < len(declared) - 1:
            # the first want takes the card: nobody declares after it (another want, or a pass)
            raise decl_v.error("with declaration_mode single_pass_first the first want takes the card: nobody "
                               "declares after it (rule C5.4)")
        if ph == GIVE and not any(declared):
            raise decl_v.error("somebody must want the card for a give (rule C5.5)")
        if first_v.text:
            first = self.seat(first_v)
        elif ph == OFFER and turn_v.text:
            first = self.seat(turn_v, none=True)
        else:
            first = 0
        wanted = [(first + 1 + i) % n for i, w in enumerate(declared) if w]
        declarer = wanted[-1] if wanted and ph != DECLARE else None
        if ph == DECLARE and wanted and not cfg.first_mode:
            declarer = wanted[-1]
        leader = (first if declarer is None else declarer) if ph == FOLLOW else None
        if ph == OFFER:
            cur = first
        elif ph == DECLARE:
            cur = (first + 1 + len(declared)) % n
        elif ph == GIVE:
            cur = declarer
        elif ph == FOLLOW:
            if len(table) >= n:
                raise table_v.error(f"a trick in play holds 1 to {n - 1} cards (rule C6.2)")
            cur = (leader + len(table)) % n
        else:
            if last is None:
                raise (last_v if last_v.text != "-" else phase_v).error(
                    "a finished game shows its last trick (last=)")
            cur = (last[0] - 1) % n
        if turn_v.text:
            turn = self.seat(turn_v, none=True)
            if turn != (None if ph == FINISHED else cur):
                raise turn_v.error(f"it is {seat_text(None if ph == FINISHED else cur)}'s turn in this position "
                                   f"(rules C5, C6.2)")

        # Hand sizes: h at the start of the trick, one fewer once a card is down (C5.7).
        if ph == FINISHED:
            down, h = set(range(n)), 1
        else:
            down = {first} if ph in (DECLARE, GIVE) else {(leader + i) % n for i in range(len(table))} \
                if ph == FOLLOW else set()
            if trick_v.text:
                h = TRICKS + 1 - trick_v.int(1, TRICKS)
            else:
                seen = {len(x) + (s in down) for s, x in enumerate(hands) if x is not None}
                seen |= {c + (s in down) for s, c in enumerate(counts) if c is not None}
                h = seen.pop() if len(seen) == 1 else HAND_SIZE if not seen else None
                if h is None or not 1 <= h <= HAND_SIZE:
                    raise hands_v.error("the hands do not fit one trick: say which with trick= (rule C5.7)")
        trick = TRICKS if ph == FINISHED else TRICKS + 1 - h
        if ph == FINISHED and trick_v.text:
            trick_v.int(TRICKS, TRICKS)
        for s, part in enumerate(hand_parts):
            need = h - (s in down)
            have = len(hands[s]) if hands[s] is not None else counts[s]
            if have is None:
                counts[s] = need
            elif have != need:
                raise part.error(f"{seat_text(s)} holds {plural(need, 'card')} in trick {trick}, phase {phase!r}, "
                                 f"not {have} (rule C5.7)")

        # The unknown parts, dealt from the cards placed nowhere.
        pool = [c for c in cfg.deck if c not in self.placed]
        slots = [(s, counts[s]) for s in range(n) if hands[s] is None]
        slots += [("indicator", 1)] * (indicator is None) + [("hidden", 1)] * (hidden is None)
        if out is None:
            slots.append(("out", out_count))
        fixed = sum(c for _, c in slots if c is not None)
        if fixed > len(pool) or (out is not None or out_count is not None) and fixed != len(pool):
            if not slots:
                raise hands_v.error(f"{_fmt(pool)} {'is' if len(pool) == 1 else 'are'} placed nowhere: every card of "
                                    f"the deck is in one place (out=? leaves the rest out of the round, rule C2.2)")
            raise hands_v.error(f"the unknown parts (?) hold {fixed} cards but {len(pool)} are placed nowhere: every "
                                f"card of the deck is in one place (out=? leaves the rest out of the round, rule C2.2)")
        dealt = self.deal(slots, pool, hands, gives, table, last, leader, indicator, declarer, ph, first)
        for s in range(n):
            if hands[s] is None:
                hands[s] = dealt[s]
        indicator = dealt["indicator"] if indicator is None else indicator
        hidden = dealt["hidden"][0] if hidden is None else hidden
        out = dealt["out"] if out is None else out
        if isinstance(indicator, list):
            indicator = indicator[0]

        # The state.
        st._hands = [sorted(x) for x in hands]
        st._won = won
        st._table = table
        st._out = tuple(sorted(out))
        st._indicator, st._hidden_card = indicator, hidden
        st._ph, st._cur, st._first = ph, cur, first
        st._leader, st._declarer, st._offered = leader, declarer, offered
        st._wants = sum(1 << s for s in wanted)
        st._round, st._trick = rnd, trick
        st._totals = tuple(totals)
        st._gives = tuple(g[:4] for g in gives)
        done = TRICKS if ph == FINISHED else trick - 1
        if last is not None:
            if done < 1:
                raise last_v.error("the last trick belongs to this round: there is none in trick 1 (rule C4.5)")
            st._last_trick = (done, last[0], last[1], _trick_winner(cfg, indicator, last[0], last[1], n))
        else:
            st._last_trick = None
        st._results = self.results(past, rnd, ph, totals, past_v)
        st._lseat, st._lmove = move if move is not None else (None, None)
        st._know = None
        self.check()

    def past(self, v: Value) -> list[tuple]:
        """``past=``: the rounds scored before, oldest first: indicator, hidden card, the winner of
        their last trick, the won piles."""
        if v.text == "-":
            return []
        rounds = []
        for part in v.split(";"):
            ind_v, hid_v, w_v, piles_v = part.split(":", 4)
            ind, hid = self.card(ind_v, False), self.card(hid_v, False)
            piles = [[self.card(c, False) for c in pile.split(",")] if pile.text != "-" else []
                     for pile in piles_v.split("/", self.n)]
            cards = [ind, hid] + [c for pile in piles for c in pile]
            if len(set(cards)) != len(cards):
                raise part.error("a card appears twice in this round (rule C2.2)")
            rounds.append((ind, hid, self.seat(w_v), piles))
        return rounds

    def results(self, past: list[tuple], rnd: int, ph: int, totals: list[int], v: Value) -> tuple:
        """The records of the rounds in ``past``: their scores (C9.2) and the totals after each
        (counted back from ``totals``)."""
        cfg = self.cfg
        end = rnd if ph == FINISHED else rnd - 1
        if len(past) > end:
            raise v.error(f"{len(past)} rounds scored before round {rnd}")
        out = []
        after = tuple(totals)
        for i in range(len(past) - 1, -1, -1):
            ind, hid, w, piles = past[i]
            scored = tuple(_score(p, cfg.bbit, cfg.negative) for p in piles)
            out.append((end - (len(past) - 1 - i), ind, hid, tuple(map(tuple, piles)), scored, after, w))
            after = tuple(t - s[2] for t, s in zip(after, scored))
        return tuple(reversed(out))

    def deal(self, slots: list[tuple[Any, int | None]], pool: list[int], hands: list, gives: list, table: list[int],
             last: tuple | None, leader: int | None, indicator: int | None, declarer: int | None, ph: int,
             first: int) -> dict[Any, list[int]]:
        """The unknown parts from ``pool``. A card given to a seat whose hand is unknown goes to
        that hand (to the last receiver of that card), and a seat that did not follow a colour
        on the table or in the last trick gets none of it (C6.3); else the deal is at random."""
        st, n, cfg = self.st, self.n, self.cfg
        pinned: dict[int, int] = {}
        for t, a, r, c, c_v in gives:
            if c in self.placed:
                pinned.pop(c, None)
                continue
            if hands[r] is not None:
                raise c_v.error(f"{NAMES[c]}, given to {seat_text(r)} in trick {t}, is placed nowhere: put it in "
                                f"that hand or where it went (rule C5.5)")
            pinned[c] = r
        voids = [0] * n
        if indicator is not None:
            if table:
                voids = _void_masks(cfg, indicator, leader, table, n, voids, set())
            if last is not None:
                voids = _void_masks(cfg, indicator, last[0], last[1], n, voids,
                                    {first} if ph == FOLLOW and declarer is not None else set())
        if not pinned and not any(voids[s] for s, _ in slots if isinstance(s, int)):
            return {name: cards for name, cards in deal_unknown(st, slots, pool, self.at["hands"])}
        # Constrained: every part a place; the part without a count (out=?) takes the rest.
        sizes = [len(pool) - sum(c for _, c in slots if c is not None) if c is None else c for _, c in slots]
        index = {name: i for i, (name, _) in enumerate(slots)}
        allowed = {}
        for c in pool:
            if c in pinned:
                allowed[c] = [index[pinned[c]]]
            else:
                allowed[c] = [i for i, (name, _) in enumerate(slots)
                              if not (isinstance(name, int) and voids[name] & 1 << (c // 100))]
        st._shuffle(pool)  # the seed's decision for this deal, as deal_unknown takes one
        found = _Deal(sorted(pool), sizes, allowed).sample(random.Random(f"{st.seed}/{st._rng_count}"))
        if found is None:
            raise self.at["hands"].error("the unknown cards cannot be dealt so that every exchange and every "
                                         "card not followed holds (rules C5.5, C6.3)")
        return {name: found[0][i] for i, (name, _) in enumerate(slots)}

    def check(self) -> None:
        """The position as a whole (``_check_loaded``), its problem blamed on a field's column."""
        st = self.st
        try:
            st._derive()
            st._check_loaded()
        except _Bad as e:
            key = _BLAME.get(e.key, e.key)
            v = self.at.get(key)
            raise PositionError(e.reason, column=None if v is None else v.column, field=key) from None


#: The field of position text each problem found by ``_check_loaded`` is blamed on.
_BLAME = {"ph": "phase", "cur": "turn", "leader": "declared", "declarer": "declared", "wants": "declared",
          "lseat": "move", "lmove": "move", "last_trick": "last", "results": "past", "offered": "offer"}


def _void_masks(cfg: Config, indicator: int, leader: int, cards: Sequence[int], n: int, voids: list[int],
                skip: set[int]) -> list[int]:
    """Add the colours each follower of a trick showed they lack (C6.3) to ``voids``."""
    mask = _follow_mask(cfg, indicator, cards[0])
    out = list(voids)
    for i in range(1, len(cards)):
        s = (leader + i) % n
        if s not in skip and not 1 << (cards[i] // 100) & mask:
            out[s] |= mask
    return out


def _deck_words(cfg: Config) -> str:
    """The deck in a few words: ``Y, B and R 1-6, W1 and W6``."""
    regular = [LETTERS[c] for c in cfg.colours]
    nums = sorted({c % 100 for c in cfg.deck if c // 100 != WHITE})
    span = f"{nums[0]}-{nums[-1]}" if nums == list(range(nums[0], nums[-1] + 1)) else ",".join(map(str, nums))
    whites = [NAMES[c] for c in cfg.deck if c // 100 == WHITE]
    return f"{', '.join(regular[:-1])} and {regular[-1]} {span}, {' and '.join(whites)}"


class PositionText:
    """Position text written and read, and the checks of a state read or loaded."""

    __slots__ = ()

    # ------------------------------------------------------------- position text
    def _position_fields(self) -> list[tuple[str, str]]:
        """The fields of :meth:`to_position` (the grammar is in the rules reference, "Position text")."""
        name = NAMES.__getitem__
        out = [("round", str(self._round)), ("trick", str(self._trick)), ("phase", self.phase),
               ("turn", seat_text(self.current_player)), ("first", seat_text(self._first)),
               ("indicator", NAMES[self._indicator]), ("hidden", NAMES[self._hidden_card]),
               ("hands", "/".join(cards_text(h, name) for h in self._hands))]
        if self._offered is not None:
            out.append(("offer", NAMES[self._offered]))
        declared = self._declarations()
        if declared:
            out.append(("declared", "".join("y" if d["want"] else "n" for d in declared)))
        if self._table:
            out.append(("table", cards_text(self._table, name)))
        if any(self._won):
            out.append(("won", "/".join(cards_text(w, name) for w in self._won)))
        if self._last_trick is not None:
            out.append(("last", f"{seat_text(self._last_trick[1])}:{cards_text(self._last_trick[2], name)}"))
        if self._gives:
            out.append(("gives", ",".join(f"{t}:{seat_text(a)}>{seat_text(r)}:{NAMES[c]}"
                                          for t, a, r, c in self._gives)))
        if self._lmove is not None:
            out.append(("move", f"{seat_text(self._lseat)}:{str(self._lmove).replace(' ', ':')}"))
        if self._out:
            out.append(("out", cards_text(self._out, name)))
        if any(self._totals) or self._results:
            out.append(("totals", ",".join(map(str, self._totals))))
        if self._results:
            out.append(("past", ";".join(f"{NAMES[r[1]]}:{NAMES[r[2]]}:{seat_text(r[6])}:"
                                         + "/".join(cards_text(w, name) for w in r[3]) for r in self._results)))
        return out

    def _load_position(self, parsed: Any) -> None:
        _PositionReader(self, parsed).load()

    # ------------------------------------------------------------- loading
    def _derive(self) -> None:
        self._cfg = _config(self.players, self.options)
        self.is_terminal = self._ph == FINISHED
        self._know = None
        # The trick's strength table comes once the fields are checked (_check_loaded).
        self._str, self._fol, self._best, self._win = None, (0, 0), -1, None

    def _derive_trick(self) -> None:
        """The strength table, must-follow ranges and the standing winner of the trick in play."""
        if self._ph == FOLLOW and self._table:
            t = self._indicator // 100
            lc = self._table[0] // 100
            s = self._str = self._cfg.strength[t][lc]
            self._fol = self._cfg.follow[t][lc]
            best, win = -1, self._leader
            for i, c in enumerate(self._table):
                if s[c] >= best:
                    best, win = s[c], (self._leader + i) % self.players
            self._best, self._win = best, win
        else:
            self._str, self._fol, self._best, self._win = None, (0, 0), -1, None

    def _size_problem(self) -> str | None:
        """Why the hand sizes do not fit the phase and trick (C5.7), or ``None``. Whoever has a
        card down this trick (offered, led or followed) holds h - 1 cards, the others h."""
        n = self.players
        sizes = [len(h) for h in self._hands]
        if self._ph == FINISHED:
            expect = [0] * n
        else:
            h = TRICKS + 1 - self._trick
            if self._ph in (DECLARE, GIVE):
                acted = {self._first}
            elif self._ph == FOLLOW:
                acted = {(self._leader + i) % n for i in range(len(self._table))}
            else:
                acted = set()
            expect = [h - 1 if s in acted else h for s in range(n)]
        if sizes != expect:
            return (f"hands of {sizes} cards do not fit trick {self._trick} in phase {self.phase!r} (expected "
                    f"{expect}): everyone holds the same number at the start of a trick and one fewer once their "
                    f"card is down (rule C5.7)")
        return None

    def _check_loaded(self) -> None:
        """Refuse a state that no game, and no hand-built position, can be in.

        Every field's type and range first; then how they fit together: who acts in
        each phase (C5.1 to C6.2), the declarer (C5.4), hand sizes (C5.7), every card
        of the deck exactly once, the follow rule on what was played (C6.3), the last
        trick and its winner (C7, C8), the exchanges (C5.5), the rounds scored so far
        (C9) and the last move. Raises :class:`ValueError` (a ``_Bad`` naming the field).
        """
        n = self.players
        cfg = self._cfg
        fp = self.options["first_player"]
        if fp != "random" and fp >= n:
            _bad(f"first_player={fp} is not a seat of a {n}-player game (rule C2.5)", "first_player")
        self._check_types(n, cfg)
        self._check_phase(n, cfg)
        problem = self._size_problem()
        if problem:
            _bad(problem, "hands")
        have, want = self.all_cards(), self._deck_counter()
        if have != want:
            parts = [f"{label} {', '.join(sorted(diff.elements(), key=card_id))}"
                     for label, diff in (("missing", want - have), ("extra", have - want)) if diff]
            _bad(f"the cards are not this game's {len(cfg.deck)}-card deck ({'; '.join(parts)}): every card is "
                 f"in exactly one place (rule C2.2)", "hands")
        self._check_tricks(n, cfg)
        self._check_results(n, cfg)
        self._check_last_move(n)
        self._check_record(n, cfg)
        self._derive_trick()

    def _check_types(self, n: int, cfg: Config) -> None:
        for key, v in (("hands", self._hands), ("won", self._won)):
            if type(v) is not list or len(v) != n or any(type(x) is not list for x in v):
                _bad(f"expected {n} lists of cards, one per seat", key)
        if any(h != sorted(h) for h in self._hands):
            _bad("each hand is kept in card order", "hands")
        if type(self._table) is not list:
            _bad("expected a list of cards", "table")
        if type(self._out) is not tuple or list(self._out) != sorted(self._out):
            _bad("expected the cards left out of the round, in card order", "out")
        if not 0 <= self._ph < len(PHASES):
            _bad("unknown phase", "ph")
        _check_seat(self._cur, n, "cur")
        _check_seat(self._first, n, "first")
        for key in ("leader", "declarer", "lseat"):
            v = getattr(self, "_" + key)
            if v is not None:
                _check_seat(v, n, key)
        _check_int(self._round, 1, cfg.rounds, "round")
        _check_int(self._trick, 1, TRICKS, "trick")
        _check_int(self._wants, 0, (1 << n) - 1, "wants")
        if type(self._totals) is not tuple or len(self._totals) != n or not all(map(_small, self._totals)):
            _bad(f"expected {n} whole numbers", "totals")
        if type(self._gives) is not tuple or not all(
                type(g) is tuple and len(g) == 4 and all(type(x) is int for x in g) for g in self._gives):
            _bad("each exchange is [trick, giver, receiver, card]", "gives")
        lt = self._last_trick
        if lt is not None and not (type(lt) is tuple and len(lt) == 4 and type(lt[0]) is int
                                   and type(lt[2]) is list and len(lt[2]) == n):
            _bad(f"expected [trick, leader, {n} cards, winner]", "last_trick")
        if lt is not None:
            _check_seat(lt[1], n, "last_trick")
            _check_seat(lt[3], n, "last_trick")
        for r in self._results:
            if not (len(r[3]) == len(r[4]) == len(r[5]) == n):
                _bad(f"a round result holds one won pile, score and total per seat ({n})", "results")
            _check_seat(r[6], n, "results")
        if self._lmove is not None and not isinstance(self._lmove, self.action_types):
            _bad("not an action", "lmove")

    def _check_phase(self, n: int, cfg: Config) -> None:
        """Who acts, the offer, the declarations and the lead, for the phase (C5, C6.2)."""
        ph, first, cur, decl, wants = self._ph, self._first, self._cur, self._declarer, self._wants
        if ph != FOLLOW and self._table:
            _bad("cards lie on the table only while a trick is played (phase 'follow')", "table")
        if (self._offered is not None) != (ph in (DECLARE, GIVE)):
            _bad("the offered card waits on the table exactly while the others declare and the declarer "
                 "gives (rules C5.1, C5.6)", "offered")
        if wants >> first & 1:
            _bad("the first player never declares (rule C5.2)", "wants")
        if (ph in (OFFER, DECLARE, GIVE, FINISHED)) != (self._leader is None):
            _bad("a lead player exists only while a trick is played (rules C5.3, C5.6)", "leader")
        if ph in (OFFER, FINISHED):
            if wants or decl is not None:
                _bad("between tricks nobody has declared (rule C5.2)", "wants")
            if ph == OFFER and cur != first:
                _bad("the first player is to offer (rule C5.1)", "cur")
            return
        order = [(first + i) % n for i in range(1, n)]  # who declares, in turn (C5.2)
        wanted = [x for x in order if wants >> x & 1]
        if ph == DECLARE:
            if cur == first:
                _bad("the first player never declares (rule C5.2)", "cur")
            made = order[:order.index(cur)]
        elif cfg.first_mode and wanted:
            made = order[:order.index(wanted[0]) + 1]
        else:
            made = order
        if any(x not in made for x in wanted):
            _bad("only players who have declared can want the card (rule C5.2)", "wants")
        if cfg.first_mode and (len(wanted) > 1 or (ph == DECLARE and wanted)):
            _bad("with declaration_mode single_pass_first the first player to want the card takes it "
                 "and nobody declares after (rule C5.4)", "wants")
        if decl != (wanted[-1] if wanted else None):
            _bad("the declarer is the last player who wanted the card (rule C5.4)", "declarer")
        if ph == GIVE:
            if decl is None:
                _bad("the give phase needs a declarer, someone who wanted the card (rule C5.5)", "declarer")
            if cur != decl:
                _bad("the declarer gives (rule C5.5)", "cur")
        elif ph == FOLLOW:
            leader = first if decl is None else decl
            if self._leader != leader:
                _bad("the declarer leads the offered card, or the first player when nobody wanted it "
                     "(rules C5.3, C5.6)", "leader")
            if not 1 <= len(self._table) < n:
                _bad(f"a trick in play holds 1 to {n - 1} cards", "table")
            if cur != (leader + len(self._table)) % n:
                _bad("the next follower clockwise after the cards on the table is to play (rule C6.2)", "cur")

    def _check_tricks(self, n: int, cfg: Config) -> None:
        """The follow rule on the cards played (C6.3), the last trick (C7, C8) and the exchanges (C5.5)."""
        ph, hands, t = self._ph, self._hands, self._trick
        ind = self._indicator
        if ph == FOLLOW:
            _follow_problem(cfg, ind, self._leader, self._table, hands, n, set())
        gives = self._gives
        if any(a[0] >= b[0] for a, b in zip(gives, gives[1:])):
            _bad("at most one exchange per trick, in trick order", "gives")
        dead = {ind, self._hidden_card, *self._out}
        current = ph == FOLLOW and self._declarer is not None
        for gt, giver, receiver, c in gives:
            _check_seat(giver, n, "gives")
            _check_seat(receiver, n, "gives")
            if giver == receiver or not 1 <= gt <= t or c not in cfg.deck_set or c in dead:
                _bad(f"{[gt, giver, receiver, NAMES[c]]} is not an exchange of this round: the declarer gives "
                     f"the first player a card in play, in a trick played so far (rule C5.5)", "gives")
            if gt == t and ph != FINISHED and not (current and giver == self._declarer and receiver == self._first):
                _bad(f"in trick {t} only a declarer who has led gives, to the first player (rules C5.5, "
                     f"C5.6)", "gives")
        if current and gives and gives[-1][0] == t:
            c, f = gives[-1][3], self._first
            pos = (f - self._leader) % n
            if c not in hands[f] and not (pos < len(self._table) and self._table[pos] == c):
                _bad(f"{NAMES[c]}, given to {self.seat_label(f)} this trick, is neither in that hand nor "
                     f"played by it (rule C5.5)", "gives")
        lt = self._last_trick
        if lt is None:
            if ph == FINISHED:
                _bad("a finished game has a last trick (rule C8.3)", "last_trick")
            return
        done = TRICKS if ph == FINISHED else t - 1
        lt_no, leader, cards, w = lt
        if lt_no != done or done < 1:
            _bad(f"trick {lt_no} is not the trick before trick {t} of this round (rule C4.5)",
                 "last_trick")
        if _trick_winner(cfg, ind, leader, cards, n) != w:
            _bad(f"{_fmt(cards)} led by {self.seat_label(leader)} is won by "
                 f"{self.seat_label(_trick_winner(cfg, ind, leader, cards, n))}, not {self.seat_label(w)} (rule C7.2)",
                 "last_trick")
        if self._won[w][-n:] != cards:
            _bad("the winner took the trick's cards last (rule C8.1)", "last_trick")
        if ph != FINISHED and w != self._first:
            _bad("the winner of the last trick opens the next one (rule C8.2)", "first")
        g = next((g for g in gives if g[0] == done), None)
        if g is not None and g[1] != leader:
            _bad("the declarer of a trick leads it (rule C5.6)", "gives")
        if ph == FINISHED and self._first != (leader if g is None else g[2]):
            _bad("the first player of the last trick is its leader, or the player the declarer gave a card "
                 "(rules C5.3, C5.6)", "first")
        # Who did not follow then holds none of that colour now, unless a card came in since (C6.3).
        _follow_problem(cfg, ind, leader, cards, hands, n, {self._first} if current else set())

    def _check_results(self, n: int, cfg: Config) -> None:
        """The rounds scored so far (C9) and how the round in play follows them (C3.3)."""
        rs, ph = self._results, self._ph
        if ph == FINISHED and (not rs or self._round != cfg.rounds):
            _bad(f"a finished game has scored its last round ({cfg.rounds}) (rule C3.4)", "results")
        if rs:
            end = self._round if ph == FINISHED else self._round - 1
            if rs[-1][0] != end or rs[0][0] < 1 or any(r[0] != rs[0][0] + i for i, r in enumerate(rs)):
                _bad(f"the rounds scored must run up to round {end}", "results")
            if self._totals != rs[-1][5]:
                _bad("the totals are those after the last round scored (rule C9.4)", "totals")
        for i, (rnd, ind, hid, won, scored, totals, last_winner) in enumerate(rs):
            cards = [c for w in won for c in w] + [ind, hid]
            if not all(c in cfg.deck_set for c in cards) or len(set(cards)) != len(cards):
                _bad(f"round {rnd} holds cards that are not this game's, or a card twice", "results")
            if tuple(scored) != tuple(_score(w, cfg.bbit, cfg.negative) for w in won):
                _bad(f"round {rnd}'s scores are not those of its won piles (rule C9.2)", "results")
            if i and tuple(a + s[2] for a, s in zip(rs[i - 1][5], scored)) != tuple(totals):
                _bad(f"round {rnd}'s totals are not the totals before plus its scores (rule C9.4)",
                     "results")
        if ph == FINISHED:
            r = rs[-1]
            if (r[1], r[2], r[6]) != (self._indicator, self._hidden_card, self._last_trick[3]) or \
                    r[3] != tuple(map(tuple, self._won)):
                _bad("the last round scored is the round on the table (rule C9)", "results")
        elif rs and self._trick == 1 and self._first != rs[-1][6]:
            _bad("the winner of the last trick of the round before starts a round (rule C3.3)", "first")

    def _check_record(self, n: int, cfg: Config) -> None:
        """The deal's record and, for a game played from its first deal, the history of the
        round in play against the won piles (C8.1): every won card came from a trick played."""
        origin = self._origin
        if origin is not None and not (isinstance(origin, str) and origin.startswith(f"{SPEC.name}/") or
                                       isinstance(origin, dict) and origin.get("game") == SPEC.name):
            _bad(f"a starting position is {SPEC.name} position text or a saved state, not {show(origin)}",
                 "position")
        deck = self.deck_order
        if deck is not None:
            if origin is not None:
                _bad("a game starts from a deck or from a position, not both", "deck")
            try:
                _deck_list(list(deck), cfg)
            except (TypeError, ValueError) as e:
                _bad(str(e), "deck")
        if origin is not None or self._history is None:
            return  # a hand-built position: what came before it is not recorded
        recs, reached, left = _recount(self)
        ph = self._ph
        if ph in (DECLARE, GIVE, FOLLOW):
            seg, _ = _segment(self._history)
            said = [d["want"] for d in self._declarations()]
            expect = [_REVEAL[self._offered if ph != FOLLOW else self._table[0]]]
            expect += [WANT if w else PASS for w in said]
            if ph == FOLLOW and self._declarer is not None and self._gives:
                expect.append(_GIVE[self._gives[-1][3]])
            expect += [_PLAY[c] for c in self._table[1:]]
            if seg != expect:
                _bad("the history does not hold this trick's declarations and plays (rules C5.1, C5.2, C6.2)",
                     "history")
        if not reached or any(left):
            _bad("the history does not hold the tricks that filled the won piles of this round (rule C8.1)",
                 "history")
        if self._out:
            _bad("a dealt round leaves no card out (rule C4.2)", "out")
        done = TRICKS if ph == FINISHED else self._trick - 1
        if done and self._last_trick is None:
            _bad("a trick has been played this round, so there is a last trick (rule C8.1)", "last_trick")
        rs = self._results
        end = self._round if ph == FINISHED else self._round - 1
        if len(rs) != end or (not rs and any(self._totals)):
            _bad("a game played from its first deal has a result for every round before this one (rule C9.4)",
                 "results")
        fp = self.options["first_player"]
        if self._round == 1 and fp != "random" and 1 in recs and recs[1][0] != fp:
            _bad(f"round 1 starts with first_player {seat_name(fp)} (rule C2.5)", "first")

    def _check_last_move(self, n: int) -> None:
        """The last move (the views show it) is the one this position comes from."""
        a, seat = self._lmove, self._lseat
        if (a is None) != (seat is None):
            _bad("the last move and its seat go together", "lmove")
        if self._history is not None and self._history[1] != a:
            _bad("the last move is the last action of the history", "lmove")
        if a is None:
            return  # a hand-built position nobody has moved from yet
        ph, first, cur, decl, bit = self._ph, self._first, self._cur, self._declarer, self._wants
        lt = self._last_trick
        e_seat: int | None = None
        e_move: Any = None
        if ph == DECLARE:
            e_seat = (cur - 1) % n
            e_move = _REVEAL[self._offered] if e_seat == first else WANT if bit >> e_seat & 1 else PASS
        elif ph == GIVE:
            e_seat = decl if self._cfg.first_mode else (first - 1) % n
            e_move = WANT if bit >> e_seat & 1 else PASS
        elif ph == FOLLOW and len(self._table) > 1:
            e_seat, e_move = (cur - 1) % n, _PLAY[self._table[-1]]
        elif ph == FOLLOW and decl is None:
            e_seat, e_move = (first - 1) % n, PASS
        elif ph == FOLLOW:
            g = self._gives[-1] if self._gives else None
            if g is None or g[0] != self._trick:
                _bad("the declarer's give of this trick is not recorded (rule C5.5)", "lmove")
            e_seat, e_move = decl, _GIVE[g[3]]
        elif lt is not None:
            e_seat, e_move = (lt[1] - 1) % n, _PLAY[lt[2][-1]]
        elif self._trick == 1 and ph == OFFER:
            # A new round was dealt: the move was the last play of the round before (C8.3).
            last = {c for w in self._results[-1][3] for c in w} if self._results else set()
            if type(a) is not Play or a.cid not in last:
                _bad("a round starts after the last play of the round before", "lmove")
            return
        elif type(a) is not Play:  # a hand-built position a trick later: a play ended that trick
            _bad("a trick ends with a play (rule C6.2)", "lmove")
        if e_move is not None and (a != e_move or seat != e_seat):
            _bad(f"the move that leads here is {self.seat_label(e_seat)}'s {e_move}, not "
                 f"{self.seat_label(seat)}'s {a} (rules C5, C6)", "lmove")
