// The layout every table shares: header; the felt, error banner and player area on
// the left; the narration log and the history scrubber on the right.
import { h } from "./dom.js";
import { renderError } from "./error.js";
import { renderHistory } from "./history.js";
import { renderLog } from "./log.js";

/**
 * @param {import("./table.js").TableContext} ctx
 * @param {{header: HTMLElement, felt: Array<Node | null>, playerArea: Node | null,
 *          cursor: number, historyLen: number}} parts
 */
export function renderLayout(ctx, { header, felt, playerArea, cursor, historyLen }) {
  const main = h("div", { class: "cw-main" }, [
    h("div", { class: "cw-felt" }, felt),
    renderError(ctx.get("last_error") || "", () => ctx.send({ type: "clear_error" })),
    playerArea,
  ]);
  const side = h("aside", { class: "cw-side" }, [
    renderLog(ctx.get("narration") || []),
    renderHistory({
      cursor, length: historyLen,
      onGoto: (index) => ctx.send({ type: "goto", index }),
      onUndo: () => ctx.send({ type: "undo" }),
    }),
  ]);
  ctx.root.append(header, h("div", { class: "cw-body" }, [main, side]));
}
