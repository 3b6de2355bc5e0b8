// The scrubber: play/pause, a range over the positions 0..history_len, first/prev/next/last,
// Undo, and the lines of play (branches), each one a button that switches to it (a line a
// seated player started in the past says that its unseen cards were dealt again).
import { h } from "./dom.js";
import { count } from "./text.js";

/**
 * @typedef {{name: string, parent: string | null, from: number, length: number, dealt_for?: number}} Branch
 */

/**
 * @typedef {Object} HistoryOptions
 * @property {number} cursor      position shown (0 = start of the game)
 * @property {number} length      number of actions along the current line
 * @property {string} [branch]    current line's name
 * @property {Branch[]} [branches] every line, the main line first
 * @property {(index: number) => void} onGoto
 * @property {() => void} onUndo
 * @property {(branch: string) => void} [onSwitch]
 * @property {number} [playing]   positions per second while the line plays forward (0: paused)
 * @property {() => void} [onPlay]
 * @property {() => void} [onPause]
 * @property {(seat: number) => string} [seatName]  how a seat is called (a re-dealt line's seat)
 */

/**
 * Render the history scrubber.
 * @param {HistoryOptions} opts
 * @returns {HTMLElement} `.cw-history`
 */
export function renderHistory({ cursor, length, branch = "main", branches = [], onGoto, onUndo, onSwitch,
  playing = 0, onPlay, onPause, seatName = (i) => String.fromCharCode(65 + i) }) {
  const len = Math.max(0, Number(length) || 0);
  const pos = Math.min(Math.max(0, Number(cursor) || 0), len);
  const label = h("span", { class: "cw-history-pos" }, posText(pos, len));
  /** @param {keyof typeof ICONS} control @param {string} title @param {number} to */
  const btn = (control, title, to) =>
    h("button", {
      type: "button", class: "cw-btn cw-btn-icon", "data-control": control, title,
      "aria-label": title, disabled: len === 0 || to === pos || to < 0 || to > len, onClick: () => onGoto(to),
    }, icon(control));
  const range = h("input", {
    type: "range", class: "cw-history-range", "data-control": "scrub", min: 0, max: len, step: 1,
    value: String(pos), disabled: len === 0, "aria-label": "Position in the history",
    // `input` only updates the label; `change` (on release) travels, so dragging
    // does not flood the kernel with goto messages.
    onInput: (/** @type {Event} */ ev) => {
      label.textContent = posText(Number(/** @type {HTMLInputElement} */ (ev.target).value), len);
    },
    onChange: (/** @type {Event} */ ev) => {
      const to = Number(/** @type {HTMLInputElement} */ (ev.target).value);
      if (to !== pos) onGoto(to);
    },
  });
  range.setAttribute("value", String(pos));
  const lines = Array.isArray(branches) ? branches.filter((b) => b && typeof b.name === "string") : [];
  // play: the line from here (from its start at its end), one position after another; pause stops it
  const play = onPlay && onPause ? h("button", {
    type: "button", class: ["cw-btn", "cw-btn-icon", "cw-play", playing > 0 && "cw-playing"],
    "data-control": playing > 0 ? "replay-pause" : "replay-play",
    title: playing > 0 ? "Pause" : pos < len ? "Play the moves from here" : "Play the game from the start",
    "aria-label": playing > 0 ? "Pause the replay" : "Play the replay", "aria-pressed": String(playing > 0),
    disabled: len === 0, onClick: () => (playing > 0 ? onPause() : onPlay()),
  }, icon(playing > 0 ? "pause" : "play")) : null;
  return h("section", { class: ["cw-history", pos < len && "cw-history-past"], "aria-label": "History" }, [
    h("div", { class: "cw-history-buttons" }, [
      play,
      btn("first", "Go to the start", 0),
      btn("prev", "Step back", pos - 1),
      range,
      btn("next", "Step forward", pos + 1),
      btn("last", "Go to the latest position", len),
    ]),
    h("div", { class: "cw-history-meta" }, [
      label,
      h("button", {
        type: "button", class: "cw-btn cw-btn-small", "data-control": "undo",
        title: "Take back the last move (and the computer's answers)", disabled: len === 0, onClick: onUndo,
      }, "↶ Undo"),
    ]),
    lines.length > 1 ? renderBranches(lines, branch, onSwitch, seatName) : null,
  ]);
}

/**
 * The lines of play as a small tree: the main line, then each branch under its parent.
 * @param {Branch[]} lines
 * @param {string} current
 * @param {((branch: string) => void) | undefined} onSwitch
 * @param {(seat: number) => string} seatName
 */
function renderBranches(lines, current, onSwitch, seatName) {
  const depth = (/** @type {Branch} */ b) => {
    let d = 0;
    for (let p = b.parent; p != null && d < 20; d++) p = lines.find((x) => x.name === p)?.parent ?? null;
    return d;
  };
  return h("div", { class: "cw-branches", role: "group", "aria-label": "Lines of play" }, [
    h("span", { class: "cw-branches-title" }, "Lines of play"),
    h("ul", { class: "cw-branch-list" }, lines.map((b, i) => {
      const here = b.name === current;
      const dealt = typeof b.dealt_for === "number" ? seatName(b.dealt_for) : null;
      return h("li", { style: { "--depth": depth(b) } }, h("button", {
        type: "button", class: ["cw-branch", here && "cw-branch-current"], "data-control": "branch",
        "data-branch": b.name, "aria-pressed": String(here),
        title: (here ? "the line shown now" : `Show this line of play (at its last move)`)
          + (dealt ? `; ${dealt} started it in the past, so the cards ${dealt} had not seen were dealt again` : ""),
        onClick: () => { if (!here && onSwitch) onSwitch(b.name); },
      }, [
        h("span", { class: "cw-branch-name" }, [branchLabel(b, i),
          dealt ? h("span", { class: "cw-branch-dealt", "data-dealt-for": String(b.dealt_for) }, "re-dealt") : null]),
        h("span", { class: "cw-branch-meta" }, b.parent == null
          ? count(b.length, "move")
          : `from move ${b.from} · ${count(b.length - b.from, "move")} of its own`),
      ]));
    })),
  ]);
}

/**
 * A line's name as a person would say it.
 * @param {Branch} b
 * @param {number} i its place in the list
 */
export function branchLabel(b, i) {
  if (b.parent == null) return "Main line";
  const m = /^branch-(\d+)$/.exec(b.name);
  return m ? `Line ${Number(m[1]) + 1}` : b.name || `Line ${i + 1}`;
}

// Drawn as SVG: the ⏮/⏭ glyphs are missing from many fonts (they showed as boxes).
const ICONS = {
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};

/** @param {keyof typeof ICONS} name */
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "12");
  svg.setAttribute("height", "12");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

/** @param {number} pos @param {number} len */
export function posText(pos, len) {
  if (len === 0) return "start of the game";
  if (pos === 0) return `start of the game (${count(len, "move")} played)`;
  return pos === len ? `move ${pos} of ${len} (latest)` : `move ${pos} of ${len}`;
}
