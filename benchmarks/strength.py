"""Playing strength: IS-MCTS against the greedy bots, and greedy against random. Prints a
markdown table (and writes it with ``--out``).

    python benchmarks/strength.py [--main 1000] [--other 300] [--workers 2] [--only depot,duo]
                                  [--out benchmarks/strength.md]

For each game and mode, ``cardwidgets.sim.simulate`` plays

* one ``ismcts`` seat against ``greedy`` in every other seat, the IS-MCTS seat rotated
  over all seats (as many games with it in each seat), so that seat advantage cancels;
* the same with ``greedy`` against ``random``, for scale.

A win rate counts a shared win as a fraction; its interval is the Wilson 95 % interval.
The greedy column is the mean win rate of one greedy seat in the same games (with its
95 % interval), so IS-MCTS beats greedy when its interval lies above greedy's. Solo
Yadokarick has nobody to beat: the table compares mean scores (95 % intervals) of
IS-MCTS, the bot that follows the solo hint (``greedy``) and random moves, on the same
deals. The time per decision is measured on a few games in this process, after the
strength run (the search's own counters: decisions with one legal move are not
searches and are left out).

The IS-MCTS budget is the bot's per-game default (``cardwidgets.bots.ismcts.DEFAULTS``)
unless :data:`BENCH` sets a smaller one for a mode, which the table's header then says.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets.bots import ask, make_bot  # noqa: E402
from cardwidgets.bots.ismcts import defaults_for  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402
from cardwidgets.sim import simulate  # noqa: E402
from cardwidgets.sim._stats import mean_interval, wilson  # noqa: E402

#: (label, game, new_game kwargs, main configuration?): the main configuration of each
#: game gets ``--main`` games, the other modes ``--other``.
CONFIGS = [
    ("depot", "depot", dict(players=4), True),
    ("cirno_neu", "cirno_neu", dict(players=4), True),
    ("crypto_trick", "crypto_trick", dict(players=4), True),
    ("yadokarick", "yadokarick", dict(players=4), True),
    ("advanced", "yadokarick", dict(players=4, card_set="advanced"), False),
    ("duo", "yadokarick", dict(players=2, mode="duo"), False),
    ("solo", "yadokarick", dict(players=1, mode="solo"), False),
]

#: Benchmark budgets smaller than the defaults, per label: 1,000 games of the main
#: configurations at the default budgets take hours on two cores.
BENCH: dict[str, dict] = {
    "depot": {"iterations": 150},
    "crypto_trick": {"iterations": 150},
    "yadokarick": {"iterations": 100},
    "advanced": {"iterations": 100},
}

SEED = 2026


def ismcts_spec(label: str, game: str, mode: str) -> dict:
    spec = {"name": "ismcts", **defaults_for(game, mode)}
    spec.update(BENCH.get(label, {}))
    return {k: v for k, v in spec.items() if v is not None}


def rotated(game: str, kw: dict, n: int, hero: object, rest: str, seed: int, workers: int):
    """``n`` games (rounded up to a multiple of the players) with ``hero`` rotated over the
    seats; per game: (hero's share of the win, mean share of one other seat, hero's score)."""
    players = kw["players"]
    per_seat = -(-n // players)
    rows = []
    for s in range(players):
        bots = [rest] * players
        bots[s] = hero
        res = simulate(game, per_seat, bots=bots, seed=seed * 100 + s, workers=workers, **kw)
        for winners, scores in zip(res.games["winners"], res.games["scores"]):
            share = [0.0] * players
            for w in winners:
                share[w] = 1 / len(winners)
            others = (sum(share) - share[s]) / (players - 1) if players > 1 else 0.0
            rows.append((share[s], others, float(scores[s])))
    return rows


def timing(game: str, kw: dict, spec: dict, games: int) -> tuple[float, float]:
    """Seconds and iterations per search of an IS-MCTS seat (rotated) against greedy."""
    searches = secs = its = 0.0
    for g in range(games):
        st = game_module(game).new_game(seed=SEED * 7 + g, **kw)
        bots = [make_bot(game, "greedy", seed=g * 10 + s) for s in range(st.players)]
        hero = make_bot(game, spec, seed=g)
        bots[g % st.players] = hero
        while not st.is_terminal:
            st.apply_unchecked(ask(bots[st.current_player], st))
        searches += hero.totals["searches"]
        secs += hero.totals["seconds"]
        its += hero.totals["iterations"]
    return secs / max(1, searches), its / max(1, searches)


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def rate_cell(values: list[float]) -> tuple[str, float, float, float]:
    p = sum(values) / len(values)
    lo, hi = wilson(p, len(values))
    return f"{pct(p)} [{pct(lo)}, {pct(hi)}]", p, lo, hi


def mean_cell(values: list[float]) -> tuple[str, float, float, float]:
    m, lo, hi = mean_interval(values)
    return f"{m:.1f} [{lo:.1f}, {hi:.1f}]", m, lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--main", type=int, default=1000, help="games for each game's main configuration")
    ap.add_argument("--other", type=int, default=300, help="games for each other mode")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timing-games", type=int, default=2, help="games per mode for the time per decision")
    ap.add_argument("--only", default="", help="comma-separated labels (default: all)")
    ap.add_argument("--out", default="", help="also write the table to this markdown file")
    ap.add_argument("--set", action="append", default=[], metavar="LABEL=JSON",
                    help='IS-MCTS settings for one label, such as duo=\'{"iterations": 200}\' (repeatable)')
    ap.add_argument("--skip-baselines", action="store_true", help="only IS-MCTS against greedy (for tuning)")
    args = ap.parse_args()
    for item in args.set:
        label, _, text = item.partition("=")
        BENCH.setdefault(label, {}).update(json.loads(text))
    only = set(filter(None, args.only.split(",")))
    start = time.perf_counter()
    lines = [
        "| game / mode | players | games | IS-MCTS budget | IS-MCTS win % [95 %] | greedy win % per seat [95 %] "
        "| beats greedy | greedy vs random: greedy % [95 %] | random % per seat | s / decision | iterations / decision |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, game, kw, is_main in CONFIGS:
        if only and label not in only:
            continue
        t0 = time.perf_counter()
        n = args.main if is_main else args.other
        mode = kw.get("mode", "standard")
        spec = ismcts_spec(label, game, mode)
        budget = f"{spec['iterations']} it, {spec['rollout']} rollouts" + (
            f", depth {spec['depth']}" if spec.get("depth") is not None else "")
        if label in BENCH:
            budget += " (benchmark budget)"
        vs_greedy = rotated(game, kw, n, spec, "greedy", SEED, args.workers)
        vs_random = vs_greedy if args.skip_baselines else rotated(game, kw, n, "greedy", "random", SEED + 1,
                                                                  args.workers)
        secs, its = timing(game, kw, spec, args.timing_games)
        games = len(vs_greedy)
        if kw["players"] == 1:  # solo: scores, greedy and random play the same deals
            hero, hm, hlo, _ = mean_cell([r[2] for r in vs_greedy])
            greedy_alone = rotated(game, kw, n, "greedy", "greedy", SEED, args.workers)
            rand_alone = greedy_alone if args.skip_baselines else rotated(game, kw, n, "random", "random", SEED,
                                                                           args.workers)
            g_cell, gm, _, ghi = mean_cell([r[2] for r in greedy_alone])
            r_cell = mean_cell([r[2] for r in rand_alone])[0]
            beats = "yes" if hlo > ghi else "no"
            lines.append(f"| {label} (mean score) | 1 | {games} | {budget} | {hero} | {g_cell} (hint) | {beats} "
                         f"| {g_cell} | {r_cell} (random) | {secs:.3f} | {its:.0f} |")
        else:
            hero, _, hlo, _ = rate_cell([r[0] for r in vs_greedy])
            _, gm, _, ghi = mean_cell([r[1] for r in vs_greedy])
            glo = mean_cell([r[1] for r in vs_greedy])[2]
            other = f"{pct(gm)} [{pct(max(0.0, glo))}, {pct(min(1.0, ghi))}]"
            beats = "yes" if hlo > ghi else "no"
            g_cell = rate_cell([r[0] for r in vs_random])[0]
            r_cell = pct(sum(r[1] for r in vs_random) / len(vs_random))
            lines.append(f"| {label} | {kw['players']} | {games} | {budget} | {hero} | {other} | {beats} "
                         f"| {g_cell} | {r_cell} | {secs:.3f} | {its:.0f} |")
        print(lines[-1], f"({time.perf_counter() - t0:.0f} s)", flush=True)
    elapsed = time.perf_counter() - start
    head = [
        "# Playing strength: IS-MCTS, greedy, random",
        "",
        f"Made with `python benchmarks/strength.py --main {args.main} --other {args.other} "
        f"--workers {args.workers}{' --only ' + args.only if args.only else ''}` on {datetime.date.today().isoformat()} "
        f"({platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores shared with "
        f"other work): {elapsed / 60:.1f} minutes.",
        "",
        "IS-MCTS plays one seat against greedy bots in all the others, rotated over the seats; greedy against "
        "random likewise. Win rates count a shared win as a fraction, with Wilson 95 % intervals; the greedy "
        "column is one greedy seat's mean win rate in the same games. Solo compares mean scores (95 % "
        "intervals) on the same deals. Time per decision: searches only (a single legal move is no search), "
        "measured in one process on a shared machine.",
        "",
    ]
    if BENCH:
        head += ["Benchmark budgets smaller than the defaults: " + ", ".join(
            f"{k}: {v}" for k, v in BENCH.items()) + ".", ""]
    text = "\n".join(head + lines) + "\n"
    print()
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
