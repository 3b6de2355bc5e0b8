// @vitest-environment happy-dom
// Playing together: the hot-seat curtain, a seated person's view with player names, and a
// player's view looking back on its own, on positions the Python engines made (fixtures/<game>.json).
import { describe, it, expect } from "vitest";
import { scenario, scenarioNames } from "./fixtures.js";
import { GAMES, el, model, mountScenario as mount, useTable, $, $$ } from "./helpers.js";

const named = (/** @type {RegExp} */ re) => GAMES.flatMap((g) => scenarioNames(g).filter((n) => re.test(n)).map((n) => [g, n]));
const CURTAIN = named(/hotseat_(curtain|next)$/);
const SEATED = named(/hotseat_seated$/);

/** Every number and text in a value (the card notations a view holds among them). */
function tokens(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => tokens(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => tokens(v, out));
  else if (value != null) out.add(String(value));
  return out;
}

useTable();

describe("the hot-seat curtain", () => {
  it("every game has curtain scenarios", () => {
    expect(new Set(CURTAIN.map(([g]) => g))).toEqual(new Set(GAMES));
  });

  it.each(CURTAIN)("%s %s: the curtain names the person to play and hides every hand", (game, name) => {
    mount(game, name);
    const curtain = model.get("curtain");
    expect(model.get("seat")).toBeNull();
    expect(curtain).not.toBeNull();
    expect($(".cw-render-error")).toBeNull();
    const panel = $(".cw-curtain");
    expect(panel).not.toBeNull();
    expect(panel.dataset.seat).toBe(String(curtain.seat));
    expect(panel.querySelector(".cw-overlay-head").textContent).toContain(`${curtain.name}'s turn`);
    const button = /** @type {HTMLButtonElement} */ (panel.querySelector('[data-control="iam"]'));
    expect(button.textContent).toBe(`I am ${curtain.name}`);
    // nobody's hand: no player area, no move, no teacher chip, but the hot-seat chip
    expect($(".cw-player")).toBeNull();
    expect($$("[data-action]")).toEqual([]);
    expect($(".cw-chip-teacher")).toBeNull();
    expect($(".cw-chip-hotseat")).not.toBeNull();
    // every card drawn is one the view of nobody holds
    const known = tokens(model.get("view"));
    const drawn = $$("[data-card]").filter((c) => !c.closest(".cw-motion-layer")).map((c) => c.dataset.card);
    expect(drawn.filter((c) => !known.has(c))).toEqual([]);
    expect($(".cw-turn").textContent).toContain(`${curtain.name} to play`);
  });

  it.each(CURTAIN)("%s %s: 'I am' sends one message, and not twice while Python answers", (game, name) => {
    mount(game, name);
    const seat = model.get("curtain").seat;
    $('[data-control="iam"]').click();
    $('[data-control="iam"]').click();
    expect(model.sent()).toEqual([{ type: "iam", seat }]);
  });

  it.each(SEATED)("%s %s: once seated, the person's own hand and moves, under their name", (game, name) => {
    mount(game, name);
    const v = model.get("view");
    expect(model.get("curtain")).toBeNull();
    expect(v.seat).toBe(model.get("seat"));
    expect($(".cw-curtain")).toBeNull();
    expect($(".cw-player")).not.toBeNull();
    expect($$('[data-action], [data-control="select-move"]').length).toBeGreaterThan(0);
    expect($(".cw-turn").textContent).toMatch(/^Your turn/);
    expect($(".cw-chip-hotseat")).not.toBeNull();
    expect(el.textContent).toContain(v.names[v.seat]);
  });

  it("a long name fits its seat (ellipsis-free text is checked in the browser)", () => {
    mount("depot", "hotseat_seated");
    const names = model.get("view").names;
    expect(names.some((n) => n.length > 15)).toBe(true);
    for (const n of names) expect(el.textContent).toContain(n);
  });

  it("the curtain comes down and lifts with the traits: one redraw each", () => {
    mount("crypto_trick", "hotseat_seated");
    expect($(".cw-curtain")).toBeNull();
    const down = scenario("crypto_trick", "hotseat_next");
    model.update({ view: down.view, legal: down.legal, seat: null, curtain: down.curtain, cursor: down.cursor,
      history_len: down.history_len, narration: down.narration, refusals: down.refusals });
    expect($(".cw-curtain")).not.toBeNull();
    expect($(".cw-player")).toBeNull();
  });
});

describe("one view per player", () => {
  it.each(GAMES)("%s: a view looking back shows the past banner; 'Back to the latest move' asks for the game's end", (game) => {
    mount(game, "view_back");
    expect(model.get("cursor")).toBeLessThan(model.get("history_len"));
    expect($(".cw-past")).not.toBeNull();
    expect($$("[data-action]").length).toBe(0);  // a view plays only at the game's current position
    $('[data-control="latest"]').click();
    expect(model.sent()).toEqual([{ type: "goto", index: model.get("history_len") }]);
    expect($(".cw-chip-teacher")).toBeNull();
    expect($(".cw-chip-hotseat")).toBeNull();
  });
});
