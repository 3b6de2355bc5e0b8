// @vitest-environment happy-dom
import { describe, it, expect, beforeEach, afterEach, vi } from "vitest";
import widget, { parseAction, playNotation, passNotation } from "../src/depot/index.js";
import { TRAITS } from "../src/lib/table.js";
import { fakeModel } from "./fake-model.js";
import { traits, depotView, passes, HAND, STORAGE } from "./depot-fixtures.js";

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
const clickHand = (i) => $(`.cw-hand [data-index="${i}"]`).click();

beforeEach(() => {
  el = document.createElement("div");
  document.body.appendChild(el);
});
afterEach(() => {
  cleanup?.();
  el.remove();
  document.body.removeAttribute("data-jp-theme-light");
});

describe("root and header", () => {
  it("renders a focusable root .cw-table with data-game", () => {
    mount();
    const root = $(".cw-table");
    expect(root).not.toBeNull();
    expect(root.dataset.game).toBe("depot");
    expect(root.tabIndex).toBe(0);
    expect(el.children).toHaveLength(1);
  });

  it("shows round, target and whose turn", () => {
    mount();
    const header = $(".cw-header").textContent;
    expect(header).toContain("Round 3");
    expect(header).toContain("T = 5");
    expect(header).toContain("Your turn");
    expect(header).not.toContain("Game 1 of");
  });

  it("shows game k of N and lost points in a match", () => {
    mount({ view: depotView({ games: 3, game_no: 2, lost_points: [0, 7, 3, 5], penalties: [[], [7], [3], [5]] }) });
    expect($(".cw-header").textContent).toContain("Game 2 of 3");
    expect($('.cw-seat[data-seat="1"] .cw-lost').textContent).toContain("lost 7");
    expect($('.cw-seat[data-seat="1"] .cw-lost [data-card="7"]')).not.toBeNull();
  });

  it("names the player to act and shows a thinking indicator on that seat", () => {
    mount({ view: depotView({ current: 2 }), legal: [], thinking: true });
    expect($(".cw-header").textContent).toContain("C to play");
    expect($(".cw-header .cw-thinking")).not.toBeNull();
    const seat = $('.cw-seat[data-seat="2"]');
    expect(seat.classList.contains("cw-current")).toBe(true);
    expect(seat.querySelector(".cw-thinking")).not.toBeNull();
    expect($('.cw-seat[data-seat="1"] .cw-thinking')).toBeNull();
  });
});

describe("seats, Storage and the table", () => {
  it("draws one seat per player, opponents with backs and counts only", () => {
    mount();
    expect($$(".cw-seat[data-seat]").map((s) => s.dataset.seat).sort()).toEqual(["0", "1", "2", "3"]);
    for (const i of [1, 2, 3]) {
      const seat = $(`.cw-seat[data-seat="${i}"]`);
      expect(seat.querySelectorAll("[data-card]")).toHaveLength(0);
      expect(seat.querySelectorAll(".cw-card-back").length).toBeGreaterThan(0);
      expect(seat.querySelector(".cw-count").textContent).toBe(`${[8, 9, 9, 8][i]} cards`);
    }
    expect($('.cw-seat[data-seat="3"]').classList.contains("cw-owner")).toBe(true);
    expect($('.cw-seat[data-seat="0"]').classList.contains("cw-current")).toBe(true);
    expect($('.cw-seat[data-seat="3"] .cw-bubble').textContent).toContain("played 3 4");
  });

  it("lays the opponents out clockwise from the viewer", () => {
    mount({ view: depotView({ seat: 2, current: 2, hands: [null, null, HAND, null] }) });
    expect($$(".cw-seats .cw-seat").map((s) => s.dataset.seat)).toEqual(["3", "0", "1"]);
  });

  it("shows the Storage as 8 value columns with equal values stacked", () => {
    mount();
    const storage = $(".cw-storage");
    expect(storage.querySelectorAll(".cw-storage-col")).toHaveLength(8);
    expect([...storage.querySelectorAll("[data-card]")].map((c) => Number(c.dataset.card))).toEqual(STORAGE);
    expect(storage.querySelectorAll('.cw-storage-col[data-value="5"] [data-card="5"]')).toHaveLength(2);
    expect(storage.querySelector(".cw-set-limit").textContent).toBe("2");
    expect(storage.querySelector(".cw-run-limit").textContent).toBe("3");
    expect(storage.textContent).toContain("T=5");
  });

  it("shows the standing play with its owner, and deck and discard counts", () => {
    mount();
    const standing = $(".cw-standing");
    expect([...standing.querySelectorAll("[data-card]")].map((c) => c.dataset.card)).toEqual(["3", "4"]);
    expect(standing.textContent).toContain("D's play");
    expect($(".cw-deck").textContent).toContain("40");
    expect($(".cw-discard").textContent).toContain("3");
  });

  it("shows an empty table when there is no standing play", () => {
    mount({ view: depotView({ standing: null, phase: "lead", passes: 0 }) });
    expect($(".cw-standing [data-card]")).toBeNull();
    expect($(".cw-standing").textContent).toContain("you lead");
  });
});

describe("the hand", () => {
  it("gives every card data-card, sorted as sent", () => {
    mount();
    expect(handCards().map((c) => Number(c.dataset.card))).toEqual(HAND);
  });

  it("marks cards found in a legal play as playable and dims the others", () => {
    mount();
    const playable = handCards().filter((c) => c.classList.contains("cw-playable")).map((c) => c.dataset.card);
    const dimmed = handCards().filter((c) => c.classList.contains("cw-dimmed")).map((c) => c.dataset.card);
    expect(playable).toEqual(["5", "5", "6", "7"]);
    expect(dimmed).toEqual(["1", "2", "3", "8"]);
  });

  it("has no playable cards when legal is empty", () => {
    mount({ view: depotView({ current: 1 }), legal: [] });
    expect($$(".cw-hand .cw-playable")).toHaveLength(0);
  });

  it("toggles selection on click", () => {
    mount();
    clickHand(3);
    expect(handCards()[3].classList.contains("cw-selected")).toBe(true);
    clickHand(3);
    expect(handCards()[3].classList.contains("cw-selected")).toBe(false);
  });
});

describe("playing", () => {
  it("sends the selection as a play action", () => {
    mount();
    const play = () => $('[data-control="play"]');
    expect(play().hasAttribute("disabled")).toBe(true);
    expect(play().hasAttribute("data-action")).toBe(false);
    clickHand(4);
    clickHand(3);
    expect(play().dataset.action).toBe("play 5 5");
    expect(play().hasAttribute("disabled")).toBe(false);
    play().click();
    expect(model.send).toHaveBeenCalledWith({ type: "act", action: "play 5 5" });
    expect(model.send).toHaveBeenCalledTimes(1);
  });

  it("sends an illegal selection too, so Python can explain the refusal", () => {
    mount();
    clickHand(0);
    clickHand(3);
    const play = $('[data-control="play"]');
    expect(play.dataset.action).toBe("play 1 5");
    expect(play.classList.contains("cw-btn-warn")).toBe(true);
    play.click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 1 5" }]);
  });

  it("writes play values ascending whatever the click order", () => {
    mount();
    clickHand(6);
    clickHand(5);
    expect($('[data-control="play"]').dataset.action).toBe("play 6 7");
  });

  it("lists legal plays as buttons that send their action, and summarises passes", () => {
    mount();
    const moves = $$(".cw-legal [data-action]");
    expect(moves.map((b) => b.dataset.action)).toEqual(["play 5 5", "play 6 7"]);
    moves[1].click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 6 7" }]);
    expect($(".cw-legal").textContent).toContain("or pass: take 2, 4, 5 or 6");
  });
});

describe("passing", () => {
  it("takes a Storage value and gives a card: pass take 5 give 3", () => {
    mount();
    expect($('[data-control^="take-"]')).toBeNull();
    $('[data-control="pass"]').click();
    const takes = $$('[data-control^="take-"]').map((b) => b.dataset.control);
    expect(takes).toEqual(["take-2", "take-4", "take-5", "take-6"]);
    expect($('[data-control="confirm-pass"]').hasAttribute("data-action")).toBe(false);
    $('[data-control="take-5"]').click();
    expect($('[data-control="take-5"]').classList.contains("cw-chosen")).toBe(true);
    // only gives offered with take 5 are live: every other value in hand
    const givable = handCards().filter((c) => c.classList.contains("cw-playable")).map((c) => c.dataset.card);
    expect(givable).toEqual(["1", "2", "3", "6", "7", "8"]);
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 5");
    clickHand(2); // the 3
    const confirm = $('[data-control="confirm-pass"]');
    expect(confirm.dataset.action).toBe("pass take 5 give 3");
    confirm.click();
    expect(model.sent()).toEqual([{ type: "act", action: "pass take 5 give 3" }]);
  });

  it("passes without giving: pass take 5", () => {
    mount();
    $('[data-control="pass"]').click();
    $('[data-control="take-5"]').click();
    clickHand(3); // a 5 cannot be given after taking 5s: ignored
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 5");
    $('[data-control="confirm-pass"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "pass take 5" }]);
  });

  it("clicking the given card again takes the give back", () => {
    mount();
    $('[data-control="pass"]').click();
    $('[data-control="take-2"]').click();
    clickHand(0);
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 2 give 1");
    clickHand(0);
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 2");
  });

  it("only offers takes and gives that appear in legal", () => {
    mount({ legal: ["play 5 5", "pass take 4", "pass take 4 give 8"] });
    $('[data-control="pass"]').click();
    expect($$('[data-control^="take-"]').map((b) => b.dataset.control)).toEqual(["take-4"]);
    $('[data-control="take-4"]').click();
    expect(handCards().filter((c) => c.classList.contains("cw-playable")).map((c) => c.dataset.card)).toEqual(["8"]);
    clickHand(0); // a 1: not offered, ignored
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 4");
  });

  it("goes straight to the give step when the Storage is empty", () => {
    mount({
      view: depotView({ storage: [], set_limit: 0, run_limit: 0 }),
      legal: ["play 5", "pass", "pass give 1", "pass give 5"],
    });
    $('[data-control="pass"]').click();
    expect($('[data-control^="take-"]')).toBeNull();
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass");
    clickHand(3);
    $('[data-control="confirm-pass"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "pass give 5" }]);
    expect($(".cw-legal").textContent).toContain("or pass (the Storage is empty)");
  });

  it("cancel leaves the pass flow without sending anything", () => {
    mount();
    $('[data-control="pass"]').click();
    $('[data-control="take-6"]').click();
    $('[data-control="cancel"]').click();
    expect($('[data-control="confirm-pass"]')).toBeNull();
    expect($('[data-control^="take-"]')).toBeNull();
    expect($('[data-control="pass"]')).not.toBeNull();
    expect(model.send).not.toHaveBeenCalled();
  });

  it("disables Pass for the leader, citing rule D5.3", () => {
    mount({ view: depotView({ phase: "lead", standing: null, passes: 0 }), legal: ["play 1", "play 5", "play 5 5"] });
    const pass = $('[data-control="pass"]');
    expect(pass.hasAttribute("disabled")).toBe(true);
    expect(pass.getAttribute("title")).toBe("the leader must play (rule D5.3)");
    expect($(".cw-legal").textContent).not.toContain("or pass");
  });
});

describe("teacher view", () => {
  const hands = [HAND, [1, 1, 2, 4, 4, 6, 7, 8, 8], [2, 3, 3, 6, 7, 8], [1, 2, 5, 6, 7, 7, 8]];
  it("shows every hand face up and makes the current player's hand interactive", () => {
    mount({
      view: depotView({ seat: null, current: 2, hands, hand_counts: hands.map((x) => x.length) }),
      legal: ["play 6 7", "play 7 8", ...passes(hands[2], STORAGE)],
    });
    for (let i = 0; i < 4; i++) {
      const cards = [...el.querySelectorAll(`.cw-seat[data-seat="${i}"] [data-card]`)].map((c) => Number(c.dataset.card));
      expect(cards).toEqual(hands[i]);
    }
    expect(handCards().map((c) => Number(c.dataset.card))).toEqual(hands[2]);
    expect($(".cw-header").textContent).toContain("C to play");
    clickHand(4);
    clickHand(3);
    $('[data-control="play"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 6 7" }]);
  });
});

describe("error banner, log and outcome", () => {
  const msg = "Illegal: rule D4.5 — a run of 4 exceeds the run limit 3 (Storage [2,4,5,5,6]).";
  it("shows last_error with the rule ID emphasised and clears it", () => {
    mount({ last_error: msg });
    const banner = $(".cw-error");
    expect(banner.textContent).toContain("a run of 4 exceeds the run limit 3");
    expect(banner.querySelector(".cw-rule").textContent).toBe("D4.5");
    $('.cw-error [data-control="clear-error"]').click();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
  });

  it("has no banner without an error, and shows one when last_error changes", () => {
    mount();
    expect($(".cw-error")).toBeNull();
    model.set("last_error", msg);
    expect($(".cw-error")).not.toBeNull();
    model.set("last_error", "");
    expect($(".cw-error")).toBeNull();
  });

  it("narrates newest last with rule IDs highlighted", () => {
    mount();
    const lines = $$(".cw-log li");
    expect(lines).toHaveLength(3);
    expect(lines[2].textContent).toContain("D plays [3,4]");
    expect(lines[2].classList.contains("cw-log-latest")).toBe(true);
    expect($$(".cw-log .cw-rule").map((r) => r.textContent)).toEqual(["D4.8", "D6", "D4.6"]);
    model.set("log", [...model.get("log"), "A passes (D6): takes the 5s."]);
    expect($$(".cw-log li")).toHaveLength(4);
  });

  it("shows the outcome: winners, scores and reason", () => {
    mount({
      view: depotView({
        phase: "finished", current: null, hands: [[], null, null, null], hand_counts: [0, 3, 5, 2],
        outcome: { winners: [0], scores: [0, 3, 5, 2], reason: "A emptied their hand (rule D8.1)" },
      }),
      legal: [],
    });
    const panel = $(".cw-outcome");
    expect(panel.textContent).toContain("You win!");
    expect($$(".cw-outcome tbody tr").map((r) => r.lastElementChild.textContent)).toEqual(["0", "3", "5", "2"]);
    expect(panel.textContent).toContain("Cards left");
    expect(panel.querySelector(".cw-rule").textContent).toBe("D8.1");
    expect($(".cw-controls")).toBeNull();
  });

  it("labels match scores as lost points and names shared winners", () => {
    mount({
      view: depotView({
        phase: "finished", current: null, games: 3, game_no: 3,
        outcome: { winners: [1, 2], scores: [9, 4, 4, 6], reason: "B and C tie on 4 lost points (rule D10.7)" },
      }),
      legal: [],
    });
    expect($(".cw-outcome").textContent).toContain("B and C share the win");
    expect($(".cw-outcome").textContent).toContain("Lost points");
  });
});

describe("history scrubber", () => {
  it("sends goto from the buttons and the range, and undo", () => {
    mount({ cursor: 2, history_len: 5 });
    const h = $(".cw-history");
    const range = /** @type {HTMLInputElement} */ (h.querySelector('input[type="range"]'));
    expect(range.min).toBe("0");
    expect(range.max).toBe("5");
    expect(range.value).toBe("2");
    $('[data-control="first"]').click();
    $('[data-control="prev"]').click();
    $('[data-control="next"]').click();
    $('[data-control="last"]').click();
    range.value = "4";
    range.dispatchEvent(new Event("change", { bubbles: true }));
    $('[data-control="undo"]').click();
    expect(model.sent()).toEqual([
      { type: "goto", index: 0 }, { type: "goto", index: 1 }, { type: "goto", index: 3 },
      { type: "goto", index: 5 }, { type: "goto", index: 4 }, { type: "undo" },
    ]);
  });

  it("disables the buttons that would not move, and follows cursor changes", () => {
    mount({ cursor: 3, history_len: 3 });
    expect($('[data-control="next"]').hasAttribute("disabled")).toBe(true);
    expect($('[data-control="last"]').hasAttribute("disabled")).toBe(true);
    expect($('[data-control="prev"]').hasAttribute("disabled")).toBe(false);
    model.set("cursor", 0);
    expect($('[data-control="first"]').hasAttribute("disabled")).toBe(true);
    expect($('[data-control="next"]').hasAttribute("disabled")).toBe(false);
    expect(/** @type {HTMLInputElement} */ ($(".cw-history input")).value).toBe("0");
    expect($(".cw-header").textContent).toContain("viewing move 0 of 3");
  });
});

describe("redraw, keyboard and cleanup", () => {
  it("redraws when the view changes and resets the selection", () => {
    mount();
    clickHand(3);
    expect($$(".cw-hand .cw-selected")).toHaveLength(1);
    model.set("view", depotView({ storage: [1, 2, 4, 5, 5, 6], hands: [[1, 2, 3, 6, 7, 8], null, null, null], current: 1 }));
    expect($$(".cw-storage [data-card]").map((c) => Number(c.dataset.card))).toEqual([1, 2, 4, 5, 5, 6]);
    expect(handCards().map((c) => Number(c.dataset.card))).toEqual([1, 2, 3, 6, 7, 8]);
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
    expect($(".cw-header").textContent).toContain("B to play");
  });

  it("keeps the selection across a redraw that does not change the position", () => {
    mount();
    clickHand(3);
    model.set("last_error", "Illegal: rule D4.7 — too weak.");
    expect($$(".cw-hand .cw-selected")).toHaveLength(1);
  });

  it("subscribes to every synced trait it draws from", () => {
    mount();
    for (const t of ["view", "legal", "log", "cursor", "history_len", "last_error", "thinking"]) {
      expect(model.handlers[`change:${t}`], t).toHaveLength(1);
    }
    expect(TRAITS).toContain("bot_seats");
  });

  it("stops key events from reaching the notebook", () => {
    mount();
    const outside = vi.fn();
    el.addEventListener("keydown", outside);
    el.addEventListener("keyup", outside);
    el.addEventListener("keypress", outside);
    document.addEventListener("keydown", outside);
    const button = $('[data-control="pass"]');
    for (const type of ["keydown", "keyup", "keypress"]) {
      button.dispatchEvent(new KeyboardEvent(type, { key: "a", bubbles: true }));
    }
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "d", bubbles: true }));
    expect(outside).not.toHaveBeenCalled();
    document.removeEventListener("keydown", outside);
  });

  it("Escape leaves the pass flow, then clears the selection", () => {
    mount();
    const esc = () => $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    $('[data-control="pass"]').click();
    esc();
    expect($('[data-control="confirm-pass"]')).toBeNull();
    clickHand(3);
    esc();
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
    expect(model.send).not.toHaveBeenCalled();
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
    // later changes do nothing (and do not throw)
    model.set("view", depotView({ round: 9 }));
    expect(el.children).toHaveLength(0);
  });

  it("waits politely before the first view arrives", () => {
    mount({ view: {}, legal: [] });
    expect($(".cw-table").textContent).toContain("Waiting for the game");
    model.set("view", depotView());
    expect(handCards()).toHaveLength(HAND.length);
  });
});

describe("notation helpers", () => {
  it("parses plays and passes", () => {
    expect(parseAction("play 3 4 5")).toMatchObject({ kind: "play", cards: [3, 4, 5] });
    expect(parseAction("pass take 3 give 7")).toMatchObject({ kind: "pass", take: 3, give: 7 });
    expect(parseAction("pass take 3")).toMatchObject({ kind: "pass", take: 3, give: null });
    expect(parseAction("pass give 5")).toMatchObject({ kind: "pass", take: null, give: 5 });
    expect(parseAction("pass")).toMatchObject({ kind: "pass", take: null, give: null });
    expect(parseAction("Pass 4 give 2")).toMatchObject({ kind: "pass", take: 4, give: 2 });
    expect(parseAction("dance")).toBeNull();
  });
  it("writes canonical notation", () => {
    expect(playNotation([5, 3, 4])).toBe("play 3 4 5");
    expect(passNotation(5, 3)).toBe("pass take 5 give 3");
    expect(passNotation(5, null)).toBe("pass take 5");
    expect(passNotation(null, 5)).toBe("pass give 5");
    expect(passNotation(null, null)).toBe("pass");
  });
});
