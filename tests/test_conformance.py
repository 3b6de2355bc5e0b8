"""One conformance suite for every registered game, mode, player count and option.

The configurations come from each game's ``SPEC`` (every mode, player count and
allowed option value), plus the combinations below that single options cannot
reach. Each runs a seeded random game through the whole engine contract of
``kit.playout``: legal list non-empty unless over, enumeration and diagnosis
agree, refusals cite a rule and change nothing, views are JSON-safe, clones are
independent, ``to_dict``/JSON/pickle round trips, the fast path equals the
narrated path, every cited rule resolves, cards are conserved, the game ends
within its declared bound, the replay rebuilds it, and noninterference: a seat
gets the same answers in twin positions it cannot tell apart.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

import kit
from cardwidgets import Replay, available_games, game_spec
from cardwidgets.games import game_module

#: Combinations that one option at a time does not reach (options that only act together).
COMBOS = {
    "depot": [
        dict(players=5, starting_player="random"),
        dict(players=5, games=3, penalty_mode="greedy", penalty_cards_leave_play=False,
             next_game_starter="rotate", match_tie="last_game_rank", rank_tiebreak="random"),
        dict(players=3, games=3, next_game_starter="winner", refill_target="noted", reshuffle_timing="when_empty"),
    ],
    "cirno_neu": [
        dict(players=8, life_system=True, lives=3),
        dict(players=3, first_dealer="random", shot_resume="after_target", shot_self_target=True,
             double_draw_timing="after_each", pass_ends_double_turn=True),
        dict(players=5, life_system=True, auto_forced_bust=False, floor_at_zero=True,
             next_round_starter="rotate", reset_direction_each_round=False),
        dict(players=8, allow_voluntary_bust=True, next_round_starter="after_loser", hand_size=2,
             limit=60, set_value=55),
        dict(players=2, life_system=True, deck_counts={"1": 4, "5": 4, "10": 4, "50": 2, "-10": 2, "99": 2,
                                                       "PASS": 2, "TURN": 2, "SHOT": 2, "DOUBLE": 2, "DSHOT": 2}),
    ],
    "crypto_trick": [
        dict(players=2, rounds=1, first_player=1, numbers=[0, 2, 4, 6, 8, 10], block_numbers=[4, 6],
             white_cards=[(3, True), (10, False)]),
        dict(players=5, trump_follow_unified=True, trump_ranking="white_high", exchange_visibility="public",
             won_pile_visibility="block_count_only", declaration_mode="single_pass_first"),
        dict(players=3, colors=["G", "P", "Y"], first_player="random", overload_score="negative_count", rounds=4,
             color_labels={"G": "Greenback"}),
        dict(players=4, block_numbers=[], white_cards=[(1, True), (6, True)], declaration_mode="single_pass_first",
             trump_follow_unified=True, won_pile_visibility="block_count_only"),
    ],
    "yadokarick": [
        dict(mode="standard", players=3, card_set="advanced", three_player_color="pink",
             three_player_capture="largest_size", placement_order="choose", rounds=2),
        dict(mode="standard", players=3, placement_order="choose", house_limit=4, rounds=2),
        dict(mode="standard", players=4, card_set="advanced", placement_order="choose", tie_leader="last_actual_mover",
             collapsed_visibility="count_only", rounds=2),
        dict(mode="standard", players=5, card_set="advanced", dealer=2, dealer_rotation="fixed", rounds=2),
        dict(mode="standard", players=6, card_set="advanced", reset_marker_each_round=False, size_track=(9, 13),
             marker_start=10, rounds=2),
        dict(mode="standard", players=7, placement_order="choose", house_limit=3, roof_numbers=[5, 15, 25],
             size_table={1: 4, "P36": 0, 20: 2}, rounds=2),
        dict(mode="duo", players=2, npc_seat=0, duo_first_leader=1, duo_color="pink",
             collapsed_visibility="count_only"),
        dict(mode="duo", players=2, npc_seat=2, duo_first_leader=1, duo_roofs=False, house_limit=4),
        dict(mode="duo", players=2, size_table={10: 0, 20: 0, 30: 0}, roof_numbers=[10, 20, 30, 35]),
        dict(mode="solo", players=1, solo_initial_row="one_color", solo_bonus_on_setup=True, solo_bonus_chain=False),
        dict(mode="solo", players=1, solo_roof_insert_nonstrict=False, solo_house_complete=5, solo_removed=[30, 1, 2]),
        dict(mode="solo", players=1, roof_numbers=[5, 15, 25, 35], size_table={"G7": 9}, solo_house_complete=9),
    ],
}


def _cases() -> list[tuple[str, dict]]:
    out = []
    for game in available_games():
        for cfg in kit.spec_configs(game_spec(game)) + COMBOS.get(game, []):
            out.append((game, cfg))
    return out


CASES = _cases()
IDS = [f"{g}:{kit.label(c)}" for g, c in CASES]
_VOCAB: dict[tuple, list[str]] = {}


def vocab(game: str, cfg: dict) -> list[str]:
    key = (game, kit.label(cfg))
    if key not in _VOCAB:
        _VOCAB[key] = kit.vocabulary(game_module(game), cfg)
    return _VOCAB[key]


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_random_playout_keeps_the_contract(game, cfg, report):
    counts = kit.playout(game, cfg, seed=1, vocab=vocab(game, cfg))
    report("conformance", game, configurations=1, steps=counts["steps"], refusals=counts["refusals"],
           previews=counts["previews"])
    report("noninterference", game, twin_positions=counts["twins"])


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_fast_path_equals_narrated_path(game, cfg):
    assert kit.fast_path_matches(game, cfg, range(100, 104)) > 0


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_a_save_is_its_start_with_its_history_played(game, cfg):
    """A game that has moved is its seed's deal with its history played: a history or a seed
    changed by hand is refused (it would load and then fail to replay); an untouched save
    loads and replays to itself; a hand-built start may not have a start of its own."""
    mod = game_module(game)
    st = mod.new_game(seed=1, **cfg)
    d = st.to_dict()
    d["history"] = [str(st.legal_actions()[0])] * 5
    with pytest.raises(ValueError):
        mod.from_dict(d)
    rng = random.Random(1)
    for _ in range(12):
        if not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
    d = st.to_dict()
    assert Replay.from_state(mod.from_dict(d)).build() == st
    with pytest.raises(ValueError):
        mod.from_dict(dict(d, seed=d["seed"] + 1, rng=[d["rng"][0] + 1, d["rng"][1]]))
    inner = {k: v for k, v in d.items() if k != "history"}
    for depth in (1, 3000):
        nested = inner
        for _ in range(depth):
            nested = dict(inner, position=nested)
        with pytest.raises(ValueError, match="start of its own"):
            mod.from_dict(dict(d, position=nested))


def test_every_game_has_a_spec_and_a_table():
    for game in available_games():
        spec = game_spec(game)
        assert spec.name == game and spec.title and spec.table and spec.version >= 1
        assert spec.phase("finished") is not None
        mod = game_module(game)
        for name in ("new_game", "parse_action", "from_dict"):
            assert callable(getattr(mod, name)), f"{game} has no {name}"


@pytest.mark.parametrize("game", available_games())
def test_options_contract(game):
    spec = game_spec(game)
    mod = game_module(game)
    mode = spec.modes[0]
    base = {"players": mode.players[0]} | ({"mode": mode.name} if len(spec.modes) > 1 else {})
    with pytest.raises(TypeError, match="unknown option"):
        mod.new_game(**base, no_such_option=1)
    for bad in (0, 99, 4.0, True, "4", None):
        with pytest.raises(ValueError, match="players"):
            mod.new_game(**{**base, "players": bad})
    for opt in spec.options_for(mode.name):
        with pytest.raises(ValueError, match="allowed"):
            mod.new_game(**base, **{opt.name: object()})
    for m in spec.modes:
        for opt in spec.options:
            if opt.modes is not None and m.name not in opt.modes:
                with pytest.raises(ValueError, match="does not apply"):
                    mod.new_game(players=m.players[0], mode=m.name, **{opt.name: opt.default})


@pytest.mark.parametrize("game", available_games())
def test_same_game_in_another_process(game):
    """Seeds replay the same game in a fresh interpreter with another hash seed."""
    cfg = {"players": game_spec(game).modes[0].players[0]}
    code = ("import random, json, sys; from cardwidgets.games import game_module as g; "
            f"st = g({game!r}).new_game(seed=77, **{cfg!r}); r = random.Random(5)\n"
            "while not st.is_terminal: st.apply(r.choice(st.legal_actions()))\n"
            "print(json.dumps(st.to_dict(), sort_keys=True))")
    outs = set()
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        outs.add(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                env=env).stdout)
    assert len(outs) == 1
