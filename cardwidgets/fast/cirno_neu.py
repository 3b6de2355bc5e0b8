"""cirno+neu in the fast lane: every option, 2–8 players, random and greedy bots, and the
search bot's rollouts from any position (:func:`rollout`: a reference state is loaded as arrays).

The kernel follows the reference engine (``cardwidgets.games.cirno_neu``) step by step:
hands sorted by card id, the draw pile with its top last, the main stack bottom first,
and a new round gathers draw pile, main stack and each seat's hand in that order before
its shuffle (N2.3), the main stack but its top card for a reshuffle (N7.1). So the
permutation each shuffle draws is the reference engine's chance decision (see
:mod:`cardwidgets.fast`).

Action codes: card id ``c`` (the row of the N1.3 table, ``0..18``) for a play without a
target, ``19 + t`` for ``play shot @t`` and ``27 + t`` for ``play dshot @t``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..core.outcome import Termination
from ..games import cirno_neu as ref
from . import Batch, Coverage
from ._arrays import append_legal, chance_choice, chance_shuffle, insort, record, tally, tie_at_random
from ._rng import below, reseed

COVERAGE = Coverage(
    modes={"standard": ref.PLAYERS},
    options={o.name: None for o in ref.SPEC.options},  # every option, every allowed value
    bots={"random": "random", "greedy": "greedy", "survivor": "greedy"},
)
KINDS = {"random": 0, "greedy": 1}

NCARDS = len(ref.TOKENS)
PLUS_MAX, MINUS_1, MINUS_10, SET99, PASS, TURN, SHOT, DOUBLE, DSHOT = 10, 11, 12, 13, 14, 15, 16, 17, 18
assert (ref.MINUS_1, ref.SET99, ref.DSHOT, ref.PLUS_MAX) == (MINUS_1, SET99, DSHOT, PLUS_MAX)
_VALUE = np.array(ref.VALUE, dtype=np.int64)
BOUND = ref.ACTION_BOUND
#: Action code -> reference notation.
DECODE = tuple([str(ref.Play(t)) for t in ref.TOKENS] + [f"play shot @{t}" for t in range(8)]
               + [f"play dshot @{t}" for t in range(8)])

# cfg indexes
(N, HAND, LIMIT, SETV, LIFE, LIVES, FIRST, VOLUNTARY, AUTO, FLOOR, AFTER_SHOOTER, SELF_TARGET, PASS_ENDS,
 AFTER_EACH, STARTER, RESET_DIR, RECORD_LEGAL) = range(17)
# the position's scalars (sv) that _play starts from
(S_TOTAL, S_DIR, S_RND, S_ACTOR, S_ANCHOR, S_REQ, S_PLAYED, S_SHOT, S_DOUBLE, S_DEALER, S_DN, S_SN, S_NOUT, S_NEW,
 S_K, S_MOVES) = range(16)
NSV = 16
_STARTERS = {"loser": 0, "after_loser": 1, "rotate": 2}


@njit(cache=True)
def _remove(hands, hc, p, c):
    k = hc[p]
    i = 0
    while hands[p, i] != c:
        i += 1
    for j in range(i, k - 1):
        hands[p, j] = hands[p, j + 1]
    hc[p] = k - 1


@njit(cache=True)
def _step(active, n, s, d):
    for _ in range(n):
        s = (s + d) % n
        if active[s]:
            return s
    return s


@njit(cache=True)
def _play_one(seed, cfg, cards, kinds, acts, g, ch, lg, lstart):
    """One game from its deal. ``g`` holds the scratch arrays, ``ch``, ``lg`` and ``lstart`` the
    buffers of its chance stream and legal lists (grown when needed); returns (length, starter,
    aborted, chance buffer, chance used, legal buffer, legal used)."""
    hands, hc, draw, stack, gather, perm, active, chips, out_order, info, seats, lcode, lkey, rng = g
    n = cfg[N]
    T = cards.shape[0]
    reseed(rng, seed)
    cu = 0
    for s in range(n):
        active[s] = True
        chips[s] = cfg[LIVES] if cfg[LIFE] else 0
        hc[s] = 0
    # first dealer (N2.2), then the first shuffle of the sorted cards
    if cfg[FIRST] < 0:
        dealer, ch, cu = chance_choice(rng, n, ch, cu)
    else:
        dealer = cfg[FIRST]
    for i in range(T):
        gather[i] = cards[i]
    sv = np.zeros(NSV, np.int64)
    sv[S_DIR] = 1
    sv[S_DEALER] = dealer
    sv[S_REQ] = 1
    sv[S_SHOT] = -1
    sv[S_NEW] = 1
    sv[S_K] = T
    length, starter, aborted, ch, cu, lg, lu = _play(cfg, kinds, acts, g, ch, cu, lg, lstart, sv, -1, -1)
    return length, starter, aborted, ch, cu, lg, lu


@njit(cache=True)
def _play(cfg, kinds, acts, g, ch, cu, lg, lstart, sv, steps, round0):
    """Play on from a position: the zones in ``g`` (hands sorted, draw pile top last, main stack
    bottom first, or the cards gathered for a new deal in ``gather``), the scalars in ``sv``
    (``S_*``). Stops at the end of the match, at the action bound (G4), or before an action once
    ``steps`` actions were played (``-1``: no limit) or the round is no longer ``round0`` (``-1``:
    any round). ``info`` gets the winner (``-1`` if the match goes on) and the last bust; returns
    (length, starter, aborted, chance buffer, chance used, legal buffer, legal used)."""
    hands, hc, draw, stack, gather, perm, active, chips, out_order, info, seats, lcode, lkey, rng = g
    n = cfg[N]
    h = cfg[HAND]
    limit = cfg[LIMIT]
    record_legal = cfg[RECORD_LEGAL] != 0
    lu = 0
    total = sv[S_TOTAL]
    direction = sv[S_DIR]
    rnd = sv[S_RND]
    actor = sv[S_ACTOR]
    anchor = sv[S_ANCHOR]
    required = sv[S_REQ]
    played = sv[S_PLAYED]
    shot_target = sv[S_SHOT]
    double_next = sv[S_DOUBLE] != 0
    dealer = sv[S_DEALER]
    dn = sv[S_DN]
    sn = sv[S_SN]
    n_out = sv[S_NOUT]
    new_round = sv[S_NEW] != 0
    k = sv[S_K]
    moves0 = sv[S_MOVES]
    over = False
    aborted = False
    bust_seat = bust_round = bust_sum = -1
    winner = -1
    length = 0
    starter = -1
    owed = 0
    drawer = 0
    ended = False

    while True:
        if new_round:
            # N2.3: shuffle what was gathered, deal from the dealer clockwise
            ch, cu = chance_shuffle(rng, perm, k, ch, cu)
            for i in range(k):
                stack[i] = gather[perm[i]]  # stack: scratch for the new order
            for s in range(n):
                hc[s] = 0
            seats[0] = dealer  # the dealer first, then clockwise
            m = 1
            for j in range(1, n):
                s = (dealer + j) % n
                if active[s]:
                    seats[m] = s
                    m += 1
            dealt = m * h
            for i in range(dealt):
                insort(hands, hc, seats[i % m], stack[i])
            dn = 0
            for i in range(k - 1, dealt - 1, -1):  # top of the pile last
                draw[dn] = stack[i]
                dn += 1
            sn = 0
            total = 0
            if cfg[RESET_DIR] or rnd == 0:
                direction = 1
            rnd += 1
            actor = anchor = dealer
            required = 1
            played = 0
            shot_target = -1
            double_next = False
            new_round = False
        # settle: the cards owed, empty hands (N4.5), forced busts (N4.4)
        busted = False
        while True:
            # N4.7: ``drawer`` draws ``owed`` cards one at a time while there are any; an empty draw pile
            # is the main stack but its top card, shuffled (N7.1). Then, if ``drawer``'s turn ``ended``, the
            # next actor (N5). A play and an emptied hand leave both to this one place; no chance decision
            # comes between, so the order is the rules'.
            for _ in range(owed):
                if dn == 0:
                    if sn < 2:
                        break
                    top = stack[sn - 1]
                    k = sn - 1
                    ch, cu = chance_shuffle(rng, perm, k, ch, cu)
                    for i in range(k):
                        draw[i] = stack[perm[i]]
                    dn = k
                    stack[0] = top
                    sn = 1
                dn -= 1
                insort(hands, hc, drawer, draw[dn])
            owed = 0
            if ended:  # N5: who plays next
                ended = False
                req = 2 if double_next else 1
                if shot_target >= 0:
                    anchor = drawer if cfg[AFTER_SHOOTER] else shot_target
                    actor = shot_target
                else:
                    actor = anchor = _step(active, n, anchor, direction)
                required = req
                played = 0
                shot_target = -1
                double_next = False
            p = actor
            if hc[p] == 0:  # N4.5: an emptied hand ends the turn
                if not (required == 2 and cfg[AFTER_EACH]):
                    owed = played
                drawer = p
                ended = True
                continue
            if cfg[AUTO]:
                c0 = hands[p, 0]
                if c0 <= PLUS_MAX and _VALUE[c0] > limit - total and hands[p, hc[p] - 1] <= PLUS_MAX:
                    busted = True
            break
        if busted:
            p = actor
        else:
            if starter < 0:
                starter = actor
            if moves0 + length >= BOUND:
                aborted = True
                break
            if (steps >= 0 and length >= steps) or (round0 >= 0 and rnd != round0):
                break
            # the legal list (reference order), and the bot's choice
            p = actor
            nl = 0
            room = limit - total
            prev = -1
            for i in range(hc[p]):
                c = hands[p, i]
                if c != prev and (cfg[VOLUNTARY] or c > PLUS_MAX or _VALUE[c] <= room):
                    if c == SHOT or c == DSHOT:
                        base = 19 if c == SHOT else 27
                        for t in range(n):
                            if active[t] and (t != p or cfg[SELF_TARGET]):
                                lcode[nl] = base + t
                                nl += 1
                    else:
                        lcode[nl] = c
                        nl += 1
                prev = c
            if nl == 0:  # forced, auto_forced_bust off: every card (N4.4)
                prev = -1
                for i in range(hc[p]):
                    c = hands[p, i]
                    if c != prev:
                        lcode[nl] = c
                        nl += 1
                    prev = c
            if record_legal:
                lg, lu = append_legal(lg, lu, lstart, length, lcode, nl)
            if kinds[p] == 0:
                code = lcode[below(rng, nl)]
            else:
                high = total >= limit - 10
                best = -(1 << 62)
                ties = 0
                for i in range(nl):
                    a = lcode[i]
                    c = a if a < 19 else (SHOT if a < 27 else DSHOT)
                    t = -1 if a < 19 else (a - 19 if a < 27 else a - 27)
                    tw = 0
                    if t >= 0:
                        tw = -chips[t] if cfg[LIFE] else -hc[t]
                    if c <= PLUS_MAX:
                        after = total + _VALUE[c]
                        key = ((3 if after <= limit else -9) << 40) + ((after + (1 << 30)) << 1)
                    elif c == DOUBLE or c == DSHOT:
                        key = ((4 if high else 0) << 40) + ((tw + (1 << 30)) << 1) + 1
                    elif c == SET99:
                        key = ((4 if high else 1) << 40) + ((1 << 30) << 1)
                    elif c == SHOT:
                        key = ((2 if high else 0) << 40) + ((tw + (1 << 30)) << 1)
                    elif c == PASS:
                        key = (1 << 40) + ((1 << 30) << 1)
                    elif c == TURN:
                        key = (1 << 40) + ((-1 + (1 << 30)) << 1)
                    else:
                        key = (-_VALUE[c] + (1 << 30)) << 1
                    lkey[i] = key
                    best, ties = tally(key, best, ties, True)
                code = tie_at_random(rng, lkey, lcode, nl, best, ties)
            acts[length] = code
            length += 1
            # apply (N3, N4)
            c = code if code < 19 else (SHOT if code < 27 else DSHOT)
            t = -1 if code < 19 else (code - 19 if code < 27 else code - 27)
            _remove(hands, hc, p, c)
            stack[sn] = c
            sn += 1
            if c <= PLUS_MAX:
                total += _VALUE[c]
                if total > limit:
                    busted = True
            elif c == MINUS_1 or c == MINUS_10:
                total -= _VALUE[c]
                if total < 0 and cfg[FLOOR]:
                    total = 0
            elif c == SET99:
                total = cfg[SETV]
            elif c == TURN:
                direction = -direction
            elif c == SHOT:
                shot_target = t
            elif c == DOUBLE:
                double_next = True
            elif c == DSHOT:
                shot_target = t
                double_next = True
            if not busted:
                played += 1
                each = required == 2 and cfg[AFTER_EACH]
                ndraw = 1 if each else 0
                ends = played >= required or (c == PASS and cfg[PASS_ENDS])
                if ends and not each:
                    ndraw = played
                owed = ndraw  # drawn, and the turn ended, first thing in the settle
                drawer = p
                ended = ends
                continue  # settle, then stop at the bound (G4) if the match goes on
        # a bust (N6)
        bust_seat = p
        bust_round = rnd
        bust_sum = total
        if cfg[LIFE]:
            chips[p] -= 1
            if chips[p] <= 0:
                active[p] = False
        else:
            active[p] = False
        if not active[p]:
            out_order[n_out] = p
            n_out += 1
        left = 0
        for s in range(n):
            if active[s]:
                left += 1
                winner = s
        if left == 1:
            over = True
            break
        if cfg[STARTER] == 0 and active[p]:
            dealer = p
        elif cfg[STARTER] == 2:
            dealer = _step(active, n, dealer, 1)
        else:
            dealer = _step(active, n, p, 1)
        # gather: draw pile (top last), main stack, every hand (N2.3)
        k = 0
        for i in range(dn):
            gather[k] = draw[i]
            k += 1
        for i in range(sn):
            gather[k] = stack[i]
            k += 1
        for s in range(n):
            for i in range(hc[s]):
                gather[k] = hands[s, i]
                k += 1
        new_round = True
    info[0] = winner if over else -1
    info[1] = bust_seat
    info[2] = bust_round
    info[3] = bust_sum
    info[4] = n_out
    if record_legal:
        lstart[length] = lu
    return length, starter, aborted, ch, cu, lg, lu


@njit(cache=True)
def _work(n, cap, T):
    """The arrays a game is played in (``g``): hands of up to ``cap`` cards, piles of up to ``T``."""
    return (np.empty((n, cap), np.int64), np.zeros(n, np.int64), np.empty(T, np.int64), np.empty(T, np.int64),
            np.empty(T, np.int64), np.empty(T, np.int64), np.ones(n, np.bool_), np.zeros(n, np.int64),
            np.empty(2 * n, np.int64), np.empty(5, np.int64), np.empty(n, np.int64), np.empty(64, np.int64),
            np.empty(64, np.int64), np.zeros(1, np.uint64))


@njit(cache=True)
def _run(seeds, first, cfg, cards, kinds, o_starter, o_len, o_abort, o_info, o_scores,
         acts, a_start, chance, c_start, legal, l_start, l_pos):
    """Play games ``first..`` into the output arrays; returns the index after the last game
    that fitted (the caller grows the buffers and calls again from there)."""
    n = cfg[N]
    T = cards.shape[0]
    cap = cfg[HAND] + 2
    g = _work(n, cap, T)
    chips, out_order, info = g[7], g[8], g[9]
    local = np.empty(BOUND, np.int32)
    ch = np.empty(4 * T + 8, np.int32)
    lg = np.empty(64 if cfg[RECORD_LEGAL] else 1, np.int16)
    lstart = np.empty(BOUND + 1 if cfg[RECORD_LEGAL] else 1, np.int64)
    for gi in range(first, seeds.shape[0]):
        length, starter, aborted, ch, cu, lg, lu = _play_one(seeds[gi], cfg, cards, kinds, local, g, ch, lg, lstart)
        if not record(gi, length, cu, lu, local, ch, lg, lstart, acts, a_start, chance, c_start, legal, l_start,
                      l_pos, cfg[RECORD_LEGAL] != 0):
            return gi
        o_starter[gi] = starter
        o_len[gi] = length
        o_abort[gi] = aborted
        for j in range(5):
            o_info[gi, j] = info[j]
        n_out = info[4]
        for s in range(n):
            if aborted:
                o_scores[gi, s] = chips[s]
            elif cfg[LIFE]:
                o_scores[gi, s] = chips[s]
            else:
                o_scores[gi, s] = n - 1
        if not aborted and not cfg[LIFE]:
            for j in range(n_out):
                o_scores[gi, out_order[j]] = j
    return seeds.shape[0]


def _config(players: int, options: dict[str, Any], record_legal: bool) -> tuple[np.ndarray, np.ndarray]:
    rcfg = ref._make_config(dict(options))
    fd = options["first_dealer"]
    cfg = np.array([players, rcfg.hand_size, rcfg.limit, rcfg.set_value, rcfg.life_system, rcfg.lives,
                    -1 if fd == "random" else fd, rcfg.voluntary, rcfg.auto_bust, rcfg.floor, rcfg.after_shooter,
                    rcfg.self_target, rcfg.pass_ends, rcfg.after_each, _STARTERS[rcfg.starter],
                    rcfg.reset_direction, record_legal], dtype=np.int64)
    return cfg, np.array(rcfg.cards, dtype=np.int64)


def play(seeds: np.ndarray, players: int, mode: str, options: dict[str, Any], bots: tuple[str, ...],
         legal: bool = False) -> Batch:
    """Play one game per seed (see :mod:`cardwidgets.fast`); ``legal`` also records every legal list."""
    cfg, cards = _config(players, options, legal)
    kinds = np.array([KINDS[b] for b in bots], dtype=np.int64)
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    g = len(seeds)
    starter = np.empty(g, np.int64)
    length = np.empty(g, np.int64)
    aborted = np.empty(g, np.bool_)
    info = np.empty((g, 5), np.int64)
    scores = np.empty((g, players), np.int64)
    a_start = np.zeros(g + 1, np.int64)
    c_start = np.zeros(g + 1, np.int64)
    # Room for typical games (the buffers grow if a batch needs more): np.empty touches no page.
    acts = np.empty(1024 + (64 + 12 * players) * g, np.int32)
    chance = np.empty(1024 + (len(cards) + 1) * (2 + players) * g, np.int32)
    lg = np.empty(1024 + 6 * len(acts) if legal else 1, np.int16)
    l_start = np.empty(len(acts) + 1 if legal else 1, np.int64)
    l_pos = np.zeros(1, np.int64)
    done = 0
    while done < g:
        done = _run(seeds, done, cfg, cards, kinds, starter, length, aborted, info, scores,
                    acts, a_start, chance, c_start, lg, l_start, l_pos)
        if done < g:  # a buffer was full: grow it and go on from that game
            left = g - done
            acts = _more(acts, a_start[done], 2 * BOUND + 400 * left)
            chance = _more(chance, c_start[done], 100_000 + 300 * left)
            if legal:
                lg = _more(lg, l_pos[0], 40 * BOUND + 2000 * left)
                l_start = _more(l_start, a_start[done] + 1, 2 * BOUND + 400 * left)
    end = int(a_start[g])
    batch = Batch("cirno_neu", players, mode, dict(options), tuple(bots), seeds, starter,
                  np.zeros((g, players), np.bool_), scores, length, aborted, [], acts[:end], a_start,
                  chance[:int(c_start[g])], c_start, DECODE)
    winner = info[:, 0]
    ok = winner >= 0
    batch.winners[np.nonzero(ok)[0], winner[ok]] = True
    batch.reasons = _reasons(info, aborted)
    if legal:
        batch.legal = lg[:int(l_pos[0])]
        batch.legal_start = l_start[:end + 1]
    return batch


def _more(buf: np.ndarray, used: int, extra: int) -> np.ndarray:
    out = np.empty(max(2 * len(buf), int(used) + extra), buf.dtype)
    out[:used] = buf[:used]
    return out


_CAP = f"stopped by the engine's safety cap of {BOUND:,} actions (rule G4)"


def _reasons(info: np.ndarray, aborted: np.ndarray) -> list[str]:
    from ..core.state import SEAT_NAMES

    return [_CAP if ab else f"{SEAT_NAMES[seat]} busted last (round {rnd}, sum {total}); "
                            f"{SEAT_NAMES[w]} is the last player left (rule N6.5)"
            for (w, seat, rnd, total, _), ab in zip(info.tolist(), aborted.tolist())]


# --------------------------------------------------------------------------- rollouts (IS-MCTS)
#: Rollout policy -> the bot kind the kernel plays every seat with.
POLICIES = {"random": 0, "greedy": 1}
# The head of a loaded position (see _load): then active, chips, out order, hand sizes per seat,
# the draw pile's and the stack's sizes, and the cards of the hands, draw pile and stack.
(H_ACTOR, H_ANCHOR, H_REQ, H_PLAYED, H_SHOT, H_DOUBLE, H_TOTAL, H_DIR, H_DEALER, H_RND, H_MOVES, H_NOUT) = range(12)
NHEAD = 12


@njit(cache=True)
def _rollout(cfg, pos, kind, steps, round0, seed):
    """Play the loaded position ``pos`` on with every seat's bot ``kind``; returns (reward per
    seat, actions, their number, chance stream, its length)."""
    n = cfg[N]
    at = NHEAD + 3 * n
    sizes = pos[at:at + n]
    dn = pos[at + n]
    sn = pos[at + n + 1]
    T = dn + sn
    cap = 1
    for s in range(n):
        T += sizes[s]
        cap = max(cap, sizes[s])
    cap = max(cap, cfg[HAND]) + 2
    g = _work(n, cap, T)
    hands, hc, draw, stack, gather, perm, active, chips, out_order, info, seats, lcode, lkey, rng = g
    reseed(rng, seed)
    for s in range(n):
        active[s] = pos[NHEAD + s] != 0
        chips[s] = pos[NHEAD + n + s]
        out_order[s] = pos[NHEAD + 2 * n + s]
        hc[s] = sizes[s]
    j = at + n + 2
    for s in range(n):
        for i in range(sizes[s]):
            hands[s, i] = pos[j]
            j += 1
    for i in range(dn):
        draw[i] = pos[j]
        j += 1
    for i in range(sn):
        stack[i] = pos[j]
        j += 1
    sv = np.zeros(NSV, np.int64)
    sv[S_TOTAL] = pos[H_TOTAL]
    sv[S_DIR] = pos[H_DIR]
    sv[S_RND] = pos[H_RND]
    sv[S_ACTOR] = pos[H_ACTOR]
    sv[S_ANCHOR] = pos[H_ANCHOR]
    sv[S_REQ] = pos[H_REQ]
    sv[S_PLAYED] = pos[H_PLAYED]
    sv[S_SHOT] = pos[H_SHOT]
    sv[S_DOUBLE] = pos[H_DOUBLE]
    sv[S_DEALER] = pos[H_DEALER]
    sv[S_DN] = dn
    sv[S_SN] = sn
    sv[S_NOUT] = pos[H_NOUT]
    sv[S_MOVES] = pos[H_MOVES]
    kinds = np.full(n, kind, np.int64)
    acts = np.empty(BOUND - pos[H_MOVES] + 1, np.int32)
    ch = np.empty(4 * T + 8, np.int32)
    lg = np.empty(1, np.int16)
    lstart = np.empty(1, np.int64)
    length, starter, aborted, ch, cu, lg, lu = _play(cfg, kinds, acts, g, ch, 0, lg, lstart, sv, steps, round0)
    reward = np.empty(n, np.float64)
    if info[0] >= 0:  # the match is over: win_shares
        for s in range(n):
            reward[s] = 0.0
        reward[info[0]] = 1.0
    elif aborted:  # stopped by the bound (G4): no winner, a draw
        for s in range(n):
            reward[s] = 1.0 / n
    else:  # the estimate of a match that goes on (ismcts._cirno_estimate): softmax of the chips, out -1e9
        top = -np.inf
        for s in range(n):
            v = (float(chips[s]) if cfg[LIFE] else 0.0) if active[s] else -1e9
            reward[s] = v
            top = max(top, v)
        total = 0.0
        for s in range(n):
            reward[s] = np.exp(reward[s] - top)
            total += reward[s]
        for s in range(n):
            reward[s] = reward[s] / total
    return reward, acts, length, ch, cu


_CFGS: dict[int, tuple[Any, np.ndarray]] = {}


def _cfg_of(world: Any) -> np.ndarray:
    """The kernel's config of a world's options (clones and sampled worlds share one Config: cached by it)."""
    hit = _CFGS.get(id(world._cfg))
    if hit is not None and hit[0] is world._cfg and hit[1][N] == world.players:
        return hit[1]
    cfg = _config(world.players, world.options, False)[0]
    if len(_CFGS) > 256:
        _CFGS.clear()
    _CFGS[id(world._cfg)] = (world._cfg, cfg)  # holds the Config, so its id is not reused
    return cfg


def _load(world: Any) -> np.ndarray:
    """A position as one int64 array: the head (``H_*``), then per seat active, chips, out order
    and hand size, the pile sizes and the cards, in the reference engine's orders."""
    hands = world._hands
    st = world._shot_target
    out = list(world._out)
    n = world.players
    flat = [world._actor, world._anchor, world._required, world._played, -1 if st is None else st,
            1 if world._double_next else 0, world._sum, world._dir, world._dealer, world._round, world._moves,
            len(out)]
    flat += world._active
    flat += world._chips
    flat += out + [0] * (n - len(out))
    flat += [len(h) for h in hands]
    flat.append(len(world._draw))
    flat.append(len(world._stack))
    for h in hands:
        flat += h
    flat += world._draw
    flat += world._stack
    return np.array(flat, np.int64)


def rollout_problem(world: Any, policy: str) -> str | None:
    """Why this world or policy cannot roll out in the lane (``None``: it can): every option and
    player count is covered, the policies ``"random"`` and ``"greedy"``."""
    if policy not in POLICIES:
        return f"rollout policy {policy!r} of cirno_neu; the lane plays {', '.join(POLICIES)}"
    return None


def _go(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> tuple:
    kind = POLICIES.get(policy)
    if kind is None:  # (rollout_problem's check, inlined: this runs once per search iteration)
        raise ValueError(f"the fast lane does not cover {rollout_problem(world, policy)}")
    return _rollout(_cfg_of(world), _load(world), kind, -1 if steps is None else steps,
                    -1 if round0 is None else round0, seed)


def _win_shares(world: Any) -> list[float]:
    """``ismcts.win_shares`` of a finished match: the last player left, or a draw at the bound (G4).
    Read from the fields: ``outcome()`` words its reason, which costs more than a rollout."""
    n = world.players
    if world._termination is Termination.ABORTED:
        return [1.0 / n] * n
    return [1.0 if a else 0.0 for a in world._active]


def rollout(world: Any, policy: str, steps: int | None, round0: int | None, seed: int) -> list[float]:
    """Play ``world`` on in the lane with ``policy`` and return the reward ``ismcts`` computes at
    the end (see :mod:`cardwidgets.fast`, "Rollouts"); ``world`` is left as it is."""
    if world._cp is None:
        return _win_shares(world)
    return _go(world, policy, steps, round0, seed)[0].tolist()


def rollout_trace(world: Any, policy: str, steps: int | None, round0: int | None,
                  seed: int) -> tuple[list[float], list[str], list[Any]]:
    """:func:`rollout` with its actions (reference notation) and chance decisions (``Recorded`` form)."""
    if world._cp is None:
        return _win_shares(world), [], []
    from . import decisions

    reward, acts, length, ch, cu = _go(world, policy, steps, round0, seed)
    return reward.tolist(), [DECODE[c] for c in acts[:length].tolist()], decisions(ch[:cu].tolist())
