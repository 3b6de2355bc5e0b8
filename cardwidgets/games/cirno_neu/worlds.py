"""What a seat of cirno+neu knows: its view (N8), the public record of a round, and the
dealing of the cards it has not seen (``sample_world``).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right, insort
from collections import Counter
from typing import TYPE_CHECKING, Any

from ...core import Termination, number, plural
from ...core.errors import SamplingLimitError
from .cards import PLUS_MAX, TOKENS, VALUE, _tokens, card_id

if TYPE_CHECKING:
    from .cards import Play
    from .state import CirnoNeuState


class _Record:
    """What every seat saw of the current round: the position it started from (a deal,
    or the position the match was set up or loaded from) and, in order, each card
    played, each draw (how many, and from which draw pile) and each reshuffle (which
    cards, N7.1). Draws also keep their cards, but a seat only ever reads its own."""

    __slots__ = ("hands", "stack", "events", "epochs", "_seats")

    def __init__(self, st: CirnoNeuState) -> None:
        self.hands = [list(h) for h in st._hands]
        self.stack = Counter(st._stack)
        self.events: list[tuple] = []
        self.epochs = 0  # reshuffles so far: the draw pile's "epoch"
        self._seats: dict[int, _Seat] = {}

    @classmethod
    def rebuild(cls, st: CirnoNeuState) -> "_Record":
        """Replay the match from its start and note what was public. A match that cannot
        be replayed (a sampled world, an edited save) is known from this position on."""
        game = st._start()
        if game is not None:
            record = cls(game)
            node = st._history
            actions = []
            while node is not None:
                node, a = node
                actions.append(a)
            for a in reversed(actions):
                if game.is_terminal or game.refusal(a) is not None:
                    break
                record._step(game, a)
            else:
                if game._state_dict() == st._state_dict() and game._rng_count == st._rng_count:
                    return record
        return cls(st)

    def _step(self, st: CirnoNeuState, a: Play) -> None:
        p, c = st._actor, a.cid
        before = Counter(st._hands[p])
        before[c] -= 1
        top = st._draw[-2:]  # at most 2 cards are drawn in one action, from the end
        d0, rnd, rng0 = len(st._draw), st._round, st._rng_count
        st._apply(a, None)
        st._history = (st._history, a)
        st._moves += 1
        if st._round != rnd:  # a bust: a new round was dealt
            self.__init__(st)
            return
        self.events.append(("play", p, c))
        drawn = Counter(st._hands[p]) - before
        k = sum(drawn.values())
        if not k:
            return
        old = top[::-1][:min(k, d0)]
        if old:
            self.events.append(("draw", p, self.epochs, old))
        new = drawn - Counter(old)
        if st._rng_count != rng0:  # the stack was reshuffled into a new draw pile (N7.1)
            self.epochs += 1
            self.events.append(("epoch", Counter(st._draw) + new))
        if new:
            self.events.append(("draw", p, self.epochs, list(new.elements())))

    def dealt(self, seat: int, slots: dict[tuple[int, int], list[int]]) -> "_Record":
        """This record with the other players' cards as a world of ``seat`` dealt them:
        ``slots[p, e]`` are the cards p received from draw pile e in order (the first
        ones of pile 0 its hand at the deal)."""
        new = _Record.__new__(_Record)
        new.stack, new.epochs, new._seats = self.stack, self.epochs, {}
        taken = {key: iter(cards) for key, cards in slots.items()}
        new.hands = [h if s == seat or not h else [next(taken[s, 0]) for _ in h] for s, h in enumerate(self.hands)]
        new.events = [ev if ev[0] != "draw" or ev[1] == seat else
                      ("draw", ev[1], ev[2], [next(taken[ev[1], ev[2]]) for _ in ev[3]]) for ev in self.events]
        return new

    def seat(self, seat: int, st: CirnoNeuState) -> "_Seat":
        hit = self._seats.get(seat)
        if hit is None:
            hit = self._seats[seat] = _Seat(self, seat, st)
        return hit


class _Seat:
    """One seat's knowledge of the round, ready for sampling. Every card another player
    received this round is a *slot*: its owner, the draw pile it came from (pile 0 is the
    one dealt from) and when (its event's place in the record; -1 for a hand dealt); the
    draw pile's cards are slots of no one. A world puts a card in every slot: each pile's
    slots hold that pile's cards the seat has not seen, and every card a player played (or
    shows, N8.2) was received before and not played yet."""

    __slots__ = ("seat", "others", "content", "owner", "pile", "time", "mine", "steps", "needs", "safe",
                 "draw_size", "fits", "spent", "_base", "_chain")

    def __init__(self, record: _Record, seat: int, st: CirnoNeuState) -> None:
        self.seat = seat
        self.others = [s for s in range(st.players) if s != seat]
        universe = st._cfg.deck if st._built is None else st._built
        first = Counter({k: c for k, c in enumerate(universe) if c})
        first.subtract(record.hands[seat])
        first.subtract(record.stack)
        content = [first]
        owner: list[int | None] = []
        pile: list[int] = []
        time: list[int] = []

        def receive(p: int | None, e: int, t: int, k: int) -> None:
            owner.extend([p] * k)
            pile.extend([e] * k)
            time.extend([t] * k)

        for s in self.others:
            receive(s, 0, -1, len(record.hands[s]))
        steps = []  # (player, cards it may be, when): the other players' plays, in order
        for t, ev in enumerate(record.events):
            if ev[0] == "play":
                if ev[1] != seat:
                    steps.append((ev[1], (ev[2],), t))
            elif ev[0] == "draw":
                _, p, e, cards = ev
                if p == seat:
                    content[e].subtract(cards)
                else:
                    receive(p, e, t, len(cards))
            else:
                content.append(Counter(ev[1]))
        end = len(record.events)
        self.draw_size = len(st._draw)
        receive(None, len(content) - 1, end, self.draw_size)
        self.owner, self.pile, self.time = owner, pile, time
        self.content = [[c[k] for k in range(len(TOKENS))] for c in content]
        self.mine = {s: [i for i, o in enumerate(owner) if o == s] for s in self.others}  # in time order
        self.steps = steps
        # What the seat sees now and must hold in every world (N8.3): a hand shown by a
        # forced bust, and a safe card in the hand of an actor the engine did not bust.
        self.needs: list[tuple] = []
        b = st._bust
        if st._cp is None and b is not None and b["hand"] is not None and b["round"] == st._round \
                and b["seat"] != seat:
            shown = Counter(card_id(t) for t in b["hand"])
            if b["card"] is not None:
                shown[card_id(b["card"])] -= 1
            self.needs = [(b["seat"], (c,), end) for c in shown.elements()]
        p = st._actor
        self.safe = None
        if st._cfg.auto_bust and p != seat and st._hands[p] and \
                (st._cp is not None or st._termination is Termination.ABORTED):
            room = st._cfg.limit - st._sum
            self.safe = (p, tuple(k for k in range(len(TOKENS)) if k > PLUS_MAX or VALUE[k] <= room), end)
        by_pile = Counter(pile)
        self.fits = all(min(row) >= 0 and sum(row) == by_pile[e] for e, row in enumerate(self.content))
        self.spent = 0
        self._base: list[int] | SamplingLimitError | None = None
        self._chain: tuple | None = None

    def sample(self, st: CirnoNeuState,
               rng: random.Random) -> tuple[list[list[int]], list[int], dict[tuple[int, int], list[int]]]:
        """The hands (the seat's own as it is), the draw pile (top last) and the other
        players' cards from each pile, in the order received, of a world: the seat's one
        matching of the plays (:meth:`_match`, found once per position) dealt again by a
        chain of swaps (:meth:`_mix`), which cannot fail."""
        if self._base is None:
            if not self.fits:  # the real position always fits its own record
                raise RuntimeError("no world fits this position's record")
            try:
                self._base = self._match()
            except SamplingLimitError as e:
                self._base = e  # once per seat and position: the search would give up again
        if isinstance(self._base, SamplingLimitError):
            raise SamplingLimitError(*self._base.args)
        card = self._mix(self._base, rng)
        owner, pile = self.owner, self.pile
        hands = [list(h) for h in st._hands]
        slots: dict[tuple[int, int], list[int]] = {}
        held = {s: Counter() for s in self.others}
        for s in self.others:
            for i in self.mine[s]:
                slots.setdefault((s, pile[i]), []).append(card[i])
                held[s][card[i]] += 1
        for p, (c,), _ in self.steps:
            held[p][c] -= 1
        for s in self.others:
            hands[s] = sorted(held[s].elements())
        draw = [card[i] for i, o in enumerate(owner) if o is None]  # shuffled by _mix: no play pins it
        return hands, draw, slots

    # ------------------------------------------------------------------ the one matching
    def _match(self) -> list[int]:
        """A card for every slot that fits the record, found once per seat and position
        from what the seat knows alone (random choices from a generator of a fixed seed):
        the constraint search of :class:`_Search` first, and if it gives up, a matching
        repaired play by play (:meth:`_walk`); each may do ``SEARCH_LIMIT`` work, then
        :class:`SamplingLimitError`. The two fail on different rounds: of 140 positions of
        long rounds, the search alone gave up on 8, the two together on 4."""
        rng = random.Random(0)
        steps = self.steps + self.needs + ([self.safe] if self.safe else [])
        try:
            return self._search(steps, rng)
        except SamplingLimitError:
            first = self.spent
        try:
            return self._walk(steps, rng)
        finally:
            self.spent += first

    def _search(self, steps: list[tuple], rng: random.Random) -> list[int]:
        """The matching of :class:`_Search` (plays to piles), each play then given its
        player's next slot from that pile (the k-th play served from a pile came after the
        k-th card received from it), and the other slots their piles' other cards."""
        pile, time, mine = self.pile, self.time, self.mine
        recv = []
        for p, values, t in steps:
            row = [0] * len(self.content)
            for s in mine[p]:
                if time[s] >= t:
                    break
                row[pile[s]] += 1
            recv.append((p, values, tuple(row)))
        remain = [row[:] for row in self.content]
        search = _Search(recv, self.content)
        try:
            chosen = search.solve(remain, {s: [0] * len(remain) for s in self.others}, rng, SEARCH_LIMIT)
        finally:
            self.spent = search.spent
        if chosen is None:  # the real position always fits its own record
            raise RuntimeError("no world fits this position's record")
        card = [-1] * len(pile)
        nxt: dict[tuple[int, int], Any] = {}  # (player, pile) -> its slots from the pile, in order
        for s in self.others:
            for i in mine[s]:
                nxt.setdefault((s, pile[i]), []).append(i)
        nxt = {key: iter(slots) for key, slots in nxt.items()}
        for (p, _, _), (e, v) in zip(steps, chosen):
            card[next(nxt[p, e])] = v
        rest = [list(Counter({v: c for v, c in enumerate(row) if c}).elements()) for row in remain]
        for s, e in enumerate(pile):
            if card[s] < 0:
                card[s] = rest[e].pop()
        return card

    def _walk(self, steps: list[tuple], rng: random.Random) -> list[int]:
        """A matching of plays to slots repaired play by play.

        Each play, in the order played, takes a slot its player received before and no
        play took yet, with a card of the play's value its pile still has (the newest such
        slot). When there is none, an augmenting path, breadth first as in bipartite
        matching, moves earlier plays to other slots or piles to make room, each play at
        most once (work linear in plays times slots). When no path does, the play takes a
        slot at random all the same, and the plays it pushes out (the slot's, and one that
        held the pile's last such card) are placed again the same ways. A try that moves
        plays too often starts again, each allowed twice the work of the one before;
        :class:`SamplingLimitError` once ``SEARCH_LIMIT`` plays were moved or looked at
        over all tries. The slots no play took get their piles' other cards."""
        budget, self.spent = 2 * len(steps) + 16, 0
        while True:
            try:
                return self._try(steps, rng, min(budget, SEARCH_LIMIT - self.spent))
            except _OutOfWork as e:
                self.spent += e.args[0]
                budget *= 2
                if self.spent >= SEARCH_LIMIT:
                    raise SamplingLimitError(
                        f"no world was found within {SEARCH_LIMIT:,} plays moved: this round has "
                        f"{len(self.content) - 1} reshuffles, too many to deal its unseen cards again") from None

    def _try(self, steps: list[tuple], rng: random.Random, budget: int) -> list[int]:
        pile, time, mine, content = self.pile, self.time, self.mine, self.content
        spare = [row[:] for row in content]  # each pile's cards no play took
        at = [-1] * len(pile)  # slot -> the play it serves
        where = [-1] * len(steps)  # play -> its slot
        val = [-1] * len(steps)  # play -> its card
        holders: dict[tuple[int, int], set[int]] = {}  # (pile, card) -> the plays served from it
        work = 0

        def put(i: int, s: int, v: int) -> None:
            at[s], where[i], val[i] = i, s, v
            spare[pile[s]][v] -= 1
            holders.setdefault((pile[s], v), set()).add(i)

        def lift(i: int) -> None:
            s = where[i]
            at[s], where[i] = -1, -1
            spare[pile[s]][val[i]] += 1
            holders[(pile[s], val[i])].discard(i)

        def reroute(parent: dict, moves: list[tuple[int, int, int]]) -> bool:
            """Make the moves (play, slot, card) along the path; False (nothing changed)
            when two of them want the same slot or the same card of a pile."""
            j = moves[0][0]
            while parent[j] is not None:
                moves.append(parent[j])
                j = parent[j][0]
            old = [(i, where[i], val[i]) for i, _, _ in moves if where[i] >= 0]
            for i, _, _ in old:
                lift(i)
            done = []
            for i, s, v in moves:
                if at[s] >= 0 or spare[pile[s]][v] <= 0:
                    break
                put(i, s, v)
                done.append(i)
            else:
                return True
            for i in done:
                lift(i)
            for i, s, v in old:
                put(i, s, v)
            return False

        def augment(root: int) -> bool:
            nonlocal work
            parent: dict[int, tuple[int, int, int] | None] = {root: None}  # play -> the move that pushed it out
            queue, emptied = [root], set()
            for j in queue:
                work += 1
                if work > budget:
                    raise _OutOfWork(work)
                p, values, t = steps[j]
                own = where[j]
                for s in mine[p]:
                    if time[s] >= t:
                        break
                    if s == own:
                        continue
                    e, k = pile[s], at[s]
                    for v in values:
                        room = spare[e][v] + (own >= 0 and pile[own] == e and val[j] == v)
                        if k < 0:
                            if room > 0:
                                if reroute(parent, [(j, s, v)]):
                                    return True
                            elif (e, v) not in emptied:  # the pile's cards v are all taken: move a play of one
                                emptied.add((e, v))
                                for x in sorted(holders.get((e, v), ())):
                                    if x not in parent:
                                        parent[x] = (j, s, v)
                                        queue.append(x)
                        elif k not in parent and (room > 0 or val[k] == v):  # take k's slot, move k
                            parent[k] = (j, s, v)
                            queue.append(k)
            return False

        for i, (p, values, t) in enumerate(steps):
            best = None
            for s in mine[p]:
                if time[s] >= t:
                    break
                if at[s] < 0:
                    for v in values:
                        if spare[pile[s]][v] > 0:
                            best = (s, v)
            if best is not None:
                put(i, *best)
                continue
            pending = [i]
            while pending:
                j = pending.pop()
                if where[j] >= 0 or augment(j):
                    continue
                p, values, t = steps[j]
                opts = [(s, v) for s in mine[p] if time[s] < t for v in values if content[pile[s]][v]]
                if not opts:  # the real position always fits its own record
                    raise RuntimeError("no world fits this position's record")
                s, v = opts[int(rng.random() * len(opts))]
                if at[s] >= 0:
                    pending.append(at[s])
                    lift(at[s])
                if spare[pile[s]][v] <= 0:
                    them = sorted(holders[(pile[s], v)])
                    x = them[int(rng.random() * len(them))]
                    pending.append(x)
                    lift(x)
                put(j, s, v)
        card = [-1] * len(pile)
        for s, i in enumerate(at):
            if i >= 0:
                card[s] = val[i]
        rest = [list(Counter({v: c for v, c in enumerate(row) if c}).elements()) for row in spare]
        for s, e in enumerate(pile):
            if card[s] < 0:
                card[s] = rest[e].pop()
        self.spent += work
        return card

    # ------------------------------------------------------------------ the swaps
    def _mix(self, base: list[int], rng: random.Random) -> list[int]:
        """``base`` dealt again by a Markov chain of swaps. A slot a play could pin (one
        its player received before a later play) and another slot of its pile, both drawn
        at random, exchange their cards when every play stays possible: the moves are
        symmetric (the same pair undoes a swap, drawn as often), so the chain keeps every
        world it can reach as likely as any other, the uniform distribution over them.
        The cards of the other slots fit in any order: they are shuffled within their
        piles before the chain and after it (exact, given the rest)."""
        if self._chain is None:
            self._chain = self._prepare()
        free, plays, safe, pinned = self._chain
        owner, time = self.owner, self.time
        card = base[:]

        def shuffle_free() -> None:
            for slots in free:
                cards = [card[s] for s in slots]
                rng.shuffle(cards)
                for s, c in zip(slots, cards):
                    card[s] = c

        shuffle_free()
        n = len(pinned)
        if not n:
            return card
        # recv[p, v]: when p received each card v, sorted; kept only for the cards p plays
        recv: dict[tuple[int, int], list[int]] = {key: [] for key in plays}
        held = 0  # the safe cards the actor holds now
        for s in self.others:
            for i in self.mine[s]:
                got = recv.get((s, card[i]))
                if got is not None:
                    got.append(time[i])
        if safe is not None:
            p, ok = safe
            held = sum(1 for i in self.mine[p] if card[i] in ok) - sum(len(plays.get((p, w), ())) for w in ok)

        def keeps(p: int, v: int, since: int) -> bool:
            """Whether p, one card v fewer from ``since`` on, still holds each v it plays."""
            need = plays.get((p, v))
            if need:
                got = recv[(p, v)]
                for k in range(bisect_right(need, since), len(need)):
                    if bisect_left(got, need[k]) <= k + 1:
                        return False
            return True

        def move(p: int, t: int, old: int, new: int) -> None:
            got = recv.get((p, old))
            if got is not None:
                got.remove(t)
            got = recv.get((p, new))
            if got is not None:
                insort(got, t)

        rand = rng.random
        actor, ok = safe if safe is not None else (None, ())
        for _ in range(MIXING * n * n.bit_length()):
            a, mates, at, pa, ta = pinned[int(rand() * n)]
            j = int(rand() * (len(mates) - 1))
            b = mates[j + (j >= at)]
            va, vb = card[a], card[b]
            if va == vb:
                continue
            pb, tb = owner[b], time[b]
            if pa == pb:  # one player: a card received earlier for one received later
                move(pa, ta, va, vb)
                move(pb, tb, vb, va)
                if self._holds(recv, plays, pa, va) and self._holds(recv, plays, pa, vb):
                    card[a], card[b] = vb, va
                else:
                    move(pa, ta, vb, va)
                    move(pb, tb, va, vb)
                continue
            change = 0
            if actor is not None:
                change = (pa == actor) * ((vb in ok) - (va in ok)) + (pb == actor) * ((va in ok) - (vb in ok))
                if held + change <= 0:
                    continue
            if keeps(pa, va, ta) and (pb is None or keeps(pb, vb, tb)):
                move(pa, ta, va, vb)
                if pb is not None:
                    move(pb, tb, vb, va)
                card[a], card[b] = vb, va
                held += change
        shuffle_free()
        return card

    @staticmethod
    def _holds(recv: dict, plays: dict, p: int, v: int) -> bool:
        """Whether p received each card v it plays before it played it."""
        need = plays.get((p, v))
        if need:
            got = recv[(p, v)]
            for k, t in enumerate(need):
                if bisect_left(got, t) <= k:
                    return False
        return True

    def _prepare(self) -> tuple:
        """What the chain reads: per pile its free slots (the draw pile's, and those a
        player received after its last play, unless it must hold a safe card), when each
        player played each card, the safe cards an actor must hold, and the pinned slots (the
        others, in piles of two or more), each with its pile's slots, its place among them,
        its owner and when it was received."""
        plays: dict[tuple[int, int], list[int]] = {}
        for p, (v,), t in self.steps + self.needs:
            plays.setdefault((p, v), []).append(t)
        last = {}
        for p, _, t in self.steps + self.needs + ([self.safe] if self.safe else []):
            last[p] = t
        by_pile: dict[int, list[int]] = {}
        place = [0] * len(self.pile)
        for s, e in enumerate(self.pile):
            place[s] = len(by_pile.setdefault(e, []))
            by_pile[e].append(s)
        free: dict[int, list[int]] = {}
        pinned = []
        for s, (p, e, t) in enumerate(zip(self.owner, self.pile, self.time)):
            if p is None or t >= last.get(p, -2):
                free.setdefault(e, []).append(s)
            elif len(by_pile[e]) > 1:
                pinned.append((s, by_pile[e], place[s], p, t))
        safe = None if self.safe is None else (self.safe[0], set(self.safe[1]))
        return list(free.values()), plays, safe, pinned


#: Work each of the two ways of :meth:`_Seat._match` may do (cards placed by the search,
#: plays moved or looked at by the walk, over all their tries) before ``sample_world`` gives
#: up with :class:`SamplingLimitError`, once per seat and position: about 0.5 s at most.
SEARCH_LIMIT = 10_000


class _OutOfWork(Exception):
    """A try of :meth:`_Search.solve` or :meth:`_Seat._walk` used up its share of the work (its count)."""


#: Swaps a world tries, per pinned slot and per doubling of their number n (MIXING * n *
#: bits of n, as a shuffle by random swaps needs about n log n): see :meth:`_Seat._mix`.
#: Against chains 8-30 times as long, the cards' odds per hand stay within what 600-1,500
#: worlds show by chance, in rounds of no reshuffle and of 60 and 200.
MIXING = 2


class _Search:
    """Where each of a seat's steps ``(player, cards it may be, draw piles received from
    by then)`` may have got its card: a pile with such a card in it, from which the player
    had received a card by then. Built once per seat and position; :meth:`solve` chooses."""

    def __init__(self, steps: list[tuple], content: list[list[int]]) -> None:
        self.steps = steps
        self.doms: list[dict[int, tuple[int, ...]]] = []  # step -> {pile: cards it may take there}
        self.by_card: dict[tuple[int, int], list[int]] = {}  # steps that may take this card of this pile
        self.by_pile: dict[tuple[int, int], list[int]] = {}  # this player's steps that may use this pile
        piles: dict[int, list[int]] = {}  # player -> the piles it ever received from (its last step knows)
        for p, _, recv in reversed(steps):
            if p not in piles:
                piles[p] = [e for e, r in enumerate(recv) if r]
        for i, (p, values, recv) in enumerate(steps):
            dom = {}
            for e in piles[p]:
                if e >= len(recv):
                    break
                if recv[e]:
                    vs = tuple(v for v in values if content[e][v])
                    if vs:
                        dom[e] = vs
                        self.by_pile.setdefault((p, e), []).append(i)
                        for v in vs:
                            self.by_card.setdefault((e, v), []).append(i)
            self.doms.append(dom)

    def solve(self, remain: list[list[int]], used: dict[int, list[int]], rng: random.Random,
              limit: int | None = None) -> list[tuple[int, int]] | None:
        """For each step, the pile its card came from and which card it is, such that no
        pile gives more of a card than it holds (``remain``) and the k-th of a player's
        steps served from a pile comes after the player's k-th card from it. ``remain`` and
        ``used`` (cards each player's steps took from each pile) end as the choice leaves
        them. ``None``: no choice fits. :class:`SamplingLimitError` once ``limit`` cards were
        placed (``SEARCH_LIMIT``), the failed tries included.

        A constraint search: the step with the fewest choices left goes first, each choice
        in random order (so every consistent choice can come out), and a choice that leaves
        some other step none is taken back at once. A try that backs up too often starts
        again with other random orders, each allowed twice the work of the one before: a bad
        early choice is what makes such searches long, and a new start rarely repeats it."""
        limit = SEARCH_LIMIT if limit is None else limit
        self.remain, self.used = remain, used
        budget, spent = 2 * len(self.steps) + 16, 0
        while True:
            try:
                found = self.run(rng, min(budget, limit - spent))
            except _OutOfWork as e:
                spent += e.args[0]
                budget *= 2
                self.spent = spent
                if spent >= limit:
                    raise SamplingLimitError(
                        f"no world was found within {limit:,} placed cards: this round has "
                        f"{len(remain) - 1} reshuffles, too many to deal its unseen cards again") from None
                continue
            self.spent = spent + self.work
            return found

    def run(self, rng: random.Random, budget: int) -> list[tuple[int, int]] | None:
        """One try, :class:`_OutOfWork` after ``budget`` placed cards (all taken back)."""
        steps, remain, doms = self.steps, self.remain, self.doms
        n = len(steps)
        self.taken: dict[tuple[int, int], list[int]] = {}
        self.ok = [dict.fromkeys(d, True) for d in doms]  # pile still open to the step
        self.left = [sum(1 for e, vs in d.items() for v in vs if remain[e][v]) for d in doms]
        self.open = set(range(n))
        self.choice: list[tuple[int, int] | None] = [None] * n
        self.work = 0
        if n and min(self.left) == 0:
            return None
        frames: list[list] = []  # [step, its choices in random order, index tried]
        while self.open:
            i = min(self.open, key=self.left.__getitem__)
            # Random order, biased towards the choices fewest other steps could also make
            # (k of the player's steps may use this pile, m steps this pile's card): weight
            # copies / (k * k * m) as keys random() ** (1 / weight). Every choice stays
            # possible; the bias takes a search of hundreds of reshuffles from many tries
            # to about one.
            p = steps[i][0]
            keyed = sorted(((rng.random() ** (len(self.by_pile[(p, e)]) ** 2 * len(self.by_card[(e, v)])
                                               / remain[e][v]), e, v)
                            for e, vs in doms[i].items() if self.ok[i][e] for v in vs if remain[e][v]),
                           reverse=True)
            opts = [(e, v) for _, e, v in keyed]
            frames.append([i, opts, -1])
            while True:  # the top frame's next choice, or back up
                i, opts, k = frames[-1]
                if k >= 0:
                    self._unplace(i)
                k += 1
                frames[-1][2] = k
                if k < len(opts):
                    self.work += 1
                    if self.work > budget:
                        self._clear()
                        raise _OutOfWork(self.work)
                    if self._place(i, *opts[k]):
                        break
                    continue
                frames.pop()
                if not frames:
                    return None
        return self.choice  # type: ignore[return-value]

    def _clear(self) -> None:
        """Take every placed card back (``remain``/``used`` as before the try)."""
        for i, c in enumerate(self.choice):
            if c is not None:
                self.remain[c[0]][c[1]] += 1
                self.used[self.steps[i][0]][c[0]] -= 1

    def _fits(self, j: int, e: int) -> bool:
        """Whether step j may still take a card of pile e: the k-th of its player's steps
        served from pile e must have received k cards from it by then."""
        steps = self.steps
        mine = self.taken.get((steps[j][0], e))
        if not mine:
            return True
        at = bisect_right(mine, j)
        if at + 1 > steps[j][2][e]:
            return False
        return all(steps[x][2][e] >= at + 2 + k for k, x in enumerate(mine[at:]))

    def _place(self, i: int, e: int, v: int) -> bool:
        p = self.steps[i][0]
        self.remain[e][v] -= 1
        self.used[p][e] += 1
        insort(self.taken.setdefault((p, e), []), i)
        self.choice[i] = (e, v)
        self.open.discard(i)
        return self._update(p, e, v, self.remain[e][v] == 0)

    def _unplace(self, i: int) -> None:
        p = self.steps[i][0]
        e, v = self.choice[i]  # type: ignore[misc]
        self.remain[e][v] += 1
        self.used[p][e] -= 1
        self.taken[(p, e)].remove(i)
        self.choice[i] = None
        self._update(p, e, v, self.remain[e][v] == 1)
        # step i counted afresh, after the others (counted by _update, it would gain its
        # own card twice)
        self.open.add(i)
        remain = self.remain
        ok = self.ok[i]
        for f in ok:
            ok[f] = self._fits(i, f)
        self.left[i] = sum(1 for f, vs in self.doms[i].items() if ok[f] for w in vs if remain[f][w])

    def _update(self, p: int, e: int, v: int, card_changed: bool) -> bool:
        """Bring the open steps' choices up to date after pile e's card v and player p's
        use of pile e changed; False when one of them has no choice left."""
        remain, left, ok, open_, steps = self.remain, self.left, self.ok, self.open, self.steps
        fine = True
        if card_changed:
            delta = 1 if remain[e][v] else -1
            for j in self.by_card.get((e, v), ()):
                if j in open_ and ok[j][e]:
                    left[j] += delta
                    if left[j] <= 0:
                        fine = False
        # _fits for every step of p at once: after[a] says whether the steps already served
        # from pile e keep their room when one more comes in at place a among them
        mine = self.taken.get((p, e)) or []
        after = [True] * (len(mine) + 1)
        for a in range(len(mine) - 1, -1, -1):
            after[a] = after[a + 1] and steps[mine[a]][2][e] >= a + 2
        row = remain[e]
        for j in self.by_pile.get((p, e), ()):
            if j in open_:
                at = bisect_right(mine, j)
                now = after[at] and steps[j][2][e] > at
                okj = ok[j]
                if now != okj[e]:
                    okj[e] = now
                    k = sum(1 for w in self.doms[j][e] if row[w])
                    left[j] += k if now else -k
                if left[j] <= 0:
                    fine = False
        return fine


class SeatKnowledge:
    """What a seat sees and knows (N8): its view, and the worlds it cannot tell apart."""

    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (N8); ``None`` is the teacher view with every hand and the draw pile."""
        self.check_seat(seat)
        cfg = self._cfg
        out = self.outcome()
        stack = _tokens(self._stack)
        v = {
            "game": "cirno_neu",
            "players": self.players,
            "names": [self.seat_label(s) for s in range(self.players)],
            "seat": seat,
            "phase": self.phase,
            "current": self._cp,
            "round": self._round,
            "turn_no": self._turns,
            "sum": self._sum,
            "limit": cfg.limit,
            "direction": self._dir,
            "clockwise": self._dir == 1,
            "dealer": self._dealer,
            "stack_top": stack[-5:],
            "stack_size": len(stack),
            "draw_count": len(self._draw),
            "turn": self.turn,
            "pending": {"shot_target": self._shot_target, "double_next": self._double_next},
            "hands": [_tokens(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "life_system": cfg.life_system,
            "chips": list(self._chips) if cfg.life_system else None,
            "active": list(self._active),
            "eliminated": list(self._out),
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "revealed": None if self._bust is None else dict(self._bust),
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["stack"] = stack
            v["draw_pile"] = self.draw_pile
        return v

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        way = "cw" if v["clockwise"] else "ccw"
        top = " ".join(v["stack_top"]) or "—"
        lines = [f"cirno+neu · {n} players · round {v['round']} · sum {number(v['sum'])}/{v['limit']} · {way} · "
                 f"draw {v['draw_count']} · stack {v['stack_size']} [{top}]"]
        t = v["turn"]
        if v["current"] is not None:
            kind = "shot turn" if t["kind"] == "shot" else "turn"
            pend = []
            if v["pending"]["shot_target"] is not None:
                pend.append(f"shot→{v['names'][v['pending']['shot_target']]}")
            if v["pending"]["double_next"]:
                pend.append("double next")
            lines.append(f"{v['names'][t['actor']]}'s {kind} (anchor {v['names'][t['anchor']]}), "
                         f"card {t['played'] + 1} of {t['required']}" + (f" · {', '.join(pend)}" if pend else ""))
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            out = "" if v["active"][s] else " (out)"
            chips = f" · chips {v['chips'][s]}" if v["life_system"] else ""
            dealer = " · dealer" if s == v["dealer"] else ""
            hand = v["hands"][s]
            cards = "[" + ", ".join(hand) + "]" if hand is not None else \
                f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            lines.append(f"{mark} {v['names'][s]} {cards}{chips}{dealer}{out}")
        if v.get("draw_pile") is not None:
            lines.append("Draw pile (top first) [" + ", ".join(v["draw_pile"]) + "]")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    # ------------------------------------------------------------- determinization (N8.3)
    def _sample(self, seat: int, rng: random.Random) -> "CirnoNeuState":
        """Deal every card ``seat`` has not seen again (the other hands and the draw pile's
        cards and order), keeping what the seat saw and what the rules let it infer (N8.3)."""
        world = self.clone()
        record = self._record()
        world._hands, world._draw, slots = record.seat(seat, self).sample(self, rng)
        # The world's own record: the same public one, with the cards it dealt to the other
        # players, so its seats know what they knew here (a world of a world, or a position
        # the seat cannot tell from this one, searches as this one does).
        world._know = (world._history, world._moves, record.dealt(seat, slots))
        return world

    def _record(self) -> "_Record":
        """The public record of the current round (cached per position: a search samples
        many worlds of one position)."""
        cached = getattr(self, "_know", None)
        if cached is not None and cached[0] is self._history and cached[1] == self._moves:
            return cached[2]
        record = _Record.rebuild(self)
        self._know = (self._history, self._moves, record)
        return record

    def _start(self) -> "CirnoNeuState | None":
        """This match's first position, set up again (``None`` if it cannot be)."""
        try:
            return self._first_position()  # type: ignore[return-value]
        except ValueError:
            return None
