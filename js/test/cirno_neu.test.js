// @vitest-environment happy-dom
// The cirno+neu layout in the shared frame, driven by positions the Python engine made
// (fixtures/cirno_neu.json, written by tests/test_js_fixtures.py).
import { describe, it, expect } from "vitest";
import { parseAction, playNotation, actionToken, cardFace, heat, renderNeuCard, layout } from "../src/cirno_neu/index.js";
import { scenarioNames } from "./fixtures.js";
import { model, mountScenario, unmount, useTable, $, $$, view, handCards } from "./helpers.js";

/** @param {string} name @param {Record<string, any>} [over] */
const mount = (name, over = {}) => mountScenario("cirno_neu", name, over);

useTable();

describe("every engine position draws", () => {
  it.each(scenarioNames("cirno_neu"))("%s: the table, its hooks, and no drawing error", (name) => {
    mount(name);
    expect($(".cw-table").dataset.game).toBe("cirno_neu");
    expect($(".cw-render-error")).toBeNull();
    expect($$(".cw-ring .cw-seat[data-seat]")).toHaveLength(view().players);
    expect($(".cw-table").textContent).not.toMatch(/\bnull\b|undefined|NaN|\[object|card\(s\)|\b1 cards\b/);
  });
});

describe("the ring and the centre", () => {
  it("shows the sum out of the limit, the stack, the draw pile and the direction", () => {
    mount("shot");
    expect($(".cw-sum").textContent).toBe("60");
    expect($(".cw-dial").getAttribute("aria-label")).toBe("sum 60 of 99");
    expect($(".cw-dial").dataset.heat).toBe("1");
    expect($$(".cw-stack-top [data-card]").map((c) => c.dataset.card)).toEqual(view().stack_top);
    expect($(".cw-stack-top .cw-newest").dataset.card).toBe(view().stack_top.at(-1));
    expect($(".cw-draw-count").textContent).toBe(String(view().draw_count));
    expect($(".cw-direction").dataset.direction).toBe("cw");
  });

  it("follows the direction of play", () => {
    mount("finished");
    expect($(".cw-direction").dataset.direction).toBe("ccw");
  });

  it("puts the viewer at the bottom and hides the others' hands", () => {
    mount("mid");
    const me = $('.cw-seat[data-seat="0"]');
    expect(me.style.getPropertyValue("--k")).toBe("0");
    expect(me.classList.contains("cw-you")).toBe(true);
    for (const i of [1, 2, 3]) expect($$(`.cw-seat[data-seat="${i}"] [data-card]`)).toHaveLength(0);
  });

  it("shows life chips, and greys out the eliminated with their place", () => {
    mount("life");
    expect($$(".cw-lives").map((l) => l.dataset.chips)).toEqual(view().chips.map(String));
    expect($(".cw-header").textContent).toContain("Life system");
    unmount();
    mount("eliminated");
    const out = $('.cw-seat[data-seat="2"]');
    expect(out.classList.contains("cw-out")).toBe(true);
    expect(out.textContent).toContain("out · 4th");
    expect($(".cw-lives")).toBeNull();
  });

  it("reveals the busted hand with its rule chip", () => {
    mount("life");
    const rv = $(".cw-revealed");
    expect(rv.dataset.seat).toBe(String(view().revealed.seat));
    expect($$(".cw-revealed [data-card]").map((c) => c.dataset.card)).toEqual(view().revealed.hand);
    expect(rv.querySelector(".cw-rule").dataset.rule).toBe("N4.4");
    expect(rv.textContent).toContain("Forced bust");
  });

  it("badges the last move", () => {
    mount("life");
    expect($('.cw-seat[data-seat="3"] .cw-bubble').textContent).toBe("played 50");
  });
});

describe("the hand", () => {
  it("says the sum and the room left under the limit, each number once", () => {
    mount("start");
    const { sum, limit } = view();
    const hint = $(".cw-hint").textContent;
    expect(hint).toContain(`sum ${sum} of ${limit}: room for ${limit - sum} more`);
    expect(hint).not.toMatch(/(\d+) to go before \1\b/);  // "99 to go before 99" at the start
    expect($(".cw-dial").getAttribute("title")).toBe(`sum ${sum} of ${limit}: room for ${limit - sum} more`);
  });
  it("plays a legal card in one click (the hint says so)", () => {
    mount("start");
    expect(handCards().map((c) => c.dataset.card)).toEqual(view().hands[0]);
    expect($(".cw-hint").textContent).toContain("click one to play it");
    const ten = $('.cw-hand [data-card="10"]');
    expect(ten.classList.contains("cw-playable")).toBe(true);
    expect(ten.dataset.action).toBe("play 10");
    ten.click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 10" }]);
  });

  it("sends a card that is not legal too, so Python explains; the refusal box has its rule", async () => {
    mount("refused");
    const ten = $('.cw-hand [data-card="10"]');
    expect(ten.classList.contains("cw-dimmed")).toBe(true);
    expect(ten.getAttribute("title")).toBe(model.get("refusals")["play 10"]); // Python's reason, before any click
    expect($(".cw-error-slot .cw-error .cw-rule").dataset.rule).toBe("N4.3");
    ten.click();
    // the refusal shown was read: it goes (Python is told), and the card is sent for Python to explain
    expect(model.sent()).toEqual([{ type: "clear_error" }, { type: "act", action: "play 10" }]);
    await Promise.resolve();
    expect($(".cw-error")).toBeNull();
  });

  it("targets a SHOT: the card starts the choice, a glowing seat sends play shot @k", () => {
    mount("shot");
    const shot = $('.cw-hand [data-card="SHOT"]');
    expect(shot.dataset.control).toBe("target");
    shot.click();
    expect(model.send).not.toHaveBeenCalled();
    expect($$(".cw-seat.cw-targetable").map((s) => s.dataset.seat)).toEqual(["1", "2", "3"]);
    expect($(".cw-controls").textContent).toContain("B, C or D");
    $('.cw-seat[data-seat="2"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @2" }]);
  });

  it("Escape and Cancel leave the targeting step", () => {
    mount("shot");
    $('.cw-hand [data-card="SHOT"]').click();
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect($(".cw-targetable")).toBeNull();
    $('.cw-hand [data-card="SHOT"]').click();
    $('[data-control="cancel"]').click();
    expect($(".cw-targetable")).toBeNull();
    expect(model.send).not.toHaveBeenCalled();
  });

  it("counts the cards of a double turn in the header and the player area", () => {
    mount("double");
    expect($(".cw-turn").textContent).toContain("Your turn · card 1 of 2");
    expect($(".cw-player .cw-badge-double").textContent).toContain("card 1 of 2");
    expect($(".cw-hint").textContent).toContain("Double turn: card 1 of 2");
  });

  it("lists legal moves, targets named, each sending its action", () => {
    mount("shot");
    const moves = $$(".cw-legal [data-action]");
    expect(moves.map((b) => b.dataset.action)).toEqual(view().players && model.get("legal"));
    expect(moves[2].textContent).toContain("→ B");
    moves[3].click();
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @2" }]);
  });
});

describe("a bot's turn and the past", () => {
  it("disables the hand and names who is thinking", () => {
    mount("thinking");
    expect($(".cw-turn").textContent).toBe("B is thinking");
    expect($('.cw-seat[data-seat="1"] .cw-thinking')).not.toBeNull();
    expect(handCards().every((c) => c.tagName === "DIV" && !c.hasAttribute("data-action"))).toBe(true);
    expect($(".cw-legal").textContent).toContain("B is thinking");
  });

  it("scrubbed back to a bot's move: a banner, not 'waiting for B' forever", () => {
    mount("past_bot");
    expect($(".cw-past").textContent).toContain("B is played by the computer, which waits while you look back");
    expect($(".cw-table").textContent).not.toMatch(/waiting for/i);
    $('[data-control="latest"]').click();
    expect(model.sent()).toEqual([{ type: "goto", index: model.get("history_len") }]);
  });

  it("shows the second line of play", () => {
    mount("branch");
    expect($$('[data-control="branch"]').map((b) => b.getAttribute("aria-pressed"))).toEqual(["false", "true"]);
    $('[data-branch="main"]').click();
    expect(model.sent()).toEqual([{ type: "switch", branch: "main" }]);
  });
});

describe("teacher view and the end", () => {
  it("shows the hands face up and acts for the player to move", () => {
    mount("teacher");
    expect($$('.cw-seat[data-seat="1"] [data-card]').map((c) => c.dataset.card)).toEqual(view().hands[1]);
    expect($(".cw-player").textContent).toContain("acting for A");
    $('.cw-hand [data-card="PASS"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play pass" }]);
  });

  it("shows the result: places, the winner and the reason", () => {
    mount("finished");
    expect($(".cw-outcome").textContent).toContain("A (you) wins the match!");
    expect($$(".cw-outcome tbody tr").map((r) => r.dataset.seat)).toEqual(["0", "1", "3", "2"]);
    expect($$(".cw-outcome .cw-place").map((c) => c.textContent)).toEqual(["1st", "2nd", "3rd", "4th"]);
    expect($(".cw-outcome .cw-rule").dataset.rule).toBe("N6.5");
    expect($(".cw-legal")).toBeNull();
  });
});

describe("notation and faces", () => {
  it("parses and writes canonical plays", () => {
    expect(parseAction("play 7")).toEqual({ card: "7", target: null, text: "play 7" });
    expect(parseAction("play shot @2")).toEqual({ card: "shot", target: 2, text: "play shot @2" });
    expect(parseAction("play PASS")).toMatchObject({ card: "pass" });
    expect(parseAction("draw")).toBeNull();
    expect(playNotation("SHOT", 1)).toBe("play shot @1");
    expect(playNotation("⑨")).toBe("play 9");
    expect(actionToken("DoubleShot")).toBe("dshot");
    expect(layout.parse).toBe(parseAction);
  });
  it("gives each kind of card its tone and grades the heat", () => {
    expect(cardFace("9").tone).toBe("cirno");
    expect(cardFace("-10").kind).toBe("minus");
    expect(cardFace("99").tone).toBe("gold");
    expect(cardFace("TURN").rule).toBe("N3.5");
    expect([0, 50, 75, 90, 99].map((s) => heat(s, 99))).toEqual([0, 1, 2, 3, 4]);
    const card = renderNeuCard("SHOT", { size: "sm" });
    expect(card.dataset.card).toBe("SHOT");
    expect(card.getAttribute("aria-label")).toBe("SHOT");
  });
});
