// The frame every game table shares. A game module gives a *layout* (what is drawn on
// the felt and in the player area, and how to read its notation); the frame draws the
// rest from the synced traits: header (title, chips, whose turn, who is thinking, the
// bots' pace), the banner for a position in the past, the hold panel (Continue), the
// outcome, the refusal, the legal-moves strip, the preview of the move pointed at, the
// narration, the scrubber with the lines of play (and play/pause), the lesson panel of a
// lesson table, the rule chips and their cards, the hot-seat curtain, and the keys. It sends
// only messages: act, goto, undo, switch, continue, clear_error, speed, skip, preview, play,
// pause, hint, restart, next_lesson, iam.
import { h, append, on } from "./dom.js";
import { mountTable, navigable } from "./table.js";
import { renderError } from "./error.js";
import { renderHistory, branchLabel } from "./history.js";
import { renderLog } from "./log.js";
import { withRuleIds, listWords } from "./text.js";
import { decorateRuleChips, renderRuleCard, placeRuleCard } from "./rules.js";
import { renderLesson } from "./lesson.js";

/**
 * @typedef {import("./table.js").TableContext} TableContext
 * @typedef {import("./dom.js").Child} Child
 */

/**
 * What a game module provides. Only `game`, `title`, `parse` and `felt` are required.
 * @typedef {Object} Layout
 * @property {string} game                    registry name (`data-game`)
 * @property {string} title                   shown in the header
 * @property {Child | (() => Child)} [logo]  (a function when it is an element: one per table)
 * @property {(text: string) => (Object | null)} parse  the game's notation (null: not an action)
 * @property {(f: Frame) => Child} [chips]    header chips (round, target …)
 * @property {(f: Frame) => string | null} [turnDetail]  appended to the turn text (" · card 1 of 2")
 * @property {(f: Frame) => string} [overText]  the turn text once the game is over ("Match over")
 * @property {(f: Frame) => Child} felt       the middle of the table
 * @property {(f: Frame) => PlayerParts | null} [player] the viewer's (or acting seat's) area
 * @property {(f: Frame) => OutcomeParts} [outcome]      the result table when the game is over
 * @property {(f: Frame, hold: Hold) => {title: string, body: Child}} [hold] the hold panel's content
 * @property {(action: string, f: Frame) => string} [describe] a last action in words (seat badge)
 * @property {(f: Frame) => any} [uiKey]      local UI state is reset when this (or the position) changes
 * @property {(ev: KeyboardEvent, f: Frame) => boolean} [onKey] true when the key was handled
 * @property {(f: Frame) => import("./motion.js").MotionHints} [motion] where new cards come from, where
 *   cards that left went (default: a new card comes from the seat that moved, or the deck)
 */

/**
 * @typedef {Object} PlayerParts
 * @property {Child} [head]      replaces the default head (seat name, tags, last action)
 * @property {Child} [headExtra] added to the default head
 * @property {Child} hand
 * @property {Child} [controls]  buttons and the hint line
 * @property {Child} [moves]     legal-move chips (see Frame.moveChip)
 * @property {Child} [movesExtra] text after the chips ("Pass: take …")
 */

/**
 * @typedef {Object} OutcomeParts
 * @property {string} [headline]
 * @property {string[]} columns            header cells after "Player"
 * @property {number[]} [order]            seats in row order (default 0..n-1)
 * @property {(seat: number) => Child[]} cells
 * @property {Child} [lead]               a first column per row (a place), with its header
 * @property {string} [leadTitle]
 * @property {(seat: number) => Child} [leadCell]
 * @property {string} [reason]
 * @property {Child} [extra]
 * @property {boolean} [trophy]           the star before the headline (default: someone won)
 */

/** @typedef {{kind: string, text: string}} Hold  the pause event's kind and narration; details come from the view */
/** @typedef {{seat: number, name: string}} Curtain  the seat a hot-seat table waits for ("I am <name>") */

/**
 * Everything a layout reads, computed once per redraw.
 * @typedef {Object} Frame
 * @property {TableContext} ctx
 * @property {Layout} layout
 * @property {Record<string, any>} view
 * @property {string[]} legal
 * @property {Array<Record<string, any> & {text: string}>} moves   legal actions parsed by the layout
 * @property {number} n
 * @property {(i: number | null | undefined) => string} name
 * @property {(i: number | null | undefined) => string} label    the name, with "(you)" for the viewer: "A (you)"
 * @property {(i: number | null | undefined) => boolean} you      the viewer's own seat (never in teacher view)
 * @property {boolean} teacher        no seat in the view: every seat is drawn alike (the teacher, or nobody)
 * @property {boolean} spectator      a hot-seat table between two people: the view of nobody, no hand, no moves
 * @property {boolean} hotseat        people share this screen (the `hotseat` trait)
 * @property {Curtain | null} curtain  the person the hot-seat table waits for
 * @property {boolean} finished
 * @property {number | null} current
 * @property {number | null} actor    whose hand the controls act for (teacher view: the seat to act)
 * @property {Set<number>} bots
 * @property {boolean} thinking       a bot's move is scheduled now
 * @property {boolean} botTurn        the seat to act is played by the computer
 * @property {boolean} canAct         the viewer may send a move now
 * @property {number} cursor
 * @property {number} historyLen
 * @property {boolean} past           looking at an earlier position
 * @property {number} playing         positions per second while the line plays forward (0: it does not)
 * @property {Hold | null} hold
 * @property {Record<string, string>} refusals
 * @property {Record<string, any>} local  UI state of this position (selection, steps); reset on a new one
 * @property {(action: string) => boolean} act   false: not sent (a move is still on its way)
 * @property {(msg: import("./table.js").Message) => boolean} send
 * @property {() => void} redraw
 */

/**
 * The anywidget module of a game: `export default gameWidget(layout)`.
 * @param {Layout} layout
 * @returns {{render: (args: {model: import("./table.js").Model, el: HTMLElement}) => () => void}}
 */
export function gameWidget(layout) {
  return {
    render({ model, el }) {
      return mountTable({
        model, el, game: layout.game,
        draw: (ctx) => drawFrame(ctx, layout),
        onKey: (ev, ctx) => frameKey(ev, ctx, layout),
        motion: (ctx) => frameMotion(ctx, layout),
        afterDraw: (ctx) => placeRuleCard(ctx.root),
      });
    },
  };
}

/** @param {any} x @returns {any[]} */
const arr = (x) => (Array.isArray(x) ? x : []);

/**
 * Read the traits into a Frame.
 * @param {TableContext} ctx
 * @param {Layout} layout
 * @returns {Frame}
 */
export function makeFrame(ctx, layout) {
  const view = ctx.get("view") || {};
  const legal = arr(ctx.get("legal")).map(String);
  const names = arr(view.names);
  const name = (/** @type {number | null | undefined} */ i) => (i == null ? "" : names[i] ?? `Seat ${i + 1}`);
  const teacher = view.seat == null;
  const hotseat = !!ctx.get("hotseat");
  // A hot-seat table with nobody seated shows the view of nobody: seats are drawn as in the
  // teacher view, all hands face down, and there is no hand to play from.
  const spectator = teacher && hotseat;
  const rawCurtain = ctx.get("curtain");
  const curtain = rawCurtain && typeof rawCurtain === "object" && Number.isInteger(rawCurtain.seat)
    ? /** @type {Curtain} */ ({ seat: rawCurtain.seat, name: String(rawCurtain.name ?? name(rawCurtain.seat)) }) : null;
  const current = view.current ?? null;
  const finished = !!view.outcome || current == null;
  const bots = new Set(arr(ctx.get("bot_seats")).map(Number));
  const thinking = !!ctx.get("thinking") && !finished;
  const cursor = Number(ctx.get("cursor") ?? 0);
  const historyLen = Number(ctx.get("history_len") ?? 0);
  const past = cursor < historyLen;
  const playing = Math.max(0, Number(ctx.get("playing")) || 0);
  const rawHold = ctx.get("hold");
  const hold = rawHold && typeof rawHold === "object" && rawHold.kind ? /** @type {Hold} */ (rawHold) : null;
  const botTurn = !finished && current != null && (thinking || bots.has(current));
  const refusals = ctx.get("refusals") && typeof ctx.get("refusals") === "object" ? ctx.get("refusals") : {};
  const moves = [];
  for (const a of legal) {
    const p = layout.parse(a);
    if (p) moves.push({ ...p, text: a });
  }
  const you = (/** @type {number | null | undefined} */ i) => !teacher && i != null && i === view.seat;
  /** @type {Frame} */
  const f = {
    ctx, layout, view, legal, moves, n: Number(view.players) || names.length,
    name, you, label: (i) => (you(i) && name(i).toLowerCase() !== "you" ? `${name(i)} (you)` : name(i)),
    teacher, spectator, hotseat, curtain, finished, current,
    actor: spectator ? null : teacher ? (finished ? null : current) : view.seat,
    bots, thinking, botTurn, canAct: !finished && !botTurn && legal.length > 0,
    cursor, historyLen, past, playing, hold, refusals,
    local: {},
    act: (action) => ctx.act(action),
    send: (msg) => ctx.send(msg),
    redraw: () => ctx.redraw(),
  };
  // Local UI state belongs to one position: a new position (or legal list) resets it.
  const key = JSON.stringify([cursor, historyLen, ctx.get("branch"), current, view.seat, legal,
    layout.uiKey ? layout.uiKey(f) : null]);
  if (ctx.ui.key !== key) {
    ctx.ui.key = key;
    ctx.ui.local = {};
  }
  f.local = ctx.ui.local;
  return f;
}

/**
 * Draw the whole table: the frame around the layout's parts.
 * @param {TableContext} ctx
 * @param {Layout} layout
 */
export function drawFrame(ctx, layout) {
  const f = makeFrame(ctx, layout);
  const { root } = ctx;
  const overlay = !f.past && f.hold && !f.finished ? renderHold(f, f.hold)
    : f.curtain ? renderCurtain(f, f.curtain)
      : f.finished && layout.outcome && !f.local.hideOutcome ? renderOutcome(f, layout.outcome(f)) : null;
  const player = layout.player && !f.spectator ? layout.player(f) : null;
  const main = h("div", { class: "cw-main" }, [
    // the felt and a panel laid over it share one grid cell: the felt is as tall as the larger
    h("div", { class: ["cw-felt", overlay && "cw-felt-covered"] }, [h("div", { class: "cw-felt-content" }, layout.felt(f)), overlay]),
    player ? renderPlayer(f, player) : null,
    // under the player's own area: a refusal covers nothing on the table
    h("div", { class: "cw-error-slot" }, renderError(ctx.error(), () => ctx.dismissError())),
  ]);
  const side = h("aside", { class: "cw-side" }, [
    renderLog(ctx.get("narration"), {
      open: !!ctx.ui.logOpen,
      more: !!ctx.get("narration_more"),
      // the table sends the newest lines; opened, it asks Python for (nearly) all of them
      onToggle: () => {
        ctx.ui.logOpen = !ctx.ui.logOpen;
        ctx.send({ type: "narration", all: ctx.ui.logOpen });
        ctx.redraw();
      },
    }),
    renderHistory({
      cursor: f.cursor, length: f.historyLen, branch: ctx.get("branch") || "main", branches: arr(ctx.get("branches")),
      onGoto: (index) => f.send({ type: "goto", index }),
      onUndo: () => f.send({ type: "undo" }),
      onSwitch: (branch) => f.send({ type: "switch", branch }),
      playing: f.playing,
      onPlay: () => f.send({ type: "play" }),
      onPause: () => f.send({ type: "pause" }),
      seatName: f.name,
    }),
  ]);
  root.classList.toggle("cw-bot-turn", f.botTurn);
  root.classList.toggle("cw-in-past", f.past);
  const lesson = ctx.get("lesson");
  append(root, [renderHeader(f), lesson && typeof lesson === "object" ? renderLesson(f, lesson) : null,
    f.past ? renderPastBanner(f) : null, h("div", { class: "cw-body" }, [main, side])]);
  const rules = ctx.get("rules") || {};
  // A rule card belongs to the position it was opened at: a move closes it.
  const at = JSON.stringify([f.cursor, f.historyLen, ctx.get("branch")]);
  if (ctx.ui.rule && ctx.ui.rule.at !== at) ctx.ui.rule = null;
  if (ctx.ui.rule) {
    const card = renderRuleCard(ctx.ui.rule.id, rules, () => { ctx.ui.rule = null; ctx.redraw(); });
    if (card) {
      card.dataset.anchor = String(ctx.ui.rule.chip);
      append(root, card);
    } else ctx.ui.rule = null;
  }
  decorateRuleChips(root, rules);
  // A chip's name: its place within its narration line (lines keep their number as the game goes
  // on), else among the chips outside the narration. Numbered across the whole table, every line
  // changed name when a chip came or went above it, and the whole narration was patched at every move.
  /** @type {Map<Element | null, number>} */
  const counts = new Map();
  for (const chip of root.querySelectorAll(".cw-rule[data-rule]:not(.cw-rule-unknown)")) {
    const line = chip.closest("[data-line]");
    const n = counts.get(line) ?? 0;
    counts.set(line, n + 1);
    const k = line ? `${line.getAttribute("data-line")}.${n}` : String(n);
    chip.setAttribute("data-chip", k);
    chip.setAttribute("aria-expanded", String(ctx.ui.rule?.chip === k));
    on(chip, "click", (ev) => {
      ev.stopPropagation();
      const id = chip.getAttribute("data-rule");
      ctx.ui.rule = ctx.ui.rule?.chip === k ? null : { id, chip: k, at };
      ctx.redraw();
    });
  }
}

/**
 * Keys: the arrows move among the cards and moves that can be played, Enter (a control's own)
 * plays, Escape closes the rule card, then leaves the layout's step, then hides a refusal.
 * @param {KeyboardEvent} ev
 * @param {TableContext} ctx
 * @param {Layout} layout
 */
function frameKey(ev, ctx, layout) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const view = ctx.get("view");
  const ready = !!view && typeof view === "object" && !!view.players;
  if (ev.key === "Escape" && ctx.ui.rule) {
    const chip = /** @type {HTMLElement | null} */ (ctx.root.querySelector(`.cw-rule[data-chip="${ctx.ui.rule.chip}"]`));
    ctx.ui.rule = null;
    ev.preventDefault();
    ctx.redraw();
    /** @type {HTMLElement | null} */ (ctx.root.querySelector(`.cw-rule[data-chip="${chip?.dataset.chip}"]`))?.focus({ preventScroll: true });
    return;
  }
  if (ready && layout.onKey && layout.onKey(ev, makeFrame(ctx, layout))) {
    ev.preventDefault();
    ctx.redraw();
    return;
  }
  if (ev.key === "Escape" && ctx.error()) {
    ev.preventDefault();
    ctx.dismissError();
    return;
  }
  if (!ready || !/^Arrow(Left|Right|Up|Down)$/.test(ev.key) || (ev.target instanceof HTMLInputElement) || (ev.target instanceof HTMLSelectElement)) return;
  const list = navigable(ctx.root);
  if (!list.length) return;
  ev.preventDefault();
  const now = list.indexOf(/** @type {HTMLElement} */ (ctx.root.ownerDocument.activeElement));
  const forward = ev.key === "ArrowRight" || ev.key === "ArrowDown";
  let next;
  if (now < 0) {
    // from the table itself: the first card that can be played (or the last control, going back)
    next = forward ? list.find((el) => el.classList.contains("cw-playable")) ?? list[0] : list[list.length - 1];
  } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    next = list[(now + (forward ? 1 : list.length - 1)) % list.length];
  } else {
    // up and down: to the first control of the row above or below (hand, buttons, legal moves …)
    const row = (/** @type {Element} */ el) => el.closest(".cw-hand, .cw-controls, .cw-legal, .cw-overlay, .cw-felt, .cw-player, .cw-error-slot");
    const here = row(list[now]);
    const rows = [...new Set(list.map(row))];
    const k = rows.indexOf(here);
    const target = rows[(k + (forward ? 1 : rows.length - 1)) % rows.length];
    next = list.find((el) => row(el) === target) ?? list[now];
  }
  next.focus({ preventScroll: false });
}

/**
 * Where cards come from: the layout's hints, else a new card on the table comes from the seat
 * that moved, a card dealt to the viewer from the deck (or the middle of the felt).
 * @param {TableContext} ctx
 * @param {Layout} layout
 * @returns {import("./motion.js").MotionHints}
 */
function frameMotion(ctx, layout) {
  const f = makeFrame(ctx, layout);
  const own = layout.motion ? layout.motion(f) : {};
  const root = ctx.root;
  const seat = f.view.last_action?.seat;
  return {
    enterFrom: (el) => {
      const mine = own.enterFrom ? own.enterFrom(el) : null;
      if (mine) return mine;
      if (el.closest(".cw-player .cw-hand")) return root.querySelector("[data-deck-anchor]") ?? root.querySelector(".cw-felt-content");
      if (el.closest("[data-motion-from=deck]")) return root.querySelector("[data-deck-anchor]");
      if (seat == null || el.closest(`[data-seat="${seat}"]`)) return null;
      return root.querySelector(`.cw-felt [data-seat="${seat}"]`) ?? (f.actor === seat ? root.querySelector(".cw-player .cw-hand") : null);
    },
    exitTo: own.exitTo,
  };
}

// ------------------------------------------------------------------ header

/** @param {Frame} f */
export function turnText(f) {
  const who = f.name(f.current);
  if (f.finished) return !f.view.outcome ? "No one to play" : f.layout.overText ? f.layout.overText(f) : "Game over";
  if (f.hold && !f.past) return "Paused";
  if (f.thinking) return `${who} is thinking`;
  if (f.botTurn) return f.past ? `${who} (computer) plays here` : `${who} (computer) plays next`;
  if (f.you(f.current)) return "Your turn";
  return `${who} to play`;
}

/** @param {Frame} f */
function renderHeader(f) {
  const state = f.finished ? "over" : f.hold && !f.past ? "hold" : f.thinking ? "thinking" : f.botTurn ? "bot"
    : f.you(f.current) ? "you" : "other";
  const detail = !f.finished && f.layout.turnDetail ? f.layout.turnDetail(f) : null;
  return h("header", { class: "cw-header" }, [
    h("div", { class: "cw-title" }, [f.layout.logo ? h("span", { class: "cw-logo", "aria-hidden": "true" }, typeof f.layout.logo === "function" ? f.layout.logo() : f.layout.logo) : null, f.layout.title]),
    h("div", { class: "cw-chips" }, [
      f.layout.chips ? f.layout.chips(f) : null,
      f.teacher && !f.spectator ? h("span", { class: "cw-chip cw-chip-teacher", title: "every hand is shown; you act for the player to move" }, "Teacher view") : null,
      f.hotseat ? h("span", { class: "cw-chip cw-chip-hotseat", title: "people share this screen: a curtain hides every hand between two people's turns" }, "Hot seat") : null,
      f.finished && f.local.hideOutcome
        ? h("button", { type: "button", class: "cw-chip cw-chip-button", "data-control": "show-outcome",
          onClick: () => { f.local.hideOutcome = false; f.redraw(); } }, "Show the result") : null,
    ]),
    botControls(f),
    h("div", { class: ["cw-turn", `cw-turn-${state}`], "data-turn": state, role: "status" }, [
      turnText(f),
      detail ? h("span", { class: "cw-turn-detail" }, detail) : null,
      f.thinking ? dots() : null,
    ]),
  ]);
}

/** The paces the speed control offers (seconds between bot moves). */
export const SPEEDS = /** @type {Array<[number, string]>} */ ([[1.5, "Slow"], [0.7, "Normal"], [0.3, "Fast"], [0, "Instant"]]);

/**
 * How fast the computer players move, and "Skip to my turn" while they play.
 * @param {Frame} f
 */
function botControls(f) {
  if (!f.bots.size || f.finished) return null;
  const delay = Number(f.ctx.get("bot_delay") ?? 0.7);
  const known = SPEEDS.some(([d]) => Math.abs(d - delay) < 1e-6);
  const options = known ? SPEEDS : [...SPEEDS, /** @type {[number, string]} */ ([delay, `${delay} s`])];
  const select = /** @type {HTMLSelectElement} */ (h("select", {
    class: "cw-speed", "data-control": "bot-speed", "aria-label": "How fast the computer players move",
    title: `the computer players wait ${delay} s before each move`,
    onChange: (/** @type {Event} */ ev) => f.send({ type: "speed", delay: Number(/** @type {HTMLSelectElement} */ (ev.target).value) }),
  }, options.map(([d, word]) => h("option", { value: String(d) }, word))));
  select.value = String(options.find(([d]) => Math.abs(d - delay) < 1e-6)?.[0] ?? delay);
  return h("div", { class: "cw-bots" }, [
    h("label", { class: "cw-bots-label" }, [h("span", { class: "cw-bots-word" }, "Bots"), select]),
    f.botTurn && !f.past && !f.hold
      ? h("button", {
        type: "button", class: "cw-btn cw-btn-small cw-skip", "data-control": "skip",
        title: "the computer players move at once, up to your turn (a round's end still waits for you)",
        "aria-label": "Skip to my turn: the computer players move at once", onClick: () => f.send({ type: "skip" }),
      }, "Skip to my turn ▸▸")
      : null,
  ]);
}

/** A small "rewind" icon, drawn (the ⏪ glyph is missing from many fonts). */
function rewindIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M8 3v10L1 8zM15 3v10L8 8z");
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

/** @returns {HTMLElement} three blinking dots */
export function dots() {
  return h("span", { class: "cw-dots", "aria-hidden": "true" }, [h("i"), h("i"), h("i")]);
}

// ------------------------------------------------------------------ banners and panels

/** @param {Frame} f */
function renderPastBanner(f) {
  const branches = arr(f.ctx.get("branches"));
  const line = branches.length > 1
    ? ` on the ${branchLabel(branches.find((b) => b.name === f.ctx.get("branch")) || { name: "", parent: null, from: 0, length: 0 }, 0).replace(/^Main line$/, "main line")}`
    : "";
  const who = f.name(f.current);
  let next = "";
  if (f.playing) next = "";
  else if (f.finished) next = "";
  else if (f.canAct) next = f.teacher ? "Playing a move here starts a new line of play; the moves after it are kept."
    : "Playing a move here starts a new line of play, where the cards you have not seen are dealt again; the moves after it are kept.";
  else if (f.botTurn) next = `${who} is played by the computer, which waits while you look back.`;
  else if (f.current != null) next = `It is ${who}'s move here.`;
  const head = f.playing ? `Playing the line: move ${f.cursor} of ${f.historyLen}${line}.`
    : `Paused in the past: move ${f.cursor} of ${f.historyLen}${line}.`;
  return h("div", { class: ["cw-past", f.playing && "cw-past-playing"], role: "status" }, [
    h("span", { class: "cw-past-icon", "aria-hidden": "true" }, rewindIcon()),
    h("span", { class: "cw-past-text" }, [h("b", null, head), next ? ` ${next}` : ""]),
    f.playing ? h("button", {
      type: "button", class: "cw-btn cw-btn-small", "data-control": "replay-pause",
      onClick: () => f.send({ type: "pause" }),
    }, "Pause") : null,
    h("button", {
      type: "button", class: "cw-btn cw-btn-small", "data-control": "latest",
      onClick: () => f.send({ type: "goto", index: f.historyLen }),
    }, "Back to the latest move"),
  ]);
}

/**
 * The hold panel: a game's or round's end the bots wait on.
 * @param {Frame} f
 * @param {Hold} hold
 */
function renderHold(f, hold) {
  const content = f.layout.hold ? f.layout.hold(f, hold) : { title: "Paused", body: h("p", null, withRuleIds(hold.text)) };
  return h("section", { class: "cw-overlay cw-hold", "data-kind": hold.kind, role: "dialog", "aria-label": content.title }, [
    h("div", { class: "cw-overlay-head" }, content.title),
    content.body,
    h("div", { class: "cw-overlay-actions" }, [
      h("button", {
        type: "button", class: "cw-btn cw-btn-primary", "data-control": "continue",
        onClick: () => f.send({ type: "continue" }),
      }, "Continue"),
      h("span", { class: "cw-hint" }, f.bots.size ? "The computer players wait until you continue." : ""),
    ]),
  ]);
}

/**
 * The hot-seat curtain: every hand is hidden until the person to play says who they are.
 * @param {Frame} f
 * @param {Curtain} c
 */
function renderCurtain(f, c) {
  return h("section", { class: "cw-overlay cw-curtain", "data-seat": c.seat, role: "dialog", "aria-label": `${c.name}'s turn` }, [
    h("div", { class: "cw-overlay-head" }, [h("span", { class: "cw-curtain-mark", "aria-hidden": "true" }, "⇄"), `${c.name}'s turn`]),
    h("p", null, `Every hand is hidden. Pass the screen to ${c.name}; the cards show when ${c.name} says so.`),
    h("div", { class: "cw-overlay-actions" }, [
      h("button", {
        type: "button", class: "cw-btn cw-btn-primary", "data-control": "iam", "data-seat": c.seat,
        onClick: () => f.send({ type: "iam", seat: c.seat }),
      }, `I am ${c.name}`),
    ]),
  ]);
}

/**
 * The default headline of a result.
 * @param {Frame} f
 * @param {number[]} winners
 * @param {string} [what] "the match" …
 */
export function headline(f, winners, what = "") {
  const tail = what ? ` ${what}` : "";
  if (!winners.length) return "No winner";
  const mark = winners.some((w) => f.you(w)) ? "!" : "";
  if (winners.length > 1) return `${listWords(winners.map(f.label), "and")} share the win${tail}${mark}`;
  return `${f.label(winners[0])} wins${tail}${mark}`;
}

/**
 * The result table, over the felt (it can be hidden to look at the table).
 * @param {Frame} f
 * @param {OutcomeParts} o
 */
function renderOutcome(f, o) {
  const winners = arr(f.view.outcome?.winners);
  const order = o.order ?? [...Array(f.n).keys()];
  const trophy = o.trophy ?? winners.length > 0;
  return h("section", { class: "cw-overlay cw-outcome", role: "status" }, [
    h("div", { class: "cw-overlay-head" }, [
      trophy ? h("span", { class: "cw-trophy", "aria-hidden": "true" }, "★") : null, o.headline ?? headline(f, winners),
      h("button", {
        type: "button", class: "cw-overlay-close", "data-control": "hide-outcome", title: "Hide the result to look at the table",
        "aria-label": "Hide the result", onClick: () => { f.local.hideOutcome = true; f.redraw(); },
      }, "×"),
    ]),
    h("table", { class: "cw-scores" }, [
      h("thead", null, h("tr", null, [
        o.leadCell ? h("th", null, o.leadTitle ?? "") : null,
        h("th", null, "Player"), ...o.columns.map((c) => h("th", null, c))])),
      h("tbody", null, order.map((s) =>
        h("tr", { class: trophy && winners.includes(s) && "cw-winner-row", "data-seat": s }, [
          o.leadCell ? h("td", { class: "cw-place" }, o.leadCell(s)) : null,
          h("td", { class: "cw-player-cell" }, f.label(s)),
          ...o.cells(s).map((c) => h("td", null, c)),
        ]))),
    ]),
    o.extra ?? null,
    o.reason ? h("p", { class: "cw-reason" }, withRuleIds(o.reason)) : null,
  ]);
}

// ------------------------------------------------------------------ seats

/**
 * A seat's head: avatar, name, "you"/"bot" tags and the thinking dots.
 * @param {Frame} f
 * @param {number} i
 * @param {Child} [extra]
 */
export function seatHead(f, i, extra = null) {
  const thinkingHere = f.thinking && f.current === i;
  return h("div", { class: "cw-seat-head" }, [
    h("span", { class: "cw-avatar", "data-seat-tone": i % 5, "aria-hidden": "true" }, (f.name(i)[0] || "?").toUpperCase()),
    h("span", { class: "cw-seat-name", title: f.name(i) }, f.name(i)),
    f.you(i) ? h("span", { class: "cw-you-mark", title: "your seat" }, "(you)") : null,
    f.bots.has(i) ? h("span", { class: "cw-tag cw-tag-bot", title: "played by the computer" }, "bot") : null,
    extra,
    thinkingHere ? h("span", { class: "cw-thinking", role: "img", title: `${f.name(i)} is thinking`, "aria-label": `${f.name(i)} is thinking` }, dots()) : null,
  ]);
}

/**
 * The last-move badge of a seat (from `view.last_action`, which the engine clears at a new round).
 * @param {Frame} f
 * @param {number} i
 */
export function lastMoveBadge(f, i) {
  const last = f.view.last_action;
  if (!last || last.seat !== i || f.finished) return null;
  const text = f.layout.describe ? f.layout.describe(String(last.action), f) : String(last.action);
  // the whole text first: a narrow seat cuts the bubble with "…"
  return h("div", { class: "cw-bubble", title: `${text} — the last move (${last.action})` }, text);
}

/**
 * Seat classes the frame knows: the player to act, the winners, the viewer.
 * @param {Frame} f
 * @param {number} i
 * @param {Array<string | false | null | undefined>} [more]
 */
export function seatClass(f, i, more = []) {
  return ["cw-seat", ...more, f.current === i && !f.finished && "cw-current",
    arr(f.view.outcome?.winners).includes(i) && "cw-winner", f.you(i) && "cw-you",
    f.bots.has(i) && "cw-bot", f.thinking && f.current === i && "cw-seat-thinking"];
}

/**
 * The viewer's opponents in playing order after the viewer (all seats in teacher view).
 * @param {Frame} f
 * @returns {number[]}
 */
export function othersInOrder(f) {
  const out = [];
  for (let k = 0; k < f.n; k++) {
    const i = f.teacher ? k : (Number(f.view.seat) + 1 + k) % f.n;
    if (!f.teacher && i === f.view.seat) continue;
    out.push(i);
  }
  return out;
}

// ------------------------------------------------------------------ the player area

/**
 * What the legal-moves strip says when there is nothing to choose.
 * @param {Frame} f
 */
export function waitText(f) {
  const who = f.name(f.current);
  if (f.finished) return "none: the game is over";
  if (f.hold && !f.past) return "none until you press Continue";
  if (f.thinking) return `none: ${who} is thinking`;
  if (f.botTurn) return f.past ? `none here: ${who} (computer) would play` : `none: ${who} (computer) plays next`;
  if (f.teacher || f.you(f.current)) return "none";
  return `none: it is ${who}'s turn`;
}

/**
 * A legal-move chip: disabled when the viewer may not act. A chip that sends its move carries
 * `data-action`; one that only selects it (`select: true`: the player confirms with another
 * control) carries `data-control="select-move"` and the move in `data-move`.
 * @param {Frame} f
 * @param {{action: string, content: Child, title?: string, label?: string, selected?: boolean, select?: boolean,
 *   onClick: () => void, control?: string}} o
 */
export function moveChip(f, o) {
  const chip = h("button", {
    type: "button", class: ["cw-move", o.selected && "cw-move-selected"],
    "data-action": o.select ? null : o.action, "data-move": o.select ? o.action : null,
    "data-control": o.select ? "select-move" : o.control ?? null, "aria-pressed": o.selected == null ? null : String(!!o.selected),
    title: o.title ?? o.action, "aria-label": o.label ?? null, disabled: !f.canAct, onClick: o.onClick,
  }, o.content);
  // Named by the text it shows (WCAG 2.5.3, label in name), its longer words being the title (the
  // accessible description); by those words only when it shows icons alone.
  if (!o.label && !shownText(chip)) chip.setAttribute("aria-label", o.title ?? o.action);
  return chip;
}

/** @param {HTMLElement} el @returns {string} the text of `el` that is not aria-hidden */
function shownText(el) {
  const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
  for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
  return copy.textContent?.trim() ?? "";
}

/**
 * @param {Frame} f
 * @param {PlayerParts} p
 */
function renderPlayer(f, p) {
  const actor = f.actor;
  const head = p.head ?? h("div", { class: "cw-player-head" }, [
    actor != null ? seatHead(f, actor) : null,
    f.teacher && actor != null ? h("span", { class: "cw-muted" }, `acting for ${f.name(actor)}`) : null,
    p.headExtra ?? null,
    actor != null ? lastMoveBadge(f, actor) : null,
  ]);
  const chips = arr(p.moves);
  return h("section", {
    class: ["cw-player", f.canAct && "cw-player-active", f.botTurn && "cw-player-waiting"],
    "data-seat": actor ?? null, "aria-label": f.teacher ? "Hand of the player to move" : "Your hand",
  }, [
    head,
    p.hand,
    f.finished ? null : h("div", { class: "cw-controls" }, p.controls ?? null),
    f.finished ? null : h("div", { class: "cw-legal", role: "group", "aria-label": "Legal moves" }, [
      h("span", { class: "cw-legal-title" }, "Legal moves"),
      chips.length || p.movesExtra ? [...chips, p.movesExtra ?? null] : h("span", { class: "cw-legal-none cw-muted" }, waitText(f)),
    ]),
    // what the move pointed at would do (filled by preview.js from Python's answer): under the
    // moves, so it covers nothing on the table and moves no control that could be pointed at
    f.finished ? null : h("div", { class: "cw-preview-slot", "aria-live": "polite" }),
  ]);
}
