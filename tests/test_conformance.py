"""One conformance suite for every game and mode (pgx/OpenSpiel style).

Seeded random playouts check, at every step, the engine contract of DESIGN.md:
legal list non-empty unless over, enumeration and diagnosis agree, refusals change
nothing, clone independence, to_dict (and JSON) round trip, views hide what they
must and are JSON-safe, cards are conserved, narration cites rules, the game ends,
and the replay of a finished game rebuilds it exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from cardwidgets import IllegalActionError, InvalidActionError, Replay, available_games, game_module


# --------------------------------------------------------------------------- per-game knobs
def depot_candidates(rng: random.Random) -> list[str]:
    """Legal and illegal action texts to cross-check enumeration against diagnosis."""
    out = ["pass"] + [f"pass give {g}" for g in range(1, 9)]
    out += [f"pass take {t}" + (f" give {g}" if g else "") for t in range(1, 9) for g in range(0, 9)]
    out += [f"play {v}" for v in range(1, 9)]
    out += ["play " + " ".join([str(v)] * k) for v in range(1, 9) for k in range(2, 5)]
    out += ["play " + " ".join(str(v) for v in range(s, s + k)) for k in range(2, 6) for s in range(1, 10 - k)]
    out += ["play " + " ".join(str(rng.randint(1, 8)) for _ in range(rng.randint(2, 5))) for _ in range(10)]
    return out


def hands_hidden(st, seat: int | None, view: dict[str, Any], secret: str) -> None:
    """Own hand (or all, for the teacher) shown; others only as counts; ``secret`` teacher-only."""
    for s, hand in enumerate(view["hands"]):
        if seat is None or s == seat:
            assert hand == st.hand(s)
        else:
            assert hand is None, "another seat's hand leaked into the view"
    assert view["hand_counts"] == [len(st.hand(s)) for s in range(st.players)]
    assert (secret in view) == (seat is None), f"{secret} is for the teacher view only"


def depot_view_check(st, seat: int | None, view: dict[str, Any]) -> None:
    hands_hidden(st, seat, view, "deck")


CIRNO_TOKENS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⑨", "10", "50", "-1", "-10", "99",
                "pass", "turn", "shot", "double", "dshot"]


def cirno_neu_candidates(rng: random.Random) -> list[str]:
    """Every card with no target and with each target (legal and illegal ones)."""
    out = [f"play {c}" for c in CIRNO_TOKENS]
    out += [f"play {c} @{t}" for c in ("shot", "dshot", rng.choice(CIRNO_TOKENS)) for t in range(9)]
    return out


def cirno_neu_view_check(st, seat: int | None, view: dict[str, Any]) -> None:
    hands_hidden(st, seat, view, "draw_pile")
    assert view["sum"] == st.sum and view["current"] == st.current_player


#: game -> (list of new_game kwargs covering every mode, candidate generator, view check)
CONFIGS: dict[str, tuple[list[dict[str, Any]], Callable, Callable]] = {
    "depot": (
        [
            dict(players=3),
            dict(players=4),
            dict(players=5, starting_player="random"),
            dict(players=4, games=3),
            dict(players=5, games=3, penalty_mode="greedy", penalty_cards_leave_play=False,
                 next_game_starter="rotate", match_tie="last_game_rank", rank_tiebreak="random"),
            dict(players=3, games=3, next_game_starter="winner", refill_target="noted",
                 reshuffle_timing="when_empty"),
        ],
        depot_candidates,
        depot_view_check,
    ),
    "cirno_neu": (
        [
            dict(players=2),
            dict(players=3, life_system=True),
            dict(players=5),
            dict(players=8, life_system=True, lives=3),
            dict(players=3, first_dealer="random", shot_resume="after_target", shot_self_target=True,
                 double_draw_timing="after_each", pass_ends_double_turn=True),
            dict(players=5, life_system=True, auto_forced_bust=False, floor_at_zero=True,
                 next_round_starter="rotate", reset_direction_each_round=False),
            dict(players=8, allow_voluntary_bust=True, next_round_starter="after_loser", hand_size=2,
                 limit=60, set_value=55),
            dict(players=2, life_system=True, deck_counts={"1": 4, "5": 4, "10": 4, "50": 2, "-10": 2, "99": 2,
                                                           "PASS": 2, "TURN": 2, "SHOT": 2, "DOUBLE": 2,
                                                           "DSHOT": 2}),
        ],
        cirno_neu_candidates,
        cirno_neu_view_check,
    ),
}

CASES = [(g, cfg) for g, (cfgs, _, _) in CONFIGS.items() for cfg in cfgs]
IDS = [g + ":" + ",".join(f"{k}={v}" for k, v in cfg.items()) for g, cfg in CASES]
MAX_STEPS = 20_000
DEEP_STEPS = 200  # every check at every step this long, then every 25th step


def test_every_game_is_covered():
    assert set(CONFIGS) == set(available_games())


def _roundtrip(st):
    d = st.to_dict()
    again = type(st).from_dict(d)
    assert again.to_dict() == d
    via_json = json.loads(json.dumps(d))
    assert type(st).from_dict(via_json).to_dict() == type(st).from_dict(d).to_dict()
    return again


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_random_playouts_keep_every_invariant(game, cfg):
    mod = game_module(game)
    _, candidates, view_check = CONFIGS[game]
    for seed in range(1):
        rng = random.Random(seed)
        st = mod.new_game(seed=seed, **cfg)
        cards = st.all_cards()
        steps = 0
        while not st.is_terminal:
            steps += 1
            assert steps < MAX_STEPS, "the game did not end"
            legal = st.legal_actions()
            assert legal, "no legal action in a running game"
            assert st.current_player is not None
            texts = [str(a) for a in legal]
            assert len(set(texts)) == len(texts), "duplicate legal actions"
            # enumeration and diagnosis agree, in both directions
            for a, t in zip(legal, texts):
                assert mod.parse_action(t) == a
                assert st.is_legal(a) and st.is_legal(t)
            deep = steps <= DEEP_STEPS or steps % 25 == 0
            before = st.to_dict()
            for t in candidates(rng) if deep else ():
                try:
                    a = st.parse(t)
                except InvalidActionError:
                    continue
                if a not in legal:
                    with pytest.raises(IllegalActionError) as info:
                        st.apply(a)
                    assert info.value.rule and str(info.value).startswith(f"Illegal: rule {info.value.rule} — ")
            assert st.to_dict() == before, "a refused action changed the state"
            # views
            for seat in [None, *range(st.players)] if deep else ():
                v = st.view(seat)
                assert json.loads(json.dumps(v)) == v
                view_check(st, seat, v)
            # clone independence + round trips
            twin = st.clone()
            snapshot = twin.to_dict()
            assert snapshot == before
            again = _roundtrip(st)
            action = rng.choice(legal)
            events = st.apply(action)
            assert events and all(e.text and e.rule for e in events)
            assert twin.to_dict() == snapshot, "a clone changed when the original moved"
            again.apply(str(action))
            assert again.to_dict() == st.to_dict(), "a restored state diverged"
            assert st.all_cards() == cards, "cards were created or lost"
        assert st.legal_actions() == [] and st.current_player is None
        out = st.outcome()
        assert out is not None and len(out.scores) == st.players
        assert all(0 <= w < st.players for w in out.winners)
        rebuilt = Replay.from_json(Replay.from_state(st).to_json()).build()
        assert rebuilt.to_dict() == st.to_dict()


@pytest.mark.parametrize("game, cfg", CASES, ids=IDS)
def test_many_fast_playouts_end_and_conserve(game, cfg):
    mod = game_module(game)
    rng = random.Random(99)
    for seed in range(25):
        st = mod.new_game(seed=1000 + seed, **cfg)
        cards = st.all_cards()
        steps = 0
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply_unchecked(legal[rng.randrange(len(legal))])
            steps += 1
            assert steps < MAX_STEPS
        assert st.all_cards() == cards
        assert st.outcome() is not None


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_same_seed_same_game(game):
    mod = game_module(game)
    cfg = CONFIGS[game][0][0]

    def run():
        rng = random.Random(5)
        st = mod.new_game(seed=123, **cfg)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        return st.to_dict()

    assert run() == run()


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_options_contract(game):
    mod = game_module(game)
    with pytest.raises(TypeError):
        mod.new_game(no_such_option=1)
    for opt in mod.OPTIONS:
        if opt.allowed:
            with pytest.raises(ValueError, match="allowed values"):
                mod.new_game(**{opt.name: "definitely-not-allowed"})
