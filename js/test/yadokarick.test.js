// @vitest-environment happy-dom
// The Yadokarick layouts (trick modes, duo, solo) in the shared frame, driven by positions the
// Python engine made (fixtures/yadokarick.json, written by tests/test_js_fixtures.py).
import { describe, it, expect } from "vitest";
import { parseAction, playNotation, placeNotation, arrangeNotation, cardParts, describeAction, layout } from "../src/yadokarick/index.js";
import { scenario as fixtureScenario, scenarioNames } from "./fixtures.js";
import { model, mountScenario, unmount, useTable, $, $$, view, cardsIn } from "./helpers.js";

const scenario = (name, over = {}) => fixtureScenario("yadokarick", name, over);
const NAMES = scenarioNames("yadokarick");

/** @param {string} name @param {Record<string, any>} [over] */
const mount = (name, over = {}) => mountScenario("yadokarick", name, over);
const key = (k) => $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));

/**
 * Every card the view lets the viewer see: the table may draw these and no other.
 * @param {Record<string, any>} v
 */
function visibleCards(v) {
  const out = new Set();
  const add = (xs) => { for (const c of xs || []) if (c) out.add(c); };
  if (v.mode === "solo") {
    add(v.row);
    for (const s of v.crabs) add(s);
    add(v.score_pile);
    add(v.penalty_pile);
    return out;
  }
  for (const hand of v.hands) if (Array.isArray(hand)) add(hand);
  for (const h of v.houses) add(h);
  for (const c of v.collapsed) if (Array.isArray(c)) add(c);
  add(v.discard);
  add(v.trick.map((t) => t.card));
  add(v.last_trick?.cards.map((t) => t.card));
  add(v.arrange?.cards);
  return out;
}

useTable();

// ------------------------------------------------------------------ every position
describe("every engine position draws", () => {
  it.each(NAMES)("%s: the table, its hooks, and only what the viewer may see", (name) => {
    mount(name);
    const v = view();
    expect($(".cw-table").dataset.game).toBe("yadokarick");
    expect($(".cw-render-error")).toBeNull();
    expect($(".cw-yk").dataset.mode).toBe(v.mode);
    expect($(".cw-table").textContent).not.toMatch(/null|undefined|NaN|\[object|card\(s\)|\b1 cards\b/);
    // every face-up card carries its notation; backs carry none
    for (const c of $$(".cw-card:not(.cw-card-back)")) expect(c.dataset.card).toMatch(/^[GP]\d{1,2}$/);
    for (const c of $$(".cw-card-back")) expect(c.hasAttribute("data-card")).toBe(false);
    // nothing hidden: no other hand, no NPC deck, no solo deck, no set-aside card
    const visible = visibleCards(v);
    const drawn = $$("[data-card]").map((c) => c.dataset.card);
    expect(drawn.filter((c) => !visible.has(c))).toEqual([]);
    // every control that sends an action names a legal one
    for (const a of $$("[data-action]")) expect(model.get("legal")).toContain(a.dataset.action);
  });

  it.each(NAMES)("%s: a crab for every place at the table", (name) => {
    mount(name);
    const v = view();
    const crabs = $$(".cw-crab");
    if (v.mode === "solo") {
      expect(crabs.map((c) => c.dataset.crab)).toEqual(["A", "B", "C", "D"]);
      expect(crabs.map((c) => cardsIn(`.cw-crab[data-crab="${c.dataset.crab}"] .cw-stack`))).toEqual(v.crabs);
    } else {
      expect(crabs).toHaveLength(v.mode === "duo" ? 3 : v.players);
      // each house bottom to top, exactly as the view lists it
      for (const c of crabs) {
        const who = c.dataset.who === "npc" ? 2 : Number(c.dataset.who);
        expect(cardsIn(`.cw-crab[data-who="${c.dataset.who}"] .cw-stack`)).toEqual(v.houses[who]);
        expect(c.querySelector(".cw-hsize b").textContent).toBe(String(v.house_sizes[who]));
      }
    }
  });
});

// ------------------------------------------------------------------ notation
describe("notation", () => {
  it("reads every canonical action and refuses other text", () => {
    expect(parseAction("play G25")).toEqual({ kind: "play", card: "G25" });
    expect(parseAction("move left")).toEqual({ kind: "move", dir: "left" });
    expect(parseAction("arrange G14,G18,G30")).toEqual({ kind: "arrange", cards: ["G14", "G18", "G30"] });
    expect(parseAction("place G17 B")).toEqual({ kind: "place", card: "G17", crab: "B" });
    expect(parseAction("giveup C")).toEqual({ kind: "giveup", crab: "C" });
    expect(parseAction("draw pink")).toEqual({ kind: "draw", colour: "pink" });
    expect(parseAction("row green")).toEqual({ kind: "row", colour: "green" });
    expect(parseAction("take P19")).toEqual({ kind: "take", card: "P19" });
    expect(parseAction("decline")).toEqual({ kind: "decline" });
    for (const bad of ["", "play", "play X3", "move up", "place G17", "G17>B", "giveup E", "draw blue", "pass"]) {
      expect(parseAction(bad)).toBeNull();
    }
    expect(playNotation("P8")).toBe("play P8");
    expect(placeNotation("G17", "B")).toBe("place G17 B");
    expect(arrangeNotation(["G26", "G10"])).toBe("arrange G26,G10");
    expect(cardParts("P36")).toEqual({ colour: "pink", letter: "P", number: 36 });
  });

  it("parses every legal action of every position", () => {
    for (const name of NAMES) {
      for (const a of scenario(name).legal) expect(parseAction(a), `${name}: ${a}`).not.toBeNull();
    }
  });

  it("says a last action in words", () => {
    expect(describeAction("play G25")).toBe("played G25");
    expect(describeAction("move stay")).toBe("left the marker");
    expect(describeAction("move right")).toBe("moved the marker right");
    expect(describeAction("place G17 B")).toBe("placed G17 on B");
    expect(describeAction("giveup A")).toBe("gave up crab A");
    expect(describeAction("decline")).toBe("declined the bonus");
  });
});

// ------------------------------------------------------------------ standard
describe("standard: playing a trick", () => {
  it("plays a card in one click; every card carries its action, size and colour", () => {
    mount("play");
    const v = view();
    expect(cardsIn(".cw-hand")).toEqual(v.hands[0]);
    for (const c of $$(".cw-hand [data-card]")) {
      expect(c.dataset.action).toBe(`play ${c.dataset.card}`);
      expect(c.classList.contains("cw-playable")).toBe(true);
      expect(c.dataset.size).toBe(String(v.sizes[c.dataset.card]));
      expect(c.dataset.tone).toBe(c.dataset.card[0]);
    }
    const card = $$(".cw-hand [data-card]")[2];
    card.click();
    expect(model.sent()).toEqual([{ type: "act", action: `play ${card.dataset.card}` }]);
    expect($(".cw-turn").textContent).toBe("Your turn");
  });

  it("shows the trick in play order with who played each card, and the seat to play next", () => {
    mount("play");
    const v = view();
    const slots = $$(".cw-trick-slot");
    expect(slots).toHaveLength(v.players);
    expect(slots[0].dataset.who).toBe(String(v.leader));
    expect(cardsIn(".cw-trick")).toEqual(v.trick.map((t) => t.card));
    v.trick.forEach((t, i) => expect(slots[i].dataset.who).toBe(String(t.seat)));
    const now = $(".cw-slot-now");
    expect(now.dataset.who).toBe("0");
    expect(now.querySelector(".cw-slot-name").textContent).toBe("A (you)");
    // the last trick: each card and where it went
    expect(cardsIn(".cw-last-trick")).toEqual(v.last_trick.cards.map((t) => t.card));
  });

  it("shows the size track with the marker on the target, and the chips", () => {
    mount("play");
    const v = view();
    const cells = $$(".cw-track-cell");
    expect(cells).toHaveLength(21);
    expect($(".cw-marker-here").dataset.value).toBe(String(v.marker));
    expect($(".cw-chip-target b").textContent).toBe(String(v.marker));
    expect($(".cw-header").textContent).toContain(`Round ${v.round} of ${v.rounds}`);
    expect($(".cw-header").textContent).toContain(`Trick ${v.trick_no} of 10`);
    expect($$(".cw-track button")).toHaveLength(0); // no marker step now
  });

  it("hides the other hands: counts only", () => {
    mount("play");
    const v = view();
    for (const s of [1, 2, 3]) {
      const crab = $(`.cw-crab[data-who="${s}"]`);
      expect(crab.querySelector(".cw-seat-hand")).toBeNull();
      expect(crab.querySelector(".cw-hand-count").textContent).toContain(String(v.hand_counts[s]));
    }
  });

  it("shows a collapse (face down, with F) and a roofed house", () => {
    mount("collapse_roof");
    const v = view();
    const a = $('.cw-crab[data-who="0"]');
    expect(a.querySelectorAll(".cw-collapsed .cw-card-back").length).toBe(Math.min(3, v.collapsed_counts[0]));
    expect(a.querySelector(".cw-fsize").textContent).toBe(`F${v.collapsed_sizes[0]}`);
    expect(a.querySelector(".cw-collapsed").getAttribute("title")).toContain(v.collapsed[0].join(", "));
    expect(a.querySelectorAll(".cw-stack [data-card]")).toHaveLength(6);
    const d = $('.cw-crab[data-who="3"]');
    expect(d.classList.contains("cw-crab-roofed")).toBe(true);
    expect(d.querySelector(".cw-house-roof")).not.toBeNull();
    expect(a.querySelector(".cw-house-roof")).toBeNull();
    const top = d.querySelector(".cw-stack .cw-top");
    expect(top.dataset.card).toBe(v.houses[3].at(-1));
    expect(top.classList.contains("cw-roof-card")).toBe(true);
  });

  it("marks a house over, on or under the target", () => {
    mount("collapse_roof");
    const v = view();
    for (let s = 0; s < v.players; s++) {
      const h = v.house_sizes[s];
      const want = h < v.marker ? "under" : h === v.marker ? "on" : "over";
      expect($(`.cw-crab[data-who="${s}"] .cw-hsize`).dataset.state).toBe(want);
    }
  });
});

describe("standard: the marker step", () => {
  it("offers left, stay and right; a click sends the move", () => {
    mount("marker");
    const v = view();
    expect($(".cw-turn").textContent).toContain("moving the marker");
    const buttons = $$(".cw-marker-controls [data-action]");
    expect(buttons.map((b) => b.dataset.action)).toEqual(["move left", "move stay", "move right"]);
    expect(buttons.every((b) => !b.disabled)).toBe(true);
    buttons[2].click();
    expect(model.sent()).toEqual([{ type: "act", action: "move right" }]);
    // the track cells one step either side send the move too
    const track = $$(".cw-track button[data-action]");
    expect(track.map((b) => [b.dataset.action, Number(b.dataset.value)])).toEqual([
      ["move left", v.marker - 1], ["move stay", v.marker], ["move right", v.marker + 1]]);
    model.idle();  // Python answered the first move
    track[0].click();
    expect(model.sent().at(-1)).toEqual({ type: "act", action: "move left" });
  });

  it("shows the judged trick with the mover's card and where the cards went", () => {
    mount("marker");
    const v = view();
    expect($(".cw-trick").classList.contains("cw-trick-judged")).toBe(true);
    expect(cardsIn(".cw-trick")).toEqual(v.last_trick.cards.map((t) => t.card));
    expect($(".cw-slot-mover").dataset.who).toBe("0");
    expect($('.cw-crab[data-who="0"] .cw-badge-mover').textContent).toBe("moves the marker");
    for (const w of $$(".cw-trick .cw-went:not(.cw-went-mover)")) expect(w.textContent).toMatch(/^(discard|→ \w+)$/);
  });

  it("dims the hand and says why on hover (the refusals); a click is sent so Python explains", () => {
    mount("marker");
    const refusals = model.get("refusals");
    for (const c of $$(".cw-hand [data-card]")) {
      expect(c.classList.contains("cw-dimmed")).toBe(true);
      expect(c.hasAttribute("data-action")).toBe(false);
      expect(c.getAttribute("title")).toBe(refusals[`play ${c.dataset.card}`]);
      expect(c.getAttribute("title")).toContain("rule Y7.4");
    }
    $(".cw-hand [data-card]").click();
    expect(model.sent()[0].type).toBe("act");
  });

  it("disables a move off the track, with Python's reason", () => {
    mount("marker_end");
    const right = $('.cw-marker-controls [data-control="move-right"]');
    expect(right.disabled).toBe(true);
    expect(right.hasAttribute("data-action")).toBe(false);
    expect(right.getAttribute("title")).toContain("rule Y7.2");
    expect($$(".cw-track button[data-action]").map((b) => b.dataset.action)).toEqual(["move left", "move stay"]);
  });

  it("shows the refusal with its rule chip", () => {
    mount("refused");
    expect($(".cw-error-slot .cw-error .cw-rule").dataset.rule).toBe("Y7.4");
    $('[data-control="clear-error"]').click();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
  });
});

describe("standard: arranging captured cards (placement_order='choose')", () => {
  it("builds the order by clicks, bottom first, then sends it", () => {
    mount("arrange");
    const v = view();
    const place = () => $('[data-control="arrange"]');
    expect(place().disabled).toBe(true);
    expect(place().hasAttribute("data-action")).toBe(false);
    const order = ["G30", "G14", "G18"];
    for (const c of order) $(`[data-control="arrange-pick"][data-card="${c}"]`).click();
    expect($$(".cw-arrange-pos").map((p) => p.textContent)).toEqual(["2nd", "3rd", "1st"]); // shown in capture order
    expect(place().disabled).toBe(false);
    expect(place().dataset.action).toBe("arrange G30,G14,G18");
    place().click();
    expect(model.sent()).toEqual([{ type: "act", action: "arrange G30,G14,G18" }]);
    expect(v.arrange.cards).toEqual(["G14", "G18", "G30"]);
  });

  it("a second click takes a card back; Reset and Escape clear the order", () => {
    mount("arrange");
    const pick = (c) => $(`[data-control="arrange-pick"][data-card="${c}"]`).click();
    pick("G14");
    pick("G18");
    pick("G14");
    expect($$(".cw-arrange .cw-selected").map((c) => c.dataset.card)).toEqual(["G18"]);
    $('[data-control="arrange-reset"]').click();
    expect($$(".cw-arrange .cw-selected")).toHaveLength(0);
    pick("G30");
    key("Escape");
    expect($$(".cw-arrange .cw-selected")).toHaveLength(0);
    expect(model.sent()).toEqual([]);
  });
});

describe("standard: round end, result, waiting", () => {
  it("holds at a round's end with its scores; Continue goes on", () => {
    mount("hold");
    const v = view();
    const r = v.results.at(-1);
    const panel = $(".cw-hold");
    expect(panel.dataset.kind).toBe("round_end");
    expect(panel.textContent).toContain(`Round ${r.round} of ${v.rounds} is over`);
    expect(panel.textContent).toContain(`ended on ${r.target}`);
    for (let s = 0; s < v.players; s++) {
      const cells = [...panel.querySelectorAll(`tr[data-seat="${s}"] td`)].map((td) => td.textContent);
      expect(cells[1]).toBe(String(r.house_sizes[s]));
      // negative numbers with the typographic minus, as the narration writes them
      expect(cells[4]).toBe(String(r.scores[s]).replace("-", "\u2212"));
      expect(cells[5]).toBe(String(v.totals[s]).replace("-", "\u2212"));
    }
    expect($(".cw-turn").textContent).toBe("Paused");
    expect($$(".cw-hand [data-action]")).toHaveLength(0);
    $('[data-control="continue"]').click();
    expect(model.sent()).toEqual([{ type: "continue" }]);
  });

  it("shows the result: every round's score and the totals", () => {
    mount("finished");
    const v = view();
    const heads = $$(".cw-outcome > .cw-scores th").map((t) => t.textContent);
    expect(heads).toEqual(["Player", "R1", "R2", "Total"]);
    const winner = v.outcome.winners[0];
    expect($(".cw-outcome tr.cw-winner-row").dataset.seat).toBe(String(winner));
    expect($(`.cw-outcome > .cw-scores tr[data-seat="${winner}"] td:last-child`).textContent).toBe(String(v.totals[winner]).replace("-", "\u2212"));
    expect($(".cw-turn").textContent).toBe("Game over");
    expect($(".cw-legal")).toBeNull();
  });

  it("disables everything while a bot thinks", () => {
    mount("thinking");
    expect($(".cw-turn").dataset.turn).toBe("thinking");
    expect($$(".cw-hand [data-action]")).toHaveLength(0);
    expect($$(".cw-hand button")).toHaveLength(0);
    expect($(".cw-crab.cw-current").dataset.who).toBe(String(view().current));
  });

  it("teacher view: every hand face up, acting for the seat to play", () => {
    mount("teacher");
    const v = view();
    expect($(".cw-chip-teacher")).not.toBeNull();
    expect(cardsIn(".cw-hand")).toEqual(v.hands[v.current]);
    for (let s = 0; s < v.players; s++) expect(cardsIn(`.cw-crab[data-who="${s}"] .cw-seat-hand`)).toEqual(v.hands[s]);
    expect($(".cw-player").textContent).toContain(`acting for ${v.names[v.current]}`);
  });

  it("advanced card set, 3 players, and 7 players draw their crabs and chips", () => {
    mount("advanced3");
    expect($(".cw-header").textContent).toContain("Advanced cards");
    expect($$(".cw-crab")).toHaveLength(3);
    unmount();
    mount("seven");
    expect($$(".cw-crab")).toHaveLength(7);
    expect($(".cw-trick").classList.contains("cw-trick-small")).toBe(true);
  });
});

// ------------------------------------------------------------------ duo
describe("duo", () => {
  it("seats the NPC in its table position with its house, deck count and target", () => {
    mount("duo_start");
    const v = view();
    expect($$(".cw-crab").map((c) => c.dataset.who)).toEqual(v.order.map((w) => (w === "NPC" ? "npc" : String(v.names.indexOf(w)))));
    const npc = $('.cw-crab[data-who="npc"]');
    expect(npc.classList.contains("cw-npc")).toBe(true);
    expect(npc.querySelector(".cw-npc-deck-count").textContent).toBe(String(v.npc_deck_count));
    expect(npc.querySelector(".cw-hsize").dataset.state).toBe("target");
    expect($(".cw-chip-target b").textContent).toBe(String(v.target));
    expect($(".cw-track")).toBeNull(); // no size track in duo
    expect($(".cw-duo-target-value").textContent).toBe(String(v.target));
  });

  it("the NPC led: its card is in the trick, and the player plays next", () => {
    mount("duo_npc_lead");
    const v = view();
    const first = $(".cw-trick-slot");
    expect(first.dataset.who).toBe("npc");
    expect(cardsIn(".cw-trick")).toEqual([v.trick[0].card]);
    expect($(".cw-slot-now").dataset.who).toBe("0");
    const c = $(".cw-hand [data-card]");
    c.click();
    expect(model.sent()).toEqual([{ type: "act", action: `play ${c.dataset.card}` }]);
  });

  it("after the NPC's play: both cards are down with who played them", () => {
    mount("duo_after_npc");
    const v = view();
    const slots = $$(".cw-trick-slot");
    expect(slots.map((s) => s.querySelector(".cw-slot-name").textContent.replace(" ▸", ""))).toEqual(["A", "NPC", "B (you)"]);
    expect(cardsIn(".cw-trick")).toEqual(v.trick.map((t) => t.card));
    expect($(".cw-slot-now").dataset.who).toBe("1");
    expect(cardsIn(".cw-hand")).toEqual(v.hands[1]);
    expect($('.cw-crab[data-who="0"] .cw-seat-hand')).toBeNull();
  });

  it("never draws the NPC deck, even in a teacher view", () => {
    const s = scenario("duo_after_npc");
    const teacher = { ...s.view, seat: null, hands: [["G1"], s.view.hands[1]] };
    const seen = visibleCards(teacher);
    const deck = Object.keys(s.view.sizes).filter((c) => !seen.has(c)).slice(0, s.view.npc_deck_count);
    expect(deck.length).toBe(s.view.npc_deck_count);
    mount("duo_after_npc", { view: { ...teacher, npc_deck: deck } });
    expect($(".cw-chip-teacher")).not.toBeNull();
    for (const c of deck) expect($(`[data-card="${c}"]`)).toBeNull();
  });

  it("shows the result against the NPC's house", () => {
    mount("duo_finished");
    const v = view();
    expect($$(".cw-outcome th").map((t) => t.textContent)).toEqual(["Player", "House", "vs target"]);
    expect($(".cw-outcome-target b").textContent).toBe(String(v.target));
    expect($(".cw-outcome .cw-overlay-head").textContent).toContain(v.outcome.winners.length === 2 ? "A draw" : "wins");
  });
});

// ------------------------------------------------------------------ solo
describe("solo: placing is two clicks, a row card then a crab", () => {
  it("selects a row card; the crabs that take it glow with the action; a click sends it", () => {
    mount("solo_turn");
    const legal = model.get("legal");
    const place = legal.find((a) => a.startsWith("place"));
    const [, card, crab] = place.split(" ");
    expect($$(".cw-crab[data-action]")).toHaveLength(0);
    const rowCard = $(`.cw-row [data-card="${card}"]`);
    expect(rowCard.dataset.control).toBe("select");
    rowCard.click();
    expect(model.sent()).toEqual([]); // selecting is local
    expect($(`.cw-row [data-card="${card}"]`).classList.contains("cw-selected")).toBe(true);
    const targets = $$(".cw-crab.cw-targetable").map((c) => c.dataset.crab);
    expect(targets).toEqual(legal.filter((a) => a.startsWith(`place ${card} `)).map((a) => a.split(" ")[2]));
    const target = $(`.cw-crab[data-crab="${crab}"]`);
    expect(target.dataset.action).toBe(place);
    target.click();
    expect(model.sent()).toEqual([{ type: "act", action: place }]);
  });

  it("a crab that does not take the card says why on hover; a click asks Python anyway", () => {
    mount("solo_turn");
    const refusals = model.get("refusals");
    const bad = Object.keys(refusals).find((a) => a.startsWith("place"));
    const [, card, crab] = bad.split(" ");
    $(`.cw-row [data-card="${card}"]`).click();
    const target = $(`.cw-crab[data-crab="${crab}"]`);
    expect(target.classList.contains("cw-refused")).toBe(true);
    expect(target.hasAttribute("data-action")).toBe(false);
    expect(target.getAttribute("title")).toBe(refusals[bad]);
    target.click();
    expect(model.sent()).toEqual([{ type: "act", action: bad }]);
  });

  it("Cancel, a second click and Escape drop the selection", () => {
    mount("solo_turn");
    const card = () => $(".cw-row [data-card]");
    card().click();
    expect($(".cw-aiming")).not.toBeNull();
    $('[data-control="cancel"]').click();
    expect($(".cw-aiming")).toBeNull();
    card().click();
    card().click();
    expect($(".cw-aiming")).toBeNull();
    card().click();
    key("Escape");
    expect($(".cw-aiming")).toBeNull();
    expect(model.sent()).toEqual([]);
  });

  it("shows each crab's colour rule, its count, and gives up a crab in one click", () => {
    mount("solo_turn");
    const v = view();
    const legal = model.get("legal");
    expect($$(".cw-crab .cw-seat-name").map((n) => n.textContent)).toEqual(["green", "alternate", "alternate", "pink"]);
    ["A", "B", "C", "D"].forEach((k, i) => {
      expect($(`.cw-crab[data-crab="${k}"] .cw-crab-count`).textContent).toBe(`${v.crabs[i].length}/7`);
      const button = $(`.cw-crab[data-crab="${k}"] [data-action="giveup ${k}"]`);
      expect(!!button).toBe(legal.includes(`giveup ${k}`));
    });
    const giveup = $(".cw-giveup");
    giveup.click();
    expect(model.sent()).toEqual([{ type: "act", action: giveup.dataset.action }]);
  });

  it("shows the refusal of a placement with its rule chip", () => {
    mount("solo_refused");
    expect($(".cw-error .cw-rule").dataset.rule).toMatch(/^Y14\./);
  });

  it("marks a crab in roof mode and keeps the penalty pile face down", () => {
    mount("solo_roof");
    const v = view();
    const k = v.roof_mode.indexOf(true);
    const crab = $(`.cw-crab[data-crab="${"ABCD"[k]}"]`);
    expect(crab.classList.contains("cw-roof-mode")).toBe(true);
    expect(crab.querySelector(".cw-badge-roof").textContent).toBe("roof mode");
    expect(crab.querySelector(".cw-crab-ref").textContent).toContain("under");
    expect(crab.querySelector(".cw-crab-ref [data-card]").dataset.card).toBe(v.crabs[k][0]); // the bottom card
    expect($$(".cw-penalty-pile [data-card]")).toHaveLength(0);
    expect($(".cw-penalty-pile .cw-penalty").textContent).toBe(`−${v.penalty}`);
    expect($(".cw-score-pile .cw-points").textContent).toBe(`+${v.points}`);
    expect($(".cw-solo-score").textContent).toBe(String(v.score));
  });

  it("forced to give up: only give-ups are offered", () => {
    mount("solo_forced");
    expect($$("[data-action]").every((a) => a.dataset.action.startsWith("giveup"))).toBe(true);
    expect($(".cw-controls").textContent).toContain("must give up");
    expect($$(".cw-row .cw-dimmed")).toHaveLength(5);
  });
});

describe("solo: drawing and the bonus", () => {
  it("lays out the first row: each deck is a button; the counts show", () => {
    mount("solo_setup");
    const v = view();
    expect($(".cw-turn").textContent).toContain("lay out the first row");
    expect(cardsIn(".cw-row")).toEqual(v.row);
    const green = $('.cw-deck[data-deck="green"]');
    expect(green.tagName).toBe("BUTTON");
    expect(green.dataset.action).toBe("draw green");
    expect(green.querySelector(".cw-deck-count").textContent).toBe(String(v.deck_counts[0]));
    expect($('.cw-deck[data-deck="pink"] .cw-deck-count').textContent).toBe(String(v.deck_counts[1]));
    green.click();
    model.idle();
    $('.cw-controls [data-action="draw pink"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "draw green" }, { type: "act", action: "draw pink" }]);
    expect($$(".cw-row button")).toHaveLength(0);
  });

  it("refills after a placement", () => {
    mount("solo_refill");
    expect($(".cw-turn").textContent).toContain("refill");
    expect($$(".cw-deck[data-action]").map((d) => d.dataset.action)).toEqual(["draw green", "draw pink"]);
    expect($$(".cw-crab[data-action], .cw-giveup")).toHaveLength(0);
  });

  it("offers the bonus: take a card of the group (row card or button) or decline", () => {
    mount("solo_bonus");
    const v = view();
    expect($$(".cw-row [data-action]").map((c) => c.dataset.card)).toEqual(v.row.filter((c) => v.bonus.includes(c)));
    const takes = $$(".cw-controls [data-action]").map((b) => b.dataset.action);
    expect(takes).toEqual([...v.row.filter((c) => v.bonus.includes(c)).map((c) => `take ${c}`), "decline"]);
    $(`.cw-row [data-card="${v.bonus[0]}"]`).click();
    model.idle();
    $('.cw-controls [data-action="decline"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: `take ${v.bonus[0]}` }, { type: "act", action: "decline" }]);
  });
});

describe("solo: the hint", () => {
  it("shows the engine's suggestion and reason; highlights it; Play it sends it", () => {
    mount("solo_turn");
    const { action, reason } = view().hint;
    expect($(".cw-hint-box")).toBeNull();
    $('[data-control="hint"]').click();
    expect(model.sent()).toEqual([]);
    expect($(".cw-hint-action").textContent).toBe(action);
    expect($(".cw-hint-reason").textContent).toBe(reason);
    const p = parseAction(action);
    if (p.kind === "place") {
      expect($(`.cw-row [data-card="${p.card}"]`).classList.contains("cw-hinted")).toBe(true);
      expect($(`.cw-crab[data-crab="${p.crab}"]`).classList.contains("cw-hinted")).toBe(true);
    }
    $('[data-control="play-hint"]').click();
    expect(model.sent()).toEqual([{ type: "act", action }]);
  });

  it("the hint for a draw lights the deck; it hides again", () => {
    mount("solo_setup");
    $('[data-control="hint"]').click();
    const p = parseAction(view().hint.action);
    expect(p.kind).toBe("draw");
    expect($(`.cw-deck[data-deck="${p.colour}"]`).classList.contains("cw-hinted")).toBe(true);
    $('[data-control="hide-hint"]').click();
    expect($(".cw-hint-box")).toBeNull();
  });

  it("no hint once the game is over: the final score", () => {
    mount("solo_finished");
    const v = view();
    expect($('[data-control="hint"]')).toBeNull();
    expect($(".cw-outcome .cw-overlay-head").textContent).toContain(`Final score ${v.outcome.scores[0]}`);
    expect($(".cw-final-score").textContent).toBe(String(v.score));
    expect($(".cw-outcome .cw-player-cell").textContent).toBe("you");
    expect($$("[data-action]")).toHaveLength(0);
  });

  it("never draws the decks, even in a teacher view", () => {
    const s = scenario("solo_turn");
    const seen = visibleCards(s.view);
    const unseen = Object.keys(s.view.sizes).filter((c) => !seen.has(c));
    const decks = { green: unseen.filter((c) => c[0] === "G"), pink: unseen.filter((c) => c[0] === "P") };
    expect(decks.green.length + decks.pink.length).toBe(s.view.deck_counts[0] + s.view.deck_counts[1]);
    mount("solo_turn", { view: { ...s.view, seat: null, decks } });
    for (const c of unseen) expect($(`[data-card="${c}"]`)).toBeNull();
  });
});

describe("the layout object", () => {
  it("is the frame's layout for the game", () => {
    expect(layout.game).toBe("yadokarick");
    expect(layout.parse("play G1")).toEqual({ kind: "play", card: "G1" });
  });

  it("cleans up its listeners", () => {
    mount("play");
    expect(model.listenerCount()).toBeGreaterThan(0);
    unmount();
    expect(model.listenerCount()).toBe(0);
  });
});
