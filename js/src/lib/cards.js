// Card faces and backs. A card is identified only by its notation (`data-card`);
// colour comes from a tone (`data-tone`) that the game chooses, styled in table.css.
import { h, on, stamp } from "./dom.js";

/**
 * @typedef {Object} CardOptions
 * @property {string} [label]        text on the face (default: the notation)
 * @property {string | number} [tone] colour key, written to `data-tone` (table.css has tones 1..8)
 * @property {"xs" | "sm" | "md" | "lg"} [size] default "md"
 * @property {boolean} [selected]    adds `.cw-selected`
 * @property {boolean} [playable]    adds `.cw-playable`
 * @property {boolean} [dimmed]      adds `.cw-dimmed`
 * @property {string} [title]        tooltip
 * @property {string | string[]} [class] extra classes
 * @property {Record<string, string | number | boolean | null | undefined>} [attrs] extra attributes
 * @property {(ev: MouseEvent) => void} [onClick] makes the card a `<button>`
 */

const NOOP = () => {};

/**
 * A card drawn by `build` from its options, drawn once per look and then copied (see `stamp`);
 * the click handler goes on each copy. A game's card face is drawn through this too.
 * @param {any} face what the face shows beyond the options (the notation, the facts of the card)
 * @param {CardOptions} opts
 * @param {(opts: CardOptions) => HTMLElement} build draws the card (its onClick, if any, does nothing)
 * @returns {HTMLElement}
 */
export function stampCard(face, opts, build) {
  const { onClick, ...rest } = opts;
  const clickable = typeof onClick === "function";
  const attrs = /** @type {Record<string, unknown>} */ (rest.attrs || {});
  if (Object.values(attrs).some((v) => typeof v === "function")) return build(opts);  // a handler in attrs: not copied
  const el = stamp(JSON.stringify([face, clickable, rest]), () => build({ ...rest, onClick: clickable ? NOOP : undefined }));
  if (clickable) on(el, "click", /** @type {(ev: MouseEvent) => void} */ (onClick));
  return el;
}

/**
 * Render one face-up card.
 * @param {string | number} value card notation (Depot: the value 1..8)
 * @param {CardOptions} [opts]
 * @returns {HTMLElement} `.cw-card` with `data-card="<notation>"`
 */
export function renderCard(value, opts = {}) {
  return stampCard(String(value), opts, (o) => drawCard(String(value), o));
}

/** @param {string} card @param {CardOptions} opts */
function drawCard(card, opts) {
  const label = opts.label ?? card;
  const size = opts.size ?? "md";
  const clickable = typeof opts.onClick === "function";
  const extra = Array.isArray(opts.class) ? opts.class : [opts.class];
  return h(
    clickable ? "button" : "div",
    {
      ...(opts.attrs || {}),
      type: clickable ? "button" : null,
      class: ["cw-card", `cw-card-${size}`, opts.selected && "cw-selected",
        opts.playable && "cw-playable", opts.dimmed && "cw-dimmed", ...extra],
      "data-card": card,
      "data-tone": opts.tone ?? null,
      title: opts.title ?? null,
      "aria-pressed": clickable ? String(!!opts.selected) : null,
      // A clickable card is named by its face's text (the corners are aria-hidden), so no
      // aria-label here: one that differs from the text a person sees breaks WCAG 2.5.3 (label in
      // name; axe's label-content-name-mismatch). Layouts that name a card in words give attrs.
      onClick: clickable ? opts.onClick : null,
    },
    size === "xs"
      ? h("span", { class: "cw-card-value" }, label)
      : [
          h("span", { class: "cw-card-corner cw-card-tl", "aria-hidden": "true" }, label),
          h("span", { class: "cw-card-value" }, label),
          h("span", { class: "cw-card-corner cw-card-br", "aria-hidden": "true" }, label),
        ],
  );
}

/**
 * Render a hidden card. It carries no `data-card`: nothing about it is known.
 * @param {{size?: "xs" | "sm" | "md" | "lg", title?: string}} [opts]
 * @returns {HTMLElement} `.cw-card.cw-card-back`
 */
export function renderCardBack(opts = {}) {
  return h("div", {
    class: ["cw-card", "cw-card-back", `cw-card-${opts.size ?? "md"}`],
    title: opts.title ?? null,
    "aria-hidden": "true",
  });
}

/**
 * A fanned row of card backs, capped so a big hand stays compact; the exact
 * number goes in a count badge next to it.
 * @param {number} count
 * @param {{size?: "xs" | "sm", max?: number}} [opts]
 * @returns {HTMLElement} `.cw-backs`
 */
export function renderBacks(count, opts = {}) {
  const shown = Math.max(0, Math.min(count, opts.max ?? 12));
  const backs = [];
  for (let i = 0; i < shown; i++) backs.push(renderCardBack({ size: opts.size ?? "xs" }));
  return h("div", { class: "cw-backs", role: "img", "aria-label": `${count} hidden cards` }, backs);
}
