// Depot table: the layout drawn inside the shared frame (lib/frame.js). Holds no rules:
// a card or move is offered only because its action string is in `legal`, and Python
// validates and explains everything the player sends.
import "../lib/table.css";
import "./depot.css";
import { h } from "../lib/dom.js";
import { renderCard, renderBacks } from "../lib/cards.js";
import { renderHand, toggled } from "../lib/hand.js";
import { withRuleIds, listWords, count, ordinal, numberWord } from "../lib/text.js";
import { gameWidget, seatHead, seatClass, lastMoveBadge, othersInOrder, moveChip, headline } from "../lib/frame.js";

export const GAME = "depot";
const VALUES = [1, 2, 3, 4, 5, 6, 7, 8];

// ------------------------------------------------------------------ notation

/**
 * A parsed Depot action, for display and for building the UI from `legal` only.
 * @typedef {{kind: "play", cards: number[], text: string} | {kind: "pass", take: number | null, give: number | null, text: string}} ParsedAction
 */

/**
 * Read Depot notation (notation, not rules).
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

/** @param {number[]} values @returns {string} "play 3 4 5" */
export function playNotation(values) {
  return `play ${[...values].sort((a, b) => a - b).join(" ")}`;
}

/** @param {number | null} take @param {number | null} give @returns {string} "pass take 5 give 3" … */
export function passNotation(take, give) {
  return ["pass", take != null && `take ${take}`, give != null && `give ${give}`].filter(Boolean).join(" ");
}

// ------------------------------------------------------------------ words

/** @param {number} v @returns {string} "a 5", "an 8" */
const article = (v) => `${v === 8 ? "an" : "a"} ${v}`;
/** @param {number[]} xs */
const unique = (xs) => [...new Set(xs)].sort((a, b) => a - b);
/** @param {number[]} xs */
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * "the 4", "both 5s", "all three 2s": the cards of one value taken from the Storage.
 * @param {number} v
 * @param {number} k how many
 */
export function takenWords(v, k) {
  if (k <= 1) return `the ${v}`;
  return k === 2 ? `both ${v}s` : `all ${numberWord(k)} ${v}s`;
}

/**
 * A last action in words, for the seat's badge. How many cards a pass took is not in
 * the action, so it is read from the newest narration line of that pass.
 * @param {string} action
 * @param {import("../lib/frame.js").Frame} [f]
 */
export function describeAction(action, f) {
  const a = parseAction(action);
  if (!a) return action;
  if (a.kind === "play") return `played ${a.cards.join(" ")}`;
  const parts = [];
  if (a.take != null) {
    const seat = f?.view.last_action?.seat;
    const lines = Array.isArray(f?.ctx.get("narration")) ? f.ctx.get("narration") : [];
    const said = seat == null ? null : [...lines].reverse().find((l) => String(l).startsWith(`${f.name(seat)} passes`));
    const m = said ? /takes (the \d|both \d+s|all \w+ \d+s) from the Storage/.exec(String(said)) : null;
    parts.push(m ? `took ${m[1]}` : `took from the Storage`);
  }
  if (a.give != null) parts.push(`gave ${article(a.give)}`);
  return parts.length ? `passed: ${parts.join(" and ")}` : "passed";
}

// ------------------------------------------------------------------ the layout

/**
 * @typedef {import("../lib/frame.js").Frame} Frame
 */

/**
 * Everything the Depot layout derives from a Frame once per draw.
 * @param {Frame} f
 */
function depotState(f) {
  const view = f.view;
  const plays = /** @type {Array<Extract<ParsedAction, {kind: "play"}> & {text: string}>} */ (f.moves.filter((m) => m.kind === "play"));
  const passes = /** @type {Array<Extract<ParsedAction, {kind: "pass"}> & {text: string}>} */ (f.moves.filter((m) => m.kind === "pass"));
  const actor = f.actor;
  const hand = actor != null && Array.isArray(view.hands?.[actor]) ? /** @type {number[]} */ (view.hands[actor]) : null;
  const local = f.local;
  local.selected ??= new Set();
  /** @type {{take?: number | null, give: number | null, giveIndex: number | null} | null} */
  const pass = f.canAct && passes.length ? local.pass ?? null : null;
  // Empty Storage: every legal pass takes nothing, so the flow starts at the give step.
  if (pass && pass.take === undefined && passes.every((p) => p.take === null)) pass.take = null;
  const stage = !pass ? null : pass.take === undefined ? "take" : "give";
  const takeOptions = unique(/** @type {number[]} */ (passes.map((p) => p.take).filter((t) => t != null)));
  const giveOptions = pass && pass.take !== undefined
    ? unique(/** @type {number[]} */ (passes.filter((p) => p.take === pass.take && p.give != null).map((p) => p.give)))
    : [];
  return { view, plays, passes, actor, hand, local, pass, stage, takeOptions, giveOptions, playValues: new Set(plays.flatMap((p) => p.cards)) };
}

/** @param {Frame} f */
function chips(f) {
  const v = f.view;
  return [
    h("span", { class: "cw-chip" }, `Round ${v.round}`),
    v.games > 1 ? h("span", { class: "cw-chip" }, `Game ${v.game_no} of ${v.games}`) : null,
    h("span", { class: "cw-chip cw-chip-target", title: "Storage target: refills aim for this many cards (rule D2.3)" },
      ["Target ", h("b", null, String(v.target))]),
  ];
}

/**
 * @param {Frame} f
 * @param {number} i
 */
function seatBadges(f, i) {
  const v = f.view;
  const n = v.hand_counts?.[i] ?? (v.hands?.[i]?.length ?? 0);
  const penalties = v.penalties?.[i] || [];
  return h("div", { class: "cw-seat-badges" }, [
    h("span", { class: "cw-count", title: `${count(n, "card", { none: "no cards" })} in hand` }, count(n, "card", { none: "no cards" })),
    v.standing && v.standing.owner === i
      ? h("span", { class: "cw-tag cw-tag-owner", title: "made the play to beat" }, "on the table") : null,
    v.games > 1
      ? h("span", { class: "cw-lost", title: `lost points this match${penalties.length ? `; penalty cards ${penalties.join(", ")}` : ""}` },
        [`lost ${v.lost_points?.[i] ?? 0}`, ...penalties.map((c) => renderCard(c, { size: "xs", tone: c, class: "cw-penalty" }))])
      : null,
  ]);
}

/** @param {Frame} f */
function felt(f) {
  const s = depotState(f);
  const { view, pass, stage, takeOptions } = s;
  const n = f.n;

  // ---- opponents (everyone in teacher view) ------------------------------------------
  const seats = othersInOrder(f).map((i) => {
    const cards = view.hands?.[i];
    return h("div", { class: seatClass(f, i, ["cw-opponent", view.standing?.owner === i && "cw-owner"]), "data-seat": i }, [
      h("div", { class: "cw-seat-top" }, [
        seatHead(f, i),
        Array.isArray(cards)
          ? h("div", { class: "cw-seat-cards cw-faceup" }, cards.map((c) => renderCard(c, { size: "xs", tone: c })))
          : h("div", { class: "cw-seat-cards" }, renderBacks(view.hand_counts?.[i] ?? 0, { size: "xs", max: 10 })),
      ]),
      h("div", { class: "cw-seat-info" }, [seatBadges(f, i), lastMoveBadge(f, i)]),
    ]);
  });
  const seatsRow = h("div", { class: "cw-seats", style: { "--cw-seat-count": seats.length } }, seats);

  // ---- Storage: eight value columns -------------------------------------------------------
  const storage = Array.isArray(view.storage) ? view.storage : [];
  const have = new Map();
  for (const c of storage) have.set(c, (have.get(c) || 0) + 1);
  const columns = VALUES.map((v) => {
    const k = have.get(v) || 0;
    const cards = [];
    for (let j = 0; j < k; j++) cards.push(renderCard(v, { size: "md", tone: v }));
    const takeable = stage !== null && takeOptions.includes(v);
    const chosen = pass?.take === v;
    const attrs = { class: ["cw-storage-col", k === 0 && "cw-empty", takeable && "cw-takeable", chosen && "cw-chosen"], "data-value": v };
    const body = [h("div", { class: "cw-stack" }, k ? cards : h("div", { class: "cw-slot", "aria-hidden": "true" }, String(v))),
      h("div", { class: "cw-col-count" }, k > 1 ? `×${k}` : "")];
    if (!takeable) return h("div", attrs, body);
    return h("button", {
      ...attrs, type: "button", "data-control": `take-${v}`, "aria-pressed": String(chosen),
      title: `Take ${takenWords(v, k)} from the Storage`,
      onClick: () => { s.local.pass = { take: v, give: null, giveIndex: null }; f.redraw(); },
    }, body);
  });
  // new Storage cards are refills: they come from the deck
  const storageEl = h("section", { class: ["cw-storage", stage === "take" && "cw-storage-choose"], "aria-label": "Storage", "data-motion-from": "deck" }, [
    h("div", { class: "cw-storage-head" }, [
      h("h3", { class: "cw-panel-title" }, "Storage"),
      h("div", { class: "cw-limits" }, [
        h("span", { class: "cw-limit", title: "largest set allowed: the most copies of one value in the Storage (rule D3.2)" },
          ["set limit ", h("b", { class: "cw-set-limit" }, String(view.set_limit))]),
        h("span", { class: "cw-limit", title: "longest run allowed: the longest chain of consecutive values in the Storage (rule D3.3)" },
          ["run limit ", h("b", { class: "cw-run-limit" }, String(view.run_limit))]),
        h("span", { class: "cw-limit cw-storage-count" }, storage.length ? count(storage.length, "card") : "empty"),
      ]),
    ]),
    h("div", { class: "cw-storage-cols" }, columns),
  ]);

  // ---- the play to beat ------------------------------------------------------------------------
  const standing = view.standing;
  const pips = [];
  for (let j = 0; j < n - 1; j++) pips.push(h("span", { class: ["cw-pip", j < (view.passes || 0) && "cw-pip-on"] }));
  const standingEl = h("section", { class: ["cw-standing", !standing && "cw-standing-empty"], "aria-label": "Standing play" }, [
    h("h3", { class: "cw-panel-title" }, standing ? "To beat" : "Table"),
    standing
      ? [h("div", { class: "cw-standing-cards" }, standing.cards.map((c) => renderCard(c, { size: "md", tone: c }))),
        h("div", { class: "cw-standing-meta" }, [
          h("span", { class: "cw-standing-owner" }, f.you(standing.owner) ? "your play" : `${f.name(standing.owner)}'s play`),
          h("span", { class: "cw-muted" }, ` · ${standing.cards.length === 1 ? "1 card" : `${standing.cards.length} cards, total ${sum(standing.cards)}`}`),
        ])]
      : h("div", { class: "cw-standing-none" }, f.finished ? "" : f.you(f.current) ? "empty: you lead" : `empty: ${f.name(f.current)} leads`),
    n > 1 ? h("div", { class: "cw-passes", title: `${count(view.passes || 0, "pass", { plural: "passes", none: "no passes" })} in a row; ${n - 1} in a row end the round (rule D7.1)` },
      [h("span", { class: "cw-muted" }, "passes "), ...pips]) : null,
  ]);

  // ---- deck and discard ---------------------------------------------------------------------------
  const discard = Array.isArray(view.discard) ? view.discard : [];
  const discardCounts = VALUES.map((v) => discard.filter((x) => x === v).length);
  const most = Math.max(1, ...discardCounts);
  const deckCount = view.deck_count ?? 0;
  const piles = h("div", { class: "cw-piles" }, [
    h("div", { class: "cw-deck", "data-deck-anchor": true, title: deckCount ? `${count(deckCount, "card")} in the deck, face down` : "the deck is empty" }, [
      h("div", { class: "cw-pile" }, deckCount > 0 ? renderBacks(Math.min(3, deckCount), { size: "sm", max: 3 }) : h("div", { class: "cw-slot" }, "")),
      h("div", { class: "cw-pile-label" }, [h("span", null, "Deck"), h("b", { class: "cw-deck-count" }, String(deckCount))]),
    ]),
    h("div", { class: "cw-discard", title: discard.length ? `Discard pile (face up): ${discard.join(", ")}` : "the discard pile is empty" }, [
      h("div", { class: "cw-histogram", "aria-hidden": "true" }, VALUES.map((v, j) =>
        h("span", { class: "cw-bar", "data-tone": v, style: { height: `${Math.round((discardCounts[j] / most) * 100)}%` } }))),
      h("div", { class: "cw-pile-label" }, [h("span", null, "Discard"), h("b", { class: "cw-discard-count" }, String(discard.length))]),
    ]),
  ]);

  return [seatsRow, h("div", { class: "cw-centre" }, [storageEl, standingEl, piles])];
}

/**
 * The positions in `hand` that make up a play (first copies of each value).
 * @param {number[]} hand
 * @param {number[]} cards
 * @returns {Set<number> | null}
 */
function positionsOf(hand, cards) {
  const used = new Set();
  for (const c of cards) {
    const i = hand.findIndex((v, j) => v === c && !used.has(j));
    if (i < 0) return null;
    used.add(i);
  }
  return used;
}

/** @param {Frame} f */
function player(f) {
  const s = depotState(f);
  const { view, plays, passes, actor, hand, local, pass, stage, giveOptions, playValues } = s;
  if (actor == null) return null;
  const live = f.canAct;
  /** @type {Set<number>} */
  const selected = local.selected;
  const handEl = hand === null
    ? renderBacks(view.hand_counts?.[actor] ?? 0, { size: "sm" })
    : renderHand({
        cards: hand,
        size: "lg",
        label: f.teacher ? `${f.name(actor)}'s hand` : "your hand",
        empty: f.finished ? "no cards left" : "no cards in hand",
        tone: (v) => v,
        selected: stage === "give" && pass?.giveIndex != null ? new Set([pass.giveIndex]) : stage ? new Set() : selected,
        isPlayable: (v) => live && (stage ? giveOptions.includes(Number(v)) : playValues.has(Number(v))),
        isDimmed: (v) => live && (stage ? !giveOptions.includes(Number(v)) : !playValues.has(Number(v))),
        onToggle: !live ? undefined : (i, v) => {
          if (stage === "take") return;
          if (stage === "give" && pass) {
            if (!giveOptions.includes(Number(v))) return;
            if (pass.giveIndex === i) { pass.give = null; pass.giveIndex = null; } else { pass.give = Number(v); pass.giveIndex = i; }
          } else {
            local.selected = toggled(selected, i);
          }
          f.redraw();
        },
      });
  // why a card that is not playable is not (Python's refusals, when it sends them)
  if (hand && live && !stage) {
    for (const el of handEl.querySelectorAll("[data-card].cw-dimmed")) {
      const why = f.refusals[`play ${el.getAttribute("data-card")}`];
      if (why) el.setAttribute("title", why);
    }
  }
  const selValues = /** @type {number[]} */ ([...selected].map((i) => hand?.[i]).filter((v) => v != null)).sort((a, b) => a - b);
  const selAction = selValues.length ? playNotation(selValues) : null;
  const selLegal = selAction !== null && f.legal.includes(selAction);
  const leaderMustPlay = plays.length > 0 && passes.length === 0;

  /** @type {import("../lib/dom.js").Child} */
  let controls;
  if (!pass) {
    let hint = "";
    if (live) {
      // Python's reason for a refused selection when it sent one (refusals), else a generic word
      if (selAction) hint = selLegal ? `Ready: ${selAction}.` : f.refusals[selAction] ?? `${selAction} is not a legal play now. Play it to see which rule it breaks.`;
      else if (leaderMustPlay) hint = "You lead: select cards (or a legal move below), then Play.";
      else if (plays.length) hint = "Select cards that beat the play on the table, then Play; or Pass.";
      else if (passes.length) hint = "Nothing in your hand beats the play on the table: you pass.";
    }
    controls = [
      h("button", {
        type: "button", class: ["cw-btn", "cw-btn-primary", selAction && !selLegal && "cw-btn-warn"],
        "data-control": "play", "data-action": selAction, disabled: !live || !selAction,
        title: selAction ? (selLegal ? selAction : `${selAction} is not a legal move now: play it to hear why`) : "select cards in your hand first",
        onClick: () => { if (selAction) f.act(selAction); },
      }, selAction ? ["Play ", h("span", { class: "cw-btn-cards" }, selValues.join(" "))] : "Play"),
      h("button", {
        type: "button", class: "cw-btn", "data-control": "pass", disabled: !live || !passes.length,
        title: passes.length ? "Pass: take a value from the Storage, then give one card if you like"
          : leaderMustPlay ? "the leader must play (rule D5.3)" : "you cannot pass now",
        onClick: () => { local.pass = { take: undefined, give: null, giveIndex: null }; local.selected = new Set(); f.redraw(); },
      }, "Pass…"),
      selValues.length ? h("button", {
        type: "button", class: "cw-btn cw-btn-quiet", "data-control": "clear-selection",
        onClick: () => { local.selected = new Set(); f.redraw(); },
      }, "Clear") : null,
      h("span", { class: ["cw-hint", "cw-hint-line", selAction && !selLegal && "cw-hint-warn"], title: hint || null }, withRuleIds(hint)),
    ];
  } else {
    const action = stage === "give" ? passes.find((p) => p.take === pass.take && p.give === pass.give)?.text ?? null : null;
    const k = pass.take != null ? (view.storage || []).filter((c) => c === pass.take).length : 0;
    const taking = pass.take != null ? `Taking ${takenWords(/** @type {number} */ (pass.take), k)}` : "The Storage is empty, so you take nothing";
    controls = [
      h("button", {
        type: "button", class: "cw-btn cw-btn-primary", "data-control": "confirm-pass", "data-action": action,
        disabled: !action, onClick: () => { if (action) f.act(action); },
      }, "Confirm pass"),
      h("button", { type: "button", class: "cw-btn", "data-control": "cancel", onClick: () => { local.pass = null; f.redraw(); } }, "Cancel"),
      h("span", { class: "cw-hint cw-hint-step" },
        stage === "take"
          ? `Step 1 of 2: click a value in the Storage to take (${listWords(s.takeOptions)}).`
          : giveOptions.length
            ? `Step 2 of 2: ${taking}. Click a card in your hand to give${pass.give != null ? ` (giving ${article(pass.give)})` : " one, if you like"}, then confirm.`
            : `${taking}. Confirm the pass.`),
    ];
  }

  // a chip selects its play (the Play button sends it): it carries data-control, not data-action
  const moves = plays.map((p) => moveChip(f, {
    action: p.text, selected: selAction === p.text, select: true,
    title: `select ${p.cards.join(" ")} (${p.cards.length === 1 ? "1 card" : `${p.cards.length} cards, total ${sum(p.cards)}`}), then Play`,
    content: p.cards.map((c) => h("span", { class: "cw-move-pip", "data-tone": c }, String(c))),
    onClick: () => {
      // a legal move selects its cards; Play plays them (one way to play, as the notebook says)
      local.pass = null;
      local.selected = selAction === p.text || !hand ? new Set() : positionsOf(hand, p.cards) ?? new Set();
      f.redraw();
    },
  }));
  return {
    // the viewer's own seat (in teacher view every seat is in the row above)
    head: f.teacher ? undefined : h("div", { class: seatClass(f, actor, ["cw-self", "cw-player-head"]), "data-seat": actor }, [
      seatHead(f, actor), seatBadges(f, actor), lastMoveBadge(f, actor)]),
    hand: handEl,
    controls,
    moves,
    movesExtra: passes.length ? h("span", { class: "cw-legal-pass" }, passSummary(passes, plays.length > 0)) : null,
  };
}

/**
 * "or pass: take 2, 4 or 6, and give a card if you like".
 * @param {Array<{take: number | null, give: number | null}>} passes
 * @param {boolean} afterPlays
 */
export function passSummary(passes, afterPlays) {
  const takes = unique(/** @type {number[]} */ (passes.map((p) => p.take).filter((t) => t != null)));
  const canGive = passes.some((p) => p.give != null);
  const head = takes.length ? `pass: take the ${listWords(takes)}` : "pass (the Storage is empty)";
  const text = canGive ? `${head}, and give a card if you like` : head;
  return afterPlays ? `or ${text}` : `${text[0].toUpperCase()}${text.slice(1)}`;
}

/** @param {Frame} f */
function outcome(f) {
  const v = f.view;
  const o = v.outcome || {};
  const results = Array.isArray(v.results) ? v.results : [];
  const match = v.games > 1 && results.length > 0;
  return {
    headline: headline(f, o.winners || [], match ? "the match" : ""),
    columns: match ? [...results.map((r) => `Game ${r.game}`), "Lost points"] : ["Cards left"],
    order: [...Array(f.n).keys()].sort((a, b) => (o.scores?.[a] ?? 0) - (o.scores?.[b] ?? 0)),
    cells: (s) => match
      ? [...results.map((r) => r.taken?.[s] == null ? (r.ranking?.[0] === s ? "went out" : "—") : `took ${r.taken[s]}`), String(o.scores?.[s] ?? 0)]
      : [String(o.scores?.[s] ?? 0)],
    reason: o.reason ? `${o.reason[0].toUpperCase()}${o.reason.slice(1)}.` : "",
  };
}

/**
 * The end of one game of a match: ranking, penalty cards, lost points.
 * @param {Frame} f
 * @param {import("../lib/frame.js").Hold} hold
 */
function holdPanel(f, hold) {
  const results = Array.isArray(f.view.results) ? f.view.results : [];
  const r = results[results.length - 1];  // the game that just ended
  if (!r) return { title: "Paused", body: h("p", null, withRuleIds(hold.text)) };
  const before = results.length >= 2 ? results[results.length - 2].lost_points : null;
  const first = r.ranking[0];
  return {
    title: `Game ${r.game} of ${f.view.games} is over`,
    body: [
      // the table behind this panel already holds the next game: say so, so nothing disagrees
      Number(f.view.game_no) > Number(r.game) ? h("p", { class: "cw-hold-next", "data-game-no": f.view.game_no },
        `Game ${f.view.game_no} of ${f.view.games} is dealt: your new hand is ready.`) : null,
      h("p", { class: "cw-hold-lead" }, withRuleIds(`${f.you(first) ? "You" : f.name(first)} went out first (rule D8.1). The others take a penalty card from the Storage (rule D10.3).`)),
      h("table", { class: "cw-scores cw-game-end" }, [
        h("thead", null, h("tr", null, ["Place", "Player", "Cards left", "Penalty card", "Lost points"].map((t) => h("th", null, t)))),
        h("tbody", null, r.ranking.map((s, place) => {
          const took = r.taken?.[s];
          const gained = before ? r.lost_points[s] - before[s] : took ?? 0;
          return h("tr", { "data-seat": s, class: place === 0 && "cw-winner-row" }, [
            h("td", { class: "cw-place" }, ordinal(place + 1)),
            h("td", null, f.label(s)),
            h("td", null, r.cards_left?.[s] ? String(r.cards_left[s]) : "none"),
            h("td", null, place === 0 ? "none (went out)" : took == null ? "none left" : renderCard(took, { size: "xs", tone: took })),
            h("td", null, gained ? `${r.lost_points[s]} (+${gained})` : String(r.lost_points[s])),
          ]);
        })),
      ]),
    ],
  };
}

/** @type {import("../lib/frame.js").Layout} */
export const layout = {
  game: GAME,
  title: "Depot",
  logo: "◆",
  parse: parseAction,
  chips,
  felt,
  player,
  outcome,
  hold: holdPanel,
  describe: describeAction,
  // Storage cards that leave were taken by the player who passed; a play cleared from the table
  // goes to the discard pile
  motion: (f) => ({
    exitTo: (_card, old) => (old.closest(".cw-storage") && f.view.last_action
      ? f.ctx.root.querySelector(`.cw-felt [data-seat="${f.view.last_action.seat}"]`) ?? f.ctx.root.querySelector(".cw-player")
      : f.ctx.root.querySelector(".cw-discard")),
  }),
  overText: (f) => (f.view.games > 1 ? "Match over" : "Game over"),
  uiKey: (f) => [f.view.round, f.view.storage, f.actor != null ? f.view.hands?.[f.actor] : null],
  onKey(ev, f) {
    // Enter on a legal move that is already selected plays it (a first Enter selects it, like a click).
    if (ev.key === "Enter") {
      const el = /** @type {HTMLElement | null} */ (f.ctx.root.ownerDocument.activeElement);
      const move = el?.closest?.('[data-control="select-move"][aria-pressed="true"]')?.getAttribute("data-move");
      if (!move || !f.canAct || !f.legal.includes(move)) return false;
      f.act(move);
      return true;
    }
    // Escape leaves the pass flow, or else clears the selection.
    if (ev.key !== "Escape") return false;
    if (f.local.pass) f.local.pass = null;
    else if (f.local.selected?.size) f.local.selected = new Set();
    else return false;
    return true;
  },
};

export default gameWidget(layout);
