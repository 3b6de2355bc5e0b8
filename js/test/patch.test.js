// @vitest-environment happy-dom
// An update patches the live table instead of drawing it anew: what stays keeps its element (focus,
// scroll and the browser's styles with it), and its handlers are the new drawing's.
import { describe, it, expect } from "vitest";
import { mountScenario, useTable, model, $, $$, el, view, handCards } from "./helpers.js";

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
