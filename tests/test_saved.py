"""What an earlier version saved still loads: states and actions pickled before each game
became a package of rooms (their classes named by the game's module path,
``cardwidgets.games.depot.DepotState``), in ``tests/saved/pickles.json``."""

from __future__ import annotations

import base64
import json
import pickle
from pathlib import Path

import pytest

from cardwidgets.games import game_module

SAVED = json.loads((Path(__file__).resolve().parent / "saved" / "pickles.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", SAVED, ids=lambda c: f"{c['game']}-{c['options'].get('mode', 'standard')}")
def test_pickles_of_an_earlier_version_load(case):
    st = pickle.loads(base64.b64decode(case["state"]))
    assert type(st) is type(game_module(case["game"]).new_game(seed=1, **case["options"]))
    assert st.to_position() == case["position"]
    assert [str(a) for a in st.legal_actions()] == case["legal"]
    action = pickle.loads(base64.b64decode(case["action"]))
    assert str(action) == case["action_text"] and st.is_legal(action)
    st.apply(action)  # and it plays on
