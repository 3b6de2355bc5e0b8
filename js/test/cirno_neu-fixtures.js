// Realistic cirno+neu views and legal lists, shaped exactly like CirnoNeuState.view(seat).

export const HAND = ["7", "9", "SHOT"];

/** @param {Record<string, any>} [over] */
export function neuView(over = {}) {
  return {
    game: "cirno_neu", players: 4, names: ["A", "B", "C", "D"], seat: 0,
    phase: "AWAIT_CARD", current: 0, round: 2, turn_no: 14, sum: 91, limit: 99,
    direction: 1, clockwise: true, dealer: 3,
    stack_top: ["10", "-10", "TURN", "50", "8"], stack_size: 12, draw_count: 31,
    turn: { actor: 0, anchor: 0, kind: "normal", required: 1, played: 0, shot_target: null, double_next: false },
    pending: { shot_target: null, double_next: false },
    hands: [HAND, null, null, null], hand_counts: [3, 3, 3, 3],
    life_system: true, chips: [2, 1, 2, 2],
    active: [true, true, true, true], eliminated: [],
    last_action: { seat: 3, action: "play 4" },
    revealed: null, outcome: null,
    ...over,
  };
}

/** @param {Partial<ReturnType<typeof neuView>["turn"]>} over */
export function turn(over) {
  return { actor: 0, anchor: 0, kind: "normal", required: 1, played: 0, shot_target: null, double_next: false, ...over };
}

export const LEGAL = ["play 7", "play shot @1", "play shot @2", "play shot @3"];

/** @param {Record<string, any>} [over] trait overrides */
export function traits(over = {}) {
  return {
    game: "cirno_neu",
    view: neuView(),
    legal: LEGAL,
    log: [
      "C plays 50: sum 29 → 79 (rule N3.1).",
      "C draws 1 card (rule N4.7).",
      "D plays 4: sum 87 → 91 (rule N3.1).",
    ],
    cursor: 14, history_len: 14,
    last_error: "", thinking: false, bot_seats: [1, 2, 3],
    ...over,
  };
}
