"""Fingerprints of the fast lane's output: one sha256 line per batch configuration and per game's
rollouts, to diff before and after a change to a kernel that must not change what it plays.

    python benchmarks/lane_fingerprints.py [--games 3000] [--only crypto_trick,yadokarick] > before.txt
    (change a kernel)
    python benchmarks/lane_fingerprints.py [same options] > after.txt && diff before.txt after.txt

A batch line hashes every array of a :class:`~cardwidgets.fast.Batch` (starters, winners, scores,
lengths, reasons, actions, chance streams) of ``--games`` seeds, for random, greedy and mixed
seats; the mixed line also hashes the legal lists of 300 games (``legal=True``). A rollout line
hashes ``rollout_trace`` (reward, actions, chance) of sampled mid-game worlds with both policies,
to the end, 4 actions and the round's end, three seeds each. Every mode and a few option sets per
game. Prints figures; asserts nothing. Delete numba's cache (``__pycache__/*.nb[ic]`` next to the
kernels) first when a helper module changed: a cached kernel does not see a change in a module it
calls.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from cardwidgets import fast  # noqa: E402
from cardwidgets.bots.ismcts import ROUND_FIELDS  # noqa: E402

#: (players, mode, options) per game: every mode, the defaults and a few option sets.
BATCHES: dict[str, list[tuple[int, str | None, dict[str, Any]]]] = {
    "depot": [(3, None, {}), (4, None, {}),
              (5, None, {"refill_target": "noted", "reshuffle_timing": "when_empty", "starting_player": "random"}),
              (4, None, {"games": 3, "rank_tiebreak": "random", "penalty_mode": "greedy",
                         "penalty_cards_leave_play": False, "next_game_starter": "rotate",
                         "match_tie": "last_game_rank"}),
              (4, None, {"max_turns": 40})],
    "cirno_neu": [(2, None, {}), (4, None, {"life_system": True}),
                  (6, None, {"double_draw_timing": "after_each", "pass_ends_double_turn": True,
                             "first_dealer": "random"}),
                  (4, None, {"auto_forced_bust": False, "allow_voluntary_bust": True, "floor_at_zero": True}),
                  (3, None, {"shot_resume": "after_target", "shot_self_target": True, "next_round_starter": "rotate",
                             "reset_direction_each_round": False, "limit": 50, "set_value": 40})],
    "crypto_trick": [(2, None, {}), (4, None, {}), (3, None, {"first_player": "random", "rounds": 2}),
                     (4, None, {"declaration_mode": "single_pass_first", "trump_follow_unified": True}),
                     (5, None, {"trump_ranking": "white_high", "overload_score": "negative_count",
                                "first_player": 2}),
                     (3, None, {"numbers": [2, 3, 5, 7, 11, 13], "block_numbers": [2, 13],
                                "white_cards": [(3, True), (13, False)], "colors": ["G", "P", "Y"], "rounds": 2,
                                "won_pile_visibility": "block_count_only"})],
    "yadokarick": [(3, "standard", {}), (4, "standard", {}), (5, "standard", {"card_set": "advanced"}),
                   (7, "standard", {}), (4, "standard", {"placement_order": "choose"}),
                   (3, "standard", {"placement_order": "choose", "card_set": "advanced",
                                    "three_player_capture": "largest_size", "three_player_color": "pink"}),
                   (5, "standard", {"tie_leader": "last_actual_mover", "dealer": 2, "dealer_rotation": "fixed",
                                    "rounds": 2, "reset_marker_each_round": False, "size_track": (9, 13),
                                    "marker_start": 12, "house_limit": 4}),
                   (2, "duo", {}), (2, "duo", {"npc_seat": 0, "duo_first_leader": 1, "duo_color": "pink"}),
                   (2, "duo", {"npc_seat": 2, "duo_roofs": False, "house_limit": 3,
                               "collapsed_visibility": "count_only"}),
                   (1, "solo", {}),
                   (1, "solo", {"solo_initial_row": "one_color", "solo_removed": [30, 12, 5],
                                "solo_house_complete": 5}),
                   (1, "solo", {"solo_initial_row": "one_color", "solo_bonus_chain": False,
                                "solo_bonus_on_setup": True, "solo_roof_insert_nonstrict": False})],
}
FIELDS = ("starter", "winners", "scores", "length", "aborted", "reasons", "actions", "action_start", "chance",
          "chance_start")


def digest(*parts: Any) -> str:
    """The first 16 hex digits of the sha256 of arrays (dtype and bytes) and other values (repr)."""
    h = hashlib.sha256()
    for p in parts:
        if isinstance(p, np.ndarray):
            h.update(str(p.dtype).encode())
            h.update(np.ascontiguousarray(p).tobytes())
        else:
            h.update(repr(p).encode())
    return h.hexdigest()[:16]


def batches(game: str, games: int) -> None:
    mod = fast.kernel(game)
    seeds = np.arange(games, dtype=np.int64) * 7919 + 11
    for players, mode, options in BATCHES[game]:
        for mix in ("random", "greedy", "mixed"):
            bots = mix if mix != "mixed" else ["greedy" if s % 2 else "random" for s in range(players)]
            batch = fast.play(game, seeds, bots=bots, players=players, mode=mode, **options)
            line = f"batch {game} {players} {mode} {options} {mix}: {digest(*[getattr(batch, f) for f in FIELDS])}"
            if mix == "mixed":
                m, n, o = fast.resolve(game, players, mode, options)
                kinds = tuple(mod.COVERAGE.bots[b] for b in bots)
                lb = mod.play(seeds[:300], n, m, o, kinds, legal=True)
                line += " legal " + digest(*[getattr(lb, f) for f in FIELDS], lb.legal, lb.legal_start)
            print(line, flush=True)


def rollouts(game: str) -> None:
    from fast_check import mid_game_worlds

    mod = fast.kernel(game)
    configs = [(p, mode, o, "greedy" if i % 2 else "random") for i, (p, mode, o) in enumerate(BATCHES[game])]
    traces = []
    for _, world in mid_game_worlds(game, configs, 8, seed=3, max_moves=60):
        for policy in ("random", "greedy"):
            if mod.rollout_problem(world, policy) is not None:
                continue
            for steps, by_round in ((None, False), (4, False), (None, True)):
                round0 = getattr(world, ROUND_FIELDS[game], None) if by_round else None
                for seed in (1, 2, 3):
                    traces.append(mod.rollout_trace(world, policy, steps, round0, seed))
    print(f"rollouts {game} {len(traces)}: {digest(traces)}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="games per batch configuration and bot mix")
    ap.add_argument("--only", help="comma-separated games (default: every game with a kernel)")
    args = ap.parse_args()
    why = fast.unavailable()
    if why is not None:
        sys.exit(why)
    games = args.only.split(",") if args.only else [g for g in fast.GAMES if fast.kernel(g) is not None]
    for game in games:
        batches(game, args.games)
        if hasattr(fast.kernel(game), "rollout_trace"):
            rollouts(game)


if __name__ == "__main__":
    main()
