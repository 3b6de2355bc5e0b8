// cirno+neu table: the layout drawn inside the shared frame (lib/frame.js). Holds no
// rules: a card is playable only because a `play <card>` string for it is in `legal`,
// and Python validates and explains everything the player sends.
import "../lib/table.css";
import "./cirno_neu.css";
import { h, svgIcon } from "../lib/dom.js";
import { renderCard, renderBacks } from "../lib/cards.js";
import { withRuleIds, listWords, count, ordinal } from "../lib/text.js";
import { gameWidget, seatHead, seatClass, lastMoveBadge, moveChip, headline } from "../lib/frame.js";

export const GAME = "cirno_neu";

/**
 * The cirno+neu view as Python sends it (`CirnoNeuState.view(seat)`).
 * @typedef {Object} CirnoView
 * @property {"cirno_neu"} game
 * @property {number} players
 * @property {string[]} names
 * @property {number | null} seat            viewing seat; null = teacher view
 * @property {string} phase                  "play", or the phase of a finished match
 * @property {number | null} current         seat to act; null when the match is over
 * @property {number} round
 * @property {number} turn_no
 * @property {number} sum
 * @property {number} limit
 * @property {1 | -1} direction              +1 clockwise, -1 counter-clockwise
 * @property {boolean} clockwise
 * @property {number} dealer
 * @property {string[]} stack_top            the last ≤5 cards of the main stack, newest last
 * @property {number} stack_size
 * @property {number} draw_count
 * @property {{actor: number, anchor: number, kind: "normal" | "shot", required: number, played: number,
 *   shot_target: number | null, double_next: boolean}} turn
 * @property {{shot_target: number | null, double_next: boolean}} pending
 * @property {Array<string[] | null>} hands  card tokens for the seats the viewer may see
 * @property {number[]} hand_counts
 * @property {boolean} life_system
 * @property {number[] | null} chips
 * @property {boolean[]} active
 * @property {number[]} eliminated          seats in the order they went out
 * @property {{seat: number, action: string} | null} last_action
 * @property {{seat: number, sum: number, hand: string[], card: string | null, forced: boolean, round: number} | null} revealed
 * @property {{winners: number[], scores: number[], reason: string} | null} outcome
 * @property {string[]} [stack]              teacher view only
 * @property {string[]} [draw_pile]          teacher view only
 */

/**
 * A parsed cirno+neu play, for display and for building the UI from `legal` only.
 * @typedef {{card: string, target: number | null, text: string}} ParsedPlay
 */

/**
 * The lower-case notation token of a card (`"PASS"` → `"pass"`, `"⑨"` → `"9"`).
 * @param {string | number} token a card token as the engine writes it
 * @returns {string}
 */
export function actionToken(token) {
  const t = String(token).trim().toLowerCase();
  if (t === "⑨" || t === "+9") return "9";
  if (t === "doubleshot" || t === "double-shot" || t === "double shot") return "dshot";
  return t;
}

/**
 * Read one play in canonical notation (notation, not rules).
 * @param {string} text e.g. "play 7", "play -10", "play shot @2"
 * @returns {ParsedPlay | null} null when the text is not a single canonical play
 */
export function parseAction(text) {
  const m = /^\s*play\s+([^\s@,]+)\s*(?:@\s*(\d+))?\s*$/i.exec(String(text));
  if (!m) return null;
  return { card: actionToken(m[1]), target: m[2] === undefined ? null : Number(m[2]), text: String(text) };
}

/**
 * Canonical notation for playing a card.
 * @param {string | number} token
 * @param {number | null} [target]
 * @returns {string} "play 7", "play pass", "play shot @2"
 */
export function playNotation(token, target = null) {
  const s = `play ${actionToken(token)}`;
  return target == null ? s : `${s} @${target}`;
}

// ---------------------------------------------------------------- card faces

/** Cards that need a target: clicking them starts the targeting step. */
const AIMED = new Set(["shot", "dshot"]);

/**
 * @typedef {Object} Face
 * @property {"plus" | "minus" | "set" | "order"} kind
 * @property {string} tone      data-tone (styled in cirno_neu.css)
 * @property {string} short     compact text (corners, legal-move pips, narration-like labels)
 * @property {string} name      the card's name in words
 * @property {string} rule      the rule ID of its effect
 * @property {string} tip       tooltip
 */

/**
 * How a card looks: its tone, labels and tooltip. Display only.
 * @param {string | number} token
 * @returns {Face}
 */
export function cardFace(token) {
  const t = actionToken(token);
  if (/^\d+$/.test(t)) {
    const v = Number(t);
    if (v === 99) return { kind: "set", tone: "gold", short: "99", name: "99", rule: "N3.3", tip: "99: the sum becomes 99 (rule N3.3)" };
    if (v === 9) return { kind: "plus", tone: "cirno", short: "+9", name: "⑨", rule: "N3.1", tip: "⑨ — Cirno's nine: +9 (rule N3.1)" };
    const tone = v <= 4 ? "plus-lo" : v <= 8 ? "plus-mid" : v <= 10 ? "plus-hi" : "plus-max";
    return { kind: "plus", tone, short: `+${v}`, name: String(v), rule: "N3.1", tip: `+${v}: adds ${v} to the sum (rule N3.1)` };
  }
  if (/^-\d+$/.test(t)) {
    const v = Number(t.slice(1));
    return { kind: "minus", tone: "minus", short: `−${v}`, name: `−${v}`, rule: "N3.2", tip: `−${v}: takes ${v} off the sum (rule N3.2)` };
  }
  const order = ORDER[t];
  if (order) return { kind: "order", ...order };
  return { kind: "order", tone: "pass", short: String(token), name: String(token), rule: "", tip: String(token) };
}

/** @type {Record<string, {tone: string, short: string, name: string, rule: string, tip: string}>} */
const ORDER = {
  pass: { tone: "pass", short: "PASS", name: "PASS", rule: "N3.4", tip: "PASS: the sum stays the same (rule N3.4)" },
  turn: { tone: "turn", short: "TURN", name: "TURN", rule: "N3.5", tip: "TURN ↺: reverses the direction of play (rule N3.5)" },
  shot: { tone: "shot", short: "SHOT", name: "SHOT", rule: "N3.6", tip: "SHOT ◎: choose who plays next (rule N3.6)" },
  double: { tone: "double", short: "×2", name: "DOUBLE", rule: "N3.7", tip: "DOUBLE ×2: the next turn plays 2 cards (rule N3.7)" },
  dshot: { tone: "dshot", short: "◎×2", name: "DOUBLE SHOT", rule: "N3.8", tip: "DOUBLE SHOT: choose who plays next, and they play 2 cards (rule N3.8)" },
};

// Small inline SVG icons (no fonts or assets needed). 24×24, drawn with currentColor.
const ICONS = {
  turn: '<path d="M3.5 8.5A9 9 0 1 1 3.2 14" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/><path d="M1.2 3.4 3.4 9.6 9.6 7.6z" fill="currentColor"/>',
  cw: '<path d="M20.5 8.5A9 9 0 1 0 20.8 14" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/><path d="M22.8 3.4 20.6 9.6 14.4 7.6z" fill="currentColor"/>',
  shot: '<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2.2"/><circle cx="12" cy="12" r="4.6" fill="none" stroke="currentColor" stroke-width="2.2"/><circle cx="12" cy="12" r="1.7" fill="currentColor"/>',
  pass: '<path d="M4 5.5 10.5 12 4 18.5M12 5.5 18.5 12 12 18.5" fill="none" stroke="currentColor" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>',
  arrow: '<path d="M5 4.5 19 12 5 19.5 8.5 12z" fill="currentColor"/>',
};

/**
 * An inline icon.
 * @param {keyof typeof ICONS} name
 * @param {string} [cls]
 * @returns {Element}
 */
function icon(name, cls = "cw-icon") {
  return svgIcon("0 0 24 24", ICONS[name], cls);
}

/**
 * The big centre of a card face.
 * @param {string} t action token
 * @param {Face} f
 * @returns {Array<Node | string>}
 */
function faceBig(t, f) {
  if (f.kind === "plus" && t === "9") return [h("span", { class: "cw-nine" }, "9")];
  if (f.kind === "plus") return [h("span", { class: "cw-sign" }, "+"), t];
  if (f.kind === "minus") return [h("span", { class: "cw-sign" }, "−"), t.slice(1)];
  if (f.kind === "set") return ["99"];
  if (t === "pass") return [icon("pass")];
  if (t === "turn") return [icon("turn")];
  if (t === "shot") return [icon("shot")];
  if (t === "double") return [h("span", { class: "cw-times" }, "×2")];
  if (t === "dshot") return [icon("shot"), h("span", { class: "cw-times cw-times-sub" }, "×2")];
  return [f.short];
}

/**
 * The small corner/xs label of a card face.
 * @param {string} t action token
 * @param {Face} f
 * @returns {Array<Node | string>}
 */
function faceSmall(t, f) {
  if (t === "9") return [h("span", { class: "cw-nine" }, "9")];
  if (f.kind === "plus") return [t];
  if (f.kind === "minus" || f.kind === "set") return [f.short];
  if (t === "pass") return [icon("pass")];
  if (t === "turn") return [icon("turn")];
  if (t === "shot") return [icon("shot")];
  if (t === "double") return ["×2"];
  if (t === "dshot") return [icon("shot"), "²"];
  return [f.short];
}

/**
 * Render one face-up cirno+neu card (lib renderCard, dressed with this game's face).
 * @param {string} token the engine's token, written to `data-card`
 * @param {import("../lib/cards.js").CardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderNeuCard(token, opts = {}) {
  const t = actionToken(token);
  const f = cardFace(token);
  const size = opts.size ?? "md";
  const el = renderCard(token, {
    ...opts,
    tone: f.tone,
    title: opts.title ?? f.tip,
    class: [`cw-kind-${f.kind}`, t.length >= 2 && f.kind !== "order" && "cw-card-wide",
      ...(Array.isArray(opts.class) ? opts.class : [opts.class])],
  });
  const button = el.tagName === "BUTTON";
  const value = /** @type {HTMLElement} */ (el.querySelector(".cw-card-value"));
  value.textContent = "";
  value.append(...(size === "xs" ? faceSmall(t, f) : faceBig(t, f)));
  for (const corner of el.querySelectorAll(".cw-card-corner")) {
    corner.textContent = "";
    corner.append(...faceSmall(t, f));
  }
  const caption = f.kind === "order" && size !== "xs";
  if (caption) el.append(h("span", { class: "cw-card-caption", "aria-hidden": button ? null : "true" }, f.name));
  if (!button) {
    el.setAttribute("aria-label", f.name);
    el.setAttribute("role", "img");  // a label is allowed on an image, not on a bare div
  } else if (caption) {
    value.setAttribute("aria-hidden", "true");  // its icon or "×2": the caption under it names the card
  } else if (f.kind === "order") {
    el.setAttribute("aria-label", f.name);  // a small order card shows an icon alone
  }
  // A card button is otherwise named by what it shows (WCAG 2.5.3, label in name): its number
  // ("+5", "9") or an order card's caption; the corners repeat it (aria-hidden), the words are its title.
  return el;
}

// ---------------------------------------------------------------- helpers

/** @param {number} v */
const signed = (v) => (v < 0 ? `−${-v}` : String(v));

/**
 * The sum against the limit, each number once ("sum 0 of 99: room for 99 more", not "99 to go
 * before 99"): the room is how much the sum may still rise without a bust.
 * @param {number} sum @param {number} limit
 */
export function roomText(sum, limit) {
  const room = limit - sum;
  return room > 0 ? `sum ${signed(sum)} of ${limit}: room for ${room} more` : `the sum is at ${limit}`;
}

/**
 * How hot the sum is, 0 (cool) .. 4 (at the limit). Display only.
 * @param {number} sum
 * @param {number} limit
 */
export function heat(sum, limit) {
  const r = limit > 0 ? sum / limit : 0;
  return r >= 1 ? 4 : r >= 0.9 ? 3 : r >= 0.75 ? 2 : r >= 0.5 ? 1 : 0;
}

/**
 * Describe a last action in words for the seat's badge.
 * @param {string} action
 * @param {import("../lib/frame.js").Frame} f
 */
function describeAction(action, f) {
  const p = parseAction(action);
  if (!p) return action;
  const face = cardFace(p.card);
  return p.target == null ? `played ${face.name}` : `played ${face.name} on ${f.you(p.target) ? "you" : f.name(p.target)}`;
}

/**
 * @typedef {import("../lib/frame.js").Frame} Frame
 */

/** @param {Frame} f */
function cirnoState(f) {
  const view = /** @type {CirnoView} */ (f.view);
  const plays = /** @type {ParsedPlay[]} */ (f.moves);
  const turn = view.turn || { actor: view.current, anchor: view.current, kind: "normal", required: 1, played: 0 };
  const pending = view.pending || { shot_target: null, double_next: false };
  const targetsFor = (/** @type {string} */ tok) => plays.filter((p) => p.card === tok && p.target != null).map((p) => /** @type {number} */ (p.target));
  /** @type {{card: string, index: number} | null} */
  const aim = f.canAct && f.local.aim && targetsFor(f.local.aim.card).length ? f.local.aim : null;
  const counter = turn.required > 1 ? `card ${Math.min(turn.played + 1, turn.required)} of ${turn.required}` : null;
  return { view, plays, turn, pending, targetsFor, aim, aimTargets: aim ? targetsFor(aim.card) : [], counter, limit: view.limit ?? 99 };
}

/** @param {Frame} f */
function chips(f) {
  const v = /** @type {CirnoView} */ (f.view);
  return [
    h("span", { class: "cw-chip" }, `Round ${v.round}`),
    h("span", { class: "cw-chip", title: v.life_system ? "life system: a bust costs a chip; no chips left, and you are out (rule N6.4)" : "elimination: a bust puts the player out (rule N6.3)" },
      v.life_system ? "Life system" : "Elimination"),
    h("span", { class: "cw-chip", title: `keep the sum at or under ${v.limit ?? 99}` }, ["Limit ", h("b", null, String(v.limit ?? 99))]),
  ];
}

/** @param {Frame} f */
function turnDetail(f) {
  const s = cirnoState(f);
  const parts = [];
  if (s.turn.kind === "shot") parts.push("shot turn");
  if (s.counter) parts.push(s.counter);
  return parts.length ? ` · ${parts.join(" · ")}` : null;
}

/** @param {Frame} f */
function felt(f) {
  const s = cirnoState(f);
  const { view, turn, pending, aim, aimTargets, limit } = s;
  const n = f.n;
  const active = view.active || [];
  const base = f.teacher ? 0 : /** @type {number} */ (view.seat);
  const clockwise = view.direction !== -1;
  const aimFace = aim ? cardFace(aim.card) : null;

  /** @param {number} i */
  const lives = (i) => {
    if (!view.life_system || !Array.isArray(view.chips)) return null;
    const k = view.chips[i] ?? 0;
    const tokens = [];
    for (let j = 0; j < k; j++) tokens.push(h("span", { class: "cw-life" }));
    return h("span", { class: "cw-lives", role: "img", title: `${count(k, "chip", { none: "no chips" })} left (rule N6.4)`, "aria-label": count(k, "chip", { none: "no chips" }), "data-chips": k },
      k ? tokens : h("span", { class: "cw-lives-none" }, "no chips"));
  };

  const seats = [];
  const flows = [];
  for (let i = 0; i < n; i++) {
    const k = (i - base + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const out = active[i] === false;
    const targetable = aimTargets.includes(i);
    const cnt = view.hand_counts?.[i] ?? (view.hands?.[i]?.length ?? 0);
    const cards = view.hands?.[i];
    const act = targetable && aim ? playNotation(aim.card, i) : null;
    const badges = [];
    if (!f.finished && pending.shot_target === i) badges.push(h("span", { class: "cw-badge cw-badge-next", title: "plays a shot turn next (rule N5.2)" }, [icon("shot", "cw-icon cw-icon-inline"), "next"]));
    if (out) {
      const place = (view.eliminated || []).indexOf(i);
      badges.push(h("span", { class: "cw-out-mark", title: "out of the match" }, place >= 0 ? `out · ${ordinal(n - place)}` : "out"));
    }
    seats.push(h("div", {
      class: seatClass(f, i, [out && "cw-out", targetable && "cw-targetable", f.current === i && !f.finished && turn.kind === "shot" && "cw-shot-turn"]),
      "data-seat": i,
      "data-action": act,
      role: act ? "button" : null,
      tabIndex: act ? 0 : undefined,
      title: act ? `${aimFace?.name} on ${f.name(i)} (${act})` : null,
      "aria-label": act ? `target ${f.name(i)}` : null,
      style: { "--cx": Math.cos(angle).toFixed(4), "--cy": Math.sin(angle).toFixed(4), "--k": k },
      onClick: act ? () => f.act(act) : null,
      onKeydown: act ? (/** @type {KeyboardEvent} */ ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); f.act(act); }
      } : null,
    }, [
      seatHead(f, i, view.dealer === i && !f.finished ? h("span", { class: "cw-dealer", title: "dealer: dealt this round and played first (rule N2.3)" }, "dealer") : null),
      h("div", { class: "cw-seat-cards" }, [
        Array.isArray(cards) && !out && !f.you(i)
          ? h("div", { class: "cw-faceup" }, cards.map((c) => renderNeuCard(c, { size: "xs" })))
          : renderBacks(out ? 0 : cnt, { size: "xs", max: 8 }),
        out ? null : h("span", { class: "cw-count", title: `${count(cnt, "card", { none: "no cards" })} in hand` }, String(cnt)),
        out ? null : lives(i),
      ]),
      badges.length ? h("div", { class: "cw-seat-badges" }, badges) : null,
      lastMoveBadge(f, i),
      targetable ? h("div", { class: "cw-target-mark", "aria-hidden": "true" }, [icon("shot", "cw-icon"), "target"]) : null,
    ]));
    // an arrow on the track between this seat and the next one clockwise
    const mid = angle + Math.PI / n;
    const rx = 1.9; // the track is wider than tall: tangent in screen proportions
    let rot = (Math.atan2(Math.cos(mid), -rx * Math.sin(mid)) * 180) / Math.PI;
    if (!clockwise) rot += 180;
    flows.push(h("span", {
      class: "cw-flow", "aria-hidden": "true",
      style: { "--cx": Math.cos(mid).toFixed(4), "--cy": Math.sin(mid).toFixed(4), "--rot": `${rot.toFixed(1)}deg` },
    }, icon("arrow", "cw-icon")));
  }

  // ---- centre: draw pile, the running sum, the main stack ---------------------------
  const sum = Number(view.sum ?? 0);
  const pct = Math.max(0, Math.min(100, (sum / limit) * 100));
  const drawCount = view.draw_count ?? 0;
  const top = view.stack_top || [];
  const stackSize = view.stack_size ?? top.length;
  const badges = [h("div", {
    class: "cw-direction", "data-direction": clockwise ? "cw" : "ccw",
    title: `play goes ${clockwise ? "clockwise" : "counter-clockwise"} (TURN reverses it, rule N3.5)`,
  }, [icon(clockwise ? "cw" : "turn", "cw-icon"), h("span", null, clockwise ? "clockwise" : "counter-clockwise")])];
  if (!f.finished) {
    if (turn.kind === "shot") {
      badges.push(h("span", { class: "cw-badge cw-badge-shot", title: `an extra turn from a SHOT; then play goes on after ${f.name(turn.anchor)} (rule N5.2)` },
        [icon("shot", "cw-icon cw-icon-inline"), `shot turn, then after ${f.name(turn.anchor)}`]));
    }
    if (s.counter) badges.push(h("span", { class: "cw-badge cw-badge-double", title: "double turn: 2 cards, then draw 2 (rules N3.7, N4.7)" }, `×2 · ${s.counter}`));
    if (pending.double_next) badges.push(h("span", { class: "cw-badge cw-badge-pending", "data-pending": "double", title: "the next turn plays 2 cards (rule N5.4)" }, "next turn ×2"));
    if (pending.shot_target != null) {
      badges.push(h("span", { class: "cw-badge cw-badge-pending", "data-pending": "shot", title: "SHOT: this player takes the next turn (rule N5.2)" },
        [icon("shot", "cw-icon cw-icon-inline"), `next: ${f.name(pending.shot_target)}`]));
    }
  }
  const centre = h("div", { class: "cw-centre" }, [
    h("div", { class: "cw-centre-row" }, [
      h("div", { class: "cw-draw", "data-deck-anchor": true, title: drawCount ? `${count(drawCount, "card")} in the draw pile` : "the draw pile is empty" }, [
        h("div", { class: "cw-pile" }, drawCount > 0 ? renderBacks(Math.min(3, drawCount), { size: "sm", max: 3 }) : h("div", { class: "cw-slot" }, "")),
        h("div", { class: "cw-pile-label" }, [h("span", null, "Draw"), h("b", { class: "cw-draw-count" }, String(drawCount))]),
      ]),
      h("div", {
        class: "cw-dial", "data-heat": heat(sum, limit), style: { "--p": pct.toFixed(1) },
        role: "img", "aria-label": `sum ${sum} of ${limit}`,
        title: limit - sum >= 0 ? `${roomText(sum, limit)}` : `sum ${signed(sum)}: over ${limit}`,
      }, h("div", { class: "cw-dial-face" }, [h("b", { class: "cw-sum" }, signed(sum)), h("span", { class: "cw-limit" }, `/ ${limit}`)])),
      h("div", { class: "cw-stack-top", title: `main stack: ${count(stackSize, "card", { none: "empty" })}${top.length ? `; on top ${top.map((c) => cardFace(c).name).join(" ")}` : ""}` }, [
        h("div", { class: "cw-fan", style: { "--n": top.length } }, top.length
          ? top.map((c, j) => renderNeuCard(c, { size: "sm", class: j === top.length - 1 && "cw-newest", attrs: { style: `--j:${j - (top.length - 1)}` } }))
          : h("div", { class: "cw-slot" }, "")),
        h("div", { class: "cw-pile-label" }, [h("span", null, "Stack"), h("b", { class: "cw-stack-count" }, String(stackSize))]),
      ]),
    ]),
    h("div", { class: "cw-turn-info" }, badges),
  ]);

  // ---- the last bust: the busted player's hand, revealed -------------------------------
  const rv = view.revealed;
  const revealed = rv ? h("section", { class: "cw-revealed", "data-seat": rv.seat, "aria-label": "Revealed hand" }, [
    h("span", { class: "cw-revealed-title" }, rv.forced ? "Forced bust" : "Bust"),
    h("span", { class: "cw-revealed-text" }, withRuleIds(
      rv.card == null
        ? `Round ${rv.round}: ${f.name(rv.seat)} held no safe card at ${signed(rv.sum)} (rule N4.4)`
        : `Round ${rv.round}: ${f.name(rv.seat)} played ${cardFace(rv.card).name}, making ${signed(rv.sum)}${rv.forced ? ", forced (rule N4.4)" : " (rule N6.1)"}`)),
    h("div", { class: "cw-revealed-hand" }, (rv.hand || []).map((c) => renderNeuCard(c, { size: "xs" }))),
  ]) : null;
  return h("div", { class: ["cw-ring", aim && "cw-aiming"], "data-players": n, "data-direction": clockwise ? "cw" : "ccw" },
    [h("div", { class: "cw-ring-track", "aria-hidden": "true" }), ...flows, centre, ...seats, revealed]);
}

/** @param {Frame} f */
function player(f) {
  const s = cirnoState(f);
  const { view, plays, turn, aim, aimTargets, limit, counter } = s;
  const actor = f.actor;
  if (actor == null) return null;
  const hand = Array.isArray(view.hands?.[actor]) ? /** @type {string[]} */ (view.hands[actor]) : null;
  const live = f.canAct;
  const playable = new Set(plays.map((p) => p.card));
  const cancelAim = () => { f.local.aim = null; f.redraw(); };
  const handEl = hand === null
    ? renderBacks(view.hand_counts?.[actor] ?? 0, { size: "sm" })
    : h("div", { class: "cw-hand", role: "group", "aria-label": f.teacher ? `${f.name(actor)}'s hand` : "your hand" },
      hand.length ? hand.map((c, i) => {
        const tok = actionToken(c);
        const ok = playable.has(tok);
        const aimed = AIMED.has(tok) && s.targetsFor(tok).length > 0;
        const direct = ok && !aimed ? playNotation(tok) : null;
        const why = live && !ok ? f.refusals[playNotation(tok)] : undefined;
        return renderNeuCard(c, {
          size: "lg",
          playable: live && ok,
          dimmed: live && !ok,
          selected: aim?.index === i,
          title: why,
          attrs: { "data-index": i, "data-action": live ? direct : null, "data-control": live && aimed ? "target" : null },
          onClick: !live ? undefined : () => {
            if (aimed) {
              if (aim?.index === i) cancelAim(); else { f.local.aim = { card: tok, index: i }; f.redraw(); }
            } else {
              // one click = one card; an unplayable card is sent too, so Python explains why not
              f.local.aim = null;
              f.act(playNotation(tok));
            }
          },
        });
      }) : h("span", { class: "cw-hand-empty cw-muted" }, f.finished ? "no cards left" : "no cards in hand"));

  let controls = null;
  if (live && aim) {
    const face = cardFace(aim.card);
    controls = [
      h("span", { class: "cw-hint cw-hint-step" }, [icon("shot", "cw-icon cw-icon-inline"),
        ` ${face.name}: click a glowing seat to choose who plays next (${listWords(aimTargets.map((t) => (f.you(t) ? "you" : f.name(t))))}).`]),
      h("button", { type: "button", class: "cw-btn", "data-control": "cancel", onClick: cancelAim }, "Cancel"),
    ];
  } else if (live) {
    controls = h("span", { class: "cw-hint" }, withRuleIds(
      `${counter ? `Double turn: ${counter}. ` : ""}${turn.kind === "shot" ? `Shot turn: then play goes on after ${f.name(turn.anchor)}. ` : ""}`
      + `Glowing cards are legal: click one to play it (${roomText(Number(view.sum ?? 0), limit)}).`));
  }
  const moves = plays.map((p) => {
    const face = cardFace(p.card);
    return moveChip(f, {
      action: p.text, selected: aim ? p.card === aim.card : undefined, title: `${p.text}: ${face.tip}`,
      content: [
        h("span", { class: "cw-move-pip", "data-tone": face.tone }, faceSmall(p.card, face)),
        p.target != null ? h("span", { class: "cw-move-target" }, `→ ${f.label(p.target)}`) : null,
      ],
      onClick: () => f.act(p.text),
    });
  });
  return {
    head: h("div", { class: "cw-player-head" }, [
      h("span", { class: "cw-avatar", "data-seat-tone": actor % 5, "aria-hidden": "true" }, (f.name(actor)[0] || "?").toUpperCase()),
      h("span", { class: "cw-seat-name" }, f.teacher ? `${f.name(actor)}'s hand` : "Your hand"),
      f.teacher ? h("span", { class: "cw-muted" }, `acting for ${f.name(actor)}`) : null,
      live && counter ? h("span", { class: "cw-badge cw-badge-double" }, `×2 · ${counter}`) : null,
      live && turn.kind === "shot" ? h("span", { class: "cw-badge cw-badge-shot" }, [icon("shot", "cw-icon cw-icon-inline"), "shot turn"]) : null,
    ]),
    hand: handEl,
    controls,
    moves,
  };
}

/** @param {Frame} f */
function outcome(f) {
  const view = /** @type {CirnoView} */ (f.view);
  const o = view.outcome || { winners: [], scores: [], reason: "" };
  const w = o.winners || [];
  const n = f.n;
  const elim = view.eliminated || [];
  const place = (/** @type {number} */ s) => (w.includes(s) ? 1 : elim.includes(s) ? n - elim.indexOf(s) : null);
  return {
    headline: headline(f, w, "the match"),
    leadTitle: "Place",
    leadCell: (s) => { const p = place(s); return p == null ? "—" : ordinal(p); },
    order: [...Array(n).keys()].sort((a, b) => (place(a) ?? n + 1) - (place(b) ?? n + 1)),
    columns: view.life_system ? ["Chips"] : [],
    cells: (s) => (view.life_system ? [String(o.scores?.[s] ?? view.chips?.[s] ?? 0)] : []),
    reason: o.reason ? `${o.reason[0].toUpperCase()}${o.reason.slice(1)}.` : "",
  };
}

/** @type {import("../lib/frame.js").Layout} */
export const layout = {
  game: GAME,
  title: "cirno+neu",
  logo: () => h("span", { class: "cw-nine" }, "9"),
  parse: parseAction,
  chips,
  turnDetail,
  felt,
  player,
  outcome,
  describe: describeAction,
  overText: () => "Match over",
  uiKey: (f) => [f.view.turn_no, f.view.round, f.view.turn?.played],
  onKey(ev, f) {
    // Escape leaves the targeting step.
    if (ev.key !== "Escape" || !f.local.aim) return false;
    f.local.aim = null;
    return true;
  },
};

export default gameWidget(layout);
