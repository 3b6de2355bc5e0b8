"""What a simulation's summary says: scores for solo, and a speed that means something."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("pandas")

from cardwidgets.cli import main  # noqa: E402
from cardwidgets.sim import compare, simulate  # noqa: E402


def test_solo_reports_scores_not_wins():
    res = simulate("yadokarick", 12, bots="greedy", players=1, mode="solo", seed=1)
    summary = res.summary()
    text = repr(summary)
    # the lone player "won" every game: a win rate of 100 % said nothing
    assert "win rate" not in text and "100.0%" not in text and "shared wins" not in text
    assert "1 player," in text.splitlines()[0]
    header = text.splitlines()[1].split()
    assert header[:3] == ["seat", "bot", "mean"] and "median" in header and "range" in header
    scores = [s[0] for s in res.games["scores"]]
    assert f"{min(scores):g} to {max(scores):g}" in text
    assert f"{sum(scores) / len(scores):.2f}" in text
    assert math.isnan(summary.table["win_rate"].iat[0]) and summary.solo
    assert "win rate" not in summary._repr_html_()
    with pytest.raises(ValueError, match="one player, who wins every game .* 'mean_score'"):
        compare("yadokarick", {"a": {}}, 3, bots="greedy", players=1, mode="solo", seed=1)


def test_solo_on_the_command_line(capsys):
    assert main(["simulate", "yadokarick", "-n", "5", "--mode", "solo", "--players", "1", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "mean score" in out and "win rate" not in out and "100.0%" not in out


def test_a_slow_run_gives_seconds_per_game():
    from cardwidgets.sim._result import rate

    assert rate(3, 12.3, "game") == "4.1 s per game"  # it printed "0 games/s"
    assert rate(1, 0.5, "game") == "2.0 games/s"
    assert rate(12_345, 1.0, "action") == "12,345 actions/s"
    res = simulate("depot", 3, bots="greedy", players=3, seed=1)
    res.seconds = 7.5
    assert "2.5 s per game" in repr(res.summary())


def test_a_plot_is_not_echoed_in_a_notebook():
    matplotlib = pytest.importorskip("matplotlib")
    pytest.importorskip("IPython")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell

    formatter = InteractiveShell.instance().display_formatter
    try:
        c = compare("depot", {"3": {"players": 3}, "4": {"players": 4}}, 4, bots="greedy", seed=3)
        res = simulate("depot", 4, bots="greedy", players=3, seed=1)
        for drawn in (c.plot(), res.plot()):
            # a cell ending with plot() shows the figure only: no "<Axes: ...>" text above it
            assert formatter.format(drawn) == ({}, {})
        ax = c.plot()
        ax.axhline(0.25)  # still the axes to draw on
        assert ax.figure is ax.ax.figure and ax.get_ylabel() == "win rate"
        left, right = res.plot()
        assert right.get_title() == "game length"
        fig, own = plt.subplots()
        assert c.plot(ax=own).ax is own
    finally:
        plt.close("all")


def test_the_greedy_against_random_examples_rotate_the_start():
    """The README's and the getting-started page's Depot example: with seat A leading every game
    (Depot's default), the greedy bot's edge was partly the first move's, and nothing said so."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for doc in ("README.md", "docs/getting-started.md"):
        text = (root / doc).read_text(encoding="utf-8")
        call = re.search(r'simulate\("depot", \d+, bots=\["greedy", "random", "random", "random"\].*?\)\n', text, re.S)
        assert call, doc
        code = re.sub(r"workers=\d+", "workers=1", re.sub(r'"depot", \d+', '"depot", 40', call.group(0)))
        res = eval(code, {"simulate": simulate})  # noqa: S307 - the documentation's own example
        started = res.summary().table["started"]
        assert (started > 0).all() and (started < 1).all(), (doc, list(started))
        assert "seat A leads every" in text, doc
