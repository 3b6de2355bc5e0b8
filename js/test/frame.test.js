// @vitest-environment happy-dom
// The shared frame with a minimal layout: what every future game gets for free.
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { h } from "../src/lib/dom.js";
import { gameWidget, moveChip, waitText, turnText } from "../src/lib/frame.js";
import { fakeModel } from "./fake-model.js";

/** A game of one card per move: just enough layout to exercise the frame. */
const layout = {
  game: "demo",
  title: "Demo",
  logo: "◇",
  parse: (t) => (/^take \d+$/.test(t) ? { n: Number(t.split(" ")[1]) } : null),
  chips: (f) => h("span", { class: "cw-chip" }, `Pile ${f.view.pile}`),
  felt: (f) => h("div", { class: "demo-felt" }, `pile ${f.view.pile}`),
  player: (f) => ({
    hand: h("div", { class: "cw-hand" }),
    moves: f.moves.map((m) => moveChip(f, { action: m.text, content: String(m.n), onClick: () => f.act(m.text) })),
  }),
};
const widget = gameWidget(layout);

const base = () => ({
  game: "demo", seat: 0, bot_seats: [1], thinking: false, cursor: 2, history_len: 2, branch: "main",
  branches: [{ name: "main", parent: null, from: 0, length: 2 }], hold: null, refusals: {}, last_error: "",
  narration: ["A takes 1 (rule X1.2).", "B takes 2 (rule X1.2)."],
  rules: { X1: { title: "Taking", text: "Take one or two." }, "X1.2": { title: "How many", text: "One or **two** cards." } },
  legal: ["take 1", "take 2"],
  view: { players: 2, names: ["A", "B"], seat: 0, current: 0, pile: 7, outcome: null, last_action: { seat: 1, action: "take 2" } },
});

let el, model, cleanup;
const mount = (over = {}) => { model = fakeModel({ ...base(), ...over }); cleanup = widget.render({ model, el }); };
const $ = (s) => el.querySelector(s);
const $$ = (s) => [...el.querySelectorAll(s)];

beforeEach(() => { el = document.createElement("div"); document.body.append(el); });
afterEach(() => { cleanup?.(); el.remove(); });

describe("the frame", () => {
  it("draws header, felt, player area, narration and scrubber around the layout", () => {
    mount();
    expect($(".cw-table").dataset.game).toBe("demo");
    expect($(".cw-title").textContent).toBe("◇Demo");
    expect($(".cw-chips").textContent).toBe("Pile 7");
    expect($(".cw-turn").textContent).toBe("Your turn");
    expect($(".cw-felt .demo-felt")).not.toBeNull();
    expect($$(".cw-legal [data-action]").map((b) => b.dataset.action)).toEqual(["take 1", "take 2"]);
    expect($(".cw-side .cw-log-panel")).not.toBeNull();
    expect($(".cw-side .cw-history")).not.toBeNull();
    $('[data-action="take 2"]').click();
    expect(model.sent()).toEqual([{ type: "act", action: "take 2" }]);
  });

  it("names the computer player who is thinking and disables every move", () => {
    mount({ legal: [], thinking: true, view: { ...base().view, current: 1 } });
    expect($(".cw-turn").textContent).toBe("B is thinking");
    expect($(".cw-table").classList.contains("cw-bot-turn")).toBe(true);
    expect($(".cw-legal").textContent).toBe("Legal movesnone: B is thinking");
  });

  it("words every waiting state without leaving anyone 'waiting' forever", () => {
    const f = (over) => ({ name: (i) => "AB"[i], you: (i) => i === 0, current: 1, finished: false, hold: null, past: false,
      thinking: false, botTurn: false, teacher: false, view: { outcome: null }, ...over });
    expect(waitText(f({ finished: true }))).toBe("none: the game is over");
    expect(waitText(f({ hold: { kind: "x" } }))).toBe("none until you press Continue");
    expect(waitText(f({ botTurn: true, past: true }))).toBe("none here: B (computer) would play");
    expect(waitText(f({ botTurn: true }))).toBe("none: B (computer) plays next");
    expect(waitText(f({}))).toBe("none: it is B's turn");
    expect(turnText(f({ botTurn: true, past: true }))).toBe("B (computer) plays here");
    expect(turnText(f({ hold: { kind: "x" } }))).toBe("Paused");
  });

  it("shows the hold panel with the hold's text and sends continue", () => {
    mount({ hold: { kind: "round_end", text: "The round is over (rule X1).", data: {} } });
    expect($(".cw-hold").dataset.kind).toBe("round_end");
    expect($(".cw-hold").textContent).toContain("The round is over");
    expect($('.cw-hold .cw-rule[data-rule="X1"]')).not.toBeNull();
    $('[data-control="continue"]').click();
    expect(model.sent()).toEqual([{ type: "continue" }]);
  });

  it("treats an empty hold as no hold", () => {
    mount({ hold: {} });
    expect($(".cw-hold")).toBeNull();
  });

  it("banners a position in the past and goes back to the latest", () => {
    mount({ cursor: 1, history_len: 2 });
    expect($(".cw-past").textContent).toContain("Paused in the past: move 1 of 2.");
    expect($(".cw-past").textContent).toContain("Playing a move here starts a new line of play");
    $('[data-control="latest"]').click();
    expect(model.sent()).toEqual([{ type: "goto", index: 2 }]);
  });

  it("opens a rule from a narration chip and closes it", () => {
    mount();
    const chip = $(".cw-log .cw-rule");
    expect(chip.getAttribute("title")).toBe("X1.2 · How many — One or two cards.");
    chip.click();
    expect($(".cw-rule-card").textContent).toContain("How many");
    expect($(".cw-rule-card b").textContent).toBe("two");
    $('[data-control="close-rule"]').click();
    expect($(".cw-rule-card")).toBeNull();
    expect(model.send).not.toHaveBeenCalled();
  });

  it("keeps keys inside the table", () => {
    mount();
    let leaked = 0;
    const count = () => { leaked += 1; };
    document.addEventListener("keydown", count);
    $('[data-action="take 1"]').dispatchEvent(new KeyboardEvent("keydown", { key: "d", bubbles: true }));
    $(".cw-log .cw-rule").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    document.removeEventListener("keydown", count);
    expect(leaked).toBe(0);
  });

  it("shows one logo per table when the layout's logo is an element", () => {
    const w = gameWidget({ ...layout, logo: () => h("b", null, "9") });
    const a = document.createElement("div"), b = document.createElement("div");
    const m1 = fakeModel(base()), m2 = fakeModel(base());
    const c1 = w.render({ model: m1, el: a }), c2 = w.render({ model: m2, el: b });
    m1.set("cursor", 2);
    expect(a.querySelector(".cw-logo b")).not.toBeNull();
    expect(b.querySelector(".cw-logo b")).not.toBeNull();
    c1(); c2();
  });
});
