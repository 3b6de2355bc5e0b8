"""Yadokarick in the fast lane: the rules of ``cardwidgets.games.yadokarick`` as numba kernels.

Covered: the standard mode (3 to 7 players) with the standard and advanced card sets
and every option but ``placement_order="choose"``, and the duo mode (2 players and
the NPC) with all its options; the bots ``random`` and ``greedy`` (the heuristics of
:class:`cardwidgets.bots.yadokarick.YadokarickGreedyBot`: the same Monte Carlo look at
the trick, the same values, ties broken uniformly at random).

A card is the engine's card id (``2 * (number - 1) + colour``, green 0, pink 1), and an
action code is the card id for a play, ``72 + delta + 1`` for a marker move. A game is
recorded as one permutation of the cards in use per round (standard) or per game
(duo), as :class:`cardwidgets.core.Recorded` takes them, and its actions.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from numba import njit

from ..games import yadokarick as ref
from ..games.yadokarick import cards as refcards
from ..core import plural as ref_plural
from . import Batch, Coverage
from ._rng import below, next64, permutation, stream

GAME = "yadokarick"
MOVE0 = 72  # codes 72, 73, 74: move left, stay, right
NPC = 2
BOTS = {"random": 0, "greedy": 1}
#: Where a card is (``loc``): a seat's hand is the seat number.
HOUSE, COLLAPSED, DISCARD, TRICK, ASIDE, NPC_DECK, OUT = 10, 20, 30, 40, 50, 60, 99
#: The greedy bot's expected house growth per remaining trick (bots.yadokarick._GAIN).
GAIN3, GAIN, GAIN_DUO = 3.0, 2.4, 1.3
SAMPLES = 10
HOUSE_CAP = 48


# --------------------------------------------------------------------------- helpers
@njit(cache=True)
def _below(rng, n):
    return np.int64(below(rng, n))


@njit(cache=True)
def _random(rng):
    """A float in [0, 1) from the stream (53 bits)."""
    return (next64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _round(x):
    """Python's ``round(x)`` of a float: halves to even."""
    r = np.floor(x)
    d = x - r
    if d > 0.5:
        r += 1.0
    elif d == 0.5:
        if r % 2.0 != 0.0:
            r += 1.0
    return np.int64(r)


@njit(cache=True)
def _round_score(h, f, t):
    """Y10.2, Y10.3."""
    if h < t:
        base = h
    elif h == t:
        base = h + 5
    else:
        base = t - h
    return base - f


@njit(cache=True)
def _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, roofs_apply, loc):
    """Y8.2-Y8.7: place ``got[:ng]`` on an unroofed house (roof cards last), collapse, roof."""
    has_roof = False
    for j in range(ng):
        if roof[got[j]]:
            has_roof = True
    k = hlen[who]
    for j in range(ng):
        if not roof[got[j]]:
            house[who, k] = got[j]
            k += 1
    if has_roof:
        for j in range(ng):
            if roof[got[j]]:
                house[who, k] = got[j]
                k += 1
    for j in range(hlen[who], k):
        loc[house[who, j]] = HOUSE
    over = k - limit
    if over > 0:
        for j in range(over):
            coll[who] += size[house[who, j]]
            loc[house[who, j]] = COLLAPSED + who
        for j in range(over, k):
            house[who, j - over] = house[who, j]
        k -= over
    hlen[who] = k
    if roofs_apply and has_roof:
        roofed[who] = 1


@njit(cache=True)
def _house_size(who, house, hlen, size):
    h = 0
    for j in range(hlen[who]):
        h += size[house[who, j]]
    return h


@njit(cache=True)
def _remove(hand, hcnt, s, j):
    for i in range(j, hcnt[s] - 1):
        hand[s, i] = hand[s, i + 1]
    hcnt[s] -= 1


@njit(cache=True)
def _sample_into(rng, pool, npool, k, out, off):
    """``random.sample(pool, k)`` into ``out[off:off + k]``: a uniformly random ordered choice."""
    for i in range(k):
        j = i + _below(rng, npool - i)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
        out[off + i] = pool[i]


@njit(cache=True)
def _pool(me, cards, loc, coll_public, pool):
    """The cards ``me`` has not seen (bots.yadokarick._unseen): the other hands, the cards set
    aside, the NPC deck, and collapsed cards of others when only their count is public."""
    m = 0
    for c in cards:
        l = loc[c]
        if (l < 10 and l != me) or l == ASIDE or l == NPC_DECK or \
                (not coll_public and l >= COLLAPSED and l < COLLAPSED + 10 and l - COLLAPSED != me):
            pool[m] = c
            m += 1
    return m


@njit(cache=True)
def _pick_max(rng, vals, m):
    """The index of the largest of ``vals[:m]``, ties at random."""
    best = vals[0]
    for j in range(1, m):
        if vals[j] > best:
            best = vals[j]
    nt = 0
    for j in range(m):
        if vals[j] == best:
            nt += 1
    r = _below(rng, nt) if nt > 1 else 0
    for j in range(m):
        if vals[j] == best:
            if r == 0:
                return j
            r -= 1
    return 0


# --------------------------------------------------------------------------- standard: judging (Y5, Y6)
@njit(cache=True)
def _judge_me(cards, n, me_pos, size, capture_all, got):
    """Judge a complete trick for the player at ``me_pos``: ``(cards it captures into got,
    whether it moves the marker)`` (cards.judge_standard)."""
    low = 999
    for i in range(n):
        if cards[i] >> 1 < low:
            low = cards[i] >> 1
    mover = cards[me_pos] >> 1 == low
    ng = 0
    if n == 3:
        hi = 0
        for i in range(n):
            if cards[i] > cards[hi]:
                hi = i
        if hi == me_pos:
            smax = 0
            for i in range(n):
                if size[cards[i]] > smax:
                    smax = size[cards[i]]
            for i in range(n):
                if capture_all or size[cards[i]] == smax:
                    got[ng] = cards[i]
                    ng += 1
        return ng, mover
    colour = cards[me_pos] & 1
    hi = -1
    smax = 0
    for i in range(n):
        c = cards[i]
        if c & 1 == colour:
            if hi < 0 or c > cards[hi]:
                hi = i
            if size[c] > smax:
                smax = size[c]
    if hi == me_pos:
        for i in range(n):
            c = cards[i]
            if c & 1 == colour and size[c] == smax:
                got[ng] = c
                ng += 1
    return ng, mover


@njit(cache=True)
def _std_value(house, coll, roofed, target, left, gain):
    """YadokarickGreedyBot._value."""
    if roofed:
        return float(_round_score(house, coll, target))
    e = house + gain * left
    if e <= target:
        return e - coll
    return 2 * (target - e) - coll


@njit(cache=True)
def _std_greedy_play(rng, me, n, hand, hcnt, trick, npos, cards, loc, size, roof, house, hlen, coll, roofed,
                     marker, trick_no, limit, capture_all, coll_public, gain, pool, draws, full, got, vals):
    """YadokarickGreedyBot._play: the index in the hand of the card to play."""
    rest = n - npos - 1
    npool = _pool(me, cards, loc, coll_public, pool)
    left = 10 - trick_no
    h0 = _house_size(me, house, hlen, size)
    f0 = coll[me]
    r0 = roofed[me]
    samples = 1 if rest == 0 else SAMPLES
    for d in range(samples):
        if rest <= npool:
            _sample_into(rng, pool, npool, rest, draws, d * 8)
        else:
            for i in range(rest):
                draws[d * 8 + i] = pool[i]
    m = hcnt[me]
    for j in range(npos):
        full[j] = trick[j]
    for a in range(m):
        full[npos] = hand[me, a]
        total = 0.0
        for d in range(samples):
            for i in range(rest):
                full[npos + 1 + i] = draws[d * 8 + i]
            ng, mover = _judge_me(full, n, npos, size, capture_all, got)
            h = h0
            f = f0
            r = r0
            if ng > 0 and not r0:
                # stack = house + sorted(got, key=roof): collapse from the bottom
                k = hlen[me] + ng
                over = k - limit
                hs = 0
                idx = 0
                has_roof = 0
                for j in range(hlen[me]):
                    c = house[me, j]
                    if idx < over:
                        f += size[c]
                    else:
                        hs += size[c]
                    idx += 1
                for pas in range(2):
                    for j in range(ng):
                        c = got[j]
                        if (roof[c] != 0) == (pas == 1):
                            if pas == 1:
                                has_roof = 1
                            if idx < over:
                                f += size[c]
                            else:
                                hs += size[c]
                            idx += 1
                h = hs
                r = has_roof
            t = marker
            if mover:
                e = float(h) if r else h + gain * left
                step = _round(e - marker)
                t = marker + (1 if step > 1 else (-1 if step < -1 else step))
            total += _std_value(h, f, r, t, left, gain)
        vals[a] = total / samples
    return _pick_max(rng, vals, m)


# --------------------------------------------------------------------------- standard: one game
@njit(cache=True)
def _std_game(seed, n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi, capture_all, limit,
              last_entitled, coll_public, bots, mutant, record, chance, actions, legal_buf, legal_cnt, scores,
              starter):
    rng = stream(seed)
    C = cards.shape[0]
    gain = GAIN3 if n == 3 else GAIN
    hand = np.zeros((n, 10), np.int64)
    hcnt = np.zeros(n, np.int64)
    house = np.zeros((n, HOUSE_CAP), np.int64)
    hlen = np.zeros(n, np.int64)
    coll = np.zeros(n, np.int64)
    roofed = np.zeros(n, np.int64)
    totals = np.zeros(n, np.int64)
    loc = np.full(72, OUT, np.int64)
    perm = np.empty(C, np.int64)
    trick = np.empty(n, np.int64)
    got = np.empty(8, np.int64)
    pool = np.empty(72, np.int64)
    draws = np.empty(SAMPLES * 8, np.int64)
    full = np.empty(8, np.int64)
    vals = np.empty(10, np.float64)
    legal = np.empty(10, np.int64)
    movers = np.empty(2, np.int64)
    moved = np.empty(2, np.int64)
    na = 0
    nl = 0
    nc = 0
    marker = mstart
    starter[0] = (dealer + 1) % n
    for rnd in range(rounds):
        # Y2.6: shuffle the cards in use, deal 10 each from the dealer's left, set the rest aside
        permutation(rng, perm, C)
        chance[nc] = C
        for i in range(C):
            chance[nc + 1 + i] = perm[i]
        nc += 1 + C
        for c in range(72):
            loc[c] = OUT
        start = (dealer + 1) % n
        for s in range(n):
            hcnt[s] = 0
            hlen[s] = 0
            coll[s] = 0
            roofed[s] = 0
        for p in range(C):
            c = cards[perm[p]]
            if p < 10 * n:
                s = (start + p % n) % n
                k = hcnt[s]
                while k > 0 and hand[s, k - 1] > c:  # a hand is kept in card order
                    hand[s, k] = hand[s, k - 1]
                    k -= 1
                hand[s, k] = c
                hcnt[s] += 1
                loc[c] = s
            else:
                loc[c] = ASIDE
        if rnd == 0 or reset:
            marker = mstart
        leader = start
        for trick_no in range(1, 11):
            # Y4.2: everyone plays a card, any card
            for i in range(n):
                s = (leader + i) % n
                m = hcnt[s]
                if bots[s] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    ch = _std_greedy_play(rng, s, n, hand, hcnt, trick, i, cards, loc, size, roof, house, hlen,
                                          coll, roofed, marker, trick_no, limit, capture_all, coll_public, gain,
                                          pool, draws, full, got, vals)
                if record:
                    for j in range(m):
                        legal_buf[nl + j] = hand[s, j]
                    legal_cnt[na] = m
                    nl += m
                c = hand[s, ch]
                actions[na] = c
                na += 1
                _remove(hand, hcnt, s, ch)
                trick[i] = c
                loc[c] = TRICK
            # Y5 / Y6: the movers and the captures
            low = 999
            for i in range(n):
                if trick[i] >> 1 < low:
                    low = trick[i] >> 1
            nm = 0
            for i in range(n):
                if trick[i] >> 1 == low:
                    movers[nm] = (leader + i) % n
                    nm += 1
            if n == 3:
                hp = 0
                smax = 0
                for i in range(n):
                    if trick[i] > trick[hp]:
                        hp = i
                    if size[trick[i]] > smax:
                        smax = size[trick[i]]
                ng = 0
                for i in range(n):
                    if capture_all or size[trick[i]] == smax:
                        got[ng] = trick[i]
                        ng += 1
                who = (leader + hp) % n
                if roofed[who]:
                    for j in range(ng):
                        loc[got[j]] = DISCARD
                else:
                    _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, True, loc)
            else:
                # captors in play order: each colour's highest card takes that colour's largest size
                gp = -1
                pp = -1
                gs = 0
                ps = 0
                for i in range(n):
                    c = trick[i]
                    if c & 1:
                        if pp < 0 or c > trick[pp]:
                            pp = i
                        if size[c] > ps:
                            ps = size[c]
                    else:
                        if gp < 0 or c > trick[gp]:
                            gp = i
                        if size[c] > gs:
                            gs = size[c]
                first_pos = pp if gp < 0 else (gp if pp < 0 else min(gp, pp))
                second_pos = -1 if (gp < 0 or pp < 0) else max(gp, pp)
                for step in range(2):
                    pos = first_pos if step == 0 else second_pos
                    if pos < 0:
                        continue
                    colour = trick[pos] & 1
                    smax = ps if colour else gs
                    ng = 0
                    for i in range(n):
                        c = trick[i]
                        if c & 1 == colour and size[c] == smax:
                            got[ng] = c
                            ng += 1
                    who = (leader + pos) % n
                    if roofed[who] and mutant != 1:
                        for j in range(ng):
                            loc[got[j]] = DISCARD
                    else:
                        _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, True, loc)
            for i in range(n):
                if loc[trick[i]] == TRICK:
                    loc[trick[i]] = DISCARD
            # Y7: the movers, in play order
            nmoved = 0
            for k in range(nm):
                p = movers[k]
                m = 0
                if marker > lo:
                    legal[m] = MOVE0
                    m += 1
                if marker < hi:
                    legal[m] = MOVE0 + 2
                    m += 1
                legal[m] = MOVE0 + 1
                m += 1
                if bots[p] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    h = _house_size(p, house, hlen, size)
                    want = float(h) if roofed[p] else h + gain * (10 - trick_no)
                    # min of (distance to the house size expected, |move|), ties at random
                    bj = 0
                    nt = 0
                    for j in range(m):
                        d = legal[j] - MOVE0 - 1
                        k1 = abs(marker + d - want)
                        b1 = abs(marker + legal[bj] - MOVE0 - 1 - want)
                        if j == 0 or k1 < b1 or (k1 == b1 and abs(d) < abs(legal[bj] - MOVE0 - 1)):
                            bj = j
                            nt = 1
                            vals[0] = j
                        elif k1 == b1 and abs(d) == abs(legal[bj] - MOVE0 - 1):
                            vals[nt] = j
                            nt += 1
                    ch = np.int64(vals[_below(rng, nt)]) if nt > 1 else bj
                if record:
                    for j in range(m):
                        legal_buf[nl + j] = legal[j]
                    legal_cnt[na] = m
                    nl += m
                actions[na] = legal[ch]
                na += 1
                d = legal[ch] - MOVE0 - 1
                marker += d
                if d != 0:
                    moved[nmoved] = p
                    nmoved += 1
            # Y9: the last entitled mover leads (or the last who really moved)
            if mutant == 2:
                leader = movers[0]
            elif last_entitled or nmoved == 0:
                leader = movers[nm - 1]
            else:
                leader = moved[nmoved - 1]
        # Y10: the round's scores
        for s in range(n):
            totals[s] += _round_score(_house_size(s, house, hlen, size), coll[s], marker)
        if rotate:
            dealer = (dealer + 1) % n
    for s in range(n):
        scores[s] = totals[s]
    return na, nl


# --------------------------------------------------------------------------- duo (Y13)
@njit(cache=True)
def _duo_winners(h0, h1, t):
    """cards.duo_winner_seats as a bit mask of the winning players (Y13.10)."""
    b0 = h0 > t
    if b0 == (h1 > t):
        if h0 == h1:
            return 3
        if b0:
            return 1 if h0 < h1 else 2
        return 1 if h0 > h1 else 2
    return 2 if b0 else 1


@njit(cache=True)
def _duo_greedy_play(rng, me, hand, hcnt, trick, twho, npos, order, lead, cards, loc, size, roof, house, hlen,
                     roofed, trick_no, limit, roofs_apply, coll_public, pool, draws, full, vals):
    """YadokarickGreedyBot._duo_play: the index in the hand of the card to play."""
    other = 1 - me
    left = 10 - trick_no
    rest = 3 - npos - 1
    npool = _pool(me, cards, loc, coll_public, pool)
    samples = 1 if rest == 0 else SAMPLES
    for d in range(samples):
        _sample_into(rng, pool, npool, rest, draws, d * 8)
    seats = np.empty(3, np.int64)
    for j in range(npos):
        full[j] = trick[j]
        seats[j] = twho[j]
    seats[npos] = me
    for i in range(rest):
        seats[npos + 1 + i] = order[(lead + npos + 1 + i) % 3]
    sizes0 = np.empty(3, np.int64)
    for w in range(3):
        sizes0[w] = _house_size(w, house, hlen, size)
    hs = np.empty(3, np.int64)
    rf = np.empty(3, np.int64)
    est = np.empty(3, np.float64)
    m = hcnt[me]
    for a in range(m):
        full[npos] = hand[me, a]
        total = 0.0
        for d in range(samples):
            for i in range(rest):
                full[npos + 1 + i] = draws[d * 8 + i]
            cpos = 0
            smax = 0
            for i in range(3):
                if full[i] > full[cpos]:
                    cpos = i
                if size[full[i]] > smax:
                    smax = size[full[i]]
            captor = seats[cpos]
            for w in range(3):
                hs[w] = sizes0[w]
                rf[w] = roofed[w]
            if not rf[captor]:
                # stack = house + sorted(got, key=roof), then its top ``limit`` cards
                k = hlen[captor]
                ng = 0
                has_roof = 0
                for i in range(3):
                    if size[full[i]] == smax:
                        ng += 1
                        if roof[full[i]]:
                            has_roof = 1
                total_len = k + ng
                skip = total_len - limit
                h = 0
                idx = 0
                for j in range(k):
                    if idx >= skip:
                        h += size[house[captor, j]]
                    idx += 1
                for pas in range(2):
                    for i in range(3):
                        c = full[i]
                        if size[c] == smax and (roof[c] != 0) == (pas == 1):
                            if idx >= skip:
                                h += size[c]
                            idx += 1
                hs[captor] = h
                rf[captor] = 1 if (has_roof and roofs_apply) else 0
            for w in range(3):
                est[w] = float(hs[w]) if rf[w] else hs[w] + GAIN_DUO * left
            t = est[NPC]
            win = _duo_winners(_round(est[0]), _round(est[1]), _round(t))
            score = 1.0 if win == (1 << me) else (0.5 if win == 3 else 0.0)
            mine = est[me]
            theirs = est[other]
            closeness = -(abs(t - mine) + (6 if mine > t else 0)) + 0.5 * (abs(t - theirs) + (6 if theirs > t else 0))
            total += score + 0.15 * closeness
        vals[a] = total / samples
    return _pick_max(rng, vals, m)


@njit(cache=True)
def _duo_game(seed, cards, size, roof, order, limit, roofs_apply, coll_public, bots, mutant, record, chance, actions,
              legal_buf, legal_cnt, scores, starter, hsizes):
    rng = stream(seed)
    C = cards.shape[0]
    hand = np.zeros((2, 10), np.int64)
    hcnt = np.zeros(2, np.int64)
    house = np.zeros((3, HOUSE_CAP), np.int64)
    hlen = np.zeros(3, np.int64)
    coll = np.zeros(3, np.int64)
    roofed = np.zeros(3, np.int64)
    loc = np.full(72, OUT, np.int64)
    perm = np.empty(C, np.int64)
    deal = np.empty(C, np.int64)
    trick = np.empty(3, np.int64)
    twho = np.empty(3, np.int64)
    got = np.empty(3, np.int64)
    pool = np.empty(72, np.int64)
    draws = np.empty(SAMPLES * 8, np.int64)
    full = np.empty(8, np.int64)
    vals = np.empty(10, np.float64)
    # Y13.2, Y13.13: 10 cards to each player alternately, the first player in table order first
    permutation(rng, perm, C)
    chance[0] = C
    for i in range(C):
        chance[1 + i] = perm[i]
        deal[i] = cards[perm[i]]
    first = 0 if (order[0] == 0 or (order[0] == NPC and order[1] == 0)) else 1
    for p in range(C):
        c = deal[p]
        if p < 20:
            s = first if p % 2 == 0 else 1 - first
            k = hcnt[s]
            while k > 0 and hand[s, k - 1] > c:
                hand[s, k] = hand[s, k - 1]
                k -= 1
            hand[s, k] = c
            hcnt[s] += 1
            loc[c] = s
        else:
            loc[c] = NPC_DECK
    top = 20  # the NPC deck's top card
    lead = 0
    na = 0
    nl = 0
    starter[0] = order[0] if order[0] != NPC else order[1]
    for trick_no in range(1, 11):
        for k in range(3):
            who = order[(lead + k) % 3]
            twho[k] = who
            if who == NPC:  # Y13.5: the top card of the NPC deck
                c = deal[top]
                top += 1
            else:
                m = hcnt[who]
                if bots[who] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    ch = _duo_greedy_play(rng, who, hand, hcnt, trick, twho, k, order, lead, cards, loc, size, roof,
                                          house, hlen, roofed, trick_no, limit, roofs_apply, coll_public, pool,
                                          draws, full, vals)
                if record:
                    for j in range(m):
                        legal_buf[nl + j] = hand[who, j]
                    legal_cnt[na] = m
                    nl += m
                c = hand[who, ch]
                actions[na] = c
                na += 1
                _remove(hand, hcnt, who, ch)
            trick[k] = c
            loc[c] = TRICK
        # Y13.6: the highest number captures the cards of the largest size
        pos = 0
        smax = 0
        for i in range(3):
            if trick[i] > trick[pos]:
                pos = i
            if size[trick[i]] > smax:
                smax = size[trick[i]]
        ng = 0
        for i in range(3):
            if size[trick[i]] == smax:
                got[ng] = trick[i]
                ng += 1
        who = twho[pos]
        if roofed[who] and mutant != 1:
            pass  # Y8.6: a roofed house takes nothing
        else:
            _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, roofs_apply, loc)
        for i in range(3):
            if loc[trick[i]] == TRICK:
                loc[trick[i]] = DISCARD
        lead = (lead + pos + 1) % 3 if mutant != 2 else (lead + pos) % 3  # Y13.8: left of the captor
    for w in range(3):
        hsizes[w] = _house_size(w, house, hlen, size)
    scores[0] = hsizes[0]
    scores[1] = hsizes[1]
    return na, nl


# --------------------------------------------------------------------------- batches
@njit(cache=True)
def _std_batch(seeds, n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi, capture_all, limit,
               last_entitled, coll_public, bots, mutant, record, chance, actions, lengths, legal_buf, legal_cnt,
               legal_len, scores, starter):
    for g in range(seeds.shape[0]):
        na, nl = _std_game(seeds[g], n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi,
                           capture_all, limit, last_entitled, coll_public, bots, mutant, record, chance[g],
                           actions[g], legal_buf[g], legal_cnt[g], scores[g], starter[g:g + 1])
        lengths[g] = na
        legal_len[g] = nl


@njit(cache=True)
def _duo_batch(seeds, cards, size, roof, order, limit, roofs_apply, coll_public, bots, mutant, record, chance,
               actions, lengths, legal_buf, legal_cnt, legal_len, scores, starter, hsizes):
    for g in range(seeds.shape[0]):
        na, nl = _duo_game(seeds[g], cards, size, roof, order, limit, roofs_apply, coll_public, bots, mutant, record,
                           chance[g], actions[g], legal_buf[g], legal_cnt[g], scores[g], starter[g:g + 1],
                           hsizes[g])
        lengths[g] = na
        legal_len[g] = nl


# --------------------------------------------------------------------------- from Python
COVERAGE = Coverage(
    modes={ref.STANDARD: (3, 4, 5, 6, 7), ref.DUO: (2,)},
    options={
        **{name: None for name in (
            "size_table", "roof_numbers", "size_track", "marker_start", "reset_marker_each_round",
            "three_player_color", "three_player_capture", "house_limit", "tie_leader", "dealer", "dealer_rotation",
            "rounds", "card_set", "collapsed_visibility", "duo_color", "npc_seat", "duo_first_leader", "duo_roofs")},
        "placement_order": ("auto",),
    },
    bots={"random": "random", "greedy": "greedy"},
)


class Tables:
    """The kernel's arrays for one mode, player count and option set (from the engine's ``Config``)."""

    def __init__(self, players: int, mode: str, options: Mapping[str, Any]) -> None:
        st = ref.new_game(players=players, mode=mode, seed=0, **dict(options))  # the engine checks the options
        cfg = st._cfg
        self.players = players
        self.mode = mode
        self.options = dict(options)
        self.labels = [st.seat_label(s) for s in range(players)]
        self.cards = np.array(cfg.cards, dtype=np.int64)
        self.size = np.array(cfg.size, dtype=np.int64)
        self.roof = np.array([1 if r else 0 for r in cfg.roof], dtype=np.int64)
        self.rounds = cfg.rounds if mode == ref.STANDARD else 1
        self.cfg = cfg
        self.order = np.array(cfg.order if mode == ref.DUO else (0, 0, 0), dtype=np.int64)

    def max_actions(self) -> int:
        if self.mode == ref.DUO:
            return 20
        return self.rounds * 10 * (self.players + 2)  # plays and at most 2 marker moves a trick

    def chance_width(self) -> int:
        return self.rounds * (len(self.cards) + 1)


def decode_table() -> tuple[str, ...]:
    """Action code -> reference notation."""
    plays = [str(refcards.PLAY[c]) for c in range(72)]
    return tuple(plays + ["move left", "move stay", "move right"])


DECODE = decode_table()


def code_of(action: Any) -> int:
    """The kernel's code of an engine action (play or move)."""
    if isinstance(action, refcards.Move):
        return MOVE0 + action.delta + 1
    return action.cid


def _kernel_bots(bots: Sequence[str]) -> np.ndarray:
    return np.array([BOTS[b] for b in bots], dtype=np.int64)


def run(tables: Tables, seeds: Sequence[int] | np.ndarray, bots: Sequence[str], *, record: bool = False,
        mutant: int = 0) -> dict[str, np.ndarray]:
    """Play one game per seed; the kernel's arrays (one row per game). With ``record``, also the
    legal lists at every position. ``mutant`` plays a wrong rule on purpose (the tests' check
    that a replay catches it): 1 lets a roofed house build (Y8.6), 2 gives the lead to the wrong
    player (standard: the first tied mover, Y9.2; duo: the captor, Y13.8)."""
    n = tables.players
    seeds = np.asarray(seeds, dtype=np.int64)
    g = len(seeds)
    top = tables.max_actions()
    cfg = tables.cfg
    out = {
        "chance": np.zeros((g, tables.chance_width()), np.int64),
        "actions": np.zeros((g, top), np.int16),
        "lengths": np.zeros(g, np.int64),
        "scores": np.zeros((g, n), np.int64),
        "starter": np.zeros(g, np.int64),
        "legal_buf": np.zeros((g, top * 10 if record else 1), np.int16),
        "legal_cnt": np.zeros((g, top if record else 1), np.int64),
        "legal_len": np.zeros(g, np.int64),
        "house_sizes": np.zeros((g, 3), np.int64),
    }
    kb = _kernel_bots(bots)
    if tables.mode == ref.DUO:
        _duo_batch(seeds, tables.cards, tables.size, tables.roof, tables.order, cfg.house_limit,
                   cfg.roofs_apply, cfg.collapsed_public, kb, mutant, record, out["chance"], out["actions"],
                   out["lengths"], out["legal_buf"], out["legal_cnt"], out["legal_len"], out["scores"],
                   out["starter"], out["house_sizes"])
    else:
        lo, hi = cfg.track
        _std_batch(seeds, n, tables.cards, tables.size, tables.roof, tables.rounds, cfg.dealer, cfg.rotate,
                   cfg.reset_marker, cfg.marker_start, lo, hi, cfg.capture_all, cfg.house_limit, cfg.last_entitled,
                   cfg.collapsed_public, kb, mutant, record, out["chance"], out["actions"], out["lengths"],
                   out["legal_buf"], out["legal_cnt"], out["legal_len"], out["scores"], out["starter"])
    return out


_TABLES: dict[tuple, Tables] = {}


def tables_for(players: int, mode: str, options: Mapping[str, Any]) -> Tables:
    """The (cached) tables of a mode, a player count and a resolved option set."""
    key = (players, mode, repr(sorted(options.items())))
    hit = _TABLES.get(key)
    if hit is None:
        hit = Tables(players, mode, options)
        if len(_TABLES) < 256:
            _TABLES[key] = hit
    return hit


def _reasons(tables: Tables, out: dict[str, np.ndarray], winners: np.ndarray) -> list[str]:
    """``outcome().reason`` of each game, worded as the engine words it (Y11.1; Y13.9, Y13.10)."""
    labels = tables.labels
    said: dict[tuple, str] = {}
    res = []
    if tables.mode == ref.DUO:
        a, b = labels
        for h0, h1, t in out["house_sizes"].tolist():
            text = said.get((h0, h1, t))
            if text is None:
                ws, why = refcards.duo_winners(h0, h1, t, (a, b))
                result = "it is a draw" if len(ws) == 2 else f"{labels[ws[0]]} wins"
                text = said[(h0, h1, t)] = (f"the NPC's house is {t}, the target; {a} has {h0} and {b} {h1}: {why}, "
                                            f"so {result} (rules Y13.9, Y13.10)")
            res.append(text)
        return res
    rounds = ref_plural(tables.rounds, "round")
    for sc, win in zip(out["scores"].tolist(), winners.tolist()):
        best = max(sc)
        key = (best, *win)
        text = said.get(key)
        if text is None:
            ws = [s for s, w in enumerate(win) if w]
            who = " and ".join(labels[s] for s in ws)
            share = " share the win" if len(ws) > 1 else " wins"
            text = said[key] = (f"{who}{share} with the highest total, {best} points after {rounds} "
                                f"(rule Y11.1)")
        res.append(text)
    return res


def play(seeds: np.ndarray, players: int, mode: str, options: Mapping[str, Any], bots: Sequence[str]) -> Batch:
    """The lane's entry point (see ``cardwidgets.fast``): one game per seed."""
    tables = tables_for(players, mode, options)
    out = run(tables, seeds, bots)
    g = len(seeds)
    lengths = out["lengths"]
    scores = out["scores"]
    if mode == ref.DUO:
        hs = out["house_sizes"]
        h0, h1, t = hs[:, 0], hs[:, 1], hs[:, 2]
        b0, b1 = h0 > t, h1 > t
        same = b0 == b1
        # Y13.10: neither or both burst: the larger (neither) or smaller (both) house; else who did not burst
        w0 = np.where(same, np.where(b0, h0 <= h1, h0 >= h1), ~b0)
        w1 = np.where(same, np.where(b0, h1 <= h0, h1 >= h0), b0)
        winners = np.stack([w0, w1], axis=1)
    else:
        winners = scores == scores.max(axis=1, keepdims=True)
    top = out["actions"].shape[1]
    actions = out["actions"][np.arange(top)[None, :] < lengths[:, None]].astype(np.int32)
    action_start = np.zeros(g + 1, np.int64)
    np.cumsum(lengths, out=action_start[1:])
    width = out["chance"].shape[1]
    return Batch(
        game=GAME, players=players, mode=mode, options=dict(options), bots=tuple(bots),
        seeds=np.asarray(seeds, dtype=np.int64), starter=out["starter"], winners=winners, scores=scores,
        length=lengths, aborted=np.zeros(g, bool), reasons=_reasons(tables, out, winners),
        actions=actions, action_start=action_start, chance=out["chance"].reshape(-1),
        chance_start=np.arange(g + 1, dtype=np.int64) * width, decode=DECODE,
    )
