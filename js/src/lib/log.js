// The narration panel: one line per event, newest at the bottom, rule IDs emphasised.
import { h } from "./dom.js";
import { withRuleIds } from "./text.js";

/**
 * Render the narration log. The container carries `data-autoscroll`, so the
 * table scrolls it to the bottom after every redraw (see mountTable).
 * @param {string[]} lines  narration, oldest first
 * @param {{max?: number, title?: string, empty?: string}} [opts] `max` lines shown (newest kept)
 * @returns {HTMLElement} `.cw-log`
 */
export function renderLog(lines, opts = {}) {
  const all = Array.isArray(lines) ? lines : [];
  const max = opts.max ?? 300;
  const shown = all.slice(-max);
  const first = all.length - shown.length;
  return h("section", { class: "cw-log-panel" }, [
    h("h3", { class: "cw-panel-title" }, opts.title ?? "Narration"),
    h("ol", { class: "cw-log", "data-autoscroll": true, "aria-live": "polite", start: first + 1 },
      shown.length
        ? shown.map((line, i) =>
            h("li", { class: ["cw-log-line", i === shown.length - 1 && "cw-log-latest"] }, withRuleIds(line)))
        : h("li", { class: "cw-log-line cw-muted" }, opts.empty ?? "Nothing has happened yet.")),
  ]);
}
