"""Refusal fuzz: many malformed and illegal actions at random positions of every game.

Every attempt must either be legal (and then apply on a copy) or be refused with
``InvalidActionError`` / ``IllegalActionError`` citing a rule, leaving the state
exactly as it was. Nothing else may escape: no ``TypeError``, no bare ``ValueError``.
"""

from __future__ import annotations

import random

import pytest

import kit
from cardwidgets import IllegalActionError, InvalidActionError, available_games, game_spec, rules
from cardwidgets.games import game_module

ATTEMPTS = 12_000
NOISE = "0123456789 ,@:-+>xX⑨²٣\u00a0\t\n"


def _mutations(rng: random.Random, text: str) -> str:
    pick = rng.random()
    if pick < 0.3:
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            if op < 0.4 and chars:
                del chars[rng.randrange(len(chars))]
            elif op < 0.8:
                chars.insert(rng.randrange(len(chars) + 1), rng.choice(NOISE))
            elif chars:
                chars[rng.randrange(len(chars))] = rng.choice(NOISE)
        return "".join(chars)
    if pick < 0.45:
        words = text.split()
        rng.shuffle(words)
        return " ".join(words)
    if pick < 0.55:
        return text.upper() if rng.random() < 0.5 else " " + text + "  "
    if pick < 0.6:
        return text + " " + str(rng.choice([10**rng.randint(1, 60), -1, 0, 99]))
    if pick < 0.65:
        return f"S{rng.randrange(10)}: {text}"
    if pick < 0.7:
        return f"{text}, {text}"
    return text


@pytest.mark.parametrize("game", available_games())
def test_refusal_fuzz(game, report):
    mod = game_module(game)
    spec = game_spec(game)
    rng = random.Random(11)
    counts = {"attempts": 0, "legal": 0, "illegal": 0, "invalid": 0}
    configs = kit.spec_configs(spec)
    vocab_by_cfg = {}
    while counts["attempts"] < ATTEMPTS:
        cfg = rng.choice(configs)
        key = kit.label(cfg)
        if key not in vocab_by_cfg:
            vocab_by_cfg[key] = kit.vocabulary(mod, cfg, games=2, seed=len(vocab_by_cfg))
        vocab = vocab_by_cfg[key]
        st = mod.new_game(seed=rng.randrange(10**6), **cfg)
        kit.advance(st, rng, rng.randint(0, 60))
        before = st.to_dict()
        for _ in range(50):
            text = _mutations(rng, rng.choice(vocab))
            seat = rng.choice([None, "any", *range(st.players)])
            counts["attempts"] += 1
            try:
                trial = st.clone()
                if seat == "any":
                    trial.apply(text)
                else:
                    trial.apply(text, seat)
                counts["legal"] += 1
            except InvalidActionError as e:
                counts["invalid"] += 1
                assert len(str(e)) < 400
            except IllegalActionError as e:
                counts["illegal"] += 1
                rules.lookup(e.rule, game=game)
                assert str(e).startswith(f"Illegal: rule {e.rule} — ") and len(str(e)) < 600
            assert st.to_dict() == before
    assert counts["illegal"] > 1000 and counts["invalid"] > 1000
    report("refusal fuzz", game, **counts)
