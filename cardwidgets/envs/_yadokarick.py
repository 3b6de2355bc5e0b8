"""Yadokarick for the RL adapters: the action spaces and observation encodings of its
three modes.

Actions: standard (Y4.2, Y7.2) ``play`` of every card in use and the three marker
moves; with ``placement_order="choose"`` (Y8.3) the captured cards are arranged one at
a time, bottom to top, with ``arrange next <card>`` (the last card goes on top by
itself), since the arrangements themselves are every permutation of up to a whole
trick. Duo (Y13.5): ``play`` of the 36 cards of its colour. Solo (Y14): ``place`` of
every card on every crab, ``giveup`` of every crab, ``draw`` (and ``row`` with
``solo_initial_row="one_color"``) of each colour, ``take`` of every card, ``decline``.

>>> from cardwidgets.envs.adapter import EnvSpec
>>> [EnvSpec("yadokarick", **kw).num_actions for kw in
...  (dict(players=4), dict(players=4, placement_order="choose"), dict(mode="duo"), dict(mode="solo"))]
[75, 147, 36, 357]
"""

from __future__ import annotations

from array import array
from typing import Any

from .base import Config, Encoder, GameAdapter, Layout, count, hot, per_seat, rel

CRABS = "ABCD"
TRICKS = 10  # Y3.1, Y13.11
ITEM = "arrange next "
STANDARD_PHASES = ("play", "arrange", "marker", "finished")
SOLO_PHASES = ("setup", "setup_color", "turn", "refill", "bonus", "finished")


def _cards(cfg: Config) -> list[str]:
    """The cards in use, in the game's order (the start view lists each with its size)."""
    return list(cfg.start["sizes"])


def _total_size(cfg: Config) -> float:
    return float(sum(cfg.start["sizes"].values()))


class YadokarickAdapter(GameAdapter):
    def actions(self, cfg: Config) -> list[str]:
        cards = _cards(cfg)
        if cfg.mode == "solo":
            out = [f"place {c} {k}" for c in cards for k in CRABS]
            out += [f"giveup {k}" for k in CRABS] + ["draw green", "draw pink"]
            if cfg.options["solo_initial_row"] == "one_color":
                out += ["row green", "row pink"]
            return out + [f"take {c}" for c in cards] + ["decline"]
        out = [f"play {c}" for c in cards]
        if cfg.mode == "standard":
            out += ["move left", "move right", "move stay"]
            if cfg.options["placement_order"] == "choose":
                out += [ITEM + c for c in cards]
        return out

    def encoder(self, cfg: Config) -> Encoder:
        return {"standard": StandardEncoder, "duo": DuoEncoder, "solo": SoloEncoder}[cfg.mode](cfg)

    combinatorial = True

    def items(self, action: Any) -> tuple[str, ...] | None:
        if action.kind != "arrange":
            return None
        return tuple(str(action)[len("arrange "):].split(","))

    def item_name(self, item: str) -> str:
        return ITEM + item

    def item_of(self, name: str) -> str | None:
        return name[len(ITEM):] if name.startswith(ITEM) else None

    def sequence_text(self, items: tuple[str, ...]) -> str:
        return "arrange " + ",".join(items)

    def extra_steps(self, cfg: Config) -> int:
        # Every card of every trick is arranged at most once (Y8.3).
        if cfg.mode == "standard" and cfg.options["placement_order"] == "choose":
            return (cfg.options["rounds"] or cfg.players) * TRICKS * cfg.players
        return 0

    def score_bounds(self, cfg: Config) -> tuple[float, float]:
        # Y14.14: the score pile's sizes minus the penalty pile's; a card is in one of them at most.
        s = _total_size(cfg)
        return -s, s


def _positions(x: array, off: int, cards: list[str], index: dict[str, int]) -> None:
    """Each card's place in a stack, 1 for the bottom (where the order matters: houses, tricks)."""
    for k, c in enumerate(cards):
        x[off + index[c]] = k + 1.0


class StandardEncoder(Encoder):
    """Standard Yadokarick's view as numbers: phase, round, trick, dealer and leader, the size
    marker and target (Y7), the seat's hand, every hand's size, the trick in play order by
    seat, each house in stacking order, its size and roof (Y8), the collapsed piles as far
    as they are shown (Y15.3), the discard, the marker movers, the captor arranging and its
    cards, the seat's own arrangement so far, the last trick and the totals (Y10)."""

    def __init__(self, cfg: Config) -> None:
        n = self.n = cfg.players
        cards = _cards(cfg)
        C = self.C = len(cards)
        self.index = {c: i for i, c in enumerate(cards)}
        S = _total_size(cfg)
        rounds = cfg.options["rounds"] or n
        per_round = 2 * S + 105  # Y10.2, Y10.3: H + 5 at most, T - H - F at least (T <= 100)
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(STANDARD_PHASES))
        self.o_seat = lay.add("seat", n)
        self.o_current = lay.add("current", n)
        self.o_leader = lay.add("leader", n)
        self.o_dealer = lay.add("dealer", n)
        self.o_round = lay.add("round_trick", 2, 0, max(rounds, TRICKS))
        self.o_marker = lay.add("marker_target", 2, 0, 100)
        self.o_hand = lay.add("hand", C)
        self.o_counts = lay.add("hand_counts", n, 0, TRICKS)
        self.o_trick = lay.add("trick", n * C, 0, n)
        self.o_houses = lay.add("houses", n * C, 0, C)
        self.o_sizes = lay.add("house_sizes", n, 0, S)
        self.o_roofed = lay.add("roofed", n)
        self.o_collapsed = lay.add("collapsed", n * C)
        self.o_ccounts = lay.add("collapsed_counts", n, 0, C)
        self.o_csizes = lay.add("collapsed_sizes", n, 0, S)
        self.o_discard = lay.add("discard", C)
        self.o_aside = lay.add("aside_count", 1, 0, C)
        self.o_movers = lay.add("movers", n)
        self.o_captor = lay.add("arranging", n)
        self.o_captured = lay.add("to_arrange", C)
        self.o_mine = lay.add("arranged_so_far", C, 0, C)
        self.o_last_leader = lay.add("last_trick_leader", n)
        self.o_last = lay.add("last_trick", n * C, 0, n)
        self.o_totals = lay.add("totals", n, -per_round * rounds, per_round * rounds)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        n, me, C, ix = self.n, v["seat"], self.C, self.index
        x = self.layout.zeros()
        hot(x, self.o_phase, STANDARD_PHASES.index(v["phase"]))
        hot(x, self.o_seat, me)
        hot(x, self.o_current, rel(v["current"], me, n))
        hot(x, self.o_leader, rel(v["leader"], me, n))
        hot(x, self.o_dealer, rel(v["dealer"], me, n))
        x[self.o_round] = v["round"]
        x[self.o_round + 1] = v["trick_no"]
        x[self.o_marker] = v["marker"]
        x[self.o_marker + 1] = v["target"]
        count(x, self.o_hand, v["hands"][me], ix)
        per_seat(x, self.o_counts, v["hand_counts"], me)
        for k, t in enumerate(v["trick"]):
            x[self.o_trick + C * rel(t["seat"], me, n) + ix[t["card"]]] = k + 1.0
        for s in range(n):
            r = rel(s, me, n)
            _positions(x, self.o_houses + C * r, v["houses"][s], ix)
            count(x, self.o_collapsed + C * r, v["collapsed"][s] or (), ix)
        per_seat(x, self.o_sizes, v["house_sizes"], me)
        per_seat(x, self.o_roofed, v["roofed"], me)
        per_seat(x, self.o_ccounts, v["collapsed_counts"], me)
        per_seat(x, self.o_csizes, v["collapsed_sizes"], me)
        count(x, self.o_discard, v["discard"], ix)
        x[self.o_aside] = v["aside_count"]
        for s in v["movers"]:
            hot(x, self.o_movers, rel(s, me, n))
        arr = v["arrange"]
        if arr is not None:
            hot(x, self.o_captor, rel(arr["seat"], me, n))
            count(x, self.o_captured, arr["cards"], ix)
        _positions(x, self.o_mine, list(prefix), ix)
        last = v["last_trick"]
        if last is not None:
            hot(x, self.o_last_leader, rel(last["leader"], me, n))
            for k, t in enumerate(last["cards"]):
                x[self.o_last + C * rel(t["seat"], me, n) + ix[t["card"]]] = k + 1.0
        per_seat(x, self.o_totals, v["totals"], me)
        return x


class DuoEncoder(Encoder):
    """Duo Yadokarick's view as numbers, with the participants counted from the seat (the
    seat, the other player, the NPC): the turn order and leader (Y13.3, Y13.8), the seat's
    hand, both hands' sizes, the trick in play order, each house in stacking order with
    its size and roof, the collapsed piles as shown, the discard, the target (the NPC's
    house size, Y13.9), the NPC's deck size and the last trick."""

    def __init__(self, cfg: Config) -> None:
        cards = _cards(cfg)
        C = self.C = len(cards)
        self.index = {c: i for i, c in enumerate(cards)}
        S = _total_size(cfg)
        lay = self.layout = Layout()
        self.o_phase = lay.add("finished", 1)
        self.o_seat = lay.add("seat", 2)
        self.o_current = lay.add("current", 2)
        self.o_trick_no = lay.add("trick_no", 1, 0, TRICKS)
        self.o_leader = lay.add("leader", 3)
        self.o_order = lay.add("order", 9)
        self.o_hand = lay.add("hand", C)
        self.o_counts = lay.add("hand_counts", 2, 0, TRICKS)
        self.o_trick = lay.add("trick", 3 * C, 0, 3)
        self.o_houses = lay.add("houses", 3 * C, 0, C)
        self.o_sizes = lay.add("house_sizes", 3, 0, S)
        self.o_roofed = lay.add("roofed", 3)
        self.o_collapsed = lay.add("collapsed", 3 * C)
        self.o_ccounts = lay.add("collapsed_counts", 3, 0, C)
        self.o_csizes = lay.add("collapsed_sizes", 3, 0, S)
        self.o_discard = lay.add("discard", C)
        self.o_target = lay.add("target", 1, 0, S)
        self.o_npc_deck = lay.add("npc_deck_count", 1, 0, C)
        self.o_aside = lay.add("aside_count", 1, 0, C)
        self.o_last_leader = lay.add("last_trick_leader", 3)
        self.o_last = lay.add("last_trick", 3 * C, 0, 3)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        me, C, ix = v["seat"], self.C, self.index
        # Participants by name -> 0 the seat, 1 the other player, 2 the NPC.
        who = {name: (s - me) % 2 for s, name in enumerate(v["names"])}
        who["NPC"] = 2
        part = [who[p] for p in v["participants"]]
        x = self.layout.zeros()
        x[self.o_phase] = float(v["phase"] == "finished")
        hot(x, self.o_seat, me)
        hot(x, self.o_current, rel(v["current"], me, 2))
        x[self.o_trick_no] = v["trick_no"]
        hot(x, self.o_leader, who.get(v["leader"]))
        for pos, name in enumerate(v["order"]):
            hot(x, self.o_order + 3 * pos, who[name])
        count(x, self.o_hand, v["hands"][me], ix)
        per_seat(x, self.o_counts, v["hand_counts"], me)
        for k, t in enumerate(v["trick"]):
            x[self.o_trick + C * who[t["who"]] + ix[t["card"]]] = k + 1.0
        for i, p in enumerate(part):
            _positions(x, self.o_houses + C * p, v["houses"][i], ix)
            count(x, self.o_collapsed + C * p, v["collapsed"][i] or (), ix)
            x[self.o_sizes + p] = v["house_sizes"][i]
            x[self.o_roofed + p] = float(v["roofed"][i])
            x[self.o_ccounts + p] = v["collapsed_counts"][i]
            x[self.o_csizes + p] = v["collapsed_sizes"][i] or 0.0  # None: not shown (Y15.3)
        count(x, self.o_discard, v["discard"], ix)
        x[self.o_target] = v["target"]
        x[self.o_npc_deck] = v["npc_deck_count"]
        x[self.o_aside] = v["aside_count"]
        last = v["last_trick"]
        if last is not None:
            hot(x, self.o_last_leader, who.get(last["leader"]))
            for k, t in enumerate(last["cards"]):
                x[self.o_last + C * who[t["who"]] + ix[t["card"]]] = k + 1.0
        return x


class SoloEncoder(Encoder):
    """Solo Yadokarick's view as numbers: the phase (Y14.2-Y14.10), the row, each crab's
    house in stacking order with its card count and size and roof mode, both decks' sizes,
    the score and penalty piles with their points (Y14.14), the bonus on offer, the cards
    out of play and the turn count."""

    def __init__(self, cfg: Config) -> None:
        cards = _cards(cfg)
        C = self.C = len(cards)
        self.index = {c: i for i, c in enumerate(cards)}
        self.size = dict(cfg.start["sizes"])
        S = _total_size(cfg)
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(SOLO_PHASES))
        self.o_row = lay.add("row", C)
        self.o_crabs = lay.add("crabs", 4 * C, 0, C)
        self.o_crab_counts = lay.add("crab_counts", 4, 0, C)
        self.o_crab_sizes = lay.add("crab_sizes", 4, 0, S)
        self.o_roof = lay.add("roof_mode", 4)
        self.o_decks = lay.add("deck_counts", 2, 0, C)
        self.o_score_pile = lay.add("score_pile", C)
        self.o_penalty_pile = lay.add("penalty_pile", C)
        self.o_points = lay.add("points_penalty", 2, 0, S)
        self.o_score = lay.add("score", 1, -S, S)
        self.o_bonus = lay.add("bonus", C)
        self.o_out = lay.add("out_count", 1, 0, C)
        self.o_turns = lay.add("turns", 1, 0, cfg.max_actions)

    def encode(self, v: dict[str, Any], prefix: tuple[str, ...] = ()) -> array:
        C, ix, size = self.C, self.index, self.size
        x = self.layout.zeros()
        hot(x, self.o_phase, SOLO_PHASES.index(v["phase"]))
        count(x, self.o_row, v["row"], ix)
        for k, crab in enumerate(v["crabs"]):
            _positions(x, self.o_crabs + C * k, crab, ix)
            x[self.o_crab_counts + k] = len(crab)
            x[self.o_crab_sizes + k] = sum(size[c] for c in crab)
            x[self.o_roof + k] = float(v["roof_mode"][k])
        x[self.o_decks] = v["deck_counts"][0]
        x[self.o_decks + 1] = v["deck_counts"][1]
        count(x, self.o_score_pile, v["score_pile"], ix)
        count(x, self.o_penalty_pile, v["penalty_pile"], ix)
        x[self.o_points] = v["points"]
        x[self.o_points + 1] = v["penalty"]
        x[self.o_score] = v["score"]
        count(x, self.o_bonus, v["bonus"], ix)
        x[self.o_out] = v["out_count"]
        x[self.o_turns] = v["turns"]
        return x


ADAPTER = YadokarickAdapter()
