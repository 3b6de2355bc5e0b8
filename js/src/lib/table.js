// The base of every game table: root element, trait subscriptions, redraw, messages to
// Python (one at a time for moves), keyboard isolation from the notebook, focus keeping,
// card motion, and cleanup.
import morphdom from "morphdom";
import { adoptHandlers } from "./dom.js";
import { createMotion, reducedMotion, canAnimate } from "./motion.js";
import { watchPreviews } from "./preview.js";

/** The synced traits whose change redraws a table. */
export const TRAITS = ["view", "legal", "narration", "cursor", "history_len", "last_error", "thinking", "bot_seats",
  "branch", "branches", "hold", "refusals", "rules", "seat", "bot_delay", "animations", "playing", "lesson", "hotseat", "curtain", "narration_more"];
// (`preview` is not one: an answer only refills the preview's slot, see preview.js)

/**
 * Messages that change the game: while one is on its way, another one is not sent (a double
 * click must not play for the next player too).
 */
const ONE_AT_A_TIME = new Set(["act", "continue", "undo", "skip", "restart", "next_lesson", "iam"]);
/** Messages that are no action of the person: they leave a refusal on show. */
const QUIET = new Set(["clear_error", "preview", "narration"]);
/** A move not answered after this long no longer blocks the next (ms): the kernel may be gone. */
const ANSWER_TIMEOUT = 4000;

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
 *   | {type: "switch", branch: string} | {type: "continue"} | {type: "clear_error"}
 *   | {type: "speed", delay: number} | {type: "skip"} | {type: "preview", action: string}
 *   | {type: "play", speed?: number} | {type: "pause"} | {type: "hint"} | {type: "restart"}
 *   | {type: "next_lesson"} | {type: "iam", seat: number}} Message
 */

/**
 * What a game's draw function receives.
 * @typedef {Object} TableContext
 * @property {Model} model
 * @property {HTMLElement} root     the `.cw-table` element (already emptied)
 * @property {string} game
 * @property {(key: string) => any} get   model.get
 * @property {(msg: Message) => boolean} send  false when the message was not sent (a move is still on its way)
 * @property {(action: string) => boolean} act   send {type:"act", action}
 * @property {() => void} redraw     redraw now (after a local UI change)
 * @property {() => boolean} pending  a move was sent and Python has not answered yet
 * @property {() => string} error    the refusal shown now ("" when none, or dismissed)
 * @property {() => void} dismissError  hide the refusal (and tell Python it was read)
 * @property {Record<string, any>} ui  local UI state that survives redraws (selection, pass flow…)
 */

/**
 * @typedef {Object} TableHooks
 * @property {(ctx: TableContext) => void} draw  fills ctx.root from the traits (called once `view` holds a position)
 * @property {(ev: KeyboardEvent, ctx: TableContext) => void} [onKey]  table keys (keydown)
 * @property {(ctx: TableContext) => import("./motion.js").MotionHints} [motion]  where cards come from and go
 * @property {(ctx: TableContext) => void} [afterDraw]  once the table is drawn (placing popovers)
 */

/**
 * Mount a game table in `el`.
 * @param {Object} args
 * @param {Model} args.model
 * @param {HTMLElement} args.el
 * @param {string} args.game  registry name, written to `data-game`
 * @param {TableHooks["draw"]} args.draw
 * @param {TableHooks["onKey"]} [args.onKey]
 * @param {TableHooks["motion"]} [args.motion]
 * @param {TableHooks["afterDraw"]} [args.afterDraw]
 * @returns {() => void} cleanup: removes listeners and DOM
 */
export function mountTable({ model, el, game, draw, onKey, motion: motionHints, afterDraw }) {
  const root = document.createElement("div");
  root.className = "cw-table";
  root.dataset.game = game;
  // Focusable so keyboard users can reach it; keys pressed inside stay inside
  // (JupyterLab would otherwise take "a", "b", "d d", Shift+Enter … as notebook commands).
  root.tabIndex = 0;
  // Lumino (JupyterLab, Notebook 7) reads shortcuts on the document, before the table sees a key
  // where it listens in the capture phase: this attribute tells it to leave the table's keys alone.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  const stop = (/** @type {Event} */ ev) => {
    ev.stopPropagation();
    if (onKey && ev.type === "keydown") onKey(/** @type {KeyboardEvent} */ (ev), ctx);
  };
  const KEY_EVENTS = ["keydown", "keyup", "keypress"];
  for (const t of KEY_EVENTS) root.addEventListener(t, stop);
  // The narration for screen readers: a polite live region that stays in place across redraws
  // and receives only the lines that are new (the visible list is redrawn whole each time, so as
  // a live region it would say nothing, or everything again).
  const live = document.createElement("div");
  live.className = "cw-announce";
  live.setAttribute("role", "log");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-relevant", "additions");
  root.appendChild(live);
  /** @type {string[] | null} the narration last announced */
  let said = null;
  const announce = () => {
    const lines = Array.isArray(model.get("narration")) ? model.get("narration").map(String) : [];
    const fresh = said === null ? [] : newLines(said, lines);
    said = lines;
    for (const line of fresh) live.appendChild(Object.assign(document.createElement("p"), { textContent: line }));
    while (live.childNodes.length > 20) live.firstChild?.remove();
  };
  el.appendChild(root);

  // ---- messages: a move at a time --------------------------------------------------------------
  /** @type {{at: string, err: string, timer: any} | null} */
  let waiting = null;
  const stamp = () => JSON.stringify([model.get("cursor"), model.get("history_len"), model.get("branch"),
    model.get("hold"), model.get("thinking"), model.get("seat"), model.get("curtain")]);
  /** Has Python answered the move on its way? A new position, or a new refusal. */
  const isAnswer = () => {
    if (!waiting) return false;
    const e = String(model.get("last_error") || "");
    if (stamp() !== waiting.at || (e && e !== waiting.err)) return true;
    waiting.err = e;  // the old refusal cleared: the same text again is a new answer
    return false;
  };
  const answered = () => {
    if (!waiting) return;
    clearTimeout(waiting.timer);
    waiting = null;
    root.classList.remove("cw-pending");
  };
  /** @param {Message} msg */
  const send = (msg) => {
    const locks = ONE_AT_A_TIME.has(msg.type);
    if (locks && waiting) return false;
    if (!QUIET.has(msg.type) && errorShown()) dismissError();
    if (locks) {
      waiting = { at: stamp(), err: String(model.get("last_error") || ""), timer: setTimeout(answered, ANSWER_TIMEOUT) };
      root.classList.add("cw-pending");
    }
    // The kernel going idle after this message means Python has handled it, changed or not.
    // marimo calls the callbacks themselves once the message is delivered (not yet handled):
    // a function that waits for the answer there, as without a kernel's status.
    const callbacks = locks ? Object.assign(() => {}, { iopub: { status: (/** @type {any} */ m) => {
      if (m?.content?.execution_state === "idle") answered();
    } } }) : undefined;
    model.send(msg, callbacks);
    return true;
  };

  // ---- the refusal: shown until the next action ----------------------------------------------
  const errorShown = () => {
    const e = String(model.get("last_error") || "");
    return e !== "" && ctx.ui.dismissed !== e;
  };
  const dismissError = () => {
    const e = String(model.get("last_error") || "");
    if (!e || ctx.ui.dismissed === e) return;
    ctx.ui.dismissed = e;
    model.send({ type: "clear_error" });  // so the same refusal, made again, shows again
    queueMicrotask(redraw);
  };
  // Any click elsewhere in the table is the next action: the refusal has been read.
  const onPointer = (/** @type {Event} */ ev) => {
    const t = /** @type {Element | null} */ (ev.target);
    if (errorShown() && !(t && t.closest && t.closest(".cw-error"))) dismissError();
  };
  root.addEventListener("click", onPointer, true);

  /** @type {TableContext} */
  const ctx = {
    model, root, game,
    get: (k) => model.get(k),
    send,
    act: (action) => send({ type: "act", action }),
    redraw: () => redraw(),
    pending: () => waiting !== null,
    error: () => (errorShown() ? String(model.get("last_error")) : ""),
    dismissError,
    ui: {},
  };

  // ---- previews of the move pointed at ----------------------------------------------------------
  const previews = watchPreviews({ root, model, send });

  // ---- card motion ---------------------------------------------------------------------------
  const motion = canAnimate() ? createMotion(root) : null;
  if (motion) root.appendChild(motion.layer);
  let lastPos = /** @type {[number, string] | null} */ (null);
  /**
   * Whether the cards of this redraw travel: yes when the game moves on by a move or three, and for
   * a redraw at the same position (cards in flight fly on); no for a jump through the history.
   * @param {boolean} fromModel
   */
  const moves = (fromModel) => {
    const pos = /** @type {[number, string]} */ ([Number(model.get("cursor") ?? 0), String(model.get("branch") ?? "")]);
    const was = lastPos;
    if (fromModel) lastPos = pos;
    if (!motion || !was || model.get("animations") === false || reducedMotion()) return false;
    return pos[1] === was[1] && pos[0] >= was[0] && pos[0] - was[0] <= 3;
  };

  // What needs the new layout (the narration's scroll, setting cards in motion) waits for the next
  // frame, where the browser lays the page out anyway: done at once, each forced a layout of the
  // whole notebook before the DOM was even shown (about 20 ms a move in JupyterLab). A redraw
  // before that frame does it first, so every update still starts from where the last one ended.
  /** @type {Array<() => void>} */
  let later = [];
  let laterFrame = 0;
  const settle = () => {
    if (laterFrame && typeof cancelAnimationFrame === "function") cancelAnimationFrame(laterFrame);
    laterFrame = 0;
    const jobs = later;
    later = [];
    const t0 = performance.now();
    for (const job of jobs) job();
    if (jobs.length) mark("cw-frame", t0);
  };
  /** @param {() => void} job */
  const nextFrame = (job) => {
    if (typeof requestAnimationFrame !== "function") return job();
    later.push(job);
    if (!laterFrame) laterFrame = requestAnimationFrame(() => { laterFrame = 0; if (alive) settle(); });
  };

  // Where the cards are, read in the frame after each redraw (the layout is fresh there): the next
  // update's motion starts from it, so the update itself reads no layout. A resize forgets it.
  /** @type {ReturnType<NonNullable<typeof motion>["snapshot"]> | null} */
  let ready = null;
  const resized = motion && typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    // (it also reports the size a redraw gave the table, which the snapshot of that frame has seen)
    const was = /** @type {any} */ (ready)?.origin;
    if (was && (Math.abs(root.offsetWidth - was.w) > 1 || Math.abs(root.offsetHeight - was.h) > 1)) ready = null;
  }) : null;
  resized?.observe(root);

  /**
   * Patch the live table to match `sheet`, the new drawing: elements that stay keep their place,
   * focus, scroll and handlers, and the browser restyles only what changed. Cards are matched by
   * their notation (the n-th of equal ones), narration lines by their place; a card in flight lands
   * (measured mid-flight, its motion would start from the wrong place) and flies on in the next frame.
   * A part drawn the same as before (most of the table, most moves) is compared by the browser in
   * one native call (`isEqualNode`) instead of node by node.
   * @param {HTMLElement} sheet
   */
  function patch(sheet) {
    // Every key is worked out here, once, so morphdom's lookups are one WeakMap read.
    /** @type {WeakMap<Node, string>} */
    const keys = new WeakMap();
    for (const tree of [root, sheet]) {
      /** @type {Map<string, number>} */
      const seen = new Map();
      for (const el of tree.querySelectorAll("[data-card]")) {
        if (el.closest(".cw-motion-layer")) continue;
        const card = el.getAttribute("data-card") || "";
        const n = seen.get(card) ?? 0;
        seen.set(card, n + 1);
        if (tree === root) motion?.land(el);
        keys.set(el, `card:${n}:${card}`);
      }
      for (const el of tree.querySelectorAll("[data-line]")) keys.set(el, `line:${el.getAttribute("data-line")}`);
    }
    // the live region and the motion layer stay as they are (the drawing has stand-ins for them)
    keys.set(live, "cw:live").set(/** @type {Node} */ (sheet.querySelector(":scope > .cw-announce")), "cw:live");
    if (motion) keys.set(motion.layer, "cw:layer").set(/** @type {Node} */ (sheet.querySelector(":scope > .cw-motion-layer")), "cw:layer");
    // Controls whose state lives in properties (a slider's value), which isEqualNode does not see:
    // the parts holding one are always patched.
    /** @type {WeakSet<Node>} */
    const holdsControl = new WeakSet();
    for (const el of sheet.querySelectorAll("input, select, option, textarea")) {
      for (let n = /** @type {Node | null} */ (el); n && n !== sheet; n = n.parentNode) holdsControl.add(n);
    }
    root.className = sheet.className;
    morphdom(root, sheet, {
      childrenOnly: true,
      getNodeKey: (node) => keys.get(node) ?? (/** @type {Element} */ (node).id || undefined),
      onBeforeElUpdated: (from, to) => {
        if (from === live || from === motion?.layer) return false;
        if (!holdsControl.has(to) && from.isEqualNode(to)) {
          // Kept as it is; its elements still take the new drawing's handlers (the same shape,
          // so the same document order).
          const a = from.getElementsByTagName("*");
          const b = to.getElementsByTagName("*");
          adoptHandlers(from, to);
          for (let i = 0; i < b.length; i++) adoptHandlers(a[i], b[i]);
          return false;
        }
        adoptHandlers(from, to);
        return true;
      },
    });
  }

  let alive = true;
  /** @param {boolean} [fromModel] the traits changed (not a local UI change) */
  function redraw(fromModel = false) {
    if (!alive) return;
    settle();
    const t0 = performance.now();
    const animate = moves(fromModel);
    const before = animate && motion ? ready ?? motion.snapshot() : null;
    ready = null;
    if (!animate && motion) motion.clear();
    const focus = focusKey(root);
    const scroll = scrollState(root, where);
    root.classList.toggle("cw-thinking-now", !!model.get("thinking"));
    // The moves of the line shown (a DOM hook: tests wait on it instead of on text).
    root.dataset.moves = String(Number(model.get("history_len")) || 0);
    // The new position is drawn apart, then the live table patched to match: rebuilt whole, every
    // update had the browser style and lay out the whole table again (8-30 ms a move).
    const sheet = document.createElement("div");
    sheet.className = root.className;
    sheet.appendChild(stub("cw-announce"));  // where the live region and the motion layer stay
    ctx.root = sheet;
    try {
      const view = model.get("view");
      if (!view || typeof view !== "object" || !view.players) {
        // Nothing to draw before the first position arrives: say so instead.
        const wait = document.createElement("div");
        wait.className = "cw-waiting";
        wait.textContent = "Waiting for the game…";
        sheet.appendChild(wait);
      } else {
        draw(ctx);
      }
    } catch (err) {
      // A rendering bug must not kill the widget silently: show it in the table.
      console.error("cardwidgets: render failed", err);
      const box = document.createElement("pre");
      box.className = "cw-error cw-render-error";
      box.textContent = `Could not draw the table: ${err instanceof Error ? err.message : err}`;
      sheet.appendChild(box);
    } finally {
      ctx.root = root;
    }
    if (motion) sheet.appendChild(stub("cw-motion-layer"));
    patch(sheet);
    if (fromModel) announce();
    restoreFocus(root, focus);
    if (fromModel) previews.redrawn();
    else previews.show();
    keepScroll(scroll);
    if (afterDraw) afterDraw(ctx);
    if (before && motion) {
      const hints = motionHints ? motionHints(ctx) : {};
      nextFrame(() => {
        try {
          ready = motion.play(before, hints).snapshot;  // it has read where every card lands
        } catch (err) {  // motion is decoration: never let it break a table
          console.warn("cardwidgets: motion failed", err);
        }
      });
    } else if (motion) nextFrame(() => { ready = motion.snapshot(); });
    mark("cw-redraw", t0);
  }

  // The narration opens at its newest line. Scrolling needs a laid-out element, and
  // anywidget (like JupyterLab) may render into an element that is not in the page
  // yet, where setting scrollTop does nothing: so scroll now, and again on the first
  // frames once the table is in the page. A reader who scrolled up keeps their place
  // until a new line arrives.
  // A list shown at its newest line stays there when its size changes without a redraw (the
  // output area or the window resized, a sidebar opened): the browser keeps its scrollTop.
  let frame = 0;
  /** @type {WeakSet<Element>} lists at their newest line */
  let pinned = new WeakSet();
  // Where each list stands, as its scroll events and the table's own scrolling left it: a redraw
  // reads it here, not from the layout (reading scrollTop there laid the whole page out before
  // the new position was even drawn).
  /** @type {WeakMap<Element, {top: number, atEnd: boolean}>} */
  const where = new WeakMap();
  const sized = typeof ResizeObserver === "function"
    ? new ResizeObserver((entries) => {
      for (const { target } of entries) if (pinned.has(target)) target.scrollTop = target.scrollHeight;
    })
    : null;
  /** @type {WeakSet<Element>} lists that report their scrolling */
  const scrolling = new WeakSet();
  /** @param {Element} box */
  const onScroll = (box) => () => {
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight <= 8;
    where.set(box, { top: box.scrollTop, atEnd });
    if (atEnd) pinned.add(box);
    else pinned.delete(box);
  };
  /** @param {Map<string, {top: number, atEnd: boolean}>} saved */
  function keepScroll(saved) {
    const apply = () => {
      for (const box of root.querySelectorAll("[data-autoscroll]")) {
        const was = saved.get(box.getAttribute("data-autoscroll-key") || "");
        const stay = !!was && !was.atEnd;
        box.scrollTop = stay ? was.top : box.scrollHeight;
        where.set(box, stay ? was : { top: 0, atEnd: true });
        if (stay) pinned.delete(box);
        else pinned.add(box);
      }
    };
    sized?.disconnect();
    pinned = new WeakSet();
    for (const box of root.querySelectorAll("[data-autoscroll]")) {
      sized?.observe(box);
        // (a list the redraw kept has its listener already)
      if (!scrolling.has(box)) box.addEventListener("scroll", onScroll(box), { passive: true });
      scrolling.add(box);
    }
    nextFrame(apply);
    // A table in the page is scrolled by that frame's job; one drawn before it is in the page
    // (anywidget, JupyterLab) is scrolled again on the first frames once it is there.
    if (frame || typeof requestAnimationFrame !== "function" || root.isConnected) return;
    let frames = 0;
    let idle = 0;
    const again = () => {
      frame = 0;
      if (!alive) return;
      if (root.isConnected) {
        apply();
        if (afterDraw && frames === 0) afterDraw(ctx);  // a popover placed before the table was in the page
        if (++frames < 2) frame = requestAnimationFrame(again);
      } else if (++idle < 600) {  // about 10 s: a view never shown stops asking
        frame = requestAnimationFrame(again);
      }
    };
    frame = requestAnimationFrame(again);
  }

  // One Python step changes several traits in one message; Backbone fires a
  // `change:<trait>` per trait, then one `change`. Redraw once, on that `change`
  // (or at the end of the current task, should a model not fire it), not per trait.
  let dirty = false;
  const flush = () => {
    if (!dirty) return;
    dirty = false;
    if (isAnswer()) answered();
    redraw(true);
  };
  const markDirty = () => {
    // Python cleared the refusal: should it come again, it shows again
    if (!model.get("last_error")) ctx.ui.dismissed = null;
    if (dirty) return;
    dirty = true;
    queueMicrotask(flush);
  };
  const events = TRAITS.map((t) => `change:${t}`);
  for (const ev of events) model.on(ev, markDirty);
  model.on("change", flush);
  redraw(true);

  return () => {
    alive = false;
    if (laterFrame && typeof cancelAnimationFrame === "function") cancelAnimationFrame(laterFrame);
    later = [];
    previews.stop();
    if (frame && typeof cancelAnimationFrame === "function") cancelAnimationFrame(frame);
    sized?.disconnect();
    resized?.disconnect();
    if (waiting) clearTimeout(waiting.timer);
    motion?.clear();
    for (const ev of events) model.off(ev, markDirty);
    model.off("change", flush);
    for (const t of KEY_EVENTS) root.removeEventListener(t, stop);
    root.removeEventListener("click", onPointer, true);
    root.remove();
  };
}

/** @param {string} className @returns {HTMLElement} a stand-in, in a new drawing, for a part that stays */
function stub(className) {
  const el = document.createElement("div");
  el.className = className;
  return el;
}

/**
 * Record how long a part of an update took, as a performance measure (shown in the browser's
 * performance tools; the round-trip benchmark reads them): "cw-redraw" (the DOM of a new position),
 * "cw-frame" (the work left for the next frame: the narration's scroll, cards set in motion).
 * @param {string} name
 * @param {number} start performance.now() when it began
 */
function mark(name, start) {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch { /* a browser without User Timing level 3: nothing to record */ }
}

/**
 * The lines of `next` that follow what `prev` ended with: a game that went on. A jump through the
 * history (the newest line of `prev` is not where it was) announces nothing: the scrubber says where.
 * @param {string[]} prev
 * @param {string[]} next
 * @returns {string[]}
 */
export function newLines(prev, next) {
  if (!prev.length) return next.slice(-3);
  const tail = prev.slice(-3);
  for (let i = next.length - 1; i >= tail.length - 1; i--) {
    if (tail.every((line, k) => next[i - (tail.length - 1) + k] === line)) return next.slice(i + 1);
  }
  return [];
}

/** Attributes that identify a control across redraws. */
const KEYS = ["data-control", "data-action", "data-move", "data-seat", "data-index", "data-branch", "data-rule", "data-crab", "data-deck", "data-value"];

/** What the arrow keys move between: the controls that play or choose a move (not the rule chips). */
export const NAVIGABLE = ".cw-main :is(button, [role=button], select):not(:disabled):not(.cw-rule):not([aria-hidden=true])";

/**
 * The controls the arrow keys move between, in reading order.
 * @param {HTMLElement} root
 * @returns {HTMLElement[]}
 */
export function navigable(root) {
  return /** @type {HTMLElement[]} */ ([...root.querySelectorAll(NAVIGABLE)]
    .filter((el) => !el.closest(".cw-motion-layer") && !(/** @type {HTMLElement} */ (el).hidden)));
}

/**
 * Where each scrolled list stands before a redraw, by its content key (a list never scrolled
 * yet stands at its newest line, where the table opens it).
 * @param {HTMLElement} root
 * @param {WeakMap<Element, {top: number, atEnd: boolean}>} where  what the lists' scrolling left
 * @returns {Map<string, {top: number, atEnd: boolean}>}
 */
function scrollState(root, where) {
  const out = new Map();
  for (const box of root.querySelectorAll("[data-autoscroll]")) {
    out.set(box.getAttribute("data-autoscroll-key") || "", where.get(box) ?? { top: 0, atEnd: true });
  }
  return out;
}

/**
 * How to find the focused element again after a redraw, if focus is inside the table.
 * @param {HTMLElement} root
 * @returns {{sel: string | null, index: number} | null}
 */
function focusKey(root) {
  const active = root.ownerDocument.activeElement;
  if (!active || active === root || !root.contains(active)) return null;
  const parts = KEYS.filter((k) => active.hasAttribute(k))
    .map((k) => `[${k}="${CSS_escape(active.getAttribute(k) ?? "")}"]`);
  if (active.hasAttribute("data-card") && active.closest(".cw-hand")) parts.unshift(".cw-hand ");
  return { sel: parts.length ? parts.join("") : null, index: navigable(root).indexOf(/** @type {HTMLElement} */ (active)) };
}

/** @param {HTMLElement} root @param {{sel: string | null, index: number} | null} key */
function restoreFocus(root, key) {
  if (!key) return;
  // still on its element, which the patch kept
  const active = root.ownerDocument.activeElement;
  if (active && active !== root && root.contains(active)) return;
  const el = /** @type {HTMLElement | null} */ (key.sel ? root.querySelector(key.sel) : null);
  // preventScroll: a redraw must never make the notebook jump.
  if (el && !(/** @type {any} */ (el).disabled)) {
    el.focus({ preventScroll: true });
    return;
  }
  // The control is gone (the card was played): the keyboard stays on the controls, at the same place.
  const list = navigable(root);
  if (key.index >= 0 && list.length) list[Math.min(key.index, list.length - 1)].focus({ preventScroll: true });
  else root.focus({ preventScroll: true });
}

/** @param {string} s */
function CSS_escape(s) {
  return s.replace(/["\\]/g, "\\$&");
}
