"""What a seat of Yadokarick sees and knows in the trick modes: its view, and the worlds it
cannot tell apart (``sample_world``). Solo keeps its own in ``solo.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import plural
from .cards import NAME, NPC, PLAY, names

if TYPE_CHECKING:
    from .trick import DuoState, StandardState


class StandardSeat:
    """What a seat sees and knows of a standard game: its view, and the worlds it cannot tell apart."""

    __slots__ = ()

    # ------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_seat(seat)
        cfg = self._cfg
        n = self.players
        out = self.outcome()
        v = {
            "game": "yadokarick",
            "mode": "standard",
            "players": n,
            "names": [self.seat_label(s) for s in range(n)],
            "seat": seat,
            "phase": self._phase,
            "current": self._cur,
            "card_set": self.options["card_set"],
            "round": self._round,
            "rounds": cfg.rounds,
            "trick_no": self._trick_no,
            "dealer": self._dealer,
            "leader": self._leader,
            "marker": self._marker,
            "target": self._marker,
            "size_track": list(cfg.track),
            "house_limit": cfg.house_limit,
            "three_player_capture": self.options["three_player_capture"],
            "hands": [self.hand(s) if seat is None or s == seat else None for s in range(n)],
            "hand_counts": [len(h) for h in self._hands],
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            **self._house_view(seat, n),
            "aside_count": len(self._aside),
            "movers": list(self._movers) if self._phase == "marker" else [],
            "arrange": None if self._phase != "arrange" else {"seat": self._pending[0][0],
                                                               "cards": names(self._pending[0][1])},
            "last_trick": self._last_trick_view(),
            "totals": list(self._totals),
            "results": [dict(r) for r in self._results],
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["aside"] = names(self._aside)
        return v

    def _last_trick_view(self) -> dict[str, Any] | None:
        if self._last_trick is None:
            return None
        lead, cards = self._last_trick
        n = self.players
        return {"leader": lead, "cards": [{"seat": (lead + i) % n, "card": NAME[c]} for i, c in enumerate(cards)]}

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        lines = [f"Yadokarick · {n} players · round {v['round']}/{v['rounds']} · trick {v['trick_no']}/10 · "
                 f"marker {v['marker']} (track {v['size_track'][0]}–{v['size_track'][1]}) · "
                 f"{v['card_set']} cards · aside {v['aside_count']}"]
        trick = " ".join(f"{v['names'][t['seat']]}:{t['card']}" for t in v["trick"]) or "—"
        lines.append(f"Trick: {trick} · discard {len(v['discard'])}")
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            hand = v["hands"][s]
            cards = ("[" + " ".join(hand) + "]") if hand is not None else f"{plural(v['hand_counts'][s], 'card')}"
            roof = " roofed" if v["roofed"][s] else ""
            col = v["collapsed"][s]
            f = v["collapsed_sizes"][s]
            coll = (f" · collapsed {' '.join(col) or '—'} (F {f})" if col is not None
                    else f" · collapsed {v['collapsed_counts'][s]}")
            lines.append(f"{mark} {v['names'][s]} {cards} · house [{' '.join(v['houses'][s])}] "
                         f"H {v['house_sizes'][s]}{roof}{coll} · total {v['totals'][s]}")
        if v["phase"] == "marker":
            lines.append("Marker movers: " + ", ".join(v["names"][s] for s in v["movers"]))
        if v["arrange"]:
            lines.append(f"{v['names'][v['arrange']['seat']]} arranges {' '.join(v['arrange']['cards'])}")
        if v.get("aside") is not None:
            lines.append("Aside: " + (" ".join(v["aside"]) or "—"))
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    def _sample(self, seat: int, rng: Any) -> "StandardState":
        """Deal the cards ``seat`` has not seen (the other hands, the cards set aside, and with
        ``collapsed_visibility="count_only"`` the collapsed cards it never saw in a house) again
        at random; hand sizes and pile sizes stay. Every card played was seen face up, and there
        is no duty to follow (Y4.2), so nothing else is known about a hand."""
        others = [s for s in range(self.players) if s != seat]
        blind = self._blind(seat)
        pool = [a.cid for s in others for a in self._hands[s]]
        pool += self._aside
        for s, k in blind:
            pool += self._collapsed[s][:k]
        world = self.clone()
        world._blind_start = self._start_piles()
        world._aside = tuple(_deal(world, rng, pool, others, blind))
        return world


class DuoSeat:
    """What a seat sees and knows of a duo game: its view, and the worlds it cannot tell apart."""

    __slots__ = ()

    # ------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_seat(seat)
        out = self.outcome()
        v = {
            "game": "yadokarick",
            "mode": "duo",
            "players": 2,
            "names": [self.seat_label(0), self.seat_label(1)],
            "seat": seat,
            "phase": self._phase,
            "current": self._cur,
            "trick_no": self._trick_no,
            "order": [self.seat_label(w) for w in self._cfg.order],
            "leader": self.seat_label(self._cfg.order[self._lead]),
            "hands": [self.hand(s) if seat is None or s == seat else None for s in range(2)],
            "hand_counts": [len(h) for h in self._hands],
            "trick": [{"who": self.seat_label(w), "card": c} for w, c in self.trick],
            "participants": [self.seat_label(0), self.seat_label(1), "NPC"],
            **self._house_view(seat, 3),
            "target": self.house_size(NPC),
            "house_limit": self._cfg.house_limit,
            "duo_roofs": self._cfg.roofs_apply,
            "npc_deck_count": len(self._npc_deck),
            "aside_count": len(self._aside),
            "last_trick": self._last_trick_view(),
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["npc_deck"] = names(self._npc_deck[::-1])
            v["aside"] = names(self._aside)
        return v

    def _last_trick_view(self) -> dict[str, Any] | None:
        if self._last_trick is None:
            return None
        lead, cards = self._last_trick
        order = self._cfg.order
        return {"leader": self.seat_label(order[lead]),
                "cards": [{"who": self.seat_label(order[(lead + i) % 3]), "card": NAME[c]}
                          for i, c in enumerate(cards)]}

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        lines = [f"Yadokarick duo · trick {v['trick_no']}/10 · table {' → '.join(v['order'])} · "
                 f"target (NPC house) {v['target']} · NPC deck {v['npc_deck_count']}"]
        trick = " ".join(f"{t['who']}:{t['card']}" for t in v["trick"]) or "—"
        lines.append(f"Trick: {trick} · discard {len(v['discard'])}")
        for w, name in enumerate(v["participants"]):
            mark = ">" if w == v["current"] else " "
            if w < 2:
                hand = v["hands"][w]
                cards = ("[" + " ".join(hand) + "] ") if hand is not None else \
                    f"{plural(v['hand_counts'][w], 'card')} "
            else:
                cards = ""
            roof = " roofed" if v["roofed"][w] else ""
            col = v["collapsed"][w]
            coll = f" · collapsed {' '.join(col) or '—'}" if col is not None else \
                f" · collapsed {v['collapsed_counts'][w]}"
            lines.append(f"{mark} {name} {cards}· house [{' '.join(v['houses'][w])}] H {v['house_sizes'][w]}"
                         f"{roof}{coll}")
        if v.get("npc_deck") is not None:
            lines.append("NPC deck (top first): " + (" ".join(v["npc_deck"]) or "—"))
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    def _sample(self, seat: int, rng: Any) -> "DuoState":
        """Deal the cards ``seat`` has not seen again at random: the other player's hand, the NPC
        deck in a new order (its next card is unknown until turned over, Y13.5), the cards set
        aside, and with ``collapsed_visibility="count_only"`` the collapsed cards it never saw."""
        other = 1 - seat
        blind = self._blind(seat)
        pool = [a.cid for a in self._hands[other]] + self._npc_deck + list(self._aside)
        for s, k in blind:
            pool += self._collapsed[s][:k]
        world = self.clone()
        world._blind_start = self._start_piles()
        rest = _deal(world, rng, pool, [other], blind)
        world._aside = tuple(rest[:len(self._aside)])
        world._npc_deck = rest[len(self._aside):]
        return world


def _deal(world: Any, rng: Any, pool: list[int], seats: list[int], blind: list[tuple[int, int]]) -> list[int]:
    """Deal ``pool`` at random into a clone: each of ``seats`` gets as many cards as it holds,
    each blind collapsed pile its ``k`` bottom cards; the rest is returned (aside, NPC deck).
    The pool is sorted first, so that the world depends on the rng and on what the seat knows
    only, never on where the real cards are."""
    pool.sort()
    rng.shuffle(pool)
    i = 0
    for s in seats:
        m = len(world._hands[s])
        world._hands[s] = [PLAY[c] for c in sorted(pool[i:i + m])]
        i += m
    for s, k in blind:
        world._collapsed[s][:k] = pool[i:i + k]
        i += k
    return pool[i:]
