// Previews: pointing at a legal move (the mouse over it, or the keyboard's focus on it) asks
// Python what the move would do, as the viewer may see it ({type: "preview", action}, after a
// short pause so that sweeping over the hand sends nothing). Python answers in the `preview`
// trait ({action, lines}); the lines are shown under the player's moves, covering nothing on
// the table. JS computes nothing: it only shows the lines of the move still pointed at.
import { h, clear } from "./dom.js";
import { RULE_ID } from "./text.js";

/** How long the pointer rests on a move before its preview is asked for (ms). */
export const PREVIEW_DELAY = 120;

/**
 * The move a control stands for, if it sends or selects one: its `data-action`, or the `data-move`
 * of a chip that selects a move (only in the table proper, never a copy flying in the motion layer).
 * @param {EventTarget | null | undefined} target
 * @returns {string | null}
 */
export function moveOf(target) {
  const el = /** @type {Element | null} */ (target && /** @type {any} */ (target).closest
    ? /** @type {Element} */ (target).closest("[data-action], [data-move]") : null);
  if (!el || !el.closest(".cw-main") || el.closest(".cw-motion-layer")) return null;
  if (/** @type {any} */ (el).disabled) return null;
  return el.getAttribute("data-action") || el.getAttribute("data-move") || null;
}

/**
 * The preview of `action`, if `preview` (the trait) answers it and says something.
 * @param {any} preview
 * @param {string | null} action
 * @returns {HTMLElement | null}
 */
export function renderPreview(preview, action) {
  if (!action || !preview || typeof preview !== "object" || preview.action !== action) return null;
  const lines = Array.isArray(preview.lines) ? preview.lines.filter((l) => typeof l === "string" && l) : [];
  if (!lines.length) return null;
  return h("div", { class: "cw-preview", "data-preview": action }, [
    h("div", { class: "cw-preview-head" }, [h("span", { class: "cw-preview-word" }, "Preview"),
      h("b", { class: "cw-preview-move" }, action)]),
    h("ul", { class: "cw-preview-lines" }, lines.map((line) => h("li", { class: "cw-preview-line" }, ruleMarks(line)))),
  ]);
}

/**
 * Text with its rule IDs marked (not buttons: a preview goes away when the pointer leaves the move).
 * @param {string} text
 * @returns {Node[]}
 */
function ruleMarks(text) {
  /** @type {Node[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(RULE_ID)) {
    const i = /** @type {number} */ (m.index);
    if (i > last) out.push(document.createTextNode(text.slice(last, i)));
    out.push(h("span", { class: "cw-preview-rule" }, m[0]));
    last = i + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/**
 * Watch the table for moves pointed at, ask for their previews, and show the answers in the
 * `.cw-preview-slot` the frame draws.
 * @param {{root: HTMLElement, model: import("./table.js").Model,
 *   send: (msg: import("./table.js").Message) => boolean}} args
 * @returns {{show: () => void, redrawn: () => void, stop: () => void}}
 *   `show` fills the slot (after a redraw or an answer); `redrawn` after a new position: a move still
 *   pointed at is asked for again; `stop` removes the listeners
 */
export function watchPreviews({ root, model, send }) {
  /** @type {string | null} */
  let pointed = null;
  /** @type {any} */
  let timer = null;
  const legal = () => (Array.isArray(model.get("legal")) ? model.get("legal").map(String) : []);
  const show = () => {
    const slot = root.querySelector(".cw-preview-slot");
    if (!slot) return;
    clear(slot);
    const next = renderPreview(model.get("preview"), pointed);
    if (next) slot.appendChild(next);
  };
  /** @param {string | null} action */
  const point = (action) => {
    if (action === pointed) return;
    pointed = action;
    clearTimeout(timer);
    timer = null;
    if (action !== null && legal().includes(action)) {
      timer = setTimeout(() => {
        timer = null;
        if (pointed === action) send({ type: "preview", action });
      }, PREVIEW_DELAY);
    }
    show();
  };
  const over = (/** @type {Event} */ ev) => point(moveOf(ev.target));
  // leaving for another part of the same control keeps it; leaving the table ends it
  const out = (/** @type {Event} */ ev) => point(moveOf(/** @type {any} */ (ev).relatedTarget));
  const events = /** @type {Array<[string, (ev: Event) => void]>} */ ([
    ["pointerover", over], ["pointerout", out], ["focusin", over], ["focusout", out]]);
  for (const [type, fn] of events) root.addEventListener(type, fn);
  model.on("change:preview", show);
  return {
    show,
    redrawn: () => {
      // A new position: Python cleared the preview. The move still under the pointer or the
      // keyboard's focus (if it is still there) is asked for again.
      pointed = null;
      clearTimeout(timer);
      timer = null;
      const focused = root.ownerDocument.activeElement;
      let again = root.contains(focused) ? moveOf(focused) : null;
      if (again === null) {
        try {
          again = moveOf(root.querySelector(".cw-main :is([data-action], [data-move]):hover"));
        } catch {  // a DOM without :hover
          again = null;
        }
      }
      point(again);
    },
    stop: () => {
      clearTimeout(timer);
      for (const [type, fn] of events) root.removeEventListener(type, fn);
      model.off("change:preview", show);
    },
  };
}
