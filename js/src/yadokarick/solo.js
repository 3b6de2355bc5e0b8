// The solo puzzle of Yadokarick: the row of five, the four crabs A–D, two decks, the score and
// penalty piles. Placing is two clicks: a row card, then a crab (every crab that takes it glows and
// carries `data-action="place <card> <crab>"`). Drawn from the view only: what is legal comes from
// `legal`, why something is not from `refusals`, and the hint from `view.hint` (Python's).
import { h } from "../lib/dom.js";
import { withRuleIds, count, signed } from "../lib/text.js";
import { moveChip } from "../lib/frame.js";
import { deckOf, renderYkCard, renderHouse, renderPile, placeNotation, sizeSum, cardParts } from "./cards.js";

/**
 * @typedef {import("../lib/frame.js").Frame} Frame
 */

export const CRABS = ["A", "B", "C", "D"];

/** What each crab takes, in words (the colour rule, Y14.5). */
const COLOUR_RULE = {
  A: { short: "green", empty: "any green card", long: "crab A takes green cards only (rule Y14.5)" },
  B: { short: "alternate", empty: "any card", long: "crab B takes either colour while empty, then the colours must alternate (rule Y14.5)" },
  C: { short: "alternate", empty: "any card", long: "crab C takes either colour while empty, then the colours must alternate (rule Y14.5)" },
  D: { short: "pink", empty: "any pink card", long: "crab D takes pink cards only (rule Y14.5)" },
};

/**
 * Everything the solo layout derives from a Frame once per draw.
 * @param {Frame} f
 */
export function soloModel(f) {
  const v = f.view;
  const deck = deckOf(v);
  const phase = String(v.phase);
  const places = f.moves.filter((p) => p.kind === "place");
  const row = (v.row || []).map(String);
  /** @type {string | null} */
  const sel = f.canAct && phase === "turn" && row.includes(f.local.sel) ? f.local.sel : null;
  const hint = v.hint && typeof v.hint === "object" && f.canAct ? v.hint : null;
  const shownHint = hint && f.local.hint ? hint : null;
  const hinted = shownHint ? /** @type {any} */ (f.layout.parse(String(shownHint.action))) : null;
  return {
    v, deck, phase, row, places, sel, hint, shownHint, hinted,
    complete: Number(v.house_complete ?? 7),
    /** @param {string} card the crabs that take it now */
    fits: (card) => places.filter((p) => p.card === card).map((p) => p.crab),
  };
}

/** @typedef {ReturnType<typeof soloModel>} SoloModel */

// ------------------------------------------------------------------ header

/** @param {Frame} f */
export function soloChips(f) {
  const v = f.view;
  return [
    h("span", { class: "cw-chip", title: "the solo puzzle (rule Y14)" }, "Solo"),
    h("span", { class: "cw-chip" }, `Turn ${Number(v.turns ?? 0) + (f.finished ? 0 : 1)}`),
    h("span", { class: "cw-chip cw-chip-target", title: "score pile minus penalty pile, in house sizes (rule Y14.14)" },
      ["Score ", h("b", { class: "cw-solo-score" }, signed(v.score ?? 0))]),
  ];
}

/** @param {Frame} f */
export function soloTurnDetail(f) {
  const phase = f.view.phase;
  if (phase === "setup" || phase === "setup_color") return "\u00a0· lay out the first row";
  if (phase === "refill") return "\u00a0· refill the row";
  if (phase === "bonus") return "\u00a0· bonus on offer";
  return null;
}

// ------------------------------------------------------------------ the felt

/**
 * One crab: its colour rule, roof mode, the stack, and the give-up button. While a row card is
 * selected, the crab is the target of the second click.
 * @param {Frame} f
 * @param {SoloModel} m
 * @param {number} k
 */
function crabPanel(f, m, k) {
  const v = m.v;
  const crab = CRABS[k];
  const stack = (v.crabs?.[k] || []).map(String);
  const roof = !!v.roof_mode?.[k];
  const worth = sizeSum(m.deck, stack);
  const action = m.sel ? placeNotation(m.sel, crab) : null;
  const ok = action != null && f.legal.includes(action);
  const why = action != null && !ok ? f.refusals[action] ?? `${m.sel} cannot go on crab ${crab} now` : null;
  const giveup = `giveup ${crab}`;
  const canGiveUp = f.legal.includes(giveup);
  const hinted = m.hinted && (m.hinted.kind === "place" || m.hinted.kind === "giveup") && m.hinted.crab === crab;
  const ref = stack.length ? (roof ? stack[0] : stack[stack.length - 1]) : null;
  const rule = COLOUR_RULE[/** @type {"A" | "B" | "C" | "D"} */ (crab)];
  const refWords = ref == null ? rule.empty : roof ? "numbers go up, underneath" : "numbers go down";
  const refTitle = ref == null ? `empty: ${rule.long}`
    : roof ? `roof mode: a new card goes under ${ref}, the bottom card, and must be at least its number (rule Y14.7)`
      : `a new card goes on ${ref}, the top card, and must be at most its number (rule Y14.6)`;
  const go = () => { f.local.sel = null; f.act(/** @type {string} */ (action)); };
  return h("div", {
    class: ["cw-seat", "cw-crab", "cw-solo-crab", roof && "cw-roof-mode", ok && "cw-targetable", why && "cw-refused", hinted && "cw-hinted"],
    "data-crab": crab,
    "data-action": ok ? action : null,
    role: action ? "button" : "group",
    tabIndex: action ? 0 : undefined,
    title: ok ? `place ${m.sel} on crab ${crab}` : why,
    "aria-label": action ? `crab ${crab}${ok ? "" : " (not allowed)"}` : `crab ${crab}`,
    onClick: action ? go : null,
    onKeydown: action ? (/** @type {KeyboardEvent} */ ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); }
    } : null,
  }, [
    h("div", { class: "cw-seat-head" }, [
      h("span", { class: "cw-crab-letter", "data-crab": crab, "aria-hidden": "true" }, crab),
      h("span", { class: "cw-seat-name", title: rule.long }, rule.short),
    ]),
    roof ? h("div", { class: "cw-seat-badges" }, h("span", { class: "cw-badge cw-badge-roof", title: "a roof card is on this crab: new cards go to the bottom, each at least the bottom card's number (rule Y14.7)" }, "roof mode")) : null,
    h("div", { class: "cw-crab-main" }, [
      renderHouse(stack, m.deck, { limit: m.complete - 1, label: `crab ${crab}, bottom to top` }),
      h("div", { class: "cw-crab-side" }, [
        h("span", { class: "cw-count cw-crab-count", title: `${count(stack.length, "card")}; ${m.complete} finish the house (rule Y14.8)` }, `${stack.length}/${m.complete}`),
        stack.length ? h("span", { class: "cw-crab-worth", title: `worth ${worth} when finished; ${worth} penalty if given up` }, ["size ", h("b", null, String(worth))]) : null,
        ref == null ? null : h("span", { class: "cw-crab-ref", title: refTitle }, [roof ? "under " : "on ", renderYkCard(ref, m.deck, { size: "xs" })]),
      ]),
    ]),
    h("div", { class: "cw-crab-foot" }, m.sel
      ? h("span", { class: ["cw-place-note", ok ? "cw-place-ok" : "cw-place-no"] }, ok ? `place ${m.sel} here` : "not here")
      : canGiveUp
        ? h("button", {
          type: "button", class: "cw-btn cw-btn-small cw-giveup", "data-action": giveup, disabled: !f.canAct,
          title: `give up crab ${crab}: its ${count(stack.length, "card")} go to your penalty pile, −${worth} (rule Y14.11)`,
          onClick: (/** @type {Event} */ ev) => { ev.stopPropagation(); f.act(giveup); },
        }, `Give up −${worth}`)
        : h("span", { class: "cw-crab-rule cw-muted", title: refTitle }, refWords)),
  ]);
}

/**
 * A deck: face down, its count; a button when drawing from it is legal.
 * @param {Frame} f
 * @param {SoloModel} m
 * @param {"green" | "pink"} colour
 */
function deckPile(f, m, colour) {
  const n = Number(m.v.deck_counts?.[colour === "green" ? 0 : 1] ?? 0);
  const action = `draw ${colour}`;
  const ok = f.canAct && f.legal.includes(action);
  const hinted = m.hinted?.kind === "draw" && m.hinted.colour === colour;
  const body = [
    renderPile(n, { max: 3, size: "sm" }),
    h("span", { class: "cw-pile-label" }, [h("span", null, colour === "green" ? "Green" : "Pink"), h("b", { class: "cw-deck-count" }, String(n))]),
  ];
  const attrs = { class: ["cw-deck", `cw-deck-${colour}`, ok && "cw-deck-live", hinted && "cw-hinted"], "data-deck": colour };
  if (!ok) return h("div", { ...attrs, title: `the ${colour} deck: ${count(n, "card")}, face down (rule Y15.4)` }, body);
  return h("button", { ...attrs, type: "button", "data-action": action, title: `draw the top card of the ${colour} deck (${count(n, "card")} left)`, onClick: () => f.act(action) }, body);
}

/**
 * The score pile (face up) and the penalty pile (face down).
 * @param {SoloModel} m
 */
function scorePiles(m) {
  const v = m.v;
  const score = (v.score_pile || []).map(String);
  const penalty = (v.penalty_pile || []).map(String);
  const last = score.slice(-6);
  return [
    h("div", { class: "cw-score-pile", title: score.length ? `score pile (face up): ${score.join(", ")}` : "score pile: empty" }, [
      h("div", { class: "cw-score-fan" }, last.length ? last.map((c) => renderYkCard(c, m.deck, { size: "xs" })) : h("div", { class: "cw-slot", "aria-hidden": "true" })),
      h("span", { class: "cw-pile-label" }, [h("span", null, "Score"), h("b", { class: "cw-points" }, v.points ? `+${v.points}` : "0")]),
    ]),
    h("div", { class: "cw-penalty-pile", title: penalty.length ? `penalty pile (face down): ${penalty.join(", ")}` : "penalty pile: empty" }, [
      renderPile(penalty.length, { max: 3, size: "xs" }),
      h("span", { class: "cw-pile-label" }, [h("span", null, "Penalty"), h("b", { class: "cw-penalty" }, signed(-(v.penalty ?? 0)))]),
    ]),
  ];
}

/** @param {Frame} f */
export function soloFelt(f) {
  const m = soloModel(f);
  return h("div", { class: ["cw-solo", m.sel && "cw-aiming"] }, [
    h("div", { class: "cw-solo-crabs", role: "group", "aria-label": "Crabs" }, CRABS.map((_, k) => crabPanel(f, m, k))),
    h("aside", { class: "cw-solo-piles", "aria-label": "Decks and piles" }, [
      h("div", { class: "cw-solo-decks" }, [deckPile(f, m, "green"), deckPile(f, m, "pink")]),
      ...scorePiles(m),
    ]),
  ]);
}

// ------------------------------------------------------------------ the player area

/** @param {Frame} f @param {SoloModel} m */
function hintLine(f, m) {
  if (!m.hint) return null;
  if (!m.shownHint) {
    return h("button", { type: "button", class: "cw-btn cw-btn-small cw-hint-btn", "data-control": "hint", title: "suggest a move, and say why",
      onClick: () => { f.local.hint = true; f.redraw(); } }, "Hint");
  }
  const action = String(m.shownHint.action);
  return h("div", { class: "cw-hint-box", role: "status" }, [
    h("span", { class: "cw-hint-label" }, "Hint"),
    h("b", { class: "cw-hint-action" }, action),
    h("span", { class: "cw-hint-reason" }, withRuleIds(String(m.shownHint.reason ?? ""))),
    f.legal.includes(action)
      ? h("button", { type: "button", class: "cw-btn cw-btn-small cw-btn-primary", "data-action": action, "data-control": "play-hint",
        onClick: () => { f.local.sel = null; f.act(action); } }, "Play it") : null,
    h("button", { type: "button", class: "cw-btn cw-btn-small cw-btn-quiet", "data-control": "hide-hint", onClick: () => { f.local.hint = false; f.redraw(); } }, "×"),
  ]);
}

/** @param {Frame} f */
export function soloPlayer(f) {
  const m = soloModel(f);
  const v = m.v;
  const live = f.canAct;
  const bonus = new Set((v.bonus || []).map(String));
  const hintedCard = m.hinted && (m.hinted.kind === "place" || m.hinted.kind === "take") ? m.hinted.card : null;
  const rowEl = h("div", { class: "cw-hand cw-row", role: "group", "aria-label": "the row" },
    m.row.length ? m.row.map((c, i) => {
      const common = { size: /** @type {"lg"} */ ("lg"), attrs: { "data-index": i }, class: hintedCard === c && "cw-hinted" };
      if (live && m.phase === "turn") {
        const fits = m.fits(c);
        return renderYkCard(c, m.deck, {
          ...common, selected: m.sel === c, playable: fits.length > 0, dimmed: fits.length === 0,
          title: fits.length ? `${c}: goes on crab ${fits.join(" or ")} — click, then click a crab` : `${c} fits no crab now — click it, then a crab, to see why`,
          attrs: { ...common.attrs, "data-control": "select" },
          onClick: () => { f.local.sel = m.sel === c ? null : c; f.redraw(); },
        });
      }
      if (live && m.phase === "bonus") {
        const take = `take ${c}`;
        const ok = bonus.has(c) && f.legal.includes(take);
        return renderYkCard(c, m.deck, {
          ...common, playable: ok, dimmed: !ok, title: ok ? `take ${c} to your score pile, +${m.deck.sizes[c]} (rule Y14.10)` : f.refusals[take] ?? `${c} is not in the bonus group`,
          attrs: { ...common.attrs, "data-action": ok ? take : null },
          onClick: ok ? () => f.act(take) : undefined,
        });
      }
      return renderYkCard(c, m.deck, { ...common, playable: bonus.has(c) });
    }) : h("span", { class: "cw-hand-empty cw-muted" }, m.phase === "setup" ? "the row is empty: draw five cards" : "the row is empty"));

  /** @type {import("../lib/dom.js").Child[]} */
  const controls = [];
  if (live) {
    if (m.phase === "setup" || m.phase === "refill") {
      controls.push(...["green", "pink"].map((colour) => {
        const action = `draw ${colour}`;
        return f.legal.includes(action) ? h("button", { type: "button", class: ["cw-btn", "cw-btn-primary", `cw-btn-${colour}`], "data-action": action, onClick: () => f.act(action) },
          `Draw ${colour} (${v.deck_counts?.[colour === "green" ? 0 : 1] ?? 0})`) : null;
      }));
      controls.push(h("span", { class: "cw-hint cw-hint-step" }, withRuleIds(m.phase === "setup"
        ? `Lay out the first row: choose the deck of each of its 5 cards (rule Y14.2). ${m.row.length} of 5 drawn.`
        : `Refill the row to 5: choose the deck for each card (rule Y14.9).`)));
    } else if (m.phase === "setup_color") {
      controls.push(...["green", "pink"].map((colour) => {
        const action = `row ${colour}`;
        return f.legal.includes(action) ? h("button", { type: "button", class: "cw-btn cw-btn-primary", "data-action": action, onClick: () => f.act(action) }, `First row from ${colour}`) : null;
      }), h("span", { class: "cw-hint cw-hint-step" }, withRuleIds("Choose the one deck the first row comes from (rule Y14.2).")));
    } else if (m.phase === "bonus") {
      const group = m.row.filter((c) => bonus.has(c));
      controls.push(...group.map((c) => {
        const take = `take ${c}`;
        return f.legal.includes(take) ? h("button", { type: "button", class: "cw-btn cw-btn-primary", "data-action": take, onClick: () => f.act(take) }, `Take ${c} +${m.deck.sizes[c] ?? "?"}`) : null;
      }));
      if (f.legal.includes("decline")) controls.push(h("button", { type: "button", class: "cw-btn", "data-action": "decline", onClick: () => f.act("decline") }, "Decline"));
      controls.push(h("span", { class: "cw-hint cw-hint-step" }, withRuleIds(`Bonus: consecutive numbers of one colour in the row. Take one of them to your score pile, or decline (rule Y14.10).`)));
    } else if (m.phase === "turn") {
      if (m.sel) {
        const fits = m.fits(m.sel);
        controls.push(
          h("span", { class: "cw-hint cw-hint-step" }, fits.length
            ? `${m.sel}: click a glowing crab (${fits.join(", ")}).`
            : `${m.sel} fits no crab now: hover over a crab to see why.`),
          h("button", { type: "button", class: "cw-btn", "data-control": "cancel", onClick: () => { f.local.sel = null; f.redraw(); } }, "Cancel"));
      } else {
        // a crab can be given up only while it holds cards (every crab empty: place a card)
        const giveUp = f.legal.some((a) => a.startsWith("giveup "));
        controls.push(h("span", { class: "cw-hint cw-hint-line" }, withRuleIds(m.places.length
          ? `Click a row card, then the crab to put it on (rules Y14.4–Y14.7)${giveUp ? "; or give up a crab (rule Y14.11)" : ""}.`
          : "No row card fits any crab: you must give up a crab (rule Y14.12).")));
      }
    }
  }
  const hint = hintLine(f, m);

  const moves = f.moves.map((p) => {
    if (p.kind === "place") {
      const { letter } = cardParts(p.card);
      return moveChip(f, {
        action: p.text, selected: m.sel === p.card, title: `${p.text}: ${p.card} on crab ${p.crab}`,
        content: [h("span", { class: "cw-move-pip", "data-tone": letter }, p.card.slice(1)), h("span", { class: "cw-move-target" }, `→${p.crab}`)],
        onClick: () => { f.local.sel = null; f.act(p.text); },
      });
    }
    const words = p.kind === "giveup" ? `give up ${p.crab}` : p.kind === "draw" ? `draw ${p.colour}` : p.kind === "take" ? `take ${p.card}` : p.kind === "row" ? `row ${p.colour}` : p.text;
    return moveChip(f, { action: p.text, content: h("span", { class: "cw-move-word" }, words), onClick: () => { f.local.sel = null; f.act(p.text); } });
  });
  return {
    head: h("div", { class: "cw-player-head cw-solo-head" }, [
      h("span", { class: "cw-seat-name" }, "Row"),
      h("span", { class: "cw-muted" }, m.row.length === 5 ? "5 cards" : `${m.row.length} of 5`),
      hint,
    ]),
    hand: rowEl,
    controls,
    moves,
  };
}

// ------------------------------------------------------------------ the end

/** @param {Frame} f */
export function soloOutcome(f) {
  const v = f.view;
  const o = v.outcome || {};
  const score = Number(o.scores?.[0] ?? v.score ?? 0);
  return {
    headline: `Final score ${signed(score)}`,
    // a star only for a score worth one: the puzzle has no winner to crown otherwise
    trophy: score > 0,
    columns: ["Score pile", "Penalty pile", "Score"],
    order: [0],
    cells: () => [`+${v.points ?? 0} (${count((v.score_pile || []).length, "card")})`, `${signed(-(v.penalty ?? 0))} (${count((v.penalty_pile || []).length, "card")})`, h("b", { class: "cw-final-score" }, signed(score))],
    reason: o.reason ? `${o.reason[0].toUpperCase()}${o.reason.slice(1)}.` : "",
  };
}
