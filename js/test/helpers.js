// The table under test, shared by the vitest files: a fresh element in the page for every test,
// the fake model the table is drawn from, and the queries every table test makes.
import { beforeEach, afterEach } from "vitest";
import depot from "../src/depot/index.js";
import cirnoNeu from "../src/cirno_neu/index.js";
import cryptoTrick from "../src/crypto_trick/index.js";
import yadokarick from "../src/yadokarick/index.js";
import { fakeModel } from "./fake-model.js";
import { scenario } from "./fixtures.js";

export const WIDGETS = { depot, cirno_neu: cirnoNeu, crypto_trick: cryptoTrick, yadokarick };
export const GAMES = /** @type {Array<keyof typeof WIDGETS>} */ (Object.keys(WIDGETS));

/** @type {HTMLElement} the element the table is drawn in (a fresh one per test) */
export let el;
/** @type {ReturnType<typeof fakeModel>} the fake model of the table drawn last */
export let model;
/** @type {(() => void) | undefined} */
let cleanup;

/**
 * Draw a game's table from a fake model holding `traits`.
 * @param {keyof typeof WIDGETS} game @param {Record<string, any>} traits
 */
export function mountTraits(game, traits) {
  model = fakeModel(traits);
  cleanup = WIDGETS[game].render({ model, el });
  return model;
}

/**
 * Draw a game's table from one of its fixture scenarios.
 * @param {keyof typeof WIDGETS} game @param {string} name @param {Record<string, any>} [over] trait overrides
 */
export const mountScenario = (game, name, over = {}) => mountTraits(game, scenario(game, name, over));

/** Take the table down (its cleanup), as the notebook does when the output goes. */
export function unmount() {
  cleanup?.();
  cleanup = undefined;
}

/**
 * Give every test of the calling file a fresh element in the page, and take its table down after.
 * @param {() => void} [after] more to undo after each test (mocks, timers)
 */
export function useTable(after) {
  beforeEach(() => {
    el = document.createElement("div");
    document.body.appendChild(el);
  });
  afterEach(() => {
    unmount();
    el.remove();
    after?.();
  });
}

export const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (el.querySelector(sel));
export const $$ = (/** @type {string} */ sel) => /** @type {HTMLElement[]} */ ([...el.querySelectorAll(sel)]);
export const view = () => model.get("view");
export const handCards = () => $$(".cw-hand [data-card]");
/** The cards drawn under `sel`, by their notation. */
export const cardsIn = (/** @type {string} */ sel) => $$(`${sel} [data-card]`).map((c) => c.dataset.card);
