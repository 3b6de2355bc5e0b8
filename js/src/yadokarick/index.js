// Yadokarick table: one entry, three layouts inside the shared frame (lib/frame.js), chosen by
// `view.mode`: the trick modes (standard and advanced; duo with the NPC) and the solo puzzle.
// Holds no rules: a move is offered only because its action string is in `legal`, and Python
// validates and explains everything the player sends.
import "../lib/table.css";
import "./yadokarick.css";
import { h } from "../lib/dom.js";
import { gameWidget } from "../lib/frame.js";
import { parseAction, roofIcon } from "./cards.js";
import { trickChips, trickTurnDetail, trickFelt, trickPlayer, trickOutcome, trickHold } from "./trick.js";
import { soloChips, soloTurnDetail, soloFelt, soloPlayer, soloOutcome } from "./solo.js";

export { parseAction, playNotation, placeNotation, arrangeNotation, cardParts, deckOf, renderYkCard } from "./cards.js";
export { trickModel, whereWent, standing, NPC } from "./trick.js";
export { soloModel, CRABS } from "./solo.js";

export const GAME = "yadokarick";

/**
 * @typedef {import("../lib/frame.js").Frame} Frame
 */

/** @param {Frame} f */
const solo = (f) => f.view.mode === "solo";

/**
 * A last action in words, for the seat's badge.
 * @param {string} action
 * @returns {string}
 */
export function describeAction(action) {
  const p = parseAction(action);
  if (!p) return action;
  switch (p.kind) {
    case "play": return `played ${p.card}`;
    case "move": return p.dir === "stay" ? "left the marker" : `moved the marker ${p.dir}`;
    case "arrange": return `placed ${p.cards.join(", ")}`;
    case "place": return `placed ${p.card} on ${p.crab}`;
    case "giveup": return `gave up crab ${p.crab}`;
    case "draw": return `drew ${p.colour}`;
    case "row": return `first row ${p.colour}`;
    case "take": return `took ${p.card}`;
    default: return "declined the bonus";
  }
}

/** @type {import("../lib/frame.js").Layout} */
export const layout = {
  game: GAME,
  title: "Yadokarick",
  logo: () => roofIcon("cw-roof-icon cw-logo-roof"),
  parse: parseAction,
  chips: (f) => (solo(f) ? soloChips(f) : trickChips(f)),
  turnDetail: (f) => (solo(f) ? soloTurnDetail(f) : trickTurnDetail(f)),
  felt: (f) => h("div", { class: "cw-yk", "data-mode": String(f.view.mode ?? "standard"), "data-phase": String(f.view.phase ?? "") },
    solo(f) ? soloFelt(f) : trickFelt(f)),
  player: (f) => (solo(f) ? soloPlayer(f) : trickPlayer(f)),
  outcome: (f) => (solo(f) ? soloOutcome(f) : trickOutcome(f)),
  hold: trickHold,
  describe: (action) => describeAction(action),
  // solo: a card drawn to the row comes from the deck of its colour
  motion: (f) => ({
    enterFrom: (el) => (solo(f) && el.closest(".cw-row")
      ? f.ctx.root.querySelector(`.cw-deck-${String(el.dataset.card).startsWith("P") ? "pink" : "green"}`) : null),
  }),
  overText: () => "Game over",
  uiKey: (f) => [f.view.mode, f.view.phase, f.view.trick_no, f.view.turns, f.view.row, f.view.arrange],
  onKey(ev, f) {
    // Escape leaves the two-click steps: the selected row card (solo), the arrange order, the hint.
    if (ev.key !== "Escape") return false;
    if (f.local.sel) f.local.sel = null;
    else if (f.local.arrange?.length) f.local.arrange = [];
    else if (f.local.hint) f.local.hint = false;
    else return false;
    return true;
  },
};

export default gameWidget(layout);
