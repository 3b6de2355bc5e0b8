// The base of every game table: root element, trait subscriptions, redraw,
// keyboard isolation from the notebook, focus keeping, and cleanup.
import { clear } from "./dom.js";

/** The synced traits whose change redraws a table. */
export const TRAITS = ["view", "legal", "narration", "cursor", "history_len", "last_error", "thinking", "bot_seats", "branch", "branches", "hold", "refusals", "rules", "seat"];

/**
 * The subset of the anywidget model a table uses (easy to fake in tests).
 * @typedef {Object} Model
 * @property {(key: string) => any} get
 * @property {(event: string, cb: (...args: any[]) => void) => void} on
 * @property {(event: string, cb: (...args: any[]) => void) => void} off
 * @property {(content: any, callbacks?: any, buffers?: any) => void} send
 */

/**
 * Messages a table may send (the only way JS talks to Python).
 * @typedef {{type: "act", action: string} | {type: "goto", index: number} | {type: "undo"}
 *   | {type: "switch", branch: string} | {type: "continue"} | {type: "clear_error"}} Message
 */

/**
 * What a game's draw function receives.
 * @typedef {Object} TableContext
 * @property {Model} model
 * @property {HTMLElement} root     the `.cw-table` element (already emptied)
 * @property {string} game
 * @property {(key: string) => any} get   model.get
 * @property {(msg: Message) => void} send
 * @property {(action: string) => void} act   send {type:"act", action}
 * @property {() => void} redraw     redraw now (after a local UI change)
 * @property {Record<string, any>} ui  local UI state that survives redraws (selection, pass flow…)
 */

/**
 * Mount a game table in `el`.
 * @param {Object} args
 * @param {Model} args.model
 * @param {HTMLElement} args.el
 * @param {string} args.game  registry name, written to `data-game`
 * @param {(ctx: TableContext) => void} args.draw  fills ctx.root from the traits (called once `view` holds a position)
 * @param {(ev: KeyboardEvent, ctx: TableContext) => void} [args.onKey]  table shortcuts (keydown)
 * @returns {() => void} cleanup: removes listeners and DOM
 */
export function mountTable({ model, el, game, draw, onKey }) {
  const root = document.createElement("div");
  root.className = "cw-table";
  root.dataset.game = game;
  // Focusable so keyboard users can reach it; keys pressed inside stay inside
  // (JupyterLab would otherwise take "a", "b", "d d", Shift+Enter … as notebook commands).
  root.tabIndex = 0;
  const stop = (/** @type {Event} */ ev) => {
    ev.stopPropagation();
    if (onKey && ev.type === "keydown") onKey(/** @type {KeyboardEvent} */ (ev), ctx);
  };
  const KEY_EVENTS = ["keydown", "keyup", "keypress"];
  for (const t of KEY_EVENTS) root.addEventListener(t, stop);
  el.appendChild(root);

  /** @type {TableContext} */
  const ctx = {
    model, root, game,
    get: (k) => model.get(k),
    send: (msg) => model.send(msg),
    act: (action) => model.send({ type: "act", action }),
    redraw: () => redraw(),
    ui: {},
  };

  let alive = true;
  function redraw() {
    if (!alive) return;
    const focus = focusKey(root);
    const scroll = scrollState(root);
    clear(root);
    root.classList.toggle("cw-thinking-now", !!model.get("thinking"));
    try {
      const view = model.get("view");
      if (!view || typeof view !== "object" || !view.players) {
        // Nothing to draw before the first position arrives: say so instead.
        const wait = document.createElement("div");
        wait.className = "cw-waiting";
        wait.textContent = "Waiting for the game…";
        root.appendChild(wait);
      } else {
        draw(ctx);
      }
    } catch (err) {
      // A rendering bug must not kill the widget silently: show it in the table.
      console.error("cardwidgets: render failed", err);
      const box = document.createElement("pre");
      box.className = "cw-error cw-render-error";
      box.textContent = `Could not draw the table: ${err instanceof Error ? err.message : err}`;
      root.appendChild(box);
    }
    restoreFocus(root, focus);
    keepScroll(scroll);
  }

  // The narration opens at its newest line. Scrolling needs a laid-out element, and
  // anywidget (like JupyterLab) may render into an element that is not in the page
  // yet, where setting scrollTop does nothing: so scroll now, and again on the first
  // frames once the table is in the page. A reader who scrolled up keeps their place
  // until a new line arrives.
  let waiting = 0;
  /** @param {Map<string, {top: number, atEnd: boolean}>} saved */
  function keepScroll(saved) {
    const apply = () => {
      for (const box of root.querySelectorAll("[data-autoscroll]")) {
        const was = saved.get(box.getAttribute("data-autoscroll-key") || "");
        box.scrollTop = was && !was.atEnd ? was.top : box.scrollHeight;
      }
    };
    apply();
    if (waiting || typeof requestAnimationFrame !== "function") return;
    let frames = 0;
    let idle = 0;
    const again = () => {
      waiting = 0;
      if (!alive) return;
      if (root.isConnected) {
        apply();
        if (++frames < 2) waiting = requestAnimationFrame(again);
      } else if (++idle < 600) {  // about 10 s: a view never shown stops asking
        waiting = requestAnimationFrame(again);
      }
    };
    waiting = requestAnimationFrame(again);
  }

  // One Python step changes several traits in one message; Backbone fires a
  // `change:<trait>` per trait, then one `change`. Redraw once, on that `change`
  // (or at the end of the current task, should a model not fire it), not per trait.
  let dirty = false;
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    redraw();
  };
  const markDirty = () => {
    if (dirty) return;
    dirty = true;
    queueMicrotask(flush);
  };
  const events = TRAITS.map((t) => `change:${t}`);
  for (const ev of events) model.on(ev, markDirty);
  model.on("change", flush);
  redraw();

  return () => {
    alive = false;
    if (waiting && typeof cancelAnimationFrame === "function") cancelAnimationFrame(waiting);
    for (const ev of events) model.off(ev, markDirty);
    model.off("change", flush);
    for (const t of KEY_EVENTS) root.removeEventListener(t, stop);
    root.remove();
  };
}

/** Attributes that identify a control across redraws. */
const KEYS = ["data-control", "data-action", "data-seat", "data-index", "data-branch", "data-rule"];

/**
 * Where each scrolled list stands before a redraw, by its content key.
 * @param {HTMLElement} root
 * @returns {Map<string, {top: number, atEnd: boolean}>}
 */
function scrollState(root) {
  const out = new Map();
  for (const box of root.querySelectorAll("[data-autoscroll]")) {
    const el = /** @type {HTMLElement} */ (box);
    out.set(el.getAttribute("data-autoscroll-key") || "",
      { top: el.scrollTop, atEnd: el.scrollHeight - el.scrollTop - el.clientHeight <= 8 });
  }
  return out;
}

/**
 * A selector for the focused element, if focus is inside the table.
 * @param {HTMLElement} root
 * @returns {string | null}
 */
function focusKey(root) {
  const active = root.ownerDocument.activeElement;
  if (!active || active === root || !root.contains(active)) return null;
  const parts = KEYS.filter((k) => active.hasAttribute(k))
    .map((k) => `[${k}="${CSS_escape(active.getAttribute(k) ?? "")}"]`);
  if (active.hasAttribute("data-card") && active.closest(".cw-hand")) parts.unshift(".cw-hand ");
  return parts.length ? parts.join("") : null;
}

/** @param {HTMLElement} root @param {string | null} key */
function restoreFocus(root, key) {
  if (!key) return;
  const el = /** @type {HTMLElement | null} */ (root.querySelector(key));
  // preventScroll: a redraw must never make the notebook jump.
  if (el && !(/** @type {any} */ (el).disabled)) el.focus({ preventScroll: true });
  else root.focus({ preventScroll: true });
}

/** @param {string} s */
function CSS_escape(s) {
  return s.replace(/["\\]/g, "\\$&");
}
