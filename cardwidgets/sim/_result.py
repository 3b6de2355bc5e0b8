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
from ._play import play_game
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


class SimResult:
    """Simulated games of one configuration (game, players, mode, options, bots).

    Attributes
    ----------
    games:
        One row per game: ``game``, ``game_index``, ``seed`` (the game's own seed),
        ``players``, ``mode``, ``options`` (the options that differ from their
        defaults, as JSON text), ``bots`` (a name per seat), ``starter`` (the seat
        that acted first), ``winners`` (a tuple of seats: several for a shared win,
        none for an aborted game), ``scores`` (one per seat, as the game defines
        them), ``length`` (actions), ``termination`` (``"normal"`` or
        ``"aborted"``), ``reason`` (the outcome in words, citing the rules) and
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
            rows = []
            bots = self.bots
            for i, starter, winners, scores in zip(self.games["game_index"], self.games["starter"],
                                                   self.games["winners"], self.games["scores"]):
                for s in range(self.players):
                    won = s in winners
                    rows.append((int(i), s, bots[s], scores[s], won, 1 / len(winners) if won else 0.0,
                                 bool(starter == s) if starter is not pd.NA else False))
            self._seats = pd.DataFrame.from_records(rows, columns=list(SEATS_COLUMNS))
        return self._seats

    def summary(self) -> "Summary":
        """Win rates per seat with 95 % intervals, mean scores, lengths and aborted games."""
        return Summary(self)

    # ------------------------------------------------------------------ output
    def plot(self, ax: Any = None) -> Any:
        """Win rates with their 95 % intervals, and the game-length histogram (matplotlib).

        Returns the two axes (``ax``: a pair of axes to draw on).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(10, 3.4), constrained_layout=True)
        left, right = ax
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
        return ax

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
        bot objects, needs the same ``bots`` to play the game again. A game of the fast
        lane is played again there and comes with its recorded chance decisions, which the
        reference engine plays to the same end.
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
        st, _ = play_game(self.game, kwargs, specs, int(row["seed"]))
        if st.move_count != row["length"] or list(st.outcome().winners) != list(row["winners"]):
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
    shared:
        Games with a shared win.
    mean_length:
        Mean game length in actions (``median_length``, ``min_length`` and
        ``max_length`` likewise).
    """

    def __init__(self, result: SimResult) -> None:
        self.title = game_spec(result.game).title
        self.players, self.mode, self.options = result.players, result.mode, result.options
        g, n = result.games, len(result)
        self.games = n
        self.aborted = int((g["termination"] == "aborted").sum())
        self.shared = int(sum(len(w) > 1 for w in g["winners"]))
        self.mean_length = float(g["length"].mean())
        self.median_length = float(g["length"].median())
        self.min_length, self.max_length = int(g["length"].min()), int(g["length"].max())
        self.seconds = result.seconds
        self.engine, self.note = result.engine, result.note
        self.actions = int(g["length"].sum())
        rows = []
        for seat, part in result.seats.groupby("seat", sort=True):
            rate = float(part["share"].mean())
            low, high = wilson(rate, n)
            mean, slow, shigh = mean_interval(part["score"])
            rows.append((int(seat), result.bots[seat], rate, low, high, mean, slow, shigh,
                         float(part["started"].mean())))
        self.table = pd.DataFrame.from_records(rows, columns=["seat", "bot", "win_rate", "win_low", "win_high",
                                                              "mean_score", "score_low", "score_high", "started"])

    def _head(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"{self.title}: {self.games} games, {self.players} players, mode {self.mode}"
                + (f", options {opts}" if opts else ""))

    def _foot(self) -> list[str]:
        lines = [f"length in actions: mean {self.mean_length:.1f}, median {self.median_length:g}, "
                 f"range {self.min_length}-{self.max_length}",
                 f"aborted: {self.aborted} of {self.games} ({self.aborted / self.games:.1%}); "
                 f"shared wins: {self.shared}"]
        if self.seconds:
            lines.append(f"{self.games / self.seconds:,.0f} games/s, {self.actions / self.seconds:,.0f} actions/s "
                         f"({self.seconds:.2f} s, engine {self.engine})")
        if self.note:
            lines.append(self.note)
        return lines

    def _display(self) -> pd.DataFrame:
        t = self.table
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
