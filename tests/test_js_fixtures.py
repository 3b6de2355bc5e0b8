"""JS test fixtures made by the Python engines: the trait values a real table syncs.

Every scenario below builds a real table (``Depot(...)``, ``CirnoNeu(...)``), drives it the way
a person or the browser would (``step``, or the browser's own messages through ``_handle``), and
records exactly the synced traits the front end reads. They are written to
``js/test/fixtures/<game>.json``, which the vitest tests load instead of hand-written views, so
the front end is always tested against what the engines really send.

The test fails when the committed files differ from what the engines produce now. Regenerate with::

    CW_UPDATE_FIXTURES=1 python -m pytest tests/test_js_fixtures.py

File layout: ``{"game", "rules", "scenarios": {name: {"about", "traits"}}}``. ``rules`` (the same
for every table of a game, and large) is stored once; ``traits`` holds every other synced trait.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib

import anywidget
import pytest

from cardwidgets.games.cirno_neu import setup_position
from cardwidgets.widgets import TableWidget

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "js" / "test" / "fixtures"
UPDATE = os.environ.get("CW_UPDATE_FIXTURES", "").strip() not in ("", "0")

#: The traits a table syncs to the browser (anywidget's own, such as ``_esm``, left out).
SYNCED = sorted(set(TableWidget.class_trait_names(sync=True))
                - set(anywidget.AnyWidget.class_trait_names(sync=True)))
#: A lesson table syncs the same traits, and the lesson panel.
LESSON_SYNCED = sorted([*SYNCED, "lesson"])


def synced(table: TableWidget, names: list[str] = SYNCED) -> dict:
    """The table's synced trait values, as JSON (what the browser receives)."""
    return json.loads(json.dumps({k: getattr(table, k) for k in names}))


def browser(table: TableWidget, **msg) -> None:
    """Send a message as the browser does."""
    table._handle(msg)


def first_move(table: TableWidget) -> str:
    """A simple deterministic policy: the first legal play, else the first pass."""
    plays = [a for a in table.legal if not a.startswith("pass")]
    return (plays or table.legal)[0]


def until(table: TableWidget, done, limit: int = 400, policy=first_move) -> None:
    """Step the viewer's moves (``policy``) until ``done(table)``; bots answer inside step."""
    for _ in range(limit):
        if done(table):
            return
        if not table.legal:
            raise AssertionError("no move for the viewer before the wanted position")
        table.step(policy(table))
    raise AssertionError("the wanted position was not reached")


def to_hold(table: TableWidget, kind: str, limit: int = 200) -> TableWidget:
    """Click the viewer's moves (first_move) until the table holds after a ``kind`` (the bots wait)."""
    for _ in range(limit):
        if table.hold is not None or table.state.is_terminal:
            break
        browser(table, type="act", action=first_move(table))
    assert table.hold is not None and table.hold["kind"] == kind, table.hold
    return table


def scrub_back(table: TableWidget, moves: int, own: bool) -> int:
    """Play ``moves`` moves, then go back to the last position where seat 0 (``own``) or a bot is to play."""
    def wanted(k: int) -> bool:
        player = table.timeline.position(k).current_player
        return player is not None and (player == 0) == own

    until(table, lambda t: t.history_len >= moves)
    back = next(k for k in range(table.history_len - 1, 0, -1) if wanted(k))
    table.goto(back)
    return back


def after_first_move(make) -> dict:
    """Traits right after the viewer's first legal move is clicked, a bot's answer scheduled."""
    return thinking(make, lambda t: browser(t, type="act", action=t.legal[0]))


def thinking(make, act) -> dict:
    """Traits while a bot's move is scheduled after a browser click (bot_delay > 0)."""
    async def run():
        table = make()
        act(table)
        assert table.thinking, "no bot move was scheduled"
        traits = synced(table)
        table._cancel_pending()
        return traits
    return asyncio.run(run())


def playing(make, speed: float = 2.0) -> dict:
    """Traits while a table plays its line forward (``play_replay`` needs a running event loop)."""
    async def run():
        table = make()
        table.play_replay(speed)
        assert table.playing == speed
        traits = synced(table)
        table.pause_replay()
        return traits
    return asyncio.run(run())


def previewing(table: TableWidget, action: str) -> TableWidget:
    """The browser asked for the preview of ``action`` (the pointer rests on it)."""
    browser(table, type="preview", action=action)
    assert table.preview["action"] == action and table.preview["lines"], table.preview
    return table


def collector(out: dict):
    """``add(name, about, table or traits)``: record a scenario's synced traits in ``out``."""
    def add(name: str, about: str, table_or_traits) -> None:
        traits = table_or_traits if isinstance(table_or_traits, dict) else synced(table_or_traits)
        out[name] = {"about": about, "traits": traits}
    return add


# ----------------------------------------------------------------------------- Depot
def depot_scenarios() -> dict:
    from cardwidgets import Depot

    out: dict = {}
    add = collector(out)

    def vs_bots(**kw):
        return Depot(players=4, seed=kw.pop("seed", 1), seat=0, bots="greedy", bot_delay=0, **kw)

    add("start", "4 players, seat 0 against greedy bots, seat 0 leads the first round", vs_bots())

    t = vs_bots()
    until(t, lambda t: any(a.startswith("play") for a in t.legal) and any(" give " in a for a in t.legal))
    add("respond", "seat 0 answers a standing play: plays, and passes taking and giving", t)

    t = vs_bots()
    until(t, lambda t: t.legal and all(a.startswith("pass") for a in t.legal))
    add("pass_only", "seat 0 can only pass (no play beats the standing play)", t)
    take = next(a for a in t.legal if " give " not in a)
    add("preview_pass", f"seat 0 points at '{take}': the preview says what it takes, then stops before the "
                        "refill from the deck", previewing(t, take))

    def replay_as_b():
        game = vs_bots()
        until(game, lambda t: t.history_len >= 10)
        table = Depot.from_replay(game.replay(), seat=1)
        table.goto(3)
        return table
    add("playing", "a replay shown as seat 1 (B), playing forward from move 3 (2 positions a second)",
        playing(replay_as_b))

    t = vs_bots()
    until(t, lambda t: t.view["standing"] is not None and any(a.startswith("play") for a in t.legal))
    illegal = next(f"play {v}" for v in sorted(set(t.view["hands"][0])) if f"play {v}" not in t.legal)
    browser(t, type="act", action=illegal)
    assert t.last_error
    add("refused", "seat 0 sent a play the rules refuse: last_error says why, with the rule", t)

    def make():
        return Depot(players=4, seed=1, seat=0, bots="greedy", bot_delay=0.5)
    add("thinking", "seat 0 has just led; a bot's answer is scheduled (thinking)",
        after_first_move(make))

    t = vs_bots()
    scrub_back(t, 12, own=False)
    add("past_bot", "scrubbed back to a position where a bot is to play", t)

    t = vs_bots()
    back = scrub_back(t, 12, own=True)
    add("past_own", "scrubbed back to a position where seat 0 is to play (acting starts a new line)", t)
    played = t.timeline.line[back]
    browser(t, type="act", action=next(a for a in t.legal if a != played))
    assert len(t.branches) == 2 and t.branches[1]["dealt_for"] == 0
    add("branch", "seat 0 acted in the past: a second line of play, re-dealt for seat 0, now the current one", t)
    browser(t, type="switch", branch="main")
    add("branch_main", "two lines of play, the main line shown again", t)

    t = Depot(players=4, seed=2, seat=None)
    for _ in range(9):
        t.step(first_move(t))
    add("teacher", "teacher view (seat None): every hand shown, acting for the player to move", t)

    t = vs_bots(seed=3)
    until(t, lambda t: t.state.is_terminal)
    add("finished", "a single game played to its end", t)

    t = to_hold(Depot(players=3, seed=111, seat=0, bots="greedy", bot_delay=0, games=3), "scoring", limit=400)
    add("hold", "3-game match: a game just ended; the bots wait until seat 0 presses Continue", t)
    browser(t, type="continue")
    until(t, lambda t: t.state.is_terminal or t.view["game_no"] == 3)
    add("match_game3", "3-game match, game 3 under way (lost points and penalty cards so far)", t)

    t = Depot(players=3, seed=111, seat=0, bots="greedy", bot_delay=0, games=3)
    until(t, lambda t: t.state.is_terminal, limit=600)
    add("match_over", "a 3-game match played to its end", t)
    return out


# ----------------------------------------------------------------------------- cirno+neu
def cirno_scenarios() -> dict:
    from cardwidgets import CirnoNeu

    out: dict = {}
    add = collector(out)

    def vs_bots(**kw):
        return CirnoNeu(players=4, seed=kw.pop("seed", 3), seat=0, bots="greedy", bot_delay=0, **kw)

    add("start", "4 players, seat 0 against greedy bots", vs_bots())

    t = vs_bots()
    until(t, lambda t: t.history_len >= 8 and t.legal)
    add("mid", "seat 0 to play a few turns in", t)
    add("preview", f"seat 0 points at '{t.legal[0]}': the new sum, then the draw it cannot see",
        previewing(t, t.legal[0]))

    hands = [["7", "9", "SHOT"], ["1", "2", "3"], ["4", "5", "6"], ["8", "10", "-10"]]
    t = CirnoNeu(state=setup_position(4, hands, sum=60, stack=["10", "-10", "TURN", "50"],
                                      draw=["1", "2", "3", "4", "5", "6", "7", "8"]),
                 seat=0, bots="greedy", bot_delay=0)
    add("shot", "seat 0 holds a SHOT: it needs a target", t)

    t = CirnoNeu(state=setup_position(4, [["-10", "PASS", "5"], ["1", "2"], ["3", "4"], ["6", "7"]],
                                      sum=80, required=2, draw=["1", "2", "3", "4", "5", "6"]),
                 seat=0, bots="greedy", bot_delay=0)
    add("double", "seat 0 plays a double turn: 2 cards", t)

    t = CirnoNeu(state=setup_position(3, [["10", "5", "-1"], ["1", "2", "3"], ["4", "6", "7"]], sum=95,
                                      draw=["8", "8", "8"]), seat=0, bots="greedy", bot_delay=0)
    browser(t, type="act", action="play 10")
    assert t.last_error
    add("refused", "seat 0 clicked a card that would bust: refused with the rule", t)

    def make():
        return CirnoNeu(players=4, seed=3, seat=0, bots="greedy", bot_delay=0.5)
    add("thinking", "seat 0 has just played; a bot's move is scheduled (thinking)",
        after_first_move(make))

    t = vs_bots(life_system=True)
    until(t, lambda t: t.view["revealed"] is not None and t.legal)
    add("life", "life system: a bust cost a chip; the busted hand is revealed", t)

    t = vs_bots()
    until(t, lambda t: t.view["eliminated"] and t.legal)
    add("eliminated", "elimination game: a player is out", t)

    t = CirnoNeu(players=3, seed=5, seat=None)
    for _ in range(7):
        t.step(t.legal[0])
    add("teacher", "teacher view (seat None), hot seat", t)

    t = vs_bots()
    until(t, lambda t: t.state.is_terminal)
    add("finished", "a match played to its end", t)

    t = vs_bots()
    scrub_back(t, 10, own=False)
    add("past_bot", "scrubbed back to a position where a bot is to play", t)

    t = vs_bots()
    back = scrub_back(t, 10, own=True)
    played = t.timeline.line[back]
    browser(t, type="act", action=next(a for a in reversed(t.legal) if a != played))
    assert len(t.branches) == 2 and t.branches[1]["dealt_for"] == 0
    add("branch", "seat 0 acted in the past: a second line of play, re-dealt for seat 0", t)
    return out


# ----------------------------------------------------------------------------- Crypto Trick
def crypto_trick_scenarios() -> dict:
    from cardwidgets import CryptoTrick

    out: dict = {}
    add = collector(out)

    def vs_bots(**kw):
        return CryptoTrick(players=kw.pop("players", 4), seed=kw.pop("seed", 4), seat=0, bots="greedy",
                           bot_delay=0, **kw)

    def trick_give(t):
        """This trick's give as seat 0's view has it, or None."""
        v = t.view
        return next((g for g in v["gives"] if g["trick"] == v["trick"]), None)

    def passive(t):
        """Pass every offer, else the first legal action: seat 0 then follows most tricks."""
        return "pass" if "pass" in t.legal else t.legal[0]

    def must_follow(t):
        return t.view["phase"] == "follow" and any("rule C6.3" in r for r in t.refusals.values())

    t = vs_bots()
    assert t.view["phase"] == "offer" and t.legal[0].startswith("reveal")
    add("offer", "4 players, seat 0 against greedy bots, seat 0 opens trick 1: reveal a card to offer", t)

    t = vs_bots(seed=5)
    until(t, lambda t: t.view["phase"] == "offer" and t.view["trick"] >= 2 and t.legal)
    add("taken", "seat 0 opens a later trick: the trick just taken is still on the table", t)

    t = vs_bots()
    until(t, lambda t: t.view["phase"] == "declare" and t.legal)
    add("declare", "a bot offered a card; seat 0 declares want or pass", t)

    t = vs_bots()
    until(t, lambda t: t.view["phase"] == "give" and t.legal)
    add("give", "seat 0 wanted the offered card last: it gives the first player a card, face down", t)
    add("preview_give", f"seat 0 points at '{t.legal[0]}': the give (face down, the card only the two know) "
                        "and the lead", previewing(t, t.legal[0]))

    def make_give():
        t = vs_bots(seed=4)
        t.bot_delay = 0.5
        until(t, lambda t: t.view["phase"] == "give" and t.legal)
        return t
    add("give_giver", "seat 0 has just given a card and leads the offered card; a bot's answer is scheduled "
                      "(the giver sees the card it gave)",
        thinking(make_give, lambda t: browser(t, type="act", action=t.legal[-1])))

    t = vs_bots(seed=1)
    until(t, lambda t: t.legal and (g := trick_give(t)) is not None and g["to"] == 0)
    assert trick_give(t)["card"] is not None
    add("give_receiver", "a bot took seat 0's offer and gave it a card face down: seat 0 sees which", t)

    t = vs_bots(seed=0)
    until(t, lambda t: t.legal and (g := trick_give(t)) is not None and 0 not in (g["from"], g["to"]))
    assert trick_give(t)["card"] is None
    add("give_third", "two bots exchanged a card face down: seat 0, a third seat, sees only that it happened", t)

    t = vs_bots()
    until(t, must_follow, policy=passive)
    add("follow", "seat 0 follows a trick in progress; the cards of other colours are refused (rule C6.3)", t)
    illegal = next(a for a in t.refusals if "rule C6.3" in t.refusals[a])
    browser(t, type="act", action=illegal)
    assert "rule C6.3" in t.last_error
    add("refused", "seat 0 clicked a card that does not follow the lead colour: refused with rule C6.3", t)

    t = vs_bots()
    until(t, lambda t: t.view["phase"] == "follow" and t.legal and not t.refusals
         and len(t.legal) == len(t.view["hands"][0]) > 1
         and all(c[0] != t.view["lead_color"] for c in t.view["hands"][0]), policy=passive)
    add("follow_void", "seat 0 holds no card of the lead colour: every card may be played", t)

    def make_wait():
        return CryptoTrick(players=4, seed=4, seat=0, bots="greedy", bot_delay=0.5)
    add("thinking", "seat 0 has just offered a card; a bot's declaration is scheduled (thinking)",
        after_first_move(make_wait))

    t = to_hold(vs_bots(), "round_end")
    add("hold", "round 1 just ended (scored, hidden card turned up); the bots wait until seat 0 presses Continue", t)
    browser(t, type="continue")
    until(t, lambda t: t.view["trick"] >= 2 and t.legal)
    add("round2", "round 2 under way: round 1's scores and hidden card are in the view's round records", t)

    t = to_hold(vs_bots(won_pile_visibility="block_count_only"), "round_end")
    add("hold_blocks_only", "won_pile_visibility='block_count_only': round 1 just ended (the view's records "
                            "show the others' piles as block counts only)", t)

    t = vs_bots(won_pile_visibility="block_count_only")
    until(t, lambda t: t.legal and sum(t.view["won_blocks"][1:]) >= 2, policy=passive)
    add("blocks_only", "won_pile_visibility='block_count_only': the others' won piles show only their blocks", t)

    t = vs_bots()
    until(t, lambda t: t.state.is_terminal, policy=passive)
    add("finished", "a 3-round game played to its end", t)

    t = CryptoTrick(players=4, seed=5, seat=None)
    until(t, lambda t: t.view["phase"] == "follow" and len(t.view["table"]) == 2, policy=passive)
    add("teacher", "teacher view (seat None), hot seat: every hand shown, acting for the player to move", t)

    t = CryptoTrick(players=5, seed=9, seat=0, bots="greedy", bot_delay=0, exchange_visibility="public",
                    trump_ranking="white_high")
    until(t, lambda t: t.view["phase"] == "follow" and t.legal and t.view["trick"] >= 3, policy=passive)
    add("five_public", "5 players, gives face up, white ranks high: seat 0 follows in trick 3 or later", t)

    t = CryptoTrick(players=2, seed=3, seat=0, bots="greedy", bot_delay=0)
    until(t, lambda t: t.view["phase"] == "follow" and t.legal and t.view["trick"] >= 2, policy=passive)
    add("two", "2 players (two colours, 14 cards): seat 0 follows", t)
    return out


# ----------------------------------------------------------------------------- Yadokarick
def yadokarick_scenarios() -> dict:
    from cardwidgets import Yadokarick
    from cardwidgets.games.yadokarick import setup_solo, setup_standard

    out: dict = {}
    add = collector(out)

    def vs_bots(**kw):
        return Yadokarick(players=kw.pop("players", 4), seed=kw.pop("seed", 1), seat=kw.pop("seat", 0),
                          bots="greedy", bot_delay=0, **kw)

    def by_hint(t, done, limit=400):
        """Solo: follow the view's hint (sent as the browser does) until ``done(t)``."""
        for _ in range(limit):
            if done(t):
                return
            assert not t.state.is_terminal, "the solo game ended before the wanted position"
            browser(t, type="act", action=t.view["hint"]["action"])
            assert t.last_error == "", t.last_error
        raise AssertionError("the wanted position was not reached")

    # ---- standard
    t = vs_bots()
    add("start", "4 players, seat 0 against greedy bots, seat 0 leads trick 1", t)

    t = vs_bots()
    until(t, lambda t: t.view["trick_no"] >= 4 and t.view["trick"] and t.legal and t.view["phase"] == "play")
    add("play", "seat 0 plays into a trick in progress a few tricks in (houses built, the last trick judged)", t)

    t = vs_bots()
    until(t, lambda t: t.view["phase"] == "play" and t.legal and len(t.view["trick"]) == 3)
    add("preview_judge", f"seat 0 plays the trick's last card: pointing at '{t.legal[0]}' previews the judging",
        previewing(t, t.legal[0]))

    t = vs_bots()
    until(t, lambda t: t.view["phase"] == "marker" and t.legal)
    assert t.view["movers"][0] == 0
    add("marker", "seat 0 played the lowest number: it moves the marker (its cards are refused, rule Y7.4)", t)
    browser(t, type="act", action=next(a for a in t.refusals if a.startswith("play")))
    assert "rule Y7.4" in t.last_error
    add("refused", "seat 0 clicked a card while it must move the marker: refused with rule Y7.4", t)

    # the marker on the right end of the track: "move right" is refused (rule Y7.2)
    st = setup_standard(4, [["G1", "G33"], ["P33"], ["G35"], ["P31"]], trick=["P35", "G31", "P29"], leader=1,
                        marker=21, trick_no=9, houses=[["G4", "G8"], ["P12"], [], ["G16", "P16", "P24"]],
                        totals=[12, 3, -4, 8], round=2, rounds=3)
    t = Yadokarick(state=st, seat=0, bots="greedy", bot_delay=0)
    browser(t, type="act", action="play G1")
    assert t.view["phase"] == "marker" and t.legal == ["move left", "move stay"], t.legal
    add("marker_end", "round 2, the marker on 21 (the end of the track): seat 0 may move it left or leave it", t)

    # a collapse (seat 0's full house) and a roof (D captures P2 and the roof P30)
    st = setup_standard(4, [["G36", "G3", "P9"], ["G11", "P15"], ["P13", "G19"], ["G27", "P17"]],
                        trick=["P2", "G6", "P30"], leader=1, trick_no=8,
                        houses=[["G33", "G29", "G25", "G21", "G17", "G13"], ["P5"], ["G24", "P14"], ["P21"]],
                        collapsed=[["G9"], [], [], []])
    t = Yadokarick(state=st, seat=0, bots="greedy", bot_delay=0)
    browser(t, type="act", action="play G36")
    v = t.view
    assert v["roofed"][3] and len(v["collapsed"][0]) == 2 and t.legal, v
    add("collapse_roof", "seat 0 captured onto a full house (its bottom card collapsed) and D roofed its house", t)

    # placement_order="choose": seat 0 captures three size-2 greens and orders them (rule Y8.3)
    st = setup_standard(4, [["G30", "G5"], ["P7"], ["P3"], ["G23"]],
                        trick=["G14", "G18", "P1"], leader=1, trick_no=9, placement_order="choose")
    t = Yadokarick(state=st, seat=0, bots="greedy", bot_delay=0)
    browser(t, type="act", action="play G30")
    assert t.view["phase"] == "arrange" and t.view["arrange"]["seat"] == 0, t.view["phase"]
    add("arrange", "placement_order='choose': seat 0 captured G14, G18 and G30 and orders them, bottom first", t)

    t = to_hold(vs_bots(rounds=2), "round_end")
    add("hold", "round 1 of 2 just ended (scored); the bots wait until seat 0 presses Continue", t)
    browser(t, type="continue")
    until(t, lambda t: t.view["trick_no"] >= 2 and t.legal)
    add("round2", "round 2 under way: round 1's scores are in the view's round records", t)

    t = vs_bots(rounds=2)
    until(t, lambda t: t.state.is_terminal)
    add("finished", "a 2-round game played to its end", t)

    t = vs_bots(players=3, seed=2, card_set="advanced")
    until(t, lambda t: t.view["trick_no"] >= 3 and t.legal and t.view["phase"] == "play")
    add("advanced3", "3 players, the advanced card set (G1-G30): seat 0 to play in trick 3 or later", t)

    t = vs_bots(players=7, seed=3)
    until(t, lambda t: t.view["trick_no"] >= 5 and t.legal and t.view["phase"] == "play")
    add("seven", "7 players: seat 0 to play in trick 5 or later", t)

    t = Yadokarick(players=4, seed=4, seat=None)
    until(t, lambda t: t.view["trick_no"] >= 2 and len(t.view["trick"]) == 2)
    add("teacher", "teacher view (seat None), hot seat: every hand shown, acting for the player to move", t)

    def make():
        return Yadokarick(players=4, seed=1, seat=0, bots="greedy", bot_delay=0.5)
    add("thinking", "seat 0 has just led; a bot's answer is scheduled (thinking)",
        after_first_move(make))

    # ---- duo
    t = Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0)
    add("duo_start", "duo: A (seat 0) against a greedy B and the NPC; A leads trick 1", t)
    add("duo_preview", f"duo: A points at '{t.legal[0]}': the preview stops before the NPC's hidden card",
        previewing(t, t.legal[0]))

    t = Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0, npc_seat=0)
    assert t.view["trick"] and t.view["trick"][0]["who"] == "NPC"
    add("duo_npc_lead", "duo with npc_seat=0: the NPC led trick 1 (its card is turned over); A plays next", t)

    t = Yadokarick(players=2, mode="duo", seed=5, seat=1, bots={0: "greedy"}, bot_delay=0)
    until(t, lambda t: t.view["trick_no"] >= 3 and len(t.view["trick"]) == 2
          and t.view["trick"][1]["who"] == "NPC")
    add("duo_after_npc", "duo, seat 1 (B) to play: A played, then the NPC turned over its card", t)

    t = Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0)
    until(t, lambda t: t.state.is_terminal)
    add("duo_finished", "a duo game played to its end: the NPC's house is the target", t)

    # ---- solo
    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: len(t.view["row"]) == 2)
    add("solo_setup", "solo: laying out the first row, 2 of 5 cards drawn (choose a deck for each)", t)

    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: t.view["phase"] == "turn" and t.view["turns"] >= 6)
    add("solo_turn", "solo: a turn a few turns in: place a row card on a crab, or give a crab up", t)
    browser(t, type="act", action=next(a for a in t.refusals if a.startswith("place")))
    assert "rule Y14" in t.last_error
    add("solo_refused", "solo: a placement the rules refuse was sent: last_error says why", t)

    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: t.view["phase"] == "refill")
    add("solo_refill", "solo: refilling the row after a placement: choose the deck", t)

    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: t.view["phase"] == "bonus")
    add("solo_bonus", "solo: a consecutive-number bonus is on offer: take a card of the group or decline", t)

    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: any(t.view["roof_mode"]) and t.view["penalty_pile"] and t.view["phase"] == "turn")
    add("solo_roof", "solo: a crab in roof mode, and a crab given up earlier (the penalty pile)", t)

    st = setup_solo(["G36", "G35", "P36", "P35", "G34"], crabs={"A": ["G1"], "B": ["P1"], "C": ["G2"], "D": ["P2"]})
    t = Yadokarick(state=st, seat=0, bot_delay=0)
    assert all(a.startswith("giveup") for a in t.legal)
    add("solo_forced", "solo: no row card fits any crab, so a crab must be given up (rule Y14.12)", t)

    t = Yadokarick(players=1, mode="solo", seed=10, seat=0, bot_delay=0)
    by_hint(t, lambda t: t.state.is_terminal)
    add("solo_finished", "a solo game played to its end by following the hint", t)

    t = Yadokarick(players=1, mode="solo", seed=5, seat=0, bot_delay=0)
    until(t, lambda t: t.state.is_terminal, limit=400)
    assert t.view["score"] < 0, t.view["score"]
    add("solo_lost", "a solo game played to its end by the first legal move each time: a negative score", t)
    return out


# ----------------------------------------------------------------------------- lessons on a table
def lesson_scenarios() -> dict:
    """A lesson table of every game: at the start, after a wrong move, after a right one (with a hint
    asked for), while the scripted replies come, and at the end with a next lesson."""
    import cardwidgets
    from cardwidgets import lessons
    from cardwidgets.widgets._lesson import LessonMode

    out: dict = {}

    def add(name: str, about: str, table: LessonMode) -> None:
        traits = synced(table, LESSON_SYNCED)
        out[name] = {"about": about, "game": table.GAME, "traits": traits}

    for game in sorted(GAMES):
        first = lessons.available(game)[0]
        lesson = lessons.load(first)
        moves = lesson.solution()
        t = cardwidgets.lesson(first, bot_delay=0)
        add(f"{game}_start", f"{first}: the lesson's first step", t)
        wrong = next((a for a in t.legal if a != moves[0] and not t.run.step.accepts(
            t.state, t.state.check(a), t.state.clone().apply(a))), None)
        if wrong is not None:
            browser(t, type="act", action=wrong)
            assert not t.lesson["feedback"]["ok"]
            add(f"{game}_other", f"{first}: a legal move the step does not ask for (the lesson's words)", t)
        browser(t, type="hint")
        add(f"{game}_hint", f"{first}: the hint asked for", t)
        for move in moves:
            browser(t, type="act", action=move)
        assert t.lesson["done"]
        add(f"{game}_done", f"{first}: every step played; the next lesson is offered", t)

    t = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0)
    browser(t, type="act", action="play 10")
    assert t.lesson["feedback"]["rule"] == "N4.3"
    add("cirno_neu_refused", "the engine refuses the move: its reason and rule", t)

    async def replies():
        table = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0.5)
        browser(table, type="act", action="play 5")
        assert table.lesson["waiting"] and table.thinking
        traits = synced(table, LESSON_SYNCED)
        table._cancel_pending()
        return traits
    out["cirno_neu_waiting"] = {"about": "a right move: the scripted replies come one after another",
                                "game": "cirno_neu", "traits": asyncio.run(replies())}
    return out


# ----------------------------------------------------------------------------- playing together
#: Names long enough to try the layouts (the longest a name may be is 20 characters).
NAMES = ["Ann", "Bartholomew Quince", "Cy", "Dee", "Eve", "Fay", "Gus"]
#: (label, new-game arguments) of the hot-seat tables of each game: a bot in the last seat.
TOGETHER = {
    "depot": [("", dict(players=3, seed=2))],
    "cirno_neu": [("", dict(players=3, seed=3))],
    "crypto_trick": [("", dict(players=3, seed=4))],
    "yadokarick": [("", dict(players=3, seed=4)), ("duo_", dict(players=2, mode="duo", seed=8))],
}


def together_scenarios(game: str) -> dict:
    """Hot-seat tables (the curtain down, a person seated, the bots' turn seen by the person seated)
    and a view looking back, with player names."""
    from cardwidgets import widgets
    from cardwidgets.games import game_spec

    cls = getattr(widgets, game_spec(game).table)
    out: dict = {}
    add = collector(out)
    for label, kw in TOGETHER[game]:
        n = kw["players"]
        names = NAMES[:n]
        bot = {n - 1: "greedy"} if n > 2 else {}
        t = cls(**kw, names=names, hotseat=True, bots=bot, bot_delay=0)
        assert t.curtain is not None and t.seat is None
        add(f"{label}hotseat_curtain", "hot seat: nobody seated yet, the curtain down for the first person "
                                       "(the view of nobody)", t)
        browser(t, type="iam", seat=t.curtain["seat"])
        assert t.seat is not None and t.legal
        add(f"{label}hotseat_seated", "hot seat: the person to play said who they are: their view and moves", t)
        while t.curtain is None and t.legal:
            browser(t, type="act", action=first_move(t))
        assert t.curtain is not None and t.history_len > 0
        add(f"{label}hotseat_next", "hot seat: after that person's move (and the bots'), the curtain is down "
                                    "for the next person", t)
    kw = dict(TOGETHER[game][0][1])
    t = cls(**kw, names=NAMES[:kw["players"]], bot_delay=0)
    views = [t.view_for(s) for s in range(t.state.players)]
    for _ in range(6):
        actor = t.state.current_player
        browser(views[actor], type="act", action=first_move(views[actor]))
    browser(views[1], type="goto", index=2)
    assert views[1].cursor == 2 and t.cursor == 6
    add("view_back", "one player's view (view_for) looking back at move 2 on its own, while the game is at "
                     "move 6", views[1])
    return out


GAMES = {"depot": depot_scenarios, "cirno_neu": cirno_scenarios, "crypto_trick": crypto_trick_scenarios,
         "yadokarick": yadokarick_scenarios}


def build(game: str) -> dict:
    scenarios = GAMES[game]()
    scenarios.update(together_scenarios(game))
    rules = {json.dumps(s["traits"].pop("rules"), sort_keys=True) for s in scenarios.values()}
    assert len(rules) == 1, "every table of a game syncs the same rules"
    return {"game": game, "rules": json.loads(rules.pop()), "scenarios": scenarios}


def build_lessons() -> dict:
    scenarios = lesson_scenarios()
    for s in scenarios.values():
        s["traits"].pop("rules")  # each game's rules are in its own fixture file
    return {"game": None, "scenarios": scenarios}


def dump(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_fixtures_are_current(game):
    path = FIXTURES / f"{game}.json"
    text = dump(build(game))
    if UPDATE:
        FIXTURES.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run CW_UPDATE_FIXTURES=1 pytest {__file__}"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.relative_to(ROOT)} differs from what the engines produce now; regenerate it with "
        f"CW_UPDATE_FIXTURES=1 python -m pytest tests/test_js_fixtures.py and review the diff")


def test_lesson_fixtures_are_current():
    path = FIXTURES / "lessons.json"
    text = dump(build_lessons())
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists() and path.read_text(encoding="utf-8") == text, (
        f"{path.relative_to(ROOT)} differs from what the lesson tables produce now; regenerate it with "
        f"CW_UPDATE_FIXTURES=1 python -m pytest tests/test_js_fixtures.py and review the diff")


def test_fixtures_cover_every_synced_trait():
    for game in GAMES:
        data = json.loads((FIXTURES / f"{game}.json").read_text(encoding="utf-8"))
        for name, s in data["scenarios"].items():
            assert sorted([*s["traits"], "rules"]) == SYNCED, (game, name)
    data = json.loads((FIXTURES / "lessons.json").read_text(encoding="utf-8"))
    for name, s in data["scenarios"].items():
        assert sorted([*s["traits"], "rules"]) == LESSON_SYNCED, name
