"""What a seat of Crypto Trick knows: its view (C11), the history recounted, and the dealing
of the cards it has not seen (``sample_world`` and the ``?`` of position text).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

from ...core import plural
from .cards import HAND_SIZE, LETTERS, NAMES, TRICKS, _GIVE, Give, Pass, Play, Reveal, Want, _names, _opt_name
from .spec import (DECLARE, FINISHED, FOLLOW, GIVE, OFFER, _CLASS_NAMES, _follow_mask, _record_dict, _trick_winner,
                   round_score, trump_set)

if TYPE_CHECKING:
    from .state import CryptoTrickState


def _segment(node: tuple | None) -> tuple[list[Any] | None, tuple | None]:
    """The actions of one trick, oldest first, read back from a history node to its reveal
    (C5.1 opens every trick); ``None`` if the history ends before."""
    out = []
    while node is not None:
        node, a = node
        out.append(a)
        if type(a) is Reveal:
            out.reverse()
            return out, node
    return None, None


def _trick_from(seg: list[Any], k: int, winner: int, st: "CryptoTrickState") -> tuple | None:
    """``(first, declarer, leader, cards)`` of trick ``k`` from its actions and its winner, or
    ``None`` if they do not make a trick of this game that fits the exchanges recorded."""
    n, cfg = st.players, st._cfg
    i, wants = 1, []
    while i < len(seg) and type(seg[i]) in (Want, Pass):
        wants.append(type(seg[i]) is Want)
        i += 1
    give = seg[i] if i < len(seg) and type(seg[i]) is Give else None
    plays = seg[i + (give is not None):]
    if len(plays) != n - 1 or any(type(a) is not Play for a in plays) or not wants or len(wants) > n - 1:
        return None
    cards = [seg[0].cid] + [a.cid for a in plays]
    if any(c not in cfg.deck_set for c in cards):
        return None
    pos = (_trick_winner(cfg, st._indicator, 0, cards, n)) % n
    leader = (winner - pos) % n
    record = next((g for g in st._gives if g[0] == k), None)
    if give is None:
        if any(wants) or len(wants) != n - 1 or record is not None:
            return None
        return leader, None, leader, cards
    j = len(wants) - 1 - wants[::-1].index(True) if any(wants) else -1
    if j < 0 or (cfg.first_mode and (j != len(wants) - 1 or wants.count(True) != 1)) or \
            (not cfg.first_mode and len(wants) != n - 1):
        return None
    first = (leader - j - 1) % n
    if record != (k, leader, first, give.cid):
        return None
    return first, leader, leader, cards


def _recount(st: "CryptoTrickState") -> tuple[dict[int, tuple], bool, list[int]]:
    """The public record of the round in play: ``{trick: (first, declarer, leader, cards)}``
    (cards in play order, the lead first; the offered card alone before the lead), from the
    state's fields and its history, back as far as the history goes and still fits the won
    piles; whether it reached the round's first trick; and how many cards of each won pile
    no recounted trick explains."""
    n, ph, t = st.players, st._ph, st._trick
    recs: dict[int, tuple] = {}
    node = st._history
    if ph in (DECLARE, GIVE, FOLLOW):
        cards = list(st._table) if ph == FOLLOW else [st._offered]
        recs[t] = (st._first, None if ph == DECLARE else st._declarer, st._leader, cards)
        _, node = _segment(node)
    done = TRICKS if ph == FINISHED else t - 1
    winner = st._results[-1][6] if ph == FINISHED and st._results else st._first
    left = [len(w) for w in st._won]
    k = done
    lt = st._last_trick
    while k >= 1:
        seg, node = _segment(node)
        if seg is None:
            if k == done and lt is not None:
                g = next((g for g in st._gives if g[0] == k), None)
                recs[k] = (lt[1] if g is None else g[2], None if g is None else g[1], lt[1], list(lt[2]))
                left[lt[3]] -= n
                k -= 1
            break
        rec = _trick_from(seg, k, winner, st)
        if rec is None or left[winner] < n or st._won[winner][left[winner] - n:left[winner]] != rec[3]:
            break
        left[winner] -= n
        recs[k] = rec
        winner = rec[0]
        k -= 1
    return recs, k == 0, left


# --------------------------------------------------------------------------- dealing unseen cards
_OUT, _VOID, _GIVEN = range(3)
#: Random deals tried before the deals are searched one by one (a rare, tightly constrained case).
_TRIES = 200


class _Deal:
    """Unseen cards to deal among places of given sizes, each card only to its ``allowed``
    places, with at most ``cap`` cards of some colours in a place (``caps``: ``(place,
    colour bits, cap)``). Used by :meth:`CryptoTrickState.sample_world` and for the ``?``
    parts of position text."""

    __slots__ = ("cards", "sizes", "allowed", "caps", "capof", "order", "simple")

    def __init__(self, cards: list[int], sizes: list[int], allowed: dict[int, list[int]],
                 caps: Sequence[tuple[int, int, int]] = ()) -> None:
        self.cards, self.sizes, self.allowed, self.caps = cards, sizes, allowed, list(caps)
        self.capof = {c: [[j for j, (pl, mask, _) in enumerate(self.caps) if pl == spot and mask & 1 << (c // 100)]
                          for spot in allowed[c]] for c in cards}
        self.order = sorted(cards, key=lambda c: (len(allowed[c]), c))
        roomy = {i for i, m in enumerate(sizes) if m}
        self.simple = not self.caps and all(roomy <= set(allowed[c]) for c in cards)

    def check(self, deal: list[list[int]], rng: Any) -> dict[int, int] | None:
        """Whether a deal fits what else is known (``None`` if not); here always."""
        return {}

    def sample(self, rng: Any) -> tuple[list[list[int]], dict[int, int]] | None:
        """A random deal that fits, with what :meth:`check` chose; ``None`` if none does."""
        for _ in range(_TRIES):
            deal = self._propose(rng)
            if deal is not None:
                chosen = self.check(deal, rng)
                if chosen is not None:
                    return deal, chosen
        return self._search(rng)

    def _propose(self, rng: Any) -> list[list[int]] | None:
        """Every card to a place it may go, chosen at random in proportion to the room left
        (a plain shuffle when nothing constrains the cards); ``None`` at a dead end."""
        sizes = self.sizes
        if self.simple:
            cards = list(self.cards)
            rng.shuffle(cards)
            deal, k = [], 0
            for m in sizes:
                deal.append(cards[k:k + m])
                k += m
            return deal
        room = list(sizes)
        left = [cap for _, _, cap in self.caps]
        deal: list[list[int]] = [[] for _ in sizes]
        allowed, capof = self.allowed, self.capof
        for c in self.order:
            spots, limits = allowed[c], capof[c]
            weights = [room[pl] if room[pl] and all(left[j] for j in limits[i]) else 0 for i, pl in enumerate(spots)]
            total = sum(weights)
            if not total:
                return None
            r = rng.randrange(total)
            i = 0
            while r >= weights[i]:
                r -= weights[i]
                i += 1
            pl = spots[i]
            room[pl] -= 1
            for j in limits[i]:
                left[j] -= 1
            deal[pl].append(c)
        return deal

    def _search(self, rng: Any) -> tuple[list[list[int]], dict[int, int]] | None:
        """The deals one by one (most constrained card first, places in random order) until one
        fits; ``None`` if none does."""
        sizes, order = self.sizes, self.order
        deal: list[list[int]] = [[] for _ in sizes]
        room = list(sizes)
        left = [cap for _, _, cap in self.caps]
        found: list[Any] = []

        def place(k: int) -> bool:
            if k == len(order):
                chosen = self.check(deal, rng)
                if chosen is not None:
                    found.append(([list(part) for part in deal], chosen))
                return chosen is not None
            c = order[k]
            spots = list(enumerate(self.allowed[c]))
            rng.shuffle(spots)
            for i, pl in spots:
                limits = self.capof[c][i]
                if not room[pl] or not all(left[j] for j in limits):
                    continue
                room[pl] -= 1
                for j in limits:
                    left[j] -= 1
                deal[pl].append(c)
                if place(k + 1):
                    return True
                deal[pl].pop()
                room[pl] += 1
                for j in limits:
                    left[j] += 1
            return False

        return found[0] if place(0) else None


class _Knowledge(_Deal):
    """What one seat knows of the cards it cannot see in the round in play.

    The unseen cards are the other hands, the hidden card, the cards left out of a
    hand-built round and, with ``won_pile_visibility="block_count_only"``, the cards of
    the other won piles that no trick the seat can recount put there (a hand-built
    position's): every card not in the seat's hand and not face up. Places are the other
    seats' hands (in seat order), then the hidden card, then the cards left out, then those
    won-pile cards, one place per pile and block colour (and one for cards without blocks).

    What the seat saw limits where a card can be:

    * a card it gave, received or saw given face up (C5.5, C11.3) that is still unseen is
      in its receiver's hand, or in the hand of anyone that player has since given a card
      to face down, and so on;
    * a player who did not follow the lead colour held none of it (C6.3; both trump
      colours with ``trump_follow_unified``, C6.4): while that player has received no card
      face down since, the hand holds none of it; after that, at most as many as the cards
      received (``caps``).

    A deal that keeps these is then checked against the whole round (``events``, newest
    first), taking every card back to where it was: a card given face down that the seat
    did not see must be one its giver could hold, and what the giver showed before must
    still hold. The check is needed only once a card changed hands unseen; it chooses
    that card for the world's record of the exchange. Everything here comes from what
    the seat saw, so the worlds a seat gets do not depend on the real hidden cards.
    """

    __slots__ = ("seat", "others", "hid", "piles", "events", "special", "unseen")

    def __init__(self, st: "CryptoTrickState", seat: int) -> None:
        n, cfg = st.players, st._cfg
        self.seat = seat
        self.others = others = [p for p in range(n) if p != seat]
        place = {p: i for i, p in enumerate(others)}
        self.hid = hid = len(others)
        out = hid + 1
        cards = [c for p in others for c in st._hands[p]] + [st._hidden_card, *st._out]
        sizes = [len(st._hands[p]) for p in others] + [1, len(st._out)]
        pub = cfg.public_give
        recs, _, left = _recount(st)
        first_known = min(recs) if recs else st._trick
        # Won piles the seat cannot see (block_count_only, C11.5): the cards of another pile that
        # no trick the seat can recount put there (the first left[p], from tricks before a
        # hand-built position) are unseen too. They are dealt again keeping what the view shows
        # of the pile, its size and the colours of its block cards in order: one place per
        # (pile, block colour) and one for its cards without blocks (key -1).
        self.piles: list[tuple[int, list[int], dict[int, int]]] = []  # (seat, block colours in order, key -> place)
        pile_spots: dict[int, list[int]] = {}  # card class (colour, or -1) -> pile places
        if not cfg.public_won:
            for p in others:
                prefix = st._won[p][:left[p]]
                if not prefix:
                    continue
                colours = [c // 100 for c in prefix if cfg.block[c]]
                counts = Counter(colours)
                counts[-1] = len(prefix) - len(colours)
                spots = {}
                for key, m in sorted(counts.items()):
                    if m:
                        spots[key] = len(sizes)
                        pile_spots.setdefault(key, []).append(len(sizes))
                        sizes.append(m)
                self.piles.append((p, colours, spots))
                cards += prefix
        cards.sort()
        unknown = set(cards)
        gives = st._gives
        # The round's public facts, oldest first (from the tricks recounted in full).
        events: list[tuple] = []
        for k in sorted(recs):
            f, _, leader, played = recs[k]
            events.append((_OUT, f, played[0]))
            for gi, g in enumerate(gives):
                if g[0] == k:
                    events.append((_GIVEN, g[1], g[2], g[3] if pub or seat in (g[1], g[2]) else None, gi))
            if leader is not None:
                mask = _follow_mask(cfg, st._indicator, played[0])
                for i in range(1, len(played)):
                    p = (leader + i) % n
                    events.append((_OUT, p, played[i]))
                    if not 1 << (played[i] // 100) & mask:
                        events.append((_VOID, p, mask))
        # Cards seen changing hands: who may hold each now.
        tracked: dict[int, set[int]] = {}
        played_since: set[int] = set()  # seen given before the tricks recounted: maybe played since
        for gt, a, r, c in gives:
            seen = pub or seat in (a, r)
            for chain in tracked.values():
                if not seen and a in chain:
                    chain.add(r)
            if seen and c in unknown:
                tracked[c] = {r}
                if gt < first_known:
                    played_since.add(c)
                else:
                    played_since.discard(c)
        # Voids, and how many cards of a colour a hand may hold after cards came in face down.
        strict = [0] * n
        caps: dict[tuple[int, int], int] = {}
        for p in others:
            mine = [(i, e) for i, e in enumerate(events) if (e[2] if e[0] == _GIVEN else e[1]) == p
                    or e[0] == _GIVEN and e[1] == p]
            unseen_in = [i for i, e in mine if e[0] == _GIVEN and e[2] == p and e[3] is None]
            last_in = unseen_in[-1] if unseen_in else -1
            for i, e in mine:
                if e[0] != _VOID:
                    continue
                mask = e[2]
                if i > last_in:
                    strict[p] |= mask
                    continue
                came = sum(1 for j in unseen_in if j > i)
                played_out = sum(1 for j, x in mine if j > i and x[0] == _OUT and 1 << (x[2] // 100) & mask)
                seen_in = sum(1 for j, x in mine if j > i and x[0] == _GIVEN and x[2] == p and x[3] is not None
                              and 1 << (x[3] // 100) & mask)
                cap = max(0, came - max(0, played_out - seen_in))
                key = (place[p], mask)
                if cap < sizes[place[p]] and cap < caps.get(key, HAND_SIZE + 1):
                    caps[key] = cap
        allowed: dict[int, list[int]] = {}
        every = list(range(len(sizes)))
        for c in cards:
            bit = 1 << (c // 100)
            in_piles = pile_spots.get(c // 100 if cfg.block[c] else -1, [])
            if c in tracked:
                spots = [place[p] for p in sorted(tracked[c]) if p != seat]
                if c in played_since:
                    spots += in_piles
            else:
                spots = [place[p] for p in others if not strict[p] & bit] + [hid] + ([out] if st._out else [])
                spots += in_piles
            allowed[c] = spots if spots else every
        super().__init__(cards, sizes, allowed, [(pl, mask, cap) for (pl, mask), cap in sorted(caps.items())])
        unseen = any(e[0] == _GIVEN and e[3] is None for e in events)
        self.events = events[::-1] if unseen else None
        self.special = {e[3] for e in events if e[0] == _GIVEN and e[3] is not None}
        # Exchanges before what the seat can recount (a hand-built position): any card fits.
        self.unseen = [gi for gi, g in enumerate(gives) if g[0] < first_known and not (pub or seat in g[1:3])]

    def world(self, rng: Any) -> tuple[list[list[int]], dict[int, int]]:
        """A deal of the unseen cards to the places, and the cards of the exchanges the seat did not see."""
        found = self.sample(rng)
        if found is None:  # the real deal always fits
            raise AssertionError("no world fits what this seat saw")
        deal, chosen = found
        for gi in self.unseen:
            # Any card a player may hold or have played since (a won pile's unseen card).
            pool = sorted(c for i, part in enumerate(deal) if i not in (self.hid, self.hid + 1)
                          for c in part) or self.cards
            chosen[gi] = pool[rng.randrange(len(pool))]
        return deal, chosen

    def check(self, deal: list[list[int]], rng: Any) -> dict[int, int] | None:
        """Take the deal back through the round (newest fact first): ``None`` if some fact
        cannot have happened, else a card for each exchange the seat did not see."""
        events = self.events
        if events is None:
            return {}
        seat, special = self.seat, self.special
        hands = {p: set(deal[i]) for i, p in enumerate(self.others)}
        chosen: dict[int, int] = {}
        budget = [64]

        def back(start: int, hands: dict[int, set[int]]) -> bool:
            for i in range(start, len(events)):
                e = events[i]
                if e[0] == _OUT:
                    if e[1] != seat:
                        hands[e[1]].add(e[2])
                elif e[0] == _VOID:
                    if e[1] != seat and any(1 << (c // 100) & e[2] for c in hands[e[1]]):
                        return False
                elif e[3] is not None:
                    _, a, r, c, _ = e
                    if r != seat:
                        if c not in hands[r]:
                            return False
                        hands[r].discard(c)
                    if a != seat:
                        hands[a].add(c)
                else:
                    _, a, r, _, gi = e
                    groups: dict[int, list[int]] = {}
                    for c in sorted(hands[r]):
                        groups.setdefault(c if c in special else -1 - c // 100, []).append(c)
                    keys = sorted(groups)
                    rng.shuffle(keys)
                    for key in keys:
                        budget[0] -= 1
                        if budget[0] < 0:
                            return False
                        g = groups[key][rng.randrange(len(groups[key]))]
                        trial = {p: set(h) for p, h in hands.items()}
                        trial[r].discard(g)
                        trial[a].add(g)
                        if back(i + 1, trial):
                            chosen[gi] = g
                            return True
                    return False
            return True

        return chosen if back(0, hands) else None


class SeatKnowledge:
    """What a seat sees and knows (C11): its view, and the worlds it cannot tell apart."""

    __slots__ = ()

    # ------------------------------------------------------------- views
    def _gives_for(self, seat: int | None) -> list[dict[str, Any]]:
        pub = self._cfg.public_give
        return [{"trick": t, "from": a, "to": b,
                 "card": NAMES[c] if (pub or seat is None or seat in (a, b)) else None}
                for t, a, b, c in self._gives]

    def _declarations(self) -> list[dict[str, Any]]:
        """This trick's declarations so far, in order (C5.2)."""
        n, f = self.players, self._first
        if self._ph == OFFER or self._ph == FINISHED:
            return []
        if self._ph == DECLARE:
            made = (self._cur - f - 1) % n
        elif self._cfg.first_mode and self._declarer is not None:
            made = (self._declarer - f) % n
        else:
            made = n - 1
        seats = [(f + i) % n for i in range(1, made + 1)]
        return [{"seat": s, "want": bool(self._wants >> s & 1)} for s in seats]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (C11); ``None`` is the teacher view with every hand and the hidden card."""
        self.check_seat(seat)
        cfg = self._cfg
        n = self.players
        out = self.outcome()
        shows_pile = [cfg.public_won or seat is None or s == seat for s in range(n)]
        scored = [round_score(w, cfg.block, cfg.negative) for w in self._won]
        results = []
        for raw in self._results:
            r = _record_dict(raw, cfg)
            r["won"] = [w if shows_pile[s] else None for s, w in enumerate(r["won"])]
            results.append(r)
        tc = self._indicator // 100
        follow = self._ph == FOLLOW
        v = {
            "game": "crypto_trick",
            "players": n,
            "names": [self.seat_label(s) for s in range(n)],
            "seat": seat,
            "phase": self.phase,
            "current": self.current_player,
            "round": self._round,
            "rounds": cfg.rounds,
            "trick": self._trick,
            "tricks": TRICKS,
            "colors": [LETTERS[c] for c in cfg.colours],
            "labels": dict(cfg.labels),
            "cards": _names(cfg.deck),
            "block_cards": [NAMES[c] for c in cfg.deck if cfg.block[c]],
            "rules": {"declaration_mode": self.options["declaration_mode"],
                      "trump_follow_unified": cfg.unified, "trump_ranking": self.options["trump_ranking"],
                      "overload_score": self.options["overload_score"],
                      "exchange_visibility": self.options["exchange_visibility"],
                      "won_pile_visibility": self.options["won_pile_visibility"]},
            "indicator": NAMES[self._indicator],
            "trumps": [LETTERS[c] for c in sorted(trump_set(tc))],
            "first": self._first,
            "offered": _opt_name(self._offered),
            "declarations": self._declarations(),
            "declarer": self._declarer if self._ph in (GIVE, FOLLOW) else None,
            "leader": self._leader if follow else None,
            "lead_color": LETTERS[self._table[0] // 100] if follow else None,
            "table": ([{"seat": (self._leader + i) % n, "card": NAMES[c], "position": i + 1,
                        "class": _CLASS_NAMES[self._str[c] // 1000]}
                       for i, c in enumerate(self._table)] if follow else []),
            "winning": self._win if follow else None,
            "last_trick": None if self._last_trick is None else {
                "trick": self._last_trick[0], "leader": self._last_trick[1], "winner": self._last_trick[3],
                "cards": [{"seat": (self._last_trick[1] + i) % n, "card": NAMES[c]}
                          for i, c in enumerate(self._last_trick[2])]},
            "gives": self._gives_for(seat),
            "hands": [_names(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "won": [_names(w) if shows_pile[s] else None for s, w in enumerate(self._won)],
            "won_counts": [len(w) for w in self._won],
            "won_blocks": [sc[0] for sc in scored],
            "won_block_colors": [[LETTERS[c // 100] for c in w if cfg.block[c]] for w in self._won],
            "score_now": [sc[2] for sc in scored],
            "totals": list(self._totals),
            "round_scores": [r["scores"] for r in results],
            "results": results,
            "hidden_card": NAMES[self._hidden_card] if seat is None else None,
            "last_action": self._last_action(seat),
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None and self._out:
            v["out"] = _names(self._out)
        return v

    def _last_action(self, seat: int | None) -> dict[str, Any] | None:
        """The last action as ``seat`` saw it: a private give shows no card to the others (C11.3)."""
        last = self._lmove
        if last is None:
            return None
        text = str(last)
        if type(last) is Give and not self._cfg.public_give and seat is not None and seat != self._lseat:
            receiver = self._gives[-1][2] if self._gives else None
            if seat != receiver:
                text = "give"
        return {"seat": self._lseat, "action": text}

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        names = v["names"]
        trumps = "+".join(v["trumps"])
        lines = [f"Crypto Trick · {n} players · round {v['round']}/{v['rounds']} · "
                 f"trick {v['trick']}/{v['tricks']} · indicator {v['indicator']} (trumps {trumps}) · "
                 f"phase {v['phase']}"]
        if v["offered"] is not None:
            decl = " ".join(f"{names[d['seat']]}:{'want' if d['want'] else 'pass'}" for d in v["declarations"])
            lines.append(f"Offer: {v['offered']} by {names[v['first']]}" + (f" · {decl}" if decl else ""))
        if v["table"]:
            lines.append("Trick: " + " ".join(f"{names[t['seat']]}:{t['card']}" for t in v["table"])
                         + f" (lead {names[v['leader']]})")
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            hand = v["hands"][s]
            cards = " ".join(hand) if hand is not None else f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            won = v["won"][s]
            pile = " ".join(won) if won is not None else f"{plural(v['won_counts'][s], 'card')}"
            lines.append(f"{mark} {names[s]} [{cards or '—'}] · won {pile or '—'} · "
                         f"blocks {v['won_blocks'][s]} · now {v['score_now'][s]} · total {v['totals'][s]}")
        if v.get("hidden_card") is not None:
            lines.append(f"Hidden card {v['hidden_card']}")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    def ui_candidates(self, seat: int | None) -> list[str]:
        """What a table offers the seat to act for its own cards, so it can say why one is
        refused: ``reveal``, ``give`` or ``play`` each card in hand (a card that does not
        follow the lead colour is refused with C6.3), ``want`` and ``pass`` when declaring.
        Nothing for a seat that is not to act."""
        self.check_seat(seat)
        if seat is None or self._ph == FINISHED or seat != self._cur:
            return []
        if self._ph == DECLARE:
            return ["want", "pass"]
        verb = ("reveal", "", "give", "play")[self._ph]
        return [f"{verb} {NAMES[c]}" for c in self._hands[seat]]

    # ------------------------------------------------------------- worlds
    def _sample(self, seat: int, rng: Any) -> "CryptoTrickState":
        """A world ``seat`` cannot tell from this one (see :class:`_Knowledge` for what it keeps).

        The other hands, the hidden card and the cards left out are dealt again among the
        places each card can be; an exchange ``seat`` did not see gets a card that fits.
        The world has no history: its last move, which the views show, is kept (with the
        world's card when it was an exchange ``seat`` did not see), and so is what ``seat``
        worked out from the history, for sampling again from the world."""
        world = self.clone()
        world._history, world._moves, world._know = None, 0, None
        if self._ph == FINISHED:
            return world  # nothing is hidden any more
        know = self._knowledge(seat)
        # The world has no history to recount the round from, but the seat remembers it: the
        # world keeps the seat's knowledge (until a move is made in it), so the worlds sampled
        # from a world are those sampled from this position, whatever the hidden cards.
        world._know = (None, {seat: know})
        deal, chosen = know.world(rng)
        for i, p in enumerate(know.others):
            world._hands[p] = sorted(deal[i])
        world._hidden_card = deal[know.hid][0]
        world._out = tuple(sorted(deal[know.hid + 1]))
        for p, colours, spots in know.piles:
            # The pile's unseen cards again: its block colours in the order the view shows,
            # its other cards among them anywhere (the view does not say where).
            dealt = {key: rng.sample(deal[i], len(deal[i])) for key, i in spots.items()}
            size = len(colours) + len(dealt.get(-1, ()))
            plain = set(rng.sample(range(size), len(dealt.get(-1, ()))))
            blocks = iter(colours)
            prefix = [dealt[-1 if i in plain else next(blocks)].pop() for i in range(size)]
            world._won[p] = prefix + world._won[p][size:]
        if chosen:
            gives = list(world._gives)
            for gi, c in chosen.items():
                t, a, r, _ = gives[gi]
                gives[gi] = (t, a, r, c)
            world._gives = tuple(gives)
            if type(world._lmove) is Give and world._gives[-1][0] == self._trick:
                world._lmove = _GIVE[world._gives[-1][3]]
        return world

    def _knowledge(self, seat: int) -> "_Knowledge":
        """What ``seat`` knows, worked out once per position (a search samples many worlds)."""
        cache = self._know
        if cache is None or cache[0] is not self._history:
            cache = self._know = (self._history, {})
        know = cache[1].get(seat)
        if know is None:
            know = cache[1][seat] = _Knowledge(self, seat)
        return know
