"""What a seat of cirno+neu knows: its view (N8), the public record of a round, and the
dealing of the cards it has not seen (``sample_world``).
"""

from __future__ import annotations

import random
from bisect import bisect_right, insort
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
    """One seat's knowledge of the round, ready for sampling: each draw pile's unseen
    cards, what each other player received from each pile, and the cards they played."""

    __slots__ = ("seat", "content", "received", "steps", "others", "draw_size", "needs", "safe_actor",
                 "_searches", "spent")

    def __init__(self, record: _Record, seat: int, st: CirnoNeuState) -> None:
        n = st.players
        self.seat = seat
        self.others = [s for s in range(n) if s != seat]
        universe = st._cfg.deck if st._built is None else st._built
        first = Counter({k: c for k, c in enumerate(universe) if c})
        first.subtract(record.hands[seat])
        first.subtract(record.stack)
        content = [first]
        received = {s: [len(record.hands[s])] for s in self.others}
        steps = []
        for ev in record.events:
            if ev[0] == "play":
                if ev[1] != seat:
                    steps.append((ev[1], (ev[2],), tuple(received[ev[1]])))
            elif ev[0] == "draw":
                _, p, e, cards = ev
                if p == seat:
                    content[e].subtract(cards)
                else:
                    received[p][e] += len(cards)
            else:
                content.append(Counter(ev[1]))
                for s in self.others:
                    received[s].append(0)
        self.content = [[c[k] for k in range(len(TOKENS))] for c in content]
        self.received = received
        self.steps = steps
        self.draw_size = len(st._draw)
        self._searches: dict[int, _Search] = {}  # by number of steps: with the safe card or not
        # What the seat sees now and must hold in every world (N8.3).
        self.needs: list[tuple] = []
        b = st._bust
        if st._cp is None and b is not None and b["hand"] is not None and b["round"] == st._round \
                and b["seat"] != seat:
            shown = Counter(card_id(t) for t in b["hand"])
            if b["card"] is not None:
                shown[card_id(b["card"])] -= 1
            for c in shown.elements():
                self.needs.append((b["seat"], (c,), tuple(received[b["seat"]])))
        p = st._actor
        self.safe_actor = None
        if st._cfg.auto_bust and p != seat and st._hands[p] and \
                (st._cp is not None or st._termination is Termination.ABORTED):
            room = st._cfg.limit - st._sum
            safe = tuple(k for k in range(len(TOKENS)) if k > PLUS_MAX or VALUE[k] <= room)
            self.safe_actor = (p, safe, tuple(received[p]))

    def sample(self, st: CirnoNeuState,
               rng: random.Random) -> tuple[list[list[int]], list[int], dict[tuple[int, int], list[int]]]:
        """The hands (the seat's own as it is), the draw pile (top last) and the other
        players' cards from each pile (see ``_deal``) of a world.
        Its searches together place at most ``SEARCH_LIMIT`` cards (``spent``: how many)."""
        steps = self.steps + self.needs
        self.spent = 0
        if self.safe_actor is not None:
            # The actor holds a safe card, or the forced bust would have been settled: a few
            # plain tries (half the work at most) keep each world's odds, then a safe card is
            # asked for outright.
            p, safe, _ = self.safe_actor
            try:
                for _ in range(8):
                    world = self._deal(st, steps, rng, SEARCH_LIMIT // 2 - self.spent)
                    if world is not None and any(c in safe for c in world[0][p]):
                        return world
            except SamplingLimitError:
                pass
            steps = steps + [self.safe_actor]
        world = self._deal(st, steps, rng, SEARCH_LIMIT - self.spent)
        if world is None:  # the real position always fits its own record
            raise RuntimeError("no world fits this position's record")
        return world

    def _deal(self, st: CirnoNeuState, steps: list[tuple], rng: random.Random,
              limit: int) -> tuple[list[list[int]], list[int], dict[tuple[int, int], list[int]]] | None:
        remain = [row[:] for row in self.content]
        used = {s: [0] * len(remain) for s in self.others}
        search = self._searches.get(len(steps))
        if search is None:
            search = self._searches[len(steps)] = _Search(steps, self.content)
        try:
            chosen = search.solve(remain, used, rng, max(limit, 0))
        finally:
            self.spent += search.spent
        if chosen is None:
            return None
        hands = [list(h) for h in st._hands]
        # slots[p, e]: the cards p received from pile e, in the order received: the ones it
        # played (or shows) first, each before it was played, then the ones it still holds
        slots: dict[tuple[int, int], list[int]] = {}
        for s in self.others:
            hands[s] = []
        for (p, _, _), (e, v), i in zip(steps, chosen, range(len(steps))):
            slots.setdefault((p, e), []).append(v)
            if i >= len(self.steps):  # a card the player still holds (N8.2, N8.3)
                hands[p].append(v)
        draw: list[int] = []
        last = len(remain) - 1
        for e, row in enumerate(remain):
            pool = [k for k, c in enumerate(row) for _ in range(c)]
            rng.shuffle(pool)
            k = 0
            for s in self.others:
                m = self.received[s][e] - used[s][e]
                hands[s] += pool[k:k + m]
                slots.setdefault((s, e), []).extend(pool[k:k + m])
                k += m
            if e == last:
                draw = pool[k:]
            elif k != len(pool):
                return None
        if len(draw) != self.draw_size or any(len(hands[s]) != len(st._hands[s]) for s in self.others):
            return None
        for s in self.others:
            hands[s].sort()
        return hands, draw, slots
        return hands, draw


#: Cards ``_Search.solve`` may place (over all its tries) before ``sample_world`` gives up
#: with :class:`SamplingLimitError`. A world usually takes about one placement per card the
#: other players played this round; the bound keeps the rare long search of a round of
#: hundreds of reshuffles well under a second, in memory that grows with the round only.
SEARCH_LIMIT = 10_000


class _OutOfWork(Exception):
    """A try of :meth:`_Search.solve` used up its share of the work (its count)."""


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
