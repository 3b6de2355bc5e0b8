"""Time travel by a seated player never reveals the future: re-dealt branches, in every game and mode.

A seated player who goes back before a card was revealed (Depot's refills, a cirno+neu draw,
Crypto Trick's hidden card, the duo NPC's next card, solo's decks) and plays differently gets a
branch that goes on from ``sample_world`` of that position: what it has not seen is dealt again,
so what it saw on the original line tells nothing about the new one. The teacher replays exactly,
and re-dealt branches survive replay files.
"""

from __future__ import annotations

import json
import random

import pytest

import invariants as inv
import kit
from cardwidgets import IllegalActionError, Replay, ReplayError, Timeline
from cardwidgets.core import ANY
from cardwidgets.core.position import from_position
from cardwidgets.core.timeline import LineLimitError

#: One configuration per mode (and Depot's match, where later games are dealt anew).
CONFIGS = [
    ("depot", {"players": 4}), ("depot", {"players": 3, "games": 3}),
    ("cirno_neu", {"players": 4}), ("cirno_neu", {"players": 3, "life_system": True}),
    ("crypto_trick", {"players": 4}), ("crypto_trick", {"players": 3, "exchange_visibility": "public"}),
    ("yadokarick", {"players": 4}), ("yadokarick", {"players": 4, "card_set": "advanced"}),
    ("yadokarick", {"mode": "duo", "players": 2}), ("yadokarick", {"mode": "solo", "players": 1}),
]
IDS = [f"{g}:{kit.label(c)}" for g, c in CONFIGS]
SEEDS = range(6)


def main_line(game: str, cfg: dict, seed: int, length: int = 70) -> Timeline:
    """A timeline whose main line is ``length`` random legal moves (or a whole game)."""
    return kit.random_line(game, cfg, seed, length)


def branch_point(tl: Timeline, rng: random.Random) -> int:
    """A position in the first half of the line where the player to act has a choice."""
    points = [k for k in range(tl.length) if len(tl.position(k).legal_actions()) > 1]
    assert points, "no position with a choice"
    return rng.choice(points[: max(1, len(points) // 2)])


def continuation(tl: Timeline, seat: int, steps: int = 40) -> list[str]:
    """What ``seat`` sees as the line goes on by the first legal move each time (its views, as JSON)."""
    seen = []
    for _ in range(steps):
        legal = tl.state.legal_actions()
        if not legal:
            break
        tl.step(legal[0])
        seen.append(json.dumps(tl.state.view(seat), sort_keys=True))
    return seen


@pytest.mark.parametrize("game, cfg", CONFIGS, ids=IDS)
def test_going_back_as_a_seat_re_deals_what_it_has_not_seen(game, cfg, report):
    differs = worlds = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        tl = main_line(game, cfg, seed)
        p = branch_point(tl, rng)
        real = tl.position(p)
        seat = real.current_player
        followed = tl.line[p]
        alt = next(str(a) for a in real.legal_actions() if str(a) != followed)
        tl.goto(p)
        before = tl.narration(seat)

        # the seat's own move that follows on the line is simply followed: nothing is re-dealt
        tl.step(followed, seat)
        assert (tl.branch, tl.cursor, len(tl.branches)) == ("main", p + 1, 1)

        # another move by the seat: a new branch, re-dealt for that seat
        tl.goto(p)
        tl.step(alt, seat)
        info = tl.branches[-1]
        assert (tl.branch, info.start, info.dealt_for) == (info.name, p, seat)
        dealt = tl._lines[info.name].dealt
        assert dealt.view(seat) == real.view(seat), "the seat can tell the re-dealt position from the real one"
        assert dealt.move_count == real.move_count == p and tl.state.move_count == tl.cursor == p + 1
        assert dealt.seed != real.seed and dealt.deck_order is None
        worlds += dealt.view(None) != real.view(None)
        # narration works along the new line: the seat's lines up to the branch point, then its move
        assert tl.narration(seat)[: len(before)] == before and len(tl.narration(seat)) > len(before)
        assert tl.history[:p] == real.history and str(tl.history[p]) == alt
        mine = continuation(tl, seat)
        inv.timeline(tl)

        # the teacher's same move replays exactly, on a line of its own
        tl.switch("main")
        tl.goto(p)
        tl.step(alt)
        exact_info = tl.branches[-1]
        assert exact_info.dealt_for is None and exact_info.name != info.name
        expected = real.clone()
        expected.apply(alt)
        assert tl.state.to_dict() == expected.to_dict()
        exact = continuation(tl, seat)
        differs += mine != exact

        # everything survives a replay file, byte for byte
        again = inv.replay_roundtrip(tl)
        assert again.branches == tl.branches
    # Over several games the re-dealt futures are not the original's: what the seat saw there
    # (the refill, the draw, the hidden card, the NPC's card, the solo decks) tells nothing here.
    assert differs >= len(SEEDS) // 2, f"only {differs} of {len(SEEDS)} re-dealt lines went on differently"
    assert worlds >= len(SEEDS) // 2, f"only {worlds} of {len(SEEDS)} re-deals moved a hidden card"
    report("re-dealt lines", game, lines=len(SEEDS), futures_differing=differs)


@pytest.mark.parametrize("game, cfg", CONFIGS, ids=IDS)
def test_re_deals_differ_by_branch_and_repeat_exactly(game, cfg):
    """Each re-dealt branch has its own deal (seeded by the game's seed and the branch's number);
    the same steps on another timeline give the same lines, byte for byte."""
    def build():
        tl = main_line(game, cfg, 3)
        p = branch_point(tl, random.Random(3))
        real = tl.position(p)
        seat = real.current_player
        moves = [str(a) for a in real.legal_actions() if str(a) != tl.line[p]]
        for m in moves[:4]:
            tl.switch("main")
            tl.goto(p)
            tl.step(m, seat)
        return tl, real, seat

    a, real, seat = build()
    b, _, _ = build()
    assert a.to_replay().to_json() == b.to_replay().to_json()
    starts = [a._lines[info.name].dealt for info in a.branches[1:]]
    assert all(s.view(seat) == real.view(seat) for s in starts)
    if len(starts) > 1 and any(s.view(None) != real.view(None) for s in starts):
        assert len({json.dumps(s.view(None), sort_keys=True) for s in starts}) > 1


def test_the_seat_follows_only_its_own_re_dealt_lines():
    tl = main_line("crypto_trick", {"players": 3}, 4, length=20)
    p = branch_point(tl, random.Random(1))
    seat = tl.position(p).current_player
    alt = next(str(a) for a in tl.position(p).legal_actions() if str(a) != tl.line[p])
    tl.goto(p)
    tl.step(alt, seat)  # branch-1, re-dealt for the seat
    tl.switch("main")
    tl.goto(p)
    tl.step(alt, seat)  # the same move again: the seat's own branch is followed
    assert tl.branch == "branch-1" and len(tl.branches) == 2
    tl.switch("main")
    tl.goto(p)
    tl.step(alt)  # the teacher: an exact line of its own
    assert tl.branch == "branch-2" and tl.branches[-1].dealt_for is None
    tl.switch("main")
    tl.goto(p)
    tl.step(alt)  # the teacher again: its exact line is followed
    assert tl.branch == "branch-2" and len(tl.branches) == 3
    tl.switch("main")
    tl.goto(p)
    tl.step(alt, seat, redeal=False)  # asked for: the seat plays the exact line
    assert tl.branch == "branch-2" and len(tl.branches) == 3


def test_a_refused_move_in_the_past_changes_nothing_and_deals_nothing():
    tl = main_line("depot", {"players": 4}, 2, length=12)
    p = branch_point(tl, random.Random(2))
    seat = tl.position(p).current_player
    tl.goto(p)
    before = inv.timeline_key(tl)
    made = tl._made
    with pytest.raises(IllegalActionError):
        tl.step("play 1 8", seat)
    with pytest.raises(IllegalActionError):
        tl.step(tl.line[p], (seat + 1) % 4)  # not that seat's turn (G3)
    assert inv.timeline_key(tl) == before and tl._made == made
    alt = next(str(a) for a in tl.state.legal_actions() if str(a) != tl.line[p])
    with pytest.raises(LineLimitError):
        tl.step(alt, seat, max_lines=1)
    assert inv.timeline_key(tl) == before and tl._made == made


def test_a_multi_action_move_in_the_past_is_re_dealt_whole():
    """cirno+neu's "play 4, -1" stands for two actions of one player: both go on the re-dealt line."""
    from cardwidgets.games.cirno_neu import setup_position

    st = setup_position(3, [["-10", "PASS", "5"], ["1", "2"], ["3", "4"]], sum=80, required=2,
                        draw=["1", "2", "3", "4", "5", "6"])
    tl = Timeline(st)
    tl.step("play 5, PASS")
    tl.step(tl.state.legal_actions()[0])
    tl.goto(0)
    tl.step("play -10, 5", 0)
    assert tl.branch == "branch-1" and tl.cursor == 2 and tl.branches[-1].dealt_for == 0
    assert [str(a) for a in tl.history] == ["play -10", "play 5"]
    inv.replay_roundtrip(tl)
    # The first half follows the re-dealt line, the second leaves it: a line re-dealt again, for
    # the same seat, from the world of the first (its moves checked there).
    tl.goto(0)
    tl.step("play -10, PASS", 0)
    assert tl.branch == "branch-2" and [str(a) for a in tl.history] == ["play -10", "play pass"]
    assert tl.branches[-1].parent == "branch-1" and tl.redealt_for() == {0}
    tl.goto(0)
    tl.step("play -10, PASS", 0)  # followed now, nothing new
    assert tl.branch == "branch-2" and tl.cursor == 2 and tl.line_count == 3
    inv.replay_roundtrip(tl)


# --------------------------------------------------------------------------- replay files
def _redealt_replay() -> tuple[Timeline, dict]:
    tl = main_line("depot", {"players": 4}, 5, length=20)
    p = branch_point(tl, random.Random(5))
    seat = tl.position(p).current_player
    tl.goto(p)
    tl.step(next(str(a) for a in tl.state.legal_actions() if str(a) != tl.line[p]), seat)
    return tl, json.loads(tl.to_replay().to_json())


def test_a_re_dealt_branch_is_saved_with_its_position_seat_and_seed():
    tl, data = _redealt_replay()
    b = data["branches"][0]
    assert list(b) == ["name", "parent", "from", "seat", "seed", "position", "actions", "notes"]
    start = from_position(b["position"], b["seed"])
    real = tl.position(b["from"], "main")
    assert start.view(b["seat"]) == real.view(b["seat"]) and start.view(None) != real.view(None)
    text = tl.to_replay().to_json()
    assert Replay.from_json(text).to_json() == text
    # an exact branch keeps the short form
    tl.switch("main")
    tl.goto(1)
    tl.step(next(str(a) for a in tl.state.legal_actions() if str(a) != tl.line[1]))
    assert list(json.loads(tl.to_replay().to_json())["branches"][1]) == ["name", "parent", "from", "actions",
                                                                       "notes"]


def _swap_seen_card(data: dict) -> str:
    """The re-dealt position with two of the seat's own cards changed: a position it can tell apart."""
    b = data["branches"][0]
    fields = dict(part.split("=", 1) for part in b["position"].split()[1:])
    hands = fields["hands"].split("/")
    seat = b["seat"]
    mine = hands[seat].split(",")
    other = next(i for i in range(len(hands)) if i != seat and hands[i] != "-")
    theirs = hands[other].split(",")
    k = next(i for i, c in enumerate(theirs) if c not in mine)
    mine[0], theirs[k] = theirs[k], mine[0]
    hands[seat], hands[other] = ",".join(mine), ",".join(theirs)
    return b["position"].replace(f"hands={fields['hands']}", f"hands={'/'.join(hands)}")


@pytest.mark.parametrize("change, message", [
    (lambda b, d: b.update(position=_swap_seen_card(d)), "does not look to seat"),
    (lambda b, d: b.update(seat=(b["seat"] + 1) % 4), "does not look to seat"),
    (lambda b, d: b.update(seat=9), '"seat" must be the seat it was dealt for'),
    (lambda b, d: b.update(seat=True), '"seat" must be the seat it was dealt for'),
    (lambda b, d: b.update(seed="x"), '"seed" must be an integer'),
    (lambda b, d: b.update(position=b["position"].replace("players=4", "players=3")), "cannot be set up"),
    (lambda b, d: b.update(position="cirno_neu/1 players=4"), "cannot be set up"),
    (lambda b, d: b.update(position=7), '"position" must be position text'),
    (lambda b, d: b.pop("seed"), 'gives "seat", "seed" and "position" together'),
])
def test_a_tampered_re_dealt_branch_is_refused_with_its_line(change, message):
    _, data = _redealt_replay()
    change(data["branches"][0], data)
    text = json.dumps(data, indent=1)
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    assert message in str(info.value)
    assert info.value.line is not None and "branch" in text.splitlines()[info.value.line - 1] + \
        text.splitlines()[info.value.line - 2] + text.splitlines()[info.value.line]


def test_a_re_dealt_position_of_another_game_is_refused():
    _, data = _redealt_replay()
    other = main_line("depot", {"players": 4}, 99, length=20)
    data["branches"][0]["position"] = other.position(data["branches"][0]["from"]).to_position()
    with pytest.raises(ReplayError, match="does not look to seat"):
        Replay.from_json(json.dumps(data))


def test_a_teacher_timeline_plays_exactly_everywhere():
    """Steps without a seat (Python code, the teacher view) never re-deal."""
    tl = main_line("yadokarick", {"mode": "duo", "players": 2}, 8, length=30)
    for k in (3, 9, 14):
        tl.switch("main")
        tl.goto(k)
        alt = next((str(a) for a in tl.state.legal_actions() if str(a) != tl.line[k]), None)
        if alt is None:
            continue
        expected = tl.state.clone()
        expected.apply(alt)
        tl.step(alt, ANY)
        assert tl.state.to_dict() == expected.to_dict() and tl.branches[-1].dealt_for is None
