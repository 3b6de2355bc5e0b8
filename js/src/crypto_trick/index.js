// Crypto Trick table: the layout drawn inside the shared frame (lib/frame.js). Holds no
// rules: a card is playable only because its action (`reveal Y3`, `give B2`, `play R5`)
// is in `legal`, a card that is not says why from Python's `refusals`, and Python
// validates and explains everything the player sends.
import "../lib/table.css";
import "./crypto_trick.css";
import { h, on, svgIcon } from "../lib/dom.js";
import { renderCard, renderBacks, renderCardBack } from "../lib/cards.js";
import { withRuleIds, listWords, count, signed } from "../lib/text.js";
import { decorateRuleChips } from "../lib/rules.js";
import { gameWidget, seatHead, seatClass, lastMoveBadge, othersInOrder, moveChip, headline } from "../lib/frame.js";

export const GAME = "crypto_trick";

/**
 * The Crypto Trick view as Python sends it (`CryptoTrickState.view(seat)`).
 * @typedef {Object} CryptoView
 * @property {"crypto_trick"} game
 * @property {number} players
 * @property {string[]} names
 * @property {number | null} seat                 viewing seat; null = teacher view
 * @property {"offer" | "declare" | "give" | "follow" | "finished"} phase
 * @property {number | null} current
 * @property {number} round
 * @property {number} rounds
 * @property {number} trick
 * @property {number} tricks
 * @property {string[]} colors                   the regular colours in play ("Y", "B" …)
 * @property {Record<string, string>} labels      display names of the colours (coin names)
 * @property {string[]} cards                     the game's deck (every card name)
 * @property {string[]} block_cards               the cards that carry a block
 * @property {Record<string, any>} rules          the option values that change the rules
 * @property {string} indicator
 * @property {string[]} trumps                    this round's trump colours
 * @property {number} first                       F: the seat that offers this trick
 * @property {string | null} offered
 * @property {Array<{seat: number, want: boolean}>} declarations
 * @property {number | null} declarer
 * @property {number | null} leader
 * @property {string | null} lead_color
 * @property {Array<{seat: number, card: string, position: number, class: string}>} table
 * @property {number | null} winning              who holds the trick now
 * @property {{trick: number, leader: number, winner: number, cards: Array<{seat: number, card: string}>} | null} last_trick
 * @property {Array<{trick: number, from: number, to: number, card: string | null}>} gives
 * @property {Array<string[] | null>} hands
 * @property {number[]} hand_counts
 * @property {Array<string[] | null>} won         null: only the block information is visible
 * @property {number[]} won_counts
 * @property {number[]} won_blocks
 * @property {string[][]} won_block_colors
 * @property {number[]} score_now
 * @property {number[]} totals
 * @property {number[][]} round_scores
 * @property {RoundRecord[]} results
 * @property {string | null} hidden_card          teacher view only
 * @property {{seat: number, action: string} | null} last_action
 * @property {{winners: number[], scores: number[], reason: string} | null} outcome
 */

/**
 * A scored round (`view.results[i]`).
 * @typedef {{round: number, indicator: string, hidden: string | null, won: Array<string[] | null>,
 *   blocks: number[], colors: number[], block_colors: string[][], scores: number[], totals: number[],
 *   last_winner: number}} RoundRecord
 */

/**
 * A parsed Crypto Trick action.
 * @typedef {{kind: "reveal" | "give" | "play", card: string, text: string}
 *   | {kind: "want" | "pass", card: null, text: string}} ParsedAction
 */

// ------------------------------------------------------------------ notation

/**
 * Read the canonical notation (notation, not rules).
 * @param {string} text "reveal Y3", "want", "pass", "give B2", "play R5"
 * @returns {ParsedAction | null}
 */
export function parseAction(text) {
  const s = String(text).trim();
  if (s === "want" || s === "pass") return { kind: s, card: null, text: s };
  const m = /^(reveal|give|play) ([YBRPGW]\d{1,2})$/.exec(s);
  return m ? { kind: /** @type {"reveal" | "give" | "play"} */ (m[1]), card: m[2], text: s } : null;
}

/** The verb that acts with a hand card in each phase. */
const VERB = /** @type {Record<string, string>} */ ({ offer: "reveal", give: "give", follow: "play" });

/**
 * The action of clicking `card` in the hand in `phase`, or null when cards are not played then.
 * @param {string} phase
 * @param {string} card
 */
export function cardAction(phase, card) {
  return VERB[phase] ? `${VERB[phase]} ${card}` : null;
}

// ------------------------------------------------------------------ cards

const COLOUR_WORDS = /** @type {Record<string, string>} */ ({ Y: "yellow", B: "blue", R: "red", P: "purple", G: "green", W: "white" });

/** @param {string} card @returns {string} its colour letter */
export const colourOf = (card) => String(card)[0];
/** @param {string} card @returns {string} its number */
export const numberOf = (card) => String(card).slice(1);
/** @param {string} letter @returns {string} "yellow" … */
export const colourWord = (letter) => COLOUR_WORDS[letter] ?? letter;

/**
 * The card's name in words: "yellow 3 (Datcoin), block, trump".
 * @param {string} card
 * @param {CryptoView} view
 */
export function cardWords(card, view) {
  const c = colourOf(card);
  const label = view.labels?.[c];
  const parts = [`${colourWord(c)} ${numberOf(card)}${label ? ` (${label})` : ""}`];
  if ((view.block_cards || []).includes(card)) parts.push("block");
  if ((view.trumps || []).includes(c)) parts.push("trump");
  return parts.join(", ");
}

// A block: a small isometric cube, drawn (no font or asset needed).
const CUBE = '<path d="M12 2 21 7v10l-9 5-9-5V7z" fill="currentColor" opacity=".28"/><path d="M12 2 21 7l-9 5-9-5z" fill="currentColor" opacity=".75"/><path d="M12 12v10M12 12 21 7M12 12 3 7M12 2 21 7v10l-9 5-9-5V7z" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>';
// A trump: a small crown.
const CROWN = '<path d="M3 18h18l1.5-11-5.5 4.5L12 4l-5 7.5L1.5 7z" fill="currentColor" stroke="currentColor" stroke-width="1" stroke-linejoin="round"/>';

/**
 * An inline icon.
 * @param {"block" | "trump"} name
 * @param {string} [cls]
 * @returns {Element}
 */
export function icon(name, cls = "cw-ct-icon") {
  return svgIcon("0 0 24 24", name === "block" ? CUBE : CROWN, `${cls} cw-ct-icon-${name}`);
}

/**
 * Render one face-up Crypto Trick card (lib renderCard, dressed with its colour, number,
 * block and trump marks). Only cards the view holds are ever drawn.
 * @param {string} card e.g. "Y3", written to `data-card`
 * @param {CryptoView} view
 * @param {import("../lib/cards.js").CardOptions & {trumps?: string[]}} [opts] `trumps`: the trump colours
 *   to mark (default: this round's; `[]` for a card of an earlier round)
 * @returns {HTMLElement}
 */
export function renderCryptoCard(card, view, opts = {}) {
  const c = colourOf(card);
  const block = (view.block_cards || []).includes(card);
  const trumps = opts.trumps ?? view.trumps ?? [];
  const trump = trumps.includes(c);
  const size = opts.size ?? "md";
  const el = renderCard(card, {
    ...opts,
    tone: c,
    title: opts.title ?? `${card}: ${cardWords(card, { ...view, trumps })}`,
    class: ["cw-ct-card", block && "cw-ct-block", trump && "cw-ct-trump",
      ...(Array.isArray(opts.class) ? opts.class : [opts.class])],
  });
  el.setAttribute("aria-label", `${card}, ${cardWords(card, { ...view, trumps })}`);
  if (el.tagName !== "BUTTON") el.setAttribute("role", "img");  // a label is allowed on an image, not on a bare div
  const value = /** @type {HTMLElement} */ (el.querySelector(".cw-card-value"));
  if (size === "xs") {
    value.textContent = "";
    value.append(h("span", { class: "cw-ct-letter" }, c), numberOf(card));
    if (block) el.append(h("span", { class: "cw-ct-xs-block", "aria-hidden": "true" }));
    return el;
  }
  value.textContent = numberOf(card);
  el.querySelector(".cw-card-br")?.remove();
  const tl = /** @type {HTMLElement} */ (el.querySelector(".cw-card-tl"));
  tl.textContent = c;
  if (trump) el.append(h("span", { class: "cw-ct-mark cw-ct-mark-trump", title: null }, icon("trump")));
  if (block) el.append(h("span", { class: "cw-ct-mark cw-ct-mark-block" }, icon("block")));
  return el;
}

/**
 * A colour swatch with its letter ("W", "Y"), for the trump colours and lead colour.
 * @param {string} letter
 * @param {CryptoView} view
 * @param {string} [text] shown after the swatch
 */
function swatch(letter, view, text) {
  const label = view.labels?.[letter];
  return h("span", { class: "cw-ct-swatch", "data-tone": letter, "data-colour": letter,
    title: `${colourWord(letter)}${label ? ` (${label})` : ""}` }, [
    h("span", { class: "cw-ct-swatch-dot", "aria-hidden": "true" }, letter),
    text ?? null,
  ]);
}

/**
 * Block pips: one small cube per block card, in its colour (what a hidden pile shows).
 * @param {string[]} colours
 */
function blockPips(colours) {
  return h("span", { class: "cw-ct-pips", "aria-hidden": "true" },
    colours.map((c) => h("span", { class: "cw-ct-pip", "data-tone": c }, icon("block", "cw-ct-icon"))));
}

// ------------------------------------------------------------------ words

/**
 * A last action in words, for the seat's badge.
 * @param {string} action as `view.last_action` has it ("give" alone: a private give)
 * @returns {string}
 */
export function describeAction(action) {
  if (action === "give") return "gave a card";
  const a = parseAction(action);
  if (!a) return action;
  if (a.kind === "want") return "wants it";
  if (a.kind === "pass") return "passes";
  if (a.kind === "reveal") return `offers ${a.card}`;
  if (a.kind === "give") return `gave ${a.card}`;
  return `played ${a.card}`;
}

/** @typedef {import("../lib/frame.js").Frame} Frame */

// A seat is named by its name, the viewer's with "(you)" (f.label), as the narration names it;
// "you" only where a sentence speaks to the viewer.
/** @param {Frame} f @param {number | null | undefined} i */
const who = (f, i) => (f.you(i) ? "you" : f.name(i));
/** @param {Frame} f @param {number | null | undefined} i */
const Who = (f, i) => (f.you(i) ? "You" : f.name(i));

/**
 * What a seat does in this trick: offers (F), declarer (D), leads (L).
 * @param {Frame} f
 * @param {number} i
 * @returns {HTMLElement | null}
 */
function roleBadge(f, i) {
  const v = /** @type {CryptoView} */ (f.view);
  if (f.finished) return null;
  if (v.phase === "follow" && v.leader === i) {
    return h("span", { class: "cw-ct-role cw-ct-role-lead", "data-role": "leader",
      title: v.declarer === i ? "declarer: took the offered card and leads it (rules C5.4, C5.6)" : "leads this trick (rule C5.3)" },
    v.declarer === i ? "declarer" : "leads");
  }
  if ((v.phase === "give" || v.phase === "follow") && v.declarer === i) {
    return h("span", { class: "cw-ct-role cw-ct-role-declarer", "data-role": "declarer", title: "took the offered card (rule C5.4)" }, "declarer");
  }
  if (v.first === i && (v.phase !== "follow" || v.leader !== i)) {
    return h("span", { class: "cw-ct-role", "data-role": "first", title: "first player: opens this trick with an offer (rule C5.1)" },
      v.phase === "offer" ? "offers" : "offered");
  }
  return null;
}

/**
 * The won pile of a seat: its block cards (or pips when only blocks may be seen), the cards
 * won, and the score it would make if the round ended now.
 * @param {Frame} f
 * @param {number} i
 */
function wonSummary(f, i) {
  const v = /** @type {CryptoView} */ (f.view);
  const pile = v.won?.[i];
  const blocks = v.won_blocks?.[i] ?? 0;
  const n = v.won_counts?.[i] ?? (pile ? pile.length : 0);
  const blockSet = new Set(v.block_cards || []);
  const shown = Array.isArray(pile)
    ? wonCards(v, pile.filter((c) => blockSet.has(c)))
    : blockPips(v.won_block_colors?.[i] || []);
  const colours = new Set(v.won_block_colors?.[i] || []).size;
  const title = `${count(n, "card", { none: "no cards" })} won this round`
    + (Array.isArray(pile) && pile.length ? ` (${pile.join(" ")})` : Array.isArray(pile) ? "" : "; only the blocks show (rule C11.5)")
    + `; ${count(blocks, "block")}${blocks ? ` in ${count(colours, "colour")}` : ""}`
    + `; would score ${v.score_now?.[i] ?? 0} if the round ended now (rule C9.2)`;
  return h("div", { class: ["cw-ct-won", !Array.isArray(pile) && "cw-ct-won-hidden"], "data-seat": i, title }, [
    h("span", { class: "cw-ct-won-count" }, ["won ", h("b", null, String(n))]),
    blocks ? shown : h("span", { class: "cw-ct-noblocks" }, "no blocks"),
    f.finished ? null : h("span", { class: "cw-ct-now", "data-score": v.score_now?.[i] ?? 0 }, ["now ", h("b", null, signed(v.score_now?.[i] ?? 0))]),
  ]);
}

/**
 * Won block cards, overlapping a little when there are many (each card's letter and number still
 * show); a long pile wraps inside its seat.
 * @param {CryptoView} v
 * @param {string[]} cards
 */
function wonCards(v, cards) {
  const k = cards.length;
  return h("span", { class: "cw-ct-won-cards", style: { "--ov": `${k <= 3 ? 0 : 3}px` } },
    cards.map((c) => renderCryptoCard(c, v, { size: "xs" })));
}

// ------------------------------------------------------------------ header

/** @param {Frame} f */
function chips(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const r = v.rules || {};
  const odd = [];
  if (r.declaration_mode === "single_pass_first") odd.push(["first want takes it", "the first player to want the offered card takes it (rule C5.4)"]);
  if (r.trump_follow_unified) odd.push(["trumps follow trumps", "white and the indicator colour count as one colour for following (rule C6.4)"]);
  if (r.trump_ranking === "white_high") odd.push(["white ranks high", "white beats the indicator colour (rule C7.1)"]);
  if (r.overload_score === "negative_count") odd.push(["4+ blocks score −B", "four or more blocks score minus their count (rule C9.2)"]);
  if (r.exchange_visibility === "public") odd.push(["gives face up", "everyone sees the card given (rule C11.3)"]);
  if (r.won_pile_visibility === "block_count_only") odd.push(["won piles: blocks only", "of the others' won piles only the blocks show (rule C11.5)"]);
  return [
    h("span", { class: "cw-chip", "data-chip": "round" }, ["Round ", h("b", null, `${v.round} of ${v.rounds}`)]),
    f.finished ? null : h("span", { class: "cw-chip", "data-chip": "trick" }, ["Trick ", h("b", null, `${v.trick} of ${v.tricks}`)]),
    ...odd.map(([text, title]) => h("span", { class: "cw-chip cw-ct-option", title }, text)),
  ];
}

const PHASE_WORDS = /** @type {Record<string, [string, string]>} */ ({
  offer: ["reveal a card to offer", "offering"],
  declare: ["want or pass", "declaring"],
  give: ["give a card", "giving a card"],
  follow: ["play a card", "following"],
});

/** @param {Frame} f */
function turnDetail(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const words = PHASE_WORDS[v.phase];
  if (!words || (f.hold && !f.past)) return null;
  return `· ${f.canAct && (f.teacher || f.you(f.current)) ? words[0] : words[1]}`;
}

// ------------------------------------------------------------------ the felt

/** @param {Frame} f */
function felt(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const seats = othersInOrder(f).map((i) => {
    const cards = v.hands?.[i];
    const cnt = v.hand_counts?.[i] ?? (Array.isArray(cards) ? cards.length : 0);
    return h("div", { class: seatClass(f, i, ["cw-ct-seat"]), "data-seat": i }, [
      h("div", { class: "cw-ct-seat-top" }, [seatHead(f, i, roleBadge(f, i)), lastMoveBadge(f, i)]),
      h("div", { class: "cw-seat-cards" }, [
        Array.isArray(cards)
          ? h("div", { class: "cw-faceup" }, cards.map((c) => renderCryptoCard(c, v, { size: "xs" })))
          : renderBacks(cnt, { size: "xs", max: 7 }),
        Array.isArray(cards) && cards.length ? null
          : h("span", { class: "cw-count", title: `${count(cnt, "card", { none: "no cards" })} in hand` }, count(cnt, "card", { none: "no cards" })),
      ]),
      wonSummary(f, i),
    ]);
  });
  const seatsRow = h("div", { class: "cw-seats", style: { "--cw-seat-count": Math.max(seats.length, 2) } }, seats);
  return [seatsRow, h("div", { class: "cw-ct-centre" }, [trumpsPanel(f), trickPanel(f), scoresPanel(f)])];
}

/** The trump indicator, the trump colours and the hidden card. @param {Frame} f */
function trumpsPanel(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const trumps = v.trumps || [];
  const last = (v.results || [])[v.results.length - 1];
  const hidden = v.hidden_card
    ? renderCryptoCard(v.hidden_card, v, { size: "sm", class: "cw-ct-hidden-card", title: `${v.hidden_card}: the hidden card (teacher view; nobody sees it before the round ends, rule C11.4)` })
    : f.finished && last?.hidden
      ? renderCryptoCard(last.hidden, v, { size: "sm", class: "cw-ct-hidden-card", title: `${last.hidden}: round ${last.round}'s hidden card (rule C11.4)` })
      : renderCardBack({ size: "sm", title: "the hidden card: face down until the round is scored (rule C11.4)" });
  return h("section", { class: "cw-ct-panel cw-ct-trumps", "aria-label": "Trumps" }, [
    h("h3", { class: "cw-panel-title" }, "Trumps"),
    h("div", { class: "cw-ct-trump-row" }, [
      h("div", { class: "cw-ct-pile" }, [
        renderCryptoCard(v.indicator, v, { size: "sm", class: "cw-ct-indicator",
          title: `${v.indicator}: the trump indicator of round ${v.round} (rules C4.3, C4.4)` }),
        h("span", { class: "cw-ct-pile-label" }, "indicator"),
      ]),
      h("div", { class: "cw-ct-pile" }, [hidden, h("span", { class: "cw-ct-pile-label" }, "hidden")]),
    ]),
    h("div", { class: "cw-ct-trump-colours", title: `${trumps.length > 1 ? listWords(trumps.map(colourWord), "and") + " are" : `only ${colourWord(trumps[0])} is`} trump this round (rule C4.4)` },
      trumps.map((c) => swatch(c, v, colourWord(c)))),
  ]);
}

/**
 * Who has declared what: one pill per seat that declares this trick, clockwise from F's left.
 * @param {Frame} f
 */
function declarationPills(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const made = new Map((v.declarations || []).map((d) => [d.seat, d.want]));
  const pills = [];
  for (let k = 1; k < f.n; k++) {
    const s = (v.first + k) % f.n;
    const said = made.get(s);
    const now = v.phase === "declare" && v.current === s;
    const state = said === true ? "want" : said === false ? "pass" : now ? "now" : "later";
    // after the declarer is settled under "first want takes it", later seats never declare
    if (state === "later" && v.phase !== "declare") continue;
    pills.push(h("span", {
      class: ["cw-ct-decl", `cw-ct-decl-${state}`, v.declarer === s && "cw-ct-decl-declarer"], "data-seat": s, "data-declared": state,
      title: state === "want" ? `${f.name(s)} wants it (rule C5.2)` : state === "pass" ? `${f.name(s)} passes (rule C5.2)`
        : state === "now" ? `${f.name(s)} declares now` : `${f.name(s)} declares later`,
    }, [h("b", null, f.label(s)), state === "want" ? " wants" : state === "pass" ? " passes" : state === "now" ? " …?" : null]));
  }
  return h("div", { class: "cw-ct-decls", role: "group", "aria-label": "Declarations" }, pills);
}

/**
 * This trick's give as the viewer may see it: the card when the view has it, else a back.
 * @param {Frame} f
 */
function giveLine(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const g = (v.gives || []).filter((x) => x.trick === v.trick).at(-1);
  if (!g) return null;
  const face = g.card
    ? renderCryptoCard(g.card, v, { size: "xs", class: "cw-ct-given" })
    : renderCardBack({ size: "xs", title: "given face down: only the two players know it (rule C11.3)" });
  const text = g.card
    ? `${Who(f, g.from)} gave ${who(f, g.to)} ${g.card}${v.rules?.exchange_visibility === "public" ? "" : ", face down"}`
    : `${Who(f, g.from)} gave ${who(f, g.to)} a card face down`;
  return h("div", { class: "cw-ct-give", "data-give": g.card ? "known" : "hidden" }, [face, h("span", null, withRuleIds(`${text} (rule C5.5)`))]);
}

/** What a card does in the trick, in words (rule C7.1), by the class the view gives it. */
const CLASS_WORDS = /** @type {Record<string, [string, string]>} */ ({
  trump: ["trump", "a trump (rule C7.1)"],
  lead: ["", "of the lead colour (rule C7.1)"],
  off: ["off colour", "off colour: cannot win (rule C7.4)"],
});

/**
 * One place in a trick: the card (or an empty slot), who plays there, and marks: the led card,
 * the card winning so far (or that took the trick), a trump or off-colour card.
 * @param {Frame} f
 * @param {number} seat
 * @param {number} k its place in the trick (0 = led)
 * @param {{card: string, class?: string} | undefined} played
 * @param {{winner: boolean, took: boolean, next: boolean}} o
 */
function trickSlot(f, seat, k, played, o) {
  const v = /** @type {CryptoView} */ (f.view);
  const [word, why] = CLASS_WORDS[played?.class ?? ""] ?? ["", ""];
  const marks = [k === 0 ? "led" : "", word].filter(Boolean).join(" · ");
  return h("div", {
    class: ["cw-ct-slot", played && o.winner && "cw-ct-winning", o.next && "cw-ct-next"],
    "data-seat": seat, "data-position": k + 1,
  }, [
    played
      ? renderCryptoCard(played.card, v, { size: "md", class: k === 0 && "cw-ct-leadcard" })
      : h("div", { class: "cw-ct-empty", "aria-hidden": "true" }, o.next ? "…" : ""),
    h("span", { class: "cw-ct-slot-name" }, f.label(seat)),
    played && marks ? h("span", { class: "cw-ct-class", "data-class": k === 0 ? "led" : played.class,
      title: [k === 0 ? "led this trick: its colour is the lead colour (rule C6.1)" : "", why].filter(Boolean).join("; ") }, marks) : null,
    played && o.winner
      ? h("span", { class: "cw-ct-ribbon", title: o.took ? "took the trick (rule C7.2)" : "strongest card so far (rule C7.2)" }, o.took ? "took it" : "winning")
      : null,
  ]);
}

/**
 * The last trick in one line, to look back at while the next one is offered and played: who
 * played what, and who took it. Its cards are copies (they do not travel).
 * @param {Frame} f
 */
function lastTrickStrip(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const lt = v.last_trick;
  if (!lt) return null;
  return h("div", { class: "cw-ct-last", role: "group", "aria-label": "Last trick", "data-trick": lt.trick }, [
    h("span", { class: "cw-ct-last-title" }, `Trick ${lt.trick}: ${f.label(lt.winner)} took`),
    h("span", { class: "cw-ct-last-cards" }, lt.cards.map((c, k) => h("span", { class: ["cw-ct-last-play", c.seat === lt.winner && "cw-ct-last-took"] }, [
      h("span", { class: "cw-ct-last-who" }, f.name(c.seat)),
      renderCryptoCard(c.card, v, { size: "xs", class: c.seat === lt.winner && "cw-ct-took",
        title: `${c.card}: ${f.label(c.seat)}${k === 0 ? " led" : ""}${c.seat === lt.winner ? ", took the trick" : ""}`, attrs: { "data-motion": "static" } }),
    ]))),
  ]);
}

/** The offer or the trick in progress (or the trick just taken, between tricks). @param {Frame} f */
function trickPanel(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const n = f.n;
  /** @type {import("../lib/dom.js").Child} */
  let body;
  let title = "Trick";
  let side = null;
  const lt = v.last_trick;
  if (v.phase === "declare" || v.phase === "give") {
    title = "Offer";
    const offered = /** @type {string} */ (v.offered);
    const note = v.phase === "give"
      ? `${Who(f, v.declarer)} ${f.you(v.declarer) ? "take" : "takes"} ${offered}: a card goes to ${who(f, v.first)} face down, then ${who(f, v.declarer)} ${f.you(v.declarer) ? "lead" : "leads"} it (rules C5.4–C5.6)`
      : `${Who(f, v.first)} ${f.you(v.first) ? "offer" : "offers"} ${offered}: who wants it? (rule C5.2)`;
    body = [
      h("div", { class: "cw-ct-offer" }, [
        h("div", { class: "cw-ct-slot-card" }, [
          renderCryptoCard(offered, v, { size: "md", class: "cw-ct-offered" }),
          h("span", { class: "cw-ct-slot-name" }, `from ${f.label(v.first)}`),
        ]),
        h("div", { class: "cw-ct-offer-side" }, [declarationPills(f), h("div", { class: "cw-ct-note" }, withRuleIds(note))]),
      ]),
      lastTrickStrip(f),
    ];
  } else if (v.phase === "follow") {
    const lead = /** @type {string} */ (v.lead_color);
    // the lead colour, named once for the whole trick
    side = h("span", { class: "cw-ct-lead", "data-lead": lead, title: `the lead colour: ${colourWord(lead)} (rule C6.1)` },
      ["lead colour ", swatch(lead, v, colourWord(lead))]);
    const slots = [];
    for (let k = 0; k < n; k++) {
      const seat = (/** @type {number} */ (v.leader) + k) % n;
      const played = (v.table || [])[k];
      slots.push(trickSlot(f, seat, k, played, { winner: v.winning === seat, took: false, next: !played && v.current === seat }));
    }
    body = [h("div", { class: "cw-ct-trick", style: { "--n": n } }, slots), giveLine(f), lastTrickStrip(f)];
  } else if (lt && !f.finished && lt.trick === v.trick - 1) {
    // the trick just taken stays on the table, each card where it was played, until the next offer
    title = `Trick ${lt.trick}: ${f.label(lt.winner)} took it`;
    const slots = lt.cards.map((c, k) => trickSlot(f, c.seat, k, { card: c.card }, { winner: c.seat === lt.winner, took: true, next: false }));
    body = [
      h("div", { class: "cw-ct-trick cw-ct-taken", style: { "--n": n }, "data-trick": lt.trick }, slots),
      h("div", { class: "cw-ct-waiting" }, [
        h("span", null, `Next: ${Who(f, v.current)} ${f.you(v.current) ? "open" : "opens"} trick ${v.trick} with an offer`),
      ]),
    ];
  } else {
    // the start of a round (or the end of the game): the next offer, and the last round's hidden card
    const last = (v.results || [])[v.results.length - 1];
    body = [
      f.finished ? null : h("div", { class: "cw-ct-waiting" }, [
        h("div", { class: "cw-ct-empty", "aria-hidden": "true" }, "?"),
        h("span", null, `${Who(f, v.current)} ${f.you(v.current) ? "open" : "opens"} trick ${v.trick} with an offer`),
      ]),
      f.finished ? lastTrickStrip(f) : null,
      last ? h("div", { class: "cw-ct-last", role: "group", "aria-label": "Last round" }, [
        h("span", { class: "cw-ct-last-title" }, `Round ${last.round}'s hidden card was`),
        renderCryptoCard(/** @type {string} */ (last.hidden), v, { size: "xs", trumps: [], title: `${last.hidden}: round ${last.round}'s hidden card (rule C11.4)`, attrs: { "data-motion": "static" } }),
      ]) : null,
    ];
    title = f.finished ? "Table" : "Next offer";
  }
  return h("section", { class: ["cw-ct-panel", "cw-ct-trickpanel"], "data-phase": v.phase, "aria-label": title }, [
    h("div", { class: "cw-ct-panel-head" }, [h("h3", { class: "cw-panel-title" }, title), side]),
    body,
  ]);
}

/** Round scores and running totals. @param {Frame} f */
function scoresPanel(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const results = v.results || [];
  const rounds = [];
  for (let r = 1; r <= v.rounds; r++) rounds.push(r);
  const head = h("tr", null, [h("th", null, ""), ...rounds.map((r) => {
    const rec = results[r - 1];
    return h("th", { title: rec ? `round ${r}: indicator ${rec.indicator}, hidden card ${rec.hidden}` : `round ${r}` }, `R${r}`);
  }), h("th", { title: "running total (rule C9.4)" }, "Total")]);
  const rows = [];
  for (let s = 0; s < f.n; s++) {
    rows.push(h("tr", { "data-seat": s, class: [f.you(s) && "cw-ct-me", f.current === s && !f.finished && "cw-ct-acting"] }, [
      h("td", { class: "cw-ct-name", title: f.label(s) }, f.label(s)),
      ...rounds.map((r) => {
        const rec = results[r - 1];
        if (rec) return h("td", null, signed(rec.scores[s]));
        if (r === v.round && !f.finished) {
          return h("td", { class: "cw-ct-provisional", title: "if the round ended now (rule C9.2)" }, `(${signed(v.score_now?.[s] ?? 0)})`);
        }
        return h("td", { class: "cw-muted" }, "–");
      }),
      h("td", { class: "cw-ct-total" }, signed(v.totals?.[s] ?? 0)),
    ]));
  }
  return h("section", { class: "cw-ct-panel cw-ct-scores", "aria-label": "Scores" }, [
    h("h3", { class: "cw-panel-title" }, "Scores"),
    h("table", { class: "cw-ct-score-table" }, [h("thead", null, head), h("tbody", null, rows)]),
  ]);
}

// ------------------------------------------------------------------ the player area

/** @param {Frame} f */
function player(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const actor = f.actor;
  if (actor == null) return null;
  const hand = Array.isArray(v.hands?.[actor]) ? /** @type {string[]} */ (v.hands[actor]) : null;
  const live = f.canAct;
  const legal = new Set(f.legal);
  const rules = f.ctx.get("rules") || {};

  // The hint line: what to do now; hovering a card that cannot be played shows why.
  const hintText = hintFor(f, live);
  const hint = h("span", { class: ["cw-hint", "cw-hint-line", live && "cw-hint-step"], "data-hint": "step" }, withRuleIds(hintText));
  // The table is patched in place, so the hint on the page may be an earlier drawing's element
  // that the patch kept: a card finds the one beside it, not this drawing's (then detached) one.
  const showWhy = (/** @type {string | null} */ why, /** @type {Event} */ ev) => {
    const card = /** @type {Element} */ (ev.currentTarget);
    const el = hint.isConnected ? hint : card.closest(".cw-table")?.querySelector(".cw-controls [data-hint]") ?? hint;
    el.textContent = "";
    el.append(...withRuleIds(why ?? hintText));
    el.classList.toggle("cw-hint-warn", !!why);
    el.classList.toggle("cw-hint-step", !why && live);
    el.setAttribute("title", why ?? hintText);
    decorateRuleChips(el, rules);
  };
  hint.setAttribute("title", hintText);

  let handEl;
  if (hand === null) {
    handEl = renderBacks(v.hand_counts?.[actor] ?? 0, { size: "sm" });
  } else {
    let prev = "";
    handEl = h("div", { class: "cw-hand", role: "group", "aria-label": f.teacher ? `${f.name(actor)}'s hand` : "your hand" },
      hand.length ? hand.map((c, i) => {
        const action = cardAction(v.phase, c);
        const ok = !!action && legal.has(action);
        const why = live && action && !ok ? f.refusals[action] : undefined;
        const first = colourOf(c) !== prev;
        prev = colourOf(c);
        const el = renderCryptoCard(c, v, {
          size: "lg",
          playable: live && ok,
          dimmed: live && !!action && !ok,
          title: why,
          class: [first && i > 0 && "cw-ct-newcolour", why && "cw-ct-refused"],
          attrs: { "data-index": i, "data-action": live && ok ? action : null, "data-refusal": why ? ruleOf(why) : null },
          // one click = one action; a card that is not playable is sent too, so Python says why not
          onClick: live && action ? () => f.act(/** @type {string} */ (action)) : undefined,
        });
        if (why) {
          on(el, "mouseenter", (ev) => showWhy(why, ev));
          on(el, "mouseleave", (ev) => showWhy(null, ev));
          on(el, "focus", (ev) => showWhy(why, ev));
          on(el, "blur", (ev) => showWhy(null, ev));
        }
        return el;
      }) : h("span", { class: "cw-hand-empty cw-muted" }, f.finished ? "no cards left" : "no cards in hand"));
  }

  /** @type {import("../lib/dom.js").Child[]} */
  const controls = [];
  if (v.phase === "declare" && (f.teacher || f.you(v.current)) && !f.finished) {
    const offered = v.offered ?? "";
    controls.push(
      h("button", { type: "button", class: "cw-btn cw-btn-primary", "data-action": "want", disabled: !live || !legal.has("want"),
        title: `want ${offered}: the last player to want it takes it (rule C5.4)`, onClick: () => f.act("want") },
      ["Want ", h("span", { class: "cw-btn-cards" }, offered)]),
      h("button", { type: "button", class: "cw-btn", "data-action": "pass", disabled: !live || !legal.has("pass"),
        title: "pass: let it go (rule C5.2)", onClick: () => f.act("pass") }, "Pass"),
    );
  }
  controls.push(hint);

  const moves = f.moves.map((m) => {
    const p = /** @type {ParsedAction & {text: string}} */ (m);
    return moveChip(f, {
      action: p.text,
      title: p.card ? `${p.text}: ${cardWords(p.card, v)}` : p.text,
      content: p.card
        ? [h("span", { class: "cw-ct-move-verb" }, p.kind), h("span", { class: "cw-move-pip", "data-tone": colourOf(p.card) }, p.card)]
        : h("span", { class: "cw-ct-move-word" }, p.kind),
      onClick: () => f.act(p.text),
    });
  });

  const role = roleBadge(f, actor);
  return {
    head: h("div", { class: seatClass(f, actor, ["cw-self", "cw-player-head", "cw-ct-self"]), "data-seat": actor }, [
      seatHead(f, actor, role),
      f.teacher ? h("span", { class: "cw-muted" }, `acting for ${f.name(actor)}`) : null,
      wonSummary(f, actor),
      lastMoveBadge(f, actor),
    ]),
    hand: handEl,
    controls,
    moves,
  };
}

/**
 * The rule ID a refusal cites ("Illegal: rule C6.3 — …" → "C6.3").
 * @param {string} text
 * @returns {string | null}
 */
export function ruleOf(text) {
  const m = /\brule ([A-Z]{1,3}\d+(?:\.\d+)*)/.exec(String(text));
  return m ? m[1] : null;
}

/**
 * The hint line of the player area.
 * @param {Frame} f
 * @param {boolean} live the viewer may act now
 * @returns {string}
 */
function hintFor(f, live) {
  const v = /** @type {CryptoView} */ (f.view);
  if (f.finished) return "";
  if (f.hold && !f.past) return "The round is over: press Continue to go on.";
  if (!live) {
    const w = f.name(v.current);
    if (f.thinking) return `${w} is thinking.`;
    const doing = { offer: `${w} chooses a card to offer.`, declare: `${w} decides whether to want ${v.offered}.`,
      give: `${w} chooses a card to give ${who(f, v.first)}.`, follow: `${w} plays to the trick.` };
    return /** @type {Record<string, string>} */ (doing)[v.phase] ?? "";
  }
  const you = f.teacher ? f.name(v.current) : "you";
  const your = f.teacher ? `${f.name(v.current)}'s` : "your";
  if (v.phase === "offer") return "Click a card to reveal it and offer it to the others (rule C5.1).";
  if (v.phase === "declare") {
    const takes = v.rules?.declaration_mode === "single_pass_first" ? "The first to want it takes it" : "The last to want it takes it";
    return `Want ${v.offered}? ${takes}, leads it and gives ${f.label(v.first)} a card face down (rules C5.4–C5.6). Or pass (rule C5.2).`;
  }
  if (v.phase === "give") return `${Who(f, v.current)} ${f.you(v.current) ? "take" : "takes"} ${v.offered}: click a card to give ${who(f, v.first)} face down (rule C5.5); then ${you} ${f.teacher ? "leads" : "lead"} ${v.offered} (rule C5.6).`;
  if (v.phase === "follow") {
    const lead = colourWord(/** @type {string} */ (v.lead_color));
    const must = Object.values(f.refusals).find((t) => ruleOf(t) === "C6.3");
    if (must) return `Follow ${lead}: ${String(must).replace(/^Illegal: rule C6\.3 — /, "")} (rule C6.3).`;
    return `Lead colour ${lead}: any card of ${your} hand may be played (rule C6.3). Click one.`;
  }
  return "";
}

// ------------------------------------------------------------------ round end and game end

/**
 * The blocks of one seat in a round record: a cube per block card in its colour; the cards
 * themselves in the tooltip when the pile may be seen.
 * @param {CryptoView} v
 * @param {RoundRecord} r
 * @param {number} s
 */
function recordBlocks(v, r, s) {
  const pile = r.won?.[s];
  if (!r.blocks?.[s]) return h("span", { class: "cw-ct-none" }, "none");
  const blockSet = new Set(v.block_cards || []);
  if (Array.isArray(pile)) {
    const blocks = pile.filter((c) => blockSet.has(c));
    return h("span", { class: "cw-ct-record-blocks", title: `block cards won: ${blocks.join(" ")}` }, blockPips(blocks.map(colourOf)));
  }
  // a hidden pile: the record has its block count and the colours among its blocks, no more
  const colours = r.block_colors?.[s] || [];
  return h("span", { class: "cw-ct-record-blocks", title: `${count(r.blocks[s], "block")} in ${listWords(colours.map(colourWord), "and")}: only the blocks of this pile show (rule C11.5)` },
    [blockPips(colours), h("span", { class: "cw-ct-hidden-pile" }, "colours")]);
}

/**
 * How a round is scored, in one line (rule C9.2), as the options of this game have it.
 * @param {CryptoView} v
 */
function scoringLegend(v) {
  const overload = v.rules?.overload_score === "negative_count" ? "−B" : "B";
  return h("p", { class: "cw-ct-legend" }, withRuleIds(
    `Score: no blocks 5 · 1 to 3 blocks B × K (K = their colours) · 4 or more blocks ${overload} (rule C9.2).`));
}

/**
 * The end of a round (the hold the bots wait on): read from the view's round record, which
 * has the hidden card and only the piles the viewer may see.
 * @param {Frame} f
 * @param {import("../lib/frame.js").Hold} hold
 */
function holdPanel(f, hold) {
  const v = /** @type {CryptoView} */ (f.view);
  const results = v.results || [];
  const r = results[results.length - 1];  // the round that just ended
  if (!r) return { title: "Paused", body: h("p", null, withRuleIds(hold.text)) };
  return {
    title: `Round ${r.round} of ${v.rounds} is over`,
    body: [
      // the table behind this panel already holds the next round: say so, so nothing disagrees
      v.round > r.round ? h("p", { class: "cw-hold-next", "data-round": v.round },
        `Round ${v.round} of ${v.rounds} is dealt: the new trump indicator and your new hand are ready.`) : null,
      h("div", { class: "cw-ct-hold-cards" }, [
        h("span", null, "Hidden card"),
        renderCryptoCard(/** @type {string} */ (r.hidden), v, { size: "xs", trumps: [], class: "cw-ct-hidden-card", title: `${r.hidden}: the hidden card, turned up now (rule C11.4)` }),
        h("span", { class: "cw-ct-hold-note" }, withRuleIds(`(rule C11.4) · ${Who(f, r.last_winner)} won the last trick and ${f.you(r.last_winner) ? "start" : "starts"} round ${r.round + 1} (rule C3.3)`)),
      ]),
      roundTable(f, r, hold.text),
      scoringLegend(v),
    ],
  };
}

/**
 * One round's scoring: blocks won, B, K, score, total.
 * @param {Frame} f
 * @param {RoundRecord} r
 * @param {string} [why] Python's narration of the scoring (the table's tooltip)
 */
function roundTable(f, r, why) {
  const v = /** @type {CryptoView} */ (f.view);
  const rows = [];
  for (let s = 0; s < f.n; s++) {
    rows.push(h("tr", { "data-seat": s, class: f.you(s) && "cw-ct-me" }, [
      h("td", null, f.label(s)),
      h("td", { class: "cw-ct-blocks-cell" }, recordBlocks(v, r, s)),
      h("td", null, String(r.blocks[s])),
      h("td", null, String(r.colors[s])),
      h("td", { class: "cw-ct-round-score" }, signed(r.scores[s])),
      h("td", null, signed(r.totals[s])),
    ]));
  }
  return h("table", { class: "cw-scores cw-ct-round", title: why ?? null }, [
    h("thead", null, h("tr", null, [
      h("th", null, "Player"), h("th", null, "Blocks won"),
      h("th", { title: "B: block cards won (rule C9.1)" }, "B"), h("th", { title: "K: colours among them (rule C9.1)" }, "K"),
      h("th", { title: "round score (rule C9.2)" }, `Round ${r.round}`), h("th", { title: "running total (rule C9.4)" }, "Total"),
    ])),
    h("tbody", null, rows),
  ]);
}

/** @param {Frame} f */
function outcome(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const o = v.outcome || { winners: [], scores: [], reason: "" };
  const results = v.results || [];
  const final = results[results.length - 1];
  return {
    headline: headline(f, o.winners || []),
    columns: [...results.map((r) => `Round ${r.round}`), "Total"],
    order: [...Array(f.n).keys()].sort((a, b) => (o.scores?.[b] ?? 0) - (o.scores?.[a] ?? 0) || a - b),
    cells: (s) => [...results.map((r) => signed(r.scores[s])), h("b", null, signed(o.scores?.[s] ?? v.totals?.[s] ?? 0))],
    extra: results.length ? [
      h("div", { class: "cw-ct-hold-cards cw-ct-hiddens" }, [
        h("span", null, "Hidden cards"),
        ...results.map((r) => h("span", { class: "cw-ct-hidden-of", "data-round": r.round }, [
          `R${r.round}`, renderCryptoCard(/** @type {string} */ (r.hidden), v, { size: "xs", trumps: [], title: `${r.hidden}: round ${r.round}'s hidden card (rule C11.4)` }),
        ])),
      ]),
      // the last round is scored here too, as every round before it was at its end
      h("section", { class: "cw-final-round", "aria-label": `Round ${final.round} scored` }, [
        h("h4", { class: "cw-final-round-title" }, `Round ${final.round} of ${v.rounds}, scored`),
        roundTable(f, final),
        scoringLegend(v),
      ]),
    ] : null,
    reason: o.reason ? `${o.reason[0].toUpperCase()}${o.reason.slice(1)}.` : "",
  };
}

/**
 * Where cards come from and go: a card given to the viewer comes from the giver's seat; the cards
 * of a trick taken go to the winner's seat (the block cards to the winner's pile).
 * @param {Frame} f
 * @returns {import("../lib/motion.js").MotionHints}
 */
function motion(f) {
  const v = /** @type {CryptoView} */ (f.view);
  const root = f.ctx.root;
  const seatEl = (/** @type {number} */ s) => root.querySelector(`.cw-felt [data-seat="${s}"]`)
    ?? (f.actor === s ? root.querySelector(".cw-player") : null);
  return {
    enterFrom: (el) => {
      const g = (v.gives || []).at(-1);
      return g && g.card && g.card === el.dataset.card && el.closest(".cw-player .cw-hand") ? seatEl(g.from) : null;
    },
    exitTo: (card) => {
      const lt = v.last_trick;
      return lt && lt.cards.some((c) => c.card === card) ? seatEl(lt.winner) : null;
    },
  };
}

/** @type {import("../lib/frame.js").Layout} */
export const layout = {
  game: GAME,
  title: "Crypto Trick",
  logo: () => icon("block", "cw-ct-icon cw-ct-logo"),
  parse: parseAction,
  chips,
  turnDetail,
  felt,
  player,
  outcome,
  hold: holdPanel,
  describe: describeAction,
  motion,
  uiKey: (f) => [f.view.round, f.view.trick, f.view.phase],
};

export default gameWidget(layout);
