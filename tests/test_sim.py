"""The simulator's statistics and plot."""

from __future__ import annotations

import pytest

from cardwidgets.core import Termination
from cardwidgets.sim import simulate


def test_summary_and_reproducibility():
    a = simulate("cirno_neu", 30, bots=["greedy", "random", "random"], players=3, seed=2)
    b = simulate("cirno_neu", 30, bots=["greedy", "random", "random"], players=3, seed=2)
    assert a.games == b.games
    s = a.summary()
    assert s["games"] == 30 and abs(sum(s["win_rates"]) - 1) < 1e-9 and s["aborted"] == 0
    assert all(g.termination is Termination.NORMAL for g in a.games)


def test_the_plot_has_readable_labels_and_the_games_title():
    """At 6 players the seat labels used to overlap, and the title said `cirno_neu`."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    res = simulate("cirno_neu", 20, bots=["greedy"] + ["random"] * 5, players=6, seed=1)
    left, _ = res.plot()
    fig = left.figure
    fig.canvas.draw()
    assert left.get_title() == "cirno+neu: 20 games"
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in left.get_xticklabels()]
    assert len(boxes) == 6
    for a, b in zip(boxes, boxes[1:]):
        assert a.x1 <= b.x0, "seat labels overlap"
    import matplotlib.pyplot as plt

    plt.close(fig)
