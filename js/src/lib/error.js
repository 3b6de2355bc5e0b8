// The error banner: shows the refusal Python sent back (`last_error`), rule ID emphasised.
import { h } from "./dom.js";
import { withRuleIds } from "./text.js";

/**
 * Render the error banner, or nothing when there is no error.
 * @param {string} message  `last_error` ("" = none)
 * @param {() => void} onClose  called by the close button (sends clear_error)
 * @returns {HTMLElement | null} `.cw-error[role=alert]`
 */
export function renderError(message, onClose) {
  if (!message) return null;
  return h("div", { class: "cw-error", role: "alert" }, [
    h("span", { class: "cw-error-icon", "aria-hidden": "true" }, "!"),
    h("span", { class: "cw-error-text" }, withRuleIds(message)),
    h("button", {
      type: "button", class: "cw-error-close", "data-control": "clear-error",
      title: "Dismiss", "aria-label": "Dismiss the message", onClick: onClose,
    }, "×"),
  ]);
}
