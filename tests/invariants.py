"""What must hold after anything at all happens to a game, a timeline or a table.

The stateful tests (``tests/test_stateful.py``) check these after every step of
random programs; the soak (``benchmarks/soak.py``) checks the cheap ones after
every action of millions and the others at sampled steps. Each check raises
``AssertionError`` saying what broke.
"""

from __future__ import annotations

import json
import random
from typing import Any

from cardwidgets import IllegalActionError, InvalidActionError, Replay, Timeline
from cardwidgets.core import ANY

#: What a refused request may raise: the action's errors, or ValueError for a bad seat.
REFUSED = (IllegalActionError, InvalidActionError, ValueError)

#: Action-shaped junk: none of it is an action of any game.
JUNK = ["", " ", "\x00", "play", "pass take", "play 1 1 1 1 1 1 1 1 1 1", "play ⑨", "S9: play 1", "Z: pass",
        "x" * 201, "play " + "9" * 300, "reveal", "give", "play -", "move", "arrange", None, 7, 1.5, True,
        ["play 1"], {"action": "play 1"}, b"play 1"]
#: Seat arguments that are no seat of a game.
BAD_SEATS = [True, False, 1.0, -1, 8, 10**20, "A", "0", [0], {}]


# --------------------------------------------------------------------------- a position
def bound(st: Any) -> int:
    """The most actions a game of this configuration may take (``SPEC.max_actions``)."""
    return st.SPEC.max_actions(st.players, st.options)


def cheap(st: Any, limit: int) -> None:
    """Checks cheap enough for every action: turn, legal list, length, end."""
    assert st.move_count <= limit, f"the game ran past its bound of {limit} actions"
    if st.is_terminal:
        assert st.current_player is None and st.phase == "finished" and st.outcome() is not None
    else:
        assert st.current_player in range(st.players), f"current player {st.current_player!r}"
        assert st.outcome() is None


def position(st: Any, cards: Any, limit: int) -> None:
    """Cards conserved, legal list sound, and the cheap checks."""
    cheap(st, limit)
    if cards is not None:
        assert st.all_cards() == cards, "cards were created or lost"
    legal = st.legal_actions()
    assert (legal == []) == st.is_terminal, "a running game without a legal action, or a finished one with some"
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts), "the legal list repeats an action"


def views(st: Any, rng: random.Random, twins: int = 1) -> int:
    """Each seat's view holds no other seat's hand, and a position the seat cannot tell from
    this one (other cards dealt again) gives it the same view and legal list. Returns the
    number of twins compared."""
    done = 0
    teacher = st.view(None)
    json.dumps(teacher)
    for seat in range(st.players):
        v = st.view(seat)
        assert v["seat"] == seat
        for other, hand in enumerate(v.get("hands") or ()):
            assert other == seat or hand is None, f"seat {seat}'s view holds seat {other}'s hand"
        assert set(v) <= set(teacher), "a seat's view has keys the teacher's has not"
    for seat in rng.sample(range(st.players), min(twins, st.players)):
        twin = st._twin(seat, random.Random(rng.random()))
        assert twin.view(seat) == st.view(seat), f"seat {seat} can tell a twin position from this one"
        if st.current_player == seat:
            assert [str(a) for a in twin.legal_actions()] == [str(a) for a in st.legal_actions()]
        done += 1
    return done


def roundtrip(st: Any) -> None:
    """``to_dict`` -> ``from_dict`` (also through JSON) gives the same state; a clone is
    independent of its original."""
    d = st.to_dict()
    assert type(st).from_dict(d).to_dict() == d
    assert type(st).from_dict(json.loads(json.dumps(d))).to_dict() == d
    if not st.is_terminal:
        c = st.clone()
        c.apply(c.legal_actions()[-1])
        assert st.to_dict() == d, "a clone shares state with its original"


def refused_changes_nothing(st: Any, text: Any, seat: Any = ANY) -> bool:
    """Try ``text`` on a copy: if refused, nothing changed and ``explain`` agrees. Returns
    whether it was refused."""
    before = json.dumps(st.to_dict(), sort_keys=True)
    trial = st.clone()
    try:
        trial.apply(text, seat)
    except (IllegalActionError, InvalidActionError) as e:
        assert json.dumps(trial.to_dict(), sort_keys=True) == before, f"a refused {text!r} changed the state"
        if isinstance(text, str) and seat is ANY:
            ex = st.explain(text)
            assert not ex.legal and (ex.rule == getattr(e, "rule", None)), (str(ex), str(e))
        return True
    except ValueError:  # a bad seat argument
        assert seat is not ANY and json.dumps(trial.to_dict(), sort_keys=True) == before
        return True
    return False


# --------------------------------------------------------------------------- a timeline
def timeline_key(tl: Timeline) -> str:
    """Everything a refused step must leave as it was."""
    return json.dumps([tl.cursor, tl.branch, tl.length, [b.to_dict() for b in tl.branches],
                       tl.state.to_dict(), tl.notes()], sort_keys=True, default=str)


def timeline(tl: Timeline) -> None:
    assert 0 <= tl.cursor <= tl.length
    assert tl.state.move_count == tl.cursor, "the position at the cursor is not cursor actions deep"
    assert tl.branches[0].name == "main" and tl.branch in {b.name for b in tl.branches}
    if tl.cursor:
        assert str(tl.position(tl.cursor).last_move) == str(tl.state.history[-1])


def replay_roundtrip(tl: Timeline) -> Timeline:
    """Save every line to text and load it: the same text again, the same lines, the same
    positions at their ends. Returns the loaded timeline, moved where ``tl`` is."""
    text = tl.to_replay().to_json()
    again = Timeline.from_replay(Replay.from_json(text))
    assert again.to_replay().to_json() == text, "a saved timeline does not save back to the same text"
    assert again.branches == tl.branches
    for b in tl.branches:
        assert again.position(b.length, b.name).to_dict() == tl.position(b.length, b.name).to_dict()
    again.switch(tl.branch)
    again.goto(tl.cursor)
    return again


# --------------------------------------------------------------------------- a table
def table(t: Any, loop: Any | None = None) -> None:
    """The synced traits are what the timeline says the viewer may see; at most one bot move
    is scheduled, exactly while ``thinking``; a hold belongs to the end of the current line;
    no bot's turn is left idle."""
    tl = t.timeline
    st = tl.state
    assert (t.cursor, t.history_len, t.branch) == (tl.cursor, tl.length, tl.branch)
    assert t.view == st.view(t.seat)
    actor = st.current_player
    may_act = actor is not None and actor not in t._bots and (t.seat is None or t.seat == actor)
    assert t.legal == ([str(a) for a in st.legal_actions()] if may_act else [])
    assert t.narration == tl.narration(t.seat, last=80)
    names = [b["name"] for b in t.branches]
    assert names == [b.name for b in tl.branches], "the synced lines are not the timeline's"
    from cardwidgets.widgets._base import MAX_LINES

    for synced, real in zip(t.branches, tl.branches):
        if real.name != tl.branch or tl.line_count <= MAX_LINES:  # else its length is history_len
            assert synced == real.to_dict()
    assert len(t.last_error) <= 400
    pending = [] if loop is None else loop.live()
    assert len(pending) <= 1, "two bot moves are scheduled"
    assert t.thinking == bool(pending) == (t._pending is not None), "thinking is out of step"
    if t.hold is not None:
        assert not t.thinking and tl.cursor == tl.length and set(t.hold) == {"kind", "text"}
    idle = (tl.cursor == tl.length and actor in t._bots and t.hold is None and not t._stalled)
    assert not idle or t.thinking, "a bot is to move, nothing holds it, and no move is scheduled"


# --------------------------------------------------------------------------- a table without a browser
class FakeLoop:
    """Stands in for the kernel's event loop: scheduled calls run when the caller says.

    Install it with ``monkeypatch.setattr(asyncio, "get_running_loop", lambda: loop)``."""

    def __init__(self) -> None:
        self.handles: list[FakeHandle] = []

    def call_later(self, delay: float, fn: Any, *args: Any) -> "FakeHandle":
        h = FakeHandle(fn, args)
        self.handles.append(h)
        return h

    def live(self) -> list["FakeHandle"]:
        """The scheduled calls neither run nor cancelled, oldest first."""
        self.handles = [h for h in self.handles if not (h.cancelled or h.ran)]
        return list(self.handles)

    def run_next(self) -> None:
        self.live()[0].run()


class FakeHandle:
    def __init__(self, fn: Any, args: tuple) -> None:
        self.fn, self.args, self.cancelled, self.ran = fn, args, False, False

    def cancel(self) -> None:
        self.cancelled = True

    def run(self) -> None:
        self.ran = True
        self.fn(*self.args)


def send(t: Any, msg: Any) -> None:
    """What the comm does with a custom message from the front end."""
    t._on_msg(t, msg, [])


def forge(t: Any, state: Any) -> None:
    """What ipywidgets does with an ``update`` message arriving from the browser."""
    t._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def table_key(t: Any, loop: FakeLoop | None = None) -> str:
    """Everything a refused message must leave as it was (``last_error`` aside)."""
    keys = sorted(k for k in t.keys if not k.startswith("_") and k not in ("last_error", "layout"))
    return json.dumps({k: getattr(t, k) for k in keys}, sort_keys=True, default=str) + timeline_key(
        t.timeline) + str([id(h) for h in (loop.live() if loop else ())])
