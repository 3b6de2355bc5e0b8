// Rule chips: every `.cw-rule[data-rule]` chip explains the rule from the `rules` trait
// ({id: {title, text}}): its tooltip names the rule, a click opens the rule's card.
import { h } from "./dom.js";

/**
 * The rule for an ID, or its nearest parent that the reference has (D4.7.2 → D4.7 → D4).
 * @param {Record<string, {title: string, text: string}> | null | undefined} rules
 * @param {string} id
 * @returns {{id: string, title: string, text: string} | null}
 */
export function findRule(rules, id) {
  if (!rules || typeof rules !== "object") return null;
  let key = String(id);
  for (;;) {
    const r = rules[key];
    if (r && typeof r === "object") return { id: key, title: String(r.title ?? ""), text: String(r.text ?? "") };
    const cut = key.lastIndexOf(".");
    if (cut < 0) return null;
    key = key.slice(0, cut);
  }
}

/**
 * The short tooltip of a rule: "D4.7 · Beating the standing play — first sentence…".
 * @param {{id: string, title: string, text: string}} rule
 * @param {string} [asked] the ID the chip shows (when only a parent rule was found)
 */
export function ruleTip(rule, asked = rule.id) {
  const plain = rule.text.replace(/[*`]/g, "").replace(/\s+/g, " ").trim();
  const first = plain.length > 220 ? `${plain.slice(0, 219)}…` : plain;
  const id = asked === rule.id ? rule.id : `${asked} (see ${rule.id})`;
  return `${id} · ${rule.title}${first ? ` — ${first}` : ""}`;
}

/**
 * Give every rule chip under `root` its tooltip and accessible name.
 * Unknown IDs stay plain (class `cw-rule-unknown`, not clickable).
 * @param {HTMLElement} root
 * @param {Record<string, {title: string, text: string}>} rules
 */
export function decorateRuleChips(root, rules) {
  for (const chip of root.querySelectorAll(".cw-rule[data-rule]")) {
    const id = chip.getAttribute("data-rule") || "";
    const rule = findRule(rules, id);
    if (rule) {
      chip.setAttribute("title", ruleTip(rule, id));
      chip.setAttribute("aria-label", `rule ${id}: ${rule.title}`);
      chip.setAttribute("aria-haspopup", "dialog");
    } else {
      chip.classList.add("cw-rule-unknown");
      chip.setAttribute("tabindex", "-1");
    }
  }
}

/**
 * The card that shows one rule in full (opened by clicking a chip).
 * @param {string} id the ID clicked
 * @param {Record<string, {title: string, text: string}>} rules
 * @param {() => void} onClose
 * @returns {HTMLElement | null} `.cw-rule-card[data-rule]`
 */
export function renderRuleCard(id, rules, onClose) {
  const rule = findRule(rules, id);
  if (!rule) return null;
  return h("section", { class: "cw-rule-card", role: "dialog", "aria-label": `Rule ${rule.id}`, "data-rule": rule.id }, [
    h("header", { class: "cw-rule-card-head" }, [
      h("span", { class: "cw-rule-card-id" }, rule.id),
      h("span", { class: "cw-rule-card-title" }, rule.title),
      h("button", {
        type: "button", class: "cw-rule-card-close", "data-control": "close-rule",
        title: "Close", "aria-label": "Close the rule", onClick: onClose,
      }, "×"),
    ]),
    id !== rule.id ? h("p", { class: "cw-muted" }, `${id} is part of rule ${rule.id}.`) : null,
    h("div", { class: "cw-rule-card-text" }, markdown(rule.text)),
  ]);
}

/**
 * A small, safe subset of Markdown (paragraphs, "- " lists, tables, **bold**, `code`),
 * built as DOM nodes: the rules text is never parsed as HTML.
 * @param {string} text
 * @returns {HTMLElement[]}
 */
export function markdown(text) {
  const blocks = String(text).replace(/\r\n/g, "\n").split(/\n\s*\n/);
  /** @type {HTMLElement[]} */
  const out = [];
  for (const block of blocks) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      out.push(h("ul", null, lines.map((l) => h("li", null, inline(l.replace(/^\s*[-*] /, ""))))));
    } else if (lines.every((l) => l.trim().startsWith("|"))) {
      const rows = lines.filter((l) => !/^\s*\|[\s|:-]+\|\s*$/.test(l))
        .map((l) => l.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim()));
      out.push(h("table", { class: "cw-rule-table" }, rows.map((cells, i) =>
        h("tr", null, cells.map((c) => h(i === 0 ? "th" : "td", null, inline(c)))))));
    } else {
      out.push(h("p", null, inline(lines.join(" "))));
    }
  }
  return out;
}

/** @param {string} s @returns {Array<Node | string>} */
function inline(s) {
  /** @type {Array<Node | string>} */
  const out = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`/g;
  let last = 0;
  for (const m of s.matchAll(re)) {
    const i = /** @type {number} */ (m.index);
    if (i > last) out.push(s.slice(last, i));
    out.push(m[1] !== undefined ? h("b", null, m[1]) : h("code", null, m[2]));
    last = i + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}
