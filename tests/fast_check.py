"""Checks shared by the fast lane's tests (tests/test_fast_*.py): exact replay through the
reference engine, mutants of a kernel, statistical agreement with the reference engine."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from cardwidgets import fast

#: Lane games replayed per configuration in the default suite; CARDWIDGETS_FAST_GAMES raises it
#: (the kernels are exact on tens of thousands, but the default suite stays quick).
GAMES = int(os.environ.get("CARDWIDGETS_FAST_GAMES", "300"))
#: Games per engine in the statistical comparisons.
STAT_GAMES = int(os.environ.get("CARDWIDGETS_FAST_STAT_GAMES", "3000"))


def replay_all(batch: fast.Batch) -> int:
    """Replay every game of ``batch`` (played with ``legal=True``) through the reference engine:
    legal lists at every position, the outcome at the end. Returns the positions compared."""
    for i in range(len(batch)):
        fast.verify(batch, i)
    return int(batch.length.sum())


def first_mismatch(batch: fast.Batch) -> fast.Mismatch | None:
    for i in range(len(batch)):
        try:
            fast.verify(batch, i)
        except fast.Mismatch as e:
            return e
    return None


def mutant(module: ModuleType, old: str, new: str, folder: Path) -> ModuleType:
    """A copy of a kernel module with ``old`` replaced by ``new`` in its source (once), compiled
    apart from the real one. Its file in ``folder`` is rewritten only when its text changes, so
    numba's cache (next to it) spares the next session the compiling."""
    src = Path(module.__file__).read_text(encoding="utf-8")
    assert src.count(old) == 1, f"the mutation's text must occur once in {module.__name__}"
    path = Path(folder) / f"mutant_{Path(module.__file__).name}"
    text = src.replace(old, new)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    name = f"{module.__package__}._mutant_{Path(module.__file__).stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # kept: numba's cache finds a function's module by its name
    spec.loader.exec_module(mod)
    return mod


def shares_agree(lane: Any, ref: Any, z: float = 4.0) -> list[str]:
    """What differs between two ``SimResult``s by more than ``z`` standard errors: each seat's
    win share and the mean length. Empty if they agree."""
    out = []
    a, b = lane.seats, ref.seats
    for seat in range(lane.players):
        x = a[a["seat"] == seat]["share"]
        y = b[b["seat"] == seat]["share"]
        p = (x.sum() + y.sum()) / (len(x) + len(y))
        se = math.sqrt(max(p * (1 - p), 1e-9) * (1 / len(x) + 1 / len(y)))
        if abs(x.mean() - y.mean()) > z * se:
            out.append(f"seat {seat}: win share {x.mean():.3f} in the lane, {y.mean():.3f} in the reference")
    la, lb = lane.games["length"], ref.games["length"]
    se = math.sqrt(la.var() / len(la) + lb.var() / len(lb))
    if abs(la.mean() - lb.mean()) > z * se:
        out.append(f"mean length {la.mean():.2f} in the lane, {lb.mean():.2f} in the reference")
    return out
