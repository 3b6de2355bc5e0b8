"""cirno+neu worlds (``state.sample_world``): time, memory and give-ups on long rounds, and
how close the worlds stay to uniform, for this sampler and an earlier one in the same run.

    python benchmarks/cirno_worlds.py [--old REV] [--worlds N] [--samples N] [--games N]

The earlier sampler is ``cardwidgets/games/cirno_neu/worlds.py`` at git revision ``--old``
(default: the last commit before the swap chain), loaded beside this one; ``--old ''``
measures this one alone. This sampler matches the round's plays to the cards their players
received once per seat and position, then deals each world by a chain of swaps; the
earlier one searched a new matching for every world.

1. Rounds of many reshuffles with options the app offers (8 players, ``hand_size=7``,
   ``limit=10000``), played by random or greedy bots: for every seat ``--worlds`` worlds.
   Seconds per world (median, max; a seat's first world also builds its record and
   matching), how many gave up (``SamplingLimitError``), and the largest tracemalloc peak
   of a seat's first world on a fresh position.
2. A sweep over positions every 60 moves of ``--games`` such matches, one world each for a
   random seat: how many were dealt and gave up, CPU seconds per world (median, max) and
   the largest tracemalloc peak. The positions where a sampler gives up are its worst case.
3. Uniformity on small positions (2 players, a deck of 7 or 8 distinct cards, reshuffles),
   where every deal and every reshuffle order can be played along the same public moves:
   the exact distribution of the hidden cards given what the seat saw (each consistent
   deal and shuffle equally likely, the moves telling nothing more) against ``--samples``
   worlds. Total variation distance (TVD), the TVD as many exact draws show by chance
   (mean of 20 runs: the floor a perfect sampler sits on), and the p-value of Pearson's
   chi-square test of the counts against the exact odds.
4. Positions too large to enumerate (4 and 6 players mid-round, 8 players with 60 and 200
   reshuffles): how often each other player holds each card, against this sampler's chain
   made 8 times as long, and the gap two runs of that long chain show by chance.

Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardwidgets.games.cirno_neu as cn  # noqa: E402
from cardwidgets import SamplingLimitError  # noqa: E402
from cardwidgets.bots import ask, make_bot  # noqa: E402
from cardwidgets.core import Recorded  # noqa: E402

OLD = "bbcc7e5"
LONG = [("random", 10, 60), ("random", 12, 53), ("greedy", 0, 195), ("greedy", 2, 200), ("greedy", 3, 215)]

Sampler = Callable[[cn.CirnoNeuState, int, random.Random], cn.CirnoNeuState]


def new_sampler(st: cn.CirnoNeuState, seat: int, rng: random.Random) -> cn.CirnoNeuState:
    return st.sample_world(seat, rng)


def old_sampler(rev: str) -> Sampler:
    """``sample_world`` of the worlds module at ``rev``, with its own record (not cached)."""
    text = subprocess.run(["git", "show", f"{rev}:cardwidgets/games/cirno_neu/worlds.py"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("cardwidgets.games.cirno_neu._earlier_worlds", f.name)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "cardwidgets.games.cirno_neu"
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    records: dict[int, tuple] = {}

    def sample(st: cn.CirnoNeuState, seat: int, rng: random.Random) -> cn.CirnoNeuState:
        hit = records.get(id(st))
        if hit is None or hit[0] is not st:  # one record per position, as the engine caches it
            hit = records[id(st)] = (st, mod._Record.rebuild(st))
        hands, draw, _ = hit[1].seat(seat, st).sample(st, rng)
        world = st.clone()
        world._hands, world._draw = hands, draw
        return world

    return sample


def long_round(bot: str, seed: int, reshuffles: int) -> cn.CirnoNeuState:
    st = cn.new_game(players=8, seed=seed, hand_size=7, limit=10000)
    bots = [make_bot("cirno_neu", bot, seed=s) for s in range(8)]
    made = 0
    while made < reshuffles:
        rnd, pile = st.round, len(st.draw_pile)
        st.apply(ask(bots[st.current_player], st))
        made = 0 if st.round != rnd else made + (len(st.draw_pile) > pile)
    return st


def try_world(sampler: Sampler, st: cn.CirnoNeuState, seat: int, rng: random.Random) -> bool:
    try:
        sampler(st, seat, rng)
        return True
    except SamplingLimitError:
        return False


def peak_mb(sampler: Sampler, st: cn.CirnoNeuState, seat: int, rng: random.Random) -> float:
    tracemalloc.start()
    try:
        try_world(sampler, st, seat, rng)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def long_rounds(samplers: dict[str, Sampler], worlds: int) -> None:
    print(f"{'round':>24} {'sampler':>7} {'played':>6} {'s/world med':>11} {'max':>6} {'gave up':>7} {'peak MB':>7}")
    for bot, seed, reshuffles in LONG:
        for name, sampler in samplers.items():
            st = long_round(bot, seed, reshuffles)
            times, gave_up = [], 0
            for seat in range(8):
                for r in range(worlds):
                    t = time.perf_counter()
                    gave_up += not try_world(sampler, st, seat, random.Random(r))
                    times.append(time.perf_counter() - t)
            st = long_round(bot, seed, reshuffles)  # memory: records and matchings built again
            peak = max(peak_mb(sampler, st, seat, random.Random(worlds)) for seat in range(8))
            played = sum(1 for ev in st._record().events if ev[0] == "play")
            print(f"{bot:>6} seed {seed:>2}, {reshuffles:>3} resh. {name:>7} {played:>6} "
                  f"{statistics.median(times):>11.4f} {max(times):>6.3f} {gave_up:>7} {peak:>7.1f}")


def sweep_positions(games: int) -> list[tuple[int, int, dict]]:
    """Positions every 60 moves of ``games`` matches (8 players, 7 cards, limit 10000, every
    other one drawing after each card of a double turn; random or greedy bots)."""
    positions = []
    for g in range(games):
        rng = random.Random(g)
        extra = {"double_draw_timing": "after_each"} if g % 2 else {}
        st = cn.new_game(players=8, seed=g, hand_size=7, limit=10000, **extra)
        bots = [make_bot("cirno_neu", rng.choice(["random", "greedy"]), seed=s) for s in range(8)]
        k = 0
        while not st.is_terminal and k < 1200:
            st.apply(ask(bots[st.current_player], st))
            k += 1
            if k % 60 == 0:
                positions.append((k, rng.randrange(8), st.to_dict()))
    return positions


def sweep(samplers: dict[str, Sampler], games: int) -> None:
    """A world for a random seat of each position (a fresh copy, so records and matchings
    are built in the time measured): dealt, gave up, CPU per world, memory."""
    positions = sweep_positions(games)
    print(f"\nsweep: {len(positions)} positions of {games} matches, one world each (first world of the position)")
    for name, sampler in samplers.items():
        cpus, failed, peaks = [], [], []
        for n, (k, seat, d) in enumerate(positions):
            st = cn.from_dict(d)
            cpu = time.process_time()
            if not try_world(sampler, st, seat, random.Random(k)):
                failed.append(n)
            cpus.append(time.process_time() - cpu)
            if n % 10 == 0 or n in failed:
                peaks.append(peak_mb(sampler, cn.from_dict(d), seat, random.Random(k)))
        worst = max(cpus[n] for n in failed) if failed else 0.0
        print(f"{name:>7}: {len(positions) - len(failed)} dealt, {len(failed)} gave up {failed}; CPU s median "
              f"{statistics.median(cpus):.3f}, max {max(cpus):.3f} (giving up: max {worst:.3f}); "
              f"peak MB max {max(peaks):.1f}")


# --------------------------------------------------------------------------- uniformity
TINY = dict(players=2, hand_size=2, deck_counts={"1": 1, "2": 1, "3": 1, "4": 1, "PASS": 1, "TURN": 1, "-10": 1})
EIGHT = dict(TINY, deck_counts=dict(TINY["deck_counts"], **{"5": 1}))
SMALL = [(TINY, 1, 4, 0), (TINY, 2, 5, 1), (TINY, 3, 7, 1), (TINY, 5, 5, 0),
         (EIGHT, 1, 5, 1), (EIGHT, 9, 6, 0), (EIGHT, 4, 7, 1), (EIGHT, 7, 8, 0)]


def hidden(st: cn.CirnoNeuState, seat: int) -> tuple:
    return tuple(tuple(sorted(st.hand(s))) for s in range(st.players) if s != seat) + (tuple(st.draw_pile),)


def small_position(cfg: dict, seed: int, steps: int) -> tuple[list, list[str], cn.CirnoNeuState]:
    rng = random.Random(seed)
    deck = list(Counter(cfg["deck_counts"]).elements())
    rng.shuffle(deck)
    st = cn.new_game(seed=3, deck=deck, **cfg)
    actions = []
    for _ in range(steps):
        if st.is_terminal:
            break
        a = rng.choice(st.legal_actions())
        actions.append(str(a))
        st.apply(a)
    return deck, actions, st


def exact(cfg: dict, deck: list, actions: list[str], seat: int, sizes: list[int]) -> Counter:
    """How many deals and reshuffle orders (all equally likely: the cards are distinct) give
    each hidden part, among those the seat cannot tell from the real game."""
    real = cn.new_game(seed=3, deck=list(deck), **cfg)
    seen = [real.view(seat)]
    for a in actions:
        real.apply(a)
        seen.append(real.view(seat))
    mine = {i for i in range(4) if i % 2 == seat}  # the seat's dealt places (dealer 0 first)
    rest = [c for i, c in enumerate(deck) if i not in mine]
    out: Counter = Counter()
    for perm in itertools.permutations(rest):
        it = iter(perm)
        trial = [deck[i] if i in mine else next(it) for i in range(len(deck))]
        for orders in itertools.product(*[list(itertools.permutations(range(k))) for k in sizes]):
            st = cn.new_game(seed=3, deck=trial, chance=Recorded([list(o) for o in orders]), **cfg)
            views = [st.view(seat)]
            for a in actions:
                if st.is_terminal or not st.is_legal(a):
                    break
                st.apply(a)
                views.append(st.view(seat))
            if views == seen:
                out[hidden(st, seat)] += 1
    return out


def tvd(p: Counter, q: Counter) -> float:
    sp, sq = sum(p.values()), sum(q.values())
    return 0.5 * sum(abs(p[k] / sp - q[k] / sq) for k in set(p) | set(q))


def chi2_p(got: Counter, truth: Counter) -> float:
    """Pearson's chi-square test of ``got`` against the odds ``truth``: the p-value (the
    chance that exact draws differ at least as much), from the regularized upper incomplete
    gamma function Q(df/2, x/2). A world outside ``truth`` gives 0."""
    if set(got) - set(truth):
        return 0.0
    n, total = sum(got.values()), sum(truth.values())
    x = sum((got[k] - n * w / total) ** 2 / (n * w / total) for k, w in truth.items())
    df = len(truth) - 1
    if df <= 0:
        return 1.0
    a, y = df / 2, x / 2
    if y < a + 1:  # series for P, then Q = 1 - P
        term = s = 1 / a
        for k in range(1, 1000):
            term *= y / (a + k)
            s += term
            if term < s * 1e-15:
                break
        return max(0.0, 1 - s * math.exp(-y + a * math.log(y) - math.lgamma(a)))
    b, c, d = y + 1 - a, 1e300, 1 / (y + 1 - a)  # continued fraction for Q (Lentz)
    h = d
    for k in range(1, 1000):
        an = -k * (k - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-y + a * math.log(y) - math.lgamma(a)) * h


def uniformity(samplers: dict[str, Sampler], samples: int) -> None:
    print(f"\nuniformity, {samples:,} worlds per position: TVD from the exact distribution (chance: what "
          f"exact draws show), chi-square p")
    names = list(samplers)
    print(f"{'position':>34} {'worlds':>6} {'chance':>6} " + " ".join(f"{n + ' TVD':>10} {'p':>6}" for n in names))
    rng = random.Random(0)
    for cfg, seed, steps, seat in SMALL:
        deck, actions, st = small_position(cfg, seed, steps)
        sizes = [sum(ev[1].values()) for ev in st._record().events if ev[0] == "epoch"]
        truth = exact(cfg, deck, actions, seat, sizes)
        keys = list(truth)
        weights = [truth[k] for k in keys]
        chance = statistics.mean(tvd(Counter(rng.choices(keys, weights, k=samples)), truth) for _ in range(20))
        cells = []
        for sampler in samplers.values():
            got = Counter(hidden(sampler(st, seat, random.Random(k)), seat) for k in range(samples))
            cells.append(f"{tvd(got, truth):>10.3f} {chi2_p(got, truth):>6.3f}")
        print(f"{len(deck)} cards, seed {seed} steps {steps} seat {seat} ({len(sizes)} resh.) {len(truth):>6} "
              f"{chance:>6.3f} " + " ".join(cells))


def odds(sampler: Sampler, st: cn.CirnoNeuState, seat: int, n: int, base: int) -> Counter:
    """How often each other player holds each card, per world (copies counted)."""
    out: Counter = Counter()
    for k in range(n):
        w = sampler(st, seat, random.Random(base + k))
        for s in range(st.players):
            if s != seat:
                out.update((s, c) for c in w.hand(s))
    return Counter({key: c / n for key, c in out.items()})


def gap(p: Counter, q: Counter) -> float:
    return max(abs(p[k] - q[k]) for k in set(p) | set(q))


def long_chains(samplers: dict[str, Sampler], n: int) -> None:
    """Positions too large to enumerate: each card's odds in each hand against this
    sampler's chain made 8 times as long (uniform over the worlds it reaches, once mixed);
    the largest gap, and the gap between two runs of the long chain (chance)."""
    print(f"\nodds of each card in each hand, {n} worlds, largest gap from a chain 8x as long "
          f"(chance: two runs of the long chain); ms per world")
    positions = []
    for players, seed, moves in [(4, 2, 14), (4, 1, 30), (6, 3, 40)]:
        st = cn.new_game(players=players, seed=seed)
        bots = [make_bot("cirno_neu", "greedy", seed=s) for s in range(players)]
        for _ in range(moves):
            st.apply(ask(bots[st.current_player], st))
        positions.append((f"{players} players, seed {seed}, {moves} moves", st, (st.current_player + 1) % players))
    for bot, seed, reshuffles in LONG[:1] + LONG[3:4]:
        positions.append((f"8 players, {bot} {seed}, {reshuffles} resh.", long_round(bot, seed, reshuffles), 0))
    mixing = cn.MIXING
    for label, st, seat in positions:
        cn.worlds.MIXING = 8 * mixing
        try:
            ref, again = odds(new_sampler, st, seat, n, 10 ** 6), odds(new_sampler, st, seat, n, 2 * 10 ** 6)
        finally:
            cn.worlds.MIXING = mixing
        cells = []
        for name, sampler in samplers.items():
            t = time.perf_counter()
            got = odds(sampler, st, seat, n, 0)
            cells.append(f"{name} {gap(got, ref):.3f} ({(time.perf_counter() - t) / n * 1e3:.2f} ms)")
        print(f"{label:>34}: chance {gap(again, ref):.3f}, " + ", ".join(cells))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", default=OLD, help="git revision of the earlier sampler ('' for none)")
    ap.add_argument("--worlds", type=int, default=5)
    ap.add_argument("--samples", type=int, default=4000)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--chain", type=int, default=800, help="worlds per position of the long-chain comparison")
    args = ap.parse_args()
    samplers: dict[str, Sampler] = {"new": new_sampler}
    if args.old:
        samplers["old"] = old_sampler(args.old)
    print(f"SEARCH_LIMIT = {cn.SEARCH_LIMIT:,}, MIXING = {cn.MIXING}")
    long_rounds(samplers, args.worlds)
    sweep(samplers, args.games)
    uniformity(samplers, args.samples)
    long_chains(samplers, args.chain)


if __name__ == "__main__":
    main()
