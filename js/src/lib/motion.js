// Card motion: a redraw puts the DOM in its final state at once; this module then makes the
// cards travel there (FLIP with the Web Animations API). A card that moved slides from where it
// was; a new card comes from where it came from (a seat, the deck); a card that left flies to
// where it went (a winner's seat, the discard) as a short-lived copy. Updates that arrive
// together (several bot moves) are queued: each one starts when the one before has finished.
// Nothing here changes what the DOM holds, so tests never wait for it.

/** @typedef {{x: number, y: number, w: number, h: number}} Box */

/**
 * Where cards come from and go to, for one update (a layout may give them; see Layout.motion).
 * @typedef {Object} MotionHints
 * @property {(card: HTMLElement) => (Element | null)} [enterFrom] the origin of a card that appeared
 * @property {(card: string, from: HTMLElement) => (Element | null)} [exitTo] where a card that left went
 */

/** How long one card travels, and the pause between the cards of one update (ms). */
export const DURATION = 240;
export const STAGGER = 70;
/** A queue longer than this is dropped (ms): the table never lags far behind the game. */
const MAX_LAG = 1500;

/** Cards that take part: faces with a notation (a layout opts a copy out with data-motion="static"). */
const CARDS = "[data-card]:not([data-motion=static])";

/** @param {DOMRect} r @returns {Box} */
const box = (r) => ({ x: r.x, y: r.y, w: r.width, h: r.height });

/**
 * True when the system asks for reduced motion.
 * @returns {boolean}
 */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * True when this browser can animate elements (the Web Animations API).
 * @returns {boolean}
 */
export function canAnimate() {
  return typeof Element !== "undefined" && typeof Element.prototype.animate === "function";
}

/**
 * The motion of one table.
 * @param {HTMLElement} root the `.cw-table` element
 */
export function createMotion(root) {
  /** @type {WeakMap<Element, {frames: Keyframe[], options: KeyframeAnimationOptions, anim: Animation, final: Box}>} */
  const live = new WeakMap();
  let busyUntil = 0;
  /** @type {Set<Element>} cards landed by a redraw, to fly on in the next `play` (else forgotten) */
  const landed = new Set();
  /** Forget the flights of landed cards that no `play` took up: they are at rest. */
  const forgetLanded = () => {
    for (const el of landed) if (/** @type {any} */ (live.get(el)?.anim)?.landed) live.delete(el);
    landed.clear();
  };
  const layer = document.createElement("div");
  layer.className = "cw-motion-layer";
  layer.setAttribute("aria-hidden", "true");

  /** @param {Element} el @returns {Box} its place once its animation is over */
  const rectOf = (el) => {
    const l = live.get(el);
    if (l && l.anim.playState !== "finished") return l.final;
    return box(el.getBoundingClientRect());
  };

  /** @param {Element} el */
  const counted = (el) => !el.closest(".cw-overlay, .cw-rule-card, .cw-motion-layer");

  /**
   * Animate `el` from box `a` to its place `b` (a write: every layout read is done before).
   * @param {HTMLElement} el
   * @param {Box} a
   * @param {Box} b
   * @param {{fade: boolean, shrink: boolean, end: string}} o  `end`: the card's own transform at rest
   * @param {number} delay ms
   */
  function fly(el, a, b, o, delay) {
    const k = o.shrink ? 0.7 : 1;
    const sx = b.w ? (a.w / b.w) * k : 1;
    const sy = b.h ? (a.h / b.h) * k : 1;
    /** @type {Keyframe[]} */
    const frames = [
      { transformOrigin: "0 0", transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${sx}, ${sy})`, opacity: o.fade ? 0 : 1 },
      { transformOrigin: "0 0", transform: o.end && o.end !== "none" ? o.end : "none", opacity: 1 },
    ];
    /** @type {KeyframeAnimationOptions} */
    const options = { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" };
    live.set(el, { frames, options, anim: el.animate(frames, options), final: b });
  }

  /**
   * A copy of a card that left, flying to box `t` (or fading where it was); a write, as `fly`.
   * @param {HTMLElement} old the element before the redraw (detached now)
   * @param {Box} r where it was
   * @param {Box | null} t where it went
   * @param {Box} rootBox
   * @param {number} delay ms
   */
  function leave(old, r, t, rootBox, delay) {
    const copy = /** @type {HTMLElement} */ (old.cloneNode(true));
    for (const a of ["data-card", "data-action", "data-control", "id", "tabindex"]) copy.removeAttribute(a);
    copy.classList.add("cw-motion-copy");
    Object.assign(copy.style, {
      position: "absolute", left: `${r.x - rootBox.x}px`, top: `${r.y - rootBox.y}px`,
      width: `${r.w}px`, height: `${r.h}px`, margin: "0", transform: "none",
    });
    layer.appendChild(copy);
    const frames = t && t.w
      ? [{ transform: "none", opacity: 1 },
        { transform: `translate(${t.x + t.w / 2 - r.x - r.w / 2}px, ${t.y + t.h / 2 - r.y - r.h / 2}px) scale(0.5)`, opacity: 0.2 }]
      : [{ transform: "none", opacity: 1 }, { transform: "scale(0.9)", opacity: 0 }];
    const anim = copy.animate(frames, { duration: t && t.w ? DURATION : 180, delay, easing: "ease-in", fill: "both" });
    anim.onfinish = () => copy.remove();
    anim.oncancel = () => copy.remove();
  }

  return {
    /** The layer for copies of cards that left; the table puts it back after each redraw. */
    layer,

    /**
     * Where every card is (or is going) before a redraw.
     * @returns {Map<string, Array<{el: HTMLElement, r: Box}>>}
     */
    snapshot() {
      forgetLanded();
      /** @type {Map<string, Array<{el: HTMLElement, r: Box}>>} */
      const out = new Map();
      for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(CARDS))) {
        if (!counted(el)) continue;
        const r = rectOf(el);
        if (!r.w || !r.h) continue;
        const key = el.getAttribute("data-card") || "";
        const list = out.get(key) ?? [];
        list.push({ el, r });
        out.set(key, list);
      }
      // where the table was: a snapshot taken a frame early still fits after the page scrolled
      /** @type {any} */ (out).origin = box(root.getBoundingClientRect());
      return out;
    },

    /**
     * Animate from `before` to the DOM now in `root`. Every layout read comes first, then every
     * write (starting an animation makes the style stale: a read after it would lay the page out
     * again, once per card).
     * @param {Map<string, Array<{el: HTMLElement, r: Box}>>} before
     * @param {MotionHints} [hints]
     * @returns {{moving: number, snapshot: Map<string, Array<{el: HTMLElement, r: Box}>>}} the number
     *   of cards set in motion, and where every card will be once at rest (the next update's `before`)
     */
    play(before, hints = {}) {
      const now = performance.now();
      const lag = Math.max(0, busyUntil - now);
      const start = lag > MAX_LAG ? 0 : lag;  // too far behind: this update lands at once
      // ---- reads
      const rootBox = box(root.getBoundingClientRect());
      const origin = /** @type {any} */ (before).origin;
      const dx = origin ? rootBox.x - origin.x : 0;
      const dy = origin ? rootBox.y - origin.y : 0;
      const left = new Map([...before].map(([k, v]) => [k, v.map((o) => ({ el: o.el, r: { ...o.r, x: o.r.x + dx, y: o.r.y + dy } }))]));
      const after = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(CARDS)].filter(counted));
      /** @type {Map<string, Array<{el: HTMLElement, r: Box}>>} */
      const snapshot = new Map();
      /** @type {any} */ (snapshot).origin = rootBox;
      /** @type {Array<{el: HTMLElement, r: Box}>} */
      const fresh = [];
      /** @type {Array<() => void>} cards that did not move: they carry on the old element's animation */
      const carry = [];
      for (const el of after) {
        const r = box(el.getBoundingClientRect());
        if (!r.w || !r.h) continue;
        const key = el.getAttribute("data-card") || "";
        const list = snapshot.get(key) ?? [];
        list.push({ el, r });
        snapshot.set(key, list);
        const olds = left.get(key) || [];
        const j = olds.findIndex((o) => Math.abs(o.r.x - r.x) < 3 && Math.abs(o.r.y - r.y) < 3 && Math.abs(o.r.w - r.w) < 3);
        if (j < 0) {
          fresh.push({ el, r });
          continue;
        }
        const [old] = olds.splice(j, 1);
        const l = live.get(old.el);
        if (l && l.anim.playState !== "finished" && l.anim.currentTime != null) {
          const t = l.anim.currentTime;
          carry.push(() => {
            const anim = el.animate(l.frames, l.options);
            anim.currentTime = t;
            live.set(el, { ...l, anim });
          });
        }
      }
      /** @type {Array<(delay: number) => void>} cards that arrive, one after another */
      const jobs = [];
      /** @type {Array<(delay: number) => void>} cards that leave, all together (a trick swept up) */
      const exits = [];
      // cards that moved come from their old place (in document order, so equal cards pair up);
      // new ones from where the layout says they came from
      for (const { el, r } of fresh) {
        const end = getComputedStyle(el).transform;
        const old = (left.get(el.getAttribute("data-card") || "") || []).shift();
        if (old) {
          jobs.push((d) => fly(el, old.r, r, { fade: false, shrink: false, end }, d));
          continue;
        }
        const from = hints.enterFrom ? hints.enterFrom(el) : null;
        const fr = from ? box(from.getBoundingClientRect()) : null;
        const origin = fr && fr.w ? { x: fr.x + fr.w / 2 - r.w / 2, y: fr.y + fr.h / 2 - r.h / 2, w: r.w, h: r.h } : null;
        jobs.push((d) => fly(el, origin ?? { x: r.x, y: r.y + 10, w: r.w, h: r.h }, r, { fade: true, shrink: !!origin, end }, d));
      }
      // cards that left: a copy flies to where they went, or fades where they were
      for (const [card, olds] of left) {
        for (const old of olds) {
          const to = hints.exitTo ? hints.exitTo(card, old.el) : null;
          const t = to ? box(to.getBoundingClientRect()) : null;
          exits.push((d) => leave(old.el, old.r, t, rootBox, d));
        }
      }
      // ---- writes
      for (const job of carry) job();
      let end = now;
      for (const job of exits) job(start);
      if (exits.length) end = now + start + DURATION;
      jobs.forEach((job, k) => {
        const d = start + k * STAGGER;
        job(d);
        end = Math.max(end, now + d + DURATION);
      });
      if (jobs.length || exits.length) busyUntil = end;
      forgetLanded();
      try {
        performance.measure("cw-motion", { start: now, end: performance.now() });
      } catch { /* a browser without User Timing level 3: nothing to record */ }
      return { moving: jobs.length + exits.length, snapshot };
    },

    /**
     * Bring `el`, if in flight, to rest now, to fly on from the same point in the next `play` (as
     * a card that did not move): a redraw keeps the element, and the next frame measures it at rest.
     * @param {Element} el
     */
    land(el) {
      const l = live.get(el);
      if (!l || /** @type {any} */ (l.anim).landed || l.anim.playState === "finished" || l.anim.playState === "idle"
        || l.anim.currentTime == null) return;
      const currentTime = l.anim.currentTime;
      l.anim.cancel();
      live.set(el, { ...l, anim: /** @type {any} */ ({ playState: "paused", currentTime, landed: true }) });
      landed.add(el);
    },

    /** Stop every card animation now (motion was switched off, or the table goes away). */
    clear() {
      for (const a of root.getAnimations ? root.getAnimations({ subtree: true }) : []) {
        if (typeof CSSAnimation === "function" && a instanceof CSSAnimation) continue;  // the stylesheet's own
        if (typeof CSSTransition === "function" && a instanceof CSSTransition) continue;
        a.cancel();
      }
      layer.replaceChildren();
      forgetLanded();
      busyUntil = 0;
    },
  };
}
