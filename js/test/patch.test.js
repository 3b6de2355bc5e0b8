// @vitest-environment happy-dom
// An update patches the live table instead of drawing it anew: what stays keeps its element (focus,
// scroll and the browser's styles with it), and its handlers are the new drawing's.
import { describe, it, expect } from "vitest";
import { mountScenario, useTable, model, $, $$, el, view, handCards } from "./helpers.js";
import { fakeModel } from "./fake-model.js";
import { mountTable } from "../src/lib/table.js";
import { h } from "../src/lib/dom.js";
import { renderCard } from "../src/lib/cards.js";

useTable();

/** A bot's move as the table sees it: a new line of narration and a new position. */
function botMoves() {
  model.set("narration", [...model.get("narration"), "B passes — rule D4.1."]);
  model.set("view", { ...view(), last_action: null });
}

describe("an update patches the table in place", () => {
  it("keeps the element of every card still in the hand", () => {
    mountScenario("depot", "respond");
    const before = handCards();
    expect(before.length).toBeGreaterThan(3);
    botMoves();
    const after = handCards();
    expect(after.map((c) => c.dataset.card)).toEqual(before.map((c) => c.dataset.card));
    after.forEach((c, i) => expect(c).toBe(before[i]));
  });

  it("leaves the focus on the card it was on when a bot moves", () => {
    mountScenario("depot", "respond");
    const card = handCards()[2];
    card.focus();
    expect(document.activeElement).toBe(card);
    botMoves();
    expect(document.activeElement).toBe(card);
    expect(card.isConnected).toBe(true);
  });

  it("does not rebuild the narration lines that did not change", () => {
    mountScenario("depot", "respond");
    const lines = $$(".cw-log-line");
    botMoves();
    const now = $$(".cw-log-line");
    expect(now).toHaveLength(lines.length + 1);
    lines.forEach((li, i) => expect(now[i]).toBe(li));
    expect(now.at(-1)?.textContent).toContain("B passes");
    expect($$(".cw-log-latest")).toEqual([now.at(-1)]);
  });

  it("keeps the live region first, and a kept control runs its handler once, the new one", () => {
    mountScenario("depot", "respond");
    const table = /** @type {HTMLElement} */ (el.querySelector(".cw-table"));
    const region = table.firstElementChild;
    expect(region?.classList.contains("cw-announce")).toBe(true);
    const chip = $('[data-control="select-move"]');
    for (let i = 0; i < 3; i++) botMoves();
    expect(table.firstElementChild).toBe(region);
    expect($$(".cw-announce")).toHaveLength(1);
    expect($('[data-control="select-move"]')).toBe(chip);
    chip.click();  // twice-bound, it would select and unselect at once
    expect($('[data-control="select-move"]').getAttribute("aria-pressed")).toBe("true");
    expect(table.dataset.moves).toBe(String(model.get("history_len")));
  });
});

describe("a part drawn the same is kept as it is", () => {
  it("keeps a narration line's rule chips named as they were when chips come and go above it", () => {
    mountScenario("depot", "respond");
    model.set("narration", [...model.get("narration"), "A plays — rule D4.2.", "B passes — rule D4.1."]);
    const lines = $$(".cw-log-line");
    const names = $$(".cw-log .cw-rule").map((c) => c.dataset.chip);
    expect(names.length).toBeGreaterThan(1);
    // a refusal above the narration brings a chip of its own (it used to renumber every chip below)
    model.set("last_error", "Not a legal play: rule D4.7 and rule D4.8.");
    expect($$(".cw-error .cw-rule, .cw-refusal .cw-rule").length + $$(".cw-main .cw-rule").length).toBeGreaterThan(0);
    expect($$(".cw-log .cw-rule").map((c) => c.dataset.chip)).toEqual(names);
    $$(".cw-log-line").forEach((li, i) => expect(li).toBe(lines[i]));
    // and the chip still opens its own rule
    const chip = $$(".cw-log .cw-rule").at(-1);
    chip.click();
    expect($(".cw-rule-card")?.dataset.anchor).toBe(chip.dataset.chip);
  });
});

describe("a table with a kept part", () => {
  /** A table whose one button looks the same at every position, and reports the cursor it was drawn at. */
  function mountProbe() {
    const got = /** @type {number[]} */ ([]);
    const m = fakeModel({ view: { players: 2 }, cursor: 0, bot_delay: 0.5 });
    const cleanup = mountTable({
      model: m, el, game: "probe",
      draw: (ctx) => {
        const at = Number(ctx.get("cursor"));
        const select = h("select", { class: "probe-speed", value: String(ctx.get("bot_delay")) },
          ["0.5", "1"].map((v) => h("option", { value: v }, v)));
        select.value = String(ctx.get("bot_delay"));
        ctx.root.append(
          h("div", { class: "probe" }, h("span", null, h("button", { class: "probe-button", onClick: () => got.push(at) }, "Go"))),
          h("div", { class: "probe-controls" }, select),
        );
      },
    });
    return { m, got, cleanup };
  }

  it("gives the kept elements the new drawing's handlers", () => {
    const { m, got, cleanup } = mountProbe();
    const button = $(".probe-button");
    m.set("cursor", 3);
    expect($(".probe-button")).toBe(button);
    button.click();
    expect(got).toEqual([3]);  // the handler of the drawing at cursor 3, not of the first one
    cleanup();
  });

  it("always patches a part holding a control whose state is a property", () => {
    const { m, cleanup } = mountProbe();
    const select = /** @type {HTMLSelectElement} */ ($(".probe-speed"));
    expect(select.value).toBe("0.5");
    m.set("bot_delay", 1);
    expect($(".probe-speed")).toBe(select);
    expect(select.value).toBe("1");
    cleanup();
  });
});

describe("stamped cards", () => {
  it("are copies with their own handlers, and show what their options say", () => {
    const calls = /** @type {string[]} */ ([]);
    const a = renderCard("5", { onClick: () => calls.push("a"), title: "five" });
    const b = renderCard("5", { onClick: () => calls.push("b"), title: "five" });
    const c = renderCard("5", { title: "five", selected: true });
    expect(a).not.toBe(b);
    expect(a.isEqualNode(b)).toBe(true);
    a.click();
    b.click();
    expect(calls).toEqual(["a", "b"]);
    expect(c.tagName).toBe("DIV");
    expect(c.classList.contains("cw-selected")).toBe(true);
    expect(a.classList.contains("cw-selected")).toBe(false);
  });
});
