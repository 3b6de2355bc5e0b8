// The trick modes of Yadokarick: standard (3–7 players, standard or advanced card set) and duo
// (two players and the NPC). Drawn from the view only: a card is playable because its
// `play <card>` string is in `legal`, and Python explains every refusal.
import { h } from "../lib/dom.js";
import { renderCardBack } from "../lib/cards.js";
import { withRuleIds, count, listWords, ordinal, signed } from "../lib/text.js";
import { seatHead, seatClass, lastMoveBadge, othersInOrder, moveChip, headline, dots } from "../lib/frame.js";
import { deckOf, renderYkCard, renderHouse, renderPile, cardParts, arrangeNotation, playNotation } from "./cards.js";

/**
 * @typedef {import("../lib/frame.js").Frame} Frame
 * @typedef {import("./cards.js").Deck} Deck
 */

/** The house index of the NPC in a duo view (houses: player 0, player 1, NPC). */
export const NPC = 2;

/**
 * One place at the table: a player (seat) or, in duo, the NPC.
 * @typedef {{who: number, npc: boolean}} Place
 */

/**
 * Everything the trick layouts derive from a view once per draw.
 * @param {Frame} f
 */
export function trickModel(f) {
  const v = f.view;
  const duo = v.mode === "duo";
  const deck = deckOf(v);
  /** @param {string} label "A", "B" or "NPC" (duo views name the participants) */
  const whoOf = (label) => (label === "NPC" ? NPC : Math.max(0, (v.names || []).indexOf(label)));
  /** @type {number[]} */
  let order;
  if (duo) order = (Array.isArray(v.order) ? v.order : ["A", "NPC", "B"]).map(whoOf);
  else order = f.teacher ? [...Array(f.n).keys()] : [/** @type {number} */ (v.seat), ...othersInOrder(f)];
  /** @type {Array<{who: number, card: string}>} */
  const trick = (v.trick || []).map((t) => ({ who: duo ? whoOf(t.who) : Number(t.seat), card: String(t.card) }));
  const last = v.last_trick
    ? { leader: duo ? whoOf(v.last_trick.leader) : Number(v.last_trick.leader),
        cards: (v.last_trick.cards || []).map((t) => ({ who: duo ? whoOf(t.who) : Number(t.seat), card: String(t.card) })) }
    : null;
  const leader = duo ? whoOf(v.leader) : Number(v.leader ?? 0);
  // the seats in the order they play the trick, from its leader (table order, clockwise)
  const tableOrder = duo ? order : [...Array(f.n).keys()];
  const from = (/** @type {number} */ lead) => {
    const i = Math.max(0, tableOrder.indexOf(lead));
    return tableOrder.map((_, k) => tableOrder[(i + k) % tableOrder.length]);
  };
  const judged = !duo && (v.phase === "marker" || v.phase === "arrange");
  return {
    v, duo, deck, order, trick, last, leader, from, judged,
    target: Number(duo ? v.target ?? 0 : v.marker ?? 0),
    limit: Number(v.house_limit ?? 6),
    movers: new Set((v.movers || []).map(Number)),
    /** @param {number} who */
    name: (who) => (duo && who === NPC ? "NPC" : f.name(who)),
    /** @param {number} who */
    you: (who) => !(duo && who === NPC) && f.you(who),
    /** @param {number} who the name, with "(you)" for the viewer */
    label: (who) => (duo && who === NPC ? "NPC" : f.label(who)),
  };
}

/** @typedef {ReturnType<typeof trickModel>} TrickModel */

/**
 * Where a card of the last trick went: a house (or collapsed pile), the discard pile, or a captor
 * still arranging it. Read from the public zones of the view.
 * @param {TrickModel} m
 * @param {string} card
 * @returns {number | "discard" | null}
 */
export function whereWent(m, card) {
  const v = m.v;
  if ((v.discard || []).includes(card)) return "discard";
  const houses = v.houses || [];
  for (let i = 0; i < houses.length; i++) {
    if ((houses[i] || []).includes(card) || (v.collapsed?.[i] || []).includes(card)) return i;
  }
  if (v.arrange && (v.arrange.cards || []).includes(card)) return Number(v.arrange.seat);
  return null;
}

/**
 * How a house stands against the target: under, on, over (display only; the rules score it).
 * @param {number} size
 * @param {number} target
 */
export const standing = (size, target) => (size < target ? "under" : size === target ? "on" : "over");

// ------------------------------------------------------------------ header

/** @param {Frame} f */
export function trickChips(f) {
  const v = f.view;
  const m = trickModel(f);
  if (m.duo) {
    return [
      h("span", { class: "cw-chip", title: "two players and a virtual player, the NPC (rule Y13)" }, "Duo"),
      h("span", { class: "cw-chip" }, `Trick ${v.trick_no} of 10`),
      h("span", { class: "cw-chip cw-chip-target", title: "the target is the NPC's house size: come closest without going over it (rules Y13.9, Y13.10)" },
        ["Target ", h("b", { class: "cw-target-value" }, String(m.target)), " · NPC's house"]),
    ];
  }
  return [
    h("span", { class: "cw-chip" }, `Round ${v.round} of ${v.rounds}`),
    h("span", { class: "cw-chip" }, `Trick ${v.trick_no} of 10`),
    h("span", { class: "cw-chip cw-chip-target", title: "the value under the size marker: the target when the round is scored (rules Y7.1, Y10.1)" },
      ["Target ", h("b", { class: "cw-target-value" }, String(m.target))]),
    v.card_set === "advanced"
      ? h("span", { class: "cw-chip", title: "the reduced card set for this number of players (rule Y12.1)" }, "Advanced cards") : null,
  ];
}

/** @param {Frame} f */
export function trickTurnDetail(f) {
  const v = f.view;
  if (v.phase === "marker") return "\u00a0· moving the marker";
  if (v.phase === "arrange") return "\u00a0· arranging captured cards";
  return null;
}

// ------------------------------------------------------------------ the felt

/**
 * One crab: the player (or the NPC), the house on its body, the collapsed pile, the hand size.
 * @param {Frame} f
 * @param {TrickModel} m
 * @param {number} who
 */
function crabPanel(f, m, who) {
  const v = m.v;
  const npc = m.duo && who === NPC;
  const house = (v.houses?.[who] || []).map(String);
  const size = Number(v.house_sizes?.[who] ?? 0);
  const roofed = !!v.roofed?.[who];
  const state = npc ? "target" : standing(size, m.target);
  const collapsedCards = v.collapsed?.[who];
  const collapsedCount = Number(v.collapsed_counts?.[who] ?? 0);
  const collapsedSize = v.collapsed_sizes?.[who];
  const cards = !npc ? v.hands?.[who] : null;
  const handCount = Number(v.hand_counts?.[who] ?? (Array.isArray(cards) ? cards.length : 0));
  const targetWord = m.duo ? "the target (the NPC's house)" : "the target";
  const sizeTitle = npc
    ? `the NPC's house size ${size}: this is the target (rule Y13.9)`
    : `house size ${size}; ${targetWord} is ${m.target}: ${state === "on" ? "exactly on it" : state === "under" ? `${m.target - size} under` : `${size - m.target} over${m.duo ? " (bursts, rule Y13.10)" : ""}`}`;
  const badges = [];
  if (!f.finished && v.phase === "marker" && m.movers.has(who)) {
    badges.push(h("span", { class: "cw-badge cw-badge-mover", title: "played the lowest number: moves the marker (rules Y6.1, Y7.2)" },
      [h("span", { class: "cw-badge-long" }, "moves the "), "marker"]));
  }
  if (!f.finished && v.phase === "arrange" && v.arrange?.seat === who) {
    badges.push(h("span", { class: "cw-badge cw-badge-mover", title: "orders the captured cards (rule Y8.3)" }, "arranging"));
  }
  const head = npc
    ? h("div", { class: "cw-seat-head" }, [
      h("span", { class: "cw-avatar cw-avatar-npc", "aria-hidden": "true" }, "N"),
      h("span", { class: "cw-seat-name" }, "NPC"),
      h("span", { class: "cw-tag cw-tag-npc", title: "the virtual player: it plays the top card of its deck (rule Y13.5)" }, "virtual"),
    ])
    : seatHead(f, who, !m.duo && v.dealer === who && !f.finished
      ? h("span", { class: "cw-dealer", title: "dealt this round (rule Y2.6)" }, "dealer") : null);
  const side = [
    h("span", { class: "cw-hsize", "data-state": state, title: sizeTitle }, [h("span", { class: "cw-hsize-h" }, "H"), h("b", null, String(size))]),
    collapsedCount > 0
      ? h("div", {
        class: "cw-collapsed",
        title: `collapsed face down: ${Array.isArray(collapsedCards) ? collapsedCards.join(", ") : count(collapsedCount, "card")}`
          + `${collapsedSize != null ? ` (F = ${collapsedSize}${m.duo ? ", ignored in duo, rule Y13.9" : ", taken off the round score, rule Y10.3"})` : ""}`,
      }, [
        renderPile(collapsedCount, { max: 3, size: "xs" }),
        h("span", { class: "cw-fsize" }, collapsedSize != null ? ["F", h("b", null, String(collapsedSize))] : `×${collapsedCount}`),
      ])
      : null,
    npc
      ? h("div", { class: "cw-npc-deck", title: `the NPC's deck: ${count(Number(v.npc_deck_count ?? 0), "card")}, face down; the order is hidden (rule Y13.2)` }, [
        renderPile(Number(v.npc_deck_count ?? 0), { max: 3, size: "xs" }),
        h("span", { class: "cw-count cw-npc-deck-count" }, String(v.npc_deck_count ?? 0)),
      ])
      : h("span", { class: "cw-count cw-hand-count", title: `${count(handCount, "card", { none: "no cards" })} in hand` },
        [h("span", { class: "cw-count-word" }, "hand "), h("span", { class: "cw-mini-back", "aria-hidden": "true" }), String(handCount)]),
    !m.duo && Array.isArray(v.totals)
      ? h("span", { class: "cw-total", title: `total score so far (rule Y10.4)` }, ["Σ ", h("b", null, signed(v.totals[who] ?? 0))])
      : null,
  ];
  const faceUp = Array.isArray(cards) && !f.you(who) && !npc
    ? h("div", { class: "cw-seat-hand", role: "group", "aria-label": `${m.name(who)}'s hand` }, cards.map((c) => renderYkCard(String(c), m.deck, { size: "xs" })))
    : null;
  return h("div", {
    class: seatClass(f, npc ? -1 : who, ["cw-crab", npc && "cw-npc", roofed && "cw-crab-roofed",
      !f.finished && v.phase === "marker" && m.movers.has(who) && "cw-mover", `cw-state-${state}`]),
    "data-seat": npc ? null : who, "data-who": npc ? "npc" : who,
  }, [
    head,
    h("div", { class: "cw-crab-main" }, [
      renderHouse(house, m.deck, { limit: m.limit, roofed, label: `${m.you(who) ? "your" : `${m.name(who)}'s`} house, bottom to top` }),
      h("div", { class: "cw-crab-side" }, side),
    ]),
    faceUp,
    badges.length ? h("div", { class: "cw-seat-badges" }, badges) : null,
    npc || /^play /.test(String(v.last_action?.action ?? "")) ? null : lastMoveBadge(f, who),
  ]);
}

/**
 * The trick: the cards down so far in play order, with who played each, and a slot for each
 * player still to play. While the marker moves (or a captor arranges), the judged trick, with
 * where each card went.
 * @param {Frame} f
 * @param {TrickModel} m
 */
function trickPanel(f, m) {
  const v = m.v;
  const judged = m.judged && m.last;
  const lead = judged ? /** @type {NonNullable<typeof m.last>} */ (m.last).leader : m.leader;
  const cards = judged ? /** @type {NonNullable<typeof m.last>} */ (m.last).cards : m.trick;
  const seq = m.from(lead);
  const small = seq.length >= 6;  // six or seven cards: smaller ones, so the size track keeps its room
  const current = f.current;
  const slots = seq.map((who, k) => {
    const played = cards[k];
    const isNow = !judged && !f.finished && !played && k === cards.length && who === current && !(m.duo && who === NPC);
    const went = judged && played ? whereWent(m, played.card) : null;
    const mover = judged && m.movers.has(who) && v.phase === "marker";
    return h("div", {
      class: ["cw-trick-slot", played && "cw-played", isNow && "cw-slot-now", mover && "cw-slot-mover",
        m.you(who) && "cw-slot-you", m.duo && who === NPC && "cw-slot-npc"],
      "data-who": m.duo && who === NPC ? "npc" : who,
    }, [
      played
        ? renderYkCard(played.card, m.deck, { size: small ? "sm" : "md", class: [k === 0 && "cw-lead-card", went === "discard" && "cw-discarded"] })
        : h("div", { class: "cw-slot", "aria-hidden": "true" }, isNow ? dots() : ""),
      h("span", { class: "cw-slot-name" }, [m.label(who), k === 0 ? h("span", { class: "cw-lead-mark", title: "led this trick" }, " ▸") : null]),
      went != null
        ? h("span", { class: ["cw-went", went === "discard" && "cw-went-discard"], title: went === "discard" ? "nobody captured it: discarded (rule Y6.3)" : `captured by ${m.name(went)}` },
          went === "discard" ? "discard" : `→ ${m.label(went)}`)
        : mover ? h("span", { class: "cw-went cw-went-mover" }, "lowest") : null,
    ]);
  });
  const title = judged ? `Trick ${v.trick_no} · judged` : `Trick ${v.trick_no}`;
  return h("section", { class: ["cw-trick", judged && "cw-trick-judged", small && "cw-trick-small"], "aria-label": "Trick", style: { "--slots": seq.length } }, [
    h("div", { class: "cw-trick-head" }, [
      h("h3", { class: "cw-panel-title" }, title),
      h("span", { class: "cw-trick-note" }, judged
        ? (v.phase === "marker" ? "the lowest number moves the marker" : "captured cards are being arranged")
        : cards.length ? `${cards.length} of ${seq.length} down` : f.finished ? "" : `${m.label(m.leader)} leads`),
    ]),
    h("div", { class: "cw-trick-cards" }, slots),
  ]);
}

/**
 * The last judged trick in one line: each card and where it went.
 * @param {TrickModel} m
 */
function lastTrickLine(m) {
  if (!m.last || m.judged) return null;
  return h("div", { class: "cw-last-trick", role: "group", "aria-label": "Last trick" }, [
    h("span", { class: "cw-last-title" }, "Last trick"),
    ...m.last.cards.map((t) => {
      const went = whereWent(m, t.card);
      return h("span", { class: "cw-last-card", title: `${m.name(t.who)} played ${t.card}; ${went === "discard" ? "discarded" : went == null ? "captured" : `captured by ${m.name(went)}`}` }, [
        h("span", { class: "cw-last-who" }, m.label(t.who)),
        renderYkCard(t.card, m.deck, { size: "xs", class: went === "discard" && "cw-discarded", attrs: { "data-motion": "static" } }),
        went === "discard" || went == null ? null : h("span", { class: "cw-went" }, `→${m.label(went)}`),
      ]);
    }),
  ]);
}

/**
 * The size track with the marker (standard): each value a cell; the houses' sizes as dots under it.
 * In the marker step the cells one step either side (and the marker's own) send the move.
 * @param {Frame} f
 * @param {TrickModel} m
 */
function trackPanel(f, m) {
  const v = m.v;
  const [lo, hi] = Array.isArray(v.size_track) ? v.size_track.map(Number) : [1, 21];
  const marker = Number(v.marker);
  const moving = f.canAct && v.phase === "marker";
  const cells = [];
  const houses = [];
  const at = new Map();
  for (let s = 0; s < f.n; s++) {
    const size = Number(v.house_sizes?.[s] ?? 0);
    if (size < lo) continue;
    const key = Math.min(size, hi);
    at.set(key, [...(at.get(key) || []), s]);
  }
  for (let val = lo; val <= hi; val++) {
    const dir = val === marker - 1 ? "left" : val === marker + 1 ? "right" : val === marker ? "stay" : null;
    const action = moving && dir && f.legal.includes(`move ${dir}`) ? `move ${dir}` : null;
    const attrs = {
      class: ["cw-track-cell", val === marker && "cw-marker-here", action && "cw-track-option", action && `cw-track-${dir}`],
      "data-value": val, style: { "grid-column": val - lo + 1 },
    };
    cells.push(action
      ? h("button", { ...attrs, type: "button", "data-action": action, title: dir === "stay" ? `leave the marker on ${val}` : `move the marker ${dir} to ${val}`, onClick: () => f.act(/** @type {string} */ (action)) },
        [String(val), val === marker ? h("span", { class: "cw-marker", "aria-hidden": "true" }) : null])
      : h("span", { ...attrs, title: val === marker ? `the marker is on ${val}: the target` : null },
        [String(val), val === marker ? h("span", { class: "cw-marker", "aria-hidden": "true" }) : null]));
    const here = at.get(val);
    if (here) {
      houses.push(h("span", { class: "cw-track-houses", style: { "grid-column": val - lo + 1 }, title: here.map((s) => `${f.name(s)}: house ${v.house_sizes[s]}`).join(", ") },
        here.map((s) => h("span", { class: ["cw-house-dot", f.you(s) && "cw-house-dot-you"], "data-seat-tone": s % 5 }, f.name(s)[0] || "?"))));
    }
  }
  const movers = [...m.movers];
  const caption = v.phase === "marker" && !f.finished
    ? `${listWords(movers.map((s) => f.label(s)), "then")} ${movers.length === 1 ? "moves" : "move"} the marker one step, or leave it (rule Y7.2)`
    : null;
  return h("section", { class: ["cw-track", moving && "cw-track-moving"], "aria-label": "Size track" }, [
    h("div", { class: "cw-track-head" }, [
      h("h3", { class: "cw-panel-title" }, "Size track"),
      h("span", { class: "cw-track-target", title: "the value under the marker is the target when the round is scored; the marker starts each round on the same value (rules Y1.5, Y7.1, Y10.1)" },
        ["target ", h("b", null, String(marker))]),
    ]),
    h("div", { class: "cw-track-cells", style: { "--cells": hi - lo + 1 } }, [...cells, ...houses]),
    caption ? h("div", { class: "cw-track-caption" }, withRuleIds(caption)) : null,
  ]);
}

/**
 * Duo: the target panel: the NPC's house size, and what the NPC has left.
 * @param {Frame} f
 * @param {TrickModel} m
 */
function duoPanel(f, m) {
  const v = m.v;
  return h("section", { class: "cw-duo-target", "aria-label": "Target" }, [
    h("div", { class: "cw-track-head" }, [
      h("h3", { class: "cw-panel-title" }, "Target"),
      h("span", { class: "cw-track-target" }, ["NPC's house ", h("b", { class: "cw-duo-target-value" }, String(m.target))]),
    ]),
    h("div", { class: "cw-duo-explain" }, withRuleIds(
      `After trick 10, the house closest to it without going over wins; over it, a house bursts (rules Y13.9, Y13.10). `
      + `The NPC plays the top card of its deck, ${count(Number(v.npc_deck_count ?? 0), "card")} left (rule Y13.5).`)),
  ]);
}

/** @param {Frame} f */
export function trickFelt(f) {
  const m = trickModel(f);
  const crabs = h("div", { class: "cw-seats cw-crabs", "data-count": m.order.length, style: { "--cw-seat-count": m.order.length } },
    m.order.map((who) => crabPanel(f, m, who)));
  return [
    crabs,
    h("div", { class: "cw-centre" }, [
      trickPanel(f, m),
      h("div", { class: "cw-centre-side" }, [m.duo ? duoPanel(f, m) : trackPanel(f, m), lastTrickLine(m)]),
    ]),
  ];
}

// ------------------------------------------------------------------ the player area

const MOVE_WORDS = { left: "◀ Left", stay: "Stay", right: "Right ▶" };

/**
 * The marker step: left, stay, right (each one disabled with Python's reason when it leaves the track).
 * @param {Frame} f
 * @param {TrickModel} m
 */
function markerControls(f, m) {
  const marker = Number(m.v.marker);
  return h("div", { class: "cw-marker-controls", role: "group", "aria-label": "Move the marker" }, ["left", "stay", "right"].map((dir) => {
    const action = `move ${dir}`;
    const ok = f.legal.includes(action);
    const to = dir === "left" ? marker - 1 : dir === "right" ? marker + 1 : marker;
    return h("button", {
      type: "button", class: ["cw-btn", dir === "stay" ? "cw-btn-quiet-border" : "cw-btn-primary"],
      "data-control": `move-${dir}`, "data-action": ok ? action : null, disabled: !ok, title: ok ? (dir === "stay" ? `leave the marker on ${marker}` : `move the marker to ${to}`) : f.refusals[action] ?? `${action} is not allowed here`,
      onClick: () => f.act(action),
    }, [MOVE_WORDS[dir], h("span", { class: "cw-btn-sub" }, ` ${to}`)]);
  }));
}

/**
 * The arrange step (placement_order="choose"): click the captured cards bottom first, then Place.
 * @param {Frame} f
 * @param {TrickModel} m
 */
function arrangeControls(f, m) {
  const cards = (m.v.arrange?.cards || []).map(String);
  /** @type {string[]} */
  const picked = (f.local.arrange ??= []).filter((c) => cards.includes(c));
  const action = picked.length === cards.length ? arrangeNotation(picked) : null;
  const ok = action != null && f.legal.includes(action);
  return [
    h("div", { class: "cw-arrange", role: "group", "aria-label": "Order the captured cards, bottom first" },
      cards.map((c) => {
        const at = picked.indexOf(c);
        return h("span", { class: "cw-arrange-slot" }, [
          renderYkCard(c, m.deck, {
            size: "xs", selected: at >= 0, attrs: { "data-control": "arrange-pick" },
            onClick: () => {
              f.local.arrange = at >= 0 ? picked.filter((x) => x !== c) : [...picked, c];
              f.redraw();
            },
          }),
          h("span", { class: "cw-arrange-pos" }, at >= 0 ? ordinal(at + 1) : ""),
        ]);
      })),
    h("button", {
      type: "button", class: "cw-btn cw-btn-primary", "data-control": "arrange", "data-action": ok ? action : null,
      disabled: !ok, onClick: () => { if (ok && action) f.act(action); },
      title: ok ? action : "click every captured card, the bottom one first",
    }, "Place"),
    picked.length ? h("button", { type: "button", class: "cw-btn cw-btn-quiet", "data-control": "arrange-reset",
      onClick: () => { f.local.arrange = []; f.redraw(); } }, "Reset") : null,
    h("span", { class: "cw-hint cw-hint-step" }, withRuleIds(`Click the ${count(cards.length, "captured card")} in the order they go on your house, bottom first (rule Y8.3).`)),
  ];
}

/** @param {Frame} f */
export function trickPlayer(f) {
  const m = trickModel(f);
  const v = m.v;
  const actor = f.actor;
  if (actor == null) return null;
  const hand = Array.isArray(v.hands?.[actor]) ? v.hands[actor].map(String) : null;
  const live = f.canAct;
  const playable = new Set(f.moves.filter((p) => p.kind === "play").map((p) => p.card));
  const handEl = hand === null
    ? h("div", { class: "cw-hand" }, Array.from({ length: Number(v.hand_counts?.[actor] ?? 0) }, () => renderCardBack({ size: "md" })))
    : h("div", { class: "cw-hand", role: "group", "aria-label": f.teacher ? `${f.name(actor)}'s hand` : "your hand" },
      hand.length ? hand.map((c, i) => {
        const ok = playable.has(c);
        const why = live && !ok ? f.refusals[playNotation(c)] : undefined;
        return renderYkCard(c, m.deck, {
          size: "lg", playable: live && ok, dimmed: live && !ok,
          title: why ?? (live && ok ? `play ${c} (size ${m.deck.sizes[c]}${m.deck.roofs.has(c) ? ", a roof" : ""})` : undefined),
          attrs: { "data-index": i, "data-action": live && ok ? playNotation(c) : null, "data-refusal": why ? "" : null },
          // one click = one card; a card that is not allowed now is sent too, so Python explains why not
          onClick: live ? () => f.act(playNotation(c)) : undefined,
        });
      }) : h("span", { class: "cw-hand-empty cw-muted" }, f.finished ? "no cards left" : "no cards in hand"));

  /** @type {import("../lib/dom.js").Child} */
  let controls = null;
  if (live && v.phase === "marker") {
    const text = `House ${v.house_sizes?.[actor] ?? 0}, target ${m.target}: move the marker one step, or leave it (rule Y7.2).`;
    controls = [markerControls(f, m), h("span", { class: "cw-hint cw-hint-step cw-hint-line", title: `you played the lowest number. ${text}` }, withRuleIds(text))];
  } else if (live && v.phase === "arrange") {
    controls = arrangeControls(f, m);
  } else if (live) {
    const size = Number(v.house_sizes?.[actor] ?? 0);
    const roofed = !!v.roofed?.[actor];
    controls = h("span", { class: "cw-hint cw-hint-line" }, withRuleIds(
      `Click a card to play it: any card may be played (rule ${m.duo ? "Y13.5" : "Y4.2"}). `
      + (roofed ? "Your house has a roof: cards you capture now are discarded (rule Y8.6)."
        : `Your house is ${size}, the target ${m.target}${m.duo ? " (the NPC's house, still growing)" : ""}.`)));
  }
  // a number held in both colours is named with its colour too: colour alone does not tell them apart
  const numbers = f.moves.filter((p) => p.kind === "play").map((p) => cardParts(p.card).number);
  const twice = new Set(numbers.filter((x, i) => numbers.indexOf(x) !== i));
  const moves = f.moves.filter((p) => p.kind !== "arrange").map((p) => {
    if (p.kind === "play") {
      const { letter, number } = cardParts(p.card);
      return moveChip(f, {
        action: p.text, title: `${p.text}: size ${m.deck.sizes[p.card] ?? "?"}${m.deck.roofs.has(p.card) ? ", a roof" : ""}`,
        content: h("span", { class: "cw-move-pip", "data-tone": letter }, twice.has(number) ? p.card : String(number)),
        onClick: () => f.act(p.text),
      });
    }
    return moveChip(f, { action: p.text, content: h("span", { class: "cw-move-word" }, p.kind === "move" ? MOVE_WORDS[p.dir] : p.text), onClick: () => f.act(p.text) });
  });
  const arranging = f.moves.some((p) => p.kind === "arrange");
  return {
    hand: handEl,
    controls,
    moves,
    movesExtra: arranging ? h("span", { class: "cw-legal-pass" }, `any order of the ${count((v.arrange?.cards || []).length, "captured card")}`) : null,
  };
}

// ------------------------------------------------------------------ round end and result

/**
 * One scored round (standard): each house against the target, the collapsed cards, the round score
 * and the total, best round first.
 * @param {Frame} f
 * @param {Record<string, any>} r the round's record (`view.results[i]`)
 * @param {number[]} totals the totals after it
 */
function roundTable(f, r, totals) {
  const t = Number(r.target);
  const order = [...Array(f.n).keys()].sort((a, b) => (r.scores[b] ?? 0) - (r.scores[a] ?? 0));
  return h("table", { class: "cw-scores cw-round-end", "data-round": r.round }, [
    h("thead", null, h("tr", null, ["Player", "House", "vs target", "Collapsed", "Round", "Total"].map((x) => h("th", null, x)))),
    h("tbody", null, order.map((s) => {
      const hs = Number(r.house_sizes[s] ?? 0);
      const st = standing(hs, t);
      return h("tr", { "data-seat": s, class: r.scores[s] === Math.max(...r.scores) && "cw-round-best" }, [
        h("td", { class: "cw-player-cell" }, f.label(s)),
        h("td", null, String(hs)),
        h("td", { class: `cw-vs cw-vs-${st}` }, st === "on" ? "on target" : st === "under" ? `${t - hs} under` : `${hs - t} over`),
        h("td", null, r.collapsed_sizes[s] ? signed(-r.collapsed_sizes[s]) : "—"),
        h("td", { class: "cw-round-score" }, signed(r.scores[s])),
        h("td", null, signed(totals[s] ?? "")),
      ]);
    })),
  ]);
}

/** @param {number} t the target */
const scoringNote = (t) => `The marker ended on ${t}: that is the target (rule Y10.1). Under it a house scores its size, exactly on it +5, over it minus the excess; collapsed cards always count against (rules Y10.2, Y10.3).`;

/**
 * The end of a round (standard): the target, each house, collapsed size, round score and total.
 * @param {Frame} f
 * @param {import("../lib/frame.js").Hold} hold
 */
export function trickHold(f, hold) {
  const v = f.view;
  const results = Array.isArray(v.results) ? v.results : [];
  const r = results[results.length - 1];  // the round that just ended (the view's records)
  if (!r) return { title: "Paused", body: h("p", null, withRuleIds(hold.text)) };
  return {
    title: `Round ${r.round} of ${v.rounds} is over`,
    body: [
      // the table behind this panel already holds the next round: say so, so nothing disagrees
      Number(v.round) > Number(r.round) ? h("p", { class: "cw-hold-next", "data-round": v.round },
        `Round ${v.round} of ${v.rounds} is dealt: your new hand is ready.`) : null,
      h("p", { class: "cw-hold-lead" }, withRuleIds(scoringNote(Number(r.target)))),
      roundTable(f, r, v.totals || []),
    ],
  };
}

/** @param {Frame} f */
export function trickOutcome(f) {
  const v = f.view;
  const o = v.outcome || { winners: [], scores: [], reason: "" };
  const winners = (o.winners || []).map(Number);
  const reason = o.reason ? `${o.reason[0].toUpperCase()}${o.reason.slice(1)}.` : "";
  if (v.mode === "duo") {
    const t = Number(v.target ?? 0);
    return {
      headline: winners.length === 2 ? "A draw" : headline(f, winners),
      columns: ["House", "vs target"],
      order: [0, 1].sort((a, b) => Number(winners.includes(b)) - Number(winners.includes(a))),
      cells: (s) => {
        const hs = Number(o.scores?.[s] ?? v.house_sizes?.[s] ?? 0);
        const st = standing(hs, t);
        return [String(hs), h("span", { class: `cw-vs cw-vs-${st}` }, st === "on" ? "on target" : st === "under" ? `${t - hs} under` : `${hs - t} over: bursts`)];
      },
      extra: h("p", { class: "cw-outcome-target" }, ["Target: the NPC's house, ", h("b", null, String(t))]),
      reason,
    };
  }
  const results = Array.isArray(v.results) ? v.results : [];
  const final = results[results.length - 1];
  return {
    headline: headline(f, winners),
    columns: [...results.map((r) => `R${r.round}`), "Total"],
    order: [...Array(f.n).keys()].sort((a, b) => (o.scores?.[b] ?? 0) - (o.scores?.[a] ?? 0)),
    cells: (s) => [...results.map((r) => signed(r.scores?.[s] ?? "")), h("b", null, signed(o.scores?.[s] ?? 0))],
    // the last round is scored here too, as every round before it was at its end
    extra: final ? h("section", { class: "cw-final-round", "aria-label": `Round ${final.round} scored` }, [
      h("h4", { class: "cw-final-round-title" }, `Round ${final.round} of ${v.rounds}, scored`),
      h("p", { class: "cw-hold-lead" }, withRuleIds(scoringNote(Number(final.target)))),
      roundTable(f, final, o.scores || v.totals || []),
    ]) : null,
    reason,
  };
}

