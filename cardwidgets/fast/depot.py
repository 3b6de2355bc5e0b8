"""Depot in the fast lane: every option, 3–5 players, the single game and the 3-game match,
random and greedy bots.

The kernel keeps the reference engine's (``cardwidgets.games.depot``) orders where chance
reads them: a game's shuffle starts from the cards in play sorted by value (D2.1), a
reshuffle from the discard pile sorted (D9.1), a random rank tiebreak from the seats in
order (D10.2); the deck's top card is its last. Hands, the Storage and the discard pile are
counts per value, as the rules treat them (D1.2).

Action codes: ``take * 9 + give`` for a pass (``0`` for none: ``0..80``); ``81 + (k - 1) * 8
+ (v - 1)`` for a single or a set of ``k`` cards of value ``v`` (``k`` up to
``depot.MAX_COPIES``); after those, ``RUNS + (k - 2) * 8 + (s - 1)`` for the run of ``k``
cards from ``s``.

IS-MCTS rollouts (:func:`rollout`) load a reference state mid-game (any game of a match) into
the same arrays and play it on with the same game loop (``_play_from``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..games import depot as ref
from . import Batch, Coverage, decisions
from ._arrays import append_legal, chance_choice, chance_shuffle, grow, record, tally, tie_at_random
from ._rng import below, reseed

COVERAGE = Coverage(
    modes={"standard": ref.PLAYERS},
    options={o.name: None for o in ref.SPEC.options},  # every option, every allowed value
    bots={"random": "random", "greedy": "greedy"},
)
KINDS = {"random": 0, "greedy": 1}
SETS = 81
RUNS = SETS + ref.MAX_COPIES * 8
NCODES = RUNS + 7 * 8


def _decode() -> tuple[str, ...]:
    out = [str(ref.Pass(t or None, g or None)) for t in range(9) for g in range(9)]
    out += [str(ref.Play((v,) * k)) for k in range(1, ref.MAX_COPIES + 1) for v in range(1, 9)]
    out += [str(ref.Play(tuple(range(s, s + k)))) if s + k <= 9 else "" for k in range(2, 9) for s in range(1, 9)]
    return tuple(out)


#: Action code -> reference notation ("" for a run past 8, which no game plays).
DECODE = _decode()

# cfg indexes
(N, HAND, T0, NOTED, WHEN_EMPTY, GAMES, RANDOM_TIE, GREEDY_PENALTY, LEAVE, NEXT_STARTER, LAST_RANK_TIE,
 MAX_TURNS, FIRST, RECORD_LEGAL) = range(14)
_NEXT = {"last_place": 0, "winner": 1, "rotate": 2}
LEGAL_CAP = RUNS + 7 * 8 + 81


@njit(cache=True, inline="always")
def _play_cards(code, out):
    """The counts per value of play ``code`` into ``out``; returns (count, total)."""
    for v in range(9):
        out[v] = 0
    if code < RUNS:
        k = (code - SETS) // 8 + 1
        v = (code - SETS) % 8 + 1
        out[v] = k
        return k, k * v
    k = (code - RUNS) // 8 + 2
    s = (code - RUNS) % 8 + 1
    for v in range(s, s + k):
        out[v] = 1
    return k, k * s + k * (k - 1) // 2


@njit(cache=True)
def _deal(cfg, deck_counts, g, starter, ch, cu):
    """Set up a game (D2): the cards in play sorted, shuffled, dealt from ``starter``
    clockwise; returns (deck cards, Storage size, ch, cu)."""
    hands, storage, deck, discard, gather, perm, pens, cards, rng = g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[10], g[14]
    n = cfg[N]
    k = 0
    for v in range(1, 9):
        c = deck_counts[v]
        if cfg[LEAVE]:
            for s in range(n):
                c -= pens[s, v]
        for _ in range(c):
            gather[k] = v
            k += 1
    if not cfg[LEAVE]:
        for s in range(n):
            for v in range(9):
                pens[s, v] = 0
    ch, cu = chance_shuffle(rng, perm, k, ch, cu)
    for i in range(k):
        cards[i] = gather[perm[i]]
    dealt = cfg[HAND] * n
    t0 = cfg[T0]
    for s in range(n):
        for v in range(9):
            hands[s, v] = 0
    for i in range(dealt):
        hands[(starter + i % n) % n, cards[i]] += 1
    for v in range(9):
        storage[v] = 0
        discard[v] = 0
    ssize = 0
    for i in range(dealt, dealt + t0):
        storage[cards[i]] += 1
        ssize += 1
    dn = 0
    for i in range(k - 1, dealt + t0 - 1, -1):  # top card last
        deck[dn] = cards[i]
        dn += 1
    return dn, ssize, ch, cu


# The position of a game in play, between kernel calls (``sv``, an int64 array): what the
# arrays of ``g`` do not hold. ``S_STATUS``: 0 in play, 1 over, 2 stopped by the turn cap.
(S_TARGET, S_OWNER, S_SCODE, S_CURRENT, S_PASSES, S_TURNS, S_GAME, S_STARTER, S_SSIZE, S_DN, S_FIRST,
 S_LENGTH, S_WINNER, S_STATUS) = range(14)
NSV = 14


@njit(cache=True)
def _play_from(cfg, deck_counts, kinds, acts, g, sv, ch, cu, lg, lu, lstart, steps, round0):
    """Play the position of ``g`` and ``sv`` on (the rest of the match too) until the game is
    over, or ``length`` reaches ``steps`` (if >= 0), or the game in play is no longer ``round0``
    (if >= 0), both checked before each action as ``ISMCTSBot``'s play_out does. Actions go to
    ``acts[length:]`` (grown when needed); returns (acts, ch, cu, lg, lu) and leaves the
    position in ``g`` and ``sv``."""
    hands, storage, deck, discard, gather, perm, pens, lost, ranking, tie, _, lcode, lkey, info, rng = g
    n = cfg[N]
    record_legal = cfg[RECORD_LEGAL] != 0
    target = sv[S_TARGET]
    owner = sv[S_OWNER]
    scode = sv[S_SCODE]
    current = sv[S_CURRENT]
    passes = sv[S_PASSES]
    turns = sv[S_TURNS]
    game_no = sv[S_GAME]
    starter = sv[S_STARTER]
    ssize = sv[S_SSIZE]
    dn = sv[S_DN]
    first = sv[S_FIRST]
    length = sv[S_LENGTH]
    scount = 0
    stotal = 0
    if scode >= 0:
        scount, stotal = _play_cards(scode, info)
    aborted = False
    over = False
    winner = -1
    sl = 0
    rl = 0
    while True:
        game_over = False
        sdirty = True
        while True:
            # play_out's checks, before each action: the steps taken, the game in play
            if (steps >= 0 and length >= steps) or (round0 >= 0 and game_no != round0):
                break
            if first < 0:
                first = current
            p = current
            # ---- the legal list: plays by (count, total, values), then passes (D4, D6)
            if sdirty:  # the limits change only with the Storage (D3.5)
                sl = 0
                rl = 0
                run = 0
                for v in range(1, 9):
                    if storage[v] > sl:
                        sl = storage[v]
                    run = run + 1 if storage[v] else 0
                    if run > rl:
                        rl = run
                sdirty = False
            hsize = 0
            hmax = 0
            for v in range(1, 9):
                hsize += hands[p, v]
                if hands[p, v] > hmax:
                    hmax = hands[p, v]
            kmax = 1
            if sl >= 2 and min(sl, hmax) > kmax:
                kmax = min(sl, hmax)
            if rl >= 2 and rl > kmax:
                kmax = rl
            nl = 0
            nplays = 0
            # Fewer cards than the standing play never beat it (D4.6, D4.7): start at its count.
            for kk in range(1 if owner < 0 else max(1, scount), kmax + 1):
                start = nl
                if 2 <= kk <= rl:
                    for s0 in range(1, 10 - kk):
                        ok = True
                        for v in range(s0, s0 + kk):
                            if hands[p, v] == 0:
                                ok = False
                                break
                        if ok:
                            total = kk * s0 + kk * (kk - 1) // 2
                            if owner < 0 or kk > scount or (kk == scount and total > stotal):
                                lcode[nl] = RUNS + (kk - 2) * 8 + s0 - 1
                                lkey[nl] = total * 2
                                nl += 1
                if kk == 1 or kk <= sl:
                    for v in range(1, 9):
                        if hands[p, v] >= kk:
                            total = kk * v
                            if owner < 0 or kk > scount or (kk == scount and total > stotal):
                                lcode[nl] = SETS + (kk - 1) * 8 + v - 1
                                lkey[nl] = total * 2 + 1
                                nl += 1
                for i in range(start + 1, nl):  # insertion sort by (total, values) within the count
                    c = lcode[i]
                    key = lkey[i]
                    j = i - 1
                    while j >= start and lkey[j] > key:
                        lcode[j + 1] = lcode[j]
                        lkey[j + 1] = lkey[j]
                        j -= 1
                    lcode[j + 1] = c
                    lkey[j + 1] = key
            nplays = nl
            nall = nl
            if owner >= 0:
                if record_legal or kinds[p] != 0:
                    if ssize > 0 or hsize > 1:
                        for t in range(0, 9):
                            if (t == 0 and ssize == 0) or (t > 0 and storage[t] > 0):
                                lcode[nl] = t * 9
                                nl += 1
                                for gv in range(1, 9):
                                    if gv != t and hands[p, gv] > 0:
                                        lcode[nl] = t * 9 + gv
                                        nl += 1
                    else:
                        lcode[nl] = 0
                        nl += 1
                    nall = nl
                else:  # a random bot needs only how many passes there are (see _pass_at)
                    nall = nplays + _pass_count(hands, storage, p, ssize, hsize)
            if record_legal:
                lg, lu = append_legal(lg, lu, lstart, length, lcode, nl)
            # ---- the bot's choice
            if kinds[p] == 0:
                r = below(rng, nall)
                code = lcode[r] if r < nl else _pass_at(hands, storage, p, ssize, hsize, r - nplays)
            elif nplays > 0:
                if owner < 0:  # lead: the most cards, the lowest total (ties at random)
                    best = -(1 << 40)
                    ties = 0
                    for i in range(nplays):
                        kk, total = _play_cards(lcode[i], info)
                        lkey[i] = kk * 100000 - total
                        best, ties = tally(lkey[i], best, ties, True)
                    code = tie_at_random(rng, lkey, lcode, nplays, best, ties)
                elif hsize <= 3:
                    code = lcode[nplays - 1]  # the strongest: keep control near the end
                else:
                    code = lcode[0]  # the weakest that beats
            else:  # pass: the cheapest take and give (see DepotGreedyBot._pass_cost)
                best = 1 << 40
                ties = 0
                for i in range(nl):
                    a = lcode[i]
                    t = a // 9
                    gv = a % 9
                    taken = storage[t] if t > 0 else 0
                    builds = 1 if t > 0 and hands[p, t] > 0 else 0
                    if gv == 0:
                        gcost = 50
                    else:
                        lone = hands[p, gv] == 1 and (gv == 1 or hands[p, gv - 1] == 0) and \
                            (gv == 8 or hands[p, gv + 1] == 0)
                        gcost = (0 if lone else 20) + gv
                    key = (taken - builds - (1 if gv > 0 else 0) + 1000) * 1000 + gcost
                    lkey[i] = key
                    best, ties = tally(key, best, ties, False)
                code = tie_at_random(rng, lkey, lcode, nl, best, ties)
            if length >= acts.shape[0]:
                acts = grow(acts, length, 256)
            acts[length] = code
            length += 1
            turns += 1
            # ---- apply
            if code >= SETS:  # a play (D4.9)
                kk, total = _play_cards(code, info)
                left = 0
                for v in range(1, 9):
                    hands[p, v] -= info[v]
                    left += hands[p, v]
                if owner >= 0:
                    _play_cards(scode, info)
                    for v in range(1, 9):
                        discard[v] += info[v]
                owner = p
                scode = code
                scount = kk
                stotal = total
                passes = 0
                if left == 0:
                    game_over = True
                else:
                    current = (p + 1) % n
            else:  # a pass (D6)
                sdirty = True
                t = code // 9
                gv = code % 9
                have = ssize
                noted = ssize
                if t > 0:
                    hands[p, t] += storage[t]
                    have -= storage[t]
                    storage[t] = 0
                if gv > 0:
                    hands[p, gv] -= 1
                    storage[gv] += 1
                    have += 1
                goal = noted if cfg[NOTED] else target
                passes += 1
                need = goal - have
                if need <= 0:
                    ssize = have
                elif dn > need:  # drawn from the deck, which keeps a card: no reshuffle (most refills)
                    for _ in range(need):
                        dn -= 1
                        storage[deck[dn]] += 1
                    ssize = goal
                else:
                    ssize, dn, ch, cu = _refill(storage, deck, discard, gather, perm, rng, ch, cu, dn, have, goal,
                                                cfg[WHEN_EMPTY])
                if passes == n - 1:  # the round ends (D7.2)
                    _play_cards(scode, info)
                    for v in range(1, 9):
                        discard[v] += info[v]
                    current = owner
                    owner = -1
                    target += 1
                    passes = 0
                    ssize, dn, ch, cu = _refill(storage, deck, discard, gather, perm, rng, ch, cu, dn, ssize,
                                                target, cfg[WHEN_EMPTY])
                else:
                    current = (p + 1) % n
            if game_over:
                winner = p
            if turns >= cfg[MAX_TURNS] and not game_over:
                aborted = True
                break
            if game_over:
                break
        if aborted or not game_over:
            break  # the turn cap, or a stop of play_out's: the position stays as it is
        # ---- game end (D8, D10)
        if cfg[GAMES] == 1:
            over = True
            break
        for s in range(n):
            tie[s] = (s - winner - 1) % n
        if cfg[RANDOM_TIE]:
            ch, cu = chance_shuffle(rng, perm, n, ch, cu)
            for i in range(n):
                tie[perm[i]] = i  # the seat order after the shuffle: tie[s] = its place
        ranking[0] = winner
        m = 1
        for s in range(n):
            if s != winner:
                ranking[m] = s
                m += 1
        for i in range(2, n):  # by (cards, -total, tie)
            s = ranking[i]
            j = i - 1
            while j >= 1 and _rank_key_gt(hands, tie, ranking[j], s):
                ranking[j + 1] = ranking[j]
                j -= 1
            ranking[j + 1] = s
        ref_v = -1
        for i in range(n - 1, 0, -1):  # D10.3: last place first
            s = ranking[i]
            c = -1
            if cfg[GREEDY_PENALTY] or ref_v < 0:
                for v in range(8, 0, -1):
                    if storage[v] > 0:
                        c = v
                        break
            else:
                for v in range(ref_v - 1, 0, -1):
                    if storage[v] > 0:
                        c = v
                        break
                if c < 0 and storage[ref_v] > 0:
                    c = ref_v
            if c > 0:
                storage[c] -= 1
                pens[s, c] += 1
                lost[s] += c
                ref_v = c
        if game_no >= cfg[GAMES]:
            over = True
            break
        rule = cfg[NEXT_STARTER]
        starter = ranking[n - 1] if rule == 0 else (winner if rule == 1 else (starter + 1) % n)
        game_no += 1
        dn, ssize, ch, cu = _deal(cfg, deck_counts, g, starter, ch, cu)
        target = cfg[T0]
        owner = -1
        scode = -1
        scount = 0
        stotal = 0
        current = starter
        passes = 0
        turns = 0
    sv[S_TARGET] = target
    sv[S_OWNER] = owner
    sv[S_SCODE] = scode
    sv[S_CURRENT] = current
    sv[S_PASSES] = passes
    sv[S_TURNS] = turns
    sv[S_GAME] = game_no
    sv[S_STARTER] = starter
    sv[S_SSIZE] = ssize
    sv[S_DN] = dn
    sv[S_FIRST] = first
    sv[S_LENGTH] = length
    sv[S_WINNER] = winner
    sv[S_STATUS] = 2 if aborted else (1 if over else 0)
    if record_legal:
        lstart[length] = lu
    return acts, ch, cu, lg, lu


@njit(cache=True)
def _play_one(seed, cfg, deck_counts, kinds, acts, g, sv, ch, lg, lstart):
    """One game (or match) from its seed. ``g`` holds the scratch arrays, ``ch``, ``lg`` and
    ``lstart`` the buffers of its chance stream and legal lists (grown when needed); returns
    (length, aborted, chance buffer, chance used, legal buffer, legal used)."""
    pens, lost, info, rng = g[6], g[7], g[13], g[14]
    n = cfg[N]
    reseed(rng, seed)
    cu = 0
    for s in range(n):
        lost[s] = 0
        for v in range(9):
            pens[s, v] = 0
    if cfg[FIRST] < 0:
        starter, ch, cu = chance_choice(rng, n, ch, cu)
    else:
        starter = cfg[FIRST]
    dn, ssize, ch, cu = _deal(cfg, deck_counts, g, starter, ch, cu)
    sv[S_TARGET] = cfg[T0]
    sv[S_OWNER] = -1
    sv[S_SCODE] = -1
    sv[S_CURRENT] = starter
    sv[S_PASSES] = 0
    sv[S_TURNS] = 0
    sv[S_GAME] = 1
    sv[S_STARTER] = starter
    sv[S_SSIZE] = ssize
    sv[S_DN] = dn
    sv[S_FIRST] = -1
    sv[S_LENGTH] = 0
    acts, ch, cu, lg, lu = _play_from(cfg, deck_counts, kinds, acts, g, sv, ch, cu, lg, 0, lstart, -1, -1)
    info[0] = sv[S_WINNER]
    info[1] = sv[S_TURNS]
    info[2] = sv[S_FIRST]
    return sv[S_LENGTH], sv[S_STATUS] == 2, ch, cu, lg, lu


@njit(cache=True, inline="always")
def _pass_count(hands, storage, p, ssize, hsize):
    """How many passes the legal list holds (D6.2-D6.4)."""
    held = 0
    for v in range(1, 9):
        if hands[p, v] > 0:
            held += 1
    if ssize == 0:
        return 1 + held if hsize > 1 else 1
    out = 0
    for t in range(1, 9):
        if storage[t] > 0:
            out += 1 + held - (1 if hands[p, t] > 0 else 0)
    return out


@njit(cache=True, inline="always")
def _pass_at(hands, storage, p, ssize, hsize, i):
    """The code of pass ``i`` of the legal list (in its order), without listing the others."""
    for t in range(0, 9):
        if (t == 0 and ssize == 0) or (t > 0 and storage[t] > 0):
            if i == 0:
                return t * 9
            i -= 1
            if t == 0 and hsize <= 1:
                continue
            for gv in range(1, 9):
                if gv != t and hands[p, gv] > 0:
                    if i == 0:
                        return t * 9 + gv
                    i -= 1
    return -1


@njit(cache=True)
def _reshuffle(deck, discard, gather, perm, rng, ch, cu):
    """The discard pile, sorted, shuffled into the deck (D9.1); returns (cards, ch, cu)."""
    m = 0
    for v in range(1, 9):
        for _ in range(discard[v]):
            gather[m] = v
            m += 1
        discard[v] = 0
    if m == 0:
        return 0, ch, cu
    ch, cu = chance_shuffle(rng, perm, m, ch, cu)
    for i in range(m):
        deck[i] = gather[perm[i]]
    return m, ch, cu


@njit(cache=True, inline="always")
def _refill(storage, deck, discard, gather, perm, rng, ch, cu, dn, ssize, goal, when_empty):
    """Draw into the Storage up to ``goal`` (D6.5, D7.2, D9); returns (size, deck cards, ch, cu)."""
    while ssize < goal:
        if dn == 0:
            dn, ch, cu = _reshuffle(deck, discard, gather, perm, rng, ch, cu)
            if dn == 0:
                break  # D9.2: nothing left to draw
        dn -= 1
        storage[deck[dn]] += 1
        ssize += 1
        if dn == 0 and when_empty:
            dn, ch, cu = _reshuffle(deck, discard, gather, perm, rng, ch, cu)
    return ssize, dn, ch, cu


@njit(cache=True)
def _rank_key_gt(hands, tie, a, b):
    """Whether seat ``a`` ranks below seat ``b`` (D10.2: more cards, then lower total, then tie)."""
    ca = 0
    cb = 0
    ta = 0
    tb = 0
    for v in range(1, 9):
        ca += hands[a, v]
        cb += hands[b, v]
        ta += v * hands[a, v]
        tb += v * hands[b, v]
    if ca != cb:
        return ca > cb
    if ta != tb:
        return ta < tb
    return tie[a] > tie[b]


@njit(cache=True)
def _work(n, total):
    """The arrays a game is played in (``g``), empty: piles of up to ``total`` cards."""
    return (np.zeros((n, 9), np.int64), np.zeros(9, np.int64), np.empty(total, np.int64), np.zeros(9, np.int64),
            np.empty(total, np.int64), np.empty(total, np.int64), np.zeros((n, 9), np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int64), np.zeros(n, np.int64), np.empty(total, np.int64), np.empty(LEGAL_CAP, np.int64),
            np.empty(LEGAL_CAP, np.int64), np.zeros(9, np.int64), np.zeros(1, np.uint64))


@njit(cache=True)
def _run(seeds, first, cfg, deck_counts, kinds, o_len, o_abort, o_info, o_scores, o_rank,
         acts, a_start, chance, c_start, legal, l_start, l_pos):
    """Play games ``first..`` into the output arrays; returns the index after the last game
    that fitted (the caller grows the buffers and calls again from there)."""
    n = cfg[N]
    total = 0
    for v in range(9):
        total += deck_counts[v]
    g = _work(n, total)
    hands, lost, ranking, info = g[0], g[7], g[8], g[13]
    sv = np.zeros(NSV, np.int64)
    local = np.empty(cfg[MAX_TURNS] * cfg[GAMES], np.int32)
    ch = np.empty(4 * (total + 1), np.int32)
    lg = np.empty(256 if cfg[RECORD_LEGAL] else 1, np.int16)
    lstart = np.empty(cfg[MAX_TURNS] * cfg[GAMES] + 1 if cfg[RECORD_LEGAL] else 1, np.int64)
    for gi in range(first, seeds.shape[0]):
        length, aborted, ch, cu, lg, lu = _play_one(seeds[gi], cfg, deck_counts, kinds, local, g, sv, ch, lg, lstart)
        if not record(gi, length, cu, lu, local, ch, lg, lstart, acts, a_start, chance, c_start, legal, l_start,
                      l_pos, cfg[RECORD_LEGAL] != 0):
            return gi
        o_len[gi] = length
        o_abort[gi] = aborted
        for j in range(3):
            o_info[gi, j] = info[j]
        for s in range(n):
            o_rank[gi, s] = ranking[s]
            if cfg[GAMES] == 3:
                o_scores[gi, s] = lost[s]
            else:
                c = 0
                for v in range(1, 9):
                    c += hands[s, v]
                o_scores[gi, s] = c
    return seeds.shape[0]


def _config(players: int, options: dict[str, Any], record_legal: bool) -> tuple[np.ndarray, np.ndarray]:
    sp = options["starting_player"]
    cfg = np.array([players, options["hand_size"][players], options["initial_storage"][players],
                    options["refill_target"] == "noted", options["reshuffle_timing"] == "when_empty",
                    options["games"], options["rank_tiebreak"] == "random", options["penalty_mode"] == "greedy",
                    options["penalty_cards_leave_play"], _NEXT[options["next_game_starter"]],
                    options["match_tie"] == "last_game_rank", options["max_turns"] or ref.TURN_BOUND,
                    -1 if sp == "random" else sp, record_legal], dtype=np.int64)
    counts = np.zeros(9, np.int64)
    for v, c in options["deck_counts"].items():
        counts[int(v)] = c
    return cfg, counts


def play(seeds: np.ndarray, players: int, mode: str, options: dict[str, Any], bots: tuple[str, ...],
         legal: bool = False) -> Batch:
    """Play one game (or match) per seed (see :mod:`cardwidgets.fast`); ``legal`` also records
    every legal list."""
    cfg, counts = _config(players, options, legal)
    kinds = np.array([KINDS[b] for b in bots], dtype=np.int64)
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    g = len(seeds)
    length = np.empty(g, np.int64)
    aborted = np.empty(g, np.bool_)
    info = np.empty((g, 3), np.int64)
    scores = np.empty((g, players), np.int64)
    rank = np.empty((g, players), np.int64)
    a_start = np.zeros(g + 1, np.int64)
    c_start = np.zeros(g + 1, np.int64)
    games = options["games"]
    deck = int(counts.sum())
    acts = np.empty(1024 + 200 * games * g, np.int32)
    chance = np.empty(1024 + 3 * (deck + 1) * games * g, np.int32)
    lg = np.empty(1024 + 30 * len(acts) if legal else 1, np.int16)
    l_start = np.empty(len(acts) + 1 if legal else 1, np.int64)
    l_pos = np.zeros(1, np.int64)
    bound = int(cfg[MAX_TURNS]) * games
    done = 0
    while done < g:
        done = _run(seeds, done, cfg, counts, kinds, length, aborted, info, scores, rank,
                    acts, a_start, chance, c_start, lg, l_start, l_pos)
        if done < g:  # a buffer was full: grow it and go on from that game
            left = g - done
            acts = _more(acts, a_start[done], 2 * bound + 400 * left)
            chance = _more(chance, c_start[done], 100_000 + 6 * (deck + 1) * left)
            if legal:
                lg = _more(lg, l_pos[0], 200 * bound + 6000 * left)
                l_start = _more(l_start, a_start[done] + 1, 2 * bound + 400 * left)
    end = int(a_start[g])
    winners = np.zeros((g, players), np.bool_)
    reasons = _outcomes(players, options, info, aborted, scores, rank, winners)
    batch = Batch("depot", players, mode, dict(options), tuple(bots), seeds, info[:, 2].copy(), winners, scores,
                  length, aborted, reasons, acts[:end], a_start, chance[:int(c_start[g])], c_start, DECODE)
    if legal:
        batch.legal = lg[:int(l_pos[0])]
        batch.legal_start = l_start[:end + 1]
    return batch


# --------------------------------------------------------------------------- IS-MCTS rollouts
@njit(cache=True)
def _rollout(cfg, deck_counts, kinds, head, zones, seed, steps, round0, out):
    """Play a loaded position on (see :func:`rollout`): ``head`` is ``sv`` then the lost
    points per seat, ``zones`` the counts per value of the hands, the Storage, the discard
    pile and the penalty piles, then the deck (top card last). ``out`` gets the status, the
    winner, the game in play, then per seat the cards in hand, the lost points and the last
    game's ranking. Returns (actions, chance buffer, chance used)."""
    n = cfg[N]
    total = zones.shape[0]  # room for every card: the deck never holds more than all of them
    for v in range(9):
        total += deck_counts[v]
    g = _work(n, total)
    hands, storage, deck, discard, _, _, pens, lost, ranking, _, _, _, _, _, rng = g
    z = 0
    for s in range(n):
        for v in range(9):
            hands[s, v] = zones[z + v]
        z += 9
    for v in range(9):
        storage[v] = zones[z + v]
        discard[v] = zones[z + 9 + v]
    z += 18
    for s in range(n):
        for v in range(9):
            pens[s, v] = zones[z + v]
        z += 9
    dn = head[S_DN]
    for i in range(dn):
        deck[i] = zones[z + i]
    sv = np.empty(NSV, np.int64)
    for i in range(NSV):
        sv[i] = head[i]
    for s in range(n):
        lost[s] = head[NSV + s]
    reseed(rng, seed)
    acts = np.empty(64, np.int32)
    ch = np.empty(64, np.int32)
    acts, ch, cu, _, _ = _play_from(cfg, deck_counts, kinds, acts, g, sv, ch, 0, np.empty(1, np.int16), 0,
                                    np.empty(1, np.int64), steps, round0)
    out[0] = sv[S_STATUS]
    out[1] = sv[S_WINNER]
    out[2] = sv[S_GAME]
    out[3] = sv[S_LENGTH]
    for s in range(n):
        c = 0
        for v in range(1, 9):
            c += hands[s, v]
        out[4 + s] = c
        out[4 + n + s] = lost[s]
        out[4 + 2 * n + s] = ranking[s]
    return acts, ch, cu


_CODES = {cards: code for code, cards in enumerate(
    [()] * SETS + [(v,) * k for k in range(1, ref.MAX_COPIES + 1) for v in range(1, 9)]
    + [tuple(range(s, s + k)) for k in range(2, 9) for s in range(1, 9)]) if cards}
#: The lane's settings per options dict (worlds of one game share theirs): options, cfg, deck counts.
_CONFIGS: dict[int, tuple[dict[str, Any], np.ndarray, np.ndarray]] = {}
_POLICY_KINDS = {name: np.array([k] * 5, np.int64) for name, k in KINDS.items()}


def rollout_problem(world: Any, policy: str) -> str | None:
    """Why the lane cannot roll ``world`` out with ``policy``, in words; ``None`` if it can."""
    if policy not in KINDS:
        return f"rollout policy {policy!r} (the lane rolls Depot out with {' or '.join(KINDS)})"
    return COVERAGE.problem("depot", world.players, world.mode, world.options, ())


def _settings(world: Any) -> tuple[np.ndarray, np.ndarray]:
    options = world.options
    got = _CONFIGS.get(id(options))
    if got is None or got[0] is not options:
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        cfg, counts = _config(world.players, options, False)
        got = _CONFIGS[id(options)] = (options, cfg, counts)
    return got[1], got[2]


def _load(world: Any) -> tuple[np.ndarray, np.ndarray]:
    """``head`` and ``zones`` of :func:`_rollout` from a reference state's fields."""
    standing = world._standing
    deck = world._deck
    head = [world._target, -1 if standing is None else standing[0],
            -1 if standing is None else _CODES[standing[1].cards], world._current, world._passes, world._turns,
            world._game_no, world._starter, world._info.size, len(deck), 0, 0, -1, 0, *world._lost]
    parts = [h.to_bytes(9, "little") for h in world._hands]
    parts.append(world._storage.to_bytes(9, "little"))
    parts.append(world._discard.to_bytes(9, "little"))
    for pile in world._penalties:
        b = bytearray(9)
        for v in pile:
            b[v] += 1
        parts.append(bytes(b))
    parts.append(deck)
    return np.array(head, np.int64), np.frombuffer(b"".join(parts), np.uint8)


def _run_rollout(world: Any, policy: str, steps: int | None, round0: int | None,
                 seed: int) -> tuple[list[float], np.ndarray, np.ndarray, int, np.ndarray]:
    from ..bots.ismcts import win_shares

    if world.is_terminal:
        return win_shares(world), np.empty(0, np.int32), np.empty(0, np.int32), 0, np.zeros(4, np.int64)
    cfg, counts = _settings(world)
    head, zones = _load(world)
    n = world.players
    out = np.empty(4 + 3 * n, np.int64)
    seed %= 1 << 64
    acts, ch, cu = _rollout(cfg, counts, _POLICY_KINDS[policy], head, zones, seed - (seed >> 63 << 64),
                            -1 if steps is None else steps, -1 if round0 is None else round0, out)
    return _reward(world.options, n, out.tolist()), acts, ch, cu, out


def _reward(options: dict[str, Any], n: int, out: list[int]) -> list[float]:
    """``_Search.play_out``'s reward of the position a rollout ended in: the win shares of a
    finished game, else Depot's estimate (the formulas of ``cardwidgets.bots.ismcts``)."""
    from ..bots.ismcts import _soft_shares

    status, winner, game_no = out[0], out[1], out[2]
    hands = out[4:4 + n]
    lost = out[4 + n:4 + 2 * n]
    games = options["games"]
    if status == 2:  # the turn cap: no winner, a draw
        return [1.0 / n] * n
    if status == 1:
        if games == 1:
            winners = [winner]
        else:
            best = min(lost)
            winners = [s for s in range(n) if lost[s] == best]
            if len(winners) > 1 and options["match_tie"] == "last_game_rank":
                order = out[4 + 2 * n:4 + 3 * n]
                winners = [min(winners, key=order.index)]
        share = 1.0 / len(winners)
        r = [0.0] * n
        for w in winners:
            r[w] = share
        return r
    if games == 1:
        return _soft_shares([-h for h in hands], 1.5)
    left = games - game_no
    return _soft_shares([-(lost[s] + 0.5 * hands[s]) for s in range(n)], 3.0 + 4.0 * left)


def rollout(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> list[float]:
    """Roll ``world`` (a reference state, any seat to act) on in the lane with ``policy``
    (``"random"`` or ``"greedy"``) and score it as ``ISMCTSBot``'s play_out does: stop at the
    end of the game, after ``steps`` actions (if not ``None``) or when the game in play of a
    match is no longer ``round0`` (if not ``None``). ``world`` is left as it was; the same
    ``seed`` gives the same rollout."""
    return _run_rollout(world, policy, steps, round0, seed)[0]


def rollout_trace(world: Any, policy: str, steps: int | None, round0: int | None,
                  seed: int) -> tuple[list[float], list[str], list[Any]]:
    """:func:`rollout` with its actions (reference notation) and its chance decisions (in the
    form of :class:`~cardwidgets.core.rng.Recorded`, numbered from the world's next one)."""
    reward, acts, ch, cu, out = _run_rollout(world, policy, steps, round0, seed)
    length = int(out[3])
    return reward, [DECODE[c] for c in acts[:length].tolist()], decisions(ch[:cu].tolist())


def _more(buf: np.ndarray, used: int, extra: int) -> np.ndarray:
    out = np.empty(max(2 * len(buf), int(used) + extra), buf.dtype)
    out[:used] = buf[:used]
    return out


def _outcomes(n: int, options: dict[str, Any], info: np.ndarray, aborted: np.ndarray, scores: np.ndarray,
              rank: np.ndarray, winners: np.ndarray) -> list[str]:
    """Winners (into ``winners``) and ``outcome().reason`` per game, worded as the reference engine does."""
    from ..core.state import SEAT_NAMES as L

    cap = options["max_turns"]
    games = options["games"]
    last_rank = options["match_tie"] == "last_game_rank"
    out = []
    emptied = [f"{L[w]} emptied their hand (rule D8.1)" for w in range(n)]  # worded once, not per game
    for i, (w, turns, _) in enumerate(info.tolist()):
        if aborted[i]:
            out.append(f"stopped by the engine's safety cap of {turns:,} turns (rule G4)" if cap is None else
                       f"stopped after {turns} turns by the max_turns safety cap (rule D9.3)")
            continue
        if games == 1:
            winners[i, w] = True
            out.append(emptied[w])
            continue
        lost = scores[i].tolist()
        best = min(lost)
        tied = [s for s in range(n) if lost[s] == best]
        why = f"fewest lost points after {games} games"
        if len(tied) > 1 and last_rank:
            order = rank[i].tolist()
            level = " and ".join(L[s] for s in tied)
            top = min(tied, key=order.index)
            winners[i, top] = True
            out.append(f"{why} ({level} tied with {best}; the last game's ranking puts {L[top]} first): "
                       f"{L[top]} wins (rule D10.7)")
        else:
            winners[i, tied] = True
            out.append(f"{why}: {' and '.join(L[s] for s in tied)} with {best} (rule D10.7)")
    return out
