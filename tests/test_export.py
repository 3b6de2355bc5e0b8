"""The HTML export: one self-contained page per game and seat, holding only what that seat saw.

* The data reads back as every view, narration line and note of every line of play, for the
  teacher and for each seat, in every game and mode.
* Twin deals (the cards a seat never sees dealt differently, the hidden moves made with other
  cards, another seed) give byte-identical files for that seat, and different teacher files.
* The page loads nothing: no URL, no element that fetches; its data cannot close its script.
* ``Timeline.to_html``, ``Replay.to_html``, ``table.to_html`` and ``cardwidgets export`` write
  the same page; a 3-game Depot match stays within its budget.

The real-browser checks (network blocked, scrubbing, DOM against the views) are in
``tests/browser/test_export_browser.py``; the player's units in ``js/test/export.test.js``,
which reads ``js/test/fixtures/export.json`` (written here; ``CW_UPDATE_FIXTURES=1``).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardwidgets import Timeline, export
from cardwidgets.cli import main
from cardwidgets.core.rng import Recorded, Recorder
from cardwidgets.games import available_games, game_module, game_spec

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "js" / "test" / "fixtures" / "export.json"
UPDATE = os.environ.get("CW_UPDATE_FIXTURES", "").strip() not in ("", "0")

#: One configuration per game and mode (the mode's middle player count), and the options that
#: change what a table shows (a Depot match, the cirno+neu life system, Yadokarick's advanced set).
CONFIGS = [
    (game, {**({"mode": m.name} if len(game_spec(game).modes) > 1 else {}), "players": m.players[len(m.players) // 2]})
    for game in available_games() for m in game_spec(game).modes
] + [("depot", {"players": 3, "games": 3}), ("cirno_neu", {"players": 4, "life_system": True}),
     ("yadokarick", {"players": 4, "card_set": "advanced"})]
IDS = [f"{g}-{cfg.get('mode', 'standard')}" + "".join(f"-{k}" for k in cfg if k not in ("mode", "players"))
       for g, cfg in CONFIGS]

def played(game: str, cfg: dict, seed: int, moves: int = 60, chance=None) -> Timeline:
    """A random game of up to ``moves`` moves, a branch from its middle and two notes,
    shown at the main line's 5th position."""
    tl = Timeline(game_module(game).new_game(seed=seed, chance=chance, **cfg))
    rng = random.Random(seed)

    def play(n: int) -> None:
        while not tl.state.is_terminal and n > 0:
            legal = tl.state.legal_actions()
            tl.step(legal[rng.randrange(len(legal))])
            n -= 1

    play(moves)
    tl.note("the last move of the main line")
    tl.goto(max(1, tl.length // 2))
    tl.note("a note on the shared part")
    play(6)
    if tl.branch != "main":
        tl.note("a note on the branch")
    tl.switch("main")
    tl.goto(min(5, tl.length))
    return tl


def seen(tl: Timeline, n: int, line: str, seat: int | None) -> tuple:
    """What ``seat`` sees at a position: its view and the narration of the move that led there."""
    return (tl.position(n, line).view(seat),
            [e.text for e in tl.events(n, line) if e.text and e.visible_to(seat)])


# --------------------------------------------------------------------------- the data
@pytest.mark.parametrize(("game", "cfg"), CONFIGS, ids=IDS)
def test_the_data_reads_back_as_every_view_narration_and_note(game, cfg, report):
    tl = played(game, cfg, seed=3)
    assert tl.line_count == 2
    checked = 0
    for seat in [None, *range(tl.state.players)]:
        data = json.loads(json.dumps(export.export_data(tl, seat)))  # what the page parses
        back = export.decode(data)
        assert data["seat"] == seat and data["start"] == {"branch": "main", "cursor": tl.cursor}
        assert "seed" not in data and "actions" not in data
        for info in tl.branches:
            assert data["lines"][[b.name for b in tl.branches].index(info.name)]["from"] == info.start
            assert back.notes(info.name) == tl.notes(info.name)
            here = Timeline.from_replay(tl.to_replay())
            here.switch(info.name)
            for n in range(info.length + 1):
                assert back.view(info.name, n) == tl.position(n, info.name).view(seat)
                here.goto(n)
                assert back.narration(info.name, n) == here.narration(seat)
                checked += 1
    report("export", game, positions=checked)


def test_views_are_patches_and_narration_is_shared():
    tl = played("depot", {"players": 4, "games": 3}, seed=5, moves=400)
    data = export.export_data(tl, 1)
    steps = [step for line in data["lines"] for step in line["steps"]]
    full = sum(len(json.dumps(tl.position(n, b.name).view(1))) for b in tl.branches
               for n in range(b.start + 1, b.length + 1))
    patches = sum(len(json.dumps(p)) for p, _ in steps)
    assert patches < full / 2, (patches, full)  # only what changed
    used = [i for _, ids in steps for i in ids]
    assert sorted(set(used)) == list(range(len(data["strings"])))  # every line once, all of them used
    assert len(used) > len(data["strings"])  # the branch repeats lines of the main line by index


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_a_patch_rebuilds_the_value_exactly(a, b):
    patch = export._diff(a, b)
    rebuilt = a if patch is None else export._patch(a, patch)
    # the same JSON text: key order kept, true never 1, 1 never 1.0
    assert json.dumps(rebuilt) == json.dumps(b)
    assert (patch is None) == (json.dumps(a) == json.dumps(b))


def test_patch_forms():
    pad = {"names": ["Alice", "Bruno", "Chiara"], "phase": "play"}  # what stays: a patch is shorter
    long = [100, 200, 300, 400, 500, 600]
    assert export._diff({**pad, "b": long}, {**pad, "b": [*long[:5], 7]}) == {"b": {"5": [7]}}
    assert export._diff({**pad, "b": [1, 2, 3]}, {**pad, "b": [1, 5, 3]}) == {"b": [[1, 5, 3]]}  # shorter whole
    assert export._diff({**pad, "a": 1}, {**pad, "a": True}) == {"a": [True]}  # true is not 1
    assert export._diff({**pad, "a": 1}, {**pad, "a": 1.0}) == {"a": [1.0]}
    assert export._diff({"a": 1, **pad}, {**pad, "a": 1}) == [{**pad, "a": 1}]  # another key order: replaced
    assert export._diff({**pad, "c": None}, {**pad, "d": None}) == [{**pad, "d": None}]
    assert export._diff([1, 2], [1, 2, 3]) == [[1, 2, 3]]
    assert export._diff({"a": {"b": None}}, {"a": {"b": None}}) is None


def _lines_data() -> dict:
    """Export data of a main line and a branch ``b`` from its 5th position, 3 moves long."""
    tl = Timeline(game_module("depot").new_game(seed=2, players=3))
    for _ in range(8):
        tl.step(tl.state.legal_actions()[0])
    tl.goto(5)
    for _ in range(3):
        tl.step(tl.state.legal_actions()[-1])
    data = export.export_data(tl)
    assert [(ln["name"], ln["parent"], ln["from"], ln["length"]) for ln in data["lines"]] == \
        [("main", None, 0, 8), (tl.branch, "main", 5, 8)]
    return json.loads(json.dumps(data))


def _with(data: dict, change) -> dict:
    data = json.loads(json.dumps(data))
    change(data)
    return data


def _cycle(d: dict) -> None:
    a, b = json.loads(json.dumps(d["lines"][1])), json.loads(json.dumps(d["lines"][1]))
    a.update(name="a", parent="b")
    b.update(name="b", parent="a")
    d["lines"][1:] = [a, b]


@pytest.mark.parametrize("change, words", [
    (_cycle, "the parent 'b' is not an earlier line"),
    (lambda d: d["lines"][1]["steps"][0].__setitem__(0, {"hands": {"7": [[]]}}), "step 0: the patch index '7'"),
    (lambda d: d["lines"][1]["steps"][0].__setitem__(0, {"nope": [1]}), "the patch key 'nope'"),
    (lambda d: d["lines"][1]["steps"][0].__setitem__(0, []), "a patch is"),
    (lambda d: d.pop("lines"), '"lines" must be'),
    (lambda d: d["lines"][1].update(parent="nowhere"), "not an earlier line"),
    (lambda d: d["lines"][1].update({"from": 9}), '"from" must be a position 0..8'),
    (lambda d: d["lines"][1].update(length=99), '"length" must be'),
    (lambda d: d["lines"][0]["steps"][0][1].append(10**6), "indexes into"),
    (lambda d: d["lines"][0].update(notes={"x": "y"}), '"notes" must map'),
    (lambda d: d["lines"][1].pop("steps"), "line #1 must be an object"),
    (lambda d: d.update(root=[{}]), '"root" must be'),
])
def test_malformed_data_is_a_value_error_and_view_ends(change, words):
    """The reader trusted the file: two lines each the other's parent made decode() loop for
    ever, a patch index out of range raised IndexError, data with no "lines" KeyError."""
    from test_position_fuzz import watchdog

    data = _lines_data()
    branch = data["lines"][1]["name"]
    good = export.decode(data)
    assert good.view(branch, 8) != good.view("main", 8) and good.view(branch, 5) == good.view("main", 5)
    with watchdog(10, "decode"):
        with pytest.raises(ValueError, match=re.escape(words)):
            export.decode(_with(data, change))


def test_read_html_refuses_what_decode_refuses(tmp_path):
    from test_position_fuzz import watchdog

    data = _with(_lines_data(), _cycle)
    page = tmp_path / "x.html"
    page.write_text(f'<script type="application/json" id="{export.DATA_ID}">{json.dumps(data)}</script>')
    with watchdog(10, "read_html"), pytest.raises(ValueError, match="not an earlier line"):
        export.read_html(page)
    page.write_text(f'<script type="application/json" id="{export.DATA_ID}">' + "[" * 100_000 + "</script>")
    with pytest.raises(ValueError, match="not valid JSON"):
        export.read_html(page)


# --------------------------------------------------------------------------- twin deals
def follow(tl: Timeline, root, seat: int) -> tuple[Timeline, int] | None:
    """Every line of ``tl`` played again from ``root`` with moves that show ``seat`` the same
    (the same move when it does, else another: a card given face down ...), notes and cursor
    copied. ``None`` when some position of ``tl`` has no such twin. Also returns how many moves
    differ in their text."""
    twin = Timeline(root)
    if twin.root.view(seat) != tl.root.view(seat) or seen(twin, 0, "main", seat) != seen(tl, 0, "main", seat):
        return None
    differ = 0
    for info in tl.branches:
        if info.parent is not None:
            twin.switch(info.parent)
            twin.goto(info.start)
        for n in range(info.start, info.length):
            want = seen(tl, n + 1, info.name, seat)
            move = tl.position(n + 1, info.name).last_move
            here = twin.state
            options = [move] + [a for a in here.legal_actions() if str(a) != str(move)]
            for a in options:
                if not here.is_legal(a):
                    continue
                trial = here.clone()
                events = trial.apply(a)
                if (trial.view(seat), [e.text for e in events if e.text and e.visible_to(seat)]) == want:
                    break
            else:
                return None
            differ += str(a) != str(move)
            twin.step(a)
        assert twin.branch == info.name
        for k, text in tl.notes(info.name).items():
            twin.goto(k + 1)
            twin.note(text)
    twin.switch(tl.branch)
    twin.goto(tl.cursor)
    return twin, differ


def twin_game(game: str, cfg: dict, seat: int, seed: int, *, moves: int = 40, hidden_moves: bool = False,
              tries: int = 3000):
    """A game and its twin for ``seat``: the first deal with two cards swapped that ``seat``
    never sees (found by trying), every later shuffle the same, another seed. With
    ``hidden_moves``, a twin where some move differs in its text (a card given face down)."""
    rec = Recorder(seed)
    tl = played(game, cfg, seed, moves=moves, chance=rec)
    decisions = rec.recorded().to_list()
    rng = random.Random(seed)
    deal = decisions[0]
    for attempt in range(tries):
        i, j = rng.sample(range(len(deal)), 2)
        swapped = list(deal)
        swapped[i], swapped[j] = deal[j], deal[i]
        root = game_module(game).new_game(seed=seed + 1, chance=Recorded([swapped, *decisions[1:]]), **cfg)
        if root.view(None) == tl.root.view(None):
            continue  # two equal cards: no twin
        found = follow(tl, root, seat)
        if found is not None and (found[1] > 0 or not hidden_moves):
            return tl, found[0], found[1], attempt + 1
    pytest.fail(f"no twin of this {game} game for seat {seat} in {tries} deals")


def html(tl: Timeline, seat: int | None, tmp_path: Path, name: str) -> bytes:
    return tl.to_html(tmp_path / f"{name}.html", seat).read_bytes()


@pytest.mark.parametrize(("game", "cfg"), CONFIGS, ids=IDS)
def test_twin_deals_give_byte_identical_files(game, cfg, tmp_path, report):
    for seat in sorted({0, cfg["players"] - 1}):
        tl, twin, differ, tries = twin_game(game, cfg, seat, seed=5)
        assert tl.root.seed != twin.root.seed
        assert twin.root.view(None) != tl.root.view(None)  # the twins are not the same game
        assert tl.line_count == twin.line_count == 2 and tl.length >= 8
        a, b = html(tl, seat, tmp_path, "real"), html(twin, seat, tmp_path, "twin")
        assert a == b, f"seat {seat} can tell the twins apart from the exported files"
        assert html(tl, None, tmp_path, "real-teacher") != html(twin, None, tmp_path, "twin-teacher")
        report("export twins", game, files=2, positions=sum(b.length - b.start for b in tl.branches), deals=tries)


def test_a_card_given_face_down_leaves_no_trace_in_the_file(tmp_path, report):
    """Crypto Trick: the declarer gives a card face down (C5.5). Seats that neither gave nor got it
    get the same file whichever card it was: no action text, no seed, nothing."""
    tl, twin, differ, tries = twin_game("crypto_trick", {"players": 4}, seat=1, seed=5, moves=16, hidden_moves=True)
    gives = [(str(a), str(b)) for a, b in zip(tl.line, twin.line) if str(a) != str(b)]
    assert differ > 0 and all(a.startswith("give") for a, _ in gives), gives
    page = html(tl, 1, tmp_path, "real")
    assert page == html(twin, 1, tmp_path, "twin")
    text = page.decode()
    for real, other in gives:  # neither card's move is in the file
        assert f'"{real}"' not in text and f'"{other}"' not in text
    report("export twins", "crypto_trick", hidden_moves=differ)


def test_no_seed_no_deck_no_position_in_a_seat_file(tmp_path):
    seed = 987_654_321_987_654
    tl = played("depot", {"players": 4}, seed=seed, moves=30)
    text = html(tl, 2, tmp_path, "seat").decode()
    assert str(seed) not in text
    assert tl.root.to_position() not in text and "depot/" not in text  # no position text
    data = export.read_html(tmp_path / "seat.html").data
    hidden = tl.root.view(None)["hands"]
    assert data["root"][0]["hands"] == [None, None, hidden[2], None]


# --------------------------------------------------------------------------- the page
URL = re.compile(r"\b(?:https?|ftp|wss?):/*[^\s\"'<>)]*|//[a-z0-9.-]+\.[a-z]{2,}/", re.I)
#: The URLs a page may hold: namespace names, which are never fetched (SVG's, for the icons;
#: XHTML's, which the DOM patcher compares elements' namespaces with).
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"}


@pytest.mark.parametrize("game", available_games())
def test_the_page_loads_nothing_from_anywhere(game, tmp_path):
    cfg = next(c for g, c in CONFIGS if g == game)
    text = html(played(game, cfg, seed=1, moves=20), 0, tmp_path, "page").decode()
    assert set(URL.findall(text)) <= NAMESPACES, set(URL.findall(text)) - NAMESPACES
    assert not re.search(r"<(?:link|img|iframe|object|embed|base|audio|video|source)\b", text, re.I)
    assert not re.search(r"\s(?:src|href|srcset|action|poster)\s*=", text, re.I)
    assert not re.search(r"@import|url\((?!\s*[\"']?data:)", text, re.I)
    assert f'content="{export.CSP}"' in text and "default-src 'none'" in export.CSP
    assert len(re.findall(r"<script\b", text)) == len(re.findall(r"</script>", text)) == 2
    assert len(re.findall(r"<style\b", text)) == len(re.findall(r"</style>", text)) == 1
    assert text.count(f'id="{export.DATA_ID}"') == 1 and 'id="cw-export"' in text


def test_text_in_notes_and_names_cannot_break_out_of_the_page(tmp_path):
    tl = played("depot", {"players": 3}, seed=2, moves=10)
    nasty = "</script><script>alert(1)</script> <!-- \u2028 \u2029 & \"quoted\" <b>"
    tl.goto(3)
    tl.note(nasty)
    path = tl.to_html(tmp_path / "page.html", 0)
    text = path.read_text(encoding="utf-8")
    assert text.count("</script>") == 2 and "<!--" not in text and "\u2028" not in text
    back = export.read_html(path)
    assert back.notes("main")[2] == nasty
    assert back.view("main", 3) == tl.position(3).view(0)


def test_a_note_that_could_never_be_saved_is_refused():
    tl = played("depot", {"players": 3}, seed=2, moves=4)
    tl.goto(2)
    before = tl.notes()
    with pytest.raises(ValueError, match="unpaired surrogate"):
        tl.note("a \ud800 note")
    assert tl.notes() == before
    tl.note("\U0001F0A1 a card")  # astral characters are text like any other
    assert tl.notes()[1] == "\U0001F0A1 a card"


def test_the_player_is_inlined_without_ending_its_element():
    assert export._inline('a="</script>";b=/<\\/SCRIPT/', "script") == 'a="<\\/script>";b=/<\\/SCRIPT/'
    with pytest.raises(ValueError, match="<!--"):
        export._inline("x = '<!--'", "script")
    with pytest.raises(ValueError, match="</style"):
        export._inline("a::after { content: '</style>' }", "style")
    for game in available_games():  # the built players hold neither
        script, styles = export._player(game)
        assert "<!--" not in script and "</style" not in styles.lower()


def test_the_same_game_gives_the_same_bytes(tmp_path):
    tl = played("yadokarick", {"players": 4}, seed=4, moves=30)
    again = Timeline.from_replay(tl.to_replay())
    again.goto(tl.cursor)
    assert html(tl, 1, tmp_path, "a") == html(again, 1, tmp_path, "b")


def test_a_three_game_depot_match_is_within_its_budget(tmp_path, report):
    """Random bots play long matches (about a thousand moves): the page stays under 1.5 MB."""
    tl = Timeline(game_module("depot").new_game(players=4, games=3, seed=3))
    rng = random.Random(1)
    while not tl.state.is_terminal:
        legal = tl.state.legal_actions()
        tl.step(legal[rng.randrange(len(legal))])
    size = len(html(tl, 0, tmp_path, "match"))
    report("export size", "depot", moves=tl.length, kilobytes=size // 1024)
    assert tl.length > 500 and size <= 1_500_000, (tl.length, size)


# --------------------------------------------------------------------------- the entry points
def test_timeline_replay_table_and_command_write_the_same_page(tmp_path, capsys):
    from cardwidgets import Depot

    table = Depot(players=3, seed=6, seat=1, bots="greedy", bot_delay=0)
    table.step(table.legal_actions()[0])
    table.note("my first move")
    written = table.to_html(tmp_path / "table.html")
    assert written == tmp_path / "table.html"
    page = written.read_bytes()
    assert page == table.timeline.to_html(tmp_path / "timeline.html", 1).read_bytes()
    assert export.read_html(written).seat == 1

    replay = table.replay()
    replay.save(tmp_path / "game.json")
    from_replay = replay.to_html(tmp_path / "replay.html", 1).read_bytes()
    # a replay opens at the main line's end, like Timeline.from_replay; the table is there too
    assert from_replay == page
    assert main(["export", str(tmp_path / "game.json"), "--seat", "B", "-o", str(tmp_path / "cli.html")]) == 0
    assert (tmp_path / "cli.html").read_bytes() == page
    assert "cli.html" in capsys.readouterr().out
    assert main(["export", str(tmp_path / "game.json")]) == 0  # next to the replay, teacher view
    assert export.read_html(tmp_path / "game.html").seat is None


def test_bad_requests_say_what_is_wrong_and_write_nothing(tmp_path, capsys, monkeypatch):
    tl = played("cirno_neu", {"players": 3}, seed=1, moves=5)
    with pytest.raises(ValueError, match="seat"):
        tl.to_html(tmp_path / "x.html", seat=3)
    assert not (tmp_path / "x.html").exists()
    (tmp_path / "bad.json").write_text('{"format": "cardwidgets-replay"', encoding="utf-8")
    assert main(["export", str(tmp_path / "bad.json")]) == 1
    assert "not a valid replay" in capsys.readouterr().err
    tl.to_replay().save(tmp_path / "game.json")
    assert main(["export", str(tmp_path / "game.json"), "--seat", "E"]) == 1
    assert "seats 0-2 (A-C)" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "game.json"), "-o", str(tmp_path / "game.json")]) == 1
    assert "would replace the replay" in capsys.readouterr().err
    monkeypatch.setattr(export, "STATIC", tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="npm run build"):
        tl.to_html(tmp_path / "y.html")
    assert not (tmp_path / "y.html").exists()
    with pytest.raises(ValueError, match="not a page written by"):
        export.read_html(tmp_path / "game.json")


# --------------------------------------------------------------------------- the JS fixture
def fixture() -> dict:
    """Per game, a short game's export for seat 0 and what each position shows (the vitest
    units of the player check it against the data)."""
    out = {}
    for game, cfg in [("depot", {"players": 3}), ("cirno_neu", {"players": 3}), ("crypto_trick", {"players": 3}),
                      ("yadokarick", {"players": 3}), ("yadokarick", {"mode": "solo", "players": 1})]:
        tl = played(game, cfg, seed=2, moves=12)
        name = game if cfg.get("mode") is None else f"{game}-{cfg['mode']}"
        data = export.export_data(tl, 0)
        expect = {}
        for info in tl.branches:
            here = Timeline.from_replay(tl.to_replay())
            here.switch(info.name)
            rows = []
            for n in range(info.length + 1):
                here.goto(n)
                rows.append({"view": tl.position(n, info.name).view(0), "narration": here.narration(0)})
            expect[info.name] = rows
        out[name] = {"data": data, "expect": expect}
    return json.loads(json.dumps(out))


def test_the_js_fixture_is_current():
    made = fixture()
    if UPDATE or not FIXTURE.exists():
        FIXTURE.write_text(json.dumps(made, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == made, \
        "js/test/fixtures/export.json is out of date: CW_UPDATE_FIXTURES=1 pytest tests/test_export.py"


def test_notes_are_written_once_however_many_lines_share_them():
    # Each line held every note along its shared part: N noted moves with N branches at the end
    # wrote N * N notes (107 MB for N = 1000).
    tl = Timeline(game_module("yadokarick").new_game(players=3, seed=2))
    rng = random.Random(1)
    for _ in range(30):
        tl.step(rng.choice(tl.state.legal_actions()))
        tl.note("x" * 50)
    last = str(tl.state.history[-1])
    for k in range(10):
        tl.switch("main")
        tl.goto(29)
        others = [a for a in tl.state.legal_actions() if str(a) != last]
        tl.step(others[k % len(others)])
    assert len(tl.branches) > 1
    data = export.export_data(tl)
    assert sum(len(line["notes"]) for line in data["lines"]) == 30  # each note once, on its line
    back = export.decode(data)
    for info in tl.branches:
        assert back.notes(info.name) == tl.notes(info.name)
        assert len(back.notes(info.name)) == (30 if info.name == "main" else 29)
