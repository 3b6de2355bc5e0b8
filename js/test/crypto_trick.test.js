// @vitest-environment happy-dom
// The Crypto Trick layout in the shared frame, driven by positions the Python engine made
// (fixtures/crypto_trick.json, written by tests/test_js_fixtures.py).
import { describe, it, expect } from "vitest";
import { parseAction, cardAction, describeAction, ruleOf, cardWords, renderCryptoCard, layout } from "../src/crypto_trick/index.js";
import { scenario as fixtureScenario, scenarioNames } from "./fixtures.js";
import { model, mountScenario, unmount, useTable, $, $$, view, handCards, cardsIn } from "./helpers.js";

const scenario = (name, over = {}) => fixtureScenario("crypto_trick", name, over);
const NAMES = scenarioNames("crypto_trick");

/** @param {string} name @param {Record<string, any>} [over] */
const mount = (name, over = {}) => mountScenario("crypto_trick", name, over);
const hover = (node, type = "mouseenter") => node.dispatchEvent(new Event(type));
/** A number as the table writes it (the typographic minus). */
const num = (text) => Number(String(text).replace("\u2212", "-"));

/**
 * Every card the view lets the viewer see: the table may draw these and no other.
 * @param {Record<string, any>} v
 */
function visibleCards(v) {
  const out = new Set([v.indicator]);
  for (const hand of v.hands) if (Array.isArray(hand)) hand.forEach((c) => out.add(c));
  for (const pile of v.won) if (Array.isArray(pile)) pile.forEach((c) => out.add(c));
  for (const t of v.table) out.add(t.card);
  if (v.offered) out.add(v.offered);
  if (v.hidden_card) out.add(v.hidden_card);
  for (const c of v.last_trick?.cards ?? []) out.add(c.card);
  for (const g of v.gives) if (g.card) out.add(g.card);
  for (const r of v.results) {
    out.add(r.indicator);
    out.add(r.hidden);
    for (const pile of r.won) if (Array.isArray(pile)) pile.forEach((c) => out.add(c));
  }
  return out;
}

useTable();

describe("every engine position draws", () => {
  it.each(NAMES)("%s: the table, its hooks, and no drawing error", (name) => {
    mount(name);
    const root = $(".cw-table");
    expect(root.dataset.game).toBe("crypto_trick");
    expect($(".cw-render-error")).toBeNull();
    expect(root.textContent).not.toMatch(/\bnull\b|undefined|NaN|\[object|\b1 cards\b|\b1 blocks\b/);
    // every seat is drawn: the others on the felt, the viewer in the player area
    const seats = new Set($$(".cw-seat[data-seat]").map((s) => Number(s.dataset.seat)));
    expect(seats.size).toBe(view().players);
  });

  it.each(NAMES)("%s: draws no card the view does not hold", (name) => {
    mount(name);
    const visible = visibleCards(view());
    const drawn = $$("[data-card]").map((c) => c.dataset.card);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.filter((c) => !visible.has(c))).toEqual([]);
  });

  it.each(NAMES)("%s: every control that acts is canonical notation the kernel allows", (name) => {
    mount(name);
    const legal = new Set(model.get("legal"));
    const actions = $$("[data-action]");
    for (const a of actions) {
      expect(parseAction(a.dataset.action)?.text).toBe(a.dataset.action);
      expect(legal.has(a.dataset.action)).toBe(true);
    }
    // and every legal action has a control in the hand or the buttons, besides its chip
    const outside = new Set(actions.filter((a) => !a.closest(".cw-legal")).map((a) => a.dataset.action));
    expect([...legal].filter((a) => !outside.has(a))).toEqual([]);
  });
});

describe("the felt", () => {
  it("shows round, trick, the indicator, the trump colours and the hidden card face down", () => {
    mount("offer");
    expect($('[data-chip="round"]').textContent).toBe(`Round 1 of ${view().rounds}`);
    expect($('[data-chip="trick"]').textContent).toBe("Trick 1 of 6");
    expect(cardsIn(".cw-ct-trumps")).toEqual([view().indicator]);
    expect($$(".cw-ct-trump-colours [data-colour]").map((s) => s.dataset.colour)).toEqual(view().trumps);
    expect($(".cw-ct-trumps .cw-card-back")).not.toBeNull();
    expect($(".cw-ct-trickpanel").textContent).toContain("You open trick 1 with an offer");
  });

  it("marks trumps and block cards on their faces", () => {
    mount("five_public");
    const v = view();
    for (const card of handCards()) {
      const c = card.dataset.card;
      expect(card.classList.contains("cw-ct-trump")).toBe(v.trumps.includes(c[0]));
      expect(card.classList.contains("cw-ct-block")).toBe(v.block_cards.includes(c));
      expect(!!card.querySelector(".cw-ct-mark-trump")).toBe(v.trumps.includes(c[0]));
      expect(!!card.querySelector(".cw-ct-mark-block")).toBe(v.block_cards.includes(c));
      expect(card.dataset.tone).toBe(c[0]);
    }
    expect(handCards().some((c) => c.classList.contains("cw-ct-trump"))).toBe(true);
  });

  it("shows the others' hands as backs with counts, never their cards", () => {
    mount("follow");
    for (const i of [1, 2, 3]) {
      const seat = $(`.cw-seats .cw-seat[data-seat="${i}"]`);
      expect(seat.querySelectorAll(".cw-seat-cards [data-card]")).toHaveLength(0);
      expect(seat.querySelector(".cw-count").textContent).toBe(`${view().hand_counts[i]} cards`);
      expect(seat.querySelector(".cw-tag-bot")).not.toBeNull();
    }
  });

  it("shows the trick in progress: who played what, the lead colour, who is winning, who is next", () => {
    mount("five_public");
    const v = view();
    expect($(".cw-ct-lead").dataset.lead).toBe(v.lead_color);
    const slots = $$(".cw-ct-trick .cw-ct-slot");
    expect(slots).toHaveLength(v.players);
    expect(slots.map((s) => Number(s.dataset.seat))).toEqual([...Array(v.players).keys()].map((k) => (v.leader + k) % v.players));
    v.table.forEach((t, k) => {
      expect(slots[k].querySelector("[data-card]").dataset.card).toBe(t.card);
      // the led card says so; a card of the lead colour after it needs no word; trumps and off colours do
      const mark = slots[k].querySelector(".cw-ct-class");
      if (k === 0) expect(mark.dataset.class).toBe("led");
      else if (t.class === "lead") expect(mark).toBeNull();
      else expect(mark.dataset.class).toBe(t.class);
    });
    expect($(".cw-ct-winning").dataset.seat).toBe(String(v.winning));
    expect($(".cw-ct-winning .cw-ct-ribbon").textContent).toBe("winning");
    expect($(".cw-ct-next").dataset.seat).toBe("0");
    expect($(".cw-ct-next .cw-ct-slot-name").textContent).toBe("A (you)");
    expect($('.cw-seat[data-seat="1"] [data-role="leader"]').textContent).toBe("leads");
  });

  it("shows the offered card and the declarations so far, with who declares now", () => {
    mount("declare");
    const v = view();
    expect(cardsIn(".cw-ct-offer")).toEqual([v.offered]);
    const pills = $$(".cw-ct-decl");
    expect(pills).toHaveLength(v.players - 1);
    for (const d of v.declarations) {
      expect($(`.cw-ct-decl[data-seat="${d.seat}"]`).dataset.declared).toBe(d.want ? "want" : "pass");
    }
    expect($('.cw-ct-decl[data-seat="0"]').dataset.declared).toBe("now");
    expect($(`.cw-seat[data-seat="${v.first}"] [data-role="first"]`).textContent).toBe("offered");
  });

  it("shows won piles with their blocks and the score now; the others' as blocks only when hidden", () => {
    mount("blocks_only");
    const v = view();
    for (const i of [1, 2, 3]) {
      expect(v.won[i]).toBeNull();
      const won = $(`.cw-seats .cw-ct-won[data-seat="${i}"]`);
      expect(won.querySelectorAll("[data-card]")).toHaveLength(0);
      expect(won.querySelectorAll(".cw-ct-pip")).toHaveLength(v.won_blocks[i]);
      expect(won.classList.contains("cw-ct-won-hidden")).toBe(true);
      expect(won.querySelector(".cw-ct-won-count b").textContent).toBe(String(v.won_counts[i]));
      expect(won.querySelector(".cw-ct-now").dataset.score).toBe(String(v.score_now[i]));
      expect(won.getAttribute("title")).toContain("rule C11.5");
    }
    unmount();
    mount("five_public");
    const w = view();
    const seat = w.won.findIndex((p, i) => i > 0 && p.some((c) => w.block_cards.includes(c)));
    expect(cardsIn(`.cw-seats .cw-ct-won[data-seat="${seat}"]`)).toEqual(w.won[seat].filter((c) => w.block_cards.includes(c)));
  });

  it("shows round scores and running totals from the view's round records", () => {
    mount("round2");
    const v = view();
    const rec = v.results[0];
    for (let s = 0; s < v.players; s++) {
      const row = $(`.cw-ct-scores tr[data-seat="${s}"]`);
      const cells = [...row.querySelectorAll("td")].map((c) => c.textContent);
      expect(cells[1]).toBe(String(rec.scores[s]));
      expect(cells[2]).toBe(`(${v.score_now[s]})`);
      expect(cells.at(-1)).toBe(String(v.totals[s]));
    }
    expect($(".cw-ct-scores th[title]").getAttribute("title")).toContain(`hidden card ${rec.hidden}`);
  });

  it("shows the hidden card in the teacher view only, and every hand face up", () => {
    mount("teacher");
    const v = view();
    expect(cardsIn(".cw-ct-trumps")).toEqual([v.indicator, v.hidden_card]);
    for (let i = 0; i < v.players; i++) expect(cardsIn(`.cw-seats .cw-seat[data-seat="${i}"] .cw-seat-cards`)).toEqual(v.hands[i]);
    expect($(".cw-player").textContent).toContain(`acting for ${v.names[v.current]}`);
    expect(handCards().map((c) => c.dataset.card)).toEqual(v.hands[v.current]);
    expect($(".cw-chip-teacher")).not.toBeNull();
  });
});

describe("the steps of a trick", () => {
  it("reveal: one click on a hand card sends reveal <card>", () => {
    mount("offer");
    expect($(".cw-turn").textContent).toBe("Your turn· reveal a card to offer");
    const cards = handCards();
    expect(cards.map((c) => c.dataset.action)).toEqual(model.get("legal"));
    expect(cards.every((c) => c.classList.contains("cw-playable"))).toBe(true);
    cards[1].click();
    expect(model.sent()).toEqual([{ type: "act", action: `reveal ${view().hands[0][1]}` }]);
    expect($(".cw-hint").textContent).toContain("rule C5.1");
  });

  it("declare: Want and Pass send want and pass; the hand is not clickable then", () => {
    mount("declare");
    const want = $('.cw-controls [data-action="want"]');
    expect(want.textContent).toBe(`Want ${view().offered}`);
    expect(want.hasAttribute("disabled")).toBe(false);
    expect(handCards().every((c) => c.tagName === "DIV" && !c.hasAttribute("data-action"))).toBe(true);
    expect(handCards().some((c) => c.classList.contains("cw-dimmed"))).toBe(false);
    want.click();
    model.idle();  // Python answered (here: nothing changed)
    $('.cw-controls [data-action="pass"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "want" }, { type: "act", action: "pass" }]);
    expect($(".cw-hint").textContent).toContain(`Want ${view().offered}? The last to want it takes it`);
  });

  it("give: the declarer clicks the card to give the first player face down", () => {
    mount("give");
    const v = view();
    expect($('.cw-player [data-role="declarer"]')).not.toBeNull();
    expect(cardsIn(".cw-ct-offer")).toEqual([v.offered]);
    expect($(".cw-ct-offer").textContent).toContain("A (you) wants");
    expect($(".cw-hint").textContent).toContain(`click a card to give ${v.names[v.first]} face down (rule C5.5)`);
    expect(handCards().map((c) => c.dataset.action)).toEqual(v.hands[0].map((c) => `give ${c}`));
    handCards().at(-1).click();
    expect(model.sent()).toEqual([{ type: "act", action: `give ${v.hands[0].at(-1)}` }]);
  });

  it("follow: only legal cards are playable; the others say why, with the rule, on hover", () => {
    mount("follow");
    const legal = model.get("legal");
    const refusals = model.get("refusals");
    const playable = handCards().filter((c) => c.classList.contains("cw-playable"));
    expect(playable.map((c) => c.dataset.action)).toEqual(legal);
    const refused = handCards().filter((c) => c.classList.contains("cw-dimmed"));
    expect(refused.length).toBe(Object.keys(refusals).length);
    const hint = $(".cw-hint");
    const step = hint.textContent;
    expect(step).toContain("you must play");
    expect(hint.querySelector('.cw-rule[data-rule="C6.3"]')).not.toBeNull();
    for (const card of refused) {
      const why = refusals[`play ${card.dataset.card}`];
      expect(why).toMatch(/^Illegal: rule C6\.3 — /);
      expect(card.getAttribute("title")).toBe(why);
      expect(card.dataset.refusal).toBe("C6.3");
      expect(card.hasAttribute("data-action")).toBe(false);
    }
    hover(refused[0]);
    expect(hint.textContent).toBe(refusals[`play ${refused[0].dataset.card}`]);
    expect(hint.classList.contains("cw-hint-warn")).toBe(true);
    expect(hint.querySelector('.cw-rule[data-rule="C6.3"]').getAttribute("title")).toMatch(/^C6\.3 · /);
    hover(refused[0], "mouseleave");
    expect(hint.textContent).toBe(step);
    // a click on a refused card is sent too: Python refuses it and says why
    refused[0].click();
    model.idle();
    playable[0].click();
    expect(model.sent()).toEqual([{ type: "act", action: `play ${refused[0].dataset.card}` }, { type: "act", action: legal[0] }]);
  });

  it("follow without the lead colour: every card is playable", () => {
    mount("follow_void");
    expect(handCards().every((c) => c.classList.contains("cw-playable") && c.dataset.action === `play ${c.dataset.card}`)).toBe(true);
    expect($(".cw-hint").textContent).toContain("any card of your hand may be played");
  });

  it("shows a refusal with its rule chip", () => {
    mount("refused");
    const error = $(".cw-error");
    expect(error.textContent).toContain(model.get("last_error"));
    expect(error.querySelector('.cw-rule[data-rule="C6.3"]')).not.toBeNull();
    $('[data-control="clear-error"]').click();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
  });

  it("legal-move chips send their action", () => {
    mount("give_receiver");
    const chips = $$(".cw-legal [data-action]");
    expect(chips.map((c) => c.dataset.action)).toEqual(model.get("legal"));
    chips[0].click();
    expect(model.sent()).toEqual([{ type: "act", action: model.get("legal")[0] }]);
  });

  it("a bot's turn: nothing to click, the turn names who is thinking", () => {
    mount("thinking");
    expect($(".cw-turn").dataset.turn).toBe("thinking");
    expect($(".cw-turn").textContent).toContain("B is thinking");
    expect($$("[data-action]")).toHaveLength(0);
    expect(handCards().every((c) => c.tagName === "DIV")).toBe(true);
    expect($(".cw-legal").textContent).toContain("none: B is thinking");
    expect($(".cw-hint").textContent).toBe("B is thinking.");
  });

  it("keeps every control disabled on a bot's turn even if legal is not empty", () => {
    mount("declare", { thinking: true, view: { ...scenario("declare").view, current: 1 } });
    expect($$("[data-action]").filter((b) => !b.hasAttribute("disabled"))).toHaveLength(0);
  });
});

describe("the card given face down", () => {
  it("the giver sees the card it gave", () => {
    mount("give_giver");
    const g = view().gives.at(-1);
    expect($(".cw-ct-give").dataset.give).toBe("known");
    expect(cardsIn(".cw-ct-give")).toEqual([g.card]);
    expect($(".cw-ct-give").textContent).toContain(`You gave ${view().names[g.to]} ${g.card}, face down`);
    expect($(`.cw-player .cw-bubble`).textContent).toBe(`gave ${g.card}`);
  });

  it("the receiver sees the card it got", () => {
    mount("give_receiver");
    const g = view().gives.at(-1);
    expect(cardsIn(".cw-ct-give")).toEqual([g.card]);
    expect($(".cw-ct-give").textContent).toContain(`${view().names[g.from]} gave you ${g.card}`);
    expect(handCards().map((c) => c.dataset.card)).toContain(g.card);
  });

  it("a third seat sees only that a card changed hands", () => {
    mount("give_third");
    const g = view().gives.at(-1);
    expect(g.card).toBeNull();
    const give = $(".cw-ct-give");
    expect(give.dataset.give).toBe("hidden");
    expect(give.querySelectorAll("[data-card]")).toHaveLength(0);
    expect(give.querySelector(".cw-card-back")).not.toBeNull();
    expect(give.textContent).toContain(`${view().names[g.from]} gave ${view().names[g.to]} a card face down`);
    // a bubble saying what the giver did names no card either
    showPrivateGive(g.from);
  });
});

/** Re-draw give_third as if its last action were the private give (as the engine writes it for a third seat). */
function showPrivateGive(seat) {
  model.set("view", { ...view(), last_action: { seat, action: "give" } });
  expect($(`.cw-seat[data-seat="${seat}"] .cw-bubble`).textContent).toBe("gave a card");
}

describe("the end of a round and of the game", () => {
  it("holds at the round's end: the hidden card, the scoring, Continue", () => {
    mount("hold");
    const v = view();
    const r = v.results[0];
    expect($(".cw-turn").textContent).toBe("Paused");
    const panel = $(".cw-hold");
    expect(panel.dataset.kind).toBe("round_end");
    expect(panel.querySelector(".cw-overlay-head").textContent).toBe(`Round 1 of ${v.rounds} is over`);
    expect(cardsIn(".cw-hold .cw-ct-hold-cards")).toEqual([r.hidden]);
    const rows = $$(".cw-hold tbody tr");
    expect(rows.map((row) => Number(row.dataset.seat))).toEqual([...Array(v.players).keys()]);
    rows.forEach((row, s) => {
      const cells = [...row.querySelectorAll("td")].map((c) => c.textContent);
      expect(cells.slice(2)).toEqual([r.blocks[s], r.colors[s], r.scores[s], r.totals[s]].map(String));
      expect(row.querySelectorAll(".cw-ct-pip")).toHaveLength(r.blocks[s]);
    });
    expect(panel.querySelector(".cw-ct-legend").textContent).toContain("1 to 3 blocks B × K");
    expect(panel.querySelector('.cw-rule[data-rule="C9.2"]')).not.toBeNull();
    expect($(".cw-ct-round").getAttribute("title")).toBe(model.get("hold").text);
    $('[data-control="continue"]').click();
    expect(model.sent()).toEqual([{ type: "continue" }]);
    model.set("hold", null);
    expect($(".cw-hold")).toBeNull();
  });

  it("with won piles hidden, the hold shows the others' blocks and colours only", () => {
    mount("hold_blocks_only");
    const v = view();
    expect(Object.keys(model.get("hold")).sort()).toEqual(["kind", "text"]);  // no raw piles reach the browser
    expect(v.results[0].won.slice(1)).toEqual([null, null, null]);
    const drawn = $$("[data-card]").map((c) => c.dataset.card).filter((c) => !visibleCards(v).has(c));
    expect(drawn).toEqual([]);
    for (const s of [1, 2, 3]) {
      const cell = $(`.cw-hold tr[data-seat="${s}"] .cw-ct-blocks-cell`);
      expect(cell.querySelectorAll("[data-card]")).toHaveLength(0);
      if (v.results[0].blocks[s]) {
        expect(cell.querySelectorAll(".cw-ct-pip")).toHaveLength(v.results[0].block_colors[s].length);
        expect(cell.firstElementChild.getAttribute("title")).toContain("rule C11.5");
      }
    }
  });

  it("hides the hold panel while looking at the past", () => {
    mount("hold", { cursor: 3 });
    expect($(".cw-hold")).toBeNull();
    expect($(".cw-past")).not.toBeNull();
  });

  it("shows the result: rounds, totals, the hidden cards and the reason", () => {
    mount("finished");
    const v = view();
    const o = v.outcome;
    const panel = $(".cw-outcome");
    const best = o.winners[0];
    expect(panel.querySelector(".cw-overlay-head").textContent).toContain(best === 0 ? "A (you) wins!" : `${v.names[best]} wins`);
    const standings = panel.querySelector(".cw-scores");
    expect([...standings.querySelectorAll("th")].map((t) => t.textContent)).toEqual(["Player", "Round 1", "Round 2", "Round 3", "Total"]);
    const rows = [...standings.querySelectorAll("tbody tr")];
    const totals = rows.map((r) => num(r.lastElementChild.textContent));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(rows[0].dataset.seat).toBe(String(best));
    expect(cardsIn(".cw-ct-hiddens")).toEqual(v.results.map((r) => r.hidden));
    expect(panel.querySelector(".cw-reason").textContent).toContain("rule C10.1");
    expect($(".cw-turn").textContent).toBe("Game over");
    expect($$("[data-action]")).toHaveLength(0);
    expect($(".cw-controls")).toBeNull();
    $('[data-control="hide-outcome"]').click();
    expect($(".cw-outcome")).toBeNull();
  });
});

describe("header options", () => {
  it("names the options that change the rules", () => {
    mount("five_public");
    const opts = $$(".cw-ct-option").map((c) => c.textContent);
    expect(opts).toEqual(["white ranks high", "gives face up"]);
    unmount();
    mount("offer");
    expect($$(".cw-ct-option")).toHaveLength(0);
  });
});

describe("notation and words", () => {
  it("parses the canonical notation only", () => {
    expect(parseAction("reveal Y3")).toEqual({ kind: "reveal", card: "Y3", text: "reveal Y3" });
    expect(parseAction("give B2")).toEqual({ kind: "give", card: "B2", text: "give B2" });
    expect(parseAction("play W6")).toEqual({ kind: "play", card: "W6", text: "play W6" });
    expect(parseAction("want")).toEqual({ kind: "want", card: null, text: "want" });
    expect(parseAction("pass")).toEqual({ kind: "pass", card: null, text: "pass" });
    for (const bad of ["r Y3", "play", "Y3", "play X3", "give b2", "pass take 3"]) expect(parseAction(bad)).toBeNull();
    expect(cardAction("offer", "Y3")).toBe("reveal Y3");
    expect(cardAction("give", "B2")).toBe("give B2");
    expect(cardAction("follow", "R5")).toBe("play R5");
    expect(cardAction("declare", "R5")).toBeNull();
  });

  it("describes moves, finds rule IDs, and words cards", () => {
    expect(describeAction("reveal Y3")).toBe("offers Y3");
    expect(describeAction("want")).toBe("wants it");
    expect(describeAction("pass")).toBe("passes");
    expect(describeAction("give")).toBe("gave a card");
    expect(describeAction("give B2")).toBe("gave B2");
    expect(describeAction("play R5")).toBe("played R5");
    expect(ruleOf("Illegal: rule C6.3 — the lead is Y1")).toBe("C6.3");
    expect(ruleOf("no rule here")).toBeNull();
    const v = scenario("offer").view;
    expect(cardWords("Y3", v)).toBe("yellow 3 (Datcoin), block");
    expect(cardWords("W6", v)).toBe("white 6 (In-Fungible Trump), trump");
    const card = renderCryptoCard("W1", v, { size: "xs" });
    expect(card.dataset.card).toBe("W1");
    expect(card.textContent).toBe("W1");
    expect(layout.game).toBe("crypto_trick");
  });
});
