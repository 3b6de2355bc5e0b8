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


def synced(table: TableWidget) -> dict:
    """The table's synced trait values, as JSON (what the browser receives)."""
    return json.loads(json.dumps({k: getattr(table, k) for k in SYNCED}))


def browser(table: TableWidget, **msg) -> None:
    """Send a message as the browser does."""
    table._handle(msg)


def first_move(table: TableWidget) -> str:
    """A simple deterministic policy: the first legal play, else the first pass."""
    plays = [a for a in table.legal if not a.startswith("pass")]
    return (plays or table.legal)[0]


def until(table: TableWidget, done, limit: int = 400) -> None:
    """Step the viewer's moves (first_move) until ``done(table)``; bots answer inside step."""
    for _ in range(limit):
        if done(table):
            return
        if not table.legal:
            raise AssertionError("no move for the viewer before the wanted position")
        table.step(first_move(table))
    raise AssertionError("the wanted position was not reached")


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


# ----------------------------------------------------------------------------- Depot
def depot_scenarios() -> dict:
    from cardwidgets import Depot

    out = {}

    def add(name, about, table_or_traits):
        traits = table_or_traits if isinstance(table_or_traits, dict) else synced(table_or_traits)
        out[name] = {"about": about, "traits": traits}

    def vs_bots(**kw):
        return Depot(players=4, seed=kw.pop("seed", 1), seat=0, bots="greedy", bot_delay=0, **kw)

    add("start", "4 players, seat 0 against greedy bots, seat 0 leads the first round", vs_bots())

    t = vs_bots()
    until(t, lambda t: any(a.startswith("play") for a in t.legal) and any(" give " in a for a in t.legal))
    add("respond", "seat 0 answers a standing play: plays, and passes taking and giving", t)

    t = vs_bots()
    until(t, lambda t: t.legal and all(a.startswith("pass") for a in t.legal))
    add("pass_only", "seat 0 can only pass (no play beats the standing play)", t)

    t = vs_bots()
    until(t, lambda t: t.view["standing"] is not None and any(a.startswith("play") for a in t.legal))
    illegal = next(f"play {v}" for v in sorted(set(t.view["hands"][0])) if f"play {v}" not in t.legal)
    browser(t, type="act", action=illegal)
    assert t.last_error
    add("refused", "seat 0 sent a play the rules refuse: last_error says why, with the rule", t)

    def make():
        return Depot(players=4, seed=1, seat=0, bots="greedy", bot_delay=0.5)
    add("thinking", "seat 0 has just led; a bot's answer is scheduled (thinking)",
        thinking(make, lambda t: browser(t, type="act", action=t.legal[0])))

    t = vs_bots()
    until(t, lambda t: t.history_len >= 12)
    back = next(k for k in range(t.history_len - 1, 0, -1)
                if t.timeline.position(k).current_player not in (0, None))
    t.goto(back)
    add("past_bot", "scrubbed back to a position where a bot is to play", t)

    t = vs_bots()
    until(t, lambda t: t.history_len >= 12)
    back = next(k for k in range(t.history_len - 1, 0, -1) if t.timeline.position(k).current_player == 0)
    t.goto(back)
    add("past_own", "scrubbed back to a position where seat 0 is to play (acting starts a new line)", t)
    played = t.timeline.line[back]
    browser(t, type="act", action=next(a for a in t.legal if a != played))
    assert len(t.branches) == 2
    add("branch", "seat 0 acted in the past: a second line of play, now the current one", t)
    browser(t, type="switch", branch="main")
    add("branch_main", "two lines of play, the main line shown again", t)

    t = Depot(players=4, seed=2, seat=None)
    for _ in range(9):
        t.step(first_move(t))
    add("teacher", "teacher view (seat None): every hand shown, acting for the player to move", t)

    t = vs_bots(seed=3)
    until(t, lambda t: t.state.is_terminal)
    add("finished", "a single game played to its end", t)

    t = Depot(players=3, seed=111, seat=0, bots="greedy", bot_delay=0, games=3)
    for _ in range(400):
        if t.hold is not None or t.state.is_terminal:
            break
        browser(t, type="act", action=first_move(t))
    assert t.hold is not None and t.hold["kind"] == "scoring", t.hold
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

    out = {}

    def add(name, about, table_or_traits):
        traits = table_or_traits if isinstance(table_or_traits, dict) else synced(table_or_traits)
        out[name] = {"about": about, "traits": traits}

    def vs_bots(**kw):
        return CirnoNeu(players=4, seed=kw.pop("seed", 3), seat=0, bots="greedy", bot_delay=0, **kw)

    add("start", "4 players, seat 0 against greedy bots", vs_bots())

    t = vs_bots()
    until(t, lambda t: t.history_len >= 8 and t.legal)
    add("mid", "seat 0 to play a few turns in", t)

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
        thinking(make, lambda t: browser(t, type="act", action=t.legal[0])))

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
    until(t, lambda t: t.history_len >= 10)
    back = next(k for k in range(t.history_len - 1, 0, -1)
                if t.timeline.position(k).current_player not in (0, None))
    t.goto(back)
    add("past_bot", "scrubbed back to a position where a bot is to play", t)

    t = vs_bots()
    until(t, lambda t: t.history_len >= 10)
    back = next(k for k in range(t.history_len - 1, 0, -1) if t.timeline.position(k).current_player == 0)
    t.goto(back)
    played = t.timeline.line[back]
    browser(t, type="act", action=next(a for a in reversed(t.legal) if a != played))
    assert len(t.branches) == 2
    add("branch", "seat 0 acted in the past: a second line of play", t)
    return out


GAMES = {"depot": depot_scenarios, "cirno_neu": cirno_scenarios}


def build(game: str) -> dict:
    scenarios = GAMES[game]()
    rules = {json.dumps(s["traits"].pop("rules"), sort_keys=True) for s in scenarios.values()}
    assert len(rules) == 1, "every table of a game syncs the same rules"
    return {"game": game, "rules": json.loads(rules.pop()), "scenarios": scenarios}


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


def test_fixtures_cover_every_synced_trait():
    for game in GAMES:
        data = json.loads((FIXTURES / f"{game}.json").read_text(encoding="utf-8"))
        for name, s in data["scenarios"].items():
            assert sorted([*s["traits"], "rules"]) == SYNCED, (game, name)
