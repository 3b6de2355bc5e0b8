// @vitest-environment happy-dom
// Tables for teaching: the preview of the move pointed at, play/pause in the scrubber, re-dealt
// lines, and the lesson panel, on positions and lessons the Python tables made (fixtures/).
import { describe, it, expect, vi } from "vitest";
import { PREVIEW_DELAY, moveOf, renderPreview } from "../src/lib/preview.js";
import { progressText } from "../src/lib/lesson.js";
import { scenario, lessonNames, lessonScenario } from "./fixtures.js";
import { model, mountTraits, mountScenario as mount, unmount, useTable, $, $$ } from "./helpers.js";

const previews = () => model.sent().filter((m) => m.type === "preview");
const hover = (node) => node.dispatchEvent(new Event("pointerover", { bubbles: true }));
const leave = (node, to = null) => {
  const ev = new Event("pointerout", { bubbles: true });
  Object.defineProperty(ev, "relatedTarget", { value: to });
  node.dispatchEvent(ev);
};

useTable(() => vi.useRealTimers());

// =========================================================================== previews
describe("the preview of the move pointed at", () => {
  it("asks Python after the pointer rests on a legal move, and shows its answer under the moves", () => {
    vi.useFakeTimers();
    mount("cirno_neu", "mid");
    const action = model.get("legal")[0];
    const card = $(`.cw-main [data-action="${action}"]`);
    hover(card);
    vi.advanceTimersByTime(PREVIEW_DELAY - 1);
    expect(previews()).toEqual([]);  // sweeping over the hand sends nothing
    vi.advanceTimersByTime(1);
    expect(previews()).toEqual([{ type: "preview", action }]);
    expect($(".cw-preview")).toBeNull();  // nothing is computed here
    const lines = ["A plays 5: sum 0 → 5 (rule N3.1).", "Then A draws 1 card (rule N4.7)."];
    model.set("preview", { action, lines });
    const box = $(".cw-player .cw-preview-slot .cw-preview");
    expect(box.dataset.preview).toBe(action);
    expect($$(".cw-preview-line").map((li) => li.textContent)).toEqual(lines);
    expect($$(".cw-preview-rule").map((r) => r.textContent)).toEqual(["N3.1", "N4.7"]);
    leave(card);
    expect($(".cw-preview")).toBeNull();
  });

  it("shows Python's recorded answer: a pass's take, stopping before the refill from the deck", () => {
    mount("depot", "preview_pass");
    const { action, lines } = model.get("preview");
    expect(lines[lines.length - 1]).toBe("Then the Storage is refilled from the deck.");
    const box = renderPreview(model.get("preview"), action);
    expect(box.textContent).toContain("takes");
    expect(renderPreview(model.get("preview"), "play 9")).toBeNull();  // an answer for another move
    expect(renderPreview({ action, lines: [] }, action)).toBeNull();  // a move the viewer may not make
    expect(renderPreview(null, action)).toBeNull();
  });

  it("shows no answer that is late: only the move still pointed at", () => {
    vi.useFakeTimers();
    mount("crypto_trick", "preview_give");
    const [first, second] = model.get("legal");
    hover($(`.cw-main [data-action="${first}"]`));
    vi.advanceTimersByTime(PREVIEW_DELAY);
    hover($(`.cw-main [data-action="${second}"]`));
    model.set("preview", { action: first, lines: ["late"] });
    expect($(".cw-preview")).toBeNull();
    vi.advanceTimersByTime(PREVIEW_DELAY);
    expect(previews().map((m) => m.action)).toEqual([first, second]);
  });

  it("asks nothing for a control that is not a legal move, nor while it is not the viewer's turn", () => {
    vi.useFakeTimers();
    mount("yadokarick", "thinking");
    expect(model.get("legal")).toEqual([]);
    for (const node of $$(".cw-main [data-card], .cw-main button")) hover(node);
    vi.advanceTimersByTime(1000);
    expect(previews()).toEqual([]);
    expect(moveOf(null)).toBeNull();
    expect(moveOf($(".cw-history [data-control]"))).toBeNull();  // the scrubber is no move
  });

  it("follows the keyboard's focus too", () => {
    vi.useFakeTimers();
    mount("yadokarick", "duo_preview", { preview: null });
    const action = model.get("legal")[0];
    const node = $(`.cw-main [data-action="${action}"]`);
    node.focus();
    vi.advanceTimersByTime(PREVIEW_DELAY);
    expect(previews()).toEqual([{ type: "preview", action }]);
    model.set("preview", scenario("yadokarick", "duo_preview").preview);
    expect($(".cw-preview").textContent).toContain("Then the NPC turns over the top card of its deck.");
  });

  it("never hides a refusal on show, and is asked again at the next position", () => {
    vi.useFakeTimers();
    mount("cirno_neu", "refused");
    expect($(".cw-error")).not.toBeNull();
    const action = model.get("legal")[0];
    const node = $(`.cw-main [data-action="${action}"]`);
    node.focus();
    vi.advanceTimersByTime(PREVIEW_DELAY);
    expect(previews().length).toBe(1);
    expect($(".cw-error")).not.toBeNull();
    expect(model.sent().filter((m) => m.type === "clear_error")).toEqual([]);
    // a new position (Python cleared the preview): the focused move is asked for again
    model.update({ preview: null, cursor: model.get("cursor"), narration: [...model.get("narration"), "x"] });
    vi.advanceTimersByTime(PREVIEW_DELAY);
    expect(previews().length).toBe(2);
  });

  it("a preview answer does not redraw the table", () => {
    mount("depot", "preview_pass", { preview: null });
    const felt = $(".cw-felt");
    model.set("preview", scenario("depot", "preview_pass").preview);
    expect($(".cw-felt")).toBe(felt);
  });
});

// =========================================================================== replays
describe("play and pause in the scrubber", () => {
  it("plays a line and pauses it", () => {
    mount("depot", "past_bot");
    $('[data-control="replay-play"]').click();
    expect(model.sent()).toEqual([{ type: "play" }]);
    model.set("playing", 2);
    expect($('[data-control="replay-play"]')).toBeNull();
    expect($(".cw-past").textContent).toContain("Playing the line: move");
    expect($(".cw-past").classList.contains("cw-past-playing")).toBe(true);
    $('.cw-history [data-control="replay-pause"]').click();
    $('.cw-past [data-control="replay-pause"]').click();
    expect(model.sent().slice(1)).toEqual([{ type: "pause" }, { type: "pause" }]);
  });

  it("draws the recorded replay of seat B as it plays", () => {
    mount("depot", "playing");
    const pos = model.get("cursor");
    expect(model.get("playing")).toBe(2);
    expect(model.get("view").seat).toBe(1);
    expect($(".cw-history-pos").textContent).toBe(`move ${pos} of ${model.get("history_len")}`);
    expect($('.cw-history [data-control="replay-pause"]').getAttribute("aria-pressed")).toBe("true");
    model.update({ cursor: pos + 1 });
    expect($(".cw-history-pos").textContent).toBe(`move ${pos + 1} of ${model.get("history_len")}`);
  });

  it("has nothing to play before the first move", () => {
    mount("depot", "start");
    expect($('[data-control="replay-play"]').hasAttribute("disabled")).toBe(true);
  });
});

describe("a line a seated player started in the past", () => {
  it.each([["depot"], ["cirno_neu"]])("%s: is marked as re-dealt, and the banner says so", (game) => {
    mount(game, "branch");
    const dealt = $$(".cw-branch-dealt");
    expect(dealt.length).toBe(1);
    expect(dealt[0].dataset.dealtFor).toBe("0");
    expect(dealt[0].closest("[data-branch]").getAttribute("title")).toContain("were dealt again");
  });

  it("the past banner of a seated player's turn says the unseen cards are dealt again", () => {
    mount("depot", "past_own");
    expect($(".cw-past").textContent).toContain("where the cards you have not seen are dealt again");
    unmount();
    mount("depot", "teacher", { cursor: 1 });
    expect($(".cw-past").textContent).not.toContain("dealt again");
  });
});

// =========================================================================== lessons
describe("the lesson panel", () => {
  it.each(lessonNames())("%s: draws with its game's table", (name) => {
    const { game, traits } = lessonScenario(name);
    mountTraits(game, traits);
    const l = traits.lesson;
    const panel = $(".cw-lesson");
    expect(panel.dataset.lesson).toBe(l.id);
    expect($(".cw-lesson-title").textContent).toBe(l.title);
    expect($(".cw-lesson-progress").textContent).toBe(progressText(l));
    expect($(".cw-lesson-prompt").textContent).toBe(l.prompt);
    expect($(".cw-render-error")).toBeNull();
    expect(panel.nextElementSibling?.classList.contains("cw-body") || panel.nextElementSibling?.classList.contains("cw-past")).toBe(true);
    if (l.feedback) {
      expect($(".cw-lesson-feedback").dataset.ok).toBe(String(l.feedback.ok));
      expect($(".cw-lesson-text").textContent).toBe(l.feedback.text);
      if (l.feedback.rule) expect($(`.cw-lesson-feedback .cw-rule[data-rule="${l.feedback.rule}"]`)).not.toBeNull();
    } else expect($(".cw-lesson-feedback")).toBeNull();
  });

  it("says the step and the progress", () => {
    expect(progressText({ step: 0, steps: 2, done: false })).toBe("Step 1 of 2");
    expect(progressText({ step: 2, steps: 2, done: true })).toBe("Done: 2 of 2 steps");
  });

  it("sends a click on a card as an attempt, and shows the engine's refusal with its rule", () => {
    const start = lessonScenario("cirno_neu_start");
    mountTraits(start.game, start.traits);
    expect($(".cw-lesson-intro")).not.toBeNull();
    $('.cw-hand [data-card="10"]').click();  // not playable now: sent, so that Python explains why
    expect(model.sent()).toEqual([{ type: "act", action: "play 10" }]);
    unmount();
    const refused = lessonScenario("cirno_neu_refused");
    mountTraits(refused.game, refused.traits);
    expect($(".cw-lesson-wrong .cw-rule[data-rule='N4.3']").getAttribute("title")).toMatch(/^N4\.3 · /);
    expect($(".cw-error")).toBeNull();  // the panel says it, not a refusal banner
    $(".cw-lesson-feedback .cw-rule").click();
    expect($(".cw-rule-card").textContent).toContain("N4.3");
  });

  it("asks for a hint, restarts, and goes on to the next lesson", () => {
    const start = lessonScenario("depot_start");
    mountTraits(start.game, start.traits);
    $('[data-control="lesson-hint"]').click();
    $('[data-control="lesson-restart"]').click();
    expect(model.sent()).toEqual([{ type: "hint" }, { type: "restart" }]);
    expect($('[data-control="lesson-next"]')).toBeNull();
    unmount();
    const hint = lessonScenario("depot_hint");
    mountTraits(hint.game, hint.traits);
    expect($(".cw-lesson-hint").textContent).toBe(`Hint: ${hint.traits.lesson.hint}`);
    expect($('[data-control="lesson-hint"]').hasAttribute("disabled")).toBe(true);
    unmount();
    const done = lessonScenario("depot_done");
    mountTraits(done.game, done.traits);
    expect($(".cw-lesson").classList.contains("cw-lesson-done")).toBe(true);
    expect($('[data-control="lesson-hint"]')).toBeNull();
    const next = $('[data-control="lesson-next"]');
    expect(next.textContent).toContain(done.traits.lesson.next);
    next.click();
    expect(model.sent()).toEqual([{ type: "next_lesson" }]);
  });

  it("shows the scripted replies coming, one after another", () => {
    const s = lessonScenario("cirno_neu_waiting");
    mountTraits(s.game, s.traits);
    expect($(".cw-lesson-waiting").textContent).toBe("The other players move…");
    expect($(".cw-lesson-ok")).not.toBeNull();
    model.update({ lesson: { ...s.traits.lesson, waiting: false, step: 1, prompt: "Next step" } });
    expect($(".cw-lesson-waiting")).toBeNull();
    expect($(".cw-lesson-progress").textContent).toBe("Step 2 of 2");
  });
});
