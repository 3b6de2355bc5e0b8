// The narration panel: one line per event, newest at the bottom, rule IDs as chips.
import { h } from "./dom.js";
import { withRuleIds } from "./text.js";

/**
 * Render the narration. The list carries `data-autoscroll` (and a key that changes
 * with the narration), so the table keeps it scrolled to the newest line (see mountTable).
 * @param {string[]} lines  narration, oldest first (the `narration` trait)
 * @param {{max?: number, title?: string, empty?: string}} [opts] `max` lines shown (newest kept)
 * @returns {HTMLElement} `.cw-log-panel`
 */
export function renderLog(lines, opts = {}) {
  const all = Array.isArray(lines) ? lines.map(String) : [];
  const max = opts.max ?? 300;
  const shown = all.slice(-max);
  const first = all.length - shown.length;
  return h("section", { class: "cw-log-panel", "aria-label": opts.title ?? "Narration" }, [
    h("h3", { class: "cw-panel-title" }, opts.title ?? "Narration"),
    h("ol", {
      class: "cw-log", "data-autoscroll": true, "data-autoscroll-key": `${all.length}:${all[all.length - 1] ?? ""}`,
      "aria-live": "polite", start: first + 1, tabIndex: 0,
    },
      shown.length
        ? shown.map((line, i) =>
            h("li", { class: ["cw-log-line", i === shown.length - 1 && "cw-log-latest"] }, withRuleIds(line)))
        : h("li", { class: "cw-log-line cw-muted" }, opts.empty ?? "Nothing has happened yet.")),
  ]);
}
