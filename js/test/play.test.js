// @vitest-environment happy-dom
// What a player met at the tables (every game and mode, clicked through in JupyterLab), each
// checked on positions the Python engines made (fixtures/<game>.json).
import { describe, it, expect, beforeEach, afterEach, vi } from "vitest";
import { ruleTip, findRule, sentences } from "../src/lib/rules.js";
import { DURATION } from "../src/lib/motion.js";
import { scenario, scenarioNames, rulesOf } from "./fixtures.js";
import { GAMES, model, mountScenario as mount, unmount, useTable, $, $$, view } from "./helpers.js";

const ALL = GAMES.flatMap((g) => scenarioNames(g).map((n) => [g, n]));
const tick = () => new Promise((r) => setTimeout(r, 0));
/** The next frame: cards are set in motion there, where the layout is read anyway. */
const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
/** Python's next sync: some traits, in one message. */
const update = (traits) => model.update(traits);

useTable(() => vi.restoreAllMocks());

describe("1. a trick taken stays on the table", () => {
  it("between tricks, the trick just taken is shown where it was played, with who took it", () => {
    mount("crypto_trick", "taken");
    const lt = view().last_trick;
    const taken = $(".cw-ct-taken");
    expect(taken).not.toBeNull();
    const slots = [...taken.querySelectorAll(".cw-ct-slot")];
    expect(slots.map((s) => Number(s.dataset.seat))).toEqual(lt.cards.map((c) => c.seat));
    expect(slots.map((s) => s.querySelector("[data-card]").dataset.card)).toEqual(lt.cards.map((c) => c.card));
    expect(taken.querySelector(".cw-ct-winning").dataset.seat).toBe(String(lt.winner));
    expect(taken.querySelector(".cw-ct-ribbon").textContent).toBe("took it");
    expect($(".cw-ct-trickpanel").getAttribute("aria-label")).toBe(`Trick ${lt.trick}: ${view().names[lt.winner]}${lt.winner === 0 ? " (you)" : ""} took it`);
  });

  it.each(["declare", "give", "follow", "round2", "blocks_only"])("%s: the last trick can be looked at while the next is offered and played", (name) => {
    mount("crypto_trick", name);
    const lt = view().last_trick;
    const strip = $('.cw-ct-last[aria-label="Last trick"]');
    expect(strip).not.toBeNull();
    expect([...strip.querySelectorAll("[data-card]")].map((c) => c.dataset.card)).toEqual(lt.cards.map((c) => c.card));
    expect([...strip.querySelectorAll(".cw-ct-last-who")].map((w) => w.textContent)).toEqual(lt.cards.map((c) => view().names[c.seat]));
    expect(strip.querySelector(".cw-ct-last-took [data-card]").dataset.card).toBe(lt.cards.find((c) => c.seat === lt.winner).card);
  });
});

describe("2. refusals cover nothing and go at the next action", () => {
  it.each([["depot", "refused"], ["crypto_trick", "refused"], ["cirno_neu", "refused"], ["yadokarick", "refused"], ["yadokarick", "solo_refused"]])(
    "%s %s: the refusal is under the player's own area, outside the felt", (game, name) => {
      mount(game, name);
      const error = $(".cw-error");
      expect(error).not.toBeNull();
      expect(error.closest(".cw-felt")).toBeNull();
      const player = $(".cw-player");
      expect(player.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

  it("opening the hint (an unrelated action) clears the refusal, and tells Python", async () => {
    mount("yadokarick", "solo_refused");
    expect($(".cw-error")).not.toBeNull();
    $('[data-control="hint"]').click();
    await tick();
    expect($(".cw-error")).toBeNull();
    expect(model.sent()).toEqual([{ type: "clear_error" }]);
  });

  it("Escape clears it too; a new refusal shows again", async () => {
    mount("crypto_trick", "refused");
    const error = model.get("last_error");
    $(".cw-table").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await tick();
    expect($(".cw-error")).toBeNull();
    update({ last_error: "" });
    update({ last_error: error });
    await tick();
    expect($(".cw-error")).not.toBeNull();
  });
});

describe("3. a rule card opens beside its chip, on screen, and goes with the next move", () => {
  const rect = (r) => /** @type {DOMRect} */ ({ x: r.x, y: r.y, left: r.x, top: r.y, width: r.w, height: r.h, right: r.x + r.w, bottom: r.y + r.h });
  /**
   * Lay the table out as a browser would: the table at (100, 50), 850 wide, 900 tall, in a window of
   * 1280 x 800; the first rule chip of the player's area at `chipBox`; the rule card 400 x 200.
   */
  function layout(chipBox) {
    vi.spyOn(window, "innerWidth", "get").mockReturnValue(1280);
    vi.spyOn(window, "innerHeight", "get").mockReturnValue(800);
    const chip = $(".cw-player .cw-rule[data-rule]");
    const k = chip.dataset.chip;
    vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function () {
      const self = /** @type {Element} */ (this);
      if (self.classList.contains("cw-table")) return rect({ x: 100, y: 50, w: 850, h: 900 });
      if (self.getAttribute("data-chip") === k) return rect(chipBox);
      return rect({ x: 0, y: 0, w: 0, h: 0 });
    });
    Object.defineProperty(HTMLElement.prototype, "offsetWidth", { configurable: true, get() { return this.classList.contains("cw-rule-card") ? 400 : 0; } });
    Object.defineProperty(HTMLElement.prototype, "offsetHeight", { configurable: true, get() { return this.classList.contains("cw-rule-card") ? 200 : 0; } });
    return chip;
  }
  afterEach(() => {
    delete /** @type {any} */ (HTMLElement.prototype).offsetWidth;
    delete /** @type {any} */ (HTMLElement.prototype).offsetHeight;
  });

  it("under the chip when there is room, its left edge at the chip", () => {
    mount("crypto_trick", "follow");
    const chip = layout({ x: 300, y: 400, w: 30, h: 16 });
    chip.click();
    const card = $(".cw-rule-card");
    expect(card.dataset.rule).toBe(chip.dataset.rule);
    expect(card.style.top).toBe(`${416 + 4 - 50}px`);
    expect(card.style.left).toBe(`${300 - 100}px`);
  });

  it("over the chip when the window has no room under it (a short window): never off screen", () => {
    mount("crypto_trick", "follow");
    const chip = layout({ x: 700, y: 700, w: 30, h: 16 });
    chip.click();
    const card = $(".cw-rule-card");
    const top = Number.parseFloat(card.style.top) + 50;
    expect(top).toBe(700 - 4 - 200);
    expect(top).toBeGreaterThanOrEqual(0);
    // kept inside the table and the window on the right
    expect(Number.parseFloat(card.style.left) + 100 + 400).toBeLessThanOrEqual(950 - 6);
  });

  it("closes when the game moves on", async () => {
    mount("crypto_trick", "follow");
    $(".cw-player .cw-rule[data-rule]").click();
    expect($(".cw-rule-card")).not.toBeNull();
    update({ cursor: model.get("cursor") + 1, history_len: model.get("history_len") + 1 });
    await tick();
    expect($(".cw-rule-card")).toBeNull();
  });

  it("a rule's tooltip holds whole sentences, never a cut one", () => {
    for (const game of GAMES) {
      const rules = rulesOf(game);
      for (const id of Object.keys(rules)) {
        const tip = ruleTip(/** @type {any} */ (findRule(rules, id)));
        expect(tip, `${game} ${id}`).not.toMatch(/…$/);
        // a tooltip that does not hold the whole rule stops at the end of a sentence
        if (sentences(rules[id].text).more) expect(tip, `${game} ${id}`).toMatch(/[.!?:)"”] \(click for the whole rule\)$/);
      }
    }
  });
});

describe("8. the last round is scored with the final standings", () => {
  it("Crypto Trick: the last round's blocks, B, K, score and total", () => {
    mount("crypto_trick", "finished");
    const v = view();
    const r = v.results.at(-1);
    const box = $(".cw-outcome .cw-final-round");
    expect(box.textContent).toContain(`Round ${r.round} of ${v.rounds}, scored`);
    for (let s = 0; s < v.players; s++) {
      const cells = [...box.querySelectorAll(`tr[data-seat="${s}"] td`)].map((td) => td.textContent);
      expect(cells[2]).toBe(String(r.blocks[s]));
      expect(cells[3]).toBe(String(r.colors[s]));
      expect(cells[4]).toBe(String(r.scores[s]).replace("-", "\u2212"));
    }
  });

  it("Yadokarick: the last round's houses against the target, and the totals", () => {
    mount("yadokarick", "finished");
    const v = view();
    const r = v.results.at(-1);
    const box = $(".cw-outcome .cw-final-round");
    expect(box.textContent).toContain(`ended on ${r.target}`);
    for (let s = 0; s < v.players; s++) {
      const cells = [...box.querySelectorAll(`tr[data-seat="${s}"] td`)].map((td) => td.textContent);
      expect(cells[1]).toBe(String(r.house_sizes[s]));
      expect(cells[4]).toBe(String(r.scores[s]).replace("-", "\u2212"));
      expect(cells[5]).toBe(String(v.outcome.scores[s]).replace("-", "\u2212"));
    }
  });
});

describe("9. a round's end says the next round is dealt (the table behind it shows it)", () => {
  it.each([["crypto_trick", "hold"], ["crypto_trick", "hold_blocks_only"], ["yadokarick", "hold"]])("%s %s", (game, name) => {
    mount(game, name);
    const v = view();
    const ended = v.results.at(-1).round;
    expect(v.round).toBe(ended + 1);
    expect($(".cw-hold .cw-overlay-head").textContent).toBe(`Round ${ended} of ${v.rounds} is over`);
    expect($(".cw-hold .cw-hold-next").textContent).toContain(`Round ${v.round} of ${v.rounds} is dealt`);
    expect($(".cw-header").textContent).toContain(`Round ${v.round} of ${v.rounds}`);
  });

  it("Depot: a match's next game", () => {
    mount("depot", "hold");
    const v = view();
    expect($(".cw-hold .cw-hold-next").textContent).toContain(`Game ${v.game_no} of ${v.games} is dealt`);
  });
});

describe("10. a move at a time: repeated clicks wait for Python's answer", () => {
  it("a double click on a card sends one move; the next position lets the next one go", async () => {
    mount("crypto_trick", "teacher");
    const card = $(".cw-hand [data-action]");
    card.click();
    card.click();
    expect(model.sent()).toEqual([{ type: "act", action: card.dataset.action }]);
    expect($(".cw-table").classList.contains("cw-pending")).toBe(true);
    update({ history_len: model.get("history_len") + 1, cursor: model.get("cursor") + 1 });
    await tick();
    expect($(".cw-table").classList.contains("cw-pending")).toBe(false);
    $(".cw-hand [data-action]").click();
    expect(model.sent()).toHaveLength(2);
  });

  it("a refusal is an answer too, and so is the kernel going idle", async () => {
    mount("crypto_trick", "follow");
    const refused = $(".cw-hand .cw-dimmed");
    refused.click();
    refused.click();
    expect(model.sent()).toHaveLength(1);
    update({ last_error: "Illegal: rule C6.3 — you must follow" });
    await tick();
    $(".cw-hand [data-action]").click();
    expect(model.sent().at(-1).type).toBe("act");
    const n = model.sent().length;
    $(".cw-hand [data-action]").click();
    expect(model.sent()).toHaveLength(n);
    model.idle();
    $(".cw-hand [data-action]").click();
    expect(model.sent()).toHaveLength(n + 1);
  });

  it("does not wait forever for a kernel that never answers", () => {
    vi.useFakeTimers();
    try {
      mount("cirno_neu", "start");
      $(".cw-hand [data-action]").click();
      $(".cw-hand [data-action]").click();
      expect(model.sent()).toHaveLength(1);
      vi.advanceTimersByTime(5000);
      $(".cw-hand [data-action]").click();
      expect(model.sent()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("11. the led card is marked once, the lead colour named once", () => {
  it.each(["five_public", "follow", "teacher", "two"])("%s", (name) => {
    mount("crypto_trick", name);
    const v = view();
    expect($$(".cw-ct-trick [data-class=led]")).toHaveLength(1);
    expect($$(".cw-ct-trick .cw-ct-slot")[0].querySelector("[data-class=led]")).not.toBeNull();
    expect($$(".cw-ct-class").map((c) => c.textContent).filter((t) => /\blead\b/i.test(t))).toEqual([]);
    expect($$(".cw-ct-lead")).toHaveLength(1);
    expect($(".cw-ct-lead").dataset.lead).toBe(v.lead_color);
  });
});

describe("12. a solo game's end: a star only for a score worth one", () => {
  it("a negative score ends without a trophy", () => {
    mount("yadokarick", "solo_lost");
    const score = view().outcome.scores[0];
    expect(score).toBeLessThan(0);
    expect($(".cw-trophy")).toBeNull();
    expect($(".cw-winner-row")).toBeNull();
    expect($(".cw-outcome .cw-overlay-head").firstChild.textContent).toBe(`Final score \u2212${-score}`);
  });

  it("a positive one keeps it", () => {
    mount("yadokarick", "solo_finished");
    expect($(".cw-trophy")).not.toBeNull();
  });
});

describe("13. the table's own words", () => {
  it("a question's answer starts with a capital", () => {
    mount("crypto_trick", "declare");
    expect($(".cw-hint").textContent).toMatch(/^Want \w+\? The last to want it takes it/);
  });

  it.each(ALL)("%s %s: negative numbers with the typographic minus", (game, name) => {
    mount(game, name);
    // engine narration (the log, a refusal, a result's reason) is the engines' own
    for (const n of $$(".cw-log, .cw-error, .cw-reason, .cw-rule-card")) n.remove();
    expect($(".cw-table").textContent).not.toMatch(/(^|[^\w−])-\d/);
  });

  it.each(ALL)("%s %s: the viewer is named as the narration names them, with (you)", (game, name) => {
    mount(game, name);
    expect($$(".cw-tag-you")).toHaveLength(0);
    const v = view();
    const you = $$(".cw-you-mark");
    if (v.seat == null) expect(you).toHaveLength(0);
    for (const mark of you) expect(mark.previousElementSibling.textContent).toBe(v.names[v.seat]);
    // no table label says just "you": a label names the seat
    for (const label of $$(".cw-slot-name, .cw-ct-slot-name, .cw-last-who, .cw-ct-name, .cw-player-cell")) {
      expect(label.textContent.trim().toLowerCase() === "you" && v.names[v.seat] !== "you").toBe(false);
    }
  });
});

describe("14. a chip that only selects a move says so", () => {
  it("Depot's legal-move chips carry data-control=select-move and the move, not data-action", () => {
    mount("depot", "respond");
    expect($$(".cw-legal [data-action]")).toHaveLength(0);
    const chips = $$('.cw-legal [data-control="select-move"]');
    expect(chips.map((c) => c.dataset.move)).toEqual(model.get("legal").filter((a) => a.startsWith("play")));
  });

  it.each(ALL)("%s %s: every control with data-action sends that action when clicked", (game, name) => {
    mount(game, name);
    for (const control of $$("[data-action]")) {
      if (control.hasAttribute("disabled")) continue;
      const action = control.dataset.action;
      model.send.mockClear();
      model.idle();
      control.click();
      expect(model.sent().filter((m) => m.type === "act"), `${action}`).toEqual([{ type: "act", action }]);
      model.idle();
    }
  });
});

describe("15. the bots' pace and 'skip to my turn'", () => {
  it("a speed control sends the pace asked for; Python sets it", () => {
    mount("depot", "start");
    const speed = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ ($('[data-control="bot-speed"]')));
    expect(speed.getAttribute("aria-label")).toContain("computer players");
    expect(speed.value).toBe(String(model.get("bot_delay")));
    speed.value = "0.3";
    speed.dispatchEvent(new Event("change"));
    expect(model.sent()).toEqual([{ type: "speed", delay: 0.3 }]);
  });

  it("shows the pace Python has, even one the control does not list", () => {
    mount("crypto_trick", "thinking", { bot_delay: 1.2 });
    const speed = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ ($('[data-control="bot-speed"]')));
    expect(speed.value).toBe("1.2");
  });

  it("while a bot thinks, Skip to my turn sends skip", () => {
    mount("crypto_trick", "thinking");
    $('[data-control="skip"]').click();
    expect(model.sent()).toEqual([{ type: "skip" }]);
  });

  it("no pace control without bots, nor once the game is over", () => {
    mount("crypto_trick", "teacher");
    expect($('[data-control="bot-speed"]')).toBeNull();
    unmount();
    mount("crypto_trick", "finished");
    expect($('[data-control="bot-speed"]')).toBeNull();
  });
});

describe("keyboard play", () => {
  const key = (k, target = document.activeElement) =>
    /** @type {HTMLElement} */ (target).dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));

  it("arrows move among the cards and moves that can be played; they never leave the table", () => {
    mount("crypto_trick", "follow");
    const root = $(".cw-table");
    root.focus();
    const leaked = vi.fn();
    document.addEventListener("keydown", leaked);
    key("ArrowRight", root);
    const first = /** @type {HTMLElement} */ (document.activeElement);
    expect(first.classList.contains("cw-playable")).toBe(true);
    key("ArrowRight");
    expect(document.activeElement).not.toBe(first);
    key("ArrowLeft");
    expect(document.activeElement).toBe(first);
    key("ArrowDown");  // to the next row: the legal moves
    expect(/** @type {HTMLElement} */ (document.activeElement).closest(".cw-legal")).not.toBeNull();
    document.removeEventListener("keydown", leaked);
    expect(leaked).not.toHaveBeenCalled();
  });

  it("after a card is played, the keyboard stays on the cards", async () => {
    mount("crypto_trick", "follow");
    $(".cw-table").focus();
    key("ArrowRight", $(".cw-table"));
    const focused = /** @type {HTMLElement} */ (document.activeElement);
    const next = scenario("crypto_trick", "follow");
    const hand = [...next.view.hands[0]];
    hand.splice(hand.indexOf(focused.dataset.card), 1);
    update({ view: { ...next.view, hands: [hand, ...next.view.hands.slice(1)] }, cursor: next.cursor + 1, history_len: next.history_len + 1 });
    await tick();
    expect(document.activeElement?.closest(".cw-main")).not.toBeNull();
  });

  it("Escape closes the rule card, then cancels a selection", () => {
    mount("depot", "respond");
    $('.cw-legal [data-control="select-move"]').click();
    expect($$(".cw-hand .cw-selected").length).toBeGreaterThan(0);
    $(".cw-player .cw-rule[data-rule], .cw-log .cw-rule[data-rule]").click();
    expect($(".cw-rule-card")).not.toBeNull();
    key("Escape", $(".cw-table"));
    expect($(".cw-rule-card")).toBeNull();
    expect($$(".cw-hand .cw-selected").length).toBeGreaterThan(0);
    key("Escape", $(".cw-table"));
    expect($$(".cw-hand .cw-selected")).toHaveLength(0);
  });

  it("Depot: Enter on a selected legal move plays it", () => {
    mount("depot", "respond");
    $('.cw-legal [data-control="select-move"]').click();
    const chip = $('.cw-legal [aria-pressed="true"]');
    chip.focus();
    key("Enter", chip);
    expect(model.sent()).toEqual([{ type: "act", action: chip.dataset.move }]);
  });

  it.each(ALL)("%s %s: every control has an accessible name", (game, name) => {
    mount(game, name);
    for (const c of $$("button, [role=button], select, input")) {
      const own = c.getAttribute("aria-label");
      const clone = /** @type {HTMLElement} */ (c.cloneNode(true));
      for (const hidden of clone.querySelectorAll("[aria-hidden=true]")) hidden.remove();
      const text = clone.textContent?.trim();
      expect(own || text, c.outerHTML.slice(0, 120)).toBeTruthy();
    }
  });
});

describe("motion: cards travel, the DOM is final at once", () => {
  /** @type {Array<{el: Element, frames: Keyframe[], options: any}>} */
  let calls;
  const native = Element.prototype.animate;
  beforeEach(() => {
    calls = [];
    /** @type {any} */ (Element.prototype).animate = function (frames, options) {
      calls.push({ el: this, frames, options, at: performance.now() });
      return { playState: "running", currentTime: 0, cancel() {}, onfinish: null, oncancel: null };
    };
    let n = 0;
    // a layout: each card somewhere else (a card's place is its index in the document)
    vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function () {
      const self = /** @type {Element} */ (this);
      const i = self.hasAttribute("data-card") ? [...document.querySelectorAll("[data-card]")].indexOf(self) : n++ % 7;
      return /** @type {DOMRect} */ ({ x: 10 + 50 * i, y: self.closest(".cw-player") ? 500 : 100, left: 0, top: 0, width: 46, height: 66, right: 0, bottom: 0 });
    });
  });
  afterEach(() => {
    Element.prototype.animate = native;
  });

  /** The viewer plays a card: it leaves the hand and lands in the trick. */
  function play(over = {}) {
    const s = scenario("crypto_trick", "follow");
    const card = model.get("legal")[0].split(" ")[1];
    const v = structuredClone(s.view);
    v.hands[0] = v.hands[0].filter((c) => c !== card);
    v.table = [...v.table, { seat: 0, card, position: v.table.length + 1, class: "lead" }];
    update({ view: v, legal: [], cursor: s.cursor + 1, history_len: s.history_len + 1, ...over });
    return card;
  }

  it("the card played flies from the hand to the trick; the DOM has it in the trick at once", async () => {
    mount("crypto_trick", "follow");
    const card = play();
    await frame();
    expect($(`.cw-ct-trick [data-card="${card}"]`)).not.toBeNull();
    expect($(`.cw-hand [data-card="${card}"]`)).toBeNull();
    const flight = calls.find((c) => c.el === $(`.cw-ct-trick [data-card="${card}"]`));
    expect(flight).toBeDefined();
    expect(String(flight.frames[0].transform)).toMatch(/^translate\(/);
    expect(flight.options.duration).toBe(DURATION);
  });

  it("updates that arrive together play one after another", async () => {
    mount("crypto_trick", "follow");
    play();
    await frame();
    const first = calls.length;
    const s = scenario("crypto_trick", "follow");
    const v = structuredClone(model.get("view"));
    const other = s.view.hands[0].find((c) => !v.table.some((t) => t.card === c) && v.hands[0].includes(c));
    v.hands[0] = v.hands[0].filter((c) => c !== other);
    v.table = [...v.table, { seat: 1, card: other, position: v.table.length + 1, class: "off" }];
    update({ view: v, cursor: model.get("cursor") + 1, history_len: model.get("history_len") + 1 });
    await frame();
    const before = calls.slice(0, first).filter((c) => /** @type {HTMLElement} */ (c.el).dataset?.card);
    const later = calls.slice(first).filter((c) => /** @type {HTMLElement} */ (c.el).dataset?.card === other);
    expect(later.length).toBeGreaterThan(0);
    // the second move starts when the first has landed
    // (times measured at each animate() call: a few ms of drawing between them)
    const firstEnds = Math.min(...before.map((c) => c.at)) + Math.max(...before.map((c) => c.options.delay + c.options.duration));
    expect(Math.min(...later.map((c) => c.options.delay))).toBeGreaterThan(0);
    expect(Math.min(...later.map((c) => c.at + c.options.delay))).toBeGreaterThanOrEqual(firstEnds - 60);
  });

  it("an update reads no layout before its DOM is drawn; its frame reads everything before it writes", async () => {
    // A layout read after a write lays the page out again (in JupyterLab, the whole notebook): the
    // redraw that answers a click must read none, and the frame after it all before any animation.
    /** @type {string[]} */
    const seen = [];
    const read = (what) => seen.push(`read ${what}`);
    const spy = vi.spyOn(Element.prototype, "getBoundingClientRect");
    const rect = /** @type {Function} */ (spy.getMockImplementation());  // the layout of beforeEach
    spy.mockImplementation(function () {
      read("rect");
      return rect.call(this);
    });
    const style = window.getComputedStyle;
    vi.spyOn(window, "getComputedStyle").mockImplementation(function (el) {
      read("style");
      return style.call(window, el);
    });
    const proto = HTMLElement.prototype;
    const saved = ["scrollTop", "scrollHeight", "clientHeight"].map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)]);
    for (const [k] of saved) {
      let owner = proto;
      while (owner && !Object.getOwnPropertyDescriptor(owner, k)) owner = Object.getPrototypeOf(owner);
      const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(owner, k));
      Object.defineProperty(proto, k, { configurable: true, get() { read(k); return d.get?.call(this); }, set: d.set });
    }
    const animate = Element.prototype.animate;
    /** @type {any} */ (Element.prototype).animate = function (frames, options) {
      seen.push("write animate");
      return animate.call(this, frames, options);
    };
    try {
      mount("crypto_trick", "follow");
      await frame();
      play();
      await frame();  // the first move: its motion, and where every card landed
      seen.length = 0;
      const s = scenario("crypto_trick", "follow");
      const v = structuredClone(model.get("view"));
      const other = s.view.hands[0].find((c) => !v.table.some((t) => t.card === c) && v.hands[0].includes(c));
      v.hands[0] = v.hands[0].filter((c) => c !== other);
      v.table = [...v.table, { seat: 1, card: other, position: v.table.length + 1, class: "off" }];
      update({ view: v, cursor: model.get("cursor") + 1, history_len: model.get("history_len") + 1 });
      expect(seen.filter((e) => e.startsWith("read"))).toEqual([]);  // the DOM, drawn without a layout
      await frame();
      const firstWrite = seen.indexOf("write animate");
      expect(firstWrite).toBeGreaterThan(0);  // the card played flies
      expect(seen.slice(firstWrite).filter((e) => e.startsWith("read"))).toEqual([]);
    } finally {
      for (const [k, d] of saved) {
        if (d) Object.defineProperty(proto, k, d);
        else delete /** @type {any} */ (proto)[k];
      }
      Element.prototype.animate = animate;
    }
  });

  it("nothing moves with animations=False, under reduced motion, or on a jump through the history", async () => {
    mount("crypto_trick", "follow", { animations: false });
    play({ animations: false });
    await frame();
    expect(calls).toHaveLength(0);
    unmount();
    vi.spyOn(window, "matchMedia").mockImplementation((q) => /** @type {any} */ ({ matches: q.includes("reduce"), media: q, addEventListener() {}, removeEventListener() {} }));
    mount("crypto_trick", "follow");
    play();
    await frame();
    expect(calls).toHaveLength(0);
    unmount();
    vi.restoreAllMocks();
    mount("crypto_trick", "follow");
    update({ cursor: 0 });
    await frame();
    expect(calls.filter((c) => c.el.hasAttribute?.("data-card"))).toHaveLength(0);
  });
});

describe("card buttons are named by the text they show (WCAG 2.5.3, label in name)", () => {
  /** @param {Element} el @returns {string} its text, less what is hidden from screen readers */
  const named = (el) => {
    const copy = /** @type {Element} */ (el.cloneNode(true));
    for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
    return (copy.textContent ?? "").trim();
  };
  const words = (text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  it.each(ALL)("%s %s: no card button has a worded name that leaves out what it shows", (game, name) => {
    mount(game, name);
    for (const card of $$("button[data-card]").filter((b) => !b.closest(".cw-motion-layer"))) {
      const label = card.getAttribute("aria-label");
      const shown = words(card.textContent ?? "");  // every mark a person sees, the corners too
      if (label == null) {
        expect(named(card), card.outerHTML).not.toBe("");  // named by its face
      } else {
        // a face of icons only, named in words: whatever text it shows is in the name
        const said = words(label).join(" ");
        expect(` ${said} `.includes(` ${shown.join(" ")} `) || !shown.length, `${card.outerHTML} named "${label}"`).toBe(true);
      }
    }
  });
});

describe("16. the narration under a narrower table is short until opened", () => {
  it("shows its newest lines; Show all opens it, Show less closes it; the newest line is last", () => {
    mount("crypto_trick", "follow");
    const panel = $(".cw-log-panel");
    expect(panel.classList.contains("cw-log-collapsed")).toBe(true);
    const toggle = $('[data-control="log-toggle"]');
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(toggle.textContent).toBe(`Show all ${model.get("narration").length}`);
    toggle.click();
    expect($(".cw-log-panel").classList.contains("cw-log-collapsed")).toBe(false);
    expect($('[data-control="log-toggle"]').getAttribute("aria-expanded")).toBe("true");
    expect($(".cw-log .cw-log-latest").textContent).toBe(model.get("narration").at(-1));
    $('[data-control="log-toggle"]').click();
    expect($(".cw-log-panel").classList.contains("cw-log-collapsed")).toBe(true);
    // opened, the table asks Python for the whole narration; closed, for its newest lines again
    expect(model.sent()).toEqual([{ type: "narration", all: true }, { type: "narration", all: false }]);
  });

  it("says so when Python holds earlier lines than it sent, and where to find those beyond its limit", () => {
    mount("crypto_trick", "follow");
    update({ narration_more: true });
    const toggle = $('[data-control="log-toggle"]');
    // not "Show all 80": the table has sent only its newest lines
    expect(toggle.textContent).toBe("Show all");
    expect(toggle.hasAttribute("data-earlier")).toBe(true);
    toggle.click();
    expect($(".cw-log-more").textContent).toContain("table.timeline.narration()");
    update({ narration_more: false });
    expect($(".cw-log-more")).toBeNull();
    expect($('[data-control="log-toggle"]').textContent).toBe("Show less");
  });
});
