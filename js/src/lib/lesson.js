// The lesson panel of a table in lesson mode (the `lesson` trait, set by Python): the lesson's
// title and progress, the step's prompt, the feedback of the last attempt with its rule, the
// hint once asked for, and Hint / Restart / Next lesson. A click on a card or a move is an
// attempt (Python answers it in the panel); the panel itself only sends hint, restart and
// next_lesson.
import { h } from "./dom.js";
import { withRuleIds } from "./text.js";

/**
 * What Python syncs for the panel.
 * @typedef {Object} LessonPanel
 * @property {string} id
 * @property {string} title
 * @property {string} [intro]
 * @property {string[]} [rules]
 * @property {string} prompt
 * @property {number} step      steps done
 * @property {number} steps     steps in all
 * @property {boolean} done
 * @property {{ok: boolean, text: string, rule: string | null} | null} feedback
 * @property {string | null} hint
 * @property {boolean} waiting  the other seats' scripted moves are being played
 * @property {string | null} next  the title of the game's next lesson
 */

/**
 * "Step 2 of 4", or "Done: 4 of 4 steps".
 * @param {LessonPanel} l
 */
export function progressText(l) {
  const n = Math.max(0, Number(l.steps) || 0);
  const k = Math.min(Math.max(0, Number(l.step) || 0), n);
  return l.done ? `Done: ${k} of ${n} steps` : `Step ${k + 1} of ${n}`;
}

/**
 * The panel, between the header and the table.
 * @param {import("./frame.js").Frame} f
 * @param {LessonPanel} l
 * @returns {HTMLElement}
 */
export function renderLesson(f, l) {
  const fb = l.feedback && typeof l.feedback === "object" ? l.feedback : null;
  const text = fb ? String(fb.text ?? "") : "";
  // the feedback's rule as a chip, unless its text already names it
  const chip = fb && fb.rule && !text.includes(String(fb.rule))
    ? h("span", { class: "cw-lesson-rule" }, withRuleIds(`(rule ${fb.rule})`)) : null;
  const n = Math.max(1, Number(l.steps) || 1);
  const k = Math.min(Math.max(0, Number(l.step) || 0), n);
  return h("section", { class: ["cw-lesson", l.done && "cw-lesson-done"], "aria-label": `Lesson: ${l.title}`, "data-lesson": l.id }, [
    h("div", { class: "cw-lesson-head" }, [
      h("span", { class: "cw-lesson-badge" }, "Lesson"),
      h("b", { class: "cw-lesson-title" }, String(l.title ?? "")),
      h("span", { class: "cw-lesson-progress", "data-step": k, "data-steps": n }, [
        h("span", { class: "cw-lesson-bar", "aria-hidden": "true" }, h("i", { style: { width: `${(100 * k) / n}%` } })),
        progressText(l),
      ]),
    ]),
    l.intro && k === 0 && !fb ? h("p", { class: "cw-lesson-intro" }, withRuleIds(String(l.intro))) : null,
    h("p", { class: "cw-lesson-prompt" }, withRuleIds(String(l.prompt ?? ""))),
    fb ? h("div", {
      class: ["cw-lesson-feedback", fb.ok ? "cw-lesson-ok" : "cw-lesson-wrong"], "data-ok": String(!!fb.ok), role: "status",
    }, [h("span", { class: "cw-lesson-mark", "aria-hidden": "true" }, fb.ok ? "✓" : "✗"),
      h("span", { class: "cw-lesson-text" }, withRuleIds(text)), chip]) : null,
    l.waiting ? h("p", { class: "cw-lesson-waiting cw-muted" }, "The other players move…") : null,
    l.hint ? h("p", { class: "cw-lesson-hint" }, [h("b", null, "Hint: "), ...withRuleIds(String(l.hint))]) : null,
    h("div", { class: "cw-lesson-actions" }, [
      l.done ? null : h("button", {
        type: "button", class: "cw-btn cw-btn-small", "data-control": "lesson-hint", disabled: !!l.hint,
        title: "a nudge towards the move this step asks for", onClick: () => f.send({ type: "hint" }),
      }, "Hint"),
      h("button", {
        type: "button", class: "cw-btn cw-btn-small cw-btn-quiet", "data-control": "lesson-restart",
        title: "start this lesson again", onClick: () => f.send({ type: "restart" }),
      }, "Restart"),
      l.done && l.next ? h("button", {
        type: "button", class: "cw-btn cw-btn-small cw-btn-primary", "data-control": "lesson-next",
        title: `the next lesson: ${l.next}`, onClick: () => f.send({ type: "next_lesson" }),
      }, `Next lesson: ${l.next} ▸`) : null,
    ]),
  ]);
}
