// Yadokarick notation and card faces (display only: no rules here). A card is "G25" or "P8":
// colour letter and number. Its house size and whether it is a roof come from the view
// (`view.sizes`, `view.roofs`), never from a table in JS.
import { h, svgIcon } from "../lib/dom.js";
import { renderCard, renderCardBack, stampCard } from "../lib/cards.js";

// ------------------------------------------------------------------ notation

/**
 * A parsed Yadokarick action (canonical notation, as `legal` holds it).
 * @typedef {{kind: "play", card: string} | {kind: "move", dir: "left" | "right" | "stay"}
 *   | {kind: "arrange", cards: string[]} | {kind: "place", card: string, crab: string}
 *   | {kind: "giveup", crab: string} | {kind: "draw", colour: "green" | "pink"}
 *   | {kind: "row", colour: "green" | "pink"} | {kind: "take", card: string} | {kind: "decline"}} ParsedAction
 */

const CARD = "([GP]\\d{1,2})";
const PATTERNS = /** @type {Array<[RegExp, (m: RegExpExecArray) => ParsedAction]>} */ ([
  [new RegExp(`^play\\s+${CARD}$`, "i"), (m) => ({ kind: "play", card: m[1].toUpperCase() })],
  [/^move\s+(left|right|stay)$/i, (m) => ({ kind: "move", dir: /** @type {any} */ (m[1].toLowerCase()) })],
  [new RegExp(`^arrange\\s+(${CARD}(?:\\s*,\\s*${CARD})*)$`, "i"),
    (m) => ({ kind: "arrange", cards: m[1].split(/\s*,\s*/).map((c) => c.toUpperCase()) })],
  [new RegExp(`^place\\s+${CARD}\\s+([A-D])$`, "i"), (m) => ({ kind: "place", card: m[1].toUpperCase(), crab: m[2].toUpperCase() })],
  [/^giveup\s+([A-D])$/i, (m) => ({ kind: "giveup", crab: m[1].toUpperCase() })],
  [/^draw\s+(green|pink)$/i, (m) => ({ kind: "draw", colour: /** @type {any} */ (m[1].toLowerCase()) })],
  [/^row\s+(green|pink)$/i, (m) => ({ kind: "row", colour: /** @type {any} */ (m[1].toLowerCase()) })],
  [new RegExp(`^take\\s+${CARD}$`, "i"), (m) => ({ kind: "take", card: m[1].toUpperCase() })],
  [/^decline$/i, () => ({ kind: "decline" })],
]);

/**
 * Read one action in canonical notation (notation, not rules).
 * @param {string} text e.g. "play G25", "move left", "place G17 B", "giveup C", "draw pink", "take P19"
 * @returns {ParsedAction | null} null when the text is not canonical Yadokarick notation
 */
export function parseAction(text) {
  const s = String(text ?? "").trim().replace(/\s+/g, " ");
  for (const [re, make] of PATTERNS) {
    const m = re.exec(s);
    if (m) return make(m);
  }
  return null;
}

/** @param {string} card @returns {string} */
export const playNotation = (card) => `play ${card}`;
/** @param {string} card @param {string} crab @returns {string} */
export const placeNotation = (card, crab) => `place ${card} ${crab}`;
/** @param {string[]} cards bottom to top @returns {string} */
export const arrangeNotation = (cards) => `arrange ${cards.join(",")}`;

// ------------------------------------------------------------------ cards

/**
 * What a card name says: its colour and number.
 * @param {string} card "G25"
 * @returns {{colour: "green" | "pink", letter: "G" | "P", number: number}}
 */
export function cardParts(card) {
  const s = String(card);
  const letter = s[0] === "P" ? "P" : "G";
  return { colour: letter === "P" ? "pink" : "green", letter, number: Number(s.slice(1)) };
}

/**
 * The facts a view gives about cards: house sizes and roof cards.
 * @typedef {{sizes: Record<string, number>, roofs: Set<string>}} Deck
 */

/**
 * @param {Record<string, any>} view
 * @returns {Deck}
 */
export function deckOf(view) {
  return { sizes: view.sizes && typeof view.sizes === "object" ? view.sizes : {}, roofs: new Set(Array.isArray(view.roofs) ? view.roofs : []) };
}

/**
 * The total house size of some cards (a sum of the sizes the view gives).
 * @param {Deck} deck
 * @param {string[] | null | undefined} cards
 */
export const sizeSum = (deck, cards) => (cards || []).reduce((a, c) => a + (deck.sizes[c] ?? 0), 0);

/**
 * "G25 · size 1", "G20 · size 4 · roof".
 * @param {string} card
 * @param {Deck} deck
 */
export function cardTitle(card, deck) {
  const size = deck.sizes[card];
  return [card, size != null ? `size ${size}` : null, deck.roofs.has(card) ? "roof" : null].filter(Boolean).join(" · ");
}

/** @returns {SVGElement} a small roof (a house's gable), drawn, not a glyph */
export function roofIcon(cls = "cw-roof-icon") {
  return svgIcon("0 0 20 10", '<path d="M1 9.2 10 1.2 19 9.2" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linejoin="round" stroke-linecap="round"/>', cls);
}

/** @returns {SVGElement} a hermit crab: the body card a house is built on */
export function crabIcon(cls = "cw-crab-icon") {
  return svgIcon("0 0 40 16", '<path d="M8 13c1-6 23-6 24 0z" fill="currentColor"/>'
    + '<path d="M15 8 13 3M25 8l2-5" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>'
    + '<circle cx="13" cy="2.6" r="1.7" fill="currentColor"/><circle cx="27" cy="2.6" r="1.7" fill="currentColor"/>'
    + '<path d="M8 11C4 11 2 8 3 6c2 0 4 1 5 3M32 11c4 0 6-3 5-5-2 0-4 1-5 3" fill="currentColor"/>'
    + '<path d="M11 13.5 9 15.5M16 14v2M24 14v2M29 13.5l2 2" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>', cls);
}

/**
 * Size pips: one dot per unit of house size.
 * @param {number | undefined} size
 */
function pips(size) {
  const dots = [];
  for (let i = 0; i < Math.min(size ?? 0, 8); i++) dots.push(h("i"));
  return h("span", { class: "cw-pips", "data-size": size ?? null, "aria-hidden": "true" }, dots);
}

/**
 * Render one face-up Yadokarick card: colour tone, number, size pips, a roof mark on roof cards.
 * The footer (number and pips) is what shows of a card lower in a house stack.
 * @param {string} card notation, written to `data-card`
 * @param {Deck} deck
 * @param {import("../lib/cards.js").CardOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderYkCard(card, deck, opts = {}) {
  const size = deck.sizes[card];
  const roof = deck.roofs.has(card);
  return stampCard([card, size ?? null, roof], opts, (o) => drawYkCard(card, deck, o));
}

/** @param {string} card @param {Deck} deck @param {import("../lib/cards.js").CardOptions} opts */
function drawYkCard(card, deck, opts) {
  const { colour, letter, number } = cardParts(card);
  const size = deck.sizes[card];
  const roof = deck.roofs.has(card);
  const extra = Array.isArray(opts.class) ? opts.class : [opts.class];
  const el = renderCard(card, {
    ...opts,
    tone: colour === "pink" ? "P" : "G",
    label: String(number),
    title: opts.title ?? cardTitle(card, deck),
    class: [roof && "cw-roof-card", ...extra],
  });
  // A card button is named by what it shows (WCAG 2.5.3, label in name): its colour letter and
  // number ("G 20"); the footer repeats them (aria-hidden) and the words are its title. A card
  // that is no button is an image named in words.
  const button = el.tagName === "BUTTON";
  if (!button) {
    el.setAttribute("aria-label", cardTitle(card, deck));
    el.setAttribute("role", "img");  // a label is allowed on an image, not on a bare div
  }
  if (size != null) el.dataset.size = String(size);
  if ((opts.size ?? "md") === "xs") {
    if (roof) el.append(roofIcon("cw-roof-icon cw-roof-xs"));
    return el;
  }
  for (const c of el.querySelectorAll(".cw-card-corner")) c.remove();
  el.prepend(h("span", { class: "cw-card-letter", "aria-hidden": button ? null : "true" }, letter));
  if (roof) el.append(roofIcon());
  el.append(h("span", { class: "cw-card-foot", "aria-hidden": "true" }, [h("b", null, String(number)), pips(size)]));
  return el;
}

/**
 * A face-down pile: a few backs and the exact count.
 * @param {number} count
 * @param {{max?: number, size?: "xs" | "sm", title?: string, label?: string, class?: string}} [opts]
 */
export function renderPile(count, opts = {}) {
  const shown = Math.max(0, Math.min(count, opts.max ?? 3));
  const backs = [];
  for (let i = 0; i < shown; i++) backs.push(renderCardBack({ size: opts.size ?? "xs" }));
  return h("div", { class: ["cw-pile", opts.class], title: opts.title ?? null }, [
    h("div", { class: "cw-pile-backs", style: { "--k": shown } }, shown ? backs : h("div", { class: "cw-slot", "aria-hidden": "true" })),
    opts.label != null ? h("span", { class: "cw-pile-label" }, opts.label) : null,
  ]);
}

/**
 * A house: its stack of face-up cards, bottom (nearest the body) to top, on the crab's body.
 * @param {string[]} cards bottom to top
 * @param {Deck} deck
 * @param {{limit: number, roofed?: boolean, label?: string, cardOpts?: (card: string, i: number) => import("../lib/cards.js").CardOptions}} opts
 */
export function renderHouse(cards, deck, opts) {
  return h("div", {
    class: ["cw-house", opts.roofed && "cw-roofed"], "data-count": cards.length,
    style: { "--limit": Math.max(opts.limit, cards.length, 1) },
    role: "group", "aria-label": opts.label ?? "house",
  }, [
    h("div", { class: "cw-stack" }, [
      ...cards.map((c, i) => {
        const o = opts.cardOpts ? opts.cardOpts(c, i) : {};
        const more = Array.isArray(o.class) ? o.class : [o.class];
        return renderYkCard(c, deck, { size: "sm", ...o, class: [i === cards.length - 1 && "cw-top", ...more] });
      }),
      // the roof sits on the top card (the stack is drawn bottom up)
      opts.roofed ? h("div", { class: "cw-house-roof", title: "roofed: the house is fixed for the rest of the round (rule Y8.6)" }, roofIcon("cw-roof-icon cw-roof-big")) : null,
    ]),
    h("div", { class: "cw-body-card", title: "the body card: the hermit crab the house is built on" }, crabIcon()),
  ]);
}
