// The narration panel: one line per event, newest at the bottom, rule IDs as chips. Beside a
// wide table it fills the side; under a narrower one it shows its newest lines and opens on
// request, so the table and the hand stay on one screen.
import { h, stamp } from "./dom.js";
import { withRuleIds } from "./text.js";

/**
 * Render the narration. The list carries `data-autoscroll` (and a key that changes
 * with the narration), so the table keeps it scrolled to the newest line (see mountTable).
 * @param {string[]} lines  narration, oldest first (the `narration` trait)
 * @param {{max?: number, title?: string, empty?: string, open?: boolean, more?: boolean, onToggle?: () => void}} [opts]
 *   `max` lines shown closed (newest kept; open, all of them); `more`: there are earlier lines than
 *   `lines` (a table sends its newest ones); `onToggle` adds the button that opens (`open`) or closes the list
 * @returns {HTMLElement} `.cw-log-panel`
 */
export function renderLog(lines, opts = {}) {
  const all = Array.isArray(lines) ? lines.map(String) : [];
  const open = !!opts.open;
  const more = !!opts.more;
  const shown = open ? all : all.slice(-(opts.max ?? 300));
  const first = all.length - shown.length;
  return h("section", { class: ["cw-log-panel", opts.onToggle && !open && "cw-log-collapsed"], "aria-label": opts.title ?? "Narration" }, [
    h("div", { class: "cw-log-head" }, [
      h("h3", { class: "cw-panel-title" }, opts.title ?? "Narration"),
      opts.onToggle && all.length > 1
        ? h("button", {
          type: "button", class: "cw-btn cw-btn-small cw-btn-quiet cw-log-toggle", "data-control": "log-toggle",
          "data-earlier": more || open ? "" : null,
          "aria-expanded": String(open), title: open ? "show only the newest lines" : "show the whole narration",
          onClick: opts.onToggle,
        }, open ? "Show less" : more ? "Show all" : `Show all ${all.length}`)
        : null,
    ]),
    // opened, a table sends its last 5,000 lines: the rest are in Python
    open && more ? h("p", { class: "cw-log-more cw-muted" }, "Earlier lines: table.timeline.narration() in Python.") : null,
    h("ol", {
      class: "cw-log", "data-autoscroll": true, "data-autoscroll-key": `${all.length}:${all[all.length - 1] ?? ""}:${open}`,
      // (announced by the table's own live region, line by line: see mountTable)
      start: first + 1, tabIndex: 0,
    },
      shown.length
        ? shown.map((line, i) => {
            const latest = i === shown.length - 1;
            const li = stamp(`log:${latest}:${line}`, () => h("li", { class: ["cw-log-line", latest && "cw-log-latest"] }, withRuleIds(line)));
            // its place in the whole narration: a redraw keeps the lines it already shows
            li.setAttribute("data-line", String(first + i));
            return li;
          })
        : h("li", { class: "cw-log-line cw-muted" }, opts.empty ?? "Nothing has happened yet.")),
  ]);
}
