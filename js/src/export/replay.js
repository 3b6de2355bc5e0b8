// An exported game, read back: every line of play, each position's view and narration.
// The file holds views as patches from the position before (see cardwidgets/export.py);
// they are applied once at load, each new value sharing what did not change with the one
// before, and frozen so that no renderer can change a position another one shares.

/** The data layout this player reads (cardwidgets.export.VERSION). */
export const VERSION = 2;

/**
 * @typedef {Object} LineData  one line of play as the file holds it
 * @property {string} name
 * @property {string | null} parent
 * @property {number} from    actions shared with the parent line
 * @property {number} length  actions in all
 * @property {Record<string, string>} notes  action index -> comment
 * @property {Array<[any, number[]]>} steps  per own position: [patch, narration string indexes]
 */

/**
 * @typedef {Object} ExportData
 * @property {string} format
 * @property {number} version
 * @property {string} game
 * @property {string} title
 * @property {number | null} seat
 * @property {Record<string, {title: string, text: string}>} rules
 * @property {[Record<string, any>, number[]]} root
 * @property {LineData[]} lines
 * @property {{branch: string, cursor: number}} start
 * @property {string[]} strings
 */

/**
 * `base` with `patch` applied: `[value]` replaces, an object patches by key (or by index).
 * The result is a new value (frozen); `base` is left as it is and shares what did not change.
 * @param {any} base
 * @param {any} patch
 * @returns {any}
 */
export function applyPatch(base, patch) {
  if (Array.isArray(patch)) return deepFreeze(patch[0]);
  if (patch === null || typeof patch !== "object") throw new Error("cardwidgets export: a bad patch");
  const out = Array.isArray(base) ? [...base] : { ...base };
  for (const [key, change] of Object.entries(patch)) {
    const k = Array.isArray(out) ? Number(key) : key;
    out[/** @type {any} */ (k)] = applyPatch(out[/** @type {any} */ (k)], change);
  }
  return Object.freeze(out);
}

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The game of an exported file: its lines, and what the page shows at each position. */
export class Replay {
  /** @param {ExportData} data */
  constructor(data) {
    if (!data || data.format !== "cardwidgets-export") throw new Error("not a cardwidgets export");
    if (data.version !== VERSION) {
      throw new Error(`this page reads export version ${VERSION}, the data is version ${data.version}`);
    }
    this.data = data;
    /** @type {Map<string, LineData>} */
    this.lines = new Map(data.lines.map((l) => [l.name, l]));
    this.rootView = deepFreeze(data.root[0]);
    /** @type {Map<string, any[]>} the views of each line's own positions */
    this.views = new Map();
    for (const line of data.lines) {  // a line's parent comes before it
      let view = line.from === 0 ? this.rootView : this.view(/** @type {string} */ (line.parent), line.from);
      const own = [];
      for (const [patch] of line.steps) {
        view = applyPatch(view, patch);
        own.push(view);
      }
      this.views.set(line.name, own);
    }
  }

  /** @returns {string[]} the names of the lines, the main line first */
  get names() {
    return this.data.lines.map((l) => l.name);
  }

  /**
   * @param {string} name
   * @returns {LineData}
   */
  line(name) {
    const l = this.lines.get(name);
    if (!l) throw new Error(`no line of play called ${name}`);
    return l;
  }

  /**
   * The line whose own steps hold position `n` of line `name` (null: the start).
   * @param {string} name
   * @param {number} n
   * @returns {LineData | null}
   */
  owner(name, n) {
    /** @type {LineData | null} */
    let l = this.line(name);
    if (!(n >= 0 && n <= l.length)) throw new Error(`position ${n}: the line ${name} has positions 0..${l.length}`);
    while (l && n <= l.from) l = l.parent == null ? null : this.line(l.parent);
    return l;
  }

  /**
   * The view at position `n` of a line.
   * @param {string} name
   * @param {number} n
   */
  view(name, n) {
    const l = this.owner(name, n);
    return l ? /** @type {any[]} */ (this.views.get(l.name))[n - l.from - 1] : this.rootView;
  }

  /**
   * The narration lines shown at position `n` of a line, oldest first.
   * @param {string} name
   * @param {number} n
   * @returns {string[]}
   */
  narration(name, n) {
    /** @type {number[][]} */
    const groups = [];
    let l = this.owner(name, n);
    while (l) {
      for (let k = n - l.from - 1; k >= 0; k--) groups.push(l.steps[k][1]);
      n = l.from;
      l = l.parent == null ? null : this.owner(l.parent, n);
    }
    groups.push(this.data.root[1]);
    const s = this.data.strings;
    return groups.reverse().flatMap((g) => g.map((i) => s[i]));
  }

  /**
   * The notes along a line, in order: `{index, text}` where `index` is the action commented on
   * (the note shows at position `index + 1`).
   * @param {string} name
   * @returns {Array<{index: number, text: string}>}
   */
  notes(name) {
    // each line holds the notes of its own part: the shared part's are its parents'
    /** @type {Map<number, string>} */
    const out = new Map();
    let l = this.line(name);
    let limit = l.length;
    while (l) {
      for (const [k, text] of Object.entries(l.notes)) {
        const index = Number(k);
        if (index >= l.from && index < limit && !out.has(index)) out.set(index, String(text));
      }
      limit = l.from;
      l = l.parent == null ? null : this.line(l.parent);
    }
    return [...out].map(([index, text]) => ({ index, text })).sort((a, b) => a.index - b.index);
  }

  /** @returns {Array<{name: string, parent: string | null, from: number, length: number}>} as the scrubber lists them */
  branches() {
    return this.data.lines.map((l) => ({ name: l.name, parent: l.parent, from: l.from, length: l.length }));
  }
}
