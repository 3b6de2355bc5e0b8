"""Depot for the RL adapters: its action space and observation encoding.

Actions (D4.2, D6): every single, every set of ``k`` equal values up to the number of
cards of that value in the deck, every run of 2 to 8 consecutive values, then every
pass (``take`` a value or not, ``give`` another value or not), in the engine's own
order (plays by count, total, values; passes by take, give).

>>> from cardwidgets.envs.adapter import EnvSpec
>>> spec = EnvSpec("depot", players=4)
>>> spec.num_actions, spec.names[8], spec.names[-1]
(181, 'play 1 1', 'pass take 8 give 7')
"""

from __future__ import annotations

from array import array
from typing import Any

from .base import Config, Encoder, GameAdapter, Layout, count, hot, per_seat, rel

VALUES = range(1, 9)
PHASES = ("lead", "respond", "finished")


def _plays(counts: dict[int, int]) -> list[tuple[int, ...]]:
    have = [v for v in VALUES if counts.get(v, 0) > 0]
    plays = [(v,) * k for v in have for k in range(1, counts[v] + 1)]
    for start in have:
        run = [start]
        while run[-1] + 1 in have:
            run.append(run[-1] + 1)
            plays.append(tuple(run))
    return sorted(plays, key=lambda p: (len(p), sum(p), p))


class DepotAdapter(GameAdapter):
    def actions(self, cfg: Config) -> list[str]:
        counts = cfg.options["deck_counts"]
        have = [v for v in VALUES if counts.get(v, 0) > 0]
        out = ["play " + " ".join(map(str, p)) for p in _plays(counts)]
        out.append("pass")
        out += [f"pass give {g}" for g in have]
        for t in have:
            out.append(f"pass take {t}")
            out += [f"pass take {t} give {g}" for g in have if g != t]
        return out

    def encoder(self, cfg: Config) -> Encoder:
        return DepotEncoder(cfg)


class DepotEncoder(Encoder):
    """Depot's view as numbers: phase, turn, round and Storage metrics (D3), the Storage,
    the standing play and its owner, the discard, the seat's hand, every hand's size,
    lost points and penalty cards (D10), and the last action (who, what)."""

    def __init__(self, cfg: Config) -> None:
        n = self.n = cfg.players
        total = float(sum(cfg.options["deck_counts"].values()))
        games = cfg.options["games"]
        big = float(cfg.max_actions)
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASES))
        self.o_seat = lay.add("seat", n)
        self.o_current = lay.add("current", n)
        self.o_round = lay.add("round", 1, 0, big)
        self.o_game = lay.add("game_no", 1, 0, games)
        self.o_target = lay.add("target", 1, 0, big + 255)  # T0 (at most 255) + 1 a round
        self.o_limits = lay.add("set_run_limits", 2, 0, total)
        self.o_passes = lay.add("passes", 1, 0, n)
        self.o_deck = lay.add("deck_count", 1, 0, total)
        self.o_storage = lay.add("storage", 8, 0, total)
        self.o_owner = lay.add("standing_owner", n)
        self.o_standing = lay.add("standing", 8, 0, total)
        self.o_discard = lay.add("discard", 8, 0, total)
        self.o_hand = lay.add("hand", 8, 0, total)
        self.o_counts = lay.add("hand_counts", n, 0, total)
        self.o_lost = lay.add("lost_points", n, 0, 8 * games)
        self.o_pen = lay.add("penalties", n * 8, 0, games)
        self.o_last = lay.add("last_seat", n)
        self.o_last_play = lay.add("last_play", 8, 0, total)
        self.o_last_take = lay.add("last_take", 8)
        self.o_last_give = lay.add("last_give", 8)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        n, me = self.n, v["seat"]
        x = self.layout.zeros()
        ix = _VALUE_INDEX
        hot(x, self.o_phase, PHASES.index(v["phase"]))
        hot(x, self.o_seat, me)
        hot(x, self.o_current, rel(v["current"], me, n))
        x[self.o_round] = v["round"]
        x[self.o_game] = v["game_no"]
        x[self.o_target] = v["target"]
        x[self.o_limits] = v["set_limit"]
        x[self.o_limits + 1] = v["run_limit"]
        x[self.o_passes] = v["passes"]
        x[self.o_deck] = v["deck_count"]
        count(x, self.o_storage, v["storage"], ix)
        st = v["standing"]
        if st is not None:
            hot(x, self.o_owner, rel(st["owner"], me, n))
            count(x, self.o_standing, st["cards"], ix)
        count(x, self.o_discard, v["discard"], ix)
        count(x, self.o_hand, v["hands"][me], ix)
        per_seat(x, self.o_counts, v["hand_counts"], me)
        per_seat(x, self.o_lost, v["lost_points"], me)
        for s, pile in enumerate(v["penalties"]):
            count(x, self.o_pen + 8 * rel(s, me, n), pile, ix)
        last = v["last_action"]
        if last is not None:
            hot(x, self.o_last, rel(last["seat"], me, n))
            words = last["action"].split()
            if words[0] == "play":
                count(x, self.o_last_play, [int(w) for w in words[1:]], ix)
            else:
                for key, off in (("take", self.o_last_take), ("give", self.o_last_give)):
                    if key in words:
                        hot(x, off, int(words[words.index(key) + 1]) - 1)
        return x


_VALUE_INDEX = {v: v - 1 for v in VALUES}

ADAPTER = DepotAdapter()
