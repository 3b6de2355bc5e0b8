"""Golden playthroughs, in the manner of OpenSpiel's: a seeded random game per game and
mode, written out step by step (legal actions, the action, every event with its
audience, the teacher's view and what each seat sees differently), checked in under
``tests/golden/`` and compared on every run, so any change of rules, narration or
views shows up as a readable diff.

Regenerate after an intended change::

    CW_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from cardwidgets import available_games, game_spec
from cardwidgets.games import game_module

GOLDEN = Path(__file__).parent / "golden"
MAX_STEPS = 80
#: Extra playthroughs beyond one per mode.
EXTRA = {"depot": [{"games": 3}], "cirno_neu": [{"life_system": True}]}


def _cases() -> list[tuple[str, dict]]:
    out = []
    for game in available_games():
        spec = game_spec(game)
        for mode in spec.modes:
            base = {"mode": mode.name} if len(spec.modes) > 1 else {}
            out.append((game, {**base, "players": mode.players[len(mode.players) // 2]}))
        for extra in EXTRA.get(game, []):
            out.append((game, {"players": spec.modes[0].players[len(spec.modes[0].players) // 2], **extra}))
    return out


def _name(game: str, cfg: dict) -> str:
    return game + "".join(f"-{k}={v}" for k, v in cfg.items()) + ".txt"


def _diff(view: dict, teacher: dict) -> dict:
    out = {k: v for k, v in view.items() if teacher.get(k) != v}
    out.update({k: "(not shown)" for k in teacher if k not in view})
    return out


def playthrough(game: str, cfg: dict, seed: int = 1) -> str:
    mod = game_module(game)
    st = mod.new_game(seed=seed, **cfg)
    rng = random.Random(seed)
    lines = [f"# {game_spec(game).title} golden playthrough: new_game(seed={seed}, {cfg})", ""]

    def show(events: list) -> None:
        for e in events:
            who = "all" if e.audience is None else ",".join(st.seat_label(s) for s in e.audience)
            lines.append(f"  event [{e.kind} {e.rule} to {who}] {e.text}")

    def position() -> None:
        teacher = st.view(None)
        lines.extend("  | " + row for row in st.view_text(teacher).splitlines())
        for seat in range(st.players):
            lines.append(f"  view {st.seat_label(seat)}: " + json.dumps(_diff(st.view(seat), teacher), sort_keys=True,
                                                                       ensure_ascii=False))

    show(st.setup_events)
    position()
    step = 0
    while not st.is_terminal and step < MAX_STEPS:
        step += 1
        legal = st.legal_actions()
        action = rng.choice(legal)
        lines.append("")
        lines.append(f"step {step}: {st.seat_label(st.current_player)} to act in phase {st.phase}; "
                     f"{len(legal)} legal: " + ", ".join(map(str, legal[:40])) + (" ..." if len(legal) > 40 else ""))
        lines.append(f"  action: {action}")
        show(st.apply(action))
        position()
    lines.append("")
    out = st.outcome()
    lines.append(f"outcome: {None if out is None else out.to_dict()} after {st.move_count} actions"
                 + ("" if st.is_terminal else f" (stopped at {MAX_STEPS} steps)"))
    return "\n".join(lines) + "\n"


CASES = _cases()


@pytest.mark.parametrize("game, cfg", CASES, ids=[_name(g, c)[:-4] for g, c in CASES])
def test_golden_playthrough(game, cfg):
    path = GOLDEN / _name(game, cfg)
    text = playthrough(game, cfg)
    if os.environ.get("CW_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with CW_UPDATE_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(f"{path.name} differs from line {first + 1}:\n  golden: "
                    f"{want[first] if first < len(want) else '<end>'}\n  now:    "
                    f"{got[first] if first < len(got) else '<end>'}")


def test_no_stale_golden_files():
    expected = {_name(g, c) for g, c in CASES}
    stale = sorted(p.name for p in GOLDEN.glob("*.txt") if p.name not in expected)
    assert not stale, f"golden files of no current case: {stale}"
