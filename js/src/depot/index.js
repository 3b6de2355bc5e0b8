// Depot table (anywidget front end). Draws the synced `view` and `legal` traits;
// holds no rules: a card or move is offered only because its action string is in
// `legal`, and Python validates and explains everything the player sends.
import "../lib/table.css";
import "./depot.css";
import { h } from "../lib/dom.js";
import { renderCard, renderBacks } from "../lib/cards.js";
import { renderHand, toggled } from "../lib/hand.js";
import { withRuleIds, listWords } from "../lib/text.js";
import { mountTable } from "../lib/table.js";
import { renderLayout } from "../lib/layout.js";

export const GAME = "depot";
const VALUES = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * The Depot view as Python sends it (see the widget contract).
 * @typedef {Object} DepotView
 * @property {"depot"} game
 * @property {number} players
 * @property {string[]} names
 * @property {number | null} seat            viewing seat; null = teacher view
 * @property {"lead" | "respond" | "finished"} phase
 * @property {number | null} current
 * @property {number} round
 * @property {number} game_no
 * @property {number} games                  1 or 3
 * @property {number} target
 * @property {number[]} storage
 * @property {number} set_limit
 * @property {number} run_limit
 * @property {{owner: number, cards: number[]} | null} standing
 * @property {number} passes
 * @property {number} deck_count
 * @property {number[]} discard
 * @property {Array<number[] | null>} hands
 * @property {number[]} hand_counts
 * @property {number[]} lost_points
 * @property {number[][]} penalties
 * @property {{seat: number, action: string} | null} last_action
 * @property {{winners: number[], scores: number[], reason: string} | null} outcome
 */

/**
 * A parsed Depot action, for display and for building the UI from `legal` only.
 * @typedef {{kind: "play", cards: number[], text: string} | {kind: "pass", take: number | null, give: number | null, text: string}} ParsedAction
 */

/**
 * Read Depot notation (the spec's §19; this is notation, not rules).
 * @param {string} text e.g. "play 5 5", "pass take 3 give 7", "pass give 5"
 * @returns {ParsedAction | null} null when the text is not Depot notation
 */
export function parseAction(text) {
  const words = String(text).trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (words[0] === "play") {
    const cards = words.slice(1).map(Number);
    if (!cards.length || cards.some((v) => !Number.isInteger(v))) return null;
    return { kind: "play", cards: cards.sort((a, b) => a - b), text };
  }
  if (words[0] === "pass") {
    /** @type {number | null} */ let take = null;
    /** @type {number | null} */ let give = null;
    let i = 1;
    if (words[i] === "take") i++;
    if (i < words.length && words[i] !== "give") take = Number(words[i++]);
    if (words[i] === "give") give = Number(words[i + 1]);
    return { kind: "pass", take, give, text };
  }
  return null;
}

/**
 * Canonical play notation for a selection of values.
 * @param {number[]} values
 * @returns {string} "play 3 4 5"
 */
export function playNotation(values) {
  return `play ${[...values].sort((a, b) => a - b).join(" ")}`;
}

/**
 * Canonical pass notation.
 * @param {number | null} take
 * @param {number | null} give
 * @returns {string} "pass take 5 give 3", "pass take 5", "pass give 2" or "pass"
 */
export function passNotation(take, give) {
  return ["pass", take != null && `take ${take}`, give != null && `give ${give}`].filter(Boolean).join(" ");
}

/** @param {number[]} cards */
const cardsText = (cards) => `[${cards.join(",")}]`;
/** @param {number} n @param {string} word */
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** @param {number[]} xs */
const unique = (xs) => [...new Set(xs)].sort((a, b) => a - b);
/** @param {number[]} xs */
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * Describe the last action in words for the seat's speech bubble.
 * @param {string} action
 */
function describeAction(action) {
  const a = parseAction(action);
  if (!a) return action;
  if (a.kind === "play") return `played ${a.cards.join(" ")}`;
  const parts = [];
  if (a.take != null) parts.push(`took the ${a.take}s`);
  if (a.give != null) parts.push(`gave a ${a.give}`);
  return parts.length ? `passed: ${parts.join(", ")}` : "passed";
}

/**
 * Draw the whole Depot table into ctx.root.
 * @param {import("../lib/table.js").TableContext} ctx
 */
export function drawDepot(ctx) {
  const { root, ui } = ctx;
  /** @type {DepotView | null} */
  const view = ctx.get("view");
  const n = view.players;
  const names = view.names || [];
  const name = (/** @type {number | null | undefined} */ i) =>
    i == null ? "" : names[i] ?? `Seat ${i + 1}`;
  /** @type {string[]} */
  const legal = Array.isArray(ctx.get("legal")) ? ctx.get("legal") : [];
  const parsed = legal.map(parseAction).filter((a) => a !== null);
  const plays = /** @type {Array<Extract<ParsedAction, {kind: "play"}>>} */ (parsed.filter((a) => a.kind === "play"));
  const passes = /** @type {Array<Extract<ParsedAction, {kind: "pass"}>>} */ (parsed.filter((a) => a.kind === "pass"));
  const botSeats = new Set(Array.isArray(ctx.get("bot_seats")) ? ctx.get("bot_seats") : []);
  const thinking = !!ctx.get("thinking");
  const cursor = Number(ctx.get("cursor") ?? 0);
  const historyLen = Number(ctx.get("history_len") ?? 0);

  const teacher = view.seat == null;
  const finished = view.phase === "finished" || view.current == null;
  // Whose hand the controls act for: the viewer, or in teacher view the seat to act.
  const actor = teacher ? (finished ? null : view.current) : view.seat;
  const hand = actor != null && Array.isArray(view.hands?.[actor]) ? /** @type {number[]} */ (view.hands[actor]) : null;
  const interactive = hand !== null && !finished;

  // Local UI state (selection, pass flow) belongs to one position; a new position resets it.
  const key = JSON.stringify([cursor, historyLen, view.round, view.current, actor, hand, view.storage, legal]);
  if (ui.key !== key) {
    ui.key = key;
    ui.selected = new Set();
    ui.pass = null;
  }
  /** @type {Set<number>} */
  const selected = ui.selected;
  /** @type {{take?: number | null, give: number | null, giveIndex: number | null} | null} */
  const pass = interactive && passes.length ? ui.pass : null;
  // Empty Storage: every legal pass takes nothing, so the flow starts at the give step.
  if (pass && pass.take === undefined && passes.every((p) => p.take === null)) pass.take = null;
  const passStage = !pass ? null : pass.take === undefined ? "take" : "give";
  const takeOptions = unique(/** @type {number[]} */ (passes.map((p) => p.take).filter((t) => t != null)));
  const giveOptions = pass && pass.take !== undefined
    ? unique(/** @type {number[]} */ (passes.filter((p) => p.take === pass.take && p.give != null).map((p) => p.give)))
    : [];
  const playValues = new Set(plays.flatMap((p) => p.cards));
  const you = (/** @type {number | null | undefined} */ i) => !teacher && i === view.seat;

  // ---- header -------------------------------------------------------------
  let turn = "";
  if (finished) turn = view.games === 3 && view.outcome ? "Match over" : "Game over";
  else if (you(view.current)) turn = view.phase === "lead" ? "Your lead" : "Your turn";
  else turn = `${name(view.current)} ${view.phase === "lead" ? "leads" : "to play"}`;
  const header = h("header", { class: "cw-header" }, [
    h("div", { class: "cw-title" }, [h("span", { class: "cw-logo", "aria-hidden": "true" }, "◆"), "Depot"]),
    h("div", { class: "cw-chips" }, [
      h("span", { class: "cw-chip" }, `Round ${view.round}`),
      view.games === 3 ? h("span", { class: "cw-chip" }, `Game ${view.game_no} of ${view.games}`) : null,
      h("span", { class: "cw-chip cw-chip-target", title: "Storage target: the Storage is refilled to T cards (rule D2.3)" },
        ["Target ", h("b", null, `T = ${view.target}`)]),
      cursor < historyLen
        ? h("span", { class: "cw-chip cw-chip-past", title: "You are looking at an earlier position" }, `viewing move ${cursor} of ${historyLen}`)
        : null,
    ]),
    h("div", { class: ["cw-turn", you(view.current) && !finished && "cw-turn-you", finished && "cw-turn-over"] }, [
      turn,
      thinking && !finished ? h("span", { class: "cw-thinking", "aria-label": "thinking" }, [" · thinking", dots()]) : null,
    ]),
  ]);

  // ---- seats ----------------------------------------------------------------
  /** @param {number} i @param {boolean} self */
  const seatHead = (i, self) => h("div", { class: "cw-seat-head" }, [
    h("span", { class: "cw-avatar", "data-seat-tone": i % 5, "aria-hidden": "true" }, (name(i)[0] || "?").toUpperCase()),
    h("span", { class: "cw-seat-name" }, name(i)),
    self ? h("span", { class: "cw-tag cw-tag-you" }, "you") : null,
    botSeats.has(i) ? h("span", { class: "cw-tag cw-tag-bot", title: "played by the computer" }, "bot") : null,
    view.current === i && !finished && thinking ? h("span", { class: "cw-thinking", title: "thinking…" }, dots()) : null,
  ]);
  /** @param {number} i */
  const seatBadges = (i) => {
    const count = view.hand_counts?.[i] ?? (view.hands?.[i]?.length ?? 0);
    return h("div", { class: "cw-seat-badges" }, [
      h("span", { class: "cw-count", title: `${plural(count, "card")} in hand` }, plural(count, "card")),
      view.standing && view.standing.owner === i
        ? h("span", { class: "cw-tag cw-tag-owner", title: "owns the standing play" }, "on the table") : null,
      view.games === 3
        ? h("span", { class: "cw-lost", title: `lost points this match${view.penalties?.[i]?.length ? `; penalty cards ${cardsText(view.penalties[i])}` : ""}` },
          [`lost ${view.lost_points?.[i] ?? 0}`,
            ...(view.penalties?.[i] || []).map((v) => renderCard(v, { size: "xs", tone: v, class: "cw-penalty" }))])
        : null,
    ]);
  };
  /** @param {number} i */
  const bubble = (i) => view.last_action && view.last_action.seat === i
    ? h("div", { class: "cw-bubble", title: view.last_action.action }, describeAction(view.last_action.action)) : null;
  /** @param {number} i @param {string[]} more */
  const seatClass = (i, more) => ["cw-seat", ...more, view.current === i && !finished && "cw-current",
    view.standing?.owner === i && "cw-owner", view.outcome?.winners?.includes(i) && "cw-winner"];

  const others = [];
  for (let k = 0; k < n; k++) {
    const i = teacher ? k : (/** @type {number} */ (view.seat) + 1 + k) % n;
    if (!teacher && i === view.seat) continue;
    const cards = view.hands?.[i];
    others.push(h("div", { class: seatClass(i, ["cw-opponent"]), "data-seat": i }, [
      seatHead(i, false),
      Array.isArray(cards)
        ? h("div", { class: "cw-seat-cards cw-faceup" }, cards.map((v) => renderCard(v, { size: "xs", tone: v })))
        : h("div", { class: "cw-seat-cards" }, renderBacks(view.hand_counts?.[i] ?? 0, { size: "xs", max: 14 })),
      seatBadges(i),
      bubble(i),
    ]));
  }
  const seatsRow = h("div", { class: "cw-seats", style: { "--cw-seat-count": others.length } }, others);

  // ---- centre: Storage, standing play, deck and discard ---------------------
  const storageCount = new Map();
  for (const v of view.storage || []) storageCount.set(v, (storageCount.get(v) || 0) + 1);
  const columns = VALUES.map((v) => {
    const k = storageCount.get(v) || 0;
    const cards = [];
    for (let j = 0; j < k; j++) cards.push(renderCard(v, { size: "md", tone: v }));
    const takeable = passStage !== null && takeOptions.includes(v);
    const chosen = pass?.take === v;
    const attrs = {
      class: ["cw-storage-col", k === 0 && "cw-empty", takeable && "cw-takeable", chosen && "cw-chosen"],
      "data-value": v,
    };
    const body = [h("div", { class: "cw-stack" }, k ? cards : h("div", { class: "cw-slot", "aria-hidden": "true" }, String(v))),
      h("div", { class: "cw-col-count" }, k > 1 ? `×${k}` : "")];
    if (!takeable) return h("div", attrs, body);
    return h("button", {
      ...attrs, type: "button", "data-control": `take-${v}`, "aria-pressed": String(chosen),
      title: `Take ${k === 1 ? "the" : `all ${k}`} ${v}${k === 1 ? "" : "s"} from the Storage`,
      onClick: () => { ui.pass = { take: v, give: null, giveIndex: null }; ctx.redraw(); },
    }, body);
  });
  const storage = h("section", { class: ["cw-storage", passStage === "take" && "cw-storage-choose"], "aria-label": "Storage" }, [
    h("div", { class: "cw-storage-head" }, [
      h("h3", { class: "cw-panel-title" }, "Storage"),
      h("div", { class: "cw-limits" }, [
        h("span", { class: "cw-limit", title: "largest set allowed: the most copies of one value in the Storage (rule D3.2)" },
          ["set limit ", h("b", { class: "cw-set-limit" }, String(view.set_limit))]),
        h("span", { class: "cw-dot", "aria-hidden": "true" }, "·"),
        h("span", { class: "cw-limit", title: "longest run allowed: the longest chain of consecutive values in the Storage (rule D3.3)" },
          ["run limit ", h("b", { class: "cw-run-limit" }, String(view.run_limit))]),
        h("span", { class: "cw-target", title: "Storage target (rule D2.3): refills aim for T cards" },
          [h("b", null, `T=${view.target}`), ` · ${plural((view.storage || []).length, "card")}`]),
      ]),
    ]),
    h("div", { class: "cw-storage-cols" }, columns),
  ]);

  const standing = view.standing;
  const passPips = [];
  for (let j = 0; j < n - 1; j++) passPips.push(h("span", { class: ["cw-pip", j < (view.passes || 0) && "cw-pip-on"] }));
  const standingBox = h("section", { class: ["cw-standing", !standing && "cw-standing-empty"], "aria-label": "Standing play" }, [
    h("h3", { class: "cw-panel-title" }, standing ? "To beat" : "Table"),
    standing
      ? [h("div", { class: "cw-standing-cards" }, standing.cards.map((v) => renderCard(v, { size: standing.cards.length <= 3 ? "lg" : "md", tone: v }))),
        h("div", { class: "cw-standing-meta" }, [
          h("span", { class: "cw-standing-owner" }, you(standing.owner) ? "your play" : `${name(standing.owner)}'s play`),
          h("span", { class: "cw-muted" }, ` · ${plural(standing.cards.length, "card")}, total ${sum(standing.cards)}`),
        ])]
      : h("div", { class: "cw-standing-none" }, finished ? "—" : `empty — ${you(view.current) ? "you lead" : `${name(view.current)} leads`}`),
    n > 1 ? h("div", { class: "cw-passes", title: `${plural(view.passes || 0, "pass")} in a row; ${n - 1} in a row end the round (rule D7.1)` },
      [h("span", { class: "cw-muted" }, "passes "), ...passPips]) : null,
  ]);

  const discard = view.discard || [];
  const discardCounts = VALUES.map((v) => discard.filter((x) => x === v).length);
  const maxCount = Math.max(1, ...discardCounts);
  const deckCount = view.deck_count ?? 0;
  const piles = h("div", { class: "cw-piles" }, [
    h("div", { class: "cw-deck", title: `${plural(deckCount, "card")} in the deck` }, [
      h("div", { class: "cw-pile" }, deckCount > 0
        ? renderBacks(Math.min(3, deckCount), { size: "sm", max: 3 })
        : h("div", { class: "cw-slot" }, "")),
      h("div", { class: "cw-pile-label" }, [h("span", null, "Deck"), h("b", { class: "cw-deck-count" }, String(deckCount))]),
      h("div", { class: "cw-pile-note" }, deckCount > 0 ? "face down" : "empty"),
    ]),
    h("div", { class: "cw-discard", title: discard.length ? `Discard pile (public): ${cardsText(discard)}` : "Discard pile: empty" }, [
      h("div", { class: "cw-histogram", "aria-hidden": "true" }, VALUES.map((v, j) =>
        h("span", { class: "cw-bar", "data-tone": v, style: { height: `${Math.round((discardCounts[j] / maxCount) * 100)}%` } }))),
      h("div", { class: "cw-pile-label" }, [h("span", null, "Discard"), h("b", { class: "cw-discard-count" }, String(discard.length))]),
      h("div", { class: "cw-pile-note" }, discard.length ? "face up, by value" : "empty"),
    ]),
  ]);

  const centre = h("div", { class: "cw-centre" }, [h("div", { class: "cw-centre-main" }, [storage, piles]), standingBox]);

  // ---- the interactive hand, controls and legal moves -------------------------
  /** @type {HTMLElement | null} */
  let playerArea = null;
  if (actor != null) {
    const handEl = hand === null
      ? renderBacks(view.hand_counts?.[actor] ?? 0, { size: "sm" })
      : renderHand({
          cards: hand,
          size: "lg",
          label: teacher ? `${name(actor)}'s hand` : "your hand",
          empty: "no cards left in hand",
          tone: (v) => v,
          selected: passStage === "give" && pass?.giveIndex != null ? new Set([pass.giveIndex]) : passStage ? new Set() : selected,
          isPlayable: (v) => passStage ? giveOptions.includes(Number(v)) : playValues.has(Number(v)),
          isDimmed: (v) => passStage ? !giveOptions.includes(Number(v)) : legal.length > 0 && !playValues.has(Number(v)),
          onToggle: !interactive ? undefined : (i, v) => {
            if (passStage === "take") return;
            if (passStage === "give" && pass) {
              if (!giveOptions.includes(Number(v))) return;
              if (pass.giveIndex === i) { pass.give = null; pass.giveIndex = null; }
              else { pass.give = Number(v); pass.giveIndex = i; }
            } else {
              ui.selected = toggled(selected, i);
            }
            ctx.redraw();
          },
        });
    const selValues = [...selected].map((i) => hand?.[i]).filter((v) => v != null).sort((a, b) => a - b);
    const selAction = selValues.length ? playNotation(/** @type {number[]} */ (selValues)) : null;
    const selLegal = selAction !== null && legal.includes(selAction);

    /** @type {Array<HTMLElement | string | null>} */
    let controls;
    if (!pass) {
      const leaderMustPlay = plays.length > 0 && passes.length === 0;
      controls = [
        h("button", {
          type: "button", class: ["cw-btn", "cw-btn-primary", selAction && !selLegal && legal.length > 0 && "cw-btn-warn"],
          "data-control": "play", "data-action": selAction, disabled: !interactive || !selAction,
          title: selAction ? (selLegal || !legal.length ? selAction : `${selAction} is not a legal move now — play it to hear why`) : "select cards in your hand first",
          onClick: () => { if (selAction) ctx.act(selAction); },
        }, selAction ? ["Play ", h("span", { class: "cw-btn-cards" }, selValues.join(" "))] : "Play"),
        h("button", {
          type: "button", class: "cw-btn", "data-control": "pass", disabled: !passes.length,
          title: passes.length ? "Pass: take a value from the Storage, then optionally give one card"
            : leaderMustPlay ? "the leader must play (rule D5.3)" : finished ? "the game is over" : "not your turn",
          onClick: () => { ui.pass = { take: undefined, give: null, giveIndex: null }; ui.selected = new Set(); ctx.redraw(); },
        }, "Pass…"),
        selValues.length ? h("button", {
          type: "button", class: "cw-btn cw-btn-quiet", "data-control": "clear-selection",
          onClick: () => { ui.selected = new Set(); ctx.redraw(); },
        }, "Clear") : null,
        h("span", { class: ["cw-hint", selAction && !selLegal && legal.length > 0 && "cw-hint-warn"] },
          selAction
            ? (selLegal ? "ready to play" : legal.length ? "not a legal play right now — try it to see why" : "")
            : leaderMustPlay ? "you lead: play any legal combination" : plays.length ? "select cards to play, or pass" : ""),
      ];
    } else {
      const action = passStage === "give" ? legalPass(passes, /** @type {number | null} */ (pass.take), pass.give) : null;
      controls = [
        h("button", {
          type: "button", class: "cw-btn cw-btn-primary", "data-control": "confirm-pass", "data-action": action,
          disabled: !action, onClick: () => { if (action) ctx.act(action); },
        }, action ? `Confirm ${action}` : "Confirm pass"),
        h("button", {
          type: "button", class: "cw-btn", "data-control": "cancel",
          onClick: () => { ui.pass = null; ctx.redraw(); },
        }, "Cancel"),
        h("span", { class: "cw-hint cw-hint-step" },
          passStage === "take"
            ? `Step 1 of 2: click a value in the Storage to take (${listWords(takeOptions)}).`
            : giveOptions.length
              ? `Step 2 of 2: ${pass.take != null ? `taking the ${pass.take}s. ` : ""}Optionally click a card in your hand to give${pass.give != null ? ` (giving a ${pass.give})` : ""}, then confirm.`
              : `${pass.take != null ? `Taking the ${pass.take}s` : "Nothing to take"}; confirm the pass.`),
      ];
    }

    const legalStrip = h("div", { class: "cw-legal", "aria-label": "Legal moves" }, [
      h("span", { class: "cw-legal-title" }, "Legal moves"),
      legal.length === 0
        ? h("span", { class: "cw-muted" }, finished ? "none — the game is over"
          : you(view.current) || teacher ? "none" : `none — waiting for ${name(view.current)}${thinking ? " (thinking…)" : ""}`)
        : [
            ...plays.map((p) => h("button", {
              type: "button", class: ["cw-move", p.text === selAction && "cw-move-selected"], "data-action": p.text,
              title: `${p.text} · ${plural(p.cards.length, "card")}, total ${sum(p.cards)}`,
              onClick: () => ctx.act(p.text),
            }, p.cards.map((v) => h("span", { class: "cw-move-pip", "data-tone": v }, String(v))))),
            passes.length ? h("span", { class: "cw-legal-pass" }, passSummary(passes)) : null,
          ],
    ]);

    playerArea = h("section", { class: ["cw-player", interactive && legal.length > 0 && "cw-player-active"] }, [
      teacher
        ? h("div", { class: "cw-player-head" }, [
            seatHead(actor, false),
            h("span", { class: "cw-muted" }, `teacher view — acting for ${name(actor)}`),
          ])
        : h("div", { class: seatClass(actor, ["cw-self"]), "data-seat": actor }, [
            h("div", { class: "cw-player-head" }, [seatHead(actor, true), seatBadges(actor), bubble(actor)]),
            handEl,
          ]),
      teacher ? handEl : null,
      finished ? null : h("div", { class: "cw-controls" }, controls),
      finished ? null : legalStrip,
    ]);
  }

  // ---- outcome ----------------------------------------------------------------
  const outcome = view.outcome;
  let outcomeEl = null;
  if (outcome) {
    const winners = outcome.winners || [];
    const headline = winners.length === 0 ? "No winner"
      : winners.some((w) => you(w)) ? (winners.length > 1 ? "You share the win!" : "You win!")
      : winners.length > 1 ? `${listWords(winners.map(name), "and")} share the win` : `${name(winners[0])} wins`;
    const match = view.games === 3;
    outcomeEl = h("section", { class: "cw-outcome", role: "status" }, [
      h("div", { class: "cw-outcome-head" }, [h("span", { class: "cw-trophy", "aria-hidden": "true" }, "★"), headline]),
      h("table", { class: "cw-scores" }, [
        h("thead", null, h("tr", null, [h("th", null, "Player"), h("th", null, match ? "Lost points" : "Cards left")])),
        h("tbody", null, (outcome.scores || []).map((s, i) =>
          h("tr", { class: winners.includes(i) && "cw-winner-row", "data-seat": i }, [
            h("td", null, [name(i), you(i) ? " (you)" : ""]),
            h("td", null, String(s)),
          ]))),
      ]),
      outcome.reason ? h("p", { class: "cw-reason" }, withRuleIds(outcome.reason)) : null,
    ]);
  }

  // ---- assemble -----------------------------------------------------------------
  renderLayout(ctx, { header, felt: [seatsRow, outcomeEl, centre], playerArea, cursor, historyLen });
}

/**
 * The legal pass string for a take/give choice (verbatim from `legal`).
 * @param {Array<{take: number | null, give: number | null, text: string}>} passes
 * @param {number | null} take
 * @param {number | null} give
 * @returns {string | null}
 */
function legalPass(passes, take, give) {
  const hit = passes.find((p) => p.take === take && p.give === give);
  return hit ? hit.text : null;
}

/**
 * "or pass: take 2, 4, 5 or 6 (then give a card or not)".
 * @param {Array<{take: number | null, give: number | null}>} passes
 * @returns {string}
 */
function passSummary(passes) {
  const takes = unique(/** @type {number[]} */ (passes.map((p) => p.take).filter((t) => t != null)));
  const canGive = passes.some((p) => p.give != null);
  const head = takes.length ? `or pass: take ${listWords(takes)}` : "or pass (the Storage is empty)";
  return canGive ? `${head}, optionally giving a card` : head;
}

function dots() {
  return h("span", { class: "cw-dots", "aria-hidden": "true" }, [h("i"), h("i"), h("i")]);
}

/**
 * anywidget entry point.
 * @param {{model: import("../lib/table.js").Model, el: HTMLElement}} args
 * @returns {() => void} cleanup
 */
function render({ model, el }) {
  return mountTable({ model, el, game: GAME, draw: drawDepot, onKey: depotKeys });
}

/**
 * Escape leaves the pass flow, or else clears the selection.
 * @param {KeyboardEvent} ev
 * @param {import("../lib/table.js").TableContext} ctx
 */
export function depotKeys(ev, ctx) {
  if (ev.key !== "Escape") return;
  if (ctx.ui.pass) ctx.ui.pass = null;
  else if (ctx.ui.selected?.size) ctx.ui.selected = new Set();
  else return;
  ev.preventDefault();
  ctx.redraw();
}

export default { render };
