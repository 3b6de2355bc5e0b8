// @vitest-environment happy-dom
import { describe, it, expect, vi, beforeEach, afterEach } from "vitest";
import { h, cls } from "../src/lib/dom.js";
import { renderCard, renderCardBack, renderBacks } from "../src/lib/cards.js";
import { renderHand, toggled } from "../src/lib/hand.js";
import { withRuleIds, listWords, count, ordinal } from "../src/lib/text.js";
import { findRule, ruleTip, markdown, renderRuleCard, decorateRuleChips } from "../src/lib/rules.js";
import { renderHistory, posText } from "../src/lib/history.js";
import { emulateScrolling, frames } from "./scroll-emulation.js";
import { renderError } from "../src/lib/error.js";
import { renderLog } from "../src/lib/log.js";
import { mountTable, newLines } from "../src/lib/table.js";
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
  it("turns rule IDs into rule chips", () => {
    const box = h("p", null, withRuleIds("Illegal: rule D4.5 — see DA-3, (D6) and rule G1; not T=5 or [3,4]."));
    const chips = [...box.querySelectorAll(".cw-rule")];
    expect(chips.map((r) => r.textContent)).toEqual(["D4.5", "DA-3", "D6", "G1"]);
    expect(chips.map((r) => r.getAttribute("data-rule"))).toEqual(["D4.5", "DA-3", "D6", "G1"]);
    expect(chips.every((c) => c.tagName === "BUTTON" && c.getAttribute("type") === "button")).toBe(true);
    expect(box.textContent).toBe("Illegal: rule D4.5 — see DA-3, (D6) and rule G1; not T=5 or [3,4].");
  });
  it("lists and counts words as a person says them", () => {
    expect(listWords([2, 4, 5, 6])).toBe("2, 4, 5 or 6");
    expect(listWords(["A", "B"], "and")).toBe("A and B");
    expect(listWords([3])).toBe("3");
    expect(count(1, "card")).toBe("1 card");
    expect(count(3, "card")).toBe("3 cards");
    expect(count(0, "card", { none: "no cards" })).toBe("no cards");
    expect(count(2, "pass", { plural: "passes" })).toBe("2 passes");
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
  });
});

describe("rules reference", () => {
  const rules = {
    D4: { title: "Plays", text: "What a play is." },
    "D4.7": { title: "Beating the standing play", text: "A play beats the standing play when it has **more cards**, or as many cards and a higher total.\n\n- one\n- two `play 5 5`\n\n| Value | 1 | 2 |\n|---|---|---|\n| Cards | 13 | 12 |" },
  };
  it("finds a rule, or its nearest parent", () => {
    expect(findRule(rules, "D4.7")).toMatchObject({ id: "D4.7", title: "Beating the standing play" });
    expect(findRule(rules, "D4.7.2")).toMatchObject({ id: "D4.7" });
    expect(findRule(rules, "D4.9")).toMatchObject({ id: "D4" });
    expect(findRule(rules, "X1")).toBeNull();
    expect(findRule(null, "D4")).toBeNull();
    expect(ruleTip(findRule(rules, "D4.7"))).toMatch(/^D4\.7 · Beating the standing play — A play beats/);
  });
  it("renders the rule text as safe DOM (no HTML parsing)", () => {
    const nodes = markdown("Hello **bold** and `code` <img src=x onerror=alert(1)>\n\n- a\n- b");
    const box = h("div", null, nodes);
    expect(box.querySelector("b").textContent).toBe("bold");
    expect(box.querySelector("code").textContent).toBe("code");
    expect(box.querySelector("img")).toBeNull();
    expect(box.querySelectorAll("li")).toHaveLength(2);
    const card = renderRuleCard("D4.7", rules, () => {});
    expect(card.dataset.rule).toBe("D4.7");
    expect(card.textContent).toContain("Beating the standing play");
    expect(card.querySelectorAll("table tr")).toHaveLength(2);
    expect(renderRuleCard("Q9", rules, () => {})).toBeNull();
  });
  it("gives chips a tooltip from the reference and leaves unknown IDs plain", () => {
    const box = h("p", null, withRuleIds("rule D4.7 and rule Z9"));
    decorateRuleChips(box, rules);
    const [known, unknown] = box.querySelectorAll(".cw-rule");
    expect(known.getAttribute("title")).toContain("Beating the standing play");
    expect(unknown.classList.contains("cw-rule-unknown")).toBe(true);
    expect(unknown.hasAttribute("title")).toBe(false);
  });
  it("works out a chip's words once per rule reference: a table redrawn at every move asks again for none", () => {
    /** @type {string[]} */
    const asked = [];
    const counted = new Proxy(rules, { get: (t, k) => { asked.push(String(k)); return t[k]; } });
    const chips = () => h("p", null, withRuleIds("rule D4.7, rule D4.7 again and rule Z9"));
    const first = chips();
    decorateRuleChips(first, counted);
    const once = asked.length;
    expect(once).toBeGreaterThan(0);
    for (let move = 0; move < 5; move++) decorateRuleChips(chips(), counted);  // the next redraws
    expect(asked.length).toBe(once);
    const again = chips();
    decorateRuleChips(again, counted);
    expect(again.innerHTML).toBe(first.innerHTML);  // the same words
    decorateRuleChips(chips(), { ...rules });  // a new reference (Python sent the rules again): asked anew
  });
});

describe("history scrubber", () => {
  it("says where the table stands", () => {
    expect(posText(0, 0)).toBe("start of the game");
    expect(posText(0, 5)).toBe("start of the game (5 moves played)");
    expect(posText(3, 5)).toBe("move 3 of 5");
    expect(posText(5, 5)).toBe("move 5 of 5 (latest)");
  });
  it("shows the lines of play and switches between them", () => {
    const onSwitch = vi.fn();
    const el = renderHistory({
      cursor: 12, length: 12, branch: "branch-1", onGoto: () => {}, onUndo: () => {}, onSwitch,
      branches: [{ name: "main", parent: null, from: 0, length: 12 }, { name: "branch-1", parent: "main", from: 8, length: 12 }],
    });
    const buttons = [...el.querySelectorAll('[data-control="branch"]')];
    expect(buttons.map((b) => b.dataset.branch)).toEqual(["main", "branch-1"]);
    expect(buttons.map((b) => b.getAttribute("aria-pressed"))).toEqual(["false", "true"]);
    expect(buttons[0].textContent).toContain("Main line");
    expect(buttons[0].textContent).toContain("12 moves");
    expect(buttons[1].textContent).toContain("Line 2");
    expect(buttons[1].textContent).toContain("from move 8 · 4 moves of its own");
    buttons[1].click(); // the line shown: nothing to do
    buttons[0].click();
    expect(onSwitch.mock.calls).toEqual([["main"]]);
  });
  it("has no list of lines when there is only the main line", () => {
    const el = renderHistory({ cursor: 0, length: 0, branches: [{ name: "main", parent: null, from: 0, length: 0 }], onGoto: () => {}, onUndo: () => {} });
    expect(el.querySelector(".cw-branches")).toBeNull();
  });
});

describe("error banner and log", () => {
  it("renders nothing without a message", () => {
    expect(renderError("", () => {})).toBeNull();
  });
  it("has a dismissible error box that sends nothing by itself", () => {
    const onClose = vi.fn();
    const box = renderError("Illegal: rule D4.7 — too weak.", onClose);
    expect(box.getAttribute("role")).toBe("alert");
    box.querySelector('[data-control="clear-error"]').click();
    expect(onClose).toHaveBeenCalledOnce();
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

  it("says on the root how many moves the line shown has (data-moves)", () => {
    const model = fakeModel({ view: { players: 2 }, history_len: 0, cursor: 0 });
    const el = document.createElement("div");
    const cleanup = mountTable({ model, el, game: "demo", draw: (ctx) => ctx.root.append(h("p", null, "x")) });
    const root = /** @type {HTMLElement} */ (el.querySelector(".cw-table"));
    expect(root.dataset.moves).toBe("0");
    model.update({ history_len: 3, cursor: 3 });
    expect(root.dataset.moves).toBe("3");
    model.update({ cursor: 1 });  // looking back: the line still has 3 moves
    expect(root.dataset.moves).toBe("3");
    model.update({ history_len: 2, cursor: 2, branch: "branch-1" });
    expect(root.dataset.moves).toBe("2");
    cleanup();
  });

  it("sends a move to a marimo model, which calls the callbacks once the message is delivered", () => {
    const model = fakeModel({ view: { players: 2 }, history_len: 0, cursor: 0 });
    model.send.mockImplementation((_msg, callbacks) => callbacks?.());  // marimo's send(content, callbacks)
    const el = document.createElement("div");
    /** @type {any} */ let ctx = null;
    const cleanup = mountTable({ model, el, game: "demo", draw: (c) => { ctx = c; } });
    expect(ctx.act("play 1")).toBe(true);
    expect(model.sent()).toEqual([{ type: "act", action: "play 1" }]);
    expect(ctx.pending()).toBe(true);  // delivered, not answered: a second click waits
    expect(ctx.act("play 1")).toBe(false);
    model.update({ history_len: 1, cursor: 1 });
    expect(ctx.pending()).toBe(false);
    cleanup();
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

describe("the narration for screen readers", () => {
  it("is one polite live region that stays across redraws and receives only the new lines", async () => {
    const model = fakeModel({ view: { players: 2 }, narration: ["Round 1: cards dealt.", "A's turn."] });
    const el = document.createElement("div");
    const cleanup = mountTable({ model, el, game: "demo", draw: (ctx) => ctx.root.append(renderLog(ctx.get("narration"))) });
    const live = el.querySelector('.cw-table > [aria-live="polite"]');
    expect(live.getAttribute("role")).toBe("log");
    expect(el.querySelectorAll("[aria-live]")).toHaveLength(1);  // the visible list, redrawn whole, is none
    expect(live.textContent).toBe("");  // what was there before is not read out
    model.set("narration", ["Round 1: cards dealt.", "A's turn.", "A plays 5.", "B's turn."]);
    await Promise.resolve();
    expect(el.querySelector('.cw-table > [aria-live="polite"]')).toBe(live);  // the same node, not redrawn
    expect([...live.children].map((p) => p.textContent)).toEqual(["A plays 5.", "B's turn."]);
    model.set("narration", ["A's turn.", "A plays 5.", "B's turn.", "B passes."]);  // a window that moved on
    await Promise.resolve();
    expect([...live.children].map((p) => p.textContent)).toEqual(["A plays 5.", "B's turn.", "B passes."]);
    cleanup();
  });
  it("announces what follows the newest line heard, and nothing for a jump back", () => {
    expect(newLines(["a", "b"], ["a", "b", "c"])).toEqual(["c"]);
    expect(newLines(["b", "x", "b"], ["b", "x", "b", "b", "c"])).toEqual(["b", "c"]);  // a line said again is new
    expect(newLines(["a", "b", "c"], ["a"])).toEqual([]);
    expect(newLines([], ["a"])).toEqual(["a"]);
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

describe("narration scrolling", () => {
  /** @type {() => void} */
  let restore;
  beforeEach(() => { restore = emulateScrolling(); });
  afterEach(() => restore());

  const lines = (n) => Array.from({ length: n }, (_, i) => `line ${i + 1} (rule D4.${i + 1})`);
  const mountLog = (model, el) => mountTable({ model, el, game: "demo", draw: (ctx) => ctx.root.append(renderLog(ctx.get("narration"))) });

  it("opens at the newest line, also when drawn before the table is in the page", async () => {
    const model = fakeModel({ view: { players: 2 }, narration: lines(30) });
    const el = document.createElement("div"); // not in the page yet, as in JupyterLab
    const cleanup = mountLog(model, el);
    document.body.append(el);
    await frames(3);
    const log = el.querySelector(".cw-log");
    expect(log.scrollHeight).toBe(600);
    expect(log.scrollTop).toBe(log.scrollHeight - log.clientHeight);
    cleanup();
    el.remove();
  });

  it("follows new lines, but keeps the place of a reader who scrolled up while nothing new came", async () => {
    const model = fakeModel({ view: { players: 2 }, narration: lines(30), thinking: false });
    const el = document.createElement("div");
    document.body.append(el);
    const cleanup = mountLog(model, el);
    await frames(3);
    const log = () => el.querySelector(".cw-log");
    log().scrollTop = 40; // the reader scrolls up
    await frames(1); // (the browser says so at its next frame)
    model.set("thinking", true); // a redraw that adds no line
    await frames(3);
    expect(log().scrollTop).toBe(40);
    model.set("narration", lines(31)); // a new line: back to the newest
    await frames(3);
    expect(log().scrollTop).toBe(620 - 100);
    cleanup();
    el.remove();
  });
});
