// @vitest-environment happy-dom
// The Depot layout in the shared frame, driven by positions the Python engine made
// (fixtures/depot.json, written by tests/test_js_fixtures.py).
import { describe, it, expect, vi } from "vitest";
import { parseAction, playNotation, passNotation, describeAction, takenWords, passSummary, layout } from "../src/depot/index.js";
import { TRAITS } from "../src/lib/table.js";
import { scenario, scenarioNames } from "./fixtures.js";
import { el, model, mountScenario, unmount, useTable, $, $$, view, handCards } from "./helpers.js";

/** @param {string} name @param {Record<string, any>} [over] */
const mount = (name, over = {}) => mountScenario("depot", name, over);
const handValues = () => handCards().map((c) => Number(c.dataset.card));
const clickHand = (i) => $(`.cw-hand [data-index="${i}"]`).click();
const disabled = (sel) => $(sel).hasAttribute("disabled");

useTable();

describe("every engine position draws", () => {
  it.each(scenarioNames("depot"))("%s: the table, its hooks, and no drawing error", (name) => {
    mount(name);
    const root = $(".cw-table");
    expect(root.dataset.game).toBe("depot");
    expect($(".cw-render-error")).toBeNull();
    expect($$(".cw-seat[data-seat]").length).toBeGreaterThan(0);
    expect(root.textContent).not.toMatch(/\bnull\b|undefined|NaN|\[object/);
    expect(root.textContent).not.toMatch(/\b0 cards?\b|card\(s\)|\b1 cards\b/);
    expect(root.textContent).not.toMatch(/Legal moves\s*or pass/i);
  });
});

describe("header, seats and the centre", () => {
  it("shows round, target and whose turn at the start", () => {
    mount("start");
    const header = $(".cw-header").textContent;
    expect(header).toContain("Round 1");
    expect(header).toContain(`Target ${view().target}`);
    expect($(".cw-turn").textContent).toBe("Your turn");
    expect(header).not.toContain("Game 1 of");
    expect($(".cw-standing").textContent).toContain("empty: you lead");
  });

  it("draws the opponents with backs and counts only, clockwise from the viewer", () => {
    mount("respond");
    expect($$(".cw-seats .cw-seat").map((s) => s.dataset.seat)).toEqual(["1", "2", "3"]);
    for (const i of [1, 2, 3]) {
      const seat = $(`.cw-seats .cw-seat[data-seat="${i}"]`);
      expect(seat.querySelectorAll("[data-card]")).toHaveLength(0);
      expect(seat.querySelector(".cw-count").textContent).toBe(`${view().hand_counts[i]} cards`);
      expect(seat.querySelector(".cw-tag-bot")).not.toBeNull();
    }
    expect($('.cw-seat[data-seat="3"]').classList.contains("cw-owner")).toBe(true);
  });

  it("shows the Storage as eight value columns, and the play to beat with its owner", () => {
    mount("respond");
    expect($$(".cw-storage .cw-storage-col")).toHaveLength(8);
    expect($$(".cw-storage [data-card]").map((c) => Number(c.dataset.card))).toEqual(view().storage);
    expect($(".cw-set-limit").textContent).toBe(String(view().set_limit));
    expect($(".cw-run-limit").textContent).toBe(String(view().run_limit));
    expect($$(".cw-standing [data-card]").map((c) => Number(c.dataset.card))).toEqual(view().standing.cards);
    expect($(".cw-standing").textContent).toContain("D's play");
    expect($(".cw-standing").textContent).toContain("1 card");
    expect($(".cw-deck-count").textContent).toBe(String(view().deck_count));
  });

  it("badges the last move from view.last_action, and none when the engine cleared it", () => {
    mount("respond");
    expect($('.cw-seat[data-seat="3"] .cw-bubble').textContent).toBe("played 5");
    expect($$(".cw-bubble")).toHaveLength(1);
    model.set("view", { ...view(), last_action: null });
    expect($$(".cw-bubble")).toHaveLength(0);
  });

  it("says how many cards a pass took: the 4, not the 4s", () => {
    mount("past_bot");
    expect($('.cw-seat[data-seat="2"] .cw-bubble').textContent).toBe("passed: took the 4 and gave a 7");
  });

  it("shows game k of 3, lost points and penalty cards in a match", () => {
    mount("match_game3");
    expect($(".cw-header").textContent).toContain("Game 3 of 3");
    expect($('.cw-seat[data-seat="1"] .cw-lost').textContent).toContain("lost 7");
    expect($$('.cw-seat[data-seat="1"] .cw-lost [data-card]').map((c) => c.dataset.card)).toEqual(["2", "5"]);
    expect($(".cw-player .cw-lost").textContent).toContain("lost 0");
  });
});

describe("the hand and playing", () => {
  it("gives every card data-card, playable ones glowing and the rest dimmed", () => {
    mount("respond");
    expect(handValues()).toEqual(view().hands[0]);
    const playable = handCards().filter((c) => c.classList.contains("cw-playable")).map((c) => c.dataset.card);
    expect(playable).toEqual(["3", "4", "5", "6", "6", "8", "8", "8"].filter((v) => ["3", "4", "5", "6", "8"].includes(v)));
  });

  it("plays a selection with Play, values ascending whatever the click order", () => {
    mount("respond");
    expect(disabled('[data-control="play"]')).toBe(true);
    clickHand(2); // 5
    clickHand(1); // 4
    const play = $('[data-control="play"]');
    expect(play.dataset.action).toBe("play 4 5");
    expect($(".cw-hint").textContent).toBe("Ready: play 4 5.");
    play.click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 4 5" }]);
  });

  it("sends an illegal selection too, so Python can explain the refusal", () => {
    mount("respond");
    clickHand(0); // 3 does not beat 5
    const play = $('[data-control="play"]');
    expect(play.classList.contains("cw-btn-warn")).toBe(true);
    play.click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 3" }]);
  });

  it("says why a selection is refused, from Python's refusals, on one line with its rule chip", () => {
    mount("respond");
    const refusals = model.get("refusals");
    expect(refusals["play 3"]).toMatch(/rule D4\.7/);
    clickHand(0);
    const hint = $(".cw-hint");
    expect(hint.textContent).toBe(refusals["play 3"]);
    expect(hint.getAttribute("title")).toBe(refusals["play 3"]);
    expect(hint.classList.contains("cw-hint-line")).toBe(true);
    expect(hint.querySelector('.cw-rule[data-rule="D4.7"]')).not.toBeNull();
    unmount();
    // a card in no legal play is dimmed, with Python's reason as its tooltip
    mount("pass_only");
    const why = model.get("refusals")["play 5"];
    expect(why).toMatch(/rule D4\.7/);
    expect(handCards()[0].classList.contains("cw-dimmed")).toBe(true);
    expect(handCards()[0].getAttribute("title")).toBe(why);
    unmount();
    mount("respond", { refusals: {} });
    clickHand(0);
    expect($(".cw-hint").textContent).toContain("play 3 is not a legal play now");
  });

  it("legal-move chips SELECT their cards; Play then plays (one click never plays)", () => {
    mount("respond");
    const chip = $('.cw-legal [data-move="play 4 5 6"]');
    chip.click();
    expect(model.send).not.toHaveBeenCalled();
    expect(handCards().filter((c) => c.classList.contains("cw-selected")).map((c) => c.dataset.card)).toEqual(["4", "5", "6"]);
    expect($('.cw-legal [data-move="play 4 5 6"]').classList.contains("cw-move-selected")).toBe(true);
    expect($('.cw-legal [data-move="play 4 5 6"]').getAttribute("aria-pressed")).toBe("true");
    expect($('[data-control="play"]').dataset.action).toBe("play 4 5 6");
    $('[data-control="play"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 4 5 6" }]);
  });

  it("a second click on the selected chip clears the selection; another chip replaces it", () => {
    mount("respond");
    $('.cw-legal [data-move="play 8"]').click();
    expect($$(".cw-hand .cw-selected")).toHaveLength(1);
    $('.cw-legal [data-move="play 3 4"]').click();
    expect($('[data-control="play"]').dataset.action).toBe("play 3 4");
    $('.cw-legal [data-move="play 3 4"]').click();
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
    expect(model.send).not.toHaveBeenCalled();
  });

  it("summarises the passes after the plays, and never 'or pass' with no plays", () => {
    mount("respond");
    expect($(".cw-legal").textContent).toContain("or pass: take the 4, 5, 6 or 8, and give a card if you like");
    unmount();
    mount("pass_only");
    expect($$('.cw-legal [data-move^="play"]')).toHaveLength(0);
    const text = $(".cw-legal").textContent;
    expect(text).toContain("Pass: take the");
    expect(text).not.toContain("or pass");
    expect($(".cw-hint").textContent).toContain("you pass");
  });

  it("disables Pass for the leader, citing rule D5.3", () => {
    mount("start");
    expect(disabled('[data-control="pass"]')).toBe(true);
    expect($('[data-control="pass"]').getAttribute("title")).toBe("the leader must play (rule D5.3)");
  });
});

describe("passing", () => {
  it("takes a Storage value and gives a card", () => {
    mount("respond");
    expect($('[data-control^="take-"]')).toBeNull();
    $('[data-control="pass"]').click();
    expect($$('[data-control^="take-"]').map((b) => b.dataset.control)).toEqual(["take-4", "take-5", "take-6", "take-8"]);
    expect($('[data-control="confirm-pass"]').hasAttribute("data-action")).toBe(false);
    $('[data-control="take-5"]').click();
    expect($('[data-control="take-5"]').classList.contains("cw-chosen")).toBe(true);
    expect($(".cw-hint").textContent).toContain("Taking the 5");
    expect($(".cw-hint").textContent).not.toContain("5s");
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 5");
    clickHand(0); // the 3
    expect($('[data-control="confirm-pass"]').dataset.action).toBe("pass take 5 give 3");
    $('[data-control="confirm-pass"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "pass take 5 give 3" }]);
  });

  it("says 'both 8s' when two cards of a value are taken", () => {
    mount("respond", { view: { ...scenario("depot", "respond").view, storage: [4, 5, 8, 8] } });
    $('[data-control="pass"]').click();
    expect($('[data-control="take-8"]').getAttribute("title")).toBe("Take both 8s from the Storage");
  });

  it("Cancel and Escape leave the pass flow without sending anything", () => {
    mount("respond");
    $('[data-control="pass"]').click();
    $('[data-control="take-6"]').click();
    $('[data-control="cancel"]').click();
    expect($('[data-control="confirm-pass"]')).toBeNull();
    $('[data-control="pass"]').click();
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect($('[data-control="confirm-pass"]')).toBeNull();
    clickHand(1);
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
    expect(model.send).not.toHaveBeenCalled();
  });
});

describe("a bot's turn", () => {
  it("disables the controls and names who is thinking", () => {
    mount("thinking");
    expect($(".cw-turn").textContent).toBe("B is thinking");
    expect($(".cw-turn").dataset.turn).toBe("thinking");
    expect($('.cw-seat[data-seat="1"] .cw-thinking').getAttribute("title")).toBe("B is thinking");
    expect(disabled('[data-control="play"]')).toBe(true);
    expect(disabled('[data-control="pass"]')).toBe(true);
    expect(handCards().every((c) => c.tagName === "DIV")).toBe(true); // not clickable
    expect($(".cw-legal").textContent).toContain("none: B is thinking");
    expect($(".cw-player").classList.contains("cw-player-waiting")).toBe(true);
  });

  it("keeps controls disabled on a bot's turn even if legal is not empty", () => {
    const s = scenario("depot", "respond");
    mount("respond", { view: { ...s.view, current: 1 }, thinking: true });
    expect(disabled('[data-control="play"]')).toBe(true);
    expect($$(".cw-legal [data-move]").every((b) => b.hasAttribute("disabled"))).toBe(true);
  });
});

describe("the past", () => {
  it("scrubbed back to a bot's move: the banner, and never 'waiting for' forever", () => {
    mount("past_bot");
    const banner = $(".cw-past");
    expect(banner.textContent).toContain(`Paused in the past: move ${model.get("cursor")} of ${model.get("history_len")}`);
    expect(banner.textContent).toContain("D is played by the computer, which waits while you look back");
    expect($(".cw-table").textContent).not.toMatch(/waiting for/i);
    expect($(".cw-turn").textContent).toBe("D (computer) plays here");
    $('.cw-past [data-control="latest"]').click();
    expect(model.sent()).toEqual([{ type: "goto", index: model.get("history_len") }]);
  });

  it("scrubbed back to the viewer's move: acting there starts a new line", () => {
    mount("past_own");
    expect($(".cw-past").textContent).toContain("Playing a move here starts a new line of play");
    $('.cw-legal [data-move="play 3 4"]').click();
    $('[data-control="play"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 3 4" }]);
  });

  it("has no banner at the latest position", () => {
    mount("respond");
    expect($(".cw-past")).toBeNull();
  });

  it("lists the lines of play and switches with a message", () => {
    mount("branch");
    const lines = $$('[data-control="branch"]');
    expect(lines.map((b) => b.dataset.branch)).toEqual(["main", "branch-1"]);
    expect($('[data-branch="branch-1"]').getAttribute("aria-pressed")).toBe("true");
    $('[data-branch="main"]').click();
    expect(model.sent()).toEqual([{ type: "switch", branch: "main" }]);
  });
});

describe("the end of a game in a match: the hold panel", () => {
  it("shows the ranking, the penalty cards and the lost points until Continue", () => {
    mount("hold");
    expect(Object.keys(model.get("hold")).sort()).toEqual(["kind", "text"]);  // details come from the view
    const r = view().results[view().results.length - 1];
    const panel = $(".cw-hold");
    expect(panel.dataset.kind).toBe("scoring");
    expect(panel.textContent).toContain(`Game ${r.game} of 3 is over`);
    const rows = $$(".cw-hold tbody tr");
    expect(rows.map((row) => Number(row.dataset.seat))).toEqual(r.ranking);
    expect(rows[0].textContent).toContain("1st");
    expect(rows[0].textContent).toContain("none (went out)");
    for (const row of rows.slice(1)) {
      const s = Number(row.dataset.seat);
      expect(row.querySelector("[data-card]").dataset.card).toBe(String(r.taken[s]));
      expect(row.lastElementChild.textContent).toBe(`${r.lost_points[s]} (+${r.taken[s]})`);
    }
    expect($(".cw-turn").textContent).toBe("Paused");
    expect($(".cw-legal").textContent).toContain("until you press Continue");
    $('[data-control="continue"]').click();
    expect(model.sent()).toEqual([{ type: "continue" }]);
    model.set("hold", null);
    expect($(".cw-hold")).toBeNull();
  });

  it("hides the hold panel while looking at the past", () => {
    mount("hold", { cursor: 3 });
    expect($(".cw-hold")).toBeNull();
    expect($(".cw-past")).not.toBeNull();
  });
});

describe("game over", () => {
  it("a single game: winner, cards left and the reason with its rule chip", () => {
    mount("finished");
    const panel = $(".cw-outcome");
    expect(panel.textContent).toContain("D wins");
    expect($$(".cw-outcome thead th").map((t) => t.textContent)).toEqual(["Player", "Cards left"]);
    expect($$(".cw-outcome tbody tr").map((r) => r.dataset.seat)).toEqual(["3", "1", "2", "0"]);
    expect(panel.querySelector(".cw-rule").dataset.rule).toBe("D8.1");
    expect($(".cw-controls")).toBeNull();
    expect($(".cw-turn").textContent).toBe("Game over");
    $('[data-control="hide-outcome"]').click();
    expect($(".cw-outcome")).toBeNull();
    $('[data-control="show-outcome"]').click();
    expect($(".cw-outcome")).not.toBeNull();
  });

  it("a match: every game's penalty card and the lost points", () => {
    mount("match_over");
    const panel = $(".cw-outcome");
    expect(panel.textContent).toContain("A (you) wins the match!");
    expect($$(".cw-outcome thead th").map((t) => t.textContent)).toEqual(["Player", "Game 1", "Game 2", "Game 3", "Lost points"]);
    const first = $(".cw-outcome tbody tr");
    expect(first.dataset.seat).toBe("0");
    expect(first.lastElementChild.textContent).toBe("4");
  });
});

describe("teacher view", () => {
  it("shows every hand face up and acts for the player to move", () => {
    mount("teacher");
    const v = view();
    for (let i = 0; i < v.players; i++) {
      expect($$(`.cw-seats .cw-seat[data-seat="${i}"] [data-card]`).map((c) => Number(c.dataset.card))).toEqual(v.hands[i]);
    }
    expect(handValues()).toEqual(v.hands[v.current]);
    expect($(".cw-header").textContent).toContain("Teacher view");
    expect($(".cw-player").textContent).toContain(`acting for ${v.names[v.current]}`);
    $('.cw-legal [data-move="play 8 8"]').click();
    $('[data-control="play"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "play 8 8" }]);
  });
});

describe("errors and rule chips", () => {
  it("shows the refusal under the player's area, with its rule", () => {
    mount("refused");
    const box = $(".cw-error");
    expect(box.textContent).toContain(model.get("last_error").replace("Illegal: rule D4.7", "").slice(0, 20));
    expect(box.parentElement.classList.contains("cw-error-slot")).toBe(true);
    expect(box.querySelector('.cw-rule[data-rule="D4.7"]')).not.toBeNull();
    $('[data-control="clear-error"]').click();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
  });

  it("explains a rule chip from the rules trait: tooltip on hover, the rule's text on click", () => {
    mount("refused");
    const rules = model.get("rules");
    const chip = $('.cw-error .cw-rule[data-rule="D4.7"]');
    expect(chip.getAttribute("title")).toContain(rules["D4.7"].title);
    chip.click();
    const card = $(".cw-rule-card");
    expect(card.dataset.rule).toBe("D4.7");
    expect(card.textContent).toContain(rules["D4.7"].title);
    expect(model.send).not.toHaveBeenCalled();
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect($(".cw-rule-card")).toBeNull();
  });

  it("every rule ID in the narration is a chip the rules explain", () => {
    mount("match_game3");
    const chips = $$(".cw-log .cw-rule");
    expect(chips.length).toBeGreaterThan(5);
    expect(chips.filter((c) => c.classList.contains("cw-rule-unknown"))).toEqual([]);
  });
});

describe("notation and words", () => {
  it("parses and writes notation", () => {
    expect(parseAction("play 3 4 5")).toMatchObject({ kind: "play", cards: [3, 4, 5] });
    expect(parseAction("pass take 3 give 7")).toMatchObject({ kind: "pass", take: 3, give: 7 });
    expect(parseAction("pass give 5")).toMatchObject({ kind: "pass", take: null, give: 5 });
    expect(parseAction("pass")).toMatchObject({ kind: "pass", take: null, give: null });
    expect(parseAction("dance")).toBeNull();
    expect(playNotation([5, 3, 4])).toBe("play 3 4 5");
    expect(passNotation(5, 3)).toBe("pass take 5 give 3");
    expect(passNotation(null, null)).toBe("pass");
    expect(layout.parse).toBe(parseAction);
  });

  it("says taken cards as a person would", () => {
    expect(takenWords(2, 1)).toBe("the 2");
    expect(takenWords(5, 2)).toBe("both 5s");
    expect(takenWords(3, 3)).toBe("all three 3s");
    expect(describeAction("play 5 5")).toBe("played 5 5");
    expect(describeAction("pass")).toBe("passed");
    expect(describeAction("pass give 8")).toBe("passed: gave an 8");
    expect(passSummary([{ take: 2, give: null }, { take: 4, give: 1 }], true)).toBe("or pass: take the 2 or 4, and give a card if you like");
    expect(passSummary([{ take: null, give: null }], false)).toBe("Pass (the Storage is empty)");
  });
});

describe("the widget's life", () => {
  it("subscribes to every synced trait it draws from", () => {
    mount("respond");
    for (const t of ["view", "legal", "narration", "cursor", "history_len", "last_error", "thinking", "bot_seats", "branch", "branches", "hold", "refusals", "rules"]) {
      expect(model.handlers[`change:${t}`], t).toHaveLength(1);
      expect(TRAITS).toContain(t);
    }
  });

  it("keeps the selection across a redraw of the same position, and drops it on a new one", () => {
    mount("respond");
    clickHand(3);
    model.set("last_error", "Illegal: rule D4.7 — too weak.");
    expect($$(".cw-hand .cw-selected")).toHaveLength(1);
    model.set("cursor", 3);
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
  });

  it("keeps keys inside the table", () => {
    mount("respond");
    const outside = vi.fn();
    document.addEventListener("keydown", outside);
    el.addEventListener("keyup", outside);
    for (const type of ["keydown", "keyup", "keypress"]) {
      $('[data-control="pass"]').dispatchEvent(new KeyboardEvent(type, { key: "a", bubbles: true }));
    }
    expect(outside).not.toHaveBeenCalled();
    document.removeEventListener("keydown", outside);
  });

  it("never writes a trait: it only sends messages", () => {
    mount("respond");
    const set = vi.spyOn(model, "set");
    $('.cw-legal [data-move="play 8"]').click();
    $('[data-control="play"]').click();
    $('[data-control="first"]').click();
    model.idle();  // Python answered the move: the next one may go
    $('[data-control="undo"]').click();
    expect(set).not.toHaveBeenCalled();
    expect(model.save_changes).not.toHaveBeenCalled();
    expect(model.sent().map((m) => m.type)).toEqual(["act", "goto", "undo"]);
  });

  it("cleanup removes the DOM and every listener", () => {
    mount("respond");
    unmount();
    expect(el.children).toHaveLength(0);
    expect(model.listenerCount()).toBe(0);
  });

  it("waits politely before the first view arrives", () => {
    mount("respond", { view: {} });
    expect($(".cw-table").textContent).toContain("Waiting for the game");
    model.set("view", scenario("depot", "respond").view);
    expect(handCards().length).toBeGreaterThan(0);
  });
});
