"""Yadokarick in the fast lane: the rules of ``cardwidgets.games.yadokarick`` as numba kernels.

Covered: the standard mode (3 to 7 players) with the standard and advanced card sets,
the duo mode (2 players and the NPC) and the solo mode, each with every option (with
``placement_order="choose"`` a captor of several cards orders them: an arrangement's code
is ``ARR0`` plus its cards in base 73, renumbered per batch after ``len(DECODE)``). Bots: ``random`` and ``greedy`` (also named
``solo_greedy``): the heuristics of :class:`cardwidgets.bots.yadokarick.YadokarickGreedyBot`,
that is the same Monte Carlo look at the trick and the same values with ties broken
uniformly at random, and in solo the hint (:func:`cardwidgets.games.yadokarick.hint_from_view`),
which draws nothing at random, so the lane plays the reference bot's very moves.

A card is the engine's card id (``2 * (number - 1) + colour``, green 0, pink 1). An
action code is the card id for a play, ``72 + delta + 1`` for a marker move; in solo
see the codes above :func:`_accepts`. A game is recorded as its shuffles, as
:class:`cardwidgets.core.Recorded` takes them: the cards in use once a round
(standard), once (duo), each colour's deck (solo); and its actions.

The search bot's rollouts (``ISMCTSBot(engine="fast")``) play here too: :func:`rollout` loads a
sampled world of any mode (mid-trick, between marker moves, a later round; the duo NPC's deck
and the solo decks as the world dealt them) into the same game loops (``_std_run``,
``_duo_run``, ``_solo_run``) and scores the end as the search's Python rollout does.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
from numba import njit

from ..core import number as ref_number
from ..core import plural as ref_plural
from ..games import yadokarick as ref
from ..games.yadokarick import cards as refcards
from ..bots.ismcts import SOLO_PARTIAL, _soft_shares, solo_reward, win_shares
from . import Batch, Coverage, decisions
from ._arrays import flat, insort, record_legal, shuffle_into, starts, worded
from ._rng import below, stream

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


@njit(cache=True, inline="always")
def _collapse(who, k, limit, house, hlen, coll, size, loc):
    """Y8.4: house ``who`` holds ``k`` cards; those below its top ``limit`` collapse (their sizes counted).
    Inlined: called, it made a random 4-player batch 17 % slower."""
    over = k - limit
    if over > 0:
        for j in range(over):
            coll[who] += size[house[who, j]]
            loc[house[who, j]] = COLLAPSED + who
        for j in range(over, k):
            house[who, j - over] = house[who, j]
        k -= over
    hlen[who] = k


@njit(cache=True)
def _duo_judge(t, size):
    """Y13.6 on the three cards ``t``: ``(where the highest number is, the largest size)``."""
    pos = 0
    smax = 0
    for i in range(3):
        if t[i] > t[pos]:
            pos = i
        if size[t[i]] > smax:
            smax = size[t[i]]
    return pos, smax


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
    _collapse(who, k, limit, house, hlen, coll, size, loc)
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
    """Card ``j`` of seat ``s``'s hand (kept in card order) leaves it: returns the card."""
    c = hand[s, j]
    for i in range(j, hcnt[s] - 1):
        hand[s, i] = hand[s, i + 1]
    hcnt[s] -= 1
    return c


@njit(cache=True)
def _zones(seats, owners):
    """A game's empty zones: ``(hand, hcnt, house, hlen, coll, roofed, loc)``, hands for ``seats``,
    houses, collapsed sizes and roofed flags for ``owners``, every card's location ``OUT``."""
    return (np.zeros((seats, 10), np.int64), np.zeros(seats, np.int64), np.zeros((owners, HOUSE_CAP), np.int64),
            np.zeros(owners, np.int64), np.zeros(owners, np.int64), np.zeros(owners, np.int64),
            np.full(72, OUT, np.int64))


@njit(cache=True)
def _unpack_zones(v, j, size, hand, hcnt, house, hlen, coll, roofed, loc):
    """The hands, houses, collapsed piles and roofed flags of a rollout's vector from ``v[j]`` (as
    :func:`_vector_zones` writes them) into the zones; returns where the vector goes on."""
    for s in range(hcnt.shape[0]):
        m = v[j]
        j += 1
        hcnt[s] = m
        for i in range(m):
            hand[s, i] = v[j + i]
            loc[v[j + i]] = s
        j += m
    owners = hlen.shape[0]
    for w in range(owners):
        m = v[j]
        j += 1
        hlen[w] = m
        for i in range(m):
            house[w, i] = v[j + i]
            loc[v[j + i]] = HOUSE
        j += m
    for w in range(owners):
        m = v[j]
        j += 1
        for i in range(m):
            coll[w] += size[v[j + i]]
            loc[v[j + i]] = COLLAPSED + w
        j += m
    for w in range(owners):
        roofed[w] = v[j + w]
    return j + owners


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


# --------------------------------------------------------------------------- standard: a game from a position
# The scalars of a standard position (``P``, int64): the round (from 0), the dealer, the marker, the trick (1-10),
# its leader, the phase (0 play, 1 marker), the cards in the trick, the movers and the next of them, how many
# really moved, whether the game is over, the actions, legal entries and chance entries written so far,
# whether a round is to be dealt before the next action, the captures to arrange and the next of them (phase 2,
# ``placement_order="choose"``: ``pend[q]`` = captor, number of cards, the cards in play order).
P_RND, P_DEALER, P_MARKER, P_TRICK, P_LEADER, P_PHASE, P_NPOS, P_NM, P_KM, P_NMOVED, P_OVER, P_NA, P_NL, P_NC, \
    P_DEAL, P_NPEND, P_KP = range(17)
P_SIZE = 17
#: An arrangement's action code: ARR0 + the sum of (card + 1) * 73 ** i over its cards, bottom first (int64).
ARR0 = 75


@njit(cache=True)
def _place_as(who, order, k, house, hlen, coll, roofed, size, roof, limit, loc):
    """Y8.3: place captured cards in the order the captor chose (``placement_order="choose"``), then as
    ``_build``: collapse past the limit, a roof card roofs the house."""
    j = hlen[who]
    has_roof = False
    for i in range(k):
        house[who, j] = order[i]
        loc[order[i]] = HOUSE
        j += 1
        if roof[order[i]]:
            has_roof = True
    _collapse(who, j, limit, house, hlen, coll, size, loc)
    if has_roof:
        roofed[who] = 1


@njit(cache=True)
def _nth_order(pend, q, r, out):
    """``out[:k]`` := the ``r``-th order of capture ``q``'s cards in ``itertools.permutations`` order."""
    k = pend[q, 1]
    avail = np.empty(k, np.int64)
    for i in range(k):
        avail[i] = pend[q, 2 + i]
    left = k
    f = 1
    for i in range(2, k):
        f *= i
    for i in range(k):
        idx = r // f
        r = r % f
        out[i] = avail[idx]
        for j in range(idx, left - 1):
            avail[j] = avail[j + 1]
        left -= 1
        if left > 1:
            f //= left


@njit(cache=True)
def _order_code(order, k):
    code = np.int64(0)
    mult = np.int64(1)
    for i in range(k):
        code += (order[i] + 1) * mult
        mult *= 73
    return ARR0 + code


@njit(cache=True)
def _std_run(rng, P, n, cards, size, roof, rounds, rotate, reset, mstart, lo, hi, capture_all, limit,
             last_entitled, coll_public, choose, bots, hand, hcnt, house, hlen, coll, roofed, totals, loc, trick,
             movers, moved, pend, steps, stop_round, record, chance, actions, legal_buf, legal_cnt):
    """Play a standard game on from the position in the arrays (``P`` and the zones) until it is over, or
    ``steps`` actions were played (``steps >= 0``), or (``stop_round``) a new round was dealt; the position
    is left in the arrays. A game from its deal is the position "round 0 to be dealt"."""
    C = cards.shape[0]
    gain = GAIN3 if n == 3 else GAIN
    perm = np.empty(C, np.int64)
    got = np.empty(8, np.int64)
    pool = np.empty(72, np.int64)
    draws = np.empty(SAMPLES * 8, np.int64)
    full = np.empty(8, np.int64)
    vals = np.empty(10, np.float64)
    legal = np.empty(10, np.int64)
    rnd = P[P_RND]
    dealer = P[P_DEALER]
    marker = P[P_MARKER]
    trick_no = P[P_TRICK]
    leader = P[P_LEADER]
    phase = P[P_PHASE]
    npos = P[P_NPOS]
    nm = P[P_NM]
    km = P[P_KM]
    nmoved = P[P_NMOVED]
    na = P[P_NA]
    nl = P[P_NL]
    nc = P[P_NC]
    deal = P[P_DEAL]
    over = P[P_OVER]
    npend = P[P_NPEND]
    kp = P[P_KP]
    order = np.empty(8, np.int64)
    full_order = np.empty(8, np.int64)
    na0 = na  # this call's actions: na - na0
    stop = False
    while not over and not stop:
        if deal:
            # Y2.6: shuffle the cards in use, deal 10 each from the dealer's left, set the rest aside
            nc = shuffle_into(rng, perm, C, chance, nc)
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
                    insort(hand, hcnt, s, c)  # a hand is kept in card order
                    loc[c] = s
                else:
                    loc[c] = ASIDE
            if rnd == 0 or reset:
                marker = mstart
            leader = start
            trick_no = 1
            phase = 0
            npos = 0
            deal = 0
            if stop_round:  # the round changed: a rollout of depth "round" stops before the next action
                break
        while trick_no <= 10:
            if phase == 0:
                # Y4.2: everyone plays a card, any card
                for i in range(npos, n):
                    if steps >= 0 and na - na0 >= steps:
                        npos = i
                        stop = True
                        break
                    s = (leader + i) % n
                    m = hcnt[s]
                    if bots[s] == 0 or m == 1:
                        ch = _below(rng, m) if m > 1 else 0
                    else:
                        ch = _std_greedy_play(rng, s, n, hand, hcnt, trick, i, cards, loc, size, roof, house, hlen,
                                              coll, roofed, marker, trick_no, limit, capture_all, coll_public, gain,
                                              pool, draws, full, got, vals)
                    if record:
                        nl = record_legal(hand[s], m, legal_buf, legal_cnt, na, nl)
                    c = _remove(hand, hcnt, s, ch)
                    actions[na] = c
                    na += 1
                    trick[i] = c
                    loc[c] = TRICK
                if stop:
                    break
                # Y5 / Y6: the movers and the captures
                npend = 0
                kp = 0
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
                    elif choose and ng > 1:  # Y8.3: the captor arranges them
                        pend[0, 0] = who
                        pend[0, 1] = ng
                        for j in range(ng):
                            pend[0, 2 + j] = got[j]
                            loc[got[j]] = HOUSE
                        npend = 1
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
                        if roofed[who]:  # Y8.6: a roofed house takes nothing, its captures are discarded
                            for j in range(ng):
                                loc[got[j]] = DISCARD
                        elif choose and ng > 1:  # Y8.3: the captor arranges them
                            pend[npend, 0] = who
                            pend[npend, 1] = ng
                            for j in range(ng):
                                pend[npend, 2 + j] = got[j]
                                loc[got[j]] = HOUSE
                            npend += 1
                        else:
                            _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, True, loc)
                for i in range(n):
                    if loc[trick[i]] == TRICK:
                        loc[trick[i]] = DISCARD
                npos = 0
                phase = 2 if npend else 1
                km = 0
                nmoved = 0
            if phase == 2:
                # Y8.3: each captor of more than one card chooses their order, bottom to top
                for q in range(kp, npend):
                    if steps >= 0 and na - na0 >= steps:
                        kp = q
                        stop = True
                        break
                    who = pend[q, 0]
                    k = pend[q, 1]
                    nperm = 1
                    for i in range(2, k + 1):
                        nperm *= i
                    if bots[who] == 0:
                        _nth_order(pend, q, _below(rng, nperm), order)
                    else:
                        # bots.yadokarick._arrange: small sizes at the bottom, roofs on top (a stable sort)
                        for i in range(k):
                            order[i] = pend[q, 2 + i]
                        for i in range(1, k):
                            c = order[i]
                            j = i
                            while j > 0 and (roof[order[j - 1]] > roof[c] or (roof[order[j - 1]] == roof[c]
                                                                               and size[order[j - 1]] > size[c])):
                                order[j] = order[j - 1]
                                j -= 1
                            order[j] = c
                    if record:
                        for r in range(nperm):
                            _nth_order(pend, q, r, full_order)
                            legal_buf[nl + r] = _order_code(full_order, k)
                        legal_cnt[na] = nperm
                        nl += nperm
                    actions[na] = _order_code(order, k)
                    na += 1
                    _place_as(who, order, k, house, hlen, coll, roofed, size, roof, limit, loc)
                if stop:
                    break
                phase = 1
                npend = 0
                kp = 0
            # Y7: the movers, in play order
            for k in range(km, nm):
                if steps >= 0 and na - na0 >= steps:
                    km = k
                    stop = True
                    break
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
                    nl = record_legal(legal, m, legal_buf, legal_cnt, na, nl)
                actions[na] = legal[ch]
                na += 1
                d = legal[ch] - MOVE0 - 1
                marker += d
                if d != 0:
                    moved[nmoved] = p
                    nmoved += 1
            if stop:
                break
            # Y9: the last entitled mover leads (or the last who really moved)
            if last_entitled or nmoved == 0:
                leader = movers[nm - 1]
            else:
                leader = moved[nmoved - 1]
            phase = 0
            km = 0
            nm = 0
            nmoved = 0
            trick_no += 1
        if stop:
            break
        # Y10: the round's scores
        for s in range(n):
            totals[s] += _round_score(_house_size(s, house, hlen, size), coll[s], marker)
        if rotate:
            dealer = (dealer + 1) % n
        rnd += 1
        if rnd >= rounds:
            over = 1
        else:
            deal = 1
    P[P_RND] = rnd
    P[P_DEALER] = dealer
    P[P_MARKER] = marker
    P[P_TRICK] = trick_no
    P[P_LEADER] = leader
    P[P_PHASE] = phase
    P[P_NPOS] = npos
    P[P_NM] = nm
    P[P_KM] = km
    P[P_NMOVED] = nmoved
    P[P_OVER] = over
    P[P_NA] = na
    P[P_NL] = nl
    P[P_NC] = nc
    P[P_DEAL] = deal
    P[P_NPEND] = npend
    P[P_KP] = kp


@njit(cache=True)
def _std_game(seed, n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi, capture_all, limit,
              last_entitled, coll_public, choose, bots, record, chance, actions, legal_buf, legal_cnt, scores,
              starter):
    rng = stream(seed)
    P = np.zeros(P_SIZE, np.int64)
    P[P_DEALER] = dealer
    P[P_MARKER] = mstart
    P[P_DEAL] = 1
    totals = np.zeros(n, np.int64)
    starter[0] = (dealer + 1) % n
    hand, hcnt, house, hlen, coll, roofed, loc = _zones(n, n)
    _std_run(rng, P, n, cards, size, roof, rounds, rotate, reset, mstart, lo, hi, capture_all, limit,
             last_entitled, coll_public, choose, bots, hand, hcnt, house, hlen, coll, roofed, totals, loc,
             np.empty(n, np.int64), np.empty(2, np.int64), np.empty(2, np.int64), np.empty((2, 9), np.int64), -1,
             False, record, chance, actions, legal_buf, legal_cnt)
    for s in range(n):
        scores[s] = totals[s]
    return P[P_NA], P[P_NL]

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
            cpos, smax = _duo_judge(full, size)
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


# The scalars of a duo position (``D``): the trick (1-10), its lead (a table position), the cards in the trick,
# the NPC deck's top (an index into its array), the actions and legal entries written, whether the game is over.
D_TRICK, D_LEAD, D_K, D_TOP, D_NA, D_NL, D_OVER = range(7)
D_SIZE = 7


@njit(cache=True)
def _duo_run(rng, D, order, cards, size, roof, limit, roofs_apply, coll_public, bots, hand, hcnt, house, hlen,
             coll, roofed, loc, npc, trick, twho, steps, record, actions, legal_buf, legal_cnt):
    """Play a duo game on from the position in the arrays (``D`` and the zones) until it is over or ``steps``
    player actions were played (``steps >= 0``); the NPC's cards are turned over as they come (Y13.5)."""
    got = np.empty(3, np.int64)
    pool = np.empty(72, np.int64)
    draws = np.empty(SAMPLES * 8, np.int64)
    full = np.empty(8, np.int64)
    vals = np.empty(10, np.float64)
    trick_no = D[D_TRICK]
    lead = D[D_LEAD]
    k0 = D[D_K]
    top = D[D_TOP]
    na = D[D_NA]
    nl = D[D_NL]
    na0 = na  # this call's actions: na - na0
    stop = False
    while trick_no <= 10:
        for k in range(k0, 3):
            who = order[(lead + k) % 3]
            twho[k] = who
            if who == NPC:  # Y13.5: the top card of the NPC deck
                c = npc[top]
                top += 1
            else:
                if steps >= 0 and na - na0 >= steps:
                    k0 = k
                    stop = True
                    break
                m = hcnt[who]
                if bots[who] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    ch = _duo_greedy_play(rng, who, hand, hcnt, trick, twho, k, order, lead, cards, loc, size, roof,
                                          house, hlen, roofed, trick_no, limit, roofs_apply, coll_public, pool,
                                          draws, full, vals)
                if record:
                    nl = record_legal(hand[who], m, legal_buf, legal_cnt, na, nl)
                c = _remove(hand, hcnt, who, ch)
                actions[na] = c
                na += 1
            trick[k] = c
            loc[c] = TRICK
        if stop:
            break
        k0 = 0
        # Y13.6: the highest number captures the cards of the largest size
        pos, smax = _duo_judge(trick, size)
        ng = 0
        for i in range(3):
            if size[trick[i]] == smax:
                got[ng] = trick[i]
                ng += 1
        who = twho[pos]
        if not roofed[who]:  # Y8.6: a roofed house takes nothing
            _build(who, got, ng, house, hlen, coll, roofed, size, roof, limit, roofs_apply, loc)
        for i in range(3):
            if loc[trick[i]] == TRICK:
                loc[trick[i]] = DISCARD
        lead = (lead + pos + 1) % 3  # Y13.8: the seat left of the captor leads
        trick_no += 1
    D[D_TRICK] = trick_no
    D[D_LEAD] = lead
    D[D_K] = k0
    D[D_TOP] = top
    D[D_NA] = na
    D[D_NL] = nl
    D[D_OVER] = 0 if stop else 1


@njit(cache=True)
def _duo_game(seed, cards, size, roof, order, limit, roofs_apply, coll_public, bots, record, chance, actions,
              legal_buf, legal_cnt, scores, starter, hsizes):
    rng = stream(seed)
    C = cards.shape[0]
    hand, hcnt, house, hlen, coll, roofed, loc = _zones(2, 3)
    perm = np.empty(C, np.int64)
    deal = np.empty(C, np.int64)
    # Y13.2, Y13.13: 10 cards to each player alternately, the first player in table order first
    shuffle_into(rng, perm, C, chance, 0)
    for i in range(C):
        deal[i] = cards[perm[i]]
    first = 0 if (order[0] == 0 or (order[0] == NPC and order[1] == 0)) else 1
    for p in range(C):
        c = deal[p]
        if p < 20:
            s = first if p % 2 == 0 else 1 - first
            insort(hand, hcnt, s, c)
            loc[c] = s
        else:
            loc[c] = NPC_DECK
    starter[0] = order[0] if order[0] != NPC else order[1]
    D = np.zeros(D_SIZE, np.int64)
    D[D_TRICK] = 1
    D[D_TOP] = 20  # the NPC deck's top card
    _duo_run(rng, D, order, cards, size, roof, limit, roofs_apply, coll_public, bots, hand, hcnt, house, hlen, coll,
             roofed, loc, deal, np.empty(3, np.int64), np.empty(3, np.int64), -1, record, actions, legal_buf,
             legal_cnt)
    for w in range(3):
        hsizes[w] = _house_size(w, house, hlen, size)
    scores[0] = hsizes[0]
    scores[1] = hsizes[1]
    return D[D_NA], D[D_NL]


# --------------------------------------------------------------------------- solo (Y14)
# Action codes: place c on crab k: 4 * c + k; give up k: 288 + k; draw green / pink: 292, 293;
# take c: 294 + c; decline: 366; the first row's colour green / pink: 367, 368.
GIVEUP0, DRAW0, TAKE0, DECLINE, ROW0 = 288, 292, 294, 366, 367
S_SETUP, S_COLOUR, S_TURN, S_REFILL, S_BONUS, S_OVER = range(6)


@njit(cache=True)
def _accepts(k, c, filled, roof, top, bottom, nonstrict):
    """Y14.5-Y14.7: may card ``c`` go on crab ``k`` (its state: filled, roof mode, top, bottom)?"""
    col = c & 1
    if (k == 0 and col) or (k == 3 and not col):
        return False
    if not filled:
        return True
    ref = bottom if roof else top
    if (k == 1 or k == 2) and (ref & 1) == col:
        return False
    if roof:
        return (c >> 1 >= ref >> 1) if nonstrict else (c >> 1 > ref >> 1)
    return c >> 1 <= ref >> 1


@njit(cache=True)
def _crab_accepts(k, c, crab, clen, roofm, nonstrict):
    n = clen[k]
    return _accepts(k, c, n > 0, roofm[k] != 0, crab[k, n - 1] if n else -1, crab[k, 0] if n else -1, nonstrict)


@njit(cache=True)
def _dfs(k, filled, roof, top, bottom, row, rlen, need, roofs, nonstrict):
    """solo._dfs: can ``need`` row cards go on crab ``k`` one after another? A depth-first search
    with its own stack (numba's disk cache does not take recursive functions)."""
    fs = np.empty(8, np.int64)
    rs = np.empty(8, np.int64)
    ts = np.empty(8, np.int64)
    bs = np.empty(8, np.int64)
    us = np.empty(8, np.int64)
    nxt = np.empty(8, np.int64)
    d = 0
    fs[0], rs[0], ts[0], bs[0], us[0], nxt[0] = filled, roof, top, bottom, 0, 0
    while d >= 0:
        i = nxt[d]
        if i >= rlen:
            d -= 1
            continue
        nxt[d] = i + 1
        if us[d] >> i & 1:
            continue
        c = row[i]
        if not _accepts(k, c, fs[d] != 0, rs[d] != 0, ts[d], bs[d], nonstrict):
            continue
        if need - d == 1:
            return True
        if not fs[d]:
            t, b = c, c
        elif rs[d]:
            t, b = ts[d], c
        else:
            t, b = c, bs[d]
        d += 1
        fs[d] = 1
        rs[d] = 1 if (rs[d - 1] or roofs[c]) else 0
        ts[d] = t
        bs[d] = b
        us[d] = us[d - 1] | (1 << i)
        nxt[d] = 0
    return False


@njit(cache=True)
def _can_finish_any(crab, clen, roofm, row, rlen, complete, roofs, nonstrict):
    """Y14.13: can some crab still be finished with the row cards alone?"""
    for k in range(4):
        n = clen[k]
        need = complete - n
        if need <= 0:
            return True
        if need > rlen:
            continue
        if _dfs(k, 1 if n > 0 else 0, roofm[k], crab[k, n - 1] if n else -1, crab[k, 0] if n else -1, row, rlen,
                need, roofs, nonstrict):
            return True
    return False


@njit(cache=True)
def _room(k, crab, clen, roof, pool, npool, roofs, nonstrict, used):
    """solo._room: how many pool cards could still go on the crab, one after another, greedily."""
    n = clen
    if n == 0:
        cnt = 0
        for j in range(npool):
            if _accepts(k, pool[j], False, False, -1, -1, nonstrict):
                cnt += 1
        return cnt
    top = crab[n - 1]
    bottom = crab[0]
    r = roof
    for j in range(npool):
        used[j] = 0
    count = 0
    while True:
        # normal mode: numbers go down, the highest fitting card first; roof mode: up, the lowest
        best = -1
        for j in range(npool):
            if used[j]:
                continue
            c = pool[j]
            if not _accepts(k, c, True, r, top, bottom, nonstrict):
                continue
            if best < 0 or (c < pool[best] if r else c > pool[best]):
                best = j
        if best < 0:
            return count
        used[best] = 1
        count += 1
        c = pool[best]
        if r:
            bottom = c
        else:
            top = c
            if roofs[c]:
                r = True


@njit(cache=True)
def _worth(k, stack, n, roof, pool, npool, roofs, nonstrict, complete, left, used, out):
    """solo._hint_turn's worth: (value, dead) of a crab's stack (``stack[:n]``, bottom to top)."""
    if n == 0:
        out[0] = 6.0 * min(1.0, left / 20)
        out[1] = 0.0
        return
    need = complete - n
    room = _room(k, stack, n, roof, pool, npool, roofs, nonstrict, used)
    if room < need:
        out[0] = -2.0
        out[1] = 1.0
        return
    nxt = 0
    for j in range(npool):
        if _accepts(k, pool[j], True, roof, stack[n - 1], stack[0], nonstrict):
            nxt += 1
    out[0] = 3.0 * n + 3.0 * np.log1p(nxt / need)
    out[1] = 0.0


@njit(cache=True)
def _solo_greedy(phase, legal, m, crab, clen, roofm, row, rlen, deck, dtop, size, roofs, nonstrict, complete):
    """solo.hint_from_view: the index in ``legal`` of the hint's action (no randomness)."""
    ncards = deck.shape[1]
    if phase == S_SETUP or phase == S_REFILL or phase == S_COLOUR:
        sc = np.zeros(2, np.float64)
        for colour in range(2):
            cnt = 0
            fits = 0
            for d in range(2):
                for j in range(dtop[d], ncards):
                    c = deck[d, j]
                    if c >= 0 and c & 1 == colour:
                        cnt += 1
                        for k in range(4):
                            if _crab_accepts(k, c, crab, clen, roofm, nonstrict):
                                fits += 1
            sc[colour] = -1.0 if cnt == 0 else fits / cnt
        best = 0 if sc[0] >= sc[1] else 1
        for j in range(m):
            code = legal[j]
            colour = code - DRAW0 if code < TAKE0 else code - ROW0
            if colour == best:
                return j
        return 0
    if phase == S_BONUS:
        bj = -1
        bs = 0
        bf = 0
        for j in range(m):
            if legal[j] == DECLINE:
                continue
            c = legal[j] - TAKE0
            f = 0
            for k in range(4):
                if _crab_accepts(k, c, crab, clen, roofm, nonstrict):
                    f += 1
            if bj < 0 or size[c] > bs or (size[c] == bs and -f > -bf):
                bj, bs, bf = j, size[c], f
        return bj
    # the turn: every placement and give-up scored by what it does to its crab
    pool = np.empty(80, np.int64)
    npool = 0
    for d in range(2):
        for j in range(dtop[d], ncards):
            if deck[d, j] >= 0:
                pool[npool] = deck[d, j]
                npool += 1
    left = npool
    for j in range(rlen):
        pool[npool] = row[j]
        npool += 1
    used = np.zeros(80, np.int64)
    out = np.zeros(2, np.float64)
    before = np.zeros((4, 2), np.float64)
    for k in range(4):
        _worth(k, crab[k], clen[k], roofm[k] != 0, pool, npool, roofs, nonstrict, complete, left, used, out)
        before[k, 0] = out[0]
        before[k, 1] = out[1]
    any_place = False
    for j in range(m):
        if legal[j] < GIVEUP0:
            any_place = True
    stack = np.empty(crab.shape[1] + 1, np.int64)
    pool2 = np.empty(80, np.int64)
    best = -1
    best_v = -1e9
    for j in range(m):
        code = legal[j]
        if code < GIVEUP0:
            c = code >> 2
            k = code & 3
            n = clen[k]
            if n + 1 >= complete:
                pts = size[c]
                for i in range(n):
                    pts += size[crab[k, i]]
                v = 100.0 + pts
            else:
                roof = roofm[k] != 0
                if roof:
                    stack[0] = c
                    for i in range(n):
                        stack[i + 1] = crab[k, i]
                else:
                    for i in range(n):
                        stack[i] = crab[k, i]
                    stack[n] = c
                np2 = 0
                for i in range(npool):
                    if pool[i] != c:
                        pool2[np2] = pool[i]
                        np2 += 1
                _worth(k, stack, n + 1, roof or roofs[c] != 0, pool2, np2, roofs, nonstrict, complete, left, used,
                       out)
                was_dead = before[k, 1] != 0.0
                v = out[0] - before[k, 0] + (-0.3 if was_dead else 0.25) * size[c]
        else:
            k = code - GIVEUP0
            pen = 0
            for i in range(clen[k]):
                pen += size[crab[k, i]]
            _worth(k, stack, 0, False, pool, npool, roofs, nonstrict, complete, left, used, out)
            v = out[0] - before[k, 0] - pen
            if not any_place:
                v += 1000.0
        if v > best_v:
            best = j
            best_v = v
    return best


@njit(cache=True)
def _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup, bonus):
    """solo._fill: fill the row to 5 cards; stop for a choice of deck or a bonus (st: phase, row
    length, setup, setup colour, bonus used, bonus size)."""
    st[0] = S_REFILL
    ncards = deck.shape[1]
    while st[1] < 5:
        g = dtop[0] < ncards and deck[0, dtop[0]] >= 0
        p = dtop[1] < ncards and deck[1, dtop[1]] >= 0
        if not g and not p:
            break
        sc = st[3]
        if st[2] and sc >= 0:
            colour = sc if (g if sc == 0 else p) else 1 - sc
        elif g and p:
            st[0] = S_SETUP if st[2] else S_REFILL
            return
        else:
            colour = 0 if g else 1
        _solo_draw(st, colour, row, deck, dtop, chain, on_setup, bonus)
        if st[0] == S_BONUS:
            return
    if st[2]:
        st[2] = 0
    _solo_end_check(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict)


@njit(cache=True)
def _solo_draw(st, colour, row, deck, dtop, chain, on_setup, bonus):
    """solo._draw: the deck's top card joins the row; a neighbour number of its colour offers a bonus."""
    c = deck[colour, dtop[colour]]
    dtop[colour] += 1
    row[st[1]] = c
    st[1] += 1
    near = False
    for i in range(st[1]):
        if row[i] == c - 2 or row[i] == c + 2:
            near = True
    if near and (not st[2] or on_setup) and (chain or not st[4]):
        nb = 0
        for i in range(st[1]):
            x = row[i]
            if x == c or x == c - 2 or x == c + 2:
                bonus[nb] = x
                nb += 1
        if nb > 1:
            st[5] = nb
            st[0] = S_BONUS


@njit(cache=True)
def _solo_end_check(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict):
    ncards = deck.shape[1]
    g = dtop[0] < ncards and deck[0, dtop[0]] >= 0
    p = dtop[1] < ncards and deck[1, dtop[1]] >= 0
    if g or p or _can_finish_any(crab, clen, roofm, row, st[1], complete, roofs, nonstrict):
        st[0] = S_TURN
    else:
        st[0] = S_OVER


@njit(cache=True)
def _row_remove(st, row, c):
    n = st[1]
    j = 0
    for i in range(n):
        if row[i] != c:
            row[j] = row[i]
            j += 1
    st[1] = j


# The state of a solo position (``st``, int64): the phase, the row's length, whether the first row is being laid
# out, its colour (-1: none chosen), whether a bonus was taken since the last placement, the bonus group's size,
# the score and penalty piles' sizes, the actions and legal entries written.
S_PLUS, S_MINUS, S_NA, S_NL = 6, 7, 8, 9
S_SIZE = 10


@njit(cache=True)
def _solo_run(rng, st, cards, size, roofs, nonstrict, complete, chain, on_setup, bot, deck, dtop, row, crab, clen,
              roofm, bonus, steps, record, actions, legal_buf, legal_cnt):
    """Play a solo game on from the position in the arrays until it is over or ``steps`` actions were played
    (``steps >= 0``). Bots: 0 random, 1 the hint, 2 random without give-ups and declines unless forced."""
    width = deck.shape[1]
    legal = np.zeros(300, np.int64)
    useful = np.zeros(300, np.int64)
    plus = st[S_PLUS]
    minus = st[S_MINUS]
    na = st[S_NA]
    nl = st[S_NL]
    na0 = na  # this call's actions: na - na0
    while st[0] != S_OVER:
        if steps >= 0 and na - na0 >= steps:
            break
        ph = st[0]
        m = 0
        if ph == S_TURN:
            for k in range(4):
                for i in range(st[1]):
                    if _crab_accepts(k, row[i], crab, clen, roofm, nonstrict):
                        legal[m] = 4 * row[i] + k
                        m += 1
            for k in range(4):
                if clen[k] > 0:
                    legal[m] = GIVEUP0 + k
                    m += 1
        elif ph == S_SETUP or ph == S_REFILL:
            for colour in range(2):
                if dtop[colour] < width:
                    legal[m] = DRAW0 + colour
                    m += 1
        elif ph == S_BONUS:
            for i in range(st[5]):
                legal[m] = TAKE0 + bonus[i]
                m += 1
            legal[m] = DECLINE
            m += 1
        else:
            legal[0] = ROW0
            legal[1] = ROW0 + 1
            m = 2
        if bot == 0:
            ch = _below(rng, m) if m > 1 else 0
        elif bot == 2:
            # ismcts._solo_random: a give-up or a declined bonus only when nothing else is legal
            nu = 0
            for j in range(m):
                if not ((legal[j] >= GIVEUP0 and legal[j] < DRAW0) or legal[j] == DECLINE):
                    useful[nu] = j
                    nu += 1
            if nu == 0:
                ch = _below(rng, m) if m > 1 else 0
            else:
                ch = useful[_below(rng, nu)] if nu > 1 else useful[0]
        else:
            ch = _solo_greedy(ph, legal, m, crab, clen, roofm, row, st[1], deck, dtop, size, roofs, nonstrict,
                              complete)
        if record:
            nl = record_legal(legal, m, legal_buf, legal_cnt, na, nl)
        code = legal[ch]
        actions[na] = code
        na += 1
        if code < GIVEUP0:  # Y14.4-Y14.8: place
            c = code >> 2
            k = code & 3
            _row_remove(st, row, c)
            n = clen[k]
            if roofm[k]:
                for i in range(n, 0, -1):
                    crab[k, i] = crab[k, i - 1]
                crab[k, 0] = c
            else:
                crab[k, n] = c
            clen[k] = n + 1
            if roofs[c] and not roofm[k]:
                roofm[k] = 1
            st[4] = 0
            if clen[k] >= complete:
                for i in range(clen[k]):
                    plus += size[crab[k, i]]
                clen[k] = 0
                roofm[k] = 0
            both = dtop[0] < width and dtop[1] < width
            if st[1] == 4 and both and not st[2]:
                st[0] = S_REFILL
            else:
                _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup,
                           bonus)
        elif code < DRAW0:  # Y14.11: give up
            k = code - GIVEUP0
            for i in range(clen[k]):
                minus += size[crab[k, i]]
            clen[k] = 0
            roofm[k] = 0
            _solo_end_check(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict)
        elif code < TAKE0:  # Y14.2, Y14.9: draw
            _solo_draw(st, code - DRAW0, row, deck, dtop, chain, on_setup, bonus)
            if st[0] != S_BONUS:
                if st[1] == 5 and not st[2] and (dtop[0] < width or dtop[1] < width):
                    st[0] = S_TURN
                else:
                    _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup,
                               bonus)
        elif code < DECLINE:  # Y14.10: take a bonus card
            c = code - TAKE0
            _row_remove(st, row, c)
            plus += size[c]  # Y14.10: the bonus card scores
            st[5] = 0
            st[4] = 1
            _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup, bonus)
        elif code == DECLINE:
            st[5] = 0
            _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup, bonus)
        else:  # the first row's colour
            st[3] = code - ROW0
            _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup, bonus)
    st[S_PLUS] = plus
    st[S_MINUS] = minus
    st[S_NA] = na
    st[S_NL] = nl


@njit(cache=True)
def _solo_game(seed, cards, size, roofs, one_color, nonstrict, complete, chain, on_setup, bot, record,
               chance, actions, legal_buf, legal_cnt, scores):
    rng = stream(seed)
    # Y14.2: each colour shuffled into its own deck, top card first
    ncol = np.zeros(2, np.int64)
    for c in cards:
        ncol[c & 1] += 1
    width = max(ncol[0], ncol[1])
    deck = np.full((2, width), -1, np.int64)
    perm = np.empty(width, np.int64)
    nc = 0
    for colour in range(2):
        mine = np.empty(ncol[colour], np.int64)
        k = 0
        for c in cards:
            if c & 1 == colour:
                mine[k] = c
                k += 1
        nc = shuffle_into(rng, perm, k, chance, nc)
        for i in range(k):
            deck[colour, i] = mine[perm[i]]
    dtop = np.zeros(2, np.int64)
    for colour in range(2):
        dtop[colour] = width - ncol[colour]  # a short deck's cards sit at its end
        for i in range(ncol[colour] - 1, -1, -1):
            deck[colour, dtop[colour] + i] = deck[colour, i]
        for i in range(dtop[colour]):
            deck[colour, i] = -1
    row = np.zeros(8, np.int64)
    crab = np.zeros((4, complete + 1), np.int64)
    clen = np.zeros(4, np.int64)
    roofm = np.zeros(4, np.int64)
    bonus = np.zeros(8, np.int64)
    st = np.zeros(S_SIZE, np.int64)
    st[2] = 1
    st[3] = -1
    if one_color:
        st[0] = S_COLOUR
    else:
        _solo_fill(st, row, deck, dtop, crab, clen, roofm, complete, roofs, nonstrict, chain, on_setup, bonus)
    _solo_run(rng, st, cards, size, roofs, nonstrict, complete, chain, on_setup, bot, deck, dtop, row, crab, clen,
              roofm, bonus, -1, record, actions, legal_buf, legal_cnt)
    scores[0] = st[S_PLUS] - st[S_MINUS]
    scores[1] = st[S_PLUS]
    scores[2] = st[S_MINUS]
    return st[S_NA], st[S_NL]


# --------------------------------------------------------------------------- batches
@njit(cache=True)
def _std_batch(seeds, n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi, capture_all, limit,
               last_entitled, coll_public, choose, bots, record, chance, actions, lengths, legal_buf, legal_cnt,
               legal_len, scores, starter):
    for g in range(seeds.shape[0]):
        na, nl = _std_game(seeds[g], n, cards, size, roof, rounds, dealer, rotate, reset, mstart, lo, hi,
                           capture_all, limit, last_entitled, coll_public, choose, bots, record, chance[g],
                           actions[g], legal_buf[g], legal_cnt[g], scores[g], starter[g:g + 1])
        lengths[g] = na
        legal_len[g] = nl


@njit(cache=True)
def _duo_batch(seeds, cards, size, roof, order, limit, roofs_apply, coll_public, bots, record, chance,
               actions, lengths, legal_buf, legal_cnt, legal_len, scores, starter, hsizes):
    for g in range(seeds.shape[0]):
        na, nl = _duo_game(seeds[g], cards, size, roof, order, limit, roofs_apply, coll_public, bots, record,
                           chance[g], actions[g], legal_buf[g], legal_cnt[g], scores[g], starter[g:g + 1],
                           hsizes[g])
        lengths[g] = na
        legal_len[g] = nl


@njit(cache=True)
def _solo_batch(seeds, cards, size, roofs, one_color, nonstrict, complete, chain, on_setup, bot, record,
                chance, actions, lengths, legal_buf, legal_cnt, legal_len, scores):
    for g in range(seeds.shape[0]):
        na, nl = _solo_game(seeds[g], cards, size, roofs, one_color, nonstrict, complete, chain, on_setup, bot,
                            record, chance[g], actions[g], legal_buf[g], legal_cnt[g], scores[g])
        lengths[g] = na
        legal_len[g] = nl


# --------------------------------------------------------------------------- from Python
COVERAGE = Coverage(
    modes={ref.STANDARD: (3, 4, 5, 6, 7), ref.DUO: (2,), ref.SOLO: (1,)},
    options={
        **{name: None for name in (
            "size_table", "roof_numbers", "size_track", "marker_start", "reset_marker_each_round",
            "three_player_color", "three_player_capture", "house_limit", "tie_leader", "dealer", "dealer_rotation",
            "rounds", "card_set", "collapsed_visibility", "duo_color", "npc_seat", "duo_first_leader", "duo_roofs",
            "solo_removed", "solo_initial_row", "solo_roof_insert_nonstrict", "solo_house_complete",
            "solo_bonus_chain", "solo_bonus_on_setup")},
        "placement_order": None,
    },
    # solo_greedy plays the same heuristics as greedy in every mode
    bots={"random": "random", "greedy": "greedy", "solo_greedy": "greedy"},
)


class Tables:
    """The kernel's arrays for one mode, player count and option set (from the engine's ``Config``)."""

    decode: tuple[str, ...]

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
        self.decode = DECODE_SOLO if mode == ref.SOLO else DECODE
        self.cfg = cfg
        self.order = np.array(cfg.order if mode == ref.DUO else (0, 0, 0), dtype=np.int64)
        self.choose = mode == ref.STANDARD and cfg.choose
        #: rollout policy -> the kernel's bot kind of each seat
        self.kinds: dict[str, np.ndarray] = {}
        if mode == ref.STANDARD:  # the settings _std_rollout takes, in its order
            lo, hi = cfg.track
            self.cv = np.array([players, self.rounds, cfg.rotate, cfg.reset_marker, cfg.marker_start, lo, hi,
                                cfg.capture_all, cfg.house_limit, cfg.last_entitled, cfg.collapsed_public,
                                cfg.choose], np.int64)
        elif mode == ref.DUO:  # the settings _duo_rollout takes
            self.cv = np.array([cfg.house_limit, cfg.roofs_apply, cfg.collapsed_public], np.int64)
        else:  # the settings _solo_rollout takes; its decks' width (the larger colour)
            green = sum(1 for c in cfg.cards if c & 1 == 0)
            width = max(green, len(cfg.cards) - green)
            self.cv = np.array([width, cfg.nonstrict, cfg.complete, cfg.chain, cfg.bonus_on_setup], np.int64)

    def max_actions(self) -> int:
        if self.mode == ref.DUO:
            return 20
        if self.mode == ref.SOLO:
            return 4 * len(self.cards) + 1  # spec._max_actions
        # plays, at most 2 marker moves and (placement_order="choose") 2 arrangements a trick
        return self.rounds * 10 * (self.players + (4 if self.choose else 2))

    def chance_width(self) -> int:
        return (2 if self.mode == ref.SOLO else self.rounds) + self.rounds * len(self.cards)

    def legal_width(self) -> int:
        """Legal entries a game records at most: an arrangement lists every order of up to a card per player."""
        if self.mode == ref.SOLO:
            return 32 * self.max_actions()
        arrange = self.rounds * 10 * 2 * math.factorial(self.players) if self.choose else 0
        return 10 * self.max_actions() + arrange


def decode_table() -> tuple[str, ...]:
    """Action code -> reference notation."""
    plays = [str(refcards.PLAY[c]) for c in range(72)]
    return tuple(plays + ["move left", "move stay", "move right"])


DECODE = decode_table()


def _arrange_text(code: int) -> str:
    """The notation of an arrangement's code (``ARR0``)."""
    code -= ARR0
    cids = []
    while code:
        code, d = divmod(code, 73)
        cids.append(d - 1)
    return str(refcards.arrange(tuple(cids)))


def decode_solo() -> tuple[str, ...]:
    """Solo action code -> reference notation."""
    out = [str(refcards.PLACE[c][k]) for c in range(72) for k in range(4)]
    out += [str(a) for a in refcards.GIVEUP] + [str(a) for a in refcards.DRAW]
    out += [str(refcards.TAKE[c]) for c in range(72)] + [str(refcards.DECLINE)] + [str(a) for a in refcards.ROW]
    return tuple(out)


DECODE_SOLO = decode_solo()


def _kernel_bots(bots: Sequence[str]) -> np.ndarray:
    return np.array([BOTS[b] for b in bots], dtype=np.int64)


def run(tables: Tables, seeds: Sequence[int] | np.ndarray, bots: Sequence[str], *,
        record: bool = False) -> dict[str, np.ndarray]:
    """Play one game per seed; the kernel's arrays (one row per game). With ``record``, also the
    legal lists at every position."""
    n = tables.players
    seeds = np.asarray(seeds, dtype=np.int64)
    g = len(seeds)
    top = tables.max_actions()
    cfg = tables.cfg
    codes = np.int64 if tables.choose else np.int16  # an arrangement's code is large (ARR0)
    out = {
        # every entry of a game's chance stream is written; of its actions, the first ``lengths``
        "chance": np.empty((g, tables.chance_width()), np.int16),
        "actions": np.empty((g, top), codes),
        "lengths": np.zeros(g, np.int64),
        "scores": np.zeros((g, n), np.int64),
        "starter": np.zeros(g, np.int64),
        "legal_buf": np.zeros((g, tables.legal_width() if record else 1), codes),
        "legal_cnt": np.zeros((g, top if record else 1), np.int64),
        "legal_len": np.zeros(g, np.int64),
        "house_sizes": np.zeros((g, 3), np.int64),
    }
    kb = _kernel_bots(bots)
    if tables.mode == ref.SOLO:
        _solo_batch(seeds, tables.cards, tables.size, tables.roof, cfg.one_color, cfg.nonstrict, cfg.complete,
                    cfg.chain, cfg.bonus_on_setup, kb[0], record, out["chance"], out["actions"],
                    out["lengths"], out["legal_buf"], out["legal_cnt"], out["legal_len"], out["house_sizes"])
        out["scores"][:, 0] = out["house_sizes"][:, 0]  # plus - minus; then plus and minus for the reason
    elif tables.mode == ref.DUO:
        _duo_batch(seeds, tables.cards, tables.size, tables.roof, tables.order, cfg.house_limit,
                   cfg.roofs_apply, cfg.collapsed_public, kb, record, out["chance"], out["actions"],
                   out["lengths"], out["legal_buf"], out["legal_cnt"], out["legal_len"], out["scores"],
                   out["starter"], out["house_sizes"])
    else:
        lo, hi = cfg.track
        _std_batch(seeds, n, tables.cards, tables.size, tables.roof, tables.rounds, cfg.dealer, cfg.rotate,
                   cfg.reset_marker, cfg.marker_start, lo, hi, cfg.capture_all, cfg.house_limit, cfg.last_entitled,
                   cfg.collapsed_public, cfg.choose, kb, record, out["chance"], out["actions"], out["lengths"],
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
    """``outcome().reason`` of each game, worded as the engine words it (Y11.1; Y13.9, Y13.10; Y14.13)."""
    labels = tables.labels
    if tables.mode == ref.SOLO:
        return worded(out["house_sizes"][:, 1:], lambda plus, minus: (
            f"both decks are empty and no crab can be finished with the row; score {plus} − {minus} = "
            f"{ref_number(plus - minus)} (rules Y14.13, Y14.14)"))
    if tables.mode == ref.DUO:
        a, b = labels

        def duo(h0: int, h1: int, t: int) -> str:
            ws, why = refcards.duo_winners(h0, h1, t, (a, b))
            result = "it is a draw" if len(ws) == 2 else f"{labels[ws[0]]} wins"
            return (f"the NPC's house is {t}, the target; {a} has {h0} and {b} {h1}: {why}, so {result} "
                    f"(rules Y13.9, Y13.10)")

        return worded(out["house_sizes"], duo)
    rounds = ref_plural(tables.rounds, "round")

    def standard(best: int, *win: int) -> str:
        ws = [s for s, w in enumerate(win) if w]
        share = " share the win" if len(ws) > 1 else " wins"
        return (f"{' and '.join(labels[s] for s in ws)}{share} with the highest total, {best} points after "
                f"{rounds} (rule Y11.1)")

    return worded(np.column_stack([out["scores"].max(axis=1), winners]), standard)


def play(seeds: np.ndarray, players: int, mode: str, options: Mapping[str, Any], bots: Sequence[str],
         legal: bool = False) -> Batch:
    """The lane's entry point (see ``cardwidgets.fast``): one game per seed; with ``legal``, the
    legal lists of every position too."""
    tables = tables_for(players, mode, options)
    out = run(tables, seeds, bots, record=legal)
    g = len(seeds)
    lengths = out["lengths"]
    scores = out["scores"]
    if mode == ref.SOLO:
        winners = np.ones((g, 1), bool)
    elif mode == ref.DUO:
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
    acts = flat(out["actions"], lengths)
    decode = tables.decode
    legal_flat = flat(out["legal_buf"], out["legal_len"]) if legal else None
    if tables.choose:
        # arrangements: this batch's codes ARR0 + i, their notation appended to the decode table
        big = acts[acts >= ARR0]
        if legal:
            big = np.concatenate([big, legal_flat[legal_flat >= ARR0]])
        big = np.unique(big)
        decode = decode + tuple(_arrange_text(c) for c in big.tolist())
        acts = np.where(acts >= ARR0, ARR0 + np.searchsorted(big, acts), acts)
        if legal:
            legal_flat = np.where(legal_flat >= ARR0, ARR0 + np.searchsorted(big, legal_flat), legal_flat)
    width = out["chance"].shape[1]
    batch = Batch(
        game=GAME, players=players, mode=mode, options=dict(options), bots=tuple(bots),
        seeds=np.asarray(seeds, dtype=np.int64), starter=out["starter"], winners=winners, scores=scores,
        length=lengths, aborted=np.zeros(g, bool), reasons=_reasons(tables, out, winners),
        actions=acts.astype(np.int32), action_start=starts(lengths),
        chance=out["chance"].reshape(-1), chance_start=np.arange(g + 1, dtype=np.int64) * width,
        decode=decode,
    )
    if legal:
        batch.legal = legal_flat.astype(np.int32)
        batch.legal_start = starts(flat(out["legal_cnt"], lengths))
    return batch


# --------------------------------------------------------------------------- rollouts (IS-MCTS)
# A world (a reference-engine State) goes into a kernel as one flat int64 vector, which the kernel unpacks
# into the arrays its game loop plays on: one conversion call, one allocation.
@njit(cache=True)
def _std_rollout(v, seed, cv, cards, size, roof, bots, steps, stop_round, trace):
    """Unpack a standard position (``_std_vector``) and play it on (``_std_run``). Returns ``(out, actions,
    chance)``: out = over, round (from 0), actions, chance entries, then the totals."""
    n, rounds, rotate, reset, mstart, lo, hi, capture_all, limit, last_entitled, coll_public, choose = \
        cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7], cv[8], cv[9], cv[10], cv[11]
    P = v[:P_SIZE].copy()
    hand, hcnt, house, hlen, coll, roofed, loc = _zones(n, n)
    totals = np.zeros(n, np.int64)
    trick = np.empty(n, np.int64)
    movers = np.empty(2, np.int64)
    moved = np.empty(2, np.int64)
    j = _unpack_zones(v, P_SIZE, size, hand, hcnt, house, hlen, coll, roofed, loc)
    for w in range(n):
        totals[w] = v[j + w]
    j += n
    for i in range(P[P_NPOS]):
        trick[i] = v[j + i]
        loc[v[j + i]] = TRICK
    j += P[P_NPOS]
    for i in range(P[P_NM]):
        movers[i] = v[j + i]
    j += P[P_NM]
    for i in range(P[P_NMOVED]):
        moved[i] = v[j + i]
    j += P[P_NMOVED]
    m = v[j]
    j += 1
    for i in range(m):
        loc[v[j + i]] = ASIDE
    j += m
    pend = np.empty((2, 9), np.int64)
    for q in range(P[P_NPEND]):
        pend[q, 0] = v[j]
        pend[q, 1] = v[j + 1]
        for i in range(v[j + 1]):
            pend[q, 2 + i] = v[j + 2 + i]
            loc[v[j + 2 + i]] = HOUSE
        j += 2 + v[j + 1]
    left = rounds - P[P_RND]
    actions = np.empty(left * 10 * (n + 4), np.int64)  # plays, 2 arrangements and 2 marker moves a trick
    chance = np.empty(left * (cards.shape[0] + 1), np.int64)
    dummy = np.empty(1, np.int64)
    _std_run(stream(seed), P, n, cards, size, roof, rounds, rotate, reset, mstart, lo, hi, capture_all, limit,
             last_entitled, coll_public, choose, bots, hand, hcnt, house, hlen, coll, roofed, totals, loc, trick,
             movers, moved, pend, steps, stop_round, False, chance, actions, dummy, dummy)
    out = np.empty(4 + n, np.int64)
    out[0] = P[P_OVER]
    out[1] = P[P_RND]
    out[2] = P[P_NA]
    out[3] = P[P_NC]
    for s in range(n):
        out[4 + s] = totals[s]
    if not trace:
        return out, actions[:0], chance[:0]
    return out, actions[:P[P_NA]].copy(), chance[:P[P_NC]].copy()


@njit(cache=True)
def _duo_rollout(v, seed, cv, order, cards, size, roof, bots, steps, trace):
    """Unpack a duo position (``_duo_vector``) and play it on (``_duo_run``). Returns ``(out, actions)``:
    out = over, actions, then the three house sizes (player 0, player 1, the NPC)."""
    limit, roofs_apply, coll_public = cv[0], cv[1], cv[2]
    D = v[:D_SIZE].copy()
    hand, hcnt, house, hlen, coll, roofed, loc = _zones(2, 3)
    trick = np.empty(3, np.int64)
    twho = np.empty(3, np.int64)
    j = _unpack_zones(v, D_SIZE, size, hand, hcnt, house, hlen, coll, roofed, loc)
    for i in range(D[D_K]):
        trick[i] = v[j + i]
        twho[i] = order[(D[D_LEAD] + i) % 3]
        loc[v[j + i]] = TRICK
    j += D[D_K]
    m = v[j]
    j += 1
    npc = v[j:j + m].copy()
    for i in range(m):
        loc[v[j + i]] = NPC_DECK
    j += m
    m = v[j]
    j += 1
    for i in range(m):
        loc[v[j + i]] = ASIDE
    actions = np.empty(20, np.int64)
    dummy = np.empty(1, np.int64)
    _duo_run(stream(seed), D, order, cards, size, roof, limit, roofs_apply, coll_public, bots, hand, hcnt, house,
             hlen, coll, roofed, loc, npc, trick, twho, steps, False, actions, dummy, dummy)
    out = np.empty(5, np.int64)
    out[0] = D[D_OVER]
    out[1] = D[D_NA]
    for w in range(3):
        out[2 + w] = _house_size(w, house, hlen, size)
    if not trace:
        return out, actions[:0]
    return out, actions[:D[D_NA]].copy()


@njit(cache=True)
def _solo_rollout(v, seed, cv, cards, size, roofs, bot, steps, trace):
    """Unpack a solo position (``_solo_vector``) and play it on (``_solo_run``). Returns ``(out, actions)``:
    out = over, actions, score pile, penalty pile, then each crab's size and number of cards."""
    width, nonstrict, complete, chain, on_setup = cv[0], cv[1], cv[2], cv[3], cv[4]
    st = v[:S_SIZE].copy()
    row = np.zeros(8, np.int64)
    crab = np.zeros((4, complete + 1), np.int64)
    clen = np.zeros(4, np.int64)
    roofm = np.zeros(4, np.int64)
    bonus = np.zeros(8, np.int64)
    deck = np.full((2, width), -1, np.int64)
    dtop = np.zeros(2, np.int64)
    j = S_SIZE
    for i in range(st[1]):
        row[i] = v[j + i]
    j += st[1]
    for k in range(4):
        m = v[j]
        j += 1
        clen[k] = m
        for i in range(m):
            crab[k, i] = v[j + i]
        j += m
    for k in range(4):
        roofm[k] = v[j + k]
    j += 4
    for colour in range(2):
        m = v[j]
        j += 1
        dtop[colour] = width - m  # top first, a short deck's cards at its end
        for i in range(m):
            deck[colour, width - m + i] = v[j + i]
        j += m
    for i in range(st[5]):
        bonus[i] = v[j + i]
    actions = np.empty(4 * cards.shape[0] + 1, np.int64)
    dummy = np.empty(1, np.int64)
    _solo_run(stream(seed), st, cards, size, roofs, nonstrict, complete, chain, on_setup, bot, deck, dtop, row,
              crab, clen, roofm, bonus, steps, False, actions, dummy, dummy)
    out = np.zeros(12, np.int64)
    out[0] = 1 if st[0] == S_OVER else 0
    out[1] = st[S_NA]
    out[2] = st[S_PLUS]
    out[3] = st[S_MINUS]
    for k in range(4):
        for i in range(clen[k]):
            out[4 + 2 * k] += size[crab[k, i]]
        out[5 + 2 * k] = clen[k]
    if not trace:
        return out, actions[:0]
    return out, actions[:st[S_NA]].copy()


#: The rollout policies the lane plays (``cardwidgets.bots.ismcts``'s ``rollout=``).
POLICIES = ("random", "greedy")

# world._cfg (one object per configuration, shared by every world of a game) -> (cfg, Tables)
_BY_CFG: dict[int, tuple[Any, Tables]] = {}


def _tables_of(world: Any) -> Tables:
    cfg = world._cfg
    hit = _BY_CFG.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        hit = (cfg, Tables(world.players, world.mode, world.options))
        if len(_BY_CFG) < 256:
            _BY_CFG[id(cfg)] = hit
    return hit[1]


def rollout_problem(world: Any, policy: str) -> str | None:
    """Why this world or this policy cannot roll out in the lane; ``None`` if it can."""
    if policy not in POLICIES:
        return f"rollout={policy!r} in {GAME}: the lane rolls out with {' or '.join(POLICIES)}"
    if getattr(world, "game", None) != GAME:
        return f"a {getattr(world, 'game', type(world).__name__)} world in the {GAME} kernel"
    if world.mode not in _ROLLOUTS:
        return f"{GAME}'s mode {world.mode!r}"
    return None


def rollout(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> list[float]:
    """Play ``world`` on in the lane with ``policy`` and score the end as ``ismcts``'s ``play_out`` does:
    until the game is over, after ``steps`` actions, or once the round differs from ``round0``
    (``None``: no such limit). ``world`` is left as it is; the same seed plays the same rollout."""
    return _ROLLOUTS[world.mode](world, policy, steps, round0, seed, False)[0]


def rollout_trace(world: Any, policy: str, steps: int | None, round0: int | None,
                  seed: int) -> tuple[list[float], list[str], list[Any]]:
    """:func:`rollout` with its actions (reference notation) and its chance decisions (the new deals, as
    :class:`~cardwidgets.core.Recorded` takes them, from the world's next decision on)."""
    reward, actions, chance = _ROLLOUTS[world.mode](world, policy, steps, round0, seed, True)
    return reward, actions, chance


def _vector_zones(world: Any) -> list[int]:
    """The hands, houses and collapsed piles of a standard or duo world (each its length, then its
    cards) and the roofed flags: the part of a rollout's vector that ``_unpack_zones`` reads."""
    v: list[int] = []
    for h in world._hands:
        v.append(len(h))
        v += [a.cid for a in h]
    for zone in (world._houses, world._collapsed):
        for h in zone:
            v.append(len(h))
            v += h
    v += world._roofed
    return v


def _std_vector(world: Any) -> list[int]:
    """The flat vector ``_std_rollout`` unpacks (its layout, in order)."""
    phase = world._phase
    marker = phase == "marker"
    judged = marker or phase == "arrange"
    ent = world._entitled if judged else ()
    moved = world._moved if marker else ()
    pending = world._pending if phase == "arrange" else ()
    trick = world._trick
    v = [world._round - 1, world._dealer, world._marker, world._trick_no, world._leader,
         1 if marker else (2 if judged else 0), len(trick), len(ent), len(ent) - len(world._movers) if marker else 0,
         len(moved), 0, 0, 0, 0, 0, len(pending), 0]
    v += _vector_zones(world)
    v += world._totals
    v += trick
    v += ent
    v += moved
    v.append(len(world._aside))
    v += world._aside
    for who, cards in pending:
        v += (who, len(cards))
        v += cards
    return v


def _kinds(t: Tables, policy: str) -> np.ndarray:
    bots = t.kinds.get(policy)
    if bots is None:
        bots = t.kinds[policy] = np.full(t.players, BOTS[policy], np.int64)
    return bots


def _std_roll(world: Any, policy: str, steps: int | None, round0: int | None, seed: int,
              trace: bool) -> tuple[list[float], list[str], list[Any]]:
    if world.is_terminal:
        return win_shares(world), [], []
    t = _tables_of(world)
    limit = -1 if steps is None else steps
    if round0 is not None and world._round != round0:
        limit = 0  # play_out checks the round before the first action
    out, acts, chance = _std_rollout(np.array(_std_vector(world), np.int64), seed, t.cv, t.cards, t.size, t.roof,
                                     _kinds(t, policy), limit, round0 is not None, trace)
    totals = out[4:].tolist()
    if out[0]:
        best = max(totals)
        w = [s for s in range(t.players) if totals[s] == best]
        reward = [1.0 / len(w) if s in w else 0.0 for s in range(t.players)]
    else:  # ismcts._totals_estimate: the view's totals, rounds and round
        reward = _soft_shares(totals, 4.0 + 6.0 * (t.rounds - (int(out[1]) + 1)))
    if not trace:
        return reward, [], []
    return reward, [DECODE[c] if c < ARR0 else _arrange_text(c) for c in acts.tolist()], decisions(chance.tolist())


def _duo_vector(world: Any) -> list[int]:
    """The flat vector ``_duo_rollout`` unpacks (its layout, in order)."""
    trick = world._trick
    npc = world._npc_deck
    v = [world._trick_no, world._lead, len(trick), 0, 0, 0, 0]
    v += _vector_zones(world)
    v += trick
    v.append(len(npc))
    v += npc[::-1]  # top first: the engine pops its top card from the end
    v.append(len(world._aside))
    v += world._aside
    return v


def _duo_roll(world: Any, policy: str, steps: int | None, round0: int | None, seed: int,
              trace: bool) -> tuple[list[float], list[str], list[Any]]:
    if world.is_terminal:
        return win_shares(world), [], []
    t = _tables_of(world)
    # duo has no rounds (ROUND_FIELDS' field is not there): round0 is None, or never equal
    limit = -1 if steps is None else steps
    if round0 is not None:
        limit = 0
    out, acts = _duo_rollout(np.array(_duo_vector(world), np.int64), seed, t.cv, t.order, t.cards, t.size, t.roof,
                             _kinds(t, policy), limit, trace)
    h0, h1, target = out[2:].tolist()
    # the end (win_shares) and ismcts._yadokarick_estimate: who wins if the houses stay as they are
    winners = refcards.duo_winner_seats(h0, h1, target) if out[0] else refcards.duo_winners(h0, h1, target)[0]
    reward = [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
    if not trace:
        return reward, [], []
    return reward, [DECODE[c] for c in acts.tolist()], []


_PHASES = {"setup": S_SETUP, "setup_color": S_COLOUR, "turn": S_TURN, "refill": S_REFILL, "bonus": S_BONUS,
           "finished": S_OVER}


def _solo_vector(world: Any) -> list[int]:
    """The flat vector ``_solo_rollout`` unpacks (its layout, in order)."""
    size = world._cfg.size
    row = world._row
    bonus = world._bonus
    sc = world._setup_color
    v = [_PHASES[world._phase], len(row), 1 if world._setup else 0, -1 if sc is None else sc,
         1 if world._bonus_used else 0, len(bonus), sum([size[c] for c in world._score]),
         sum([size[c] for c in world._penalty]), 0, 0]
    v += row
    for stack in world._crabs:
        v.append(len(stack))
        v += stack
    v += world._roofmode
    for d in world._decks:
        v.append(len(d))
        v += d[::-1]  # top first: the engine pops its top card from the end
    v += bonus
    return v


def _solo_roll(world: Any, policy: str, steps: int | None, round0: int | None, seed: int,
               trace: bool) -> tuple[list[float], list[str], list[Any]]:
    if world.is_terminal:
        return [solo_reward(world.outcome().scores[0])], [], []
    t = _tables_of(world)
    limit = -1 if steps is None else steps
    if round0 is not None:  # solo has no rounds: play_out stops before the first action
        limit = 0
    out, acts = _solo_rollout(np.array(_solo_vector(world), np.int64), seed, t.cv, t.cards, t.size, t.roof,
                              2 if policy == "random" else BOTS[policy], limit, trace)
    o = out.tolist()
    score = o[2] - o[3]
    if o[0]:
        reward = [solo_reward(score)]
    else:  # ismcts._yadokarick_estimate: the score and part of what is on the crabs
        need = t.cfg.complete
        partial = sum(o[4 + 2 * k] * o[5 + 2 * k] / need for k in range(4))
        reward = [solo_reward(score + SOLO_PARTIAL * partial)]
    if not trace:
        return reward, [], []
    return reward, [DECODE_SOLO[c] for c in acts.tolist()], []


_ROLLOUTS = {ref.STANDARD: _std_roll, ref.DUO: _duo_roll, ref.SOLO: _solo_roll}
