// Text helpers: emphasise rule IDs (D4.7, G1, DA-3 …) in narration and errors.
import { h } from "./dom.js";

/**
 * Rule IDs as the rules specs write them: dotted IDs (`D4.7`, `C12.3`), appendix
 * IDs (`DA-3`, `DE-06`), and bare IDs (`G1`, `D6`) when they follow "rule"/"rules"
 * or stand alone in parentheses.
 */
export const RULE_ID = /\b[A-Z]{1,3}\d+(?:\.\d+)+\b|\b[A-Z]{1,3}-\d+\b|(?<=\brules? )[A-Z]{1,3}\d+\b|(?<=\()[A-Z]{1,3}\d+(?=\))/g;

/**
 * Split text into text nodes and `<span class="cw-rule">` elements around rule IDs.
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
    out.push(h("span", { class: "cw-rule", "data-rule": m[0] }, m[0]));
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
