// Tiny DOM helpers shared by every game table. No framework: a table is drawn from the synced
// traits on every change with plain element factories, then the live table is patched to match.

/**
 * @typedef {string | number | Node | null | undefined | false | Child[]} Child
 *   Anything `h` accepts as a child: text, nodes, nested arrays; null/false are skipped.
 */

/**
 * @typedef {Record<string, any>} Attrs
 *   `class` (string, array or {name: bool}), `style` (string or object),
 *   `on<Event>` functions (added with addEventListener), `data-*`/`aria-*`
 *   and other attributes (true → present, false/null/undefined → absent),
 *   and DOM properties `value`, `checked`, `selected`, `tabIndex`.
 */

const PROPS = new Set(["value", "checked", "selected", "tabIndex"]);

/** @type {WeakMap<EventTarget, Record<string, ((ev: any) => void) | undefined>>} each element's handlers */
const HANDLERS = new WeakMap();

/** The one listener every handler goes through: an element kept by a redraw takes the new handlers. */
function dispatch(/** @type {Event} */ ev) {
  const fn = HANDLERS.get(/** @type {EventTarget} */ (ev.currentTarget))?.[ev.type];
  if (fn) fn.call(ev.currentTarget, ev);
}

/**
 * Handle `type` events on `el` with `fn`, replacing the handler set before (not adding a second):
 * a redraw patches the live table, so an element may be drawn, and given its handler, many times.
 * @param {Element} el
 * @param {string} type
 * @param {(ev: any) => void} fn
 */
export function on(el, type, fn) {
  let map = HANDLERS.get(el);
  if (!map) HANDLERS.set(el, (map = {}));
  map[type] = fn;
  el.addEventListener(type, dispatch);  // the same function twice is added once
}

/**
 * Give the live element `from` the handlers of its new drawing `to` (it stays, `to` is dropped).
 * @param {Element} from
 * @param {Element} to
 */
export function adoptHandlers(from, to) {
  const want = HANDLERS.get(to);
  if (!want && !HANDLERS.has(from)) return;
  const map = /** @type {Record<string, any>} */ ({});
  for (const t of Object.keys(HANDLERS.get(from) || {})) map[t] = undefined;
  for (const [t, fn] of Object.entries(want || {})) {
    map[t] = fn;
    from.addEventListener(t, dispatch);
  }
  HANDLERS.set(from, map);
}

/**
 * Normalise a class specification to a space-separated string.
 * @param {string | Array<string | false | null | undefined> | Record<string, any>} spec
 * @returns {string}
 */
export function cls(spec) {
  if (!spec) return "";
  if (typeof spec === "string") return spec;
  if (Array.isArray(spec)) return spec.filter(Boolean).join(" ");
  return Object.keys(spec).filter((k) => spec[k]).join(" ");
}

/**
 * Create an element.
 * @param {string} tag  tag name, e.g. "div" or "button"
 * @param {Attrs | null} [attrs]
 * @param {Child} [children]
 * @returns {HTMLElement}
 * @example h("button", {class: "cw-btn", "data-control": "play", onClick: go}, "Play")
 */
export function h(tag, attrs, children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, val] of Object.entries(attrs)) {
      if (val === undefined || val === null || val === false) continue;
      if (key === "class" || key === "className") {
        const c = cls(val);
        if (c) el.className = c;
      } else if (key === "style") {
        if (typeof val === "string") el.setAttribute("style", val);
        else for (const [p, v] of Object.entries(val)) {
          if (v === undefined || v === null) continue;
          if (p.startsWith("--")) el.style.setProperty(p, String(v));
          else /** @type {any} */ (el.style)[p] = v;
        }
      } else if (key.startsWith("on") && typeof val === "function") {
        on(el, key.slice(2).toLowerCase(), val);
      } else if (PROPS.has(key)) {
        /** @type {any} */ (el)[key] = val;
      } else {
        el.setAttribute(key, val === true ? "" : String(val));
      }
    }
  }
  append(el, children);
  return el;
}

/**
 * Append children (text, nodes, nested arrays) to a parent, skipping empty ones.
 * @param {Node} parent
 * @param {Child} children
 * @returns {Node} the parent
 */
export function append(parent, children) {
  if (children === undefined || children === null || children === false) return parent;
  if (Array.isArray(children)) {
    for (const c of children) append(parent, c);
  } else if (children instanceof Node) {
    parent.appendChild(children);
  } else {
    parent.appendChild(document.createTextNode(String(children)));
  }
  return parent;
}

/**
 * Remove all children of an element.
 * @param {Element} el
 */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** @type {Map<string, Element>} elements drawn once, by what they show, then copied */
const STAMPS = new Map();

/**
 * A copy of what `build` draws for `key`: drawn once, then cloned. A table draws the same cards
 * and lines again at every move, and one native copy is far cheaper than building each part and
 * setting each attribute. `build` must attach no handler (a copy has none): put them on the copy.
 * @template {Element} T
 * @param {string} key everything the drawing depends on
 * @param {() => T} build
 * @returns {T}
 */
export function stamp(key, build) {
  let proto = STAMPS.get(key);
  if (!proto) {
    if (STAMPS.size >= 4000) STAMPS.clear();  // a long session starts again rather than grow
    proto = build();
    STAMPS.set(key, proto);
  }
  return /** @type {T} */ (proto.cloneNode(true));
}

/** @type {Map<string, SVGSVGElement>} parsed icons, cloned for each use */
const ICONS = new Map();

/**
 * An inline, aria-hidden SVG icon from its markup: parsed once, then cloned (a table is redrawn
 * on every move, and parsing the markup each time was a good part of drawing a card).
 * @param {string} viewBox
 * @param {string} markup the SVG's children
 * @param {string} cls
 * @returns {SVGSVGElement}
 */
export function svgIcon(viewBox, markup, cls) {
  const key = `${viewBox}|${markup}`;
  let proto = ICONS.get(key);
  if (!proto) {
    proto = /** @type {SVGSVGElement} */ (document.createElementNS("http://www.w3.org/2000/svg", "svg"));
    proto.setAttribute("viewBox", viewBox);
    proto.setAttribute("aria-hidden", "true");
    proto.innerHTML = markup;
    ICONS.set(key, proto);
  }
  const svg = /** @type {SVGSVGElement} */ (proto.cloneNode(true));
  svg.setAttribute("class", cls);
  return svg;
}
