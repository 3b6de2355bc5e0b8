"""Batch simulation and statistics for rule exploration (headless, one core).

>>> res = simulate("depot", 20, bots=["greedy", "random", "random"], seed=1, players=3)
>>> len(res.games), round(sum(res.win_rates()), 6)
(20, 1.0)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..bots import ask, make_bot
from ..core import Termination
from ..games import game_module, game_spec


@dataclass(frozen=True)
class GameRecord:
    """One simulated game."""

    seed: int
    winners: tuple[int, ...]
    scores: tuple[Any, ...]
    length: int
    reason: str
    termination: Termination = Termination.NORMAL


@dataclass
class SimResult:
    """Games of one configuration, with the statistics rule explorers ask for."""

    game: str
    players: int
    options: dict[str, Any]
    bots: list[str]
    games: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    def win_rates(self) -> list[float]:
        """Share of games won per seat (a shared win counts as a fraction)."""
        wins = [0.0] * self.players
        for g in self.games:
            for w in g.winners:
                wins[w] += 1 / len(g.winners)
        n = max(1, len(self.games))
        return [w / n for w in wins]

    def win_interval(self, seat: int, z: float = 1.96) -> tuple[float, float]:
        """Wilson 95% interval of a seat's win rate."""
        n = len(self.games)
        if n == 0:
            return (0.0, 1.0)
        p = self.win_rates()[seat]
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def mean_scores(self) -> list[float]:
        n = max(1, len(self.games))
        return [sum(float(g.scores[s]) for g in self.games) / n for s in range(self.players)]

    def lengths(self) -> list[int]:
        return [g.length for g in self.games]

    def aborted(self) -> int:
        """Games stopped by a safety cap instead of ending by the rules."""
        return sum(1 for g in self.games if g.termination is Termination.ABORTED)

    def summary(self) -> dict[str, Any]:
        lengths = sorted(self.lengths()) or [0]
        actions = sum(lengths)
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "games": len(self.games),
            "win_rates": [round(w, 4) for w in self.win_rates()],
            "mean_scores": [round(s, 3) for s in self.mean_scores()],
            "mean_length": round(actions / max(1, len(self.games)), 1),
            "median_length": lengths[len(lengths) // 2],
            "aborted": self.aborted(),
            "actions_per_second": round(actions / self.seconds) if self.seconds else None,
        }

    def plot(self, ax: Any = None):
        """Win rates (with 95% intervals) and the game-length histogram (matplotlib)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(10, 3.4), constrained_layout=True)
        left, right = ax
        rates = self.win_rates()
        err = [[r - self.win_interval(s)[0] for s, r in enumerate(rates)],
               [self.win_interval(s)[1] - r for s, r in enumerate(rates)]]
        # Seat letter above the bot name, so labels never overlap however many seats there are.
        labels = [f"{'ABCDEFGH'[s]}\n{b}" for s, b in enumerate(self.bots)]
        left.bar(range(len(rates)), rates, yerr=err, color="#4f7cac", capsize=4)
        left.set_xticks(range(len(rates)), labels, fontsize=8 if len(rates) > 5 else 10)
        left.set_ylabel("win rate")
        left.set_title(f"{game_spec(self.game).title}: {len(self.games)} games")
        right.hist(self.lengths(), bins=30, color="#c98b4f")
        right.set_xlabel("actions per game")
        right.set_title("game length")
        return ax


def simulate(
    game: str,
    n_games: int,
    *,
    bots: str | Sequence[Any] | Mapping[int, Any] = "random",
    seed: int = 0,
    **options: Any,
) -> SimResult:
    """Play ``n_games`` seeded games headless and collect the results.

    ``bots`` is one bot name for every seat, a list (one per seat) or a mapping.
    Game ``i`` uses seed ``seed + i``; bots are seeded from it too, so the whole
    run is reproducible.
    """
    mod = game_module(game)
    probe = mod.new_game(seed=seed, **options)
    n = probe.players
    if isinstance(bots, str):
        specs = [bots] * n
    elif isinstance(bots, Mapping):
        specs = [bots.get(s, "random") for s in range(n)]
    else:
        specs = list(bots)
    if len(specs) != n:
        raise ValueError(f"bots: expected {n} entries (one per seat), got {len(specs)}")
    result = SimResult(game, n, dict(options), [getattr(b, "name", str(b)) for b in specs])
    start = time.perf_counter()
    for i in range(n_games):
        st = mod.new_game(seed=seed + i, **options)
        players = [make_bot(game, spec, seed=(seed + i) * 131 + s) for s, spec in enumerate(specs)]
        while not st.is_terminal:
            st.apply_unchecked(ask(players[st.current_player], st))
        out = st.outcome()
        result.games.append(GameRecord(seed + i, out.winners, out.scores, st.move_count, out.reason,
                                       out.termination))
    result.seconds = time.perf_counter() - start
    return result


__all__ = ["GameRecord", "SimResult", "simulate"]
