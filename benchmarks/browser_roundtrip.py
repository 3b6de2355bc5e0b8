"""Click -> Python -> DOM round trip in a live JupyterLab, measured inside the page.

    .venv/bin/python benchmarks/browser_roundtrip.py [--clicks 25] [--skip depot] [--skip crypto_trick] [--skip motion] [--headed]

Starts the same private JupyterLab server and Debian chromium as the browser tests
(``tests/browser/lab.py``), then for each widget clicks a button with ``button.click()`` inside the
page and waits with a MutationObserver until the DOM shows something only the kernel can write:

(a) a trivial anywidget counter: its Python observer copies ``value`` into ``kernel_value``;
(b) the Depot table (teacher view, no bots, so every click is a real action): the first
    legal-move chip selects its cards, then the timed click on Play, until the ``.cw-log`` text changes, i.e.
    Python applied the action, narrated it and synced the new state. The legal strip lists plays
    only, so when the player to act has no play the benchmark passes instead (``Pass…``, a
    ``take-<v>`` Storage column, then the timed click on ``confirm-pass``); those clicks are
    reported separately. With seed 7 and 20 clicks: 14 plays and 6 passes;
(c) the Crypto Trick table (teacher view, no bots): the timed click is on the first enabled
    ``[data-action]`` card of the hand (a reveal, give or play), until the ``.cw-log`` text changes.
    While a player declares no card acts, so the benchmark clicks the first enabled Want/Pass
    button instead; those clicks are reported separately.
(c') cirno+neu and Yadokarick (4 players, teacher view, no bots): the first card of the hand that
    sends its move, else any other move of the table (reported separately), as (c).

(d) what card motion costs: on the Crypto Trick table (seat 0 against bots that answer at once, so
    one click brings several moves, shown one after another), with ``animations=True`` and then
    ``animations=False``, each click is timed until the DOM shows Python's answer, the work of
    setting the cards in motion is read from the ``cw-motion`` performance measures the table
    records, and every animation frame until the cards are at rest is timed with
    ``requestAnimationFrame`` (the frame interval, and the frames over 20 ms).

Where each click's time goes: the page records every websocket frame (time, size, message type),
so a click splits into ``kernel_ms`` (the click, Python and the wire, up to the frame that brought
the answer) and ``page_ms`` (that frame to the DOM); the tables' own performance measures add
``redraw_ms`` (drawing the new position) and ``frame_ms`` (the work left for the next frame: the
narration's scroll, cards set in motion); ``bytes_in`` is what the kernel sent back. Medians per
kind of click are printed; every click, with its frames, is in the JSON (``clicks_raw``).

``--nodelay``: the same, on a server whose kernel websockets send at once (``TCP_NODELAY``, which
jupyter-server leaves off). Without it every click, the counter's too, waits about 40 ms: the
server holds the kernel's answer until the browser acknowledges its "busy" frame, and Linux
delays that acknowledgement (Nagle's algorithm meeting delayed ACKs). That wait hides what a table
costs beyond it: the browser drawing the last move before it reads the next answer.
``--settle``: each click waits until the answer before it is on the screen (two frames), so a click
is charged with its own work only.

Prints median/min/max per widget and the ratios of the medians (Depot legal-move clicks and
Crypto Trick card clicks over counter clicks); writes the numbers as JSON to
``benchmarks/results/browser_roundtrip.json`` (git-ignored). Not a test: it never fails on timings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import lab  # noqa: E402  (tests/browser/lab.py: server + browser helpers shared with the tests)

DEPOT_CODE = """
from cardwidgets import Depot
t = Depot(players=3, seed=7, seat=None)
t
"""

COUNTER_SPEC = dict(
    rootSel=".e2e-counter",
    pick="return root.querySelector('.e2e-counter-button');",
    probe="return Number(root.querySelector('.e2e-counter-kernel').textContent);",
    done="return Number(root.querySelector('.e2e-counter-kernel').textContent) === before + 1;",
)

DEPOT_SPEC = dict(
    rootSel='.cw-table[data-game="depot"]',
    pick="""
      const chip = root.querySelector('.cw-legal [data-control="select-move"]');
      if (chip) {
        chip.click();                    // local UI only: a legal-move chip selects its cards
        const play = root.querySelector('[data-control="play"]:not([disabled])');
        if (play) return { el: play, kind: "play" };
      }
      const pass = root.querySelector('[data-control="pass"]:not([disabled])');
      if (!pass) return null;            // game over
      pass.click();                      // local UI only: opens the pass flow
      const take = root.querySelector('[data-control^="take-"]');
      if (take) take.click();            // local UI only: choose the value to take
      const confirm = root.querySelector('[data-control="confirm-pass"]:not([disabled])');
      return confirm ? { el: confirm, kind: "pass" } : null;
    """,
    probe="const l = root.querySelector('.cw-log'); return l ? l.textContent : '';",
    done="const l = root.querySelector('.cw-log'); return !!l && l.textContent !== before;",
)


CRYPTO_CODE = """
from cardwidgets import CryptoTrick
t = CryptoTrick(players=4, seed=7, seat=None)
t
"""

CRYPTO_SPEC = dict(
    rootSel='.cw-table[data-game="crypto_trick"]',
    pick="""
      const card = root.querySelector('.cw-hand [data-action]:not([disabled])');
      if (card) return { el: card, kind: "card" };          // reveal, give or play: one click
      const say = root.querySelector('.cw-controls [data-action]:not([disabled])');
      return say ? { el: say, kind: "declare" } : null;      // want / pass; null: game over
    """,
    probe="const l = root.querySelector('.cw-log'); return l ? l.textContent : '';",
    done="const l = root.querySelector('.cw-log'); return !!l && l.textContent !== before;",
)


def generic_spec(game: str) -> dict:
    """A table whose hand cards send their move (``data-action``): a card, else any other move."""
    return dict(
        rootSel=f'.cw-table[data-game="{game}"]',
        pick="""
          const card = root.querySelector('.cw-hand [data-action]:not([disabled])');
          if (card) return { el: card, kind: "card" };
          const other = root.querySelector('.cw-main [data-action]:not([disabled])');
          return other ? { el: other, kind: "other" } : null;   // null: game over
        """,
        probe="const l = root.querySelector('.cw-log'); return l ? l.textContent : '';",
        done="const l = root.querySelector('.cw-log'); return !!l && l.textContent !== before;",
    )


CIRNO_CODE = """
from cardwidgets import CirnoNeu
t = CirnoNeu(players=4, seed=7, seat=None)
t
"""

YADO_CODE = """
from cardwidgets import Yadokarick
t = Yadokarick(players=4, seed=7, seat=None)
t
"""


MOTION_CODE = """
from cardwidgets import CryptoTrick
t = CryptoTrick(players=4, seed=7, seat=0, bots="greedy", bot_delay=0, animations={animations})
t
"""

#: One click on the first card that acts, then every frame timed until no card moves (in the page).
MOTION_JS = """
async ({ clicks }) => {
  const root = document.querySelector('.cw-table[data-game="crypto_trick"]');
  const out = [];
  const moving = () => document.getAnimations().some((a) => a.playState === "running"
    && !(a instanceof CSSAnimation) && !(a instanceof CSSTransition));
  for (let i = 0; i < clicks; i++) {
    const el = root.querySelector('.cw-hand [data-action]') || root.querySelector('.cw-controls [data-action]:not([disabled])')
      || root.querySelector('[data-control="continue"]');
    if (!el) break;
    performance.clearMeasures("cw-motion");
    const before = root.querySelector('.cw-history-pos').textContent;
    const t0 = performance.now();
    el.click();
    await new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (root.querySelector('.cw-history-pos')?.textContent !== before) {
          obs.disconnect(); resolve();
        }
      });
      obs.observe(root, { subtree: true, childList: true, characterData: true });
      setTimeout(() => { obs.disconnect(); resolve(); }, 5000);
    });
    const dom = performance.now() - t0;
    // every frame until the cards are at rest (at least a few, so an idle table is measured too)
    const frames = [];
    let last = performance.now();
    for (let k = 0; k < 400 && (k < 5 || moving()); k++) {
      await new Promise((r) => requestAnimationFrame(() => r()));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    await new Promise((r) => setTimeout(r, 60));  // the kernel's later messages of this click
    const work = performance.getEntriesByName("cw-motion").map((m) => m.duration);
    out.push({ dom, frames, work, settle: performance.now() - t0 });
  }
  return out;
}
"""


def measure_motion(page, server, clicks: int) -> dict:
    """Card motion on and off: the work per update and the frames while cards move."""
    from statistics import median, quantiles

    out = {}
    for on in (True, False):
        name = f"bench_motion_{'on' if on else 'off'}.ipynb"
        server.write_notebook(name, [MOTION_CODE.format(animations=on)])
        nb = lab.Notebook(page, server, name).open()
        nb.run_all()
        page.wait_for_selector('.cw-table[data-game="crypto_trick"]', state="visible", timeout=60_000)
        runs = page.evaluate(MOTION_JS, {"clicks": clicks})
        frames = [f for r in runs for f in r["frames"]]
        work = [w for r in runs for w in r["work"]]
        key = "on" if on else "off"
        out[key] = {
            "clicks": len(runs),
            "click_to_dom": summary([r["dom"] for r in runs]),
            "click_to_rest_ms": summary([r["settle"] for r in runs]),
            "frames": len(frames),
            "frame_median_ms": round(median(frames), 2) if frames else None,
            "frame_p95_ms": round(quantiles(frames, n=20)[-1], 2) if len(frames) > 20 else None,
            "frame_max_ms": round(max(frames), 2) if frames else None,
            "frames_over_20ms": sum(f > 20 for f in frames),
            "motion_work_per_update": summary(work),
        }
        o = out[key]
        print(f"    motion {key:3}: {o['clicks']} clicks, {o['frames']} frames: median {o['frame_median_ms']} ms, "
              f"p95 {o['frame_p95_ms']} ms, max {o['frame_max_ms']} ms, {o['frames_over_20ms']} over 20 ms; "
              f"click -> DOM median {o['click_to_dom'].get('median_ms')} ms, -> at rest median "
              f"{o['click_to_rest_ms'].get('median_ms')} ms")
        if work:
            print(line("    motion: setting cards in motion", o["motion_work_per_update"], "updates"))
        server.shutdown_sessions()
    return out


def summary(times: list[float]) -> dict:
    if not times:
        return {"n": 0}
    return {"n": len(times), "median_ms": round(statistics.median(times), 2),
            "min_ms": round(min(times), 2), "max_ms": round(max(times), 2),
            "all_ms": [round(t, 2) for t in times]}


def line(label: str, s: dict, unit: str = "clicks") -> str:
    if not s["n"]:
        return f"{label}: no {unit}"
    return (f"{label}: median {s['median_ms']:6.1f} ms  min {s['min_ms']:6.1f}  max {s['max_ms']:6.1f}"
            f"  ({s['n']} {unit})")


#: Every websocket frame the page sends or receives, with its time and size (installed before the
#: page's own scripts run): where a click's time goes, in the kernel and on the wire or in the page.
WIRE_JS = """
(() => {
  const frames = (window.__cwWire = []);
  const dec = new TextDecoder();
  const kind = (d) => {
    const text = typeof d === "string" ? d : d && d.byteLength != null ? dec.decode(d) : "";
    const m = text.match(/"msg_type":\s*"(\w+)"/);
    const st = text.match(/"execution_state":\s*"(\w+)"/) || text.match(/"method":\s*"(\w+)"/);
    return (m ? m[1] : "?") + (st ? ":" + st[1] : "");
  };
  const size = (d) => (typeof d === "string" ? d.length : d && d.byteLength != null ? d.byteLength : d && d.size || 0);
  const Native = window.WebSocket;
  class Traced extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => frames.push({ t: performance.now(), dir: "in", n: size(ev.data), k: kind(ev.data) }));
    }
    send(data) {
      frames.push({ t: performance.now(), dir: "out", n: size(data), k: kind(data) });
      return super.send(data);
    }
  }
  window.WebSocket = Traced;
})();
"""


def measure(page, spec: dict, clicks: int, settle: bool = False) -> list[dict]:
    page.wait_for_selector(spec["rootSel"], state="visible", timeout=60_000)
    page.evaluate("""() => { if (window.__cwWire) window.__cwWire.length = 0;
                            performance.clearMeasures("cw-redraw"); performance.clearMeasures("cw-frame"); }""")
    timed = page.evaluate(lab.ROUNDTRIP_JS, {**spec, "n": clicks, "timeoutMs": 15_000, "settle": settle})
    wire = page.evaluate("() => window.__cwWire || []")
    # the table's own measures: each redraw of a new position, and the work it left for the next frame
    work = page.evaluate("""() => ["cw-redraw", "cw-frame"].flatMap((name) =>
        performance.getEntriesByName(name).map((m) => ({ name, t: m.startTime, ms: m.duration })))""")
    for t in timed:
        for name in ("cw-redraw", "cw-frame"):
            # this click's: from the click to the next click (the frame's work runs after the DOM)
            nxt = min((u["t0"] for u in timed if u["t0"] > t["t0"]), default=float("inf"))
            t[name.replace("cw-", "") + "_ms"] = sum(w["ms"] for w in work if w["name"] == name and t["t0"] <= w["t"] < nxt)
    for t in timed:
        # the frame that brought the answer: the last one received before the DOM showed it
        got = [w for w in wire if w["dir"] == "in" and t["t0"] <= w["t"] <= t["t1"]]
        sent = [w for w in wire if w["dir"] == "out" and t["t0"] <= w["t"] <= t["t1"]]
        if got:
            t["kernel_ms"] = got[-1]["t"] - t["t0"]   # click, the kernel and the wire
            t["page_ms"] = t["t1"] - got[-1]["t"]     # the answer's frame to the DOM
            t["bytes_in"] = sum(w["n"] for w in got)
            t["frames_in"] = len(got)
            t["bytes_out"] = sum(w["n"] for w in sent)
        t["wire"] = [(round(w["t"] - t["t0"], 1), w["dir"], w["n"], w.get("k")) for w in wire
                     if t["t0"] - 1 <= w["t"] <= t["t1"] + 60]
    return timed


def breakdown(timed: list[dict]) -> dict:
    """Medians of where the time of these clicks went (kernel + wire, then the page)."""
    parts = {}
    for key in ("kernel_ms", "page_ms", "redraw_ms", "frame_ms", "bytes_in", "frames_in", "bytes_out"):
        vals = [t[key] for t in timed if key in t]
        if vals:
            parts[key] = round(statistics.median(vals), 1)
    return parts


#: (results key, title, notebook code, click spec, click kinds {kind: label}, the kind compared)
TABLES = [
    ("depot", "Depot", DEPOT_CODE, DEPOT_SPEC, {"play": "legal move", "pass": "confirm pass"}, "play"),
    ("crypto_trick", "Crypto Trick", CRYPTO_CODE, CRYPTO_SPEC, {"card": "card click", "declare": "want/pass"},
     "card"),
    ("cirno_neu", "cirno+neu", CIRNO_CODE, generic_spec("cirno_neu"), {"card": "card click", "other": "other move"},
     "card"),
    ("yadokarick", "Yadokarick", YADO_CODE, generic_spec("yadokarick"), {"card": "card click", "other": "other move"},
     "card"),
]


def measure_table(page, server, key: str, title: str, code: str, spec: dict, kinds: dict, clicks: int,
                  settle: bool = False) -> dict:
    """Open a notebook with the table, click it ``clicks`` times, summarize per kind of click."""
    server.write_notebook(f"bench_{key}.ipynb", [code])
    nb = lab.Notebook(page, server, f"bench_{key}.ipynb").open()
    nb.run_all()
    errs = nb.errors()
    if errs:
        raise RuntimeError(f"{title} notebook failed: {errs}")
    timed = measure(page, spec, clicks, settle)
    hist = nb.json("len(t.history)")
    out = {kind: summary([t["ms"] for t in timed if t["kind"] == kind]) for kind in kinds}
    for kind in kinds:
        out[kind]["breakdown"] = breakdown([t for t in timed if t["kind"] == kind])
    out["all"] = summary([t["ms"] for t in timed])
    out["clicks_raw"] = timed
    out["history_len"] = hist
    for kind, label in kinds.items():
        print(line(f"    {key} {label}".ljust(28), out[kind]))
        if out[kind].get("breakdown"):
            print(f"      where the time goes (medians): {out[kind]['breakdown']}")
    print(line(f"    {key} all actions".ljust(28), out["all"]) + f", kernel history {hist}")
    if hist != len(timed):
        print(f"warning: {len(timed)} clicks but {hist} actions in the history", file=sys.stderr)
    return out


#: Server configuration for ``--nodelay``: each kernel websocket sets TCP_NODELAY when it opens.
NODELAY = """
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
_open = KernelWebsocketHandler.open
async def _open_nodelay(self, kernel_id):
    self.set_nodelay(True)
    return await _open(self, kernel_id)
KernelWebsocketHandler.open = _open_nodelay
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=20)
    ap.add_argument("--skip", action="append", default=[], choices=[t[0] for t in TABLES] + ["motion"],
                    help="skip a table, or the motion measurement (repeatable)")
    ap.add_argument("--headed", action="store_true", help="show the browser window")
    ap.add_argument("--nodelay", action="store_true",
                    help="kernel websockets with TCP_NODELAY (no 40 ms wait on every answer)")
    ap.add_argument("--settle", action="store_true", help="click again only once the last answer is on the screen")
    args = ap.parse_args()

    if not lab.chromium_available():
        print(f"error: {lab.CHROMIUM} not found; run: bash .ci/install", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    results: dict = {"clicks": args.clicks, "nodelay": args.nodelay, "settle": args.settle}
    with tempfile.TemporaryDirectory(prefix="cw-bench-") as tmp:
        server = lab.LabServer(Path(tmp), server_config=NODELAY if args.nodelay else "")
        t0 = time.perf_counter()
        server.start()
        print(f"jupyter lab up in {server.timings['server_start_s']:.1f} s ({server.url})")
        try:
            with sync_playwright() as pw:
                browser = lab.launch_browser(pw, headless=not args.headed)
                try:
                    ctx = browser.new_context(viewport=lab.VIEWPORT)
                    ctx.add_init_script(WIRE_JS)
                    page = ctx.new_page()

                    server.write_notebook("bench_counter.ipynb", [lab.COUNTER_CODE])
                    nb = lab.Notebook(page, server, "bench_counter.ipynb").open()
                    nb.run_all()
                    timed = measure(page, COUNTER_SPEC, args.clicks, args.settle)
                    seen = nb.json("len(counter.seen)")
                    results["counter"] = {**summary([t["ms"] for t in timed]), "kernel_saw": seen,
                                          "breakdown": breakdown(timed), "clicks_raw": timed}
                    print(line("(a) counter          ", results["counter"]) + f", kernel saw {seen}")
                    print(f"      where the time goes (medians): {results['counter']['breakdown']}")
                    server.shutdown_sessions()

                    for key, title, code, spec, kinds, main_kind in TABLES:
                        if key in args.skip:
                            continue
                        page = ctx.new_page()
                        results[key] = measure_table(page, server, key, title, code, spec, kinds, args.clicks,
                                                     args.settle)
                        timed = results[key][main_kind]
                        if timed["n"]:
                            ratio = timed["median_ms"] / results["counter"]["median_ms"]
                            results[f"ratio_{key}_over_counter"] = round(ratio, 2)
                            print(f"ratio of medians, {key} {kinds[main_kind]} / counter: {ratio:.2f}")
                        server.shutdown_sessions()
                    if "motion" not in args.skip:
                        print("(d) card motion (Crypto Trick, seat 0 against bots that answer at once)")
                        results["motion"] = measure_motion(ctx.new_page(), server, args.clicks)
                    ctx.close()
                finally:
                    browser.close()
        finally:
            report = server.stop()
            results["server_shutdown"] = report
            if report["survivors"]:
                print(f"warning: kernels survived shutdown: {report['survivors']}", file=sys.stderr)
        results["wall_s"] = round(time.perf_counter() - t0, 2)

    out = ROOT / "benchmarks" / "results" / f"browser_roundtrip{'_nodelay' if args.nodelay else ''}{'_settle' if args.settle else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"wrote {out.relative_to(ROOT)} (wall {results['wall_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
