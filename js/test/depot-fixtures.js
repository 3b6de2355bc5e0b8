// Realistic Depot views and legal lists, shaped exactly like the widget contract.

export const HAND = [1, 2, 3, 5, 5, 6, 7, 8];
export const STORAGE = [2, 4, 5, 5, 6];

/** Legal passes for a hand and Storage: take each value, give nothing or any other value. */
export function passes(hand, storage) {
  const out = [];
  for (const t of [...new Set(storage)]) {
    out.push(`pass take ${t}`);
    for (const g of [...new Set(hand)]) if (g !== t) out.push(`pass take ${t} give ${g}`);
  }
  return out;
}

/** @param {Record<string, any>} [over] */
export function depotView(over = {}) {
  return {
    game: "depot", players: 4, names: ["A", "B", "C", "D"], seat: 0,
    phase: "respond", current: 0, round: 3, game_no: 1, games: 1, target: 5,
    storage: STORAGE, set_limit: 2, run_limit: 3,
    standing: { owner: 3, cards: [3, 4] }, passes: 1,
    deck_count: 40, discard: [1, 1, 2],
    hands: [HAND, null, null, null], hand_counts: [8, 9, 9, 8],
    lost_points: [0, 0, 0, 0], penalties: [[], [], [], []],
    last_action: { seat: 3, action: "play 3 4" }, outcome: null,
    ...over,
  };
}

export const PLAYS = ["play 5 5", "play 6 7"];

/** @param {Record<string, any>} [over] trait overrides */
export function traits(over = {}) {
  return {
    game: "depot",
    view: depotView(),
    legal: [...PLAYS, ...passes(HAND, STORAGE)],
    log: [
      "B leads [1,1] (set of 2, total 2) — rule D4.8.",
      "C passes (D6): takes the 4, gives a 1.",
      "D plays [3,4] (run of 2, total 7; limits: set 2, run 3). It beats [1,1] (2 cards, total 2) — rule D4.6.",
    ],
    cursor: 3, history_len: 3,
    last_error: "", thinking: false, bot_seats: [1, 2, 3],
    ...over,
  };
}
