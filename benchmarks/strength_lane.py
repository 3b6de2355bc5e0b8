"""Playing strength at equal time per decision: IS-MCTS with its rollouts in the fast lane
(``engine="fast"``) against IS-MCTS with Python rollouts (``engine="python"``).

    python benchmarks/strength_lane.py [--only cirno_neu,duo] [--games 1000] [--seconds 0.02]
                                       [--workers 2] [--fresh]

Both bots get the same ``seconds=`` per decision and no iteration budget (the other
settings are the game's defaults, ``cardwidgets.bots.ismcts.DEFAULTS``), so the lane's
bot searches more iterations in the same time. They play heads-up where the game allows
(cirno+neu 2 players, also with the life system, Crypto Trick 2, Yadokarick duo); Depot and standard
Yadokarick, 3-player games at least, have a greedy third seat. Every deal is played once per seating of
the two (2 seatings heads-up, 6 with 3 players), so seat advantage and the luck of the deal cancel. A shared win
counts as a fraction; intervals are Wilson 95 %. Solo Yadokarick has nobody to beat: each
bot plays the same deals alone and the table compares mean scores (95 % intervals).

Only games whose kernel has ``rollout`` are played. Each game's results go to
``benchmarks/results/strength_lane_<label>.json`` as chunks of games finish (a stopped run
keeps what it played and goes on from there when started again, unless ``--fresh``);
``benchmarks/strength_lane.md`` is the table of every json file present. The iterations
per decision and rollouts per second are the searches' own counters (decisions with one
legal move are no searches): one rollout per iteration.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots import ISMCTSBot, ask  # noqa: E402
from cardwidgets.bots.base import playing_bot  # noqa: E402
from cardwidgets.games import game_module  # noqa: E402
from cardwidgets.sim._stats import mean_interval, wilson  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TABLE = HERE / "strength_lane.md"

#: label -> (game, new_game keywords)
CONFIGS = {
    "cirno_neu": ("cirno_neu", dict(players=2)),
    # a match of several rounds: a bust deals again, which the Python rollouts pay for
    "cirno_neu_life": ("cirno_neu", dict(players=2, life_system=True)),
    "crypto_trick": ("crypto_trick", dict(players=2)),
    "depot": ("depot", dict(players=3)),
    "duo": ("yadokarick", dict(players=2, mode="duo")),
    # standard Yadokarick (3 rounds) with a greedy third seat: rollouts to the end of the round
    "yadokarick_3p": ("yadokarick", dict(players=3)),
    "solo": ("yadokarick", dict(players=1, mode="solo")),
}
SEED = 2512
ENGINES = ("fast", "python")


def seatings(players: int) -> list[tuple[int, ...]]:
    """Per seating, the seat of each engine (fast, python); solo: each alone."""
    if players == 1:
        return [(0,), (0,)]
    return list(itertools.permutations(range(players), 2))


def play_game(label: str, index: int, seconds: float, fast_kw: dict) -> dict:
    """Game ``index`` of a label: deal ``index // len(seatings)``, seating ``index % len(seatings)``."""
    game, kw = CONFIGS[label]
    seats = seatings(kw["players"])
    deal, which = divmod(index, len(seats))
    st = game_module(game).new_game(seed=SEED * 1000 + deal, **kw)
    if kw["players"] == 1:  # solo: one engine per game, both on the same deal
        engines = [ENGINES[which]]
        bots = [ISMCTSBot(seconds=seconds, seed=index, engine=engines[0],
                          **(fast_kw if engines[0] == "fast" else {}))]
    else:
        engines = ["greedy"] * st.players
        bots = [playing_bot(game, "greedy", seed=index * 10 + s) for s in range(st.players)]
        for e, seat in zip(ENGINES, seats[which]):
            engines[seat] = e
            bots[seat] = ISMCTSBot(seconds=seconds, seed=index * 10 + seat, engine=e,
                                   **(fast_kw if e == "fast" else {}))
    while not st.is_terminal:
        st.apply(ask(bots[st.current_player], st))
    out = st.outcome()
    share = [0.0] * st.players
    for w in out.winners:
        share[w] = 1 / len(out.winners)
    if not out.winners:
        share = [1 / st.players] * st.players
    row: dict = {"index": index, "deal": deal}
    for e in ENGINES:
        if e not in engines:
            continue
        seat = engines.index(e)
        b = bots[seat]
        row[e] = {"seat": seat, "share": share[seat], "score": out.scores[seat], "searches": b.totals["searches"],
                  "iterations": b.totals["iterations"], "seconds": b.totals["seconds"]}
    if "greedy" in engines:
        row["greedy"] = {"share": sum(share[s] for s, e in enumerate(engines) if e == "greedy")}
    return row


def play_chunk(label: str, indexes: list[int], seconds: float, fast_kw: dict) -> list[dict]:
    return [play_game(label, i, seconds, fast_kw) for i in indexes]


def warm_up() -> None:
    """Compile (or load from numba's cache) every lane rollout before the clock runs."""
    for game, kw in CONFIGS.values():
        mod = fast.kernel(game)
        if mod is not None and hasattr(mod, "rollout"):
            st = game_module(game).new_game(seed=1, **kw)
            try:
                mod.rollout(st.sample_world(st.current_player, 1), "random", 3, None, 1)
            except Exception:  # noqa: BLE001 - a warm-up only: the run itself reports what fails
                pass


def covered(label: str) -> str | None:
    """Why the lane cannot play this label's rollouts here, or ``None``."""
    game, kw = CONFIGS[label]
    why = fast.unavailable()
    if why is not None:
        return why
    mod = fast.kernel(game)
    if mod is None or not hasattr(mod, "rollout"):
        return f"no lane rollouts for {game}"
    st = game_module(game).new_game(seed=1, **kw)
    from cardwidgets.bots.ismcts import defaults_for

    return mod.rollout_problem(st, defaults_for(game, st.mode)["rollout"])


def run(label: str, games: int, seconds: float, fast_kw: dict, workers: int, fresh: bool) -> None:
    path = RESULTS / f"strength_lane_{label}.json"
    game, kw = CONFIGS[label]
    seats = seatings(kw["players"])
    games = -(-games // len(seats)) * len(seats)  # whole deals
    data = None
    if path.exists() and not fresh:
        data = json.loads(path.read_text())
        if (data["seconds"], data["fast_settings"]) != (seconds, fast_kw):
            print(f"{label}: {path.name} was made with seconds={data['seconds']}, fast settings "
                  f"{data['fast_settings']}: use --fresh", file=sys.stderr)
            return
    if data is None:
        data = {"label": label, "game": game, "options": kw, "seconds": seconds, "fast_settings": fast_kw,
                "games": games, "rows": [],
                "wall_seconds": 0.0, "workers": workers, "python": platform.python_version(),
                "date": datetime.date.today().isoformat()}
    data["games"] = max(games, data["games"])
    done = {r["index"] for r in data["rows"]}
    todo = [i for i in range(data["games"]) if i not in done]
    chunk = 2 * len(seats)
    chunks = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
    t0 = time.perf_counter()
    base = data["wall_seconds"]
    RESULTS.mkdir(exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers, initializer=warm_up) as pool:
        for rows in pool.map(play_chunk, itertools.repeat(label), chunks, itertools.repeat(seconds),
                             itertools.repeat(fast_kw)):
            data["rows"] += rows
            data["wall_seconds"] = base + time.perf_counter() - t0
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data))
            tmp.replace(path)  # whole files only: a stop leaves the last complete one
            print(f"\r{label}: {len(data['rows'])}/{data['games']} games, "
                  f"{data['wall_seconds'] / 60:.1f} min", end="", flush=True)
    print()


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def summary(data: dict) -> str:
    rows = data["rows"]
    n = len(rows)
    solo = data["options"]["players"] == 1

    def per(e: str, key: str) -> float:
        total = sum(r[e][key] for r in rows if e in r)
        return total

    speed = {}
    for e in ENGINES:
        searches, its, secs = per(e, "searches"), per(e, "iterations"), per(e, "seconds")
        speed[e] = (its / max(1, searches), its / secs if secs else 0.0, secs / max(1, searches))
    from cardwidgets.bots.ismcts import defaults_for

    game, kw = data["game"], data["options"]
    mode = kw.get("mode")
    policy = data["fast_settings"].get("rollout") or defaults_for(game, mode)["rollout"]
    extra = ", ".join(f"{k}={v!r}" for k, v in kw.items() if k not in ("players", "mode"))
    cells = [data["label"] + (f" ({extra})" if extra else ""), str(kw["players"]), str(n),
             f"{policy} / {defaults_for(game, mode)['rollout']}"]
    if solo:
        means = {}
        for e in ENGINES:
            m, lo, hi = mean_interval([r[e]["score"] for r in rows if e in r])
            means[e] = (m, lo, hi)
            cells.append(f"{m:.1f} [{lo:.1f}, {hi:.1f}] (mean score)")
        cells += ["—", "—"]
        better = means["fast"][1] > means["python"][2]
    else:
        for e in ENGINES:
            p = sum(r[e]["share"] for r in rows) / n
            lo, hi = wilson(p, n)
            cells.append(f"{pct(p)} [{pct(lo)}, {pct(hi)}]")
        if any("greedy" in r for r in rows):
            cells.append(pct(sum(r["greedy"]["share"] for r in rows) / n))
        else:
            cells.append("—")
        # the duel: 1 when the fast bot did better than the Python one, 0.5 when as well
        duel = [0.5 + (r["fast"]["share"] - r["python"]["share"]) / 2 for r in rows]
        p = sum(duel) / n
        lo, hi = wilson(p, n)
        cells.append(f"{pct(p)} [{pct(lo)}, {pct(hi)}]")
        better = lo > 0.5
    cells.append("yes" if better else "no")
    for e in ENGINES:
        cells.append(f"{speed[e][0]:.0f}")
    for e in ENGINES:
        cells.append(f"{speed[e][1]:,.0f}")
    cells.append(f"{speed['fast'][2]:.3f} / {speed['python'][2]:.3f}")
    cells.append(f"{data['wall_seconds'] / 60:.1f} min")
    return "| " + " | ".join(cells) + " |"


def write_table() -> None:
    files = sorted(RESULTS.glob("strength_lane_*.json"))
    datas = [json.loads(f.read_text()) for f in files]
    datas = [d for d in datas if d["rows"]]
    secs = sorted({d["seconds"] for d in datas})
    lines = [
        "# Playing strength at equal time per decision: IS-MCTS with fast-lane rollouts against Python rollouts",
        "",
        "Made with `python benchmarks/strength_lane.py` (2 workers, CPython "
        f"{platform.python_version()}, {os.cpu_count()} cores shared with other work); each row is assembled "
        "from `benchmarks/results/strength_lane_<game>.json`. Time per decision: "
        f"{', '.join(f'{s:g} s' for s in secs)} for both bots, no iteration budget, the game's default rollouts "
        "and depth.",
        "",
        "Heads-up where the game allows; Depot and standard Yadokarick (3 players at least) with a greedy third "
        "seat. Every deal is played "
        "once per seating of the two bots. Win % counts a shared win as a fraction; *fast ahead* is 1 per game the "
        "fast bot did better than the Python bot, ½ when as well (heads-up it is the fast bot's win %), with "
        "Wilson 95 % intervals. Solo: mean scores on the same deals (95 % intervals). Iterations per decision "
        "and rollouts per second are the searches' own counters (a single legal move is no search).",
        "",
        "| game | players | games | rollouts fast / python | fast win % [95 %] | python win % [95 %] "
        "| greedy seat % | fast ahead [95 %] "
        "| fast stronger | iterations / decision fast | python | rollouts / s fast | python "
        "| s / decision fast / python | run |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [summary(d) for d in datas]
    TABLE.write_text("\n".join(lines) + "\n")
    print("\n".join(lines[-len(datas):]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help=f"comma-separated labels of {', '.join(CONFIGS)} (default: all "
                                               f"the lane has rollouts for)")
    ap.add_argument("--games", type=int, default=1000, help="games per label (whole deals)")
    ap.add_argument("--seconds", type=float, default=0.02, help="time per decision of both bots")
    ap.add_argument("--fast", default="{}", metavar="JSON",
                    help='ISMCTSBot settings of the fast bot only, such as \'{"exploration": 0.5}\' (default: its defaults)')
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fresh", action="store_true", help="start again rather than go on from the json file")
    args = ap.parse_args()
    labels = [x for x in args.only.split(",") if x] or list(CONFIGS)
    for label in labels:
        if label not in CONFIGS:
            ap.error(f"unknown label {label!r}; choose from {', '.join(CONFIGS)}")
        why = covered(label)
        if why is not None:
            print(f"{label}: skipped ({why})")
            continue
        run(label, args.games, args.seconds, json.loads(args.fast), args.workers, args.fresh)
    write_table()


if __name__ == "__main__":
    main()
