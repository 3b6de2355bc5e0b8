"""Fixtures for the real-browser tests: one JupyterLab server and one chromium per session,
a fresh browser context per test.

A missing chromium, JupyterLab or Playwright skips these tests locally and FAILS them when the
``CI`` environment variable is set (``.ci/run`` sets it), so a broken install cannot turn CI green.
Artifacts (server log, console logs, screenshots, timings) go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest

from .lab import (ARTIFACTS, CHROMIUM, VIEWPORT, LabServer, Notebook, browser_required, chromium_available,
                  launch_browser)

try:
    from playwright.sync_api import expect

    # expect() waits 5 s by default; a loaded 2-core CI machine needs more headroom.
    expect.set_options(timeout=15_000)
except ImportError:  # reported by the browser fixture (skip locally, fail in CI)
    pass

_TIMINGS: dict[str, float] = {}
_REPORT: dict = {}


def _unavailable(reason: str):
    if browser_required():
        pytest.fail(f"{reason} (CI is set, so browser tests must run)", pytrace=False)
    pytest.skip(reason)


def _import_or_unavailable(module: str):
    try:
        return __import__(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        _unavailable(f"{module} is not installed: {exc}")


def pytest_collection_modifyitems(session, config, items):
    # Browser tests run last. While Playwright's sync API is started it leaves its event loop
    # registered as the running loop of the main thread, so any later test that calls
    # asyncio.run() would fail with "cannot be called from a running event loop".
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)  # stable sort


@pytest.fixture(scope="session")
def artifacts_root():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory, artifacts_root):
    """A private JupyterLab server; its root is ``lab_server.root`` (write notebooks there)."""
    _import_or_unavailable("jupyterlab")
    _import_or_unavailable("nbformat")
    _import_or_unavailable("psutil")
    server = LabServer(tmp_path_factory.mktemp("lab"), log_path=artifacts_root / "jupyter-server.log")
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    _TIMINGS["server_start_s"] = round(server.timings["server_start_s"], 3)
    yield server
    report = server.stop()
    _REPORT.update(report)
    _TIMINGS["server_shutdown_s"] = report["shutdown_s"]
    problems = []
    if report["survivors"]:
        problems.append(f"kernels survived the server shutdown: {report['survivors']}")
    if report["forced"] or report["exit_code"] not in (0, None):
        problems.append(f"server did not shut down cleanly (exit {report['exit_code']}, "
                        f"forced={report['forced']}); log: {server.log_path}")
    if problems:
        pytest.fail("; ".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def browser():
    """Debian chromium via Python Playwright, one per session."""
    if not chromium_available():
        _unavailable(f"{CHROMIUM} not found (install Debian's chromium: bash .ci/install)")
    sync_api = _import_or_unavailable("playwright.sync_api")  # noqa: F841
    from playwright.sync_api import sync_playwright

    t0 = time.perf_counter()
    pw = sync_playwright().start()
    try:
        b = launch_browser(pw)
    except Exception as exc:
        pw.stop()
        pytest.fail(f"chromium did not launch: {exc}", pytrace=False)
    _TIMINGS["browser_launch_s"] = round(time.perf_counter() - t0, 3)
    yield b
    b.close()
    pw.stop()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep


class LabPage:
    """What a browser test gets: the page, the server, the records and an artifacts folder."""

    def __init__(self, page, server: LabServer, artifacts):
        self.page = page
        self.server = server
        self.artifacts = artifacts
        self.console: list[str] = []
        self.page_errors: list[str] = []

    def notebook(self, name: str, cells: list[str] | None = None, frontend: str = "lab") -> Notebook:
        """Write ``cells`` (if given) as ``name`` into the server root; return it, not yet opened."""
        if cells is not None:
            self.server.write_notebook(name, cells)
        return Notebook(self.page, self.server, name, frontend)

    def open_notebook(self, name: str, cells: list[str] | None = None, run_all: bool = True,
                      frontend: str = "lab") -> Notebook:
        nb = self.notebook(name, cells, frontend).open()
        if run_all:
            nb.run_all()
        return nb

    def screenshot(self, locator_or_none, filename: str):
        path = self.artifacts / filename
        if locator_or_none is None:
            self.page.screenshot(path=str(path), full_page=True)
        else:
            locator_or_none.screenshot(path=str(path))
        return path


@pytest.fixture
def lab_page(request, browser, lab_server, artifacts_root):
    """A fresh browser context + page; console messages and page errors are recorded."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)[:100]
    out = artifacts_root / name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    lp = LabPage(page, lab_server, out)
    page.on("console", lambda m: lp.console.append(f"[{m.type}] {m.text}"))
    page.on("pageerror", lambda e: lp.page_errors.append(f"{e.name}: {e.message}\n{e.stack or ''}"))
    t0 = time.perf_counter()
    yield lp
    failed = any(getattr(request.node, f"rep_{w}", None) is not None and getattr(request.node, f"rep_{w}").failed
                 for w in ("setup", "call"))
    if failed:
        try:
            page.screenshot(path=str(out / "failure.png"), full_page=True)
        except Exception:  # noqa: BLE001 - best effort
            pass
    (out / "console.log").write_text("\n".join(lp.console) + "\n")
    (out / "page-errors.log").write_text("\n".join(lp.page_errors) + "\n")
    ctx.close()
    try:
        lab_server.shutdown_sessions()  # stop this test's kernels now, not at server shutdown
    except Exception:  # noqa: BLE001 - the server check at session end reports leftovers
        pass
    _TIMINGS[f"test:{name}_s"] = round(time.perf_counter() - t0, 3)


def pytest_sessionfinish(session, exitstatus):
    # Runs after the session fixtures' teardown, so the shutdown timings are in.
    if _TIMINGS:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "timings.json").write_text(json.dumps({"timings": _TIMINGS, "server": _REPORT}, indent=1))


def require_table(name: str):
    """A module-level autouse fixture: the table class ``name`` must import (built front end).

    A skip locally, a failure when ``CI`` is set: a missing bundle must not turn CI green.
    """

    @pytest.fixture(scope="module", autouse=True)
    def _require_table():
        try:
            import cardwidgets

            getattr(cardwidgets, name)
        except Exception as exc:  # ImportError, or a missing bundle
            msg = f"cardwidgets.{name} is not available: {type(exc).__name__}: {exc}"
            if browser_required():
                pytest.fail(msg, pytrace=False)
            pytest.skip(msg)

    return _require_table


# --------------------------------------------------------------------------- helpers the table tests share
def open_table(lab_page, name: str, cell: str, selector: str, height: int = 1900, frontend: str = "lab"):
    """A notebook ``name`` holding ``cell``, run; returns it and the table matching ``selector``.

    The page is tall enough that the whole table fits in the notebook panel (element screenshots).
    """
    lab_page.page.set_viewport_size({"width": 1280, "height": height})
    nb = lab_page.open_notebook(name, [cell], frontend=frontend)  # returns after the cells ran
    assert nb.errors() == []
    table = lab_page.page.locator(selector)
    table.wait_for(state="visible", timeout=60_000)
    return nb, table


def signed(v: int) -> str:
    """A number as the tables write it: the typographic minus for negatives."""
    return f"\u2212{-v}" if v < 0 else str(v)


def has_class(cls: str):
    """A class-attribute pattern for ``to_have_class``: the element has class ``cls``."""
    return re.compile(rf"(^|\s){re.escape(cls)}(\s|$)")


def history_pos(n: int) -> str:
    """The scrubber's text at the latest of ``n`` actions."""
    return "start of the game" if n == 0 else f"move {n} of {n} (latest)"


def expect_at_latest(table, n: int) -> None:
    """Wait until the DOM shows the latest of ``n`` actions (every sync redraws the scrubber)."""
    expect(table.locator(".cw-history-pos")).to_have_text(history_pos(n))


#: What every table test reads back about the table ``t`` in the kernel: name -> Python expression.
_SNAPSHOT = {
    "history": "[str(a) for a in t.history]",
    "history_len": "t.history_len",
    "current": "t.state.current_player",
    "terminal": "t.state.is_terminal",
    "legal": "list(t.legal)",
    "log": "list(t.narration)",
    "last_error": "t.last_error",
    "view": "t.view",
}


def snapshot(**more: str) -> str:
    """A kernel expression for the table's state that a test compares with the DOM, in one round
    trip: its history, legal moves, narration, error and view, and ``more`` (name=expression)."""
    return "{" + ", ".join(f"{k!r}: {v}" for k, v in {**_SNAPSHOT, **more}.items()) + "}"


def log_lines(table):
    """The narration lines in the table's log (not its muted placeholder)."""
    return table.locator(".cw-log .cw-log-line:not(.cw-muted)")


def dom_cards(locator) -> list[str]:
    """The cards the elements of ``locator`` show, by their notation (``data-card``)."""
    return locator.evaluate_all("els => els.map(e => e.dataset.card)")


def measure_layout(table) -> dict:
    """The table's size and where its parts sit (the laptop / wide layout checks)."""
    return table.evaluate("""root => {
        const r = (s) => { const e = root.querySelector(s); return e ? e.getBoundingClientRect() : null; };
        const t = root.getBoundingClientRect(), main = r('.cw-main'), side = r('.cw-side');
        return { width: Math.round(t.width), height: Math.round(t.height),
                 proper: Math.round(main.bottom - t.top + 12),
                 sideBeside: side.left >= main.right - 1, sideBelow: side.top >= main.bottom - 1,
                 player: r('.cw-player') ? Math.round(r('.cw-player').top - t.top) : null };
    }""")


def set_output_width(lab_page, table, width: int) -> dict:
    """Resize the page so the table is ``width`` px wide (the notebook's margins stay the same)."""
    page = lab_page.page
    for _ in range(3):
        now = table.evaluate("el => el.getBoundingClientRect().width")
        vp = page.viewport_size
        page.set_viewport_size({"width": int(vp["width"] + width - now), "height": vp["height"]})
        page.wait_for_timeout(250)
        if abs(table.evaluate("el => el.getBoundingClientRect().width") - width) <= 2:
            break
    return measure_layout(table)


# --------------------------------------------------------------------------- what a player sees
#: What is wrong with the table as drawn: text cut or spilling out of its box (a score table's names
#: never, even with "…"), text too faint for WCAG AA on what is under it (4.5:1, 3:1 for large text),
#: text or a face-up card under another part of the table, cards of a hand drawn over each other,
#: parts of a seat outside the seat, the felt's contents outside the felt, anything outside the
#: table, the narration's two newest lines cut, a refusal or a rule card over the felt's contents or
#: off screen. Returns one line per problem (none: an empty list).
LAYOUT_PROBLEMS_JS = r"""root => {
  const out = [];
  const rt = root.getBoundingClientRect();
  const label = (el) => {
    const c = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : el.tagName.toLowerCase();
    const d = el.dataset || {};
    return c + (d.seat ? `[seat=${d.seat}]` : "") + (d.card ? `[card=${d.card}]` : "") + (d.value ? `[value=${d.value}]` : "");
  };
  const styled = (el) => {
    for (let p = el; p && p !== root.parentElement; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) < 0.05) return false;
    }
    return true;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && styled(el);
  };
  // the narration scrolls on purpose; copies of moving cards, the felt under a panel and menus are not
  // the table; a card on its way is not where it will be (the DOM is, but not its box, until it lands)
  const moving = (el) => {
    for (let p = el; p && p !== root; p = p.parentElement) {
      if (p.getAnimations().some((a) => a.playState === "running" && !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))) return true;
    }
    return false;
  };
  // (nor is the narration's live region, for screen readers only)
  const ignored = (el) => el.closest(".cw-motion-layer, .cw-log, .cw-announce, .cw-felt-covered > .cw-felt-content, select") || moving(el);
  for (const el of root.querySelectorAll("*")) {
    // a text squeezed to nothing (a name pushed out by its badges) has no width left at all
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text || ignored(el) || !styled(el) || getComputedStyle(el).display === "inline") continue;
    // a long name cut on purpose, with "…" and the whole name on hover, is not a fault; in a score
    // table it is: the table is where the names are read against the scores
    if (getComputedStyle(el).textOverflow === "ellipsis" && el.title && el.title.startsWith(el.textContent.trim().replace(/…$/, ""))
        && !el.closest("table")) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`text cut or spilling: ${label(el)} "${el.textContent.trim().slice(0, 50)}" (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }
  const all = [...root.querySelectorAll("*")].filter((el) => !ignored(el) && shown(el));
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.left < rt.left - 1 || r.right > rt.right + 1) out.push(`outside the table: ${label(el)} (${Math.round(r.left)}..${Math.round(r.right)} of ${Math.round(rt.left)}..${Math.round(rt.right)})`);
  }
  for (const seat of root.querySelectorAll(".cw-seat")) {
    if (ignored(seat) || !shown(seat)) continue;
    const s = seat.getBoundingClientRect();
    for (const el of seat.querySelectorAll("*")) {
      if (ignored(el) || !shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < s.left - 1 || r.right > s.right + 1) out.push(`out of its seat: ${label(el)} in ${label(seat)}`);
    }
  }
  for (const row of root.querySelectorAll(".cw-hand, .cw-seat-hand, .cw-faceup")) {
    if (ignored(row)) continue;
    const cards = [...row.children].filter((c) => c.matches("[data-card]") && shown(c));
    for (let i = 1; i < cards.length; i++) {
      const a = cards[i - 1].getBoundingClientRect(), b = cards[i].getBoundingClientRect();
      if (Math.abs(a.top - b.top) < 4 && b.left < a.right - 1) out.push(`cards over each other: ${label(cards[i - 1])} and ${label(cards[i])}`);
    }
  }
  // text drawn under another part of the table (a panel over a seat, a badge over a heading): the
  // element on top at the middle of each line of text must be the text's own, or inside it. Cards
  // overlap on purpose (fans, stacks, backs), and popovers (a rule card) cover what they like.
  const floating = ".cw-rule-card, .cw-preview, .cw-overlay";
  for (const el of root.querySelectorAll("*")) {
    if (ignored(el) || !shown(el) || el.closest("[data-card], " + floating)) continue;
    for (const node of el.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = el.getBoundingClientRect();
      for (const line of range.getClientRects()) {
        // where the line shows: a text cut with "…" runs on, hidden, past its box
        const left = Math.max(line.left, box.left), right = Math.min(line.right, box.right);
        const r = { left, top: line.top, width: right - left, height: line.height };
        if (r.width < 1) continue;
        // the middle and both ends of the line, a third and two thirds down: half a line covered is covered
        for (const [fx, fy] of [[0.5, 0.35], [0.5, 0.65], [0.1, 0.35], [0.9, 0.65], [0.1, 0.65], [0.9, 0.35]]) {
          const x = r.left + r.width * fx, y = r.top + r.height * fy;
          if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
          const top = document.elementFromPoint(x, y);
          // an ancestor on top: the text lets the pointer through (pointer-events: none), so nothing is known
          if (!top || top === el || el.contains(top) || top.contains(el) || !root.contains(top)) continue;
          if (ignored(top) || top.closest(floating)) continue;
          out.push(`text covered: ${label(el)} "${node.textContent.trim().slice(0, 30)}" under ${label(top)}`);
          break;
        }
      }
    }
  }
  // a face-up card under something that is no card (a badge, a panel): its middle and its corners
  for (const card of root.querySelectorAll("[data-card]")) {
    if (ignored(card) || !shown(card) || card.closest(floating) || card.matches(".cw-card-back")) continue;
    const r = card.getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (!top || top === card || card.contains(top) || top.contains(card) || !root.contains(top)) continue;
      if (ignored(top) || top.closest("[data-card], " + floating)) continue;
      out.push(`card covered: ${label(card)} under ${label(top)}`);
      break;
    }
  }
  // the felt's contents stay on the felt
  const feltBox = root.querySelector(".cw-felt");
  if (feltBox && shown(feltBox)) {
    const f = feltBox.getBoundingClientRect();
    for (const el of feltBox.querySelectorAll(".cw-felt-content *")) {
      if (ignored(el) || !shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 || r.bottom > f.bottom + 1) {
        out.push(`past the felt: ${label(el)} (${Math.round(r.top)}..${Math.round(r.bottom)} of ${Math.round(f.top)}..${Math.round(f.bottom)})`);
      }
    }
  }
  // the narration at its newest line: the two newest lines are whole (a box two lines tall cut the
  // one above a wrapped newest line in half)
  for (const log of root.querySelectorAll(".cw-log")) {
    if (!shown(log) || log.scrollHeight - log.scrollTop - log.clientHeight > 8) continue;
    const b = log.getBoundingClientRect();
    const lines = [...log.querySelectorAll(".cw-log-line")].filter(shown).slice(-2);
    for (const line of lines) {
      const r = line.getBoundingClientRect();
      if (r.top < b.top - 1 || r.bottom > b.bottom + 1) out.push(`narration line cut: "${line.textContent.trim().slice(0, 40)}" (${Math.round(r.top)}..${Math.round(r.bottom)} in ${Math.round(b.top)}..${Math.round(b.bottom)})`);
    }
  }
  // contrast (WCAG 2.1 AA): each text against the colours under it
  const paint = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  const colour = (c) => {
    let m = /^rgba?\(([^)]+)\)/.exec(c);
    if (!m && !/^color\(srgb /.test(c)) {  // oklab(), lab() …: as the browser paints it
      paint.clearRect(0, 0, 1, 1);
      paint.fillStyle = "rgba(0, 0, 0, 0)";
      paint.fillStyle = c;
      paint.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = paint.getImageData(0, 0, 1, 1).data;
      return a ? [r, g, b, a / 255] : null;
    }
    if (m) { const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    m = /^color\(srgb ([^)]+)\)/.exec(c);
    if (m) { const p = m[1].split(/[\s\/]+/).filter(Boolean).map(Number); return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1]; }
    return null;
  };
  const over = (a, b) => { const t = a[3] + b[3] * (1 - a[3]); if (t === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map((i) => (a[i] * a[3] + b[i] * b[3] * (1 - a[3])) / t).concat([t]); };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const layers = (css) => { const out = []; let depth = 0, start = 0;
    for (let i = 0; i < css.length; i++) { if (css[i] === "(") depth++; else if (css[i] === ")") depth--; else if (css[i] === "," && !depth) { out.push(css.slice(start, i)); start = i + 1; } }
    out.push(css.slice(start)); return out.map((l) => l.trim()).filter((l) => l && l !== "none"); };
  // what may be under el, as opaque colours; null when an image is (no colour to say)
  const under = (el) => {
    const stack = [];
    for (let p = el; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      for (const img of layers(cs.backgroundImage)) {
        if (!img.includes("gradient")) return null;
        // a gradient: the mean of its stops (its colour half-way, where text usually is)
        const stops = (img.match(/rgba?\([^)]*\)|color\(srgb [^)]*\)/g) || []).map(colour).filter(Boolean);
        const a = stops.reduce((t, c) => t + c[3], 0);
        if (stops.length) stack.push([a ? [0, 1, 2].map((i) => stops.reduce((t, c) => t + c[i] * c[3], 0) / a).concat([a / stops.length]) : [0, 0, 0, 0]]);
      }
      const bg = colour(cs.backgroundColor);
      if (bg && bg[3] > 0) { stack.push([bg]); if (bg[3] >= 1) break; }
    }
    let bgs = [[255, 255, 255, 1]];
    for (const layer of stack.reverse()) bgs = layer.length ? bgs.flatMap((b) => layer.map((c) => over(c, b))) : bgs;
    return bgs;
  };
  for (const el of root.querySelectorAll("*")) {
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text || ignored(el) || !shown(el) || el.closest("[aria-hidden=true], :disabled, .cw-card-back")) continue;
    const cs = getComputedStyle(el);
    let fg = colour(cs.color);
    const bgs = under(el);
    if (!fg || !bgs) continue;
    let opacity = 1;
    for (let p = el; p && p !== root.parentElement; p = p.parentElement) opacity *= Number(getComputedStyle(p).opacity);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    if (size < 1) continue;  // a text drawn as a dot (its words in the title)
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    let worst = Infinity;
    for (const b of bgs) {
      const f = over([fg[0], fg[1], fg[2], fg[3] * opacity], b);
      const [hi, lo] = [lum(f), lum(b)].sort((x, y) => y - x);
      worst = Math.min(worst, (hi + 0.05) / (lo + 0.05));
    }
    if (worst < need - 0.05) out.push(`low contrast ${worst.toFixed(2)}:1 (needs ${need}): ${label(el)} "${el.textContent.trim().slice(0, 30)}"`);
  }
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const felt = root.querySelector(".cw-felt");
  for (const sel of [".cw-error"]) {
    const el = root.querySelector(sel);
    if (el && felt && shown(el) && meets(el.getBoundingClientRect(), felt.getBoundingClientRect())) out.push(`${sel} lies over the felt`);
  }
  const card = root.querySelector(".cw-rule-card");
  if (card && shown(card)) {
    const r = card.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 1 || r.left < 0 || r.right > innerWidth + 1) out.push(`the rule card is off screen (${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight})`);
  }
  return [...new Set(out)];
}"""


def table_errors(lab_page) -> list[str]:
    """The page's errors that may come from a table: Notebook 7 logs some of its own at start (settings
    schemas, commands of Lab's file browser), whose every stack frame is in its own bundles."""
    import re

    def host_only(err: str) -> bool:
        frames = re.findall(r"at .*?\((\S+?):\d+:\d+\)|at (\S+?):\d+:\d+", err)
        urls = [a or b for a, b in frames]
        return bool(urls) and all("/static/notebook/" in u or "/static/lab/" in u for u in urls)

    return [e for e in lab_page.page_errors if not host_only(e)]


def layout_problems(table) -> list[str]:
    """Everything covered, cut or spilling on the table as drawn now (see LAYOUT_PROBLEMS_JS), once
    its finite animations are over (at most 5 s): a refusal still fading in is not yet its colour."""
    table.evaluate("""async (root) => {
        for (let i = 0; i < 100; i++) {
            const busy = root.getAnimations({ subtree: true }).some((a) => a.playState === "running"
                && a.effect && a.effect.getComputedTiming().iterations !== Infinity);
            if (!busy) return;
            await new Promise((r) => setTimeout(r, 50));
        }
    }""")
    return table.evaluate(LAYOUT_PROBLEMS_JS)


def cards_at_rest(page, timeout_ms: int = 10_000) -> None:
    """Wait until no card is moving (before a screenshot: the DOM itself is final at once)."""
    page.wait_for_function(
        """() => document.getAnimations().every((a) => a.playState !== "running"
             || (typeof CSSAnimation === "function" && a instanceof CSSAnimation))""", timeout=timeout_ms)


# --------------------------------------------------------------------------- accessibility (axe-core)
#: axe-core 4, from npm (a devDependency of js/): injected into the page under test.
AXE = ARTIFACTS.parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.1 A and AA, the standard schools must meet.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_audit(page, selector: str) -> list[dict]:
    """axe-core's violations of WCAG 2.1 AA inside the first element matching ``selector`` (a table's
    root: JupyterLab's own chrome is not ours to audit). Each: id, impact, node count, help, targets."""
    if not AXE.is_file():
        _unavailable(f"{AXE} is missing (npm ci in js/)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("""async ([sel, tags]) => {
        const root = document.querySelector(sel);
        if (!root) throw new Error(`axe: nothing matches ${sel}`);
        const r = await axe.run(root, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help,
                                          targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
    }""", [selector, AXE_TAGS])


def by_impact(violations: list[dict]) -> dict[str, int]:
    """Violating nodes counted by impact (minor, moderate, serious, critical)."""
    out = {"minor": 0, "moderate": 0, "serious": 0, "critical": 0}
    for v in violations:
        out[v["impact"] or "minor"] += v["nodes"]
    return out


def unreachable_controls(page, selector: str, limit: int = 400) -> list[str]:
    """The table's controls (enabled buttons, selects, inputs, role=button) that Tab never reaches,
    starting from the table's root; and those reached that have no name."""
    page.locator(selector).first.focus()
    want = page.evaluate("""(sel) => { const root = document.querySelector(sel);
        const all = [...root.querySelectorAll('button, select, input, [role=button], [tabindex="0"]')]
          .filter((e) => !e.disabled && !e.closest('[aria-hidden=true], .cw-motion-layer') && e.getClientRects().length);
        all.forEach((e, i) => e.setAttribute('data-a11y-id', String(i)));
        return all.length; }""", selector)
    seen: set[str] = set()
    for _ in range(min(limit, want + 40)):
        page.keyboard.press("Tab")
        now = page.evaluate("""(sel) => { const a = document.activeElement;
            return document.querySelector(sel).contains(a) ? (a.getAttribute('data-a11y-id') ?? '-') : null; }""", selector)
        if now is None:
            break
        seen.add(now)
    missing = page.evaluate("""([sel, seen]) => [...document.querySelector(sel).querySelectorAll('[data-a11y-id]')]
        .filter((e) => !seen.includes(e.getAttribute('data-a11y-id')))
        .map((e) => e.outerHTML.slice(0, 120))""", [selector, sorted(seen)])
    return missing
