// A read-only table model over an exported game: it offers what the live table's traits
// offer (get/on/off/send), so the game's own layout and the shared frame draw it unchanged.
// The only messages it answers are the scrubber's: goto, switch, undo (one step back), and
// play/pause, which step the line forward on a timer as the live table does in Python.
// Moves are not played here: the page has no legal moves, so nothing offers one.

/**
 * @typedef {import("./replay.js").Replay} Replay
 * @typedef {{branch: string, cursor: number}} Place
 */

/** Positions per second of a replay playing: the live table's default, and its bounds. */
export const PLAY_SPEED = 2;
const MIN_SPEED = 0.2;
const MAX_SPEED = 20;

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
    animations: opts.animations !== false, branches, playing: 0,
    ...traits(),
  };
  /** @type {any} the next step of the line playing */
  let timer = null;

  /**
   * Show another place: every trait that changed fires, then one `change` (as a Python sync does).
   * @param {Place} next
   * @param {number} [playing] the `playing` trait with it (0 unless the line plays on)
   */
  const show = (next, playing = 0) => {
    if (next.branch === at.branch && next.cursor === at.cursor && playing === state.playing) return;
    at = next;
    const fresh = { ...traits(), playing };
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
      else if (msg?.type === "play") model.play(msg.speed ?? PLAY_SPEED);
      else if (msg?.type === "pause") model.pause();
      callbacks?.iopub?.status?.({ content: { execution_state: "idle" } });
    },
    /**
     * Play the line forward, `speed` positions per second (from its start when the page is at its
     * end), until it ends, the reader moves elsewhere, or `pause`.
     * @param {number} [speed]
     */
    play: (speed = PLAY_SPEED) => {
      const rate = Number(speed);
      const length = replay.line(at.branch).length;
      if (!Number.isFinite(rate) || rate < MIN_SPEED || rate > MAX_SPEED || length === 0) return;
      stop();
      show({ branch: at.branch, cursor: at.cursor >= length ? 0 : at.cursor }, rate);
      timer = setTimeout(tick, 1000 / rate);
    },
    /** Stop the line playing; the page stays where it is. */
    pause: () => {
      stop();
      show(at);
    },
    /** @returns {Place} where the page is */
    place: () => ({ ...at }),
    /** @param {number} n a position of the current line (clamped to it) */
    goto: (n) => {
      if (!Number.isFinite(n)) return;
      stop();
      show({ branch: at.branch, cursor: Math.min(Math.max(0, Math.trunc(n)), replay.line(at.branch).length) });
    },
    /** @param {string} name a line of play, shown at its last position */
    switchTo: (name) => {
      if (!replay.lines.has(name)) return;
      stop();
      show({ branch: name, cursor: replay.line(name).length });
    },
  };

  /** One step of the line playing; the last position stops it. */
  function tick() {
    timer = null;
    const length = replay.line(at.branch).length;
    const rate = state.playing;
    if (!(rate > 0) || at.cursor >= length) return show(at);
    const next = at.cursor + 1;
    show({ branch: at.branch, cursor: next }, next < length ? rate : 0);
    if (next < length) timer = setTimeout(tick, 1000 / rate);
  }
  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }
  return model;
}
