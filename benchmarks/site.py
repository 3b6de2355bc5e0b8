"""The static site in chromium with the network blocked: start, click to DOM, main thread, size.

    .venv/bin/python benchmarks/site.py [--runs 3] [--clicks 20]

Builds the site (``cardwidgets.site.build``) into a temporary folder, serves it on loopback
(``tests/browser/site.py``: every request outside the folder is refused and counted) and
measures in Debian chromium:

- **start**: from navigation to a Depot table with a legal move (``play.html?game=depot&
  players=3&seat=0&bots=greedy``), cold (a fresh browser context: empty cache, Pyodide's
  WebAssembly compiled anew) and warm (the same context reloaded: the browser's cache);
- **click to DOM**: the Depot table in the teacher view with no bots, so no bot answers: the
  first legal-move chip selects its cards, then the timed click on Play (or on confirm-pass
  for a pass), dispatched inside the page, until ``.cw-table[data-moves]`` changes (Python
  in the worker applied the move and the page redrew);
- **main thread**: the longest task chromium reports (``longtask`` entries, over 50 ms) on the
  page's main thread, from navigation through every click, and apart while the page starts
  (loading the table's bundle, the first drawing) and while it is clicked (redrawing): Python
  never runs there;
- **size**: the folder, by part.

Prints the figures and writes them as JSON to ``benchmarks/results/site.json`` (git-ignored).
Not a test: it never fails on timings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.lab import VIEWPORT, launch_browser  # noqa: E402
from tests.browser.site import SiteServer, guard  # noqa: E402

SEATED = "play.html?game=depot&players=3&seat=0&bots=greedy&seed=1&bot_delay=0"
TEACHER = "play.html?game=depot&players=3&seed=7"
READY = "() => document.querySelector('.cw-table .cw-legal [data-move]') !== null"
LONG_TASKS = """
window.__cwLong = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__cwLong.push(e.duration); })
  .observe({ type: 'longtask', buffered: true });
"""
#: One timed click inside the page: select the first legal move, click Play (or pass through
#: the pass flow), and resolve with the milliseconds until data-moves changes.
CLICK = """async () => {
  const root = document.querySelector('.cw-table');
  const before = root.dataset.moves;
  const chip = root.querySelector('.cw-legal [data-move]');
  let target;
  if (chip) {
    chip.click();
    await new Promise((r) => setTimeout(r, 30));
    target = root.querySelector('[data-control="play"][data-action]');
  }
  if (!target) {  // nothing to play: pass (Pass..., a Storage column, confirm)
    root.querySelector('[data-control="pass"]')?.click();
    await new Promise((r) => setTimeout(r, 30));
    root.querySelector('[data-control^="take-"]')?.click();
    await new Promise((r) => setTimeout(r, 30));
    target = root.querySelector('[data-control="confirm-pass"][data-action]') || root.querySelector('[data-action^="pass"]');
  }
  if (!target) return null;
  return await new Promise((resolve) => {
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      if (root.dataset.moves !== before) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(root, { attributes: true, attributeFilter: ['data-moves'] });
    target.click();
    setTimeout(() => { obs.disconnect(); resolve(null); }, 10000);
  });
}"""


def folder_size(root: Path) -> dict[str, int]:
    parts: dict[str, int] = {}
    for f in root.rglob("*"):
        if f.is_file():
            key = f.relative_to(root).parts[0] if len(f.relative_to(root).parts) > 1 else "pages"
            parts[key] = parts.get(key, 0) + f.stat().st_size
    parts["total"] = sum(parts.values())
    return parts


def start(page, url: str) -> float:
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_function(READY, timeout=120_000)
    return (time.perf_counter() - t0) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--clicks", type=int, default=20)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from cardwidgets.site import build, pyodide_version

    with tempfile.TemporaryDirectory() as tmp:
        out = build(Path(tmp) / "site")
        sizes = folder_size(out)
        with SiteServer(out) as server, sync_playwright() as pw:
            browser = launch_browser(pw)
            refused: list[str] = []
            cold, warm = [], []
            for _ in range(args.runs):
                ctx = browser.new_context(viewport=VIEWPORT)
                refused += guard(ctx, server.url)
                page = ctx.new_page()
                cold.append(start(page, server.url + SEATED))
                for _ in range(args.runs):
                    warm.append(start(page, server.url + SEATED))
                ctx.close()
            ctx = browser.new_context(viewport=VIEWPORT)
            refused += guard(ctx, server.url)
            page = ctx.new_page()
            page.add_init_script(LONG_TASKS)
            start(page, server.url + TEACHER)
            page.wait_for_timeout(500)
            at_start = len(page.evaluate("window.__cwLong"))
            clicks = []
            for _ in range(args.clicks):
                ms = page.evaluate(CLICK)
                if ms is not None:
                    clicks.append(ms)
                page.wait_for_timeout(50)
            long_tasks = page.evaluate("window.__cwLong")
            ctx.close()
            browser.close()
    result = {
        "pyodide": pyodide_version(),
        "start_cold_ms": [round(x) for x in cold], "start_warm_ms": [round(x) for x in warm],
        "start_cold_median_ms": round(statistics.median(cold)), "start_warm_median_ms": round(statistics.median(warm)),
        "click_to_dom_ms": [round(x, 1) for x in clicks],
        "click_to_dom_median_ms": round(statistics.median(clicks), 1) if clicks else None,
        "clicks_timed": len(clicks),
        "longest_main_thread_task_ms": round(max(long_tasks), 1) if long_tasks else 0,
        "longest_task_while_starting_ms": round(max(long_tasks[:at_start]), 1) if long_tasks[:at_start] else 0,
        "longest_task_while_clicking_ms": round(max(long_tasks[at_start:]), 1) if long_tasks[at_start:] else 0,
        "long_tasks": len(long_tasks),
        "folder_bytes": sizes,
        "requests_refused": len(refused),
    }
    print(json.dumps(result, indent=1))
    dest = ROOT / "benchmarks" / "results"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "site.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
