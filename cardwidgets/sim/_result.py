"""What a simulation returns: a table of games, a table of seats, a summary and a plot.

A :class:`SimResult` is built from its games table alone, so a result saved with
:meth:`SimResult.save` and read back with :func:`load` is the same result.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any, Sequence

import pandas as pd  # the package's __getattr__ says which extra installs it

from ..core import seat_name
from ..core.replay import Replay
from ..games import game_spec
from ._play import BotMoveError, play_game
from ._stats import mean_interval, wilson

#: The columns of :attr:`SimResult.games`, in order.
GAMES_COLUMNS = ("game", "game_index", "seed", "players", "mode", "options", "bots", "starter", "winners",
                 "scores", "length", "termination", "reason", "engine")
#: The engine of a row saved before results said which (the reference engine played them all).
_OLD_ENGINE = "python"
#: The columns of :attr:`SimResult.seats`, in order.
SEATS_COLUMNS = ("game_index", "seat", "bot", "score", "won", "share", "started")
#: The columns that hold one value per seat (tuples in memory, lists in files).
_TUPLES = ("bots", "winners", "scores")
#: One configuration: these columns hold the same value on every row of a result.
_CONFIG = ("game", "players", "mode", "options", "bots", "engine")
_INTS = ("game_index", "seed", "players", "length")


def games_frame(rows: Sequence[Sequence[Any]]) -> pd.DataFrame:
    """The games table from rows of :data:`GAMES_COLUMNS` (the one place its dtypes are set)."""
    df = pd.DataFrame.from_records(list(rows), columns=list(GAMES_COLUMNS))
    for col in _INTS:
        df[col] = df[col].astype("int64")
    # A game in which nobody acted has no starter: a nullable int keeps the others ints.
    df["starter"] = df["starter"].astype("Int64")
    return df


def games_frame_columns(shared: dict[str, Any], columns: dict[str, Any]) -> pd.DataFrame:
    """The games table from per-game columns (arrays or lists, ``game_index`` among them) and
    the values every row shares (``shared``): the same table as :func:`games_frame` of its rows,
    without a Python tuple per game."""
    import numpy as np  # pandas's own

    n = len(columns["game_index"])
    data = {}
    for c in GAMES_COLUMNS:
        if c in columns:
            data[c] = columns[c]
        else:  # one object repeated by numpy (a list of n would be inferred element by element)
            one = np.empty(1, dtype=object)
            one[0] = shared[c]
            data[c] = one[np.zeros(n, dtype=np.intp)]
    df = pd.DataFrame(data, columns=list(GAMES_COLUMNS))
    for col in _INTS:
        df[col] = df[col].astype("int64")
    df["starter"] = df["starter"].astype("Int64")
    return df


class SimResult:
    """Simulated games of one configuration (game, players, mode, options, bots).

    Attributes
    ----------
    games:
        One row per game: ``game``, ``game_index``, ``seed`` (the game's own seed),
        ``players``, ``mode``, ``options`` (the options that differ from their
        defaults, as JSON text), ``bots`` (a name per seat), ``starter`` (the seat
        that acted first), ``winners`` (a tuple of seats: several for a shared win,
        none for an aborted or forfeited game), ``scores`` (one per seat, as the game
        defines them; NaN in a forfeited game), ``length`` (actions), ``termination``
        (``"normal"``, ``"aborted"`` or ``"forfeit"``: a bot's move was refused, see
        ``simulate(on_illegal=...)``), ``reason`` (the outcome in words, citing the rules) and
        ``engine`` (``"fast"``: the compiled lane, ``"python"``: the reference engine).
    seconds:
        Wall time of the run (``None`` for a result read from a file).
    note:
        Why ``engine="auto"`` played on the reference engine (``None`` if it did not
        fall back, or for a result read from a file).

    A result is normally made by :func:`~cardwidgets.sim.simulate` or :func:`load`;
    ``bots`` keeps the bot objects of a run so that :meth:`replay` can play them again.
    """

    def __init__(self, games: pd.DataFrame, *, seconds: float | None = None,
                 bots: Sequence[Any] | None = None, note: str | None = None) -> None:
        missing = [c for c in GAMES_COLUMNS if c not in games.columns]
        if missing:
            raise ValueError(f"not a games table: no column {', '.join(map(repr, missing))}")
        if len(games) == 0:
            raise ValueError("a simulation result holds at least one game")
        for col in _CONFIG:
            if games[col].nunique() != 1:
                raise ValueError(f"a result holds games of one configuration; column {col!r} has "
                                 f"{games[col].nunique()} different values")
        self.games = games
        self.seconds = seconds
        self.note = note
        self._specs = list(bots) if bots is not None else None
        self._seats: pd.DataFrame | None = None

    # ------------------------------------------------------------------ configuration
    @property
    def game(self) -> str:
        """The game's registry name."""
        return str(self.games["game"].iat[0])

    @property
    def players(self) -> int:
        """The number of players (seats)."""
        return int(self.games["players"].iat[0])

    @property
    def mode(self) -> str:
        """The game's mode (``"standard"`` for a game with one mode)."""
        return str(self.games["mode"].iat[0])

    @property
    def options(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return json.loads(self.games["options"].iat[0])

    @property
    def engine(self) -> str:
        """``"fast"`` (the compiled lane) or ``"python"`` (the reference engine)."""
        return str(self.games["engine"].iat[0])

    @property
    def bots(self) -> tuple[str, ...]:
        """The bot name of each seat."""
        return tuple(self.games["bots"].iat[0])

    def __len__(self) -> int:
        return len(self.games)

    def __repr__(self) -> str:
        opts = "".join(f" {k}={v!r}" for k, v in self.options.items())
        return f"<SimResult {self.game} players={self.players} mode={self.mode}{opts}: {len(self)} games>"

    # ------------------------------------------------------------------ tables
    @property
    def seats(self) -> pd.DataFrame:
        """One row per game and seat: ``game_index``, ``seat``, ``bot``, ``score``, ``won``
        (the seat is among the winners), ``share`` (its share of the win: 1/k of a win
        shared by k seats, else 0) and ``started`` (the seat acted first)."""
        if self._seats is None:
            # Built column by column (game-major, seat-minor rows): a Python row per game and seat
            # took seconds for the 200,000 games a fast-lane run plays in a few.
            import numpy as np

            g, p = self.games, self.players
            n = len(g)
            won = np.zeros((n, p), dtype=bool)
            for i, winners in enumerate(g["winners"]):
                for s in winners:
                    won[i, s] = True
            k = won.sum(axis=1, keepdims=True)
            share = np.where(won, 1.0 / np.maximum(k, 1), 0.0)
            starter = g["starter"].to_numpy(dtype="float64", na_value=-1.0)
            scores = pd.DataFrame.from_records(list(g["scores"])).to_numpy()
            self._seats = pd.DataFrame({
                "game_index": np.repeat(g["game_index"].to_numpy(dtype="int64"), p),
                "seat": np.tile(np.arange(p, dtype="int64"), n),
                "bot": np.tile(np.array(self.bots, dtype=object), n),
                "score": scores.reshape(-1),
                "won": won.reshape(-1),
                "share": share.reshape(-1),
                "started": (starter[:, None] == np.arange(p)).reshape(-1),
            }, columns=list(SEATS_COLUMNS))
        return self._seats

    def summary(self) -> "Summary":
        """Win rates per seat with 95 % intervals, mean scores, lengths and aborted games."""
        return Summary(self)

    # ------------------------------------------------------------------ output
    def plot(self, ax: Any = None) -> "Plot":
        """Win rates with their 95 % intervals (solo: the scores), and the game-length histogram
        (matplotlib).

        Returns a :class:`Plot` of the two axes (``left, right = result.plot()``), which a
        notebook does not echo; ``ax``: a pair of axes to draw on.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(10, 3.4), constrained_layout=True)
        left, right = ax
        if self.players == 1:  # solo: nothing to win, so the scores
            left.hist(self.seats["score"].dropna(), bins=30, color="#4f7cac")
            left.set_xlabel("score")
            left.set_title(f"{game_spec(self.game).title} ({self.mode}): {len(self)} games")
            right.hist(self.games["length"], bins=30, color="#c98b4f")
            right.set_xlabel("actions per game")
            right.set_title("game length")
            return Plot(ax)
        table = self.summary().table
        rates = table["win_rate"].to_numpy()
        err = [rates - table["win_low"].to_numpy(), table["win_high"].to_numpy() - rates]
        # Seat letter above the bot name, so labels never overlap however many seats there are.
        labels = [f"{seat_name(s)}\n{b}" for s, b in zip(table["seat"], table["bot"])]
        left.bar(range(len(rates)), rates, yerr=err, color="#4f7cac", capsize=4)
        left.set_xticks(range(len(rates)), labels, fontsize=8 if len(rates) > 5 else 10)
        left.set_ylabel("win rate")
        left.set_title(f"{game_spec(self.game).title}: {len(self)} games")
        right.hist(self.games["length"], bins=30, color="#c98b4f")
        right.set_xlabel("actions per game")
        right.set_title("game length")
        return Plot(ax)

    def save(self, path: str | Path) -> None:
        """Write the games table to ``path``: Parquet (``.parquet``) or CSV (``.csv``).

        :func:`load` reads it back into an equal result (the seats table and the
        summary are computed from the games).
        """
        p = Path(path)
        kind = file_format(p)
        df = self.games.copy()
        if kind == "csv":
            for col in _TUPLES:
                df[col] = [json.dumps(list(v)) for v in df[col]]
            df.to_csv(p, index=False)
        else:
            for col in _TUPLES:
                df[col] = [list(v) for v in df[col]]
            df.to_parquet(p, index=False)

    def replay(self, index: int, bots: Sequence[Any] | None = None) -> Replay:
        """The replay of game ``index`` (a row's ``game_index``), played again from its seed.

        Open it on a table (``Depot.from_replay(result.replay(7))``) to look at an odd
        game. Bot objects are not stored: a result read from a file, or one played with
        bot objects, needs the same ``bots`` to play the game again. A forfeited game
        is replayed up to the refused move. A game of the fast lane is played again
        there and comes with its recorded chance decisions, which the reference engine
        plays to the same end.
        """
        rows = self.games.index[self.games["game_index"] == index]
        if len(rows) == 0:
            raise IndexError(f"no game {index!r} in this result")
        row = self.games.loc[rows[0]]
        specs = list(bots) if bots is not None else (self._specs or list(self.bots))
        if len(specs) != self.players:
            raise ValueError(f"bots: expected {self.players} entries (one per seat), got {len(specs)}")
        kwargs = {"players": self.players, **self.options}
        if len(game_spec(self.game).modes) > 1:
            kwargs["mode"] = self.mode
        if row["engine"] == "fast":
            from ..fast import play as play_fast

            batch = play_fast(self.game, [int(row["seed"])], bots=specs, **kwargs)
            if int(batch.length[0]) != row["length"] or list(batch.winners_of(0)) != list(row["winners"]):
                raise ValueError(f"game {index} plays differently now (other bots or another version of the "
                                 "fast lane)")
            return batch.replay(0)
        try:
            st, _ = play_game(self.game, kwargs, specs, int(row["seed"]))
            winners = list(st.outcome().winners)
        except BotMoveError as e:
            if row["termination"] != "forfeit":
                raise
            st, winners = e.state, []  # the game up to the refused move
        if st.move_count != row["length"] or winners != list(row["winners"]):
            raise ValueError(f"game {index} plays differently now (other bots or another engine version)")
        return Replay.from_state(st)


def load(path: str | Path) -> SimResult:
    """Read a result written by :meth:`SimResult.save` (Parquet or CSV).

    A bad cell is a ``ValueError`` naming the file, the line (CSV) or row (Parquet) and
    the column.
    """
    p = Path(path)
    kind = file_format(p)
    if kind == "csv":
        # Every cell is read as text and checked below, where an error can say where it is.
        try:
            df = pd.read_csv(p, dtype=str, keep_default_na=False)
        except pd.errors.EmptyDataError:
            raise ValueError(f"{p.name}: the file is empty, not a saved simulation") from None
    else:
        df = pd.read_parquet(p)
    if "engine" not in df.columns:  # saved before results said which engine played
        df["engine"] = _OLD_ENGINE
    missing = [c for c in GAMES_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{p.name}: not a saved simulation (no column {', '.join(map(repr, missing))})")
    def where(r: int, col: str) -> str:
        # In a CSV file line 1 is the header, so data row r is on line r + 2.
        return f"{p.name}, {f'line {r + 2}' if kind == 'csv' else f'row {r}'}, column {col!r}"

    columns = {}
    for col in GAMES_COLUMNS:
        values = []
        for r, v in enumerate(df[col].tolist()):
            try:
                values.append(_cell(v, col, kind))
            except (TypeError, ValueError) as e:
                raise ValueError(f"{where(r, col)}: {e}") from None
        columns[col] = values
    for r in range(len(df)):
        problem = _row_problem({c: columns[c][r] for c in GAMES_COLUMNS})
        if problem is not None:
            raise ValueError(f"{where(r, problem[0])}: {problem[1]}")
    try:
        return SimResult(games_frame(list(zip(*(columns[c] for c in GAMES_COLUMNS)))))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{p.name}: {e}") from None


def _cell(value: Any, col: str, kind: str) -> Any:
    """One cell of a saved games table, as the games table holds it."""
    if col in _TUPLES:
        if kind == "csv":
            try:
                value = json.loads(value)
            except ValueError:
                pass  # still text: refused just below
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise ValueError(f"expected a list, got {str(value)[:40]!r}")
        return tuple(v.item() if hasattr(v, "item") else v for v in value)
    if col == "starter" and (value is None or value is pd.NA or value == ""
                             or (isinstance(value, float) and math.isnan(value))):
        return None
    if col in _INTS or col == "starter":
        if isinstance(value, float) or (isinstance(value, str) and not value.strip().lstrip("-").isdigit()):
            raise ValueError(f"expected a whole number, got {str(value)[:40]!r}")
        number = int(value)
        low = 1 if col == "players" else 0
        if not low <= number < 2 ** 63:  # an int64 column; seeds are 63-bit (game_seed)
            raise ValueError(f"expected a whole number from {low} to 2**63 - 1, got {str(value)[:40]!r}")
        return number
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {str(value)[:40]!r}")
    if col == "engine" and value not in ("fast", "python"):
        raise ValueError(f"expected 'fast' or 'python', got {value[:40]!r}")
    return value


def _row_problem(row: dict[str, Any]) -> tuple[str, str] | None:
    """``(column, problem)`` of a row whose cells disagree with its number of players."""
    players = row["players"]
    for col in ("bots", "scores"):
        if len(row[col]) != players:
            return col, f"expected {players} entries (one per seat), got {len(row[col])}"
    if not all(isinstance(b, str) for b in row["bots"]):
        return "bots", "expected a bot name per seat"
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row["scores"]):
        return "scores", "expected a number per seat"
    winners = row["winners"]
    if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in winners) \
            or len(set(winners)) != len(winners):
        return "winners", f"expected distinct seats from 0 to {players - 1}, got {list(winners)}"
    if row["starter"] is not None and not row["starter"] < players:
        return "starter", f"expected a seat from 0 to {players - 1}, got {row['starter']}"
    return None


def file_format(path: Path) -> str:
    """``"parquet"`` or ``"csv"`` from the file name's suffix, else ``ValueError``."""
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix == ".csv":
        return "csv"
    raise ValueError(f"{path.name}: save a result as .parquet or .csv")


class Plot:
    """What ``plot()`` returns: the axes it drew on, without an echo in a notebook.

    A notebook cell that ends with ``result.plot()`` shows the plot alone: returning the
    matplotlib axes themselves would print ``<Axes: ...>`` above it, and returning the figure
    would show it twice. A ``Plot`` acts as its axes (``plot.set_ylim(0, 1)``, ``plot.figure``;
    a pair unpacks, ``left, right = result.plot()``); ``plot.ax`` is the axes object itself.
    """

    __slots__ = ("ax",)

    def __init__(self, ax: Any) -> None:
        self.ax = ax

    def __getattr__(self, name: str) -> Any:
        if name == "ax":  # not set yet (a copy being made): no lookup on itself
            raise AttributeError(name)
        return getattr(self.ax, name)

    def __iter__(self) -> Any:
        return iter(self.ax)

    def __getitem__(self, index: Any) -> Any:
        return self.ax[index]

    def __len__(self) -> int:
        return len(self.ax)

    def _ipython_display_(self) -> None:
        """Nothing to add: matplotlib shows the figure itself at the end of the cell."""

    def __repr__(self) -> str:
        return f"Plot({self.ax!r})"


def rate(count: int, seconds: float, what: str) -> str:
    """How fast ``count`` things took ``seconds``, in words that mean something at any speed:
    ``"1,234 games/s"``, ``"2.5 games/s"``, or below one a second ``"3.2 s per game"``.

    >>> rate(5000, 2, "game"), rate(5, 2, "game"), rate(3, 12.3, "game"), rate(0, 1.0, "game")
    ('2,500 games/s', '2.5 games/s', '4.1 s per game', 'no game')
    """
    if count <= 0:
        return f"no {what}"
    per_second = count / seconds
    if per_second >= 10:
        return f"{per_second:,.0f} {what}s/s"
    if per_second >= 1:
        return f"{per_second:.1f} {what}s/s"
    return f"{seconds / count:,.1f} s per {what}"


class Summary:
    """Win rates per seat with Wilson 95 % intervals, mean scores, lengths and aborted games.

    Prints as a small report; ``table`` holds the per-seat figures.

    Attributes
    ----------
    table:
        One row per seat: ``seat``, ``bot``, ``win_rate`` (a shared win counts as a
        fraction; aborted games count as won by nobody), ``win_low``/``win_high``
        (Wilson 95 % interval), ``mean_score`` with ``score_low``/``score_high``
        (normal 95 % interval) and ``started`` (share of the games the seat began).
    games:
        The number of games.
    aborted:
        Games stopped by the engine's safety cap.
    forfeits:
        Games ended by a bot's refused move (``simulate(on_illegal="forfeit")``).
    shared:
        Games with a shared win.
    mean_length:
        Mean game length in actions (``median_length``, ``min_length`` and
        ``max_length`` likewise).
    solo:
        One player (Yadokarick solo): the lone player "wins" every game it finishes, so the
        summary gives its scores (mean with its interval, median, range) and the table's win
        rates are NaN.
    """

    def __init__(self, result: SimResult) -> None:
        self.title = game_spec(result.game).title
        self.players, self.mode, self.options = result.players, result.mode, result.options
        g, n = result.games, len(result)
        self.games = n
        self.aborted = int((g["termination"] == "aborted").sum())
        self.forfeits = int((g["termination"] == "forfeit").sum())
        self.shared = int(sum(len(w) > 1 for w in g["winners"]))
        self.mean_length = float(g["length"].mean())
        self.median_length = float(g["length"].median())
        self.min_length, self.max_length = int(g["length"].min()), int(g["length"].max())
        self.seconds = result.seconds
        self.engine, self.note = result.engine, result.note
        self.actions = int(g["length"].sum())
        #: One player (Yadokarick solo): nobody to beat, so scores and no win rates.
        self.solo = result.players == 1
        rows = []
        for seat, part in result.seats.groupby("seat", sort=True):
            # solo: the engine names the lone player the winner of every game, which says nothing
            rate = math.nan if self.solo else float(part["share"].mean())
            low, high = (math.nan, math.nan) if self.solo else wilson(rate, n)
            mean, slow, shigh = mean_interval(part["score"])
            rows.append((int(seat), result.bots[seat], rate, low, high, mean, slow, shigh,
                         float(part["started"].mean())))
        self.table = pd.DataFrame.from_records(rows, columns=["seat", "bot", "win_rate", "win_low", "win_high",
                                                              "mean_score", "score_low", "score_high", "started"])
        scores = result.seats["score"].dropna()
        self._score_range = (scores.median(), scores.min(), scores.max()) if len(scores) else (math.nan,) * 3

    def _head(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        players = f"{self.players} player{'s' * (self.players != 1)}"
        return (f"{self.title}: {self.games} games, {players}, mode {self.mode}"
                + (f", options {opts}" if opts else ""))

    def _foot(self) -> list[str]:
        lines = [f"length in actions: mean {self.mean_length:.1f}, median {self.median_length:g}, "
                 f"range {self.min_length}-{self.max_length}",
                 f"aborted: {self.aborted} of {self.games} ({self.aborted / self.games:.1%})"
                 + ("" if self.solo else f"; shared wins: {self.shared}")
                 + (f"; forfeits (a bot's move refused): {self.forfeits}" if self.forfeits else "")]
        if self.seconds:
            lines.append(f"{rate(self.games, self.seconds, 'game')}, {rate(self.actions, self.seconds, 'action')} "
                         f"({self.seconds:.2f} s, engine {self.engine})")
        if self.note:
            lines.append(self.note)
        return lines

    def _display(self) -> pd.DataFrame:
        t = self.table
        if self.solo:
            median, low, high = self._score_range
            return pd.DataFrame({
                "seat": [seat_name(s) for s in t["seat"]],
                "bot": t["bot"],
                "mean score": [f"{m:.2f}" for m in t["mean_score"]],
                "95% interval": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(t["score_low"], t["score_high"])],
                "median": [f"{median:g}"],
                "range": [f"{low:g} to {high:g}"],
            })
        return pd.DataFrame({
            "seat": [seat_name(s) for s in t["seat"]],
            "bot": t["bot"],
            "win rate": [f"{r:.1%}" for r in t["win_rate"]],
            "95% interval": [f"[{lo:.1%}, {hi:.1%}]" for lo, hi in zip(t["win_low"], t["win_high"])],
            "mean score": [f"{m:.2f}" for m in t["mean_score"]],
            "started": [f"{r:.1%}" for r in t["started"]],
        })

    def __repr__(self) -> str:
        return "\n".join([self._head(), self._display().to_string(index=False), *self._foot()])

    def _repr_html_(self) -> str:
        foot = "<br>".join(html.escape(line) for line in self._foot())
        return f"<b>{html.escape(self._head())}</b>{self._display().to_html(index=False)}{foot}"
