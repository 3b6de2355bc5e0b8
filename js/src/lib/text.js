// Text helpers: rule IDs (D4.7, G1, NA-3 …) in narration, errors and hints become rule
// chips, which the frame explains from the `rules` trait (see rules.js).
import { h } from "./dom.js";

/**
 * Rule IDs as the rules specs write them: dotted IDs (`D4.7`, `C12.3`), appendix
 * IDs (`DA-3`, `NA-12`), and bare IDs (`G1`, `D6`) when they follow "rule"/"rules"
 * or stand alone in parentheses.
 */
export const RULE_ID = /\b[A-Z]{1,3}\d+(?:\.\d+)+\b|\b[A-Z]{1,3}-\d+\b|(?<=\brules? )[A-Z]{1,3}\d+\b|(?<=\()[A-Z]{1,3}\d+(?=\))/g;

/**
 * Split text into text nodes and rule chips (`<button class="cw-rule" data-rule="D4.7">`).
 * The chips explain themselves once the frame has read the rules (hover shows the
 * rule's title, a click opens its text).
 * @param {string} text
 * @returns {Node[]}
 */
export function withRuleIds(text) {
  /** @type {Node[]} */
  const out = [];
  let last = 0;
  const s = String(text ?? "");
  for (const m of s.matchAll(RULE_ID)) {
    const i = /** @type {number} */ (m.index);
    if (i > last) out.push(document.createTextNode(s.slice(last, i)));
    out.push(h("button", { type: "button", class: "cw-rule", "data-rule": m[0] }, m[0]));
    last = i + m[0].length;
  }
  if (last < s.length) out.push(document.createTextNode(s.slice(last)));
  return out;
}

/**
 * Join words as "a, b or c".
 * @param {Array<string | number>} items
 * @param {string} [word] the last separator, "or" by default
 * @returns {string}
 */
export function listWords(items, word = "or") {
  const xs = items.map(String);
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} ${word} ${xs[xs.length - 1]}`;
}

/**
 * "1 card", "3 cards"; `none` replaces a zero count ("no cards").
 * @param {number} n
 * @param {string} word singular
 * @param {{plural?: string, none?: string}} [opts]
 * @returns {string}
 */
export function count(n, word, opts = {}) {
  if (n === 0 && opts.none) return opts.none;
  return `${n} ${n === 1 ? word : opts.plural ?? `${word}s`}`;
}

/** @param {number} n @returns {string} "1st", "2nd", "3rd", "11th" … */
export function ordinal(n) {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/** @param {number} n @returns {string} "one", "two" … "twelve", else the digits */
export function numberWord(n) {
  return ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"][n] ?? String(n);
}

/** The typographic minus: every negative number the table writes uses it (as the narration does). */
export const MINUS = "\u2212";

/**
 * A number as the table writes it: the typographic minus for negatives ("−3"), never "-3".
 * @param {number | string | null | undefined} v
 * @param {{plus?: boolean}} [opts] `plus`: "+3" for positives
 * @returns {string}
 */
export function signed(v, opts = {}) {
  const n = Number(v);
  if (v == null || v === "" || Number.isNaN(n)) return String(v ?? "");
  if (n < 0) return `${MINUS}${-n}`;
  return opts.plus && n > 0 ? `+${n}` : String(n);
}
