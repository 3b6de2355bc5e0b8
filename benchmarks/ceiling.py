"""How fast could a random playout be? The ceiling of ``engine.py``'s ratio to Hearts. Prints figures.

    python benchmarks/ceiling.py [--seconds S] [--slices K] [--game NAME ...]

``engine.py`` times ``legal_actions()`` + ``apply_unchecked()`` in a loop that also draws
the random choice. Two parts of that time do not depend on how the rules are coded:

* ``loop``: the benchmark loop itself: ``is_terminal``, the two calls, ``len`` and
  ``rng.randrange``. It is timed with a stand-in state whose ``legal_actions()`` returns
  the real game's legal lists (recorded beforehand, same lengths, so the same random
  draws) and whose ``apply_unchecked()`` only steps on;
* ``chance``: the seeded chance decisions (``cardwidgets.core.rng``: shuffles and random
  picks) the real games make, replayed on their own with the same seeds and sizes.

The rest of a real playout's time (``rules``: building the legal list, applying the
action, dealing) is what coding the rules better can shrink. ``ratio`` is engine.py's ratio to
Hearts; ``ceiling`` is the ratio a game would reach if its rules cost nothing: a target
above it cannot be met in Python without a cheaper chance stream. ``at 1x`` and ``at 2x``
are the ns per action the rules may cost for the ratio to reach 1.0 and 2.0. The real
playouts, the stand-ins and Hearts take turns in short slices, as in ``engine.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardwidgets.core.rng as crng  # noqa: E402
from cardwidgets.games import available_games, game_module  # noqa: E402

from engine import Playouts, clock, configs, hearts  # noqa: E402


class Sizes(crng.Recorder):
    """The seeded chance decisions of one game, noted with their sizes as they are made:
    ``(kind, seed, k, size)`` into ``out`` (the stream is the seed's own, as a Recorder's)."""

    __slots__ = ("out",)

    def __init__(self, seed: int, out: list[tuple[str, int, int, int]]) -> None:
        super().__init__(seed)
        self.out = out

    def shuffle(self, k: int, items: list) -> None:
        self.out.append(("shuffle", self.seed, k, len(items)))
        super().shuffle(k, items)

    def randrange(self, k: int, n: int) -> int:
        self.out.append(("randrange", self.seed, k, n))
        return super().randrange(k, n)


class Recorded:
    """A sample of a configuration's random playouts: the legal lists met and the chance decisions made."""

    def __init__(self, mod, cfg: dict, games: int) -> None:
        self.lists: list[list] = []  # every legal list, in play order (games one after another)
        self.ends: list[bool] = []  # whether the action after the list ended its game
        self.chance: list[tuple[str, int, int, int]] = []  # (kind, seed, k, size)
        rng = random.Random(1)
        for seed in range(games):
            st = mod.new_game(seed=seed, chance=Sizes(seed, self.chance), **cfg)
            while not st.is_terminal:
                legal = st.legal_actions()
                self.lists.append(legal)
                st.apply_unchecked(legal[rng.randrange(len(legal))])
                self.ends.append(st.is_terminal)
        self.actions = len(self.lists)


class StandIn:
    """A state that replays recorded legal lists and does nothing else."""

    __slots__ = ("lists", "ends", "i", "is_terminal")

    def __init__(self, lists: list[list], ends: list[bool], start: int) -> None:
        self.lists, self.ends, self.i, self.is_terminal = lists, ends, start, False

    def legal_actions(self) -> list:
        return self.lists[self.i]

    def apply_unchecked(self, action) -> None:
        self.is_terminal = self.ends[self.i]
        self.i += 1


def loop_cost(rec: Recorded, budget: float) -> float:
    """CPU seconds per action of engine.py's loop around the stand-in (the lists' own lengths)."""
    rng = random.Random(1)
    actions = 0
    start = clock()
    while clock() - start < budget:
        i = 0
        while i < rec.actions:  # one pass over the sample: its games one after another
            st = StandIn(rec.lists, rec.ends, i)
            while not st.is_terminal:
                legal = st.legal_actions()
                st.apply_unchecked(legal[rng.randrange(len(legal))])
            actions += st.i - i
            i = st.i
    return (clock() - start) / actions


def chance_cost(rec: Recorded, budget: float) -> float:
    """CPU seconds per action of the sample's chance decisions, replayed alone."""
    items = {n: list(range(n)) for kind, _, _, n in rec.chance if kind == "shuffle"}
    rounds = 0
    start = clock()
    while clock() - start < budget or not rounds:
        for kind, seed, k, n in rec.chance:
            if kind == "shuffle":
                crng.shuffle(seed, k, items[n])
            else:
                crng.randrange(seed, k, n)
        rounds += 1
    return (clock() - start) / (rounds * rec.actions)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of stand-in play per configuration")
    ap.add_argument("--slices", type=int, default=10, help="stand-in/Hearts slices the seconds are cut into")
    ap.add_argument("--games", type=int, default=200, help="games recorded per configuration")
    ap.add_argument("--game", action="append", help="only these games")
    args = ap.parse_args()
    ref = hearts()
    if ref is None:
        sys.exit("OpenSpiel is not installed (pip install open_spiel): the ceiling is a ratio to its Hearts")
    print("(ns per action of CPU time; Hearts: ns per decision, in turn with each configuration)")
    print(f"{'game':<13} {'config':<28} {'loop':>6} {'chance':>6} {'rules':>6} {'Hearts':>6} {'ratio':>6} "
          f"{'ceiling':>7} {'at 1x':>6} {'at 2x':>6}")
    med = statistics.median
    for game in args.game or available_games():
        mod = game_module(game)
        for cfg in configs(game):
            rec = Recorded(mod, cfg, args.games)
            real = Playouts(mod, cfg, True)
            per = args.seconds / args.slices
            loop_cost(rec, per)  # warm-up
            real(per)  # warm-up: the real game's memo tables fill as in a long simulation
            loops, chances, reals, refs = [], [], [], []
            for _ in range(args.slices):
                loops.append(loop_cost(rec, per / 2))
                chances.append(chance_cost(rec, per / 2))
                a, _, t = real(per)
                reals.append(t / a)
                refs.append(1 / ref(per))
            loop, chance, full, h = med(loops), med(chances), med(reals), med(refs)
            label = ",".join(f"{k}={v}" for k, v in cfg.items())
            ns = [round(x * 1e9) for x in (loop, chance, full - loop - chance, h)]
            print(f"{game:<13} {label:<28} {ns[0]:>6,} {ns[1]:>6,} {ns[2]:>6,} {ns[3]:>6,} "
                  f"{med(r / f for r, f in zip(refs, reals)):>5.2f}x "
                  f"{med(r / (lo + c) for r, lo, c in zip(refs, loops, chances)):>6.2f}x "
                  f"{round((h - loop - chance) * 1e9):>6,} {round((h / 2 - loop - chance) * 1e9):>6,}", flush=True)


if __name__ == "__main__":
    main()
