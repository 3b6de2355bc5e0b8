"""Crypto Trick for the RL adapters: its action space and observation encoding.

Actions (C5, C6): ``reveal``, ``give`` and ``play`` of every card of the deck in use
(6N + 2 cards, C2.2), ``want`` and ``pass``.

>>> from cardwidgets.envs.adapter import EnvSpec
>>> spec = EnvSpec("crypto_trick", players=2)
>>> spec.num_actions, spec.names[0], spec.names[14:16], spec.names[-1]
(44, 'reveal Y1', ('want', 'pass'), 'play W6')
"""

from __future__ import annotations

from array import array
from typing import Any

from .base import Config, Encoder, GameAdapter, Layout, count, hot, per_seat, rel

PHASES = ("offer", "declare", "give", "follow", "finished")
LETTERS = "YBRPGW"
_COLOUR = {c: i for i, c in enumerate(LETTERS)}


class CryptoTrickAdapter(GameAdapter):
    def actions(self, cfg: Config) -> list[str]:
        cards = cfg.start["cards"]
        return ([f"reveal {c}" for c in cards] + ["want", "pass"] + [f"give {c}" for c in cards]
                + [f"play {c}" for c in cards])

    def encoder(self, cfg: Config) -> Encoder:
        return CryptoTrickEncoder(cfg)


class CryptoTrickEncoder(Encoder):
    """Crypto Trick's view as numbers: phase, round and trick, the roles of the trick (first
    player, declarer, leader, who is winning, C0.4), the trump indicator and trumps (C4.4),
    the offer and the declarations, the lead colour and the cards on the table by seat, the
    seat's hand, the cards given face down that the seat knows of (C11.3), the won piles as
    far as they are shown (C11.5) with their blocks, scores and totals, and the last trick."""

    def __init__(self, cfg: Config) -> None:
        n = self.n = cfg.players
        cards = cfg.start["cards"]
        C = self.C = len(cards)
        self.index = {c: i for i, c in enumerate(cards)}
        rounds = cfg.options["rounds"]
        # A round scores 5 with no block, B x K up to 3 blocks (K <= 3), else B or -B (C9.2).
        lo, hi = -float(C), float(max(9, C))
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASES))
        self.o_seat = lay.add("seat", n)
        self.o_current = lay.add("current", n)
        self.o_first = lay.add("first", n)
        self.o_declarer = lay.add("declarer", n)
        self.o_leader = lay.add("leader", n)
        self.o_winning = lay.add("winning", n)
        self.o_round = lay.add("round_trick", 2, 0, max(rounds, 6))
        self.o_indicator = lay.add("indicator", C)
        self.o_trumps = lay.add("trumps", len(LETTERS))
        self.o_offered = lay.add("offered", C)
        self.o_decl = lay.add("declarations", 2 * n)
        self.o_lead = lay.add("lead_colour", len(LETTERS))
        self.o_table = lay.add("table", n * C)
        self.o_hand = lay.add("hand", C)
        self.o_counts = lay.add("hand_counts", n, 0, 7)
        self.o_gave = lay.add("given_by_me", C)
        self.o_got = lay.add("given_to_me", C)
        self.o_gives = lay.add("given_between_others", C)
        self.o_won = lay.add("won", n * C)
        self.o_won_counts = lay.add("won_counts", n, 0, C)
        self.o_blocks = lay.add("won_blocks", n, 0, C)
        self.o_block_colours = lay.add("won_block_colours", n * len(LETTERS), 0, C)
        self.o_score = lay.add("score_now", n, lo, hi)
        self.o_totals = lay.add("totals", n, lo * rounds, hi * rounds)
        self.o_last_leader = lay.add("last_trick_leader", n)
        self.o_last_winner = lay.add("last_trick_winner", n)
        self.o_last = lay.add("last_trick", n * C)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        n, me, C, ix = self.n, v["seat"], self.C, self.index
        x = self.layout.zeros()
        hot(x, self.o_phase, PHASES.index(v["phase"]))
        hot(x, self.o_seat, me)
        for key, off in (("current", self.o_current), ("first", self.o_first), ("declarer", self.o_declarer),
                         ("leader", self.o_leader), ("winning", self.o_winning)):
            hot(x, off, rel(v[key], me, n))
        x[self.o_round] = v["round"]
        x[self.o_round + 1] = v["trick"]
        hot(x, self.o_indicator, ix[v["indicator"]])
        for c in v["trumps"]:
            hot(x, self.o_trumps, _COLOUR[c])
        if v["offered"] is not None:
            hot(x, self.o_offered, ix[v["offered"]])
        for d in v["declarations"]:
            hot(x, self.o_decl + 2 * rel(d["seat"], me, n), 0 if d["want"] else 1)
        if v["lead_color"] is not None:
            hot(x, self.o_lead, _COLOUR[v["lead_color"]])
        for t in v["table"]:
            hot(x, self.o_table + C * rel(t["seat"], me, n), ix[t["card"]])
        count(x, self.o_hand, v["hands"][me], ix)
        per_seat(x, self.o_counts, v["hand_counts"], me)
        for g in v["gives"]:
            if g["card"] is not None:
                off = self.o_gave if g["from"] == me else self.o_got if g["to"] == me else self.o_gives
                hot(x, off, ix[g["card"]])
        for s, pile in enumerate(v["won"]):
            if pile is not None:
                count(x, self.o_won + C * rel(s, me, n), pile, ix)
        per_seat(x, self.o_won_counts, v["won_counts"], me)
        per_seat(x, self.o_blocks, v["won_blocks"], me)
        for s, colours in enumerate(v["won_block_colors"]):
            base = self.o_block_colours + len(LETTERS) * rel(s, me, n)
            for c in colours:
                x[base + _COLOUR[c]] += 1.0
        per_seat(x, self.o_score, v["score_now"], me)
        per_seat(x, self.o_totals, v["totals"], me)
        last = v["last_trick"]
        if last is not None:
            hot(x, self.o_last_leader, rel(last["leader"], me, n))
            hot(x, self.o_last_winner, rel(last["winner"], me, n))
            for t in last["cards"]:
                hot(x, self.o_last + C * rel(t["seat"], me, n), ix[t["card"]])
        return x


ADAPTER = CryptoTrickAdapter()
