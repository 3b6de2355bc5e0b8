// A read-only table model over an exported game: it offers what the live table's traits
// offer (get/on/off/send), so the game's own layout and the shared frame draw it unchanged.
// The only messages it answers are the scrubber's: goto, switch (and undo: one step back).
// Moves are not played here: the page has no legal moves, so nothing offers one.

/**
 * @typedef {import("./replay.js").Replay} Replay
 * @typedef {{branch: string, cursor: number}} Place
 */

/**
 * @param {Replay} replay
 * @param {{animations?: boolean}} [opts]
 */
export function replayModel(replay, opts = {}) {
  const start = replay.data.start || { branch: "main", cursor: 0 };
  /** @type {Place} */
  let at = { branch: replay.lines.has(start.branch) ? start.branch : replay.names[0], cursor: 0 };
  at.cursor = Math.min(Math.max(0, Number(start.cursor) || 0), replay.line(at.branch).length);
  /** @type {Record<string, Function[]>} */
  const handlers = {};
  const branches = replay.branches();

  /** The traits the frame reads, at the current place. */
  const traits = () => ({
    view: replay.view(at.branch, at.cursor),
    narration: replay.narration(at.branch, at.cursor),
    cursor: at.cursor,
    history_len: replay.line(at.branch).length,
    branch: at.branch,
  });
  /** @type {Record<string, any>} */
  const state = {
    game: replay.data.game, seat: replay.data.seat, rules: replay.data.rules || {},
    legal: [], refusals: {}, last_error: "", thinking: false, bot_seats: [], hold: null, bot_delay: 0,
    animations: opts.animations !== false, branches,
    ...traits(),
  };

  /** Show another place: every trait that changed fires, then one `change` (as a Python sync does). */
  const show = (/** @type {Place} */ next) => {
    if (next.branch === at.branch && next.cursor === at.cursor) return;
    at = next;
    const fresh = traits();
    const changed = Object.keys(fresh).filter((k) => state[k] !== fresh[k]);
    Object.assign(state, fresh);
    for (const k of changed) (handlers[`change:${k}`] || []).slice().forEach((h) => h());
    (handlers.change || []).slice().forEach((h) => h());
  };

  const model = {
    /** @param {string} k */
    get: (k) => state[k],
    /** @param {string} ev @param {Function} h */
    on: (ev, h) => { (handlers[ev] ||= []).push(h); },
    /** @param {string} ev @param {Function} h */
    off: (ev, h) => { handlers[ev] = (handlers[ev] || []).filter((x) => x !== h); },
    /** The page never writes a trait. */
    set: () => {},
    save_changes: () => {},
    /**
     * A message from the table: the scrubber's are answered; every other one is answered with
     * nothing (a replay plays no moves), so the table never waits for it.
     * @param {any} msg
     * @param {any} [callbacks]
     */
    send: (msg, callbacks) => {
      if (msg?.type === "goto") model.goto(Number(msg.index));
      else if (msg?.type === "switch") model.switchTo(String(msg.branch));
      else if (msg?.type === "undo") model.goto(at.cursor - 1);
      callbacks?.iopub?.status?.({ content: { execution_state: "idle" } });
    },
    /** @returns {Place} where the page is */
    place: () => ({ ...at }),
    /** @param {number} n a position of the current line (clamped to it) */
    goto: (n) => {
      if (!Number.isFinite(n)) return;
      show({ branch: at.branch, cursor: Math.min(Math.max(0, Math.trunc(n)), replay.line(at.branch).length) });
    },
    /** @param {string} name a line of play, shown at its last position */
    switchTo: (name) => {
      if (!replay.lines.has(name)) return;
      show({ branch: name, cursor: replay.line(name).length });
    },
  };
  return model;
}
