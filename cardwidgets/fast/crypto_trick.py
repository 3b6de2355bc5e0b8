"""Crypto Trick in the fast lane: the rules of ``cardwidgets.games.crypto_trick`` as numba kernels.

Every option of the game is covered (they only change the tables built here, or a
switch of the kernel), for 2 to 5 players, with the bots ``random`` and ``greedy``
(the heuristics of :class:`cardwidgets.bots.crypto_trick.CryptoGreedyBot`, ties broken
uniformly at random as its jitter does).

Inside the kernel a card is its index in the game's sorted deck (``Config.deck``), so
a hand is a bit mask whose set bits, lowest first, are the hand in the engine's card
order. An action is ``kind * 64 + card``: :data:`REVEAL`, :data:`WANT`, :data:`PASS`,
:data:`GIVE`, :data:`PLAY`. A game is recorded as its chance decisions (the random
first player, if asked for, then one permutation of the deck per round, as
:class:`cardwidgets.core.Recorded` takes them) and its actions, so the reference engine
replays it exactly.

The same rules play on from any position: :func:`rollout` loads a reference state (a
world that ``sample_world`` dealt, mid-trick or not) into the kernel's arrays and rolls
it out for the search bot ``ismcts``, with its reward (:func:`rollout_problem`,
:func:`rollout_trace`; see :mod:`cardwidgets.fast`).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
from numba import njit

from ..games import crypto_trick as ref
from . import Batch, Coverage, decisions
from ._arrays import choice_into, flat, record_legal, shuffle_into, starts, worded
from ._bits import low_bit, popcount
from ._rng import below, reseed, stream

GAME = "crypto_trick"
REVEAL, WANT, PASS, GIVE, PLAY = range(5)
#: Bots the lane plays, by name: the kernel's bot codes.
BOTS = {"random": 0, "greedy": 1}
#: Legal actions at one position: a hand holds at most 6 cards (C4.2, C5.7).
MAX_LEGAL = 8
WHITE = 5


def max_actions(players: int, rounds: int) -> int:
    """A bound on a game's actions: per trick 1 offer, n - 1 declarations, 1 give, n - 1 plays."""
    return rounds * 6 * 2 * players


class Tables:
    """The kernel's arrays for one player count and option set (from the engine's ``Config``)."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        st = ref.new_game(players=players, seed=0, **dict(options))  # the engine checks the options
        cfg = st.config
        self.players = players
        self.options = dict(st.options)
        deck = cfg.deck
        self.deck = np.array(deck, dtype=np.int64)
        self.col = np.array([c // 100 for c in deck], dtype=np.int64)
        self.num = np.array([c % 100 for c in deck], dtype=np.int64)
        self.block = np.array([1 if cfg.block[c] else 0 for c in deck], dtype=np.int64)
        # The greedy bot's rank of each card within its colour (CryptoGreedyBot._read).
        by_colour: dict[int, list[int]] = {}
        for c in deck:
            by_colour.setdefault(c // 100, []).append(c % 100)
        rank = []
        for c in deck:
            nums = sorted(by_colour[c // 100])
            i = nums.index(c % 100)
            rank.append(float(1 + 5 * i / max(1, len(nums) - 1)) if c // 100 != WHITE else (1.0 if i == 0 else 6.0))
        self.rank = np.array(rank, dtype=np.float64)
        fp = self.options["first_player"]
        self.first = -1 if fp == "random" else int(fp)
        self.rounds = int(cfg.rounds)
        self.decode = decode_table(self)
        self.flags = np.array([1 if cfg.first_mode else 0, 1 if cfg.unified else 0, 1 if cfg.white_high else 0,
                               1 if cfg.negative else 0], dtype=np.int64)

    def action(self, code: int) -> Any:
        """The engine's action object for a kernel action code."""
        kind, card = divmod(int(code), 64)
        if kind == WANT:
            return ref.WANT
        if kind == PASS:
            return ref.PASS
        name = ref.card_name(int(self.deck[card]))
        return (ref.Reveal, None, None, ref.Give, ref.Play)[kind](name)


# --------------------------------------------------------------------------- small helpers
@njit(cache=True)
def _below(rng, n):
    """An int64 in ``range(n)`` from the game's stream."""
    return np.int64(below(rng, n))


@njit(cache=True)
def _cards(mask, kind, out, legal):
    """The set bits of ``mask``, lowest first, into ``out`` and the actions of this ``kind`` on them
    into ``legal``; their count."""
    k = 0
    while mask:
        c = low_bit(mask)
        out[k] = c
        legal[k] = kind * 64 + c
        mask &= mask - 1
        k += 1
    return k


@njit(cache=True)
def _follow_mask(hand, lead_col, tcol, cmask, unified):
    """The cards of ``hand`` that follow the lead colour (C6.3, C6.4); 0 when none does.
    ``cmask[c]`` holds the cards of colour ``c``."""
    m = cmask[lead_col]
    if unified and (lead_col == WHITE or lead_col == tcol):
        m |= cmask[WHITE] | cmask[tcol]
    return hand & m


@njit(cache=True)
def _key(i, lead_col, tcol, col, num, white_high):
    """C7.2's strength key of card ``i``: class * 1000 + number (the later equal card wins)."""
    c = col[i]
    if c == WHITE or c == tcol:
        cls = 3 if (white_high and c == WHITE and tcol != WHITE) else 2
    elif c == lead_col:
        cls = 1
    else:
        cls = 0
    return cls * 1000 + num[i]


@njit(cache=True)
def _round_score(b, colours, negative):
    if b == 0:
        return 5
    if b <= 3:
        return b * popcount(colours)
    return -b if negative else b


# --------------------------------------------------------------------------- the greedy bot
@njit(cache=True)
def _g_score(b, k, negative):
    if b <= 0:
        return 5.0
    if b < 4:
        return b * (k if k < b else b)
    return -b if negative else b


@njit(cache=True)
def _g_chance(i, tcol, col, rank):
    c = col[i]
    if c == WHITE or c == tcol:
        v = 0.45 + 0.08 * rank[i]
        return v if v < 0.95 else 0.95
    return 0.09 * rank[i]


@njit(cache=True)
def _g_plan(b, k, future, negative):
    stop = _g_score(b, k, negative)
    if future <= 0:
        return stop
    go = _g_score(b + future, k + 0.7 * future, negative)
    return go if go > stop else stop


@njit(cache=True)
def _g_future(hand, exclude, left, n, share, tcol, col, rank, top):
    """CryptoGreedyBot._future: the blocks still to win, from the ``left`` best cards' chances."""
    if left <= 0:
        return 0.0
    # The best ``left`` chances, largest first (insertion into a short sorted list: no allocation).
    m = 0
    rest = hand & ~(1 << exclude) if exclude >= 0 else hand
    while rest:
        i = low_bit(rest)
        rest &= rest - 1
        v = _g_chance(i, tcol, col, rank)
        j = m if m < left else left
        if j == left and (j == 0 or v <= top[j - 1]):
            continue
        if j == left:
            j -= 1
        while j > 0 and top[j - 1] < v:
            top[j] = top[j - 1]
            j -= 1
        top[j] = v
        if m < left:
            m += 1
    tot = 0.0
    for j in range(m):
        tot += top[j]
    return 3.0 * tot * n * share


@njit(cache=True)
def _g_want(cards, ncards, still, exclude, b, bcols, hand, left, n, share, tcol, col, rank, block, D, negative,
            fbuf):
    """CryptoGreedyBot._want_trick: how much better the round looks if this trick is won."""
    new = 0
    newcols = 0
    for j in range(ncards):
        if block[cards[j]]:
            new += 1
            newcols |= 1 << col[cards[j]]
    more = still * share
    b_win = (b + new) + more
    k_win = popcount(bcols | newcols) + 0.7 * more
    future = _g_future(hand, exclude, left, n, share, tcol, col, rank, fbuf)
    return _g_plan(b_win, k_win, future, negative) - _g_plan(b, popcount(bcols), future, negative)


@njit(cache=True)
def _pick(rng, keys1, keys2, idx, m, lowest):
    """The index among ``idx[:m]`` with the lowest (or highest) ``(keys1, keys2)``; ties at random."""
    best = 0
    nt = 0
    ties = idx[MAX_LEGAL:]  # scratch space after the candidates
    for j in range(m):
        if j == 0:
            best = 0
            ties[0] = 0
            nt = 1
            continue
        a1, a2 = keys1[j], keys2[j]
        b1, b2 = keys1[best], keys2[best]
        if lowest:
            better = a1 < b1 or (a1 == b1 and a2 < b2)
        else:
            better = a1 > b1 or (a1 == b1 and a2 > b2)
        if better:
            best = j
            ties[0] = j
            nt = 1
        elif a1 == b1 and a2 == b2:
            ties[nt] = j
            nt += 1
    return idx[ties[_below(rng, nt)]]


@njit(cache=True)
def _share(me_hand, table, ntable, indicator, offered, won_cnt, won_b, nblocks, block, D, n):
    """The share of block cards among the cards the seat has not seen (CryptoGreedyBot._read)."""
    seen = me_hand
    for j in range(ntable):
        seen |= 1 << table[j]
    seen |= 1 << indicator
    if offered >= 0:
        seen |= 1 << offered
    nseen = popcount(seen)
    bseen = 0
    rest = seen
    while rest:
        bseen += block[low_bit(rest)]
        rest &= rest - 1
    wc = 0
    wb = 0
    for s in range(n):
        wc += won_cnt[s]
        wb += won_b[s]
    unseen_cards = D - nseen - wc
    unseen_blocks = nblocks - bseen - wb
    ub = unseen_blocks if unseen_blocks > 0 else 0
    return ub / (unseen_cards if unseen_cards > 1 else 1)


@njit(cache=True)
def _same_colour(hand, colour, col):
    """How many cards of ``hand`` are of this colour."""
    k = 0
    while hand:
        if col[low_bit(hand)] == colour:
            k += 1
        hand &= hand - 1
    return k


@njit(cache=True)
def _g_offer(rng, cards, m, hand, b, bcols, table, indicator, won_cnt, won_b, nblocks, left, n, D, tcol, col, rank,
             block, negative, k1, k2, idx, tmp, fbuf):
    """CryptoGreedyBot._offer: the index in ``cards[:m]`` to reveal."""
    share = _share(hand, table, 0, indicator, -1, won_cnt, won_b, nblocks, block, D, n)
    going = _g_want(tmp, 0, n, -1, b, bcols, hand, left, n, share, tcol, col, rank, block, D, negative, fbuf) > 0
    for j in range(m):
        c = cards[j]
        idx[j] = j
        wc = _g_chance(c, tcol, col, rank)
        if going:
            k1[j] = wc
            k2[j] = block[c]
        else:
            alone = 1 if _same_colour(hand & ~(1 << c), col[c], col) == 0 else 0
            # max of (alone, -chance, not block): as a min of the negated keys
            k1[j] = -(alone * 10.0) + wc
            k2[j] = block[c]
    return _pick(rng, k1, k2, idx, m, True)


@njit(cache=True)
def _g_give(rng, cards, m, hand, b, bcols, offered, table, indicator, won_cnt, won_b, nblocks, left, n, D, tcol, col,
            rank, block, negative, k1, k2, idx, tmp, fbuf):
    """CryptoGreedyBot._give: the index in ``cards[:m]`` to give the first player."""
    share = _share(hand, table, 0, indicator, offered, won_cnt, won_b, nblocks, block, D, n)
    tmp[0] = offered
    going = _g_want(tmp, 1, n - 1, -1, b, bcols, hand, left, n, share, tcol, col, rank, block, D, negative, fbuf) > 0
    for j in range(m):
        c = cards[j]
        idx[j] = j
        wc = _g_chance(c, tcol, col, rank)
        if going:
            short = _same_colour(hand, col[c], col)
            k1[j] = wc
            k2[j] = short
        else:
            k1[j] = wc
            k2[j] = 0.0
    return _pick(rng, k1, k2, idx, m, going)


# --------------------------------------------------------------------------- a position
# A position in the kernel: the scalars in ``st`` (indexes below), the per-seat arrays
# ``hands``, ``won_cnt`` (cards won this round), ``won_b`` (block cards won), ``won_bm``
# (their colours, a bit mask), ``totals`` and the trick's ``table`` (play order, the lead
# first). The phases are the engine's (OFFER ... FINISHED); a seat or card that is not
# there is -1. ``S_NA``, ``S_NL`` and ``S_NC`` count the actions, legal-list entries and
# chance entries written so far.
S_PH, S_CUR, S_FIRST, S_LEADER, S_DEC, S_OFFERED, S_IND, S_TRICK, S_RND, S_NTABLE, S_NA, S_NL, S_NC = range(13)
S_SIZE = 13
P_OFFER, P_DECLARE, P_GIVE, P_FOLLOW, P_FINISHED = range(5)


@njit(cache=True)
def _deal(rng, first, n, D, hands, won_cnt, won_b, won_bm, perm, chance, nc):
    """C4.1, C4.2: shuffle the sorted deck and deal 6 cards each from ``first`` clockwise;
    the shuffle goes to the chance stream at ``nc``. Returns the indicator (C4.3)."""
    shuffle_into(rng, perm, D, chance, nc)
    for s in range(n):
        hands[s] = 0
        won_cnt[s] = 0
        won_b[s] = 0
        won_bm[s] = 0
    for j in range(6 * n):
        hands[(first + j % n) % n] |= 1 << perm[j]
    return perm[6 * n]


@njit(cache=True)
def _seats(pos, n):
    """The parts of a position array (``S_SIZE + 6 * n`` int64): the scalars ``st``, then per seat
    ``hands``, ``won_cnt``, ``won_b``, ``won_bm``, ``totals``, then the trick's ``table``."""
    return (pos[:S_SIZE], pos[S_SIZE:S_SIZE + n], pos[S_SIZE + n:S_SIZE + 2 * n], pos[S_SIZE + 2 * n:S_SIZE + 3 * n],
            pos[S_SIZE + 3 * n:S_SIZE + 4 * n], pos[S_SIZE + 4 * n:S_SIZE + 5 * n], pos[S_SIZE + 5 * n:S_SIZE + 6 * n])


@njit(cache=True)
def _scratch(n, D):
    """:func:`_play`'s scratch space: ``(perm, iw, fw)``."""
    return (np.empty(D, np.int64), np.empty(4 * MAX_LEGAL + WHITE + 1 + n + 1, np.int64),
            np.empty(3 * MAX_LEGAL, np.float64))


@njit(cache=True)
def _play(rng, n, D, col, num, block, rank, rounds, flags, bots, record, pos, perm, iw, fw, chance, actions,
          legal_buf, legal_cnt, max_steps, round0):
    """Play on from the position ``pos`` (see :func:`_seats`; updated in place) until the game
    is over, or ``max_steps`` actions were made (if >= 0), or the round is no longer ``round0``
    (if >= 0; checked before each action). Each action goes to ``actions``, each deal to
    ``chance``; with ``record``, the legal lists too (``legal_cnt[a]`` entries at action ``a``,
    one list after the other in ``legal_buf``). ``perm``, ``iw`` and ``fw`` are scratch space
    (:func:`_scratch`): a batch makes them once, not once per game."""
    first_mode, unified, white_high, negative = flags[0], flags[1], flags[2], flags[3]
    st, hands, won_cnt, won_b, won_bm, totals, table = _seats(pos, n)
    legal = iw[:MAX_LEGAL]
    cards = iw[MAX_LEGAL:2 * MAX_LEGAL]
    idx = iw[2 * MAX_LEGAL:4 * MAX_LEGAL]
    cmask = iw[4 * MAX_LEGAL:4 * MAX_LEGAL + WHITE + 1]  # the cards of each colour
    tmp = iw[4 * MAX_LEGAL + WHITE + 1:]
    k1 = fw[:MAX_LEGAL]
    k2 = fw[MAX_LEGAL:2 * MAX_LEGAL]
    fbuf = fw[2 * MAX_LEGAL:]
    nblocks = 0
    cmask[:] = 0
    for i in range(D):
        nblocks += block[i]
        cmask[col[i]] |= 1 << i
    ph, cur, first, leader, dec = st[S_PH], st[S_CUR], st[S_FIRST], st[S_LEADER], st[S_DEC]
    offered, indicator, trick, rnd, ntable = st[S_OFFERED], st[S_IND], st[S_TRICK], st[S_RND], st[S_NTABLE]
    na, nl, nc = st[S_NA], st[S_NL], st[S_NC]
    tcol = col[indicator]
    # The trick's strongest card so far and who played it (C7.2: a later equal card wins).
    best = -1
    win = -1
    if ph == P_FOLLOW:
        lead_col = col[table[0]]
        for i in range(ntable):
            key = _key(table[i], lead_col, tcol, col, num, white_high)
            if key >= best:
                best = key
                win = (leader + i) % n
    steps = 0
    while ph != P_FINISHED and (max_steps < 0 or steps < max_steps) and (round0 < 0 or rnd == round0):
        steps += 1
        left = 6 - trick
        if ph == P_OFFER:  # C5.1: the first player reveals a card and offers it
            f = first
            m = _cards(hands[f], REVEAL, cards, legal)
            if bots[f] == 0 or m == 1:
                ch = _below(rng, m) if m > 1 else 0
            else:
                ch = _g_offer(rng, cards, m, hands[f], won_b[f], won_bm[f], table, indicator, won_cnt, won_b, nblocks,
                              left, n, D, tcol, col, rank, block, negative, k1, k2, idx, tmp, fbuf)
            if record:
                nl = record_legal(legal, m, legal_buf, legal_cnt, na, nl)
            actions[na] = legal[ch]
            na += 1
            offered = cards[ch]
            hands[f] &= ~(1 << offered)
            dec = -1
            ph = P_DECLARE
            cur = (f + 1) % n
            continue
        if ph == P_DECLARE:  # C5.2, C5.4
            s = cur
            legal[0] = WANT * 64
            legal[1] = PASS * 64
            if bots[s] == 0:
                ch = _below(rng, 2)
            else:
                share = _share(hands[s], table, 0, indicator, offered, won_cnt, won_b, nblocks, block, D, n)
                tmp[0] = offered
                gain = _g_want(tmp, 1, n - 1, -1, won_b[s], won_bm[s], hands[s], left, n, share, tcol, col,
                               rank, block, D, negative, fbuf)
                chn = _g_chance(offered, tcol, col, rank)
                ch = 0 if ((gain > 0 and chn >= 0.5) or (gain < 0 and chn <= 0.15)) else 1
            if record:
                nl = record_legal(legal, 2, legal_buf, legal_cnt, na, nl)
            actions[na] = legal[ch]
            na += 1
            if ch == 0:
                dec = s
                if first_mode:  # C5.4: the first want takes it
                    ph = P_GIVE
                    cur = dec
                    continue
            s = (s + 1) % n
            if s != first:
                cur = s
                continue
            if dec >= 0:
                ph = P_GIVE
                cur = dec
                continue
            leader = first  # C5.3: nobody wants it, the first player leads it
        else:
            if ph == P_GIVE:  # C5.5: the declarer gives the first player a card, then leads (C5.6)
                m = _cards(hands[dec], GIVE, cards, legal)
                if bots[dec] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    ch = _g_give(rng, cards, m, hands[dec], won_b[dec], won_bm[dec], offered, table, indicator, won_cnt,
                                 won_b, nblocks, left, n, D, tcol, col, rank, block, negative, k1, k2, idx, tmp, fbuf)
                if record:
                    nl = record_legal(legal, m, legal_buf, legal_cnt, na, nl)
                actions[na] = legal[ch]
                na += 1
                g = cards[ch]
                hands[dec] &= ~(1 << g)
                hands[first] |= 1 << g
                leader = dec
            else:  # P_FOLLOW: C6, the next follower plays
                s = cur
                i = ntable
                lead_col = col[table[0]]
                fm = _follow_mask(hands[s], lead_col, tcol, cmask, unified)
                m = _cards(fm if fm else hands[s], PLAY, cards, legal)  # C6.3: follow the lead colour if you can
                if bots[s] == 0 or m == 1:
                    ch = _below(rng, m) if m > 1 else 0
                else:
                    ch = _g_follow(rng, cards, m, table, i, best, lead_col, tcol, col, num, rank, block, hands[s],
                                   won_b[s], won_bm[s], won_cnt, won_b, indicator, nblocks, left, n, D, white_high,
                                   negative, k1, k2, idx, tmp, fbuf)
                if record:
                    nl = record_legal(legal, m, legal_buf, legal_cnt, na, nl)
                actions[na] = legal[ch]
                na += 1
                c = cards[ch]
                hands[s] &= ~(1 << c)
                table[i] = c
                ntable = i + 1
                key = _key(c, lead_col, tcol, col, num, white_high)
                if key >= best:  # C7.2: an equal card played later wins
                    best = key
                    win = s
                if ntable < n:
                    cur = (s + 1) % n
                    continue
                # ---- the trick's cards go to the winner (C8.1), who opens the next trick (C8.2)
                won_cnt[win] += n
                for j in range(n):
                    if block[table[j]]:
                        won_b[win] += 1
                        won_bm[win] |= 1 << col[table[j]]
                ntable = 0
                dec = -1
                leader = -1
                first = cur = win
                ph = P_OFFER
                if trick < 6:
                    trick += 1
                    continue
                # ---- the round is scored (C9); deal again (C3.3) or the game is over (C10)
                for j in range(n):
                    totals[j] += _round_score(won_b[j], won_bm[j], negative)
                if rnd == rounds:
                    ph = P_FINISHED
                    continue
                rnd += 1
                trick = 1
                indicator = _deal(rng, first, n, D, hands, won_cnt, won_b, won_bm, perm, chance, nc)
                nc += 1 + D
                tcol = col[indicator]
                continue
        # ---- the offered card leads (C5.3, C5.6); following starts with the leader's left (C6.2)
        table[0] = offered
        ntable = 1
        offered = -1
        best = _key(table[0], col[table[0]], tcol, col, num, white_high)
        win = leader
        ph = P_FOLLOW
        cur = (leader + 1) % n
    st[S_PH], st[S_CUR], st[S_FIRST], st[S_LEADER], st[S_DEC] = ph, cur, first, leader, dec
    st[S_OFFERED], st[S_IND], st[S_TRICK], st[S_RND], st[S_NTABLE] = offered, indicator, trick, rnd, ntable
    st[S_NA], st[S_NL], st[S_NC] = na, nl, nc


# --------------------------------------------------------------------------- one game
@njit(cache=True)
def _game(seed, n, D, col, num, block, rank, rounds, first_opt, flags, bots, record,
          chance, actions, legal_buf, legal_cnt, scores, starter, rng, pos, perm, iw, fw):
    """Play one game from its deal; fill ``chance`` (the chance stream, see ``cardwidgets.fast``),
    ``actions``, ``scores``, ``starter`` and, with ``record``, the legal lists. Returns the
    length and the legal lists' total size. The other arrays are the batch's, reused: a game
    allocates nothing (a fifth of a random game's time went to its allocations)."""
    reseed(rng, seed)
    pos[:] = 0
    st, hands, won_cnt, won_b, won_bm, totals, _ = _seats(pos, n)
    nc = 0
    if first_opt < 0:  # C2.5: first_player='random' is the engine's first chance decision
        first, nc = choice_into(rng, n, chance, 0)
    else:
        first = first_opt
    starter[0] = first
    st[S_IND] = _deal(rng, first, n, D, hands, won_cnt, won_b, won_bm, perm, chance, nc)
    st[S_PH], st[S_CUR], st[S_FIRST], st[S_LEADER], st[S_DEC], st[S_OFFERED] = P_OFFER, first, first, -1, -1, -1
    st[S_TRICK], st[S_RND], st[S_NC] = 1, 1, nc + 1 + D
    _play(rng, n, D, col, num, block, rank, rounds, flags, bots, record, pos, perm, iw, fw, chance, actions,
          legal_buf, legal_cnt, -1, -1)
    for s in range(n):
        scores[s] = totals[s]
    return st[S_NA], st[S_NL]


@njit(cache=True)
def _g_follow(rng, cards, m, table, pos0, best, lead_col, tcol, col, num, rank, block, hand, b, bcols, won_cnt, won_b,
              indicator, nblocks, left, n, D, white_high, negative, k1, k2, idx, tmp, fbuf):
    """CryptoGreedyBot._follow: the index in ``cards[:m]`` to play at table position ``pos0``."""
    share = _share(hand, table, pos0, indicator, -1, won_cnt, won_b, nblocks, block, D, n)
    still = n - (pos0 + 1)
    # The winners: (class, number) at least the best so far (a later equal card wins, C7.2).
    nw = 0
    first_w = -1
    for j in range(m):
        if _key(cards[j], lead_col, tcol, col, num, white_high) >= best:
            nw += 1
            if first_w < 0:
                first_w = j
    if nw > 0:
        for j in range(pos0):
            tmp[j] = table[j]
        tmp[pos0] = cards[first_w]
        if _g_want(tmp, pos0 + 1, still, cards[first_w], b, bcols, hand, left, n, share, tcol, col, rank, block, D,
                   negative, fbuf) > 0:
            k = 0
            for j in range(m):
                key = _key(cards[j], lead_col, tcol, col, num, white_high)
                if key >= best:
                    idx[k] = j
                    k1[k] = key
                    k2[k] = 0.0
                    k += 1
            return _pick(rng, k1, k2, idx, k, still == 0)
    if nw < m:
        fut = _g_future(hand, -1, left, n, share, tcol, col, rank, fbuf)
        k = 0
        for j in range(m):
            c = cards[j]
            if _key(c, lead_col, tcol, col, num, white_high) < best:
                idx[k] = j
                k1[k] = _g_chance(c, tcol, col, rank)
                k2[k] = block[c] if fut > 0.5 else 1 - block[c]
                k += 1
        return _pick(rng, k1, k2, idx, k, fut > 0.5)
    k = 0
    for j in range(m):
        idx[k] = j
        k1[k] = _key(cards[j], lead_col, tcol, col, num, white_high)
        k2[k] = 0.0
        k += 1
    return _pick(rng, k1, k2, idx, k, True)


@njit(cache=True)
def _rollout(pos, n, D, col, num, block, rank, rounds, flags, bots, record, seed, max_steps, round0, chance, actions,
             out):
    """Play on from the position ``pos`` (:func:`_seats`; changed in place) and put
    the rollout's reward in ``out``: the win shares at the end of the game, else the totals
    estimate of ``cardwidgets.bots.ismcts`` (C10 and the round's score so far, softened by the
    rounds still to play). Returns the actions and chance entries written."""
    rng = stream(seed)
    st, _, _, won_b, won_bm, totals, _ = _seats(pos, n)
    perm, iw, fw = _scratch(n, D)
    no_legal = np.empty(1, np.int16)
    no_count = np.empty(1, np.int64)
    _play(rng, n, D, col, num, block, rank, rounds, flags, bots, record, pos, perm, iw, fw, chance, actions,
          no_legal, no_count, max_steps, round0)
    if st[S_PH] == P_FINISHED:  # win_shares: 1 split among the highest totals (C10.1)
        top = totals[0]
        for s in range(n):
            if totals[s] > top:
                top = totals[s]
        k = 0
        for s in range(n):
            if totals[s] == top:
                k += 1
        share = 1.0 / k
        for s in range(n):
            out[s] = share if totals[s] == top else 0.0
    else:  # _totals_estimate: a softmax of totals + score_now at temperature 4 + 6 * rounds left
        temperature = 4.0 + 6.0 * (rounds - st[S_RND])
        for s in range(n):
            out[s] = totals[s] + _round_score(won_b[s], won_bm[s], flags[3])
        top = out[0]
        for s in range(n):
            if out[s] > top:
                top = out[s]
        total = 0.0
        for s in range(n):
            out[s] = math.exp((out[s] - top) / temperature)
            total += out[s]
        for s in range(n):
            out[s] = out[s] / total
    return st[S_NA], st[S_NC]


@njit(cache=True)
def _batch(seeds, n, D, col, num, block, rank, rounds, first_opt, flags, bots, record,
           chance, actions, lengths, legal_buf, legal_cnt, legal_len, scores, starter):
    rng = stream(0)
    pos = np.empty(S_SIZE + 6 * n, np.int64)
    perm, iw, fw = _scratch(n, D)
    for g in range(seeds.shape[0]):
        na, nl = _game(seeds[g], n, D, col, num, block, rank, rounds, first_opt, flags, bots, record,
                       chance[g], actions[g], legal_buf[g], legal_cnt[g], scores[g], starter[g:g + 1], rng, pos, perm,
                       iw, fw)
        lengths[g] = na
        legal_len[g] = nl




# --------------------------------------------------------------------------- from Python
COVERAGE = Coverage(
    modes={"standard": ref.PLAYERS},
    # Every option: each one only changes the tables below or a switch of the kernel.
    options={opt.name: None for opt in ref.SPEC.options},
    bots={"random": "random", "greedy": "greedy"},
)


def chance_width(tables: Tables) -> int:
    """The length of a game's chance stream: the random first player, then one shuffle per round."""
    return (2 if tables.first < 0 else 0) + tables.rounds * (len(tables.deck) + 1)


def _kernel_bots(bots: Sequence[str]) -> np.ndarray:
    return np.array([BOTS[b] for b in bots], dtype=np.int64)


def run(tables: Tables, seeds: Sequence[int] | np.ndarray, bots: Sequence[str], *,
        record: bool = False) -> dict[str, np.ndarray]:
    """Play one game per seed; the kernel's arrays (one row per game). With ``record``, also the
    legal lists at every position."""
    n = tables.players
    seeds = np.asarray(seeds, dtype=np.int64)
    g = len(seeds)
    D = len(tables.deck)
    top = max_actions(n, tables.rounds)
    out = {
        # every entry of a game's chance stream is written; of its actions, the first ``lengths``
        "chance": np.empty((g, chance_width(tables)), np.int16),
        "actions": np.empty((g, top), np.int16),
        "lengths": np.zeros(g, np.int64),
        "scores": np.zeros((g, n), np.int64),
        "starter": np.zeros(g, np.int64),
        "legal_buf": np.zeros((g, top * MAX_LEGAL if record else 1), np.int16),
        "legal_cnt": np.zeros((g, top if record else 1), np.int64),
        "legal_len": np.zeros(g, np.int64),
    }
    _batch(seeds, n, D, tables.col, tables.num, tables.block, tables.rank, tables.rounds, tables.first,
           tables.flags, _kernel_bots(bots), record, out["chance"], out["actions"], out["lengths"],
           out["legal_buf"], out["legal_cnt"], out["legal_len"], out["scores"], out["starter"])
    return out


_TABLES: dict[tuple, Tables] = {}


def tables_for(players: int, options: Mapping[str, Any]) -> Tables:
    """The (cached) tables of a player count and a resolved option set."""
    key = (players, repr(sorted(options.items())))
    hit = _TABLES.get(key)
    if hit is None:
        hit = Tables(players, options)
        if len(_TABLES) < 256:
            _TABLES[key] = hit
    return hit


def decode_table(tables: Tables) -> tuple[str, ...]:
    """Action code -> reference notation."""
    out = [""] * (5 * 64)
    for code in range(5 * 64):
        kind, card = divmod(code, 64)
        if kind in (WANT, PASS):
            out[code] = "want" if kind == WANT else "pass"
        elif card < len(tables.deck):
            out[code] = str(tables.action(code))
    return tuple(out)


def _reasons(tables: Tables, scores: np.ndarray, winners: np.ndarray) -> list[str]:
    """``outcome().reason`` of each game, worded as the engine words it (C10.1)."""
    st = ref.new_game(players=tables.players, seed=0, **tables.options)
    names = [st.seat_label(s) for s in range(tables.players)]
    rounds = ref.plural(tables.rounds, "round")

    def word(best: int, *win: int) -> str:
        points = ref._points(best)
        ws = [s for s, w in enumerate(win) if w]
        if len(ws) == 1:
            return f"{names[ws[0]]} wins with {points}, the highest total after {rounds} (rule C10.1)"
        who = ", ".join(names[s] for s in ws[:-1]) + f" and {names[ws[-1]]}"
        return f"{who} share the win with {points} each, the highest total after {rounds} (rule C10.1)"

    return worded(np.column_stack([scores.max(axis=1), winners]), word)


def play(seeds: np.ndarray, players: int, mode: str, options: Mapping[str, Any], bots: Sequence[str],
         legal: bool = False) -> Batch:
    """The lane's entry point (see ``cardwidgets.fast``): one game per seed; with ``legal``, the
    legal lists of every position too."""
    tables = tables_for(players, options)
    out = run(tables, seeds, bots, record=legal)
    g = len(seeds)
    lengths = out["lengths"]
    scores = out["scores"]
    winners = scores == scores.max(axis=1, keepdims=True)
    width = out["chance"].shape[1]
    batch = Batch(
        game=GAME, players=players, mode=mode, options=dict(options), bots=tuple(bots),
        seeds=np.asarray(seeds, dtype=np.int64), starter=out["starter"], winners=winners, scores=scores,
        length=lengths, aborted=np.zeros(g, bool), reasons=_reasons(tables, scores, winners),
        actions=flat(out["actions"], lengths).astype(np.int32), action_start=starts(lengths),
        chance=out["chance"].reshape(-1), chance_start=np.arange(g + 1, dtype=np.int64) * width,
        decode=tables.decode,
    )
    if legal:
        batch.legal = flat(out["legal_buf"], out["legal_len"]).astype(np.int32)
        batch.legal_start = starts(flat(out["legal_cnt"], lengths))
    return batch


# --------------------------------------------------------------------------- IS-MCTS rollouts
#: The rollout policies: ``"random"`` (uniform over the legal actions) and ``"greedy"``.
POLICIES = ("random", "greedy")
_INT64 = 2**63


def rollout_problem(world: Any, policy: str) -> str | None:
    """Why the lane cannot roll out from ``world`` with ``policy``, in words; ``None`` if it can."""
    if policy not in POLICIES:
        return f"rollout policy {policy!r} in crypto_trick; the lane rolls out with {', '.join(POLICIES)}"
    if getattr(world, "game", None) != GAME:
        return f"a {getattr(world, 'game', type(world).__name__)} position is not a crypto_trick one"
    return COVERAGE.problem(GAME, world.players, world.mode, world.options, [policy])


class _Rollouts:
    """What the rollouts of one game configuration share: the tables, the card lookups of
    the conversion, the bots of each policy and reusable output buffers."""

    def __init__(self, cfg: Any, tables: Tables) -> None:
        self.cfg = cfg  # kept alive: the cache is keyed by its id
        self.tables = tables
        n = tables.players
        self.bit = {int(c): 1 << i for i, c in enumerate(tables.deck.tolist())}
        self.index = {int(c): i for i, c in enumerate(tables.deck.tolist())}
        self.bbit = cfg.bbit
        self.bots = {p: np.full(n, BOTS[p], np.int64) for p in POLICIES}
        # int16 as in ``run``: the kernel is compiled once for both
        self.chance = np.empty(chance_width(tables), np.int16)
        self.actions = np.empty(max_actions(n, tables.rounds), np.int16)
        self.out = np.empty(n, np.float64)
        self.args = (n, len(tables.deck), tables.col, tables.num, tables.block, tables.rank, tables.rounds,
                     tables.flags)


_ROLLOUTS: dict[int, _Rollouts] = {}


def _rollouts(world: Any) -> _Rollouts:
    cfg = world._cfg
    hit = _ROLLOUTS.get(id(cfg))
    if hit is None or hit.cfg is not cfg:
        hit = _Rollouts(cfg, tables_for(world.players, world.options))
        if len(_ROLLOUTS) >= 64:
            _ROLLOUTS.clear()
        _ROLLOUTS[id(cfg)] = hit
    return hit


def _position(world: Any, r: _Rollouts) -> np.ndarray:
    """The kernel's position of a reference state (see ``_play``): everything the rules need,
    every hand included (a sampled world is a whole position)."""
    bit, index, bbit = r.bit, r.index, r.bbit
    n = world.players
    offered = world._offered
    leader = world._leader
    dec = world._declarer
    table = world._table
    row = [world._ph, world._cur, world._first, -1 if leader is None else leader, -1 if dec is None else dec,
           -1 if offered is None else index[offered], index[world._indicator], world._trick, world._round,
           len(table), 0, 0, 0]
    for h in world._hands:
        m = 0
        for c in h:
            m |= bit[c]
        row.append(m)
    bs = []
    bm = []
    for w in world._won:
        row.append(len(w))
        b = k = 0
        for c in w:
            x = bbit[c]
            if x:
                b += 1
                k |= x
        bs.append(b)
        bm.append(k)
    row += bs
    row += bm
    row += world._totals
    for c in table:
        row.append(index[c])
    row += [0] * (n - len(table))
    return np.array(row, dtype=np.int64)


def _run_rollout(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> tuple:
    # The whole check (rollout_problem) costs as much as the conversion: the search asks it once,
    # so each rollout only makes sure of what it reads (every option and player count is covered).
    if policy not in POLICIES or not isinstance(world, ref.CryptoTrickState):
        raise ValueError(f"the fast lane cannot roll out here: {rollout_problem(world, policy)}")
    r = _rollouts(world)
    seed = (int(seed) + _INT64) % (2 * _INT64) - _INT64  # any int: the kernel's seed is an int64
    na, nc = _rollout(_position(world, r), *r.args, r.bots[policy], False, seed, -1 if steps is None else steps,
                      -1 if round0 is None else round0, r.chance, r.actions, r.out)
    return r, na, nc


def rollout(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> list[float]:
    """Play ``world`` (a whole position, such as a sampled world) on in the lane with ``policy``
    until the game is over, ``steps`` actions were made (if not ``None``) or the round is no
    longer ``round0`` (if not ``None``); the reward ``_Search.play_out`` of
    :mod:`cardwidgets.bots.ismcts` gives that end. ``world`` is not changed; the same ``seed``
    gives the same rollout."""
    r = _run_rollout(world, policy, steps, round0, seed)[0]
    return r.out.tolist()


def rollout_trace(world: Any, policy: str, steps: int | None, round0: int | None,
                  seed: int) -> tuple[list[float], list[str], list[Any]]:
    """:func:`rollout` with its actions (reference notation) and its chance decisions (the
    deals, as :class:`~cardwidgets.core.Recorded` takes them), for tests."""
    r, na, nc = _run_rollout(world, policy, steps, round0, seed)
    decode = r.tables.decode
    actions = [decode[a] for a in r.actions[:na].tolist()]
    return r.out.tolist(), actions, decisions(r.chance[:nc].tolist())
