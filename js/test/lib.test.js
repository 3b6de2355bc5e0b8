// @vitest-environment happy-dom
import { describe, it, expect, vi } from "vitest";
import { h, cls } from "../src/lib/dom.js";
import { renderCard, renderCardBack, renderBacks } from "../src/lib/cards.js";
import { renderHand, toggled } from "../src/lib/hand.js";
import { withRuleIds, listWords } from "../src/lib/text.js";
import { renderError } from "../src/lib/error.js";
import { renderLog } from "../src/lib/log.js";
import { mountTable } from "../src/lib/table.js";
import { fakeModel } from "./fake-model.js";

describe("h", () => {
  it("sets classes, attributes, styles, listeners and children", () => {
    const onClick = vi.fn();
    const el = h("button", {
      class: ["a", false, "b"], "data-action": "play 5", disabled: false, title: null,
      style: { color: "red", "--x": 3 }, onClick,
    }, ["Play ", h("b", null, 5), null, [" now"]]);
    expect(el.className).toBe("a b");
    expect(el.dataset.action).toBe("play 5");
    expect(el.hasAttribute("disabled")).toBe(false);
    expect(el.hasAttribute("title")).toBe(false);
    expect(el.style.color).toBe("red");
    expect(el.style.getPropertyValue("--x")).toBe("3");
    expect(el.textContent).toBe("Play 5 now");
    el.click();
    expect(onClick).toHaveBeenCalledOnce();
    expect(h("i", { hidden: true }).hasAttribute("hidden")).toBe(true);
    expect(cls({ x: true, y: 0 })).toBe("x");
  });
});

describe("cards and hands", () => {
  it("renders a face with data-card and a back without", () => {
    const card = renderCard(7, { tone: 7, size: "sm", playable: true });
    expect(card.dataset.card).toBe("7");
    expect(card.dataset.tone).toBe("7");
    expect(card.classList.contains("cw-playable")).toBe(true);
    expect(card.tagName).toBe("DIV");
    expect(renderCard(3, { onClick: () => {} }).tagName).toBe("BUTTON");
    const back = renderCardBack();
    expect(back.hasAttribute("data-card")).toBe(false);
    expect(renderBacks(20, { max: 12 }).children).toHaveLength(12);
  });

  it("renders a hand with selection by position", () => {
    const onToggle = vi.fn();
    const hand = renderHand({ cards: [5, 5, 6], selected: new Set([1]), onToggle, isPlayable: (v) => v === 5 });
    const cards = [...hand.querySelectorAll("[data-card]")];
    expect(cards.map((c) => c.classList.contains("cw-selected"))).toEqual([false, true, false]);
    expect(cards.map((c) => c.classList.contains("cw-playable"))).toEqual([true, true, false]);
    /** @type {HTMLElement} */ (cards[2]).click();
    expect(onToggle).toHaveBeenCalledWith(2, 6);
    expect([...toggled(new Set([1]), 1)]).toEqual([]);
    expect([...toggled(new Set([1]), 2)]).toEqual([1, 2]);
  });
});

describe("text", () => {
  it("emphasises rule IDs", () => {
    const box = h("p", null, withRuleIds("Illegal: rule D4.5 — see DA-3, (D6) and rule G1; not T=5 or [3,4]."));
    expect([...box.querySelectorAll(".cw-rule")].map((r) => r.textContent)).toEqual(["D4.5", "DA-3", "D6", "G1"]);
    expect(box.textContent).toBe("Illegal: rule D4.5 — see DA-3, (D6) and rule G1; not T=5 or [3,4].");
  });
  it("lists words", () => {
    expect(listWords([2, 4, 5, 6])).toBe("2, 4, 5 or 6");
    expect(listWords(["A", "B"], "and")).toBe("A and B");
    expect(listWords([3])).toBe("3");
  });
});

describe("error banner and log", () => {
  it("renders nothing without a message", () => {
    expect(renderError("", () => {})).toBeNull();
  });
  it("keeps the newest lines of a long log", () => {
    const log = renderLog(Array.from({ length: 10 }, (_, i) => `line ${i}`), { max: 4 });
    const lines = [...log.querySelectorAll("li")].map((l) => l.textContent);
    expect(lines).toEqual(["line 6", "line 7", "line 8", "line 9"]);
    expect(log.querySelector("ol").getAttribute("start")).toBe("7");
  });
});

describe("mountTable", () => {
  it("draws into a keyboard-isolated root and shows a drawing failure instead of throwing", () => {
    const model = fakeModel({ view: { ok: false, players: 2 } });
    const el = document.createElement("div");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const cleanup = mountTable({
      model, el, game: "demo",
      draw: (ctx) => {
        if (!ctx.get("view").ok) throw new Error("boom");
        ctx.root.append(h("p", null, "fine"));
      },
    });
    expect(el.querySelector(".cw-table").dataset.game).toBe("demo");
    expect(el.querySelector(".cw-render-error").textContent).toContain("boom");
    model.set("view", { ok: true, players: 2 });
    expect(el.textContent).toBe("fine");
    cleanup();
    expect(el.innerHTML).toBe("");
    expect(model.listenerCount()).toBe(0);
    errors.mockRestore();
  });

  it("keeps focus on the same control across redraws", () => {
    const model = fakeModel({ view: { players: 2, n: 1 } });
    const el = document.createElement("div");
    document.body.append(el);
    const cleanup = mountTable({
      model, el, game: "demo",
      draw: (ctx) => ctx.root.append(h("button", { "data-control": "go" }, String(ctx.get("view").n))),
    });
    /** @type {HTMLElement} */ (el.querySelector('[data-control="go"]')).focus();
    model.set("view", { players: 2, n: 2 });
    const button = el.querySelector('[data-control="go"]');
    expect(button.textContent).toBe("2");
    expect(document.activeElement).toBe(button);
    cleanup();
    el.remove();
  });
});

describe("mountTable redraw batching", () => {
  it("redraws once per model update, however many traits it changes", async () => {
    const handlers = {};
    const state = { view: { players: 2 }, legal: [], log: [], cursor: 0 };
    const model = {
      get: (k) => state[k],
      on: (ev, h) => (handlers[ev] ||= []).push(h),
      off: (ev, h) => (handlers[ev] = (handlers[ev] || []).filter((x) => x !== h)),
      send: () => {},
    };
    const fire = (ev) => (handlers[ev] || []).slice().forEach((h) => h());
    let draws = 0;
    const el = document.createElement("div");
    const cleanup = mountTable({ model, el, game: "t", draw: () => { draws += 1; } });
    expect(draws).toBe(1);
    // What Backbone does for one message that sets four traits.
    for (const k of ["view", "legal", "log", "cursor"]) fire(`change:${k}`);
    fire("change");
    expect(draws).toBe(2);
    // A model that never fires the generic event still gets one redraw, after the task.
    fire("change:view");
    fire("change:legal");
    expect(draws).toBe(2);
    await Promise.resolve();
    expect(draws).toBe(3);
    cleanup();
    expect(Object.values(handlers).every((hs) => hs.length === 0)).toBe(true);
  });
});
