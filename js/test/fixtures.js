// Trait values made by the Python engines (tests/test_js_fixtures.py writes fixtures/<game>.json):
// the tests draw real positions, never hand-written views.
import depot from "./fixtures/depot.json";
import cirnoNeu from "./fixtures/cirno_neu.json";
import cryptoTrick from "./fixtures/crypto_trick.json";
import yadokarick from "./fixtures/yadokarick.json";
import lessons from "./fixtures/lessons.json";

const FILES = { depot, cirno_neu: cirnoNeu, crypto_trick: cryptoTrick, yadokarick };

/**
 * The synced traits of one scenario (a deep copy, with the game's rules), with overrides.
 * @param {keyof typeof FILES} game
 * @param {string} name a scenario of fixtures/<game>.json
 * @param {Record<string, any>} [over] trait overrides
 * @returns {Record<string, any>}
 */
export function scenario(game, name, over = {}) {
  const file = FILES[game];
  const s = file.scenarios[name];
  if (!s) throw new Error(`no scenario ${name} in fixtures/${game}.json`);
  return structuredClone({ ...s.traits, rules: file.rules, ...over });
}

/** @param {keyof typeof FILES} game @returns {string[]} */
export const scenarioNames = (game) => Object.keys(FILES[game].scenarios);

/** @param {keyof typeof FILES} game */
export const rulesOf = (game) => FILES[game].rules;

/** @returns {string[]} the scenarios of fixtures/lessons.json (lesson tables of every game) */
export const lessonNames = () => Object.keys(lessons.scenarios);

/**
 * A lesson table's synced traits (with its game's rules), and its game.
 * @param {string} name
 * @param {Record<string, any>} [over]
 * @returns {{game: keyof typeof FILES, traits: Record<string, any>}}
 */
export function lessonScenario(name, over = {}) {
  const s = /** @type {any} */ (lessons.scenarios)[name];
  if (!s) throw new Error(`no scenario ${name} in fixtures/lessons.json`);
  return { game: s.game, traits: structuredClone({ ...s.traits, rules: FILES[/** @type {keyof typeof FILES} */ (s.game)].rules, ...over }) };
}
