"""cirno+neu for the RL adapters: its action space and observation encoding.

Actions (N3, N4.2): ``play <card>`` for every card of the deck, and SHOT and DOUBLE SHOT
once per target seat besides (a forced bust plays them without a target, N4.4).

>>> from cardwidgets.envs.adapter import EnvSpec
>>> spec = EnvSpec("cirno_neu", players=3)
>>> spec.num_actions, spec.names[:2], spec.names[-3:]
(25, ('play 1', 'play 2'), ('play dshot @0', 'play dshot @1', 'play dshot @2'))
"""

from __future__ import annotations

from array import array
from typing import Any

from ..core.errors import quote
from ..games import game_module
from .base import Config, Encoder, GameAdapter, Layout, count, hot, per_seat, rel

#: The cards of the N1.3 table, in its order, as the views write them.
TOKENS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "50",
          "-1", "-10", "99", "PASS", "TURN", "SHOT", "DOUBLE", "DSHOT")
TARGETED = ("SHOT", "DSHOT")
_INDEX = {t: i for i, t in enumerate(TOKENS)}
#: What a card adds to the sum (N3.1) or takes from it (N3.2), for the sum's bounds.
_PLUS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "50": 50}


def _deck(cfg: Config) -> dict[str, int]:
    """The deck's counts by canonical token (the option may name cards any way the game reads)."""
    parse = game_module("cirno_neu").parse_action
    out: dict[str, int] = {}
    for key, n in cfg.options["deck_counts"].items():
        token = str(parse(f"play {key}")).split()[1].upper()
        if token not in _INDEX:
            raise ValueError(f"unknown cirno+neu card {quote(str(key))}")
        out[token] = out.get(token, 0) + n
    return out


class CirnoNeuAdapter(GameAdapter):
    def actions(self, cfg: Config) -> list[str]:
        deck = _deck(cfg)
        out = []
        for t in TOKENS:
            if deck.get(t, 0) > 0:
                out.append("play " + t.lower())
        for t in TARGETED:
            if deck.get(t, 0) > 0:
                out += [f"play {t.lower()} @{s}" for s in range(cfg.players)]
        return out

    def encoder(self, cfg: Config) -> Encoder:
        return CirnoNeuEncoder(cfg)


class CirnoNeuEncoder(Encoder):
    """cirno+neu's view as numbers: the turn (who acts, the anchor, a shot turn, cards to
    play and played, N4.1, N5), the sum and direction, the top of the main stack, the
    seat's hand, every hand's size, chips, who is still in and the order they went out
    (N7), the last forced bust's proof (N8.2) and the last action."""

    def __init__(self, cfg: Config) -> None:
        n = self.n = cfg.players
        T = len(TOKENS)
        deck = _deck(cfg)
        total = float(sum(deck.values()))
        limit = cfg.options["limit"]
        big = float(cfg.max_actions)
        lay = self.layout = Layout()
        self.o_phase = lay.add("finished", 1)
        self.o_seat = lay.add("seat", n)
        self.o_current = lay.add("current", n)
        self.o_round = lay.add("round", 1, 0, big)
        self.o_turn_no = lay.add("turn_no", 1, 0, big)
        # The sum only passes the limit on the card that busts (N4.4); below, each minus
        # card takes 10 at most and the 99 card sets it to -limit at the lowest (N3.3).
        self.o_sum = lay.add("sum", 1, -limit - 10 * big, limit + max(_PLUS.values()))
        self.o_dir = lay.add("clockwise", 1)
        self.o_dealer = lay.add("dealer", n)
        self.o_top = lay.add("stack_top", T, 0, 5)
        self.o_top1 = lay.add("stack_top_card", T)
        self.o_stack = lay.add("stack_size", 1, 0, total)
        self.o_draw = lay.add("draw_count", 1, 0, total)
        self.o_actor = lay.add("turn_actor", n)
        self.o_anchor = lay.add("turn_anchor", n)
        self.o_shot = lay.add("shot_turn", 1)
        self.o_req = lay.add("turn_required_played", 2, 0, 2)
        self.o_ptarget = lay.add("pending_shot_target", n)
        self.o_pdouble = lay.add("pending_double", 1)
        self.o_hand = lay.add("hand", T, 0, total)
        self.o_counts = lay.add("hand_counts", n, 0, total)
        self.o_chips = lay.add("chips", n, 0, cfg.options["lives"])
        self.o_active = lay.add("active", n)
        self.o_out = lay.add("out_order", n, 0, n)
        self.o_rseat = lay.add("bust_seat", n)
        self.o_rsum = lay.add("bust_sum", 1, -limit - 10 * big, limit + max(_PLUS.values()))
        self.o_rhand = lay.add("bust_hand", T, 0, total)
        self.o_rcard = lay.add("bust_card", T)
        self.o_rforced = lay.add("bust_forced", 1)
        self.o_last = lay.add("last_seat", n)
        self.o_last_card = lay.add("last_card", T)
        self.o_last_target = lay.add("last_target", n)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        n, me = self.n, v["seat"]
        x = self.layout.zeros()
        x[self.o_phase] = float(v["phase"] == "finished")
        hot(x, self.o_seat, me)
        hot(x, self.o_current, rel(v["current"], me, n))
        x[self.o_round] = v["round"]
        x[self.o_turn_no] = v["turn_no"]
        x[self.o_sum] = v["sum"]
        x[self.o_dir] = float(v["clockwise"])
        hot(x, self.o_dealer, rel(v["dealer"], me, n))
        top = v["stack_top"]
        count(x, self.o_top, top, _INDEX)
        if top:
            hot(x, self.o_top1, _INDEX[top[-1]])
        x[self.o_stack] = v["stack_size"]
        x[self.o_draw] = v["draw_count"]
        if v["current"] is not None:
            t = v["turn"]
            hot(x, self.o_actor, rel(t["actor"], me, n))
            hot(x, self.o_anchor, rel(t["anchor"], me, n))
            x[self.o_shot] = float(t["kind"] == "shot")
            x[self.o_req] = t["required"]
            x[self.o_req + 1] = t["played"]
        pend = v["pending"]
        hot(x, self.o_ptarget, rel(pend["shot_target"], me, n))
        x[self.o_pdouble] = float(bool(pend["double_next"]))
        count(x, self.o_hand, v["hands"][me], _INDEX)
        per_seat(x, self.o_counts, v["hand_counts"], me)
        if v["chips"] is not None:
            per_seat(x, self.o_chips, v["chips"], me)
        per_seat(x, self.o_active, v["active"], me)
        for place, s in enumerate(v["eliminated"]):
            x[self.o_out + rel(s, me, n)] = place + 1
        bust = v["revealed"]
        if bust is not None:
            hot(x, self.o_rseat, rel(bust["seat"], me, n))
            x[self.o_rsum] = bust["sum"]
            count(x, self.o_rhand, bust["hand"] or (), _INDEX)
            if bust.get("card") is not None:
                hot(x, self.o_rcard, _INDEX[bust["card"]])
            x[self.o_rforced] = float(bool(bust["forced"]))
        last = v["last_action"]
        if last is not None:
            hot(x, self.o_last, rel(last["seat"], me, n))
            words = last["action"].split()
            hot(x, self.o_last_card, _INDEX[words[1].upper()])
            if len(words) > 2:
                hot(x, self.o_last_target, rel(int(words[2].lstrip("@")), me, n))
        return x


ADAPTER = CirnoNeuAdapter()
