"""Exported pages: how big they are, how long they take to write, and how fast they open.

    python benchmarks/export.py [--loads 5] [--skip-browser]

1. Sizes: a typical game of every game and mode between greedy bots (seeds 1-3, the median
   game by length), exported for seat A and for the teacher; a 3-game Depot match between greedy
   bots and one between random bots (long: about a thousand moves). KB of the page, of its data
   (views as patches, narration as shared strings) and of the player (script and styles), and
   the seconds ``Timeline.to_html`` took.
2. Load to interactive in Debian chromium (Playwright, the network blocked: the page is the only
   answer): milliseconds from navigation start to the player's "ready" mark (the table is drawn
   and the keys work), the median of ``--loads`` fresh loads; then the median time of a step
   (a right-arrow key press until the table is drawn again), over 40 steps.

Prints figures, asserts nothing. Results also go to ``benchmarks/results/export.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from cardwidgets import Timeline, export  # noqa: E402
from cardwidgets.bots import make_bot  # noqa: E402
from cardwidgets.games import available_games, game_module, game_spec  # noqa: E402

URL = "http://export.cardwidgets.test/replay.html"


def game_between(game: str, cfg: dict, seed: int, bots: str = "greedy") -> Timeline:
    tl = Timeline(game_module(game).new_game(seed=seed, **cfg))
    players = tl.state.players
    seats = [make_bot(game, bots, seed=seed * 31 + k) for k in range(players)]
    rng = random.Random(seed)
    while not tl.state.is_terminal:
        st = tl.state
        if bots == "random":
            legal = st.legal_actions()
            tl.step(legal[rng.randrange(len(legal))])
        else:
            tl.step(seats[st.current_player].act(st.view(st.current_player), st.legal_actions()))
    tl.goto(0)
    return tl


def typical(game: str, cfg: dict) -> Timeline:
    games = sorted((game_between(game, cfg, seed) for seed in (1, 2, 3)), key=lambda t: t.length)
    return games[1]


def cases() -> list[tuple[str, Timeline]]:
    out = []
    for game in available_games():
        for mode in game_spec(game).modes:
            cfg = {**({"mode": mode.name} if len(game_spec(game).modes) > 1 else {}),
                   "players": mode.players[len(mode.players) // 2]}
            out.append((f"{game} {mode.name} ({cfg['players']}p)", typical(game, cfg)))
    out.append(("depot 3-game match, greedy (4p)", game_between("depot", {"players": 4, "games": 3}, 3)))
    out.append(("depot 3-game match, random (4p)", game_between("depot", {"players": 4, "games": 3}, 3, "random")))
    return out


def sizes(folder: Path) -> list[dict]:
    print("Page sizes (KB): the page, its data, the player (script + styles); seconds to write")
    print(f"{'game':<34} {'moves':>6} {'seat':>8} {'page':>8} {'data':>8} {'player':>7} {'write s':>8}")
    rows = []
    for name, tl in cases():
        for seat in (0, None):
            t0 = time.perf_counter()
            path = tl.to_html(folder / f"{name.split()[0]}-{len(rows)}.html", seat)
            took = time.perf_counter() - t0
            page = path.stat().st_size
            data = len(json.dumps(export.export_data(tl, seat), ensure_ascii=False, separators=(",", ":")).encode())
            player = sum((export.STATIC / f"{tl.root.game}.{ext}").stat().st_size for ext in ("js", "css"))
            who = "teacher" if seat is None else "A"
            print(f"{name:<34} {tl.length:>6} {who:>8} {page / 1024:>8.1f} {data / 1024:>8.1f} "
                  f"{player / 1024:>7.1f} {took:>8.3f}")
            rows.append({"case": name, "moves": tl.length, "seat": seat, "page_bytes": page, "data_bytes": data,
                         "player_bytes": player, "write_s": round(took, 4), "path": str(path)})
    return rows


STEP_JS = """async (steps) => {
  const out = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    await new Promise((r) => setTimeout(r, 0));  // the redraw runs in a microtask after the key
    out.push(performance.now() - t0);
  }
  return out;
}"""


def serve(body: bytes, blocked: list[str]):
    """A route handler: the page at URL, every other request aborted and recorded."""

    def route(r) -> None:
        if r.request.url == URL:
            r.fulfill(body=body, content_type="text/html; charset=utf-8")
        else:
            blocked.append(r.request.url)
            r.abort()

    return route


def loads(rows: list[dict], n: int) -> list[dict]:
    import lab  # tests/browser/lab.py: the chromium the browser tests use
    from playwright.sync_api import sync_playwright

    print()
    print(f"Load to interactive in chromium, network blocked (ms, median of {n} loads); a step: median of 40")
    print(f"{'game':<34} {'seat':>8} {'page KB':>8} {'ready ms':>9} {'step ms':>8}")
    out = []
    with sync_playwright() as pw:
        browser = lab.launch_browser(pw)
        try:
            for row in rows:
                body = Path(row["path"]).read_bytes()
                ready, steps = [], []
                for _ in range(n):
                    ctx = browser.new_context(viewport=lab.VIEWPORT, reduced_motion="reduce")
                    blocked: list[str] = []
                    ctx.route("**/*", serve(body, blocked))
                    page = ctx.new_page()
                    page.goto(URL)
                    page.wait_for_selector("#cw-export[data-ready=true]")
                    ready.append(page.evaluate(
                        "performance.getEntriesByName('cardwidgets-export-ready')[0].startTime"))
                    if not steps:
                        steps = page.evaluate(STEP_JS, 40)
                    if blocked:
                        print(f"  ! the page asked for {blocked}")
                    ctx.close()
                who = "teacher" if row["seat"] is None else "A"
                r, s = statistics.median(ready), statistics.median(steps)
                print(f"{row['case']:<34} {who:>8} {row['page_bytes'] / 1024:>8.1f} {r:>9.1f} {s:>8.2f}")
                out.append({**row, "ready_ms": round(r, 1), "step_ms": round(s, 2)})
        finally:
            browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=5, help="fresh loads per page (default 5)")
    ap.add_argument("--skip-browser", action="store_true", help="sizes only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = sizes(Path(tmp))
        if not args.skip_browser:
            import lab

            if not lab.chromium_available():
                print(f"\n{lab.CHROMIUM} not found: no load times")
            else:
                rows = loads(rows, args.loads)
    for row in rows:
        row.pop("path", None)
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "export.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
