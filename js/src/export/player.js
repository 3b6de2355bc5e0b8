// The static player of an exported game: the game's own table (layout + shared frame) over a
// read-only model, the notes of the line shown, and the keys (left/right arrows step, Home and
// End jump to the ends). Everything it shows comes from the data in the page; it loads nothing.
import "./export.css";
import { h, append, clear } from "../lib/dom.js";
import { gameWidget } from "../lib/frame.js";
import { count } from "../lib/text.js";
import { Replay } from "./replay.js";
import { replayModel } from "./model.js";

/** The id of the page's data element (cardwidgets.export.DATA_ID). */
export const DATA_ID = "cw-export-data";

/**
 * @typedef {import("../lib/frame.js").Layout} Layout
 * @typedef {import("./replay.js").ExportData} ExportData
 */

/**
 * Mount the player in `el`.
 * @param {{layout: Layout, data: ExportData, el: HTMLElement, keys?: EventTarget, animations?: boolean}} args
 *   `keys`: where the arrow keys are read (default: `el`'s window, so that they work anywhere on the page)
 * @returns {{model: ReturnType<typeof replayModel>, replay: Replay, cleanup: () => void}}
 */
export function mountPlayer({ layout, data, el, keys, animations }) {
  if (!layout || typeof layout.felt !== "function") throw new Error("cardwidgets export: the game has no layout");
  const replay = new Replay(data);
  if (data.game !== layout.game) throw new Error(`cardwidgets export: ${data.game} data in the ${layout.game} player`);
  const model = replayModel(replay, { animations });
  clear(el);
  el.classList.add("cw-export-page");
  const who = data.seat == null ? "the teacher view: every hand is open" : `as seen by ${seatName(replay, data.seat)}`;
  const moves = replay.line(replay.names[0]).length;
  const head = h("header", { class: "cw-export-head" }, [
    h("span", { class: "cw-export-what" }, [h("b", null, `${data.title} replay`), `, ${who}`]),
    h("span", { class: "cw-export-meta" }, [
      count(moves, "move"),
      replay.names.length > 1 ? ` · ${count(replay.names.length, "line")} of play` : "",
      " · ", h("kbd", null, "←"), " ", h("kbd", null, "→"), " step, ", h("kbd", null, "Home"), " ", h("kbd", null, "End"), " jump",
    ]),
  ]);
  const noteHere = h("div", { class: "cw-export-note-here", role: "status", "aria-live": "polite" });
  const host = h("div", { class: "cw-export-table" });
  const notes = h("section", { class: "cw-export-notes", "aria-label": "Notes" });
  append(el, [head, noteHere, host, notes]);
  const cleanupTable = gameWidget(layout).render({ model: /** @type {any} */ (model), el: host });

  const drawNotes = () => {
    const { branch, cursor } = model.place();
    const list = replay.notes(branch);
    const here = list.find((n) => n.index === cursor - 1);
    clear(noteHere);
    noteHere.hidden = !here;
    if (here) append(noteHere, [h("span", { class: "cw-export-note-tag" }, `Note on move ${here.index + 1}`), " ", h("span", { class: "cw-export-note-text" }, here.text)]);
    clear(notes);
    notes.hidden = !list.length;
    if (list.length) {
      append(notes, [
        h("h2", { class: "cw-export-notes-title" }, "Notes on this line"),
        h("ol", { class: "cw-export-note-list" }, list.map((n) => h("li", {
          class: ["cw-export-note", n === here && "cw-export-note-current"], "data-index": n.index,
        }, [
          h("button", {
            type: "button", class: "cw-export-note-goto", "data-control": "note", "data-index": n.index,
            "aria-current": n === here ? "true" : null, title: `Show the position after move ${n.index + 1}`,
            onClick: () => model.goto(n.index + 1),
          }, `move ${n.index + 1}`),
          h("span", { class: "cw-export-note-text" }, n.text),
        ]))),
      ]);
    }
  };
  model.on("change", drawNotes);
  drawNotes();

  // Keys anywhere on the page (read before the table's own handler, which keeps them in the table).
  const target = keys ?? el.ownerDocument.defaultView ?? el;
  const onKey = (/** @type {Event} */ e) => {
    const ev = /** @type {KeyboardEvent} */ (e);
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
    const t = /** @type {HTMLElement | null} */ (ev.target instanceof HTMLElement ? ev.target : null);
    if (t && (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement
      || (t instanceof HTMLInputElement && t.type !== "range"))) return;
    const { cursor } = model.place();
    const to = { ArrowLeft: cursor - 1, ArrowRight: cursor + 1, Home: 0, End: Infinity }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    ev.stopPropagation();
    model.goto(to === Infinity ? replay.line(model.place().branch).length : to);
  };
  target.addEventListener("keydown", onKey, true);

  return {
    model, replay,
    cleanup: () => {
      model.pause();
      target.removeEventListener("keydown", onKey, true);
      model.off("change", drawNotes);
      cleanupTable();
      clear(el);
    },
  };
}

/**
 * @param {Replay} replay
 * @param {number} seat
 */
function seatName(replay, seat) {
  const names = replay.rootView?.names;
  return Array.isArray(names) && names[seat] != null ? String(names[seat]) : String.fromCharCode(65 + seat);
}

/**
 * Start the player of the page: read the data element, mount in `#cw-export`. A page that cannot
 * be drawn says why, in the page.
 * @param {Layout} layout
 */
export function boot(layout) {
  const el = document.getElementById("cw-export");
  if (!el) return;
  try {
    const text = document.getElementById(DATA_ID)?.textContent;
    if (!text) throw new Error("the page holds no game data");
    const player = mountPlayer({ layout, data: JSON.parse(text), el });
    /** @type {any} */ (window).cardwidgetsExport = { model: player.model, replay: player.replay };
    el.dataset.ready = "true";
    // drawn, and the keys work: benchmarks/export.py reads this mark (time since navigation start)
    if (typeof performance?.mark === "function") performance.mark("cardwidgets-export-ready");
  } catch (err) {
    console.error("cardwidgets export:", err);
    clear(el);
    el.classList.add("cw-export-page");
    append(el, h("pre", { class: "cw-export-error" }, `This replay cannot be shown: ${err instanceof Error ? err.message : err}`));
  }
}
