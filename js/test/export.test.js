// @vitest-environment happy-dom
// The static player of exported games: the data read back (patches, narration, notes), the
// read-only model, and each game's own table drawn from it with the scrubber, the lines of play
// and the keys. The games are real: fixtures/export.json is written by tests/test_export.py
// (each position's view and narration as the Python timeline has them).
import { describe, it, expect, beforeEach, afterEach, vi } from "vitest";
import { applyPatch, Replay, VERSION } from "../src/export/replay.js";
import { replayModel } from "../src/export/model.js";
import { mountPlayer, boot, DATA_ID } from "../src/export/player.js";
import { layout as depot } from "../src/depot/index.js";
import { layout as cirnoNeu } from "../src/cirno_neu/index.js";
import { layout as cryptoTrick } from "../src/crypto_trick/index.js";
import { layout as yadokarick } from "../src/yadokarick/index.js";
import games from "./fixtures/export.json";

const LAYOUTS = { depot, cirno_neu: cirnoNeu, crypto_trick: cryptoTrick, yadokarick, "yadokarick-solo": yadokarick };
const NAMES = /** @type {Array<keyof typeof LAYOUTS>} */ (Object.keys(games));
/** @param {string} name */
const fx = (name) => structuredClone(/** @type {any} */ (games)[name]);

describe("patches", () => {
  it("replace, patch by key and by index, and share what did not change", () => {
    const base = { a: 1, list: [10, 20, 30], deep: { x: [1], y: "same" } };
    const out = applyPatch(base, { list: { 1: [25] }, deep: { x: [[1, 2]] }, a: [true] });
    expect(out).toEqual({ a: true, list: [10, 25, 30], deep: { x: [1, 2], y: "same" } });
    expect(Object.keys(out)).toEqual(["a", "list", "deep"]);
    expect(base).toEqual({ a: 1, list: [10, 20, 30], deep: { x: [1], y: "same" } });  // left as it was
    const again = applyPatch(out, { a: [false] });
    expect(again.list).toBe(out.list);  // shared
    expect(Object.isFrozen(again) && Object.isFrozen(again.list) && Object.isFrozen(again.deep.x)).toBe(true);
    expect(applyPatch(base, [null])).toBe(null);
    expect(() => applyPatch(base, 3)).toThrow(/bad patch/);
  });
});

describe.each(NAMES)("%s: the data read back", (name) => {
  const { data, expect: want } = fx(name);
  const replay = new Replay(data);

  it("gives every position's view and narration, on every line", () => {
    let n = 0;
    for (const [line, rows] of Object.entries(want)) {
      rows.forEach((/** @type {any} */ row, /** @type {number} */ k) => {
        expect(replay.view(line, k)).toEqual(row.view);
        expect(replay.narration(line, k)).toEqual(row.narration);
        n++;
      });
    }
    expect(n).toBeGreaterThan(20);
    expect(replay.names).toEqual(["main", "branch-1"]);
  });

  it("lists the notes along each line", () => {
    expect(replay.notes("main").map((x) => x.index)).toEqual([5, 11]);
    expect(replay.notes("branch-1")).toEqual([{ index: 5, text: "a note on the shared part" }, { index: 11, text: "a note on the branch" }]);
  });

  it("refuses what it cannot read", () => {
    expect(() => new Replay({ ...data, version: VERSION + 1 })).toThrow(/version/);
    expect(() => new Replay({ ...data, format: "x" })).toThrow(/not a cardwidgets export/);
    expect(() => replay.view("main", 99)).toThrow(/positions 0..12/);
    expect(() => replay.view("nope", 0)).toThrow(/no line/);
  });
});

describe("the read-only model", () => {
  it("answers the scrubber's messages and fires one change per move", () => {
    const replay = new Replay(fx("depot").data);
    const model = replayModel(replay);
    expect(model.place()).toEqual({ branch: "main", cursor: 5 });
    expect(model.get("legal")).toEqual([]);
    expect(model.get("bot_seats")).toEqual([]);
    let changes = 0;
    const seen = [];
    model.on("change", () => changes++);
    model.on("change:view", () => seen.push("view"));
    model.send({ type: "goto", index: 7 });
    expect(model.get("cursor")).toBe(7);
    expect(model.get("view")).toBe(replay.view("main", 7));
    model.send({ type: "goto", index: 99 });
    expect(model.get("cursor")).toBe(12);  // clamped to the line
    model.send({ type: "switch", branch: "branch-1" });
    expect(model.place()).toEqual({ branch: "branch-1", cursor: 12 });
    expect(model.get("branch")).toBe("branch-1");
    model.send({ type: "undo" });
    expect(model.get("cursor")).toBe(11);
    let idle = false;
    model.send({ type: "act", action: "play 1" }, { iopub: { status: () => { idle = true; } } });
    expect(idle).toBe(true);  // answered at once: nothing waits for a move
    expect(model.get("cursor")).toBe(11);
    model.send({ type: "switch", branch: "nope" });
    model.send({ type: "goto", index: "x" });
    expect(model.place()).toEqual({ branch: "branch-1", cursor: 11 });
    expect(changes).toBe(4);
    expect(seen.length).toBeGreaterThan(0);
  });

  it("plays the line forward as the live table does, and pauses", () => {
    vi.useFakeTimers();
    try {
      const replay = new Replay(fx("depot").data);
      const model = replayModel(replay);
      model.send({ type: "goto", index: 0 });
      model.send({ type: "play", speed: 2 });
      expect(model.get("playing")).toBe(2);
      expect(model.get("cursor")).toBe(0);
      vi.advanceTimersByTime(1500);  // a position every 0.5 s
      expect(model.get("cursor")).toBe(3);
      model.send({ type: "pause" });
      expect(model.get("playing")).toBe(0);
      vi.advanceTimersByTime(5000);
      expect(model.get("cursor")).toBe(3);  // paused where it was
      model.send({ type: "play" });  // the default pace
      vi.advanceTimersByTime(500);
      expect(model.get("cursor")).toBe(4);
      model.send({ type: "goto", index: 10 });  // moving elsewhere stops it
      expect(model.get("playing")).toBe(0);
      vi.advanceTimersByTime(5000);
      expect(model.get("cursor")).toBe(10);
      model.send({ type: "play", speed: 20 });
      vi.advanceTimersByTime(5000);
      expect(model.place()).toEqual({ branch: "main", cursor: 12 });  // it stops at the line's end
      expect(model.get("playing")).toBe(0);
      model.send({ type: "play", speed: 4 });  // at the end: from the start
      expect(model.get("cursor")).toBe(0);
      model.send({ type: "play", speed: 0 });  // a pace out of bounds changes nothing
      expect(model.get("playing")).toBe(4);
      model.pause();
    } finally {
      vi.useRealTimers();
    }
  });
});

/** @type {HTMLElement} */
let el;
/** @type {ReturnType<typeof mountPlayer> | null} */
let player = null;
beforeEach(() => {
  el = document.createElement("div");
  document.body.append(el);
});
afterEach(() => {
  player?.cleanup();
  player = null;
  el.remove();
});
const $ = (/** @type {string} */ s) => /** @type {HTMLElement} */ (el.querySelector(s));
const $$ = (/** @type {string} */ s) => /** @type {HTMLElement[]} */ ([...el.querySelectorAll(s)]);
const key = (/** @type {string} */ k) => window.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
const flush = () => new Promise((r) => setTimeout(r, 0));

/**
 * The cards the view shows as the viewer's own: the hand, or solo's row.
 * @param {any} view
 */
const ownCards = (view) => (view.mode === "solo" ? view.row : view.hands[view.seat]).map(String);

describe.each(NAMES)("%s: the page", (name) => {
  const { data, expect: want } = fx(name);
  const mount = () => {
    player = mountPlayer({ layout: LAYOUTS[name], data: fx(name).data, el, animations: false });
    return player;
  };
  const shows = async (/** @type {string} */ line, /** @type {number} */ n) => {
    await flush();
    const row = want[line][n];
    expect($(".cw-history-pos").textContent).toContain(n === 0 ? "start of the game" : `move ${n} of 12`);
    const cards = $$(".cw-player .cw-hand [data-card]").map((c) => String(c.dataset.card));
    expect(cards).toEqual(ownCards(row.view));
    const lines = $$(".cw-log .cw-log-line:not(.cw-muted)").map((l) => l.textContent);
    expect(lines).toEqual(row.narration.slice(-lines.length));
    expect(lines.length).toBe(Math.min(row.narration.length, 300));
  };

  it("draws the game's own table at the exported position, with nothing to play", async () => {
    mount();
    expect($(".cw-export-page .cw-table").dataset.game).toBe(data.game);
    expect($(".cw-export-what").textContent).toMatch(name.endsWith("solo") ? /replay, as seen by you$/ : /replay, as seen by A$/);
    await shows("main", 5);
    expect($$("[data-action]")).toEqual([]);  // no move can be sent from a replay
  });

  it("steps with the buttons, the slider and the keys", async () => {
    const { model } = mount();
    $('[data-control="next"]').click();
    await shows("main", 6);
    $('[data-control="first"]').click();
    await shows("main", 0);
    $('[data-control="last"]').click();
    await shows("main", 12);
    $('[data-control="prev"]').click();
    await shows("main", 11);
    const range = /** @type {HTMLInputElement} */ ($('[data-control="scrub"]'));
    range.value = "3";
    range.dispatchEvent(new Event("change"));
    await shows("main", 3);
    key("ArrowRight");
    await shows("main", 4);
    key("ArrowLeft");
    key("ArrowLeft");
    await shows("main", 2);
    key("End");
    await shows("main", 12);
    key("Home");
    await shows("main", 0);
    key("ArrowLeft");  // already at the start
    expect(model.place().cursor).toBe(0);
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", ctrlKey: true }));
    expect(model.place().cursor).toBe(0);  // a shortcut of the browser's, not ours
  });

  it("switches lines of play and shows each line's notes", async () => {
    mount();
    $('[data-control="branch"][data-branch="branch-1"]').click();
    await shows("branch-1", 12);
    expect($('[aria-pressed="true"][data-control="branch"]').dataset.branch).toBe("branch-1");
    expect($(".cw-export-note-here").hidden).toBe(false);
    expect($(".cw-export-note-here").textContent).toBe("Note on move 12 a note on the branch");
    expect($$(".cw-export-note-list .cw-export-note-text").map((x) => x.textContent)).toEqual(["a note on the shared part", "a note on the branch"]);
    $('[data-control="note"][data-index="5"]').click();
    await shows("branch-1", 6);
    expect($(".cw-export-note-current").dataset.index).toBe("5");
    key("ArrowRight");
    await flush();
    expect($(".cw-export-note-here").hidden).toBe(true);
    $('[data-control="branch"][data-branch="main"]').click();
    await shows("main", 12);
    expect($(".cw-export-note-here").textContent).toContain("the last move of the main line");
  });

  it("cleans up: no table, no key listener", async () => {
    const { model } = mount();
    player?.cleanup();
    player = null;
    expect(el.children.length).toBe(0);
    key("ArrowRight");
    expect(model.place().cursor).toBe(5);
  });
});

describe("boot", () => {
  afterEach(() => { document.body.innerHTML = ""; delete (/** @type {any} */ (window)).cardwidgetsExport; });

  it("reads the page's data and mounts the player", () => {
    document.body.innerHTML = `<div id="cw-export"></div><script type="application/json" id="${DATA_ID}"></script>`;
    /** @type {HTMLElement} */ (document.getElementById(DATA_ID)).textContent = JSON.stringify(fx("depot").data);
    boot(depot);
    const root = /** @type {HTMLElement} */ (document.getElementById("cw-export"));
    expect(root.dataset.ready).toBe("true");
    expect(root.querySelector(".cw-table")?.getAttribute("data-game")).toBe("depot");
    expect((/** @type {any} */ (window)).cardwidgetsExport.model.place()).toEqual({ branch: "main", cursor: 5 });
  });

  it("says in the page why it cannot draw", () => {
    document.body.innerHTML = `<div id="cw-export"></div><script type="application/json" id="${DATA_ID}">{"format": "x"}</script>`;
    const errors = [];
    const log = console.error;
    console.error = (...args) => errors.push(args);
    try {
      boot(depot);
    } finally {
      console.error = log;
    }
    expect(document.querySelector(".cw-export-error")?.textContent).toBe("This replay cannot be shown: not a cardwidgets export");
    expect(errors.length).toBe(1);
    document.body.innerHTML = `<div id="cw-export"></div><script type="application/json" id="${DATA_ID}">${JSON.stringify(fx("depot").data)}</script>`;
    console.error = () => {};
    try {
      boot(cirnoNeu);  // the data of another game
    } finally {
      console.error = log;
    }
    expect(document.querySelector(".cw-export-error")?.textContent).toMatch(/depot data in the cirno_neu player/);
  });
});
