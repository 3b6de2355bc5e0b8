"""``compare``: the same game seeds under several variants, one metric with its 95 % interval."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import pandas as pd

from ..core import seat_name
from ..games import game_spec
from ._stats import mean_interval, wilson
from ._result import Plot, SimResult
from ._run import simulate


@dataclass(frozen=True)
class _Metric:
    label: str
    per_seat: bool
    rate: bool  # a rate gets a Wilson interval, anything else a normal interval of its mean
    values: Callable[[SimResult], Any]  # per seat: {seat: values}; per game: values


def _first_player(res: SimResult) -> list[float]:
    g = res.games
    return [(1 / len(w) if s is not pd.NA and s in w else 0.0) for s, w in zip(g["starter"], g["winners"])]


def _by_seat(column: str) -> Callable[[SimResult], dict[int, Any]]:
    return lambda res: {int(s): part[column] for s, part in res.seats.groupby("seat", sort=True)}


#: The named metrics of :func:`compare`.
METRICS: dict[str, _Metric] = {
    "win_rate": _Metric("win rate", True, True, _by_seat("share")),
    "first_player_win_rate": _Metric("win rate of the seat that acted first", False, True, _first_player),
    "mean_score": _Metric("mean score", True, False, _by_seat("score")),
    "length": _Metric("actions per game", False, False, lambda res: res.games["length"]),
    "aborted": _Metric("share of aborted games", False, True,
                       lambda res: res.games["termination"] == "aborted"),
}

TABLE_COLUMNS = ["variant", "metric", "seat", "bot", "value", "low", "high", "n"]


def _metric(metric: str | Callable[[pd.DataFrame], Any]) -> tuple[str, _Metric | Callable]:
    if callable(metric):
        name = getattr(metric, "__name__", "metric")
        return ("custom" if name == "<lambda>" else name), metric
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; metrics: {', '.join(METRICS)}, or a function of the "
                         "games table giving one value per game")
    return metric, METRICS[metric]


def _interval(values: Any, rate: bool) -> tuple[float, float, float, int]:
    xs = [float(v) for v in values]
    if rate:
        p = sum(xs) / len(xs)
        return (p, *wilson(p, len(xs)), len(xs))
    xs = [x for x in xs if not math.isnan(x)]  # a forfeited game has no score
    return (*mean_interval(xs), len(xs))


def _rows(label: str, res: SimResult, name: str, metric: _Metric | Callable) -> list[tuple]:
    if isinstance(metric, _Metric) and metric.label.startswith("win rate") and res.players == 1:
        raise ValueError(f"variant {label!r} has one player, who wins every game it finishes: measure "
                         "'mean_score' (or a function of the games table) instead of a win rate")
    if isinstance(metric, _Metric):
        found = metric.values(res)
        if metric.per_seat:
            return [(label, name, s, res.bots[s], *_interval(v, metric.rate)) for s, v in found.items()]
        return [(label, name, pd.NA, None, *_interval(found, metric.rate))]
    found = pd.Series(metric(res.games))
    if len(found) != len(res.games):
        raise ValueError(f"metric {name!r} gave {len(found)} values for {len(res.games)} games: a metric "
                         "function takes the games table and gives one value per game")
    return [(label, name, pd.NA, None, *_interval(found, pd.api.types.is_bool_dtype(found)))]


class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table:
        A tidy DataFrame: one row per variant (and per seat for a per-seat metric) with
        ``variant``, ``metric``, ``seat`` (``<NA>`` for a per-game metric), ``bot``,
        ``value`` (the rate or mean), ``low``/``high`` (its 95 % interval: Wilson for
        rates, normal for means) and ``n`` (games).
    results:
        Variant label -> :class:`SimResult`, every game of every variant.
    metric:
        The metric's name.
    """

    def __init__(self, game: str, results: dict[str, SimResult], metric: Any) -> None:
        self.game = game
        self.results = results
        self.metric, self._metric = _metric(metric)
        self.table = self.measure(metric)

    def measure(self, metric: str | Callable[[pd.DataFrame], Any]) -> pd.DataFrame:
        """The table of another metric, from the same games (nothing is played again)."""
        name, m = _metric(metric)
        rows = [row for label, res in self.results.items() for row in _rows(label, res, name, m)]
        table = pd.DataFrame.from_records(rows, columns=TABLE_COLUMNS)
        table["seat"] = table["seat"].astype("Int64")
        return table

    @property
    def games(self) -> pd.DataFrame:
        """Every variant's games table, one after the other, with a ``variant`` column first."""
        return pd.concat([res.games.assign(variant=label)[["variant", *res.games.columns]]
                          for label, res in self.results.items()], ignore_index=True)

    def _label(self) -> str:
        return self._metric.label if isinstance(self._metric, _Metric) else self.metric

    def plot(self, ax: Any = None) -> Plot:
        """Each variant's value with its 95 % interval, one colour per seat for a per-seat metric
        (matplotlib). Returns a :class:`~cardwidgets.sim.Plot`: it acts as the axes
        (``c.plot().axhline(0.25)``), and a notebook cell that ends with it shows only the plot."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(self.results) + 2), 3.6), constrained_layout=True)
        t = self.table
        labels = list(self.results)
        seats = sorted(int(s) for s in t["seat"].dropna().unique())
        groups = [(None, t)] if not seats else [(s, t[t["seat"] == s]) for s in seats]
        width = 0.7 / max(1, len(groups))
        for k, (seat, part) in enumerate(groups):
            x = [labels.index(v) + (k - (len(groups) - 1) / 2) * width for v in part["variant"]]
            value = part["value"].to_numpy()
            err = [(value - part["low"]).fillna(0).to_numpy(), (part["high"] - value).fillna(0).to_numpy()]
            ax.errorbar(x, value, yerr=err, fmt="o", capsize=4, label=None if seat is None else seat_name(seat))
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylabel(self._label())
        n = ", ".join(sorted({str(len(r)) for r in self.results.values()}))
        ax.set_title(f"{game_spec(self.game).title}: {self._label()}\n{n} games per variant, 95% intervals",
                     fontsize=10)
        if seats:
            ax.legend(title="seat", fontsize=8, title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.grid(axis="y", alpha=0.3)
        return Plot(ax)

    def __repr__(self) -> str:
        return self.table.to_string(index=False)

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(game_spec(self.game).title)}</b>{self.table.to_html(index=False)}"


def compare(game: str, variants: Mapping[str, Mapping[str, Any]], n: int, *,
            metric: str | Callable[[pd.DataFrame], Any] = "win_rate", bots: Any, seed: int, workers: int = 1,
            backend: str | None = None, progress: bool = False, on_illegal: str = "raise",
            **new_game_kwargs: Any) -> Comparison:
    """Play ``n`` games of each variant and measure ``metric`` with its 95 % interval.

    Every variant plays the same game seeds (``game_seed(seed, i)``), so that the
    variants differ by their rules rather than by the luck of their deals.

    Parameters
    ----------
    game:
        A game name.
    variants:
        Label -> keyword arguments of ``new_game`` (``players``, ``mode`` and
        options), e.g. ``{"3 players": {"players": 3}, "5 players": {"players": 5}}``.
        A variant may also give its own ``bots`` (needed when the players differ and
        ``bots`` is a list).
    n:
        Games per variant.
    metric:
        ``"win_rate"`` (per seat), ``"first_player_win_rate"`` (the seat that acted
        first), ``"mean_score"`` (per seat), ``"length"`` (actions per game),
        ``"aborted"`` (share of games stopped by the safety cap), or a function of
        the games table (``SimResult.games``) giving one value per game: booleans
        are a rate, numbers a mean.
    bots, seed, workers, backend, progress, on_illegal:
        As for :func:`~cardwidgets.sim.simulate`.
    **new_game_kwargs:
        Keyword arguments of ``new_game`` that every variant shares (a variant's own win).

    Returns
    -------
    Comparison
        ``.table`` (a tidy DataFrame), ``.plot()``, ``.results`` and ``.measure(metric)``.

    Examples
    --------
    >>> c = compare("depot", {"one game": {}, "a match": {"games": 3}}, 20, metric="length",
    ...             bots="greedy", seed=1, players=4)
    >>> list(c.table["variant"]), list(c.table["n"])
    (['one game', 'a match'], [20, 20])
    >>> bool(c.table["value"].iat[1] > c.table["value"].iat[0])  # a match lasts longer
    True
    """
    if not isinstance(variants, Mapping) or not variants:
        raise ValueError("variants: give a mapping label -> new_game keyword arguments, at least one")
    _metric(metric)  # an unknown metric fails before any game is played
    # Results are keyed by the label as text (tables, plots): 1 and "1" would be one variant.
    seen: dict[str, Any] = {}
    for label in variants:
        if str(label) in seen:
            raise ValueError(f"variants {seen[str(label)]!r} and {label!r} have the same label as text; "
                             "give every variant its own label")
        seen[str(label)] = label
    results: dict[str, SimResult] = {}
    for label, kwargs in variants.items():
        if not isinstance(kwargs, Mapping):
            raise TypeError(f"variant {label!r}: give a mapping of new_game keyword arguments, "
                            f"got {type(kwargs).__name__}")
        kwargs = {**new_game_kwargs, **kwargs}
        if "seed" in kwargs:
            raise TypeError(f"variant {label!r}: every variant plays the same seeds; give seed= to compare")
        these = kwargs.pop("bots", bots)
        results[str(label)] = simulate(game, n, bots=these, seed=seed, workers=workers, backend=backend,
                                       progress=progress, on_illegal=on_illegal, **kwargs)
    return Comparison(game, results, metric)
