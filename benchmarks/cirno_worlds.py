"""cirno+neu worlds (``state.sample_world``): time, memory and work on long rounds, and how
close the worlds stay to uniform.

    python benchmarks/cirno_worlds.py [--worlds N] [--samples N]

1. Rounds of many reshuffles with options the app offers (8 players, ``hand_size=7``,
   ``limit=10000``), played by random or greedy bots: for every seat, ``--worlds`` worlds
   each. Seconds per world (median, max; the first world of a seat also builds its record),
   cards placed per world (the search's work, ``SEARCH_LIMIT`` at most), and the largest
   tracemalloc peak of a seat's first world (record and search built), measured apart. Then the worst case a search can reach: one that
   never finds a world and places all ``SEARCH_LIMIT`` cards before it gives up.
2. Uniformity on small positions (2 players, a deck of 7 or 8 distinct cards, reshuffles), where every deal
   and every reshuffle order can be played along the same public moves: the exact
   distribution of the hidden cards given what the seat saw (each consistent deal and
   shuffle equally likely, the moves telling nothing more) against ``--samples`` worlds.
   Total variation distance (TVD), and the TVD that as many exact draws show by chance
   (mean of 20 runs), which is the floor a perfect sampler would sit on.

Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardwidgets.games.cirno_neu as cn  # noqa: E402
from cardwidgets import SamplingLimitError  # noqa: E402
from cardwidgets.bots import ask, make_bot  # noqa: E402
from cardwidgets.core import Recorded  # noqa: E402

LONG = [("random", 10, 60), ("random", 12, 53), ("greedy", 0, 195), ("greedy", 2, 200), ("greedy", 3, 215)]


def long_round(bot: str, seed: int, reshuffles: int) -> cn.CirnoNeuState:
    st = cn.new_game(players=8, seed=seed, hand_size=7, limit=10000)
    bots = [make_bot("cirno_neu", bot, seed=s) for s in range(8)]
    made = 0
    while made < reshuffles:
        rnd, pile = st.round, len(st.draw_pile)
        st.apply(ask(bots[st.current_player], st))
        made = 0 if st.round != rnd else made + (len(st.draw_pile) > pile)
    return st


def long_rounds(worlds: int) -> None:
    print(f"SEARCH_LIMIT = {cn.SEARCH_LIMIT:,} placed cards")
    print(f"{'round':>22} {'played':>6} {'s/world med':>11} {'max':>6} {'CPU max':>7} {'placed med':>10} "
          f"{'max':>6} {'gave up':>7} {'peak MB':>7}")
    for bot, seed, reshuffles in LONG:
        st = long_round(bot, seed, reshuffles)
        times, cpus, placed, peaks, gave_up = [], [], [], [], 0
        for seat in range(8):
            for r in range(worlds):
                t, cpu = time.perf_counter(), time.process_time()
                try:
                    st.sample_world(seat, random.Random(r))
                except SamplingLimitError:
                    gave_up += 1
                times.append(time.perf_counter() - t)
                cpus.append(time.process_time() - cpu)
                placed.append(st._record().seat(seat, st).spent)
        st = long_round(bot, seed, reshuffles)  # memory: a fresh position, records and searches built again
        for seat in range(8):
            tracemalloc.start()
            try:
                st.sample_world(seat, random.Random(worlds))
            except SamplingLimitError:
                pass
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        played = len(st._record().seat(0, st).steps)
        print(f"{bot:>6} seed {seed:>2}, {reshuffles:>3} resh. {played:>6} {statistics.median(times):>11.3f} "
              f"{max(times):>6.3f} {max(cpus):>7.3f} {statistics.median(placed):>10.0f} {max(placed):>6} {gave_up:>7} "
              f"{max(peaks) / 1e6:>7.1f}")


def worst_case() -> None:
    """A search that finds nothing: every try that would succeed is taken back and counted
    as spent, so the search places SEARCH_LIMIT cards with the propagation of a real one."""
    run = cn._Search.run

    def never(self, rng, budget):
        found = run(self, rng, budget)
        if found is not None:
            self._clear()
            raise cn._OutOfWork(self.work)
        return found

    cn._Search.run = never
    try:
        for bot, seed, reshuffles in LONG[-2:]:
            st = long_round(bot, seed, reshuffles)
            st._record().seat(0, st)
            tracemalloc.start()
            t = time.perf_counter()
            try:
                st.sample_world(0, random.Random(1))
            except SamplingLimitError:
                pass
            dt = time.perf_counter() - t
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            t, cpu = time.perf_counter(), time.process_time()
            try:
                st.sample_world(0, random.Random(2))
            except SamplingLimitError:
                pass
            print(f"worst case, {bot} seed {seed}, {reshuffles} reshuffles: gives up after "
                  f"{st._record().seat(0, st).spent:,} placed cards in {time.perf_counter() - t:.2f} s "
                  f"({time.process_time() - cpu:.2f} s CPU; {dt:.2f} s traced), peak {peak / 1e6:.1f} MB")
    finally:
        cn._Search.run = run


# --------------------------------------------------------------------------- uniformity
TINY = dict(players=2, hand_size=2, deck_counts={"1": 1, "2": 1, "3": 1, "4": 1, "PASS": 1, "TURN": 1, "-10": 1})
EIGHT = dict(TINY, deck_counts=dict(TINY["deck_counts"], **{"5": 1}))
SMALL = [(TINY, 1, 4, 0), (TINY, 2, 5, 1), (TINY, 3, 7, 1), (TINY, 5, 5, 0),
         (EIGHT, 1, 5, 1), (EIGHT, 9, 6, 0)]


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


def uniformity(samples: int) -> None:
    print(f"\n{'position':>30} {'worlds':>6} {'TVD':>6} {'chance':>6} {'missing':>7} {'max ratio':>9}")
    rng = random.Random(0)
    for cfg, seed, steps, seat in SMALL:
        deck, actions, st = small_position(cfg, seed, steps)
        sizes = [sum(ev[1].values()) for ev in st._record().events if ev[0] == "epoch"]
        truth = exact(cfg, deck, actions, seat, sizes)
        got = Counter(hidden(st.sample_world(seat, random.Random(k)), seat) for k in range(samples))
        keys = list(truth)
        weights = [truth[k] for k in keys]
        chance = statistics.mean(tvd(Counter(rng.choices(keys, weights, k=samples)), truth) for _ in range(20))
        total = sum(truth.values())
        ratio = max((got[k] / samples) / (truth[k] / total) for k in truth)
        print(f"{len(deck)} cards, seed {seed} steps {steps} seat {seat}: {len(truth):>3} {tvd(got, truth):>6.3f} {chance:>6.3f} "
              f"{len(set(truth) - set(got)):>7} {ratio:>9.2f}   ({len(sizes)} reshuffles)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worlds", type=int, default=5)
    ap.add_argument("--samples", type=int, default=4000)
    args = ap.parse_args()
    long_rounds(args.worlds)
    worst_case()
    uniformity(args.samples)


if __name__ == "__main__":
    main()
