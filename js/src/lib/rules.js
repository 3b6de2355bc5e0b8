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

/** A tooltip holds whole sentences up to about this many characters (at least the first one). */
const TIP_LENGTH = 220;

/**
 * The text of a rule in whole sentences, as many as fit in about `max` characters (always the first).
 * @param {string} text
 * @param {number} [max]
 * @returns {{text: string, more: boolean}}
 */
export function sentences(text, max = TIP_LENGTH) {
  const plain = String(text).replace(/[*`]/g, "").replace(/\s+/g, " ").trim();
  // a sentence ends with . ! ? (or a colon before a list) followed by a capital, a digit or a quote
  const parts = plain.split(/(?<=[.!?:])\s+(?=[A-Z0-9"“(])/);
  let out = "";
  let k = 0;
  for (; k < parts.length; k++) {
    const next = out ? `${out} ${parts[k]}` : parts[k];
    if (out && next.length > max) break;
    out = next;
  }
  return { text: out, more: k < parts.length };
}

/**
 * The tooltip of a rule: "D4.7 · Beating the standing play — its first whole sentences".
 * @param {{id: string, title: string, text: string}} rule
 * @param {string} [asked] the ID the chip shows (when only a parent rule was found)
 */
export function ruleTip(rule, asked = rule.id) {
  const { text, more } = sentences(rule.text);
  const id = asked === rule.id ? rule.id : `${asked} (see ${rule.id})`;
  return `${id} · ${rule.title}${text ? ` — ${text}` : ""}${more ? " (click for the whole rule)" : ""}`;
}

/** @type {WeakMap<object, Map<string, [string, string] | null>>} a rules reference's chip words, by ID */
const TIPS = new WeakMap();

/**
 * Give every rule chip under `root` its tooltip and accessible name.
 * Unknown IDs stay plain (class `cw-rule-unknown`, not clickable).
 * @param {HTMLElement} root
 * @param {Record<string, {title: string, text: string}>} rules
 */
export function decorateRuleChips(root, rules) {
  // the same chips come back at every move: their words are worked out once per rule reference
  const known = rules && typeof rules === "object"
    ? TIPS.get(rules) ?? TIPS.set(rules, new Map()).get(rules) : new Map();
  for (const chip of root.querySelectorAll(".cw-rule[data-rule]")) {
    const id = chip.getAttribute("data-rule") || "";
    if (!known.has(id)) {
      const rule = findRule(rules, id);
      known.set(id, rule ? [ruleTip(rule, id), `rule ${id}: ${rule.title}`] : null);
    }
    const words = known.get(id);
    if (words) {
      chip.setAttribute("title", words[0]);
      chip.setAttribute("aria-label", words[1]);
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
 * The part of the page a reader sees of `el`: the window, cut by every scrolling ancestor
 * (a notebook panel scrolls inside the window).
 * @param {Element} el
 * @returns {{left: number, top: number, right: number, bottom: number}}
 */
export function visibleArea(el) {
  const win = el.ownerDocument.defaultView;
  const out = { left: 0, top: 0, right: win?.innerWidth ?? 0, bottom: win?.innerHeight ?? 0 };
  for (let p = el.parentElement; p; p = p.parentElement) {
    const st = win?.getComputedStyle(p);
    if (!st || !/auto|scroll|hidden|clip/.test(`${st.overflowX} ${st.overflowY}`)) continue;
    const r = p.getBoundingClientRect();
    out.left = Math.max(out.left, r.left);
    out.top = Math.max(out.top, r.top);
    out.right = Math.min(out.right, r.right);
    out.bottom = Math.min(out.bottom, r.bottom);
  }
  return out;
}

/**
 * Put the open rule card next to the chip that opened it, inside the part of the page the reader
 * sees: under the chip when it fits there, else over it (its height capped to the room there).
 * @param {HTMLElement} root the `.cw-table`
 */
export function placeRuleCard(root) {
  const card = /** @type {HTMLElement | null} */ (root.querySelector(":scope > .cw-rule-card"));
  if (!card) return;
  const chip = root.querySelector(`.cw-rule[data-chip="${card.dataset.anchor}"]`);
  const t = root.getBoundingClientRect();
  if (!chip || !t.width) return;  // not laid out (yet): the stylesheet's place
  const c = chip.getBoundingClientRect();
  const seen = visibleArea(root);
  const gap = 6;
  card.style.maxHeight = "";
  const w = card.offsetWidth;
  const hgt = card.offsetHeight;
  const left = Math.max(Math.max(t.left, seen.left) + gap, Math.min(c.left, Math.min(t.right, seen.right) - w - gap));
  const below = seen.bottom - c.bottom - gap;
  const above = c.top - seen.top - gap;
  let top;
  if (hgt <= below || below >= above) {
    top = c.bottom + 4;
    if (hgt > below) card.style.maxHeight = `${Math.max(below - 4, 80)}px`;
  } else {
    const room = Math.min(hgt, above);
    top = c.top - 4 - room;
    if (hgt > above) card.style.maxHeight = `${room}px`;
  }
  card.style.left = `${Math.round(left - t.left)}px`;
  card.style.top = `${Math.round(top - t.top)}px`;
  card.style.right = "auto";
  card.classList.add("cw-rule-card-placed");
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
