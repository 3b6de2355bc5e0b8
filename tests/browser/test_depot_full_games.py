"""Whole Depot games in a live JupyterLab, played by clicks in chromium against greedy bots.

Seat 0 plays every turn through the table: the first legal-move chip (``.cw-legal [data-control="select-move"]``,
which selects its cards) then ``[data-control="play"]`` when there is a play, else the pass flow (``[data-control="pass"]`` -> the first
``[data-control^="take-"]`` -> a hand card to give only if no pass without one is legal ->
``[data-control="confirm-pass"]``). The bots answer at once (``bot_delay=0``), inside the kernel's
handling of our click. After every click the test waits for the DOM to change, reads the kernel,
checks that our action was the one recorded, and waits for the DOM to show the kernel's latest
position (``.cw-history-pos``) before the next click.

Seeds were chosen on the engine alone with the same policy (3 players, seeds 0-199): 60 is a single
game of 7 clicks with one pass; 111 a 3-game match of about 23 clicks with two passes. The loop does
not depend on them; it only caps the clicks.
"""

from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture reports it: a skip locally, a failure when CI is set
    expect = None

from .conftest import history_pos, require_table, snapshot

pytestmark = pytest.mark.e2e

TABLE = '.cw-table[data-game="depot"]'
NAMES = "ABCDEFGH"
GAME_SEED = 60
MATCH_SEED = 111
MAX_CLICKS = 300

CELL = """\
from cardwidgets import Depot
t = Depot(players=3, seed={seed}, seat=0, bots="greedy", bot_delay=0, games={games})
t
"""

SNAPSHOT = snapshot(outcome="None if t.state.outcome() is None else t.state.outcome().to_dict()", hold="t.hold")


_require_table = require_table("Depot")




def open_game(lab_page, name: str, seed: int, games: int):
    # tall enough that the whole table fits in the notebook panel (element screenshots)
    lab_page.page.set_viewport_size({"width": 1280, "height": 1900})
    nb = lab_page.open_notebook(name, [CELL.format(seed=seed, games=games)])
    assert nb.errors() == []
    table = lab_page.page.locator(TABLE)
    table.wait_for(state="visible", timeout=60_000)
    return nb, table


def lost_shown(table) -> list[str]:
    return table.locator(".cw-seat[data-seat] .cw-lost").evaluate_all(
        "els => els.map(e => e.closest('[data-seat]').dataset.seat + ':' + e.firstChild.textContent)")


def pass_by_clicking(table, legal: list[str]) -> tuple[str, int]:
    """Pass -> first take button (if any) -> give only when needed -> confirm.

    Returns the action confirmed and the number of clicks it took."""
    passes = [a for a in legal if a.startswith("pass")]
    assert passes, legal
    table.locator('[data-control="pass"]').click()
    clicks = 2  # Pass… and Confirm
    confirm = table.locator('[data-control="confirm-pass"]')
    takes = sorted({int(a.split()[2]) for a in passes if a.split()[1] == "take"})
    take_buttons = table.locator('[data-control^="take-"]')
    if takes:
        expect(take_buttons).to_have_count(len(takes))
        first = take_buttons.first
        expect(first).to_have_attribute("data-control", f"take-{takes[0]}")
        first.click()
        clicks += 1
        chosen = [a for a in passes if a.split()[1] == "take" and int(a.split()[2]) == takes[0]]
    else:
        expect(take_buttons).to_have_count(0)  # empty Storage: straight to the give step
        chosen = passes
    without_give = [a for a in chosen if " give " not in f" {a} "]
    if without_give:
        action = without_give[0]
    else:
        action = chosen[0]
        give = action.split()[-1]
        table.locator(f'.cw-hand [data-card="{give}"]').first.click()
        clicks += 1
    expect(confirm).to_have_attribute("data-action", action)
    expect(confirm).to_be_enabled()
    confirm.click()
    return action, clicks


def play_to_the_end(lab_page, nb, table, shot_prefix: str) -> tuple[dict, dict]:
    """Click seat 0's turns until the kernel says the game (or match) is over."""
    stats = {"clicks": 0, "plays": 0, "passes": 0, "turns": 0}
    games_seen = set()
    while True:
        snap = nb.json(SNAPSHOT)
        view = snap["view"]
        expect(table.locator(".cw-history-pos")).to_have_text(history_pos(snap["history_len"]))
        if view["games"] == 3:
            # the lost points on the seats follow the kernel through the match
            expect(table.locator(".cw-seat[data-seat] .cw-lost")).to_have_count(view["players"])
            assert sorted(lost_shown(table)) == [f"{s}:lost {p}" for s, p in enumerate(view["lost_points"])]
            if view["game_no"] not in games_seen:
                games_seen.add(view["game_no"])
                expect(table.locator(".cw-header")).to_contain_text(f"Game {view['game_no']} of 3")
        if snap["terminal"]:
            return snap, stats
        if snap["hold"] is not None:
            continue_after_game(lab_page, nb, table, snap, stats)
            continue
        assert snap["current"] == 0, view  # the bots answered at once
        assert snap["last_error"] == ""
        if stats["clicks"] >= MAX_CLICKS:
            pytest.fail(f"not over after {MAX_CLICKS} clicks ({stats}, history {snap['history_len']}, "
                        f"game {view['game_no']}, round {view['round']})", pytrace=False)
        legal = snap["legal"]
        plays = [a for a in legal if a.startswith("play ")]
        buttons = table.locator('.cw-legal [data-control="select-move"]')
        expect(buttons).to_have_count(len(plays))
        if plays:
            first = buttons.first
            expect(first).to_have_attribute("data-move", plays[0])
            action = plays[0]
            first.click()  # selects the play's cards; nothing is sent yet
            expect(first).to_have_attribute("aria-pressed", "true")
            play = table.locator('[data-control="play"]')
            expect(play).to_have_attribute("data-action", action)
            play.click()
            stats["clicks"] += 2
            stats["plays"] += 1
        else:
            expect(table.locator('[data-control="pass"]')).to_be_enabled()
            action, clicks = pass_by_clicking(table, legal)
            stats["clicks"] += clicks
            stats["passes"] += 1
        stats["turns"] += 1
        before = snap["history_len"]
        expect(table.locator(".cw-history-pos")).not_to_have_text(history_pos(before))
        recorded = nb.json("[str(a) for a in t.history][%d:%d]" % (before, before + 1))
        assert recorded == [action], (action, recorded)
        if stats["turns"] == 2:
            lab_page.screenshot(table, f"{shot_prefix}-midgame.png")


def continue_after_game(lab_page, nb, table, snap: dict, stats: dict) -> None:
    """The bots wait at a game's end: the hold panel shows it until Continue is clicked."""
    hold = snap["hold"]
    assert hold["kind"] == "scoring" and set(hold) == {"kind", "text"}, hold
    data = snap["view"]["results"][-1]  # the panel reads the game's end from the view
    panel = table.locator(".cw-hold")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-kind", "scoring")
    expect(panel.locator(".cw-overlay-head")).to_have_text(f"Game {data['game']} of 3 is over")
    rows = panel.locator("tbody tr")
    expect(rows).to_have_count(len(data["ranking"]))
    assert [int(s) for s in rows.evaluate_all("rs => rs.map(r => r.dataset.seat)")] == data["ranking"]
    for place, s in enumerate(data["ranking"]):
        row = panel.locator(f'tbody tr[data-seat="{s}"]')
        expect(row.locator("td").last).to_contain_text(str(data["lost_points"][s]))
        if place > 0 and data["taken"][s] is not None:
            expect(row.locator("[data-card]")).to_have_attribute("data-card", str(data["taken"][s]))
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Paused")
    # the bots wait: nothing moves while the panel is up
    length = snap["history_len"]
    lab_page.page.wait_for_timeout(300)
    assert nb.json("[t.history_len, t.hold is not None]") == [length, True]
    if stats.get("holds", 0) == 0:
        lab_page.screenshot(table, "depot-match-hold.png")
    table.locator('[data-control="continue"]').click()
    expect(panel).to_have_count(0)
    stats["holds"] = stats.get("holds", 0) + 1
    stats["clicks"] += 1
    for _ in range(100):  # the bots play on until seat 0 is to act
        after = nb.json("[t.hold, t.state.current_player, t.thinking]")
        if after[0] is None and (after[1] == 0 or after[1] is None) and not after[2]:
            break
        lab_page.page.wait_for_timeout(100)
    else:
        pytest.fail(f"the bots did not play on after Continue: {after}", pytrace=False)


def expect_outcome(table, snap: dict, match: bool) -> None:
    outcome = snap["outcome"]
    winners, scores = outcome["winners"], outcome["scores"]
    panel = table.locator(".cw-outcome")
    expect(panel).to_be_visible()
    tail = " the match" if match else ""
    if 0 in winners:
        headline = f"share the win{tail}!" if len(winners) > 1 else f"A (you) wins{tail}!"
    elif len(winners) > 1:
        headline = "share the win"
    else:
        headline = f"{NAMES[winners[0]]} wins"
    expect(panel.locator(".cw-overlay-head")).to_contain_text(headline)
    expect(panel.locator("thead")).to_contain_text("Lost points" if match else "Cards left")
    if match:
        expect(panel.locator("thead")).to_contain_text("Game 3")
    for s, score in enumerate(scores):
        expect(panel.locator(f'tr[data-seat="{s}"] td').last).to_have_text(str(score))
        row = panel.locator(f'tr[data-seat="{s}"]')
        if s in winners:
            expect(row).to_have_class(re.compile(r"\bcw-winner-row\b"))
            expect(table.locator(f'.cw-seat[data-seat="{s}"]')).to_have_class(re.compile(r"\bcw-winner\b"))
    expect(panel.locator("tr.cw-winner-row")).to_have_count(len(winners))
    expect(table.locator(".cw-header .cw-turn")).to_have_text("Match over" if match else "Game over")
    expect(table.locator(".cw-legal")).to_have_count(0)


def record_stats(lab_page, stats: dict, snap: dict) -> None:
    import json

    stats = {**stats, "history_len": snap["history_len"], "outcome": snap["outcome"]}
    (lab_page.artifacts / "stats.json").write_text(json.dumps(stats, indent=1))


def test_full_single_game_against_bots(lab_page):
    """A whole single Depot game by clicking, seat 0 against two greedy bots."""
    nb, table = open_game(lab_page, "depot_full_game.ipynb", GAME_SEED, games=1)
    snap, stats = play_to_the_end(lab_page, nb, table, "depot-game")
    record_stats(lab_page, stats, snap)
    view = snap["view"]
    assert snap["terminal"] is True and view["phase"] == "finished"
    winners = snap["outcome"]["winners"]
    assert len(winners) == 1
    # a single game ends when the winner has played their last card (rule D8.1)
    assert view["hand_counts"][winners[0]] == 0
    assert snap["outcome"]["scores"] == view["hand_counts"]
    expect_outcome(table, snap, match=False)
    expect(table.locator(".cw-lost")).to_have_count(0)  # lost points are a match thing
    lab_page.screenshot(table, "depot-game-end.png")
    assert stats["turns"] > 0
    assert lab_page.page_errors == []


def test_full_three_game_match_against_bots(lab_page):
    """A whole 3-game Depot match by clicking, seat 0 against two greedy bots."""
    nb, table = open_game(lab_page, "depot_full_match.ipynb", MATCH_SEED, games=3)
    snap, stats = play_to_the_end(lab_page, nb, table, "depot-match")
    record_stats(lab_page, stats, snap)
    # the pass flow was exercised (with MATCH_SEED seat 0 passes twice; pick another seed if not)
    assert stats["passes"] >= 1, stats
    view = snap["view"]
    assert snap["terminal"] is True and view["phase"] == "finished"
    results = view["results"]
    assert [r["game"] for r in results] == [1, 2, 3] and view["game_no"] == 3
    assert results[-1]["lost_points"] == view["lost_points"] == snap["outcome"]["scores"]
    best = min(view["lost_points"])
    assert all(view["lost_points"][w] == best for w in snap["outcome"]["winners"])
    assert stats.get("holds") == 2, stats  # games 1 and 2 ended with the hold panel
    expect_outcome(table, snap, match=True)
    expect(table.locator(".cw-header")).to_contain_text("Game 3 of 3")
    assert sorted(lost_shown(table)) == [f"{s}:lost {p}" for s, p in enumerate(view["lost_points"])]
    assert sum(view["lost_points"]) > 0
    lab_page.screenshot(table, "depot-match-end.png")
    assert stats["turns"] > 0
    assert lab_page.page_errors == []
