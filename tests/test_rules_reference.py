"""The rules reference shipped in ``cardwidgets.rules``: its files, parser, lookup and citations."""

from __future__ import annotations

import dataclasses
import json
import re
from importlib import resources
from pathlib import Path

import pytest

import cardwidgets.rules as R
from cardwidgets.rules import Rule, _parse, as_json, cited, games, lookup, rules

GAMES = ["depot", "cirno_neu", "crypto_trick", "yadokarick"]
PREFIX = {"depot": "D", "cirno_neu": "N", "crypto_trick": "C", "yadokarick": "Y"}
# The section IDs each reference must have, and how many ambiguity resolutions it settles.
SECTIONS = {
    "depot": range(1, 12),  # D1–D11
    "cirno_neu": range(1, 9),  # N1–N8
    "crypto_trick": range(0, 12),  # C0–C11
    "yadokarick": range(0, 16),  # Y0–Y15
}
AMBIGUITIES = {"depot": 29, "cirno_neu": 32, "crypto_trick": 24, "yadokarick": 38}
ID_RE = re.compile(r"[A-Z]+[0-9]+(?:\.[0-9]+)*|[A-Z]+-[0-9]+")


def raw(name: str) -> str:
    return resources.files("cardwidgets.rules").joinpath(f"{name}.md").read_text(encoding="utf-8")


def heading_ids(name: str) -> list[str]:
    """Rule IDs of every ##/### heading in a file, outside code fences, duplicates kept."""
    out, fence = [], False
    for line in raw(name).splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{2,3} (\S+) — ", line)
        if m and ID_RE.fullmatch(m.group(1)):
            out.append(m.group(1))
    return out


# --- the files -----------------------------------------------------------------------------------


def test_games_listed_in_fixed_order():
    assert games() == GAMES


def test_files_ship_inside_the_package():
    folder = Path(R.__file__).parent
    for name in [*GAMES, "core"]:
        assert (folder / f"{name}.md").is_file()


@pytest.mark.parametrize("name", [*GAMES, "core"])
def test_every_file_parses_with_titles_and_text(name):
    table = rules(name)
    assert table
    for rid, rule in table.items():
        assert ID_RE.fullmatch(rid), rid
        assert rule.id == rid and rule.game == name
        assert rule.title.strip() == rule.title and rule.title
        assert rule.text.strip(), rid


@pytest.mark.parametrize("name", [*GAMES, "core"])
def test_no_duplicate_ids_and_file_order(name):
    ids = heading_ids(name)
    assert len(ids) == len(set(ids))
    assert list(rules(name)) == ids


@pytest.mark.parametrize("name", [*GAMES, "core"])
def test_file_starts_with_title_and_intro(name):
    lines = raw(name).splitlines()
    assert re.fullmatch(r"# .+ — rules reference", lines[0])
    intro = raw(name).split("\n## ", 1)[0].splitlines()[1:]
    assert any(line.strip() for line in intro)


@pytest.mark.parametrize("name", [*GAMES, "core"])
def test_rule_headings_use_the_em_dash_form(name):
    for line in raw(name).splitlines():
        m = re.match(r"^#{2,3} (\S+)", line)
        if m and ID_RE.fullmatch(m.group(1).rstrip(":.-—")):
            assert re.match(r"^#{2,3} \S+ — \S", line), line


@pytest.mark.parametrize("game", GAMES)
def test_action_notation_is_free_text(game):
    text = raw(game)
    assert "\n## Action notation\n" in text
    body = text.split("\n## Action notation\n", 1)[1]
    first = next(line for line in body.splitlines() if line.strip())
    assert not any(first in r.text for r in rules(game).values())


def forbidden() -> list[str]:
    # Built from pieces so that this file does not contain the words it forbids.
    return ["shared" + "/", "DESIGN" + ".md", "the " + "spec", "spec" + "ification",
            "planning " + "repository", "seed " + "file", "rulebook " + "extraction",
            "/" + "work/", "/" + "tmp/", "/" + "home/"]


@pytest.mark.parametrize("name", [*GAMES, "core", "__init__"])
def test_files_never_mention_internal_material(name):
    suffix = ".py" if name == "__init__" else ".md"
    text = resources.files("cardwidgets.rules").joinpath(name + suffix).read_text(encoding="utf-8")
    low = text.lower()
    for word in forbidden():
        assert word.lower() not in low, f"{name}{suffix} mentions {word!r}"


# --- coverage ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_sections_exist(game):
    for n in SECTIONS[game]:
        rid = f"{PREFIX[game]}{n}"
        assert lookup(rid, game=game).game == game
        assert lookup(rid).game == game  # section IDs resolve without game= too
    assert f"{PREFIX[game]}{SECTIONS[game].stop}" not in rules(game)


@pytest.mark.parametrize("game", GAMES)
def test_numbered_rules_have_no_gaps(game):
    p = PREFIX[game]
    by_section: dict[int, list[int]] = {}
    for rid in rules(game):
        m = re.fullmatch(rf"{p}(\d+)\.(\d+)", rid)
        if m:
            by_section.setdefault(int(m.group(1)), []).append(int(m.group(2)))
    assert set(by_section) == set(SECTIONS[game])
    for section, numbers in by_section.items():
        assert numbers == list(range(1, len(numbers) + 1)), f"{p}{section}: {numbers}"


@pytest.mark.parametrize("game", GAMES)
def test_every_ambiguity_resolution_is_there(game):
    p = PREFIX[game]
    found = [rid for rid in rules(game) if rid.startswith(f"{p}A-")]
    assert found == [f"{p}A-{n}" for n in range(1, AMBIGUITIES[game] + 1)]


def test_depot_cirno_and_crypto_trick_have_no_assumption_ids():
    assert not [rid for g in ("depot", "cirno_neu", "crypto_trick") for rid in rules(g) if rid.startswith("ASM")]
    # Crypto Trick says each choice in words and cites its own CA-n entries instead.
    assert "ASM" not in raw("crypto_trick")
    for rid in ("C1.2", "C5.5", "C9.2"):
        assert "CA-" in lookup(rid, game="crypto_trick").text


def test_yadokarick_says_its_assumptions_in_words():
    # Each assumption is said where its rule is, pointing at the library's own open question
    # (YA-n) that explains it; no planning-note ID is left.
    assert "ASM" not in raw("yadokarick") and not [rid for rid in rules("yadokarick") if rid.startswith("ASM")]
    for rid in ("Y0.3", "Y2.5", "Y5.2", "Y13.7"):
        text = lookup(rid, game="yadokarick").text
        found = re.findall(r"YA-\d+", text)
        assert found, (rid, text)
        for ya in found:
            assert lookup(ya, game="yadokarick").game == "yadokarick"


@pytest.mark.parametrize("rid, game", [
    ("D4.11", "depot"), ("D10.7", "depot"), ("D11.2", "depot"),
    ("N5.7", "cirno_neu"), ("N7.3", "cirno_neu"), ("N8.2", "cirno_neu"),
    ("C0.5", "crypto_trick"), ("C9.5", "crypto_trick"), ("C11.6", "crypto_trick"),
    ("Y13.13", "yadokarick"), ("Y14.10", "yadokarick"), ("Y14.15", "yadokarick"),
])
def test_selected_rules_exist(rid, game):
    assert lookup(rid).game == game


def test_every_core_rule():
    assert list(rules("core")) == ["G1", "G2", "G3", "G4", "G5"]
    assert lookup("G1").title == "The game is over"


@pytest.mark.parametrize("rid, words", [
    ("D8.2", ["games=1"]),
    ("D8.3", ["games=3"]),
    ("DA-7", ["refill_target"]),
    ("D10.3", ["penalty_mode"]),
    ("N4.6", ["double_draw_timing", "pass_ends_double_turn"]),
    ("NA-1", ["deck_counts"]),
    ("C6.4", ["trump_follow_unified"]),
    ("CA-17", ["overload_score"]),
])
def test_configurable_rules_name_their_option(rid, words):
    text = lookup(rid).text
    for word in words:
        assert word in text


def test_yadokarick_sizes_are_called_assumptions():
    for rid in ("Y1.2", "Y1.6", "YA-3"):
        text = lookup(rid, game="yadokarick").text
        assert "these sizes are assumptions; change them with `size_table`" in text.lower()


def test_card_tables_are_included():
    assert "| 13 | 12 | 11 |" in lookup("D1.1").text
    assert "| DOUBLE SHOT |" in lookup("N1.3").text
    assert "| 3 | 3 | 6 | 9 |" in lookup("C9.5").text
    assert "20R" in lookup("Y1.6").text


# --- lookup --------------------------------------------------------------------------------------


def test_lookup_is_case_and_space_insensitive():
    assert lookup("d4.2") == lookup("D4.2") == lookup("  D4.2\n")
    assert lookup("da-7").id == "DA-7"
    assert lookup(" ca-2 ").id == "CA-2" and lookup("ca-2").game == "crypto_trick"


def test_lookup_with_game_falls_back_to_core():
    for game in GAMES:
        rule = lookup("G2", game=game)
        assert rule.game == "core" and rule.id == "G2"
    assert lookup("G3", game="core").game == "core"


def test_lookup_with_game_searches_that_game():
    assert lookup("CA-3", game="crypto_trick").game == "crypto_trick"
    with pytest.raises(LookupError, match="crypto_trick defines it"):
        lookup("CA-3", game="depot")


def test_an_id_two_games_define_needs_a_game(monkeypatch):
    real = R._load
    twin = _parse("twin", "# Twin — rules reference\n\nIntro.\n\n## CA-3 — Shared\nThe same ID.\n")
    monkeypatch.setattr(R, "_games", lambda: (*GAMES, "twin"))
    monkeypatch.setattr(R, "_load", lambda name: twin if name == "twin" else real(name))
    with pytest.raises(LookupError) as info:
        lookup("CA-3")
    message = str(info.value)
    assert "CA-3" in message and "crypto_trick" in message and "twin" in message and "game=" in message
    assert lookup("CA-3", game="twin").game == "twin"
    assert lookup("CA-3", game="crypto_trick").game == "crypto_trick"


def test_ids_of_one_game_resolve_without_game():
    assert lookup("YA-7").game == "yadokarick" and lookup("CA-2").game == "crypto_trick"


def test_unknown_id_is_a_lookup_error_naming_it():
    with pytest.raises(LookupError, match="D99.9"):
        lookup("D99.9")
    with pytest.raises(LookupError, match=r"Z1\.1"):
        lookup("z1.1")
    with pytest.raises(LookupError) as info:
        lookup("D4.2", game="cirno_neu")
    assert "D4.2" in str(info.value) and "cirno_neu" in str(info.value)
    with pytest.raises(LookupError, match="N4.3"):
        lookup("N4.3", game="core")


def test_unknown_game_is_a_value_error_listing_games():
    for call in (lambda: lookup("D4.2", game="chess"), lambda: rules("chess"),
                 lambda: as_json("chess")):
        with pytest.raises(ValueError) as info:
            call()
        assert all(g in str(info.value) for g in GAMES)


def test_lookup_needs_a_string():
    with pytest.raises(TypeError):
        lookup(4.2)  # type: ignore[arg-type]


def test_rule_is_a_frozen_value_with_readable_str():
    rule = lookup("D4.2")
    assert str(rule) == f"D4.2 — {rule.title}: {rule.text}"
    assert rule.title == "Sets and runs"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.title = "x"  # type: ignore[misc]


def test_rules_returns_a_copy():
    table = rules("depot")
    table.clear()
    assert rules("depot")


def test_as_json_holds_game_then_core():
    for game in GAMES:
        data = as_json(game)
        ids = list(data)
        assert ids == [*rules(game), "G1", "G2", "G3", "G4", "G5"]
        assert set(data["G1"]) == {"title", "text"}
        json.dumps(data)
    assert list(as_json("core")) == ["G1", "G2", "G3", "G4", "G5"]


# --- cited ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("line, expected", [
    ("A leads [2] (single; limits: set 1, run 3) — rule D4.8.", ["D4.8"]),
    ("Illegal: rule N4.3 — 7 would make the sum 101", ["N4.3"]),
    ("Round 2: the sum is 0, Carol deals and plays first (rules N2.3, N6.6).", ["N2.3", "N6.6"]),
    ("B passes, the deck runs dry and the discard pile is reshuffled (D6.5, D9.1)",
     ["D6.5", "D9.1"]),
    ("B passes; nothing is left to draw (D6.5, D9)", ["D6.5", "D9"]),
    ("C passes (D6): takes both 5s from the Storage, gives a 3, draws 1 card (8). "
     "Storage [2,3,4,6,8] — set limit 1, run limit 3.", ["D6"]),
    ("D passes — third pass in a row (rule D7.1): round over. [6] is discarded, "
     "the Storage grows to 5 (D7.2), A leads.", ["D7.1", "D7.2"]),
    ("Bob holds [10, 50, 8] at 95 — every card would exceed 99: Bob is forced and busts "
     "(rule N4.4). Bob loses a chip (rule N6.4) and deals the next round (rule N6.6).",
     ["N4.4", "N6.4", "N6.6"]),
    ("Illegal: rule G3 — it is Bob's turn", ["G3"]),
    ("G3", ["G3"]),
    ("Illegal: rule D4.7 — [3,4] has the same strength; see rules D4.6 and D4.7.",
     ["D4.7", "D4.6"]),
    ("rules D4.4/D4.5 are checked before D4.7 (DA-25)", ["D4.4", "D4.5", "D4.7", "DA-25"]),
    ("S0 offers Y3; the trump set is W and G (C4.4)", ["C4.4"]),
    ("S2:P6 S3:G12 S0:G6 S1:P24 | S3 takes G12 (Y6.2); P6,G6 discarded (Y6.3) | "
     "S2:> (11→12) S0:< (12→11) (Y6.1, Y7.3) | S0 leads (Y9.2)",
     ["Y6.2", "Y6.3", "Y6.1", "Y7.3", "Y9.2"]),
    ("The 2-card default (ASM-8) comes from CA-8.", ["ASM-8", "CA-8"]),
    ("S1 wins the trick with W6 and takes G1, G3 and Y4.", []),
    ("Play 5 5 then 3 4 5: sum 99 (> 98).", []),
])
def test_cited_on_realistic_lines(line, expected):
    assert cited(line) == expected


def test_cited_ids_of_realistic_lines_resolve():
    line = ("Illegal: rule D4.5 — a run of 4 exceeds the run limit 3 (Storage [2,4,5,5,6]); "
            "see D3.3 and (D4, D9).")
    ids = cited(line)
    assert ids == ["D4.5", "D3.3", "D4", "D9"]
    assert [lookup(i).game for i in ids] == ["depot"] * 4


def test_cited_keeps_first_order_and_no_repeats():
    assert cited("rule D4.7; again D4.7, then (D4.6, D4.7)") == ["D4.7", "D4.6"]


def test_cited_bare_ids_in_parentheses_must_be_rules():
    # A green 3 in parentheses is a card, not a citation; a section ID is a citation.
    assert cited("S1 plays a trump (W6)") == []
    assert cited("S0 captures one card (Y6)") == ["Y6"]
    assert cited("S0 wins with the yellow six (Y6)", game="crypto_trick") == []
    assert cited("rule Y6", game="crypto_trick") == ["Y6"]  # explicit citations always count
    assert cited("S2 wins with the green one (G1)") == []  # core IDs never bare in parentheses
    assert cited("The game is over (rule G1)") == ["G1"]


def test_cited_on_every_rule_text_resolves():
    # Cross-references inside the reference itself must point at real entries.
    for game in GAMES:
        for rule in rules(game).values():
            for rid in cited(rule.text, game=game):
                lookup(rid, game=game)


# --- the parser ----------------------------------------------------------------------------------


def test_parser_reads_rules_and_skips_free_headings_and_fences():
    text = (
        "# Demo — rules reference\n\nIntro.\n\n"
        "## X1 — Part one\nSummary.\n\n"
        "### X1.1 — Detail\nFirst line.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "## Notes\nFree text, not a rule.\n\n"
        "### XA-1 — Question\nAnswer.\n\n"
        "## Action notation\n```\n## X9 — not a heading inside a fence\n```\n"
    )
    table = _parse("demo", text)
    assert list(table) == ["X1", "X1.1", "XA-1"]
    assert table["X1.1"].text == "First line.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    assert table["XA-1"].text == "Answer."
    assert table["X1"] == Rule("X1", "demo", "Part one", "Summary.")


@pytest.mark.parametrize("text, message", [
    ("## X1 — A\nx\n## X1 — B\ny\n", "duplicate"),
    ("## X1 - A hyphen instead of a dash\nx\n", "must read"),
    ("## X1 — Empty\n\n## X2 — Next\ny\n", "no text"),
])
def test_parser_refuses_broken_files(text, message):
    with pytest.raises(ValueError, match=message):
        _parse("demo", text)
