// @vitest-environment happy-dom
import { describe, it, expect, beforeEach, afterEach, vi } from "vitest";
import widget, { parseAction, playNotation, actionToken, cardFace, heat, renderNeuCard } from "../src/cirno_neu/index.js";
import { fakeModel } from "./fake-model.js";
import { traits, neuView, turn, HAND, LEGAL } from "./cirno_neu-fixtures.js";

/** @type {HTMLElement} */
let el;
/** @type {ReturnType<typeof fakeModel>} */
let model;
/** @type {() => void} */
let cleanup;

function mount(over = {}) {
  model = fakeModel(traits(over));
  cleanup = widget.render({ model, el });
  return model;
}
const $ = (sel) => /** @type {HTMLElement} */ (el.querySelector(sel));
const $$ = (sel) => /** @type {HTMLElement[]} */ ([...el.querySelectorAll(sel)]);
const handCards = () => $$(".cw-hand [data-card]");
const handCard = (token) => $(`.cw-hand [data-card="${token}"]`);
const seat = (i) => $(`.cw-seat[data-seat="${i}"]`);

beforeEach(() => {
  el = document.createElement("div");
  document.body.appendChild(el);
});
afterEach(() => {
  cleanup?.();
  el.remove();
});

describe("root, header and centre", () => {
  it("renders a focusable root .cw-table with data-game", () => {
    mount();
    const root = $(".cw-table");
    expect(root.dataset.game).toBe("cirno_neu");
    expect(root.tabIndex).toBe(0);
    expect(el.children).toHaveLength(1);
  });

  it("shows round, mode and whose turn", () => {
    mount();
    const header = $(".cw-header").textContent;
    expect(header).toContain("Round 2");
    expect(header).toContain("Life system");
    expect(header).toContain("Your turn");
    model.set("legal", []);
    model.set("view", neuView({ current: 2, life_system: false, chips: null, turn: turn({ actor: 2, anchor: 2 }) }));
    expect($$(".cw-header")).toHaveLength(1);
    expect($(".cw-header").textContent).toContain("C to play");
    expect($(".cw-header").textContent).toContain("Elimination");
  });

  it("shows the running sum large, out of the limit, warming as it nears the limit", () => {
    mount();
    expect($(".cw-sum").textContent).toBe("91");
    expect($(".cw-dial").textContent).toContain("/ 99");
    expect($(".cw-dial").dataset.heat).toBe("3");
    expect($(".cw-dial").getAttribute("aria-label")).toBe("sum 91 of 99");
    model.set("view", neuView({ sum: 30 }));
    expect($(".cw-dial").dataset.heat).toBe("0");
    model.set("view", neuView({ sum: 99 }));
    expect($(".cw-dial").dataset.heat).toBe("4");
    model.set("view", neuView({ sum: -7 }));
    expect($(".cw-sum").textContent).toBe("−7");
    expect($(".cw-dial").dataset.heat).toBe("0");
  });

  it("fans the top of the main stack, newest last, with stack and draw counts", () => {
    mount();
    const top = $$(".cw-stack-top [data-card]");
    expect(top.map((c) => c.dataset.card)).toEqual(["10", "-10", "TURN", "50", "8"]);
    expect(top[4].classList.contains("cw-newest")).toBe(true);
    expect($(".cw-stack-count").textContent).toBe("12");
    expect($(".cw-draw-count").textContent).toBe("31");
  });

  it("shows the direction of play and flips it with view.direction", () => {
    mount();
    expect($(".cw-direction").dataset.direction).toBe("cw");
    expect($(".cw-direction").textContent).toBe("clockwise");
    expect($(".cw-ring").dataset.direction).toBe("cw");
    const rot = () => $$(".cw-flow").map((f) => parseFloat(f.style.getPropertyValue("--rot")));
    const before = rot();
    expect(before).toHaveLength(4);
    model.set("view", neuView({ direction: -1, clockwise: false }));
    expect($(".cw-direction").dataset.direction).toBe("ccw");
    expect($(".cw-direction").textContent).toBe("counter-clockwise");
    expect($(".cw-ring").dataset.direction).toBe("ccw");
    expect(rot().map((r, i) => Math.round(r - before[i]))).toEqual([180, 180, 180, 180]);
  });
});

describe("seats", () => {
  it("draws one seat per player, the viewer at the bottom, opponents as backs and counts", () => {
    mount();
    expect($$(".cw-seat[data-seat]").map((s) => s.dataset.seat)).toEqual(["0", "1", "2", "3"]);
    expect(seat(0).style.getPropertyValue("--cy")).toBe("1.0000");
    for (const i of [1, 2, 3]) {
      expect(seat(i).querySelectorAll("[data-card]")).toHaveLength(0);
      expect(seat(i).querySelectorAll(".cw-card-back")).toHaveLength(3);
      expect(seat(i).querySelector(".cw-count").textContent).toBe("3");
      expect(seat(i).querySelector(".cw-tag-bot")).not.toBeNull();
    }
    expect(seat(0).querySelector(".cw-tag-you")).not.toBeNull();
    expect(seat(0).classList.contains("cw-current")).toBe(true);
    expect(seat(3).querySelector(".cw-dealer")).not.toBeNull();
    expect($$(".cw-dealer")).toHaveLength(1);
    expect(seat(3).querySelector(".cw-bubble").textContent).toBe("played 4");
  });

  it("puts the viewer at the bottom whatever their seat", () => {
    mount({ view: neuView({ seat: 2, hands: [null, null, HAND, null] }) });
    expect(seat(2).style.getPropertyValue("--cy")).toBe("1.0000");
    expect(seat(3).style.getPropertyValue("--cx")).toBe("-1.0000"); // next clockwise: on the left
  });

  it("shows life chips as tokens and greys eliminated seats with a mark", () => {
    mount({
      view: neuView({ players: 5, names: ["A", "B", "C", "D", "E"], chips: [2, 1, 0, 2, 0],
        active: [true, true, false, true, false], eliminated: [4, 2],
        hands: [HAND, null, null, null, null], hand_counts: [3, 3, 0, 3, 0] }),
    });
    expect([0, 1, 3].map((i) => seat(i).querySelectorAll(".cw-life").length)).toEqual([2, 1, 2]);
    expect(seat(1).querySelector(".cw-lives").getAttribute("title")).toContain("1 chip left");
    for (const i of [2, 4]) {
      expect(seat(i).classList.contains("cw-out")).toBe(true);
      expect(seat(i).querySelector(".cw-card-back")).toBeNull();
    }
    expect(seat(4).querySelector(".cw-out-mark").textContent).toContain("5th");
    expect(seat(2).querySelector(".cw-out-mark").textContent).toContain("4th");
    expect(seat(0).classList.contains("cw-out")).toBe(false);
  });

  it("has no chips in the elimination game", () => {
    mount({ view: neuView({ life_system: false, chips: null }) });
    expect($(".cw-life")).toBeNull();
    expect($(".cw-lives")).toBeNull();
  });

  it("marks the player to act and shows a thinking indicator on that seat", () => {
    mount({ view: neuView({ current: 2, turn: turn({ actor: 2, anchor: 2 }) }), legal: [], thinking: true });
    expect(seat(2).classList.contains("cw-current")).toBe(true);
    expect(seat(2).querySelector(".cw-thinking")).not.toBeNull();
    expect(seat(1).querySelector(".cw-thinking")).toBeNull();
    expect($(".cw-header .cw-thinking")).not.toBeNull();
  });
});

describe("the hand", () => {
  it("gives every card its token as data-card, in the order sent", () => {
    mount();
    expect(handCards().map((c) => c.dataset.card)).toEqual(HAND);
  });

  it("marks cards with a legal play as playable, dims the rest, and gives direct plays data-action", () => {
    mount();
    const cls = (t, c) => handCard(t).classList.contains(c);
    expect([cls("7", "cw-playable"), cls("9", "cw-playable"), cls("SHOT", "cw-playable")]).toEqual([true, false, true]);
    expect([cls("7", "cw-dimmed"), cls("9", "cw-dimmed"), cls("SHOT", "cw-dimmed")]).toEqual([false, true, false]);
    expect(handCard("7").dataset.action).toBe("play 7");
    expect(handCard("9").hasAttribute("data-action")).toBe(false);
    expect(handCard("SHOT").hasAttribute("data-action")).toBe(false);
    expect(handCard("SHOT").dataset.control).toBe("target");
  });

  it("draws the ⑨ as the Cirno card and order cards with their names", () => {
    mount({ view: neuView({ hands: [["9", "-10", "99", "PASS", "TURN", "DOUBLE", "DSHOT"], null, null, null] }), legal: [] });
    const nine = handCard("9");
    expect(nine.dataset.tone).toBe("cirno");
    expect(nine.querySelector(".cw-nine")).not.toBeNull();
    expect(nine.getAttribute("aria-label")).toBe("⑨");
    expect(handCard("-10").dataset.tone).toBe("minus");
    expect(handCard("-10").querySelector(".cw-card-value").textContent).toBe("−10");
    expect(handCard("99").dataset.tone).toBe("gold");
    expect(handCard("PASS").querySelector(".cw-card-caption").textContent).toBe("PASS");
    expect(handCard("TURN").querySelector(".cw-card-caption").textContent).toBe("TURN");
    expect(handCard("DOUBLE").querySelector(".cw-card-value").textContent).toBe("×2");
    expect(handCard("DSHOT").querySelector(".cw-card-caption").textContent).toBe("DOUBLE SHOT");
  });

  it("sends one play per click", () => {
    mount();
    handCard("7").click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 7" }]);
  });

  it("sends an unplayable card too, so Python can explain the refusal", () => {
    mount();
    handCard("9").click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 9" }]);
  });

  it("writes order cards in lower-case notation", () => {
    mount({ view: neuView({ hands: [["PASS", "TURN", "DOUBLE"], null, null, null] }), legal: ["play pass", "play turn", "play double"] });
    expect(handCards().map((c) => c.dataset.action)).toEqual(["play pass", "play turn", "play double"]);
    handCard("TURN").click();
    expect(model.sent()).toEqual([{ type: "act", action: "play turn" }]);
  });

  it("has no playable or dimmed cards when it is not the viewer's turn, but clicks still ask Python", () => {
    mount({ view: neuView({ current: 1, turn: turn({ actor: 1, anchor: 1 }) }), legal: [] });
    expect($$(".cw-hand .cw-playable")).toHaveLength(0);
    expect($$(".cw-hand .cw-dimmed")).toHaveLength(0);
    handCard("7").click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 7" }]);
  });
});

describe("SHOT targeting", () => {
  it("lights up the legal targets and sends play shot @k from the seat", () => {
    mount({ legal: ["play 7", "play shot @1", "play shot @2"] });
    expect($(".cw-targetable")).toBeNull();
    handCard("SHOT").click();
    expect(model.send).not.toHaveBeenCalled();
    expect(handCard("SHOT").classList.contains("cw-selected")).toBe(true);
    expect($$(".cw-targetable").map((s) => s.dataset.seat)).toEqual(["1", "2"]);
    expect(seat(1).dataset.action).toBe("play shot @1");
    expect(seat(2).dataset.action).toBe("play shot @2");
    expect(seat(3).hasAttribute("data-action")).toBe(false);
    expect(seat(0).hasAttribute("data-action")).toBe(false);
    seat(3).click(); // not a target: nothing
    expect(model.send).not.toHaveBeenCalled();
    seat(2).click();
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @2" }]);
  });

  it("targets with the keyboard too", () => {
    mount();
    handCard("SHOT").click();
    seat(3).dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @3" }]);
  });

  it("cancel leaves targeting without sending anything", () => {
    mount();
    handCard("SHOT").click();
    expect($(".cw-controls").textContent).toContain("click a glowing seat");
    $('[data-control="cancel"]').click();
    expect($(".cw-targetable")).toBeNull();
    expect($('[data-control="cancel"]')).toBeNull();
    expect(handCard("SHOT").classList.contains("cw-selected")).toBe(false);
    handCard("SHOT").click();
    handCard("SHOT").click(); // clicking the card again cancels too
    expect($(".cw-targetable")).toBeNull();
    handCard("SHOT").click();
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect($(".cw-targetable")).toBeNull();
    expect(model.send).not.toHaveBeenCalled();
  });

  it("DOUBLE SHOT targets the same way and sends play dshot @k", () => {
    mount({ view: neuView({ hands: [["5", "DSHOT"], null, null, null] }), legal: ["play 5", "play dshot @1", "play dshot @3"] });
    handCard("DSHOT").click();
    expect($$(".cw-targetable").map((s) => s.dataset.seat)).toEqual(["1", "3"]);
    seat(3).click();
    expect(model.sent()).toEqual([{ type: "act", action: "play dshot @3" }]);
  });

  it("a normal card played while targeting is sent as itself", () => {
    mount();
    handCard("SHOT").click();
    handCard("7").click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 7" }]);
  });

  it("a new position ends targeting", () => {
    mount();
    handCard("SHOT").click();
    model.set("view", neuView({ turn_no: 15 }));
    expect($(".cw-targetable")).toBeNull();
  });
});

describe("turns: double, shot and pending", () => {
  it("counts the cards of a DOUBLE turn in the header and the centre", () => {
    mount({ view: neuView({ turn: turn({ required: 2, played: 0 }) }) });
    expect($(".cw-header").textContent).toContain("card 1 of 2");
    model.set("view", neuView({ turn: turn({ required: 2, played: 1 }) }));
    expect($(".cw-header").textContent).toContain("Your turn · card 2 of 2");
    expect($(".cw-centre .cw-badge-double").textContent).toBe("×2 · card 2 of 2");
    expect($(".cw-player-head").textContent).toContain("card 2 of 2");
  });

  it("has no counter on a normal turn", () => {
    mount();
    expect($(".cw-header").textContent).not.toContain(" of 2");
    expect($(".cw-badge-double")).toBeNull();
  });

  it("badges a shot turn with the seat play resumes after", () => {
    mount({ view: neuView({ current: 2, turn: turn({ actor: 2, anchor: 0, kind: "shot" }) }), legal: [] });
    expect($(".cw-header").textContent).toContain("C — shot turn");
    expect($(".cw-centre .cw-badge-shot").textContent).toContain("then after A");
    expect(seat(2).classList.contains("cw-shot-turn")).toBe(true);
  });

  it("shows a pending DOUBLE and a pending SHOT for the next turn", () => {
    mount({ view: neuView({ turn: turn({ required: 2, played: 1, shot_target: 2, double_next: true }), pending: { shot_target: 2, double_next: true } }) });
    expect($('.cw-centre [data-pending="double"]').textContent).toBe("next turn ×2");
    expect($('.cw-centre [data-pending="shot"]').textContent).toBe("next: C");
    expect(seat(2).querySelector(".cw-badge-next")).not.toBeNull();
  });
});

describe("legal moves strip", () => {
  it("lists every legal action as a button that sends it", () => {
    mount();
    const moves = $$(".cw-legal [data-action]");
    expect(moves.map((b) => b.dataset.action)).toEqual(LEGAL);
    expect(moves[2].textContent).toContain("→ C");
    moves[3].click();
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @3" }]);
  });

  it("says whom it is waiting for when there is nothing to play", () => {
    mount({ view: neuView({ current: 1, turn: turn({ actor: 1, anchor: 1 }) }), legal: [], thinking: true });
    expect($(".cw-legal").textContent).toContain("none — waiting for B (thinking…)");
  });
});

describe("teacher view", () => {
  const hands = [["1", "2", "3"], ["TURN", "SHOT", "99"], ["-1", "9", "50"], ["PASS", "10", "10"]];
  it("shows every hand face up and acts for the player to move", () => {
    mount({
      view: neuView({ seat: null, current: 1, turn: turn({ actor: 1, anchor: 1 }), hands }),
      legal: ["play turn", "play shot @0", "play shot @2", "play shot @3", "play 99"],
    });
    for (let i = 0; i < 4; i++) {
      expect([...seat(i).querySelectorAll("[data-card]")].map((c) => c.dataset.card)).toEqual(hands[i]);
    }
    expect(handCards().map((c) => c.dataset.card)).toEqual(hands[1]);
    expect($(".cw-player").textContent).toContain("teacher view — acting for B");
    expect($(".cw-header").textContent).toContain("B to play");
    handCard("SHOT").click();
    expect($$(".cw-targetable").map((s) => s.dataset.seat)).toEqual(["0", "2", "3"]);
    seat(0).click();
    expect(model.sent()).toEqual([{ type: "act", action: "play shot @0" }]);
  });
});

describe("error banner, log, revealed hand and outcome", () => {
  const msg = "Illegal: rule N4.3 — 9 would make the sum 100 (> 99) while you hold a safe card (7, SHOT)";
  it("shows last_error with the rule ID emphasised and clears it", () => {
    mount({ last_error: msg });
    expect($(".cw-error").textContent).toContain("9 would make the sum 100");
    expect($(".cw-error .cw-rule").textContent).toBe("N4.3");
    $('.cw-error [data-control="clear-error"]').click();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
    model.set("last_error", "");
    expect($(".cw-error")).toBeNull();
  });

  it("narrates newest last with rule IDs", () => {
    mount();
    const lines = $$(".cw-log li");
    expect(lines).toHaveLength(3);
    expect(lines[2].classList.contains("cw-log-latest")).toBe(true);
    expect($$(".cw-log .cw-rule").map((r) => r.textContent)).toEqual(["N3.1", "N4.7", "N3.1"]);
  });

  it("reveals the hand of a forced bust", () => {
    mount({ view: neuView({ round: 3, sum: 0, revealed: { seat: 1, sum: 95, hand: ["10", "50", "8"], card: null, forced: true, round: 2 } }) });
    const panel = $(".cw-revealed");
    expect(panel.dataset.seat).toBe("1");
    expect([...panel.querySelectorAll("[data-card]")].map((c) => c.dataset.card)).toEqual(["10", "50", "8"]);
    expect(panel.textContent).toContain("Forced bust");
    expect(panel.textContent).toContain("B held no safe card at 95");
    expect(panel.querySelector(".cw-rule").textContent).toBe("N4.4");
  });

  it("has no revealed panel before any bust", () => {
    mount();
    expect($(".cw-revealed")).toBeNull();
  });

  it("shows the outcome: winner, places, chips and reason", () => {
    mount({
      view: neuView({
        phase: "MATCH_END", current: null, round: 6, chips: [1, 0, 0, 0], active: [true, false, false, false], eliminated: [2, 1, 3],
        revealed: { seat: 3, sum: 99, hand: ["5", "9", "50"], card: null, forced: true, round: 6 },
        outcome: { winners: [0], scores: [1, 0, 0, 0], reason: "D busted last (round 6, sum 99); A is the last player left (rule N6.5)" },
      }),
      legal: [],
    });
    const panel = $(".cw-outcome");
    expect(panel.textContent).toContain("You win the match!");
    const rows = $$(".cw-outcome tbody tr");
    expect(rows.map((r) => r.dataset.seat)).toEqual(["0", "3", "1", "2"]);
    expect(rows.map((r) => r.querySelector(".cw-place").textContent)).toEqual(["1st", "2nd", "3rd", "4th"]);
    expect(rows.map((r) => r.lastElementChild.textContent)).toEqual(["1", "0", "0", "0"]);
    expect(panel.textContent).toContain("Chips");
    expect(panel.querySelector(".cw-rule").textContent).toBe("N6.5");
    expect($(".cw-header").textContent).toContain("Match over");
    expect($(".cw-controls")).toBeNull();
    expect($(".cw-legal")).toBeNull();
    expect(handCards().every((c) => c.tagName === "DIV")).toBe(true);
    expect($(".cw-revealed")).not.toBeNull();
  });

  it("names another winner and drops the chips column in the elimination game", () => {
    mount({
      view: neuView({
        phase: "MATCH_END", current: null, life_system: false, chips: null, active: [false, false, true, false], eliminated: [0, 3, 1],
        outcome: { winners: [2], scores: [0, 2, 3, 1], reason: "B busted last; C is the last player left (rule N6.5)" },
      }),
      legal: [],
    });
    expect($(".cw-outcome").textContent).toContain("C wins the match");
    expect($(".cw-outcome").textContent).not.toContain("Chips");
    expect($$(".cw-outcome tbody tr").map((r) => r.dataset.seat)).toEqual(["2", "1", "3", "0"]);
    expect($(".cw-seat.cw-winner").dataset.seat).toBe("2");
  });
});

describe("history, redraw, keyboard and cleanup", () => {
  it("sends goto and undo from the scrubber", () => {
    mount({ cursor: 2, history_len: 5 });
    $('[data-control="first"]').click();
    $('[data-control="undo"]').click();
    expect(model.sent()).toEqual([{ type: "goto", index: 0 }, { type: "undo" }]);
    expect($(".cw-header").textContent).toContain("viewing move 2 of 5");
  });

  it("stops key events from reaching the notebook", () => {
    mount();
    const outside = vi.fn();
    el.addEventListener("keydown", outside);
    handCard("7").dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
    expect(outside).not.toHaveBeenCalled();
  });

  it("cleanup removes the DOM and every listener", () => {
    mount();
    const root = $(".cw-table");
    const spy = vi.spyOn(root, "removeEventListener");
    expect(model.listenerCount()).toBeGreaterThan(0);
    cleanup();
    cleanup = () => {};
    expect(el.children).toHaveLength(0);
    expect(model.listenerCount()).toBe(0);
    expect(spy.mock.calls.map((c) => c[0]).sort()).toEqual(["keydown", "keypress", "keyup"]);
    model.set("view", neuView({ round: 9 }));
    expect(el.children).toHaveLength(0);
  });

  it("waits politely before the first view arrives", () => {
    mount({ view: {}, legal: [] });
    expect($(".cw-table").textContent).toContain("Waiting for the game");
    model.set("view", neuView());
    expect(handCards()).toHaveLength(3);
  });
});

describe("notation and face helpers", () => {
  it("parses and writes canonical plays", () => {
    expect(parseAction("play 7")).toMatchObject({ card: "7", target: null });
    expect(parseAction("play -10")).toMatchObject({ card: "-10", target: null });
    expect(parseAction("play shot @2")).toMatchObject({ card: "shot", target: 2 });
    expect(parseAction("PLAY DShot @0")).toMatchObject({ card: "dshot", target: 0 });
    expect(parseAction("play 4, -1")).toBeNull();
    expect(parseAction("pass take 3")).toBeNull();
    expect(playNotation("PASS")).toBe("play pass");
    expect(playNotation("SHOT", 3)).toBe("play shot @3");
    expect(playNotation("⑨")).toBe("play 9");
    expect(actionToken("DOUBLE-SHOT")).toBe("dshot");
  });

  it("gives each kind of card its tone", () => {
    expect(["1", "5", "10", "50", "9", "-1", "-10", "99", "PASS", "TURN", "SHOT", "DOUBLE", "DSHOT"].map((t) => cardFace(t).tone))
      .toEqual(["plus-lo", "plus-mid", "plus-hi", "plus-max", "cirno", "minus", "minus", "gold", "pass", "turn", "shot", "double", "dshot"]);
    expect(cardFace("DSHOT").name).toBe("DOUBLE SHOT");
    expect(cardFace("9").rule).toBe("N3.1");
  });

  it("grades the heat of the sum", () => {
    expect([0, 49, 50, 74, 75, 89, 90, 98, 99, -5].map((s) => heat(s, 99))).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 0]);
  });

  it("renders a small card with data-card and its face", () => {
    const card = renderNeuCard("TURN", { size: "xs" });
    expect(card.dataset.card).toBe("TURN");
    expect(card.querySelector("svg")).not.toBeNull();
    expect(card.querySelector(".cw-card-caption")).toBeNull();
  });
});
