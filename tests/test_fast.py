"""The fast lane's plumbing: engine= of simulate, compare and the command, the fallback and its
note, the engine column, replays of lane games on a table, and life without numba."""

from __future__ import annotations

import sys

import pytest

pd = pytest.importorskip("pandas")

from cardwidgets import Timeline, fast  # noqa: E402
from cardwidgets.cli import main  # noqa: E402
from cardwidgets.sim import compare, load, simulate  # noqa: E402

needs_numba = pytest.mark.skipif(fast.unavailable() is not None, reason="the fast extra is not installed")


@pytest.fixture
def no_numba(monkeypatch):
    """This process as if numba were not installed."""
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    monkeypatch.setattr(fast, "_UNAVAILABLE", [])
    yield
    fast._UNAVAILABLE.clear()


def test_without_numba_auto_plays_the_reference_engine_and_says_so(no_numba):
    res = simulate("cirno_neu", 5, bots="random", seed=1, players=3)
    assert res.engine == "python" and set(res.games["engine"]) == {"python"}
    assert "numba" in res.note and "pip install 'cardwidgets[fast]'" in res.note
    assert res.note in repr(res.summary())
    with pytest.raises(ValueError, match="engine='fast'.*numba"):
        simulate("cirno_neu", 5, bots="random", seed=1, players=3, engine="fast")
    # The same rows as engine="python": nothing changes for a user without the extra.
    pd.testing.assert_frame_equal(res.games, simulate("cirno_neu", 5, bots="random", seed=1, players=3,
                                                      engine="python").games)


def test_an_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="engine must be one of 'auto', 'fast', 'python'"):
        simulate("cirno_neu", 5, bots="random", seed=1, engine="numba")


@needs_numba
@pytest.mark.parametrize("bots, words", [
    ("ismcts", "bot 'ismcts'"),
    ({"name": "greedy"}, "bot 'greedy'"),
])
def test_what_the_lane_does_not_cover_falls_back_or_is_refused(bots, words):
    res = simulate("cirno_neu", 3, bots=bots if bots != "ismcts" else {"name": "ismcts", "iterations": 2},
                   seed=1, players=2)
    assert res.engine == "python" and "does not cover" in res.note
    with pytest.raises(ValueError, match="does not cover"):
        simulate("cirno_neu", 3, bots=bots, seed=1, players=2, engine="fast")


@needs_numba
def test_lane_rows_and_their_replays():
    res = simulate("cirno_neu", 300, bots=["greedy", "random", "random"], seed=5, players=3, life_system=True)
    assert res.engine == "fast" and res.note is None and set(res.games["engine"]) == {"fast"}
    assert res.games["seed"].is_unique and list(res.games["game_index"]) == list(range(300))
    # The same rows whatever the workers.
    pd.testing.assert_frame_equal(res.games, simulate("cirno_neu", 300, bots=["greedy", "random", "random"],
                                                      seed=5, players=3, life_system=True, workers=2).games)
    # Any row opens on the reference engine: the game the start player lost by the most.
    g = res.games
    i = int(g.loc[g["length"].idxmax(), "game_index"])
    rep = res.replay(i)
    assert rep.chance and rep.options == {"players": 3, "life_system": True}
    tl = Timeline.from_replay(type(rep).from_json(rep.to_json()))
    out = tl.state.outcome()
    row = g[g["game_index"] == i].iloc[0]
    assert (tuple(out.winners), tuple(out.scores), tl.state.move_count, out.reason) == \
        (row["winners"], row["scores"], row["length"], row["reason"])


@needs_numba
def test_compare_takes_the_engine():
    c = compare("cirno_neu", {"after shooter": {}, "after target": {"shot_resume": "after_target"}}, 200,
                metric="length", bots="random", seed=2, players=4, engine="fast")
    assert set(c.games["engine"]) == {"fast"} and list(c.table["n"]) == [200, 200]
    c = compare("cirno_neu", {"x": {}}, 5, bots="random", seed=2, engine="python")
    assert set(c.games["engine"]) == {"python"}


@needs_numba
def test_saved_results_keep_the_engine_and_old_files_load(tmp_path):
    res = simulate("cirno_neu", 20, bots="random", seed=1, players=3, engine="fast")
    for name in ("r.csv", "r.parquet"):
        res.save(tmp_path / name)
        pd.testing.assert_frame_equal(load(tmp_path / name).games, res.games)
    old = res.games.drop(columns="engine")  # a file saved before results said which engine played
    old.assign(**{c: [list(v) for v in old[c]] for c in ("bots", "winners", "scores")}).to_parquet(
        tmp_path / "old.parquet", index=False)
    assert set(load(tmp_path / "old.parquet").games["engine"]) == {"python"}
    bad = pd.read_csv(tmp_path / "r.csv").assign(engine="gpu")
    bad.to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="column 'engine'.*'fast' or 'python'"):
        load(tmp_path / "bad.csv")


@needs_numba
def test_the_command_takes_the_engine(capsys, tmp_path):
    assert main(["simulate", "cirno_neu", "-n", "50", "--engine", "fast", "--out", str(tmp_path / "r.csv")]) == 0
    out = capsys.readouterr().out
    assert "engine fast" in out and set(load(tmp_path / "r.csv").games["engine"]) == {"fast"}
    assert main(["simulate", "cirno_neu", "-n", "5", "--engine", "fast", "--bots", "ismcts"]) != 0
    assert "--engine fast: the fast lane does not cover bot 'ismcts'" in capsys.readouterr().err
    assert main(["simulate", "cirno_neu", "-n", "5", "--engine", "python"]) == 0
    assert "engine python" in capsys.readouterr().out


def test_the_progress_bar_names_the_engine(monkeypatch):
    import cardwidgets.sim._run as run

    seen = []
    real = run._bar
    monkeypatch.setattr(run, "_bar", lambda n, desc: seen.append(desc) or real(n, desc))
    simulate("cirno_neu", 3, bots="random", seed=1, progress=True, engine="python")
    assert seen == ["cirno_neu (python)"]


@needs_numba
def test_the_bit_instructions_agree_with_python():
    """fast._bits: the lowest set bit and the count of set bits of card masks, the edges included."""
    import random

    import numpy as np
    from numba import njit

    from cardwidgets.fast._bits import low_bit, popcount

    @njit
    def both(xs, low, count):
        for i in range(xs.shape[0]):
            low[i] = low_bit(xs[i]) if xs[i] else -1
            count[i] = popcount(xs[i])

    r = random.Random(7)
    xs = [1, 2, 3, 1 << 62, (1 << 63) - 1, 0b101000] + [r.getrandbits(r.randrange(1, 63)) | 1 << r.randrange(62)
                                                     for _ in range(500)]
    arr = np.array(xs, np.int64)
    low = np.empty_like(arr)
    count = np.empty_like(arr)
    both(arr, low, count)
    assert low.tolist() == [(x & -x).bit_length() - 1 for x in xs]
    assert count.tolist() == [x.bit_count() for x in xs]
