"""What a seat of Depot knows: its view (D11), and the worlds it cannot tell apart
(``sample_world``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import plural
from .cards import _cards, _counts, _fmt, _size

if TYPE_CHECKING:
    from .state import DepotState


class SeatKnowledge:
    """What a seat sees and knows (D11): its view, and the worlds it cannot tell apart."""

    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        self.check_seat(seat)
        out = self.outcome()
        v = {
            "game": "depot",
            "players": self.players,
            "names": [self.seat_label(s) for s in range(self.players)],
            "seat": seat,
            "phase": self._phase,
            "current": self.current_player,
            "round": self._round,
            "game_no": self._game_no,
            "games": self.options["games"],
            "target": self._target,
            "storage": _cards(self._storage),
            "set_limit": self._info.sl,
            "run_limit": self._info.rl,
            "standing": None if self._standing is None else {"owner": self._standing[0],
                                                               "cards": list(self._standing[1].cards)},
            "passes": self._passes,
            "deck_count": len(self._deck),
            "discard": _cards(self._discard),
            "hands": [_cards(h) if seat is None or s == seat else None for s, h in enumerate(self._hands)],
            "hand_counts": [_size(h) for h in self._hands],
            "lost_points": list(self._lost),
            "penalties": [sorted(p) for p in self._penalties],
            "results": [dict(r) for r in self._results],
            "last_action": None if self._last is None else {"seat": self._last[0], "action": str(self._last[1])},
            "outcome": None if out is None else out.to_dict(),
        }
        if seat is None:
            v["deck"] = list(self._deck[::-1])  # the teacher sees everything, deck top first
        return v

    @staticmethod
    def view_text(v: dict[str, Any]) -> str:
        n = v["players"]
        head = (f"Depot · {n} players · game {v['game_no']}/{v['games']} · round {v['round']} · "
                f"T={v['target']} · deck {v['deck_count']} · discard {len(v['discard'])}")
        st = v["standing"]
        lines = [
            head,
            f"Storage {_fmt(v['storage'])} (set {v['set_limit']}, run {v['run_limit']})",
            "Standing " + ("—" if st is None else f"{_fmt(st['cards'])} by {v['names'][st['owner']]}")
            + f" · passes {v['passes']}",
        ]
        for s in range(n):
            mark = ">" if s == v["current"] else " "
            hand = v["hands"][s]
            cards = _fmt(hand) if hand is not None else f"{plural(v['hand_counts'][s], 'card')} (hidden)"
            extra = f" · lost {v['lost_points'][s]}" if v["games"] == 3 else ""
            lines.append(f"{mark} {v['names'][s]} {cards}{extra}")
        if v.get("deck") is not None:
            lines.append(f"Deck (top first) {_fmt(v['deck'])}")
        if v["outcome"] is not None:
            lines.append(f"Finished: {v['outcome']['reason']}")
        return "\n".join(lines)

    # ------------------------------------------------------------- determinization
    def _sample(self, seat: int, rng: Any) -> "DepotState":
        """Deal again every card ``seat`` cannot place (D11).

        Everything but the other hands and the deck order is public. Of another hand the
        table knows the cards it saw the player take from the Storage and not yet play or
        give (``_known``); those stay. After a reshuffle the deck is the discard pile
        everyone saw, less the cards drawn since, so only its order is dealt again;
        before one, the deck and the unknown parts of the other hands share their cards.
        The cards to deal are sorted first, so the world depends on ``rng`` and on what
        ``seat`` knows only.
        """
        world = self.clone()
        others = [s for s in range(self.players) if s != seat]
        unknown = [self._hands[s] - self._known[s] for s in others]
        deck = _counts(self._deck)
        pool = _cards(sum(unknown) + (0 if self._deck_known else deck))
        rng.shuffle(pool)
        k = 0
        for s, u in zip(others, unknown):
            size = _size(u)
            world._hands[s] = self._known[s] + _counts(pool[k:k + size])
            k += size
        if self._deck_known:
            pool = _cards(deck)
            rng.shuffle(pool)
            k = 0
        world._deck = bytes(pool[k:])
        return world
