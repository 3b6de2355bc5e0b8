// A hand of face-up cards whose cards can be toggled. Selection is by position,
// because equal cards are interchangeable but each one is a separate thing to click.
import { h } from "./dom.js";
import { renderCard } from "./cards.js";

/**
 * @typedef {Object} HandOptions
 * @property {Array<string | number>} cards   card notations in display order
 * @property {Set<number>} [selected]          selected positions
 * @property {(card: string | number, i: number) => boolean} [isPlayable] adds `.cw-playable`
 * @property {(card: string | number, i: number) => boolean} [isDimmed]   adds `.cw-dimmed`
 * @property {(card: string | number, i: number) => (string | number | undefined)} [tone]
 * @property {(i: number, card: string | number) => void} [onToggle] makes cards clickable
 * @property {"sm" | "md" | "lg"} [size]
 * @property {string} [label] accessible name of the hand
 * @property {string} [empty] text shown when the hand is empty
 * @property {string | string[]} [class] extra classes on the container
 */

/**
 * Render a hand.
 * @param {HandOptions} opts
 * @returns {HTMLElement} `.cw-hand` with one `.cw-card[data-card][data-index]` per card
 */
export function renderHand(opts) {
  const selected = opts.selected ?? new Set();
  const extra = Array.isArray(opts.class) ? opts.class : [opts.class];
  const onToggle = opts.onToggle;
  const cards = opts.cards.map((c, i) =>
    renderCard(c, {
      size: opts.size ?? "lg",
      tone: opts.tone ? opts.tone(c, i) : undefined,
      selected: selected.has(i),
      playable: opts.isPlayable ? opts.isPlayable(c, i) : false,
      dimmed: opts.isDimmed ? opts.isDimmed(c, i) : false,
      attrs: { "data-index": i },
      onClick: onToggle ? () => onToggle(i, c) : undefined,
    }),
  );
  return h("div", { class: ["cw-hand", ...extra], role: "group", "aria-label": opts.label ?? "hand" },
    cards.length ? cards : h("span", { class: "cw-hand-empty cw-muted" }, opts.empty ?? "no cards"));
}

/**
 * Toggle a position in a selection set (returns a new set).
 * @param {Set<number>} set
 * @param {number} i
 * @returns {Set<number>}
 */
export function toggled(set, i) {
  const next = new Set(set);
  if (next.has(i)) next.delete(i); else next.add(i);
  return next;
}
