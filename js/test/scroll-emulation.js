// happy-dom has no layout: scrollTop is kept even on an element that is not in the page.
// This emulates what a browser does with a scrolled list: 20 px per child, a 100 px box,
// and scrollTop set while the element is not in the page is lost; a change fires `scroll`.
const ROW = 20;
const BOX = 100;

/** Install the emulation on HTMLElement.prototype; returns a function that removes it. */
export function emulateScrolling() {
  const proto = HTMLElement.prototype;
  const saved = ["scrollTop", "scrollHeight", "clientHeight"].map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)]);
  const tops = new WeakMap();
  Object.defineProperty(proto, "scrollHeight", { configurable: true, get() { return this.children.length * ROW; } });
  Object.defineProperty(proto, "clientHeight", { configurable: true, get() { return this.isConnected ? Math.min(BOX, this.children.length * ROW) : 0; } });
  Object.defineProperty(proto, "scrollTop", {
    configurable: true,
    get() { return tops.get(this) ?? 0; },
    set(v) {
      if (!this.isConnected) return; // no layout box: the browser ignores it
      const was = tops.get(this) ?? 0;
      tops.set(this, Math.max(0, Math.min(Number(v), this.scrollHeight - this.clientHeight)));
      // a browser tells the page that the list scrolled at its next frame
      if (tops.get(this) !== was) requestAnimationFrame(() => this.dispatchEvent(new Event("scroll")));
    },
  });
  return () => {
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(proto, k, d);
      else delete /** @type {any} */ (proto)[k];
    }
  };
}

/** Wait for n animation frames. */
export async function frames(n = 3) {
  for (let i = 0; i < n; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
}
